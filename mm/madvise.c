/*
 * madvise(MADV_FREE | MADV_DONTNEED). MADV_FREE makes anonymous memory
 * lazily freeable: young and dirty are cleared and the folio goes on the
 * lazyfree list, so reclaim may drop it unless it is written again.
 * Batched (Linux since "mm/madvise: optimize lazyfreeing with mTHP in
 * madvise_free"): a 64K folio mapped by 16 PTEs inside the range is one
 * folio_pte_batch() + one clear_young_dirty_ptes() for its 16 PTEs and one
 * LRU move. Split (the kernel before that change): the same folio is split
 * into 16 pages, then each PTE is cleared and rewritten old and clean and
 * each page moved. The PTE writes are the same (x86 has no cheaper
 * clear_young_dirty_ptes); changed entries are only recorded in the
 * mmu_gather, so a 1 MiB range gets one TLB flush at the end in both
 * modes, and with 4K folios both do the same work. A folio only partly
 * inside the range is split in both modes. Both run as the walker's
 * pmd_entry; PMD leaves and splitting are THP code (mm/huge_memory.c).
 */
#include <hugetlb.h>
#include <vm.h>

enum lazyfree_mode lazyfree_mode = LAZYFREE_BATCHED;

/*
 * Linux's rule for a folio about to be lazyfreed: its PG_dirty must go
 * (else reclaim keeps it), which needs the folio lock, and a dirty folio
 * mapped elsewhere too is skipped: the other mappings did not ask for
 * MADV_FREE. A clean one is lazyfreed even when shared.
 * Return: false to skip the folio.
 */
static bool madvise_free_clean_folio(struct folio *folio)
{
	if (!folio_test_dirty(folio))
		return true;
	if (folio_test_locked(folio) || folio_likely_mapped_shared(folio))
		return false; /* Linux: folio_trylock, folio_likely_mapped_shared */
	folio_clear_dirty(folio);
	return true;
}

/* --- MADV_FREE, batched -------------------------------------------------------------- */

/*
 * How many PTEs ahead the walk fetches the struct page it will need: every
 * folio's head page is read (page_folio, flags) and written (flags, LRU
 * links, and the LRU neighbour's: on lru_anon the next folio in fault
 * order is the neighbour). The folios sit wherever the allocator put them,
 * so without this each folio waits for a cache miss that no PTE access
 * has. 64 PTEs: 16 folios of 16K ahead, 4 of 64K; at least one folio.
 */
#define MADV_FREE_PREFETCH_PTES 64

/* Fetch, for writing, the struct page mapped by the PTE `ahead` entries
 * past ptep, if it is inside [addr, end) and present.
 * From the first page of a folio, ahead a multiple of its size reaches
 * the head of a later folio when its neighbours have its size. */
static inline void madvise_free_prefetch(const pte_t *ptep, unsigned long addr, unsigned long end,
					 unsigned long ahead)
{
	if (ahead < (end - addr) >> PAGE_SHIFT && pte_present(ptep[ahead]))
		prefetchw(pte_page(ptep[ahead]));
}

/*
 * The present PTE ptent at ptep (addr), mapping a folio. Return: how many
 * PTEs were handled (a whole folio's run, or a skipped one), or 0 after a
 * split: look again, the PTE now maps an order-0 folio. Linux: the loop
 * body of madvise_free_pte_range, a young or dirty bit of any PTE of the
 * run (folio_pte_batch's any_young, any_dirty) meaning all are cleared.
 */
static unsigned int madvise_free_pte(struct mmu_gather *tlb, pte_t *ptep, pte_t ptent,
				     unsigned long addr, unsigned long end)
{
	const unsigned int cydp_flags = CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY;
	struct folio *folio = page_folio(pte_page(ptent));
	unsigned int nr = 1;

	madvise_free_prefetch(ptep, addr, end, MAX(folio_nr_pages(folio), MADV_FREE_PREFETCH_PTES));
	if (folio_test_large(folio)) {
		bool any_young, any_dirty;

		nr = folio_pte_batch(folio, ptep, ptent, (end - addr) >> PAGE_SHIFT, &any_young,
				     &any_dirty);
		/* Not the whole folio in this run: split it, unless it is
		 * mapped elsewhere too or locked; a refused split skips the run. */
		if (nr < folio_nr_pages(folio)) {
			if (folio_likely_mapped_shared(folio) || folio_test_locked(folio))
				return nr;
			return split_anon_folio_mapped(folio) ? nr : 0;
		}
		if (any_young)
			ptent = pte_mkyoung(ptent);
		if (any_dirty)
			ptent = pte_mkdirty(ptent);
	}
	if (!madvise_free_clean_folio(folio))
		return nr;
	if (pte_young(ptent) || pte_dirty(ptent)) {
		clear_young_dirty_ptes(tlb->mm, addr, ptep, nr, cydp_flags);
		tlb_remove_tlb_entries(tlb, addr, nr);
	}
	folio_mark_lazyfree(folio);
	return nr;
}

