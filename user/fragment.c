/*
 * fragment: the fragmentation experiment (bench fragment, after mmtests'
 * stress-highalloc) as one static program for every kernel of the
 * side-by-side: how many 2 MiB THP faults succeed in physical memory that
 * user space fragmented, without compaction and with direct compaction.
 * One run:
 *  1. Fill: with THP off (every control "never", MADV_NOHUGEPAGE), write
 *     one page at a time all free memory above the high watermarks (and a
 *     16 MiB slack) with order-0 anonymous pages, each stamped with its
 *     address. Every FILL_PER_TABLE pages a read of a fresh 2 MiB slot of
 *     a read-only mapping makes the kernel allocate a PTE table (Linux's
 *     GFP_PGTABLE_USER, Folium's GFP_KERNEL: unmovable): the unmovable
 *     load user space can create, made between the movable pages as a
 *     kernel's own allocations come between a workload's.
 *  2. Holes: MADV_DONTNEED on every other page frees half the fill in
 *     order-0 holes, one in every pair of pages of each pageblock.
 *  3. Burst: with THP on, a ballast of plain 2 MiB faults (which may
 *     not compact) takes every free block of 2 MiB or more, until one
 *     falls back; then one more PTE table per HOLE_PER_TABLE holes, which
 *     finds free only the holes and pieces below 2 MiB: unmovable
 *     allocations that must fall back into movable pageblocks (and mix
 *     them, or claim them); then the ballast is unmapped.
 *  4. Attempts, each over the same N fresh 2 MiB-aligned regions (N:
 *     the free memory above the high watermarks and the slack / 2 MiB,
 *     counted before the first), one byte written per region, THP
 *     "always" for 2048K and defrag "madvise" (Linux's default, and
 *     Folium's): (a) nocompact, a plain mapping, whose faults may not
 *     compact (GFP_TRANSHUGE_LIGHT), unmapped after; (b) compact, the same
 *     under MADV_HUGEPAGE, whose faults compact first (GFP_TRANSHUGE). A
 *     region got a THP if the kernel counted it: /proc/vmstat
 *     thp_fault_alloc (smaps' AnonHugePages beside it), with
 *     compact_stall, _success, _fail and pgmigrate_success around each.
 *  5. Check: every kept page still holds its stamp (compaction moved many
 *     of them), every hole and table slot reads zeros, every region its
 *     byte; else the bytes are lost (exit 1, after the record).
 * Linux compacts in the background too: proactively (kcompactd, every
 * 500 ms while vm.compaction_proactiveness > 0) and after a watermark
 * boost (a fallback that stole a pageblock wakes kswapd, which wakes
 * kcompactd). Folium has neither, and "without compaction" must mean
 * none, so both sysctls are 0 during the run (compact_daemon_wake shows
 * it). Every control changed is restored on exit and on SIGINT/SIGTERM.
 * Rows: nocompact and compact, the medians over runs (success and time
 * with min and max); record fragment_sbs. Runs follow each other in one
 * boot, so what the kernel keeps (pageblock migratetypes, compaction's
 * deferral) carries over from one to the next, as on a machine. A
 * missing control is said on stderr and in @env ("none"); without THP
 * controls or without MADV_HUGEPAGE a row is "n/a" with -1 in every
 * count; a count the kernel keeps not, or a file it cannot show (smaps),
 * is -1. Where MemFree is above 2 GiB it refuses to run (exit 77): it
 * would fill the machine.
 * Example: in a 1 GiB guest under Linux 6.1 it writes 858 MiB, frees 429,
 * makes 10296 tables, and tries 165 regions per attempt.
 * Usage: fragment [--quick] [--bytes N[K|M|G]] [--runs R]
 *   --bytes: fill at most N (default: all free memory); --quick: one run,
 *   at most 64 MiB of fill, 32 ballast THPs and 32 regions (make test).
 */
#include <stddef.h>
#include "sbs.h"

