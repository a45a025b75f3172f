/*
 * panic: report an unrecoverable kernel state on every console, with a
 * backtrace, and halt. A panic inside a panic only halts: the first
 * report is the useful one.
 */
#include <arch.h>
#include <kernel.h>

void panic(const char *fmt, ...)
{
	static bool panicking;
	char msg[256];
	va_list ap;

	arch_irq_save();
	if (panicking)
		arch_halt();
	panicking = true;
	console_flush_on_panic();
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_emerg("Kernel panic: %s\n", msg);
	pr_emerg("Backtrace:\n");
	arch_dump_stack();
	pr_emerg("---[ end Kernel panic: system halted, reset the machine to continue ]---\n");
	arch_halt();
}
