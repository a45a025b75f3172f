/*
 * Anonymous page faults: check the access against the VMA, then map a
 * zeroed folio of the largest enabled order that fits (Linux:
 * handle_mm_fault → do_anonymous_page → alloc_anon_folio). Example: with
 * `thp 16K,64K` a write at 0x40005000 in the VMA [0x40000000, 0x40012000)
 * tries the 64K range 0x40000000..0x4000ffff (inside, PTEs none: order 4),
 * and a later fault at 0x40011000 finds its 64K range past the VMA end
 * and its 16K range 0x40010000..0x40013fff too, so it maps one page.
 * A read of never-written memory allocates nothing: it maps the shared
 * zero page read-only (the huge zero folio by one PMD when a PMD-size
 * folio would fit). The first write to a zero-page entry replaces it with
 * one order-0 folio (Linux: do_wp_page → wp_page_copy), and a zero-page
 * entry in a range keeps the larger orders away from it (pte_range_none);
 * a write into the huge zero folio gets a PMD-size folio if one is
 * enabled (do_huge_zero_wp_pmd), else order 0.
 */
#include <fs.h>
#include <hugetlb.h>
#include <pagemap.h>
#include <ramfs.h>
#include <vm.h>
#include "internal.h"

const char *vm_fault_reason_name(enum vm_fault_reason reason)
{
	static const char *const names[] = {
		[VM_FAULT_OK] = "ok",
		[VM_FAULT_NOVMA] = "no mapping at this address",
		[VM_FAULT_ACCESS] = "access not allowed by the mapping",
		[VM_FAULT_OOM] = "out of memory",
		[VM_FAULT_SIGSEGV] = "guard region",
	};

	if ((unsigned int)reason < ARRAY_SIZE(names))
		return names[reason];
	return "?";
}

void vm_fault_report(unsigned long addr, enum vm_fault_reason reason, unsigned int flags,
		     const char *from)
{
	pr_err("bad access at 0x%lx: %s (%s from %s)\n", addr, vm_fault_reason_name(reason),
	       flags & FAULT_FLAG_WRITE ? "write" : "read", from);
}

/* Does the naturally aligned 2^order range around addr lie inside the
 * VMA? Linux: thp_vma_suitable_order. */
static bool thp_vma_suitable_order(const struct vm_area_struct *vma, unsigned long addr,
				   unsigned int order)
{
	unsigned long start = ALIGN_DOWN(addr, PAGE_SIZE << order);

	return start >= vma->vm_start && start + (PAGE_SIZE << order) <= vma->vm_end;
}

/* --- the zero page ----------------------------------------------------------------- */

/*
 * Linux's ZERO_PAGE is a static page of the kernel image. Folium allocates
 * it on an mm's first read fault and frees it when the last such mm is
 * destroyed (the way Linux keeps the huge zero folio: one reference per
 * mm, MMF_HUGE_ZERO_PAGE), so the host, whose "kernel image" is not in
 * simulated RAM, and the tests' private nodes, which must get every page
 * back, need nothing special. It is unmovable, never on an LRU list, and
 * has no rmap: entries mapping it are skipped by everything that works on
 * folios (vm_normal_page returns NULL for it in Linux).
 */
static struct folio *zero_folio;
static unsigned long zero_folio_mms; /* mms holding a reference */

bool is_zero_pfn(unsigned long pfn)
{
	return zero_folio && pfn == folio_pfn(zero_folio);
}

struct folio *mm_get_zero_folio(struct mm_struct *mm)
{
	if (mm->flags & MMF_ZERO_PAGE)
		return zero_folio;
	if (!zero_folio)
		zero_folio = folio_alloc_node(mm->nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, 0);
	if (!zero_folio)
		return NULL;
	zero_folio_mms++;
	mm->flags |= MMF_ZERO_PAGE;
	return zero_folio;
}

void mm_put_zero_folio(struct mm_struct *mm)
{
	if (!(mm->flags & MMF_ZERO_PAGE))
		return;
	mm->flags &= ~MMF_ZERO_PAGE;
	if (--zero_folio_mms)
		return;
	folio_put(zero_folio);
	zero_folio = NULL;
}

/* The entry bits of a zero-page mapping in vma: read-only (a write faults
 * and gets its own folio), not yet accessed. Linux: pte_mkspecial(
 * pfn_pte(my_zero_pfn(addr), vma->vm_page_prot)), where a private
 * mapping's vm_page_prot has no write bit. */
uint64_t vm_zero_page_prot(const struct vm_area_struct *vma)
{
	return vm_get_page_prot(vma->vm_flags) & ~(uint64_t)_PAGE_RW;
}

/* Are all nr PTEs from ptep empty? A zero-page entry is not: a large
 * folio never replaces one (Linux: pte_range_none). */
static bool pte_range_none(const pte_t *ptep, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		if (!pte_none(ptep[i]))
			return false;
	return true;
}

/*
 * The orders a write fault at addr may use now, as a bitmask (order 0
 * always): allowed in the VMA (thp_vma_allowable_orders), inside it, and
 * every entry of the range empty. table is the PTE table covering addr
 * (its first slot), or NULL when the PMD is none (then every PTE order
 * fits) or the huge zero folio. The PMD order needs the PMD none or the
 * huge zero folio (Linux: do_huge_zero_wp_pmd). A write to a zero-page
 * entry, or into a huge zero folio no PMD-size folio can replace, is
 * order 0, as Linux's do_wp_page copies the zero page into one page
 * (wp_page_copy) and a zero-page neighbour keeps pte_range_none false.
 */
