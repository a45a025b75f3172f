/*
 * The end of a task (Linux: kernel/exit.c). do_exit gives back what the
 * task held (its mm, its files), hands its own children to the reaper,
 * tells its parent (exit_signal, normally SIGCHLD) and leaves it a zombie
 * holding only its exit status; it switches away for good. The parent's
 * wait4 (or the kernel's kernel_wait) reaps it: release_task frees the
 * task and its kernel stack, which nothing runs on any more. A parent
 * that ignores SIGCHLD (SIG_IGN or SA_NOCLDWAIT) never sees a zombie: the
 * child is freed once it is off the CPU (Linux's autoreap), as is an
 * orphan the kernel shell (pid 1, a kernel thread) inherits: it waits
 * only for the programs it starts. Example: a program's exit_group(3) is
 * do_exit(3 << 8); its parent's wait4 gets the pid and status 0x300.
 */
#include <arch.h>
#include <fs.h>
#include <kernel_stat.h>
#include <posix-timers.h>
#include <sched.h>
#include <syscalls.h>
#include <vm.h>

/* Linux: exit_mm. The mm goes at once (with the last user); the task
 * runs on the kernel's tables until its last switch. What getrusage
 * tells of it is kept. */
static void exit_mm(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	if (!mm)
		return;
	task->maxrss = (long)(get_mm_hiwater_rss(mm) * (PAGE_SIZE / 1024));
	task->min_flt = (long)mm->counters[MM_FAULTS];
	mm_release(task, mm);
	task->mm = NULL;
	if (task == current) {
		switch_mm(NULL);
		task->active_mm = NULL;
	}
	mmput(mm);
}

/* Linux: find_child_reaper. Orphans go to pid 1 (the kernel shell), or
 * to init_task where there is none (host tests). */
static struct task_struct *find_child_reaper(void)
{
	struct task_struct *init = find_task_by_vpid(1);

	return init && !(init->flags & PF_EXITING) ? init : &init_task;
}

/* Linux: do_notify_parent. @sig goes to @tsk's parent with CLD_EXITED or
 * CLD_KILLED, and a parent in wait4 wakes. Return: true if the parent
 * ignores SIGCHLD, so nobody will wait for @tsk (autoreap). */
static bool do_notify_parent(struct task_struct *tsk, int sig)
{
	struct task_struct *parent = tsk->real_parent;
	const struct k_sigaction *ka = &parent->sighand->action[SIGCHLD - 1];
	bool killed = !WIFEXITED(tsk->exit_code);
	struct kernel_siginfo info = {
		.si_signo = sig,
		.si_code = killed ? CLD_KILLED : CLD_EXITED,
		.sigchld = { .pid = tsk->pid,
			     .uid = tsk->cred.uid,
			     .status = killed ? WTERMSIG(tsk->exit_code)
					      : WEXITSTATUS(tsk->exit_code) },
	};
	bool autoreap = false;

	if (ka->handler == (uint64_t)SIG_IGN || (ka->flags & SA_NOCLDWAIT)) {
		autoreap = true;
		if (ka->handler == (uint64_t)SIG_IGN)
			sig = 0;
	}
	if (sig > 0 && sig <= _NSIG)
		send_signal(parent, sig, &info);
	wake_up(&parent->signal->wait_chldexit);
	return autoreap;
}

/* Linux: forget_original_parent and reparent_leader. Each child gets its
 * parent-death signal; a zombie among them tells its new parent at once.
 * Linux's init reaps every orphan; a kernel thread reaper would not, so
 * its orphans reap themselves (exit_signal -1, as a Linux thread's). */
static void forget_original_parent(struct task_struct *father)
{
	struct task_struct *reaper = find_child_reaper(), *p, *n;

	list_for_each_entry_safe(p, n, &father->children, sibling) {
		p->real_parent = reaper;
		list_move_tail(&p->sibling, &reaper->children);
		/* Linux: prctl(PR_SET_PDEATHSIG)'s signal, from the parent. */
		if (p->pdeath_signal && !p->exit_state)
			kill_pid_info(father, p->pid, p->pdeath_signal, SI_USER);
		if (reaper->flags & PF_KTHREAD)
			p->exit_signal = -1;
		if (p->exit_state == EXIT_ZOMBIE &&
		    (p->exit_signal < 0 || do_notify_parent(p, p->exit_signal))) {
			p->exit_state = EXIT_DEAD;
			release_task(p);
		}
	}
}

/* Linux: exit_notify. The parent learns of it in its wait; a parent
 * that waits for nobody lets it go once it is off the CPU. */
