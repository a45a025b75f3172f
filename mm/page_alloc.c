/*
 * The buddy allocator (Linux: mm/page_alloc.c). Free memory is kept in
 * naturally aligned blocks of 2^order pages on lists per order and
 * migratetype. A block's buddy is the other half of the block one order up:
 * pfn 8, order 1 -> buddy 10; if both are free they merge into the order-2
 * block at 8, whose buddy is 12. Allocation takes the smallest block that
 * fits and splits it (expand); freeing merges as far as buddies allow.
 * Invariant: a free block sits on the list of its pageblock's type
 * (ISOLATE if the block is isolated), recorded in its page->index.
 */
#include "internal.h"
#include <arch.h>
#include <compaction.h>

_Static_assert(sizeof(struct page) <= 64, "struct page must fit in 64 bytes");

const char *const migratetype_names[MIGRATE_TYPES] = {
	"Unmovable", "Movable", "Reclaimable", "HighAtomic", "CMA", "Isolate",
};

const char *const vm_event_names[NR_VM_EVENT_ITEMS] = {
	[PGALLOC] = "pgalloc",
	[PGFREE] = "pgfree",
	[PGALLOC_FAIL] = "pgalloc_fail",
	[PGALLOC_FALLBACK] = "pgalloc_fallback",
	[PGALLOC_STEAL] = "pgalloc_steal",
	[PGALLOC_PCP_HIT] = "pgalloc_pcp_hit",
	[PGALLOC_RECLAIM] = "pgalloc_reclaim",
	[HTLB_BUDDY_PGALLOC] = "htlb_buddy_alloc_success",
	[HTLB_BUDDY_PGALLOC_FAIL] = "htlb_buddy_alloc_fail",
	[CMA_ALLOC_SUCCESS] = "cma_alloc_success",
	[CMA_ALLOC_FAIL] = "cma_alloc_fail",
	[PGMIGRATE_SUCCESS] = "pgmigrate_success",
	[PGMIGRATE_FAIL] = "pgmigrate_fail",
	[THP_COLLAPSE_ALLOC] = "thp_collapse_alloc",
	[THP_COLLAPSE_ALLOC_FAILED] = "thp_collapse_alloc_failed",
	[THP_SPLIT_PAGE] = "thp_split_page",
	[THP_SPLIT_PAGE_FAILED] = "thp_split_page_failed",
	[THP_DEFERRED_SPLIT_PAGE] = "thp_deferred_split_page",
	[THP_SPLIT_PMD] = "thp_split_pmd",
	[THP_ZERO_PAGE_ALLOC] = "thp_zero_page_alloc",
	[THP_ZERO_PAGE_ALLOC_FAILED] = "thp_zero_page_alloc_failed",
	[THP_FILE_ALLOC] = "thp_file_alloc",
	[THP_FILE_FALLBACK] = "thp_file_fallback",
	[THP_FILE_MAPPED] = "thp_file_mapped",
	[BAD_PAGE] = "bad_page",
	[PGLAZYFREE] = "pglazyfree",
	[PGFAULT] = "pgfault",
	[PGMAJFAULT] = "pgmajfault",
	[PGLAZYFREED] = "pglazyfreed",
	[PGSCAN_ANON] = "pgscan_anon",
	[COMPACTMIGRATE_SCANNED] = "compact_migrate_scanned",
	[COMPACTFREE_SCANNED] = "compact_free_scanned",
	[COMPACTISOLATED] = "compact_isolated",
	[COMPACTSTALL] = "compact_stall",
	[COMPACTFAIL] = "compact_fail",
	[COMPACTSUCCESS] = "compact_success",
	[UNEVICTABLE_PGCULLED] = "unevictable_pgs_culled",
	[UNEVICTABLE_PGSCANNED] = "unevictable_pgs_scanned",
	[UNEVICTABLE_PGRESCUED] = "unevictable_pgs_rescued",
	[UNEVICTABLE_PGMLOCKED] = "unevictable_pgs_mlocked",
	[UNEVICTABLE_PGMUNLOCKED] = "unevictable_pgs_munlocked",
	[UNEVICTABLE_PGCLEARED] = "unevictable_pgs_cleared",
	[UNEVICTABLE_PGSTRANDED] = "unevictable_pgs_stranded",
};

/* Linux's alloc_flags: which watermark, and which reserves may be used. */
#define ALLOC_WMARK_MIN WMARK_MIN
#define ALLOC_WMARK_LOW WMARK_LOW
#define ALLOC_WMARK_HIGH WMARK_HIGH
#define ALLOC_WMARK_MASK 0x03u
#define ALLOC_NON_BLOCK 0x10u	/* cannot reclaim: a quarter of min more */
#define ALLOC_MIN_RESERVE 0x20u /* __GFP_HIGH: half of the min watermark */
#define ALLOC_CMA 0x80u		/* may use MIGRATE_CMA pageblocks */
#define ALLOC_HIGHATOMIC 0x200u /* may use and create HIGHATOMIC reserves */
#define ALLOC_RESERVES (ALLOC_NON_BLOCK | ALLOC_MIN_RESERVE | ALLOC_HIGHATOMIC)

#define SWAP_CLUSTER_MAX 32ul /* Linux: pages direct reclaim aims for */

/* --- pageblock flags: 4 bits per pageblock, 2 per byte -------------------- */
#define PB_MIGRATETYPE_MASK 0x7u
#define PB_ISOLATE 0x8u

static uint8_t *zone_pageblock_byte(const struct zone *zone, unsigned long pfn, unsigned int *shift)
{
	unsigned long idx =
		(pageblock_start_pfn(pfn) - pageblock_start_pfn(zone->pageblock_flags_pfn)) >>
		pageblock_order;

	*shift = (idx & 1) * 4;
	return &zone->pageblock_flags[idx / 2];
}

static uint8_t *pageblock_byte(const struct page *page, unsigned int *shift)
{
	return zone_pageblock_byte(page_zone(page), page_to_pfn(page), shift);
}

/* Linux: get_pfnblock_migratetype, for a caller that knows the zone. */
static int get_pfnblock_migratetype(const struct zone *zone, unsigned long pfn)
{
	unsigned int shift;
	unsigned int bits = (*zone_pageblock_byte(zone, pfn, &shift) >> shift) & 0xfu;

	return bits & PB_ISOLATE ? MIGRATE_ISOLATE : (int)(bits & PB_MIGRATETYPE_MASK);
}

static unsigned int get_pageblock_bits(const struct page *page)
{
	unsigned int shift;

	return (*pageblock_byte(page, &shift) >> shift) & 0xfu;
}

static void set_pageblock_bits(struct page *page, unsigned int mask, unsigned int bits)
{
	unsigned int shift;
	uint8_t *byte = pageblock_byte(page, &shift);

	*byte = (uint8_t)((*byte & ~(mask << shift)) | (bits << shift));
}

int get_pageblock_type_raw(const struct page *page)
{
	return (int)(get_pageblock_bits(page) & PB_MIGRATETYPE_MASK);
}

bool get_pageblock_isolate(const struct page *page)
{
	return get_pageblock_bits(page) & PB_ISOLATE;
}

int get_pageblock_migratetype(const struct page *page)
{
	return get_pfnblock_migratetype(page_zone(page), page_to_pfn(page));
}

/* The type of the pageblock (not its isolation, see set_pageblock_isolate). */
void set_pageblock_migratetype(struct page *page, int migratetype)
{
	if (migratetype < 0 || migratetype >= MIGRATE_ISOLATE) {
		pr_err("set_pageblock_migratetype: pfn %lx: bad type %d\n", page_to_pfn(page),
		       migratetype);
		return;
	}
	set_pageblock_bits(page, PB_MIGRATETYPE_MASK, (unsigned int)migratetype);
}

void set_pageblock_isolate(struct page *page, bool isolated)
{
	set_pageblock_bits(page, PB_ISOLATE, isolated ? PB_ISOLATE : 0);
}

/* Re-type every pageblock of the 2^order block at page (Linux:
 * change_pageblock_range). */
static void change_pageblock_range(struct page *page, unsigned int order, int mt)
{
	unsigned long nr = 1ul << order;

	for (unsigned long i = 0; i < nr; i += pageblock_nr_pages)
		set_pageblock_migratetype(page + i, mt);
}

/* Linux: migratetype_is_mergeable. CMA, HIGHATOMIC and ISOLATE blocks
 * never merge with blocks of another type, so their counts stay exact. */