static unsigned long anon_suitable_orders(const struct mm_struct *mm,
					  const struct vm_area_struct *vma, unsigned long addr,
					  const pmd_t *pmd, const pte_t *table)
{
	unsigned long orders = 1, allowed;

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return orders; /* Linux: thp_vma_allowable_orders is 0 */
	/* Linux: vma_thp_disabled, prctl(PR_SET_THP_DISABLE)'s MMF_DISABLE_THP. */
	if (mm->flags & MMF_DISABLE_THP)
		return orders;
	/* The per-size modes with the VMA's MADV_(NO)HUGEPAGE. */
	allowed = thp_vma_allowable_orders(vma, THP_ORDERS_ALL);
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		unsigned long nr = 1ul << order;
		bool empty;

		if (!(allowed & (1ul << order)) || !thp_vma_suitable_order(vma, addr, order))
			continue;
		if (order == HPAGE_PMD_ORDER)
			empty = pmd_none(*pmd) || is_huge_zero_pmd(*pmd);
		else if (!table)
			empty = pmd_none(*pmd);
		else
			empty = pte_range_none(table + (pte_index(addr) & ~(nr - 1)), nr);
		if (empty)
			orders |= 1ul << order;
	}
	return orders;
}

/* The gfp of a fault's folio: a large one as the defrag mode says
 * (vma_thp_gfp_mask; with Linux's default "madvise", compaction only under
 * MADV_HUGEPAGE: a fault would rather fall back to a smaller folio than
 * stall); order 0 may always reclaim. */
static gfp_t anon_folio_gfp(const struct vm_area_struct *vma, int order)
{
	if (order)
		return vma_thp_gfp_mask(vma);
	return GFP_HIGHUSER_MOVABLE | __GFP_NOWARN;
}

/*
 * Allocate the largest folio among orders, falling back one enabled order
 * at a time when the allocator has no block (counted per order as
 * Linux's anon_fault_fallback). Return: the folio, or NULL if even order 0
 * failed. No __GFP_ZERO: folio_zero_user clears it, fault page last.
 */
static struct folio *alloc_anon_folio(struct mm_struct *mm, const struct vm_area_struct *vma,
				      unsigned long orders)
{
	for (int order = HPAGE_PMD_ORDER; order >= 0; order--) {
		struct folio *folio;

		if (!(orders & (1ul << order)))
			continue;
		folio = folio_alloc_node(mm->nid, anon_folio_gfp(vma, order), order);
		if (folio) {
			mthp_stats[order][MTHP_STAT_ANON_FAULT_ALLOC]++;
			return folio;
		}
		if (order)
			mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK]++;
	}
	return NULL;
}

/* Take the zero-page PTEs out of [start, start + nr pages) before a folio
 * is mapped there, one flush for them (Linux: ptep_clear_flush in
 * wp_page_copy). */
static void clear_zero_ptes(struct mm_struct *mm, unsigned long start, pte_t *pte, unsigned long nr)
{
	bool any = false;

	for (unsigned long i = 0; i < nr; i++) {
		if (pte_none(pte[i]))
			continue;
		ptep_get_and_clear(mm, start + i * PAGE_SIZE, &pte[i]);
		any = true;
	}
	if (any)
		flush_tlb_range(mm, start, start + nr * PAGE_SIZE);
}

/* A new folio of vma at addr becomes anonymous, rmapped and on its LRU
 * list (Linux: folio_add_new_anon_rmap, folio_add_lru_vma). A droppable
 * folio is never swapbacked: reclaim may drop it as it drops a lazyfree
 * one. */
static void map_new_anon_folio(struct folio *folio, struct mm_struct *mm,
			       struct vm_area_struct *vma, unsigned long addr)
{
	folio_set_anon(folio);
	if (!(vma->vm_flags & VM_DROPPABLE))
		folio_set_swapbacked(folio);
	folio_add_new_anon_rmap(folio, mm, vma, addr);
	folio_add_lru_vma(folio, vma);
}

/*
 * Map a new folio for a write fault in a slot that is empty or maps the
 * zero page: one set_ptes() for all its pages, or one PMD leaf for a
 * PMD-order folio (replacing the huge zero folio: Linux's
 * do_huge_zero_wp_pmd; or, when a smaller folio is all it gets, splitting
 * that into zero-page PTEs first). The entries are young, dirty and
 * soft-dirty (the write is happening; Linux: pte_mkdirty).
 */
static enum vm_fault_reason do_anonymous_write(struct mm_struct *mm, struct vm_area_struct *vma,
					       unsigned long addr, pmd_t *pmd)
{
	pte_t *table = pte_offset_map(pmd, addr & PMD_MASK);
	uint64_t prot = pte_mkdirty(vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED);
	struct folio *folio;
	unsigned long nr, start;
	pte_t *pte;

	if (anon_vma_prepare(mm, vma))
		return VM_FAULT_OOM;
	folio = alloc_anon_folio(mm, vma, anon_suitable_orders(mm, vma, addr, pmd, table));
	if (!folio)
		return VM_FAULT_OOM;
	nr = folio_nr_pages(folio);
	start = ALIGN_DOWN(addr, nr * PAGE_SIZE);
	folio_zero_user(folio, addr);
	if (folio_order(folio) == HPAGE_PMD_ORDER) {
		if (pmd_leaf(*pmd)) { /* the huge zero folio */
			pmdp_get_and_clear(mm, start, pmd);
			flush_pmd_tlb_range(mm, start);
		}
		set_pmd_at(mm, start, pmd, pfn_pmd(folio_pfn(folio), prot));
	} else {
		if (pmd_leaf(*pmd) && __split_huge_pmd(mm, pmd, addr)) {
			folio_put(folio);
			return VM_FAULT_OOM;
		}
		pte = pte_alloc_map(mm, pmd, start);
		if (!pte) {
			folio_put(folio);
			return VM_FAULT_OOM;
		}
		clear_zero_ptes(mm, start, pte, nr);
		set_ptes(mm, start, pte, pfn_pte(folio_pfn(folio), prot), nr);
	}
	map_new_anon_folio(folio, mm, vma, start);
	mm->counters[MM_ANONPAGES] += nr;
	return VM_FAULT_OK;
}

