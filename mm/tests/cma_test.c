/*
 * CMA and page isolation on private nodes: placement for every pageblock
 * order on a private memblock; cma_alloc/cma_release over an area of a
 * private node, with borrowed movable folios migrated out through a
 * recording hook; clean failure when a page cannot move; isolated blocks
 * never serving allocations. buddy_check() runs after every step.
 */
#include <ktest.h>
#include <shell.h>
#include "../internal.h"
#include "mm_test_util.h"

/* The test area: two pageblocks, or 256 pages if pageblocks are tiny, so
 * the same offsets work for every pageblock order. */
#define CMA_TEST_PAGES ALIGN_UP(MAX(2 * pageblock_nr_pages, 256ul), pageblock_nr_pages)

/* --- placement: pure math, every pageblock order on one build ----------- */

static struct memblock mb; /* 8 KiB: too big for a kernel stack frame */

static void cma_area_size_rounds_up_to_whole_pageblocks(struct kunit *test)
{
	for (unsigned int o = 1; o <= 10; o++) {
		phys_addr_t pb = PAGE_SIZE << o;

		KUNIT_EXPECT_EQ(test, cma_alignment(o), pb);
		KUNIT_EXPECT_EQ(test, cma_align_size(0, o), 0);
		KUNIT_EXPECT_EQ(test, cma_align_size(1, o), pb); /* smallest area */
		KUNIT_EXPECT_EQ(test, cma_align_size(pb, o), pb);
		KUNIT_EXPECT_EQ(test, cma_align_size(pb + 1, o), 2 * pb);
		KUNIT_EXPECT_EQ(test, cma_align_size(3 * pb - PAGE_SIZE, o), 3 * pb);
	}
}

/* RAM that starts and ends off every pageblock boundary, with a reserved
 * hole in the middle, so a correct base has to be searched for. */
static void odd_memory_map(void)
{
	memblock_init(&mb);
	memblock_add(&mb, 0x101000, 0x4000000);
	memblock_reserve(&mb, 0x2001000, 0x3000);
}

static void cma_area_base_is_pageblock_aligned_for_every_order(struct kunit *test)
{
	for (unsigned int o = 1; o <= 10; o++) {
		phys_addr_t pb = PAGE_SIZE << o, reserved, base;

		odd_memory_map();
		reserved = memblock_reserved_size(&mb);
		base = cma_reserve_area(&mb, 3 * pb + 1, o);
		KUNIT_ASSERT_NE(test, base, 0);
		KUNIT_EXPECT_EQ(test, base % pb, 0);
		KUNIT_EXPECT_GE(test, base, 0x101000);
		KUNIT_EXPECT_LE(test, base + 4 * pb, 0x4101000);
		KUNIT_EXPECT_EQ(test, memblock_reserved_size(&mb), reserved + 4 * pb);
		/* The smallest area is one pageblock, still aligned. */
		base = cma_reserve_area(&mb, 1, o);
		KUNIT_EXPECT_NE(test, base, 0);
		KUNIT_EXPECT_EQ(test, base % pb, 0);
		KUNIT_EXPECT_EQ(test, memblock_reserved_size(&mb), reserved + 5 * pb);
	}
}

static void cma_area_never_straddles_the_4g_zone_boundary(struct kunit *test)
{
	phys_addr_t base;

	memblock_init(&mb);
	memblock_add(&mb, 3584 * MIB, GIB); /* 512 MiB each side of 4 GiB */
	KUNIT_EXPECT_EQ(test, cma_reserve_area(&mb, 768 * MIB, 9), 0);
	base = cma_reserve_area(&mb, 256 * MIB, 9);
	KUNIT_EXPECT_GE(test, base, 4 * GIB); /* high memory first */
	base = cma_reserve_area(&mb, 384 * MIB, 9);
	KUNIT_EXPECT_GE(test, base, 3584 * MIB);
	KUNIT_EXPECT_LE(test, base + 384 * MIB, 4 * GIB);
}

static void cma_declare_too_big_fails_and_reserves_nothing(struct kunit *test)
{
	phys_addr_t reserved;

	odd_memory_map();
	reserved = memblock_reserved_size(&mb);
	KUNIT_EXPECT_EQ(test, cma_declare_contiguous(&mb, 128 * MIB, "test"), -1);
	KUNIT_EXPECT_EQ(test, cma_declare_contiguous(&mb, 0, "test"), -1);
	KUNIT_EXPECT_EQ(test, memblock_reserved_size(&mb), reserved);
}

