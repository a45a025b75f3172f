/*
 * From memblock to the buddy allocator (Linux: mm_core_init, up to
 * memblock_free_all). mm_init sets aside CMA, backs the vmemmap one
 * 128 MiB section at a time where RAM exists (2 MiB of struct pages each:
 * RAM [0, 2G) + [4G, 6G) backs sections 0-15 and 32-47, and the hole
 * between costs nothing), builds node 0 over all RAM, frees every free
 * memblock range into it and retires memblock. Also: pfn_valid and the
 * kernel's mm_test_memory (the tests take their memory from node 0 only
 * while they run: mm/memory_hotplug.c).
 */
#include <arch.h>
#include <bitmap.h>
#include <boot_info.h>
#include <hugetlb.h>
#include <mm.h>
#include <vm.h>

/* Linux x86_64 SPARSEMEM: 46 physical address bits (sections: <mm.h>). */
#define MAX_PHYSMEM_BITS 46
#define NR_MEM_SECTIONS (1ul << (MAX_PHYSMEM_BITS - SECTION_SIZE_BITS))

extern const struct boot_info *boot_info;

static unsigned long present_sections[BITS_TO_LONGS(NR_MEM_SECTIONS)];
/* Linux's name for the one node of a machine without NUMA. */
static struct pglist_data contig_page_data;

struct boot_mem_stats boot_mem;

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
		boot_mem.reserved - MIN(boot_mem.reserved, boot_mem.kernel + boot_mem.memmap);

	/* No "tests" share: the tests' memory is taken only while they run
	 * (meminfo's TestMem then). */
	pr_info("Memory: %llu KiB available / %llu KiB total, %llu KiB reserved "
		"(kernel %llu, firmware %llu, memmap %llu KiB), %llu KiB cma-reserved\n",
		(unsigned long long)(boot_mem.available / KIB),
		(unsigned long long)(boot_mem.total / KIB),
		(unsigned long long)(boot_mem.reserved / KIB),
		(unsigned long long)(boot_mem.kernel / KIB), (unsigned long long)(firmware / KIB),
		(unsigned long long)(boot_mem.memmap / KIB),
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
	test_memory_init(boot_mem.total);
	reserve_cma(mb);
	hugetlb_bootmem_alloc(mb); /* hugepagesz=1G hugepages=N */
	sparse_init(mb);
	start_pfn = PHYS_PFN(memblock_start_of_DRAM(mb));
	end_pfn = PHYS_PFN(memblock_end_of_DRAM(mb));
	pgdat = node0_init(mb, start_pfn, end_pfn);
	boot_mem.available = free_to_buddy(mb, start_pfn, end_pfn);
	boot_mem.reserved = boot_mem.total - boot_mem.available - boot_mem.cma;
	setup_per_zone_wmarks(pgdat);
	cma_activate_boot_area();
	print_summary();
}

/* The kernel's test memory: the block test_memory_offline() took, its
 * struct pages cleared as the host clears its own (not its contents). */
int mm_test_memory(unsigned long *start_pfn, unsigned long *nr_pages)
{
	const struct edge_block *b = test_memory_block();

	if (!b)
		return -1;
	*start_pfn = b->start_pfn;
	*nr_pages = b->nr_pages;
	memset(pfn_to_page(b->start_pfn), 0, b->nr_pages * sizeof(struct page));
	return 0;
}
