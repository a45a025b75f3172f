/*
 * /bin/threadtest: threads as a pthread program sees them, checked from
 * ring 3 the same way on Linux and on Folium with musl and glibc: 16
 * threads counting under a mutex, a condition variable and a barrier
 * (the count exact after join); rwlocks and semaphores; a thread that
 * exits while the others run; pthread_cancel of a thread blocked in a
 * condition wait; a process-directed signal taken by the one thread that
 * does not block it, a thread-directed one (tgkill) by its thread; a
 * per-thread alternate signal stack; a robust mutex whose owner dies
 * (EOWNERDEAD); the raw futex calls and their errnos (EAGAIN,
 * ETIMEDOUT, EINVAL, requeue, wake-op) and futex_waitv (woken by one
 * of several, EAGAIN, an absolute timeout on either clock, its EINVALs
 * and EFAULT); real-time signals queued with
 * their values (sigqueue, sigtimedwait); a SIGEV_THREAD_ID timer aimed at
 * one thread; exit_group from a thread; a fatal signal ending every
 * thread; execve from a thread that is not the main one (the process
 * keeps its pid); a stopped and continued child reported to waitpid
 * (WUNTRACED, WCONTINUED); /proc/self/task and /proc/thread-self. Prints
 * "ok NAME" or "FAIL NAME: ..." a line, then "threadtest: N checks, all
 * ok" (exit 0) or "threadtest: K of N checks FAILED" (exit 1).
 * `threadtest execd PID` is what the exec check runs.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* Linux's futex(2) ABI (uapi/linux/futex.h; musl has no linux/ headers). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_WAIT_BITSET 9
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_WAIT_PRIVATE (FUTEX_WAIT | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_PRIVATE (FUTEX_WAKE | FUTEX_PRIVATE_FLAG)
#define FUTEX_CMP_REQUEUE_PRIVATE (FUTEX_CMP_REQUEUE | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAKE_OP_PRIVATE (FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG)
#define FUTEX_WAIT_BITSET_PRIVATE (FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG)
#define FUTEX_BITSET_MATCH_ANY 0xffffffff
#define FUTEX_OP_SET 0
#define FUTEX_OP_CMP_EQ 0
#define FUTEX_OP(op, oparg, cmp, cmparg) \
	(((op & 0xf) << 28) | ((cmp & 0xf) << 24) | ((oparg & 0xfff) << 12) | (cmparg & 0xfff))

/* glibc spells sigevent's thread id only through its union. */
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

#define NTHREADS 16
#define ROUNDS 1000

static long gettid_(void)
{
	return syscall(SYS_gettid);
}

static long futex(atomic_int *uaddr, int op, int val, const struct timespec *ts, atomic_int *uaddr2,
		  int val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

/* --- 16 threads: mutex, condition variable, barrier ---------------------- */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static pthread_barrier_t barrier;
static long counter, ready, serial_seen;
static atomic_long tids[NTHREADS];

static void *counting_thread(void *arg)
{
	long i = (long)arg;

	tids[i] = gettid_();
	pthread_mutex_lock(&lock);
	ready++;
	pthread_cond_broadcast(&cond);
	pthread_mutex_unlock(&lock);
	if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD) {
		pthread_mutex_lock(&lock);
		serial_seen++;
		pthread_mutex_unlock(&lock);
	}
	for (int r = 0; r < ROUNDS; r++) {
		pthread_mutex_lock(&lock);
		counter++;
		if (r % 97 == 0)
			sched_yield(); /* hold the lock across a switch */
		pthread_mutex_unlock(&lock);
	}
	return (void *)(i * 3);
}

