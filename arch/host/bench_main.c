/*
 * The host-native page allocator benchmark (make bench): the same code as
 * the kernel's `bench alloc`, run as a process over simulated physical
 * memory, with costs in nanoseconds.
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
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

int main(void)
{
	console_register(&stdout_console);
	printf("Folium page allocator benchmark (host-native process, -O2)\n");
	print_cpu();
	printf("run: host-native\n");
	return bench_page_alloc(PHYS_PFN(8ull << 30), 65536, 1, "ns") ? 1 : 0;
}
