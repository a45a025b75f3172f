/*
 * /bin/epolltest: epoll and eventfd, checked from ring 3 the same way on
 * Linux and on Folium: eventfd's counter, semaphore mode, blocking and
 * errnos; epoll_create, epoll_ctl's errnos (EBADF, EPERM, EINVAL, EEXIST,
 * ENOENT, ELOOP, EPOLLEXCLUSIVE's rules), level-triggered, edge-triggered
 * and one-shot items on a pipe, EPOLLHUP and EPOLLERR reported unasked,
 * epoll_wait's limits and timeouts, epoll_pwait's mask letting a signal
 * in, epoll_pwait2, a closed file leaving the list, nested epolls, the
 * tty, and an epoll shared across fork; signalfd (its errnos, records
 * of kill, sigqueue and SIGCHLD, poll and epoll, a blocking read woken
 * by a child's exit, an epoll item outliving the thread that added it).
 * Prints "ok NAME" or "FAIL NAME:
 * ..." a line, then "epolltest: N checks, all ok" (exit 0) or "epolltest:
 * K of N checks FAILED" (exit 1). Example: a pipe's read end added for
 * EPOLLIN reports nothing until a write, then EPOLLIN at every wait
 * until a read empties it (level triggered), or once (EPOLLET).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#ifndef SYS_epoll_pwait2
#define SYS_epoll_pwait2 441
#endif
#define EP_MAX_EVENTS (0x7fffffff / 12)
#define KADDR 0xffff800000000000ul

/* The raw calls: -errno instead of -1, the same in both C libraries. */
static long sys(long r)
{
	return r < 0 ? -errno : r;
}
static long ctl(int ep, int op, int fd, uint32_t events, uint64_t data)
{
	struct epoll_event ev = { .events = events, .data.u64 = data };

	return sys(syscall(SYS_epoll_ctl, ep, op, fd, &ev));
}
static long ewait(int ep, struct epoll_event *evs, int max, int ms)
{
	return sys(syscall(SYS_epoll_wait, ep, evs, max, ms));
}
static long efd_read(int fd, uint64_t *v)
{
	return sys(read(fd, v, 8));
}
static long efd_write(int fd, uint64_t v)
{
	return sys(write(fd, &v, 8));
}

static long ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

static struct epoll_event low_events[2]; /* low in memory: +2 GiB is still user space */
static volatile sig_atomic_t got_usr1;
static void on_usr1(int sig)
{
	(void)sig;
	got_usr1++;
}

/* A child that sleeps @ms, then writes a byte to @fd or (fd < 0) sends
 * SIGUSR1 to its parent, and exits. */
static pid_t later(int fd, int ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct timespec ts = { 0, ms * 1000000l };

		nanosleep(&ts, NULL);
		if (fd >= 0)
			write(fd, "x", 1);
		else
			kill(getppid(), SIGUSR1);
		_exit(0);
	}
	return pid;
}

static void eventfd_counter(void)
{
	uint64_t v = 0;
	int fd = eventfd(5, EFD_NONBLOCK), sem;

	EXPECT("efd_create", fd >= 0, 1);
	EXPECT("efd_flags_invalid", sys(syscall(SYS_eventfd2, 0, 2)), -EINVAL);
	EXPECT("efd_getfl_nonblock", fcntl(fd, F_GETFL), O_RDWR | O_NONBLOCK);
	EXPECT("efd_read_short", sys(read(fd, &v, 4)), -EINVAL);
	EXPECT("efd_write_short", sys(write(fd, &v, 7)), -EINVAL);
	EXPECT("efd_initial_count_read", efd_read(fd, &v), 8);
	EXPECT("efd_initial_count_value", v, 5);
	EXPECT("efd_empty_nonblock_eagain", efd_read(fd, &v), -EAGAIN);
	EXPECT("efd_write_2", efd_write(fd, 2), 8);
	EXPECT("efd_write_3", efd_write(fd, 3), 8);
	EXPECT("efd_read_sum", efd_read(fd, &v) == 8 && v == 5, 1);
	EXPECT("efd_write_ullong_max_einval", efd_write(fd, UINT64_MAX), -EINVAL);
	EXPECT("efd_write_max_minus_1", efd_write(fd, UINT64_MAX - 1), 8);
	EXPECT("efd_write_overflow_eagain", efd_write(fd, 1), -EAGAIN);
	EXPECT("efd_write_zero_at_max_ok", efd_write(fd, 0), 8);
	EXPECT("efd_read_big", efd_read(fd, &v) == 8 && v == UINT64_MAX - 1, 1);
	EXPECT("efd_read_bad_buffer",
	       sys(write(fd, &(uint64_t){ 9 }, 8)) == 8 &&
		       sys(syscall(SYS_read, fd, NULL, 8)) == -EFAULT,
	       1);
	EXPECT("efd_bad_read_took_count", efd_read(fd, &v), -EAGAIN);
	EXPECT("efd_lseek_noop", sys(lseek(fd, 5, SEEK_SET)), 0);
	close(fd);

	sem = eventfd(3, EFD_SEMAPHORE | EFD_NONBLOCK);
	EXPECT("efd_sem_read_1", efd_read(sem, &v) == 8 && v == 1, 1);
	EXPECT("efd_sem_read_2", efd_read(sem, &v) == 8 && v == 1, 1);
	EXPECT("efd_sem_read_3", efd_read(sem, &v) == 8 && v == 1, 1);
	EXPECT("efd_sem_empty", efd_read(sem, &v), -EAGAIN);
	close(sem);

	fd = eventfd(0, EFD_CLOEXEC);
	EXPECT("efd_cloexec", fcntl(fd, F_GETFD), FD_CLOEXEC);
	EXPECT("efd_getfl_plain", fcntl(fd, F_GETFL), O_RDWR);
	EXPECT("efd_write_16_einval", sys(write(fd, (uint64_t[2]){ 1, 1 }, 16)), -EINVAL);
	close(fd);
	fd = eventfd(0, 0);
	EXPECT("efd_plain_not_cloexec", fcntl(fd, F_GETFD), 0);
	close(fd);
}

