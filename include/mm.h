/*
 * The physical memory manager's public contract, grouped by the file in
 * mm/ that implements each declaration (as xv6's defs.h). Types are in
 * <mm_types.h>. Everything here is plain C that runs in the kernel and in
 * the host test program; the machine is reached through <asm/page.h>
 * (__va, vmemmap) and the arch hooks.
 */
#ifndef FOLIUM_MM_H
#define FOLIUM_MM_H

#include <errno.h>
#include <mm_types.h>

typedef uint64_t phys_addr_t;

/* --- gfp flags: what an allocation may do and where it may come from ------ */
typedef unsigned int gfp_t;
#define __GFP_DMA32 0x01u	   /* only ZONE_DMA32 (below 4 GiB) */
#define __GFP_MOVABLE 0x02u	   /* MIGRATE_MOVABLE; may use CMA blocks */
#define __GFP_RECLAIMABLE 0x04u	   /* MIGRATE_RECLAIMABLE */
#define __GFP_HIGH 0x08u	   /* may dip below the min watermark */
#define __GFP_DIRECT_RECLAIM 0x10u /* may run reclaim before failing */
#define __GFP_ZERO 0x20u	   /* return zeroed pages */
#define __GFP_COMP 0x40u	   /* a large folio: set up head/tails */
#define __GFP_NOWARN 0x80u	   /* do not log a failure */
#define __GFP_HIGHATOMIC 0x100u	   /* may use/create HIGHATOMIC reserves */
#define __GFP_NORETRY 0x200u	   /* one light try of reclaim/compaction, then fail */
#define __GFP_NOMEMALLOC 0x400u	   /* no reserves even if it cannot reclaim */
#define __GFP_RETRY_MAYFAIL 0x800u /* a costly order: one more round of reclaim and compaction */

#define GFP_NOWAIT 0u /* "no reclaim": fail fast */
#define GFP_ATOMIC (__GFP_HIGH | __GFP_HIGHATOMIC)
#define GFP_KERNEL __GFP_DIRECT_RECLAIM
#define GFP_DMA32 (GFP_KERNEL | __GFP_DMA32)
#define GFP_HIGHUSER_MOVABLE (GFP_KERNEL | __GFP_MOVABLE)
/* A THP fault's masks (Linux's names): LIGHT may neither reclaim nor
 * compact, so the fault falls back to a smaller folio at once; the full one
 * compacts first (vma_thp_gfp_mask picks by the defrag mode). */
#define GFP_TRANSHUGE_LIGHT \
	((GFP_HIGHUSER_MOVABLE | __GFP_NOMEMALLOC | __GFP_NOWARN) & ~__GFP_DIRECT_RECLAIM)
#define GFP_TRANSHUGE (GFP_TRANSHUGE_LIGHT | __GFP_DIRECT_RECLAIM)

/* Return: the migratetype an allocation with these flags asks for. */
static inline int gfp_migratetype(gfp_t gfp)
{
	if (gfp & __GFP_MOVABLE)
		return MIGRATE_MOVABLE;
	if (gfp & __GFP_RECLAIMABLE)
		return MIGRATE_RECLAIMABLE;
	return MIGRATE_UNMOVABLE;
}

/* --- pfn <-> struct page <-> address: O(1), through the vmemmap array ----- */
#define PHYS_PFN(pa) ((unsigned long)((pa) >> PAGE_SHIFT))
#define PFN_UP(pa) PHYS_PFN((pa) + PAGE_SIZE - 1)
#define PFN_PHYS(pfn) ((phys_addr_t)(pfn) << PAGE_SHIFT)
#define pfn_to_page(pfn) (vmemmap + (pfn))
#define page_to_pfn(page) ((unsigned long)((page)-vmemmap))
#define page_to_phys(page) PFN_PHYS(page_to_pfn(page))
#define page_address(page) __va(page_to_phys(page))
#define virt_to_page(addr) pfn_to_page(PHYS_PFN(__pa(addr)))
/*
 * Return: whether pfn has a struct page. The vmemmap is backed per memory
 * section (128 MiB, Linux: SECTION_SIZE_BITS 27) that holds RAM, so holes
 * of whole sections cost nothing and have no struct pages: walkers over a
 * zone's span must skip them (Linux: pfn_valid). Kernel: mm/boot.c; host:
 * every simulated pfn (arch/host/phys.c).
 */
