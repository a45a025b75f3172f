/*
 * An address space's 4-level page tables: finding and allocating the slot
 * for an address, writing leaf entries (counted as MM_PTE_WRITES), a small
 * walker over the present leaves, and freeing tables that map nothing.
 * Invariant: every table page below the top one came from the mm's node,
 * unmovable (never from a CMA block), and is counted in MM_PGTABLES.
 * Example: addr 0x7f0000201000 → pgd 254, pud 0, pmd 1, pte 1; a first
 * fault there allocates 3 tables (PUD, PMD, PTE), MM_PGTABLES 1 → 4.
 */
#include <vm.h>

static uint64_t *table_va(uint64_t entry)
{
	return __va(entry & PTE_ADDR_MASK);
}

/* Return: the table *entry points to, allocated zeroed if missing and
 * alloc; NULL if missing (or no memory). Linux: __pte_alloc and friends. */
static uint64_t *table_next(struct mm_struct *mm, uint64_t *entry, bool alloc)
{
	struct page *page;

	if (*entry & _PAGE_PRESENT)
		return table_va(*entry);
	if (!alloc)
		return NULL;
	/* GFP_KERNEL is unmovable: a table pinned in a CMA block would
	 * make that block impossible to empty. */
	page = alloc_pages_node(mm->nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, 0);
	if (!page)
		return NULL;
	mm->counters[MM_PGTABLES]++;
	*entry = page_to_phys(page) | _PAGE_TABLE;
	return table_va(*entry);
}

pmd_t *pmd_offset_mm(struct mm_struct *mm, unsigned long addr, bool alloc)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud;
	pmd_t *pmd;

	pud = table_next(mm, &pgd[pgd_index(addr)], alloc);
	if (!pud)
		return NULL;
	pmd = table_next(mm, &pud[pud_index(addr)], alloc);
	if (!pmd)
		return NULL;
	return &pmd[pmd_index(addr)];
}

pte_t *pte_offset_mm(struct mm_struct *mm, unsigned long addr, bool alloc)
{
	pmd_t *pmdp = pmd_offset_mm(mm, addr, alloc);
	pte_t *pte;

	if (!pmdp || pmd_leaf(*pmdp))
		return NULL;
	pte = table_next(mm, pmdp, alloc);
	return pte ? &pte[pte_index(addr)] : NULL;
}

void set_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte,
	      unsigned int nr)
{
	/* One PTE table: the run may not cross a PMD boundary. */
	if (pte_index(addr) + nr > PTRS_PER_TABLE) {
		pr_err("set_ptes: addr %lx nr %u crosses a PTE table, not mapped\n", addr, nr);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		ptep[i] = pte + ((uint64_t)i << PAGE_SHIFT);
	mm->counters[MM_PTE_WRITES] += nr;
}

pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	pte_t old = *ptep;

	*ptep = 0;
	mm->counters[MM_PTE_WRITES]++;
	return old;
}

void set_pmd_at(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp, pmd_t pmd)
{
	*pmdp = pmd;
	mm->counters[MM_PTE_WRITES]++;
}

pmd_t pmdp_get_and_clear(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp)
{
	pmd_t old = *pmdp;

	*pmdp = 0;
	mm->counters[MM_PTE_WRITES]++;
	return old;
}

/* --- the walker -------------------------------------------------------------- */

static unsigned long level_end(unsigned long addr, unsigned long end, unsigned int shift)
{
	unsigned long next = (addr | ((1ul << shift) - 1)) + 1;

	return next && next < end ? next : end;
}

static int walk_pte_range(pte_t *pte, unsigned long addr, unsigned long end,
			  struct mm_walk *walk)
{
	int err = 0;

	for (; addr < end && !err; addr += PAGE_SIZE)
		if (pte_present(pte[pte_index(addr)]) && walk->ops->pte_entry)
			err = walk->ops->pte_entry(&pte[pte_index(addr)], addr, walk);
	return err;
}

static int walk_pmd_range(pmd_t *pmd, unsigned long addr, unsigned long end,
			  struct mm_walk *walk)
{
	unsigned long next;
	int err = 0;

	for (; addr < end && !err; addr = next) {
		pmd_t *pmdp = &pmd[pmd_index(addr)];

		next = level_end(addr, end, PMD_SHIFT);
		if (pmd_leaf(*pmdp)) {
			if (walk->ops->pmd_entry)
				err = walk->ops->pmd_entry(pmdp, addr, next, walk);
		} else if (pmd_present(*pmdp)) {
			err = walk_pte_range(table_va(*pmdp), addr, next, walk);
		}
	}
	return err;
}

