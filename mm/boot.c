/*
 * From memblock to the buddy allocator (Linux: mm_core_init, up to
 * memblock_free_all). mm_init sets aside the tests' memory and CMA, backs
 * the vmemmap one 128 MiB section at a time where RAM exists (2 MiB of
 * struct pages each: RAM [0, 2G) + [4G, 6G) backs sections 0-15 and 32-47,
 * and the hole between costs nothing), builds node 0, frees every free
 * memblock range into it and retires memblock. Also: pfn_valid and the
 * kernel's mm_test_memory.
 */
#include <arch.h>
#include <bitmap.h>
#include <boot_info.h>
#include <mm.h>
#include <vm.h>

/* Linux x86_64 SPARSEMEM: 128 MiB sections, 46 physical address bits. */
#define SECTION_SIZE_BITS 27
#define PFN_SECTION_SHIFT (SECTION_SIZE_BITS - PAGE_SHIFT)
#define PAGES_PER_SECTION (1ul << PFN_SECTION_SHIFT)
#define MAX_PHYSMEM_BITS 46
#define NR_MEM_SECTIONS (1ul << (MAX_PHYSMEM_BITS - SECTION_SIZE_BITS))
#define PFN_UP(pa) PHYS_PFN((pa) + PAGE_SIZE - 1)

extern const struct boot_info *boot_info;

static unsigned long present_sections[BITS_TO_LONGS(NR_MEM_SECTIONS)];
/* Linux's name for the one node of a machine without NUMA. */
static struct pglist_data contig_page_data;

struct boot_mem_stats boot_mem;
static unsigned long test_start_pfn, test_nr_pages;
static bool test_at_top; /* node 0 ends below the test memory, else starts above */

bool pfn_valid(unsigned long pfn)
{
	unsigned long nr = pfn >> PFN_SECTION_SHIFT;

	return nr < NR_MEM_SECTIONS && test_bit(nr, present_sections);
}

/*
 * Back the struct pages of every section that holds RAM (Linux:
 * sparse_init with SPARSEMEM_VMEMMAP). Holes inside a section get struct
 * pages (pgdat_init marks them reserved); whole-section holes get none.
 */
static void sparse_init(struct memblock *mb)
{
	phys_addr_t before = memblock_reserved_size(mb);

	for (unsigned long i = 0; i < mb->memory.cnt; i++) {
		const struct memblock_region *r = &mb->memory.regions[i];
		unsigned long first = PHYS_PFN(r->base) >> PFN_SECTION_SHIFT;
		unsigned long last = PHYS_PFN(r->base + r->size - 1) >> PFN_SECTION_SHIFT;

		for (unsigned long nr = first; nr <= last; nr++) {
			if (pfn_valid(nr << PFN_SECTION_SHIFT))
				continue;
			arch_vmemmap_populate(nr << PFN_SECTION_SHIFT,
					      (nr + 1) << PFN_SECTION_SHIFT);
			bitmap_set(present_sections, nr, 1);
		}
	}
	boot_mem.memmap += memblock_reserved_size(mb) - before;
}

/* Return: bytes of free memory in [lo, hi). */
static phys_addr_t free_bytes_in(struct memblock *mb, phys_addr_t lo, phys_addr_t hi)
{
	phys_addr_t start, end, bytes = 0;
	unsigned long idx = 0;

	while (memblock_next_free_range(mb, &idx, &start, &end))
		if (MIN(end, hi) > MAX(start, lo))
			bytes += MIN(end, hi) - MAX(start, lo);
	return bytes;
}

/* The lowest and the highest free block of size bytes aligned to align
 * (0 when there is none; page 0 never counts, as in memblock). */
static void find_test_blocks(struct memblock *mb, phys_addr_t size, phys_addr_t align,
			     phys_addr_t *low, phys_addr_t *high)
{
	phys_addr_t start, end;
	unsigned long idx = 0;

	*low = *high = 0;
	while (memblock_next_free_range(mb, &idx, &start, &end)) {
		phys_addr_t lo = ALIGN_UP(MAX(start, PAGE_SIZE), align);

		if (lo >= end || end - lo < size)
			continue;
		if (!*low)
			*low = lo;
		*high = ALIGN_DOWN(end - size, align);
	}
}