bool pfn_valid(unsigned long pfn);
/* Linux x86_64 SPARSEMEM: 128 MiB memory sections. */
#define SECTION_SIZE_BITS 27
#define PFN_SECTION_SHIFT (SECTION_SIZE_BITS - PAGE_SHIFT)
#define PAGES_PER_SECTION (1ul << PFN_SECTION_SHIFT)

static inline bool PageFlag(const struct page *page, enum pageflags f)
{
	return page->flags & (1ul << f);
}
static inline void SetPageFlag(struct page *page, enum pageflags f)
{
	page->flags |= 1ul << f;
}
static inline void ClearPageFlag(struct page *page, enum pageflags f)
{
	page->flags &= ~(1ul << f);
}
#define PageBuddy(p) PageFlag(p, PG_buddy)
#define PageReserved(p) PageFlag(p, PG_reserved)
#define PageHead(p) PageFlag(p, PG_head)
#define PageTail(p) ((p)->compound_head & 1)
#define PageAnonExclusive(p) PageFlag(p, PG_anon_exclusive)
#define SetPageAnonExclusive(p) SetPageFlag(p, PG_anon_exclusive)
#define ClearPageAnonExclusive(p) ClearPageFlag(p, PG_anon_exclusive)

static inline int page_to_nid(const struct page *page)
{
	return (int)((page->flags >> PAGE_FLAGS_NODE_SHIFT) & 0xff);
}
static inline enum zone_type page_zonenum(const struct page *page)
{
	return (enum zone_type)((page->flags >> PAGE_FLAGS_ZONE_SHIFT) & 0xff);
}
static inline struct zone *page_zone(const struct page *page)
{
	return &NODE_DATA(page_to_nid(page))->node_zones[page_zonenum(page)];
}
static inline int page_count(const struct page *page)
{
	return page->_refcount;
}

/* --- mm/memblock.c: the early allocator, from the firmware memory map ---- */
#define MEMBLOCK_MAX_REGIONS 256
struct memblock_region {
	phys_addr_t base;
	phys_addr_t size;
};
struct memblock_type {
	const char *name;
	unsigned long cnt; /* regions in use, sorted, non-overlapping */
	struct memblock_region regions[MEMBLOCK_MAX_REGIONS];
};
struct memblock {
	struct memblock_type memory;   /* all RAM */
	struct memblock_type reserved; /* RAM that is not free */
	phys_addr_t current_limit;     /* allocations stay below this; 0: none */
	bool retired;		       /* the buddy allocator owns memory now:
					* memblock_phys_alloc*() fail (mm_init) */
};
extern struct memblock memblock; /* the boot instance */

/* Functions take an instance so tests can use private ones. Adding merges
 * with overlapping and adjacent regions. Return: 0, or -1 when a type is
 * full (the region is then not recorded and the caller is told). */
void memblock_init(struct memblock *mb);
int memblock_add(struct memblock *mb, phys_addr_t base, phys_addr_t size);
int memblock_remove(struct memblock *mb, phys_addr_t base, phys_addr_t size);
int memblock_reserve(struct memblock *mb, phys_addr_t base, phys_addr_t size);
/* Return: base of a free, reserved-now range of size bytes aligned to
 * align in [start, end), highest first (as Linux's top-down default), or
 * 0 if there is none. */
phys_addr_t memblock_phys_alloc_range(struct memblock *mb, phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end);
phys_addr_t memblock_phys_alloc(struct memblock *mb, phys_addr_t size, phys_addr_t align);
/* Iterate memory minus reserved: *idx starts at 0. Return: false at end. */
bool memblock_next_free_range(struct memblock *mb, unsigned long *idx, phys_addr_t *start,
			      phys_addr_t *end);
phys_addr_t memblock_start_of_DRAM(struct memblock *mb);
phys_addr_t memblock_end_of_DRAM(struct memblock *mb);
phys_addr_t memblock_phys_mem_size(struct memblock *mb);
phys_addr_t memblock_reserved_size(struct memblock *mb);
void memblock_dump(struct memblock *mb);

