/*
 * The MADV_FREE benchmark, shared by `bench madvise` in the kernel and
 * the host program build/bench-madvise: the table of "mm/madvise:
 * optimize lazyfreeing with mTHP in madvise_free". For each folio size
 * one VMA is faulted in with writes (thp_orders_enabled = that order
 * only), then madvise(MADV_FREE) of the whole range is timed with the
 * split path (every large folio split, then PTE by PTE, the flush
 * gathered: one for the range, as the kernel before the change) and,
 * after MADV_DONTNEED and a rewrite, with the batched path (one
 * clear_young_dirty_ptes per folio, one flush), each with its counter
 * deltas; then reclaim_lazyfree of the lazyfree range. Two floors, from
 * the same run: one bare read of every PTE of the range (the least any PTE
 * walk costs), and a read and a store back old and clean of every PTE (the
 * least a clear of young and dirty costs), each timed right after
 * MADV_DONTNEED and a refault as the MADV_FREEs are, so both see the
 * tables in the same caches; each row gives batched / floor for both.
 * The records madvise_free and madvise_pte_floor follow the human table.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <vm.h>

#define RW (VM_READ | VM_WRITE)

static const unsigned int bench_orders[] = { 0, 2, 3, 4, 5, 6, 7, 8, 9 };
static volatile uint64_t bench_sink;

/* What one timed MADV_FREE did: time and the evidence counters. */
struct free_run {
	uint64_t time;
	unsigned long pte_writes, splits, flush_one, flush_all;
	int ret;
};

/* Write one word per page: every PTE present, young and dirty. Return:
 * 0 or the first copy_to_user error. */
static int fault_in(unsigned long addr, unsigned long bytes)
{
	for (unsigned long off = 0; off < bytes; off += PAGE_SIZE) {
		uint64_t word = addr + off;
		int ret = copy_to_user(addr + off, &word, sizeof(word));

		if (ret)
			return ret;
	}
	return 0;
}

static void time_free(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
		      enum lazyfree_mode mode, struct free_run *r)
{
	struct pglist_data *pgdat = NODE_DATA(mm->nid);
	unsigned long writes = mm->counters[MM_PTE_WRITES];
	unsigned long splits = node_split_count(pgdat);
	unsigned long one = mm->counters[MM_TLB_FLUSH_ONE];
	unsigned long all = mm->counters[MM_TLB_FLUSH_ALL];
	uint64_t t0;

	lazyfree_mode = mode;
	t0 = arch_cycles();
	r->ret = do_madvise(mm, addr, bytes, MADV_FREE);
	r->time = arch_cycles() - t0;
	r->pte_writes = mm->counters[MM_PTE_WRITES] - writes;
	r->splits = node_split_count(pgdat) - splits;
	r->flush_one = mm->counters[MM_TLB_FLUSH_ONE] - one;
	r->flush_all = mm->counters[MM_TLB_FLUSH_ALL] - all;
}

/* t in the unit's millions (ns → ms, cycles → Mcycles), 3 decimals. */
static const char *millions(char *buf, size_t len, uint64_t t)
{
	ksnprintf(buf, len, "%llu.%03llu", (unsigned long long)(t / 1000000),
		  (unsigned long long)(t / 1000 % 1000));
	return buf;
}

static void print_time(uint64_t t)
{
	char buf[24];

	kprintf(" %11s", millions(buf, sizeof(buf), t));
}

/* The change from split to batched, in percent with one decimal. */
static const char *format_change(char *buf, size_t len, uint64_t split, uint64_t batched)
{
	long tenths = split ? (long)((batched * 1000 + split / 2) / split) - 1000 : 0;
	long mag = tenths < 0 ? -tenths : tenths;

	ksnprintf(buf, len, "%s%ld.%ld", tenths < 0 ? "-" : "+", mag / 10, mag % 10);
	return buf;
}

static void print_counters(const struct free_run *r)
{
	kprintf(" | %8lu %6lu %7lu %4lu", r->pte_writes, r->splits, r->flush_one, r->flush_all);
}

