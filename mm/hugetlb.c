/*
 * HugeTLB (Linux: mm/hugetlb.c): pools of 2 MiB pages (from the buddy
 * allocator) and 1 GiB pages (alloc_contig_pages, or memblock at boot)
 * taken ahead of use, promised to mappings at mmap time and mapped by one
 * PMD or PUD each at the first touch. Example: nr_hugepages=4,
 * then mmap(4 MiB, MAP_HUGETLB): resv 2 of free 4 (HugePages_Rsvd 2);
 * the first write at +3 MiB dequeues one page, zeroes it and maps it by
 * the PMD of [+2M, +4M) (Rsvd 1, Free 3); munmap puts it back (Free 4)
 * and returns the reservation never used (Rsvd 0).
 * Invariant: resv_huge_pages <= free_huge_pages, so a reserved fault
 * always finds a page. Pool pages hold one reference (the pool's or the
 * mapping's) and PG_hugetlb; they are never on an LRU list.
 */
#include <arch.h>
#include <bitmap.h>
#include <hugetlb.h>
#include <seq_file.h>
#include <sysctl.h>
#include "internal.h"

struct hstate hstates[HUGE_MAX_HSTATE];
unsigned int hugetlb_max_hstate;
unsigned int default_hstate_idx;

struct hstate *size_to_hstate(unsigned long size)
{
	for (unsigned int i = 0; i < hugetlb_max_hstate; i++)
		if (huge_page_size(&hstates[i]) == size)
			return &hstates[i];
	return NULL;
}

void hstate_init(struct hstate *h, unsigned int order, int nid)
{
	*h = (struct hstate){ .order = order, .nid = nid };
	INIT_LIST_HEAD(&h->hugepage_freelist);
}

/* --- the pool -------------------------------------------------------------------- */

static void enqueue_hugetlb_folio(struct hstate *h, struct folio *folio)
{
	list_add(&folio->page.lru, &h->hugepage_freelist);
	h->free_huge_pages++;
}

static struct folio *dequeue_hugetlb_folio(struct hstate *h)
{
	struct folio *folio;

	if (list_empty(&h->hugepage_freelist))
		return NULL;
	folio = page_folio(list_first_entry(&h->hugepage_freelist, struct page, lru));
	list_del_init(&folio->page.lru);
	h->free_huge_pages--;
	return folio;
}

/*
 * A new huge page from the buddy allocator (Linux: alloc_buddy_hugetlb_folio
 * with htlb_alloc_mask: GFP_HIGHUSER_MOVABLE, as the PMD size can migrate).
 * *noretry carries Linux's node_alloc_noretry through one resize: after a
 * failure that tried hard, the next attempts skip __GFP_RETRY_MAYFAIL until
 * one succeeds. Counted as htlb_buddy_alloc_success/_fail.
 */
static struct folio *alloc_buddy_hugetlb_folio(struct hstate *h, bool *noretry)
{
	gfp_t gfp = GFP_HIGHUSER_MOVABLE | __GFP_COMP | __GFP_NOWARN;
	bool try_hard = !noretry || !*noretry;
	struct folio *folio;

	if (try_hard)
		gfp |= __GFP_RETRY_MAYFAIL;
	folio = folio_alloc_node(h->nid, gfp, h->order);
	if (noretry)
		*noretry = !folio && try_hard ? true : (folio ? false : *noretry);
	count_vm_event(NODE_DATA(h->nid), folio ? HTLB_BUDDY_PGALLOC : HTLB_BUDDY_PGALLOC_FAIL);
	return folio;
}

/*
 * Linux: alloc_gigantic_folio. A 1 GiB page is no buddy block: its range
 * is cleared by migration (alloc_contig_pages), as Linux without CMA; the
 * mask is not movable (Linux: GFP_HIGHUSER, hugepage_movable_supported
 * says no for gigantic pages; Folium has no highmem: GFP_KERNEL) and the
 * htlb_buddy_alloc_* counters leave it out, as Linux's.
 */
static struct folio *alloc_gigantic_folio(struct hstate *h)
{
	struct page *page = alloc_contig_pages(pages_per_huge_page(h),
					       GFP_KERNEL | __GFP_COMP | __GFP_NOWARN, h->nid);

	return page ? page_folio(page) : NULL;
}

/* Linux: alloc_fresh_hugetlb_folio. The page joins the pool's count, off
 * the free list. */
static struct folio *alloc_fresh_hugetlb_folio(struct hstate *h, bool *noretry)
{
	struct folio *folio;

