/*
 * The task (Linux: include/linux/sched.h, sched/signal.h, fs_struct.h):
 * what the kernel knows of a running program or of its own work, and
 * `current`, the task this CPU runs. A task points at the parts a clone
 * may share (Linux's CLONE_* flags): its address space (mm), open files
 * (files), working directory and umask (fs), signal handlers (sighand)
 * and the process-wide state (signal: the resource limits). Every other
 * field is the task's own. init_task (init/init_task.c) is the kernel's own
 * task, current from boot on: no mm, and every later task descends from
 * it. Example: the kernel shell's `hello` runs as a task whose parent is
 * the shell's kernel thread (pid 1), with a copy of its limits and a
 * files table holding the console as fds 0, 1 and 2; a vfork of hello's
 * shares its mm, files and cwd only if clone's flags say so.
 */
#ifndef FOLIUM_SCHED_H
#define FOLIUM_SCHED_H

#include <cred.h>
#include <lockdep.h>
#include <fs.h>
#include <hrtimer.h>
#include <kernel.h>
#include <list.h>
#include <resource.h>
#include <sched_entity.h>
#include <signal.h>
#include <wait.h>
#include <asm/current.h>
#include <asm/processor.h>

struct completion;
struct mm_struct;
struct files_struct;
struct ramfs_inode;

#define TASK_COMM_LEN 16 /* with the NUL (Linux's) */

/* task_struct.__state and exit_state (Linux's values). A task runs or
 * may run when TASK_RUNNING (it is on the run queue then); it sleeps in
 * one of the others until a wake-up of that kind. */
#define TASK_RUNNING 0x0000
#define TASK_INTERRUPTIBLE 0x0001   /* a signal wakes it too */
#define TASK_UNINTERRUPTIBLE 0x0002 /* only its event wakes it */
#define __TASK_STOPPED 0x0004	    /* a group stop: SIGCONT wakes it */
#define EXIT_DEAD 0x0010	    /* reaped: being freed */
#define EXIT_ZOMBIE 0x0020	    /* exited, its status not taken yet */
#define TASK_DEAD 0x0080	    /* its last schedule(): never runs again */
#define TASK_WAKEKILL 0x0100	    /* and SIGKILL wakes it too */
#define TASK_NEW 0x0800		    /* made, not woken yet */
#define TASK_NORMAL (TASK_INTERRUPTIBLE | TASK_UNINTERRUPTIBLE)
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#define TASK_STOPPED (TASK_WAKEKILL | __TASK_STOPPED)

/* Priorities (Linux: include/linux/sched/prio.h): a normal task's is
 * 120 + its nice value, -20..19. */
#define DEFAULT_PRIO 120
#define NICE_TO_PRIO(nice) ((nice) + DEFAULT_PRIO)
#define PRIO_TO_NICE(prio) ((prio)-DEFAULT_PRIO)

/* thread_info.flags bits (Linux: TIF_*). */
#define TIF_NEED_RESCHED 3 /* schedule() at the next preemption point */

/* Linux: struct thread_info, the flags the entry code tests. */
struct thread_info {
	unsigned long flags;
};

/* task_struct.flags (Linux's PF_* values). */
#define PF_EXITING 0x00000004	     /* in do_exit */
#define PF_FORKNOEXEC 0x00000040     /* forked and not exec'd yet (setpgid's -EACCES) */
#define PF_NPROC_EXCEEDED 0x00001000 /* set*uid went past RLIMIT_NPROC: exec checks again */
#define PF_IDLE 0x00000002	     /* a CPU's idle task */
#define PF_KTHREAD 0x00200000	     /* a kernel thread: no user mm */

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
	/* Linux's: signalfd readers and pollers of the threads sharing it,
	 * woken by every signal sent to them (signalfd_notify). */
	struct wait_queue_head signalfd_wqh;
};

/* Linux: struct cpu_itimer, ITIMER_PROF's or ITIMER_VIRTUAL's expiry
 * (ns of the process's CPU time; 0: off) and interval. */
struct cpu_itimer {
	uint64_t expires;
	uint64_t incr;
};

