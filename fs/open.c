/*
 * open, close, access, chdir and umask (Linux: fs/open.c, fs/namei.c
 * do_open/may_open, kernel/sys.c umask). O_CREAT makes a regular file in
 * an existing directory (vfs_create), O_TMPFILE an unnamed one
 * (vfs_tmpfile), O_TRUNC empties one once it is open. Checks come in
 * Linux's order. Example: open("/etc/motd", O_RDONLY) with fds 0-2 taken
 * returns 3; open("/etc/new", O_WRONLY | O_CREAT, 0666) makes it with
 * mode 0644 under umask 022; open("/etc/motd/", O_RDONLY) is -ENOTDIR.
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>

/* What open keeps in f_flags (Linux: do_dentry_open drops the rest). */
#define OPEN_FLAGS_DROPPED (O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC)

static int open_create(struct task_struct *task, int dfd, char *name, int flags, uint32_t mode,
		       struct ramfs_inode **inode, bool *created, int links);

/* Linux: the O_CREAT walk follows a symlink in the last component
 * (step_into), so a dangling one makes its target: in the link's
 * directory for a relative target. Return: open_create's answer for the
 * target, -ENOENT when @name is not a dangling symlink, -ELOOP past
 * MAXSYMLINKS, -ENAMETOOLONG. */
static int create_through_link(struct task_struct *task, int dfd, char *name, int flags,
			       uint32_t mode, struct ramfs_inode **inode, bool *created, int links)
{
	size_t dir_len = 0; /* the link's directory: name up to its last '/' */
	struct ramfs_inode *link;
	char *target;
	int err;

	if (path_lookupat(task, dfd, name, 0, &link) || !S_ISLNK(link->mode) || link->get_link)
		return -ENOENT;
	if (++links > MAXSYMLINKS)
		return -ELOOP;
	for (size_t i = 0; name[i]; i++)
		if (name[i] == '/')
			dir_len = i + 1;
	if (!link->size || link->data[0] == '/')
		dir_len = 0;
	if (dir_len + link->size >= PATH_MAX)
		return -ENAMETOOLONG;
	target = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!target)
		return -ENOMEM;
	memcpy(target, name, dir_len);
	memcpy(target + dir_len, link->data, link->size);
	target[dir_len + link->size] = '\0';
	err = open_create(task, dfd, target, flags, mode, inode, created, links);
	kfree(target);
	return err;
}

/* Linux: the O_CREAT half of open_last_lookups and lookup_open. An
 * existing name is opened (not with O_EXCL, nor a directory); a dangling
 * symlink's target is made (not with O_EXCL); a missing
 * one is made a regular file of mode & ~umask in its existing parent
 * (vfs_create), and *created says so: its opener needs no permission
 * on it (Linux: FMODE_CREATED). */
static int open_create(struct task_struct *task, int dfd, char *name, int flags, uint32_t mode,
		       struct ramfs_inode **inode, bool *created, int links)
{
	int err = path_lookupat(task, dfd, name, flags & O_EXCL ? 0 : LOOKUP_FOLLOW, inode);
	size_t len = strlen(name);
	struct ramfs_inode *parent;
	enum last_type type;
	char *last;

	if (!err && (flags & O_EXCL))
		return -EEXIST;
	if (!err)
		return S_ISDIR((*inode)->mode) ? -EISDIR : 0;
	if (err != -ENOENT)
		return err;
	if (!(flags & O_EXCL)) {
		err = create_through_link(task, dfd, name, flags, mode, inode, created, links);
		if (err != -ENOENT)
			return err;
	}
	if (len && name[len - 1] == '/')
		return -EISDIR; /* "new/": only a directory could be meant */
	err = filename_parentat(task, dfd, name, &type, &parent, &last);
	if (!err && type != LAST_NORM)
		err = -EISDIR;
	if (!err)
		err = vfs_create(task, parent, last, S_IFREG | (mode & 07777 & ~task->fs->umask), 0,
				 inode);
	*created = !err;
	return err;
}

