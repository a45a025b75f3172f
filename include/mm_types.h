/*
 * The physical memory manager's data: struct page, folios, zones, nodes.
 * Names and meanings follow Linux (include/linux/mm_types.h, mmzone.h)
 * so a reader can open Linux beside Folium; simplifications are noted
 * where they differ. Every page frame of RAM has one struct page in the
 * vmemmap array, indexed by PFN.
 */
#ifndef FOLIUM_MM_TYPES_H
#define FOLIUM_MM_TYPES_H

#include <kernel.h>
#include <list.h>
#include <asm/page.h>

/* --- orders and pageblocks -------------------------------------------- */
#define MAX_PAGE_ORDER CONFIG_MAX_PAGE_ORDER
#define NR_PAGE_ORDERS (MAX_PAGE_ORDER + 1)
#define MAX_ORDER_NR_PAGES (1ul << MAX_PAGE_ORDER)
#define HPAGE_PMD_ORDER 9 /* a 2 MiB PMD leaf on x86_64 */
#define HPAGE_PMD_NR (1ul << HPAGE_PMD_ORDER)
/* Linux: "costly" orders above this get no pcp list (except PMD order). */
#define PAGE_ALLOC_COSTLY_ORDER 3

/* Linux's rule: with THP the pageblock never exceeds a PMD-sized page, so
 * a THP can always be found in one pageblock; CONFIG_PAGE_BLOCK_ORDER is a
 * ceiling (hence its later name, CONFIG_PAGE_BLOCK_MAX_ORDER). */
#if CONFIG_TRANSPARENT_HUGEPAGE
#define pageblock_order MIN(HPAGE_PMD_ORDER, CONFIG_PAGE_BLOCK_ORDER)
#else
#define pageblock_order CONFIG_PAGE_BLOCK_ORDER
#endif
#define pageblock_nr_pages (1ul << pageblock_order)
#define pageblock_start_pfn(pfn) ALIGN_DOWN((pfn), pageblock_nr_pages)
#define pageblock_end_pfn(pfn) (pageblock_start_pfn(pfn) + pageblock_nr_pages)
/* CMA areas are made of whole pageblocks (Linux: CMA_MIN_ALIGNMENT_*). */
#define CMA_MIN_ALIGNMENT_PAGES pageblock_nr_pages
#define CMA_MIN_ALIGNMENT_BYTES (PAGE_SIZE * CMA_MIN_ALIGNMENT_PAGES)

/* --- migratetypes -------------------------------------------------------- */
/*
 * Every pageblock has a migratetype; free pages sit on the free list of
 * their block's type. ISOLATE is not stored as a type: as in current
 * Linux it is a separate pageblock bit, and the free pages of an isolated
 * block sit on the MIGRATE_ISOLATE list until the block is released.
 */
enum migratetype {
	MIGRATE_UNMOVABLE,
	MIGRATE_MOVABLE,
	MIGRATE_RECLAIMABLE,
	MIGRATE_PCPTYPES, /* the types with per-CPU lists */
	MIGRATE_HIGHATOMIC = MIGRATE_PCPTYPES,
	MIGRATE_CMA,
	MIGRATE_ISOLATE, /* free-list index only, never a block's type */
	MIGRATE_TYPES
};
extern const char *const migratetype_names[MIGRATE_TYPES];

/* --- struct page ----------------------------------------------------------- */
/*
 * page->flags: the low bits are PG_* flags; the top bits hold the zone and
 * node, so page_zone() needs no pointer (as Linux). The folio order of a
 * head page lives in bits 32..39; the migratetype an allocated block was
 * asked for, plus one, in bits 16..19 of its head (page_owner, <mm.h>).
 *
 *  63   56 55   48 47  40 39   32 31   20 19   16 15              0
 *  [node ] [zone ] [ --- ] [order] [ --- ] [owner] [  PG_* flags   ]
 */
