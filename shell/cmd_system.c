/*
 * The core shell commands: what the machine is and how it booted
 * (version, cmdline, config, mem, dmesg, uptime), running the in-kernel
 * tests, and leaving (reboot, poweroff). Subsystems register their own
 * commands in their own files.
 */
#include <arch.h>
#include <asm/page.h>
#include <boot_info.h>
#include <ktest.h>
#include <mm.h>
#include <shell.h>
#include <version.h>

extern const struct boot_info *boot_info;

static int cmd_version(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	kprintf("Folium %s, built with clang %s\n", FOLIUM_VERSION, __clang_version__);
	return CMD_OK;
}

static int cmd_cmdline(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	kprintf("%s\n", boot_cmdline_text);
	for (int i = 0; i < boot_cmdline.nparams; i++)
		kprintf("  %s = \"%s\"\n", boot_cmdline.params[i].key,
			boot_cmdline.params[i].value);
	if (boot_cmdline.error[0])
		kprintf("  parse error: %s\n", boot_cmdline.error);
	return CMD_OK;
}

static int cmd_config(int argc, char **argv)
{
	const char *p = CONFIG_SUMMARY;

	if (argc != 1)
		return CMD_USAGE;
	while (*p) {
		const char *sp = strchr(p, ' ');
		int len = sp ? (int)(sp - p) : (int)strlen(p);

		kprintf("%.*s\n", len, p);
		p += len + (sp ? 1 : 0);
	}
	/* What the knobs come to (see include/mm_types.h). */
	kprintf("MAX_PAGE_ORDER=%d (blocks up to %lu KiB)\n", MAX_PAGE_ORDER,
		MAX_ORDER_NR_PAGES * PAGE_SIZE / 1024);
	kprintf("pageblock_order=%d (pageblocks of %lu KiB)\n", (int)pageblock_order,
		pageblock_nr_pages * PAGE_SIZE / 1024);
	kprintf("CMA_MIN_ALIGNMENT_BYTES=%lu\n", (unsigned long)CMA_MIN_ALIGNMENT_BYTES);
	return CMD_OK;
}

static const char *efi_type_name(uint32_t type)
{
	static const char *const names[EFI_MEMORY_TYPE_MAX] = {
		"reserved",	"loader code",	"loader data",	"boot code", "boot data",
		"runtime code", "runtime data", "conventional", "unusable",  "ACPI reclaim",
		"ACPI NVS",	"MMIO",		"MMIO port",	"PAL code",  "persistent",
	};

	if (type == EFI_FOLIUM_KERNEL)
		return "folium kernel";
	return type < EFI_MEMORY_TYPE_MAX ? names[type] : "OS/OEM defined";
}

/* How `mem` groups the UEFI types; usable is what Linux would give its page
 * allocator once boot services are gone. */
enum mem_class {
	MEM_USABLE,
	MEM_ACPI,
	MEM_RUNTIME,
	MEM_RESERVED,
	MEM_MMIO,
	MEM_NR_CLASSES
};

static enum mem_class efi_type_class(uint32_t type)
{
	switch (type) {
	case EFI_CONVENTIONAL_MEMORY:
	case EFI_BOOT_SERVICES_CODE:
	case EFI_BOOT_SERVICES_DATA:
	case EFI_LOADER_CODE:
	case EFI_LOADER_DATA:
	case EFI_FOLIUM_KERNEL:
		return MEM_USABLE;
	case EFI_ACPI_RECLAIM_MEMORY:
	case EFI_ACPI_MEMORY_NVS:
		return MEM_ACPI;
	case EFI_RUNTIME_SERVICES_CODE:
	case EFI_RUNTIME_SERVICES_DATA:
		return MEM_RUNTIME;
	case EFI_MEMORY_MAPPED_IO:
	case EFI_MEMORY_MAPPED_IO_PORT_SPACE:
		return MEM_MMIO;
	default:
		return MEM_RESERVED;
	}
}

static void mem_print_entry(const struct efi_memory_desc *d)
{
	uint64_t bytes = d->num_pages * PAGE_SIZE;
	char size[32];

	kprintf("%#018llx %#018llx %10s  %s\n", (unsigned long long)d->phys_start,
		(unsigned long long)(d->phys_start + bytes - 1),
		kformat_size(size, sizeof(size), bytes), efi_type_name(d->type));
}

