/*
 * The page cache (Linux: mm/filemap.c): a file's folios in its
 * address_space's XArray, found by page index, made on a write, copied
 * out on a read. Large folios as Linux 6.10+ makes them: a write asks
 * for the largest order its remaining bytes fill (fgf_set_order), the
 * index's alignment and the mapping's order range cut it down, and an
 * order the allocator cannot serve falls back one order at a time.
 * Example: a 1.5 MiB write at offset 0 of an empty file with large
 * folios makes an order-8 folio (1 MiB) at index 0 and an order-7 one
 * at index 256. Folium keeps no backing store: a hole reads as zeros
 * and new folios start zeroed (shmem's rule), so a folio is never read
 * before its bytes are right.
 */
#include <fs.h>
#include <pagemap.h>
#include <ramfs.h>
#include "internal.h"

/* Drop @refs references at once (Linux: folio_put_refs). Context: the
 * folio has at least @refs. */
static void folio_put_refs(struct folio *folio, int refs)
{
	folio->page._refcount -= refs - 1;
	folio_put(folio);
}

/* Whether @order is one @mapping may hold (Linux's VM_BUG_ONs in
 * __filemap_add_folio and the order range of mapping_set_folio_order_range). */
static bool mapping_order_allowed(const struct address_space *mapping, unsigned int order)
{
	return order >= mapping_min_folio_order(mapping) &&
	       order <= mapping_max_folio_order(mapping);
}

/* Add @nr (or take, negative) pages of a page-cache folio to its node's
 * counters: NR_FILE_PAGES, NR_SHMEM and NR_SHMEM_THPS for a swap-backed
 * one, NR_FILE_THPS for another PMD-sized one (Linux:
 * __filemap_add_folio's and filemap_unaccount_folio's
 * __lruvec_stat_mod_folio calls). */
static void filemap_account_folio(struct folio *folio, long nr)
{
	struct pglist_data *pgdat = folio_pgdat(folio);

	pgdat->nr_file_pages += (unsigned long)nr;
	if (folio_test_swapbacked(folio)) {
		pgdat->nr_shmem += (unsigned long)nr;
		if (folio_order(folio) == HPAGE_PMD_ORDER)
			pgdat->nr_shmem_thps += (unsigned long)nr;
	} else if (folio_order(folio) == HPAGE_PMD_ORDER) {
		pgdat->nr_file_thps += (unsigned long)nr;
	}
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp)
{
	unsigned int order = folio_order(folio);
	unsigned long nr = folio_nr_pages(folio);
	pgoff_t first = index;
	void *old;

	if ((index & (nr - 1)) || !mapping_order_allowed(mapping, order) ||
	    !folio_test_locked(folio) || folio->page.mapping)
		return -EINVAL;
	/* Linux: xas_for_each_conflict; no shadow entries here. */
	if (xa_find(&mapping->i_pages, &first, index + nr - 1, XA_PRESENT))
		return -EEXIST;
	old = xa_store_order(&mapping->i_pages, index, order, folio, gfp & GFP_RECLAIM_MASK);
	if (xa_is_err(old))
		return xa_err(old);
	folio->page.mapping = mapping;
	folio->page.index = index;
	folio->page._refcount += (int)nr; /* the cache's, one per page */
	mapping->nrpages += nr;
	if (shmem_mapping(mapping)) /* Linux: shmem_add_to_page_cache */
		folio_set_swapbacked(folio);
	filemap_account_folio(folio, (long)nr);
	/* Linux: folio_add_lru. A shmem folio is swap-backed, so it goes
	 * on the anon list, where compaction finds it to migrate; without
	 * swap, reclaim never takes it (Folium's reclaim scans lazyfree
	 * folios only). */
	folio_add_lru(folio);
	return 0;
}

void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->page.mapping;
	unsigned long nr = folio_nr_pages(folio);

	if (!folio_test_locked(folio) || !mapping || folio_test_anon(folio)) {
		dump_page(&folio->page, "filemap_remove_folio: not a locked page-cache folio");
		return;
	}
	xa_erase(&mapping->i_pages, folio->page.index);
	folio_del_lru(folio);
	folio->page.mapping = NULL;
	mapping->nrpages -= nr;
	filemap_account_folio(folio, -(long)nr); /* Linux: filemap_unaccount_folio */
	folio_put_refs(folio, (int)nr);		 /* Linux: filemap_free_folio */
}

int folio_migrate_mapping(struct address_space *mapping, struct folio *dst, struct folio *src)
{
	unsigned long nr = folio_nr_pages(src);
	void *old = xa_store_order(&mapping->i_pages, src->page.index, folio_order(src), dst,
				   mapping_gfp_mask(mapping) & GFP_RECLAIM_MASK);

	if (xa_is_err(old))
		return xa_err(old);
	dst->page.mapping = mapping;
	dst->page.index = src->page.index;
	/* The cache's references, one per page, move with the entry. */
	dst->page._refcount += (int)nr;
	src->page._refcount -= (int)nr;
	if (folio_test_swapbacked(src))
		folio_set_swapbacked(dst);
	if (folio_pgdat(dst) != folio_pgdat(src)) {
		filemap_account_folio(src, -(long)nr);
		filemap_account_folio(dst, (long)nr);
	}
	return 0;
}

