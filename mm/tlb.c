/*
 * The loaded mm of each CPU and TLB flushing across CPUs, as Linux does
 * it on x86 (arch/x86/mm/tlb.c), without PCIDs yet:
 *
 *   mm_cpumask(mm)  the CPUs that may cache mm's translations: a CPU sets
 *                   its bit when it loads mm (switch_mm) and clears it
 *                   when it loads another;
 *   mm->tlb_gen     bumped by every flush request (inc_mm_tlb_gen);
 *   cpu_tlbstate    per CPU: the loaded mm and the tlb_gen its TLB has
 *                   caught up with.
 *
 * flush_tlb_mm_range bumps tlb_gen, sends one IPI batch to the other
 * CPUs of mm_cpumask and waits (smp_call_function_many_cond), and runs
 * the same flush_tlb_func here if this CPU has mm loaded. flush_tlb_func
 * compares generations: a CPU already at mm's tlb_gen (a later request
 * flushed everything first) does nothing; one exactly one request behind
 * flushes that request's range; one further behind flushes everything.
 * A range of at most tlb_single_page_flush_ceiling (33) entries is
 * invalidated entry by entry (invlpg), a larger one by a full flush.
 * Example: 33 pages → 33 invlpg; 34 pages → one CR3 reload; a 2 MiB leaf
 * → one invlpg (stride PMD_SHIFT).
 *
 * The mm counters record the flushes the code requests, whichever CPUs
 * run them: they are the evidence the batching tests assert on, the
 * same on the host as in the kernel. tlb_flush_ipis_* count the IPIs.
 */
#include <arch.h>
#include <percpu.h>
#include <smp.h>
#include <vm.h>

DEFINE_PER_CPU(struct tlb_state, cpu_tlbstate);
unsigned long tlb_flush_ipis_sent[NR_CPUS];
unsigned long tlb_flush_ipis_received[NR_CPUS];

/* Linux: switch_mm_irqs_off, without PCIDs: the CR3 load flushes the old
 * mm's entries, so this CPU leaves the old mm's cpumask at once, and
 * joins the new one's before reading its tlb_gen: a flusher bumps
 * tlb_gen, then reads the mask, so either it sees this CPU or this CPU
 * sees its generation (both orders are full barriers). */
void switch_mm(struct mm_struct *mm)
{
	unsigned long flags = arch_irq_save();
	unsigned int cpu = smp_processor_id();
	struct tlb_state *ts = this_cpu_ptr(cpu_tlbstate);
	struct mm_struct *prev = ts->loaded_mm;

	if (prev && prev != mm)
		cpumask_clear_cpu(cpu, mm_cpumask(prev));
	if (mm) {
		cpumask_set_cpu(cpu, mm_cpumask(mm));
		smp_mb();
		ts->loaded_mm_tlb_gen = __atomic_load_n(&mm->tlb_gen, __ATOMIC_SEQ_CST);
	}
	ts->loaded_mm = mm;
	arch_switch_mm(mm ? mm->pgd : 0);
	arch_irq_restore(flags);
}

/* Linux: inc_mm_tlb_gen. Return: the new generation, this request's. */
static uint64_t inc_mm_tlb_gen(struct mm_struct *mm)
{
	return __atomic_add_fetch(&mm->tlb_gen, 1, __ATOMIC_SEQ_CST);
}

/* Linux: flush_tlb_func. On every CPU the request reaches, interrupts
 * off (an IPI's handler, or the local call). */
static void flush_tlb_func(void *arg)
{
	const struct flush_tlb_info *f = arg;
	struct tlb_state *ts = this_cpu_ptr(cpu_tlbstate);
	uint64_t local_gen, mm_gen;
	unsigned long nr;

	if (smp_processor_id() != f->initiating_cpu)
		tlb_flush_ipis_received[smp_processor_id()]++;
	if (!f->mm) {
		/* A reclaim batch (arch_tlbbatch_flush): everything, and the
		 * loaded mm is caught up with whatever the batch bumped. */
		arch_flush_tlb_all();
		if (ts->loaded_mm)
			ts->loaded_mm_tlb_gen =
				__atomic_load_n(&ts->loaded_mm->tlb_gen, __ATOMIC_SEQ_CST);
		return;
	}
	if (ts->loaded_mm != f->mm)
		return; /* switched away since: the CR3 load flushed it */
	local_gen = ts->loaded_mm_tlb_gen;
	mm_gen = __atomic_load_n(&f->mm->tlb_gen, __ATOMIC_SEQ_CST);
	if (local_gen == mm_gen)
		return; /* a full flush for a later request already ran here */
	nr = (f->end - f->start) >> f->stride_shift;
	if (f->end != TLB_FLUSH_ALL && f->new_tlb_gen == local_gen + 1 &&
	    f->new_tlb_gen == mm_gen && nr <= TLB_SINGLE_PAGE_FLUSH_CEILING) {
		for (unsigned long addr = f->start; addr < f->end; addr += 1ul << f->stride_shift)
			arch_flush_tlb_one(addr);
	} else {
		arch_flush_tlb_all();
	}
	ts->loaded_mm_tlb_gen = mm_gen;
}

/* Linux: flush_tlb_multi. One IPI batch to the CPUs of @cpus but this
 * one, waited for. */
