/*
 * More than one CPU (Linux: include/linux/smp.h, kernel/smp.c,
 * kernel/cpu.c): bringing the others up at boot, and running a function
 * on other CPUs through an inter-processor interrupt (IPI). The arch
 * starts a CPU and sends IPIs (<arch.h>); the masks, the queues and the
 * rules are here.
 *
 * A function call to other CPUs (smp_call_function_single,
 * smp_call_function_many) queues a call_single_data on each target's
 * lock-less queue and sends an IPI only to a target whose queue was
 * empty (one already queued means an IPI is on its way); the target's
 * interrupt handler runs every queued call. With @wait the caller spins
 * until each target has run it: then the caller's interrupts must be on,
 * or two CPUs calling each other would wait forever (Linux warns the
 * same). Example: a TLB shootdown is smp_call_function_many(mask,
 * flush, info, true).
 */
#ifndef FOLIUM_SMP_H
#define FOLIUM_SMP_H

#include <cpumask.h>
#include <atomic.h>
#include <llist.h>
#include <asm/smp.h>

typedef void (*smp_call_func_t)(void *info);

/* Linux: struct __call_single_data. */
struct call_single_data {
	struct llist_node node;
	unsigned int flags; /* CSD_FLAG_LOCK while queued or running */
	smp_call_func_t func;
	void *info;
};
#define CSD_FLAG_LOCK 0x01
#define CSD_TYPE_SYNC 0x10 /* the caller waits: unlock only after func ran */

/* Run @func(@info) on @cpu (this one: at once, interrupts off). Return:
 * 0, or -ENXIO if @cpu is not online. */
int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info, bool wait);
/* Run @func(@info) on every online CPU of @mask but this one. */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info,
			    bool wait);
/* On every online CPU, this one included (Linux: on_each_cpu). */
void on_each_cpu(smp_call_func_t func, void *info, bool wait);
/* The IPI's handler (interrupts off): run this CPU's queued calls.
 * Linux: generic_smp_call_function_single_interrupt. */
void generic_smp_call_function_single_interrupt(void);

/* Function-call IPIs this CPU received; IPIs sent (Linux's /proc/interrupts
 * CAL line counts the first). */
extern unsigned long irq_call_count[NR_CPUS];
extern unsigned long ipis_sent[NR_CPUS];

/* Linux: set_cpu_possible, set_cpu_present, set_cpu_online. nr_cpu_ids
 * follows the possible mask. */
void set_cpu_possible(unsigned int cpu, bool possible);
void set_cpu_present(unsigned int cpu, bool present);
void set_cpu_online(unsigned int cpu, bool online);
/* How many CPUs the arch may register: NR_CPUS, or nr_cpus= below it. */
unsigned int smp_cpu_limit(void);

/* Linux: smp_send_stop. Stop every other CPU (interrupts off, halted),
 * without waiting: panic and a kernel fault's report, before they print.
 * The arch implements it (the host has nothing to stop). */
void smp_send_stop(void);

/* Linux: smpcfd_prepare_cpu / smpcfd_dead_cpu. The csds @cpu sends
 * smp_call_function_many's calls with, one per possible target: made
 * before it comes online. Return: 0 or -ENOMEM. */
int smpcfd_prepare_cpu(unsigned int cpu);
void smpcfd_dead_cpu(unsigned int cpu);

/* Linux: smp_init. Register the CPUs the firmware lists and start them,
 * up to maxcpus=; one that does not answer is reported and left offline.
 * Context: boot, interrupts on, after arch_late_setup. */
void smp_init(void);
/* Linux: cpu_up (boot half). Return: 0, or why @cpu could not start. */
int cpu_up(unsigned int cpu);
/* An application processor's first C code after its arch set-up: mark it
 * online and idle (Linux: start_secondary's end). Never returns. */
void __noreturn secondary_cpu_online(unsigned int cpu);

#endif
