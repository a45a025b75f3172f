/*
 * The buddy allocator, each case on a private node (mm_test_util.h), with
 * buddy_check() after every step. Scenarios follow Linux's rules: merging
 * (pfn 8 + buddy 10 -> order-2 block at 8), fallback and pageblock
 * stealing, CMA balancing, watermarks, reclaim before failure, zone
 * choice, per-CPU lists, and the DEBUG_VM checks.
 */
#include <ktest.h>
#include <sysctl.h>
#include "../internal.h"
#include "mm_test_util.h"

#ifdef FOLIUM_HOST
#define RANDOM_STEPS 3000
#define RANDOM_NODE_PAGES 4096ul
#else
#define RANDOM_STEPS 300
#define RANDOM_NODE_PAGES 1024ul
#endif
#define RANDOM_SLOTS 64
/* At least one whole pageblock: the first unmovable request claims it,
 * so a page freed to the pcp list is the next one that request type gets
 * (in a node smaller than its pageblock the claim is refused). */
#define SMALL_NODE_PAGES MAX(2048ul, pageblock_nr_pages)

/* Seeded xorshift64: the same seed gives the same sequence everywhere. */
static uint64_t xorshift64(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Free blocks per zone, order and type: the "free-area picture". */
struct free_picture {
	unsigned long n[MAX_NR_ZONES][NR_PAGE_ORDERS][MIGRATE_TYPES];
};

static void take_picture(struct pglist_data *pgdat, struct free_picture *p)
{
	memset(p, 0, sizeof(*p));
	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++)
			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				struct list_head *pos,
					*head = &pgdat->node_zones[zt].free_area[o].free_list[mt];

				list_for_each(pos, head)
					p->n[zt][o][mt]++;
			}
}

/* Sum the types when per_type is false (pageblocks may change type). */
static void expect_same_picture(struct kunit *test, const struct free_picture *a,
				const struct free_picture *b, bool per_type)
{
	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		for (int o = 0; o < NR_PAGE_ORDERS; o++) {
			unsigned long sa = 0, sb = 0;

			for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
				sa += a->n[zt][o][mt];
				sb += b->n[zt][o][mt];
				if (per_type && a->n[zt][o][mt] != b->n[zt][o][mt])
					kunit_fail(test, __FILE__, __LINE__,
						   "zone %d order %d %s: %lu blocks, was %lu", zt,
						   o, migratetype_names[mt], b->n[zt][o][mt],
						   a->n[zt][o][mt]);
			}
			if (sa != sb)
				kunit_fail(test, __FILE__, __LINE__,
					   "zone %d order %d: %lu free blocks, was %lu", zt, o, sb,
					   sa);
		}
}

/* The zone a test node lives in (Normal on the host, DMA32 in the kernel,
 * where the test memory is below 4 GiB). */
static struct zone *node_zone(struct pglist_data *pgdat)
{
	return page_zone(pfn_to_page(pgdat->node_start_pfn));
}

static unsigned long ev(struct pglist_data *pgdat, enum vm_event_item item)
{
	return pgdat->vm_events[item];
}

/* Free every page of [start, end) that take_free_pfn_range handed out. */
static void free_range(unsigned long start, unsigned long end)
{
	for (unsigned long pfn = start; pfn < end; pfn++)
		__free_pages(pfn_to_page(pfn), 0);
}

struct slot {
	struct page *page;
	unsigned int order;
};

/* Random gfp: mostly movable, some unmovable/reclaimable, zero, comp, high. */
static gfp_t random_gfp(uint64_t r, bool movable_only)
{
	static const gfp_t types[] = { __GFP_MOVABLE, __GFP_MOVABLE, 0, __GFP_RECLAIMABLE };
	gfp_t gfp = __GFP_NOWARN | (movable_only ? __GFP_MOVABLE : types[r % 4]);

	if ((r >> 4) % 5 == 0)
		gfp |= __GFP_ZERO;
	if ((r >> 8) % 3 == 0)
		gfp |= __GFP_COMP;
	if ((r >> 12) % 7 == 0)
		gfp |= __GFP_HIGH;
	return gfp;
}

/* Small orders mostly, a large one now and then. */
static unsigned int random_order(uint64_t r)
{
	return (r >> 20) % 8 == 0 ? (unsigned int)((r >> 24) % NR_PAGE_ORDERS)
				  : (unsigned int)((r >> 24) % 4);
}