/* Linux: shmem_alloc_and_add_folio's THP_FILE_ALLOC and
 * THP_FILE_FALLBACK, for an attempt at a PMD-sized shmem folio. */
void count_shmem_thp_alloc(const struct address_space *mapping, unsigned int order, bool got)
{
	if (order == HPAGE_PMD_ORDER && shmem_mapping(mapping))
		count_vm_event(NODE_DATA(0), got ? THP_FILE_ALLOC : THP_FILE_FALLBACK);
}

/* A new folio for @index, as large as the caller asked and the mapping
 * and the allocator allow (Linux: the FGP_CREAT half of
 * __filemap_get_folio). Return: it locked with a reference, or NULL. */
static struct folio *filemap_create_folio(struct address_space *mapping, pgoff_t index,
					  fgf_t fgp_flags, gfp_t gfp)
{
	unsigned int min_order = mapping_min_folio_order(mapping);
	unsigned int order = MIN(FGF_GET_ORDER(fgp_flags), mapping_max_folio_order(mapping));

	order = MAX(order, min_order);
	index &= ~((1ul << min_order) - 1); /* Linux: mapping_align_index */
	if (index & ((1ul << order) - 1))   /* not aligned: a smaller folio */
		order = MAX((unsigned int)__builtin_ctzl(index), min_order);
	for (;; order--) {
		gfp_t alloc_gfp = gfp | __GFP_ZERO;
		struct folio *folio;

		if (order > min_order) /* a large one only if it comes easily */
			alloc_gfp |= __GFP_NORETRY | __GFP_NOWARN;
		folio = folio_alloc(alloc_gfp, order);
		count_shmem_thp_alloc(mapping, order, folio);
		if (folio) {
			folio_set_locked(folio);
			if (fgp_flags & FGP_ACCESSED)
				folio_set_referenced(folio);
			if (!filemap_add_folio(mapping, folio, index & ~((1ul << order) - 1), gfp))
				return folio;
			/* -EEXIST: a smaller folio is in the way; try smaller */
			folio_clear_locked(folio);
			folio_put(folio);
		}
		if (order == min_order)
			return NULL;
	}
}

struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index, fgf_t fgp_flags,
				  gfp_t gfp)
{
	struct folio *folio = xa_load(&mapping->i_pages, index);

	if (folio) {
		folio_get(folio);
		if (fgp_flags & FGP_LOCK)
			folio_lock(folio);
		if (fgp_flags & FGP_ACCESSED)
			folio_set_referenced(folio);
		return folio;
	}
	if (!(fgp_flags & FGP_CREAT))
		return ERR_PTR(-ENOENT);
	folio = filemap_create_folio(mapping, index, fgp_flags, gfp);
	if (!folio)
		return ERR_PTR(-ENOMEM);
	if (!(fgp_flags & FGP_LOCK))
		folio_unlock(folio);
	return folio;
}

/* Copy [pos, +n) of the file to the iterator: from its folio, or zeros
 * for a hole (or a folio not yet uptodate). Return: bytes copied. */
static size_t filemap_copy_page_range(struct address_space *mapping, uint64_t pos, size_t n,
				      struct iov_iter *iter, size_t *chunk)
{
	struct folio *folio = __filemap_get_folio(mapping, pos >> PAGE_SHIFT, FGP_ACCESSED, 0);
	size_t copied;

	if (IS_ERR(folio)) {
		*chunk = MIN(n, PAGE_SIZE - (pos & (PAGE_SIZE - 1)));
		return iov_iter_zero(*chunk, iter);
	}
	*chunk = MIN(n, folio_size(folio) - (size_t)(pos - folio_pos(folio)));
	if (folio_test_uptodate(folio))
		copied = copy_folio_to_iter(folio, (size_t)(pos - folio_pos(folio)), *chunk, iter);
	else
		copied = iov_iter_zero(*chunk, iter);
	folio_put(folio);
	return copied;
}

long filemap_read(struct address_space *mapping, uint64_t *ppos, struct iov_iter *iter)
{
	uint64_t size = mapping->host->size, pos = *ppos;
	long done = 0;

	while (iov_iter_count(iter) && pos < size) {
		size_t chunk, copied;

		copied = filemap_copy_page_range(
			mapping, pos, MIN(iov_iter_count(iter), size - pos), iter, &chunk);
		pos += copied;
		done += (long)copied;
		if (copied < chunk) { /* a user page that cannot be written */
			if (!done)
				return -EFAULT;
			break;
		}
	}
	*ppos = pos;
	return done;
}

/* Linux: simple_write_end/shmem_write_end. The copied bytes are the
 * file's now; the rest of a new folio is zero, which is right too. */
static void write_end(struct address_space *mapping, struct folio *folio, uint64_t pos,
		      size_t copied)
{
	if (copied) {
		folio_mark_uptodate(folio);
		folio_set_dirty(folio); /* noop_dirty_folio: no writeback */
		if (pos + copied > mapping->host->size)
			mapping->host->size = pos + copied;
	}
	folio_unlock(folio);
	folio_put(folio);
}

