/*
 * The calls that change the file system (Linux: fs/namei.c do_mkdirat,
 * do_mknodat, do_unlinkat, do_rmdir, do_symlinkat, do_linkat; fs/open.c
 * do_truncate; fs/sync.c). Each walks the path as Linux does (a missing
 * parent is -ENOENT, a name that exists -EEXIST for a create, a bad
 * pointer -EFAULT), checks the directory's permissions (may_create,
 * may_delete with the sticky bit), then changes rootfs. /proc's
 * directories are a file system of their own that makes and removes
 * nothing (-EPERM). Still refused as on a read-only mount (-EROFS, after
 * the walk): rename, chmod, chown and utimensat, which come with tmpfs.
 * Example: mkdir("/etc", 0755) is -EEXIST, mkdir("/no/new", 0755)
 * -ENOENT, mkdir("/etc/new", 0755) makes it (mode 0755 & ~umask).
 */
#include <sched.h>
#include <signal.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>

/*
 * Linux: filename_parentat. Look up the directory holding name's last
 * component (trailing slashes cut) and say what that component is;
 * *last points at it in name. Return: 0, -ENOENT for "", or the parent's
 * lookup error (-ENOTDIR when it is not a directory).
 */
int filename_parentat(struct task_struct *task, int dfd, char *name, enum last_type *type,
		      struct ramfs_inode **parent, char **last)
{
	size_t len = strlen(name);
	char *slash = NULL;
	int err;

	if (!len)
		return -ENOENT;
	while (len > 1 && name[len - 1] == '/')
		name[--len] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '/')
			slash = p;
	*last = slash ? slash + 1 : name;
	*type = !strcmp(*last, ".") || !**last ? LAST_DOT
		: !strcmp(*last, "..")	       ? LAST_DOTDOT
					       : LAST_NORM;
	if (!slash)
		err = path_lookupat(task, dfd, ".", LOOKUP_FOLLOW, parent);
	else if (slash == name)
		err = path_lookupat(task, dfd, "/", LOOKUP_FOLLOW, parent);
	else {
		*slash = '\0';
		err = path_lookupat(task, dfd, name, LOOKUP_FOLLOW, parent);
		*slash = '/';
	}
	if (err)
		return err;
	return S_ISDIR((*parent)->mode) ? 0 : -ENOTDIR;
}

/* A directory whose names are another file system's (/proc: a lookup
 * hook or operations of its own): nothing is made or removed there. */
static bool special_dir(const struct ramfs_inode *dir)
{
	return dir->lookup || dir->i_fop;
}

/* The directory's own permission check for a change of its names: a
 * /proc directory's mode bits (its ->create or ->mkdir then refuses),
 * any other's inode_permission. */
static int dir_permission(const struct task_struct *task, const struct ramfs_inode *dir)
{
	if (special_dir(dir))
		return generic_permission(&task->cred, dir, MAY_WRITE | MAY_EXEC);
	return inode_permission(&task->cred, dir, MAY_WRITE | MAY_EXEC);
}

/* Linux: may_create: a removed directory takes no new names, and the
 * caller needs write and search permission on it. */
static int may_create(const struct task_struct *task, const struct ramfs_inode *dir)
{
	if (!dir->nlink)
		return -ENOENT;
	return dir_permission(task, dir);
}

/* Linux: may_delete and check_sticky: write and search on the directory;
 * in a sticky one only the file's or the directory's owner (or
 * CAP_FOWNER) removes a name. */
static int may_delete(const struct task_struct *task, const struct ramfs_inode *dir,
		      const struct ramfs_inode *victim)
{
	const struct cred *cred = &task->cred;
	int err = dir_permission(task, dir);

	if (err)
		return err;
	if ((dir->mode & S_ISVTX) && cred->fsuid != victim->uid && cred->fsuid != dir->uid &&
	    !(cred->cap_effective & CAP_TO_MASK(CAP_FOWNER)))
		return -EPERM;
	return 0;
}