static void eventfd_poll_and_block(void)
{
	int fd = eventfd(0, 0);
	struct pollfd pfd = { fd, POLLIN | POLLOUT | POLLERR, 0 };
	struct sigaction sa = { .sa_handler = on_usr1 };
	uint64_t v = 0;
	pid_t pid;

	EXPECT("efd_poll_zero", poll(&pfd, 1, 0) == 1 && pfd.revents == POLLOUT, 1);
	efd_write(fd, 1);
	EXPECT("efd_poll_one", poll(&pfd, 1, 0) == 1 && pfd.revents == (POLLIN | POLLOUT), 1);
	efd_write(fd, UINT64_MAX - 2);
	EXPECT("efd_poll_max_minus_1", poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN, 1);
	efd_read(fd, &v);

	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 50000000 };

		nanosleep(&ts, NULL);
		efd_write(fd, 7);
		_exit(0);
	}
	EXPECT("efd_blocking_read_woken", efd_read(fd, &v) == 8 && v == 7, 1);
	waitpid(pid, NULL, 0);

	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART: the read is -EINTR */
	pid = later(-1, 50);
	EXPECT("efd_blocking_read_eintr", efd_read(fd, &v), -EINTR);
	waitpid(pid, NULL, 0);
	close(fd);
}

static void anon_inode_names(void)
{
	int efd = eventfd(0, 0), ep = epoll_create1(0);
	struct stat se, sp;
	char path[64], link[64];
	long n;

	EXPECT("anon_fstat", fstat(efd, &se) == 0 && fstat(ep, &sp) == 0, 1);
	EXPECT("anon_mode_0600_no_type", se.st_mode, 0600); /* Linux's anon_inode_getattr */
	EXPECT("anon_one_inode", se.st_ino == sp.st_ino, 1);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", efd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	check("anon_eventfd_link", !strcmp(link, "anon_inode:[eventfd]"), "got %s", link);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", ep);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = 0;
	check("anon_eventpoll_link", !strcmp(link, "anon_inode:[eventpoll]"), "got %s", link);
	close(efd);
	close(ep);
}

