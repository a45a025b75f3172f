/*
 * The per-CPU page lists' sizing (Linux 6.7+: pcp->high tuned between
 * high_min and high_max, alloc_factor, free_count) and the bulk allocator
 * (__alloc_pages_bulk), each on a private node.
 */
#include "mm_test_util.h"

#define PCP_NODE_PAGES 8192ul /* 32 MiB: the kernel's test memory under make test */
#define BULK_MAX 1024
#define PCP_TEST_BATCH 16 /* take_pages_then_reset_pcp's batch */

static struct page *pages[PCP_NODE_PAGES];

static struct zone *node_zone(struct pglist_data *pgdat)
{
	return page_zone(pfn_to_page(pgdat->node_start_pfn));
}

/* Every page back: drained, all free, the free lists intact. */
static void expect_all_free(struct kunit *test, struct pglist_data *pgdat, unsigned long nr)
{
	drain_node_pages(pgdat);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), nr);
	KUNIT_EXPECT_EQ(test, node_zone(pgdat)->nr_free_pages, nr);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
}

/* Linux's defaults for one CPU: batch = 8192 >> 10 = 8, / 4 = 2, to
 * 2^n - 1 below 2 + 2/2: 1; high_min = the low watermark (at least 4
 * batches), high_max = 1/8 of the zone; high starts at high_min. */
