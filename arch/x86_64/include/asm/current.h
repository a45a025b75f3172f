/*
 * `current`: the task this CPU runs (Linux: arch/x86/include/asm/
 * current.h). It is a field of the per-CPU area GS points at in ring 0
 * (arch/x86_64/x86.h's struct percpu), read with one instruction; only
 * the arch writes it, when it switches to another task.
 */
#ifndef FOLIUM_ASM_CURRENT_H
#define FOLIUM_ASM_CURRENT_H

struct task_struct;

#define PERCPU_CURRENT 24 /* offsetof(struct percpu, current) */

static inline __attribute__((always_inline)) struct task_struct *get_current(void)
{
	struct task_struct *task;

	__asm__("movq %%gs:%c1, %0" : "=r"(task) : "i"(PERCPU_CURRENT));
	return task;
}

#define current get_current()

#endif