/* The state every timed MADV_FREE starts from: the range freshly faulted
 * in with writes after a MADV_DONTNEED of whatever was there, so neither
 * mode inherits a warmer or colder layout from the other. */
static int refault(struct mm_struct *mm, unsigned long addr, unsigned long bytes)
{
	if (do_madvise(mm, addr, bytes, MADV_DONTNEED))
		return -1;
	return fault_in(addr, bytes);
}

/* The two floors of a run: the best bare read and the best read + store
 * back of every PTE of the range, each measured in the state the timed
 * runs start from (after MADV_DONTNEED and a refault: the page tables as
 * the faults left them in the caches); and the same two passes repeated
 * back to back, with the tables already warm from the pass before. */
struct pte_floor {
	uint64_t read, rw;
	uint64_t read_warm, rw_warm;
};

/*
 * Read every PTE of [addr, addr + bytes), one mm_find_pte per table; with
 * write, store each back old and clean, as the cheapest clear of young and
 * dirty would. volatile: one load (and one store) per PTE, none folded
 * away or merged, as a per-PTE loop over page tables does. The TLB keeps
 * stale young/dirty bits after a write pass: harmless, every timed run
 * starts with MADV_DONTNEED (a flush) and a refault. Return: the time, or
 * 0 if a table is missing (PMD-mapped range).
 */
static uint64_t time_pte_floor(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
			       bool write)
{
	const pte_t young_dirty = _PAGE_ACCESSED | _PAGE_DIRTY;
	uint64_t t0 = arch_cycles(), sum = 0;

	for (unsigned long a = addr; a < addr + bytes; a += PMD_SIZE) {
		volatile pte_t *pte = mm_find_pte(mm, a);

		if (!pte)
			return 0;
		if (write) {
			for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
				pte[i] = pte[i] & ~young_dirty;
			continue;
		}
		for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
			sum += pte[i];
	}
	bench_sink += sum;
	return arch_cycles() - t0;
}

/* Both floors, the best of `passes` passes each: each pass right after
 * its own refault, as a timed run, then once more warm. Return: 0, or -1
 * if a refault failed. */
static int best_pte_floor(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
			  unsigned int passes, struct pte_floor *best)
{
	*best = (struct pte_floor){ UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX };
	for (unsigned int pass = 0; pass < passes; pass++) {
		if (refault(mm, addr, bytes))
			return -1;
		best->read = MIN(best->read, time_pte_floor(mm, addr, bytes, false));
		best->read_warm = MIN(best->read_warm, time_pte_floor(mm, addr, bytes, false));
		if (refault(mm, addr, bytes))
			return -1;
		best->rw = MIN(best->rw, time_pte_floor(mm, addr, bytes, true));
		best->rw_warm = MIN(best->rw_warm, time_pte_floor(mm, addr, bytes, true));
	}
	return 0;
}

/* Passes per floor: as many as timed runs per mode, at least 3 (a pass is
 * short, and one slow pass would inflate every ratio of the run). */
static unsigned int floor_passes(unsigned int runs)
{
	return MAX(runs, 3u);
}

/* t / floor with one decimal ("17.8"); 0.0 without a floor. */
static const char *format_ratio(char *buf, size_t len, uint64_t t, uint64_t floor)
{
	uint64_t tenths = floor ? (t * 10 + floor / 2) / floor : 0;

	ksnprintf(buf, len, "%llu.%llu", (unsigned long long)(tenths / 10),
		  (unsigned long long)(tenths % 10));
	return buf;
}

/* One folio size's results, kept for the record after the table. */
struct madvise_row {
	unsigned int order;
	struct free_run split, batched;
	uint64_t reclaim;
	unsigned long freed;
};
static struct madvise_row rows[ARRAY_SIZE(bench_orders)];
static unsigned int nr_rows;

