/*
 * The task the in-kernel system-call suites run as: a child of the
 * kernel's task (copy_process) named "ktest", on the suite's mm, as uid 0
 * with no capabilities (a case that needs one sets it) and an empty fd
 * table.
 * free_task (not release_task) ends it: the suite destroys its mm.
 */
#ifndef FOLIUM_KTEST_TASK_H
#define FOLIUM_KTEST_TASK_H

#include <sched.h>

/* A pid no task has: above the pid table (Linux's pid_max). */
#define NO_SUCH_PID (PID_MAX + 1)

static inline struct task_struct *ktest_task_create(struct mm_struct *mm)
{
	struct task_struct *task = copy_process(&(struct kernel_clone_args){ 0 });

	if (!task)
		return NULL;
	task->mm = mm;
	task->cred.cap_effective = task->cred.cap_permitted = task->cred.cap_bset = 0;
	memcpy(task->comm, "ktest", sizeof("ktest"));
	return task;
}

#endif
