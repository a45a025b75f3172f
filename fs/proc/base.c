/*
 * The per-process part of /proc (Linux: fs/proc/base.c, fd.c, self.c):
 * a directory /proc/PID for every task in the pid table, computed when
 * looked up or listed, and /proc/self, a link whose target is the
 * reader's pid. A looked-up pid is bound to a cached directory (Linux's
 * proc inodes of a struct pid); ramfs frees nothing, so a directory whose
 * task is gone is bound again to the next pid that needs one, and new
 * ones are made only when every cached one has a live task: the memory
 * is set by how many processes are looked at at once, not by how many
 * ever were (PROC_PID_DIRS_BOOT are made at boot). Its files name the pid,
 * never a task: an open file remembers the task it found (pid and start
 * time, Folium's struct pid reference) and reads -ESRCH, or nothing, once
 * that task is gone, even if its directory is bound again. Example: `cat
 * /proc/self/stat` as pid 7 follows self to "7", proc_root_lookup finds
 * task 7 and its directory, and stat's open takes task 7's reference.
 */
#include <kernel.h>
#include <sched.h>
#include <seq_file.h>
#include <slab.h>
#include <vm.h>

#define NR_PID_ENTRIES 14     /* ARRAY_SIZE(tgid_base_stuff) */
#define PROC_PID_DIRS_BOOT 16 /* directories made at boot */

/* A cached /proc/PID directory and the inode data of its files, all
 * naming one pid while it is bound to it (Linux: the proc_inodes of one
 * struct pid). fd/N is one link inode for every N, set up by each lookup
 * and used at once by the walk that asked (one CPU, no sleep between). */
struct proc_pid_dir {
	struct proc_inode pi; /* the directory's and fd/'s */
	struct proc_inode entry_pi[NR_PID_ENTRIES];
	struct proc_inode fd_pi; /* fd/N's: its pid and the last N looked up */
	struct ramfs_inode *dir, *fd_dir, *fd_link, *task_dir;
	char name[12];		   /* the pid as text: the directory's i_name */
	struct proc_pid_dir *next; /* every directory made, for rebinding */
};

static struct proc_pid_dir *pid_dirs[PID_MAX]; /* pid - 1 -> its directory */
static struct proc_pid_dir *all_pid_dirs;
static struct ramfs_inode *proc_root;

struct task_struct *proc_inode_task(const struct ramfs_inode *inode)
{
	const struct proc_inode *pi = inode->i_private;

	return pi ? find_task_by_vpid(pi->pid) : NULL;
}

struct task_struct *proc_task_get(const struct proc_task_ref *ref)
{
	struct task_struct *task = ref ? find_task_by_vpid(ref->pid) : NULL;

	return task && task->start_time == ref->start_time ? task : NULL;
}

/* Linux: proc_pid_get_link's start: the task must exist now. */
struct proc_task_ref *proc_task_ref_new(const struct ramfs_inode *inode, int *err)
{
	struct task_struct *task = proc_inode_task(inode);
	struct proc_task_ref *ref;

	*err = -ENOENT; /* Linux: the dentry of a dead pid is stale */
	if (!task)
		return NULL;
	*err = -ENOMEM;
	ref = kmalloc(sizeof(*ref), GFP_KERNEL);
	if (ref) {
		*ref = (struct proc_task_ref){ task->pid, task->start_time };
		*err = 0;
	}
	return ref;
}

int proc_pid_single_open(struct ramfs_inode *inode, struct file *file, seq_show_t show)
{
	int err;
	struct proc_task_ref *ref = proc_task_ref_new(inode, &err);

	if (!ref)
		return err;
	err = single_open(file, show, ref);
	if (err)
		kfree(ref);
	return err;
}

void proc_pid_release(struct ramfs_inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	if (m)
		kfree(m->private);
	single_release(inode, file);
}

/* Linux: proc_single_open, a file one function shows (the ONE() entries). */
static int proc_single_pid_open(struct ramfs_inode *inode, struct file *file)
{
	const struct proc_inode *pi = inode->i_private;

	return proc_pid_single_open(inode, file, pi->show);
}

