/*
 * clear_pages() for the host process: the host is x86_64 too, so it runs
 * the kernel's two instructions, `rep stosb` when CPUID leaf 7 reports
 * ERMS or FSRM, `rep stosq` otherwise (the choice is mm/clear.c's). Host-native benchmarks of the
 * instructions are the ones to believe: under QEMU's TCG `rep stosb` is emulated. Example:
 * clear_pages(p, 16) is one `rep stosb` with rcx = 65536.
 */
#include <arch.h>
#include <cpuid.h>
#include <vm.h>

void arch_clear_stosb(void *addr, unsigned long bytes)
{
	__asm__ volatile("rep stosb" : "+D"(addr), "+c"(bytes) : "a"(0) : "memory");
}

void arch_clear_stosq(void *addr, unsigned long bytes)
{
	unsigned long qwords = bytes / 8;

	__asm__ volatile("rep stosq" : "+D"(addr), "+c"(qwords) : "a"(0) : "memory");
}

/* CPUID leaf 7: ERMS is EBX bit 9, FSRM is EDX bit 4. Asked once: under
 * a hypervisor CPUID exits to it, and clear_pages() asks on every call
 * (the kernel's arch keeps the bits from boot the same way). */
bool arch_has_fast_stosb(void)
{
	static int fast = -1;
	unsigned int eax, ebx, ecx, edx;

	if (fast < 0)
		fast = __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) &&
		       ((ebx & (1u << 9)) || (edx & (1u << 4)));
	return fast;
}
