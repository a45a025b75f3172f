/*
 * madvise and its advice (Linux: mm/madvise.c). MADV_FREE makes anonymous memory
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
 * The other advice, each in its section below: COLD and PAGEOUT (age or
 * reclaim now), guard markers (GUARD_INSTALL/REMOVE), POPULATE_READ/
 * WRITE (fault in), HUGEPAGE/NOHUGEPAGE (the VMAs' THP policy);
 * COLLAPSE is mm/khugepaged.c's, WILLNEED does nothing (no swap).
 */
#include <fs.h>
#include <hugetlb.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
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
	if (folio_test_locked(folio) || folio_maybe_mapped_shared(folio))
		return false; /* Linux: folio_trylock, folio_maybe_mapped_shared */
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
			if (folio_maybe_mapped_shared(folio) || folio_test_locked(folio))
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
			if (folio_maybe_mapped_shared(folio) || folio_test_locked(folio) ||
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

/* --- MADV_COLD, MADV_PAGEOUT ------------------------------------------------------------ */

/*
 * Linux: madvise_cold_or_pageout_pte_range. COLD clears the young bits
 * (one clear_young_dirty_ptes per folio's run, the flush gathered) and
 * moves each folio to the end of its LRU list reclaim takes first;
 * PAGEOUT reclaims each folio now, young or not (reclaim_folio). A large
 * folio only partly inside the range is split first; the zero page, and
 * folios mapped elsewhere too, are left alone.
 */
struct madvise_cold_walk {
	struct mmu_gather *tlb;
	bool pageout;
};

static void madvise_cold_folio(struct folio *folio, bool pageout)
{
	if (pageout)
		reclaim_folio(folio);
	else
		folio_deactivate(folio);
}

/* A PMD leaf for [addr, next). Return: true when done with it; false
 * when its folio was split and the PTE table it left is to be walked. */
static bool madvise_cold_or_pageout_huge_pmd(struct madvise_cold_walk *cw, pmd_t *pmdp,
					     unsigned long addr, unsigned long next)
{
	pmd_t orig = *pmdp;
	struct folio *folio;

	if (is_huge_zero_pmd(orig))
		return true;
	folio = pmd_folio(orig);
	/* A shmem folio stays, as madvise_cold_pte leaves its PTEs. */
	if (folio_maybe_mapped_shared(folio) || !folio_test_anon(folio))
		return true;
	if (next - addr != PMD_SIZE)
		return folio_test_locked(folio) || split_anon_folio_mapped(folio);
	if (!cw->pageout && pmd_young(orig)) {
		set_pmd_at(cw->tlb->mm, addr, pmdp, pmd_mkold(orig));
		tlb_remove_pmd_tlb_entry(cw->tlb, addr);
	}
	madvise_cold_folio(folio, cw->pageout);
	return true;
}

/* The present PTE at ptep (addr). Return: the PTEs handled, or 0 after a
 * split (look at the same PTE again). */
static unsigned int madvise_cold_pte(struct madvise_cold_walk *cw, pte_t *ptep, unsigned long addr,
				     unsigned long end)
{
	pte_t ptent = *ptep;
	struct folio *folio = page_folio(pte_page(ptent));
	unsigned int nr = 1;

	/* A shmem folio would go to swap (Linux: shmem_writeout), which
	 * Folium has not: it stays, as unevictable memory does. */
	if (!folio_test_anon(folio))
		return 1;
	if (folio_test_large(folio)) {
		bool any_young;

		nr = folio_pte_batch(folio, ptep, ptent, (end - addr) >> PAGE_SHIFT, &any_young,
				     NULL);
		if (any_young)
			ptent = pte_mkyoung(ptent);
		if (nr < folio_nr_pages(folio)) {
			if (folio_maybe_mapped_shared(folio) || folio_test_locked(folio))
				return nr;
			return split_anon_folio_mapped(folio) ? nr : 0;
		}
	}
	if (folio_maybe_mapped_shared(folio))
		return nr;
	if (!cw->pageout && pte_young(ptent)) {
		clear_young_dirty_ptes(cw->tlb->mm, addr, ptep, nr, CYDP_CLEAR_YOUNG);
		tlb_remove_tlb_entries(cw->tlb, addr, nr);
	}
	madvise_cold_folio(folio, cw->pageout);
	return nr;
}

static int madvise_cold_or_pageout_pte_range(pmd_t *pmdp, unsigned long addr, unsigned long end,
					     struct mm_walk *walk)
{
	struct madvise_cold_walk *cw = walk->private;
	unsigned int nr;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp) && madvise_cold_or_pageout_huge_pmd(cw, pmdp, addr, end))
		return 0;
	ptep = pte_offset_map(pmdp, addr);
	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (pte_present(*ptep) && !is_zero_pfn(pte_pfn(*ptep)))
			nr = madvise_cold_pte(cw, ptep, addr, end);
	}
	return 0;
}