static const struct file_operations proc_pid_single_fops = {
	.open = proc_single_pid_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

/* Linux: comm_show. */
static int comm_show(struct seq_file *m, void *v)
{
	struct task_struct *task = proc_task_get(m->private);

	(void)v;
	if (!task)
		return -ESRCH;
	seq_printf(m, "%s\n", task->comm);
	return 0;
}

static int comm_open(struct ramfs_inode *inode, struct file *file)
{
	return proc_pid_single_open(inode, file, comm_show);
}

/* Linux: comm_write. A task renames only itself (another's is -EINVAL);
 * the bytes as given, cut to TASK_COMM_LEN - 1; the whole count is
 * taken. */
static long comm_write(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	struct seq_file *m = file->private_data;
	char buf[TASK_COMM_LEN] = { 0 };
	struct task_struct *task;

	(void)pos;
	if (copy_from_user(buf, ubuf, MIN(count, sizeof(buf) - 1)))
		return -EFAULT;
	task = proc_task_get(m->private);
	if (!task)
		return -ESRCH;
	if (task != current)
		return -EINVAL;
	memcpy(task->comm, buf, sizeof(buf));
	return (long)count;
}

static const struct file_operations proc_pid_comm_fops = {
	.open = comm_open,
	.read = seq_read,
	.write = comm_write,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

/* Copy a link target into buf. Return: its length, or -ENAMETOOLONG. */
static int put_link(const char *target, char *buf, size_t size)
{
	size_t len = strlen(target);

	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(buf, target, len + 1);
	return (int)len;
}

/* Linux: proc_pid_get_link's start, for the exe, cwd and root links: the
 * inode's task, if the reader may look into it (proc_fd_access_allowed:
 * ptrace_may_access). Return: 0 with *task, -ENOENT (gone) or -EACCES. */
static int proc_link_task(const struct ramfs_inode *inode, struct task_struct **task)
{
	*task = proc_inode_task(inode);
	if (!*task)
		return -ENOENT;
	return ptrace_may_access(current, *task) ? 0 : -EACCES;
}

int proc_mem_open_check(const struct ramfs_inode *inode)
{
	struct task_struct *task = proc_inode_task(inode);

	if (!task)
		return -ENOENT;
	if (task->mm && task->mm != current->mm && !ptrace_may_access(current, task))
		return -EACCES;
	return 0;
}

/* Linux: proc_exe_link, d_path of the file that runs: the file a link
 * led to (/bin/busybox for /bin/sh). A kernel thread has none: -ENOENT. */
int proc_exe_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	struct task_struct *task;
	int err = proc_link_task(inode, &task);

	if (err)
		return err;
	if (!task->exe_file || !task->mm)
		return -ENOENT;
	return ramfs_inode_path(&rootfs, task->exe_file, buf, size);
}

/* Linux: proc_cwd_link (d_path of fs->pwd). */
static int proc_cwd_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	struct task_struct *task;
	int err = proc_link_task(inode, &task);

	if (err)
		return err;
	if (!task->fs)
		return -ENOENT;
	return ramfs_dir_path(&rootfs, task->fs->pwd, buf, size);
}

/* Linux: proc_root_link. Folium has no chroot: always "/". */
static int proc_root_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	struct task_struct *task;
	int err = proc_link_task(inode, &task);

	return err ? err : put_link("/", buf, size);
}

/* Linux: proc_self_get_link, the reader's pid. */
static int proc_self_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	(void)inode;
	if (!current->pid)
		return -ENOENT; /* Linux: the idle task has no pid here */
	return ksnprintf(buf, size, "%d", current->tgid) < (int)size ? (int)strlen(buf)
								     : -ENAMETOOLONG;
}

/* Linux: proc_thread_self_get_link, "PID/task/TID" of the reader. */
static int proc_thread_self_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	(void)inode;
	if (!current->pid)
		return -ENOENT;
	return ksnprintf(buf, size, "%d/task/%d", current->tgid, current->pid) < (int)size
		       ? (int)strlen(buf)
		       : -ENAMETOOLONG;
}

/* --- /proc/PID/fd -------------------------------------------------------------- */

/* Linux: proc_fd_link (d_path of the file): a ramfs name, the node in
 * /dev a device was opened as, "pipe:[ino]" or "anon_inode:[...]". */
