/*
 * mprotect's change of the entries on a private node (Linux:
 * change_pte_range and change_huge_pmd): a large folio's PTEs change as
 * one batch (6.17) or one by one (mprotect_batched off); a batch stops
 * where the write bit or soft-dirty bit changes; RW comes back on
 * mprotect(PROT_READ|PROT_WRITE) for exactly the entries a write fault
 * would reuse (anon-exclusive, no soft-dirty fault pending: Linux's
 * can_change_pte_writable), page by page inside a batch; a batch with a
 * dirty entry comes back dirty whole. Example: a 64K folio written, then
 * mprotect(PROT_READ) and back: one batch each way, all 16 PTEs writable
 * again and the next write takes no fault.
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)
#define FOLIO 0x10000ul /* 64K: order 4 */

static struct test_mm t;
static struct mm_struct *prev_mm, *child;
static unsigned long saved_orders;

static int mprotect_test_init(struct kunit *test)
{
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	saved_orders = thp_orders_enabled;
	child = NULL;
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	return 0;
}

static void mprotect_test_exit(struct kunit *test)
{
	mprotect_batched = true;
	thp_orders_enabled = saved_orders;
	switch_mm(prev_mm);
	if (child)
		mm_destroy(child);
	test_mm_destroy(test, &t);
}

static pte_t pte_at(unsigned long addr)
{
	return *mm_find_pte(t.mm, addr);
}

/* How many of the n PTEs from addr have bit set. */
static unsigned int ptes_with(unsigned long addr, unsigned int n, pte_t bit)
{
	unsigned int count = 0;

	for (unsigned int i = 0; i < n; i++)
		count += !!(pte_at(addr + i * P) & bit);
	return count;
}

/* Two 64K folios at A, written (so dirty, writable, anon-exclusive). */
static bool map_two_folios(struct kunit *test)
{
	if (!t.mm || test_skip_without_thp(test))
		return false;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 2 * FOLIO, 0x5c);
	thp_orders_enabled = saved_orders;
	return test_mapped_order(t.mm, A) == 4 && test_mapped_order(t.mm, A + FOLIO) == 4;
}

static void a_folio_changes_in_one_batch_or_entry_by_entry(struct kunit *test)
{
	static const bool batched[] = { true, false };

	if (!map_two_folios(test))
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(batched); i++) {
		mprotect_batched = batched[i];
		t.mm->counters[MM_MPROTECT_BATCHES] = 0;
		KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, VM_READ), 0);
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MPROTECT_BATCHES], batched[i] ? 2 : 32);
		KUNIT_EXPECT_EQ(test, ptes_with(A, 32, _PAGE_RW), 0);
		KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, RW), 0);
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MPROTECT_BATCHES], batched[i] ? 4 : 64);
		KUNIT_EXPECT_EQ(test, ptes_with(A, 32, _PAGE_RW), 32);
	}
	mprotect_batched = true;
	/* A range ending inside a folio ends the batch there. */
	t.mm->counters[MM_MPROTECT_BATCHES] = 0;
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, FOLIO + 3 * P, VM_READ), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MPROTECT_BATCHES], 2);
	KUNIT_EXPECT_TRUE(test, pte_write(pte_at(A + FOLIO + 3 * P)));
}

/* Write made writable again without a fault: the folio is still this
 * mm's alone, as do_wp_page would decide. */
static void read_write_again_needs_no_write_fault(struct kunit *test)
{
	unsigned long faults;

	if (!map_two_folios(test))
		return;
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, VM_READ), 0);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, RW | VM_EXEC), 0);
	faults = t.mm->counters[MM_FAULTS];
	KUNIT_ASSERT_EQ(test, fill_user(A, 0x5d, 2 * FOLIO), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_FAULTS], faults);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * FOLIO, 0x5d));
}

/* After fork no page is exclusive: mprotect leaves every PTE read-only
 * (a write must copy). Pages this mm reused since are exclusive again and
 * become writable: the batch goes back in runs that agree. */
static void only_anon_exclusive_pages_become_writable(struct kunit *test)
{
	struct folio *folio;

	if (!map_two_folios(test))
		return;
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, dup_mmap(child, t.mm), 0);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, ptes_with(A, 32, _PAGE_RW), 0);
	/* Pages 4..7 exclusive again, as a reuse would leave them. */
	for (unsigned int i = 4; i < 8; i++)
		SetPageAnonExclusive(folio_page(folio, i));
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, VM_READ), 0);
	t.mm->counters[MM_MPROTECT_BATCHES] = 0;
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 2 * FOLIO, RW), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MPROTECT_BATCHES], 2);
	KUNIT_EXPECT_EQ(test, ptes_with(A, 32, _PAGE_RW), 4);
	for (unsigned int i = 4; i < 8; i++)
		KUNIT_EXPECT_TRUE(test, pte_write(pte_at(A + i * P)));
	/* A write elsewhere still copies: the child's bytes stay. */
	KUNIT_ASSERT_EQ(test, fill_user(A + FOLIO, 0x77, P), 0);
	KUNIT_EXPECT_FALSE(test, test_mapped_folio(t.mm, A + FOLIO) ==
					 test_mapped_folio(child, A + FOLIO));
	for (unsigned int i = 4; i < 8; i++)
		ClearPageAnonExclusive(folio_page(folio, i));
}

/* A batch stops where the write bit changes (FPB_RESPECT_WRITE), and an
 * entry waiting for its soft-dirty fault stays read-only (Linux:
 * pte_needs_soft_dirty_wp), so the tracker sees the next write. The
 * entries are clean here: a dirty one would make its batch soft-dirty
 * (next test). */
