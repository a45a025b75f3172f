/*
 * Memory compaction (Linux: mm/compaction.c): free blocks of a high order
 * made out of fragmented memory. Two scanners walk a zone pageblock by
 * pageblock: the migrate scanner up from the bottom, isolating movable
 * folios (anonymous, on an LRU list), and the free scanner down from the
 * top, isolating free pages of pageblocks that may hold movable data;
 * migrate_pages() moves the folios into those pages, and their old pages
 * go back to the buddy allocator and merge. A pass ends when a free block
 * of the order asked for exists or when the scanners meet.
 * Example, 2 MiB pageblocks, a 16 MiB zone with one anon page in each
 * pageblock: the migrate scanner takes the page of block 0, the free
 * scanner takes free pages of block 7, the page moves there, block 0
 * merges into a free order-9 block and compact_zone_order(zone, 9) stops
 * with COMPACT_SUCCESS; a full pass (order -1) goes on until the scanners
 * meet, leaving blocks 0-6 free and block 7 holding all eight pages.
 * A pageblock that yielded nothing gets a skip hint, which later passes
 * honour until a pass in which the scanners meet clears them all.
 */
#include <compaction.h>
#include <sysctl.h>
#include "internal.h"

/* Linux: COMPACT_CLUSTER_MAX (SWAP_CLUSTER_MAX), pages isolated for one
 * migrate_pages() call. */
#define COMPACT_CLUSTER_MAX 32ul
/* Linux: deferral never skips more than 64 attempts. */
#define COMPACT_MAX_DEFER_SHIFT 6u

/* Linux: enum migrate_mode, as compaction uses it. */
enum migrate_mode {
	MIGRATE_ASYNC,	    /* direct compaction's first, light pass */
	MIGRATE_SYNC_LIGHT, /* direct compaction after reclaim, compact_zone_order */
	MIGRATE_SYNC,	    /* compact_memory: the whole zone */
};

/* Linux: struct compact_control, one pass over one zone. */
struct compact_control {
	struct zone *zone;
	int order;		   /* the block wanted; -1: none, no early stop */
	int migratetype;	   /* the request's: which free lists end the pass */
	enum migrate_mode mode;	   /* async: only pageblocks of migratetype */
	bool direct_compaction;	   /* for an allocation in the slow path */
	bool ignore_skip_hint;	   /* compact_memory: every pageblock is scanned */
	bool skipped;		   /* a skip hint stepped over a pageblock */
	unsigned long migrate_pfn; /* the migrate scanner goes on here, upwards */
	unsigned long free_pfn;	   /* the free scanner goes on here, downwards */
	struct folio *migratepages[COMPACT_CLUSTER_MAX];
	unsigned int nr_folios;			    /* entries in migratepages */
	unsigned long nr_migratepages;		    /* their pages still without a destination */
	struct list_head freepages[NR_PAGE_ORDERS]; /* isolated free blocks, by order */
	unsigned long nr_freepages;
	struct compact_stats stats;
};

static unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

/* Linux: block_end_pfn. The end of the 2^order block holding pfn. */
#define block_end_pfn(pfn, order) (ALIGN_DOWN((pfn), 1ul << (order)) + (1ul << (order)))

/* --- skip hints: one bit per pageblock, after the zone's pageblock_flags --- */

/* The bit of pfn's pageblock, indexed as pageblock_flags (whose entry 0 is
 * the pageblock of pageblock_flags_pfn). */
static unsigned long pageblock_skip_bit(const struct zone *zone, unsigned long pfn)
{
	return (pageblock_start_pfn(pfn) - pageblock_start_pfn(zone->pageblock_flags_pfn)) >>
	       pageblock_order;
}

bool get_pageblock_skip(const struct page *page)
{
	const struct zone *zone = page_zone(page);
	unsigned long bit = pageblock_skip_bit(zone, page_to_pfn(page));

	return zone->pageblock_skip[bit / 8] & (1u << (bit % 8));
}

static void set_pageblock_skip(struct page *page)
{
	struct zone *zone = page_zone(page);
	unsigned long bit = pageblock_skip_bit(zone, page_to_pfn(page));

	zone->pageblock_skip[bit / 8] |= (uint8_t)(1u << (bit % 8));
}

