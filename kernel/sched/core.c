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
 * Which runnable task runs next is the fair class's choice (EEVDF,
 * kernel/sched/fair.c): every task but the idle one is an entity on the
 * run queue's cfs_rq, weighted by its nice value. Example: two programs
 * in busy loops at nice 0 alternate, each getting half the CPU; at nice
 * 0 and 5 they share it 1024:335; a third that sleeps in read() gets
 * none until a byte arrives, and then runs at the next preemption point.
 */
#include <arch.h>
#include <kernel_stat.h>
#include <sched.h>
#include <hrtimer.h>
#include <timekeeping.h>
#include <vm.h>
#include <vmalloc.h>
#include "sched.h"

/* Linux: struct rq. */
struct rq {
	unsigned int nr_running;  /* runnable tasks, curr included, idle not */
	struct task_struct *curr; /* the task on the CPU */
	struct task_struct *idle; /* runs when nothing else can */
	struct cfs_rq cfs;	  /* the runnable tasks' entities */
	uint64_t clock;		  /* ns, at the last update_rq_clock */
	uint64_t nr_switches;
};

static struct rq runqueue = {
	.curr = &init_task,
	.idle = &init_task,
};

static struct task_struct *task_of(struct sched_entity *se)
{
	return container_of(se, struct task_struct, se);
}

void sched_init(void)
{
	init_cfs_rq(&runqueue.cfs);
	sched_entity_init(&init_task.se, 0);
}

void init_idle(struct task_struct *idle, unsigned int cpu)
{
	idle->cpu = cpu;
	idle->on_rq = 1; /* an idle task is always runnable (init_task's too) */
	sched_entity_init(&idle->se, 0);
}

void sched_fork(struct task_struct *p)
{
	p->static_prio = current->static_prio;
	sched_entity_init(&p->se, PRIO_TO_NICE(p->static_prio));
}

static void update_rq_clock(struct rq *rq)
{
	rq->clock = arch_uptime_ns();
}

/* Linux: update_curr's task half. The running task is charged its time
 * so far (the idle task too: its time is the CPU's idle time). */
static void update_curr_task(struct rq *rq)
{
	struct task_struct *curr = rq->curr;

	curr->sum_exec_runtime += rq->clock - curr->exec_start;
	curr->exec_start = rq->clock;
}

/* Linux: enqueue_task / dequeue_task with the fair class's half. */
static void enqueue_task(struct rq *rq, struct task_struct *p, int flags)
{
	enqueue_entity(&rq->cfs, &p->se, flags, rq->clock);
	p->on_rq = 1;
	rq->nr_running++;
}

static void dequeue_task(struct rq *rq, struct task_struct *p, int flags)
{
	dequeue_entity(&rq->cfs, &p->se, flags, rq->clock);
	p->on_rq = 0;
	rq->nr_running--;
}

/* Linux: wakeup_preempt. A task woken while the CPU idles runs at once;
 * beside another task it runs first if EEVDF would pick it now. */
static void wakeup_preempt(struct rq *rq, struct task_struct *p)
{
	if (rq->curr == rq->idle || check_preempt_wakeup_fair(&rq->cfs, &p->se, rq->clock))
		set_tsk_need_resched(rq->curr);
}

/* Linux: pick_next_task (the fair class, then idle). */
static struct task_struct *pick_next_task(struct rq *rq)
{
	struct sched_entity *se = pick_next_entity(&rq->cfs);

	if (!se)
		return rq->idle;
	set_next_entity(&rq->cfs, se, rq->clock);
	return task_of(se);
}

/* Linux: finish_task_switch, on the next task's stack. A dead task is off
 * the CPU for good now: its parent may free its stack, and one nobody
 * waits for (autoreaped, EXIT_DEAD) is freed here (Linux:
 * put_task_stack, then the last put_task_struct). */
static void finish_task_switch(struct task_struct *prev)
{
	if (prev->__state == TASK_DEAD && prev->exit_state == EXIT_DEAD)
		free_task(prev);
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
	update_curr_task(rq);
	if (prev != rq->idle) {
		/* Linux: deactivate_task. It sleeps or is dead. */
		if (prev->__state != TASK_RUNNING)
			dequeue_task(rq, prev, DEQUEUE_SLEEP);
		put_prev_entity(&rq->cfs, &prev->se, rq->clock); /* Linux: put_prev_task */
	}
	next = pick_next_task(rq);
	if (next != prev) {
		rq->curr = next;
		next->exec_start = rq->clock;
		context_switch(rq, prev, next);
	}
	arch_irq_restore(flags);
	/* A task freed by finish_task_switch (interrupts off) leaves its
	 * stack to vfree_atomic; give it back now, as Linux's deferred
	 * stack free does soon after. */
	vfree_drain_deferred();
}

