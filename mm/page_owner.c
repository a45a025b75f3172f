/*
 * Mixed pageblocks (Linux: mm/page_owner.c, pagetypeinfo_showmixedcount_print):
 * a pageblock is mixed when it holds an in-use allocation that asked for
 * another migratetype than the pageblock's, as the record at each
 * allocated block's head says (set_page_owner, <mm.h>). Example: a
 * GFP_KERNEL page that fell back into a movable pageblock without claiming
 * it makes that pageblock mixed, counted under Movable until the page is
 * freed. The walk steps over free blocks and whole folios, so it meets
 * each allocation once, at its head; a page without a record (reserved,
 * or inside a block allocated without __GFP_COMP) and an offline page
 * (Linux: pfn_to_online_page) are passed by.
 */
#include "internal.h"

_Static_assert(NR_PAGEFLAGS <= PAGE_FLAGS_OWNER_SHIFT, "PG_* flags overlap the page_owner record");
_Static_assert(MIGRATE_TYPES < (PAGE_FLAGS_OWNER_MASK >> PAGE_FLAGS_OWNER_SHIFT),
	       "the page_owner record cannot hold every migratetype");

/* Return: true if [pfn, end) holds an allocation of another type than
 * block_mt. A folio that starts before pfn is judged by its head. */
static bool range_holds_other_type(unsigned long pfn, unsigned long end, int block_mt)
{
	while (pfn < end) {
		unsigned long span = pfn_free_span(pfn);
		struct folio *folio;
		int mt;

		if (span) {
			pfn += span;
			continue;
		}
		folio = page_folio(pfn_to_page(pfn));
		mt = PageFlag(&folio->page, PG_offline) ? -1 : page_owner_migratetype(&folio->page);
		if (mt >= 0 && mt != block_mt)
			return true;
		pfn = folio_pfn(folio) + folio_nr_pages(folio);
	}
	return false;
}

/*
 * Return: the column the pageblock holding pfn is counted in when mixed,
 * or -1. As Linux, a CMA pageblock is counted under Movable, and since no
 * allocation asks for MIGRATE_CMA, any CMA pageblock in use is mixed; a
 * pageblock reaching past the zone is judged by its part in the zone.
 */
static int mixed_pageblock_column(struct zone *zone, unsigned long pfn)
{
	unsigned long start = MAX(pageblock_start_pfn(pfn), zone->zone_start_pfn);
	unsigned long end = MIN(pageblock_end_pfn(pfn), zone->zone_start_pfn + zone->spanned_pages);
	int block_mt;

	if (start >= end || !pfn_valid(start))
		return -1;
	block_mt = get_pageblock_migratetype(pfn_to_page(start));
	if (!range_holds_other_type(start, end, block_mt))
		return -1;
	return block_mt == MIGRATE_CMA ? MIGRATE_MOVABLE : block_mt;
}

bool pageblock_mixed(struct zone *zone, unsigned long pfn)
{
	return mixed_pageblock_column(zone, pfn) >= 0;
}

/* Linux drains the per-CPU lists first; pfn_free_span sees their pages as
 * free, so nothing moves here. */
void zone_mixed_pageblocks(struct zone *zone, unsigned long count[MIGRATE_TYPES])
{
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;

	memset(count, 0, MIGRATE_TYPES * sizeof(count[0]));
	for (unsigned long pfn = pageblock_start_pfn(zone->zone_start_pfn); pfn < end;
	     pfn += pageblock_nr_pages) {
		int column = mixed_pageblock_column(zone, pfn);

		if (column >= 0)
			count[column]++;
	}
}
