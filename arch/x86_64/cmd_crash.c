/*
 * `crash KIND`: raise an exception on purpose, to see (and test) what a
 * kernel fault reports: vector, decoded error code, CR2, registers and a
 * symbolized backtrace on every console, then a clean halt. Each kind is
 * its own noinline function so the backtrace names it.
 */
#include <sched.h>
#include <shell.h>
#include "x86.h"

#define CRASH_ADDRESS 0xdeadbeef000ull /* user half, never mapped */

static noinline void crash_page_fault(void)
{
	*(volatile uint64_t *)CRASH_ADDRESS = 1;
}

static noinline void crash_invalid_opcode(void)
{
	__asm__ volatile("ud2");
}

static noinline void crash_general_protection(void)
{
	/* A non-canonical address: #GP, not #PF. */
	*(volatile uint64_t *)0x8000000000000000ull = 1;
}

static noinline void crash_divide_error(void)
{
	__asm__ volatile("xor %%ecx, %%ecx; div %%ecx" : : : "eax", "ecx", "edx");
}

static noinline void crash_breakpoint(void)
{
	__asm__ volatile("int3");
}

/* Recurse into the guard page below the stack: the #PF cannot be
 * delivered on the dead stack, so the CPU raises #DF on its IST stack. */
static noinline unsigned crash_stack_overflow(volatile unsigned depth)
{
	volatile char pad[256];

	pad[0] = (char)depth;
	if (depth == UINT32_MAX) /* never: keeps the compiler from objecting */
		return 0;
	return crash_stack_overflow(depth + 1) + pad[0];
}

/* On whatever stack the caller is on: the boot stack from the shell. */
static void crash_stack_overflow_here(void)
{
	crash_stack_overflow(0);
}

/*
 * `crash stack`: overflow a task's kernel stack (vmalloc'ed, guard page
 * below). The shell runs on the boot stack, not on a task's, so this
 * makes a task (copy_process), makes it current as a switch to it would,
 * and runs the recursion on its stack (call_on_stack). The other way,
 * giving init_task a vmalloc'ed stack and moving the shell onto it,
 * would run every command on 16 KiB instead of the boot stack's 32 KiB;
 * this overflows exactly the kind of stack tasks run on and changes
 * nothing else. `crash bootstack` overflows the shell's own stack.
 */
static noinline void crash_task_stack_overflow(void)
{
	struct task_struct *task = copy_process(), *prev = current;

	if (!task) {
		pr_err("crash: no memory for a task\n");
		return;
	}
	percpu.current_task = task;
	call_on_stack((char *)task->stack + THREAD_SIZE, crash_stack_overflow_here);
	percpu.current_task = prev; /* never reached: the recursion does not end */
	free_task(task);
}

static int cmd_crash(int argc, char **argv)
{
	static const struct {
		const char *kind;
		void (*fn)(void);
	} kinds[] = {
		{ "pf", crash_page_fault },
		{ "ud", crash_invalid_opcode },
		{ "gp", crash_general_protection },
		{ "de", crash_divide_error },
		{ "bp", crash_breakpoint },
		{ "stack", crash_task_stack_overflow },
		{ "bootstack", crash_stack_overflow_here },
	};

	if (argc != 2)
		return CMD_USAGE;
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strcmp(argv[1], kinds[i].kind) == 0)
			kinds[i].fn();
	if (strcmp(argv[1], "panic") == 0)
		panic("crash: panic requested from the shell");
	return CMD_USAGE;
}

DEFINE_SHELL_COMMAND(crash, "crash pf|ud|gp|de|bp|stack|bootstack|panic",
		     "raise an exception on purpose to see the fault report (halts)");