/*
 * A read fault in an empty slot: map the zero page read-only, allocating
 * nothing (Linux: do_anonymous_page's "use the zero-page for reads"). Where
 * a PMD-size folio would fit, the huge zero folio is mapped by the PMD
 * instead (Linux: do_huge_pmd_anonymous_page with use_zero_page); if it
 * cannot be had, the 4K zero page.
 */
static enum vm_fault_reason do_anonymous_read(struct mm_struct *mm, struct vm_area_struct *vma,
					      unsigned long addr, pmd_t *pmd)
{
	unsigned long pmd_order = 1ul << HPAGE_PMD_ORDER;
	struct folio *zero;
	pte_t *pte;

	if (pmd_none(*pmd) && (anon_suitable_orders(mm, vma, addr, pmd, NULL) & pmd_order) &&
	    !set_huge_zero_folio(mm, vma, pmd, addr))
		return VM_FAULT_OK;
	zero = mm_get_zero_folio(mm);
	pte = zero ? pte_alloc_map(mm, pmd, addr) : NULL;
	if (!pte)
		return VM_FAULT_OOM;
	set_ptes(mm, ALIGN_DOWN(addr, PAGE_SIZE), pte,
		 pfn_pte(folio_pfn(zero), vm_zero_page_prot(vma)), 1);
	return VM_FAULT_OK;
}

/*
 * A write to a read-only entry of a writable VMA whose folio is ours
 * alone: fork write-protected it, clear_refs 4 took the write bit for
 * soft-dirty tracking, or mprotect gave VM_WRITE back. The one entry
 * becomes young, dirty, soft-dirty and writable, a large folio's other
 * entries untouched. No flush: the faulting access dropped the read-only
 * translation (x86's ptep_set_access_flags). Linux: wp_page_reuse.
 */
static void wp_page_reuse(struct mm_struct *mm, unsigned long addr, pte_t *pte)
{
	set_ptes(mm, addr & ~(PAGE_SIZE - 1), pte, pte_mkwrite(pte_mkdirty(pte_mkyoung(*pte))), 1);
	mm->counters[MM_WP_REUSE]++;
	mm->counters[MM_WP_REUSE_PTES]++;
}

/*
 * May the write reuse folio instead of copying it? Linux 6.15's
 * wp_can_reuse_anon_folio, asked when the page is not known to be
 * exclusive: a small folio when this is its only mapping and only
 * reference (Folium's mappings hold one reference together, so mapcount
 * 1 and refcount 1; Linux's refcount counts each mapping's); a large
 * folio when more than one entry maps it (one: copying the page frees
 * the folio, Linux's choice) and all of them are in one mm, this one
 * (not maybe mapped shared), and nothing else holds it.
 */
static bool wp_can_reuse_anon_folio(struct folio *folio)
{
	if (folio_ref_count(folio) != 1)
		return false; /* isolated for migration or compaction */
	if (folio_test_large(folio))
		return folio_large_mapcount(folio) > 1 && !folio_maybe_mapped_shared(folio);
	return folio_mapcount(folio) == 1;
}

bool wp_reuse_batched = true;

/*
 * Reuse of a whole large folio (Folium's, beyond Linux 6.15, which makes
 * only the faulting entry writable and lets each other page take its own
 * fault): every entry of this PTE table inside vma that maps a page of
 * folio gets the page marked anon-exclusive, and becomes writable unless
 * soft-dirty tracking needs its write fault (Linux's rule in
 * can_change_pte_writable). Only the faulting entry is made dirty and
 * young: the others stay as they were until written.
 */
static void wp_folio_reuse(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
			   pte_t *pte, struct folio *folio)
{
	unsigned long page_addr = addr & ~(PAGE_SIZE - 1);
	unsigned long first = page_addr - ((pte_pfn(*pte) - folio_pfn(folio)) << PAGE_SHIFT);
	unsigned long start = MAX(MAX(first, vma->vm_start), addr & PMD_MASK);
	unsigned long end =
		MIN(MIN(first + folio_size(folio), vma->vm_end), (addr & PMD_MASK) + PMD_SIZE);
	unsigned long idx = (start - first) >> PAGE_SHIFT;
	unsigned int nr = (unsigned int)((end - start) >> PAGE_SHIFT);

	/* vma_soft_dirty_enabled: the VMA tracks soft-dirty by write faults */
	mm->counters[MM_WP_REUSE_PTES] +=
		folio_reuse_ptes(mm, pte - ((page_addr - start) >> PAGE_SHIFT),
				 folio_page(folio, idx), nr, !(vma->vm_flags & VM_SOFTDIRTY));
	/* The faulting entry, writable whatever its soft-dirty bit said. */
	if (!pte_write(*pte))
		mm->counters[MM_WP_REUSE_PTES]++;
	set_ptes(mm, page_addr, pte, pte_mkwrite(pte_mkdirty(pte_mkyoung(*pte))), 1);
	mm->counters[MM_WP_REUSE]++;
}

/* A new order-0 anonymous folio for vma holding a copy of page src
 * (Linux: vmf_anon_prepare, folio_prealloc and __wp_page_copy_user).
 * Return: it, or NULL (the fault is VM_FAULT_OOM). */
static struct folio *anon_copy_of_page(struct mm_struct *mm, struct vm_area_struct *vma,
				       struct page *src)
{
	struct folio *folio;

	if (anon_vma_prepare(mm, vma))
		return NULL;
	folio = folio_alloc_node(mm->nid, anon_folio_gfp(vma, 0), 0);
	if (folio)
		memcpy(folio_address(folio), page_address(src), PAGE_SIZE);
	return folio;
}