void schedule_tail(struct task_struct *prev)
{
	finish_task_switch(prev);
	arch_irq_enable();
	vfree_drain_deferred(); /* as at the end of schedule() */
	/* Linux: CLONE_CHILD_SETTID's word, written from the child's mm. */
	if (current->set_child_tid) {
		int pid = current->pid;

		copy_to_user(current->set_child_tid, &pid, sizeof(pid));
	}
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
			update_rq_clock(rq);
			enqueue_task(rq, p, ENQUEUE_WAKEUP);
			wakeup_preempt(rq, p);
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
	update_rq_clock(rq);
	enqueue_task(rq, p, ENQUEUE_INITIAL);
	wakeup_preempt(rq, p);
	arch_irq_restore(flags);
}

unsigned int nr_running(void)
{
	return runqueue.nr_running;
}

uint64_t nr_context_switches(void)
{
	return runqueue.nr_switches;
}

unsigned int nr_uninterruptible(void)
{
	struct task_struct *p;
	unsigned int n = 0;

	for_each_process(p) n += p->__state == TASK_UNINTERRUPTIBLE && !p->exit_state;
	return n;
}

/* Linux: calc_load_fold_active, what the load averages count. */
static unsigned int nr_active(void)
{
	return nr_running() + nr_uninterruptible();
}

void scheduler_tick(void)
{
	struct rq *rq = &runqueue;

	update_rq_clock(rq);
	update_curr_task(rq);
	calc_global_load_tick(nr_active);
	hrtimer_run_queues(); /* the periodic tick's share (Linux: run_local_timers) */
	/* Linux: task_tick_fair. Its request served, an entity with an
	 * earlier deadline eligible: switch at the next preemption point. */
	if (rq->curr != rq->idle && entity_tick(&rq->cfs, &rq->curr->se, rq->clock))
		set_tsk_need_resched(rq->curr);
}

/* Linux: set_user_nice. The weight changes at once, the entity's lag
 * kept in real time (reweight_entity). */
void set_user_nice(struct task_struct *p, int nice)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = &runqueue;
	struct load_weight lw;

	nice = MIN(MAX(nice, MIN_NICE), MAX_NICE);
	lw = sched_nice_to_load(nice);
	update_rq_clock(rq);
	p->static_prio = NICE_TO_PRIO(nice);
	reweight_entity(&rq->cfs, &p->se, &lw, rq->clock);
	arch_irq_restore(flags);
}

/* Linux: do_sched_yield. The current request counts as served
 * (yield_task_fair), then the CPU goes to whoever is first now. */
void do_sched_yield(void)
{
	unsigned long flags = arch_irq_save();
	struct rq *rq = &runqueue;

	if (rq->curr != rq->idle) {
		update_rq_clock(rq);
		yield_task_fair(&rq->cfs, &rq->curr->se, rq->clock);
	}
	arch_irq_restore(flags);
	schedule();
}

void cond_resched(void)
{
	if (need_resched())
		schedule();
}

void cpu_idle(void)
{
	for (;;) {
		unsigned long flags;

		vfree_drain_deferred(); /* Linux: the vmap purge worker */
		flags = arch_irq_save();

		if (need_resched()) {
			arch_irq_restore(flags);
			schedule();
			continue;
		}
		arch_idle(); /* sti; hlt: an interrupt that wakes a task ends it */
	}
}

void cpu_idle_secondary(void)
{
	for (;;) {
		arch_irq_save();
		arch_idle(); /* sti; hlt: an IPI ends it and runs first */
	}
}

/* Linux: schedule_hrtimeout_range. The sleep ends at the expiry (an
 * hrtimer_sleeper wakes the task) or at an earlier wake-up; the caller
 * set the task's state. */
uint64_t schedule_timeout_ns(uint64_t ns)
{
	struct hrtimer_sleeper t;
	ktime_t now = (ktime_t)arch_uptime_ns();
	ktime_t expires = ktime_add_safe(now, ns > (uint64_t)KTIME_MAX ? KTIME_MAX : (ktime_t)ns);

	hrtimer_init_sleeper(&t, CLOCK_MONOTONIC, HRTIMER_MODE_ABS);
	hrtimer_set_expires(&t.timer, expires);
	hrtimer_sleeper_start_expires(&t, HRTIMER_MODE_ABS);
	if (t.task)
		schedule();
	hrtimer_cancel(&t.timer);
	set_current_state(TASK_RUNNING);
	now = (ktime_t)arch_uptime_ns();
	return now < expires ? (uint64_t)(expires - now) : 0;
}
