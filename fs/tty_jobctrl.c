/*
 * The controlling terminal and job control (Linux:
 * drivers/tty/tty_jobctrl.c). The console tty remembers the session it
 * controls and that session's foreground process group, by number. A
 * process has the tty as its controlling terminal when it is in that
 * session (Linux keeps the tty in signal_struct; with one tty the
 * session says the same). Example: ttytest forks a child that calls
 * setsid, opens /dev/ttyS0 and TIOCSCTTY: the tty's session and group
 * become the child's, and a grandchild in a group of its own is in the
 * background: its read of the tty is SIGTTIN for its group.
 */
#include <cred.h>
#include <fs.h>
#include <sched.h>
#include <signal.h>
#include <tty.h>
#include <vm.h>

int tty_session(struct tty_struct *tty)
{
	struct task_struct *leader;

	if (!tty->session)
		return 0;
	leader = find_task_by_vpid(tty->session);
	if (!leader || leader->exit_state || (leader->flags & PF_EXITING) ||
	    leader->sid != tty->session)
		tty->session = tty->pgrp = 0;
	return tty->session;
}

struct tty_struct *get_current_tty(struct task_struct *task)
{
	struct tty_struct *tty = &console_tty;

	return tty_session(tty) && task->sid == tty->session ? tty : NULL;
}

/* Linux: is_ignored in tty_jobctrl.c: blocked or SIG_IGN. */
static bool is_ignored(int sig)
{
	return (current->signals.blocked & sigmask(sig)) ||
	       current->sighand->action[sig - 1].handler == (uint64_t)SIG_IGN;
}

int __tty_check_change(struct tty_struct *tty, int sig)
{
	if (get_current_tty(current) != tty || !tty->pgrp || current->pgid == tty->pgrp)
		return 0;
	if (is_ignored(sig))
		return sig == SIGTTIN ? -EIO : 0;
	if (is_current_pgrp_orphaned())
		return -EIO;
	kill_pgrp(NULL, current->pgid, sig, SI_KERNEL);
	return -ERESTARTSYS;
}

int tty_check_change(struct tty_struct *tty)
{
	return __tty_check_change(tty, SIGTTOU);
}

/* Linux: signal->leader, which setsid sets (and a program the kernel
 * starts leads its session from the start). */
static bool is_session_leader(const struct task_struct *task)
{
	return task->tgid == task->sid;
}

/* Linux: __proc_set_tty: the caller's session and group take the tty. */
static void proc_set_tty(struct tty_struct *tty)
{
	tty->session = current->sid;
	tty->pgrp = current->pgid;
}

void tty_open_proc_set_tty(struct tty_struct *tty, struct file *file)
{
	struct tty_file_private *priv = file->private_data;

	if (priv->console || (file->f_flags & O_NOCTTY) || (current->flags & PF_KTHREAD))
		return;
	if (is_session_leader(current) && !get_current_tty(current) && !tty_session(tty))
		proc_set_tty(tty);
}

/* Linux: tiocsctty. A session leader without a controlling tty takes a
 * tty no session has; one another session has only with @arg 1 and
 * CAP_SYS_ADMIN (that session loses it). */
static long tiocsctty(struct tty_struct *tty, struct file *file, unsigned long arg)
{
	if (is_session_leader(current) && tty_session(tty) == current->sid)
		return 0;
	if (!is_session_leader(current) || get_current_tty(current))
		return -EPERM;
	if (tty_session(tty) && (arg != 1 || !has_capability(current, CAP_SYS_ADMIN)))
		return -EPERM;
	if (!(file->f_mode & FMODE_READ) && !has_capability(current, CAP_SYS_ADMIN))
		return -EPERM;
	proc_set_tty(tty);
	return 0;
}