static const struct mm_walk_ops madvise_cold_walk_ops = {
	.pmd_entry = madvise_cold_or_pageout_pte_range,
};

/* Linux: madvise_cold, madvise_pageout. An mlock'ed range is refused
 * (can_madv_lru_vma). */
static int madvise_cold_or_pageout(struct mmu_gather *tlb, const struct vm_area_struct *vma,
				   unsigned long start, unsigned long end, bool pageout)
{
	struct madvise_cold_walk cw = { tlb, pageout };

	if (vma->vm_flags & VM_LOCKED)
		return -EINVAL;
	walk_page_range(tlb->mm, start, end, &madvise_cold_walk_ops, &cw);
	return 0;
}

/* --- guard regions: MADV_GUARD_INSTALL, MADV_GUARD_REMOVE -------------------------------- */

/*
 * A guard region (Linux 6.13) is a run of guard markers (<vm.h>): any
 * access to one of its pages raises SIGSEGV (handle_mm_fault returns
 * VM_FAULT_SIGSEGV). A marker is no mapping: MADV_DONTNEED, MADV_FREE and
 * mprotect leave it, mremap moves it, munmap and MADV_GUARD_REMOVE
 * remove it, and /proc/PID/pagemap reports it (PM_GUARD_REGION).
 */

/* Put a marker in every empty slot of [start, end), making tables as
 * needed. Return: 0 when the range is all markers, 1 when a page or PMD
 * leaf is mapped there (zap and retry), -ENOMEM. Linux: the walk of
 * guard_install_walk_ops with its install_pte. */
static int guard_install_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		pmd_t *pmd = pmd_alloc(mm, addr);
		pte_t *pte;

		if (!pmd)
			return -ENOMEM;
		if (pmd_leaf(*pmd))
			return 1;
		pte = pte_alloc_map(mm, pmd, addr);
		if (!pte)
			return -ENOMEM;
		if (pte_none(*pte))
			set_ptes(mm, addr, pte, make_pte_marker(PTE_MARKER_GUARD), 1);
		else if (!is_guard_pte_marker(*pte))
			return 1;
	}
	return 0;
}

/* Linux: madvise_guard_install. Markers go in where nothing is mapped;
 * finding a mapped page, it zaps the range (markers stay) and tries again.
 * Linux retries a few times, then restarts the system call, because
 * faults may race with it; Folium's single task cannot fault meanwhile,
 * so the second pass always succeeds. */
static int madvise_guard_install(struct mm_struct *mm, const struct vm_area_struct *vma,
				 unsigned long start, unsigned long end)
{
	int err;

	if (vma->vm_flags & VM_LOCKED) /* Linux: is_valid_guard_vma */
		return -EINVAL;
	err = guard_install_range(mm, start, end);
	if (err <= 0)
		return err;
	if (zap_page_range(mm, start, end))
		return -ENOMEM;
	err = guard_install_range(mm, start, end);
	return err > 0 ? -EAGAIN : err;
}