#define FILL_PER_TABLE 64ul /* data pages written per PTE table made */
#define HOLE_PER_TABLE 16ul /* holes per PTE table made after them */
#define PAGES_2M (SZ_2M / PAGE)
#define SLACK_KIB (16ul << 10) /* left free: the kernel's own allocations */
#define MAX_MEM_FREE_KIB (2ul << 20)
#define QUICK_FILL (64ul << 20)
#define QUICK_REGIONS 32ul
#define SYSCTL_VM "/proc/sys/vm/"

enum mode {
	NOCOMPACT,
	COMPACT,
	NR_MODES
};
static const char *const mode_names[NR_MODES] = { "nocompact", "compact" };

/* The /proc/vmstat counters an attempt reads before and after. */
enum counter {
	THP_FAULT_ALLOC,
	THP_FAULT_FALLBACK,
	COMPACT_STALL,
	COMPACT_SUCCESS,
	COMPACT_FAIL,
	PGMIGRATE_SUCCESS,
	COMPACT_DAEMON_WAKE,
	NR_COUNTERS
};
static const char *const counter_names[NR_COUNTERS] = {
	"thp_fault_alloc", "thp_fault_fallback", "compact_stall",	"compact_success",
	"compact_fail",	   "pgmigrate_success",	 "compact_daemon_wake",
};

/* What one attempt measured; -1: the kernel keeps no such count. */
struct attempt {
	long regions, thp, success_pm; /* success in tenths of a percent */
	long anon_huge_kib, time_us, per_region_us;
	long delta[NR_COUNTERS]; /* thp_fault_alloc's is thp */
	long lost;		 /* bytes */
};

/* The record's columns after mode and status: the field, its format
 * (1: tenths, "93.1"; 3: microseconds as ms, "12.345"; 0: as is),
 * whether min and max over the runs follow the median, and whether the
 * cell is the worst run's instead of the median (lost bytes). */
static const struct col {
	const char *name, *unit;
	size_t off;
	int fmt, spread, worst;
} cols[] = {
	{ "regions", "count", offsetof(struct attempt, regions), 0, 0, 0 },
	{ "thp", "count", offsetof(struct attempt, thp), 0, 0, 0 },
	{ "success", "%", offsetof(struct attempt, success_pm), 1, 1, 0 },
	{ "anon_huge", "KiB", offsetof(struct attempt, anon_huge_kib), 0, 0, 0 },
	{ "fallbacks", "count", offsetof(struct attempt, delta[THP_FAULT_FALLBACK]), 0, 0, 0 },
	{ "time", "ms", offsetof(struct attempt, time_us), 3, 1, 0 },
	{ "per_region", "us", offsetof(struct attempt, per_region_us), 0, 0, 0 },
	{ "compact_stall", "count", offsetof(struct attempt, delta[COMPACT_STALL]), 0, 0, 0 },
	{ "compact_success", "count", offsetof(struct attempt, delta[COMPACT_SUCCESS]), 0, 0, 0 },
	{ "compact_fail", "count", offsetof(struct attempt, delta[COMPACT_FAIL]), 0, 0, 0 },
	{ "pgmigrate_success", "count", offsetof(struct attempt, delta[PGMIGRATE_SUCCESS]), 0, 0,
	  0 },
	{ "kcompactd_wake", "count", offsetof(struct attempt, delta[COMPACT_DAEMON_WAKE]), 0, 0,
	  0 },
	{ "lost", "bytes", offsetof(struct attempt, lost), 0, 0, 1 },
};
#define NR_COLS (sizeof(cols) / sizeof(cols[0]))

/* How much to fill, from the free memory above the reserve: data pages
 * (a multiple of 512) and PTE tables (the fill's own, one per 2 MiB, come
 * on top). Example: 800 MiB usable -> 201216 pages, 3144 tables. */
struct plan {
	unsigned long data_pages, tables, burst_tables;
};

/* The experiment's setting, printed in @env. */
struct setting {
	int runs, quick, pageblock_order;
	size_t cap;		/* --bytes: most fill bytes; 0: no cap */
	char defrag[16];	/* set to madvise, or "none" */
	char proactive[16];	/* vm.compaction_proactiveness's value in the run, or "none" */
	char boost[16];		/* vm.watermark_boost_factor's, or "none" */
	unsigned long fill_kib; /* the first run's */
	unsigned long tables;	/* the first run's PTE tables, fill and burst */
	long ballast;		/* the first run's ballast THPs (-1: not counted) */
};

