/*
 * Signals, the generic half (Linux: kernel/signal.c): the system calls
 * rt_sigaction, rt_sigprocmask, rt_sigpending, sigaltstack, kill, tkill,
 * tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo, rt_sigtimedwait; sending
 * (a thread's own queue for tkill and faults, the process's shared one
 * for kill, each instance with its siginfo: standard signals merge,
 * real-time ones queue); the choice of the thread that takes a process's
 * signal (complete_signal); the group exit of a fatal signal; the group
 * stop of SIGSTOP/SIGTSTP/SIGTTIN/SIGTTOU and SIGCONT's continue; the
 * choice at each return to ring 3 (get_signal). Example: a process of 4
 * threads, 3 of which block SIGUSR1: kill(pid, SIGUSR1) queues it on the
 * shared list and wakes the fourth, whose handler runs; with SIG_DFL
 * instead, every thread gets SIGKILL and wait4 reports "killed by
 * SIGUSR1".
 */
#include <arch.h>
#include <errno.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

#define SIG_KERNEL_ONLY_MASK (sigmask(SIGKILL) | sigmask(SIGSTOP))
/* Linux: SYNCHRONOUS_MASK, dequeued before any other signal. */
#define SYNCHRONOUS_MASK                                                           \
	(sigmask(SIGSEGV) | sigmask(SIGBUS) | sigmask(SIGILL) | sigmask(SIGTRAP) | \
	 sigmask(SIGFPE) | sigmask(SIGSYS))
#define SIG_KERNEL_IGNORE_MASK \
	(sigmask(SIGCONT) | sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG))
