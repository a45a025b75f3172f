/*
 * Taking bytes out of the page cache (Linux: mm/truncate.c): a folio
 * wholly inside the range leaves the cache; one that straddles an end has
 * the range's part zeroed, so a later read or extension sees zeros there,
 * and a large one is split where nothing else holds it (a mapped one is
 * unmapped first), so the pages inside the range can go too (Linux:
 * truncate_inode_partial_folio and try_folio_split). Example: truncating
 * a 64 KiB file held by one order-4 folio to 10000 bytes zeroes bytes
 * 10000..65535, splits it, and frees its pages 3..15: 12 KiB stay cached.
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

/* Linux: truncate_inode_partial_folio. Zero the range's part of @folio,
 * then split it if it is large: a mapped one is unmapped first, and its
 * mappings fault the pages they use back from the cache (Linux:
 * try_folio_split's unmap_folio, try_to_unmap for a file folio). An
 * mlocked one stays whole and mapped. Return: whether it was split (its
 * pieces are then looked at one by one). */
static bool truncate_inode_partial_folio(struct folio *folio, uint64_t lstart, uint64_t lend)
{
	bool split;

	folio_zero_file_range(folio, lstart, lend);
	if (!folio_test_large(folio) || folio_test_mlocked(folio))
		return false;
	folio_get(folio);
	if (folio_mapped(folio))
		try_to_unmap(folio);
	split = !split_folio(folio);
	folio_put(folio);
	return split;
}

void truncate_inode_pages_range(struct address_space *mapping, uint64_t lstart, uint64_t lend)
{
	unsigned long index = lstart >> PAGE_SHIFT, last_index = lend >> PAGE_SHIFT;
	struct folio *folio;

	if (!mapping->nrpages || lstart > lend)
		return;
	while ((folio = xa_find(&mapping->i_pages, &index, last_index, XA_PRESENT)) != NULL) {
		uint64_t first = folio_pos(folio), last = first + folio_size(folio) - 1;
		unsigned long next = folio_next_index(folio);

		if (first >= lstart && last <= lend)
			truncate_inode_folio(folio);
		else if (truncate_inode_partial_folio(folio, lstart, lend))
			continue; /* the piece at index is looked at again */
		if (next > last_index || !next)
			break;
		index = next;
	}
}

void truncate_inode_pages(struct address_space *mapping, uint64_t lstart)
{
	truncate_inode_pages_range(mapping, lstart, UINT64_MAX);
}