static bool migratetype_is_mergeable(int mt)
{
	return mt < MIGRATE_PCPTYPES;
}

/* --- free lists ------------------------------------------------------------ */

/* Linux: account_freepages. Isolated free pages are not allocatable, so
 * they do not count as free (NR_FREE_PAGES excludes them, as in Linux). */
static void account_freepages(struct zone *zone, long nr_pages, int mt)
{
	if (mt == MIGRATE_ISOLATE)
		return;
	zone->nr_free_pages += (unsigned long)nr_pages;
	if (mt == MIGRATE_CMA)
		zone->nr_free_cma += (unsigned long)nr_pages;
}

/* Linux: __add_to_free_list, without the free page accounting: merging
 * and splitting move pages between free blocks, and their callers count
 * the pages that really became free or allocated, once. */
static void __add_to_free_list(struct page *page, struct zone *zone, unsigned int order,
			       int migratetype, bool tail)
{
	struct free_area *area = &zone->free_area[order];

	SetPageFlag(page, PG_buddy);
	page->private = order;
	page->index = (unsigned long)migratetype;
	if (tail)
		list_add_tail(&page->lru, &area->free_list[migratetype]);
	else
		list_add(&page->lru, &area->free_list[migratetype]);
	area->nr_free++;
}

/* Linux: __del_page_from_free_list. */
static void __del_page_from_free_list(struct page *page, struct zone *zone, unsigned int order)
{
	list_del(&page->lru);
	ClearPageFlag(page, PG_buddy);
	page->private = 0;
	page->index = 0;
	zone->free_area[order].nr_free--;
}

void add_to_free_list(struct page *page, struct zone *zone, unsigned int order, int migratetype,
		      bool tail)
{
	__add_to_free_list(page, zone, order, migratetype, tail);
	account_freepages(zone, 1l << order, migratetype);
}

void del_page_from_free_list(struct page *page, struct zone *zone, unsigned int order)
{
	int mt = (int)page->index;

	__del_page_from_free_list(page, zone, order);
	account_freepages(zone, -(1l << order), mt);
}

static void move_to_free_list(struct page *page, struct zone *zone, unsigned int order, int new_mt)
{
	del_page_from_free_list(page, zone, order);
	add_to_free_list(page, zone, order, new_mt, true);
}

/* Linux: page_is_buddy. The struct page exists: buddies of a valid pfn lie
 * in the same MAX_PAGE_ORDER block, hence the same memory section. */
static bool page_is_buddy(struct zone *zone, unsigned long buddy_pfn, unsigned int order)
{
	struct page *buddy;

	if (!zone_spans_pfn(zone, buddy_pfn))
		return false;
	buddy = pfn_to_page(buddy_pfn);
	return PageBuddy(buddy) && buddy_order(buddy) == order;
}

/*
 * Linux: buddy_merge_likely. If the block one order up could merge soon
 * (its buddy is free), queue this block at the tail so it is allocated
 * last and has the best chance to merge.
 */
static bool buddy_merge_likely(struct zone *zone, unsigned long pfn, unsigned int order)
{
	unsigned long higher;

	if (order >= MAX_PAGE_ORDER - 1)
		return false;
	higher = pfn & ~((2ul << order) - 1);
	return page_is_buddy(zone, __find_buddy_pfn(higher, order + 1), order + 1);
}

void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone, unsigned int order,
		     int migratetype)
{
	/* The freed pages, counted once; merging moves free pages around. */
	account_freepages(zone, 1l << order, migratetype);
	while (order < MAX_PAGE_ORDER) {
		unsigned long buddy_pfn = __find_buddy_pfn(pfn, order);
		struct page *buddy = pfn_to_page(buddy_pfn);
		int buddy_mt;

		if (!page_is_buddy(zone, buddy_pfn, order))
			break;
		buddy_mt = (int)buddy->index;
		/* Linux: above a pageblock, blocks without fallbacks (CMA,
		 * HIGHATOMIC, ISOLATE) never merge with other types. */
		if (order >= pageblock_order && buddy_mt != migratetype &&
		    (!migratetype_is_mergeable(migratetype) || !migratetype_is_mergeable(buddy_mt)))
			break;
		__del_page_from_free_list(buddy, zone, order);
		if (buddy_mt != migratetype) {
			/* The buddy's pages are now counted as migratetype's. */
			account_freepages(zone, -(1l << order), buddy_mt);
			account_freepages(zone, 1l << order, migratetype);
			change_pageblock_range(buddy, order, migratetype);
		}
		pfn &= buddy_pfn;
		page = pfn_to_page(pfn);
		order++;
	}
	__add_to_free_list(page, zone, order, migratetype, buddy_merge_likely(zone, pfn, order));
}

void expand(struct zone *zone, struct page *page, unsigned int low, unsigned int high,
	    int migratetype)
{
	while (high > low) {
		high--;
		add_to_free_list(page + (1ul << high), zone, high, migratetype, false);
	}
}

/* Linux: page_del_and_expand. Take the free block of order high at page
 * off its list and give back all but its first 2^low pages; only those
 * leave the free count. */
static void page_del_and_expand(struct zone *zone, struct page *page, unsigned int low,
				unsigned int high, int migratetype)
{
	__del_page_from_free_list(page, zone, high);
	while (high > low) {
		high--;
		__add_to_free_list(page + (1ul << high), zone, high, migratetype, false);
	}
	account_freepages(zone, -(1l << low), migratetype);
}

/* Take the smallest free block of type mt that holds 2^order pages. */
static struct page *__rmqueue_smallest(struct zone *zone, unsigned int order, int mt)
{
	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++) {
		struct list_head *list = &zone->free_area[o].free_list[mt];
		struct page *page;

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		page_del_and_expand(zone, page, order, o, mt);
		return page;
	}
	return NULL;
}

/*
 * Count the free pages and the in-use movable (LRU) pages of page's
 * pageblock, clamped to the zone (Linux: prep_move_freepages_block).
 * Return: false if the pageblock is not wholly inside the zone.
 */
static bool pageblock_census(struct zone *zone, struct page *page, unsigned long *nr_free,
			     unsigned long *nr_movable)
{
	unsigned long start = pageblock_start_pfn(page_to_pfn(page));
	unsigned long end = start + pageblock_nr_pages;

	*nr_free = *nr_movable = 0;
	if (!zone_spans_pfn(zone, start) || !zone_spans_pfn(zone, end - 1))
		return false;
	for (unsigned long pfn = start; pfn < end;) {
		struct page *p = pfn_to_page(pfn);

		if (PageBuddy(p)) {
			*nr_free += 1ul << buddy_order(p);
			pfn += 1ul << buddy_order(p);
			continue;
		}
		if (PageLRU(p)) /* a tail counts as its LRU folio's page */
			(*nr_movable)++;
		pfn++;
	}
	return true;
}

/*
 * Free blocks that start in the pageblock and end inside it move; a block
 * bigger than a pageblock is the caller's to split first (split_large_buddy),
 * as Linux's move_freepages_block_isolate does.
 */
unsigned long move_freepages_block(struct zone *zone, struct page *page, int new_mt)
{
	unsigned long start = pageblock_start_pfn(page_to_pfn(page));
	unsigned long end = start + pageblock_nr_pages;
	unsigned long moved = 0;

	start = MAX(start, zone->zone_start_pfn);
	end = MIN(end, zone->zone_start_pfn + zone->spanned_pages);
	for (unsigned long pfn = start; pfn < end;) {
		struct page *p = pfn_to_page(pfn);
		unsigned int order;

		if (!PageBuddy(p)) {
			pfn++;
			continue;
		}
		order = buddy_order(p);
		if (order <= pageblock_order) {
			move_to_free_list(p, zone, order, new_mt);
			moved += 1ul << order;
		}
		pfn += 1ul << order;
	}
	return moved;
}

/* --- fallback: borrowing from other migratetypes --------------------------- */

/* Linux's fallbacks[]: which lists a type borrows from, in order.
 * HIGHATOMIC, CMA and ISOLATE never fall back. */
static const int fallbacks[MIGRATE_PCPTYPES][MIGRATE_PCPTYPES - 1] = {
	[MIGRATE_UNMOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_MOVABLE },
	[MIGRATE_MOVABLE] = { MIGRATE_RECLAIMABLE, MIGRATE_UNMOVABLE },
	[MIGRATE_RECLAIMABLE] = { MIGRATE_UNMOVABLE, MIGRATE_MOVABLE },
};

