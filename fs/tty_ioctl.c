/*
 * The tty's mode, size and queue ioctls (Linux: drivers/tty/tty_ioctl.c,
 * tty_io.c's tiocsti and tiocswinsz, n_tty_ioctl). termios goes in and
 * out as Linux's struct termios (TCGETS, TCSETS, TCSETSW, TCSETSF) or
 * termios2 (TCGETS2 ...), the latter with the two speeds. Setting from a
 * background process group is SIGTTOU first (tty_check_change). Example:
 * tcsetattr(fd, TCSAFLUSH, &t) is TCSETSF: the unread input is dropped
 * and n_tty reads t's way from then on.
 */
#include <cred.h>
#include <fs.h>
#include <sched.h>
#include <signal.h>
#include <tty.h>
#include <vm.h>

#define TERMIOS_FLUSH 1
#define TERMIOS_WAIT 2
#define TERMIOS_OLD 8 /* struct termios, not termios2 */

static uint32_t ispeed = 38400, ospeed = 38400; /* termios2's speeds */

/* Linux: set_termios. */
static long set_termios(struct tty_struct *tty, unsigned long arg, int opt)
{
	struct termios2 t2 = { .c_ispeed = ispeed, .c_ospeed = ospeed };
	struct termios old;
	long ret = tty_check_change(tty);

	if (ret)
		return ret;
	if (copy_from_user(&t2, arg, opt & TERMIOS_OLD ? sizeof(t2.t) : sizeof(t2)))
		return -EFAULT;
	if (opt & TERMIOS_FLUSH)
		n_tty_flush_buffer(tty);
	/* TERMIOS_WAIT: the consoles' output is never queued. */
	old = tty->termios;
	tty->termios = t2.t;
	ispeed = t2.c_ispeed;
	ospeed = t2.c_ospeed;
	n_tty_set_termios(tty, &old);
	return 0;
}

static long get_termios(struct tty_struct *tty, unsigned long arg, bool old)
{
	struct termios2 t2 = { .t = tty->termios, .c_ispeed = ispeed, .c_ospeed = ospeed };

	return copy_to_user(arg, &t2, old ? sizeof(t2.t) : sizeof(t2)) ? -EFAULT : 0;
}

/* Linux: tiocswinsz and tty_do_resize: a new size is SIGWINCH for the
 * foreground group; the same size again sends nothing. */
static long tiocswinsz(struct tty_struct *tty, unsigned long arg)
{
	struct winsize ws;

	if (copy_from_user(&ws, arg, sizeof(ws)))
		return -EFAULT;
	if (!memcmp(&ws, &tty->winsize, sizeof(ws)))
		return 0;
	if (tty->pgrp)
		kill_pgrp(NULL, tty->pgrp, SIGWINCH, SI_KERNEL);
	tty->winsize = ws;
	return 0;
}

/* Linux: tiocsti: a byte as if typed (CAP_SYS_ADMIN only, as with
 * legacy_tiocsti off). */
static long tiocsti(struct tty_struct *tty, unsigned long arg)
{
	uint8_t c;

	if (!has_capability(current, CAP_SYS_ADMIN))
		return -EIO;
	if (copy_from_user(&c, arg, 1))
		return -EFAULT;
	n_tty_receive_char(tty, c);
	return 0;
}

static long put_int(unsigned long arg, int val)
{
	return copy_to_user(arg, &val, sizeof(val)) ? -EFAULT : 0;
}

long tty_mode_ioctl(struct tty_struct *tty, struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret;

	switch (cmd) {
	case TCGETS:
		return get_termios(tty, arg, true);
	case TCGETS2:
		return get_termios(tty, arg, false);
	case TCSETSF:
		return set_termios(tty, arg, TERMIOS_FLUSH | TERMIOS_WAIT | TERMIOS_OLD);
	case TCSETSW:
		return set_termios(tty, arg, TERMIOS_WAIT | TERMIOS_OLD);
	case TCSETS:
		return set_termios(tty, arg, TERMIOS_OLD);
	case TCSETSF2:
		return set_termios(tty, arg, TERMIOS_FLUSH | TERMIOS_WAIT);
	case TCSETSW2:
		return set_termios(tty, arg, TERMIOS_WAIT);
	case TCSETS2:
		return set_termios(tty, arg, 0);
	case TIOCGWINSZ:
		return copy_to_user(arg, &tty->winsize, sizeof(tty->winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		return tiocswinsz(tty, arg);
	case TIOCSTI:
		return tiocsti(tty, arg);
	case TIOCGETD:
		return put_int(arg, 0); /* N_TTY */
	case TIOCOUTQ:
		return put_int(arg, 0); /* console output is written at once */
	case FIONREAD:
		n_tty_receive_queued(tty);
		return put_int(arg, (int)n_tty_inq(tty));
	case TCSBRK:
	case TCSBRKP:
		/* Linux: a break (arg 0) or tcdrain: nothing is queued. */
		return tty_check_change(tty);
	case TCXONC: /* Linux: n_tty_ioctl_helper */
		ret = tty_check_change(tty);
		if (ret)
			return ret;
		return arg <= TCION ? 0 : -EINVAL;
	case TCFLSH: /* Linux: __tty_perform_flush */
		ret = tty_check_change(tty);
		if (ret)
			return ret;
		if (arg > TCIOFLUSH)
			return -EINVAL;
		if (arg != TCOFLUSH)
			n_tty_flush_buffer(tty);
		return 0;
	default:
		return -ENOIOCTLCMD;
	}
}
