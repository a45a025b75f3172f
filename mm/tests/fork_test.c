/*
 * fork's half of mm on a private node: dup_mmap copies the parent's VMAs
 * and entries, every anonymous folio then mapped by both and
 * write-protected in both; the first write on either side copies one
 * page (wp_page_copy) or reuses the folio once it is ours alone
 * (wp_can_reuse_anon_folio); a PMD-mapped THP is shared by two PMDs and
 * split on the first write. rmap_walk, migration, MADV_FREE and
 * destruction see both mms. Accesses go through copy_to_user & co. on the
 * current mm (switch_mm), so the host's software MMU and its TLB model
 * catch a parent entry left writable or a missing flush. A = 1 GiB.
 */
#include <ktest.h>
#include <mman.h>
#include <vm.h>
#include "../internal.h"
#include "mm_test_util.h"

#define A 0x40000000ul
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;
static struct mm_struct *child, *prev_mm;
static unsigned long saved_orders;

static int fork_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	prev_mm = current_mm;
	child = NULL;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return 0;
	switch_mm(t.mm);
	thp_orders_enabled = 0; /* order 0 unless a case says */
	set_migrate_folio_hook(anon_migrate_folio);
	return 0;
}

/* Destroying the parent last: test_mm_destroy expects every page back. */
static void fork_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	switch_mm(prev_mm);
	if (child)
		mm_destroy(child);
	child = NULL;
	test_mm_destroy(test, &t);
}

#define SKIP_WITHOUT_MM(test)   \
	do {                    \
		if (!t.mm)      \
			return; \
	} while (0)

/* fork: the child of the parent (t.mm) as it is now. */
static void fork_child(struct kunit *test)
{
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, dup_mmap(child, t.mm), 0);
}

/* Make mm current only if it is not: a switch drops the TLB, and the
 * parent's cached writable translations must survive into its first
 * write after the fork, so a missing flush in dup_mmap shows. */
static void use_mm(struct mm_struct *mm)
{
	if (current_mm != mm)
		switch_mm(mm);
}

static uint8_t read_in(struct kunit *test, struct mm_struct *mm, unsigned long addr)
{
	uint8_t byte = 0;

	use_mm(mm);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, addr, 1), 0);
	return byte;
}

static void write_in(struct kunit *test, struct mm_struct *mm, unsigned long addr, uint8_t byte)
{
	use_mm(mm);
	KUNIT_EXPECT_EQ(test, copy_to_user(addr, &byte, 1), 0);
}

static pte_t pte_in(struct mm_struct *mm, unsigned long addr)
{
	pte_t *pte = mm_find_pte(mm, addr);

	return pte ? *pte : 0;
}

static void child_reads_the_parents_bytes_and_both_entries_are_read_only(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 4 * PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_TRUE(test, pte_write(pte_in(t.mm, A)));
	fork_child(test);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 2);
	/* Folium's mappings hold one reference together (Linux: one each). */
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	KUNIT_EXPECT_FALSE(test, pte_write(pte_in(t.mm, A)));
	KUNIT_EXPECT_FALSE(test, pte_write(pte_in(child, A)));
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 4);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
	for (unsigned long off = 0; off < 4 * PAGE_SIZE; off += PAGE_SIZE) {
		KUNIT_EXPECT_EQ(test, read_in(test, child, A + off), 0x5a);
		KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + off), 0x5a);
	}
	KUNIT_EXPECT_TRUE(test, find_vma(child, A)->anon_vma == find_vma(t.mm, A)->anon_vma);
	KUNIT_EXPECT_EQ(test, child->nr_vmas, 1);
}

/* Mutation check: were the parent's entry left writable, or its TLB not
 * flushed after write-protecting it (the fill left a writable translation
 * cached: no switch_mm between), the parent's write would land in the
 * shared page and the child would read 0x11. */
static void a_write_in_the_parent_copies_and_the_child_keeps_its_bytes(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	fork_child(test);
	write_in(test, t.mm, A, 0x11);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x11);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) != folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, folio_mapcount(test_mapped_folio(t.mm, A)), 1);
	KUNIT_EXPECT_TRUE(test, pte_write(pte_in(t.mm, A)));
	/* The child's write now finds the folio its own: reused, no copy. */
	write_in(test, child, A, 0x22);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 0);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == folio);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x11);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x22);
}

