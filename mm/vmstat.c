/*
 * The allocator's counters as Linux's /proc files (Linux: mm/vmstat.c):
 * /proc/vmstat ("name value" lines, Linux's names for the counters Linux
 * has), /proc/buddyinfo (free blocks per zone and order),
 * /proc/pagetypeinfo (free blocks per migratetype, then pageblocks and
 * mixed pageblocks per type) and /proc/zoneinfo (each zone's free pages,
 * watermarks and sizes), in Linux's exact layout. Example buddyinfo line:
 * "Node 0, zone    DMA32    412    131 ...\n" ("%6lu " per order).
 * The shell's vmstat, buddyinfo and pagetypeinfo print these same shows.
 */
#include <seq_file.h>
#include <vm.h>

#define for_each_populated_zone(pgdat, zone)                                                \
	for (zone = (pgdat)->node_zones; zone < (pgdat)->node_zones + MAX_NR_ZONES; zone++) \
		if (zone->present_pages) /* Linux: populated_zone */

#define for_each_node_pgdat(nid, pgdat)          \
	for (nid = 0; nid < MAX_NUMNODES; nid++) \
		if (((pgdat) = NODE_DATA(nid)) != NULL)

/* Linux: frag_show_print, one line per populated zone of every node. */
int frag_show(struct seq_file *m, void *v)
{
	struct zone *zone;

	(void)v;
	for (int nid = 0; nid < MAX_NUMNODES; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		if (!pgdat)
			continue;
		for_each_populated_zone(pgdat, zone) {
			seq_printf(m, "Node %d, zone %8s ", pgdat->node_id, zone->name);
			for (int order = 0; order < NR_PAGE_ORDERS; order++)
				seq_printf(m, "%6lu ", zone->free_area[order].nr_free);
			seq_putc(m, '\n');
		}
	}
	return 0;
}

/* Linux counts at most 100000 entries per list and prints ">100000". */
static void showfree_print(struct seq_file *m, struct pglist_data *pgdat, struct zone *zone)
{
	for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
		seq_printf(m, "Node %4d, zone %8s, type %12s ", pgdat->node_id, zone->name,
			   migratetype_names[mt]);
		for (int order = 0; order < NR_PAGE_ORDERS; order++) {
			const struct list_head *pos;
			unsigned long n = 0;

			list_for_each(pos, &zone->free_area[order].free_list[mt])
				if (++n >= 100000)
					break;
			seq_printf(m, "%s%6lu ", n >= 100000 ? ">" : "", n);
		}
		seq_putc(m, '\n');
	}
}

/* A section's title row, one column per migratetype (12 wide). */
static void migratetype_header(struct seq_file *m, const char *title)
{
	seq_printf(m, "\n%-23s", title);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		seq_printf(m, "%12s ", migratetype_names[mt]);
	seq_putc(m, '\n');
}

/* One zone's row under migratetype_header. */
static void migratetype_counts(struct seq_file *m, struct pglist_data *pgdat, struct zone *zone,
			       const unsigned long count[MIGRATE_TYPES])
{
	seq_printf(m, "Node %d, zone %8s ", pgdat->node_id, zone->name);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		seq_printf(m, "%12lu ", count[mt]);
	seq_putc(m, '\n');
}

/* Linux: pagetypeinfo_showblockcount_print (holes have no pageblock). */
static void showblockcount_print(struct seq_file *m, struct pglist_data *pgdat, struct zone *zone)
{
	unsigned long count[MIGRATE_TYPES] = { 0 };
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;

	for (unsigned long pfn = zone->zone_start_pfn; pfn < end; pfn += pageblock_nr_pages)
		if (pfn_valid(pfn) && page_zone(pfn_to_page(pfn)) == zone)
			count[get_pageblock_migratetype(pfn_to_page(pfn))]++;
	migratetype_counts(m, pgdat, zone, count);
}

/* Linux: pagetypeinfo_showmixedcount_print, counted by page_owner. */
static void showmixedcount_print(struct seq_file *m, struct pglist_data *pgdat, struct zone *zone)
{
	unsigned long count[MIGRATE_TYPES];

	zone_mixed_pageblocks(zone, count);
	migratetype_counts(m, pgdat, zone, count);
}

/* Linux: pagetypeinfo_show, once per node. Linux prints the mixed blocks
 * only with CONFIG_PAGE_OWNER; Folium always keeps what they need. */
int pagetypeinfo_show(struct seq_file *m, void *v)
{
	struct pglist_data *pgdat;
	struct zone *zone;
	int nid;

	(void)v;
	for_each_node_pgdat(nid, pgdat)
	{
		seq_printf(m, "Page block order: %d\n", (int)pageblock_order);
		seq_printf(m, "Pages per block:  %lu\n", (unsigned long)pageblock_nr_pages);
		seq_putc(m, '\n');
		seq_printf(m, "%-43s ", "Free pages count per migrate type at order");
		for (int order = 0; order < NR_PAGE_ORDERS; order++)
			seq_printf(m, "%6d ", order);
		seq_putc(m, '\n');
		for_each_populated_zone(pgdat, zone)
			showfree_print(m, pgdat, zone);
		migratetype_header(m, "Number of blocks type ");
		for_each_populated_zone(pgdat, zone)
			showblockcount_print(m, pgdat, zone);
		migratetype_header(m, "Number of mixed blocks ");
		for_each_populated_zone(pgdat, zone)
			showmixedcount_print(m, pgdat, zone);
	}
	return 0;
}