/* Return: 0, or -1 once a step broke an invariant (reported with the seed). */
static int random_steps(struct kunit *test, struct pglist_data *pgdat, uint64_t seed,
			bool movable_only, struct slot *slots)
{
	uint64_t s = seed;
	char what[64];

	for (int step = 0; step < RANDOM_STEPS; step++) {
		uint64_t r = xorshift64(&s);
		struct slot *sl = &slots[r % RANDOM_SLOTS];

		if (sl->page) {
			__free_pages(sl->page, sl->order);
			sl->page = NULL;
		} else {
			sl->order = random_order(r);
			sl->page = alloc_pages_node(pgdat->node_id,
						    random_gfp(r >> 32, movable_only), sl->order);
		}
		if ((r >> 40) % 50 == 0)
			drain_node_pages(pgdat);
		ksnprintf(what, sizeof(what), "seed %#llx step %d", (unsigned long long)seed, step);
		if (!test_buddy_ok(test, pgdat, __FILE__, __LINE__, what))
			return -1;
	}
	return 0;
}

static void free_slots(struct slot *slots)
{
	for (int i = 0; i < RANDOM_SLOTS; i++)
		if (slots[i].page)
			__free_pages(slots[i].page, slots[i].order);
	memset(slots, 0, sizeof(struct slot) * RANDOM_SLOTS);
}

static void random_alloc_free_keeps_every_invariant(struct kunit *test)
{
	static const uint64_t seeds[] = { 0x5eed0001, 0xf011a5, 0xdeadbeefcafe };
	static struct slot slots[RANDOM_SLOTS];
	static struct free_picture before, after;

	for (unsigned int i = 0; i < ARRAY_SIZE(seeds); i++) {
		struct pglist_data *pgdat = test_node_create(test, RANDOM_NODE_PAGES);

		if (!pgdat)
			return;
		take_picture(pgdat, &before);
		memset(slots, 0, sizeof(slots));
		if (random_steps(test, pgdat, seeds[i], false, slots)) {
			test_node_destroy(pgdat);
			return;
		}
		free_slots(slots);
		drain_node_pages(pgdat);
		KUNIT_EXPECT_BUDDY_OK(test, pgdat);
		take_picture(pgdat, &after);
		expect_same_picture(test, &before, &after, false);
		KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), RANDOM_NODE_PAGES);
		test_node_destroy(pgdat);
	}
}

static void freeing_everything_restores_the_free_area_picture(struct kunit *test)
{
	static struct slot slots[RANDOM_SLOTS];
	static struct free_picture before, after;
	struct pglist_data *pgdat = test_node_create(test, RANDOM_NODE_PAGES);

	if (!pgdat)
		return;
	take_picture(pgdat, &before);
	memset(slots, 0, sizeof(slots));
	if (!random_steps(test, pgdat, 0x1234567, true, slots)) {
		free_slots(slots);
		drain_node_pages(pgdat);
		take_picture(pgdat, &after);
		expect_same_picture(test, &before, &after, true);
		KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	}
	test_node_destroy(pgdat);
}

/* The header's worked example: pfn 8 and its buddy 10 merge at 8. */
static void buddies_merge_into_the_lower_block(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, MAX_ORDER_NR_PAGES);
	unsigned long base;

	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(base + 8, base + 12), 4);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	free_range(base + 8, base + 10);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_TRUE(test, PageBuddy(pfn_to_page(base + 8)));
	KUNIT_EXPECT_EQ(test, buddy_order(pfn_to_page(base + 8)), 1);
	free_range(base + 10, base + 12);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	KUNIT_EXPECT_TRUE(test, PageBuddy(pfn_to_page(base)));
	KUNIT_EXPECT_EQ(test, buddy_order(pfn_to_page(base)), MAX_PAGE_ORDER);
	KUNIT_EXPECT_FALSE(test, PageBuddy(pfn_to_page(base + 8)));
	test_node_destroy(pgdat);
}

/* A node of nr pages: on the host anywhere in simulated memory (eight
 * pageblocks are 128 MiB at pageblock order 12, twice its test memory), in
 * the kernel in the test memory, or the case is skipped. */
static struct pglist_data *big_node_create(struct kunit *test, unsigned long nr)
{
#ifdef FOLIUM_HOST
	return test_node_create_at(test, PHYS_PFN(48ull << 30), nr);
#else
	return test_node_create(test, nr);
#endif
}

/* A node whose pages are all allocated (order 0) and typed `mt`. */
static struct pglist_data *full_node(struct kunit *test, unsigned long nr, int mt)
{
	struct pglist_data *pgdat = big_node_create(test, nr);
	unsigned long base;