/*
 * Keep RAM out of node 0 for the in-kernel tests' private nodes. Rules:
 * 16 MiB or four max-order blocks if larger; 32 MiB from 384 MiB of RAM
 * on (room for the CMA suites at pageblock order 10), 64 MiB (as the host
 * gives) from 768 MiB (a "1 GiB" machine reports a little less);
 * aligned to a max-order block; none under 96 MiB of RAM. Node 0 must
 * not span it (no node-0 walker may read the struct pages tests
 * rebuild), so it goes at the top or the bottom of RAM and
 * node 0 ends or starts at its edge; free scraps beyond it go with it, and
 * the side that strands fewer is chosen (firmware litters both ends).
 */
static void reserve_test_memory(struct memblock *mb)
{
	phys_addr_t align = PAGE_SIZE << MAX_PAGE_ORDER;
	phys_addr_t size = MAX(16 * MIB, 4 * align), low, high, base, waste_low, waste_high;
	phys_addr_t dram_start = memblock_start_of_DRAM(mb), dram_end = memblock_end_of_DRAM(mb);

	if (memblock_phys_mem_size(mb) >= 384 * MIB)
		size = MAX(size, 32 * MIB);
	if (memblock_phys_mem_size(mb) >= 768 * MIB)
		size = MAX(size, 64 * MIB);
	if (memblock_phys_mem_size(mb) < 96 * MIB) {
		pr_warn("mm: under 96 MiB of RAM: no memory set aside for the "
			"in-kernel mm tests (they will be skipped)\n");
		return;
	}
	find_test_blocks(mb, size, align, &low, &high);
	if (!low) {
		pr_warn("mm: no free %llu MiB block for the in-kernel mm tests "
			"(they will be skipped)\n",
			(unsigned long long)(size / MIB));
		return;
	}
	waste_low = free_bytes_in(mb, dram_start, low);
	waste_high = free_bytes_in(mb, high + size, dram_end);
	test_at_top = waste_high <= waste_low;
	base = test_at_top ? high : low;
	if (test_at_top)
		memblock_reserve(mb, base, dram_end - base);
	else
		memblock_reserve(mb, dram_start, base + size - dram_start);
	boot_mem.tests = size + (test_at_top ? waste_high : waste_low);
	test_start_pfn = PHYS_PFN(base);
	test_nr_pages = size / PAGE_SIZE;
	pr_info("mm: test memory %#llx-%#llx (%llu MiB) kept out of node 0, with "
		"%llu KiB of free scraps %s it\n",
		(unsigned long long)base, (unsigned long long)(base + size - 1),
		(unsigned long long)(size / MIB),
		(unsigned long long)((boot_mem.tests - size) / KIB),
		test_at_top ? "above" : "below");
}

CMDLINE_KEY(cma, "SIZE: reserve a CMA area (e.g. 64M)");

/* `cma=SIZE`: ask mm/cma.c to place the area; a bad value only costs CMA. */
static void reserve_cma(struct memblock *mb)
{
	const char *arg = boot_cmdline_get(cma);
	phys_addr_t before = memblock_reserved_size(mb);
	uint64_t size;

	if (!arg)
		return;
	if (kparse_size(arg, &size) < 0 || !size) {
		pr_err("mm: cma=%s is not a size (e.g. cma=64M); booting without CMA\n", arg);
		return;
	}
	if (cma_declare_contiguous(mb, size, "reserved") == 0)
		boot_mem.cma = memblock_reserved_size(mb) - before;
}

/* Build node 0 over [start_pfn, end_pfn), its pageblock flags from memblock. */
static struct pglist_data *node0_init(struct memblock *mb, unsigned long start_pfn,
				      unsigned long end_pfn)
{
	size_t bytes = ALIGN_UP(pgdat_pageblock_flags_size(start_pfn, end_pfn), PAGE_SIZE);
	phys_addr_t flags = memblock_phys_alloc(mb, bytes, PAGE_SIZE);

	if (!flags)
		panic("mm_init: no memory for %zu bytes of pageblock flags", bytes);
	memset(__va(flags), 0, bytes);
	boot_mem.memmap += bytes;
	pgdat_init(&contig_page_data, 0, start_pfn, end_pfn, __va(flags));
	return &contig_page_data;
}

/*
 * Hand every free memblock range inside the node to the buddy allocator,
 * whole pages only (Linux: memblock_free_all), then retire memblock.
 * Return: bytes freed.
 */
