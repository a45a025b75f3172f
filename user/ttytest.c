/*
 * /bin/ttytest: the terminal as Linux's n_tty and tty_jobctrl make it,
 * checked from ring 3 the same way on Linux and on Folium. A child
 * makes a session, opens /dev/ttyS0 and takes it as its controlling tty
 * (TIOCSCTTY 1: on Folium the kernel shell gave the console to
 * ttytest's session, on Linux nobody has it), then checks termios,
 * input editing (typed with TIOCSTI, echo off), ISIG, VMIN/VTIME, the
 * window size with SIGWINCH, the queue ioctls, TIOCSPGRP's errors and a
 * background group's SIGTTOU/SIGTTIN/EIO. Prints "ok NAME" or "FAIL
 * NAME: ..." a line, then "ttytest: N checks, all ok" (exit 0) or
 * "ttytest: K of N checks FAILED" (exit 1).
 * `ttytest session` instead reads what a person (tools/tests/
 * signals.session) types on fd 0: raw bytes in hex, ^C as SIGINT under
 * ISIG, an edited line, a VTIME timeout.
 * Example: with ICANON, typing "ab", VERASE, "c", Enter makes read
 * return "ac\n".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define TCGETS2_NR 0x802C542Aul /* struct termios2 (44 bytes) */

/* A call that must fail with @err. */
#define EXPECT_ERR(name, expr, err)                                                   \
	do {                                                                          \
		errno = 0;                                                            \
		long got_ = (long)(expr);                                             \
		check(name, got_ == -1 && errno == (err), "got %ld (errno %s)", got_, \
		      strerror(errno));                                               \
	} while (0)

static volatile sig_atomic_t got[32];

static void on_signal(int sig)
{
	got[sig]++;
}

