/*
 * /bin/timertest: alarm, setitimer/getitimer (ITIMER_REAL, ITIMER_VIRTUAL,
 * ITIMER_PROF), the POSIX timers (timer_create with SIGEV_SIGNAL,
 * SIGEV_NONE and SIGEV_THREAD_ID, timer_settime, timer_gettime,
 * timer_getoverrun, timer_delete), timerfd, clock_nanosleep with
 * TIMER_ABSTIME and CLOCK_THREAD_CPUTIME_ID, checked from ring 3 the same
 * way on Linux and on Folium. Prints "ok NAME" or "FAIL NAME: ..." a line,
 * then "timertest: N checks, all ok" (exit 0) or "timertest: K of N
 * checks FAILED" (exit 1). Counts are checked against the time that
 * really passed (a loaded emulator stalls): a 10 ms timer over a measured
 * 200 ms fires 20 times, within a tick of slack and never more than one
 * extra; a timer never fires early. The POSIX timer and timerfd calls are
 * made as raw system calls, so both C libraries pass the kernel's ids.
 * Example: setitimer(ITIMER_REAL, {10 ms, 10 ms}) then 200 ms of waiting:
 * about 20 SIGALRMs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define MS 1000000ll
#define TICK (10 * MS)	/* Folium's CONFIG_HZ=100 tick; Linux's is shorter */
#define SLOW (500 * MS) /* how late a loaded emulator may wake us */

/* The kernel's struct sigevent (64 bytes), sigev_notify_thread_id at 12. */
struct ksigevent {
	union sigval sigev_value;
	int sigev_signo;
	int sigev_notify;
	int tid;
	int pad[11];
};
#define K_SIGEV_SIGNAL 0
#define K_SIGEV_NONE 1
#define K_SIGEV_THREAD_ID 4
#define K_TFD_TIMER_ABSTIME 1
#define K_TFD_CLOEXEC O_CLOEXEC
#define K_TFD_NONBLOCK O_NONBLOCK

/* A call that must fail with err. */
#define EXPECT_ERR(name, expr, err)                                                          \
	do {                                                                                 \
		errno = 0;                                                                   \
		long got_ = (long)(expr);                                                    \
		check(name, got_ == -1 && errno == (err), "got %ld errno %s, want %s", got_, \
		      strerror(errno), strerror(err));                                       \
	} while (0)
#define RANGE(name, v, lo, hi)                                                           \
	do {                                                                             \
		long long v_ = (long long)(v);                                           \
		check(name, v_ >= (long long)(lo) && v_ <= (long long)(hi),              \
		      "%lld not in [%lld, %lld]", v_, (long long)(lo), (long long)(hi)); \
	} while (0)

static long long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static struct timespec ts_of(long long ns)
{
	return (struct timespec){ ns / 1000000000ll, ns % 1000000000ll };
}

/* Wait @ns of CLOCK_MONOTONIC whatever signals come. */
static void wait_ns(long long ns)
{
	long long end = now_ns(CLOCK_MONOTONIC) + ns, left;

	while ((left = end - now_ns(CLOCK_MONOTONIC)) > 0) {
		struct timespec ts = ts_of(left);

		nanosleep(&ts, NULL);
	}
}

static volatile sig_atomic_t nr_alrm, nr_vtalrm, nr_prof, nr_usr1, nr_usr2;
static volatile int last_code, last_value, last_timerid, last_overrun, handler_overrun;
static volatile int overrun_timer = -1, first_overrun = -1, first_handler_overrun = -2;

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGALRM)
		nr_alrm++;
	if (sig == SIGVTALRM)
		nr_vtalrm++;
	if (sig == SIGPROF)
		nr_prof++;
	if (sig == SIGUSR1 || sig == SIGUSR2) {
		if (sig == SIGUSR1)
			nr_usr1++;
		else
			nr_usr2++;
		last_code = si->si_code;
		last_value = si->si_value.sival_int;
		last_timerid = si->si_timerid;
		last_overrun = si->si_overrun;
		if (overrun_timer >= 0 && handler_overrun < 0) {
			handler_overrun = (int)syscall(SYS_timer_getoverrun, overrun_timer);
			first_overrun = si->si_overrun;
			first_handler_overrun = handler_overrun;
		}
	}
}

