/*
 * Folios: 2^order physically contiguous pages managed as one unit. The
 * head page carries PG_head, the order (flags bits 32..39), the refcount
 * and the mapcount; every tail points at the head with compound_head =
 * head | 1 and keeps refcount 0. Example: an order-2 folio at pfn 8 is
 * pages 8..11; page 10's compound_head is &page[8] | 1, so page_folio()
 * of page 10 is the folio at pfn 8. Building and undoing the grouping is
 * the allocator's (prep_compound_page); splitting a folio is THP code
 * (mm/huge_memory.c). This file: allocating folios and their references.
 */
#include <vm.h>
#include "internal.h"

/* mTHP counters per order (Linux: huge_memory.c's mthp_stats): here, as
 * freeing a folio counts too (folio_undo_large_rmappable). */
unsigned long mthp_stats[NR_PAGE_ORDERS][MTHP_STAT_NR];

/* A large anonymous folio stops existing (freed or split): it leaves
 * nr_anon, and nr_anon_partially_mapped if it was counted there.
 * Linux: folio_undo_large_rmappable, and the NR_ANON part of free_tail
 * pages' checks and __folio_split. */
void folio_undo_large_rmappable(struct folio *folio)
{
	unsigned int order = folio_order(folio);

	if (!order || !folio_test_anon(folio))
		return;
	mthp_stats[order][MTHP_STAT_NR_ANON]--;
	if (PageFlag(&folio->page, PG_partially_mapped)) {
		ClearPageFlag(&folio->page, PG_partially_mapped);
		mthp_stats[order][MTHP_STAT_NR_ANON_PARTIALLY_MAPPED]--;
	}
}

struct folio *folio_alloc_node(int nid, gfp_t gfp, unsigned int order)
{
	return (struct folio *)alloc_pages_node(nid, gfp | __GFP_COMP, order);
}

struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	return (struct folio *)alloc_pages(gfp | __GFP_COMP, order);
}

/* Taking a reference to a free folio is a use after free: report it
 * (Linux: VM_BUG_ON_FOLIO) and take nothing. */
void folio_get(struct folio *folio)
{
	if (folio->page._refcount <= 0) {
		dump_page(&folio->page, "folio_get: no reference to take");
		return;
	}
	folio->page._refcount++;
}

/* A folio freed while PG_mlocked (its VMA went without munlocking it)
 * leaves NR_MLOCK here (Linux: __page_cache_release's
 * unevictable_pgs_cleared). */
static void mlock_folio_free(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);

	if (!folio_test_mlocked(folio))
		return;
	folio_clear_mlocked(folio);
	pgdat->nr_mlock -= folio_nr_pages(folio);
	pgdat->vm_events[UNEVICTABLE_PGCLEARED] += folio_nr_pages(folio);
}

/*
 * Drop a reference. The last one forgets what the folio was (anon, LRU,
 * owner) and hands its pages back through __free_pages, which drops that
 * final reference and frees at zero. Context: the folio is off any LRU
 * list and unmapped when the last reference goes (checked in DEBUG_VM).
 */
void folio_put(struct folio *folio)
{
	unsigned int order = folio_order(folio);
	struct page *page = &folio->page;

	if (page->_refcount > 1) {
		page->_refcount--;
		return;
	}
	if (CONFIG_DEBUG_VM && folio_test_lru(folio)) {
		dump_page(page, "folio_put: last reference of a folio on an LRU list, not freed");
		return;
	}
	folio_undo_large_rmappable(folio);
	mlock_folio_free(folio);
	page->flags &= ~((1ul << PG_dirty) | (1ul << PG_referenced) | (1ul << PG_anon) |
			 (1ul << PG_swapbacked) | (1ul << PG_lru) | (1ul << PG_cma) |
			 (1ul << PG_unevictable) | (1ul << PG_uptodate));
	folio_clear_anon_owner(folio);
	destroy_large_folio(folio, order);
	__free_pages(page, order);
}
