/*
 * Creating tasks (Linux: kernel/fork.c). copy_process makes a child of
 * current (init_task, init/init_task.c, is the first of them all) with
 * its own kernel stack (vmalloc'ed, a guard page below it: Linux's
 * CONFIG_VMAP_STACK) and pid, and the parts a process has (mm, files, fs,
 * signal handlers, limits, credentials): shared where clone's CLONE_*
 * flags say, copied otherwise. kernel_clone is clone, fork and vfork's
 * work: the child returns from the same system call with 0.
 * Examples: the kernel shell's `hello` is copy_process from a kernel
 * thread (no mm: exec gives it one), then exec, then its run; musl's
 * posix_spawn is clone(CLONE_VM | CLONE_VFORK | SIGCHLD): the child runs
 * on its parent's mm, which sleeps until the child's execve is through.
 */
#include <arch.h>
#include <completion.h>
#include <fs.h>
#include <futex.h>
#include <kernel_stat.h>
#include <posix-timers.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>
#include <vmalloc.h>

void mmget(struct mm_struct *mm)
{
	mm->mm_users++;
}

void mmput(struct mm_struct *mm)
{
	if (!--mm->mm_users)
		mm_destroy(mm);
}

struct mm_struct *get_task_mm(struct task_struct *task)
{
	struct mm_struct *mm = task->flags & PF_KTHREAD ? NULL : task->mm;

	if (mm)
		mmget(mm);
	return mm;
}

/* Linux: dup_mm. A copy-on-write copy of @oldmm (dup_mmap: every VMA,
 * its anonymous pages write-protected in both and shared until one side
 * writes). Return: the new mm, or NULL without memory. */
static struct mm_struct *dup_mm(struct mm_struct *oldmm)
{
	struct mm_struct *mm = mm_create(oldmm->nid);

	if (!mm)
		return NULL;
	if (dup_mmap(mm, oldmm)) {
		mm_destroy(mm);
		return NULL;
	}
	return mm;
}

/* Linux: copy_mm. A kernel thread and a child of one have no mm. */
static int copy_mm(unsigned long clone_flags, struct task_struct *p, struct task_struct *parent)
{
	struct mm_struct *oldmm = parent->mm;

	if (!oldmm || (p->flags & PF_KTHREAD))
		return 0;
	if (clone_flags & CLONE_VM) {
		mmget(oldmm);
		p->mm = oldmm;
	} else {
		p->mm = dup_mm(oldmm);
		if (!p->mm)
			return -ENOMEM;
	}
	p->active_mm = p->mm;
	return 0;
}