	if (!pgdat)
		return NULL;
	base = pgdat->node_start_pfn;
	if (take_free_pfn_range(base, base + nr) != nr) {
		kunit_fail(test, __FILE__, __LINE__, "could not take the whole node");
		test_node_destroy(pgdat);
		return NULL;
	}
	for (unsigned long pfn = base; pfn < base + nr; pfn += pageblock_nr_pages)
		set_pageblock_migratetype(pfn_to_page(pfn), mt);
	return pgdat;
}

static unsigned long scenario_pages(void)
{
	return MAX(8 * pageblock_nr_pages, 4096ul);
}

/*
 * Fragmentation: every pageblock movable and in use, except that block 2
 * is mostly free and block 1 has one free page; later blocks have every
 * other page free (singletons, the watermark's padding). An unmovable
 * request borrows the largest free block (in block 2) and, since at least
 * half of block 2 is free, claims the whole pageblock (Linux:
 * try_to_claim_block); block 1 stays movable.
 */
static void unmovable_request_steals_a_mostly_free_pageblock(struct kunit *test)
{
	unsigned long nr = scenario_pages(), pb = pageblock_nr_pages, base;
	struct pglist_data *pgdat;
	struct page *page;

	if (pageblock_order < 3) {
		kunit_mark_skipped(test, "pageblock_order < 3: blocks too small for the scenario");
		return;
	}
	pgdat = full_node(test, nr, MIGRATE_MOVABLE);
	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	free_range(base + 2 * pb + 1, base + 3 * pb);
	free_range(base + pb + 1, base + pb + 2);
	for (unsigned long pfn = base + 4 * pb; pfn < base + nr; pfn += 2)
		__free_pages(pfn_to_page(pfn), 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);

	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, pageblock_start_pfn(page_to_pfn(page)), base + 2 * pb);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(base + 2 * pb)),
			MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(base + pb)), MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_STEAL), 1);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_FALLBACK), 1);
	KUNIT_EXPECT_EQ(test, pgdat->fallback_count[MIGRATE_UNMOVABLE][MIGRATE_MOVABLE], 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/*
 * Every pageblock movable, in use, with every other page free: no free
 * block is larger than order 0, far below pageblock_order / 2, so only the
 * request's type can make the fallback claim. An unmovable request does
 * (Linux: can_steal_fallback, "start_type == MIGRATE_UNMOVABLE"): the
 * pageblock it borrows from is half free and half in use by non-LRU
 * pages, enough to become unmovable whole.
 */
static void unmovable_request_claims_even_from_single_free_pages(struct kunit *test)
{
	unsigned long nr = scenario_pages(), base;
	struct pglist_data *pgdat = full_node(test, nr, MIGRATE_MOVABLE);
	struct page *page;

	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	for (unsigned long pfn = base; pfn < base + nr; pfn += 2)
		__free_pages(pfn_to_page(pfn), 0);
	drain_node_pages(pgdat);
	for (int z = 0; z < pgdat->nr_zones; z++)
		KUNIT_EXPECT_EQ(test, pgdat->node_zones[z].free_area[1].nr_free, 0);

	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_GE(test, ev(pgdat, PGALLOC_STEAL), 1);
	__free_pages(page, 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/*
 * Every pageblock unmovable with a quarter of its pages free as singletons:
 * a movable order-0 request borrows one page (order 0 < pageblock_order/2,
 * so no claim) and every block stays unmovable.
 */
static void small_movable_fallback_does_not_steal_a_mostly_used_block(struct kunit *test)
{
	unsigned long nr = scenario_pages(), base;
	struct pglist_data *pgdat;
	struct page *page;

	if (pageblock_order < 2) {
		kunit_mark_skipped(test, "pageblock_order < 2: every order may steal");
		return;
	}
	pgdat = full_node(test, nr, MIGRATE_UNMOVABLE);
	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	for (unsigned long pfn = base; pfn < base + nr; pfn += 4)
		__free_pages(pfn_to_page(pfn), 0);
	drain_node_pages(pgdat);

	page = alloc_pages_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_STEAL), 0);
	KUNIT_EXPECT_GE(test, ev(pgdat, PGALLOC_FALLBACK), 1);
	KUNIT_EXPECT_GE(test, pgdat->fallback_count[MIGRATE_MOVABLE][MIGRATE_UNMOVABLE], 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/*
 * An unmovable pageblock (block 1) holding one LRU folio over its first
 * half, a free quarter and an unmovable quarter: a movable request of
 * order pageblock_order - 2 (large enough to claim) borrows the free
 * quarter and claims the pageblock, because free + movable pages are at
 * least half of it (Linux: prep_move_freepages_block counts PageLRU per
 * page, and a tail page reads its head's flag).
 */
static void movable_fallback_counts_every_page_of_an_lru_folio(struct kunit *test)
{
	unsigned long nr = scenario_pages(), pb = pageblock_nr_pages, base;
	unsigned int order = pageblock_order - 2;
	struct pglist_data *pgdat;
	struct folio *folio;
	struct page *page;

	if (pageblock_order < 4) {
		kunit_mark_skipped(test, "pageblock_order < 4: no order both small and claiming");
		return;
	}
	pgdat = full_node(test, nr, MIGRATE_UNMOVABLE);
	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	for (unsigned long pfn = base + 4 * pb; pfn < base + nr; pfn += 2)
		__free_pages(pfn_to_page(pfn), 0); /* singletons: the watermark's padding */
	free_range(base + pb, base + pb + pb / 2);
	drain_node_pages(pgdat);
	folio = folio_alloc_node(pgdat->node_id, GFP_KERNEL, pageblock_order - 1);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_ASSERT_EQ(test, folio_pfn(folio), base + pb);
	folio_set_lru(folio);
	free_range(base + pb + pb / 2, base + pb + pb / 2 + pb / 4);
	drain_node_pages(pgdat);

	page = alloc_pages_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, order);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_to_pfn(page), base + pb + pb / 2);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_STEAL), 1);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(base)), MIGRATE_UNMOVABLE);
	__free_pages(page, order);
	folio_clear_lru(folio);
	folio_put(folio);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* Three quarters of the node CMA: movable requests take CMA first (over
 * half of the free pages are CMA), unmovable ones never touch it. */
