/*
 * What happens on a trap: trap_entry.asm's stubs (the IDT, idt.c, points
 * at them) call trap_dispatch(). An exception in ring 3 is a signal to the
 * program (user_fault, syscall.c). In ring 0 every exception is fatal
 * (but a page fault in the lower half that fault.c resolves or fixes up):
 * it is reported on every console (vector name, decoded error code, CR2
 * for page faults, all registers, a symbolized backtrace) and the CPU
 * halts with interrupts off; a double fault that a stack's guard page
 * caused says so first ("kernel stack overflow"). Hardware interrupts go
 * to irq_dispatch(), the local APIC timer's to local_apic_timer_interrupt()
 * (apic.c).
 * Whatever came from ring 3 leaves through exit_to_user_mode (signal.c).
 */
#include <arch.h>
#include <ksyms.h>
#include <sched.h>
#include <asm/special_insns.h>
#include <hardirq.h>
#include <smp.h>
#include "x86.h"

static const char *const exception_names[32] = {
	[0] = "Divide Error (#DE)",
	[1] = "Debug (#DB)",
	[2] = "Non-Maskable Interrupt (NMI)",
	[3] = "Breakpoint (#BP)",
	[4] = "Overflow (#OF)",
	[5] = "BOUND Range Exceeded (#BR)",
	[6] = "Invalid Opcode (#UD)",
	[7] = "Device Not Available (#NM)",
	[8] = "Double Fault (#DF)",
	[9] = "Coprocessor Segment Overrun",
	[10] = "Invalid TSS (#TS)",
	[11] = "Segment Not Present (#NP)",
	[12] = "Stack-Segment Fault (#SS)",
	[13] = "General Protection (#GP)",
	[14] = "Page Fault (#PF)",
	[16] = "x87 Floating-Point Error (#MF)",
	[17] = "Alignment Check (#AC)",
	[18] = "Machine Check (#MC)",
	[19] = "SIMD Floating-Point Exception (#XM)",
	[20] = "Virtualization Exception (#VE)",
	[21] = "Control Protection (#CP)",
	[28] = "Hypervisor Injection (#HV)",
	[29] = "VMM Communication (#VC)",
	[30] = "Security Exception (#SX)",
};

/*
 * Page-fault error code (SDM vol. 3A, 4.7):
 *   bit 0 P     0 = page not present, 1 = protection violation
 *   bit 1 W/R   access was a write
 *   bit 2 U/S   access came from user mode
 *   bit 3 RSVD  a reserved bit was set in a paging entry
 *   bit 4 I/D   instruction fetch
 *   bit 5 PK    protection key   bit 6 SS  shadow stack   bit 15 SGX
 */
static void decode_page_fault(uint64_t err, char *buf, size_t size)
{
	ksnprintf(buf, size, "%s, %s, %s mode%s%s%s%s",
		  err & 1 ? "protection violation" : "page not present",
		  err & 16  ? "instruction fetch"
		  : err & 2 ? "write"
			    : "read",
		  err & 4 ? "user" : "kernel", err & 8 ? ", reserved bit set" : "",
		  err & 32 ? ", protection key" : "", err & 64 ? ", shadow stack" : "",
		  err & 0x8000 ? ", SGX" : "");
}

/*
 * Selector error code (#TS #NP #SS #GP, SDM vol. 3A, 6.13):
 *   bit 0 EXT (external event), bit 1 IDT, bit 2 TI (LDT), bits 3-15 index
 */
static void decode_selector_error(uint64_t err, char *buf, size_t size)
{
	if (err == 0) {
		ksnprintf(buf, size, "no segment selector involved");
		return;
	}
	ksnprintf(buf, size, "%s entry %llu%s",
		  err & 2   ? "IDT"
		  : err & 4 ? "LDT"
			    : "GDT",
		  (unsigned long long)((err >> 3) & 0x1fff), err & 1 ? ", external event" : "");
}