/* --- mm/mm_init.c: struct pages, zones, handing memory to the buddy ------ */
/* Bytes of pageblock_flags storage a node over [start_pfn, end_pfn) needs. */
size_t pgdat_pageblock_flags_size(unsigned long start_pfn, unsigned long end_pfn);
/*
 * Set up a node over [start_pfn, end_pfn): zones split at 4 GiB, free
 * lists, pcp lists, every struct page in the span initialised reserved
 * with its node and zone, every pageblock MIGRATE_MOVABLE (as Linux at
 * boot), and register it in node_data[nid]. flags_storage provides
 * pgdat_pageblock_flags_size() bytes. Context: struct pages for the span
 * exist (vmemmap populated).
 */
void pgdat_init(struct pglist_data *pgdat, int nid, unsigned long start_pfn, unsigned long end_pfn,
		void *flags_storage);
/* Give [start_pfn, end_pfn) to the buddy allocator in the largest aligned
 * blocks, clearing PG_reserved (Linux: memblock_free_pages). */
void free_pfn_range_to_buddy(unsigned long start_pfn, unsigned long end_pfn);
/*
 * Give the whole pages of [start, end) (direct-map addresses) to the buddy
 * allocator, counted in managed pages (MemTotal), and log "Freeing <s>
 * memory: <N>K" (Linux: free_reserved_area). A page that is not
 * PG_reserved (in use, or never RAM) is kept, with a warning.
 * Return: pages freed. Context: after mm_init.
 */
unsigned long free_reserved_area(void *start, void *end, const char *s);
/* Recompute watermarks from managed pages (Linux: min_free_kbytes rule). */
void setup_per_zone_wmarks(struct pglist_data *pgdat);
/* vm.min_free_kbytes (node 0's) and vm.watermark_scale_factor (1..3000,
 * in 1/10000 of a zone's managed pages). */
extern int min_free_kbytes, watermark_scale_factor;
/* Unregister a private node; its memory returns to whoever lent it. */
void pgdat_destroy(struct pglist_data *pgdat);
/* Boot: build node 0 from the boot memblock, free all free memory. */
void mm_init(void);
/* Where boot memory went, in bytes (kernel: mm/boot.c; meminfo). */
struct boot_mem_stats {
	phys_addr_t total, available, reserved, kernel, memmap, cma;
};
extern struct boot_mem_stats boot_mem;
/* Memory for tests' private nodes, its struct pages cleared. Kernel: the
 * block test_memory_offline() took from node 0 for this `test` or `bench`
 * run; host: a fresh simulated range each call (arch/host/phys.c).
 * Return: 0 with the range, or -1 if there is none. */
int mm_test_memory(unsigned long *start_pfn, unsigned long *nr_pages);

/* --- mm/page_alloc.c: the buddy allocator ---------------------------------- */
/* Return: 2^order pages, or NULL (counted in PGALLOC_FAIL; never panics). */
struct page *alloc_pages_node(int nid, gfp_t gfp, unsigned int order);
struct page *alloc_pages(gfp_t gfp, unsigned int order);
/*
 * Order-0 pages in bulk (Linux: __alloc_pages_bulk and its wrappers):
 * fill page_array's NULL slots, or add nr_pages pages to page_list.
 * Return: populated slots from the array's start, or pages added; fewer
 * than nr_pages when memory ran short (the pages got are kept).
 */
unsigned long __alloc_pages_bulk(gfp_t gfp, int nid, unsigned long nr_pages,
				 struct list_head *page_list, struct page **page_array);
static inline unsigned long alloc_pages_bulk_array_node(gfp_t gfp, int nid, unsigned long nr_pages,
							struct page **page_array)
{
	return __alloc_pages_bulk(gfp, nid, nr_pages, NULL, page_array);
}
static inline unsigned long alloc_pages_bulk_array(gfp_t gfp, unsigned long nr_pages,
						   struct page **page_array)
{
	return __alloc_pages_bulk(gfp, 0, nr_pages, NULL, page_array);
}
static inline unsigned long alloc_pages_bulk_list(gfp_t gfp, unsigned long nr_pages,
						  struct list_head *page_list)
{
	return __alloc_pages_bulk(gfp, 0, nr_pages, page_list, NULL);
}
void __free_pages(struct page *page, unsigned int order);
/* Make a non-compound 2^order block 2^order order-0 pages, each with its
 * own reference (Linux: split_page). */
