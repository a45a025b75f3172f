/*
 * The console tty (Linux: include/linux/tty.h, uapi asm-generic/termbits.h
 * and ioctls.h): one tty_struct for the serial and screen consoles, which
 * /dev/console, /dev/tty, /dev/tty1 and /dev/ttyS0 all open. Its line
 * discipline is n_tty (fs/n_tty.c), its ioctls tty_ioctl.c's and
 * tty_jobctrl.c's, its files tty_io.c's. Example: the kernel shell runs
 * `ttytest`: the tty's session and foreground group become ttytest's
 * while it runs, so Ctrl-C (VINTR under ISIG) is SIGINT for its group.
 */
#ifndef FOLIUM_TTY_H
#define FOLIUM_TTY_H

#include <kernel.h>

struct task_struct;
struct file;

/* c_cc indices (Linux: asm-generic/termbits.h). */
#define VINTR 0
#define VQUIT 1
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define VTIME 5
#define VMIN 6
#define VSTART 8
#define VSTOP 9
#define VSUSP 10
#define VEOL 11
#define VREPRINT 12
#define VWERASE 14
#define VLNEXT 15
#define VEOL2 16
#define NCCS 19

/* c_iflag */
#define IGNBRK 0000001
#define ISTRIP 0000040
#define INLCR 0000100
#define IGNCR 0000200
#define ICRNL 0000400
#define IXON 0002000
#define IUTF8 0040000
/* c_oflag */
#define OPOST 0000001
#define ONLCR 0000004
#define OCRNL 0000010
/* c_lflag */
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define ECHOE 0000020
#define ECHOK 0000040
#define ECHONL 0000100
#define NOFLSH 0000200
#define TOSTOP 0000400
#define ECHOCTL 0001000
#define ECHOPRT 0002000
#define ECHOKE 0004000
#define IEXTEN 0100000
/* c_cflag: the speed bits, and termios2's BOTHER */
#define CBAUD 0010017
#define B38400 0000017

/* Linux: struct termios of TCGETS (the kernel's, 36 bytes). */
struct termios {
	uint32_t c_iflag, c_oflag, c_cflag, c_lflag;
	uint8_t c_line;
	uint8_t c_cc[NCCS];
};

/* Linux: struct termios2 of TCGETS2: the same with the two speeds. */
struct termios2 {
	struct termios t;
	uint32_t c_ispeed, c_ospeed;
};

