/*
 * mremap (Linux: mm/mremap.c): shrink a mapping, grow it in place, or
 * move it, with Linux's order of checks and errno values. Shrinking
 * unmaps the tail; growing extends the VMA when the pages after it are
 * free, merging it with the next one; otherwise MREMAP_MAYMOVE moves it:
 * a new VMA gets the old range's page-table entries (move_page_tables
 * below: whole PTE tables and PMD leaves where both addresses are
 * PMD-aligned, large folios' PTEs in batches elsewhere; no byte is
 * copied and every folio stays whole), then the old range is unmapped,
 * or with MREMAP_DONTUNMAP left empty, and the new VMA merged with its
 * neighbours if it was never faulted. MREMAP_FIXED at the same size
 * moves every VMA of the range, the gaps between them kept (remap_move).
 * Example: a 3-page VMA at A whose next page is taken, grown to 4 pages
 * with MAYMOVE, becomes a 4-page VMA at B mapping A's 3 pages.
 */
#include <hugetlb.h>
#include <mman.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/processor.h>

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

/*
 * Moving the entries themselves (Linux: move_page_tables): the folios stay
 * and only their mappings change place. The new VMA keeps the old range's
 * page offset (vma_set_anon_vma), so rmap finds each folio at its new
 * address whatever the distance, and a folio cut by the range's ends
 * lives on in both VMAs. Where old and new addresses are both PMD-aligned
 * over a whole 2 MiB, the PTE table itself moves (move_normal_pmd) and a
 * PMD leaf moves as one entry (move_huge_pmd); a leaf that cannot is
 * split first, as Linux's split_huge_pmd in move_page_tables. Other
 * entries move batch by batch (move_ptes). Example: 2 MiB of 64K folios
 * at 0x40000000 moved to 0x40600000: one table entry written, the 32
 * folios and their pages where they were; moved to 0x40601000 instead:
 * 32 batches of 16 PTEs, every folio whole.
 */
struct mremap_move {
	unsigned long old_addr, old_end, delta;
};

bool mremap_batched = true;

/* Linux: move_normal_pmd's conditions (get_extent of PMD_SIZE): the 2 MiB
 * of the table at addr lie in the range, the distance keeps it aligned,
 * and no table is at the new place (Linux refuses a populated PMD). */
static bool move_whole_table(const struct mremap_move *mv, unsigned long addr, pmd_t new_pmd)
{
	unsigned long table = addr & PMD_MASK;

	return !(mv->delta & ~PMD_MASK) && table >= mv->old_addr &&
	       table + PMD_SIZE <= mv->old_end && pmd_none(new_pmd);
}

/* Linux: move_huge_pmd's conditions for a leaf covering [addr, next). */
static bool move_whole_leaf(const struct mremap_move *mv, unsigned long addr, unsigned long next)
{
	return !(addr & ~PMD_MASK) && next - addr == PMD_SIZE && !(mv->delta & ~PMD_MASK);
}

/* The first pass changes no entry of the old range: it makes every table
 * the move will need at the new place and splits the leaves that cannot
 * move whole (a split changes no translation), so the second pass cannot
 * fail half way. Return: 0 or -ENOMEM. */
static int prepare_move_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next,
			    struct mm_walk *walk)
{
	const struct mremap_move *mv = walk->private;
	unsigned long to = addr + mv->delta, last = next - PAGE_SIZE + mv->delta;
	pmd_t *pmd = pmd_alloc(walk->mm, to);

	walk->action = ACTION_CONTINUE;
	if (!pmd)
		return -ENOMEM;
	if (pmd_leaf(*pmdp)) {
		if (move_whole_leaf(mv, addr, next) && pmd_none(*pmd))
			return 0;
		if (__split_huge_pmd(walk->mm, pmdp, addr))
			return -ENOMEM;
		walk->action = ACTION_AGAIN; /* now a table */
		return 0;
	}
	if (move_whole_table(mv, addr, *pmd))
		return 0;
	if (!pte_alloc_map(walk->mm, pmd, to))
		return -ENOMEM;
	pmd = pmd_alloc(walk->mm, last);
	return pmd && pte_alloc_map(walk->mm, pmd, last) ? 0 : -ENOMEM;
}