/* The walker's pmd_entry for [addr, end) of one PMD: a leaf is THP code's
 * (madvise_free_huge_pmd), a PTE table is done here, batch by batch. An mm
 * that never mapped the zero page (MMF_ZERO_PAGE) needs no is_zero_pfn per
 * PTE. Linux: madvise_free_pte_range. */
static int madvise_free_pte_range(pmd_t *pmdp, unsigned long addr, unsigned long end,
				  struct mm_walk *walk)
{
	struct mmu_gather *tlb = walk->private;
	const bool zero_mapped = walk->mm->flags & MMF_ZERO_PAGE;
	unsigned int nr;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp) && madvise_free_huge_pmd(tlb, pmdp, addr, end))
		return 0;
	ptep = pte_offset_map(pmdp, addr);
	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		pte_t ptent = *ptep;

		nr = 1;
		if (!pte_present(ptent) || (zero_mapped && is_zero_pfn(pte_pfn(ptent))))
			continue;
		nr = madvise_free_pte(tlb, ptep, ptent, addr, end);
	}
	return 0;
}

static const struct mm_walk_ops madvise_free_walk_ops = {
	.pmd_entry = madvise_free_pte_range,
};

/* --- MADV_FREE, split (before the batching change) ---------------------------------- */

/*
 * The split mode's pmd_entry, the loop of madvise_free_pte_range before
 * the batching change: a PMD leaf as in the batched mode; in a PTE table,
 * each large folio met is split where it stands and its PTE looked at
 * again; the first one that cannot be (mapped elsewhere, locked, extra
 * references) ends this PMD's walk (the old loop's `break`). Each young
 * or dirty PTE is cleared and rewritten old and clean
 * (ptep_get_and_clear_full + set_pte_at) and recorded with
 * tlb_remove_tlb_entry: the flush comes once, from the gather.
 */
static int madvise_free_pte_range_split(pmd_t *pmdp, unsigned long addr, unsigned long end,
					struct mm_walk *walk)
{
	struct mmu_gather *tlb = walk->private;
	struct mm_struct *mm = walk->mm;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp) && madvise_free_huge_pmd(tlb, pmdp, addr, end))
		return 0;
	ptep = pte_offset_map(pmdp, addr);
	while (ptep && addr < end) {
		struct folio *folio;

		if (!pte_present(*ptep) || is_zero_pfn(pte_pfn(*ptep)))
			goto next;
		folio = page_folio(pte_page(*ptep));
		if (folio_test_large(folio)) {
			if (folio_likely_mapped_shared(folio) || folio_test_locked(folio) ||
			    split_anon_folio_mapped(folio))
				break;
			continue; /* the same PTE, now mapping an order-0 folio */
		}
		if (!madvise_free_clean_folio(folio))
			goto next;
		if (pte_young(*ptep) || pte_dirty(*ptep)) {
			pte_t old = ptep_get_and_clear(mm, addr, ptep);

			set_ptes(mm, addr, ptep, pte_mkclean(pte_mkold(old)), 1);
			tlb_remove_tlb_entries(tlb, addr, 1);
		}
		folio_mark_lazyfree(folio);
	next:
		addr += PAGE_SIZE;
		ptep++;
	}
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

/*
 * A HugeTLB VMA takes MADV_DONTNEED only, from a huge-page-aligned start;
 * the end is rounded down, so no more is freed than was asked (Linux:
 * madvise_dontneed_free_valid_vma). Return: 0 or -EINVAL.
 */
static int madvise_hugetlb_range(struct mm_struct *mm, const struct vm_area_struct *vma,
				 unsigned long start, unsigned long end, int advice)
{
	unsigned long size = huge_page_size(hstate_vma(vma));

	if (advice != MADV_DONTNEED || (start & (size - 1)))
		return -EINVAL;
	end = ALIGN_DOWN(end, size);
	return end > start ? zap_page_range(mm, start, end) : 0;
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
		if (is_vm_hugetlb_page(vma)) {
			if (madvise_hugetlb_range(tlb->mm, vma, addr, MIN(end, vma->vm_end),
						  advice))
				return -EINVAL;
		} else if (madvise_vma_range(tlb, addr, MIN(end, vma->vm_end), advice)) {
			return -ENOMEM;
		}
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