/* --- a private node with a CMA area --------------------------------------- */

/* The private node the area lives in. */
struct mm_test_node {
	struct pglist_data *pgdat;
	int nid;
	unsigned long start_pfn, nr_pages;
};

/* Return: 0 with n describing a fresh node of nr_pages, or -1 (the case
 * is then marked skipped by test_node_create). */
static int mm_test_node_create(struct kunit *test, struct mm_test_node *n, unsigned long nr_pages)
{
	n->pgdat = test_node_create(test, nr_pages);
	if (!n->pgdat)
		return -1;
	n->nid = n->pgdat->node_id;
	n->start_pfn = n->pgdat->node_start_pfn;
	n->nr_pages = n->pgdat->node_spanned_pages;
	return 0;
}

static struct mm_test_node tn;
static migrate_folio_fn saved_hook; /* the system's hook, restored at exit */
static struct cma test_cma;
static unsigned long cma_bitmap[CMA_BITMAP_LONGS(2 * MAX_ORDER_NR_PAGES + 256)];

static struct pglist_data *pgdat(void)
{
	return tn.pgdat;
}

static struct zone *test_zone(void)
{
	return page_zone(pfn_to_page(tn.start_pfn));
}

#define EXPECT_BUDDY_OK(test) KUNIT_EXPECT_BUDDY_OK(test, pgdat())

/* The area starts one pageblock into a node twice its size (the node
 * starts on a max-order block, so on a pageblock): as much memory again
 * stays outside it for migration targets. Four pageblocks at most, so
 * four max-order blocks of test memory hold it at pageblock order 12. */
static int cma_test_init(struct kunit *test)
{
	unsigned long base;

	saved_hook = set_migrate_folio_hook(NULL);
	if (mm_test_node_create(test, &tn, 2 * CMA_TEST_PAGES))
		return 0;
	base = tn.start_pfn + pageblock_nr_pages;
	if (cma_init_area(&test_cma, base, CMA_TEST_PAGES, cma_bitmap, "test"))
		kunit_fail(test, __FILE__, __LINE__, "cma_init_area failed");
	return 0;
}

static void cma_test_exit(struct kunit *test)
{
	set_migrate_folio_hook(saved_hook);
	if (tn.pgdat)
		test_node_destroy(tn.pgdat);
	tn.pgdat = NULL;
}

static bool pfn_in_area(unsigned long pfn)
{
	return pfn >= test_cma.base_pfn && pfn < test_cma.base_pfn + test_cma.count;
}

static void cma_init_area_types_pageblocks_cma(struct kunit *test)
{
	unsigned long pfn;

	for (pfn = test_cma.base_pfn; pfn < test_cma.base_pfn + test_cma.count;
	     pfn += pageblock_nr_pages)
		KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(pfn)), MIGRATE_CMA);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(pfn)), MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, test_zone()->cma_pages, test_cma.count);
	KUNIT_EXPECT_EQ(test, cma_free_pages(&test_cma), test_cma.count);
	KUNIT_EXPECT_EQ(test, cma_init_area(&test_cma, test_cma.base_pfn + 1, 1, cma_bitmap, "bad"),
			-EINVAL);
	EXPECT_BUDDY_OK(test);
}

