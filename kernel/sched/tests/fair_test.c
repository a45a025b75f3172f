/*
 * kernel/sched/fair.c (EEVDF) on a private cfs_rq and a virtual clock:
 * the weight tables, the fixed-point scaling, CPU shares by weight over
 * 10 s of simulated time, a sleeper's lag kept but never more, a nice
 * change, wakeup preemption. After every pick a brute-force scan over the
 * entities checks that the pick is eligible with the earliest eligible
 * deadline, that avg_vruntime() is the exact weighted average, and that
 * the run queue's sums match its entities.
 */
#include <kernel.h>
#include <ktest.h>
#include <timekeeping.h>
#include "../sched.h"

#define MSEC 1000000ull
#define SEC (1000 * MSEC)
#define MAX_SE 24

struct sim {
	struct cfs_rq cfs;
	struct sched_entity se[MAX_SE];
	int nr;
	uint64_t now;
	bool hrtick; /* run to the end of the slice, not only to the tick */
	uint64_t tick;
	unsigned long picks, steps;
	const char *why; /* the first broken invariant */
	unsigned long why_pick;
};

static struct sim sim;

static int64_t vsub(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static void sim_fail(struct sim *s, const char *why)
{
	if (!s->why) {
		s->why = why;
		s->why_pick = s->picks;
	}
}

/* nr entities with these nice values, all enqueued at time 0 as new. */
static struct sim *sim_start(int nr, const int *nice, uint64_t tick, bool hrtick)
{
	struct sim *s = &sim;

	*s = (struct sim){ .nr = nr, .tick = tick, .hrtick = hrtick };
	init_cfs_rq(&s->cfs);
	for (int i = 0; i < nr; i++) {
		sched_entity_init(&s->se[i], nice[i]);
		enqueue_entity(&s->cfs, &s->se[i], ENQUEUE_INITIAL, s->now);
	}
	return s;
}

/* Brute force: V = floor(\Sum w_i v_i / \Sum w_i) over the on_rq
 * entities, relative to the first one (vruntimes wrap); summed in 128
 * bits, divided in 64 (the kernel has no 128-bit division). */
static bool brute_avg(struct sim *s, uint64_t *avg)
{
	__int128 num = 0;
	int64_t total = 0, q;
	uint64_t base = 0;

	for (int i = 0; i < s->nr; i++) {
		struct sched_entity *se = &s->se[i];

		if (!se->on_rq)
			continue;
		if (!total)
			base = se->vruntime;
		num += (__int128)vsub(se->vruntime, base) * (int64_t)se->load.weight;
		total += (int64_t)se->load.weight;
	}
	if (!total || num != (int64_t)num) {
		sim_fail(s, "the brute-force average has no entity or needs 128 bits");
		return false;
	}
	q = (int64_t)num / total;
	if ((int64_t)num % total && num < 0)
		q--;
	*avg = base + (uint64_t)q;
	return true;
}

/* Brute force: lag >= 0 at vruntime, \Sum w_j * (v_j - vruntime) >= 0. */
static bool brute_eligible(struct sim *s, uint64_t vruntime)
{
	__int128 sum = 0;

	for (int i = 0; i < s->nr; i++)
		if (s->se[i].on_rq)
			sum += (__int128)vsub(s->se[i].vruntime, vruntime) *
			       (int64_t)s->se[i].load.weight;
	return sum >= 0;
}

/* se's subtree values recomputed from itself and its children. */
static void check_augmented(struct sim *s, struct sched_entity *se)
{
	struct rb_node *kids[2] = { se->run_node.rb_left, se->run_node.rb_right };
	uint64_t min_v = se->vruntime, min_slice = se->slice, max_slice = se->slice;

	for (int i = 0; i < 2; i++) {
		struct sched_entity *kid = rb_entry_safe(kids[i], struct sched_entity, run_node);

		if (!kid)
			continue;
		if (vsub(kid->min_vruntime, min_v) < 0)
			min_v = kid->min_vruntime;
		min_slice = MIN(min_slice, kid->min_slice);
		max_slice = MAX(max_slice, kid->max_slice);
	}
	if (se->min_vruntime != min_v || se->min_slice != min_slice || se->max_slice != max_slice)
		sim_fail(s, "a subtree's min_vruntime, min_slice or max_slice is stale");
}

/* The run queue's counters and sums against its entities: the tree
 * holds exactly the on_rq entities but curr, in deadline order. */
static void check_rq(struct sim *s)
{
	struct sched_entity *curr = s->cfs.curr, *prev = NULL;
	unsigned long load = 0, tree_weight = 0;
	unsigned int nr = 0, in_tree = 0;

	for (int i = 0; i < s->nr; i++) {
		if (s->se[i].on_rq) {
			nr++;
			load += s->se[i].load.weight;
		}
	}
	for (struct rb_node *n = rb_first_cached(&s->cfs.tasks_timeline); n; n = rb_next(n)) {
		struct sched_entity *se = rb_entry(n, struct sched_entity, run_node);

		if (!se->on_rq || se == curr)
			sim_fail(s, "the tree holds curr or an entity off the rq");
		if (prev && vsub(se->deadline, prev->deadline) < 0)
			sim_fail(s, "the tree is not in deadline order");
		tree_weight += se->load.weight;
		in_tree++;
		prev = se;
		check_augmented(s, se);
	}
	if (in_tree + (curr && curr->on_rq) != nr)
		sim_fail(s, "an on_rq entity is missing from the tree");
	if (nr != s->cfs.nr_queued || load != s->cfs.load.weight)
		sim_fail(s, "nr_queued or load differs from the on_rq entities");
	if (tree_weight != s->cfs.sum_weight)
		sim_fail(s, "sum_weight differs from the weights in the tree");
}

/* After a pick with no curr: the pick is what a scan of all entities
 * finds, and V is the exact weighted average. */
static void check_pick(struct sim *s, struct sched_entity *picked)
{
	struct sched_entity *best = NULL;
	uint64_t avg;

	check_rq(s);
	for (int i = 0; i < s->nr; i++) {
		struct sched_entity *se = &s->se[i];

		if (se->on_rq && brute_eligible(s, se->vruntime) &&
		    (!best || vsub(se->deadline, best->deadline) < 0))
			best = se;
	}
	if (!picked || !best) {
		if (picked != best)
			sim_fail(s, "pick_eevdf and the scan disagree on whether any is eligible");
		return;
	}
	if (!brute_eligible(s, picked->vruntime))
		sim_fail(s, "picked an entity that is not eligible");
	else if (picked->deadline != best->deadline)
		sim_fail(s, "an eligible entity with an earlier deadline was passed over");
	if (!brute_avg(s, &avg) || avg_vruntime(&s->cfs) != avg)
		sim_fail(s, "avg_vruntime differs from the brute-force weighted average");
	if (entity_eligible(&s->cfs, picked) != brute_eligible(s, picked->vruntime))
		sim_fail(s, "entity_eligible differs from the brute-force test");
}

/* Pick and switch to the next entity. Return: it, or NULL if idle. */
static struct sched_entity *sim_switch(struct sim *s)
{
	struct sched_entity *next;

	if (!s->cfs.next)
		check_pick(s, pick_eevdf(&s->cfs, false));
	next = pick_next_entity(&s->cfs);
	if (next)
		set_next_entity(&s->cfs, next, s->now);
	s->picks++;
	return next;
}

/* Real time until curr's vruntime reaches its deadline (rounded up). */
static uint64_t time_to_deadline(struct sched_entity *curr)
{
	int64_t vleft = vsub(curr->deadline, curr->vruntime);

	if (vleft <= 0)
		return 1;
	return ((uint64_t)vleft * curr->load.weight + NICE_0_LOAD - 1) / NICE_0_LOAD;
}

/* One stretch of running: from now to the next tick (or the end of the
 * slice with hrtick, or end), then the tick, then a switch if it asks. */
static void sim_step(struct sim *s, uint64_t end)
{
	struct sched_entity *curr = s->cfs.curr;
	uint64_t run;

	if (++s->steps > 4000000) {
		sim_fail(s, "no progress: 4 million steps of running");
		s->now = end;
		return;
	}
	if (!curr && !(curr = sim_switch(s))) {
		s->now = end; /* idle */
		return;
	}
	run = s->hrtick ? MIN(s->tick, time_to_deadline(curr)) : s->tick;
	s->now += MIN(run, end - s->now);
	if (entity_tick(&s->cfs, curr, s->now)) {
		put_prev_entity(&s->cfs, curr, s->now);
		sim_switch(s);
	}
}

static void sim_run(struct sim *s, uint64_t duration)
{
	uint64_t end = s->now + duration;

	while (s->now < end && !s->why)
		sim_step(s, end);
}

static void expect_no_broken_invariant(struct kunit *test, struct sim *s)
{
	if (s->why)
		kunit_fail(test, __FILE__, __LINE__, "pick %lu: %s", s->why_pick, s->why);
	KUNIT_EXPECT_GT(test, s->picks, 100);
}

/* Return: how far ran is from ideal, in hundredths of a percent of
 * ideal (huge when ideal is 0 and ran is not). */
static int64_t off_by_x100(uint64_t ran, uint64_t ideal)
{
	if (!ideal)
		return ran ? INT64_MAX / 2 : 0;
	return ((int64_t)ran - (int64_t)ideal) * 10000 / (int64_t)ideal;
}

static void weights_are_linux_tables(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sched_nice_to_load(-20).weight, 88761);
	KUNIT_EXPECT_EQ(test, sched_nice_to_load(0).weight, 1024);
	KUNIT_EXPECT_EQ(test, sched_nice_to_load(5).weight, 335);
	KUNIT_EXPECT_EQ(test, sched_nice_to_load(19).weight, 15);
	KUNIT_EXPECT_EQ(test, NICE_0_LOAD, 1024);
	for (int i = 0; i < NICE_WIDTH; i++) {
		int64_t w = sched_prio_to_weight[i], inv = sched_prio_to_wmult[i];
		int64_t err = w * inv - (1ll << 32);

		/* each inverse is 2^32 / weight to within one */
		KUNIT_EXPECT_LT(test, err < 0 ? -err : err, w);
		/* one nice step is ~1.25x the weight */
		if (i + 1 < NICE_WIDTH) {
			KUNIT_EXPECT_GE(test, w * 100 / sched_prio_to_weight[i + 1], 118);
			KUNIT_EXPECT_LE(test, w * 100 / sched_prio_to_weight[i + 1], 132);
		}
	}
}