	if (hstate_is_gigantic(h))
		folio = alloc_gigantic_folio(h);
	else
		folio = alloc_buddy_hugetlb_folio(h, noretry);
	if (!folio)
		return NULL;
	SetPageFlag(&folio->page, PG_hugetlb);
	INIT_LIST_HEAD(&folio->page.lru);
	h->nr_huge_pages++;
	return folio;
}

/* A huge page leaves the pool for the buddy allocator (Linux:
 * update_and_free_hugetlb_folio; a gigantic one through free_contig_range,
 * as Linux's hugetlb_free_folio). Context: off the free list. */
static void update_and_free_hugetlb_folio(struct hstate *h, struct folio *folio)
{
	h->nr_huge_pages--;
	ClearPageFlag(&folio->page, PG_hugetlb);
	if (hstate_is_gigantic(h))
		free_contig_range(folio_pfn(folio), pages_per_huge_page(h));
	else
		folio_put(folio);
}

void free_huge_folio(struct folio *folio)
{
	struct hstate *h = size_to_hstate(folio_size(folio));

	folio_reset_large_mapcounts(folio);
	folio_clear_anon_owner(folio);
	folio->page.flags &= ~((1ul << PG_anon) | (1ul << PG_dirty));
	/* A surplus page is not kept (Linux: free_huge_folio). */
	if (h->surplus_huge_pages) {
		h->surplus_huge_pages--;
		update_and_free_hugetlb_folio(h, folio);
		return;
	}
	enqueue_hugetlb_folio(h, folio);
}

/* Grow the pool by one surplus page, within nr_overcommit_hugepages
 * (Linux: alloc_surplus_hugetlb_folio). Return: the page, off the free list. */
static struct folio *alloc_surplus_hugetlb_folio(struct hstate *h)
{
	struct folio *folio;

	if (h->surplus_huge_pages >= h->nr_overcommit_huge_pages)
		return NULL;
	folio = alloc_fresh_hugetlb_folio(h, NULL);
	if (folio)
		h->surplus_huge_pages++;
	return folio;
}

/* Move one page between persistent and surplus: delta -1 makes a surplus
 * page persistent, +1 the reverse (Linux: adjust_pool_surplus). */
static bool adjust_pool_surplus(struct hstate *h, int delta)
{
	if (delta < 0 && !h->surplus_huge_pages)
		return false;
	if (delta > 0 && h->surplus_huge_pages >= h->nr_huge_pages)
		return false;
	h->surplus_huge_pages += (unsigned long)(long)delta;
	return true;
}

/*
 * Linux: set_max_huge_pages. Growing first turns surplus pages persistent,
 * then allocates; shrinking frees free pages down to what reservations and
 * mapped pages need, and marks the rest surplus, freed as they come back.
 */
int set_max_huge_pages(struct hstate *h, unsigned long count)
{
	unsigned long min_count;
	bool noretry = false;

	while (h->surplus_huge_pages && count > persistent_huge_pages(h))
		if (!adjust_pool_surplus(h, -1))
			break;
	while (count > persistent_huge_pages(h)) {
		struct folio *folio = alloc_fresh_hugetlb_folio(h, &noretry);

		if (!folio)
			break;
		enqueue_hugetlb_folio(h, folio);
	}
	min_count = MAX(count, h->resv_huge_pages + h->nr_huge_pages - h->free_huge_pages);
	while (min_count < persistent_huge_pages(h)) {
		struct folio *folio = dequeue_hugetlb_folio(h);

		if (!folio)
			break;
		update_and_free_hugetlb_folio(h, folio);
	}
	while (count < persistent_huge_pages(h))
		if (!adjust_pool_surplus(h, 1))
			break;
	h->max_huge_pages = persistent_huge_pages(h);
	return 0;
}

int hugetlb_set_nr_hugepages(struct hstate *h, unsigned long count)
{
	return set_max_huge_pages(h, count);
}

/*
 * Make the pool cover delta more reservations, allocating surplus pages
 * for what the free pages cannot (Linux: gather_surplus_pages), or give
 * -delta back and free surplus pages nobody needs now
 * (return_unused_surplus_pages). Return: 0, or -ENOMEM with nothing changed.
 */
