/*
 * The calls that would change the file system (Linux: fs/namei.c
 * do_mkdirat, do_unlinkat, do_rmdir, do_renameat2, do_linkat,
 * do_symlinkat, do_mknodat; fs/open.c chmod, chown, truncate; fs/utimes.c;
 * fs/sync.c). The root is the initramfs, mounted read-only as Linux would
 * say, so each of them ends in mnt_want_write's -EROFS; what comes first
 * is Linux's path walk, so a missing parent is still -ENOENT, a name that
 * exists is -EEXIST for a create, and a bad pointer -EFAULT. Example:
 * mkdir("/etc", 0755) is -EEXIST, mkdir("/etc/new", 0755) -EROFS,
 * mkdir("/no/new", 0755) -ENOENT, unlink("/etc/motd") -EROFS.
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>

/* The last component's kind (Linux: LAST_NORM, LAST_DOT, LAST_DOTDOT). */
enum last_type {
	LAST_NORM,
	LAST_DOT,
	LAST_DOTDOT
};

/*
 * Linux: filename_parentat. Look up the directory holding name's last
 * component (trailing slashes ignored) and say what that component is.
 * Return: 0, -ENOENT for "", or the parent's lookup error (-ENOTDIR when
 * it is not a directory).
 */
static int parentat(struct task_struct *task, int dfd, char *name, enum last_type *type)
{
	size_t len = strlen(name);
	struct ramfs_inode *parent;
	char *last, *slash = NULL;
	int err;

	if (!len)
		return -ENOENT;
	while (len > 1 && name[len - 1] == '/')
		name[--len] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '/')
			slash = p;
	last = slash ? slash + 1 : name;
	*type = !strcmp(last, ".") || !*last ? LAST_DOT
		: !strcmp(last, "..")	     ? LAST_DOTDOT
					     : LAST_NORM;
	if (!slash)
		err = path_lookupat(task, dfd, ".", LOOKUP_FOLLOW, &parent);
	else if (slash == name)
		err = path_lookupat(task, dfd, "/", LOOKUP_FOLLOW, &parent);
	else {
		*slash = '\0';
		err = path_lookupat(task, dfd, name, LOOKUP_FOLLOW, &parent);
		*slash = '/';
	}
	if (err)
		return err;
	return S_ISDIR(parent->mode) ? 0 : -ENOTDIR;
}

/* Linux: filename_create. The parent must exist; a name that exists is
 * -EEXIST (before the mount's -EROFS, as Linux checks); else -EROFS. */
static long create_at(struct task_struct *task, int dfd, unsigned long upath)
{
	struct ramfs_inode *inode;
	enum last_type type;
	char *name;
	int err;

	name = getname(upath, &err);
	if (!name)
		return err;
	err = parentat(task, dfd, name, &type);
	if (!err)
		err = type != LAST_NORM || !path_lookupat(task, dfd, name, 0, &inode) ? -EEXIST
										      : -EROFS;
	kfree(name);
	return err;
}

/* Linux: do_unlinkat and do_rmdir: the parent, then "." and ".."
 * refused as Linux does, then the mount: -EROFS. */
static long remove_at(struct task_struct *task, int dfd, unsigned long upath, bool dir)
{
	enum last_type type;
	char *name;
	int err;

	name = getname(upath, &err);
	if (!name)
		return err;
	err = parentat(task, dfd, name, &type);
	if (!err && type != LAST_NORM)
		err = !dir ? -EISDIR : type == LAST_DOT ? -EINVAL : -ENOTEMPTY;
	else if (!err)
		err = -EROFS;
	kfree(name);
	return err;
}

/* chmod, chown, utimes, truncate of a name: it must exist, then -EROFS
 * (truncate: a directory is -EISDIR first, as vfs_truncate checks). */
