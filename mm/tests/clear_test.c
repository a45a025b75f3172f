/*
 * clear_pages() and folio_zero_user() on a private node: clear_pages
 * clears exactly its pages with both instructions; every strategy clears
 * every byte of folios of order 1, 4, 9 and MAX_PAGE_ORDER wherever the
 * fault is; and the recorded clear_pages() calls come in the documented
 * order. Example: neighbourhood, order 4, fault in page 5 records
 * [8..15], [0..2], [3..7].
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

/* ZERO_PAGE records one call per page of the largest folio. */
#define MAX_RECORDS MAX_ORDER_NR_PAGES

static struct pglist_data *node;
static struct folio *recorded_folio;
static struct folio_zero_range records[MAX_RECORDS];
static unsigned int nr_records;

static void record_clear(void *addr, unsigned int npages)
{
	unsigned long start = ((char *)addr - (char *)folio_address(recorded_folio)) / PAGE_SIZE;

	if (nr_records < MAX_RECORDS)
		records[nr_records] = (struct folio_zero_range){ start, npages };
	nr_records++;
}

static int clear_test_init(struct kunit *test)
{
	node = test_node_create(test, 2 * MAX_ORDER_NR_PAGES);
	return 0;
}

static void clear_test_exit(struct kunit *test)
{
	clear_pages_recorder = NULL;
	zero_strategy = ZERO_NEIGHBOURHOOD;
	if (node)
		test_node_destroy(node);
	node = NULL;
}

/* Zero the folio as a fault at page fault_idx would, recording the calls. */
static void zero_and_record(struct folio *folio, enum zero_strategy strategy,
			    unsigned long fault_idx)
{
	const unsigned long user_base = 0x40000000ul; /* aligned to any folio */

	recorded_folio = folio;
	nr_records = 0;
	zero_strategy = strategy;
	clear_pages_recorder = record_clear;
	folio_zero_user(folio, user_base + fault_idx * PAGE_SIZE + 123);
	clear_pages_recorder = NULL;
	zero_strategy = ZERO_NEIGHBOURHOOD;
}

/* Return: the index of the first 8-byte word of [p, p + bytes) not equal
 * to pattern, or bytes / 8 if all are. */
static size_t first_word_not(const void *p, size_t bytes, uint64_t pattern)
{
	const uint64_t *w = p;

	for (size_t i = 0; i < bytes / 8; i++)
		if (w[i] != pattern)
			return i;
	return bytes / 8;
}

#define POISON 0xabababababababab

static void expect_ranges(struct kunit *test, const struct folio_zero_range *want, unsigned int n)
{
	KUNIT_EXPECT_EQ(test, nr_records, n);
	for (unsigned int i = 0; i < n && i < nr_records; i++) {
		KUNIT_EXPECT_EQ(test, records[i].start, want[i].start);
		KUNIT_EXPECT_EQ(test, records[i].nr, want[i].nr);
	}
}

static void clear_pages_clears_exactly_npages_with_each_instruction(struct kunit *test)
{
	static const char *const insns[] = { "stosb", "stosq" };
	const char *saved = clear_pages_insn_name();
	struct folio *folio;
	char *p;

	if (!node)
		return;
	folio = folio_alloc_node(node->node_id, GFP_KERNEL, 3);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	p = folio_address(folio);
	for (unsigned int i = 0; i < ARRAY_SIZE(insns); i++) {
		for (unsigned int npages = 1; npages <= 5; npages += 2) {
			memset(p, 0xab, 8 * PAGE_SIZE);
			KUNIT_ASSERT_EQ(test, clear_pages_select(insns[i]), 0);
			KUNIT_EXPECT_STREQ(test, clear_pages_insn_name(), insns[i]);
			clear_pages(p + PAGE_SIZE, npages);
			KUNIT_EXPECT_EQ(test, first_word_not(p, PAGE_SIZE, POISON), PAGE_SIZE / 8);
			KUNIT_EXPECT_EQ(test, first_word_not(p + PAGE_SIZE, npages * PAGE_SIZE, 0),
					npages * PAGE_SIZE / 8);
			KUNIT_EXPECT_EQ(test,
					first_word_not(p + (1 + npages) * PAGE_SIZE,
						       (7 - npages) * PAGE_SIZE, POISON),
					(7 - npages) * PAGE_SIZE / 8);
		}
	}
	KUNIT_EXPECT_EQ(test, clear_pages_select("rep movsb"), -EINVAL);
	clear_pages_select(saved);
	folio_put(folio);
}

