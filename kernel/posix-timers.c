/*
 * POSIX timers (Linux: kernel/time/posix-timers.c, posix-cpu-timers.c):
 * timer_create, timer_settime, timer_gettime, timer_getoverrun and
 * timer_delete. A process's timers are a list in its signal_struct, by
 * id. REALTIME, MONOTONIC and BOOTTIME timers are hrtimers; the CPU-clock
 * ones are checked at each tick against the clock (posix_cpu_timers_tick).
 * An expiry queues the timer's signal (si_code SI_TIMER) unless the last
 * one is still queued: then it counts an overrun into that siginfo's
 * si_overrun, as Linux's timer counts them until its signal is delivered.
 * Example: 10 ms periodic, signal blocked for 100 ms: one signal queued,
 * nine overruns; after delivery timer_getoverrun says 9.
 */
#include <arch.h>
#include <kernel_stat.h>
#include <posix-timers.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>

#define MAX_POSIX_TIMERS 1024 /* per process (Linux: RLIMIT_SIGPENDING's sigqueues) */
#define DELAYTIMER_MAX 0x7fffffff

static bool cpu_clock(int clock)
{
	return clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID;
}

/* The CPU clock's time now: the process's runtime, all its threads'
 * (Linux: cpu_clock_sample_group), or the target thread's. */
static uint64_t cpu_clock_sample(const struct k_itimer *timr)
{
	uint64_t ut, st, rt;

	if (!timr->it_process)
		return 0;
	if (timr->it_clock == CLOCK_THREAD_CPUTIME_ID)
		return task_cputime_ns(timr->it_process);
	thread_group_cputime(timr->it_process, &ut, &st, &rt);
	return rt;
}

/* The siginfo this timer's signal carries while it is still queued
 * (its preallocated sigqueue is on a pending list). */
static struct kernel_siginfo *queued_timer_info(struct k_itimer *timr)
{
	return list_empty(&timr->sigq.list) ? NULL : &timr->sigq.info;
}

/* Linux: posix_timer_queue_signal / posixtimer_send_sigqueue. @missed
 * periods passed unseen besides this expiry (a late interrupt or tick):
 * they are overruns too. */
static void posix_timer_fire(struct k_itimer *timr, uint64_t missed)
{
	struct kernel_siginfo *queued, info = { .si_code = SI_TIMER };

	if ((timr->it_sigev_notify & ~SIGEV_THREAD_ID) == SIGEV_NONE)
		return;
	queued = queued_timer_info(timr);
	if (queued) {
		timr->it_overrun = MIN(timr->it_overrun + 1 + (int64_t)missed, DELAYTIMER_MAX);
		queued->timer.overrun = (int32_t)timr->it_overrun;
		return;
	}
	timr->it_overrun_last = timr->it_overrun;
	timr->it_overrun = MIN((int64_t)missed, DELAYTIMER_MAX);
	info.si_signo = timr->it_sigev_signo;
	info.timer.tid = timr->it_id;
	info.timer.overrun = (int32_t)timr->it_overrun;
	info.timer.sigval = timr->it_sigev_value;
	if (!timr->it_process)
		return;
	timr->sigq.info = info;
	send_sigqueue(&timr->sigq, timr->it_process, !(timr->it_sigev_notify & SIGEV_THREAD_ID));
}

/* Linux: posix_timer_fn. A periodic timer moves on by whole intervals
 * past now; the ones a late interrupt skipped count as overruns. */
static enum hrtimer_restart posix_timer_fn(struct hrtimer *timer)
{
	struct k_itimer *timr = container_of(timer, struct k_itimer, timer);
	uint64_t steps;

	if (!timr->it_interval) {
		posix_timer_fire(timr, 0);
		return HRTIMER_NORESTART;
	}
	steps = hrtimer_forward_now(timer, timr->it_interval);
	posix_timer_fire(timr, steps ? steps - 1 : 0);
	return HRTIMER_RESTART;
}

