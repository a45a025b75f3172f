/*
 * alloc_contig_pages and alloc_contig_range on a private node, for a
 * range twice the buddy allocator's largest block (what a 1 GiB HugeTLB
 * page is to the real machine): anonymous folios in the way migrate out
 * with their data and their mappings follow them; a page that cannot
 * move, or an unmovable pageblock, fails the range with its isolation
 * undone and the free lists intact (buddy_check), and the search goes on
 * to the next aligned range. Example, MAX_PAGE_ORDER 10: ranges of 2048
 * pages (8 MiB) aligned to 8 MiB inside a 24 MiB node.
 */
#include <ktest.h>
#include <vm.h>
#include "../internal.h"
#include "mm_test_util.h"

#define A 0x40000000ul
#define RW (VM_READ | VM_WRITE)
#define NR (2 * MAX_ORDER_NR_PAGES) /* beyond any buddy block */
#define NODE_PAGES (4 * NR)	    /* at least three aligned ranges */
#define MAPPED (NODE_PAGES / 2)	    /* pages the mm writes: half the node */

static struct test_mm t;
static struct mm_struct *prev_mm;
static migrate_folio_fn saved_hook;

/* On the host the node goes where any size fits (MAX_PAGE_ORDER 12 wants
 * 128 MiB, twice a test_node_create block); the kernel's test memory
 * serves the default orders. */
static void node_and_mm_create(struct kunit *test)
{
#ifdef FOLIUM_HOST
	t.mm = NULL;
	t.node = test_node_create_at(test, PHYS_PFN(40ull << 30), NODE_PAGES);
	if (!t.node)
		return;
	t.free_at_start = node_free_pages(t.node);
	t.mm = mm_create(t.node->node_id);
#else
	test_mm_create(test, &t, NODE_PAGES);
#endif
}

static int alloc_contig_test_init(struct kunit *test)
{
	node_and_mm_create(test);
	saved_hook = set_migrate_folio_hook(anon_migrate_folio);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	return 0;
}

static void alloc_contig_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	set_migrate_folio_hook(saved_hook);
	test_mm_destroy(test, &t);
}

/* The first NR-aligned range of the node (NODE_PAGES leaves room for three). */
static unsigned long first_range(void)
{
	return ALIGN_UP(t.node->node_start_pfn, NR);
}

static unsigned long isolated_blocks(void)
{
	unsigned long n = 0, end = t.node->node_start_pfn + t.node->node_spanned_pages;

	for (unsigned long pfn = t.node->node_start_pfn; pfn < end; pfn += pageblock_nr_pages)
		n += get_pageblock_isolate(pfn_to_page(pfn));
	return n;
}

static bool range_has_used_pages(unsigned long start)
{
	for (unsigned long pfn = start; pfn < start + NR; pfn++)
		if (!pfn_free_span(pfn))
			return true;
	return false;
}

/* Return: an aligned range holding pages of the mapping and none of the
 * mm's tables (its pageblocks all movable), or 0. */
static unsigned long range_of_movable_pages_in_use(void)
{
	unsigned long end = t.node->node_start_pfn + t.node->node_spanned_pages;

	for (unsigned long s = first_range(); s + NR <= end; s += NR) {
		bool movable = true;

		for (unsigned long pfn = s; pfn < s + NR; pfn += pageblock_nr_pages)
			movable &= get_pageblock_migratetype(pfn_to_page(pfn)) == MIGRATE_MOVABLE;
		if (movable && range_has_used_pages(s))
			return s;
	}
	return 0;
}

/* Each page of the mapping holds its own byte: i & 0xff, plus one. */
static bool mapping_holds_its_bytes(void)
{
	for (unsigned long i = 0; i < MAPPED; i++)
		if (!test_reads_as(A + i * PAGE_SIZE, PAGE_SIZE, (uint8_t)((i & 0xff) + 1)))
			return false;
	return true;
}

static bool mapping_outside(unsigned long start)
{
	for (unsigned long i = 0; i < MAPPED; i++) {
		struct folio *folio = test_mapped_folio(t.mm, A + i * PAGE_SIZE);

		if (folio && folio_pfn(folio) + folio_nr_pages(folio) > start &&
		    folio_pfn(folio) < start + NR)
			return false;
	}
	return true;
}