static int hugetlb_acct_memory(struct hstate *h, long delta)
{
	struct list_head got = LIST_HEAD_INIT(got);
	long needed;

	if (delta < 0) {
		unsigned long unused = (unsigned long)-delta;
		unsigned long nr = MIN(unused, h->surplus_huge_pages);

		h->resv_huge_pages -= unused;
		while (nr-- && h->free_huge_pages > h->resv_huge_pages) {
			h->surplus_huge_pages--;
			update_and_free_hugetlb_folio(h, dequeue_hugetlb_folio(h));
		}
		return 0;
	}
	needed = (long)(h->resv_huge_pages + (unsigned long)delta) - (long)h->free_huge_pages;
	for (; needed > 0; needed--) {
		struct folio *folio = alloc_surplus_hugetlb_folio(h);

		if (!folio)
			goto out_free;
		list_add(&folio->page.lru, &got);
	}
	while (!list_empty(&got)) {
		struct page *page = list_first_entry(&got, struct page, lru);

		list_del(&page->lru);
		enqueue_hugetlb_folio(h, page_folio(page));
	}
	h->resv_huge_pages += (unsigned long)delta;
	return 0;
out_free:
	while (!list_empty(&got)) {
		struct folio *folio = page_folio(list_first_entry(&got, struct page, lru));

		list_del(&folio->page.lru);
		h->surplus_huge_pages--;
		update_and_free_hugetlb_folio(h, folio);
	}
	return -ENOMEM;
}

/*
 * A page for a fault (Linux: alloc_hugetlb_folio): a reserved fault takes
 * a free page and its reservation; an unreserved one takes a free page
 * only if reservations leave one, else a surplus page. Return: the folio
 * with refcount 1, or NULL.
 */
static struct folio *alloc_hugetlb_folio(struct hstate *h, bool reserved)
{
	if (reserved) {
		h->resv_huge_pages--;
		return dequeue_hugetlb_folio(h);
	}
	if (h->free_huge_pages > h->resv_huge_pages)
		return dequeue_hugetlb_folio(h);
	return alloc_surplus_hugetlb_folio(h);
}

/* --- reservations of private mappings -------------------------------------------- */

/*
 * Linux keeps a private mapping's reservations in a resv_map indexed by
 * file offset: a page without an entry still has its reservation, an
 * entry means a fault consumed it. Folium's VMAs have no file offset and
 * cannot be moved by mremap, so one map per mmap is indexed by address:
 * bit i set = huge page i's reservation was consumed or unmapped. Maps
 * are searched newest first: a newer map over the same address was made
 * after the older one's range there was unmapped (all set).
 */
struct resv_map {
	struct list_head list;
	struct mm_struct *mm;
	struct hstate *h;
	unsigned long start, nr; /* first address, huge pages */
	unsigned long taken[];
};

static struct list_head resv_maps = LIST_HEAD_INIT(resv_maps);

static struct resv_map *resv_map_find(struct mm_struct *mm, unsigned long addr)
{
	struct resv_map *map;

	list_for_each_entry(map, &resv_maps, list)
		if (map->mm == mm && addr >= map->start &&
		    addr - map->start < map->nr * huge_page_size(map->h))
			return map;
	return NULL;
}

/* A map's pages come from the mm's node, as its page tables do (so a
 * test's private node gets them back). */
static unsigned int resv_map_order(unsigned long nr)
{
	size_t bytes = sizeof(struct resv_map) + BITS_TO_LONGS(nr) * sizeof(long);
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

static struct resv_map *resv_map_alloc(struct mm_struct *mm, unsigned long nr)
{
	unsigned int order = resv_map_order(nr);
	struct page *page =
		order <= MAX_PAGE_ORDER
			? alloc_pages_node(mm->nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, order)
			: NULL;
	struct resv_map *map = page ? page_address(page) : NULL;

	if (map) {
		map->mm = mm;
		map->nr = nr;
	}
	return map;
}

static void resv_map_free(struct resv_map *map)
{
	__free_pages(virt_to_page(map), resv_map_order(map->nr));
}

int hugetlb_reserve_pages(struct mm_struct *mm, unsigned long start, unsigned long end,
			  unsigned long vm_flags)
{
	struct hstate *h = hstate_vm_flags(vm_flags);
	unsigned long nr = (end - start) >> (PAGE_SHIFT + h->order);
	struct resv_map *map;

	if (vm_flags & VM_NORESERVE)
		return 0; /* faults take what is free (Linux: VM_NORESERVE) */
	map = resv_map_alloc(mm, nr);
	if (!map)
		return -ENOMEM;
	if (hugetlb_acct_memory(h, (long)nr)) {
		resv_map_free(map);
		return -ENOMEM;
	}
	map->h = h;
	map->start = start;
	list_add(&map->list, &resv_maps);
	return 0;
}

/* Return: true if the fault at addr takes a reservation; it is marked taken. */
static bool hugetlb_resv_consume(struct mm_struct *mm, const struct vm_area_struct *vma,
				 unsigned long addr)
{
	struct resv_map *map;
	unsigned long i;

	if (vma->vm_flags & VM_NORESERVE)
		return false;
	map = resv_map_find(mm, addr);
	if (!map)
		return false;
	i = (addr - map->start) / huge_page_size(map->h);
	if (test_bit(i, map->taken))
		return false;
	bitmap_set(map->taken, i, 1);
	return true;
}

void hugetlb_unreserve_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct resv_map *map, *next;

	list_for_each_entry_safe(map, next, &resv_maps, list) {
		unsigned long size = huge_page_size(map->h), unused = 0, taken = 0;

		if (map->mm != mm)
			continue;
		for (unsigned long i = 0; i < map->nr; i++) {
			unsigned long addr = map->start + i * size;

			if (addr >= start && addr < end && !test_bit(i, map->taken)) {
				bitmap_set(map->taken, i, 1);
				unused++;
			}
			taken += test_bit(i, map->taken);
		}
		if (unused)
			hugetlb_acct_memory(map->h, -(long)unused);
		if (taken == map->nr) {
			list_del(&map->list);
			resv_map_free(map);
		}
	}
}

