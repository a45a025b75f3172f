/*
 * Pipes (Linux: fs/pipe.c): a ring buffer between a read end and a write
 * end, each its own struct file; the pipe goes when both ends are closed.
 * head and tail count bytes ever written and read, so head - tail is what
 * is buffered, and byte pos lives at pos % size in the ring. The ring is
 * an array of pages, each allocated at its first write (Linux allocates
 * a page per buffer slot as it fills). Example: write "abc" then read 2
 * gives "ab"; head 3, tail 2; after the write end is closed, the next
 * read gives "c", the one after that 0 (end of file).
 *
 * A read of an empty pipe sleeps until a writer writes or the last one
 * closes, a write to a full one until a reader makes room (Linux's
 * rd_wait and wr_wait); O_NONBLOCK makes both -EAGAIN instead. A write
 * of at most PIPE_BUF bytes goes in whole or not at all (POSIX's
 * atomicity); a longer one may be split around the readers. The size is
 * Linux's: 16 pages (F_GETPIPE_SZ 65536), changed by F_SETPIPE_SZ to a
 * power-of-two number of pages.
 */
#include <cred.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define PIPE_DEF_BUFFERS 16	 /* pages of a new pipe */
#define PIPE_BUF 4096		 /* POSIX: writes up to this size are atomic */
#define PIPE_MAX_SIZE (1u << 20) /* Linux: /proc/sys/fs/pipe-max-size's default */

/* Linux: struct pipe_inode_info, with the pipefs inode it hangs off. */
struct pipe_inode_info {
	struct ramfs_inode inode; /* S_IFIFO 0600, for fstat */
	struct page **pages;	  /* nr_pages slots, NULL until written */
	unsigned int nr_pages;	  /* Linux: max_usage; a power of two */
	uint64_t head, tail;
	unsigned int readers, writers;
	struct wait_queue_head rd_wait; /* readers waiting for bytes */
	struct wait_queue_head wr_wait; /* writers waiting for room */
};

static unsigned long pipe_ino = 1ul << 32; /* apart from rootfs's numbers */

static size_t pipe_size(const struct pipe_inode_info *pipe)
{
	return (size_t)pipe->nr_pages * PAGE_SIZE;
}

/* The bytes of the ring at byte pos, to the end of its page, allocating
 * the page on a write. Return: the address, or NULL without memory. */
static char *pipe_at(struct page **pages, size_t size, uint64_t pos, bool alloc)
{
	size_t off = pos % size;
	struct page **slot = &pages[off / PAGE_SIZE];

	if (!*slot && alloc)
		*slot = alloc_pages(GFP_KERNEL, 0);
	return *slot ? (char *)page_address(*slot) + off % PAGE_SIZE : NULL;
}

/* Copy n bytes between the ring at pos and the user, a page at a time.
 * Return: 0, -EFAULT, or -ENOMEM (a page could not be had). */
static int pipe_copy(struct pipe_inode_info *pipe, uint64_t pos, unsigned long ubuf, size_t n,
		     bool to_user)
{
	while (n) {
		size_t chunk = MIN(n, PAGE_SIZE - pos % PAGE_SIZE);
		char *p = pipe_at(pipe->pages, pipe_size(pipe), pos, !to_user);

		if (!p)
			return -ENOMEM;
		if (to_user ? copy_to_user(ubuf, p, chunk) : copy_from_user(p, ubuf, chunk))
			return -EFAULT;
		pos += chunk;
		ubuf += chunk;
		n -= chunk;
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
	return pipe_size(pipe) - (size_t)(pipe->head - pipe->tail);
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
		int err;

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
		err = pipe_copy(pipe, pipe->head, buf + done, n, false);
		if (err)
			return done ? (long)done : err;
		pipe->head += n;
		done += n;
		wake_up_interruptible(&pipe->rd_wait);
	}
	return (long)done;
}

/*
 * Linux: pipe_poll. The read end is readable with bytes buffered and
 * hung up once no writer is left; the write end is writable while a
 * PIPE_BUF write would not wait (Linux: a free slot) and in error once no
 * reader is left (Linux reports EPOLLERR for pipes and FIFOs alike).
 */
static __poll_t pipe_poll(struct file *file, poll_table *wait)
{
	struct pipe_inode_info *pipe = file->private_data;
	__poll_t mask = 0;

	if (file->f_mode & FMODE_READ)
		poll_wait(file, &pipe->rd_wait, wait);
	if (file->f_mode & FMODE_WRITE)
		poll_wait(file, &pipe->wr_wait, wait);
	if (file->f_mode & FMODE_READ) {
		if (pipe->head != pipe->tail)
			mask |= POLLIN | POLLRDNORM;
		if (!pipe->writers)
			mask |= POLLHUP;
	}
	if (file->f_mode & FMODE_WRITE) {
		if (pipe_room(pipe) >= PIPE_BUF)
			mask |= POLLOUT | POLLWRNORM;
		if (!pipe->readers)
			mask |= POLLERR;
	}
	return mask;
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

static void pipe_free_pages(struct page **pages, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++)
		if (pages[i])
			__free_pages(pages[i], 0);
	kfree(pages);
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
	pipe_free_pages(pipe->pages, pipe->nr_pages);
	kfree(pipe);
}

