/*
 * The Linux system calls a static musl or glibc program makes before and
 * around its first write: the sys_* functions by Linux's x86-64 numbers
 * (arch/x86/entry/syscalls/syscall_64.tbl). Every user pointer goes
 * through copy_from_user/copy_to_user, so a bad one is -EFAULT, never a
 * kernel fault. Example: write(1, "hi\n", 3) copies the three bytes into
 * a kernel buffer, sends them to every console and returns 3.
 */
#include <binfmt_elf.h>
#include <process.h>
#include <vm.h>

#define WRITE_CHUNK 256 /* bytes copied from the user per console write */
#define UIO_MAXIOV 1024 /* Linux's limit on writev's vector */
#define CONSOLE_COLS 80 /* what TIOCGWINSZ reports for the console */
#define CONSOLE_ROWS 25

/* Linux: struct iovec, struct winsize (the user's layouts). */
struct iovec {
	uint64_t iov_base;
	uint64_t iov_len;
};
struct winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* Numbers already reported as not implemented: each is logged once. */
#define NR_SYSCALLS_LOGGED 512 /* above the last x86-64 number, 462 */
static uint64_t enosys_logged[NR_SYSCALLS_LOGGED / 64];

static bool test_and_set_logged(unsigned long nr)
{
	uint64_t bit = 1ull << (nr % 64);
	bool was = enosys_logged[nr / 64] & bit;

	enosys_logged[nr / 64] |= bit;
	return was;
}

/* The console stands behind fds 0, 1 and 2; there are no other files. */
static bool fd_is_console(long fd)
{
	return fd >= 0 && fd <= 2;
}

/* Return: bytes written, or -EFAULT if not even the first chunk could be
 * read (a later bad chunk ends the write short, as Linux does). */
static long console_write_user(unsigned long buf, size_t count)
{
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

static long sys_write(long fd, unsigned long buf, size_t count)
{
	if (!fd_is_console(fd))
		return -EBADF;
	return console_write_user(buf, count);
}

static long sys_writev(long fd, unsigned long vec, unsigned long vlen)
{
	struct iovec iov;
	long total = 0;

	if (!fd_is_console(fd))
		return -EBADF;
	if (vlen > UIO_MAXIOV)
		return -EINVAL;
	for (unsigned long i = 0; i < vlen; i++) {
		long n;

		if (copy_from_user(&iov, vec + i * sizeof(iov), sizeof(iov)))
			return total ? total : -EFAULT;
		n = console_write_user(iov.iov_base, iov.iov_len);
		if (n < 0)
			return total ? total : n;
		total += n;
	}
	return total;
}

static long sys_ioctl(long fd, unsigned long cmd, unsigned long arg)
{
	struct winsize ws = { .ws_row = CONSOLE_ROWS, .ws_col = CONSOLE_COLS };

	if (!fd_is_console(fd))
		return -EBADF;
	if (cmd != TIOCGWINSZ)
		return -ENOTTY;
	return copy_to_user(arg, &ws, sizeof(ws)) ? -EFAULT : 0;
}

/*
 * Linux: sys_brk. brk(0) (or any value outside [start_brk, the stack))
 * returns the current break; growing maps anonymous pages up to the new
 * break's page, shrinking unmaps them. On failure the old break is
 * returned, which is how libc sees the error.
 */
static long sys_brk(struct task *task, unsigned long brk)
{
	unsigned long old_end = ALIGN_UP(task->brk, PAGE_SIZE);
	unsigned long new_end = ALIGN_UP(brk, PAGE_SIZE);

	if (brk < task->start_brk || brk > task->brk_limit)
		return (long)task->brk;
	if (new_end > old_end) {
		unsigned long flags = VM_READ | VM_WRITE | VM_USER;

		if (IS_ERR_VALUE(vm_mmap(task->mm, old_end, new_end - old_end, flags, 0)))
			return (long)task->brk;
	} else if (new_end < old_end && vm_munmap(task->mm, new_end, old_end - new_end)) {
		return (long)task->brk;
	}
	task->brk = brk;
	return (long)brk;
}

/* x86 pages cannot be write- or execute-only: as on Linux, PROT_WRITE
 * and PROT_EXEC imply read. PROT_NONE has no VM_READ, so every access
 * faults. A program's VMAs always carry VM_USER. */
static unsigned long prot_to_vm_flags(unsigned long prot)
{
	unsigned long vm_flags = VM_USER;

	if (prot & (PROT_READ | PROT_WRITE | PROT_EXEC))
		vm_flags |= VM_READ;
	if (prot & PROT_WRITE)
		vm_flags |= VM_WRITE;
	if (prot & PROT_EXEC)
		vm_flags |= VM_EXEC;
	return vm_flags;
}

/*
 * MAP_FIXED: [addr, addr + len) is the mapping, whatever was there is
 * unmapped first; MAP_FIXED_NOREPLACE fails instead (Linux: do_mmap).
 * Folium keeps [0, USER_VA_START) unmapped: below it is -EPERM, Linux's
 * answer for an address below mmap_min_addr.
 */
static long mmap_fixed(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long vm_flags, unsigned long flags)
{
	if (addr & (PAGE_SIZE - 1))
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

/* Without MAP_FIXED: the hint if it is free, else vm_mmap's own choice,
 * which searches upwards from mm->mmap_base (Linux searches downwards
 * from it); never the page above TASK_SIZE. */
static long mmap_anywhere(struct mm_struct *mm, unsigned long hint, unsigned long len,
			  unsigned long vm_flags)
{
	unsigned long addr = (unsigned long)-ENOMEM;

	hint = ALIGN_UP(hint, PAGE_SIZE);
	if (hint && hint <= TASK_SIZE && len <= TASK_SIZE - hint)
		addr = vm_mmap(mm, hint, len, vm_flags, 0);
	if (IS_ERR_VALUE(addr))
		addr = vm_mmap(mm, 0, len, vm_flags, 0);
	if (!IS_ERR_VALUE(addr) && addr + len > TASK_SIZE) {
		vm_munmap(mm, addr, len);
		return -ENOMEM;
	}
	return (long)addr;
}

/*
 * Linux: sys_mmap, anonymous private mappings only. The checks come in
 * Linux's order: offset, file (a console fd cannot be mapped: -ENODEV;
 * any other: -EBADF; with MAP_ANONYMOUS fd is ignored, as Linux does),
 * length, type. MAP_SHARED anonymous memory (shmem) does not exist here:
 * -EINVAL, Linux's answer for a mapping type it does not serve; -ENOSYS
 * would tell libc the whole call is missing. MAP_NORESERVE is accepted
 * (nothing is reserved anyway); MAP_HUGETLB is -ENOMEM, as Linux without
 * reserved huge pages.
 */
static long sys_mmap(struct task *task, const unsigned long args[6])
{
	unsigned long addr = args[0], len = args[1], flags = args[3];
	unsigned long vm_flags = prot_to_vm_flags(args[2]);
	long ret;

	if (args[5] & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS))
		return fd_is_console((int)args[4]) ? -ENODEV : -EBADF;
	if (!len)
		return -EINVAL;
	if (len > TASK_SIZE)
		return -ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if ((flags & MAP_TYPE) != MAP_PRIVATE)
		return -EINVAL;
	if (flags & MAP_HUGETLB)
		return -ENOMEM;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))
		ret = mmap_fixed(task->mm, addr, len, vm_flags, flags);
	else
		ret = mmap_anywhere(task->mm, addr, len, vm_flags);
	if (IS_ERR_VALUE(ret))
		return ret;
	/* Linux: mm_populate, which skips PROT_NONE and ignores failures. */
	if ((flags & MAP_POPULATE) && (vm_flags & VM_READ))
		mm_populate(task->mm, (unsigned long)ret, (unsigned long)ret + len,
			    vm_flags & VM_WRITE ? FAULT_FLAG_WRITE : 0);
	return ret;
}

