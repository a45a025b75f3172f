/*
 * Process ids and pidfds (Linux: kernel/pid.c alloc_pid, find_vpid,
 * pidfd_open, pidfd_get_task). Every task but init_task (pid 0) has a
 * pid from 1 to NR_PID_SLOTS while it exists; a pidfd is a file that
 * names one. Pids are handed out in a cycle as Linux's idr_alloc_cyclic
 * does: the one after the last given, wrapping to RESERVED_PIDS, so a
 * pid that just died is not given again at once (a shell's job notice
 * and a kill by pid mean the process they meant).
 * Example: pidfd_open(getpid(), 0) gives a close-on-exec fd, which
 * process_madvise (mm/madvise.c) takes to find the mm to advise.
 */
#include <fs.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <sysctl.h>

/* Tasks that can exist at once: pids 1..PID_MAX (Linux's pid_max is
 * 32768 by default; its floor, PID_MAX_MIN, is 301). A fork past it is
 * -EAGAIN, as on Linux. */
#define NR_PID_SLOTS PID_MAX

/* The tasks with a pid (Linux: the pid idr). */
static struct task_struct *pid_table[NR_PID_SLOTS];

/* Linux: RESERVED_PIDS. Once the cycle has passed it, the pids below
 * are left to the boot's first tasks. */
#define RESERVED_PIDS 300

/*
 * /proc/sys/kernel/pid_max and threads-max (Linux: pid_table in
 * kernel/pid.c, sysctl_max_threads in kernel/fork.c). pid_max, the
 * highest pid the cycle gives, root may lower or raise between Linux's
 * PID_MAX_MIN (301) and the table's size (Folium's PID_MAX_LIMIT: the
 * table is an array sized at build time); pids above a lowered one live
 * on. threads-max is the table's size, read-only: every task, thread or
 * not, takes a slot (Linux lets root write it too).
 */
static int pid_max = PID_MAX;
static const int pid_max_min = RESERVED_PIDS + 1, pid_max_max = NR_PID_SLOTS;
static int max_threads = NR_PID_SLOTS;
static const struct ctl_table pid_sysctl_table[] = {
	{ .procname = "pid_max",
	  .data = &pid_max,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = &pid_max_min,
	  .extra2 = &pid_max_max },
	{ .procname = "threads-max",
	  .data = &max_threads,
	  .maxlen = sizeof(int),
	  .mode = 0444,
	  .proc_handler = proc_dointvec },
};
SYSCTL_TABLE("kernel", pid_sysctl_table);

/* The next pid to try (Linux: the pid idr's cursor), and whether the
 * cycle has wrapped once: before that, no free pid was ever given, so
 * none can still name a process group or session. */
static int pid_cursor = 1;
static bool pid_wrapped;

/* Linux keeps a struct pid (and its number) while a process group or
 * session has it, though its task is gone (free_pid runs once no task
 * uses it as PID, TGID, PGID or SID). */
static bool pid_names_a_group(int nr)
{
	struct task_struct *p;

	for_each_process(p) if (p->pgid == nr || p->sid == nr) return true;
	return false;
}

/* Linux: alloc_pid's idr_alloc_cyclic(pid_min, pid_max): from the
 * cursor to pid_max, then from pid_min, which is RESERVED_PIDS once the
 * cursor is past it. */
int alloc_pid(struct task_struct *task)
{
	int min = pid_cursor > RESERVED_PIDS ? RESERVED_PIDS : 1;
	int nr = MAX(pid_cursor, min);

	for (int tried = 0; tried <= pid_max - min; tried++, nr++) {
		if (nr > pid_max) {
			nr = min;
			pid_wrapped = true;
		}
		if (pid_table[nr - 1] || (pid_wrapped && pid_names_a_group(nr)))
			continue;
		pid_table[nr - 1] = task;
		task->pid = nr;
		pid_cursor = nr + 1;
		return 0;
	}
	return -EAGAIN;
}

