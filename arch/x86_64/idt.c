/*
 * The IDT: all 256 vectors point at the stubs of trap_entry.asm, which
 * save a struct trap_frame and call trap_dispatch() (traps.c). Double
 * fault and NMI run on their own IST stacks (gdt.c), so a kernel stack
 * overflow is still reported. Linux: arch/x86/kernel/idt.c.
 */
#include "x86.h"

struct idt_gate {
	uint16_t offset_low;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr; /* 0x8e: present, DPL 0, 64-bit interrupt gate */
	uint16_t offset_mid;
	uint32_t offset_high;
	uint32_t reserved;
} __packed;

static struct idt_gate idt[256];
extern const uint64_t trap_stubs[256]; /* trap_entry.asm */

#define GATE_DPL3 0x60 /* type_attr bits 5-6: ring 3 may use `int` on it */

static void set_gate(unsigned vector, uint64_t handler, unsigned ist, uint8_t dpl_bits)
{
	idt[vector] = (struct idt_gate){
		.offset_low = handler & 0xffff,
		.selector = KERNEL_CS,
		.ist = ist,
		.type_attr = 0x8e | dpl_bits,
		.offset_mid = (handler >> 16) & 0xffff,
		.offset_high = handler >> 32,
	};
}

void idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed idtr = { sizeof(idt) - 1, (uint64_t)idt };

	__asm__ volatile("lidt %0" : : "m"(idtr));
}

void idt_init(void)
{
	for (unsigned v = 0; v < 256; v++)
		set_gate(v, trap_stubs[v], 0, 0);
	set_gate(8, trap_stubs[8], IST_DOUBLE_FAULT, 0);
	set_gate(2, trap_stubs[2], IST_NMI, 0);
	/* Linux: set_system_intr_gate(X86_TRAP_BP). A program's int3 is a
	 * breakpoint (SIGTRAP), not a #GP on a ring-0 gate. */
	set_gate(3, trap_stubs[3], 0, GATE_DPL3);
	idt_load();
}