/* Linux clears only the blocks where a sample finds a free or an LRU page;
 * Folium clears them all. */
void reset_isolation_suitable(struct zone *zone)
{
	if (zone->pageblock_skip)
		memset(zone->pageblock_skip, 0, (zone->nr_pageblocks + 7) / 8);
}

/* Linux: isolation_suitable. A block stepped over is remembered: the pass
 * did not see the whole zone (COMPACT_PARTIAL_SKIPPED). */
static bool isolation_suitable(struct compact_control *cc, struct page *page)
{
	if (cc->ignore_skip_hint || !get_pageblock_skip(page))
		return true;
	cc->skipped = true;
	return false;
}

/* --- deferring direct compaction after failures ----------------------------- */

/* Linux: defer_compaction. A sync direct pass failed at order. */
static void defer_compaction(struct zone *zone, int order)
{
	zone->compact_considered = 0;
	zone->compact_defer_shift = MIN(zone->compact_defer_shift + 1, COMPACT_MAX_DEFER_SHIFT);
	if (order < zone->compact_order_failed)
		zone->compact_order_failed = order;
}

/* Linux: compaction_deferred. Return: true to skip compacting this time. */
static bool compaction_deferred(struct zone *zone, int order)
{
	unsigned int limit = 1u << zone->compact_defer_shift;

	if (order < zone->compact_order_failed)
		return false;
	if (++zone->compact_considered >= limit) {
		zone->compact_considered = limit;
		return false;
	}
	return true;
}

void compaction_defer_reset(struct zone *zone, int order, bool alloc_success)
{
	if (alloc_success) {
		zone->compact_considered = 0;
		zone->compact_defer_shift = 0;
	}
	if (order >= zone->compact_order_failed)
		zone->compact_order_failed = order + 1;
}

/* Linux: compaction_restarting. After the longest deferral the skip hints
 * are stale: start from a clean zone. */
static bool compaction_restarting(const struct zone *zone, int order)
{
	if (order < zone->compact_order_failed)
		return false;
	return zone->compact_defer_shift == COMPACT_MAX_DEFER_SHIFT &&
	       zone->compact_considered >= 1u << zone->compact_defer_shift;
}

/* --- which pageblocks the scanners use -------------------------------------- */

/* Linux: pageblock_pfn_to_page. Return: the first page of [start_pfn,
 * end_pfn) when the range has struct pages and lies in zone, else NULL. */
static struct page *pageblock_pfn_to_page(unsigned long start_pfn, unsigned long end_pfn,
					  struct zone *zone)
{
	if (!pfn_valid(start_pfn) || !pfn_valid(end_pfn - 1))
		return NULL;
	if (page_zone(pfn_to_page(start_pfn)) != zone ||
	    page_zone(pfn_to_page(end_pfn - 1)) != zone)
		return NULL;
	return pfn_to_page(start_pfn);
}

/*
 * Linux: suitable_migration_source. An async direct pass takes folios only
 * from pageblocks of the request's migratetype (MOVABLE and CMA for a
 * movable one): a cheap try that does not mix types; other passes scan
 * every pageblock. Folium also leaves isolated pageblocks alone: whoever
 * isolated them (CMA, offlining) is migrating their pages itself.
 */
static bool suitable_migration_source(const struct compact_control *cc, struct page *page)
{
	int mt;

	if (get_pageblock_isolate(page))
		return false;
	if (cc->mode != MIGRATE_ASYNC || !cc->direct_compaction)
		return true;
	mt = get_pageblock_migratetype(page);
	if (cc->migratetype == MIGRATE_MOVABLE)
		return mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA;
	return mt == cc->migratetype;
}

/*
 * Linux: suitable_migration_target. Free pages are taken from MOVABLE and
 * CMA pageblocks only (movable data may go there; an isolated block reads
 * ISOLATE), and never from a pageblock that is one free block already:
 * breaking it up would undo what compaction is for.
 */
static bool suitable_migration_target(struct page *page)
{
	int mt = get_pageblock_migratetype(page);

	if (PageBuddy(page) && buddy_order(page) >= pageblock_order)
		return false;
	return mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA;
}

