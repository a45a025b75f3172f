/*
 * madvise(MADV_FREE | MADV_DONTNEED). MADV_FREE makes anonymous memory
 * lazily freeable: young and dirty are cleared and the folio goes on the
 * lazyfree list, so reclaim may drop it unless it is written again.
 * Batched (Linux since "mm/madvise: optimize lazyfreeing with mTHP in
 * madvise_free"): a 64K folio mapped by 16 PTEs inside the range is one
 * folio_pte_batch() + one clear_young_dirty_ptes() (16 PTE writes), and a
 * 1 MiB range gets one TLB flush at the end. Split (the older path): the
 * same folio is split into 16 pages, each PTE cleared and flushed alone.
 * A folio only partly inside the range is split in both modes. Both run
 * as the walker's pmd_entry; PMD leaves and splitting are THP code
 * (mm/huge_memory.c).
 */
#include <vm.h>

enum lazyfree_mode lazyfree_mode = LAZYFREE_BATCHED;

/* --- MADV_FREE, batched -------------------------------------------------------------- */

/* Is folio mapped by exactly the nr PTEs of this run, all of it, by mm? */
static bool folio_run_is_whole(struct folio *folio, struct mm_struct *mm, pte_t pte,
			       unsigned int nr)
{
	return pte_pfn(pte) == folio_pfn(folio) && nr == folio_nr_pages(folio) &&
	       folio_mapcount(folio) == (int)nr && folio_anon_mm(folio) == mm;
}

/* Clear young and dirty on a run of nr PTEs mapping folio, mark it lazyfree. */
static void madvise_free_run(struct mmu_gather *tlb, struct folio *folio, unsigned long addr,
			     pte_t *ptep, unsigned int nr)
{
	const unsigned int cydp_flags = CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY;
	pte_t bits = 0;

	for (unsigned int i = 0; i < nr; i++)
		bits |= ptep[i];
	if (bits & (_PAGE_ACCESSED | _PAGE_DIRTY)) {
		clear_young_dirty_ptes(tlb->mm, addr, ptep, nr, cydp_flags);
		tlb_remove_tlb_entries(tlb, addr, nr);
	}
	folio_mark_lazyfree(folio);
}

/*
 * The present PTE at addr. Return: how many PTEs were handled (a whole
 * folio's run, or a skipped one), or 0 after a split: look again, the PTE
 * now maps an order-0 folio. Linux: the loop body of madvise_free_pte_range.
 */
static unsigned int madvise_free_pte(struct mmu_gather *tlb, pte_t *ptep, unsigned long addr,
				     unsigned long end)
{
	struct folio *folio = page_folio(pte_page(*ptep));
	unsigned int nr = 1;

	if (folio_test_large(folio)) {
		nr = folio_pte_batch(folio, ptep, *ptep, (end - addr) >> PAGE_SHIFT);
		if (!folio_run_is_whole(folio, tlb->mm, *ptep, nr))
			return split_anon_folio_mapped(folio) ? nr : 0;
	} else if (!folio_mapped_only_by(folio, tlb->mm)) {
		return 1; /* not exclusively ours */
	}
	madvise_free_run(tlb, folio, addr, ptep, nr);
	return nr;
}

/* The walker's pmd_entry for [addr, end) of one PMD: a leaf is THP code's
 * (madvise_free_huge_pmd), a PTE table is done here, batch by batch.
 * Linux: madvise_free_pte_range. */
static int madvise_free_pte_range(pmd_t *pmdp, unsigned long addr, unsigned long end,
				  struct mm_walk *walk)
{
	struct mmu_gather *tlb = walk->private;
	unsigned int nr;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp) && madvise_free_huge_pmd(tlb, pmdp, addr, end))
		return 0;
	ptep = pte_offset_map(pmdp, addr);
	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (pte_present(*ptep))
			nr = madvise_free_pte(tlb, ptep, addr, end);
	}
	return 0;
}

static const struct mm_walk_ops madvise_free_walk_ops = {
	.pmd_entry = madvise_free_pte_range,
};

/* --- MADV_FREE, split (before the batching change) ---------------------------------- */

/* Split every large folio mapped in the PTE table's [addr, end); a folio
 * that cannot be split is left as it is (and skipped by the clearing). */
static void split_folios_in_pte_range(pte_t *ptep, unsigned long addr, unsigned long end)
{
	for (; addr < end; addr += PAGE_SIZE, ptep++) {
		if (pte_present(*ptep))
			split_anon_folio_mapped(page_folio(pte_page(*ptep)));
	}
}

