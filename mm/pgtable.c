/*
 * An address space's 4-level page tables: allocating and freeing table
 * pages (counted as MM_PGTABLES), finding the slot for an address with or
 * without allocating, writing leaf entries (counted as MM_PTE_WRITES),
 * the one walker every range operation uses, and freeing tables that map
 * nothing. Invariant: every table page came from the mm's node, unmovable
 * (never from a CMA block), and is counted in MM_PGTABLES.
 * Example: addr 0x7f0000201000 → pgd 254, pud 0, pmd 1, pte 1; a first
 * fault there allocates 3 tables (PUD, PMD, PTE), MM_PGTABLES 1 → 4.
 */
#include <arch.h>
#include <vm.h>

static uint64_t *table_va(uint64_t entry)
{
	return __va(entry & PTE_ADDR_MASK);
}

/* --- table pages ------------------------------------------------------------ */

/* GFP_KERNEL is unmovable: a table pinned in a CMA block would make that
 * block impossible to empty. */
static struct page *table_page_alloc(struct mm_struct *mm)
{
	struct page *page;

	if (mm->nr_table_reserve) {
		page = mm->table_reserve[--mm->nr_table_reserve];
		mm->table_reserve[mm->nr_table_reserve] = NULL;
		clear_pages(page_address(page), 1); /* reserved uncleared: maybe unused */
	} else {
		page = alloc_pages_node(mm->nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, 0);
	}
	if (page)
		mm->counters[MM_PGTABLES]++;
	return page;
}

static void table_page_free(struct mm_struct *mm, struct page *page)
{
	__free_pages(page, 0);
	mm->counters[MM_PGTABLES]--;
}

/* The top table shares the kernel half with every other mm (arch hook). */
bool pgd_alloc(struct mm_struct *mm)
{
	struct page *page = table_page_alloc(mm);

	if (!page)
		return false;
	mm->pgd = page_to_phys(page);
	arch_pgd_init(page_address(page));
	return true;
}

void pgd_free(struct mm_struct *mm)
{
	table_page_free(mm, pfn_to_page(PHYS_PFN(mm->pgd)));
	mm->pgd = 0;
}

struct page *pte_alloc_one(struct mm_struct *mm)
{
	return table_page_alloc(mm);
}

void pte_free(struct mm_struct *mm, struct page *table)
{
	table_page_free(mm, table);
}

/* --- finding a slot ----------------------------------------------------------- */

/* Return: the table *entry points to, or NULL if none (an empty entry, or
 * a leaf: a 1 GiB HugeTLB page in a PUD slot points to no PMD table). */
static uint64_t *table_lookup(const uint64_t *entry)
{
	return (*entry & (_PAGE_PRESENT | _PAGE_PSE)) == _PAGE_PRESENT ? table_va(*entry) : NULL;
}

unsigned int pgtable_prealloc(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud = table_lookup(&pgd[pgd_index(addr)]);
	pmd_t *pmd = pud ? table_lookup(&pud[pud_index(addr)]) : NULL;
	unsigned int missing = !pud + !pmd + (!pmd || !pmd_present(pmd[pmd_index(addr)]));

	if (missing < 2 || mm->nr_table_reserve)
		return 0;
	/* GFP_KERNEL: unmovable, as every table page (see table_page_alloc). */
	mm->nr_table_reserve = (unsigned int)alloc_pages_bulk_array_node(
		GFP_KERNEL | __GFP_NOWARN, mm->nid, missing, mm->table_reserve);
	return mm->nr_table_reserve;
}

void pgtable_prealloc_release(struct mm_struct *mm)
{
	while (mm->nr_table_reserve) {
		__free_pages(mm->table_reserve[--mm->nr_table_reserve], 0);
		mm->table_reserve[mm->nr_table_reserve] = NULL;
	}
}

/* Return: the table *entry points to, allocated zeroed if missing; NULL
 * when memory is short. Linux: __pud_alloc, __pmd_alloc, __pte_alloc. */
