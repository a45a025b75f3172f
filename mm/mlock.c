/*
 * mlock (Linux: mm/mlock.c): VM_LOCKED VMAs and the unevictable LRU.
 * Locking a range splits its VMAs at the edges (as mprotect), sets
 * VM_LOCKED (and VM_LOCKONFAULT for MLOCK_ONFAULT), mlocks the folios
 * already mapped there and, without ONFAULT, faults in the rest; a fault
 * in a locked VMA mlocks its new folio. An mlocked folio is PG_mlocked
 * and sits on lru_unevictable, which reclaim never scans, with an
 * mlock_count of the VMAs that locked it; munlock and unmap drop the
 * count and at 0 put it back on its evictable list.
 * Large folios follow Linux 6.x: one is mlocked only when the range maps
 * all of it (folio_within_range and a full PTE batch), never split;
 * a partly locked one stays evictable until reclaim meets its mapping in
 * the VM_LOCKED VMA and culls it (mm/vmscan.c).
 * Example: mlock of 2 MiB of 64K folios, 8 of them written: 8 folios
 * (128 pages) mlocked and culled, the other 24 faulted in and mlocked as
 * they are allocated: Mlocked 2048 kB, unevictable_pgs_mlocked +512.
 */
#include <mman.h>
#include <sched.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/processor.h>

/* --- folios: PG_mlocked and lru_unevictable --------------------------------------- */

/* page.private of the head counts the VMAs that locked an unevictable
 * folio (Linux keeps it in the space of the lru link, which its
 * unevictable "list" does not use). */
static unsigned long *mlock_count(struct folio *folio)
{
	return &folio->page.private;
}

static void folio_set_mlocked_count(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);
	unsigned long nr = folio_nr_pages(folio);

	folio_set_mlocked(folio);
	pgdat->nr_mlock += nr;
	pgdat->vm_events[UNEVICTABLE_PGMLOCKED] += nr;
}

/* Linux: mlock_folio and __mlock_folio. A folio off every list (being
 * migrated) only gets the flag; a move onto a list later sorts it. */
void mlock_folio(struct folio *folio)
{
	if (!folio_test_mlocked(folio))
		folio_set_mlocked_count(folio);
	if (!folio_test_lru(folio))
		return;
	if (folio_test_unevictable(folio)) {
		(*mlock_count(folio))++;
		return;
	}
	folio_del_lru(folio);
	folio_set_unevictable(folio);
	*mlock_count(folio) = 1;
	folio_add_lru(folio);
	folio_pgdat(folio)->vm_events[UNEVICTABLE_PGCULLED] += folio_nr_pages(folio);
}

/* Linux: mlock_new_folio and __mlock_new_folio. */
void mlock_new_folio(struct folio *folio)
{
	folio_set_mlocked_count(folio);
	folio_set_unevictable(folio);
	*mlock_count(folio) = 1;
	folio_add_lru(folio);
	folio_pgdat(folio)->vm_events[UNEVICTABLE_PGCULLED] += folio_nr_pages(folio);
}

/*
 * Linux: munlock_folio and __munlock_folio. The last lock of a folio on
 * a list clears PG_mlocked (munlocked) and rescues it to its evictable
 * list; one off every list that is still unevictable is "stranded" (it
 * goes back when it returns to a list).
 */
void munlock_folio(struct folio *folio)
{
	struct pglist_data *pgdat = folio_pgdat(folio);
	unsigned long nr = folio_nr_pages(folio);
	bool isolated = folio_test_lru(folio);

	if (isolated && folio_test_unevictable(folio)) {
		if (*mlock_count(folio))
			(*mlock_count(folio))--;
		if (*mlock_count(folio))
			return;
	}
	if (folio_test_mlocked(folio)) {
		folio_clear_mlocked(folio);
		pgdat->nr_mlock -= nr;
		pgdat->vm_events[isolated || !folio_test_unevictable(folio)
					 ? UNEVICTABLE_PGMUNLOCKED
					 : UNEVICTABLE_PGSTRANDED] += nr;
	}
	if (isolated && folio_test_unevictable(folio)) {
		folio_del_lru(folio);
		folio_clear_unevictable(folio);
		folio_add_lru(folio);
		pgdat->vm_events[UNEVICTABLE_PGRESCUED] += nr;
	}
}

