/*
 * Host build: `current` is a variable the tests may point at a task of
 * their own (arch/host/arch.c); while it is NULL it is init_task, as in
 * the kernel from boot on.
 */
#ifndef FOLIUM_ASM_CURRENT_H
#define FOLIUM_ASM_CURRENT_H

struct task_struct;

extern struct task_struct *host_current;
extern struct task_struct init_task;

static inline struct task_struct *get_current(void)
{
	return host_current ? host_current : &init_task;
}

#define current get_current()

#endif