static phys_addr_t free_to_buddy(struct memblock *mb, unsigned long start_pfn,
				 unsigned long end_pfn)
{
	phys_addr_t start, end, bytes = 0;
	unsigned long idx = 0;

	while (memblock_next_free_range(mb, &idx, &start, &end)) {
		unsigned long s = MAX(PFN_UP(start), start_pfn);
		unsigned long e = MIN(PHYS_PFN(end), end_pfn);

		if (s < e) {
			free_pfn_range_to_buddy(s, e);
			bytes += PFN_PHYS(e - s);
		}
	}
	mb->retired = true;
	return bytes;
}

/* Linux's mem_init line, plus the allocator geometry the issue asks for. */
static void print_summary(void)
{
	phys_addr_t firmware =
		boot_mem.reserved -
		MIN(boot_mem.reserved, boot_mem.kernel + boot_mem.memmap + boot_mem.tests);

	pr_info("Memory: %llu KiB available / %llu KiB total, %llu KiB reserved "
		"(kernel %llu, firmware %llu, memmap %llu, tests %llu KiB), "
		"%llu KiB cma-reserved\n",
		(unsigned long long)(boot_mem.available / KIB),
		(unsigned long long)(boot_mem.total / KIB),
		(unsigned long long)(boot_mem.reserved / KIB),
		(unsigned long long)(boot_mem.kernel / KIB), (unsigned long long)(firmware / KIB),
		(unsigned long long)(boot_mem.memmap / KIB),
		(unsigned long long)(boot_mem.tests / KIB),
		(unsigned long long)(boot_mem.cma / KIB));
	pr_info("Page allocator: MAX_PAGE_ORDER %d, pageblock_order %d "
		"(pageblock %lu KiB), CMA_MIN_ALIGNMENT_BYTES %#lx\n",
		MAX_PAGE_ORDER, (int)pageblock_order,
		(unsigned long)(pageblock_nr_pages * PAGE_SIZE / KIB),
		(unsigned long)CMA_MIN_ALIGNMENT_BYTES);
}

CMDLINE_KEY(memblock, "debug: print the early memory map (memblock regions)");

/*
 * Context: kmain, after arch_setup built memblock and the kernel's page
 * tables and after the command line was parsed (cma=). Allocations that
 * need to stay out of the buddy come first; memmap last, so it sees them.
 */
void mm_init(void)
{
	struct memblock *mb = &memblock;
	unsigned long start_pfn, end_pfn;
	struct pglist_data *pgdat;

	if (memblock_end_of_DRAM(mb) > 1ull << MAX_PHYSMEM_BITS) {
		pr_warn("mm: RAM above %llu TiB ignored\n", 1ull << (MAX_PHYSMEM_BITS - 40));
		memblock_remove(mb, 1ull << MAX_PHYSMEM_BITS, ~0ull);
	}
	/* Linux: memblock=debug shows the lists as the firmware left them. */
	if (boot_cmdline_get(memblock) && !strcmp(boot_cmdline_get(memblock), "debug"))
		memblock_dump(mb);
	boot_mem.total = memblock_phys_mem_size(mb);
	boot_mem.kernel = ALIGN_UP(boot_info->kernel_size, PAGE_SIZE);
	reserve_test_memory(mb);
	reserve_cma(mb);
	sparse_init(mb);
	start_pfn = PHYS_PFN(memblock_start_of_DRAM(mb));
	end_pfn = PHYS_PFN(memblock_end_of_DRAM(mb));
	if (test_nr_pages && test_at_top)
		end_pfn = test_start_pfn;
	else if (test_nr_pages)
		start_pfn = test_start_pfn + test_nr_pages;
	pgdat = node0_init(mb, start_pfn, end_pfn);
	boot_mem.available = free_to_buddy(mb, start_pfn, end_pfn);
	boot_mem.reserved = boot_mem.total - boot_mem.available - boot_mem.cma;
	setup_per_zone_wmarks(pgdat);
	cma_activate_boot_area();
	print_summary();
}

/* The kernel's test memory: the same block every time, its struct pages
 * cleared as the host clears its own (the contents are not cleared). */
int mm_test_memory(unsigned long *start_pfn, unsigned long *nr_pages)
{
	if (!test_nr_pages)
		return -1;
	*start_pfn = test_start_pfn;
	*nr_pages = test_nr_pages;
	memset(pfn_to_page(test_start_pfn), 0, test_nr_pages * sizeof(struct page));
	return 0;
}
