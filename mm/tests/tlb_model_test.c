/*
 * The host MMU's TLB (arch/host/mmu.c) and the flushes mm/ owes it. First
 * the model: a translation stays cached, stale if its PTE changes, until
 * invlpg of its page, a range or full flush or a switch_mm; a 2 MiB leaf
 * is one entry that an invlpg anywhere inside drops; an entry cached dirty
 * never writes D again (x86's rule); a full set evicts its LRU way. Then
 * mm's flushes against it, each case failing if its flush goes missing: a
 * write after MADV_FREE must reach the PTE so reclaim keeps the folio, and
 * after munmap, MADV_DONTNEED or reclaim no access may reach a freed page.
 * Host only (arch/host/host.mk): it looks into the software TLB. A = 1 GiB.
 */
#include <asm/mmu.h>
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

static int tlb_model_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	saved_mode = lazyfree_mode;
	prev_mm = current_mm;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return 0;
	pgdat_set_lazyfree_reclaim(t.node);
	switch_mm(t.mm);
	thp_orders_enabled = 0; /* one 4 KiB folio per page unless a case says */
	lazyfree_mode = LAZYFREE_BATCHED;
	return 0;
}

static void tlb_model_test_exit(struct kunit *test)
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

/* Return: the byte at addr as an access sees it, or -1 if it faults. */
static int read_byte(unsigned long addr)
{
	uint8_t c;

	return copy_from_user(&c, addr, 1) ? -1 : c;
}

static bool tlb_caches(unsigned long addr)
{
	struct host_tlb_entry e;

	return host_tlb_lookup(addr, &e);
}

/* Return: how many pages of [addr, addr + len) the TLB still covers. */
static unsigned long tlb_cached_pages(unsigned long addr, unsigned long len)
{
	unsigned long n = 0;

	for (unsigned long off = 0; off < len; off += PAGE_SIZE)
		n += tlb_caches(addr + off);
	return n;
}

/* Point addr's PTE at pfn, flags kept, with no flush: what code that
 * forgot its flush leaves behind. Return: the old entry. */
static pte_t repoint_pte(unsigned long addr, unsigned long pfn)
{
	pte_t *ptep = mm_find_pte(t.mm, addr), old = *ptep;

	*ptep = pfn_pte(pfn, old & ~PTE_ADDR_MASK);
	return old;
}

static void restore_pte(unsigned long addr, pte_t old)
{
	*mm_find_pte(t.mm, addr) = old;
	flush_tlb_range(t.mm, addr, addr + PAGE_SIZE);
}

/* A page filled with byte, mapped nowhere: where a repointed PTE leads. */
static struct folio *other_page(int byte)
{
	struct folio *folio = folio_alloc_node(t.node->node_id, GFP_KERNEL, 0);

	if (folio)
		memset(folio_address(folio), byte, PAGE_SIZE);
	return folio;
}

/* --- the model ---------------------------------------------------------------------- */

static void cached_translation_outlives_its_pte_until_invlpg(struct kunit *test)
{
	struct folio *other;
	struct host_tlb_entry e;
	pte_t old;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 2 * PAGE_SIZE, 0x3c);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A + 0x123, &e));
	KUNIT_EXPECT_EQ(test, e.size, PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, e.pfn, folio_pfn(test_mapped_folio(t.mm, A)));
	KUNIT_EXPECT_EQ(test, e.flags & (_PAGE_RW | _PAGE_DIRTY), _PAGE_RW | _PAGE_DIRTY);
	other = other_page(0xbb);
	KUNIT_ASSERT_NOT_NULL(test, other);
	old = repoint_pte(A, folio_pfn(other));
	KUNIT_EXPECT_EQ(test, read_byte(A + 0x123), 0x3c);	 /* the stale entry */
	flush_tlb_range(t.mm, A + PAGE_SIZE, A + 2 * PAGE_SIZE); /* the neighbour's */
	KUNIT_EXPECT_EQ(test, read_byte(A + 0x123), 0x3c);
	flush_tlb_range(t.mm, A, A + PAGE_SIZE);
	KUNIT_EXPECT_FALSE(test, tlb_caches(A));
	KUNIT_EXPECT_EQ(test, read_byte(A + 0x123), 0xbb);
	restore_pte(A, old);
	KUNIT_EXPECT_EQ(test, read_byte(A + 0x123), 0x3c);
	folio_put(other);
}

