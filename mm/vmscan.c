/*
 * LRU lists of anonymous folios and lazyfree reclaim. A new folio goes to
 * the head of its node's lru_anon; MADV_FREE moves it to lru_lazyfree;
 * reclaim takes folios from the lazyfree tail (oldest first) and looks at
 * their mappings through mapping (the mm) and index (the address).
 * Invariant: PG_lru is set exactly when the folio is on one of the two
 * lists, lru_lazyfree holds only lazyfree (!swapbacked) folios, and the
 * nr_lru_* counters match the lists. Example: a 64K folio written after
 * MADV_FREE has a dirty PTE: reclaim sets swapbacked again and moves it to
 * lru_anon with its data; an untouched one is unmapped and its 16 pages
 * freed (pglazyfreed += 16). Linux: mm/swap.c, mm/vmscan.c, mm/rmap.c.
 */
#include <vm.h>

static struct list_head *folio_lru_list(struct pglist_data *pgdat, struct folio *folio,
					unsigned long **count)
{
	if (folio_test_lazyfree(folio)) {
		*count = &pgdat->nr_lru_lazyfree;
		return &pgdat->lru_lazyfree;
	}
	*count = &pgdat->nr_lru_anon;
	return &pgdat->lru_anon;
}

static struct pglist_data *folio_pgdat(const struct folio *folio)
{
	return NODE_DATA(page_to_nid(&folio->page));
}

void folio_add_lru(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);
	unsigned long *count;
	struct list_head *list = folio_lru_list(pgdat, folio, &count);

	if (folio_test_lru(folio)) {
		dump_page(&folio->page, "folio_add_lru: already on an LRU list");
		return;
	}
	folio_set_lru(folio);
	list_add(&folio->page.lru, list);
	(*count)++;
}

void folio_del_lru(struct folio *folio)
{
	unsigned long *count;

	if (!folio_test_lru(folio))
		return;
	folio_lru_list(folio_pgdat(folio), folio, &count);
	list_del(&folio->page.lru);
	folio_clear_lru(folio);
	(*count)--;
}

unsigned long lru_list_pages(const struct list_head *list)
{
	unsigned long pages = 0;
	const struct list_head *pos;

	list_for_each(pos, list)
		pages += folio_nr_pages(page_folio(list_entry(pos, struct page, lru)));
	return pages;
}

/* Move a folio on an LRU list to the head of the list its flags now name.
 * Context: the flags changed after it was put on its current list, so
 * the caller says which counter it leaves (from). */
static void folio_move_lru(struct folio *folio, unsigned long *from)
{
	unsigned long *to;
	struct list_head *list = folio_lru_list(folio_pgdat(folio), folio, &to);

	list_move(&folio->page.lru, list);
	(*from)--;
	(*to)++;
}

void folio_mark_lazyfree(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);

	/* Already lazyfree (MADV_FREE twice) or not anon: nothing to move. */
	if (!folio_test_anon(folio) || !folio_test_swapbacked(folio))
		return;
	folio_clear_dirty(folio);
	folio_clear_swapbacked(folio);
	if (folio_test_lru(folio))
		folio_move_lru(folio, &pgdat->nr_lru_anon);
	else
		folio_add_lru(folio);
	pgdat->vm_events[PGLAZYFREE] += folio_nr_pages(folio);
}

/* --- looking at a folio's mappings ------------------------------------------------ */

/* Where a folio is mapped: one PMD leaf, or up to nr PTEs from ptep
 * (after a partial munmap some of them map nothing of it). */
struct folio_maps {
	struct mm_struct *mm;
	unsigned long addr;
	pmd_t *pmd;
	pte_t *ptep;
};

static bool folio_find_maps(struct folio *folio, struct folio_maps *m)
{
	pmd_t *pmd;

	m->mm = folio->page.mapping;
	m->addr = folio->page.index;
	m->pmd = NULL;
	m->ptep = NULL;
	if (!m->mm || folio->page._mapcount < 0)
		return false;
	pmd = pmd_offset_mm(m->mm, m->addr, false);
	if (!pmd || !pmd_present(*pmd))
		return false;
	if (pmd_leaf(*pmd)) {
		m->pmd = pmd_pfn(*pmd) == folio_pfn(folio) ? pmd : NULL;
		return m->pmd;
	}
	m->ptep = pte_offset_mm(m->mm, m->addr, false);
	return m->ptep;
}

static bool pte_maps_page(pte_t pte, struct folio *folio, unsigned long n)
{
	return pte_present(pte) && pte_pfn(pte) == folio_pfn(folio) + n;
}

/* OR of the young/dirty bits of every entry mapping folio. */
static pte_t folio_maps_bits(struct folio *folio, const struct folio_maps *m)
{
	pte_t bits = 0;

	if (m->pmd)
		return *m->pmd & (_PAGE_ACCESSED | _PAGE_DIRTY);
	for (unsigned long n = 0; n < folio_nr_pages(folio); n++)
		if (pte_maps_page(m->ptep[n], folio, n))
			bits |= m->ptep[n] & (_PAGE_ACCESSED | _PAGE_DIRTY);
	return bits;
}