static void movable_requests_prefer_cma_when_it_holds_most_free_memory(struct kunit *test)
{
	unsigned long nr = MAX(8 * pageblock_nr_pages, 2048ul), base;
	struct pglist_data *pgdat = full_node(test, nr, MIGRATE_MOVABLE);
	struct page *movable, *unmovable;

	if (!pgdat)
		return;
	base = pgdat->node_start_pfn;
	for (unsigned long pfn = base; pfn < base + nr * 3 / 4; pfn += pageblock_nr_pages)
		set_pageblock_migratetype(pfn_to_page(pfn), MIGRATE_CMA);
	free_range(base, base + nr);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	KUNIT_EXPECT_EQ(test, node_zone(pgdat)->nr_free_cma, nr * 3 / 4);

	movable = alloc_pages_node(pgdat->node_id, GFP_HIGHUSER_MOVABLE, 0);
	unmovable = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, movable);
	KUNIT_ASSERT_NOT_NULL(test, unmovable);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(movable), MIGRATE_CMA);
	KUNIT_EXPECT_NE(test, get_pageblock_migratetype(unmovable), MIGRATE_CMA);
	__free_pages(movable, 0);
	__free_pages(unmovable, 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* The min_free_kbytes rule on a 16 MiB node: min = sqrt(16384 * 16) KiB =
 * 512 KiB = 128 pages, low = min + max(min / 4, 4096 * 10 / 10000) = 160,
 * high = 192. */
static void watermarks_follow_the_min_free_kbytes_rule(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, 4096);
	struct zone *zone;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_EXPECT_EQ(test, zone->managed_pages, 4096);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_MIN], 128);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_LOW], 160);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_HIGH], 192);
	KUNIT_EXPECT_GE(test, zone->pcp.high, zone->pcp.batch * 4);
	test_node_destroy(pgdat);
}

/* Write text to the sysctl vm/name as a write() of it would. */
static int write_vm_sysctl(const char *name, const char *text)
{
	const struct ctl_table *t = sysctl_find("vm", name);
	char buf[16];
	size_t len = strlen(text);
	uint64_t pos = 0;

	if (!t)
		return -ENOENT;
	ksnprintf(buf, sizeof(buf), "%s", text);
	return t->proc_handler(t, 1, buf, &len, &pos);
}

/* vm.watermark_scale_factor 1000 (10%) on the same node: low = 128 +
 * max(32, 4096 * 1000 / 10000 = 409) = 537, high = 946, recomputed by the
 * write; 3001 and 0 are refused and change nothing. */