/* --- reading the kernel --------------------------------------------------- */

/* Each counter of /proc/vmstat text f into v (-1 if missing). */
static void read_counters(FILE *f, long v[NR_COUNTERS])
{
	char key[64];
	long val;

	for (int i = 0; i < NR_COUNTERS; i++)
		v[i] = -1;
	while (f && fscanf(f, "%63s %ld", key, &val) == 2)
		for (int i = 0; i < NR_COUNTERS; i++)
			if (!strcmp(key, counter_names[i]))
				v[i] = val;
}

static void snapshot(long v[NR_COUNTERS])
{
	FILE *f = fopen("/proc/vmstat", "r");

	read_counters(f, v);
	if (f)
		fclose(f);
}

/* "Page block order: 9" of /proc/pagetypeinfo text f; -1 if missing. */
static int read_pageblock_order(FILE *f)
{
	char line[256];
	int order;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Page block order: %d", &order) == 1)
			return order;
	return -1;
}

static int pageblock_order(void)
{
	FILE *f = fopen("/proc/pagetypeinfo", "r");
	int order = read_pageblock_order(f);

	if (f)
		fclose(f);
	return order;
}

/* --- the plan (pure: tested on the host) ------------------------------------ */

/* The fill for free_kib of MemFree above reserve_kib (watermarks), at most
 * cap bytes of data (0: no cap): every page above the reserve and the
 * slack is data or a table. */
static struct plan plan_fill(unsigned long free_kib, unsigned long reserve_kib, size_t cap)
{
	unsigned long usable =
		free_kib > reserve_kib + SLACK_KIB ? free_kib - reserve_kib - SLACK_KIB : 0;
	unsigned long pages = usable / (PAGE >> 10), data;
	struct plan p;

	/* Per 512 data pages: 512 / FILL_PER_TABLE tables made, one own. */
	data = pages * PAGES_2M / (PAGES_2M + PAGES_2M / FILL_PER_TABLE + 1);
	if (cap && data > cap / PAGE)
		data = cap / PAGE;
	p.data_pages = data / PAGES_2M * PAGES_2M;
	p.tables = p.data_pages / FILL_PER_TABLE;
	p.burst_tables = p.data_pages / 2 / HOLE_PER_TABLE;
	return p;
}

/* 2 MiB regions an attempt tries: the free memory above the reserve and
 * the slack, at most max (0: no cap). Example: 420 MiB free, 36 reserve:
 * 184. */
static unsigned long plan_regions(unsigned long free_kib, unsigned long reserve_kib,
				  unsigned long max)
{
	unsigned long n = free_kib > reserve_kib + SLACK_KIB
				  ? (free_kib - reserve_kib - SLACK_KIB) / (SZ_2M >> 10)
				  : 0;

	return max && n > max ? max : n;
}

/* Tenths of a percent of n out of d; -1 if either is unknown or d is 0. */
static long permille(long n, long d)
{
	return n < 0 || d <= 0 ? -1 : (n * 1000 + d / 2) / d;
}

/* --- the workload ------------------------------------------------------------- */

/* The word a page of the fill holds at both ends: its address and the
 * run, never 0. */
static inline uint64_t stamp(const volatile uint64_t *w, uint64_t seed)
{
	return ((uintptr_t)w ^ seed) | 1;
}

/* One run's mappings: the fill (data), the read-only table slots and
 * the raw ranges to unmap. */
struct run_maps {
	volatile uint64_t *data;
	volatile const char *slots;
	char *raw_data, *raw_slots;
	size_t data_len, slots_len;
	unsigned long next_slot;
};

/* Make one PTE table: a read of the next 2 MiB slot maps the zero page
 * by a PTE, in a table of its own. */
static void make_table(struct run_maps *m)
{
	(void)m->slots[m->next_slot++ * SZ_2M];
}

static void *map_anon(size_t len, int prot, int flags)
{
	void *p = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	if (p == MAP_FAILED)
		die("mmap of %zu bytes: %s", len, strerror(errno));
	return p;
}

