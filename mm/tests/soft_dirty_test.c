/*
 * Soft-dirty tracking and /proc/PID/clear_refs' walk on a private node:
 * a new mapping reads soft-dirty, clear_refs 4 clears it and
 * write-protects, the next write is one fault that reuses the folio and
 * sets the bit on that one entry, a read sets nothing; mprotect and a
 * THP split keep it, mremap as Linux, a merge keeps it; a PMD leaf is cleared in place; clear_refs
 * 1 makes a large folio old in one batch, without a flush; 5 resets the RSS high-water mark; the
 * written values are parsed as Linux does. Accesses go through copy_to_user & co., so the kernel
 * takes real #PFs and the host its software MMU's. A = 1 GiB, aligned for every order.
 */
#include <ktest.h>
#include <syscalls.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)
#define MAYMOVE 1
#define FIXED 2

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct task_struct *task;
static unsigned long saved_orders;

static int soft_dirty_test_init(struct kunit *test)
{
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	saved_orders = thp_orders_enabled;
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	task = test_task(t.mm);
	return 0;
}

static void soft_dirty_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
}

static int touch(unsigned long addr)
{
	char c = 1;

	return copy_to_user(addr, &c, 1);
}

static int peek(unsigned long addr)
{
	char c;

	return copy_from_user(&c, addr, 1);
}

static pte_t pte_at(unsigned long addr)
{
	pte_t *pte = mm_find_pte(t.mm, addr);

	return pte ? *pte : 0;
}

static pmd_t pmd_at(unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(t.mm, addr);

	return pmd ? *pmd : 0;
}

static unsigned long counter(enum mm_counter c)
{
	return t.mm->counters[c];
}

/* A 64K-folio mapping of 2 MiB at A, its first folio written. */
static bool map_written_64k(struct kunit *test)
{
	if (test_skip_without_thp(test) || 4 > MAX_PAGE_ORDER)
		return false;
	thp_orders_enabled = 1ul << 4;
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, A, PMD_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, touch(A), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(t.mm, A), 4);
	return !test->failed && !test->skipped;
}

static void new_mapping_is_soft_dirty_until_clear_refs_4(struct kunit *test)
{
	unsigned long flush_all;

	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A)->vm_flags & VM_SOFTDIRTY);
	KUNIT_ASSERT_EQ(test, touch(A), 0);
	KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(A)));
	KUNIT_EXPECT_TRUE(test, pte_write(pte_at(A)));
	flush_all = counter(MM_TLB_FLUSH_ALL);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A)->vm_flags & VM_SOFTDIRTY);
	KUNIT_EXPECT_FALSE(test, pte_soft_dirty(pte_at(A)));
	KUNIT_EXPECT_FALSE(test, pte_write(pte_at(A)));
	KUNIT_EXPECT_TRUE(test, pte_dirty(pte_at(A))); /* the data is still unsaved */
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ALL), flush_all + 1);
	/* A new mapping after it is soft-dirty again. */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 8 * P, P, RW, 0), A + 8 * P);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A + 8 * P)->vm_flags & VM_SOFTDIRTY);
}

/* The write after clear_refs 4 is one fault that reuses the folio (no
 * copy, no flush) and makes only the written PTE writable and
 * soft-dirty; a second write does not fault. */
static void write_after_clear_refs_4_reuses_the_folio_for_one_pte(struct kunit *test)
{
	unsigned long faults, flushes, writes, pfn;
	struct folio *folio;

	if (!map_written_64k(test))
		return;
	folio = test_mapped_folio(t.mm, A);
	pfn = folio_pfn(folio);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	faults = counter(MM_FAULTS);
	flushes = counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL);
	writes = counter(MM_PTE_WRITES);
	KUNIT_ASSERT_EQ(test, touch(A + 3 * P), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_FAULTS), faults + 1);
	KUNIT_EXPECT_EQ(test, counter(MM_PTE_WRITES), writes + 1);
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL), flushes);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 3 * P) == folio);
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + 3 * P)), pfn + 3);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	for (unsigned long i = 0; i < 16; i++) {
		KUNIT_EXPECT_EQ(test, pte_soft_dirty(pte_at(A + i * P)), i == 3);
		KUNIT_EXPECT_EQ(test, pte_write(pte_at(A + i * P)), i == 3);
	}
	KUNIT_ASSERT_EQ(test, touch(A + 3 * P + 8), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_FAULTS), faults + 1);
	/* The run still batches: soft-dirty and write may differ in it. */
	KUNIT_EXPECT_EQ(
		test, folio_pte_batch(folio, mm_find_pte(t.mm, A), pte_at(A), 16, NULL, NULL), 16u);
}

