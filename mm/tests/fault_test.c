/*
 * Anonymous faults on a private node and address space: the order chosen
 * for each enabled set, VMA edge and populated neighbourhood, fallback
 * when large blocks run out, zeroed memory, one PMD for 2 MiB, migration
 * of a mapped folio, bad accesses ending only the access, munmap giving
 * every page back, reads served by the zero page and the huge zero folio,
 * and thp_parse_orders. Accesses go through
 * copy_to_user & co., so the kernel takes real #PFs and the host its
 * software MMU's. Addresses: A = 1 GiB, aligned for every order.
 */
#include <bitmap.h>
#include <ktest.h>
#include <vm.h>
#include "../internal.h"
#include "mm_test_util.h"

#define A 0x40000000ul
#define RW (VM_READ | VM_WRITE)
#define ORDERS(...)                                      \
	orders_of((const unsigned int[]){ __VA_ARGS__ }, \
		  sizeof((const unsigned int[]){ __VA_ARGS__ }) / sizeof(unsigned int))

static struct pglist_data *node;
static struct mm_struct *mm, *prev_mm;
static unsigned long saved_orders, free_at_start;

static unsigned long orders_of(const unsigned int *o, size_t n)
{
	unsigned long mask = 0;

	for (size_t i = 0; i < n; i++)
		mask |= 1ul << o[i];
	return mask;
}

static int fault_test_init(struct kunit *test)
{
	node = test_node_create(test, 4 * MAX_ORDER_NR_PAGES);
	if (!node)
		return 0;
	free_at_start = node_free_pages(node);
	saved_orders = thp_orders_enabled;
	prev_mm = current_mm;
	mm = mm_create(node->node_id);
	if (mm)
		switch_mm(mm);
	set_migrate_folio_hook(anon_migrate_folio);
	return mm ? 0 : -1;
}

static void fault_test_exit(struct kunit *test)
{
	clear_pages_recorder = NULL;
	thp_orders_enabled = saved_orders;
	if (mm) {
		switch_mm(prev_mm);
		mm_destroy(mm);
		KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	}
	if (node)
		test_node_destroy(node);
	mm = NULL;
	node = NULL;
}

static unsigned long map(unsigned long addr, unsigned long len, unsigned long flags)
{
	return vm_mmap(mm, addr, len, flags, 0);
}

/* Write one byte at addr (the fault, if any, is a write fault). */
static int touch(unsigned long addr)
{
	char c = 1;

	return copy_to_user(addr, &c, 1);
}

static struct folio *mapped_folio(unsigned long addr)
{
	return test_mapped_folio(mm, addr);
}

/* The order of the folio a write fault at addr maps, -1 if none. */
static int fault_order(struct kunit *test, unsigned long addr)
{
	struct folio *folio;

	KUNIT_EXPECT_EQ(test, touch(addr), 0);
	folio = mapped_folio(addr);
	if (!folio)
		return -1;
	/* Naturally aligned, and the rmap knows where. */
	KUNIT_EXPECT_EQ(test, vma_address(find_vma(mm, addr), folio->page.index),
			ALIGN_DOWN(addr, folio_size(folio)));
	KUNIT_EXPECT_TRUE(test, folio_anon_vma(folio) == find_vma(mm, addr)->anon_vma);
	KUNIT_EXPECT_TRUE(test, folio_test_anon(folio));
	return (int)folio_order(folio);
}

/* Linux: mm_account_fault. Every fault past the access checks counts in
 * pgfault (one the memory cannot serve too); one outside every VMA or
 * one the VMA refuses does not; none is major without swap or a disk. */
static void faults_are_counted_in_pgfault(struct kunit *test)
{
	struct pglist_data *pgdat = NODE_DATA(mm->nid);
	unsigned long before = pgdat->vm_events[PGFAULT];

	KUNIT_ASSERT_EQ(test, map(A, 4 * PAGE_SIZE, VM_READ), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A + PAGE_SIZE, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGFAULT], before + 2);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A + 8 * PAGE_SIZE, 0), VM_FAULT_NOVMA);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A, FAULT_FLAG_WRITE), VM_FAULT_ACCESS);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGFAULT], before + 2);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[PGMAJFAULT], 0);
}