/* Map the fill and the slots, both without THP (MADV_NOHUGEPAGE where the
 * kernel has it: a THP would be no order-0 page, and a read there would
 * map the huge zero page without a PTE table). */
static void map_run(struct run_maps *m, const struct plan *p)
{
	m->data_len = p->data_pages * PAGE;
	m->data = map_2m_aligned(m->data_len, &m->raw_data);
	m->slots_len = (p->tables + p->burst_tables + 1) * SZ_2M;
	m->raw_slots = map_anon(m->slots_len + SZ_2M, PROT_READ, MAP_NORESERVE);
	m->slots = (char *)(((uintptr_t)m->raw_slots + SZ_2M - 1) & ~(SZ_2M - 1));
	m->next_slot = 0;
	madvise(m->raw_data, m->data_len + SZ_2M, MADV_NOHUGEPAGE);
	madvise(m->raw_slots, m->slots_len + SZ_2M, MADV_NOHUGEPAGE);
}

/* Step 1: write every data page's stamp at both ends, a table every
 * FILL_PER_TABLE pages. */
static void fill(struct run_maps *m, uint64_t seed)
{
	const size_t words = PAGE / sizeof(uint64_t);

	for (size_t i = 0; i < m->data_len / PAGE; i++) {
		volatile uint64_t *w = m->data + i * words;

		w[0] = stamp(&w[0], seed);
		w[words - 1] = stamp(&w[words - 1], seed);
		if (i % FILL_PER_TABLE == FILL_PER_TABLE - 1)
			make_table(m);
	}
}

/* Step 2: free every odd page. */
static void holes(struct run_maps *m)
{
	for (size_t off = PAGE; off < m->data_len; off += 2 * PAGE)
		if (madvise((char *)m->data + off, PAGE, MADV_DONTNEED))
			die("madvise(MADV_DONTNEED): %s", strerror(errno));
}

/*
 * Step 3a: plain 2 MiB THP faults (which may not compact) take every
 * free block of 2 MiB or more, until one falls back, so the burst finds
 * only the holes and what is left below 2 MiB: the unmovable allocations
 * must fall back into the movable pageblocks, not claim a free one whole.
 * Return: the THPs got (-1: not counted), at most max_regions (0: no
 * cap); *raw and *len what to unmap after the burst.
 * Context: THP on for 2048K.
 */
static long ballast(char **raw, size_t *len, unsigned long max_regions)
{
	unsigned long max = plan_regions(mem_free_kib(), total_reserve_kib("high"), max_regions);
	long fall0 = vmstat("thp_fault_fallback"), alloc0 = vmstat("thp_fault_alloc");
	volatile char *r;

	*len = (max ? max : 1) * SZ_2M;
	r = map_2m_aligned(*len, raw);
	for (unsigned long i = 0; i < max; i++) {
		r[i * SZ_2M] = 1;
		if (fall0 < 0 || vmstat("thp_fault_fallback") != fall0)
			break;
	}
	return alloc0 < 0 ? -1 : vmstat("thp_fault_alloc") - alloc0;
}

/* Step 3: the ballast (at most max_regions, 0: no cap), the burst of
 * tables, the ballast given back. Return: ballast's. */
static long burst(struct run_maps *m, const struct plan *p, unsigned long max_regions)
{
	size_t len;
	char *raw;
	long got = ballast(&raw, &len, max_regions);

	for (unsigned long i = 0; i < p->burst_tables; i++)
		make_table(m);
	munmap(raw, len + SZ_2M);
	return got;
}

/* Bytes of the fill and the slots that are not what they must be: a
 * stamp at both ends of an even page, zeros in an odd one and in every
 * slot made. */
static long check_run(const struct run_maps *m, uint64_t seed)
{
	const size_t words = PAGE / sizeof(uint64_t);
	long lost = 0;

	for (size_t i = 0; i < m->data_len / PAGE; i++) {
		const volatile uint64_t *w = m->data + i * words;
		uint64_t want0 = i % 2 ? 0 : stamp(&w[0], seed);
		uint64_t want1 = i % 2 ? 0 : stamp(&w[words - 1], seed);

		lost += (w[0] != want0) * 8 + (w[words - 1] != want1) * 8;
	}
	for (unsigned long s = 0; s < m->next_slot; s++)
		lost += m->slots[s * SZ_2M] != 0;
	return lost;
}

