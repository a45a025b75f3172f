/*
 * Completions (Linux: include/linux/completion.h, kernel/sched/completion.c):
 * one task waits until another says a piece of work is done. vfork uses
 * one: the parent sleeps in wait_for_completion_killable until the child
 * calls complete() from exec or exit (mm_release), so the two never run
 * on the shared mm at the same time.
 */
#ifndef FOLIUM_COMPLETION_H
#define FOLIUM_COMPLETION_H

#include <sched.h>
#include <wait.h>

struct completion {
	unsigned int done;
	struct wait_queue_head wait;
};

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

/* Linux: complete. One waiter may go on. Context: any. */
static inline void complete(struct completion *x)
{
	x->done++;
	wake_up(&x->wait);
}

/* Linux: wait_for_completion_killable. Sleep until complete() or a fatal
 * signal. Return: 0, or -ERESTARTSYS when SIGKILL came first. */
static inline int wait_for_completion_killable(struct completion *x)
{
	DEFINE_WAIT(wait);
	int ret = 0;

	for (;;) {
		prepare_to_wait(&x->wait, &wait, TASK_INTERRUPTIBLE);
		if (x->done)
			break;
		if (fatal_signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		schedule();
	}
	finish_wait(&x->wait, &wait);
	if (!ret)
		x->done--;
	return ret;
}

#endif