/*
 * Linux: can_steal_fallback. Large blocks, and any block an unmovable or
 * reclaimable request borrows from, are worth claiming: mixing those types
 * into movable blocks is what fragments memory for good.
 */
static bool can_steal_fallback(unsigned int order, int start_mt)
{
	return order >= pageblock_order / 2 || start_mt == MIGRATE_UNMOVABLE ||
	       start_mt == MIGRATE_RECLAIMABLE;
}

/* Linux: find_suitable_fallback. Return: the type to borrow an order-`order`
 * block from, or -1; *can_steal says whether to try to claim its pageblock. */
static int find_suitable_fallback(struct free_area *area, unsigned int order, int start_mt,
				  bool *can_steal)
{
	*can_steal = false;
	if (!area->nr_free)
		return -1;
	for (int i = 0; i < MIGRATE_PCPTYPES - 1; i++) {
		int mt = fallbacks[start_mt][i];

		if (list_empty(&area->free_list[mt]))
			continue;
		*can_steal = can_steal_fallback(order, start_mt);
		return mt;
	}
	return -1;
}

/*
 * Linux: try_to_claim_block. A free block of a pageblock or more changes
 * type whole; a smaller one takes its pageblock along if at least half of
 * the block is free or already in use by pages of the requested kind
 * (movable pages are those on an LRU list; in a movable block, other
 * in-use pages are assumed to be unmovable, as Linux does).
 * Return: the allocated block, or NULL if the pageblock was not claimed.
 */
static struct page *try_to_claim_block(struct zone *zone, struct page *page,
				       unsigned int current_order, unsigned int order, int start_mt,
				       int block_mt)
{
	unsigned long nr_free, nr_movable, alike = 0;

	if (current_order >= pageblock_order) {
		del_page_from_free_list(page, zone, current_order);
		change_pageblock_range(page, current_order, start_mt);
		expand(zone, page, order, current_order, start_mt);
		return page;
	}
	if (!pageblock_census(zone, page, &nr_free, &nr_movable))
		return NULL;
	if (start_mt == MIGRATE_MOVABLE)
		alike = nr_movable;
	else if (block_mt == MIGRATE_MOVABLE)
		alike = pageblock_nr_pages - nr_free - nr_movable;
	if (nr_free + alike < pageblock_nr_pages / 2)
		return NULL;
	move_freepages_block(zone, page, start_mt);
	set_pageblock_migratetype(page, start_mt);
	return __rmqueue_smallest(zone, order, start_mt);
}

/* The order-current_order block of type `mt` at the head of its list,
 * split for an order-`order` request; the rest stays on type mt's lists. */
static struct page *take_fallback_block(struct zone *zone, unsigned int current_order,
					unsigned int order, int mt)
{
	struct list_head *list = &zone->free_area[current_order].free_list[mt];
	struct page *page = list_first_entry(list, struct page, lru);

	del_page_from_free_list(page, zone, current_order);
	expand(zone, page, order, current_order, mt);
	return page;
}

/*
 * Linux: __rmqueue_fallback. Borrow the largest free block of a fallback
 * type (the largest block roughly marks the emptiest pageblock, the best
 * one to claim). A movable request that may not claim takes the smallest
 * block instead, so it fragments as little as possible.
 */
static struct page *__rmqueue_fallback(struct zone *zone, unsigned int order, int start_mt)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	int current_order, mt = -1;
	bool can_steal = false;
	struct page *page;

	for (current_order = MAX_PAGE_ORDER; current_order >= (int)order; current_order--) {
		mt = find_suitable_fallback(&zone->free_area[current_order], current_order,
					    start_mt, &can_steal);
		if (mt != -1)
			break;
	}
	if (mt == -1)
		return NULL;
	if (!can_steal && start_mt == MIGRATE_MOVABLE) {
		for (current_order = order; current_order < NR_PAGE_ORDERS; current_order++) {
			mt = find_suitable_fallback(&zone->free_area[current_order], current_order,
						    start_mt, &can_steal);
			if (mt != -1)
				break;
		}
	}
	count_vm_event(pgdat, PGALLOC_FALLBACK);
	pgdat->fallback_count[start_mt][mt]++;
	if (can_steal) {
		struct list_head *list = &zone->free_area[current_order].free_list[mt];

		page = try_to_claim_block(zone, list_first_entry(list, struct page, lru),
					  current_order, order, start_mt, mt);
		if (page) {
			count_vm_event(pgdat, PGALLOC_STEAL);
			return page;
		}
	}
	return take_fallback_block(zone, current_order, order, mt);
}

/*
 * Linux: __rmqueue. Movable requests balance between regular and CMA
 * pageblocks by taking CMA first when over half of the zone's free pages
 * are CMA; then the request's own type, then CMA, then fallback types.
 */
static struct page *__rmqueue(struct zone *zone, unsigned int order, int mt,
			      unsigned int alloc_flags)
{
	struct page *page;

	if ((alloc_flags & ALLOC_CMA) && zone->nr_free_cma > zone->nr_free_pages / 2) {
		page = __rmqueue_smallest(zone, order, MIGRATE_CMA);
		if (page)
			return page;
	}
	page = __rmqueue_smallest(zone, order, mt);
	if (!page && (alloc_flags & ALLOC_CMA))
		page = __rmqueue_smallest(zone, order, MIGRATE_CMA);
	if (!page)
		page = __rmqueue_fallback(zone, order, mt);
	return page;
}

/* --- HIGHATOMIC reserves ------------------------------------------------------ */

/*
 * Linux: reserve_highatomic_pageblock. After a high-order atomic allocation
 * succeeds, set its pageblock aside for later ones: at least one pageblock,
 * at most ~1% of the zone, none if 1% is less than a pageblock.
 */
static void reserve_highatomic_pageblock(struct page *page, unsigned int order, struct zone *zone)
{
	unsigned long max_managed = zone->managed_pages / 100;
	int mt = get_pageblock_migratetype(page);

	if (max_managed < pageblock_nr_pages)
		return;
	max_managed = ALIGN_UP(max_managed, pageblock_nr_pages);
	if (zone->nr_reserved_highatomic >= max_managed || !migratetype_is_mergeable(mt))
		return;
	if (order < pageblock_order) {
		move_freepages_block(zone, page, MIGRATE_HIGHATOMIC);
		set_pageblock_migratetype(page, MIGRATE_HIGHATOMIC);
		zone->nr_reserved_highatomic += pageblock_nr_pages;
	} else {
		change_pageblock_range(page, order, MIGRATE_HIGHATOMIC);
		zone->nr_reserved_highatomic += 1ul << order;
	}
}

/*
 * Linux: unreserve_highatomic_pageblock. Before an allocation fails, give
 * one reserved pageblock that has free pages back to the requested type.
 * Return: true if a pageblock was released.
 */
static bool unreserve_highatomic_pageblock(struct zone *zone, int mt)
{
	for (int o = 0; o < NR_PAGE_ORDERS; o++) {
		struct list_head *list = &zone->free_area[o].free_list[MIGRATE_HIGHATOMIC];
		struct page *page;

		if (list_empty(list))
			continue;
		page = list_first_entry(list, struct page, lru);
		if (o > (int)pageblock_order) {
			/* A merged run of reserved pageblocks: release them all. */
			zone->nr_reserved_highatomic -= 1ul << o;
			change_pageblock_range(page, o, mt);
			move_to_free_list(page, zone, o, mt);
			return true;
		}
		zone->nr_reserved_highatomic -= pageblock_nr_pages;
		set_pageblock_migratetype(page, mt);
		move_freepages_block(zone, page, mt);
		return true;
	}
	return false;
}

/* Linux: prep_new_page (post_alloc_hook + prep_compound_page), in two
 * parts: the head's fields, then (out of line) the contents and the tails. */
static __always_inline void prep_new_page_head(struct page *page, gfp_t gfp)
{
	page->_refcount = 1;
	page->private = 0;
	page->index = 0;
	/* Linux: post_alloc_hook's set_page_owner. The same write of the
	 * flags also ends PG_pcp: every store to them costs the fast path. */
	page->flags = page_owner_flags(page->flags & ~(1ul << PG_pcp), gfp);
}

static bool prep_new_page_needs_more(unsigned int order, gfp_t gfp)
{
	return (gfp & __GFP_ZERO) || (order && (gfp & __GFP_COMP));
}

