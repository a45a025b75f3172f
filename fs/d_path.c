/*
 * The path of a directory, and getcwd (Linux: fs/d_path.c). The path is
 * built backwards from the directory through its parent links, each name
 * found in its parent's list; a mounted fs's root is named as the
 * directory it covers. Example: /usr/bin is "bin" found in /usr,
 * then "usr" found in /, giving "/usr/bin" (8 bytes, so getcwd returns 9
 * with the NUL, and a buffer of 8 is -ERANGE).
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

/* Linux: the dentry's d_name. Return: dir's name in its parent (or the
 * one a lookup hook gave it: i_name), or NULL if it has none any more
 * (removed). */
static const char *dir_name(const struct ramfs_inode *dir)
{
	for (const struct ramfs_dentry *d = dir->parent->children; d; d = d->next)
		if (d->inode == dir)
			return d->name;
	return dir->i_name;
}

int ramfs_dir_path(struct ramfs *fs, const struct ramfs_inode *dir, char *buf, size_t size)
{
	size_t pos = size;

	if (size < 2)
		return -ENAMETOOLONG;
	buf[--pos] = '\0';
	for (; dir != fs->root; dir = dir->parent) {
		const char *name;
		size_t len;

		/* a mount's root is named as the directory it covers */
		dir = follow_up((struct ramfs_inode *)dir);
		if (dir == fs->root)
			break;
		name = dir_name(dir);
		if (!name)
			return -ENOENT;
		len = strlen(name);
		if (len + 1 > pos)
			return -ENAMETOOLONG;
		pos -= len;
		memcpy(buf + pos, name, len);
		buf[--pos] = '/';
	}
	if (pos == size - 1)
		buf[--pos] = '/'; /* the root itself */
	memmove(buf, buf + pos, size - pos);
	return (int)(size - pos - 1);
}

/* The first dentry below dir (depth first) whose inode is @inode, or,
 * with @rdev set, a character device with that number. */
static const struct ramfs_dentry *find_dentry(const struct ramfs_inode *dir,
					      const struct ramfs_inode *inode, uint32_t rdev,
					      const struct ramfs_inode **parent)
{
	dir = follow_mount((struct ramfs_inode *)dir); /* a covered directory's names are hidden */
	for (const struct ramfs_dentry *d = dir->children; d; d = d->next) {
		const struct ramfs_dentry *found;

		if (d->inode == inode ||
		    (rdev && S_ISCHR(d->inode->mode) && d->inode->rdev == rdev)) {
			*parent = dir;
			return d;
		}
		if (S_ISDIR(d->inode->mode) && (found = find_dentry(d->inode, inode, rdev, parent)))
			return found;
	}
	return NULL;
}

int ramfs_inode_path(struct ramfs *fs, const struct ramfs_inode *inode, char *buf, size_t size)
{
	const struct ramfs_inode *parent;
	const struct ramfs_dentry *d;
	size_t len;
	int dlen;

	if (S_ISDIR(inode->mode))
		return ramfs_dir_path(fs, inode, buf, size);
	d = find_dentry(fs->root, inode, 0, &parent);
	if (!d && S_ISCHR(inode->mode))
		d = find_dentry(fs->root, NULL, inode->rdev, &parent);
	if (!d)
		return -ENOENT;
	dlen = ramfs_dir_path(fs, parent, buf, size);
	if (dlen < 0)
		return dlen;
	if (parent == fs->root)
		dlen = 0; /* "/" + name, not "//" + name */
	len = strlen(d->name);
	if ((size_t)dlen + 1 + len >= size)
		return -ENAMETOOLONG;
	buf[dlen] = '/';
	memcpy(buf + dlen + 1, d->name, len + 1);
	return (int)(dlen + 1 + len);
}

int d_path(const struct ramfs_inode *inode, char *buf, size_t size)
{
	int len = ramfs_inode_path(&rootfs, inode, buf, size);

	if (len != -ENOENT || !inode->i_sb || !S_ISREG(inode->mode))
		return len;
	if (inode->i_name)
		len = ksnprintf(buf, size, "/%s (deleted)", inode->i_name);
	else
		len = ksnprintf(buf, size, "/#%lu (deleted)", inode->ino);
	return len < (int)size ? len : -ENAMETOOLONG;
}

/* Linux: sys_getcwd. Return: the length with the NUL. */
SYSCALL_DEFINE2(getcwd, unsigned long, buf, unsigned long, size)
{
	char *path = kmalloc(PATH_MAX, GFP_KERNEL);
	long len;

	if (!path)
		return -ENOMEM;
	len = ramfs_dir_path(&rootfs, task->fs->pwd, path, PATH_MAX);
	if (len >= 0) {
		len++;
		if ((unsigned long)len > size)
			len = -ERANGE;
		else if (copy_to_user(buf, path, (size_t)len))
			len = -EFAULT;
	}
	kfree(path);
	return len;
}
