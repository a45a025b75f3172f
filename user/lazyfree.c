/*
 * lazyfree: MADV_FREE followed by memory pressure, as one static program
 * for both kernels of the side-by-side: how much of a lazyfreed range the
 * kernel reclaims when memory runs out, and that no written byte is lost.
 * One run of one row: range A is written word by word with a pattern of
 * the address and a per-run seed, lazyfreed with one madvise(MADV_FREE),
 * and every 4th folio-sized chunk is written again with a second pattern
 * (data written after MADV_FREE: the kernel must keep it). Then region B
 * is written one word per page (timed): MemFree less the kernel's reserve
 * (the min watermarks and lowmem reserves of /proc/zoneinfo; 0 where
 * there is none) plus 3/8 of A, which the kernel can only find by
 * reclaiming lazyfree folios. B's words are checked and
 * B unmapped, then A page by page: a rewritten page must hold the second
 * pattern, any other page either the first pattern (kept) or zeros
 * (reclaimed: a lazyfree page the kernel dropped reads as zeros). Any
 * other byte is lost.
 * Rows: 4K pages (every THP control "never"), 64K folios mapped by PTEs
 * where the kernel has hugepages-64kB (Folium; Linux >= 6.8), and 2048K
 * THP mapped by PMDs as faulted; runs are interleaved across rows. The
 * record lazyfree_sbs holds per row the lazyfreed and pressure (3/8 of
 * A) sizes; the medians over runs, each column on its own, of the
 * reserve, the part of A found reclaimed, the pglazyfreed and
 * thp_split_page deltas of /proc/vmstat (before the madvise to after the
 * check; -1 where the kernel has no such counter) and AnonHugePages
 * before the madvise; B's time (median, min, max); the bytes lost
 * over all runs; and B's size and B's time per MiB of it (medians). B's
 * size follows each kernel's MemFree and reserve, so time per MiB is the
 * figure to compare between kernels. Exit 1 if any was lost, after the record. Where MemFree
 * is above 2 GiB it refuses to run (exit 77): B would fill the machine.
 * Example: lazyfree --bytes 128M in a 512M guest lazyfrees 96 MiB per
 * row and writes B 48 MiB past what the kernel can give without reclaim.
 * Usage: lazyfree [--bytes N[K|M|G]] [--runs R]   (default 64M, 3)
 */
#include "sbs.h"

#define MIN_LEN (4ul << 20)
#define MAX_MEM_FREE_KIB (2ul << 20)
/* The second pattern: the first one with these bits flipped, so every
 * word differs from both the first pattern and zero (bit 0 is kept). */
#define REWRITE_XOR 0xffff0000ffff0000ull
#define WORDS_PER_PAGE (PAGE / sizeof(uint64_t))

struct row {
	unsigned int kib;
	int pmd; /* 1: mapped by PMDs as faulted, 0: by PTEs */
	double ms[MAX_RUNS], ms_per_mib[MAX_RUNS];
	long written[MAX_RUNS]; /* KiB of B */
	long reclaimed[MAX_RUNS], lazyfreed[MAX_RUNS], splits[MAX_RUNS], anon_huge[MAX_RUNS];
	long reserve[MAX_RUNS]; /* KiB, total_reserve_kib("min") */
	long lost;		/* bytes, over all runs */
};

/* The first pattern's word at w: differs for every word and run, never 0. */
static inline uint64_t pattern(const uint64_t *w, uint64_t seed)
{
	return ((uintptr_t)w + seed) * 0x9e3779b97f4a7c15ull | 1;
}

/* Bytes of the n words at w that differ from the first pattern with the
 * bits of flip flipped (0: the first pattern itself). */
static long wrong_bytes(const uint64_t *w, size_t n, uint64_t seed, uint64_t flip)
{
	long wrong = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t diff = w[i] ^ pattern(&w[i], seed) ^ flip;

		for (; diff; diff >>= 8)
			wrong += (diff & 0xff) != 0;
	}
	return wrong;
}

/* A page lazyfreed and not written since: 0 lost bytes if it holds the
 * first pattern or only zeros (then *reclaimed counts it), else the
 * bytes that differ from the first pattern. */
static long check_lazy_page(const uint64_t *w, uint64_t seed, long *reclaimed)
{
	size_t kept = 0, zero = 0;

	for (size_t i = 0; i < WORDS_PER_PAGE; i++) {
		kept += w[i] == pattern(&w[i], seed);
		zero += w[i] == 0;
	}
	if (kept == WORDS_PER_PAGE)
		return 0;
	if (zero == WORDS_PER_PAGE) {
		(*reclaimed)++;
		return 0;
	}
	return wrong_bytes(w, WORDS_PER_PAGE, seed, 0);
}

