/*
 * High-resolution timers (Linux: include/linux/hrtimer.h,
 * kernel/time/hrtimer.c): a function that runs from the timer interrupt
 * once its clock reaches the timer's expiry. Each clock (MONOTONIC, and
 * REALTIME = MONOTONIC + the RTC's offset; BOOTTIME is MONOTONIC here)
 * has a red-black tree ordered by expiry with the leftmost cached, so the
 * next expiry is read in O(1); the clock event device is programmed for
 * the earliest of all (arch_clockevent_program). Example: timers at 30,
 * 10 and 20 ms; at 25 ms the interrupt runs 10 then 20 and programs 30.
 * With a TSC-deadline LAPIC the interrupt comes at the expiry; with a
 * periodic tick (or the PIT) the tick runs them: at the first tick after.
 */
#ifndef FOLIUM_HRTIMER_H
#define FOLIUM_HRTIMER_H

#include <rbtree.h>
#include <stdbool.h>
#include <stdint.h>

typedef int64_t ktime_t; /* ns; KTIME_MAX is never */
#define KTIME_MAX INT64_MAX

enum hrtimer_restart {
	HRTIMER_NORESTART, /* the timer is done */
	HRTIMER_RESTART,   /* the callback moved the expiry on (hrtimer_forward): queue again */
};

enum hrtimer_mode {
	HRTIMER_MODE_ABS = 0x0, /* the time is a point on the timer's clock */
	HRTIMER_MODE_REL = 0x1, /* the time is from now */
};

enum hrtimer_base_type {
	HRTIMER_BASE_MONOTONIC,
	HRTIMER_BASE_REALTIME,
	HRTIMER_MAX_CLOCK_BASES,
};

struct hrtimer_cpu_base;

/* Linux: struct hrtimer_clock_base, one clock's queue. */
struct hrtimer_clock_base {
	struct hrtimer_cpu_base *cpu_base;
	int index; /* enum hrtimer_base_type */
	struct rb_root_cached active;
};

/* Linux: struct hrtimer_cpu_base, every clock's queue of the one CPU.
 * A host test makes its own with a fake clock (hrtimer_cpu_base_init). */
struct hrtimer_cpu_base {
	struct hrtimer_clock_base clock_base[HRTIMER_MAX_CLOCK_BASES];
	ktime_t expires_next;	   /* the earliest expiry as a MONOTONIC time; KTIME_MAX: none */
	struct hrtimer *running;   /* the timer whose callback runs now */
	ktime_t (*get_mono)(void); /* CLOCK_MONOTONIC now */
	ktime_t (*get_real_offset)(void); /* CLOCK_REALTIME - CLOCK_MONOTONIC */
	void (*program)(ktime_t expires); /* the clock event device */
};

/* Linux: struct hrtimer. Expires in [_softexpires, node_expires]: it may
 * run from the soft time, must by the hard one (a range's slack). */
struct hrtimer {
	struct rb_node node;  /* in its base's tree while queued, else cleared */
	ktime_t node_expires; /* the hard expiry, on the base's clock: the tree's key */
	ktime_t _softexpires;
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	struct hrtimer_clock_base *base;
};

/* Linux: struct hrtimer_sleeper. task is cleared when the timer fires. */
struct hrtimer_sleeper {
	struct hrtimer timer;
	struct task_struct *task;
};

/* --- kernel/hrtimer.c --------------------------------------------------------- */
/* Linux: hrtimer_init. @clock_id is CLOCK_REALTIME, CLOCK_MONOTONIC or
 * CLOCK_BOOTTIME (= MONOTONIC); the caller sets ->function. */
void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode);
/* hrtimer_init on a test's own cpu_base. */
void hrtimer_init_on(struct hrtimer *timer, struct hrtimer_cpu_base *cpu_base, int clock_id);
/* Set up @cpu_base over the given clocks and clock event device. */
void hrtimer_cpu_base_init(struct hrtimer_cpu_base *cpu_base, ktime_t (*get_mono)(void),
			   ktime_t (*get_real_offset)(void), void (*program)(ktime_t expires));

/* Linux: hrtimer_start_range_ns. (Re)queue @timer to expire at @tim
 * (REL: from now on its clock), at the latest @delta_ns after. A queued
 * timer is moved. Context: any; interrupts are saved and restored. */
void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, uint64_t delta_ns,
			    enum hrtimer_mode mode);
static inline void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode)
{
	hrtimer_start_range_ns(timer, tim, 0, mode);
}
/* Linux: hrtimer_start_expires, start at the expiry already set. */
void hrtimer_start_expires(struct hrtimer *timer, enum hrtimer_mode mode);
/* Linux: hrtimer_try_to_cancel. Return: 1 if it was queued (now not),
 * 0 if it was not, -1 if its callback runs now. */
int hrtimer_try_to_cancel(struct hrtimer *timer);
/* Linux: hrtimer_cancel. Return: 1 if it was queued. Context: not from
 * the timer's own callback (one CPU: it would wait for itself). */
int hrtimer_cancel(struct hrtimer *timer);
/* Linux: hrtimer_forward. Move the expiry of a timer that is not queued
 * by whole @interval steps to after @now. Return: the steps (overruns
 * + 1), 0 if it expires after @now already. Example: expiry 10, interval
 * 10, now 35: 3 steps, expiry 40. */
uint64_t hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval);
/* Linux: hrtimer_forward_now, hrtimer_forward to the clock's now. */
uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);
/* The timer's clock now (Linux: timer->base->get_time()). */
ktime_t hrtimer_cb_get_time(const struct hrtimer *timer);
/* Linux: hrtimer_get_remaining, the hard expiry minus now (may be < 0). */
ktime_t hrtimer_get_remaining(const struct hrtimer *timer);
/* Linux: hrtimer_is_queued. */
static inline bool hrtimer_is_queued(const struct hrtimer *timer)
{
	return !RB_EMPTY_NODE(&timer->node);
}
/* Linux: hrtimer_active: queued or its callback running. */
bool hrtimer_active(const struct hrtimer *timer);
static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	timer->node_expires = timer->_softexpires = time;
}
static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->node_expires;
}
/* Linux: hrtimer_interrupt / __hrtimer_run_queues. Run every timer due
 * on @cpu_base's clocks (a RESTART one is queued again), then program
 * the next expiry. Context: interrupts off. */
void __hrtimer_run_queues(struct hrtimer_cpu_base *cpu_base);
/* Linux: hrtimer_interrupt, the clock event device's handler; and
 * hrtimer_run_queues, the same from the periodic tick. */
void hrtimer_interrupt(void);
void hrtimer_run_queues(void);
/* The earliest expiry as a MONOTONIC time, KTIME_MAX if none. */
ktime_t hrtimer_next_event(void);

/* Linux: hrtimer_init_sleeper and hrtimer_sleeper_start_expires: a timer
 * that wakes @sl->task (current) when it fires. */
void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, int clock_id, enum hrtimer_mode mode);
void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl, enum hrtimer_mode mode);
/* Linux: do_nanosleep / schedule_hrtimeout. Sleep interruptibly until the
 * sleeper's timer (its expiry set) fires or a signal is pending.
 * Return: 0 if the timer fired, -EINTR if a signal came first. */
int do_nanosleep(struct hrtimer_sleeper *sl, enum hrtimer_mode mode);

/* Saturating ktime arithmetic (Linux: ktime_add_safe). */
static inline ktime_t ktime_add_safe(ktime_t a, ktime_t b)
{
	return b > 0 && a > KTIME_MAX - b ? KTIME_MAX : a + b;
}

#endif
