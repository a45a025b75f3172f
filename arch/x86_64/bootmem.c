/*
 * bootmem: the page allocator of the first milliseconds, before the buddy
 * allocator exists. It hands out 4 KiB pages from the UEFI map's
 * EfiConventionalMemory ranges above 1 MiB, bump-style, lowest range
 * first, and remembers how many pages it took from each range so the
 * physical memory manager can treat them as reserved later.
 */
#include <asm/page.h>
#include "x86.h"

static const struct boot_info *boot;
static uint64_t cur_desc;	/* index of the range being carved */
static uint64_t cur_next;	/* next free physical address in it */
uint64_t bootmem_pages_used;

static const struct efi_memory_desc *desc_at(uint64_t i)
{
	return (const void *)((const char *)__va(boot->mmap) + i * boot->mmap_desc_size);
}

static uint64_t desc_count(void)
{
	return boot->mmap_size / boot->mmap_desc_size;
}

void bootmem_init(const struct boot_info *bi)
{
	boot = bi;
	cur_desc = 0;
	cur_next = 0;
}

/* Advance to the next usable conventional range; false when none left. */
static bool next_range(void)
{
	for (; cur_desc < desc_count(); cur_desc++) {
		const struct efi_memory_desc *d = desc_at(cur_desc);
		uint64_t end = d->phys_start + d->num_pages * PAGE_SIZE;

		if (d->type != EFI_CONVENTIONAL_MEMORY || end <= 1 * MIB)
			continue;
		if (cur_next < d->phys_start || cur_next < 1 * MIB)
			cur_next = MAX(d->phys_start, 1 * MIB);
		if (cur_next + PAGE_SIZE <= end)
			return true;
	}
	return false;
}

uint64_t bootmem_alloc_page(void)
{
	uint64_t pa;

	if (!next_range())
		panic("bootmem_alloc_page: out of memory after %llu pages",
		      (unsigned long long)bootmem_pages_used);
	pa = cur_next;
	cur_next += PAGE_SIZE;
	bootmem_pages_used++;
	memset(__va(pa), 0, PAGE_SIZE);
	return pa;
}
