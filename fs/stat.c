/*
 * stat and friends, and readlink (Linux: fs/stat.c): one inode's
 * attributes in the user's struct stat (x86-64 layout) or struct statx.
 * Every file has an inode (the console's and a pipe's too), so fstat,
 * stat by path and statx all go through generic_fillattr. Example: stat
 * of /etc/motd (12 bytes, mode 0644) gives st_mode 0100644, st_size 12,
 * st_blocks 8 (512-byte units: the page its cache holds), st_blksize 4096.
 */
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define STATX_BASIC_STATS 0x7ffu /* type, mode, nlink, uid, gid, times, ino, size, blocks */
#define STATX__RESERVED 0x80000000u
#define ROOTFS_DEV 1   /* the ramfs's st_dev: 0:1 */
#define DEVTMPFS_DEV 5 /* the console's: 0:5, as devtmpfs */
#define PIPEFS_DEV 12  /* a pipe's: 0:12, as pipefs */

/* Linux: struct kstat, the attributes both layouts are made from. */
struct kstat {
	uint64_t ino, dev, rdev, size, blocks;
	struct timespec64 atime, mtime, ctime;
	uint32_t mode, nlink, uid, gid, blksize;
};

/* Linux: struct stat of arch/x86/include/uapi/asm/stat.h (144 bytes). */
struct stat {
	uint64_t st_dev, st_ino, st_nlink;
	uint32_t st_mode, st_uid, st_gid, __pad0;
	uint64_t st_rdev;
	int64_t st_size, st_blksize, st_blocks;
	uint64_t st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	int64_t unused[3];
};

struct statx_timestamp {
	int64_t tv_sec;
	uint32_t tv_nsec;
	int32_t __reserved;
};

/* Linux: struct statx (256 bytes). */
struct statx {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, __spare0;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	struct statx_timestamp stx_atime, stx_btime, stx_ctime, stx_mtime;
	uint32_t stx_rdev_major, stx_rdev_minor, stx_dev_major, stx_dev_minor;
	uint64_t __spare3[14];
};

_Static_assert(sizeof(struct stat) == 144, "x86-64 struct stat");
_Static_assert(sizeof(struct statx) == 256, "struct statx");

/* The st_dev of the file system inode lives in (Linux: sb->s_dev). */
static uint64_t inode_dev(const struct ramfs_inode *inode)
{
	if (S_ISCHR(inode->mode))
		return DEVTMPFS_DEV;
	if (S_ISFIFO(inode->mode))
		return PIPEFS_DEV;
	return inode->i_sb && inode->i_sb->dev ? inode->i_sb->dev : ROOTFS_DEV; /* a mount's own */
}

/* Linux: i_blocks as tmpfs keeps it, in 512-byte units: the pages a
 * regular file's cache holds (a hole takes none), the page a symlink of
 * 128 bytes or more is kept in (SHORT_SYMLINK_LEN); nothing else. */
static uint64_t inode_blocks(const struct ramfs_inode *inode)
{
	if (S_ISREG(inode->mode) && inode->i_mapping)
		return inode->i_mapping->nrpages * (PAGE_SIZE / 512);
	if (S_ISLNK(inode->mode) && !inode->get_link && inode->size >= 128)
		return PAGE_SIZE / 512;
	return 0;
}

/* A directory's st_size: 0 in /proc's tree (a directory with a lookup
 * hook or operations of its own, or one below it), as procfs says; on
 * rootfs tmpfs's count of BOGO_DIRENT_SIZE per name. */
static uint64_t dir_size(const struct ramfs_inode *dir)
{
	for (const struct ramfs_inode *p = dir;; p = p->parent) {
		if (p->lookup || p->i_fop)
			return 0;
		if (!p->parent || p->parent == p)
			return dir->size;
	}
}

/* Linux: generic_fillattr. */
static void generic_fillattr(const struct ramfs_inode *inode, struct kstat *st)
{
	*st = (struct kstat){
		.ino = inode->ino,
		.dev = inode_dev(inode),
		.rdev = inode->rdev,
		.size = S_ISDIR(inode->mode) ? dir_size(inode) : inode->size,
		.blocks = inode_blocks(inode),
		.atime = inode->i_atime,
		.mtime = inode->i_mtime,
		.ctime = inode->i_ctime,
		.mode = inode->mode,
		.nlink = inode->nlink,
		.uid = inode->uid,
		.gid = inode->gid,
		.blksize = PAGE_SIZE,
	};
}

