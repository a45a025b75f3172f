/*
 * The console as a file (Linux: drivers/tty/tty_io.c, n_tty.c in
 * canonical mode, tty_ioctl.c): fds 0, 1 and 2 of every program. A write
 * goes to every console. A read waits for a whole line, echoing what is
 * typed, then hands it out: at most count bytes per read, the rest kept
 * for the next. Example: typed "lsx", backspace, Enter: the screen shows
 * "lsx\b \b\n" and read(0, buf, 2) returns "ls", the next read "\n".
 * ^D on an empty line is end of file (read returns 0).
 */
#include <arch.h>
#include <fs.h>
#include <sched.h>
#include <slab.h>
#include <vm.h>

#define WRITE_CHUNK 256	    /* bytes copied from the user per console write */
#define N_TTY_BUF_SIZE 4096 /* a line's bytes, with its '\n' (Linux's size) */
#define CONSOLE_COLS 80	    /* what TIOCGWINSZ reports */
#define CONSOLE_ROWS 25
#define CTRL(c) ((c)&0x1f)
#define NCCS 19

/* Linux: struct termios of the TCGETS ioctl (asm-generic/termbits.h). */
struct termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[NCCS];
};

/* Linux: struct winsize. */
struct winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* Linux: tty_struct with its n_tty_data: what one console file keeps
 * between reads, and the program in the foreground (Linux: the tty's
 * pgrp), whose pending signals end a wait. */
struct tty_struct {
	struct task_struct *fg;
	char *line;    /* N_TTY_BUF_SIZE bytes from the first read on */
	size_t len;    /* bytes in line */
	size_t read;   /* bytes of a finished line already handed out */
	bool finished; /* Enter or ^D ended the line */
};

static struct ramfs_inode console_inode = {
	.mode = S_IFCHR | 0620,
	.nlink = 1,
	.gid = 5, /* tty */
	.ino = 2,
	.rdev = TTY_MAJOR << 8 | 1,
};

/* Return: bytes written, or -EFAULT if not even the first chunk could be
 * read (a later bad chunk ends the write short, as Linux does). */
static long tty_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	char chunk[WRITE_CHUNK];
	size_t done = 0;

	while (done < count) {
		size_t n = MIN(count - done, sizeof(chunk));

		if (copy_from_user(chunk, buf + done, n))
			return done ? (long)done : -EFAULT;
		console_write(chunk, n);
		done += n;
	}
	return (long)done;
}

/* Linux: echo_char with ECHOCTL: a control byte shows as ^X. */
static void echo_char(char c)
{
	char ctl[2] = { '^', (char)(c + '@') };

	if ((unsigned char)c < ' ' && c != '\t')
		console_write(ctl, 2);
	else
		console_write(&c, 1);
}

/* Linux: eraser with ECHOE: wipe the last byte (two columns for ^X). */
static void erase_char(struct tty_struct *tty)
{
	char c;

	if (!tty->len)
		return;
	c = tty->line[--tty->len];
	console_write("\b \b", 3);
	if ((unsigned char)c < ' ' && c != '\t')
		console_write("\b \b", 3);
}

/* Linux: n_tty_receive_char in canonical mode, ICRNL on. */
static void receive_char(struct tty_struct *tty, char c)
{
	if (c == '\r')
		c = '\n';
	if (c == 0x7f || c == '\b') {
		erase_char(tty);
	} else if (c == CTRL('D')) {
		tty->finished = true; /* the line so far, no '\n'; empty: EOF */
	} else if (c == '\n') {
		tty->line[tty->len++] = c;
		console_write("\n", 1);
		tty->finished = true;
	} else if (tty->len < N_TTY_BUF_SIZE - 1) { /* room for the '\n' */
		tty->line[tty->len++] = c;
		echo_char(c);
	}
}

/* Hand out up to count bytes of the finished line. */
static long copy_line(struct tty_struct *tty, unsigned long buf, size_t count)
{
	size_t n = MIN(count, tty->len - tty->read);

	if (copy_to_user(buf, tty->line + tty->read, n))
		return -EFAULT;
	tty->read += n;
	if (tty->read == tty->len)
		tty->len = tty->read = 0, tty->finished = false;
	return (long)n;
}

/* Take the console's queued input into the line until it is finished
 * or nothing is queued (Linux: n_tty_receive_buf, here at the reader's
 * pace). Return: whether the line is finished. */
static bool n_tty_receive(struct tty_struct *tty)
{
	int c;

	while (!tty->finished && (c = console_trygetc()) >= 0)
		receive_char(tty, (char)c);
	return tty->finished;
}

