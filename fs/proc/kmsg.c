/*
 * /proc/kmsg (Linux: fs/proc/kmsg.c): the kernel log read as syslog(2)'s
 * SYSLOG_ACTION_READ does, line by line as "<6>[    1.234567] text\n",
 * each line handed out once, a read waiting for the next line. With
 * O_NONBLOCK a read with nothing unread is -EAGAIN.
 */
#include <kernel.h>
#include <seq_file.h>

static int kmsg_open(struct ramfs_inode *inode, struct file *file)
{
	(void)inode;
	(void)file;
	return do_syslog(SYSLOG_ACTION_OPEN, 0, 0);
}

static long kmsg_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	(void)pos;
	if ((file->f_flags & O_NONBLOCK) && !do_syslog(SYSLOG_ACTION_SIZE_UNREAD, 0, 0))
		return -EAGAIN;
	return do_syslog(SYSLOG_ACTION_READ, ubuf, (int)MIN(count, (size_t)0x7fffffff));
}

const struct file_operations proc_kmsg_operations = {
	.open = kmsg_open,
	.read = kmsg_read,
	.llseek = no_seek_end_llseek, /* Linux: generic_file_llseek, unused */
};
