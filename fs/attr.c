/*
 * An inode's attributes changed by a program (Linux: fs/attr.c's
 * setattr_prepare and notify_change, fs/open.c's chmod_common and
 * chown_common, fs/utimes.c): mode, owner and times, each with Linux's
 * permission rules, and the times every change stamps (ctime for the
 * inode, mtime and ctime for a directory whose names change). Example:
 * a user's chmod of root's file is -EPERM; touch of a file the user may
 * write but does not own sets both times to now, and explicit times
 * there are -EPERM.
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

#define UTIME_NOW ((1l << 30) - 1l)
#define UTIME_OMIT ((1l << 30) - 2l)

/* Linux: inode_owner_or_capable. */
static bool owner_or_capable(const struct task_struct *task, const struct ramfs_inode *inode)
{
	return task->cred.fsuid == inode->uid || has_capability(task, CAP_FOWNER);
}

/* A /proc or /sys file keeps the attributes it was made with: -EPERM.
 * Linux refuses a pid file's mode (proc_setattr) and a /proc/sys file's
 * mode and owner (proc_sys_setattr) too, but lets root change the rest,
 * which Folium does not keep. The console's and a pipe's inode change as
 * any other. */
static bool fixed_attrs(const struct ramfs_inode *inode)
{
	return (inode->i_fop || inode->lookup || inode->get_link) && !S_ISCHR(inode->mode) &&
	       !S_ISFIFO(inode->mode);
}

/* Linux: chmod_common, then setattr_prepare's ATTR_MODE: the owner (or
 * CAP_FOWNER) only; set-group-ID is dropped by a caller outside the
 * file's group without CAP_FSETID. */
static long chmod_common(struct task_struct *task, struct ramfs_inode *inode, uint32_t mode)
{
	if (fixed_attrs(inode))
		return -EPERM;
	if (!owner_or_capable(task, inode))
		return -EPERM;
	mode &= 07777;
	if (!in_group_p(&task->cred, inode->gid) && !has_capability(task, CAP_FSETID))
		mode &= ~S_ISGID;
	/* Linux: shmem_setattr, a memfd sealed F_SEAL_EXEC. */
	if ((inode->i_seals & F_SEAL_EXEC) && ((inode->mode ^ mode) & 0111))
		return -EPERM;
	inode->mode = (inode->mode & S_IFMT) | mode;
	inode_set_ctime_current(inode);
	return 0;
}

/* Linux: chown_common with setattr_prepare's chown_ok and chgrp_ok. A
 * new owner needs CAP_CHOWN; the owner may give the file a group it is
 * in. -1 keeps either. A file that is not a directory loses set-user-ID
 * always, set-group-ID when the group may execute or the caller could
 * not set it (setattr_should_drop_sgid). */
static long chown_common(struct task_struct *task, struct ramfs_inode *inode, uint32_t user,
			 uint32_t group)
{
	const struct cred *cred = &task->cred;
	bool chown_cap = has_capability(task, CAP_CHOWN);

	if (fixed_attrs(inode))
		return -EPERM;
	if (user != (uint32_t)-1 && !(cred->fsuid == inode->uid && user == inode->uid) &&
	    !chown_cap)
		return -EPERM;
	if (group != (uint32_t)-1 &&
	    !(cred->fsuid == inode->uid && (group == inode->gid || in_group_p(cred, group))) &&
	    !chown_cap)
		return -EPERM;
	if (!S_ISDIR(inode->mode)) {
		uint32_t kill = S_ISUID;

		if ((inode->mode & S_ISGID) &&
		    ((inode->mode & 0010) ||
		     (!in_group_p(cred, inode->gid) && !has_capability(task, CAP_FSETID))))
			kill |= S_ISGID;
		inode->mode &= ~kill;
	}
	if (user != (uint32_t)-1)
		inode->uid = user;
	if (group != (uint32_t)-1)
		inode->gid = group;
	inode_set_ctime_current(inode);
	return 0;
}

static bool nsec_valid(long nsec)
{
	return nsec == UTIME_OMIT || nsec == UTIME_NOW || (nsec >= 0 && nsec <= 999999999);
}

/* Linux: vfs_utimes. NULL times, or both UTIME_NOW, is a touch: the
 * owner, CAP_FOWNER or a caller who may write. Any other times need the
 * owner or CAP_FOWNER (ATTR_TIMES_SET). UTIME_OMIT keeps that time; the
 * ctime is always now. */
static long vfs_utimes(struct task_struct *task, struct ramfs_inode *inode,
		       const struct timespec64 *times)
{
	struct timespec64 now = current_time();
	int err;

	if (times && (!nsec_valid(times[0].tv_nsec) || !nsec_valid(times[1].tv_nsec)))
		return -EINVAL;
	if (times && times[0].tv_nsec == UTIME_NOW && times[1].tv_nsec == UTIME_NOW)
		times = NULL;
	if (fixed_attrs(inode))
		return -EPERM;
	if (times && !owner_or_capable(task, inode))
		return -EPERM;
	if (!times && !owner_or_capable(task, inode)) {
		err = inode_permission(&task->cred, inode, MAY_WRITE);
		if (err)
			return err;
	}
	if (!times || times[0].tv_nsec != UTIME_OMIT)
		inode->i_atime = times && times[0].tv_nsec != UTIME_NOW ? times[0] : now;
	if (!times || times[1].tv_nsec != UTIME_OMIT)
		inode->i_mtime = times && times[1].tv_nsec != UTIME_NOW ? times[1] : now;
	inode->i_ctime = now;
	return 0;
}

