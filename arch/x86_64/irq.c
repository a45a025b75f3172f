/*
 * Hardware interrupts through the legacy path every PC still has: the two
 * 8259 PICs (remapped to vectors 32..47) behind the local APIC in "virtual
 * wire" mode (apic.c), and the tick: tick_handle_periodic() at CONFIG_HZ,
 * driven by the local APIC timer (apic.c) or, without a usable one, by the
 * PIT's channel 0 on IRQ 0. When the APIC ticks, channel 0 is stopped and
 * IRQ 0 stays masked: there is exactly one tick. Drivers hand their
 * handler to request_irq(); irq_dispatch() only knows this table, never a
 * driver by name. The tick is what bounds every hlt: a handler requested
 * with IRQF_TICK_POLL (an input device that may lose its interrupt) also
 * runs once per tick. Example: the UART asks for IRQ 4 with
 * IRQF_TICK_POLL, so typed bytes arrive within 1/CONFIG_HZ even when the
 * firmware left IRQ 4 unrouted.
 */
#include <arch.h>
#include <kernel_stat.h>
#include <sched.h>
#include <asm/i8253.h>
#include <asm/io.h>
#include "x86.h"

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20

volatile uint64_t jiffies;
static struct irq_action {
	irq_handler_t handler;
	unsigned int flags; /* IRQF_* */
	const char *name;   /* /proc/interrupts' last column */
} irq_actions[NR_LEGACY_IRQS];
static uint16_t irq_mask = 0xffff & ~(1u << 2); /* cascade always open */

static void pic_write_mask(void)
{
	outb(PIC1_DATA, irq_mask & 0xff);
	outb(PIC2_DATA, irq_mask >> 8);
}

/* ICW1..ICW4: edge triggered, cascade on IRQ 2, 8086 mode. */
static void pic_remap(void)
{
	outb(PIC1_CMD, 0x11);
	io_delay();
	outb(PIC2_CMD, 0x11);
	io_delay();
	outb(PIC1_DATA, IRQ_BASE);
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 1 << 2);
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 0x01);
	outb(PIC2_DATA, 0x01);
	io_delay();
	pic_write_mask();
}

static void pit_start_tick(void)
{
	uint16_t divisor = PIT_TICK_RATE / CONFIG_HZ;

	outb(PIT_MODE, 0x34); /* channel 0, lo/hi byte, mode 2 (rate gen) */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
}

/* Linux: pit_shutdown. Mode 0 with a count of 0: OUT rises once, 65536
 * counts (55 ms) on, then never again; IRQ 0 stays masked besides. The
 * firmware may have left channel 0 running. */
static void pit_stop_tick(void)
{
	outb(PIT_MODE, 0x30); /* channel 0, lo/hi byte, mode 0 */
	outb(PIT_CH0, 0);
	outb(PIT_CH0, 0);
}

void tick_handle_periodic(struct trap_frame *frame)
{
	jiffies++;
	/* Linux: update_process_times, the tick's accounting then the
	 * scheduler's share. */
	account_process_tick(current, (frame->cs & 3) == 3);
	scheduler_tick();
	for (unsigned irq = 0; irq < NR_LEGACY_IRQS; irq++)
		if (irq_actions[irq].flags & IRQF_TICK_POLL)
			irq_actions[irq].handler(frame);
}

void request_irq(unsigned irq, irq_handler_t handler, unsigned int flags, const char *name)
{
	if (irq >= NR_LEGACY_IRQS || irq_actions[irq].handler)
		panic("request_irq: irq %u %s", irq,
		      irq >= NR_LEGACY_IRQS ? "out of range" : "already taken");
	irq_actions[irq] = (struct irq_action){ handler, flags, name };
	irq_mask &= ~(1u << irq);
	if (irq >= 8)
		irq_mask &= ~(1u << 2);
	pic_write_mask();
}

void irq_dispatch(struct trap_frame *frame)
{
	unsigned irq = frame->vector - IRQ_BASE;

	/* IRQ 7/15 with no bit in the ISR are spurious: no EOI for them. */
	if (irq == 7 || irq == 15) {
		uint16_t cmd = irq == 7 ? PIC1_CMD : PIC2_CMD;

		outb(cmd, 0x0b); /* read ISR */
		if (!(inb(cmd) & 0x80)) {
			if (irq == 15)
				outb(PIC1_CMD, PIC_EOI);
			return;
		}
	}
	kstat_irqs[irq]++;
	if (irq_actions[irq].handler)
		irq_actions[irq].handler(frame);
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
}

void irq_init(void)
{
	const char *why_not;

	pic_remap();
	lapic_init();
	if (apic_timer_init(&why_not)) {
		pit_stop_tick();
	} else {
		pit_start_tick();
		request_irq(0, tick_handle_periodic, 0, "timer");
		pr_info("irq: tick from the PIT at %d Hz (%s)\n", CONFIG_HZ, why_not);
	}
	__asm__ volatile("sti");
}

void arch_idle(void)
{
	/* sti takes effect after the next instruction, so no interrupt can
	 * slip in between enabling and halting. */
	__asm__ volatile("sti; hlt" ::: "memory");
}

void arch_halt(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

bool arch_irqs_disabled(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0" : "=r"(flags));
	return !(flags & X86_EFLAGS_IF);
}

unsigned long arch_irq_save(void)
{
	unsigned long flags;

	__asm__ volatile("pushfq; popq %0; cli" : "=r"(flags) : : "memory");
	return flags;
}

void arch_irq_enable(void)
{
	__asm__ volatile("sti" ::: "memory");
}

void arch_irq_restore(unsigned long flags)
{
	if (flags & (1ul << 9)) /* IF */
		__asm__ volatile("sti" ::: "memory");
}

const char *irq_name(unsigned irq)
{
	return irq < NR_LEGACY_IRQS ? irq_actions[irq].name : NULL;
}
