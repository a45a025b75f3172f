/*
 * The local APIC's registers (SDM vol. 3A, table 11-1; Linux:
 * arch/x86/include/asm/apicdef.h): offsets from its MMIO base, or in
 * x2APIC mode MSR 0x800 + offset / 16. Each register is 32 bits wide.
 */
#ifndef FOLIUM_ASM_APICDEF_H
#define FOLIUM_ASM_APICDEF_H

/* IA32_APIC_BASE: bits 12..51 the MMIO page, 11 global enable, 10 x2APIC. */
#define MSR_IA32_APICBASE 0x1b
#define MSR_IA32_APICBASE_ENABLE (1ull << 11)
#define X2APIC_ENABLE (1ull << 10)
#define MSR_IA32_APICBASE_BASE 0xffffffffff000ull
#define MSR_IA32_TSC_DEADLINE 0x6e0
#define APIC_X2APIC_MSR 0x800

#define APIC_ID 0x20
#define APIC_LVR 0x30 /* bits 0-7: version, 0x1X for an integrated APIC */
#define APIC_INTEGRATED(lvr) (((lvr)&0xf0) == 0x10)
#define APIC_TASKPRI 0x80
#define APIC_EOI 0xb0
#define APIC_SPIV 0xf0 /* bits 0-7: spurious vector, bit 8: software enable */
#define APIC_SPIV_APIC_ENABLED (1u << 8)

/*
 * The interrupt command register: writing its low half sends an IPI.
 *   bits 0-7   vector (fixed), or the start page for a STARTUP IPI
 *   bits 8-10  delivery mode: 000 fixed, 101 INIT, 110 STARTUP
 *   bit 12     delivery status (xAPIC): 1 while the previous is pending
 *   bit 14     level: 1 assert; bit 15 trigger: 1 level
 * The destination APIC ID is ICR2's top byte (xAPIC), or bits 32-63 of
 * the one 64-bit MSR (x2APIC).
 */
#define APIC_ICR 0x300
#define APIC_ICR2 0x310
#define APIC_DM_FIXED (0u << 8)
#define APIC_DM_INIT (5u << 8)
#define APIC_DM_STARTUP (6u << 8)
#define APIC_ICR_BUSY (1u << 12)
#define APIC_INT_ASSERT (1u << 14)
#define APIC_INT_LEVELTRIG (1u << 15)

/*
 * Local vector table entries (LVTT: the timer, LVT0/LVT1: the LINT pins):
 *   bits 0-7   vector
 *   bits 8-10  delivery mode (LINT only): 000 fixed, 100 NMI, 111 ExtINT
 *   bit 16     masked
 *   bits 17-18 timer mode (LVTT only): 00 one-shot, 01 periodic, 10 TSC-deadline
 */
#define APIC_LVTT 0x320
#define APIC_LVT0 0x350
#define APIC_LVT1 0x360
#define APIC_VECTOR_MASK 0xff
#define APIC_DM_NMI (4u << 8)
#define APIC_DM_EXTINT (7u << 8)
#define APIC_LVT_MASKED (1u << 16)
#define APIC_LVT_TIMER_ONESHOT (0u << 17)
#define APIC_LVT_TIMER_PERIODIC (1u << 17)
#define APIC_LVT_TIMER_TSCDEADLINE (2u << 17)
#define APIC_LVT_TIMER_MASK (3u << 17)

/* The timer's counter: loaded from TMICT, counts down at the bus clock
 * divided as TDCR says (bits 0,1,3: 0011 = divide by 16). */
#define APIC_TMICT 0x380
#define APIC_TMCCT 0x390
#define APIC_TDCR 0x3e0
#define APIC_TDR_DIV_16 0x3
#define APIC_DIVISOR 16

#endif
