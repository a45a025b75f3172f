/*
 * The clearing benchmarks, shared by `bench clear` in the kernel and the
 * host program build/bench-clear. Two tables: (1) bytes per cycle|ns of
 * clear_pages() with rep stosb and rep stosq, memset and a plain 8-byte
 * store loop, per extent (on the host bytes/ns is GB/s); (2) for each
 * zero_strategy, the cost of folio_zero_user() and then of reading the
 * faulting page ±2 pages, as the user does when the fault returns (the
 * analogue of the stime/utime table in the folio_zero_user patch). Each
 * table is followed by its bench record (clear_pages, folio_zero_user).
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <vm.h>

#define BENCH_POOL_MAX 1024 /* folios the strategy table cycles through */
static struct folio *pool[BENCH_POOL_MAX];
static volatile uint64_t bench_sink;

/* The cheapest correct fill: what any clear instruction competes with. */
static void store_loop(void *addr, unsigned long bytes)
{
	volatile uint64_t *w = addr;

	for (unsigned long i = 0; i < bytes / 8; i++)
		w[i] = 0;
}

enum fill_method {
	FILL_STOSB,
	FILL_STOSQ,
	FILL_MEMSET,
	FILL_STORES,
	NR_FILL_METHODS
};
static const char *const fill_names[] = { "rep stosb", "rep stosq", "memset", "8B loop" };
static const char *const fill_cols[] = { "stosb", "stosq", "memset", "loop8" };

static void fill(enum fill_method m, void *addr, unsigned long bytes)
{
	switch (m) {
	case FILL_STOSB:
	case FILL_STOSQ:
		clear_pages(addr, bytes / PAGE_SIZE);
		break;
	case FILL_MEMSET:
		memset(addr, 0, bytes);
		break;
	default:
		store_loop(addr, bytes);
		break;
	}
}

/* Return: bytes x100 per cycle|ns, doubling the repetitions of one fill
 * over the same bytes until a run lasts at least budget. */
static uint64_t fill_rate(enum fill_method m, void *buf, unsigned long bytes, uint64_t budget)
{
	uint64_t reps = 1, elapsed;

	if (m == FILL_STOSB || m == FILL_STOSQ)
		clear_pages_select(m == FILL_STOSB ? "stosb" : "stosq");
	fill(m, buf, bytes); /* warm-up: TLB, and pages settled before timing */
	for (;;) {
		uint64_t t0 = arch_cycles();

		for (uint64_t r = 0; r < reps; r++)
			fill(m, buf, bytes);
		elapsed = arch_cycles() - t0;
		if (elapsed >= budget)
			return bytes * reps * 100 / (elapsed ? elapsed : 1);
		reps *= 2;
	}
}

static void print_extent(unsigned long bytes)
{
	char size[24];

	kprintf("%-10s", kformat_size(size, sizeof(size), bytes));
}

#define MAX_EXTENTS 8

/* A rate x100 as "12.34". */
static const char *hundredths(char *buf, size_t len, uint64_t v)
{
	ksnprintf(buf, len, "%llu.%02llu", (unsigned long long)(v / 100),
		  (unsigned long long)(v % 100));
	return buf;
}

static void print_extents_record(const unsigned long *extents, unsigned int n,
				 uint64_t rates[][NR_FILL_METHODS], const char *unit)
{
	char cols[160], a[24], b[24], c[24], d[24];
	struct benchrec rec;
	size_t used;

	used = ksnprintf(cols, sizeof(cols), "extent[bytes]");
	for (unsigned int m = 0; m < NR_FILL_METHODS; m++)
		used += ksnprintf(cols + used, sizeof(cols) - used, " %s[bytes/%s]", fill_cols[m],
				  unit);
	benchrec_begin(&rec, "clear_pages", cols, NULL);
	for (unsigned int i = 0; i < n; i++)
		benchrec_row(&rec, "%lu %s %s %s %s", extents[i],
			     hundredths(a, sizeof(a), rates[i][0]),
			     hundredths(b, sizeof(b), rates[i][1]),
			     hundredths(c, sizeof(c), rates[i][2]),
			     hundredths(d, sizeof(d), rates[i][3]));
	benchrec_end(&rec);
}

