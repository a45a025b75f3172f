/*
 * /dev at boot (Linux: drivers/base/devtmpfs.c, with the nodes
 * drivers/char/mem.c's chr_dev_init and the tty layer register): a
 * directory of character device nodes in rootfs, with Linux's names,
 * numbers and modes. Opening one goes through chrdev_open
 * (fs/char_dev.c) by its numbers. Example: /dev/null is (1, 3) 0666,
 * /dev/console (5, 1) 0600.
 */
#include <fs.h>
#include <kernel.h>

/* Linux: devlist in drivers/char/mem.c, then tty_init's and the vt's. */
static const struct {
	const char *name;
	uint32_t mode;
	unsigned int major, minor;
	uint32_t gid;
} devlist[] = {
	{ "null", 0666, MEM_MAJOR, 3, 0 },	 { "zero", 0666, MEM_MAJOR, 5, 0 },
	{ "full", 0666, MEM_MAJOR, 7, 0 },	 { "random", 0666, MEM_MAJOR, 8, 0 },
	{ "urandom", 0666, MEM_MAJOR, 9, 0 },	 { "tty", 0666, TTYAUX_MAJOR, 0, 5 },
	{ "console", 0600, TTYAUX_MAJOR, 1, 0 }, { "tty1", 0620, TTY_MAJOR, 1, 5 },
	{ "ttyS0", 0660, TTY_MAJOR, 64, 20 }, /* dialout */
};

void devtmpfs_init(void)
{
	char path[32];
	int err = ramfs_mkdir(&rootfs, "/dev", S_IFDIR | 0755, NULL);

	if (err && err != -EEXIST) { /* the initramfs may bring its own /dev */
		pr_err("devtmpfs: cannot make /dev: %d\n", err);
		return;
	}
	for (size_t i = 0; i < ARRAY_SIZE(devlist); i++) {
		struct ramfs_inode *inode;

		ksnprintf(path, sizeof(path), "/dev/%s", devlist[i].name);
		err = ramfs_mknod(&rootfs, path, S_IFCHR | devlist[i].mode,
				  MKDEV(devlist[i].major, devlist[i].minor), &inode);
		if (err)
			pr_err("devtmpfs: %s: %d\n", path, err);
		else
			inode->gid = devlist[i].gid;
	}
}
