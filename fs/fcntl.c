/*
 * fcntl (Linux: fs/fcntl.c): duplicating an fd at or above a number, the
 * close-on-exec flag, the file's status flags, record locks (passed
 * to fs/locks.c) and a pipe's size (fs/pipe.c). Example: fcntl(1, F_DUPFD, 10) with 10 free returns
 * 10, sharing fd 1's file and offset; fcntl(10, F_GETFD) is 0 (dup
 * clears FD_CLOEXEC); fcntl(0, F_SETFL, O_NONBLOCK) makes console reads
 * return -EAGAIN instead of waiting.
 */
#include <sched.h>
#include <syscalls.h>

#define SETFL_MASK (O_APPEND | O_NONBLOCK) /* what F_SETFL may change here */

/* Linux: f_dupfd. */
static long f_dupfd(struct task_struct *task, unsigned long from, struct file *file, bool cloexec)
{
	int fd;

	if (from >= nofile_limit(task))
		return -EINVAL;
	file->f_count++;
	fd = fd_install_lowest(task, file, (int)from, cloexec);
	if (fd < 0)
		fput(file);
	return fd;
}

/* Linux: check_fcntl_cmd: what an O_PATH fd may do. */
static bool check_fcntl_cmd(unsigned int cmd)
{
	return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_GETFD || cmd == F_SETFD ||
	       cmd == F_GETFL;
}

/* Linux: do_fcntl. */
static long do_fcntl(struct task_struct *task, int fd, unsigned int cmd, unsigned long arg,
		     struct file *file)
{
	switch (cmd) {
	case F_DUPFD:
		return f_dupfd(task, arg, file, false);
	case F_DUPFD_CLOEXEC:
		return f_dupfd(task, arg, file, true);
	case F_GETFD:
		return get_close_on_exec(task, fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		set_close_on_exec(task, fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return file->f_flags;
	case F_SETFL:
		file->f_flags = (file->f_flags & ~SETFL_MASK) | ((unsigned int)arg & SETFL_MASK);
		return 0;
	case F_GETLK:
		return fcntl_getlk(file, arg);
	case F_SETLK:
	case F_SETLKW:
		return fcntl_setlk(file, arg);
	case F_SETPIPE_SZ:
	case F_GETPIPE_SZ:
		return pipe_fcntl(task, file, cmd, (unsigned int)arg);
	case F_ADD_SEALS:
	case F_GET_SEALS:
		return memfd_fcntl(file, cmd, (unsigned int)arg);
	default:
		return -EINVAL;
	}
}

SYSCALL_DEFINE3(fcntl, unsigned int, fd, unsigned int, cmd, unsigned long, arg)
{
	struct file *file = fget_raw(task, (int)fd);
	long ret = -EBADF;

	if (!file)
		return -EBADF;
	if (!(file->f_mode & FMODE_PATH) || check_fcntl_cmd(cmd))
		ret = do_fcntl(task, (int)fd, cmd, arg, file);
	fput(file);
	return ret;
}
