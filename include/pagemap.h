/*
 * The page cache (Linux: include/linux/pagemap.h, mm/filemap.c,
 * mm/truncate.c): every file's bytes live in folios kept in its
 * address_space, an XArray indexed by page offset in the file. A folio
 * of order k sits at an index aligned to 2^k and covers 2^k indices, one
 * multi-index entry: a 64 KiB folio at index 16 holds bytes
 * [64 KiB, 128 KiB). The cache holds one reference per page of each
 * folio (Linux's rule), taken by filemap_add_folio and dropped by
 * filemap_remove_folio. There is no backing store: a page not in the
 * cache is a hole and reads as zeros (shmem's SGP_READ).
 */
#ifndef FOLIUM_PAGEMAP_H
#define FOLIUM_PAGEMAP_H

#include <err.h>
#include <mm.h>
#include <uio.h>
#include <xarray.h>

struct ramfs_inode;
typedef unsigned long pgoff_t; /* a page's index in its file */

/*
 * mapping->flags (Linux: enum mapping_flags): the folio orders the file
 * may have, in two 5-bit fields as Linux 6.10+ keeps them, whether
 * reclaim may take its folios, and whether it is shmem's (tmpfs's).
 */
enum mapping_flags {
	AS_UNEVICTABLE = 3,
	AS_SHMEM = 10, /* Folium's stand-in for Linux's a_ops == &shmem_aops */
	AS_FOLIO_ORDER_BITS = 5,
	AS_FOLIO_ORDER_MIN = 16,
	AS_FOLIO_ORDER_MAX = AS_FOLIO_ORDER_MIN + AS_FOLIO_ORDER_BITS,
};
#define AS_FOLIO_ORDER_BITS_MASK ((1ul << AS_FOLIO_ORDER_BITS) - 1)
#define AS_FOLIO_ORDER_MIN_MASK (AS_FOLIO_ORDER_BITS_MASK << AS_FOLIO_ORDER_MIN)
#define AS_FOLIO_ORDER_MAX_MASK (AS_FOLIO_ORDER_BITS_MASK << AS_FOLIO_ORDER_MAX)
#define AS_FOLIO_ORDER_MASK (AS_FOLIO_ORDER_MIN_MASK | AS_FOLIO_ORDER_MAX_MASK)
/* Linux: MAX_PAGECACHE_ORDER, the PMD order on x86-64 (a folio a PMD
 * can map). */
#define MAX_PAGECACHE_ORDER HPAGE_PMD_ORDER

/* The XArray marks of a page-cache folio (Linux's). */
#define PAGECACHE_TAG_DIRTY XA_MARK_0
#define PAGECACHE_TAG_WRITEBACK XA_MARK_1
#define PAGECACHE_TAG_TOWRITE XA_MARK_2

/* Linux: struct address_space, the members the page cache uses. */
struct address_space {
	struct ramfs_inode *host; /* the file's inode */
	struct xarray i_pages;	  /* folios by index */
	gfp_t gfp_mask;		  /* how its folios are allocated */
	unsigned long flags;	  /* enum mapping_flags */
	unsigned long nrpages;	  /* pages held (a folio counts its pages) */
	/* The mms whose VMAs map the file (struct rmap_member; Linux: the
	 * i_mmap interval tree of the VMAs themselves), for
	 * unmap_mapping_range and rmap_walk. */
	struct list_head i_mmap;
	/* VMAs mapping it shared and writable, or (negative) writes denied
	 * (Linux: i_mmap_writable, mapping_map_writable; F_SEAL_WRITE asks). */
	long i_mmap_writable;
};

/* An empty cache for @host: order-0 folios only, allocated @gfp. */
static inline void address_space_init(struct address_space *mapping, struct ramfs_inode *host,
				      gfp_t gfp)
{
	*mapping = (struct address_space){ .host = host, .gfp_mask = gfp };
	xa_init(&mapping->i_pages);
	INIT_LIST_HEAD(&mapping->i_mmap);
}