static const struct file_operations pipefifo_fops = {
	.read = pipe_read,
	.write = pipe_write,
	.ioctl = pipe_ioctl,
	.poll = pipe_poll,
	.release = pipe_release,
};

int create_pipe_files(struct file *res[2], unsigned int flags)
{
	struct pipe_inode_info *pipe = kzalloc(sizeof(*pipe), GFP_KERNEL);
	struct page **pages = kzalloc(PIPE_DEF_BUFFERS * sizeof(*pages), GFP_KERNEL);

	flags &= O_NONBLOCK;
	if (pipe) /* before alloc_file, which takes a reference on it */
		pipe->inode = (struct ramfs_inode){ .mode = S_IFIFO | 0600,
						    .nlink = 1,
						    .ino = pipe_ino++ };
	res[0] = pipe && pages
			 ? alloc_file(&pipe->inode, &pipefifo_fops, O_RDONLY | flags, FMODE_READ)
			 : NULL;
	res[1] = res[0] ? alloc_file(&pipe->inode, &pipefifo_fops, O_WRONLY | flags, FMODE_WRITE)
			: NULL;
	if (!res[1]) {
		kfree(res[0]);
		kfree(pipe);
		kfree(pages);
		return -ENOMEM;
	}
	pipe->pages = pages;
	pipe->nr_pages = PIPE_DEF_BUFFERS;
	pipe->readers = pipe->writers = 1;
	init_waitqueue_head(&pipe->rd_wait);
	init_waitqueue_head(&pipe->wr_wait);
	res[0]->private_data = res[1]->private_data = pipe;
	return 0;
}

/* Linux: round_pipe_size. Return: at least a page, a power of two, or 0
 * for a size past 2^31. */
static unsigned int round_pipe_size(unsigned int size)
{
	unsigned int pow = PAGE_SIZE;

	if (size > (1u << 31))
		return 0;
	while (pow < size)
		pow <<= 1;
	return pow;
}

/* Linux: pipe_resize_ring. The buffered bytes move to the new ring's
 * start (head - tail at 0); pages of the old ring are freed. */
static long pipe_resize_ring(struct pipe_inode_info *pipe, unsigned int nr_pages)
{
	size_t n = (size_t)(pipe->head - pipe->tail), size = (size_t)nr_pages * PAGE_SIZE;
	struct page **pages;

	if (n > size)
		return -EBUSY;
	pages = kzalloc(nr_pages * sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (size_t done = 0; done < n;) {
		uint64_t from = pipe->tail + done;
		size_t chunk = MIN(n - done,
				   MIN(PAGE_SIZE - from % PAGE_SIZE, PAGE_SIZE - done % PAGE_SIZE));
		char *dst = pipe_at(pages, size, done, true);

		if (!dst) {
			pipe_free_pages(pages, nr_pages);
			return -ENOMEM;
		}
		memcpy(dst, pipe_at(pipe->pages, pipe_size(pipe), from, false), chunk);
		done += chunk;
	}
	pipe_free_pages(pipe->pages, pipe->nr_pages);
	pipe->pages = pages;
	pipe->nr_pages = nr_pages;
	pipe->tail = 0;
	pipe->head = n;
	wake_up_interruptible(&pipe->wr_wait); /* there may be room now */
	return 0;
}

/* Linux: pipe_set_size. Growing past pipe-max-size needs
 * CAP_SYS_RESOURCE (root has it); Linux's per-user page accounting is
 * not kept. */
static long pipe_set_size(struct task_struct *task, struct pipe_inode_info *pipe, unsigned int arg)
{
	unsigned int size = round_pipe_size(arg), nr_pages = size / PAGE_SIZE;
	long err;

	if (!nr_pages)
		return -EINVAL;
	if (nr_pages > pipe->nr_pages && size > PIPE_MAX_SIZE &&
	    !has_capability(task, CAP_SYS_RESOURCE))
		return -EPERM;
	err = pipe_resize_ring(pipe, nr_pages);
	return err ? err : (long)size;
}

long pipe_fcntl(struct task_struct *task, struct file *file, unsigned int cmd, unsigned int arg)
{
	struct pipe_inode_info *pipe = file->private_data;

	if (file->f_op != &pipefifo_fops)
		return -EBADF; /* Linux: get_pipe_info found no pipe */
	if (cmd == F_SETPIPE_SZ)
		return pipe_set_size(task, pipe, arg);
	return cmd == F_GETPIPE_SZ ? (long)pipe_size(pipe) : -EINVAL;
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
