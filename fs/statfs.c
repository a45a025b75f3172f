/*
 * statfs and fstatfs (Linux: fs/statfs.c, shmem_statfs): what the file
 * system a file lives on holds and has left. rootfs answers as Linux's
 * tmpfs root does: 4 KiB blocks, its limits (half of RAM and as many
 * inodes, set by populate_rootfs), less what its files' page caches and
 * its inodes take. A pipe is on pipefs, an eventfd or epoll on
 * anon_inodefs, which count nothing. Example: after a 1 MiB file is
 * written, f_bfree is 256 less.
 */
#include <sched.h>
#include <syscalls.h>
#include <vm.h>

#define TMPFS_MAGIC 0x01021994
#define PIPEFS_MAGIC 0x50495045
#define ANON_INODE_FS_MAGIC 0x09041934
#define ST_VALID 0x0020	   /* f_flags is set (Linux's ST_VALID) */
#define ST_RELATIME 0x1000 /* mounted relatime, as every Linux mount by default */

/* Linux: struct statfs of asm-generic/statfs.h on x86-64 (120 bytes). */
struct statfs {
	long f_type, f_bsize;
	uint64_t f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	int f_fsid[2];
	long f_namelen, f_frsize, f_flags, f_spare[4];
};

_Static_assert(sizeof(struct statfs) == 120, "x86-64 struct statfs");

/* Linux: vfs_statfs, then the fs's ->statfs. Never fails here. */
static void vfs_statfs(const struct ramfs_inode *inode, struct statfs *buf)
{
	const struct ramfs *fs = inode->i_sb;

	*buf = (struct statfs){
		.f_type = S_ISFIFO(inode->mode) ? PIPEFS_MAGIC : ANON_INODE_FS_MAGIC,
		.f_bsize = PAGE_SIZE,
		.f_namelen = NAME_MAX,
		.f_frsize = PAGE_SIZE,
		.f_flags = ST_VALID | ST_RELATIME,
	};
	if (!fs)
		return;
	buf->f_type = TMPFS_MAGIC;
	if (fs->max_pages) { /* Linux's shmem_statfs: no limit, no counts */
		buf->f_blocks = fs->max_pages;
		buf->f_bfree = buf->f_bavail =
			fs->used_pages < fs->max_pages ? fs->max_pages - fs->used_pages : 0;
	}
	if (fs->max_inodes) {
		buf->f_files = fs->max_inodes;
		buf->f_ffree = fs->nr_inodes < fs->max_inodes ? fs->max_inodes - fs->nr_inodes : 0;
	}
	buf->f_fsid[0] = fs->dev ? (int)fs->dev : 1; /* its st_dev (Linux's tmpfs: its uuid's) */
}

static long put_statfs(const struct ramfs_inode *inode, unsigned long ubuf)
{
	struct statfs buf;

	vfs_statfs(inode, &buf);
	return copy_to_user(ubuf, &buf, sizeof(buf)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(statfs, unsigned long, pathname, unsigned long, buf)
{
	struct ramfs_inode *inode;
	int err = user_path_at(task, AT_FDCWD, pathname, LOOKUP_FOLLOW, &inode);

	return err ? err : put_statfs(inode, buf);
}

/* Linux: fd_statfs: an O_PATH fd answers too (fdget_raw). */
SYSCALL_DEFINE2(fstatfs, int, fd, unsigned long, buf)
{
	struct file *file = fget_raw(task, fd);
	long err;

	if (!file)
		return -EBADF;
	err = put_statfs(file->f_inode, buf);
	fput(file);
	return err;
}