static void catch (int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigaction(sig, &sa, NULL);
}

static void block(int sig, int how)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(how, &set, NULL);
}

/* User time between clock reads (a clock read may be a system call). */
static void burn(void)
{
	for (volatile int i = 0; i < 20000; i++)
		;
}

/* Spin on the CPU until *flag moves or @max_ns of CPU time passed. */
static void spin_until(volatile sig_atomic_t *flag, sig_atomic_t from, long long max_ns)
{
	long long end = now_ns(CLOCK_PROCESS_CPUTIME_ID) + max_ns;

	while (*flag == from && now_ns(CLOCK_PROCESS_CPUTIME_ID) < end)
		burn();
}

static long long tv_ns(struct timeval tv)
{
	return tv.tv_sec * 1000000000ll + tv.tv_usec * 1000ll;
}

static void itimer_real(void)
{
	struct itimerval it = { { 0, 10000 }, { 0, 10000 } }, old, get;
	long long t0, elapsed;
	int n;

	catch (SIGALRM);
	nr_alrm = 0;
	t0 = now_ns(CLOCK_MONOTONIC);
	EXPECT("setitimer_real_periodic", setitimer(ITIMER_REAL, &it, NULL), 0);
	wait_ns(200 * MS);
	n = nr_alrm;
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	memset(&old, 0xff, sizeof(old));
	EXPECT("setitimer_real_stop", setitimer(ITIMER_REAL, &(struct itimerval){ 0 }, &old), 0);
	/* One per 10 ms that passed: a stall can merge some, none are extra. */
	RANGE("itimer_real_10ms_over_200ms", n, (elapsed - TICK) / (10 * MS) / 2,
	      elapsed / (10 * MS) + 1);
	EXPECT("setitimer_old_interval", tv_ns(old.it_interval), 10 * MS);
	RANGE("setitimer_old_value", tv_ns(old.it_value), 1000, 10 * MS);
	getitimer(ITIMER_REAL, &get);
	EXPECT("getitimer_real_off", tv_ns(get.it_value) + tv_ns(get.it_interval), 0);

	/* One shot: never early. */
	nr_alrm = 0;
	it = (struct itimerval){ { 0, 0 }, { 0, 50000 } };
	t0 = now_ns(CLOCK_MONOTONIC);
	setitimer(ITIMER_REAL, &it, NULL);
	while (!nr_alrm && now_ns(CLOCK_MONOTONIC) - t0 < 5000 * MS)
		pause();
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	RANGE("itimer_real_one_shot_50ms", elapsed, 50 * MS, 50 * MS + SLOW);
	EXPECT("itimer_real_one_shot_fires_once", nr_alrm, 1);

	/* getitimer: what is left, and the interval as set. */
	it = (struct itimerval){ { 0, 500000 }, { 1, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	getitimer(ITIMER_REAL, &get);
	RANGE("getitimer_real_remaining", tv_ns(get.it_value), 1000 * MS - SLOW, 1000 * MS);
	EXPECT("getitimer_real_interval", tv_ns(get.it_interval), 500 * MS);
	EXPECT("setitimer_null_value_stops", syscall(SYS_setitimer, ITIMER_REAL, NULL, NULL), 0);
	getitimer(ITIMER_REAL, &get);
	EXPECT("setitimer_null_value_off", tv_ns(get.it_value), 0);
	/* An interval without a value is not kept. */
	it = (struct itimerval){ { 1, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &it, NULL);
	getitimer(ITIMER_REAL, &get);
	EXPECT("setitimer_interval_without_value", tv_ns(get.it_interval), 0);
}

static void itimer_errors(void)
{
	struct itimerval bad = { { 0, 0 }, { 0, 1000000 } }, get;

	EXPECT_ERR("setitimer_usec_1000000_einval", setitimer(ITIMER_REAL, &bad, NULL), EINVAL);
	bad = (struct itimerval){ { -1, 0 }, { 1, 0 } };
	EXPECT_ERR("setitimer_negative_interval_einval", setitimer(ITIMER_REAL, &bad, NULL),
		   EINVAL);
	EXPECT_ERR("setitimer_bad_which_einval",
		   syscall(SYS_setitimer, 3, &(struct itimerval){ 0 }, NULL), EINVAL);
	EXPECT_ERR("getitimer_bad_which_einval", syscall(SYS_getitimer, 5, &get), EINVAL);
	EXPECT_ERR("getitimer_bad_pointer_efault", syscall(SYS_getitimer, ITIMER_REAL, 8), EFAULT);
	EXPECT_ERR("setitimer_bad_pointer_efault", syscall(SYS_setitimer, ITIMER_REAL, 8, NULL),
		   EFAULT);
}

static void alarm_calls(void)
{
	long long t0, elapsed;

	EXPECT("alarm_first_returns_0", alarm(5), 0);
	EXPECT("alarm_returns_seconds_left", alarm(3), 5);
	EXPECT("alarm_0_returns_left_and_stops", alarm(0), 3);
	EXPECT("alarm_after_stop_returns_0", alarm(0), 0);
	catch (SIGALRM);
	nr_alrm = 0;
	t0 = now_ns(CLOCK_MONOTONIC);
	alarm(1);
	while (!nr_alrm && now_ns(CLOCK_MONOTONIC) - t0 < 5000 * MS)
		pause();
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	RANGE("alarm_1_fires_after_a_second", elapsed, 1000 * MS, 1000 * MS + SLOW);
}

static void itimer_cpu(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 50000 } }, get;
	long long c0, used;

	catch (SIGVTALRM);
	catch (SIGPROF);
	/* Set then read: the value plus up to a tick (Linux's rounding). */
	it.it_value = (struct timeval){ 1, 0 };
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	getitimer(ITIMER_VIRTUAL, &get);
	RANGE("getitimer_virtual_remaining", tv_ns(get.it_value), 1000 * MS - SLOW,
	      1000 * MS + TICK);
	setitimer(ITIMER_VIRTUAL, &(struct itimerval){ 0 }, &get);
	RANGE("setitimer_virtual_old_value", tv_ns(get.it_value), 1000 * MS - SLOW,
	      1000 * MS + TICK);

	/* ITIMER_VIRTUAL counts user time: a spin gets there. */
	nr_vtalrm = 0;
	it = (struct itimerval){ { 0, 0 }, { 0, 50000 } };
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	setitimer(ITIMER_VIRTUAL, &it, NULL);
	spin_until(&nr_vtalrm, 0, 5000 * MS);
	used = now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	EXPECT("itimer_virtual_fires_on_a_spin", nr_vtalrm, 1);
	RANGE("itimer_virtual_50ms_of_cpu", used, 50 * MS - TICK, 50 * MS + SLOW);

	/* ITIMER_PROF, periodic 20 ms over 200 ms of CPU time: 10. */
	nr_prof = 0;
	it = (struct itimerval){ { 0, 20000 }, { 0, 20000 } };
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	setitimer(ITIMER_PROF, &it, NULL);
	while (now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0 < 200 * MS)
		burn();
	setitimer(ITIMER_PROF, &(struct itimerval){ 0 }, &get);
	RANGE("itimer_prof_20ms_over_200ms_cpu", nr_prof, 5, 11);
	EXPECT("itimer_prof_old_interval", tv_ns(get.it_interval), 20 * MS);
}

static long k_timer_create(clockid_t clk, struct ksigevent *ev, int *id)
{
	return syscall(SYS_timer_create, clk, ev, id);
}

static long k_timer_settime(int id, int flags, long long value, long long interval,
			    struct itimerspec *old)
{
	struct itimerspec its = { ts_of(interval), ts_of(value) };

	return syscall(SYS_timer_settime, id, flags, &its, old);
}

static long long its_value(const struct itimerspec *its)
{
	return its->it_value.tv_sec * 1000000000ll + its->it_value.tv_nsec;
}

static long long its_interval(const struct itimerspec *its)
{
	return its->it_interval.tv_sec * 1000000000ll + its->it_interval.tv_nsec;
}

static void posix_timer_signal(void)
{
	struct ksigevent ev = { .sigev_signo = SIGUSR1, .sigev_notify = K_SIGEV_SIGNAL };
	long long t0, elapsed;
	int id = -1, n;

	catch (SIGUSR1);
	ev.sigev_value.sival_int = 0x1234;
	EXPECT("timer_create_sigev_signal", k_timer_create(CLOCK_MONOTONIC, &ev, &id), 0);
	nr_usr1 = 0;
	t0 = now_ns(CLOCK_MONOTONIC);
	EXPECT("timer_settime_periodic_20ms", k_timer_settime(id, 0, 20 * MS, 20 * MS, NULL), 0);
	wait_ns(200 * MS);
	n = nr_usr1;
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	EXPECT("timer_delete", syscall(SYS_timer_delete, id), 0);
	RANGE("timer_sigev_signal_20ms_over_200ms", n, (elapsed - TICK) / (20 * MS) / 2,
	      elapsed / (20 * MS) + 1);
	EXPECT("timer_siginfo_si_code_si_timer", last_code, SI_TIMER);
	EXPECT("timer_siginfo_si_value", last_value, 0x1234);
	EXPECT("timer_siginfo_si_timerid", last_timerid, id);
	EXPECT_ERR("timer_gettime_after_delete_einval",
		   syscall(SYS_timer_gettime, id, &(struct itimerspec){ 0 }), EINVAL);
	n = nr_usr1;
	wait_ns(50 * MS);
	EXPECT("timer_deleted_sends_nothing", nr_usr1, n);
}

static void posix_timer_thread_id(void)
{
	struct ksigevent ev = { .sigev_signo = SIGUSR2, .sigev_notify = K_SIGEV_THREAD_ID };
	long long t0, elapsed;
	int id = -1;

	catch (SIGUSR2);
	ev.tid = (int)syscall(SYS_gettid);
	ev.sigev_value.sival_int = 77;
	EXPECT("timer_create_sigev_thread_id", k_timer_create(CLOCK_REALTIME, &ev, &id), 0);
	nr_usr2 = 0;
	t0 = now_ns(CLOCK_MONOTONIC);
	k_timer_settime(id, 0, 30 * MS, 0, NULL);
	while (!nr_usr2 && now_ns(CLOCK_MONOTONIC) - t0 < 5000 * MS)
		pause();
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	RANGE("timer_thread_id_one_shot_30ms", elapsed, 30 * MS, 30 * MS + SLOW);
	EXPECT("timer_thread_id_si_value", last_value, 77);
	EXPECT("timer_thread_id_si_code", last_code, SI_TIMER);
	syscall(SYS_timer_delete, id);
}

/* Blocked for 105 ms, a 10 ms timer queues one signal and counts the rest
 * as overruns: si_overrun and timer_getoverrun in the handler agree. The
 * timer runs on while the signal is delivered (Linux drops a queued
 * signal of a timer that was set again). */
static void posix_timer_overrun(void)
{
	struct ksigevent ev = { .sigev_signo = SIGUSR1, .sigev_notify = K_SIGEV_SIGNAL };
	long long t0, elapsed;
	int id = -1;

	catch (SIGUSR1);
	k_timer_create(CLOCK_MONOTONIC, &ev, &id);
	block(SIGUSR1, SIG_BLOCK);
	nr_usr1 = 0;
	t0 = now_ns(CLOCK_MONOTONIC);
	k_timer_settime(id, 0, 10 * MS, 10 * MS, NULL);
	wait_ns(105 * MS);
	EXPECT("timer_getoverrun_while_pending_is_the_last_delivered",
	       syscall(SYS_timer_getoverrun, id), 0);
	EXPECT("timer_blocked_signal_not_delivered", nr_usr1, 0);
	overrun_timer = id;
	handler_overrun = -1;
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	block(SIGUSR1, SIG_UNBLOCK);
	syscall(SYS_timer_delete, id);
	overrun_timer = -1;
	RANGE("timer_si_overrun_counts_the_expiries", first_overrun,
	      (elapsed - TICK) / (10 * MS) / 2 - 1, elapsed / (10 * MS) + 1);
	EXPECT("timer_getoverrun_matches_si_overrun", first_handler_overrun, first_overrun);
}

static void posix_timer_gettime(void)
{
	struct ksigevent none = { .sigev_notify = K_SIGEV_NONE };
	struct itimerspec cur, old;
	int id = -1;

	EXPECT("timer_create_sigev_none", k_timer_create(CLOCK_MONOTONIC, &none, &id), 0);
	syscall(SYS_timer_gettime, id, &cur);
	EXPECT("timer_gettime_unarmed", its_value(&cur) + its_interval(&cur), 0);
	k_timer_settime(id, 0, 1000 * MS, 0, NULL);
	syscall(SYS_timer_gettime, id, &cur);
	RANGE("timer_gettime_remaining", its_value(&cur), 1000 * MS - SLOW, 1000 * MS);
	EXPECT("timer_gettime_interval", its_interval(&cur), 0);
	k_timer_settime(id, 0, 50 * MS, 0, &old);
	RANGE("timer_settime_old_value", its_value(&old), 1000 * MS - SLOW, 1000 * MS);
	wait_ns(80 * MS);
	syscall(SYS_timer_gettime, id, &cur);
	EXPECT("timer_gettime_one_shot_expired", its_value(&cur), 0);
	k_timer_settime(id, 0, 30 * MS, 30 * MS, NULL);
	wait_ns(100 * MS);
	syscall(SYS_timer_gettime, id, &cur);
	RANGE("timer_gettime_periodic_sigev_none", its_value(&cur), 1, 30 * MS);
	EXPECT("timer_gettime_periodic_interval", its_interval(&cur), 30 * MS);
	k_timer_settime(id, TIMER_ABSTIME, now_ns(CLOCK_MONOTONIC) + 300 * MS, 0, NULL);
	syscall(SYS_timer_gettime, id, &cur);
	RANGE("timer_settime_abstime", its_value(&cur), 300 * MS - SLOW, 300 * MS);
	EXPECT("timer_delete_sigev_none", syscall(SYS_timer_delete, id), 0);
}

static void posix_timer_cpu(void)
{
	struct ksigevent ev = { .sigev_signo = SIGUSR1, .sigev_notify = K_SIGEV_SIGNAL };
	long long c0, used;
	int id = -1;

	catch (SIGUSR1);
	EXPECT("timer_create_process_cputime", k_timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &id),
	       0);
	nr_usr1 = 0;
	c0 = now_ns(CLOCK_PROCESS_CPUTIME_ID);
	k_timer_settime(id, 0, 40 * MS, 0, NULL);
	spin_until(&nr_usr1, 0, 5000 * MS);
	used = now_ns(CLOCK_PROCESS_CPUTIME_ID) - c0;
	EXPECT("timer_process_cputime_fires", nr_usr1, 1);
	RANGE("timer_process_cputime_40ms", used, 40 * MS - TICK, 40 * MS + SLOW);
	syscall(SYS_timer_delete, id);
}

