/*
 * Interval timers (Linux: kernel/time/itimer.c, and the itimer half of
 * kernel/time/posix-cpu-timers.c): setitimer, getitimer and alarm.
 * ITIMER_REAL is an hrtimer on CLOCK_MONOTONIC whose expiry sends SIGALRM
 * to the process (it_real_fn); ITIMER_VIRTUAL and ITIMER_PROF are expiry
 * points on the process's CPU time as the tick charges it (user time;
 * user + system), checked at every tick (check_cpu_itimer), so they
 * count in ticks. Example at CONFIG_HZ=100: ITIMER_PROF of 25 ms is set
 * to 35 ms (Linux adds a tick) past the process's CPU time, and fires at
 * the fourth tick that finds the process running.
 */
#include <arch.h>
#include <posix-timers.h>
#include <syscalls.h>
#include <vm.h>

#define USEC_PER_SEC 1000000ull

/* Linux: it_real_fn. SIGALRM goes to the process as the kernel's (SI_KERNEL);
 * the interval moves the timer on. Linux rearms when SIGALRM is dequeued;
 * here at once, so the periods stay the same while the signal is pending
 * (a second SIGALRM merges into the pending one either way). */
static enum hrtimer_restart it_real_fn(struct hrtimer *timer)
{
	struct signal_struct *sig = container_of(timer, struct signal_struct, real_timer);

	if (sig->real_timer_task)
		group_send_signal(sig->real_timer_task, SIGALRM, NULL);
	if (!sig->it_real_incr)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, sig->it_real_incr);
	return HRTIMER_RESTART;
}

void exit_itimer_real(struct task_struct *tsk)
{
	if (tsk->signal && tsk->signal->real_timer.base) {
		hrtimer_cancel(&tsk->signal->real_timer);
		tsk->signal->real_timer_task = NULL;
	}
}

/* The process's CPU time as the tick charged it: user + system for
 * CPUCLOCK_PROF, user for CPUCLOCK_VIRT (Linux: cpu_clock_sample_group). */
static uint64_t cputimer_sample(const struct signal_struct *sig, int clock_id)
{
	return sig->cputimer_utime + (clock_id == CPUCLOCK_PROF ? sig->cputimer_stime : 0);
}

/* Linux: check_cpu_itimer. */
static void check_cpu_itimer(struct task_struct *p, struct cpu_itimer *it, uint64_t now, int signo)
{
	if (!it->expires || now < it->expires)
		return;
	it->expires = it->incr ? it->expires + it->incr : 0;
	group_send_signal(p, signo, NULL);
}

void run_posix_cpu_timers(struct task_struct *p, bool user_tick)
{
	struct signal_struct *sig = p->signal;

	if (!sig)
		return;
	if (user_tick)
		sig->cputimer_utime += TICK_NSEC;
	else
		sig->cputimer_stime += TICK_NSEC;
	check_cpu_itimer(p, &sig->it[CPUCLOCK_PROF], cputimer_sample(sig, CPUCLOCK_PROF), SIGPROF);
	check_cpu_itimer(p, &sig->it[CPUCLOCK_VIRT], cputimer_sample(sig, CPUCLOCK_VIRT),
			 SIGVTALRM);
	posix_cpu_timers_tick(p);
}

static struct __kernel_old_timeval ns_to_timeval(uint64_t ns)
{
	return (struct __kernel_old_timeval){ (long)(ns / NSEC_PER_SEC),
					      (long)(ns % NSEC_PER_SEC / NSEC_PER_USEC) };
}

/* Saturated at KTIME_MAX (Linux: timeval_to_ktime via ktime_set). */
static uint64_t timeval_to_ns(const struct __kernel_old_timeval *tv)
{
	if ((uint64_t)tv->tv_sec >= (uint64_t)KTIME_MAX / NSEC_PER_SEC)
		return (uint64_t)KTIME_MAX;
	return (uint64_t)tv->tv_sec * NSEC_PER_SEC + (uint64_t)tv->tv_usec * NSEC_PER_USEC;
}

/* Linux: timeval_valid. */
static bool timeval_valid(const struct __kernel_old_timeval *tv)
{
	return tv->tv_sec >= 0 && (unsigned long)tv->tv_usec < USEC_PER_SEC;
}

/* Linux: itimer_get_remtime. An expired timer still queued says 1 us:
 * 0 would mean "off". */
static uint64_t itimer_get_remtime(struct hrtimer *timer)
{
	ktime_t rem = hrtimer_get_remaining(timer);

	if (!hrtimer_active(timer))
		return 0;
	return rem > 0 ? (uint64_t)rem : NSEC_PER_USEC;
}

/* Linux: get_cpu_itimer. A timer about to fire says one tick. */
static void get_cpu_itimer(struct signal_struct *sig, int clock_id,
			   struct __kernel_old_itimerval *value)
{
	struct cpu_itimer *it = &sig->it[clock_id];
	uint64_t val = it->expires, now = cputimer_sample(sig, clock_id);