static void alloc_contig_range_migrates_folios_out_with_their_data(struct kunit *test)
{
	unsigned long start, moved;
	struct folio *folio;

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, MAPPED * PAGE_SIZE, RW, 0), A);
	for (unsigned long i = 0; i < MAPPED; i++)
		KUNIT_ASSERT_EQ(test, fill_user(A + i * PAGE_SIZE, (int)(i & 0xff) + 1, PAGE_SIZE),
				0);
	start = range_of_movable_pages_in_use();
	KUNIT_ASSERT_NE(test, start, 0); /* else nothing to prove */
	moved = t.node->vm_events[PGMIGRATE_SUCCESS];
	KUNIT_ASSERT_EQ(test, alloc_contig_range(start, start + NR, __GFP_COMP), 0);
	KUNIT_EXPECT_GT(test, t.node->vm_events[PGMIGRATE_SUCCESS], moved);
	folio = page_folio(pfn_to_page(start));
	KUNIT_EXPECT_EQ(test, folio_order(folio), MAX_PAGE_ORDER + 1);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	KUNIT_EXPECT_TRUE(test, mapping_outside(start));
	KUNIT_EXPECT_TRUE(test, mapping_holds_its_bytes());
	KUNIT_EXPECT_EQ(test, isolated_blocks(), 0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
	free_contig_range(start, NR);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, MAPPED * PAGE_SIZE), 0);
}

/* A page nobody can migrate (not anonymous, not on an LRU) in the middle
 * of the range at start: a free one taken out of the buddy allocator as
 * an allocation would. */
static struct page *pin_page(unsigned long start)
{
	for (unsigned long pfn = start + NR / 2; pfn < start + NR; pfn++)
		if (take_free_pfn_range(pfn, pfn + 1))
			return pfn_to_page(pfn);
	return NULL;
}

/* Linux: try_to_claim_block. The pageblock of pfn turns unmovable, as an
 * unmovable allocation falling back into it would make it. */
static void claim_pageblock_unmovable(unsigned long pfn)
{
	struct page *page = pfn_to_page(pageblock_start_pfn(pfn));

	set_pageblock_migratetype(page, MIGRATE_UNMOVABLE);
	move_freepages_block(page_zone(page), page, MIGRATE_UNMOVABLE);
}

/*
 * Every aligned range holds a page that cannot move: the mm's own tables
 * (an unmovable pageblock) or one pinned here; the first pinned one also
 * sits in a pageblock made unmovable (isolation refuses it), the others
 * in movable ones (migration refuses them). Nothing is taken and nothing
 * stays isolated; freeing the last range's pin lets the search find it.
 */
static void alloc_contig_pages_fails_cleanly_then_skips_busy_ranges(struct kunit *test)
{
	unsigned long end, free, n = 0, nr_pinned, last = 0;
	struct page *pinned[4], *page;

	if (!t.mm)
		return;
	end = t.node->node_start_pfn + t.node->node_spanned_pages;
	for (unsigned long s = first_range(); s + NR <= end && n < ARRAY_SIZE(pinned); s += NR) {
		if (range_has_used_pages(s))
			continue;
		pinned[n] = pin_page(s);
		KUNIT_ASSERT_NOT_NULL(test, pinned[n]);
		last = s;
		n++;
	}
	KUNIT_ASSERT_GE(test, n, 2);
	nr_pinned = n;
	claim_pageblock_unmovable(page_to_pfn(pinned[0]));
	free = node_free_pages(t.node);
	KUNIT_EXPECT_NULL(test, alloc_contig_pages(NR, GFP_HIGHUSER_MOVABLE, t.node->node_id));
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free);
	KUNIT_EXPECT_EQ(test, isolated_blocks(), 0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
	__free_pages(pinned[--n], 0);
	page = alloc_contig_pages(NR, GFP_HIGHUSER_MOVABLE, t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, page_to_pfn(page), last);
	KUNIT_EXPECT_EQ(test, page_count(page + NR - 1), 1); /* no __GFP_COMP: plain pages */
	KUNIT_EXPECT_EQ(test, isolated_blocks(), 0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
	free_contig_range(page_to_pfn(page), NR);
	while (n)
		__free_pages(pinned[--n], 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free + nr_pinned);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* Only powers of two: alloc_contig_pages aligns the range to its size. */
static void alloc_contig_pages_refuses_a_size_it_cannot_align(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_EXPECT_NULL(test, alloc_contig_pages(NR + 1, GFP_HIGHUSER_MOVABLE, t.node->node_id));
	KUNIT_EXPECT_NULL(test, alloc_contig_pages(0, GFP_HIGHUSER_MOVABLE, t.node->node_id));
	KUNIT_EXPECT_NULL(test, alloc_contig_pages(4 * NR, GFP_HIGHUSER_MOVABLE, t.node->node_id));
}

static struct kunit_case alloc_contig_cases[] = {
	KUNIT_CASE(alloc_contig_range_migrates_folios_out_with_their_data),
	KUNIT_CASE(alloc_contig_pages_fails_cleanly_then_skips_busy_ranges),
	KUNIT_CASE(alloc_contig_pages_refuses_a_size_it_cannot_align),
	{},
};

static struct kunit_suite alloc_contig_suite = {
	.name = "alloc_contig",
	.init = alloc_contig_test_init,
	.exit = alloc_contig_test_exit,
	.test_cases = alloc_contig_cases,
};
kunit_test_suite(alloc_contig_suite);