/* Write one word in every page of B (len bytes), from start to end. */
static void press(volatile uint64_t *b, size_t len, uint64_t seed)
{
	for (size_t off = 0; off < len; off += PAGE) {
		volatile uint64_t *w = b + off / sizeof(uint64_t);

		*w = pattern((const uint64_t *)w, seed);
	}
}

static long check_pressure(const uint64_t *b, size_t len, uint64_t seed)
{
	long lost = 0;

	for (size_t off = 0; off < len; off += PAGE)
		lost += wrong_bytes(b + off / sizeof(uint64_t), 1, seed, 0);
	return lost;
}

/* Check A (len bytes, folios of fsz): rewritten chunks hold the second
 * pattern; the rest is kept or reclaimed page by page. Return: lost bytes. */
static long check_range(const uint64_t *a, size_t len, size_t fsz, uint64_t seed, long *reclaimed)
{
	long lost = 0;

	for (size_t off = 0; off < len; off += PAGE) {
		const uint64_t *w = a + off / sizeof(uint64_t);

		if ((off / fsz) % 4 == 0)
			lost += wrong_bytes(w, WORDS_PER_PAGE, seed, REWRITE_XOR);
		else
			lost += check_lazy_page(w, seed, reclaimed);
	}
	return lost;
}

/* A counter's increase since before (-1 when the kernel has no counter). */
static long vmstat_delta(const char *name, long before)
{
	return before < 0 ? -1 : vmstat(name) - before;
}

/*
 * One run of one row: fill A, MADV_FREE it, rewrite every 4th folio,
 * write B past MemFree (timed), check B and unmap it, then check A.
 * Context: the THP controls allow only r->kib folios while A and B fault.
 */
static void run_row(struct row *r, size_t len, int run, uint64_t seed)
{
	size_t fsz = (size_t)r->kib << 10, blen;
	char *raw_a, *raw_b;
	uint64_t *a, *b;
	long lazyfreed0, split0, usable_kib;
	double t0;

	if (r->kib != 4 || nctls)
		set_size(r->kib);
	a = map_2m_aligned(len, &raw_a);
	for (size_t i = 0; i < len / sizeof(uint64_t); i++)
		a[i] = pattern(&a[i], seed);
	r->anon_huge[run] = anon_huge_kib();
	lazyfreed0 = vmstat("pglazyfreed");
	split0 = vmstat("thp_split_page");
	if (madvise(a, len, MADV_FREE))
		die("madvise(MADV_FREE): %s", strerror(errno));
	for (size_t off = 0; off < len; off += 4 * fsz)
		for (size_t i = off / sizeof(uint64_t); i < (off + fsz) / sizeof(uint64_t); i++)
			a[i] = pattern(&a[i], seed) ^ REWRITE_XOR;
	/* The reserve is read now: Linux raises it when THP is turned on. */
	r->reserve[run] = (long)total_reserve_kib("min");
	usable_kib = (long)mem_free_kib() - r->reserve[run];
	blen = ((size_t)(usable_kib > 0 ? usable_kib : 0) << 10) + len / 8 * 3;
	t0 = now_ms();
	b = map_2m_aligned(blen, &raw_b);
	press(b, blen, ~seed);
	r->ms[run] = now_ms() - t0;
	r->written[run] = (long)(blen >> 10);
	r->ms_per_mib[run] = r->ms[run] / ((double)blen / (1 << 20));
	/* B goes before A is read: with memory short, the check's own
	 * allocations (zero page, page tables, /proc buffers) would reclaim
	 * folios already found kept, and pglazyfreed would count more than
	 * the pressure took (two 64K folios on Folium, one 32-page batch). */
	r->lost += check_pressure(b, blen, ~seed);
	munmap(raw_b, blen + SZ_2M);
	r->reclaimed[run] = 0;
	r->lost += check_range(a, len, fsz, seed, &r->reclaimed[run]);
	r->reclaimed[run] *= PAGE >> 10;
	r->lazyfreed[run] = vmstat_delta("pglazyfreed", lazyfreed0);
	r->splits[run] = vmstat_delta("thp_split_page", split0);
	munmap(raw_a, len + SZ_2M);
}

/* KiB of A lazyfreed and not rewritten: all but every 4th folio. */
static unsigned long lazyfree_kib(const struct row *r, size_t len)
{
	size_t nfolios = len / ((size_t)r->kib << 10);

	return (unsigned long)((nfolios - (nfolios + 3) / 4) * r->kib);
}