static void posix_timer_errors(void)
{
	struct ksigevent ev = { .sigev_signo = SIGUSR1, .sigev_notify = K_SIGEV_SIGNAL };
	struct itimerspec its = { { 0, 0 }, { 0, 1000000000 } };
	int id = -1;

	EXPECT_ERR("timer_create_bad_clock_einval", k_timer_create(100, &ev, &id), EINVAL);
	EXPECT_ERR("timer_create_monotonic_raw_eopnotsupp",
		   k_timer_create(CLOCK_MONOTONIC_RAW, &ev, &id), EOPNOTSUPP);
	ev.sigev_notify = 99;
	EXPECT_ERR("timer_create_bad_notify_einval", k_timer_create(CLOCK_MONOTONIC, &ev, &id),
		   EINVAL);
	ev = (struct ksigevent){ .sigev_signo = 0, .sigev_notify = K_SIGEV_SIGNAL };
	EXPECT_ERR("timer_create_signal_0_einval", k_timer_create(CLOCK_MONOTONIC, &ev, &id),
		   EINVAL);
	ev.sigev_signo = 65;
	EXPECT_ERR("timer_create_signal_65_einval", k_timer_create(CLOCK_MONOTONIC, &ev, &id),
		   EINVAL);
	ev = (struct ksigevent){ .sigev_signo = SIGUSR1,
				 .sigev_notify = K_SIGEV_THREAD_ID,
				 .tid = 999999 };
	EXPECT_ERR("timer_create_thread_id_not_ours_einval",
		   k_timer_create(CLOCK_MONOTONIC, &ev, &id), EINVAL);
	EXPECT_ERR("timer_create_bad_sigevent_efault",
		   k_timer_create(CLOCK_MONOTONIC, (struct ksigevent *)8, &id), EFAULT);
	EXPECT_ERR("timer_settime_bad_id_einval", k_timer_settime(12345, 0, MS, 0, NULL), EINVAL);
	EXPECT_ERR("timer_gettime_bad_id_einval", syscall(SYS_timer_gettime, -1, &its), EINVAL);
	EXPECT_ERR("timer_getoverrun_bad_id_einval", syscall(SYS_timer_getoverrun, 12345), EINVAL);
	EXPECT_ERR("timer_delete_bad_id_einval", syscall(SYS_timer_delete, 12345), EINVAL);
	/* No sigevent: SIGALRM to the process. */
	EXPECT("timer_create_null_sigevent", k_timer_create(CLOCK_MONOTONIC, NULL, &id), 0);
	EXPECT_ERR("timer_settime_nsec_1e9_einval", syscall(SYS_timer_settime, id, 0, &its, NULL),
		   EINVAL);
	EXPECT_ERR("timer_settime_null_einval", syscall(SYS_timer_settime, id, 0, NULL, NULL),
		   EINVAL);
	syscall(SYS_timer_delete, id);
}