static void print_row(const struct madvise_row *r, const struct pte_floor *floor, bool fell_back)
{
	char size[16], change[24], read[24], rw[24];

	ksnprintf(size, sizeof(size), "%luK", (unsigned long)(PAGE_SIZE << r->order) / 1024);
	kprintf("%-6s", size);
	print_time(r->split.time);
	print_time(r->batched.time);
	kprintf(" %6s%%", format_change(change, sizeof(change), r->split.time, r->batched.time));
	kprintf(" %6sx %6sx", format_ratio(read, sizeof(read), r->batched.time, floor->read),
		format_ratio(rw, sizeof(rw), r->batched.time, floor->rw));
	print_counters(&r->split);
	print_counters(&r->batched);
	kprintf(" |");
	print_time(r->reclaim);
	kprintf(" %6lu%s%s\n", r->freed, r->split.ret || r->batched.ret ? " madvise failed" : "",
		fell_back ? " (some folios fell back to smaller orders)" : "");
}

/* t / nr with three decimals, into buf. */
static const char *per_pte(char *buf, size_t len, uint64_t t, unsigned long nr)
{
	ksnprintf(buf, len, "%llu.%03llu", (unsigned long long)(t / nr),
		  (unsigned long long)(t * 1000 / nr % 1000));
	return buf;
}

static void print_record(unsigned long bytes, unsigned int runs, const struct pte_floor *floor,
			 const char *unit, const char *time_unit)
{
	char cols[440], env[64], a[24], b[24], c[24], d[24], e[24], f[24];
	unsigned long nr = bytes / PAGE_SIZE;
	struct benchrec rec;

	ksnprintf(cols, sizeof(cols),
		  "folio[KiB] split[%s] batched[%s] change[%%] split_pte_writes[count] "
		  "split_splits[count] split_flushes[count] split_full_flushes[count] "
		  "batched_pte_writes[count] batched_splits[count] batched_flushes[count] "
		  "batched_full_flushes[count] reclaim[%s] freed[pages] "
		  "batched_read_floor[x] batched_rw_floor[x]",
		  time_unit, time_unit, time_unit);
	ksnprintf(env, sizeof(env), " range_bytes=%lu runs=%u", bytes, runs);
	benchrec_begin(&rec, "madvise_free", cols, env);
	for (unsigned int i = 0; i < nr_rows; i++) {
		const struct madvise_row *r = &rows[i];

		benchrec_row(&rec, "%lu %s %s %s %lu %lu %lu %lu %lu %lu %lu %lu %s %lu %s %s",
			     (unsigned long)((PAGE_SIZE << r->order) / KIB),
			     millions(a, sizeof(a), r->split.time),
			     millions(b, sizeof(b), r->batched.time),
			     format_change(c, sizeof(c), r->split.time, r->batched.time),
			     r->split.pte_writes, r->split.splits, r->split.flush_one,
			     r->split.flush_all, r->batched.pte_writes, r->batched.splits,
			     r->batched.flush_one, r->batched.flush_all,
			     millions(d, sizeof(d), r->reclaim), r->freed,
			     format_ratio(e, sizeof(e), r->batched.time, floor->read),
			     format_ratio(f, sizeof(f), r->batched.time, floor->rw));
	}
	benchrec_end(&rec);
	ksnprintf(cols, sizeof(cols), "ptes[count] time[%s] per_pte[%s] rw_time[%s] rw_per_pte[%s]",
		  time_unit, unit, time_unit, unit);
	benchrec_begin(&rec, "madvise_pte_floor", cols, env);
	benchrec_row(&rec, "%lu %s %s %s %s", nr, millions(a, sizeof(a), floor->read),
		     per_pte(b, sizeof(b), floor->read, nr), millions(c, sizeof(c), floor->rw),
		     per_pte(d, sizeof(d), floor->rw, nr));
	benchrec_end(&rec);
}

/* One timed MADV_FREE of the range in mode, from a fresh refault. */
static int timed_run(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
		     enum lazyfree_mode mode, struct free_run *r, uint64_t *sample)
{
	if (refault(mm, addr, bytes))
		return -1;
	time_free(mm, addr, bytes, mode, r);
	*sample = r->time;
	return 0;
}