static void fault_maps_largest_enabled_order_inside_vma(struct kunit *test)
{
	unsigned long alloc4 = mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC];
	struct folio *folio;
	pte_t *pte;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(2, 4);
	KUNIT_ASSERT_EQ(test, map(A, 256 * 1024, RW), A);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x5000), 4);
	folio = mapped_folio(A + 0x5000);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	pte = mm_find_pte(mm, A);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, pte_pfn(pte[i]), folio_pfn(folio) + i);
	KUNIT_EXPECT_TRUE(test, pte_none(pte[16]));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 16);
	KUNIT_EXPECT_EQ(test, mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC], alloc4 + 1);
	/* A second access in the folio is no fault at all. */
	KUNIT_EXPECT_EQ(test, touch(A + 0xf000), 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_FAULTS], 1);
}

static void fault_order_shrinks_at_vma_edges(struct kunit *test)
{
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(2, 4);
	/* [A, A + 84K): the last 64K range sticks out, a 16K one fits. */
	KUNIT_ASSERT_EQ(test, map(A, 0x15000, RW), A);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x11000), 2);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x14000), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x2000), 4);
	/* A VMA starting 4K past alignment: its first 64K range is cut. */
	KUNIT_ASSERT_EQ(test, map(A + 0x101000, 0x20000, RW), A + 0x101000);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x101000), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x104000), 2);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x110000), 4);
}

static void fault_order_skips_ranges_with_a_mapped_pte(struct kunit *test)
{
	unsigned long alloc0 = mthp_stats[0][MTHP_STAT_ANON_FAULT_ALLOC];

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 0x20000, RW), A);
	thp_orders_enabled = 0; /* thp never */
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x8000), 0);
	KUNIT_EXPECT_EQ(test, mthp_stats[0][MTHP_STAT_ANON_FAULT_ALLOC], alloc0 + 1);
	thp_orders_enabled = ORDERS(2, 4);
	/* The 64K range [A, A + 64K) holds A + 0x8000: 16K it is. */
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x1000), 2);
	/* [A + 0x8000, A + 0xc000) holds it too: one page. */
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x9000), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x10000), 4);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 1 + 4 + 1 + 16);
}

/* Pages of the node a test holds back from the allocator, one bit each. */
static unsigned long held[4 * MAX_ORDER_NR_PAGES / 64];

/*
 * Take every free page of the node (pcp lists drained first) and give
 * back those for which keep(pfn) is false; the rest stay held. The
 * pages given back are first filled with 0xab, as a previous user would
 * leave them.
 */
static void hold_free_pages(bool (*keep)(unsigned long pfn))
{
	unsigned long start = node->node_start_pfn, end = start + node->node_spanned_pages;

	memset(held, 0, sizeof(held));
	drain_node_pages(node);
	for (unsigned long pfn = start; pfn < end;) {
		unsigned long span = pfn_free_span(pfn);

		if (!span) {
			pfn++;
			continue;
		}
		take_free_pfn_range(pfn, pfn + span);
		for (unsigned long p = pfn; p < pfn + span; p++) {
			memset(page_address(pfn_to_page(p)), 0xab, PAGE_SIZE);
			if (keep(p))
				held[(p - start) / 64] |= 1ul << ((p - start) % 64);
			else
				__free_pages(pfn_to_page(p), 0);
		}
		pfn += span;
	}
	drain_node_pages(node);
}

static void release_held_pages(void)
{
	for (unsigned long i = 0; i < node->node_spanned_pages; i++)
		if (held[i / 64] & (1ul << (i % 64)))
			__free_pages(pfn_to_page(node->node_start_pfn + i), 0);
	memset(held, 0, sizeof(held));
}

/* Pages 8..15 of every 16: what is left free are order-3 blocks. */
static bool upper_half_of_16(unsigned long pfn)
{
	return pfn & 8;
}

static bool nothing(unsigned long pfn)
{
	return false;
}

