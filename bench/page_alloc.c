/*
 * The page allocator benchmark: cost of one alloc + free with the buddy
 * allocator against the hobby-kernel bitmap allocator (mm/bitmap_alloc.c),
 * side by side over the same number of pages. Patterns, for every order:
 * "single" (alloc, free, repeat: the pcp fast path), "batch64" and
 * "batch1024" (N allocs, then their N frees: refills and drains), and at
 * order 0 "bulk64"/"bulk1024" (the buddy's N allocs in one
 * alloc_pages_bulk call; the bitmap, which has no bulk call, runs its loop).
 * A batch that would take more than half the node is not run. Then
 * "mixed": a window of live blocks of random orders, the oldest freed as
 * each new one is allocated (page_alloc_mixed). Costs are in
 * arch_cycles(): TSC cycles in the kernel, nanoseconds on the host.
 * Reported, never judged: timing is not a test. Each table is printed for
 * people, then as its bench record.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <bitmap_alloc.h>
#include <mm.h>

#define BENCH_MAX_PAGES 65536ul /* 256 MiB */
#define BENCH_BATCH_MAX 1024ul	/* blocks per batch */
#define MIXED_WINDOW_MAX 256u	/* live blocks in the mixed pattern */

static struct pglist_data bench_node;
static uint8_t bench_pageblock_flags[BENCH_MAX_PAGES / 2];
static struct bitmap_alloc bitmap;
static unsigned long bitmap_words[BITMAP_ALLOC_LONGS(BENCH_MAX_PAGES)];
static unsigned long batch[BENCH_BATCH_MAX];
static struct page *bulk_pages[BENCH_BATCH_MAX];
static int bench_nid;

/* The rows as measured, printed as a record after the human table (a
 * record must not be interleaved with other output the host may want). */
static struct {
	unsigned int order;
	const char *pattern;
	char text[72];
} rows[3 * NR_PAGE_ORDERS + 2];
static unsigned int nr_rows;

/* One allocator behind two function pointers; a block is its first pfn. */
struct allocator {
	unsigned long (*alloc)(unsigned int order);
	void (*free)(unsigned long pfn, unsigned int order);
};

static unsigned long buddy_alloc(unsigned int order)
{
	struct page *page = alloc_pages_node(bench_nid, GFP_KERNEL | __GFP_NOWARN, order);

	return page ? page_to_pfn(page) : BITMAP_ALLOC_FAIL;
}

static void buddy_free(unsigned long pfn, unsigned int order)
{
	__free_pages(pfn_to_page(pfn), order);
}

static unsigned long bm_alloc(unsigned int order)
{
	return bitmap_alloc_pages(&bitmap, order);
}

static void bm_free(unsigned long pfn, unsigned int order)
{
	bitmap_free_pages(&bitmap, pfn, order);
}

/* Return: cycles x10 per alloc+free pair, alloc then free, `rounds` times. */
static uint64_t bench_single(const struct allocator *a, unsigned int order, unsigned long rounds)
{
	uint64_t t0;

	drain_node_pages(&bench_node); /* every row starts with all memory on the buddy lists */
	t0 = arch_cycles();

	for (unsigned long r = 0; r < rounds; r++)
		a->free(a->alloc(order), order);
	return (arch_cycles() - t0) * 10 / rounds;
}

/* Return: cycles x10 per pair, n allocs then n frees, `rounds` times. */
static uint64_t bench_batched(const struct allocator *a, unsigned int order, unsigned long n,
			      unsigned long rounds)
{
	uint64_t t0 = 0;

	drain_node_pages(&bench_node); /* as bench_single */
	for (unsigned long r = 0; r <= rounds; r++) {
		if (r == 1) /* round 0 warms up: pcp->high tunes itself to the batch */
			t0 = arch_cycles();
		for (unsigned long i = 0; i < n; i++)
			batch[i] = a->alloc(order);
		for (unsigned long i = 0; i < n; i++)
			a->free(batch[i], order);
	}
	return (arch_cycles() - t0) * 10 / (rounds * n);
}