int pid_last_allocated(void)
{
	return pid_cursor - 1;
}

void pid_restart_cycle(void)
{
	BUG_ON(pid_wrapped || find_ge_pid(1));
	pid_cursor = 1;
}

void free_pid(struct task_struct *task)
{
	if (task->pid > 0 && task->pid <= NR_PID_SLOTS && pid_table[task->pid - 1] == task)
		pid_table[task->pid - 1] = NULL;
	task->pid = 0;
}

struct task_struct *find_task_by_vpid(int pid)
{
	if (pid <= 0 || pid > NR_PID_SLOTS)
		return NULL;
	return pid_table[pid - 1];
}

struct task_struct *find_ge_pid(int nr)
{
	for (int pid = MAX(nr, 1); pid <= NR_PID_SLOTS; pid++)
		if (pid_table[pid - 1])
			return pid_table[pid - 1];
	return NULL;
}

struct task_struct *find_ge_tgid(int nr)
{
	for (int pid = MAX(nr, 1); pid <= NR_PID_SLOTS; pid++) {
		struct task_struct *p = pid_table[pid - 1];

		if (p && thread_group_leader(p))
			return p;
	}
	return NULL;
}

struct task_struct *find_process_by_vpid(int nr)
{
	struct task_struct *p = find_task_by_vpid(nr);

	return p && thread_group_leader(p) ? p : NULL;
}

/* Linux: exchange_tids, for de_thread: the exec'ing thread takes the
 * leader's pid, the old leader the thread's (and frees it when
 * released). */
void exchange_tids(struct task_struct *left, struct task_struct *right)
{
	int lpid = left->pid, rpid = right->pid;

	pid_table[lpid - 1] = right;
	pid_table[rpid - 1] = left;
	left->pid = rpid;
	right->pid = lpid;
}

#define PIDFD_NONBLOCK O_NONBLOCK
#define PIDFD_THREAD O_EXCL

/* The file's own state: the pid it names (the task may be gone). */
static void pidfd_release(struct ramfs_inode *inode, struct file *file)
{
	(void)file;
	kfree(inode);
}

static const struct file_operations pidfd_fops = {
	.release = pidfd_release,
};

/* Linux: pidfd_open's checks (flags, pid > 0, the pid exists), then
 * pidfd_create: O_RDWR, close-on-exec. */
SYSCALL_DEFINE2(pidfd_open, int, pid, unsigned int, flags)
{
	struct ramfs_inode *inode;
	struct file *file;
	int fd;

	if (flags & ~(unsigned int)(PIDFD_NONBLOCK | PIDFD_THREAD) || pid <= 0)
		return -EINVAL;
	if (!find_task_by_vpid(pid))
		return -ESRCH;
	inode = kzalloc(sizeof(*inode), GFP_KERNEL);
	if (inode) /* before alloc_file, which takes a reference on it */
		*inode = (struct ramfs_inode){ .mode = S_IFREG | 0600,
					       .nlink = 1,
					       .ino = (unsigned long)pid };
	file = inode ? alloc_file(inode, &pidfd_fops, O_RDWR | (flags & PIDFD_NONBLOCK),
				  FMODE_READ | FMODE_WRITE)
		     : NULL;
	if (!file) {
		kfree(inode);
		return -ENOMEM;
	}
	file->private_data = (void *)(uintptr_t)pid;
	fd = fd_install_lowest(task, file, 0, true);
	if (fd < 0)
		fput(file);
	return fd;
}

struct task_struct *pidfd_get_task(struct task_struct *task, int fd, int *err)
{
	struct file *file = fget(task, fd);
	int pid = file && file->f_op == &pidfd_fops ? (int)(uintptr_t)file->private_data : 0;
	struct task_struct *target = pid ? find_task_by_vpid(pid) : NULL;

	if (file)
		fput(file);
	*err = !pid ? -EBADF : !target ? -ESRCH : 0;
	return target;
}