/* Linux: inode_init_owner. The caller's fsuid and fsgid, or the group of
 * a set-group-ID directory (which a new directory inherits too). */
static void init_owner(const struct task_struct *task, const struct ramfs_inode *dir,
		       struct ramfs_inode *inode)
{
	inode->uid = task->cred.fsuid;
	inode->gid = task->cred.fsgid;
	if (dir->mode & S_ISGID) {
		inode->gid = dir->gid;
		if (S_ISDIR(inode->mode))
			inode->mode |= S_ISGID;
	}
	inode->mtime = ktime_get_real_ns() / NSEC_PER_SEC;
}

int vfs_create(struct task_struct *task, struct ramfs_inode *dir, const char *last, uint32_t mode,
	       uint32_t rdev, struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	int err = may_create(task, dir);

	if (!err && special_dir(dir))
		err = S_ISREG(mode) ? -EACCES : -EPERM; /* no ->create, no ->mkdir */
	if (!err)
		err = ramfs_add(&rootfs, dir, last, mode, &inode);
	if (err)
		return err;
	inode->rdev = rdev;
	init_owner(task, dir, inode);
	dir->mtime = inode->mtime;
	if (out)
		*out = inode;
	return 0;
}

/* Linux: filename_create then vfs_mkdir or vfs_mknod. The parent must
 * exist; a name that exists is -EEXIST; "." and ".." too. */
static long create_at(struct task_struct *task, int dfd, unsigned long upath, uint32_t mode,
		      uint32_t rdev)
{
	struct ramfs_inode *parent;
	enum last_type type;
	char *name, *last;
	int err;

	name = getname(upath, &err);
	if (!name)
		return err;
	err = filename_parentat(task, dfd, name, &type, &parent, &last);
	if (!err && type != LAST_NORM)
		err = -EEXIST;
	if (!err)
		err = vfs_create(task, parent, last, mode, rdev, NULL);
	kfree(name);
	return err;
}

/* Linux: do_unlinkat and do_rmdir: the parent, then "." and ".."
 * refused as Linux does, the name looked up, may_delete, then the
 * removal (the inode and its bytes go with its last name and user). */
static long remove_at(struct task_struct *task, int dfd, unsigned long upath, bool dir)
{
	struct ramfs_inode *parent, *victim;
	enum last_type type;
	char *name, *last;
	int err;

	name = getname(upath, &err);
	if (!name)
		return err;
	err = filename_parentat(task, dfd, name, &type, &parent, &last);
	if (!err && type != LAST_NORM) /* "/" is Linux's LAST_ROOT: busy */
		err = !dir ? -EISDIR : !*last ? -EBUSY : type == LAST_DOT ? -EINVAL : -ENOTEMPTY;
	if (!err)
		err = ramfs_lookup_at(&rootfs, parent, last, false, &victim);
	if (!err)
		err = may_delete(task, parent, victim);
	if (!err && dir != S_ISDIR(victim->mode)) /* may_delete's type check */
		err = dir ? -ENOTDIR : -EISDIR;
	if (!err && (special_dir(parent) || (dir && special_dir(victim))))
		err = dir && special_dir(victim) ? -EBUSY : -EPERM; /* a mount point; no ->unlink */
	if (!err)
		err = ramfs_remove(&rootfs, parent, last, strlen(last));
	if (!err)
		parent->mtime = ktime_get_real_ns() / NSEC_PER_SEC;
	kfree(name);
	return err;
}

/* Linux: do_truncate after vfs_truncate's or do_ftruncate's checks: a
 * size past RLIMIT_FSIZE is SIGXFSZ and -EFBIG (inode_newsize_ok); the
 * bytes past a smaller size go from the page cache. */
static long do_truncate(struct task_struct *task, struct ramfs_inode *inode, long length)
{
	if ((uint64_t)length > task_rlimit(task, RLIMIT_FSIZE)) {
		send_signal(task, SIGXFSZ, NULL);
		return -EFBIG;
	}
	ramfs_setsize(inode, (uint64_t)length);
	inode->mtime = ktime_get_real_ns() / NSEC_PER_SEC;
	return 0;
}

