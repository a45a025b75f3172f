/*
 * mprotect (Linux: mm/mprotect.c): new protections for a range of VMAs,
 * split at its ends and merged again after, their present entries
 * rewritten with one TLB flush, and the overcommit charge moved as Linux's
 * mprotect_fixup moves it. Example: mprotect(addr, 4096, PROT_READ) in
 * the middle of a 3-page RW VMA leaves three VMAs, the middle one r--p,
 * its page no longer writable; a later PROT_READ|PROT_WRITE merges them.
 */
#include <hugetlb.h>
#include <mman.h>
#include <syscalls.h>
#include <vm.h>
#include "internal.h"

bool mprotect_batched = true;

/* What change_protection does to the present entries of one VMA. */
struct change_prot {
	struct mmu_gather *tlb;
	const struct vm_area_struct *vma; /* its new flags already set */
	uint64_t prot;			  /* NX and USER as vm_get_page_prot gives them */
	bool try_writable;		  /* Linux: MM_CP_TRY_CHANGE_WRITABLE */
};

/* The bits mprotect rewrites: Linux's pte_modify keeps the rest
 * (_PAGE_CHG_MASK: pfn, accessed, dirty, soft-dirty). RW is always taken
 * away first: a private mapping's vm_page_prot has no RW (copy on write),
 * and can_change_pte_writable gives it back where a write fault would. */
#define PROT_CHANGED (_PAGE_NX | _PAGE_USER | _PAGE_RW)

/* Linux: pte_modify(oldpte, vma->vm_page_prot). */
static uint64_t change_modify(const struct change_prot *cp, uint64_t entry)
{
	return (entry & ~PROT_CHANGED) | cp->prot;
}

/* A HugeTLB leaf keeps RW while the VMA is writable and loses it
 * otherwise (Folium's HugeTLB write fault reuses an exclusive page, so
 * it needs no upgrade here). */
static uint64_t hugetlb_modify(const struct change_prot *cp, uint64_t entry)
{
	return (entry & ~PROT_CHANGED) | cp->prot |
	       (cp->vma->vm_flags & VM_WRITE ? entry & _PAGE_RW : 0);
}

/* Linux: x86's pte_needs_flush. A translation the TLB may hold must go
 * when a permission changes or dirty (or present) is taken away; gaining
 * accessed, dirty or soft-dirty needs nothing. */
static bool pte_needs_flush(pte_t oldpte, pte_t newpte)
{
	uint64_t diff = oldpte ^ newpte;

	return (diff & oldpte & (_PAGE_PRESENT | _PAGE_DIRTY)) || (diff & PROT_CHANGED);
}

/*
 * Linux: can_change_pte_writable's checks before the page: the VMA is
 * writable and no soft-dirty tracker waits for this page's first write
 * (Linux: pte_needs_soft_dirty_wp). The page must then be anon-exclusive.
 * Linux's pte_protnone test has nothing to find here: Folium has no NUMA
 * hinting entries, and a writable VMA none of PROT_NONE.
 */
static bool maybe_change_pte_writable(const struct vm_area_struct *vma, uint64_t entry)
{
	return (vma->vm_flags & VM_WRITE) &&
	       ((vma->vm_flags & VM_SOFTDIRTY) || (entry & _PAGE_SOFT_DIRTY));
}

/* Linux: prot_commit_flush_ptes. nr entries from the batch's idx-th
 * written back as ptent (advanced to their pfns), RW added if set_write. */
static void prot_commit_flush_ptes(struct change_prot *cp, unsigned long addr, pte_t *ptep,
				   pte_t oldpte, pte_t ptent, unsigned int nr, unsigned int idx,
				   bool set_write)
{
	addr += idx * PAGE_SIZE;
	ptep += idx;
	oldpte += (pte_t)idx << PAGE_SHIFT;
	ptent += (pte_t)idx << PAGE_SHIFT;
	if (set_write)
		ptent = pte_mkwrite(ptent);
	set_ptes(cp->tlb->mm, addr, ptep, ptent, nr);
	if (pte_needs_flush(oldpte, ptent))
		tlb_remove_tlb_entries(cp->tlb, addr, nr);
}

/*
 * Linux: commit_anon_folio_batch. Whether a page may become writable is
 * its own PG_anon_exclusive, which need not be the same for every page of
 * a batch (fork clears it for the pages it shared; a later reuse sets it
 * again for the ones this VMA maps): the batch goes back in runs of pages
 * that agree, each run writable or not as a whole.
 */
