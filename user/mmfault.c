/*
 * /bin/mmfault [ro|none]: touches memory mprotect took away, which must
 * end it. ro (the default) writes to a page made read-only: "mmfault[1]:
 * segfault at ADDR ... error 7" (present, write, user), status 139. none
 * reads a page made PROT_NONE: "error 5" (present, user), status 139.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "ro";
	int none = strcmp(kind, "none") == 0;
	volatile char *p =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		printf("mmfault: mmap failed\n");
		return 1;
	}
	p[0] = 1; /* present before mprotect, so the fault is a protection one */
	if (mprotect((void *)p, 4096, none ? PROT_NONE : PROT_READ)) {
		printf("mmfault: mprotect failed\n");
		return 1;
	}
	printf("mmfault: %s\n", kind);
	fflush(stdout);
	if (none)
		return p[0];
	p[0] = 2;
	printf("mmfault: the write did not fault\n");
	return 1;
}