static void check_counting(void)
{
	pthread_t th[NTHREADS];
	long sum = 0, distinct = 1;
	int err = 0;

	pthread_barrier_init(&barrier, NULL, NTHREADS);
	for (long i = 0; i < NTHREADS && !err; i++)
		err = pthread_create(&th[i], NULL, counting_thread, (void *)i);
	check("create_16_threads", !err, "pthread_create: %s", strerror(err));
	if (err)
		return;
	pthread_mutex_lock(&lock);
	while (ready < NTHREADS)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < NTHREADS; i++) {
		void *ret;

		if (pthread_join(th[i], &ret) == 0)
			sum += (long)ret;
	}
	check("mutex_counter_exact_after_join", counter == (long)NTHREADS * ROUNDS,
	      "counter %ld, want %d", counter, NTHREADS * ROUNDS);
	check("join_returns_each_value", sum == 3L * NTHREADS * (NTHREADS - 1) / 2, "sum %ld", sum);
	check("barrier_one_serial_thread", serial_seen == 1, "%ld serial threads", serial_seen);
	for (int i = 0; i < NTHREADS; i++) {
		int dup = tids[i] == getpid();

		for (int j = 0; j < i; j++)
			dup |= tids[j] == tids[i];
		distinct += !dup;
	}
	check("each_thread_its_own_tid", distinct == NTHREADS + 1, "%ld distinct ids", distinct);
	pthread_barrier_destroy(&barrier);
}

/* --- rwlock and semaphores -------------------------------------------------- */

static pthread_rwlock_t rwlock = PTHREAD_RWLOCK_INITIALIZER;
static sem_t sem_items, sem_done;
static long shared_value;

static void *reader_thread(void *arg)
{
	long seen;

	(void)arg;
	pthread_rwlock_rdlock(&rwlock);
	seen = shared_value;
	pthread_rwlock_unlock(&rwlock);
	return (void *)seen;
}

static void *sem_consumer(void *arg)
{
	long got = 0;

	(void)arg;
	for (int i = 0; i < 100; i++) {
		sem_wait(&sem_items);
		got++;
	}
	sem_post(&sem_done);
	return (void *)got;
}

static void check_rwlock_and_semaphores(void)
{
	pthread_t r[4], c;
	void *ret;
	long ok = 0;

	pthread_rwlock_wrlock(&rwlock);
	for (int i = 0; i < 4; i++)
		pthread_create(&r[i], NULL, reader_thread, NULL);
	usleep(20000); /* the readers block on the writer */
	shared_value = 42;
	pthread_rwlock_unlock(&rwlock);
	for (int i = 0; i < 4; i++) {
		pthread_join(r[i], &ret);
		ok += (long)ret == 42;
	}
	check("rwlock_readers_wait_for_writer", ok == 4, "%ld of 4 readers saw 42", ok);

	sem_init(&sem_items, 0, 0);
	sem_init(&sem_done, 0, 0);
	pthread_create(&c, NULL, sem_consumer, NULL);
	for (int i = 0; i < 100; i++)
		sem_post(&sem_items);
	sem_wait(&sem_done);
	pthread_join(c, &ret);
	check("semaphore_100_posts_100_waits", (long)ret == 100, "consumer got %ld", (long)ret);
	{
		struct timespec ts;
		int r;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 20000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		r = sem_timedwait(&sem_items, &ts);
		check("sem_timedwait_times_out", r == -1 && errno == ETIMEDOUT, "r %d errno %d", r,
		      errno);
	}
}

/* --- a thread exits while others run; cancel in a condition wait --------- */

static atomic_int spin_stop;
static atomic_long spins;

static void *spinner(void *arg)
{
	(void)arg;
	while (!spin_stop) {
		spins++;
		if (spins % 1000 == 0)
			sched_yield();
	}
	return NULL;
}

static void *early_exit(void *arg)
{
	(void)arg;
	pthread_exit((void *)7);
}

static pthread_mutex_t cancel_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cancel_cond = PTHREAD_COND_INITIALIZER;
static atomic_int cleanup_ran, waiter_started;

static void cleanup_unlock(void *arg)
{
	cleanup_ran = 1;
	pthread_mutex_unlock(arg);
}