/* The buddy's batch of n order-0 pages in one alloc_pages_bulk call,
 * freed one by one (as Linux's page_bench04_bulk does). Return: cycles
 * x10 per page, or 0 if a call came back short (not expected here: the
 * batch is far above the watermark). */
static uint64_t bench_bulk(unsigned long n, unsigned long rounds)
{
	uint64_t t0 = 0;

	drain_node_pages(&bench_node); /* as bench_single */
	for (unsigned long r = 0; r <= rounds; r++) {
		if (r == 1) /* round 0 warms up, as in bench_batched */
			t0 = arch_cycles();
		memset(bulk_pages, 0, n * sizeof(bulk_pages[0]));
		if (alloc_pages_bulk_array_node(GFP_KERNEL | __GFP_NOWARN, bench_nid, n,
						bulk_pages) != n) {
			kprintf("bench: alloc_pages_bulk gave fewer than %lu pages\n", n);
			return 0;
		}
		for (unsigned long i = 0; i < n; i++)
			__free_pages(bulk_pages[i], 0);
	}
	return (arch_cycles() - t0) * 10 / (rounds * n);
}

/* A mixed-order workload: orders drawn from a fixed table, a window of
 * live blocks, the oldest freed as each new one is allocated. */
struct mixed_pattern {
	const char *name;
	unsigned int window; /* live blocks; the node holds window << max order */
	unsigned char orders[16];
};

static const struct mixed_pattern mixed_patterns[] = {
	/* Page tables, slabs, small folios: mostly order 0, some up to 3. */
	{ "0-3", MIXED_WINDOW_MAX, { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3 } },
	/* Mostly small blocks, now and then a 64 KiB, 2 MiB or 4 MiB one (at
	 * most MAX_PAGE_ORDER): 32 live blocks of order 10 fit in half the node. */
	{ "0-10", 32, { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 4, 9, 10 } },
};

/* Allocations of the mixed pattern that failed (none expected: the window
 * stays within half the node); reported after its table. */
static unsigned long mixed_failures;

static unsigned int mixed_order(const struct mixed_pattern *mp, uint64_t *seed)
{
	unsigned int order = mp->orders[bench_rand(seed) % 16]; /* once: MIN evaluates twice */

	return MIN(order, (unsigned int)MAX_PAGE_ORDER);
}

static void mixed_free(const struct allocator *a, unsigned long pfn, unsigned int order)
{
	if (pfn != BITMAP_ALLOC_FAIL)
		a->free(pfn, order);
}

static unsigned long mixed_alloc(const struct allocator *a, unsigned int order)
{
	unsigned long pfn = a->alloc(order);

	mixed_failures += pfn == BITMAP_ALLOC_FAIL;
	return pfn;
}

/* Return: cycles x10 per alloc+free pair over `steps` steps of pattern mp;
 * the order sequence is the same for every allocator (a fixed seed). */
static uint64_t bench_mixed(const struct allocator *a, const struct mixed_pattern *mp,
			    unsigned long steps)
{
	static struct {
		unsigned long pfn;
		unsigned int order;
	} live[MIXED_WINDOW_MAX];
	uint64_t seed = 0x9e3779b97f4a7c15ull, t0;
	unsigned int head = 0;

	for (unsigned int i = 0; i < mp->window; i++) {
		live[i].order = mixed_order(mp, &seed);
		live[i].pfn = mixed_alloc(a, live[i].order);
	}
	t0 = arch_cycles();
	for (unsigned long s = 0; s < steps; s++) {
		mixed_free(a, live[head].pfn, live[head].order);
		live[head].order = mixed_order(mp, &seed);
		live[head].pfn = mixed_alloc(a, live[head].order);
		head = head + 1 < mp->window ? head + 1 : 0;
	}
	t0 = arch_cycles() - t0;
	for (unsigned int i = 0; i < mp->window; i++)
		mixed_free(a, live[i].pfn, live[i].order);
	return t0 * 10 / steps;
}

/* A cost x10 as "123.4". */
static const char *tenths(char *buf, size_t len, uint64_t v)
{
	ksnprintf(buf, len, "%llu.%llu", (unsigned long long)(v / 10),
		  (unsigned long long)(v % 10));
	return buf;
}