void folio_add_lru_vma(struct folio *folio, const struct vm_area_struct *vma)
{
	if (vma->vm_flags & VM_LOCKED)
		mlock_new_folio(folio);
	else
		folio_add_lru(folio);
}

/* --- the folios a range maps: Linux's mlock_pte_range ------------------------------ */

struct mlock_walk {
	bool lock;	    /* mlock, else munlock */
	unsigned long end;  /* of the range */
	struct folio *last; /* the folio just handled: once per folio */
};

static void mlock_or_munlock(struct mlock_walk *mw, struct folio *folio)
{
	if (mw->lock)
		mlock_folio(folio);
	else
		munlock_folio(folio);
	mw->last = folio;
}

/* A PMD leaf maps all of its folio (Linux: mlock_pte_range's PMD case). */
static int mlock_pmd_entry(pmd_t *pmdp, unsigned long addr, unsigned long next,
			   struct mm_walk *walk)
{
	(void)addr;
	(void)next;
	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (!is_huge_zero_pmd(*pmdp))
		mlock_or_munlock(walk->private, pmd_folio(*pmdp));
	return 0;
}

/*
 * Linux: allow_mlock_munlock. Munlock takes any folio the range maps;
 * mlock a large one only from its first page, with all its pages mapped
 * in order up to the range's end (folio_within_range, and
 * folio_mlock_step's batch covering the folio).
 */
static bool mlock_allowed(struct mlock_walk *mw, struct folio *folio, pte_t *ptep,
			  unsigned long addr)
{
	unsigned long nr = folio_nr_pages(folio);

	if (!mw->lock || nr == 1)
		return true;
	/* The whole folio in this table too: mremap may have moved it off
	 * its alignment, across a table's end (folio_mlock_step stops
	 * there, so Linux does not mlock it either). */
	if (pte_pfn(*ptep) != folio_pfn(folio) || mw->end - addr < nr * PAGE_SIZE ||
	    PMD_SIZE - (addr & ~PMD_MASK) < nr * PAGE_SIZE)
		return false;
	return folio_pte_batch(folio, ptep, *ptep, (unsigned int)nr, NULL, NULL) == nr;
}

static int mlock_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct mlock_walk *mw = walk->private;
	struct folio *folio;

	if (is_zero_pfn(pte_pfn(*ptep)))
		return 0; /* no folio (Linux: vm_normal_folio is NULL) */
	folio = page_folio(pte_page(*ptep));
	if (folio != mw->last && mlock_allowed(mw, folio, ptep, addr))
		mlock_or_munlock(mw, folio);
	return 0;
}

static const struct mm_walk_ops mlock_walk_ops = {
	.pmd_entry = mlock_pmd_entry,
	.pte_entry = mlock_pte_entry,
};

/* --- VMAs: Linux's mlock_fixup and apply_vma_lock_flags ---------------------------- */

unsigned long mm_locked_vm(const struct mm_struct *mm)
{
	unsigned long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_flags & VM_LOCKED)
			pages += (mm->vmas[i].vm_end - mm->vmas[i].vm_start) >> PAGE_SHIFT;
	return pages;
}

unsigned long mm_total_vm(const struct mm_struct *mm)
{
	unsigned long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++)
		pages += (mm->vmas[i].vm_end - mm->vmas[i].vm_start) >> PAGE_SHIFT;
	return pages;
}

/*
 * Give [start, end), inside one VMA, the flags newflags: split the VMA
 * (and a PMD leaf) at the edges, then mlock or munlock the folios mapped
 * there, unless it stays locked (mlocking twice would count twice), and
 * merge with equal neighbours. Return: 0 or -ENOMEM (no VMA slot or PTE
 * table for a split). Linux: mlock_fixup, mlock_vma_pages_range.
 */
static int mlock_fixup(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		       unsigned long end, unsigned long newflags)
{
	unsigned long oldflags = vma->vm_flags;
	struct mlock_walk mw = { .lock = newflags & VM_LOCKED, .end = end };

	/* Linux: "don't set VM_LOCKED or VM_LOCKONFAULT and don't count". */
	if (newflags == oldflags || !vma_supports_mlock(vma))
		return 0;
	if (split_huge_pmd(mm, start) || split_huge_pmd(mm, end) || split_vma(mm, start) ||
	    split_vma(mm, end))
		return -ENOMEM;
	find_vma(mm, start)->vm_flags = newflags;
	if (!((newflags & VM_LOCKED) && (oldflags & VM_LOCKED)))
		walk_page_range(mm, start, end, &mlock_walk_ops, &mw);
	vma_merge_range(mm, start, end);
	return 0;
}

