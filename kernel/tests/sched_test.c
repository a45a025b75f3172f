/*
 * The scheduler suite (in-kernel only: it switches tasks): kernel threads
 * started from the suite run, sleep, wake and exit, and the suite reaps
 * them with kernel_wait. Example: two threads that spin for 300 ms of
 * wall-clock time, each with cond_resched in its loop, get about half of
 * the CPU each; a thread sleeping 50 ms uses almost none of it, and the
 * idle task runs meanwhile.
 */
#include <arch.h>
#include <kthread.h>
#include <ktest.h>
#include <mm.h>
#include <sched.h>
#include <slab.h>
#include <timer.h>

#define MS 1000000ull

static unsigned long kmalloc_objects(void)
{
	struct kmalloc_stats st;

	kmalloc_stats(0, &st);
	return st.objects;
}

static int return_seven(void *arg)
{
	(void)arg;
	return 7;
}

static void a_kernel_thread_exits_and_its_parent_reaps_it(struct kunit *test)
{
	unsigned long free_before = node_free_pages(NODE_DATA(0)), objects = kmalloc_objects();
	struct task_struct *p = kthread_run(return_seven, NULL, "ktest-exit");

	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, p->real_parent == current);
	KUNIT_EXPECT_EQ(test, kernel_wait(p), 7 << 8);
	/* Its stack, task, files and pid went back. */
	KUNIT_EXPECT_EQ(test, node_free_pages(NODE_DATA(0)), free_before);
	KUNIT_EXPECT_EQ(test, kmalloc_objects(), objects);
}

struct spinner {
	uint64_t until;	  /* wall clock it spins to */
	uint64_t runtime; /* its CPU time when it stopped */
	uint64_t loops;
};

static int spin(void *arg)
{
	struct spinner *s = arg;

	while (arch_uptime_ns() < s->until) {
		s->loops++;
		cond_resched();
	}
	s->runtime = current->sum_exec_runtime + (arch_uptime_ns() - current->exec_start);
	return 0;
}

static void two_spinning_threads_share_the_cpu(struct kunit *test)
{
	struct spinner a = { .until = arch_uptime_ns() + 300 * MS }, b = a;
	struct task_struct *pa = kthread_run(spin, &a, "ktest-spin-a");
	struct task_struct *pb = kthread_run(spin, &b, "ktest-spin-b");
	uint64_t total;

	KUNIT_ASSERT_NOT_NULL(test, pa);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	kernel_wait(pa);
	kernel_wait(pb);
	total = a.runtime + b.runtime;
	KUNIT_ASSERT_GT(test, total, 200 * MS);
	/* Half each, within 15 points (the tick is 1/CONFIG_HZ). */
	KUNIT_EXPECT_GE(test, a.runtime * 100 / total, 35);
	KUNIT_EXPECT_LE(test, a.runtime * 100 / total, 65);
	KUNIT_EXPECT_GT(test, a.loops, 0);
	KUNIT_EXPECT_GT(test, b.loops, 0);
}

/* Linux's weights: nice 0 is 1024, nice 5 is 335, so the nice-0 thread
 * gets about 3 times the CPU (the bound: the ratio within 25%). */
static void nice_5_gets_a_third_of_nice_0s_share(struct kunit *test)
{
	struct spinner a = { .until = arch_uptime_ns() + 600 * MS }, b = a;
	struct task_struct *pa = kthread_create(spin, &a, "ktest-nice0");
	struct task_struct *pb = kthread_create(spin, &b, "ktest-nice5");
	uint64_t ratio100;

	KUNIT_ASSERT_NOT_NULL(test, pa);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	set_user_nice(pb, 5);
	KUNIT_EXPECT_EQ(test, task_nice(pb), 5);
	KUNIT_EXPECT_EQ(test, pb->se.load.weight, 335);
	wake_up_new_task(pa);
	wake_up_new_task(pb);
	kernel_wait(pa);
	kernel_wait(pb);
	KUNIT_ASSERT_GT(test, b.runtime, 0);
	ratio100 = a.runtime * 100 / b.runtime; /* 1024 / 335 = 3.06 */
	KUNIT_EXPECT_GE(test, ratio100, 229);
	KUNIT_EXPECT_LE(test, ratio100, 382);
}

/* Linux: sched_yield. A yielding thread that is owed no more service
 * gives the CPU to the other one, so two threads that yield after each
 * step mostly alternate (EEVDF forfeits a slice only while eligible);
 * without yield one would do all its steps before the other started (one
 * switch, two if a tick ends a slice). A step's time comes from the
 * host's clock under TCG, so a loaded host makes some steps long, and the
 * other thread then catches up in several steps (7 to 15 switches of 15
 * were seen with 8 steps each, once 4); 32 steps each average that out,
 * and at least 16 of 63 separates yield from no yield. */
struct yielder {
	int id, steps;
	int *log, *pos;
};

