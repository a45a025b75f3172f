/*
 * CPU time accounting (Linux: kernel/sched/cputime.c with tick-based
 * accounting, kernel_stat.h): the tick charges TICK_NSEC to the running
 * task's user or system time and to kcpustat's matching column; the idle
 * task is not charged, since idle time is its exact runtime. A task's
 * utime and stime for /proc and times() scale its precise runtime by the
 * sampled ratio (cputime_adjust). Example: runtime 30 ms, ticks 2 user and
 * 1 system: stime 10 ms, utime 20 ms.
 */
#include <kernel_stat.h>
#include <posix-timers.h>
#include <sched.h>
#include <timekeeping.h>

uint64_t kcpustat[NR_STATS];
uint64_t kstat_irqs[NR_KSTAT_IRQS];
uint64_t kstat_arch_irqs;
unsigned long total_forks;

uint64_t kcpustat_idle_ns(void)
{
	return task_cputime_ns(&init_task);
}

void account_process_tick(struct task_struct *p, bool user_tick)
{
	if (p == &init_task)
		return;
	if (user_tick) {
		p->utime += TICK_NSEC;
		/* Linux: account_user_time, CPUTIME_NICE for a positive nice. */
		kcpustat[task_nice(p) > 0 ? CPUTIME_NICE : CPUTIME_USER] += TICK_NSEC;
	} else {
		p->stime += TICK_NSEC;
		kcpustat[CPUTIME_SYSTEM] += TICK_NSEC;
	}
	run_posix_cpu_timers(p, user_tick); /* ITIMER_VIRTUAL, ITIMER_PROF, CPU-clock timers */
}

/* Linux: scale_stime, stime * rtime / total without overflowing 64
 * bits: both factors are cut to 32 bits first (stime with total, so the
 * ratio stays; rtime's bits dropped are shifted back in after). */
static uint64_t scale_stime(uint64_t stime, uint64_t rtime, uint64_t total)
{
	unsigned int shift = 0;
	uint64_t scaled;

	while (stime > 0xffffffffu) {
		stime >>= 1;
		total >>= 1;
	}
	while (rtime > 0xffffffffu) {
		rtime >>= 1;
		shift++;
	}
	scaled = rtime * stime / total << shift;
	return MIN(scaled, rtime << shift);
}

/* Linux: cputime_adjust. @rtime split by the sampled @utime : @stime. */
static void cputime_adjust(uint64_t rtime, uint64_t utime, uint64_t stime, uint64_t *ut,
			   uint64_t *st)
{
	uint64_t total = utime + stime;

	if (!total) {
		*ut = rtime;
		*st = 0;
		return;
	}
	*st = scale_stime(stime, rtime, total);
	*ut = rtime - *st;
}

void task_cputime_adjusted(const struct task_struct *p, uint64_t *ut, uint64_t *st)
{
	cputime_adjust(task_cputime_ns(p), p->utime, p->stime, ut, st);
}

/* Linux: thread_group_cputime: the exited threads' (kept by
 * __exit_signal) and every live thread's. */
void thread_group_cputime(const struct task_struct *p, uint64_t *utime, uint64_t *stime,
			  uint64_t *rtime)
{
	const struct signal_struct *sig = p->signal;
	const struct task_struct *t;

	*utime = sig->utime;
	*stime = sig->stime;
	*rtime = sig->sum_sched_runtime;
	for_each_thread(p, t)
	{
		*utime += t->utime;
		*stime += t->stime;
		*rtime += task_cputime_ns(t);
	}
}

void thread_group_cputime_adjusted(const struct task_struct *p, uint64_t *ut, uint64_t *st)
{
	uint64_t utime, stime, rtime;

	thread_group_cputime(p, &utime, &stime, &rtime);
	cputime_adjust(rtime, utime, stime, ut, st);
}