static void pcp_high_bounds_follow_zone_highsize(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct zone *zone;
	char err[256];

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_EXPECT_EQ(test, zone->pcp.batch, 1);
	KUNIT_EXPECT_EQ(test, zone->pcp.high_min,
			(int)MAX(zone->_watermark[WMARK_LOW], 4ul * zone->pcp.batch));
	KUNIT_EXPECT_EQ(test, zone->pcp.high_max, (int)(PCP_NODE_PAGES / 8));
	KUNIT_EXPECT_EQ(test, zone->pcp.high, zone->pcp.high_min);
	/* The fast path trusts high to be inside its bounds; buddy_check
	 * verifies it. */
	zone->pcp.high = zone->pcp.high_max + 1;
	KUNIT_EXPECT_EQ(test, buddy_check(pgdat, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, strstr(err, "pcp high") != NULL);
	zone->pcp.high = zone->pcp.high_min;
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* A small zone's low watermark can exceed 1/8 of it: high_max is then
 * raised to high_min, never below it (buddy_check verifies the bounds). */
static void pcp_high_bounds_hold_in_a_small_zone(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, 256); /* low 40 > 256 / 8 */
	struct page *page;
	struct zone *zone;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_EXPECT_LE(test, zone->pcp.high_min, zone->pcp.high_max);
	KUNIT_EXPECT_EQ(test, zone->pcp.high, zone->pcp.high_min);
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 0);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* A refill never takes the zone below the watermark it checked (Folium
 * has no kswapd to bring it back): allocating until failure, however
 * large the refills have grown, leaves exactly the watermark free
 * (GFP_NOWAIT's: min). */
static void pcp_refill_stops_at_the_watermark(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct zone *zone;
	unsigned long n;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	n = test_fill_node(pgdat, pages, 0, PCP_NODE_PAGES);
	KUNIT_EXPECT_GT(test, zone->pcp.alloc_factor, 2u); /* refills had grown */
	KUNIT_EXPECT_EQ(test, zone->nr_free_pages, zone->_watermark[WMARK_MIN]);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 0);
	test_free_filled(pages, n);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/*
 * A run of frees bigger than high, with the zone above its high
 * watermark, raises high (nr_pcp_high) so the next run fits on the lists;
 * the second run of the same size then needs no refill at all.
 */
static void pcp_high_grows_to_hold_a_run_of_frees(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	unsigned long hits;
	struct zone *zone;
	int n = BULK_MAX / 2; /* above high_min, below high_max */

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_ASSERT_TRUE(test, n > zone->pcp.high_min);
	for (int round = 0; round < 3; round++) {
		hits = pgdat->vm_events[PGALLOC_PCP_HIT];
		for (int i = 0; i < n; i++) {
			pages[i] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
			KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		}
		hits = pgdat->vm_events[PGALLOC_PCP_HIT] - hits;
		for (int i = 0; i < n; i++)
			__free_pages(pages[i], 0);
	}
	KUNIT_EXPECT_GT(test, zone->pcp.high, zone->pcp.high_min);
	KUNIT_EXPECT_LE(test, zone->pcp.high, zone->pcp.high_max);
	KUNIT_EXPECT_GE(test, zone->pcp.count, n - zone->pcp.batch);
	KUNIT_EXPECT_EQ(test, hits, (unsigned long)n); /* the last round: all hits */
	KUNIT_EXPECT_TRUE(test, !(zone->flags & (1ul << ZONE_BELOW_HIGH)));
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/* Take n order-0 pages (and two order-1 blocks if pairs) with the pcp
 * lists drained and their tuning back at its start: high at high_min,
 * no run of frees or refills behind it. The batch is a larger zone's
 * (16: a 256 MiB zone's on one CPU), as this one's (1) caps free_count
 * at 32, below high_min. */
static void take_pages_then_reset_pcp(struct kunit *test, struct pglist_data *pgdat, int n,
				      struct page **pairs)
{
	struct per_cpu_pages *pcp = &node_zone(pgdat)->pcp;

	for (int i = 0; i < n; i++) {
		pages[i] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
	}
	for (int i = 0; pairs && i < 2; i++) {
		pairs[i] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 1);
		KUNIT_ASSERT_NOT_NULL(test, pairs[i]);
	}
	drain_node_pages(pgdat);
	pcp->batch = PCP_TEST_BATCH;
	pcp->high_max = MAX(pcp->high_max, pcp->high_min + 8 * pcp->batch);
	pcp->high = pcp->high_min;
	pcp->free_count = 0;
	pcp->alloc_factor = 0;
	pcp->flags = 0;
}

/*
 * The free side alone raises high (Linux: nr_pcp_high, "pcp->count >=
 * high && high < free_count + batch"): pages allocated earlier and freed
 * in a run larger than high_min, no refill in between, leave high at the
 * run plus a batch, so the next run of that size would stay on the lists.
 */
static void pcp_high_grows_on_the_free_side_alone(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct per_cpu_pages *pcp;
	int n;

	if (!pgdat)
		return;
	pcp = &node_zone(pgdat)->pcp;
	n = pcp->high_min + 64;
	take_pages_then_reset_pcp(test, pgdat, n, NULL);
	for (int i = 0; i < n; i++)
		__free_pages(pages[i], 0);
	/* The first full free raised high to the run so far plus a batch and
	 * drained; the rest of the run fitted under it. */
	KUNIT_EXPECT_EQ(test, pcp->high, pcp->high_min + pcp->batch);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/*
 * A run of high-order frees (two in a row, after at least a batch plus
 * half of high_min freed) drains up to batch << PCP_BATCH_SCALE_MAX pages
 * at once, all of them here, so the freed blocks can merge in the zone
 * (Linux: free_high in free_frozen_page_commit and nr_pcp_free).
 */
static void high_order_free_run_drains_everything(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct page *pairs[2];
	struct per_cpu_pages *pcp;
	int k;

	if (!pgdat)
		return;
	pcp = &node_zone(pgdat)->pcp;
	k = PCP_TEST_BATCH + pcp->high_min / 2;
	if (k + 4 >= pcp->high_min || k + 4 > PCP_TEST_BATCH << PCP_BATCH_SCALE_MAX) {
		kunit_mark_skipped(test, "high_min too small for a run below it");
		test_node_destroy(pgdat);
		return;
	}
	take_pages_then_reset_pcp(test, pgdat, k, pairs);
	for (int i = 0; i < k; i++)
		__free_pages(pages[i], 0);
	__free_pages(pairs[0], 1);
	KUNIT_EXPECT_EQ(test, pcp->count, k + 2); /* below high: all cached */
	__free_pages(pairs[1], 1);
	KUNIT_EXPECT_EQ(test, pcp->count, 0);
	KUNIT_EXPECT_EQ(test, pcp->high, pcp->high_min);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/*
 * Once a refill finds the zone below its high watermark (ZONE_BELOW_HIGH),
 * frees shrink high back to high_min and drain, so the pages return to
 * the zone; a drain that lifts the zone above the watermark ends the state.
 */
static void pcp_high_shrinks_while_the_zone_is_below_high(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct zone *zone;
	unsigned long n;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	zone->pcp.high = zone->pcp.high_max; /* as after a long run of frees */
	n = test_fill_node(pgdat, pages, 0, PCP_NODE_PAGES);
	KUNIT_EXPECT_TRUE(test, zone->flags & (1ul << ZONE_BELOW_HIGH));
	for (unsigned long i = 0; i < 64; i++)
		__free_pages(pages[--n], 0);
	KUNIT_EXPECT_LT(test, zone->pcp.high, zone->pcp.high_max);
	test_free_filled(pages, n);
	KUNIT_EXPECT_EQ(test, zone->pcp.high, zone->pcp.high_min);
	KUNIT_EXPECT_LT(test, zone->pcp.count, zone->pcp.high_min);
	KUNIT_EXPECT_TRUE(test, !(zone->flags & (1ul << ZONE_BELOW_HIGH)));
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/* Refills double while allocations run without frees (alloc_factor, at
 * most PCP_BATCH_SCALE_MAX doublings); a free halves the factor. */
static void pcp_refill_batch_doubles_until_a_free(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct zone *zone;
	int n = 0;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_EXPECT_EQ(test, zone->pcp.alloc_factor, 0u);
	pages[n++] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, zone->pcp.batch - 1); /* the first refill */
	KUNIT_EXPECT_EQ(test, zone->pcp.alloc_factor, 1u);
	while (n < 400)
		pages[n++] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_EXPECT_GT(test, zone->pcp.alloc_factor, 2u);
	KUNIT_EXPECT_LE(test, zone->pcp.alloc_factor, (unsigned int)PCP_BATCH_SCALE_MAX);
	{
		unsigned int before = zone->pcp.alloc_factor;

		__free_pages(pages[--n], 0);
		KUNIT_EXPECT_EQ(test, zone->pcp.alloc_factor, before >> 1);
	}
	test_free_filled(pages, n);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/*
 * A drain frees the list the last free overfilled first, oldest pages
 * first (Linux: free_pcppages_bulk starting at that page's pindex), and a
 * drain frees at least a batch. high is pinned (high_min == high_max, as
 * with percpu_pagelist_high_fraction set) so the arithmetic is fixed.
 */
static void pcp_drain_empties_the_overfilled_list_first(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct page *movable[20], *unmovable[44];
	struct zone *zone;
	int mt;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	for (int i = 0; i < 20; i++)
		movable[i] = alloc_pages_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, 0);
	for (int i = 0; i < 44; i++)
		unmovable[i] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	drain_node_pages(pgdat);
	zone->pcp.high = zone->pcp.high_min = zone->pcp.high_max = 64;
	mt = get_pageblock_migratetype(unmovable[0]);
	for (int i = 0; i < 20; i++) {
		KUNIT_ASSERT_NOT_NULL(test, movable[i]);
		KUNIT_ASSERT_TRUE(test, get_pageblock_migratetype(movable[i]) == MIGRATE_MOVABLE);
		__free_pages(movable[i], 0);
	}
	for (int i = 0; i < 43; i++) {
		KUNIT_ASSERT_NOT_NULL(test, unmovable[i]);
		KUNIT_ASSERT_TRUE(test, get_pageblock_migratetype(unmovable[i]) == mt);
		__free_pages(unmovable[i], 0);
	}
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 63);
	zone->pcp.free_count = 0; /* a drain of one batch */
	__free_pages(unmovable[43], 0);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 64 - zone->pcp.batch);
	for (int i = 0; i < 44; i++)
		KUNIT_EXPECT_TRUE(test, PageFlag(unmovable[i], PG_pcp) == (i >= zone->pcp.batch));
	for (int i = 0; i < 20; i++)
		KUNIT_EXPECT_TRUE(test, PageFlag(movable[i], PG_pcp));
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/* A full array: every slot filled with a distinct allocated order-0 page,
 * counted once each in pgalloc; freeing them leaves nothing behind. */
static void bulk_fills_a_whole_array(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	unsigned long got, before;

	if (!pgdat)
		return;
	memset(pages, 0, sizeof(pages));
	before = pgdat->vm_events[PGALLOC];
	got = alloc_pages_bulk_array_node(GFP_KERNEL, pgdat->node_id, BULK_MAX, pages);
	KUNIT_EXPECT_EQ(test, got, (unsigned long)BULK_MAX);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGALLOC] - before, (unsigned long)BULK_MAX);
	for (int i = 0; i < BULK_MAX; i++) {
		KUNIT_ASSERT_NOT_NULL(test, pages[i]);
		KUNIT_EXPECT_EQ(test, page_count(pages[i]), 1);
		KUNIT_EXPECT_TRUE(test, !PageBuddy(pages[i]) && !PageFlag(pages[i], PG_pcp));
		KUNIT_EXPECT_EQ(test, page_to_nid(pages[i]), pgdat->node_id);
		KUNIT_EXPECT_EQ(test, page_owner_migratetype(pages[i]), MIGRATE_UNMOVABLE);
	}
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), PCP_NODE_PAGES - BULK_MAX);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat); /* no page both allocated and listed */
	for (int i = 0; i < BULK_MAX; i++)
		__free_pages(pages[i], 0);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/* Slots already holding a page are kept and skipped; the count covers the
 * populated slots from the start of the array (Linux's return value). */