void tty_signal_session_leader(struct tty_struct *tty, int exit_session)
{
	struct task_struct *p;
	int pgrp = 0;

	if (!tty->session)
		return;
	for_each_process(p)
	{
		if (p->sid != tty->session || !is_session_leader(p))
			continue;
		kill_pid_info(NULL, p->tgid, SIGHUP, SI_KERNEL);
		kill_pid_info(NULL, p->tgid, SIGCONT, SI_KERNEL);
		pgrp = tty->pgrp;
	}
	if (pgrp && exit_session)
		kill_pgrp(NULL, pgrp, SIGHUP, SI_KERNEL);
}

void disassociate_ctty(int on_exit)
{
	struct tty_struct *tty = &console_tty;
	int pgrp = tty->pgrp;

	/* Not get_current_tty: the leader is already PF_EXITING. */
	if (!tty->session || tty->session != current->sid || !is_session_leader(current))
		return;
	/* The console is a serial port and a screen, never a pty: at the
	 * leader's exit Linux hangs it up (tty_vhangup_session). */
	if (on_exit) {
		tty_vhangup_session(tty);
		return;
	}
	tty->session = tty->pgrp = 0;
	if (pgrp) {
		kill_pgrp(NULL, pgrp, SIGHUP, SI_KERNEL);
		kill_pgrp(NULL, pgrp, SIGCONT, SI_KERNEL);
	}
}

/* Linux: tiocnotty. The session leader frees the tty
 * (disassociate_ctty(0)); another member keeps it here: only the session
 * says who has a controlling tty. */
static long tiocnotty(struct tty_struct *tty)
{
	if (get_current_tty(current) != tty)
		return -ENOTTY;
	disassociate_ctty(0);
	return 0;
}

/* Linux: session_of_pgrp over find_vpid: the session of group @nr, or of
 * the process @nr when no group has that number. Return: it, or -1. */
static int session_of_pgrp(int nr)
{
	struct task_struct *p;

	for_each_process(p) if (p->pgid == nr) return p->sid;
	p = find_task_by_vpid(nr);
	return p ? p->sid : -1;
}

/* Linux: tiocspgrp. */
static long tiocspgrp(struct tty_struct *tty, unsigned long arg)
{
	int ret = tty_check_change(tty), pgrp, sid;

	if (ret == -EIO)
		return -ENOTTY;
	if (ret)
		return ret;
	if (copy_from_user(&pgrp, arg, sizeof(pgrp)))
		return -EFAULT;
	if (pgrp < 0)
		return -EINVAL;
	if (get_current_tty(current) != tty)
		return -ENOTTY;
	sid = session_of_pgrp(pgrp);
	if (sid < 0)
		return -ESRCH;
	if (sid != current->sid)
		return -EPERM;
	tty->pgrp = pgrp;
	return 0;
}

long tty_jobctrl_ioctl(struct tty_struct *tty, struct file *file, unsigned int cmd,
		       unsigned long arg)
{
	int val;

	switch (cmd) {
	case TIOCNOTTY:
		return tiocnotty(tty);
	case TIOCSCTTY:
		return tiocsctty(tty, file, arg);
	case TIOCGPGRP: /* Linux: tiocgpgrp */
		if (get_current_tty(current) != tty)
			return -ENOTTY;
		val = tty->pgrp;
		return copy_to_user(arg, &val, sizeof(val)) ? -EFAULT : 0;
	case TIOCSPGRP:
		return tiocspgrp(tty, arg);
	case TIOCGSID: /* Linux: tiocgsid */
		if (get_current_tty(current) != tty || !tty_session(tty))
			return -ENOTTY;
		val = tty->session;
		return copy_to_user(arg, &val, sizeof(val)) ? -EFAULT : 0;
	default:
		return -ENOIOCTLCMD;
	}
}

void tty_set_foreground(struct task_struct *task, int *old_session, int *old_pgrp)
{
	struct tty_struct *tty = &console_tty;

	*old_session = tty_session(tty);
	*old_pgrp = tty->pgrp;
	tty->session = task->sid;
	tty->pgrp = task->pgid;
	console_set_receiver(tty_console_receive);
}

void tty_restore_foreground(int session, int pgrp)
{
	console_tty.session = session;
	console_tty.pgrp = pgrp;
	tty_session(&console_tty);
}
