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

/* What change_protection does to each present entry: clear then set. */
struct change_prot {
	struct mmu_gather tlb;
	uint64_t clear, set;
};

static int change_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct change_prot *cp = walk->private;
	pte_t pte = (*ptep & ~cp->clear) | cp->set;

	if (pte == *ptep)
		return 0;
	ptep_get_and_clear(walk->mm, addr, ptep);
	set_ptes(walk->mm, addr, ptep, pte, 1);
	tlb_remove_tlb_entries(&cp->tlb, addr, 1);
	return 0;
}

/* split_huge_pmd() left only leaves wholly inside the range. */
static int change_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct change_prot *cp = walk->private;
	pmd_t pmd;

	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	pmd = (*pmdp & ~cp->clear) | cp->set;
	if (pmd == *pmdp)
		return 0;
	pmdp_get_and_clear(walk->mm, addr, pmdp);
	set_pmd_at(walk->mm, addr, pmdp, pmd);
	tlb_remove_pmd_tlb_entry(&cp->tlb, addr);
	return 0;
}

/* A 1 GiB HugeTLB leaf: only whole ones, as hugetlb_vm_op_split allows. */
static int change_pud(pud_t *pudp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct change_prot *cp = walk->private;
	pud_t pud = (*pudp & ~cp->clear) | cp->set;

	(void)next;
	if (pud == *pudp)
		return 0;
	pudp_get_and_clear(walk->mm, addr, pudp);
	set_pud_at(walk->mm, addr, pudp, pud);
	tlb_remove_pud_tlb_entry(&cp->tlb, addr);
	return 0;
}

static const struct mm_walk_ops change_prot_walk_ops = {
	.pmd_entry = change_pmd,
	.pte_entry = change_pte,
	.pud_entry = change_pud,
};

/*
 * Rewrite the present entries of [start, end) for vm_flags, then one
 * flush (Linux: change_protection + flush_tlb_range). RW is only taken
 * away: an entry gaining VM_WRITE stays read-only until its next write
 * fault sets RW and dirty (wp_page_reuse), and the zero page never gets
 * RW. NX and USER follow vm_get_page_prot.
 */
static void change_protection(struct mm_struct *mm, unsigned long start, unsigned long end,
			      unsigned long vm_flags)
{
	const uint64_t follow = _PAGE_NX | _PAGE_USER;
	struct change_prot cp = {
		.clear = follow | (vm_flags & VM_WRITE ? 0 : _PAGE_RW),
		.set = vm_get_page_prot(vm_flags) & follow,
	};

	tlb_gather_mmu(&cp.tlb, mm);
	walk_page_range(mm, start, end, &change_prot_walk_ops, &cp);
	tlb_finish_mmu(&cp.tlb);
}

/* The flags mprotect leaves as they were. */
#define VM_MPROTECT_KEEP                                                                           \
	(VM_HUGEPAGE | VM_NOHUGEPAGE | VM_ACCOUNT | VM_NORESERVE | VM_LOCKED_MASK | VM_SOFTDIRTY | \
	 VM_HUGETLB | VM_HSTATE_MASK | VM_DROPPABLE | VM_DONTCOPY | VM_WIPEONFORK)

/* Linux: mprotect_fixup's rule. A program's private VMA becoming writable
 * is charged unless it was charged, writable or VM_NORESERVE already. */
static bool mprotect_needs_charge(const struct vm_area_struct *vma, unsigned long vm_flags)
{
	return !(vma->vm_flags & (VM_ACCOUNT | VM_WRITE)) &&
	       accountable_mapping(vm_flags | (vma->vm_flags & VM_NORESERVE));
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
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

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
	}
	change_protection(mm, start, end, vm_flags);
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