/* calc_delta_fair's 32.32 fixed point against the exact quotient, for
 * every nice level and for an inverse computed on the fly. */
static void calc_delta_fair_scales_by_nice0_over_weight(struct kunit *test)
{
	static const uint64_t deltas[] = { 1, 1000, 700000, 4 * MSEC, 10 * SEC };
	struct sched_entity se;

	for (int nice = MIN_NICE; nice <= MAX_NICE; nice++) {
		for (int d = 0; d < (int)ARRAY_SIZE(deltas); d++) {
			uint64_t exact, got;

			sched_entity_init(&se, nice);
			exact = deltas[d] * NICE_0_LOAD / se.load.weight;
			got = calc_delta_fair(deltas[d], &se);
			KUNIT_EXPECT_LE(test, got > exact ? got - exact : exact - got,
					exact / 20000 + 1);
			se.load.inv_weight = 0; /* as after update_load_set() */
			got = calc_delta_fair(deltas[d], &se);
			KUNIT_EXPECT_LE(test, got > exact ? got - exact : exact - got,
					exact / 20000 + 1);
		}
	}
	sched_entity_init(&se, 0);
	KUNIT_EXPECT_EQ(test, calc_delta_fair(123456789, &se), 123456789);
}

/* A new entity starts at V with half a request; each served request is
 * renewed with slice * 1024 / weight of virtual time, and (run to the end
 * of the slice) takes exactly one slice of real time, whatever the weight. */