static void *cond_waiter(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&cancel_lock);
	pthread_cleanup_push(cleanup_unlock, &cancel_lock);
	waiter_started = 1;
	for (;;)
		pthread_cond_wait(&cancel_cond, &cancel_lock);
	pthread_cleanup_pop(1);
	return NULL;
}

static void check_exit_and_cancel(void)
{
	pthread_t s1, s2, e, w;
	void *ret;
	long before;
	int r;

	pthread_create(&s1, NULL, spinner, NULL);
	pthread_create(&s2, NULL, spinner, NULL);
	pthread_create(&e, NULL, early_exit, NULL);
	r = pthread_join(e, &ret);
	before = spins;
	usleep(20000);
	check("thread_exit_while_others_run", r == 0 && ret == (void *)7 && spins > before,
	      "join %d ret %p spins %ld -> %ld", r, ret, before, (long)spins);
	spin_stop = 1;
	pthread_join(s1, NULL);
	pthread_join(s2, NULL);

	pthread_create(&w, NULL, cond_waiter, NULL);
	while (!waiter_started)
		usleep(1000);
	usleep(10000);
	r = pthread_cancel(w);
	pthread_join(w, &ret);
	check("cancel_in_cond_wait", r == 0 && ret == PTHREAD_CANCELED && cleanup_ran,
	      "cancel %d ret %p cleanup %d", r, ret, (int)cleanup_ran);
	/* The cleanup handler unlocked the mutex the wait took back. */
	r = pthread_mutex_trylock(&cancel_lock);
	check("cancel_cleanup_released_mutex", r == 0, "trylock %d", r);
	if (!r)
		pthread_mutex_unlock(&cancel_lock);
}

/* --- signals among threads ------------------------------------------------- */

static atomic_long handler_tid;
static atomic_int handled;
static atomic_int go_block, blocked_ready;

static void usr1_handler(int sig)
{
	(void)sig;
	handler_tid = gettid_();
	handled++;
}

static void *unblocked_thread(void *arg)
{
	atomic_long *my_tid = arg;
	sigset_t set;

	/* A new thread starts with its creator's mask: open it here. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	*my_tid = gettid_();
	while (!handled)
		usleep(1000);
	return NULL;
}

static void *blocking_thread(void *arg)
{
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	blocked_ready++;
	while (!go_block)
		usleep(1000);
	return NULL;
}

static atomic_long tgkill_target;
static atomic_int tgkill_done;
static stack_t thread_alt;
static atomic_int on_alt_ok;

static void usr2_handler(int sig)
{
	stack_t ss;
	char here;

	(void)sig;
	handler_tid = gettid_();
	sigaltstack(NULL, &ss);
	on_alt_ok = (ss.ss_flags & SS_ONSTACK) && &here >= (char *)thread_alt.ss_sp &&
		    &here < (char *)thread_alt.ss_sp + thread_alt.ss_size;
	handled++;
}

static void *altstack_thread(void *arg)
{
	(void)arg;
	thread_alt.ss_sp = malloc(65536);
	thread_alt.ss_size = 65536;
	thread_alt.ss_flags = 0;
	sigaltstack(&thread_alt, NULL);
	tgkill_target = gettid_();
	while (!tgkill_done)
		usleep(1000);
	return NULL;
}

static void check_signals(void)
{
	struct sigaction sa = { .sa_handler = usr1_handler };
	pthread_t b[3], u, a;
	atomic_long utid = 0;
	sigset_t set, old;
	stack_t main_ss;

	sigaction(SIGUSR1, &sa, NULL);
	/* The main thread blocks it too: only the one thread takes it. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	for (int i = 0; i < 3; i++)
		pthread_create(&b[i], NULL, blocking_thread, NULL);
	while (blocked_ready < 3)
		usleep(1000);
	pthread_create(&u, NULL, unblocked_thread, (void *)&utid);
	while (!utid)
		usleep(1000);
	handled = 0;
	kill(getpid(), SIGUSR1);
	pthread_join(u, NULL);
	check("process_signal_to_the_unblocking_thread", handled == 1 && handler_tid == utid,
	      "handled %d by %s", (int)handled, handler_tid == utid ? "it" : "another thread");
	go_block = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(b[i], NULL);

	/* Everyone blocks it now: it waits, pending for the process. */
	handled = 0;
	kill(getpid(), SIGUSR1);
	usleep(10000);
	sigpending(&set);
	check("blocked_everywhere_stays_pending", !handled && sigismember(&set, SIGUSR1),
	      "handled %d pending %d", (int)handled, sigismember(&set, SIGUSR1));
	pthread_sigmask(SIG_SETMASK, &old, NULL); /* delivered here, now */
	check("delivered_when_unblocked", handled == 1 && handler_tid == gettid_(), "handled %d",
	      (int)handled);

	/* tgkill picks the thread; its own alternate stack runs it. */
	sa.sa_handler = usr2_handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR2, &sa, NULL);
	handled = 0;
	pthread_create(&a, NULL, altstack_thread, NULL);
	while (!tgkill_target)
		usleep(1000);
	syscall(SYS_tgkill, getpid(), (long)tgkill_target, SIGUSR2);
	while (!handled)
		usleep(1000);
	tgkill_done = 1;
	pthread_join(a, NULL);
	check("tgkill_reaches_that_thread", handler_tid == tgkill_target, "another thread ran it");
	check("sigaltstack_is_per_thread", on_alt_ok, "the handler was not on the thread's stack");
	sigaltstack(NULL, &main_ss);
	check("main_thread_has_no_altstack", main_ss.ss_flags & SS_DISABLE, "flags %d",
	      main_ss.ss_flags);
	check("tgkill_wrong_group_esrch",
	      syscall(SYS_tgkill, getpid() + 100000, (long)getpid(), 0) == -1 && errno == ESRCH,
	      "errno %d", errno);
	check("tgkill_bad_tid_einval", syscall(SYS_tgkill, getpid(), 0, 0) == -1 && errno == EINVAL,
	      "errno %d", errno);
}

