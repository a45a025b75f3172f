/*
 * MADV_FREE, MADV_DONTNEED and lazyfree reclaim on a private node and
 * address space: freed memory reads zeros after reclaim, memory written
 * after MADV_FREE keeps every byte, partial ranges split, PMD folios are
 * handled whole, Linux's argument rules, the batching evidence (a 1 MiB
 * range of 64K folios: 512 PTE writes, no split, one flush; the split
 * mode: the same writes and flush after 16 splits), which folios Linux skips
 * (locked, shared and dirty, unsplittable PMD leaves), reclaim under
 * memory pressure and the young second chance. A = 1 GiB, aligned for
 * all orders.
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define K64 0x10000ul
#define RW (VM_READ | VM_WRITE)
#define ALL (~0ul)

static struct test_mm t;
static struct mm_struct *prev_mm;
static unsigned long saved_orders;
static enum lazyfree_mode saved_mode;

static int madvise_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	saved_mode = lazyfree_mode;
	prev_mm = current_mm;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return 0;
	pgdat_set_lazyfree_reclaim(t.node);
	switch_mm(t.mm);
	thp_orders_enabled = 1ul << 4; /* 64K folios unless a case says */
	lazyfree_mode = LAZYFREE_BATCHED;
	return 0;
}

static void madvise_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	lazyfree_mode = saved_mode;
	if (t.mm)
		switch_mm(prev_mm);
	test_mm_destroy(test, &t);
}

#define SKIP_WITHOUT_MM(test)   \
	do {                    \
		if (!t.mm)      \
			return; \
	} while (0)
/* The cases about large folios (64K unless they say): none with THP=n. */
#define SKIP_WITHOUT_LARGE_FOLIOS(test)                   \
	do {                                              \
		if (!t.mm || test_skip_without_thp(test)) \
			return;                           \
	} while (0)

static unsigned long ev(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

static struct folio *mapped_folio(unsigned long addr)
{
	return test_mapped_folio(t.mm, addr);
}

/* The LRU invariant: counters match the lists, flags match the list. */
static void expect_lru_ok(struct kunit *test)
{
	unsigned long n = 0;
	struct page *page;

	list_for_each_entry(page, &t.node->lru_anon, lru) {
		KUNIT_EXPECT_TRUE(test, PageFlag(page, PG_lru) && PageFlag(page, PG_swapbacked));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, t.node->nr_lru_anon);
	n = 0;
	list_for_each_entry(page, &t.node->lru_lazyfree, lru) {
		KUNIT_EXPECT_TRUE(test, PageFlag(page, PG_lru) && !PageFlag(page, PG_swapbacked));
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, t.node->nr_lru_lazyfree);
}

/* --- semantics ---------------------------------------------------------------------- */

static void madv_free_then_reclaim_reads_zeros(struct kunit *test)
{
	unsigned long lazyfree = ev(PGLAZYFREE), lazyfreed = ev(PGLAZYFREED);

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x5a);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 4);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 64);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 4);
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 64);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREED) - lazyfreed, 64);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * K64, 0));
	expect_lru_ok(test);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* Reclaim evidence: the PTE writes and TLB flushes (one, two) made so far. */
static void count_pte_work(unsigned long *writes, unsigned long *flush_one,
			   unsigned long *flush_all)
{
	*writes = t.mm->counters[MM_PTE_WRITES];
	*flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	*flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
}

/*
 * Reclaim clears a lazyfree large folio's entries per folio, as Linux's
 * try_to_unmap_one (one batch of its PTEs), and defers the flush
 * (TTU_BATCH_FLUSH): two clean 64K folios cost their 32 PTE writes and
 * one batched flush before they are freed, no per-folio flush_tlb_range;
 * a PMD-mapped one one write and one 2 MiB flush at once (its leaf is
 * cleared and flushed together); the folio-wide young/dirty look before
 * it writes nothing.
 */
