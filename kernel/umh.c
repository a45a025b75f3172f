/*
 * The kernel starts a program (Linux: kernel/umh.c call_usermodehelper,
 * UMH_WAIT_PROC). A child of the caller gets the console as fds 0-2,
 * execs the program and is woken; the caller sleeps in kernel_wait until
 * it has exited and takes its status. While it runs it is the console's
 * foreground program: Ctrl-C is SIGINT for it. Example: the kernel
 * shell's `hello a b` is call_usermodehelper("/bin/hello", {"hello",
 * "a", "b"}, env), which returns 0 once hello has exited with status 0;
 * `hello &` is UMH_NO_WAIT: the pid at once, the status for a later
 * kernel_wait4 (the shell's job notices).
 */
#include <binfmts.h>
#include <fs.h>
#include <sched.h>
#include <umh.h>

static struct task_struct *foreground; /* the program Ctrl-C interrupts */

/* n_tty's ISIG for the console (Linux: kill_pgrp(SIGINT) of the
 * foreground group: the program and the children it started).
 * Context: interrupt. */
static bool interrupt_foreground(void)
{
	if (!foreground)
		return false;
	kill_pgrp(NULL, foreground->pgid, SIGINT, SI_KERNEL);
	return true;
}

struct task_struct *call_usermodehelper_setup(const char *path, const char *const *argv,
					      const char *const *envp, int *err)
{
	/* Linux: user_mode_thread(call_usermodehelper_exec_async, ..., SIGCHLD). */
	struct kernel_clone_args args = { .exit_signal = SIGCHLD };
	struct task_struct *task = copy_process(&args);

	*err = -ENOMEM;
	if (!task)
		return NULL;
	*err = console_on_rootfs(task);
	if (!*err)
		*err = do_execve(task, path, argv, envp);
	if (*err) {
		release_task(task);
		return NULL;
	}
	return task;
}

int call_usermodehelper_wait(struct task_struct *task)
{
	struct task_struct *prev_fg = foreground;
	int ret;

	foreground = task;
	console_set_intr(interrupt_foreground);
	if (task->__state == TASK_NEW)
		wake_up_new_task(task);
	ret = kernel_wait(task);
	foreground = prev_fg;
	console_set_intr(prev_fg ? interrupt_foreground : NULL);
	return ret;
}

int call_usermodehelper_exec(const char *path, const char *const *argv, const char *const *envp,
			     int wait)
{
	int ret;
	struct task_struct *task = call_usermodehelper_setup(path, argv, envp, &ret);

	if (!task)
		return ret;
	if (wait == UMH_NO_WAIT) {
		ret = task->pid;
		wake_up_new_task(task);
		return ret;
	}
	return call_usermodehelper_wait(task);
}

int call_usermodehelper(const char *path, const char *const *argv, const char *const *envp)
{
	return call_usermodehelper_exec(path, argv, envp, UMH_WAIT_PROC);
}
