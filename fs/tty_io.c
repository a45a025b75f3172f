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
	kfree(file->private_data);
}

const struct file_operations console_fops = {
	.read = tty_read,
	.write = tty_write,
	.ioctl = tty_ioctl,
	.poll = tty_poll,
	.release = tty_release,
};

static struct tty_file_private *tty_alloc_file(struct task_struct *opener, bool console)
{
	struct tty_file_private *priv = kzalloc(sizeof(*priv), GFP_KERNEL);

	if (priv) {
		priv->opener = opener;
		priv->console = console;
	}
	return priv;
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
	file->private_data = priv;
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
	file->private_data = priv;
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