static void report_error_code(const struct trap_frame *f)
{
	char why[128] = "";
	unsigned v = f->vector;

	if (v == 14)
		decode_page_fault(f->error_code, why, sizeof(why));
	else if (v == 10 || v == 11 || v == 12 || v == 13)
		decode_selector_error(f->error_code, why, sizeof(why));
	else if (v == 8 || v == 17)
		ksnprintf(why, sizeof(why), "always zero");
	else if (v == 21)
		ksnprintf(why, sizeof(why), "control-protection kind %llu",
			  (unsigned long long)(f->error_code & 0x7fff));
	else
		ksnprintf(why, sizeof(why), "none pushed by this exception");
	pr_emerg("error code: 0x%llx (%s)\n", (unsigned long long)f->error_code, why);
}

static void report_registers(const struct trap_frame *f)
{
	uint64_t off = 0;
	const char *sym = ksym_lookup(f->rip, &off);

	pr_emerg("RIP: %04llx:%016llx %s+0x%llx\n", (unsigned long long)f->cs,
		 (unsigned long long)f->rip, sym ? sym : "?", (unsigned long long)off);
	pr_emerg("RSP: %04llx:%016llx RFLAGS: %016llx\n", (unsigned long long)f->ss,
		 (unsigned long long)f->rsp, (unsigned long long)f->rflags);
	pr_emerg("RAX: %016llx RBX: %016llx RCX: %016llx\n", (unsigned long long)f->rax,
		 (unsigned long long)f->rbx, (unsigned long long)f->rcx);
	pr_emerg("RDX: %016llx RSI: %016llx RDI: %016llx\n", (unsigned long long)f->rdx,
		 (unsigned long long)f->rsi, (unsigned long long)f->rdi);
	pr_emerg("RBP: %016llx R08: %016llx R09: %016llx\n", (unsigned long long)f->rbp,
		 (unsigned long long)f->r8, (unsigned long long)f->r9);
	pr_emerg("R10: %016llx R11: %016llx R12: %016llx\n", (unsigned long long)f->r10,
		 (unsigned long long)f->r11, (unsigned long long)f->r12);
	pr_emerg("R13: %016llx R14: %016llx R15: %016llx\n", (unsigned long long)f->r13,
		 (unsigned long long)f->r14, (unsigned long long)f->r15);
	pr_emerg("CR0: %016llx CR3: %016llx CR4: %016llx\n", (unsigned long long)read_cr0(),
		 (unsigned long long)read_cr3(), (unsigned long long)read_cr4());
}

/* Report an exception on every console and halt. Never returns. */
static void __noreturn die(const struct trap_frame *f)
{
	static bool dying;
	const char *name = f->vector < 32 ? exception_names[f->vector] : NULL;

	if (__atomic_exchange_n(&dying, true, __ATOMIC_SEQ_CST)) {
		/* The report itself faulted (or another CPU is reporting):
		 * fall back to the barest output. */
		static const char msg[] =
			"\r\n*** nested exception while reporting a fault; halting\r\n";
		serial_write_raw(msg, sizeof(msg) - 1);
		arch_halt();
	}
	smp_send_stop();
	console_flush_on_panic();
	pr_emerg("------------[ cut here ]------------\n");
	pr_emerg("Exception %llu: %s\n", (unsigned long long)f->vector, name ? name : "Reserved");
	pr_emerg("CPU: %u PID: %d Comm: %s\n", smp_processor_id(), current->pid, current->comm);
	report_error_code(f);
	if (f->vector == 14)
		pr_emerg("CR2 (faulting address): 0x%016llx\n", (unsigned long long)read_cr2());
	if (f->vector == 8)
		pr_emerg("CR2 (last page-fault address): 0x%016llx\n",
			 (unsigned long long)read_cr2());
	report_registers(f);
	pr_emerg("Backtrace:\n");
	dump_stack_from(f->rip, f->rbp);
	pr_emerg("---[ end trace: system halted, reset the machine to continue ]---\n");
	arch_halt();
}

extern char boot_stack_bottom[], boot_stack_top[]; /* entry.asm */