static void folio_zero_user_clears_every_byte(struct kunit *test)
{
	static const unsigned int orders[] = { 1, 4, 9, MAX_PAGE_ORDER };
	static const enum zero_strategy strategies[] = { ZERO_NEIGHBOURHOOD, ZERO_CONTIGUOUS,
							 ZERO_PAGE };

	if (!node)
		return;
	for (unsigned int o = 0; o < ARRAY_SIZE(orders); o++) {
		struct folio *folio = folio_alloc_node(node->node_id, GFP_KERNEL, orders[o]);
		unsigned long nr = 1ul << orders[o];
		const unsigned long faults[] = { 0, nr / 2, nr - 1 };

		KUNIT_ASSERT_NOT_NULL(test, folio);
		for (unsigned int s = 0; s < ARRAY_SIZE(strategies); s++) {
			for (unsigned int f = 0; f < ARRAY_SIZE(faults); f++) {
				memset(folio_address(folio), 0xab, folio_size(folio));
				zero_and_record(folio, strategies[s], faults[f]);
				KUNIT_EXPECT_EQ(
					test,
					first_word_not(folio_address(folio), folio_size(folio), 0),
					folio_size(folio) / 8);
			}
		}
		folio_put(folio);
	}
}

static void folio_zero_user_clears_fault_neighbourhood_last(struct kunit *test)
{
	struct folio *folio;

	if (!node)
		return;
	folio = folio_alloc_node(node->node_id, GFP_KERNEL, 4);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	/* Fault in the middle: right, left, then the fault ±2. */
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 5);
	expect_ranges(test, (const struct folio_zero_range[]){ { 8, 8 }, { 0, 3 }, { 3, 5 } }, 3);
	/* First page: nothing on the left; the neighbourhood is clamped. */
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 0);
	expect_ranges(test, (const struct folio_zero_range[]){ { 3, 13 }, { 0, 3 } }, 2);
	/* Page 1: the left run would be empty, the neighbourhood is [0..3]. */
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 1);
	expect_ranges(test, (const struct folio_zero_range[]){ { 4, 12 }, { 0, 4 } }, 2);
	/* Last page: nothing on the right. */
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 15);
	expect_ranges(test, (const struct folio_zero_range[]){ { 0, 13 }, { 13, 3 } }, 2);
	folio_put(folio);

	/* Order 1: the neighbourhood is the whole folio. */
	folio = folio_alloc_node(node->node_id, GFP_KERNEL, 1);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 1);
	expect_ranges(test, (const struct folio_zero_range[]){ { 0, 2 } }, 1);
	folio_put(folio);

	/* 2 MiB, fault in page 256: [259..511], [0..253], [254..258]. */
	folio = folio_alloc_node(node->node_id, GFP_KERNEL, 9);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	zero_and_record(folio, ZERO_NEIGHBOURHOOD, 256);
	expect_ranges(test,
		      (const struct folio_zero_range[]){ { 259, 253 }, { 0, 254 }, { 254, 5 } }, 3);
	folio_put(folio);
}

static void folio_zero_user_contiguous_is_one_call(struct kunit *test)
{
	static const unsigned int orders[] = { 1, 4, 9, MAX_PAGE_ORDER };

	if (!node)
		return;
	for (unsigned int o = 0; o < ARRAY_SIZE(orders); o++) {
		struct folio *folio = folio_alloc_node(node->node_id, GFP_KERNEL, orders[o]);

		KUNIT_ASSERT_NOT_NULL(test, folio);
		zero_and_record(folio, ZERO_CONTIGUOUS, (1ul << orders[o]) - 1);
		expect_ranges(test, (const struct folio_zero_range[]){ { 0, 1ul << orders[o] } },
			      1);
		folio_put(folio);
	}
}

/* Each page cleared once, one page per call, the faulting page last. */
static void expect_page_by_page(struct kunit *test, unsigned long nr, unsigned long fault)
{
	static bool seen[MAX_ORDER_NR_PAGES];

	memset(seen, 0, sizeof(seen));
	KUNIT_ASSERT_EQ(test, nr_records, nr);
	for (unsigned long i = 0; i < nr; i++) {
		KUNIT_EXPECT_EQ(test, records[i].nr, 1);
		KUNIT_EXPECT_FALSE(test, seen[records[i].start]);
		seen[records[i].start] = true;
	}
	KUNIT_EXPECT_EQ(test, records[nr - 1].start, fault);
}