/* Linux: copy_files, copy_fs, copy_sighand, copy_signal. */
static int copy_parts(unsigned long clone_flags, struct task_struct *p,
		      const struct task_struct *parent)
{
	if (clone_flags & CLONE_FILES) {
		parent->files->count++;
		p->files = parent->files;
	} else {
		p->files = dup_fd(parent->files);
	}
	if (clone_flags & CLONE_FS) {
		parent->fs->users++;
		p->fs = parent->fs;
	} else {
		p->fs = kmalloc(sizeof(*p->fs), GFP_KERNEL);
		if (p->fs) {
			*p->fs = (struct fs_struct){ 1, parent->fs->pwd, parent->fs->umask };
			if (p->fs->pwd)
				ihold(p->fs->pwd);
		}
	}
	if (!p->files || !p->fs)
		return -ENOMEM;
	/* Linux: copy_sighand. */
	if (clone_flags & CLONE_SIGHAND) {
		parent->sighand->count++;
		p->sighand = parent->sighand;
	} else {
		p->sighand = kmalloc(sizeof(*p->sighand), GFP_KERNEL);
		if (!p->sighand)
			return -ENOMEM;
		p->sighand->count = 1;
		init_waitqueue_head(&p->sighand->signalfd_wqh);
		memcpy(p->sighand->action, parent->sighand->action, sizeof(p->sighand->action));
		if (clone_flags & CLONE_CLEAR_SIGHAND)
			flush_signal_handlers(p);
	}
	/* Linux: copy_signal. A thread joins its creator's process. */
	if (clone_flags & CLONE_THREAD) {
		p->signal = parent->signal;
		p->signal->sigcnt++;
		return 0;
	}
	p->signal = kzalloc(sizeof(*p->signal), GFP_KERNEL);
	if (!p->signal)
		return -ENOMEM;
	p->signal->sigcnt = 1;
	INIT_LIST_HEAD(&p->signal->thread_head);
	init_sigpending(&p->signal->shared_pending);
	init_waitqueue_head(&p->signal->wait_chldexit);
	init_signal_timers(p->signal);
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

/* copy_process, with why it failed in *err: -ENOMEM, or -EAGAIN when no
 * pid is left (Linux: alloc_pid's). */
static struct task_struct *__copy_process(const struct kernel_clone_args *args, int *err)
{
	struct task_struct *parent = current;
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	*err = -ENOMEM;
	if (!p)
		return NULL;
	p->__state = TASK_NEW;
	p->flags = args->fn ? PF_KTHREAD : PF_FORKNOEXEC;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	init_sigpending(&p->signals.pending);
	copy_creds(p, &parent->cred);
	/* Linux: copy_process's RLIMIT_NPROC check. More tasks of the real
	 * uid than the caller's limit is -EAGAIN, except for root's uid and
	 * for a caller with CAP_SYS_RESOURCE or CAP_SYS_ADMIN. */
	if (is_rlimit_overlimit(p->cred.ucounts, task_rlimit(parent, RLIMIT_NPROC)) &&
	    p->cred.ucounts != &init_ucounts && !has_capability(parent, CAP_SYS_RESOURCE) &&
	    !has_capability(parent, CAP_SYS_ADMIN)) {
		*err = -EAGAIN;
		free_task(p);
		return NULL;
	}
	parent->flags &= ~PF_NPROC_EXCEEDED;
	if (alloc_thread_stack_node(p, 0) || arch_dup_task_struct(p, parent) ||
	    copy_parts(args->flags, p, parent) || copy_mm(args->flags, p, parent) ||
	    (*err = alloc_pid(p))) {
		/* Linux: bad_fork_cleanup_mm, then the rest free_task undoes. */
		if (p->mm)
			mmput(p->mm);
		free_task(p);
		return NULL;
	}
	/* A program's child stays in its group; a program the kernel starts
	 * leads its own (as a job-control shell makes each job a group). */
	p->pgid = parent->mm ? parent->pgid : p->pid;
	p->sid = parent->mm ? parent->sid : p->pid;
	p->exit_signal = args->exit_signal;
	if (args->flags & CLONE_THREAD) {
		/* Linux: a thread's exit tells nobody (exit_signal -1): the
		 * process's parent hears when the last thread is gone. */
		p->exit_signal = -1;
		p->group_leader = parent->group_leader;
		p->tgid = parent->tgid;
	} else {
		p->group_leader = p;
		p->tgid = p->pid;
		/* Linux: is_child_reaper. init (init=) takes only the
		 * signals it has handlers for. */
		if (p->pid == 1)
			p->signal->flags |= SIGNAL_UNKILLABLE;
	}
	if (args->flags & CLONE_CHILD_SETTID)
		p->set_child_tid = args->child_tid;
	if (args->flags & CLONE_CHILD_CLEARTID)
		p->clear_child_tid = args->child_tid;
	memcpy(p->comm, parent->comm, sizeof(p->comm));
	p->exe_file = parent->exe_file;
	if (p->exe_file)
		ihold(p->exe_file);
	/* Linux: the child gets the parent's mask, none of its pending. */
	p->signals.blocked = parent->signals.blocked;
	p->start_time = arch_uptime_ns();
	total_forks++;
	sched_fork(p);
	copy_thread(p, args);
	/* Linux: CLONE_PARENT makes it its parent's sibling, which its
	 * exit then tells with the caller's own exit signal; a thread's
	 * parent is its process's, and only a new process is a child. */
	if (args->flags & (CLONE_PARENT | CLONE_THREAD)) {
		p->real_parent = parent->real_parent;
		if (!(args->flags & CLONE_THREAD))
			p->exit_signal = parent->group_leader->exit_signal;
	} else {
		p->real_parent = parent;
	}
	if (thread_group_leader(p))
		list_add_tail(&p->sibling, &p->real_parent->children);
	list_add_tail(&p->thread_node, &p->signal->thread_head);
	p->signal->nr_threads++;
	p->signal->live++;
	return p;
}

struct task_struct *copy_process(const struct kernel_clone_args *args)
{
	int err;

	return __copy_process(args, &err);
}

struct task_struct *fork_idle(unsigned int cpu)
{
	struct task_struct *p = kzalloc(sizeof(*p), GFP_KERNEL);

	if (!p)
		return NULL;
	/* Linux: init_idle. The boot CPU's idle is init_task itself. */
	p->flags = PF_KTHREAD | PF_IDLE;
	if (alloc_thread_stack_node(p, 0) || arch_dup_task_struct(p, &init_task)) {
		arch_release_task_struct(p);
		vfree(p->stack);
		kfree(p);
		return NULL;
	}
	p->__state = TASK_RUNNING;
	p->static_prio = init_task.static_prio;
	p->files = init_task.files;
	p->fs = init_task.fs;
	p->sighand = init_task.sighand;
	p->signal = init_task.signal;
	p->cred = init_task.cred;
	p->group_leader = p;
	p->cpu = cpu;
	INIT_LIST_HEAD(&p->children);
	INIT_LIST_HEAD(&p->sibling);
	INIT_LIST_HEAD(&p->thread_node);
	init_sigpending(&p->signals.pending);
	ksnprintf(p->comm, sizeof(p->comm), "swapper/%u", cpu);
	p->start_time = arch_uptime_ns();
	init_idle(p, cpu);
	return p;
}

void __cleanup_sighand(struct sighand_struct *sighand)
{
	if (--sighand->count)
		return;
	/* Linux: signalfd_cleanup. An epoll still watching a signalfd
	 * through this queue lets go of it before it is freed. */
	wake_up_pollfree(&sighand->signalfd_wqh);
	kfree(sighand);
}

void free_task(struct task_struct *task)
{
	exit_creds(task);
	put_files_struct(task->files);
	if (task->fs && !--task->fs->users) {
		if (task->fs->pwd)
			iput(task->fs->pwd);
		kfree(task->fs);
	}
	if (task->exe_file)
		iput(task->exe_file);
	if (task->sighand)
		__cleanup_sighand(task->sighand);
	flush_sigqueue(&task->signals.pending);
	if (!list_empty(&task->thread_node))
		__exit_signal(task);
	if (task->signal && !--task->signal->sigcnt) {
		flush_sigqueue(&task->signal->shared_pending);
		kfree(task->signal);
	}
	if (task->pid)
		free_pid(task);
	if (task->real_parent)
		list_del(&task->sibling);
	arch_release_task_struct(task);
	vfree(task->stack); /* Linux: free_thread_stack */
	kfree(task);
}

/* The flags clone may carry: what Folium serves, and what Linux accepts
 * and ignores (CLONE_DETACHED, and CLONE_PTRACE/CLONE_UNTRACED without a
 * tracer; CLONE_SYSVSEM and CLONE_IO share what Folium does not have). */
#define CLONE_SERVED                                                                           \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_VFORK |      \
	 CLONE_PARENT | CLONE_SETTLS | CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID |            \
	 CLONE_CHILD_SETTID | CLONE_DETACHED | CLONE_PTRACE | CLONE_UNTRACED | CLONE_SYSVSEM | \
	 CLONE_IO | CLONE_CLEAR_SIGHAND)