void split_page(struct page *page, unsigned int order);
/* PAGE_ALIGN(size) bytes of whole pages, physically contiguous, the
 * rounded-up block's tail freed (Linux: alloc_pages_exact_nid). gfp may
 * not hold __GFP_COMP. Return: the address, or NULL. */
void *alloc_pages_exact_nid(int nid, size_t size, gfp_t gfp);
static inline void *alloc_pages_exact(size_t size, gfp_t gfp)
{
	return alloc_pages_exact_nid(0, size, gfp);
}
/* Free what alloc_pages_exact gave, with the same size. */
void free_pages_exact(void *virt, size_t size);
/* Return pcp pages to the buddy lists (Linux: drain_local_pages). */
void drain_zone_pages(struct zone *zone);
void drain_node_pages(struct pglist_data *pgdat);
unsigned long node_free_pages(struct pglist_data *pgdat); /* incl. pcp */
static inline void count_vm_event(struct pglist_data *pgdat, enum vm_event_item item)
{
	pgdat->vm_events[item]++;
}
/* Pageblock migratetype and isolation bit (Linux: get_pageblock_migratetype). */
int get_pageblock_migratetype(const struct page *page); /* ISOLATE if isolated */
int get_pageblock_type_raw(const struct page *page);	/* ignoring isolation */
bool get_pageblock_isolate(const struct page *page);

/* --- mm/page_owner.c: the migratetype each allocation asked for ---------- */
/*
 * Linux's page_owner keeps every allocation's gfp_mask; Folium keeps what
 * the mixed-pageblock count derives from it, gfp_migratetype() + 1, in the
 * flags of the head page of each allocated block (0: none). Only heads of
 * allocated blocks carry one: prep_new_page records it, freeing clears it
 * with the other low flags (free_pages_prepare), prep_compound_page clears
 * it from tails, split_folio's pieces inherit it, and a migrated folio's
 * destination was recorded when it was allocated.
 */
/* flags with gfp's owner recorded (for a caller that rewrites the flags
 * once: every store to them costs the allocation fast path). */
static inline unsigned long page_owner_flags(unsigned long flags, gfp_t gfp)
{
	return (flags & ~PAGE_FLAGS_OWNER_MASK) | (unsigned long)(gfp_migratetype(gfp) + 1)
							  << PAGE_FLAGS_OWNER_SHIFT;
}
static inline void set_page_owner(struct page *page, gfp_t gfp)
{
	page->flags = page_owner_flags(page->flags, gfp);
}
/* The page is no allocation of its own any more (Linux: reset_page_owner). */
static inline void reset_page_owner(struct page *page)
{
	page->flags &= ~PAGE_FLAGS_OWNER_MASK;
}
/* Return: the migratetype page's allocation asked for, or -1 if page is
 * not the head of an allocated block. */
static inline int page_owner_migratetype(const struct page *page)
{
	return (int)((page->flags & PAGE_FLAGS_OWNER_MASK) >> PAGE_FLAGS_OWNER_SHIFT) - 1;
}
/* Linux: pagetypeinfo_showmixedcount_print. count[mt]: pageblocks of
 * migratetype mt holding an in-use page allocated as another type. */
void zone_mixed_pageblocks(struct zone *zone, unsigned long count[MIGRATE_TYPES]);
/* Return: whether the pageblock holding pfn (in zone) is counted above. */
bool pageblock_mixed(struct zone *zone, unsigned long pfn);

/* --- mm/debug_vm.c: CONFIG_DEBUG_VM checks ------------------------------- */
/* Print every field of a page and its pageblock, with the reason. */
void dump_page(const struct page *page, const char *reason);
/*
 * The full invariant check of a node (tests call it after every step):
 * every free block aligned to its order, marked PG_buddy with its order,
 * on the list of its pageblock's type (or ISOLATE), no two free blocks
 * overlapping, no buddy pair left unmerged, nr_free and per-zone counters
 * exact, pcp counts exact. Return: 0, or -1 with the first violation in
 * err.
 */
