/*
 * The calls that change the file system (Linux: fs/namei.c do_mkdirat,
 * do_mknodat, do_unlinkat, do_rmdir, do_symlinkat, do_linkat,
 * do_renameat2; fs/open.c
 * do_truncate; fs/sync.c). Each walks the path as Linux does (a missing
 * parent is -ENOENT, a name that exists -EEXIST for a create, a bad
 * pointer -EFAULT), checks the directory's permissions (may_create,
 * may_delete with the sticky bit), then changes the directory's fs. /proc's
 * directories are a file system of their own that makes and removes
 * nothing (-EPERM); a rename between it and the root is -EXDEV, as
 * between two mounts.
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
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time();
}

/* Linux: shmem_reserve_inode. A program's new inode counts against the
 * fs's nr_inodes= (the kernel's own, /proc's on rootfs, do not). Return:
 * 0 or -ENOSPC. */
static int reserve_inode(const struct ramfs *fs)
{
	return fs->max_inodes && fs->nr_inodes >= fs->max_inodes ? -ENOSPC : 0;
}

int vfs_create(struct task_struct *task, struct ramfs_inode *dir, const char *last, uint32_t mode,
	       uint32_t rdev, struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	int err = may_create(task, dir);

	if (!err && special_dir(dir))
		err = S_ISREG(mode) ? -EACCES : -EPERM; /* no ->create, no ->mkdir */
	if (!err)
		err = reserve_inode(dir->i_sb);
	if (!err)
		err = ramfs_add(dir->i_sb, dir, last, mode, &inode);
	if (err)
		return err;
	inode->rdev = rdev;
	init_owner(task, dir, inode);
	dir->i_mtime = dir->i_ctime = inode->i_mtime;
	if (out)
		*out = inode;
	return 0;
}

/* Linux: vfs_tmpfile with shmem_tmpfile and d_tmpfile: an unnamed
 * regular file in @dir (nlink 0: it goes with its last close), linkable
 * unless O_EXCL asked otherwise. A /proc directory has no ->tmpfile. */
int vfs_tmpfile(struct task_struct *task, struct ramfs_inode *dir, uint32_t mode, bool linkable,
		struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	int err = may_create(task, dir);

	if (!err && special_dir(dir))
		err = -EOPNOTSUPP;
	if (!err)
		err = reserve_inode(dir->i_sb);
	if (!err)
		err = ramfs_add(dir->i_sb, dir, NULL, S_IFREG | mode, &inode);
	if (err)
		return err;
	init_owner(task, dir, inode);
	inode->nlink = 0;
	if (linkable)
		inode->i_state |= I_LINKABLE;
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
		err = ramfs_lookup_child(parent, last, strlen(last), &victim);
	if (!err)
		err = may_delete(task, parent, victim);
	if (!err && dir != S_ISDIR(victim->mode)) /* may_delete's type check */
		err = dir ? -ENOTDIR : -EISDIR;
	if (!err && (special_dir(parent) || (dir && (special_dir(victim) || victim->i_mounted))))
		err = dir && (special_dir(victim) || victim->i_mounted) ? -EBUSY /* a mount point */
									: -EPERM; /* no ->unlink */
	if (!err) {
		/* Stamped before: the removal may free it (then no one sees). */
		struct timespec64 ctime = victim->i_ctime;

		inode_set_ctime_current(victim);
		err = ramfs_remove(parent->i_sb, parent, last, strlen(last));
		if (err)
			victim->i_ctime = ctime;
		else
			inode_touch_dir(parent);
	}
	kfree(name);
	return err;
}

/* Linux: do_truncate after vfs_truncate's or do_ftruncate's checks: a
 * size past RLIMIT_FSIZE is SIGXFSZ and -EFBIG (inode_newsize_ok); the
 * bytes past a smaller size go from the page cache. A new size stamps
 * mtime and ctime (shmem_setattr); ftruncate and O_TRUNC stamp them
 * always (ATTR_MTIME | ATTR_CTIME). The write clears set-user-ID as a
 * write does (ATTR_KILL_SUID). */
