/*
 * Taking bytes out of the page cache (Linux: mm/truncate.c): a folio
 * wholly inside the range leaves the cache, one that straddles an end
 * keeps its pages and has the range's part zeroed, so a later read or
 * extension sees zeros there (Linux splits such a large folio where it
 * can: try_folio_split; Folium's split is for anonymous folios only, so
 * the pages past the end stay until the folio goes). Example: truncating
 * a 64 KiB file held by one order-4 folio to 10000 bytes zeroes bytes
 * 10000..65535 of the folio and keeps it.
 */
#include <pagemap.h>
#include "internal.h"

/* Zero [start, end] of @folio's file range (bytes, end inclusive). */
static void folio_zero_file_range(struct folio *folio, uint64_t start, uint64_t end)
{
	uint64_t from = MAX(start, folio_pos(folio));
	uint64_t to = MIN(end, folio_pos(folio) + folio_size(folio) - 1);

	memset((char *)folio_address(folio) + (from - folio_pos(folio)), 0, to - from + 1);
}

/* Linux: truncate_inode_folio. The caller's reference keeps the folio
 * alive across the removal. */
static void truncate_inode_folio(struct folio *folio)
{
	folio_get(folio);
	folio_lock(folio);
	filemap_remove_folio(folio);
	folio_unlock(folio);
	folio_put(folio);
}

void truncate_inode_pages_range(struct address_space *mapping, uint64_t lstart, uint64_t lend)
{
	unsigned long index;
	struct folio *folio;

	if (!mapping->nrpages || lstart > lend)
		return;
	xa_for_each_range(&mapping->i_pages, index, folio, lstart >> PAGE_SHIFT,
			  lend >> PAGE_SHIFT) {
		uint64_t first = folio_pos(folio), last = first + folio_size(folio) - 1;

		if (first >= lstart && last <= lend)
			truncate_inode_folio(folio);
		else
			folio_zero_file_range(folio, lstart, lend);
	}
}

void truncate_inode_pages(struct address_space *mapping, uint64_t lstart)
{
	truncate_inode_pages_range(mapping, lstart, UINT64_MAX);
}