static void print_rows(struct row *rows, int nrows, size_t len, int runs)
{
	struct utsname u;

	uname(&u);
	printf("MADV_FREE of %zu MiB, every 4th folio rewritten, then %zu MiB past MemFree "
	       "less the reserve written, on %s %s, median of %d run(s)\n",
	       len >> 20, len / 8 * 3 >> 20, u.sysname, u.release, runs);
	printf(" folio mapping lazyfree[KiB] reserve[KiB] reclaimed[KiB] pglazyfreed splits "
	       "AnonHuge[KiB] pressure[ms]    min[ms]    max[ms] lost[bytes]\n");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		qsort(r->ms, (size_t)runs, sizeof(double), cmp_double);
		qsort(r->ms_per_mib, (size_t)runs, sizeof(double), cmp_double);
		printf("%5uK %7s %14lu %12ld %14ld %11ld %6ld %13ld %12.3f %10.3f %10.3f %11ld\n",
		       r->kib, r->pmd ? "pmd" : "pte", lazyfree_kib(r, len),
		       median_long(r->reserve, runs), median_long(r->reclaimed, runs),
		       median_long(r->lazyfreed, runs), median_long(r->splits, runs),
		       median_long(r->anon_huge, runs), r->ms[runs / 2], r->ms[0], r->ms[runs - 1],
		       r->lost);
	}
	rec_start("lazyfree_sbs", &u, len, runs);
	rec_line("@cols folio[KiB] mapping[-] lazyfree[KiB] pressure[KiB] reserve[KiB] "
		 "reclaimed[KiB] pglazyfreed[count] splits[count] anon_huge[KiB] "
		 "pressure_time[ms] min[ms] max[ms] lost[bytes] written[KiB] per_mib[ms/MiB]");
	for (int i = 0; i < nrows; i++) {
		struct row *r = &rows[i];

		/* Sorted above: the medians are at runs / 2. */
		rec_line("@row %u %s %lu %zu %ld %ld %ld %ld %ld %.3f %.3f %.3f %ld %ld %.3f",
			 r->kib, r->pmd ? "pmd" : "pte", lazyfree_kib(r, len), len / 8 * 3 >> 10,
			 r->reserve[runs / 2], r->reclaimed[runs / 2], r->lazyfreed[runs / 2],
			 r->splits[runs / 2], r->anon_huge[runs / 2], r->ms[runs / 2], r->ms[0],
			 r->ms[runs - 1], r->lost, median_long(r->written, runs),
			 r->ms_per_mib[runs / 2]);
	}
	printf("@end lazyfree_sbs %d %08x\n", nrows, rec_hash);
}

int main(int argc, char **argv)
{
	static struct row rows[MAX_ROWS];
	size_t len = 64ul << 20;
	int runs = 3, nrows = 0;
	unsigned int kib[MAX_ROWS];
	unsigned long free_kib;
	long lost = 0;

	if (start_sbs("lazyfree", argc, argv, &len, &runs, kib) < 0)
		return 2;
	if (len < MIN_LEN) {
		fprintf(stderr,
			"usage: lazyfree [--bytes N[K|M|G]] [--runs 1..%d]: --bytes of "
			"at least 4M\n",
			MAX_RUNS);
		return 2;
	}
	free_kib = mem_free_kib();
	if (free_kib > MAX_MEM_FREE_KIB) {
		fprintf(stderr,
			"lazyfree: MemFree is %lu MiB, above 2048 MiB: the pressure "
			"would fill this machine; skipped\n",
			free_kib >> 10);
		return 77;
	}
	rows[nrows++] = (struct row){ .kib = 4 };
	if (have_size(64))
		rows[nrows++] = (struct row){ .kib = 64 };
	if (nctls)
		rows[nrows++] = (struct row){ .kib = 2048, .pmd = 1 };
	for (int run = 0; run < runs; run++)
		for (int i = 0; i < nrows; i++) {
			int n = (i + run) % nrows;

			run_row(&rows[n], len, run,
				(uint64_t)(run * MAX_ROWS + n + 1) * 0x2545f4914f6cdd1dull);
		}
	restore();
	print_rows(rows, nrows, len, runs);
	for (int i = 0; i < nrows; i++)
		lost += rows[i].lost;
	if (lost) {
		fprintf(stderr, "lazyfree: %ld bytes lost\n", lost);
		return 1;
	}
	return 0;
}
