/*
 * n_tty, the line discipline of the console tty (Linux: drivers/tty/n_tty.c).
 * A typed byte goes through n_tty_receive_char: ISIG turns VINTR, VQUIT
 * and VSUSP into SIGINT, SIGQUIT and SIGTSTP for the foreground group;
 * ICRNL/IGNCR/INLCR map CR and NL; ICANON edits the line (VERASE, VKILL,
 * VWERASE, VLNEXT, VREPRINT, VEOF) and a line is readable once ended;
 * ECHO shows what was typed. Without ICANON a read waits as VMIN and
 * VTIME say. Bytes come from the console's interrupt while a program owns
 * the tty, else from the console's queue at the reader's pace. Example:
 * typed "lsx", VERASE, Enter: the screen shows "lsx\b \b\n" and read(0,
 * buf, 2) returns "ls", the next read "\n".
 */
#include <arch.h>
#include <fs.h>
#include <sched.h>
#include <signal.h>
#include <slab.h>
#include <timekeeping.h>
#include <tty.h>
#include <vm.h>

#define MASK(x) ((x) & (N_TTY_BUF_SIZE - 1))
#define FOREVER UINT64_MAX
#define WRITE_CHUNK 256 /* bytes copied from the user per console write */

#define L(tty, f) ((tty)->termios.c_lflag & (f))
#define I(tty, f) ((tty)->termios.c_iflag & (f))
#define O(tty, f) ((tty)->termios.c_oflag & (f))

/* c is the control character @idx (0 disables one: _POSIX_VDISABLE). */
static bool is_cc(const struct tty_struct *tty, int idx, uint8_t c)
{
	return c && tty->termios.c_cc[idx] == c;
}

static bool is_cntrl(uint8_t c)
{
	return c < ' ' || c == 0x7f;
}

/* Linux: is_continuation: a UTF-8 continuation byte under IUTF8. */
static bool is_continuation(const struct tty_struct *tty, uint8_t c)
{
	return I(tty, IUTF8) && (c & 0xc0) == 0x80;
}

static size_t read_cnt(const struct tty_struct *tty)
{
	return tty->read_head - tty->read_tail;
}

/* Linux: put_tty_queue. A full buffer drops the byte; in ICANON one slot
 * stays for the byte that ends the line. */
static void put_tty_queue(struct tty_struct *tty, uint8_t c, uint8_t mark)
{
	if (read_cnt(tty) >= N_TTY_BUF_SIZE - (tty->icanon && !mark ? 1 : 0))
		return;
	tty->read_buf[MASK(tty->read_head)] = (char)c;
	tty->mark[MASK(tty->read_head)] = mark;
	tty->read_head++;
}

/* Linux: process_output_block and do_output_char. With OPOST, ONLCR
 * makes '\n' CR LF and OCRNL makes '\r' a '\n'; without it the bytes go
 * to the consoles as they are (a full-screen program's raw mode). */
static void n_tty_output(const struct tty_struct *tty, const char *s, size_t n)
{
	char out[2 * WRITE_CHUNK];
	size_t o = 0;

	if (!O(tty, OPOST)) {
		console_write_tty(s, n);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (o + 2 > sizeof(out)) {
			console_write_tty(out, o);
			o = 0;
		}
		if (s[i] == '\n' && O(tty, ONLCR)) {
			out[o++] = '\r';
			out[o++] = '\n';
		} else if (s[i] == '\r' && O(tty, OCRNL)) {
			out[o++] = '\n';
		} else {
			out[o++] = s[i];
		}
	}
	console_write_tty(out, o);
}

/* Linux: echoes go through the same output processing. */
static void echo_raw(const struct tty_struct *tty, const char *s, size_t n)
{
	n_tty_output(tty, s, n);
}

