/*
 * The memory system calls: brk, mmap, munmap, mprotect, madvise (Linux:
 * mm/mmap.c, arch/x86/kernel/sys_x86_64.c, mm/mprotect.c, mm/madvise.c),
 * in Linux's order of checks and with its errno values, over the mm's
 * vm_mmap, vm_munmap, vm_mprotect and do_madvise. Example: mmap(0, 8192,
 * PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) returns the
 * address of a new two-page VMA; its pages come at the first touch.
 */
#include <binfmt_elf.h>
#include <fs.h>
#include <hugetlb.h>
#include <mman.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

/*
 * Linux: sys_brk. brk(0) (or any value outside [start_brk, the stack))
 * returns the current break; growing maps anonymous pages up to the new
 * break's page, shrinking unmaps them. On failure the old break is
 * returned, which is how libc sees the error.
 */
SYSCALL_DEFINE1(brk, unsigned long, brk)
{
	unsigned long old_end = ALIGN_UP(task->brk, PAGE_SIZE);
	unsigned long new_end = ALIGN_UP(brk, PAGE_SIZE);

	if (brk < task->start_brk || brk > task->brk_limit)
		return (long)task->brk;
	if (new_end > old_end) {
		unsigned long flags = VM_READ | VM_WRITE | VM_USER;

		if (!mlock_future_ok(task, task->mm->def_flags, new_end - old_end) ||
		    IS_ERR_VALUE(vm_mmap(task->mm, old_end, new_end - old_end, flags, 0)))
			return (long)task->brk;
		/* Linux: brk's mm_populate after mlockall(MCL_FUTURE). */
		if (task->mm->def_flags & VM_LOCKED)
			__mm_populate(task->mm, old_end, new_end - old_end, true);
	} else if (new_end < old_end && vm_munmap(task->mm, new_end, old_end - new_end)) {
		return (long)task->brk;
	}
	task->brk = brk;
	return (long)brk;
}

/* Linux: calc_vm_prot_bits, one flag per PROT bit. A PROT_WRITE-only
 * VMA has no VM_READ ("-w-p" in maps, MADV_POPULATE_READ refuses it),
 * though x86 lets a read through (VM_ACCESS_FLAGS). PROT_NONE: every
 * access faults. A program's VMAs always carry VM_USER. */
static unsigned long prot_to_vm_flags(unsigned long prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0) | VM_USER;
}

/*
 * MAP_FIXED: [addr, addr + len) is the mapping, whatever was there is
 * unmapped first; MAP_FIXED_NOREPLACE fails instead (Linux: do_mmap).
 * Folium keeps [0, USER_VA_START) unmapped: below it is -EPERM, Linux's
 * answer for an address below mmap_min_addr from a task without
 * CAP_SYS_RAWIO (root on Linux may map there).
 */
static long mmap_fixed(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long vm_flags, unsigned long flags)
{
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	/* Linux: hugetlb_get_unmapped_area, before anything is unmapped. */
	if ((vm_flags & VM_HUGETLB) && (addr & (huge_page_size(hstate_vm_flags(vm_flags)) - 1)))
		return -EINVAL;
	if (addr > TASK_SIZE || len > TASK_SIZE - addr)
		return -ENOMEM;
	if (addr < USER_VA_START)
		return -EPERM;
	if (flags & MAP_FIXED_NOREPLACE) {
		if (find_vma_intersection(mm, addr, addr + len))
			return -EEXIST;
	} else if (vm_munmap(mm, addr, len)) {
		return -ENOMEM;
	}
	return (long)vm_mmap(mm, addr, len, vm_flags, 0);
}

/* Without MAP_FIXED: the hint if it is free and not below mmap_min_addr
 * (Linux: arch_get_unmapped_area_topdown), else vm_mmap's own choice,
 * which for a program searches downwards from mm->mmap_base, as Linux
 * (MMF_TOPDOWN); never the page above TASK_SIZE. */