static int cmd_mem(int argc, char **argv)
{
	static const char *const class_names[MEM_NR_CLASSES] = {
		"usable:   ", "ACPI:     ", "runtime:  ", "reserved: ", "MMIO:     ",
	};
	static const char *const class_help[MEM_NR_CLASSES] = {
		"conventional, boot services, loader, kernel",
		"ACPI tables and NVS",
		"UEFI runtime services",
		"firmware reserved, unusable",
		"device memory the firmware listed",
	};
	uint64_t n = boot_mmap_count(boot_info);
	uint64_t bytes[MEM_NR_CLASSES] = { 0 };
	bool verbose = argc == 2 && strcmp(argv[1], "-v") == 0;
	char size[32];

	if (argc > 2 || (argc == 2 && !verbose))
		return CMD_USAGE;
	if (verbose)
		kprintf("%-18s %-18s %10s  %s\n", "start", "end", "size", "type");
	for (uint64_t i = 0; i < n; i++) {
		const struct efi_memory_desc *d =
			boot_mmap_desc(boot_info, __va(boot_info->mmap), i);

		if (verbose)
			mem_print_entry(d);
		bytes[efi_type_class(d->type)] += d->num_pages * PAGE_SIZE;
	}
	kprintf("firmware memory map: %llu entries (mem -v lists them)\n", (unsigned long long)n);
	for (int c = 0; c < MEM_NR_CLASSES; c++)
		kprintf("  %s %10s  (%s)\n", class_names[c],
			kformat_size(size, sizeof(size), bytes[c]), class_help[c]);
	kprintf("  kernel:    %10s  at %#llx\n",
		kformat_size(size, sizeof(size), boot_info->kernel_size),
		(unsigned long long)boot_info->kernel_phys);
	return CMD_OK;
}

static int cmd_dmesg(int argc, char **argv)
{
	uint64_t seq = 0;
	char buf[256];
	size_t n;

	if (argc != 1)
		return CMD_USAGE;
	while ((n = printk_log_read(&seq, buf, sizeof(buf))) > 0)
		console_write(buf, n);
	return CMD_OK;
}

static int cmd_uptime(int argc, char **argv)
{
	uint64_t ns = arch_uptime_ns(), s = ns / 1000000000;

	if (argc != 1)
		return CMD_USAGE;
	kprintf("up %llu:%02llu:%02llu.%03llu (%llu ns)\n", (unsigned long long)(s / 3600),
		(unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60),
		(unsigned long long)(ns / 1000000 % 1000), (unsigned long long)ns);
	return CMD_OK;
}

/* In the kernel, KTAP goes to the consoles only: a test run should not
 * push the boot messages out of the printk ring. */
void ktest_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vkprintf(fmt, ap);
	va_end(ap);
}

static int cmd_test(int argc, char **argv)
{
	int failed;

	if (argc > 2)
		return CMD_USAGE;
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		ktest_list();
		return CMD_OK;
	}
	if (argc == 2 && argv[1][0] == '-')
		return CMD_USAGE;
	/* The mm suites' private nodes live in memory node 0 lends for the
	 * run; without it they skip, and the line printed says why. */
	test_memory_offline();
	failed = ktest_run(argc == 2 ? argv[1] : NULL);
	test_memory_online();
	if (failed < 0) {
		kprintf("test: no suite '%s'; 'test --list' shows the suites\n", argv[1]);
		return CMD_ERROR;
	}
	kprintf("test: %d case%s failed\n", failed, failed == 1 ? "" : "s");
	return failed ? CMD_ERROR : CMD_OK;
}

static int cmd_reboot(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	kprintf("Rebooting...\n");
	arch_reboot();
	kprintf("reboot: every reset method failed; reset the machine by hand\n");
	return CMD_ERROR;
}

static int cmd_poweroff(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	kprintf("Power down.\n");
	arch_poweroff();
	kprintf("poweroff: ACPI S5 did not power the machine off; it is safe to switch it off "
		"now\n");
	return CMD_ERROR;
}

DEFINE_SHELL_COMMAND(version, "version", "Folium version and compiler");
DEFINE_SHELL_COMMAND(cmdline, "cmdline", "the boot command line and its parameters");
DEFINE_SHELL_COMMAND(config, "config", "build-time configuration knobs");
DEFINE_SHELL_COMMAND(mem, "mem [-v]", "the firmware memory map: totals, -v for every entry");
DEFINE_SHELL_COMMAND(dmesg, "dmesg", "the kernel log");
DEFINE_SHELL_COMMAND(uptime, "uptime", "time since boot");
DEFINE_SHELL_COMMAND(test, "test [SUITE | --list]", "run the in-kernel tests (KTAP output)");
DEFINE_SHELL_COMMAND(reboot, "reboot", "reset the machine");
DEFINE_SHELL_COMMAND(poweroff, "poweroff", "switch the machine off (ACPI S5)");