/* The two upper levels have no leaves in Folium (no 1 GiB user pages). */
static int walk_upper(uint64_t *table, unsigned int shift, unsigned long addr,
		      unsigned long end, struct mm_walk *walk)
{
	unsigned long next;
	int err = 0;

	for (; addr < end && !err; addr = next) {
		uint64_t entry = table[(addr >> shift) & (PTRS_PER_TABLE - 1)];

		next = level_end(addr, end, shift);
		if (!(entry & _PAGE_PRESENT))
			continue;
		if (shift == PGDIR_SHIFT)
			err = walk_upper(table_va(entry), PUD_SHIFT, addr, next, walk);
		else
			err = walk_pmd_range(table_va(entry), addr, next, walk);
	}
	return err;
}

int walk_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
		    const struct mm_walk_ops *ops, void *private)
{
	struct mm_walk walk = { .ops = ops, .mm = mm, .private = private };

	return walk_upper(__va(mm->pgd), PGDIR_SHIFT, start, end, &walk);
}

/* --- freeing empty tables ------------------------------------------------------- */

static bool table_empty(const uint64_t *table)
{
	for (int i = 0; i < PTRS_PER_TABLE; i++)
		if (table[i])
			return false;
	return true;
}

/*
 * Free the empty tables below `table` (entries of 1 << shift bytes) that
 * [addr, end) touches, deepest first, so a PMD table emptied by freeing
 * its last PTE table goes too.
 */
static void free_table_range(struct mm_struct *mm, uint64_t *table, unsigned int shift,
			     unsigned long addr, unsigned long end)
{
	unsigned long next;

	for (; addr < end; addr = next) {
		uint64_t *entry = &table[(addr >> shift) & (PTRS_PER_TABLE - 1)];
		uint64_t *child;

		next = level_end(addr, end, shift);
		if (!(*entry & _PAGE_PRESENT) || (*entry & _PAGE_PSE))
			continue;
		child = table_va(*entry);
		if (shift > PMD_SHIFT)
			free_table_range(mm, child, shift - 9, addr, next);
		if (!table_empty(child))
			continue;
		*entry = 0;
		__free_pages(virt_to_page(child), 0);
		mm->counters[MM_PGTABLES]--;
	}
}

/*
 * Linux's free_pgd_range frees a table without looking inside, so it needs
 * floor/ceiling to keep tables a neighbouring VMA still uses. Folium reads
 * the 512 entries instead: a table that maps nothing is never in use, so
 * every empty table [start, end) touches may go, even one reaching past it.
 */
void free_pgtables(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	if (start < end)
		free_table_range(mm, __va(mm->pgd), PGDIR_SHIFT, start, end);
}

/* --- batched PTE operations for large folios ------------------------------------ */

/* Flags that may differ inside one batch: hardware sets them per PTE. */
#define PTE_BATCH_IGNORED (_PAGE_ACCESSED | _PAGE_DIRTY)

/*
 * Example: a 64K folio at pfn 0x400 mapped by 16 PTEs, pte maps pfn 0x403:
 * at most 13 PTEs (0x403..0x40f) can follow; a hole or a PTE with other
 * permissions ends the run earlier. Linux: folio_pte_batch (mm/internal.h).
 */
unsigned int folio_pte_batch(struct folio *folio, pte_t *ptep, pte_t pte,
			     unsigned int max_nr)
{
	unsigned long left = folio_pfn(folio) + folio_nr_pages(folio) - pte_pfn(pte);
	pte_t expected = pte & ~PTE_BATCH_IGNORED;
	unsigned int nr = 1;

	if (max_nr > left)
		max_nr = (unsigned int)left;
	for (; nr < max_nr; nr++) {
		expected += PAGE_SIZE;	/* the next pfn, same flags */
		if (!pte_present(ptep[nr]) || (ptep[nr] & ~PTE_BATCH_IGNORED) != expected)
			break;
	}
	return nr;
}

void clear_young_dirty_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
			    unsigned int nr, unsigned int cydp_flags)
{
	pte_t mask = 0;

	if (cydp_flags & CYDP_CLEAR_YOUNG)
		mask |= _PAGE_ACCESSED;
	if (cydp_flags & CYDP_CLEAR_DIRTY)
		mask |= _PAGE_DIRTY;
	for (unsigned int i = 0; i < nr; i++)
		ptep[i] &= ~mask;
	mm->counters[MM_PTE_WRITES] += nr;
}
