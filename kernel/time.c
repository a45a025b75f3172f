/*
 * The clock and sleep system calls (Linux: kernel/time/posix-timers.c,
 * posix-stubs.c, time.c, hrtimer.c): clock_gettime, clock_getres,
 * gettimeofday, time, nanosleep, clock_nanosleep. Every clock is the TSC
 * (<timekeeping.h>); a coarse clock is it rounded down to a tick. A sleep
 * is an hrtimer_sleeper on the clock slept on (<hrtimer.h>): the timer's
 * interrupt wakes the task at the expiry, or a signal ends it early.
 * Example: nanosleep({0, 10000000}, NULL) returns 0 after at least 10 ms.
 */
#include <arch.h>
#include <hrtimer.h>
#include <sched.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

static uint64_t real_offset_ns; /* REALTIME - MONOTONIC, 0 until the RTC is read */
static bool real_offset_valid;

uint64_t ktime_get_ns(void)
{
	return arch_uptime_ns();
}

/* The RTC counts whole seconds: read it once, at the first use, and keep
 * its distance from the TSC (Linux reads it at boot, read_persistent_clock64). */
uint64_t ktime_get_real_ns(void)
{
	if (!real_offset_valid) {
		int64_t secs = arch_rtc_read_seconds();
		uint64_t now = ktime_get_ns();

		if (secs > 0 && (uint64_t)secs * NSEC_PER_SEC > now)
			real_offset_ns = (uint64_t)secs * NSEC_PER_SEC - now;
		real_offset_valid = true;
	}
	return real_offset_ns + ktime_get_ns();
}

uint64_t task_cputime_ns(const struct task_struct *task)
{
	uint64_t ns = task->sum_exec_runtime;

	/* Linux: task_sched_runtime adds the running task's current slice. */
	if (task == current && task->exec_start)
		ns += arch_uptime_ns() - task->exec_start;
	return ns;
}

/* Return: the clock's time in *ns, or -EINVAL for a clock not served
 * (Linux: clockid_to_kclock, then the clock's clock_get_timespec). */
static int clock_read(const struct task_struct *task, int which, uint64_t *ns)
{
	switch (which) {
	case CLOCK_REALTIME:
		*ns = ktime_get_real_ns();
		return 0;
	case CLOCK_REALTIME_COARSE:
		*ns = ktime_get_real_ns() / TICK_NSEC * TICK_NSEC;
		return 0;
	case CLOCK_MONOTONIC:
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_BOOTTIME: /* nothing suspends: boot time is monotonic */
		*ns = ktime_get_ns();
		return 0;
	case CLOCK_MONOTONIC_COARSE:
		*ns = ktime_get_ns() / TICK_NSEC * TICK_NSEC;
		return 0;
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		*ns = task_cputime_ns(task);
		return 0;
	}
	return -EINVAL;
}

static int put_timespec64(uint64_t ns, unsigned long uts)
{
	struct __kernel_timespec ts = { ns / NSEC_PER_SEC, ns % NSEC_PER_SEC };

	return copy_to_user(uts, &ts, sizeof(ts)) ? -EFAULT : 0;
}

SYSCALL_DEFINE2(clock_gettime, int, which_clock, unsigned long, tp)
{
	uint64_t ns;
	int err = clock_read(task, which_clock, &ns);

	return err ? err : put_timespec64(ns, tp);
}

/* Linux: the coarse clocks step by a tick (LOW_RES_NSEC), the others by
 * hrtimer_resolution, 1 ns. tp may be NULL. */
SYSCALL_DEFINE2(clock_getres, int, which_clock, unsigned long, tp)
{
	uint64_t ns;
	int err = clock_read(task, which_clock, &ns);

	if (err)
		return err;
	if (which_clock == CLOCK_REALTIME_COARSE || which_clock == CLOCK_MONOTONIC_COARSE)
		ns = TICK_NSEC;
	else
		ns = 1;
	return tp ? put_timespec64(ns, tp) : 0;
}

