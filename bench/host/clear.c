/*
 * The host-native clearing benchmark (make bench, build/bench-clear): the
 * kernel's `bench clear` tables run as a process, in nanoseconds, where
 * the string instructions run at their native price. Table 1 clears 4 KiB
 * .. 1 GiB extents of one 1 GiB buffer (bytes/ns = GB/s); table 2 zeroes
 * 2 MiB and 64 KiB folios from a 64 MiB pool (twice the L3 of most
 * machines, so every folio starts cold) of simulated physical memory.
 */
#define _GNU_SOURCE
#include <kernel.h>
#include <mm.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <emmintrin.h>
#include <sys/mman.h>
#include <vm.h>

#define BUF_BYTES (1ul << 30)
#define NODE_PAGES 32768ul /* 128 MiB: the 64 MiB pool and slack */

static struct pglist_data bench_node;
static uint8_t bench_flags[NODE_PAGES];

/* One 1 GiB buffer, faulted in before timing (huge pages if THP allows). */
static void *alloc_buffer(void)
{
	void *buf =
		mmap(NULL, BUF_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (buf == MAP_FAILED)
		return NULL;
	madvise(buf, BUF_BYTES, MADV_HUGEPAGE);
	memset(buf, 1, BUF_BYTES);
	return buf;
}

/* The machine's fill bandwidth: 16-byte SSE2 stores over the whole
 * buffer, best of three. Two such stores per cycle outrun DRAM, so this
 * is the memory's write ceiling, not the core's. Return: bytes/ns. */
static double fill_bandwidth(void *buf)
{
	double best = 0;

	for (int run = 0; run < 3; run++) {
		__m128i *p = buf, zero = _mm_setzero_si128();
		uint64_t t0 = arch_cycles();

		for (unsigned long i = 0; i < BUF_BYTES / 16; i++)
			_mm_store_si128(&p[i], zero);
		best = MAX(best, (double)BUF_BYTES / (double)(arch_cycles() - t0));
	}
	return best;
}

static int bench_extents(void)
{
	static const unsigned long extents[] = { 4 * KIB, 64 * KIB, 2 * MIB, 64 * MIB, GIB };
	void *buf = alloc_buffer();
	struct benchrec rec;
	double bandwidth;
	char rate[32];

	if (!buf) {
		printf("bench-clear: cannot map a 1 GiB buffer\n");
		return 1;
	}
	bench_clear_extents(buf, extents, ARRAY_SIZE(extents), 200000000ull, "ns");
	bandwidth = fill_bandwidth(buf);
	printf("(bytes per ns = GB/s)\nfill bandwidth: %.2f GB/s (16-byte SSE2 stores over 1 GiB, "
	       "best of 3)\n",
	       bandwidth);
	benchrec_begin(&rec, "fill_bandwidth", "method[-] rate[bytes/ns]", NULL);
	snprintf(rate, sizeof(rate), "%.2f", bandwidth); /* kprintf has no %f */
	benchrec_row(&rec, "sse2_stores %s", rate);
	benchrec_end(&rec);
	printf("Each cell repeats one fill over the same bytes for >= 0.2 s after one\n"
	       "untimed fill: extents that fit in a cache measure that cache, 64 MiB and\n"
	       "1 GiB measure DRAM, whose ceiling is the fill bandwidth above. The 8B\n"
	       "loop is one store per cycle at best, so it is core-bound, not a ceiling.\n");
	munmap(buf, BUF_BYTES);
	return 0;
}

static void bench_strategies(void)
{
	unsigned long start_pfn = PHYS_PFN(8ull << 30);

	pgdat_init(&bench_node, 1, start_pfn, start_pfn + NODE_PAGES, bench_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + NODE_PAGES);
	bench_folio_zero(1, 64 * MIB, 64, "ns");
	pgdat_destroy(&bench_node);
}

int main(void)
{
	bench_host_start("Folium clearing benchmark");
	printf("clear_pages default: rep %s\n\n", clear_pages_insn_name());
	if (bench_extents())
		return 1;
	printf("\n");
	bench_strategies();
	return 0;
}
