/*
 * The fair scheduling class's core, EEVDF (Linux 6.6+: kernel/sched/fair.c,
 * as of Linux 7.3): Earliest Eligible Virtual Deadline First. Each entity
 * runs in virtual time (vruntime grows by real time * 1024 / weight) and
 * asks for a request of `slice` ns; its virtual deadline is vruntime +
 * slice * 1024 / weight. V is the weighted average vruntime; an entity is
 * eligible when V >= its vruntime (it is owed service: lag >= 0). The pick
 * is the eligible entity with the earliest deadline, found in O(log n) in
 * a tree ordered by deadline that keeps each subtree's smallest vruntime.
 * Example, two nice-0 entities, 0.7 ms slices: A (v 0, d 0.7) runs 0.7 ms:
 * v 0.7, d 1.4. V = 0.35: B (v 0, d 0.7) is eligible and earlier, so B
 * runs next. A nice-5 entity (weight 335) running 0.7 ms advances its v by
 * 0.7 * 1024 / 335 = 2.14 ms, so it gets 335 / 1024 of a nice-0 share.
 * Linux's default features are built in: PLACE_LAG, PLACE_DEADLINE_INITIAL,
 * PLACE_REL_DEADLINE, RUN_TO_PARITY, PREEMPT_SHORT, PICK_BUDDY; not
 * DELAY_DEQUEUE (a sleeper leaves at once), group scheduling, PELT.
 */
#include <kernel.h>
#include <timekeeping.h>
#include <rbtree_augmented.h>
#include "sched.h"

/*
 * Nice levels are multiplicative, ~1.25 per step: one nice step apart is
 * ~10% more or less CPU. Linux: kernel/sched/core.c.
 */
const int sched_prio_to_weight[NICE_WIDTH] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548,	 7620,	6100,  4904,  3906,
	/*  -5 */ 3121,	 2501,	1991,  1586,  1277,
	/*   0 */ 1024,	 820,	655,   526,   423,
	/*   5 */ 335,	 272,	215,   172,   137,
	/*  10 */ 110,	 87,	70,    56,    45,
	/*  15 */ 36,	 29,	23,    18,    15,
};

/* 2^32 / sched_prio_to_weight[]: a multiply instead of a divide. */
const uint32_t sched_prio_to_wmult[NICE_WIDTH] = {
	/* -20 */ 48388,     59856,	76040,	   92818,     118348,
	/* -15 */ 147320,    184698,	229616,	   287308,    360437,
	/* -10 */ 449829,    563644,	704093,	   875809,    1099582,
	/*  -5 */ 1376151,   1717300,	2157191,   2708050,   3363326,
	/*   0 */ 4194304,   5237765,	6557202,   8165337,   10153587,
	/*   5 */ 12820798,  15790321,	19976592,  24970740,  31350126,
	/*  10 */ 39045157,  49367440,	61356676,  76695844,  95443717,
	/*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/*
 * The request size r_i of a task without a custom slice. Linux 7.3:
 * 0.70 ms * (1 + ilog2(ncpus)), one CPU here (Linux 6.6 had 0.75 ms).
 */
unsigned int sysctl_sched_base_slice = 700000u;

#define WMULT_CONST (~0u)
#define WMULT_SHIFT 32

static inline void update_load_add(struct load_weight *lw, unsigned long inc)
{
	lw->weight += inc;
	lw->inv_weight = 0;
}

static inline void update_load_sub(struct load_weight *lw, unsigned long dec)
{
	lw->weight -= dec;
	lw->inv_weight = 0;
}

static inline void update_load_set(struct load_weight *lw, unsigned long w)
{
	lw->weight = w;
	lw->inv_weight = 0;
}

/* Linux: __update_inv_weight. */
static void __update_inv_weight(struct load_weight *lw)
{
	if (likely(lw->inv_weight))
		return;
	if (unlikely(lw->weight >= WMULT_CONST))
		lw->inv_weight = 1;
	else if (unlikely(!lw->weight))
		lw->inv_weight = WMULT_CONST;
	else
		lw->inv_weight = WMULT_CONST / lw->weight;
}

/* The index of the highest set bit, 1-based (Linux: fls); x != 0. */
static inline int fls32(uint32_t x)
{
	return 32 - __builtin_clz(x);
}

/*
 * Linux: __calc_delta (its 32-bit form). delta * weight * inv_weight >> 32,
 * where weight * inv_weight is first shifted into 32 bits (giving up that
 * many bits of the shift) so one 64x32 multiply does it.
 * Example: weight 1024, lw 335 (inv 12820798): fact = 13128497152 does not
 * fit 32 bits; shifted by 2 it is 3282124288, and the result is
 * delta * 3282124288 >> 30 = delta * 3.0567 = delta * 1024 / 335.
 */
uint64_t __calc_delta(uint64_t delta_exec, unsigned long weight, struct load_weight *lw)
{
	uint64_t fact = weight;
	int shift = WMULT_SHIFT;
	int fs;

	__update_inv_weight(lw);
	if (unlikely(fact >> 32)) {
		fs = fls32((uint32_t)(fact >> 32));
		shift -= fs;
		fact >>= fs;
	}
	fact = (uint64_t)(uint32_t)fact * lw->inv_weight;
	if (fact >> 32) {
		fs = fls32((uint32_t)(fact >> 32));
		shift -= fs;
		fact >>= fs;
	}
	return (uint64_t)(((unsigned __int128)delta_exec * (uint32_t)fact) >> shift);
}

/* Linux: calc_delta_fair. */
uint64_t calc_delta_fair(uint64_t delta, struct sched_entity *se)
{
	if (se->load.weight != NICE_0_LOAD)
		delta = __calc_delta(delta, NICE_0_LOAD, &se->load);
	return delta;
}

/* Virtual times wrap: compare them by signed difference (Linux:
 * vruntime_cmp, vruntime_op). */
static inline int64_t vruntime_sub(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b);
}