/*
 * Copy-on-write of one page (Linux: wp_page_copy): a new order-0 folio
 * gets the page's bytes, the old entry is cleared and flushed (Linux:
 * ptep_clear_flush) before the new one goes in writable and dirty, and
 * the old folio loses this mapping, freed when it was its last (the other
 * mm destroyed meanwhile). A large folio keeps its other pages and is
 * queued for a deferred split, as Linux's folio_remove_rmap_pte does.
 */
static enum vm_fault_reason wp_page_copy(struct mm_struct *mm, struct vm_area_struct *vma,
					 unsigned long addr, pte_t *pte)
{
	unsigned long page = addr & ~(PAGE_SIZE - 1);
	uint64_t prot = pte_mkdirty(vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED);
	struct folio *old = page_folio(pte_page(*pte));
	struct folio *folio = anon_copy_of_page(mm, vma, pte_page(*pte));

	if (!folio)
		return VM_FAULT_OOM;
	ptep_get_and_clear(mm, page, pte);
	flush_tlb_range(mm, page, page + PAGE_SIZE);
	map_new_anon_folio(folio, mm, vma, page);
	set_ptes(mm, page, pte, pfn_pte(folio_pfn(folio), prot), 1);
	/* Linux: folio_remove_rmap_pte's munlock_vma_folio. A large folio's
	 * mlock goes when its last page here is unmapped (zap_munlock_folio). */
	if ((vma->vm_flags & VM_LOCKED) && !folio_test_large(old))
		munlock_folio(old);
	folio_remove_rmap_ptes(old, 1, mm);
	if (!folio_test_anon(old)) { /* a private file mapping's page: now anonymous */
		mm->counters[mm_counter(old)]--;
		mm->counters[MM_ANONPAGES]++;
	}
	if (!folio_mapped(old)) {
		if (!folio_in_page_cache(old)) /* the cache keeps it on its list */
			folio_del_lru(old);
		folio_put(old);
	} else if (folio_test_large(old) && folio_test_anon(old)) {
		deferred_split_folio(old);
	}
	mm->counters[MM_WP_COPY]++;
	return VM_FAULT_OK;
}

bool wp_copy_folio;

/*
 * Folium's whole-folio copy on write (wp_copy_folio, off by default;
 * Linux copies one page): a write to a shared large folio that this VMA
 * maps whole, aligned, in one PTE table gets a new folio of the same
 * order with all of its bytes, mapped writable in one set_ptes; the old
 * folio loses this mm's entries at once. Not for a VM_LOCKED VMA (the
 * per-page path keeps mlock's accounting), nor a PTE-mapped PMD-order
 * folio (a new one of that order is mapped by a PMD, do_huge_pmd_wp_page
 * has no such copy either). Return: true when done;
 * false to copy one page instead (no such block, or no folio of that
 * order free), nothing changed.
 */
static bool wp_folio_copy(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
			  pte_t *pte, struct folio *old)
{
	unsigned int order = folio_order(old);
	unsigned long nr = folio_nr_pages(old), size = folio_size(old);
	unsigned long start = ALIGN_DOWN(addr, size);
	uint64_t prot = pte_mkdirty(vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED);
	pte_t *first = pte - ((ALIGN_DOWN(addr, PAGE_SIZE) - start) >> PAGE_SHIFT);
	struct folio *folio;

	if (!folio_test_large(old) || !folio_test_anon(old) || order >= HPAGE_PMD_ORDER ||
	    (vma->vm_flags & VM_LOCKED) || start < vma->vm_start || start + size > vma->vm_end)
		return false;
	for (unsigned long i = 0; i < nr; i++)
		if (!pte_present(first[i]) || pte_pfn(first[i]) != folio_pfn(old) + i)
			return false;
	if (anon_vma_prepare(mm, vma))
		return false;
	folio = folio_alloc_node(mm->nid, anon_folio_gfp(vma, (int)order) | __GFP_NOWARN, order);
	if (!folio)
		return false;
	memcpy(folio_address(folio), folio_address(old), size);
	get_and_clear_full_ptes(mm, start, first, (unsigned int)nr);
	flush_tlb_range(mm, start, start + size);
	map_new_anon_folio(folio, mm, vma, start);
	set_ptes(mm, start, first, pfn_pte(folio_pfn(folio), prot), (unsigned int)nr);
	folio_remove_rmap_ptes(old, (unsigned int)nr, mm);
	mm->counters[MM_WP_COPY]++;
	if (folio_mapped(old))
		return true; /* the other mm's still */
	folio_del_lru(old);
	folio_put(old);
	return true;
}

/* Linux: do_wp_page for an anonymous folio (the zero page's writes are
 * do_anonymous_write's). Context: vma has VM_WRITE (checked first, so a
 * write to an mprotect'ed read-only VMA stays a SIGSEGV). */
static enum vm_fault_reason do_wp_page(struct mm_struct *mm, struct vm_area_struct *vma,
				       unsigned long addr, pte_t *pte)
{
	struct page *page = pte_page(*pte);
	struct folio *folio = page_folio(page);

	/* Linux: wp_page_shared. A shared mapping writes the file's own
	 * page: it only becomes writable (after mprotect or clear_refs). */
	if (vma->vm_flags & VM_SHARED) {
		wp_page_reuse(mm, addr, pte);
		folio_set_dirty(folio); /* Linux: wp_page_shared's fault_dirty_shared_page */
		return VM_FAULT_OK;
	}
	/* A private mapping's file page is never written in place. */
	if (!folio_test_anon(folio))
		return wp_page_copy(mm, vma, addr, pte);
	if (PageAnonExclusive(page)) { /* ours alone: no need to look further */
		wp_page_reuse(mm, addr, pte);
		return VM_FAULT_OK;
	}
	if (!wp_can_reuse_anon_folio(folio)) {
		if (wp_copy_folio && wp_folio_copy(mm, vma, addr, pte, folio))
			return VM_FAULT_OK;
		return wp_page_copy(mm, vma, addr, pte);
	}
	if (wp_reuse_batched && folio_test_large(folio)) {
		wp_folio_reuse(mm, vma, addr, pte, folio);
		return VM_FAULT_OK;
	}
	SetPageAnonExclusive(page);
	wp_page_reuse(mm, addr, pte);
	return VM_FAULT_OK;
}

