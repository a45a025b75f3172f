/*
 * CPU masks, boot-time bring-up and cross-CPU function calls (Linux:
 * kernel/cpu.c, kernel/smp.c, init/main.c's smp_init). The arch finds
 * the CPUs (arch_smp_prepare_cpus: x86 reads the ACPI MADT), starts one
 * (arch_cpu_up: INIT-SIPI-SIPI) and sends IPIs; this file decides which
 * CPUs to start and runs the queued calls.
 *
 * Example, `-smp 4 maxcpus=3`: CPUs 0-3 are possible and present; CPUs 1
 * and 2 are started, each on an idle task of its own; CPU 3 stays
 * present and offline, as /sys/devices/system/cpu/offline then says.
 */
#include <arch.h>
#include <errno.h>
#include <hardirq.h>
#include <sched.h>
#include <slab.h>
#include <smp.h>

struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
unsigned int nr_cpu_ids = 1;
unsigned long irq_call_count[NR_CPUS];
unsigned long ipis_sent[NR_CPUS];
unsigned int hardirq_nesting[NR_CPUS];

/* Linux: call_single_queue, one per CPU. */
static struct llist_head call_single_queue[NR_CPUS];
/* Linux: csd_data, the asynchronous single call's csd, one per CPU. */
static struct call_single_data csd_data[NR_CPUS];
/* Linux: cfd_data. smp_call_function_many's csds: this CPU's one per
 * target CPU, allocated when the CPU comes online. */
static struct call_single_data *cfd_data[NR_CPUS];

void set_cpu_possible(unsigned int cpu, bool possible)
{
	if (possible) {
		cpumask_set_cpu(cpu, &__cpu_possible_mask);
		nr_cpu_ids = MAX(nr_cpu_ids, cpu + 1);
	} else {
		cpumask_clear_cpu(cpu, &__cpu_possible_mask);
	}
}

void set_cpu_present(unsigned int cpu, bool present)
{
	if (present)
		cpumask_set_cpu(cpu, &__cpu_present_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_present_mask);
}

void set_cpu_online(unsigned int cpu, bool online)
{
	if (online)
		cpumask_set_cpu(cpu, &__cpu_online_mask);
	else
		cpumask_clear_cpu(cpu, &__cpu_online_mask);
}

CMDLINE_KEY(nr_cpus, "N: use at most N CPUs (Linux: nr_cpus=); the firmware's others are left out");
CMDLINE_KEY(maxcpus, "N: start at most N CPUs at boot (Linux: maxcpus=); the rest stay offline");

/* A positive CPU count from @key's value, or @dflt (reported if bad). */
static unsigned int cpu_count_param(const char *key, const char *arg, unsigned int dflt)
{
	uint64_t v;

	if (!arg)
		return dflt;
	if (kstrtou64(arg, &v) < 0 || v < 1) {
		pr_err("cmdline: %s=%s is not a CPU count of 1 or more; ignored\n", key, arg);
		return dflt;
	}
	return v < dflt ? (unsigned int)v : dflt;
}

unsigned int smp_cpu_limit(void)
{
	return cpu_count_param("nr_cpus", boot_cmdline_get(nr_cpus), NR_CPUS);
}

static bool csd_locked(const struct call_single_data *csd)
{
	return __atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK;
}

/* Linux: csd_lock_wait. The csd is free again once its call ran. */
static void csd_lock_wait(const struct call_single_data *csd)
{
	while (csd_locked(csd))
		cpu_relax();
}

static void csd_lock(struct call_single_data *csd)
{
	csd_lock_wait(csd);
	csd->flags |= CSD_FLAG_LOCK;
	smp_wmb(); /* the lock is seen before the func and info it guards */
}

static void csd_unlock(struct call_single_data *csd)
{
	__atomic_store_n(&csd->flags, 0, __ATOMIC_RELEASE);
}

/* Linux: __smp_call_single_queue. Return: whether @cpu needs an IPI:
 * only the first call on an empty queue sends one. */
static bool call_single_queue_add(unsigned int cpu, struct call_single_data *csd)
{
	return llist_add(&csd->node, &call_single_queue[cpu]);
}

/* Lock @csd (once its last call ran), fill it and queue it on @cpu.
 * Return: whether @cpu needs an IPI. */
static bool csd_queue(unsigned int cpu, struct call_single_data *csd, smp_call_func_t func,
		      void *info, bool wait)
{
	csd_lock(csd);
	csd->func = func;
	csd->info = info;
	if (wait)
		csd->flags |= CSD_TYPE_SYNC;
	return call_single_queue_add(cpu, csd);
}

static void send_call_function_single_ipi(unsigned int cpu)
{
	ipis_sent[smp_processor_id()]++;
	arch_send_call_function_single_ipi(cpu);
}

void generic_smp_call_function_single_interrupt(void)
{
	unsigned int cpu = smp_processor_id();
	struct llist_node *entry = llist_reverse_order(llist_del_all(&call_single_queue[cpu]));

	irq_call_count[cpu]++;
	while (entry) {
		struct call_single_data *csd = (struct call_single_data *)entry;
		smp_call_func_t func = csd->func;
		void *info = csd->info;

		entry = entry->next; /* before the unlock: the csd may be reused */
		if (csd->flags & CSD_TYPE_SYNC) {
			func(info);
			csd_unlock(csd);
		} else {
			/* Linux: an async csd is unlocked first, so func may
			 * queue it again. */
			csd_unlock(csd);
			func(info);
		}
	}
}

static void call_on_this_cpu(smp_call_func_t func, void *info)
{
	unsigned long flags = arch_irq_save();

	func(info);
	arch_irq_restore(flags);
}