/* One PTE at a time: clear, rewrite old and clean, flush that page. */
static void madvise_free_ptes_one_by_one(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
					 unsigned long end)
{
	for (; addr < end; addr += PAGE_SIZE, ptep++) {
		struct folio *folio;
		pte_t old;

		if (!pte_present(*ptep))
			continue;
		folio = page_folio(pte_page(*ptep));
		if (folio_test_large(folio) || folio_mapcount(folio) != 1)
			continue; /* could not be split, or shared */
		if (pte_young(*ptep) || pte_dirty(*ptep)) {
			old = ptep_get_and_clear(mm, addr, ptep);
			set_ptes(mm, addr, ptep, pte_mkclean(pte_mkold(old)), 1);
			flush_tlb_range(mm, addr, addr + PAGE_SIZE);
		}
		folio_mark_lazyfree(folio);
	}
}

/* The split mode's pmd_entry: a PMD leaf as in the batched mode, a PTE
 * table by splitting its large folios, then PTE by PTE. */
static int madvise_free_pte_range_split(pmd_t *pmdp, unsigned long addr, unsigned long end,
					struct mm_walk *walk)
{
	struct mmu_gather *tlb = walk->private;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp) && madvise_free_huge_pmd(tlb, pmdp, addr, end))
		return 0;
	ptep = pte_offset_map(pmdp, addr);
	if (!ptep)
		return 0;
	split_folios_in_pte_range(ptep, addr, end);
	madvise_free_ptes_one_by_one(walk->mm, ptep, addr, end);
	return 0;
}

static const struct mm_walk_ops madvise_free_split_walk_ops = {
	.pmd_entry = madvise_free_pte_range_split,
};

/* --- madvise ---------------------------------------------------------------------------- */

static int madvise_vma_range(struct mmu_gather *tlb, unsigned long start, unsigned long end,
			     int advice)
{
	const struct mm_walk_ops *ops = &madvise_free_walk_ops;

	if (advice == MADV_DONTNEED)
		return zap_page_range(tlb->mm, start, end);
	if (lazyfree_mode == LAZYFREE_SPLIT)
		ops = &madvise_free_split_walk_ops;
	walk_page_range(tlb->mm, start, end, ops, tlb);
	return 0;
}

/* Apply advice to every VMA part of [start, end). Return: 0, -ENOMEM if
 * part of the range has no VMA (Linux: unmapped_error), or the first
 * error of a VMA part. */
static int madvise_walk_vmas(struct mmu_gather *tlb, unsigned long start, unsigned long end,
			     int advice)
{
	unsigned long addr = start;
	int err = 0;

	for (int i = 0; i < tlb->mm->nr_vmas && addr < end; i++) {
		struct vm_area_struct *vma = &tlb->mm->vmas[i];

		if (vma->vm_end <= addr)
			continue;
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start > addr)
			err = -ENOMEM; /* a hole before this VMA */
		addr = MAX(addr, vma->vm_start);
		if (madvise_vma_range(tlb, addr, MIN(end, vma->vm_end), advice))
			return -ENOMEM;
		addr = MIN(end, vma->vm_end);
	}
	return addr < end ? -ENOMEM : err;
}

int do_madvise(struct mm_struct *mm, unsigned long start, size_t len, int advice)
{
	struct mmu_gather tlb;
	unsigned long end;
	int err;

	if (advice != MADV_FREE && advice != MADV_DONTNEED)
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if ((len && end == start) || end < start)
		return -EINVAL; /* the rounding or the range overflowed */
	if (end == start)
		return 0;
	/* MADV_FREE changes entries without freeing: the gather only
	 * collects the range to flush once, at the end. */
	tlb_gather_mmu(&tlb, mm);
	err = madvise_walk_vmas(&tlb, start, end, advice);
	tlb_finish_mmu(&tlb);
	return err;
}

/* --- boot -------------------------------------------------------------------- */

static const char *const lazyfree_mode_names[] = {
	[LAZYFREE_BATCHED] = "batched",
	[LAZYFREE_SPLIT] = "split",
};

const char *lazyfree_mode_name(enum lazyfree_mode mode)
{
	return lazyfree_mode_names[mode];
}

int lazyfree_mode_parse(const char *s, enum lazyfree_mode *mode)
{
	int i = match_string(lazyfree_mode_names, ARRAY_SIZE(lazyfree_mode_names), s);

	if (i < 0)
		return i;
	*mode = (enum lazyfree_mode)i;
	return 0;
}

CMDLINE_KEY(lazyfree, "batched|split: MADV_FREE's implementation");

void lazyfree_init(void)
{
	const char *arg = boot_cmdline_get(lazyfree);

	if (NODE_DATA(0))
		pgdat_set_lazyfree_reclaim(NODE_DATA(0));
	if (arg && lazyfree_mode_parse(arg, &lazyfree_mode))
		pr_err("cmdline: lazyfree=%s is not split|batched; keeping batched\n", arg);
}