/* Linux: compact_scanners_met, at pageblock granularity. */
static bool compact_scanners_met(const struct compact_control *cc)
{
	return (cc->free_pfn >> pageblock_order) <= (cc->migrate_pfn >> pageblock_order);
}

/* --- the free scanner --------------------------------------------------------- */

/* Linux: __isolate_free_page. Take a free block off its list for
 * compaction; the zone must stay above its min watermark, for the block
 * leaves the free counts while compaction holds it. */
static bool isolate_free_block(struct zone *zone, struct page *page, unsigned int order)
{
	if (zone->nr_free_pages <=
	    zone->_watermark[WMARK_MIN] + zone->nr_reserved_highatomic + (1ul << order))
		return false;
	del_page_from_free_list(page, zone, order);
	page->private = order;
	return true;
}

/*
 * Linux: isolate_freepages_block. Take the free blocks of [*start_pfn,
 * end_pfn) onto cc->freepages by order, whole (Linux 6.x: no splitting
 * here), until they cover the pages waiting to migrate. Large folios are
 * stepped over. *start_pfn: where the scan stopped.
 */
static void isolate_freepages_block(struct compact_control *cc, unsigned long *start_pfn,
				    unsigned long end_pfn)
{
	unsigned long pfn = *start_pfn;

	while (pfn < end_pfn) {
		struct page *page = pfn_to_page(pfn);
		unsigned long nr = 1;

		if (PageBuddy(page)) {
			if (!isolate_free_block(cc->zone, page, buddy_order(page)))
				break;
			nr = 1ul << page->private;
			list_add_tail(&page->lru, &cc->freepages[page->private]);
			cc->nr_freepages += nr;
			cc->stats.isolated += nr;
		} else if (PageHead(page)) {
			nr = folio_nr_pages(page_folio(page));
		}
		cc->stats.free_scanned += MIN(nr, end_pfn - pfn);
		pfn += nr;
		if (cc->nr_freepages >= cc->nr_migratepages)
			break;
	}
	*start_pfn = MIN(pfn, end_pfn);
}

/*
 * Linux: isolate_freepages. Walk pageblocks down from cc->free_pfn to the
 * migrate scanner's pageblock, isolating free pages of suitable targets
 * until they cover the folios waiting; a target scanned to its end gets a
 * skip hint (it is full now). cc->free_pfn: where to go on next time.
 */
static void isolate_freepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long isolate_start_pfn = cc->free_pfn;
	unsigned long block_start_pfn = pageblock_start_pfn(isolate_start_pfn);
	unsigned long block_end_pfn = MIN(block_start_pfn + pageblock_nr_pages, zone_end_pfn(zone));
	unsigned long low_pfn = pageblock_end_pfn(cc->migrate_pfn);

	for (; block_start_pfn >= low_pfn; block_end_pfn = block_start_pfn,
					   block_start_pfn -= pageblock_nr_pages,
					   isolate_start_pfn = block_start_pfn) {
		struct page *page = pageblock_pfn_to_page(block_start_pfn, block_end_pfn, zone);

		if (!page || !suitable_migration_target(page) || !isolation_suitable(cc, page))
			continue;
		isolate_freepages_block(cc, &isolate_start_pfn, block_end_pfn);
		if (isolate_start_pfn == block_end_pfn)
			set_pageblock_skip(page); /* Linux: update_pageblock_skip */
		if (cc->nr_freepages >= cc->nr_migratepages) {
			if (isolate_start_pfn >= block_end_pfn)
				isolate_start_pfn = block_start_pfn - pageblock_nr_pages;
			break;
		}
		if (isolate_start_pfn < block_end_pfn)
			break; /* the min watermark stopped it */
	}
	cc->free_pfn = isolate_start_pfn;
}

/* The smallest isolated free block of at least order, split down to order
 * as expand() would, the upper halves kept; NULL if there is none. */
static struct page *take_isolated_block(struct compact_control *cc, unsigned int order)
{
	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++) {
		struct page *page;

		if (list_empty(&cc->freepages[o]))
			continue;
		page = list_first_entry(&cc->freepages[o], struct page, lru);
		list_del(&page->lru);
		while (o > order) {
			struct page *half = page + (1ul << --o);

			half->private = o;
			list_add(&half->lru, &cc->freepages[o]);
		}
		cc->nr_freepages -= 1ul << order;
		return page;
	}
	return NULL;
}