/* unit: what arch_cycles() counts, singular ("cycle", "ns"). */
void bench_clear_extents(void *buf, const unsigned long *extents, unsigned int n, uint64_t budget,
			 const char *unit)
{
	const char *saved = clear_pages_insn_name();
	uint64_t rates[MAX_EXTENTS][NR_FILL_METHODS];
	char rate[24];

	n = MIN(n, MAX_EXTENTS);
	kprintf("clear_pages() throughput, bytes per %s; 8B loop = volatile 8-byte stores\n", unit);
	kprintf("%-10s", "extent");
	for (unsigned int m = 0; m < NR_FILL_METHODS; m++)
		kprintf(" %12s", fill_names[m]);
	kprintf("\n");
	for (unsigned int i = 0; i < n; i++) {
		print_extent(extents[i]);
		for (unsigned int m = 0; m < NR_FILL_METHODS; m++) {
			rates[i][m] = fill_rate(m, buf, extents[i], budget);
			kprintf(" %12s", hundredths(rate, sizeof(rate), rates[i][m]));
		}
		kprintf("\n");
	}
	clear_pages_select(saved);
	print_extents_record(extents, n, rates, unit);
}

/* Read one word per cache line of the fault's page ±2, as the returning
 * user would. */
static void touch_neighbourhood(struct folio *folio, unsigned long fault)
{
	unsigned long first = fault >= 2 ? fault - 2 : 0;
	unsigned long last = MIN(fault + 2, folio_nr_pages(folio) - 1);
	const volatile uint64_t *w = page_address(folio_page(folio, first));
	uint64_t sum = 0;

	for (unsigned long i = 0; i < (last - first + 1) * PAGE_SIZE / 8; i += 8)
		sum += w[i];
	bench_sink += sum;
}

static uint64_t clear_samples[BENCH_POOL_MAX], touch_samples[BENCH_POOL_MAX];

/* Median cost of folio_zero_user() and of the touch after it, cycling
 * through the pool so each folio is cold (not used for pool_bytes). The
 * median, not the mean: a timer interrupt or a noisy neighbour on the
 * host lands in a few samples only. */
static void bench_one(unsigned int nr_pool, unsigned long fault, unsigned int iterations,
		      uint64_t *clear, uint64_t *touch)
{
	const unsigned long user_base = 0x40000000ul;

	iterations = MIN(iterations, BENCH_POOL_MAX);
	for (unsigned int i = 0; i < iterations; i++) {
		struct folio *folio = pool[i % nr_pool];
		uint64_t t0 = arch_cycles(), t1, t2;

		folio_zero_user(folio, user_base + fault * PAGE_SIZE);
		t1 = arch_cycles();
		touch_neighbourhood(folio, fault);
		t2 = arch_cycles();
		clear_samples[i] = t1 - t0;
		touch_samples[i] = t2 - t1;
	}
	*clear = bench_median(clear_samples, iterations);
	*touch = bench_median(touch_samples, iterations);
}

static unsigned int fill_pool(int nid, unsigned int order, unsigned long pool_bytes)
{
	unsigned int n = 0;

	while (n < BENCH_POOL_MAX && (unsigned long)n << (order + PAGE_SHIFT) < pool_bytes) {
		pool[n] = folio_alloc_node(nid, GFP_KERNEL | __GFP_NOWARN, order);
		if (!pool[n])
			break;
		memset(folio_address(pool[n]), 0xab, folio_size(pool[n]));
		n++;
	}
	return n;
}

/* The strategy table's rows, for its record after the human table. */
static struct zero_row {
	unsigned long folio_kib, fault;
	const char *where, *strategy;
	uint64_t clear, touch;
} zero_rows[2 * 3 * 3];
static unsigned int nr_zero_rows;

