/*
 * BOOTX64.EFI: loads /folium/folium.elf and enters it with a struct
 * boot_info. efi_main() below is the whole procedure as a checklist; every
 * step either succeeds or prints "folium loader: error: ..." on the screen
 * and COM1 and returns to the firmware, which then tries its next boot
 * option. Nothing is irrevocable until ExitBootServices, the last step.
 */
#include "loader.h"
#include "elf_check.h"

#define KERNEL_FILE_MAX ((UINT64)256 << 20)
#define STACK_SIZE (64 * 1024)
#define EXIT_RETRIES 4
#define EXTRA_DESCS 8
#define ERROR_DELAY_US 3000000

EFI_HANDLE efi_image;
EFI_SYSTEM_TABLE *efi_st;
EFI_BOOT_SERVICES *efi_bs;

static void *alloc_pages(UINTN bytes, UINT32 type)
{
	EFI_PHYSICAL_ADDRESS addr;

	if (efi_bs->AllocatePages(AllocateAnyPages, type, PAGES(bytes), &addr) != EFI_SUCCESS)
		return NULL;
	mem_zero((void *)(UINTN)addr, PAGES(bytes) * PAGE_SIZE);
	return (void *)(UINTN)addr;
}

/* Read and check the kernel ELF. Return: EFI_SUCCESS with the file in a
 * pool buffer, or an error already printed together with KERNEL_HINT. */
static EFI_STATUS read_kernel(EFI_FILE_HANDLE root, void **elf, struct elf_layout *l)
{
	char why[160];
	UINTN size;
	EFI_STATUS st;

	st = read_file(root, KERNEL_PATH, KERNEL_FILE_MAX, elf, &size);
	if (st == EFI_SUCCESS && elf_check(*elf, size, l, why, sizeof(why))) {
		efi_bs->FreePool(*elf);
		loader_error("%s: %s", KERNEL_PATH, why);
		st = EFI_LOAD_ERROR;
	} else if (st == EFI_BAD_BUFFER_SIZE) {
		loader_error("%s is %lu bytes, more than the %lu MiB limit", KERNEL_PATH,
			     (UINT64)size, KERNEL_FILE_MAX >> 20);
	} else if (st == EFI_NOT_FOUND) {
		loader_error("%s not found on the boot volume", KERNEL_PATH);
	} else if (st != EFI_SUCCESS) {
		loader_error("cannot read %s: %s", KERNEL_PATH, efi_strerror(st));
	}
	if (st != EFI_SUCCESS)
		loader_log("%s", KERNEL_HINT);
	return st;
}

/* Place every PT_LOAD at (vaddr - vaddr_start) in one zeroed block. */
static EFI_STATUS load_kernel(EFI_FILE_HANDLE root, struct boot_info *bi, UINT64 *entry)
{
	struct elf_layout l;
	struct elf_segment *s;
	UINT8 *image;
	void *elf;
	EFI_STATUS st;

	st = read_kernel(root, &elf, &l);
	if (st != EFI_SUCCESS)
		return st;
	bi->kernel_size = l.vaddr_end - l.vaddr_start;
	image = alloc_pages(bi->kernel_size, EFI_FOLIUM_KERNEL);
	if (!image) {
		loader_log("firmware refused memory type 0x%x, using EfiLoaderData",
			   EFI_FOLIUM_KERNEL);
		image = alloc_pages(bi->kernel_size, EfiLoaderData);
	}
	if (!image) {
		efi_bs->FreePool(elf);
		loader_error("no memory for the %lu-byte kernel image", bi->kernel_size);
		return EFI_OUT_OF_RESOURCES;
	}
	for (s = l.segments; s < l.segments + l.nr_segments; s++)
		mem_copy(image + (s->vaddr - l.vaddr_start), (UINT8 *)elf + s->offset, s->filesz);
	efi_bs->FreePool(elf);
	bi->kernel_phys = (UINT64)(UINTN)image;
	bi->kernel_virt = l.vaddr_start;
	*entry = l.entry;
	loader_log("kernel: %u segments, 0x%lx bytes at phys 0x%lx, virt 0x%lx, entry 0x%lx",
		   l.nr_segments, bi->kernel_size, bi->kernel_phys, bi->kernel_virt, *entry);
	return EFI_SUCCESS;
}

/* Highest address the memory map or the framebuffer reaches, at least
 * 4 GiB so the usual MMIO below 4 GiB (APIC, HPET, PCI) is covered. */
static EFI_STATUS physical_extent(const struct boot_info *bi, UINT64 *end)
{
	UINTN size = 0, key, dsize;
	UINT32 dver;
	UINT8 *map = NULL, *d;
	EFI_STATUS st;

	*end = 4ull << 30;
	if (bi->fb.base + bi->fb.size > *end)
		*end = bi->fb.base + bi->fb.size;
	st = efi_bs->GetMemoryMap(&size, NULL, &key, &dsize, &dver);
	if (st == EFI_BUFFER_TOO_SMALL) {
		size += EXTRA_DESCS * dsize;
		st = efi_bs->AllocatePool(EfiLoaderData, size, (void **)&map);
	}
	if (st == EFI_SUCCESS)
		st = efi_bs->GetMemoryMap(&size, (void *)map, &key, &dsize, &dver);
	for (d = map; st == EFI_SUCCESS && d < map + size; d += dsize) {
		EFI_MEMORY_DESCRIPTOR *m = (EFI_MEMORY_DESCRIPTOR *)d;
		UINT64 top = m->PhysicalStart + m->NumberOfPages * PAGE_SIZE;

		if (top > *end)
			*end = top;
	}
	if (map)
		efi_bs->FreePool(map);
	if (st != EFI_SUCCESS)
		loader_error("cannot read the memory map: %s", efi_strerror(st));
	return st;
}

