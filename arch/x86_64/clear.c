/*
 * clear_pages(): zero whole pages with one string instruction. Since Ivy
 * Bridge (ERMS) and Ice Lake / Zen 3 (FSRM) `rep stosb` is the fastest way
 * to clear an extent: microcode picks the store width and, for long runs,
 * cache-bypassing stores. Older CPUs do better with `rep stosq`. Example:
 * clear_pages(p, 512) on an ERMS CPU is one `rep stosb` with rcx = 2 MiB.
 * Linux: clear_pages() in arch/x86/include/asm/page_64.h (ALTERNATIVE_2 on
 * X86_FEATURE_ERMS); here a branch on the instruction chosen at boot.
 */
#include <vm.h>
#include "x86.h"

enum clear_insn { CLEAR_STOSB, CLEAR_STOSQ };
static const char *const clear_insn_names[] = { "stosb", "stosq" };
static bool clear_insn_chosen;	/* by clear_pages= or a test */
static enum clear_insn clear_insn;

static void rep_stosb(void *addr, unsigned long bytes)
{
	__asm__ volatile("rep stosb" : "+D"(addr), "+c"(bytes) : "a"(0) : "memory");
}

static void rep_stosq(void *addr, unsigned long bytes)
{
	unsigned long qwords = bytes / 8;

	__asm__ volatile("rep stosq" : "+D"(addr), "+c"(qwords) : "a"(0) : "memory");
}

/* Until something chooses, follow CPUID (cpu_detect runs in arch_setup). */
static enum clear_insn current_insn(void)
{
	if (clear_insn_chosen)
		return clear_insn;
	return cpu.erms || cpu.fsrm ? CLEAR_STOSB : CLEAR_STOSQ;
}

void clear_pages(void *addr, unsigned int npages)
{
	unsigned long bytes = (unsigned long)npages * PAGE_SIZE;

	if (current_insn() == CLEAR_STOSB)
		rep_stosb(addr, bytes);
	else
		rep_stosq(addr, bytes);
}

const char *arch_clear_pages_name(void)
{
	return clear_insn_names[current_insn()];
}

int arch_clear_pages_select(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(clear_insn_names); i++) {
		if (strcmp(name, clear_insn_names[i]) == 0) {
			clear_insn = (enum clear_insn)i;
			clear_insn_chosen = true;
			return 0;
		}
	}
	return -EINVAL;
}