static int yield_steps(void *arg)
{
	struct yielder *y = arg;

	for (int i = 0; i < y->steps; i++) {
		y->log[(*y->pos)++] = y->id;
		do_sched_yield();
	}
	return 0;
}

static void yielding_threads_alternate(struct kunit *test)
{
	int log[64] = { 0 }, pos = 0, switches = 0;
	struct yielder a = { 1, 32, log, &pos }, b = { 2, 32, log, &pos };
	struct task_struct *pa = kthread_run(yield_steps, &a, "ktest-yield-a");
	struct task_struct *pb = kthread_run(yield_steps, &b, "ktest-yield-b");

	KUNIT_ASSERT_NOT_NULL(test, pa);
	KUNIT_ASSERT_NOT_NULL(test, pb);
	kernel_wait(pa);
	kernel_wait(pb);
	KUNIT_ASSERT_EQ(test, pos, 64);
	for (int i = 1; i < 64; i++)
		switches += log[i] != log[i - 1];
	KUNIT_EXPECT_GE(test, switches, 16);
}

struct sleeper {
	uint64_t slept, runtime;
};

static int sleep_50ms(void *arg)
{
	struct sleeper *s = arg;
	uint64_t start = arch_uptime_ns();

	set_current_state(TASK_INTERRUPTIBLE);
	schedule_timeout_ns(50 * MS);
	s->slept = arch_uptime_ns() - start;
	s->runtime = current->sum_exec_runtime;
	return 0;
}

static void a_sleep_lasts_its_time_and_leaves_the_cpu_idle(struct kunit *test)
{
	struct sleeper s = { 0 };
	uint64_t idle_before = init_task.sum_exec_runtime;
	struct task_struct *p = kthread_run(sleep_50ms, &s, "ktest-sleep");

	KUNIT_ASSERT_NOT_NULL(test, p);
	kernel_wait(p);
	KUNIT_EXPECT_GE(test, s.slept, 50 * MS);
	KUNIT_EXPECT_LE(test, s.slept, 50 * MS + 300 * MS); /* a few ticks, under emulation */
	KUNIT_EXPECT_LE(test, s.runtime, 10 * MS);	    /* it did not spin */
	KUNIT_EXPECT_GE(test, init_task.sum_exec_runtime - idle_before, 30 * MS);
}

static DECLARE_WAIT_QUEUE_HEAD(event_wait);
static bool event;

static int wait_for_event(void *arg)
{
	(void)arg;
	wait_event(event_wait, event);
	return 1;
}

static void wake_up_ends_a_wait_event(struct kunit *test)
{
	struct task_struct *p = kthread_run(wait_for_event, NULL, "ktest-wait");

	KUNIT_ASSERT_NOT_NULL(test, p);
	event = false;
	/* Let it run to its sleep: a 20 ms sleep of ours gives it the CPU. */
	set_current_state(TASK_INTERRUPTIBLE);
	schedule_timeout_ns(20 * MS);
	KUNIT_EXPECT_EQ(test, p->__state, TASK_UNINTERRUPTIBLE);
	KUNIT_EXPECT_FALSE(test, p->on_rq);
	event = true;
	wake_up(&event_wait);
	KUNIT_EXPECT_EQ(test, kernel_wait(p), 1 << 8);
}

static int wait_for_nothing(void *arg)
{
	DECLARE_WAIT_QUEUE_HEAD(never);

	(void)arg;
	return wait_event_interruptible(never, false) == -ERESTARTSYS ? 2 : 0;
}

static void a_signal_ends_an_interruptible_sleep(struct kunit *test)
{
	struct task_struct *p = kthread_run(wait_for_nothing, NULL, "ktest-intr");

	KUNIT_ASSERT_NOT_NULL(test, p);
	set_current_state(TASK_INTERRUPTIBLE);
	schedule_timeout_ns(20 * MS);
	KUNIT_EXPECT_EQ(test, p->__state, TASK_INTERRUPTIBLE);
	send_signal(p, SIGUSR1, NULL);
	KUNIT_EXPECT_EQ(test, kernel_wait(p), 2 << 8);
}

static struct kunit_case sched_cases[] = {
	KUNIT_CASE(a_kernel_thread_exits_and_its_parent_reaps_it),
	KUNIT_CASE(two_spinning_threads_share_the_cpu),
	KUNIT_CASE(nice_5_gets_a_third_of_nice_0s_share),
	KUNIT_CASE(yielding_threads_alternate),
	KUNIT_CASE(a_sleep_lasts_its_time_and_leaves_the_cpu_idle),
	KUNIT_CASE(wake_up_ends_a_wait_event),
	KUNIT_CASE(a_signal_ends_an_interruptible_sleep),
	{},
};

static struct kunit_suite sched_suite = {
	.name = "sched",
	.test_cases = sched_cases,
};
kunit_test_suite(sched_suite);