static void range_flush_drops_its_pages_and_a_full_flush_all(struct kunit *test)
{
	unsigned long dropped;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 64 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 64);
	dropped = host_tlb_stat.dropped;
	flush_tlb_range(t.mm, A + 2 * PAGE_SIZE, A + 5 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, host_tlb_stat.dropped - dropped, 3);
	KUNIT_EXPECT_EQ(test, tlb_cached_pages(A, 64 * PAGE_SIZE), 61);
	KUNIT_EXPECT_TRUE(test, tlb_caches(A + PAGE_SIZE) && tlb_caches(A + 5 * PAGE_SIZE));
	KUNIT_EXPECT_FALSE(test, tlb_caches(A + 2 * PAGE_SIZE) || tlb_caches(A + 4 * PAGE_SIZE));
	/* 34 pages is above the ceiling: a CR3 reload drops everything. */
	flush_tlb_range(t.mm, A + 20 * PAGE_SIZE, A + 54 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 64 * PAGE_SIZE, 0x5a));
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 64);
	flush_tlb_mm(t.mm);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
}

/* An mm that is not active has no entries, and flushes for it reach no
 * TLB (mm_is_active): its accesses must not fill one either. */
static void switch_mm_empties_the_tlb_and_inactive_mms_fill_none(struct kunit *test)
{
	void *p;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 4 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 4);
	switch_mm(NULL);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, A + PAGE_SIZE, true, &p), 0);
	KUNIT_EXPECT_EQ(test, *(uint8_t *)p, 0x5a);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
	KUNIT_EXPECT_EQ(test, read_byte(A), 0x5a);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 1);
	/* A switch to the same tables is still a CR3 write. */
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
}

static void pmd_leaf_is_one_entry_that_invlpg_anywhere_inside_drops(struct kunit *test)
{
	unsigned long hits = host_tlb_stat.hits, misses = host_tlb_stat.misses;
	struct host_tlb_entry e;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	/* Page 0: a miss that faults and a miss that fills; 511 hits. */
	KUNIT_EXPECT_EQ(test, host_tlb_stat.misses - misses, 2);
	KUNIT_EXPECT_EQ(test, host_tlb_stat.hits - hits, HPAGE_PMD_NR - 1);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 1);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A + PMD_SIZE - 1, &e));
	KUNIT_EXPECT_EQ(test, e.size, PMD_SIZE);
	KUNIT_EXPECT_EQ(test, e.pfn, folio_pfn(test_mapped_folio(t.mm, A)));
	KUNIT_EXPECT_TRUE(test, e.flags & _PAGE_DIRTY);
	flush_tlb_range(t.mm, A + 0x123000, A + 0x124000);
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 0x1ff000, PAGE_SIZE, 0x5a));
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 1);
}

/* Splitting a PMD leaf drops its cached 2 MiB translation before the PTE
 * table takes over (Linux: pmdp_invalidate in __split_huge_pmd_locked),
 * so the next access walks the new PTEs. */
static void pmd_split_leaves_no_2m_entry_behind(struct kunit *test)
{
	struct host_tlb_entry e;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A, &e) && e.size == PMD_SIZE);
	KUNIT_EXPECT_EQ(test, split_huge_pmd(t.mm, A + PAGE_SIZE), 0);
	KUNIT_EXPECT_FALSE(test, host_tlb_lookup(A, &e));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PAGE_SIZE, 0x5a));
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A, &e));
	KUNIT_EXPECT_EQ(test, e.size, PAGE_SIZE);
}

