/*
 * Writing a system call (Linux: include/linux/syscalls.h). A system call
 * is defined with SYSCALL_DEFINEn(name, type1, arg1, ...), which makes
 * sys_name(task, args) for the table: it takes the raw registers and
 * casts each to its declared type, as Linux's __se_sys_* wrappers do (an
 * int argument uses the low 32 bits). The body sees the calling task as
 * `task`. Example:
 *
 *	SYSCALL_DEFINE1(close, unsigned int, fd)
 *	{
 *		return close_fd(task, fd);
 *	}
 *
 * User pointers are unsigned long and go through copy_from_user and
 * copy_to_user (<vm.h>), so a bad one is -EFAULT, never a kernel fault.
 * Results are values or a negative errno.
 */
#ifndef FOLIUM_SYSCALLS_H
#define FOLIUM_SYSCALLS_H

#include <sched.h>
#include <syscall_64.h>

/**
 * do_syscall - run system call @nr for @task with the six arguments @args
 * (Linux: the sys_call_table lookup of do_syscall_64).
 * Return: the value for rax: a result, or a negative errno (-ENOSYS for
 * a number not served, each logged once). exit and exit_group do not
 * return.
 */
long do_syscall(struct task_struct *task, unsigned long nr, const unsigned long args[6]);
/* Linux's name of system call nr ("?" if it has none). */
const char *syscall_name(unsigned long nr);

typedef long (*sys_call_ptr_t)(struct task_struct *task, const unsigned long args[6]);

/* Every listed call's entry point; kernel/sys_ni.c gives each a weak
 * -ENOSYS default (Linux: COND_SYSCALL), so a call can be listed before
 * the file that serves it exists. */
#define __SYSCALL_PROTO(nr, name) \
	long sys_##name(struct task_struct *task, const unsigned long args[6]);
FOLIUM_SYSCALLS(__SYSCALL_PROTO)
#undef __SYSCALL_PROTO
long sys_ni_syscall(struct task_struct *task, const unsigned long args[6]);

#define __SC_WRAP(name, params, call)                                          \
	static long __do_sys_##name params;                                    \
	long sys_##name(struct task_struct *task, const unsigned long args[6]) \
	{                                                                      \
		(void)args;                                                    \
		return __do_sys_##name call;                                   \
	}                                                                      \
	static long __do_sys_##name params

#define SYSCALL_DEFINE0(name) __SC_WRAP(name, (struct task_struct * task), (task))
#define SYSCALL_DEFINE1(name, t1, a1) \
	__SC_WRAP(name, (struct task_struct * task, t1 a1), (task, (t1)args[0]))
#define SYSCALL_DEFINE2(name, t1, a1, t2, a2) \
	__SC_WRAP(name, (struct task_struct * task, t1 a1, t2 a2), (task, (t1)args[0], (t2)args[1]))
#define SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3)                     \
	__SC_WRAP(name, (struct task_struct * task, t1 a1, t2 a2, t3 a3), \
		  (task, (t1)args[0], (t2)args[1], (t3)args[2]))
#define SYSCALL_DEFINE4(name, t1, a1, t2, a2, t3, a3, t4, a4)                    \
	__SC_WRAP(name, (struct task_struct * task, t1 a1, t2 a2, t3 a3, t4 a4), \
		  (task, (t1)args[0], (t2)args[1], (t3)args[2], (t4)args[3]))
#define SYSCALL_DEFINE5(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5)                   \
	__SC_WRAP(name, (struct task_struct * task, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5), \
		  (task, (t1)args[0], (t2)args[1], (t3)args[2], (t4)args[3], (t5)args[4]))
#define SYSCALL_DEFINE6(name, t1, a1, t2, a2, t3, a3, t4, a4, t5, a5, t6, a6)                  \
	__SC_WRAP(name, (struct task_struct * task, t1 a1, t2 a2, t3 a3, t4 a4, t5 a5, t6 a6), \
		  (task, (t1)args[0], (t2)args[1], (t3)args[2], (t4)args[3], (t5)args[4],      \
		   (t6)args[5]))

#endif
