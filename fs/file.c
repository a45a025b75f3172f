/*
 * The file descriptor table (Linux: fs/file.c): the lowest free fd, the
 * close-on-exec bits, references on struct file, dup/dup2/dup3. A struct file is shared by every fd
 * dup made of it and freed (its release called) when the last fd and the last fget are gone.
 * Example: dup(1) with fds 0-2 open returns 3; fds 1 and 3 then share the console file, whose
 * f_count goes from 3 to 4. fork copies the table (dup_fd): parent and child then share each open
 * file, its offset and flags, as on Linux.
 */
#include <eventpoll.h>
#include <fs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

struct file *alloc_file(struct ramfs_inode *inode, const struct file_operations *fop,
			unsigned int flags, uint32_t mode)
{
	struct file *file = kzalloc(sizeof(*file), GFP_KERNEL);

	if (!file)
		return NULL;
	file->f_op = fop;
	file->f_inode = inode;
	file->f_flags = flags;
	file->f_mode = mode;
	file->f_count = 1;
	if (inode)
		ihold(inode);
	return file;
}

struct file *fget_raw(struct task_struct *task, int fd)
{
	struct file *file;

	if (fd < 0 || fd >= NR_OPEN_DEFAULT)
		return NULL;
	file = task->files->fd[fd];
	if (file)
		file->f_count++;
	return file;
}

struct file *fget(struct task_struct *task, int fd)
{
	struct file *file = fget_raw(task, fd);

	if (file && (file->f_mode & FMODE_PATH)) {
		fput(file);
		return NULL;
	}
	return file;
}

/* Linux: fput, then __fput once the count is 0. */
void fput(struct file *file)
{
	BUG_ON(file->f_count <= 0);
	if (--file->f_count)
		return;
	eventpoll_release(file); /* Linux: __fput's, before ->release frees the queues */
	/* Before ->release: a pipe's or an eventfd's inode goes with it. */
	if (file->f_inode)
		iput(file->f_inode);
	if (file->f_op && file->f_op->release)
		file->f_op->release(file->f_inode, file);
	kfree(file);
}

bool get_close_on_exec(struct task_struct *task, int fd)
{
	return task->files->close_on_exec[fd / 64] & (1ull << (fd % 64));
}

void set_close_on_exec(struct task_struct *task, int fd, bool on)
{
	if (on)
		task->files->close_on_exec[fd / 64] |= 1ull << (fd % 64);
	else
		task->files->close_on_exec[fd / 64] &= ~(1ull << (fd % 64));
}

/* Linux: rlimit(RLIMIT_NOFILE) as alloc_fd's end, never past the table. */
unsigned int nofile_limit(const struct task_struct *task)
{
	return (unsigned int)MIN(task_rlimit(task, RLIMIT_NOFILE), (uint64_t)NR_OPEN_DEFAULT);
}

int fd_install_lowest(struct task_struct *task, struct file *file, int start, bool cloexec)
{
	int end = (int)nofile_limit(task);

	for (int fd = start; fd < end; fd++) {
		if (!task->files->fd[fd]) {
			task->files->fd[fd] = file;
			set_close_on_exec(task, fd, cloexec);
			return fd;
		}
	}
	return -EMFILE;
}

int close_fd(struct task_struct *task, int fd)
{
	struct file *file;

	if (fd < 0 || fd >= NR_OPEN_DEFAULT || !task->files->fd[fd])
		return -EBADF;
	file = task->files->fd[fd];
	task->files->fd[fd] = NULL;
	set_close_on_exec(task, fd, false);
	fput(file);
	return 0;
}

struct files_struct *dup_fd(const struct files_struct *old)
{
	struct files_struct *files = kzalloc(sizeof(*files), GFP_KERNEL);

	if (!files)
		return NULL;
	files->count = 1;
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++) {
		files->fd[fd] = old->fd[fd];
		if (files->fd[fd])
			files->fd[fd]->f_count++;
	}
	memcpy(files->close_on_exec, old->close_on_exec, sizeof(files->close_on_exec));
	return files;
}