/* One measured row: a line of the human table and a record row. */
static void report_row(unsigned int order, const char *pattern, uint64_t buddy, uint64_t bm)
{
	uint64_t ratio100 = buddy ? bm * 100 / buddy : 0;
	char b[24], m[24], ratio[24];

	tenths(b, sizeof(b), buddy);
	tenths(m, sizeof(m), bm);
	ksnprintf(ratio, sizeof(ratio), "%llu.%02llu", (unsigned long long)(ratio100 / 100),
		  (unsigned long long)(ratio100 % 100));
	kprintf("%-6u %-9s %14s %14s %7sx\n", order, pattern, b, m, ratio);
	rows[nr_rows].order = order;
	rows[nr_rows].pattern = pattern;
	ksnprintf(rows[nr_rows].text, sizeof(rows[nr_rows].text), "%s %s %s", b, m, ratio);
	nr_rows++;
}

/* A batch of n blocks runs only where it takes at most half the node, so
 * the buddy allocator (whose watermarks keep some pages back) never runs
 * dry mid-batch. */
static bool batch_fits(unsigned long nr_pages, unsigned int order, unsigned long n)
{
	return n << order <= nr_pages / 2;
}

/* Rounds that make about `ops` allocations in batches of n, at least 4. */
static unsigned long batch_rounds(unsigned long ops, unsigned long n)
{
	return MAX(ops / n, 4ul);
}

static void print_record(unsigned long nr_pages, const char *unit)
{
	struct benchrec rec;
	char cols[128], env[48];

	ksnprintf(cols, sizeof(cols), "order[order] pattern[-] buddy[%s/op] bitmap[%s/op] ratio[x]",
		  unit, unit);
	ksnprintf(env, sizeof(env), " node_bytes=%lu", nr_pages * PAGE_SIZE);
	benchrec_begin(&rec, "page_alloc", cols, env);
	for (unsigned int i = 0; i < nr_rows; i++)
		benchrec_row(&rec, "%u %s %s", rows[i].order, rows[i].pattern, rows[i].text);
	benchrec_end(&rec);
}

/* The mixed-order table and its record, page_alloc_mixed. */
static void bench_mixed_table(const struct allocator *buddy, const struct allocator *bm,
			      unsigned long nr_pages, const char *unit, unsigned long steps)
{
	char text[ARRAY_SIZE(mixed_patterns)][72], env[48], cols[128];
	struct benchrec rec;

	mixed_failures = 0;
	kprintf("%-6s %-8s %11s/op %11s/op %8s\n", "orders", "window", unit, unit, "ratio");
	for (unsigned int i = 0; i < ARRAY_SIZE(mixed_patterns); i++) {
		const struct mixed_pattern *mp = &mixed_patterns[i];
		uint64_t b = bench_mixed(buddy, mp, steps), m = bench_mixed(bm, mp, steps);
		uint64_t ratio100 = b ? m * 100 / b : 0;
		char bs[24], ms[24];

		tenths(bs, sizeof(bs), b);
		tenths(ms, sizeof(ms), m);
		kprintf("%-6s %-8u %14s %14s %4llu.%02llux\n", mp->name, mp->window, bs, ms,
			(unsigned long long)(ratio100 / 100), (unsigned long long)(ratio100 % 100));
		ksnprintf(text[i], sizeof(text[i]), "%s %s %llu.%02llu", bs, ms,
			  (unsigned long long)(ratio100 / 100),
			  (unsigned long long)(ratio100 % 100));
	}
	if (mixed_failures)
		kprintf("bench: %lu allocations of the mixed pattern failed (the times include "
			"them)\n",
			mixed_failures);
	kprintf("\n");
	ksnprintf(env, sizeof(env), " node_bytes=%lu", nr_pages * PAGE_SIZE);
	ksnprintf(cols, sizeof(cols),
		  "max_order[order] window[count] buddy[%s/op] bitmap[%s/op] ratio[x]", unit, unit);
	benchrec_begin(&rec, "page_alloc_mixed", cols, env);
	for (unsigned int i = 0; i < ARRAY_SIZE(mixed_patterns); i++)
		benchrec_row(&rec, "%u %u %s", mixed_patterns[i].orders[15],
			     mixed_patterns[i].window, text[i]);
	benchrec_end(&rec);
}