/* Linux: check_timers_list for the timers of one task's CPU clocks. */
void posix_cpu_timers_tick(struct task_struct *p)
{
	struct k_itimer *timr;

	if (!p->signal || !p->signal->posix_timers.next)
		return;
	list_for_each_entry(timr, &p->signal->posix_timers, list) {
		uint64_t now, steps;

		if (!cpu_clock(timr->it_clock) || !timr->cpu_expires || !timr->it_process ||
		    (timr->it_clock == CLOCK_THREAD_CPUTIME_ID ? timr->it_process != p
							       : timr->it_process->tgid != p->tgid))
			continue;
		now = cpu_clock_sample(timr);
		if (now < timr->cpu_expires)
			continue;
		if (!timr->it_interval) {
			timr->cpu_expires = 0;
			posix_timer_fire(timr, 0);
			continue;
		}
		steps = 0;
		while (timr->cpu_expires <= now) {
			timr->cpu_expires += (uint64_t)timr->it_interval;
			steps++;
		}
		posix_timer_fire(timr, steps - 1);
	}
}

static struct k_itimer *posix_timer_by_id(struct task_struct *task, int id)
{
	struct k_itimer *timr;

	list_for_each_entry(timr, &task->signal->posix_timers, list)
		if (timr->it_id == id)
			return timr;
	return NULL;
}

/* Linux: posix_timer_add. The next free id after the last given, from 0. */
static int posix_timer_add(struct task_struct *task, struct k_itimer *timr)
{
	struct signal_struct *sig = task->signal;
	int count = 0;
	struct k_itimer *t;

	list_for_each_entry(t, &sig->posix_timers, list)
		count++;
	if (count >= MAX_POSIX_TIMERS)
		return -EAGAIN;
	do {
		timr->it_id = sig->next_posix_timer_id;
		sig->next_posix_timer_id =
			sig->next_posix_timer_id == INT32_MAX ? 0 : sig->next_posix_timer_id + 1;
	} while (posix_timer_by_id(task, timr->it_id));
	list_add_tail(&timr->list, &sig->posix_timers);
	return 0;
}

/* Linux: good_sigevent. THREAD_ID names a thread of the caller's process;
 * SIGEV_THREAD is the C library's, a signal to the kernel. Return: the
 * task to signal, or NULL: -EINVAL. */
static struct task_struct *good_sigevent(struct task_struct *task, const struct sigevent *ev)
{
	struct task_struct *rtn = task;

	switch (ev->sigev_notify) {
	case SIGEV_SIGNAL | SIGEV_THREAD_ID:
		rtn = find_task_by_vpid(ev->_sigev_un._tid);
		if (!rtn || rtn->signal != task->signal)
			return NULL;
		/* fallthrough */
	case SIGEV_SIGNAL:
	case SIGEV_THREAD:
		if (ev->sigev_signo <= 0 || ev->sigev_signo > _NSIG)
			return NULL;
		/* fallthrough */
	case SIGEV_NONE:
		return rtn;
	}
	return NULL;
}

/* Linux: clockid_to_kclock with its timer_create. Return: 0, -EINVAL for
 * an unknown clock, -EOPNOTSUPP for one without timers. */
static int timer_clock_valid(int clock)
{
	switch (clock) {
	case CLOCK_REALTIME:
	case CLOCK_MONOTONIC:
	case CLOCK_BOOTTIME:
	case CLOCK_PROCESS_CPUTIME_ID:
	case CLOCK_THREAD_CPUTIME_ID:
		return 0;
	case CLOCK_MONOTONIC_RAW:
	case CLOCK_REALTIME_COARSE:
	case CLOCK_MONOTONIC_COARSE:
		return -EOPNOTSUPP;
	}
	return -EINVAL;
}

