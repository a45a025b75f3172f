/*
 * Simulated physical memory for the host test program: HOST_PHYS_SIZE of
 * address space reserved with MAP_NORESERVE, so tests can place memory
 * "above 4 GiB" or behind large holes and pay only for pages they touch.
 * struct pages live in a second reservation indexed by pfn. Tests build
 * private nodes over ranges returned by mm_test_memory(); each call hands
 * out a fresh range so tests never share pages.
 */
#define _GNU_SOURCE
#include <arch.h>
#include <mm.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

uintptr_t host_phys_base;
struct page *host_vmemmap;

/* Test ranges start at 4 GiB + 64 MiB (above DMA32, off any pfn 0 edge). */
#define TEST_MEMORY_START (4ull << 30)
#define TEST_MEMORY_SIZE (64ull << 20)
static phys_addr_t next_test_memory = TEST_MEMORY_START;

static void *reserve(size_t size, const char *what)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "host: cannot reserve %zu bytes for %s\n", size, what);
		exit(2);
	}
	return p;
}

__attribute__((constructor)) static void host_phys_init(void)
{
	host_phys_base = (uintptr_t)reserve(HOST_PHYS_SIZE, "physical memory");
	host_vmemmap = reserve(HOST_PHYS_SIZE / PAGE_SIZE * sizeof(struct page), "vmemmap");
}

int mm_test_memory(unsigned long *start_pfn, unsigned long *nr_pages)
{
	if (next_test_memory + TEST_MEMORY_SIZE > HOST_PHYS_SIZE)
		next_test_memory = TEST_MEMORY_START; /* reuse: tests are sequential */
	*start_pfn = PHYS_PFN(next_test_memory);
	*nr_pages = TEST_MEMORY_SIZE / PAGE_SIZE;
	/* Give the previous contents back, so reuse starts from zeroes. */
	madvise(__va(next_test_memory), TEST_MEMORY_SIZE, MADV_DONTNEED);
	madvise(pfn_to_page(*start_pfn), *nr_pages * sizeof(struct page), MADV_DONTNEED);
	next_test_memory += TEST_MEMORY_SIZE;
	return 0;
}

/* The host vmemmap is one reservation over all of HOST_PHYS_SIZE: every
 * simulated pfn has a struct page and nothing needs populating. */
bool pfn_valid(unsigned long pfn)
{
	return pfn < HOST_PHYS_SIZE / PAGE_SIZE;
}

void arch_vmemmap_populate(unsigned long start_pfn, unsigned long end_pfn)
{
}