/* Linux: echo_char. With ECHOCTL a control byte shows as ^X (^? for DEL). */
static void echo_char(const struct tty_struct *tty, uint8_t c)
{
	char ctl[2] = { '^', (char)(c ^ 0100) };

	if (L(tty, ECHOCTL) && is_cntrl(c) && c != '\t')
		echo_raw(tty, ctl, 2);
	else
		echo_raw(tty, (const char *)&c, 1);
}

/* The column a tab erase goes back to: the width of the line before it
 * (Linux: echo_erase_tab's count, from the line's start column 0). */
static unsigned tab_backspaces(const struct tty_struct *tty)
{
	unsigned col = 0;

	for (size_t i = tty->canon_head; i != tty->read_head; i++) {
		uint8_t c = (uint8_t)tty->read_buf[MASK(i)];

		if (c == '\t')
			col = (col | 7) + 1;
		else if (is_cntrl(c))
			col += L(tty, ECHOCTL) ? 2 : 0;
		else if (!is_continuation(tty, c))
			col++;
	}
	return ((col | 7) + 1) - col;
}

enum kill_type {
	ERASE,
	WERASE,
	KILL
};

/* Linux: eraser. VERASE takes back one character (a whole UTF-8 one under
 * IUTF8), VWERASE a word and the blanks after it, VKILL the line; ECHOE
 * wipes them from the screen, ECHOK/ECHOKE say how a kill shows. */
static void eraser(struct tty_struct *tty, uint8_t c)
{
	enum kill_type kill_type;
	int seen_alnums = 0;

	if (tty->read_head == tty->canon_head)
		return;
	if (is_cc(tty, VERASE, c)) {
		kill_type = ERASE;
	} else if (is_cc(tty, VWERASE, c)) {
		kill_type = WERASE;
	} else {
		if (!L(tty, ECHO)) {
			tty->read_head = tty->canon_head;
			return;
		}
		if (!L(tty, ECHOK) || !L(tty, ECHOKE) || !L(tty, ECHOE)) {
			tty->read_head = tty->canon_head;
			echo_char(tty, c);
			if (L(tty, ECHOK))
				echo_raw(tty, "\n", 1);
			return;
		}
		kill_type = KILL;
	}
	while (tty->read_head != tty->canon_head) {
		size_t head = tty->read_head;

		do
			c = (uint8_t)tty->read_buf[MASK(--head)];
		while (is_continuation(tty, c) && head != tty->canon_head);
		if (is_continuation(tty, c))
			break; /* do not partially erase */
		if (kill_type == WERASE) {
			bool alnum = (c >= '0' && c <= '9') ||
				     ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') || c == '_';

			if (alnum)
				seen_alnums++;
			else if (seen_alnums)
				break;
		}
		tty->read_head = head;
		if (L(tty, ECHO)) {
			if (kill_type == ERASE && !L(tty, ECHOE)) {
				echo_char(tty, tty->termios.c_cc[VERASE]);
			} else if (c == '\t') {
				for (unsigned n = tab_backspaces(tty); n; n--)
					echo_raw(tty, "\b", 1);
			} else {
				if (is_cntrl(c) && L(tty, ECHOCTL))
					echo_raw(tty, "\b \b", 3);
				if (!is_cntrl(c) || L(tty, ECHOCTL))
					echo_raw(tty, "\b \b", 3);
			}
		}
		if (kill_type == ERASE)
			break;
	}
}

/* Linux: n_tty_flush_buffer (reset_buffer_flags). */
void n_tty_flush_buffer(struct tty_struct *tty)
{
	unsigned long flags = arch_irq_save();

	tty->read_head = tty->read_tail = tty->canon_head = 0;
	tty->lnext = false;
	arch_irq_restore(flags);
}

/* Linux: isig and n_tty_receive_signal_char: @sig for the foreground
 * group, the unread input dropped unless NOFLSH, the byte echoed. */