static void create_and_ctl_errors(void)
{
	int ep = epoll_create1(0), p[2], reg, dir, ep2;
	char c;

	EXPECT("event_struct_12_bytes", sizeof(struct epoll_event), 12);
	EXPECT("create_size_0", sys(syscall(SYS_epoll_create, 0)), -EINVAL);
	EXPECT("create_size_negative", sys(syscall(SYS_epoll_create, -1)), -EINVAL);
	ep2 = sys(syscall(SYS_epoll_create, 1));
	EXPECT("create_size_1", ep2 >= 0, 1);
	close(ep2);
	EXPECT("create1_bad_flag", sys(syscall(SYS_epoll_create1, 1)), -EINVAL);
	ep2 = epoll_create1(EPOLL_CLOEXEC);
	EXPECT("create1_cloexec", fcntl(ep2, F_GETFD), FD_CLOEXEC);
	EXPECT("create1_plain_not_cloexec", fcntl(ep, F_GETFD), 0);
	EXPECT("epoll_read_einval", sys(read(ep, &c, 1)), -EINVAL);
	close(ep2);

	pipe(p);
	reg = open("/bin/epolltest", O_RDONLY);
	dir = open("/", O_RDONLY | O_DIRECTORY);
	EXPECT("ctl_bad_epfd", ctl(999, EPOLL_CTL_ADD, p[0], EPOLLIN, 0), -EBADF);
	EXPECT("ctl_bad_fd", ctl(ep, EPOLL_CTL_ADD, 999, EPOLLIN, 0), -EBADF);
	EXPECT("ctl_regular_file_eperm", ctl(ep, EPOLL_CTL_ADD, reg, EPOLLIN, 0), -EPERM);
	EXPECT("ctl_directory_eperm", ctl(ep, EPOLL_CTL_ADD, dir, EPOLLIN, 0), -EPERM);
	EXPECT("ctl_eperm_before_einval", ctl(p[0], EPOLL_CTL_ADD, reg, EPOLLIN, 0), -EPERM);
	EXPECT("ctl_self", ctl(ep, EPOLL_CTL_ADD, ep, EPOLLIN, 0), -EINVAL);
	EXPECT("ctl_epfd_not_epoll", ctl(p[0], EPOLL_CTL_ADD, p[1], EPOLLIN, 0), -EINVAL);
	EXPECT("ctl_bad_op", ctl(ep, 99, p[0], EPOLLIN, 0), -EINVAL);
	EXPECT("ctl_del_missing", ctl(ep, EPOLL_CTL_DEL, p[0], 0, 0), -ENOENT);
	EXPECT("ctl_mod_missing", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN, 0), -ENOENT);
	EXPECT("ctl_add_bad_pointer",
	       sys(syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, p[0], (void *)KADDR)), -EFAULT);
	EXPECT("ctl_add", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 0), 0);
	EXPECT("ctl_add_again_eexist", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 0), -EEXIST);
	EXPECT("ctl_mod", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLET, 0), 0);
	EXPECT("ctl_del_null_event", sys(syscall(SYS_epoll_ctl, ep, EPOLL_CTL_DEL, p[0], NULL)), 0);
	EXPECT("ctl_del_again", ctl(ep, EPOLL_CTL_DEL, p[0], 0, 0), -ENOENT);

	EXPECT("excl_with_rdhup",
	       ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLEXCLUSIVE | EPOLLRDHUP, 0), -EINVAL);
	ep2 = epoll_create1(0);
	EXPECT("excl_on_epoll", ctl(ep, EPOLL_CTL_ADD, ep2, EPOLLIN | EPOLLEXCLUSIVE, 0), -EINVAL);
	EXPECT("excl_add", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN | EPOLLEXCLUSIVE, 0), 0);
	EXPECT("excl_mod_einval", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN, 0), -EINVAL);
	EXPECT("excl_mod_with_flag", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLEXCLUSIVE, 0),
	       -EINVAL);
	EXPECT("excl_del", ctl(ep, EPOLL_CTL_DEL, p[0], 0, 0), 0);
	close(ep2);
	close(reg);
	close(dir);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void loops(void)
{
	int a = epoll_create1(0), b = epoll_create1(0), e[6];
	long r[5];

	EXPECT("loop_a_watches_b", ctl(a, EPOLL_CTL_ADD, b, EPOLLIN, 0), 0);
	EXPECT("loop_b_watches_a_eloop", ctl(b, EPOLL_CTL_ADD, a, EPOLLIN, 0), -ELOOP);
	EXPECT("add_epoll_again_eexist", ctl(a, EPOLL_CTL_ADD, b, EPOLLIN, 0), -EEXIST);
	close(a);
	close(b);

	for (int i = 0; i < 6; i++)
		e[i] = epoll_create1(0);
	for (int i = 4; i >= 0; i--)
		r[i] = ctl(e[i], EPOLL_CTL_ADD, e[i + 1], EPOLLIN, 0);
	EXPECT("nest_4_links_ok", !r[4] && !r[3] && !r[2] && !r[1], 1);
	EXPECT("nest_5th_link_eloop", r[0], -ELOOP);
	for (int i = 0; i < 6; i++)
		close(e[i]);
	for (int i = 0; i < 6; i++)
		e[i] = epoll_create1(0);
	for (int i = 0; i < 5; i++)
		r[i] = ctl(e[i], EPOLL_CTL_ADD, e[i + 1], EPOLLIN, 0);
	EXPECT("nest_top_down_5th_eloop", !r[0] && !r[1] && !r[2] && !r[3] && r[4] == -ELOOP, 1);
	for (int i = 0; i < 6; i++)
		close(e[i]);
}