long do_truncate(struct task_struct *task, struct ramfs_inode *inode, long length, bool stamp)
{
	long err;

	if ((uint64_t)length > task_rlimit(task, RLIMIT_FSIZE)) {
		send_signal(task, SIGXFSZ, NULL);
		return -EFBIG;
	}
	err = shmem_setsize_sealed(inode, (uint64_t)length);
	if (err)
		return err;
	if ((uint64_t)length != inode->size)
		stamp = true;
	ramfs_setsize(inode, (uint64_t)length);
	file_remove_privs(task, inode);
	if (stamp)
		file_update_time(inode);
	return 0;
}

/* An inode of rootfs (not the console, a pipe, /proc or /sys, which
 * have no fsync). */
static bool on_rootfs(const struct ramfs_inode *inode)
{
	return inode && !inode->i_fop &&
	       (S_ISREG(inode->mode) || S_ISDIR(inode->mode) || S_ISLNK(inode->mode));
}

#define AT_REMOVEDIR 0x200

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
		err = (copy = parent->i_sb->alloc(parent->i_sb, len)) ? 0 : -ENOMEM;
	if (name && !err)
		err = vfs_create(task, parent, last, S_IFLNK | 0777, 0, &inode);
	if (name && !err) {
		memcpy(copy, target, len);
		inode->data = copy;
		inode->size = len;
		copy = NULL;
	}
	if (copy)
		parent->i_sb->free(parent->i_sb, copy);
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
	if (!err && (inode->i_fop || S_ISCHR(inode->mode) || special_dir(parent) ||
		     inode->i_sb != parent->i_sb))
		err = -EXDEV;
	if (!err)
		err = ramfs_link_at(parent->i_sb, inode, parent, last, strlen(last));
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

/* The directory that stands for the mount @dir is on (Linux: the
 * vfsmount): the nearest /proc-like directory above it, or the root. */
static const struct ramfs_inode *mount_of(const struct ramfs_inode *dir)
{
	while (!special_dir(dir) && dir->parent && dir->parent != dir)
		dir = dir->parent;
	return dir;
}

static bool has_trailing_slash(const char *name)
{
	size_t len = strlen(name);

	return len > 1 && name[len - 1] == '/';
}

/* A directory that changes parent has its ".." rewritten: write
 * permission on it (a /proc directory's mode bits, as dir_permission). */
static int dotdot_permission(const struct task_struct *task, const struct ramfs_inode *dir)
{
	if (special_dir(dir))
		return generic_permission(&task->cred, dir, MAY_WRITE);
	return inode_permission(&task->cred, dir, MAY_WRITE);
}

/* Linux: vfs_rename's checks, in its order: may_delete of the old name,
 * may_create or may_delete (with its type check) of the new one, write
 * permission on a directory that changes parent (its ".."), mount points. */
static int may_rename(struct task_struct *task, struct ramfs_inode *old_dir,
		      struct ramfs_inode *inode, struct ramfs_inode *new_dir,
		      struct ramfs_inode *target, unsigned int flags)
{
	int err = may_delete(task, old_dir, inode);

	if (!err && !target)
		err = may_create(task, new_dir);
	else if (!err)
		err = may_delete(task, new_dir, target);
	if (!err && target && !(flags & RENAME_EXCHANGE) &&
	    S_ISDIR(inode->mode) != S_ISDIR(target->mode))
		err = S_ISDIR(inode->mode) ? -ENOTDIR : -EISDIR;
	if (!err && S_ISDIR(inode->mode) && old_dir != new_dir)
		err = dotdot_permission(task, inode);
	if (!err && target && (flags & RENAME_EXCHANGE) && S_ISDIR(target->mode) &&
	    old_dir != new_dir)
		err = dotdot_permission(task, target);
	if (!err && (special_dir(inode) || inode->i_mounted ||
		     (target && (special_dir(target) || target->i_mounted))))
		err = -EBUSY; /* a mount point */
	if (!err && special_dir(old_dir))
		err = -EPERM; /* /proc has no ->rename */
	return err;
}