/* Linux: struct winsize. */
struct winsize {
	uint16_t ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* The tty ioctls (Linux: asm-generic/ioctls.h). */
#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TCSBRK 0x5409
#define TCXONC 0x540A
#define TCFLSH 0x540B
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCOUTQ 0x5411
#define TIOCSTI 0x5412
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541b /* also TIOCINQ */
#define TIOCNOTTY 0x5422
#define TIOCGETD 0x5424
#define TCSBRKP 0x5425
#define TIOCGSID 0x5429
#define TCGETS2 0x802C542A
#define TCSETS2 0x402C542B
#define TCSETSW2 0x402C542C
#define TCSETSF2 0x402C542D
/* TCXONC's and TCFLSH's arguments */
#define TCOOFF 0
#define TCOON 1
#define TCIOFF 2
#define TCION 3
#define TCIFLUSH 0
#define TCOFLUSH 1
#define TCIOFLUSH 2

#define N_TTY_BUF_SIZE 4096 /* n_tty's read buffer (Linux's size) */

/*
 * Linux: tty_struct with its ctrl (session, pgrp) and n_tty_data. The
 * read buffer is a ring of N_TTY_BUF_SIZE bytes indexed by free-running
 * counters: [read_tail, canon_head) holds finished lines (ICANON),
 * [canon_head, read_head) the line being typed. mark[] says which byte
 * ends a line and which is an EOF (^D, never handed out). Touched by the
 * console's interrupt (n_tty_receive_char) and by readers, so only with
 * interrupts off.
 */
struct tty_struct {
	struct termios termios;
	struct winsize winsize;
	int session; /* the sid whose controlling tty it is; 0: none */
	int pgrp;    /* the foreground process group; 0: none */
	char read_buf[N_TTY_BUF_SIZE];
	uint8_t mark[N_TTY_BUF_SIZE]; /* TTY_MARK_* of each byte */
	size_t read_head, read_tail, canon_head;
	bool lnext; /* VLNEXT came: the next byte is taken literally */
	bool icanon;
	struct list_head tty_files; /* its open files' tty_file_private */
};
#define TTY_MARK_EOL 1 /* a line ends here (newline, EOL, a push) */
#define TTY_MARK_EOF 2 /* the VEOF byte: ends a line, read drops it */

/* The one tty: the console. */
extern struct tty_struct console_tty;

/* What an open file of the tty keeps (Linux: tty_file_private): who
 * opened it (its reads end on that task's signals when the in-kernel
 * tests read for a task that is not running), and whether it is
 * /dev/console (Linux's redirected_tty_write: no job control). */
struct tty_file_private {
	struct task_struct *opener;
	struct file *file;
	struct list_head list; /* in tty_files */
	bool console;
};

/* fs/tty_io.c. A byte from the console's interrupt (console_set_receiver):
 * n_tty's while a session owns the tty. Return: whether n_tty took it. */
bool tty_console_receive(uint8_t c);
/* Linux: tty_vhangup_session, __tty_hangup(tty, 1), at the exit of the
 * session leader whose controlling tty it is: its files opened as a tty
 * (not /dev/console) are hung up (read 0, write -EIO), typed input is
 * dropped, the session's leaders get SIGHUP and SIGCONT and the
 * foreground group SIGHUP, and the tty belongs to no session. */
void tty_vhangup_session(struct tty_struct *tty);
/* Linux: tty_hung_up_p. Whether @file was hung up. */
bool tty_hung_up_p(const struct file *file);

/* --- fs/n_tty.c: the line discipline ------------------------------------- */
/* Linux: n_tty_receive_char and its special cases (ISIG, ICANON editing,
 * echo). Context: any, interrupts off. */
void n_tty_receive_char(struct tty_struct *tty, uint8_t c);
/* Linux: n_tty_read. Return: bytes read, 0 (EOF, or VMIN/VTIME ran
 * out), -EAGAIN, -ERESTARTSYS, -EIO (background, SIGTTIN not taken),
 * -EFAULT. */
long n_tty_read(struct tty_struct *tty, struct file *file, unsigned long buf, size_t count);
/* Linux: n_tty_write, with OPOST's ONLCR and OCRNL (the bytes as they
 * are without OPOST) to the consoles' write_tty. Return: bytes written,
 * -EFAULT, -ERESTARTSYS (TOSTOP from the background). */
long n_tty_write(struct tty_struct *tty, struct file *file, unsigned long buf, size_t count);
/* Linux: input_available_p for poll (a raw VMIN without VTIME counts). */
bool n_tty_input_available(struct tty_struct *tty);
/* Linux: n_tty_flush_buffer: drop what is typed and unread. */
void n_tty_flush_buffer(struct tty_struct *tty);
/* Linux: n_tty_set_termios after a change of @old to tty->termios. */
void n_tty_set_termios(struct tty_struct *tty, const struct termios *old);
/* Linux: n_tty_ioctl's TIOCINQ: the bytes a read could get. */
size_t n_tty_inq(struct tty_struct *tty);
/* Take the console's queued raw bytes (typed while no program owned the
 * tty) into n_tty, at the reader's pace. */
void n_tty_receive_queued(struct tty_struct *tty);

/* --- fs/tty_ioctl.c -------------------------------------------------------- */
/* Linux: tty_ioctl's mode, window and flush requests and n_tty_ioctl.
 * Return: as the request, or -ENOIOCTLCMD for one not served here. */
long tty_mode_ioctl(struct tty_struct *tty, struct file *file, unsigned int cmd, unsigned long arg);
#define ENOIOCTLCMD 515

/* --- fs/tty_jobctrl.c ------------------------------------------------------- */
/* Linux: get_current_tty: the tty if it is @task's controlling terminal
 * (the tty's session is @task's, and its leader lives), else NULL. */
struct tty_struct *get_current_tty(struct task_struct *task);
/* Linux: __tty_check_change. @task in the background of its controlling
 * @tty: @sig (SIGTTOU, SIGTTIN) to its group. Return: 0 (go on),
 * -ERESTARTSYS (sent) or -EIO (SIGTTIN ignored or blocked, or the group
 * is orphaned). */
int __tty_check_change(struct tty_struct *tty, int sig);
/* Linux: tty_check_change, the SIGTTOU one (TCSETS*, TCFLSH, TOSTOP). */
int tty_check_change(struct tty_struct *tty);
/* Linux: tty_jobctrl_ioctl (TIOCSCTTY, TIOCNOTTY, TIOCGPGRP, TIOCSPGRP,
 * TIOCGSID). Return: as the request, or -ENOIOCTLCMD. */
long tty_jobctrl_ioctl(struct tty_struct *tty, struct file *file, unsigned int cmd,
		       unsigned long arg);
/* Linux: tty_open_proc_set_tty: a session leader without a controlling
 * tty that opens a free tty (not /dev/console, not O_NOCTTY) gets it. */
void tty_open_proc_set_tty(struct tty_struct *tty, struct file *file);
/* The kernel runs @task in the console's foreground: the tty's session
 * and group become its own (Linux gets there by a getty's setsid and
 * TIOCSCTTY; the kernel shell's programs start as session leaders).
 * Return: the previous session and group, for tty_restore_foreground. */
void tty_set_foreground(struct task_struct *task, int *old_session, int *old_pgrp);
void tty_restore_foreground(int session, int pgrp);
/* Linux: disassociate_ctty, for current, a session leader: at its exit
 * (@on_exit) its controlling tty is hung up (tty_vhangup_session); by
 * TIOCNOTTY the foreground group gets SIGHUP and SIGCONT and the tty is
 * let go. */
void disassociate_ctty(int on_exit);
/* Linux: tty_signal_session_leader. SIGHUP and SIGCONT to each session
 * leader in @tty's session, and with @exit_session SIGHUP to its
 * foreground group. */
void tty_signal_session_leader(struct tty_struct *tty, int exit_session);
/* The tty's session, or 0 once its leader has gone (disassociate_ctty
 * clears it at the leader's exit, as Linux's; a leader freed without
 * exiting, as the in-kernel tests' tasks are, is noticed here). */
int tty_session(struct tty_struct *tty);

#endif