/* Step 4, one attempt: n regions, one byte each, under MADV_HUGEPAGE if
 * mode is COMPACT. Return: -1 if the mapping cannot have MADV_HUGEPAGE
 * (then the row is n/a), else 0 with *a filled. */
static int attempt(enum mode mode, unsigned long n, struct attempt *a)
{
	long before[NR_COUNTERS], after[NR_COUNTERS];
	size_t len = (n ? n : 1) * SZ_2M;
	volatile char *r;
	char *raw;
	double t0;

	r = map_2m_aligned(len, &raw);
	if (mode == COMPACT && madvise(raw, len + SZ_2M, MADV_HUGEPAGE)) {
		fprintf(stderr, "%s: madvise(MADV_HUGEPAGE): %s: the compact row is n/a\n",
			prog_name, strerror(errno));
		munmap(raw, len + SZ_2M);
		return -1;
	}
	snapshot(before);
	t0 = now_ms();
	for (unsigned long i = 0; i < n; i++)
		r[i * SZ_2M] = (char)(i | 1);
	a->time_us = (long)((now_ms() - t0) * 1000);
	snapshot(after);
	a->anon_huge_kib = anon_huge_kib();
	for (int c = 0; c < NR_COUNTERS; c++)
		a->delta[c] = before[c] < 0 || after[c] < 0 ? -1 : after[c] - before[c];
	a->regions = (long)n;
	a->thp = a->delta[THP_FAULT_ALLOC];
	if (a->thp < 0 && a->anon_huge_kib >= 0)
		a->thp = a->anon_huge_kib / (long)(SZ_2M >> 10);
	a->success_pm = permille(a->thp, a->regions);
	a->per_region_us = n ? a->time_us / (long)n : -1;
	a->lost = 0;
	for (unsigned long i = 0; i < n; i++)
		a->lost += r[i * SZ_2M] != (char)(i | 1);
	munmap(raw, len + SZ_2M);
	return 0;
}

static void mark_na(struct attempt *a)
{
	for (size_t c = 0; c < NR_COLS; c++)
		*(long *)((char *)a + cols[c].off) = -1;
}

/*
 * One run: fill, holes and burst with THP off, then both attempts with
 * THP on, checking the fill after each. res[mode] gets the attempts (a
 * mode n/a in na gets -1s); st the first run's sizes.
 */
static void run_once(struct setting *st, int run, struct attempt res[NR_MODES], int *na)
{
	uint64_t seed = (uint64_t)(run + 1) * 0x9e3779b97f4a7c15ull;
	unsigned long max_regions = st->quick ? QUICK_REGIONS : 0, n;
	long ballast_2m;
	struct run_maps m;
	struct plan p;

	if (nr_thp_ctls())
		set_size(4);
	p = plan_fill(mem_free_kib(), total_reserve_kib("high"), st->cap);
	if (!run) {
		st->fill_kib = p.data_pages * (PAGE >> 10);
		st->tables = p.tables + p.burst_tables;
	}
	map_run(&m, &p);
	fill(&m, seed);
	holes(&m);
	if (nr_thp_ctls())
		set_size(2048);
	ballast_2m = burst(&m, &p, max_regions);
	if (!run)
		st->ballast = ballast_2m;
	/* One count for both: the first attempt's memory is all given back
	 * before the second, but some of it waits on the per-CPU lists, which
	 * MemFree does not count. */
	n = plan_regions(mem_free_kib(), total_reserve_kib("high"), max_regions);
	for (int mode = 0; mode < NR_MODES; mode++) {
		if (na[mode] || attempt((enum mode)mode, n, &res[mode])) {
			na[mode] = 1;
			mark_na(&res[mode]);
			continue;
		}
		res[mode].lost += check_run(&m, seed);
	}
	munmap(m.raw_data, m.data_len + SZ_2M);
	munmap(m.raw_slots, m.slots_len + SZ_2M);
}