static void cma_alloc_returns_aligned_ranges_inside_the_area(struct kunit *test)
{
	static const unsigned int aligns[] = { 0, 3, 0, 5, 1 };
	static const unsigned long sizes[] = { 3, 8, 1, 32, 5 };
	unsigned long free0 = node_free_pages(pgdat());
	struct page *got[ARRAY_SIZE(sizes)];

	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long pfn;

		got[i] = cma_alloc(&test_cma, sizes[i], aligns[i]);
		KUNIT_ASSERT_NOT_NULL(test, got[i]);
		pfn = page_to_pfn(got[i]);
		KUNIT_EXPECT_TRUE(test, pfn_in_area(pfn));
		KUNIT_EXPECT_TRUE(test, pfn_in_area(pfn + sizes[i] - 1));
		KUNIT_EXPECT_EQ(test, pfn & ((1ul << aligns[i]) - 1), 0);
		for (unsigned long n = 0; n < sizes[i]; n++) {
			KUNIT_EXPECT_EQ(test, page_count(got[i] + n), 1);
			KUNIT_EXPECT_TRUE(test, PageFlag(got[i] + n, PG_cma));
		}
		EXPECT_BUDDY_OK(test);
	}
	KUNIT_EXPECT_EQ(test, test_cma.nr_allocated, 49);
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[CMA_ALLOC_SUCCESS], ARRAY_SIZE(sizes));
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0 - 49);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		KUNIT_EXPECT_TRUE(test, cma_release(&test_cma, got[i], sizes[i]));
		KUNIT_EXPECT_FALSE(test, cma_release(&test_cma, got[i], sizes[i]));
		EXPECT_BUDDY_OK(test);
	}
	KUNIT_EXPECT_EQ(test, test_cma.nr_allocated, 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0);
}

static void cma_alloc_whole_area_then_nothing_more(struct kunit *test)
{
	struct page *all, *none;

	all = cma_alloc(&test_cma, test_cma.count, pageblock_order);
	KUNIT_ASSERT_NOT_NULL(test, all);
	KUNIT_EXPECT_EQ(test, page_to_pfn(all), test_cma.base_pfn);
	none = cma_alloc(&test_cma, 1, 0);
	KUNIT_EXPECT_NULL(test, none);
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[CMA_ALLOC_FAIL], 1);
	KUNIT_EXPECT_NULL(test, cma_alloc(&test_cma, test_cma.count + 1, 0));
	KUNIT_EXPECT_NULL(test, cma_alloc(&test_cma, 0, 0));
	/* Pages outside the area, or never allocated, are refused. */
	KUNIT_EXPECT_FALSE(test, cma_release(&test_cma, all - 1, 1));
	KUNIT_EXPECT_FALSE(test, cma_release(&test_cma, all, test_cma.count + 1));
	KUNIT_EXPECT_TRUE(test, cma_release(&test_cma, all, test_cma.count));
	EXPECT_BUDDY_OK(test);
}

/* Allocate order-0 pages of gfp until the node says no; they are chained
 * on their lru links. Return: how many landed in the CMA area. */
static unsigned long hog_pages(struct list_head *hog, gfp_t gfp, unsigned long max)
{
	unsigned long in_area = 0;
	struct page *page;

	while (max-- && (page = alloc_pages_node(tn.nid, gfp | __GFP_NOWARN, 0))) {
		list_add(&page->lru, hog);
		in_area += pfn_in_area(page_to_pfn(page));
	}
	return in_area;
}

static void free_hog(struct list_head *hog)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, hog, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
	}
}

static void movable_allocations_use_cma_but_unmovable_never_do(struct kunit *test)
{
	struct list_head unmovable = LIST_HEAD_INIT(unmovable);
	struct list_head movable = LIST_HEAD_INIT(movable);
	unsigned long free0 = node_free_pages(pgdat());

	KUNIT_EXPECT_EQ(test, hog_pages(&unmovable, GFP_KERNEL, tn.nr_pages), 0);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_GT(test, hog_pages(&movable, GFP_HIGHUSER_MOVABLE, tn.nr_pages), 0);
	EXPECT_BUDDY_OK(test);
	for (unsigned long pfn = test_cma.base_pfn; pfn < test_cma.base_pfn + test_cma.count;
	     pfn += pageblock_nr_pages)
		KUNIT_EXPECT_EQ(test, get_pageblock_type_raw(pfn_to_page(pfn)),
				MIGRATE_CMA); /* never stolen */
	free_hog(&movable);
	free_hog(&unmovable);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0);
}

/* --- migration through a recording hook ----------------------------------- */

#define MAX_MOVES 16
static struct {
	unsigned long src_pfn, dst_pfn;
} moves[MAX_MOVES];
static unsigned int nr_moves;
static int hook_result;

