/*
 * The host's model of several CPUs: a test starts N of them
 * (host_smp_model_start: the masks and each CPU's call data, from the
 * test's node 0) and stops them again, and says which one it runs on
 * (host_cpu); smp_init would register host_nr_cpus. Starting a
 * CPU marks it online; an IPI is delivered at once, as if the target
 * took it at its next instruction: host_cpu becomes the target while its
 * handler runs, then the sender's again. So kernel/smp.c's queues, masks
 * and csd locking run as on a machine, one CPU at a time; a call that
 * never reaches its target leaves the sender waiting (the test hangs
 * rather than passing).
 */
#include <arch.h>
#include <errno.h>
#include <smp.h>

unsigned int host_cpu;

int sched_yield(void); /* libc's: <sched.h> here is the kernel's */

void host_cpu_relax(void)
{
	sched_yield();
}
unsigned int host_nr_cpus = 1;
/* IPIs the model delivered, per target. */
unsigned long host_ipis_delivered[NR_CPUS];

void arch_smp_prepare_cpus(void)
{
	unsigned int limit = smp_cpu_limit();

	for (unsigned int cpu = 0; cpu < host_nr_cpus && cpu < limit; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
	}
}

int arch_cpu_up(unsigned int cpu, struct task_struct *idle, bool test_no_answer)
{
	(void)idle;
	if (test_no_answer)
		return -EIO;
	set_cpu_online(cpu, true);
	return 0;
}

void arch_send_call_function_single_ipi(unsigned int cpu)
{
	unsigned int sender = host_cpu;

	if (!cpu_online(cpu))
		return; /* lost, as on a machine: a CPU that is off hears nothing */
	host_cpu = cpu;
	host_ipis_delivered[cpu]++;
	generic_smp_call_function_single_interrupt();
	host_cpu = sender;
}

void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask) arch_send_call_function_single_ipi(cpu);
}

void smp_send_stop(void)
{
}

void host_smp_model_start(unsigned int nr_cpus)
{
	for (unsigned int cpu = 0; cpu < nr_cpus; cpu++) {
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
		if (smpcfd_prepare_cpu(cpu))
			panic("host_smp_model_start: no memory for CPU %u's call data", cpu);
		set_cpu_online(cpu, true);
	}
}

void host_smp_model_stop(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
	{
		smpcfd_dead_cpu(cpu);
		set_cpu_online(cpu, false);
		set_cpu_present(cpu, false);
		set_cpu_possible(cpu, false);
	}
	host_cpu = 0;
}