/* --- faults -------------------------------------------------------------------- */

/*
 * The one entry that maps a huge page: a PMD slot for 2 MiB, a PUD slot
 * for 1 GiB (Linux: huge_pte_alloc; x86 has the same bit layout at both
 * levels, so the rest of the fault code treats the slot as a PMD).
 */
static pmd_t *huge_pte_alloc(struct mm_struct *mm, const struct hstate *h, unsigned long addr)
{
	if (huge_page_size(h) == PUD_SIZE)
		return pud_alloc(mm, addr);
	return pmd_alloc(mm, addr);
}

/* Linux: flush_hugetlb_tlb_range for one page: one invlpg either way. */
static void flush_hugetlb_tlb_one(struct mm_struct *mm, const struct hstate *h, unsigned long haddr)
{
	if (huge_page_size(h) == PUD_SIZE)
		flush_pud_tlb_range(mm, haddr);
	else
		flush_pmd_tlb_range(mm, haddr);
}

/*
 * Linux: hugetlb_no_page. Any first touch, read or write, gets a page
 * (no zero page), cleared by folio_zero_user with the faulting 4K last.
 * A read maps it read-only and clean; a write writable and dirty (Linux:
 * make_huge_pte, then hugetlb_wp's reuse of an exclusive anon page).
 * pmd is the huge_pte_alloc slot (a PUD one for 1 GiB).
 */
static enum vm_fault_reason hugetlb_no_page(struct mm_struct *mm, struct vm_area_struct *vma,
					    unsigned long addr, pmd_t *pmd, unsigned int flags)
{
	struct hstate *h = hstate_vma(vma);
	unsigned long haddr = ALIGN_DOWN(addr, huge_page_size(h));
	uint64_t prot = vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED;
	bool reserved;
	struct folio *folio;

	if (anon_vma_prepare(mm, vma)) /* Linux: hugetlb_no_page's anon_vma_prepare */
		return VM_FAULT_OOM;
	reserved = hugetlb_resv_consume(mm, vma, haddr);
	folio = alloc_hugetlb_folio(h, reserved);
	if (!folio)
		return VM_FAULT_OOM; /* Linux: VM_FAULT_SIGBUS */
	folio_zero_user(folio, addr);
	prot = flags & FAULT_FLAG_WRITE ? prot | _PAGE_DIRTY : prot & ~(uint64_t)_PAGE_RW;
	folio_set_anon(folio);
	folio_set_anon_owner(folio, vma->anon_vma, linear_page_index(vma, haddr));
	hugetlb_add_new_anon_rmap(folio);
	set_pmd_at(mm, haddr, pmd, pfn_pmd(folio_pfn(folio), prot));
	return VM_FAULT_OK;
}

/*
 * A write to a read-only huge page entry (Linux: hugetlb_wp). Its only
 * mapping: made writable and dirty in place. Shared with a forked mm: a
 * new page from the pool gets a copy and replaces this entry, the old
 * page losing one mapping (freed to the pool with its last). The old
 * page's reservation went with its first fault, so the copy takes an
 * unreserved page and fails without one (Linux: VM_FAULT_SIGBUS, or for
 * the reservation owner unmapping the page from the children,
 * unmap_ref_private; Folium reports VM_FAULT_OOM).
 */