static void reclaim_clears_each_entry_once_and_flushes_once_per_batch(struct kunit *test)
{
	unsigned long writes, flush_one, flush_all, batches;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 2 * K64, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * K64, MADV_FREE), 0);
	count_pte_work(&writes, &flush_one, &flush_all);
	batches = nr_tlb_batch_flushes;
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 32);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 2 * 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], flush_one);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	KUNIT_EXPECT_EQ(test, nr_tlb_batch_flushes - batches, 1ul);

	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A + PMD_SIZE, PMD_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE, PMD_SIZE, MADV_FREE), 0);
	count_pte_work(&writes, &flush_one, &flush_all);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] - flush_one, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + PMD_SIZE, PMD_SIZE, 0));
}

static void rewritten_folios_keep_every_byte(struct kunit *test)
{
	uint8_t one = 0x22;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x11);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_FREE), 0);
	/* One byte of folio 1, all of folio 3. */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + K64 + 0x5123, &one, 1), 0);
	KUNIT_EXPECT_EQ(test, fill_user(A + 3 * K64, 0x33, K64), 0);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 32);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 2);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
	expect_lru_ok(test);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64, 0x5123, 0x11));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64 + 0x5123, 1, 0x22));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64 + 0x5124, K64 - 0x5124, 0x11));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * K64, K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 3 * K64, K64, 0x33));
}

static void partial_range_splits_folios_at_both_ends(struct kunit *test)
{
	unsigned long splits = node_split_count(t.node), split4 = t.node->split_count[4];
	unsigned long lazyfree = ev(PGLAZYFREE);

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x5a);
	/* Second half of folio 0, first half of folio 1. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + K64 / 2, K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(t.node) - splits, 2);
	KUNIT_EXPECT_EQ(test, t.node->split_count[4] - split4, 2);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 16);
	KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(A)), 0);
	KUNIT_EXPECT_EQ(test, folio_mapcount(mapped_folio(A)), 1);
	KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(A + 2 * K64)), 4);
	/* 30 order-0 folios and 2 untouched 64K ones; 16 of them lazyfree. */
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 16 + 2);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 16);
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64 / 2, 0x5a));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64 / 2, K64, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 3 * K64 / 2, 5 * K64 / 2, 0x5a));
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void split_after_partial_munmap_frees_unmapped_pieces(struct kunit *test)
{
	unsigned long free_before;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, K64, 0x5a);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 0x4000, 0x4000), 0); /* 4 pages gone */
	free_before = node_free_pages(t.node);
	/* The folio is only partly mapped: split, its 4 unmapped pages freed. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 0x4000, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node) - free_before, 4);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 4);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 8);
	expect_lru_ok(test);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 0x8000, K64 - 0x8000, 0x5a));
}

static void pmd_folio_inside_range_is_not_split(struct kunit *test)
{
	unsigned long splits = node_split_count(t.node);
	pmd_t *pmd;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	pmd = mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && pmd_leaf(*pmd));
	KUNIT_EXPECT_TRUE(test, pmd_dirty(*pmd) && pmd_young(*pmd));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(t.node), splits);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd) && !pmd_dirty(*pmd) && !pmd_young(*pmd));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR);
	KUNIT_EXPECT_TRUE(test, pmd_none(*pmd));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0));
}

static void pmd_folio_partly_inside_is_split_to_ptes(struct kunit *test)
{
	unsigned long split9 = t.node->split_count[HPAGE_PMD_ORDER];

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE / 2, PMD_SIZE / 2, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.node->split_count[HPAGE_PMD_ORDER] - split9, 1);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, HPAGE_PMD_NR / 2);
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR / 2);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE / 2, 0x5a));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + PMD_SIZE / 2, PMD_SIZE / 2, 0));
}

static void madvise_follows_linux_argument_rules(struct kunit *test)
{
	unsigned long lazyfree = ev(PGLAZYFREE);

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, K64, 0x5a);
	test_map_and_fill(test, t.mm, A + 2 * K64, K64, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 1, PAGE_SIZE, MADV_FREE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, 6), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, (size_t)-1, MADV_FREE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 0, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 8 * K64, K64, MADV_FREE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE), lazyfree);
	/* A hole in the middle: both VMAs done, then -ENOMEM. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 3 * K64, MADV_FREE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 32);
	/* len is rounded up: 1 byte covers the page. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 1, MADV_DONTNEED), 0);
	KUNIT_EXPECT_NULL(test, mapped_folio(A));
	KUNIT_EXPECT_NOT_NULL(test, mapped_folio(A + PAGE_SIZE));
}

static void dontneed_frees_now_and_keeps_the_vma(struct kunit *test)
{
	unsigned long free_before, flushes;

	SKIP_WITHOUT_LARGE_FOLIOS(test); /* 16 folios: one gather batch */
	free_before = node_free_pages(t.node);
	test_map_and_fill(test, t.mm, A, 16 * K64, 0x5a);
	flushes = t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(
		test, t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE] - flushes,
		1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	/* All but the slab pages of the anon_vma (its cache and its member
	 * mm's), which the VMA keeps (Linux). */
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free_before - 2);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 0);
	KUNIT_EXPECT_NOT_NULL(test, find_vma(t.mm, A));
	KUNIT_EXPECT_NOT_NULL(test, find_vma(t.mm, A)->anon_vma);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 16 * K64, 0));
}