static void a_write_in_the_child_is_private_too(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 2 * PAGE_SIZE, 0x5a);
	fork_child(test);
	write_in(test, child, A + PAGE_SIZE, 0x33);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + PAGE_SIZE), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + PAGE_SIZE), 0x33);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 2);
}

/* After the child is gone, the parent's write reuses the page: no copy. */
static void a_write_after_the_child_exits_reuses_the_page(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	fork_child(test);
	mm_destroy(child);
	child = NULL;
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	write_in(test, t.mm, A, 0x44);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) == folio);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x44);
}

/* A read-only VMA stays read-only: the write is refused before COW. */
static void a_write_to_an_mprotected_read_only_vma_is_refused(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, PAGE_SIZE, VM_READ), 0);
	fork_child(test);
	switch_mm(child);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(child, A, FAULT_FLAG_WRITE), VM_FAULT_ACCESS);
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY] + child->counters[MM_WP_REUSE], 0);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
}

static void a_pmd_mapped_thp_is_shared_by_two_pmds_and_split_on_write(struct kunit *test)
{
	struct folio *folio;
	pmd_t *ppmd, *cpmd;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	fork_child(test);
	ppmd = mm_find_pmd(t.mm, A);
	cpmd = mm_find_pmd(child, A);
	KUNIT_ASSERT_TRUE(test, ppmd && cpmd && pmd_leaf(*ppmd) && pmd_leaf(*cpmd));
	KUNIT_EXPECT_FALSE(test, pmd_write(*ppmd) || pmd_write(*cpmd));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 2);
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], HPAGE_PMD_NR);
	/* The parent's write splits its PMD and copies the one page. */
	write_in(test, t.mm, A + 5 * PAGE_SIZE, 0x66);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(child, A)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1 + HPAGE_PMD_NR - 1);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 4 * PAGE_SIZE) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 5 * PAGE_SIZE) != folio);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 5 * PAGE_SIZE), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + 5 * PAGE_SIZE), 0x66);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + 6 * PAGE_SIZE), 0x5a);
	/* The child's PMD: shared still, so it splits and copies too. */
	write_in(test, child, A, 0x77);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x77);
}

/* With the child gone, the parent's THP is its own: the PMD is reused. */
static void an_exclusive_thp_is_reused_by_its_pmd(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_EXPECT_TRUE(test, PageAnonExclusive(&folio->page));
	fork_child(test);
	KUNIT_EXPECT_FALSE(test, PageAnonExclusive(&folio->page));
	mm_destroy(child);
	child = NULL;
	write_in(test, t.mm, A, 0x12);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, pmd_write(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) == folio);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
	/* The head's bit spoke for the folio; a PMD split gives it to
	 * every page (the tails' own bits were never set while PMD-mapped). */
	KUNIT_EXPECT_TRUE(test, PageAnonExclusive(&folio->page));
	KUNIT_EXPECT_FALSE(test, PageAnonExclusive(folio_page(folio, 7)));
	KUNIT_EXPECT_EQ(test, split_huge_pmd(t.mm, A + PAGE_SIZE), 0);
	for (unsigned long p = 0; p < HPAGE_PMD_NR; p++)
		KUNIT_EXPECT_TRUE(test, PageAnonExclusive(folio_page(folio, p)));
}

/* The parent's 64K folio at A, 16 pages of 0x5a; NULL (the case is
 * skipped) without THP. */
static struct folio *map_64k_folio(struct kunit *test)
{
	struct folio *folio;

	if (test_skip_without_thp(test))
		return NULL;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 16 * PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_EXPECT_EQ(test, folio_order(folio), 4);
	return folio_order(folio) == 4 ? folio : NULL;
}

/* map_64k_folio, then a child forked and gone: the parent's folio is
 * its own again, every entry still write-protected by the fork. */
static struct folio *map_64k_folio_after_a_childs_exit(struct kunit *test)
{
	struct folio *folio = map_64k_folio(test);

	if (!folio)
		return NULL;
	fork_child(test);
	mm_destroy(child);
	child = NULL;
	return folio;
}

/* A 64K folio shared with the child: a write copies one page; once the
 * child is gone the next write reuses the rest at once (wp_folio_reuse):
 * its 15 entries writable, no fault for the pages after it. */