static enum vm_fault_reason hugetlb_wp(struct mm_struct *mm, struct vm_area_struct *vma,
				       unsigned long haddr, pmd_t *pmd)
{
	struct hstate *h = hstate_vma(vma);
	struct folio *old = page_folio(pfn_to_page(pmd_pfn(*pmd)));
	uint64_t prot = vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED;
	struct folio *folio;
	pmd_t entry;

	if (folio_mapcount(old) == 1) {
		entry = pmdp_get_and_clear(mm, haddr, pmd);
		set_pmd_at(mm, haddr, pmd, pmd_mkdirty(entry | _PAGE_RW));
		flush_hugetlb_tlb_one(mm, h, haddr);
		mm->counters[MM_WP_REUSE]++;
		return VM_FAULT_OK;
	}
	if (anon_vma_prepare(mm, vma))
		return VM_FAULT_OOM;
	folio = alloc_hugetlb_folio(h, false);
	if (!folio)
		return VM_FAULT_OOM;
	memcpy(folio_address(folio), folio_address(old), huge_page_size(h));
	folio_set_anon(folio);
	folio_set_anon_owner(folio, vma->anon_vma, linear_page_index(vma, haddr));
	hugetlb_add_new_anon_rmap(folio);
	pmdp_get_and_clear(mm, haddr, pmd);
	flush_hugetlb_tlb_one(mm, h, haddr);
	set_pmd_at(mm, haddr, pmd, pmd_mkdirty(pfn_pmd(folio_pfn(folio), prot)));
	hugetlb_remove_rmap(old); /* another mm maps it still */
	mm->counters[MM_WP_COPY]++;
	return VM_FAULT_OK;
}

enum vm_fault_reason hugetlb_fault(struct mm_struct *mm, struct vm_area_struct *vma,
				   unsigned long addr, unsigned int flags)
{
	struct hstate *h = hstate_vma(vma);
	unsigned long haddr = ALIGN_DOWN(addr, huge_page_size(h));
	pmd_t *pmd = huge_pte_alloc(mm, h, haddr);

	if (!pmd)
		return VM_FAULT_OOM;
	if (pmd_none(*pmd))
		return hugetlb_no_page(mm, vma, addr, pmd, flags);
	if ((flags & FAULT_FLAG_WRITE) && !pmd_write(*pmd))
		return hugetlb_wp(mm, vma, haddr, pmd);
	flush_hugetlb_tlb_one(mm, h, haddr); /* a stale TLB entry */
	return VM_FAULT_OK;
}

/* --- fork ---------------------------------------------------------------------------- */

struct hugetlb_copy {
	struct mm_struct *dst_mm;
	const struct hstate *h;
};

/* One huge page entry into the child: one more mapping of the page,
 * write-protected in both (Linux: copy_hugetlb_page_range's
 * huge_ptep_set_wrprotect and hugetlb_try_dup_anon_rmap). */
static int copy_hugetlb_entry(pmd_t *src, unsigned long addr, struct mm_walk *walk)
{
	struct hugetlb_copy *c = walk->private;
	pmd_t *dst = huge_pte_alloc(c->dst_mm, c->h, addr);
	pmd_t entry = *src;

	if (!dst)
		return -ENOMEM;
	hugetlb_add_anon_rmap(page_folio(pfn_to_page(pmd_pfn(entry))));
	if (pmd_write(entry)) {
		pmdp_set_wrprotect(walk->mm, addr, src);
		entry = pmd_wrprotect(entry);
	}
	set_pmd_at(c->dst_mm, addr, dst, entry);
	return 0;
}

static int copy_hugetlb_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next,
			    struct mm_walk *walk)
{
	(void)next;
	walk->action = ACTION_CONTINUE;
	return pmd_leaf(*pmdp) ? copy_hugetlb_entry(pmdp, addr & PMD_MASK, walk) : 0;
}

static int copy_hugetlb_pud(pud_t *pudp, unsigned long addr, unsigned long next,
			    struct mm_walk *walk)
{
	(void)next;
	return copy_hugetlb_entry(pudp, addr & PUD_MASK, walk);
}

static const struct mm_walk_ops copy_hugetlb_ops = {
	.pmd_entry = copy_hugetlb_pmd,
	.pud_entry = copy_hugetlb_pud,
};

int copy_hugetlb_page_range(struct mm_struct *dst_mm, struct mm_struct *src_mm,
			    const struct vm_area_struct *src_vma)
{
	struct hugetlb_copy c = { dst_mm, hstate_vma(src_vma) };

	return walk_page_range(src_mm, src_vma->vm_start, src_vma->vm_end, &copy_hugetlb_ops, &c);
}