/* What the anonymous-memory code would do: copy, take over dst, let src go. */
static int recording_migrate_hook(struct folio *dst, struct folio *src)
{
	if (hook_result)
		return hook_result;
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	folio_set_anon(dst);
	folio_set_swapbacked(dst);
	folio_clear_anon(src);
	folio_clear_swapbacked(src);
	if (nr_moves < MAX_MOVES) {
		moves[nr_moves].src_pfn = folio_pfn(src);
		moves[nr_moves].dst_pfn = folio_pfn(dst);
	}
	nr_moves++;
	return 0;
}

/* The first pfn at or after area offset off that can start a folio of
 * this order (folios are naturally aligned). */
static unsigned long area_pfn(unsigned long off, unsigned int order)
{
	return ALIGN_UP(test_cma.base_pfn + off, 1ul << order);
}

/* An anonymous folio placed at pfn (free, aligned to the order), filled
 * with a pattern derived from its pfn. */
static struct folio *anon_folio_at(struct kunit *test, unsigned long pfn, unsigned int order)
{
	unsigned long nr = 1ul << order;
	struct page *page = pfn_to_page(pfn);

	if (pfn & (nr - 1) || take_free_pfn_range(pfn, pfn + nr) != nr)
		return NULL;
	for (unsigned long i = 1; i < nr; i++)
		page[i]._refcount = 0;
	prep_compound_page(page, order);
	folio_set_anon(page_folio(page));
	folio_set_swapbacked(page_folio(page));
	memset(page_address(page), (int)(pfn & 0xff), nr * PAGE_SIZE);
	return page_folio(page);
}

static bool folio_holds_pattern(struct folio *folio, unsigned long pfn)
{
	const unsigned char *p = folio_address(folio);

	for (size_t i = 0; i < folio_size(folio); i++)
		if (p[i] != (pfn & 0xff))
			return false;
	return true;
}

static void cma_alloc_migrates_movable_folios_out(struct kunit *test)
{
	static const unsigned long offsets[] = { 1, 8, 64 };
	static const unsigned int orders[] = { 0, 2, 3 };
	unsigned long free0 = node_free_pages(pgdat()), moved = 0;
	struct page *range;

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		KUNIT_ASSERT_NOT_NULL(
			test, anon_folio_at(test, area_pfn(offsets[i], orders[i]), orders[i]));
		moved += 1ul << orders[i];
	}
	nr_moves = 0;
	hook_result = 0;
	set_migrate_folio_hook(recording_migrate_hook);
	range = cma_alloc(&test_cma, test_cma.count, 0);
	KUNIT_ASSERT_NOT_NULL(test, range);
	EXPECT_BUDDY_OK(test);
	KUNIT_ASSERT_EQ(test, nr_moves, ARRAY_SIZE(orders));
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[PGMIGRATE_SUCCESS], moved);
	for (unsigned int i = 0; i < nr_moves; i++) {
		struct folio *dst = page_folio(pfn_to_page(moves[i].dst_pfn));

		KUNIT_EXPECT_EQ(test, moves[i].src_pfn, area_pfn(offsets[i], orders[i]));
		KUNIT_EXPECT_FALSE(test, pfn_in_area(moves[i].dst_pfn));
		KUNIT_EXPECT_EQ(test, folio_order(dst), orders[i]);
		KUNIT_EXPECT_TRUE(test, folio_holds_pattern(dst, moves[i].src_pfn));
		folio_put(dst);
	}
	KUNIT_EXPECT_TRUE(test, cma_release(&test_cma, range, test_cma.count));
	EXPECT_BUDDY_OK(test);
	/* The sources were freed by migration: everything is free again. */
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0);
	KUNIT_EXPECT_EQ(test, cma_free_pages(&test_cma), test_cma.count);
}

/* After a failed cma_alloc nothing may have changed but the counters. */
static void expect_clean_failure(struct kunit *test, struct folio *folio, unsigned long pfn,
				 unsigned long free0)
{
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[CMA_ALLOC_FAIL], 1);
	KUNIT_EXPECT_EQ(test, test_cma.nr_allocated, 0);
	for (unsigned long b = test_cma.base_pfn; b < test_cma.base_pfn + test_cma.count;
	     b += pageblock_nr_pages)
		KUNIT_EXPECT_FALSE(test, get_pageblock_isolate(pfn_to_page(b)));
	KUNIT_EXPECT_EQ(test, folio_pfn(folio), pfn);
	KUNIT_EXPECT_TRUE(test, folio_holds_pattern(folio, pfn));
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0);
	EXPECT_BUDDY_OK(test);
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
}

