/*
 * What the side-by-side programs (madvfree.c, faultrate.c, lazyfree.c,
 * fragment.c; procbench.c only reads the controls) share: the THP controls under
 * /sys/kernel/mm/transparent_hugepage (found, set to one folio size,
 * restored on exit and on SIGINT/SIGTERM; other controls, as defrag or a
 * sysctl, set and restored alike), /proc counters, free memory and the
 * watermarks, a monotonic clock, size arguments and bench records (include/benchrec.h:
 * "@bench", "@env", "@cols", "@row"..., "@end NAME ROWS HASH" with the
 * FNV-1a hash of the lines). Each program is one static file: this header
 * is included, not linked, so the same bytes run on Folium and on Linux.
 */
#ifndef FOLIUM_USER_SBS_H
#define FOLIUM_USER_SBS_H

#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "rec_line.h"

#define SZ_2M (2ul << 20)
#define PAGE 4096ul
#define MAX_RUNS 99
#define MAX_ROWS 16

/* The program's name, for its messages (set by main). */
static const char *prog_name = "sbs";

static const char *thp = "/sys/kernel/mm/transparent_hugepage";
static const unsigned int mthp_kib[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048 };

/* A control this program writes and the value it had. */
struct ctl {
	char path[128], saved[16];
	unsigned int kib; /* folio size; 0: the top-level "enabled"; CTL_OTHER */
};
/* The kib of a control that is no folio size's (set_ctl: defrag, a sysctl):
 * set_size leaves it alone. */
#define CTL_OTHER 1u
static struct ctl ctls[16];
static int nctls;
static volatile sig_atomic_t changed;

static inline int write_ctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* Async-signal-safe: the handler restores too. */
static inline void restore(void)
{
	for (int i = 0; changed && i < nctls; i++)
		write_ctl(ctls[i].path, ctls[i].saved);
}

static inline void on_signal(int sig)
{
	restore();
	_exit(128 + sig);
}

__attribute__((format(printf, 1, 2), noreturn)) static inline void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	restore();
	exit(1);
}

/* The bracketed choice of a THP control ("always [madvise] never"). */
static inline int read_choice(const char *path, char *out, size_t len)
{
	char buf[128];
	FILE *f = fopen(path, "r");
	char *open, *close;

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	open = strchr(buf, '[');
	close = open ? strchr(open, ']') : NULL;
	if (!close || (size_t)(close - open) >= len)
		return -1;
	memcpy(out, open + 1, (size_t)(close - open - 1));
	out[close - open - 1] = '\0';
	return 0;
}

/* The first line of a plain value file (a sysctl: "20"), without its
 * newline. */
static inline int read_value(const char *path, char *out, size_t len)
{
	FILE *f = fopen(path, "r");
	int ok = f && fgets(out, (int)len, f);

	if (f)
		fclose(f);
	if (!ok || !out[0] || !strchr(out, '\n'))
		return -1; /* missing, empty or longer than out */
	*strchr(out, '\n') = '\0';
	return 0;
}

/* Remember a control and its value, if it exists and may be written.
 * Return: 0, or -1 if not. */
static inline int add_ctl(const char *path, unsigned int kib)
{
	struct ctl *c = &ctls[nctls];

	if (nctls == (int)(sizeof(ctls) / sizeof(ctls[0])))
		return -1;
	snprintf(c->path, sizeof(c->path), "%s", path);
	/* A choice ("always [madvise] never"), or another control's value. */
	if (read_choice(path, c->saved, sizeof(c->saved)) &&
	    (kib != CTL_OTHER || read_value(path, c->saved, sizeof(c->saved))))
		return -1;
	if (access(path, W_OK))
		return -1;
	c->kib = kib;
	nctls++;
	return 0;
}

/* Set a control that is no folio size (THP defrag, a sysctl) to val,
 * restored with the others. Return: 0, or -1 if it is missing or the
 * write failed (then it is left as it was). */
static inline int set_ctl(const char *path, const char *val)
{
	int i;

	for (i = 0; i < nctls && strcmp(ctls[i].path, path); i++)
		;
	if (i == nctls && add_ctl(path, CTL_OTHER))
		return -1;
	changed = 1;
	return write_ctl(path, val);
}

/* How many controls are folio sizes' (THP ones). */
static inline int nr_thp_ctls(void)
{
	int n = 0;

	for (int i = 0; i < nctls; i++)
		n += ctls[i].kib != CTL_OTHER;
	return n;
}

