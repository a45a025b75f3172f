/*
 * The migratetype each allocation asked for, and the mixed pageblocks
 * counted from it, each case on a private node with buddy_check() after
 * every step. The main scenario: a node filled with movable pages, one
 * page freed in pageblock 1, then an unmovable request that can only fall
 * back to that page: pageblock 1 is mixed (counted under Movable) until
 * the unmovable page is freed again.
 */
#include <ktest.h>
#include "../internal.h"
#include "mm_test_util.h"

#define NODE_PAGES MAX(2 * pageblock_nr_pages, 2048ul)

/* The zone a test node lives in (Normal on the host, DMA32 in the kernel). */
static struct zone *node_zone(struct pglist_data *pgdat)
{
	return page_zone(pfn_to_page(pgdat->node_start_pfn));
}

static unsigned long mixed_total(const unsigned long count[MIGRATE_TYPES])
{
	unsigned long total = 0;

	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		total += count[mt];
	return total;
}

/*
 * A node whose every page is an order-0 movable allocation on the LRU
 * (so a claim census sees them as movable, not as unmovable pages). Its
 * watermarks are zeroed so the fill can take every page.
 */
static struct pglist_data *filled_node(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, NODE_PAGES);
	struct page *page;
	unsigned long n = 0;

	if (!pgdat)
		return NULL;
	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		for (int w = 0; w < NR_WMARK; w++)
			pgdat->node_zones[zt]._watermark[w] = 0;
	while ((page = alloc_pages_node(pgdat->node_id, GFP_NOWAIT | __GFP_MOVABLE | __GFP_NOWARN,
					0))) {
		folio_set_lru(page_folio(page));
		n++;
	}
	if (n != NODE_PAGES) {
		kunit_fail(test, __FILE__, __LINE__, "filled %lu of %lu pages", n, NODE_PAGES);
		test_node_destroy(pgdat);
		return NULL;
	}
	return pgdat;
}

/* Give back the filler pages in [start, end): those still on the LRU. */
static void free_filler(unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++) {
		struct folio *folio = page_folio(pfn_to_page(pfn));

		if (folio_test_lru(folio)) {
			folio_clear_lru(folio);
			folio_put(folio);
		}
	}
}

static void destroy_filled_node(struct kunit *test, struct pglist_data *pgdat)
{
	free_filler(pgdat->node_start_pfn, pgdat->node_start_pfn + NODE_PAGES);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void allocations_record_the_requested_type_at_the_head_only(struct kunit *test)
{
	static const gfp_t gfps[] = { GFP_KERNEL, GFP_HIGHUSER_MOVABLE,
				      GFP_KERNEL | __GFP_RECLAIMABLE };
	struct pglist_data *pgdat = test_node_create(test, NODE_PAGES);
	struct folio *folio;
	struct page *block;

	if (!pgdat)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(gfps); i++) {
		struct page *page = alloc_pages_node(pgdat->node_id, gfps[i], 0);

		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(page), gfp_migratetype(gfps[i]));
		__free_pages(page, 0);
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(page), -1); /* on a pcp list */
	}
	/* A block without __GFP_COMP and a folio: only the head is recorded. */
	block = alloc_pages_node(pgdat->node_id, GFP_KERNEL | __GFP_RECLAIMABLE, 2);
	folio = folio_alloc_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, 2);
	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, page_owner_migratetype(block), MIGRATE_RECLAIMABLE);
	KUNIT_EXPECT_EQ(test, page_owner_migratetype(&folio->page), MIGRATE_MOVABLE);
	for (int i = 1; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(block + i), -1);
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(folio_page(folio, i)), -1);
	}
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	__free_pages(block, 2);
	folio_put(folio);
	KUNIT_EXPECT_EQ(test, page_owner_migratetype(block), -1);
	KUNIT_EXPECT_EQ(test, page_owner_migratetype(&folio->page), -1);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* Pages taken one by one, each recorded, then made one folio (as cma_test
 * and compaction's targets do): the folio is one allocation, its head's. */
static void a_folio_built_from_taken_pages_is_recorded_at_its_head(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, NODE_PAGES);
	unsigned long base;
	struct page *page;

	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(base, base + 4), 4);
	page = pfn_to_page(base);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(page + i), MIGRATE_UNMOVABLE);
	prep_compound_page(page, 2);
	for (int i = 1; i < 4; i++)
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(page + i), -1);
	folio_put(page_folio(page));
	drain_node_pages(pgdat);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/*
 * Every pageblock movable and full of movable pages: none is mixed. One
 * page freed in pageblock 1 is the only free page, so an unmovable request
 * falls back to it; one free page is too little to claim the pageblock
 * (from pageblock order 2 on), which stays movable and becomes mixed,
 * counted under Movable. Freeing the unmovable page makes it unmixed
 * again, even while the page waits on a per-CPU list.
 */