/* chmod, chown, utimes of a name: it must exist, then -EROFS (they
 * come with tmpfs). */
static long change_at(struct task_struct *task, int dfd, unsigned long upath, unsigned int lookup)
{
	struct ramfs_inode *inode;
	int err = user_path_at(task, dfd, upath, lookup, &inode);

	return err ? err : -EROFS;
}

/* An inode of the read-only initramfs (not the console, a pipe, /proc
 * or /sys, whose own file systems Linux would let change). */
static bool on_rootfs(const struct ramfs_inode *inode)
{
	return inode && !inode->i_fop &&
	       (S_ISREG(inode->mode) || S_ISDIR(inode->mode) || S_ISLNK(inode->mode));
}

/* fchmod, fchown, futimens on an fd: -EBADF, else -EROFS for a file of
 * the initramfs; the console and pipes accept (and keep nothing). */
static long change_fd(struct task_struct *task, int fd)
{
	struct file *file = fget(task, fd);
	long err;

	if (!file)
		return -EBADF;
	err = on_rootfs(file->f_inode) ? -EROFS : 0;
	fput(file);
	return err;
}

#define AT_REMOVEDIR 0x200
#define RENAME_NOREPLACE 1
#define RENAME_EXCHANGE 2
#define RENAME_WHITEOUT 4

/* Linux: do_mkdirat: the mode's permission and sticky bits, less the umask. */
SYSCALL_DEFINE3(mkdirat, int, dfd, unsigned long, pathname, unsigned int, mode)
{
	return create_at(task, dfd, pathname, S_IFDIR | (mode & 01777 & ~task->fs->umask), 0);
}

SYSCALL_DEFINE2(mkdir, unsigned long, pathname, unsigned int, mode)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, pathname, mode };

	return sys_mkdirat(task, args);
}

/* Linux: do_mknodat and may_mknod. A regular file (type 0 too), a FIFO
 * or a socket for anyone, a device with CAP_MKNOD (@dev in the user's
 * encoding: new_decode_dev); a directory is -EPERM, anything else
 * -EINVAL. Folium opens none but regular files and character devices. */
SYSCALL_DEFINE4(mknodat, int, dfd, unsigned long, filename, unsigned int, mode, unsigned int, dev)
{
	uint32_t type = mode & S_IFMT, perm = mode & 07777 & ~task->fs->umask;
	uint32_t rdev = MKDEV((dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));

	if (!type)
		type = S_IFREG;
	if (type == S_IFDIR)
		return -EPERM;
	if (type != S_IFREG && type != S_IFCHR && type != S_IFBLK && type != S_IFIFO &&
	    type != S_IFSOCK)
		return -EINVAL;
	if ((type == S_IFCHR || type == S_IFBLK) && !has_capability(task, CAP_MKNOD))
		return -EPERM;
	return create_at(task, dfd, filename, type | perm,
			 type == S_IFCHR || type == S_IFBLK ? rdev : 0);
}

SYSCALL_DEFINE3(mknod, unsigned long, filename, unsigned int, mode, unsigned int, dev)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, filename, mode, dev };

	return sys_mknodat(task, args);
}

/* Linux: do_symlinkat. The target is any string (copied, not walked);
 * the new name is created as a create is. */
SYSCALL_DEFINE3(symlinkat, unsigned long, oldname, int, newdfd, unsigned long, newname)
{
	struct ramfs_inode *parent, *inode;
	enum last_type type;
	char *target, *name = NULL, *last, *copy = NULL;
	size_t len = 0;
	int err;

	target = getname(oldname, &err);
	if (target)
		name = getname(newname, &err);
	if (name) {
		len = strlen(target);
		err = !len ? -ENOENT : filename_parentat(task, newdfd, name, &type, &parent, &last);
	}
	if (name && !err && type != LAST_NORM)
		err = -EEXIST;
	if (name && !err)
		err = (copy = rootfs.alloc(&rootfs, len)) ? 0 : -ENOMEM;
	if (name && !err)
		err = vfs_create(task, parent, last, S_IFLNK | 0777, 0, &inode);
	if (name && !err) {
		memcpy(copy, target, len);
		inode->data = copy;
		inode->size = len;
		copy = NULL;
	}
	if (copy)
		rootfs.free(&rootfs, copy);
	kfree(target);
	kfree(name);
	return err;
}