/* Linux: do_renameat2 from both parents on: the mount, "." and "..",
 * the old name, the new one, trailing slashes, the trap (a directory
 * moved below itself), then vfs_rename. */
static int do_renameat2(struct task_struct *task, int olddfd, char *from, int newdfd, char *to,
			unsigned int flags)
{
	bool old_slash = has_trailing_slash(from), new_slash = has_trailing_slash(to);
	struct ramfs_inode *old_dir, *new_dir, *inode, *target = NULL;
	enum last_type old_type, new_type;
	struct timespec64 ctime = { 0, 0 };
	char *old_last, *new_last;
	int err;

	err = filename_parentat(task, olddfd, from, &old_type, &old_dir, &old_last);
	if (!err)
		err = filename_parentat(task, newdfd, to, &new_type, &new_dir, &new_last);
	if (err)
		return err;
	if (old_dir->i_sb != new_dir->i_sb || mount_of(old_dir) != mount_of(new_dir))
		return -EXDEV;
	if (old_type != LAST_NORM)
		return -EBUSY;
	if (new_type != LAST_NORM)
		return flags & RENAME_NOREPLACE ? -EEXIST : -EBUSY;
	err = ramfs_lookup_child(old_dir, old_last, strlen(old_last), &inode);
	if (err)
		return err;
	if (ramfs_lookup_child(new_dir, new_last, strlen(new_last), &target))
		target = NULL;
	if ((flags & RENAME_NOREPLACE) && target)
		return -EEXIST;
	if ((flags & RENAME_EXCHANGE) && !target)
		return -ENOENT;
	if ((flags & RENAME_EXCHANGE) && !S_ISDIR(target->mode) && new_slash)
		return -ENOTDIR;
	if (!S_ISDIR(inode->mode) && (old_slash || (!(flags & RENAME_EXCHANGE) && new_slash)))
		return -ENOTDIR;
	if (S_ISDIR(inode->mode) && is_subdir(new_dir, inode))
		return -EINVAL;
	if (target && S_ISDIR(target->mode) && is_subdir(old_dir, target))
		return flags & RENAME_EXCHANGE ? -EINVAL : -ENOTEMPTY;
	if (inode == target)
		return 0;
	err = may_rename(task, old_dir, inode, new_dir, target, flags);
	if (err)
		return err;
	if (target) { /* stamped before: the rename may free it */
		ctime = target->i_ctime;
		inode_set_ctime_current(target);
	}
	err = ramfs_rename(old_dir->i_sb, old_dir, old_last, new_dir, new_last, flags);
	if (err && target)
		target->i_ctime = ctime;
	if (err)
		return err;
	/* Linux: simple_rename_timestamp. */
	inode_set_ctime_current(inode);
	inode_touch_dir(old_dir);
	inode_touch_dir(new_dir);
	/* Linux: shmem_whiteout, a 0:0 character device where the old name was. */
	if (flags & RENAME_WHITEOUT)
		err = vfs_create(task, old_dir, old_last, S_IFCHR, 0, NULL);
	return err;
}

/* Linux: renameat2. Flags first, then the names. */
SYSCALL_DEFINE5(renameat2, int, olddfd, unsigned long, oldname, int, newdfd, unsigned long, newname,
		unsigned int, flags)
{
	char *from, *to = NULL;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)) && (flags & RENAME_EXCHANGE))
		return -EINVAL;
	from = getname(oldname, &err);
	if (from)
		to = getname(newname, &err);
	if (to)
		err = do_renameat2(task, olddfd, from, newdfd, to, flags);
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
	return err ? err : do_truncate(task, inode, length, false);
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
		err = do_truncate(task, file->f_inode, length, true);
	fput(file);
	return err;
}

SYSCALL_DEFINE4(fallocate, int, fd, int, mode, long, offset, long, len)
{
	struct file *file = fget(task, fd); /* Linux: ksys_fallocate, the fd first */
	long err;

	if (!file)
		return -EBADF;
	err = vfs_fallocate(file, mode, offset, len);
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
