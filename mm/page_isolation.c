/*
 * Page isolation: taking whole pageblocks away from the allocator so their
 * pages can be migrated out and the range handed to one caller (CMA, or a
 * 1 GiB HugeTLB page through alloc_contig_pages). An
 * isolated block keeps its migratetype; its isolate bit is set and its
 * free pages sit on the MIGRATE_ISOLATE lists, which the allocator never
 * searches. Example, pageblock_order 9: isolating pfns [0x10100, 0x10300)
 * isolates blocks 0x10000 and 0x10200, i.e. [0x10000, 0x10400).
 */
#include "internal.h"

/* The head of the free block (buddy, or with pcp also a per-CPU list's)
 * that contains pfn, or NULL if the page at pfn is in use. */
static struct page *free_block_head(unsigned long pfn, bool pcp)
{
	struct page *page = pfn_to_page(pfn);
	struct zone *zone = page_zone(page);

	if (page_count(page) || PageTail(page) || PageReserved(page))
		return NULL;
	for (unsigned int order = 0; order <= MAX_PAGE_ORDER; order++) {
		unsigned long head_pfn = pfn & ~((1ul << order) - 1);
		struct page *head = pfn_to_page(head_pfn);

		if (!zone_spans_pfn(zone, head_pfn))
			break;
		if ((PageBuddy(head) || (pcp && PageFlag(head, PG_pcp))) && head->private >= order)
			return head;
	}
	return NULL;
}

/*
 * Return: the number of pages from pfn to the end of the free block (buddy
 * or per-CPU list) that contains pfn, or 0 if the page at pfn is in use.
 * Linux: is_free_buddy_page, which looks for a free head at each order.
 */
unsigned long pfn_free_span(unsigned long pfn)
{
	struct page *head = free_block_head(pfn, true);

	return head ? page_to_pfn(head) + (1ul << head->private) - pfn : 0;
}

bool is_free_buddy_page(const struct page *page)
{
	return free_block_head(page_to_pfn(page), false) != NULL;
}

/* Return: true if any page of the pageblock starting at pfn is in use. */
static bool pageblock_has_used_pages(unsigned long pfn)
{
	unsigned long end = pfn + pageblock_nr_pages;

	while (pfn < end) {
		unsigned long span = pfn_free_span(pfn);

		if (!span)
			return true;
		pfn += span;
	}
	return false;
}

/* Return: the free block of order > pageblock_order holding pfn, or NULL. */
static struct page *large_free_block_containing(struct zone *zone, unsigned long pfn)
{
	for (unsigned int order = pageblock_order + 1; order <= MAX_PAGE_ORDER; order++) {
		unsigned long head_pfn = pfn & ~((1ul << order) - 1);
		struct page *head = pfn_to_page(head_pfn);

		if (!zone_spans_pfn(zone, head_pfn))
			return NULL;
		if (PageBuddy(head) && buddy_order(head) >= order)
			return head;
	}
	return NULL;
}

/*
 * If the pageblock at pfn lies inside a free block larger than a
 * pageblock, halve that block until the pageblock is a free block of its
 * own; the halves stay free on the block's list (the same steps as
 * expand()). Example, pageblock_order 9: pageblock 0x10200 in a free
 * order-10 block at 0x10000 leaves 0x10000 (order 9) and 0x10200 (order
 * 9). Context: before the pageblock changes type or isolation, so the
 * whole block still has one migratetype (Linux: split_large_buddy).
 */
void split_large_buddy(struct zone *zone, unsigned long pfn)
{
	unsigned long target = pageblock_start_pfn(pfn), head_pfn;
	struct page *head = large_free_block_containing(zone, target);
	unsigned int order;
	int mt;

	if (!head)
		return;
	head_pfn = page_to_pfn(head);
	order = buddy_order(head);
	mt = get_pageblock_migratetype(head);
	del_page_from_free_list(head, zone, order);
	while (order > pageblock_order) {
		unsigned long half = 1ul << --order;

		if (target >= head_pfn + half) {
			add_to_free_list(pfn_to_page(head_pfn), zone, order, mt, false);
			head_pfn += half;
		} else {
			add_to_free_list(pfn_to_page(head_pfn + half), zone, order, mt, false);
		}
	}
	add_to_free_list(pfn_to_page(head_pfn), zone, order, mt, false);
}

