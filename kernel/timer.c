/*
 * Timers (Linux: kernel/time/timer.c): a list sorted by expiry, checked
 * at every tick. Few timers exist at once (a sleep each), so a sorted
 * list is as fast as Linux's wheel here and shows the order plainly.
 */
#include <arch.h>
#include <timer.h>

static struct list_head timers = LIST_HEAD_INIT(timers);

void add_timer(struct timer_list *timer)
{
	unsigned long flags = arch_irq_save();
	struct list_head *pos;

	list_for_each(pos, &timers)
		if (list_entry(pos, struct timer_list, entry)->expires > timer->expires)
			break;
	list_add_tail(&timer->entry, pos);
	arch_irq_restore(flags);
}

bool del_timer(struct timer_list *timer)
{
	unsigned long flags = arch_irq_save();
	bool armed = timer->entry.next && !list_empty(&timer->entry);

	if (armed)
		list_del_init(&timer->entry);
	arch_irq_restore(flags);
	return armed;
}

void run_timers(void)
{
	uint64_t now = arch_uptime_ns();

	while (!list_empty(&timers)) {
		struct timer_list *timer = list_first_entry(&timers, struct timer_list, entry);

		if (timer->expires > now)
			break;
		list_del_init(&timer->entry);
		timer->function(timer);
	}
}