/* Is addr in the page below [begin, end)? Then *stack gets the range. */
static bool in_guard_below(uint64_t addr, uint64_t begin, uint64_t end, uint64_t stack[2])
{
	if (!begin || addr >= begin || begin - addr > PAGE_SIZE)
		return false;
	stack[0] = begin;
	stack[1] = end;
	return true;
}

/*
 * Linux: get_stack_guard_info. Is addr in the guard page below a stack the
 * CPU may have run on: current's kernel stack (its guard page its own,
 * kernel/fork.c), or the boot stack, the kernel shell's (paging.c leaves
 * the page below it unmapped)? Return: true with the stack's range.
 */
static bool stack_guard_hit(uint64_t addr, uint64_t stack[2])
{
	uint64_t task_stack = (uint64_t)current->stack;

	return in_guard_below(addr, task_stack, task_stack + THREAD_SIZE, stack) ||
	       in_guard_below(addr, (uint64_t)boot_stack_bottom, (uint64_t)boot_stack_top, stack);
}

/*
 * Linux: exc_double_fault with VMAP_STACK. A kernel stack that ran into
 * its guard page takes a #PF the CPU cannot deliver (its frame would be
 * pushed on the same dead stack), so it raises #DF, which runs on its own
 * IST stack (gdt.c); CR2 holds the address the failed push or store
 * touched (SDM vol. 3A, 6.15: a #PF during a #PF's delivery still writes
 * CR2). Linux 4.9-5.x printed "BUG: stack guard page was hit at ..." and
 * died with "kernel stack overflow (double-fault)"; 7.3 prints "BUG: task
 * stack guard page was hit at ... (stack is ...)". Folium prints one line
 * with both, then the usual report.
 */
static void __noreturn handle_double_fault(const struct trap_frame *f)
{
	uint64_t cr2 = read_cr2(), stack[2];

	if (stack_guard_hit(cr2, stack))
		pr_emerg("kernel stack overflow (double-fault): 0x%016llx (stack is "
			 "0x%016llx-0x%016llx)\n",
			 (unsigned long long)cr2, (unsigned long long)stack[0],
			 (unsigned long long)stack[1]);
	die(f);
}

void trap_dispatch(struct trap_frame *frame);
static void interrupt_dispatch(struct trap_frame *frame);

void trap_dispatch(struct trap_frame *frame)
{
	/* A #PF in the lower half may be a workload's fault to resolve. */
	if (frame->vector == 14 && do_page_fault(frame))
		;
	/* An exception in ring 3 is a signal to the program, never the
	 * kernel's end. */
	else if (frame->vector < IRQ_BASE && (frame->cs & 3))
		user_fault(frame);
	else if (frame->vector == 8)
		handle_double_fault(frame);
	else if (frame->vector < IRQ_BASE)
		die(frame);
	else
		interrupt_dispatch(frame);
	/* Linux: irqentry_exit_to_user_mode. A signal sent here (a fault's,
	 * Ctrl-C's SIGINT) is delivered before ring 3 runs again. */
	if (frame->cs & 3)
		exit_to_user_mode(frame);
}

/* A device's or the local APIC's interrupt, in hard-IRQ context. */
static void interrupt_dispatch(struct trap_frame *frame)
{
	irq_enter();
	if (frame->vector < IRQ_BASE + NR_LEGACY_IRQS)
		irq_dispatch(frame);
	else if (frame->vector == LOCAL_TIMER_VECTOR)
		local_apic_timer_interrupt(frame);
	else if (frame->vector == CALL_FUNCTION_SINGLE_VECTOR)
		call_function_single_interrupt();
	else if (frame->vector == REBOOT_VECTOR)
		stop_this_cpu();
	/* The local APIC's spurious vector: no EOI, nothing to do. */
	else if (frame->vector != SPURIOUS_APIC_VECTOR)
		pr_warn("unexpected interrupt vector %llu\n", (unsigned long long)frame->vector);
	irq_exit();
}