/* A handler without SA_RESTART, so an interrupted call is EINTR. */
static void catch (int sig)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void ignore(int sig)
{
	signal(sig, SIG_IGN);
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Type @s into the tty as if on its keyboard. */
static void sti(int fd, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ioctl(fd, TIOCSTI, s + i);
}
#define STI(fd, lit) sti(fd, lit, sizeof(lit) - 1)

static int inq(int fd)
{
	int n = -1;

	ioctl(fd, FIONREAD, &n);
	return n;
}

/* read @fd and compare with @want (NULL: want @wantn as the return). */
static void expect_read(const char *name, int fd, size_t count, const char *want, long wantn)
{
	char buf[256] = { 0 };
	long n = read(fd, buf, count);

	if (want)
		check(name, n == (long)strlen(want) && !memcmp(buf, want, n),
		      "read %ld bytes \"%.*s\" (errno %s), want \"%s\"", n, n > 0 ? (int)n : 0, buf,
		      strerror(errno), want);
	else
		expect_result(name, n == wantn, n, wantn);
}

static struct termios base; /* canonical, echo off: the injection tests' mode */

static void set_mode(int fd, tcflag_t lon, tcflag_t loff, tcflag_t ion, tcflag_t ioff, int vmin,
		     int vtime)
{
	struct termios t = base;

	t.c_lflag = (t.c_lflag | lon) & ~loff;
	t.c_iflag = (t.c_iflag | ion) & ~ioff;
	t.c_cc[VMIN] = vmin;
	t.c_cc[VTIME] = vtime;
	tcsetattr(fd, TCSAFLUSH, &t);
}

static void termios_round_trip(int fd)
{
	struct termios t, u;
	unsigned char t2[44];

	EXPECT("tcgetattr", tcgetattr(fd, &t), 0);
	u = t;
	u.c_lflag &= ~(ECHO | ECHOCTL);
	u.c_lflag |= TOSTOP;
	u.c_iflag |= IUTF8;
	u.c_cc[VMIN] = 7;
	u.c_cc[VTIME] = 3;
	u.c_cc[VEOL] = 'x';
	EXPECT("tcsetattr", tcsetattr(fd, TCSANOW, &u), 0);
	memset(&t, 0, sizeof(t));
	tcgetattr(fd, &t);
	check("termios round trip",
	      t.c_lflag == u.c_lflag && t.c_iflag == u.c_iflag && t.c_oflag == u.c_oflag &&
		      t.c_cc[VMIN] == 7 && t.c_cc[VTIME] == 3 && t.c_cc[VEOL] == 'x',
	      "lflag %o iflag %o vmin %d", t.c_lflag, t.c_iflag, t.c_cc[VMIN]);
	EXPECT("TCGETS2", ioctl(fd, TCGETS2_NR, t2), 0);
	check("TCGETS2 flags are TCGETS's", !memcmp(t2, &u.c_iflag, 16), "differ");
}

static void canonical_input(int fd)
{
	set_mode(fd, ICANON | ISIG | IEXTEN, ECHO | NOFLSH | TOSTOP, ICRNL | IUTF8, IGNCR | INLCR,
		 1, 0);
	EXPECT("TCFLSH TCIFLUSH", ioctl(fd, TCFLSH, TCIFLUSH), 0);
	EXPECT("FIONREAD empty", inq(fd), 0);
	STI(fd, "ab\x7f"
		"c\n");
	EXPECT("FIONREAD a line", inq(fd), 3);
	expect_read("VERASE", fd, 100, "ac\n", 0);
	STI(fd, "xyz\x15q\n");
	expect_read("VKILL", fd, 100, "q\n", 0);
	STI(fd, "foo bar  \x17"
		"baz\n");
	expect_read("VWERASE", fd, 100, "foo baz\n", 0);
	STI(fd, "a\xc3\xa9\x7f\n");
	expect_read("IUTF8 erase", fd, 100, "a\n", 0);
	STI(fd, "hi\x04");
	expect_read("VEOF ends a line", fd, 100, "hi", 0);
	STI(fd, "\x04");
	expect_read("VEOF on an empty line", fd, 100, NULL, 0);
	STI(fd, "ab\x04");
	expect_read("a read that fills the buffer", fd, 2, "ab", 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	EXPECT_ERR("  takes the VEOF after it", read(fd, (char[8]){ 0 }, 8), EAGAIN);
	fcntl(fd, F_SETFL, 0);
	STI(fd, "\x16\x7f\n");
	expect_read("VLNEXT", fd, 100, "\x7f\n", 0);
	STI(fd, "a\r");
	expect_read("ICRNL", fd, 100, "a\n", 0);
	STI(fd, "hello\n");
	expect_read("a short read", fd, 2, "he", 0);
	expect_read("the rest of the line", fd, 100, "llo\n", 0);
	STI(fd, "pa");
	EXPECT("FIONREAD counts whole lines", inq(fd), 0);
	fcntl(fd, F_SETFL, O_NONBLOCK);
	EXPECT_ERR("O_NONBLOCK without a line", read(fd, (char[8]){ 0 }, 8), EAGAIN);
	fcntl(fd, F_SETFL, 0);
	STI(fd, "rt\n");
	expect_read("the line goes on", fd, 100, "part\n", 0);
	set_mode(fd, ICANON, ECHO, IGNCR, 0, 1, 0);
	STI(fd, "a\rb\n");
	expect_read("IGNCR", fd, 100, "ab\n", 0);
	{
		struct termios t = base;

		t.c_cc[VEOL] = '!';
		EXPECT("TCSETSW", tcsetattr(fd, TCSADRAIN, &t), 0);
		STI(fd, "hi!");
		expect_read("VEOL ends a line", fd, 100, "hi!", 0);
	}
	/* TCSETSF drops what is unread, TCSETS keeps it. */
	STI(fd, "abc\n");
	tcsetattr(fd, TCSANOW, &base);
	EXPECT("TCSETS keeps input", inq(fd), 4);
	tcsetattr(fd, TCSAFLUSH, &base);
	EXPECT("TCSETSF flushes input", inq(fd), 0);
	STI(fd, "abc\n");
	EXPECT("TCFLSH TCIOFLUSH", ioctl(fd, TCFLSH, TCIOFLUSH), 0);
	EXPECT("TCFLSH flushed", inq(fd), 0);
	EXPECT_ERR("TCFLSH bad", ioctl(fd, TCFLSH, 7), EINVAL);
	EXPECT("TCXONC TCOON", ioctl(fd, TCXONC, TCOON), 0);
	EXPECT_ERR("TCXONC bad", ioctl(fd, TCXONC, 9), EINVAL);
	EXPECT("tcdrain", tcdrain(fd), 0);
	{
		int n = -1;

		EXPECT("TIOCOUTQ", ioctl(fd, TIOCOUTQ, &n), 0);
		EXPECT("TIOCOUTQ drained", n, 0);
	}
}

static void signals_from_keys(int fd)
{
	catch (SIGINT);
	catch (SIGQUIT);
	catch (SIGTSTP);
	set_mode(fd, ICANON | ISIG, ECHO | NOFLSH, 0, 0, 1, 0);
	STI(fd, "zz\n\x03");
	EXPECT("VINTR is SIGINT", got[SIGINT], 1);
	EXPECT("VINTR flushes input", inq(fd), 0);
	set_mode(fd, ICANON | ISIG | NOFLSH, ECHO, 0, 0, 1, 0);
	STI(fd, "zz\n\x1c");
	EXPECT("VQUIT is SIGQUIT", got[SIGQUIT], 1);
	EXPECT("NOFLSH keeps input", inq(fd), 3);
	STI(fd, "\x1a");
	EXPECT("VSUSP is SIGTSTP", got[SIGTSTP], 1);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 1, 0);
	STI(fd, "\x03");
	expect_read("no ISIG: ^C is a byte", fd, 10, "\x03", 0);
	EXPECT("no ISIG: no SIGINT", got[SIGINT], 1);
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	signal(SIGTSTP, SIG_DFL);
}

static void raw_reads(int fd)
{
	long t0, ms;
	int on = 1, off = 0;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 1, 0);
	STI(fd, "abc");
	EXPECT("raw FIONREAD", inq(fd), 3);
	expect_read("VMIN 1: what is there", fd, 10, "abc", 0);
	set_mode(fd, 0, ICANON | ISIG | ECHO, INLCR, ICRNL, 1, 0);
	STI(fd, "\n");
	expect_read("INLCR", fd, 10, "\r", 0);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 0, 0);
	expect_read("VMIN 0 VTIME 0: a poll", fd, 10, NULL, 0);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 0, 2);
	t0 = now_ms();
	expect_read("VMIN 0 VTIME 2: a timeout", fd, 10, NULL, 0);
	ms = now_ms() - t0;
	check("VTIME 2 waits about 200 ms", ms >= 150 && ms < 2000, "%ld ms", ms);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 5, 1);
	STI(fd, "ab");
	t0 = now_ms();
	expect_read("VMIN 5 VTIME 1: the inter-byte timer", fd, 10, "ab", 0);
	ms = now_ms() - t0;
	check("VTIME 1 waits about 100 ms", ms >= 50 && ms < 2000, "%ld ms", ms);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 2, 0);
	STI(fd, "a");
	fcntl(fd, F_SETFL, O_NONBLOCK);
	expect_read("VMIN 2, O_NONBLOCK: what is there", fd, 10, "a", 0);
	fcntl(fd, F_SETFL, 0);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 2, 0);
	STI(fd, "a");
	EXPECT("poll: VMIN 2 with 1 byte", poll(&pfd, 1, 0), 0);
	STI(fd, "b");
	EXPECT("poll: VMIN 2 with 2 bytes", poll(&pfd, 1, 0), 1);
	set_mode(fd, 0, ICANON | ISIG | ECHO, 0, ICRNL, 1, 0);
	EXPECT("FIONBIO on", ioctl(fd, FIONBIO, &on), 0);
	EXPECT_ERR("FIONBIO read", read(fd, (char[8]){ 0 }, 8), EAGAIN);
	EXPECT("FIONBIO off", ioctl(fd, FIONBIO, &off), 0);
	EXPECT("F_GETFL after FIONBIO off", fcntl(fd, F_GETFL) & O_NONBLOCK, 0);
	/* Leaving ICANON makes a typed part of a line readable. */
	set_mode(fd, ICANON, ECHO, 0, 0, 1, 0);
	STI(fd, "ab");
	{
		struct termios t = base;

		t.c_lflag &= ~ICANON;
		t.c_cc[VMIN] = 1;
		tcsetattr(fd, TCSANOW, &t);
	}
	expect_read("ICANON off: the partial line", fd, 10, "ab", 0);
}

