/*
 * The console tty's files (Linux: drivers/tty/tty_io.c): /dev/console,
 * /dev/tty (the caller's controlling terminal: -ENXIO without one),
 * /dev/tty1 and /dev/ttyS0 are all one tty_struct, console_tty, whose
 * line discipline is n_tty (fs/n_tty.c). While a program owns the tty
 * (a session has it), every typed byte goes to n_tty at once from the
 * console's interrupt, so VINTR is SIGINT even for a program that does
 * not read; otherwise bytes wait in the console's queue for the kernel
 * shell or for a reader. Example: fds 0-2 of a program the kernel shell
 * runs are one /dev/console file (console_on_rootfs); its writes go to
 * every console, its reads are n_tty's.
 */
#include <arch.h>
#include <fs.h>
#include <sched.h>
#include <slab.h>
#include <tty.h>

/* Linux: tty_std_termios: 38400 8N1, ICRNL IXON, OPOST ONLCR, ICANON
 * with echo and signals, and the INIT_C_CC control characters. */
struct tty_struct console_tty = {
	.termios = {
		.c_iflag = ICRNL | IXON,
		.c_oflag = OPOST | ONLCR,
		.c_cflag = 0x04bf, /* B38400 | CS8 | CREAD | HUPCL */
		.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
		.c_cc = "\003\034\177\025\004\0\1\0\021\023\032\0\022\017\027\026\0",
	},
	.winsize = { .ws_row = 25, .ws_col = 80 },
	.icanon = true,
	.tty_files = LIST_HEAD_INIT(console_tty.tty_files),
};

static struct ramfs_inode console_inode = {
	.mode = S_IFCHR | 0620,
	.nlink = 1,
	.gid = 5, /* tty */
	.ino = 2,
	.rdev = TTY_MAJOR << 8 | 1,
};

bool tty_console_receive(uint8_t c)
{
	if (!console_tty.session)
		return false;
	n_tty_receive_char(&console_tty, c);
	return true;
}

static long tty_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return n_tty_read(&console_tty, file, buf, count);
}

static long tty_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return n_tty_write(&console_tty, file, buf, count);
}

/* Linux: n_tty_poll. Readable as a read would not wait (with VMIN and no
 * VTIME, once VMIN bytes are in); always writable. */
static __poll_t tty_poll(struct file *file, poll_table *wait)
{
	poll_wait(file, &console_wait, wait);
	return POLLOUT | POLLWRNORM |
	       (n_tty_input_available(&console_tty) ? POLLIN | POLLRDNORM : 0);
}

/* Linux: tty_ioctl: job control first, then the modes and n_tty's. */
static long tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	long ret = tty_jobctrl_ioctl(&console_tty, file, cmd, arg);

	if (ret != -ENOIOCTLCMD)
		return ret;
	ret = tty_mode_ioctl(&console_tty, file, cmd, arg);
	return ret == -ENOIOCTLCMD ? -ENOTTY : ret;
}

static void tty_release(struct ramfs_inode *inode, struct file *file)
{
	struct tty_file_private *priv = file->private_data;
	unsigned long flags = arch_irq_save();

	list_del(&priv->list);
	arch_irq_restore(flags);
	kfree(priv);
}

const struct file_operations console_fops = {
	.read = tty_read,
	.write = tty_write,
	.ioctl = tty_ioctl,
	.poll = tty_poll,
	.release = tty_release,
};

/* --- hangup (Linux: hung_up_tty_fops, __tty_hangup) ------------------------- */

static long hung_up_tty_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return 0;
}

static long hung_up_tty_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return -EIO;
}

static __poll_t hung_up_tty_poll(struct file *file, poll_table *wait)
{
	return POLLIN | POLLOUT | POLLERR | POLLHUP | POLLRDNORM | POLLWRNORM;
}

static long hung_up_tty_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	return cmd == TIOCSPGRP ? -ENOTTY : -EIO;
}

static const struct file_operations hung_up_tty_fops = {
	.read = hung_up_tty_read,
	.write = hung_up_tty_write,
	.ioctl = hung_up_tty_ioctl,
	.poll = hung_up_tty_poll,
	.release = tty_release,
};

bool tty_hung_up_p(const struct file *file)
{
	return file->f_op == &hung_up_tty_fops;
}

/* Linux: __tty_hangup(tty, 1). /dev/console's files are not hung up
 * (Linux skips redirected_tty_write's), so a program the kernel started
 * keeps its fds 0-2. */
void tty_vhangup_session(struct tty_struct *tty)
{
	struct tty_file_private *priv;
	unsigned long flags = arch_irq_save();

	list_for_each_entry(priv, &tty->tty_files, list)
		if (!priv->console)
			priv->file->f_op = &hung_up_tty_fops;
	/* Linux: tty_ldisc_hangup: n_tty's buffer flushed, readers woken. */
	n_tty_flush_buffer(tty);
	arch_irq_restore(flags);
	tty_signal_session_leader(tty, 1);
	tty->session = tty->pgrp = 0;
	wake_up(&console_wait);
}

/* Linux: tty_alloc_file and tty_add_file. */
static struct tty_file_private *tty_alloc_file(struct task_struct *opener, bool console)
{
	struct tty_file_private *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (priv) {
		priv->opener = opener;
		priv->console = console;
		INIT_LIST_HEAD(&priv->list);
	}
	return priv;
}

static void tty_add_file(struct tty_file_private *priv, struct file *file)
{
	unsigned long flags = arch_irq_save();

	priv->file = file;
	file->private_data = priv;
	list_add(&priv->list, &console_tty.tty_files);
	arch_irq_restore(flags);
}

struct file *console_file_open(struct task_struct *task)
{
	struct tty_file_private *priv = tty_alloc_file(task, true);
	struct file *file;

	if (!priv)
		return NULL;
	file = alloc_file(&console_inode, &console_fops, O_RDWR | O_LARGEFILE,
			  FMODE_READ | FMODE_WRITE);
	if (!file) {
		kfree(priv);
		return NULL;
	}
	tty_add_file(priv, file);
	console_set_receiver(tty_console_receive);
	return file;
}

/* Linux: tty_open with tty_open_current_tty. /dev/tty is the caller's
 * controlling terminal (-ENXIO without one); /dev/console never becomes
 * one; another node makes the tty a session leader's controlling
 * terminal if neither has one (not with O_NOCTTY). The file keeps the
 * inode it was opened by, so fstat shows that node's numbers. */
int tty_open(struct ramfs_inode *inode, struct file *file)
{
	bool is_tty = inode->rdev == MKDEV(TTYAUX_MAJOR, 0);
	bool console = inode->rdev == MKDEV(TTYAUX_MAJOR, 1);
	struct tty_file_private *priv;

	if (is_tty && !(current->flags & PF_KTHREAD) && !get_current_tty(current))
		return -ENXIO;
	priv = tty_alloc_file(current, console);
	if (!priv)
		return -ENOMEM;
	file->f_op = &console_fops;
	tty_add_file(priv, file);
	console_set_receiver(tty_console_receive);
	if (!is_tty)
		tty_open_proc_set_tty(&console_tty, file);
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
