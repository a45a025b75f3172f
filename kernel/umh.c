/*
 * The kernel starts a program (Linux: kernel/umh.c call_usermodehelper,
 * UMH_WAIT_PROC). A child of the caller gets the console as fds 0-2,
 * execs the program and is woken; the caller sleeps in kernel_wait until
 * it has exited and takes its status. While it runs the console is its
 * session's controlling tty and its group the tty's foreground group:
 * Ctrl-C is n_tty's SIGINT for that group (fs/n_tty.c). Example: the kernel
 * shell's `hello a b` is call_usermodehelper("/bin/hello", {"hello",
 * "a", "b"}, env), which returns 0 once hello has exited with status 0;
 * `hello &` is UMH_NO_WAIT: the pid at once, the status for a later
 * kernel_wait4 (the shell's job notices). A program that stops (SIGSTOP,
 * or SIGTSTP where its group is not orphaned) gives the console back
 * too, as a shell's waitpid with WUNTRACED: it stays the caller's child,
 * a stopped job the caller may continue (SIGCONT to its group) and wait
 * for in the foreground again (the kernel shell's `fg`).
 */
#include <binfmts.h>
#include <fs.h>
#include <sched.h>
#include <tty.h>
#include <umh.h>

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
	int session, pgrp, ret;

	/* The program starts as a session leader (copy_process gives a
	 * kernel caller's child its own session and group). */
	tty_set_foreground(task, &session, &pgrp);
	if (task->__state == TASK_NEW)
		wake_up_new_task(task);
	ret = kernel_wait_untraced(task);
	tty_restore_foreground(session, pgrp);
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
