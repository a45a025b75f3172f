/*
 * The user half of the address space and the per-task arch state (Linux:
 * arch/x86/include/asm/processor.h, page_64_types.h). Example: with
 * 4-level paging a program's addresses end at TASK_SIZE, 0x7ffffffff000.
 */
#ifndef FOLIUM_ASM_PROCESSOR_H
#define FOLIUM_ASM_PROCESSOR_H

#include <stdint.h>
#include <asm/fpu.h>
#include <asm/page.h>

/* The lower half less its top page, as Linux's TASK_SIZE_MAX: x86-64
 * keeps the last page unmapped so a SYSRET can never return to a
 * non-canonical rip. */
#define TASK_SIZE_MAX ((1ul << 47) - PAGE_SIZE)
#define TASK_SIZE TASK_SIZE_MAX /* one size: no 32-bit tasks */
#define STACK_TOP TASK_SIZE	/* no randomization */

/* A task's kernel stack (Linux: THREAD_SIZE with KASAN off). */
#define THREAD_SIZE 16384ul

/* Linux: cpu_relax. In a spin-wait loop: PAUSE tells the CPU (and its
 * hyperthread sibling) that this is a wait, saving power and the memory-
 * order mis-speculation at the loop's exit. */
static inline void cpu_relax(void)
{
	__asm__ volatile("pause" ::: "memory");
}

/* What the arch keeps per task (Linux: struct thread_struct): its
 * kernel rsp while it is switched out (the callee-saved registers are on
 * that stack), the user's FS and GS bases, which live in MSRs while it
 * runs, and the FPU/SSE/AVX state (<asm/fpu.h>: saved and loaded by
 * fpu_switch at every switch). */
struct thread_struct {
	uint64_t sp;
	uint64_t fsbase;
	uint64_t gsbase;
	struct fpu fpu;
};

#endif