static void write_and_soft_dirty_bits_split_a_batch(struct kunit *test)
{
	if (!map_two_folios(test))
		return;
	KUNIT_ASSERT_EQ(test, clear_refs(t.mm, CLEAR_REFS_SOFT_DIRTY), 0);
	KUNIT_ASSERT_EQ(test, fill_user(A + 2 * P, 0x11, P), 0); /* one soft-dirty fault */
	KUNIT_ASSERT_EQ(test, ptes_with(A, 16, _PAGE_RW), 1);
	for (unsigned long a = A; a < A + FOLIO; a += P)
		if (a != A + 2 * P)
			*mm_find_pte(t.mm, a) &= ~_PAGE_DIRTY;
	t.mm->counters[MM_MPROTECT_BATCHES] = 0;
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, FOLIO, RW | VM_EXEC), 0);
	/* [0, 2) read-only, [2] writable and soft-dirty, [3, 16) read-only */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_MPROTECT_BATCHES], 3);
	KUNIT_EXPECT_EQ(test, ptes_with(A, 16, _PAGE_RW), 1);
	KUNIT_EXPECT_TRUE(test, pte_write(pte_at(A + 2 * P)));
	KUNIT_EXPECT_EQ(test, ptes_with(A, 16, _PAGE_SOFT_DIRTY), 1);
}

/* Linux's modify_prot_start_ptes ORs the batch's dirty bits into its
 * first entry with pte_mkdirty, which on x86 sets soft-dirty too: a batch
 * with an entry the CPU made dirty comes back dirty and soft-dirty whole
 * (mmdiff's softdirty-mprotect-64K on Linux 7.3). Entry by entry each
 * keeps its own bits. */
static void a_dirty_entry_makes_its_batch_dirty(struct kunit *test)
{
	static const bool batched[] = { true, false };

	for (unsigned int i = 0; i < ARRAY_SIZE(batched); i++) {
		if (!map_two_folios(test))
			return;
		for (unsigned long a = A; a < A + FOLIO; a += P)
			*mm_find_pte(t.mm, a) &= ~(_PAGE_DIRTY | _PAGE_SOFT_DIRTY);
		*mm_find_pte(t.mm, A + 5 * P) |= _PAGE_DIRTY;
		mprotect_batched = batched[i];
		KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, FOLIO, VM_READ), 0);
		KUNIT_EXPECT_EQ(test, ptes_with(A, 16, _PAGE_DIRTY), batched[i] ? 16 : 1);
		KUNIT_EXPECT_EQ(test, ptes_with(A, 16, _PAGE_SOFT_DIRTY), batched[i] ? 16 : 0);
		KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * FOLIO), 0);
	}
}

/* A PMD-mapped THP: read-only, then writable again as one entry (Linux:
 * change_huge_pmd with can_change_pmd_writable); split at the range's
 * ends first when the range cuts it. */
static void a_pmd_leaf_becomes_writable_again_when_exclusive(struct kunit *test)
{
	if (!t.mm || test_skip_without_thp(test))
		return;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x2a);
	KUNIT_ASSERT_TRUE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, PMD_SIZE, VM_READ), 0);
	KUNIT_EXPECT_FALSE(test, pmd_write(*mm_find_pmd(t.mm, A)));
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, PMD_SIZE, RW), 0);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, pmd_write(*mm_find_pmd(t.mm, A)));
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + P, P, VM_READ), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*mm_find_pmd(t.mm, A)));
	KUNIT_EXPECT_FALSE(test, pte_write(pte_at(A + P)));
	KUNIT_EXPECT_TRUE(test, pte_write(pte_at(A + 2 * P)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PMD_SIZE, 0x2a));
}

/* The zero page is never made writable: a read fault's entry stays
 * read-only through mprotect(RW), and the write still faults in a page. */
static void the_zero_page_stays_read_only(struct kunit *test)
{
	uint8_t byte;

	if (!t.mm)
		return;
	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, A, 1), 0);
	KUNIT_ASSERT_TRUE(test, is_zero_pfn(pte_pfn(pte_at(A))));
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 4 * P, VM_READ), 0);
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A, 4 * P, RW), 0);
	KUNIT_EXPECT_FALSE(test, pte_write(pte_at(A)));
	KUNIT_ASSERT_EQ(test, fill_user(A, 0x3e, P), 0);
	KUNIT_EXPECT_FALSE(test, is_zero_pfn(pte_pfn(pte_at(A))));
}

static struct kunit_case mprotect_test_cases[] = {
	KUNIT_CASE(a_folio_changes_in_one_batch_or_entry_by_entry),
	KUNIT_CASE(read_write_again_needs_no_write_fault),
	KUNIT_CASE(only_anon_exclusive_pages_become_writable),
	KUNIT_CASE(write_and_soft_dirty_bits_split_a_batch),
	KUNIT_CASE(a_dirty_entry_makes_its_batch_dirty),
	KUNIT_CASE(a_pmd_leaf_becomes_writable_again_when_exclusive),
	KUNIT_CASE(the_zero_page_stays_read_only),
	{},
};

static struct kunit_suite mprotect_test_suite = {
	.name = "mprotect",
	.init = mprotect_test_init,
	.exit = mprotect_test_exit,
	.test_cases = mprotect_test_cases,
};
kunit_test_suite(mprotect_test_suite);