/* --- the controls --------------------------------------------------------------- */

/* Set a control for the run, or say it is missing: out gets the value in
 * effect, or "none". */
static void set_or_none(const char *path, const char *val, char *out, size_t len)
{
	if (set_ctl(path, val) == 0) {
		snprintf(out, len, "%s", val);
		return;
	}
	snprintf(out, len, "none");
	fprintf(stderr, "%s: %s: %s; left as it is\n", prog_name, path,
		access(path, F_OK) ? "missing" : "not writable");
}

static void set_controls(struct setting *st)
{
	char path[160];

	snprintf(path, sizeof(path), "%s/defrag", thp);
	set_or_none(path, "madvise", st->defrag, sizeof(st->defrag));
	set_or_none(SYSCTL_VM "compaction_proactiveness", "0", st->proactive,
		    sizeof(st->proactive));
	set_or_none(SYSCTL_VM "watermark_boost_factor", "0", st->boost, sizeof(st->boost));
}

/* --- the table and the record ------------------------------------------------- */

/* Which of the runs' values of column c: 0 min, 1 median, 2 max; -1 if
 * no run knows it. */
static long col_stat(const struct attempt *res, int runs, const struct col *c, int which)
{
	long v[MAX_RUNS];
	int n = 0;

	/* Over the runs that know the value: -1 (a file the kernel could
	 * not show that time) is no 0. */
	for (int i = 0; i < runs; i++) {
		v[n] = *(const long *)((const char *)&res[i] + c->off);
		n += v[n] >= 0;
	}
	if (!n)
		return -1;
	median_long(v, n);
	return which == 0 ? v[0] : which == 2 ? v[n - 1] : v[n / 2];
}

/* A value as its column reads; -1 stays -1. */
static const char *fmt_value(char *buf, size_t len, long v, int fmt)
{
	if (v < 0 || !fmt)
		snprintf(buf, len, "%ld", v);
	else if (fmt == 1)
		snprintf(buf, len, "%ld.%ld", v / 10, v % 10);
	else
		snprintf(buf, len, "%ld.%03ld", v / 1000, v % 1000);
	return buf;
}

/* Append the row's cells of mode (median, then min and max where the
 * column has a spread), or the header cells if res is NULL. */
static void append_cells(char *buf, size_t len, const struct attempt *res, int runs)
{
	static const int which[] = { 1, 0, 2 };
	size_t used = strlen(buf);
	char v[32];

	for (size_t c = 0; c < NR_COLS; c++)
		for (int k = 0; k < (cols[c].spread ? 3 : 1) && used < len; k++) {
			if (!res)
				used += (size_t)snprintf(buf + used, len - used, " %s%s[%s]",
							 cols[c].name,
							 k == 0	  ? ""
							 : k == 1 ? "_min"
								  : "_max",
							 cols[c].unit);
			else
				used += (size_t)snprintf(
					buf + used, len - used, " %s",
					fmt_value(v, sizeof(v),
						  col_stat(res, runs, &cols[c],
							   cols[c].worst ? 2 : which[k]),
						  cols[c].fmt));
		}
}

static void print_table(struct attempt res[NR_MODES][MAX_RUNS], const int *na,
			const struct setting *st, const struct utsname *u)
{
	printf("Fragmentation: %lu MiB written as 4K pages with %lu PTE tables between and after, "
	       "every other page freed, then 2 MiB THP faults, on %s %s (pageblock order %d), "
	       "median of %d run(s)\n",
	       st->fill_kib >> 10, st->tables, u->sysname, u->release, st->pageblock_order,
	       st->runs);
	printf("mode       regions  THPs success%%  AnonHuge[KiB]  time[ms] stalls "
	       "compacted migrated lost\n");
	for (int mode = 0; mode < NR_MODES; mode++) {
		const struct attempt *r = res[mode];
		char s[16], t[16];

		if (na[mode]) {
			printf("%-9s  n/a\n", mode_names[mode]);
			continue;
		}
		printf("%-9s %8ld %5ld %8s %14ld %9s %6ld %9ld %8ld %4ld\n", mode_names[mode],
		       col_stat(r, st->runs, &cols[0], 1), col_stat(r, st->runs, &cols[1], 1),
		       fmt_value(s, sizeof(s), col_stat(r, st->runs, &cols[2], 1), 1),
		       col_stat(r, st->runs, &cols[3], 1),
		       fmt_value(t, sizeof(t), col_stat(r, st->runs, &cols[5], 1), 3),
		       col_stat(r, st->runs, &cols[7], 1), col_stat(r, st->runs, &cols[8], 1),
		       col_stat(r, st->runs, &cols[10], 1), col_stat(r, st->runs, &cols[12], 2));
	}
}

