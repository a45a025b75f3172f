/*
 * Timers (Linux: include/linux/timer.h): a function that runs once the
 * monotonic clock reaches expires. Linux keeps these coarse timers on a
 * wheel; here they are a thin layer over an hrtimer (<hrtimer.h>), so they
 * run at their expiry with a TSC-deadline LAPIC, or at the first tick
 * after it with a periodic one. Sleeps use hrtimer_sleeper directly.
 */
#ifndef FOLIUM_TIMER_H
#define FOLIUM_TIMER_H

#include <hrtimer.h>
#include <stdint.h>

struct task_struct;

struct timer_list {
	struct hrtimer timer;
	uint64_t expires; /* ns of the monotonic clock (arch_uptime_ns) */
	void (*function)(struct timer_list *timer);
};

/* Linux: timer_setup. */
void timer_setup(struct timer_list *timer, void (*function)(struct timer_list *));
/* Arm @timer at ->expires, re-arming it if armed (Linux: add_timer,
 * mod_timer). Context: any. */
void add_timer(struct timer_list *timer);
/* Disarm @timer if armed (Linux: del_timer). Return: true if it was. */
bool del_timer(struct timer_list *timer);

#endif
