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
#include <tty.h>
#include <vm.h>

/* Linux: exit_mm. The mm goes at once (with the last user); the task
 * runs on the kernel's tables until its last switch. What getrusage
 * tells of it is kept: the faults by the mm's last user, since the
 * counter is the mm's, not the thread's. */
static void exit_mm(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	if (!mm)
		return;
	task->maxrss = (long)(get_mm_hiwater_rss(mm) * (PAGE_SIZE / 1024));
	task->min_flt = mm->mm_users == 1 ? (long)mm->counters[MM_FAULTS] : 0;
	mm_release(task, mm);
	task->mm = NULL;
	if (task == current) {
		switch_mm(NULL);
		task->active_mm = NULL;
	}
	mmput(mm);
}

/* Linux: will_become_orphaned_pgrp. Children of init and zombies do not
 * count: a member counts when its parent is in the same session but
 * another group, the shell that would continue a stopped job. */
bool will_become_orphaned_pgrp(int pgid, const struct task_struct *ignored)
{
	struct task_struct *p;

	for_each_process(p)
	{
		const struct task_struct *parent = p->real_parent;

		if (p->pgid != pgid || p == ignored || (p->exit_state && thread_group_empty(p)) ||
		    !parent || parent->tgid == 1)
			continue;
		if (parent->pgid != pgid && parent->sid == p->sid)
			return false;
	}
	return true;
}

bool is_current_pgrp_orphaned(void)
{
	return will_become_orphaned_pgrp(current->pgid, NULL);
}

/* Linux: has_stopped_jobs. */
static bool has_stopped_jobs(int pgid)
{
	struct task_struct *p;

	for_each_process(p) if (p->pgid == pgid &&
				(p->signal->flags & SIGNAL_STOP_STOPPED)) return true;
	return false;
}

/*
 * Linux: kill_orphaned_pgrp (POSIX 3.2.2.2). When @tsk's leaving (or its
 * parent @parent's: NULL when the group of @tsk itself dies) orphans its
 * process group and a process of it is stopped, the group gets SIGHUP
 * then SIGCONT: nobody is left who could continue it.
 */
static void kill_orphaned_pgrp(struct task_struct *tsk, struct task_struct *parent)
{
	const struct task_struct *ignored = NULL;
	int pgid = tsk->pgid;

	if (!parent) {
		parent = tsk->real_parent;
		ignored = tsk;
	}
	if (parent && parent->pgid != pgid && parent->sid == tsk->sid &&
	    will_become_orphaned_pgrp(pgid, ignored) && has_stopped_jobs(pgid)) {
		kill_pgrp(NULL, pgid, SIGHUP, SI_KERNEL);
		kill_pgrp(NULL, pgid, SIGCONT, SI_KERNEL);
	}
}

/* Linux: find_child_reaper. Orphans go to pid 1 (the kernel shell, or
 * the init= program), or to init_task where there is none (host tests). */
static struct task_struct *find_child_reaper(void)
{
	struct task_struct *init = find_task_by_vpid(1);

	return init && !(init->flags & PF_EXITING) ? init : &init_task;
}

/* Linux: find_alive_thread. Another thread of the process, not exiting. */
static struct task_struct *find_alive_thread(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t) if (!(t->flags & PF_EXITING)) return t;
	return NULL;
}

/* Linux: the status wait reports: a group exit's, else the task's own. */
static int task_exit_status(const struct task_struct *p)
{
	return (p->signal->flags & SIGNAL_GROUP_EXIT) ? p->signal->group_exit_code : p->exit_code;
}

/* Linux: do_notify_parent. @sig goes to @tsk's parent's process with
 * CLD_EXITED or CLD_KILLED, and a parent in wait4 wakes. Return: true if
 * the parent ignores SIGCHLD, so nobody will wait for @tsk (autoreap). */
static bool do_notify_parent(struct task_struct *tsk, int sig)
{
	struct task_struct *parent = tsk->real_parent;
	const struct k_sigaction *ka = &parent->sighand->action[SIGCHLD - 1];
	int status = task_exit_status(tsk);
	bool killed = !WIFEXITED(status);
	struct kernel_siginfo info = {
		.si_signo = sig,
		.si_code = killed ? CLD_KILLED : CLD_EXITED,
		.sigchld = { .pid = tsk->tgid,
			     .uid = tsk->cred.uid,
			     .status = killed ? WTERMSIG(status) : WEXITSTATUS(status) },
	};
	bool autoreap = false;

	if (ka->handler == (uint64_t)SIG_IGN || (ka->flags & SA_NOCLDWAIT)) {
		autoreap = true;
		if (ka->handler == (uint64_t)SIG_IGN)
			sig = 0;
	}
	if (sig > 0 && sig <= _NSIG)
		group_send_signal(parent, sig, &info);
	wake_up(&parent->signal->wait_chldexit);
	return autoreap;
}