static int proc_fd_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	const struct proc_inode *pi = inode->i_private;
	struct task_struct *task = find_task_by_vpid(pi->pid);
	struct file *file = task && task->files ? fget_raw(task, pi->fd) : NULL;
	struct ramfs_inode *f;
	int len;

	if (!file)
		return -ENOENT;
	f = file->f_inode;
	len = d_path(f, buf, size);
	if (len == -ENOENT && S_ISFIFO(f->mode))
		len = ksnprintf(buf, size, "pipe:[%lu]", f->ino);
	else if (len == -ENOENT && f->i_name) /* an anon inode's name: <anon_inodes.h> */
		len = ksnprintf(buf, size, "anon_inode:%s", f->i_name);
	else if (len == -ENOENT)
		len = ksnprintf(buf, size, "anon_inode:[%s]", S_ISREG(f->mode) ? "pidfd" : "?");
	fput(file);
	return len < (int)size ? len : -ENAMETOOLONG;
}

/* Linux: proc_fd_instantiate. The link's mode says how the fd was
 * opened: r-x for reading, -wx for writing, both for both. */
static struct ramfs_inode *proc_fd_lookup(struct ramfs_inode *dir, const char *name, size_t len)
{
	const struct proc_inode *dpi = dir->i_private;
	struct proc_pid_dir *pd = pid_dirs[dpi->pid - 1];
	struct task_struct *task = find_task_by_vpid(dpi->pid);
	int fd = proc_name_to_int(name, len);
	struct file *file;

	if (!pd || fd < 0 || fd >= NR_OPEN_DEFAULT || !task || !task->files)
		return NULL;
	file = fget_raw(task, fd);
	if (!file)
		return NULL;
	pd->fd_pi.fd = fd;
	pd->fd_link->mode = S_IFLNK | (file->f_mode & FMODE_READ ? 0500 : 0) |
			    (file->f_mode & FMODE_WRITE ? 0300 : 0);
	fput(file);
	return pd->fd_link;
}

/* Linux: proc_readfd_common. Positions: 0 ".", 1 "..", 2 + fd. */
static int proc_readfd(struct file *file, struct dir_context *ctx)
{
	struct ramfs_inode *dir = file->f_inode;
	const struct proc_inode *pi = dir->i_private;
	struct task_struct *task;
	char name[12];

	if (!find_task_by_vpid(pi->pid))
		return -ENOENT;
	if (!dir_emit_dots(file, ctx))
		return 0;
	ctx->pos = MAX(ctx->pos, 2ull);
	/* The task is found again for each fd: the user copy may sleep. */
	for (int fd = (int)ctx->pos - 2; fd < NR_OPEN_DEFAULT; fd++) {
		struct ramfs_inode *link;
		int len;

		task = find_task_by_vpid(pi->pid);
		if (!task || !task->files)
			break;
		if (!task->files->fd[fd])
			continue;
		len = ksnprintf(name, sizeof(name), "%d", fd);
		link = proc_fd_lookup(dir, name, (size_t)len);
		ctx->pos = (uint64_t)fd + 2; /* d_off: the entry after it */
		if (link && !ctx->actor(ctx, name, len, link->ino, S_IFLNK >> 12))
			return 0;
		ctx->pos = (uint64_t)fd + 3;
	}
	return 0;
}

static const struct file_operations proc_fd_operations = {
	.read = generic_read_dir,
	.llseek = no_seek_end_llseek,
	.iterate_shared = proc_readfd,
};

/* --- /proc/PID/task ---------------------------------------------------------- */

static struct proc_pid_dir *pid_dir_get(int pid);
static void pid_dir_set_owner(struct proc_pid_dir *pd, const struct task_struct *task);

/* Linux: proc_task_lookup. A thread of the directory's process: its own
 * /proc/TID directory (Linux's task/TID has the per-thread files; here
 * they are the same files, which show the thread). */
static struct ramfs_inode *proc_task_lookup(struct ramfs_inode *dir, const char *name, size_t len)
{
	const struct proc_inode *dpi = dir->i_private;
	struct task_struct *leader = find_task_by_vpid(dpi->pid), *t;
	int tid = proc_name_to_int(name, len);
	struct proc_pid_dir *pd;