static uint64_t *table_alloc(struct mm_struct *mm, uint64_t *entry)
{
	struct page *page;

	if (*entry & _PAGE_PRESENT)
		return table_lookup(entry); /* NULL for a leaf: no table below it */
	page = table_page_alloc(mm);
	if (!page)
		return NULL;
	*entry = page_to_phys(page) | _PAGE_TABLE;
	return table_va(*entry);
}

pmd_t *mm_find_pmd(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud = table_lookup(&pgd[pgd_index(addr)]);
	pmd_t *pmd = pud ? table_lookup(&pud[pud_index(addr)]) : NULL;

	return pmd ? &pmd[pmd_index(addr)] : NULL;
}

/* Linux: follow_page_mask (follow_pud_mask, follow_pmd_mask,
 * follow_page_pte): a leaf of any level, for the access asked. */
struct page *follow_page(struct mm_struct *mm, unsigned long addr, bool write)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud = table_lookup(&pgd[pgd_index(addr)]);
	pmd_t *pmd;
	pte_t *pte;

	if (!pud)
		return NULL;
	pud += pud_index(addr);
	if (pud_leaf(*pud))
		return !write || pud_write(*pud)
			       ? pfn_to_page(pud_pfn(*pud)) + ((addr & ~PUD_MASK) >> PAGE_SHIFT)
			       : NULL;
	pmd = table_lookup(pud);
	if (!pmd)
		return NULL;
	pmd += pmd_index(addr);
	if (pmd_leaf(*pmd))
		return !write || pmd_write(*pmd)
			       ? pmd_page(*pmd) + ((addr & ~PMD_MASK) >> PAGE_SHIFT)
			       : NULL;
	pte = pte_offset_map(pmd, addr);
	return pte && pte_present(*pte) && (!write || pte_write(*pte)) ? pte_page(*pte) : NULL;
}

pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr)
{
	if (!pmd_present(*pmd) || pmd_leaf(*pmd))
		return NULL;
	return &((pte_t *)table_va(*pmd))[pte_index(addr)];
}

pmd_t *pmd_alloc(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud = table_alloc(mm, &pgd[pgd_index(addr)]);
	pmd_t *pmd = pud ? table_alloc(mm, &pud[pud_index(addr)]) : NULL;

	return pmd ? &pmd[pmd_index(addr)] : NULL;
}

pud_t *pud_alloc(struct mm_struct *mm, unsigned long addr)
{
	pgd_t *pgd = __va(mm->pgd);
	pud_t *pud = table_alloc(mm, &pgd[pgd_index(addr)]);

	return pud ? &pud[pud_index(addr)] : NULL;
}

pte_t *pte_alloc_map(struct mm_struct *mm, pmd_t *pmd, unsigned long addr)
{
	pte_t *table;

	if (pmd_leaf(*pmd))
		return NULL;
	table = table_alloc(mm, pmd);
	return table ? &table[pte_index(addr)] : NULL;
}

/* --- writing entries ------------------------------------------------------------ */

void set_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte, unsigned int nr)
{
	/* One entry, the common case (every order-0 fault and move): one
	 * store, no loop; it cannot cross a table. */
	if (nr == 1) {
		*ptep = pte;
		mm->counters[MM_PTE_WRITES]++;
		return;
	}
	/* One PTE table: the run may not cross a PMD boundary. */
	if (pte_index(addr) + nr > PTRS_PER_TABLE) {
		pr_err("set_ptes: addr %lx nr %u crosses a PTE table, not mapped\n", addr, nr);
		return;
	}
	for (unsigned int i = 0; i < nr; i++)
		ptep[i] = pte + ((uint64_t)i << PAGE_SHIFT);
	mm->counters[MM_PTE_WRITES] += nr;
}

void pmd_move_table(struct mm_struct *mm, pmd_t *from, pmd_t *to)
{
	*to = *from;
	*from = 0;
	mm->counters[MM_PTE_WRITES] += 2;
}

/* x86 clears the bit with one atomic and (no CPU could set dirty on a
 * read-only translation afterwards) needs no get-and-clear. */
void ptep_set_wrprotect(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	*ptep = pte_wrprotect(*ptep);
	mm->counters[MM_PTE_WRITES]++;
}