static void folio_zero_user_page_converges_on_the_fault(struct kunit *test)
{
	/* process_huge_page()'s order for 16 pages. */
	static const unsigned long fault5[] = {
		15, 14, 13, 12, 11, 10, 0, 9, 1, 8, 2, 7, 3, 6, 4, 5
	};
	static const unsigned long fault12[] = { 0, 1,	2, 3,  4,  5,  6,  7,
						 8, 15, 9, 14, 10, 13, 11, 12 };
	struct folio *folio;

	if (!node)
		return;
	folio = folio_alloc_node(node->node_id, GFP_KERNEL, 4);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	zero_and_record(folio, ZERO_PAGE, 5);
	expect_page_by_page(test, 16, 5);
	for (unsigned int i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, records[i].start, fault5[i]);
	zero_and_record(folio, ZERO_PAGE, 12);
	expect_page_by_page(test, 16, 12);
	for (unsigned int i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, records[i].start, fault12[i]);
	for (unsigned long f = 0; f < 16; f++) {
		zero_and_record(folio, ZERO_PAGE, f);
		expect_page_by_page(test, 16, f);
	}
	folio_put(folio);

	folio = folio_alloc_node(node->node_id, GFP_KERNEL, MAX_PAGE_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	zero_and_record(folio, ZERO_PAGE, MAX_ORDER_NR_PAGES / 3);
	expect_page_by_page(test, MAX_ORDER_NR_PAGES, MAX_ORDER_NR_PAGES / 3);
	folio_put(folio);
}

/* The pure range function for every size up to 64 pages and every fault:
 * disjoint runs covering the folio, the last one the clamped fault ±2. */
static void folio_zero_ranges_cover_folio_with_fault_last(struct kunit *test)
{
	struct folio_zero_range r[3];

	for (unsigned long nr = 1; nr <= 64; nr++) {
		for (unsigned long f = 0; f < nr; f++) {
			unsigned int n = folio_zero_ranges(nr, f, r);
			unsigned long covered = 0, nb_start = f >= 2 ? f - 2 : 0;
			unsigned long nb_end = MIN(f + 2, nr - 1);

			KUNIT_ASSERT_GE(test, n, 1);
			KUNIT_ASSERT_LE(test, n, 3);
			for (unsigned int i = 0; i < n; i++) {
				KUNIT_EXPECT_GT(test, r[i].nr, 0);
				covered += r[i].nr;
			}
			KUNIT_EXPECT_EQ(test, covered, nr);
			KUNIT_EXPECT_EQ(test, r[n - 1].start, nb_start);
			KUNIT_EXPECT_EQ(test, r[n - 1].start + r[n - 1].nr - 1, nb_end);
			if (n == 3) { /* right of the fault, then left of it */
				KUNIT_EXPECT_EQ(test, r[0].start, nb_end + 1);
				KUNIT_EXPECT_EQ(test, r[1].start, 0);
			}
		}
	}
}

static void folio_zero_ranges_larger_than_max_order_is_one_run(struct kunit *test)
{
	struct folio_zero_range r[3];

	/* MAX_ORDER_NR_PAGES itself still gets the three runs. */
	KUNIT_EXPECT_EQ(test, folio_zero_ranges(MAX_ORDER_NR_PAGES, MAX_ORDER_NR_PAGES / 2, r), 3);
	KUNIT_EXPECT_EQ(test, r[2].start, MAX_ORDER_NR_PAGES / 2 - 2);
	KUNIT_EXPECT_EQ(test, r[2].nr, 5);
	/* A 1 GiB (PUD) folio, fault anywhere: one straight run. */
	for (unsigned long f = 0; f < 262144; f += 262143 / 2) {
		KUNIT_EXPECT_EQ(test, folio_zero_ranges(262144, f, r), 1);
		KUNIT_EXPECT_EQ(test, r[0].start, 0);
		KUNIT_EXPECT_EQ(test, r[0].nr, 262144);
	}
	KUNIT_EXPECT_EQ(test, folio_zero_ranges(2 * MAX_ORDER_NR_PAGES, 7, r), 1);
	KUNIT_EXPECT_EQ(test, r[0].nr, 2 * MAX_ORDER_NR_PAGES);
}

static void zero_strategy_names_round_trip(struct kunit *test)
{
	enum zero_strategy s;

	for (unsigned int i = ZERO_NEIGHBOURHOOD; i <= ZERO_PAGE; i++) {
		KUNIT_EXPECT_EQ(test, zero_strategy_parse(zero_strategy_name(i), &s), 0);
		KUNIT_EXPECT_EQ(test, s, i);
	}
	KUNIT_EXPECT_EQ(test, zero_strategy_parse("neighborhood", &s), -EINVAL);
}

static struct kunit_case clear_test_cases[] = {
	KUNIT_CASE(clear_pages_clears_exactly_npages_with_each_instruction),
	KUNIT_CASE(folio_zero_user_clears_every_byte),
	KUNIT_CASE(folio_zero_user_clears_fault_neighbourhood_last),
	KUNIT_CASE(folio_zero_user_contiguous_is_one_call),
	KUNIT_CASE(folio_zero_user_page_converges_on_the_fault),
	KUNIT_CASE(folio_zero_ranges_cover_folio_with_fault_last),
	KUNIT_CASE(folio_zero_ranges_larger_than_max_order_is_one_run),
	KUNIT_CASE(zero_strategy_names_round_trip),
	{},
};

static struct kunit_suite clear_test_suite = {
	.name = "clear",
	.init = clear_test_init,
	.exit = clear_test_exit,
	.test_cases = clear_test_cases,
};
kunit_test_suite(clear_test_suite);
