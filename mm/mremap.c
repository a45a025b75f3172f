/*
 * mremap (Linux: mm/mremap.c): shrink a mapping, grow it in place, or
 * move it, with Linux's order of checks and errno values. Shrinking
 * unmaps the tail; growing extends the VMA when the pages after it are
 * free, merging it with the next one; otherwise MREMAP_MAYMOVE moves it:
 * a new VMA, the entries moved into it as Linux does when every folio
 * fits (move_page_tables below), else each present page's bytes copied in
 * through copy_to_user (zero-page entries skipped, they read as zero
 * anyway); then the old range unmapped, or with MREMAP_DONTUNMAP emptied,
 * and the new VMA merged with its neighbours if it was never faulted.
 * MREMAP_FIXED at the same size moves every VMA of the range, the gaps
 * between them kept (remap_move). Example: a 3-page VMA at A whose next
 * page is taken, grown to 4 pages with MAYMOVE, becomes a 4-page VMA at
 * B with A's 3 pages' bytes.
 */
#include <hugetlb.h>
#include <mman.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/processor.h>

#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
#define MREMAP_DONTUNMAP 4

/* Linux: vma_to_resize (resize_is_valid). A private mapping cannot be
 * duplicated (old_len 0), the old range must lie in the one VMA at addr,
 * and growing must stay under RLIMIT_AS and RLIMIT_DATA (-ENOMEM). */
static long vma_to_resize(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long addr,
			  unsigned long old_len, unsigned long new_len)
{
	if (!vma)
		return -EFAULT;
	if (!old_len)
		return -EINVAL;
	if (old_len > vma->vm_end - addr)
		return -EFAULT;
	if (new_len > old_len &&
	    !may_expand_vm(mm, vma->vm_flags, (new_len - old_len) >> PAGE_SHIFT))
		return -ENOMEM;
	return 0;
}

/*
 * A HugeTLB VMA: lengths rounded up to its page size, the addresses
 * aligned, never grown (Linux: check_prep_vma: "the underlying hugetlb
 * reservation is not yet capable to handle split reservation"), and
 * never moved here (MREMAP_DONTUNMAP is -EINVAL in Linux too; Folium's
 * reservation map is by address, so MREMAP_FIXED is as well).
 * Return: 0, or -EINVAL.
 */
static int mremap_hugetlb_check(const struct vm_area_struct *vma, unsigned long addr,
				unsigned long *old_len, unsigned long *new_len, unsigned long flags)
{
	unsigned long size = huge_page_size(hstate_vma(vma));

	*old_len = ALIGN_UP(*old_len, size);
	*new_len = ALIGN_UP(*new_len, size);
	if ((addr & (size - 1)) || *new_len > *old_len)
		return -EINVAL;
	return flags & (MREMAP_FIXED | MREMAP_DONTUNMAP) ? -EINVAL : 0;
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

/* Guard markers go where their pages move (Linux: move_ptes moves every
 * entry). For a copy they are placed first, so the new range's PTE
 * table exists and no fault of the copy maps a PMD leaf over them. */
static int copy_marker(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	const struct mremap_copy *mc = walk->private;
	unsigned long to = mc->new_addr + (addr - mc->old_addr);
	pmd_t *pmd = pmd_alloc(walk->mm, to);
	pte_t *pte = pmd ? pte_alloc_map(walk->mm, pmd, to) : NULL;

	if (!pte)
		return -ENOMEM;
	set_ptes(walk->mm, to, pte, *ptep, 1);
	return 0;
}

static const struct mm_walk_ops copy_marker_ops = {
	.pte_marker_entry = copy_marker,
};

/*
 * Moving the entries themselves (Linux: move_page_tables): the folios stay
 * and only their mappings change place, so each moved folio's rmap
 * address moves with them. Folium's rmap keeps one naturally aligned
 * address per folio, so this is possible only when every folio the range
 * maps lies wholly inside it and the distance keeps each one aligned (a
 * PMD leaf: PMD-aligned, moved whole); otherwise the bytes are copied.
 * Example: 2 MiB of 64K folios moved from 0x40000000 to 0x40600000 keeps
 * its 32 folios, each folio's address now 6 MiB higher.
 */
struct mremap_move {
	unsigned long old_addr, old_end, delta;
	struct vm_area_struct old_vma; /* a copy: where its folios are (vma_address) */
};

/* The first pass changes nothing but the new range's tables: it refuses
 * (-EBUSY) a folio that cannot move, and allocates every table the
 * entries will need, so the second pass cannot fail half way. */
static int check_move_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	const struct mremap_move *mv = walk->private;
	unsigned long to = addr + mv->delta, last = next - PAGE_SIZE + mv->delta;
	pmd_t *pmd;

	if (!pmd_leaf(*pmdp)) {
		pmd = pmd_alloc(walk->mm, to);
		if (!pmd || !pte_alloc_map(walk->mm, pmd, to))
			return -ENOMEM;
		pmd = pmd_alloc(walk->mm, last);
		return pmd && pte_alloc_map(walk->mm, pmd, last) ? 0 : -ENOMEM;
	}
	walk->action = ACTION_CONTINUE;
	if ((addr & ~PMD_MASK) || next - addr != PMD_SIZE || (mv->delta & ~PMD_MASK))
		return -EBUSY;
	return pmd_alloc(walk->mm, to) ? 0 : -ENOMEM;
}

