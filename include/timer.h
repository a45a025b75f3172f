/*
 * Timers (Linux: include/linux/timer.h, kernel/time/timer.c): a function
 * that runs from the tick once the monotonic clock reaches expires. The
 * tick is the resolution (1/CONFIG_HZ), as Linux's timer wheel without
 * high-resolution timers. Example: schedule_timeout_ns(ms(50)) sleeps
 * until the first tick at or after 50 ms from now.
 */
#ifndef FOLIUM_TIMER_H
#define FOLIUM_TIMER_H

#include <list.h>
#include <stdint.h>

struct task_struct;

struct timer_list {
	struct list_head entry;
	uint64_t expires; /* ns of the monotonic clock (arch_uptime_ns) */
	void (*function)(struct timer_list *timer);
	struct task_struct *task; /* a sleep's: the task to wake */
};

/* Arm @timer (Linux: add_timer). Context: any. */
void add_timer(struct timer_list *timer);
/* Disarm @timer if armed (Linux: del_timer). Return: true if it was. */
bool del_timer(struct timer_list *timer);
/* Run every timer whose time has come (Linux: run_timer_softirq).
 * Context: the tick, interrupts off. */
void run_timers(void);

#endif