static void commit_anon_folio_batch(struct change_prot *cp, struct page *first, unsigned long addr,
				    pte_t *ptep, pte_t oldpte, pte_t ptent, unsigned int nr)
{
	unsigned int idx, len;

	for (idx = 0; idx < nr; idx += len) {
		bool exclusive = PageAnonExclusive(first + idx);

		for (len = 1; idx + len < nr && PageAnonExclusive(first + idx + len) == exclusive;
		     len++)
			;
		prot_commit_flush_ptes(cp, addr, ptep, oldpte, ptent, len, idx, exclusive);
	}
}

/*
 * Linux: change_pte_range's present case (6.17's change_present_ptes),
 * for the entry at @ptep (@addr) and at most @max_nr after it in this
 * table. A large folio's run of entries mapping consecutive pages of it
 * with the same write and soft-dirty bits (folio_pte_batch with
 * FPB_RESPECT_SOFT_DIRTY | FPB_RESPECT_WRITE) is taken out at once
 * (modify_prot_start_ptes, which makes the whole run dirty if one entry
 * was), given the new protection and written back in one set_ptes, or in
 * runs that agree on PG_anon_exclusive when it may become writable.
 * mprotect_batched off takes one entry at a time, Linux before 6.17.
 * Return: the entries changed.
 */
static unsigned int change_present_ptes(struct change_prot *cp, pte_t *ptep, unsigned long addr,
					unsigned int max_nr)
{
	pte_t oldpte = *ptep, ptent;
	struct folio *folio = NULL;
	unsigned int nr = 1;

	if (!is_zero_pfn(pte_pfn(oldpte))) /* Linux: vm_normal_folio */
		folio = page_folio(pte_page(oldpte));
	if (mprotect_batched && folio && folio_test_large(folio) && max_nr > 1)
		nr = folio_pte_batch_flags(folio, ptep, oldpte, max_nr,
					   FPB_RESPECT_SOFT_DIRTY | FPB_RESPECT_WRITE, NULL, NULL,
					   NULL);
	oldpte = modify_prot_start_ptes(cp->tlb->mm, addr, ptep, nr);
	ptent = change_modify(cp, oldpte);
	cp->tlb->mm->counters[MM_MPROTECT_BATCHES]++;
	/* Linux: set_write_prot_commit_flush_ptes, for a private mapping;
	 * a shared one's pages are the file's, writable wherever the VMA is
	 * (shmem needs no write notification) and no soft-dirty tracker
	 * waits for the write fault. */
	if (cp->try_writable && folio && folio_test_anon(folio) &&
	    maybe_change_pte_writable(cp->vma, ptent))
		commit_anon_folio_batch(cp, pte_page(oldpte), addr, ptep, oldpte, ptent, nr);
	else if ((cp->vma->vm_flags & VM_SHARED) && maybe_change_pte_writable(cp->vma, ptent))
		prot_commit_flush_ptes(cp, addr, ptep, oldpte, ptent, nr, 0, true);
	else
		prot_commit_flush_ptes(cp, addr, ptep, oldpte, ptent, nr, 0, false);
	return nr;
}

/* Linux: change_pte_range. Markers (guard regions) stay as they are. */
static void change_pte_range(struct change_prot *cp, pmd_t *pmdp, unsigned long addr,
			     unsigned long end)
{
	pte_t *ptep = pte_offset_map(pmdp, addr);
	unsigned int nr;

	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (pte_present(*ptep))
			nr = change_present_ptes(cp, ptep, addr,
						 (unsigned int)((end - addr) >> PAGE_SHIFT));
	}
}

/* Linux: can_change_pmd_writable, as change_present_ptes decides for
 * PTEs: RW back on an anon-exclusive folio, or on a page-cache one in a
 * shared mapping; never on the huge zero folio. */
static bool can_change_pmd_writable(const struct change_prot *cp, pmd_t old, pmd_t pmd)
{
	if (is_huge_zero_pmd(old) || !maybe_change_pte_writable(cp->vma, pmd))
		return false;
	if (folio_test_anon(pmd_folio(old)))
		return cp->try_writable && PageAnonExclusive(pmd_page(old));
	return cp->vma->vm_flags & VM_SHARED;
}