static void deadline_is_slice_scaled_by_weight(struct kunit *test)
{
	static const int nice[] = { 0, 5 };
	struct sim *s = sim_start(2, nice, 4 * MSEC, true);
	struct sched_entity *light = &s->se[1];
	int64_t vslice = (int64_t)sysctl_sched_base_slice * 1024 / 335;
	int64_t slice = sysctl_sched_base_slice;
	int renewed = 0, served = 0;

	KUNIT_EXPECT_EQ(test, slice, 700000);
	KUNIT_EXPECT_LE(test, vsub(light->deadline, light->vruntime) - vslice / 2, 2);
	KUNIT_EXPECT_GE(test, vsub(light->deadline, light->vruntime) - vslice / 2, -2);
	for (int step = 0; step < 400; step++) {
		struct sched_entity *was = s->cfs.curr;
		uint64_t deadline = light->deadline;

		sim_step(s, ~0ull);
		if (light->deadline != deadline) {
			KUNIT_EXPECT_LE(test, vsub(light->deadline, light->vruntime) - vslice, 2);
			KUNIT_EXPECT_GE(test, vsub(light->deadline, light->vruntime) - vslice, -2);
			renewed++;
		}
		if (was == light && s->cfs.curr != light && served++) {
			int64_t ran =
				(int64_t)(light->sum_exec_runtime - light->prev_sum_exec_runtime);

			KUNIT_EXPECT_LE(test, ran - slice, 2);
			KUNIT_EXPECT_GE(test, ran - slice, -2);
		}
	}
	KUNIT_EXPECT_GT(test, renewed, 20);
	KUNIT_EXPECT_GT(test, served, 20);
	expect_no_broken_invariant(test, s);
}

static void two_nice0_entities_share_evenly(struct kunit *test)
{
	static const int nice[] = { 0, 0 };

	for (int hrtick = 0; hrtick < 2; hrtick++) {
		struct sim *s = sim_start(2, nice, 4 * MSEC, hrtick);

		sim_run(s, 10 * SEC);
		expect_no_broken_invariant(test, s);
		KUNIT_EXPECT_EQ(test, s->se[0].sum_exec_runtime + s->se[1].sum_exec_runtime,
				10 * SEC);
		for (int i = 0; i < 2; i++) {
			KUNIT_EXPECT_LE(test, off_by_x100(s->se[i].sum_exec_runtime, 5 * SEC), 100);
			KUNIT_EXPECT_GE(test, off_by_x100(s->se[i].sum_exec_runtime, 5 * SEC),
					-100);
		}
	}
}

