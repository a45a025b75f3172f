/*
 * Process identity and the process's own settings (Linux: kernel/sys.c,
 * kernel/exit.c): getpid, set_tid_address, exit, exit_group.
 */
#include <syscalls.h>

SYSCALL_DEFINE0(getpid)
{
	return task->pid;
}

SYSCALL_DEFINE1(set_tid_address, unsigned long, tidptr)
{
	task->clear_child_tid = tidptr;
	return task->pid; /* the caller's tid: one thread, tid = pid */
}

/* One thread per process: exit and exit_group both end it (Linux:
 * do_exit, do_group_exit), with the status's low byte. */
SYSCALL_DEFINE1(exit, int, error_code)
{
	do_exit((error_code & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, error_code)
{
	do_exit((error_code & 0xff) << 8);
}