static void fault_falls_back_when_large_blocks_run_out(struct kunit *test)
{
	unsigned long fb4 = mthp_stats[4][MTHP_STAT_ANON_FAULT_FALLBACK];
	unsigned long alloc2 = mthp_stats[2][MTHP_STAT_ANON_FAULT_ALLOC];

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 0x20000, RW), A);
	thp_orders_enabled = ORDERS(2, 4);
	hold_free_pages(upper_half_of_16);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x1000), 2);
	KUNIT_EXPECT_EQ(test, mthp_stats[4][MTHP_STAT_ANON_FAULT_FALLBACK], fb4 + 1);
	KUNIT_EXPECT_EQ(test, mthp_stats[2][MTHP_STAT_ANON_FAULT_ALLOC], alloc2 + 1);
	release_held_pages();
	KUNIT_EXPECT_BUDDY_OK(test, node);
	/* Order-4 blocks are back: the next range gets 64K. */
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x10000), 4);
}

/* Return: how many bytes of [addr, addr + len) read back non-zero. */
static unsigned long nonzero_bytes(struct kunit *test, unsigned long addr, unsigned long len)
{
	static uint8_t buf[PAGE_SIZE];
	unsigned long bad = 0;

	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		KUNIT_EXPECT_EQ(test, copy_from_user(buf, addr + off, PAGE_SIZE), 0);
		for (size_t i = 0; i < PAGE_SIZE; i++)
			bad += buf[i] != 0;
	}
	return bad;
}

static void fault_memory_is_zero_after_dirty_free_pages(struct kunit *test)
{
	unsigned long b = A + PMD_SIZE;

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 2 * PMD_SIZE, RW), A);
	hold_free_pages(nothing); /* every free page now reads 0xab */
	thp_orders_enabled = ORDERS(HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x1000), HPAGE_PMD_ORDER);
	thp_orders_enabled = ORDERS(4);
	KUNIT_EXPECT_EQ(test, fault_order(test, b + 0x3000), 4);
	thp_orders_enabled = 0;
	KUNIT_EXPECT_EQ(test, fault_order(test, b + 0x20000), 0);
	/* The touched byte reads 1; everything else must be zero. */
	KUNIT_EXPECT_EQ(test, nonzero_bytes(test, A, PMD_SIZE), 1);
	KUNIT_EXPECT_EQ(test, nonzero_bytes(test, b, 0x10000), 1);
	KUNIT_EXPECT_EQ(test, nonzero_bytes(test, b + 0x20000, PAGE_SIZE), 1);
}

static void fault_maps_pmd_order_with_one_pmd(struct kunit *test)
{
	unsigned long writes = mm->counters[MM_PTE_WRITES];
	struct folio *folio;
	pmd_t *pmd;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, map(A, PMD_SIZE, RW), A);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x123456), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_PTE_WRITES], writes + 1);
	pmd = mm_find_pmd(mm, A);
	KUNIT_ASSERT_NOT_NULL(test, pmd);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd));
	KUNIT_EXPECT_TRUE(test, pmd_dirty(*pmd) && pmd_young(*pmd) && pmd_write(*pmd));
	folio = mapped_folio(A);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_FAULTS], 1);
}

/* --- the work of one fault, counted: per folio, not per page ---------------- */

#define MAX_CLEARS 8
static void *clear_addr[MAX_CLEARS];
static unsigned int clear_npages[MAX_CLEARS], nr_clears;

static void record_clear(void *addr, unsigned int npages)
{
	if (nr_clears < MAX_CLEARS) {
		clear_addr[nr_clears] = addr;
		clear_npages[nr_clears] = npages;
	}
	nr_clears++;
}

/*
 * Write-fault at addr with only `order` enabled, recording folio_zero_user's
 * clear_pages() calls and the PTE writes and TLB flushes the fault made.
 * Return: the folio mapped, or NULL.
 */
static struct folio *counted_fault(struct kunit *test, unsigned long addr, unsigned int order,
				   unsigned long *pte_writes, unsigned long *flushes)
{
	unsigned long w0 = mm->counters[MM_PTE_WRITES];
	unsigned long f0 = mm->counters[MM_TLB_FLUSH_ONE] + mm->counters[MM_TLB_FLUSH_ALL];
	/* The evidence is upstream's strategy's; the shell's or the command
	 * line's zero= choice is put back afterwards. */
	enum zero_strategy saved = zero_strategy;

	thp_orders_enabled = 1ul << order;
	nr_clears = 0;
	zero_strategy = ZERO_NEIGHBOURHOOD;
	clear_pages_recorder = record_clear;
	KUNIT_EXPECT_EQ(test, touch(addr), 0);
	clear_pages_recorder = NULL;
	zero_strategy = saved;
	*pte_writes = mm->counters[MM_PTE_WRITES] - w0;
	*flushes = mm->counters[MM_TLB_FLUSH_ONE] + mm->counters[MM_TLB_FLUSH_ALL] - f0;
	return mapped_folio(addr);
}

