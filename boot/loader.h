/*
 * The UEFI loader's internal contract: what the loader's C files offer each
 * other. Everything here runs while boot services are active unless a
 * comment says otherwise; only the console survives ExitBootServices.
 */
#ifndef FOLIUM_BOOT_LOADER_H
#define FOLIUM_BOOT_LOADER_H

#include <stdarg.h>
#include <stdbool.h>

#include <efi.h>
#include <boot_info.h>

#define PAGE_SIZE 4096ull
#define PAGES(bytes) (((bytes) + PAGE_SIZE - 1) / PAGE_SIZE)
#define KERNEL_PATH "/folium/folium.elf"
#define CMDLINE_PATH "/folium/cmdline.txt"
#define INITRAMFS_PATH "/folium/initramfs.cpio"
#define KERNEL_HINT                                               \
	"the kernel file " KERNEL_PATH " is missing or damaged; " \
	"rebuild with make or re-flash the stick"

extern EFI_HANDLE efi_image;
extern EFI_SYSTEM_TABLE *efi_st;
extern EFI_BOOT_SERVICES *efi_bs;

/* console.c: every message goes to COM1 (if a UART answers) and ConOut. */
void console_init(void);
/* After ExitBootServices: stop using ConOut, keep the serial port. */
void console_firmware_gone(void);
/* "folium loader: <msg>\r\n". Formats: %s %c %d %u %x, with l for 64-bit. */
void loader_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "folium loader: error: <msg>\r\n". */
void loader_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A short English name for an EFI_STATUS, e.g. "not found". */
const char *efi_strerror(EFI_STATUS status);
void mem_zero(void *p, UINTN n);
void mem_copy(void *dst, const void *src, UINTN n);

/* fs.c: files on the volume the loader came from. */
EFI_STATUS open_boot_volume(EFI_FILE_HANDLE *root);
/*
 * Read the whole file @path ("/dir/name") into a fresh pool buffer.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND, EFI_BAD_BUFFER_SIZE when the file is
 * larger than @max (*size is then the file size), or a firmware error.
 * Prints nothing: the caller knows what the file means.
 */
EFI_STATUS read_file(EFI_FILE_HANDLE root, const char *path, UINTN max, void **data, UINTN *size);
/* Fill bi->cmdline and bi->cmdline_source from load options or the file. */
EFI_STATUS load_cmdline(EFI_FILE_HANDLE root, struct boot_info *bi);
/* Read INITRAMFS_PATH into loader data and fill bi->initrd_*. Never fails
 * the boot: a missing file is one line, an unreadable one a warning, and
 * the kernel then starts without programs. */
void load_initramfs(EFI_FILE_HANDLE root, struct boot_info *bi);

/* video.c: pick a GOP mode and describe its framebuffer (or BOOT_FB_NONE). */
void setup_framebuffer(struct boot_framebuffer *fb);

/* firmware.c: ACPI RSDP, firmware vendor and revisions. */
void describe_firmware(struct boot_info *bi);

/* paging.c: the page tables the kernel starts on. */
EFI_STATUS check_paging_mode(void);
/*
 * Build a PML4 that maps [0, phys_end) twice with 2 MiB pages (identity and
 * at the 0xffff888000000000 direct map) and the kernel image with 4 KiB
 * pages. All tables are zeroed EfiLoaderData pages.
 * Return: EFI_SUCCESS with *pml4 set, or an allocation error (printed).
 */
EFI_STATUS build_page_tables(uint64_t phys_end, const struct boot_info *bi, uint64_t *pml4);

#endif
