/*
 * Page migration: moving in-use folios out of a pfn range so the range
 * can be handed out whole. mm/ does not know who maps a folio, so the
 * owner of movable folios (anonymous memory) registers a hook that copies
 * the data and repoints its mappings; migrate allocates the destination
 * and frees the source. Example: an order-2 anon folio at pfn 0x10008 in
 * a range being cleared gets an order-2 destination outside the range
 * (the range is isolated, so the allocator cannot return it), the hook
 * moves it, and pfns 0x10008..0x1000b go back to the buddy allocator.
 */
#include "internal.h"

static migrate_folio_fn migrate_folio_hook;

migrate_folio_fn set_migrate_folio_hook(migrate_folio_fn fn)
{
	migrate_folio_fn old = migrate_folio_hook;

	migrate_folio_hook = fn;
	return old;
}

/* Linux migrates LRU folios and those with movable_ops; Folium's movable
 * folios are the anonymous ones, which live on LRU lists. */
static bool folio_movable(const struct folio *folio)
{
	return folio_test_anon(folio) || folio_test_lru(folio);
}

/*
 * The hook has moved the owner's reference and mappings to dst: src must
 * hold exactly the one reference migrate now drops. Anything else is a
 * hook bug; the source is then leaked rather than freed under a user.
 */
static bool migrate_src_released(struct folio *src)
{
	if (folio_ref_count(src) == 1 && !folio_mapped(src) && !folio_test_lru(src))
		return true;
	pr_err("migrate: hook left pfn %lx with refcount %d mapcount %d%s\n", folio_pfn(src),
	       folio_ref_count(src), folio_mapcount(src),
	       folio_test_lru(src) ? " on an LRU list" : "");
	return false;
}

/*
 * Move one folio to a new folio of the same order on the same node.
 * Return: 0, -EBUSY (not movable, locked, no hook, or the hook refused)
 * or -ENOMEM (no destination). Counts PGMIGRATE_SUCCESS/FAIL in pages,
 * as Linux does.
 */
static int migrate_one_folio(struct folio *src)
{
	int nid = page_to_nid(&src->page);
	unsigned long nr = folio_nr_pages(src);
	struct folio *dst;
	int err = -EBUSY;

	if (!migrate_folio_hook || !folio_movable(src) || folio_test_locked(src))
		goto fail;
	dst = folio_alloc_node(nid, GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, folio_order(src));
	if (!dst) {
		err = -ENOMEM;
		goto fail;
	}
	err = migrate_folio_hook(dst, src);
	if (err) {
		folio_put(dst);
		goto fail;
	}
	if (migrate_src_released(src))
		folio_put(src);
	NODE_DATA(nid)->vm_events[PGMIGRATE_SUCCESS] += nr;
	return 0;
fail:
	NODE_DATA(nid)->vm_events[PGMIGRATE_FAIL] += nr;
	return err;
}

/*
 * Walk the range: free blocks are stepped over, every in-use folio that
 * starts or ends in it is migrated whole. Stops at the first folio that
 * cannot move (Linux retries a few passes; Folium has one CPU and no
 * concurrent users, so a second pass would meet the same refusal).
 * Context: the range is isolated, so destinations land outside it.
 */
int migrate_pfn_range(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long pfn = start_pfn;

	while (pfn < end_pfn) {
		unsigned long span = pfn_free_span(pfn);
		struct folio *folio;
		unsigned long next;
		int err;

		if (span) {
			pfn += span;
			continue;
		}
		folio = page_folio(pfn_to_page(pfn));
		next = folio_pfn(folio) + folio_nr_pages(folio);
		if (PageReserved(&folio->page))
			err = -EBUSY; /* never the allocator's page */
		else
			err = migrate_one_folio(folio);
		if (err)
			return err;
		pfn = next;
	}
	return 0;
}