static void timerfd_calls(void)
{
	struct itimerspec its, cur;
	struct pollfd pfd;
	uint64_t ticks = 0;
	long long t0, before_read, elapsed;
	int fd, pipefd[2];
	char small[4];

	EXPECT_ERR("timerfd_create_bad_clock_einval", syscall(SYS_timerfd_create, 100, 0), EINVAL);
	EXPECT_ERR("timerfd_create_bad_flags_einval",
		   syscall(SYS_timerfd_create, CLOCK_MONOTONIC, 1), EINVAL);
	fd = (int)syscall(SYS_timerfd_create, CLOCK_MONOTONIC, K_TFD_NONBLOCK | K_TFD_CLOEXEC);
	check("timerfd_create", fd >= 0, "fd %d errno %s", fd, strerror(errno));
	EXPECT("timerfd_cloexec", fcntl(fd, F_GETFD) & FD_CLOEXEC, FD_CLOEXEC);
	EXPECT("timerfd_nonblock", fcntl(fd, F_GETFL) & O_NONBLOCK, O_NONBLOCK);
	EXPECT_ERR("timerfd_read_unarmed_eagain", read(fd, &ticks, 8), EAGAIN);
	EXPECT_ERR("timerfd_read_4_bytes_einval", read(fd, small, 4), EINVAL);

	/* Periodic 10 ms over a measured 100 ms: the count is exact to a
	 * period or so (missed periods are counted, not merged). */
	its = (struct itimerspec){ ts_of(10 * MS), ts_of(10 * MS) };
	t0 = now_ns(CLOCK_MONOTONIC);
	EXPECT("timerfd_settime_periodic", syscall(SYS_timerfd_settime, fd, 0, &its, NULL), 0);
	wait_ns(100 * MS);
	/* The count lies between the periods gone before the read started
	 * and those gone when it returned: a host that stalls the guest
	 * after the read must not raise the lower bound. */
	before_read = now_ns(CLOCK_MONOTONIC) - t0;
	EXPECT("timerfd_read_8_bytes", read(fd, &ticks, 8), 8);
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	RANGE("timerfd_periodic_10ms_count", (long long)ticks, (before_read - TICK) / (10 * MS) - 1,
	      elapsed / (10 * MS));
	syscall(SYS_timerfd_gettime, fd, &cur);
	RANGE("timerfd_gettime_periodic", its_value(&cur), 0, 10 * MS);
	EXPECT("timerfd_gettime_interval", its_interval(&cur), 10 * MS);

	/* Stop it; the old value is returned. */
	its = (struct itimerspec){ { 0, 0 }, { 0, 0 } };
	EXPECT("timerfd_settime_stop", syscall(SYS_timerfd_settime, fd, 0, &its, &cur), 0);
	EXPECT("timerfd_settime_old_interval", its_interval(&cur), 10 * MS);
	read(fd, &ticks, 8);
	EXPECT_ERR("timerfd_stopped_read_eagain", read(fd, &ticks, 8), EAGAIN);
	syscall(SYS_timerfd_gettime, fd, &cur);
	EXPECT("timerfd_gettime_stopped", its_value(&cur) + its_interval(&cur), 0);

	/* poll: not readable before the expiry, readable after. */
	its = (struct itimerspec){ { 0, 0 }, ts_of(30 * MS) };
	syscall(SYS_timerfd_settime, fd, 0, &its, NULL);
	pfd = (struct pollfd){ fd, POLLIN, 0 };
	EXPECT("timerfd_poll_before_expiry", poll(&pfd, 1, 0), 0);
	t0 = now_ns(CLOCK_MONOTONIC);
	EXPECT("timerfd_poll_waits_for_expiry", poll(&pfd, 1, 5000), 1);
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	EXPECT("timerfd_poll_pollin", pfd.revents, POLLIN);
	RANGE("timerfd_poll_after_30ms", elapsed, 20 * MS, 30 * MS + SLOW);
	EXPECT("timerfd_one_shot_reads_1", read(fd, &ticks, 8) == 8 ? (long)ticks : -1, 1);
	close(fd);

	/* Blocking read with an absolute REALTIME expiry. */
	fd = (int)syscall(SYS_timerfd_create, CLOCK_REALTIME, 0);
	its = (struct itimerspec){ { 0, 0 }, ts_of(now_ns(CLOCK_REALTIME) + 40 * MS) };
	t0 = now_ns(CLOCK_MONOTONIC);
	EXPECT("timerfd_settime_abstime_realtime",
	       syscall(SYS_timerfd_settime, fd, K_TFD_TIMER_ABSTIME, &its, NULL), 0);
	EXPECT("timerfd_blocking_read", read(fd, &ticks, 8), 8);
	elapsed = now_ns(CLOCK_MONOTONIC) - t0;
	EXPECT("timerfd_blocking_read_count", (long)ticks, 1);
	RANGE("timerfd_blocking_read_after_40ms", elapsed, 30 * MS, 40 * MS + SLOW);

	its = (struct itimerspec){ { 0, 0 }, { 0, 1000000000 } };
	EXPECT_ERR("timerfd_settime_nsec_1e9_einval",
		   syscall(SYS_timerfd_settime, fd, 0, &its, NULL), EINVAL);
	its = (struct itimerspec){ { 0, 0 }, { 1, 0 } };
	EXPECT_ERR("timerfd_settime_bad_flags_einval",
		   syscall(SYS_timerfd_settime, fd, 4, &its, NULL), EINVAL);
	EXPECT_ERR("timerfd_settime_bad_fd_ebadf", syscall(SYS_timerfd_settime, 999, 0, &its, NULL),
		   EBADF);
	pipe(pipefd);
	EXPECT_ERR("timerfd_settime_not_a_timerfd_einval",
		   syscall(SYS_timerfd_settime, pipefd[0], 0, &its, NULL), EINVAL);
	EXPECT_ERR("timerfd_gettime_not_a_timerfd_einval",
		   syscall(SYS_timerfd_gettime, pipefd[0], &cur), EINVAL);
	close(pipefd[0]);
	close(pipefd[1]);
	close(fd);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static void sleeps(void)
{
	clockid_t clocks[2] = { CLOCK_MONOTONIC, CLOCK_REALTIME };
	const char *names[2] = { "clock_nanosleep_abstime_monotonic",
				 "clock_nanosleep_abstime_realtime" };
	long long lat[11];

	for (int i = 0; i < 2; i++) {
		long long target = now_ns(clocks[i]) + 20 * MS;
		struct timespec ts = ts_of(target);
		long r = syscall(SYS_clock_nanosleep, clocks[i], TIMER_ABSTIME, &ts, NULL);

		RANGE(names[i], r == 0 ? now_ns(clocks[i]) - target : -1, 0, SLOW);
	}
	/* The sleep ends at its expiry (an hrtimer), not at the next tick:
	 * the median of 1 ms sleeps stays well under a 10 ms tick (a
	 * periodic tick, as Folium's with lapic=notscdeadline, fails this). */
	for (int i = 0; i < 11; i++) {
		struct timespec ts = ts_of(MS);
		long long t0 = now_ns(CLOCK_MONOTONIC);

		nanosleep(&ts, NULL);
		lat[i] = now_ns(CLOCK_MONOTONIC) - t0;
	}
	qsort(lat, 11, sizeof(lat[0]), cmp_ll);
	RANGE("nanosleep_1ms_median_below_a_tick", lat[5], MS, MS + TICK / 2);
	EXPECT_ERR("clock_nanosleep_bad_clock_einval",
		   syscall(SYS_clock_nanosleep, 100, 0, &(struct timespec){ 0, 1 }, NULL), EINVAL);
}

static void thread_cputime(void)
{
	struct timespec res;
	long long t0 = now_ns(CLOCK_THREAD_CPUTIME_ID), t1;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) - t0 < 20 * MS)
		burn();
	t1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	RANGE("clock_thread_cputime_advances_on_a_spin", t1 - t0, 20 * MS, 20 * MS + SLOW);
	check("clock_thread_cputime_at_most_process", t1 <= now_ns(CLOCK_PROCESS_CPUTIME_ID),
	      "thread %lld process %lld", t1, now_ns(CLOCK_PROCESS_CPUTIME_ID));
	EXPECT("clock_getres_thread_cputime",
	       clock_getres(CLOCK_THREAD_CPUTIME_ID, &res) == 0
		       ? res.tv_sec * 1000000000l + res.tv_nsec
		       : -1,
	       1);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	itimer_real();
	itimer_errors();
	alarm_calls();
	itimer_cpu();
	posix_timer_signal();
	posix_timer_thread_id();
	posix_timer_overrun();
	posix_timer_gettime();
	posix_timer_cpu();
	posix_timer_errors();
	timerfd_calls();
	sleeps();
	thread_cputime();
	return check_summary("timertest");
}
