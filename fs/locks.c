/*
 * File locks (Linux: fs/locks.c): flock and fcntl's record locks. One
 * program runs at a time, so no lock can ever conflict: each request is
 * checked as Linux checks it, then granted at once (F_SETLKW never
 * waits) and F_GETLK always answers F_UNLCK. Example: fcntl(fd,
 * F_GETLK, &fl) with fl.l_type F_WRLCK returns 0 and sets fl.l_type to
 * F_UNLCK; flock(fd, LOCK_EX | LOCK_NB) returns 0; flock(fd, 3) is
 * -EINVAL.
 */
#include <sched.h>
#include <syscalls.h>
#include <vm.h>

/* Linux: struct flock on x86-64 (32 bytes). */
struct flock {
	int16_t l_type;
	int16_t l_whence;
	int64_t l_start;
	int64_t l_len;
	int32_t l_pid;
};

/* Linux: flock_to_posix_lock's checks. Return: 0, -EFAULT or -EINVAL. */
static int get_flock(struct flock *fl, unsigned long arg)
{
	if (copy_from_user(fl, arg, sizeof(*fl)))
		return -EFAULT;
	if (fl->l_type != F_RDLCK && fl->l_type != F_WRLCK && fl->l_type != F_UNLCK)
		return -EINVAL;
	if (fl->l_whence != SEEK_SET && fl->l_whence != SEEK_CUR && fl->l_whence != SEEK_END)
		return -EINVAL;
	return 0;
}

/* Linux: fcntl_getlk: nobody else holds a lock. */
long fcntl_getlk(struct file *file, unsigned long arg)
{
	struct flock fl;
	int err = get_flock(&fl, arg);

	if (err)
		return err;
	fl.l_type = F_UNLCK;
	return copy_to_user(arg, &fl, sizeof(fl)) ? -EFAULT : 0;
}

/* Linux: fcntl_setlk: a read lock needs a readable fd, a write lock a
 * writable one. */
long fcntl_setlk(struct file *file, unsigned long arg)
{
	struct flock fl;
	int err = get_flock(&fl, arg);

	if (err)
		return err;
	if (fl.l_type == F_RDLCK && !(file->f_mode & FMODE_READ))
		return -EBADF;
	if (fl.l_type == F_WRLCK && !(file->f_mode & FMODE_WRITE))
		return -EBADF;
	return 0;
}

/* Linux: sys_flock with flock_translate_cmd. */
SYSCALL_DEFINE2(flock, unsigned int, fd, unsigned int, cmd)
{
	unsigned int type = cmd & ~LOCK_NB;
	struct file *file = fget(task, (int)fd);

	if (!file)
		return -EBADF;
	fput(file);
	if (type != LOCK_SH && type != LOCK_EX && type != LOCK_UN)
		return -EINVAL;
	return 0;
}