static inline bool vruntime_before(uint64_t a, uint64_t b)
{
	return vruntime_sub(a, b) < 0;
}

static inline uint64_t min_vruntime(uint64_t min, uint64_t vruntime)
{
	return vruntime_before(vruntime, min) ? vruntime : min;
}

/* Linux: entity_before. The timeline's order: earlier deadline first. */
static inline bool entity_before(const struct sched_entity *a, const struct sched_entity *b)
{
	return vruntime_before(a->deadline, b->deadline);
}

/* Linux: entity_key. se's vruntime relative to the zero point; stays
 * within a few lag bounds, so key * weight fits 64 bits. */
static inline int64_t entity_key(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_sub(se->vruntime, cfs_rq->zero_vruntime);
}

#define __node_2_se(node) rb_entry((node), struct sched_entity, run_node)

/* Linux: sum_w_vruntime_add, sum_w_vruntime_sub. */
static void sum_w_vruntime_add(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->sum_w_vruntime += entity_key(cfs_rq, se) * (int64_t)se->load.weight;
	cfs_rq->sum_weight += se->load.weight;
}

static void sum_w_vruntime_sub(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	cfs_rq->sum_w_vruntime -= entity_key(cfs_rq, se) * (int64_t)se->load.weight;
	cfs_rq->sum_weight -= se->load.weight;
}

/* Linux: update_zero_vruntime. Move the zero point by delta; every key
 * shrinks by delta, so the weighted sum by delta * sum_weight. */
static inline void update_zero_vruntime(struct cfs_rq *cfs_rq, int64_t delta)
{
	cfs_rq->sum_w_vruntime -= (int64_t)cfs_rq->sum_weight * delta;
	cfs_rq->zero_vruntime += delta;
}

/* curr if it counts in V (it may be running after its dequeue). */
static inline struct sched_entity *queued_curr(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = cfs_rq->curr;

	return curr && curr->on_rq ? curr : NULL;
}

/* s64 division rounding towards minus infinity (positive divisor): V
 * must lean left, so that avg_vruntime() itself is eligible. */
static inline int64_t div_floor(int64_t num, int64_t den)
{
	if (num < 0)
		num -= den - 1;
	return num / den;
}

/*
 * Linux: avg_vruntime. V = \Sum v_i * w_i / \Sum w_i, computed as
 * zero_vruntime + \Sum (v_i - zero) * w_i / \Sum w_i over the tree plus
 * curr. Called at placement, at dequeue and at each new deadline, which
 * keeps the zero point near V and the keys small.
 */