static int guard_remove_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	if (is_guard_pte_marker(*ptep))
		ptep_get_and_clear(walk->mm, addr, ptep);
	return 0;
}

/* Linux: madvise_guard_remove; mlock'ed VMAs allowed. The tables stay. */
static const struct mm_walk_ops guard_remove_walk_ops = {
	.pte_marker_entry = guard_remove_pte_entry,
};

/* --- MADV_POPULATE_READ, MADV_POPULATE_WRITE --------------------------------------------- */

/* Is the page at addr already there for this access (Linux:
 * follow_page_mask succeeding, so GUP needs no fault)? A write needs a
 * writable entry: the zero page or huge zero folio is not one. */
static bool populate_present(struct mm_struct *mm, unsigned long addr, bool write)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);
	pte_t *pte;

	if (pmd && pmd_leaf(*pmd))
		return !write || pmd_write(*pmd);
	pte = pmd ? pte_offset_map(pmd, addr) : NULL;
	return pte && pte_present(*pte) && (!write || pte_write(*pte));
}

/* The end of the populated chunk at addr: its PMD leaf's, or the page's. */
static unsigned long populate_next(struct mm_struct *mm, unsigned long addr, unsigned long end)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);

	return pmd && pmd_leaf(*pmd) ? pmd_addr_end(addr, end) : addr + PAGE_SIZE;
}

/*
 * Linux: madvise_populate over faultin_page_range (GUP with
 * FOLL_MADV_POPULATE): every page of [start, end) faulted in as a read
 * or a write fault would (a write breaks the zero page). Errors as
 * Linux's: a hole is -ENOMEM (what came before stays populated), a VMA
 * that does not allow the access (PROT_NONE for a read, read-only for a
 * write: check_vma_flags) -EINVAL, a fault that raises a signal (a
 * guard marker) -EFAULT, no memory -ENOMEM.
 */
static int madvise_populate(struct mm_struct *mm, unsigned long start, unsigned long end,
			    bool write)
{
	const unsigned int flags = write ? FAULT_FLAG_WRITE : 0;
	unsigned long addr = start;

	while (addr < end) {
		const struct vm_area_struct *vma = find_vma(mm, addr);
		unsigned long vma_end;

		if (!vma)
			return -ENOMEM;
		if (!(vma->vm_flags & (write ? VM_WRITE : VM_READ)))
			return -EINVAL;
		for (vma_end = MIN(end, vma->vm_end); addr < vma_end;
		     addr = populate_next(mm, addr, vma_end)) {
			enum vm_fault_reason r;

			if (populate_present(mm, addr, write))
				continue;
			r = handle_mm_fault(mm, addr, flags);
			if (r == VM_FAULT_OOM)
				return -ENOMEM;
			if (r != VM_FAULT_OK)
				return -EFAULT;
		}
	}
	return 0;
}

/* --- advice that changes VMA flags: (NO)HUGEPAGE, (DONT|DO)FORK, WIPE/KEEPONFORK ---------- */

/* The flags the advice sets and clears (Linux: madvise_vma_behavior's
 * new_flags). */
static void madvise_vma_flags(int advice, unsigned long *set, unsigned long *clear)
{
	*clear = 0;
	switch (advice) {
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
		*set = advice == MADV_HUGEPAGE ? VM_HUGEPAGE : VM_NOHUGEPAGE;
		*clear = VM_HUGEPAGE | VM_NOHUGEPAGE;
		break;
	case MADV_DONTFORK:
		*set = VM_DONTCOPY;
		break;
	case MADV_DOFORK:
		*set = 0;
		*clear = VM_DONTCOPY;
		break;
	case MADV_WIPEONFORK:
		*set = VM_WIPEONFORK;
		break;
	default: /* MADV_KEEPONFORK */
		*set = 0;
		*clear = VM_WIPEONFORK;
		break;
	}
}