int smp_call_function_single(unsigned int cpu, smp_call_func_t func, void *info, bool wait)
{
	struct call_single_data stack_csd = { .flags = 0 }, *csd;

	if (cpu == smp_processor_id()) {
		call_on_this_cpu(func, info);
		return 0;
	}
	if (!cpu_online(cpu))
		return -ENXIO;
	if (wait && arch_irqs_disabled())
		panic("smp_call_function_single: waiting with interrupts off can deadlock");
	csd = wait ? &stack_csd : &csd_data[smp_processor_id()];
	if (csd_queue(cpu, csd, func, info, wait))
		send_call_function_single_ipi(cpu);
	if (wait)
		csd_lock_wait(csd);
	return 0;
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func, void *info, bool wait)
{
	unsigned int this_cpu = smp_processor_id(), cpu;
	struct call_single_data *cfd = cfd_data[this_cpu];
	struct cpumask targets, ipi;

	cpumask_and(&targets, mask, cpu_online_mask);
	cpumask_clear_cpu(this_cpu, &targets);
	if (cpumask_empty(&targets))
		return;
	if (wait && arch_irqs_disabled())
		panic("smp_call_function_many: waiting with interrupts off can deadlock");
	BUG_ON(!cfd); /* set up when this CPU came online */
	cpumask_clear(&ipi);
	for_each_cpu(cpu, &targets)
	{
		if (csd_queue(cpu, &cfd[cpu], func, info, wait))
			cpumask_set_cpu(cpu, &ipi);
	}
	/* Linux: one IPI to one CPU, else the mask at once (x2APIC and
	 * xAPIC send them one by one anyway; the count is per target). */
	if (cpumask_weight(&ipi) == 1) {
		send_call_function_single_ipi(cpumask_first(&ipi));
	} else if (!cpumask_empty(&ipi)) {
		ipis_sent[this_cpu] += cpumask_weight(&ipi);
		arch_send_call_function_ipi_mask(&ipi);
	}
	if (wait)
		for_each_cpu(cpu, &targets) csd_lock_wait(&cfd[cpu]);
}

void on_each_cpu(smp_call_func_t func, void *info, bool wait)
{
	smp_call_function_many(cpu_online_mask, func, info, wait);
	call_on_this_cpu(func, info);
}

int smpcfd_prepare_cpu(unsigned int cpu)
{
	if (!cfd_data[cpu])
		cfd_data[cpu] = kzalloc(nr_cpu_ids * sizeof(struct call_single_data), GFP_KERNEL);
	return cfd_data[cpu] ? 0 : -ENOMEM;
}

void smpcfd_dead_cpu(unsigned int cpu)
{
	kfree(cfd_data[cpu]);
	cfd_data[cpu] = NULL;
}

/* Each CPU's idle task, made at its first cpu_up (Linux: idle_threads). */
static struct task_struct *idle_threads[NR_CPUS];

CMDLINE_KEY(smp_fail_cpu, "N: test hook: CPU N is started but never answers, as a broken one");
static unsigned int test_fail_cpu = NR_CPUS; /* smp_fail_cpu= */

int cpu_up(unsigned int cpu)
{
	struct task_struct *idle;
	int err;

	if (!cpu_present(cpu))
		return -ENODEV;
	if (cpu_online(cpu))
		return 0;
	err = smpcfd_prepare_cpu(cpu);
	idle = err ? NULL : idle_threads[cpu] ? idle_threads[cpu] : fork_idle(cpu);
	if (!idle)
		return -ENOMEM;
	/* Linux: idle_threads_get. The idle task stays the CPU's, even if
	 * it did not come online: it may have started on that stack. */
	idle_threads[cpu] = idle;
	return arch_cpu_up(cpu, idle, cpu == test_fail_cpu);
}

void __noreturn secondary_cpu_online(unsigned int cpu)
{
	set_cpu_online(cpu, true); /* the boot CPU's cpu_up waits for this */
	cpu_idle_secondary();
}

void smp_init(void)
{
	unsigned int max = cpu_count_param("maxcpus", boot_cmdline_get(maxcpus), NR_CPUS);
	const char *fail = boot_cmdline_get(smp_fail_cpu);
	uint64_t fail_cpu = NR_CPUS;
	unsigned int cpu, failed = 0;

	if (fail && (kstrtou64(fail, &fail_cpu) < 0 || fail_cpu == 0 || fail_cpu >= NR_CPUS)) {
		pr_err("cmdline: smp_fail_cpu=%s is not a CPU number 1..%d; ignored\n", fail,
		       NR_CPUS - 1);
		fail_cpu = NR_CPUS;
	}
	test_fail_cpu = (unsigned int)fail_cpu;
	set_cpu_possible(0, true);
	set_cpu_present(0, true);
	set_cpu_online(0, true);
	arch_smp_prepare_cpus(); /* the firmware's CPUs into possible/present */
	if (smpcfd_prepare_cpu(0))
		panic("smp: no memory for the boot CPU's call data");
	if (num_present_cpus() > 1)
		pr_info("smp: Bringing up secondary CPUs ...\n");
	for_each_present_cpu(cpu)
	{
		int err;

		if (cpu_online(cpu))
			continue;
		if (num_online_cpus() >= max) {
			pr_info("smp: maxcpus=%u: CPU %u stays offline\n", max, cpu);
			continue;
		}
		err = cpu_up(cpu);
		if (err) {
			failed++;
			pr_err("smp: CPU %u did not start (error %d); going on without it\n", cpu,
			       err);
		}
	}
	pr_info("smp: Brought up 1 node, %u CPU%s%s\n", num_online_cpus(),
		num_online_cpus() == 1 ? "" : "s", failed ? " (some failed: see above)" : "");
}
