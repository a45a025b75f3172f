/*
 * madvfree: upstream's MADV_FREE experiment as one static program that
 * runs, byte for byte the same, on Folium and on Linux (the side-by-side
 * of make bench boots both in one QEMU). A range faulted in with writes
 * is lazyfreed with one madvise(MADV_FREE), timed, for every folio size
 * and mapping the kernel can produce:
 *   - 4K pages (every THP control "never");
 *   - each mTHP size the kernel has a hugepages-<N>kB/enabled for (Folium;
 *     Linux >= 6.8), mapped by PTEs;
 *   - 2048K THP mapped by PMDs;
 *   - 2048K THP mapped by PTEs: each PMD is split, its folio kept whole,
 *     by an mprotect of one page and back. Linux 6.1 splits such folios
 *     before lazyfreeing them (thp_split_page counts them); batched
 *     kernels do not.
 * Linux 6.1 has only the top-level transparent_hugepage/enabled, so there
 * the rows are 4K, 2048K pmd and 2048K pte. Each row's runs are
 * interleaved with the others'; the median, min and max are printed with
 * AnonHugePages (smaps) before the madvise and the thp_split_page delta
 * (/proc/vmstat) across it, then the same as a bench record
 * (madvise_free_sbs). The THP controls are saved first and restored on
 * exit and on SIGINT/SIGTERM. Needs root for the controls; without them
 * only the 4K row runs.
 * Usage: madvfree [--bytes N[K|M|G]] [--runs R]   (default 64M, 5)
 */
#include <errno.h>
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
#include <fcntl.h>

#define SZ_2M (2ul << 20)
#define PAGE 4096ul
#define MAX_RUNS 99
#define MAX_ROWS 16

static const char *thp = "/sys/kernel/mm/transparent_hugepage";
static const unsigned int mthp_kib[] = { 8, 16, 32, 64, 128, 256, 512, 1024, 2048 };

/* A THP control this program writes and the value it had. */
struct ctl {
	char path[128], saved[16];
	unsigned int kib; /* folio size; 0: the top-level "enabled" */
};
static struct ctl ctls[16];
static int nctls;
static volatile sig_atomic_t changed;

struct row {
	unsigned int kib;
	int pmd; /* 1: mapped by PMDs, 0: by PTEs */
	double ms[MAX_RUNS];
	long anon_huge_kib, splits;
};

static int write_ctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

/* Async-signal-safe: the handler restores too. */
static void restore(void)
{
	for (int i = 0; changed && i < nctls; i++)
		write_ctl(ctls[i].path, ctls[i].saved);
}

static void on_signal(int sig)
{
	restore();
	_exit(128 + sig);
}

__attribute__((format(printf, 1, 2), noreturn)) static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("madvfree: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	restore();
	exit(1);
}

/* The bracketed choice of a THP control ("always [madvise] never"). */
static int read_choice(const char *path, char *out, size_t len)
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

static void add_ctl(const char *path, unsigned int kib)
{
	struct ctl *c = &ctls[nctls];

	snprintf(c->path, sizeof(c->path), "%s", path);
	if (read_choice(path, c->saved, sizeof(c->saved)) == 0 && access(path, W_OK) == 0) {
		c->kib = kib;
		nctls++;
	}
}

/* Find the controls: the top-level one and each per-size one. */
static void find_ctls(void)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/enabled", thp);
	add_ctl(path, 0);
	for (size_t i = 0; i < sizeof(mthp_kib) / sizeof(mthp_kib[0]); i++) {
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/enabled", thp, mthp_kib[i]);
		add_ctl(path, mthp_kib[i]);
	}
}

static int have_size(unsigned int kib)
{
	for (int i = 0; i < nctls; i++)
		if (ctls[i].kib == kib)
			return 1;
	return 0;
}

/* Only folios of kib (4: none): that size "always", every other "never";
 * the top-level control "always" unless 4K (Linux 6.1 has only it). */
static void set_size(unsigned int kib)
{
	changed = 1;
	for (int i = 0; i < nctls; i++) {
		const char *v =
			ctls[i].kib == kib || (!ctls[i].kib && kib > 4) ? "always" : "never";

		if (write_ctl(ctls[i].path, v))
			die("cannot write %s to %s: %s", v, ctls[i].path, strerror(errno));
	}
}

/* A counter of /proc/vmstat (-1 if missing). */
static long vmstat(const char *name)
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

/* AnonHugePages of this process, summed over smaps (-1 if unreadable). */
static long anon_huge_kib(void)
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

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* One run of one row: map 2 MiB-aligned, write-fault, make the PMDs PTEs
 * if asked, time the MADV_FREE. */
