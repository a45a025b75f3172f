/*
 * mount and umount of tmpfs instances (Linux: fs/namespace.c do_mount,
 * do_new_mount, do_remount, do_umount; mm/shmem.c shmem_fill_super and
 * shmem_reconfigure). A new tmpfs is a struct ramfs of its own on a
 * directory (i_mounted): walks enter its root there, its root's ".."
 * leads back, names cannot move to or from it (-EXDEV), and its size=,
 * nr_inodes= and huge= limit it alone. umount frees every file of it
 * once nothing holds one. Example: mount("none", "/mnt", "tmpfs", 0,
 * "size=1m") then writing 2 MiB to /mnt/f stops at 1 MiB: -ENOSPC.
 */
#include <mman.h>
#include <sched.h>
#include <shmem_fs.h>
#include <slab.h>
#include <syscalls.h>

#define MS_RDONLY 1
#define MS_REMOUNT 32
#define MS_SILENT 32768
#define MS_RELATIME (1 << 21)
#define MS_MGC_VAL 0xc0ed0000ul /* the old magic in the top half, dropped */
#define MS_MGC_MSK 0xffff0000ul
#define MNT_FORCE 1
#define MNT_DETACH 2
#define MNT_EXPIRE 4
#define UMOUNT_NOFOLLOW 8
#define ANON_DEV_FIRST 32 /* instances' st_dev: 0:32 and up */

static uint32_t next_dev = ANON_DEV_FIRST;

/* Linux: shmem_reconfigure's checks, then the new limits: a size or
 * inode count below what the fs holds is -EINVAL. */
static int shmem_apply(struct ramfs *fs, const struct shmem_options *opts, char *err, size_t errlen)
{
	if ((opts->seen & SHMEM_SEEN_BLOCKS) && opts->blocks && opts->blocks < fs->used_pages) {
		ksnprintf(err, errlen, "tmpfs: Too small a size for current use");
		return -EINVAL;
	}
	if ((opts->seen & SHMEM_SEEN_INODES) && opts->inodes && opts->inodes < fs->nr_inodes) {
		ksnprintf(err, errlen, "tmpfs: Too few inodes for current use");
		return -EINVAL;
	}
	if (opts->seen & SHMEM_SEEN_BLOCKS)
		fs->max_pages = opts->blocks;
	if (opts->seen & SHMEM_SEEN_INODES)
		fs->max_inodes = opts->inodes;
	if (opts->seen & SHMEM_SEEN_HUGE)
		fs->huge = opts->huge;
	if (opts->seen & SHMEM_SEEN_MODE)
		fs->root->mode = S_IFDIR | opts->mode;
	if (opts->seen & SHMEM_SEEN_UID)
		fs->root->uid = opts->uid;
	if (opts->seen & SHMEM_SEEN_GID)
		fs->root->gid = opts->gid;
	return 0;
}

/* Linux: do_new_mount of tmpfs and shmem_fill_super: half of RAM for
 * size and inodes, mode 01777, the caller's fsuid and fsgid, tmpfs_huge,
 * unless the options say otherwise. */
static int new_tmpfs(struct task_struct *task, struct ramfs_inode *dir, const char *data)
{
	struct shmem_options opts = { .mode = 01777,
				      .uid = task->cred.fsuid,
				      .gid = task->cred.fsgid,
				      .seen = SHMEM_SEEN_MODE | SHMEM_SEEN_UID | SHMEM_SEEN_GID };
	struct ramfs *fs;
	char err[80];
	int ret = shmem_parse_options(data, totalram_pages(), &opts, err, sizeof(err));

	if (ret) {
		pr_info("%s\n", err);
		return ret;
	}
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs || ramfs_init(fs, ramfs_kzalloc, ramfs_kfree, NULL)) {
		kfree(fs);
		return -ENOMEM;
	}
	fs->max_pages = fs->max_inodes = shmem_default_max_pages();
	shmem_apply(fs, &opts, err, sizeof(err)); /* an empty fs takes any limit */
	fs->dev = next_dev++;
	fs->mountpoint = dir;
	ihold(dir); /* the mount's: the directory stays while it is covered */
	dir->i_mounted = fs;
	return 0;
}