bool hugetlb_range_aligned(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	const unsigned long cuts[] = { start, end };

	for (unsigned int i = 0; i < ARRAY_SIZE(cuts); i++) {
		struct vm_area_struct *vma = find_vma(mm, cuts[i]);

		if (vma && is_vm_hugetlb_page(vma) && vma->vm_start != cuts[i] &&
		    (cuts[i] & (huge_page_size(hstate_vma(vma)) - 1)))
			return false;
	}
	return true;
}

/* --- the files: /proc/meminfo, /sys/kernel/mm/hugepages ---------------------- */

void hugetlb_report_meminfo(struct seq_file *m)
{
	struct hstate *h = &default_hstate;
	unsigned long total_kb = 0;

	for (unsigned int i = 0; i < hugetlb_max_hstate; i++)
		total_kb += hstates[i].nr_huge_pages *
			    (unsigned long)(huge_page_size(&hstates[i]) / KIB);
	seq_printf(m,
		   "HugePages_Total:   %5lu\nHugePages_Free:    %5lu\nHugePages_Rsvd:    %5lu\n"
		   "HugePages_Surp:    %5lu\nHugepagesize:   %8lu kB\n",
		   h->nr_huge_pages, h->free_huge_pages, h->resv_huge_pages, h->surplus_huge_pages,
		   (unsigned long)(huge_page_size(h) / KIB));
	seq_printf(m, "Hugetlb:        %8lu kB\n", total_kb);
}

/* Linux's kstrtoul(buf, 10, ...) for a sysfs write: one trailing newline allowed. */
static int parse_count(const char *buf, unsigned long *out)
{
	char num[24];
	size_t n = strlen(buf);
	uint64_t v;

	if (n && buf[n - 1] == '\n')
		n--;
	if (!n || n >= sizeof(num))
		return -EINVAL;
	memcpy(num, buf, n);
	num[n] = '\0';
	if (num[0] == '+' || kstrtou64(num, &v) || (num[0] == '0' && num[1] == 'x'))
		return -EINVAL;
	*out = (unsigned long)v;
	return 0;
}

#define HSTATE_SHOW(name, field)                                        \
	static int name##_show(struct seq_file *m, void *priv)          \
	{                                                               \
		seq_printf(m, "%lu\n", ((struct hstate *)priv)->field); \
		return 0;                                               \
	}
HSTATE_SHOW(nr_hugepages, nr_huge_pages)
HSTATE_SHOW(free_hugepages, free_huge_pages)
HSTATE_SHOW(resv_hugepages, resv_huge_pages)
HSTATE_SHOW(surplus_hugepages, surplus_huge_pages)
HSTATE_SHOW(nr_overcommit_hugepages, nr_overcommit_huge_pages)

/* Linux: nr_hugepages_store → __nr_hugepages_store_common. */
static long nr_hugepages_store(const char *buf, size_t count, void *priv)
{
	unsigned long n;

	if (parse_count(buf, &n))
		return -EINVAL;
	set_max_huge_pages(priv, n);
	return (long)count;
}

static long nr_overcommit_hugepages_store(const char *buf, size_t count, void *priv)
{
	unsigned long n;

	if (parse_count(buf, &n))
		return -EINVAL;
	((struct hstate *)priv)->nr_overcommit_huge_pages = n;
	return (long)count;
}

const struct kobj_attribute hugetlb_nr_hugepages_attr = { nr_hugepages_show, nr_hugepages_store };
const struct kobj_attribute hugetlb_free_hugepages_attr = { free_hugepages_show, NULL };
const struct kobj_attribute hugetlb_resv_hugepages_attr = { resv_hugepages_show, NULL };
const struct kobj_attribute hugetlb_surplus_hugepages_attr = { surplus_hugepages_show, NULL };
const struct kobj_attribute hugetlb_nr_overcommit_hugepages_attr = {
	nr_overcommit_hugepages_show, nr_overcommit_hugepages_store
};

/* --- /proc/sys/vm: nr_hugepages, nr_overcommit_hugepages of the default size ------ */

/*
 * Linux: hugetlb_sysctl_handler_common. The handler works on a copy of
 * the table pointing at a local: a read shows the persistent size
 * (max_huge_pages); a write resizes the default pool as the sysfs file does.
 */
static int hugetlb_sysctl_handler(const struct ctl_table *table, int write, char *buffer,
				  size_t *lenp, uint64_t *ppos)
{
	struct hstate *h = &default_hstate;
	unsigned long tmp = h->max_huge_pages;
	struct ctl_table t = *table;
	int ret;

	if (!hugetlb_max_hstate)
		return -EOPNOTSUPP;
	t.data = &tmp;
	t.maxlen = sizeof(unsigned long);
	ret = proc_doulongvec_minmax(&t, write, buffer, lenp, ppos);
	if (!ret && write)
		ret = hugetlb_set_nr_hugepages(h, tmp);
	return ret;
}

