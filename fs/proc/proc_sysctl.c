/*
 * /proc/sys (Linux: fs/proc/proc_sysctl.c): one file per entry of every
 * table registered with SYSCTL_TABLE() (include/sysctl.h), made at boot
 * under /proc/sys/<path>/ with the entry's mode. Reading or writing calls
 * the entry's handler on a kernel copy of the bytes (Linux:
 * proc_sys_call_handler). Permission is the table's mode, not the
 * caller's uid: root is held to the owner bits, so a 0200 file such as
 * vm/compact_memory cannot be opened for reading even by root (Linux:
 * proc_sys_permission). Example: `echo 1 > /proc/sys/vm/compact_memory`
 * writes "1\n", compacts, and returns 2.
 */
#include <seq_file.h>
#include <slab.h>
#include <sysctl.h>
#include <vm.h>

/* Linux: proc_sys_permission → test_perm for the root user: the owner
 * bits of the table's mode decide. */
static int proc_sys_open(struct ramfs_inode *inode, struct file *file)
{
	const struct ctl_table *table = inode->i_private;
	uint32_t owner = (uint32_t)table->mode >> 6;

	if ((file->f_mode & FMODE_READ) && !(owner & 4))
		return -EACCES;
	if ((file->f_mode & FMODE_WRITE) && !(owner & 2))
		return -EACCES;
	return 0;
}

/* Linux: proc_sys_call_handler. The handler sees at most a page, as
 * Linux's handlers use at most PAGE_SIZE - 1 bytes of a write. */
static long proc_sys_call_handler(struct file *file, unsigned long ubuf, size_t count,
				  uint64_t *pos, int write)
{
	const struct ctl_table *table = file->f_inode->i_private;
	size_t len = MIN(count, PAGE_SIZE - 1);
	char *kbuf;
	int err;

	if (!table->proc_handler)
		return -EINVAL;
	if (!count)
		return 0;
	kbuf = kmalloc(len + 1, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	memset(kbuf, 0, len + 1);
	if (write && copy_from_user(kbuf, ubuf, len)) {
		kfree(kbuf);
		return -EFAULT;
	}
	err = table->proc_handler(table, write, kbuf, &len, pos);
	if (!err && !write && copy_to_user(ubuf, kbuf, len))
		err = -EFAULT;
	kfree(kbuf);
	return err ? err : (long)len;
}

static long proc_sys_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	return proc_sys_call_handler(file, ubuf, count, pos, 0);
}

static long proc_sys_write(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	return proc_sys_call_handler(file, ubuf, count, pos, 1);
}

static const struct file_operations proc_sys_file_operations = {
	.open = proc_sys_open,
	.read = proc_sys_read,
	.write = proc_sys_write,
	.llseek = no_seek_end_llseek,
};

/* mkdir -p of /proc/sys/<path>. Return: 0 or -errno. */
static int proc_sys_mkdirs(const char *path)
{
	char dir[64];
	size_t i = strlen("/proc/sys");

	if (ksnprintf(dir, sizeof(dir), "/proc/sys/%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	for (;; i++) {
		char c = dir[i];
		int err;

		if (c != '/' && c != '\0')
			continue;
		dir[i] = '\0';
		err = ramfs_mkdir(&rootfs, dir, S_IFDIR | 0555, NULL);
		dir[i] = c;
		if (err && err != -EEXIST)
			return err;
		if (!c)
			return 0;
	}
}

/* Boot, from proc_root_init: every registered table's files. */
void proc_sys_init(void)
{
	const struct ctl_table_header *h;
	char path[96];

	for (size_t n = 0; (h = sysctl_table_nth(n)); n++) {
		int err = proc_sys_mkdirs(h->path);

		if (err) {
			pr_err("proc: cannot make /proc/sys/%s: error %d\n", h->path, err);
			continue;
		}
		for (size_t i = 0; i < h->size; i++) {
			const struct ctl_table *t = &h->table[i];

			ksnprintf(path, sizeof(path), "/proc/sys/%s/%s", h->path, t->procname);
			proc_create(path, t->mode & 0777, &proc_sys_file_operations, (void *)t);
		}
	}
}