/*
 * A fault on a present entry: a write to a read-only one is do_wp_page's
 * (a PMD leaf's do_huge_pmd_wp_page's, which splits a shared one so the
 * PTE path copies the one page); anything else is a stale TLB entry
 * (Linux: spurious fault): flush it and retry.
 */
static enum vm_fault_reason fault_present(struct mm_struct *mm, struct vm_area_struct *vma,
					  unsigned long addr, pmd_t *pmd, pte_t *pte,
					  unsigned int flags)
{
	unsigned long page = addr & ~(PAGE_SIZE - 1);
	int err = 0;

	if ((flags & FAULT_FLAG_WRITE) && (pte ? !pte_write(*pte) : !pmd_write(*pmd))) {
		if (pte)
			return do_wp_page(mm, vma, addr, pte);
		if (do_huge_pmd_wp_page(mm, addr, pmd, &err))
			return VM_FAULT_OK;
		return err ? VM_FAULT_OOM : do_wp_page(mm, vma, addr, pte_offset_map(pmd, addr));
	}
	flush_tlb_range(mm, page, page + PAGE_SIZE);
	return VM_FAULT_OK;
}

/* --- faults of file mappings (Linux: do_read_fault, do_shared_fault) --------------- */

unsigned long vma_file_end_index(const struct vm_area_struct *vma)
{
	return (unsigned long)DIV_ROUND_UP(vma->vm_file->f_inode->size, PAGE_SIZE);
}

/* The protection a file folio is mapped with: a shared VMA's, writable
 * where it is; a private one's read-only (a write copies the page). */
static uint64_t file_page_prot(const struct vm_area_struct *vma)
{
	unsigned long vm_flags = vma->vm_flags & (vma->vm_flags & VM_SHARED ? ~0ul : ~VM_WRITE);

	return vm_get_page_prot(vm_flags) | _PAGE_ACCESSED;
}

void map_file_ptes(struct mm_struct *mm, const struct vm_area_struct *vma, struct folio *folio,
		   unsigned long idx, unsigned int nr, unsigned long addr, pte_t *pte, bool write)
{
	pte_t entry = pfn_pte(folio_pfn(folio) + idx, file_page_prot(vma));

	if (write)
		entry = pte_mkdirty(entry);
	folio_add_file_rmap_ptes(folio, nr, mm);
	mm->counters[mm_counter(folio)] += nr;
	set_ptes(mm, addr, pte, entry, nr);
}

/* The largest folio order a fault at addr (file page pgoff) could map
 * whole: inside the VMA and one PTE table, at an address as aligned as
 * its index (Linux: thp_vma_suitable_order's test, for every order). */
static unsigned int file_fault_max_order(const struct vm_area_struct *vma, unsigned long addr,
					 unsigned long pgoff)
{
	for (unsigned int order = HPAGE_PMD_ORDER; order; order--) {
		unsigned long size = PAGE_SIZE << order, start = ALIGN_DOWN(addr, size);

		if (!(((addr >> PAGE_SHIFT) - pgoff) & ((1ul << order) - 1)) &&
		    start >= vma->vm_start && start + size <= vma->vm_end)
			return order;
	}
	return 0;
}

/*
 * Linux: do_set_pmd. Map a PMD-sized page-cache folio (the one holding
 * file page pgoff) by one PMD leaf at addr's 2 MiB, when the slot is
 * empty, THP is not disabled for the VMA (MADV_NOHUGEPAGE) or the process
 * (PR_SET_THP_DISABLE), and the VMA covers that 2 MiB at an address as
 * aligned as the folio's index. Linux 6.18 maps no PMD across the end of
 * a file, but for shmem, whose PMDs always have (so a page past the end
 * there is not SIGBUS). A private mapping's leaf is read-only: a write
 * takes the leaf away and copies one page (__handle_mm_fault); a shared
 * one's write fault makes it writable and dirty at once.
 * Return: true when mapped; false to map by PTEs instead.
 */
bool do_set_pmd(struct mm_struct *mm, const struct vm_area_struct *vma, pmd_t *pmd,
		struct folio *folio, unsigned long addr, unsigned long pgoff, bool write)
{
	pmd_t entry;

	if (!CONFIG_TRANSPARENT_HUGEPAGE || !pmd_none(*pmd) ||
	    folio_order(folio) != HPAGE_PMD_ORDER || (vma->vm_flags & VM_NOHUGEPAGE) ||
	    (mm->flags & MMF_DISABLE_THP) ||
	    file_fault_max_order(vma, addr, pgoff) != HPAGE_PMD_ORDER)
		return false;
	if (!shmem_mapping(folio->page.mapping) &&
	    folio_next_index(folio) > vma_file_end_index(vma))
		return false;
	entry = pfn_pmd(folio_pfn(folio), file_page_prot(vma));
	if (write)
		entry = pmd_mkdirty(entry);
	mm->counters[mm_counter(folio)] += HPAGE_PMD_NR;
	folio_add_file_rmap_pmd(folio, mm);
	set_pmd_at(mm, addr & PMD_MASK, pmd, entry);
	count_vm_event(folio_pgdat(folio), THP_FILE_MAPPED);
	return true;
}