/*
 * A PTE table batch by batch; a THP's PMD leaf as Linux's change_huge_pmd
 * (can_change_pmd_writable); a HugeTLB leaf by hugetlb_modify.
 * split_huge_pmd() left only leaves wholly inside the range.
 */
static int change_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct change_prot *cp = walk->private;
	pmd_t old = *pmdp, pmd;

	walk->action = ACTION_CONTINUE;
	if (!pmd_leaf(old)) {
		change_pte_range(cp, pmdp, addr, next);
		return 0;
	}
	if (PageFlag(pmd_page(old), PG_hugetlb)) {
		pmd = hugetlb_modify(cp, old);
	} else {
		pmd = change_modify(cp, old);
		if (can_change_pmd_writable(cp, old, pmd))
			pmd |= _PAGE_RW;
	}
	if (pmd == old)
		return 0;
	pmdp_get_and_clear(walk->mm, addr, pmdp);
	set_pmd_at(walk->mm, addr, pmdp, pmd);
	if (pte_needs_flush(old, pmd))
		tlb_remove_pmd_tlb_entry(cp->tlb, addr);
	return 0;
}

/* A 1 GiB HugeTLB leaf: only whole ones, as hugetlb_vm_op_split allows. */
static int change_pud(pud_t *pudp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct change_prot *cp = walk->private;
	pud_t pud = hugetlb_modify(cp, *pudp);

	(void)next;
	if (pud == *pudp)
		return 0;
	pudp_get_and_clear(walk->mm, addr, pudp);
	set_pud_at(walk->mm, addr, pudp, pud);
	tlb_remove_pud_tlb_entry(cp->tlb, addr);
	return 0;
}

static const struct mm_walk_ops change_prot_walk_ops = {
	.pmd_entry = change_pmd,
	.pud_entry = change_pud,
};

/*
 * Rewrite the present entries of vma's part of [start, end) for its new
 * flags (Linux: change_protection; the caller's mmu_gather flushes once
 * for the whole call). NX and USER follow vm_get_page_prot; RW is taken
 * away and given back, when the VMA is writable, to the entries a write
 * fault would make writable without a copy (Linux:
 * can_change_pte_writable): anon-exclusive pages not waiting for a
 * soft-dirty fault. The zero page never gets RW.
 */
static void change_protection(struct mmu_gather *tlb, const struct vm_area_struct *vma,
			      unsigned long start, unsigned long end)
{
	struct change_prot cp = {
		.tlb = tlb,
		.vma = vma,
		.prot = vm_get_page_prot(vma->vm_flags) & (_PAGE_NX | _PAGE_USER),
		/* Linux: vma_wants_manual_pte_write_upgrade, a private mapping */
		.try_writable = vma->vm_flags & VM_WRITE,
	};

	walk_page_range(tlb->mm, MAX(vma->vm_start, start), MIN(vma->vm_end, end),
			&change_prot_walk_ops, &cp);
}

/* The flags mprotect leaves as they were. */
#define VM_MPROTECT_KEEP                                                                           \
	(VM_HUGEPAGE | VM_NOHUGEPAGE | VM_ACCOUNT | VM_NORESERVE | VM_LOCKED_MASK | VM_SOFTDIRTY | \
	 VM_HUGETLB | VM_HSTATE_MASK | VM_DROPPABLE | VM_DONTCOPY | VM_WIPEONFORK | VM_SHARED |    \
	 VM_MAYWRITE | VM_MAYSHARE)

/* Linux: mprotect_fixup's rule. A program's private VMA becoming writable
 * is charged unless it was charged, writable or VM_NORESERVE already. */
static bool mprotect_needs_charge(const struct vm_area_struct *vma, unsigned long vm_flags)
{
	return !(vma->vm_flags & (VM_ACCOUNT | VM_WRITE)) &&
	       accountable_mapping(vm_flags | (vma->vm_flags & (VM_NORESERVE | VM_SHARED)));
}

/* The pages of [start, end) mprotect to vm_flags must charge. */
static long mprotect_charge(struct mm_struct *mm, unsigned long start, unsigned long end,
			    unsigned long vm_flags)
{
	long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= start || vma->vm_start >= end ||
		    !mprotect_needs_charge(vma, vm_flags))
			continue;
		pages += (long)((MIN(vma->vm_end, end) - MAX(vma->vm_start, start)) >> PAGE_SHIFT);
	}
	return pages;
}