/* Linux: copy_process's flag checks. Return: 0 or -EINVAL. */
static int clone_flags_valid(unsigned long flags)
{
	static bool logged;

	if ((flags & (CLONE_NEWNS | CLONE_FS)) == (CLONE_NEWNS | CLONE_FS) ||
	    (flags & (CLONE_NEWUSER | CLONE_FS)) == (CLONE_NEWUSER | CLONE_FS))
		return -EINVAL;
	if ((flags & CLONE_THREAD) && !(flags & CLONE_SIGHAND))
		return -EINVAL;
	if ((flags & CLONE_SIGHAND) && !(flags & CLONE_VM))
		return -EINVAL;
	/* Linux: siblings of the global init (CLONE_PARENT from pid 1) would
	 * be children of nobody; init's threads may not be made with it. */
	if ((flags & CLONE_PARENT) && current->pid == 1)
		return -EINVAL;
	if (flags & ~CLONE_SERVED) {
		/* pidfds and namespaces. */
		if (!logged)
			pr_info("%s[%d]: clone flags %#lx not served (-EINVAL)\n", current->comm,
				current->pid, flags & ~CLONE_SERVED);
		logged = true;
		return -EINVAL;
	}
	return 0;
}

/* Linux: wait_for_vfork_done. A killed parent stops waiting: the child
 * must not complete a completion that is gone. */