void wrprotect_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		ptep_set_wrprotect(mm, addr + i * PAGE_SIZE, ptep + i);
}

unsigned int folio_reuse_ptes(struct mm_struct *mm, pte_t *ptep, struct page *page, unsigned int nr,
			      bool soft_dirty_faults)
{
	unsigned long pfn = page_to_pfn(page);
	unsigned int made = 0;

	for (unsigned int i = 0; i < nr; i++) {
		pte_t pte = ptep[i];

		if (!pte_present(pte) || pte_pfn(pte) != pfn + i)
			continue;
		SetPageAnonExclusive(page + i);
		if (pte_write(pte) || (soft_dirty_faults && !pte_soft_dirty(pte)))
			continue;
		ptep[i] = pte_mkwrite(pte);
		made++;
	}
	mm->counters[MM_PTE_WRITES] += made;
	return made;
}

void pmdp_set_wrprotect(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp)
{
	*pmdp = pmd_wrprotect(*pmdp);
	mm->counters[MM_PTE_WRITES]++;
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

void set_pud_at(struct mm_struct *mm, unsigned long addr, pud_t *pudp, pud_t pud)
{
	set_pmd_at(mm, addr, pudp, pud);
}

pud_t pudp_get_and_clear(struct mm_struct *mm, unsigned long addr, pud_t *pudp)
{
	return pmdp_get_and_clear(mm, addr, pudp);
}

/*
 * Make the PMD leaf not present (the rest of the entry kept) and flush its
 * 2 MiB translation, so no CPU goes on using a cached copy while the
 * caller rewrites the entry. Linux: pmdp_invalidate (mm/pgtable-generic.c)
 * = pmdp_establish(pmd_mkinvalid) + flush_pmd_tlb_range.
 */
pmd_t pmdp_invalidate(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp)
{
	pmd_t old = *pmdp;

	*pmdp = old & ~_PAGE_PRESENT;
	mm->counters[MM_PTE_WRITES]++;
	flush_pmd_tlb_range(mm, addr & PMD_MASK);
	return old;
}

/*
 * The 2 MiB leaf gone and its one translation flushed: x86's
 * flush_pmd_tlb_range strides by PMD_SIZE, so one invlpg, where a flush
 * of the 512 pages would be above the ceiling and drop the whole TLB.
 * Linux: pmdp_huge_clear_flush (mm/pgtable-generic.c).
 */
pmd_t pmdp_huge_clear_flush(struct mm_struct *mm, unsigned long haddr, pmd_t *pmdp)
{
	pmd_t old = pmdp_get_and_clear(mm, haddr, pmdp);

	flush_pmd_tlb_range(mm, haddr);
	return old;
}

/* --- the walker -------------------------------------------------------------- */

static int walk_pte_range(pmd_t *pmd, unsigned long addr, unsigned long end, struct mm_walk *walk)
{
	pte_t *pte = pte_offset_map(pmd, addr);
	int err = 0;

	for (; pte && addr < end && !err; addr += PAGE_SIZE, pte++) {
		if (pte_present(*pte) && walk->ops->pte_entry)
			err = walk->ops->pte_entry(pte, addr, walk);
		else if (is_pte_marker(*pte) && walk->ops->pte_marker_entry)
			err = walk->ops->pte_marker_entry(pte, addr, walk);
	}
	return err;
}

/* Every present PMD goes to pmd_entry, which decides whether its PTE
 * table is walked (Linux: walk_pmd_range; its ACTION_* rules). */
static int walk_pmd_range(pmd_t *pmd, unsigned long addr, unsigned long end, struct mm_walk *walk)
{
	unsigned long next;
	int err = 0;

	for (; addr < end && !err; addr = next) {
		pmd_t *pmdp = &pmd[pmd_index(addr)];

		next = pmd_addr_end(addr, end);
	again:
		if (!pmd_present(*pmdp))
			continue;
		walk->action = ACTION_SUBTREE;
		if (walk->ops->pmd_entry)
			err = walk->ops->pmd_entry(pmdp, addr, next, walk);
		if (err || walk->action == ACTION_CONTINUE)
			continue;
		if (walk->action == ACTION_AGAIN)
			goto again;
		if (walk->ops->pte_entry || walk->ops->pte_marker_entry)
			err = walk_pte_range(pmdp, addr, next, walk);
	}
	return err;
}

/* A PUD slot holds a PMD table or a 1 GiB leaf (HugeTLB); the PGD level
 * has no leaves. */
static int walk_pud_range(pud_t *pud, unsigned long addr, unsigned long end, struct mm_walk *walk)
{
	unsigned long next;
	int err = 0;

	for (; addr < end && !err; addr = next) {
		pud_t *pudp = &pud[pud_index(addr)];
		pmd_t *pmd = table_lookup(pudp);

		next = pud_addr_end(addr, end);
		if (pud_leaf(*pudp) && walk->ops->pud_entry)
			err = walk->ops->pud_entry(pudp, addr, next, walk);
		else if (pmd)
			err = walk_pmd_range(pmd, addr, next, walk);
	}
	return err;
}

int walk_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
		    const struct mm_walk_ops *ops, void *private)
{
	struct mm_walk walk = { .ops = ops, .mm = mm, .private = private };
	pgd_t *pgd = __va(mm->pgd);
	unsigned long addr, next;
	int err = 0;

	for (addr = start; addr < end && !err; addr = next) {
		pud_t *pud = table_lookup(&pgd[pgd_index(addr)]);

		next = pgd_addr_end(addr, end);
		if (pud)
			err = walk_pud_range(pud, addr, next, &walk);
	}
	return err;
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

		next = addr_end_at(addr, end, shift);
		if (!(*entry & _PAGE_PRESENT) || (*entry & _PAGE_PSE))
			continue;
		child = table_va(*entry);
		if (shift > PMD_SHIFT)
			free_table_range(mm, child, shift - 9, addr, next);
		if (!table_empty(child))
			continue;
		*entry = 0;
		table_page_free(mm, virt_to_page(child));
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

/* Bits that may differ inside one batch: accessed and dirty (hardware sets
 * them per PTE), write and soft-dirty (a write fault after clear_refs 4
 * sets both in one PTE): Linux's folio_pte_batch ignores them unless the
 * caller passes FPB_RESPECT_DIRTY or FPB_RESPECT_SOFT_DIRTY, which
 * fork's copy_present_ptes does, or FPB_RESPECT_WRITE (mprotect's
 * change_pte_range and mremap's move_ptes). */
#define PTE_BATCH_IGNORED (_PAGE_ACCESSED | _PAGE_DIRTY | _PAGE_RW | _PAGE_SOFT_DIRTY)

/*
 * Example: a 64K folio at pfn 0x400 mapped by 16 PTEs, pte maps pfn 0x403:
 * at most 13 PTEs (0x403..0x40f) can follow; a hole, another page or a PTE
 * with other flags (NX, user, ...; not RW) ends the run earlier.
 * Linux: folio_pte_batch (mm/internal.h).
 */
unsigned int folio_pte_batch(struct folio *folio, const pte_t *ptep, pte_t pte, unsigned int max_nr,
			     bool *any_young, bool *any_dirty)
{
	return folio_pte_batch_flags(folio, ptep, pte, max_nr, 0, any_young, any_dirty, NULL);
}

unsigned int folio_pte_batch_flags(struct folio *folio, const pte_t *ptep, pte_t pte,
				   unsigned int max_nr, unsigned int flags, bool *any_young,
				   bool *any_dirty, bool *any_writable)
{
	unsigned long left = folio_pfn(folio) + folio_nr_pages(folio) - pte_pfn(pte);
	pte_t ignored =
		PTE_BATCH_IGNORED & ~((flags & FPB_RESPECT_DIRTY ? _PAGE_DIRTY : 0) |
				      (flags & FPB_RESPECT_SOFT_DIRTY ? _PAGE_SOFT_DIRTY : 0) |
				      (flags & FPB_RESPECT_WRITE ? _PAGE_RW : 0));
	pte_t first = pte & ~ignored, diff = 0, young_dirty = pte;
	unsigned int nr;

	if (max_nr > left)
		max_nr = (unsigned int)left;
	/* The whole run first, with no branch per PTE: OR together how each
	 * entry differs from the one expected (the next pfn, same flags);
	 * only a run that differs somewhere is walked again to find where.
	 * first has _PAGE_PRESENT: an entry that is not present differs. */
	for (nr = 1; nr < max_nr; nr++) {
		diff |= (ptep[nr] & ~ignored) ^ (first + ((pte_t)nr << PAGE_SHIFT));
		young_dirty |= ptep[nr];
	}
	if (diff) {
		young_dirty = pte;
		for (nr = 1; nr < max_nr; nr++) {
			if ((ptep[nr] & ~ignored) != first + ((pte_t)nr << PAGE_SHIFT))
				break;
			young_dirty |= ptep[nr];
		}
	}
	if (any_young)
		*any_young = pte_young(young_dirty);
	if (any_dirty)
		*any_dirty = pte_dirty(young_dirty);
	if (any_writable)
		*any_writable = pte_write(young_dirty);
	return nr;
}

/*
 * Linux: get_and_clear_full_ptes (include/linux/pgtable.h), the generic
 * loop x86 uses: nr entries of one table emptied, one PTE write each.
 * Return: the first entry with the young and dirty bits of all nr ORed
 * in, for a caller that must know whether any page was used or written.
 */
pte_t get_and_clear_full_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
			      unsigned int nr)
{
	pte_t first = ptep[0], young_dirty = 0;

	if (nr == 1) { /* one entry: no loop */
		ptep[0] = 0;
		mm->counters[MM_PTE_WRITES]++;
		return first;
	}
	for (unsigned int i = 0; i < nr; i++) {
		young_dirty |= ptep[i] & (_PAGE_ACCESSED | _PAGE_DIRTY);
		ptep[i] = 0;
	}
	/* After the loop: the counter may alias a PTE (see below). */
	mm->counters[MM_PTE_WRITES] += nr;
	return first | young_dirty;
}

