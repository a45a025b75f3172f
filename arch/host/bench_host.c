/*
 * What every host-native benchmark program does first: send kprintf to
 * stdout and say what it runs on, so each table carries its machine.
 */
#include <bench.h>
#include <kernel.h>
#include <stdio.h>
#include <string.h>

static void stdout_write(struct console *con, const char *s, size_t n)
{
	fwrite(s, 1, n, stdout);
}

static struct console stdout_console = { .name = "stdout", .write = stdout_write };

static void print_cpu(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0) {
			printf("cpu: %s", strchr(line, ':') + 2);
			break;
		}
	}
	if (f)
		fclose(f);
}

void bench_host_start(const char *title)
{
	console_register(&stdout_console);
	printf("%s (host-native process, -O2)\n", title);
	print_cpu();
}
