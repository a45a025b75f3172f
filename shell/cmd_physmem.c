/*
 * The shell's window on physical memory. meminfo, buddyinfo,
 * pagetypeinfo and vmstat print what /proc/meminfo, /proc/buddyinfo,
 * /proc/pagetypeinfo and /proc/vmstat contain (the same show functions,
 * fs/proc/meminfo.c and mm/vmstat.c), then, for meminfo and vmstat,
 * Folium's numbers Linux's files have no line for (zones, where boot
 * memory went; allocator events, splits per order, fallbacks).
 * pageblocks draws a map of every pageblock, the picture of
 * fragmentation (with the mixed pageblocks marked below their letters),
 * and alloc/free change that picture by hand.
 */
#include <mm.h>
#include <seq_file.h>
#include <shell.h>
#include <vm.h>

static const char pageblock_letters[MIGRATE_TYPES] = {
	[MIGRATE_UNMOVABLE] = 'U',  [MIGRATE_MOVABLE] = 'M', [MIGRATE_RECLAIMABLE] = 'R',
	[MIGRATE_HIGHATOMIC] = 'H', [MIGRATE_CMA] = 'C',     [MIGRATE_ISOLATE] = 'I',
};

#define for_each_populated_zone(pgdat, zone)                                                \
	for (zone = (pgdat)->node_zones; zone < (pgdat)->node_zones + MAX_NR_ZONES; zone++) \
		if (zone->spanned_pages)

/* Print a /proc file's contents through its show function. */
static int show_file(seq_show_t show, void *v, const char *cmd)
{
	int err = seq_show_to_console(show, v);

	if (err)
		kprintf("%s: error %d\n", cmd, err);
	return err ? CMD_ERROR : CMD_OK;
}

static int cmd_buddyinfo(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	return show_file(frag_show, NULL, argv[0]);
}

static int cmd_pagetypeinfo(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	return show_file(pagetypeinfo_show, NULL, argv[0]);
}

/* /proc/vmstat (node 0), then Folium's own counters of every node. */
static int cmd_vmstat(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	if (show_file(vmstat_show, NULL, argv[0]))
		return CMD_ERROR;
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		if (!NODE_DATA(nid))
			continue;
		if (nid)
			kprintf("node %d:\n", nid);
		if (show_file(vmstat_folium_show, NODE_DATA(nid), argv[0]))
			return CMD_ERROR;
	}
	return CMD_OK;
}

/* One letter for a pageblock: its type, lower case when every page in it
 * is free (free blocks may start in an earlier pageblock: pfn_free_span
 * finds them), '#' when none of it is managed by the buddy allocator, a
 * blank for a hole in physical memory. */
static char pageblock_letter(unsigned long start_pfn)
{
	unsigned long end_pfn = start_pfn + pageblock_nr_pages, free = 0, reserved = 0;
	int mt;

	if (!pfn_valid(start_pfn))
		return ' ';
	mt = get_pageblock_migratetype(pfn_to_page(start_pfn));
	for (unsigned long pfn = start_pfn; pfn < end_pfn;) {
		unsigned long span = pfn_valid(pfn) ? pfn_free_span(pfn) : 0;

		if (span) {
			free += MIN(span, end_pfn - pfn);
			pfn += span;
			continue;
		}
		reserved += !pfn_valid(pfn) || PageReserved(pfn_to_page(pfn));
		pfn++;
	}
	if (reserved == pageblock_nr_pages)
		return '#';
	if (free == pageblock_nr_pages && mt != MIGRATE_ISOLATE)
		return pageblock_letters[mt] - 'A' + 'a';
	return pageblock_letters[mt];
}

#define PAGEBLOCKS_PER_LINE 64

/* One row of the map from pfn: its letters, then, if any of its
 * pageblocks is mixed (pageblock_mixed), a row with '^' under each. */
static void pageblocks_row(unsigned long pfn, const char *letters, const char *mixed, int n)
{
	int last = n - 1;

	kprintf("%#10lx %.*s\n", pfn, n, letters);
	while (last >= 0 && mixed[last] != '^')
		last--;
	if (last >= 0)
		kprintf("%10s %.*s\n", "", last + 1, mixed);
}

static void pageblocks_zone(int nid, struct zone *zone)
{
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;
	unsigned long pfn = pageblock_start_pfn(zone->zone_start_pfn), row_pfn = pfn;
	char letters[PAGEBLOCKS_PER_LINE], mixed[PAGEBLOCKS_PER_LINE];
	int col = 0;

	kprintf("Node %d, zone %s:\n", nid, zone->name);
	for (; pfn < end; pfn += pageblock_nr_pages) {
		if (col == 0)
			row_pfn = pfn;
		letters[col] = pageblock_letter(pfn);
		mixed[col] = pageblock_mixed(zone, pfn) ? '^' : ' ';
		if (++col == PAGEBLOCKS_PER_LINE) {
			pageblocks_row(row_pfn, letters, mixed, col);
			col = 0;
		}
	}
	if (col)
		pageblocks_row(row_pfn, letters, mixed, col);
}

static int cmd_pageblocks(int argc, char **argv)
{
	struct zone *zone;

	if (argc != 1)
		return CMD_USAGE;
	kprintf("One letter per pageblock of %lu pages: U unmovable, M movable, "
		"R reclaimable,\nH highatomic, C CMA, I isolated; lower case: "
		"entirely free; # reserved; blank: no RAM;\n^ below: mixed (holds pages "
		"allocated as another type).\n",
		pageblock_nr_pages);
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			for_each_populated_zone(NODE_DATA(nid), zone)
				pageblocks_zone(nid, zone);
	return CMD_OK;
}