static void cma_alloc_fails_cleanly_without_a_migration_hook(struct kunit *test)
{
	unsigned long pfn, free0;
	struct folio *folio;

	pfn = area_pfn(16, 2);
	folio = anon_folio_at(test, pfn, 2);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	free0 = node_free_pages(pgdat());
	KUNIT_EXPECT_NULL(test, cma_alloc(&test_cma, test_cma.count, 0));
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[PGMIGRATE_FAIL], 4);
	expect_clean_failure(test, folio, pfn, free0);
}

static void cma_alloc_fails_cleanly_when_the_hook_refuses(struct kunit *test)
{
	unsigned long pfn, free0;
	struct folio *folio;

	pfn = area_pfn(32, 3);
	folio = anon_folio_at(test, pfn, 3);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	free0 = node_free_pages(pgdat());
	nr_moves = 0;
	hook_result = -EBUSY;
	set_migrate_folio_hook(recording_migrate_hook);
	KUNIT_EXPECT_NULL(test, cma_alloc(&test_cma, test_cma.count, 0));
	KUNIT_EXPECT_EQ(test, nr_moves, 0);
	KUNIT_EXPECT_EQ(test, pgdat()->vm_events[PGMIGRATE_FAIL], 8);
	expect_clean_failure(test, folio, pfn, free0);
	hook_result = 0;
}

static void cma_alloc_fails_cleanly_over_an_unmovable_page(struct kunit *test)
{
	unsigned long pfn, free0;
	struct folio *folio;

	pfn = test_cma.base_pfn + test_cma.count - 1;
	folio = anon_folio_at(test, pfn, 0);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	folio_clear_anon(folio); /* a kernel page: nobody can move it */
	folio_clear_swapbacked(folio);
	free0 = node_free_pages(pgdat());
	set_migrate_folio_hook(recording_migrate_hook);
	KUNIT_EXPECT_NULL(test, cma_alloc(&test_cma, test_cma.count, 0));
	expect_clean_failure(test, folio, pfn, free0);
}

/* A range that cannot be cleared moves the search to the next candidate. */
static void cma_alloc_skips_a_busy_range(struct kunit *test)
{
	unsigned long pfn = test_cma.base_pfn;
	struct folio *folio;
	struct page *range;

	folio = anon_folio_at(test, pfn, 0);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	folio_clear_anon(folio);
	range = cma_alloc(&test_cma, pageblock_nr_pages, pageblock_order);
	KUNIT_ASSERT_NOT_NULL(test, range);
	KUNIT_EXPECT_EQ(test, page_to_pfn(range), pfn + pageblock_nr_pages);
	KUNIT_EXPECT_TRUE(test, cma_release(&test_cma, range, pageblock_nr_pages));
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
}

/* --- the shell command ------------------------------------------------------ */

static struct shell_capture out;

static int run_captured(const char *line)
{
	return shell_run_captured(&out, line);
}

/* The pfn in "cma: 8 pages at pfn 0x1234\n", or 0. */
static uint64_t captured_pfn(void)
{
	char *p = strstr(out.text, "pfn "), *nl;
	uint64_t pfn;

	if (!p || !(nl = strchr(p, '\n')))
		return 0;
	*nl = '\0';
	return kstrtou64(p + 4, &pfn) ? 0 : pfn;
}

