/*
 * clear_pages() for the host process: the host is x86_64 too, so it runs
 * the kernel's two instructions, `rep stosb` when CPUID leaf 7 reports
 * ERMS (EBX bit 9) or FSRM (EDX bit 4), `rep stosq` otherwise, and the
 * same select/name API. Host-native benchmarks of the instructions are
 * the ones to believe: under QEMU's TCG `rep stosb` is emulated.
 * Example: clear_pages(p, 16) is one `rep stosb` with rcx = 65536.
 */
#include <cpuid.h>
#include <vm.h>

enum clear_insn { CLEAR_STOSB, CLEAR_STOSQ };
static const char *const clear_insn_names[] = { "stosb", "stosq" };
static bool clear_insn_chosen;
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

static enum clear_insn cpuid_default(void)
{
	unsigned int eax, ebx, ecx, edx;

	if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx))
		return CLEAR_STOSQ;
	return (ebx & (1u << 9)) || (edx & (1u << 4)) ? CLEAR_STOSB : CLEAR_STOSQ;
}

static enum clear_insn current_insn(void)
{
	if (!clear_insn_chosen) {
		clear_insn = cpuid_default();
		clear_insn_chosen = true;
	}
	return clear_insn;
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