int buddy_check(struct pglist_data *pgdat, char *err, size_t errlen);

/* --- mm/folio.c: folios ------------------------------------------------------ */
static inline struct page *compound_head(const struct page *page)
{
	if (page->compound_head & 1)
		return (struct page *)(page->compound_head - 1);
	return (struct page *)page;
}
static inline struct folio *page_folio(const struct page *page)
{
	return (struct folio *)compound_head(page);
}
/* PG_lru lives on the head: a tail page reads its folio's (Linux's
 * PF_HEAD policy for PageLRU). */
static inline bool PageLRU(const struct page *page)
{
	return PageFlag(&page_folio(page)->page, PG_lru);
}
static inline struct page *folio_page(struct folio *folio, unsigned long n)
{
	return &folio->page + n;
}
static inline unsigned int folio_order(const struct folio *folio)
{
	if (!PageHead(&folio->page))
		return 0;
	return (folio->page.flags >> PAGE_FLAGS_ORDER_SHIFT) & 0xff;
}
static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return 1ul << folio_order(folio);
}
static inline size_t folio_size(const struct folio *folio)
{
	return PAGE_SIZE << folio_order(folio);
}
static inline unsigned long folio_pfn(const struct folio *folio)
{
	return page_to_pfn(&folio->page);
}
static inline void *folio_address(const struct folio *folio)
{
	return page_address(&folio->page);
}
static inline int folio_ref_count(const struct folio *folio)
{
	return folio->page._refcount;
}

/*
 * Mappings, as Linux 6.15 counts them with CONFIG_NO_PAGE_MAPCOUNT and
 * CONFIG_MM_ID. An order-0 folio: its page's _mapcount, entries minus one
 * (-1 unmapped). A large folio: no per-page count at all; page[1] holds
 * _large_mapcount (every entry that maps any of its pages: each PTE once,
 * each PMD or PUD leaf once), _entire_mapcount (the leaves among them),
 * and two (mm id, mapcount) slots with a "maybe mapped shared" bit, all
 * kept by the rmap functions (mm/rmap.c), every count minus one. The head
 * page's own _mapcount stays -1. Linux: folio_mapcount, folio_mapped,
 * folio_large_mapcount, folio_entire_mapcount, page_mapcount_reset.
 */
static inline int page_mapcount(const struct page *page)
{
	return page->_mapcount + 1;
}
static inline void page_mapcount_reset(struct page *page)
{
	page->_mapcount = -1;
}
static inline int folio_large_mapcount(const struct folio *folio)
{
	return folio->_large_mapcount + 1;
}
static inline int folio_entire_mapcount(const struct folio *folio)
{
	return folio->_entire_mapcount + 1;
}
static inline int folio_mapcount(const struct folio *folio)
{
	if (PageHead(&folio->page))
		return folio_large_mapcount(folio);
	return page_mapcount(&folio->page);
}
static inline bool folio_mapped(const struct folio *folio)
{
	return folio_mapcount(folio) > 0;
}
/* A large folio's page[1] counts as for an unmapped folio
 * (prep_compound_page, and a split's unmapping). */
static inline void folio_reset_large_mapcounts(struct folio *folio)
{
	folio->_large_mapcount = -1;
	folio->_entire_mapcount = -1;
	folio->_mm_id[0] = MM_ID_DUMMY;
	folio->_mm_id[1] = MM_ID_DUMMY;
	folio->_mm_id_mapcount[0] = -1;
	folio->_mm_id_mapcount[1] = -1;
}
static inline mm_id_t folio_mm_id(const struct folio *folio, int slot)
{
	return folio->_mm_id[slot] & FOLIO_MM_ID_MASK;
}
/*
 * May more than one mm map folio? Linux 6.15's folio_maybe_mapped_shared.
 * An order-0 or HugeTLB folio: mapped more than once. A large folio mapped
 * once is exclusive whatever the bit says; else the bit answers, set when
 * a second mm took a slot or a third mm found none free, cleared when one
 * slot's mm holds every mapping again. Exact while at most two mms map
 * it; with more, it says "maybe" until all but one have gone.
 */