/* --- real-time signals, sigqueue, sigtimedwait ---------------------------- */

static void check_rt_signals(void)
{
	int sig = SIGRTMIN + 2, values = 0, in_order = 1;
	sigset_t set;
	siginfo_t si;
	struct timespec ts = { 0, 20000000 };

	sigemptyset(&set);
	sigaddset(&set, sig);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	for (int i = 0; i < 3; i++)
		sigqueue(getpid(), sig, (union sigval){ .sival_int = 100 + i });
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	/* The lowest number comes first: SIGUSR1, merged into one. */
	check("standard_signal_merges",
	      sigtimedwait(&set, &si, &ts) == SIGUSR1 && si.si_code == SI_USER &&
		      si.si_pid == getpid(),
	      "code %d", si.si_code);
	for (int i = 0; i < 3; i++) {
		int r = sigtimedwait(&set, &si, &ts);

		values += r == sig && si.si_code == SI_QUEUE;
		in_order &= si.si_value.sival_int == 100 + i;
	}
	check("rt_signal_queues_each_instance", values == 3 && in_order, "%d of 3, order %d",
	      values, in_order);
	check("sigtimedwait_times_out", sigtimedwait(&set, &si, &ts) == -1 && errno == EAGAIN,
	      "errno %d", errno);
	/* Posing as the kernel (si_code >= 0) to another process is EPERM;
	 * to itself it is allowed. */
	memset(&si, 0, sizeof(si));
	si.si_code = SI_USER;
	check("rt_sigqueueinfo_own_si_user_ok",
	      syscall(SYS_rt_sigqueueinfo, getpid(), sig, &si) == 0 &&
		      sigtimedwait(&set, NULL, &ts) == sig,
	      "errno %d", errno);
	check("rt_sigqueueinfo_to_init_si_user_eperm",
	      syscall(SYS_rt_sigqueueinfo, 1, 0, &si) == -1 && errno == EPERM, "errno %d", errno);
	si.si_code = SI_QUEUE;
	check("rt_tgsigqueueinfo_to_this_thread",
	      syscall(SYS_rt_tgsigqueueinfo, getpid(), gettid_(), sig, &si) == 0 &&
		      sigtimedwait(&set, NULL, &ts) == sig,
	      "errno %d", errno);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* --- a SIGEV_THREAD_ID timer ------------------------------------------------ */

static atomic_long timer_thread_tid, timer_handler_tid;
static atomic_int timer_fired, timer_done;

static void timer_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	if (si->si_code == SI_TIMER)
		timer_handler_tid = gettid_();
	timer_fired++;
}