/* The rule that makes a missing flush after clearing D lose data: the
 * CPU writes D to memory only through an entry it cached clean. */
static void write_through_dirty_entry_leaves_a_cleaned_pte_clean(struct kunit *test)
{
	unsigned long dirty_walks = host_tlb_stat.dirty_walks;
	pte_t *ptep;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	ptep = mm_find_pte(t.mm, A);
	KUNIT_ASSERT_TRUE(test, ptep && pte_dirty(*ptep));
	clear_young_dirty_ptes(t.mm, A, ptep, 1, CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x66, 8), 0);
	KUNIT_EXPECT_FALSE(test, pte_dirty(*ptep) || pte_young(*ptep));
	KUNIT_EXPECT_EQ(test, host_tlb_stat.dirty_walks, dirty_walks);
	flush_tlb_range(t.mm, A, A + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x77, 8), 0);
	KUNIT_EXPECT_TRUE(test, pte_dirty(*ptep) && pte_young(*ptep));
}

static void write_through_clean_entry_sets_dirty_in_the_pte(struct kunit *test)
{
	unsigned long dirty_walks = host_tlb_stat.dirty_walks;
	struct host_tlb_entry e;
	pte_t *ptep;

	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PAGE_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x55, 8), 0); /* a write fault, then cleaned */
	ptep = mm_find_pte(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	*ptep = pte_mkclean(*ptep);
	flush_tlb_range(t.mm, A, A + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, read_byte(A), 0x55); /* the entry is filled clean */
	dirty_walks = host_tlb_stat.dirty_walks;
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A, &e));
	KUNIT_EXPECT_FALSE(test, e.flags & _PAGE_DIRTY);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x66, 8), 0); /* no flush in between */
	KUNIT_EXPECT_TRUE(test, pte_dirty(*ptep));
	KUNIT_EXPECT_EQ(test, host_tlb_stat.dirty_walks - dirty_walks, 1);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(A, &e));
	KUNIT_EXPECT_TRUE(test, e.flags & _PAGE_DIRTY);
}

/* Setting D goes to the PTE in memory: if that no longer allows the
 * write, the write faults, whatever the entry said. */
static void write_through_clean_entry_faults_if_the_pte_became_read_only(struct kunit *test)
{
	pte_t *ptep;
	void *p;

	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, PAGE_SIZE, RW, 0), A);
	KUNIT_EXPECT_EQ(test, read_byte(A), 0);
	ptep = mm_find_pte(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	*ptep = pte_wrprotect(*ptep);
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, A, false, &p), 0); /* still cached */
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, A, true, &p), -1);
	KUNIT_EXPECT_FALSE(test, pte_dirty(*ptep));
	KUNIT_EXPECT_FALSE(test, tlb_caches(A)); /* a fault drops the entry */
	/* The fault path makes the PTE writable again (fault_present). */
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x66, 8), 0);
	KUNIT_EXPECT_TRUE(test, pte_write(*ptep) && pte_dirty(*ptep));
}

/* A right the entry lacks faults from the entry (no walk), and a #PF
 * drops the address's entries (SDM 4.10.4.1), so raising a right needs no
 * flush, only one spurious fault (4.10.4.3; x86 Linux's
 * ptep_set_access_flags relies on it). */
static void write_through_read_only_entry_faults_once_after_an_upgrade(struct kunit *test)
{
	pte_t *ptep;
	void *p;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, PAGE_SIZE, 0x5a);
	ptep = mm_find_pte(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	*ptep = pte_wrprotect(*ptep);
	flush_tlb_range(t.mm, A, A + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, read_byte(A), 0x5a); /* cached read-only */
	*ptep = pte_mkwrite(*ptep);
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, A, true, &p), -1);
	KUNIT_EXPECT_FALSE(test, tlb_caches(A));
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, A, true, &p), 0);
}

