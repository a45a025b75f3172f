/*
 * `cpuinfo`: what cpu_detect() found. `hwreport`: everything a bare-metal
 * bug report needs on one screen —
 * firmware, framebuffer, serial port, ACPI tables, then the output of the
 * version, config, cpuinfo and mem commands (run through the shell, so the
 * report always says exactly what those commands say).
 */
#include <acpi.h>
#include <shell.h>
#include "x86.h"

extern const struct boot_info *boot_info;

static int cmd_cpuinfo(int argc, char **argv)
{
	if (argc != 1)
		return CMD_USAGE;
	cpu_print_info();
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(cpuinfo, "cpuinfo", "CPU model, features (ERMS, FSRM, NX, ...) and TSC rate");

static void report_firmware(const struct boot_info *bi)
{
	static const char *const fb_formats[] = { "none", "RGBX", "BGRX", "bitmask" };
	const struct boot_framebuffer *fb = &bi->fb;

	kprintf("firmware:    %s, revision %#x, UEFI %u.%u\n", bi->fw_vendor, bi->fw_revision,
		bi->uefi_revision >> 16, bi->uefi_revision & 0xffff);
	if (fb->format == BOOT_FB_NONE)
		kprintf("framebuffer: none (no GOP mode with a linear framebuffer)\n");
	else
		kprintf("framebuffer: %ux%u %s, %u pixels per scanline, at %#llx\n", fb->width,
			fb->height, fb_formats[fb->format < 4 ? fb->format : 0],
			fb->pixels_per_scanline, (unsigned long long)fb->base);
	kprintf("serial:      %s\n", serial_present() ? "COM1 at 0x3f8, 115200 8N1" : "none found");
}

static int cmd_hwreport(int argc, char **argv)
{
	static const char *const sections[] = { "version", "config", "cpuinfo", "mem" };

	if (argc != 1)
		return CMD_USAGE;
	kprintf("== hwreport ==\n");
	report_firmware(boot_info);
	kprintf("== ACPI ==\n");
	acpi_print_tables();
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		kprintf("== %s ==\n", sections[i]);
		shell_run_line(sections[i]);
	}
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(hwreport, "hwreport",
		     "firmware, framebuffer, serial, ACPI, CPU, memory map: for bug reports");
