/*
 * eventfd (Linux: fs/eventfd.c): a file that is a 64-bit counter. A write
 * of 8 bytes adds its value, a read of 8 bytes (or more) takes the whole count (or
 * 1 with EFD_SEMAPHORE) and leaves the rest; a read of 0 sleeps until a
 * write, a write that would reach ULLONG_MAX sleeps until a read, and
 * O_NONBLOCK makes both -EAGAIN. The counter never holds ULLONG_MAX from a
 * write (writing ULLONG_MAX itself is -EINVAL). Example: eventfd(3, 0);
 * write 2 -> count 5; read gives 5, count 0; with EFD_SEMAPHORE the same
 * read gives 1 and leaves 4. Every change wakes the counter's queue, so
 * poll, select and epoll see it (eventfd_poll).
 */
#include <anon_inodes.h>
#include <fs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define EFD_SEMAPHORE 1
#define EFD_CLOEXEC O_CLOEXEC
#define EFD_NONBLOCK O_NONBLOCK
#define EFD_FLAGS_SET (EFD_SEMAPHORE | EFD_CLOEXEC | EFD_NONBLOCK)
#define EFD_SHARED_FCNTL_FLAGS (O_CLOEXEC | O_NONBLOCK)
#define ULLONG_MAX_U64 UINT64_MAX

/* Linux: struct eventfd_ctx, the file's private_data. */
struct eventfd_ctx {
	struct wait_queue_head wqh; /* readers, writers and pollers */
	uint64_t count;
	unsigned int flags; /* EFD_* given at creation */
};

static struct ramfs_inode eventfd_inode = ANON_INODE_INIT("[eventfd]");

/* Linux: eventfd_ctx_do_read. */
static uint64_t eventfd_ctx_do_read(struct eventfd_ctx *ctx)
{
	uint64_t cnt = (ctx->flags & EFD_SEMAPHORE) ? 1 : ctx->count;

	ctx->count -= cnt;
	return cnt;
}

/* Linux: eventfd_read. Return: 8, -EINVAL (@count < 8), -EAGAIN, -EFAULT
 * (the count is taken all the same, as Linux's put_user after it) or
 * -ERESTARTSYS. */
static long eventfd_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t ucnt;

	if (count < sizeof(ucnt))
		return -EINVAL;
	if (!ctx->count) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wqh, ctx->count > 0))
			return -ERESTARTSYS;
	}
	ucnt = eventfd_ctx_do_read(ctx);
	wake_up(&ctx->wqh); /* Linux: wake_up_locked_poll(EPOLLOUT) */
	return copy_to_user(buf, &ucnt, sizeof(ucnt)) ? -EFAULT : (long)sizeof(ucnt);
}

/* Linux: eventfd_write. Exactly 8 bytes (Linux 7.3; 6.1 took more and
 * used the first 8). Room for @ucnt: the sum stays below ULLONG_MAX. */
static long eventfd_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct eventfd_ctx *ctx = file->private_data;
	uint64_t ucnt;

	if (count != sizeof(ucnt))
		return -EINVAL;
	if (copy_from_user(&ucnt, buf, sizeof(ucnt)))
		return -EFAULT;
	if (ucnt == ULLONG_MAX_U64)
		return -EINVAL;
	if (ULLONG_MAX_U64 - ctx->count <= ucnt) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(ctx->wqh, ULLONG_MAX_U64 - ctx->count > ucnt))
			return -ERESTARTSYS;
	}
	ctx->count += ucnt;
	wake_up(&ctx->wqh); /* Linux: wake_up_locked_poll(EPOLLIN) */
	return sizeof(ucnt);
}

/*
 * Linux: eventfd_poll. Readable with a count, writable while a write of 1
 * fits, in error at ULLONG_MAX (only the kernel's eventfd_signal gets it
 * there on Linux; Folium has no such caller yet). POLLIN alone, no
 * POLLRDNORM, as Linux.
 */
static __poll_t eventfd_poll(struct file *file, poll_table *wait)
{
	struct eventfd_ctx *ctx = file->private_data;
	__poll_t events = 0;

	poll_wait(file, &ctx->wqh, wait);
	if (ctx->count > 0)
		events |= POLLIN;
	if (ctx->count == ULLONG_MAX_U64)
		events |= POLLERR;
	if (ULLONG_MAX_U64 - 1 > ctx->count)
		events |= POLLOUT;
	return events;
}

/* Linux: noop_llseek: the position stays, whatever is asked. */
static int64_t eventfd_llseek(struct file *file, int64_t offset, int whence)
{
	return (int64_t)file->f_pos;
}

static void eventfd_release(struct ramfs_inode *inode, struct file *file)
{
	struct eventfd_ctx *ctx = file->private_data;

	wake_up(&ctx->wqh); /* Linux: wake_up_poll(EPOLLHUP) */
	kfree(ctx);
}

static const struct file_operations eventfd_fops = {
	.read = eventfd_read,
	.write = eventfd_write,
	.llseek = eventfd_llseek,
	.poll = eventfd_poll,
	.release = eventfd_release,
};

/* Linux: do_eventfd. The file is O_RDWR with the flags' O_NONBLOCK; the
 * fd is close-on-exec with EFD_CLOEXEC. Return: the fd, -EINVAL, -ENOMEM
 * or -EMFILE. */
static long do_eventfd(struct task_struct *task, unsigned int count, int flags)
{
	struct eventfd_ctx *ctx;
	struct file *file;
	int fd;

	if (flags & ~EFD_FLAGS_SET)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	file = ctx ? alloc_file(&eventfd_inode, &eventfd_fops,
				O_RDWR | (flags & EFD_SHARED_FCNTL_FLAGS & ~O_CLOEXEC),
				FMODE_READ | FMODE_WRITE)
		   : NULL;
	if (!file) {
		kfree(ctx);
		return -ENOMEM;
	}
	init_waitqueue_head(&ctx->wqh);
	ctx->count = count;
	ctx->flags = (unsigned int)flags;
	file->private_data = ctx;
	fd = fd_install_lowest(task, file, 0, flags & EFD_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

SYSCALL_DEFINE2(eventfd2, unsigned int, count, int, flags)
{
	return do_eventfd(task, count, flags);
}

SYSCALL_DEFINE1(eventfd, unsigned int, count)
{
	return do_eventfd(task, count, 0);
}
