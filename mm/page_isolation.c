/*
 * Page isolation: taking whole pageblocks away from the allocator so their
 * pages can be migrated out and the range handed to one caller (CMA). An
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
