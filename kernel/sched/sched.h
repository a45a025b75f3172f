/*
 * kernel/sched/'s private header (Linux: kernel/sched/sched.h): the fair
 * class's run queue and what the scheduler core calls in fair.c. One
 * level only (no group scheduling), so Linux's h_nr_queued is nr_queued
 * and its hierarchical weight h_load is se->load. Time is passed in as
 * `now` (the caller reads the clock: Linux's rq_clock_task); nothing here
 * locks, all of it runs with the run queue held by the caller.
 */
#ifndef FOLIUM_KERNEL_SCHED_SCHED_H
#define FOLIUM_KERNEL_SCHED_SCHED_H

#include <stdbool.h>
#include <stdint.h>
#include <rbtree.h>
#include <sched_entity.h>

/* Weights have 10 bits of fraction and nice 0 weighs 1.0 (Linux without
 * scale_load(): its 32-bit layout, where __calc_delta uses inv_weight). */
#define SCHED_FIXEDPOINT_SHIFT 10
#define NICE_0_LOAD_SHIFT SCHED_FIXEDPOINT_SHIFT
#define NICE_0_LOAD (1ul << NICE_0_LOAD_SHIFT)
#define MAX_NICE 19
#define MIN_NICE -20
#define NICE_WIDTH (MAX_NICE - MIN_NICE + 1)

/* enqueue_entity()/dequeue_entity() flags (Linux's values). */
#define DEQUEUE_SLEEP 0x0001 /* blocks: forget the deadline */
#define ENQUEUE_WAKEUP 0x0001
#define ENQUEUE_INITIAL 0x00080000 /* a new task: half a slice to start */

/*
 * The fair run queue. V, the weighted average vruntime of the queued
 * entities, is kept relative to zero_vruntime as two sums over the tree:
 * sum_w_vruntime = \Sum (v_i - zero_vruntime) * w_i and sum_weight =
 * \Sum w_i; curr is not in the tree and is added in when it is on_rq.
 */
struct cfs_rq {
	struct load_weight load; /* \Sum weight of the on_rq entities */
	unsigned int nr_queued;	 /* on_rq entities, curr included */
	int64_t sum_w_vruntime;
	uint64_t sum_weight;
	uint64_t zero_vruntime; /* close to V: moved there by avg_vruntime() */
	struct rb_root_cached tasks_timeline;
	struct sched_entity *curr; /* running (set_next_entity), or NULL */
	struct sched_entity *next; /* buddy picked first while eligible */
};

/* kernel/sched/fair.c */
extern const int sched_prio_to_weight[NICE_WIDTH];
extern const uint32_t sched_prio_to_wmult[NICE_WIDTH];
extern unsigned int sysctl_sched_base_slice;

/* Empty run queue; V starts just below the u64 wrap (as Linux's). */
void init_cfs_rq(struct cfs_rq *cfs_rq);
/* A new entity off any rq, weighted for nice, vruntime 0 (placed at its
 * first enqueue_entity). Folium's stand-in for __sched_fork() plus
 * set_load_weight(), which need a task. */
void sched_entity_init(struct sched_entity *se, int nice);
/* Return: nice's weight and inverse (set_load_weight's lookup). */
struct load_weight sched_nice_to_load(int nice);

/* Return: delta_exec * weight / lw->weight, in 32.32 fixed point. */
uint64_t __calc_delta(uint64_t delta_exec, unsigned long weight, struct load_weight *lw);
/* Return: delta of real time as se's virtual time (delta * 1024 / w). */
uint64_t calc_delta_fair(uint64_t delta, struct sched_entity *se);

/* Return: V, the weighted average vruntime (rounded down); moves
 * zero_vruntime there. */
uint64_t avg_vruntime(struct cfs_rq *cfs_rq);
/* Return: whether an entity at vruntime would have lag >= 0 (V >= v). */
bool vruntime_eligible(struct cfs_rq *cfs_rq, uint64_t vruntime);
bool entity_eligible(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* se->vlag = V - se->vruntime, clamped to the largest slice plus a tick
 * (in se's virtual time). Context: se is on cfs_rq. */
void update_entity_lag(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* Set se's vruntime and deadline for joining cfs_rq with its vlag kept.
 * Context: se is not yet counted in cfs_rq. */
void place_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags);

/* Add to/take out of the timeline only (curr is never in it). */
void __enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
void __dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se);
/* Return: the tree's root (leftmost) entity, or NULL if it is empty. */
struct sched_entity *__pick_root_entity(struct cfs_rq *cfs_rq);
struct sched_entity *__pick_first_entity(struct cfs_rq *cfs_rq);

/* Charge curr for the time since its exec_start. Return: true if curr
 * should be rescheduled (its request is served or its protection over
 * while another entity waits). */
bool update_curr(struct cfs_rq *cfs_rq, uint64_t now);
/* se becomes runnable on cfs_rq (ENQUEUE_WAKEUP, ENQUEUE_INITIAL). */
void enqueue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags, uint64_t now);
/* se stops being runnable (DEQUEUE_SLEEP), its lag saved in vlag; curr
 * stays curr until put_prev_entity(). */
void dequeue_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, int flags, uint64_t now);
/* Return: the eligible entity with the earliest deadline, curr included;
 * with protect, curr inside its protected slice or the next buddy first.
 * NULL if nothing is queued. */
struct sched_entity *pick_eevdf(struct cfs_rq *cfs_rq, bool protect);
/* Return: pick_eevdf(cfs_rq, true), what the scheduler runs next. */
struct sched_entity *pick_next_entity(struct cfs_rq *cfs_rq);
/* se (picked) becomes curr at now; it leaves the tree while it runs. */
void set_next_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, uint64_t now);
/* prev stops running: charged, and back in the tree if still on_rq. */
void put_prev_entity(struct cfs_rq *cfs_rq, struct sched_entity *prev, uint64_t now);
/* The periodic tick for curr. Return: true if a reschedule is needed. */
bool entity_tick(struct cfs_rq *cfs_rq, struct sched_entity *curr, uint64_t now);
/* pse was just enqueued by a wakeup. Return: true if curr should yield
 * the CPU to it (always when nothing runs). */
bool check_preempt_wakeup_fair(struct cfs_rq *cfs_rq, struct sched_entity *pse, uint64_t now);
/* A nice change: se gets lw's weight, its lag and relative deadline kept
 * in real time. */
void yield_task_fair(struct cfs_rq *cfs_rq, struct sched_entity *curr, uint64_t now);
void reweight_entity(struct cfs_rq *cfs_rq, struct sched_entity *se, const struct load_weight *lw,
		     uint64_t now);

#endif
