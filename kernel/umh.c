/*
 * The kernel starts a program (Linux: kernel/umh.c call_usermodehelper,
 * UMH_WAIT_PROC). A child of the kernel's task gets the console as fds
 * 0-2, execs the program, runs it until it ends and is released; the
 * caller gets its wait status. Example: the kernel shell's `hello a b` is
 * call_usermodehelper("/bin/hello", {"hello", "a", "b"}, env), which
 * returns 0 once hello has exited with status 0.
 */
#include <arch.h>
#include <binfmts.h>
#include <fs.h>
#include <sched.h>
#include <umh.h>
#include <vm.h>

int call_usermodehelper(const char *path, const char *const *argv, const char *const *envp)
{
	struct mm_struct *prev = current_mm;
	struct task_struct *task = copy_process();
	int ret;

	if (!task)
		return -ENOMEM;
	ret = console_on_rootfs(task);
	if (!ret)
		ret = do_execve(task, path, argv, envp);
	if (!ret) {
		switch_mm(task->mm);
		ret = arch_run_user(task);
		switch_mm(prev);
	}
	release_task(task);
	return ret;
}
