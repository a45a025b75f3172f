/*
 * posix_fadvise (Linux: mm/fadvise.c, generic_fadvise). Folium's files
 * live in memory with no backing store, as tmpfs's do (Linux's
 * noop_backing_dev_info case): the advice is checked and taken as given,
 * and nothing is read ahead or dropped. Example: fadvise64(fd, 0, 0,
 * POSIX_FADV_DONTNEED) on a file is 0, on a pipe -ESPIPE, and advice 6
 * is -EINVAL.
 */
#include <syscalls.h>

#define POSIX_FADV_NORMAL 0
#define POSIX_FADV_NOREUSE 5 /* the last one (x86-64's numbering) */

SYSCALL_DEFINE4(fadvise64, int, fd, long, offset, long, len, int, advice)
{
	struct file *file = fget(task, fd);
	long ret = 0;

	(void)offset;
	if (!file)
		return -EBADF;
	if (S_ISFIFO(file->f_inode->mode))
		ret = -ESPIPE;
	else if (len < 0 || advice < POSIX_FADV_NORMAL || advice > POSIX_FADV_NOREUSE)
		ret = -EINVAL;
	fput(file);
	return ret;
}
