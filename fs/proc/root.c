/*
 * /proc in the root file system (Linux: fs/proc/root.c, proc_create).
 * Every /proc file is a ramfs inode of size 0 whose i_fop generates its
 * contents at open (seq_file); e.g. /proc/meminfo's i_fop is
 * proc_single_fops and its i_private is meminfo_proc_show.
 */
#include <seq_file.h>

void proc_base_init(void);
void proc_sys_init(void);
int loadavg_proc_show(struct seq_file *m, void *v);
int uptime_proc_show(struct seq_file *m, void *v);
int stat_proc_show(struct seq_file *m, void *v);
extern const struct file_operations proc_kmsg_operations;

struct ramfs_inode *proc_create(const char *path, uint32_t mode, const struct file_operations *fops,
				void *data)
{
	struct ramfs_inode *inode;
	int err = ramfs_create(&rootfs, path, S_IFREG | mode, NULL, 0, &inode);

	if (err) {
		pr_err("proc: cannot create %s: error %d\n", path, err);
		return NULL;
	}
	inode->i_fop = fops;
	inode->i_private = data;
	return inode;
}

/* A file shown by one function (Linux: proc_create_single). */
static void proc_create_single(const char *path, seq_show_t show)
{
	proc_create(path, 0444, &proc_single_fops, (void *)(uintptr_t)show);
}

void proc_root_init(void)
{
	int err = ramfs_mkdir(&rootfs, "/proc", S_IFDIR | 0555, NULL);

	if (err && err != -EEXIST) { /* the initramfs may have an empty /proc */
		pr_err("proc: cannot make /proc\n");
		return;
	}
	proc_create_single("/proc/meminfo", meminfo_proc_show);
	proc_create_single("/proc/vmstat", vmstat_show);
	proc_create_single("/proc/buddyinfo", frag_show);
	proc_create_single("/proc/pagetypeinfo", pagetypeinfo_show);
	proc_create_single("/proc/zoneinfo", zoneinfo_show);
	proc_create_single("/proc/cpuinfo", cpuinfo_proc_show);
	proc_create_single("/proc/interrupts", interrupts_proc_show);
	proc_create_single("/proc/loadavg", loadavg_proc_show);
	proc_create_single("/proc/uptime", uptime_proc_show);
	proc_create_single("/proc/stat", stat_proc_show);
	proc_create("/proc/kmsg", 0400, &proc_kmsg_operations, NULL);
	proc_create("/proc/kpagecount", 0400, &proc_kpagecount_fops, NULL);
	proc_create("/proc/kpageflags", 0400, &proc_kpageflags_fops, NULL);
	proc_base_init(); /* /proc/self and every /proc/PID */
	proc_sys_init();  /* /proc/sys/vm/compact_memory */
}