static void print_record(struct attempt res[NR_MODES][MAX_RUNS], const int *na,
			 const struct setting *st, const struct utsname *u)
{
	char line[1024], env[256];

	snprintf(env, sizeof(env),
		 " pageblock_order=%d defrag=%s compaction_proactiveness=%s "
		 "watermark_boost_factor=%s pgtables=%lu ballast_2m=%ld quick=%d",
		 st->pageblock_order, st->defrag, st->proactive, st->boost, st->tables, st->ballast,
		 st->quick);
	rec_start_env("fragment_sbs", u, st->fill_kib << 10, st->runs, env);
	snprintf(line, sizeof(line), "@cols mode[-] status[-]");
	append_cells(line, sizeof(line), NULL, st->runs);
	rec_line("%s", line);
	for (int mode = 0; mode < NR_MODES; mode++) {
		snprintf(line, sizeof(line), "@row %s %s", mode_names[mode],
			 na[mode] ? "n/a" : "ok");
		append_cells(line, sizeof(line), res[mode], st->runs);
		rec_line("%s", line);
	}
	printf("@end fragment_sbs %d %08x\n", NR_MODES, rec_hash);
}

/* --- main ------------------------------------------------------------------------ */

/* --quick out of argv (the rest is start_sbs's). Return: the new argc. */
static int take_quick(int argc, char **argv, int *quick)
{
	int n = 1;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick"))
			*quick = 1;
		else
			argv[n++] = argv[i];
	}
	return n;
}

static long total_lost(struct attempt res[NR_MODES][MAX_RUNS], const int *na, int runs)
{
	long lost = 0;

	for (int mode = 0; mode < NR_MODES; mode++)
		for (int run = 0; run < runs && !na[mode]; run++)
			lost += res[mode][run].lost;
	return lost;
}

int main(int argc, char **argv)
{
	static struct attempt res[NR_MODES][MAX_RUNS], by_run[NR_MODES];
	struct setting st = { .runs = 3 };
	int na[NR_MODES] = { 0 };
	unsigned int kib[MAX_ROWS];
	struct utsname u;
	long lost;

	argc = take_quick(argc, argv, &st.quick);
	if (st.quick) {
		st.runs = 1;
		st.cap = QUICK_FILL;
	}
	if (start_sbs("fragment", argc, argv, &st.cap, &st.runs, kib) < 0)
		return 2;
	if (mem_free_kib() > MAX_MEM_FREE_KIB) {
		fprintf(stderr,
			"fragment: MemFree is %lu MiB, above 2048 MiB: filling it would take "
			"this machine; skipped\n",
			mem_free_kib() >> 10);
		return 77;
	}
	if (!nr_thp_ctls()) {
		fprintf(stderr, "fragment: no THP controls under %s: both rows n/a\n", thp);
		na[NOCOMPACT] = na[COMPACT] = 1;
	}
	st.pageblock_order = pageblock_order();
	set_controls(&st);
	for (int run = 0; run < st.runs && !(na[NOCOMPACT] && na[COMPACT]); run++) {
		run_once(&st, run, by_run, na);
		for (int mode = 0; mode < NR_MODES; mode++)
			res[mode][run] = by_run[mode];
	}
	restore();
	uname(&u);
	print_table(res, na, &st, &u);
	print_record(res, na, &st, &u);
	lost = total_lost(res, na, st.runs);
	if (lost) {
		fprintf(stderr, "fragment: %ld bytes lost\n", lost);
		return 1;
	}
	return 0;
}
