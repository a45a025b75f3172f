/*
 * linux-madvise-free: the optional "native Linux" column of the MADV_FREE
 * table. `make bench` reproduces on Folium upstream's table from "mm/madvise:
 * optimize lazyfreeing with mTHP in madvise_free": MADV_FREE of a 1 GiB range
 * faulted in with writes, per mTHP folio size. This program times the same
 * workload on the Linux the build machine runs, a different kernel on real
 * hardware (or a VM): its record says source=linux. The same static
 * binary runs unchanged on Folium (/bin/linux-madvise-free), where the
 * record says source=folium (uname's sysname). Linux >= 6.10 batches
 * MADV_FREE over mTHP and the old split path cannot be chosen, so only the
 * batched time is measured.
 *
 * Optional: it needs root and the per-size mTHP controls
 * (/sys/kernel/mm/transparent_hugepage/hugepages-<N>kB/enabled). Without
 * them it prints one "skipped:" line and exits 77, changing nothing.
 *
 * It CHANGES SYSTEM-WIDE SYSFS SETTINGS while it runs: per folio size, that
 * size's "enabled" is "always", every other size's and the top-level
 * "enabled" are "never". It saves them all first (and prints them on stderr,
 * for a SIGKILL) and writes them back on exit, on error and on SIGINT,
 * SIGTERM, SIGHUP, SIGQUIT and SIGPIPE: the handler only open()s, write()s
 * and close()s buffers filled before it was installed, then _exit()s.
 * Instances take turns (flock on the sysfs directory), so none saves
 * another's temporary settings as the original ones.
 *
 * The folio size is checked with hugepages-<N>kB/stats/anon_fault_alloc and
 * anon_fault_fallback around the fault-in. They count system-wide: faults of
 * other processes meanwhile count too. A row shows the fewest folios and the
 * most fallbacks of its runs; -1 means no stats directory. 4K has no counters
 * and every mTHP size is "never" then, so its folios are its pages.
 * LINUX_MADVISE_FREE_SYSFS replaces the sysfs directory (for tests).
 *
 * Usage: linux-madvise-free [--bytes N[K|M|G]] [--runs R]
 * Exit: 0 done, 1 error, 2 usage, 77 skipped, 128+N on signal N.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "../user/rec_line.h"
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define SZ_2M (2ul << 20)
#define MAX_RUNS 99
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A setting this program changes and the value it had. */
struct ctl {
	char path[300], saved[32];
	size_t len;	  /* of saved */
	unsigned int kib; /* folio size; 0: the top-level "enabled" */
};

static const char *thp = "/sys/kernel/mm/transparent_hugepage";
static struct ctl ctls[32];
static int nctls;
static volatile sig_atomic_t changed; /* set before the first change */
static const unsigned int sizes[] = { 4, 16, 32, 64, 128, 256, 512, 1024, 2048 };

/* Async-signal-safe, as restore() runs in the signal handler too. */
static int write_ctl(const char *path, const char *val, size_t len)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, len) == (ssize_t)len;
	close(fd);
	return ok ? 0 : -1;
}

static int restore(void)
{
	int rc = 0;

	for (int i = 0; changed && i < nctls; i++)
		rc |= write_ctl(ctls[i].path, ctls[i].saved, ctls[i].len);
	return rc;
}

static void on_signal(int sig)
{
	static const char ok[] = "linux-madvise-free: interrupted, mTHP settings restored\n";
	static const char bad[] =
		"linux-madvise-free: interrupted, RESTORING mTHP SETTINGS FAILED\n";
	int failed = restore();

	if (write(2, failed ? bad : ok, failed ? sizeof(bad) - 1 : sizeof(ok) - 1)) {
	}
	_exit(128 + sig);
}

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("linux-madvise-free: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (restore())
		fputs("linux-madvise-free: RESTORING mTHP SETTINGS FAILED\n", stderr);
	exit(1);
}

__attribute__((noreturn)) static void skip(const char *why, const char *path)
{
	printf("linux-madvise-free: skipped: %s %s\n", why, path);
	exit(77);
}

/* The first line of a file without its newline; "" if unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

/* Save one setting: "always inherit madvise [never]" -> "never". */
static void save_ctl(const char *path, unsigned int kib)
{
	struct ctl *c = &ctls[nctls];
	char line[128], *l = NULL, *r = NULL;

	read_line(path, line, sizeof(line));
	if ((l = strchr(line, '[')))
		r = strchr(l, ']');
	if (!r || r - l - 1 >= (long)sizeof(c->saved) || nctls == (int)ARRAY_SIZE(ctls))
		die("cannot save %s: '%s'", path, line);
	snprintf(c->path, sizeof(c->path), "%s", path);
	c->len = (size_t)(r - l - 1);
	memcpy(c->saved, l + 1, c->len);
	c->kib = kib;
	nctls++;
}