static void receive_signal_char(struct tty_struct *tty, int sig, uint8_t c)
{
	if (!L(tty, NOFLSH))
		tty->read_head = tty->read_tail = tty->canon_head = 0;
	if (tty->pgrp)
		kill_pgrp(NULL, tty->pgrp, sig, SI_KERNEL);
	if (L(tty, ECHO))
		echo_char(tty, c);
}

/* A line ends here (Linux: n_tty_receive_char_special's handle_newline). */
static void handle_newline(struct tty_struct *tty, uint8_t c, uint8_t mark)
{
	put_tty_queue(tty, c, mark);
	tty->canon_head = tty->read_head;
	wake_up(&console_wait);
}

/* Linux: n_tty_receive_char: an ordinary byte, echoed and queued. */
static void receive_plain(struct tty_struct *tty, uint8_t c)
{
	if (L(tty, ECHO)) {
		if (c == '\n')
			echo_raw(tty, "\n", 1);
		else
			echo_char(tty, c);
	}
	put_tty_queue(tty, c, 0);
	if (!tty->icanon)
		wake_up(&console_wait);
}

/* Linux: n_tty_receive_char_special in its order: flow control, ISIG,
 * CR/NL mapping, then ICANON's editing characters. */
static void receive_special(struct tty_struct *tty, uint8_t c)
{
	/* IXON's VSTOP/VSTART are flow control, never input (output is
	 * not stopped here: the consoles cannot be). */
	if (I(tty, IXON) && (is_cc(tty, VSTOP, c) || is_cc(tty, VSTART, c)))
		return;
	if (L(tty, ISIG)) {
		int sig = is_cc(tty, VINTR, c)	 ? SIGINT
			  : is_cc(tty, VQUIT, c) ? SIGQUIT
			  : is_cc(tty, VSUSP, c) ? SIGTSTP
						 : 0;

		if (sig) {
			receive_signal_char(tty, sig, c);
			return;
		}
	}
	if (c == '\r') {
		if (I(tty, IGNCR))
			return;
		if (I(tty, ICRNL))
			c = '\n';
	} else if (c == '\n' && I(tty, INLCR)) {
		c = '\r';
	}
	if (tty->icanon) {
		if (is_cc(tty, VERASE, c) || is_cc(tty, VKILL, c) ||
		    (is_cc(tty, VWERASE, c) && L(tty, IEXTEN))) {
			eraser(tty, c);
			return;
		}
		if (is_cc(tty, VLNEXT, c) && L(tty, IEXTEN)) {
			tty->lnext = true;
			if (L(tty, ECHO) && L(tty, ECHOCTL))
				echo_raw(tty, "^\b", 2);
			return;
		}
		if (is_cc(tty, VREPRINT, c) && L(tty, ECHO) && L(tty, IEXTEN)) {
			echo_char(tty, c);
			echo_raw(tty, "\n", 1);
			for (size_t i = tty->canon_head; i != tty->read_head; i++)
				echo_char(tty, (uint8_t)tty->read_buf[MASK(i)]);
			return;
		}
		if (c == '\n') {
			if (L(tty, ECHO) || L(tty, ECHONL))
				echo_raw(tty, "\n", 1);
			handle_newline(tty, c, TTY_MARK_EOL);
			return;
		}
		if (is_cc(tty, VEOF, c)) {
			handle_newline(tty, c, TTY_MARK_EOF);
			return;
		}
		if (is_cc(tty, VEOL, c) || (is_cc(tty, VEOL2, c) && L(tty, IEXTEN))) {
			if (L(tty, ECHO))
				echo_char(tty, c);
			handle_newline(tty, c, TTY_MARK_EOL);
			return;
		}
	}
	receive_plain(tty, c);
}

void n_tty_receive_char(struct tty_struct *tty, uint8_t c)
{
	unsigned long flags = arch_irq_save();

	if (I(tty, ISTRIP))
		c &= 0x7f;
	if (tty->lnext) {
		tty->lnext = false;
		receive_plain(tty, c);
	} else {
		receive_special(tty, c);
	}
	arch_irq_restore(flags);
}

