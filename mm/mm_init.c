/*
 * Nodes and zones: struct page initialisation, handing RAM to the buddy
 * allocator, and the watermarks (Linux: mm/mm_init.c, parts of page_alloc.c).
 * A node over pfns [0x0ff000, 0x101000) gets ZONE_DMA32 = [0x0ff000,
 * 0x100000) and ZONE_NORMAL = [0x100000, 0x101000): the split is at 4 GiB.
 * Every struct page starts PG_reserved; free_pfn_range_to_buddy() clears
 * the flag on the pages it frees, so managed_pages is always the number of
 * non-reserved pages in the zone.
 */
#include <sysctl.h>
#include "internal.h"

struct pglist_data *node_data[MAX_NUMNODES];

#define DMA32_END_PFN PHYS_PFN(4ull << 30)

/* Linux: the pcp batch never exceeds 1 MiB / 4 worth of pages (63 with 4K). */
#define PCP_BATCH_MAX_PAGES ((1ul << 20) / PAGE_SIZE)

/* [*start, *end) of zone type zt inside a node over [start_pfn, end_pfn). */
static void zone_range(enum zone_type zt, unsigned long start_pfn, unsigned long end_pfn,
		       unsigned long *start, unsigned long *end)
{
	if (zt == ZONE_DMA32) {
		*start = MIN(start_pfn, DMA32_END_PFN);
		*end = MIN(end_pfn, DMA32_END_PFN);
	} else {
		*start = MAX(start_pfn, DMA32_END_PFN);
		*end = MAX(end_pfn, DMA32_END_PFN);
	}
}

/* Pageblocks that [start, end) touches, partial ones at the edges included. */
static unsigned long nr_pageblocks_in(unsigned long start, unsigned long end)
{
	if (start == end)
		return 0;
	return (ALIGN_UP(end, pageblock_nr_pages) - pageblock_start_pfn(start)) >> pageblock_order;
}

/* Two pageblocks per byte: 4 bits each. */
static size_t pageblock_flags_bytes(unsigned long start, unsigned long end)
{
	return (nr_pageblocks_in(start, end) + 1) / 2;
}

/* Compaction's skip hints after them: one bit per pageblock. */
static size_t pageblock_skip_bytes(unsigned long start, unsigned long end)
{
	return (nr_pageblocks_in(start, end) + 7) / 8;
}

/* A zone's share of a node's flags storage. */
static size_t zone_flags_bytes(unsigned long start, unsigned long end)
{
	return pageblock_flags_bytes(start, end) + pageblock_skip_bytes(start, end);
}

size_t pgdat_pageblock_flags_size(unsigned long start_pfn, unsigned long end_pfn)
{
	size_t bytes = 0;
	unsigned long s, e;

	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		zone_range(zt, start_pfn, end_pfn, &s, &e);
		bytes += zone_flags_bytes(s, e);
	}
	return bytes;
}

/* Empty lists, no memory managed yet, every pageblock MIGRATE_MOVABLE. */
static void zone_init(struct zone *zone, struct pglist_data *pgdat, enum zone_type zt,
		      unsigned long start, unsigned long end, uint8_t *flags)
{
	static const char *const names[MAX_NR_ZONES] = { "DMA32", "Normal" };
	/* Linux: every pageblock starts MOVABLE (memmap_init_range). */
	const uint8_t movable_pair = MIGRATE_MOVABLE | MIGRATE_MOVABLE << 4;

	zone->name = names[zt];
	zone->zone_pgdat = pgdat;
	zone->zone_start_pfn = start;
	zone->spanned_pages = end - start;
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			INIT_LIST_HEAD(&zone->free_area[o].free_list[mt]);
	for (int i = 0; i < NR_PCP_LISTS; i++)
		INIT_LIST_HEAD(&zone->pcp.lists[i]);
	zone->pcp.batch = 1;
	zone->pcp.high = zone->pcp.high_min = zone->pcp.high_max = 4;
	zone->nr_pageblocks = nr_pageblocks_in(start, end);
	zone->pageblock_flags = zone->nr_pageblocks ? flags : NULL;
	zone->pageblock_flags_pfn = start;
	memset(flags, movable_pair, pageblock_flags_bytes(start, end));
	/* Compaction's skip hints follow, all clear. */
	flags += pageblock_flags_bytes(start, end);
	zone->pageblock_skip = zone->nr_pageblocks ? flags : NULL;
	memset(flags, 0, pageblock_skip_bytes(start, end));
}

/* Linux: __init_single_page for each page; see mm/internal.h. */
void memmap_init_range(int nid, enum zone_type zt, unsigned long start, unsigned long end)
{
	unsigned long flags = 1ul << PG_reserved | (unsigned long)zt << PAGE_FLAGS_ZONE_SHIFT |
			      (unsigned long)nid << PAGE_FLAGS_NODE_SHIFT;

	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct page *page;

		if (!pfn_valid(pfn))
			continue;
		page = pfn_to_page(pfn);
		memset(page, 0, sizeof(*page));
		page->flags = flags;
		page_mapcount_reset(page);
		INIT_LIST_HEAD(&page->lru);
	}
}