/* Save every hugepages-<N>kB and the top-level "enabled"; skip if unusable. */
static void save_controls(void)
{
	char path[300], glob[300];
	struct dirent **ents;
	int n = scandir(thp, &ents, NULL, versionsort); /* 16kB before 128kB */
	unsigned int kib;

	for (int i = 0; i < n; free(ents[i++])) {
		snprintf(path, sizeof(path), "%s/%s/enabled", thp, ents[i]->d_name);
		if (sscanf(ents[i]->d_name, "hugepages-%ukB", &kib) == 1 && !access(path, F_OK))
			save_ctl(path, kib);
	}
	if (n >= 0)
		free(ents);
	snprintf(glob, sizeof(glob), "%s/hugepages-*kB/enabled", thp);
	if (!nctls)
		skip("this kernel has no mTHP controls:", glob);
	if (geteuid() != 0)
		skip("needs root to change", glob);
	snprintf(path, sizeof(path), "%s/enabled", thp);
	save_ctl(path, 0);
	for (int i = 0; i < nctls; i++) {
		int fd = open(ctls[i].path, O_WRONLY);

		if (fd < 0)
			skip("cannot write", ctls[i].path);
		close(fd);
	}
	fprintf(stderr, "linux-madvise-free: changes %s while it runs; saved:", thp);
	for (int i = 0; i < nctls; i++)
		fprintf(stderr, " %s=%s", ctls[i].path + strlen(thp) + 1, ctls[i].saved);
	fputc('\n', stderr);
}

/* Let anonymous faults use only folio size kib (4: no mTHP at all). */
static void select_size(unsigned int kib)
{
	changed = 1;
	for (int pass = 0; pass < 2; pass++) /* "never"s first */
		for (int i = 0; i < nctls; i++) {
			int on = ctls[i].kib == kib;

			if ((pass == 1) == on &&
			    write_ctl(ctls[i].path, on ? "always" : "never", on ? 6 : 5))
				die("cannot write %s: %s", ctls[i].path, strerror(errno));
		}
}

static long long read_stat(unsigned int kib, const char *name)
{
	char path[300], line[32];

	snprintf(path, sizeof(path), "%s/hugepages-%ukB/stats/%s", thp, kib, name);
	read_line(path, line, sizeof(line));
	return line[0] ? atoll(line) : -1;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A private anonymous range of len bytes at a 2 MiB-aligned address. */
static char *map_aligned(size_t len)
{
	char *p =
		mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t start = (uintptr_t)p, a = (start + SZ_2M - 1) & ~(SZ_2M - 1);

	if (p == MAP_FAILED)
		die("mmap of %zu bytes: %s", len, strerror(errno));
	if (a > start)
		munmap(p, a - start);
	munmap((char *)a + len, start + SZ_2M - a);
	return (char *)a;
}

struct row {
	unsigned int kib;
	double ms[MAX_RUNS], med; /* ms sorted once all runs are in */
	long long folios, fallbacks;
};

/* One run: fault in with writes, time MADV_FREE, unmap. */
static void run_once(size_t len, struct row *r, int run)
{
	char *p = map_aligned(len);
	long long a0 = read_stat(r->kib, "anon_fault_alloc");
	long long f0 = read_stat(r->kib, "anon_fault_fallback");
	long long folios = -1, fallbacks = -1;
	double t;

	for (size_t off = 0; off < len; off += 4096)
		((volatile char *)p)[off] = 1;
	if (r->kib == 4) {
		folios = (long long)(len / 4096), fallbacks = 0;
	} else if (a0 >= 0 && f0 >= 0) {
		folios = read_stat(r->kib, "anon_fault_alloc") - a0;
		fallbacks = read_stat(r->kib, "anon_fault_fallback") - f0;
	}
	t = now_ms();
	if (madvise(p, len, MADV_FREE))
		die("madvise(MADV_FREE): %s", strerror(errno));
	r->ms[run] = now_ms() - t;
	munmap(p, len);
	if (run == 0 || folios < r->folios)
		r->folios = folios;
	if (run == 0 || fallbacks > r->fallbacks)
		r->fallbacks = fallbacks;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Sort the times and print the row; an even count's median is the middle two's mean. */
static void finish_row(struct row *r, int runs, size_t len)
{
	long long want = (long long)(len / ((size_t)r->kib << 10));

	qsort(r->ms, (size_t)runs, sizeof(double), cmp_double);
	r->med = (r->ms[(runs - 1) / 2] + r->ms[runs / 2]) / 2;
	printf("%5uK %12.3f %10.3f %10.3f %9lld %9lld", r->kib, r->med, r->ms[0], r->ms[runs - 1],
	       r->folios, r->fallbacks);
	if (r->folios < 0)
		printf("  (no stats: folio size not verified)");
	else if (r->folios * 2 < want)
		printf("  <- MOST FAULTS FELL BACK: %lld of %lld folios were %uK", r->folios, want,
		       r->kib);
	printf("\n");
	fflush(stdout);
}

/* Drop what an env value cannot hold: quotes, controls, spaces if bare. */
static void env_clean(char *s, int bare)
{
	char *d = s, *start = s;

	for (; *s; s++)
		if (*s == ' ' && !bare && d > start && d[-1] != ' ')
			*d++ = ' ';
		else if (*s > ' ' && *s < 127 && *s != '"')
			*d++ = *s;
	while (d > start && d[-1] == ' ')
		d--;
	*d = '\0';
}

/* The CPUID hypervisor vendor ("KVMKVMKVM"), or "none". */
static void hypervisor(char hv[13])
{
	strcpy(hv, "none");
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(hv, &b, 4), memcpy(hv + 4, &c, 4), memcpy(hv + 8, &d, 4);
	hv[12] = '\0';
	env_clean(hv, 1);
	if (!hv[0])
		strcpy(hv, "unknown");
#endif
}

static void print_record(struct row *rows, int n, size_t len, int runs, struct utsname *u)
{
	char cpu[128] = "unknown", hv[13], line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "model name : %127[^\n]", cpu) == 1)
			break;
	if (f)
		fclose(f);
	env_clean(cpu, 0);
	env_clean(u->release, 0);
	hypervisor(hv);
	rec_line("@bench madvise_free");
	/* The same static binary runs on Folium too: the record names the
	 * kernel it ran on (uname's sysname, "Linux" or "Folium"). */
	for (char *p = u->sysname; *p; p++)
		*p = (char)tolower((unsigned char)*p);
	env_clean(u->sysname, 0);
	rec_line("@env source=%s kernel=\"%s\" cpu=\"%s\" hypervisor=\"%s\" mem_bytes=%llu "
		 "range_bytes=%zu runs=%d",
		 u->sysname, u->release, cpu, hv,
		 (unsigned long long)sysconf(_SC_PHYS_PAGES) *
			 (unsigned long long)sysconf(_SC_PAGESIZE),
		 len, runs);
	rec_line("@cols folio[KiB] batched[ms] min[ms] max[ms] folios[count] fallbacks[count]");
	for (int i = 0; i < n; i++)
		rec_line("@row %u %.3f %.3f %.3f %lld %lld", rows[i].kib, rows[i].med,
			 rows[i].ms[0], rows[i].ms[runs - 1], rows[i].folios, rows[i].fallbacks);
	printf("@end madvise_free %d %08x\n", n, rec_hash);
}

