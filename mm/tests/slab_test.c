/*
 * kmalloc on a private node: sizes round up to their power-of-two cache,
 * objects of one cache never overlap and keep their bytes, a slab's
 * pages go back when every object is freed, large
 * requests take whole pages, allocation failure is NULL, and a bogus kfree
 * is refused without damaging the lists. buddy_check() after each step.
 */
#include <ktest.h>
#include <slab.h>
#include "../internal.h"
#include "mm_test_util.h"

static struct pglist_data *node;
static unsigned long free_at_start;

static int slab_test_init(struct kunit *test)
{
	node = test_node_create(test, 2 * MAX_ORDER_NR_PAGES);
	if (node)
		free_at_start = node_free_pages(node);
	return 0;
}

static void slab_test_exit(struct kunit *test)
{
	if (!node)
		return;
	test_node_destroy(node);
	node = NULL;
}

#define EXPECT_BUDDY_OK(test) KUNIT_EXPECT_BUDDY_OK(test, node)

static void *kmalloc_test(size_t size, gfp_t gfp)
{
	return kmalloc_node(size, gfp, node->node_id);
}

static void kmalloc_rounds_up_to_a_power_of_two(struct kunit *test)
{
	static const size_t sizes[][2] = { { 1, 16 },	   { 16, 16 },	   { 17, 32 },
					   { 40, 64 },	   { 100, 128 },   { 600, 1024 },
					   { 2048, 2048 }, { 2049, 4096 }, { 5000, 8192 } };

	if (!node)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		void *p = kmalloc_test(sizes[i][0], GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, p);
		KUNIT_EXPECT_EQ(test, ksize(p), sizes[i][1]);
		KUNIT_EXPECT_EQ(test, (unsigned long)p % MIN(sizes[i][1], PAGE_SIZE), 0);
		kfree(p);
	}
	KUNIT_EXPECT_NULL(test, kmalloc_test(0, GFP_KERNEL));
	kfree(NULL);
	EXPECT_BUDDY_OK(test);
}

/* 300 objects of 64 bytes span several slabs; each keeps its own bytes. */
static void objects_do_not_overlap_and_come_back(struct kunit *test)
{
	enum {
		N = 300,
		SIZE = 64
	};
	static unsigned char *obj[N];
	struct kmalloc_stats st;

	if (!node)
		return;
	for (int i = 0; i < N; i++) {
		obj[i] = kmalloc_test(SIZE, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
		memset(obj[i], i & 0xff, SIZE);
	}
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.objects, N);
	KUNIT_EXPECT_EQ(test, st.slab_pages, (N * SIZE + PAGE_SIZE - 1) / PAGE_SIZE);
	for (int i = 0; i < N; i++)
		for (int b = 0; b < SIZE; b++)
			if (obj[i][b] != (i & 0xff)) {
				kunit_fail(test, __FILE__, __LINE__, "object %d byte %d is %u", i,
					   b, obj[i][b]);
				return;
			}
	/* Free every other one, then allocate again: the holes are reused. */
	for (int i = 0; i < N; i += 2)
		kfree(obj[i]);
	for (int i = 0; i < N; i += 2) {
		obj[i] = kmalloc_node(SIZE, GFP_KERNEL | __GFP_ZERO, node->node_id);
		KUNIT_ASSERT_NOT_NULL(test, obj[i]);
		KUNIT_EXPECT_EQ(test, obj[i][SIZE - 1], 0);
	}
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.slab_pages, (N * SIZE + PAGE_SIZE - 1) / PAGE_SIZE);
	for (int i = 0; i < N; i++)
		kfree(obj[i]);
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.objects, 0);
	KUNIT_EXPECT_EQ(test, st.slab_pages, 0); /* empty slabs go back at once */
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	EXPECT_BUDDY_OK(test);
}

