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

/* Linux: cpu_relax, in a spin-wait loop. The tests' threads spin too,
 * more of them than the host has cores: a spinner gives its core to the
 * thread it waits for (a ticket lock's next owner may be descheduled). */
void host_cpu_relax(void);
static inline void cpu_relax(void)
{
	host_cpu_relax();
}

/* Nothing runs in ring 3 or switches on the host: the tests call system
 * calls as the task they made. copy_thread keeps a kernel thread's
 * function here. */
struct thread_struct {
	uint64_t sp;
	uint64_t fsbase;
	uint64_t gsbase;
	int (*fn)(void *);
	void *fn_arg;
};

#endif