SYSCALL_DEFINE2(symlink, unsigned long, oldname, unsigned long, newname)
{
	const unsigned long args[6] = { oldname, (unsigned long)AT_FDCWD, newname };

	return sys_symlinkat(task, args);
}

/* Linux: do_linkat. The old name must exist (followed only with
 * AT_SYMLINK_FOLLOW), then the new one is made in its directory: a
 * directory is -EPERM, a /proc, /sys or /dev file -EXDEV (another
 * mount in Linux). */
SYSCALL_DEFINE5(linkat, int, olddfd, unsigned long, oldname, int, newdfd, unsigned long, newname,
		int, flags)
{
	struct ramfs_inode *inode, *parent;
	enum last_type type;
	char *name, *last;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(task, olddfd, oldname,
			   (flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
				   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0),
			   &inode);
	if (err)
		return err;
	name = getname(newname, &err);
	if (!name)
		return err;
	err = filename_parentat(task, newdfd, name, &type, &parent, &last);
	if (!err && type != LAST_NORM)
		err = -EEXIST;
	if (!err)
		err = may_create(task, parent);
	if (!err && (inode->i_fop || S_ISCHR(inode->mode) || special_dir(parent)))
		err = -EXDEV;
	if (!err)
		err = ramfs_link_at(&rootfs, inode, parent, last, strlen(last));
	kfree(name);
	return err;
}

SYSCALL_DEFINE2(link, unsigned long, oldname, unsigned long, newname)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, oldname, (unsigned long)AT_FDCWD,
					newname, 0 };

	return sys_linkat(task, args);
}

SYSCALL_DEFINE1(unlink, unsigned long, pathname)
{
	return remove_at(task, AT_FDCWD, pathname, false);
}

SYSCALL_DEFINE1(rmdir, unsigned long, pathname)
{
	return remove_at(task, AT_FDCWD, pathname, true);
}

SYSCALL_DEFINE3(unlinkat, int, dfd, unsigned long, pathname, int, flag)
{
	if (flag & ~AT_REMOVEDIR)
		return -EINVAL;
	return remove_at(task, dfd, pathname, flag & AT_REMOVEDIR);
}

/* Linux: do_renameat2. Flags first, then both parents, then the mount. */
SYSCALL_DEFINE5(renameat2, int, olddfd, unsigned long, oldname, int, newdfd, unsigned long, newname,
		unsigned int, flags)
{
	enum last_type type;
	char *from, *to = NULL;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	from = getname(oldname, &err);
	if (from)
		to = getname(newname, &err);
	if (to) {
		struct ramfs_inode *parent;
		char *last;

		err = filename_parentat(task, olddfd, from, &type, &parent, &last);
		if (!err && type != LAST_NORM)
			err = -EBUSY;
		if (!err)
			err = filename_parentat(task, newdfd, to, &type, &parent, &last);
		if (!err)
			err = type != LAST_NORM ? -EBUSY : -EROFS;
	}
	kfree(from);
	kfree(to);
	return err;
}

SYSCALL_DEFINE4(renameat, int, olddfd, unsigned long, oldname, int, newdfd, unsigned long, newname)
{
	const unsigned long args[6] = { (unsigned long)olddfd, oldname, (unsigned long)newdfd,
					newname, 0 };

	return sys_renameat2(task, args);
}