static void triggers(void)
{
	struct epoll_event ev[4];
	int ep = epoll_create1(0), p[2];
	char buf[8];

	pipe(p);
	/* level triggered */
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 0x1122334455667788ull);
	EXPECT("lt_empty", ewait(ep, ev, 4, 0), 0);
	write(p[1], "ab", 2);
	EXPECT("lt_ready", ewait(ep, ev, 4, 0), 1);
	EXPECT("lt_events", ev[0].events, EPOLLIN);
	EXPECT("lt_data", ev[0].data.u64 == 0x1122334455667788ull, 1);
	EXPECT("lt_still_ready", ewait(ep, ev, 4, 0), 1);
	read(p[0], buf, 2);
	EXPECT("lt_drained", ewait(ep, ev, 4, 0), 0);
	/* edge triggered */
	ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLET, 2);
	EXPECT("et_empty", ewait(ep, ev, 4, 0), 0);
	write(p[1], "a", 1);
	EXPECT("et_edge", ewait(ep, ev, 4, 0) == 1 && ev[0].data.u64 == 2, 1);
	EXPECT("et_once", ewait(ep, ev, 4, 0), 0);
	write(p[1], "b", 1);
	EXPECT("et_next_edge", ewait(ep, ev, 4, 0), 1);
	EXPECT("et_once_again", ewait(ep, ev, 4, 0), 0);
	read(p[0], buf, 2);
	/* one-shot */
	ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLONESHOT, 3);
	write(p[1], "a", 1);
	EXPECT("oneshot_fires", ewait(ep, ev, 4, 0), 1);
	EXPECT("oneshot_disabled", ewait(ep, ev, 4, 0), 0);
	write(p[1], "b", 1);
	EXPECT("oneshot_disabled_after_write", ewait(ep, ev, 4, 0), 0);
	EXPECT("oneshot_mod", ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLONESHOT, 4), 0);
	EXPECT("oneshot_rearmed", ewait(ep, ev, 4, 0) == 1 && ev[0].data.u64 == 4, 1);
	EXPECT("oneshot_add_again_eexist", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 0), -EEXIST);
	read(p[0], buf, 2);
	ctl(ep, EPOLL_CTL_DEL, p[0], 0, 0);

	/* two ready items, one event at a time: level triggered goes round */
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 10);
	ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLOUT, 11);
	write(p[1], "a", 1);
	/* the write end was ready when added, the read end after the write */
	EXPECT("maxevents_1_first", ewait(ep, ev, 1, 0) == 1 && ev[0].data.u64 == 11, 1);
	EXPECT("maxevents_1_second", ewait(ep, ev, 1, 0) == 1 && ev[0].data.u64 == 10, 1);
	EXPECT("maxevents_1_round", ewait(ep, ev, 1, 0) == 1 && ev[0].data.u64 == 11, 1);
	EXPECT("both_ready", ewait(ep, ev, 4, 0), 2);
	EXPECT("pollout_events", ev[0].events == EPOLLOUT || ev[1].events == EPOLLOUT, 1);
	ctl(ep, EPOLL_CTL_DEL, p[1], 0, 0);
	read(p[0], buf, 1);

	/* EPOLLHUP and EPOLLERR come unasked; a pipe has no EPOLLRDHUP */
	ctl(ep, EPOLL_CTL_MOD, p[0], EPOLLIN | EPOLLRDHUP, 12);
	close(p[1]);
	EXPECT("hup_reported", ewait(ep, ev, 4, 0) == 1 && ev[0].events == EPOLLHUP, 1);
	ctl(ep, EPOLL_CTL_MOD, p[0], 0, 13);
	EXPECT("hup_with_no_events_asked", ewait(ep, ev, 4, 0) == 1 && ev[0].events == EPOLLHUP, 1);
	close(p[0]);
	pipe(p);
	ctl(ep, EPOLL_CTL_ADD, p[1], 0, 14);
	EXPECT("write_end_nothing_asked", ewait(ep, ev, 4, 0), 0);
	close(p[0]);
	EXPECT("err_reported", ewait(ep, ev, 4, 0) == 1 && ev[0].events == EPOLLERR, 1);
	close(p[1]);
	EXPECT("closed_write_end_left", ewait(ep, ev, 4, 0), 0);
	close(ep);
}

