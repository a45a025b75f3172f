/*
 * The host-native fragmentation experiment (make bench builds it once per
 * CONFIG_PAGE_BLOCK_ORDER): the kernel's `bench fragment` over a 512 MiB
 * private node of simulated physical memory, seeds 1..5, times in ms.
 * --quick: a 32 MiB node, one seed (make test checks its record).
 */
#include <bench.h>
#include <kernel.h>
#include <mm.h>
#include <stdio.h>
#include <string.h>
#include <vm.h>

int main(int argc, char **argv)
{
	bool quick = argc == 2 && strcmp(argv[1], "--quick") == 0;

	if (argc > 2 || (argc == 2 && !quick)) {
		fprintf(stderr, "usage: bench-fragment [--quick]\n");
		return 2;
	}
	bench_host_start("Folium fragmentation experiment");
	printf("\n");
	return bench_fragment(PHYS_PFN(8ull << 30), PHYS_PFN((quick ? 32 : 512) * MIB), 1,
			      quick ? 1 : 5, "ms")
		       ? 1
		       : 0;
}