static void read_after_clear_refs_4_sets_nothing(struct kunit *test)
{
	unsigned long faults;

	if (!map_written_64k(test))
		return;
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	faults = counter(MM_FAULTS);
	KUNIT_ASSERT_EQ(test, peek(A + 5 * P), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_FAULTS), faults);
	KUNIT_EXPECT_FALSE(test, pte_soft_dirty(pte_at(A + 5 * P)));
	/* An untouched page read maps the zero page, not soft-dirty. */
	KUNIT_ASSERT_EQ(test, peek(A + 64 * P), 0);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(pte_pfn(pte_at(A + 64 * P))));
	KUNIT_EXPECT_FALSE(test, pte_soft_dirty(pte_at(A + 64 * P)));
	/* Its first write maps a folio: soft-dirty. */
	KUNIT_ASSERT_EQ(test, touch(A + 64 * P), 0);
	KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(A + 64 * P)));
}

static void mprotect_keeps_soft_dirty_bits_and_flags(struct kunit *test)
{
	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, touch(A), 0);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, P, VM_READ), 0);
	KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(A)));
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A)->vm_flags & VM_SOFTDIRTY);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, P, RW), 0);
	KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(A)));
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	/* Cleared, then split and merged back: still clear, no bit set. */
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + P, P, VM_READ), 0);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A + P)->vm_flags & VM_SOFTDIRTY);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + P, P, RW), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A)->vm_flags & VM_SOFTDIRTY);
	KUNIT_EXPECT_FALSE(test, pte_soft_dirty(pte_at(A)));
}

/* A VMA merged with a neighbour that is soft-dirty is soft-dirty whole
 * (Linux: VM_SOFTDIRTY is sticky). */
static void merging_keeps_vm_softdirty(struct kunit *test)
{
	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 2 * P, 2 * P, VM_READ, 0), A + 2 * P);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + 2 * P, 2 * P, RW), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A)->vm_flags & VM_SOFTDIRTY);
}

/* mremap as Linux: entries moved one by one are marked soft-dirty
 * (move_soft_dirty_pte), a whole PTE table moved (both ends PMD-aligned:
 * move_normal_pmd) keeps its entries' bits; the new VMA has the old
 * one's flags (copy_vma). */
static void mremap_marks_entries_it_moves_one_by_one(struct kunit *test)
{
	const unsigned long to = A + 4 * PMD_SIZE, shifted = A + 8 * PMD_SIZE + 16 * P;
	const unsigned long whole[6] = { A, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, to, 0 };
	const unsigned long one_by_one[6] = { to, PMD_SIZE, PMD_SIZE, MAYMOVE | FIXED, shifted, 0 };
	struct folio *folio;

	if (!map_written_64k(test))
		return;
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_EQ(test, sys_mremap(task, whole), (long)to);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, to) == folio);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_FALSE(test, pte_soft_dirty(pte_at(to + i * P)));
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, to)->vm_flags & VM_SOFTDIRTY);
	KUNIT_ASSERT_EQ(test, sys_mremap(task, one_by_one), (long)shifted);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, shifted) == folio);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(shifted + i * P)));
}

/* soft-dirty's test_merge: after clear_refs 4 a new VMA (soft-dirty) moved
 * beside a clean one merges with it, and the merged VMA is soft-dirty
 * throughout (Linux 7.3: VM_SOFTDIRTY is in VM_IGNORE_MERGE and
 * VM_STICKY). */
static void a_new_vma_merged_into_a_clean_one_makes_it_soft_dirty(struct kunit *test)
{
	const unsigned long move[6] = { A + 3 * P, P, P, MAYMOVE | FIXED, A + 2 * P, 0 };

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + P, P, RW, 0), A + P);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_FALSE(test, find_vma(t.mm, A + P)->vm_flags & VM_SOFTDIRTY);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 3 * P, P, RW, 0), A + 3 * P);
	KUNIT_ASSERT_EQ(test, sys_mremap(task, move), (long)(A + 2 * P));
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + P)->vm_end, A + 3 * P);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A + P)->vm_flags & VM_SOFTDIRTY);
}