static void wait_errors_and_timeouts(void)
{
	struct epoll_event ev[2];
	struct timespec t0, ts;
	int ep = epoll_create1(0), p[2];
	long r;

	pipe(p);
	EXPECT("wait_maxevents_0", ewait(ep, ev, 0, 0), -EINVAL);
	EXPECT("wait_maxevents_negative", ewait(ep, ev, -1, 0), -EINVAL);
	EXPECT("wait_maxevents_too_many", ewait(ep, ev, EP_MAX_EVENTS + 1, 0), -EINVAL);
	EXPECT("wait_maxevents_max_ok", ewait(ep, low_events, EP_MAX_EVENTS, 0), 0);
	/* Linux 7.3 checks the buffer only when it copies an event */
	EXPECT("wait_kernel_pointer_ebadf", sys(syscall(SYS_epoll_wait, 999, (void *)KADDR, 1, 0)),
	       -EBADF);
	EXPECT("wait_kernel_pointer_efault", sys(syscall(SYS_epoll_wait, ep, (void *)KADDR, 1, 0)),
	       -EFAULT);
	/* Linux 7.3's order: the epfd, the count, the buffer, the epoll */
	EXPECT("wait_efault_before_not_epoll",
	       sys(syscall(SYS_epoll_wait, p[0], (void *)KADDR, 1, 0)), -EFAULT);
	EXPECT("wait_ebadf_before_maxevents", ewait(999, ev, 0, 0), -EBADF);
	EXPECT("wait_maxevents_before_efault",
	       sys(syscall(SYS_epoll_wait, ep, (void *)KADDR, 0, 0)), -EINVAL);
	EXPECT("wait_wrapping_buffer_efault", sys(syscall(SYS_epoll_wait, ep, (void *)-6l, 1, 0)),
	       -EFAULT);
	EXPECT("wait_past_user_ptr_max_efault", ewait(ep, (void *)(1ul << 60), 1, 0), -EFAULT);
	/* access_ok asks only that the range end below 2^56 */
	EXPECT("wait_big_range_checked_lazily",
	       ewait(ep, (void *)0x7ffff0000000ul, EP_MAX_EVENTS, 0), 0);
	EXPECT("wait_bad_epfd", ewait(999, ev, 1, 0), -EBADF);
	EXPECT("wait_not_epoll", ewait(p[0], ev, 1, 0), -EINVAL);
	EXPECT("wait_null_nothing_ready", sys(syscall(SYS_epoll_wait, ep, NULL, 1, 0)), 0);
	ctl(ep, EPOLL_CTL_ADD, p[1], EPOLLOUT, 1);
	EXPECT("wait_null_ready_efault", sys(syscall(SYS_epoll_wait, ep, NULL, 1, 0)), -EFAULT);
	EXPECT("wait_kernel_pointer_ready_efault",
	       sys(syscall(SYS_epoll_wait, ep, (void *)KADDR, 1, 0)), -EFAULT);
	EXPECT("wait_after_efault_still_ready", ewait(ep, ev, 2, 0), 1);
	ctl(ep, EPOLL_CTL_MOD, p[1], EPOLLOUT | EPOLLET, 2);
	EXPECT("et_efault", sys(syscall(SYS_epoll_wait, ep, NULL, 1, 0)), -EFAULT);
	EXPECT("et_kept_after_efault", ewait(ep, ev, 2, 0) == 1 && ev[0].data.u64 == 2, 1);
	EXPECT("et_then_reported_once", ewait(ep, ev, 2, 0), 0);
	ctl(ep, EPOLL_CTL_MOD, p[1], EPOLLOUT | EPOLLONESHOT, 3);
	EXPECT("oneshot_efault", sys(syscall(SYS_epoll_wait, ep, NULL, 1, 0)), -EFAULT);
	EXPECT("oneshot_armed_after_efault", ewait(ep, ev, 2, 0) == 1 && ev[0].data.u64 == 3, 1);
	ctl(ep, EPOLL_CTL_DEL, p[1], 0, 0);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = ewait(ep, ev, 2, 100);
	EXPECT("wait_timeout_100ms", r == 0 && ms_since(&t0) >= 90 && ms_since(&t0) < 2000, 1);

	ts = (struct timespec){ 0, 50000000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	r = sys(syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8));
	EXPECT("pwait2_timeout_50ms", r == 0 && ms_since(&t0) >= 45 && ms_since(&t0) < 2000, 1);
	ts = (struct timespec){ 0, 1000000000 };
	EXPECT("pwait2_bad_nsec", sys(syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8)), -EINVAL);
	ts = (struct timespec){ -1, 0 };
	EXPECT("pwait2_negative", sys(syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8)), -EINVAL);
	EXPECT("pwait2_bad_pointer",
	       sys(syscall(SYS_epoll_pwait2, ep, ev, 2, (void *)KADDR, NULL, 8)), -EFAULT);
	ts = (struct timespec){ 0, 0 };
	EXPECT("pwait2_zero", sys(syscall(SYS_epoll_pwait2, ep, ev, 2, &ts, NULL, 8)), 0);
	write(p[1], "a", 1);
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 5);
	EXPECT("pwait2_null_timeout_ready",
	       sys(syscall(SYS_epoll_pwait2, ep, ev, 2, NULL, NULL, 8)) == 1 && ev[0].data.u64 == 5,
	       1);
	close(p[0]);
	close(p[1]);
	close(ep);
}

static void signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	struct epoll_event ev[2];
	uint64_t none = 0, usr1 = 1ull << (SIGUSR1 - 1);
	sigset_t set, old;
	int ep = epoll_create1(0);
	pid_t pid;

	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	got_usr1 = 0;
	kill(getpid(), SIGUSR1);
	EXPECT("pwait_blocked_signal_waits_out", ewait(ep, ev, 2, 10), 0);
	EXPECT("pwait_no_handler_yet", got_usr1, 0);
	EXPECT("pwait_bad_sigsetsize", sys(syscall(SYS_epoll_pwait, ep, ev, 2, -1, &none, 4)),
	       -EINVAL);
	EXPECT("pwait_mask_lets_signal_in", sys(syscall(SYS_epoll_pwait, ep, ev, 2, -1, &none, 8)),
	       -EINTR);
	EXPECT("pwait_handler_ran", got_usr1, 1);
	sigprocmask(SIG_BLOCK, NULL, &set);
	EXPECT("pwait_mask_restored", sigismember(&set, SIGUSR1), 1);
	EXPECT("pwait_own_mask_blocks", sys(syscall(SYS_epoll_pwait, ep, ev, 2, 10, &usr1, 8)), 0);
	sigprocmask(SIG_SETMASK, &old, NULL);

	/* epoll_wait is not restarted, even with SA_RESTART */
	got_usr1 = 0;
	pid = later(-1, 50);
	EXPECT("wait_eintr_despite_sa_restart", ewait(ep, ev, 2, -1), -EINTR);
	EXPECT("wait_eintr_handler_ran", got_usr1, 1);
	waitpid(pid, NULL, 0);
	close(ep);
}