static inline bool folio_maybe_mapped_shared(const struct folio *folio)
{
	int mapcount = folio_mapcount(folio);

	if (!PageHead(&folio->page) || PageFlag(&folio->page, PG_hugetlb))
		return mapcount > 1;
	if (mapcount <= 1)
		return false;
	return folio->_mm_id[1] & FOLIO_MM_IDS_SHARED_BIT;
}
/*
 * The mapcount of a page of folio, on average (Linux 6.15's
 * folio_average_page_mapcount, what smaps uses without per-page counts):
 * each leaf maps every page once, the PTEs' count is spread over the
 * pages and rounded to the nearest, at least 1 while any maps it.
 */
static inline int folio_average_page_mapcount(const struct folio *folio)
{
	int mapcount, entire, avg;

	if (!PageHead(&folio->page))
		return page_mapcount(&folio->page);
	mapcount = folio_large_mapcount(folio);
	if (mapcount <= 0)
		return 0;
	entire = folio_entire_mapcount(folio);
	if (mapcount <= entire)
		return entire;
	mapcount -= entire;
	avg = (int)(((unsigned int)mapcount + (unsigned int)folio_nr_pages(folio) / 2) >>
		    folio_order(folio));
	return avg + entire > 1 ? avg + entire : 1;
}
#define FOLIO_FLAG_FNS(name, flag)                                  \
	static inline bool folio_test_##name(const struct folio *f) \
	{                                                           \
		return PageFlag(&f->page, flag);                    \
	}                                                           \
	static inline void folio_set_##name(struct folio *f)        \
	{                                                           \
		SetPageFlag(&f->page, flag);                        \
	}                                                           \
	static inline void folio_clear_##name(struct folio *f)      \
	{                                                           \
		ClearPageFlag(&f->page, flag);                      \
	}
FOLIO_FLAG_FNS(locked, PG_locked)
FOLIO_FLAG_FNS(referenced, PG_referenced)
FOLIO_FLAG_FNS(dirty, PG_dirty)
FOLIO_FLAG_FNS(lru, PG_lru)
FOLIO_FLAG_FNS(anon, PG_anon)
FOLIO_FLAG_FNS(swapbacked, PG_swapbacked)
FOLIO_FLAG_FNS(large, PG_head)
FOLIO_FLAG_FNS(mlocked, PG_mlocked)
FOLIO_FLAG_FNS(unevictable, PG_unevictable)
FOLIO_FLAG_FNS(uptodate, PG_uptodate)
/* Linux: folio_mark_uptodate (with the write barrier SMP will need). */
static inline void folio_mark_uptodate(struct folio *folio)
{
	folio_set_uptodate(folio);
}
/* Linux: an anonymous folio without PG_swapbacked is lazyfree (MADV_FREE). */
static inline bool folio_test_lazyfree(const struct folio *folio)
{
	return folio_test_anon(folio) && !folio_test_swapbacked(folio);
}

/* A folio in a file's page cache (Linux: !folio_test_anon with a
 * mapping): the cache holds it, whether or not anything maps it. */
static inline bool folio_in_page_cache(const struct folio *folio)
{
	return !folio_test_anon(folio) && folio->page.mapping;
}

/* The node whose LRU lists and counters the folio belongs to. */
static inline struct pglist_data *folio_pgdat(const struct folio *folio)
{
	return NODE_DATA(page_to_nid(&folio->page));
}

/* Return: a folio of 2^order pages with refcount 1, or NULL. */
struct folio *folio_alloc(gfp_t gfp, unsigned int order);
struct folio *folio_alloc_node(int nid, gfp_t gfp, unsigned int order);
void folio_get(struct folio *folio);
/* Drop a reference; at zero the folio is freed. */
void folio_put(struct folio *folio);

/* --- mm/page_isolation.c and mm/migrate.c: moving pages out of the way ---- */
/* Return: pages from pfn to the end of the free block (buddy or pcp) that
 * holds pfn, or 0 if the page at pfn is in use (Linux: is_free_buddy_page). */
unsigned long pfn_free_span(unsigned long pfn);
/* Return: is page inside a free block of the buddy lists (not a per-CPU
 * list's)? Linux: is_free_buddy_page, for /proc/kpageflags' KPF_BUDDY. */