static void a_large_folio_is_copied_page_by_page_then_reused(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	fork_child(test);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 32);
	KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(folio));
	write_in(test, t.mm, A + PAGE_SIZE, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 31);
	mm_destroy(child);
	child = NULL;
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 15);
	KUNIT_EXPECT_FALSE(test, folio_maybe_mapped_shared(folio));
	write_in(test, t.mm, A + 2 * PAGE_SIZE, 2);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE_PTES], 15);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 2 * PAGE_SIZE) == folio);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + 3 * PAGE_SIZE), 0x5a);
	write_in(test, t.mm, A + 9 * PAGE_SIZE, 9);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + PAGE_SIZE), 1);
}

/*
 * MM-ID mapcounts (Linux 6.15): the parent's 64K folio has one slot
 * (its mm id, 16 entries); the child's fork takes the second and sets
 * "maybe mapped shared"; a second child finds no slot and counts only
 * in the total. The bit clears only when one slot's mm holds every
 * mapping again, whichever child goes first.
 */
static void mm_id_slots_follow_fork_and_exit(struct kunit *test)
{
	struct mm_struct *second;
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	KUNIT_EXPECT_EQ(test, folio_mm_id(folio, 0), t.mm->mm_id);
	KUNIT_EXPECT_EQ(test, folio->_mm_id_mapcount[0], 15);
	KUNIT_EXPECT_EQ(test, folio_mm_id(folio, 1), MM_ID_DUMMY);
	KUNIT_EXPECT_FALSE(test, folio_maybe_mapped_shared(folio));
	KUNIT_EXPECT_EQ(test, folio_average_page_mapcount(folio), 1);
	for (int second_goes_first = 0; second_goes_first < 2; second_goes_first++) {
		fork_child(test);
		KUNIT_EXPECT_NE(test, child->mm_id, t.mm->mm_id);
		KUNIT_EXPECT_EQ(test, folio_mm_id(folio, 1), child->mm_id);
		KUNIT_EXPECT_EQ(test, folio->_mm_id_mapcount[1], 15);
		KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(folio));
		KUNIT_EXPECT_EQ(test, folio_average_page_mapcount(folio), 2);
		second = mm_create(t.node->node_id);
		KUNIT_ASSERT_NOT_NULL(test, second);
		KUNIT_ASSERT_EQ(test, dup_mmap(second, t.mm), 0);
		KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 48);
		KUNIT_EXPECT_EQ(test, folio->_mm_id_mapcount[0] + folio->_mm_id_mapcount[1], 30);
		KUNIT_EXPECT_EQ(test, folio_average_page_mapcount(folio), 3);
		if (second_goes_first) {
			mm_destroy(second);
			KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(folio)); /* child's */
			mm_destroy(child);
		} else {
			mm_destroy(child);
			KUNIT_EXPECT_EQ(test, folio_mm_id(folio, 1), MM_ID_DUMMY);
			KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(folio)); /* second's */
			mm_destroy(second);
		}
		child = NULL;
		KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
		KUNIT_EXPECT_FALSE(test, folio_maybe_mapped_shared(folio));
		KUNIT_EXPECT_EQ(test, folio_average_page_mapcount(folio), 1);
	}
}

/* PageAnonExclusive per page: set on every page of a new folio, cleared
 * by fork in the parent (and never set in the child), set again by the
 * reuse after the child's exit, whose pages then take no more faults. */
static void fork_clears_anon_exclusive_and_reuse_sets_it(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	for (unsigned long p = 0; p < 16; p++)
		KUNIT_EXPECT_TRUE(test, PageAnonExclusive(folio_page(folio, p)));
	fork_child(test);
	for (unsigned long p = 0; p < 16; p++)
		KUNIT_EXPECT_FALSE(test, PageAnonExclusive(folio_page(folio, p)));
	mm_destroy(child);
	child = NULL;
	write_in(test, t.mm, A + 3 * PAGE_SIZE, 3);
	for (unsigned long p = 0; p < 16; p++) {
		KUNIT_EXPECT_TRUE(test, PageAnonExclusive(folio_page(folio, p)));
		KUNIT_EXPECT_TRUE(test, pte_write(pte_in(t.mm, A + p * PAGE_SIZE)));
		KUNIT_EXPECT_EQ(test, pte_pfn(pte_in(t.mm, A + p * PAGE_SIZE)),
				folio_pfn(folio) + p);
	}
	/* Only the written page's entry is dirtied by the fault. */
	KUNIT_EXPECT_TRUE(test, pte_young(pte_in(t.mm, A + 3 * PAGE_SIZE)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE_PTES], 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
}

/* Freeing a folio clears its pages' anon-exclusive bits, tails too: a
 * stale tail bit would make a later PMD-mapped folio's pages look
 * exclusive once its PMD is split, and a shared page be written in place
 * (found by the byte model's fork and compaction steps). */
static void a_freed_folio_leaves_no_anon_exclusive_bit(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	KUNIT_EXPECT_TRUE(test, PageAnonExclusive(folio_page(folio, 9)));
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 16 * PAGE_SIZE), 0);
	drain_node_pages(t.node);
	for (unsigned long p = 0; p < 16; p++)
		KUNIT_EXPECT_FALSE(test, PageAnonExclusive(folio_page(folio, p)));
}