/* Linux's -EINVAL cases: MADV_WIPEONFORK only on private anonymous
 * memory (not a file's, nor shared memory; a HugeTLB mapping is a
 * hugetlbfs file in Linux), and
 * MADV_KEEPONFORK never on MAP_DROPPABLE memory, which must not survive
 * a fork. Folium has no VM_IO, so DONTFORK and DOFORK always apply. */
static bool madvise_vma_flags_allowed(const struct vm_area_struct *vma, int advice)
{
	if (advice == MADV_WIPEONFORK)
		return !(vma->vm_flags & (VM_HUGETLB | VM_SHARED)) && !vma->vm_file;
	if (advice == MADV_KEEPONFORK)
		return !(vma->vm_flags & VM_DROPPABLE);
	return true;
}

/*
 * The flag advice on [start, end): each VMA part gets the advice's flags
 * set and cleared, a VMA cut by an end split there first, and parts that
 * now equal a neighbour merged with it (Linux: madvise_update_vma). A
 * VMA the advice is not allowed on, or a HugeTLB VMA cut off its huge
 * page boundary, makes it -EINVAL before anything changes (Linux stops
 * at that VMA, the ones before it changed). Splits
 * come first, so -ENOMEM for a full VMA array changes nothing; parts of
 * the range in no VMA are skipped and reported with -ENOMEM after the
 * rest is done, as Linux.
 */
static int madvise_update_vma_flags(struct mm_struct *mm, unsigned long start, unsigned long end,
				    int advice)
{
	unsigned long set, clear;

	madvise_vma_flags(advice, &set, &clear);
	if (!hugetlb_range_aligned(mm, start, end))
		return -EINVAL; /* Linux: hugetlb_vm_op_split refuses the split */
	for (int i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_end > start && mm->vmas[i].vm_start < end &&
		    !madvise_vma_flags_allowed(&mm->vmas[i], advice))
			return -EINVAL;
	if (split_vma(mm, start) || split_vma(mm, end))
		return -ENOMEM;
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_start >= start && vma->vm_end <= end)
			vma->vm_flags = (vma->vm_flags & ~clear) | set;
	}
	vma_merge_range(mm, start, end);
	return vma_range_has_hole(mm, start, end) ? -ENOMEM : 0;
}

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
 * A HugeTLB VMA takes MADV_DONTNEED only (and MADV_REMOVE, which
 * madvise_remove refuses), from a huge-page-aligned start;
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

/*
 * Linux: madvise_remove. Free the file's pages (and backing store) under
 * [start, end) of a shared writable mapping by punching a hole in the
 * file (vfs_fallocate, which unmaps them from every mapping first); the
 * file keeps its size and the range reads zeros. Return: 0, -EINVAL for
 * a locked VMA or one with no file, -EACCES for one not shared and
 * writable (a HugeTLB mapping), or vfs_fallocate's error (-EPERM for a
 * sealed memfd).
 */
static int madvise_remove(struct vm_area_struct *vma, unsigned long start, unsigned long end)
{
	struct file *file = vma->vm_file;
	uint64_t offset;

	if (vma->vm_flags & VM_LOCKED)
		return -EINVAL;
	/* A HugeTLB mapping has a hugetlbfs file in Linux, a private one
	 * too (MAP_HUGETLB: hugetlb_file_setup); shared ones are not
	 * served here, so it is never shared and writable. */
	if (is_vm_hugetlb_page(vma))
		return -EACCES;
	if (!file || !file->f_inode->i_mapping)
		return -EINVAL;
	if ((vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) != (VM_SHARED | VM_MAYWRITE))
		return -EACCES; /* Linux: vma_is_shared_maywrite */
	offset = (start - vma->vm_start) + ((uint64_t)vma->vm_pgoff << PAGE_SHIFT);
	return (int)vfs_fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (long)offset,
				  (long)(end - start));
}