/* Linux: forget_original_parent, reparent_leader. Each child (and each of
 * its threads) gets the parent-death signal its thread asked for; the
 * children go to another live thread of the process, or else to pid 1; a
 * zombie among them tells its new parent at once. Linux's init reaps
 * every orphan; a kernel thread reaper would not, so its orphans reap
 * themselves (exit_signal -1, as a Linux thread's). */
static void forget_original_parent(struct task_struct *father)
{
	struct task_struct *reaper = find_alive_thread(father), *p, *n, *t;
	bool same_group = reaper != NULL;

	if (!reaper)
		reaper = find_child_reaper();
	list_for_each_entry_safe(p, n, &father->children, sibling) {
		for_each_thread(p, t)
		{
			t->real_parent = reaper;
			/* Linux: prctl(PR_SET_PDEATHSIG)'s signal: the parent
			 * thread is gone, even if its process lives on. */
			if (t->pdeath_signal && !t->exit_state)
				kill_pid_info(father, t->pid, t->pdeath_signal, SI_USER);
		}
		list_move_tail(&p->sibling, &reaper->children);
		if (same_group)
			continue;
		if (reaper->flags & PF_KTHREAD)
			p->exit_signal = -1;
		if (p->exit_state == EXIT_ZOMBIE && thread_group_empty(p) &&
		    (p->exit_signal < 0 || do_notify_parent(p, p->exit_signal))) {
			p->exit_state = EXIT_DEAD;
			release_task(p);
			continue;
		}
		kill_orphaned_pgrp(p, father);
	}
}

/* Linux: __exit_signal (what release_task does to the thread group). @tsk
 * leaves its process: what it used is kept in the signal_struct, and an
 * exec waiting for the other threads to go (de_thread) hears of it. */
void __exit_signal(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;

	sig->utime += tsk->utime;
	sig->stime += tsk->stime;
	sig->sum_sched_runtime += task_cputime_ns(tsk);
	sig->min_flt += tsk->min_flt;
	list_del_init(&tsk->thread_node);
	sig->nr_threads--;
	if (sig->curr_target == tsk)
		sig->curr_target = NULL;
	if (sig->notify_count > 0 && !--sig->notify_count)
		wake_up_process(sig->group_exec_task);
}

/* Linux: release_task's end for a thread: its process's leader, a zombie
 * waiting for its threads, tells its parent once the last one is gone
 * (and goes too if the parent waits for nobody). */
static void release_thread(struct task_struct *tsk)
{
	struct task_struct *leader = tsk->group_leader;

	__exit_signal(tsk);
	if (leader != tsk && thread_group_empty(leader) && leader->exit_state == EXIT_ZOMBIE &&
	    (leader->exit_signal < 0 || do_notify_parent(leader, leader->exit_signal))) {
		leader->exit_state = EXIT_DEAD;
		release_task(leader);
	}
}

/* Linux: exit_notify. The parent learns of it in its wait; a parent
 * that waits for nobody lets it go once it is off the CPU. A thread other
 * than the leader is never waited for; the leader waits, a zombie, for
 * its threads before its parent hears (delay_group_leader). */
static void exit_notify(struct task_struct *tsk, bool group_dead)
{
	bool autoreap;

	forget_original_parent(tsk);
	if (group_dead)
		kill_orphaned_pgrp(tsk->group_leader, NULL);
	tsk->exit_state = EXIT_ZOMBIE;
	if (thread_group_leader(tsk))
		autoreap = thread_group_empty(tsk) &&
			   (tsk->exit_signal < 0 || do_notify_parent(tsk, tsk->exit_signal));
	else
		autoreap = true;
	if (autoreap) {
		/* Linux: release_task's __unhash_process at once, so a wait
		 * finds no such child; finish_task_switch frees it. */
		tsk->exit_state = EXIT_DEAD;
		if (thread_group_leader(tsk)) {
			list_del_init(&tsk->sibling);
			tsk->real_parent = NULL;
		}
		release_thread(tsk);
	}
	/* Linux: de_thread waits for the old leader to be a zombie. */
	if (tsk->signal->notify_count < 0 && tsk->signal->group_exec_task)
		wake_up_process(tsk->signal->group_exec_task);
}

