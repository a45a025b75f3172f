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
/* Disable interrupts. Return: a cookie for arch_irq_restore(). */
unsigned long arch_irq_save(void);
void arch_irq_restore(unsigned long flags);

/* A cycle counter and its calibrated rate (TSC on x86_64). */
uint64_t arch_cycles(void);
uint64_t arch_cycles_per_sec(void);
/* Nanoseconds since boot, from the cycle counter. */
uint64_t arch_uptime_ns(void);

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

/* Can a PUD entry map 1 GiB (x86's PDPE1GB, Linux's X86_FEATURE_GBPAGES)?
 * mm/hugetlb.c registers the 1 GiB HugeTLB size only then. */
bool arch_has_gbpages(void);

/* Back the struct pages of pfns [start_pfn, end_pfn) in the vmemmap array
 * with zeroed memory, keeping what is already backed (Linux:
 * vmemmap_populate). Context: boot, before memblock hands memory over. */
void arch_vmemmap_populate(unsigned long start_pfn, unsigned long end_pfn);

/* Programs in ring 3 (arch/x86_64/syscall.c; the kernel only): */
struct task_struct;
/* Run @task in ring 3 from its thread.ip and thread.sp (start_thread)
 * until do_exit. Context: its mm is current. Return: the status do_exit
 * was given. */
int arch_run_user(struct task_struct *task);
/* Leave the running program for good, back into arch_run_user's caller. */
void __attribute__((noreturn)) arch_exit_user(int status);
/* AT_HWCAP: CPUID.1:EDX, as Linux's ELF_HWCAP. */
uint64_t arch_elf_hwcap(void);

#endif