bool is_free_buddy_page(const struct page *page);
/* Mark the pageblocks of [start_pfn, end_pfn) isolated and move their free
 * pages to the ISOLATE lists. Return: 0 or -EBUSY (nothing changed). */
int start_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn);
void undo_isolate_page_range(unsigned long start_pfn, unsigned long end_pfn);
/*
 * Linux: alloc_contig_range. Make [start, end) one allocated range: its
 * pageblocks isolated, in-use folios migrated out, the free pages taken,
 * the isolation undone whatever happens. The pages come back order-0 with
 * a reference each, or with __GFP_COMP in gfp as one folio of order
 * log2(end - start). Return: 0, -EBUSY (a block cannot be isolated or a
 * page cannot move) or -ENOMEM.
 */
int alloc_contig_range(unsigned long start, unsigned long end, gfp_t gfp);
/* Linux: alloc_contig_pages. nr_pages (a power of two) contiguous pages
 * aligned to nr_pages from node nid, found by trying each aligned range
 * of its zones with alloc_contig_range. Return: the first page, or NULL.
 * Context: may migrate; the caller frees with free_contig_range. */
struct page *alloc_contig_pages(unsigned long nr_pages, gfp_t gfp, int nid);
void free_contig_range(unsigned long pfn, unsigned long nr_pages);
/*
 * The migration hook: whoever owns movable folios (the anonymous memory
 * code) copies src into dst and repoints its mappings at dst. Return: 0,
 * or a negative errno if src cannot move now. Without a hook no in-use
 * folio can be migrated and contiguous allocations over them fail cleanly.
 */
/* dst is a fresh folio of src's order with refcount 1, which the owner
 * keeps. On success src must be left unmapped, off the owner's lists and
 * with exactly one reference, which migration drops to free it. */
typedef int (*migrate_folio_fn)(struct folio *dst, struct folio *src);
/* Return: the hook it replaces (tests put it back when they are done). */
migrate_folio_fn set_migrate_folio_hook(migrate_folio_fn fn);
/* Migrate every in-use folio in [start_pfn, end_pfn) elsewhere.
 * Return: 0, or -EBUSY / -ENOMEM when one could not be moved. */
int migrate_pfn_range(unsigned long start_pfn, unsigned long end_pfn);

/* --- mm/memory_hotplug.c: taking memory away from a node and back --------- */
/*
 * Linux: offline_pages. Take [start_pfn, start_pfn + nr_pages), which lies
 * in zone and reaches one of its edges, away from the allocator: movable
 * folios migrate out, free pages are taken (PG_offline, no reference),
 * reserved pages stay as they are; the zone's and node's spans shrink
 * past the range and managed pages and watermarks drop. Nothing changes
 * on failure. Return: 0, -EINVAL (not at an edge of one zone, or a pfn
 * without struct page) or -EBUSY (a page that cannot move, a CMA or
 * HIGHATOMIC pageblock).
 */
int offline_pages(unsigned long start_pfn, unsigned long nr_pages, struct zone *zone);
/*
 * Linux: online_pages. Grow zone over [pfn, pfn + nr_pages) again and give
 * every PG_offline page in it to the buddy allocator as a fresh page of
 * zone. Context: a range offline_pages took from zone (its PG_offline
 * marks as it left them). Return: 0, or -EINVAL if the range does not
 * touch the zone.
 */
int online_pages(unsigned long pfn, unsigned long nr_pages, struct zone *zone);
/* A block taken from an edge of a node, with everything between it and
 * that edge (free memory and reserved pages; Folium's zones are not made
 * of sections that can go one by one, so the span must end at the block). */
struct edge_block {
	struct zone *zone;
	bool top;				/* at the zone's top edge, else its bottom */
	unsigned long start_pfn, nr_pages;	/* the block: the owner's to rebuild */
	unsigned long region_start, region_end; /* what offline_pages took */
	unsigned long nr_offline;		/* pages taken: block + free beyond it */
};
/*
 * Offline a block of nr_pages (a multiple of MAX_ORDER_NR_PAGES, aligned
 * to it, without reserved pages) at the top or bottom edge of pgdat: the
 * edge with less free memory beyond its block first, then the other.
 * Return: 0 with *b filled, -ENOSPC (no such block) or -EBUSY (pinned by
 * pages that cannot move at both edges).
 */
