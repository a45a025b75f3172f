/*
 * Signals, the generic half (Linux: kernel/signal.c): the system calls
 * rt_sigaction, rt_sigprocmask, rt_sigpending, sigaltstack, kill, tkill
 * and tgkill; sending (one pending instance per signal, with its
 * siginfo); the choice at each return to ring 3 (get_signal), default
 * actions included. One process with one thread runs at a time, pid and
 * tid TASK_PID. Example: musl's abort() does tkill(1, SIGABRT) inside an
 * all-blocked rt_sigprocmask pair; the SETMASK that restores the mask
 * returns to ring 3, get_signal finds SIGABRT with SIG_DFL and do_exit(6)
 * ends the program: the shell prints "killed by SIGABRT".
 */
#include <errno.h>
#include <syscalls.h>
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

/* Linux: sig_task_ignored. The signal would do nothing if delivered now. */
static bool sig_ignored(struct task_struct *t, int sig)
{
	uint64_t handler = sig_action(t, sig)->handler;

	if (t->signals.blocked & sigmask(sig))
		return false; /* the handler may change before it is unblocked */
	return handler == SIG_IGN || (handler == SIG_DFL && sig_kernel_ignore(sig));
}

int send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info)
{
	struct kernel_siginfo *slot;

	if (sig < 1 || sig > _NSIG)
		return -EINVAL;
	if (sig_ignored(t, sig))
		return 0;
	/* Linux: legacy_queue. The first instance's siginfo is kept. */
	if (t->signals.pending & sigmask(sig))
		return 0;
	slot = &t->signals.info[sig - 1];
	if (info)
		*slot = *info;
	else
		*slot = (struct kernel_siginfo){ .si_code = SI_KERNEL };
	slot->si_signo = sig;
	t->signals.pending |= sigmask(sig);
	/* Linux: signal_wake_up. An interruptible sleep ends so the signal
	 * can be delivered; SIGKILL ends any sleep but the uninterruptible. */
	if (!(t->signals.blocked & sigmask(sig)) || sig == SIGKILL)
		try_to_wake_up(t, TASK_INTERRUPTIBLE);
	return 0;
}

int group_send_signal(struct task_struct *p, int sig, const struct kernel_siginfo *info)
{
	return send_signal(p, sig, info);
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

/* Linux: next_signal. Return: the signal to dequeue first, 0 if none. */
static int next_signal(const struct task_struct *t)
{
	sigset_t ready = t->signals.pending & ~t->signals.blocked;

	if (ready & SYNCHRONOUS_MASK)
		ready &= SYNCHRONOUS_MASK;
	return ready ? __builtin_ctzll(ready) + 1 : 0;
}

int signal_next_action(struct task_struct *t, struct ksignal *ks)
{
	int sig;

	while ((sig = next_signal(t))) {
		struct k_sigaction *ka = sig_action(t, sig);

		t->signals.pending &= ~sigmask(sig);
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler != SIG_DFL) {
			ks->sig = sig;
			ks->ka = *ka;
			ks->info = t->signals.info[sig - 1];
			if (ka->flags & SA_RESETHAND)
				ka->handler = SIG_DFL;
			return sig;
		}
		/* No job control here: nothing could continue a stopped
		 * program. SIGTSTP, SIGTTIN and SIGTTOU are dropped as for an
		 * orphaned process group (Linux: is_current_pgrp_orphaned);
		 * SIGSTOP, which cannot be refused, would hang the shell for
		 * good, so it ends the program instead. */
		if (sig_kernel_ignore(sig) || (sig_kernel_stop(sig) && sig != SIGSTOP))
			continue;
		return -sig; /* terminate (and "core": no core files here) */
	}
	return 0;
}

bool get_signal(struct task_struct *t, struct ksignal *ks)
{
	int sig = signal_next_action(t, ks);

	if (sig < 0)
		do_exit(-sig);
	return sig > 0;
}

void set_current_blocked(struct task_struct *t, sigset_t set)
{
	t->signals.blocked = set & ~SIG_KERNEL_ONLY_MASK;
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
		if (ka->handler == SIG_IGN || (ka->handler == SIG_DFL && sig_kernel_ignore(sig)))
			t->signals.pending &= ~sigmask(sig);
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
	sigset_t set = task->signals.pending & task->signals.blocked;

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
	if (!sender || sender == t || kill_ok_by_cred(sender, t))
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
				       .kill = { .pid = sender ? sender->pid : 0,
						 .uid = sender ? sender->cred.uid : 0 } };
	int err;

	if (!valid_signal(sig) || sig < 0)
		return -EINVAL;
	err = check_kill_permission(sender, t, sig);
	if (err)
		return err;
	if (!sig || (t->flags & PF_KTHREAD) || t->exit_state)
		return 0;
	return send_signal(t, sig, &info);
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

/* Linux: do_tkill, one thread per process: the tid is the pid. */
static long do_tkill(const struct task_struct *sender, int tgid, int tid, int sig)
{
	struct task_struct *p = find_task_by_vpid(tid);

	if (!p || (tgid > 0 && p->pid != tgid))
		return -ESRCH;
	return kill_task(sender, p, sig, SI_TKILL);
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
