/*
 * What the CPU did, for /proc/stat and /proc/PID/stat (Linux:
 * include/linux/kernel_stat.h, kernel/sched/cputime.c, loadavg.c): time
 * by kind in ns (kcpustat), interrupts, context switches, forks, and each
 * task's user and system time. User and system time are sampled at the
 * tick, as Linux's tick-based accounting: the whole tick goes to the kind
 * of code it interrupted. Idle time is exact instead: the idle task's
 * runtime (Linux with NO_HZ reads the idle sleep time the same way).
 * Example: a program that spins in ring 3 for 1 s at CONFIG_HZ 100 gets
 * about 100 ticks of utime and the cpu line's user grows by 100.
 */
#ifndef FOLIUM_KERNEL_STAT_H
#define FOLIUM_KERNEL_STAT_H

#include <stdbool.h>
#include <stdint.h>

struct task_struct;

/* Linux: enum cpu_usage_stat, the columns of /proc/stat's cpu lines. */
enum cpu_usage_stat {
	CPUTIME_USER,
	CPUTIME_NICE,
	CPUTIME_SYSTEM,
	CPUTIME_SOFTIRQ,
	CPUTIME_IRQ,
	CPUTIME_IDLE,
	CPUTIME_IOWAIT,
	CPUTIME_STEAL,
	CPUTIME_GUEST,
	CPUTIME_GUEST_NICE,
	NR_STATS,
};

#define NR_KSTAT_IRQS 16 /* the legacy IRQs, /proc/stat's intr columns */
#define USER_HZ 100	 /* the unit of times() and /proc's clock ticks */

/* --- kernel/sched/cputime.c --------------------------------------------------- */
/* Linux: kcpustat_cpu(0).cpustat, in ns; CPUTIME_IDLE is not kept here
 * (kcpustat_idle_ns reads the idle task). */
extern uint64_t kcpustat[NR_STATS];
/* Linux: kstat_irqs per IRQ; kstat_arch_irqs counts the interrupts
 * without an IRQ line (the local APIC timer: Linux's LOC). */
extern uint64_t kstat_irqs[NR_KSTAT_IRQS];
extern uint64_t kstat_arch_irqs;
/* Linux: total_forks, every task copy_process made. */
extern unsigned long total_forks;
/* The idle time so far: the idle task's runtime, ns. */
uint64_t kcpustat_idle_ns(void);
/* Linux: account_process_tick. Charge the tick (TICK_NSEC) to @p as user
 * time (@user_tick: it interrupted ring 3) or system time; nothing for
 * the idle task. Context: the tick's interrupt. */
void account_process_tick(struct task_struct *p, bool user_tick);
/* Linux: task_cputime_adjusted (cputime_adjust): the task's runtime
 * split in the ratio of its sampled ticks, so *ut + *st is the precise
 * runtime; all of it user time when no tick sampled it yet. */
void task_cputime_adjusted(const struct task_struct *p, uint64_t *ut, uint64_t *st);
/* Linux: thread_group_cputime (raw ns: sampled user and system, and the
 * exact runtime) and thread_group_cputime_adjusted: the whole process's,
 * its exited threads' included. */
void thread_group_cputime(const struct task_struct *p, uint64_t *utime, uint64_t *stime,
			  uint64_t *rtime);
void thread_group_cputime_adjusted(const struct task_struct *p, uint64_t *ut, uint64_t *st);
/* ns as clock ticks of USER_HZ (Linux: nsec_to_clock_t). */
static inline uint64_t nsec_to_clock_t(uint64_t ns)
{
	return ns / (1000000000ull / USER_HZ);
}

/* --- kernel/sched/core.c ------------------------------------------------------- */
/* Linux: nr_running, nr_context_switches, nr_iowait. */
unsigned int nr_running(void);
uint64_t nr_context_switches(void);
/* Tasks asleep in TASK_UNINTERRUPTIBLE (Linux: nr_uninterruptible),
 * kernel threads not counted (their waits are Linux's TASK_IDLE). */
unsigned int nr_uninterruptible(void);

/* --- kernel/sched/loadavg.c ------------------------------------------------------ */
/* Linux's fixed point: 11 bits of fraction. */
#define FSHIFT 11
#define FIXED_1 (1ul << FSHIFT)
#define LOAD_FREQ_TICKS(hz) (5 * (hz) + 1) /* Linux: LOAD_FREQ, 5 s and a tick */
#define EXP_1 1884			   /* 1/exp(5s/1min) in fixed point */
#define EXP_5 2014			   /* 1/exp(5s/5min) */
#define EXP_15 2037			   /* 1/exp(5s/15min) */
#define LOAD_INT(x) ((x) >> FSHIFT)
#define LOAD_FRAC(x) LOAD_INT(((x) & (FIXED_1 - 1)) * 100)
/* Linux: avenrun, the 1, 5 and 15 minute averages. */
extern unsigned long avenrun[3];
/* Linux: calc_load: one step of the exponential average @load towards
 * @active (both fixed point) with factor @exp. */
unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active);
/* Linux: calc_global_load_tick + calc_global_load. Every LOAD_FREQ
 * ticks, fold @active tasks (runnable + uninterruptible) into avenrun.
 * Context: the tick. */
void calc_global_load_tick(unsigned int (*active)(void));

#endif