/* Linux: do_timer_create. No sigevent: SIGALRM with the id as value. */
SYSCALL_DEFINE3(timer_create, int, which_clock, unsigned long, timer_event_spec, unsigned long,
		created_timer_id)
{
	struct sigevent ev = { .sigev_signo = SIGALRM, .sigev_notify = SIGEV_SIGNAL };
	struct task_struct *target = task;
	struct k_itimer *timr;
	int err;

	if (timer_event_spec && copy_from_user(&ev, timer_event_spec, sizeof(ev)))
		return -EFAULT;
	err = timer_clock_valid(which_clock);
	if (err)
		return err;
	if (timer_event_spec) {
		target = good_sigevent(task, &ev);
		if (!target)
			return -EINVAL;
	}
	timr = kzalloc(sizeof(*timr), GFP_KERNEL);
	if (!timr)
		return -EAGAIN;
	timr->it_clock = which_clock;
	timr->it_process = ev.sigev_notify & SIGEV_THREAD_ID ? target : target->group_leader;
	INIT_LIST_HEAD(&timr->sigq.list);
	timr->sigq.flags = SIGQUEUE_PREALLOC;
	timr->it_sigev_notify = ev.sigev_notify == SIGEV_THREAD ? SIGEV_SIGNAL : ev.sigev_notify;
	timr->it_sigev_signo = ev.sigev_signo;
	hrtimer_init(&timr->timer, cpu_clock(which_clock) ? CLOCK_MONOTONIC : which_clock,
		     HRTIMER_MODE_ABS);
	timr->timer.function = posix_timer_fn;
	err = posix_timer_add(task, timr);
	if (err) {
		kfree(timr);
		return err;
	}
	timr->it_sigev_value = timer_event_spec ? ev.sigev_value : (uint64_t)timr->it_id;
	if (copy_to_user(created_timer_id, &timr->it_id, sizeof(int))) {
		list_del(&timr->list);
		kfree(timr);
		return -EFAULT;
	}
	return 0;
}

static struct __kernel_timespec ns_to_timespec(uint64_t ns)
{
	return (struct __kernel_timespec){ (int64_t)(ns / NSEC_PER_SEC),
					   (long long)(ns % NSEC_PER_SEC) };
}

/* Linux: common_timer_get. A one-shot timer that fired reads 0. */
static void common_timer_get(struct k_itimer *timr, struct __kernel_itimerspec *cur)
{
	uint64_t left = 0;

	if (cpu_clock(timr->it_clock)) {
		uint64_t now = cpu_clock_sample(timr);

		if (timr->cpu_expires)
			left = timr->cpu_expires > now ? timr->cpu_expires - now : 1;
	} else if (hrtimer_active(&timr->timer)) {
		ktime_t rem = hrtimer_get_remaining(&timr->timer);

		left = rem > 0 ? (uint64_t)rem : 1;
	}
	cur->it_value = ns_to_timespec(left);
	cur->it_interval = ns_to_timespec((uint64_t)timr->it_interval);
}

SYSCALL_DEFINE2(timer_gettime, int, timer_id, unsigned long, setting)
{
	struct k_itimer *timr = posix_timer_by_id(task, timer_id);
	struct __kernel_itimerspec cur;
	unsigned long flags;

	if (!timr)
		return -EINVAL;
	flags = arch_irq_save();
	common_timer_get(timr, &cur);
	arch_irq_restore(flags);
	return copy_to_user(setting, &cur, sizeof(cur)) ? -EFAULT : 0;
}

/* Linux: timespec64_valid. */
static bool timespec_valid(const struct __kernel_timespec *ts)
{
	return ts->tv_sec >= 0 && (unsigned long long)ts->tv_nsec < NSEC_PER_SEC;
}

static ktime_t timespec_to_ktime(const struct __kernel_timespec *ts)
{
	if ((uint64_t)ts->tv_sec >= (uint64_t)KTIME_MAX / NSEC_PER_SEC)
		return KTIME_MAX;
	return ts->tv_sec * (ktime_t)NSEC_PER_SEC + ts->tv_nsec;
}