static void window_size(int fd)
{
	struct winsize ws0, ws1 = { .ws_row = 30, .ws_col = 100 }, ws;

	catch (SIGWINCH);
	EXPECT("TIOCGWINSZ", ioctl(fd, TIOCGWINSZ, &ws0), 0);
	EXPECT("TIOCSWINSZ", ioctl(fd, TIOCSWINSZ, &ws1), 0);
	EXPECT("a new size is SIGWINCH", got[SIGWINCH], 1);
	ioctl(fd, TIOCGWINSZ, &ws);
	check("TIOCGWINSZ after TIOCSWINSZ", ws.ws_row == 30 && ws.ws_col == 100, "%dx%d",
	      ws.ws_row, ws.ws_col);
	ioctl(fd, TIOCSWINSZ, &ws1);
	EXPECT("the same size: no SIGWINCH", got[SIGWINCH], 1);
	ioctl(fd, TIOCSWINSZ, &ws0);
	EXPECT("the old size back: SIGWINCH", got[SIGWINCH], 2);
	signal(SIGWINCH, SIG_DFL);
}

/* In a group of its own, so in the background of the session. */
static int background(int fd, int report)
{
	struct termios t;
	char c;
	pid_t me = getpid(), grandchild;
	static const char line[] = "background write, SIGTTOU ignored\n";

	catch (SIGTTOU);
	catch (SIGTTIN);
	tcgetattr(fd, &t);
	EXPECT_ERR("background write with TOSTOP", write(fd, "x", 1), EINTR);
	EXPECT("  is SIGTTOU", got[SIGTTOU], 1);
	EXPECT_ERR("background tcsetattr", tcsetattr(fd, TCSANOW, &t), EINTR);
	EXPECT("  is SIGTTOU", got[SIGTTOU], 2);
	EXPECT_ERR("background TIOCSPGRP", tcsetpgrp(fd, getpgrp()), EINTR);
	EXPECT_ERR("background read", read(fd, &c, 1), EINTR);
	EXPECT("  is SIGTTIN", got[SIGTTIN], 1);
	EXPECT("background TIOCGPGRP", tcgetpgrp(fd), getppid());
	EXPECT_ERR("TIOCSCTTY not a leader", ioctl(fd, TIOCSCTTY, 0), EPERM);
	ignore(SIGTTIN);
	EXPECT_ERR("background read, SIGTTIN ignored", read(fd, &c, 1), EIO);
	ignore(SIGTTOU);
	EXPECT("background write, SIGTTOU ignored", write(fd, line, sizeof(line) - 1),
	       sizeof(line) - 1);
	EXPECT("background tcsetattr, SIGTTOU ignored", tcsetattr(fd, TCSANOW, &t), 0);
	/* A group whose every parent is outside the session (init adopts
	 * the grandchild): orphaned, so EIO rather than a stop. */
	grandchild = fork();
	if (grandchild == 0) {
		char res[2];

		catch (SIGTTIN);
		catch (SIGTTOU);
		for (int i = 0; i < 500 && getppid() == me; i++)
			usleep(10000);
		res[0] = read(fd, &c, 1) == -1 && errno == EIO ? 'y' : 'n';
		res[1] = write(fd, "x", 1) == -1 && errno == EIO ? 'y' : 'n';
		write(report, res, 2);
		_exit(0);
	}
	return failed;
}