static void watermark_scale_factor_widens_the_gaps(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, 4096);
	struct zone *zone;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	KUNIT_EXPECT_EQ(test, write_vm_sysctl("watermark_scale_factor", "1000\n"), 0);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_MIN], 128);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_LOW], 537);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_HIGH], 946);
	KUNIT_EXPECT_EQ(test, write_vm_sysctl("watermark_scale_factor", "3001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_vm_sysctl("watermark_scale_factor", "0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, watermark_scale_factor, 1000);
	KUNIT_EXPECT_EQ(test, write_vm_sysctl("watermark_scale_factor", "10"), 0);
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_LOW], 160);
	test_node_destroy(pgdat);
}

#define FILL_MAX SMALL_NODE_PAGES /* more than the watermark lets through */
static struct page *filled[FILL_MAX];
static unsigned long nr_filled;

/* Allocate order-0 pages without reclaim until the watermark says no. */
static void fill_to_watermark(struct pglist_data *pgdat)
{
	nr_filled = test_fill_node(pgdat, filled, 0, FILL_MAX);
}

static void free_filled(void)
{
	test_free_filled(filled, nr_filled);
	nr_filled = 0;
}

static void allocation_below_the_watermark_fails_and_is_counted(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	struct zone *zone;
	struct page *high;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	fill_to_watermark(pgdat);
	KUNIT_EXPECT_LT(test, nr_filled, SMALL_NODE_PAGES);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_FAIL), 1);
	/* GFP_NOWAIT's second try (Linux: gfp_to_alloc_flags) goes down to
	 * the min watermark, and no further: ALLOC_NON_BLOCK alone gets no
	 * part of it. */
	KUNIT_EXPECT_EQ(test, zone->nr_free_pages, zone->_watermark[WMARK_MIN]);
	/* __GFP_HIGH may go below it (ALLOC_MIN_RESERVE). */
	high = alloc_pages_node(pgdat->node_id, GFP_NOWAIT | __GFP_HIGH, 0);
	KUNIT_EXPECT_NOT_NULL(test, high);
	KUNIT_EXPECT_NULL(test, alloc_pages_node(pgdat->node_id, __GFP_NOWARN, MAX_PAGE_ORDER + 1));
	if (high)
		__free_pages(high, 0);
	free_filled();
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* A pcp hit is no way around the watermark (Linux: get_page_from_freelist
 * checks zone_watermark_fast before rmqueue): at the min watermark with a
 * page on the pcp list, GFP_NOWAIT fails and GFP_ATOMIC gets the page. */
static void pcp_hit_below_the_min_watermark_fails_the_zone(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	struct zone *zone;
	struct page *atomic;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	fill_to_watermark(pgdat);
	KUNIT_EXPECT_EQ(test, zone->nr_free_pages, zone->_watermark[WMARK_MIN]);
	__free_pages(filled[--nr_filled], 0);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 1); /* the zone's count is unchanged */
	KUNIT_EXPECT_NULL(test, alloc_pages_node(pgdat->node_id, GFP_NOWAIT | __GFP_NOWARN, 0));
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 1);
	atomic = alloc_pages_node(pgdat->node_id, GFP_ATOMIC, 0);
	KUNIT_EXPECT_NOT_NULL(test, atomic);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 0);
	if (atomic)
		__free_pages(atomic, 0);
	free_filled();
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* alloc_pages_exact keeps the pages the size needs and frees the rest of
 * the rounded-up block at once (Linux: make_alloc_exact): 5 pages take an
 * order-3 block and give 3 back; each page is freed on its own. */
static void alloc_pages_exact_frees_the_blocks_tail(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	unsigned long before;
	char *p;

	if (!pgdat)
		return;
	before = node_free_pages(pgdat);
	p = alloc_pages_exact_nid(pgdat->node_id, 4 * PAGE_SIZE + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), before - 5);
	for (int i = 0; i < 5; i++)
		KUNIT_EXPECT_EQ(test, page_count(virt_to_page(p + i * PAGE_SIZE)), 1);
	memset(p, 0xa5, 5 * PAGE_SIZE);
	KUNIT_EXPECT_NULL(test, alloc_pages_exact_nid(pgdat->node_id, PAGE_SIZE, __GFP_COMP));
	free_pages_exact(p, 4 * PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), before);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static unsigned long reclaim_calls, reclaim_give;

