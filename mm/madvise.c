/*
 * madvise(MADV_FREE | MADV_DONTNEED). MADV_FREE makes anonymous memory
 * lazily freeable: young and dirty are cleared and the folio goes on the
 * lazyfree list, so reclaim may drop it unless it is written again.
 * Batched (Linux since "mm/madvise: optimize lazyfreeing with mTHP in
 * madvise_free"): a 64K folio mapped by 16 PTEs inside the range is one
 * folio_pte_batch() + one clear_young_dirty_ptes() (16 PTE writes), and a
 * 1 MiB range gets one TLB flush at the end. Split (the older path): the
 * same folio is split into 16 pages, each PTE cleared and flushed alone.
 * A folio only partly inside the range is split in both modes.
 */
#include <vm.h>

enum lazyfree_mode lazyfree_mode = LAZYFREE_BATCHED;

/* The range MADV_FREE changed entries in, flushed once at the end
 * (Linux: the mmu_gather of madvise_free_single_vma). */
struct madv_free {
	struct mm_struct *mm;
	unsigned long flush_start, flush_end;	/* empty: nothing to flush */
};

static void madv_free_changed(struct madv_free *mf, unsigned long start, unsigned long end)
{
	if (mf->flush_start >= mf->flush_end) {
		mf->flush_start = start;
		mf->flush_end = end;
		return;
	}
	mf->flush_start = MIN(mf->flush_start, start);
	mf->flush_end = MAX(mf->flush_end, end);
}

/* --- splitting a mapped folio ------------------------------------------------------ */

static bool pte_maps_page(pte_t pte, struct folio *folio, unsigned long n)
{
	return pte_present(pte) && pte_pfn(pte) == folio_pfn(folio) + n;
}

/*
 * split_folio() splits only unmapped folios; here the one mapping is
 * PTEs we can see, so the mapcount is handed to the pieces: page n keeps
 * _mapcount 0 if a PTE maps it. Linux: split_folio after unmapping to
 * migration entries and remapping the pieces (remap_page).
 */
int split_anon_folio_mapped(struct folio *folio)
{
	struct mm_struct *mm = folio->page.mapping;
	unsigned long nr = folio_nr_pages(folio), mapped = 0;
	int mapcount = folio->page._mapcount;
	pte_t *ptep;

	if (!folio_test_large(folio))
		return 0;
	if (!folio_test_anon(folio) || !mm || folio_test_locked(folio) ||
	    folio_ref_count(folio) != 1)
		return -EBUSY;
	ptep = pte_offset_mm(mm, folio->page.index, false);
	if (!ptep)
		return -EBUSY;	/* PMD-mapped: split the PMD first */
	for (unsigned long n = 0; n < nr; n++)
		mapped += pte_maps_page(ptep[n], folio, n);
	if (mapped != (unsigned long)mapcount + 1)
		return -EBUSY;	/* mapped elsewhere too */
	folio->page._mapcount = -1;
	if (split_folio(folio)) {
		folio->page._mapcount = mapcount;
		return -EBUSY;
	}
	for (unsigned long n = 0; n < nr; n++) {
		struct folio *piece = (struct folio *)folio_page(folio, n);

		if (pte_maps_page(ptep[n], piece, 0)) {
			piece->page._mapcount = 0;
			continue;
		}
		folio_del_lru(piece);	/* unmapped by an earlier partial munmap */
		folio_put(piece);
	}
	return 0;
}

/* --- MADV_FREE, batched -------------------------------------------------------------- */

/* Is folio mapped by exactly the nr PTEs of this run, all of it, by mm? */
static bool folio_run_is_whole(struct folio *folio, struct mm_struct *mm, pte_t pte,
			       unsigned int nr)
{
	return pte_pfn(pte) == folio_pfn(folio) && nr == folio_nr_pages(folio) &&
	       folio->page._mapcount + 1 == (int)nr && folio->page.mapping == mm;
}

/* Clear young and dirty on a run of nr PTEs mapping folio, mark it lazyfree. */
static void madvise_free_run(struct madv_free *mf, struct folio *folio, unsigned long addr,
			     pte_t *ptep, unsigned int nr)
{
	const unsigned int cydp_flags = CYDP_CLEAR_YOUNG | CYDP_CLEAR_DIRTY;
	pte_t bits = 0;

	for (unsigned int i = 0; i < nr; i++)
		bits |= ptep[i];
	if (bits & (_PAGE_ACCESSED | _PAGE_DIRTY)) {
		clear_young_dirty_ptes(mf->mm, addr, ptep, nr, cydp_flags);
		madv_free_changed(mf, addr, addr + nr * PAGE_SIZE);
	}
	folio_mark_lazyfree(folio);
}