void n_tty_receive_queued(struct tty_struct *tty)
{
	int c;

	while ((c = console_trygetc()) >= 0)
		n_tty_receive_char(tty, (uint8_t)c);
}

/* Linux: n_tty_set_termios. Turning ICANON on makes what is buffered a
 * line of its own (pushed: no newline needed); off, it is all readable. */
void n_tty_set_termios(struct tty_struct *tty, const struct termios *old)
{
	unsigned long flags = arch_irq_save();
	bool icanon = L(tty, ICANON);

	if (!old || ((old->c_lflag ^ tty->termios.c_lflag) & ICANON)) {
		for (size_t i = tty->read_tail; i != tty->read_head; i++)
			tty->mark[MASK(i)] &= ~TTY_MARK_EOL;
		if (icanon && read_cnt(tty))
			tty->mark[MASK(tty->read_head - 1)] |= TTY_MARK_EOL;
		tty->canon_head = icanon ? tty->read_head : tty->read_tail;
		tty->lnext = false;
	}
	tty->icanon = icanon;
	arch_irq_restore(flags);
}

/* Linux: input_available_p for a read. */
static bool input_available(struct tty_struct *tty)
{
	return tty->icanon ? tty->canon_head != tty->read_tail : read_cnt(tty) != 0;
}

bool n_tty_input_available(struct tty_struct *tty)
{
	const uint8_t *cc = tty->termios.c_cc;

	n_tty_receive_queued(tty);
	/* Linux: input_available_p(tty, 1): a raw read with VMIN and no
	 * VTIME would wait for VMIN bytes, so poll does too. */
	if (!tty->icanon && cc[VMIN] && !cc[VTIME])
		return read_cnt(tty) >= cc[VMIN];
	return input_available(tty);
}

/* Linux: inq_canon / read_cnt for TIOCINQ: an EOF is not a byte. */
size_t n_tty_inq(struct tty_struct *tty)
{
	unsigned long flags = arch_irq_save();
	size_t end = tty->icanon ? tty->canon_head : tty->read_head, n = 0;

	for (size_t i = tty->read_tail; i != end; i++)
		n += !(tty->mark[MASK(i)] & TTY_MARK_EOF);
	arch_irq_restore(flags);
	return n;
}

/*
 * Linux: canon_copy_from_read_buf. Up to @max bytes of the first line
 * into @kbuf, the line's end included unless it is an EOF (taken, never
 * handed out). Return: the bytes copied. Context: interrupts off.
 */
static size_t canon_copy(struct tty_struct *tty, char *kbuf, size_t max)
{
	size_t avail = MIN(max, tty->canon_head - tty->read_tail), n = 0, taken;
	bool eof = false;

	while (n < avail) {
		uint8_t mark = tty->mark[MASK(tty->read_tail + n)];

		n++;
		if (mark) {
			eof = mark & TTY_MARK_EOF;
			break;
		}
	}
	taken = n;
	if (eof)
		n--;
	for (size_t i = 0; i < n; i++)
		kbuf[i] = tty->read_buf[MASK(tty->read_tail + i)];
	tty->read_tail += taken;
	return n;
}

/* Linux: canon_skip_eof. A read that filled the user's buffer takes the
 * EOF right after what it read: the line it ended is all read. */
static void canon_skip_eof(struct tty_struct *tty)
{
	if (tty->read_tail != tty->canon_head && (tty->mark[MASK(tty->read_tail)] & TTY_MARK_EOF))
		tty->read_tail++;
}

static size_t raw_copy(struct tty_struct *tty, char *kbuf, size_t max)
{
	size_t n = MIN(max, read_cnt(tty));

	for (size_t i = 0; i < n; i++)
		kbuf[i] = tty->read_buf[MASK(tty->read_tail + i)];
	tty->read_tail += n;
	return n;
}

