/*
 * The `cpuinfo` view: what cpu_detect() found, the clearing instruction
 * clear_pages() chose and why, and the TSC rate. Kept apart from the
 * detection so cpu.c needs nothing from the files that read its results
 * (tsc.c reads cpu; this view reads both). Linux: arch/x86/kernel/cpu/proc.c.
 */
#include <vm.h>
#include "x86.h"

static const char *yesno(bool b)
{
	return b ? "yes" : "no";
}

/* Why clear_pages uses the instruction it does (clear.c picks it). */
static const char *clear_pages_reason(void)
{
	bool stosb = strcmp(clear_pages_insn_name(), "stosb") == 0;

	if (stosb && (cpu.erms || cpu.fsrm))
		return cpu.erms ? "ERMS" : "FSRM";
	if (!stosb && !cpu.erms && !cpu.fsrm)
		return "no ERMS or FSRM";
	return "clear_pages= on the command line";
}

void cpu_print_info(void)
{
	kprintf("vendor:        %s\n", cpu.vendor);
	kprintf("model:         %s\n", cpu.brand[0] ? cpu.brand : "(no brand string)");
	kprintf("family/model:  %u/%u stepping %u\n", cpu.family, cpu.model, cpu.stepping);
	kprintf("address bits:  %u physical, %u virtual\n", cpu.phys_addr_bits, cpu.virt_addr_bits);
	kprintf("hypervisor:    %s%s%s%s\n", yesno(cpu.hypervisor), cpu.hypervisor ? " (\"" : "",
		cpu.hypervisor_vendor, cpu.hypervisor ? "\")" : "");
	kprintf("ERMS:          %s  (enhanced rep movsb/stosb)\n", yesno(cpu.erms));
	kprintf("FSRM:          %s  (fast short rep mov)\n", yesno(cpu.fsrm));
	kprintf("clear_pages:   rep %s (%s)\n", clear_pages_insn_name(), clear_pages_reason());
	kprintf("NX:            %s\n", yesno(cpu.nx));
	kprintf("PDPE1GB:       %s  (1 GiB pages)\n", yesno(cpu.pdpe1gb));
	kprintf("LA57:          %s  (5-level paging; Folium uses 4 levels)\n", yesno(cpu.la57));
	kprintf("invariant TSC: %s\n", yesno(cpu.invariant_tsc));
	kprintf("TSC:           %llu.%03llu MHz (calibrated against the PIT)\n",
		(unsigned long long)(tsc_hz / 1000000), (unsigned long long)(tsc_hz / 1000 % 1000));
	if (cpu.tsc_crystal_hz && cpu.tsc_ratio_den)
		kprintf("TSC (CPUID):   %llu Hz (crystal %u Hz x %u/%u)\n",
			(unsigned long long)cpu.tsc_crystal_hz * cpu.tsc_ratio_num /
				cpu.tsc_ratio_den,
			cpu.tsc_crystal_hz, cpu.tsc_ratio_num, cpu.tsc_ratio_den);
}