/*
 * The present PTE at addr. Return: how many PTEs were handled (a whole
 * folio's run, or a skipped one), or 0 after a split: look again, the PTE
 * now maps an order-0 folio. Linux: the loop body of madvise_free_pte_range.
 */
static unsigned int madvise_free_pte(struct madv_free *mf, pte_t *ptep, unsigned long addr,
				     unsigned long end)
{
	struct folio *folio = page_folio(pfn_to_page(pte_pfn(*ptep)));
	unsigned int nr = 1;

	if (folio_test_large(folio)) {
		nr = folio_pte_batch(folio, ptep, *ptep, (end - addr) >> PAGE_SHIFT);
		if (!folio_run_is_whole(folio, mf->mm, *ptep, nr))
			return split_anon_folio_mapped(folio) ? nr : 0;
	} else if (folio->page._mapcount != 0 || folio->page.mapping != mf->mm) {
		return 1;	/* not exclusively ours */
	}
	madvise_free_run(mf, folio, addr, ptep, nr);
	return nr;
}

/* [addr, end) inside one PTE table. */
static void madvise_free_pte_range(struct madv_free *mf, pte_t *ptep, unsigned long addr,
				   unsigned long end)
{
	unsigned int nr;

	for (; addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (pte_present(*ptep))
			nr = madvise_free_pte(mf, ptep, addr, end);
	}
}

/* A PMD leaf wholly inside the range: age and clean the one entry, no
 * split. Linux: madvise_free_huge_pmd. */
static void madvise_free_huge_pmd(struct madv_free *mf, pmd_t *pmdp, unsigned long addr)
{
	struct folio *folio = page_folio(pfn_to_page(pmd_pfn(*pmdp)));

	if (folio->page._mapcount != 0 || folio->page.mapping != mf->mm)
		return;
	if (pmd_young(*pmdp) || pmd_dirty(*pmdp)) {
		set_pmd_at(mf->mm, addr, pmdp, pmd_mkclean(pmd_mkold(*pmdp)));
		madv_free_changed(mf, addr, addr + PMD_SIZE);
	}
	folio_mark_lazyfree(folio);
}

static unsigned long pmd_chunk_end(unsigned long addr, unsigned long end)
{
	unsigned long next = (addr & PMD_MASK) + PMD_SIZE;

	return next < end ? next : end;
}

/*
 * The PMD covering [addr, next): a leaf wholly inside is handled on the
 * PMD (both paths: Linux has had madvise_free_huge_pmd since 4.5, long
 * before the batching change); a leaf only partly inside becomes a PTE
 * table first. Return: true when nothing is left for the PTE level (no
 * table, done on the PMD, or no memory to split: skipped).
 */
static bool madvise_free_pmd(struct madv_free *mf, pmd_t *pmdp, unsigned long addr,
			     unsigned long next)
{
	if (!pmdp || !pmd_present(*pmdp))
		return true;
	if (!pmd_leaf(*pmdp))
		return false;
	if (!(addr & ~PMD_MASK) && next - addr == PMD_SIZE) {
		madvise_free_huge_pmd(mf, pmdp, addr);
		return true;
	}
	return __split_huge_pmd(mf->mm, pmdp, addr) != 0;
}

static void madvise_free_range(struct madv_free *mf, unsigned long start, unsigned long end)
{
	for (unsigned long addr = start, next; addr < end; addr = next) {
		next = pmd_chunk_end(addr, end);
		if (!madvise_free_pmd(mf, pmd_offset_mm(mf->mm, addr, false), addr, next))
			madvise_free_pte_range(mf, pte_offset_mm(mf->mm, addr, false), addr, next);
	}
}

/* --- MADV_FREE, split (before the batching change) ---------------------------------- */

/* Split every large folio mapped in the PTE table's [addr, end); a folio
 * that cannot be split is left as it is (and skipped by the clearing). */
static void split_folios_in_pte_range(struct mm_struct *mm, pte_t *ptep, unsigned long addr,
				      unsigned long end)
{
	for (; addr < end; addr += PAGE_SIZE, ptep++) {
		if (pte_present(*ptep))
			split_anon_folio_mapped(page_folio(pfn_to_page(pte_pfn(*ptep))));
	}
}

