/*
 * Batching TLB flushes and frees over a range (Linux: mm/mmu_gather.c).
 * Whoever changes entries records their addresses; the gather flushes the
 * smallest range that covers them, once, and only then drops the
 * references of folios whose last mapping went. Example: zapping a 1 MiB
 * range that maps four 64K folios clears 64 PTEs, gathers 4 folios and
 * ends with one flush of the 1 MiB (above the 33-page ceiling: one full
 * flush), then frees the 4 folios.
 */
#include <hugetlb.h>
#include <vm.h>

void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm)
{
	*tlb = (struct mmu_gather){ .mm = mm };
}

/* Grow the recorded range to cover [start, end) (Linux: __tlb_adjust_range). */
static void tlb_adjust_range(struct mmu_gather *tlb, unsigned long start, unsigned long end)
{
	if (tlb->start >= tlb->end) {
		tlb->start = start;
		tlb->end = end;
		return;
	}
	tlb->start = MIN(tlb->start, start);
	tlb->end = MAX(tlb->end, end);
}

void tlb_remove_tlb_entries(struct mmu_gather *tlb, unsigned long addr, unsigned long nr)
{
	tlb_adjust_range(tlb, addr, addr + nr * PAGE_SIZE);
}

void tlb_remove_pmd_tlb_entry(struct mmu_gather *tlb, unsigned long addr)
{
	addr &= PMD_MASK;
	tlb_adjust_range(tlb, addr, addr + PMD_SIZE);
}

void tlb_remove_pud_tlb_entry(struct mmu_gather *tlb, unsigned long addr)
{
	addr &= PUD_MASK;
	tlb_adjust_range(tlb, addr, addr + PUD_SIZE);
}

void tlb_flush_mmu(struct mmu_gather *tlb)
{
	if (tlb->start < tlb->end)
		flush_tlb_range(tlb->mm, tlb->start, tlb->end);
	tlb->start = tlb->end = 0;
	for (unsigned int i = 0; i < tlb->nr; i++) {
		struct folio *folio = tlb->folios[i];

		/* A HugeTLB page goes back to its pool (Linux: folios_put_refs). */
		if (PageFlag(&folio->page, PG_hugetlb) && folio->page._refcount == 1)
			free_huge_folio(folio);
		else
			folio_put(folio);
	}
	tlb->nr = 0;
}

/* A full batch forces an early flush, as Linux's tlb_flush_mmu. */
void tlb_remove_folio(struct mmu_gather *tlb, struct folio *folio)
{
	if (tlb->nr == MMU_GATHER_BATCH)
		tlb_flush_mmu(tlb);
	tlb->folios[tlb->nr++] = folio;
}

void tlb_finish_mmu(struct mmu_gather *tlb)
{
	tlb_flush_mmu(tlb);
}
