/*
 * Kernel threads (Linux: include/linux/kthread.h, kernel/kthread.c): a
 * task that runs a kernel function and has no program. Example: the
 * kernel shell is kthread_run(shell_thread, NULL, "kshell"); it sleeps
 * in the console's read like any task, so programs run meanwhile.
 */
#ifndef FOLIUM_KTHREAD_H
#define FOLIUM_KTHREAD_H

struct task_struct;

/* A new kernel thread, a child of current, named @name, that will run
 * @fn(@data) once woken (wake_up_new_task). Return: it, or NULL. */
struct task_struct *kthread_create(int (*fn)(void *), void *data, const char *name);
/* kthread_create, then let it run. */
struct task_struct *kthread_run(int (*fn)(void *), void *data, const char *name);
/* A kernel thread's end: @fn returned @ret (Linux: kthread_exit). */
void __attribute__((noreturn)) kthread_exit(long ret);

#endif