/*
 * Linux: compaction_alloc, migrate_pages()' get_new_folio. The destination
 * is a block the free scanner isolated, of src's order; the scanner runs
 * on when none is left. Linux 6.x keeps isolated blocks by order and
 * splits one only when a folio needs a piece of it, as here.
 */
static struct folio *compaction_alloc(struct folio *src, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	unsigned int order = folio_order(src);
	struct page *page = take_isolated_block(cc, order);

	if (!page) {
		isolate_freepages(cc);
		page = take_isolated_block(cc, order);
	}
	if (!page)
		return NULL;
	cc->nr_migratepages -= 1ul << order;
	check_poison(page, 1u << order); /* reported as for any allocation */
	prep_new_page(page, order, __GFP_MOVABLE | __GFP_COMP);
	return (struct folio *)page;
}

/* Linux: compaction_free, migrate_pages()' put_new_folio: the hook
 * refused, so the destination is an isolated free block again. */
static void compaction_free(struct folio *dst, unsigned long data)
{
	struct compact_control *cc = (struct compact_control *)data;
	unsigned int order = folio_order(dst);

	dst->page._refcount = 0;
	if (!free_pages_prepare(&dst->page, order))
		return; /* reported by the debug checks; the block stays out */
	dst->page.private = order;
	list_add(&dst->page.lru, &cc->freepages[order]);
	cc->nr_freepages += 1ul << order;
}

/* Linux: release_free_list. The isolated blocks compaction did not use go
 * back to the buddy allocator (they are still free: poisoned, no owner). */
static void release_freepages(struct compact_control *cc)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct page *page, *next;

		list_for_each_entry_safe(page, next, &cc->freepages[o], lru) {
			list_del(&page->lru);
			__free_one_page(page, page_to_pfn(page), cc->zone, o,
					get_pageblock_migratetype(page));
		}
	}
	cc->nr_freepages = 0;
}

/* --- the migrate scanner ------------------------------------------------------ */

/* Linux: skip_isolation_on_order. Moving a folio as large as the block the
 * pass wants, or a pageblock, cannot make that block. */
static bool skip_isolation_on_order(unsigned int order, int target_order)
{
	if (target_order >= 0 && order >= (unsigned int)target_order)
		return true;
	return order >= pageblock_order;
}

/* Can compaction move folio now? Linux's checks in
 * isolate_migratepages_block for Folium's movable folios (anonymous or in
 * the page cache, on an LRU list): no reference but its owners' (a pinned
 * folio would not move), not locked, smaller than what the pass wants,
 * and not mlocked unless vm.compact_unevictable_allowed (Linux:
 * ISOLATE_UNEVICTABLE). */
static bool folio_isolatable(const struct compact_control *cc, const struct folio *folio)
{
	if (!folio_test_lru(folio) || !(folio_test_anon(folio) || folio_in_page_cache(folio)))
		return false;
	if (folio_test_unevictable(folio) && !sysctl_compact_unevictable_allowed)
		return false;
	if (skip_isolation_on_order(folio_order(folio), cc->order))
		return false;
	return folio_ref_count(folio) == folio_expected_ref_count(folio) &&
	       !folio_test_locked(folio);
}

enum scan_result {
	SCAN_FREE,   /* inside a free block (buddy or per-CPU list) */
	SCAN_TAKEN,  /* a folio isolated for migration */
	SCAN_FAILED, /* in use, and compaction cannot move it */
};

/* The page at pfn for the migrate scanner. *span: the pfns from pfn on
 * that the same free block or folio covers. */
static enum scan_result scan_migrate_page(struct compact_control *cc, unsigned long pfn,
					  unsigned long *span)
{
	struct page *page = pfn_to_page(pfn);
	struct folio *folio;

	*span = 1;
	if (!page_count(page) && !PageTail(page)) {
		unsigned long free = pfn_free_span(pfn);

		if (!free)
			return SCAN_FAILED; /* reserved, offline, inside a non-folio block */
		*span = free;
		return SCAN_FREE;
	}
	folio = page_folio(page);
	*span = folio_pfn(folio) + folio_nr_pages(folio) - pfn;
	if (folio_pfn(folio) != pfn || !folio_isolatable(cc, folio))
		return SCAN_FAILED;
	cc->migratepages[cc->nr_folios++] = folio;
	cc->nr_migratepages += folio_nr_pages(folio);
	return SCAN_TAKEN;
}