int offline_edge_block(struct pglist_data *pgdat, unsigned long nr_pages, struct edge_block *b);
/* Give the region back (online_pages), whatever the owner left in the
 * block's struct pages. */
void online_edge_block(const struct edge_block *b);

/* The in-kernel tests' memory: sized at boot, taken from node 0 only while
 * `test` (or a `bench` that needs a private node) runs. Rules: 16 MiB or
 * four max-order blocks if larger; 32 MiB from 384 MiB of RAM on (room
 * for the CMA suites at pageblock order 10), 64 MiB (as the host gives)
 * from 768 MiB (a "1 GiB" machine reports a little less); none under
 * 96 MiB. Return: bytes. */
phys_addr_t test_memory_size(phys_addr_t ram);
void test_memory_init(phys_addr_t ram); /* mm_init: size it */
/* Take the block from node 0 (offline_edge_block); a failure is printed
 * with its reason. Return: 0 (also if already taken) or an -errno. */
int test_memory_offline(void);
void test_memory_online(void); /* give it back, if taken */
/* Return: the block while taken, else NULL. */
const struct edge_block *test_memory_block(void);

/* --- mm/cma.c: the contiguous memory allocator ------------------------------ */
struct cma {
	char name[16];
	unsigned long base_pfn;
	unsigned long count;   /* pages */
	unsigned long *bitmap; /* one bit per page: allocated */
	unsigned long nr_allocated;
};
/* Boot: reserve `size` bytes aligned to CMA_MIN_ALIGNMENT_BYTES from the
 * boot memblock (`cma=SIZE`). Return: 0, or -1 with the reason printed and
 * boot going on without CMA. */
int cma_declare_contiguous(struct memblock *mb, phys_addr_t size, const char *name);
/* After the buddy owns the memory: mark the area's pageblocks MIGRATE_CMA.
 * For tests: an area over [base_pfn, base_pfn + count) of a private node,
 * both aligned to CMA_MIN_ALIGNMENT_PAGES. bitmap has count bits. */
int cma_init_area(struct cma *cma, unsigned long base_pfn, unsigned long count,
		  unsigned long *bitmap, const char *name);
/* Return: the first page of nr_pages contiguous pages aligned to 2^align
 * pages, or NULL (counted in CMA_ALLOC_FAIL). */
struct page *cma_alloc(struct cma *cma, unsigned long nr_pages, unsigned int align_order);
/* Return: true if pages came from this area and are now free again. */
bool cma_release(struct cma *cma, struct page *pages, unsigned long nr_pages);
/* Return: free pages inside the area (buddy or per-CPU lists). */
unsigned long cma_free_pages(const struct cma *cma);
/* The boot area from cma=SIZE once active, or NULL. */
extern struct cma *boot_cma;
/* Every declared area (Linux: cma_areas, cma_area_count in mm/cma.h). */
#define MAX_CMA_AREAS 4
extern struct cma cma_areas[MAX_CMA_AREAS];
extern unsigned int cma_area_count;
/* Boot, after mm_init handed free memory to the buddy allocator: type the
 * areas cma_declare_contiguous reserved MIGRATE_CMA and free their pages
 * into the CMA free lists; sets boot_cma. */
void cma_activate_boot_area(void);
#define CMA_BITMAP_LONGS(pages) (((pages) + 63) / 64) /* cma_init_area */

/* Placement, with the pageblock order as a parameter so tests can check
 * every order on one build (the kernel passes pageblock_order): an area
 * is whole pageblocks, aligned to one. */
static inline phys_addr_t cma_alignment(unsigned int pb_order)
{
	return PAGE_SIZE << pb_order;
}
/* Return: size rounded up to whole pageblocks of order pb_order. */
phys_addr_t cma_align_size(phys_addr_t size, unsigned int pb_order);
/* Reserve cma_align_size(size) bytes from mb aligned to cma_alignment(),
 * inside one zone (above 4 GiB first, then below). Return: base, or 0. */
phys_addr_t cma_reserve_area(struct memblock *mb, phys_addr_t size, unsigned int pb_order);

#endif
