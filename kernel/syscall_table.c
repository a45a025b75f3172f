/*
 * The system call table and its lookup (Linux: arch/x86/entry/syscall_64.c
 * sys_call_table, and do_syscall_64's x64_sys_call). The numbers served
 * are listed in <syscall_64.h>; every other Linux number gets -ENOSYS and
 * one log line with its Linux name, from a table generated at build time
 * out of the build machine's <asm/unistd_64.h> (Debian's linux-libc-dev).
 * Example: a program's first statx logs "hello[1]: statx (332) not
 * implemented (-ENOSYS)" once, if statx were not served.
 */
#include <syscalls.h>

#define __SYSCALL_ENTRY(nr, name) [nr] = sys_##name,
static const sys_call_ptr_t sys_call_table[NR_syscalls] = { FOLIUM_SYSCALLS(__SYSCALL_ENTRY) };
#undef __SYSCALL_ENTRY

/* Every Linux x86-64 name, for the -ENOSYS log line. */
static const char *const linux_syscall_names[NR_syscalls] = {
#include <generated/syscall_names.h>
};

static uint64_t enosys_logged[NR_syscalls / 64];

static bool test_and_set_logged(unsigned long nr)
{
	uint64_t bit = 1ull << (nr % 64);
	bool was = enosys_logged[nr / 64] & bit;

	enosys_logged[nr / 64] |= bit;
	return was;
}

const char *syscall_name(unsigned long nr)
{
	return nr < NR_syscalls && linux_syscall_names[nr] ? linux_syscall_names[nr] : "?";
}

long do_syscall(struct task_struct *task, unsigned long nr, const unsigned long args[6])
{
	long ret = -ENOSYS;
	bool served =
		nr < NR_syscalls && sys_call_table[nr] && sys_call_table[nr] != sys_ni_syscall;

	if (served)
		ret = sys_call_table[nr](task, args);
	/* A call not in the table, and sys_ni_syscall's (a listed call whose
	 * file is not built), is logged; a served call's own -ENOSYS (an op
	 * it does not serve, as futex's PI ones) is its answer, not news. */
	if (!served && nr < NR_syscalls && !test_and_set_logged(nr)) {
		if (linux_syscall_names[nr])
			pr_info("%s[%d]: %s (%lu) not implemented (-ENOSYS)\n", task->comm,
				task->pid, linux_syscall_names[nr], nr);
		else
			pr_info("%s[%d]: system call %lu not implemented (-ENOSYS)\n", task->comm,
				task->pid, nr);
	}
	return ret;
}
