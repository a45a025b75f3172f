/*
 * The host-native pageblock order benchmark (make bench builds it once per
 * CONFIG_PAGE_BLOCK_ORDER): the kernel's `bench pageblock` over a 512 MiB
 * private node of simulated physical memory, 100K allocations, median of
 * 5 runs, in ns.
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
#include <stdio.h>

int main(void)
{
	bench_host_start("Folium pageblock order benchmark");
	printf("\n");
	return bench_pageblock(PHYS_PFN(8ull << 30), PHYS_PFN(512 * MIB), 1, 100000, 5, "ns") ? 1
											      : 0;
}
