/*
 * signalfd (Linux: fs/signalfd.c): a file a thread reads its own pending
 * signals from, instead of having handlers run. The file holds a set; a
 * read dequeues pending signals of that set from the reading thread (its
 * own queue, then its process's) as 128-byte struct signalfd_siginfo
 * records, and sleeps while none is pending; poll says EPOLLIN while one
 * is. The set's signals are normally blocked, so they stay pending for
 * the read. Every signal queued for a thread wakes its sighand's
 * signalfd queue (signalfd_notify in kernel/signal.c). Example:
 * sigprocmask(SIG_BLOCK, {SIGUSR1}); fd = signalfd(-1, {SIGUSR1}, 0);
 * kill(getpid(), SIGUSR1); read(fd, &ssi, 128) gives 128 bytes with
 * ssi_signo 10, ssi_code SI_USER and ssi_pid the sender's pid.
 */
#include <anon_inodes.h>
#include <fs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define SFD_CLOEXEC O_CLOEXEC
#define SFD_NONBLOCK O_NONBLOCK

/* Linux: struct signalfd_siginfo (include/uapi/linux/signalfd.h). */
struct signalfd_siginfo {
	uint32_t ssi_signo;
	int32_t ssi_errno;
	int32_t ssi_code;
	uint32_t ssi_pid;
	uint32_t ssi_uid;
	int32_t ssi_fd;
	uint32_t ssi_tid;
	uint32_t ssi_band;
	uint32_t ssi_overrun;
	uint32_t ssi_trapno;
	int32_t ssi_status;
	int32_t ssi_int;
	uint64_t ssi_ptr;
	uint64_t ssi_utime;
	uint64_t ssi_stime;
	uint64_t ssi_addr;
	uint16_t ssi_addr_lsb;
	uint16_t pad2;
	int32_t ssi_syscall;
	uint64_t ssi_call_addr;
	uint32_t ssi_arch;
	uint8_t pad[28];
};
_Static_assert(sizeof(struct signalfd_siginfo) == 128, "Linux's signalfd_siginfo is 128 bytes");

/* Linux: struct signalfd_ctx. The signals NOT read (the set's
 * complement), as dequeue_signal's mask wants it. */
struct signalfd_ctx {
	sigset_t sigmask;
};

static struct ramfs_inode signalfd_inode = ANON_INODE_INIT("[signalfd]");

/* Linux: siginfo_layout's choice for the siginfos Folium makes: which
 * union member a record's fields come from. */
static void signalfd_copyinfo(struct signalfd_siginfo *ssi, const struct kernel_siginfo *info)
{
	int sig = info->si_signo, code = info->si_code;

	*ssi = (struct signalfd_siginfo){
		.ssi_signo = (uint32_t)sig,
		.ssi_errno = info->si_errno,
		.ssi_code = code,
	};
	if (code == SI_TIMER) {
		ssi->ssi_tid = (uint32_t)info->timer.tid;
		ssi->ssi_overrun = (uint32_t)info->timer.overrun;
		ssi->ssi_ptr = info->timer.sigval;
		ssi->ssi_int = (int32_t)info->timer.sigval;
	} else if (code < 0) { /* SIL_RT: sigqueue, tkill */
		ssi->ssi_pid = (uint32_t)info->rt.pid;
		ssi->ssi_uid = info->rt.uid;
		ssi->ssi_ptr = info->rt.value;
		ssi->ssi_int = (int32_t)info->rt.value;
	} else if (code > 0 && code < SI_KERNEL && sig == SIGCHLD) {
		ssi->ssi_pid = (uint32_t)info->sigchld.pid;
		ssi->ssi_uid = info->sigchld.uid;
		ssi->ssi_status = info->sigchld.status;
	} else if (code > 0 && code < SI_KERNEL &&
		   (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
		    sig == SIGTRAP)) {
		ssi->ssi_addr = info->addr;
	} else { /* SIL_KILL: kill, SI_KERNEL */
		ssi->ssi_pid = (uint32_t)info->kill.pid;
		ssi->ssi_uid = info->kill.uid;
	}
}

/* Linux: signalfd_dequeue. One signal of the set for the reading
 * thread, waiting for it unless @nonblock. Return: the signal,
 * -EAGAIN or -ERESTARTSYS (another signal came). */