/*
 * Linux: isolate_migratepages_block. Scan [low_pfn, end_pfn) of one
 * pageblock into cc->migratepages, up to COMPACT_CLUSTER_MAX pages. An
 * async direct pass gives up an order-aligned block at its first page
 * that cannot move, for that block cannot become free (Linux:
 * skip_on_failure), and migrates as soon as one block is all isolated.
 * A pageblock scanned to its end that gave nothing gets a skip hint.
 */
static void isolate_migratepages_block(struct compact_control *cc, unsigned long low_pfn,
				       unsigned long end_pfn)
{
	bool skip_on_failure = cc->direct_compaction && cc->mode == MIGRATE_ASYNC && cc->order > 0;
	unsigned long start_pfn = low_pfn, next_skip_pfn = low_pfn, span;

	for (; low_pfn < end_pfn; low_pfn += span) {
		enum scan_result r;

		if (skip_on_failure && low_pfn >= next_skip_pfn) {
			if (cc->nr_folios)
				break;
			next_skip_pfn = block_end_pfn(low_pfn, cc->order);
		}
		r = scan_migrate_page(cc, low_pfn, &span);
		cc->stats.migrate_scanned += MIN(span, end_pfn - low_pfn);
		if (r == SCAN_TAKEN && cc->nr_migratepages >= COMPACT_CLUSTER_MAX) {
			low_pfn += span;
			break;
		}
		if (r == SCAN_FAILED && skip_on_failure) {
			cc->nr_folios = 0; /* still on their LRU lists: nothing to put back */
			cc->nr_migratepages = 0;
			span = MAX(span, next_skip_pfn - low_pfn);
		}
	}
	low_pfn = MIN(low_pfn, end_pfn);
	/* Only a scan from the block's start judges the block (Linux: valid_page). */
	if (low_pfn == end_pfn && !cc->nr_folios &&
	    (start_pfn == pageblock_start_pfn(start_pfn) || start_pfn == cc->zone->zone_start_pfn))
		set_pageblock_skip(pfn_to_page(start_pfn));
	cc->stats.isolated += cc->nr_migratepages;
	cc->migrate_pfn = low_pfn;
}

/*
 * Linux: isolate_migratepages. From cc->migrate_pfn up to the free
 * scanner's pageblock, isolate from the first pageblock that is a suitable
 * source without a skip hint (read at a block's start only: a block
 * resumed after COMPACT_CLUSTER_MAX pages is being scanned).
 * Return: true if folios wait in cc->migratepages.
 */
static bool isolate_migratepages(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long low_pfn = cc->migrate_pfn;
	unsigned long block_start_pfn = MAX(pageblock_start_pfn(low_pfn), zone->zone_start_pfn);
	unsigned long block_end_pfn = pageblock_end_pfn(low_pfn);

	for (; block_end_pfn <= cc->free_pfn; cc->migrate_pfn = low_pfn = block_end_pfn,
					      block_start_pfn = block_end_pfn,
					      block_end_pfn += pageblock_nr_pages) {
		struct page *page = pageblock_pfn_to_page(block_start_pfn, block_end_pfn, zone);
		bool at_start = low_pfn == block_start_pfn;

		if (!page || (at_start && !isolation_suitable(cc, page)))
			continue;
		if (!suitable_migration_source(cc, page))
			continue;
		isolate_migratepages_block(cc, low_pfn, block_end_pfn);
		break;
	}
	return cc->nr_folios > 0;
}

/* migrate_pages() over the isolated folios, counted in cc->stats.
 * Return: migrate_pages()' result. */
static int migrate_isolated(struct compact_control *cc)
{
	unsigned long isolated = cc->nr_migratepages, moved;
	int err = migrate_pages(cc->migratepages, cc->nr_folios, compaction_alloc, compaction_free,
				(unsigned long)cc, &moved);

	cc->stats.migrated += moved;
	cc->stats.failed += isolated - moved;
	cc->nr_folios = 0;
	cc->nr_migratepages = 0;
	return err;
}

