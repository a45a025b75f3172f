/*
 * Tasks on the host: nothing switches or enters ring 3 in the test
 * program, which calls system calls as the task it made. copy_thread
 * only notes a kernel thread's function, so copy_process runs as in the
 * kernel.
 */
#include <arch.h>
#include <sched.h>

void copy_thread(struct task_struct *p, const struct kernel_clone_args *args)
{
	p->thread = (struct thread_struct){ .fn = args->fn, .fn_arg = args->fn_arg };
}

/* The host test program never runs a second task: a switch is a bug. */
struct task_struct *arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	panic("host: a switch from %s to %s, but the host tests run no tasks", prev->comm,
	      next->comm);
}