static int check_move_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	const struct mremap_move *mv = walk->private;
	struct folio *folio = page_folio(pte_page(*ptep));
	unsigned long first = vma_address(&mv->old_vma, folio->page.index);

	(void)addr;
	if (is_zero_pfn(pte_pfn(*ptep)))
		return 0;
	if (first < mv->old_addr || first + folio_size(folio) > mv->old_end ||
	    mv->delta % folio_size(folio))
		return -EBUSY;
	return 0;
}

static const struct mm_walk_ops check_move_ops = {
	.pmd_entry = check_move_pmd,
	.pte_entry = check_move_pte,
};

static int move_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct mremap_move *mv = walk->private;
	pmd_t old;

	(void)next;
	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	old = pmdp_get_and_clear(walk->mm, addr, pmdp);
	/* Linux: move_huge_pmd's move_soft_dirty_pmd, a moved leaf is new
	 * data to a tracker. */
	set_pmd_at(walk->mm, addr + mv->delta, pmd_alloc(walk->mm, addr + mv->delta),
		   pmd_mksoft_dirty(old));
	return 0;
}

/* Does Linux move the whole PTE table holding addr's entry (old and new
 * PMD-aligned, the range covering it: move_normal_pmd), so the entries
 * keep every bit? Otherwise move_ptes moves them one by one, marking
 * each soft-dirty (move_soft_dirty_pte): new data to a tracker. */
static bool mremap_moves_whole_table(const struct mremap_move *mv, unsigned long addr)
{
	unsigned long table = addr & PMD_MASK;

	return !(mv->delta & ~PMD_MASK) && table >= mv->old_addr && table + PMD_SIZE <= mv->old_end;
}

static int move_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct mremap_move *mv = walk->private;
	unsigned long to = addr + mv->delta;
	pte_t old = ptep_get_and_clear(walk->mm, addr, ptep);

	if (!mremap_moves_whole_table(mv, addr))
		old = pte_mksoft_dirty(old);
	set_ptes(walk->mm, to, pte_alloc_map(walk->mm, pmd_alloc(walk->mm, to), to), old, 1);
	return 0;
}

/* A guard marker moves as a present entry does (its table was made by
 * check_move_pmd). */
static const struct mm_walk_ops move_ops = {
	.pmd_entry = move_pmd,
	.pte_entry = move_pte,
	.pte_marker_entry = move_pte,
};

/* Move the entries of [addr, addr + len) to new_addr, one flush for the
 * old range. Return: 0, -EBUSY when some folio cannot move (nothing
 * moved: copy instead), or -ENOMEM. */
static int move_page_tables(struct mm_struct *mm, unsigned long addr, unsigned long len,
			    unsigned long new_addr)
{
	struct mremap_move mv = { addr, addr + len, new_addr - addr, *find_vma(mm, addr) };
	int err = walk_page_range(mm, addr, addr + len, &check_move_ops, &mv);

	if (err)
		return err;
	walk_page_range(mm, addr, addr + len, &move_ops, &mv);
	flush_tlb_range(mm, addr, addr + len);
	return 0;
}

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

/* Linux: vrm_charge. An accounted VMA moving charges the pages it grows
 * by, or all of new_len with MREMAP_DONTUNMAP (the old range stays).
 * Return: the pages charged, or -ENOMEM (the policy refused). */
static long mremap_charge(struct mm_struct *mm, unsigned long vm_flags, unsigned long old_len,
			  unsigned long new_len, unsigned long flags)
{
	long charged;

	if (!(vm_flags & VM_ACCOUNT))
		return 0;
	charged = (long)(((flags & MREMAP_DONTUNMAP) ? new_len : new_len - old_len) >> PAGE_SHIFT);
	if (charged && __vm_enough_memory(mm, charged, true))
		return -ENOMEM;
	return charged;
}

/*
 * Linux: move_vma. The entries move when every folio can
 * (move_page_tables); else the new VMA is writable while the bytes are
 * copied in. Then it gets the old flags; nothing of the old range changes
 * until the move or the copy succeeded. Return: the new address, or
 * -ENOMEM (no VMA slot, no room, or no memory for the copy: then the old
 * range is as it was). Context: mm is current (copy_to_user writes
 * through it).
 */