/* --- batching evidence ------------------------------------------------------------------ */

/* 16 folios of 64K: no split, 16 batches of clear_young_dirty_ptes (two
 * writes per PTE, as x86's), one flush for the 1 MiB. */
static void batched_free_batches_each_folio_and_flushes_once(struct kunit *test)
{
	unsigned long writes, splits = node_split_count(t.node), flush_all, flush_one;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 16 * K64, 0x5a);
	writes = t.mm->counters[MM_PTE_WRITES];
	flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 2 * 256);
	KUNIT_EXPECT_EQ(test, node_split_count(t.node), splits);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL] - flush_all, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], flush_one);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 16);
}

/* The kernel before the batching change: each folio split, each PTE
 * cleared and rewritten (2 writes), every change gathered: one flush. */
static void split_mode_splits_every_folio_and_flushes_once(struct kunit *test)
{
	unsigned long splits = node_split_count(t.node), flush_all, flush_one, writes;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	lazyfree_mode = LAZYFREE_SPLIT;
	test_map_and_fill(test, t.mm, A, 16 * K64, 0x5a);
	flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	writes = t.mm->counters[MM_PTE_WRITES];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(t.node) - splits, 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 2 * 256);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL] - flush_all, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], flush_one);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 256);
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 256);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 16 * K64, 0));
}

/* 4K folios: nothing to batch or split, so the two modes do the same
 * work: the same folios lazyfreed, the same PTE writes (clear + set back,
 * both), the same single flush. */
static void both_modes_do_the_same_work_on_4k_folios(struct kunit *test)
{
	static const enum lazyfree_mode modes[] = { LAZYFREE_BATCHED, LAZYFREE_SPLIT };
	unsigned long flushes[2], writes[2], lazyfree[2];

	SKIP_WITHOUT_MM(test);
	thp_orders_enabled = 0;
	for (int m = 0; m < 2; m++) {
		unsigned long addr = A + m * 0x1000000ul, f0, w0, l0 = ev(PGLAZYFREE);

		lazyfree_mode = modes[m];
		test_map_and_fill(test, t.mm, addr, 16 * K64, 0x5a);
		f0 = t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE];
		w0 = t.mm->counters[MM_PTE_WRITES];
		KUNIT_EXPECT_EQ(test, do_madvise(t.mm, addr, 16 * K64, MADV_FREE), 0);
		flushes[m] =
			t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE] - f0;
		writes[m] = t.mm->counters[MM_PTE_WRITES] - w0;
		lazyfree[m] = ev(PGLAZYFREE) - l0;
	}
	KUNIT_EXPECT_EQ(test, flushes[0], 1);
	KUNIT_EXPECT_EQ(test, flushes[1], 1);
	KUNIT_EXPECT_EQ(test, lazyfree[0], 256);
	KUNIT_EXPECT_EQ(test, lazyfree[1], 256);
	KUNIT_EXPECT_EQ(test, writes[0], 2 * 256);
	KUNIT_EXPECT_EQ(test, writes[1], 2 * 256);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 512);
	expect_lru_ok(test);
}

/* The old loop's `break`: a large folio it cannot lock ends the walk of
 * its PTE table. The batched mode trylocks only to split or to clear
 * PG_dirty, so there the same clean folio, wholly covered, is lazyfreed. */
