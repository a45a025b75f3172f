/*
 * Wait queues (Linux: kernel/sched/wait.c). The queue and the sleeper's
 * state change together with interrupts off, since an interrupt handler
 * (the console's input, the tick's timers) may wake the queue.
 */
#include <arch.h>
#include <poll.h>
#include <sched.h>
#include <wait.h>

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait, unsigned int state)
{
	unsigned long flags = arch_irq_save();

	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->head);
	set_current_state(state);
	arch_irq_restore(flags);
}

void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = arch_irq_save();

	list_add_tail(&wait->entry, &wq->head);
	arch_irq_restore(flags);
}

void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = arch_irq_save();

	wait->flags |= WQ_FLAG_EXCLUSIVE;
	list_add_tail(&wait->entry, &wq->head);
	arch_irq_restore(flags);
}

void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = arch_irq_save();

	(void)wq;
	list_del_init(&wait->entry);
	arch_irq_restore(flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = arch_irq_save();

	(void)wq;
	set_current_state(TASK_RUNNING);
	list_del_init(&wait->entry);
	arch_irq_restore(flags);
}

void __wake_up_key(struct wait_queue_head *wq, unsigned int state, void *key)
{
	unsigned long flags = arch_irq_save();
	struct wait_queue_entry *wait, *next;

	list_for_each_entry_safe(wait, next, &wq->head, entry) {
		bool took = wait->func ? wait->func(wait, state, key) != 0
				       : try_to_wake_up(wait->task, state);

		if (took && (wait->flags & WQ_FLAG_EXCLUSIVE))
			break;
	}
	arch_irq_restore(flags);
}

void __wake_up(struct wait_queue_head *wq, unsigned int state)
{
	__wake_up_key(wq, state, NULL);
}

void wake_up_pollfree(struct wait_queue_head *wq)
{
	struct wait_queue_entry *wait, *next;
	unsigned long flags = arch_irq_save();

	/* Not __wake_up_key: an exclusive entry must not stop the rest. */
	list_for_each_entry_safe(wait, next, &wq->head, entry) {
		if (wait->func)
			wait->func(wait, TASK_NORMAL, (void *)(uintptr_t)(POLLHUP | POLLFREE));
		else
			list_del_init(&wait->entry);
	}
	arch_irq_restore(flags);
}
