/*
 * ioctl (Linux: fs/ioctl.c): the request goes to the file's own ioctl;
 * a file without one (a regular file, a directory) is not a terminal:
 * -ENOTTY. Example: ioctl(1, TCGETS, &t) on the console fills t;
 * ioctl(fd_of_motd, TCGETS, &t) is -ENOTTY, which is how isatty() says no.
 * FIONBIO is every file's (Linux: do_vfs_ioctl's ioctl_fionbio).
 */
#include <syscalls.h>
#include <vm.h>

SYSCALL_DEFINE3(ioctl, int, fd, unsigned int, cmd, unsigned long, arg)
{
	struct file *file = fget(task, fd);
	long ret = -ENOTTY;

	if (!file)
		return -EBADF;
	if (cmd == FIONBIO) {
		int on;

		ret = copy_from_user(&on, arg, sizeof(on)) ? -EFAULT : 0;
		if (!ret)
			file->f_flags =
				on ? file->f_flags | O_NONBLOCK : file->f_flags & ~O_NONBLOCK;
	} else if (file->f_op->ioctl)
		ret = file->f_op->ioctl(file, cmd, arg);
	fput(file);
	return ret;
}
