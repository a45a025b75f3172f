/*
 * Host build: the user half is x86-64's with 4-level paging, as in the
 * kernel (arch/x86_64/include/asm/processor.h), so the host tests check
 * the same limits; a task has no registers to keep.
 */
#ifndef FOLIUM_ASM_PROCESSOR_H
#define FOLIUM_ASM_PROCESSOR_H

#include <stdint.h>
#include <asm/page.h>

#define TASK_SIZE_MAX ((1ul << 47) - PAGE_SIZE)
#define TASK_SIZE TASK_SIZE_MAX
#define STACK_TOP TASK_SIZE

#define THREAD_SIZE 16384ul

/* Nothing runs in ring 3 on the host: the tests call system calls. */
struct thread_struct {
	uint64_t fsbase;
	uint64_t gsbase;
	uint64_t ip, sp; /* where the program starts (start_thread) */
};

/* Linux: start_thread. exec's last step: the task's next entry into
 * ring 3 is at @ip with @sp, with no TLS base yet. */
static inline void start_thread(struct thread_struct *thread, uint64_t ip, uint64_t sp)
{
	thread->ip = ip;
	thread->sp = sp;
	thread->fsbase = thread->gsbase = 0;
}

#endif