static void bulk_fills_only_the_empty_slots(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct page *kept[3];
	unsigned long got;

	if (!pgdat)
		return;
	memset(pages, 0, sizeof(pages));
	for (int i = 0; i < 3; i++)
		kept[i] = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	pages[0] = kept[0];
	pages[1] = kept[1];
	pages[20] = kept[2];
	got = alloc_pages_bulk_array_node(GFP_KERNEL, pgdat->node_id, 32, pages);
	KUNIT_EXPECT_EQ(test, got, 32ul);
	KUNIT_EXPECT_TRUE(test, pages[0] == kept[0] && pages[1] == kept[1] && pages[20] == kept[2]);
	for (int i = 0; i < 32; i++)
		KUNIT_EXPECT_NOT_NULL(test, pages[i]);
	KUNIT_EXPECT_NULL(test, pages[32]);
	/* A full array is left alone. */
	KUNIT_EXPECT_EQ(test, alloc_pages_bulk_array_node(GFP_KERNEL, pgdat->node_id, 32, pages),
			32ul);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), PCP_NODE_PAGES - 32);
	for (int i = 0; i < 32; i++)
		__free_pages(pages[i], 0);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/* The list form adds nr_pages pages to the caller's list. */
static void bulk_adds_pages_to_a_list(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, PCP_NODE_PAGES);
	struct page *page, *next;
	unsigned long n = 0;
	struct list_head list = LIST_HEAD_INIT(list);

	if (!pgdat)
		return;
	KUNIT_EXPECT_EQ(test, __alloc_pages_bulk(GFP_KERNEL, pgdat->node_id, 100, &list, NULL),
			100ul);
	list_for_each_entry_safe(page, next, &list, lru) {
		KUNIT_EXPECT_EQ(test, page_count(page), 1);
		list_del(&page->lru);
		__free_pages(page, 0);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, 100ul);
	expect_all_free(test, pgdat, PCP_NODE_PAGES);
	test_node_destroy(pgdat);
}

