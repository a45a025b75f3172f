/*
 * The madvise advice besides FREE and DONTNEED, on a private node and
 * address space: POPULATE_READ/WRITE (zero page, then memory of its own;
 * Linux's errors), HUGEPAGE/NOHUGEPAGE (VMA flags, splits and merges,
 * the THP policy), COLLAPSE (one PMD folio, bytes kept, zeroes where
 * nothing was; its errors), COLD (old and at the reclaim end of the
 * LRU), PAGEOUT (only clean lazyfree folios go without swap), and guard
 * markers (SIGSEGV faults, kept by DONTNEED/FREE/mprotect, dropped by
 * GUARD_REMOVE and munmap). A = 1 GiB, aligned for every order.
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define K64 0x10000ul
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;
static struct mm_struct *prev_mm;
static unsigned long saved_orders, saved_madvise;
static enum thp_mode saved_global;

static int advice_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	saved_madvise = huge_anon_orders_madvise;
	saved_global = thp_global_mode;
	prev_mm = current_mm;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return 0;
	pgdat_set_lazyfree_reclaim(t.node);
	switch_mm(t.mm);
	thp_orders_enabled = 0; /* 4K folios unless a case says */
	return 0;
}

static void advice_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	huge_anon_orders_madvise = saved_madvise;
	thp_global_mode = saved_global;
	if (t.mm)
		switch_mm(prev_mm);
	test_mm_destroy(test, &t);
}

#define SKIP_WITHOUT_MM(test)   \
	do {                    \
		if (!t.mm)      \
			return; \
	} while (0)
#define SKIP_WITHOUT_LARGE_FOLIOS(test)                   \
	do {                                              \
		if (!t.mm || test_skip_without_thp(test)) \
			return;                           \
	} while (0)

static unsigned long ev(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

static pte_t pte_at(unsigned long addr)
{
	pte_t *pte = mm_find_pte(t.mm, addr);

	return pte ? *pte : 0;
}

/* --- POPULATE --------------------------------------------------------------------- */

static void populate_read_maps_the_zero_page_and_write_breaks_it(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 16 * P, RW, 0), A);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * P, MADV_POPULATE_READ), 0);
	for (unsigned long a = A; a < A + 16 * P; a += P)
		KUNIT_EXPECT_TRUE(test, pte_present(pte_at(a)) && is_zero_pfn(pte_pfn(pte_at(a))));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * P, MADV_POPULATE_WRITE), 0);
	for (unsigned long a = A; a < A + 16 * P; a += P)
		KUNIT_EXPECT_TRUE(test, pte_write(pte_at(a)) && !is_zero_pfn(pte_pfn(pte_at(a))));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 16 * P, 0));
}

static void populate_returns_linux_errors(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 8 * P, 4 * P, VM_READ, 0), A + 8 * P);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 16 * P, 4 * P, 0, 0), A + 16 * P);
	/* A hole: what came before it is populated. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 8 * P, MADV_POPULATE_WRITE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 1, P, MADV_POPULATE_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 8 * P, P, MADV_POPULATE_WRITE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 8 * P, P, MADV_POPULATE_READ), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 16 * P, P, MADV_POPULATE_READ), -EINVAL);
	/* A guard marker raises a signal: -EFAULT, never a kernel fault. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 2 * P, P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * P, MADV_POPULATE_READ), -EFAULT);
}

/* --- HUGEPAGE, NOHUGEPAGE ----------------------------------------------------------- */

static void hugepage_splits_the_vma_and_gates_madvise_mode(struct kunit *test)
{
	SKIP_WITHOUT_LARGE_FOLIOS(test);
	huge_anon_orders_madvise = 1ul << HPAGE_PMD_ORDER; /* 2M "madvise" */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PMD_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(find_vma(t.mm, A), THP_ORDERS_ALL), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_HUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW | VM_HUGEPAGE);
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(find_vma(t.mm, A), THP_ORDERS_ALL),
			1ul << HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, fill_user(A, 1, 2 * PMD_SIZE), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A + PMD_SIZE), 0);
	/* NOHUGEPAGE over both: equal flags, no order allowed, but two VMAs
	 * still: each got its own anon_vma at its first fault (their flags
	 * differed then: anon_vma_compatible), and Linux merges VMAs only
	 * with one anon_vma. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * PMD_SIZE, MADV_NOHUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW | VM_NOHUGEPAGE);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + PMD_SIZE)->vm_flags & ~VM_SOFTDIRTY,
			RW | VM_NOHUGEPAGE);
	thp_orders_enabled = THP_ORDERS_ALL;
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(find_vma(t.mm, A), THP_ORDERS_ALL), 0);
}

/* --- COLLAPSE ------------------------------------------------------------------------ */

