/*
 * The hrtimer queue on a private cpu_base with a fake clock: timers run
 * in expiry order whatever the order they were started in, a cancelled
 * one never runs, RESTART with hrtimer_forward makes a periodic timer,
 * REALTIME timers are due at their time minus the offset, and the clock
 * event device is told the earliest expiry each time it moves.
 */
#include <hrtimer.h>
#include <ktest.h>
#include <timekeeping.h>

static ktime_t fake_now, fake_offset;
static ktime_t programmed[16];
static int nr_programmed;
static int order[16], nr_run;

static ktime_t fake_mono(void)
{
	return fake_now;
}

static ktime_t fake_real_offset(void)
{
	return fake_offset;
}

static void record_program(ktime_t expires)
{
	if (nr_programmed < 16)
		programmed[nr_programmed++] = expires;
}

struct test_timer {
	struct hrtimer timer;
	int id;
	ktime_t interval; /* 0: one shot */
	int runs;
};

static enum hrtimer_restart test_timer_fn(struct hrtimer *timer)
{
	struct test_timer *t = container_of(timer, struct test_timer, timer);

	if (nr_run < 16)
		order[nr_run++] = t->id;
	t->runs++;
	if (!t->interval)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, t->interval);
	return HRTIMER_RESTART;
}

static void setup(struct hrtimer_cpu_base *cpu_base, struct test_timer *t, int n, int clock_id)
{
	fake_now = 0;
	fake_offset = 0;
	nr_programmed = nr_run = 0;
	hrtimer_cpu_base_init(cpu_base, fake_mono, fake_real_offset, record_program);
	for (int i = 0; i < n; i++) {
		t[i] = (struct test_timer){ .id = i };
		hrtimer_init_on(&t[i].timer, cpu_base, clock_id);
		t[i].timer.function = test_timer_fn;
	}
}

static void hrtimers_run_in_expiry_order_not_start_order(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[3];

	setup(&cpu_base, t, 3, CLOCK_MONOTONIC);
	hrtimer_start(&t[0].timer, 30, HRTIMER_MODE_ABS);
	hrtimer_start(&t[1].timer, 10, HRTIMER_MODE_ABS);
	hrtimer_start(&t[2].timer, 20, HRTIMER_MODE_ABS);
	/* The device follows the earliest: 30, then 10; 20 changes nothing. */
	KUNIT_EXPECT_EQ(test, nr_programmed, 2);
	KUNIT_EXPECT_EQ(test, programmed[0], 30);
	KUNIT_EXPECT_EQ(test, programmed[1], 10);
	fake_now = 25;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, nr_run, 2);
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, order[1], 2);
	KUNIT_EXPECT_EQ(test, cpu_base.expires_next, 30);
	KUNIT_EXPECT_FALSE(test, hrtimer_is_queued(&t[1].timer));
	KUNIT_EXPECT_TRUE(test, hrtimer_is_queued(&t[0].timer));
	fake_now = 30;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, nr_run, 3);
	KUNIT_EXPECT_EQ(test, cpu_base.expires_next, KTIME_MAX);
}

static void hrtimer_cancel_takes_a_timer_off_the_queue(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[2];

	setup(&cpu_base, t, 2, CLOCK_MONOTONIC);
	hrtimer_start(&t[0].timer, 10, HRTIMER_MODE_ABS);
	hrtimer_start(&t[1].timer, 20, HRTIMER_MODE_ABS);
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&t[0].timer), 1);
	KUNIT_EXPECT_EQ(test, hrtimer_try_to_cancel(&t[0].timer), 0);
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&t[0].timer), 0);
	fake_now = 50;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, nr_run, 1);
	KUNIT_EXPECT_EQ(test, order[0], 1);
	KUNIT_EXPECT_EQ(test, t[0].runs, 0);
}

