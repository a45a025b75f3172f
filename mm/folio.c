/*
 * Folios: 2^order physically contiguous pages managed as one unit. The
 * head page carries PG_head, the order (flags bits 32..39), the refcount
 * and the mapcount; every tail points at the head with compound_head =
 * head | 1 and keeps refcount 0. Example: an order-2 folio at pfn 8 is
 * pages 8..11; page 10's compound_head is &page[8] | 1, so page_folio()
 * of page 10 is the folio at pfn 8. Splitting turns it into four order-0
 * folios at pfns 8, 9, 10, 11, each with its own reference.
 */
#include "internal.h"

#define PAGE_FLAGS_ORDER_MASK (0xfful << PAGE_FLAGS_ORDER_SHIFT)

/* Make page the head of a 2^order folio (Linux: prep_compound_page). */
void prep_compound_page(struct page *page, unsigned int order)
{
	unsigned long nr = 1ul << order;

	if (!order)
		return;	/* an order-0 folio is a plain page */
	page->flags &= ~PAGE_FLAGS_ORDER_MASK;
	page->flags |= (unsigned long)order << PAGE_FLAGS_ORDER_SHIFT;
	SetPageFlag(page, PG_head);
	for (unsigned long i = 1; i < nr; i++) {
		page[i].compound_head = (unsigned long)page | 1;
		page[i]._refcount = 0;
	}
}

/* Undo prep_compound_page: the head and tails become plain pages again. */
static void destroy_large_folio(struct folio *folio, unsigned int order)
{
	struct page *page = &folio->page;

	page->flags &= ~PAGE_FLAGS_ORDER_MASK;
	ClearPageFlag(page, PG_head);
	for (unsigned long i = 1; i < (1ul << order); i++)
		page[i].compound_head = 0;
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
	page->flags &= ~((1ul << PG_dirty) | (1ul << PG_referenced) |
			 (1ul << PG_anon) | (1ul << PG_swapbacked) |
			 (1ul << PG_lru) | (1ul << PG_cma));
	page->mapping = NULL;
	page->index = 0;
	destroy_large_folio(folio, order);
	__free_pages(page, order);
}

/* Can folio be split? Linux's rule (split_huge_page_to_list_to_order):
 * nobody else may hold it, lock it or map it while its pages change
 * hands. */
static bool folio_can_split(const struct folio *folio)
{
	return !folio_test_locked(folio) && folio_ref_count(folio) == 1 &&
	       folio->page._mapcount < 0;
}

/* Flags that describe the data, not the grouping: each piece inherits
 * them (Linux: __split_folio_to_order copies the same set). */
#define SPLIT_INHERITED_FLAGS                                                 \
	((1ul << PG_dirty) | (1ul << PG_referenced) | (1ul << PG_anon) |     \
	 (1ul << PG_swapbacked) | (1ul << PG_cma))

/* A split's counters: the event, the per-order count, and the pieces
 * now on the head's LRU list (nr_lru_* count folios). */
static void split_count_lru(struct folio *folio, unsigned int order)
{
	struct pglist_data *pgdat = NODE_DATA(page_to_nid(&folio->page));
	unsigned long pieces = (1ul << order) - 1;

	count_vm_event(pgdat, THP_SPLIT_PAGE);
	pgdat->split_count[order]++;
	if (!folio_test_lru(folio))
		return;
	if (folio_test_lazyfree(folio))
		pgdat->nr_lru_lazyfree += pieces;
	else
		pgdat->nr_lru_anon += pieces;
}

/*
 * Split a large folio into order-0 folios, each with refcount 1 so the
 * caller owns every page and may free them one by one. Pieces inherit
 * the data flags and the owner; page n's index is the head's + n pages.
 * A folio on an LRU list leaves its pieces on that list right after the
 * head, in address order (Linux: lru_add_split_folio).
 * Return: 0 (an order-0 folio is already split), or -EBUSY if the folio
 * is locked, has references besides the caller's, or is mapped.
 */
int split_folio(struct folio *folio)
{
	unsigned int order = folio_order(folio);
	struct page *head = &folio->page;
	unsigned long inherit = head->flags & SPLIT_INHERITED_FLAGS;

	if (!order)
		return 0;
	if (!folio_can_split(folio))
		return -EBUSY;
	destroy_large_folio(folio, order);
	for (unsigned long i = 1; i < (1ul << order); i++) {
		struct page *page = head + i;

		page->flags = (page->flags & ~SPLIT_INHERITED_FLAGS) | inherit;
		page->mapping = head->mapping;
		page->index = head->index + (i << PAGE_SHIFT);
		page->_refcount = 1;
		page->_mapcount = -1;
		if (folio_test_lru(folio)) {
			SetPageFlag(page, PG_lru);
			list_add(&page->lru, &page[-1].lru);
		}
	}
	split_count_lru(folio, order);
	return 0;
}