/* The test area stands in for the boot area while the command runs. */
static void cma_shell_command_allocates_releases_and_explains(struct kunit *test)
{
	struct cma *saved = boot_cma;
	char line[64];
	uint64_t pfn;

	boot_cma = NULL;
	KUNIT_EXPECT_EQ(test, run_captured("cma"), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "no CMA area: boot with cma=SIZE"));
	boot_cma = &test_cma;
	KUNIT_EXPECT_EQ(test, run_captured("cma alloc 8 3"), CMD_OK);
	pfn = captured_pfn();
	KUNIT_EXPECT_TRUE(test, pfn_in_area(pfn));
	KUNIT_EXPECT_EQ(test, pfn % 8, 0);
	KUNIT_EXPECT_EQ(test, run_captured("cma"), CMD_OK);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "allocated 8 pages"));
	ksnprintf(line, sizeof(line), "cma release %#llx 8", (unsigned long long)pfn);
	KUNIT_EXPECT_EQ(test, run_captured(line), CMD_OK);
	KUNIT_EXPECT_EQ(test, run_captured(line), CMD_ERROR);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "is not an allocation"));
	KUNIT_EXPECT_EQ(test, run_captured("cma alloc"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, run_captured("cma alloc lots"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, run_captured("cma alloc 1 99"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, run_captured("cma release 5"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, run_captured("cma frobnicate"), CMD_USAGE);
	boot_cma = saved;
	KUNIT_EXPECT_EQ(test, test_cma.nr_allocated, 0);
	EXPECT_BUDDY_OK(test);
}

static struct kunit_case cma_test_cases[] = {
	KUNIT_CASE(cma_area_size_rounds_up_to_whole_pageblocks),
	KUNIT_CASE(cma_area_base_is_pageblock_aligned_for_every_order),
	KUNIT_CASE(cma_area_never_straddles_the_4g_zone_boundary),
	KUNIT_CASE(cma_declare_too_big_fails_and_reserves_nothing),
	KUNIT_CASE(cma_init_area_types_pageblocks_cma),
	KUNIT_CASE(cma_alloc_returns_aligned_ranges_inside_the_area),
	KUNIT_CASE(cma_alloc_whole_area_then_nothing_more),
	KUNIT_CASE(movable_allocations_use_cma_but_unmovable_never_do),
	KUNIT_CASE(cma_alloc_migrates_movable_folios_out),
	KUNIT_CASE(cma_alloc_fails_cleanly_without_a_migration_hook),
	KUNIT_CASE(cma_alloc_fails_cleanly_when_the_hook_refuses),
	KUNIT_CASE(cma_alloc_fails_cleanly_over_an_unmovable_page),
	KUNIT_CASE(cma_alloc_skips_a_busy_range),
	KUNIT_CASE(cma_shell_command_allocates_releases_and_explains),
	{},
};

static struct kunit_suite cma_test_suite = {
	.name = "cma",
	.init = cma_test_init,
	.exit = cma_test_exit,
	.test_cases = cma_test_cases,
};
kunit_test_suite(cma_test_suite);

/* --- page isolation ------------------------------------------------------- */

/* The nth whole pageblock of the test node. */
static unsigned long test_block(unsigned int n)
{
	return ALIGN_UP(tn.start_pfn, pageblock_nr_pages) + n * pageblock_nr_pages;
}

static int isolation_test_init(struct kunit *test)
{
	if (!mm_test_node_create(test, &tn, MAX(4 * pageblock_nr_pages, 256ul)) &&
	    test_block(4) > tn.start_pfn + tn.nr_pages)
		kunit_mark_skipped(test, "test memory too small for 4 pageblocks");
	return 0;
}

/* Pages on the free lists of migratetype mt. */
static unsigned long free_list_pages(int mt)
{
	struct zone *zone = test_zone();
	unsigned long nr = 0;
	struct page *page;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		list_for_each_entry(page, &zone->free_area[o].free_list[mt], lru)
			nr += 1ul << o;
	return nr;
}

static void isolated_block_never_serves_allocations(struct kunit *test)
{
	struct list_head hog = LIST_HEAD_INIT(hog);
	unsigned long block, free0;
	struct page *page;

	block = test_block(2);
	free0 = node_free_pages(pgdat());
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(block, block + 1), 0);
	KUNIT_EXPECT_TRUE(test, get_pageblock_isolate(pfn_to_page(block)));
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(block)), MIGRATE_ISOLATE);
	KUNIT_EXPECT_EQ(test, get_pageblock_type_raw(pfn_to_page(block)), MIGRATE_MOVABLE);
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), pageblock_nr_pages);
	EXPECT_BUDDY_OK(test);
	hog_pages(&hog, GFP_HIGHUSER_MOVABLE, tn.nr_pages);
	list_for_each_entry(page, &hog, lru)
		KUNIT_EXPECT_NE(test, pageblock_start_pfn(page_to_pfn(page)), block);
	EXPECT_BUDDY_OK(test);
	free_hog(&hog);
	undo_isolate_page_range(block, block + 1);
	KUNIT_EXPECT_FALSE(test, get_pageblock_isolate(pfn_to_page(block)));
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), 0);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, node_free_pages(pgdat()), free0);
}

