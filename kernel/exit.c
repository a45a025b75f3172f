/*
 * The end of a task (Linux: kernel/exit.c): do_exit leaves the program
 * for good, release_task frees what it held once its status is taken.
 * Every page, table and file a program had goes back: its mm is
 * destroyed, its fds closed, its task and kernel stack freed.
 */
#include <arch.h>
#include <fs.h>
#include <sched.h>
#include <vm.h>

void do_exit(int code)
{
	current->flags |= PF_EXITING;
	arch_exit_user(code);
}

/* Linux: exit_mm, here once the task is off the CPU. */
static void exit_mm(struct task_struct *task)
{
	if (task->mm)
		mm_destroy(task->mm);
	task->mm = NULL;
}

void release_task(struct task_struct *task)
{
	exit_files(task);
	exit_mm(task);
	free_task(task);
}
