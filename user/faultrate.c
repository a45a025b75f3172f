/*
 * faultrate: anonymous fault throughput as one static program for both
 * kernels of the side-by-side (vm-scalability's usemem / anon-w-seq): map
 * a range, write one byte per page from the start to the end, time it,
 * unmap. One row per folio size the kernel can produce (4K with every THP
 * control "never"; each mTHP size with a hugepages-<N>kB control; 2048K),
 * each from the kernel's own counters: folios allocated and fallbacks from
 * hugepages-<N>kB/stats/anon_fault_alloc and anon_fault_fallback where the
 * kernel has them (Folium; Linux >= 6.8), else /proc/vmstat's
 * thp_fault_alloc and thp_fault_fallback for 2048K (Linux 6.1); -1 where
 * there is no counter. Runs of the rows are interleaved; the median, min
 * and max time and ns per page are printed, then a faults_sbs bench
 * record. The THP controls are restored on exit and on SIGINT/SIGTERM.
 * A second pass measures the locality folio_zero_user keeps (Linux 7.3
 * and Folium clear the faulting page and its neighbours last): each folio
 * is faulted in by a write to its middle page, then the pages within two
 * of it that lie in the folio are read line by line at once, timed with
 * the TSC; "touch" is the median of ns per page read (the TSC rate
 * measured against CLOCK_MONOTONIC over the pass). Under TCG there is no
 * cache to be hot, so there the column shows the emulator, not the
 * kernel; on hardware a kernel that clears the fault's neighbourhood
 * last gives lower figures.
 * Example: faultrate --bytes 64M --runs 5 on Linux 6.1 prints rows 4K and
 * 2048K, the 2048K one with 32 folios.
 * Usage: faultrate [--bytes N[K|M|G]] [--runs R]   (default 64M, 5)
 */
#include "sbs.h"

struct row {
	unsigned int kib;
	double ms[MAX_RUNS], touch_ns[MAX_RUNS];
	long folios, fallbacks;
};

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* Read every cache line of n pages from p; the sum keeps the loads. */
static unsigned long read_lines(const volatile char *p, size_t n)
{
	unsigned long sum = 0;

	for (size_t off = 0; off < n * PAGE; off += 64)
		sum += (unsigned char)p[off];
	return sum;
}

/* The touch pass: ns per page of reading the fault's neighbourhood
 * (the middle page +-2, within the folio) right after each fault. */
static double touch_pass(unsigned int kib, size_t len)
{
	size_t folio = (size_t)kib << 10, pages = folio / PAGE;
	size_t mid = pages / 2, lo = mid >= 2 ? mid - 2 : 0;
	size_t hi = mid + 2 < pages ? mid + 2 : pages - 1, n = hi - lo + 1;
	uint64_t ticks = 0, tsc0;
	double t0 = now_ms(), ms;
	volatile char *p;
	char *raw;
	unsigned long sink = 0;

	tsc0 = rdtsc();
	p = map_2m_aligned(len, &raw);
	for (size_t f = 0; f < len; f += folio) {
		uint64_t a;

		p[f + mid * PAGE] = 1;
		a = rdtsc();
		sink += read_lines(p + f + lo * PAGE, n);
		ticks += rdtsc() - a;
	}
	ms = now_ms() - t0;
	munmap(raw, len + SZ_2M);
	if (sink != len / folio) /* each folio holds one 1, the rest zeros */
		die("touch pass: read %lu, want %zu: memory not zeroed", sink, len / folio);
	/* TSC ticks per ns, from the whole pass. */
	return (double)ticks / ((double)(rdtsc() - tsc0) / (ms * 1e6)) / (double)(len / folio * n);
}

/* A number file (a hugepages-<N>kB/stats counter); -1 if missing. */
static long read_count(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* The kernel's count of kib folios allocated (fallback: failed) at
 * faults so far; -1 if it keeps none. */
static long folio_events(unsigned int kib, int fallback)
{
	char path[160];
	long v;

	if (kib == 4)
		return -1;
	snprintf(path, sizeof(path), "%s/hugepages-%ukB/stats/anon_fault_%s", thp, kib,
		 fallback ? "fallback" : "alloc");
	v = read_count(path);
	if (v < 0 && kib == 2048)
		v = vmstat(fallback ? "thp_fault_fallback" : "thp_fault_alloc");
	return v;
}

static void run_row(struct row *r, size_t len, int run)
{
	long alloc0, fall0;
	volatile char *p;
	char *raw;
	double t0;

	if (r->kib != 4 || nctls)
		set_size(r->kib);
	alloc0 = folio_events(r->kib, 0);
	fall0 = folio_events(r->kib, 1);
	t0 = now_ms();
	p = map_2m_aligned(len, &raw);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	r->ms[run] = now_ms() - t0;
	r->folios = alloc0 < 0 ? (r->kib == 4 ? (long)(len / PAGE) : -1)
			       : folio_events(r->kib, 0) - alloc0;
	r->fallbacks = fall0 < 0 ? -1 : folio_events(r->kib, 1) - fall0;
	munmap(raw, len + SZ_2M);
	r->touch_ns[run] = touch_pass(r->kib, len);
}

int main(int argc, char **argv)
{
	static struct row rows[MAX_ROWS];
	size_t len = 64ul << 20;
	int runs = 5, nrows = 0, nsizes;
	unsigned int kib[MAX_ROWS];
	struct utsname u;

	nsizes = start_sbs("faultrate", argc, argv, &len, &runs, kib);
	if (nsizes < 0)
		return 2;
	for (int i = 0; i < nsizes; i++)
		rows[nrows++] = (struct row){ .kib = kib[i] };
	for (int run = 0; run < runs; run++)
		for (int i = 0; i < nrows; i++)
			run_row(&rows[(i + run) % nrows], len, run);
	restore();
	uname(&u);
	printf("Write-faulting %zu MiB from start to end, on %s %s, median of %d run(s)\n",
	       len >> 20, u.sysname, u.release, runs);
	printf(" folio   write[ms]    min[ms]    max[ms] ns/page  folios fallbacks  "
	       "touch[ns/page]\n");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		qsort(r->ms, (size_t)runs, sizeof(double), cmp_double);
		qsort(r->touch_ns, (size_t)runs, sizeof(double), cmp_double);
		printf("%5uK %11.3f %10.3f %10.3f %7.0f %7ld %9ld %15.1f\n", r->kib,
		       r->ms[runs / 2], r->ms[0], r->ms[runs - 1],
		       r->ms[runs / 2] * 1e6 / (double)(len / PAGE), r->folios, r->fallbacks,
		       r->touch_ns[runs / 2]);
	}
	rec_start("faults_sbs", &u, len, runs);
	rec_line("@cols folio[KiB] write[ms] min[ms] max[ms] per_page[ns] folios[count] "
		 "fallbacks[count] touch[ns]");
	for (int i = 0; i < nrows; i++)
		rec_line("@row %u %.3f %.3f %.3f %.0f %ld %ld %.1f", rows[i].kib,
			 rows[i].ms[runs / 2], rows[i].ms[0], rows[i].ms[runs - 1],
			 rows[i].ms[runs / 2] * 1e6 / (double)(len / PAGE), rows[i].folios,
			 rows[i].fallbacks, rows[i].touch_ns[runs / 2]);
	printf("@end faults_sbs %d %08x\n", nrows, rec_hash);
	return 0;
}
