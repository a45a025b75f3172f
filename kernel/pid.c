/*
 * pidfds (Linux: kernel/pid.c pidfd_open, pidfd_get_task): a file that
 * names a process. Folium runs one program at a time, so the only pid
 * there is to name is the caller's own: pidfd_open(getpid(), 0) gives a
 * close-on-exec fd, any other pid is -ESRCH. process_madvise
 * (kernel/syscall.c) takes one to find the mm to advise.
 */
#include <process.h>
#include <ramfs.h>
#include <slab.h>
#include <syscalls.h>

#define PIDFD_NONBLOCK O_NONBLOCK
#define PIDFD_THREAD O_EXCL

/* The file's own state: the pid it names (the task may be gone). */
static void pidfd_release(struct ramfs_inode *inode, struct file *file)
{
	(void)file;
	kfree(inode);
}

static const struct file_operations pidfd_fops = {
	.release = pidfd_release,
};

/* Linux: pidfd_open's checks (flags, pid > 0, the pid exists), then
 * pidfd_create: O_RDWR, close-on-exec. */
SYSCALL_DEFINE2(pidfd_open, int, pid, unsigned int, flags)
{
	struct ramfs_inode *inode;
	struct file *file;
	int fd;

	if (flags & ~(unsigned int)(PIDFD_NONBLOCK | PIDFD_THREAD) || pid <= 0)
		return -EINVAL;
	if (pid != task->pid)
		return -ESRCH;
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	file = inode ? alloc_file(inode, &pidfd_fops, O_RDWR | (flags & PIDFD_NONBLOCK),
				  FMODE_READ | FMODE_WRITE)
		     : NULL;
	if (!file) {
		kfree(inode);
		return -ENOMEM;
	}
	*inode = (struct ramfs_inode){ .mode = S_IFREG | 0600,
				       .nlink = 1,
				       .ino = (unsigned long)pid };
	file->private_data = (void *)(uintptr_t)pid;
	fd = fd_install_lowest(task, file, 0, true);
	if (fd < 0)
		fput(file);
	return fd;
}

struct task *pidfd_get_task(struct task *task, int fd, int *err)
{
	struct file *file = fget(task, fd);
	int pid = file && file->f_op == &pidfd_fops ? (int)(uintptr_t)file->private_data : 0;

	if (file)
		fput(file);
	*err = !pid ? -EBADF : pid != task->pid ? -ESRCH : 0;
	return *err ? NULL : task;
}