static void *timer_thread(void *arg)
{
	(void)arg;
	timer_thread_tid = gettid_();
	while (!timer_done)
		usleep(1000);
	return NULL;
}

static void check_thread_timer(void)
{
	struct sigaction sa = { .sa_sigaction = timer_handler, .sa_flags = SA_SIGINFO };
	struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = SIGRTMIN + 3 };
	struct itimerspec its = { .it_value = { 0, 5000000 } };
	timer_t id;
	pthread_t t;
	int r;

	sigaction(SIGRTMIN + 3, &sa, NULL);
	pthread_create(&t, NULL, timer_thread, NULL);
	while (!timer_thread_tid)
		usleep(1000);
	ev.sigev_notify_thread_id = (int)timer_thread_tid;
	r = syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id);
	if (!r)
		r = syscall(SYS_timer_settime, id, 0, &its, NULL);
	while (!r && !timer_fired)
		usleep(1000);
	check("sigev_thread_id_timer_to_that_thread", !r && timer_handler_tid == timer_thread_tid,
	      "r %d errno %d, %s", r, errno,
	      timer_handler_tid == timer_thread_tid ? "same" : "another thread");
	timer_done = 1;
	pthread_join(t, NULL);
	if (!r)
		syscall(SYS_timer_delete, id);
	/* A tid that is not a thread of this process: EINVAL. */
	ev.sigev_notify_thread_id = 1;
	check("sigev_thread_id_other_process_einval",
	      syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, &id) == -1 && errno == EINVAL,
	      "errno %d", errno);
}

/* --- futex ------------------------------------------------------------------ */

static atomic_int fword, fword2, woken_count;

static void *futex_waiter(void *arg)
{
	atomic_int *w = arg;

	if (futex(w, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) == 0)
		woken_count++;
	return NULL;
}

