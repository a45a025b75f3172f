/*
 * The arch hooks: everything generic code needs from the machine. Both
 * arch/x86_64 (the real machine) and arch/host (a user process that runs the
 * generic code for unit tests) implement every function here; a missing hook
 * is a link error, never a silent fallback.
 */
#ifndef FOLIUM_ARCH_H
#define FOLIUM_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct boot_info;
/* Boot steps kmain calls, in this order. arch_early_console: output on
 * the machine's simplest console (serial), before anything else works.
 * arch_setup: CPU tables, the kernel's page tables, the cycle counter.
 * arch_late_setup: input devices and interrupts, the last step before the
 * shell. */
void arch_early_console(void);
void arch_setup(const struct boot_info *bi);
void arch_late_setup(void);
/* A human-readable CPU name ("Intel(R) Core(TM) i5-..."). */
const char *arch_cpu_name(void);
/* Return: the hypervisor or emulator we run under ("TCGTCGTCGTCG",
 * "KVMKVMKVM"), or NULL on bare metal / as a host process. Benchmarks
 * print it, because emulated timings only compare as ratios. */
const char *arch_hypervisor(void);
/* What benchmark records say about the machine (include/benchrec.h). */
struct arch_machine_info {
	const char *source;   /* "kernel" on the machine, "host" as a process */
	const char *features; /* CPU features clearing depends on: "erms,fsrm", "none" */
	uint64_t tsc_hz;      /* the TSC's rate; 0 if unknown */
	uint64_t ram_bytes;   /* RAM the machine has */
};
void arch_machine_info(struct arch_machine_info *info);

/* Wait until an interrupt (or input) may have arrived; may return at once. */
void arch_idle(void);
/* Stop this CPU for good, interrupts off. */
void arch_halt(void) __attribute__((noreturn));
/* Return: whether interrupts are off on this CPU (Linux: irqs_disabled). */
bool arch_irqs_disabled(void);
/* Disable interrupts. Return: a cookie for arch_irq_restore(). */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);
/* Enable interrupts (Linux: local_irq_enable). */
void arch_irq_enable(void);

/* More CPUs (kernel/smp.c calls these; <smp.h> has the rest).
 * arch_smp_prepare_cpus: register the firmware's CPUs with
 * set_cpu_possible/set_cpu_present (CPU 0 is the boot CPU), at most
 * smp_cpu_limit(), reporting the rest. arch_cpu_up: start @cpu on @idle's
 * stack, wait until it is online (it calls secondary_cpu_online).
 * Return: 0, or -EIO if it did not answer in time; with @test_no_answer
 * the CPU is started but told to stop before answering (the test of that
 * path). The IPIs: the function-call vector to one CPU, or to each of a
 * mask; the target runs generic_smp_call_function_single_interrupt. */
struct task_struct;
struct cpumask;
void arch_smp_prepare_cpus(void);
int arch_cpu_up(unsigned int cpu, struct task_struct *idle, bool test_no_answer);
void arch_send_call_function_single_ipi(unsigned int cpu);
void arch_send_call_function_ipi_mask(const struct cpumask *mask);

/* A cycle counter and its calibrated rate (TSC on x86_64). */
uint64_t arch_cycles(void);
uint64_t arch_cycles_per_sec(void);
/* Nanoseconds since boot, from the cycle counter. */
uint64_t arch_uptime_ns(void);
/* The clock event device (Linux: clockevents_program_event): interrupt
 * at @expires (ns since boot; INT64_MAX: none) to run the hrtimers, or at
 * the next tick if that comes first. A periodic tick ignores it: the
 * timers then run at the first tick after their expiry. */
void arch_clockevent_program(int64_t expires);

/* Return only if the machine could not be reset or powered off. */
void arch_reboot(void);
void arch_poweroff(void);

/* Virtual memory (mm/ calls these; <vm.h> has the rest): */
/* Invalidate one page's translation, or all of the current mm's. */
void arch_flush_tlb_one(unsigned long addr);
void arch_flush_tlb_all(void);
/* Make the top table at physical address pgd the active one (CR3);
 * pgd 0 means the kernel's own top table. */
