/*
 * The end of a task (Linux: kernel/exit.c). do_exit gives back what the
 * task held (its mm, its files), leaves it a zombie holding only its
 * exit status, wakes its parent and switches away for good; the parent's
 * wait reaps it (release_task frees the task and its kernel stack, which
 * nothing runs on any more). Example: a program's exit_group(3) is
 * do_exit(3 << 8); the kernel shell, waiting in kernel_wait, gets 0x300
 * and prints "exit status 3".
 */
#include <arch.h>
#include <fs.h>
#include <sched.h>
#include <vm.h>

/* Linux: exit_mm. The mm goes at once; the task runs on the kernel's
 * tables until its last switch. */
static void exit_mm(struct task_struct *task)
{
	struct mm_struct *mm = task->mm;

	if (!mm)
		return;
	task->mm = NULL;
	if (task == current) {
		switch_mm(NULL);
		task->active_mm = NULL;
	}
	mm_destroy(mm);
}

/* Linux: exit_notify. The parent learns of it in its wait. */
static void exit_notify(struct task_struct *tsk)
{
	tsk->exit_state = EXIT_ZOMBIE;
	if (tsk->real_parent)
		wake_up(&tsk->real_parent->signal->wait_chldexit);
}

void do_exit(int code)
{
	struct task_struct *tsk = current;

	if (tsk == &init_task)
		panic("attempted to kill the idle task");
	tsk->flags |= PF_EXITING;
	exit_mm(tsk);
	exit_files(tsk);
	tsk->exit_code = code;
	arch_irq_save(); /* no wake-up between becoming a zombie and leaving */
	exit_notify(tsk);
	/* Linux: do_task_dead. */
	set_current_state(TASK_DEAD);
	schedule();
	panic("do_exit: a dead task ran again");
}

void release_task(struct task_struct *task)
{
	exit_files(task);
	exit_mm(task);
	free_task(task);
}

int kernel_wait(struct task_struct *task)
{
	int status;

	wait_event(current->signal->wait_chldexit, task->exit_state == EXIT_ZOMBIE);
	status = task->exit_code;
	task->exit_state = EXIT_DEAD;
	release_task(task);
	return status;
}
