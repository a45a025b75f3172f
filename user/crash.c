/*
 * /bin/crash [null|gp|ud]: a program that faults on purpose. The kernel
 * reports it in Linux's words and ends it with 128 + the signal; the
 * shell goes on. null (the default) writes to address 0: "crash[1]:
 * segfault at 0 ... error 6", status 139; gp touches a non-canonical
 * address (#GP, status 139); ud executes ud2 (#UD, SIGILL, status 132).
 */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "null";

	printf("crash: %s\n", kind);
	fflush(stdout);
	if (strcmp(kind, "gp") == 0)
		*(volatile int *)0x8000000000000000ul = 1;
	else if (strcmp(kind, "ud") == 0)
		__builtin_trap();
	else
		*(volatile int *)0 = 1;
	return 0;
}