static const struct mm_walk_ops prepare_move_ops = {
	.pmd_entry = prepare_move_pmd,
};

/* Linux: mremap_folio_pte_batch, with FPB_RESPECT_WRITE: the entries from
 * ptep that map consecutive pages of one large folio, at most max_nr.
 * Linux first asks pte_batch_hint, so that an entry that cannot start a
 * batch costs no look at its struct page (cold memory a move of page
 * tables otherwise never touches); x86 has no contiguous-PTE bit and its
 * hint is always 1, so x86 Linux moves one entry at a time
 * (mremap_batched off). Folium's hint reads the next entry instead:
 * only one mapping the next pfn can continue a batch. */
static unsigned int mremap_folio_pte_batch(pte_t *ptep, pte_t pte, unsigned int max_nr)
{
	struct folio *folio;

	if (!mremap_batched || max_nr == 1 || !pte_present(ptep[1]) ||
	    pte_pfn(ptep[1]) != pte_pfn(pte) + 1)
		return 1;
	/* The zero page is an order-0 folio: no batch. Entries of a split
	 * huge zero folio may go as one: moving needs no folio accounting. */
	folio = page_folio(pte_page(pte));
	if (!folio_test_large(folio))
		return 1;
	return folio_pte_batch_flags(folio, ptep, pte, max_nr, FPB_RESPECT_WRITE, NULL, NULL, NULL);
}

/*
 * Linux: move_ptes, for the entries of one old table in [addr, end). A
 * batch stops where the new range's table does (the distance need not be
 * PMD-aligned: Linux's get_extent); that table is looked up once, not
 * per entry. Each moved entry is soft-dirty, new data to a tracker
 * (move_soft_dirty_pte); guard markers move as they are.
 */
static void move_ptes(const struct mremap_move *mv, struct mm_struct *mm, pmd_t *pmdp,
		      unsigned long addr, unsigned long end)
{
	pte_t *ptep = pte_offset_map(pmdp, addr), *new_table = NULL;
	unsigned long new_base = 0;
	unsigned int nr;

	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		unsigned long to = addr + mv->delta;
		unsigned long limit = MIN(end, addr + PMD_SIZE - (to & ~PMD_MASK));
		pte_t pte = *ptep, *new_ptep;

		nr = 1;
		if (pte_none(pte))
			continue;
		if (!new_table || (to & PMD_MASK) != new_base) {
			new_base = to & PMD_MASK; /* its table was made by prepare */
			new_table = pte_alloc_map(mm, pmd_alloc(mm, new_base), new_base);
		}
		new_ptep = new_table + pte_index(to);
		if (is_pte_marker(pte)) {
			set_ptes(mm, to, new_ptep, ptep_get_and_clear(mm, addr, ptep), 1);
			continue;
		}
		nr = mremap_folio_pte_batch(ptep, pte,
					    (unsigned int)((limit - addr) >> PAGE_SHIFT));
		pte = get_and_clear_full_ptes(mm, addr, ptep, nr);
		set_ptes(mm, to, new_ptep, pte_mksoft_dirty(pte), nr);
		mm->counters[MM_MREMAP_BATCHES]++;
	}
}

/* A leaf or a whole table moves as one entry; other tables entry by entry. */
static int move_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct mremap_move *mv = walk->private;
	pmd_t *new_pmd = pmd_alloc(walk->mm, addr + mv->delta); /* made by prepare */

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp)) {
		/* Linux: move_huge_pmd's move_soft_dirty_pmd, a moved leaf is
		 * new data to a tracker. */
		pmd_t old = pmdp_get_and_clear(walk->mm, addr, pmdp);

		set_pmd_at(walk->mm, addr + mv->delta, new_pmd, pmd_mksoft_dirty(old));
	} else if (move_whole_table(mv, addr, *new_pmd)) {
		/* Linux: move_normal_pmd; every entry keeps every bit. */
		pmd_move_table(walk->mm, pmdp, new_pmd);
	} else {
		move_ptes(mv, walk->mm, pmdp, addr, next);
	}
	return 0;
}