enum pageflags {
	PG_locked, /* folio is locked (cannot be split or migrated) */
	PG_referenced,
	PG_dirty,	     /* contents differ from what reclaim may recreate */
	PG_lru,		     /* on an LRU list (anon or lazyfree) */
	PG_head,	     /* first page of a large folio */
	PG_anon,	     /* anonymous folio (mapping is its struct anon_vma) */
	PG_swapbacked,	     /* anon without it is "lazyfree" (MADV_FREE) */
	PG_reserved,	     /* never handed to the buddy allocator */
	PG_buddy,	     /* head of a free buddy block (Linux: a page type) */
	PG_pcp,		     /* on a per-CPU free list */
	PG_poisoned,	     /* CONFIG_DEBUG_VM: filled with PAGE_POISON_BYTE */
	PG_cma,		     /* folio allocated by cma_alloc() */
	PG_offline,	     /* taken by offline_pages (Linux: PageOffline, a page type) */
	PG_slab,	     /* a kmalloc cache's slab (Linux: PG_slab) */
	PG_large_kmalloc,    /* a kmalloc larger than a cache serves (a page type) */
	PG_partially_mapped, /* large anon folio some of whose pages were unmapped */
	PG_mlocked,	     /* mapped in a VM_LOCKED VMA (Linux: PG_mlocked) */
	PG_unevictable,	     /* on lru_unevictable: reclaim never takes it */
	PG_hugetlb,	     /* a HugeTLB pool page (Linux: a page type) */
	/* Per page, also a tail's: only this mm maps the page of an anon
	 * folio, so a write may reuse it (Linux: PG_anon_exclusive); for
	 * a PMD-mapped folio the head's bit speaks for all of it. */
	PG_anon_exclusive,
	/* A page-cache folio's bytes are the file's (read or written in
	 * whole); without it a reader must fill it first (Linux's). */
	PG_uptodate,
	NR_PAGEFLAGS
};

#define PAGE_FLAGS_OWNER_SHIFT 24
#define PAGE_FLAGS_OWNER_MASK (0xful << PAGE_FLAGS_OWNER_SHIFT)
#define PAGE_FLAGS_ORDER_SHIFT 32
#define PAGE_FLAGS_ZONE_SHIFT 48
#define PAGE_FLAGS_NODE_SHIFT 56
#define PAGE_POISON_BYTE 0xaa

/*
 * One per page frame, 64 bytes (static-asserted in mm/page_alloc.c).
 * Which fields mean what depends on the page's state:
 *   free block head (PG_buddy): lru on a free list, private = order,
 *                                index = migratetype of that list
 *   on a pcp list (PG_pcp):      lru on the pcp list, private = order
 *   folio head:                  lru on an LRU list, mapping = anon_vma,
 *                                index = page index (linear_page_index), refcount,
 *                                mapcount = number of mappings (-1: none),
 *                                private = mlock_count while PG_unevictable
 *   tail page of a folio:        compound_head = head | 1
 *   kmalloc slab (PG_slab):      lru on its cache's partial list,
 *                                mapping = first free object, index =
 *                                objects in use, private = cache index
 *   large kmalloc head:          private = order
 */
struct page {
	unsigned long flags;
	struct list_head lru;
	void *mapping;
	unsigned long index;
	unsigned long private;
	int _refcount;
	int _mapcount;
	unsigned long compound_head;
};

/*
 * A folio is a head page seen as the whole group of 2^order pages. A
 * large folio also owns fields of its first tail page, as Linux's struct
 * folio does: its mapcounts (Linux 6.15's CONFIG_MM_ID with
 * CONFIG_NO_PAGE_MAPCOUNT; <mm.h> says how they are read, mm/rmap.c how
 * they change). Only a large folio's page[1] is touched: an order-0
 * folio is its one struct page.
 */