/*
 * When memory runs short the call returns what it got. A zone that cannot
 * give all the pages and stay above its watermark gives none in bulk; one
 * ordinary allocation is made instead (Linux's fallback), so the first
 * slot is filled and the rest stay NULL. With nothing to give: 0, the
 * failure counted, the array untouched.
 */
static void bulk_returns_what_it_got_when_memory_runs_short(struct kunit *test)
{
	unsigned long nr = 4096, got, fails, n;
	struct pglist_data *pgdat = test_node_create(test, nr);
	struct page *extra[8] = { NULL };

	if (!pgdat)
		return;
	memset(pages, 0, sizeof(pages));
	got = alloc_pages_bulk_array_node(GFP_NOWAIT | __GFP_NOWARN, pgdat->node_id, nr, pages);
	KUNIT_EXPECT_EQ(test, got, 1ul);
	KUNIT_EXPECT_NOT_NULL(test, pages[0]);
	KUNIT_EXPECT_NULL(test, pages[1]);
	KUNIT_EXPECT_NULL(test, pages[nr - 1]);
	/* Half the node fits: all of it is given. */
	got = alloc_pages_bulk_array_node(GFP_NOWAIT | __GFP_NOWARN, pgdat->node_id, nr / 2, pages);
	KUNIT_EXPECT_EQ(test, got, nr / 2);
	n = test_fill_node(pgdat, pages, got, nr);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), nr - n);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	fails = pgdat->vm_events[PGALLOC_FAIL];
	KUNIT_EXPECT_EQ(test,
			alloc_pages_bulk_array_node(GFP_NOWAIT | __GFP_NOWARN, pgdat->node_id,
						    ARRAY_SIZE(extra), extra),
			0ul);
	KUNIT_EXPECT_NULL(test, extra[0]);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGALLOC_FAIL], fails + 1);
	test_free_filled(pages, n);
	expect_all_free(test, pgdat, nr);
	test_node_destroy(pgdat);
}

