/*
 * /proc/interrupts (Linux: kernel/irq/proc.c's show_interrupts and
 * arch/x86/kernel/irq.c's arch_show_interrupts): a column per online
 * CPU; a row per legacy IRQ with a handler (the 8259s deliver them all
 * to the boot CPU), then the local APIC's own: LOC (the tick; only the
 * boot CPU's APIC timer ticks so far), CAL (function-call IPIs less the
 * TLB ones, as Linux prints it) and TLB (shootdown requests run from an
 * IPI). Example with two CPUs, after a vfree:
 *              CPU0       CPU1
 *     4:        120          0   XT-PIC    ttyS0
 *   LOC:       5233          0   Local timer interrupts
 *   CAL:          0          3   Function call interrupts
 *   TLB:          0          0   TLB shootdowns
 */
#include <kernel_stat.h>
#include <seq_file.h>
#include <smp.h>
#include <vm.h>
#include "x86.h"

/* Linux's layout: labels right-aligned in 3 columns, counts "%10u " per
 * CPU, a header of "CPU%-8d" over them. */
static void row_label(struct seq_file *m, const char *label)
{
	seq_printf(m, "%3s: ", label);
}

int interrupts_proc_show(struct seq_file *m, void *v)
{
	unsigned int cpu;

	(void)v;
	seq_printf(m, "%11s", "");
	for_each_online_cpu(cpu) seq_printf(m, "CPU%-8u", cpu);
	seq_putc(m, '\n');
	for (unsigned int irq = 0; irq < NR_KSTAT_IRQS; irq++) {
		char label[8];

		if (!irq_name(irq))
			continue;
		ksnprintf(label, sizeof(label), "%u", irq);
		row_label(m, label);
		for_each_online_cpu(cpu)
			seq_printf(m, "%10llu ", cpu ? 0ull : (unsigned long long)kstat_irqs[irq]);
		seq_printf(m, "  XT-PIC    %s\n", irq_name(irq));
	}
	row_label(m, "LOC");
	for_each_online_cpu(cpu)
		seq_printf(m, "%10llu ", cpu ? 0ull : (unsigned long long)kstat_arch_irqs);
	seq_puts(m, "  Local timer interrupts\n");
	row_label(m, "CAL");
	for_each_online_cpu(cpu)
	{
		unsigned long calls = irq_call_count[cpu], tlb = tlb_flush_ipis_received[cpu];

		seq_printf(m, "%10lu ", calls > tlb ? calls - tlb : 0);
	}
	seq_puts(m, "  Function call interrupts\n");
	row_label(m, "TLB");
	for_each_online_cpu(cpu) seq_printf(m, "%10lu ", tlb_flush_ipis_received[cpu]);
	seq_puts(m, "  TLB shootdowns\n");
	return 0;
}
