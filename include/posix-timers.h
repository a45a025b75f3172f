/*
 * Process timers (Linux: include/linux/posix-timers.h, uapi time.h): the
 * interval timers of setitimer/alarm (kernel/itimer.c), the POSIX timers
 * of timer_create (kernel/posix-timers.c) and timerfd (fs/timerfd.c). The
 * state a process shares lives in its signal_struct (<sched.h>).
 * Example: setitimer(ITIMER_REAL, {10 ms, 10 ms}) starts signal->real_timer
 * 10 ms from now; each expiry sends SIGALRM to the process and moves on
 * 10 ms.
 */
#ifndef FOLIUM_POSIX_TIMERS_H
#define FOLIUM_POSIX_TIMERS_H

#include <hrtimer.h>
#include <list.h>
#include <sched.h>
#include <timekeeping.h>

#define ITIMER_REAL 0
#define ITIMER_VIRTUAL 1
#define ITIMER_PROF 2
#define CPUCLOCK_PROF 0 /* signal->it[] */
#define CPUCLOCK_VIRT 1

/* sigevent's sigev_notify (uapi/asm-generic/siginfo.h). */
#define SIGEV_SIGNAL 0
#define SIGEV_NONE 1
#define SIGEV_THREAD 2
#define SIGEV_THREAD_ID 4

/* The user's struct itimerval and struct itimerspec on x86-64. */
struct __kernel_old_itimerval {
	struct __kernel_old_timeval it_interval;
	struct __kernel_old_timeval it_value;
};
struct __kernel_itimerspec {
	struct __kernel_timespec it_interval;
	struct __kernel_timespec it_value;
};
/* Linux: struct sigevent (64 bytes); sigev_notify_thread_id is _tid. */
struct sigevent {
	uint64_t sigev_value;
	int32_t sigev_signo;
	int32_t sigev_notify;
	union {
		int32_t _pad[12];
		int32_t _tid;
	} _sigev_un;
};

/* Linux: struct k_itimer, one timer_create's timer. A timer on a CPU
 * clock (PROCESS/THREAD_CPUTIME_ID) is checked at the tick against that
 * clock (cpu_expires, 0: disarmed); the others are an hrtimer. */
struct k_itimer {
	struct list_head list; /* in signal->posix_timers */
	int it_id;
	int it_clock;
	int it_sigev_notify; /* SIGEV_SIGNAL, SIGEV_NONE, SIGEV_SIGNAL | SIGEV_THREAD_ID */
	int it_sigev_signo;
	uint64_t it_sigev_value;
	/* The process's leader, or the thread (THREAD_ID; NULL once it has
	 * exited: the timer then signals nobody, as Linux's it_pid). */
	struct task_struct *it_process;
	struct sigqueue sigq; /* its one signal instance (SIGQUEUE_PREALLOC) */
	ktime_t it_interval;
	int64_t it_overrun;	 /* expiries while its signal was still queued */
	int64_t it_overrun_last; /* that count for the signal delivered before */
	struct hrtimer timer;
	uint64_t cpu_expires;
};

/* Linux: copy_signal's timer part. Context: a new signal_struct. */
static inline void init_signal_timers(struct signal_struct *sig)
{
	hrtimer_init(&sig->real_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	INIT_LIST_HEAD(&sig->posix_timers);
}

/* --- kernel/itimer.c ------------------------------------------------------- */
/* Linux: account_group_user_time / account_group_system_time then
 * run_posix_cpu_timers: charge the tick to @p's process and fire
 * ITIMER_VIRTUAL, ITIMER_PROF and the CPU-clock POSIX timers that are due.
 * Context: the tick, interrupts off. */
void run_posix_cpu_timers(struct task_struct *p, bool user_tick);
/* Linux: do_exit's hrtimer_cancel(&sig->real_timer). */
void exit_itimer_real(struct task_struct *tsk);

/* --- kernel/posix-timers.c ------------------------------------------------- */
/* A thread that exits while its process lives: the SIGEV_THREAD_ID
 * timers aimed at it signal nobody from now on. */
void exit_thread_timers(struct task_struct *tsk);
/* Linux: exit_itimers. Delete every POSIX timer of @tsk's process (exec
 * and exit). */
void exit_itimers(struct task_struct *tsk);
/* The CPU-clock POSIX timers' share of the tick. */
void posix_cpu_timers_tick(struct task_struct *p);

#endif