/*
 * Linux: finish_fault, for the folio the file system gave. In an empty
 * PMD slot a PMD-sized folio is mapped by the PMD (do_set_pmd). Else the
 * whole folio is mapped in one batch of PTEs when all of it lies inside
 * the VMA, this PTE table and the file, and no entry of it is there yet
 * (Linux 6.18's shmem rule); else only the faulting page.
 */
static enum vm_fault_reason finish_fault(struct mm_struct *mm, const struct vm_fault *vmf,
					 pmd_t *pmd)
{
	const struct vm_area_struct *vma = vmf->vma;
	struct folio *folio = vmf->folio;
	unsigned long idx = vmf->pgoff - folio->page.index;
	unsigned long nr = folio_nr_pages(folio);
	unsigned long start = vmf->address - (idx << PAGE_SHIFT);
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	pte_t *pte;

	if (do_set_pmd(mm, vma, pmd, folio, vmf->address, vmf->pgoff, write))
		return VM_FAULT_OK;
	pte = pte_alloc_map(mm, pmd, vmf->address);
	if (!pte)
		return VM_FAULT_OOM;
	if (nr > 1 && start >= vma->vm_start && start + (nr << PAGE_SHIFT) <= vma->vm_end &&
	    (start & PMD_MASK) == ((start + (nr << PAGE_SHIFT) - 1) & PMD_MASK) &&
	    folio_next_index(folio) <= vma_file_end_index(vma) && pte_range_none(pte - idx, nr)) {
		map_file_ptes(mm, vma, folio, 0, (unsigned int)nr, start, pte - idx, write);
		return VM_FAULT_OK;
	}
	if (pte_none(*pte))
		map_file_ptes(mm, vma, folio, idx, 1, vmf->address, pte, write);
	return VM_FAULT_OK;
}

/*
 * Linux: do_cow_fault. A write to a private file mapping's missing page:
 * a new anonymous page gets a copy of the file's, mapped writable and
 * dirty; the file's folio is not mapped here and keeps its bytes.
 */
static enum vm_fault_reason do_cow_fault(struct mm_struct *mm, struct vm_area_struct *vma,
					 const struct vm_fault *vmf, pte_t *pte)
{
	struct page *src = folio_page(vmf->folio, vmf->pgoff - vmf->folio->page.index);
	uint64_t prot = pte_mkdirty(vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED);
	struct folio *folio = anon_copy_of_page(mm, vma, src);

	if (!folio)
		return VM_FAULT_OOM;
	map_new_anon_folio(folio, mm, vma, vmf->address);
	set_ptes(mm, vmf->address, pte, pfn_pte(folio_pfn(folio), prot), 1);
	mm->counters[MM_ANONPAGES]++;
	return VM_FAULT_OK;
}

/*
 * Linux: do_fault for a file mapping's missing entry. A read first maps
 * what the cache holds around it (do_fault_around); if that left the page
 * unmapped, or for a write, the file system finds or makes the folio
 * (vm_ops->fault: shmem_fault, which may say SIGBUS past the end of the
 * file) and finish_fault maps it; a write to a private mapping maps a
 * copy of the page instead (do_cow_fault).
 */
static enum vm_fault_reason do_fault(struct mm_struct *mm, struct vm_area_struct *vma,
				     unsigned long addr, pmd_t *pmd, unsigned int flags)
{
	struct vm_fault vmf = { .vma = vma,
				.address = ALIGN_DOWN(addr, PAGE_SIZE),
				.pgoff = linear_page_index(vma, addr),
				.flags = flags };
	enum vm_fault_reason ret;
	pte_t *pte;

	if (!(flags & FAULT_FLAG_WRITE)) {
		if (filemap_map_pmd(mm, vma, pmd, vmf.address, vmf.pgoff))
			return VM_FAULT_OK;
		pte = pte_alloc_map(mm, pmd, addr);
		if (!pte)
			return VM_FAULT_OOM;
		do_fault_around(mm, vma, vmf.address, vmf.pgoff, pte);
		if (!pte_none(*pte))
			return VM_FAULT_OK;
	}
	vmf.max_order = file_fault_max_order(vma, vmf.address, vmf.pgoff);
	ret = vma->vm_ops->fault(&vmf);
	if (ret != VM_FAULT_OK)
		return ret;
	if ((flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_SHARED)) {
		pte = pte_alloc_map(mm, pmd, addr);
		ret = pte ? do_cow_fault(mm, vma, &vmf, pte) : VM_FAULT_OOM;
	} else {
		ret = finish_fault(mm, &vmf, pmd);
		/* Linux: do_shared_fault's fault_dirty_shared_page (shmem's
		 * noop_dirty_folio: the flag, no writeback). */
		if ((flags & FAULT_FLAG_WRITE) && ret == VM_FAULT_OK)
			folio_set_dirty(vmf.folio);
	}
	folio_put(vmf.folio);
	return ret;
}

