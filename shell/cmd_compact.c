/*
 * `compact [ORDER|all] [NODE]`: memory compaction by hand. `all` (the
 * default) is a full pass over every zone, as writing 1 to
 * /proc/sys/vm/compact_memory; an ORDER stops each zone's pass once a
 * free block of that order exists (compact_zone_order). Each zone prints
 * how the pass ended, what its scanners did, and its free blocks per
 * order before and after, as /proc/buddyinfo counts them. Example:
 * "compact: node 0, zone Normal: complete; scanned 3584 pages (migrate),
 * 8 (free); isolated 14; migrated 7, failed 0".
 */
#include <compaction.h>
#include <shell.h>

/* Linux: compaction_status_string, as its tracepoints print them. */
static const char *const compact_result_names[] = {
	[COMPACT_NOT_SUITABLE_ZONE] = "not_suitable_zone",
	[COMPACT_SKIPPED] = "skipped",
	[COMPACT_DEFERRED] = "deferred",
	[COMPACT_CONTINUE] = "continue",
	[COMPACT_COMPLETE] = "complete",
	[COMPACT_PARTIAL_SKIPPED] = "partial_skipped",
	[COMPACT_CONTENDED] = "contended",
	[COMPACT_SUCCESS] = "success",
};

static void print_free_blocks(const char *label, const unsigned long *nr_free)
{
	kprintf("  %-7s", label);
	for (int order = 0; order < NR_PAGE_ORDERS; order++)
		kprintf("%6lu ", nr_free[order]);
	kprintf("\n");
}

static void compact_one_zone(int nid, struct zone *zone, int order)
{
	unsigned long before[NR_PAGE_ORDERS], after[NR_PAGE_ORDERS];
	struct compact_stats st = { 0 };
	enum compact_result ret;

	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		before[o] = zone->free_area[o].nr_free;
	ret = compact_zone_order(zone, order, &st);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		after[o] = zone->free_area[o].nr_free;
	kprintf("compact: node %d, zone %s: %s; scanned %lu pages (migrate), %lu (free); "
		"isolated %lu; migrated %lu, failed %lu\n",
		nid, zone->name, compact_result_names[ret], st.migrate_scanned, st.free_scanned,
		st.isolated, st.migrated, st.failed);
	kprintf("  %-7s", "order");
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		kprintf("%6d ", o);
	kprintf("\n");
	print_free_blocks("before", before);
	print_free_blocks("after", after);
}

/* Return: false if Ctrl-C stopped it (between two zones: one zone's
 * pass runs to its end). */
static bool compact_one_node(int nid, int order)
{
	struct pglist_data *pgdat = NODE_DATA(nid);

	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		if (!pgdat->node_zones[zt].managed_pages)
			continue;
		if (console_interrupted()) {
			kprintf("compact: interrupted before node %d, zone %s\n", nid,
				pgdat->node_zones[zt].name);
			return false;
		}
		compact_one_zone(nid, &pgdat->node_zones[zt], order);
	}
	return true;
}

static int cmd_compact(int argc, char **argv)
{
	uint64_t order = 0, nid = 0;
	bool all = argc < 2 || !strcmp(argv[1], "all");

	if (argc > 3 || (!all && (kstrtou64(argv[1], &order) || order > MAX_PAGE_ORDER)) ||
	    (argc == 3 && (kstrtou64(argv[2], &nid) || nid >= MAX_NUMNODES)))
		return CMD_USAGE;
	if (argc == 3 && !NODE_DATA(nid)) {
		kprintf("compact: no node %llu\n", (unsigned long long)nid);
		return CMD_ERROR;
	}
	for (int n = 0; n < MAX_NUMNODES; n++)
		if (NODE_DATA(n) && (argc < 3 || (uint64_t)n == nid) &&
		    !compact_one_node(n, all ? -1 : (int)order))
			return CMD_ERROR;
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(compact, "compact [ORDER|all] [NODE]",
		     "compact memory: a full pass (all), or until a free ORDER block exists");
