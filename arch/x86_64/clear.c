/*
 * The two instructions clear_pages() (mm/clear.c) chooses between. Since
 * Ivy Bridge (ERMS) and Ice Lake / Zen 3 (FSRM) `rep stosb` is the fastest
 * way to clear an extent: microcode picks the store width and, for long
 * runs, cache-bypassing stores. Older CPUs do better with `rep stosq`.
 * Linux: clear_pages() in arch/x86/include/asm/page_64.h (ALTERNATIVE_2 on
 * X86_FEATURE_ERMS).
 */
#include <vm.h>
#include "x86.h"

void arch_clear_stosb(void *addr, unsigned long bytes)
{
	__asm__ volatile("rep stosb" : "+D"(addr), "+c"(bytes) : "a"(0) : "memory");
}

void arch_clear_stosq(void *addr, unsigned long bytes)
{
	unsigned long qwords = bytes / 8;

	__asm__ volatile("rep stosq" : "+D"(addr), "+c"(qwords) : "a"(0) : "memory");
}

bool arch_has_fast_stosb(void)
{
	return cpu.erms || cpu.fsrm;
}