/* --- a pass --------------------------------------------------------------------- */

/* Linux: the free-list half of __compact_finished. A block of order is
 * free on the request's list, on CMA's for a movable request, or on a
 * list it would claim a block from (find_suitable_fallback with
 * only_stealable: Folium's fallbacks[] let each pcp type borrow from the
 * other two, and can_steal_fallback's rule says when it claims). */
static bool free_block_exists(const struct zone *zone, int order, int migratetype)
{
	bool steal = order >= (int)pageblock_order / 2 || migratetype != MIGRATE_MOVABLE;

	for (int o = MAX(order, 0); o < NR_PAGE_ORDERS; o++) {
		const struct list_head *lists = zone->free_area[o].free_list;

		if (!list_empty(&lists[migratetype]))
			return true;
		if (migratetype == MIGRATE_MOVABLE && !list_empty(&lists[MIGRATE_CMA]))
			return true;
		for (int mt = 0; steal && mt < MIGRATE_PCPTYPES; mt++)
			if (!list_empty(&lists[mt]))
				return true;
	}
	return false;
}

/*
 * Linux: __compact_finished. The scanners met: the pass is over, and
 * Folium, without the kswapd that clears Linux's hints when it sleeps,
 * clears them now, so the next pass sees the whole zone again. Otherwise
 * a pass with an order stops once a block of it is free, but only between
 * pageblocks: a pageblock is finished so it is left as free as possible.
 */
static enum compact_result compact_finished(struct compact_control *cc)
{
	if (compact_scanners_met(cc)) {
		reset_isolation_suitable(cc->zone);
		return cc->skipped ? COMPACT_PARTIAL_SKIPPED : COMPACT_COMPLETE;
	}
	if (cc->order < 0 || (cc->migrate_pfn & (pageblock_nr_pages - 1)))
		return COMPACT_CONTINUE;
	if (free_block_exists(cc->zone, cc->order, cc->migratetype))
		return COMPACT_SUCCESS;
	return COMPACT_CONTINUE;
}

/* Linux: compact_gap. Migration needs destinations before it frees the
 * sources: twice the block wanted. */
static unsigned long compact_gap(int order)
{
	return 2ul << order;
}

/* vm.extfrag_threshold: a costly order is compacted only when the
 * fragmentation index says its failure is fragmentation (above this, of
 * 1000), not lack of memory (Linux: sysctl_extfrag_threshold). */
int sysctl_extfrag_threshold = 500;

/*
 * Linux: __fragmentation_index over fill_contig_page_info. Would a
 * request of order fail for lack of memory (towards 0) or because the
 * free memory is in pieces too small (towards 1000)? -1000 when a free
 * block of that order exists, 0 when nothing is free. Example: 512 free
 * order-0 pages and nothing else, for order 9: 1000 - (1000 + 1000) / 512
 * = 997, fragmentation.
 */
int fragmentation_index(const struct zone *zone, unsigned int order)
{
	unsigned long total = 0, suitable = 0, free_pages = 0;

	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long blocks = zone->free_area[o].nr_free;

		total += blocks;
		free_pages += blocks << o;
		if (o >= order)
			suitable += blocks << (o - order);
	}
	if (!total)
		return 0;
	if (suitable)
		return -1000;
	return 1000 - (int)((1000 + free_pages * 1000 / (1ul << order)) / total);
}

/* Linux: compaction_suitable over __compaction_suitable. Free pages above
 * the watermark (low for costly orders, else min) and the gap, for the
 * free scanner to use; and for a costly order, a fragmentation index above
 * vm.extfrag_threshold (a failure from too little memory is not helped by
 * moving pages; below the costly order the alternative is the OOM killer,
 * so Linux compacts whatever the index says). */
static bool compaction_suitable(const struct zone *zone, int order)
{
	unsigned long mark =
		zone->_watermark[order > PAGE_ALLOC_COSTLY_ORDER ? WMARK_LOW : WMARK_MIN];
	int fragindex;

	if (zone->nr_free_pages <= zone->nr_reserved_highatomic + mark + compact_gap(order))
		return false;
	if (order <= PAGE_ALLOC_COSTLY_ORDER)
		return true;
	fragindex = fragmentation_index(zone, (unsigned int)order);
	return fragindex < 0 || fragindex > sysctl_extfrag_threshold;
}

