/*
 * Host build: the CPU a test runs "on". The host model of IPIs
 * (arch/host/smp.c) delivers one by switching host_cpu to the target,
 * running its handler there and switching back, so the queue and mask
 * logic of kernel/smp.c runs as on several CPUs, one at a time.
 */
#ifndef FOLIUM_ASM_SMP_H
#define FOLIUM_ASM_SMP_H

extern unsigned int host_cpu;

static inline unsigned int smp_processor_id(void)
{
	return host_cpu;
}

#endif
