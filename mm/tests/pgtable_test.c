/*
 * Page tables and TLB flushing on a private node: set_ptes writes nr
 * consecutive pfns and counts nr writes; tables appear on demand and go
 * when empty (the node's free pages back to the start); PMD leaves; the
 * walker; and flush_tlb_range's ceiling (33 pages → 33 invlpg, 34 → one
 * CR3 reload).
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"

#define TEST_ADDR 0x7f0000000000ul /* pgd 254: no table shared with anything */

static struct test_mm t;

static int pgtable_test_init(struct kunit *test)
{
	return test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
}

static void pgtable_test_exit(struct kunit *test)
{
	test_mm_destroy(test, &t);
}

static const uint64_t rw_prot = _PAGE_PRESENT | _PAGE_RW | _PAGE_NX;

static void set_ptes_writes_nr_consecutive_pfns_and_counts_nr_writes(struct kunit *test)
{
	unsigned long addr = TEST_ADDR + 3 * PAGE_SIZE;
	pte_t *ptep = test_pte_alloc(t.mm, addr);

	KUNIT_ASSERT_NOT_NULL(test, ptep);
	set_ptes(t.mm, addr, ptep, pfn_pte(0x1230, rw_prot), 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], 16);
	KUNIT_EXPECT_TRUE(test, pte_none(ptep[-1]));
	KUNIT_EXPECT_TRUE(test, pte_none(ptep[16]));
	for (unsigned int i = 0; i < 16; i++) {
		KUNIT_EXPECT_EQ(test, pte_pfn(ptep[i]), 0x1230 + i);
		KUNIT_EXPECT_EQ(test, ptep[i] & ~PTE_ADDR_MASK, rw_prot);
		KUNIT_EXPECT_TRUE(test, mm_find_pte(t.mm, addr + i * PAGE_SIZE) == ptep + i);
	}
	for (unsigned int i = 0; i < 16; i++)
		ptep_get_and_clear(t.mm, addr + i * PAGE_SIZE, ptep + i);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], 32);
	free_pgtables(t.mm, addr, addr + 16 * PAGE_SIZE);
}

/* Linux's get_and_clear_full_ptes: exactly nr entries emptied, one write
 * each, and the young/dirty of any of them reported on the first. */
static void get_and_clear_full_ptes_empties_nr_and_reports_young_dirty(struct kunit *test)
{
	unsigned long addr = TEST_ADDR + 16 * PAGE_SIZE;
	pte_t *ptep = test_pte_alloc(t.mm, addr);
	pte_t old;

	KUNIT_ASSERT_NOT_NULL(test, ptep);
	set_ptes(t.mm, addr, ptep, pfn_pte(0x1230, rw_prot), 16);
	ptep[5] |= _PAGE_DIRTY;
	ptep[9] |= _PAGE_ACCESSED;
	old = get_and_clear_full_ptes(t.mm, addr, ptep, 15);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], 16 + 15);
	KUNIT_EXPECT_EQ(test, pte_pfn(old), 0x1230);
	KUNIT_EXPECT_TRUE(test, pte_dirty(old) && pte_young(old));
	for (unsigned int i = 0; i < 15; i++)
		KUNIT_EXPECT_TRUE(test, pte_none(ptep[i]));
	KUNIT_EXPECT_EQ(test, pte_pfn(ptep[15]), 0x1230 + 15);
	old = get_and_clear_full_ptes(t.mm, addr + 15 * PAGE_SIZE, ptep + 15, 1);
	KUNIT_EXPECT_FALSE(test, pte_dirty(old) || pte_young(old));
	free_pgtables(t.mm, addr, addr + 16 * PAGE_SIZE);
}