static int signalfd_dequeue(struct signalfd_ctx *ctx, struct kernel_siginfo *info, bool nonblock)
{
	struct task_struct *task = current;
	DEFINE_WAIT(wait);
	int sig = dequeue_signal(task, ctx->sigmask, info);

	if (sig || nonblock)
		return sig ? sig : -EAGAIN;
	add_wait_queue(&task->sighand->signalfd_wqh, &wait);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		sig = dequeue_signal(task, ctx->sigmask, info);
		if (sig)
			break;
		if (signal_pending(task)) {
			sig = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&task->sighand->signalfd_wqh, &wait);
	return sig;
}

/* Linux: signalfd_read. As many whole records as fit and are pending;
 * only the first may wait. Return: bytes, -EINVAL (room for none),
 * -EAGAIN, -ERESTARTSYS or -EFAULT. */
static long signalfd_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct signalfd_ctx *ctx = file->private_data;
	bool nonblock = file->f_flags & O_NONBLOCK;
	size_t n = count / sizeof(struct signalfd_siginfo);
	long total = 0, ret = 0;

	if (!n)
		return -EINVAL;
	while (n--) {
		struct signalfd_siginfo ssi;
		struct kernel_siginfo info;

		ret = signalfd_dequeue(ctx, &info, nonblock);
		if (ret <= 0)
			break;
		signalfd_copyinfo(&ssi, &info);
		if (copy_to_user(buf + (unsigned long)total, &ssi, sizeof(ssi))) {
			ret = -EFAULT;
			break;
		}
		total += sizeof(ssi);
		nonblock = true;
	}
	return total ? total : ret;
}

/* Linux: signalfd_poll. Readable while the polling thread has a signal
 * of the set pending. */
static __poll_t signalfd_poll(struct file *file, poll_table *wait)
{
	struct signalfd_ctx *ctx = file->private_data;

	poll_wait(file, &current->sighand->signalfd_wqh, wait);
	return peek_signal(current, ctx->sigmask) ? POLLIN : 0;
}

static void signalfd_release(struct ramfs_inode *inode, struct file *file)
{
	kfree(file->private_data);
}

static const struct file_operations signalfd_fops = {
	.read = signalfd_read,
	.poll = signalfd_poll,
	.release = signalfd_release,
};

/* Linux: do_signalfd4. @ufd -1 makes a new signalfd; another fd must be
 * one, and gets the new set (its pollers look again). SIGKILL and
 * SIGSTOP are never read. Return: the fd, -EINVAL, -EBADF, -ENOMEM or
 * -EMFILE. */
static long do_signalfd4(struct task_struct *task, int ufd, sigset_t mask, int flags)
{
	struct signalfd_ctx *ctx;
	struct file *file;
	int fd;

	if (flags & ~(SFD_CLOEXEC | SFD_NONBLOCK))
		return -EINVAL;
	mask = ~(mask & ~(sigmask(SIGKILL) | sigmask(SIGSTOP)));
	if (ufd != -1) {
		file = fget(task, ufd);
		if (!file)
			return -EBADF;
		if (file->f_op != &signalfd_fops) {
			fput(file);
			return -EINVAL;
		}
		ctx = file->private_data;
		ctx->sigmask = mask;
		wake_up(&task->sighand->signalfd_wqh);
		fput(file);
		return ufd;
	}
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	file = ctx ? alloc_file(&signalfd_inode, &signalfd_fops, O_RDWR | (flags & SFD_NONBLOCK),
				FMODE_READ | FMODE_WRITE)
		   : NULL;
	if (!file) {
		kfree(ctx);
		return -ENOMEM;
	}
	ctx->sigmask = mask;
	file->private_data = ctx;
	fd = fd_install_lowest(task, file, 0, flags & SFD_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

SYSCALL_DEFINE4(signalfd4, int, ufd, unsigned long, user_mask, size_t, sizemask, int, flags)
{
	sigset_t mask;

	if (sizemask != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, user_mask, sizeof(mask)))
		return -EFAULT;
	return do_signalfd4(task, ufd, mask, flags);
}

SYSCALL_DEFINE3(signalfd, int, ufd, unsigned long, user_mask, size_t, sizemask)
{
	sigset_t mask;

	if (sizemask != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&mask, user_mask, sizeof(mask)))
		return -EFAULT;
	return do_signalfd4(task, ufd, mask, 0);
}