/* Linux: apply_vma_lock_flags. Each VMA part of [start, start + len)
 * gets flags as its lock bits; a hole is -ENOMEM after the parts before
 * it were done, as Linux. */
static int apply_vma_lock_flags(struct mm_struct *mm, unsigned long start, unsigned long len,
				unsigned long flags)
{
	unsigned long end = start + len, addr = start;

	if (end < start)
		return -EINVAL;
	while (addr < end) {
		struct vm_area_struct *vma = find_vma(mm, addr);
		unsigned long tmp;
		int err;

		if (!vma)
			return -ENOMEM;
		tmp = MIN(end, vma->vm_end);
		err = mlock_fixup(mm, vma, addr, tmp, (vma->vm_flags & ~VM_LOCKED_MASK) | flags);
		if (err)
			return err;
		addr = tmp;
	}
	return 0;
}

/* Linux: apply_mlockall_flags. Errors of single VMAs are ignored. */
static void apply_mlockall_flags(struct mm_struct *mm, int flags)
{
	unsigned long to_add = 0;

	mm->def_flags &= ~VM_LOCKED_MASK;
	if (flags & MCL_FUTURE)
		mm->def_flags |= VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	if (flags & MCL_CURRENT)
		to_add = VM_LOCKED | (flags & MCL_ONFAULT ? VM_LOCKONFAULT : 0);
	else if (flags & MCL_FUTURE)
		return;
	/* By address: a fixup splits and merges, moving the array. */
	for (unsigned long addr = 0;;) {
		struct vm_area_struct *vma = NULL;

		for (int i = 0; i < mm->nr_vmas && !vma; i++)
			if (mm->vmas[i].vm_end > addr)
				vma = &mm->vmas[i];
		if (!vma)
			return;
		addr = vma->vm_end;
		mlock_fixup(mm, vma, vma->vm_start, vma->vm_end,
			    (vma->vm_flags & ~VM_LOCKED_MASK) | to_add);
	}
}

/* --- faulting in ---------------------------------------------------------------------- */

/* Linux: populate_vma_page_range for [start, end) of vma. Return: 0 or
 * -EFAULT/-ENOMEM as gup would. */
static int populate_vma_page_range(struct mm_struct *mm, struct vm_area_struct *vma,
				   unsigned long start, unsigned long end)
{
	unsigned int flags = vma->vm_flags & VM_WRITE ? FAULT_FLAG_WRITE : 0;

	if (vma->vm_flags & VM_LOCKONFAULT)
		return 0;
	if (!(vma->vm_flags & VM_ACCESS_FLAGS))
		return -EFAULT; /* PROT_NONE: gup refuses it without FOLL_FORCE */
	for (unsigned long addr = start; addr < end;) {
		enum vm_fault_reason reason = handle_mm_fault(mm, addr, flags);
		pmd_t *pmd;

		if (reason != VM_FAULT_OK)
			return reason == VM_FAULT_OOM ? -ENOMEM : -EFAULT;
		pmd = mm_find_pmd(mm, addr);
		addr = pmd && pmd_leaf(*pmd) ? pmd_addr_end(addr, end) : addr + PAGE_SIZE;
	}
	return 0;
}

int __mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len, bool ignore_errors)
{
	unsigned long end = start + len;

	for (unsigned long addr = start; addr < end;) {
		struct vm_area_struct *vma = find_vma_intersection(mm, addr, end);
		unsigned long vstart, vend;
		int err;

		if (!vma)
			break;
		vstart = MAX(addr, vma->vm_start);
		vend = MIN(end, vma->vm_end);
		err = populate_vma_page_range(mm, vma, vstart, vend);
		if (err && !ignore_errors)
			return err == -EFAULT ? -ENOMEM : -EAGAIN; /* __mlock_posix_error_return */
		addr = vend;
	}
	return 0;
}

/* --- the limit ---------------------------------------------------------------------------- */

