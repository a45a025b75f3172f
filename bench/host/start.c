/*
 * What every host-native benchmark program does first: send kprintf to
 * stdout and say what it runs on, so each table carries its machine (the
 * bench records carry it too, in their @env line).
 */
#include <arch.h>
#include <bench.h>
#include <kernel.h>
#include <stdio.h>

static void stdout_write(struct console *con, const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

static struct console stdout_console = { .name = "stdout", .write = stdout_write };

void bench_host_start(const char *title)
{
	const char *hv = arch_hypervisor();

	console_register(&stdout_console);
	printf("%s (host-native process, -O2)\ncpu: %s\nrun: native", title, arch_cpu_name());
	if (hv)
		printf(" in a virtual machine (%s): other guests may share the CPU", hv);
	printf("\n");
}