void do_exit(int code)
{
	struct task_struct *tsk = current;
	bool group_dead;

	if (tsk == &init_task)
		panic("attempted to kill the idle task");
	tsk->flags |= PF_EXITING;
	group_dead = !--tsk->signal->live;
	exit_mm(tsk);
	exit_files(tsk);
	/* Linux: disassociate_ctty(1): a session leader's end hangs up its
	 * controlling tty. */
	if (group_dead)
		disassociate_ctty(1);
	/* Linux: with the group dead, its timers go (exit_itimers); a
	 * thread alone only stops being a SIGEV_THREAD_ID target. */
	if (group_dead) {
		exit_itimer_real(tsk);
		exit_itimers(tsk);
	} else {
		exit_thread_timers(tsk);
	}
	tsk->exit_code = code;
	arch_irq_save(); /* no wake-up between becoming a zombie and leaving */
	exit_notify(tsk, group_dead);
	/* Linux: do_task_dead. */
	set_current_state(TASK_DEAD);
	schedule();
	panic("do_exit: a dead task ran again");
}

/* Linux: zap_other_threads. Every other thread of @p's process gets
 * SIGKILL. Return: how many are still alive to see it. */
int zap_other_threads(struct task_struct *p)
{
	struct task_struct *t;
	int count = 0;

	p->signal->group_stop_count = 0;
	for_each_thread(p, t)
	{
		if (t == p)
			continue;
		t->jobctl &= ~(JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME);
		if (t->exit_state)
			continue;
		count++;
		t->signals.pending.signal |= sigmask(SIGKILL);
		try_to_wake_up(t, TASK_INTERRUPTIBLE | TASK_WAKEKILL);
	}
	return count;
}

void do_group_exit(int code)
{
	struct signal_struct *sig = current->signal;

	if (sig->flags & SIGNAL_GROUP_EXIT) {
		code = sig->group_exit_code;
	} else if (sig->group_exec_task) {
		code = 0;
	} else if (!thread_group_empty(current)) {
		sig->group_exit_code = code;
		sig->flags = SIGNAL_GROUP_EXIT;
		zap_other_threads(current);
	}
	do_exit(code);
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
	int pid = p->tgid;
	uint64_t ut, st;

	if (ru)
		getrusage(p, RUSAGE_BOTH, ru);
	thread_group_cputime_adjusted(p, &ut, &st);
	sig->cutime += ut + p->signal->cutime;
	sig->cstime += st + p->signal->cstime;
	sig->cmin_flt += p->min_flt + p->signal->min_flt + p->signal->cmin_flt;
	sig->cmaxrss = MAX(sig->cmaxrss, MAX(p->maxrss, p->signal->cmaxrss));
	*status = task_exit_status(p);
	p->exit_state = EXIT_DEAD;
	release_task(p);
	return pid;
}

int kernel_wait(struct task_struct *task)
{
	int status;

	wait_event(current->signal->wait_chldexit,
		   task->exit_state == EXIT_ZOMBIE && thread_group_empty(task));
	reap_zombie(current, task, &status, NULL);
	return status;
}

/* The condition is wait_consider_task's for this child, so a wait4 that
 * finds nothing means the child moved on between the two (SIGCONT, a
 * SIGKILL): wait again. */
int kernel_wait_untraced(struct task_struct *task)
{
	int pid = task->tgid, status;
	struct signal_struct *sig = task->signal;

	for (;;) {
		wait_event(current->signal->wait_chldexit,
			   (task->exit_state == EXIT_ZOMBIE && thread_group_empty(task)) ||
				   ((sig->flags & SIGNAL_STOP_STOPPED) && sig->group_exit_code &&
				    !(sig->flags & SIGNAL_GROUP_EXIT)));
		if (kernel_wait4(current, pid, &status, WNOHANG | WUNTRACED | __WALL, NULL) == pid)
			return status;
	}
}

void reap_zombie_children(void)
{
	struct task_struct *p, *n;
	int status;

	list_for_each_entry_safe(p, n, &current->children, sibling)
		if (p->exit_state == EXIT_ZOMBIE && thread_group_empty(p))
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
	int why;	    /* CLD_EXITED, CLD_KILLED, CLD_STOPPED or CLD_CONTINUED */
	struct rusage *ru;  /* filled when not NULL */
};

/* Linux: eligible_pid and eligible_child. Without __WALL, a "clone"
 * child (one that tells its parent with another signal than SIGCHLD) is
 * waited for only with __WCLONE, and the others only without it. */
static bool eligible_child(const struct wait_opts *wo, const struct task_struct *p)
{
	if (wo->type == PIDTYPE_PID && p->tgid != wo->id)
		return false;
	if (wo->type == PIDTYPE_PGID && p->pgid != wo->id)
		return false;
	if (!(wo->flags & __WALL) && ((p->exit_signal != SIGCHLD) ^ !!(wo->flags & __WCLONE)))
		return false;
	return true;
}