#define SIG_KERNEL_STOP_MASK \
	(sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

static struct k_sigaction *sig_action(struct task_struct *t, int sig)
{
	return &t->sighand->action[sig - 1];
}

bool sig_kernel_ignore(int sig)
{
	return sig >= 1 && sig <= 32 && (SIG_KERNEL_IGNORE_MASK & sigmask(sig));
}

bool sig_kernel_stop(int sig)
{
	return sig >= 1 && sig <= 32 && (SIG_KERNEL_STOP_MASK & sigmask(sig));
}

/* Linux: sig_kernel_only. The two a handler cannot take. */
static bool sig_kernel_only(int sig)
{
	return sig == SIGKILL || sig == SIGSTOP;
}

/* Linux: sig_handler_ignored. */
static bool sig_handler_ignored(uint64_t handler, int sig)
{
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

/* Linux: sig_task_ignored / sig_ignored. The signal would do nothing if
 * delivered now; a blocked one is kept (the handler may change before it
 * is unblocked). */
static bool sig_ignored(struct task_struct *t, int sig)
{
	uint64_t handler = sig_action(t, sig)->handler;

	if (t->signals.blocked & sigmask(sig))
		return false;
	/* Linux: sig_task_ignored's SIGNAL_UNKILLABLE rule; force_sig_info
	 * lifts it for the signal of a fault. */
	if ((t->signal->flags & SIGNAL_UNKILLABLE) && handler == SIG_DFL)
		return true;
	return sig_handler_ignored(handler, sig);
}

/* Linux: sig_fatal. With its default action the signal ends the process. */
static bool sig_fatal(struct task_struct *t, int sig)
{
	return !sig_kernel_ignore(sig) && !sig_kernel_stop(sig) &&
	       sig_action(t, sig)->handler == SIG_DFL;
}

/* --- the queues ------------------------------------------------------------ */

void init_sigpending(struct sigpending *pending)
{
	INIT_LIST_HEAD(&pending->list);
	pending->signal = 0;
}

/*
 * Linux: __sigqueue_alloc. An instance charged to the receiver's real
 * uid: a real-time signal past RLIMIT_SIGPENDING is refused (NULL), a
 * standard one always gets its siginfo (@override_rlimit).
 */
static struct sigqueue *sigqueue_alloc(struct task_struct *t, bool override_rlimit)
{
	struct ucounts *uc = t->cred.ucounts;
	struct sigqueue *q;

	if (!override_rlimit && (uint64_t)uc->sigpending >= task_rlimit(t, RLIMIT_SIGPENDING))
		return NULL;
	q = kmalloc(sizeof(*q), GFP_ATOMIC);
	if (!q)
		return NULL;
	INIT_LIST_HEAD(&q->list);
	q->flags = 0;
	q->ucounts = uc;
	uc->count++;
	uc->sigpending++;
	return q;
}

/* Linux: __sigqueue_free. A preallocated one (a POSIX timer's) stays
 * with its owner. */
static void sigqueue_free(struct sigqueue *q)
{
	if (q->flags & SIGQUEUE_PREALLOC)
		return;
	q->ucounts->sigpending--;
	put_ucounts(q->ucounts);
	kfree(q);
}

/* Linux: flush_sigqueue_mask. Drop every instance of @mask's signals. */
static void flush_sigqueue_mask(sigset_t mask, struct sigpending *pending)
{
	struct sigqueue *q, *n;

	if (!(pending->signal & mask))
		return;
	pending->signal &= ~mask;
	list_for_each_entry_safe(q, n, &pending->list, list) {
		if (mask & sigmask(q->info.si_signo)) {
			list_del_init(&q->list);
			sigqueue_free(q);
		}
	}
}

void flush_sigqueue(struct sigpending *pending)
{
	flush_sigqueue_mask(~0ull, pending);
}

/* Linux: flush_signals. */
void flush_signals(struct task_struct *t)
{
	flush_sigqueue(&t->signals.pending);
	flush_sigqueue(&t->signal->shared_pending);
}

/* Linux: signalfd_notify. A signal is being queued for @t: its signalfd
 * readers and pollers look again. */
static void signalfd_notify(struct task_struct *t)
{
	if (!list_empty(&t->sighand->signalfd_wqh.head))
		wake_up(&t->sighand->signalfd_wqh);
}

/* Linux: collect_signal. Take the first instance of @sig; the bit stays
 * while another is queued. A bit without an instance had its siginfo
 * lost: it reads as SI_USER from nobody. */
static void collect_signal(int sig, struct sigpending *list, struct kernel_siginfo *info)
{
	struct sigqueue *q, *first = NULL;
	bool more = false;

	list_for_each_entry(q, &list->list, list) {
		if (q->info.si_signo != sig)
			continue;
		if (first) {
			more = true;
			break;
		}
		first = q;
	}
	if (!more)
		list->signal &= ~sigmask(sig);
	if (first) {
		list_del_init(&first->list);
		*info = first->info;
		sigqueue_free(first);
	} else {
		*info = (struct kernel_siginfo){ .si_signo = sig, .si_code = SI_USER };
	}
}

/* Linux: next_signal. Return: the signal of @pending to dequeue first
 * that @mask does not block, 0 if none. */
static int next_signal(const struct sigpending *pending, sigset_t mask)
{
	sigset_t ready = pending->signal & ~mask;

	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return ready ? __builtin_ctzll(ready) + 1 : 0;
}

int peek_signal(const struct task_struct *t, sigset_t mask)
{
	int sig = next_signal(&t->signals.pending, mask);

	return sig ? sig : next_signal(&t->signal->shared_pending, mask);
}

/* Linux: dequeue_signal. The thread's own first, then the process's. */
int dequeue_signal(struct task_struct *t, sigset_t mask, struct kernel_siginfo *info)
{
	struct sigpending *pending = &t->signals.pending;
	int sig = next_signal(pending, mask);

	if (!sig) {
		pending = &t->signal->shared_pending;
		sig = next_signal(pending, mask);
	}
	if (!sig)
		return 0;
	collect_signal(sig, pending, info);
	/* Linux: a stop signal dequeued may start a group stop, unless a
	 * SIGCONT comes in between (prepare_signal clears the bit). */
	if (sig_kernel_stop(sig))
		t->jobctl |= JOBCTL_STOP_DEQUEUED;
	return sig;
}

/* --- sending ----------------------------------------------------------------- */

/* Linux: signal_wake_up. An interruptible sleep ends so the signal can be
 * delivered; a fatal one also ends a killable sleep and a stop. */
static void signal_wake_up(struct task_struct *t, bool fatal)
{
	try_to_wake_up(t, TASK_INTERRUPTIBLE | (fatal ? TASK_WAKEKILL : 0));
}

/* Linux: task_clear_jobctl_pending. */
static void task_clear_jobctl_pending(struct task_struct *t, unsigned int mask)
{
	if (mask & JOBCTL_STOP_PENDING)
		mask |= JOBCTL_STOP_CONSUME | JOBCTL_STOP_DEQUEUED;
	t->jobctl &= ~mask;
}

/* Linux: signal_set_stop_flags. */
static void signal_set_stop_flags(struct signal_struct *sig, unsigned int flags)
{
	sig->flags =
		(sig->flags & ~(SIGNAL_STOP_STOPPED | SIGNAL_STOP_CONTINUED | SIGNAL_CLD_MASK)) |
		flags;
}

/*
 * Linux: prepare_signal. A dying process takes nothing more; a stop
 * signal cancels a pending SIGCONT and SIGCONT cancels pending stops,
 * wakes every stopped thread and leaves the parent a CLD_CONTINUED (or
 * CLD_STOPPED for a stop it interrupted) to hear of. Return: false when
 * the signal is to be dropped.
 */
static bool prepare_signal(int sig, struct task_struct *p)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t;

	if (signal->flags & SIGNAL_GROUP_EXIT)
		return false;
	if (sig_kernel_stop(sig)) {
		flush_sigqueue_mask(sigmask(SIGCONT), &signal->shared_pending);
		for_each_thread(p, t) flush_sigqueue_mask(sigmask(SIGCONT), &t->signals.pending);
	} else if (sig == SIGCONT) {
		unsigned int why = 0;

		flush_sigqueue_mask(SIG_KERNEL_STOP_MASK, &signal->shared_pending);
		for_each_thread(p, t)
		{
			flush_sigqueue_mask(SIG_KERNEL_STOP_MASK, &t->signals.pending);
			task_clear_jobctl_pending(t, JOBCTL_STOP_PENDING);
			try_to_wake_up(t, __TASK_STOPPED);
		}
		if (signal->flags & SIGNAL_STOP_STOPPED)
			why = SIGNAL_CLD_CONTINUED;
		else if (signal->group_stop_count)
			why = SIGNAL_CLD_STOPPED;
		if (why) {
			signal_set_stop_flags(signal, why | SIGNAL_STOP_CONTINUED);
			signal->group_stop_count = 0;
			signal->group_exit_code = 0;
		}
	}
	return !sig_ignored(p, sig);
}

/* Linux: wants_signal. A thread that may take @sig now. */
static bool wants_signal(int sig, const struct task_struct *p)
{
	if (p->signals.blocked & sigmask(sig))
		return false;
	if (p->flags & PF_EXITING)
		return false;
	if (sig == SIGKILL)
		return true;
	return !(p->__state & __TASK_STOPPED);
}

/* Linux: next_thread, in the group's circular list. */
static struct task_struct *next_thread(const struct task_struct *p)
{
	struct list_head *n = p->thread_node.next;

	if (n == &p->signal->thread_head)
		n = n->next;
	return list_entry(n, struct task_struct, thread_node);
}

/*
 * Linux: complete_signal. Pick the thread that takes the signal: the
 * target if it does not block it, else (a process-directed one) the next
 * thread that does not, round-robin from curr_target. A fatal signal for
 * a process not already dying ends the whole group at once: every thread
 * gets SIGKILL (no core files are written here, so core-dumping signals
 * take this path too; the status tells the signal).
 */
static void complete_signal(int sig, struct task_struct *p, bool group)
{
	struct signal_struct *signal = p->signal;
	struct task_struct *t;

	if (wants_signal(sig, p)) {
		t = p;
	} else if (!group || thread_group_empty(p)) {
		return;
	} else {
		t = signal->curr_target ? signal->curr_target : p;
		while (!wants_signal(sig, t)) {
			t = next_thread(t);
			if (t == (signal->curr_target ? signal->curr_target : p))
				return; /* every thread blocks it: it waits */
		}
		signal->curr_target = t;
	}
	if (sig_fatal(p, sig) && !(signal->flags & SIGNAL_GROUP_EXIT) &&
	    !(t->signals.blocked & sigmask(sig)) && !(p->flags & PF_KTHREAD)) {
		signal->flags = SIGNAL_GROUP_EXIT;
		signal->group_exit_code = sig;
		signal->group_stop_count = 0;
		for_each_thread(p, t)
		{
			task_clear_jobctl_pending(t, JOBCTL_PENDING_MASK);
			t->signals.pending.signal |= sigmask(SIGKILL);
			signal_wake_up(t, true);
		}
		return;
	}
	signal_wake_up(t, sig == SIGKILL);
}

/*
 * Linux: __send_signal_locked. A standard signal already pending is
 * merged into it (legacy_queue); a real-time one queues another instance.
 * The siginfo is queued unless no memory or (for a real-time signal)
 * RLIMIT_SIGPENDING says no: then a sigqueue()'d one fails with -EAGAIN
 * and any other is kept as a bare bit.
 */
static int __send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info,
			 bool group)
{
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->signals.pending;
	struct sigqueue *q;
	bool override_rlimit;

	if (!prepare_signal(sig, t))
		return 0;
	if (sig < SIGRTMIN && (pending->signal & sigmask(sig)))
		return 0;
	/* Linux: SIGKILL and kernel threads need no siginfo. */
	if (sig == SIGKILL || (t->flags & PF_KTHREAD))
		goto out_set;
	override_rlimit = sig < SIGRTMIN && (!info || info->si_code >= 0);
	q = sigqueue_alloc(t, override_rlimit);
	if (q) {
		if (info)
			q->info = *info;
		else
			q->info = (struct kernel_siginfo){ .si_code = SI_KERNEL };
		q->info.si_signo = sig;
		list_add_tail(&q->list, &pending->list);
	} else if (sig >= SIGRTMIN && info && info->si_code < 0) {
		return -EAGAIN; /* Linux: the queue overflowed for sigqueue() */
	}
out_set:
	signalfd_notify(t);
	pending->signal |= sigmask(sig);
	complete_signal(sig, t, group);
	return 0;
}

