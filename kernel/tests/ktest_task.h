/*
 * The task the in-kernel system-call suites run as: a child of the
 * kernel's task (copy_process) named "ktest", on the suite's mm, with no
 * capabilities (a case that needs one sets it) and an empty fd table.
 * free_task (not release_task) ends it: the suite destroys its mm.
 */
#ifndef FOLIUM_KTEST_TASK_H
#define FOLIUM_KTEST_TASK_H

#include <sched.h>

static inline struct task_struct *ktest_task_create(struct mm_struct *mm)
{
	struct task_struct *task = copy_process();

	if (!task)
		return NULL;
	task->mm = mm;
	task->cred = (struct cred){ 0 };
	memcpy(task->comm, "ktest", sizeof("ktest"));
	return task;
}

#endif