static void hrtimer_start_moves_a_queued_timer(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[1];

	setup(&cpu_base, t, 1, CLOCK_MONOTONIC);
	fake_now = 100;
	hrtimer_start(&t[0].timer, 50, HRTIMER_MODE_REL);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 150);
	KUNIT_EXPECT_EQ(test, hrtimer_get_remaining(&t[0].timer), 50);
	hrtimer_start(&t[0].timer, 500, HRTIMER_MODE_ABS);
	fake_now = 200;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, t[0].runs, 0);
	fake_now = 500;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, t[0].runs, 1);
}

static void hrtimer_forward_counts_the_missed_periods(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[1];

	setup(&cpu_base, t, 1, CLOCK_MONOTONIC);
	hrtimer_set_expires(&t[0].timer, 10);
	/* expiry 10, interval 10, now 35: 10 → 40, three steps. */
	KUNIT_EXPECT_EQ(test, hrtimer_forward(&t[0].timer, 35, 10), 3);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 40);
	/* Not yet expired: nothing moves. */
	KUNIT_EXPECT_EQ(test, hrtimer_forward(&t[0].timer, 39, 10), 0);
	/* Exactly at the expiry: one step past now. */
	KUNIT_EXPECT_EQ(test, hrtimer_forward(&t[0].timer, 40, 10), 1);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 50);
	KUNIT_EXPECT_EQ(test, hrtimer_forward(&t[0].timer, 70, 10), 3);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 80);
}

static void hrtimer_restart_makes_a_periodic_timer(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[1];

	setup(&cpu_base, t, 1, CLOCK_MONOTONIC);
	t[0].interval = 10;
	hrtimer_start(&t[0].timer, 10, HRTIMER_MODE_ABS);
	for (fake_now = 10; fake_now <= 50; fake_now += 10)
		__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, t[0].runs, 5);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 60);
	KUNIT_EXPECT_EQ(test, cpu_base.expires_next, 60);
	/* A late interrupt runs it once and skips the missed periods. */
	fake_now = 95;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, t[0].runs, 6);
	KUNIT_EXPECT_EQ(test, hrtimer_get_expires(&t[0].timer), 100);
	KUNIT_EXPECT_EQ(test, hrtimer_cancel(&t[0].timer), 1);
}

static void realtime_timers_are_due_at_their_time_minus_the_offset(struct kunit *test)
{
	struct hrtimer_cpu_base cpu_base;
	struct test_timer t[2];

	setup(&cpu_base, t, 1, CLOCK_REALTIME);
	t[1] = (struct test_timer){ .id = 1 };
	hrtimer_init_on(&t[1].timer, &cpu_base, CLOCK_MONOTONIC);
	t[1].timer.function = test_timer_fn;
	fake_offset = 1000;
	hrtimer_start(&t[0].timer, 1020, HRTIMER_MODE_ABS); /* MONOTONIC 20 */
	hrtimer_start(&t[1].timer, 30, HRTIMER_MODE_ABS);
	KUNIT_EXPECT_EQ(test, cpu_base.expires_next, 20);
	KUNIT_EXPECT_EQ(test, hrtimer_cb_get_time(&t[0].timer), 1000);
	fake_now = 25;
	__hrtimer_run_queues(&cpu_base);
	KUNIT_EXPECT_EQ(test, nr_run, 1);
	KUNIT_EXPECT_EQ(test, order[0], 0);
	KUNIT_EXPECT_EQ(test, cpu_base.expires_next, 30);
	hrtimer_cancel(&t[1].timer);
}

static struct kunit_case hrtimer_cases[] = {
	KUNIT_CASE(hrtimers_run_in_expiry_order_not_start_order),
	KUNIT_CASE(hrtimer_cancel_takes_a_timer_off_the_queue),
	KUNIT_CASE(hrtimer_start_moves_a_queued_timer),
	KUNIT_CASE(hrtimer_forward_counts_the_missed_periods),
	KUNIT_CASE(hrtimer_restart_makes_a_periodic_timer),
	KUNIT_CASE(realtime_timers_are_due_at_their_time_minus_the_offset),
	{},
};

static struct kunit_suite hrtimer_suite = {
	.name = "hrtimer",
	.test_cases = hrtimer_cases,
};
kunit_test_suite(hrtimer_suite);