int send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info)
{
	unsigned long flags;
	int ret;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	flags = arch_irq_save();
	ret = __send_signal(t, sig, info, false);
	arch_irq_restore(flags);
	return ret;
}

int group_send_signal(struct task_struct *p, int sig, const struct kernel_siginfo *info)
{
	unsigned long flags;
	int ret;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	flags = arch_irq_save();
	ret = __send_signal(p, sig, info, true);
	arch_irq_restore(flags);
	return ret;
}

bool send_sigqueue(struct sigqueue *q, struct task_struct *t, bool group)
{
	int sig = q->info.si_signo;
	struct sigpending *pending = group ? &t->signal->shared_pending : &t->signals.pending;
	unsigned long flags = arch_irq_save();

	if (!list_empty(&q->list)) {
		arch_irq_restore(flags);
		return false;
	}
	if (prepare_signal(sig, t)) {
		signalfd_notify(t);
		list_add_tail(&q->list, &pending->list);
		pending->signal |= sigmask(sig);
		complete_signal(sig, t, group);
	}
	arch_irq_restore(flags);
	return true;
}

/* Take @q off @pending if it is there. Return: true if it was. */
static bool sigqueue_unlink(struct sigqueue *q, struct sigpending *pending)
{
	int sig = q->info.si_signo;
	struct sigqueue *other;

	list_for_each_entry(other, &pending->list, list) {
		if (other != q)
			continue;
		list_del_init(&q->list);
		list_for_each_entry(other, &pending->list, list)
			if (other->info.si_signo == sig)
				return true;
		pending->signal &= ~sigmask(sig);
		return true;
	}
	return false;
}

void sigqueue_cancel(struct sigqueue *q, struct task_struct *t)
{
	unsigned long flags = arch_irq_save();

	if (!list_empty(&q->list) && !sigqueue_unlink(q, &t->signal->shared_pending)) {
		struct task_struct *th;

		for_each_thread(t, th) if (sigqueue_unlink(q, &th->signals.pending)) break;
	}
	arch_irq_restore(flags);
}

