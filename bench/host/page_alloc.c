/*
 * The host-native page allocator benchmark (make bench): the same code as
 * the kernel's `bench alloc`, run as a process over simulated physical
 * memory, with costs in nanoseconds.
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
#include <stdio.h>

int main(void)
{
	bench_host_start("Folium page allocator benchmark");
	printf("\n");
	return bench_page_alloc(PHYS_PFN(8ull << 30), 65536, 1, "ns", false) ? 1 : 0;
}
