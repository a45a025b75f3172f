/*
 * LRU lists of anonymous folios and lazyfree reclaim. A new folio goes to
 * the head of its node's lru_anon; MADV_FREE moves it to lru_lazyfree;
 * reclaim takes folios from the lazyfree tail (oldest first) and looks at
 * their mappings through the reverse map (rmap_walk, try_to_unmap).
 * An mlocked folio (mm/mlock.c) is on lru_unevictable, which reclaim
 * never scans, whatever its other flags say.
 * Invariant: PG_lru is set exactly when the folio is on one of the three
 * lists, lru_unevictable holds exactly the PG_unevictable folios,
 * lru_lazyfree only lazyfree (!swapbacked) ones, and the nr_lru_*
 * counters match the lists. Example: a 64K folio written after
 * MADV_FREE has a dirty PTE: reclaim sets swapbacked again and moves it to
 * lru_anon with its data; an untouched one is unmapped and its 16 pages
 * freed (pglazyfreed += 16). Linux: mm/swap.c, mm/vmscan.c, mm/rmap.c.
 */
#include <vm.h>

static struct list_head *folio_lru_list(struct pglist_data *pgdat, struct folio *folio,
					unsigned long **count)
{
	if (folio_test_unevictable(folio)) {
		*count = &pgdat->nr_lru_unevictable;
		return &pgdat->lru_unevictable;
	}
	if (folio_test_lazyfree(folio)) {
		*count = &pgdat->nr_lru_lazyfree;
		return &pgdat->lru_lazyfree;
	}
	*count = &pgdat->nr_lru_anon;
	return &pgdat->lru_anon;
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

/* --- looking at a folio's mappings (through rmap_walk) ---------------------------- */

/* What one rmap_walk saw of a folio: how many entries map it, and the OR
 * of their young/dirty bits. */
struct folio_refs {
	unsigned int mappings;
	pte_t young_dirty;
	bool vm_locked;	   /* one mapping is in a VM_LOCKED VMA */
	bool vm_droppable; /* one mapping is in a VM_DROPPABLE VMA */
};

static int folio_refs_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct folio_refs *refs = arg;
	uint64_t entry = pvmw->pmd ? *pvmw->pmd : *pvmw->pte;

	struct vm_area_struct *vma = find_vma(pvmw->mm, pvmw->address);

	refs->mappings++;
	refs->young_dirty |= entry & (_PAGE_ACCESSED | _PAGE_DIRTY);
	refs->vm_locked |= vma && (vma->vm_flags & VM_LOCKED);
	refs->vm_droppable |= vma && (vma->vm_flags & VM_DROPPABLE);
	return 0;
}

/* A lazyfree folio written since MADV_FREE holds live data again; a
 * droppable one never does (Linux: try_to_unmap_one, "unlike MADV_FREE
 * mappings, VM_DROPPABLE ones can be dropped even if they've been
 * dirtied"). */
static bool lazyfree_written_again(const struct folio_refs *refs, struct folio *folio)
{
	return ((refs->young_dirty & _PAGE_DIRTY) || folio_test_dirty(folio)) &&
	       !refs->vm_droppable;
}

static struct folio_refs folio_refs(struct folio *folio)
{
	struct folio_refs refs = { 0 };
	const struct rmap_walk_control rwc = { .rmap_one = folio_refs_one, .arg = &refs };

	rmap_walk(folio, &rwc);
	return refs;
}

static int mkold_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	if (pvmw->pmd)
		set_pmd_at(pvmw->mm, pvmw->address, pvmw->pmd, pmd_mkold(*pvmw->pmd));
	else
		clear_young_dirty_ptes(pvmw->mm, pvmw->address, pvmw->pte, 1, CYDP_CLEAR_YOUNG);
	return 0;
}

static void mkold_flush(struct mm_struct *mm, unsigned long start, unsigned long end, void *arg)
{
	flush_tlb_range(mm, start, end);
}

/* Age every entry mapping folio, one flush for its range in each VMA
 * that maps it (Linux: folio_referenced clears young). */
static void folio_mkold(struct folio *folio)
{
	const struct rmap_walk_control rwc = { .rmap_one = mkold_one, .vma_done = mkold_flush };

	rmap_walk(folio, &rwc);
}

/* --- reclaim ------------------------------------------------------------------------ */

/* A reclaim pass's unmapped folios and their one deferred flush (Linux:
 * shrink_folio_list's free_folios and current->tlb_ubc). */
struct reclaim_batch {
	struct tlbflush_unmap_batch tlb;
	struct list_head free_folios;
	unsigned int nr;
};

/* Linux: shrink_folio_list's end: try_to_unmap_flush, then
 * free_unref_folios. No CPU can reach a page through a stale entry once
 * it is freed. */
static void reclaim_batch_free(struct reclaim_batch *rb)
{
	try_to_unmap_flush(&rb->tlb);
	while (!list_empty(&rb->free_folios)) {
		struct page *page = list_first_entry(&rb->free_folios, struct page, lru);

		list_del(&page->lru);
		folio_put(page_folio(page));
	}
	rb->nr = 0;
}