/* wp_reuse_batched off is Linux 6.15's reuse: the faulting page alone
 * becomes writable and exclusive; each other page reuses on its own
 * fault, found reusable by the counts (wp_can_reuse_anon_folio). */
static void reuse_page_by_page_with_wp_reuse_batched_off(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio_after_a_childs_exit(test);
	if (!folio)
		return;
	wp_reuse_batched = false;
	write_in(test, t.mm, A, 1);
	write_in(test, t.mm, A + 5 * PAGE_SIZE, 5);
	wp_reuse_batched = true;
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 2);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE_PTES], 2);
	for (unsigned long p = 0; p < 16; p++) {
		bool written = p == 0 || p == 5;

		KUNIT_EXPECT_EQ(test, pte_write(pte_in(t.mm, A + p * PAGE_SIZE)), written);
		KUNIT_EXPECT_EQ(test, PageAnonExclusive(folio_page(folio, p)), written);
	}
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
}

/* wp_copy_folio (Folium's knob): the parent's write to a 64K folio the
 * child shares gets a 64K copy, mapped writable at once; the child keeps
 * the old folio, now its own, and reuses it on its write. A folio this
 * VMA does not map whole falls back to one page. */
static void wp_copy_folio_copies_the_whole_folio(struct kunit *test)
{
	struct folio *folio, *copy;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	fork_child(test);
	wp_copy_folio = true;
	write_in(test, t.mm, A + 3 * PAGE_SIZE, 3);
	wp_copy_folio = false;
	copy = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_TRUE(test, copy && copy != folio);
	KUNIT_EXPECT_EQ(test, folio_order(copy), 4);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	for (unsigned long p = 0; p < 16; p++) {
		KUNIT_EXPECT_EQ(test, pte_pfn(pte_in(t.mm, A + p * PAGE_SIZE)),
				folio_pfn(copy) + p);
		KUNIT_EXPECT_TRUE(test, pte_write(pte_in(t.mm, A + p * PAGE_SIZE)));
		KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + p * PAGE_SIZE), p == 3 ? 3 : 0x5a);
	}
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	KUNIT_EXPECT_FALSE(test, folio_maybe_mapped_shared(folio));
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 3 * PAGE_SIZE), 0x5a);
	write_in(test, child, A + 7 * PAGE_SIZE, 7);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 0);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == folio);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 16);
}

static void wp_copy_folio_falls_back_to_a_page(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + 15 * PAGE_SIZE, PAGE_SIZE), 0);
	fork_child(test);
	wp_copy_folio = true;
	write_in(test, t.mm, A + 3 * PAGE_SIZE, 3);
	wp_copy_folio = false;
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_EQ(test, folio_order(test_mapped_folio(t.mm, A + 3 * PAGE_SIZE)), 0);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 4 * PAGE_SIZE) == folio);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 3 * PAGE_SIZE), 0x5a);
}

/* Soft-dirty tracking keeps its write faults: an entry whose soft-dirty
 * bit was cleared (clear_refs 4) stays read-only through the batch, and
 * its own write then reuses it by the anon-exclusive fast path and marks
 * it soft-dirty. */
