/*
 * Pipes (Linux: fs/pipe.c): a one-page ring buffer between a read end and
 * a write end, each its own struct file; the pipe goes when both ends are
 * closed. head and tail count bytes ever written and read, so head - tail
 * is what is buffered. Example: write "abc" then read 2 gives "ab"; head
 * 3, tail 2; after the write end is closed, the next read gives "c", the
 * one after that 0 (end of file).
 *
 * A read of an empty pipe sleeps until a writer writes or the last one
 * closes, a write to a full one until a reader makes room (Linux's
 * rd_wait and wr_wait); O_NONBLOCK makes both -EAGAIN instead. A write
 * of at most PIPE_BUF bytes goes in whole or not at all (POSIX's
 * atomicity); a longer one may be split around the readers. The ring is
 * one page, where Linux's default is 16 (F_GETPIPE_SZ 65536).
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define PIPE_SIZE PAGE_SIZE
#define PIPE_BUF 4096 /* POSIX: writes up to this size are atomic */

/* Linux: struct pipe_inode_info, with the pipefs inode it hangs off. */
struct pipe_inode_info {
	struct ramfs_inode inode; /* S_IFIFO 0600, for fstat */
	char *buf;		  /* PIPE_SIZE bytes: one page */
	uint64_t head, tail;
	unsigned int readers, writers;
	struct wait_queue_head rd_wait; /* readers waiting for bytes */
	struct wait_queue_head wr_wait; /* writers waiting for room */
};

static unsigned long pipe_ino = 1ul << 32; /* apart from rootfs's numbers */

/* Copy n bytes between the ring at pos and the user, in at most two
 * pieces (the ring wraps). Return: 0 or -EFAULT. */
static int pipe_copy(struct pipe_inode_info *pipe, uint64_t pos, unsigned long ubuf, size_t n,
		     bool to_user)
{
	size_t off = pos % PIPE_SIZE, first = MIN(n, PIPE_SIZE - off);

	for (int i = 0; i < 2 && n; i++) {
		int err = to_user ? copy_to_user(ubuf, pipe->buf + off, first)
				  : copy_from_user(pipe->buf + off, ubuf, first);

		if (err)
			return -EFAULT;
		ubuf += first;
		n -= first;
		off = 0;
		first = n;
	}
	return 0;
}

/* Linux: pipe_read. A signal while nothing was read is -ERESTARTSYS. */
static long pipe_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct pipe_inode_info *pipe = file->private_data;
	size_t n;

	if (!count)
		return 0;
	while (pipe->head == pipe->tail) {
		if (!pipe->writers)
			return 0;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (wait_event_interruptible(pipe->rd_wait,
					     pipe->head != pipe->tail || !pipe->writers))
			return -ERESTARTSYS;
	}
	n = MIN(count, (size_t)(pipe->head - pipe->tail));
	if (pipe_copy(pipe, pipe->tail, buf, n, true))
		return -EFAULT;
	pipe->tail += n;
	wake_up_interruptible(&pipe->wr_wait);
	return (long)n;
}

static size_t pipe_room(const struct pipe_inode_info *pipe)
{
	return PIPE_SIZE - (size_t)(pipe->head - pipe->tail);
}

/* Linux: pipe_write. With no reader left: SIGPIPE to the writer (which
 * ends it unless caught or ignored) and -EPIPE. Return: the bytes
 * written, which a signal or O_NONBLOCK may make fewer than @count. */
