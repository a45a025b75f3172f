/*
 * Timers (Linux: kernel/time/timer.c's API) over hrtimers: Linux's wheel
 * trades precision for cheap arming of many timeouts; Folium has few, so
 * each timer_list is an hrtimer on CLOCK_MONOTONIC and the deadline-ordered
 * queue is the hrtimer's (kernel/hrtimer.c).
 */
#include <timekeeping.h>
#include <timer.h>

static enum hrtimer_restart timer_list_fn(struct hrtimer *hrtimer)
{
	struct timer_list *timer = container_of(hrtimer, struct timer_list, timer);

	timer->function(timer);
	return HRTIMER_NORESTART;
}

void timer_setup(struct timer_list *timer, void (*function)(struct timer_list *))
{
	hrtimer_init(&timer->timer, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	timer->timer.function = timer_list_fn;
	timer->function = function;
}

void add_timer(struct timer_list *timer)
{
	ktime_t expires =
		timer->expires > (uint64_t)KTIME_MAX ? KTIME_MAX : (ktime_t)timer->expires;

	hrtimer_start(&timer->timer, expires, HRTIMER_MODE_ABS);
}

bool del_timer(struct timer_list *timer)
{
	return hrtimer_try_to_cancel(&timer->timer) == 1;
}