static noinline struct page *prep_new_page_more(struct page *page, unsigned int order, gfp_t gfp)
{
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	if (order && (gfp & __GFP_COMP))
		prep_compound_page(page, order);
	return page;
}

static __always_inline void __prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	prep_new_page_head(page, gfp);
	if (prep_new_page_needs_more(order, gfp))
		prep_new_page_more(page, order, gfp);
}

/* --- watermarks ---------------------------------------------------------------- */

/* Linux: __zone_watermark_unusable_free. The pages of the order's block
 * beyond the first, and the reserves this request may not use. */
static __always_inline long
zone_watermark_unusable_free(const struct zone *zone, unsigned int order, unsigned int alloc_flags)
{
	long unusable = (1l << order) - 1;

	if (likely(!(alloc_flags & ALLOC_RESERVES)))
		unusable += (long)zone->nr_reserved_highatomic;
	if (!(alloc_flags & ALLOC_CMA))
		unusable += (long)zone->nr_free_cma;
	return unusable;
}

/*
 * Linux: __zone_watermark_ok. After taking 2^order pages the zone must keep
 * more than `mark` free pages not counting reserves the request may not use
 * (HIGHATOMIC unless ALLOC_RESERVES, CMA unless ALLOC_CMA), and for
 * order > 0 a free block of at least that order must exist on a usable list.
 * __GFP_HIGH (ALLOC_MIN_RESERVE) may use half of `mark`, and if it also
 * cannot reclaim (ALLOC_NON_BLOCK, GFP_ATOMIC) a quarter of the rest;
 * ALLOC_NON_BLOCK alone (GFP_NOWAIT) gets no part of it.
 */
static bool __zone_watermark_ok(struct zone *zone, unsigned int order, long mark,
				unsigned int alloc_flags)
{
	long free =
		(long)zone->nr_free_pages - zone_watermark_unusable_free(zone, order, alloc_flags);

	if (alloc_flags & ALLOC_MIN_RESERVE) {
		mark -= mark / 2;
		if (alloc_flags & ALLOC_NON_BLOCK)
			mark -= mark / 4;
	}
	if (free <= mark)
		return false;
	for (unsigned int o = order; order && o < NR_PAGE_ORDERS; o++) {
		struct free_area *area = &zone->free_area[o];

		if (!area->nr_free) /* Linux's shortcut: no block of this order at all */
			continue;
		for (int mt = 0; mt < MIGRATE_PCPTYPES; mt++)
			if (!list_empty(&area->free_list[mt]))
				return true;
		if ((alloc_flags & ALLOC_CMA) && !list_empty(&area->free_list[MIGRATE_CMA]))
			return true;
		if ((alloc_flags & ALLOC_RESERVES) &&
		    !list_empty(&area->free_list[MIGRATE_HIGHATOMIC]))
			return true;
	}
	return order == 0;
}

/*
 * Linux: zone_watermark_fast. For order 0 a few loads and one compare
 * decide when the zone is comfortably above `mark` (ignoring the reserve
 * discounts, which only lower it); otherwise, and for larger orders, the
 * full __zone_watermark_ok. Inline: the allocation fast path uses it.
 */
static __always_inline bool zone_watermark_fast(struct zone *zone, unsigned int order,
						unsigned long mark, unsigned int alloc_flags)
{
	if (!order) {
		long usable = (long)zone->nr_free_pages;

		usable -= MIN(usable, zone_watermark_unusable_free(zone, 0, alloc_flags));
		if (likely(usable > (long)mark))
			return true;
	}
	return __zone_watermark_ok(zone, order, (long)mark, alloc_flags);
}

/* The watermark alloc_flags name (Linux: zone_watermark_ok). */
static bool zone_watermark_ok(struct zone *zone, unsigned int order, unsigned int alloc_flags)
{
	return __zone_watermark_ok(
		zone, order, (long)zone->_watermark[alloc_flags & ALLOC_WMARK_MASK], alloc_flags);
}

/* --- per-CPU page lists -------------------------------------------------------- */

/* Orders 0..PAGE_ALLOC_COSTLY_ORDER, and the PMD order with THP. */
static bool pcp_allowed_order(unsigned int order)
{
	if (order <= PAGE_ALLOC_COSTLY_ORDER)
		return true;
	return CONFIG_TRANSPARENT_HUGEPAGE && order == HPAGE_PMD_ORDER;
}

/* Linux: order_to_pindex; the PMD order takes the slot after the costly ones. */
static unsigned int order_to_pindex(int mt, unsigned int order)
{
	unsigned int slot = order <= PAGE_ALLOC_COSTLY_ORDER ? order : PAGE_ALLOC_COSTLY_ORDER + 1;

	return MIGRATE_PCPTYPES * slot + (unsigned int)mt;
}

static unsigned int pindex_to_order(unsigned int pindex)
{
	unsigned int slot = pindex / MIGRATE_PCPTYPES;

	return slot <= PAGE_ALLOC_COSTLY_ORDER ? slot : HPAGE_PMD_ORDER;
}

/*
 * Linux: free_pcppages_bulk. Return `count` pages (a block counts whole)
 * to the buddy lists, oldest first, emptying one list before the next,
 * starting with the list at pindex (the one a free just overfilled). Each
 * block goes to its pageblock's current type, which may have changed
 * while it was cached.
 */
static void free_pcppages_bulk(struct zone *zone, int count, unsigned int pindex)
{
	struct per_cpu_pages *pcp = &zone->pcp;

	count = MIN(count, pcp->count); /* so the list search below ends */
	while (count > 0) {
		struct list_head *list = &pcp->lists[pindex];
		unsigned int order;

		while (list_empty(list)) {
			pindex = pindex + 1 < NR_PCP_LISTS ? pindex + 1 : 0;
			list = &pcp->lists[pindex];
		}
		order = pindex_to_order(pindex);
		do {
			struct page *page = list_last_entry(list, struct page, lru);

			list_del(&page->lru);
			ClearPageFlag(page, PG_pcp);
			pcp->count -= 1 << order;
			count -= 1 << order;
			__free_one_page(page, page_to_pfn(page), zone, order,
					get_pageblock_migratetype(page));
		} while (count > 0 && !list_empty(list));
	}
}

void drain_zone_pages(struct zone *zone)
{
	free_pcppages_bulk(zone, zone->pcp.count, 0);
}

void drain_node_pages(struct pglist_data *pgdat)
{
	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		drain_zone_pages(&pgdat->node_zones[zt]);
}

static bool zone_below_high(const struct zone *zone)
{
	return zone->flags & (1ul << ZONE_BELOW_HIGH);
}

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/*
 * Linux: nr_pcp_high. The high mark a free is measured against, tuned on
 * the way: while the zone is below its high watermark it shrinks by the
 * pages freed in a row (they are wanted back in the zone); otherwise, when
 * the lists are full, it grows to hold the run of frees plus a batch. A
 * run of high-order frees (free_high) drains everything it can.
 */
static int nr_pcp_high(struct per_cpu_pages *pcp, struct zone *zone, int batch, bool free_high)
{
	int high = pcp->high; /* within [high_min, high_max]: every writer keeps it so */

	if (free_high) {
		pcp->high = MAX(high - (batch << PCP_BATCH_SCALE_MAX), pcp->high_min);
		return 0;
	}
	if (pcp->high_min == pcp->high_max)
		return high;
	if (zone_below_high(zone)) {
		pcp->high = MAX(high - MAX(pcp->free_count, batch), pcp->high_min);
		high = pcp->high;
	} else if (pcp->count >= high && pcp->high < pcp->free_count + batch) {
		pcp->high = clamp_int(pcp->free_count + batch, pcp->high_min, pcp->high_max);
	}
	return high;
}

/* Linux: nr_pcp_free. A drain frees as many pages as were freed in a row,
 * leaving at least a batch; after a run of high-order frees, all it can. */
static int nr_pcp_free(struct per_cpu_pages *pcp, int batch, int high, bool free_high)
{
	if (free_high)
		return MIN(pcp->count, batch << PCP_BATCH_SCALE_MAX);
	if (high < batch) /* the boot pageset */
		return 1;
	return clamp_int(pcp->free_count, batch, high - batch);
}

/* Drain an overfull pcp (Linux: the end of free_frozen_page_commit); if
 * that lifted the zone back above its high watermark, pcp->high may grow
 * again. Out of line: the fast path stays small. */