static void collapse_maps_one_pmd_folio_keeping_every_byte(struct kunit *test)
{
	unsigned long alloc = ev(THP_COLLAPSE_ALLOC);

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + K64, K64, MADV_DONTNEED), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * K64, P, 0x5a)); /* stays 64K */
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64, P, 0));	      /* a zero-page PTE */
	thp_orders_enabled = 0; /* the collapse ignores the sysfs modes */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_COLLAPSE), 0);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, ev(THP_COLLAPSE_ALLOC), alloc + 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 1);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0x5a));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64, K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * K64, PMD_SIZE - 2 * K64, 0x5a));
	/* Already PMD-mapped: success, nothing allocated. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_COLLAPSE), 0);
	KUNIT_EXPECT_EQ(test, ev(THP_COLLAPSE_ALLOC), alloc + 1);
}

static void collapse_returns_linux_errors(struct kunit *test)
{
	struct folio *folio;
	unsigned long alloc;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PMD_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_COLLAPSE), -EINVAL);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0)); /* zero pages: read-only */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_COLLAPSE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, 4 * P, MADV_COLLAPSE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_COLLAPSE), -EINVAL); /* no whole PMD */
	/* A locked folio: try again later. */
	KUNIT_EXPECT_EQ(test, fill_user(A + PMD_SIZE, 7, P), 0);
	folio = test_mapped_folio(t.mm, A + PMD_SIZE);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_COLLAPSE), -EAGAIN);
	folio_clear_locked(folio);
	/* A guard marker is no page to copy (SCAN_PTE_NON_PRESENT). */
	KUNIT_EXPECT_EQ(test, fill_user(A + PMD_SIZE + P, 7, P), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, P, MADV_GUARD_INSTALL), 0);
	alloc = ev(THP_COLLAPSE_ALLOC);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_COLLAPSE), -EINVAL);
	KUNIT_EXPECT_EQ(test, ev(THP_COLLAPSE_ALLOC), alloc + 1); /* found after allocating */
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + PMD_SIZE + P, P, 7));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, P, MADV_GUARD_REMOVE), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_COLLAPSE), 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + PMD_SIZE, PMD_SIZE), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + PMD_SIZE, PMD_SIZE, RW, 0), A + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, fill_user(A + PMD_SIZE, 7, P), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_NOHUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_COLLAPSE), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + P, PMD_SIZE - P), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_COLLAPSE), -EINVAL); /* VMA < 2 MiB */
}

/* Linux 7.3 collapses a read-only VMA's zero pages (a writable one's are
 * SCAN_PAGE_RO): one PMD folio of zeroes. */
static void collapse_of_a_read_only_vma_maps_zeroes(struct kunit *test)
{
	SKIP_WITHOUT_LARGE_FOLIOS(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PMD_SIZE, RW, 0), A);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0));
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, PMD_SIZE, VM_READ), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_COLLAPSE), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_FALSE(test, pmd_write(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0));
}

/* --- COLD, PAGEOUT ------------------------------------------------------------------ */

static void cold_ages_the_pages_and_moves_them_to_the_reclaim_end(struct kunit *test)
{
	struct folio *first;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x11);
	first = test_mapped_folio(t.mm, A);
	folio_set_referenced(first);
	KUNIT_EXPECT_TRUE(test, pte_young(pte_at(A)));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, K64, MADV_COLD), 0);
	for (unsigned long a = A; a < A + K64; a += P)
		KUNIT_EXPECT_FALSE(test, pte_young(pte_at(a)));
	KUNIT_EXPECT_TRUE(test, pte_young(pte_at(A + K64)));
	KUNIT_EXPECT_FALSE(test, folio_test_referenced(first));
	KUNIT_EXPECT_TRUE(test, page_folio(list_last_entry(&t.node->lru_anon, struct page, lru)) ==
					first);
	/* Part of a folio: it is split first. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + K64, P, MADV_COLD), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A + K64), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * K64, 0x11));
}

static void pageout_frees_only_clean_lazyfree_folios(struct kunit *test)
{
	unsigned long lazyfreed = ev(PGLAZYFREED);

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x22);
	/* Swapbacked: no swap to write it to, the pages stay (split). */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, K64, MADV_PAGEOUT), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 64);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + K64, 3 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, fill_user(A + 2 * K64, 0x33, 1), 0); /* written again */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_PAGEOUT), 0);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREED), lazyfreed + 32);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 32);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0x22));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64, K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * K64, 1, 0x33));
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(test_mapped_folio(t.mm, A + 2 * K64)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * K64 + 1, K64 - 1, 0x22));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 3 * K64, K64, 0));
}