typedef unsigned int mm_id_t; /* an mm's number for mapcounts (Linux's) */
#define MM_ID_DUMMY 0	      /* a free slot */
#define MM_ID_MIN 1
#define MM_ID_MAX 65535 /* Folium's: mms that can exist at once */
/* The top bit of _mm_id[1]: "maybe mapped shared" (Linux:
 * FOLIO_MM_IDS_SHARED_BIT in folio->_mm_ids). */
#define FOLIO_MM_IDS_SHARED_BIT (1u << 31)
#define FOLIO_MM_ID_MASK (FOLIO_MM_IDS_SHARED_BIT - 1)
struct folio {
	struct page page;
	union {
		struct page __page_1; /* a large folio's first tail page */
		struct {
			unsigned long _flags_1; /* the tail page's own flags */
			/* page[1].lru: */
			int _large_mapcount;  /* entries mapping it, PTEs and PMDs, minus one */
			int _entire_mapcount; /* PMD (or PUD) leaves among them, minus one */
			mm_id_t _mm_id[2];    /* the two mms tracked, MM_ID_DUMMY if none */
			/* page[1].mapping: each slot's entries, minus one */
			int _mm_id_mapcount[2];
		};
	};
};

/* --- zones and nodes ------------------------------------------------------- */
enum zone_type {
	ZONE_DMA32, /* below 4 GiB, for devices with 32-bit DMA */
	ZONE_NORMAL,
	MAX_NR_ZONES
};

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

struct free_area {
	struct list_head free_list[MIGRATE_TYPES];
	unsigned long nr_free; /* blocks of this order, all types */
};

/*
 * Per-CPU page lists (Folium runs one CPU): a small cache in front of the
 * buddy lists for orders 0..PAGE_ALLOC_COSTLY_ORDER and the PMD order,
 * one list per order and pcp migratetype. Sized as Linux 6.7+ sizes them:
 * pcp->high moves between high_min (the low watermark) and high_max (1/8
 * of the zone), growing while refills find the zone above its high
 * watermark and shrinking while frees find it below (ZONE_BELOW_HIGH).
 * Refills take batch << alloc_factor pages (alloc_factor grows while
 * allocations run without frees); drains free as many pages as were
 * freed in a row (free_count), between batch and high - batch.
 */
#define NR_PCP_ORDERS (PAGE_ALLOC_COSTLY_ORDER + 2)
#define NR_PCP_LISTS (MIGRATE_PCPTYPES * NR_PCP_ORDERS)
#define PCP_BATCH_SCALE_MAX 5	       /* Linux: CONFIG_PCP_BATCH_SCALE_MAX */
#define PCPF_PREV_FREE_HIGH_ORDER 0x1u /* the last free was of order 1..3 */
struct per_cpu_pages {
	int count;		   /* pages on all lists */
	int high;		   /* drain when count reaches this */
	int high_min;		   /* high never tunes below this ... */
	int high_max;		   /* ... nor above this */
	int batch;		   /* pages moved to/from the buddy lists at once */
	int free_count;		   /* pages freed lately, halved by each allocation */
	unsigned int flags;	   /* PCPF_* */
	unsigned int alloc_factor; /* refills take batch << alloc_factor */
	struct list_head lists[NR_PCP_LISTS];
};

/* zone->flags bits (Linux: enum zone_flags). */
enum zone_flags {
	ZONE_BELOW_HIGH, /* free pages below the high watermark: pcp->high shrinks */
};