static void nice0_and_nice5_share_1024_to_335(struct kunit *test)
{
	static const int nice[] = { 0, 5 };

	for (int hrtick = 0; hrtick < 2; hrtick++) {
		struct sim *s = sim_start(2, nice, 4 * MSEC, hrtick);
		uint64_t ran0, ran1;

		sim_run(s, 10 * SEC);
		expect_no_broken_invariant(test, s);
		ran0 = s->se[0].sum_exec_runtime;
		ran1 = s->se[1].sum_exec_runtime;
		/* ran0 / ran1 = 1024 / 335 within 2% */
		KUNIT_EXPECT_LE(test, off_by_x100(ran0 * 335, ran1 * 1024), 200);
		KUNIT_EXPECT_GE(test, off_by_x100(ran0 * 335, ran1 * 1024), -200);
	}
}

/* Weights 1024, 335 and 88761: each gets its share to within the lag
 * EEVDF allows (every other entity may be a slice and a quantum ahead),
 * and run to the end of their slices the two light ones share 1024:335. */
static void three_weights_get_their_shares(struct kunit *test)
{
	static const int nice[] = { 0, 5, -20 };
	static const uint64_t w[] = { 1024, 335, 88761 };

	for (int hrtick = 0; hrtick < 2; hrtick++) {
		struct sim *s = sim_start(3, nice, 4 * MSEC, hrtick);
		uint64_t quantum = hrtick ? sysctl_sched_base_slice : 4 * MSEC;
		int64_t bound = 2 * (int64_t)(quantum + sysctl_sched_base_slice);
		uint64_t ran0 = s->se[0].sum_exec_runtime, ran1 = s->se[1].sum_exec_runtime;

		sim_run(s, 10 * SEC);
		expect_no_broken_invariant(test, s);
		for (int i = 0; i < 3; i++) {
			uint64_t ideal = 10 * SEC * w[i] / (w[0] + w[1] + w[2]);
			int64_t off = (int64_t)(s->se[i].sum_exec_runtime - ideal);

			KUNIT_EXPECT_LE(test, off < 0 ? -off : off, bound);
		}
		ran0 = s->se[0].sum_exec_runtime;
		ran1 = s->se[1].sum_exec_runtime;
		if (hrtick) {
			KUNIT_EXPECT_LE(test, off_by_x100(ran0 * 335, ran1 * 1024), 200);
			KUNIT_EXPECT_GE(test, off_by_x100(ran0 * 335, ran1 * 1024), -200);
		}
	}
}

/* curr blocks: it leaves the rq (its lag saved) and is switched away. */
static void sim_block_curr(struct sim *s)
{
	struct sched_entity *curr = s->cfs.curr;

	dequeue_entity(&s->cfs, curr, DEQUEUE_SLEEP, s->now);
	put_prev_entity(&s->cfs, curr, s->now);
	sim_switch(s);
}

/* se wakes: enqueued, and run at once if it preempts curr. */
static void sim_wake(struct sim *s, struct sched_entity *se)
{
	enqueue_entity(&s->cfs, se, ENQUEUE_WAKEUP, s->now);
	if (check_preempt_wakeup_fair(&s->cfs, se, s->now)) {
		if (s->cfs.curr)
			put_prev_entity(&s->cfs, s->cfs.curr, s->now);
		sim_switch(s);
	}
}

/* Run until se is curr. Return: the time that took. */
static uint64_t sim_run_until_curr(struct sim *s, struct sched_entity *se)
{
	uint64_t start = s->now;

	while (s->cfs.curr != se && !s->why && s->now - start < SEC)
		sim_step(s, ~0ull);
	return s->now - start;
}

/* The largest |vlag| entity_lag allows se when no slice on the rq is
 * longer than max_slice: that slice plus a tick, in se's virtual time. */
static int64_t lag_limit(struct sched_entity *se, uint64_t max_slice)
{
	return (int64_t)calc_delta_fair(max_slice + TICK_NSEC, se);
}

/*
 * An interactive entity: runs 0.1 ms, sleeps 5-40 ms, 200 times, beside
 * two CPU hogs. Each time it wakes it is placed with exactly the lag it
 * blocked with (V' - v' == vlag, to rounding), it waits no more than
 * what its lag and two slices explain, and it gets all the CPU it asks.
 */