static const struct mm_walk_ops move_ops = {
	.pmd_entry = move_pmd,
};

/* Move the entries of [addr, addr + len) to new_addr, one flush for the
 * old range. Return: 0, or -ENOMEM with no entry moved. */
static int move_page_tables(struct mm_struct *mm, unsigned long addr, unsigned long len,
			    unsigned long new_addr)
{
	struct mremap_move mv = { addr, addr + len, new_addr - addr };
	int err = walk_page_range(mm, addr, addr + len, &prepare_move_ops, &mv);

	if (err)
		return err;
	walk_page_range(mm, addr, addr + len, &move_ops, &mv);
	flush_tlb_range(mm, addr, addr + len);
	/* The tables the move emptied go now, so the old range's unmap
	 * finds no table to read through (Linux: free_pgtables in its
	 * unmap_region). */
	free_pgtables(mm, addr, addr + len);
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
 * Linux: move_vma. A new VMA with the old one's flags gets the entries
 * (move_page_tables); nothing of the old range changes until they moved.
 * Return: the new address, or -ENOMEM (no VMA slot, no room, or no
 * memory for the new range's tables: then the old range is as it was).
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
	/* A file VMA's new one maps the same pages of the file (Linux:
	 * copy_vma's get_file); the old VMA keeps the file alive meanwhile. */
	struct file *file = old_vma->vm_file;
	const struct vm_operations_struct *vm_ops = old_vma->vm_ops;
	struct vm_area_struct *vma;
	unsigned long to;
	long charged;

	/* The new VMA, and a split of the old one (Linux: move_vma's
	 * map_count check). */
	if (mm->nr_vmas >= sysctl_max_map_count - 3 || mm_vmas_reserve(mm, 2))
		return -ENOMEM;
	charged = mremap_charge(mm, vm_flags, old_len, new_len, flags);
	if (charged < 0)
		return -ENOMEM;
	/* Not charged by vm_mmap: the old range's charge moves with it.
	 * Moved entries keep their folios' mlock; the grown part is
	 * populated below. */
	to = map_new_range(mm, new_addr, new_len, prot | VM_NORESERVE | (vm_flags & VM_LOCKED_MASK),
			   flags & MREMAP_FIXED);
	if (IS_ERR_VALUE(to)) {
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	if (move_page_tables(mm, addr, old_len, to)) {
		vm_munmap(mm, to, new_len);
		vm_unacct_memory(charged);
		return -ENOMEM;
	}
	vma = find_vma(mm, to);
	if (av) /* the moved folios keep their index */
		vma_set_anon_vma(mm, vma, av, pgoff);
	/* The other flags (VM_HUGEPAGE, VM_ACCOUNT, VM_SHARED, ...) move too. */
	vma->vm_flags = vm_flags;
	if (file)
		vma_set_file(mm, vma, file, vm_ops, pgoff);
	if (flags & MREMAP_DONTUNMAP) {
		zap_page_range(mm, addr, addr + old_len);
	} else {
		/* Linux clears the old VMA's VM_ACCOUNT before unmapping it, so
		 * its charge stays with the new one: the munmap uncharges what
		 * this adds. */
		if (vm_flags & VM_ACCOUNT)
			vm_acct_memory((long)(old_len >> PAGE_SHIFT));
		vm_munmap(mm, addr, old_len);
	}
	/* Linux: copy_vma's vma_merge_copied_range (never with a
	 * MREMAP_DONTUNMAP source). */
	vma_merge_new_range(mm, to, true, flags & MREMAP_DONTUNMAP ? addr : 0);
	if (vm_flags & VM_LOCKED) /* Linux: mremap's mm_populate of the grown part */
		__mm_populate(mm, to + old_len, new_len - old_len, true);
	return (long)to;
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
long vm_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr)
{
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

SYSCALL_DEFINE5(mremap, unsigned long, addr, unsigned long, old_len, unsigned long, new_len,
		unsigned long, flags, unsigned long, new_addr)
{
	return vm_mremap(task->mm, addr, old_len, new_len, flags, new_addr);
}
