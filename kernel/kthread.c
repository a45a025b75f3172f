/*
 * Kernel threads (Linux: kernel/kthread.c). Linux makes them through
 * kthreadd; here current makes them directly, which is the same task
 * with a different parent. A thread whose function returns exits with
 * its value as the exit code, like Linux's kthread().
 */
#include <kthread.h>
#include <sched.h>

struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *name)
{
	struct kernel_clone_args args = { .fn = fn, .fn_arg = data };
	struct task_struct *p = copy_process(&args);

	if (!p)
		return NULL;
	memset(p->comm, 0, sizeof(p->comm));
	memcpy(p->comm, name, MIN(strlen(name), sizeof(p->comm) - 1));
	return p;
}

struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name)
{
	struct task_struct *p = kthread_create(fn, data, name);

	if (p)
		wake_up_new_task(p);
	return p;
}

void kthread_exit(long ret)
{
	do_exit((int)(ret & 0xff) << 8);
}
