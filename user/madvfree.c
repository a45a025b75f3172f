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
#include "sbs.h"

struct row {
	unsigned int kib;
	int pmd; /* 1: mapped by PMDs, 0: by PTEs */
	double ms[MAX_RUNS];
	long anon_huge_kib, splits;
};

/* One run of one row: map 2 MiB-aligned, write-fault, make the PMDs PTEs
 * if asked, time the MADV_FREE. */
static void run_row(struct row *r, size_t len, int run)
{
	char *raw, *p;
	long split_before;
	double t0;

	if (r->kib != 4 || nctls)
		set_size(r->kib);
	p = map_2m_aligned(len, &raw);
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
	munmap(raw, len + SZ_2M);
}

int main(int argc, char **argv)
{
	static struct row rows[MAX_ROWS];
	size_t len = 64ul << 20;
	int runs = 5, nrows = 0, nsizes;
	unsigned int kib[MAX_ROWS];
	struct utsname u;

	nsizes = start_sbs("madvfree", argc, argv, &len, &runs, kib);
	if (nsizes < 0)
		return 2;
	/* Every size mapped by PTEs; 2048K also by a PMD, first. */
	for (int i = 0; i < nsizes; i++) {
		if (kib[i] == 2048)
			rows[nrows++] = (struct row){ .kib = 2048, .pmd = 1 };
		rows[nrows++] = (struct row){ .kib = kib[i] };
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
	rec_start("madvise_free_sbs", &u, len, runs);
	rec_line("@cols folio[KiB] mapping[-] madv_free[ms] min[ms] max[ms] anon_huge[KiB] "
		 "splits[count]");
	for (int i = 0; i < nrows; i++)
		rec_line("@row %u %s %.3f %.3f %.3f %ld %ld", rows[i].kib,
			 rows[i].pmd ? "pmd" : "pte", rows[i].ms[runs / 2], rows[i].ms[0],
			 rows[i].ms[runs - 1], rows[i].anon_huge_kib, rows[i].splits);
	printf("@end madvise_free_sbs %d %08x\n", nrows, rec_hash);
	return 0;
}