/*
 * Linux: zoneinfo_show_print, every zone of every node; an empty zone
 * gets its name line only. Folium has no lowmem_reserve (a request never
 * falls back from ZONE_NORMAL to ZONE_DMA32 at a premium), so protection
 * is all zeros, one per zone as Linux prints it. Tools read the
 * watermarks here the way Linux's MemAvailable does (user/lazyfree.c).
 * Example: "Node 0, zone    DMA32\n  pages free     123456\n        min
 * 1024\n ...".
 */
static void zoneinfo_show_print(struct seq_file *m, struct pglist_data *pgdat, struct zone *zone)
{
	seq_printf(m, "Node %d, zone %8s", pgdat->node_id, zone->name);
	if (!zone->present_pages) {
		seq_putc(m, '\n');
		return;
	}
	seq_printf(m,
		   "\n  pages free     %lu\n        boost    0\n        min      %lu"
		   "\n        low      %lu\n        high     %lu\n        spanned  %lu"
		   "\n        present  %lu\n        managed  %lu\n        cma      %lu",
		   zone->nr_free_pages, zone->_watermark[WMARK_MIN], zone->_watermark[WMARK_LOW],
		   zone->_watermark[WMARK_HIGH], zone->spanned_pages, zone->present_pages,
		   zone->managed_pages, zone->cma_pages);
	seq_puts(m, "\n        protection: (0");
	for (int z = 1; z < MAX_NR_ZONES; z++)
		seq_puts(m, ", 0");
	seq_printf(m, ")\n      nr_free_pages %lu\n      nr_free_cma  %lu", zone->nr_free_pages,
		   zone->nr_free_cma);
	seq_printf(m,
		   "\n  pagesets\n    cpu: 0\n              count: %i\n              high:  %i"
		   "\n              batch: %i\n  vm stats threshold: 0",
		   zone->pcp.count, zone->pcp.high, zone->pcp.batch);
	seq_printf(m, "\n  node_unreclaimable:  0\n  start_pfn:           %lu\n",
		   zone->zone_start_pfn);
}

int zoneinfo_show(struct seq_file *m, void *v)
{
	struct pglist_data *pgdat;
	int nid;

	(void)v;
	for_each_node_pgdat(nid, pgdat) for (int z = 0; z < MAX_NR_ZONES; z++)
		zoneinfo_show_print(m, pgdat, &pgdat->node_zones[z]);
	return 0;
}

/* Events Linux's /proc/vmstat has under the same name, in its order; the
 * rest of vm_event_names are Folium's own (vmstat_folium_show). */
static const enum vm_event_item linux_events[] = {
	PGFREE,
	PGLAZYFREE,
	PGFAULT,
	PGMAJFAULT,
	PGLAZYFREED,
	PGSCAN_ANON,
	PGMIGRATE_SUCCESS,
	PGMIGRATE_FAIL,
	COMPACTMIGRATE_SCANNED,
	COMPACTFREE_SCANNED,
	COMPACTISOLATED,
	COMPACTSTALL,
	COMPACTFAIL,
	COMPACTSUCCESS,
	HTLB_BUDDY_PGALLOC,
	HTLB_BUDDY_PGALLOC_FAIL,
	CMA_ALLOC_SUCCESS,
	CMA_ALLOC_FAIL,
	UNEVICTABLE_PGCULLED,
	UNEVICTABLE_PGSCANNED,
	UNEVICTABLE_PGRESCUED,
	UNEVICTABLE_PGMLOCKED,
	UNEVICTABLE_PGMUNLOCKED,
	UNEVICTABLE_PGCLEARED,
	UNEVICTABLE_PGSTRANDED,
	THP_COLLAPSE_ALLOC,
	THP_COLLAPSE_ALLOC_FAILED,
	THP_FILE_ALLOC,
	THP_FILE_FALLBACK,
	THP_FILE_MAPPED,
	THP_SPLIT_PAGE,
	THP_SPLIT_PAGE_FAILED,
	THP_DEFERRED_SPLIT_PAGE,
	THP_SPLIT_PMD,
	THP_ZERO_PAGE_ALLOC,
	THP_ZERO_PAGE_ALLOC_FAILED,
};

static bool is_linux_event(int item)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(linux_events); i++)
		if ((int)linux_events[i] == item)
			return true;
	return false;
}

/* PMD-mapped THPs on list: an order-9 folio with one mapping (its PMD
 * leaf; after __split_huge_pmd it has 512). Linux: NR_ANON_THPS. */
static unsigned long lru_pmd_mapped(const struct list_head *list)
{
	const struct list_head *pos;
	unsigned long n = 0;

	list_for_each(pos, list) {
		struct folio *folio = page_folio(list_entry(pos, struct page, lru));

		n += folio_order(folio) == HPAGE_PMD_ORDER && folio_mapcount(folio) == 1;
	}
	return n;
}