/* The fastest of n samples. */
static uint64_t best_of(const uint64_t *v, unsigned int n)
{
	uint64_t best = v[0];

	for (unsigned int i = 1; i < n; i++)
		best = MIN(best, v[i]);
	return best;
}

/*
 * One row: split and batched MADV_FREE, `runs` times each, interleaved in
 * alternating order (split first, then batched first, ...), each from the
 * same state; the best run of each mode is kept; then reclaim of the last
 * batched range. Why the best and the alternation: successive refaults
 * alternate between two physical layouts (the buddy hands out the other
 * halves of the blocks it split), and one layout measured up to several
 * times slower whichever mode ran on it (on the host most in the 2048K
 * row, under TCG in every row); the order gives each mode both layouts
 * and the best compares each mode on its faster one. Return: 0, or -1
 * when the range cannot be faulted.
 */
static int bench_order(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
		       unsigned int order, unsigned int runs, struct pte_floor *floor)
{
	unsigned long fallback = mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK];
	struct madvise_row *r = &rows[nr_rows++];
	uint64_t split[BENCH_MADVISE_MAX_RUNS], batched[BENCH_MADVISE_MAX_RUNS], t0;

	thp_orders_enabled = order ? 1ul << order : 0;
	r->order = order;
	if (order == 0 && best_pte_floor(mm, addr, bytes, floor_passes(runs), floor))
		return -1;
	for (unsigned int run = 0; run < runs; run++) {
		bool split_first = !(run & 1);

		if ((split_first &&
		     timed_run(mm, addr, bytes, LAZYFREE_SPLIT, &r->split, &split[run])) ||
		    timed_run(mm, addr, bytes, LAZYFREE_BATCHED, &r->batched, &batched[run]) ||
		    (!split_first &&
		     timed_run(mm, addr, bytes, LAZYFREE_SPLIT, &r->split, &split[run])))
			return -1;
	}
	r->split.time = best_of(split, runs);
	r->batched.time = best_of(batched, runs);
	t0 = arch_cycles();
	r->freed = reclaim_lazyfree(NODE_DATA(mm->nid), bytes / PAGE_SIZE);
	r->reclaim = arch_cycles() - t0;
	print_row(r, floor, mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK] != fallback);
	return do_madvise(mm, addr, bytes, MADV_DONTNEED) ? -1 : 0;
}

static void print_header(unsigned long bytes, const char *time_unit)
{
	char size[24];

	kprintf("madvise(MADV_FREE) of %s faulted in with writes, per folio size; times in %s\n",
		kformat_size(size, sizeof(size), bytes), time_unit);
	kprintf("upstream (Intel i5, 1 GiB, mm/madvise: optimize lazyfreeing with mTHP in "
		"madvise_free):\n  4K 0.59 s -> 0.59 s; 16K 2.99 -> 0.19; 64K 2.46 -> 0.053; "
		"1024K 2.18 -> 0.0078; 2048K 0.0028 -> 0.0028\n");
	kprintf("%-6s %11s %11s %7s %-15s | %-28s | %-28s | %11s %6s\n", "", "", "", "",
		" batched/floor", "split: counter deltas", "batched: counter deltas", "", "");
	kprintf("%-6s %11s %11s %7s %7s %7s | %8s %6s %7s %4s | %8s %6s %7s %4s | %11s %6s\n",
		"folio", "split", "batched", "change", "read", "rw", "pte-wr", "splits", "flush1",
		"all", "pte-wr", "splits", "flush1", "all", "reclaim", "freed");
}

/* One floor: its label, its time, and per PTE. */
static void print_floor_line(const char *label, uint64_t t, unsigned long nr, const char *unit,
			     const char *time_unit)
{
	char buf[24];

	kprintf("  %-34s", label);
	print_time(t);
	kprintf(" %s = %s %s per PTE\n", time_unit, per_pte(buf, sizeof(buf), t, nr), unit);
}