static unsigned long kb(unsigned long pages)
{
	return pages * (PAGE_SIZE / KIB);
}

/* Per zone: free pages (per-CPU lists included) of the managed ones. */
static void meminfo_zones(const struct pglist_data *pgdat)
{
	for (int z = 0; z < MAX_NR_ZONES; z++) {
		const struct zone *zone = &pgdat->node_zones[z];
		char label[24];

		if (!zone->spanned_pages)
			continue;
		ksnprintf(label, sizeof(label), "%sFree:", zone->name);
		kprintf("%-15s%10lu kB of %lu kB managed\n", label,
			kb(zone->nr_free_pages + (unsigned long)zone->pcp.count),
			kb(zone->managed_pages));
	}
}

/* meminfo: /proc/meminfo, then the zones and where boot memory went. */
static int cmd_meminfo(int argc, char **argv)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	const struct edge_block *tests = test_memory_block(); /* only while tests run */

	if (argc != 1)
		return CMD_USAGE;
	if (!pgdat) {
		kprintf("meminfo: the page allocator is not set up\n");
		return CMD_ERROR;
	}
	if (show_file(meminfo_proc_show, NULL, argv[0]))
		return CMD_ERROR;
	meminfo_zones(pgdat);
	kprintf("PhysMem:       %10llu kB\n", (unsigned long long)(boot_mem.total / KIB));
	kprintf("Reserved:      %10llu kB\n", (unsigned long long)(boot_mem.reserved / KIB));
	kprintf("Memmap:        %10llu kB\n", (unsigned long long)(boot_mem.memmap / KIB));
	kprintf("TestMem:       %10lu kB\n", kb(tests ? tests->nr_offline : 0));
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(meminfo, "meminfo", "memory totals, like /proc/meminfo");

/* Blocks taken with `alloc`, linked through page->lru; page->private holds
 * the order so `free` knows what to give back. */
static struct list_head held_blocks = LIST_HEAD_INIT(held_blocks);
static unsigned long held_pages;

static int parse_migratetype(const char *s, gfp_t *gfp)
{
	if (strcmp(s, "unmovable") == 0)
		*gfp = GFP_KERNEL;
	else if (strcmp(s, "movable") == 0)
		*gfp = GFP_HIGHUSER_MOVABLE;
	else if (strcmp(s, "reclaimable") == 0)
		*gfp = GFP_KERNEL | __GFP_RECLAIMABLE;
	else
		return -1;
	return 0;
}

static int cmd_alloc(int argc, char **argv)
{
	uint64_t order, count, done = 0;
	gfp_t gfp = GFP_KERNEL;

	if (argc < 3 || argc > 4 || kstrtou64(argv[1], &order) || kstrtou64(argv[2], &count))
		return CMD_USAGE;
	if (order > MAX_PAGE_ORDER) {
		kprintf("alloc: order %llu is above MAX_PAGE_ORDER %d\n", (unsigned long long)order,
			MAX_PAGE_ORDER);
		return CMD_ERROR;
	}
	if (argc == 4 && parse_migratetype(argv[3], &gfp))
		return CMD_USAGE;
	for (; done < count; done++) {
		struct page *page = alloc_pages(gfp | __GFP_NOWARN, (unsigned int)order);

		if (!page)
			break;
		page->private = order;
		list_add(&page->lru, &held_blocks);
		held_pages += 1ul << order;
	}
	kprintf("alloc: got %llu of %llu order-%llu blocks; holding %lu pages (free with 'free')\n",
		(unsigned long long)done, (unsigned long long)count, (unsigned long long)order,
		held_pages);
	return done == count ? CMD_OK : CMD_ERROR;
}

static int cmd_free(int argc, char **argv)
{
	uint64_t limit = UINT64_MAX, freed = 0;
	struct page *page, *next;

	if (argc > 2 || (argc == 2 && kstrtou64(argv[1], &limit)))
		return CMD_USAGE;
	list_for_each_entry_safe(page, next, &held_blocks, lru) {
		unsigned int order = (unsigned int)page->private;

		if (freed == limit)
			break;
		list_del(&page->lru);
		page->private = 0;
		held_pages -= 1ul << order;
		__free_pages(page, order);
		freed++;
	}
	kprintf("free: returned %llu blocks; holding %lu pages\n", (unsigned long long)freed,
		held_pages);
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(buddyinfo, "buddyinfo", "free blocks per zone and order (/proc/buddyinfo)");
DEFINE_SHELL_COMMAND(pagetypeinfo, "pagetypeinfo",
		     "free blocks per migratetype, pageblocks and mixed ones per type "
		     "(/proc/pagetypeinfo)");
DEFINE_SHELL_COMMAND(vmstat, "vmstat", "allocator counters (/proc/vmstat names)");
DEFINE_SHELL_COMMAND(pageblocks, "pageblocks",
		     "a map of every pageblock's migratetype, mixed ones marked");
DEFINE_SHELL_COMMAND(alloc, "alloc ORDER COUNT [unmovable|movable|reclaimable]",
		     "allocate COUNT blocks of 2^ORDER pages and hold them");
DEFINE_SHELL_COMMAND(free, "free [COUNT]", "give back blocks taken with alloc (all, or COUNT)");