/*
 * Get the final memory map into an EfiLoaderData buffer and exit boot
 * services. A stale map key (EFI_INVALID_PARAMETER) means the map changed
 * between the two calls: fetch it again into the same buffer and retry;
 * after a failed ExitBootServices only GetMemoryMap may be called, so the
 * buffer must already have room for the growth.
 */
static EFI_STATUS exit_boot_services(struct boot_info *bi)
{
	UINTN size = 0, cap, key, dsize;
	UINT32 dver;
	void *map;
	EFI_STATUS st;
	int try;

	st = efi_bs->GetMemoryMap(&size, NULL, &key, &dsize, &dver);
	if (st != EFI_BUFFER_TOO_SMALL) {
		loader_error("cannot size the memory map: %s", efi_strerror(st));
		return EFI_DEVICE_ERROR;
	}
	cap = size + EXTRA_DESCS * dsize;
	map = alloc_pages(cap, EfiLoaderData);
	if (!map) {
		loader_error("no memory for the memory map (%lu bytes)", (UINT64)cap);
		return EFI_OUT_OF_RESOURCES;
	}
	loader_log("exiting boot services");
	for (try = 0; try < EXIT_RETRIES; try++) {
		size = cap;
		st = efi_bs->GetMemoryMap(&size, map, &key, &dsize, &dver);
		if (st != EFI_SUCCESS)
			break;
		st = efi_bs->ExitBootServices(efi_image, key);
		if (st != EFI_INVALID_PARAMETER)
			break;
		console_firmware_gone(); /* may be half shut down now */
	}
	if (st != EFI_SUCCESS) {
		loader_error("ExitBootServices failed: %s", efi_strerror(st));
		return st;
	}
	console_firmware_gone();
	bi->mmap = (UINT64)(UINTN)map;
	bi->mmap_size = size;
	bi->mmap_desc_size = dsize;
	bi->mmap_desc_version = dver;
	return EFI_SUCCESS;
}

/*
 * Enter the kernel: interrupts off (the firmware's IDT is gone for us),
 * the new tables in CR3, %rdi = boot_info, a fresh 16-byte aligned stack,
 * %rbp = 0 to end backtraces. This code and the stack stay reachable across
 * the CR3 load through the identity map.
 */
static void __attribute__((noreturn))
enter_kernel(UINT64 pml4, UINT64 entry, UINT64 bi, UINT64 stack_top)
{
	__asm__ volatile("cli\n\t"
			 "mov %0, %%cr3\n\t"
			 "mov %3, %%rsp\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "jmp *%1"
			 :
			 : "r"(pml4), "r"(entry), "D"(bi), "r"(stack_top)
			 : "memory");
	__builtin_unreachable();
}

static EFI_STATUS give_up(EFI_STATUS st)
{
	loader_log("returning to the firmware in %u seconds", ERROR_DELAY_US / 1000000);
	efi_bs->Stall(ERROR_DELAY_US);
	return st;
}

/* Everything that needs boot services, in dependency order. */
static EFI_STATUS prepare(struct boot_info *bi, UINT64 *entry, UINT64 *pml4)
{
	EFI_FILE_HANDLE root;
	UINT64 phys_end;
	EFI_STATUS st;

	st = check_paging_mode();
	if (st == EFI_SUCCESS)
		st = open_boot_volume(&root);
	if (st != EFI_SUCCESS)
		return st;
	st = load_kernel(root, bi, entry);
	if (st == EFI_SUCCESS)
		st = load_cmdline(root, bi);
	if (st == EFI_SUCCESS)
		load_initramfs(root, bi);
	root->Close(root);
	if (st != EFI_SUCCESS)
		return st;
	describe_firmware(bi);
	setup_framebuffer(&bi->fb);
	st = physical_extent(bi, &phys_end);
	if (st == EFI_SUCCESS)
		st = build_page_tables(phys_end, bi, pml4);
	return st;
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	struct boot_info *bi;
	UINT64 entry, pml4, stack;
	EFI_STATUS status;

	efi_image = image;
	efi_st = st;
	efi_bs = st->BootServices;
	console_init();
	loader_log("Folium UEFI loader, boot_info version %u", BOOT_INFO_VERSION);

	bi = alloc_pages(sizeof(*bi), EfiLoaderData);
	stack = (UINT64)(UINTN)alloc_pages(STACK_SIZE, EfiLoaderData);
	if (!bi || !stack) {
		loader_error("out of memory for boot_info and the kernel stack");
		return give_up(EFI_OUT_OF_RESOURCES);
	}
	bi->magic = BOOT_INFO_MAGIC;
	bi->version = BOOT_INFO_VERSION;
	bi->size = sizeof(*bi);
	status = prepare(bi, &entry, &pml4);
	if (status == EFI_SUCCESS)
		status = exit_boot_services(bi);
	if (status != EFI_SUCCESS)
		return give_up(status);
	loader_log("jumping to the kernel at 0x%lx, boot_info at 0x%lx", entry, (UINT64)(UINTN)bi);
	enter_kernel(pml4, entry, (UINT64)(UINTN)bi, stack + STACK_SIZE);
}
