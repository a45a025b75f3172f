/*
 * The page allocator benchmark: cost of one alloc + free with the buddy
 * allocator against the hobby-kernel bitmap allocator (mm/bitmap_alloc.c),
 * side by side over the same number of pages, for every order,
 * "single" (alloc, free, repeat) and "batched" (alloc a batch, then free
 * it). Costs are in arch_cycles(): TSC cycles in the kernel, nanoseconds
 * on the host. Reported, never judged: timing is not a test. The table
 * is printed twice: for people, and as the page_alloc bench record.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <bitmap_alloc.h>
#include <mm.h>

#define BENCH_MAX_PAGES 65536ul /* 256 MiB */
#define BENCH_BATCH_MAX 4096ul	/* blocks per batch */

static struct pglist_data bench_node;
static uint8_t bench_pageblock_flags[BENCH_MAX_PAGES / 2];
static struct bitmap_alloc bitmap;
static unsigned long bitmap_words[BITMAP_ALLOC_LONGS(BENCH_MAX_PAGES)];
static unsigned long batch[BENCH_BATCH_MAX];
static int bench_nid;

/* The rows as measured, printed as a record after the human table (a
 * record must not be interleaved with other output the host may want). */
static struct {
	unsigned int order;
	const char *pattern;
	char text[72];
} rows[2 * NR_PAGE_ORDERS];
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
	uint64_t t0 = arch_cycles();

	for (unsigned long r = 0; r < rounds; r++)
		a->free(a->alloc(order), order);
	return (arch_cycles() - t0) * 10 / rounds;
}

/* Return: cycles x10 per pair, n allocs then n frees, `rounds` times. */
static uint64_t bench_batched(const struct allocator *a, unsigned int order, unsigned long n,
			      unsigned long rounds)
{
	uint64_t t0 = arch_cycles();

	for (unsigned long r = 0; r < rounds; r++) {
		for (unsigned long i = 0; i < n; i++)
			batch[i] = a->alloc(order);
		for (unsigned long i = 0; i < n; i++)
			a->free(batch[i], order);
	}
	return (arch_cycles() - t0) * 10 / (rounds * n);
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
	kprintf("%-6u %-8s %14s %14s %7sx\n", order, pattern, b, m, ratio);
	rows[nr_rows].order = order;
	rows[nr_rows].pattern = pattern;
	ksnprintf(rows[nr_rows].text, sizeof(rows[nr_rows].text), "%s %s %s", b, m, ratio);
	nr_rows++;
}

/* Batches take a quarter of the memory, so the buddy allocator (whose
 * watermarks keep some pages back) never runs dry mid-batch. */
static unsigned long batch_blocks(unsigned long nr_pages, unsigned int order)
{
	return MIN(BENCH_BATCH_MAX, (nr_pages / 4) >> order);
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

int bench_page_alloc(unsigned long start_pfn, unsigned long nr_pages, int nid, const char *unit,
		     bool quick)
{
	const struct allocator buddy = { buddy_alloc, buddy_free };
	const struct allocator bm = { bm_alloc, bm_free };
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
	kprintf("%-6s %-8s %11s/op %11s/op %8s\n", "order", "pattern", unit, unit, "ratio");
	kprintf("%-6s %-8s %14s %14s\n", "", "", "buddy", "bitmap");
	for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
		unsigned long rounds = MAX(base_rounds >> o, 20ul), n = batch_blocks(nr_pages, o);
		unsigned long batch_rounds = quick ? 2 : 20;

		report_row(o, "single", bench_single(&buddy, o, rounds),
			   bench_single(&bm, o, rounds));
		report_row(o, "batched", bench_batched(&buddy, o, n, batch_rounds),
			   bench_batched(&bm, o, n, batch_rounds));
	}
	kprintf("\n%s/op = one alloc + one free; ratio = bitmap / buddy (higher: buddy faster)\n\n",
		unit);
	print_record(nr_pages, unit);
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
