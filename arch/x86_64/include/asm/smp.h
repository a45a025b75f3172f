/*
 * This CPU's number (Linux: arch/x86/include/asm/smp.h, the per-CPU
 * cpu_number): a field of the per-CPU area GS points at in ring 0
 * (arch/x86_64/x86.h's struct percpu), one instruction to read.
 */
#ifndef FOLIUM_ASM_SMP_H
#define FOLIUM_ASM_SMP_H

#define PERCPU_CPU_NUMBER 32 /* offsetof(struct percpu, cpu_number) */

static inline __attribute__((always_inline)) unsigned int smp_processor_id(void)
{
	unsigned int cpu;

	__asm__ volatile("movl %%gs:%c1, %0" : "=r"(cpu) : "i"(PERCPU_CPU_NUMBER));
	return cpu;
}

#endif
