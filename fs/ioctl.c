/*
 * ioctl (Linux: fs/ioctl.c, drivers/tty/tty_io.c): the console answers
 * TIOCGWINSZ; everything else is -ENOTTY.
 */
#include <syscalls.h>
#include <vm.h>

#define CONSOLE_COLS 80 /* what TIOCGWINSZ reports for the console */
#define CONSOLE_ROWS 25

/* Linux: struct winsize (the user's layout). */
struct winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

SYSCALL_DEFINE3(ioctl, int, fd, unsigned int, cmd, unsigned long, arg)
{
	struct winsize ws = { .ws_row = CONSOLE_ROWS, .ws_col = CONSOLE_COLS };

	if (fd < 0 || fd > 2)
		return -EBADF;
	if (cmd != TIOCGWINSZ)
		return -ENOTTY;
	return copy_to_user(arg, &ws, sizeof(ws)) ? -EFAULT : 0;
}