/* The recorded clears cover every page of folio exactly once, in at most
 * three extents, the last one holding the faulting page. */
static void expect_clears_cover_folio(struct kunit *test, struct folio *folio, unsigned long addr)
{
	unsigned long seen[BITS_TO_LONGS(HPAGE_PMD_NR)] = { 0 };
	unsigned long nr = folio_nr_pages(folio), first = 0, last = 0, covered = 0, fault_idx;
	char *base = folio_address(folio);

	fault_idx = (addr - ALIGN_DOWN(addr, folio_size(folio))) / PAGE_SIZE;
	KUNIT_ASSERT_LE(test, nr, HPAGE_PMD_NR);
	KUNIT_ASSERT_GE(test, nr_clears, 1);
	KUNIT_ASSERT_LE(test, nr_clears, 3);
	for (unsigned int i = 0; i < nr_clears; i++) {
		first = (unsigned long)((char *)clear_addr[i] - base) / PAGE_SIZE;
		last = first + clear_npages[i] - 1;
		KUNIT_ASSERT_LT(test, last, nr);
		for (unsigned long p = first; p <= last; p++)
			KUNIT_EXPECT_FALSE(test, test_bit(p, seen)); /* cleared twice */
		bitmap_set(seen, first, clear_npages[i]);
		covered += clear_npages[i];
	}
	KUNIT_EXPECT_EQ(test, covered, nr);
	KUNIT_EXPECT_TRUE(test, first <= fault_idx && fault_idx <= last);
}

/* Linux's do_anonymous_page for a 64K folio: one allocation, the folio
 * cleared in three clear_pages() extents (right of the fault, left, the
 * fault's neighbourhood last), one set_ptes() of 16 entries, no flush
 * (the entries were empty), counters added once for the folio. */
static void write_fault_of_64k_clears_three_extents_and_writes_16_ptes(struct kunit *test)
{
	unsigned long fallback4 = mthp_stats[4][MTHP_STAT_ANON_FAULT_FALLBACK];
	unsigned long alloc4 = mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC];
	unsigned long pte_writes, flushes;
	struct folio *folio;

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 0x10000, RW), A);
	folio = counted_fault(test, A + 0x5000, 4, &pte_writes, &flushes);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_order(folio), 4);
	KUNIT_EXPECT_EQ(test, nr_clears, 3); /* [8..15], [0..2], [3..7] */
	expect_clears_cover_folio(test, folio, A + 0x5000);
	KUNIT_EXPECT_EQ(test, pte_writes, 16);
	KUNIT_EXPECT_EQ(test, flushes, 0);
	KUNIT_EXPECT_EQ(test, mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC], alloc4 + 1);
	KUNIT_EXPECT_EQ(test, mthp_stats[4][MTHP_STAT_ANON_FAULT_FALLBACK], fallback4);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 16);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_TRUE(test, page_folio(folio_page(folio, i)) == folio);
}

/* A PMD-order fault: the 2 MiB cleared in at most three extents (it is
 * not above MAX_ORDER_NR_PAGES), one PMD written, no flush. */
static void write_fault_of_pmd_folio_clears_three_extents_and_writes_one_pmd(struct kunit *test)
{
	unsigned long pte_writes, flushes;
	struct folio *folio;

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, PMD_SIZE, RW), A);
	folio = counted_fault(test, A + 0x123456, HPAGE_PMD_ORDER, &pte_writes, &flushes);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	expect_clears_cover_folio(test, folio, A + 0x123456);
	KUNIT_EXPECT_EQ(test, pte_writes, 1);
	KUNIT_EXPECT_EQ(test, flushes, 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);
}

/* Linux's do_anonymous_page: a read maps the shared zero page read-only
 * and allocates nothing; the first write gets a folio, young and dirty,
 * and the zero page stays zero. */