static void free_into_isolated_block_goes_to_the_isolate_list(struct kunit *test)
{
	unsigned long block, pfn;

	block = test_block(3);
	pfn = block + pageblock_nr_pages - 1;
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(pfn, pfn + 1), 1);
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(block, block + pageblock_nr_pages), 0);
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), pageblock_nr_pages - 1);
	__free_pages(pfn_to_page(pfn), 0);
	drain_node_pages(pgdat());
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), pageblock_nr_pages);
	EXPECT_BUDDY_OK(test);
	undo_isolate_page_range(block, block + pageblock_nr_pages);
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), 0);
	EXPECT_BUDDY_OK(test);
}

static void isolation_refused_for_unmovable_block_in_use(struct kunit *test)
{
	unsigned long first, second;

	first = test_block(1);
	second = test_block(2);
	split_large_buddy(test_zone(), second);
	set_pageblock_migratetype(pfn_to_page(second), MIGRATE_UNMOVABLE);
	move_freepages_block(test_zone(), pfn_to_page(second), MIGRATE_UNMOVABLE);
	EXPECT_BUDDY_OK(test);
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(second + 1, second + 2), 1);
	/* All or nothing: the movable first block stays unisolated too. */
	KUNIT_EXPECT_EQ(test, start_isolate_page_range(first, second + 1), -EBUSY);
	KUNIT_EXPECT_FALSE(test, get_pageblock_isolate(pfn_to_page(first)));
	KUNIT_EXPECT_FALSE(test, get_pageblock_isolate(pfn_to_page(second)));
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), 0);
	EXPECT_BUDDY_OK(test);
	/* Fully free, an unmovable block may be isolated. */
	__free_pages(pfn_to_page(second + 1), 0);
	drain_node_pages(pgdat());
	KUNIT_EXPECT_EQ(test, start_isolate_page_range(first, second + 1), 0);
	EXPECT_BUDDY_OK(test);
	undo_isolate_page_range(first, second + 1);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(second)), MIGRATE_UNMOVABLE);
}

static void isolating_an_isolated_block_is_refused(struct kunit *test)
{
	unsigned long block;

	block = test_block(2);
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(block, block + 1), 0);
	KUNIT_EXPECT_EQ(test, start_isolate_page_range(block, block + 1), -EBUSY);
	undo_isolate_page_range(block, block + 1);
	EXPECT_BUDDY_OK(test);
}

/* Undo gives every page back to its block's list, merged as before. */
static void undo_isolation_restores_the_free_lists(struct kunit *test)
{
	unsigned long before[NR_PAGE_ORDERS], by_type[MIGRATE_TYPES];
	struct zone *zone;
	unsigned long start;

	zone = test_zone();
	start = test_block(1);
	drain_node_pages(pgdat());
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		before[o] = zone->free_area[o].nr_free;
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		by_type[mt] = free_list_pages(mt);
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(start + 1, start + 3 * pageblock_nr_pages),
			0);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, free_list_pages(MIGRATE_ISOLATE), 3 * pageblock_nr_pages);
	undo_isolate_page_range(start + 1, start + 3 * pageblock_nr_pages);
	EXPECT_BUDDY_OK(test);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		KUNIT_EXPECT_EQ(test, zone->free_area[o].nr_free, before[o]);
	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		KUNIT_EXPECT_EQ(test, free_list_pages(mt), by_type[mt]);
}

static struct kunit_case isolation_test_cases[] = {
	KUNIT_CASE(isolated_block_never_serves_allocations),
	KUNIT_CASE(free_into_isolated_block_goes_to_the_isolate_list),
	KUNIT_CASE(isolation_refused_for_unmovable_block_in_use),
	KUNIT_CASE(isolating_an_isolated_block_is_refused),
	KUNIT_CASE(undo_isolation_restores_the_free_lists),
	{},
};

static struct kunit_suite isolation_test_suite = {
	.name = "page_isolation",
	.init = isolation_test_init,
	.exit = cma_test_exit,
	.test_cases = isolation_test_cases,
};
kunit_test_suite(isolation_test_suite);