/* Event counters, named as Linux's /proc/vmstat where one exists. */
enum vm_event_item {
	PGALLOC,		 /* pages allocated */
	PGFREE,			 /* pages freed */
	PGALLOC_FAIL,		 /* allocations that returned NULL */
	PGALLOC_FALLBACK,	 /* served from another migratetype's list */
	PGALLOC_STEAL,		 /* ... and took over that whole pageblock */
	PGALLOC_PCP_HIT,	 /* served by a per-CPU list */
	PGALLOC_RECLAIM,	 /* reclaim ran before an allocation */
	HTLB_BUDDY_PGALLOC,	 /* a huge page for a HugeTLB pool from the buddy allocator */
	HTLB_BUDDY_PGALLOC_FAIL, /* ... or none */
	CMA_ALLOC_SUCCESS,
	CMA_ALLOC_FAIL,
	PGMIGRATE_SUCCESS,
	PGMIGRATE_FAIL,
	THP_COLLAPSE_ALLOC,	    /* PMD-size folios MADV_COLLAPSE allocated */
	THP_COLLAPSE_ALLOC_FAILED,  /* ... or could not */
	THP_FILE_ALLOC,		    /* PMD-size folios shmem allocated */
	THP_FILE_FALLBACK,	    /* ... or could not, and tried a smaller order */
	THP_FILE_MAPPED,	    /* page-cache folios mapped by a PMD leaf */
	THP_SPLIT_PAGE,		    /* PMD-size folios split */
	THP_SPLIT_PAGE_FAILED,	    /* ... or refused (locked, referenced, mapped) */
	THP_DEFERRED_SPLIT_PAGE,    /* PMD-size folios found partially mapped */
	THP_SPLIT_PMD,		    /* PMD leaves split into PTE tables */
	THP_ZERO_PAGE_ALLOC,	    /* the huge zero folio allocated */
	THP_ZERO_PAGE_ALLOC_FAILED, /* ... or not: the read fault used 4K */
	BAD_PAGE,		    /* bad_page() reports: refused frees, poisoned blocks */
	PGLAZYFREE,		    /* pages marked lazyfree by MADV_FREE */
	PGFAULT,		    /* faults handle_mm_fault took on, failed ones too */
	PGMAJFAULT,		    /* ... that read from a disk or swap: none here */
	PGLAZYFREED,		    /* lazyfree pages reclaimed (freed) */
	PGSCAN_ANON,		    /* anonymous pages reclaim looked at */
	COMPACTMIGRATE_SCANNED,	    /* pages the migrate scanner looked at */
	COMPACTFREE_SCANNED,	    /* pages the free scanner looked at */
	COMPACTISOLATED,	    /* pages isolated, to migrate or as targets */
	COMPACTSTALL,		    /* allocations that ran direct compaction */
	COMPACTFAIL,		    /* ... and still found no block */
	COMPACTSUCCESS,		    /* ... and then got one */
	/* mlock (mm/mlock.c), in pages, as Linux's unevictable_pgs_*: */
	UNEVICTABLE_PGCULLED,	 /* put on lru_unevictable */
	UNEVICTABLE_PGSCANNED,	 /* looked at on lru_unevictable (Folium: never) */
	UNEVICTABLE_PGRESCUED,	 /* moved from lru_unevictable back to their list */
	UNEVICTABLE_PGMLOCKED,	 /* PG_mlocked set */
	UNEVICTABLE_PGMUNLOCKED, /* PG_mlocked cleared by munlock or unmap */
	UNEVICTABLE_PGCLEARED,	 /* PG_mlocked still set when freed */
	UNEVICTABLE_PGSTRANDED,	 /* munlocked while off every LRU list */
	NR_VM_EVENT_ITEMS
};
extern const char *const vm_event_names[NR_VM_EVENT_ITEMS];

struct pglist_data;

