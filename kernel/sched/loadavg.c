/*
 * The load averages (Linux: kernel/sched/loadavg.c, calc_global_load):
 * every LOAD_FREQ (5 s and one tick) the tasks that are runnable or in
 * uninterruptible sleep are counted and folded into three exponential
 * averages, over 1, 5 and 15 minutes, in 11-bit fixed point. Example:
 * one task spinning from a load of 0: after 12 samples (a minute) the
 * 1-minute average reads 0.63 (1 - 1/e), the 5-minute one 0.18.
 */
#include <kernel_stat.h>
#include <sched.h>
#include <timekeeping.h>

unsigned long avenrun[3];
static unsigned long load_ticks; /* ticks since the last sample */

unsigned long calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (FIXED_1 - exp);

	/* Linux rounds up while the load rises, so it can reach active. */
	if (active >= load)
		newload += FIXED_1 - 1;
	return newload / FIXED_1;
}

void calc_global_load_tick(unsigned int (*active)(void))
{
	unsigned long n;

	if (++load_ticks < LOAD_FREQ_TICKS(CONFIG_HZ))
		return;
	load_ticks = 0;
	n = (unsigned long)active() * FIXED_1;
	avenrun[0] = calc_load(avenrun[0], EXP_1, n);
	avenrun[1] = calc_load(avenrun[1], EXP_5, n);
	avenrun[2] = calc_load(avenrun[2], EXP_15, n);
}