static void tables_are_allocated_on_demand_and_freed_when_empty(struct kunit *test)
{
	pte_t *a, *b;

	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	KUNIT_EXPECT_NULL(test, mm_find_pte(t.mm, TEST_ADDR));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	a = test_pte_alloc(t.mm, TEST_ADDR);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 4); /* PUD, PMD, PTE */
	/* The next 2 MiB needs only a PTE table. */
	b = test_pte_alloc(t.mm, TEST_ADDR + PMD_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 5);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2 - 4);
	set_ptes(t.mm, TEST_ADDR, a, pfn_pte(0x2000, rw_prot), 1);
	/* Only b's table is empty: it goes, a's and the ones above stay. */
	free_pgtables(t.mm, TEST_ADDR, TEST_ADDR + 2 * PMD_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 4);
	KUNIT_EXPECT_NULL(test, mm_find_pte(t.mm, TEST_ADDR + PMD_SIZE));
	ptep_get_and_clear(t.mm, TEST_ADDR, a);
	free_pgtables(t.mm, TEST_ADDR, TEST_ADDR + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void pmd_leaf_accessors_round_trip(struct kunit *test)
{
	pmd_t *pmdp = pmd_alloc(t.mm, TEST_ADDR);
	pmd_t pmd;

	KUNIT_ASSERT_NOT_NULL(test, pmdp);
	KUNIT_EXPECT_TRUE(test, pmd_none(*pmdp));
	set_pmd_at(t.mm, TEST_ADDR, pmdp, pfn_pmd(0x40000, rw_prot));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], 1);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(*pmdp));
	KUNIT_EXPECT_EQ(test, pmd_pfn(*pmdp), 0x40000);
	KUNIT_EXPECT_TRUE(test, pmd_write(*pmdp));
	KUNIT_EXPECT_FALSE(test, pmd_young(*pmdp));
	KUNIT_EXPECT_TRUE(test, pmd_young(pmd_mkyoung(*pmdp)));
	KUNIT_EXPECT_TRUE(test, pmd_dirty(pmd_mkdirty(*pmdp)));
	/* A leaf has no PTE table below it. */
	KUNIT_EXPECT_NULL(test, test_pte_alloc(t.mm, TEST_ADDR + PAGE_SIZE));
	pmd = pmdp_get_and_clear(t.mm, TEST_ADDR, pmdp);
	KUNIT_EXPECT_EQ(test, pmd_pfn(pmd), 0x40000);
	KUNIT_EXPECT_TRUE(test, pmd_none(*pmdp));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PTE_WRITES], 2);
	free_pgtables(t.mm, TEST_ADDR, TEST_ADDR + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
}

struct walk_log {
	unsigned long ptes, pmds, leaves, first_pte, pmd_addr, pmd_next;
	bool skip_tables; /* pmd_entry says ACTION_CONTINUE for tables */
};

static int log_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct walk_log *log = walk->private;

	if (!log->ptes++)
		log->first_pte = addr;
	return 0;
}

static int log_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct walk_log *log = walk->private;

	log->pmds++;
	if (!pmd_leaf(*pmdp)) {
		if (log->skip_tables)
			walk->action = ACTION_CONTINUE;
		return 0;
	}
	log->leaves++;
	log->pmd_addr = addr;
	log->pmd_next = next;
	return 0;
}

/* pmd_entry sees every present PMD (the table and the leaf here), the
 * leaf with its part of the range; pte_entry the present PTEs below. */
static void walker_visits_every_present_pmd_then_its_ptes(struct kunit *test)
{
	static const struct mm_walk_ops ops = { .pte_entry = log_pte, .pmd_entry = log_pmd };
	unsigned long leaf = TEST_ADDR + PMD_SIZE;
	struct walk_log log = { 0 };
	pte_t *ptep = test_pte_alloc(t.mm, TEST_ADDR);

	KUNIT_ASSERT_NOT_NULL(test, ptep);
	set_ptes(t.mm, TEST_ADDR + 8 * PAGE_SIZE, ptep + 8, pfn_pte(0x3000, rw_prot), 4);
	set_pmd_at(t.mm, leaf, pmd_alloc(t.mm, leaf), pfn_pmd(0x40000, rw_prot));
	/* From page 9 to the middle of the leaf: 3 PTEs, one part of a PMD. */
	walk_page_range(t.mm, TEST_ADDR + 9 * PAGE_SIZE, leaf + 5 * PAGE_SIZE, &ops, &log);
	KUNIT_EXPECT_EQ(test, log.ptes, 3);
	KUNIT_EXPECT_EQ(test, log.first_pte, TEST_ADDR + 9 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, log.pmds, 2);
	KUNIT_EXPECT_EQ(test, log.leaves, 1);
	KUNIT_EXPECT_EQ(test, log.pmd_addr, leaf);
	KUNIT_EXPECT_EQ(test, log.pmd_next, leaf + 5 * PAGE_SIZE);
	/* ACTION_CONTINUE from pmd_entry: the table's PTEs are not walked. */
	log = (struct walk_log){ .skip_tables = true };
	walk_page_range(t.mm, TEST_ADDR, leaf + PMD_SIZE, &ops, &log);
	KUNIT_EXPECT_EQ(test, log.ptes, 0);
	KUNIT_EXPECT_EQ(test, log.pmds, 2);
	KUNIT_EXPECT_EQ(test, log.leaves, 1);
	for (int i = 8; i < 12; i++)
		ptep_get_and_clear(t.mm, TEST_ADDR + i * PAGE_SIZE, ptep + i);
	pmdp_get_and_clear(t.mm, leaf, mm_find_pmd(t.mm, leaf));
	free_pgtables(t.mm, TEST_ADDR, TEST_ADDR + 2 * PMD_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
}

static void flush_tlb_range_follows_the_single_page_ceiling(struct kunit *test)
{
	unsigned long ceiling = TLB_SINGLE_PAGE_FLUSH_CEILING;

	KUNIT_EXPECT_EQ(test, ceiling, 33);
	flush_tlb_range(t.mm, TEST_ADDR, TEST_ADDR + ceiling * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], ceiling);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], 0);
	flush_tlb_range(t.mm, TEST_ADDR, TEST_ADDR + (ceiling + 1) * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], ceiling);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], 1);
	flush_tlb_range(t.mm, TEST_ADDR, TEST_ADDR);
	flush_tlb_mm(t.mm);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], ceiling);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], 2);
}