static noinline void pcp_drain_over_high(struct zone *zone, int count, unsigned int pindex)
{
	free_pcppages_bulk(zone, count, pindex);
	if (zone_below_high(zone) && zone_watermark_ok(zone, 0, ALLOC_WMARK_HIGH))
		zone->flags &= ~(1ul << ZONE_BELOW_HIGH);
}

/*
 * Linux: free_frozen_page_commit. Cache a freed block on its list; when
 * the lists reach high, drain as many pages as nr_pcp_free says. High-order
 * blocks (orders 1..3) freed in a long run are drained whole, as they
 * would otherwise keep larger blocks from merging.
 */
static __always_inline void free_frozen_page_commit(struct zone *zone, struct page *page, int mt,
						    unsigned int order)
{
	struct per_cpu_pages *pcp = &zone->pcp;
	unsigned int pindex = order_to_pindex(mt, order);
	int batch = pcp->batch, high;
	bool free_high = false;

	if (pcp->alloc_factor) /* a free ends a run of allocations */
		pcp->alloc_factor >>= 1;
	page->private = order; /* PG_pcp is set: __free_pages */
	list_add(&page->lru, &pcp->lists[pindex]);
	pcp->count += 1 << order;
	if (order && order <= PAGE_ALLOC_COSTLY_ORDER) {
		free_high = pcp->free_count >= batch + pcp->high_min / 2 &&
			    (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER);
		pcp->flags |= PCPF_PREV_FREE_HIGH_ORDER;
	} else if (pcp->flags & PCPF_PREV_FREE_HIGH_ORDER) {
		pcp->flags &= ~PCPF_PREV_FREE_HIGH_ORDER;
	}
	if (pcp->free_count < (batch << PCP_BATCH_SCALE_MAX))
		pcp->free_count += 1 << order;
	high = nr_pcp_high(pcp, zone, batch, free_high);
	if (unlikely(pcp->count >= high))
		pcp_drain_over_high(zone, nr_pcp_free(pcp, batch, high, free_high), pindex);
}

/* Linux: free_frozen_pages' choice. Isolated blocks bypass the pcp; CMA
 * and HIGHATOMIC pages wait on the movable list. */
static __always_inline void free_to_pcp(struct zone *zone, struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	int mt = get_pfnblock_migratetype(zone, pfn);

	if (unlikely(mt >= MIGRATE_PCPTYPES)) {
		if (mt == MIGRATE_ISOLATE) {
			ClearPageFlag(page, PG_pcp);
			__free_one_page(page, pfn, zone, order, mt);
			return;
		}
		mt = MIGRATE_MOVABLE;
	}
	free_frozen_page_commit(zone, page, mt, order);
}

/*
 * Linux: nr_pcp_alloc. How many blocks a refill takes: a batch, doubled
 * for each refill of order 0 since the last free (alloc_factor, up to
 * batch << PCP_BATCH_SCALE_MAX) but never past high; fewer for higher
 * orders. A refill that finds the zone above its high watermark first
 * raises pcp->high by the batch, so a steady stream of allocations and
 * frees ends up served by the lists alone.
 */
static int nr_pcp_alloc(struct per_cpu_pages *pcp, struct zone *zone, unsigned int order)
{
	int base_batch = pcp->batch, batch, max_nr_alloc;
	int high = pcp->high;

	if (high < base_batch) /* the boot pageset */
		return 1;
	batch = order ? base_batch : base_batch << pcp->alloc_factor;
	if (pcp->high_min != pcp->high_max && !zone_below_high(zone))
		high = pcp->high = MIN(high + batch, pcp->high_max);
	if (!order) {
		max_nr_alloc = MAX(high - pcp->count - base_batch, base_batch);
		if (batch <= max_nr_alloc && pcp->alloc_factor < PCP_BATCH_SCALE_MAX)
			pcp->alloc_factor++;
		batch = MIN(batch, max_nr_alloc);
	}
	if (batch > 1)
		batch = MAX(batch >> order, 2);
	return batch;
}

/* Linux: rmqueue_bulk. Move up to `count` blocks from the buddy lists to
 * a pcp list, in the order __rmqueue gives them (ascending pfns after a
 * split). Return: the blocks moved. */
static int rmqueue_bulk(struct zone *zone, unsigned int order, int count, struct list_head *list,
			int mt, unsigned int alloc_flags)
{
	int i;

	for (i = 0; i < count; i++) {
		struct page *page = __rmqueue(zone, order, mt, alloc_flags);

		if (!page)
			break;
		SetPageFlag(page, PG_pcp);
		page->private = order;
		list_add_tail(&page->lru, list);
	}
	return i;
}

/*
 * Refill an empty pcp list from the zone (Linux: the refill step of
 * __rmqueue_pcplist). The caller has checked the zone's watermark (Linux:
 * get_page_from_freelist before rmqueue). Out of line: the fast path stays small.
 * Return: false if the list is still empty.
 */
static noinline bool pcp_refill(struct zone *zone, unsigned int order, int mt,
				unsigned int alloc_flags, struct list_head *list)
{
	struct per_cpu_pages *pcp = &zone->pcp;
	long room;
	int count;

	count = nr_pcp_alloc(pcp, zone, order);
	/* Linux lets a refill take the zone a batch (up to 32 batches) below
	 * the watermark just checked: kswapd brings it back. Folium has no
	 * kswapd, and its direct reclaim frees SWAP_CLUSTER_MAX pages a round,
	 * so a refill takes only the blocks above the watermark, and leaves
	 * the zone above it (but for the one block asked for): the blocks it
	 * cached then pass the next allocations' check instead of waiting on
	 * the list for a drain. */
	room = ((long)zone->nr_free_pages - 1 -
		(long)zone->_watermark[alloc_flags & ALLOC_WMARK_MASK]) >>
	       order;
	count = (int)MAX(MIN((long)count, room), 1l);
	pcp->count += rmqueue_bulk(zone, order, count, list, mt, alloc_flags) << order;
	return !list_empty(list);
}

/* Take the first block of a non-empty pcp list. PG_pcp is cleared by
 * prep_new_page, in the same write as the owner. */
static __always_inline struct page *pcp_pop(struct zone *zone, struct list_head *list,
					    unsigned int order)
{
	struct page *page = list_first_entry(list, struct page, lru);

	list_del(&page->lru);
	zone->pcp.count -= 1 << order;
	return page;
}

/* Linux: __rmqueue_pcplist. The first block of the list, refilled when
 * empty. A "hit" (PGALLOC_PCP_HIT) needed no refill. */
static __always_inline struct page *__rmqueue_pcplist(struct zone *zone, unsigned int order, int mt,
						      unsigned int alloc_flags,
						      struct list_head *list)
{
	if (unlikely(list_empty(list))) {
		if (!pcp_refill(zone, order, mt, alloc_flags, list))
			return NULL;
	} else {
		count_vm_event(zone->zone_pgdat, PGALLOC_PCP_HIT);
	}
	return pcp_pop(zone, list, order);
}

/* Linux: rmqueue_pcplist. An allocation ends a run of frees. */
static __always_inline struct page *rmqueue_pcplist(struct zone *zone, unsigned int order, int mt,
						    unsigned int alloc_flags)
{
	zone->pcp.free_count >>= 1;
	return __rmqueue_pcplist(zone, order, mt, alloc_flags,
				 &zone->pcp.lists[order_to_pindex(mt, order)]);
}

/* --- allocation ------------------------------------------------------------- */

/* Linux: rmqueue_buddy (the caller checked the watermark). */
static noinline struct page *rmqueue_buddy(struct zone *zone, unsigned int order, int mt,
					   unsigned int alloc_flags)
{
	struct page *page = NULL;

	if (alloc_flags & ALLOC_HIGHATOMIC)
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	if (!page)
		page = __rmqueue(zone, order, mt, alloc_flags);
	if (!page && (alloc_flags & ALLOC_RESERVES))
		page = __rmqueue_smallest(zone, order, MIGRATE_HIGHATOMIC);
	return page;
}

/* Linux: rmqueue. The pcp lists first for the orders they hold; the buddy
 * lists when a list cannot be refilled (the HIGHATOMIC reserves live there). */
static __always_inline struct page *rmqueue(struct zone *zone, unsigned int order, int mt,
					    unsigned int alloc_flags)
{
	if (likely(pcp_allowed_order(order))) {
		struct page *page = rmqueue_pcplist(zone, order, mt, alloc_flags);

		if (likely(page))
			return page;
	}
	return rmqueue_buddy(zone, order, mt, alloc_flags);
}