static void wait_for_vfork_done(struct task_struct *child, struct completion *vfork)
{
	if (wait_for_completion_killable(vfork))
		child->vfork_done = NULL;
}

long kernel_clone(struct kernel_clone_args *args)
{
	struct completion vfork;
	struct task_struct *p;
	int err = clone_flags_valid(args->flags), pid;

	if (err)
		return err;
	/* Linux: set_new_tls, do_arch_prctl_64(ARCH_SET_FS)'s check. */
	if ((args->flags & CLONE_SETTLS) && args->tls >= TASK_SIZE)
		return -EPERM;
	p = __copy_process(args, &err);
	if (!p)
		return err;
	pid = p->pid;
	/* Linux writes it and ignores a fault, as here. */
	if (args->flags & CLONE_PARENT_SETTID)
		copy_to_user(args->parent_tid, &pid, sizeof(pid));
	if (args->flags & CLONE_VFORK) {
		p->vfork_done = &vfork;
		init_completion(&vfork);
	}
	wake_up_new_task(p);
	if (args->flags & CLONE_VFORK)
		wait_for_vfork_done(p, &vfork);
	return pid;
}

void mm_release(struct task_struct *tsk, struct mm_struct *mm)
{
	/* Linux: futex_exit_release's robust list, then the tid word: 0
	 * and its futex woken (pthread_join waits there), only if another
	 * task still uses the mm to see it. */
	if (current_mm == mm)
		exit_robust_list(tsk);
	if (tsk->clear_child_tid) {
		if (mm->mm_users > 1 && current_mm == mm) {
			int zero = 0;

			if (!copy_to_user(tsk->clear_child_tid, &zero, sizeof(zero)))
				futex_wake(mm, tsk->clear_child_tid, 1);
		}
		tsk->clear_child_tid = 0;
	}
	/* Linux: complete_vfork_done. */
	if (tsk->vfork_done) {
		complete(tsk->vfork_done);
		tsk->vfork_done = NULL;
	}
}

/* x86-64's clone argument order: flags, stack, parent_tid, child_tid,
 * tls (Linux: CONFIG_CLONE_BACKWARDS is other arches'). */
SYSCALL_DEFINE5(clone, unsigned long, clone_flags, unsigned long, newsp, unsigned long,
		parent_tidptr, unsigned long, child_tidptr, unsigned long, tls)
{
	struct kernel_clone_args args = {
		/* Linux: clone(2) takes the low 32 bits (clone3's are its own). */
		.flags = (uint32_t)clone_flags & ~(unsigned long)CSIGNAL,
		.exit_signal = (int)(clone_flags & CSIGNAL),
		.stack = newsp,
		.parent_tid = parent_tidptr,
		.child_tid = child_tidptr,
		.tls = tls,
	};

	(void)task;
	return kernel_clone(&args);
}