struct zone {
	const char *name;
	struct pglist_data *zone_pgdat;
	unsigned long zone_start_pfn;
	unsigned long spanned_pages; /* from start to end, holes included */
	unsigned long present_pages; /* RAM pages in the span */
	unsigned long managed_pages; /* handed to the buddy allocator */
	unsigned long nr_free_pages; /* NR_FREE_PAGES, pcp lists excluded */
	unsigned long nr_free_cma;   /* NR_FREE_CMA_PAGES */
	unsigned long nr_reserved_highatomic;
	unsigned long _watermark[NR_WMARK];
	struct free_area free_area[NR_PAGE_ORDERS];
	struct per_cpu_pages pcp;
	unsigned long flags; /* enum zone_flags bits */
	/* 4 bits per pageblock: bits 0-2 migratetype, bit 3 isolated.
	 * Entry 0 is the pageblock of pageblock_flags_pfn, the zone's start
	 * when it was set up: offline_pages may move the start, not the flags. */
	uint8_t *pageblock_flags;
	unsigned long pageblock_flags_pfn;
	unsigned long nr_pageblocks;
	unsigned long cma_pages; /* pages in MIGRATE_CMA pageblocks */
	/* Compaction (mm/compaction.c). One skip hint bit per pageblock,
	 * indexed as pageblock_flags and stored after them (Linux: the
	 * pageblock bit PB_compact_skip; Folium's 4-bit entries are full). */
	uint8_t *pageblock_skip;
	/* Linux's deferral after failed direct compaction: skip the next
	 * 1 << compact_defer_shift attempts at orders >= compact_order_failed. */
	unsigned int compact_considered, compact_defer_shift;
	int compact_order_failed;
};

/*
 * A node owns zones. Node 0 is the machine's RAM; tests build private
 * nodes over their own memory (mm_test_memory), registered in
 * node_data[] so page_zone() finds them from page->flags, as in Linux.
 */
#define MAX_NUMNODES 8
struct pglist_data {
	int node_id;
	int nr_zones;
	struct zone node_zones[MAX_NR_ZONES];
	unsigned long node_start_pfn;
	unsigned long node_spanned_pages;
	unsigned long vm_events[NR_VM_EVENT_ITEMS];
	unsigned long fallback_count[MIGRATE_TYPES][MIGRATE_TYPES];
	unsigned long (*reclaim)(struct pglist_data *pgdat, unsigned int order,
				 unsigned long nr_pages); /* may be NULL */
	/* LRU lists of in-use anonymous folios (mm/vmscan.c): swapbacked ones
	 * on lru_anon, MADV_FREE'd ones on lru_lazyfree (Linux keeps lazyfree
	 * folios on the file LRU; one list of their own reads clearer), and
	 * mlocked ones on lru_unevictable, which reclaim never scans (Linux:
	 * LRU_UNEVICTABLE; Linux counts them without linking them, Folium
	 * links them so a test can walk the list). */
	struct list_head lru_anon;
	struct list_head lru_lazyfree;
	struct list_head lru_unevictable;
	unsigned long nr_lru_anon;	  /* folios */
	unsigned long nr_lru_lazyfree;	  /* folios */
	unsigned long nr_lru_unevictable; /* folios */
	unsigned long nr_mlock;		  /* PG_mlocked pages (Linux: NR_MLOCK) */
	unsigned long nr_file_pages;	  /* page-cache pages (Linux: NR_FILE_PAGES) */
	unsigned long nr_shmem;		  /* of those, shmem's (Linux: NR_SHMEM) */
	/* Pages of page-cache folios some entry maps (Linux: NR_FILE_MAPPED,
	 * Mapped:), counted per folio as Linux's CONFIG_NO_PAGE_MAPCOUNT
	 * does: a large folio mapped at all counts whole. */
	unsigned long nr_file_mapped;
	unsigned long nr_shmem_thps; /* pages of shmem's PMD-sized folios (Linux: NR_SHMEM_THPS) */
	unsigned long nr_file_thps;  /* ... and of other files' (Linux: NR_FILE_THPS) */
	/* Pages of page-cache folios a PMD leaf maps, shmem's and other
	 * files' (Linux: NR_SHMEM_PMDMAPPED, NR_FILE_PMDMAPPED). */
	unsigned long nr_shmem_pmdmapped, nr_file_pmdmapped;
	unsigned long split_count[NR_PAGE_ORDERS]; /* large folios split, by order */
};
extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid) (node_data[nid])

#endif
