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
 * below): the shell is a kernel thread, so its own stack is one. `crash
 * bootstack` runs the recursion on the boot stack instead (call_on_stack),
 * the one the idle task runs on, whose guard page is entry.asm's.
 */
extern char boot_stack_top[]; /* entry.asm */

static noinline void crash_boot_stack_overflow(void)
{
	call_on_stack(boot_stack_top, crash_stack_overflow_here);
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
		{ "stack", crash_stack_overflow_here },
		{ "bootstack", crash_boot_stack_overflow },
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