/* Linux: force_sig_info_to_task. */
static void force_sig_info(struct task_struct *t, const struct kernel_siginfo *info)
{
	int sig = info->si_signo;
	struct k_sigaction *ka = sig_action(t, sig);
	bool blocked = t->signals.blocked & sigmask(sig);

	if (blocked || ka->handler == SIG_IGN) {
		ka->handler = SIG_DFL;
		t->signals.blocked &= ~sigmask(sig);
	}
	/* Linux: a fault's signal with its default action ends even init. */
	if (ka->handler == SIG_DFL)
		t->signal->flags &= ~SIGNAL_UNKILLABLE;
	send_signal(t, sig, info);
}

void force_sig_fault(struct task_struct *t, int sig, int code, uint64_t addr)
{
	struct kernel_siginfo info = { .si_signo = sig, .si_code = code, .addr = addr };

	force_sig_info(t, &info);
}

void force_sigsegv(struct task_struct *t)
{
	struct kernel_siginfo info = { .si_signo = SIGSEGV, .si_code = SI_KERNEL };

	sig_action(t, SIGSEGV)->handler = SIG_DFL;
	force_sig_info(t, &info);
}

bool unhandled_signal(const struct task_struct *t, int sig)
{
	uint64_t handler = t->sighand->action[sig - 1].handler;

	return handler == SIG_DFL || handler == SIG_IGN || (t->signals.blocked & sigmask(sig));
}

/* --- stopping and continuing ---------------------------------------------- */

/*
 * Linux: do_notify_parent_cldstop. The parent hears CLD_STOPPED or
 * CLD_CONTINUED through SIGCHLD, unless it ignores SIGCHLD or asked for
 * SA_NOCLDSTOP; its wait4 with WUNTRACED or WCONTINUED wakes either way.
 */
static void do_notify_parent_cldstop(struct task_struct *tsk, int why)
{
	struct task_struct *leader = tsk->group_leader, *parent = leader->real_parent;
	struct kernel_siginfo info = {
		.si_signo = SIGCHLD,
		.si_code = why,
		.sigchld = { .pid = leader->tgid,
			     .uid = tsk->cred.uid,
			     .status = why == CLD_CONTINUED ? SIGCONT
							    : tsk->signal->group_exit_code & 0x7f },
	};
	const struct k_sigaction *ka;

	if (!parent)
		return;
	ka = &parent->sighand->action[SIGCHLD - 1];
	if (ka->handler != SIG_IGN && !(ka->flags & SA_NOCLDSTOP))
		group_send_signal(parent, SIGCHLD, &info);
	wake_up(&parent->signal->wait_chldexit);
}

/* Linux: task_participate_group_stop. Return: true if @t completed the
 * group stop, so the parent is to hear of it. */
static bool task_participate_group_stop(struct task_struct *t)
{
	struct signal_struct *sig = t->signal;
	bool consume = t->jobctl & JOBCTL_STOP_CONSUME;

	task_clear_jobctl_pending(t, JOBCTL_STOP_PENDING);
	if (!consume)
		return false;
	if (sig->group_stop_count)
		sig->group_stop_count--;
	if (!sig->group_stop_count && !(sig->flags & SIGNAL_STOP_STOPPED)) {
		signal_set_stop_flags(sig, SIGNAL_STOP_STOPPED);
		return true;
	}
	return false;
}

/*
 * Linux: do_signal_stop. The first thread to dequeue a stop signal starts
 * the group stop: every other thread is asked to stop too (JOBCTL_STOP_
 * PENDING wakes it to its next get_signal); each stops in TASK_STOPPED,
 * and the last one tells the parent. SIGCONT (prepare_signal) or SIGKILL
 * wakes them. Return: false when no stop is to happen (a group exit or
 * exec is under way, or a SIGCONT came since the dequeue).
 */
static bool do_signal_stop(struct task_struct *tsk, int signr)
{
	struct signal_struct *sig = tsk->signal;
	unsigned long flags = arch_irq_save();
	bool notify;

	if (!(tsk->jobctl & JOBCTL_STOP_PENDING)) {
		struct task_struct *t;

		if (!(tsk->jobctl & JOBCTL_STOP_DEQUEUED) || (sig->flags & SIGNAL_GROUP_EXIT) ||
		    sig->group_exec_task) {
			arch_irq_restore(flags);
			return false;
		}
		if (!(sig->flags & SIGNAL_STOP_STOPPED))
			sig->group_exit_code = signr;
		sig->group_stop_count = 0;
		for_each_thread(tsk, t)
		{
			if (t != tsk && ((t->__state & __TASK_STOPPED) || t->exit_state ||
					 (t->flags & PF_EXITING)))
				continue;
			t->jobctl |= JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME;
			sig->group_stop_count++;
			if (t != tsk)
				signal_wake_up(t, false);
		}
	}
	notify = task_participate_group_stop(tsk);
	set_current_state(TASK_STOPPED);
	if (notify)
		do_notify_parent_cldstop(tsk, CLD_STOPPED);
	arch_irq_restore(flags);
	schedule();
	return true;
}

/*
 * Linux: get_signal's choice, without acting on a fatal one (get_signal
 * does). Return: sig > 0 with @ks filled for a handler (SA_RESETHAND
 * applied), -sig for a signal that ends the process (a group exit under
 * way gives its signal or exit status through group_exit_code), 0 if
 * nothing is to be delivered. A stop signal stops here (do_signal_stop)
 * and the loop goes on after the SIGCONT.
 */
