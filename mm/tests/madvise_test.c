/*
 * MADV_FREE, MADV_DONTNEED and lazyfree reclaim on a private node and
 * address space: freed memory reads zeros after reclaim, memory written
 * after MADV_FREE keeps every byte, partial ranges split, PMD folios are
 * handled whole, Linux's argument rules, the batching evidence (a 1 MiB
 * range of 64K folios: 256 PTE writes, no split, one flush; the split
 * mode: 16 splits, 256 single-page flushes), reclaim under memory
 * pressure and the young second chance. A = 1 GiB, aligned for all orders.
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

static unsigned long ev(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

/* Return: true if every byte of [addr, addr + len) reads as byte. */
static bool reads_as(unsigned long addr, unsigned long len, uint8_t byte)
{
	static uint8_t buf[PAGE_SIZE];

	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		if (copy_from_user(buf, addr + off, MIN(PAGE_SIZE, len - off)))
			return false;
		for (unsigned long i = 0; i < MIN(PAGE_SIZE, len - off); i++)
			if (buf[i] != byte)
				return false;
	}
	return true;
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

static void map_and_fill(struct kunit *test, unsigned long addr, unsigned long len, int byte)
{
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, addr, len, RW, 0), addr);
	KUNIT_EXPECT_EQ(test, fill_user(addr, byte, len), 0);
}

/* --- semantics ---------------------------------------------------------------------- */

static void madv_free_then_reclaim_reads_zeros(struct kunit *test)
{
	unsigned long lazyfree = ev(PGLAZYFREE), lazyfreed = ev(PGLAZYFREED);

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, 4 * K64, 0x5a);
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
	KUNIT_EXPECT_TRUE(test, reads_as(A, 4 * K64, 0));
	expect_lru_ok(test);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void rewritten_folios_keep_every_byte(struct kunit *test)
{
	uint8_t one = 0x22;

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, 4 * K64, 0x11);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_FREE), 0);
	/* One byte of folio 1, all of folio 3. */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + K64 + 0x5123, &one, 1), 0);
	KUNIT_EXPECT_EQ(test, fill_user(A + 3 * K64, 0x33, K64), 0);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 32);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 2);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
	expect_lru_ok(test);
	KUNIT_EXPECT_TRUE(test, reads_as(A, K64, 0));
	KUNIT_EXPECT_TRUE(test, reads_as(A + K64, 0x5123, 0x11));
	KUNIT_EXPECT_TRUE(test, reads_as(A + K64 + 0x5123, 1, 0x22));
	KUNIT_EXPECT_TRUE(test, reads_as(A + K64 + 0x5124, K64 - 0x5124, 0x11));
	KUNIT_EXPECT_TRUE(test, reads_as(A + 2 * K64, K64, 0));
	KUNIT_EXPECT_TRUE(test, reads_as(A + 3 * K64, K64, 0x33));
}

static void partial_range_splits_folios_at_both_ends(struct kunit *test)
{
	unsigned long splits = ev(THP_SPLIT_PAGE), split4 = t.node->split_count[4];
	unsigned long lazyfree = ev(PGLAZYFREE);

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, 4 * K64, 0x5a);
	/* Second half of folio 0, first half of folio 1. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + K64 / 2, K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE) - splits, 2);
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
	KUNIT_EXPECT_TRUE(test, reads_as(A, K64 / 2, 0x5a));
	KUNIT_EXPECT_TRUE(test, reads_as(A + K64 / 2, K64, 0));
	KUNIT_EXPECT_TRUE(test, reads_as(A + 3 * K64 / 2, 5 * K64 / 2, 0x5a));
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void split_after_partial_munmap_frees_unmapped_pieces(struct kunit *test)
{
	unsigned long free_before;

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, K64, 0x5a);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 0x4000, 0x4000), 0); /* 4 pages gone */
	free_before = node_free_pages(t.node);
	/* The folio is only partly mapped: split, its 4 unmapped pages freed. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 0x4000, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node) - free_before, 4);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 4);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 8);
	expect_lru_ok(test);
	KUNIT_EXPECT_TRUE(test, reads_as(A + 0x8000, K64 - 0x8000, 0x5a));
}

static void pmd_folio_inside_range_is_not_split(struct kunit *test)
{
	unsigned long splits = ev(THP_SPLIT_PAGE);
	pmd_t *pmd;

	SKIP_WITHOUT_MM(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	map_and_fill(test, A, PMD_SIZE, 0x5a);
	pmd = mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && pmd_leaf(*pmd));
	KUNIT_EXPECT_TRUE(test, pmd_dirty(*pmd) && pmd_young(*pmd));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE), splits);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd) && !pmd_dirty(*pmd) && !pmd_young(*pmd));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR);
	KUNIT_EXPECT_TRUE(test, pmd_none(*pmd));
	KUNIT_EXPECT_TRUE(test, reads_as(A, PMD_SIZE, 0));
}

static void pmd_folio_partly_inside_is_split_to_ptes(struct kunit *test)
{
	unsigned long split9 = t.node->split_count[HPAGE_PMD_ORDER];

	SKIP_WITHOUT_MM(test);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	map_and_fill(test, A, PMD_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PMD_SIZE / 2, PMD_SIZE / 2, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.node->split_count[HPAGE_PMD_ORDER] - split9, 1);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, HPAGE_PMD_NR / 2);
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), HPAGE_PMD_NR / 2);
	KUNIT_EXPECT_TRUE(test, reads_as(A, PMD_SIZE / 2, 0x5a));
	KUNIT_EXPECT_TRUE(test, reads_as(A + PMD_SIZE / 2, PMD_SIZE / 2, 0));
}

static void madvise_follows_linux_argument_rules(struct kunit *test)
{
	unsigned long lazyfree = ev(PGLAZYFREE);

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, K64, 0x5a);
	map_and_fill(test, A + 2 * K64, K64, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 1, PAGE_SIZE, MADV_FREE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PAGE_SIZE, 3), -EINVAL);
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

	SKIP_WITHOUT_MM(test);
	free_before = node_free_pages(t.node);
	map_and_fill(test, A, 16 * K64, 0x5a);
	flushes = t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(
		test, t.mm->counters[MM_TLB_FLUSH_ALL] + t.mm->counters[MM_TLB_FLUSH_ONE] - flushes,
		1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free_before);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 0);
	KUNIT_EXPECT_NOT_NULL(test, find_vma(t.mm, A));
	KUNIT_EXPECT_TRUE(test, reads_as(A, 16 * K64, 0));
}

/* --- batching evidence ------------------------------------------------------------------ */