static void job_control(int fd)
{
	int report[2], status;
	char res[2] = "--";
	pid_t pid, pgrp = getpgrp();
	struct termios t;

	EXPECT_ERR("TIOCSPGRP negative", tcsetpgrp(fd, -1), EINVAL);
	EXPECT_ERR("TIOCSPGRP another session's group", tcsetpgrp(fd, getppid()), EPERM);
	EXPECT_ERR("TIOCSPGRP no such group", tcsetpgrp(fd, 99999), ESRCH);
	EXPECT("TIOCSPGRP own group", tcsetpgrp(fd, pgrp), 0);
	tcgetattr(fd, &t);
	t.c_lflag |= TOSTOP;
	tcsetattr(fd, TCSANOW, &t);
	pipe(report);
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		close(report[0]);
		_exit(background(fd, report[1]));
	}
	setpgid(pid, pid);
	close(report[1]);
	waitpid(pid, &status, 0);
	check("background checks", WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x",
	      status);
	read(report[0], res, 2);
	check("orphaned group's read is EIO", res[0] == 'y', "%c", res[0]);
	check("orphaned group's TOSTOP write is EIO", res[1] == 'y', "%c", res[1]);
	close(report[0]);
	/* Another group in the foreground, then back (SIGTTOU ignored: a
	 * background TIOCSPGRP goes on). */
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		pause();
		_exit(0);
	}
	setpgid(pid, pid);
	EXPECT("TIOCSPGRP another group", tcsetpgrp(fd, pid), 0);
	EXPECT("TIOCGPGRP is it", tcgetpgrp(fd), pid);
	ignore(SIGTTOU);
	EXPECT("TIOCSPGRP from the background, SIGTTOU ignored", tcsetpgrp(fd, pgrp), 0);
	signal(SIGTTOU, SIG_DFL);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	t.c_lflag &= ~TOSTOP;
	tcsetattr(fd, TCSANOW, &t);
}

