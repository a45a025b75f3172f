/*
 * /proc/stat (Linux: fs/proc/stat.c show_stat): the CPU's time by kind in
 * clock ticks (USER_HZ), for all CPUs and for cpu0 (the one CPU), then
 * interrupts, context switches, boot time, forks and task counts:
 *   cpu  user nice system idle iowait irq softirq steal guest guest_nice
 *   cpu0 ...
 *   intr TOTAL IRQ0 ... IRQ15
 *   ctxt N / btime SECONDS / processes N / procs_running N / procs_blocked N
 *   softirq TOTAL and ten counts
 * user, nice and system are sampled at the tick; idle is the idle task's
 * runtime, so a `sleep 1` adds about 100 to it and a program spinning in
 * ring 3 nothing. Folium has no block I/O: iowait and procs_blocked are
 * 0 (Linux's procs_blocked counts tasks in I/O wait), as are the columns
 * of work Folium does not do (irq and softirq time, steal, guests).
 */
#include <kernel_stat.h>
#include <sched.h>
#include <seq_file.h>
#include <timekeeping.h>

static void show_cpu_line(struct seq_file *m, const char *name)
{
	seq_printf(m, "%s %llu %llu %llu %llu 0 0 0 0 0 0\n", name,
		   (unsigned long long)nsec_to_clock_t(kcpustat[CPUTIME_USER]),
		   (unsigned long long)nsec_to_clock_t(kcpustat[CPUTIME_NICE]),
		   (unsigned long long)nsec_to_clock_t(kcpustat[CPUTIME_SYSTEM]),
		   (unsigned long long)nsec_to_clock_t(kcpustat_idle_ns()));
}

int stat_proc_show(struct seq_file *m, void *v)
{
	uint64_t irqs = kstat_arch_irqs;

	(void)v;
	show_cpu_line(m, "cpu ");
	show_cpu_line(m, "cpu0");
	for (int i = 0; i < NR_KSTAT_IRQS; i++)
		irqs += kstat_irqs[i];
	seq_printf(m, "intr %llu", (unsigned long long)irqs);
	for (int i = 0; i < NR_KSTAT_IRQS; i++)
		seq_printf(m, " %llu", (unsigned long long)kstat_irqs[i]);
	seq_printf(m, "\nctxt %llu\nbtime %llu\nprocesses %lu\nprocs_running %u\n",
		   (unsigned long long)nr_context_switches(),
		   (unsigned long long)((ktime_get_real_ns() - ktime_get_ns()) / NSEC_PER_SEC),
		   total_forks, nr_running());
	seq_puts(m, "procs_blocked 0\nsoftirq 0 0 0 0 0 0 0 0 0 0 0\n");
	return 0;
}