static void batched_reuse_leaves_clean_soft_dirty_entries_read_only(struct kunit *test)
{
	struct folio *folio;
	pte_t *ptep;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio_after_a_childs_exit(test);
	if (!folio)
		return;
	find_vma(t.mm, A)->vm_flags &= ~VM_SOFTDIRTY; /* as after clear_refs 4 */
	ptep = mm_find_pte(t.mm, A);
	for (int p = 8; p < 16; p++)
		ptep[p] = pte_clear_soft_dirty(ptep[p]);
	write_in(test, t.mm, A, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE_PTES], 8);
	KUNIT_EXPECT_TRUE(test, pte_write(ptep[7]));
	KUNIT_EXPECT_FALSE(test, pte_write(ptep[8]) || pte_soft_dirty(ptep[8]));
	KUNIT_EXPECT_TRUE(test, PageAnonExclusive(folio_page(folio, 8)));
	write_in(test, t.mm, A + 8 * PAGE_SIZE, 8);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 2);
	KUNIT_EXPECT_TRUE(test, pte_write(ptep[8]) && pte_soft_dirty(ptep[8]));
	KUNIT_EXPECT_FALSE(test, pte_write(ptep[9]));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
}

/* A 64K folio's 16 PTEs, copied by fork: one batch (copy_present_ptes'
 * run, the default), or 16 with fork_copy_batched off; the same entries
 * either way.
 * A PTE whose dirty bit differs ends a batch: the child gets one value
 * per batch (FPB_RESPECT_DIRTY). */
static void fork_copies_a_large_folios_run_as_one_batch(struct kunit *test)
{
	const bool batched[] = { true, false };
	struct folio *folio;
	pte_t *ptep;

	SKIP_WITHOUT_MM(test);
	folio = map_64k_folio(test);
	if (!folio)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(batched); i++) {
		if (!batched[i]) /* the first round runs with the default */
			fork_copy_batched = false;
		fork_child(test);
		fork_copy_batched = true;
		KUNIT_EXPECT_EQ(test, child->counters[MM_FORK_COPY_BATCHES], batched[i] ? 1 : 16);
		KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 16);
		KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 32);
		for (unsigned long p = 0; p < 16; p++) {
			pte_t c = pte_in(child, A + p * PAGE_SIZE),
			      pp = pte_in(t.mm, A + p * PAGE_SIZE);

			KUNIT_EXPECT_EQ(test, pte_pfn(c), folio_pfn(folio) + p);
			KUNIT_EXPECT_FALSE(test, pte_write(c) || pte_write(pp) || pte_young(c));
			KUNIT_EXPECT_EQ(test, pte_dirty(c), pte_dirty(pp));
		}
		KUNIT_EXPECT_EQ(test, read_in(test, child, A + 15 * PAGE_SIZE), 0x5a);
		mm_destroy(child);
		child = NULL;
		KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	}
	/* Pages 4-7 clean: batches 0-3, 4-7, 8-15. */
	ptep = mm_find_pte(t.mm, A);
	for (int p = 4; p < 8; p++)
		ptep[p] = pte_mkclean(ptep[p]);
	fork_child(test);
	KUNIT_EXPECT_EQ(test, child->counters[MM_FORK_COPY_BATCHES], 3);
	KUNIT_EXPECT_FALSE(test, pte_dirty(pte_in(child, A + 5 * PAGE_SIZE)));
	KUNIT_EXPECT_TRUE(test, pte_dirty(pte_in(child, A + 9 * PAGE_SIZE)));
	/* Each side still sees its own writes only. */
	write_in(test, child, A + 6 * PAGE_SIZE, 7);
	write_in(test, t.mm, A + 6 * PAGE_SIZE, 8);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 6 * PAGE_SIZE), 7);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + 6 * PAGE_SIZE), 8);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 7 * PAGE_SIZE), 0x5a);
}

static void the_zero_pages_stay_shared(struct kunit *test)
{
	unsigned long zero_pfn;

	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PAGE_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0);
	zero_pfn = pte_pfn(pte_in(t.mm, A));
	KUNIT_ASSERT_TRUE(test, is_zero_pfn(zero_pfn));
	fork_child(test);
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_in(child, A)), zero_pfn);
	KUNIT_EXPECT_TRUE(test, child->flags & MMF_ZERO_PAGE);
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 0);
	/* The parent gone first, the child's reference keeps it. */
	switch_mm(NULL);
	mm_destroy(t.mm);
	t.mm = NULL;
	switch_mm(child);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(zero_pfn));
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0);
	write_in(test, child, A, 9);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 9);
	switch_mm(NULL);
}