/* Linux: hugetlb_overcommit_handler. */
static int hugetlb_overcommit_handler(const struct ctl_table *table, int write, char *buffer,
				      size_t *lenp, uint64_t *ppos)
{
	struct hstate *h = &default_hstate;
	unsigned long tmp = h->nr_overcommit_huge_pages;
	struct ctl_table t = *table;
	int ret;

	if (!hugetlb_max_hstate)
		return -EOPNOTSUPP;
	t.data = &tmp;
	t.maxlen = sizeof(unsigned long);
	ret = proc_doulongvec_minmax(&t, write, buffer, lenp, ppos);
	if (!ret && write)
		h->nr_overcommit_huge_pages = tmp;
	return ret;
}

static const struct ctl_table vm_hugetlb[] = {
	{ .procname = "nr_hugepages", .mode = 0644, .proc_handler = hugetlb_sysctl_handler },
	{ .procname = "nr_overcommit_hugepages",
	  .mode = 0644,
	  .proc_handler = hugetlb_overcommit_handler },
};
SYSCTL_TABLE("vm", vm_hugetlb);

/* --- boot: hugepagesz=, hugepages=, default_hugepagesz= ------------------------ */

CMDLINE_KEY(hugepagesz, "SIZE: the size the following hugepages= applies to (2M, 1G)");
CMDLINE_KEY(hugepages, "N: huge pages to allocate at boot (of the preceding hugepagesz=)");
CMDLINE_KEY(default_hugepagesz, "SIZE: the default huge page size (2M, 1G)");

/* Return: the index of the hstate of a size word, or -1 (Linux:
 * arch_hugetlb_valid_size, then size_to_hstate). */
static int parse_hstate(const char *value)
{
	uint64_t size;
	struct hstate *h;

	if (kparse_size(value, &size) < 0)
		return -1;
	h = size_to_hstate((unsigned long)size);
	return h ? (int)(h - hstates) : -1;
}

/*
 * Linux: hugepagesz_setup, hugepages_setup, default_hugepagesz_setup, in
 * command-line order. hugepages= applies to the hugepagesz= just before
 * it, or (first on the line) to the default size; twice without a
 * hugepagesz= between, or after a bad hugepagesz=, it is ignored.
 */
void hugetlb_parse_cmdline(const struct cmdline *cl, unsigned long counts[HUGE_MAX_HSTATE],
			   unsigned int *default_idx)
{
	int parsed = -2; /* -2: none yet (the default size), -1: a bad one */
	unsigned long default_count = 0;
	bool seen_size[HUGE_MAX_HSTATE] = { false }, seen_default = false, last_used = false;

	for (int i = 0; i < cl->nparams; i++) {
		const char *key = cl->params[i].key, *value = cl->params[i].value;
		int idx = parse_hstate(value);
		unsigned long n;

		if (!strcmp(key, "hugepagesz")) {
			if (idx < 0) {
				pr_err("HugeTLB: unsupported hugepagesz=%s\n", value);
				parsed = -1;
			} else if (seen_size[idx]) {
				pr_warn("HugeTLB: hugepagesz=%s specified twice, ignoring\n",
					value);
				parsed = -1;
			} else {
				seen_size[idx] = true;
				parsed = idx;
				last_used = false;
			}
		} else if (!strcmp(key, "default_hugepagesz")) {
			if (seen_default)
				pr_err("HugeTLB: default_hugepagesz previously specified, ignoring "
				       "%s\n",
				       value);
			else if (idx < 0)
				pr_err("HugeTLB: unsupported default_hugepagesz=%s. Ignoring\n",
				       value);
			else
				*default_idx = (unsigned int)idx;
			seen_default = true;
		} else if (!strcmp(key, "hugepages")) {
			if (parsed == -1) {
				pr_warn("HugeTLB: hugepages=%s does not follow a valid hugepagesz, "
					"ignoring\n",
					value);
			} else if (last_used) {
				pr_warn("HugeTLB: hugepages= specified twice without interleaving "
					"hugepagesz=, ignoring hugepages=%s\n",
					value);
			} else if (parse_count(value, &n)) {
				pr_warn("HugeTLB: Invalid hugepages parameter %s\n", value);
			} else {
				*(parsed >= 0 ? &counts[parsed] : &default_count) = n;
				last_used = true;
			}
		}
	}
	if (default_count && !counts[*default_idx])
		counts[*default_idx] = default_count;
}