static void batched_free_writes_each_pte_once_and_flushes_once(struct kunit *test)
{
	unsigned long writes, splits = ev(THP_SPLIT_PAGE), flush_all, flush_one;

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, 16 * K64, 0x5a);
	writes = t.mm->counters[MM_PTE_WRITES];
	flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES] - writes, 256);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE), splits);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL] - flush_all, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], flush_one);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 16);
}

static void split_mode_splits_every_folio_and_flushes_per_page(struct kunit *test)
{
	unsigned long splits = ev(THP_SPLIT_PAGE), flush_all, flush_one;

	SKIP_WITHOUT_MM(test);
	lazyfree_mode = LAZYFREE_SPLIT;
	map_and_fill(test, A, 16 * K64, 0x5a);
	flush_all = t.mm->counters[MM_TLB_FLUSH_ALL];
	flush_one = t.mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 16 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, ev(THP_SPLIT_PAGE) - splits, 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] - flush_one, 256);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 256);
	expect_lru_ok(test);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 256);
	KUNIT_EXPECT_TRUE(test, reads_as(A, 16 * K64, 0));
}

/* --- reclaim ------------------------------------------------------------------------------ */

/* The node nearly full of lazyfree folios, three written again: a second
 * range larger than the free memory still faults in, by reclaim. */
static void allocation_under_pressure_reclaims_lazyfree(struct kunit *test)
{
	unsigned long lazy_len, b_len, b = A + 0x10000000ul;

	SKIP_WITHOUT_MM(test);
	lazy_len = ALIGN_DOWN(node_free_pages(t.node) * PAGE_SIZE * 3 / 4, K64);
	map_and_fill(test, A, lazy_len, 0x44);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, lazy_len, MADV_FREE), 0);
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, fill_user(A + i * 4 * K64, 0x55, K64), 0);
	b_len = ALIGN_UP(node_free_pages(t.node) * PAGE_SIZE + 64 * PAGE_SIZE, K64);
	map_and_fill(test, b, b_len, 0x66);
	KUNIT_EXPECT_GT(test, ev(PGLAZYFREED), 0);
	KUNIT_EXPECT_GT(test, ev(PGALLOC_RECLAIM), 0);
	KUNIT_EXPECT_TRUE(test, reads_as(b, b_len, 0x66));
	for (int i = 0; i < 3; i++)
		KUNIT_EXPECT_TRUE(test, reads_as(A + i * 4 * K64, K64, 0x55));
	expect_lru_ok(test);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void young_folio_gets_a_second_chance(struct kunit *test)
{
	struct lazyfree_reclaim_stat stat;
	uint8_t c;

	SKIP_WITHOUT_MM(test);
	map_and_fill(test, A, K64, 0x77);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 0x3000, 1), 0); /* read: young */
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree_stat(t.node, ALL, &stat), 0);
	KUNIT_EXPECT_EQ(test, stat.second_chance, 16);
	KUNIT_EXPECT_NOT_NULL(test, mapped_folio(A));
	KUNIT_EXPECT_TRUE(test, folio_test_lazyfree(mapped_folio(A)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree_stat(t.node, ALL, &stat), 16);
	KUNIT_EXPECT_TRUE(test, reads_as(A, K64, 0));
}

static struct kunit_case madvise_test_cases[] = {
	KUNIT_CASE(madv_free_then_reclaim_reads_zeros),
	KUNIT_CASE(rewritten_folios_keep_every_byte),
	KUNIT_CASE(partial_range_splits_folios_at_both_ends),
	KUNIT_CASE(split_after_partial_munmap_frees_unmapped_pieces),
	KUNIT_CASE(pmd_folio_inside_range_is_not_split),
	KUNIT_CASE(pmd_folio_partly_inside_is_split_to_ptes),
	KUNIT_CASE(madvise_follows_linux_argument_rules),
	KUNIT_CASE(dontneed_frees_now_and_keeps_the_vma),
	KUNIT_CASE(batched_free_writes_each_pte_once_and_flushes_once),
	KUNIT_CASE(split_mode_splits_every_folio_and_flushes_per_page),
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