static long move_vma(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		     unsigned long new_len, unsigned long new_addr, unsigned long flags)
{
	struct vm_area_struct *old_vma = find_vma(mm, addr);
	unsigned long vm_flags = old_vma->vm_flags;
	unsigned long prot = vm_flags & (VM_READ | VM_WRITE | VM_EXEC | VM_USER);
	/* Linux's copy_vma gives a VMA never faulted the new address's pgoff,
	 * so it can merge there; a faulted one keeps its anon_vma and old
	 * pgoff (vma_set_anon_vma), which its new neighbours seldom continue:
	 * vma_merge_new_range's rules decide. */
	struct anon_vma *av = old_vma->anon_vma;
	unsigned long pgoff = linear_page_index(old_vma, addr);
	struct mremap_copy mc = { addr, 0 };
	struct vm_area_struct *vma;
	long charged;
	bool whole;
	int err;

	/* The new VMA, and a split of the old one (Linux: move_vma's
	 * map_count check). */
	if (mm->nr_vmas >= sysctl_max_map_count - 3 || mm_vmas_reserve(mm, 2))
		return -ENOMEM;
	charged = mremap_charge(mm, vm_flags, old_len, new_len, flags);
	if (charged < 0)
		return -ENOMEM;
	/* Not charged by vm_mmap: the old range's charge moves with it. A
	 * locked VMA's copies are mlocked as they fault in; moved entries keep
	 * their folios' mlock. */
	mc.new_addr = map_new_range(mm, new_addr, new_len,
				    prot | VM_WRITE | VM_NORESERVE | (vm_flags & VM_LOCKED_MASK),
				    flags & MREMAP_FIXED);
	if (IS_ERR_VALUE(mc.new_addr)) {
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	err = move_page_tables(mm, addr, old_len, mc.new_addr);
	if (!err && av) /* the moved folios keep their index */
		vma_set_anon_vma(mm, find_vma(mm, mc.new_addr), av, pgoff);
	if (err == -EBUSY) {
		err = walk_page_range(mm, addr, addr + old_len, &copy_marker_ops, &mc);
		if (!err)
			err = walk_page_range(mm, addr, addr + old_len, &copy_ops, &mc);
	}
	if (err || (!(prot & VM_WRITE) && vm_mprotect(mm, mc.new_addr, new_len, prot))) {
		vm_munmap(mm, mc.new_addr, new_len);
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	/* The other flags (VM_HUGEPAGE, VM_ACCOUNT, ...) move too, unless
	 * mprotect merged the new VMA with a neighbour that lacks them: then
	 * the new range is not charged either. */
	vma = find_vma(mm, mc.new_addr);
	whole = vma->vm_start == mc.new_addr && vma->vm_end == mc.new_addr + new_len;
	if (whole)
		vma->vm_flags = vm_flags;
	else
		vm_unacct_memory(charged);
	if (flags & MREMAP_DONTUNMAP) {
		zap_page_range(mm, addr, addr + old_len);
	} else {
		/* Linux clears the old VMA's VM_ACCOUNT before unmapping it, so
		 * its charge stays with the new one: the munmap uncharges what
		 * this adds. */
		if (whole && (vm_flags & VM_ACCOUNT))
			vm_acct_memory((long)(old_len >> PAGE_SHIFT));
		vm_munmap(mm, addr, old_len);
	}
	/* Linux: copy_vma's vma_merge_copied_range (never with a
	 * MREMAP_DONTUNMAP source). */
	if (whole)
		vma_merge_new_range(mm, mc.new_addr, true, flags & MREMAP_DONTUNMAP ? addr : 0);
	if (vm_flags & VM_LOCKED) /* Linux: mremap's mm_populate of the grown part */
		__mm_populate(mm, mc.new_addr + old_len, new_len - old_len, true);
	return (long)mc.new_addr;
}

/* Linux: check_mremap_params's checks of new_addr, for MREMAP_FIXED and
 * MREMAP_DONTUNMAP: all -EINVAL, before the old range is looked up.
 * Return: 0 or -EINVAL. */
static int mremap_check_new_addr(unsigned long addr, unsigned long old_len, unsigned long new_addr,
				 unsigned long new_len)
{
	if (new_len > TASK_SIZE || new_addr > TASK_SIZE - new_len)
		return -EINVAL;
	if (new_addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (addr + old_len > new_addr && new_addr + new_len > addr)
		return -EINVAL; /* the ranges overlap (vrm_overlaps) */
	return 0;
}

/* Linux: mremap_to, for MREMAP_FIXED and MREMAP_DONTUNMAP. */
static long mremap_to(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
		      unsigned long new_addr, unsigned long new_len, unsigned long flags)
{
	long err;

	/* Both ranges may split a VMA, and the move adds one (Linux's
	 * map_count check, so nothing is unmapped before it fails). */
	if (mm->nr_vmas + 2 >= sysctl_max_map_count - 3 || mm_vmas_reserve(mm, 3))
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
	err = vma_to_resize(mm, find_vma(mm, addr), addr, old_len, new_len);
	if (err)
		return err;
	/* The old range stays mapped (Linux's mremap_to checks it too). */
	if ((flags & MREMAP_DONTUNMAP) &&
	    !may_expand_vm(mm, find_vma(mm, addr)->vm_flags, old_len >> PAGE_SHIFT))
		return -ENOMEM;
	return move_vma(mm, addr, old_len, new_len, new_addr, flags);
}

/*
 * Linux: remap_move (6.17+), for MREMAP_FIXED without a change of size:
 * every VMA of [addr, addr + len) moves, each split at the range's ends,
 * the gaps between them kept. The range must start in a VMA (-EFAULT);
 * a VMA that cannot move ends the call with its error, those before it
 * moved. Example: VMAs [A, A+p) and [A+2p, A+3p) moved to B become
 * [B, B+p) and [B+2p, B+3p); B+p stays as it was.
 * Return: new_addr or -errno.
 */
static long remap_move(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long new_addr, unsigned long flags)
{
	unsigned long end = addr + len, from = addr;
	struct vm_area_struct *vma;

	if (!find_vma(mm, addr))
		return -EFAULT; /* no gap at the start */
	/* The VMAs at from and above; a moved piece lands outside [addr, end). */
	while (from < end && (vma = find_vma_intersection(mm, from, end))) {
		unsigned long start = MAX(vma->vm_start, from),
			      piece = MIN(vma->vm_end, end) - start;
		long ret;

		if (is_vm_hugetlb_page(vma))
			return -EINVAL; /* never moved: mremap_hugetlb_check */
		ret = mremap_to(mm, start, piece, new_addr + (start - addr), piece, flags);
		if (ret < 0)
			return ret;
		from = start + piece;
	}
	return (long)new_addr;
}

/* Grow the VMA ending at addr + old_len in place; it then merges with the
 * next VMA where their flags allow (Linux: expand_vma_in_place,
 * vma_merge_extend). Return: addr, or -ENOMEM (the charge refused). */
static long expand_vma_in_place(struct mm_struct *mm, struct vm_area_struct *vma,
				unsigned long addr, unsigned long old_len, unsigned long new_len)
{
	bool locked = vma->vm_flags & VM_LOCKED;

	if (mremap_charge(mm, vma->vm_flags, old_len, new_len, 0) < 0)
		return -ENOMEM;
	vma->vm_end += new_len - old_len; /* faults fill the new pages */
	vma_merge_new_range(mm, addr, false, 0);
	if (locked) /* ... or mlock's populate now */
		__mm_populate(mm, addr + old_len, new_len - old_len, true);
	return (long)addr;
}

/*
 * Linux: sys_mremap. The checks in its order (check_mremap_params):
 * flags (unknown ones, FIXED without MAYMOVE, DONTUNMAP without MAYMOVE
 * or with a new size), addr alignment, new_len 0, a new_addr's range,
 * alignment and overlap (all -EINVAL), then addr in no VMA (-EFAULT).
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
	if (!new_len || new_len > TASK_SIZE)
		return -EINVAL;
	if ((flags & (MREMAP_FIXED | MREMAP_DONTUNMAP)) &&
	    mremap_check_new_addr(addr, old_len, new_addr, new_len))
		return -EINVAL;
	/* Linux: vrm_move_only. */
	if ((flags & MREMAP_FIXED) && old_len == new_len)
		return remap_move(mm, addr, old_len, new_addr, flags);
	vma = find_vma(mm, addr);
	if (!vma)
		return -EFAULT;
	if (is_vm_hugetlb_page(vma) && mremap_hugetlb_check(vma, addr, &old_len, &new_len, flags))
		return -EINVAL;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return mremap_to(mm, addr, old_len, new_addr, new_len, flags);
	if (old_len >= new_len) {
		err = old_len > new_len ? vm_munmap(mm, addr + new_len, old_len - new_len) : 0;
		return err ? err : (long)addr;
	}
	err = vma_to_resize(mm, vma, addr, old_len, new_len);
	if (err)
		return err;
	if (old_len == vma->vm_end - addr && vma_expandable(mm, vma, new_len - old_len))
		return expand_vma_in_place(mm, vma, addr, old_len, new_len);
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	return move_vma(mm, addr, old_len, new_len, 0, flags);
}