/* Linux: __handle_mm_fault, from the PMD slot down. */
static enum vm_fault_reason __handle_mm_fault(struct mm_struct *mm, struct vm_area_struct *vma,
					      unsigned long addr, unsigned int flags)
{
	pmd_t *pmd = pmd_alloc(mm, addr);
	pte_t *pte;

	if (!pmd)
		return VM_FAULT_OOM;
	if (pmd_leaf(*pmd)) {
		if ((flags & FAULT_FLAG_WRITE) && is_huge_zero_pmd(*pmd))
			return do_anonymous_write(mm, vma, addr, pmd);
		/* Linux: wp_huge_pmd for a file mapping, "COW or write-notify
		 * handled on pte level: split pmd": the leaf goes
		 * (__split_huge_file_pmd) and the fault is an empty slot's. */
		if ((flags & FAULT_FLAG_WRITE) && !pmd_write(*pmd) && !vma_is_anonymous(vma)) {
			if (__split_huge_pmd(mm, pmd, addr))
				return VM_FAULT_OOM;
			return do_fault(mm, vma, addr, pmd, flags);
		}
		return fault_present(mm, vma, addr, pmd, NULL, flags);
	}
	pte = pte_offset_map(pmd, addr);
	/* Linux: handle_pte_marker, PTE_MARKER_GUARD → VM_FAULT_SIGSEGV. */
	if (pte && is_guard_pte_marker(*pte))
		return VM_FAULT_SIGSEGV;
	if (pte && pte_present(*pte)) {
		if ((flags & FAULT_FLAG_WRITE) && is_zero_pfn(pte_pfn(*pte)))
			return do_anonymous_write(mm, vma, addr, pmd);
		return fault_present(mm, vma, addr, pmd, pte, flags);
	}
	if (!vma_is_anonymous(vma))
		return do_fault(mm, vma, addr, pmd, flags);
	/* Linux: do_anonymous_page, reads served by the zero page. */
	if (flags & FAULT_FLAG_WRITE)
		return do_anonymous_write(mm, vma, addr, pmd);
	return do_anonymous_read(mm, vma, addr, pmd);
}

enum vm_fault_reason handle_mm_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	enum vm_fault_reason ret;
	bool droppable;

	if (!vma)
		return VM_FAULT_NOVMA;
	/* Without VM_EXEC an instruction fetch is refused, as NX would. */
	if (!(vma->vm_flags & VM_ACCESS_FLAGS) || /* Linux: access_error */
	    ((flags & FAULT_FLAG_INSTRUCTION) && !(vma->vm_flags & VM_EXEC)) ||
	    ((flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_WRITE)))
		return VM_FAULT_ACCESS;
	/* Linux: mm_account_fault, for faults past the access checks,
	 * whatever they end in. A major fault is one that waited for I/O:
	 * there is none without swap or a disk (PGMAJFAULT stays 0). */
	mm->counters[MM_FAULTS]++;
	count_vm_event(NODE_DATA(mm->nid), PGFAULT);
	if (is_vm_hugetlb_page(vma)) /* Linux: handle_mm_fault's hugetlb branch */
		return hugetlb_fault(mm, vma, addr, flags);
	/* The tables a first touch of an empty region needs, in one bulk
	 * allocation; what the fault leaves unused goes back. */
	pgtable_prealloc(mm, addr);
	droppable = vma->vm_flags & VM_DROPPABLE;
	ret = __handle_mm_fault(mm, vma, addr, flags);
	pgtable_prealloc_release(mm);
	/* Linux: "If the mapping is droppable, then errors due to OOM aren't
	 * fatal": nothing is mapped, the access faults again once reclaim
	 * has dropped something. */
	if (ret == VM_FAULT_OOM && droppable)
		ret = VM_FAULT_OK;
	return ret;
}

struct page *get_user_page(struct mm_struct *mm, unsigned long addr, bool write)
{
	struct page *page = follow_page(mm, addr, write);

	/* Linux: faultin_page, then the walk again. */
	if (!page && handle_mm_fault(mm, addr, write ? FAULT_FLAG_WRITE : 0) == VM_FAULT_OK)
		page = follow_page(mm, addr, write);
	return page;
}

/* --- fork: copying the entries (Linux: copy_page_range) ----------------------------- */

bool fork_copy_batched = true;

struct copy_state {
	struct mm_struct *dst_mm;
	const struct vm_area_struct *src_vma;
};

/*
 * Linux: copy_present_ptes, for the present entry at @src_pte (@addr) and
 * at most @max_nr after it in the same table and VMA. An anonymous
 * folio's entries are write-protected in the parent and copied read-only
 * and old to the child, and the folio counts that many more mappings
 * (folio_try_dup_anon_rmap_ptes; Folium pins no page, so none must be
 * copied instead) and the child that many more pages of RSS; the zero
 * page is shared as it is. A large folio's run of entries mapping
 * consecutive pages of it (folio_pte_batch, the dirty bit, and the
 * soft-dirty bit while the VMA tracks it, the same in all, as the child
 * gets one value for all) is copied at once: one rmap update, one
 * wrprotect_ptes, one set_ptes. fork_copy_batched off copies one entry at
 * a time, as Linux did before 6.9. Return: the entries copied.
 */
static unsigned int copy_present_ptes(struct copy_state *c, struct mm_struct *src_mm,
				      pte_t *src_pte, pte_t *dst_pte, unsigned long addr,
				      unsigned int max_nr)
{
	pte_t pte = *src_pte;
	struct folio *folio;
	bool any_writable = pte_write(pte);
	unsigned int nr = 1;

	if (is_zero_pfn(pte_pfn(pte))) {
		set_ptes(c->dst_mm, addr, dst_pte, pte_mkold(pte), 1);
		return 1;
	}
	folio = page_folio(pte_page(pte));
	if (fork_copy_batched && folio_test_large(folio) && max_nr > 1) {
		unsigned int flags = FPB_RESPECT_DIRTY;

		/* Linux: vma_soft_dirty_enabled. */
		if (!(c->src_vma->vm_flags & VM_SOFTDIRTY))
			flags |= FPB_RESPECT_SOFT_DIRTY;
		nr = folio_pte_batch_flags(folio, src_pte, pte, max_nr, flags, NULL, NULL,
					   &any_writable);
	}
	/* A private file mapping's page of the file: read-only in both. */
	if (folio_test_anon(folio))
		folio_dup_anon_rmap_ptes(folio, pte_page(pte), nr, c->dst_mm);
	else
		folio_add_file_rmap_ptes(folio, nr, c->dst_mm);
	c->dst_mm->counters[mm_counter(folio)] += nr;
	c->dst_mm->counters[MM_FORK_COPY_BATCHES]++;
	/* Linux: is_cow_mapping; every Folium VMA is private. */
	if (any_writable)
		wrprotect_ptes(src_mm, addr, src_pte, nr);
	set_ptes(c->dst_mm, addr, dst_pte, pte_mkold(pte_wrprotect(pte)), nr);
	return nr;
}

