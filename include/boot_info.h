/*
 * boot_info: the one contract between the UEFI loader (boot/) and the kernel.
 * The loader fills it in physical memory it keeps (EfiLoaderData) and passes
 * its physical address in %rdi; every pointer in it is a physical address.
 * Bump BOOT_INFO_VERSION whenever the layout changes: the kernel refuses a
 * boot_info whose magic, version or size it does not know.
 */
#ifndef FOLIUM_BOOT_INFO_H
#define FOLIUM_BOOT_INFO_H

#include <stdint.h>

#define BOOT_INFO_MAGIC 0x49424d55494c4f46ull /* "FOLIUMBI" little-endian */
#define BOOT_INFO_VERSION 2
#define BOOT_CMDLINE_MAX 1024
#define BOOT_FW_VENDOR_MAX 64

/* UEFI memory types the kernel cares about (UEFI 2.10, table 7-5). */
enum efi_memory_type {
	EFI_RESERVED_MEMORY = 0,
	EFI_LOADER_CODE = 1,
	EFI_LOADER_DATA = 2,
	EFI_BOOT_SERVICES_CODE = 3,
	EFI_BOOT_SERVICES_DATA = 4,
	EFI_RUNTIME_SERVICES_CODE = 5,
	EFI_RUNTIME_SERVICES_DATA = 6,
	EFI_CONVENTIONAL_MEMORY = 7,
	EFI_UNUSABLE_MEMORY = 8,
	EFI_ACPI_RECLAIM_MEMORY = 9,
	EFI_ACPI_MEMORY_NVS = 10,
	EFI_MEMORY_MAPPED_IO = 11,
	EFI_MEMORY_MAPPED_IO_PORT_SPACE = 12,
	EFI_PAL_CODE = 13,
	EFI_PERSISTENT_MEMORY = 14,
	EFI_MEMORY_TYPE_MAX = 15,
	/* OS-defined type (0x80000000+) the loader uses for the kernel image. */
	EFI_FOLIUM_KERNEL = 0x80000000u,
};

/* Layout of one UEFI memory descriptor. Entries are mmap_desc_size apart,
 * which may be larger than this struct: always step by mmap_desc_size. */
struct efi_memory_desc {
	uint32_t type;
	uint32_t pad;
	uint64_t phys_start;
	uint64_t virt_start;
	uint64_t num_pages; /* 4 KiB pages */
	uint64_t attribute;
};

enum boot_fb_format {
	BOOT_FB_NONE = 0,    /* no GOP framebuffer (or BLT-only mode) */
	BOOT_FB_RGBX = 1,    /* byte 0 red, 1 green, 2 blue */
	BOOT_FB_BGRX = 2,    /* byte 0 blue, 1 green, 2 red */
	BOOT_FB_BITMASK = 3, /* see the masks */
};

struct boot_framebuffer {
	uint64_t base;		/* physical address */
	uint64_t size;		/* bytes */
	uint32_t width, height; /* visible pixels */
	uint32_t pixels_per_scanline;
	uint32_t format; /* enum boot_fb_format */
	uint32_t red_mask, green_mask, blue_mask, reserved_mask;
};

struct boot_info {
	uint64_t magic;	  /* BOOT_INFO_MAGIC */
	uint32_t version; /* BOOT_INFO_VERSION */
	uint32_t size;	  /* sizeof(struct boot_info) */

	/* The final UEFI memory map, as returned before ExitBootServices. */
	uint64_t mmap;	    /* physical address of the first descriptor */
	uint64_t mmap_size; /* bytes */
	uint64_t mmap_desc_size;
	uint32_t mmap_desc_version;
	uint32_t pad0;

	/* Where the kernel image was placed: [kernel_phys, +kernel_size) is
	 * mapped at the ELF's lowest virtual address (kernel_virt). */
	uint64_t kernel_phys;
	uint64_t kernel_size;
	uint64_t kernel_virt;

	/* /folium/initramfs.cpio as the loader read it, in loader data the
	 * kernel keeps (Linux: ramdisk_image, ramdisk_size); 0 bytes: none. */
	uint64_t initrd_phys;
	uint64_t initrd_size;

	struct boot_framebuffer fb;

	uint64_t acpi_rsdp;		    /* physical address of the RSDP, 0 if none */
	uint32_t acpi_rsdp_revision;	    /* 0: ACPI 1.0 (RSDT), 2+: XSDT */
	uint32_t fw_revision;		    /* EFI_SYSTEM_TABLE.FirmwareRevision */
	char fw_vendor[BOOT_FW_VENDOR_MAX]; /* ASCII, NUL-terminated */
	uint32_t uefi_revision;		    /* EFI_SYSTEM_TABLE.Hdr.Revision */
	uint32_t cmdline_source;	    /* enum boot_cmdline_source */

	char cmdline[BOOT_CMDLINE_MAX]; /* NUL-terminated, may be empty */
};

/* Descriptors in the memory map, and the i-th one; map is where the
 * caller sees the map's bytes (the kernel: __va(bi->mmap)). */
static inline uint64_t boot_mmap_count(const struct boot_info *bi)
{
	return bi->mmap_size / bi->mmap_desc_size;
}

static inline const struct efi_memory_desc *boot_mmap_desc(const struct boot_info *bi,
							   const void *map, uint64_t i)
{
	return (const struct efi_memory_desc *)((const char *)map + i * bi->mmap_desc_size);
}

enum boot_cmdline_source {
	BOOT_CMDLINE_DEFAULT = 0,      /* no file, no load options */
	BOOT_CMDLINE_FILE = 1,	       /* /folium/cmdline.txt */
	BOOT_CMDLINE_LOAD_OPTIONS = 2, /* UEFI load options override */
};

#endif