static void sleeper_wakes_with_the_lag_it_left_with(struct kunit *test)
{
	static const int nice[] = { 0, 0, 0 };
	struct sim *s = sim_start(3, nice, 4 * MSEC, true);
	struct sched_entity *sleeper = &s->se[2];
	int positive = 0;

	sim_run(s, SEC);
	for (int cycle = 0; cycle < 200 && !s->why; cycle++) {
		int64_t saved, wait_bound;
		uint64_t waited, ran;

		sim_run_until_curr(s, sleeper);
		sim_run(s, MSEC / 10);
		if (s->cfs.curr != sleeper)
			continue; /* preempted within its 0.1 ms: try again */
		sim_block_curr(s);
		saved = sleeper->vlag;
		KUNIT_EXPECT_LE(test, saved < 0 ? -saved : saved,
				lag_limit(sleeper, sysctl_sched_base_slice));
		positive += saved > 0;
		sim_run(s, (5 + (uint64_t)cycle % 36) * MSEC);
		ran = sleeper->sum_exec_runtime;
		enqueue_entity(&s->cfs, sleeper, ENQUEUE_WAKEUP, s->now);
		KUNIT_EXPECT_LE(test, vsub(avg_vruntime(&s->cfs), sleeper->vruntime) - saved, 2);
		KUNIT_EXPECT_GE(test, vsub(avg_vruntime(&s->cfs), sleeper->vruntime) - saved, -2);
		if (check_preempt_wakeup_fair(&s->cfs, sleeper, s->now)) {
			put_prev_entity(&s->cfs, s->cfs.curr, s->now);
			sim_switch(s);
		}
		/* owed time: within two slices; owing: until V passes it (V
		 * moves at a third of real time with three equal weights) */
		waited = sim_run_until_curr(s, sleeper);
		wait_bound = 2 * (int64_t)sysctl_sched_base_slice + (saved < 0 ? -3 * saved : 0);
		KUNIT_EXPECT_LE(test, (int64_t)waited, wait_bound);
		KUNIT_EXPECT_EQ(test, sleeper->sum_exec_runtime, ran);
	}
	KUNIT_EXPECT_GT(test, positive, 10);
	expect_no_broken_invariant(test, s);
}

/* A sleep of 2 s is no credit: after waking, over the next 300 ms the
 * sleeper gets its third plus at most the lag it left with (and a slice
 * of rounding), and no less than its third minus its debt. */
static void long_sleep_earns_no_more_than_the_saved_lag(struct kunit *test)
{
	static const int nice[] = { 0, 0, 0 };

	for (int run_before = 1; run_before <= 7; run_before += 2) {
		struct sim *s = sim_start(3, nice, 4 * MSEC, true);
		struct sched_entity *sleeper = &s->se[2];
		int64_t saved, got, share = 100 * (int64_t)MSEC;
		int64_t slice = sysctl_sched_base_slice;

		sim_run(s, SEC);
		sim_run_until_curr(s, sleeper);
		sim_run(s, (uint64_t)run_before * MSEC / 10);
		if (s->cfs.curr != sleeper)
			continue;
		sim_block_curr(s);
		saved = sleeper->vlag;
		sim_run(s, 2 * SEC);
		got = -(int64_t)sleeper->sum_exec_runtime;
		sim_wake(s, sleeper);
		sim_run(s, 300 * MSEC);
		got += (int64_t)sleeper->sum_exec_runtime;
		KUNIT_EXPECT_LE(test, got, share + (saved > 0 ? saved : 0) + slice);
		KUNIT_EXPECT_GE(test, got, share + (saved < 0 ? saved : 0) - slice);
		expect_no_broken_invariant(test, s);
	}
}

/* Two nice-0 entities; one runs 100 ms past its slice (a late tick):
 * it would leave with lag -50 ms, the other with +50 ms; each is saved
 * clamped to a slice plus a tick, so no debt or credit is carried past
 * EEVDF's bound. */
static void lag_is_clamped_to_a_slice_and_a_tick(struct kunit *test)
{
	static const int nice[] = { 0, 0 };

	for (int leaver_ran = 0; leaver_ran < 2; leaver_ran++) {
		struct sim *s = sim_start(2, nice, 100 * MSEC, false);
		struct sched_entity *ran = sim_switch(s), *waited, *leaver;
		int64_t limit = lag_limit(ran, sysctl_sched_base_slice);

		waited = ran == &s->se[0] ? &s->se[1] : &s->se[0];
		leaver = leaver_ran ? ran : waited;
		s->now += 100 * MSEC;
		update_curr(&s->cfs, s->now);
		KUNIT_EXPECT_LT(test, vsub(avg_vruntime(&s->cfs), ran->vruntime), -limit);
		KUNIT_EXPECT_GT(test, vsub(avg_vruntime(&s->cfs), waited->vruntime), limit);
		dequeue_entity(&s->cfs, leaver, DEQUEUE_SLEEP, s->now);
		KUNIT_EXPECT_EQ(test, leaver->vlag, leaver_ran ? -limit : limit);
	}
}

/* A requeue that is no sleep (a move to another CPU, a setattr of the
 * running task) keeps the request where it stopped; a sleep starts a
 * new one. */
