/*
 * /bin/crash [null|gp|ud]: a program that faults on purpose. The kernel
 * reports it in Linux's words and ends it with 128 + the signal; the
 * shell goes on. null (the default) writes to address 0: "crash[1]:
 * segfault at 0 ... error 6", status 139; gp touches a non-canonical
 * address (#GP, status 139); ud executes ud2 (#UD, SIGILL, status 132);
 * oom writes every page of a mapping larger than the machine's memory:
 * the kernel's OOM killer ends it with SIGKILL ("Out of memory: Killed
 * process ...", status 137), and every page comes back.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "null";

	printf("crash: %s\n", kind);
	fflush(stdout);
	if (strcmp(kind, "gp") == 0)
		*(volatile int *)0x8000000000000000ul = 1;
	else if (strcmp(kind, "ud") == 0)
		__builtin_trap();
	else if (strcmp(kind, "oom") == 0) {
		/* 64 GiB, never backed by swap: the faults must run out. */
		size_t len = 64ul << 30;
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED) {
			perror("crash: mmap");
			return 1;
		}
		for (size_t off = 0; off < len; off += 4096)
			p[off] = 1;
		printf("crash: oom: wrote %zu bytes and was not killed\n", len);
		return 1;
	} else
		*(volatile int *)0 = 1;
	return 0;
}