/* Linux: gettimeofday. The time zone is always UTC with no DST (sys_tz). */
SYSCALL_DEFINE2(gettimeofday, unsigned long, tv, unsigned long, tz)
{
	const int sys_tz[2] = { 0, 0 };

	if (tv) {
		uint64_t ns = ktime_get_real_ns();
		struct __kernel_old_timeval t = { ns / NSEC_PER_SEC,
						  ns % NSEC_PER_SEC / NSEC_PER_USEC };

		if (copy_to_user(tv, &t, sizeof(t)))
			return -EFAULT;
	}
	if (tz && copy_to_user(tz, sys_tz, sizeof(sys_tz)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE1(time, unsigned long, tloc)
{
	long t = (long)(ktime_get_real_ns() / NSEC_PER_SEC);

	if (tloc && copy_to_user(tloc, &t, sizeof(t)))
		return -EFAULT;
	return t;
}

/* Linux: get_timespec64 then timespec64_valid. Return: 0 with *ns set,
 * -EFAULT, or -EINVAL for a negative time or tv_nsec outside [0, 1e9). */
static int get_sleep_time(unsigned long uts, uint64_t *ns)
{
	struct __kernel_timespec ts;

	if (copy_from_user(&ts, uts, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long long)NSEC_PER_SEC)
		return -EINVAL;
	/* A sleep past 2^64 ns (584 years) is forever: saturate. */
	if ((uint64_t)ts.tv_sec > (UINT64_MAX - (uint64_t)ts.tv_nsec) / NSEC_PER_SEC)
		*ns = UINT64_MAX;
	else
		*ns = (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	return 0;
}

/* An in-kernel test's task (not current) cannot schedule: idle with
 * interrupts on until its clock passes the expiry or a signal comes.
 * Return: 0 or -EINTR, with *left the time that was left. */
static long sleep_not_current(struct task_struct *task, int clock_id, ktime_t expires,
			      enum hrtimer_mode mode, ktime_t *left)
{
	unsigned long flags = arch_irq_save();
	uint64_t now;
	long ret = 0;

	clock_read(task, clock_id, &now);
	if (mode == HRTIMER_MODE_REL)
		expires = ktime_add_safe((ktime_t)now, expires);
	while (clock_read(task, clock_id, &now) == 0 && (ktime_t)now < expires) {
		if (signal_pending(task)) {
			ret = -EINTR;
			break;
		}
		arch_idle();
	}
	arch_irq_restore(flags);
	*left = expires - (ktime_t)now;
	return ret;
}

/*
 * Sleep until @expires on @clock_id (Linux: hrtimer_nanosleep, then
 * do_nanosleep over an hrtimer_sleeper): the timer's interrupt wakes the
 * task at the expiry (TSC-deadline LAPIC), or at the first tick after it
 * (a periodic tick). Return: 0, or -EINTR when a signal is pending, with
 * the time left written to rmtp if it is not 0 (-EFAULT if that fails).
 * Context: a system call, or an in-kernel test's task that is not
 * current: that one idles to the next interrupt instead.
 */
static long sleep_until(struct task_struct *task, int clock_id, ktime_t expires,
			enum hrtimer_mode mode, unsigned long rmtp)
{
	struct hrtimer_sleeper t;
	ktime_t left;
	long ret;

	if (task != current) {
		ret = sleep_not_current(task, clock_id, expires, mode, &left);
	} else {
		hrtimer_init_sleeper(&t, clock_id, mode);
		hrtimer_set_expires(&t.timer, expires);
		ret = do_nanosleep(&t, mode);
		left = hrtimer_get_remaining(&t.timer);
	}
	if (ret != -EINTR || !rmtp)
		return ret;
	return put_timespec64(left > 0 ? (uint64_t)left : 0, rmtp) ? -EFAULT : -EINTR;
}

SYSCALL_DEFINE2(nanosleep, unsigned long, rqtp, unsigned long, rmtp)
{
	uint64_t ns;
	int err = get_sleep_time(rqtp, &ns);

	if (err)
		return err;
	return sleep_until(task, CLOCK_MONOTONIC, (ktime_t)MIN(ns, (uint64_t)KTIME_MAX),
			   HRTIMER_MODE_REL, rmtp);
}

/*
 * Linux: clock_nanosleep. REALTIME, MONOTONIC and BOOTTIME sleep on an
 * hrtimer of that clock; the process CPU clock (which here is the time
 * since exec) sleeps as MONOTONIC for the CPU time left. The other known
 * clocks have no nsleep in Linux's k_clock tables, the thread CPU clock
 * included: -EOPNOTSUPP; unknown ones -EINVAL. With TIMER_ABSTIME the
 * time is a point on the clock and rmtp is ignored.
 */
SYSCALL_DEFINE4(clock_nanosleep, int, which_clock, int, flags, unsigned long, rqtp, unsigned long,
		rmtp)
{
	enum hrtimer_mode mode = flags & TIMER_ABSTIME ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL;
	uint64_t ns, now;
	int err = clock_read(task, which_clock, &now);

	if (err)
		return -EINVAL;
	if (which_clock != CLOCK_REALTIME && which_clock != CLOCK_MONOTONIC &&
	    which_clock != CLOCK_BOOTTIME && which_clock != CLOCK_PROCESS_CPUTIME_ID)
		return -EOPNOTSUPP;
	err = get_sleep_time(rqtp, &ns);
	if (err)
		return err;
	ns = MIN(ns, (uint64_t)KTIME_MAX);
	if (which_clock == CLOCK_PROCESS_CPUTIME_ID) {
		if (mode == HRTIMER_MODE_ABS)
			ns = ns > now ? ns - now : 0;
		mode = HRTIMER_MODE_REL;
		which_clock = CLOCK_MONOTONIC;
	}
	return sleep_until(task, which_clock, (ktime_t)ns, mode,
			   mode == HRTIMER_MODE_ABS ? 0 : rmtp);
}