	if (val)
		val = val < now ? TICK_NSEC : val - now;
	value->it_value = ns_to_timeval(val);
	value->it_interval = ns_to_timeval(it->incr);
}

static int do_getitimer(struct task_struct *task, int which, struct __kernel_old_itimerval *value)
{
	struct signal_struct *sig = task->signal;
	unsigned long flags;

	switch (which) {
	case ITIMER_REAL:
		flags = arch_irq_save();
		value->it_value = ns_to_timeval(itimer_get_remtime(&sig->real_timer));
		value->it_interval = ns_to_timeval((uint64_t)sig->it_real_incr);
		arch_irq_restore(flags);
		return 0;
	case ITIMER_VIRTUAL:
		get_cpu_itimer(sig, CPUCLOCK_VIRT, value);
		return 0;
	case ITIMER_PROF:
		get_cpu_itimer(sig, CPUCLOCK_PROF, value);
		return 0;
	}
	return -EINVAL;
}

SYSCALL_DEFINE2(getitimer, int, which, unsigned long, value)
{
	struct __kernel_old_itimerval v;
	int err = do_getitimer(task, which, &v);

	if (err)
		return err;
	return copy_to_user(value, &v, sizeof(v)) ? -EFAULT : 0;
}

/* Linux: set_cpu_itimer with set_process_cpu_timer. The new value gets a
 * tick more (a timer set mid-tick must not fire early); the old one is
 * what is left of it, at least a tick. */
static void set_cpu_itimer(struct signal_struct *sig, int clock_id,
			   const struct __kernel_old_itimerval *value,
			   struct __kernel_old_itimerval *ovalue)
{
	struct cpu_itimer *it = &sig->it[clock_id];
	unsigned long flags = arch_irq_save();
	uint64_t now = cputimer_sample(sig, clock_id);
	uint64_t nval = timeval_to_ns(&value->it_value), oval = it->expires, ointerval = it->incr;

	if (oval)
		oval = oval <= now ? TICK_NSEC : oval - now;
	if (nval)
		nval = (uint64_t)ktime_add_safe((ktime_t)nval, (ktime_t)(TICK_NSEC + now));
	it->expires = nval;
	it->incr = timeval_to_ns(&value->it_interval);
	arch_irq_restore(flags);
	if (ovalue) {
		ovalue->it_value = ns_to_timeval(oval);
		ovalue->it_interval = ns_to_timeval(ointerval);
	}
}

/* Linux: do_setitimer. ITIMER_REAL's interval is kept only with a value. */
static int do_setitimer(struct task_struct *task, int which,
			const struct __kernel_old_itimerval *value,
			struct __kernel_old_itimerval *ovalue)
{
	struct signal_struct *sig = task->signal;
	unsigned long flags;
	ktime_t expires;

	switch (which) {
	case ITIMER_REAL:
		flags = arch_irq_save();
		if (ovalue)
			do_getitimer(task, ITIMER_REAL, ovalue);
		hrtimer_try_to_cancel(&sig->real_timer);
		sig->real_timer.function = it_real_fn;
		sig->real_timer_task = task->group_leader;
		expires = (ktime_t)timeval_to_ns(&value->it_value);
		sig->it_real_incr = expires ? (ktime_t)timeval_to_ns(&value->it_interval) : 0;
		if (expires)
			hrtimer_start(&sig->real_timer, expires, HRTIMER_MODE_REL);
		arch_irq_restore(flags);
		return 0;
	case ITIMER_VIRTUAL:
		set_cpu_itimer(sig, CPUCLOCK_VIRT, value, ovalue);
		return 0;
	case ITIMER_PROF:
		set_cpu_itimer(sig, CPUCLOCK_PROF, value, ovalue);
		return 0;
	}
	return -EINVAL;
}

/* Linux: get_itimerval, the copy then timeval_valid. NULL is all zero:
 * the timer stops (a misfeature Linux keeps). */
SYSCALL_DEFINE3(setitimer, int, which, unsigned long, value, unsigned long, ovalue)
{
	struct __kernel_old_itimerval set = { 0 }, get;
	int err;

	if (value) {
		if (copy_from_user(&set, value, sizeof(set)))
			return -EFAULT;
		if (!timeval_valid(&set.it_value) || !timeval_valid(&set.it_interval))
			return -EINVAL;
	}
	err = do_setitimer(task, which, &set, ovalue ? &get : NULL);
	if (err || !ovalue)
		return err;
	return copy_to_user(ovalue, &get, sizeof(get)) ? -EFAULT : 0;
}

/* Linux: alarm_setitimer. The seconds left of the alarm it replaces,
 * rounded to the nearest, never 0 for one still pending. */
SYSCALL_DEFINE1(alarm, unsigned int, seconds)
{
	struct __kernel_old_itimerval set = { .it_value = { seconds, 0 } }, old;

	do_setitimer(task, ITIMER_REAL, &set, &old);
	if ((!old.it_value.tv_sec && old.it_value.tv_usec) || old.it_value.tv_usec >= 500000)
		old.it_value.tv_sec++;
	return old.it_value.tv_sec;
}
