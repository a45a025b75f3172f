/*
 * Path names from system calls (Linux: fs/namei.c getname, filename_lookup,
 * user_path_at): the user's string is copied in, then looked up in rootfs
 * from the root (absolute), the cwd (AT_FDCWD) or a directory fd. Example:
 * after chdir("/etc"), openat(AT_FDCWD, "motd", ...) walks "motd" from
 * /etc's inode; openat(fd_of_bin, "../etc/motd", ...) from /bin's.
 */
#include <sched.h>
#include <slab.h>
#include <vm.h>

/* Copy page by page, so a name that ends before an unmapped page is
 * read without touching that page. */
char *getname(unsigned long upath, int *err)
{
	char *name = kmalloc(PATH_MAX, GFP_KERNEL);
	size_t done = 0;

	if (!name) {
		*err = -ENOMEM;
		return NULL;
	}
	while (done < PATH_MAX) {
		unsigned long addr = upath + done;
		size_t n = MIN(PATH_MAX - done, PAGE_SIZE - (addr & (PAGE_SIZE - 1)));

		if (addr < upath || addr >= USER_VA_END || copy_from_user(name + done, addr, n)) {
			*err = -EFAULT;
			goto fail;
		}
		if (strnlen(name + done, n) < n)
			return name;
		done += n;
	}
	*err = -ENAMETOOLONG;
fail:
	kfree(name);
	return NULL;
}

/*
 * Linux: generic_permission (acl_permission_check, then the capability
 * overrides). The owner's bits for the file-system uid that owns the
 * inode, the group's for a member of its group, else the others'; then
 * CAP_DAC_READ_SEARCH reads anything and searches any directory,
 * CAP_DAC_OVERRIDE does the rest but execute a file that no one may.
 */
int generic_permission(const struct cred *cred, const struct ramfs_inode *inode, int mask)
{
	uint32_t mode = inode->mode;

	mask &= MAY_READ | MAY_WRITE | MAY_EXEC;
	if (cred->fsuid == inode->uid)
		mode >>= 6;
	else if (in_group_p(cred, inode->gid))
		mode >>= 3;
	if (!(mask & ~mode & 7))
		return 0;
	if (S_ISDIR(inode->mode)) {
		if (!(mask & MAY_WRITE) && (cred->cap_effective & CAP_TO_MASK(CAP_DAC_READ_SEARCH)))
			return 0;
		return cred->cap_effective & CAP_TO_MASK(CAP_DAC_OVERRIDE) ? 0 : -EACCES;
	}
	if (mask == MAY_READ && (cred->cap_effective & CAP_TO_MASK(CAP_DAC_READ_SEARCH)))
		return 0;
	if ((!(mask & MAY_EXEC) || (inode->mode & 0111)) &&
	    (cred->cap_effective & CAP_TO_MASK(CAP_DAC_OVERRIDE)))
		return 0;
	return -EACCES;
}

/*
 * Linux: inode_permission. A /proc or /sys file whose operations cannot
 * write is -EACCES for a write, as kernfs answers; then the mode bits
 * (generic_permission).
 */
int inode_permission(const struct cred *cred, const struct ramfs_inode *inode, int mask)
{
	if ((mask & MAY_WRITE) && inode->i_fop && !inode->i_fop->write)
		return -EACCES;
	return generic_permission(cred, inode, mask);
}

/* Linux: may_lookup, for the walk. */
static int may_lookup(const void *cred, const struct ramfs_inode *dir)
{
	return inode_permission(cred, dir, MAY_EXEC);
}

/* The directory a relative name starts in. Return: 0 or -EBADF. */
static int start_dir(struct task_struct *task, int dfd, struct ramfs_inode **dir)
{
	struct file *file;

	if (dfd == AT_FDCWD) {
		*dir = task->fs->pwd;
		return 0;
	}
	file = fget_raw(task, dfd);
	if (!file)
		return -EBADF;
	*dir = file->f_inode;
	fput(file);
	return 0;
}

/* Linux: path_init's checks, then link_path_walk. */
int path_lookupat(struct task_struct *task, int dfd, const char *name, unsigned int flags,
		  struct ramfs_inode **out)
{
	struct ramfs_inode *dir;
	int err;

	if (!name[0] && !(flags & LOOKUP_EMPTY))
		return -ENOENT;
	if (name[0] == '/')
		return ramfs_lookup_perm(&rootfs, rootfs.root, name, flags & LOOKUP_FOLLOW,
					 may_lookup, &task->cred, out);
	err = start_dir(task, dfd, &dir);
	if (err)
		return err;
	if (!name[0]) {
		*out = dir;
		return 0;
	}
	if (!S_ISDIR(dir->mode))
		return -ENOTDIR;
	return ramfs_lookup_perm(&rootfs, dir, name, flags & LOOKUP_FOLLOW, may_lookup, &task->cred,
				 out);
}

int user_path_at(struct task_struct *task, int dfd, unsigned long upath, unsigned int flags,
		 struct ramfs_inode **out)
{
	int err;
	char *name = getname(upath, &err);

	if (!name)
		return err;
	err = path_lookupat(task, dfd, name, flags, out);
	kfree(name);
	return err;
}