static void bench_order(int nid, unsigned int order, unsigned long pool_bytes,
			unsigned int iterations)
{
	static const char *const where[] = { "start", "middle", "end" };
	const unsigned long nr = 1ul << order, faults[] = { 0, nr / 2, nr - 1 };
	unsigned int n = fill_pool(nid, order, pool_bytes);
	char size[24];

	kformat_size(size, sizeof(size), PAGE_SIZE << order);
	if (!n) {
		kprintf("%-8s no folio of this size available\n", size);
		return;
	}
	for (unsigned int f = 0; f < ARRAY_SIZE(faults); f++) {
		for (unsigned int s = ZERO_NEIGHBOURHOOD; s <= ZERO_PAGE; s++) {
			uint64_t clear, touch;

			zero_strategy = s;
			bench_one(n, faults[f], iterations, &clear, &touch);
			zero_rows[nr_zero_rows++] =
				(struct zero_row){ (PAGE_SIZE << order) / KIB, faults[f], where[f],
						   zero_strategy_name(s),      clear,	  touch };
			kprintf("%-8s %-6s %-4lu %-14s %12llu %12llu\n", size, where[f], faults[f],
				zero_strategy_name(s), (unsigned long long)clear,
				(unsigned long long)touch);
		}
	}
	kprintf("         (%u folios in the pool, %u runs each)\n", n, iterations);
	while (n)
		folio_put(pool[--n]);
}

static void print_zero_record(const char *unit)
{
	struct benchrec rec;
	char cols[128];

	ksnprintf(cols, sizeof(cols),
		  "folio[KiB] fault[-] fault_page[index] strategy[-] clear[%s] touch[%s]", unit,
		  unit);
	benchrec_begin(&rec, "folio_zero_user", cols, NULL);
	for (unsigned int i = 0; i < nr_zero_rows; i++) {
		const struct zero_row *r = &zero_rows[i];

		benchrec_row(&rec, "%lu %s %lu %s %llu %llu", r->folio_kib, r->where, r->fault,
			     r->strategy, (unsigned long long)r->clear,
			     (unsigned long long)r->touch);
	}
	benchrec_end(&rec);
}

void bench_folio_zero(int nid, unsigned long pool_bytes, unsigned int iterations, const char *unit)
{
	enum zero_strategy saved = zero_strategy;

	nr_zero_rows = 0;
	kprintf("folio_zero_user() then reading the fault's page +-2 pages (%s, median; "
		"clear_pages: rep %s)\n",
		unit, clear_pages_insn_name());
	kprintf("%-8s %-11s %-14s %12s %12s\n", "folio", "fault", "strategy", "clear", "touch");
	bench_order(nid, HPAGE_PMD_ORDER, pool_bytes, iterations);
	bench_order(nid, 4, pool_bytes, iterations * 8);
	kprintf("clear: the fault's share of kernel time (Linux: stime); touch: the user's "
		"first reads after it (utime)\n");
	zero_strategy = saved;
	print_zero_record(unit);
}

/* `bench clear`: both tables in the kernel, in TSC cycles. */
int bench_clear_command(bool quick)
{
	static const unsigned long extents[] = { 4 * KIB, 64 * KIB, 2 * MIB };
	const char *hv = arch_hypervisor();
	struct folio *buf = folio_alloc(GFP_KERNEL | __GFP_NOWARN, HPAGE_PMD_ORDER);

	bench_banner("Folium clearing benchmark");
	if (hv)
		kprintf("note: under QEMU's TCG rep stosb costs hundreds of times its native "
			"price\n"
			"      and ranks the clearing instructions backwards: take clearing\n"
			"      conclusions from the host-native run (make bench), not this one\n");
	if (!buf) {
		kprintf("bench: no 2 MiB folio free\n");
		return -1;
	}
	kprintf("\n");
	bench_clear_extents(folio_address(buf), extents, ARRAY_SIZE(extents),
			    arch_cycles_per_sec() / (quick ? 1000 : 50), "cycle");
	folio_put(buf);
	kprintf("\n");
	bench_folio_zero(0, quick ? 4 * MIB : 16 * MIB, quick ? 1 : 4, "cycles");
	return 0;
}
