/*
 * user/check.h: the verdict lines of the check programs (forktest,
 * proctest, polltest, procfs, credtest, schedtest), one form for all so
 * make test counts them alike on Folium and on Linux: "ok NAME" or "FAIL
 * NAME: DETAIL" a check (EXPECT compares a result with the one
 * wanted), then "PROG: N checks, all ok" (exit 0) or "PROG:
 * K of N checks FAILED" (exit 1). Example: check("pipe", 0, "errno %d",
 * 24) prints "FAIL pipe: errno 24".
 */
#ifndef FOLIUM_USER_CHECK_H
#define FOLIUM_USER_CHECK_H

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int checks, failed;

static void check(const char *name, int ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void check(const char *name, int ok, const char *fmt, ...)
{
	va_list ap;

	checks++;
	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	failed++;
	printf("FAIL %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* A result against the one wanted, with errno's name when it differs:
 * EXPECT("read_eof", read(fd, buf, 1), 0). */
static inline void expect_result(const char *name, int ok, long got, long want)
{
	check(name, ok, "got %ld (errno %s), want %ld", got, strerror(errno), want);
}
#define EXPECT(name, expr, want)                                       \
	do {                                                           \
		long got_ = (long)(expr);                              \
		expect_result(name, got_ == (long)(want), got_, want); \
	} while (0)

/* A "KEY: N kB" line's N from a /proc file (meminfo, PID/status):
 * proc_kb("/proc/meminfo", "Committed_AS") (the key without its colon).
 * Return: N, or -1 if the file or the key is missing. */
static inline long proc_kb(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	size_t n = strlen(key);
	char line[160];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ':' &&
		    sscanf(line + n + 1, " %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* The last line; the program's exit status. */
static int check_summary(const char *prog)
{
	if (failed) {
		printf("%s: %d of %d checks FAILED\n", prog, failed, checks);
		return 1;
	}
	printf("%s: %d checks, all ok\n", prog, checks);
	return 0;
}

#endif