/* Sleep until input, a signal or @left ns pass (FOREVER: no limit).
 * Return: the ns left. The in-kernel tests read for a task that is not
 * running: their reader only idles until the next interrupt. */
static uint64_t n_tty_wait(struct tty_struct *tty, struct task_struct *reader, uint64_t left)
{
	uint64_t start = ktime_get_ns(), spent;
	DEFINE_WAIT(wait);

	if (reader != current) {
		arch_idle();
	} else {
		prepare_to_wait(&console_wait, &wait, TASK_INTERRUPTIBLE);
		if (!input_available(tty) && !signal_pending(reader)) {
			if (left == FOREVER)
				schedule();
			else
				schedule_timeout_ns(left);
		}
		finish_wait(&console_wait, &wait);
	}
	if (left == FOREVER)
		return left;
	spent = ktime_get_ns() - start;
	return spent >= left ? 0 : left - spent;
}

/* Linux: job_control: a read from the background of the reader's
 * controlling tty is SIGTTIN (not through /dev/console). */
static int job_control(struct tty_struct *tty, struct file *file)
{
	struct tty_file_private *priv = file->private_data;

	if (priv->console || (current->flags & PF_KTHREAD))
		return 0;
	return __tty_check_change(tty, SIGTTIN);
}

long n_tty_read(struct tty_struct *tty, struct file *file, unsigned long buf, size_t count)
{
	struct tty_file_private *priv = file->private_data;
	struct task_struct *reader = current->flags & PF_KTHREAD ? priv->opener : current;
	uint64_t timeout = FOREVER, time = 0;
	size_t minimum = 0, got = 0;
	long ret = job_control(tty, file);
	char *kbuf;

	if (ret)
		return ret;
	if (!count)
		return 0;
	if (!tty->icanon) {
		minimum = tty->termios.c_cc[VMIN];
		if (minimum)
			time = tty->termios.c_cc[VTIME] * 100000000ull;
		else
			timeout = tty->termios.c_cc[VTIME] * 100000000ull, minimum = 1;
	}
	count = MIN(count, (size_t)N_TTY_BUF_SIZE);
	kbuf = kmalloc(count, GFP_KERNEL);
	if (!kbuf)
		return -ENOMEM;
	while (got < count) {
		unsigned long flags;

		n_tty_receive_queued(tty);
		flags = arch_irq_save();
		if (!input_available(tty)) {
			arch_irq_restore(flags);
			/* Linux: a hangup while it waited ends the read (0). */
			if (!timeout || tty_hung_up_p(file))
				break;
			if (file->f_flags & O_NONBLOCK) {
				ret = -EAGAIN;
				break;
			}
			if (signal_pending(reader)) {
				ret = -ERESTARTSYS;
				break;
			}
			timeout = n_tty_wait(tty, reader, timeout);
			continue;
		}
		if (tty->icanon) {
			got += canon_copy(tty, kbuf + got, count - got);
			if (got == count)
				canon_skip_eof(tty);
		} else {
			got += raw_copy(tty, kbuf + got, count - got);
		}
		arch_irq_restore(flags);
		if (got >= minimum)
			break;
		if (time)
			timeout = time;
	}
	if (got && copy_to_user(buf, kbuf, got))
		ret = -EFAULT, got = 0;
	kfree(kbuf);
	return got ? (long)got : ret;
}

long n_tty_write(struct tty_struct *tty, struct file *file, unsigned long buf, size_t count)
{
	struct tty_file_private *priv = file->private_data;
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	/* Linux: n_tty_write's TOSTOP check (not through /dev/console). */
	if (L(tty, TOSTOP) && !priv->console && !(current->flags & PF_KTHREAD)) {
		int ret = tty_check_change(tty);

		if (ret)
			return ret;
	}
	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		n_tty_output(tty, chunk, n);
		done += n;
	}
	return (long)done;
}