/* Linux: the check_drain step of compact_zone. Once the migrate scanner
 * has left the order-aligned block it migrated from, the freed pages on
 * the per-CPU lists go to the buddy lists, to merge and be seen. */
static void check_drain(struct compact_control *cc, unsigned long *last_migrated_pfn)
{
	if (cc->order > 0 && *last_migrated_pfn &&
	    *last_migrated_pfn < ALIGN_DOWN(cc->migrate_pfn, 1ul << cc->order)) {
		drain_zone_pages(cc->zone);
		*last_migrated_pfn = 0;
	}
}

/* Add a pass's numbers to the vmstat counters of its node. */
static void count_compact_events(const struct compact_control *cc)
{
	unsigned long *events = cc->zone->zone_pgdat->vm_events;

	events[COMPACTMIGRATE_SCANNED] += cc->stats.migrate_scanned;
	events[COMPACTFREE_SCANNED] += cc->stats.free_scanned;
	events[COMPACTISOLATED] += cc->stats.isolated;
}

/*
 * Linux: compact_zone. One pass over cc->zone, the scanners starting at
 * its two ends (Linux resumes where the last pass stopped; Folium starts
 * afresh and lets the skip hints step over what yielded nothing). Freed
 * pages still on the per-CPU lists are drained at the end, so a full pass
 * shows its result in /proc/buddyinfo at once.
 */
static enum compact_result compact_zone(struct compact_control *cc)
{
	struct zone *zone = cc->zone;
	unsigned long last_migrated_pfn = 0;
	enum compact_result ret;

	if (cc->order >= 0) {
		if (free_block_exists(zone, cc->order, cc->migratetype))
			return COMPACT_SUCCESS;
		if (!compaction_suitable(zone, cc->order))
			return COMPACT_SKIPPED;
		if (compaction_restarting(zone, cc->order))
			reset_isolation_suitable(zone);
	}
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		INIT_LIST_HEAD(&cc->freepages[o]);
	cc->migrate_pfn = zone->zone_start_pfn;
	cc->free_pfn = pageblock_start_pfn(zone_end_pfn(zone) - 1);
	while ((ret = compact_finished(cc)) == COMPACT_CONTINUE) {
		if (isolate_migratepages(cc)) {
			last_migrated_pfn =
				MAX(zone->zone_start_pfn, pageblock_start_pfn(cc->migrate_pfn - 1));
			if (migrate_isolated(cc) == -ENOMEM && !compact_scanners_met(cc)) {
				ret = COMPACT_CONTENDED;
				break;
			}
		}
		check_drain(cc, &last_migrated_pfn);
	}
	release_freepages(cc);
	if (cc->stats.migrated)
		drain_zone_pages(zone);
	count_compact_events(cc);
	return ret;
}

static void compact_stats_add(struct compact_stats *sum, const struct compact_stats *s)
{
	sum->migrate_scanned += s->migrate_scanned;
	sum->free_scanned += s->free_scanned;
	sum->isolated += s->isolated;
	sum->migrated += s->migrated;
	sum->failed += s->failed;
}

/*
 * An order >= 0 is a pass as Linux's kcompactd runs one (sync-light, skip
 * hints honoured, for a GFP_KERNEL request: a free block on any list but
 * CMA's ends it); order -1 is compact_memory's (Linux: compact_node):
 * sync, every pageblock scanned, no early stop.
 */
enum compact_result compact_zone_order(struct zone *zone, int order, struct compact_stats *stats)
{
	struct compact_control cc = {
		.zone = zone,
		.order = order < 0 ? -1 : order,
		.migratetype = MIGRATE_UNMOVABLE,
		.mode = order < 0 ? MIGRATE_SYNC : MIGRATE_SYNC_LIGHT,
		.ignore_skip_hint = order < 0,
	};
	enum compact_result ret = compact_zone(&cc);

	if (stats)
		compact_stats_add(stats, &cc.stats);
	return ret;
}