/* Linux: may_open, with build_open_flags' MAY_WRITE for O_TRUNC. */
static int may_open(const struct cred *cred, const struct ramfs_inode *inode, int flags)
{
	int acc = flags & O_ACCMODE;
	int mask = (acc == O_RDONLY ? R_OK : acc == O_WRONLY ? W_OK : R_OK | W_OK);

	if (S_ISLNK(inode->mode))
		return -ELOOP;
	if (S_ISDIR(inode->mode) && (mask & W_OK))
		return -EISDIR;
	if ((flags & O_TRUNC) && S_ISREG(inode->mode))
		mask |= W_OK;
	return inode_permission(cred, inode, mask);
}

static uint32_t open_fmode(const struct ramfs_inode *inode, int flags)
{
	int acc = flags & O_ACCMODE;
	uint32_t mode = 0;

	if (flags & O_PATH)
		return FMODE_PATH;
	if (acc == O_RDONLY || acc == O_RDWR)
		mode |= FMODE_READ;
	if (acc == O_WRONLY || acc == O_RDWR)
		mode |= FMODE_WRITE;
	if (S_ISREG(inode->mode) || S_ISDIR(inode->mode))
		mode |= FMODE_PREAD | FMODE_PWRITE;
	return mode;
}

/* Linux: do_dentry_open. Special inodes bring their own operations. */
static int dentry_open(struct ramfs_inode *inode, int flags, struct file **filep)
{
	const struct file_operations *fop = inode->i_fop;
	struct file *file;
	int err;

	if (flags & O_PATH)
		fop = NULL;
	else if (!fop && S_ISCHR(inode->mode))
		fop = &def_chr_fops; /* Linux: init_special_inode; its open picks the driver */
	else if (!fop)
		fop = S_ISDIR(inode->mode) ? &ramfs_dir_fops : &ramfs_file_fops;
	/* O_NOCTTY stays until the driver's open has seen it (tty_open). */
	file = alloc_file(inode, fop, (flags & ~(OPEN_FLAGS_DROPPED & ~O_NOCTTY)) | O_LARGEFILE,
			  open_fmode(inode, flags));
	if (!file)
		return -ENOMEM;
	if (fop && fop->open) {
		err = fop->open(inode, file);
		if (err) {
			file->f_op = NULL; /* no release for an open that failed */
			fput(file);
			return err;
		}
	}
	file->f_flags &= ~O_NOCTTY;
	*filep = file;
	return 0;
}

/* Linux: build_open_flags' O_TMPFILE rules (O_DIRECTORY with it, no
 * O_CREAT, opened for writing: else -EINVAL), then do_tmpfile: the
 * directory is looked up and the file made in it, mode & ~umask. */
static long open_tmpfile(struct task_struct *task, int dfd, char *name, int flags, uint32_t mode,
			 struct file **filep)
{
	struct ramfs_inode *dir, *inode;
	int err;

	if ((flags & (O_TMPFILE | O_CREAT)) != O_TMPFILE || (flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	err = path_lookupat(task, dfd, name, LOOKUP_FOLLOW, &dir);
	if (!err && !S_ISDIR(dir->mode))
		err = -ENOTDIR;
	if (!err)
		err = vfs_tmpfile(task, dir, mode & 07777 & ~task->fs->umask, !(flags & O_EXCL),
				  &inode);
	if (err)
		return err;
	ihold(inode); /* so a failed open's iput takes it away */
	err = dentry_open(inode, flags & ~(O_TMPFILE | O_EXCL), filep);
	iput(inode);
	return err;
}

/* Linux: build_open_flags, path_openat and do_open. */
static long do_filp_open(struct task_struct *task, int dfd, char *name, int flags, uint32_t mode,
			 struct file **filep)
{
	struct ramfs_inode *inode;
	bool created = false;
	int err;

	if (flags & O_PATH)
		flags &= O_DIRECTORY | O_NOFOLLOW | O_PATH | O_CLOEXEC;
	if ((flags & (O_DIRECTORY | O_CREAT)) == (O_DIRECTORY | O_CREAT))
		return -EINVAL;
	if (flags & __O_TMPFILE)
		return open_tmpfile(task, dfd, name, flags, mode, filep);
	if (flags & O_CREAT)
		err = open_create(task, dfd, name, flags, mode, &inode, &created, 0);
	else
		err = path_lookupat(task, dfd, name, flags & O_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
				    &inode);
	if (err)
		return err;
	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->mode))
		return -ENOTDIR;
	if (!(flags & O_PATH) && !created) {
		err = may_open(&task->cred, inode, flags);
		if (err)
			return err;
	}
	err = dentry_open(inode, flags, filep);
	/* Linux: handle_truncate, once the file is open (not a new one). */
	if (!err && (flags & O_TRUNC) && !created && S_ISREG(inode->mode) && inode->i_mapping)
		do_truncate(task, inode, 0, true);
	return err;
}

