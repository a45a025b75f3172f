/*
 * /bin/polltest: poll, ppoll, select and pselect6, pipe sizes and the
 * /dev character devices, checked from ring 3 the same way on Linux and
 * on Folium. Prints "ok NAME" or "FAIL NAME: ..." a line, then
 * "polltest: N checks, all ok" (exit 0) or "polltest: K of N checks
 * FAILED" (exit 1). On Linux it mounts devtmpfs on /dev if /dev/null is
 * missing (Folium makes /dev at boot). Example: poll on an empty pipe's
 * read end with timeout 0 returns 0; after a write, 1 with POLLIN.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static long sys_poll(struct pollfd *fds, unsigned long n, int ms)
{
	long r = syscall(SYS_poll, fds, n, ms);
	return r < 0 ? -errno : r;
}

static long sys_select(int n, fd_set *in, fd_set *out, fd_set *ex, struct timeval *tv)
{
	long r = syscall(SYS_select, n, in, out, ex, tv);
	return r < 0 ? -errno : r;
}

static long sys_fcntl(int fd, int cmd, long arg)
{
	long r = syscall(SYS_fcntl, fd, cmd, arg);
	return r < 0 ? -errno : r;
}

static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

static void poll_pipes(void)
{
	int p[2];
	struct pollfd fds[2];
	char buf[16];

	pipe(p);
	fds[0] = (struct pollfd){ p[0], POLLIN, 0 };
	fds[1] = (struct pollfd){ p[1], POLLOUT, 0 };
	EXPECT("poll_empty_pipe_write_end_only", sys_poll(fds, 2, 0), 1);
	EXPECT("poll_empty_pipe_revents", fds[0].revents, 0);
	EXPECT("poll_write_end_pollout", fds[1].revents, POLLOUT);
	write(p[1], "x", 1);
	EXPECT("poll_pipe_with_data", sys_poll(fds, 1, 0), 1);
	EXPECT("poll_pipe_pollin", fds[0].revents, POLLIN);
	read(p[0], buf, 1);
	close(p[1]);
	EXPECT("poll_hup_without_writers", sys_poll(fds, 1, 0), 1);
	EXPECT("poll_hup_revents", fds[0].revents, POLLHUP);
	close(p[0]);
	pipe(p);
	close(p[0]);
	signal(SIGPIPE, SIG_IGN);
	fds[0] = (struct pollfd){ p[1], POLLOUT, 0 };
	EXPECT("poll_err_without_readers", sys_poll(fds, 1, 0), 1);
	EXPECT("poll_err_revents", fds[0].revents, POLLOUT | POLLERR);
	close(p[1]);
	fds[0] = (struct pollfd){ 999, POLLIN, 0 };
	fds[1] = (struct pollfd){ -1, POLLIN, 0 };
	EXPECT("poll_bad_fd_nval", sys_poll(fds, 2, 0), 1);
	EXPECT("poll_nval_revents", fds[0].revents, POLLNVAL);
	EXPECT("poll_negative_fd_skipped", fds[1].revents, 0);
	EXPECT("poll_nfds_over_rlimit_einval", sys_poll(fds, 1u << 20, 0), -EINVAL);
	int fd = open("/etc/motd", O_RDONLY);
	fds[0] = (struct pollfd){ fd, POLLIN | POLLOUT, 0 };
	EXPECT("poll_regular_file_ready", sys_poll(fds, 1, 0), 1);
	EXPECT("poll_regular_file_revents", fds[0].revents, POLLIN | POLLOUT);
	close(fd);
}

static void poll_timeouts(void)
{
	int p[2];
	struct pollfd fds[1];
	struct timespec a, b;
	struct timeval tv;
	fd_set in;

	pipe(p);
	fds[0] = (struct pollfd){ p[0], POLLIN, 0 };
	clock_gettime(CLOCK_MONOTONIC, &a);
	EXPECT("poll_times_out", sys_poll(fds, 1, 50), 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	long ms = (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
	EXPECT("poll_waits_50ms", ms >= 50, 1);
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	tv = (struct timeval){ 0, 30000 };
	EXPECT("select_times_out", sys_select(p[0] + 1, &in, NULL, NULL, &tv), 0);
	EXPECT("select_clears_the_set", FD_ISSET(p[0], &in), 0);
	EXPECT("select_writes_time_left_zero", tv.tv_sec * 1000000 + tv.tv_usec, 0);
	tv = (struct timeval){ 0, -1 };
	FD_SET(p[0], &in);
	EXPECT("select_negative_usec_einval", sys_select(p[0] + 1, &in, NULL, NULL, &tv), -EINVAL);
	tv = (struct timeval){ 5, 0 };
	write(p[1], "x", 1);
	EXPECT("select_ready_read", sys_select(p[0] + 1, &in, NULL, NULL, &tv), 1);
	EXPECT("select_leaves_time_left", tv.tv_sec >= 4 && tv.tv_sec <= 5, 1);
	FD_ZERO(&in);
	FD_SET(p[0] + 5, &in);
	EXPECT("select_closed_fd_ebadf", sys_select(p[0] + 6, &in, NULL, NULL, &tv), -EBADF);
	struct timespec ts = { 0, 1000000000 };
	EXPECT("ppoll_bad_nsec_einval", syscall(SYS_ppoll, fds, 1, &ts, NULL, 8) < 0 ? -errno : 0,
	       -EINVAL);
	close(p[0]);
	close(p[1]);
}

static void ppoll_sigmask(void)
{
	sigset_t block, empty, now;
	struct pollfd fds[1];
	int p[2];

	pipe(p);
	signal(SIGUSR1, on_usr1);
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, NULL);
	kill(getpid(), SIGUSR1);
	sigemptyset(&empty);
	fds[0] = (struct pollfd){ p[0], POLLIN, 0 };
	long r = syscall(SYS_ppoll, fds, 1, NULL, &empty, 8);
	EXPECT("ppoll_eintr_under_its_mask", r < 0 ? -errno : r, -EINTR);
	EXPECT("ppoll_handler_ran", got_usr1, 1);
	sigprocmask(SIG_BLOCK, NULL, &now);
	EXPECT("ppoll_mask_restored", sigismember(&now, SIGUSR1), 1);
	struct {
		const sigset_t *ss;
		size_t len;
	} arg = { &empty, 8 };
	fd_set in;
	FD_ZERO(&in);
	FD_SET(p[0], &in);
	kill(getpid(), SIGUSR1);
	r = syscall(SYS_pselect6, p[0] + 1, &in, NULL, NULL, NULL, &arg);
	EXPECT("pselect6_eintr_under_its_mask", r < 0 ? -errno : r, -EINTR);
	EXPECT("pselect6_handler_ran", got_usr1, 2);
	sigprocmask(SIG_BLOCK, NULL, &now);
	EXPECT("pselect6_mask_restored", sigismember(&now, SIGUSR1), 1);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	close(p[0]);
	close(p[1]);
}

static void pipe_sizes(void)
{
	int p[2], n;
	static char big[70000];

	pipe2(p, O_NONBLOCK);
	EXPECT("pipe_default_size", sys_fcntl(p[0], F_GETPIPE_SZ, 0), 65536);
	EXPECT("pipe_full_write", write(p[1], big, sizeof(big)), 65536);
	EXPECT("pipe_set_size_busy", sys_fcntl(p[0], F_SETPIPE_SZ, 4096), -EBUSY);
	ioctl(p[0], FIONREAD, &n);
	EXPECT("pipe_fionread", n, 65536);
	EXPECT("pipe_read_all", read(p[0], big, sizeof(big)), 65536);
	EXPECT("pipe_set_size_rounds_up", sys_fcntl(p[1], F_SETPIPE_SZ, 5000), 8192);
	EXPECT("pipe_set_size_min_page", sys_fcntl(p[1], F_SETPIPE_SZ, 0), 4096);
	EXPECT("pipe_root_grows_past_max", sys_fcntl(p[1], F_SETPIPE_SZ, 2 << 20), 2 << 20);
	EXPECT("pipe_set_size_huge_einval", sys_fcntl(p[1], F_SETPIPE_SZ, 0x80000001u), -EINVAL);
	EXPECT("pipe_getsz_not_a_pipe", sys_fcntl(0, F_GETPIPE_SZ, 0), -EBADF);
	close(p[0]);
	close(p[1]);
}

static void devices(void)
{
	char buf[8] = "abcdefg";
	struct stat st;
	int fd;

	fd = open("/dev/null", O_RDWR);
	EXPECT("null_reads_eof", read(fd, buf, 8), 0);
	EXPECT("null_swallows", write(fd, buf, 8), 8);
	fstat(fd, &st);
	EXPECT("null_is_1_3", st.st_rdev == makedev(1, 3) && S_ISCHR(st.st_mode), 1);
	close(fd);
	fd = open("/dev/zero", O_RDWR);
	EXPECT("zero_reads_zeros", read(fd, buf, 8) == 8 && !buf[0] && !buf[7], 1);
	EXPECT("zero_swallows", write(fd, buf, 8), 8);
	close(fd);
	fd = open("/dev/full", O_RDWR);
	EXPECT("full_write_enospc", write(fd, buf, 1) < 0 ? -errno : 0, -ENOSPC);
	EXPECT("full_reads_zeros", read(fd, buf, 8), 8);
	close(fd);
	fd = open("/dev/urandom", O_RDONLY);
	memset(buf, 0, 8);
	EXPECT("urandom_reads", read(fd, buf, 8) == 8 && memcmp(buf, "\0\0\0\0\0\0\0\0", 8), 1);
	close(fd);
	fd = open("/dev/random", O_RDONLY);
	EXPECT("random_reads", read(fd, buf, 8), 8);
	close(fd);
	EXPECT("random_is_1_8", stat("/dev/random", &st) == 0 && st.st_rdev == makedev(1, 8), 1);
	EXPECT("tty_is_5_0", stat("/dev/tty", &st) == 0 && st.st_rdev == makedev(5, 0), 1);
	EXPECT("console_is_5_1", stat("/dev/console", &st) == 0 && st.st_rdev == makedev(5, 1), 1);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (access("/dev/null", F_OK)) {
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	}
	poll_pipes();
	poll_timeouts();
	ppoll_sigmask();
	pipe_sizes();
	devices();
	return check_summary("polltest");
}