/* @p, made and not yet woken, becomes @parent's child. Linux has no such
 * call (its pid 1 is the kernel thread that execs init); Folium's boot
 * thread makes init (pid 1) and hands it to the kernel shell, which
 * waits for it. */
void set_new_task_parent(struct task_struct *p, struct task_struct *parent)
{
	list_del(&p->sibling);
	p->real_parent = parent;
	list_add_tail(&p->sibling, &parent->children);
}

/* Linux: struct clone_args, clone3's argument; VER0 ends at tls, VER1
 * adds set_tid, VER2 cgroup. */
struct clone_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

#define CLONE_ARGS_SIZE_VER0 64

/*
 * Linux: copy_clone_args_from_user, clone3_args_valid and
 * clone3_stack_valid. A larger struct than this kernel knows is taken if
 * its extra bytes are zero (copy_struct_from_user: -E2BIG if not); the
 * stack is its lowest address and a size, so rsp starts at their sum.
 * set_tid (choosing the pid) and CLONE_INTO_CGROUP are not served.
 */
static int clone3_args(unsigned long uargs, size_t size, struct kernel_clone_args *kargs)
{
	struct clone_args args = { 0 };

	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < CLONE_ARGS_SIZE_VER0)
		return -EINVAL;
	for (size_t off = sizeof(args); off < size; off++) {
		uint8_t byte;

		if (copy_from_user(&byte, uargs + off, 1))
			return -EFAULT;
		if (byte)
			return -E2BIG;
	}
	if (copy_from_user(&args, uargs, MIN(size, sizeof(args))))
		return -EFAULT;
	if (args.set_tid_size || args.set_tid || (args.flags & CLONE_INTO_CGROUP))
		return -EINVAL;
	/* Linux: copy_clone_args_from_user: within CSIGNAL and a signal
	 * (valid_signal: 65..255 fit CSIGNAL but are none). */
	if (args.exit_signal & ~(uint64_t)CSIGNAL || !valid_signal(args.exit_signal) ||
	    (args.flags & CSIGNAL) || (args.flags & CLONE_DETACHED))
		return -EINVAL;
	if ((args.flags & (CLONE_THREAD | CLONE_PARENT)) && args.exit_signal)
		return -EINVAL;
	if ((args.flags & (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND)) ==
	    (CLONE_SIGHAND | CLONE_CLEAR_SIGHAND))
		return -EINVAL;
	if (args.stack ? !args.stack_size || args.stack + args.stack_size > TASK_SIZE ||
				 args.stack + args.stack_size < args.stack
		       : args.stack_size)
		return -EINVAL;
	*kargs = (struct kernel_clone_args){
		.flags = args.flags,
		.exit_signal = (int)args.exit_signal,
		.stack = args.stack ? args.stack + args.stack_size : 0,
		.parent_tid = args.parent_tid,
		.child_tid = args.child_tid,
		.tls = args.tls,
	};
	return 0;
}

SYSCALL_DEFINE2(clone3, unsigned long, uargs, size_t, size)
{
	struct kernel_clone_args kargs;
	int err = clone3_args(uargs, size, &kargs);

	if (err)
		return err;
	return kernel_clone(&kargs);
}

SYSCALL_DEFINE0(fork)
{
	struct kernel_clone_args args = { .exit_signal = SIGCHLD };

	(void)task;
	return kernel_clone(&args);
}

SYSCALL_DEFINE0(vfork)
{
	struct kernel_clone_args args = { .flags = CLONE_VFORK | CLONE_VM, .exit_signal = SIGCHLD };

	(void)task;
	return kernel_clone(&args);
}