/* Find the controls: the top-level one and each per-size one. */
static inline void find_ctls(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/enabled", thp);
	add_ctl(path, 0);
	for (size_t i = 0; i < sizeof(mthp_kib) / sizeof(mthp_kib[0]); i++) {
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/enabled", thp, mthp_kib[i]);
		add_ctl(path, mthp_kib[i]);
	}
}

static inline int have_size(unsigned int kib)
{
	for (int i = 0; i < nctls; i++)
		if (ctls[i].kib == kib)
			return 1;
	return 0;
}

/* Only folios of kib (4: none): that size "always", every other "never";
 * the top-level control "always" unless 4K (Linux 6.1 has only it). */
static inline void set_size(unsigned int kib)
{
	changed = 1;
	for (int i = 0; i < nctls; i++) {
		const char *v =
			ctls[i].kib == kib || (!ctls[i].kib && kib > 4) ? "always" : "never";

		if (ctls[i].kib == CTL_OTHER)
			continue;
		if (write_ctl(ctls[i].path, v))
			die("cannot write %s to %s: %s", v, ctls[i].path, strerror(errno));
	}
}

/* A counter of /proc/vmstat (-1 if missing). */
static inline long vmstat(const char *name)
{
	char key[64];
	long val;
	FILE *f = fopen("/proc/vmstat", "r");

	while (f && fscanf(f, "%63s %ld", key, &val) == 2)
		if (!strcmp(key, name)) {
			fclose(f);
			return val;
		}
	if (f)
		fclose(f);
	return -1;
}

/* A "Key: N kB" line of /proc/meminfo in KiB (-1 if missing). */
static inline long meminfo_kib(const char *key)
{
	char line[128], fmt[64];
	long kib = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	snprintf(fmt, sizeof(fmt), "%s: %%ld kB", key);
	while (f && fgets(line, sizeof(line), f) && sscanf(line, fmt, &kib) != 1)
		;
	if (f)
		fclose(f);
	return kib;
}

/* MemFree of /proc/meminfo in KiB; the program ends without it. */
static inline unsigned long mem_free_kib(void)
{
	long kib = meminfo_kib("MemFree");

	if (kib < 0)
		die("no MemFree in /proc/meminfo");
	return (unsigned long)kib;
}

/*
 * Pages of free memory a program's faults cannot take, from f, a
 * /proc/zoneinfo: per zone, its watermark named mark ("min": below it
 * only atomic and __GFP_HIGH allocations go, a fault that would cross it
 * reclaims first, Linux's __alloc_pages_slowpath and Folium's alike;
 * "high": where Linux's kswapd stops, so a program that stays above it
 * wakes no kswapd) plus its largest lowmem reserve ("protection"), at
 * most its managed pages. Example: "min 1024", "managed 250000",
 * "protection: (0, 0, 3000)" -> 4024.
 */
static inline unsigned long zone_reserve_pages(FILE *f, const char *mark)
{
	char line[256], fmt[32], *s;
	unsigned long wmark = 0, managed = 0, pages = 0, v;

	snprintf(fmt, sizeof(fmt), " %s %%lu", mark);
	while (fgets(line, sizeof(line), f)) {
		unsigned long protect = 0;

		if (sscanf(line, fmt, &v) == 1)
			wmark = v;
		else if (sscanf(line, " managed %lu", &v) == 1)
			managed = v;
		else if (strstr(line, "protection: (")) {
			/* The last line of a zone's watermarks. */
			for (s = strchr(line, '('); *s && *s != ')';) {
				v = strtoul(s + 1, &s, 10);
				protect = v > protect ? v : protect;
			}
			pages += wmark + protect < managed ? wmark + protect : managed;
		}
	}
	return pages;
}

/* zone_reserve_pages of /proc/zoneinfo in KiB; 0 without the file.
 * Linux 6.1 raises min_free_kbytes once THP is on: read it when needed. */
static inline unsigned long total_reserve_kib(const char *mark)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	unsigned long pages = f ? zone_reserve_pages(f, mark) : 0;

	if (f)
		fclose(f);
	return pages * (PAGE >> 10);
}

/* AnonHugePages of this process, summed over smaps (-1 if unreadable). */
static inline long anon_huge_kib(void)
{
	char line[256];
	long sum = 0, kib;
	FILE *f = fopen("/proc/self/smaps", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1)
			sum += kib;
	fclose(f);
	return sum;
}

/* len bytes of anonymous read-write memory starting on a 2 MiB boundary,
 * so THP can map it whole; *raw gets what to munmap (len + 2 MiB). */
static inline void *map_2m_aligned(size_t len, char **raw)
{
	*raw = mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (*raw == MAP_FAILED)
		die("mmap of %zu bytes: %s", len + SZ_2M, strerror(errno));
	return (void *)(((uintptr_t)*raw + SZ_2M - 1) & ~(SZ_2M - 1));
}

