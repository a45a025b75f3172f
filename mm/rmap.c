/*
 * Reverse mapping of anonymous folios, and migrating them. Without fork a
 * folio has one owner: mapping = its mm, index = the address of its first
 * page; _mapcount = PTEs mapping it - 1, or 0 for one PMD (mm/mmap.c
 * unmaps by the same rule). Example: a 64K folio faulted in at 0x40003000
 * has index 0x40000000 and _mapcount 15; migrating it copies 64K and
 * rewrites those 16 PTEs to the new pfns with their old flags.
 * Linux: mm/rmap.c (folio_add_new_anon_rmap) and mm/migrate.c.
 */
#include <vm.h>

void folio_add_anon_rmap(struct folio *folio, struct mm_struct *mm, unsigned long addr)
{
	struct page *head = &folio->page;

	head->mapping = mm;
	head->index = ALIGN_DOWN(addr, folio_size(folio));
	/* A PMD-order folio is mapped by one PMD when it is faulted in. */
	if (folio_order(folio) == HPAGE_PMD_ORDER)
		head->_mapcount = 0;
	else
		head->_mapcount = (int)folio_nr_pages(folio) - 1;
}

/* Return: the PMD leaf mapping folio, or NULL if it is PTE-mapped. */
static pmd_t *folio_pmd(struct folio *folio, struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd;

	if (folio_order(folio) != HPAGE_PMD_ORDER)
		return NULL;
	pmd = pmd_offset_mm(mm, addr, false);
	if (!pmd || !pmd_leaf(*pmd) || pmd_pfn(*pmd) != folio_pfn(folio))
		return NULL;
	return pmd;
}

/* Does the PTE at ptep map page n of src? (After a partial munmap some
 * of a folio's PTEs are gone or belong to no folio.) */
static bool pte_maps(const pte_t *ptep, struct folio *src, unsigned long n)
{
	return ptep && pte_present(*ptep) && pte_pfn(*ptep) == folio_pfn(src) + n;
}

/*
 * Replace every PTE that maps src with one mapping the same page of dst,
 * keeping its flags (young, dirty, RW), then one flush for the range.
 * Linux unmaps to migration entries before copying because other CPUs
 * may write meanwhile; Folium has one CPU and the caller does not touch
 * the user half while migrating, so copy, swap and flush suffice.
 * Return: 0, or -EBUSY if the PTEs found do not match src's mapcount
 * (nothing changed).
 */
static int migrate_ptes(struct folio *dst, struct folio *src, struct mm_struct *mm)
{
	unsigned long addr = src->page.index, nr = folio_nr_pages(src), found = 0;
	pte_t *ptep = pte_offset_mm(mm, addr, false);

	for (unsigned long n = 0; n < nr; n++)
		found += pte_maps(ptep ? ptep + n : NULL, src, n);
	if (found != (unsigned long)src->page._mapcount + 1)
		return -EBUSY;
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	for (unsigned long n = 0; n < nr; n++) {
		unsigned long a = addr + n * PAGE_SIZE;
		pte_t old;

		if (!pte_maps(ptep + n, src, n))
			continue;
		old = ptep_get_and_clear(mm, a, ptep + n);
		set_ptes(mm, a, ptep + n, pfn_pte(folio_pfn(dst) + n, old & ~PTE_ADDR_MASK), 1);
	}
	flush_tlb_range(mm, addr, addr + nr * PAGE_SIZE);
	return 0;
}

/* The same for a PMD-mapped folio: one entry to swap. */
static void migrate_pmd(struct folio *dst, struct folio *src, struct mm_struct *mm,
			pmd_t *pmd)
{
	unsigned long addr = src->page.index;
	pmd_t old;

	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	old = pmdp_get_and_clear(mm, addr, pmd);
	set_pmd_at(mm, addr, pmd, pfn_pmd(folio_pfn(dst), old & ~PTE_ADDR_MASK));
	flush_tlb_range(mm, addr, addr + PMD_SIZE);
}

/* The owner's state moves from src to dst: mapping, index, mapcount, the
 * data flags and the LRU position; src keeps only migration's reference. */
static void move_anon_state(struct folio *dst, struct folio *src)
{
	const unsigned long moved = (1ul << PG_anon) | (1ul << PG_swapbacked) |
				    (1ul << PG_dirty) | (1ul << PG_referenced) |
				    (1ul << PG_lru);

	dst->page.mapping = src->page.mapping;
	dst->page.index = src->page.index;
	dst->page._mapcount = src->page._mapcount;
	dst->page.flags |= src->page.flags & moved;
	if (folio_test_lru(src)) {
		list_add(&dst->page.lru, &src->page.lru);
		list_del(&src->page.lru);
	}
	src->page.flags &= ~moved;
	src->page.mapping = NULL;
	src->page.index = 0;
	src->page._mapcount = -1;
}

int anon_migrate_folio(struct folio *dst, struct folio *src)
{
	struct mm_struct *mm = src->page.mapping;
	pmd_t *pmd;

	if (!folio_test_anon(src) || !mm || src->page._mapcount < 0 ||
	    folio_order(dst) != folio_order(src))
		return -EBUSY;
	pmd = folio_pmd(src, mm, src->page.index);
	if (pmd)
		migrate_pmd(dst, src, mm, pmd);
	else if (migrate_ptes(dst, src, mm))
		return -EBUSY;
	move_anon_state(dst, src);
	return 0;
}