static long mmap_anywhere(struct mm_struct *mm, unsigned long hint, unsigned long len,
			  unsigned long vm_flags)
{
	unsigned long addr = (unsigned long)-ENOMEM;

	hint = ALIGN_UP(hint, PAGE_SIZE);
	if (hint >= mmap_min_addr && hint <= TASK_SIZE && len <= TASK_SIZE - hint)
		addr = vm_mmap(mm, hint, len, vm_flags, 0);
	if (IS_ERR_VALUE(addr))
		addr = vm_mmap(mm, 0, len, vm_flags, 0);
	if (!IS_ERR_VALUE(addr) && addr + len > TASK_SIZE) {
		vm_munmap(mm, addr, len);
		return -ENOMEM;
	}
	return (long)addr;
}

/* A file's copy is written in through a writable VMA first, then given
 * prot. Linux charges only a private writable file mapping, so any other
 * is filled with VM_NORESERVE (a shared one keeps it: Linux never charges
 * VM_SHARED). */
static unsigned long mmap_file_fill_flags(unsigned long vm_flags, unsigned long flags)
{
	if ((flags & MAP_TYPE) == MAP_PRIVATE && (vm_flags & VM_WRITE))
		return vm_flags;
	return vm_flags | VM_WRITE | VM_NORESERVE;
}

/* A private read-only copy, filled: it drops the VM_NORESERVE of its
 * fill, so a later mprotect(PROT_WRITE) charges it as Linux does. */
static void mmap_file_reserve_again(struct mm_struct *mm, unsigned long addr, unsigned long len,
				    unsigned long flags)
{
	struct vm_area_struct *vma = find_vma(mm, addr);

	if ((flags & MAP_TYPE) == MAP_PRIVATE && vma && vma->vm_start == addr &&
	    vma->vm_end == addr + len)
		vma->vm_flags &= ~VM_NORESERVE;
}

/* MAP_HUGETLB: the pool MAP_HUGE_* names (Linux: hstate_sizelog; a size
 * with no pool, MAP_HUGE_1GB without PDPE1GB or a shift other than 21 and
 * 30, is -EINVAL), len rounded up to its page size, the VMA flags naming
 * the pool (VM_HSTATE). Return: 0 or -EINVAL. */
