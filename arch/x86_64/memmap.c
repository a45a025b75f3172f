/*
 * The UEFI memory map as memblock: every descriptor that is RAM becomes
 * memory, and what is not free after ExitBootServices is reserved. Order
 * of entries does not matter (memblock sorts and merges), so a map such as
 * "conventional 0x100000+16M, loader data 0x50000+4K, conventional
 * 0x0+0x9f000" gives memory [0, 0x9f000) and [0x100000, +16M) and a
 * reservation [0, 1 MiB) that swallows the loader data.
 */
#include <asm/page.h>
#include <mm.h>
#include "x86.h"

/* Linux: the first 1 MiB holds BIOS/real-mode leftovers (EBDA, trampoline
 * remnants, option ROM shadows) and is never given to the page allocator. */
#define LOW_RESERVED_END (1 * MIB)

enum efi_use {
	EFI_NOT_RAM,
	EFI_FREE,
	EFI_KEEP
};

/* What a descriptor of this type is to the kernel once boot services are
 * gone (Linux: efi_reserve_boot_services runs before, we run after). */
static enum efi_use efi_type_use(uint32_t type)
{
	switch (type) {
	case EFI_CONVENTIONAL_MEMORY:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA: /* ExitBootServices was called */
	case EFI_LOADER_CODE:	     /* the loader is not coming back */
	case EFI_PERSISTENT_MEMORY:
		return EFI_FREE;
	case EFI_RUNTIME_SERVICES_CODE: /* firmware may still run these */
	case EFI_RUNTIME_SERVICES_DATA:
	case EFI_ACPI_RECLAIM_MEMORY: /* kept: the kernel reads ACPI tables */
	case EFI_ACPI_MEMORY_NVS:
	case EFI_FOLIUM_KERNEL: /* the kernel image */
	/* Loader data holds boot_info, this memory map, the loader's page
	 * tables and the stack kmain started on; all are live until the end. */
	case EFI_LOADER_DATA:
		return EFI_KEEP;
	default:
		return EFI_NOT_RAM; /* reserved, unusable, MMIO, PAL code */
	}
}

/*
 * Fill mb from the firmware map in bi. A region that memblock cannot
 * record (its lists are full) was already reported by memblock; the
 * memory is then simply not used, which is safe for free memory but not
 * for a lost reservation, hence the panic.
 */
void memblock_from_efi(struct memblock *mb, const struct boot_info *bi)
{
	memblock_init(mb);
	for (uint64_t i = 0; i < boot_mmap_count(bi); i++) {
		const struct efi_memory_desc *d = boot_mmap_desc(bi, __va(bi->mmap), i);
		enum efi_use use = efi_type_use(d->type);
		uint64_t size = d->num_pages * PAGE_SIZE;

		if (use == EFI_NOT_RAM || !size)
			continue;
		memblock_add(mb, d->phys_start, size);
		if (use == EFI_KEEP && memblock_reserve(mb, d->phys_start, size) < 0)
			panic("memblock_from_efi: cannot reserve %#llx+%#llx (type %u)",
			      (unsigned long long)d->phys_start, (unsigned long long)size, d->type);
	}
	/* The loader marks the image EFI_FOLIUM_KERNEL, or loader data when
	 * the firmware refuses that type; either way it stays reserved. */
	if (memblock_reserve(mb, bi->kernel_phys, ALIGN_UP(bi->kernel_size, PAGE_SIZE)) < 0 ||
	    memblock_reserve(mb, 0, LOW_RESERVED_END) < 0)
		panic("memblock_from_efi: cannot reserve the kernel or the first 1 MiB");
	/* The initramfs is in loader data, kept anyway; reserved by name too
	 * (Linux: reserve_initrd) until populate_rootfs has copied the files
	 * out of it and frees it (free_initrd_mem). */
	if (bi->initrd_size &&
	    memblock_reserve(mb, ALIGN_DOWN(bi->initrd_phys, PAGE_SIZE),
			     ALIGN_UP(bi->initrd_phys + bi->initrd_size, PAGE_SIZE) -
				     ALIGN_DOWN(bi->initrd_phys, PAGE_SIZE)) < 0)
		panic("memblock_from_efi: cannot reserve the initramfs %#llx+%#llx",
		      (unsigned long long)bi->initrd_phys, (unsigned long long)bi->initrd_size);
}

uint64_t efi_low_free_range(const struct boot_info *bi, uint64_t size, uint64_t limit)
{
	uint64_t best = 0;

	for (uint64_t i = 0; i < boot_mmap_count(bi); i++) {
		const struct efi_memory_desc *d = boot_mmap_desc(bi, __va(bi->mmap), i);
		uint64_t start = MAX(d->phys_start, PAGE_SIZE);
		uint64_t end = MIN(d->phys_start + d->num_pages * PAGE_SIZE, limit);

		if (efi_type_use(d->type) != EFI_FREE || end < start + size)
			continue;
		best = MAX(best, ALIGN_DOWN(end - size, PAGE_SIZE));
	}
	return best;
}