static void requeue_keeps_the_request_and_sleep_renews_it(struct kunit *test)
{
	static const int nice[] = { 0, 0, 0 };
	struct sim *s = sim_start(3, nice, 4 * MSEC, true);
	struct sched_entity *se;
	int64_t request, vslice = (int64_t)sysctl_sched_base_slice;

	sim_run(s, 100 * MSEC + MSEC / 3);
	se = s->cfs.curr;
	update_curr(&s->cfs, s->now);
	request = vsub(se->deadline, se->vruntime);
	KUNIT_ASSERT_LT(test, request, vslice);
	dequeue_entity(&s->cfs, se, 0, s->now);
	put_prev_entity(&s->cfs, se, s->now);
	sim_switch(s);
	KUNIT_EXPECT_TRUE(test, se->rel_deadline);
	sim_run(s, 10 * MSEC);
	enqueue_entity(&s->cfs, se, 0, s->now);
	KUNIT_EXPECT_EQ(test, vsub(se->deadline, se->vruntime), request);
	KUNIT_EXPECT_FALSE(test, se->rel_deadline);
	sim_run_until_curr(s, se);
	sim_run(s, MSEC / 10);
	KUNIT_ASSERT_TRUE(test, s->cfs.curr == se);
	sim_block_curr(s);
	sim_run(s, 10 * MSEC);
	enqueue_entity(&s->cfs, se, ENQUEUE_WAKEUP, s->now);
	KUNIT_EXPECT_EQ(test, vsub(se->deadline, se->vruntime), vslice);
	sim_run(s, 100 * MSEC);
	expect_no_broken_invariant(test, s);
}

/* A nice change of a queued entity keeps V and keeps its lag in real
 * time (w * vlag); afterwards the CPU splits by the new weights. */
static void renice_keeps_lag_in_real_time_and_changes_the_share(struct kunit *test)
{
	static const int nice[] = { 0, 0 };
	struct load_weight nice5 = sched_nice_to_load(5);

	for (int renice_curr = 0; renice_curr < 2; renice_curr++) {
		struct sim *s = sim_start(2, nice, 4 * MSEC, true);
		struct sched_entity *se = &s->se[1];
		uint64_t before, ran0, ran1;
		int64_t lag_before, lag_after;

		sim_run(s, SEC + MSEC / 3);
		if ((s->cfs.curr == se) != renice_curr)
			sim_run_until_curr(s, renice_curr ? se : &s->se[0]);
		sim_run(s, MSEC / 5);
		update_curr(&s->cfs, s->now);
		before = avg_vruntime(&s->cfs);
		lag_before = vsub(before, se->vruntime) * 1024;
		reweight_entity(&s->cfs, se, &nice5, s->now);
		KUNIT_EXPECT_EQ(test, se->load.weight, 335);
		KUNIT_EXPECT_EQ(test, s->cfs.load.weight, 1024 + 335);
		KUNIT_EXPECT_LE(test, vsub(avg_vruntime(&s->cfs), before), 1);
		KUNIT_EXPECT_GE(test, vsub(avg_vruntime(&s->cfs), before), -1);
		lag_after = vsub(avg_vruntime(&s->cfs), se->vruntime) * 335;
		KUNIT_EXPECT_LE(test, lag_after - lag_before, 1024 * 2);
		KUNIT_EXPECT_GE(test, lag_after - lag_before, -1024 * 2);
		ran0 = s->se[0].sum_exec_runtime;
		ran1 = se->sum_exec_runtime;
		sim_run(s, 10 * SEC);
		ran0 = s->se[0].sum_exec_runtime - ran0;
		ran1 = se->sum_exec_runtime - ran1;
		KUNIT_EXPECT_LE(test, off_by_x100(ran0 * 335, ran1 * 1024), 200);
		KUNIT_EXPECT_GE(test, off_by_x100(ran0 * 335, ran1 * 1024), -200);
		expect_no_broken_invariant(test, s);
	}
}

/* Two entities and a third asleep with a lag we choose; A runs. */
static struct sim *preempt_setup(int64_t sleeper_vlag, uint64_t sleeper_slice)
{
	static const int nice[] = { 0, 0 };
	struct sim *s = sim_start(2, nice, 4 * MSEC, true);
	struct sched_entity *sleeper = &s->se[2];

	sim_run(s, 100 * MSEC + MSEC / 7);
	s->nr = 3;
	sched_entity_init(sleeper, 0);
	sleeper->vlag = sleeper_vlag;
	if (sleeper_slice) {
		sleeper->slice = sleeper_slice;
		sleeper->custom_slice = 1;
	}
	return s;
}

/*
 * Wakeup preemption (check_preempt_wakeup_fair): a wakee owed time is
 * placed before V with an early deadline and preempts a curr that ran
 * ahead; one that owes time does not; a shorter slice preempts even a
 * protected curr and is picked next; with no curr, any wakee runs.
 */