/* A reclaim hook that frees up to reclaim_give of the filled pages. */
static unsigned long test_reclaim(struct pglist_data *pgdat, unsigned int order,
				  unsigned long nr_pages)
{
	unsigned long freed = 0;

	reclaim_calls++;
	while (freed < reclaim_give && nr_filled) {
		__free_pages(filled[--nr_filled], 0);
		freed++;
	}
	return freed;
}

static void reclaim_runs_before_failing_and_its_pages_are_used(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	struct page *page;

	if (!pgdat)
		return;
	fill_to_watermark(pgdat);
	pgdat->reclaim = test_reclaim;
	reclaim_calls = 0;
	reclaim_give = 0;
	KUNIT_EXPECT_NULL(test, alloc_pages_node(pgdat->node_id, GFP_KERNEL | __GFP_NOWARN, 0));
	KUNIT_EXPECT_EQ(test, reclaim_calls, 1);
	reclaim_give = 64;
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_EXPECT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, reclaim_calls, 2);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_RECLAIM), 2);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_FAIL), 2);
	if (page)
		__free_pages(page, 0);
	free_filled();
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static bool all_bytes(const struct page *page, unsigned int order, uint8_t byte)
{
	const uint8_t *p = page_address(page);

	for (size_t i = 0; i < (PAGE_SIZE << order); i++)
		if (p[i] != byte)
			return false;
	return true;
}