/* Page n of the 4 KiB array's set 0 is A + n * 128 pages; 12 ways. */
static void full_set_evicts_its_least_recently_used_way(struct kunit *test)
{
	const unsigned long stride = 128 * PAGE_SIZE;
	unsigned long evicted = host_tlb_stat.evicted;

	SKIP_WITHOUT_MM(test);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 13 * stride, RW, 0), A);
	for (unsigned long n = 0; n < 12; n++)
		KUNIT_EXPECT_EQ(test, fill_user(A + n * stride, 0x10 + n, 1), 0);
	KUNIT_EXPECT_EQ(test, host_tlb_stat.evicted, evicted);
	KUNIT_EXPECT_EQ(test, read_byte(A), 0x10); /* page 0 is now the newest */
	KUNIT_EXPECT_EQ(test, fill_user(A + 12 * stride, 0x1c, 1), 0);
	KUNIT_EXPECT_EQ(test, host_tlb_stat.evicted - evicted, 1);
	KUNIT_EXPECT_TRUE(test, tlb_caches(A) && tlb_caches(A + 12 * stride));
	KUNIT_EXPECT_FALSE(test, tlb_caches(A + stride));
	KUNIT_EXPECT_EQ(test, host_tlb_nr_entries(), 12);
}

/* --- mm's flushes against the model ------------------------------------------------ */

/* Every page was written, so every entry is cached dirty: if MADV_FREE's
 * flush missed one, a write through it would leave its PTE clean and
 * reclaim would free the written folio. */
static void write_after_madv_free_keeps_its_folio_through_reclaim(struct kunit *test)
{
	const unsigned long b = A + K64 + 0x5123;
	uint8_t one = 0x22;
	struct folio *written;
	struct host_tlb_entry e;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x11);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(b, &e));
	KUNIT_EXPECT_TRUE(test, e.flags & _PAGE_DIRTY);
	written = test_mapped_folio(t.mm, b);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, tlb_cached_pages(A, 4 * K64), 0);
	KUNIT_EXPECT_EQ(test, copy_to_user(b, &one, 1), 0);
	KUNIT_EXPECT_TRUE(test, pte_dirty(*mm_find_pte(t.mm, b)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 3 * 16);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b) == written);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + K64, b - (A + K64), 0x11));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, 1, 0x22));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b + 1, A + 2 * K64 - (b + 1), 0x11));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0) && test_reads_as(A + 2 * K64, 2 * K64, 0));
}

/* The same for a PMD leaf: its one 2 MiB entry is cached dirty. */
static void write_after_madv_free_keeps_a_pmd_folio_through_reclaim(struct kunit *test)
{
	const unsigned long b = A + 0x12345;
	uint8_t one = 0x22;
	struct host_tlb_entry e;
	pmd_t *pmd;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x11);
	KUNIT_ASSERT_TRUE(test, host_tlb_lookup(b, &e));
	KUNIT_EXPECT_TRUE(test, e.size == PMD_SIZE && (e.flags & _PAGE_DIRTY));
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_FALSE(test, tlb_caches(b));
	KUNIT_EXPECT_EQ(test, copy_to_user(b, &one, 1), 0);
	pmd = mm_find_pmd(t.mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && pmd_leaf(*pmd));
	KUNIT_EXPECT_TRUE(test, pmd_dirty(*pmd));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, 1, 0x22));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, b - A, 0x11));
}

/* 4 pages, below the ceiling: four invlpg, the neighbours stay cached. */
static void munmap_leaves_no_translation_to_the_freed_pages(struct kunit *test)
{
	const unsigned long gone = A + 4 * PAGE_SIZE, len = 4 * PAGE_SIZE;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 16 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, gone, len), 0);
	KUNIT_EXPECT_EQ(test, tlb_cached_pages(gone, len), 0);
	KUNIT_EXPECT_EQ(test, tlb_cached_pages(A, 16 * PAGE_SIZE), 12);
	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		KUNIT_EXPECT_EQ(test, read_byte(gone + off + 0x80), -1);
		KUNIT_EXPECT_EQ(test, fill_user(gone + off, 0x66, 8), -EFAULT);
	}
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, gone - A, 0x5a));
	KUNIT_EXPECT_TRUE(test, test_reads_as(gone + len, A + 16 * PAGE_SIZE - (gone + len), 0x5a));
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* The VMA stays, so a stale entry would not fault at all: it would show
 * the free page's poison where zeros must be, or (once the page is reused
 * for its neighbour's fault) alias the neighbour. The last page is read
 * first, before any reuse; each page then keeps its own byte. */