/* A PMD leaf: clear_refs 4 rewrites its one entry (one invlpg for the
 * invalidation, then the mm's flush); the next write reuses the THP
 * whole; a split hands the PMD's bit to all 512 PTEs. */
static void pmd_leaf_soft_dirty_is_cleared_reused_and_split(struct kunit *test)
{
	unsigned long flush_one, flush_all, faults;
	struct folio *folio;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PMD_SIZE, RW, 0), A);
	KUNIT_ASSERT_EQ(test, touch(A), 0);
	KUNIT_ASSERT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_EXPECT_TRUE(test, pmd_soft_dirty(pmd_at(A)));
	flush_one = counter(MM_TLB_FLUSH_ONE);
	flush_all = counter(MM_TLB_FLUSH_ALL);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ONE), flush_one + 1);
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ALL), flush_all + 1);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)));
	KUNIT_EXPECT_FALSE(test, pmd_soft_dirty(pmd_at(A)));
	KUNIT_EXPECT_FALSE(test, pmd_write(pmd_at(A)));
	faults = counter(MM_FAULTS);
	KUNIT_ASSERT_EQ(test, touch(A + 77 * P), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_FAULTS), faults + 1);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A) == folio);
	KUNIT_EXPECT_TRUE(test, pmd_soft_dirty(pmd_at(A)) && pmd_write(pmd_at(A)));
	KUNIT_ASSERT_EQ(test, split_huge_pmd(t.mm, A + P), 0);
	for (unsigned long i = 0; i < PTRS_PER_TABLE; i++)
		if (!pte_soft_dirty(pte_at(A + i * P)))
			kunit_fail(test, __FILE__, __LINE__,
				   "PTE %lu of the split leaf is not soft-dirty", i);
	/* Cleared before the split: no PTE is. */
	KUNIT_ASSERT_EQ(test, touch(A + PMD_SIZE), 0);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_EQ(test, split_huge_pmd(t.mm, A + PMD_SIZE + P), 0);
	for (unsigned long i = 0; i < PTRS_PER_TABLE; i++)
		if (pte_soft_dirty(pte_at(A + PMD_SIZE + i * P)))
			kunit_fail(test, __FILE__, __LINE__,
				   "PTE %lu of the cleared leaf is soft-dirty", i);
}

/* clear_refs 1 on a PTE-mapped 64K folio: its 16 PTEs old in one batch
 * (16 PTE writes), PG_referenced gone, and no TLB flush (x86 Linux). */
static void clear_refs_1_makes_a_64k_folio_old_in_one_batch(struct kunit *test)
{
	unsigned long flushes, writes;
	struct folio *folio;

	if (!map_written_64k(test))
		return;
	folio = test_mapped_folio(t.mm, A);
	folio_set_referenced(folio);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, pte_young(pte_at(A + i * P)));
	flushes = counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL);
	writes = counter(MM_PTE_WRITES);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_ALL), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_PTE_WRITES), writes + 16);
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL), flushes);
	for (unsigned long i = 0; i < 16; i++) {
		KUNIT_EXPECT_FALSE(test, pte_young(pte_at(A + i * P)));
		KUNIT_EXPECT_TRUE(test, pte_soft_dirty(pte_at(A + i * P)));
	}
	KUNIT_EXPECT_FALSE(test, folio_test_referenced(folio));
	/* Nothing young is left: a second pass writes nothing. */
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_ANON), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_PTE_WRITES), writes + 16);
}

/* A 2 MiB THP: by its PMD, one write; split into 512 PTEs, one batch of
 * 512 writes; never a flush. */
static void clear_refs_1_makes_a_2m_folio_old_by_pmd_or_one_batch(struct kunit *test)
{
	unsigned long flushes, writes;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * PMD_SIZE, RW, 0), A);
	KUNIT_ASSERT_EQ(test, touch(A), 0);
	KUNIT_ASSERT_EQ(test, touch(A + PMD_SIZE), 0);
	KUNIT_ASSERT_EQ(test, split_huge_pmd(t.mm, A + PMD_SIZE + P), 0);
	flushes = counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL);
	writes = counter(MM_PTE_WRITES);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_ALL), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_PTE_WRITES), writes + 1 + PTRS_PER_TABLE);
	KUNIT_EXPECT_EQ(test, counter(MM_TLB_FLUSH_ONE) + counter(MM_TLB_FLUSH_ALL), flushes);
	KUNIT_EXPECT_FALSE(test, pmd_young(pmd_at(A)));
	for (unsigned long i = 0; i < PTRS_PER_TABLE; i++)
		if (pte_young(pte_at(A + PMD_SIZE + i * P)))
			kunit_fail(test, __FILE__, __LINE__, "PTE %lu still young", i);
}

