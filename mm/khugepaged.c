/*
 * MADV_COLLAPSE of anonymous memory (Linux: mm/khugepaged.c,
 * madvise_collapse → hpage_collapse_scan_pmd → collapse_huge_page): each
 * PMD-aligned 2 MiB of the range that a PTE table maps becomes one
 * PMD-size folio mapped by one PMD. The present pages are copied in,
 * none and zero-page entries read as zeroes, then the PMD is cleared and
 * flushed, the old folios and the table freed and the new PMD set.
 * Folium runs one task at a time and has no khugepaged thread: collapse
 * happens only here, when a program asks, with MADV_COLLAPSE's rules
 * (Linux's cc->is_khugepaged false): the max_ptes_none/swap/shared limits
 * and the "enough young pages" check are khugepaged's and do not apply.
 * Example: 2 MiB of 64K folios, one of them MADV_DONTNEED'ed: 31 folios
 * copied, 16 pages zeroed, one 2M folio mapped; thp_collapse_alloc += 1.
 */
#include <vm.h>

/* Linux's scan results that Folium can meet. */
enum scan_result {
	SCAN_SUCCEED,
	SCAN_PMD_NULL,		   /* no PMD table at all */
	SCAN_PMD_NONE,		   /* the PMD is empty: nothing to collapse */
	SCAN_PMD_MAPPED,	   /* already a PMD leaf */
	SCAN_PTE_NON_PRESENT,	   /* a guard marker, found after the allocation */
	SCAN_PAGE_RO,		   /* no writable PTE */
	SCAN_PAGE_LRU,		   /* a folio off the LRU */
	SCAN_PAGE_LOCK,		   /* a folio locked */
	SCAN_PAGE_COUNT,	   /* a folio referenced beyond its mappings */
	SCAN_ALLOC_HUGE_PAGE_FAIL, /* no PMD-size folio */
};

/* Linux: madvise_collapse_errno. MADV_COLLAPSE tells the caller why, so
 * it can fall back: no memory, try again later, or pointless here. */
static int madvise_collapse_errno(enum scan_result r)
{
	switch (r) {
	case SCAN_ALLOC_HUGE_PAGE_FAIL:
		return -ENOMEM;
	case SCAN_PAGE_COUNT:
	case SCAN_PAGE_LOCK:
	case SCAN_PAGE_LRU:
		return -EAGAIN;
	default:
		return -EINVAL;
	}
}

/* Linux: pte_none_or_zero. */
static bool pte_none_or_zero(pte_t pte)
{
	return pte_none(pte) || (pte_present(pte) && is_zero_pfn(pte_pfn(pte)));
}

/* Linux: find_pmd_or_thp_or_none. */
static enum scan_result find_pmd_or_thp_or_none(struct mm_struct *mm, unsigned long haddr,
						pmd_t **pmdp)
{
	*pmdp = mm_find_pmd(mm, haddr);
	if (!*pmdp)
		return SCAN_PMD_NULL;
	if (pmd_none(**pmdp))
		return SCAN_PMD_NONE;
	return pmd_leaf(**pmdp) ? SCAN_PMD_MAPPED : SCAN_SUCCEED;
}

/*
 * Can the 512 entries of the PTE table at pmd be collapsed? Every present
 * folio must be on the LRU, unlocked and held only by its mappings. A
 * non-present entry is counted (*unmapped) and passed over: MADV_COLLAPSE
 * has no max_ptes_swap limit, and Linux meets the guard marker only
 * after the allocation, in __collapse_huge_page_swapin. In a writable
 * VMA one entry at least must be writable (zero pages alone are
 * SCAN_PAGE_RO); a read-only VMA's zero pages collapse. That is what
 * Linux 7.3 does in mmdiff's collapse-errors step, its source since
 * "khugepaged: allow collapsing read-only anon" having dropped the
 * writable check. Linux: hpage_collapse_scan_pmd with
 * __collapse_huge_page_isolate's checks.
 */
static enum scan_result hpage_collapse_scan_pmd(const struct vm_area_struct *vma, pmd_t *pmd,
						unsigned long haddr, unsigned int *unmapped)
{
	const pte_t *pte = pte_offset_map(pmd, haddr);
	bool writable = false;

	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		struct folio *folio;

		if (pte_none_or_zero(pte[i]))
			continue;
		if (!pte_present(pte[i])) {
			(*unmapped)++;
			continue;
		}
		writable |= pte_write(pte[i]);
		folio = page_folio(pte_page(pte[i]));
		if (!folio_test_lru(folio))
			return SCAN_PAGE_LRU;
		if (folio_test_locked(folio))
			return SCAN_PAGE_LOCK;
		if (folio_ref_count(folio) != 1) /* Linux: folio_expected_ref_count */
			return SCAN_PAGE_COUNT;
	}
	return writable || *unmapped || !(vma->vm_flags & VM_WRITE) ? SCAN_SUCCEED : SCAN_PAGE_RO;
}

/* Copy the 512 pages the detached table maps into folio (zeroes for none
 * and zero-page entries), then empty the table and free every old folio
 * whose last mapping this was (Linux: __collapse_huge_page_copy and
 * __collapse_huge_page_copy_succeeded). Context: the PMD no longer
 * points to the table and its translations are flushed. */
