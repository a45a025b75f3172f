/* The frame every trap stub pushes (arch/x86_64/trap_entry.asm). */
#ifndef FOLIUM_ASM_TRAP_H
#define FOLIUM_ASM_TRAP_H

#include <stdint.h>

struct trap_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rbp, rdi, rsi, rdx, rcx, rbx, rax;
	uint64_t vector, error_code;
	/* pushed by the CPU */
	uint64_t rip, cs, rflags, rsp, ss;
};

#define IRQ_BASE 32 /* legacy IRQ n arrives as vector IRQ_BASE + n */
#define NR_LEGACY_IRQS 16
/* The local APIC's own vectors, as Linux numbers them
 * (arch/x86/include/asm/irq_vectors.h): far above the PICs' 32..47. */
#define LOCAL_TIMER_VECTOR 0xec
#define REBOOT_VECTOR 0xf8		 /* smp_send_stop: halt */
#define CALL_FUNCTION_SINGLE_VECTOR 0xfb /* smp_call_function_* (kernel/smp.c) */
#define SPURIOUS_APIC_VECTOR 0xff

#endif