/* 3 is for file pages, and Folium maps none. */
static void clear_refs_3_leaves_anonymous_pages_alone(struct kunit *test)
{
	unsigned long writes;

	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, touch(A), 0);
	writes = counter(MM_PTE_WRITES);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_MAPPED), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_PTE_WRITES), writes);
	KUNIT_EXPECT_TRUE(test, pte_young(pte_at(A)));
}

static void clear_refs_5_resets_the_rss_high_water_mark(struct kunit *test)
{
	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 16 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, fill_user(A, 1, 16 * P), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A + 8 * P, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, counter(MM_ANONPAGES), 8);
	KUNIT_EXPECT_EQ(test, get_mm_hiwater_rss(t.mm), 16);
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_MM_HIWATER_RSS), 0);
	KUNIT_EXPECT_EQ(test, get_mm_hiwater_rss(t.mm), 8);
}

static int parse(const char *s)
{
	enum clear_refs_types type = 0;
	int err = clear_refs_parse(s, strlen(s), &type);

	return err ? err : (int)type;
}

/* Linux's clear_refs_write: kstrtoint of the first 12 bytes, stripped. */
static void clear_refs_values_are_parsed_as_linux(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, parse("4"), 4);
	KUNIT_EXPECT_EQ(test, parse("1\n"), 1);
	KUNIT_EXPECT_EQ(test, parse(" \t5 \n"), 5);
	KUNIT_EXPECT_EQ(test, parse("+2"), 2);
	KUNIT_EXPECT_EQ(test, parse("0003"), 3);
	KUNIT_EXPECT_EQ(test, parse("4           x"), 4); /* byte 13 is never read */
	KUNIT_EXPECT_EQ(test, parse("0"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("6"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("-1"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("4x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("0x4"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("4 4"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("-"), -EINVAL);
	KUNIT_EXPECT_EQ(test, parse("99999999999"), -ERANGE);
	KUNIT_EXPECT_EQ(test, parse("-2147483649"), -ERANGE);
	KUNIT_EXPECT_EQ(test,
			clear_refs_parse("4\0"
					 "9",
					 3, &(enum clear_refs_types){ 0 }),
			0);
	KUNIT_EXPECT_EQ(test, clear_refs(t.mm, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, clear_refs(t.mm, CLEAR_REFS_LAST), -EINVAL);
}

static struct kunit_case soft_dirty_test_cases[] = {
	KUNIT_CASE(new_mapping_is_soft_dirty_until_clear_refs_4),
	KUNIT_CASE(write_after_clear_refs_4_reuses_the_folio_for_one_pte),
	KUNIT_CASE(read_after_clear_refs_4_sets_nothing),
	KUNIT_CASE(mprotect_keeps_soft_dirty_bits_and_flags),
	KUNIT_CASE(merging_keeps_vm_softdirty),
	KUNIT_CASE(mremap_marks_entries_it_moves_one_by_one),
	KUNIT_CASE(a_new_vma_merged_into_a_clean_one_makes_it_soft_dirty),
	KUNIT_CASE(pmd_leaf_soft_dirty_is_cleared_reused_and_split),
	KUNIT_CASE(clear_refs_1_makes_a_64k_folio_old_in_one_batch),
	KUNIT_CASE(clear_refs_1_makes_a_2m_folio_old_by_pmd_or_one_batch),
	KUNIT_CASE(clear_refs_3_leaves_anonymous_pages_alone),
	KUNIT_CASE(clear_refs_5_resets_the_rss_high_water_mark),
	KUNIT_CASE(clear_refs_values_are_parsed_as_linux),
	{},
};

static struct kunit_suite soft_dirty_test_suite = {
	.name = "soft_dirty",
	.init = soft_dirty_test_init,
	.exit = soft_dirty_test_exit,
	.test_cases = soft_dirty_test_cases,
};
kunit_test_suite(soft_dirty_test_suite);