uint64_t avg_vruntime(struct cfs_rq *cfs_rq)
{
	struct sched_entity *curr = queued_curr(cfs_rq);
	int64_t weight = (int64_t)cfs_rq->sum_weight;
	int64_t runtime = cfs_rq->sum_w_vruntime;
	int64_t delta = 0;

	if (curr) {
		runtime += entity_key(cfs_rq, curr) * (int64_t)curr->load.weight;
		weight += curr->load.weight;
	}
	if (weight)
		delta = div_floor(runtime, weight);
	update_zero_vruntime(cfs_rq, delta);
	return cfs_rq->zero_vruntime;
}

/*
 * Linux: ineligible_vruntime. The vruntime at which curr stops being
 * eligible: V computed without curr (\Sum_{i != curr} (v_i - zero) * w_i
 * / \Sum_{i != curr} w_i), plus one. Context: curr is set and on_rq.
 */
static uint64_t ineligible_vruntime(struct cfs_rq *cfs_rq)
{
	int64_t weight = (int64_t)cfs_rq->sum_weight;
	int64_t delta = 0;

	if (weight)
		delta = div_floor(cfs_rq->sum_w_vruntime, weight);
	return cfs_rq->zero_vruntime + delta + 1;
}

/*
 * Linux: vruntime_eligible. V >= v, without the division:
 * \Sum (v_i - zero) * w_i >= (v - zero) * \Sum w_i, the right side in
 * 128 bits (key * load may pass 64).
 */
bool vruntime_eligible(struct cfs_rq *cfs_rq, uint64_t vruntime)
{
	struct sched_entity *curr = queued_curr(cfs_rq);
	int64_t avg = cfs_rq->sum_w_vruntime;
	int64_t load = (int64_t)cfs_rq->sum_weight;
	int64_t key = vruntime_sub(vruntime, cfs_rq->zero_vruntime);

	if (curr) {
		avg += entity_key(cfs_rq, curr) * (int64_t)curr->load.weight;
		load += curr->load.weight;
	}
	return avg >= (__int128)key * load;
}

/* Linux: entity_eligible. */
bool entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	return vruntime_eligible(cfs_rq, se->vruntime);
}

/* Linux: __pick_root_entity, __pick_first_entity. */
struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *root = cfs_rq->tasks_timeline.rb_root.rb_node;

	return root ? __node_2_se(root) : NULL;
}

struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq)
{
	struct rb_node *left = rb_first_cached(&cfs_rq->tasks_timeline);

	return left ? __node_2_se(left) : NULL;
}

/* Linux: cfs_rq_min_slice, cfs_rq_max_slice. Over the tree and curr. */
static uint64_t cfs_rq_min_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = queued_curr(cfs_rq);
	uint64_t min_slice = ~0ull;

	if (curr)
		min_slice = curr->slice;
	if (root)
		min_slice = MIN(min_slice, root->min_slice);
	return min_slice;
}

static uint64_t cfs_rq_max_slice(struct cfs_rq *cfs_rq)
{
	struct sched_entity *root = __pick_root_entity(cfs_rq);
	struct sched_entity *curr = queued_curr(cfs_rq);
	uint64_t max_slice = 0;

	if (curr)
		max_slice = curr->slice;
	if (root)
		max_slice = MAX(max_slice, root->max_slice);
	return max_slice;
}

/*
 * Linux: entity_lag. lag_i = w_i * (V - v_i); only the virtual part
 * V - v_i is kept. Moving V by joins and leaves could grow it without
 * bound, so it is clamped to the largest slice plus a tick, in se's
 * virtual time (EEVDF: -r_max < lag < max(r_max, q)).
 */
static int64_t entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se, uint64_t avruntime)
{
	uint64_t max_slice = cfs_rq_max_slice(cfs_rq) + TICK_NSEC;
	int64_t vlag = vruntime_sub(avruntime, se->vruntime);
	int64_t limit = (int64_t)calc_delta_fair(max_slice, se);

	return vlag < -limit ? -limit : vlag > limit ? limit : vlag;
}

