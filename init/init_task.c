/*
 * The kernel's own task and the parts it starts with (Linux:
 * init/init_task.c): init_task is current from boot on, the idle task
 * once the scheduler runs; every other task descends from it through
 * copy_process (kernel/fork.c), which copies these parts. Its limits are
 * the ones every program starts with.
 */
#include <fs.h>
#include <sched.h>

/* A list of one: the head and the entry point at each other. */
#define LIST_HEAD_INIT_ONE(head, entry) \
	{                               \
		&(entry), &(entry)      \
	}

static struct files_struct init_files = { .count = 1 };
/* pwd: the root directory, once populate_rootfs has made it. */
static struct fs_struct init_fs = { .users = 1, .umask = 022 };
static struct sighand_struct init_sighand = {
	.count = 1,
	.signalfd_wqh = __WAIT_QUEUE_HEAD_INITIALIZER(init_sighand.signalfd_wqh),
};
/* Linux: INIT_RLIMITS, with RLIMIT_NOFILE the size of the fd table
 * (which cannot grow: Linux's nr_open), the stack exec's 8 MiB, no core
 * dumps and RLIMIT_MEMLOCK Linux's 8 MiB; RLIMIT_NPROC and
 * RLIMIT_SIGPENDING half the tasks there can be (set_max_threads:
 * max_threads / 2). */
static struct signal_struct init_signal = {
	.sigcnt = 1,
	.nr_threads = 1,
	.live = 1,
	.thread_head = LIST_HEAD_INIT_ONE(init_signal.thread_head, init_task.thread_node),
	.shared_pending = { .list = LIST_HEAD_INIT(init_signal.shared_pending.list) },
	.wait_chldexit = __WAIT_QUEUE_HEAD_INITIALIZER(init_signal.wait_chldexit),
	.rlim = {
		[RLIMIT_CPU] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_FSIZE] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_DATA] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_STACK] = { RLIMIT_STACK_DEFAULT, RLIM_INFINITY },
		[RLIMIT_CORE] = { 0, RLIM_INFINITY },
		[RLIMIT_RSS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_NPROC] = { PID_MAX / 2, PID_MAX / 2 },
		[RLIMIT_NOFILE] = { NR_OPEN_DEFAULT, NR_OPEN_DEFAULT },
		[RLIMIT_MEMLOCK] = { 8ul << 20, 8ul << 20 },
		[RLIMIT_AS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_LOCKS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_SIGPENDING] = { PID_MAX / 2, PID_MAX / 2 },
		[RLIMIT_MSGQUEUE] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_NICE] = { 0, 0 },
		[RLIMIT_RTPRIO] = { 0, 0 },
		[RLIMIT_RTTIME] = { RLIM_INFINITY, RLIM_INFINITY },
	},
};

struct task_struct init_task = {
	.__state = TASK_RUNNING,
	.flags = PF_KTHREAD,
	.on_rq = 1,
	.static_prio = DEFAULT_PRIO,
	.pid = 0,
	.comm = "swapper",
	.files = &init_files,
	.fs = &init_fs,
	.sighand = &init_sighand,
	.signal = &init_signal,
	.cred = INIT_CRED,
	.group_leader = &init_task,
	.thread_node = LIST_HEAD_INIT_ONE(init_task.thread_node, init_signal.thread_head),
	.signals = { .pending = { .list = LIST_HEAD_INIT(init_task.signals.pending.list) } },
	.children = LIST_HEAD_INIT(init_task.children),
	.sibling = LIST_HEAD_INIT(init_task.sibling),
};
