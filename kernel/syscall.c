/*
 * The Linux system calls a static musl or glibc program makes before and
 * around its first write: the sys_* functions by Linux's x86-64 numbers
 * (arch/x86/entry/syscalls/syscall_64.tbl). Every user pointer goes
 * through copy_from_user/copy_to_user, so a bad one is -EFAULT, never a
 * kernel fault. Example: write(1, "hi\n", 3) copies the three bytes into
 * a kernel buffer, sends them to every console and returns 3.
 */
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