static void flush_tlb_multi(const struct cpumask *cpus, struct flush_tlb_info *info)
{
	unsigned int cpu = smp_processor_id();
	struct cpumask others;

	cpumask_copy(&others, cpus);
	cpumask_clear_cpu(cpu, &others);
	if (cpumask_empty(&others))
		return;
	tlb_flush_ipis_sent[cpu] += cpumask_weight(&others);
	smp_call_function_many(&others, flush_tlb_func, info, true);
}

void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift)
{
	struct flush_tlb_info info = {
		.mm = mm,
		.start = start,
		.end = end,
		.stride_shift = stride_shift,
	};
	unsigned long flags;

	if (end != TLB_FLUSH_ALL && start >= end)
		return;
	/* What the request asks for, as the ceiling decides it. */
	if (end != TLB_FLUSH_ALL &&
	    ((end - start) >> stride_shift) <= TLB_SINGLE_PAGE_FLUSH_CEILING) {
		mm->counters[MM_TLB_FLUSH_ONE] += (end - start) >> stride_shift;
	} else {
		mm->counters[MM_TLB_FLUSH_ALL]++;
		info.start = 0;
		info.end = TLB_FLUSH_ALL;
	}
	info.new_tlb_gen = inc_mm_tlb_gen(mm);
	info.initiating_cpu = smp_processor_id();
	flush_tlb_multi(mm_cpumask(mm), &info);
	flags = arch_irq_save();
	if (this_cpu_read(cpu_tlbstate).loaded_mm == mm)
		flush_tlb_func(&info);
	arch_irq_restore(flags);
}

void flush_tlb_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	flush_tlb_mm_range(mm, start, end, PAGE_SHIFT);
}

void flush_tlb_mm(struct mm_struct *mm)
{
	flush_tlb_mm_range(mm, 0, TLB_FLUSH_ALL, PAGE_SHIFT);
}

/* One PMD leaf's 2 MiB: one invlpg drops it (x86 flush_pmd_tlb_range uses
 * a 2 MiB stride, so the ceiling sees one entry, not 512 pages). */
void flush_pmd_tlb_range(struct mm_struct *mm, unsigned long addr)
{
	addr &= PMD_MASK;
	flush_tlb_mm_range(mm, addr, addr + PMD_SIZE, PMD_SHIFT);
}

/* invlpg of any address inside a 1 GiB page drops its whole entry. */
void flush_pud_tlb_range(struct mm_struct *mm, unsigned long addr)
{
	addr &= PUD_MASK;
	flush_tlb_mm_range(mm, addr, addr + PUD_SIZE, PUD_SHIFT);
}

unsigned long nr_tlb_batch_flushes;

/* Linux: arch_tlbbatch_add_pending (6.4's form): a new generation, so a
 * CPU that switches to mm later still flushes, and mm's CPUs join the
 * batch. No mm counter: the flush is the batch's (nr_tlb_batch_flushes). */
void arch_tlbbatch_add_pending(struct tlbflush_unmap_batch *batch, struct mm_struct *mm)
{
	inc_mm_tlb_gen(mm);
	cpumask_or(&batch->cpumask, &batch->cpumask, mm_cpumask(mm));
	batch->flush_required = true;
}

/* Linux: try_to_unmap_flush, arch_tlbbatch_flush: one IPI batch to the
 * CPUs gathered, waited for, and this CPU's flush if it is one of them. */
void try_to_unmap_flush(struct tlbflush_unmap_batch *batch)
{
	struct flush_tlb_info info = { .mm = NULL, .start = 0, .end = TLB_FLUSH_ALL };
	unsigned int cpu = smp_processor_id();
	unsigned long flags;

	if (!batch->flush_required)
		return;
	nr_tlb_batch_flushes++;
	info.initiating_cpu = cpu;
	flush_tlb_multi(&batch->cpumask, &info);
	flags = arch_irq_save();
	if (cpumask_test_cpu(cpu, &batch->cpumask))
		flush_tlb_func(&info);
	arch_irq_restore(flags);
	cpumask_clear(&batch->cpumask);
	batch->flush_required = false;
}

/* Linux: leave_mm. The CPU that has @arg loaded goes to the kernel's own
 * tables. */
static void leave_mm(void *arg)
{
	if (this_cpu_read(cpu_tlbstate).loaded_mm == arg)
		switch_mm(NULL);
}

void mm_leave_all_cpus(struct mm_struct *mm)
{
	struct cpumask others;

	cpumask_copy(&others, mm_cpumask(mm));
	cpumask_clear_cpu(smp_processor_id(), &others);
	if (!cpumask_empty(&others))
		smp_call_function_many(&others, leave_mm, mm, true);
	leave_mm(mm);
}

unsigned long nr_kernel_tlb_flush_one;

/* The kernel half on this CPU (an IPI's handler, or the local call). */
static void flush_kernel_range_func(void *arg)
{
	const unsigned long *range = arg;

	for (unsigned long addr = range[0]; addr < range[1]; addr += PAGE_SIZE)
		arch_flush_tlb_one(addr);
}

/*
 * Every mm shares the kernel half, so every online CPU flushes. Always
 * page by page: the kernel's entries are global, which a CR3 reload keeps
 * (Linux, past its ceiling, flushes everything, globals too, with a
 * CR4.PGE toggle; Folium has no such hook and vfree's ranges are small).
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	unsigned long range[2] = { start, end };

	if (start >= end)
		return;
	nr_kernel_tlb_flush_one += (end - start) >> PAGE_SHIFT;
	on_each_cpu(flush_kernel_range_func, range, true);
}