static void read_fault_maps_the_zero_page_until_the_first_write(struct kunit *test)
{
	unsigned long free_pages;
	uint64_t word = 1;
	struct folio *folio;
	pte_t *pte;

	thp_orders_enabled = 0;
	KUNIT_ASSERT_EQ(test, map(A, 0x2000, RW), A);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	pte = mm_find_pte(mm, A);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(pte_pfn(pte[0])));
	KUNIT_EXPECT_TRUE(test, !pte_write(pte[0]) && !pte_dirty(pte[0]));
	KUNIT_EXPECT_NULL(test, mapped_folio(A));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 0);
	free_pages = node_free_pages(node);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + PAGE_SIZE, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_pages); /* nothing allocated */
	KUNIT_EXPECT_EQ(test, pte_pfn(pte[1]), pte_pfn(pte[0]));

	KUNIT_EXPECT_EQ(test, touch(A + PAGE_SIZE), 0);
	folio = mapped_folio(A + PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_FALSE(test, is_zero_pfn(pte_pfn(pte[1])));
	KUNIT_EXPECT_TRUE(test, pte_young(pte[1]) && pte_dirty(pte[1]) && pte_write(pte[1]));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 1);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(pte_pfn(pte[0])));
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + PAGE_SIZE, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 1);
}

/* A write to a zero-page PTE copies it into one order-0 folio, and
 * flushes the entry it replaces (Linux: do_wp_page, wp_page_copy); a
 * zero-page neighbour keeps an empty slot's fault at order 0 too
 * (pte_range_none), while a wholly empty range still gets 64K. */
static void write_over_zero_ptes_copies_one_page_as_linux(struct kunit *test)
{
	unsigned long flushes;
	uint64_t word;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(4);
	KUNIT_ASSERT_EQ(test, map(A, 0x30000, RW), A);
	for (unsigned long off = 0; off < 0x10000; off += PAGE_SIZE)
		KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + off, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 0);
	flushes = mm->counters[MM_TLB_FLUSH_ONE] + mm->counters[MM_TLB_FLUSH_ALL];
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x3000), 0);
	KUNIT_EXPECT_GT(test, mm->counters[MM_TLB_FLUSH_ONE] + mm->counters[MM_TLB_FLUSH_ALL],
			flushes);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 1);
	KUNIT_EXPECT_NULL(test, mapped_folio(A + 0x4000)); /* still the zero page */
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 0x8000, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 0x10000, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x11000), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x21000), 4);
}

/* A read where a PMD-size folio would fit maps the huge zero folio by one
 * read-only PMD (allocated once: thp_zero_page_alloc); the first write
 * replaces it by a PMD-mapped folio (Linux: do_huge_zero_wp_pmd). A
 * partial munmap splits it into zero-page PTEs. */
/* follow_page and get_user_page (futex keys) at PMD level: a read finds
 * the huge zero folio's page under the address, a write does not (it is
 * read-only) and get_user_page's write fault replaces it by a PMD-mapped
 * folio, whose page at the address it returns. */
static void get_user_page_follows_a_pmd_leaf(struct kunit *test)
{
	struct page *zero, *page;
	pmd_t *pmd;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, map(A, PMD_SIZE, RW), A);
	KUNIT_EXPECT_NULL(test, follow_page(mm, A + 5 * PAGE_SIZE, false));
	zero = get_user_page(mm, A + 5 * PAGE_SIZE, false);
	pmd = mm_find_pmd(mm, A);
	KUNIT_ASSERT_TRUE(test, zero && pmd && is_huge_zero_pmd(*pmd));
	KUNIT_EXPECT_TRUE(test, zero == pmd_page(*pmd) + 5);
	KUNIT_EXPECT_NULL(test, follow_page(mm, A + 5 * PAGE_SIZE, true));
	page = get_user_page(mm, A + 5 * PAGE_SIZE, true);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmd) && !is_huge_zero_pmd(*pmd) && pmd_write(*pmd));
	KUNIT_EXPECT_TRUE(test, page == pmd_page(*pmd) + 5);
	KUNIT_EXPECT_EQ(test, folio_order(page_folio(page)), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_TRUE(test, follow_page(mm, A + PMD_SIZE - 1, true) == pmd_page(*pmd) + 511);
}