/* Linux: gfp_to_alloc_flags_cma. Movable requests may use CMA blocks. */
static __always_inline unsigned int gfp_to_alloc_flags_cma(gfp_t gfp, unsigned int alloc_flags)
{
	if (gfp_migratetype(gfp) == MIGRATE_MOVABLE)
		alloc_flags |= ALLOC_CMA;
	return alloc_flags;
}

/*
 * Linux: gfp_to_alloc_flags, the slow path's flags (the first try, in
 * alloc_pages_full and the fast path, uses the low watermark). The min
 * watermark; __GFP_HIGH may use half of it (ALLOC_MIN_RESERVE); a caller
 * that cannot reclaim gets ALLOC_NON_BLOCK, unless __GFP_NOMEMALLOC says
 * it is not worth it, and with __GFP_HIGH a quarter of min more. Folium
 * names the HIGHATOMIC wish with __GFP_HIGHATOMIC (in GFP_ATOMIC), where
 * Linux derives it from the same rule (order > 0, non-blocking __GFP_HIGH).
 */
static unsigned int gfp_to_alloc_flags(gfp_t gfp, unsigned int order)
{
	unsigned int alloc_flags = ALLOC_WMARK_MIN;

	if (gfp & __GFP_HIGH)
		alloc_flags |= ALLOC_MIN_RESERVE;
	if (!(gfp & (__GFP_DIRECT_RECLAIM | __GFP_NOMEMALLOC)))
		alloc_flags |= ALLOC_NON_BLOCK;
	if ((gfp & __GFP_HIGHATOMIC) && order > 0)
		alloc_flags |= ALLOC_HIGHATOMIC;
	return gfp_to_alloc_flags_cma(gfp, alloc_flags);
}

/* Take 2^order pages from zone. With DEBUG_VM, skip (and leak) any block
 * whose poison was overwritten, as Linux's check_new_pages does. */
static __always_inline struct page *rmqueue_checked(struct zone *zone, unsigned int order, int mt,
						    unsigned int alloc_flags)
{
	struct page *page;

	while ((page = rmqueue(zone, order, mt, alloc_flags))) {
		if (!CONFIG_DEBUG_VM || check_poison(page, 1u << order))
			return page;
		ClearPageFlag(page, PG_pcp); /* leaked: on no list */
	}
	return NULL;
}

/* Linux: the zonelist, preferred zone first: Normal, then DMA32; only
 * DMA32 for __GFP_DMA32. No other node is tried. */
static const enum zone_type zonelist[] = { ZONE_NORMAL, ZONE_DMA32 };

static unsigned int zonelist_first(gfp_t gfp)
{
	return (gfp & __GFP_DMA32) ? 1 : 0;
}

/*
 * The fast path: Linux's likeliest way through get_page_from_freelist,
 * rmqueue and rmqueue_pcplist, a pcp hit in the first zone of the
 * zonelist that has memory, at the first try's low watermark. For order
 * 0 it makes no call, so the compiler saves no registers for it. It does
 * not note ZONE_BELOW_HIGH: a pcp hit leaves the zone's free count as it
 * was. Return: NULL when it does not apply (an empty list, an order
 * without pcp lists, a HIGHATOMIC request, a zone at or below its low
 * watermark, a block whose poison DEBUG_VM found overwritten), for the
 * full path to serve. With DEBUG_VM it checks the poison, a call:
 * the checks stay, off the fast path only when DEBUG_VM is off.
 */
static __always_inline struct page *rmqueue_pcp_fast(struct pglist_data *pgdat, gfp_t gfp,
						     unsigned int order)
{
	unsigned int i = zonelist_first(gfp);
	struct zone *zone = &pgdat->node_zones[zonelist[i]];
	struct list_head *list;
	struct page *page;

	if (!pcp_allowed_order(order) || ((gfp & __GFP_HIGHATOMIC) && order))
		return NULL;
	if (!zone->managed_pages) {
		if (i + 1 == ARRAY_SIZE(zonelist))
			return NULL;
		zone = &pgdat->node_zones[zonelist[i + 1]];
	}
	list = &zone->pcp.lists[order_to_pindex(gfp_migratetype(gfp), order)];
	if (unlikely(list_empty(list)))
		return NULL;
	if (unlikely(!zone_watermark_fast(zone, order, zone->_watermark[WMARK_LOW],
					  gfp_to_alloc_flags_cma(gfp, ALLOC_WMARK_LOW))))
		return NULL;
	zone->pcp.free_count >>= 1;
	count_vm_event(pgdat, PGALLOC_PCP_HIT);
	page = pcp_pop(zone, list, order);
	if (CONFIG_DEBUG_VM && !check_poison(page, 1u << order)) {
		ClearPageFlag(page, PG_pcp); /* leaked, as rmqueue_checked does */
		return NULL;
	}
	prep_new_page_head(page, gfp); /* the rest: alloc_pages_node */
	return page;
}

/* Linux notes in get_page_from_freelist whether the zone is below its
 * high watermark, for pcp->high's tuning (nr_pcp_high), and not in the
 * hotter free path. */
static void zone_note_below_high(struct zone *zone, unsigned int order, unsigned int alloc_flags)
{
	if (!zone_below_high(zone) &&
	    !zone_watermark_fast(zone, order, zone->_watermark[WMARK_HIGH], alloc_flags))
		zone->flags |= 1ul << ZONE_BELOW_HIGH;
}

/* Linux: get_page_from_freelist over the zonelist: a zone whose watermark
 * (zone_watermark_fast) the request would break is skipped before rmqueue
 * takes anything, from its pcp lists as from its free lists. */
static __always_inline struct page *get_page_from_freelist(struct pglist_data *pgdat, gfp_t gfp,
							   unsigned int order,
							   unsigned int alloc_flags)
{
	for (unsigned int i = zonelist_first(gfp); i < ARRAY_SIZE(zonelist); i++) {
		struct zone *zone = &pgdat->node_zones[zonelist[i]];
		struct page *page;

		if (!zone->managed_pages)
			continue;
		zone_note_below_high(zone, order, alloc_flags);
		if (!zone_watermark_fast(zone, order,
					 zone->_watermark[alloc_flags & ALLOC_WMARK_MASK],
					 alloc_flags))
			continue;
		page = rmqueue_checked(zone, order, gfp_migratetype(gfp), alloc_flags);
		if (!page)
			continue;
		__prep_new_page(page, order, gfp);
		if (unlikely(alloc_flags & ALLOC_HIGHATOMIC))
			reserve_highatomic_pageblock(page, order, zone);
		return page;
	}
	return NULL;
}

#define PAGE_FLAGS_ORDER_MASK (0xfful << PAGE_FLAGS_ORDER_SHIFT)

/* Make page the head of a 2^order folio (Linux: prep_compound_page). */
void prep_compound_page(struct page *page, unsigned int order)
{
	unsigned long nr = 1ul << order;

	if (!order)
		return; /* an order-0 folio is a plain page */
	page->flags &= ~PAGE_FLAGS_ORDER_MASK;
	page->flags |= (unsigned long)order << PAGE_FLAGS_ORDER_SHIFT;
	SetPageFlag(page, PG_head);
	for (unsigned long i = 1; i < nr; i++) {
		page[i].compound_head = (unsigned long)page | 1;
		page[i]._refcount = 0;
		/* A folio made of pages taken one by one is one allocation. */
		reset_page_owner(&page[i]);
	}
	folio_reset_large_mapcounts((struct folio *)page);
}

/* page[1]'s fields a large folio used are a plain page's again (Linux:
 * free_tail_page_prepare clears the same). */
static void clear_large_folio_fields(struct page *page)
{
	page[1].lru.next = NULL;
	page[1].lru.prev = NULL;
	page[1].mapping = NULL;
}

/* Undo prep_compound_page: the head and tails become plain pages again
 * (the folio is being freed or split). */
void destroy_large_folio(struct folio *folio, unsigned int order)
{
	struct page *page = &folio->page;

	if (!order)
		return; /* an order-0 folio is a plain page already */
	page->flags &= ~PAGE_FLAGS_ORDER_MASK;
	ClearPageFlag(page, PG_head);
	clear_large_folio_fields(page);
	for (unsigned long i = 1; i < (1ul << order); i++)
		page[i].compound_head = 0;
}

void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	__prep_new_page(page, order, gfp);
}

