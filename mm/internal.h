/*
 * What only mm/ uses: the buddy allocator's internals that isolation, CMA,
 * folios and the debug checks share. Context for all of them: the caller
 * holds the zone (Folium runs one CPU with interrupts on, and no mm code
 * runs in interrupt context, so "holding the zone" is implicit).
 */
#ifndef FOLIUM_MM_INTERNAL_H
#define FOLIUM_MM_INTERNAL_H

#include <mm.h>
#include <vm.h>

/* The order of a free buddy block (valid only when PageBuddy). */
static inline unsigned int buddy_order(const struct page *page)
{
	return (unsigned int)page->private;
}

/* pfn of the buddy of the block at pfn: pfn 8, order 1 → 10. */
static inline unsigned long __find_buddy_pfn(unsigned long pfn, unsigned int order)
{
	return pfn ^ (1ul << order);
}

static inline bool zone_spans_pfn(const struct zone *zone, unsigned long pfn)
{
	return pfn >= zone->zone_start_pfn && pfn < zone->zone_start_pfn + zone->spanned_pages;
}

/* The gfp bits that say how hard to try, not where the memory comes from:
 * what the page cache passes on to its XArray's nodes (Linux's
 * GFP_RECLAIM_MASK in mm/internal.h). */
#define GFP_RECLAIM_MASK                                                                       \
	(__GFP_HIGH | __GFP_DIRECT_RECLAIM | __GFP_NOWARN | __GFP_NORETRY | __GFP_NOMEMALLOC | \
	 __GFP_RETRY_MAYFAIL)

/* memory.c, for filemap.c's fault-around */
/* The index past the file's last page: nothing there is mapped. */
unsigned long vma_file_end_index(const struct vm_area_struct *vma);
/* Map nr pages of folio from its page idx on at addr, whose PTEs are
 * none: one set_ptes, one rmap update, one RSS update (Linux:
 * set_pte_range with folio_add_file_rmap_ptes). Writable where a shared
 * VMA is (a private one's pages stay read-only: a write copies them);
 * dirty only for the write fault. */
void map_file_ptes(struct mm_struct *mm, const struct vm_area_struct *vma, struct folio *folio,
		   unsigned long idx, unsigned int nr, unsigned long addr, pte_t *pte, bool write);
/* Linux: do_set_pmd. Map the PMD-sized folio holding file page pgoff by
 * the empty PMD slot pmd of addr, if THP and the VMA's alignment allow.
 * Return: true when mapped, false to use PTEs. */
bool do_set_pmd(struct mm_struct *mm, const struct vm_area_struct *vma, pmd_t *pmd,
		struct folio *folio, unsigned long addr, unsigned long pgoff, bool write);

/* filemap.c, for memory.c's read faults */
/* Linux: filemap_map_pages. Map every uptodate page the cache holds in
 * [first, last] (inside the file) whose PTE is none, a folio's run with
 * one map_file_ptes; pte is the entry of addr (file index pgoff). */
void filemap_map_pages(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long addr,
		       unsigned long pgoff, pte_t *pte, unsigned long first, unsigned long last);
/* Linux: filemap_map_pmd. A read fault at addr (file page pgoff) in an
 * empty PMD slot maps the cache's uptodate PMD-sized folio there by the
 * PMD. Return: true when it did. */
bool filemap_map_pmd(struct mm_struct *mm, const struct vm_area_struct *vma, pmd_t *pmd,
		     unsigned long addr, unsigned long pgoff);
/* Linux: do_fault_around. filemap_map_pages over the aligned window of
 * fault_around_bytes around addr, inside the VMA and its PTE table. */
void do_fault_around(struct mm_struct *mm, const struct vm_area_struct *vma, unsigned long addr,
		     unsigned long pgoff, pte_t *pte);

/* mm_init.c */
/* Make the struct pages of [start, end) reserved, refcount 0, unmapped,
 * in zone zt of node nid (Linux: memmap_init_range, __init_single_page).
 * Holes without struct pages are skipped. */
void memmap_init_range(int nid, enum zone_type zt, unsigned long start, unsigned long end);

/* page_alloc.c */
void set_pageblock_migratetype(struct page *page, int migratetype);
void set_pageblock_isolate(struct page *page, bool isolated);
/* Move every free block inside the pageblock of page from its current list
 * to the free lists of new_mt (MIGRATE_ISOLATE included).
 * Return: pages moved. */
unsigned long move_freepages_block(struct zone *zone, struct page *page, int new_mt);
/* Unlink a free block from its list (it stays PageBuddy = false after). */
void del_page_from_free_list(struct page *page, struct zone *zone, unsigned int order);
/* Put a free block on its list (PageBuddy set, order recorded) without
 * merging: for callers that already know its buddy is not free. */
void add_to_free_list(struct page *page, struct zone *zone, unsigned int order, int migratetype,
		      bool tail);