	if (!leader || tid <= 0 || tid > PID_MAX || !(t = find_task_by_vpid(tid)) ||
	    t->tgid != leader->tgid)
		return NULL;
	pd = pid_dir_get(tid);
	if (!pd)
		return NULL;
	pid_dir_set_owner(pd, t);
	return pd->dir;
}

/* Linux: proc_task_readdir. Positions: 0 ".", 1 "..", 2 + tid. */
static int proc_task_readdir(struct file *file, struct dir_context *ctx)
{
	struct ramfs_inode *dir = file->f_inode;
	const struct proc_inode *pi = dir->i_private;
	char name[12];

	if (!find_task_by_vpid(pi->pid))
		return -ENOENT;
	if (!dir_emit_dots(file, ctx))
		return 0;
	ctx->pos = MAX(ctx->pos, 2ull);
	/* By tid, found again each time: the user copy may sleep. */
	for (int tid = (int)ctx->pos - 2; tid <= PID_MAX; tid++) {
		struct task_struct *leader = find_task_by_vpid(pi->pid), *t;
		struct ramfs_inode *tdir;
		int len;

		if (!leader)
			break;
		t = find_ge_pid(tid);
		while (t && t->tgid != leader->tgid)
			t = find_ge_pid(t->pid + 1);
		if (!t)
			break;
		tid = t->pid;
		len = ksnprintf(name, sizeof(name), "%d", tid);
		tdir = proc_task_lookup(dir, name, (size_t)len);
		ctx->pos = (uint64_t)tid + 2;
		if (tdir && !ctx->actor(ctx, name, len, tdir->ino, S_IFDIR >> 12))
			return 0;
		ctx->pos = (uint64_t)tid + 3;
	}
	return 0;
}

static const struct file_operations proc_task_operations = {
	.read = generic_read_dir,
	.llseek = no_seek_end_llseek,
	.iterate_shared = proc_task_readdir,
};

/* --- /proc/PID ----------------------------------------------------------------- */

/* Linux: struct pid_entry and tgid_base_stuff's NOD/ONE/REG/LNK. */
struct pid_entry {
	const char *name;
	uint32_t mode;
	const struct file_operations *fop; /* NULL: show through proc_pid_single_fops */
	seq_show_t show;
	int (*get_link)(struct ramfs_inode *inode, char *buf, size_t size);
};

#define ONE(n, m, s)                                        \
	{                                                   \
		.name = n, .mode = S_IFREG | (m), .show = s \
	}
#define REG(n, m, f)                                       \
	{                                                  \
		.name = n, .mode = S_IFREG | (m), .fop = f \
	}
#define LNK(n, l)                                                \
	{                                                        \
		.name = n, .mode = S_IFLNK | 0777, .get_link = l \
	}

/* Linux: environ_open (__mem_open): the reader must be allowed into the
 * task's memory. */
static int environ_open(struct ramfs_inode *inode, struct file *file)
{
	int err = proc_mem_open_check(inode);

	return err ? err : proc_pid_single_open(inode, file, proc_pid_environ_show);
}