static void mlocked_ranges_refuse_cold_pageout_and_guards(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 4 * P, 0x44);
	find_vma(t.mm, A)->vm_flags |= VM_LOCKED;
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_COLD), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_PAGEOUT), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_GUARD_INSTALL), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_GUARD_REMOVE), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * P, 0x44));
	find_vma(t.mm, A)->vm_flags &= ~VM_LOCKED;
}

/* --- guard markers ------------------------------------------------------------------ */

static void guard_install_zaps_and_faults_become_sigsegv(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 8 * P, 0x55);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 2 * P, 4 * P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
	for (unsigned long a = A + 2 * P; a < A + 6 * P; a += P) {
		KUNIT_EXPECT_TRUE(test, is_guard_pte_marker(pte_at(a)));
		KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, a, 0), VM_FAULT_SIGSEGV);
		KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, a, FAULT_FLAG_WRITE), VM_FAULT_SIGSEGV);
	}
	KUNIT_EXPECT_FALSE(test, test_reads_as(A + 2 * P, 1, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 6 * P, 2 * P, 0x55));
	/* Installing again over markers is fine. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 8 * P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
}

static void guard_markers_outlive_dontneed_free_and_mprotect(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 8 * P, 0x66);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 8 * P, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 8 * P, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, 8 * P, VM_READ), 0);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, 8 * P, RW), 0);
	KUNIT_EXPECT_TRUE(test, is_guard_pte_marker(pte_at(A + P)));
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_SIGSEGV);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, P, 0));
	/* GUARD_REMOVE: the page is ordinary memory again. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 8 * P, MADV_GUARD_REMOVE), 0);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A + P)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + P, P, 0));
}

static void munmap_drops_guard_markers(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A)));
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x77, 8 * P), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 8 * P, 0x77));
}

static void guard_install_over_a_pmd_leaf_splits_it(struct kunit *test)
{
	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x12);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, P, MADV_GUARD_INSTALL), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, is_guard_pte_marker(pte_at(A + P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], HPAGE_PMD_NR - 1);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, P, 0x12));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, PMD_SIZE - 2 * P, 0x12));
}

static void unknown_advice_is_einval(struct kunit *test)
{
	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, P, RW, 0), A);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, 7), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, 104), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, P, MADV_WILLNEED), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * P, MADV_COLD), -ENOMEM);
	KUNIT_EXPECT_TRUE(test, process_madvise_remote_valid(MADV_COLLAPSE));
	KUNIT_EXPECT_FALSE(test, process_madvise_remote_valid(MADV_DONTNEED));
}

static struct kunit_case advice_test_cases[] = {
	KUNIT_CASE(populate_read_maps_the_zero_page_and_write_breaks_it),
	KUNIT_CASE(populate_returns_linux_errors),
	KUNIT_CASE(hugepage_splits_the_vma_and_gates_madvise_mode),
	KUNIT_CASE(collapse_maps_one_pmd_folio_keeping_every_byte),
	KUNIT_CASE(collapse_returns_linux_errors),
	KUNIT_CASE(collapse_of_a_read_only_vma_maps_zeroes),
	KUNIT_CASE(cold_ages_the_pages_and_moves_them_to_the_reclaim_end),
	KUNIT_CASE(pageout_frees_only_clean_lazyfree_folios),
	KUNIT_CASE(mlocked_ranges_refuse_cold_pageout_and_guards),
	KUNIT_CASE(guard_install_zaps_and_faults_become_sigsegv),
	KUNIT_CASE(guard_markers_outlive_dontneed_free_and_mprotect),
	KUNIT_CASE(munmap_drops_guard_markers),
	KUNIT_CASE(guard_install_over_a_pmd_leaf_splits_it),
	KUNIT_CASE(unknown_advice_is_einval),
	{},
};

static struct kunit_suite advice_test_suite = {
	.name = "madvise_advice",
	.init = advice_test_init,
	.exit = advice_test_exit,
	.test_cases = advice_test_cases,
};
kunit_test_suite(advice_test_suite);
