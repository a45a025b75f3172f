/*
 * The mTHP counters Linux's sysfs and /proc/vmstat show for the life of
 * large anonymous folios, on a private node: nr_anon while a folio
 * exists, split_deferred and nr_anon_partially_mapped once some but not
 * all of its pages are unmapped (once per folio, never for a folio
 * unmapped whole), thp_split_pmd per PMD leaf split, thp_split_page and
 * thp_split_page_failed for PMD-size folios only, and a split of a
 * mapped folio leaving its pieces dirty as Linux's unmap does. Example:
 * a 64K folio losing one page to MADV_DONTNEED: split_deferred +1,
 * nr_anon_partially_mapped +1; unmapping the rest: both gauges back.
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define K64 (16 * P)

static struct test_mm t;
static struct mm_struct *prev_mm;
static unsigned long saved_orders;

static int thp_stats_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	return 0;
}

static void thp_stats_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
	thp_orders_enabled = saved_orders;
}

static unsigned long stat(unsigned int order, enum mthp_stat_item item)
{
	return mthp_stats[order][item];
}

static unsigned long ev(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

static void nr_anon_counts_large_anon_folios_while_they_exist(struct kunit *test)
{
	unsigned long nr = stat(4, MTHP_STAT_NR_ANON);

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << 4);
	test_map_and_fill(test, t.mm, A, 2 * K64, 1);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_NR_ANON), nr + 2);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * K64), 0);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_NR_ANON), nr);
}

/* Unmapped whole, a folio never was partially mapped: a zap goes PTE by
 * PTE but judges each folio once it has left it. */
static void partial_unmap_counts_a_folio_partially_mapped_once(struct kunit *test)
{
	unsigned long deferred = stat(4, MTHP_STAT_SPLIT_DEFERRED);
	unsigned long partial = stat(4, MTHP_STAT_NR_ANON_PARTIALLY_MAPPED);

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << 4);
	test_map_and_fill(test, t.mm, A, 3 * K64, 1);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A + K64, K64, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_SPLIT_DEFERRED), deferred);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A + P, P, MADV_DONTNEED), 0);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A + 3 * P, 2 * P, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_SPLIT_DEFERRED), deferred + 1);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_NR_ANON_PARTIALLY_MAPPED), partial + 1);
	KUNIT_EXPECT_TRUE(test, PageFlag(&test_mapped_folio(t.mm, A)->page, PG_partially_mapped));
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 3 * K64), 0);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_NR_ANON_PARTIALLY_MAPPED), partial);
}

/* A PMD leaf cut by MADV_DONTNEED: one thp_split_pmd, and its folio,
 * now PTE-mapped and short of a page, one thp_deferred_split_page. */
static void cutting_a_pmd_leaf_counts_the_pmd_split_and_the_partial_folio(struct kunit *test)
{
	unsigned long pmd_splits = ev(THP_SPLIT_PMD), deferred = ev(THP_DEFERRED_SPLIT_PAGE);
	unsigned long splits = ev(THP_SPLIT_PAGE);

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << HPAGE_PMD_ORDER);
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 1);
	KUNIT_ASSERT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A + P, P, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PMD), pmd_splits + 1);
	KUNIT_EXPECT_EQ(test, ev(THP_DEFERRED_SPLIT_PAGE), deferred + 1);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE), splits); /* the folio stays whole */
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
}

/* MADV_FREE of part of a written 64K folio splits it: Linux's unmap for
 * the split makes it dirty and partially mapped first; the pieces left
 * out of the range stay dirty; no thp_split_page below PMD size. */
static void splitting_a_mapped_folio_counts_and_dirties_as_linux(struct kunit *test)
{
	unsigned long deferred = stat(4, MTHP_STAT_SPLIT_DEFERRED), nr = stat(4, MTHP_STAT_NR_ANON);
	unsigned long splits = ev(THP_SPLIT_PAGE), split4 = t.node->split_count[4];
	struct folio *folio;

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << 4);
	test_map_and_fill(test, t.mm, A, K64, 1);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_FALSE(test, folio_test_dirty(folio));
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A + 4 * P, K64 - 4 * P, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.node->split_count[4], split4 + 1);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE), splits);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_SPLIT_DEFERRED), deferred + 1);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_NR_ANON), nr);
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(test_mapped_folio(t.mm, A + 3 * P)));
	KUNIT_EXPECT_FALSE(test, folio_test_dirty(test_mapped_folio(t.mm, A + 4 * P)));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(test_mapped_folio(t.mm, A + 4 * P)));
}

/* A refused split counts split_failed at its order, and
 * thp_split_page_failed only at PMD size. */
static void a_refused_split_counts_split_failed(struct kunit *test)
{
	unsigned long failed4 = stat(4, MTHP_STAT_SPLIT_FAILED), failed = ev(THP_SPLIT_PAGE_FAILED);
	struct folio *folio;

	if (!t.mm || test_skip_without_thp(test))
		return;
	folio = folio_alloc_node(t.node->node_id, GFP_KERNEL, 4);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	folio_get(folio);
	KUNIT_EXPECT_EQ(test, split_folio(folio), -EBUSY);
	KUNIT_EXPECT_EQ(test, stat(4, MTHP_STAT_SPLIT_FAILED), failed4 + 1);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE_FAILED), failed);
	folio_put(folio);
	folio_put(folio);
	folio = folio_alloc_node(t.node->node_id, GFP_KERNEL, HPAGE_PMD_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, split_folio(folio), -EBUSY);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE_FAILED), failed + 1);
	folio_clear_locked(folio);
	folio_put(folio);
}

static struct kunit_case thp_stats_cases[] = {
	KUNIT_CASE(nr_anon_counts_large_anon_folios_while_they_exist),
	KUNIT_CASE(partial_unmap_counts_a_folio_partially_mapped_once),
	KUNIT_CASE(cutting_a_pmd_leaf_counts_the_pmd_split_and_the_partial_folio),
	KUNIT_CASE(splitting_a_mapped_folio_counts_and_dirties_as_linux),
	KUNIT_CASE(a_refused_split_counts_split_failed),
	{},
};

static struct kunit_suite thp_stats_suite = {
	.name = "thp_stats",
	.init = thp_stats_init,
	.exit = thp_stats_exit,
	.test_cases = thp_stats_cases,
};
kunit_test_suite(thp_stats_suite);
