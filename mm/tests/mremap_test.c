/*
 * mremap on a private node, through its system call entry (sys_mremap,
 * as a program's call reaches it): the checks in Linux's order, shrinking,
 * growing in place, refusing to move without MREMAP_MAYMOVE, and moves
 * (anywhere, MREMAP_FIXED, MREMAP_DONTUNMAP, read-only, a PMD-mapped THP,
 * the huge zero page) that keep every byte and give every page back;
 * growing merges with the next VMA, a never-faulted VMA merges where it
 * moves, and MREMAP_FIXED at the same size moves every VMA of a range.
 * Example: 2 pages of 0x11 at A, A + 2 pages taken, mremap(A, 2p, 3p,
 * MAYMOVE) = B: B reads 0x11 0x11 0, A is unmapped.
 */
#include <binfmt_elf.h>
#include <hugetlb.h>
#include <ktest.h>
#include <syscalls.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)
#define MAYMOVE 1
#define FIXED 2
#define DONTUNMAP 4

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct task_struct *task;

static int mremap_test_init(struct kunit *test)
{
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	task = test_task(t.mm);
	return 0;
}

static void mremap_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
}

static long mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		   unsigned long flags, unsigned long new_addr)
{
	const unsigned long args[6] = { addr, old_len, new_len, flags, new_addr, 0 };

	return sys_mremap(task, args);
}

static void mremap_checks_arguments_in_linux_order(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 2 * P, 0x11);
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, 8, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, 2 * P, FIXED, A + 8 * P), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, 2 * P, MAYMOVE | DONTUNMAP, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, DONTUNMAP, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A + 1, P, P, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, 0, 0, 0), -EINVAL);
	/* Bad flags come before a bad address. */
	KUNIT_EXPECT_EQ(test, mremap(A + 100 * P, P, P, 8, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A + 100 * P, P, 2 * P, 0, 0), -EFAULT);
	/* The old range must be in the one VMA (vma_to_resize). */
	KUNIT_EXPECT_EQ(test, mremap(A, 3 * P, 4 * P, MAYMOVE, 0), -EFAULT);
	/* A private mapping cannot be duplicated. */
	KUNIT_EXPECT_EQ(test, mremap(A, 0, P, MAYMOVE, 0), -EINVAL);
	/* MREMAP_FIXED: aligned, not overlapping the old range. */
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, MAYMOVE | FIXED, A + 8 * P + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * P, 2 * P, MAYMOVE | FIXED, A + P), -EINVAL);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x11));
}

static void shrinking_unmaps_the_tail_and_keeps_the_head(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 4 * P, 0x22);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
	KUNIT_EXPECT_EQ(test, mremap(A, 4 * P, P + 1, 0, 0), A); /* rounded up: 2 pages */
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 2 * P);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 2);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x22));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A + 2 * P));
	/* Same size: nothing to do. */
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * P, 2 * P, 0, 0), A);
}

static void growing_extends_the_vma_in_place_when_the_next_pages_are_free(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 2 * P, 0x33);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * P, 5 * P, 0, 0), A);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 5 * P);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x33));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, 3 * P, 0));
	KUNIT_EXPECT_EQ(test, fill_user(A + 4 * P, 0x44, P), 0);
}

static void growing_into_a_taken_page_needs_maymove(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 2 * P, 0x55);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 2 * P, P, RW, 0), A + 2 * P);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * P, 3 * P, 0, 0), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 2 * P);
	/* Growing only part of a VMA cannot be in place either. */
	KUNIT_EXPECT_EQ(test, mremap(A, P, 3 * P, 0, 0), -ENOMEM);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x55));
}

static void maymove_copies_the_bytes_and_unmaps_the_old_range(struct kunit *test)
{
	uint8_t byte;
	long b;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 3 * P, 0x66);
	KUNIT_ASSERT_EQ(test, zap_page_range(t.mm, A + P, A + 2 * P), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, A + P, 1), 0); /* the zero page */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 3 * P, P, RW, 0), A + 3 * P);
	b = mremap(A, 3 * P, 4 * P, MAYMOVE, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(b));
	KUNIT_EXPECT_NE(test, b, A);
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, b)->vm_end, b + 4 * P);
	/* Two pages copied; the zero-page entry was not. */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 2);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, P, 0x66));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + P, P, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + 2 * P, P, 0x66));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + 3 * P, P, 0));
}