/* Linux: wait_task_stopped (not traced). A stopped child whose stop its
 * parent has not yet seen: status (sig << 8) | 0x7f, the stop consumed
 * unless WNOWAIT. Return: its pid, or 0. */
static int wait_task_stopped(struct wait_opts *wo, struct task_struct *p)
{
	struct signal_struct *sig = p->signal;
	int code = sig->group_exit_code;

	if (!(wo->flags & WUNTRACED) || !(sig->flags & SIGNAL_STOP_STOPPED) || !code ||
	    (sig->flags & SIGNAL_GROUP_EXIT))
		return 0;
	if (!(wo->flags & WNOWAIT))
		sig->group_exit_code = 0;
	wo->status = (code << 8) | 0x7f;
	wo->why = CLD_STOPPED;
	if (wo->ru)
		getrusage(p, RUSAGE_BOTH, wo->ru);
	return p->tgid;
}

/* Linux: wait_task_continued. A child continued since the parent last
 * looked: status 0xffff (WIFCONTINUED). */
static int wait_task_continued(struct wait_opts *wo, struct task_struct *p)
{
	struct signal_struct *sig = p->signal;

	if (!(wo->flags & WCONTINUED) || !(sig->flags & SIGNAL_STOP_CONTINUED))
		return 0;
	if (!(wo->flags & WNOWAIT))
		sig->flags &= ~SIGNAL_STOP_CONTINUED;
	wo->status = 0xffff;
	wo->why = CLD_CONTINUED;
	if (wo->ru)
		getrusage(p, RUSAGE_BOTH, wo->ru);
	return p->tgid;
}

/* Linux: wait_consider_task. Return: the pid reported, 0 if nothing
 * about @p is to be reported yet. */
static int wait_consider_task(struct task_struct *tsk, struct wait_opts *wo, struct task_struct *p)
{
	int ret;

	/* Linux: delay_group_leader. The zombie leader of threads still
	 * running is not reaped until they are gone. */
	if (p->exit_state == EXIT_ZOMBIE && thread_group_empty(p)) {
		if (!(wo->flags & WEXITED))
			return 0;
		wo->why = WIFEXITED(task_exit_status(p)) ? CLD_EXITED : CLD_KILLED;
		if (wo->flags & WNOWAIT) {
			wo->status = task_exit_status(p);
			if (wo->ru)
				getrusage(p, RUSAGE_BOTH, wo->ru);
			return p->tgid;
		}
		return reap_zombie(tsk, p, &wo->status, wo->ru);
	}
	ret = wait_task_stopped(wo, p);
	return ret ? ret : wait_task_continued(wo, p);
}

/* Linux: do_wait. The children of every thread of the caller's process
 * (of the caller alone with __WNOTHREAD). Return: the reported child's
 * pid, 0 (WNOHANG and none is ready), -ECHILD (no child it may wait for)
 * or -ERESTARTSYS. */
static long do_wait(struct task_struct *tsk, struct wait_opts *wo)
{
	DEFINE_WAIT(wait);
	long ret;

	for (;;) {
		struct task_struct *p, *t;
		bool any = false;

		prepare_to_wait(&tsk->signal->wait_chldexit, &wait, TASK_INTERRUPTIBLE);
		ret = 0;
		for_each_thread(tsk, t)
		{
			if ((wo->flags & __WNOTHREAD) && t != tsk)
				continue;
			list_for_each_entry(p, &t->children, sibling) {
				if (p->exit_state == EXIT_DEAD || !eligible_child(wo, p))
					continue;
				any = true;
				ret = wait_consider_task(tsk, wo, p);
				if (ret)
					break;
			}
			if (ret)
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

/* Linux: kernel_waitid. One of WEXITED, WSTOPPED and WCONTINUED must be
 * asked for; WNOWAIT leaves the zombie
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
		info.si_signo = SIGCHLD;
		info.si_code = wo.why;
		info.si_pid = (int)ret;
		/* Linux: the exit code, or the signal that killed, stopped
		 * or continued it. */
		info.si_status = wo.why == CLD_EXITED	 ? WEXITSTATUS(wo.status)
				 : wo.why == CLD_KILLED	 ? WTERMSIG(wo.status)
				 : wo.why == CLD_STOPPED ? (wo.status >> 8) & 0x7f
							 : SIGCONT;
	}
	if (infop && copy_to_user(infop, &info, sizeof(info)))
		return -EFAULT;
	if (ru && copy_to_user(ru, &r, sizeof(r)))
		return -EFAULT;
	return 0;
}