int signal_next_action(struct task_struct *t, struct ksignal *ks)
{
	struct signal_struct *signal = t->signal;

	for (;;) {
		struct k_sigaction *ka;
		int sig;

		/* Linux: the CLD_STOPPED/CONTINUED a SIGCONT left to tell. */
		if (signal->flags & SIGNAL_CLD_MASK) {
			int why =
				signal->flags & SIGNAL_CLD_CONTINUED ? CLD_CONTINUED : CLD_STOPPED;

			signal->flags &= ~SIGNAL_CLD_MASK;
			do_notify_parent_cldstop(t, why);
		}
		if ((signal->flags & SIGNAL_GROUP_EXIT) || signal->group_exec_task) {
			t->signals.pending.signal &= ~sigmask(SIGKILL);
			return -SIGKILL;
		}
		if ((t->jobctl & JOBCTL_STOP_PENDING) && do_signal_stop(t, 0))
			continue;
		sig = dequeue_signal(t, t->signals.blocked, &ks->info);
		if (!sig)
			return 0;
		ka = sig_action(t, sig);
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler != SIG_DFL) {
			ks->sig = sig;
			ks->ka = *ka;
			if (ka->flags & SA_RESETHAND)
				ka->handler = SIG_DFL;
			return sig;
		}
		if (sig_kernel_ignore(sig))
			continue;
		/* Linux: "Global init gets no signals it doesn't want" (one
		 * that was blocked when it came). */
		if ((t->signal->flags & SIGNAL_UNKILLABLE) && !sig_kernel_only(sig))
			continue;
		if (sig_kernel_stop(sig)) {
			/* Linux: a terminal stop signal to an orphaned
			 * process group is dropped: nobody would continue it. */
			if (sig != SIGSTOP && will_become_orphaned_pgrp(t->pgid, NULL))
				continue;
			do_signal_stop(t, sig);
			continue;
		}
		return -sig; /* terminate (and "core": no core files here) */
	}
}

bool get_signal(struct task_struct *t, struct ksignal *ks)
{
	int sig = signal_next_action(t, ks);

	if (sig < 0) {
		/* Linux: do_group_exit(ksig->info.si_signo); a group exit
		 * already under way keeps its own status. */
		do_group_exit(-sig == SIGKILL && (t->signal->flags & SIGNAL_GROUP_EXIT)
				      ? t->signal->group_exit_code
				      : -sig);
	}
	return sig > 0;
}

void set_current_blocked(struct task_struct *t, sigset_t set)
{
	t->signals.blocked = set & ~SIG_KERNEL_ONLY_MASK;
	/* Linux: retarget_shared_pending. What this thread now blocks of the
	 * process's pending set goes to a thread that does not. */
	if (!thread_group_empty(t)) {
		sigset_t retarget = t->signal->shared_pending.signal & set;

		while (retarget) {
			int sig = __builtin_ctzll(retarget) + 1;

			retarget &= retarget - 1;
			complete_signal(sig, t, true);
		}
	}
}
void signal_delivered(struct task_struct *t, const struct ksignal *ks)
{
	sigset_t blocked = t->signals.blocked | ks->ka.mask;

	t->signals.restore_sigmask = false; /* the frame holds the saved mask */

	if (!(ks->ka.flags & SA_NODEFER))
		blocked |= sigmask(ks->sig);
	set_current_blocked(t, blocked);
}

int set_user_sigmask(struct task_struct *t, unsigned long umask, size_t sigsetsize)
{
	sigset_t kmask;

	if (!umask)
		return 0;
	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&kmask, umask, sizeof(kmask)))
		return -EFAULT;
	t->signals.saved_sigmask = t->signals.blocked;
	t->signals.restore_sigmask = true;
	set_current_blocked(t, kmask);
	return 0;
}

void restore_saved_sigmask(struct task_struct *t)
{
	if (!t->signals.restore_sigmask)
		return;
	t->signals.restore_sigmask = false;
	set_current_blocked(t, t->signals.saved_sigmask);
}

void restore_saved_sigmask_unless(struct task_struct *t, bool interrupted)
{
	if (!interrupted)
		restore_saved_sigmask(t);
}

sigset_t sigmask_to_save(const struct task_struct *t)
{
	return t->signals.restore_sigmask ? t->signals.saved_sigmask : t->signals.blocked;
}

void flush_signal_handlers(struct task_struct *task)
{
	for (int i = 0; i < _NSIG; i++) {
		struct k_sigaction *ka = &task->sighand->action[i];

		if (ka->handler != (uint64_t)SIG_IGN)
			ka->handler = (uint64_t)SIG_DFL;
		ka->flags = 0;
		ka->restorer = 0;
		ka->mask = 0;
	}
}

/* --- rt_sigaction, rt_sigprocmask, rt_sigpending ---------------------------- */

/* Linux: do_sigaction. Setting an action that ignores drops the pending
 * instance (Linux: flush_sigqueue_mask). */
static int do_sigaction(struct task_struct *t, int sig, const struct k_sigaction *act,
			struct k_sigaction *oact)
{
	struct k_sigaction *ka;

	if (!valid_signal(sig) || sig < 1 || (act && (SIG_KERNEL_ONLY_MASK & sigmask(sig))))
		return -EINVAL;
	ka = sig_action(t, sig);
	if (oact)
		*oact = *ka;
	if (act) {
		*ka = *act;
		ka->mask &= ~SIG_KERNEL_ONLY_MASK;
		/* Linux: POSIX 3.3.1.3, an ignored signal is discarded
		 * wherever it is pending in the process. */
		if (sig_handler_ignored(ka->handler, sig)) {
			struct task_struct *th;

			flush_sigqueue_mask(sigmask(sig), &t->signal->shared_pending);
			for_each_thread(t, th)
				flush_sigqueue_mask(sigmask(sig), &th->signals.pending);
		}
	}
	return 0;
}