static void a_read_only_mapping_moves_read_only(struct kunit *test)
{
	long b;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, P, 0x77);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, P, VM_READ), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + P, P, RW, 0), A + P);
	b = mremap(A, P, 2 * P, MAYMOVE, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(b));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, b)->vm_flags, VM_READ | VM_SOFTDIRTY);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, P, 0x77));
}

static void fixed_replaces_the_target_and_can_shrink(struct kunit *test)
{
	const unsigned long c = A + 64 * P;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 3 * P, 0x18);
	test_map_and_fill(test, t.mm, c, 4 * P, 0x81);
	KUNIT_EXPECT_EQ(test, mremap(A, 3 * P, 2 * P, MAYMOVE | FIXED, c), c);
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c, 2 * P, 0x18));
	/* What was at c beyond the new length stays. */
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 2 * P, 2 * P, 0x81));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
}

static void dontunmap_leaves_the_old_vma_mapped_and_empty(struct kunit *test)
{
	long b;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 2 * P, 0x99);
	b = mremap(A, 2 * P, 2 * P, MAYMOVE | DONTUNMAP, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(b));
	KUNIT_EXPECT_NE(test, b, A);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, 2 * P, 0x99));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 2 * P);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0));
}

static void a_pmd_mapped_thp_moves_whole(struct kunit *test)
{
	long b;

	if (!t.mm || test_skip_without_thp(test))
		return;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	KUNIT_ASSERT_NOT_NULL(test, test_mapped_folio(t.mm, A));
	b = mremap(A, PMD_SIZE, 2 * PMD_SIZE, MAYMOVE | FIXED, A + 4 * PMD_SIZE);
	KUNIT_ASSERT_EQ(test, b, A + 4 * PMD_SIZE);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PMD_SIZE, 0x5a));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + PMD_SIZE, PAGE_SIZE, 0));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A));
}

static void the_huge_zero_page_is_not_copied(struct kunit *test)
{
	uint8_t byte;
	long b;

	if (!t.mm || test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PMD_SIZE, RW, 0), A);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, A, 1), 0);
	b = mremap(A, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, A + 4 * PMD_SIZE);
	KUNIT_ASSERT_EQ(test, b, A + 4 * PMD_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PMD_SIZE, 0));
}

/* Folios wholly inside the range, moved by a multiple of their size,
 * keep their pages: the entries move (Linux: move_page_tables), rmap
 * finds them at the new address, a PMD leaf stays one; nothing faults. */
static void a_move_keeps_the_folios_and_their_pages(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled, faults, b = A + 4 * PMD_SIZE;
	struct folio *folio, *pmd_folio_before;

	if (!t.mm || test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PMD_SIZE, RW, 0), A);
	thp_orders_enabled = 1ul << 4;
	KUNIT_ASSERT_EQ(test, fill_user(A, 0x3c, PMD_SIZE), 0);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, fill_user(A + PMD_SIZE, 0x3d, PMD_SIZE), 0);
	thp_orders_enabled = saved;
	folio = test_mapped_folio(t.mm, A + 0x50000);
	pmd_folio_before = test_mapped_folio(t.mm, A + PMD_SIZE);
	KUNIT_ASSERT_EQ(test, folio_order(pmd_folio_before), HPAGE_PMD_ORDER);
	faults = t.mm->counters[MM_FAULTS];
	KUNIT_ASSERT_EQ(test, mremap(A, 2 * PMD_SIZE, 2 * PMD_SIZE, MAYMOVE | FIXED, b), b);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_FAULTS], faults);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b + 0x50000) == folio);
	/* The moved VMA keeps the folio's index: vm_pgoff moved with it. */
	KUNIT_EXPECT_EQ(test, vma_address(find_vma(t.mm, b), folio->page.index), b + 0x50000);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 16);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b + PMD_SIZE) == pmd_folio_before);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(t.mm, b + PMD_SIZE)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PMD_SIZE, 0x3c));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + PMD_SIZE, PMD_SIZE, 0x3d));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 2 * HPAGE_PMD_NR);
}

/* A range that cuts a folio, or a distance that misaligns one, moves its
 * entries all the same (Linux: move_page_tables never copies): the folio
 * stays whole, mapped from both VMAs when cut, and rmap finds every PTE. */