/* signal_struct.flags (Linux's SIGNAL_* values). */
#define SIGNAL_STOP_STOPPED 0x00000001	 /* the group stop is complete */
#define SIGNAL_STOP_CONTINUED 0x00000002 /* SIGCONT since the last wait saw it */
#define SIGNAL_GROUP_EXIT 0x00000004	 /* exit_group, a fatal signal or exec: all go */
#define SIGNAL_CLD_STOPPED 0x00000010	 /* the parent is yet to hear of the stop */
#define SIGNAL_CLD_CONTINUED 0x00000020	 /* ... or of the continue */
#define SIGNAL_CLD_MASK (SIGNAL_CLD_STOPPED | SIGNAL_CLD_CONTINUED)
#define SIGNAL_UNKILLABLE 0x00000040 /* pid 1: only the signals it handles */

/* Linux: struct signal_struct, what the threads of a process share
 * (CLONE_THREAD): the thread list, the process-directed pending signals,
 * how the group ends or stops, the limits and the children's usage. */
struct signal_struct {
	int sigcnt;	/* tasks whose ->signal this is, zombies too (Linux: sigcnt) */
	int nr_threads; /* threads on thread_head */
	int live;	/* threads not yet in do_exit (Linux: live) */
	struct list_head thread_head;	  /* the threads, by their thread_node */
	struct sigpending shared_pending; /* kill(), not tkill(): any thread may take it */
	struct task_struct *curr_target;  /* where complete_signal starts looking */
	unsigned int flags;		  /* SIGNAL_* */
	int group_exit_code;		  /* the wait status of SIGNAL_GROUP_EXIT */
	int group_stop_count;		  /* threads yet to stop for the group stop */
	/* de_thread: the exec'ing thread, woken when notify_count threads
	 * are left (Linux: group_exec_task, notify_count). */
	struct task_struct *group_exec_task;
	int notify_count;
	/* What exited threads used (Linux: utime, stime, sum_sched_runtime,
	 * min_flt of __exit_signal): the live ones are added when asked. */
	uint64_t utime, stime, sum_sched_runtime;
	long min_flt;
	struct wait_queue_head wait_chldexit; /* the parent, in wait4 */
	struct rlimit64 rlim[RLIM_NLIMITS];   /* getrlimit/setrlimit/prlimit64 */
	/* What the children waited for used (Linux: cutime, cmin_flt,
	 * cmaxrss): RUSAGE_CHILDREN. */
	uint64_t cutime, cstime; /* ns of user and system time */
	long cmin_flt;
	long cmaxrss; /* KiB */
	/* Timers (kernel/itimer.c, kernel/posix-timers.c; init_signal_timers
	 * sets them up): ITIMER_REAL's hrtimer, the task its SIGALRM names
	 * and its interval; ITIMER_PROF and ITIMER_VIRTUAL against the CPU
	 * time the tick charged the process (Linux: thread_group_cputimer);
	 * the POSIX timers and the next id to give. */
	struct hrtimer real_timer;
	struct task_struct *real_timer_task;
	ktime_t it_real_incr;
	struct cpu_itimer it[2]; /* CPUCLOCK_PROF, CPUCLOCK_VIRT */
	uint64_t cputimer_utime, cputimer_stime;
	struct list_head posix_timers;
	int next_posix_timer_id;
};