static void split_mode_stops_at_a_folio_it_cannot_split(struct kunit *test)
{
	static const enum lazyfree_mode modes[] = { LAZYFREE_SPLIT, LAZYFREE_BATCHED };

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	for (int m = 0; m < 2; m++) {
		unsigned long addr = A + m * PMD_SIZE, lazyfree = ev(PGLAZYFREE);
		struct folio *locked;

		lazyfree_mode = modes[m];
		test_map_and_fill(test, t.mm, addr, 4 * K64, 0x5a);
		locked = mapped_folio(addr + K64);
		folio_set_locked(locked);
		/* Folios 0 and 1 whole, half of folio 2; then folio 3. */
		KUNIT_EXPECT_EQ(test, do_madvise(t.mm, addr, 2 * K64 + K64 / 2, MADV_FREE), 0);
		KUNIT_EXPECT_EQ(test, do_madvise(t.mm, addr + 3 * K64, K64, MADV_FREE), 0);
		folio_clear_locked(locked);
		KUNIT_EXPECT_EQ(test, folio_order(locked), 4);
		if (modes[m] == LAZYFREE_SPLIT) {
			/* folio 0 split and lazyfreed, the walk broke at folio 1
			 * (folio 2 untouched); folio 3 split and lazyfreed */
			KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 16 + 16);
			KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(locked));
			KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(addr)), 0);
			KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(addr + 2 * K64)), 4);
			KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(mapped_folio(addr + 2 * K64)));
		} else {
			/* folios 0, 1, 3 whole, folio 2 split and half lazyfreed */
			KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 3 * 16 + 8);
			KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(locked));
			KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(addr)), 4);
			KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(addr + 2 * K64)), 0);
		}
	}
	expect_lru_ok(test);
}

/* --- fidelity: which folios MADV_FREE skips --------------------------------------------- */

/* Linux's folio_pte_batch ignores the write bit: a read-only PTE inside
 * a wholly covered folio does not end the batch, so there is no split. */
static void write_protected_pte_does_not_break_the_batch(struct kunit *test)
{
	unsigned long splits = node_split_count(t.node), lazyfree = ev(PGLAZYFREE);
	pte_t *ptep;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, K64, 0x5a);
	ptep = test_pte_alloc(t.mm, A + 3 * PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	*ptep &= ~(pte_t)_PAGE_RW;
	flush_tlb_range(t.mm, A + 3 * PAGE_SIZE, A + 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_split_count(t.node), splits);
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE) - lazyfree, 16);
	KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(A)), 4);
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	KUNIT_EXPECT_FALSE(test, pte_write(*ptep) || pte_dirty(*ptep) || pte_young(*ptep));
}

/*
 * folio_pte_batch on a 64K folio's 16 PTEs: the run ends at the first PTE
 * that is not the next page with the same flags (NX flipped, then a hole),
 * or at max_nr; any_young and any_dirty see only the PTEs of the run.
 */
static void folio_pte_batch_ends_at_the_first_mismatch_and_ors_its_run(struct kunit *test)
{
	const pte_t young_dirty = _PAGE_ACCESSED | _PAGE_DIRTY;
	bool young, dirty;
	pte_t *ptep, saved[16];
	struct folio *folio;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, K64, 0x5a);
	ptep = test_pte_alloc(t.mm, A);
	folio = mapped_folio(A);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	KUNIT_ASSERT_EQ(test, folio_order(folio), 4);
	for (int i = 0; i < 16; i++) {
		saved[i] = ptep[i];
		ptep[i] &= ~young_dirty;
	}
	ptep[9] |= _PAGE_DIRTY;
	ptep[13] |= _PAGE_ACCESSED;
	KUNIT_EXPECT_EQ(test, folio_pte_batch(folio, ptep, ptep[0], 16, &young, &dirty), 16);
	KUNIT_EXPECT_TRUE(test, young && dirty);
	ptep[11] ^= _PAGE_NX;
	KUNIT_EXPECT_EQ(test, folio_pte_batch(folio, ptep, ptep[0], 16, &young, &dirty), 11);
	KUNIT_EXPECT_TRUE(test, !young && dirty);
	KUNIT_EXPECT_EQ(test, folio_pte_batch(folio, ptep, ptep[0], 9, &young, &dirty), 9);
	KUNIT_EXPECT_TRUE(test, !young && !dirty);
	KUNIT_EXPECT_EQ(test, folio_pte_batch(folio, ptep + 12, ptep[12], 16, &young, &dirty), 4);
	KUNIT_EXPECT_TRUE(test, young && !dirty);
	ptep[5] = 0;
	KUNIT_EXPECT_EQ(test, folio_pte_batch(folio, ptep, ptep[0], 16, NULL, NULL), 5);
	for (int i = 0; i < 16; i++)
		ptep[i] = saved[i];
	flush_tlb_range(t.mm, A, A + K64);
}