static void a_cut_or_misaligned_folio_moves_whole(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled, b = A + 4 * PMD_SIZE, c = A + 2 * PMD_SIZE;
	struct folio *folio;

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 0x20000, 0x4e);
	test_map_and_fill(test, t.mm, c, 0x10000, 0x4f);
	thp_orders_enabled = saved;
	/* Cut: half of the first folio is in the range. */
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, mremap(A + 0x8000, 0x18000, 0x18000, MAYMOVE | FIXED, b), b);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) == folio);
	KUNIT_EXPECT_EQ(test, pte_pfn(*mm_find_pte(t.mm, b)), folio_pfn(folio) + 8);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, 0x18000, 0x4e));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 0x8000, 0x4e));
	/* Misaligned: a whole 64K folio moved by 64K + 4K. */
	folio = test_mapped_folio(t.mm, c);
	KUNIT_ASSERT_EQ(test, mremap(c, 0x10000, 0x10000, MAYMOVE | FIXED, c + 0x11000),
			c + 0x11000);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, c + 0x11000) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, c + 0x20000) == folio);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 0x11000, 0x10000, 0x4f));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 3 * 16);
}

/* Both addresses PMD-aligned over whole 2 MiB: the PTE table itself moves
 * (Linux: move_normal_pmd), every entry keeping every bit, soft-dirty
 * clear ones included; elsewhere each moved entry turns soft-dirty. */
static void an_aligned_move_hands_over_the_pte_table(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled, b = A + 4 * PMD_SIZE, c = A + 8 * PMD_SIZE;
	pmd_t table;

	if (!t.mm)
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x61);
	thp_orders_enabled = saved;
	for (unsigned long a = A; a < A + PMD_SIZE; a += P)
		*mm_find_pte(t.mm, a) &= ~_PAGE_SOFT_DIRTY;
	table = *mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_EQ(test, mremap(A, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, b), b);
	KUNIT_EXPECT_EQ(test, *mm_find_pmd(t.mm, b), table);
	KUNIT_EXPECT_TRUE(test, !mm_find_pmd(t.mm, A) || pmd_none(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_FALSE(test, pte_soft_dirty(*mm_find_pte(t.mm, b + 5 * P)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PMD_SIZE, 0x61));
	/* Moved by a page more: entry by entry, each soft-dirty. */
	KUNIT_ASSERT_EQ(test, mremap(b, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, c + P), c + P);
	KUNIT_EXPECT_NE(test, *mm_find_pmd(t.mm, c + P), table);
	KUNIT_EXPECT_TRUE(test, pte_soft_dirty(*mm_find_pte(t.mm, c + 6 * P)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + P, PMD_SIZE, 0x61));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);
}

/* A PMD leaf whose new place is not PMD-aligned is split, then its PTEs
 * move (Linux: move_page_tables' split_huge_pmd): the THP stays one folio
 * mapped by 512 PTEs across two tables. */
static void a_pmd_leaf_moved_off_alignment_is_split_not_copied(struct kunit *test)
{
	unsigned long b = A + 4 * PMD_SIZE + 0x3000;
	struct folio *folio;

	if (!t.mm || test_skip_without_thp(test))
		return;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x7e);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, mremap(A, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, b), b);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, b)));
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b) == folio);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b + PMD_SIZE - P) == folio);
	KUNIT_EXPECT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), HPAGE_PMD_NR);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PMD_SIZE, 0x7e));
}

/* A large folio's PTEs move as one batch (Linux 6.17's move_ptes with
 * mremap_folio_pte_batch), or one by one with mremap_batched off (x86
 * Linux); a batch ends where the new range's table does. */