static void check_futex(void)
{
	struct timespec ts = { 0, 10000000 }, abs;
	pthread_t t[4];
	long r;

	fword = 1;
	check("futex_wait_value_changed_eagain",
	      futex(&fword, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) == -1 && errno == EAGAIN,
	      "errno %d", errno);
	check("futex_wait_timeout_etimedout",
	      futex(&fword, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0) == -1 && errno == ETIMEDOUT,
	      "errno %d", errno);
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 10000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	check("futex_wait_bitset_absolute_etimedout",
	      futex(&fword, FUTEX_WAIT_BITSET_PRIVATE, 1, &abs, NULL, FUTEX_BITSET_MATCH_ANY) ==
			      -1 &&
		      errno == ETIMEDOUT,
	      "errno %d", errno);
	clock_gettime(CLOCK_REALTIME, &abs);
	abs.tv_nsec += 10000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	check("futex_wait_bitset_realtime_etimedout",
	      futex(&fword, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 1, &abs, NULL,
		    FUTEX_BITSET_MATCH_ANY) == -1 &&
		      errno == ETIMEDOUT,
	      "errno %d", errno);
	check("futex_unaligned_einval",
	      futex((atomic_int *)((char *)&fword + 1), FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) ==
			      -1 &&
		      errno == EINVAL,
	      "errno %d", errno);
	check("futex_zero_bitset_einval",
	      futex(&fword, FUTEX_WAIT_BITSET_PRIVATE, 1, &ts, NULL, 0) == -1 && errno == EINVAL,
	      "errno %d", errno);
	ts.tv_nsec = 1000000000;
	check("futex_bad_timespec_einval",
	      futex(&fword, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0) == -1 && errno == EINVAL,
	      "errno %d", errno);
	check("futex_wake_clock_realtime_enosys",
	      futex(&fword, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0) == -1 &&
		      errno == ENOSYS,
	      "errno %d", errno);
	check("futex_wake_nobody_0", futex(&fword, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0,
	      "errno %d", errno);

	/* 4 waiters: wake 1, requeue 2 to fword2, wake those 2, then 1. */
	fword = 0;
	fword2 = 0;
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, futex_waiter, &fword);
	usleep(50000);
	r = futex(&fword, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2L, &fword2, 1);
	check("futex_cmp_requeue_value_changed_eagain", r == -1 && errno == EAGAIN,
	      "r %ld errno %d", r, errno);
	r = futex(&fword, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)2L, &fword2, 0);
	check("futex_cmp_requeue_wakes_1_moves_2", r == 3, "returned %ld", r);
	usleep(20000);
	check("futex_requeued_still_sleep", woken_count == 1, "%d woken", (int)woken_count);
	r = futex(&fword2, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	check("futex_wake_the_requeued_2", r == 2, "returned %ld", r);
	/* WAKE_OP: set fword2 to 5 if... wake 1 on fword, and on fword2 if
	 * its old value was 0 (it was). */
	r = futex(&fword, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &fword2,
		  FUTEX_OP(FUTEX_OP_SET, 5, FUTEX_OP_CMP_EQ, 0));
	check("futex_wake_op_wakes_and_sets", r == 1 && fword2 == 5, "returned %ld word %d", r,
	      (int)fword2);
	check("futex_wake_op_bad_op_enosys",
	      futex(&fword, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1L, &fword2, 7 << 28) == -1 &&
		      errno == ENOSYS,
	      "errno %d", errno);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	check("futex_every_waiter_woken", woken_count == 4, "%d woken", (int)woken_count);
}

/* --- futex_waitv ------------------------------------------------------------- */

#ifndef SYS_futex_waitv
#define SYS_futex_waitv 449
#endif
#define FUTEX2_SIZE_U8 0x00
#define FUTEX2_SIZE_U32 0x02
#define FUTEX2_PRIVATE FUTEX_PRIVATE_FLAG

/* Linux's struct futex_waitv (uapi/linux/futex.h). */
struct waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

static atomic_int vwords[3];

static long waitv(struct waitv *w, unsigned int nr, unsigned int flags, const struct timespec *ts,
		  int clockid)
{
	long r = syscall(SYS_futex_waitv, w, nr, flags, ts, clockid);

	return r < 0 ? -errno : r;
}