static inline gfp_t mapping_gfp_mask(const struct address_space *mapping)
{
	return mapping->gfp_mask;
}
static inline void mapping_set_unevictable(struct address_space *mapping)
{
	mapping->flags |= 1ul << AS_UNEVICTABLE;
}
/* Linux: shmem_mapping. Its folios are swap-backed and count in Shmem. */
static inline void mapping_set_shmem(struct address_space *mapping)
{
	mapping->flags |= 1ul << AS_SHMEM;
}
static inline bool shmem_mapping(const struct address_space *mapping)
{
	return mapping->flags & (1ul << AS_SHMEM);
}
static inline bool mapping_unevictable(const struct address_space *mapping)
{
	return mapping->flags & (1ul << AS_UNEVICTABLE);
}
/* Linux: mapping_set_folio_order_range. Orders above MAX_PAGECACHE_ORDER
 * are clamped; min above max is raised to it. */
static inline void mapping_set_folio_order_range(struct address_space *mapping, unsigned int min,
						 unsigned int max)
{
	max = MIN(max, (unsigned int)MAX_PAGECACHE_ORDER);
	min = MIN(min, max);
	mapping->flags = (mapping->flags & ~AS_FOLIO_ORDER_MASK) |
			 ((unsigned long)min << AS_FOLIO_ORDER_MIN) |
			 ((unsigned long)max << AS_FOLIO_ORDER_MAX);
}
/* Linux: mapping_set_large_folios, every order up to MAX_PAGECACHE_ORDER. */
static inline void mapping_set_large_folios(struct address_space *mapping)
{
	mapping_set_folio_order_range(mapping, 0, MAX_PAGECACHE_ORDER);
}
static inline unsigned int mapping_min_folio_order(const struct address_space *mapping)
{
	return (mapping->flags & AS_FOLIO_ORDER_MIN_MASK) >> AS_FOLIO_ORDER_MIN;
}
static inline unsigned int mapping_max_folio_order(const struct address_space *mapping)
{
	return (mapping->flags & AS_FOLIO_ORDER_MAX_MASK) >> AS_FOLIO_ORDER_MAX;
}
static inline bool mapping_large_folio_support(const struct address_space *mapping)
{
	return mapping_max_folio_order(mapping) > 0;
}

/* --- folios in the cache ------------------------------------------------------ */
/* The file offset of the folio's first byte; the index after it. */
static inline uint64_t folio_pos(const struct folio *folio)
{
	return (uint64_t)folio->page.index << PAGE_SHIFT;
}
static inline pgoff_t folio_next_index(const struct folio *folio)
{
	return folio->page.index + folio_nr_pages(folio);
}
/* Linux: folio_mapping for a page-cache folio (anon ones are not). */
static inline struct address_space *folio_file_mapping(const struct folio *folio)
{
	return folio_test_anon(folio) ? NULL : folio->page.mapping;
}

/*
 * The folio lock (PG_locked): held while the folio is filled, written
 * or taken out of the cache, so no one sees it half done. Folium runs
 * one CPU and never sleeps holding it, so a locked folio met by another
 * locker is a bug, reported (Linux would wait: folio_wait_bit).
 */
static inline bool folio_trylock(struct folio *folio)
{
	if (folio_test_locked(folio))
		return false;
	folio_set_locked(folio);
	return true;
}
static inline void folio_lock(struct folio *folio)
{
	if (!folio_trylock(folio))
		dump_page(&folio->page, "folio_lock: already locked (one CPU: a missing unlock)");
}
static inline void folio_unlock(struct folio *folio)
{
	if (!folio_test_locked(folio))
		dump_page(&folio->page, "folio_unlock: not locked");
	folio_clear_locked(folio);
}

/* __filemap_get_folio's flags (Linux's fgf_t). */
typedef unsigned int fgf_t;
#define FGP_ACCESSED 0x1u /* mark it referenced */
#define FGP_LOCK 0x2u	  /* return it locked */
#define FGP_CREAT 0x4u	  /* make one if none is there */
#define FGP_WRITE 0x8u	  /* it is about to be written */
#define FGP_NOFS 0x10u
#define FGP_NOWAIT 0x20u
#define FGP_FOR_MMAP 0x40u
#define FGP_STABLE 0x80u /* no writeback under way (none ever is here) */
#define FGF_GET_ORDER(fgf) ((unsigned int)((fgf) >> 26))
#define FGP_WRITEBEGIN (FGP_LOCK | FGP_WRITE | FGP_CREAT | FGP_STABLE)
/* The largest order a write of @size bytes asks for (Linux:
 * fgf_set_order): 64 KiB asks for order 4; under two pages, 0. */