void put_files_struct(struct files_struct *files)
{
	if (!files || --files->count)
		return;
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (files->fd[fd])
			fput(files->fd[fd]);
	kfree(files);
}

void exit_files(struct task_struct *task)
{
	struct files_struct *files = task->files;

	task->files = NULL;
	put_files_struct(files);
}

void do_close_on_exec(struct task_struct *task)
{
	for (int fd = 0; fd < NR_OPEN_DEFAULT; fd++)
		if (task->files->fd[fd] && get_close_on_exec(task, fd))
			close_fd(task, fd);
}

/* Linux: do_dup2. newfd's old file, if any, is closed after the swap. */
static int do_dup2(struct task_struct *task, struct file *file, unsigned int newfd, bool cloexec)
{
	struct file *old = task->files->fd[newfd];

	task->files->fd[newfd] = file;
	set_close_on_exec(task, (int)newfd, cloexec);
	if (old)
		fput(old);
	return (int)newfd;
}

/* Linux: ksys_dup3. */
static int ksys_dup3(struct task_struct *task, unsigned int oldfd, unsigned int newfd, int flags)
{
	struct file *file;

	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd >= nofile_limit(task))
		return -EBADF;
	file = fget_raw(task, (int)oldfd);
	if (!file)
		return -EBADF;
	return do_dup2(task, file, newfd, flags & O_CLOEXEC);
}

SYSCALL_DEFINE3(dup3, unsigned int, oldfd, unsigned int, newfd, int, flags)
{
	return ksys_dup3(task, oldfd, newfd, flags);
}

/* Linux: sys_dup2: dup2(fd, fd) checks fd and returns it. */
SYSCALL_DEFINE2(dup2, unsigned int, oldfd, unsigned int, newfd)
{
	if (oldfd == newfd) {
		struct file *file = fget_raw(task, (int)oldfd);

		if (!file)
			return -EBADF;
		fput(file);
		return newfd;
	}
	return ksys_dup3(task, oldfd, newfd, 0);
}

SYSCALL_DEFINE1(dup, unsigned int, fildes)
{
	struct file *file = fget_raw(task, (int)fildes);
	int fd;

	if (!file)
		return -EBADF;
	fd = fd_install_lowest(task, file, 0, false);
	if (fd < 0)
		fput(file);
	return fd;
}

/* Linux: vfs_fallocate (fs/open.c; here with the generic file code, for
 * madvise's MADV_REMOVE calls it too). Its checks in its order, then
 * f_op->fallocate: only
 * KEEP_SIZE and PUNCH_HOLE (with KEEP_SIZE) are known; the file must be
 * open for writing; a pipe is -ESPIPE, a directory -EISDIR, another
 * non-regular file -ENODEV; a new end past RLIMIT_FSIZE SIGXFSZ and
 * -EFBIG (inode_newsize_ok, for an allocation). */
static long fallocate_args_valid(int mode, long offset, long len)
{
	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	return 0;
}

long vfs_fallocate(struct file *file, int mode, long offset, long len)
{
	struct ramfs_inode *inode = file->f_inode;
	long err = fallocate_args_valid(mode, offset, len), end;

	if (err)
		return err;
	if (!(file->f_mode & FMODE_WRITE))
		err = -EBADF;
	else if (S_ISFIFO(inode->mode))
		err = -ESPIPE;
	else if (S_ISDIR(inode->mode))
		err = -EISDIR;
	else if (!S_ISREG(inode->mode) || !inode->i_mapping)
		err = -ENODEV;
	else if (__builtin_add_overflow(offset, len, &end))
		err = -EFBIG;
	else if (!(mode & FALLOC_FL_PUNCH_HOLE) &&
		 (uint64_t)end > task_rlimit(current, RLIMIT_FSIZE)) {
		send_signal(current, SIGXFSZ, NULL);
		err = -EFBIG;
	} else if (!file->f_op->fallocate) {
		err = -EOPNOTSUPP;
	} else {
		err = file->f_op->fallocate(file, mode, (uint64_t)offset, (uint64_t)len);
	}
	return err;
}