static void read_fault_in_a_pmd_range_maps_the_huge_zero_folio(struct kunit *test)
{
	unsigned long zero_alloc = node->vm_events[THP_ZERO_PAGE_ALLOC], flush_one;
	unsigned long alloc9 = mthp_stats[HPAGE_PMD_ORDER][MTHP_STAT_ANON_FAULT_ALLOC], zero_pfn;
	uint64_t word = 1;
	pmd_t *pmd;
	pte_t *pte;

	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = ORDERS(HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, map(A, 2 * PMD_SIZE, RW), A);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 0x123456, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	pmd = mm_find_pmd(mm, A);
	KUNIT_ASSERT_TRUE(test, pmd && pmd_leaf(*pmd));
	KUNIT_EXPECT_TRUE(test, is_huge_zero_pmd(*pmd) && !pmd_write(*pmd));
	zero_pfn = pmd_pfn(*pmd);
	/* Allocated here unless another mm (the shell's) already holds it. */
	KUNIT_EXPECT_LE(test, node->vm_events[THP_ZERO_PAGE_ALLOC] - zero_alloc, 1);
	zero_alloc = node->vm_events[THP_ZERO_PAGE_ALLOC];
	KUNIT_EXPECT_EQ(test, mthp_stats[HPAGE_PMD_ORDER][MTHP_STAT_ANON_FAULT_ALLOC], alloc9);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 0);

	flush_one = mm->counters[MM_TLB_FLUSH_ONE];
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x1000), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_TLB_FLUSH_ONE] - flush_one, 1);
	KUNIT_EXPECT_FALSE(test, is_huge_zero_pmd(*pmd));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);

	/* The second 2 MiB: huge zero again (the same folio), then cut. */
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + PMD_SIZE, sizeof(word)), 0);
	pmd = mm_find_pmd(mm, A + PMD_SIZE);
	KUNIT_ASSERT_TRUE(test, pmd && is_huge_zero_pmd(*pmd));
	KUNIT_EXPECT_EQ(test, pmd_pfn(*pmd), zero_pfn);
	KUNIT_EXPECT_EQ(test, node->vm_events[THP_ZERO_PAGE_ALLOC], zero_alloc);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, A + PMD_SIZE + 0x5000, PAGE_SIZE), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(*pmd));
	pte = mm_find_pte(mm, A + PMD_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(pte_pfn(pte[0])) && !pte_write(pte[0]));
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(pte_pfn(pte[HPAGE_PMD_NR - 1])));
	KUNIT_EXPECT_TRUE(test, pte_none(pte[5]));
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + PMD_SIZE + 0x6000, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], HPAGE_PMD_NR);
}

/* Fill [addr, addr + len) with a pattern that differs in every page. */
static void write_pattern(struct kunit *test, unsigned long addr, unsigned long len)
{
	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		uint64_t word = addr + off;

		KUNIT_EXPECT_EQ(test, copy_to_user(addr + off + 8, &word, sizeof(word)), 0);
	}
}

static unsigned long pattern_mismatches(struct kunit *test, unsigned long addr, unsigned long len)
{
	unsigned long bad = 0;

	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		uint64_t word = 0;

		KUNIT_EXPECT_EQ(test, copy_from_user(&word, addr + off + 8, sizeof(word)), 0);
		bad += word != addr + off;
	}
	return bad;
}

