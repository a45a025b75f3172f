/*
 * The kernel's own page tables, replacing the loader's identity map:
 *   - the direct map: every RAM range of the UEFI map at PAGE_OFFSET + pa,
 *     read/write, never executable, with the largest pages that fit
 *     (1 GiB if the CPU has PDPE1GB, else 2 MiB, 4 KiB at the edges);
 *   - the kernel image with 4 KiB pages and W^X per section: text RX,
 *     rodata R, data/bss RW, ksyms R; the page below the boot stack is left
 *     unmapped so a stack overflow faults instead of corrupting .bss;
 *   - device memory (framebuffer write-combining, local APIC uncached);
 *   - the vmemmap (struct page array), only where mm_init asks for it;
 *   - the vmalloc range: its PUD tables at boot (every mm copies the
 *     PML4 entries that point at them), its pages one by one when
 *     mm/vmalloc.c asks (arch_map_kernel_page), global, RW, NX.
 * Table pages come from memblock at boot, from the buddy allocator later.
 * The lower half stays empty: it belongs to per-workload address spaces.
 */
#include <arch.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/special_insns.h>
#include <pgtable_bits.h>
#include <mm.h>
#include "x86.h"

#define IA32_EFER 0xc0000080
#define EFER_NXE (1ull << 11)
#define IA32_PAT 0x277
#define CR0_WP (1ull << 16)
/* PAT entry 1 becomes write-combining; PWT alone then selects it. */
#define PAT_WC 0x01
#define CACHE_WC _PAGE_PWT
#define CACHE_UC (_PAGE_PCD | _PAGE_PWT)

extern char __text_start[], __text_end[], __rodata_start[], __data_start[];
extern char __data_end[], __ksyms_start[], __kernel_end[];
extern char boot_stack_guard[];

static uint64_t *kernel_pml4;
static const struct boot_info *boot;
static uint64_t nx_bit; /* _PAGE_NX, or 0 on a CPU without NX */

/*
 * A zeroed 4 KiB page for a page table. At boot only memblock has memory;
 * once mm_init() has handed it to the buddy allocator, pages come from
 * there (Linux: spp_getpage). No table means no kernel, hence the panic.
 */
static uint64_t alloc_table_page(void)
{
	phys_addr_t pa = 0;

	if (!memblock.retired) {
		pa = memblock_phys_alloc(&memblock, PAGE_SIZE, PAGE_SIZE);
	} else {
		struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO, 0);

		pa = page ? page_to_phys(page) : 0;
	}
	if (!pa)
		panic("alloc_table_page: no free page for a page table (%s)",
		      memblock.retired ? "buddy allocator" : "memblock");
	memset(__va(pa), 0, PAGE_SIZE);
	return pa;
}

static uint64_t *table_at(uint64_t entry)
{
	return __va(entry & PTE_ADDR_MASK);
}

/* Return the table that entry points to, allocating it if empty. */
static uint64_t *next_table(uint64_t *entry)
{
	if (!(*entry & _PAGE_PRESENT))
		*entry = alloc_table_page() | _PAGE_PRESENT | _PAGE_RW;
	BUG_ON(*entry & _PAGE_PSE); /* would split a large page: never needed */
	return table_at(*entry);
}

static unsigned index_at(uint64_t va, unsigned shift)
{
	return (va >> shift) & (PTRS_PER_TABLE - 1);
}

/* Return: the PMD entry for va, allocating the tables above it. */
static uint64_t *pmd_entry(uint64_t va)
{
	uint64_t *pud = next_table(&kernel_pml4[index_at(va, PGDIR_SHIFT)]);
	uint64_t *pmd = next_table(&pud[index_at(va, PUD_SHIFT)]);

	return &pmd[index_at(va, PMD_SHIFT)];
}

/* Map one page of 4 KiB, 2 MiB (level 2) or 1 GiB (level 3). */
static void map_page(uint64_t va, uint64_t pa, int level, uint64_t flags)
{
	uint64_t *pud, *pte;

	if (level == 3) {
		pud = next_table(&kernel_pml4[index_at(va, PGDIR_SHIFT)]);
		pud[index_at(va, PUD_SHIFT)] = pa | flags | _PAGE_PSE;
		return;
	}
	if (level == 2) {
		*pmd_entry(va) = pa | flags | _PAGE_PSE;
		return;
	}
	pte = next_table(pmd_entry(va));
	pte[index_at(va, PAGE_SHIFT)] = pa | flags;
}

