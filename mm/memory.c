/*
 * Anonymous page faults: check the access against the VMA, then map a
 * zeroed folio of the largest enabled order that fits (Linux:
 * handle_mm_fault → do_anonymous_page → alloc_anon_folio). Example: with
 * `thp 16K,64K` a write at 0x40005000 in the VMA [0x40000000, 0x40012000)
 * tries the 64K range 0x40000000..0x4000ffff (inside, PTEs none: order 4),
 * and a later fault at 0x40011000 finds its 64K range past the VMA end
 * and its 16K range 0x40010000..0x40013fff too, so it maps one page.
 */
#include <vm.h>

const char *vm_fault_reason_name(enum vm_fault_reason reason)
{
	static const char *const names[] = {
		[VM_FAULT_OK] = "ok",
		[VM_FAULT_NOVMA] = "no mapping at this address",
		[VM_FAULT_ACCESS] = "access not allowed by the mapping",
		[VM_FAULT_OOM] = "out of memory",
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

/* Are all nr PTEs from ptep empty? Linux: pte_range_none. */
static bool pte_range_none(const pte_t *ptep, unsigned long nr)
{
	for (unsigned long i = 0; i < nr; i++)
		if (!pte_none(ptep[i]))
			return false;
	return true;
}

/*
 * The orders a fault at addr may use now, as a bitmask (order 0 always):
 * enabled, inside the VMA, and every entry of the range empty. table is
 * the PTE table covering addr (its first slot), or NULL when the PMD is
 * none (then every PTE order fits). The PMD order needs the PMD none.
 */
static unsigned long anon_suitable_orders(const struct vm_area_struct *vma, unsigned long addr,
					  const pmd_t *pmd, const pte_t *table)
{
	unsigned long orders = 1;

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return orders; /* Linux: thp_vma_allowable_orders is 0 */
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		unsigned long nr = 1ul << order;
		bool empty;

		if (!(thp_orders_enabled & (1ul << order)) ||
		    !thp_vma_suitable_order(vma, addr, order))
			continue;
		if (order == HPAGE_PMD_ORDER)
			empty = pmd_none(*pmd);
		else
			empty = !table || pte_range_none(table + (pte_index(addr) & ~(nr - 1)), nr);
		if (empty)
			orders |= 1ul << order;
	}
	return orders;
}

/*
 * Allocate the largest folio among orders, falling back one enabled order
 * at a time when the allocator has no block (counted per order as
 * Linux's anon_fault_fallback). Return: the folio, or NULL if even order 0
 * failed. No __GFP_ZERO: folio_zero_user clears it, fault page last.
 */
static struct folio *alloc_anon_folio(struct mm_struct *mm, unsigned long orders)
{
	for (int order = HPAGE_PMD_ORDER; order >= 0; order--) {
		struct folio *folio;

		if (!(orders & (1ul << order)))
			continue;
		folio = folio_alloc_node(mm->nid, GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, order);
		if (folio) {
			mthp_stats[order][MTHP_STAT_ANON_FAULT_ALLOC]++;
			return folio;
		}
		if (order)
			mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK]++;
	}
	return NULL;
}

/*
 * Map a new folio for a fault in an empty slot: one set_ptes() for all its
 * pages, or one PMD leaf for a PMD-order folio. The entries are young (the
 * access is happening) and dirty for a write fault; Linux makes every
 * anon PTE of a writable VMA dirty, Folium leaves a read fault's clean so
 * the dirty bit shows who wrote.
 */
static enum vm_fault_reason do_anonymous_page(struct mm_struct *mm, struct vm_area_struct *vma,
					      unsigned long addr, pmd_t *pmd, unsigned int flags)
{
	pte_t *table = pte_offset_map(pmd, addr & PMD_MASK);
	uint64_t prot = vm_get_page_prot(vma->vm_flags) | _PAGE_ACCESSED;
	struct folio *folio;
	unsigned long nr, start;
	pte_t *pte;

	if (flags & FAULT_FLAG_WRITE)
		prot |= _PAGE_DIRTY;
	folio = alloc_anon_folio(mm, anon_suitable_orders(vma, addr, pmd, table));
	if (!folio)
		return VM_FAULT_OOM;
	nr = folio_nr_pages(folio);
	start = ALIGN_DOWN(addr, nr * PAGE_SIZE);
	folio_zero_user(folio, addr);
	if (folio_order(folio) == HPAGE_PMD_ORDER) {
		set_pmd_at(mm, start, pmd, pfn_pmd(folio_pfn(folio), prot));
	} else {
		pte = pte_alloc_map(mm, pmd, start);
		if (!pte) {
			folio_put(folio);
			return VM_FAULT_OOM;
		}
		set_ptes(mm, start, pte, pfn_pte(folio_pfn(folio), prot), nr);
	}
	folio_set_anon(folio);
	folio_set_swapbacked(folio);
	folio_add_new_anon_rmap(folio, mm, start);
	folio_add_lru(folio);
	mm->counters[MM_ANONPAGES] += nr;
	return VM_FAULT_OK;
}

/*
 * A fault on a present entry. Without COW a write to a read-only entry
 * of a writable VMA cannot arise from Folium's own mappings; if it does
 * (e.g. a test wrote the entry), make it writable, as Linux's
 * do_wp_page would for an exclusive anon page. Anything else is a stale
 * TLB entry (Linux: spurious fault): flush it and retry.
 */
static enum vm_fault_reason fault_present(struct mm_struct *mm, unsigned long addr, pmd_t *pmd,
					  pte_t *pte, unsigned int flags)
{
	unsigned long page = addr & ~(PAGE_SIZE - 1);

	if ((flags & FAULT_FLAG_WRITE) && pte && !pte_write(*pte)) {
		pte_t entry = ptep_get_and_clear(mm, page, pte);

		set_ptes(mm, page, pte, pte_mkdirty(pte_mkwrite(entry)), 1);
	} else if ((flags & FAULT_FLAG_WRITE) && !pte && !pmd_write(*pmd)) {
		pmd_t entry = pmdp_get_and_clear(mm, addr & PMD_MASK, pmd);

		set_pmd_at(mm, addr & PMD_MASK, pmd, pmd_mkdirty(entry | _PAGE_RW));
	}
	flush_tlb_range(mm, page, page + PAGE_SIZE);
	return VM_FAULT_OK;
}

enum vm_fault_reason handle_mm_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	pmd_t *pmd;
	pte_t *pte;

	if (!vma)
		return VM_FAULT_NOVMA;
	/* No VM_EXEC: every instruction fetch is refused, as NX would. */
	if (!(vma->vm_flags & VM_READ) || (flags & FAULT_FLAG_INSTRUCTION) ||
	    ((flags & FAULT_FLAG_WRITE) && !(vma->vm_flags & VM_WRITE)))
		return VM_FAULT_ACCESS;
	mm->counters[MM_FAULTS]++;
	pmd = pmd_alloc(mm, addr);
	if (!pmd)
		return VM_FAULT_OOM;
	if (pmd_leaf(*pmd))
		return fault_present(mm, addr, pmd, NULL, flags);
	pte = pte_offset_map(pmd, addr);
	if (pte && pte_present(*pte))
		return fault_present(mm, addr, pmd, pte, flags);
	return do_anonymous_page(mm, vma, addr, pmd, flags);
}