static void *wake_vword_2(void *arg)
{
	(void)arg;
	usleep(30000);
	vwords[2] = 1;
	futex(&vwords[2], FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return NULL;
}

static struct timespec in_10ms(clockid_t clock)
{
	struct timespec t;

	clock_gettime(clock, &t);
	t.tv_nsec += 10000000;
	if (t.tv_nsec >= 1000000000) {
		t.tv_sec++;
		t.tv_nsec -= 1000000000;
	}
	return t;
}

static void check_futex_waitv(void)
{
	struct waitv w[3];
	struct timespec t;
	pthread_t th;

	for (int i = 0; i < 3; i++)
		w[i] = (struct waitv){ .val = 0,
				       .uaddr = (uintptr_t)&vwords[i],
				       .flags = FUTEX2_SIZE_U32 | (i ? FUTEX2_PRIVATE : 0) };
	pthread_create(&th, NULL, wake_vword_2, NULL);
	EXPECT("waitv_returns_the_woken_index", waitv(w, 3, 0, NULL, 0), 2);
	pthread_join(th, NULL);
	EXPECT("waitv_value_changed_eagain", waitv(w, 3, 0, NULL, 0), -EAGAIN);
	vwords[2] = 0;
	t = in_10ms(CLOCK_MONOTONIC);
	EXPECT("waitv_monotonic_etimedout", waitv(w, 3, 0, &t, CLOCK_MONOTONIC), -ETIMEDOUT);
	t = in_10ms(CLOCK_REALTIME);
	EXPECT("waitv_realtime_etimedout", waitv(w, 3, 0, &t, CLOCK_REALTIME), -ETIMEDOUT);
	EXPECT("waitv_bad_clock_einval", waitv(w, 3, 0, &t, CLOCK_BOOTTIME), -EINVAL);
	EXPECT("waitv_flags_einval", waitv(w, 3, 1, NULL, 0), -EINVAL);
	EXPECT("waitv_none_einval", waitv(w, 0, 0, NULL, 0), -EINVAL);
	EXPECT("waitv_129_einval", waitv(w, 129, 0, NULL, 0), -EINVAL);
	EXPECT("waitv_null_einval", waitv(NULL, 1, 0, NULL, 0), -EINVAL);
	EXPECT("waitv_bad_pointer_efault", waitv((struct waitv *)8, 1, 0, NULL, 0), -EFAULT);
	t.tv_nsec = 1000000000;
	EXPECT("waitv_bad_timespec_einval", waitv(w, 3, 0, &t, CLOCK_MONOTONIC), -EINVAL);
	w[1].flags = FUTEX2_SIZE_U8;
	EXPECT("waitv_u8_einval", waitv(w, 3, 0, NULL, 0), -EINVAL);
	w[1].flags = FUTEX2_SIZE_U32;
	w[1].reserved = 1;
	EXPECT("waitv_reserved_einval", waitv(w, 3, 0, NULL, 0), -EINVAL);
	w[1].reserved = 0;
	/* Linux 6.7's futex_validate_input; before it the value was cut to
	 * 32 bits and the call waited (hence the timeout). */
	w[1].val = 1ull << 32;
	t = in_10ms(CLOCK_MONOTONIC);
	EXPECT("waitv_value_too_big_einval", waitv(w, 3, 0, &t, CLOCK_MONOTONIC), -EINVAL);
	w[1].val = 0;
	w[1].uaddr += 1;
	EXPECT("waitv_unaligned_einval", waitv(w, 3, 0, NULL, 0), -EINVAL);
}

/* --- a robust mutex whose owner dies ---------------------------------------- */

static pthread_mutex_t robust;

static void *die_holding(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust);
	return NULL; /* exits with the lock held */
}

static void check_robust(void)
{
	pthread_mutexattr_t a;
	pthread_t t;
	int r;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	pthread_create(&t, NULL, die_holding, NULL);
	pthread_join(t, NULL);
	r = pthread_mutex_lock(&robust);
	check("robust_mutex_owner_died_eownerdead", r == EOWNERDEAD, "lock %d", r);
	if (r == EOWNERDEAD) {
		pthread_mutex_consistent(&robust);
		pthread_mutex_unlock(&robust);
	}
}

/* --- ends: exit_group from a thread, a fatal signal, exec -------------------- */

static void *exit_group_thread(void *arg)
{
	(void)arg;
	usleep(10000);
	exit(33); /* exit_group: the main thread sleeping in pause goes too */
}

static void *sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static char *self_path;

static void *exec_thread(void *arg)
{
	char pid[16];

	(void)arg;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	execl(self_path, self_path, "execd", pid, (char *)NULL);
	return NULL;
}

static int run_child(void *(*fn)(void *), int nthreads)
{
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		pthread_t t;

		for (int i = 0; i < nthreads; i++)
			pthread_create(&t, NULL, sleep_forever, NULL);
		if (fn)
			pthread_create(&t, NULL, fn, NULL);
		for (;;)
			pause();
	}
	if (!fn) {
		usleep(20000);
		kill(pid, SIGTERM);
	}
	waitpid(pid, &status, 0);
	return status;
}