/* Linux: update_entity_lag (without delayed dequeue). */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	se->vlag = entity_lag(cfs_rq, se, avg_vruntime(cfs_rq));
}

static inline bool __entity_less(struct rb_node *a, const struct rb_node *b)
{
	return entity_before(__node_2_se(a), __node_2_se(b));
}

/* Linux: min_vruntime_copy. */
static inline void min_vruntime_copy(struct sched_entity *new, struct sched_entity *old)
{
	new->min_vruntime = old->min_vruntime;
	new->min_slice = old->min_slice;
	new->max_slice = old->max_slice;
}

/* Linux: min_vruntime_update. se's subtree values from se and its
 * children. Return: true if none changed. */
static inline bool min_vruntime_update(struct sched_entity *se, bool exit)
{
	struct rb_node *kids[2] = { se->run_node.rb_left, se->run_node.rb_right };
	uint64_t old_min_vruntime = se->min_vruntime;
	uint64_t old_min_slice = se->min_slice, old_max_slice = se->max_slice;

	se->min_vruntime = se->vruntime;
	se->min_slice = se->max_slice = se->slice;
	for (int i = 0; i < 2; i++) {
		struct sched_entity *kid = rb_entry_safe(kids[i], struct sched_entity, run_node);

		if (!kid)
			continue;
		se->min_vruntime = min_vruntime(se->min_vruntime, kid->min_vruntime);
		se->min_slice = MIN(se->min_slice, kid->min_slice);
		se->max_slice = MAX(se->max_slice, kid->max_slice);
	}
	return se->min_vruntime == old_min_vruntime && se->min_slice == old_min_slice &&
	       se->max_slice == old_max_slice;
}

RB_DECLARE_CALLBACKS_MULTI(static, min_vruntime_cb, struct sched_entity, run_node,
			   min_vruntime_copy, min_vruntime_update);

/* Linux: __enqueue_entity. Into the timeline and V's sums. */
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	sum_w_vruntime_add(cfs_rq, se);
	se->min_vruntime = se->vruntime;
	se->min_slice = se->max_slice = se->slice;
	rb_add_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, __entity_less,
				&min_vruntime_cb);
}

/* Linux: __dequeue_entity. */
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	rb_erase_augmented_cached(&se->run_node, &cfs_rq->tasks_timeline, &min_vruntime_cb);
	sum_w_vruntime_sub(cfs_rq, se);
}

/*
 * Linux: set_protect_slice (RUN_TO_PARITY, PREEMPT_SHORT). A picked
 * entity is not preempted by the tick before its deadline; when a
 * shorter slice waits, only until it would stop being eligible.
 */
static void set_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	uint64_t slice = MIN(cfs_rq_min_slice(cfs_rq), se->slice);
	uint64_t vprot = se->deadline;

	if (slice != se->slice)
		vprot = min_vruntime(vprot, ineligible_vruntime(cfs_rq));
	se->vprot = vprot;
}

/* Linux: update_protect_slice. After a wakeup that did not preempt:
 * protect at most the shortest slice from here. */
static void update_protect_slice(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	uint64_t slice = cfs_rq_min_slice(cfs_rq);
	uint64_t vruntime = min_vruntime(se->vruntime, avg_vruntime(cfs_rq));

	se->vprot = min_vruntime(se->vprot, vruntime + calc_delta_fair(slice, se));
}

static inline bool protect_slice(struct sched_entity *se)
{
	return vruntime_before(se->vruntime, se->vprot);
}

static inline void cancel_protect_slice(struct sched_entity *se)
{
	if (protect_slice(se))
		se->vprot = se->vruntime;
}