static long pipe_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct pipe_inode_info *pipe = file->private_data;
	size_t done = 0, need = count <= PIPE_BUF ? count : 1;

	if (!count)
		return pipe->readers ? 0 : -EPIPE;
	while (done < count) {
		size_t n;

		if (!pipe->readers) {
			/* The kernel's own task (the tests') gets no signal. */
			if (!(current->flags & PF_KTHREAD))
				send_signal(current, SIGPIPE, NULL);
			return done ? (long)done : -EPIPE;
		}
		if (pipe_room(pipe) < need) {
			if (file->f_flags & O_NONBLOCK)
				return done ? (long)done : -EAGAIN;
			if (wait_event_interruptible(pipe->wr_wait,
						     pipe_room(pipe) >= need || !pipe->readers))
				return done ? (long)done : -ERESTARTSYS;
			continue;
		}
		n = MIN(count - done, pipe_room(pipe));
		if (pipe_copy(pipe, pipe->head, buf + done, n, false))
			return done ? (long)done : -EFAULT;
		pipe->head += n;
		done += n;
		wake_up_interruptible(&pipe->rd_wait);
	}
	return (long)done;
}

/* Linux: pipe_ioctl: FIONREAD is the bytes buffered. */
static long pipe_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pipe_inode_info *pipe = file->private_data;
	int count = (int)(pipe->head - pipe->tail);

	if (cmd != FIONREAD)
		return -ENOTTY;
	return copy_to_user(arg, &count, sizeof(count)) ? -EFAULT : 0;
}

/* Linux: pipe_release: the pipe goes with its last end. */
static void pipe_release(struct ramfs_inode *inode, struct file *file)
{
	struct pipe_inode_info *pipe = file->private_data;

	if (file->f_mode & FMODE_READ)
		pipe->readers--;
	if (file->f_mode & FMODE_WRITE)
		pipe->writers--;
	if (pipe->readers || pipe->writers) {
		/* A sleeper on the other end learns of the close. */
		wake_up_interruptible(&pipe->rd_wait);
		wake_up_interruptible(&pipe->wr_wait);
		return;
	}
	__free_pages(virt_to_page(pipe->buf), 0);
	kfree(pipe);
}

static const struct file_operations pipefifo_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.ioctl = pipe_ioctl,
	.release = pipe_release,
};

int create_pipe_files(struct file *res[2], unsigned int flags)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);
	struct page *page = alloc_pages(GFP_KERNEL, 0);

	flags &= O_NONBLOCK;
	res[0] = pipe && page
			 ? alloc_file(&pipe->inode, &pipefifo_fops, O_RDONLY | flags, FMODE_READ)
			 : NULL;
	res[1] = res[0] ? alloc_file(&pipe->inode, &pipefifo_fops, O_WRONLY | flags, FMODE_WRITE)
			: NULL;
	if (!res[1]) {
		kfree(res[0]);
		kfree(pipe);
		if (page)
			__free_pages(page, 0);
		return -ENOMEM;
	}
	pipe->buf = page_address(page);
	pipe->inode = (struct ramfs_inode){ .mode = S_IFIFO | 0600, .nlink = 1, .ino = pipe_ino++ };
	pipe->readers = pipe->writers = 1;
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	res[0]->private_data = res[1]->private_data = pipe;
	return 0;
}

/* Linux: do_pipe2: both fds, then the copy; a bad fildes undoes both. */
static long do_pipe2(struct task_struct *task, unsigned long fildes, int flags)
{
	struct file *files[2];
	int fd[2], err;

	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL; /* Linux's O_DIRECT (packet mode) is not served */
	err = create_pipe_files(files, (unsigned int)flags);
	if (err)
		return err;
	fd[0] = fd_install_lowest(task, files[0], 0, flags & O_CLOEXEC);
	fd[1] = fd[0] < 0 ? -EMFILE : fd_install_lowest(task, files[1], 0, flags & O_CLOEXEC);
	if (fd[1] < 0 || copy_to_user(fildes, fd, sizeof(fd))) {
		err = fd[1] < 0 ? -EMFILE : -EFAULT;
		for (int i = 0; i < 2; i++) {
			if (fd[i] >= 0)
				close_fd(task, fd[i]);
			else
				fput(files[i]);
		}
		return err;
	}
	return 0;
}

SYSCALL_DEFINE2(pipe2, unsigned long, fildes, int, flags)
{
	return do_pipe2(task, fildes, flags);
}

SYSCALL_DEFINE1(pipe, unsigned long, fildes)
{
	return do_pipe2(task, fildes, 0);
}