/* Linux: SWAP_CLUSTER_MAX, the folios shrink_folio_list takes at once. */
#define RECLAIM_BATCH_MAX 32

/* One folio from the lazyfree tail: free it, age it, or reactivate it. */
static void shrink_lazyfree_folio(struct pglist_data *pgdat, struct folio *folio,
				  struct lazyfree_reclaim_stat *stat, struct reclaim_batch *rb)
{
	unsigned long nr = folio_nr_pages(folio);
	struct folio_refs refs = { 0 };

	stat->scanned += nr;
	pgdat->vm_events[PGSCAN_ANON] += nr;
	if (!folio_test_locked(folio) && folio_ref_count(folio) == 1)
		refs = folio_refs(folio);
	if (!refs.mappings) { /* locked, held elsewhere or unmapped: later */
		list_move(&folio->page.lru, &pgdat->lru_lazyfree);
		return;
	}
	if (refs.vm_locked) {
		/* Mapped in a VM_LOCKED VMA that mlock did not lock it for (a
		 * large folio only partly inside): it is unevictable after all
		 * (Linux: try_to_unmap_one's mlock_vma_folio). */
		mlock_folio(folio);
		return;
	}
	if (lazyfree_written_again(&refs, folio)) {
		/* Written after MADV_FREE: the data is live again. */
		folio_set_swapbacked(folio);
		folio_move_lru(folio, &pgdat->nr_lru_lazyfree);
		stat->reactivated += nr;
	} else if (refs.young_dirty & _PAGE_ACCESSED) {
		folio_mkold(folio);
		list_move(&folio->page.lru, &pgdat->lru_lazyfree);
		stat->second_chance += nr;
	} else {
		/* Clean and old: the contents may go, a later read faults in
		 * zeros (Linux: try_to_unmap_one's lazyfree branch). Freed
		 * after the batch's flush. */
		try_to_unmap_batched(folio, &rb->tlb);
		folio_del_lru(folio);
		list_add_tail(&folio->page.lru, &rb->free_folios);
		if (++rb->nr == RECLAIM_BATCH_MAX)
			reclaim_batch_free(rb);
		pgdat->vm_events[PGLAZYFREED] += nr;
		stat->freed += nr;
	}
}

void folio_deactivate(struct folio *folio)
{
	unsigned long *count;
	struct list_head *list;

	folio_clear_referenced(folio);
	if (!folio_test_lru(folio))
		return;
	list = folio_lru_list(folio_pgdat(folio), folio, &count);
	list_move_tail(&folio->page.lru, list);
}

/*
 * Linux's shrink_folio_list for one isolated folio with ignore_references
 * (reclaim_pages, MADV_PAGEOUT): young bits do not save it. A swapbacked
 * folio needs a swap slot, and there is no swap: a large one is split
 * (folio_alloc_swap failed: "fallback to swap normal pages"), each page
 * then kept. A lazyfree one is dropped unless it was written again
 * (try_to_unmap_one's lazyfree branch).
 */
unsigned long reclaim_folio(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);
	unsigned long nr = folio_nr_pages(folio);
	struct folio_refs refs;

	/* Linux: folio_isolate_lru fails, or keep_locked / extra pins. */
	if (!folio_test_lru(folio) || folio_test_locked(folio) || folio_ref_count(folio) != 1)
		return 0;
	if (folio_test_swapbacked(folio)) {
		if (folio_test_large(folio))
			split_anon_folio_mapped(folio);
		return 0;
	}
	refs = folio_refs(folio);
	if (!refs.mappings)
		return 0;
	if (lazyfree_written_again(&refs, folio)) {
		/* Linux: try_to_unmap_one marks it dirty from the PTE, then
		 * remaps it swapbacked. */
		folio_set_dirty(folio);
		folio_set_swapbacked(folio);
		folio_move_lru(folio, &pgdat->nr_lru_lazyfree);
		return 0;
	}
	try_to_unmap(folio);
	folio_del_lru(folio);
	folio_put(folio);
	pgdat->vm_events[PGLAZYFREED] += nr;
	return nr;
}

/* Each folio is looked at at most once per call: the ones rotated to the
 * head are not seen again, so the walk ends even if none can be freed. */
unsigned long reclaim_lazyfree_stat(struct pglist_data *pgdat, unsigned long nr_to_reclaim,
				    struct lazyfree_reclaim_stat *stat)
{
	unsigned long budget = pgdat->nr_lru_lazyfree;
	struct reclaim_batch rb = { .nr = 0 };

	INIT_LIST_HEAD(&rb.free_folios);
	cpumask_clear(&rb.tlb.cpumask);
	*stat = (struct lazyfree_reclaim_stat){ 0 };
	while (budget-- && stat->freed < nr_to_reclaim && !list_empty(&pgdat->lru_lazyfree)) {
		struct page *page = list_last_entry(&pgdat->lru_lazyfree, struct page, lru);

		shrink_lazyfree_folio(pgdat, page_folio(page), stat, &rb);
	}
	reclaim_batch_free(&rb);
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