/*
 * Linux: pick_eevdf. The tree is sorted by deadline and each node knows
 * its subtree's smallest vruntime, so it is also a heap on eligibility:
 * go left while the left subtree holds an eligible entity (its deadlines
 * are all earlier); else this node if eligible; else go right.
 */
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect)
{
	struct rb_node *node = cfs_rq->tasks_timeline.rb_root.rb_node;
	struct sched_entity *se = __pick_first_entity(cfs_rq);
	struct sched_entity *curr = queued_curr(cfs_rq);
	struct sched_entity *best = NULL;

	if (cfs_rq->nr_queued == 1)
		return curr ? curr : se;
	if (protect && cfs_rq->next && entity_eligible(cfs_rq, cfs_rq->next))
		return cfs_rq->next; /* PICK_BUDDY */
	if (curr && !entity_eligible(cfs_rq, curr))
		curr = NULL;
	if (curr && protect && protect_slice(curr))
		return curr;
	if (se && entity_eligible(cfs_rq, se)) {
		best = se; /* the earliest deadline of all is eligible */
		node = NULL;
	}
	while (node) {
		struct rb_node *left = node->rb_left;

		if (left && vruntime_eligible(cfs_rq, __node_2_se(left)->min_vruntime)) {
			node = left;
			continue;
		}
		se = __node_2_se(node);
		if (entity_eligible(cfs_rq, se)) {
			best = se;
			break;
		}
		node = node->rb_right;
	}
	if (!best || (curr && entity_before(curr, best)))
		best = curr;
	return best;
}

/*
 * Linux: update_deadline. Once vruntime reaches the deadline the request
 * is served: a new one starts, vd_i = ve_i + r_i / w_i. Return: true if
 * so (curr should be rescheduled).
 */
static bool update_deadline(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (vruntime_before(se->vruntime, se->deadline))
		return false;
	if (!se->custom_slice)
		se->slice = sysctl_sched_base_slice;
	se->deadline = se->vruntime + calc_delta_fair(se->slice, se);
	avg_vruntime(cfs_rq);
	return true;
}

static void clear_buddies(struct cfs_rq *cfs_rq, struct sched_entity *se)
{
	if (cfs_rq->next == se)
		cfs_rq->next = NULL;
}

/*
 * Linux: update_curr with update_se. Charge curr the real time since its
 * exec_start, as virtual time scaled by its weight.
 */
bool update_curr(struct cfs_rq *cfs_rq, uint64_t now)
{
	struct sched_entity *curr = cfs_rq->curr;
	int64_t delta_exec;
	bool resched;

	if (unlikely(!curr))
		return false;
	delta_exec = (int64_t)(now - curr->exec_start);
	if (unlikely(delta_exec <= 0))
		return false;
	curr->exec_start = now;
	curr->sum_exec_runtime += (uint64_t)delta_exec;
	curr->vruntime += calc_delta_fair((uint64_t)delta_exec, curr);
	resched = update_deadline(cfs_rq, curr);
	if (cfs_rq->nr_queued == 1)
		return false;
	if (resched || !protect_slice(curr)) {
		clear_buddies(cfs_rq, curr);
		return true;
	}
	return false;
}

/*
 * Linux: place_entity. Put se at V - vlag so it gets back the lag it left
 * with. Joining moves V itself: with W the weight already queued, V' =
 * V - w_i * vl_i / (W + w_i), which would leave only vl_i * W / (W + w_i)
 * of the lag. So the lag is inflated first: vl_i = vl'_i * (W + w_i) / W
 * = vl'_i + vl'_i * w_i / W. Example: equal weights, saved lag 2 ms:
 * placed at V - 4 ms, V' = V - 2 ms, lag after joining 2 ms.
 */
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags)
{
	uint64_t vruntime = avg_vruntime(cfs_rq), vslice;
	struct sched_entity *curr = queued_curr(cfs_rq);
	bool update_zero = false;
	int64_t lag = 0, load, weight;

	if (!se->custom_slice)
		se->slice = sysctl_sched_base_slice;
	vslice = calc_delta_fair(se->slice, se);
	if (cfs_rq->nr_queued && se->vlag) { /* PLACE_LAG */
		lag = se->vlag;
		load = (int64_t)cfs_rq->sum_weight + (curr ? (int64_t)curr->load.weight : 0);
		if (!load)
			load = 1;
		weight = (int64_t)se->load.weight;
		lag += lag * weight / load;
		/* a heavy joiner pulls V to itself: zero the keys there */
		update_zero = weight > load;
	}
	se->vruntime = vruntime - lag;
	if (update_zero)
		update_zero_vruntime(cfs_rq, -lag);
	if (se->rel_deadline) { /* PLACE_REL_DEADLINE */
		se->deadline += se->vruntime;
		se->rel_deadline = 0;
		return;
	}
	/* PLACE_DEADLINE_INITIAL: the others are halfway through theirs */
	if (flags & ENQUEUE_INITIAL)
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/*
 * Linux: enqueue_entity with enqueue_task_fair's EEVDF part. Placed, then
 * into the tree unless it is curr (woken again before it was switched
 * away from), then counted.
 */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags, uint64_t now)
{
	update_curr(cfs_rq, now);
	place_entity(cfs_rq, se, flags);
	if (se != cfs_rq->curr)
		__enqueue_entity(cfs_rq, se);
	update_load_add(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued++;
	se->on_rq = 1;
}

/*
 * Linux: dequeue_entity with __dequeue_task's EEVDF part. The lag is
 * saved while se still counts in V. Leaving without sleeping (a nice
 * change, a move) keeps the deadline relative to vruntime, so the
 * request goes on where it stopped.
 */
void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags, uint64_t now)
{
	update_curr(cfs_rq, now);
	clear_buddies(cfs_rq, se);
	update_entity_lag(cfs_rq, se);
	if (se != cfs_rq->curr)
		__dequeue_entity(cfs_rq, se);
	if (!(flags & DEQUEUE_SLEEP)) { /* PLACE_REL_DEADLINE */
		se->deadline -= se->vruntime;
		se->rel_deadline = 1;
	}
	se->on_rq = 0;
	update_load_sub(&cfs_rq->load, se->load.weight);
	cfs_rq->nr_queued--;
}

struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq)
{
	return pick_eevdf(cfs_rq, true);
}

/*
 * Linux: set_next_task_fair with set_next_entity. curr is kept out of the
 * tree while it runs; its slice is protected from here.
 */
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, uint64_t now)
{
	clear_buddies(cfs_rq, se);
	if (se->on_rq)
		__dequeue_entity(cfs_rq, se);
	se->exec_start = now;
	cfs_rq->curr = se;
	if (se->on_rq)
		set_protect_slice(cfs_rq, se);
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/* Linux: put_prev_entity with put_prev_task_fair. */
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev, uint64_t now)
{
	if (prev->on_rq)
		update_curr(cfs_rq, now);
	cfs_rq->curr = NULL;
	if (prev->on_rq)
		__enqueue_entity(cfs_rq, prev);
}

/* Linux: entity_tick (its resched_curr_lazy comes from update_curr). */
bool entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, uint64_t now)
{
	return update_curr(cfs_rq, now);
}

/* Linux: set_short_buddy. A shorter slice runs first while eligible. */
static void set_short_buddy(struct cfs_rq *cfs_rq, struct sched_entity *pse)
{
	if (cfs_rq->next && cfs_rq->next->slice < pse->slice)
		return;
	if (pse->on_rq)
		cfs_rq->next = pse;
}

/*
 * Linux: wakeup_preempt_fair (wakeup preemption, no WF_SYNC, WF_FORK or
 * NEXT_BUDDY). pse preempts when it is now what pick_eevdf() would run;
 * a shorter slice ignores curr's protection and preempts when eligible.
 */
bool check_preempt_wakeup_fair(struct cfs_rq *cfs_rq, struct sched_entity *pse, uint64_t now)
{
	struct sched_entity *se = cfs_rq->curr;
	bool preempt_short;

	if (!se)
		return true; /* idle: run it */
	if (se == pse)
		return false;
	update_curr(cfs_rq, now);
	preempt_short = pse->slice < se->slice; /* PREEMPT_SHORT */
	if (cfs_rq->nr_queued && pick_eevdf(cfs_rq, !preempt_short) == pse)
		goto preempt;
	if (preempt_short && entity_eligible(cfs_rq, pse))
		goto preempt;
	update_protect_slice(cfs_rq, se); /* RUN_TO_PARITY */
	return false;
preempt:
	cancel_protect_slice(se);
	if (preempt_short)
		set_short_buddy(cfs_rq, pse);
	return true;
}

/*
 * Linux: yield_task_fair. The current request counts as served: an
 * eligible curr forfeits the rest of its slice (vruntime moves to its
 * deadline, a new deadline one slice on), so an entity with an earlier
 * deadline runs first. Alone on the queue, nothing changes.
 */
