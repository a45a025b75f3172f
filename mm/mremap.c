/*
 * mremap (Linux: mm/mremap.c): shrink a mapping, grow it in place, or
 * move it, with Linux's order of checks and errno values. Shrinking
 * unmaps the tail; growing extends the VMA when the pages after it are
 * free; otherwise MREMAP_MAYMOVE moves it. A move here copies instead of
 * moving page tables (the rmap records each folio's address, so entries
 * cannot just change place): a new VMA, each present page's bytes copied
 * into it through copy_to_user (zero-page entries are skipped, they read
 * as zero anyway), then the old range unmapped, or with MREMAP_DONTUNMAP
 * emptied. Example: a 3-page VMA at A whose next page is taken, grown to
 * 4 pages with MAYMOVE, becomes a 4-page VMA at B with A's 3 pages' bytes.
 */
#include <binfmt_elf.h>
#include <syscalls.h>
#include <vm.h>

#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4

/* Linux: vma_to_resize. A private mapping cannot be duplicated (old_len
 * 0), and the old range must lie in the one VMA at addr. */
static long vma_to_resize(struct vm_area_struct *vma, unsigned long addr, unsigned long old_len)
{
	if (!vma)
		return -EFAULT;
	if (!old_len)
		return -EINVAL;
	if (old_len > vma->vm_end - addr)
		return -EFAULT;
	return 0;
}

/* Linux: vma_expandable. Return: can vma grow by delta bytes in place? */
static bool vma_expandable(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long delta)
{
	unsigned long end = vma->vm_end + delta;

	return end > vma->vm_end && end <= TASK_SIZE &&
	       !find_vma_intersection(mm, vma->vm_end, end);
}

struct mremap_copy {
	unsigned long old_addr, new_addr;
};

/* Copy len bytes at the kernel address src to where addr moves. A
 * reference keeps the folio while the copy's own faults may reclaim. */
static int copy_moved(struct mm_walk *walk, struct page *page, unsigned long addr, const void *src,
		      size_t len)
{
	struct mremap_copy *mc = walk->private;
	struct folio *folio = page_folio(page);
	int err;

	folio_get(folio);
	err = copy_to_user(mc->new_addr + (addr - mc->old_addr), src, len);
	folio_put(folio);
	return err;
}

static int copy_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	pmd_t pmd = *pmdp;

	if (!pmd_leaf(pmd))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (is_huge_zero_pmd(pmd))
		return 0;
	return copy_moved(walk, pmd_page(pmd), addr,
			  (char *)page_address(pmd_page(pmd)) + (addr & ~PMD_MASK), next - addr);
}

static int copy_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	pte_t pte = *ptep;

	if (is_zero_pfn(pte_pfn(pte)))
		return 0;
	return copy_moved(walk, pte_page(pte), addr, page_address(pte_page(pte)), PAGE_SIZE);
}

static const struct mm_walk_ops copy_ops = {
	.pmd_entry = copy_pmd,
	.pte_entry = copy_pte,
};

/* A new anonymous range for the move: new_addr exactly (MREMAP_FIXED,
 * already unmapped), else the hint if free, else anywhere below
 * TASK_SIZE. Return: its address or -ENOMEM. */
static unsigned long map_new_range(struct mm_struct *mm, unsigned long new_addr, unsigned long len,
				   unsigned long vm_flags, bool fixed)
{
	unsigned long addr = (unsigned long)-ENOMEM;

	if (fixed || new_addr)
		addr = vm_mmap(mm, new_addr, len, vm_flags, 0);
	if (!fixed && IS_ERR_VALUE(addr))
		addr = vm_mmap(mm, 0, len, vm_flags, 0);
	if (!IS_ERR_VALUE(addr) && addr + len > TASK_SIZE) {
		vm_munmap(mm, addr, len);
		return (unsigned long)-ENOMEM;
	}
	return IS_ERR_VALUE(addr) ? (unsigned long)-ENOMEM : addr;
}

/*
 * Linux: move_vma. The new VMA is writable while the bytes are copied in,
 * then gets the old flags; nothing of the old range changes until the
 * copy succeeded. Return: the new address, or -ENOMEM (no VMA slot, no
 * room, or no memory for the copy: then the old range is as it was).
 * Context: mm is current (copy_to_user writes through it).
 */