static void unmovable_fallback_into_a_movable_pageblock_makes_it_mixed(struct kunit *test)
{
	unsigned long count[MIGRATE_TYPES], base, odd;
	struct pglist_data *pgdat;
	struct zone *zone;
	struct page *page;

	if (pageblock_order < 2) {
		kunit_mark_skipped(test, "pageblock_order < 2: one free page would claim it");
		return;
	}
	pgdat = filled_node(test);
	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	base = pgdat->node_start_pfn;
	odd = base + pageblock_nr_pages + 1;
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, mixed_total(count), 0);
	for (unsigned long pfn = base; pfn < base + NODE_PAGES; pfn += pageblock_nr_pages)
		KUNIT_EXPECT_FALSE(test, pageblock_mixed(zone, pfn));
	free_filler(odd, odd + 1);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);

	page = alloc_pages_node(pgdat->node_id, GFP_NOWAIT | __GFP_NOWARN, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_to_pfn(page), odd);
	KUNIT_EXPECT_EQ(test, pgdat->fallback_count[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGALLOC_STEAL], 0);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_MOVABLE);
	KUNIT_EXPECT_TRUE(test, pageblock_mixed(zone, odd));
	KUNIT_EXPECT_FALSE(test, pageblock_mixed(zone, base));
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, count[MIGRATE_MOVABLE], 1);
	KUNIT_EXPECT_EQ(test, mixed_total(count), 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);

	__free_pages(page, 0);
	KUNIT_EXPECT_FALSE(test, pageblock_mixed(zone, odd));
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, mixed_total(count), 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_FALSE(test, pageblock_mixed(zone, odd));
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	destroy_filled_node(test, pgdat);
}

/*
 * An unmovable order-2 folio in a movable pageblock (the same fallback,
 * with four free pages, too few to claim from pageblock order 4 on) is
 * split: every piece carries the folio's type, so the pageblock stays
 * mixed while any piece is left.
 */
static void split_folio_pieces_keep_the_allocated_type(struct kunit *test)
{
	unsigned long count[MIGRATE_TYPES], start;
	struct pglist_data *pgdat;
	struct folio *folio;
	struct zone *zone;

	if (pageblock_order < 4) {
		kunit_mark_skipped(test, "pageblock_order < 4: four free pages would claim it");
		return;
	}
	pgdat = filled_node(test);
	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	start = pgdat->node_start_pfn + pageblock_nr_pages + 4;
	free_filler(start, start + 4);
	drain_node_pages(pgdat);
	folio = folio_alloc_node(pgdat->node_id, GFP_NOWAIT | __GFP_NOWARN, 2);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_pfn(folio), start);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(&folio->page), MIGRATE_MOVABLE);
	KUNIT_EXPECT_TRUE(test, pageblock_mixed(zone, start));

	KUNIT_ASSERT_EQ(test, split_folio(folio), 0);
	for (int i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(pfn_to_page(start + i)),
				MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	for (int i = 0; i < 4; i++) {
		zone_mixed_pageblocks(zone, count);
		KUNIT_EXPECT_EQ(test, count[MIGRATE_MOVABLE], 1);
		KUNIT_EXPECT_EQ(test, mixed_total(count), 1);
		__free_pages(pfn_to_page(start + i), 0);
		KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	}
	KUNIT_EXPECT_FALSE(test, pageblock_mixed(zone, start));
	destroy_filled_node(test, pgdat);
}

/*
 * Linux's rule for CMA: no allocation asks for MIGRATE_CMA, so a CMA
 * pageblock holding anything is mixed, counted under Movable. A movable
 * folio one order above a pageblock (if the buddy allocator has that
 * order) covers two CMA pageblocks; the second starts at a tail page and
 * is judged by the folio's head.
 */
static void cma_pageblocks_in_use_count_under_movable(struct kunit *test)
{
	unsigned int order = MIN(pageblock_order + 1, MAX_PAGE_ORDER);
	unsigned long count[MIGRATE_TYPES], base, nr_blocks = (1ul << order) / pageblock_nr_pages;
	struct pglist_data *pgdat = test_node_create(test, NODE_PAGES);
	struct folio *folio;
	struct zone *zone;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	base = pgdat->node_start_pfn;
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(base, base + NODE_PAGES), NODE_PAGES);
	for (unsigned long pfn = base; pfn < base + NODE_PAGES; pfn += pageblock_nr_pages)
		set_pageblock_migratetype(pfn_to_page(pfn), MIGRATE_CMA);
	for (unsigned long pfn = base; pfn < base + NODE_PAGES; pfn++)
		__free_pages(pfn_to_page(pfn), 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, mixed_total(count), 0);

	folio = folio_alloc_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, order);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(&folio->page), MIGRATE_CMA);
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, count[MIGRATE_MOVABLE], nr_blocks);
	KUNIT_EXPECT_EQ(test, count[MIGRATE_CMA], 0);
	KUNIT_EXPECT_EQ(test, mixed_total(count), nr_blocks);
	KUNIT_EXPECT_TRUE(test, pageblock_mixed(zone, folio_pfn(folio) + (1ul << order) - 1));
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	folio_put(folio);
	zone_mixed_pageblocks(zone, count);
	KUNIT_EXPECT_EQ(test, mixed_total(count), 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static struct kunit_case page_owner_cases[] = {
	KUNIT_CASE(allocations_record_the_requested_type_at_the_head_only),
	KUNIT_CASE(a_folio_built_from_taken_pages_is_recorded_at_its_head),
	KUNIT_CASE(unmovable_fallback_into_a_movable_pageblock_makes_it_mixed),
	KUNIT_CASE(split_folio_pieces_keep_the_allocated_type),
	KUNIT_CASE(cma_pageblocks_in_use_count_under_movable),
	{},
};

static struct kunit_suite page_owner_suite = {
	.name = "page_owner",
	.test_cases = page_owner_cases,
};
kunit_test_suite(page_owner_suite);