/* Migrate the folio at addr through migrate_pfn_range (the hook). */
static void migrate_and_check(struct kunit *test, unsigned long addr, unsigned int order)
{
	struct folio *src = mapped_folio(addr), *dst;
	unsigned long len = PAGE_SIZE << order, src_pfn, flush_one, flush_all;

	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_ASSERT_EQ(test, folio_order(src), order);
	src_pfn = folio_pfn(src);
	write_pattern(test, addr, len);
	flush_one = mm->counters[MM_TLB_FLUSH_ONE];
	flush_all = mm->counters[MM_TLB_FLUSH_ALL];
	KUNIT_EXPECT_EQ(test, migrate_pfn_range(src_pfn, src_pfn + (1ul << order)), 0);
	/* One flush of what mapped src: its PTEs' range (16 invlpg for 64K),
	 * or a PMD leaf's one entry (Linux: pmdp_invalidate), never the
	 * whole TLB. */
	KUNIT_EXPECT_EQ(test, mm->counters[MM_TLB_FLUSH_ONE] - flush_one,
			order == HPAGE_PMD_ORDER ? 1 : 1ul << order);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_TLB_FLUSH_ALL], flush_all);
	dst = mapped_folio(addr);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_EXPECT_NE(test, folio_pfn(dst), src_pfn);
	KUNIT_EXPECT_EQ(test, folio_order(dst), order);
	KUNIT_EXPECT_TRUE(test, folio_anon_vma(dst) == find_vma(mm, addr)->anon_vma);
	KUNIT_EXPECT_EQ(test, vma_address(find_vma(mm, addr), dst->page.index), addr);
	KUNIT_EXPECT_EQ(test, folio_mapcount(dst), order == HPAGE_PMD_ORDER ? 1 : 1 << order);
	KUNIT_EXPECT_EQ(test, pattern_mismatches(test, addr, len), 0);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

static void migrating_anon_folio_keeps_data_and_remaps(struct kunit *test)
{
	unsigned long moved = node->vm_events[PGMIGRATE_SUCCESS];

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 2 * PMD_SIZE, RW), A);
	thp_orders_enabled = ORDERS(4);
	KUNIT_EXPECT_EQ(test, fault_order(test, A), 4);
	migrate_and_check(test, A, 4);
	thp_orders_enabled = ORDERS(HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + PMD_SIZE), HPAGE_PMD_ORDER);
	migrate_and_check(test, A + PMD_SIZE, HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, node->vm_events[PGMIGRATE_SUCCESS], moved + 16 + HPAGE_PMD_NR);
}

static void bad_access_returns_efault_and_goes_on(struct kunit *test)
{
	uint64_t word = 0xdead;

	KUNIT_ASSERT_EQ(test, map(A, 0x4000, VM_READ), A);
	KUNIT_ASSERT_EQ(test, map(A + 0x10000, 0x4000, RW), A + 0x10000);
	/* Outside every VMA, and a write to a read-only one. */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 0x8000, &word, sizeof(word)), -EFAULT);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 0x8000, sizeof(word)), -EFAULT);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0xff, 16), -EFAULT);
	/* Reading the read-only VMA works and reads zero. */
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 8, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0);
	/* A copy that runs off the end of a VMA fails part way. */
	KUNIT_EXPECT_EQ(test, fill_user(A + 0x13000, 0x11, 2 * PAGE_SIZE), -EFAULT);
	/* And the next workload runs normally. */
	KUNIT_EXPECT_EQ(test, fill_user(A + 0x10000, 0x22, 0x4000), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&word, A + 0x13ff8, sizeof(word)), 0);
	KUNIT_EXPECT_EQ(test, word, 0x2222222222222222ull);
}

static void munmap_after_faults_gives_back_every_page(struct kunit *test)
{
	unsigned long before = node_free_pages(node);

	if (test_skip_without_thp(test))
		return;
	KUNIT_ASSERT_EQ(test, map(A, 2 * PMD_SIZE, RW), A);
	thp_orders_enabled = ORDERS(2, 4, HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x1000), HPAGE_PMD_ORDER);
	thp_orders_enabled = ORDERS(2, 4);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + PMD_SIZE), 4);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + PMD_SIZE + 0x44000), 4);
	thp_orders_enabled = 0;
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 2 * PMD_SIZE - PAGE_SIZE), 0);
	KUNIT_EXPECT_LT(test, node_free_pages(node), before);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, A, 2 * PMD_SIZE), 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), before);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