static inline fgf_t fgf_set_order(size_t size)
{
	unsigned int shift = size ? 63 - (unsigned int)__builtin_clzl(size) : 0;

	if (shift <= PAGE_SHIFT)
		return 0;
	return (fgf_t)(shift - PAGE_SHIFT) << 26;
}

/* --- mm/filemap.c ----------------------------------------------------------- */
/*
 * Put @folio (locked, not in any cache) in @mapping at @index (aligned
 * to its size), taking a reference per page. Return: 0, -EEXIST if any
 * index it covers is taken, -ENOMEM (nothing changed), -EINVAL for a
 * misaligned index or an order the mapping does not allow.
 */
int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp);
/* Take @folio (locked, unmapped) out of its cache and drop the cache's
 * references (Linux: filemap_remove_folio). */
void filemap_remove_folio(struct folio *folio);
/* Put dst where src is in @mapping's cache, at src's index, with the
 * cache's references and the node's counters (Linux:
 * folio_migrate_mapping). dst is a copy of src of its order; the caller
 * moves the mappings (src->mapping still leads its rmap walk to them)
 * and the flags, then clears src->mapping. Return: 0, or -ENOMEM with
 * nothing changed. */
int folio_migrate_mapping(struct address_space *mapping, struct folio *dst, struct folio *src);
/*
 * Linux: __filemap_get_folio. The folio covering @index, with a
 * reference. FGP_CREAT makes one when there is none: the largest order
 * up to FGF_GET_ORDER(@fgp_flags) that @index's alignment, the mapping's
 * order range and the allocator allow (Linux's loop down to the min
 * order), new folios zeroed and not uptodate. FGP_LOCK returns it locked.
 * Return: the folio, ERR_PTR(-ENOENT) without FGP_CREAT, ERR_PTR(-ENOMEM).
 */
struct folio *__filemap_get_folio(struct address_space *mapping, pgoff_t index, fgf_t fgp_flags,
				  gfp_t gfp);
static inline struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	return __filemap_get_folio(mapping, index, 0, 0);
}
/*
 * Copy the file's bytes from *@ppos to the iterator, up to the file's
 * size (mapping->host's), advancing *@ppos. Holes read as zeros.
 * Return: bytes copied, or -EFAULT when not even the first could be.
 */
long filemap_read(struct address_space *mapping, uint64_t *ppos, struct iov_iter *iter);
/*
 * Copy the iterator's bytes into the file from @pos, folio by folio, each
 * as large as the rest of the write and the alignment allow (Linux:
 * generic_perform_write with FGP_WRITEBEGIN | fgf_set_order), growing
 * the file's size. Return: bytes written (short if a user page faulted
 * or memory ran out after some), or -ENOMEM / -EFAULT if none were.
 */
long generic_perform_write(struct address_space *mapping, struct iov_iter *i, uint64_t pos);
/* A folio of @order for @mapping was allocated (@got) or not: a
 * PMD-sized shmem one counts as THP_FILE_ALLOC or THP_FILE_FALLBACK. */
void count_shmem_thp_alloc(const struct address_space *mapping, unsigned int order, bool got);
/* How many folios of each order @mapping holds (the debug view of the
 * page cache's orders). */
void mapping_folio_orders(struct address_space *mapping, unsigned long counts[NR_PAGE_ORDERS]);

/* --- mm/truncate.c ----------------------------------------------------------- */
/*
 * Drop the cache's bytes in [@lstart, @lend] (@lend inclusive, as Linux):
 * folios wholly inside go, the parts of folios that straddle an end are
 * zeroed (Linux: truncate_inode_pages_range). Context: no folio of the
 * range is mapped (nothing maps page-cache folios yet).
 */
void truncate_inode_pages_range(struct address_space *mapping, uint64_t lstart, uint64_t lend);
/* Everything from @lstart to the end. */
void truncate_inode_pages(struct address_space *mapping, uint64_t lstart);

#endif