/* Age every entry mapping folio (Linux: folio_referenced clears young). */
static void folio_mkold(struct folio *folio, const struct folio_maps *m)
{
	unsigned long nr = folio_nr_pages(folio);

	if (m->pmd) {
		set_pmd_at(m->mm, m->addr, m->pmd, pmd_mkold(*m->pmd));
	} else {
		for (unsigned long n = 0; n < nr; n++)
			if (pte_maps_page(m->ptep[n], folio, n))
				clear_young_dirty_ptes(m->mm, m->addr + n * PAGE_SIZE,
						       m->ptep + n, 1, CYDP_CLEAR_YOUNG);
	}
	flush_tlb_range(m->mm, m->addr, m->addr + nr * PAGE_SIZE);
}

/*
 * Unmap a clean, old lazyfree folio and free it: its contents may be
 * dropped, a later read faults in zeros. One flush for the folio, before
 * the pages go back. Linux: try_to_unmap_one's lazyfree branch.
 */
static void folio_unmap_lazyfree(struct folio *folio, const struct folio_maps *m)
{
	unsigned long nr = folio_nr_pages(folio), mapped = 0;

	if (m->pmd) {
		pmdp_get_and_clear(m->mm, m->addr, m->pmd);
		mapped = HPAGE_PMD_NR;
	} else {
		for (unsigned long n = 0; n < nr; n++) {
			if (!pte_maps_page(m->ptep[n], folio, n))
				continue;
			ptep_get_and_clear(m->mm, m->addr + n * PAGE_SIZE, m->ptep + n);
			mapped++;
		}
	}
	flush_tlb_range(m->mm, m->addr, m->addr + nr * PAGE_SIZE);
	m->mm->counters[MM_ANONPAGES] -= mapped;
	folio->page._mapcount = -1;
	folio_del_lru(folio);
	folio_put(folio);
}

/* --- reclaim ------------------------------------------------------------------------ */

/* One folio from the lazyfree tail: free it, age it, or reactivate it. */
static void shrink_lazyfree_folio(struct pglist_data *pgdat, struct folio *folio,
				  struct lazyfree_reclaim_stat *stat)
{
	unsigned long nr = folio_nr_pages(folio);
	struct folio_maps m;
	pte_t bits;

	stat->scanned += nr;
	pgdat->vm_events[PGSCAN_ANON] += nr;
	if (folio_test_locked(folio) || folio_ref_count(folio) != 1 ||
	    !folio_find_maps(folio, &m)) {
		list_move(&folio->page.lru, &pgdat->lru_lazyfree);	/* busy: later */
		return;
	}
	bits = folio_maps_bits(folio, &m);
	if ((bits & _PAGE_DIRTY) || folio_test_dirty(folio)) {
		/* Written after MADV_FREE: the data is live again. */
		folio_set_swapbacked(folio);
		folio_move_lru(folio, &pgdat->nr_lru_lazyfree);
		stat->reactivated += nr;
	} else if (bits & _PAGE_ACCESSED) {
		folio_mkold(folio, &m);
		list_move(&folio->page.lru, &pgdat->lru_lazyfree);
		stat->second_chance += nr;
	} else {
		folio_unmap_lazyfree(folio, &m);
		pgdat->vm_events[PGLAZYFREED] += nr;
		stat->freed += nr;
	}
}

/* Each folio is looked at at most once per call: the ones rotated to the
 * head are not seen again, so the walk ends even if none can be freed. */
unsigned long reclaim_lazyfree_stat(struct pglist_data *pgdat, unsigned long nr_to_reclaim,
				    struct lazyfree_reclaim_stat *stat)
{
	unsigned long budget = pgdat->nr_lru_lazyfree;

	*stat = (struct lazyfree_reclaim_stat){ 0 };
	while (budget-- && stat->freed < nr_to_reclaim && !list_empty(&pgdat->lru_lazyfree)) {
		struct page *page = list_last_entry(&pgdat->lru_lazyfree, struct page, lru);

		shrink_lazyfree_folio(pgdat, page_folio(page), stat);
	}
	return stat->freed;
}

unsigned long reclaim_lazyfree(struct pglist_data *pgdat, unsigned long nr_to_reclaim)
{
	struct lazyfree_reclaim_stat stat;

	return reclaim_lazyfree_stat(pgdat, nr_to_reclaim, &stat);
}

/* The allocator's hook (Linux: try_to_free_pages): a large request asks
 * for more, since freed pages must also merge into a block of order. */
static unsigned long lazyfree_reclaim_hook(struct pglist_data *pgdat, unsigned int order,
					   unsigned long nr_pages)
{
	return reclaim_lazyfree(pgdat, order ? nr_pages << 1 : nr_pages);
}

void pgdat_set_lazyfree_reclaim(struct pglist_data *pgdat)
{
	pgdat->reclaim = lazyfree_reclaim_hook;
}