SYSCALL_DEFINE4(rt_sigaction, int, sig, unsigned long, act, unsigned long, oact, size_t, sigsetsize)
{
	struct k_sigaction new_ka, old_ka;
	int ret;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (act && copy_from_user(&new_ka, act, sizeof(new_ka)))
		return -EFAULT;
	ret = do_sigaction(task, sig, act ? &new_ka : NULL, oact ? &old_ka : NULL);
	if (!ret && oact && copy_to_user(oact, &old_ka, sizeof(old_ka)))
		return -EFAULT;
	return ret;
}

/* Linux: sigprocmask. */
static int sigprocmask(struct task_struct *t, int how, sigset_t set)
{
	sigset_t blocked = t->signals.blocked;

	switch (how) {
	case SIG_BLOCK:
		blocked |= set;
		break;
	case SIG_UNBLOCK:
		blocked &= ~set;
		break;
	case SIG_SETMASK:
		blocked = set;
		break;
	default:
		return -EINVAL;
	}
	set_current_blocked(t, blocked);
	return 0;
}

SYSCALL_DEFINE4(rt_sigprocmask, int, how, unsigned long, nset, unsigned long, oset, size_t,
		sigsetsize)
{
	sigset_t old_set = task->signals.blocked, new_set;
	int ret;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (nset) {
		if (copy_from_user(&new_set, nset, sizeof(new_set)))
			return -EFAULT;
		ret = sigprocmask(task, how, new_set);
		if (ret)
			return ret;
	}
	if (oset && copy_to_user(oset, &old_set, sizeof(old_set)))
		return -EFAULT;
	return 0;
}

/* Linux: do_sigpending. The blocked ones only: an unblocked pending
 * signal is delivered before the call could see it. */
SYSCALL_DEFINE2(rt_sigpending, unsigned long, uset, size_t, sigsetsize)
{
	sigset_t set = (task->signals.pending.signal | task->signal->shared_pending.signal) &
		       task->signals.blocked;

	if (sigsetsize > sizeof(sigset_t))
		return -EINVAL;
	return copy_to_user(uset, &set, sigsetsize) ? -EFAULT : 0;
}

/* --- the alternate stack ---------------------------------------------------- */

bool on_sig_stack(const struct task_struct *t, uint64_t sp)
{
	const struct k_sigaltstack *ss = &t->signals.altstack;

	/* The stack grows down: its top, ss_sp + ss_size, is still on it. */
	return ss->ss_size && sp > ss->ss_sp && sp - ss->ss_sp <= ss->ss_size;
}

int sas_ss_flags(const struct task_struct *t, uint64_t sp)
{
	if (!t->signals.altstack.ss_size)
		return SS_DISABLE;
	return on_sig_stack(t, sp) ? SS_ONSTACK : 0;
}

int do_sigaltstack(struct task_struct *t, const struct k_sigaltstack *ss, struct k_sigaltstack *oss,
		   uint64_t sp)
{
	struct k_sigaltstack *cur = &t->signals.altstack;
	int mode;

	if (oss) {
		*oss = (struct k_sigaltstack){ .ss_sp = cur->ss_sp, .ss_size = cur->ss_size };
		oss->ss_flags = sas_ss_flags(t, sp) | (cur->ss_flags & SS_FLAG_BITS);
	}
	if (!ss)
		return 0;
	if (on_sig_stack(t, sp))
		return -EPERM;
	mode = ss->ss_flags & ~SS_FLAG_BITS;
	if (mode != SS_DISABLE && mode != SS_ONSTACK && mode != 0)
		return -EINVAL;
	if (mode == SS_DISABLE) {
		*cur = (struct k_sigaltstack){ .ss_flags = ss->ss_flags };
		return 0;
	}
	if (ss->ss_size < MINSIGSTKSZ)
		return -ENOMEM;
	*cur = (struct k_sigaltstack){ .ss_sp = ss->ss_sp,
				       .ss_flags = ss->ss_flags,
				       .ss_size = ss->ss_size };
	return 0;
}