static void check_ends(void)
{
	int status;

	status = run_child(exit_group_thread, 3);
	check("exit_group_from_a_thread", WIFEXITED(status) && WEXITSTATUS(status) == 33,
	      "status %#x", status);
	status = run_child(NULL, 3);
	check("fatal_signal_ends_every_thread", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM,
	      "status %#x", status);
	status = run_child(exec_thread, 2);
	check("execve_from_a_thread_keeps_the_pid", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "status %#x", status);
}

/* `threadtest execd PID`: the exec'd image checks it is PID, alone. */
static int execd(const char *pid)
{
	char line[128];
	int threads = 0;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "Threads: %d", &threads);
	if (f)
		fclose(f);
	return getpid() == atoi(pid) && gettid_() == getpid() && threads == 1 ? 0 : 1;
}

/* --- stop and continue ------------------------------------------------------- */

static void check_stop_continue(void)
{
	pid_t pid = fork();
	int status = 0, r;

	if (pid == 0) {
		pthread_t t;

		/* Its own group, with its parent in another group of the
		 * session: not orphaned, so SIGTSTP may stop it. */
		setpgid(0, 0);
		pthread_create(&t, NULL, sleep_forever, NULL);
		for (;;)
			pause();
	}
	usleep(20000);
	kill(pid, SIGSTOP);
	r = waitpid(pid, &status, WUNTRACED);
	check("waitpid_wuntraced_sees_stop",
	      r == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP, "r %d status %#x", r,
	      status);
	r = waitpid(pid, &status, WUNTRACED | WNOHANG);
	check("stop_reported_once", r == 0, "r %d status %#x", r, status);
	kill(pid, SIGCONT);
	r = waitpid(pid, &status, WCONTINUED);
	check("waitpid_wcontinued_sees_continue", r == pid && WIFCONTINUED(status),
	      "r %d status %#x", r, status);
	kill(pid, SIGTSTP); /* its group is not orphaned: it stops */
	r = waitpid(pid, &status, WUNTRACED);
	check("sigtstp_stops_too", r == pid && WIFSTOPPED(status) && WSTOPSIG(status) == SIGTSTP,
	      "r %d status %#x", r, status);
	kill(pid, SIGKILL); /* a stopped process dies of SIGKILL */
	r = waitpid(pid, &status, 0);
	check("sigkill_ends_a_stopped_process",
	      r == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "r %d status %#x", r,
	      status);
}

/* --- /proc/self/task and /proc/thread-self ----------------------------------- */

static atomic_int proc_done;

static void *proc_thread(void *arg)
{
	(void)arg;
	while (!proc_done)
		usleep(1000);
	return NULL;
}

static void check_proc(void)
{
	pthread_t t[3];
	DIR *d;
	struct dirent *e;
	int entries = 0, self_found = 0, r;
	char path[64], link[64];
	ssize_t n;

	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, proc_thread, NULL);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		entries++;
		self_found |= atoi(e->d_name) == getpid();
	}
	if (d)
		closedir(d);
	check("proc_self_task_lists_4_threads", entries == 4 && self_found, "%d entries", entries);
	n = readlink("/proc/thread-self", link, sizeof(link) - 1);
	if (n > 0)
		link[n] = 0;
	snprintf(path, sizeof(path), "%d/task/%ld", (int)getpid(), gettid_());
	check("proc_thread_self_link", n > 0 && !strcmp(link, path), "link %s", n > 0 ? link : "-");
	snprintf(path, sizeof(path), "/proc/self/task/%ld/stat", gettid_());
	r = access(path, R_OK);
	check("proc_task_tid_stat_readable", r == 0, "errno %d", errno);
	proc_done = 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "execd"))
		return execd(argv[2]);
	self_path = argv[0];
	setvbuf(stdout, NULL, _IONBF, 0);
	check_counting();
	check_rwlock_and_semaphores();
	check_exit_and_cancel();
	check_signals();
	check_rt_signals();
	check_thread_timer();
	check_futex();
	check_futex_waitv();
	check_robust();
	check_ends();
	check_stop_continue();
	check_proc();
	return check_summary("threadtest");
}