static void wakeups_close_nesting(void)
{
	struct epoll_event ev[2];
	int ep = epoll_create1(0), inner = epoll_create1(0), p[2], d, efd;
	struct pollfd pfd = { inner, POLLIN, 0 };
	char buf[8];
	pid_t pid;

	pipe(p);
	ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 1);
	pid = later(p[1], 50);
	EXPECT("wait_woken_by_write", ewait(ep, ev, 2, 5000) == 1 && ev[0].data.u64 == 1, 1);
	waitpid(pid, NULL, 0);
	read(p[0], buf, 1);

	/* a dup keeps the file: the item stays under the closed fd's number */
	d = dup(p[0]);
	close(p[0]);
	write(p[1], "a", 1);
	EXPECT("close_with_dup_keeps_item", ewait(ep, ev, 2, 0) == 1 && ev[0].data.u64 == 1, 1);
	EXPECT("closed_fd_del_ebadf", ctl(ep, EPOLL_CTL_DEL, p[0], 0, 0), -EBADF);
	close(d);
	EXPECT("last_close_removes_item", ewait(ep, ev, 2, 0), 0);
	close(p[1]);

	/* nested: the outer epoll sees the inner one's ready items */
	pipe(p);
	ctl(inner, EPOLL_CTL_ADD, p[0], EPOLLIN, 7);
	EXPECT("nested_add", ctl(ep, EPOLL_CTL_ADD, inner, EPOLLIN, 8), 0);
	EXPECT("nested_empty", ewait(ep, ev, 2, 0), 0);
	EXPECT("poll_epoll_empty", poll(&pfd, 1, 0), 0);
	write(p[1], "a", 1);
	EXPECT("nested_ready", ewait(ep, ev, 2, 0) == 1 && ev[0].data.u64 == 8, 1);
	EXPECT("nested_events", ev[0].events, EPOLLIN);
	EXPECT("poll_epoll_ready", poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN, 1);
	EXPECT("inner_reports", ewait(inner, ev, 2, 0) == 1 && ev[0].data.u64 == 7, 1);
	read(p[0], buf, 1);
	EXPECT("nested_drained", ewait(ep, ev, 2, 0), 0);
	pid = later(p[1], 50);
	EXPECT("nested_woken_by_write", ewait(ep, ev, 2, 5000) == 1 && ev[0].data.u64 == 8, 1);
	waitpid(pid, NULL, 0);
	close(inner);
	EXPECT("closed_inner_leaves_outer", ewait(ep, ev, 2, 0), 0);
	close(p[0]);
	close(p[1]);

	/* eventfd in epoll */
	efd = eventfd(0, EFD_NONBLOCK);
	ctl(ep, EPOLL_CTL_ADD, efd, EPOLLIN | EPOLLET, 9);
	EXPECT("efd_epoll_empty", ewait(ep, ev, 2, 0), 0);
	efd_write(efd, 3);
	EXPECT("efd_epoll_ready", ewait(ep, ev, 2, 0) == 1 && ev[0].events == EPOLLIN, 1);
	EXPECT("efd_epoll_et_once", ewait(ep, ev, 2, 0), 0);
	efd_write(efd, 1);
	EXPECT("efd_epoll_et_again", ewait(ep, ev, 2, 0), 1);
	close(efd);

	/* the tty: its output is always writable */
	EXPECT("tty_add", ctl(ep, EPOLL_CTL_ADD, 1, EPOLLOUT, 20), 0);
	EXPECT("tty_writable", ewait(ep, ev, 2, 0) == 1 && ev[0].events == EPOLLOUT, 1);
	ctl(ep, EPOLL_CTL_DEL, 1, 0, 0);
	close(ep);
}

/* Two children each wait on an epoll of their own that watches one
 * eventfd; one write wakes both, or with EPOLLEXCLUSIVE only the first
 * (Linux's exclusive wake-up stops at the first epoll with a waiter).
 * Return: how many of the two saw the event. */
static int woken_waiters(uint32_t events)
{
	struct timespec ts = { 0, 150000000 };
	int efd = eventfd(0, EFD_NONBLOCK), p[2], woken = 0;
	char c[2] = { 0, 0 };

	pipe(p);
	for (int i = 0; i < 2; i++) {
		if (fork() == 0) {
			struct epoll_event ev;
			int ep = epoll_create1(0);

			ctl(ep, EPOLL_CTL_ADD, efd, events, 0);
			c[0] = ewait(ep, &ev, 1, 600) == 1 ? '1' : '0';
			write(p[1], c, 1);
			_exit(0);
		}
	}
	nanosleep(&ts, NULL); /* both children asleep in epoll_wait */
	efd_write(efd, 1);
	wait(NULL);
	wait(NULL);
	read(p[0], c, 2);
	woken = (c[0] == '1') + (c[1] == '1');
	close(p[0]);
	close(p[1]);
	close(efd);
	return woken;
}