static const struct file_operations proc_environ_fops = {
	.open = environ_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

static const struct pid_entry tgid_base_stuff[] = {
	LNK("cwd", proc_cwd_get_link),
	REG("clear_refs", 0200, &proc_clear_refs_fops),
	ONE("cmdline", 0444, proc_pid_cmdline_show),
	REG("comm", 0644, &proc_pid_comm_fops),
	REG("environ", 0400, &proc_environ_fops),
	LNK("exe", proc_exe_get_link),
	REG("maps", 0444, &proc_pid_maps_fops),
	REG("pagemap", 0400, &proc_pagemap_fops),
	LNK("root", proc_root_get_link),
	REG("smaps", 0444, &proc_pid_smaps_fops),
	REG("smaps_rollup", 0444, &proc_pid_smaps_rollup_fops),
	ONE("stat", 0444, proc_tgid_stat_show),
	ONE("statm", 0444, proc_pid_statm_show),
	REG("status", 0444, &proc_pid_status_fops),
};

/* Point every inode of pd at pid (Linux: proc_pid_make_inode's pid). */
static void pid_dir_bind(struct proc_pid_dir *pd, int pid)
{
	pd->pi.pid = pd->fd_pi.pid = pid;
	for (int i = 0; i < NR_PID_ENTRIES; i++)
		pd->entry_pi[i].pid = pid;
	ksnprintf(pd->name, sizeof(pd->name), "%d", pid);
	pid_dirs[pid - 1] = pd;
}

/* A new directory with its files, bound to no pid yet. Return: it, or
 * NULL without memory. */
static struct proc_pid_dir *pid_dir_make(void)
{
	struct proc_pid_dir *pd = rootfs.alloc(&rootfs, sizeof(*pd));

	_Static_assert(ARRAY_SIZE(tgid_base_stuff) == NR_PID_ENTRIES, "NR_PID_ENTRIES is stale");
	if (!pd || ramfs_add(&rootfs, proc_root, NULL, S_IFDIR | 0555, &pd->dir) ||
	    ramfs_add(&rootfs, pd->dir, "fd", S_IFDIR | 0500, &pd->fd_dir) ||
	    ramfs_add(&rootfs, pd->fd_dir, NULL, S_IFLNK | 0700, &pd->fd_link) ||
	    ramfs_add(&rootfs, pd->dir, "task", S_IFDIR | 0555, &pd->task_dir))
		return NULL;
	pd->task_dir->i_private = &pd->pi;
	pd->task_dir->lookup = proc_task_lookup;
	pd->task_dir->i_fop = &proc_task_operations;
	pd->dir->i_name = pd->name;
	pd->dir->i_private = pd->fd_dir->i_private = &pd->pi;
	pd->fd_dir->lookup = proc_fd_lookup;
	pd->fd_dir->i_fop = &proc_fd_operations;
	pd->fd_link->i_private = &pd->fd_pi;
	pd->fd_link->get_link = proc_fd_get_link;
	for (int i = 0; i < NR_PID_ENTRIES; i++) {
		const struct pid_entry *e = &tgid_base_stuff[i];
		struct ramfs_inode *inode;

		pd->entry_pi[i].show = e->show;
		if (ramfs_add(&rootfs, pd->dir, e->name, e->mode, &inode))
			return NULL;
		inode->i_private = &pd->entry_pi[i];
		inode->i_fop = e->fop ? e->fop : S_ISREG(e->mode) ? &proc_pid_single_fops : NULL;
		inode->get_link = e->get_link;
	}
	pd->next = all_pid_dirs;
	all_pid_dirs = pd;
	return pd;
}

/* The directory of a live pid (Linux: proc_pid_instantiate): its own,
 * or one whose task is gone, bound to it, or a new one. Return: it, or
 * NULL without memory. */
static struct proc_pid_dir *pid_dir_get(int pid)
{
	struct proc_pid_dir *pd = pid_dirs[pid - 1];

	if (pd && pd->pi.pid == pid)
		return pd;
	for (pd = all_pid_dirs; pd; pd = pd->next) {
		if (!pd->pi.pid || !find_task_by_vpid(pd->pi.pid))
			break;
		if (pid_dirs[pd->pi.pid - 1] != pd) /* its pid went to another */
			break;
	}
	if (!pd)
		pd = pid_dir_make();
	if (!pd)
		return NULL;
	if (pd->pi.pid && pid_dirs[pd->pi.pid - 1] == pd)
		pid_dirs[pd->pi.pid - 1] = NULL;
	pid_dir_bind(pd, pid);
	return pd;
}

int proc_name_to_int(const char *name, size_t len)
{
	int n = 0;

	/* Linux: name_to_int, no sign and no leading zero. */
	if (!len || len > 9 || (len > 1 && name[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		n = n * 10 + (name[i] - '0');
	}
	return n;
}

/* Linux: task_dump_owner. A process whose mm may be dumped owns its
 * files (its effective uid and gid); a kernel thread's and a
 * non-dumpable process's belong to root. */
static void task_dump_owner(const struct task_struct *task, uint32_t *uid, uint32_t *gid)
{
	bool dumpable = task->mm && (task->mm->flags & MMF_DUMPABLE);

	*uid = dumpable ? task->cred.euid : GLOBAL_ROOT_UID;
	*gid = dumpable ? task->cred.egid : GLOBAL_ROOT_GID;
}

/* Linux: pid_update_inode at each lookup: the directory, fd/, its link
 * and every file get the task's owner as it is now. */
static void pid_dir_set_owner(struct proc_pid_dir *pd, const struct task_struct *task)
{
	uint32_t uid, gid;

	task_dump_owner(task, &uid, &gid);
	pd->dir->uid = pd->fd_dir->uid = pd->fd_link->uid = uid;
	pd->dir->gid = pd->fd_dir->gid = pd->fd_link->gid = gid;
	pd->task_dir->uid = uid;
	pd->task_dir->gid = gid;
	for (struct ramfs_dentry *d = pd->dir->children; d; d = d->next) {
		d->inode->uid = uid;
		d->inode->gid = gid;
	}
}

/* Linux: proc_root_lookup -> proc_pid_lookup: a live task's number. */
static struct ramfs_inode *proc_root_lookup(struct ramfs_inode *dir, const char *name, size_t len)
{
	int pid = proc_name_to_int(name, len);
	struct task_struct *task;
	struct proc_pid_dir *pd;

	(void)dir;
	if (pid <= 0 || pid > PID_MAX || !(task = find_task_by_vpid(pid)))
		return NULL;
	pd = pid_dir_get(pid);
	if (!pd)
		return NULL;
	pid_dir_set_owner(pd, task);
	return pd->dir;
}

/* Positions past /proc's own names: PROC_PID_POS + pid (Linux:
 * TGID_OFFSET + tgid in proc_pid_readdir). */
#define PROC_PID_POS 0x100000ull

/* Linux: proc_root_readdir: the names, then every process's pid (a
 * thread's is looked up, not listed: Linux's hidden TIDs). */
static int proc_root_readdir(struct file *file, struct dir_context *ctx)
{
	uint64_t names = 2;
	struct task_struct *p;
	char name[12];

	for (const struct ramfs_dentry *d = proc_root->children; d; d = d->next)
		names++;
	if (ctx->pos < names) {
		int err = dcache_readdir(file, ctx);

		if (err || ctx->pos < names)
			return err;
		ctx->pos = PROC_PID_POS;
	}
	/* By pid, not by task: the directory's memory and the user copy may
	 * sleep, and the task may be gone after. */
	for (int pid = (int)(ctx->pos - PROC_PID_POS); (p = find_ge_tgid(pid)); pid++) {
		struct proc_pid_dir *pd;
		int len;

		pid = p->pid;
		pd = pid_dir_get(pid);
		if (!pd)
			return -ENOMEM;
		len = ksnprintf(name, sizeof(name), "%d", pid);
		ctx->pos = PROC_PID_POS + (uint64_t)pid; /* d_off: the entry after it */
		if (!ctx->actor(ctx, name, len, pd->dir->ino, S_IFDIR >> 12))
			return 0;
		ctx->pos = PROC_PID_POS + (uint64_t)pid + 1;
	}
	return 0;
}

static const struct file_operations proc_root_operations = {
	.read = generic_read_dir,
	.llseek = no_seek_end_llseek,
	.iterate_shared = proc_root_readdir,
};

/* /proc's lookup and listing of pids, and /proc/self (Linux:
 * proc_root_init's proc_self_init). */
void proc_base_init(void)
{
	struct ramfs_inode *self, *thread_self;

	if (ramfs_lookup(&rootfs, "/proc", true, &proc_root) ||
	    ramfs_symlink(&rootfs, "/proc/self", "/", 1, &self) ||
	    ramfs_symlink(&rootfs, "/proc/thread-self", "/", 1, &thread_self)) {
		pr_err("proc: cannot make /proc/self\n");
		return;
	}
	/* The stored target is a placeholder: get_link supplies the real one. */
	self->get_link = proc_self_get_link;
	thread_self->get_link = proc_thread_self_get_link;
	proc_root->lookup = proc_root_lookup;
	proc_root->i_fop = &proc_root_operations;
	/* Made now, so the first programs that look at /proc take no memory
	 * (a program run before and after shows the same MemFree). */
	for (int i = 0; i < PROC_PID_DIRS_BOOT; i++)
		if (!pid_dir_make())
			pr_err("proc: no memory for /proc/PID\n");
}