/* Linux: mprotect_fixup's uncharge. A charged VMA losing write that has
 * never had an anonymous folio is uncharged. Decided per VMA before the
 * splits (Linux's anon_vma is the whole VMA's), carried through them by
 * a mark in vm_flags that only mprotect sets and clears. */
#define VM_MPROTECT_UNCHARGE (1ul << 62)
static void mprotect_find_uncharged(struct mm_struct *mm, unsigned long start, unsigned long end,
				    unsigned long vm_flags)
{
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= start || vma->vm_start >= end)
			continue;
		if (!(vm_flags & VM_WRITE) && (vma->vm_flags & VM_ACCOUNT) && !vma->anon_vma)
			vma->vm_flags |= VM_MPROTECT_UNCHARGE;
	}
}

int vm_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags)
{
	unsigned long end = start + ALIGN_UP(len, PAGE_SIZE);
	struct mmu_gather tlb;
	long charged;

	if ((start & (PAGE_SIZE - 1)) || (vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC | VM_USER)))
		return -EINVAL;
	if (!len)
		return 0;
	if (end <= start || end > USER_VA_END)
		return -ENOMEM;
	/* Everything that can fail comes before the first change, so an
	 * error leaves the flags as they were (Linux changes the part before
	 * a hole and then fails). Splits alone change no translation. */
	if (vma_range_has_hole(mm, start, end))
		return -ENOMEM;
	/* Linux: mprotect's "newflags & ~(newflags >> 4)" test: a shared
	 * mapping without VM_MAYWRITE never becomes writable. */
	for (int i = 0; i < mm->nr_vmas && (vm_flags & VM_WRITE); i++)
		if (mm->vmas[i].vm_end > start && mm->vmas[i].vm_start < end &&
		    (mm->vmas[i].vm_flags & (VM_SHARED | VM_MAYWRITE)) == VM_SHARED)
			return -EACCES;
	if (!hugetlb_range_aligned(mm, start, end))
		return -EINVAL; /* Linux: hugetlb_vm_op_split */
	charged = mprotect_charge(mm, start, end, vm_flags);
	if (charged && __vm_enough_memory(mm, charged, true))
		return -ENOMEM;
	/* Room for both splits first, so only a PMD split can fail them. */
	if (mm_vmas_reserve(mm, 2)) {
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	mprotect_find_uncharged(mm, start, end, vm_flags);
	if (split_huge_pmd(mm, start) || split_huge_pmd(mm, end) || split_vma(mm, start) ||
	    split_vma(mm, end)) {
		for (int i = 0; i < mm->nr_vmas; i++)
			mm->vmas[i].vm_flags &= ~VM_MPROTECT_UNCHARGE;
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	tlb_gather_mmu(&tlb, mm);
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];
		unsigned long old_flags = vma->vm_flags & ~VM_MPROTECT_UNCHARGE;

		if (vma->vm_start < start || vma->vm_end > end) {
			/* A split's part outside the range keeps its charge. */
			vma->vm_flags &= ~VM_MPROTECT_UNCHARGE;
			continue;
		}
		if (mprotect_needs_charge(vma, vm_flags))
			vma->vm_flags |= VM_ACCOUNT;
		if (vma->vm_flags & VM_MPROTECT_UNCHARGE) {
			vma->vm_flags &= ~(VM_ACCOUNT | VM_MPROTECT_UNCHARGE);
			vm_unacct_memory((long)((vma->vm_end - vma->vm_start) >> PAGE_SHIFT));
		}
		vma->vm_flags = vm_flags | (vma->vm_flags & VM_MPROTECT_KEEP);
		/* Linux: mprotect_fixup changes nothing for unchanged flags. */
		if (vma->vm_flags != old_flags)
			change_protection(&tlb, vma, start, end);
	}
	tlb_finish_mmu(&tlb);
	vma_merge_range(mm, start, end);
	return 0;
}

/* Linux: sys_mprotect. PROT_SEM, PROT_GROWSDOWN and PROT_GROWSUP are not
 * served: -EINVAL, as Linux for an unknown bit. */
SYSCALL_DEFINE3(mprotect, unsigned long, start, size_t, len, unsigned long, prot)
{
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	return vm_mprotect(task->mm, start, len, calc_vm_prot_bits(prot) | VM_USER);
}