static void exclusive_wakeups(void)
{
	EXPECT("plain_items_all_woken", woken_waiters(EPOLLIN), 2);
	EXPECT("exclusive_items_one_woken", woken_waiters(EPOLLIN | EPOLLEXCLUSIVE), 1);
}

/* A child adds an fd to the epoll it shares with its parent, and exits:
 * the item stays, since the parent still has the file. */
static void fork_shares(void)
{
	struct epoll_event ev[2];
	int ep = epoll_create1(0), p[2], status = -1;
	pid_t pid;

	pipe(p);
	pid = fork();
	if (pid == 0)
		_exit(ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 30) == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	EXPECT("fork_child_added", status, 0);
	write(p[1], "a", 1);
	EXPECT("fork_parent_sees_item", ewait(ep, ev, 2, 0) == 1 && ev[0].data.u64 == 30, 1);
	EXPECT("fork_parent_eexist", ctl(ep, EPOLL_CTL_ADD, p[0], EPOLLIN, 0), -EEXIST);
	close(p[0]);
	close(p[1]);
	close(ep);
}

/* "epolltest tty", for a serial session: the console is not readable
 * until a line is typed; then the wait ends with EPOLLIN and the line is
 * read and printed. Return: 0, or 1 with a FAIL line. */
static int tty_mode(void)
{
	struct epoll_event ev = { 0, { 0 } };
	int ep = epoll_create1(0);
	char line[64];
	long n;

	if (ctl(ep, EPOLL_CTL_ADD, 0, EPOLLIN, 0x77) || ewait(ep, &ev, 1, 0) != 0) {
		printf("FAIL tty: not added, or ready before a line\n");
		return 1;
	}
	printf("epolltest: waiting for a line\n");
	n = ewait(ep, &ev, 1, 60000);
	if (n != 1 || ev.events != EPOLLIN || ev.data.u64 != 0x77) {
		printf("FAIL tty: wait %ld, events %#x\n", n, (unsigned int)ev.events);
		return 1;
	}
	n = read(0, line, sizeof(line) - 1);
	line[n > 0 ? n : 0] = 0;
	line[strcspn(line, "\r\n")] = 0;
	printf("epolltest: tty ready: EPOLLIN, read \"%s\"\n", line);
	return 0;
}

/* A signalfd: the raw call, -errno. */
static long sfd4(int ufd, uint64_t mask, size_t size, int flags)
{
	return sys(syscall(SYS_signalfd4, ufd, &mask, size, flags));
}