void hugetlb_add_hstate(unsigned int order)
{
	if (hugetlb_max_hstate < HUGE_MAX_HSTATE && !size_to_hstate(PAGE_SIZE << order))
		hstate_init(&hstates[hugetlb_max_hstate++], order, 0);
}

/* The sizes this machine has (Linux: hugetlb_add_hstate from the arch's
 * hugetlbpage.c: 1 GiB only with X86_FEATURE_GBPAGES), and the command
 * line parsed once for both boot steps. */
static unsigned long boot_counts[HUGE_MAX_HSTATE];
static bool boot_parsed;

static void hugetlb_boot_parse(void)
{
	if (boot_parsed)
		return;
	boot_parsed = true;
	hugetlb_add_hstate(HPAGE_PMD_ORDER);
	if (arch_has_gbpages())
		hugetlb_add_hstate(PUD_SHIFT - PAGE_SHIFT);
	hugetlb_parse_cmdline(&boot_cmdline, boot_counts, &default_hstate_idx);
}

/* The 1 GiB pages memblock set aside, waiting for hugetlb_init. */
#define MAX_BOOTMEM_HUGE_PAGES 64
static phys_addr_t bootmem_huge_pages[MAX_BOOTMEM_HUGE_PAGES];
static unsigned int nr_bootmem_huge_pages;

/*
 * Linux: hugetlb_hstate_alloc_pages for a gigantic size, at hugepages=
 * time: the buddy allocator cannot give 1 GiB, so memblock does, aligned
 * to 1 GiB (such a range never straddles the 4 GiB zone edge).
 */
void hugetlb_bootmem_alloc(struct memblock *mb)
{
	hugetlb_boot_parse();
	for (unsigned int i = 0; i < hugetlb_max_hstate; i++) {
		struct hstate *h = &hstates[i];
		phys_addr_t size = huge_page_size(h), base;

		if (!hstate_is_gigantic(h))
			continue;
		while (nr_bootmem_huge_pages < MIN(boot_counts[i], MAX_BOOTMEM_HUGE_PAGES)) {
			base = memblock_phys_alloc_range(mb, size, size, size,
							 memblock_end_of_DRAM(mb));
			if (!base)
				break;
			bootmem_huge_pages[nr_bootmem_huge_pages++] = base;
		}
	}
}

/*
 * Linux: gather_bootmem_prealloc. A page memblock kept aside becomes the
 * allocator's (managed, as Linux's adjust_managed_page_count) and is taken
 * back at once as one folio: nothing else could land in it meanwhile.
 */
static void gather_bootmem_prealloc(struct hstate *h)
{
	for (unsigned int i = 0; i < nr_bootmem_huge_pages; i++) {
		unsigned long pfn = PHYS_PFN(bootmem_huge_pages[i]);
		struct folio *folio;

		free_pfn_range_to_buddy(pfn, pfn + pages_per_huge_page(h));
		if (alloc_contig_range(pfn, pfn + pages_per_huge_page(h), __GFP_COMP))
			continue;
		folio = page_folio(pfn_to_page(pfn));
		SetPageFlag(&folio->page, PG_hugetlb);
		INIT_LIST_HEAD(&folio->page.lru);
		h->nr_huge_pages++;
		enqueue_hugetlb_folio(h, folio);
	}
	h->max_huge_pages = h->nr_huge_pages;
	nr_bootmem_huge_pages = 0;
}

/* Linux: hugetlb_init (hugetlb_init_hstates and hugetlb_hstate_alloc_pages). */
void hugetlb_init(void)
{
	struct hstate *h;

	hugetlb_boot_parse();
	for (unsigned int i = 0; i < hugetlb_max_hstate; i++) {
		h = &hstates[i];
		if (!boot_counts[i])
			continue;
		if (hstate_is_gigantic(h))
			gather_bootmem_prealloc(h);
		else
			set_max_huge_pages(h, boot_counts[i]);
		if (h->max_huge_pages < boot_counts[i])
			pr_warn("HugeTLB: allocating %lu of page size %lu KiB failed.  Only "
				"allocated %lu hugepages.\n",
				boot_counts[i], (unsigned long)(huge_page_size(h) / KIB),
				h->max_huge_pages);
	}
}

unsigned long hugetlb_total_pages(void)
{
	unsigned long pages = 0;

	for (unsigned int i = 0; i < hugetlb_max_hstate; i++)
		pages += hstates[i].nr_huge_pages << hstates[i].order;
	return pages;
}