/*
 * A walk lacking two or three tables takes them in one alloc_pages_bulk
 * call (pgtable_prealloc); the walk then uses exactly those pages, cleared
 * as each is taken, and no other allocation; one missing table is left to
 * the walk; what a walk leaves unused goes back (pgtable_prealloc_release).
 */
static void missing_tables_come_from_one_bulk_call(struct kunit *test)
{
	const unsigned long gib = 1ul << PUD_SHIFT;
	unsigned long pgalloc = t.node->vm_events[PGALLOC];
	struct page *reserved[3];
	pmd_t *pmdp;
	pte_t *ptep;

	KUNIT_ASSERT_EQ(test, pgtable_prealloc(t.mm, TEST_ADDR), 3);
	KUNIT_EXPECT_EQ(test, t.node->vm_events[PGALLOC] - pgalloc, 3);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2 - 3);
	memcpy(reserved, t.mm->table_reserve, sizeof(reserved));
	for (int i = 0; i < 3; i++)
		memset(page_address(reserved[i]), 0xa5, PAGE_SIZE); /* stale contents */
	ptep = test_pte_alloc(t.mm, TEST_ADDR);
	KUNIT_ASSERT_NOT_NULL(test, ptep);
	KUNIT_EXPECT_EQ(test, t.mm->nr_table_reserve, 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 4);
	KUNIT_EXPECT_EQ(test, t.node->vm_events[PGALLOC] - pgalloc, 3); /* nothing more */
	KUNIT_EXPECT_TRUE(test, virt_to_page(ptep) == reserved[0] ||
					virt_to_page(ptep) == reserved[1] ||
					virt_to_page(ptep) == reserved[2]);
	for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
		KUNIT_EXPECT_TRUE(test, pte_none(ptep[(int)i - (int)pte_index(TEST_ADDR)]));
	/* The next 2 MiB lacks only its PTE table: the walk's own business. */
	KUNIT_EXPECT_EQ(test, pgtable_prealloc(t.mm, TEST_ADDR + PMD_SIZE), 0);
	/* The next 1 GiB lacks a PMD and a PTE table; a walk to the PMD slot
	 * only (a PMD-mapped fault) leaves the PTE table, which goes back. */
	KUNIT_ASSERT_EQ(test, pgtable_prealloc(t.mm, TEST_ADDR + gib), 2);
	pmdp = pmd_alloc(t.mm, TEST_ADDR + gib);
	KUNIT_ASSERT_NOT_NULL(test, pmdp);
	KUNIT_EXPECT_EQ(test, t.mm->nr_table_reserve, 1);
	pgtable_prealloc_release(t.mm);
	KUNIT_EXPECT_EQ(test, t.mm->nr_table_reserve, 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 5);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2 - 4);
	free_pgtables(t.mm, TEST_ADDR, TEST_ADDR + gib + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* The fault path: a first write to an empty region gets its tables from
 * the bulk call and keeps no reserve afterwards, whatever folio it maps. */
static void a_first_fault_keeps_no_table_reserve(struct kunit *test)
{
	unsigned long free_before = node_free_pages(t.node);

	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, TEST_ADDR, 4 * PAGE_SIZE, VM_READ | VM_WRITE, 0),
			TEST_ADDR);
	KUNIT_ASSERT_EQ(test, handle_mm_fault(t.mm, TEST_ADDR, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, t.mm->nr_table_reserve, 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 4);
	/* The tables, the folio, and the slab pages of the VMA's anon_vma
	 * (the anon_vma and rmap_member caches: one page each). */
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node),
			free_before - 3 - t.mm->counters[MM_ANONPAGES] - 2);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, TEST_ADDR, 4 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free_before);
}

static struct kunit_case pgtable_test_cases[] = {
	KUNIT_CASE(set_ptes_writes_nr_consecutive_pfns_and_counts_nr_writes),
	KUNIT_CASE(get_and_clear_full_ptes_empties_nr_and_reports_young_dirty),
	KUNIT_CASE(tables_are_allocated_on_demand_and_freed_when_empty),
	KUNIT_CASE(pmd_leaf_accessors_round_trip),
	KUNIT_CASE(walker_visits_every_present_pmd_then_its_ptes),
	KUNIT_CASE(flush_tlb_range_follows_the_single_page_ceiling),
	KUNIT_CASE(missing_tables_come_from_one_bulk_call),
	KUNIT_CASE(a_first_fault_keeps_no_table_reserve),
	{},
};

static struct kunit_suite pgtable_test_suite = {
	.name = "pgtable",
	.init = pgtable_test_init,
	.exit = pgtable_test_exit,
	.test_cases = pgtable_test_cases,
};
kunit_test_suite(pgtable_test_suite);