static void collapse_copy_and_free(struct mm_struct *mm, pte_t *pte, unsigned long haddr,
				   struct folio *folio)
{
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++) {
		void *dst = page_address(folio_page(folio, i));
		unsigned long addr = haddr + i * PAGE_SIZE;
		struct folio *old;

		if (pte_none_or_zero(pte[i])) {
			clear_pages(dst, 1);
			if (!pte_none(pte[i]))
				ptep_get_and_clear(mm, addr, &pte[i]);
			continue;
		}
		memcpy(dst, page_address(pte_page(pte[i])), PAGE_SIZE);
		old = page_folio(pte_page(ptep_get_and_clear(mm, addr, &pte[i])));
		folio_remove_rmap_ptes(old, 1, mm);
		mm->counters[MM_ANONPAGES]--;
		if (!folio_mapped(old)) {
			folio_del_lru(old);
			folio_put(old);
		}
	}
}

/* Linux: collapse_huge_page for the PMD at haddr, its table scanned. The
 * folio comes first (with direct compaction: GFP_TRANSHUGE, as Linux's
 * non-khugepaged collapse), so a failed allocation changes nothing. */
static enum scan_result collapse_huge_page(struct mm_struct *mm, struct vm_area_struct *vma,
					   pmd_t *pmd, unsigned long haddr, unsigned int unmapped)
{
	uint64_t prot = vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED | _PAGE_DIRTY;
	struct pglist_data *pgdat = NODE_DATA(mm->nid);
	struct folio *folio;
	pmd_t old;

	folio = anon_vma_prepare(mm, vma)
			? NULL
			: folio_alloc_node(mm->nid, GFP_TRANSHUGE | __GFP_NOWARN, HPAGE_PMD_ORDER);
	if (!folio) {
		count_vm_event(pgdat, THP_COLLAPSE_ALLOC_FAILED);
		return SCAN_ALLOC_HUGE_PAGE_FAIL;
	}
	count_vm_event(pgdat, THP_COLLAPSE_ALLOC);
	/* Linux: __collapse_huge_page_swapin finds no swap entry behind a
	 * non-present PTE, only a marker: give up, the folio goes back. */
	if (unmapped) {
		folio_put(folio);
		return SCAN_PTE_NON_PRESENT;
	}
	/* Linux: pmdp_collapse_flush. */
	old = pmdp_get_and_clear(mm, haddr, pmd);
	flush_tlb_range(mm, haddr, haddr + PMD_SIZE);
	collapse_copy_and_free(mm, __va(old & PTE_ADDR_MASK), haddr, folio);
	pte_free(mm, pfn_to_page(pmd_pfn(old)));
	folio_set_anon(folio);
	if (!(vma->vm_flags & VM_DROPPABLE)) /* Linux: folio_add_new_anon_rmap */
		folio_set_swapbacked(folio);
	folio_add_new_anon_rmap(folio, mm, vma, haddr);
	folio_add_lru(folio);
	set_pmd_at(mm, haddr, pmd, pfn_pmd(folio_pfn(folio), prot));
	mm->counters[MM_ANONPAGES] += HPAGE_PMD_NR;
	return SCAN_SUCCEED;
}

/*
 * May this VMA have a PMD-size folio by MADV_COLLAPSE? The sysfs modes do
 * not count (a collapse is explicit advice), MADV_NOHUGEPAGE and
 * PR_SET_THP_DISABLE do, and the VMA must hold one aligned 2 MiB block.
 * Linux: thp_vma_allowable_order(..., TVA_FORCED_COLLAPSE, PMD_ORDER).
 */
static bool collapse_allowed(const struct mm_struct *mm, const struct vm_area_struct *vma)
{
	/* A file VMA's collapse (Linux: collapse_file, into the page
	 * cache) is not served: anonymous memory only. */
	if (!CONFIG_TRANSPARENT_HUGEPAGE || (vma->vm_flags & VM_NOHUGEPAGE) ||
	    (mm->flags & MMF_DISABLE_THP) || !vma_is_anonymous(vma))
		return false;
	return ALIGN_UP(vma->vm_start, PMD_SIZE) + PMD_SIZE <= vma->vm_end;
}

int madvise_collapse(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		     unsigned long end)
{
	unsigned long hstart = ALIGN_UP(start, PMD_SIZE), hend = ALIGN_DOWN(end, PMD_SIZE);
	enum scan_result last_fail = SCAN_SUCCEED;
	unsigned long thps = 0;

	/* Linux 7.3 says -EINVAL for a range with no whole PMD in it too. */
	if (!collapse_allowed(mm, vma) || hstart >= hend)
		return -EINVAL;
	for (unsigned long addr = hstart; addr < hend; addr += PMD_SIZE) {
		enum scan_result result;
		unsigned int unmapped = 0;
		pmd_t *pmd;

		result = find_pmd_or_thp_or_none(mm, addr, &pmd);
		if (result == SCAN_SUCCEED)
			result = hpage_collapse_scan_pmd(vma, pmd, addr, &unmapped);
		if (result == SCAN_SUCCEED)
			result = collapse_huge_page(mm, vma, pmd, addr, unmapped);
		switch (result) {
		case SCAN_SUCCEED:
		case SCAN_PMD_MAPPED:
			thps++;
			break;
		/* Linux's whitelist: the next range may still collapse. */
		case SCAN_PMD_NULL:
		case SCAN_PTE_NON_PRESENT:
		case SCAN_PAGE_COUNT:
		case SCAN_PAGE_LOCK:
		case SCAN_PAGE_LRU:
			last_fail = result;
			break;
		default:
			return madvise_collapse_errno(result);
		}
	}
	return thps == (hend - hstart) / PMD_SIZE ? 0 : madvise_collapse_errno(last_fail);
}
