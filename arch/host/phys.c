/*
 * Simulated physical memory for the host test program: a memfd of
 * HOST_PHYS_SIZE bytes mapped shared with MAP_NORESERVE, so tests can
 * place memory "above 4 GiB" or behind large holes and pay only for pages
 * they touch. struct pages live in a second reservation indexed by pfn.
 * Tests build private nodes over ranges returned by mm_test_memory(); each
 * call hands out a fresh range so tests never share pages.
 * The vmalloc range is a third reservation with no access. Mapping a page
 * there (arch_map_kernel_page) mmaps the memfd at the page's physical
 * address, MAP_FIXED|MAP_SHARED: the same memory as its __va address, as
 * two kernel mappings of one page are; unmapping puts the reservation
 * back, so a touch faults. Example: pfn 0x100000 mapped at
 * VMALLOC_START is file offset 4 GiB, seen at host_phys_base + 4 GiB too.
 */
#define _GNU_SOURCE
#include <arch.h>
#include <mm.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

uintptr_t host_phys_base;
struct page *host_vmemmap;
uintptr_t host_vmalloc_base;
static int phys_fd;

/* Test ranges start at 4 GiB + 64 MiB (above DMA32, off any pfn 0 edge). */
#define TEST_MEMORY_START (4ull << 30)
#define TEST_MEMORY_SIZE (64ull << 20)
static phys_addr_t next_test_memory = TEST_MEMORY_START;

static void *reserve(size_t size, int prot, const char *what)
{
	void *p = mmap(NULL, size, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED) {
		fprintf(stderr, "host: cannot reserve %zu bytes for %s\n", size, what);
		exit(2);
	}
	return p;
}

/* The arena: a memfd (no size limit, pages made on first touch). */
static void *phys_arena(void)
{
	void *p = MAP_FAILED;

	phys_fd = memfd_create("folium-phys", MFD_CLOEXEC);
	if (phys_fd >= 0 && ftruncate(phys_fd, HOST_PHYS_SIZE) == 0)
		p = mmap(NULL, HOST_PHYS_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
			 phys_fd, 0);
	if (p == MAP_FAILED) {
		perror("host: cannot make the physical memory memfd");
		exit(2);
	}
	return p;
}

__attribute__((constructor)) static void host_phys_init(void)
{
	host_phys_base = (uintptr_t)phys_arena();
	host_vmemmap = reserve(HOST_PHYS_SIZE / PAGE_SIZE * sizeof(struct page),
			       PROT_READ | PROT_WRITE, "vmemmap");
	host_vmalloc_base = (uintptr_t)reserve(HOST_VMALLOC_SIZE, PROT_NONE, "vmalloc range");
}

int mm_test_memory(unsigned long *start_pfn, unsigned long *nr_pages)
{
	if (next_test_memory + TEST_MEMORY_SIZE > HOST_PHYS_SIZE)
		next_test_memory = TEST_MEMORY_START; /* reuse: tests are sequential */
	*start_pfn = PHYS_PFN(next_test_memory);
	*nr_pages = TEST_MEMORY_SIZE / PAGE_SIZE;
	/* Give the previous contents back, so reuse starts from zeroes (a
	 * shared mapping keeps them through MADV_DONTNEED: punch a hole). */
	fallocate(phys_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)next_test_memory,
		  TEST_MEMORY_SIZE);
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

static void check_vmalloc_addr(const char *fn, unsigned long addr)
{
	if (addr < VMALLOC_START || addr >= VMALLOC_END || (addr & (PAGE_SIZE - 1))) {
		fprintf(stderr, "%s: 0x%lx is not a page of the vmalloc range\n", fn, addr);
		abort();
	}
}

int arch_map_kernel_page(unsigned long addr, unsigned long pfn)
{
	void *p;

	check_vmalloc_addr("arch_map_kernel_page", addr);
	if (pfn >= HOST_PHYS_SIZE / PAGE_SIZE)
		return -ENOMEM;
	p = mmap((void *)addr, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, phys_fd,
		 (off_t)PFN_PHYS(pfn));
	return p == MAP_FAILED ? -ENOMEM : 0;
}

void arch_unmap_kernel_page(unsigned long addr)
{
	check_vmalloc_addr("arch_unmap_kernel_page", addr);
	if (mmap((void *)addr, PAGE_SIZE, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
		perror("arch_unmap_kernel_page");
		abort();
	}
}