static void run_row(struct row *r, size_t len, int run)
{
	size_t span = len + SZ_2M;
	char *raw, *p;
	long split_before;
	double t0;

	if (r->kib != 4 || nctls)
		set_size(r->kib);
	raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap of %zu bytes: %s", span, strerror(errno));
	p = (char *)(((uintptr_t)raw + SZ_2M - 1) & ~(SZ_2M - 1));
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	if (r->kib == 2048 && !r->pmd)
		for (size_t off = 0; off < len; off += SZ_2M)
			if (mprotect(p + off, PAGE, PROT_READ) ||
			    mprotect(p + off, PAGE, PROT_READ | PROT_WRITE))
				die("mprotect: %s", strerror(errno));
	r->anon_huge_kib = anon_huge_kib();
	split_before = vmstat("thp_split_page");
	t0 = now_ms();
	if (madvise(p, len, MADV_FREE))
		die("madvise(MADV_FREE): %s", strerror(errno));
	r->ms[run] = now_ms() - t0;
	r->splits = split_before < 0 ? -1 : vmstat("thp_split_page") - split_before;
	munmap(raw, span);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static uint32_t rec_hash = 0x811c9dc5u;

/* A bench record line (include/benchrec.h), added to the FNV-1a hash. */
__attribute__((format(printf, 1, 2))) static void rec_line(const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (const char *s = line;; s++) {
		rec_hash = (rec_hash ^ (unsigned char)(*s ? *s : '\n')) * 0x01000193u;
		if (!*s)
			break;
	}
	printf("%s\n", line);
}

static size_t parse_size(const char *s)
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

int main(int argc, char **argv)
{
	static struct row rows[MAX_ROWS];
	size_t len = 64ul << 20;
	int runs = 5, nrows = 0;
	struct utsname u;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--bytes") && i + 1 < argc)
			len = parse_size(argv[++i]);
		else if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			 atoi(argv[i + 1]) <= MAX_RUNS)
			runs = atoi(argv[++i]);
		else {
			fprintf(stderr, "usage: madvfree [--bytes N[K|M|G]] [--runs 1..%d]\n",
				MAX_RUNS);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_ctls();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	rows[nrows++] = (struct row){ .kib = 4 };
	for (size_t i = 0; i + 1 < sizeof(mthp_kib) / sizeof(mthp_kib[0]); i++)
		if (have_size(mthp_kib[i]))
			rows[nrows++] = (struct row){ .kib = mthp_kib[i] };
	if (nctls) {
		rows[nrows++] = (struct row){ .kib = 2048, .pmd = 1 };
		rows[nrows++] = (struct row){ .kib = 2048 };
	}
	for (int run = 0; run < runs; run++)
		for (int i = 0; i < nrows; i++)
			run_row(&rows[(i + run) % nrows], len, run);
	restore();
	uname(&u);
	printf("MADV_FREE of %zu MiB faulted in with writes, on %s %s, median of %d run(s)\n",
	       len >> 20, u.sysname, u.release, runs);
	printf(" folio mapping  madv_free[ms]    min[ms]    max[ms] AnonHuge[KiB] splits\n");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		qsort(r->ms, (size_t)runs, sizeof(double), cmp_double);
		printf("%5uK %7s %14.3f %10.3f %10.3f %13ld %6ld\n", r->kib, r->pmd ? "pmd" : "pte",
		       r->ms[runs / 2], r->ms[0], r->ms[runs - 1], r->anon_huge_kib, r->splits);
	}
	for (char *p = u.sysname; *p; p++)
		*p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	rec_line("@bench madvise_free_sbs");
	rec_line("@env source=%s kernel=\"%s\" range_bytes=%zu runs=%d thp_controls=%s", u.sysname,
		 u.release, len, runs,
		 have_size(64) ? "per-size"
		 : nctls       ? "top-level"
			       : "none");
	rec_line("@cols folio[KiB] mapping[-] madv_free[ms] min[ms] max[ms] anon_huge[KiB] "
		 "splits[count]");
	for (int i = 0; i < nrows; i++)
		rec_line("@row %u %s %.3f %.3f %.3f %ld %ld", rows[i].kib,
			 rows[i].pmd ? "pmd" : "pte", rows[i].ms[runs / 2], rows[i].ms[0],
			 rows[i].ms[runs - 1], rows[i].anon_huge_kib, rows[i].splits);
	printf("@end madvise_free_sbs %d %08x\n", nrows, rec_hash);
	return 0;
}