/* Linux: struct task_struct. */
struct task_struct {
	struct thread_info thread_info;
	unsigned int __state; /* TASK_*: read with READ_ONCE-like care (interrupts) */
	unsigned int flags;   /* PF_* */
	int on_rq;	      /* queued on the run queue (or running) */
	unsigned int cpu;     /* the CPU it runs on or last ran on */
#if CONFIG_PROVE_LOCKING
	/* The locks it holds, innermost last (<lockdep.h>). */
	int lockdep_depth;
	int lockdep_recursion; /* inside the checker: do not check */
	struct held_lock held_locks[MAX_LOCK_DEPTH];
#endif
	int static_prio;	   /* 120 + nice (Linux: DEFAULT_PRIO + nice) */
	struct sched_entity se;	   /* the fair class's: weight, vruntime, deadline */
	uint64_t sum_exec_runtime; /* ns on the CPU, for clocks and /proc */
	uint64_t exec_start;	   /* clock when it last got the CPU */
	uint64_t utime, stime;	   /* ns of ticks that found it in ring 3 / the kernel */
	long min_flt, maxrss;	   /* its mm's faults and peak RSS (KiB), kept at exit */
	struct mm_struct
		*active_mm; /* the mm loaded while it runs (a kthread's may be its workload's) */
	int exit_state;	    /* EXIT_ZOMBIE, EXIT_DEAD once it exited */
	int exit_code;	    /* the wait status do_exit was given */
	int exit_signal;    /* sent to the parent at exit: SIGCHLD, or 0 for none */
	int pid;	    /* the task's own id: gettid (Linux: pid) */
	int tgid;	    /* its thread group's, the leader's pid: getpid */
	struct task_struct *group_leader; /* the thread exec or fork started with */
	struct list_head thread_node;	  /* on signal->thread_head */
	/* Its process group and session (Linux keeps them in signal_struct's
	 * pids; here each thread has a copy, setpgid and setsid set all). */
	int pgid;
	int sid;
	unsigned int jobctl;	     /* JOBCTL_*: group stop's part of this thread */
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
	unsigned long set_child_tid;   /* CLONE_CHILD_SETTID: the pid goes there first */
	unsigned long clear_child_tid; /* set_tid_address, CLONE_CHILD_CLEARTID */
	struct completion *vfork_done; /* CLONE_VFORK: the parent's, completed by mm_release */
	unsigned long robust_list;     /* set_robust_list: walked by exit_robust_list */
	int pdeath_signal;	       /* prctl(PR_SET_PDEATHSIG): kept */
	bool no_new_privs;	       /* prctl(PR_SET_NO_NEW_PRIVS) */
	/* The file exec ran, whose path /proc/PID/exe shows (Linux keeps it in
	 * the mm as exe_file); a forked child runs its parent's. */
	struct ramfs_inode *exe_file; /* with a reference (ihold) */
};

/* The kernel's own task (init/init_task.c). */
extern struct task_struct init_task;

/* task_struct.jobctl (Linux's JOBCTL_* bits). */
#define JOBCTL_STOP_SIGMASK 0xffff     /* the signal of the group stop */
#define JOBCTL_STOP_DEQUEUED (1 << 16) /* stop signal dequeued */
#define JOBCTL_STOP_PENDING (1 << 17)  /* this thread is to stop for the group */
#define JOBCTL_STOP_CONSUME (1 << 18)  /* it counts in group_stop_count */
#define JOBCTL_PENDING_MASK JOBCTL_STOP_PENDING

/* A signal is pending and not blocked, or the thread must stop: a
 * blocking wait (console read, nanosleep) returns -EINTR so it can be
 * delivered (Linux: signal_pending, with TIF_SIGPENDING's meaning: the
 * shared set counts for every thread that does not block it). */
static inline bool signal_pending(const struct task_struct *task)
{
	sigset_t pending = task->signals.pending.signal | task->signal->shared_pending.signal;

	return (pending & ~task->signals.blocked) || (task->jobctl & JOBCTL_STOP_PENDING);
}

/* Linux: fatal_signal_pending: SIGKILL is queued for the thread (a group
 * exit queues it for every thread). */
static inline bool fatal_signal_pending(const struct task_struct *task)
{
	return task->signals.pending.signal & sigmask(SIGKILL);
}