static void the_huge_zero_folio_stays_shared(struct kunit *test)
{
	pmd_t *pmd;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PMD_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0);
	pmd = mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && is_huge_zero_pmd(*pmd));
	fork_child(test);
	pmd = mm_find_pmd(child, A);
	KUNIT_EXPECT_TRUE(test, pmd && is_huge_zero_pmd(*pmd));
	KUNIT_EXPECT_TRUE(test, child->flags & MMF_HUGE_ZERO_PAGE);
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 0);
	write_in(test, child, A, 3);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 3);
}

/* MADV_DONTFORK leaves the VMA out; MADV_DOFORK puts it back. */
static void a_dontfork_vma_is_absent_in_the_child(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 3 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PAGE_SIZE, PAGE_SIZE, MADV_DONTFORK), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 3);
	fork_child(test);
	KUNIT_EXPECT_EQ(test, child->nr_vmas, 2);
	KUNIT_EXPECT_NULL(test, find_vma(child, A + PAGE_SIZE));
	KUNIT_EXPECT_NULL(test, test_mapped_folio(child, A + PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 2);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 2 * PAGE_SIZE), 0x5a);
	/* The parent's page is its own: its write reuses it. */
	write_in(test, t.mm, A + PAGE_SIZE, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_COPY], 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PAGE_SIZE, PAGE_SIZE, MADV_DOFORK), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
}

/* MADV_WIPEONFORK: the child has the VMA and reads zeroes; Linux's
 * -EINVAL cases for WIPEONFORK and KEEPONFORK. */
static void a_wipeonfork_vma_reads_zero_in_the_child(struct kunit *test)
{
	struct vm_area_struct *vma;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 2 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_WIPEONFORK), 0);
	fork_child(test);
	vma = find_vma(child, A);
	KUNIT_ASSERT_NOT_NULL(test, vma);
	KUNIT_EXPECT_TRUE(test, vma->vm_flags & VM_WIPEONFORK);
	KUNIT_EXPECT_NULL(test, vma->anon_vma);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + PAGE_SIZE), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_KEEPONFORK), 0);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A)->vm_flags & VM_WIPEONFORK);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + PMD_SIZE, PAGE_SIZE, RW | VM_DROPPABLE, 0),
			A + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PAGE_SIZE, MADV_KEEPONFORK), -EINVAL);
}

/* Linux: dup_mmap's vm_flags_clear(tmp, VM_LOCKED_MASK). */
static void vm_locked_is_cleared_in_the_child(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PAGE_SIZE, RW | VM_LOCKED, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x5a, 2 * PAGE_SIZE), 0);
	fork_child(test);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A)->vm_flags & VM_LOCKED);
	KUNIT_EXPECT_FALSE(test, find_vma(child, A)->vm_flags & VM_LOCKED_MASK);
	KUNIT_EXPECT_EQ(test, mm_locked_vm(child), 0);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
}

/* Linux: dup_mmap charges the child's VM_ACCOUNT VMAs again; its munmap
 * (mm_destroy) gives the charge back. */
static void the_childs_accounted_vmas_are_charged(struct kunit *test)
{
	unsigned long committed;

	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * PAGE_SIZE, RW | VM_USER, 0), A);
	KUNIT_ASSERT_TRUE(test, find_vma(t.mm, A)->vm_flags & VM_ACCOUNT);
	committed = vm_memory_committed();
	fork_child(test);
	KUNIT_EXPECT_TRUE(test, find_vma(child, A)->vm_flags & VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 8);
	mm_destroy(child);
	child = NULL;
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
}

static int count_mm(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct mm_struct **mms = arg;

	mms[pvmw->mm == t.mm ? 0 : 1] = pvmw->mm;
	return 0;
}

static void rmap_walk_of_a_shared_folio_visits_both_mms(struct kunit *test)
{
	struct mm_struct *seen[2] = { NULL, NULL };
	const struct rmap_walk_control rwc = { .rmap_one = count_mm, .arg = seen };
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	fork_child(test);
	KUNIT_EXPECT_EQ(test, rmap_walk(folio, &rwc), 0);
	KUNIT_EXPECT_TRUE(test, seen[0] == t.mm && seen[1] == child);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 2);
	KUNIT_EXPECT_EQ(test, folio_precise_page_mapcount(folio, &folio->page), 2);
	KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(folio));
}

