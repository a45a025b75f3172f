/*
 * The arch hooks as an ordinary process, so generic code runs in the host
 * test program (under ASan/UBSan). There are no interrupts, so "irq save"
 * is a no-op; the cycle counter is CLOCK_MONOTONIC in nanoseconds; the
 * consoles are stdout. Halting a host process means aborting it loudly.
 */
#define _POSIX_C_SOURCE 200809L
#include <arch.h>
#include <kernel.h>
#include <ksyms.h>
#include <ktest.h>
#include <signal.h>
#include <smp.h>
#include <timekeeping.h>
#include <execinfo.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The host binary embeds no symbol table: backtraces print addresses. */
const unsigned long ksyms_count = 0;
const struct ksym ksyms_table[1];
const char ksyms_names[1];

static uint64_t host_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void arch_idle(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
}

void arch_halt(void)
{
	fflush(stdout);
	abort();
}

/* Linux: panic. The kernel's prints the report on every console and
 * halts; a host test program says why and aborts, so the run fails. */
void panic(const char *fmt, ...)
{
	va_list ap;

	kprintf("Kernel panic - not syncing: ");
	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	arch_halt();
}

/* `current` (<asm/current.h>): init_task until a test sets it. */
struct task_struct *host_current;

/* The interrupt flag of each modelled CPU (arch/host/smp.c): nothing
 * interrupts a host test, but code that checks the flag (the lock
 * checker, smp_call_function's wait) sees what the kernel would. */
bool host_irqs_off[NR_CPUS];

void arch_irq_enable(void)
{
	host_irqs_off[host_cpu] = false;
}

unsigned long arch_irq_save(void)
{
	bool was_off = host_irqs_off[host_cpu];

	host_irqs_off[host_cpu] = true;
	return was_off;
}

void arch_irq_restore(unsigned long flags)
{
	host_irqs_off[host_cpu] = flags != 0;
}

bool arch_irqs_disabled(void)
{
	return host_irqs_off[host_cpu];
}

uint64_t arch_cycles(void)
{
	return host_ns();
}

uint64_t arch_cycles_per_sec(void)
{
	return 1000000000ull;
}

uint64_t arch_uptime_ns(void)
{
	static uint64_t start;

	if (!start)
		start = host_ns();
	return host_ns() - start;
}

/* The host has no timer interrupt: a test runs the queues itself. */
void arch_clockevent_program(int64_t expires)
{
}

void arch_reboot(void)
{
}

void arch_poweroff(void)
{
}

void arch_dump_stack(void)
{
	fprintf(stderr, "  (host: no kernel backtrace; run under a debugger)\n");
}

unsigned int arch_stack_trace_save(unsigned long *entries, unsigned int max, unsigned int skip)
{
	void *frames[64];
	int n = backtrace(frames, 64);
	unsigned int stored = 0;

	for (int i = (int)skip + 1; i < n && stored < max; i++)
		entries[stored++] = (unsigned long)frames[i];
	return stored;
}

void arch_stack_trace_print(const unsigned long *entries, unsigned int n)
{
	for (unsigned int i = 0; i < n && entries[i]; i++) {
		void *addr = (void *)entries[i];
		char **name = backtrace_symbols(&addr, 1);

		kprintf("  [<%016lx>] %s\n", entries[i], name ? name[0] : "?");
		free(name);
	}
}

void ktest_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/* A host task has no registers of its own to copy or free. */
int arch_dup_task_struct(struct task_struct *dst, struct task_struct *src)
{
	return 0;
}

void arch_release_task_struct(struct task_struct *tsk)
{
}

/* No task runs in ring 3 on the host: 0, as for the kernel's own tasks. */
uint64_t arch_user_sp(const struct task_struct *t)
{
	(void)t;
	return 0;
}

/* The host's own real-time clock stands for the machine's RTC. */
int64_t arch_rtc_read_seconds(void)
{
	return (int64_t)time(NULL);
}
