/*
 * vm.drop_caches (Linux: fs/drop_caches.c), write-only: 1 drops the page
 * cache's clean pages, 2 the slab caches' reclaimable objects, 3 both, 4
 * silences the log line. Folium has no page cache yet and its slab gives
 * an empty slab back at once, so there is nothing to drop: the write is
 * checked and logged as Linux does it, and frees nothing.
 */
#include <sysctl.h>

static int sysctl_drop_caches;

/* Linux: drop_caches_sysctl_handler. */
static int drop_caches_sysctl_handler(const struct ctl_table *table, int write, char *buffer,
				      size_t *lenp, uint64_t *ppos)
{
	static bool stfu;
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	if (!stfu)
		pr_info("drop_caches: %d\n", sysctl_drop_caches);
	stfu |= sysctl_drop_caches & 4;
	return 0;
}

static const struct ctl_table drop_caches_table[] = {
	{ .procname = "drop_caches",
	  .data = &sysctl_drop_caches,
	  .maxlen = sizeof(int),
	  .mode = 0200,
	  .proc_handler = drop_caches_sysctl_handler,
	  .extra1 = SYSCTL_ONE,
	  .extra2 = SYSCTL_FOUR },
};
SYSCTL_TABLE("vm", drop_caches_table);
