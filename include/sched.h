/*
 * The task (Linux: include/linux/sched.h, sched/signal.h, fs_struct.h):
 * what the kernel knows of a running program or of its own work, and
 * `current`, the task this CPU runs. A task points at the parts a clone
 * may share (Linux's CLONE_* flags): its address space (mm), open files
 * (files), working directory and umask (fs), signal handlers (sighand)
 * and the process-wide state (signal: the resource limits). Every other
 * field is the task's own. init_task (kernel/fork.c) is the kernel's own
 * task, current from boot on: no mm, and every later task descends from
 * it. Example: the kernel shell's `hello` runs as a task whose parent is
 * init_task, with a copy of its limits and a files table holding the
 * console as fds 0, 1 and 2.
 */
#ifndef FOLIUM_SCHED_H
#define FOLIUM_SCHED_H

#include <cred.h>
#include <fs.h>
#include <kernel.h>
#include <list.h>
#include <resource.h>
#include <signal.h>
#include <asm/current.h>
#include <asm/processor.h>

struct mm_struct;
struct files_struct;
struct ramfs_inode;

#define TASK_COMM_LEN 16 /* with the NUL (Linux's) */

/* task_struct.flags (Linux's PF_* values). */
#define PF_EXITING 0x00000004 /* in do_exit */
#define PF_KTHREAD 0x00200000 /* a kernel thread: no user mm */

/* Linux: struct fs_struct. */
struct fs_struct {
	int users;		 /* tasks sharing it (CLONE_FS) */
	struct ramfs_inode *pwd; /* the working directory */
	uint32_t umask;
};

/* Linux: struct sighand_struct, the handlers CLONE_SIGHAND shares. */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG]; /* action[sig - 1] */
};

/* Linux: struct signal_struct, what the threads of a process share. */
struct signal_struct {
	int nr_threads;
	struct rlimit64 rlim[RLIM_NLIMITS]; /* getrlimit/setrlimit/prlimit64 */
};

/* Linux: struct task_struct. */
struct task_struct {
	unsigned int flags; /* PF_* */
	int pid;
	char comm[TASK_COMM_LEN];    /* the file name's last component, truncated */
	void *stack;		     /* the kernel stack, THREAD_SIZE bytes, vmalloc'ed
				      * with an unmapped guard page below */
	struct thread_struct thread; /* the arch's registers (asm/processor.h) */
	struct mm_struct *mm;	     /* its address space; NULL for a kernel thread */
	struct files_struct *files;
	struct fs_struct *fs;
	struct sighand_struct *sighand;
	struct signal_struct *signal;
	struct task_signals signals; /* blocked, pending, altstack (kernel/signal.c) */
	struct cred cred;
	struct task_struct *real_parent; /* who created it */
	struct list_head children;	 /* its children, linked by their sibling */
	struct list_head sibling;
	uint64_t start_time;	       /* ktime_get_ns() when created */
	unsigned long clear_child_tid; /* set_tid_address */
	unsigned long robust_list;     /* set_robust_list (kept, never walked) */
	int pdeath_signal;	       /* prctl(PR_SET_PDEATHSIG): kept */
	bool no_new_privs;	       /* prctl(PR_SET_NO_NEW_PRIVS) */
	char exe[PATH_MAX];	       /* the path exec was given: /proc/self/exe */
};

/* The kernel's own task (kernel/fork.c). */
extern struct task_struct init_task;

/* A signal is pending and not blocked: a blocking wait (console read,
 * nanosleep) returns -EINTR so it can be delivered (Linux:
 * signal_pending). */
static inline bool signal_pending(const struct task_struct *task)
{
	return task->signals.pending & ~task->signals.blocked;
}

/* Linux: has_capability (capable() is this for current). */
static inline bool has_capability(const struct task_struct *task, int cap)
{
	return task->cred.cap_effective & (1ull << cap);
}

/* Linux: task_rlimit, the soft limit of @resource (< RLIM_NLIMITS). */
static inline uint64_t task_rlimit(const struct task_struct *task, unsigned int resource)
{
	return task->signal->rlim[resource].rlim_cur;
}

/* Linux: rlimit, the running task's. */
static inline uint64_t rlimit(unsigned int resource)
{
	return task_rlimit(current, resource);
}

/* --- kernel/fork.c ---------------------------------------------------------- */
/**
 * copy_process - a new task, a child of current, that has not run yet.
 * It gets its own kernel stack, a pid, and copies of current's files,
 * fs, handlers, limits and credentials (clone flags that share them come
 * with fork); no mm: exec gives it one.
 * Return: the task, or NULL without memory or with no pid left.
 */
struct task_struct *copy_process(void);
/* Free a task that never ran or that exit has released (Linux:
 * free_task): its stack, its parts, its pid. */
void free_task(struct task_struct *task);

/* --- kernel/exit.c ------------------------------------------------------------ */
/* End the running program with the wait status @code: exit code << 8, or
 * the signal that killed it (Linux: do_exit's code). Context: ring 0,
 * called from a system call or a trap of the program. */
void __noreturn do_exit(int code);
/* Linux: release_task after the wait: close its files, drop its mm, free
 * it. Context: @task has exited or never ran. */
void release_task(struct task_struct *task);
#define WIFEXITED(status) (((status)&0x7f) == 0)
#define WEXITSTATUS(status) (((status) >> 8) & 0xff)
#define WTERMSIG(status) ((status)&0x7f)

/* --- kernel/pid.c ------------------------------------------------------------ */
/* The task pid names, or NULL (Linux: find_task_by_vpid). */
struct task_struct *find_task_by_vpid(int pid);
/* Give @task a pid (Linux: alloc_pid). Return: 0 or -EAGAIN. */
int alloc_pid(struct task_struct *task);
void free_pid(struct task_struct *task);
/* The task the pidfd @fd of @task names (Linux: pidfd_get_task). Return:
 * it, or NULL with *err -EBADF (no fd, or not a pidfd) or -ESRCH (the
 * process is gone). */
struct task_struct *pidfd_get_task(struct task_struct *task, int fd, int *err);

/* --- kernel/capability.c ------------------------------------------------------ */
/* prctl's PR_CAPBSET_READ and PR_CAPBSET_DROP. Return: the result, or
 * -ENOSYS for any other option. */
long cap_task_prctl(struct task_struct *task, int option, unsigned long cap);

#endif