/* Linux: common_timer_set. Stop the timer (its counts start afresh), then
 * arm it unless the value is 0. */
static void common_timer_set(struct k_itimer *timr, int flags,
			     const struct __kernel_itimerspec *set)
{
	ktime_t value = timespec_to_ktime(&set->it_value);

	hrtimer_try_to_cancel(&timr->timer);
	timr->cpu_expires = 0;
	timr->it_overrun = timr->it_overrun_last = 0;
	timr->it_interval = timespec_to_ktime(&set->it_interval);
	if (!value)
		return;
	if (cpu_clock(timr->it_clock)) {
		uint64_t now = cpu_clock_sample(timr);

		if (flags & TIMER_ABSTIME)
			timr->cpu_expires = MAX((uint64_t)value, 1);
		else
			timr->cpu_expires = (uint64_t)ktime_add_safe((ktime_t)now, value);
		return;
	}
	hrtimer_start(&timr->timer, value,
		      flags & TIMER_ABSTIME ? HRTIMER_MODE_ABS : HRTIMER_MODE_REL);
}

SYSCALL_DEFINE4(timer_settime, int, timer_id, int, flags, unsigned long, new_setting, unsigned long,
		old_setting)
{
	struct __kernel_itimerspec set, old;
	struct k_itimer *timr;
	unsigned long irq;

	if (!new_setting)
		return -EINVAL;
	if (copy_from_user(&set, new_setting, sizeof(set)))
		return -EFAULT;
	if (!timespec_valid(&set.it_value) || !timespec_valid(&set.it_interval))
		return -EINVAL;
	timr = posix_timer_by_id(task, timer_id);
	if (!timr)
		return -EINVAL;
	irq = arch_irq_save();
	common_timer_get(timr, &old);
	common_timer_set(timr, flags, &set);
	arch_irq_restore(irq);
	if (old_setting && copy_to_user(old_setting, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

/* Linux: timer_getoverrun returns it_overrun_last, the count that went
 * with the signal delivered last: while this timer's signal is still
 * queued that is the previous one's. */
SYSCALL_DEFINE1(timer_getoverrun, int, timer_id)
{
	struct k_itimer *timr = posix_timer_by_id(task, timer_id);

	if (!timr)
		return -EINVAL;
	if ((timr->it_sigev_notify & ~SIGEV_THREAD_ID) != SIGEV_NONE && queued_timer_info(timr))
		return (long)timr->it_overrun_last;
	return (long)timr->it_overrun;
}

static void posix_timer_delete(struct k_itimer *timr)
{
	unsigned long flags = arch_irq_save();

	hrtimer_try_to_cancel(&timr->timer);
	timr->cpu_expires = 0;
	list_del(&timr->list);
	if (timr->it_process)
		sigqueue_cancel(&timr->sigq, timr->it_process);
	arch_irq_restore(flags);
	kfree(timr);
}

SYSCALL_DEFINE1(timer_delete, int, timer_id)
{
	struct k_itimer *timr = posix_timer_by_id(task, timer_id);

	if (!timr)
		return -EINVAL;
	posix_timer_delete(timr);
	return 0;
}

void exit_itimers(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;

	if (!sig || !sig->posix_timers.next)
		return;
	while (!list_empty(&sig->posix_timers))
		posix_timer_delete(list_first_entry(&sig->posix_timers, struct k_itimer, list));
}

void exit_thread_timers(struct task_struct *tsk)
{
	struct signal_struct *sig = tsk->signal;
	struct k_itimer *timr;

	if (!sig->posix_timers.next)
		return;
	list_for_each_entry(timr, &sig->posix_timers, list) {
		if (timr->it_process != tsk)
			continue;
		sigqueue_cancel(&timr->sigq, tsk);
		timr->it_process = NULL;
	}
}