long generic_perform_write(struct address_space *mapping, struct iov_iter *i, uint64_t pos)
{
	size_t chunk = PAGE_SIZE << mapping_max_folio_order(mapping);
	long written = 0, status = 0;

	while (iov_iter_count(i)) {
		size_t bytes = MIN(chunk - (pos & (chunk - 1)), iov_iter_count(i));
		struct folio *folio;
		size_t offset, copied;

		folio = __filemap_get_folio(mapping, pos >> PAGE_SHIFT,
					    FGP_WRITEBEGIN | fgf_set_order(bytes),
					    mapping_gfp_mask(mapping));
		if (IS_ERR(folio)) {
			status = PTR_ERR(folio);
			break;
		}
		offset = (size_t)(pos - folio_pos(folio));
		bytes = MIN(folio_size(folio) - offset, bytes);
		copied = copy_folio_from_iter(folio, offset, bytes, i);
		write_end(mapping, folio, pos, copied);
		pos += copied;
		written += (long)copied;
		if (copied < bytes) {
			status = -EFAULT;
			break;
		}
	}
	return written ? written : status;
}

void mapping_folio_orders(struct address_space *mapping, unsigned long counts[NR_PAGE_ORDERS])
{
	unsigned long index;
	struct folio *folio;

	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		counts[o] = 0;
	xa_for_each(&mapping->i_pages, index, folio)
		counts[folio_order(folio)]++;
}

/* --- fault-around: mapping what the cache holds (Linux: filemap_map_pages) --------- */

/* Linux: fault_around_bytes (64 KiB), in pages. */
#define FAULT_AROUND_PAGES 16u

/*
 * Linux: filemap_map_pages with filemap_map_folio_range, the fault-around
 * half of a read fault. Every page of the cache in [first, last] (inside
 * the file) that is uptodate and whose PTE is none is mapped, each run
 * of such pages of one folio with one map_file_ptes. Nothing is
 * allocated: holes stay holes. pte is the entry of addr (index pgoff).
 */
void filemap_map_pages(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long addr,
		       unsigned long pgoff, pte_t *pte, unsigned long first, unsigned long last)
{
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;
	unsigned long end = vma_file_end_index(vma);
	unsigned long index = first;
	struct folio *folio;

	if (!end)
		return;
	last = MIN(last, end - 1);
	while (index <= last &&
	       (folio = xa_find(&mapping->i_pages, &index, last, XA_PRESENT)) != NULL) {
		unsigned long from = MAX(index, folio->page.index);
		unsigned long to = MIN(last, folio_next_index(folio) - 1);

		index = folio_next_index(folio);
		if (!folio_test_uptodate(folio))
			continue;
		for (unsigned long i = from; i <= to;) {
			long off = (long)i - (long)pgoff; /* entries from addr's */
			pte_t *p = pte + off;
			unsigned int nr = 0;

			while (i + nr <= to && pte_none(p[nr]))
				nr++;
			if (nr)
				map_file_ptes(mm, vma, folio, i - folio->page.index, nr,
					      (unsigned long)((long)addr + off * (long)PAGE_SIZE),
					      p, false);
			i += nr + 1; /* past the run and the entry that ended it */
		}
	}
}

/*
 * Linux: filemap_map_pmd, the first step of filemap_map_pages. A read
 * fault in an empty PMD slot whose page the cache holds, uptodate, in a
 * PMD-sized folio maps the folio by the PMD (do_set_pmd) and is done.
 * Return: true when mapped.
 */
bool filemap_map_pmd(struct mm_struct *mm, const struct vm_area_struct *vma, pmd_t *pmd,
		     unsigned long addr, unsigned long pgoff)
{
	struct folio *folio;

	if (!pmd_none(*pmd) || pgoff >= vma_file_end_index(vma))
		return false;
	folio = xa_load(&vma->vm_file->f_inode->i_mapping->i_pages, pgoff);
	return folio && folio_test_uptodate(folio) &&
	       do_set_pmd(mm, vma, pmd, folio, addr, pgoff, false);
}

/* Linux: do_fault_around. The window of FAULT_AROUND_PAGES entries
 * around addr, aligned, inside the VMA and addr's PTE table. */
void do_fault_around(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long addr,
		     unsigned long pgoff, pte_t *pte)
{
	unsigned long pte_off = pte_index(addr);
	unsigned long vma_off = (addr - vma->vm_start) >> PAGE_SHIFT;
	unsigned long vma_pages = (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;
	unsigned long from =
		MAX(ALIGN_DOWN(pte_off, FAULT_AROUND_PAGES), pte_off - MIN(pte_off, vma_off));
	unsigned long to =
		MIN(MIN(from + FAULT_AROUND_PAGES, 512ul), pte_off + vma_pages - vma_off);

	filemap_map_pages(mm, vma, addr, pgoff, pte, pgoff + from - pte_off,
			  pgoff + to - 1 - pte_off);
}