/* One PTE at a time: clear, rewrite old and clean, flush that page. */
static void madvise_free_pte_range_split(struct mm_struct *mm, pte_t *ptep,
					 unsigned long addr, unsigned long end)
{
	for (; addr < end; addr += PAGE_SIZE, ptep++) {
		struct folio *folio;
		pte_t old;

		if (!pte_present(*ptep))
			continue;
		folio = page_folio(pfn_to_page(pte_pfn(*ptep)));
		if (folio_test_large(folio) || folio->page._mapcount != 0)
			continue;	/* could not be split, or shared */
		if (pte_young(*ptep) || pte_dirty(*ptep)) {
			old = ptep_get_and_clear(mm, addr, ptep);
			set_ptes(mm, addr, ptep, pte_mkclean(pte_mkold(old)), 1);
			flush_tlb_range(mm, addr, addr + PAGE_SIZE);
		}
		folio_mark_lazyfree(folio);
	}
}

static void madvise_free_range_split(struct madv_free *mf, unsigned long start,
				     unsigned long end)
{
	for (unsigned long addr = start, next; addr < end; addr = next) {
		pte_t *ptep;

		next = pmd_chunk_end(addr, end);
		if (madvise_free_pmd(mf, pmd_offset_mm(mf->mm, addr, false), addr, next))
			continue;
		ptep = pte_offset_mm(mf->mm, addr, false);
		split_folios_in_pte_range(mf->mm, ptep, addr, next);
		madvise_free_pte_range_split(mf->mm, ptep, addr, next);
	}
}

/* --- madvise ---------------------------------------------------------------------------- */

static int madvise_vma_range(struct madv_free *mf, unsigned long start, unsigned long end,
			     int advice)
{
	if (advice == MADV_DONTNEED)
		return zap_page_range(mf->mm, start, end);
	if (lazyfree_mode == LAZYFREE_SPLIT)
		madvise_free_range_split(mf, start, end);
	else
		madvise_free_range(mf, start, end);
	return 0;
}

/* Apply advice to every VMA part of [start, end). Return: 0, -ENOMEM if
 * part of the range has no VMA (Linux: unmapped_error), or the first
 * error of a VMA part. */
static int madvise_walk_vmas(struct madv_free *mf, unsigned long start, unsigned long end,
			     int advice)
{
	unsigned long addr = start;
	int err = 0;

	for (int i = 0; i < mf->mm->nr_vmas && addr < end; i++) {
		struct vm_area_struct *vma = &mf->mm->vmas[i];

		if (vma->vm_end <= addr)
			continue;
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start > addr)
			err = -ENOMEM;	/* a hole before this VMA */
		addr = MAX(addr, vma->vm_start);
		if (madvise_vma_range(mf, addr, MIN(end, vma->vm_end), advice))
			return -ENOMEM;
		addr = MIN(end, vma->vm_end);
	}
	return addr < end ? -ENOMEM : err;
}

int do_madvise(struct mm_struct *mm, unsigned long start, size_t len, int advice)
{
	struct madv_free mf = { .mm = mm };
	unsigned long end;
	int err;

	if (advice != MADV_FREE && advice != MADV_DONTNEED)
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if ((len && end == start) || end < start)
		return -EINVAL;	/* the rounding or the range overflowed */
	if (end == start)
		return 0;
	err = madvise_walk_vmas(&mf, start, end, advice);
	if (mf.flush_start < mf.flush_end)
		flush_tlb_range(mm, mf.flush_start, mf.flush_end);
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
	for (unsigned int m = 0; m < ARRAY_SIZE(lazyfree_mode_names); m++) {
		if (strcmp(s, lazyfree_mode_names[m]) == 0) {
			*mode = (enum lazyfree_mode)m;
			return 0;
		}
	}
	return -EINVAL;
}

void lazyfree_init(void)
{
	const char *arg = cmdline_get(&boot_cmdline, "lazyfree");

	if (NODE_DATA(0))
		pgdat_set_lazyfree_reclaim(NODE_DATA(0));
	if (arg && lazyfree_mode_parse(arg, &lazyfree_mode))
		pr_err("cmdline: lazyfree=%s is not split|batched; keeping batched\n", arg);
}