SYSCALL_DEFINE2(sigaltstack, unsigned long, uss, unsigned long, uoss)
{
	struct k_sigaltstack new, old;
	int ret;

	if (uss && copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	ret = do_sigaltstack(task, uss ? &new : NULL, uoss ? &old : NULL, arch_user_sp(task));
	if (!ret && uoss && copy_to_user(uoss, &old, sizeof(old)))
		ret = -EFAULT;
	return ret;
}

int restore_altstack(struct task_struct *t, unsigned long uss, uint64_t sp)
{
	struct k_sigaltstack new;

	if (copy_from_user(&new, uss, sizeof(new)))
		return -EFAULT;
	/* Linux ignores a refused stack here: the frame's is only restored
	 * as far as it is valid. */
	do_sigaltstack(t, &new, NULL, sp);
	return 0;
}

int save_altstack(struct task_struct *t, unsigned long uss, uint64_t sp)
{
	struct k_sigaltstack *cur = &t->signals.altstack;
	struct k_sigaltstack saved = { .ss_sp = cur->ss_sp, .ss_size = cur->ss_size };

	saved.ss_flags = sas_ss_flags(t, sp) | (cur->ss_flags & SS_FLAG_BITS);
	if (copy_to_user(uss, &saved, sizeof(saved)))
		return -EFAULT;
	/* SS_AUTODISARM: the handler runs with no alternate stack, so it
	 * may longjmp off it; rt_sigreturn puts the saved one back. */
	if (cur->ss_flags & SS_AUTODISARM)
		*cur = (struct k_sigaltstack){ 0 };
	return 0;
}

/* --- kill, tkill, tgkill ---------------------------------------------------- */

/* Linux: kill_ok_by_cred. The sender's real or effective uid is the
 * target's real or saved one, or the sender has CAP_KILL. */
static bool kill_ok_by_cred(const struct task_struct *sender, const struct task_struct *t)
{
	const struct cred *c = &sender->cred, *tc = &t->cred;

	return c->euid == tc->suid || c->euid == tc->uid || c->uid == tc->suid ||
	       c->uid == tc->uid || has_capability(sender, CAP_KILL);
}

/* Linux: check_kill_permission. A signal from the kernel (no @sender)
 * always may; SIGCONT also within the sender's session. */
static int check_kill_permission(const struct task_struct *sender, const struct task_struct *t,
				 int sig)
{
	if (!sender || sender->tgid == t->tgid || kill_ok_by_cred(sender, t))
		return 0;
	return sig == SIGCONT && t->sid == sender->sid ? 0 : -EPERM;
}

/* Linux: check_kill_permission then do_send_sig_info; sig 0 only checks.
 * A kernel thread ignores every signal, a zombie has no use for one
 * (Linux's kthreads ignore them; a zombie's are never dequeued). */
static long kill_task(const struct task_struct *sender, struct task_struct *t, int sig, int code)
{
	struct kernel_siginfo info = { .si_signo = sig,
				       .si_code = code,
				       .kill = { .pid = sender ? sender->tgid : 0,
						 .uid = sender ? sender->cred.uid : 0 } };
	int err;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	err = check_kill_permission(sender, t, sig);
	if (err)
		return err;
	if (!sig || (t->flags & PF_KTHREAD) || !t->signal->live)
		return 0;
	return group_send_signal(t, sig, &info);
}

int kill_pid_info(const struct task_struct *sender, int pid, int sig, int code)
{
	struct task_struct *p = find_task_by_vpid(pid);

	return p ? (int)kill_task(sender, p, sig, code) : -ESRCH;
}

int kill_pgrp(const struct task_struct *sender, int pgid, int sig, int code)
{
	struct task_struct *p;
	int ret = -ESRCH;

	bool success = false;

	/* Linux: __kill_pgrp_info. Every member is tried; any success is
	 * success, else the last error. */
	for_each_process(p)
	{
		if (p->pgid != pgid)
			continue;
		ret = (int)kill_task(sender, p, sig, code);
		success |= !ret;
	}
	return success ? 0 : ret;
}

/*
 * Linux: kill_something_info. pid > 0 is that process, 0 the caller's
 * process group, -1 every process but pid 1 and the caller, < -1 the
 * group -pid. -ESRCH when nobody is there to signal.
 */
SYSCALL_DEFINE2(kill, int, pid, int, sig)
{
	struct task_struct *p;
	long ret;
	int count = 0;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	if (pid > 0)
		return kill_pid_info(task, pid, sig, SI_USER);
	/* Linux: -INT_MIN is not a group. */
	if (pid == INT32_MIN)
		return -ESRCH;
	if (pid != -1)
		return kill_pgrp(task, pid ? -pid : task->pgid, sig, SI_USER);
	/* Linux: the -EPERM of a process the caller may not signal is not
	 * the answer; -ESRCH only when there was nobody to try. */
	ret = 0;
	for_each_process(p)
	{
		if (p->pid > 1 && p != task) {
			long err = kill_task(task, p, sig, SI_USER);

			count++;
			if (err != -EPERM)
				ret = err;
		}
	}
	return count ? ret : -ESRCH;
}

/* Sleep until a signal is pending: pause and sigsuspend. */
static long sleep_until_signal(struct task_struct *task)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (signal_pending(task))
			break;
		schedule();
	}
	set_current_state(TASK_RUNNING);
	return -ERESTARTNOHAND;
}

/* Linux: sys_pause. Sleep until a signal is delivered: a handler runs
 * and pause returns -EINTR (ERESTARTNOHAND), or the signal ends the
 * process. */
SYSCALL_DEFINE0(pause)
{
	return sleep_until_signal(task);
}

/* Linux: sys_rt_sigsuspend. Wait under @unewset until a signal comes;
 * the caller's mask returns when the handler's frame is popped (or at the
 * return to ring 3 when nothing ran a handler), as ppoll's does. */
SYSCALL_DEFINE2(rt_sigsuspend, unsigned long, unewset, size_t, sigsetsize)
{
	int err;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (!unewset)
		return -EFAULT;
	err = set_user_sigmask(task, unewset, sigsetsize);
	return err ? err : sleep_until_signal(task);
}

/* Linux: do_send_specific. @sig to the thread @tid, which must be in
 * the process @tgid when that is > 0. Return: 0, -ESRCH or -EPERM. */
static long do_send_specific(const struct task_struct *sender, int tgid, int tid, int sig,
			     const struct kernel_siginfo *info)
{
	struct task_struct *p = find_task_by_vpid(tid);
	int err;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	if (!p || (tgid > 0 && p->tgid != tgid))
		return -ESRCH;
	err = check_kill_permission(sender, p, sig);
	if (err || !sig || p->exit_state || (p->flags & PF_KTHREAD))
		return err;
	return send_signal(p, sig, info);
}