/* A new session has no controlling tty. */
static int no_ctty(int fd)
{
	int pgrp;

	setsid();
	EXPECT_ERR("/dev/tty without a controlling tty", open("/dev/tty", O_RDWR), ENXIO);
	EXPECT_ERR("TIOCGPGRP not our tty", ioctl(fd, TIOCGPGRP, &pgrp), ENOTTY);
	EXPECT_ERR("TIOCGSID not our tty", ioctl(fd, TIOCGSID, &pgrp), ENOTTY);
	EXPECT_ERR("TIOCNOTTY not our tty", ioctl(fd, TIOCNOTTY), ENOTTY);
	EXPECT_ERR("TIOCSCTTY a tty another session has", ioctl(fd, TIOCSCTTY, 0), EPERM);
	return failed;
}

static int session_leader(void)
{
	int fd, tfd, pgrp = -1, sid = -1, status;
	struct termios orig;
	pid_t pid;

	setsid();
	fd = open("/dev/ttyS0", O_RDWR | O_NOCTTY);
	check("open /dev/ttyS0", fd >= 0, "errno %s", strerror(errno));
	EXPECT("TIOCSCTTY", ioctl(fd, TIOCSCTTY, 1), 0);
	EXPECT("TIOCSCTTY again", ioctl(fd, TIOCSCTTY, 0), 0);
	EXPECT("TIOCGPGRP", ioctl(fd, TIOCGPGRP, &pgrp), 0);
	EXPECT("  is getpgrp", pgrp, getpgrp());
	EXPECT("TIOCGSID", ioctl(fd, TIOCGSID, &sid), 0);
	EXPECT("  is getsid", sid, getsid(0));
	tfd = open("/dev/tty", O_RDWR);
	check("open /dev/tty", tfd >= 0, "errno %s", strerror(errno));
	EXPECT("/dev/tty is the controlling tty", tcgetpgrp(tfd), getpgrp());
	close(tfd);
	tcgetattr(fd, &orig);
	base = orig;
	base.c_lflag &= ~(ECHO | TOSTOP | NOFLSH);
	base.c_lflag |= ICANON | ISIG | IEXTEN;
	base.c_iflag |= ICRNL;
	base.c_iflag &= ~(IGNCR | INLCR);
	termios_round_trip(fd);
	tcsetattr(fd, TCSAFLUSH, &base);
	canonical_input(fd);
	signals_from_keys(fd);
	raw_reads(fd);
	tcsetattr(fd, TCSAFLUSH, &base);
	window_size(fd);
	job_control(fd);
	pid = fork();
	if (pid == 0)
		_exit(no_ctty(fd));
	waitpid(pid, &status, 0);
	check("checks without a controlling tty", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "status %#x", status);
	tcsetattr(fd, TCSAFLUSH, &orig);
	/* The leader lets go: SIGHUP for the foreground group (ours). */
	catch (SIGHUP);
	EXPECT("TIOCNOTTY", ioctl(fd, TIOCNOTTY), 0);
	EXPECT("  is SIGHUP", got[SIGHUP], 1);
	EXPECT_ERR("TIOCGPGRP after TIOCNOTTY", ioctl(fd, TIOCGPGRP, &pgrp), ENOTTY);
	EXPECT_ERR("/dev/tty after TIOCNOTTY", open("/dev/tty", O_RDWR), ENXIO);
	return check_summary("ttytest");
}