static void gfp_zero_returns_zeroed_pages(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);

	if (!pgdat)
		return;
	for (unsigned int order = 0; order <= 3; order += 3) {
		struct page *page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, order);

		KUNIT_ASSERT_NOT_NULL(test, page);
		memset(page_address(page), 0x5a, PAGE_SIZE << order);
		__free_pages(page, order);
		if (CONFIG_DEBUG_VM) {
			page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, order);
			KUNIT_ASSERT_NOT_NULL(test, page);
			KUNIT_EXPECT_TRUE(test, all_bytes(page, order, PAGE_POISON_BYTE));
			memset(page_address(page), 0x5a, PAGE_SIZE << order);
			__free_pages(page, order);
		}
		page = alloc_pages_node(pgdat->node_id, GFP_KERNEL | __GFP_ZERO, order);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_TRUE(test, all_bytes(page, order, 0));
		__free_pages(page, order);
	}
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* A node over 4 GiB - 16 MiB .. 4 GiB + 16 MiB: half DMA32, half Normal. */
static void zone_choice_follows_gfp_dma32_and_the_zonelist(struct kunit *test)
{
	const unsigned long split = PHYS_PFN(4ull << 30), half = 4096;
	struct pglist_data *pgdat = test_node_create_at(test, split - half, 2 * half);
	struct page *page;

	if (!pgdat)
		return;
	KUNIT_EXPECT_EQ(test, pgdat->node_zones[ZONE_DMA32].managed_pages, half);
	KUNIT_EXPECT_EQ(test, node_zone(pgdat)->managed_pages, half);
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_zonenum(page), ZONE_NORMAL);
	KUNIT_EXPECT_GE(test, page_to_pfn(page), split);
	__free_pages(page, 0);
	page = alloc_pages_node(pgdat->node_id, GFP_DMA32, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_zonenum(page), ZONE_DMA32);
	KUNIT_EXPECT_LT(test, page_to_pfn(page), split);
	__free_pages(page, 0);
	/* Normal exhausted: the zonelist falls back to DMA32. */
	drain_node_pages(pgdat);
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(split, split + half), half);
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_zonenum(page), ZONE_DMA32);
	__free_pages(page, 0);
	free_range(split, split + half);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void pcp_lists_cache_freed_pages_and_drain(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	struct zone *zone;
	struct page *a, *b;

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	a = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, a);
	__free_pages(a, 0);
	KUNIT_EXPECT_TRUE(test, PageFlag(a, PG_pcp));
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 1);
	b = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_EXPECT_TRUE(test, a == b);
	KUNIT_EXPECT_EQ(test, ev(pgdat, PGALLOC_PCP_HIT), 1);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 0);
	__free_pages(b, 0);
	/* Over pcp->high, frees spill back to the buddy lists. */
	fill_to_watermark(pgdat);
	free_filled();
	KUNIT_EXPECT_LT(test, zone->pcp.count, zone->pcp.high);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	drain_zone_pages(zone);
	KUNIT_EXPECT_EQ(test, zone->pcp.count, 0);
	KUNIT_EXPECT_EQ(test, zone->nr_free_pages, SMALL_NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* Allocate order-0 pages onto `list` until the zone is at its low
 * watermark, where every request's first try fails. */
static void fill_to_low_watermark(struct zone *zone, struct list_head *list)
{
	struct page *page;

	while (zone->nr_free_pages > zone->_watermark[WMARK_LOW] &&
	       (page = alloc_pages_node(zone->zone_pgdat->node_id, GFP_NOWAIT, 0)))
		list_add(&page->lru, list);
}

static void free_page_list(struct list_head *list)
{
	while (!list_empty(list)) {
		struct page *page = list_first_entry(list, struct page, lru);

		list_del(&page->lru);
		__free_pages(page, 0);
	}
}

/* After one high-order GFP_ATOMIC success in the slow path (the first
 * try's low watermark failed) a pageblock is set aside as HIGHATOMIC
 * (Linux: reserve_highatomic_pageblock); ordinary requests do not get
 * pages from it. Needs 1% of the zone >= one pageblock. */
static void atomic_high_order_success_reserves_a_pageblock(struct kunit *test)
{
	unsigned long nr = 128 * MAX(pageblock_nr_pages, MAX_ORDER_NR_PAGES / 8);
	struct pglist_data *pgdat;
	struct page *atomic, *normal;
	struct list_head filled_list = LIST_HEAD_INIT(filled_list);

	pgdat = big_node_create(test, nr);
	if (!pgdat)
		return;
	fill_to_low_watermark(node_zone(pgdat), &filled_list);
	atomic = alloc_pages_node(pgdat->node_id, GFP_ATOMIC, 1);
	KUNIT_ASSERT_NOT_NULL(test, atomic);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(atomic), MIGRATE_HIGHATOMIC);
	KUNIT_EXPECT_EQ(test, node_zone(pgdat)->nr_reserved_highatomic, pageblock_nr_pages);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	drain_node_pages(pgdat);
	normal = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 1);
	KUNIT_ASSERT_NOT_NULL(test, normal);
	KUNIT_EXPECT_NE(test, get_pageblock_migratetype(normal), MIGRATE_HIGHATOMIC);
	__free_pages(atomic, 1);
	__free_pages(normal, 1);
	free_page_list(&filled_list);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void buddy_check_reports_a_corrupted_counter(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, 1024);
	struct zone *zone;
	char err[256];

	if (!pgdat)
		return;
	zone = node_zone(pgdat);
	zone->free_area[0].nr_free++;
	KUNIT_EXPECT_EQ(test, buddy_check(pgdat, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, strstr(err, "nr_free") != NULL);
	zone->free_area[0].nr_free--;
	ClearPageFlag(pfn_to_page(pgdat->node_start_pfn), PG_buddy);
	KUNIT_EXPECT_EQ(test, buddy_check(pgdat, err, sizeof(err)), -1);
	SetPageFlag(pfn_to_page(pgdat->node_start_pfn), PG_buddy);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

/* --- DEBUG_VM --------------------------------------------------------------- */

static bool need_debug_vm(struct kunit *test)
{
	if (!CONFIG_DEBUG_VM)
		kunit_mark_skipped(test, "needs CONFIG_DEBUG_VM=y");
	return CONFIG_DEBUG_VM;
}

/* Return: the log position now, so a test reads only its own lines. */
static uint64_t log_now(void)
{
	static char buf[512];
	uint64_t seq = 0;

	while (printk_log_read(&seq, buf, sizeof(buf)))
		;
	return seq;
}

/* Return: whether the log from seq on contains needle. */
static bool log_contains(uint64_t seq, const char *needle)
{
	static char buf[1u << CONFIG_LOG_BUF_SHIFT];
	size_t n = 0, got;

	while (n + 1 < sizeof(buf) && (got = printk_log_read(&seq, buf + n, sizeof(buf) - 1 - n)))
		n += got;
	buf[n] = '\0';
	return strstr(buf, needle) != NULL;
}

static void overwritten_poison_is_reported_and_the_page_skipped(struct kunit *test)
{
	struct pglist_data *pgdat;
	struct page *a, *b;
	char msg[96];
	uint64_t seq;

	if (!need_debug_vm(test) || !(pgdat = test_node_create(test, SMALL_NODE_PAGES)))
		return;
	a = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, a);
	__free_pages(a, 0);
	((uint8_t *)page_address(a))[0x123] = 0; /* a write after free */
	seq = log_now();
	b = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_TRUE(test, a != b);
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 1);
	ksnprintf(msg, sizeof(msg), "page_alloc: poison overwritten at pfn %lx offset 123",
		  page_to_pfn(a));
	KUNIT_EXPECT_TRUE(test, log_contains(seq, msg));
	__free_pages(b, 0);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void double_free_is_refused_with_free_lists_intact(struct kunit *test)
{
	struct pglist_data *pgdat = test_node_create(test, SMALL_NODE_PAGES);
	struct page *page;
	unsigned long free;

	if (!pgdat)
		return;
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 2);
	__free_pages(page, 2); /* still on the pcp list */
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	drain_node_pages(pgdat);
	free = node_free_pages(pgdat);
	__free_pages(page, 2); /* now in the buddy lists */
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 2);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), free);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), SMALL_NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void freeing_a_tail_page_or_the_wrong_order_is_refused(struct kunit *test)
{
	struct pglist_data *pgdat;
	struct page *head;

	if (!need_debug_vm(test) || !(pgdat = test_node_create(test, SMALL_NODE_PAGES)))
		return;
	head = alloc_pages_node(pgdat->node_id, GFP_KERNEL | __GFP_COMP, 2);
	KUNIT_ASSERT_NOT_NULL(test, head);
	KUNIT_ASSERT_TRUE(test, PageTail(head + 1));
	__free_pages(head + 1, 0);
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	__free_pages(head, 1);
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 2);
	KUNIT_EXPECT_EQ(test, page_count(head), 1);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	__free_pages(head, 2);
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 2);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), SMALL_NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static void freeing_a_mapped_page_is_refused(struct kunit *test)
{
	struct pglist_data *pgdat;
	struct page *page;

	if (!need_debug_vm(test) || !(pgdat = test_node_create(test, SMALL_NODE_PAGES)))
		return;
	page = alloc_pages_node(pgdat->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	folio_add_anon_rmap_ptes(page_folio(page), 1, NULL); /* order 0: no mm */
	__free_pages(page, 0);
	KUNIT_EXPECT_EQ(test, ev(pgdat, BAD_PAGE), 1);
	KUNIT_EXPECT_EQ(test, page_count(page), 1);
	folio_remove_rmap_ptes(page_folio(page), 1, NULL);
	__free_pages(page, 0);
	drain_node_pages(pgdat);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat), SMALL_NODE_PAGES);
	KUNIT_EXPECT_BUDDY_OK(test, pgdat);
	test_node_destroy(pgdat);
}

