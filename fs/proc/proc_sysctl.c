/*
 * /proc/sys (Linux: fs/proc/proc_sysctl.c over each subsystem's
 * ctl_table), as far as Folium has tunables: vm/compact_memory, mode 0200
 * as in Linux, whose handler (sysctl_compaction_handler) compacts every
 * node when 1 is written. A write is read as Linux's proc_dointvec reads
 * one int: blanks, an optional '-', digits, blanks; any other value, or
 * no number, is -EINVAL. Opening it for reading is -EACCES even for root:
 * Linux checks a sysctl against its table's mode (proc_sys_permission),
 * not the caller's uid. A write past offset 0 is ignored whole, as
 * Linux's default sysctl_writes_strict ignores it. Example: `echo 1 >
 * /proc/sys/vm/compact_memory` writes "1\n", compacts, and returns 2.
 */
#include <compaction.h>
#include <seq_file.h>
#include <vm.h>

/* Linux: proc_sys_permission with the table's mode 0200. */
static int compact_memory_open(struct ramfs_inode *inode, struct file *file)
{
	(void)inode;
	return file->f_mode & FMODE_READ ? -EACCES : 0;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* Linux: proc_dointvec reading one int: blanks, an optional '-', digits,
 * then a blank or the end, and the blanks after. Return: the bytes it
 * consumed (the rest of the write is left, as Linux leaves it), or
 * -EINVAL. */
static long parse_int(const char *buf, long *val)
{
	const char *s = buf;
	bool neg;
	long v = 0;

	while (is_blank(*s))
		s++;
	neg = *s == '-';
	s += neg;
	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++)
		if ((v = v * 10 + (*s - '0')) > 0x7fffffff)
			return -EINVAL;
	if (*s && !is_blank(*s))
		return -EINVAL;
	while (is_blank(*s))
		s++;
	*val = neg ? -v : v;
	return s - buf;
}

/* Linux: sysctl_compaction_handler: 1 compacts every node, any other
 * value is -EINVAL. */
static long compact_memory_write(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	char buf[24]; /* Linux: TMPBUFLEN, 22 digits and a sign */
	long val, used;

	(void)file;
	if (*pos)
		return (long)count; /* Linux's sysctl_writes_strict: ignored */
	if (!count)
		return 0;
	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	used = parse_int(buf, &val);
	if (used < 0 || val != 1)
		return -EINVAL;
	compact_nodes();
	*pos += (uint64_t)used;
	return used;
}

static const struct file_operations compact_memory_fops = {
	.open = compact_memory_open,
	.write = compact_memory_write,
	.llseek = no_seek_end_llseek,
};

/* Boot, from proc_root_init: /proc/sys/vm and its files. */
void proc_sys_init(void)
{
	int err = ramfs_mkdir(&rootfs, "/proc/sys", S_IFDIR | 0555, NULL);

	if (!err || err == -EEXIST)
		err = ramfs_mkdir(&rootfs, "/proc/sys/vm", S_IFDIR | 0555, NULL);
	if (err && err != -EEXIST) {
		pr_err("proc: cannot make /proc/sys/vm: error %d\n", err);
		return;
	}
	proc_create("/proc/sys/vm/compact_memory", 0200, &compact_memory_fops, NULL);
}