/* Linux: thread_group_leader, thread_group_empty, for_each_thread. */
static inline bool thread_group_leader(const struct task_struct *p)
{
	return p->group_leader == p;
}
static inline bool thread_group_empty(const struct task_struct *p)
{
	return p->signal->nr_threads == 1;
}
#define for_each_thread(p, t) list_for_each_entry(t, &(p)->signal->thread_head, thread_node)
/* Linux: task_pid_vnr / task_tgid_vnr. */
static inline int task_tgid_vnr(const struct task_struct *p)
{
	return p->tgid;
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
/* clone's flags (Linux: include/uapi/linux/sched.h). The low byte is
 * the signal the parent gets when the child exits. */
#define CSIGNAL 0x000000ff
#define CLONE_VM 0x00000100	 /* share the address space */
#define CLONE_FS 0x00000200	 /* share cwd and umask */
#define CLONE_FILES 0x00000400	 /* share the fd table */
#define CLONE_SIGHAND 0x00000800 /* share the signal handlers */
#define CLONE_PIDFD 0x00001000	 /* a pidfd to *parent_tid */
#define CLONE_PTRACE 0x00002000
#define CLONE_VFORK 0x00004000	/* the parent sleeps until exec or exit */
#define CLONE_PARENT 0x00008000 /* the caller's parent is the child's */
#define CLONE_THREAD 0x00010000 /* same thread group */
#define CLONE_NEWNS 0x00020000
#define CLONE_SYSVSEM 0x00040000
#define CLONE_SETTLS 0x00080000		/* the child's FS base is tls */
#define CLONE_PARENT_SETTID 0x00100000	/* the child's pid to *parent_tid */
#define CLONE_CHILD_CLEARTID 0x00200000 /* 0 to *child_tid at its exit */
#define CLONE_DETACHED 0x00400000	/* ignored, as Linux */
#define CLONE_UNTRACED 0x00800000
#define CLONE_CHILD_SETTID 0x01000000 /* its pid to *child_tid in the child */
#define CLONE_NEWCGROUP 0x02000000
#define CLONE_NEWUTS 0x04000000
#define CLONE_NEWIPC 0x08000000
#define CLONE_NEWUSER 0x10000000
#define CLONE_NEWPID 0x20000000
#define CLONE_NEWNET 0x40000000
#define CLONE_IO 0x80000000ul
/* clone3 only (Linux: CLONE_CLEAR_SIGHAND, CLONE_INTO_CGROUP). */
#define CLONE_CLEAR_SIGHAND 0x100000000ul /* handlers back to SIG_DFL in the child */
#define CLONE_INTO_CGROUP 0x200000000ul

/* What a new task is made from (Linux: struct kernel_clone_args). */
struct kernel_clone_args {
	unsigned long flags;	  /* CLONE_*, without CSIGNAL */
	int exit_signal;	  /* the CSIGNAL byte */
	unsigned long stack;	  /* the child's rsp, 0: the parent's */
	unsigned long parent_tid; /* CLONE_PARENT_SETTID's user address */
	unsigned long child_tid;  /* CLONE_CHILD_SETTID/CLEARTID's */
	unsigned long tls;	  /* CLONE_SETTLS's FS base */
	int (*fn)(void *);	  /* a kernel thread's function, NULL for a program */
	void *fn_arg;
};
/**
 * kernel_clone - clone, fork and vfork's work (Linux: kernel_clone): a
 * child of current that returns to ring 3 where current's system call
 * does, with 0 in rax, sharing what @args->flags say and copying the rest
 * (its own mm is a copy-on-write copy of current's, dup_mm). With
 * CLONE_VFORK the caller sleeps until the child execs or exits.
 * Return: the child's pid, or -EINVAL for flags Linux refuses or Folium
 * does not serve (threads: CLONE_THREAD, CLONE_SIGHAND; namespaces),
 * -ENOMEM, -EAGAIN (no pid), -EFAULT for a bad CLONE_PARENT_SETTID
 * address.
 */
long kernel_clone(struct kernel_clone_args *args);
/* Linux: mmget / mmput. An mm lives while a task uses it (mm_users);
 * the last mmput tears it down. */
void mmget(struct mm_struct *mm);
void mmput(struct mm_struct *mm);
/* Linux: get_task_mm. Return: @task's mm with a reference (mmput it),
 * or NULL: a kernel thread, or a task whose mm has gone at exit. */
struct mm_struct *get_task_mm(struct task_struct *task);
/**
 * mm_release - the task is done with its mm, at exec or exit (Linux:
 * exec_mm_release, exit_mm_release): 0 to its clear_child_tid address
 * while the mm is still its own, then a vfork parent may go on.
 */
void mm_release(struct task_struct *tsk, struct mm_struct *mm);
/**
 * copy_process - a new task, a child of current, that has not run yet
 * (TASK_NEW until wake_up_new_task). It gets its own kernel stack, set up
 * so its first switch-in starts @args->fn in the kernel or returns to
 * ring 3 as start_thread says, a pid, and copies of current's files,
 * fs, handlers, limits and credentials; no mm: exec gives it one.
 * Return: the task, or NULL without memory or with no pid left.
 */
struct task_struct *copy_process(const struct kernel_clone_args *args);
/* @p, made by copy_process and not yet woken, becomes @parent's child
 * (init= hands pid 1 to the kernel shell). */
void set_new_task_parent(struct task_struct *p, struct task_struct *parent);
/* Free a task that never ran or that exit has released (Linux:
 * free_task): its stack, its parts, its pid. */
void free_task(struct task_struct *task);
/* Linux: __cleanup_sighand. Drop a reference to @sighand; the last frees
 * it, after the pollers of its signalfd queue let go (wake_up_pollfree). */
void __cleanup_sighand(struct sighand_struct *sighand);

/* --- kernel/exit.c ------------------------------------------------------------ */
/* Linux: do_group_exit. End every thread of current's process with the
 * wait status @code (the first exit_group or fatal signal's wins). */
void __noreturn do_group_exit(int code);
/* End the running task with the wait status @code: exit code << 8, or
 * the signal that killed it (Linux: do_exit's code): its mm and files go,
 * it becomes a zombie its parent is woken to reap, and it never runs
 * again. Context: ring 0, the task's own system call, trap or thread. */
void __noreturn do_exit(int code);
/* Linux: release_task, after the wait (or for a task that never ran):
 * close its files, drop its mm, free it. */
void release_task(struct task_struct *task);
/* Wait for the child @task of current to exit, then reap it (Linux:
 * kernel_wait). Return: its wait status. */
int kernel_wait(struct task_struct *task);
/* kernel_wait that also returns when @task's group stop completes (a
 * shell's waitpid(pid, &status, WUNTRACED)): a stopped child stays a
 * child, its status (sig << 8) | 0x7f. */
int kernel_wait_untraced(struct task_struct *task);
/* wait4's options (Linux: include/uapi/linux/wait.h). */
#define WNOHANG 0x00000001
#define WUNTRACED 0x00000002
#define WEXITED 0x00000004
#define WCONTINUED 0x00000008
#define WNOWAIT 0x01000000
#define __WNOTHREAD 0x20000000
#define __WALL 0x40000000
#define __WCLONE 0x80000000u
struct rusage;
/**
 * kernel_wait4 - wait4's work for @tsk (Linux: kernel_wait4): reap a
 * child @upid names (> 0 that one, -1 any, 0 @tsk's group, < -1 group
 * -@upid), its wait status in *@status, its and its children's usage in
 * *@ru (either may be NULL).
 * Return: its pid, 0 with WNOHANG when none has exited, -ECHILD when no
 * such child exists, -EINVAL for unknown @options, -ERESTARTSYS when a
 * signal came first.
 */
long kernel_wait4(struct task_struct *tsk, int upid, int *status, int options, struct rusage *ru);

/* --- kernel/sched/core.c -------------------------------------------------------- */
/* Give the CPU to the next task to run (Linux: schedule). A task that
 * set itself sleeping (__state not TASK_RUNNING) leaves the run queue
 * until a wake-up; a running one stays queued. */
void schedule(void);
/* Linux: wake_up_process / try_to_wake_up: a task sleeping in one of
 * @state's kinds becomes runnable. Return: true if it was woken.
 * Context: any, interrupts too. */
bool try_to_wake_up(struct task_struct *p, unsigned int state);
static inline bool wake_up_process(struct task_struct *p)
{
	return try_to_wake_up(p, TASK_NORMAL);
}
/* A task copy_process made may now run (Linux: wake_up_new_task). */
void wake_up_new_task(struct task_struct *p);
/* The timer tick's share (Linux: sched_tick): charge the running task and
 * ask for a switch when its slice is used up. Context: interrupt. */
void scheduler_tick(void);
/* Linux: schedule_tail, a new task's first steps after its first switch. */
void schedule_tail(struct task_struct *prev);
/* The idle loop the boot thread ends in (Linux: cpu_startup_entry). */
void __noreturn cpu_idle(void);
/* Another CPU's idle loop until the run queues are per CPU: it answers
 * IPIs (smp_call_function_*) and runs no task. */
void __noreturn cpu_idle_secondary(void);
/* Linux: fork_idle. @cpu's idle task (pid 0, "swapper/N"), sharing
 * init_task's files, fs and signal state; never woken: the CPU starts on
 * its stack, and keeps it (kernel/smp.c's idle_threads). */
struct task_struct *fork_idle(unsigned int cpu);
/* Linux: init_idle. The scheduler's part of an idle task for @cpu. */
void init_idle(struct task_struct *idle, unsigned int cpu);
/* Sleep for at least @ns of the monotonic clock, or until woken, if the
 * caller set its state first (Linux: schedule_hrtimeout). Return: the ns
 * left, 0 once the time has passed. */
uint64_t schedule_timeout_ns(uint64_t ns);
/* Linux: cond_resched, a preemption point in a long kernel loop. */
void cond_resched(void);
/* The run queue and init_task's entity, before the first task is made
 * (Linux: sched_init). */
void sched_init(void);
/* A new task's scheduling state: its parent's nice value, a fresh
 * entity (Linux: sched_fork). */
void sched_fork(struct task_struct *p);
/* Linux: set_user_nice; @nice is clamped to -20..19. */
void set_user_nice(struct task_struct *p, int nice);
/* Linux: do_sched_yield, sched_yield's work. */
void do_sched_yield(void);
static inline int task_nice(const struct task_struct *p)
{
	return PRIO_TO_NICE(p->static_prio);
}

static inline void set_tsk_need_resched(struct task_struct *t)
{
	t->thread_info.flags |= 1ul << TIF_NEED_RESCHED;
}
static inline void clear_tsk_need_resched(struct task_struct *t)
{
	t->thread_info.flags &= ~(1ul << TIF_NEED_RESCHED);
}
static inline bool need_resched(void)
{
	return current->thread_info.flags & (1ul << TIF_NEED_RESCHED);
}
/* Set current's state, as Linux's set_current_state (one CPU: no barrier). */
static inline void set_current_state(unsigned int state)
{
	current->__state = state;
}
#define WIFEXITED(status) (((status)&0x7f) == 0)
#define WEXITSTATUS(status) (((status) >> 8) & 0xff)
#define WTERMSIG(status) ((status)&0x7f)
#define WIFSTOPPED(status) (((status)&0xff) == 0x7f)
#define WSTOPSIG(status) WEXITSTATUS(status)

/* --- kernel/pid.c ------------------------------------------------------------ */
/* The highest pid (/proc/sys/kernel/pid_max): Folium's table holds 4096. */
#define PID_MAX 4096
/* The task pid names, or NULL (Linux: find_task_by_vpid). */
struct task_struct *find_task_by_vpid(int pid);
/* Linux: find_ge_pid. The task with the lowest pid >= @nr, or NULL. */
struct task_struct *find_ge_pid(int nr);
/* Linux: find_ge_pid's use in next_tgid: the thread-group leader with
 * the lowest pid >= @nr, or NULL. */
struct task_struct *find_ge_tgid(int nr);
/* Every process (its thread-group leader), in pid order (Linux:
 * for_each_process); a thread of one is reached by for_each_thread. */
#define for_each_process(p) for (p = find_ge_tgid(1); p; p = find_ge_tgid(p->pid + 1))
/* Linux: find_get_task_by_vpid for a process: the leader of the thread
 * group whose tgid is @nr, or NULL (a thread's tid gives NULL). */
struct task_struct *find_process_by_vpid(int nr);
/* Linux: exchange_tids. Swap the pids of @left and @right (de_thread). */
void exchange_tids(struct task_struct *left, struct task_struct *right);
/* kernel/exit.c. Linux: zap_other_threads (SIGKILL to every other thread
 * of @p's process; return: how many were alive) and __exit_signal (@tsk
 * leaves its thread group, its usage kept in the signal_struct). */
int zap_other_threads(struct task_struct *p);
void __exit_signal(struct task_struct *tsk);
/* kernel/exit.c. Linux: will_become_orphaned_pgrp: no member of group
 * @pgid (but @ignored) has a parent in another group of its session, so
 * nobody is left to continue it (the tty then answers a background read
 * with -EIO, not SIGTTIN); is_current_pgrp_orphaned for current's. */
bool will_become_orphaned_pgrp(int pgid, const struct task_struct *ignored);
bool is_current_pgrp_orphaned(void);
/* Give @task a pid (Linux: alloc_pid). Return: 0 or -EAGAIN. */
int alloc_pid(struct task_struct *task);
/* The pid alloc_pid gave last (Linux: idr_get_cursor - 1), for
 * /proc/loadavg. */
int pid_last_allocated(void);
/* Boot only, with no task holding a pid: the next pid given is 1 again
 * (an init= that could not run leaves pid 1 to the kernel shell, as
 * Linux's kernel_init stays pid 1 whichever init it tries). */
void pid_restart_cycle(void);
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