static void wakeup_preempts_for_the_earliest_eligible_deadline(struct kunit *test)
{
	struct sim *s;
	struct sched_entity *curr, *wakee;

	s = preempt_setup(2 * (int64_t)MSEC, 0);
	wakee = &s->se[2];
	curr = s->cfs.curr;
	enqueue_entity(&s->cfs, wakee, ENQUEUE_WAKEUP, s->now);
	KUNIT_EXPECT_TRUE(test, entity_eligible(&s->cfs, wakee));
	KUNIT_EXPECT_FALSE(test,
			   entity_eligible(&s->cfs, curr) && !entity_eligible(&s->cfs, wakee));
	KUNIT_EXPECT_TRUE(test, pick_eevdf(&s->cfs, false) == wakee);
	KUNIT_EXPECT_TRUE(test, check_preempt_wakeup_fair(&s->cfs, wakee, s->now));

	s = preempt_setup(-2 * (int64_t)MSEC, 0);
	wakee = &s->se[2];
	enqueue_entity(&s->cfs, wakee, ENQUEUE_WAKEUP, s->now);
	KUNIT_EXPECT_FALSE(test, entity_eligible(&s->cfs, wakee));
	KUNIT_EXPECT_FALSE(test, check_preempt_wakeup_fair(&s->cfs, wakee, s->now));
	expect_no_broken_invariant(test, s);

	/* curr just picked: protected for its slice against an equal one,
	 * not against a wakee with a shorter slice */
	for (int shorter = 0; shorter < 2; shorter++) {
		s = preempt_setup(0, shorter ? MSEC / 10 : 0);
		wakee = &s->se[2];
		curr = s->cfs.curr;
		put_prev_entity(&s->cfs, curr, s->now);
		curr = sim_switch(s);
		s->now += 1000;
		enqueue_entity(&s->cfs, wakee, ENQUEUE_WAKEUP, s->now);
		KUNIT_EXPECT_EQ(test, check_preempt_wakeup_fair(&s->cfs, wakee, s->now), shorter);
		if (shorter) {
			put_prev_entity(&s->cfs, curr, s->now);
			KUNIT_EXPECT_TRUE(test, pick_next_entity(&s->cfs) == wakee);
		}
	}

	/* eligible with a shorter slice but not the earliest deadline (a new
	 * entity, half a slice): it preempts, and as the next buddy runs
	 * before the earlier deadline */
	s = preempt_setup(0, 6 * MSEC / 10);
	wakee = &s->se[2];
	curr = s->cfs.curr;
	put_prev_entity(&s->cfs, curr, s->now);
	curr = sim_switch(s);
	s->nr = 4;
	sched_entity_init(&s->se[3], 0);
	enqueue_entity(&s->cfs, &s->se[3], ENQUEUE_INITIAL, s->now);
	enqueue_entity(&s->cfs, wakee, ENQUEUE_WAKEUP, s->now);
	KUNIT_EXPECT_TRUE(test, check_preempt_wakeup_fair(&s->cfs, wakee, s->now));
	put_prev_entity(&s->cfs, curr, s->now);
	KUNIT_EXPECT_TRUE(test, pick_eevdf(&s->cfs, false) == &s->se[3]);
	KUNIT_EXPECT_TRUE(test, pick_next_entity(&s->cfs) == wakee);

	s = preempt_setup(0, 0);
	put_prev_entity(&s->cfs, s->cfs.curr, s->now);
	enqueue_entity(&s->cfs, &s->se[2], ENQUEUE_WAKEUP, s->now);
	KUNIT_EXPECT_TRUE(test, check_preempt_wakeup_fair(&s->cfs, &s->se[2], s->now));
}

/* The tick asks for a switch when curr's request is served, not before;
 * never when it runs alone. */
static void tick_reschedules_when_the_slice_is_used_up(struct kunit *test)
{
	static const int nice[] = { 0, 0 };
	struct sim *s = sim_start(2, nice, 4 * MSEC, false);
	struct sched_entity *curr = sim_switch(s);
	uint64_t left = time_to_deadline(curr), ran;

	KUNIT_EXPECT_FALSE(test, entity_tick(&s->cfs, curr, s->now + left - 1000));
	KUNIT_EXPECT_TRUE(test, entity_tick(&s->cfs, curr, s->now + left));
	s->now += left;
	put_prev_entity(&s->cfs, curr, s->now);
	curr = sim_switch(s);
	ran = curr->sum_exec_runtime;
	dequeue_entity(&s->cfs, curr == &s->se[0] ? &s->se[1] : &s->se[0], DEQUEUE_SLEEP, s->now);
	for (int i = 1; i <= 10; i++)
		KUNIT_EXPECT_FALSE(test, entity_tick(&s->cfs, curr, s->now + i * 4 * MSEC));
	KUNIT_EXPECT_EQ(test, curr->sum_exec_runtime, ran + 40 * MSEC);
}

static uint64_t rng_state;

static unsigned int rng(unsigned int bound)
{
	rng_state ^= rng_state << 13; /* xorshift64 */
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned int)(rng_state % bound);
}

#define RANDOM_MAX_SLICE (3 * MSEC)

/* se wakes (if asleep); the preemption answer is checked against
 * pick_eevdf() for a wakee whose slice is not shorter than curr's. */