/* Linux: madvise_vma_behavior, the advice that works VMA part by part. */
static int madvise_vma_behavior(struct mmu_gather *tlb, struct vm_area_struct *vma,
				unsigned long start, unsigned long end, int advice)
{
	switch (advice) {
	case MADV_WILLNEED:
		return 0; /* nothing to read ahead without swap or files */
	case MADV_COLD:
	case MADV_PAGEOUT:
		return madvise_cold_or_pageout(tlb, vma, start, end, advice == MADV_PAGEOUT);
	case MADV_COLLAPSE:
		return madvise_collapse(tlb->mm, vma, start, end);
	case MADV_GUARD_INSTALL:
		return madvise_guard_install(tlb->mm, vma, start, end);
	case MADV_GUARD_REMOVE:
		return walk_page_range(tlb->mm, start, end, &guard_remove_walk_ops, NULL);
	case MADV_REMOVE:
		return madvise_remove(vma, start, end);
	default: /* MADV_FREE, MADV_DONTNEED */
		if (vma->vm_flags & VM_LOCKED)
			return -EINVAL; /* Linux: madvise_dontneed_free_valid_vma */
		/* Linux: madvise_free_single_vma. A file's pages are the file's:
		 * only MADV_DONTNEED may drop this mapping's entries. */
		if (advice == MADV_FREE && !vma_is_anonymous(vma))
			return -EINVAL;
		return madvise_vma_range(tlb, start, end, advice);
	}
}

/* Apply advice to every VMA part of [start, end). Return: 0, -ENOMEM if
 * part of the range has no VMA (Linux: unmapped_error), or the first
 * error of a VMA part. */
static int madvise_walk_vmas(struct mmu_gather *tlb, unsigned long start, unsigned long end,
			     int advice)
{
	unsigned long addr = start;
	int err = 0, ret;

	/* Advice splits VMAs only at start and end: room for both now, so
	 * the array cannot move under the vma pointers below. */
	if (mm_vmas_reserve(tlb->mm, 2))
		return -ENOMEM;
	for (int i = 0; i < tlb->mm->nr_vmas && addr < end; i++) {
		struct vm_area_struct *vma = &tlb->mm->vmas[i];

		if (vma->vm_end <= addr)
			continue;
		if (vma->vm_start >= end)
			break;
		if (vma->vm_start > addr)
			err = -ENOMEM; /* a hole before this VMA */
		addr = MAX(addr, vma->vm_start);
		if (is_vm_hugetlb_page(vma) && advice != MADV_REMOVE) /* that one: -EACCES */
			ret = madvise_hugetlb_range(tlb->mm, vma, addr, MIN(end, vma->vm_end),
						    advice);
		else
			ret = madvise_vma_behavior(tlb, vma, addr, MIN(end, vma->vm_end), advice);
		if (ret)
			return ret;
		addr = MIN(end, vma->vm_end);
	}
	return addr < end ? -ENOMEM : err;
}

/* Linux: madvise_behavior_valid, for the advice Folium serves. */
static bool madvise_behavior_valid(int advice)
{
	switch (advice) {
	case MADV_WILLNEED:
	case MADV_DONTNEED:
	case MADV_FREE:
	case MADV_REMOVE:
	case MADV_HUGEPAGE:
	case MADV_NOHUGEPAGE:
	case MADV_DONTFORK:
	case MADV_DOFORK:
	case MADV_WIPEONFORK:
	case MADV_KEEPONFORK:
	case MADV_COLD:
	case MADV_PAGEOUT:
	case MADV_POPULATE_READ:
	case MADV_POPULATE_WRITE:
	case MADV_COLLAPSE:
	case MADV_GUARD_INSTALL:
	case MADV_GUARD_REMOVE:
		return true;
	default:
		return false;
	}
}

