/*
 * The host test program: runs the ktest suites (all, or the one named)
 * over the generic code and prints KTAP on stdout, exactly as the kernel's
 * `test` command does. Exit status 1 if any case failed.
 */
#include <ktest.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	int failed;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-' && strcmp(argv[1], "--list"))) {
		fprintf(stderr, "usage: %s [SUITE | --list]\n", argv[0]);
		return 2;
	}
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		ktest_list();
		return 0;
	}
	failed = ktest_run(argc == 2 ? argv[1] : NULL);
	if (failed < 0) {
		fprintf(stderr, "%s: no suite '%s' (--list shows them)\n", argv[0], argv[1]);
		return 2;
	}
	return failed ? 1 : 0;
}