/* The path compaction uses (migrate_pfn_range → anon_migrate_folio):
 * both mms' entries move to the new page, both read the data. */
static void migrating_a_shared_folio_updates_both_mms(struct kunit *test)
{
	struct folio *folio, *dst;
	unsigned long pfn;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	pfn = folio_pfn(folio);
	fork_child(test);
	KUNIT_ASSERT_EQ(test, migrate_pfn_range(pfn, pfn + 1), 0);
	dst = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_EXPECT_NE(test, folio_pfn(dst), pfn);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == dst);
	KUNIT_EXPECT_EQ(test, folio_mapcount(dst), 2);
	KUNIT_EXPECT_FALSE(test, pte_write(pte_in(t.mm, A)) || pte_write(pte_in(child, A)));
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
	write_in(test, child, A, 0x21);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x5a);
}

/* A THP both mms map by a PMD is split: both PMDs become PTE tables and
 * every piece is mapped twice (one PTE in each mm). */
static void splitting_a_shared_thp_splits_both_pmds(struct kunit *test)
{
	struct folio *folio, *piece;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	fork_child(test);
	KUNIT_ASSERT_EQ(test, split_anon_folio_mapped(folio), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(child, A)));
	piece = test_mapped_folio(child, A + 7 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, piece);
	KUNIT_EXPECT_EQ(test, folio_order(piece), 0);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 7 * PAGE_SIZE) == piece);
	KUNIT_EXPECT_EQ(test, folio_mapcount(piece), 2);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(piece), 2);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A + 7 * PAGE_SIZE), 0x5a);
	write_in(test, child, A + 7 * PAGE_SIZE, 0x13);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A + 7 * PAGE_SIZE), 0x5a);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 1);
}

/* Linux's madvise_free_pte_range: a dirty folio another mm maps is
 * skipped; reclaim then finds it swapbacked, not lazyfree, and keeps it. */
static void madv_free_of_a_shared_folio_does_not_discard_it(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	folio = test_mapped_folio(t.mm, A);
	folio_set_dirty(folio); /* written: what reclaim would have to keep */
	fork_child(test);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 16), 0);
	KUNIT_EXPECT_EQ(test, read_in(test, t.mm, A), 0x5a);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
}

/* Linux's madvise_cold_or_pageout_pte_range leaves a folio another mm
 * maps alone: MADV_PAGEOUT of a clean lazyfree one frees nothing. */
static void madv_pageout_skips_a_shared_folio(struct kunit *test)
{
	struct folio *folio;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_FREE), 0);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_TRUE(test, folio && folio_test_lazyfree(folio));
	fork_child(test);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_PAGEOUT), 0);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A) == folio);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0x5a);
	/* The child gone, the parent's PAGEOUT frees it. */
	mm_destroy(child);
	child = NULL;
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_PAGEOUT), 0);
	KUNIT_EXPECT_NULL(test, test_mapped_folio(t.mm, A));
}

/* Reclaim of a clean lazyfree folio both map unmaps it from both. */
static void reclaim_of_a_shared_lazyfree_folio_unmaps_both(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, MADV_FREE), 0);
	KUNIT_ASSERT_TRUE(test, folio_test_lazyfree(test_mapped_folio(t.mm, A)));
	fork_child(test);
	/* The fork made both entries old: nothing keeps it. */
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 16), 1);
	KUNIT_EXPECT_NULL(test, test_mapped_folio(t.mm, A));
	KUNIT_EXPECT_NULL(test, test_mapped_folio(child, A));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES] + child->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, read_in(test, child, A), 0);
}

