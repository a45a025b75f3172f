/*
 * The per-process part of /proc (Linux: fs/proc/base.c). Folium runs one
 * program at a time, always pid 1 (TASK_PID), so /proc/1 is the running
 * program and /proc/self a symlink to "1". exe is a symlink whose target
 * is computed when followed: the path exec was given, e.g.
 * readlink("/proc/self/exe") in /bin/hello gives "/bin/hello".
 */
#include <sched.h>
#include <seq_file.h>

/* Linux: proc_exe_link. No program running: -ENOENT, as for a pid gone. */
int proc_exe_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	struct task_struct *task = inode->i_private ? inode->i_private : current;
	size_t len;

	if (!task || !task->exe[0])
		return -ENOENT;
	len = strlen(task->exe);
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, task->exe, len + 1);
	return (int)len;
}

/* /proc/1 and /proc/self (Linux: proc_pid_lookup, proc_self_init). */
void proc_base_init(void)
{
	struct ramfs_inode *exe;

	if (ramfs_mkdir(&rootfs, "/proc/1", S_IFDIR | 0555, NULL) ||
	    ramfs_symlink(&rootfs, "/proc/self", "1", 1, NULL)) {
		pr_err("proc: cannot make /proc/1\n");
		return;
	}
	proc_create("/proc/1/maps", 0444, &proc_pid_maps_fops, NULL);
	proc_create("/proc/1/smaps", 0444, &proc_pid_smaps_fops, NULL);
	proc_create("/proc/1/smaps_rollup", 0444, &proc_pid_smaps_rollup_fops, NULL);
	proc_create("/proc/1/pagemap", 0400, &proc_pagemap_fops, NULL);
	proc_create("/proc/1/clear_refs", 0200, &proc_clear_refs_fops, NULL);
	proc_create("/proc/1/status", 0444, &proc_pid_status_fops, NULL);
	/* The stored target is a placeholder: get_link supplies the real one. */
	if (ramfs_symlink(&rootfs, "/proc/1/exe", "/", 1, &exe) == 0)
		exe->get_link = proc_exe_get_link;
}