static long change_at(struct task_struct *task, int dfd, unsigned long upath, unsigned int lookup,
		      bool truncate)
{
	struct ramfs_inode *inode;
	int err = user_path_at(task, dfd, upath, lookup, &inode);

	if (err)
		return err;
	if (truncate && S_ISDIR(inode->mode))
		return -EISDIR;
	if (truncate && !S_ISREG(inode->mode))
		return -EINVAL;
	return -EROFS;
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

SYSCALL_DEFINE2(mkdir, unsigned long, pathname, unsigned int, mode)
{
	return create_at(task, AT_FDCWD, pathname);
}

SYSCALL_DEFINE3(mkdirat, int, dfd, unsigned long, pathname, unsigned int, mode)
{
	return create_at(task, dfd, pathname);
}

SYSCALL_DEFINE3(mknod, unsigned long, filename, unsigned int, mode, unsigned int, dev)
{
	return create_at(task, AT_FDCWD, filename);
}

SYSCALL_DEFINE4(mknodat, int, dfd, unsigned long, filename, unsigned int, mode, unsigned int, dev)
{
	return create_at(task, dfd, filename);
}

/* Linux: do_symlinkat. The target is only copied (any string), then the
 * new name is created. */
SYSCALL_DEFINE3(symlinkat, unsigned long, oldname, int, newdfd, unsigned long, newname)
{
	int err;
	char *target = getname(oldname, &err);

	if (!target)
		return err;
	kfree(target);
	return create_at(task, newdfd, newname);
}

SYSCALL_DEFINE2(symlink, unsigned long, oldname, unsigned long, newname)
{
	const unsigned long args[6] = { oldname, (unsigned long)AT_FDCWD, newname };

	return sys_symlinkat(task, args);
}

/* Linux: do_linkat. The old name must exist (followed only with
 * AT_SYMLINK_FOLLOW), then the new one is created. */
SYSCALL_DEFINE5(linkat, int, olddfd, unsigned long, oldname, int, newdfd, unsigned long, newname,
		int, flags)
{
	struct ramfs_inode *inode;
	int err;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	err = user_path_at(task, olddfd, oldname,
			   (flags & AT_SYMLINK_FOLLOW ? LOOKUP_FOLLOW : 0) |
				   (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0),
			   &inode);
	if (err)
		return err;
	return create_at(task, newdfd, newname);
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
		err = parentat(task, olddfd, from, &type);
		if (!err && type != LAST_NORM)
			err = -EBUSY;
		if (!err)
			err = parentat(task, newdfd, to, &type);
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
	return change_at(task, AT_FDCWD, filename, LOOKUP_FOLLOW, false);
}

SYSCALL_DEFINE3(fchmodat, int, dfd, unsigned long, filename, unsigned int, mode)
{
	return change_at(task, dfd, filename, LOOKUP_FOLLOW, false);
}

SYSCALL_DEFINE2(fchmod, int, fd, unsigned int, mode)
{
	return change_fd(task, fd);
}

SYSCALL_DEFINE3(chown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	return change_at(task, AT_FDCWD, filename, LOOKUP_FOLLOW, false);
}

SYSCALL_DEFINE3(lchown, unsigned long, filename, unsigned int, user, unsigned int, group)
{
	return change_at(task, AT_FDCWD, filename, 0, false);
}

SYSCALL_DEFINE5(fchownat, int, dfd, unsigned long, filename, unsigned int, user, unsigned int,
		group, int, flag)
{
	if (flag & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	return change_at(task, dfd, filename,
			 (flag & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
				 (flag & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0),
			 false);
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
				 (flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0),
			 false);
}

SYSCALL_DEFINE2(truncate, unsigned long, path, long, length)
{
	if (length < 0)
		return -EINVAL;
	return change_at(task, AT_FDCWD, path, LOOKUP_FOLLOW, true);
}

/* Linux: do_ftruncate: an fd not open for writing, or not a regular
 * file, is -EINVAL; every writable fd here is a pipe, the console or a
 * /sys file. */
SYSCALL_DEFINE2(ftruncate, int, fd, long, length)
{
	struct file *file;

	if (length < 0)
		return -EINVAL;
	file = fget(task, fd);
	if (!file)
		return -EBADF;
	fput(file);
	return -EINVAL;
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
