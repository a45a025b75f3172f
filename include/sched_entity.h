/*
 * What the fair scheduling class keeps per task (Linux: struct load_weight
 * and struct sched_entity, include/linux/sched.h): struct task_struct
 * embeds one as `se`. kernel/sched/fair.c owns every field; the cfs_rq an
 * entity queues on is in kernel/sched/sched.h. Times are nanoseconds;
 * vruntime, deadline, min_vruntime and vprot are virtual times, which
 * wrap and are compared only by signed difference.
 */
#ifndef FOLIUM_SCHED_ENTITY_H
#define FOLIUM_SCHED_ENTITY_H

#include <stdint.h>
#include <rbtree.h>

struct load_weight {
	unsigned long weight; /* sched_prio_to_weight[] of the nice value */
	uint32_t inv_weight;  /* 2^32 / weight; 0: computed at the next use */
};

struct sched_entity {
	struct load_weight load;
	/* In cfs_rq->tasks_timeline, ordered by deadline; not while curr. */
	struct rb_node run_node;
	uint64_t deadline; /* virtual deadline: vruntime + slice / weight */
	/* Augmented over the subtree rooted here (pick_eevdf, entity_lag). */
	uint64_t min_vruntime;
	uint64_t min_slice;
	uint64_t max_slice;

	unsigned char on_rq;	    /* counted in its cfs_rq (curr or in the tree) */
	unsigned char rel_deadline; /* off the rq after a non-sleep dequeue:
				     * deadline holds deadline - vruntime */
	unsigned char custom_slice; /* slice was asked for (sched_attr), keep it */

	uint64_t exec_start; /* clock of the last update_curr while curr */
	uint64_t sum_exec_runtime;
	uint64_t prev_sum_exec_runtime; /* sum_exec_runtime when last picked */
	uint64_t vruntime;		/* service received, in virtual time */
	int64_t vlag;			/* V - vruntime when it left the rq */
	uint64_t vprot;			/* not preempted before vruntime reaches it */
	uint64_t slice;			/* request size r_i, ns */
};

#endif
