/*
 * What the files of arch/x86_64 share with each other and with kmain:
 * bring-up steps, interrupt plumbing, CPU features. Grouped by the file
 * that implements them. Instructions with side effects are static inline
 * in <asm/...>: control registers in special_insns.h, port I/O and MSRs
 * in io.h. Drivers are reached through what they register (consoles,
 * request_irq), so no two files here call each other by name.
 */
#ifndef FOLIUM_X86_H
#define FOLIUM_X86_H

#include <boot_info.h>
#include <kernel.h>
#include <asm/trap.h>

/* cpu.c: CPUID feature detection. */
struct cpu_features {
	char vendor[13];
	char brand[49];
	uint32_t family, model, stepping;
	bool erms, fsrm, nx, pdpe1gb, la57, invariant_tsc, hypervisor;
	bool smep; /* CR4.SMEP: ring 0 never runs a user page */
	bool x2apic, apic, pat, tsc_deadline;
	bool xsave, avx, avx512f;   /* the XSAVE components fpu.c may enable */
	char hypervisor_vendor[13]; /* "TCGTCGTCGTCG" under QEMU TCG */
	uint32_t tsc_crystal_hz;    /* CPUID 0x15, 0 if not reported */
	uint32_t tsc_ratio_num, tsc_ratio_den;
	uint32_t phys_addr_bits, virt_addr_bits;
};
extern struct cpu_features cpu;
void cpu_detect(void);
/* Linux: cpuid_count. r[] gets EAX, EBX, ECX, EDX of @leaf, @subleaf. */
void cpuid_count(uint32_t leaf, uint32_t subleaf, uint32_t r[4]);

/* cpuinfo.c: the `cpuinfo` view of cpu, clear_pages' choice and tsc_hz. */
void cpu_print_info(void);

/* gdt.c: GDT, TSS, the double-fault IST stack and the per-CPU area.
 * The order after the kernel's two is what SYSRET needs (Linux's
 * __USER32_CS, __USER_DS, __USER_CS): STAR's user base 0x18 gives SS =
 * 0x18 + 8 = USER_DS and CS = 0x18 + 16 = USER_CS. 0x18 stays null: no
 * 32-bit programs. */
#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define USER32_CS 0x18
/* rflags bits (SDM vol. 1, 3.4.3). */
#define X86_EFLAGS_TF (1ull << 8)
#define X86_EFLAGS_IF (1ull << 9)
#define X86_EFLAGS_DF (1ull << 10)
#define X86_EFLAGS_NT (1ull << 14)
#define X86_EFLAGS_RF (1ull << 16)
#define X86_EFLAGS_AC (1ull << 18)
#define USER_DS (0x20 | 3)
#define USER_CS (0x28 | 3)
#define TSS_SEL 0x30
#define IST_DOUBLE_FAULT 1
#define IST_NMI 2
struct cpu_tables;
struct percpu;
/* The boot CPU's tables and GS. */
void gdt_init(void);
/* Another CPU's: @tables (zeroed, cpu_tables_size() bytes) and @area
 * become its GDT, TSS, IST stacks and GS (Linux: cpu_init). */
size_t cpu_tables_size(void);
void gdt_init_secondary(struct cpu_tables *tables, struct percpu *area);
/* Load the shared IDT on this CPU. */
void idt_load(void);
/* The stack the CPU switches to on a trap from ring 3 (TSS.rsp0), and the
 * one the syscall entry loads. */
void set_kernel_stack(uint64_t top);

/* The per-CPU area, reached through GS in the kernel (MSR_GS_BASE; swapgs
 * swaps it with the user's MSR_KERNEL_GS_BASE at every ring change).
 * syscall_entry.asm uses the offsets below: keep them in step. Each CPU
 * has its own, with its own GDT and TSS (struct cpu_tables, gdt.c). */
struct percpu {
	struct percpu *self;
	uint64_t kernel_stack;		  /* top of the running task's kernel stack */
	uint64_t user_rsp;		  /* scratch: the user rsp at syscall entry */
	struct task_struct *current_task; /* `current` (<asm/current.h>) */
	unsigned int cpu_number;	  /* smp_processor_id() (<asm/smp.h>) */
	uint32_t apic_id;		  /* whom an IPI to this CPU goes to */
	struct cpu_tables *tables;	  /* its GDT, TSS and IST stacks */
};
#define PERCPU_KERNEL_STACK 8
#define PERCPU_USER_RSP 16
/* PERCPU_CURRENT 24: <asm/current.h>; PERCPU_CPU_NUMBER 32: <asm/smp.h> */
/* Every CPU's area, by CPU number (NULL: not started); the boot CPU's is
 * static, the others' are allocated when they start. */
extern struct percpu *per_cpu_area[];

/* This CPU's area (its self pointer, read through GS). */
static inline struct percpu *this_cpu_area(void)
{
	struct percpu *p;

	__asm__("movq %%gs:0, %0" : "=r"(p));
	return p;
}

