/*
 * The host-native fork benchmark (make bench, build/bench-fork): the
 * kernel's `bench fork` table over a 1 GiB parent, as upstream measured,
 * on a private node of 3 GiB of simulated physical memory (the parent,
 * the copies of copy-on-write and every table), in nanoseconds.
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
#include <stdio.h>

#define NODE_PAGES PHYS_PFN(3 * GIB)

static struct pglist_data bench_node;
static uint8_t bench_flags[NODE_PAGES / 2];

int main(void)
{
	unsigned long start_pfn = PHYS_PFN(8ull << 30);
	int ret;

	bench_host_start("Folium fork benchmark");
	printf("software MMU: a modelled TLB (arch/host/mmu.c); flushes drop its entries\n\n");
	pgdat_init(&bench_node, 1, start_pfn, start_pfn + NODE_PAGES, bench_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + NODE_PAGES);
	ret = bench_fork(1, GIB, 3, "ns", "ms");
	pgdat_destroy(&bench_node);
	return ret ? 1 : 0;
}