void yield_task_fair(struct cfs_rq *cfs_rq, struct sched_entity *curr, uint64_t now)
{
	if (cfs_rq->nr_queued <= 1)
		return;
	clear_buddies(cfs_rq, curr);
	update_curr(cfs_rq, now);
	if (entity_eligible(cfs_rq, curr)) {
		curr->vruntime = curr->deadline;
		update_deadline(cfs_rq, curr);
	}
}

/* A relative virtual time scaled from weight old_weight to weight. */
static inline uint64_t rescale_vtime(uint64_t rel, int64_t old_weight, unsigned long weight)
{
	return (uint64_t)((int64_t)rel * old_weight / (int64_t)weight);
}

/*
 * Linux: rescale_entity. A weight change keeps the lag in real time
 * (w * vlag), so V does not move: vl' = vl * w / w'; the relative
 * deadline and protection scale the same way.
 */
static void rescale_entity(struct sched_entity *se, unsigned long weight, bool rel_vprot)
{
	int64_t old_weight = (int64_t)se->load.weight;

	se->vlag = se->vlag * old_weight / (int64_t)weight;
	if (se->rel_deadline)
		se->deadline = rescale_vtime(se->deadline, old_weight, weight);
	if (rel_vprot)
		se->vprot = rescale_vtime(se->vprot, old_weight, weight);
}

/* Linux: reweight_eevdf. A queued entity is taken out at its lag point,
 * rescaled, and put back at V - vl' with its deadline rescaled too. */
static void reweight_eevdf(struct cfs_rq *cfs_rq, struct sched_entity *se, unsigned long weight)
{
	bool curr = cfs_rq->curr == se, rel_vprot = false;
	uint64_t avruntime = 0;

	if (se->on_rq) {
		avruntime = avg_vruntime(cfs_rq);
		se->vlag = entity_lag(cfs_rq, se, avruntime);
		se->deadline -= avruntime;
		se->rel_deadline = 1;
		if (curr && protect_slice(se)) {
			se->vprot -= avruntime;
			rel_vprot = true;
		}
		if (!curr)
			__dequeue_entity(cfs_rq, se);
	}
	rescale_entity(se, weight, rel_vprot);
	update_load_set(&se->load, weight);
	if (se->on_rq) {
		if (rel_vprot)
			se->vprot += avruntime;
		se->deadline += avruntime;
		se->rel_deadline = 0;
		se->vruntime = avruntime - se->vlag;
		if (!curr)
			__enqueue_entity(cfs_rq, se);
	}
}

/* Linux: reweight_task_fair with reweight_entity (no PELT, one level). */
void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, const struct load_weight *lw,
		     uint64_t now)
{
	if (se->load.weight == lw->weight)
		return;
	if (se->on_rq) {
		update_curr(cfs_rq, now);
		update_load_sub(&cfs_rq->load, se->load.weight);
	}
	reweight_eevdf(cfs_rq, se, lw->weight);
	se->load.inv_weight = lw->inv_weight;
	if (se->on_rq)
		update_load_add(&cfs_rq->load, se->load.weight);
}

/* Linux: init_cfs_rq. V starts 2^20 ns below the wrap, so code that
 * compares virtual times without wrap-safe differences fails early. */
void init_cfs_rq(struct cfs_rq *cfs_rq)
{
	*cfs_rq = (struct cfs_rq){ .tasks_timeline = RB_ROOT_CACHED };
	cfs_rq->zero_vruntime = (uint64_t)(-(1ll << 20));
}

struct load_weight sched_nice_to_load(int nice)
{
	int prio = MIN(MAX(nice, MIN_NICE), MAX_NICE) - MIN_NICE;

	return (struct load_weight){ .weight = (unsigned long)sched_prio_to_weight[prio],
				     .inv_weight = sched_prio_to_wmult[prio] };
}

void sched_entity_init(struct sched_entity *se, int nice)
{
	*se = (struct sched_entity){ .load = sched_nice_to_load(nice),
				     .slice = sysctl_sched_base_slice };
	RB_CLEAR_NODE(&se->run_node);
}