/*
 * Linux: n_tty_read. Sleeps on the console's input, as console_getc
 * does, until a line is finished; a pending signal ends the wait with -EINTR (the line
 * typed so far stays). O_NONBLOCK without a finished line is -EAGAIN.
 * The line buffer is allocated at the first read, freed at release.
 */
static long tty_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct tty_struct *tty = file->private_data;

	if (!tty->line && !(tty->line = kmalloc(N_TTY_BUF_SIZE, GFP_KERNEL)))
		return -ENOMEM;
	if (!count)
		return 0;
	while (!n_tty_receive(tty)) {
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		if (signal_pending(tty->fg))
			return -EINTR;
		/* The in-kernel tests read as a task that is not running:
		 * their reader only idles until the next interrupt. */
		if (tty->fg != current)
			arch_idle();
		else if (console_wait_input(true))
			return -EINTR;
	}
	if (!tty->len) {
		tty->finished = false; /* ^D on an empty line: end of file, once */
		return 0;
	}
	return copy_line(tty, buf, count);
}

/* Linux: n_tty_poll. Readable once a line (or ^D) is finished; always
 * writable (console writes never wait). */
static __poll_t tty_poll(struct file *file, poll_table *wait)
{
	struct tty_struct *tty = file->private_data;
	__poll_t mask = POLLOUT | POLLWRNORM;

	poll_wait(file, &console_wait, wait);
	if (!tty->line && !(tty->line = kmalloc(N_TTY_BUF_SIZE, GFP_KERNEL)))
		return mask | POLLERR;
	if (n_tty_receive(tty))
		mask |= POLLIN | POLLRDNORM;
	return mask;
}

static void tty_release(struct ramfs_inode *inode, struct file *file)
{
	struct tty_struct *tty = file->private_data;

	kfree(tty->line);
	kfree(tty);
}

/* Linux: tty_std_termios: 38400 8N1, ICRNL IXON, OPOST ONLCR, ICANON
 * with echo and signals, and the INIT_C_CC control characters. */
static const struct termios tty_std_termios = {
	.c_iflag = 0x0500, /* ICRNL | IXON */
	.c_oflag = 0x0005, /* OPOST | ONLCR */
	.c_cflag = 0x04bf, /* B38400 | CS8 | CREAD | HUPCL */
	.c_lflag = 0x8a3b, /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	.c_cc = "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027\026\0",
};

/* Linux: tty_ioctl for the two requests served; -ENOTTY for the rest. */
static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct winsize ws = { .ws_row = CONSOLE_ROWS, .ws_col = CONSOLE_COLS };

	switch (cmd) {
	case TIOCGWINSZ:
		return copy_to_user(arg, &ws, sizeof(ws)) ? -EFAULT : 0;
	case TCGETS:
		return copy_to_user(arg, &tty_std_termios, sizeof(tty_std_termios)) ? -EFAULT : 0;
	default:
		return -ENOTTY;
	}
}

const struct file_operations console_fops = {
	.read = tty_read,
	.write = tty_write,
	.ioctl = tty_ioctl,
	.poll = tty_poll,
	.release = tty_release,
};

struct file *console_file_open(struct task_struct *task)
{
	struct tty_struct *tty = kzalloc(sizeof(*tty), GFP_KERNEL);
	struct file *file;

	if (!tty)
		return NULL;
	file = alloc_file(&console_inode, &console_fops, O_RDWR | O_LARGEFILE,
			  FMODE_READ | FMODE_WRITE);
	if (!file) {
		kfree(tty);
		return NULL;
	}
	tty->fg = task;
	file->private_data = tty;
	return file;
}

/* Linux: tty_open. /dev/tty (the caller's controlling terminal),
 * /dev/console and /dev/tty1 are all the console here; the file keeps
 * the inode it was opened by, so fstat shows that node's numbers. */
int tty_open(struct ramfs_inode *inode, struct file *file)
{
	struct tty_struct *tty = kzalloc(sizeof(*tty), GFP_KERNEL);

	if (!tty)
		return -ENOMEM;
	tty->fg = current;
	file->f_op = &console_fops;
	file->private_data = tty;
	return 0;
}

int console_on_rootfs(struct task_struct *task)
{
	struct file *console = console_file_open(task);

	if (!console)
		return -ENOMEM;
	console->f_count = 3;
	for (int fd = 0; fd < 3; fd++)
		task->files->fd[fd] = console;
	return 0;
}