static void dontneed_leaves_no_translation_to_the_freed_pages(struct kunit *test)
{
	const unsigned long gone = A + 2 * PAGE_SIZE, len = 2 * PAGE_SIZE;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 8 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, gone, len, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, tlb_cached_pages(gone, len), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(gone + PAGE_SIZE, PAGE_SIZE, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(gone, PAGE_SIZE, 0));
	KUNIT_EXPECT_EQ(test, fill_user(gone, 0x66, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, fill_user(gone + PAGE_SIZE, 0x77, PAGE_SIZE), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(gone, PAGE_SIZE, 0x66));
	KUNIT_EXPECT_TRUE(test, test_reads_as(gone + PAGE_SIZE, PAGE_SIZE, 0x77));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, gone - A, 0x5a));
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* x86 Linux clears young without a flush (ptep_clear_flush_young: "the
 * accessed bit is only a hint"), so try_to_unmap's flush is all that
 * stands between a cached entry and the freed page. */
static void lazyfree_reclaim_flushes_before_the_page_is_freed(struct kunit *test)
{
	const unsigned long b = A + PAGE_SIZE;
	pte_t *ptep;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 4 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * PAGE_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, read_byte(b), 0x5a); /* cached clean, PTE young */
	ptep = mm_find_pte(t.mm, b);
	KUNIT_ASSERT_TRUE(test, ptep && pte_young(*ptep) && !pte_dirty(*ptep));
	clear_young_dirty_ptes(t.mm, b, ptep, 1, CYDP_CLEAR_YOUNG);
	KUNIT_EXPECT_TRUE(test, tlb_caches(b));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 4);
	KUNIT_EXPECT_FALSE(test, tlb_caches(b));
	KUNIT_EXPECT_TRUE(test, test_reads_as(b, PAGE_SIZE, 0));
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static struct kunit_case tlb_model_test_cases[] = {
	KUNIT_CASE(cached_translation_outlives_its_pte_until_invlpg),
	KUNIT_CASE(range_flush_drops_its_pages_and_a_full_flush_all),
	KUNIT_CASE(switch_mm_empties_the_tlb_and_inactive_mms_fill_none),
	KUNIT_CASE(pmd_leaf_is_one_entry_that_invlpg_anywhere_inside_drops),
	KUNIT_CASE(pmd_split_leaves_no_2m_entry_behind),
	KUNIT_CASE(write_through_dirty_entry_leaves_a_cleaned_pte_clean),
	KUNIT_CASE(write_through_clean_entry_sets_dirty_in_the_pte),
	KUNIT_CASE(write_through_clean_entry_faults_if_the_pte_became_read_only),
	KUNIT_CASE(write_through_read_only_entry_faults_once_after_an_upgrade),
	KUNIT_CASE(full_set_evicts_its_least_recently_used_way),
	KUNIT_CASE(write_after_madv_free_keeps_its_folio_through_reclaim),
	KUNIT_CASE(write_after_madv_free_keeps_a_pmd_folio_through_reclaim),
	KUNIT_CASE(munmap_leaves_no_translation_to_the_freed_pages),
	KUNIT_CASE(dontneed_leaves_no_translation_to_the_freed_pages),
	KUNIT_CASE(lazyfree_reclaim_flushes_before_the_page_is_freed),
	{},
};

static struct kunit_suite tlb_model_test_suite = {
	.name = "tlb_model",
	.init = tlb_model_test_init,
	.exit = tlb_model_test_exit,
	.test_cases = tlb_model_test_cases,
};
kunit_test_suite(tlb_model_test_suite);
