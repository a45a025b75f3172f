/*
 * The x86_64 half of the boot sequence (init/main.c calls these in
 * order). CPU features are read before the page tables are built, because
 * they decide NX, PAT and 1 GiB pages.
 */
#include <arch.h>
#include <mm.h>
#include <asm/fpu.h>
#include <asm/smap.h>
#include "x86.h"

void arch_early_console(void)
{
	serial_console_init();
}

static uint64_t ram_bytes; /* RAM in the firmware's map, for arch_machine_info */

void arch_setup(const struct boot_info *bi)
{
	cpu_detect();
	fpu__init_system(); /* CR0/CR4 and XCR0: what programs may use */
	gdt_init();
	idt_init();
	syscall_init();
	memblock_from_efi(&memblock, bi); /* paging_init allocates from it */
	ram_bytes = memblock_phys_mem_size(&memblock);
	smp_reserve_trampoline(bi); /* below 1 MiB, from the firmware's map */
	paging_init(bi);
	setup_smap(); /* CR4.SMAP: the kernel's page tables are in */
	tsc_calibrate();
}

void arch_late_setup(void)
{
	pr_info("Serial console: %s\n",
		serial_present() ? "COM1 at 0x3f8, 115200 8N1" : "none found");
	pr_info("TSC: %llu.%03llu MHz%s\n", (unsigned long long)(tsc_hz / 1000000),
		(unsigned long long)(tsc_hz / 1000 % 1000),
		cpu.hypervisor ? " (under a hypervisor or emulator)" : "");
	i8042_init();
	irq_init();
}

void arch_machine_info(struct arch_machine_info *info)
{
	info->source = "kernel";
	info->features = cpu.erms ? (cpu.fsrm ? "erms,fsrm" : "erms") : cpu.fsrm ? "fsrm" : "none";
	info->tsc_hz = tsc_hz;
	info->ram_bytes = ram_bytes;
}

const char *arch_cpu_name(void)
{
	return cpu.brand[0] ? cpu.brand : cpu.vendor;
}

const char *arch_hypervisor(void)
{
	return cpu.hypervisor ? cpu.hypervisor_vendor : NULL;
}