/* Linux: do_remount of a tmpfs: its options change its limits. */
static int remount_tmpfs(struct ramfs_inode *root, const char *data)
{
	struct ramfs *fs = mount_root_sb(root);
	struct shmem_options opts = { 0 };
	char err[80];
	int ret;

	if (!fs)
		return -EINVAL; /* not the root of a mount */
	ret = shmem_parse_options(data, totalram_pages(), &opts, err, sizeof(err));
	if (!ret)
		ret = shmem_apply(fs, &opts, err, sizeof(err));
	if (ret)
		pr_info("%s\n", err);
	return ret;
}

/* Linux: do_mount. CAP_SYS_ADMIN; the old magic dropped; flags Folium
 * does not keep per mount (read-only, nosuid, ...) are -EINVAL rather
 * than ignored; a type other than tmpfs is -ENODEV. */
static long do_mount(struct task_struct *task, unsigned long dir_name, unsigned long type_page,
		     unsigned long flags, unsigned long data_page)
{
	struct ramfs_inode *dir;
	char *type = NULL, *data = NULL;
	int err;

	if (!has_capability(task, CAP_SYS_ADMIN))
		return -EPERM;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if (flags & ~(unsigned long)(MS_REMOUNT | MS_SILENT | MS_RELATIME))
		return -EINVAL;
	if (data_page && !(data = getname(data_page, &err)))
		return err;
	err = user_path_at(task, AT_FDCWD, dir_name, LOOKUP_FOLLOW, &dir);
	if (!err && (flags & MS_REMOUNT))
		err = remount_tmpfs(dir, data);
	else if (!err && !type_page)
		err = -EINVAL;
	else if (!err && !(type = getname(type_page, &err)))
		;
	else if (!err && strcmp(type, "tmpfs"))
		err = -ENODEV;
	else if (!err && !S_ISDIR(dir->mode))
		err = -ENOTDIR;
	else if (!err)
		err = new_tmpfs(task, dir, data);
	kfree(type);
	kfree(data);
	return err;
}

/* The source (dev_name) is any string, only copied: tmpfs has none. */
SYSCALL_DEFINE5(mount, unsigned long, dev_name, unsigned long, dir_name, unsigned long, type,
		unsigned long, flags, unsigned long, data)
{
	char *source = NULL;
	int err;

	if (dev_name && !(source = getname(dev_name, &err)))
		return err;
	kfree(source);
	return do_mount(task, dir_name, type, flags, data);
}

/* Linux: ksys_umount and do_umount. The name must be a mount's root;
 * anything still using the fs (an open file, a cwd, a mount below) is
 * -EBUSY; then every file of it goes. MNT_FORCE, MNT_DETACH and
 * MNT_EXPIRE are not served: -EINVAL. */
SYSCALL_DEFINE2(umount2, unsigned long, name, int, flags)
{
	struct ramfs_inode *root, *dir;
	struct ramfs *fs;
	int err;

	if (flags & ~UMOUNT_NOFOLLOW)
		return -EINVAL;
	if (!has_capability(task, CAP_SYS_ADMIN))
		return -EPERM;
	err = user_path_at(task, AT_FDCWD, name, flags & UMOUNT_NOFOLLOW ? 0 : LOOKUP_FOLLOW,
			   &root);
	if (err)
		return err;
	fs = mount_root_sb(root);
	if (!fs)
		return -EINVAL;
	if (ramfs_busy(fs) || root->i_mounted)
		return -EBUSY;
	dir = fs->mountpoint;
	ramfs_kill(fs);
	dir->i_mounted = NULL;
	iput(dir);
	kfree(fs);
	return 0;
}