/* Linux clears a whole run when any PTE of it is young or dirty, and
 * leaves a run alone (no write, no flush) when none is: one PTE written
 * again after MADV_FREE costs its folio's 16 PTEs (2 writes each) and a
 * flush of that folio's range only (16 pages: below the 33-page ceiling,
 * page by page); a second MADV_FREE of clean, old PTEs costs nothing. */
static void one_dirty_pte_clears_its_whole_run_and_a_clean_run_is_left_alone(struct kunit *test)
{
	unsigned long writes, flush_one, flush_all;
	pte_t *ptep;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, 2 * K64, 0x5a);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A, 2 * K64, MADV_FREE), 0);
	ptep = test_pte_alloc(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	ptep[7] |= _PAGE_DIRTY; /* as the MMU marks a write */
	writes = t.mm->counters[MM_PTE_WRITES];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 2 * 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] - flush_one, 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	for (int i = 0; i < 32; i++)
		KUNIT_EXPECT_FALSE(test, pte_young(ptep[i]) || pte_dirty(ptep[i]));
	writes = t.mm->counters[MM_PTE_WRITES];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], writes);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], flush_one);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	expect_lru_ok(test);
}

/* Linux skips a folio mapped elsewhere only when it is dirty (or in the
 * swap cache): a clean shared folio is lazyfreed, a dirty one is not,
 * and an exclusive dirty one is lazyfreed with PG_dirty cleared. The
 * other mapping is a forked child's (folio_maybe_mapped_shared). */
static void shared_folio_is_skipped_only_when_dirty(struct kunit *test)
{
	struct folio *clean, *dirty, *mine;
	struct mm_struct *child;

	SKIP_WITHOUT_MM(test);
	thp_orders_enabled = 0;
	test_map_and_fill(test, t.mm, A, 3 * PAGE_SIZE, 0x5a);
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, dup_mmap(child, t.mm), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(child, A + 2 * PAGE_SIZE, PAGE_SIZE), 0);
	clean = mapped_folio(A);
	dirty = mapped_folio(A + PAGE_SIZE);
	mine = mapped_folio(A + 2 * PAGE_SIZE);
	folio_set_dirty(dirty);
	folio_set_dirty(mine);
	KUNIT_EXPECT_TRUE(test, folio_maybe_mapped_shared(clean));
	KUNIT_EXPECT_FALSE(test, folio_maybe_mapped_shared(mine));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 3 * PAGE_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(clean));
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(dirty));
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(dirty));
	KUNIT_EXPECT_TRUE(test, pte_dirty(*test_pte_alloc(t.mm, A + PAGE_SIZE)));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mine));
	KUNIT_EXPECT_FALSE(test, folio_test_dirty(mine));
	mm_destroy(child);
	folio_clear_dirty(dirty);
	expect_lru_ok(test);
}

/* A locked PMD-mapped folio inside the range is skipped (Linux:
 * folio_trylock fails): no lazyfree, the leaf keeps young and dirty. */
static void locked_pmd_folio_is_skipped(struct kunit *test)
{
	struct folio *folio;
	pmd_t *pmd;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	pmd = mm_find_pmd(t.mm, A);
	folio = mapped_folio(A);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_FREE), 0);
	folio_clear_locked(folio);
	KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio));
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd) && pmd_dirty(*pmd) && pmd_young(*pmd));
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
}

enum pmd_hold {
	HOLD_LOCK,
	HOLD_REFERENCE,
	HOLD_SHARED,
	NR_HOLDS
};