/* Linux: warn_alloc, rate-limited to 10 messages per 5 seconds. */
static void warn_alloc(struct pglist_data *pgdat, gfp_t gfp, unsigned int order)
{
	static uint64_t window_start;
	static int printed;
	uint64_t now = arch_uptime_ns();

	if (gfp & __GFP_NOWARN)
		return;
	if (now - window_start > 5000000000ull) {
		window_start = now;
		printed = 0;
	}
	if (printed++ < 10)
		pr_warn("page allocation failure: order:%u, mode:%#x, nid:%d, free:%lu\n", order,
			gfp, pgdat->node_id, node_free_pages(pgdat));
}

/*
 * Linux: __alloc_pages_direct_compact. Compact, then try the free lists.
 * A compaction that ran in some zone (not skipped or deferred in all) is
 * a stall (COMPACTSTALL), then a COMPACTSUCCESS or a COMPACTFAIL.
 */
static struct page *alloc_pages_direct_compact(struct pglist_data *pgdat, gfp_t gfp,
					       unsigned int order, unsigned int alloc_flags,
					       enum compact_priority prio,
					       enum compact_result *result)
{
	struct page *page;

	*result = try_to_compact_pages(pgdat, gfp, order, prio);
	if (*result <= COMPACT_DEFERRED)
		return NULL;
	count_vm_event(pgdat, COMPACTSTALL);
	page = get_page_from_freelist(pgdat, gfp, order, alloc_flags);
	if (!page) {
		count_vm_event(pgdat, COMPACTFAIL);
		return NULL;
	}
	compaction_defer_reset(page_zone(page), (int)order, true);
	count_vm_event(pgdat, COMPACTSUCCESS);
	return page;
}

/*
 * Linux: __alloc_pages_slowpath, reduced to its rules. A try with the
 * slow path's alloc_flags (gfp_to_alloc_flags: the min watermark and the
 * reserves the caller may use); then, for a caller that may reclaim
 * only: a costly order first gets an async direct compaction (its
 * base pages are likely there, only scattered). Then one round of reclaim
 * (the node's hook), the per-CPU pages and HIGHATOMIC reserves back, and
 * one more try; then, for a costly order, direct compaction again,
 * sync-light, or async once more for __GFP_NORETRY, which gives up at once
 * if the first compaction was skipped or deferred. Then the allocation
 * fails (Linux loops only for __GFP_RETRY_MAYFAIL or small orders).
 */
static struct page *alloc_pages_slowpath(struct pglist_data *pgdat, gfp_t gfp, unsigned int order)
{
	unsigned int alloc_flags = gfp_to_alloc_flags(gfp, order);
	enum compact_priority prio = DEF_COMPACT_PRIORITY;
	bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	enum compact_result result;
	struct page *page;

	/* Linux: the adjusted alloc_flags might give an immediate success. */
	page = get_page_from_freelist(pgdat, gfp, order, alloc_flags);
	if (page || !(gfp & __GFP_DIRECT_RECLAIM))
		return page;
	if (costly) {
		page = alloc_pages_direct_compact(pgdat, gfp, order, alloc_flags,
						  INIT_COMPACT_PRIORITY, &result);
		if (page)
			return page;
		if (gfp & __GFP_NORETRY) {
			if (result == COMPACT_SKIPPED || result == COMPACT_DEFERRED)
				return NULL;
			prio = INIT_COMPACT_PRIORITY;
		}
	}
	if (pgdat->reclaim) {
		count_vm_event(pgdat, PGALLOC_RECLAIM);
		pgdat->reclaim(pgdat, order, MAX(SWAP_CLUSTER_MAX, 1ul << order));
	}
	drain_node_pages(pgdat);
	page = get_page_from_freelist(pgdat, gfp, order, alloc_flags);
	for (int zt = 0; !page && zt < MAX_NR_ZONES; zt++) {
		if (unreserve_highatomic_pageblock(&pgdat->node_zones[zt], gfp_migratetype(gfp)))
			page = get_page_from_freelist(pgdat, gfp, order, alloc_flags);
	}
	if (!page && costly)
		page = alloc_pages_direct_compact(pgdat, gfp, order, alloc_flags, prio, &result);
	/* Linux retries a __GFP_RETRY_MAYFAIL request while reclaim or
	 * compaction makes progress (should_compact_retry); Folium retries
	 * once: a second round can use what the first one's migration freed. */
	if (!page && costly && (gfp & __GFP_RETRY_MAYFAIL)) {
		if (pgdat->reclaim)
			pgdat->reclaim(pgdat, order, MAX(SWAP_CLUSTER_MAX, 1ul << order));
		drain_node_pages(pgdat);
		page = alloc_pages_direct_compact(pgdat, gfp, order, alloc_flags,
						  DEF_COMPACT_PRIORITY, &result);
	}
	return page;
}

/* Everything but the fast path (Linux: __alloc_pages after its first
 * try, then __alloc_pages_slowpath and the failure report). Out of line:
 * the fast path stays small. */
static noinline struct page *alloc_pages_full(struct pglist_data *pgdat, gfp_t gfp,
					      unsigned int order)
{
	unsigned int alloc_flags = gfp_to_alloc_flags_cma(gfp, ALLOC_WMARK_LOW);
	struct page *page = get_page_from_freelist(pgdat, gfp, order, alloc_flags);

	if (!page)
		page = alloc_pages_slowpath(pgdat, gfp, order);
	if (!page) {
		count_vm_event(pgdat, PGALLOC_FAIL);
		warn_alloc(pgdat, gfp, order);
		return NULL;
	}
	pgdat->vm_events[PGALLOC] += 1ul << order;
	return page;
}

static noinline struct page *alloc_pages_bad_request(int nid, unsigned int order)
{
	pr_warn("alloc_pages_node: bad node %d or order %u\n", nid, order);
	return NULL;
}

/* Linux: __alloc_pages. */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order)
{
	struct pglist_data *pgdat;
	struct page *page;

	if (unlikely((unsigned int)nid >= MAX_NUMNODES || !NODE_DATA(nid) ||
		     order > MAX_PAGE_ORDER))
		return alloc_pages_bad_request(nid, order);
	pgdat = NODE_DATA(nid);
	page = rmqueue_pcp_fast(pgdat, gfp, order);
	if (unlikely(!page))
		return alloc_pages_full(pgdat, gfp, order);
	pgdat->vm_events[PGALLOC] += 1ul << order;
	if (prep_new_page_needs_more(order, gfp))
		return prep_new_page_more(page, order, gfp); /* a tail call: no registers saved */
	return page;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	return alloc_pages_node(0, gfp, order);
}

void split_page(struct page *page, unsigned int order)
{
	for (unsigned long i = 1; i < (1ul << order); i++) {
		page[i]._refcount = 1;
		page[i].flags = (page[i].flags & ~PAGE_FLAGS_OWNER_MASK) |
				(page->flags & PAGE_FLAGS_OWNER_MASK); /* Linux: split_page_owner */
	}
}

void *alloc_pages_exact_nid(int nid, size_t size, gfp_t gfp)
{
	unsigned long nr = PFN_UP(size);
	unsigned int order = 0;
	struct page *page;

	if (!nr || (gfp & __GFP_COMP))
		return NULL;
	while ((1ul << order) < nr)
		order++;
	page = order <= MAX_PAGE_ORDER ? alloc_pages_node(nid, gfp, order) : NULL;
	if (!page)
		return NULL;
	/* Linux: make_alloc_exact. */
	split_page(page, order);
	for (unsigned long i = nr; i < (1ul << order); i++)
		__free_pages(page + i, 0);
	return page_address(page);
}

void free_pages_exact(void *virt, size_t size)
{
	struct page *page = virt_to_page(virt);

	for (unsigned long i = 0; i < PFN_UP(size); i++)
		__free_pages(page + i, 0);
}

/* Place one allocated page as __alloc_pages_bulk's caller asked. */
static void bulk_store(struct page *page, struct list_head *page_list, struct page **page_array,
		       unsigned long i)
{
	if (page_list)
		list_add(&page->lru, page_list);
	else
		page_array[i] = page;
}

/*
 * Linux: __alloc_pages_bulk (alloc_pages_bulk_noprof). Order-0 pages for
 * page_array's empty (NULL) slots, or nr_pages of them onto page_list,
 * taken from the pcp list in one go: one zone choice for the whole call,
 * the first that stays above its watermark after giving all nr_pages. If
 * no zone can (or only one page is wanted, or the list gave none), one
 * ordinary allocation, which may reclaim, is made instead.
 * Return: the populated slots of page_array counted from its start (the
 * ones filled before the call included), or the pages added to page_list;
 * fewer than nr_pages when memory ran short: those pages are kept.
 */