/* Free a block into the buddy lists, merging with free buddies
 * (Linux: __free_one_page). */
void __free_one_page(struct page *page, unsigned long pfn, struct zone *zone, unsigned int order,
		     int migratetype);
/* Split the free block at page (order `high`) down to `low`, returning the
 * upper halves to the free lists (Linux: expand). */
void expand(struct zone *zone, struct page *page, unsigned int low, unsigned int high,
	    int migratetype);
/* Make 2^order just-allocated pages ready for the caller: refcount 1,
 * poison checked, zeroed for __GFP_ZERO, a folio head for __GFP_COMP. */
void prep_new_page(struct page *page, unsigned int order, gfp_t gfp);
/* Undo prep_new_page before the pages go back (debug checks, poison). */
bool free_pages_prepare(struct page *page, unsigned int order);
/* Take every free page in [start_pfn, end_pfn) off the free lists, splitting
 * blocks that straddle the edges; they become allocated order-0 pages with
 * refcount 1. Return: pages taken, or 0 if some page in the range is not
 * free (nothing is taken then). Linux: isolate_freepages_range. */
unsigned long take_free_pfn_range(unsigned long start_pfn, unsigned long end_pfn);

/* Make page the head of a 2^order folio, and back (Linux:
 * prep_compound_page; destroy_large_folio for a folio being freed or
 * split). */
void prep_compound_page(struct page *page, unsigned int order);
void destroy_large_folio(struct folio *folio, unsigned int order);

/* page_isolation.c */
/* If pfn's pageblock is inside a free block larger than a pageblock, split
 * that block into pageblock-sized blocks on their own blocks' lists, so one
 * pageblock can change type alone (Linux: split_large_buddy). */
void split_large_buddy(struct zone *zone, unsigned long pfn);
/* After a pageblock changed lists: if it is one free block, free it again
 * so it merges with free neighbours of its new type mt. */
void merge_free_pageblock(struct zone *zone, unsigned long pfn, int mt);

/* migrate.c */
/* Linux: new_folio_t, free_folio_t. get_new_folio returns a folio of
 * src's order with refcount 1 (NULL: none left); put_new_folio takes back
 * one the migration did not use. */
typedef struct folio *(*new_folio_t)(struct folio *src, unsigned long private);
typedef void (*free_folio_t)(struct folio *dst, unsigned long private);
/*
 * Linux: migrate_pages. Migrate folios[0..nr), in order, each into the
 * folio get_new_folio returns for it (through the migration hook, as
 * migrate_pfn_range); a folio that cannot move stays where it is, on its
 * owner's lists. *nr_succeeded: pages moved.
 * Return: the number of folios that did not move, or -ENOMEM when
 * get_new_folio ran dry (the folios after that one were not tried).
 */
int migrate_pages(struct folio **folios, unsigned int nr, new_folio_t get_new_folio,
		  free_folio_t put_new_folio, unsigned long private, unsigned long *nr_succeeded);

/* debug_vm.c (no-ops, returning "fine", without CONFIG_DEBUG_VM) */
void poison_pages(struct page *page, unsigned int nr);
/* Return: false (after dump_page) if a free page's poison was overwritten. */
bool check_poison(struct page *page, unsigned int nr);
/* Return: false (after dump_page) if page cannot be freed at this order:
 * double free, a tail page, a page still mapped or still referenced. */
bool check_free_page(struct page *page, unsigned int order);
/* Report a page that cannot be freed because it holds no reference to drop
 * (already free, a tail page, ...): dump_page, pr_err naming fn, count
 * BAD_PAGE. Always on: refusing such a free keeps the free lists intact. */
void bad_free(struct page *page, unsigned int order, const char *fn);

/* mmap.c, mprotect.c */
/* Linux: accountable_mapping. Private writable memory is charged (not
 * HugeTLB's: its pool is reserved instead; not a shared mapping's: its
 * pages are the file's, shmem charges a shared anonymous one itself); the
 * shell's workloads (no VM_USER) are not: Linux has no kernel VMAs, and
 * `usemem` or `peek` over a 1 TiB range are experiments, not commitments. */
static inline bool accountable_mapping(unsigned long vm_flags)
{
	return (vm_flags & (VM_NORESERVE | VM_WRITE | VM_USER | VM_HUGETLB | VM_SHARED)) ==
	       (VM_WRITE | VM_USER);
}

/* hugetlb.c: fork's copy of a HugeTLB VMA's entries, each page shared and
 * write-protected in both mms for hugetlb_wp (Linux:
 * copy_hugetlb_page_range). Return: 0 or -ENOMEM. */
int copy_hugetlb_page_range(struct mm_struct *dst_mm, struct mm_struct *src_mm,
			    const struct vm_area_struct *src_vma);

#endif
