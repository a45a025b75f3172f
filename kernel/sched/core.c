/*
 * The scheduler's core (Linux: kernel/sched/core.c): the run queue of the
 * CPU, schedule(), wake-ups, the tick, and the context switch around the
 * arch's register switch. One CPU, one run queue; its lock is "interrupts
 * off", since the only other party that touches it is an interrupt
 * handler waking a task.
 *
 * Preemption is Linux's PREEMPT_NONE: a task in the kernel runs until it
 * sleeps, exits or reaches a preemption point (cond_resched); the tick
 * only asks (need_resched) and the switch happens on the way back to
 * ring 3 (exit_to_user_mode) or in the idle loop. So kernel code, the mm
 * above all, never sees another task run in the middle of it.
 *
 * Which runnable task runs next: for now the one waiting longest, each
 * for one tick (round robin); the fair class (EEVDF) takes this over.
 * Example: two programs in busy loops alternate every tick, each getting
 * half the CPU; a third that sleeps in read() gets none until a byte
 * arrives, and then runs at the next preemption point.
 */
#include <arch.h>
#include <sched.h>
#include <timer.h>
#include <vm.h>

/* Linux: struct rq. */
struct rq {
	unsigned int nr_running;  /* runnable tasks, curr included, idle not */
	struct task_struct *curr; /* the task on the CPU */
	struct task_struct *idle; /* runs when nothing else can */
	struct list_head queue;	  /* runnable tasks but curr, oldest first */
	uint64_t clock;		  /* ns, at the last update_rq_clock */
	uint64_t nr_switches;
};

static struct rq runqueue = {
	.curr = &init_task,
	.idle = &init_task,
	.queue = LIST_HEAD_INIT(runqueue.queue),
};

static void update_rq_clock(struct rq *rq)
{
	rq->clock = arch_uptime_ns();
}

/* Linux: update_curr. The running task is charged its time so far. */
static void update_curr(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	curr->sum_exec_runtime += rq->clock - curr->exec_start;
	curr->exec_start = rq->clock;
}

static void enqueue_task(struct rq *rq, struct task_struct *p)
{
	list_add_tail(&p->run_list, &rq->queue);
	p->on_rq = 1;
	rq->nr_running++;
}

/* Linux: check_preempt_curr. A task woken while the CPU idles runs at
 * once; one woken beside another task waits its turn. */
static void check_preempt_curr(struct rq *rq)
{
	if (rq->curr == rq->idle)
		set_tsk_need_resched(rq->curr);
}

static struct task_struct *pick_next_task(struct rq *rq)
{
	struct task_struct *next;

	if (list_empty(&rq->queue))
		return rq->idle;
	next = list_first_entry(&rq->queue, struct task_struct, run_list);
	list_del_init(&next->run_list);
	return next;
}

/* Linux: finish_task_switch, on the next task's stack. A dead task is off
 * the CPU for good now: its parent may free its stack. */
static void finish_task_switch(struct task_struct *prev)
{
	(void)prev;
}

/* Linux: context_switch. A task's mm is loaded while it runs; a kernel
 * thread runs on the mm it last loaded itself (its active_mm: none, or a
 * shell workload's), never on another task's. */
static void context_switch(struct rq *rq, struct task_struct *prev, struct task_struct *next)
{
	rq->nr_switches++;
	prev->active_mm = current_mm;
	if (current_mm != next->active_mm)
		switch_mm(next->active_mm);
	prev = arch_switch_to(prev, next);
	finish_task_switch(prev);
}

void schedule(void)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = &runqueue;
	struct task_struct *prev = rq->curr, *next;

	clear_tsk_need_resched(prev);
	update_rq_clock(rq);
	update_curr(rq);
	if (prev != rq->idle) {
		if (prev->__state != TASK_RUNNING) {
			/* Linux: deactivate_task. It sleeps or is dead. */
			prev->on_rq = 0;
			rq->nr_running--;
		} else {
			list_add_tail(&prev->run_list, &rq->queue); /* Linux: put_prev_task */
		}
	}
	next = pick_next_task(rq);
	if (next != prev) {
		rq->curr = next;
		next->exec_start = rq->clock;
		context_switch(rq, prev, next);
	}
	arch_irq_restore(flags);
}

void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	arch_irq_enable();
}

bool try_to_wake_up(struct task_struct *p, unsigned int state)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = &runqueue;
	bool woken = false;

	if (p->__state & state) {
		p->__state = TASK_RUNNING;
		/* Still on the queue: it had not switched out yet. */
		if (!p->on_rq) {
			enqueue_task(rq, p);
			check_preempt_curr(rq);
		}
		woken = true;
	}
	arch_irq_restore(flags);
	return woken;
}

void wake_up_new_task(struct task_struct *p)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = &runqueue;

	p->__state = TASK_RUNNING;
	enqueue_task(rq, p);
	check_preempt_curr(rq);
	arch_irq_restore(flags);
}

void scheduler_tick(void)
{
	struct rq *rq = &runqueue;

	update_rq_clock(rq);
	update_curr(rq);
	run_timers();
	/* Round robin: a task with others waiting gets one tick at a time. */
	if (rq->curr != rq->idle && !list_empty(&rq->queue))
		set_tsk_need_resched(rq->curr);
}

void cond_resched(void)
{
	if (need_resched())
		schedule();
}

void cpu_idle(void)
{
	for (;;) {
		unsigned long flags = arch_irq_save();

		if (need_resched()) {
			arch_irq_restore(flags);
			schedule();
			continue;
		}
		arch_idle(); /* sti; hlt: an interrupt that wakes a task ends it */
	}
}

/* The timer of a sleep: wake its task. */
static void process_timeout(struct timer_list *timer)
{
	wake_up_process(timer->task);
}

uint64_t schedule_timeout_ns(uint64_t ns)
{
	struct timer_list timer = { .task = current, .function = process_timeout };
	uint64_t now = arch_uptime_ns(), expires = now + ns < now ? UINT64_MAX : now + ns;

	timer.expires = expires;
	add_timer(&timer);
	schedule();
	del_timer(&timer);
	now = arch_uptime_ns();
	return now < expires ? expires - now : 0;
}
