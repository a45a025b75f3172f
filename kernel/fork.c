/*
 * Creating tasks (Linux: kernel/fork.c). init_task is the kernel's own
 * task, current from boot on; copy_process makes a child of current with
 * its own kernel stack (vmalloc'ed, a guard page below it: Linux's
 * CONFIG_VMAP_STACK) and pid and copies of the parts a process has
 * (files, fs, signal handlers, limits, credentials), as Linux's
 * copy_process does for a clone without CLONE_* sharing flags. The new
 * task has no mm until exec gives it one. Example: the kernel shell's
 * `hello` is copy_process from init_task, then exec, then its run.
 */
#include <arch.h>
#include <fs.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <vmalloc.h>

static struct files_struct init_files = { .count = 1 };
/* pwd: the root directory, once populate_rootfs has made it. */
static struct fs_struct init_fs = { .users = 1, .umask = 022 };
static struct sighand_struct init_sighand = { .count = 1 };
/* Linux: INIT_RLIMITS, with RLIMIT_NOFILE the size of the fd table
 * (which cannot grow: Linux's nr_open), the stack exec's 8 MiB, no core
 * dumps and RLIMIT_MEMLOCK Linux's 8 MiB. */
static struct signal_struct init_signal = {
	.nr_threads = 1,
	.wait_chldexit = __WAIT_QUEUE_HEAD_INITIALIZER(init_signal.wait_chldexit),
	.rlim = {
		[RLIMIT_CPU] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_FSIZE] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_DATA] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_STACK] = { RLIMIT_STACK_DEFAULT, RLIM_INFINITY },
		[RLIMIT_CORE] = { 0, RLIM_INFINITY },
		[RLIMIT_RSS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_NPROC] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_NOFILE] = { NR_OPEN_DEFAULT, NR_OPEN_DEFAULT },
		[RLIMIT_MEMLOCK] = { 8ul << 20, 8ul << 20 },
		[RLIMIT_AS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_LOCKS] = { RLIM_INFINITY, RLIM_INFINITY },
		[RLIMIT_SIGPENDING] = { RLIM_INFINITY, RLIM_INFINITY },
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
	.cred = { CAP_FULL_SET, CAP_FULL_SET, 0, CAP_FULL_SET },
	.children = LIST_HEAD_INIT(init_task.children),
	.sibling = LIST_HEAD_INIT(init_task.sibling),
};

/* Linux: copy_fs, copy_sighand, copy_signal (no CLONE_* sharing). */
static int copy_parts(struct task_struct *p, const struct task_struct *parent)
{
	p->files = dup_fd(parent->files);
	p->fs = kmalloc(sizeof(*p->fs), GFP_KERNEL);
	p->sighand = kmalloc(sizeof(*p->sighand), GFP_KERNEL);
	p->signal = kzalloc(sizeof(*p->signal), GFP_KERNEL);
	if (!p->files || !p->fs || !p->sighand || !p->signal)
		return -ENOMEM;
	*p->fs = (struct fs_struct){ 1, parent->fs->pwd, parent->fs->umask };
	p->sighand->count = 1;
	memcpy(p->sighand->action, parent->sighand->action, sizeof(p->sighand->action));
	p->signal->nr_threads = 1;
	init_waitqueue_head(&p->signal->wait_chldexit);
	memcpy(p->signal->rlim, parent->signal->rlim, sizeof(p->signal->rlim));
	return 0;
}

/*
 * Linux: alloc_thread_stack_node with VMAP_STACK. THREAD_SIZE of zeroed
 * pages in the vmalloc range with an unmapped page below (VM_GUARD_BELOW):
 * a stack grows down, so an overflow touches that page and faults (a #DF,
 * which arch/x86_64/traps.c reports as a kernel stack overflow) instead of
 * writing over whatever memory lies below. Linux also keeps two freed
 * stacks per CPU for the next fork; Folium frees them, so memory comes
 * back exactly.
 */
static int alloc_thread_stack_node(struct task_struct *task, int nid)
{
	task->stack = __vmalloc_node_range(THREAD_SIZE, VMALLOC_START, VMALLOC_END,
					   GFP_KERNEL | __GFP_ZERO, VM_GUARD_BELOW, nid);
	return task->stack ? 0 : -ENOMEM;
}

struct task_struct *copy_process(const struct kernel_clone_args *args)
{
	struct task_struct *parent = current;
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	p->__state = TASK_NEW;
	p->flags = args->fn ? PF_KTHREAD : 0;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	if (alloc_thread_stack_node(p, 0) || arch_dup_task_struct(p, parent) ||
	    copy_parts(p, parent) || alloc_pid(p)) {
		free_task(p);
		return NULL;
	}
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->cred = parent->cred;
	/* Linux: the child gets the parent's mask, none of its pending. */
	p->signals.blocked = parent->signals.blocked;
	p->start_time = arch_uptime_ns();
	sched_fork(p);
	copy_thread(p, args);
	p->real_parent = parent;
	list_add_tail(&p->sibling, &parent->children);
	return p;
}

void free_task(struct task_struct *task)
{
	put_files_struct(task->files);
	if (task->fs && !--task->fs->users)
		kfree(task->fs);
	if (task->sighand && !--task->sighand->count)
		kfree(task->sighand);
	if (task->signal && !--task->signal->nr_threads)
		kfree(task->signal);
	if (task->pid)
		free_pid(task);
	if (task->real_parent)
		list_del(&task->sibling);
	arch_release_task_struct(task);
	vfree(task->stack); /* Linux: free_thread_stack */
	kfree(task);
}