pte_t modify_prot_start_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, unsigned int nr)
{
	pte_t pte = ptep_get_and_clear(mm, addr, ptep);

	for (unsigned int i = 1; i < nr; i++) {
		pte_t other = ptep_get_and_clear(mm, addr + i * PAGE_SIZE, ptep + i);

		if (pte_dirty(other))
			pte = pte_mkdirty(pte);
		if (pte_young(other))
			pte = pte_mkyoung(pte);
	}
	return pte;
}

/*
 * Linux's generic clear_young_dirty_ptes (include/linux/pgtable.h), the
 * one x86 uses: young alone is a
 * test-and-clear of each PTE (one write); with dirty, each PTE is taken
 * out (ptep_get_and_clear) and put back old and clean (set_pte_at): two
 * writes, the same per-PTE work as the kernel before the batching change
 * did, and MM_PTE_WRITES counts them so. What batching saves on x86 is the
 * split and the per-page folio work, not PTE writes (arm64's contpte
 * version also saves those). Linux's get-and-clear is atomic so that a
 * dirty bit another CPU's MMU sets between the read and the write is not
 * lost; Folium runs on one CPU and no user access happens inside this
 * loop, so the clear and the set back are one store of the new value.
 */
void clear_young_dirty_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, unsigned int nr,
			    unsigned int cydp_flags)
{
	pte_t clear = 0;

	if (cydp_flags & CYDP_CLEAR_YOUNG)
		clear |= _PAGE_ACCESSED;
	if (cydp_flags & CYDP_CLEAR_DIRTY)
		clear |= _PAGE_DIRTY;
	for (unsigned int i = 0; i < nr; i++)
		ptep[i] &= ~clear;
	/* Once, after the loop: the counter is an unsigned long, which may
	 * alias a PTE, so counting inside would reload it after every store. */
	mm->counters[MM_PTE_WRITES] += cydp_flags == CYDP_CLEAR_YOUNG ? nr : 2ul * nr;
}