static void exit_notify(struct task_struct *tsk)
{
	forget_original_parent(tsk);
	tsk->exit_state = EXIT_ZOMBIE;
	if (tsk->exit_signal < 0 || do_notify_parent(tsk, tsk->exit_signal)) {
		/* Linux: release_task's __unhash_process at once, so a wait
		 * finds no such child; finish_task_switch frees it. */
		tsk->exit_state = EXIT_DEAD;
		list_del_init(&tsk->sibling);
		tsk->real_parent = NULL;
	}
}

void do_exit(int code)
{
	struct task_struct *tsk = current;

	if (tsk == &init_task)
		panic("attempted to kill the idle task");
	tsk->flags |= PF_EXITING;
	exit_mm(tsk);
	exit_files(tsk);
	/* Linux: with the group dead, its timers go (exit_itimers). */
	exit_itimer_real(tsk);
	exit_itimers(tsk);
	tsk->exit_code = code;
	arch_irq_save(); /* no wake-up between becoming a zombie and leaving */
	exit_notify(tsk);
	/* Linux: do_task_dead. */
	set_current_state(TASK_DEAD);
	schedule();
	panic("do_exit: a dead task ran again");
}

void release_task(struct task_struct *task)
{
	exit_files(task);
	exit_mm(task);
	free_task(task);
}

/* Linux: wait_task_zombie. What the child and its own reaped children
 * used becomes the parent's RUSAGE_CHILDREN; then it is freed. */
static int reap_zombie(struct task_struct *parent, struct task_struct *p, int *status,
		       struct rusage *ru)
{
	struct signal_struct *sig = parent->signal;
	int pid = p->pid;
	uint64_t ut, st;

	if (ru)
		getrusage(p, RUSAGE_BOTH, ru);
	task_cputime_adjusted(p, &ut, &st);
	sig->cutime += ut + p->signal->cutime;
	sig->cstime += st + p->signal->cstime;
	sig->cmin_flt += p->min_flt + p->signal->cmin_flt;
	sig->cmaxrss = MAX(sig->cmaxrss, MAX(p->maxrss, p->signal->cmaxrss));
	*status = p->exit_code;
	p->exit_state = EXIT_DEAD;
	release_task(p);
	return pid;
}

int kernel_wait(struct task_struct *task)
{
	int status;

	wait_event(current->signal->wait_chldexit, task->exit_state == EXIT_ZOMBIE);
	reap_zombie(current, task, &status, NULL);
	return status;
}

void reap_zombie_children(void)
{
	struct task_struct *p, *n;
	int status;

	list_for_each_entry_safe(p, n, &current->children, sibling)
		if (p->exit_state == EXIT_ZOMBIE)
			reap_zombie(current, p, &status, NULL);
}

/* --- wait4, waitid ------------------------------------------------------------------ */

#define P_ALL 0
#define P_PID 1
#define P_PGID 2
#define P_PIDFD 3

enum pid_type {
	PIDTYPE_ALL,
	PIDTYPE_PID,
	PIDTYPE_PGID
};

struct wait_opts {
	enum pid_type type;
	int id;		    /* the pid or group, for PIDTYPE_PID/PGID */
	unsigned int flags; /* W* */
	int status;	    /* the child's wait status */
	struct rusage *ru;  /* filled when not NULL */
};

/* Linux: eligible_pid and eligible_child. Without __WALL, a "clone"
 * child (one that tells its parent with another signal than SIGCHLD) is
 * waited for only with __WCLONE, and the others only without it. */
static bool eligible_child(const struct wait_opts *wo, const struct task_struct *p)
{
	if (wo->type == PIDTYPE_PID && p->pid != wo->id)
		return false;
	if (wo->type == PIDTYPE_PGID && p->pgid != wo->id)
		return false;
	if (!(wo->flags & __WALL) && ((p->exit_signal != SIGCHLD) ^ !!(wo->flags & __WCLONE)))
		return false;
	return true;
}

/* Linux: do_wait. Return: the reaped child's pid, 0 (WNOHANG and none
 * has exited), -ECHILD (no child it may wait for) or -ERESTARTSYS. */
static long do_wait(struct task_struct *tsk, struct wait_opts *wo)
{
	DEFINE_WAIT(wait);
	long ret;

	for (;;) {
		struct task_struct *p;
		bool any = false;

		prepare_to_wait(&tsk->signal->wait_chldexit, &wait, TASK_INTERRUPTIBLE);
		ret = 0;
		list_for_each_entry(p, &tsk->children, sibling) {
			if (p->exit_state == EXIT_DEAD || !eligible_child(wo, p))
				continue;
			any = true;
			/* Nothing stops or continues here: WUNTRACED and
			 * WCONTINUED never find anything. */
			if (p->exit_state != EXIT_ZOMBIE || !(wo->flags & WEXITED))
				continue;
			if (wo->flags & WNOWAIT) {
				wo->status = p->exit_code;
				if (wo->ru)
					getrusage(p, RUSAGE_BOTH, wo->ru);
				ret = p->pid;
			} else {
				ret = reap_zombie(tsk, p, &wo->status, wo->ru);
			}
			break;
		}
		if (!ret && !any)
			ret = -ECHILD;
		else if (!ret && !(wo->flags & WNOHANG) && signal_pending(tsk))
			ret = -ERESTARTSYS;
		if (ret || (wo->flags & WNOHANG))
			break;
		schedule();
	}
	finish_wait(&tsk->signal->wait_chldexit, &wait);
	return ret;
}

