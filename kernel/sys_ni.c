/*
 * Not-implemented system calls (Linux: kernel/sys_ni.c). Every call in
 * <syscall_64.h> has a weak sys_name here that returns -ENOSYS; the file
 * that serves the call defines the strong one with SYSCALL_DEFINEn. So
 * the table can list a call whose code is not (or not yet) built in, and
 * a program that makes it sees Linux's answer for a missing call.
 */
#include <syscalls.h>

long sys_ni_syscall(struct task_struct *task, const unsigned long args[6])
{
	return -ENOSYS;
}

#define COND_SYSCALL(nr, name)                                                 \
	long sys_##name(struct task_struct *task, const unsigned long args[6]) \
		__attribute__((weak, alias("sys_ni_syscall")));
FOLIUM_SYSCALLS(COND_SYSCALL)