/* What tools/tests/signals.session types: one line of verdict each. */
static int session(void)
{
	struct termios orig, t;
	unsigned char c;
	long t0;

	tcgetattr(0, &orig);
	t = orig;
	t.c_lflag &= ~(ICANON | ECHO | ISIG);
	t.c_iflag &= ~ICRNL;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	tcsetattr(0, TCSAFLUSH, &t);
	printf("raw: ready\n");
	printf("raw:");
	do {
		if (read(0, &c, 1) != 1)
			break;
		printf(" %02x", c);
	} while (c != 'q');
	printf("\n");
	catch (SIGINT);
	t.c_lflag |= ISIG;
	tcsetattr(0, TCSANOW, &t);
	printf("isig: ready\n");
	for (;;) {
		long n = read(0, &c, 1);

		if (n < 0 && errno == EINTR)
			continue; /* the SIGINT handler ran */
		if (n != 1 || c == 'q')
			break;
		printf("isig: byte %02x\n", c);
	}
	printf("isig: SIGINT %d\n", got[SIGINT]);
	t = orig;
	t.c_lflag |= ICANON | ECHO | ECHOE;
	tcsetattr(0, TCSANOW, &t);
	printf("line: ready\n");
	{
		char line[100] = { 0 };
		long n = read(0, line, sizeof(line) - 1);

		if (n > 0 && line[n - 1] == '\n')
			line[--n] = 0;
		printf("line: [%s]\n", line);
	}
	t = orig;
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = 0;
	t.c_cc[VTIME] = 5;
	tcsetattr(0, TCSANOW, &t);
	printf("vtime: ready\n");
	t0 = now_ms();
	{
		long n = read(0, &c, 1), ms = now_ms() - t0;

		printf("vtime: %ld bytes after %s 400 ms\n", n, ms >= 400 ? ">=" : "<");
	}
	tcsetattr(0, TCSANOW, &orig);
	return 0;
}

int main(int argc, char **argv)
{
	pid_t pid;
	int status;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && !strcmp(argv[1], "session"))
		return session();
	if (access("/dev/ttyS0", F_OK)) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	}
	pid = fork();
	if (pid == 0)
		_exit(session_leader());
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