bool process_madvise_remote_valid(int advice)
{
	switch (advice) {
	case MADV_COLD:
	case MADV_PAGEOUT:
	case MADV_WILLNEED:
	case MADV_COLLAPSE:
		return true;
	default:
		return false;
	}
}

static bool madvise_updates_vma_flags(int advice)
{
	return advice == MADV_HUGEPAGE || advice == MADV_NOHUGEPAGE || advice == MADV_DONTFORK ||
	       advice == MADV_DOFORK || advice == MADV_WIPEONFORK || advice == MADV_KEEPONFORK;
}

int do_madvise(struct mm_struct *mm, unsigned long start, size_t len, int advice)
{
	struct mmu_gather tlb;
	unsigned long end;
	int err;

	if (!madvise_behavior_valid(advice))
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if ((len && end == start) || end < start)
		return -EINVAL; /* the rounding or the range overflowed */
	if (end == start)
		return 0;
	/* Linux: madvise_populate goes by its own VMA lookup, and the VMA
	 * flags change by madvise_update_vma's splits and merges. */
	if (advice == MADV_POPULATE_READ || advice == MADV_POPULATE_WRITE)
		return madvise_populate(mm, start, end, advice == MADV_POPULATE_WRITE);
	if (madvise_updates_vma_flags(advice))
		return madvise_update_vma_flags(mm, start, end, advice);
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

/* Linux: sys_madvise; every rule is do_madvise's (mm/madvise.c). */
SYSCALL_DEFINE3(madvise, unsigned long, start, size_t, len, int, advice)
{
	return do_madvise(task->mm, start, len, advice);
}

#define UIO_MAXIOV 1024 /* Linux's limit on a vector's length */

/* Linux: struct iovec (the user's layout). */
struct iovec {
	uint64_t iov_base;
	uint64_t iov_len;
};

/* Linux: import_iovec. Return: the kmalloc'ed vector (NULL for vlen 0)
 * with *err 0, or NULL with -EINVAL (vlen over UIO_MAXIOV, a length
 * negative as ssize_t), -EFAULT or -ENOMEM. */
static struct iovec *import_iovec(unsigned long vec, size_t vlen, int *err)
{
	struct iovec *iov;

	*err = vlen > UIO_MAXIOV ? -EINVAL : 0;
	if (*err || !vlen)
		return NULL;
	iov = kmalloc(vlen * sizeof(*iov), GFP_KERNEL);
	*err = !iov ? -ENOMEM : copy_from_user(iov, vec, vlen * sizeof(*iov)) ? -EFAULT : 0;
	for (size_t i = 0; !*err && i < vlen; i++)
		if ((int64_t)iov[i].iov_len < 0)
			*err = -EINVAL;
	if (*err) {
		kfree(iov);
		iov = NULL;
	}
	return iov;
}

/*
 * Linux: sys_process_madvise, then vector_madvise. flags must be 0; the
 * vector is read whole before the pidfd is looked at; another process's
 * mm may only get the non-destructive advice (process_madvise_remote_valid:
 * never met here, a pidfd names only the caller). Each range is one
 * do_madvise; the first error stops. Return: the bytes of the ranges
 * advised (their lengths as given), or the error if none was.
 */
SYSCALL_DEFINE5(process_madvise, int, pidfd, unsigned long, vec, size_t, vlen, int, advice,
		unsigned int, flags)
{
	struct task_struct *target;
	struct iovec *iov;
	long total = 0;
	int err;

	if (flags)
		return -EINVAL;
	iov = import_iovec(vec, vlen, &err);
	if (err)
		return err;
	target = pidfd_get_task(task, pidfd, &err);
	if (target && target->mm != task->mm && !process_madvise_remote_valid(advice))
		err = -EINVAL;
	for (size_t i = 0; !err && i < vlen; i++) {
		err = do_madvise(target->mm, iov[i].iov_base, iov[i].iov_len, advice);
		total += err ? 0 : (long)iov[i].iov_len;
	}
	kfree(iov);
	return total ? total : err;
}