/* other: a second mm whose PMD maps the folio too, as after fork. */
static void pmd_hold(struct folio *folio, enum pmd_hold hold, bool on, struct mm_struct *other)
{
	if (hold == HOLD_LOCK)
		on ? folio_set_locked(folio) : folio_clear_locked(folio);
	else if (hold == HOLD_REFERENCE)
		on ? folio_get(folio) : folio_put(folio);
	else if (on)
		folio_dup_anon_rmap_pmd(folio, other);
	else
		folio_remove_rmap_pmd(folio, other);
}

/* A PMD leaf only partly inside the range whose folio cannot be split
 * (locked, an extra reference, mapped elsewhere) stays a leaf: no PMD
 * split, no PTE-mapped order-9 folio left behind, nothing lazyfreed. */
static void unsplittable_pmd_folio_keeps_its_leaf(struct kunit *test)
{
	struct mm_struct *other;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	other = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, other);
	for (int hold = 0; hold < NR_HOLDS; hold++) {
		unsigned long addr = A + hold * PMD_SIZE,
			      split9 = t.node->split_count[HPAGE_PMD_ORDER];
		unsigned long tables;
		struct folio *folio;
		pmd_t *pmd;

		test_map_and_fill(test, t.mm, addr, PMD_SIZE, 0x5a);
		tables = t.mm->counters[MM_PGTABLES];
		pmd = mm_find_pmd(t.mm, addr);
		folio = mapped_folio(addr);
		pmd_hold(folio, hold, true, other);
		KUNIT_EXPECT_EQ(test,
				do_madvise(t.mm, addr + PMD_SIZE / 2, PMD_SIZE / 2, MADV_FREE), 0);
		pmd_hold(folio, hold, false, other);
		KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd));
		KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
		KUNIT_EXPECT_EQ(test, t.node->split_count[HPAGE_PMD_ORDER], split9);
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], tables);
		KUNIT_EXPECT_FALSE(test, folio_test_lazyfree(folio));
	}
	mm_destroy(other);
	/* Once nothing holds it, the same call splits PMD and folio. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE / 2, PMD_SIZE / 2, MADV_FREE), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_EQ(test, folio_order(mapped_folio(A)), 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, HPAGE_PMD_NR / 2);
	expect_lru_ok(test);
}

/* __split_huge_pmd invalidates the leaf and flushes its 2 MiB before the
 * PTE table goes in (Linux: pmdp_invalidate), and a dirty leaf makes the
 * folio dirty, as the PTEs may later be cleaned one by one. */
static void pmd_split_invalidates_and_flushes_the_leaf(struct kunit *test)
{
	unsigned long flush_one;
	struct folio *folio;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	folio = mapped_folio(A);
	KUNIT_EXPECT_FALSE(test, folio_test_dirty(folio));
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, split_huge_pmd(t.mm, A + PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] - flush_one, 1);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(folio));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), HPAGE_PMD_NR);
	/* Lazyfree clears PG_dirty again, or reclaim would keep the folio. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0));
}

/* Entries that map the zero page or the huge zero folio have no folio to
 * lazyfree: MADV_FREE leaves them as they are (Linux: vm_normal_folio is
 * NULL; madvise_free_huge_pmd skips is_huge_zero_pmd). */
static void madv_free_leaves_the_zero_pages_alone(struct kunit *test)
{
	unsigned long lazyfree = ev(PGLAZYFREE), writes;
	uint8_t c;
	pmd_t *pmd;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PMD_SIZE + K64, VM_READ | VM_WRITE, 0), A);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A, 1), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + PMD_SIZE, 1), 0);
	pmd = mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && is_huge_zero_pmd(*pmd));
	KUNIT_ASSERT_TRUE(test, is_zero_pfn(pte_pfn(*mm_find_pte(t.mm, A + PMD_SIZE))));
	writes = t.mm->counters[MM_PTE_WRITES];
	for (int mode = 0; mode < 2; mode++) {
		lazyfree_mode = mode ? LAZYFREE_SPLIT : LAZYFREE_BATCHED;
		KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE + K64, MADV_FREE), 0);
	}
	KUNIT_EXPECT_EQ(test, ev(PGLAZYFREE), lazyfree);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], writes);
	KUNIT_EXPECT_TRUE(test, is_huge_zero_pmd(*pmd));
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree + t.node->nr_lru_anon, 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE + K64, 0));
}