static void signalfds(void)
{
	uint64_t usr1 = 1ull << (SIGUSR1 - 1), rt1 = 1ull << (SIGRTMIN + 1 - 1);
	uint64_t chld = 1ull << (SIGCHLD - 1), usr2 = 1ull << (SIGUSR2 - 1);
	struct signalfd_siginfo ssi[3];
	struct epoll_event ev;
	sigset_t set, old;
	int fd, bfd, ep, pipefd[2], status = -1;
	union sigval v;
	pid_t pid;

	EXPECT("sfd_bad_size", sfd4(-1, usr1, 4, 0), -EINVAL);
	EXPECT("sfd_bad_mask_pointer", sys(syscall(SYS_signalfd4, -1, (void *)KADDR, (size_t)8, 0)),
	       -EFAULT);
	EXPECT("sfd_bad_flags", sfd4(-1, usr1, 8, 1), -EINVAL);
	EXPECT("sfd_bad_fd", sfd4(999, usr1, 8, 0), -EBADF);
	pipe(pipefd);
	EXPECT("sfd_not_a_signalfd", sfd4(pipefd[0], usr1, 8, 0), -EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigaddset(&set, SIGRTMIN + 1);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	fd = (int)sfd4(-1, usr1, 8, SFD_NONBLOCK | SFD_CLOEXEC);
	check("sfd_made", fd >= 0, "errno %ld", (long)fd);
	EXPECT("sfd_cloexec", fcntl(fd, F_GETFD), FD_CLOEXEC);
	EXPECT("sfd_flags", fcntl(fd, F_GETFL) & (O_ACCMODE | O_NONBLOCK), O_RDWR | O_NONBLOCK);
	EXPECT("sfd_read_none_pending", sys(read(fd, ssi, sizeof(ssi))), -EAGAIN);
	EXPECT("sfd_read_too_small", sys(read(fd, ssi, sizeof(ssi[0]) - 1)), -EINVAL);
	EXPECT("sfd_poll_none", poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 0), 0);
	kill(getpid(), SIGUSR1);
	EXPECT("sfd_poll_pending", poll(&(struct pollfd){ .fd = fd, .events = POLLIN }, 1, 0), 1);
	ep = epoll_create1(0);
	ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN, 7);
	EXPECT("sfd_epoll_pending", ewait(ep, &ev, 1, 0) == 1 && ev.events == EPOLLIN, 1);
	EXPECT("sfd_read_kill", read(fd, ssi, sizeof(ssi)), (long)sizeof(ssi[0]));
	check("sfd_kill_record",
	      ssi[0].ssi_signo == SIGUSR1 && ssi[0].ssi_code == SI_USER &&
		      ssi[0].ssi_pid == (uint32_t)getpid() && ssi[0].ssi_uid == getuid(),
	      "signo %u code %d pid %u uid %u", ssi[0].ssi_signo, ssi[0].ssi_code, ssi[0].ssi_pid,
	      ssi[0].ssi_uid);
	EXPECT("sfd_read_leaves_none", ewait(ep, &ev, 1, 0), 0);
	/* A new set for the same fd; a real-time signal queues each value. */
	EXPECT("sfd_new_mask", sfd4(fd, usr1 | rt1, 8, 0), fd);
	v.sival_int = 7;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	v.sival_int = 8;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	kill(getpid(), SIGUSR2); /* not in the set: stays pending */
	EXPECT("sfd_read_queued", read(fd, ssi, sizeof(ssi)), (long)(2 * sizeof(ssi[0])));
	check("sfd_sigqueue_records",
	      ssi[0].ssi_signo == (uint32_t)SIGRTMIN + 1 && ssi[0].ssi_code == SI_QUEUE &&
		      ssi[0].ssi_int == 7 && ssi[1].ssi_int == 8 &&
		      ssi[0].ssi_pid == (uint32_t)getpid(),
	      "signo %u code %d ints %d %d", ssi[0].ssi_signo, ssi[0].ssi_code, ssi[0].ssi_int,
	      ssi[1].ssi_int);
	sigpending(&set);
	EXPECT("sfd_other_signal_still_pending", sigismember(&set, SIGUSR2), 1);
	EXPECT("sfd_sigkill_never_read", sfd4(fd, ~0ull, 8, 0), fd);
	EXPECT("sfd_takes_the_rest", read(fd, ssi, sizeof(ssi)), (long)sizeof(ssi[0]));
	EXPECT("sfd_rest_is_usr2", ssi[0].ssi_signo, SIGUSR2);

	/* A blocking read waits until a child's exit brings SIGCHLD. */
	bfd = (int)sfd4(-1, chld, 8, 0);
	pid = fork();
	if (pid == 0) {
		struct timespec ts = { 0, 50 * 1000000l };

		nanosleep(&ts, NULL);
		_exit(5);
	}
	EXPECT("sfd_blocking_read_sigchld", read(bfd, ssi, sizeof(ssi)), (long)sizeof(ssi[0]));
	check("sfd_sigchld_record",
	      ssi[0].ssi_signo == SIGCHLD && ssi[0].ssi_code == CLD_EXITED &&
		      ssi[0].ssi_pid == (uint32_t)pid && ssi[0].ssi_status == 5,
	      "signo %u code %d pid %u status %d", ssi[0].ssi_signo, ssi[0].ssi_code,
	      ssi[0].ssi_pid, ssi[0].ssi_status);
	waitpid(pid, &status, 0);
	EXPECT("sfd_child_status", status, 5 << 8);

	/* An epoll item added by a child, on the signalfd both share, waits
	 * on the child's signal queue; the child's exit frees that queue
	 * (Linux's POLLFREE) and the item stays harmless. */
	EXPECT("sfd_del_parent_item", ctl(ep, EPOLL_CTL_DEL, fd, 0, 0), 0);
	EXPECT("sfd_mask_usr2", sfd4(fd, usr2, 8, 0), fd);
	pid = fork();
	if (pid == 0)
		_exit(ctl(ep, EPOLL_CTL_ADD, fd, EPOLLIN, 9) == 0 ? 0 : 1);
	waitpid(pid, &status, 0);
	EXPECT("sfd_child_added_item", status, 0);
	EXPECT("sfd_item_after_child_exit", ewait(ep, &ev, 1, 0), 0);
	kill(getpid(), SIGUSR2);
	EXPECT("sfd_item_polls_the_caller", ewait(ep, &ev, 1, 0), 0);
	EXPECT("sfd_item_deleted", ctl(ep, EPOLL_CTL_DEL, fd, 0, 0), 0);
	EXPECT("sfd_read_usr2", read(fd, ssi, sizeof(ssi)), (long)sizeof(ssi[0]));
	close(ep);
	close(bfd);
	close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc > 1 && !strcmp(argv[1], "tty"))
		return tty_mode();
	eventfd_counter();
	eventfd_poll_and_block();
	anon_inode_names();
	create_and_ctl_errors();
	loops();
	triggers();
	wait_errors_and_timeouts();
	signals();
	wakeups_close_nesting();
	fork_shares();
	exclusive_wakeups();
	signalfds();
	return check_summary("epolltest");
}