/* Map [pa, pa + size) at va with the largest pages alignment allows. */
static void map_range(uint64_t va, uint64_t pa, uint64_t size, uint64_t flags)
{
	uint64_t end = pa + size;

	while (pa < end) {
		int level = 1;
		uint64_t step = PAGE_SIZE;

		if (cpu.pdpe1gb && !(pa & (GIB - 1)) && !(va & (GIB - 1)) && end - pa >= GIB)
			level = 3, step = GIB;
		else if (!(pa & (2 * MIB - 1)) && !(va & (2 * MIB - 1)) && end - pa >= 2 * MIB)
			level = 2, step = 2 * MIB;
		map_page(va, pa, level, flags | _PAGE_PRESENT);
		va += step;
		pa += step;
	}
}

/* Direct-map every RAM range. memblock already holds them sorted and
 * merged (memblock_from_efi runs first), so large pages fit wherever the
 * firmware's map had adjacent RAM descriptors. */
static void map_direct(void)
{
	for (unsigned long i = 0; i < memblock.memory.cnt; i++) {
		const struct memblock_region *r = &memblock.memory.regions[i];

		map_range((uint64_t)__va(r->base), r->base, r->size, _PAGE_RW | nx_bit);
	}
}

static void map_kernel_section(char *start, char *end, uint64_t flags)
{
	uint64_t va = (uint64_t)start;

	for (; va < (uint64_t)end; va += PAGE_SIZE) {
		if (va == (uint64_t)boot_stack_guard)
			continue;
		map_page(va, boot->kernel_phys + (va - boot->kernel_virt), 1,
			 flags | _PAGE_PRESENT | _PAGE_GLOBAL);
	}
}

static void map_kernel(void)
{
	map_kernel_section(__text_start, __rodata_start, 0);
	map_kernel_section(__rodata_start, __data_start, nx_bit);
	map_kernel_section(__data_start, __data_end, _PAGE_RW | nx_bit);
	map_kernel_section(__ksyms_start, __kernel_end, nx_bit);
}

/* Map device memory into the direct map with 4 KiB pages. */
static void map_device(uint64_t pa, uint64_t size, uint64_t cache)
{
	uint64_t start = ALIGN_DOWN(pa, PAGE_SIZE);
	uint64_t end = ALIGN_UP(pa + size, PAGE_SIZE);

	for (uint64_t p = start; p < end; p += PAGE_SIZE) {
		int level;

		if (!paging_lookup((uint64_t)__va(p), &level))
			map_page((uint64_t)__va(p), p, 1,
				 _PAGE_PRESENT | _PAGE_RW | nx_bit | cache);
	}
}

void *ioremap(uint64_t phys, uint64_t size)
{
	map_device(phys, size, CACHE_UC);
	return __va(phys);
}

void *memremap(uint64_t phys, uint64_t size)
{
	map_device(phys, size, 0);
	return __va(phys);
}

static void setup_pat_and_nx(void)
{
	if (cpu.pat) {
		uint64_t pat = rdmsr(IA32_PAT);

		wrmsr(IA32_PAT, (pat & ~(0xffull << 8)) | ((uint64_t)PAT_WC << 8));
	}
	if (cpu.nx) {
		wrmsr(IA32_EFER, rdmsr(IA32_EFER) | EFER_NXE);
		nx_bit = _PAGE_NX;
	}
}

/*
 * Linux: preallocate_vmalloc_pages. Every PML4 entry of the vmalloc range
 * gets its PUD table now, before any mm copies the kernel half
 * (arch_pgd_init), so a later mapping below it shows in every mm: 64
 * tables for 32 TiB. Folium also makes the tables of the range's first
 * 2 MiB, where first fit puts the kernel stacks: a program's stack then
 * comes and goes without leaving a table behind (MemFree the same after).
 */
static void preallocate_vmalloc_pages(void)
{
	for (uint64_t va = VMALLOC_START; va < VMALLOC_END; va += 1ull << PGDIR_SHIFT)
		next_table(&kernel_pml4[index_at(va, PGDIR_SHIFT)]);
	next_table(pmd_entry(VMALLOC_START));
}

void paging_init(const struct boot_info *bi)
{
	boot = bi;
	setup_pat_and_nx();
	kernel_pml4 = __va(alloc_table_page());
	map_direct();
	map_kernel();
	preallocate_vmalloc_pages();
	write_cr3(__pa(kernel_pml4));
	/* From here on the loader's identity map is gone. */
	if (bi->fb.format != BOOT_FB_NONE)
		map_device(bi->fb.base, bi->fb.size, cpu.pat ? CACHE_WC : CACHE_UC);
	write_cr0(read_cr0() | CR0_WP);
}

/*
 * Map one piece of the vmemmap at va (end: where the wanted part ends).
 * A 2 MiB page when va starts an empty, wholly wanted 2 MiB and memblock
 * has an aligned 2 MiB (Linux: vmemmap_populate_hugepages), else 4 KiB.
 * Return: bytes of vmemmap now backed from va on.
 */
