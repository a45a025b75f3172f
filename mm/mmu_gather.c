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
	tlb->local = (struct mmu_gather_batch){ NULL, 0, MMU_GATHER_BUNDLE, tlb->bundle };
	tlb->active = &tlb->local;
}

/* The next batch to fill: one kept from before, or a new page-sized one
 * (Linux: tlb_next_batch). Return: false when there is none to be had. */
static bool tlb_next_batch(struct mmu_gather *tlb)
{
	struct mmu_gather_batch *batch;
	struct page *page;

	if (tlb->active->next) {
		tlb->active = tlb->active->next;
		return true;
	}
	if (tlb->batch_count == MAX_GATHER_BATCH_COUNT)
		return false;
	page = alloc_pages_node(tlb->mm->nid, GFP_NOWAIT | __GFP_NOWARN, 0);
	if (!page)
		return false;
	batch = page_address(page);
	*batch = (struct mmu_gather_batch){ NULL, 0, MAX_GATHER_BATCH,
					    (struct folio **)(batch + 1) };
	tlb->batch_count++;
	tlb->active->next = batch;
	tlb->active = batch;
	return true;
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

/* Linux: tlb_batch_pages_flush's folios_put_refs, one batch. */
static void tlb_free_batch_folios(struct mmu_gather_batch *b)
{
	for (unsigned int i = 0; i < b->nr; i++) {
		struct folio *folio = b->folios[i];

		/* A HugeTLB page goes back to its pool (Linux: folios_put_refs). */
		if (PageFlag(&folio->page, PG_hugetlb) && folio->page._refcount == 1)
			free_huge_folio(folio);
		else
			folio_put(folio);
	}
}

void tlb_flush_mmu(struct mmu_gather *tlb)
{
	if (tlb->start < tlb->end)
		flush_tlb_range(tlb->mm, tlb->start, tlb->end);
	tlb->start = tlb->end = 0;
	for (struct mmu_gather_batch *b = &tlb->local; b && b->nr; b = b->next) {
		tlb_free_batch_folios(b);
		b->nr = 0;
	}
	tlb->active = &tlb->local;
}

/* A full batch takes the next; with none to be had the gather flushes
 * early and starts over (Linux: __tlb_remove_folio_pages returning true,
 * then tlb_flush_mmu). */
void tlb_remove_folio(struct mmu_gather *tlb, struct folio *folio)
{
	struct mmu_gather_batch *batch = tlb->active;

	batch->folios[batch->nr++] = folio;
	if (batch->nr == batch->max && !tlb_next_batch(tlb))
		tlb_flush_mmu(tlb);
}

/* The flush, then the batch pages go back (Linux: tlb_batch_list_free). */
void tlb_finish_mmu(struct mmu_gather *tlb)
{
	struct mmu_gather_batch *b = tlb->local.next;

	tlb_flush_mmu(tlb);
	while (b) {
		struct mmu_gather_batch *next = b->next;

		__free_pages(virt_to_page(b), 0);
		b = next;
	}
	tlb->local.next = NULL;
	tlb->batch_count = 0;
}