void compact_node(struct pglist_data *pgdat, struct compact_stats *stats)
{
	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		if (pgdat->node_zones[zt].managed_pages)
			compact_zone_order(&pgdat->node_zones[zt], -1, stats);
}

void compact_nodes(void)
{
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			compact_node(NODE_DATA(nid), NULL);
}

/* Linux: sysctl_compaction_handler. Any write reads one int; only 1 is
 * taken (it compacts every node), the rest is -EINVAL. */
static int sysctl_compact_memory;

static int sysctl_compaction_handler(const struct ctl_table *table, int write, char *buffer,
				     size_t *lenp, uint64_t *ppos)
{
	int ret = proc_dointvec(table, write, buffer, lenp, ppos);

	if (ret)
		return ret;
	if (sysctl_compact_memory != 1)
		return -EINVAL;
	if (write)
		compact_nodes();
	return 0;
}

/* vm.compaction_proactiveness (Linux's default 20): how hard kcompactd
 * compacts in the background. Folium has no kcompactd yet (it comes with
 * more CPUs and a scheduler), so the value is kept and read by nothing. */
static int sysctl_compaction_proactiveness = 20;
/* vm.compact_unevictable_allowed (Linux: 1 without PREEMPT_RT): whether
 * compaction may move mlocked (unevictable) folios (folio_isolatable). */
int sysctl_compact_unevictable_allowed = 1;

/* Linux: vm_compaction in mm/compaction.c. */
static const struct ctl_table vm_compaction[] = {
	{ .procname = "compact_memory",
	  .data = &sysctl_compact_memory,
	  .maxlen = sizeof(int),
	  .mode = 0200,
	  .proc_handler = sysctl_compaction_handler },
	{ .procname = "extfrag_threshold",
	  .data = &sysctl_extfrag_threshold,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = SYSCTL_ZERO,
	  .extra2 = SYSCTL_ONE_THOUSAND },
	{ .procname = "compaction_proactiveness",
	  .data = &sysctl_compaction_proactiveness,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = SYSCTL_ZERO,
	  .extra2 = SYSCTL_ONE_HUNDRED },
	{ .procname = "compact_unevictable_allowed",
	  .data = &sysctl_compact_unevictable_allowed,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = SYSCTL_ZERO,
	  .extra2 = SYSCTL_ONE },
};
SYSCTL_TABLE("vm", vm_compaction);

/* --- direct compaction ----------------------------------------------------------- */

/* Linux: compact_zone_order (the static one behind try_to_compact_pages). */
static enum compact_result compact_zone_direct(struct zone *zone, unsigned int order, gfp_t gfp,
					       enum compact_priority prio)
{
	struct compact_control cc = {
		.zone = zone,
		.order = (int)order,
		.migratetype = gfp_migratetype(gfp),
		.mode = prio == COMPACT_PRIO_ASYNC ? MIGRATE_ASYNC : MIGRATE_SYNC_LIGHT,
		.direct_compaction = true,
	};

	return compact_zone(&cc);
}

/* The zones in get_page_from_freelist's order: Normal, then DMA32; only
 * DMA32 for __GFP_DMA32. */
enum compact_result try_to_compact_pages(struct pglist_data *pgdat, gfp_t gfp, unsigned int order,
					 enum compact_priority prio)
{
	static const enum zone_type zonelist[] = { ZONE_NORMAL, ZONE_DMA32 };
	enum compact_result rc = COMPACT_SKIPPED;

	for (unsigned int i = (gfp & __GFP_DMA32) ? 1 : 0; i < ARRAY_SIZE(zonelist); i++) {
		struct zone *zone = &pgdat->node_zones[zonelist[i]];
		enum compact_result status;

		if (!zone->managed_pages)
			continue;
		if (compaction_deferred(zone, (int)order)) {
			rc = MAX(rc, COMPACT_DEFERRED);
			continue;
		}
		status = compact_zone_direct(zone, order, gfp, prio);
		rc = MAX(rc, status);
		if (status == COMPACT_SUCCESS) {
			compaction_defer_reset(zone, (int)order, false);
			break;
		}
		/* Only a sync pass that saw the zone defers (Linux). */
		if (prio != COMPACT_PRIO_ASYNC &&
		    (status == COMPACT_COMPLETE || status == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(zone, (int)order);
	}
	return rc;
}