static void a_folio_moves_in_one_batch_up_to_the_new_table_end(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled, b = A + 4 * PMD_SIZE;
	static const bool batched[] = { true, false };

	if (!t.mm || test_skip_without_thp(test))
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(batched); i++) {
		unsigned long to = b + 0x11000;

		thp_orders_enabled = 1ul << 4;
		test_map_and_fill(test, t.mm, A, 0x10000, 0x33);
		thp_orders_enabled = saved;
		mremap_batched = batched[i];
		t.mm->counters[MM_MREMAP_BATCHES] = 0;
		KUNIT_EXPECT_EQ(test, mremap(A, 0x10000, 0x10000, MAYMOVE | FIXED, to), to);
		mremap_batched = true;
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MREMAP_BATCHES], batched[i] ? 1 : 16);
		KUNIT_EXPECT_TRUE(test, test_reads_as(to, 0x10000, 0x33));
		KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, to, 0x10000), 0);
	}
	/* 6 pages before the new table's end, 10 after it: two batches. */
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 0x10000, 0x34);
	thp_orders_enabled = saved;
	t.mm->counters[MM_MREMAP_BATCHES] = 0;
	KUNIT_EXPECT_EQ(test, mremap(A, 0x10000, 0x10000, MAYMOVE | FIXED, b + PMD_SIZE - 6 * P),
			b + PMD_SIZE - 6 * P);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MREMAP_BATCHES], 2);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + PMD_SIZE - 6 * P, 0x10000, 0x34));
}

/* Guard markers move with their range, in a moved table or entry by
 * entry (a misaligned 64K folio), and none stays behind. */
static void guard_markers_move_with_the_range(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled, b = A + 4 * PMD_SIZE, c = A + 2 * PMD_SIZE;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 4 * P, 0x21);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, P, MADV_GUARD_INSTALL), 0);
	KUNIT_ASSERT_EQ(test, mremap(A, 4 * P, 4 * P, MAYMOVE | FIXED, b), b);
	KUNIT_EXPECT_TRUE(test, is_guard_pte_marker(*mm_find_pte(t.mm, b + P)));
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, b + P, 0), VM_FAULT_SIGSEGV);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, P, 0x21));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + 2 * P, 2 * P, 0x21));
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_NOVMA);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, c, 0x10000, 0x4f);
	thp_orders_enabled = saved;
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, c + 0x8000, 0x1000, MADV_GUARD_INSTALL), 0);
	KUNIT_ASSERT_EQ(test, mremap(c, 0x10000, 0x10000, MAYMOVE | FIXED, c + 0x11000),
			c + 0x11000);
	KUNIT_EXPECT_TRUE(test, is_guard_pte_marker(*mm_find_pte(t.mm, c + 0x19000)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 0x11000, 0x8000, 0x4f));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 0x1a000, 0x7000, 0x4f));
}

/* mremap_test's "expand merge": the head of a VMA with a hole in it grows
 * into the hole and becomes one VMA with the tail (vma_merge_extend). */
static void growing_into_a_hole_merges_with_the_next_vma(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 3 * P, 0x21);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + P, P), 0);
	KUNIT_ASSERT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_EQ(test, mremap(A, P, 2 * P, 0, 0), A);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 3 * P);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + P, P, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, P, 0x21));
	/* A next VMA with other flags stays apart. */
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + P, P), 0);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + 2 * P, P, VM_READ), 0);
	KUNIT_EXPECT_EQ(test, mremap(A, P, 2 * P, 0, 0), A);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
}

/* mremap_test's "move multiple vmas": MREMAP_FIXED at the same size moves
 * every VMA of the range, split at its ends, keeping the gaps; what the
 * target had in a gap stays (remap_move). */
static void fixed_moves_every_vma_of_the_range_and_keeps_the_gaps(struct kunit *test)
{
	const unsigned long c = A + 64 * P;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 2 * P, 0x31);
	test_map_and_fill(test, t.mm, A + 3 * P, 3 * P, 0x32);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, c, 8 * P, VM_READ, 0), c);
	/* From the middle of the first VMA to the middle of the second. */
	KUNIT_ASSERT_EQ(test, mremap(A + P, 4 * P, 4 * P, MAYMOVE | FIXED, c + P), c + P);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + P);
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A + P));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A + 4 * P));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 5 * P)->vm_start, A + 5 * P);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + P, P, 0x31));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, c + 2 * P)->vm_flags & VM_WRITE, 0);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, c + 3 * P)->vm_start, c + 3 * P);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 3 * P, 2 * P, 0x32));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, c + 5 * P)->vm_flags & VM_WRITE, 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 5);
	/* The range must start in a VMA. */
	KUNIT_EXPECT_EQ(test, mremap(A + P, 5 * P, 5 * P, MAYMOVE | FIXED, c + 32 * P), -EFAULT);
}

/* ... and with MREMAP_DONTUNMAP each VMA stays, emptied; no new VMA merges
 * with its source (copy_vma). */
