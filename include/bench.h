/*
 * The benchmarks' shared entry points: each runs in the kernel (the
 * `bench` shell command, costs in TSC cycles) and in a host program
 * (make bench, costs in ns); `unit` names what arch_cycles() counts.
 * Benchmarks report, they never judge: timing is not a test.
 */
#ifndef FOLIUM_BENCH_H
#define FOLIUM_BENCH_H

#include <stdbool.h>
#include <stdint.h>

/* bench/page_alloc.c: buddy vs bitmap allocator over a private node. */
int bench_page_alloc(unsigned long start_pfn, unsigned long nr_pages, int nid, const char *unit,
		     bool quick);
int bench_page_alloc_command(bool quick);

/* bench/clear.c: clear_pages per instruction and extent, and
 * folio_zero_user per strategy followed by touching the fault's pages. */
void bench_clear_extents(void *buf, const unsigned long *extents, unsigned int n, uint64_t budget,
			 const char *unit);
void bench_folio_zero(int nid, unsigned long pool_bytes, unsigned int iterations, const char *unit);
int bench_clear_command(bool quick);

/* bench/madvise.c: madvise(MADV_FREE) split vs batched per folio size
 * over a bytes-long VMA of node nid, reclaim and the PTE-read floor;
 * unit names what arch_cycles() counts ("ns", "cycles"), time_unit a
 * million of it ("ms", "Mcycles"). Return: 0 or -1. */
#define BENCH_MADVISE_MAX_RUNS 9
int bench_madvise(int nid, unsigned long bytes, unsigned int runs, const char *unit,
		  const char *time_unit);
int bench_madvise_command(bool quick);

/* bench/fork.c: fork, the child's exit, reuse and copy-on-write writes
 * and munmap per folio size over a bytes-long range of node nid, the
 * batched paths against the per-page ones in one run. Return: 0 or -1. */
int bench_fork(int nid, unsigned long bytes, unsigned int runs, const char *unit,
	       const char *time_unit);
int bench_fork_command(bool quick);

/* bench/pageblock.c: this build's pageblock order under the upstream
 * patch's mixed-size workload (allocs allocations over a private node nid
 * of nr_pages, runs times; median costs), with the CMA alignment it
 * implies; one row. Return: 0 or -1. */
int bench_pageblock(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned long allocs,
		    unsigned int runs, const char *unit);
int bench_pageblock_command(bool quick);
/* The smallest CMA area this build reserves: ask cma_reserve_area() for
 * one page from a memblock over [start_pfn, +nr_pages), see what got
 * reserved (bytes; 0 if nothing could be). */
unsigned long bench_smallest_cma(unsigned long start_pfn, unsigned long nr_pages);

/* bench/fragment.c: the fragmentation experiment after mmtests'
 * stress-highalloc over a private node nid of nr_pages, seeds 1..seeds:
 * order-9 allocations without and with compaction after a churning mix
 * of user memory and kernel objects; one row, medians and spread.
 * time_unit names a million arch_cycles() ("ms", "Mcycles"). Return: 0 or
 * -1 (a user page lost its contents, or pages went missing). */
int bench_fragment(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned int seeds,
		   const char *time_unit);
int bench_fragment_command(bool quick);

/* bench/benchrec.c: an in-kernel benchmark's first lines: its title, the CPU,
 * and whether its times are emulated. */
void bench_banner(const char *title);
/* bench/benchrec.c: the median of n samples; sorts them (n is small). */
uint64_t bench_median(uint64_t *v, unsigned int n);

/* xorshift64*: the same pseudo-random sequence on every machine, from a
 * nonzero *state. */
static inline uint64_t bench_rand(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 0x2545f4914f6cdd1dull;
}

/* bench/host/start.c: a host benchmark program's first line, CPU
 * model and kprintf to stdout. */
void bench_host_start(const char *title);

#endif
