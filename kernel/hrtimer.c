/*
 * High-resolution timers (Linux: kernel/time/hrtimer.c): per clock a
 * red-black tree of timers ordered by hard expiry, the leftmost cached;
 * the clock event device is programmed for the earliest expiry of all
 * clocks, converted to MONOTONIC (REALTIME's minus its offset). The
 * interrupt runs each tree from the left while the soft expiry has come.
 * Invariant: a queued timer's node is in its base's tree; an unqueued
 * one's is cleared (RB_EMPTY_NODE). Example: REALTIME offset 1000 s, a
 * REALTIME timer at 1000.5 s: it is due at MONOTONIC 0.5 s.
 */
#include <arch.h>
#include <hrtimer.h>
#include <sched.h>
#include <timekeeping.h>

static ktime_t mono_now(void)
{
	return (ktime_t)ktime_get_ns();
}

static ktime_t real_offset(void)
{
	return (ktime_t)(ktime_get_real_ns() - ktime_get_ns());
}

/* The CPU's queues: the clock event device is the arch's (x86: the
 * TSC-deadline LAPIC timer; periodic ticks ignore it). */
static struct hrtimer_cpu_base hrtimer_bases = {
	.expires_next = KTIME_MAX,
	.get_mono = mono_now,
	.get_real_offset = real_offset,
	.program = arch_clockevent_program,
};
static bool hrtimer_bases_ready;

void hrtimer_cpu_base_init(struct hrtimer_cpu_base *cpu_base, ktime_t (*get_mono)(void),
			   ktime_t (*get_real_offset)(void), void (*program)(ktime_t expires))
{
	for (int i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++)
		cpu_base->clock_base[i] =
			(struct hrtimer_clock_base){ cpu_base, i, RB_ROOT_CACHED };
	cpu_base->expires_next = KTIME_MAX;
	cpu_base->running = NULL;
	cpu_base->get_mono = get_mono;
	cpu_base->get_real_offset = get_real_offset;
	cpu_base->program = program;
}

static struct hrtimer_cpu_base *global_base(void)
{
	if (!hrtimer_bases_ready) {
		hrtimer_cpu_base_init(&hrtimer_bases, mono_now, real_offset,
				      arch_clockevent_program);
		hrtimer_bases_ready = true;
	}
	return &hrtimer_bases;
}

/* Linux: hrtimer_clockid_to_base. BOOTTIME is MONOTONIC: nothing suspends. */
static int clockid_to_base(int clock_id)
{
	return clock_id == CLOCK_REALTIME ? HRTIMER_BASE_REALTIME : HRTIMER_BASE_MONOTONIC;
}

void hrtimer_init_on(struct hrtimer *timer, struct hrtimer_cpu_base *cpu_base, int clock_id)
{
	*timer = (struct hrtimer){ .base = &cpu_base->clock_base[clockid_to_base(clock_id)] };
	RB_CLEAR_NODE(&timer->node);
}

void hrtimer_init(struct hrtimer *timer, int clock_id, enum hrtimer_mode mode)
{
	(void)mode; /* Linux keeps it for the soft/hard interrupt choice */
	hrtimer_init_on(timer, global_base(), clock_id);
}

/* This base's clock minus MONOTONIC. */
static ktime_t base_offset(const struct hrtimer_clock_base *base)
{
	return base->index == HRTIMER_BASE_REALTIME ? base->cpu_base->get_real_offset() : 0;
}

static ktime_t base_now(const struct hrtimer_clock_base *base)
{
	return base->cpu_base->get_mono() + base_offset(base);
}

ktime_t hrtimer_cb_get_time(const struct hrtimer *timer)
{
	return base_now(timer->base);
}

static bool hrtimer_less(struct rb_node *a, const struct rb_node *b)
{
	return rb_entry(a, struct hrtimer, node)->node_expires <
	       rb_entry(b, struct hrtimer, node)->node_expires;
}

/* Linux: __hrtimer_get_next_event. The earliest hard expiry of all
 * clocks, as MONOTONIC; a REALTIME one before MONOTONIC's zero is now. */
static ktime_t hrtimer_get_next_event(struct hrtimer_cpu_base *cpu_base)
{
	ktime_t next = KTIME_MAX;

	for (int i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++) {
		struct hrtimer_clock_base *base = &cpu_base->clock_base[i];
		struct rb_node *first = rb_first_cached(&base->active);
		ktime_t expires;

		if (!first)
			continue;
		expires = rb_entry(first, struct hrtimer, node)->node_expires;
		if (expires != KTIME_MAX)
			expires -= base_offset(base);
		next = MIN(next, MAX(expires, 0));
	}
	return next;
}

/* Linux: hrtimer_force_reprogram. Tell the device when the next timer is
 * due, if that moved. */
static void hrtimer_reprogram(struct hrtimer_cpu_base *cpu_base)
{
	ktime_t next = hrtimer_get_next_event(cpu_base);

	if (next == cpu_base->expires_next)
		return;
	cpu_base->expires_next = next;
	cpu_base->program(next);
}

static void enqueue_hrtimer(struct hrtimer *timer)
{
	rb_add_cached(&timer->node, &timer->base->active, hrtimer_less);
}

static void __remove_hrtimer(struct hrtimer *timer)
{
	rb_erase_cached(&timer->node, &timer->base->active);
	RB_CLEAR_NODE(&timer->node);
}

void hrtimer_start_range_ns(struct hrtimer *timer, ktime_t tim, uint64_t delta_ns,
			    enum hrtimer_mode mode)
{
	unsigned long flags = arch_irq_save();