/* Linux: can_do_mlock. A zero RLIMIT_MEMLOCK forbids mlock to a task
 * without CAP_IPC_LOCK; root has it, so root is never limited. */
static bool can_do_mlock(const struct task_struct *task)
{
	return task_rlimit(task, RLIMIT_MEMLOCK) != 0 || has_capability(task, CAP_IPC_LOCK);
}

/* Return: the pages of [start, start + len) already in VM_LOCKED VMAs
 * (Linux: count_mm_mlocked_page_nr). */
static unsigned long count_mm_mlocked_page_nr(const struct mm_struct *mm, unsigned long start,
					      unsigned long len)
{
	unsigned long pages = 0, end = start + len;

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];

		if ((vma->vm_flags & VM_LOCKED) && vma->vm_start < end && start < vma->vm_end)
			pages += (MIN(end, vma->vm_end) - MAX(start, vma->vm_start)) >> PAGE_SHIFT;
	}
	return pages;
}

bool mlock_future_ok(const struct task_struct *task, unsigned long vm_flags, unsigned long bytes)
{
	if (!(vm_flags & VM_LOCKED) || has_capability(task, CAP_IPC_LOCK))
		return true;
	return (bytes >> PAGE_SHIFT) + mm_locked_vm(task->mm) <=
	       task_rlimit(task, RLIMIT_MEMLOCK) >> PAGE_SHIFT;
}

/* --- the system calls ------------------------------------------------------------------ */

/* Linux: do_mlock. start is rounded down to a page and len up from it;
 * over the limit is -ENOMEM unless the range was locked already. */
static int do_mlock(struct task_struct *task, unsigned long start, size_t len, unsigned long flags)
{
	struct mm_struct *mm = task->mm;
	unsigned long lock_limit = task_rlimit(task, RLIMIT_MEMLOCK) >> PAGE_SHIFT, locked;
	bool capable = has_capability(task, CAP_IPC_LOCK);
	int err;

	if (!can_do_mlock(task))
		return -EPERM;
	len = ALIGN_UP(len + (start & (PAGE_SIZE - 1)), PAGE_SIZE);
	start = ALIGN_DOWN(start, PAGE_SIZE);
	locked = (len >> PAGE_SHIFT) + mm_locked_vm(mm);
	if (locked > lock_limit && !capable)
		locked -= count_mm_mlocked_page_nr(mm, start, len);
	if (locked > lock_limit && !capable)
		return -ENOMEM;
	err = apply_vma_lock_flags(mm, start, len, flags);
	if (err)
		return err;
	return __mm_populate(mm, start, len, false);
}

SYSCALL_DEFINE2(mlock, unsigned long, start, size_t, len)
{
	return do_mlock(task, start, len, VM_LOCKED);
}

SYSCALL_DEFINE3(mlock2, unsigned long, start, size_t, len, int, flags)
{
	if (flags & ~MLOCK_ONFAULT)
		return -EINVAL;
	return do_mlock(task, start, len, VM_LOCKED | (flags & MLOCK_ONFAULT ? VM_LOCKONFAULT : 0));
}

SYSCALL_DEFINE2(munlock, unsigned long, start, size_t, len)
{
	len = ALIGN_UP(len + (start & (PAGE_SIZE - 1)), PAGE_SIZE);
	start = ALIGN_DOWN(start, PAGE_SIZE);
	return apply_vma_lock_flags(task->mm, start, len, 0);
}

/* Linux: sys_mlockall. No flag, or MCL_ONFAULT alone, is -EINVAL; with
 * MCL_CURRENT the whole address space must fit the limit. */
SYSCALL_DEFINE1(mlockall, int, flags)
{
	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) || flags == MCL_ONFAULT)
		return -EINVAL;
	if (!can_do_mlock(task))
		return -EPERM;
	if ((flags & MCL_CURRENT) &&
	    mm_total_vm(task->mm) > task_rlimit(task, RLIMIT_MEMLOCK) >> PAGE_SHIFT &&
	    !has_capability(task, CAP_IPC_LOCK))
		return -ENOMEM;
	apply_mlockall_flags(task->mm, flags);
	if (flags & MCL_CURRENT)
		__mm_populate(task->mm, 0, TASK_SIZE, true);
	return 0;
}

SYSCALL_DEFINE0(munlockall)
{
	apply_mlockall_flags(task->mm, 0);
	return 0;
}
