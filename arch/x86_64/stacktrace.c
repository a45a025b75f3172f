/*
 * Backtraces by walking the frame-pointer chain (the kernel is built with
 * -fno-omit-frame-pointer): each frame is [saved rbp][return address], and
 * the entry code starts the chain with rbp = 0. A corrupted chain must not
 * fault the reporter, so every frame is checked to be mapped, aligned and
 * above the previous one before it is read.
 */
#include <arch.h>
#include <ksyms.h>
#include "x86.h"

#define MAX_FRAMES 32

static void print_frame(uint64_t addr)
{
	uint64_t off = 0;
	const char *sym = ksym_lookup(addr, &off);

	if (sym)
		pr_emerg("  [<%016llx>] %s+0x%llx\n", (unsigned long long)addr, sym,
			 (unsigned long long)off);
	else
		pr_emerg("  [<%016llx>] ?\n", (unsigned long long)addr);
}

static bool frame_readable(uint64_t rbp)
{
	int level;

	if (rbp & 7 || rbp < 0xffff800000000000ull)
		return false;
	/* Both words of the frame must be mapped (they may straddle pages). */
	return paging_lookup(rbp, &level) && paging_lookup(rbp + 15, &level);
}

void dump_stack_from(uint64_t rip, uint64_t rbp)
{
	print_frame(rip);
	for (int depth = 0; rbp && depth < MAX_FRAMES; depth++) {
		uint64_t *frame = (uint64_t *)rbp;

		if (!frame_readable(rbp)) {
			pr_emerg("  (frame pointer %016llx is not a valid frame)\n",
				 (unsigned long long)rbp);
			return;
		}
		if (frame[1])
			print_frame(frame[1] - 1); /* -1: inside the call insn */
		if (frame[0] && frame[0] <= rbp) {
			pr_emerg("  (frame chain goes backwards at %016llx)\n",
				 (unsigned long long)rbp);
			return;
		}
		rbp = frame[0];
	}
}

void arch_dump_stack(void)
{
	uint64_t rbp = (uint64_t)__builtin_frame_address(0);

	dump_stack_from((uint64_t)__builtin_return_address(0), *(uint64_t *)rbp);
}

unsigned int arch_stack_trace_save(unsigned long *entries, unsigned int max, unsigned int skip)
{
	uint64_t rbp = (uint64_t)__builtin_frame_address(0);
	unsigned int n = 0;

	for (int depth = 0; rbp && n < max && depth < MAX_FRAMES; depth++) {
		uint64_t *frame = (uint64_t *)rbp;

		if (!frame_readable(rbp))
			break;
		if (frame[1] && skip)
			skip--;
		else if (frame[1])
			entries[n++] = frame[1] - 1;
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
	return n;
}

void arch_stack_trace_print(const unsigned long *entries, unsigned int n)
{
	for (unsigned int i = 0; i < n && entries[i]; i++)
		print_frame(entries[i]);
}
