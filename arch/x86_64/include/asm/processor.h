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

/* What the arch keeps per task (Linux: struct thread_struct): the
 * callee-saved registers of the kernel code that entered ring 3, which
 * the task's end returns to (syscall_entry.asm's user_mode_enter and
 * user_mode_return), the user's FS and GS bases, and the FPU/SSE/AVX
 * state (<asm/fpu.h>: saved and loaded by fpu_switch). */
struct thread_struct {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rflags;
	uint64_t fsbase;
	uint64_t gsbase;
	uint64_t ip, sp; /* where the program starts (start_thread) */
	struct fpu fpu;
};

/* Linux: start_thread. exec's last step: the task's next entry into
 * ring 3 is at @ip with @sp, with no TLS base yet, and the FPU in its
 * init state, never the last program's (Linux: flush_thread's
 * fpu_flush_thread, earlier in the same exec). */
static inline void start_thread(struct thread_struct *thread, uint64_t ip, uint64_t sp)
{
	thread->ip = ip;
	thread->sp = sp;
	thread->fsbase = thread->gsbase = 0;
	fpu_flush_thread(&thread->fpu);
}

#endif