/* A PMD leaf is copied whole (copy_huge_pmd); a PTE table gets its twin
 * in the child, filled batch by batch (Linux: copy_pte_range), and a
 * guard marker is copied as it is (copy_nonpresent_pte's PTE markers). */
static int copy_pmd_range(pmd_t *src_pmd, unsigned long addr, unsigned long next,
			  struct mm_walk *walk)
{
	struct copy_state *c = walk->private;
	pmd_t *dst_pmd = pmd_alloc(c->dst_mm, addr);
	pte_t *src_pte, *dst_pte;
	unsigned int nr;

	if (!dst_pmd)
		return -ENOMEM;
	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*src_pmd)) {
		copy_huge_pmd(c->dst_mm, walk->mm, dst_pmd, src_pmd, addr & PMD_MASK);
		return 0;
	}
	dst_pte = pte_alloc_map(c->dst_mm, dst_pmd, addr);
	src_pte = pte_offset_map(src_pmd, addr);
	if (!dst_pte)
		return -ENOMEM;
	for (; addr < next; addr += nr * PAGE_SIZE, src_pte += nr, dst_pte += nr) {
		nr = 1;
		if (pte_present(*src_pte))
			nr = copy_present_ptes(c, walk->mm, src_pte, dst_pte, addr,
					       (unsigned int)((next - addr) >> PAGE_SHIFT));
		else if (is_pte_marker(*src_pte))
			set_ptes(c->dst_mm, addr, dst_pte, *src_pte, 1);
	}
	return 0;
}

static const struct mm_walk_ops copy_walk_ops = {
	.pmd_entry = copy_pmd_range,
};

int copy_page_range(struct mm_struct *dst_mm, struct mm_struct *src_mm,
		    const struct vm_area_struct *src_vma)
{
	struct copy_state c = { .dst_mm = dst_mm, .src_vma = src_vma };

	if (is_vm_hugetlb_page(src_vma))
		return copy_hugetlb_page_range(dst_mm, src_mm, src_vma);
	return walk_page_range(src_mm, src_vma->vm_start, src_vma->vm_end, &copy_walk_ops, &c);
}

/* --- unmapping a file's pages from every mm (Linux: unmap_mapping_range) ----------- */

void unmap_mapping_pages(struct address_space *mapping, unsigned long start, unsigned long nr,
			 bool even_cows)
{
	unsigned long last = nr > ULONG_MAX - start ? ULONG_MAX : start + nr - 1;
	struct rmap_member *m;

	list_for_each_entry(m, &mapping->i_mmap, node) {
		struct mm_struct *mm = m->mm;

		for (int i = 0; i < mm->nr_vmas; i++) {
			const struct vm_area_struct *vma = &mm->vmas[i];
			unsigned long vstart = vma->vm_pgoff;
			unsigned long vlast =
				vstart + ((vma->vm_end - vma->vm_start) >> PAGE_SHIFT) - 1;

			if (!vma->vm_file || vma->vm_file->f_inode->i_mapping != mapping ||
			    vlast < start || vstart > last)
				continue;
			/* No PMD leaf maps a file here, so nothing can fail. */
			if (even_cows || (vma->vm_flags & VM_SHARED))
				zap_page_range(mm, vma_address(vma, MAX(start, vstart)),
					       vma_address(vma, MIN(last, vlast) + 1));
			else
				zap_file_pages(mm, vma_address(vma, MAX(start, vstart)),
					       vma_address(vma, MIN(last, vlast) + 1));
		}
	}
}

/* --- reading another address space ---------------------------------------------- */

/* The kernel address of the page a present entry maps. */
struct remote_page {
	void *kaddr;
};

static int remote_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct remote_page *rp = walk->private;

	(void)addr;
	rp->kaddr = page_address(pfn_to_page(pte_pfn(*ptep)));
	return 0;
}

static int remote_pmd_entry(pmd_t *pmdp, unsigned long addr, unsigned long next,
			    struct mm_walk *walk)
{
	struct remote_page *rp = walk->private;

	(void)next;
	if (!pmd_leaf(*pmdp))
		return 0; /* ACTION_SUBTREE: its PTEs */
	walk->action = ACTION_CONTINUE;
	rp->kaddr = (char *)page_address(pfn_to_page(pmd_pfn(*pmdp))) + (addr % PMD_SIZE);
	return 0;
}

static const struct mm_walk_ops remote_walk_ops = {
	.pte_entry = remote_pte_entry,
	.pmd_entry = remote_pmd_entry,
};

/*
 * Linux: access_remote_vm for a read. Copy from @mm's user range [addr,
 * +len) page by page through the direct map, from what the page tables
 * map now; unlike Linux's GUP, nothing is faulted in: the copy stops at
 * the first page not present (argv and envp, what /proc reads, were
 * written by exec and are). Return: the bytes copied. Context: the
 * caller holds a reference on @mm (mmget).
 */
size_t access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		size_t n = MIN(len - done, PAGE_SIZE - addr % PAGE_SIZE);
		unsigned long page = ALIGN_DOWN(addr, PAGE_SIZE);
		struct remote_page rp = { NULL };

		walk_page_range(mm, page, page + PAGE_SIZE, &remote_walk_ops, &rp);
		if (!rp.kaddr)
			break;
		memcpy((char *)buf + done, (char *)rp.kaddr + addr % PAGE_SIZE, n);
		done += n;
		addr += n;
	}
	return done;
}