void arch_switch_mm(uint64_t pgd);
/* Fill a new top-level table's kernel half (entries 256..511) so every
 * address space shares the kernel; the lower half stays empty. */
void arch_pgd_init(uint64_t *pgd);
/* Map page frame @pfn at @addr in the vmalloc range [VMALLOC_START,
 * VMALLOC_END), for every address space: read/write, never executable,
 * global (Linux: vmap_pte_range's set_pte_at(&init_mm, ..., PAGE_KERNEL)).
 * No flush: the entry was empty. Return: 0, or -ENOMEM when a page table
 * could not be had. An address outside the range is a bug (panic). */
int arch_map_kernel_page(unsigned long addr, unsigned long pfn);
/* Empty the vmalloc-range entry at @addr (nothing if it is empty); the
 * caller flushes the TLB (Linux: vunmap_pte_range, then
 * flush_tlb_kernel_range). The page tables stay, as in Linux. */
void arch_unmap_kernel_page(unsigned long addr);

/* The clearing instructions clear_pages() (mm/clear.c) chooses between,
 * and whether the CPU makes `rep stosb` the fast one (ERMS or FSRM). */
void arch_clear_stosb(void *addr, unsigned long bytes);
void arch_clear_stosq(void *addr, unsigned long bytes);
bool arch_has_fast_stosb(void);

/* Print "  <symbol>+0xoff" for each frame of the caller's stack. */
void arch_dump_stack(void);
/* Linux: stack_trace_save. The return addresses of the caller's stack,
 * the innermost @skip frames left out, into @entries (at most @max).
 * Return: how many were stored. arch_stack_trace_print: one line each,
 * with the symbol where the arch knows it (zeros end the list). */
unsigned int arch_stack_trace_save(unsigned long *entries, unsigned int max, unsigned int skip);
void arch_stack_trace_print(const unsigned long *entries, unsigned int n);

/* Can a PUD entry map 1 GiB (x86's PDPE1GB, Linux's X86_FEATURE_GBPAGES)?
 * mm/hugetlb.c registers the 1 GiB HugeTLB size only then. */
bool arch_has_gbpages(void);

/* Back the struct pages of pfns [start_pfn, end_pfn) in the vmemmap array
 * with zeroed memory, keeping what is already backed (Linux:
 * vmemmap_populate). Context: boot, before memblock hands memory over. */
void arch_vmemmap_populate(unsigned long start_pfn, unsigned long end_pfn);

/* Tasks (arch/x86_64/process.c; the host keeps copy_thread only): */
struct task_struct;
struct kernel_clone_args;
/* Set up @p's kernel stack so that its first switch-in runs @args->fn
 * (a kernel thread) or returns to ring 3 through its user registers
 * (Linux: copy_thread). */
void copy_thread(struct task_struct *p, const struct kernel_clone_args *args);
/* Switch the CPU from @prev (current) to @next: registers, stack,
 * `current`, the kernel stack of ring-3 entries, the user's FS/GS bases
 * (Linux: switch_to). Return: in @next's context, the task that ran
 * before it. Context: interrupts off. */
struct task_struct *arch_switch_to(struct task_struct *prev, struct task_struct *next);
/* The program @task will run: its next return to ring 3 is at @ip with
 * @sp, every other register zero (Linux: start_thread). */
void start_thread(struct task_struct *task, unsigned long ip, unsigned long sp);
/* AT_HWCAP: CPUID.1:EDX, as Linux's ELF_HWCAP. */
uint64_t arch_elf_hwcap(void);

/* The arch's part of a task (both arches; Linux: arch_dup_task_struct,
 * arch_release_task_struct). copy_process calls the first for each new
 * child of @src (current): on x86-64 it gets its FPU state, a copy of a
 * program's registers or the init state. Return: 0 or -ENOMEM. free_task
 * calls the second, which frees what the first made (or nothing). */
int arch_dup_task_struct(struct task_struct *dst, struct task_struct *src);
void arch_release_task_struct(struct task_struct *tsk);

#endif