/* Every folio and table comes back whichever mm goes first. */
static void destroying_parent_and_child_in_either_order_frees_everything(struct kunit *test)
{
	unsigned long free_before;
	unsigned int orders = CONFIG_TRANSPARENT_HUGEPAGE ? (1u << 4) | (1u << HPAGE_PMD_ORDER) : 0;

	SKIP_WITHOUT_MM(test);
	for (int parent_first = 0; parent_first < 2; parent_first++) {
		struct mm_struct *mm = mm_create(t.node->node_id);

		KUNIT_ASSERT_NOT_NULL(test, mm);
		free_before = node_free_pages(t.node);
		switch_mm(mm);
		thp_orders_enabled = orders;
		/* A THP, a huge zero PMD, 64K folios past the last PMD. */
		KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, 2 * PMD_SIZE + 32 * PAGE_SIZE, RW, 0), A);
		KUNIT_EXPECT_EQ(test, fill_user(A, 0x5a, PMD_SIZE), 0);
		KUNIT_EXPECT_EQ(test, fill_user(A + 2 * PMD_SIZE, 0x5b, 32 * PAGE_SIZE), 0);
		KUNIT_EXPECT_EQ(test, read_in(test, mm, A + PMD_SIZE), 0);
		switch_mm(mm);
		child = mm_create(t.node->node_id);
		KUNIT_ASSERT_NOT_NULL(test, child);
		KUNIT_ASSERT_EQ(test, dup_mmap(child, mm), 0);
		switch_mm(child);
		KUNIT_EXPECT_EQ(test, fill_user(A + PMD_SIZE, 0x11, 8 * PAGE_SIZE), 0);
		KUNIT_EXPECT_EQ(test, fill_user(A + 4 * PAGE_SIZE, 0x12, PAGE_SIZE), 0);
		switch_mm(NULL);
		if (parent_first) {
			mm_destroy(mm);
			mm_destroy(child);
		} else {
			mm_destroy(child);
			mm_destroy(mm);
		}
		child = NULL;
		KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free_before + 2);
		KUNIT_EXPECT_BUDDY_OK(test, t.node);
	}
	switch_mm(t.mm);
}

static struct kunit_case fork_test_cases[] = {
	KUNIT_CASE(child_reads_the_parents_bytes_and_both_entries_are_read_only),
	KUNIT_CASE(a_write_in_the_parent_copies_and_the_child_keeps_its_bytes),
	KUNIT_CASE(fork_copies_a_large_folios_run_as_one_batch),
	KUNIT_CASE(a_write_in_the_child_is_private_too),
	KUNIT_CASE(a_write_after_the_child_exits_reuses_the_page),
	KUNIT_CASE(a_write_to_an_mprotected_read_only_vma_is_refused),
	KUNIT_CASE(a_pmd_mapped_thp_is_shared_by_two_pmds_and_split_on_write),
	KUNIT_CASE(an_exclusive_thp_is_reused_by_its_pmd),
	KUNIT_CASE(a_large_folio_is_copied_page_by_page_then_reused),
	KUNIT_CASE(mm_id_slots_follow_fork_and_exit),
	KUNIT_CASE(fork_clears_anon_exclusive_and_reuse_sets_it),
	KUNIT_CASE(reuse_page_by_page_with_wp_reuse_batched_off),
	KUNIT_CASE(a_freed_folio_leaves_no_anon_exclusive_bit),
	KUNIT_CASE(batched_reuse_leaves_clean_soft_dirty_entries_read_only),
	KUNIT_CASE(wp_copy_folio_copies_the_whole_folio),
	KUNIT_CASE(wp_copy_folio_falls_back_to_a_page),
	KUNIT_CASE(the_zero_pages_stay_shared),
	KUNIT_CASE(the_huge_zero_folio_stays_shared),
	KUNIT_CASE(a_dontfork_vma_is_absent_in_the_child),
	KUNIT_CASE(a_wipeonfork_vma_reads_zero_in_the_child),
	KUNIT_CASE(vm_locked_is_cleared_in_the_child),
	KUNIT_CASE(the_childs_accounted_vmas_are_charged),
	KUNIT_CASE(rmap_walk_of_a_shared_folio_visits_both_mms),
	KUNIT_CASE(migrating_a_shared_folio_updates_both_mms),
	KUNIT_CASE(splitting_a_shared_thp_splits_both_pmds),
	KUNIT_CASE(madv_free_of_a_shared_folio_does_not_discard_it),
	KUNIT_CASE(madv_pageout_skips_a_shared_folio),
	KUNIT_CASE(reclaim_of_a_shared_lazyfree_folio_unmaps_both),
	KUNIT_CASE(destroying_parent_and_child_in_either_order_frees_everything),
	{},
};

static struct kunit_suite fork_test_suite = {
	.name = "fork",
	.init = fork_test_init,
	.exit = fork_test_exit,
	.test_cases = fork_test_cases,
};
kunit_test_suite(fork_test_suite);
