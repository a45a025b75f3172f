/*
 * Running a program from the kernel (Linux: include/linux/umh.h,
 * kernel/umh.c call_usermodehelper with UMH_WAIT_PROC): the kernel
 * shell's way to start one.
 */
#ifndef FOLIUM_UMH_H
#define FOLIUM_UMH_H

/**
 * call_usermodehelper - run the program at @path with @argv and @envp as
 * a child of the kernel's task, its fds 0-2 on the console, and wait for
 * it to end.
 * Return: a wait status in Linux's encoding (<sys/wait.h>): the exit
 * code << 8 for a program that exited, the signal number for one a
 * signal ended, (sig << 8) | 0x7f for one that stopped (still a child
 * of the caller); or a negative errno if it never ran (do_execve's, or
 * -ENOMEM).
 */
int call_usermodehelper(const char *path, const char *const *argv, const char *const *envp);

#define UMH_NO_WAIT 0	/* don't wait at all */
#define UMH_WAIT_PROC 2 /* wait for the process to complete */
/* call_usermodehelper with Linux's @wait: UMH_WAIT_PROC as above, or
 * UMH_NO_WAIT: the program runs in the background (Ctrl-C does not reach
 * it) and the return is its pid, the caller to reap it (kernel_wait4). */
int call_usermodehelper_exec(const char *path, const char *const *argv, const char *const *envp,
			     int wait);

/* call_usermodehelper's halves: the child made and exec'd but not woken
 * (NULL and *@err if it cannot be), then woken as the console's
 * foreground program and waited for (the caller must be its parent)
 * until it exits, or until it stops: then the status is WIFSTOPPED's
 * (sig << 8) | 0x7f and @task stays the caller's child, to be waited for
 * again once continued. */
struct task_struct *call_usermodehelper_setup(const char *path, const char *const *argv,
					      const char *const *envp, int *err);
int call_usermodehelper_wait(struct task_struct *task);

#endif