/* Linux: cp_new_stat (the old 16-bit encoding of dev_t: major << 8 | minor). */
static int cp_new_stat(const struct kstat *st, unsigned long ubuf)
{
	struct stat tmp = {
		.st_dev = st->dev,
		.st_ino = st->ino,
		.st_nlink = st->nlink,
		.st_mode = st->mode,
		.st_uid = st->uid,
		.st_gid = st->gid,
		.st_rdev = st->rdev,
		.st_size = (int64_t)st->size,
		.st_blksize = st->blksize,
		.st_blocks = (int64_t)st->blocks,
		.st_atime = (uint64_t)st->atime.tv_sec,
		.st_atime_nsec = (uint64_t)st->atime.tv_nsec,
		.st_mtime = (uint64_t)st->mtime.tv_sec,
		.st_mtime_nsec = (uint64_t)st->mtime.tv_nsec,
		.st_ctime = (uint64_t)st->ctime.tv_sec,
		.st_ctime_nsec = (uint64_t)st->ctime.tv_nsec,
	};

	return copy_to_user(ubuf, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

static int cp_statx(const struct kstat *st, unsigned long ubuf)
{
	struct statx tmp = {
		.stx_mask = STATX_BASIC_STATS,
		.stx_blksize = st->blksize,
		.stx_nlink = st->nlink,
		.stx_uid = st->uid,
		.stx_gid = st->gid,
		.stx_mode = (uint16_t)st->mode,
		.stx_ino = st->ino,
		.stx_size = st->size,
		.stx_blocks = st->blocks,
		.stx_atime = { st->atime.tv_sec, (uint32_t)st->atime.tv_nsec, 0 },
		.stx_ctime = { st->ctime.tv_sec, (uint32_t)st->ctime.tv_nsec, 0 },
		.stx_mtime = { st->mtime.tv_sec, (uint32_t)st->mtime.tv_nsec, 0 },
		.stx_rdev_major = (uint32_t)(st->rdev >> 8),
		.stx_rdev_minor = (uint32_t)(st->rdev & 0xff),
		.stx_dev_major = (uint32_t)(st->dev >> 8),
		.stx_dev_minor = (uint32_t)(st->dev & 0xff),
	};

	return copy_to_user(ubuf, &tmp, sizeof(tmp)) ? -EFAULT : 0;
}

/* Linux: vfs_statx's lookup. Return: 0 with st filled, or -errno. */
static int vfs_statx(struct task_struct *task, int dfd, unsigned long filename, int flags,
		     struct kstat *st)
{
	unsigned int lookup = flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW;
	struct ramfs_inode *inode;
	int err;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH | AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if (flags & AT_EMPTY_PATH)
		lookup |= LOOKUP_EMPTY;
	err = user_path_at(task, dfd, filename, lookup, &inode);
	if (err)
		return err;
	generic_fillattr(inode, st);
	return 0;
}

SYSCALL_DEFINE4(newfstatat, int, dfd, unsigned long, filename, unsigned long, statbuf, int, flags)
{
	struct kstat st;
	int err;

	err = vfs_statx(task, dfd, filename, flags, &st);
	return err ? err : cp_new_stat(&st, statbuf);
}

SYSCALL_DEFINE2(stat, unsigned long, filename, unsigned long, statbuf)
{
	struct kstat st;
	int err = vfs_statx(task, AT_FDCWD, filename, 0, &st);

	return err ? err : cp_new_stat(&st, statbuf);
}

SYSCALL_DEFINE2(lstat, unsigned long, filename, unsigned long, statbuf)
{
	struct kstat st;
	int err = vfs_statx(task, AT_FDCWD, filename, AT_SYMLINK_NOFOLLOW, &st);

	return err ? err : cp_new_stat(&st, statbuf);
}

/* Linux: vfs_fstat: O_PATH files too. */
SYSCALL_DEFINE2(fstat, unsigned int, fd, unsigned long, statbuf)
{
	struct file *file = fget_raw(task, (int)fd);
	struct kstat st;

	if (!file)
		return -EBADF;
	generic_fillattr(file->f_inode, &st);
	fput(file);
	return cp_new_stat(&st, statbuf);
}

/* Linux: do_statx. mask asks for fields; all basic ones are always there. */
SYSCALL_DEFINE5(statx, int, dfd, unsigned long, filename, unsigned int, flags, unsigned int, mask,
		unsigned long, buffer)
{
	struct kstat st;
	int err;

	if (mask & STATX__RESERVED)
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	err = vfs_statx(task, dfd, filename, (int)flags, &st);
	return err ? err : cp_statx(&st, buffer);
}

/* Linux: vfs_readlink: no NUL, cut at bufsiz; a get_link inode's target
 * is computed now. */
static int vfs_readlink(struct ramfs_inode *inode, unsigned long buf, int bufsiz)
{
	char *target = (char *)inode->data;
	int len = (int)inode->size, err = 0;

	if (inode->get_link) {
		target = kmalloc(PATH_MAX, GFP_KERNEL);
		if (!target)
			return -ENOMEM;
		len = inode->get_link(inode, target, PATH_MAX);
	}
	if (len >= 0) {
		len = MIN(len, bufsiz);
		err = copy_to_user(buf, target, (size_t)len) ? -EFAULT : len;
	} else {
		err = len;
	}
	if (inode->get_link)
		kfree(target);
	return err;
}

/* Linux: do_readlinkat. "" (the dirfd itself) that is no link: -ENOENT. */
static long do_readlinkat(struct task_struct *task, int dfd, unsigned long pathname,
			  unsigned long buf, int bufsiz)
{
	struct ramfs_inode *inode;
	char *name;
	int err;

	if (bufsiz <= 0)
		return -EINVAL;
	name = getname(pathname, &err);
	if (!name)
		return err;
	err = path_lookupat(task, dfd, name, LOOKUP_EMPTY, &inode);
	if (!err && !S_ISLNK(inode->mode))
		err = name[0] ? -EINVAL : -ENOENT;
	kfree(name);
	return err ? err : vfs_readlink(inode, buf, bufsiz);
}

SYSCALL_DEFINE3(readlink, unsigned long, path, unsigned long, buf, int, bufsiz)
{
	return do_readlinkat(task, AT_FDCWD, path, buf, bufsiz);
}

SYSCALL_DEFINE4(readlinkat, int, dfd, unsigned long, pathname, unsigned long, buf, int, bufsiz)
{
	return do_readlinkat(task, dfd, pathname, buf, bufsiz);
}
