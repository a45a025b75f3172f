/*
 * The host-native MADV_FREE benchmark (make bench, build/bench-madvise):
 * the kernel's `bench madvise` table over a 1 GiB VMA, as upstream
 * measured, on a private node of 1 GiB + 32 MiB of simulated physical
 * memory (tables and slack), in nanoseconds.
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
#include <stdio.h>

#define NODE_PAGES (PHYS_PFN(GIB) + PHYS_PFN(32 * MIB))

static struct pglist_data bench_node;
static uint8_t bench_flags[NODE_PAGES / 2];

int main(void)
{
	unsigned long start_pfn = PHYS_PFN(8ull << 30);
	int ret;

	bench_host_start("Folium MADV_FREE benchmark");
	printf("software MMU: a modelled TLB (arch/host/mmu.c); flushes drop its entries\n\n");
	pgdat_init(&bench_node, 1, start_pfn, start_pfn + NODE_PAGES, bench_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + NODE_PAGES);
	ret = bench_madvise(1, GIB, 8, "ns", "ms");
	pgdat_destroy(&bench_node);
	return ret ? 1 : 0;
}