static void thp_parse_orders_accepts_sizes_never_always(struct kunit *test)
{
	unsigned long orders = 123;
	char err[80];

	if (test_skip_without_thp(test))
		return;
	KUNIT_EXPECT_EQ(test, thp_parse_orders("16K,64K,2M", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, ORDERS(2, 4, 9));
	KUNIT_EXPECT_EQ(test, thp_parse_orders("8K", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, ORDERS(1));
	KUNIT_EXPECT_EQ(test, thp_parse_orders("2048K,1M", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, ORDERS(8, 9));
	KUNIT_EXPECT_EQ(test, thp_parse_orders("never", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, 0);
	KUNIT_EXPECT_EQ(test, thp_parse_orders("always", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, ORDERS(1, 2, 3, 4, 5, 6, 7, 8, 9));
}

/* CONFIG_TRANSPARENT_HUGEPAGE=n: every size list is refused with a reason
 * (thp= and the shell's thp print it), and a fault in a 2 MiB VMA maps
 * order 0 even with every order forced into the enabled mask. */
static void thp_compiled_out_means_order_0_only(struct kunit *test)
{
	unsigned long orders = 0x55;
	char err[80] = "";

	if (CONFIG_TRANSPARENT_HUGEPAGE) {
		kunit_mark_skipped(test, "CONFIG_TRANSPARENT_HUGEPAGE=y");
		return;
	}
	KUNIT_EXPECT_EQ(test, thp_orders_enabled, 0);
	KUNIT_EXPECT_EQ(test, thp_parse_orders("2M", &orders, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_parse_orders("always", &orders, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_TRUE(test, strstr(err, "compiled out") != NULL);
	KUNIT_EXPECT_EQ(test, orders, 0x55);
	KUNIT_EXPECT_EQ(test, thp_parse_orders("never", &orders, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, orders, 0);
	thp_orders_enabled = ORDERS(2, 4, 9);
	KUNIT_ASSERT_EQ(test, map(A, PMD_SIZE, RW), A);
	KUNIT_EXPECT_EQ(test, fault_order(test, A), 0);
	KUNIT_EXPECT_EQ(test, fault_order(test, A + 0x10000), 0);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*mm_find_pmd(mm, A)) == false);
}

static void thp_parse_orders_rejects_bad_lists(struct kunit *test)
{
	static const char *const bad[] = {
		"", "4K", "3K", "24K", "4M", "16X", "16K,", ",16K", "16K,,64K", "Never", "64K 2M",
	};
	unsigned long orders = 0x55;
	char err[80];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		KUNIT_EXPECT_EQ(test, thp_parse_orders(bad[i], &orders, err, sizeof(err)), -EINVAL);
		KUNIT_EXPECT_NE(test, err[0], '\0');
	}
	KUNIT_EXPECT_EQ(test, orders, 0x55);
}

static struct kunit_case fault_test_cases[] = {
	KUNIT_CASE(faults_are_counted_in_pgfault),
	KUNIT_CASE(fault_maps_largest_enabled_order_inside_vma),
	KUNIT_CASE(fault_order_shrinks_at_vma_edges),
	KUNIT_CASE(fault_order_skips_ranges_with_a_mapped_pte),
	KUNIT_CASE(fault_falls_back_when_large_blocks_run_out),
	KUNIT_CASE(fault_memory_is_zero_after_dirty_free_pages),
	KUNIT_CASE(fault_maps_pmd_order_with_one_pmd),
	KUNIT_CASE(write_fault_of_64k_clears_three_extents_and_writes_16_ptes),
	KUNIT_CASE(write_fault_of_pmd_folio_clears_three_extents_and_writes_one_pmd),
	KUNIT_CASE(read_fault_maps_the_zero_page_until_the_first_write),
	KUNIT_CASE(write_over_zero_ptes_copies_one_page_as_linux),
	KUNIT_CASE(read_fault_in_a_pmd_range_maps_the_huge_zero_folio),
	KUNIT_CASE(get_user_page_follows_a_pmd_leaf),
	KUNIT_CASE(migrating_anon_folio_keeps_data_and_remaps),
	KUNIT_CASE(bad_access_returns_efault_and_goes_on),
	KUNIT_CASE(munmap_after_faults_gives_back_every_page),
	KUNIT_CASE(thp_parse_orders_accepts_sizes_never_always),
	KUNIT_CASE(thp_parse_orders_rejects_bad_lists),
	KUNIT_CASE(thp_compiled_out_means_order_0_only),
	{},
};

static struct kunit_suite fault_test_suite = {
	.name = "fault",
	.init = fault_test_init,
	.exit = fault_test_exit,
	.test_cases = fault_test_cases,
};
kunit_test_suite(fault_test_suite);