static void dontunmap_moves_every_vma_and_keeps_each_empty(struct kunit *test)
{
	const unsigned long c = A + 64 * P;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, P, 0x41);
	test_map_and_fill(test, t.mm, A + 2 * P, P, 0x42);
	KUNIT_ASSERT_EQ(test, mremap(A, 3 * P, 3 * P, MAYMOVE | FIXED | DONTUNMAP, c), c);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c, P, 0x41));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, c + P));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 2 * P, P, 0x42));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, P, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, P, 0));
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 4);
	/* An unfaulted VMA moved right after itself stays apart from it. */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, c + 8 * P, P, RW, 0), c + 8 * P);
	KUNIT_ASSERT_EQ(test, mremap(c + 8 * P, P, P, MAYMOVE | FIXED | DONTUNMAP, c + 9 * P),
			c + 9 * P);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, c + 9 * P)->vm_start, c + 9 * P);
}

/* mremap_test's "move multiple vmas split [dontunnmap]": a range cutting
 * two VMAs, each source part left mapped and empty. */
static void dontunmap_of_parts_of_two_vmas_splits_them(struct kunit *test)
{
	const unsigned long c = A - 10 * P;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 10 * P, 0x61);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + 5 * P, P), 0);
	KUNIT_ASSERT_EQ(test, mremap(A + 2 * P, 7 * P, 7 * P, MAYMOVE | FIXED | DONTUNMAP, c), c);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c, 3 * P, 0x61));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, c + 3 * P));
	KUNIT_EXPECT_TRUE(test, test_reads_as(c + 4 * P, 3 * P, 0x61));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x61));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, 3 * P, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 6 * P, 3 * P, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 9 * P, P, 0x61));
}

/* The soft-dirty selftest's "remap merge": a VMA never faulted merges with
 * an equal neighbour where it lands (VM_SOFTDIRTY does not keep them
 * apart, the merged VMA keeps it); a faulted one keeps its old pgoff in
 * Linux and stays apart. */
static void a_vma_never_faulted_merges_where_it_moves(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, P, RW, 0), A);
	find_vma(t.mm, A)->vm_flags &= ~VM_SOFTDIRTY; /* as clear_refs 4 */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 2 * P, P, RW, 0), A + 2 * P);
	KUNIT_ASSERT_EQ(test, mremap(A + 2 * P, P, P, MAYMOVE | FIXED, A + P), A + P);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_end, A + 2 * P);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags, RW | VM_SOFTDIRTY);
	test_map_and_fill(test, t.mm, A + 8 * P, P, 0x51);
	KUNIT_EXPECT_EQ(test, mremap(A + 8 * P, P, P, MAYMOVE | FIXED, A + 2 * P), A + 2 * P);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, P, 0x51));
}

/* A moved page keeps its anon_vma and pgoff: put right after the VMA it
 * came from (same anon_vma), it still does not merge, as its pgoff does
 * not continue that VMA's (Linux: can_vma_merge_after), and rmap finds
 * its folio where it is. */
static void a_moved_page_merges_only_where_its_pgoff_continues(struct kunit *test)
{
	struct folio *folio;

	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 3 * P, 0x51);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + 2 * P, P), 0);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, mremap(A, P, P, MAYMOVE | FIXED, A + 2 * P), A + 2 * P);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_TRUE(test,
			  find_vma(t.mm, A + 2 * P)->anon_vma == find_vma(t.mm, A + P)->anon_vma);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 2 * P) == folio);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 1);
	/* Moved back, it continues its old neighbour's pgoff: one VMA. */
	KUNIT_ASSERT_EQ(test, mremap(A + 2 * P, P, P, MAYMOVE | FIXED, A), A);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_EQ(test, folio_count_mappings(folio), 1);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * P, 0x51));
}

/* check_mremap_params comes before the lookup: a bad new_addr is -EINVAL
 * even where addr maps nothing, as is a new_len past TASK_SIZE. */
static void new_addr_is_checked_before_the_old_range(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, MAYMOVE | FIXED, A + 8 * P + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * P, 2 * P, MAYMOVE | FIXED, A + P), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, MAYMOVE | DONTUNMAP, TASK_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, TASK_SIZE + P, MAYMOVE, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, P, P, MAYMOVE | FIXED, A + 8 * P), -EFAULT);
}

