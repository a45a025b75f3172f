/*
 * Control-register access: the one place the kernel reads or writes
 * CR0/CR2/CR3/CR4 (Linux: arch/x86/include/asm/special_insns.h).
 * Static inline, so no file depends on another's object for them.
 *   CR0 bit 16 WP: supervisor writes honour read-only pages
 *   CR2: the linear address of the last page fault
 *   CR3: physical address of the top page table (bits 12..51), PCD, PWT
 *   XCR0: the XSAVE state components enabled (bit 0 x87, 1 SSE, 2 AVX, ...)
 */
#ifndef FOLIUM_ASM_SPECIAL_INSNS_H
#define FOLIUM_ASM_SPECIAL_INSNS_H

#include <stdint.h>

static inline uint64_t read_cr0(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

static inline uint64_t read_cr2(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr2, %0" : "=r"(v));
	return v;
}

static inline uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

/* Switch page tables; drops every non-global TLB entry. */
static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline uint64_t read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

/* Linux: xgetbv/xsetbv (asm/fpu/xcr.h). XCR0 is extended control
 * register 0; writing it needs CR4.OSXSAVE. */
#define XCR_XFEATURE_ENABLED_MASK 0

static inline uint64_t xgetbv(uint32_t index)
{
	uint32_t eax, edx;

	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(index));
	return eax | ((uint64_t)edx << 32);
}

static inline void xsetbv(uint32_t index, uint64_t value)
{
	__asm__ volatile("xsetbv"
			 :
			 : "a"((uint32_t)value), "d"((uint32_t)(value >> 32)), "c"(index)
			 : "memory");
}

#endif