/*
 * Linux refuses to isolate a block holding unmovable pages
 * (has_unmovable_pages). Folium keeps the rule at block granularity: an
 * in-use page in a block typed UNMOVABLE, RECLAIMABLE or HIGHATOMIC is
 * assumed unmovable; MOVABLE and CMA blocks may be isolated and their
 * in-use pages are left for migrate_pfn_range() to judge one by one.
 * A block already isolated is busy (someone else is using it).
 */
static bool pageblock_isolatable(unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	int mt = get_pageblock_type_raw(page);

	if (get_pageblock_isolate(page))
		return false;
	if (mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA)
		return true;
	return !pageblock_has_used_pages(pfn);
}

/*
 * A wholly free pageblock that just changed lists is freed again so it
 * merges with a free neighbour now of the same type (Linux:
 * __putback_isolated_page from unset_migratetype_isolate).
 */
void merge_free_pageblock(struct zone *zone, unsigned long pfn, int mt)
{
	struct page *page = pfn_to_page(pageblock_start_pfn(pfn));
	unsigned int order;

	if (!PageBuddy(page) || buddy_order(page) < pageblock_order)
		return;
	order = buddy_order(page);
	del_page_from_free_list(page, zone, order);
	__free_one_page(page, page_to_pfn(page), zone, order, mt);
}

/* Linux: set_migratetype_isolate. */
static void set_migratetype_isolate(struct zone *zone, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);

	split_large_buddy(zone, pfn);
	set_pageblock_isolate(page, true);
	move_freepages_block(zone, page, MIGRATE_ISOLATE);
	merge_free_pageblock(zone, pfn, MIGRATE_ISOLATE);
}

/*
 * Isolate every pageblock that [start_pfn, end_pfn) touches. Either all
 * of them are isolated or none is. Per-CPU lists are drained afterwards
 * so pages of these blocks cached there reach the ISOLATE lists too.
 * Return: 0, or -EBUSY if some block is already isolated or is an
 * unmovable-type block with pages in use.
 */
int start_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long start = pageblock_start_pfn(start_pfn);
	unsigned long end = ALIGN_UP(end_pfn, pageblock_nr_pages);
	struct zone *zone = NULL;

	for (unsigned long pfn = start; pfn < end; pfn += pageblock_nr_pages)
		if (!pageblock_isolatable(pfn))
			return -EBUSY;
	for (unsigned long pfn = start; pfn < end; pfn += pageblock_nr_pages) {
		struct zone *z = page_zone(pfn_to_page(pfn));

		set_migratetype_isolate(z, pfn);
		if (z != zone && zone)
			drain_zone_pages(zone);
		zone = z;
	}
	if (zone)
		drain_zone_pages(zone);
	return 0;
}

/* Linux: unset_migratetype_isolate. While isolated, the block may have
 * merged with an isolated neighbour: split that off first. */
static void unset_migratetype_isolate(struct zone *zone, unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);
	int mt = get_pageblock_type_raw(page);

	if (!get_pageblock_isolate(page))
		return;
	split_large_buddy(zone, pfn);
	set_pageblock_isolate(page, false);
	move_freepages_block(zone, page, mt);
	merge_free_pageblock(zone, pfn, mt);
}

/* Give every isolated pageblock of the range back to the allocator. */
void undo_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long start = pageblock_start_pfn(start_pfn);
	unsigned long end = ALIGN_UP(end_pfn, pageblock_nr_pages);

	for (unsigned long pfn = start; pfn < end; pfn += pageblock_nr_pages)
		unset_migratetype_isolate(page_zone(pfn_to_page(pfn)), pfn);
}