/* Linux's align_hugetlb and check_prep_vma for a HugeTLB VMA: addresses
 * huge-page aligned, never grown, MREMAP_DONTUNMAP refused (hugetlbfs
 * sets VM_DONTEXPAND); Folium moves none (MREMAP_FIXED too, alone or
 * among several VMAs); shrinking works. Without a pool: MAP_NORESERVE. */
static void a_hugetlb_vma_only_shrinks(struct kunit *test)
{
	const unsigned long hp = PMD_SIZE, c = A + 8 * PMD_SIZE;
	struct hstate saved = hstates[0];
	unsigned int saved_max = hugetlb_max_hstate;
	struct vm_area_struct *vma;

	if (!t.mm)
		return;
	hstate_init(&hstates[0], HPAGE_PMD_ORDER, t.node ? t.node->node_id : 0);
	hugetlb_max_hstate = 1;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * hp, RW | VM_HUGETLB | VM_NORESERVE, 0), A);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * hp, 3 * hp, MAYMOVE, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * hp, 2 * hp, MAYMOVE | DONTUNMAP, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * hp, 2 * hp, MAYMOVE | FIXED, c), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(A + P, P, P, MAYMOVE | FIXED, c), -EINVAL);
	test_map_and_fill(test, t.mm, A - P, P, 0x71);
	KUNIT_EXPECT_EQ(test, mremap(A - P, 2 * P, 2 * P, MAYMOVE | FIXED, c), -EINVAL);
	KUNIT_EXPECT_TRUE(test, test_reads_as(c, P, 0x71));	   /* the VMA before it moved */
	KUNIT_EXPECT_EQ(test, mremap(A, 2 * hp, hp - P, 0, 0), A); /* rounded up to hp */
	vma = find_vma(t.mm, A);
	KUNIT_EXPECT_TRUE(test, vma && vma->vm_end == A + hp);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, hp), 0);
	hstates[0] = saved;
	hugetlb_max_hstate = saved_max;
}

static struct kunit_case mremap_test_cases[] = {
	KUNIT_CASE(mremap_checks_arguments_in_linux_order),
	KUNIT_CASE(shrinking_unmaps_the_tail_and_keeps_the_head),
	KUNIT_CASE(growing_extends_the_vma_in_place_when_the_next_pages_are_free),
	KUNIT_CASE(growing_into_a_taken_page_needs_maymove),
	KUNIT_CASE(maymove_copies_the_bytes_and_unmaps_the_old_range),
	KUNIT_CASE(a_read_only_mapping_moves_read_only),
	KUNIT_CASE(fixed_replaces_the_target_and_can_shrink),
	KUNIT_CASE(dontunmap_leaves_the_old_vma_mapped_and_empty),
	KUNIT_CASE(a_pmd_mapped_thp_moves_whole),
	KUNIT_CASE(the_huge_zero_page_is_not_copied),
	KUNIT_CASE(a_move_keeps_the_folios_and_their_pages),
	KUNIT_CASE(a_cut_or_misaligned_folio_moves_whole),
	KUNIT_CASE(an_aligned_move_hands_over_the_pte_table),
	KUNIT_CASE(a_pmd_leaf_moved_off_alignment_is_split_not_copied),
	KUNIT_CASE(a_folio_moves_in_one_batch_up_to_the_new_table_end),
	KUNIT_CASE(guard_markers_move_with_the_range),
	KUNIT_CASE(growing_into_a_hole_merges_with_the_next_vma),
	KUNIT_CASE(fixed_moves_every_vma_of_the_range_and_keeps_the_gaps),
	KUNIT_CASE(dontunmap_moves_every_vma_and_keeps_each_empty),
	KUNIT_CASE(dontunmap_of_parts_of_two_vmas_splits_them),
	KUNIT_CASE(a_vma_never_faulted_merges_where_it_moves),
	KUNIT_CASE(a_moved_page_merges_only_where_its_pgoff_continues),
	KUNIT_CASE(new_addr_is_checked_before_the_old_range),
	KUNIT_CASE(a_hugetlb_vma_only_shrinks),
	{},
};

static struct kunit_suite mremap_test_suite = {
	.name = "mremap",
	.init = mremap_test_init,
	.exit = mremap_test_exit,
	.test_cases = mremap_test_cases,
};
kunit_test_suite(mremap_test_suite);
