/*
 * panic: report an unrecoverable kernel state on every console, with a
 * backtrace, and halt. A panic inside a panic only halts: the first
 * report is the useful one. The other CPUs are stopped first, so
 * nothing changes under the report.
 */
#include <arch.h>
#include <kernel.h>
#include <smp.h>

void panic(const char *fmt, ...)
{
	static bool panicking;
	char msg[256];
	va_list ap;

	arch_irq_save();
	/* Linux: panic_cpu. The first CPU to panic reports; any other one
	 * (or a panic in this report) halts. */
	if (__atomic_exchange_n(&panicking, true, __ATOMIC_SEQ_CST))
		arch_halt();
	smp_send_stop();
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