unsigned long __alloc_pages_bulk(gfp_t gfp, int nid, unsigned long nr_pages,
				 struct list_head *page_list, struct page **page_array)
{
	unsigned int alloc_flags = gfp_to_alloc_flags_cma(gfp, ALLOC_WMARK_LOW);
	unsigned long nr_populated = 0, nr_account = 0;
	struct pglist_data *pgdat;
	struct zone *zone = NULL;
	struct list_head *list;
	struct page *page;
	int mt = gfp_migratetype(gfp);

	if (nid < 0 || nid >= MAX_NUMNODES || !NODE_DATA(nid) || (!page_list == !page_array)) {
		pr_warn("alloc_pages_bulk: bad node %d or not one of list and array\n", nid);
		return 0;
	}
	pgdat = NODE_DATA(nid);
	while (page_array && nr_populated < nr_pages && page_array[nr_populated])
		nr_populated++;
	if (nr_populated == nr_pages)
		return nr_populated;
	if (nr_pages - nr_populated == 1)
		goto failed;
	for (unsigned int i = zonelist_first(gfp); i < ARRAY_SIZE(zonelist); i++) {
		struct zone *z = &pgdat->node_zones[zonelist[i]];
		long mark = (long)(z->_watermark[alloc_flags & ALLOC_WMARK_MASK] + nr_pages);

		if (z->managed_pages && __zone_watermark_ok(z, 0, mark, alloc_flags)) {
			zone = z;
			break;
		}
	}
	if (!zone)
		goto failed;
	zone->pcp.free_count >>= 1;
	list = &zone->pcp.lists[order_to_pindex(mt, 0)];
	while (nr_populated < nr_pages) {
		if (page_array && page_array[nr_populated]) {
			nr_populated++;
			continue;
		}
		page = __rmqueue_pcplist(zone, 0, mt, alloc_flags, list);
		if (unlikely(!page))
			break;
		if (CONFIG_DEBUG_VM && !check_poison(page, 1)) {
			ClearPageFlag(page, PG_pcp); /* leaked, as rmqueue_checked does */
			continue;
		}
		__prep_new_page(page, 0, gfp);
		bulk_store(page, page_list, page_array, nr_populated);
		nr_account++;
		nr_populated++;
	}
	pgdat->vm_events[PGALLOC] += nr_account;
	if (nr_account)
		return nr_populated;
failed:
	page = alloc_pages_node(nid, gfp, 0);
	if (page)
		bulk_store(page, page_list, page_array, nr_populated++);
	return nr_populated;
}

/* --- freeing ------------------------------------------------------------------ */

static __always_inline bool __free_pages_prepare(struct page *page, unsigned int order,
						 unsigned long set_flags)
{
	const unsigned long keep =
		~((1ul << PAGE_FLAGS_ORDER_SHIFT) - 1) & ~(0xfful << PAGE_FLAGS_ORDER_SHIFT);

	if (CONFIG_DEBUG_VM && !check_free_page(page, order))
		return false;
	/* Only the node and zone survive; a folio head forgets its order and
	 * its tails become plain pages (Linux: free_tail_page_prepare). A
	 * tail's own PG_anon_exclusive outlives destroy_large_folio (folio_put
	 * frees a head that is no head any more): a stale one would make a
	 * later PMD-mapped folio's split pages look exclusive. */
	if (PageHead(page))
		clear_large_folio_fields(page);
	for (unsigned long i = 1; i < (1ul << order); i++) {
		page[i].compound_head = 0;
		ClearPageAnonExclusive(&page[i]);
	}
	page->flags = (page->flags & keep) | set_flags;
	page->mapping = NULL; /* folio_put dropped an anon folio's anon_vma */
	page->index = 0;
	page->private = 0;
	if (CONFIG_DEBUG_VM)
		poison_pages(page, 1u << order);
	return true;
}

bool free_pages_prepare(struct page *page, unsigned int order)
{
	return __free_pages_prepare(page, order, 0);
}

/* Hand a prepared block to the pcp lists or straight to the buddy lists. */
/* Out of line: the pcp path stays small. */
static noinline void free_one_page(struct zone *zone, struct page *page, unsigned int order)
{
	__free_one_page(page, page_to_pfn(page), zone, order, get_pageblock_migratetype(page));
}

/*
 * Drop the caller's reference; the last one frees (Linux: put_page_testzero
 * then free). A page with no reference to drop (already free, or a tail or
 * inner page that never had one) is refused and reported, never freed, so
 * the free lists stay intact. A page that fails the debug checks keeps its
 * reference and stays allocated.
 */
void __free_pages(struct page *page, unsigned int order)
{
	bool pcp = pcp_allowed_order(order);
	struct pglist_data *pgdat;
	struct zone *zone;

	if (unlikely(order > MAX_PAGE_ORDER || PageTail(page) || page_count(page) <= 0)) {
		bad_free(page, order, "__free_pages");
		return;
	}
	if (--page->_refcount)
		return;
	/* Before the flags are rewritten; page_zone without a second load. */
	pgdat = NODE_DATA(page_to_nid(page));
	zone = &pgdat->node_zones[page_zonenum(page)];
	/* A block bound for a pcp list gets PG_pcp in the same write that
	 * clears its flags: every store to them costs the fast path. */
	if (unlikely(!__free_pages_prepare(page, order, pcp ? 1ul << PG_pcp : 0))) {
		page->_refcount = 1;
		return;
	}
	pgdat->vm_events[PGFREE] += 1ul << order;
	if (likely(pcp))
		free_to_pcp(zone, page, order);
	else
		free_one_page(zone, page, order);
}

unsigned long node_free_pages(struct pglist_data *pgdat)
{
	unsigned long free = 0;

	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		free += pgdat->node_zones[zt].nr_free_pages +
			(unsigned long)pgdat->node_zones[zt].pcp.count;
	return free;
}

/* --- contiguous ranges (CMA) ------------------------------------------------------ */

/* The free block holding pfn, or NULL (Linux: the walk in is_free_buddy_page). */
static struct page *free_block_containing(struct zone *zone, unsigned long pfn)
{
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		unsigned long head_pfn = pfn & ~((1ul << order) - 1);
		struct page *head = pfn_to_page(head_pfn);

		if (!zone_spans_pfn(zone, head_pfn))
			break;
		if (PageBuddy(head) && buddy_order(head) >= order)
			return head;
	}
	return NULL;
}

/* Give back the parts of the free block [pfn, pfn + 2^order) outside
 * [start, end) and make the parts inside allocated order-0 pages. */
static void split_block_around(struct zone *zone, unsigned long pfn, unsigned int order, int mt,
			       unsigned long start, unsigned long end)
{
	unsigned long nr = 1ul << order;
	struct page *page = pfn_to_page(pfn);

	if (pfn >= end || pfn + nr <= start) {
		add_to_free_list(page, zone, order, mt, false);
	} else if (pfn >= start && pfn + nr <= end) {
		check_poison(page, (unsigned int)nr);
		for (unsigned long i = 0; i < nr; i++)
			prep_new_page(page + i, 0, 0);
	} else {
		split_block_around(zone, pfn, order - 1, mt, start, end);
		split_block_around(zone, pfn + nr / 2, order - 1, mt, start, end);
	}
}

unsigned long take_free_pfn_range(unsigned long start_pfn, unsigned long end_pfn)
{
	struct zone *zone;
	unsigned long pfn;

	if (start_pfn >= end_pfn)
		return 0;
	zone = page_zone(pfn_to_page(start_pfn));
	if (!zone_spans_pfn(zone, end_pfn - 1))
		return 0;
	drain_zone_pages(zone);
	for (pfn = start_pfn; pfn < end_pfn;) {
		struct page *head = free_block_containing(zone, pfn);

		if (!head)
			return 0;
		pfn = page_to_pfn(head) + (1ul << buddy_order(head));
	}
	for (pfn = start_pfn; pfn < end_pfn;) {
		struct page *head = free_block_containing(zone, pfn);
		unsigned int order = buddy_order(head);
		int mt = (int)head->index;

		del_page_from_free_list(head, zone, order);
		split_block_around(zone, page_to_pfn(head), order, mt, start_pfn, end_pfn);
		pfn = page_to_pfn(head) + (1ul << order);
	}
	return end_pfn - start_pfn;
}