/* Linux: do_utimes. A NULL name with a dfd is the fd's file (no flags
 * allowed, do_utimes_fd); otherwise the name from dfd. */
static long do_utimes(struct task_struct *task, int dfd, unsigned long upath,
		      const struct timespec64 *times, int flags)
{
	struct ramfs_inode *inode;
	struct file *file;
	long err;

	if (!upath && dfd != AT_FDCWD) {
		if (flags)
			return -EINVAL;
		file = fget(task, dfd);
		if (!file)
			return -EBADF;
		err = vfs_utimes(task, file->f_inode, times);
		fput(file);
		return err;
	}
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(task, dfd, upath, at_lookup_flags(flags), &inode);
	return err ? err : vfs_utimes(task, inode, times);
}

SYSCALL_DEFINE4(utimensat, int, dfd, unsigned long, filename, unsigned long, utimes, int, flags)
{
	struct __kernel_timespec ts[2];
	struct timespec64 times[2];

	if (utimes) {
		if (copy_from_user(ts, utimes, sizeof(ts)))
			return -EFAULT;
		for (int i = 0; i < 2; i++)
			times[i] = (struct timespec64){ ts[i].tv_sec, (long)ts[i].tv_nsec };
		/* Nothing to do: not even the name is looked at. */
		if (times[0].tv_nsec == UTIME_OMIT && times[1].tv_nsec == UTIME_OMIT)
			return 0;
	}
	return do_utimes(task, dfd, filename, utimes ? times : NULL, flags);
}

/* Linux: do_futimesat, the microsecond calls: a tv_usec outside
 * [0, 1000000) is -EINVAL. */
SYSCALL_DEFINE3(futimesat, int, dfd, unsigned long, filename, unsigned long, utimes)
{
	struct __kernel_old_timeval tv[2];
	struct timespec64 times[2];

	if (utimes) {
		if (copy_from_user(tv, utimes, sizeof(tv)))
			return -EFAULT;
		for (int i = 0; i < 2; i++) {
			if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
				return -EINVAL;
			times[i] = (struct timespec64){ tv[i].tv_sec, tv[i].tv_usec * 1000 };
		}
	}
	return do_utimes(task, dfd, filename, utimes ? times : NULL, 0);
}

SYSCALL_DEFINE2(utimes, unsigned long, filename, unsigned long, utimes)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, filename, utimes };

	return sys_futimesat(task, args);
}

/* Linux: utime, whole seconds (struct utimbuf: actime, modtime). */
SYSCALL_DEFINE2(utime, unsigned long, filename, unsigned long, times)
{
	struct timespec64 ts[2];
	long buf[2];

	if (times) {
		if (copy_from_user(buf, times, sizeof(buf)))
			return -EFAULT;
		ts[0] = (struct timespec64){ buf[0], 0 };
		ts[1] = (struct timespec64){ buf[1], 0 };
	}
	return do_utimes(task, AT_FDCWD, filename, times ? ts : NULL, 0);
}

/* Linux: do_fchmodat. fchmodat2's AT_SYMLINK_NOFOLLOW on a symlink is
 * -EOPNOTSUPP (a link's mode means nothing). */
static long do_fchmodat(struct task_struct *task, int dfd, unsigned long filename, uint32_t mode,
			unsigned int flags)
{
	struct ramfs_inode *inode;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(task, dfd, filename, at_lookup_flags(flags), &inode);
	if (err)
		return err;
	if (S_ISLNK(inode->mode))
		return -EOPNOTSUPP;
	return chmod_common(task, inode, mode);
}

SYSCALL_DEFINE4(fchmodat2, int, dfd, unsigned long, filename, unsigned int, mode, unsigned int,
		flags)
{
	return do_fchmodat(task, dfd, filename, mode, flags);
}

SYSCALL_DEFINE3(fchmodat, int, dfd, unsigned long, filename, unsigned int, mode)
{
	return do_fchmodat(task, dfd, filename, mode, 0);
}

SYSCALL_DEFINE2(chmod, unsigned long, filename, unsigned int, mode)
{
	return do_fchmodat(task, AT_FDCWD, filename, mode, 0);
}

SYSCALL_DEFINE2(fchmod, int, fd, unsigned int, mode)
{
	struct file *file = fget(task, fd);
	long err;

	if (!file)
		return -EBADF;
	err = chmod_common(task, file->f_inode, mode);
	fput(file);
	return err;
}

/* Linux: do_fchownat. */
SYSCALL_DEFINE5(fchownat, int, dfd, unsigned long, filename, unsigned int, user, unsigned int,
		group, int, flag)
{
	struct ramfs_inode *inode;
	int err;

	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(task, dfd, filename, at_lookup_flags(flag), &inode);
	return err ? err : chown_common(task, inode, user, group);
}

SYSCALL_DEFINE3(chown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, filename, user, group, 0 };

	return sys_fchownat(task, args);
}

SYSCALL_DEFINE3(lchown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, filename, user, group,
					AT_SYMLINK_NOFOLLOW };

	return sys_fchownat(task, args);
}

SYSCALL_DEFINE3(fchown, int, fd, unsigned int, user, unsigned int, group)
{
	struct file *file = fget(task, fd);
	long err;

	if (!file)
		return -EBADF;
	err = chown_common(task, file->f_inode, user, group);
	fput(file);
	return err;
}