/* --- contiguous ranges: alloc_contig_range, alloc_contig_pages -------------- */

/* The pages of [pfn, pfn + nr) become one folio of order log2(nr): each
 * tail gives up the reference take_free_pfn_range gave it. */
static void prep_contig_folio(unsigned long pfn, unsigned long nr)
{
	struct page *page = pfn_to_page(pfn);
	unsigned int order = 0;

	while ((1ul << order) < nr)
		order++;
	prep_compound_page(page, order);
}

/*
 * Linux: alloc_contig_range (mm/page_alloc.c). Isolate the range's
 * pageblocks so nothing new lands there, migrate what is in use
 * (__alloc_contig_migrate_range), drain per-CPU lists (migration frees
 * order-0 pages there), take the now free pages, release the isolation.
 */
int alloc_contig_range(unsigned long start, unsigned long end, gfp_t gfp)
{
	struct zone *zone = page_zone(pfn_to_page(start));
	int err;

	err = start_isolate_page_range(start, end);
	if (err)
		return err;
	err = migrate_pfn_range(start, end);
	drain_zone_pages(zone);
	if (!err && !take_free_pfn_range(start, end))
		err = -EBUSY;
	undo_isolate_page_range(start, end);
	if (!err && (gfp & __GFP_COMP))
		prep_contig_folio(start, end - start);
	return err;
}

/*
 * Linux: pfn_range_valid_contig. A cheap look before isolating: every page
 * is in the zone, none is reserved (firmware, the kernel image) or a
 * HugeTLB page (a pool's page is not migrated for another).
 */
static bool pfn_range_valid_contig(struct zone *zone, unsigned long start_pfn,
				   unsigned long nr_pages)
{
	for (unsigned long pfn = start_pfn; pfn < start_pfn + nr_pages; pfn++) {
		struct page *page;

		if (!pfn_valid(pfn) || !zone_spans_pfn(zone, pfn))
			return false;
		page = pfn_to_page(pfn);
		if (page_zone(page) != zone || PageReserved(page) ||
		    PageFlag(&page_folio(page)->page, PG_hugetlb))
			return false;
	}
	return true;
}

/*
 * Linux: alloc_contig_pages. Try each nr_pages-aligned range of the node's
 * zones, highest zone first as the zonelist of a movable request orders
 * them; a range that cannot be cleared moves the search one range on.
 */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp, int nid)
{
	struct pglist_data *pgdat = (unsigned int)nid < MAX_NUMNODES ? NODE_DATA(nid) : NULL;

	if (!pgdat || !nr_pages || (nr_pages & (nr_pages - 1)))
		return NULL;
	for (int zt = MAX_NR_ZONES - 1; zt >= 0; zt--) {
		struct zone *zone = &pgdat->node_zones[zt];
		unsigned long pfn = ALIGN_UP(zone->zone_start_pfn, nr_pages);

		if (!zone->managed_pages)
			continue;
		for (; zone_spans_pfn(zone, pfn + nr_pages - 1); pfn += nr_pages)
			if (pfn_range_valid_contig(zone, pfn, nr_pages) &&
			    !alloc_contig_range(pfn, pfn + nr_pages, gfp))
				return pfn_to_page(pfn);
	}
	return NULL;
}

/* Linux: free_contig_range. A folio made by __GFP_COMP is undone first;
 * then each page drops the reference it was handed out with. */
void free_contig_range(unsigned long pfn, unsigned long nr_pages)
{
	struct page *page = pfn_to_page(pfn);

	if (PageHead(page)) {
		destroy_large_folio(page_folio(page), folio_order(page_folio(page)));
		for (unsigned long i = 1; i < nr_pages; i++)
			page[i]._refcount = 1;
	}
	for (unsigned long i = 0; i < nr_pages; i++)
		__free_pages(page + i, 0);
}
