/*
 * Host build: `current` is a variable the tests may point at a task of
 * their own (arch/host/arch.c); it starts as init_task, as in the kernel.
 */
#ifndef FOLIUM_ASM_CURRENT_H
#define FOLIUM_ASM_CURRENT_H

struct task_struct;

extern struct task_struct *host_current;

static inline struct task_struct *get_current(void)
{
	return host_current;
}

#define current get_current()

#endif