void pgdat_init(struct pglist_data *pgdat, int nid, unsigned long start_pfn, unsigned long end_pfn,
		void *flags_storage)
{
	uint8_t *flags = flags_storage;
	unsigned long s, e;

	memset(pgdat, 0, sizeof(*pgdat));
	pgdat->node_id = nid;
	pgdat->nr_zones = MAX_NR_ZONES;
	pgdat->node_start_pfn = start_pfn;
	pgdat->node_spanned_pages = end_pfn - start_pfn;
	INIT_LIST_HEAD(&pgdat->lru_anon);
	INIT_LIST_HEAD(&pgdat->lru_lazyfree);
	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		zone_range(zt, start_pfn, end_pfn, &s, &e);
		zone_init(&pgdat->node_zones[zt], pgdat, zt, s, e, flags);
		flags += zone_flags_bytes(s, e);
		memmap_init_range(nid, zt, s, e);
	}
	node_data[nid] = pgdat;
}

/* Largest order of a naturally aligned block at pfn that ends by end. */
static unsigned int max_block_order(unsigned long pfn, unsigned long end)
{
	unsigned int order = MAX_PAGE_ORDER;

	while (order && ((pfn & ((1ul << order) - 1)) || pfn + (1ul << order) > end))
		order--;
	return order;
}

void free_pfn_range_to_buddy(unsigned long start_pfn, unsigned long end_pfn)
{
	struct pglist_data *pgdat = NULL;
	unsigned long pfn = start_pfn;

	while (pfn < end_pfn) {
		struct page *page = pfn_to_page(pfn);
		unsigned long zone_end = DMA32_END_PFN > pfn ? DMA32_END_PFN : end_pfn;
		unsigned int order = max_block_order(pfn, MIN(end_pfn, zone_end));
		struct zone *zone = page_zone(page);

		for (unsigned long i = 0; i < (1ul << order); i++) {
			ClearPageFlag(page + i, PG_reserved);
			page[i]._refcount = 0;
		}
		zone->managed_pages += 1ul << order;
		zone->present_pages += 1ul << order;
		/* Linux: memblock_free_pages -> __free_pages_core, no pcp. */
		__free_one_page(page, pfn, zone, order, get_pageblock_migratetype(page));
		pgdat = zone->zone_pgdat;
		pfn += 1ul << order;
	}
	if (pgdat)
		setup_per_zone_wmarks(pgdat);
}