static void large_requests_take_whole_pages(struct kunit *test)
{
	struct kmalloc_stats st;
	void *p;

	if (!node)
		return;
	p = kmalloc_test(3 * PAGE_SIZE, GFP_KERNEL | __GFP_ZERO);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_EQ(test, ((unsigned char *)p)[3 * PAGE_SIZE - 1], 0);
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.large_pages, 4);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start - 4);
	kfree(p);
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.large_pages, 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	/* More than the largest buddy block: refused, nothing taken. */
	KUNIT_EXPECT_NULL(test, kmalloc_test((PAGE_SIZE << MAX_PAGE_ORDER) + 1, GFP_KERNEL));
	EXPECT_BUDDY_OK(test);
}

/* A cache of its own: 40-byte objects (rounded to 48) from slabs on the
 * node asked for, counted apart from kmalloc's, refused by kfree. */
static void a_dedicated_cache_keeps_its_objects_apart(struct kunit *test)
{
	static struct kmem_cache cache = { .name = "test_cache", .size = 40 };
	struct kmalloc_stats st;
	char *a, *b;

	if (!node)
		return;
	a = kmem_cache_alloc_node(&cache, GFP_KERNEL, node->node_id);
	b = kmem_cache_alloc_node(&cache, GFP_KERNEL | __GFP_ZERO, node->node_id);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_EXPECT_EQ(test, b - a, 48);
	KUNIT_EXPECT_EQ(test, b[39], 0);
	kmem_cache_stats(&cache, node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.objects, 2);
	KUNIT_EXPECT_EQ(test, st.slab_pages, 1);
	kmalloc_stats(node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.objects + st.slab_pages, 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start - 1);
	kfree(a); /* not kmalloc's: refused, a stays allocated */
	kmem_cache_stats(&cache, node->node_id, &st);
	KUNIT_EXPECT_EQ(test, st.objects, 2);
	kmem_cache_free(&cache, a);
	kmem_cache_free(&cache, b);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	EXPECT_BUDDY_OK(test);
}

/* With every page of the node taken, kmalloc returns NULL. */
static void exhausted_node_returns_null(struct kunit *test)
{
	/* Held on a list through page->lru: an array of the node's pages
	 * would not fit a kernel stack at MAX_PAGE_ORDER 12. */
	struct list_head taken = LIST_HEAD_INIT(taken);
	struct page *page, *next;

	if (!node)
		return;
	while ((page = alloc_pages_node(node->node_id, GFP_KERNEL, 0)))
		list_add(&page->lru, &taken);
	KUNIT_EXPECT_NULL(test, kmalloc_test(32, GFP_KERNEL));
	KUNIT_EXPECT_NULL(test, kmalloc_test(2 * PAGE_SIZE, GFP_KERNEL));
	list_for_each_entry_safe(page, next, &taken, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
	}
	EXPECT_BUDDY_OK(test);
}

/* A pointer into a page kmalloc does not own is refused (BAD_PAGE). */
static void bogus_kfree_is_refused(struct kunit *test)
{
	struct page *page;
	unsigned long bad_before;
	void *obj;

	if (!node)
		return;
	page = alloc_pages_node(node->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	bad_before = node->vm_events[BAD_PAGE];
	kfree(page_address(page));
	KUNIT_EXPECT_EQ(test, node->vm_events[BAD_PAGE], bad_before + 1);
	KUNIT_EXPECT_EQ(test, page_count(page), 1);
	obj = kmalloc_test(64, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	kfree((char *)obj + 8); /* inside an object, not its start */
	KUNIT_EXPECT_EQ(test, node->vm_events[BAD_PAGE], bad_before + 2);
	kfree(obj);
	__free_pages(page, 0);
	EXPECT_BUDDY_OK(test);
}

static struct kunit_case slab_cases[] = {
	KUNIT_CASE(kmalloc_rounds_up_to_a_power_of_two),
	KUNIT_CASE(objects_do_not_overlap_and_come_back),
	KUNIT_CASE(large_requests_take_whole_pages),
	KUNIT_CASE(exhausted_node_returns_null),
	KUNIT_CASE(bogus_kfree_is_refused),
	KUNIT_CASE(a_dedicated_cache_keeps_its_objects_apart),
	{},
};

static struct kunit_suite slab_suite = {
	.name = "slab",
	.init = slab_test_init,
	.exit = slab_test_exit,
	.test_cases = slab_cases,
};
kunit_test_suite(slab_suite);