static uint64_t vmemmap_map_one(uint64_t va, uint64_t end)
{
	const uint64_t flags = _PAGE_PRESENT | _PAGE_RW | nx_bit;
	uint64_t *pmd = pmd_entry(va);
	int level;
	phys_addr_t pa;

	if (*pmd & _PAGE_PSE)
		return 2 * MIB - (va & (2 * MIB - 1));
	if (!(*pmd & _PAGE_PRESENT) && !(va & (2 * MIB - 1)) && end - va >= 2 * MIB) {
		pa = memblock_phys_alloc(&memblock, 2 * MIB, 2 * MIB);
		if (pa) {
			memset(__va(pa), 0, 2 * MIB);
			*pmd = pa | flags | _PAGE_PSE;
			return 2 * MIB;
		}
	}
	if (!paging_lookup(va, &level))
		map_page(va, alloc_table_page(), 1, flags);
	return PAGE_SIZE;
}

/*
 * Back the struct pages of [start_pfn, end_pfn) with zeroed, writable,
 * never-executable memory; parts already backed are kept, so callers may
 * pass overlapping ranges. Context: boot, memblock still allocating; the
 * mappings are new, so no TLB entry can be stale.
 */
void arch_vmemmap_populate(unsigned long start_pfn, unsigned long end_pfn)
{
	uint64_t va = ALIGN_DOWN((uint64_t)pfn_to_page(start_pfn), PAGE_SIZE);
	uint64_t end = ALIGN_UP((uint64_t)pfn_to_page(end_pfn), PAGE_SIZE);

	while (va < end)
		va += vmemmap_map_one(va, end);
}

/*
 * The PTE slot of vmalloc address va. The PUD tables exist from boot; a
 * missing PMD or PTE table is made if @alloc, from the buddy allocator,
 * and stays (Linux frees no vmalloc table either).
 * Return: the slot, or NULL (no table and !alloc, or no memory).
 */
static uint64_t *vmalloc_pte(uint64_t va, bool alloc)
{
	static const unsigned shifts[] = { PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };
	uint64_t *entry = &kernel_pml4[index_at(va, PGDIR_SHIFT)];
	struct page *page;

	BUG_ON(!(*entry & _PAGE_PRESENT)); /* preallocate_vmalloc_pages made it */
	for (unsigned i = 0; i < ARRAY_SIZE(shifts); i++) {
		if (!(*entry & _PAGE_PRESENT)) {
			page = alloc ? alloc_pages(GFP_KERNEL | __GFP_ZERO, 0) : NULL;
			if (!page)
				return NULL;
			*entry = page_to_phys(page) | _PAGE_PRESENT | _PAGE_RW;
		}
		entry = &table_at(*entry)[index_at(va, shifts[i])];
	}
	return entry;
}

static void check_vmalloc_addr(const char *fn, unsigned long addr)
{
	if (addr < VMALLOC_START || addr >= VMALLOC_END || (addr & (PAGE_SIZE - 1)))
		panic("%s: 0x%lx is not a page of the vmalloc range", fn, addr);
}

/* Linux's PAGE_KERNEL: A and D set, so the CPU never writes them back. */
int arch_map_kernel_page(unsigned long addr, unsigned long pfn)
{
	uint64_t *pte;

	check_vmalloc_addr("arch_map_kernel_page", addr);
	pte = vmalloc_pte(addr, true);
	if (!pte)
		return -ENOMEM;
	if (*pte & _PAGE_PRESENT)
		panic("arch_map_kernel_page: 0x%lx already maps pfn 0x%llx", addr,
		      (unsigned long long)((*pte & PTE_ADDR_MASK) >> PAGE_SHIFT));
	*pte = PFN_PHYS(pfn) | _PAGE_PRESENT | _PAGE_RW | _PAGE_ACCESSED | _PAGE_DIRTY |
	       _PAGE_GLOBAL | nx_bit;
	return 0;
}

void arch_unmap_kernel_page(unsigned long addr)
{
	uint64_t *pte;

	check_vmalloc_addr("arch_unmap_kernel_page", addr);
	pte = vmalloc_pte(addr, false);
	if (pte)
		*pte = 0;
}

uint64_t *paging_kernel_pml4(void)
{
	return kernel_pml4;
}

uint64_t paging_lookup(uint64_t va, int *level)
{
	uint64_t cr3 = read_cr3() & PTE_ADDR_MASK;
	uint64_t *table = __va(cr3);
	unsigned shifts[4] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };

	for (int l = 4; l >= 1; l--) {
		uint64_t e = table[index_at(va, shifts[4 - l])];

		if (!(e & _PAGE_PRESENT))
			return 0;
		if (l == 1 || (l <= 3 && (e & _PAGE_PSE))) {
			*level = l;
			return e;
		}
		table = table_at(e);
	}
	return 0;
}

bool arch_has_gbpages(void)
{
	return cpu.pdpe1gb;
}