#define MSR_EFER 0xc0000080
#define MSR_STAR 0xc0000081
#define MSR_LSTAR 0xc0000082
#define MSR_SYSCALL_MASK 0xc0000084
#define MSR_FS_BASE 0xc0000100
#define MSR_GS_BASE 0xc0000101
#define MSR_KERNEL_GS_BASE 0xc0000102

/* syscall.c: SYSCALL/SYSRET set-up, do_syscall_64, the ring-3 entry and
 * the end of a user task (exit or a fatal exception in ring 3). */
void syscall_init(void);
/* A trap from ring 3 that the kernel cannot resolve: queue its signal
 * (force_sig_fault) and, if that will kill, report it as Linux's
 * show_signal_msg does. exit_to_user_mode then delivers it. */
void user_fault(struct trap_frame *frame);
struct task_struct;
/* Linux: task_pt_regs. The ring-3 registers of @t, saved at the top of
 * its kernel stack; NULL unless @t is the running program. */
struct trap_frame *task_pt_regs(const struct task_struct *t);

/* signal.c: Linux's exit_to_user_mode_loop. Deliver every pending
 * unblocked signal of the running task by pointing @regs at handler
 * frames, or end the task. Context: the last step before any return to
 * ring 3 (syscall exit, trap and interrupt exit from ring 3). */
void exit_to_user_mode(struct trap_frame *regs);
/* Record the trap for the next frame's sigcontext (trapno, err, cr2). */
void signal_note_trap(uint64_t trap_nr, uint64_t error_code, uint64_t cr2);

/* idt.c: every vector to its trap_entry.asm stub, which calls
 * trap_dispatch() (traps.c, the exception reporter). */
void idt_init(void);

/* fault.c: a #PF in the lower half. Return: true if it was resolved
 * (retry) or fixed up (resume in a uaccess fixup); false: fatal. */
bool do_page_fault(struct trap_frame *frame);
/* Why the last ring-3 fault could not be resolved (set by do_page_fault,
 * read once by user_fault for its si_code). vm.h's enum is an int here. */
extern int user_fault_reason;

/* irq.c: legacy PIC (8259), the tick, and the PIT when it is the tick. */
typedef void (*irq_handler_t)(struct trap_frame *frame);
/* Also call the handler on every timer tick: for an input device whose
 * interrupt the firmware may have left unrouted. The handler must then
 * cope with finding nothing to do. */
#define IRQF_TICK_POLL 0x1
/* The PICs, the local APIC (lapic_init), the tick's clock, then sti. */
void irq_init(void);
/* Route legacy IRQ irq (0..15) to handler and unmask it, named @name in
 * /proc/interrupts (Linux: request_irq(), without sharing: a second request for a line panics).
 * Context: boot, before or after irq_init(); handlers run with
 * interrupts off. */
void request_irq(unsigned irq, irq_handler_t handler, unsigned int flags, const char *name);
/* The name a legacy IRQ's handler was requested with; NULL if none. */
const char *irq_name(unsigned irq);
void irq_dispatch(struct trap_frame *frame);
/* Linux: tick_handle_periodic (tick_periodic: do_timer, then
 * update_process_times, where a scheduler's scheduler_tick() goes). The
 * one function every tick calls, whichever clock drives it: jiffies++,
 * then each IRQF_TICK_POLL handler. Context: interrupts off. */
void tick_handle_periodic(struct trap_frame *frame);
extern volatile uint64_t jiffies;

/* apic.c: the local APIC, and its timer as the tick (Linux:
 * arch/x86/kernel/apic/apic.c). Register offsets: <asm/apicdef.h>. */
enum lapic_timer_mode {
	LAPIC_TIMER_OFF, /* the PIT ticks (irq.c) */
	LAPIC_TIMER_PERIODIC,
	LAPIC_TIMER_TSC_DEADLINE,
	/* The LAPIC timer counting down once per event, reloaded for the
	 * next tick or hrtimer (the TSC keeps the tick's pace): where there
	 * is no TSC-deadline but the TSC's rate is known. */
	LAPIC_TIMER_ONESHOT,
};
extern enum lapic_timer_mode lapic_timer_mode;
/* Bus clocks per jiffy before the divide-by-16 (Linux's name); periodic
 * and one-shot modes only. */
extern uint32_t lapic_timer_period;
/* Enable the APIC with the PICs behind it (LINT0 ExtINT, LINT1 NMI), its
 * timer masked. Return: false if the CPU has no usable local APIC. */
bool lapic_init(void);
/* Start the tick from the LAPIC timer, as the CPU and lapic= /
 * nolapic_timer allow, and print which. Return: true if it ticks; false
 * with *why_not set: the caller must tick from the PIT. Context: after
 * lapic_init and tsc_calibrate, interrupts off. */