/* Bad arguments are refused, not guessed at: both or neither of list and
 * array, or a node that does not exist. */
static void bulk_refuses_bad_arguments(struct kunit *test)
{
	struct page *one[2] = { NULL, NULL };
	struct list_head list = LIST_HEAD_INIT(list);

	KUNIT_EXPECT_EQ(test, __alloc_pages_bulk(GFP_KERNEL, 0, 2, &list, one), 0ul);
	KUNIT_EXPECT_EQ(test, __alloc_pages_bulk(GFP_KERNEL, 0, 2, NULL, NULL), 0ul);
	KUNIT_EXPECT_EQ(test, alloc_pages_bulk_array_node(GFP_KERNEL, MAX_NUMNODES, 2, one), 0ul);
	KUNIT_EXPECT_EQ(test, alloc_pages_bulk_array_node(GFP_KERNEL, -1, 2, one), 0ul);
	KUNIT_EXPECT_TRUE(test, list_empty(&list) && !one[0] && !one[1]);
}

static struct kunit_case pcp_cases[] = {
	KUNIT_CASE(pcp_high_bounds_follow_zone_highsize),
	KUNIT_CASE(pcp_high_bounds_hold_in_a_small_zone),
	KUNIT_CASE(pcp_refill_stops_at_the_watermark),
	KUNIT_CASE(pcp_high_grows_to_hold_a_run_of_frees),
	KUNIT_CASE(pcp_high_grows_on_the_free_side_alone),
	KUNIT_CASE(high_order_free_run_drains_everything),
	KUNIT_CASE(pcp_high_shrinks_while_the_zone_is_below_high),
	KUNIT_CASE(pcp_refill_batch_doubles_until_a_free),
	KUNIT_CASE(pcp_drain_empties_the_overfilled_list_first),
	KUNIT_CASE(bulk_fills_a_whole_array),
	KUNIT_CASE(bulk_fills_only_the_empty_slots),
	KUNIT_CASE(bulk_adds_pages_to_a_list),
	KUNIT_CASE(bulk_returns_what_it_got_when_memory_runs_short),
	KUNIT_CASE(bulk_refuses_bad_arguments),
	{},
};

static struct kunit_suite pcp_suite = {
	.name = "pcp",
	.test_cases = pcp_cases,
};
kunit_test_suite(pcp_suite);