	if (hrtimer_is_queued(timer))
		__remove_hrtimer(timer);
	if (mode & HRTIMER_MODE_REL)
		tim = ktime_add_safe(base_now(timer->base), tim);
	timer->_softexpires = tim;
	timer->node_expires = ktime_add_safe(tim, (ktime_t)MIN(delta_ns, (uint64_t)KTIME_MAX));
	enqueue_hrtimer(timer);
	hrtimer_reprogram(timer->base->cpu_base);
	arch_irq_restore(flags);
}

void hrtimer_start_expires(struct hrtimer *timer, enum hrtimer_mode mode)
{
	ktime_t soft = timer->_softexpires;

	hrtimer_start_range_ns(timer, soft, (uint64_t)(timer->node_expires - soft), mode);
}

int hrtimer_try_to_cancel(struct hrtimer *timer)
{
	unsigned long flags = arch_irq_save();
	int ret = 0;

	if (timer->base && timer->base->cpu_base->running == timer) {
		ret = -1;
	} else if (hrtimer_is_queued(timer)) {
		/* The device may stay programmed for it: a spurious interrupt
		 * finds nothing due and programs the next (Linux does the same
		 * without CONFIG_HIGH_RES_TIMERS reprogramming on remove). */
		__remove_hrtimer(timer);
		ret = 1;
	}
	arch_irq_restore(flags);
	return ret;
}

int hrtimer_cancel(struct hrtimer *timer)
{
	int ret;

	while ((ret = hrtimer_try_to_cancel(timer)) < 0)
		arch_idle(); /* only another CPU's callback could end; none here */
	return ret;
}

uint64_t hrtimer_forward(struct hrtimer *timer, ktime_t now, ktime_t interval)
{
	ktime_t delta = now - timer->node_expires;
	uint64_t orun = 1;

	if (delta < 0 || interval <= 0)
		return 0;
	if (delta >= interval) {
		orun = (uint64_t)(delta / interval);
		timer->node_expires = ktime_add_safe(timer->node_expires, (ktime_t)orun * interval);
		timer->_softexpires = timer->node_expires;
		if (timer->node_expires > now)
			return orun;
		orun++;
	}
	timer->node_expires = ktime_add_safe(timer->node_expires, interval);
	timer->_softexpires = timer->node_expires;
	return orun;
}

uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	return hrtimer_forward(timer, hrtimer_cb_get_time(timer), interval);
}

ktime_t hrtimer_get_remaining(const struct hrtimer *timer)
{
	return timer->node_expires - hrtimer_cb_get_time(timer);
}

bool hrtimer_active(const struct hrtimer *timer)
{
	return hrtimer_is_queued(timer) || (timer->base && timer->base->cpu_base->running == timer);
}

/* Linux: __run_hrtimer. The callback runs with the timer off the tree; a
 * RESTART puts it back unless the callback started it itself. */
static void __run_hrtimer(struct hrtimer_cpu_base *cpu_base, struct hrtimer *timer)
{
	enum hrtimer_restart restart;

	__remove_hrtimer(timer);
	cpu_base->running = timer;
	restart = timer->function(timer);
	if (restart == HRTIMER_RESTART && !hrtimer_is_queued(timer))
		enqueue_hrtimer(timer);
	cpu_base->running = NULL;
}

void __hrtimer_run_queues(struct hrtimer_cpu_base *cpu_base)
{
	ktime_t now = cpu_base->get_mono();

	for (int i = 0; i < HRTIMER_MAX_CLOCK_BASES; i++) {
		struct hrtimer_clock_base *base = &cpu_base->clock_base[i];
		struct rb_node *node;
		ktime_t basenow;

		if (!rb_first_cached(&base->active))
			continue; /* REALTIME's offset is read only when needed */
		basenow = now + base_offset(base);
		while ((node = rb_first_cached(&base->active))) {
			struct hrtimer *timer = rb_entry(node, struct hrtimer, node);

			if (timer->_softexpires > basenow)
				break;
			__run_hrtimer(cpu_base, timer);
		}
	}
	/* Whatever was programmed has passed: program afresh. */
	cpu_base->expires_next = KTIME_MAX - 1;
	hrtimer_reprogram(cpu_base);
}

void hrtimer_interrupt(void)
{
	__hrtimer_run_queues(global_base());
}

void hrtimer_run_queues(void)
{
	struct hrtimer_cpu_base *cpu_base = global_base();

	if (cpu_base->expires_next <= cpu_base->get_mono())
		__hrtimer_run_queues(cpu_base);
}

ktime_t hrtimer_next_event(void)
{
	return global_base()->expires_next;
}

/* Linux: hrtimer_wakeup. */
static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *timer)
{
	struct hrtimer_sleeper *sl = container_of(timer, struct hrtimer_sleeper, timer);
	struct task_struct *task = sl->task;

	sl->task = NULL;
	if (task)
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

void hrtimer_init_sleeper(struct hrtimer_sleeper *sl, int clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(&sl->timer, clock_id, mode);
	sl->timer.function = hrtimer_wakeup;
	sl->task = current;
}

void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl, enum hrtimer_mode mode)
{
	hrtimer_start_expires(&sl->timer, mode);
}

int do_nanosleep(struct hrtimer_sleeper *sl, enum hrtimer_mode mode)
{
	do {
		set_current_state(TASK_INTERRUPTIBLE);
		hrtimer_sleeper_start_expires(sl, mode);
		/* Linux's schedule() keeps a task with a signal pending
		 * running (signal_pending_state); here the check is the
		 * sleeper's. The state is set first: a signal sent after the
		 * check wakes the task. */
		if (sl->task && !signal_pending(current))
			schedule();
		hrtimer_cancel(&sl->timer);
		mode = HRTIMER_MODE_ABS;
	} while (sl->task && !signal_pending(current));
	set_current_state(TASK_RUNNING);
	return sl->task ? -EINTR : 0;
}
