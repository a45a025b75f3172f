/*
 * Host-native benchmark: ns per alloc+free of the buddy allocator against
 * the hobby-kernel bitmap allocator (mm/bitmap_alloc.c), side by side over
 * the same amount of memory, for orders 0, 3 and 9, "single" (alloc, free,
 * repeat) and "batched" (alloc N blocks = 16 MiB, then free them all). The
 * numbers are reported, never judged: timing is not a test. Built -O2
 * without sanitizers and with the DEBUG_VM checks off (they poison pages).
 */
#define _POSIX_C_SOURCE 200809L
#include <bitmap_alloc.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "internal.h"

#define BENCH_NID 1
#define BENCH_PAGES 65536ul	/* 256 MiB per allocator */
#define BATCH_BYTES (16ul << 20)

static struct pglist_data node;
static uint8_t pageblock_flags[16384];
static struct bitmap_alloc bitmap;
static unsigned long bitmap_words[BITMAP_ALLOC_LONGS(BENCH_PAGES)];
static unsigned long batch[BATCH_BYTES / PAGE_SIZE];

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One allocator behind two function pointers; a block is its first pfn. */
struct allocator {
	const char *name;
	unsigned long (*alloc)(unsigned int order);
	void (*free)(unsigned long pfn, unsigned int order);
};

static unsigned long buddy_alloc(unsigned int order)
{
	struct page *page = alloc_pages_node(BENCH_NID, GFP_KERNEL | __GFP_NOWARN, order);

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

/* Return: ns per alloc+free pair, alloc then free, `rounds` times. */
static double bench_single(const struct allocator *a, unsigned int order, unsigned long rounds)
{
	uint64_t t0 = now_ns();

	for (unsigned long r = 0; r < rounds; r++)
		a->free(a->alloc(order), order);
	return (double)(now_ns() - t0) / (double)rounds;
}

/* Return: ns per alloc+free pair, N allocs then N frees, `rounds` times. */
static double bench_batched(const struct allocator *a, unsigned int order, unsigned long rounds)
{
	unsigned long n = BATCH_BYTES / (PAGE_SIZE << order);
	uint64_t t0 = now_ns();

	for (unsigned long r = 0; r < rounds; r++) {
		for (unsigned long i = 0; i < n; i++)
			batch[i] = a->alloc(order);
		for (unsigned long i = 0; i < n; i++)
			a->free(batch[i], order);
	}
	return (double)(now_ns() - t0) / (double)(rounds * n);
}

static void print_cpu(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) == 0) {
			printf("cpu:    %s", strchr(line, ':') + 2);
			break;
		}
	}
	if (f)
		fclose(f);
}

int main(void)
{
	static const unsigned int orders[] = { 0, 3, 9 };
	const struct allocator buddy = { "buddy", buddy_alloc, buddy_free };
	const struct allocator bm = { "bitmap", bm_alloc, bm_free };
	unsigned long start = PHYS_PFN(8ull << 30);

	pgdat_init(&node, BENCH_NID, start, start + BENCH_PAGES, pageblock_flags);
	free_pfn_range_to_buddy(start, start + BENCH_PAGES);
	bitmap_alloc_init(&bitmap, start + BENCH_PAGES, BENCH_PAGES, bitmap_words);

	printf("Folium page allocator benchmark (host-native, -O2)\n");
	print_cpu();
	printf("config: MAX_PAGE_ORDER=%d pageblock_order=%d DEBUG_VM=%d (bench build) THP=%d\n",
	       MAX_PAGE_ORDER, (int)pageblock_order, CONFIG_DEBUG_VM,
	       CONFIG_TRANSPARENT_HUGEPAGE);
	printf("memory: %lu MiB per allocator; batched = %lu MiB per round\n\n",
	       BENCH_PAGES * PAGE_SIZE >> 20, BATCH_BYTES >> 20);
	printf("%-6s %-8s %14s %14s %8s\n", "order", "pattern", "buddy ns/op",
	       "bitmap ns/op", "ratio");
	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		unsigned int o = orders[i];
		unsigned long single_rounds = 2000000ul >> o, batch_rounds = o ? 50 : 20;
		double bs = bench_single(&buddy, o, single_rounds);
		double ms = bench_single(&bm, o, single_rounds);
		double bb = bench_batched(&buddy, o, batch_rounds);
		double mb = bench_batched(&bm, o, batch_rounds);

		printf("%-6u %-8s %14.1f %14.1f %7.1fx\n", o, "single", bs, ms, ms / bs);
		printf("%-6u %-8s %14.1f %14.1f %7.1fx\n", o, "batched", bb, mb, mb / bb);
	}
	printf("\nns/op = one alloc + one free; ratio = bitmap / buddy (higher: buddy faster)\n");
	return 0;
}