static struct kunit_case page_alloc_cases[] = {
	KUNIT_CASE(buddies_merge_into_the_lower_block),
	KUNIT_CASE(random_alloc_free_keeps_every_invariant),
	KUNIT_CASE(freeing_everything_restores_the_free_area_picture),
	KUNIT_CASE(unmovable_request_steals_a_mostly_free_pageblock),
	KUNIT_CASE(unmovable_request_claims_even_from_single_free_pages),
	KUNIT_CASE(small_movable_fallback_does_not_steal_a_mostly_used_block),
	KUNIT_CASE(movable_fallback_counts_every_page_of_an_lru_folio),
	KUNIT_CASE(movable_requests_prefer_cma_when_it_holds_most_free_memory),
	KUNIT_CASE(watermarks_follow_the_min_free_kbytes_rule),
	KUNIT_CASE(watermark_scale_factor_widens_the_gaps),
	KUNIT_CASE(allocation_below_the_watermark_fails_and_is_counted),
	KUNIT_CASE(pcp_hit_below_the_min_watermark_fails_the_zone),
	KUNIT_CASE(alloc_pages_exact_frees_the_blocks_tail),
	KUNIT_CASE(reclaim_runs_before_failing_and_its_pages_are_used),
	KUNIT_CASE(gfp_zero_returns_zeroed_pages),
	KUNIT_CASE(zone_choice_follows_gfp_dma32_and_the_zonelist),
	KUNIT_CASE(pcp_lists_cache_freed_pages_and_drain),
	KUNIT_CASE(atomic_high_order_success_reserves_a_pageblock),
	KUNIT_CASE(buddy_check_reports_a_corrupted_counter),
	KUNIT_CASE(overwritten_poison_is_reported_and_the_page_skipped),
	KUNIT_CASE(double_free_is_refused_with_free_lists_intact),
	KUNIT_CASE(freeing_a_tail_page_or_the_wrong_order_is_refused),
	KUNIT_CASE(freeing_a_mapped_page_is_refused),
	{},
};

static struct kunit_suite page_alloc_suite = {
	.name = "page_alloc",
	.test_cases = page_alloc_cases,
};
kunit_test_suite(page_alloc_suite);
