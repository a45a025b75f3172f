/*
 * The MADV_FREE benchmark, shared by `bench madvise` in the kernel and
 * the host program build/bench-madvise: the table of "mm/madvise:
 * optimize lazyfreeing with mTHP in madvise_free". For each folio size
 * one VMA is faulted in with writes (thp_orders_enabled = that order
 * only), then madvise(MADV_FREE) of the whole range is timed with the
 * split path (every large folio split, PTE by PTE, a flush per page) and,
 * after MADV_DONTNEED and a rewrite, with the batched path (one
 * clear_young_dirty_ptes per folio, one flush), each with its counter
 * deltas; then reclaim_lazyfree of the lazyfree range. The floor: one bare
 * read of every PTE of the range, the least any PTE walk costs.
 */
#include <arch.h>
#include <bench.h>
#include <shell.h>
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
	unsigned long splits = pgdat->vm_events[THP_SPLIT_PAGE];
	unsigned long one = mm->counters[MM_TLB_FLUSH_ONE];
	unsigned long all = mm->counters[MM_TLB_FLUSH_ALL];
	uint64_t t0;

	lazyfree_mode = mode;
	t0 = arch_cycles();
	r->ret = do_madvise(mm, addr, bytes, MADV_FREE);
	r->time = arch_cycles() - t0;
	r->pte_writes = mm->counters[MM_PTE_WRITES] - writes;
	r->splits = pgdat->vm_events[THP_SPLIT_PAGE] - splits;
	r->flush_one = mm->counters[MM_TLB_FLUSH_ONE] - one;
	r->flush_all = mm->counters[MM_TLB_FLUSH_ALL] - all;
}

/* t in the unit's millions (ns → ms, cycles → Mcycles), 3 decimals. */
static void print_time(uint64_t t)
{
	kprintf(" %7llu.%03llu", (unsigned long long)(t / 1000000),
		(unsigned long long)(t / 1000 % 1000));
}

/* The change from split to batched, in percent with one decimal. */
static void print_change(uint64_t split, uint64_t batched)
{
	long tenths = split ? (long)((batched * 1000 + split / 2) / split) - 1000 : 0;
	long mag = tenths < 0 ? -tenths : tenths;
	char buf[24];

	ksnprintf(buf, sizeof(buf), "%s%ld.%ld%%", tenths < 0 ? "-" : "+", mag / 10, mag % 10);
	kprintf(" %7s", buf);
}

static void print_counters(const struct free_run *r)
{
	kprintf(" | %8lu %6lu %7lu %4lu", r->pte_writes, r->splits, r->flush_one, r->flush_all);
}

/* Read every PTE of [addr, addr + bytes), one pte_offset_mm per table.
 * Return: the time, or 0 if a table is missing (PMD-mapped range). */
static uint64_t time_pte_floor(struct mm_struct *mm, unsigned long addr, unsigned long bytes)
{
	uint64_t t0 = arch_cycles(), sum = 0;

	for (unsigned long a = addr; a < addr + bytes; a += PMD_SIZE) {
		const volatile pte_t *pte = pte_offset_mm(mm, a, false);

		if (!pte)
			return 0;
		for (unsigned int i = 0; i < PTRS_PER_TABLE; i++)
			sum += pte[i];
	}
	bench_sink += sum;
	return arch_cycles() - t0;
}

/* The floor: the best of three bare reads of every PTE of the range. */
static uint64_t best_pte_floor(struct mm_struct *mm, unsigned long addr, unsigned long bytes)
{
	uint64_t best = time_pte_floor(mm, addr, bytes);

	for (int run = 1; run < 3; run++)
		best = MIN(best, time_pte_floor(mm, addr, bytes));
	return best;
}

static void print_row(unsigned int order, const struct free_run *split,
		      const struct free_run *batched, uint64_t reclaim, unsigned long freed,
		      bool fell_back)
{
	char size[16];

	ksnprintf(size, sizeof(size), "%luK", (unsigned long)(PAGE_SIZE << order) / 1024);
	kprintf("%-6s", size);
	print_time(split->time);
	print_time(batched->time);
	print_change(split->time, batched->time);
	print_counters(split);
	print_counters(batched);
	kprintf(" |");
	print_time(reclaim);
	kprintf(" %6lu%s%s\n", freed, split->ret || batched->ret ? " madvise failed" : "",
		fell_back ? " (some folios fell back to smaller orders)" : "");
}

/* One row: fault in at order, split MADV_FREE, refault, batched
 * MADV_FREE, reclaim. Return: 0, or -1 when the range cannot be faulted. */
