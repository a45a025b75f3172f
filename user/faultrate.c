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
 * Example: faultrate --bytes 64M --runs 5 on Linux 6.1 prints rows 4K and
 * 2048K, the 2048K one with 32 folios.
 * Usage: faultrate [--bytes N[K|M|G]] [--runs R]   (default 64M, 5)
 */
#include "sbs.h"

struct row {
	unsigned int kib;
	double ms[MAX_RUNS];
	long folios, fallbacks;
};

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
	printf(" folio   write[ms]    min[ms]    max[ms] ns/page  folios fallbacks\n");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		qsort(r->ms, (size_t)runs, sizeof(double), cmp_double);
		printf("%5uK %11.3f %10.3f %10.3f %7.0f %7ld %9ld\n", r->kib, r->ms[runs / 2],
		       r->ms[0], r->ms[runs - 1], r->ms[runs / 2] * 1e6 / (double)(len / PAGE),
		       r->folios, r->fallbacks);
	}
	rec_start("faults_sbs", &u, len, runs);
	rec_line("@cols folio[KiB] write[ms] min[ms] max[ms] per_page[ns] folios[count] "
		 "fallbacks[count]");
	for (int i = 0; i < nrows; i++)
		rec_line("@row %u %.3f %.3f %.3f %.0f %ld %ld", rows[i].kib, rows[i].ms[runs / 2],
			 rows[i].ms[0], rows[i].ms[runs - 1],
			 rows[i].ms[runs / 2] * 1e6 / (double)(len / PAGE), rows[i].folios,
			 rows[i].fallbacks);
	printf("@end faults_sbs %d %08x\n", nrows, rec_hash);
	return 0;
}