/* "64M" -> 67108864; 0 if malformed. */
static size_t parse_bytes(const char *s)
{
	char *end;
	unsigned long long n = strtoull(s, &end, 10);
	int shift = *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;

	if (end == s || *s == '-' || end[shift ? 1 : 0] || n > (1ull << 40 >> shift))
		return 0;
	return (size_t)(n << shift);
}

/* Wait until no other instance has settings changed, then keep it so. */
static void lock_controls(void)
{
	int fd = open(thp, O_RDONLY | O_DIRECTORY);

	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) == 0)
		return; /* no directory: save_controls() skips */
	fprintf(stderr, "linux-madvise-free: waiting for another instance to finish\n");
	if (flock(fd, LOCK_EX))
		die("flock %s: %s", thp, strerror(errno));
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]); /* one handler at a time */
	for (size_t i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

int main(int argc, char **argv)
{
	static struct row rows[ARRAY_SIZE(sizes)];
	size_t len = 1ul << 30;
	int runs = 3, n = 0;
	char path[300];
	struct utsname u;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
			len = parse_bytes(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc)
			runs = atoi(argv[++i]);
		else
			len = 0;
	if (!len || len % SZ_2M || runs < 1 || runs > MAX_RUNS) {
		fprintf(stderr,
			"usage: linux-madvise-free [--bytes N[K|M|G]] [--runs R]\n"
			"  N: a multiple of 2M (default 1G); R: 1..%d (default 3)\n",
			MAX_RUNS);
		return 2;
	}
	if (getenv("LINUX_MADVISE_FREE_SYSFS"))
		thp = getenv("LINUX_MADVISE_FREE_SYSFS");
	lock_controls();
	save_controls();
	catch_signals(); /* before the first change */
	uname(&u);
	printf("MADV_FREE of %zu MiB faulted in with writes, on %s %s%s, median of %d run(s)\n",
	       len >> 20, u.sysname, u.release,
	       strcmp(u.sysname, "Linux") ? "" : " (this machine's Linux, not Folium)", runs);
	printf("folio   batched[ms]    min[ms]    max[ms]    folios fallbacks\n");
	for (size_t s = 0; s < ARRAY_SIZE(sizes); s++) {
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/enabled", thp, sizes[s]);
		if (sizes[s] != 4 && access(path, F_OK))
			continue; /* this kernel does not offer that size */
		rows[n].kib = sizes[s];
		select_size(sizes[s]);
		for (int run = 0; run < runs; run++)
			run_once(len, &rows[n], run);
		finish_row(&rows[n++], runs, len);
	}
	if (restore())
		die("RESTORING mTHP SETTINGS FAILED: the saved values are above");
	changed = 0;
	print_record(rows, n, len, runs, &u);
	return 0;
}