static void random_wake(struct sim *s, struct sched_entity *se)
{
	bool want, got;

	if (se->on_rq)
		return;
	update_curr(&s->cfs, s->now);
	enqueue_entity(&s->cfs, se, ENQUEUE_WAKEUP, s->now);
	want = pick_eevdf(&s->cfs, true) == se;
	got = check_preempt_wakeup_fair(&s->cfs, se, s->now);
	if (s->cfs.curr && se->slice >= s->cfs.curr->slice && got != want)
		sim_fail(s, "wakeup preemption is not pick_eevdf() == wakee");
	if (got) {
		if (s->cfs.curr)
			put_prev_entity(&s->cfs, s->cfs.curr, s->now);
		sim_switch(s);
	}
}

/* One random operation on a random entity. */
static void random_step(struct sim *s)
{
	struct sched_entity *se = &s->se[rng((unsigned int)s->nr)];
	struct load_weight lw = sched_nice_to_load((int)rng(NICE_WIDTH) + MIN_NICE);

	switch (rng(7)) {
	case 0:
		if (s->cfs.curr && s->cfs.curr->on_rq && s->cfs.nr_queued > 1)
			sim_block_curr(s);
		break;
	case 1:
		random_wake(s, se);
		break;
	case 2:
		reweight_entity(&s->cfs, se, &lw, s->now);
		break;
	case 4: /* a dequeue that is no sleep (a move, a setattr) and back */
		if (se->on_rq && se != s->cfs.curr && s->cfs.nr_queued > 1) {
			int64_t request = vsub(se->deadline, se->vruntime);

			dequeue_entity(&s->cfs, se, 0, s->now);
			enqueue_entity(&s->cfs, se, 0, s->now);
			if (vsub(se->deadline, se->vruntime) != request)
				sim_fail(s, "a requeue did not keep the request where it was");
		}
		break;
	case 3: /* sched_setattr's runtime: set while off the rq */
		if (se->on_rq)
			break;
		se->custom_slice = (unsigned char)rng(2);
		if (se->custom_slice)
			se->slice = 100000 + rng(RANDOM_MAX_SLICE - 100000);
		break;
	default:
		s->tick = 100000 + rng(4 * MSEC);
		sim_step(s, ~0ull);
	}
}

/* Every eligibility answer and lag against brute force, and the
 * preemption answer against pick_eevdf, after one random step. */
static void check_everything(struct sim *s)
{
	check_pick(s, pick_eevdf(&s->cfs, false));
	for (int i = 0; i < s->nr; i++) {
		struct sched_entity *se = &s->se[i];

		if (se->on_rq && entity_eligible(&s->cfs, se) != brute_eligible(s, se->vruntime))
			sim_fail(s, "entity_eligible differs from the brute-force test");
		/* +1: a nice change while asleep rescales vlag, rounded */
		if (!se->on_rq && (se->vlag > lag_limit(se, RANDOM_MAX_SLICE) + 1 ||
				   se->vlag < -lag_limit(se, RANDOM_MAX_SLICE) - 1))
			sim_fail(s, "a saved lag is over the clamp");
	}
}

/* Random runs, sleeps, wakeups, nice changes and custom slices, every
 * invariant checked after each step: 4 entities for 5000 steps, then 24
 * (trees deep enough that the pick must descend into left subtrees). */
static void random_operations_keep_eevdf_invariants(struct kunit *test)
{
	int nice[MAX_SE];

	rng_state = 0x2545f4914f6cdd1dull;
	for (int nr = 4; nr <= MAX_SE; nr += MAX_SE - 4) {
		struct sim *s;

		for (int i = 0; i < nr; i++)
			nice[i] = (int)rng(NICE_WIDTH) + MIN_NICE;
		s = sim_start(nr, nice, 3 * MSEC, false);
		for (int step = 0; step < 5000 && !s->why; step++) {
			random_step(s);
			check_everything(s);
		}
		expect_no_broken_invariant(test, s);
	}
}

static struct kunit_case fair_cases[] = {
	KUNIT_CASE(weights_are_linux_tables),
	KUNIT_CASE(calc_delta_fair_scales_by_nice0_over_weight),
	KUNIT_CASE(deadline_is_slice_scaled_by_weight),
	KUNIT_CASE(two_nice0_entities_share_evenly),
	KUNIT_CASE(nice0_and_nice5_share_1024_to_335),
	KUNIT_CASE(three_weights_get_their_shares),
	KUNIT_CASE(sleeper_wakes_with_the_lag_it_left_with),
	KUNIT_CASE(long_sleep_earns_no_more_than_the_saved_lag),
	KUNIT_CASE(lag_is_clamped_to_a_slice_and_a_tick),
	KUNIT_CASE(requeue_keeps_the_request_and_sleep_renews_it),
	KUNIT_CASE(renice_keeps_lag_in_real_time_and_changes_the_share),
	KUNIT_CASE(wakeup_preempts_for_the_earliest_eligible_deadline),
	KUNIT_CASE(tick_reschedules_when_the_slice_is_used_up),
	KUNIT_CASE(random_operations_keep_eevdf_invariants),
	{},
};

static struct kunit_suite fair_suite = {
	.name = "sched_fair",
	.test_cases = fair_cases,
};
kunit_test_suite(fair_suite);