static long move_vma(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		     unsigned long new_len, unsigned long new_addr, unsigned long flags)
{
	unsigned long vm_flags = find_vma(mm, addr)->vm_flags;
	unsigned long prot = vm_flags & (VM_READ | VM_WRITE | VM_EXEC | VM_USER);
	struct mremap_copy mc = { addr, 0 };
	struct vm_area_struct *vma;

	/* The new VMA, and a split of the old one (Linux: map_count). */
	if (mm->nr_vmas + 2 > MM_MAX_VMAS)
		return -ENOMEM;
	mc.new_addr = map_new_range(mm, new_addr, new_len, prot | VM_WRITE, flags & MREMAP_FIXED);
	if (IS_ERR_VALUE(mc.new_addr))
		return -ENOMEM;
	if (walk_page_range(mm, addr, addr + old_len, &copy_ops, &mc) ||
	    (!(prot & VM_WRITE) && vm_mprotect(mm, mc.new_addr, new_len, prot))) {
		vm_munmap(mm, mc.new_addr, new_len);
		return -ENOMEM;
	}
	/* The other flags (VM_HUGEPAGE, ...) move too, unless mprotect
	 * merged the new VMA with a neighbour that lacks them. */
	vma = find_vma(mm, mc.new_addr);
	if (vma->vm_start == mc.new_addr && vma->vm_end == mc.new_addr + new_len)
		vma->vm_flags = vm_flags;
	if (flags & MREMAP_DONTUNMAP)
		zap_page_range(mm, addr, addr + old_len);
	else
		vm_munmap(mm, addr, old_len);
	return (long)mc.new_addr;
}

/* Linux: mremap_to, for MREMAP_FIXED and MREMAP_DONTUNMAP. */
static long mremap_to(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		      unsigned long new_addr, unsigned long new_len, unsigned long flags)
{
	long err;

	if (new_addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL; /* the ranges overlap */
	/* Both ranges may split a VMA, and the move adds one (Linux's
	 * map_count check, so nothing is unmapped before it fails). */
	if (mm->nr_vmas + 3 > MM_MAX_VMAS)
		return -ENOMEM;
	if (flags & MREMAP_FIXED) {
		err = vm_munmap(mm, new_addr, new_len);
		if (err)
			return err;
	}
	if (old_len > new_len) {
		err = vm_munmap(mm, addr + new_len, old_len - new_len);
		if (err)
			return err;
		old_len = new_len;
	}
	err = vma_to_resize(find_vma(mm, addr), addr, old_len);
	if (err)
		return err;
	return move_vma(mm, addr, old_len, new_len, new_addr, flags);
}

/*
 * Linux: sys_mremap. The checks in its order: flags (unknown ones,
 * FIXED without MAYMOVE, DONTUNMAP without MAYMOVE or with a new size),
 * addr alignment, new_len 0 (all -EINVAL), then addr in no VMA (-EFAULT).
 */
SYSCALL_DEFINE5(mremap, unsigned long, addr, unsigned long, old_len, unsigned long, new_len,
		unsigned long, flags, unsigned long, new_addr)
{
	struct mm_struct *mm = task->mm;
	struct vm_area_struct *vma;
	long err;

	if (flags & ~(unsigned long)(MREMAP_FIXED | MREMAP_MAYMOVE | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if ((flags & MREMAP_DONTUNMAP) && (!(flags & MREMAP_MAYMOVE) || old_len != new_len))
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	old_len = ALIGN_UP(old_len, PAGE_SIZE);
	new_len = ALIGN_UP(new_len, PAGE_SIZE);
	if (!new_len)
		return -EINVAL;
	vma = find_vma(mm, addr);
	if (!vma)
		return -EFAULT;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, addr, old_len, new_addr, new_len, flags);
	if (old_len >= new_len) {
		err = old_len > new_len ? vm_munmap(mm, addr + new_len, old_len - new_len) : 0;
		return err ? err : (long)addr;
	}
	err = vma_to_resize(vma, addr, old_len);
	if (err)
		return err;
	if (old_len == vma->vm_end - addr && vma_expandable(mm, vma, new_len - old_len)) {
		vma->vm_end += new_len - old_len; /* faults fill the new pages */
		return (long)addr;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	return move_vma(mm, addr, old_len, new_len, 0, flags);
}