/* floor(sqrt(x)), bit by bit (Linux: int_sqrt). */
static unsigned long int_sqrt(unsigned long x)
{
	unsigned long r = 0, bit = 1ul << (sizeof(long) * 8 - 2);

	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

/* Linux: zone_highsize for one CPU. With high_fraction 0 the low
 * watermark, else 1/high_fraction of the zone; at least 4 batches. */
static unsigned long zone_highsize(const struct zone *zone, unsigned long batch,
				   unsigned long high_fraction)
{
	unsigned long total =
		high_fraction ? zone->managed_pages / high_fraction : zone->_watermark[WMARK_LOW];

	return MAX(total, batch * 4);
}

#define MIN_PERCPU_PAGELIST_HIGH_FRACTION 8 /* Linux's name: high_max = zone/8 */

/*
 * Linux: zone_batchsize + zone_set_pageset_high_and_batch (the default,
 * percpu_pagelist_high_fraction 0): batch ~ managed/4096 rounded to
 * 2^n - 1, at most 63 pages; high tunes itself between the low watermark
 * and 1/8 of the zone, starting at the low end.
 */
static void zone_pcp_update(struct zone *zone)
{
	unsigned long batch = MIN(zone->managed_pages >> 10, PCP_BATCH_MAX_PAGES) / 4;
	unsigned long pow = 1;

	if (batch < 1)
		batch = 1;
	while (pow * 2 <= batch + batch / 2)
		pow *= 2;
	batch = pow > 1 ? pow - 1 : 1;
	zone->pcp.batch = (int)batch;
	zone->pcp.high_min = (int)zone_highsize(zone, batch, 0);
	/* A small zone's low watermark can exceed 1/8 of it; Linux would
	 * then clamp high into an empty range. */
	zone->pcp.high_max = (int)MAX(zone_highsize(zone, batch, MIN_PERCPU_PAGELIST_HIGH_FRACTION),
				      (unsigned long)zone->pcp.high_min);
	zone->pcp.high = zone->pcp.high_min;
}

/*
 * vm.min_free_kbytes and vm.watermark_scale_factor (Linux: mm/page_alloc.c).
 * min_free_kbytes is node 0's, the machine's: boot computes it, a write
 * sets it (user_min_free_kbytes) and a later computation only replaces it
 * when larger, as Linux's calculate_min_free_kbytes. Each test node is a
 * machine of its own and always gets the computed value.
 */
int min_free_kbytes = 1024;
static int user_min_free_kbytes = -1;
int watermark_scale_factor = 10;
/* vm.watermark_boost_factor (Linux's default 15000): how far a fallback
 * steal raises a zone's watermarks for kswapd to reclaim and compact back
 * down. Folium has no kswapd yet, and a boost nothing lowers would only
 * fail allocations, so none is applied: the value is kept and read by
 * nothing. */
static int watermark_boost_factor = 15000;

/* Linux: calculate_min_free_kbytes for managed pages. */
static unsigned long calculate_min_free_kbytes(struct pglist_data *pgdat, unsigned long managed)
{
	unsigned long computed = int_sqrt(managed * (PAGE_SIZE / 1024) * 16);

	computed = MIN(MAX(computed, 128ul), 262144ul);
	if (pgdat->node_id)
		return computed;
	if ((long)computed > user_min_free_kbytes)
		min_free_kbytes = (int)computed;
	else
		pr_warn("min_free_kbytes is not updated to %lu because user defined value %d is "
			"preferred\n",
			computed, user_min_free_kbytes);
	return (unsigned long)min_free_kbytes;
}

/* Linux's __setup_per_zone_wmarks: min_free_kbytes split over the zones
 * by managed pages; low and high add max(min/4, managed *
 * watermark_scale_factor / 10000) each. */
static void set_zone_wmarks(struct pglist_data *pgdat, unsigned long min_kbytes,
			    unsigned long managed)
{
	unsigned long pages_min = min_kbytes / (PAGE_SIZE / 1024);

	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		struct zone *zone = &pgdat->node_zones[zt];
		unsigned long tmp, step;

		if (!managed)
			break;
		tmp = pages_min * zone->managed_pages / managed;
		step = MAX(tmp / 4,
			   zone->managed_pages * (unsigned long)watermark_scale_factor / 10000);
		zone->_watermark[WMARK_MIN] = tmp;
		zone->_watermark[WMARK_LOW] = tmp + step;
		zone->_watermark[WMARK_HIGH] = tmp + 2 * step;
		zone_pcp_update(zone);
	}
}

static unsigned long node_managed_pages(const struct pglist_data *pgdat)
{
	unsigned long managed = 0;

	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		managed += pgdat->node_zones[zt].managed_pages;
	return managed;
}

/* Linux's rule: min_free_kbytes = sqrt(lowmem_kbytes * 16), clamped to
 * [128, 262144]. Computed per node: each test node is a machine. */
void setup_per_zone_wmarks(struct pglist_data *pgdat)
{
	unsigned long managed = node_managed_pages(pgdat);

	set_zone_wmarks(pgdat, calculate_min_free_kbytes(pgdat, managed), managed);
}

/* Linux: min_free_kbytes_sysctl_handler. The value written becomes node
 * 0's minimum, whatever the rule would compute. */
static int min_free_kbytes_sysctl_handler(const struct ctl_table *table, int write, char *buffer,
					  size_t *lenp, uint64_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	user_min_free_kbytes = min_free_kbytes;
	if (NODE_DATA(0))
		set_zone_wmarks(NODE_DATA(0), (unsigned long)min_free_kbytes,
				node_managed_pages(NODE_DATA(0)));
	return 0;
}

/* Linux: watermark_scale_factor_sysctl_handler: every node's watermarks
 * again, with the new gap between min, low and high. */
static int watermark_scale_factor_sysctl_handler(const struct ctl_table *table, int write,
						 char *buffer, size_t *lenp, uint64_t *ppos)
{
	int ret = proc_dointvec_minmax(table, write, buffer, lenp, ppos);

	if (ret || !write)
		return ret;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			setup_per_zone_wmarks(NODE_DATA(nid));
	return 0;
}

static const struct ctl_table page_alloc_sysctl_table[] = {
	{ .procname = "min_free_kbytes",
	  .data = &min_free_kbytes,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = min_free_kbytes_sysctl_handler,
	  .extra1 = SYSCTL_ZERO },
	{ .procname = "watermark_boost_factor",
	  .data = &watermark_boost_factor,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = SYSCTL_ZERO },
	{ .procname = "watermark_scale_factor",
	  .data = &watermark_scale_factor,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = watermark_scale_factor_sysctl_handler,
	  .extra1 = SYSCTL_ONE,
	  .extra2 = SYSCTL_THREE_THOUSAND },
};
SYSCTL_TABLE("vm", page_alloc_sysctl_table);

void pgdat_destroy(struct pglist_data *pgdat)
{
	if (node_data[pgdat->node_id] == pgdat)
		node_data[pgdat->node_id] = NULL;
	memset(pgdat->node_zones, 0, sizeof(pgdat->node_zones));
}