SYSCALL_DEFINE2(rename, unsigned long, oldname, unsigned long, newname)
{
	const unsigned long args[6] = { (unsigned long)AT_FDCWD, oldname, (unsigned long)AT_FDCWD,
					newname, 0 };

	return sys_renameat2(task, args);
}

/* creat is open(O_CREAT | O_WRONLY | O_TRUNC) (Linux: sys_creat). */
SYSCALL_DEFINE2(creat, unsigned long, pathname, unsigned int, mode)
{
	const unsigned long args[6] = { pathname, O_CREAT | O_WRONLY | O_TRUNC, mode };

	return sys_open(task, args);
}

SYSCALL_DEFINE2(chmod, unsigned long, filename, unsigned int, mode)
{
	return change_at(task, AT_FDCWD, filename, LOOKUP_FOLLOW);
}

SYSCALL_DEFINE3(fchmodat, int, dfd, unsigned long, filename, unsigned int, mode)
{
	return change_at(task, dfd, filename, LOOKUP_FOLLOW);
}

SYSCALL_DEFINE2(fchmod, int, fd, unsigned int, mode)
{
	return change_fd(task, fd);
}

SYSCALL_DEFINE3(chown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	return change_at(task, AT_FDCWD, filename, LOOKUP_FOLLOW);
}

SYSCALL_DEFINE3(lchown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	return change_at(task, AT_FDCWD, filename, 0);
}

SYSCALL_DEFINE5(fchownat, int, dfd, unsigned long, filename, unsigned int, user, unsigned int,
		group, int, flag)
{
	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	return change_at(task, dfd, filename,
			 (flag & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				 (flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0));
}

SYSCALL_DEFINE3(fchown, int, fd, unsigned int, user, unsigned int, group)
{
	return change_fd(task, fd);
}

/* Linux: do_utimes. A NULL name with a dfd is futimens. */
SYSCALL_DEFINE4(utimensat, int, dfd, unsigned long, filename, unsigned long, utimes, int, flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!filename)
		return dfd == AT_FDCWD ? -EFAULT : change_fd(task, dfd);
	return change_at(task, dfd, filename,
			 (flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				 (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0));
}

/* Linux: vfs_truncate: a directory is -EISDIR, another non-regular file
 * -EINVAL, then the caller needs write permission. */
SYSCALL_DEFINE2(truncate, unsigned long, path, long, length)
{
	struct ramfs_inode *inode;
	int err;

	if (length < 0)
		return -EINVAL;
	err = user_path_at(task, AT_FDCWD, path, LOOKUP_FOLLOW, &inode);
	if (err)
		return err;
	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || !inode->i_mapping)
		return -EINVAL;
	err = inode_permission(&task->cred, inode, MAY_WRITE);
	return err ? err : do_truncate(task, inode, length);
}

/* Linux: do_ftruncate: an fd not open for writing, or not on a regular
 * file, is -EINVAL. */
SYSCALL_DEFINE2(ftruncate, int, fd, long, length)
{
	struct file *file;
	long err = -EINVAL;

	if (length < 0)
		return -EINVAL;
	file = fget(task, fd);
	if (!file)
		return -EBADF;
	if ((file->f_mode & FMODE_WRITE) && S_ISREG(file->f_inode->mode) &&
	    file->f_inode->i_mapping)
		err = do_truncate(task, file->f_inode, length);
	fput(file);
	return err;
}

/* Linux: vfs_fsync. Nothing is ever dirty here; the console and pipes
 * have no fsync: -EINVAL, as Linux's. */
SYSCALL_DEFINE1(fsync, int, fd)
{
	struct file *file = fget(task, fd);
	long err;

	if (!file)
		return -EBADF;
	err = on_rootfs(file->f_inode) ? 0 : -EINVAL;
	fput(file);
	return err;
}

SYSCALL_DEFINE1(fdatasync, int, fd)
{
	const unsigned long args[6] = { (unsigned long)fd };

	return sys_fsync(task, args);
}

SYSCALL_DEFINE0(sync)
{
	return 0;
}