/* Linux: do_sys_openat2. */
static long do_sys_open(struct task_struct *task, int dfd, unsigned long filename, int flags,
			uint32_t mode)
{
	struct file *file;
	char *name;
	int err, fd;

	name = getname(filename, &err);
	if (!name)
		return err;
	err = do_filp_open(task, dfd, name, flags, mode, &file);
	kfree(name);
	if (err)
		return err;
	fd = fd_install_lowest(task, file, 0, flags & O_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

/* mode: a new file's permissions, less the umask (O_CREAT). */
SYSCALL_DEFINE4(openat, int, dfd, unsigned long, filename, int, flags, uint32_t, mode)
{
	return do_sys_open(task, dfd, filename, flags, mode);
}

SYSCALL_DEFINE3(open, unsigned long, filename, int, flags, uint32_t, mode)
{
	return do_sys_open(task, AT_FDCWD, filename, flags, mode);
}

SYSCALL_DEFINE1(close, unsigned int, fd)
{
	return close_fd(task, (int)fd);
}

/*
 * Linux: do_faccessat. Without AT_EACCESS the check is made as the real
 * ids (access_override_creds): the file-system uid and gid become the
 * real ones, and the capabilities are root's permitted set for a real uid
 * of 0 and none otherwise; the task's own credentials are put back after.
 */
static long do_faccessat(struct task_struct *task, int dfd, unsigned long filename, int mode,
			 int flags)
{
	struct ramfs_inode *inode;
	unsigned int lookup = LOOKUP_FOLLOW;
	struct cred saved = task->cred;
	int err;

	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (flags & AT_SYMLINK_NOFOLLOW)
		lookup &= ~LOOKUP_FOLLOW;
	if (flags & AT_EMPTY_PATH)
		lookup |= LOOKUP_EMPTY;
	if (!(flags & AT_EACCESS)) {
		task->cred.fsuid = saved.uid;
		task->cred.fsgid = saved.gid;
		task->cred.cap_effective = saved.uid == GLOBAL_ROOT_UID ? saved.cap_permitted : 0;
	}
	err = user_path_at(task, dfd, filename, lookup, &inode);
	if (!err)
		err = inode_permission(&task->cred, inode, mode);
	task->cred.fsuid = saved.fsuid;
	task->cred.fsgid = saved.fsgid;
	task->cred.cap_effective = saved.cap_effective;
	return err;
}

SYSCALL_DEFINE2(access, unsigned long, filename, int, mode)
{
	return do_faccessat(task, AT_FDCWD, filename, mode, 0);
}

SYSCALL_DEFINE3(faccessat, int, dfd, unsigned long, filename, int, mode)
{
	return do_faccessat(task, dfd, filename, mode, 0);
}

SYSCALL_DEFINE4(faccessat2, int, dfd, unsigned long, filename, int, mode, int, flags)
{
	return do_faccessat(task, dfd, filename, mode, flags);
}

/* Linux: sys_chdir, a lookup with LOOKUP_DIRECTORY, then the search
 * permission on it (path_permission with MAY_EXEC | MAY_CHDIR). */
SYSCALL_DEFINE1(chdir, unsigned long, filename)
{
	struct ramfs_inode *inode;
	int err = user_path_at(task, AT_FDCWD, filename, LOOKUP_FOLLOW, &inode);

	if (err)
		return err;
	if (!S_ISDIR(inode->mode))
		return -ENOTDIR;
	err = inode_permission(&task->cred, inode, MAY_EXEC);
	if (err)
		return err;
	ihold(inode);
	if (task->fs->pwd)
		iput(task->fs->pwd);
	task->fs->pwd = inode;
	return 0;
}

/* Linux: sys_umask (kernel/sys.c); it lives beside the files it masks. */
SYSCALL_DEFINE1(umask, int, mask)
{
	uint32_t old = task->fs->umask;

	task->fs->umask = (uint32_t)mask & 0777;
	return old;
}