static inline double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static inline int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The median of the runs values of v (sorted in place). */
static inline long median_long(long *v, int runs)
{
	qsort(v, (size_t)runs, sizeof(long), cmp_long);
	return v[runs / 2];
}

static inline size_t parse_size(const char *s)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	switch (*end) {
	case 'G':
		v <<= 10; /* fall through */
	case 'M':
		v <<= 10; /* fall through */
	case 'K':
		v <<= 10;
		end++;
	}
	if (*end || !v || v % SZ_2M)
		die("--bytes %s: want a multiple of 2M, e.g. 64M", s);
	return (size_t)v;
}

/*
 * Start a side-by-side program: read "--bytes N[K|M|G]" and "--runs R"
 * into *len and *runs (defaults kept), find the THP controls and restore
 * them if a signal ends the program, and list the folio sizes to measure
 * in kib[]: 4, each mTHP size below 2048 that has a control, then 2048 if
 * any control exists. Return: how many sizes, or -1 after a usage line.
 */
static inline int start_sbs(const char *name, int argc, char **argv, size_t *len, int *runs,
			    unsigned int kib[MAX_ROWS])
{
	int n = 0;

	prog_name = name;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
			*len = parse_size(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			 atoi(argv[i + 1]) <= MAX_RUNS)
			*runs = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: %s [--bytes N[K|M|G]] [--runs 1..%d]\n", name,
				MAX_RUNS);
			return -1;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_ctls();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	kib[n++] = 4;
	for (size_t i = 0; i + 1 < sizeof(mthp_kib) / sizeof(mthp_kib[0]); i++)
		if (have_size(mthp_kib[i]))
			kib[n++] = mthp_kib[i];
	if (nctls)
		kib[n++] = 2048;
	return n;
}

/*
 * What the program runs on, from CPUID as ring 3 sees it: vendor gets the
 * hypervisor's signature (leaf 0x40000000; "none" without the hypervisor
 * bit, CPUID.1:ECX[31]) and the return is the accelerator that implies:
 * "tcg" (QEMU's emulator, "TCGTCGTCGTCG"), "kvm" ("KVMKVMKVM"), bhyve,
 * hyperv, vmware, xen, "native" (no hypervisor) or "other". A program on
 * the build machine reports that machine's own hypervisor, if it is a VM.
 */
static inline const char *accelerator(char vendor[13])
{
	static const char *const known[][2] = {
		{ "TCGTCGTCGTCG", "tcg" },    { "KVMKVMKVM", "kvm" },
		{ "bhyve bhyve ", "bhyve" },  { "Microsoft Hv", "hyperv" },
		{ "VMwareVMware", "vmware" }, { "XenVMMXenVMM", "xen" },
	};
	unsigned int a, b, c, d;

	strcpy(vendor, "none");
	if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 31)))
		return "native";
	__cpuid(0x40000000, a, b, c, d);
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (vendor[i] && (vendor[i] < ' ' || vendor[i] > '~' || vendor[i] == '"'))
			vendor[i] = '?';
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(vendor, known[i][0]))
			return known[i][1];
	return "other";
}

/* The record's @bench and @env lines: source is uname's sysname in lower
 * case ("linux", "folium"), accel and hypervisor what accelerator() says,
 * thp_controls what the kernel offers. */
static inline void rec_start_env(const char *bench, const struct utsname *u, size_t len, int runs,
				 const char *extra_env);

static inline void rec_start(const char *bench, const struct utsname *u, size_t len, int runs)
{
	rec_start_env(bench, u, len, runs, "");
}

/* rec_start, with extra_env (" key=value..." pairs of this program) at
 * the end of the @env line. */
static inline void rec_start_env(const char *bench, const struct utsname *u, size_t len, int runs,
				 const char *extra_env)
{
	char source[sizeof(u->sysname)], vendor[13];
	const char *accel = accelerator(vendor);

	for (size_t i = 0; i < sizeof(source); i++)
		source[i] = (char)(u->sysname[i] >= 'A' && u->sysname[i] <= 'Z'
					   ? u->sysname[i] - 'A' + 'a'
					   : u->sysname[i]);
	rec_line("@bench %s", bench);
	rec_line("@env source=%s kernel=\"%s\" accel=%s hypervisor=\"%s\" range_bytes=%zu runs=%d "
		 "thp_controls=%s%s",
		 source, u->release, accel, vendor, len, runs,
		 have_size(64)	 ? "per-size"
		 : nr_thp_ctls() ? "top-level"
				 : "none",
		 extra_env);
}

#endif