int bench_page_alloc(unsigned long start_pfn, unsigned long nr_pages, int nid, const char *unit,
		     bool quick)
{
	const struct allocator buddy = { buddy_alloc, buddy_free };
	const struct allocator bm = { bm_alloc, bm_free };
	static const unsigned long batch_sizes[] = { 64, BENCH_BATCH_MAX };
	static const char *const batch_names[] = { "batch64", "batch1024" };
	static const char *const bulk_names[] = { "bulk64", "bulk1024" };
	unsigned long base_rounds = quick ? 10000 : 200000;

	nr_pages = MIN(ALIGN_DOWN(nr_pages, MAX_ORDER_NR_PAGES), BENCH_MAX_PAGES);
	if (nr_pages < 4 * MAX_ORDER_NR_PAGES || NODE_DATA(nid)) {
		kprintf("bench: need %lu free pages and node %d unused\n", 4 * MAX_ORDER_NR_PAGES,
			nid);
		return -1;
	}
	bench_nid = nid;
	nr_rows = 0;
	pgdat_init(&bench_node, nid, start_pfn, start_pfn + nr_pages, bench_pageblock_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + nr_pages);
	bitmap_alloc_init(&bitmap, start_pfn, nr_pages, bitmap_words);
	kprintf("memory: %lu MiB per allocator; config: MAX_PAGE_ORDER=%d pageblock_order=%d "
		"DEBUG_VM=%d THP=%d\n\n",
		nr_pages * PAGE_SIZE >> 20, MAX_PAGE_ORDER, (int)pageblock_order, CONFIG_DEBUG_VM,
		CONFIG_TRANSPARENT_HUGEPAGE);
	kprintf("%-6s %-9s %11s/op %11s/op %8s\n", "order", "pattern", unit, unit, "ratio");
	kprintf("%-6s %-9s %14s %14s\n", "", "", "buddy", "bitmap");
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long rounds = MAX(base_rounds >> o, 20ul);

		/* Ctrl-C in the shell: stop between two orders, node freed. */
		if (console_interrupted()) {
			kprintf("bench: interrupted after %u of %d orders\n", o,
				MAX_PAGE_ORDER + 1);
			pgdat_destroy(&bench_node);
			return -1;
		}
		report_row(o, "single", bench_single(&buddy, o, rounds),
			   bench_single(&bm, o, rounds));
		for (unsigned int b = 0; b < ARRAY_SIZE(batch_sizes); b++) {
			unsigned long n = batch_sizes[b], r = batch_rounds(rounds, n);

			if (!batch_fits(nr_pages, o, n))
				continue;
			report_row(o, batch_names[b], bench_batched(&buddy, o, n, r),
				   bench_batched(&bm, o, n, r));
			if (o == 0)
				report_row(o, bulk_names[b], bench_bulk(n, r),
					   bench_batched(&bm, o, n, r));
		}
	}
	kprintf("\n%s/op = one alloc + one free; ratio = bitmap / buddy (higher: buddy faster);\n"
		"batchN: N allocs, then their frees; bulkN: the buddy's N in one\n"
		"alloc_pages_bulk call (the bitmap runs its batchN loop)\n\n",
		unit);
	print_record(nr_pages, unit);
	bench_mixed_table(&buddy, &bm, nr_pages, unit, quick ? 20000 : 400000);
	pgdat_destroy(&bench_node);
	return 0;
}

int bench_page_alloc_command(bool quick)
{
	unsigned long start_pfn, nr_pages;
	int ret = -1;

	bench_banner("Folium page allocator benchmark");
	/* The private node lives in memory node 0 lends for this run. */
	if (test_memory_offline() || mm_test_memory(&start_pfn, &nr_pages) < 0)
		kprintf("bench: no test memory (the mm: line above says why)\n");
	else
		ret = bench_page_alloc(start_pfn, nr_pages, MAX_NUMNODES - 1, "cycles", quick);
	test_memory_online();
	return ret;
}
