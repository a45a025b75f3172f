/*
 * The kernel's first page tables (4-level, 4 KiB granules):
 *   PML4[0..]    identity map of [0, phys_end), 2 MiB pages, so the loader
 *                keeps running right after it loads CR3;
 *   PML4[273..]  the same physical range at 0xffff888000000000 (direct map);
 *   PML4[511]    kernel_virt -> kernel_phys, 4 KiB pages.
 * Entries are present + writable only: no NX bit, as EFER.NXE may be off.
 * Tables come from one zeroed block sized up front for the worst case.
 */
#include "loader.h"

#define PTE_P (1ull << 0)
#define PTE_W (1ull << 1)
#define PTE_PS (1ull << 7) /* in a PD entry: 2 MiB page */
#define PTE_ADDR 0x000ffffffffff000ull
#define DIRECT_MAP ((UINT64)0xffff888000000000)
#define MAP_LIMIT (64ull << 40) /* PML4 slots 273..400 at most */
#define SZ_2M (2ull << 20)
#define SZ_1G (1ull << 30)
#define SZ_512G (512ull << 30)
#define CR4_LA57 (1ull << 12)

struct table_pool {
	UINT64 next; /* physical = virtual: boot services identity-map */
	UINT64 end;
};

static UINT64 *pool_alloc(struct table_pool *pool)
{
	UINT64 *t = (UINT64 *)(UINTN)pool->next;

	if (pool->next >= pool->end)
		return NULL;
	pool->next += PAGE_SIZE;
	return t;
}

/* Return: the table @entry points to, allocating it if absent. */
static UINT64 *next_table(struct table_pool *pool, UINT64 *entry)
{
	UINT64 *t;

	if (*entry & PTE_P)
		return (UINT64 *)(UINTN)(*entry & PTE_ADDR);
	t = pool_alloc(pool);
	if (t)
		*entry = (UINT64)(UINTN)t | PTE_P | PTE_W;
	return t;
}

/* Map @va -> @pa, a 2 MiB page if @huge else 4 KiB. Return: false if out
 * of table pages (a sizing bug). */
static bool map(struct table_pool *pool, UINT64 *pml4, UINT64 va, UINT64 pa, bool huge)
{
	UINT64 *pdpt, *pd, *pt;

	pdpt = next_table(pool, &pml4[(va >> 39) & 511]);
	pd = pdpt ? next_table(pool, &pdpt[(va >> 30) & 511]) : NULL;
	if (!pd)
		return false;
	if (huge) {
		pd[(va >> 21) & 511] = pa | PTE_P | PTE_W | PTE_PS;
		return true;
	}
	pt = next_table(pool, &pd[(va >> 21) & 511]);
	if (!pt)
		return false;
	pt[(va >> 12) & 511] = pa | PTE_P | PTE_W;
	return true;
}

/* Worst case: per 2 MiB-mapped copy one PD per GiB and one PDPT per 512 GiB;
 * the kernel (< 64 MiB) adds a PDPT, two PDs and one PT per 2 MiB plus two. */
static UINTN tables_needed(UINT64 phys_end, UINT64 kernel_size)
{
	UINTN pds = (phys_end + SZ_1G - 1) / SZ_1G;
	UINTN pdpts = (phys_end + SZ_512G - 1) / SZ_512G;

	return 1 + 2 * (pds + pdpts) + 3 + kernel_size / SZ_2M + 2;
}

static bool map_all(struct table_pool *pool, UINT64 *pml4, UINT64 phys_end,
		    const struct boot_info *bi)
{
	UINT64 a;

	for (a = 0; a < phys_end; a += SZ_2M)
		if (!map(pool, pml4, a, a, true) || !map(pool, pml4, DIRECT_MAP + a, a, true))
			return false;
	for (a = 0; a < bi->kernel_size; a += PAGE_SIZE)
		if (!map(pool, pml4, bi->kernel_virt + a, bi->kernel_phys + a, false))
			return false;
	return true;
}

EFI_STATUS build_page_tables(UINT64 phys_end, const struct boot_info *bi, UINT64 *pml4)
{
	UINTN pages;
	struct table_pool pool;
	EFI_PHYSICAL_ADDRESS base;
	EFI_STATUS st;

	phys_end = (phys_end + SZ_2M - 1) & ~(SZ_2M - 1);
	if (phys_end > MAP_LIMIT) {
		loader_error("physical addresses reach 0x%lx, beyond the 64 TiB folium maps",
			     phys_end);
		return EFI_UNSUPPORTED;
	}
	pages = tables_needed(phys_end, bi->kernel_size);
	st = efi_bs->AllocatePages(AllocateAnyPages, EfiLoaderData, pages, &base);
	if (st != EFI_SUCCESS) {
		loader_error("cannot allocate %lu page-table pages: %s", (UINT64)pages,
			     efi_strerror(st));
		return st;
	}
	mem_zero((void *)(UINTN)base, pages * PAGE_SIZE);
	pool.next = base;
	pool.end = base + pages * PAGE_SIZE;
	*pml4 = (UINT64)(UINTN)pool_alloc(&pool);
	if (!map_all(&pool, (UINT64 *)(UINTN)*pml4, phys_end, bi)) {
		loader_error("page-table pool too small (loader bug)");
		return EFI_BUFFER_TOO_SMALL;
	}
	loader_log("page tables at 0x%lx: [0, 0x%lx) identity and at 0x%lx, kernel at 0x%lx", *pml4,
		   phys_end, DIRECT_MAP, bi->kernel_virt);
	return EFI_SUCCESS;
}

/* The tables above are 4-level; under 5-level paging CR3 means a PML5. */
EFI_STATUS check_paging_mode(void)
{
	UINT64 cr4;

	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	if (!(cr4 & CR4_LA57))
		return EFI_SUCCESS;
	loader_error(
		"the firmware runs with 5-level paging (CR4.LA57); folium needs 4-level paging");
	return EFI_UNSUPPORTED;
}