static long mmap_hugetlb_flags(unsigned long flags, unsigned long *len, unsigned long *vm_flags)
{
	unsigned long log = (flags >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK;
	struct hstate *h = log ? size_to_hstate(1ul << log) : &default_hstate;

	if (!h || !hugetlb_max_hstate)
		return -EINVAL;
	*len = ALIGN_UP(*len, huge_page_size(h));
	*vm_flags |=
		VM_HUGETLB | VM_HSTATE(h - hstates) | (flags & MAP_NORESERVE ? VM_NORESERVE : 0);
	return 0;
}

/*
 * Linux: sys_mmap. Anonymous private mappings, and copies of files: the
 * root file system is read-only, so a private mapping of a file (and a
 * shared read-only one) cannot be told from a copy of its bytes, which is
 * what it gets (mmap_file_get/mmap_file_fill, fs/file.c); the bytes past
 * the end of the file read as zeros, as in Linux's last page. The checks
 * come in Linux's order: offset, file (with MAP_ANONYMOUS fd is ignored,
 * as Linux does), length, type. MAP_SHARED anonymous memory (shmem) does
 * not exist here: -EINVAL, Linux's answer for a mapping type it does not
 * serve; -ENOSYS would tell libc the whole call is missing. A private
 * writable mapping is charged to Committed_AS (vm_mmap), except with
 * MAP_NORESERVE outside overcommit mode 2 (Linux: do_mmap's VM_NORESERVE).
 * MAP_HUGETLB's size comes from MAP_HUGE_* (0: the default), its length
 * is rounded up to it (Linux: ksys_mmap_pgoff), and the pool must cover
 * it unless MAP_NORESERVE (-ENOMEM, vm_mmap's hugetlb_reserve_pages); it
 * is never charged.
 */
SYSCALL_DEFINE6(mmap, unsigned long, addr, unsigned long, len, unsigned long, prot, unsigned long,
		flags, int, fd, unsigned long, off)
{
	unsigned long vm_flags = prot_to_vm_flags(prot);
	unsigned long fill_flags;
	struct file *file = NULL;
	long ret;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		ret = mmap_file_get(task, fd, prot, flags, &file);
		if (ret)
			return ret;
	}
	ret = -EINVAL;
	if (!len)
		goto out;
	ret = -ENOMEM;
	if (len > TASK_SIZE)
		goto out;
	len = ALIGN_UP(len, PAGE_SIZE);
	ret = -EAGAIN; /* Linux: do_mmap's mlock_future_ok, for mlockall(MCL_FUTURE) */
	if (!mlock_future_ok(task, task->mm->def_flags, len))
		goto out;
	ret = -EINVAL;
	if ((flags & MAP_TYPE) == MAP_DROPPABLE) {
		/* Linux: do_mmap's MAP_DROPPABLE case. Anonymous only; locked,
		 * huge or growing-down makes no sense for memory that may go. */
		if (file || (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN)))
			goto out;
		vm_flags |= VM_DROPPABLE | VM_NORESERVE;
	} else if ((flags & MAP_TYPE) != MAP_PRIVATE &&
		   !(file && (flags & MAP_TYPE) == MAP_SHARED)) {
		goto out;
	}
	if (flags & MAP_HUGETLB) {
		ret = mmap_hugetlb_flags(flags, &len, &vm_flags);
		if (ret)
			goto out;
	} else if ((flags & MAP_NORESERVE) && sysctl_overcommit_memory != OVERCOMMIT_NEVER) {
		vm_flags |= VM_NORESERVE;
	}
	fill_flags = file ? mmap_file_fill_flags(vm_flags, flags) : vm_flags;
	/* A file's copy is written in first, then given prot. */
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))
		ret = mmap_fixed(task->mm, addr, len, fill_flags, flags);
	else
		ret = mmap_anywhere(task->mm, addr, len, fill_flags);
	if (IS_ERR_VALUE(ret) || !file)
		goto populate;
	if (mmap_file_fill(file, (unsigned long)ret, len, off) ||
	    (!(vm_flags & VM_WRITE) && vm_mprotect(task->mm, (unsigned long)ret, len, vm_flags))) {
		vm_munmap(task->mm, (unsigned long)ret, len);
		ret = -ENOMEM;
	} else if ((fill_flags & ~vm_flags) & VM_NORESERVE) {
		mmap_file_reserve_again(task->mm, (unsigned long)ret, len, flags);
	}
populate:
	/* Linux: mm_populate, which skips PROT_NONE and ignores failures;
	 * a VMA locked by mlockall(MCL_FUTURE) is populated as mlock does. */
	if (!IS_ERR_VALUE(ret) && (task->mm->def_flags & VM_LOCKED_MASK) == VM_LOCKED)
		__mm_populate(task->mm, (unsigned long)ret, len, true);
	else if (!IS_ERR_VALUE(ret) && (flags & MAP_POPULATE) && (vm_flags & VM_ACCESS_FLAGS))
		mm_populate(task->mm, (unsigned long)ret, (unsigned long)ret + len,
			    vm_flags & VM_WRITE ? FAULT_FLAG_WRITE : 0);
out:
	if (file)
		fput(file);
	return ret;
}

/* Linux: sys_mprotect. PROT_SEM, PROT_GROWSDOWN and PROT_GROWSUP are not
 * served: -EINVAL, as Linux for an unknown bit. */
SYSCALL_DEFINE3(mprotect, unsigned long, start, size_t, len, unsigned long, prot)
{
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	return vm_mprotect(task->mm, start, len, prot_to_vm_flags(prot));
}

SYSCALL_DEFINE2(munmap, unsigned long, addr, size_t, len)
{
	return vm_munmap(task->mm, addr, len); /* Linux: sys_munmap's rules */
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
	struct task *target;
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
