/*
 * Page migration: moving in-use folios out of a pfn range so the range
 * can be handed out whole. The owner of movable folios registers a hook
 * that copies the data and repoints the mappings (the kernel's is
 * move_to_new_folio in mm/rmap.c: anonymous folios, and page-cache ones
 * with their cache entry); migrate allocates the destination and frees
 * the source. Example: an order-2 anon folio at pfn 0x10008 in
 * a range being cleared gets an order-2 destination outside the range
 * (the range is isolated, so the allocator cannot return it), the hook
 * moves it, and pfns 0x10008..0x1000b go back to the buddy allocator.
 * Compaction brings its own destinations: migrate_pages() takes them from
 * a get_new_folio callback (compaction_alloc hands out free pages it took
 * from the top of the zone) and gives refused ones back through
 * put_new_folio, as Linux's migrate_pages does.
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
 * folios are the anonymous and page-cache ones, which live on LRU lists. */
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

/* Linux: alloc_migration_target. A fresh folio of src's order on src's
 * node, from the allocator. */
static struct folio *alloc_migration_target(struct folio *src, unsigned long private)
{
	(void)private;
	return folio_alloc_node(page_to_nid(&src->page), GFP_HIGHUSER_MOVABLE | __GFP_NOWARN,
				folio_order(src));
}

/* A destination the hook refused goes back where it came from. */
static void put_migration_target(struct folio *dst, free_folio_t put_new_folio,
				 unsigned long private)
{
	if (put_new_folio)
		put_new_folio(dst, private);
	else
		folio_put(dst);
}

/*
 * Move one folio to a new folio of the same order on the same node, the
 * one get_new_folio returns (Linux: migrate_folio_unmap + migrate_folio_move
 * for one folio).
 * Return: 0, -EBUSY (not movable, locked, no hook, or the hook refused)
 * or -ENOMEM (no destination). Counts PGMIGRATE_SUCCESS/FAIL in pages,
 * as Linux does.
 */
static int migrate_one_folio(struct folio *src, new_folio_t get_new_folio,
			     free_folio_t put_new_folio, unsigned long private)
{
	int nid = page_to_nid(&src->page);
	unsigned long nr = folio_nr_pages(src);
	struct folio *dst;
	int err = -EBUSY;

	if (!migrate_folio_hook || !folio_movable(src) || folio_test_locked(src))
		goto fail;
	dst = get_new_folio(src, private);
	if (!dst) {
		err = -ENOMEM;
		goto fail;
	}
	err = migrate_folio_hook(dst, src);
	if (err) {
		put_migration_target(dst, put_new_folio, private);
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

int migrate_pages(struct folio **folios, unsigned int nr, new_folio_t get_new_folio,
		  free_folio_t put_new_folio, unsigned long private, unsigned long *nr_succeeded)
{
	int nr_failed = 0;

	*nr_succeeded = 0;
	for (unsigned int i = 0; i < nr; i++) {
		unsigned long pages = folio_nr_pages(folios[i]);
		int err = migrate_one_folio(folios[i], get_new_folio, put_new_folio, private);

		if (err == -ENOMEM)
			return -ENOMEM;
		if (err)
			nr_failed++;
		else
			*nr_succeeded += pages;
	}
	return nr_failed;
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
			err = migrate_one_folio(folio, alloc_migration_target, NULL, 0);
		if (err)
			return err;
		pfn = next;
	}
	return 0;
}