/* --- reclaim ------------------------------------------------------------------------------ */

/* The node nearly full of lazyfree folios, three written again: a second
 * range larger than the free memory still faults in, by reclaim. */
static void allocation_under_pressure_reclaims_lazyfree(struct kunit *test)
{
	unsigned long lazy_len, b_len, b = A + 0x10000000ul;

	SKIP_WITHOUT_MM(test);
	lazy_len = ALIGN_DOWN(node_free_pages(t.node) * PAGE_SIZE * 3 / 4, K64);
	test_map_and_fill(test, t.mm, A, lazy_len, 0x44);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, lazy_len, MADV_FREE), 0);
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, fill_user(A + i * 4 * K64, 0x55, K64), 0);
	b_len = ALIGN_UP(node_free_pages(t.node) * PAGE_SIZE + 64 * PAGE_SIZE, K64);
	test_map_and_fill(test, t.mm, b, b_len, 0x66);
	KUNIT_EXPECT_GT(test, ev(PGLAZYFREED), 0);
	KUNIT_EXPECT_GT(test, ev(PGALLOC_RECLAIM), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, b_len, 0x66));
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, test_reads_as(A + i * 4 * K64, K64, 0x55));
	expect_lru_ok(test);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void young_folio_gets_a_second_chance(struct kunit *test)
{
	struct lazyfree_reclaim_stat stat;
	uint8_t c;

	SKIP_WITHOUT_LARGE_FOLIOS(test);
	test_map_and_fill(test, t.mm, A, K64, 0x77);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 0x3000, 1), 0); /* read: young */
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree_stat(t.node, ALL, &stat), 0);
	KUNIT_EXPECT_EQ(test, stat.second_chance, 16);
	KUNIT_EXPECT_NOT_NULL(test, mapped_folio(A));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree_stat(t.node, ALL, &stat), 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0));
}

static struct kunit_case madvise_test_cases[] = {
	KUNIT_CASE(madv_free_then_reclaim_reads_zeros),
	KUNIT_CASE(reclaim_clears_each_entry_once_and_flushes_once_per_batch),
	KUNIT_CASE(rewritten_folios_keep_every_byte),
	KUNIT_CASE(partial_range_splits_folios_at_both_ends),
	KUNIT_CASE(split_after_partial_munmap_frees_unmapped_pieces),
	KUNIT_CASE(pmd_folio_inside_range_is_not_split),
	KUNIT_CASE(pmd_folio_partly_inside_is_split_to_ptes),
	KUNIT_CASE(madvise_follows_linux_argument_rules),
	KUNIT_CASE(dontneed_frees_now_and_keeps_the_vma),
	KUNIT_CASE(batched_free_batches_each_folio_and_flushes_once),
	KUNIT_CASE(split_mode_splits_every_folio_and_flushes_once),
	KUNIT_CASE(both_modes_do_the_same_work_on_4k_folios),
	KUNIT_CASE(split_mode_stops_at_a_folio_it_cannot_split),
	KUNIT_CASE(write_protected_pte_does_not_break_the_batch),
	KUNIT_CASE(folio_pte_batch_ends_at_the_first_mismatch_and_ors_its_run),
	KUNIT_CASE(one_dirty_pte_clears_its_whole_run_and_a_clean_run_is_left_alone),
	KUNIT_CASE(shared_folio_is_skipped_only_when_dirty),
	KUNIT_CASE(locked_pmd_folio_is_skipped),
	KUNIT_CASE(unsplittable_pmd_folio_keeps_its_leaf),
	KUNIT_CASE(pmd_split_invalidates_and_flushes_the_leaf),
	KUNIT_CASE(madv_free_leaves_the_zero_pages_alone),
	KUNIT_CASE(allocation_under_pressure_reclaims_lazyfree),
	KUNIT_CASE(young_folio_gets_a_second_chance),
	{},
};

static struct kunit_suite madvise_test_suite = {
	.name = "madvise",
	.init = madvise_test_init,
	.exit = madvise_test_exit,
	.test_cases = madvise_test_cases,
};
kunit_test_suite(madvise_test_suite);