/* Linux: do_tkill. A thread-directed signal; with @tgid > 0 the thread
 * must be in that process (tgkill), so a reused tid is not signalled. */
static long do_tkill(struct task_struct *sender, int tgid, int tid, int sig)
{
	struct kernel_siginfo info = { .si_signo = sig,
				       .si_code = SI_TKILL,
				       .kill = { .pid = sender->tgid, .uid = sender->cred.uid } };

	return do_send_specific(sender, tgid, tid, sig, &info);
}

SYSCALL_DEFINE2(tkill, int, tid, int, sig)
{
	if (tid <= 0)
		return -EINVAL;
	return do_tkill(task, 0, tid, sig);
}

SYSCALL_DEFINE3(tgkill, int, tgid, int, tid, int, sig)
{
	if (tid <= 0 || tgid <= 0)
		return -EINVAL;
	return do_tkill(task, tgid, tid, sig);
}

/* --- sigqueue, sigtimedwait ---------------------------------------------------- */

/* Linux: copy_siginfo_from_user. The first bytes of the user's 128. */
static int copy_siginfo_from_user(struct kernel_siginfo *info, unsigned long uinfo)
{
	return copy_from_user(info, uinfo, sizeof(*info)) ? -EFAULT : 0;
}

/* Linux: copy_siginfo_to_user: the kernel's bytes, then zeros to 128. */
int copy_siginfo_to_user(unsigned long uinfo, const struct kernel_siginfo *info)
{
	static const uint8_t zeros[SI_MAX_SIZE - sizeof(struct kernel_siginfo)];

	if (copy_to_user(uinfo, info, sizeof(*info)) ||
	    copy_to_user(uinfo + sizeof(*info), zeros, sizeof(zeros)))
		return -EFAULT;
	return 0;
}

/* Linux: the check rt_sigqueueinfo and rt_tgsigqueueinfo make: a process
 * may not pose as the kernel or as kill() (si_code >= 0) to another one,
 * nor as tkill. */
static bool siginfo_code_allowed(const struct task_struct *sender, const struct task_struct *t,
				 const struct kernel_siginfo *info)
{
	return !((info->si_code >= 0 || info->si_code == SI_TKILL) && t->tgid != sender->tgid);
}

/* Linux: do_rt_sigqueueinfo. A signal with the caller's siginfo to the
 * process @pid (si_value reaches a SA_SIGINFO handler; real-time signals
 * queue one instance each). */
SYSCALL_DEFINE3(rt_sigqueueinfo, int, pid, int, sig, unsigned long, uinfo)
{
	struct kernel_siginfo info;
	struct task_struct *p;
	int err = copy_siginfo_from_user(&info, uinfo);

	if (err)
		return err;
	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	p = find_task_by_vpid(pid);
	if (!p)
		return -ESRCH;
	if (!siginfo_code_allowed(task, p, &info))
		return -EPERM;
	info.si_signo = sig;
	err = check_kill_permission(task, p, sig);
	if (err || !sig || !p->signal->live)
		return err;
	return group_send_signal(p, sig, &info);
}

/* Linux: do_rt_tgsigqueueinfo, the same to one thread of @tgid. */
SYSCALL_DEFINE4(rt_tgsigqueueinfo, int, tgid, int, tid, int, sig, unsigned long, uinfo)
{
	struct kernel_siginfo info;
	struct task_struct *t;
	int err;

	if (tid <= 0 || tgid <= 0)
		return -EINVAL;
	err = copy_siginfo_from_user(&info, uinfo);
	if (err)
		return err;
	t = find_task_by_vpid(tid);
	if (t && !siginfo_code_allowed(task, t, &info))
		return -EPERM;
	info.si_signo = sig;
	return do_send_specific(task, tgid, tid, sig, &info);
}

/*
 * Linux: do_sigtimedwait. Take a pending signal of @uthese (less SIGKILL
 * and SIGSTOP) without a handler running; wait for one, with the set let
 * in for the wait (real_blocked), at most the timeout. Return: the
 * signal, with its siginfo at @uinfo; -EAGAIN when the time ran out,
 * -EINTR when another signal came (a handler runs for it).
 */
SYSCALL_DEFINE4(rt_sigtimedwait, unsigned long, uthese, unsigned long, uinfo, unsigned long, uts,
		size_t, sigsetsize)
{
	struct kernel_siginfo info;
	struct __kernel_timespec ts;
	sigset_t these, saved;
	uint64_t timeout = UINT64_MAX;
	int sig;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&these, uthese, sizeof(these)))
		return -EFAULT;
	if (uts) {
		if (copy_from_user(&ts, uts, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= 1000000000)
			return -EINVAL;
		timeout = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	}
	these &= ~SIG_KERNEL_ONLY_MASK;
	sig = dequeue_signal(task, ~these, &info);
	if (!sig && timeout) {
		/* Linux: real_blocked. The set waited for is let in while
		 * the thread sleeps, so a process-directed one picks it. */
		saved = task->signals.blocked;
		set_current_blocked(task, saved & ~these);
		set_current_state(TASK_INTERRUPTIBLE);
		if (!signal_pending(task))
			timeout = schedule_timeout_ns(timeout);
		set_current_state(TASK_RUNNING);
		set_current_blocked(task, saved);
		sig = dequeue_signal(task, ~these, &info);
	}
	if (!sig)
		return timeout ? -EINTR : -EAGAIN;
	if (uinfo && copy_siginfo_to_user(uinfo, &info))
		return -EFAULT;
	return sig;
}