/* Linux: sys_mprotect. PROT_SEM, PROT_GROWSDOWN and PROT_GROWSUP are not
 * served: -EINVAL, as Linux for an unknown bit. */
static long sys_mprotect(struct task *task, unsigned long start, size_t len, unsigned long prot)
{
	if (prot & ~(unsigned long)(PROT_READ | PROT_WRITE | PROT_EXEC))
		return -EINVAL;
	return vm_mprotect(task->mm, start, len, prot_to_vm_flags(prot));
}

/*
 * Linux: sys_madvise. MADV_FREE and MADV_DONTNEED are do_madvise's.
 * MADV_WILLNEED, MADV_HUGEPAGE and MADV_NOHUGEPAGE are accepted with no
 * effect for now: there is no swap to read ahead, and a per-VMA THP policy
 * comes with the sysfs files; their range is still checked as Linux does.
 * Other advice is -EINVAL, as Linux for advice it does not know.
 */
static long sys_madvise(struct task *task, unsigned long start, size_t len, int advice)
{
	unsigned long end;

	if (advice == MADV_FREE || advice == MADV_DONTNEED)
		return do_madvise(task->mm, start, len, advice);
	if (advice != MADV_WILLNEED && advice != MADV_HUGEPAGE && advice != MADV_NOHUGEPAGE)
		return -EINVAL;
	end = start + ALIGN_UP(len, PAGE_SIZE);
	if ((start & (PAGE_SIZE - 1)) || end < start || (len && end == start))
		return -EINVAL;
	return vma_range_has_hole(task->mm, start, end) ? -ENOMEM : 0;
}

long do_syscall(struct task *task, unsigned long nr, const unsigned long args[6])
{
	switch (nr) {
	case __NR_write:
		return sys_write((long)args[0], args[1], args[2]);
	case __NR_writev:
		return sys_writev((long)args[0], args[1], args[2]);
	case __NR_ioctl:
		return sys_ioctl((long)args[0], args[1], args[2]);
	case __NR_brk:
		return sys_brk(task, args[0]);
	case __NR_mmap:
		return sys_mmap(task, args);
	case __NR_mprotect:
		return sys_mprotect(task, args[0], args[1], args[2]);
	case __NR_munmap:
		return vm_munmap(task->mm, args[0], args[1]); /* Linux: sys_munmap's rules */
	case __NR_madvise:
		return sys_madvise(task, args[0], args[1], (int)args[2]);
	case __NR_getpid:
		return task->pid;
	case __NR_set_tid_address:
		task->clear_child_tid = args[0];
		return task->pid; /* the caller's tid: one thread, tid = pid */
	case __NR_arch_prctl:
		return arch_prctl(task, (int)args[0], args[1]);
	case __NR_exit:
	case __NR_exit_group:
		do_exit((int)(args[0] & 0xff));
	}
	if (nr < NR_SYSCALLS_LOGGED && !test_and_set_logged(nr))
		pr_info("%s[%d]: system call %lu not implemented (-ENOSYS)\n", task->comm,
			task->pid, nr);
	return -ENOSYS;
}
