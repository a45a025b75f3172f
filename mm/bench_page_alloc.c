/*
 * The page allocator benchmark: cost of one alloc + free with the buddy
 * allocator against the hobby-kernel bitmap allocator (mm/bitmap_alloc.c),
 * side by side over the same number of pages, for orders 0, 3 and 9,
 * "single" (alloc, free, repeat) and "batched" (alloc a batch, then free
 * it). Costs are in arch_cycles(): TSC cycles in the kernel, nanoseconds
 * on the host. Reported, never judged: timing is not a test.
 */
#include <arch.h>
#include <bench.h>
#include <bitmap_alloc.h>
#include "internal.h"

#define BENCH_MAX_PAGES 65536ul	/* 256 MiB */
#define BENCH_BATCH_MAX 4096ul	/* blocks per batch */

static struct pglist_data bench_node;
static uint8_t bench_pageblock_flags[BENCH_MAX_PAGES / 2];
static struct bitmap_alloc bitmap;
static unsigned long bitmap_words[BITMAP_ALLOC_LONGS(BENCH_MAX_PAGES)];
static unsigned long batch[BENCH_BATCH_MAX];
static int bench_nid;

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
static uint64_t bench_single(const struct allocator *a, unsigned int order,
			     unsigned long rounds)
{
	uint64_t t0 = arch_cycles();

	for (unsigned long r = 0; r < rounds; r++)
		a->free(a->alloc(order), order);
	return (arch_cycles() - t0) * 10 / rounds;
}

/* Return: cycles x10 per pair, n allocs then n frees, `rounds` times. */
static uint64_t bench_batched(const struct allocator *a, unsigned int order,
			      unsigned long n, unsigned long rounds)
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

static void print_row(unsigned int order, const char *pattern, uint64_t buddy, uint64_t bm)
{
	kprintf("%-6u %-8s %12llu.%llu %12llu.%llu %6llu.%llux\n", order, pattern,
		(unsigned long long)(buddy / 10), (unsigned long long)(buddy % 10),
		(unsigned long long)(bm / 10), (unsigned long long)(bm % 10),
		(unsigned long long)(bm / buddy), (unsigned long long)(bm * 10 / buddy % 10));
}

/* Batches take a quarter of the memory, so the buddy allocator (whose
 * watermarks keep some pages back) never runs dry mid-batch. */
static unsigned long batch_blocks(unsigned long nr_pages, unsigned int order)
{
	return MIN(BENCH_BATCH_MAX, (nr_pages / 4) >> order);
}

int bench_page_alloc(unsigned long start_pfn, unsigned long nr_pages, int nid,
		     const char *unit)
{
	static const unsigned int orders[] = { 0, 3, HPAGE_PMD_ORDER };
	const struct allocator buddy = { buddy_alloc, buddy_free };
	const struct allocator bm = { bm_alloc, bm_free };

	nr_pages = MIN(ALIGN_DOWN(nr_pages, MAX_ORDER_NR_PAGES), BENCH_MAX_PAGES);
	if (nr_pages < 4 * HPAGE_PMD_NR || NODE_DATA(nid)) {
		kprintf("bench: need %lu free pages and node %d unused\n", 4 * HPAGE_PMD_NR, nid);
		return -1;
	}
	bench_nid = nid;
	pgdat_init(&bench_node, nid, start_pfn, start_pfn + nr_pages, bench_pageblock_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + nr_pages);
	bitmap_alloc_init(&bitmap, start_pfn, nr_pages, bitmap_words);
	kprintf("memory: %lu MiB per allocator; config: MAX_PAGE_ORDER=%d pageblock_order=%d "
		"DEBUG_VM=%d THP=%d\n\n", nr_pages * PAGE_SIZE >> 20, MAX_PAGE_ORDER,
		(int)pageblock_order, CONFIG_DEBUG_VM, CONFIG_TRANSPARENT_HUGEPAGE);
	kprintf("%-6s %-8s %11s/op %11s/op %8s\n", "order", "pattern", unit, unit, "ratio");
	kprintf("%-6s %-8s %14s %14s\n", "", "", "buddy", "bitmap");
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		unsigned int o = orders[i];
		unsigned long rounds = 200000ul >> o, n = batch_blocks(nr_pages, o);

		print_row(o, "single", bench_single(&buddy, o, rounds), bench_single(&bm, o, rounds));
		print_row(o, "batched", bench_batched(&buddy, o, n, 20),
			  bench_batched(&bm, o, n, 20));
	}
	kprintf("\n%s/op = one alloc + one free; ratio = bitmap / buddy (higher: buddy faster)\n",
		unit);
	pgdat_destroy(&bench_node);
	return 0;
}

int bench_page_alloc_command(void)
{
	unsigned long start_pfn, nr_pages;
	const char *hv = arch_hypervisor();

	if (mm_test_memory(&start_pfn, &nr_pages) < 0) {
		kprintf("bench: no test memory set aside (boot with more RAM)\n");
		return -1;
	}
	kprintf("Folium page allocator benchmark (in-kernel)\ncpu: %s\nrun: %s%s\n",
		arch_cpu_name(), hv ? "under a hypervisor/emulator: " : "bare metal",
		hv ? hv : "");
	if (hv)
		kprintf("     emulated times: compare ratios, not absolute cycles\n");
	return bench_page_alloc(start_pfn, nr_pages, MAX_NUMNODES - 1, "cycles");
}