unsigned long vm_anon_thps(struct pglist_data *pgdat)
{
	return lru_pmd_mapped(&pgdat->lru_anon) + lru_pmd_mapped(&pgdat->lru_lazyfree) +
	       lru_pmd_mapped(&pgdat->lru_unevictable);
}

/*
 * Linux: vmstat_show over node 0, the machine's memory (tests' private
 * nodes are not). Folium keeps MADV_FREE'd folios on a list of their own;
 * Linux keeps them on the inactive file LRU, so they are counted there.
 * Page tables are per mm here: the active mm's are shown (one program
 * runs at a time). THP fault events are the PMD size's mTHP stats.
 */
int vmstat_show(struct seq_file *m, void *v)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long free = 0, free_cma = 0, anon, lazy, unevictable;
	struct zone *zone;

	(void)v;
	if (!pgdat)
		return 0;
	for_each_populated_zone(pgdat, zone) {
		free += zone->nr_free_pages;
		free_cma += zone->nr_free_cma;
	}
	anon = lru_list_pages(&pgdat->lru_anon);
	lazy = lru_list_pages(&pgdat->lru_lazyfree);
	unevictable = lru_list_pages(&pgdat->lru_unevictable);
	seq_printf(m, "nr_free_pages %lu\n", free);
	seq_printf(m, "nr_zone_inactive_anon 0\nnr_zone_active_anon %lu\n", anon);
	seq_printf(m, "nr_zone_inactive_file %lu\nnr_zone_active_file 0\n", lazy);
	seq_printf(m, "nr_zone_unevictable %lu\n", unevictable);
	seq_printf(m, "nr_mlock %lu\n", pgdat->nr_mlock);
	seq_printf(m, "nr_free_cma %lu\n", free_cma);
	seq_printf(m, "nr_inactive_anon 0\nnr_active_anon %lu\n", anon);
	seq_printf(m, "nr_inactive_file %lu\nnr_active_file 0\n", lazy);
	seq_printf(m, "nr_unevictable %lu\n", unevictable);
	seq_printf(m, "nr_anon_pages %lu\n", anon + lazy + unevictable);
	seq_printf(m, "nr_mapped %lu\n", pgdat->nr_file_mapped);
	seq_printf(m, "nr_file_pages %lu\n", pgdat->nr_file_pages);
	seq_printf(m, "nr_shmem %lu\n", pgdat->nr_shmem);
	seq_printf(m, "nr_shmem_hugepages %lu\n", pgdat->nr_shmem_thps >> HPAGE_PMD_ORDER);
	seq_printf(m, "nr_shmem_pmdmapped %lu\n", pgdat->nr_shmem_pmdmapped >> HPAGE_PMD_ORDER);
	seq_printf(m, "nr_file_hugepages %lu\n", pgdat->nr_file_thps >> HPAGE_PMD_ORDER);
	seq_printf(m, "nr_file_pmdmapped %lu\n", pgdat->nr_file_pmdmapped >> HPAGE_PMD_ORDER);
	seq_printf(m, "nr_anon_transparent_hugepages %lu\n", vm_anon_thps(pgdat));
	seq_printf(m, "nr_page_table_pages %lu\n",
		   current_mm ? current_mm->counters[MM_PGTABLES] : 0ul);
	for (unsigned int i = 0; i < ARRAY_SIZE(linux_events); i++) {
		if (linux_events[i] == THP_COLLAPSE_ALLOC) /* Linux lists the fault events first */
			seq_printf(m, "thp_fault_alloc %lu\nthp_fault_fallback %lu\n",
				   mthp_stats[HPAGE_PMD_ORDER][MTHP_STAT_ANON_FAULT_ALLOC],
				   mthp_stats[HPAGE_PMD_ORDER][MTHP_STAT_ANON_FAULT_FALLBACK]);
		seq_printf(m, "%s %lu\n", vm_event_names[linux_events[i]],
			   pgdat->vm_events[linux_events[i]]);
	}
	return 0;
}

/* What Linux's /proc/vmstat has no line for: the allocator's own events,
 * splits per order (Linux: hugepages-<size>kB/stats/split) and the
 * migratetype fallbacks. v: the node. */
int vmstat_folium_show(struct seq_file *m, void *v)
{
	struct pglist_data *pgdat = v;

	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		if (!is_linux_event(i))
			seq_printf(m, "%s %lu\n", vm_event_names[i], pgdat->vm_events[i]);
	for (int order = 1; order < NR_PAGE_ORDERS; order++)
		if (pgdat->split_count[order])
			seq_printf(m, "thp_split_page_order_%d %lu\n", order,
				   pgdat->split_count[order]);
	for (int from = 0; from < MIGRATE_TYPES; from++)
		for (int to = 0; to < MIGRATE_TYPES; to++)
			if (pgdat->fallback_count[from][to])
				seq_printf(m, "fallback %s->%s %lu\n", migratetype_names[from],
					   migratetype_names[to], pgdat->fallback_count[from][to]);
	return 0;
}
