/*
 * Folios on a private node: geometry round trips for every order, the
 * reference count freeing at zero, splitting into independent pages that
 * coalesce back when freed one by one, refusals to split, and the
 * lazyfree flag rule. buddy_check() runs after every step.
 */
#include <ktest.h>
#include "../internal.h"
#include "mm_test_util.h"

static struct pglist_data *node;
static unsigned long free_at_start;

static int folio_test_init(struct kunit *test)
{
	node = test_node_create(test, 4 * MAX_ORDER_NR_PAGES);
	if (node)
		free_at_start = node_free_pages(node);
	return 0;
}

static void folio_test_exit(struct kunit *test)
{
	if (node)
		test_node_destroy(node);
	node = NULL;
}

#define EXPECT_BUDDY_OK(test) KUNIT_EXPECT_BUDDY_OK(test, node)

static struct folio *alloc_test_folio(unsigned int order)
{
	return folio_alloc_node(node->node_id, GFP_KERNEL, order);
}

static void folio_geometry_round_trips_for_every_order(struct kunit *test)
{
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		struct folio *folio = alloc_test_folio(order);
		unsigned long nr = 1ul << order;

		KUNIT_ASSERT_NOT_NULL(test, folio);
		KUNIT_EXPECT_EQ(test, folio_order(folio), order);
		KUNIT_EXPECT_EQ(test, folio_nr_pages(folio), nr);
		KUNIT_EXPECT_EQ(test, folio_size(folio), PAGE_SIZE << order);
		KUNIT_EXPECT_EQ(test, folio_pfn(folio) & (nr - 1), 0);
		KUNIT_EXPECT_EQ(test, folio_test_large(folio), order > 0);
		KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
		for (unsigned long n = 0; n < nr; n++) {
			struct page *page = folio_page(folio, n);

			KUNIT_EXPECT_TRUE(test, page_folio(page) == folio);
			KUNIT_EXPECT_EQ(test, page_to_pfn(page), folio_pfn(folio) + n);
			KUNIT_EXPECT_EQ(test, PageTail(page), n > 0);
			if (n)
				KUNIT_EXPECT_EQ(test, page_count(page), 0);
		}
		EXPECT_BUDDY_OK(test);
		folio_put(folio);
		EXPECT_BUDDY_OK(test);
		KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	}
}

static void folio_put_frees_only_at_refcount_zero(struct kunit *test)
{
	struct folio *folio;

	folio = alloc_test_folio(3);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start - 8);
	folio_get(folio);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 2);
	folio_put(folio);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start - 8);
	EXPECT_BUDDY_OK(test);
	folio_set_anon(folio);
	folio_set_dirty(folio);
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
}

/* Free blocks per order, with the per-CPU lists drained first. */
static void snapshot_free_area(unsigned long *nr_free)
{
	struct zone *zone = page_zone(pfn_to_page(node->node_start_pfn));

	drain_node_pages(node);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		nr_free[o] = zone->free_area[o].nr_free;
}

static void split_folio_makes_pages_that_free_one_by_one_and_coalesce(struct kunit *test)
{
	unsigned long before[NR_PAGE_ORDERS], after[NR_PAGE_ORDERS];
	const unsigned int order = 4;
	struct folio *folio;
	struct page *head;

	snapshot_free_area(before);
	folio = alloc_test_folio(order);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	head = &folio->page;
	folio_set_anon(folio);
	folio_set_swapbacked(folio);
	folio_set_dirty(folio);
	KUNIT_ASSERT_EQ(test, split_folio(folio), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(node), 1);
	EXPECT_BUDDY_OK(test);
	for (unsigned long n = 0; n < (1ul << order); n++) {
		struct folio *piece = page_folio(head + n);

		KUNIT_EXPECT_TRUE(test, &piece->page == head + n);
		KUNIT_EXPECT_EQ(test, folio_order(piece), 0);
		KUNIT_EXPECT_EQ(test, folio_ref_count(piece), 1);
		KUNIT_EXPECT_TRUE(test, folio_test_anon(piece));
		KUNIT_EXPECT_TRUE(test, folio_test_swapbacked(piece));
		KUNIT_EXPECT_TRUE(test, folio_test_dirty(piece));
	}
	for (unsigned long n = 0; n < (1ul << order); n++) {
		unsigned long free = node_free_pages(node);

		folio_put(page_folio(head + n));
		KUNIT_EXPECT_EQ(test, node_free_pages(node), free + 1);
		EXPECT_BUDDY_OK(test);
	}
	snapshot_free_area(after);
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		KUNIT_EXPECT_EQ(test, after[o], before[o]);
	EXPECT_BUDDY_OK(test);
}

static void split_folio_refuses_locked_referenced_or_mapped(struct kunit *test)
{
	struct mm_struct *other;
	struct folio *folio;

	folio = alloc_test_folio(2);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, split_folio(folio), -EBUSY);
	folio_clear_locked(folio);
	folio_get(folio);
	KUNIT_EXPECT_EQ(test, split_folio(folio), -EBUSY);
	folio_put(folio);
	other = mm_create(page_to_nid(&folio->page));
	KUNIT_ASSERT_NOT_NULL(test, other);
	folio_add_anon_rmap_ptes(folio, 1, other);
	KUNIT_EXPECT_EQ(test, split_folio(folio), -EBUSY);
	folio_remove_rmap_ptes(folio, 1, other);
	mm_destroy(other);
	/* Refused means untouched: still one order-2 folio. */
	KUNIT_EXPECT_EQ(test, folio_order(folio), 2);
	KUNIT_EXPECT_TRUE(test, page_folio(folio_page(folio, 3)) == folio);
	KUNIT_EXPECT_EQ(test, node_split_count(node), 0);
	EXPECT_BUDDY_OK(test);
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
}

static void split_folio_of_order_zero_is_a_no_op(struct kunit *test)
{
	struct folio *folio;

	folio = alloc_test_folio(0);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, split_folio(folio), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(node), 0);
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
}

static void lazyfree_is_anon_without_swapbacked(struct kunit *test)
{
	struct folio *folio;

	folio = alloc_test_folio(2);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio)); /* not anon */
	folio_set_anon(folio);
	folio_set_swapbacked(folio);
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio));
	folio_clear_swapbacked(folio); /* what MADV_FREE does */
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(folio));
	folio_clear_anon(folio);
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio));
	folio_put(folio);
	EXPECT_BUDDY_OK(test);
}

static struct kunit_case folio_test_cases[] = {
	KUNIT_CASE(folio_geometry_round_trips_for_every_order),
	KUNIT_CASE(folio_put_frees_only_at_refcount_zero),
	KUNIT_CASE(split_folio_makes_pages_that_free_one_by_one_and_coalesce),
	KUNIT_CASE(split_folio_refuses_locked_referenced_or_mapped),
	KUNIT_CASE(split_folio_of_order_zero_is_a_no_op),
	KUNIT_CASE(lazyfree_is_anon_without_swapbacked),
	{},
};

static struct kunit_suite folio_test_suite = {
	.name = "folio",
	.init = folio_test_init,
	.exit = folio_test_exit,
	.test_cases = folio_test_cases,
};
kunit_test_suite(folio_test_suite);