static void print_floor(const struct pte_floor *floor, unsigned long bytes, unsigned int runs,
			const char *unit, const char *time_unit)
{
	unsigned long nr = bytes / PAGE_SIZE;

	kprintf("floors over the %lu PTEs (one mm_find_pte per table, best of %u), each right\n"
		"after MADV_DONTNEED and a refault, as the timed runs (the ratios above):\n",
		nr, floor_passes(runs));
	print_floor_line("read:  each PTE read", floor->read, nr, unit, time_unit);
	print_floor_line("rw:    each PTE read, stored clean", floor->rw, nr, unit, time_unit);
	kprintf("the same passes repeated at once, the tables warm from the pass before:\n");
	print_floor_line("read, warm", floor->read_warm, nr, unit, time_unit);
	print_floor_line("rw, warm", floor->rw_warm, nr, unit, time_unit);
}

int bench_madvise(int nid, unsigned long bytes, unsigned int runs, const char *unit,
		  const char *time_unit)
{
	unsigned long saved_orders = thp_orders_enabled;
	enum lazyfree_mode saved_mode = lazyfree_mode;
	struct mm_struct *prev = current_mm, *mm = mm_create(nid);
	unsigned long addr;
	struct pte_floor floor = { 0 };
	int ret = 0;

	if (!mm)
		return -1;
	switch_mm(mm);
	addr = vm_mmap(mm, 0, bytes, RW, 0);
	if (IS_ERR_VALUE(addr))
		ret = -1;
	nr_rows = 0;
	if (!ret)
		print_header(bytes, time_unit);
	runs = MIN(MAX(runs, 1u), (unsigned int)BENCH_MADVISE_MAX_RUNS);
	for (unsigned int i = 0; i < ARRAY_SIZE(bench_orders) && !ret; i++)
		ret = bench_order(mm, addr, bytes, bench_orders[i], runs, &floor);
	if (ret)
		kprintf("bench madvise: cannot fault in %lu bytes\n", bytes);
	else
		print_floor(&floor, bytes, runs, unit, time_unit);
	kprintf("split: every PTE-mapped large folio split, then PTE by PTE, the flush gathered\n"
		"(one for the range, as Linux before the change); batched: one\n"
		"clear_young_dirty_ptes per folio, one flush (all = full flushes). With 4K folios\n"
		"both do the same work. A 2 MiB folio on one PMD is aged on the PMD in both (one\n"
		"invalidation each). reclaim: reclaim_lazyfree of the range after the last "
		"batched\n"
		"MADV_FREE; freed = pages it freed. Times: best of %u runs per mode,\n"
		"interleaved in alternating order, each from a freshly faulted range.\n"
		"batched/floor: batched against each floor of the same run (read: a bare read\n"
		"of every PTE; rw: a read and a store back old and clean of every PTE).\n\n",
		runs);
	if (!ret)
		print_record(bytes, runs, &floor, unit, time_unit);
	thp_orders_enabled = saved_orders;
	lazyfree_mode = saved_mode;
	switch_mm(prev);
	mm_destroy(mm);
	return ret;
}

/* `bench madvise`: up to 256 MiB of node 0 (4 MiB quick), half of what
 * is free. */
int bench_madvise_command(bool quick)
{
	unsigned long bytes = quick ? 4 * MIB : 256 * MIB;
	unsigned long avail = node_free_pages(NODE_DATA(0)) * PAGE_SIZE;

	bench_banner("Folium MADV_FREE benchmark");
	if (arch_hypervisor())
		kprintf("note: TSC cycles under a hypervisor are not a native CPU's; compare\n"
			"      the columns with each other, not with upstream's seconds\n");
	while (bytes > PMD_SIZE && bytes > avail / 2)
		bytes /= 2;
	kprintf("\n");
	return bench_madvise(0, bytes, quick ? 1 : 8, "cycles", "Mcycles");
}