bool apic_timer_init(const char **why_not);
/* LOCAL_TIMER_VECTOR's handler (Linux: sysvec_apic_timer_interrupt). */
void local_apic_timer_interrupt(struct trap_frame *frame);
/* Another CPU's APIC, in the boot CPU's mode (x2APIC or xAPIC), with
 * LINT0 masked: only the boot CPU takes the PICs' interrupts. */
void lapic_init_secondary(void);
/* Whether lapic_init found a usable APIC; whether it is in x2APIC mode. */
bool lapic_present(void);
bool lapic_x2apic_mode(void);
/* This CPU's APIC ID (Linux: read_apic_id). */
uint32_t read_apic_id(void);
/* Send: the ICR's low half (vector, delivery mode, level) to @apic_id. */
void apic_icr_write(uint32_t low, uint32_t apic_id);
/* A fixed interrupt at @vector to @apic_id (Linux: apic->send_IPI). */
void apic_send_IPI(uint32_t apic_id, unsigned int vector);
/* End the in-service interrupt (an IPI's handler). */
void apic_eoi_irq(void);
/* Context: after lapic_init returned true. */
uint32_t apic_read(uint32_t reg);
void apic_write(uint32_t reg, uint32_t v);
/* The TSC-deadline tick's next deadline: @period after @last, keeping the
 * TSC's pace however late the interrupt ran; if that has passed already
 * (interrupts were off for over a tick), @period after @now: missed ticks
 * are lost, as with the PIT. */
uint64_t tsc_deadline_after(uint64_t last, uint64_t now, uint64_t period);

/* tsc.c: calibrate the TSC against the PIT (or read CPUID 0x15). */
void tsc_calibrate(void);
extern uint64_t tsc_hz;
extern bool tsc_rate_known; /* false: neither worked, tsc_hz is a guess */
/* Busy-wait (Linux: udelay, mdelay): by the TSC once calibrated, else
 * about 1 us per port 0x80 write. */
void udelay(uint64_t us);
void mdelay(unsigned int ms);
/* Return: how far read_counter() moved per second over one countdown of
 * the PIT's channel 2; 0 if the PIT never counted. */
uint64_t pit_measure_rate(uint64_t (*read_counter)(void));

/* serial.c: 16550 UART on COM1. */
void serial_console_init(void); /* probe, register, request IRQ 4 */
bool serial_present(void);
void serial_write_raw(const char *s, size_t n); /* usable in any state */

/* i8042.c: the PS/2 keyboard controller, feeding keymap_feed() output to
 * console_input(). Probes quietly (no controller is normal on new PCs)
 * and requests IRQ 1, polled on the tick too. */
void i8042_init(void);

/* memmap.c: the highest page-aligned @size bytes below @limit (and above
 * page 0) that the firmware's map calls free once boot services are
 * gone; 0 if none. The first 1 MiB is memblock-reserved as a whole, so
 * nothing else takes them. */
uint64_t efi_low_free_range(const struct boot_info *bi, uint64_t size, uint64_t limit);

/* smpboot.c: the other CPUs. smp_reserve_trampoline finds the trampoline's
 * pages below 1 MiB (Linux: reserve_real_mode), at boot. The arch hooks
 * of <arch.h> (arch_smp_prepare_cpus, arch_cpu_up, the IPIs) live there
 * too. call_function_single_interrupt: CALL_FUNCTION_SINGLE_VECTOR's. */
void smp_reserve_trampoline(const struct boot_info *bi);
void call_function_single_interrupt(void);
/* REBOOT_VECTOR's handler (smp_send_stop's IPI): halt this CPU. */
void __noreturn stop_this_cpu(void);

/* paging.c: the kernel's own page tables. */
void paging_init(const struct boot_info *bi);
/* Return: the PTE-level flags mapping va in the current tables, 0 if
 * unmapped; *level gets 1 (4K), 2 (2M) or 3 (1G). For tests and dumps. */
uint64_t paging_lookup(uint64_t va, int *level);
/* The kernel's top table, whose upper half every mm shares (tlb.c). */
uint64_t *paging_kernel_pml4(void);
/* Map a device or firmware range into the direct map (uncached / write-
 * back) if it is not mapped yet. Return: its virtual address, __va(phys). */
void *ioremap(uint64_t phys, uint64_t size);
void *memremap(uint64_t phys, uint64_t size);

/* memmap.c: the UEFI memory map as memblock memory and reservations. */
struct memblock;
void memblock_from_efi(struct memblock *mb, const struct boot_info *bi);

/* entry.asm: run fn on another stack, whose top (16-byte aligned) is
 * @top, and return to the caller's (Linux: call_on_stack). */
void call_on_stack(void *top, void (*fn)(void));

/* stacktrace.c */
void dump_stack_from(uint64_t rip, uint64_t rbp);

#endif
