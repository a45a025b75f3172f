/*
 * Character device numbers (Linux: fs/char_dev.c, chrdev_open): open of
 * any S_IFCHR inode comes here (def_chr_fops), and the inode's major
 * picks the driver, which may look at the minor: 1 is the memory devices
 * (fs/mem.c), 4 and 5 the console (fs/tty_io.c). The file's f_op becomes
 * the driver's, so a node made by devtmpfs, by mknod or by any other
 * name reaches the same driver. Example: a node (1, 3) anywhere reads as
 * /dev/null; (1, 4) or (42, 0) is -ENXIO.
 */
#include <fs.h>

/* Linux: chrdev_open, with the char_device_struct lookup as a switch. */
static int chrdev_open(struct ramfs_inode *inode, struct file *file)
{
	unsigned int major = MAJOR(inode->rdev), minor = MINOR(inode->rdev);
	const struct file_operations *fop;

	switch (major) {
	case MEM_MAJOR: /* Linux: memory_open */
		fop = mem_fops_of(minor);
		if (!fop)
			return -ENXIO;
		file->f_op = fop;
		return fop->open ? fop->open(inode, file) : 0;
	case TTY_MAJOR:
		/* tty1 and ttyS0: the console's screen and serial port */
		return minor == 1 || minor == 64 ? tty_open(inode, file) : -ENXIO;
	case TTYAUX_MAJOR:
		return minor <= 1 ? tty_open(inode, file) : -ENXIO; /* tty, console */
	default:
		return -ENXIO;
	}
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