/* Linux: kernel_wait4's pid rules: > 0 that child, -1 any, 0 the
 * caller's process group, < -1 that group. */
long kernel_wait4(struct task_struct *tsk, int upid, int *status, int options, struct rusage *ru)
{
	struct wait_opts wo = { .flags = (unsigned int)options | WEXITED, .ru = ru };
	long ret;

	if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WNOTHREAD | __WCLONE | __WALL))
		return -EINVAL;
	/* Linux: -INT_MIN is not a group. */
	if (upid == INT32_MIN)
		return -ESRCH;
	if (upid == -1) {
		wo.type = PIDTYPE_ALL;
	} else if (upid < 0) {
		wo.type = PIDTYPE_PGID;
		wo.id = -upid;
	} else if (upid == 0) {
		wo.type = PIDTYPE_PGID;
		wo.id = tsk->pgid;
	} else {
		wo.type = PIDTYPE_PID;
		wo.id = upid;
	}
	ret = do_wait(tsk, &wo);
	if (ret > 0 && status)
		*status = wo.status;
	return ret;
}

SYSCALL_DEFINE4(wait4, int, upid, unsigned long, stat_addr, int, options, unsigned long, ru)
{
	struct rusage r;
	int status;
	long ret = kernel_wait4(task, upid, &status, options, ru ? &r : NULL);

	if (ret > 0 && stat_addr && copy_to_user(stat_addr, &status, sizeof(status)))
		return -EFAULT;
	if (ret > 0 && ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	return ret;
}

/* Linux: struct siginfo as waitid fills it (SIGCHLD's fields). */
struct waitid_info {
	int si_signo, si_errno, si_code, pad;
	int si_pid;
	unsigned int si_uid;
	int si_status;
	int rest[25];
};
_Static_assert(sizeof(struct waitid_info) == 128, "Linux's siginfo_t is 128 bytes");

/* Linux: kernel_waitid. WEXITED must be asked for (WSTOPPED and
 * WCONTINUED find nothing: nothing stops here); WNOWAIT leaves the zombie
 * to be waited for again. An empty WNOHANG wait clears the siginfo. */
SYSCALL_DEFINE5(waitid, int, which, int, upid, unsigned long, infop, int, options, unsigned long,
		ru)
{
	struct rusage r;
	struct wait_opts wo = { .flags = (unsigned int)options, .ru = ru ? &r : NULL };
	struct waitid_info info;
	long ret;
	int err;

	if (options & ~(WNOHANG | WNOWAIT | WEXITED | WUNTRACED | WCONTINUED | __WNOTHREAD |
			__WCLONE | __WALL))
		return -EINVAL;
	if (!(options & (WEXITED | WUNTRACED | WCONTINUED)))
		return -EINVAL;
	switch (which) {
	case P_ALL:
		wo.type = PIDTYPE_ALL;
		break;
	case P_PID:
		if (upid <= 0)
			return -EINVAL;
		wo.type = PIDTYPE_PID;
		wo.id = upid;
		break;
	case P_PGID:
		if (upid < 0)
			return -EINVAL;
		wo.type = PIDTYPE_PGID;
		wo.id = upid ? upid : task->pgid;
		break;
	case P_PIDFD: {
		struct task_struct *p;

		if (upid < 0)
			return -EINVAL;
		p = pidfd_get_task(task, upid, &err);
		if (!p)
			return err == -ESRCH ? -ECHILD : err;
		wo.type = PIDTYPE_PID;
		wo.id = p->pid;
		break;
	}
	default:
		return -EINVAL;
	}
	ret = do_wait(task, &wo);
	if (ret < 0)
		return ret;
	memset(&info, 0, sizeof(info));
	if (ret > 0) {
		bool killed = !WIFEXITED(wo.status);

		info.si_signo = SIGCHLD;
		info.si_code = killed ? CLD_KILLED : CLD_EXITED;
		info.si_pid = (int)ret;
		info.si_status = killed ? WTERMSIG(wo.status) : WEXITSTATUS(wo.status);
	}
	if (infop && copy_to_user(infop, &info, sizeof(info)))
		return -EFAULT;
	if (ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	return 0;
}