static int bench_order(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
		       unsigned int order, uint64_t *floor)
{
	unsigned long fallback = mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK];
	struct free_run split, batched;
	uint64_t t0, reclaim;
	unsigned long freed;

	thp_orders_enabled = order ? 1ul << order : 0;
	if (fault_in(addr, bytes))
		return -1;
	if (order == 0)
		*floor = best_pte_floor(mm, addr, bytes);
	time_free(mm, addr, bytes, LAZYFREE_SPLIT, &split);
	/* Re-fault: the split left order-0 folios behind. */
	if (do_madvise(mm, addr, bytes, MADV_DONTNEED) || fault_in(addr, bytes))
		return -1;
	time_free(mm, addr, bytes, LAZYFREE_BATCHED, &batched);
	t0 = arch_cycles();
	freed = reclaim_lazyfree(NODE_DATA(mm->nid), bytes / PAGE_SIZE);
	reclaim = arch_cycles() - t0;
	print_row(order, &split, &batched, reclaim, freed,
		  mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK] != fallback);
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
	kprintf("%-6s %11s %11s %7s | %-28s | %-28s | %11s %6s\n", "", "", "", "",
		"split: counter deltas", "batched: counter deltas", "", "");
	kprintf("%-6s %11s %11s %7s | %8s %6s %7s %4s | %8s %6s %7s %4s | %11s %6s\n", "folio",
		"split", "batched", "change", "pte-wr", "splits", "flush1", "all", "pte-wr",
		"splits", "flush1", "all", "reclaim", "freed");
}

static void print_floor(uint64_t floor, unsigned long bytes, const char *unit,
			const char *time_unit)
{
	unsigned long nr = bytes / PAGE_SIZE;

	kprintf("floor: reading the %lu PTEs (one pte_offset_mm per table, best of 3):", nr);
	print_time(floor);
	kprintf(" %s = %llu.%03llu %s per PTE\n", time_unit, (unsigned long long)(floor / nr),
		(unsigned long long)(floor * 1000 / nr % 1000), unit);
}

int bench_madvise(int nid, unsigned long bytes, const char *unit, const char *time_unit)
{
	unsigned long saved_orders = thp_orders_enabled;
	enum lazyfree_mode saved_mode = lazyfree_mode;
	struct mm_struct *prev = current_mm, *mm = mm_create(nid);
	unsigned long addr;
	uint64_t floor = 0;
	int ret = 0;

	if (!mm)
		return -1;
	switch_mm(mm);
	addr = vm_mmap(mm, 0, bytes, RW, 0);
	if (IS_ERR_VALUE(addr))
		ret = -1;
	if (!ret)
		print_header(bytes, time_unit);
	for (unsigned int i = 0; i < ARRAY_SIZE(bench_orders) && !ret; i++)
		ret = bench_order(mm, addr, bytes, bench_orders[i], &floor);
	if (ret)
		kprintf("bench madvise: cannot fault in %lu bytes\n", bytes);
	else
		print_floor(floor, bytes, unit, time_unit);
	kprintf("split: every PTE-mapped large folio split, then PTE by PTE with an invalidation\n"
		"per page; batched: one clear_young_dirty_ptes per folio, one flush for the range\n"
		"(all = full flushes). A 2 MiB folio on one PMD is aged on the PMD in both, as\n"
		"Linux did before and after the change. reclaim: reclaim_lazyfree of the range\n"
		"after the batched MADV_FREE; freed = pages it freed. Each row is one run.\n");
	thp_orders_enabled = saved_orders;
	lazyfree_mode = saved_mode;
	switch_mm(prev);
	mm_destroy(mm);
	return ret;
}

/* `bench madvise`: up to 256 MiB of node 0, half of what is free. */
int bench_madvise_command(void)
{
	unsigned long bytes = 256 * MIB, avail = node_free_pages(NODE_DATA(0)) * PAGE_SIZE;
	const char *hv = arch_hypervisor();

	kprintf("Folium MADV_FREE benchmark (in-kernel)\ncpu: %s\nrun: %s%s\n", arch_cpu_name(),
		hv ? "EMULATED under " : "bare metal", hv ? hv : "");
	if (hv)
		kprintf("note: emulated: TSC cycles here are not a native CPU's; compare the\n"
			"      columns with each other, not with upstream's seconds\n");
	while (bytes > PMD_SIZE && bytes > avail / 2)
		bytes /= 2;
	kprintf("\n");
	return bench_madvise(0, bytes, "cycles", "Mcycles (TSC)") ? CMD_ERROR : CMD_OK;
}
