/*
 * Wait queues (Linux: include/linux/wait.h, kernel/sched/wait.c): a task
 * that must wait for an event puts itself on the event's queue, sets its
 * state to sleeping, checks the condition once more and calls schedule();
 * whoever makes the event happen calls wake_up. Checking after queueing
 * closes the race with a wake-up from an interrupt. Example:
 *
 *	wait_event_interruptible(console_wait, console_has_input())
 *
 * returns 0 once a byte is queued, or -ERESTARTSYS if a signal came
 * first. <sched.h> includes this header: the macros need both.
 */
#ifndef FOLIUM_WAIT_H
#define FOLIUM_WAIT_H

#include <list.h>

struct task_struct;

struct wait_queue_head {
	struct list_head head;
};
typedef struct wait_queue_head wait_queue_head_t;

struct wait_queue_entry;
/* Linux: wait_queue_func_t, what a wake-up does for one entry instead of
 * waking its task (epoll's ep_poll_callback). @key: the wake-up's poll
 * events, NULL when not known. Context: interrupts off. */
typedef int (*wait_queue_func_t)(struct wait_queue_entry *wq_entry, unsigned int mode, void *key);

#define WQ_FLAG_EXCLUSIVE 0x01 /* one of many: a wake-up stops at the first that takes it */

/* One sleeper on a queue (Linux: struct wait_queue_entry). */
struct wait_queue_entry {
	struct task_struct *task;
	struct list_head entry;
	wait_queue_func_t func; /* NULL: wake task (Linux: default_wake_function) */
	unsigned int flags;	/* WQ_FLAG_* */
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) \
	{                                   \
		LIST_HEAD_INIT((name).head) \
	}
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)
#define DEFINE_WAIT(name) \
	struct wait_queue_entry name = { current, LIST_HEAD_INIT((name).entry), NULL, 0 }

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->head);
}

/* Linux: init_waitqueue_func_entry: an entry whose wake-up calls @func. */
static inline void init_waitqueue_func_entry(struct wait_queue_entry *wait, wait_queue_func_t func)
{
	wait->task = NULL;
	wait->func = func;
	wait->flags = 0;
	INIT_LIST_HEAD(&wait->entry);
}

/* Queue @wait on @wq (once) and set current's state. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait, unsigned int state);
/* Linux: add_wait_queue, remove_wait_queue. Queue or unqueue @wait
 * without touching any task's state (poll's entries: fs/select.c). */
void add_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *wait);
void remove_wait_queue(struct wait_queue_head *wq, struct wait_queue_entry *wait);
/* Linux: add_wait_queue_exclusive: @wait at the tail, WQ_FLAG_EXCLUSIVE. */
void add_wait_queue_exclusive(struct wait_queue_head *wq, struct wait_queue_entry *wait);
/* Back to TASK_RUNNING, off the queue. */
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait);
/* Wake every task on @wq sleeping in one of @state's kinds, or call an
 * entry's func; past an exclusive entry that took the wake-up (its task
 * woke, its func returned nonzero) the rest are left (Linux: __wake_up
 * with nr_exclusive 1). A func may take its own entry off the queue.
 * Context: any, interrupts too. */
void __wake_up(struct wait_queue_head *wq, unsigned int state);
/* __wake_up with @key for the entries' funcs (Linux: the poll events
 * woken for, as poll_to_key). */
void __wake_up_key(struct wait_queue_head *wq, unsigned int state, void *key);
/* Linux: wake_up_pollfree. @wq is about to be freed: every entry's func
 * gets POLLHUP | POLLFREE and takes its entry off (epoll's items). */
void wake_up_pollfree(struct wait_queue_head *wq);
#define wake_up(wq) __wake_up(wq, TASK_NORMAL)
#define wake_up_interruptible(wq) __wake_up(wq, TASK_INTERRUPTIBLE)

/* Sleep until @cond (Linux: wait_event); no signal ends it. */
#define wait_event(wq, cond)                                                   \
	do {                                                                   \
		DEFINE_WAIT(__wait);                                           \
		for (;;) {                                                     \
			prepare_to_wait(&(wq), &__wait, TASK_UNINTERRUPTIBLE); \
			if (cond)                                              \
				break;                                         \
			schedule();                                            \
		}                                                              \
		finish_wait(&(wq), &__wait);                                   \
	} while (0)

/* Sleep until @cond or a signal (Linux: wait_event_interruptible).
 * Return: 0, or -ERESTARTSYS if a signal is pending and @cond is not. */
#define wait_event_interruptible(wq, cond)                                   \
	({                                                                   \
		DEFINE_WAIT(__wait);                                         \
		long __ret = 0;                                              \
		for (;;) {                                                   \
			prepare_to_wait(&(wq), &__wait, TASK_INTERRUPTIBLE); \
			if (cond)                                            \
				break;                                       \
			if (signal_pending(current)) {                       \
				__ret = -ERESTARTSYS;                        \
				break;                                       \
			}                                                    \
			schedule();                                          \
		}                                                            \
		finish_wait(&(wq), &__wait);                                 \
		__ret;                                                       \
	})

#endif
