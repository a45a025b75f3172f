/*
 * Hard-interrupt context (Linux: include/linux/hardirq.h, preempt.h's
 * HARDIRQ count): the arch brackets every interrupt handler with
 * irq_enter/irq_exit, so code (the lock checker first) can tell a
 * handler from the task it interrupted.
 */
#ifndef FOLIUM_HARDIRQ_H
#define FOLIUM_HARDIRQ_H

#include <cpumask.h>
#include <asm/smp.h>

/* Interrupt handlers running on each CPU (nested ones count too). */
extern unsigned int hardirq_nesting[NR_CPUS];

static inline void irq_enter(void)
{
	hardirq_nesting[smp_processor_id()]++;
}

static inline void irq_exit(void)
{
	hardirq_nesting[smp_processor_id()]--;
}

static inline bool in_hardirq(void)
{
	return hardirq_nesting[smp_processor_id()] != 0;
}

#endif
