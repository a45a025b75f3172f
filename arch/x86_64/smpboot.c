/*
 * Starting the other CPUs (Linux: arch/x86/kernel/smpboot.c,
 * arch/x86/realmode/init.c). At boot a page range below 1 MiB is set
 * aside for the trampoline (trampoline.asm): a CPU leaves reset in real
 * mode and can only start there. For each CPU kernel/smp.c asks for, the
 * boot CPU gives it a per-CPU area and tables, copies the trampoline
 * with that CPU's data, and sends INIT, then two STARTUP IPIs carrying
 * the trampoline's page number (the SDM's universal start-up algorithm,
 * vol. 3A 8.4.4.1). The new CPU climbs to long mode, loads the kernel's
 * page tables, its own GDT, TSS, IDT and GS (start_secondary), enables
 * its local APIC and marks itself online; the boot CPU waits for that,
 * and after CALLIN_TIMEOUT_MS reports a CPU that never came.
 *
 * Trampoline pages: 0 code, data and (at its top) the real-mode stack;
 * 1 a top-level table with the kernel's half and an identity map of the
 * first 2 MiB (2 and 3: its PDPT and PD), where the code runs until it
 * jumps to the kernel's half.
 */
#include <acpi.h>
#include <arch.h>
#include <errno.h>
#include <mm.h>
#include <pgtable_bits.h>
#include <sched.h>
#include <slab.h>
#include <smp.h>
#include <asm/apicdef.h>
#include <asm/fpu.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/special_insns.h>
#include "x86.h"

#define TRAMPOLINE_PAGES 4
#define TRAMPOLINE_SIZE (TRAMPOLINE_PAGES * PAGE_SIZE)
/* A STARTUP IPI's vector is a page number: the code must sit below 1 MiB,
 * and below the EBDA and video memory at 0x9f000 and up. */
#define TRAMPOLINE_LIMIT 0x9f000
/* Linux waits up to 10 s; an emulator starting four CPUs on two host
 * cores needs well under one. */
#define CALLIN_TIMEOUT_MS 3000
#define IA32_PAT 0x277
#define EFER_SCE (1ull << 0)
#define EFER_LME (1ull << 8)
#define EFER_NXE (1ull << 11)

/* trampoline.asm's data block, in its order. */
struct trampoline_data {
	uint64_t started; /* the AP ran the trampoline's first steps */
	uint64_t pml4;	  /* physical address of the trampoline's top table */
	uint64_t efer, cr0;
	uint64_t kernel_cr3;
	uint64_t entry; /* secondary_startup_64 */
	uint64_t cpu;
	uint64_t stack; /* the idle task's stack top */
};

extern const char trampoline_start[], trampoline_end[], tr_data[];
extern const char secondary_startup_64[];

static phys_addr_t trampoline_phys; /* 0: none could be set aside */
/* Each CPU's APIC ID from the MADT, by CPU number (Linux:
 * x86_cpu_to_apicid). */
static uint32_t cpu_apic_id[NR_CPUS];
static uint64_t boot_cr4, boot_pat;
/* smp_fail_cpu='s CPU: it stops before it would answer. */
static volatile bool ap_told_to_stop;

void smp_reserve_trampoline(const struct boot_info *bi)
{
	trampoline_phys = efi_low_free_range(bi, TRAMPOLINE_SIZE, TRAMPOLINE_LIMIT);
	if (!trampoline_phys)
		pr_warn("smp: no free %u KiB below 0x%x for the AP trampoline: one CPU only\n",
			(unsigned int)(TRAMPOLINE_SIZE / 1024), TRAMPOLINE_LIMIT);
}

/* The trampoline and its tables, for @cpu starting on @idle's stack. */
static void trampoline_setup(unsigned int cpu_nr, struct task_struct *idle)
{
	uint8_t *base = __va(trampoline_phys);
	uint64_t *pml4 = (uint64_t *)(base + PAGE_SIZE), *pdpt = pml4 + 512, *pd = pdpt + 512;
	const uint64_t *kernel_pml4 = paging_kernel_pml4();
	struct trampoline_data *data =
		(struct trampoline_data *)(base + (tr_data - trampoline_start));

	memset(base, 0, TRAMPOLINE_SIZE);
	memcpy(base, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	for (int i = 256; i < 512; i++)
		pml4[i] = kernel_pml4[i];
	pml4[0] = (trampoline_phys + 2 * PAGE_SIZE) | _PAGE_PRESENT | _PAGE_RW;
	pdpt[0] = (trampoline_phys + 3 * PAGE_SIZE) | _PAGE_PRESENT | _PAGE_RW;
	pd[0] = _PAGE_PRESENT | _PAGE_RW | _PAGE_PSE; /* the first 2 MiB, executable */
	data->pml4 = trampoline_phys + PAGE_SIZE;
	data->efer = rdmsr(MSR_EFER) & (EFER_SCE | EFER_LME | EFER_NXE);
	data->cr0 = read_cr0();
	data->kernel_cr3 = __pa(kernel_pml4);
	data->entry = (uint64_t)secondary_startup_64;
	data->cpu = cpu_nr;
	data->stack = (uint64_t)idle->stack + THREAD_SIZE;
}

static bool trampoline_started(void)
{
	const struct trampoline_data *data =
		(const void *)((uint8_t *)__va(trampoline_phys) + (tr_data - trampoline_start));

	return READ_ONCE(data->started);
}

void arch_smp_prepare_cpus(void)
{
	unsigned int limit = smp_cpu_limit(), next = 1, left_out = 0, hotplug = 0;
	uint32_t boot_id;

	boot_cr4 = read_cr4();
	boot_pat = cpu.pat ? rdmsr(IA32_PAT) : 0;
	if (!lapic_present()) {
		pr_info("smp: no usable local APIC: one CPU\n");
		return;
	}
	boot_id = read_apic_id();
	per_cpu_area[0]->apic_id = boot_id;
	if (!acpi_boot_info.madt_found) {
		pr_info("smp: no ACPI MADT lists the CPUs: one CPU\n");
		return;
	}
	for (int i = 0; i < acpi_boot_info.ncpus; i++) {
		const struct acpi_cpu *c = &acpi_boot_info.cpus[i];

		if (c->apic_id == boot_id)
			continue;
		if (!c->enabled) {
			hotplug++; /* online capable: Folium has no CPU hotplug */
			continue;
		}
		if (!lapic_x2apic_mode() && c->apic_id > 0xfe) {
			pr_warn("smp: APIC ID %u needs x2APIC mode; that CPU is left out\n",
				c->apic_id);
			left_out++;
			continue;
		}
		if (next >= limit) {
			left_out++;
			continue;
		}
		cpu_apic_id[next] = c->apic_id;
		set_cpu_possible(next, true);
		set_cpu_present(next, true);
		next++;
	}
	pr_info("smpboot: Allowing %u CPUs, %u hotplug CPUs\n", next, hotplug);
	if (left_out)
		pr_info("smp: %u CPU(s) of the MADT left out (NR_CPUS %d, nr_cpus= %u)\n", left_out,
			NR_CPUS, limit);
	if (next > 1 && !trampoline_phys) {
		pr_err("smp: no trampoline below 1 MiB: the other CPUs cannot start\n");
		for (unsigned int c = 1; c < next; c++)
			set_cpu_present(c, false);
	}
}

/* INIT, then two STARTUPs with the trampoline's page (Linux:
 * wakeup_secondary_cpu_via_init). The INIT de-assert only xAPIC knows. */
static void wakeup_secondary_cpu_via_init(uint32_t apic_id)
{
	apic_icr_write(APIC_INT_LEVELTRIG | APIC_INT_ASSERT | APIC_DM_INIT, apic_id);
	mdelay(10);
	if (!lapic_x2apic_mode())
		apic_icr_write(APIC_INT_LEVELTRIG | APIC_DM_INIT, apic_id);
	for (int i = 0; i < 2; i++) {
		apic_icr_write(APIC_DM_STARTUP | (uint32_t)(trampoline_phys >> PAGE_SHIFT),
			       apic_id);
		udelay(200);
	}
}

int arch_cpu_up(unsigned int cpu_nr, struct task_struct *idle, bool test_no_answer)
{
	struct percpu *area = per_cpu_area[cpu_nr];
	uint64_t start;

	if (!trampoline_phys)
		return -ENODEV;
	if (!area) {
		area = kzalloc(sizeof(*area), GFP_KERNEL);
		if (!area)
			return -ENOMEM;
		/* Page-aligned (a kmalloc above 2 KiB is whole pages). */
		area->tables = kzalloc(cpu_tables_size(), GFP_KERNEL);
		if (!area->tables) {
			kfree(area);
			return -ENOMEM;
		}
		per_cpu_area[cpu_nr] = area;
	}
	area->current_task = idle;
	area->cpu_number = cpu_nr;
	area->apic_id = cpu_apic_id[cpu_nr];
	area->kernel_stack = (uint64_t)idle->stack + THREAD_SIZE;
	idle->cpu = cpu_nr;
	trampoline_setup(cpu_nr, idle);
	ap_told_to_stop = test_no_answer;
	smp_mb(); /* all of it visible before the CPU starts */
	wakeup_secondary_cpu_via_init(area->apic_id);
	start = arch_uptime_ns();
	while (!cpu_online(cpu_nr) && arch_uptime_ns() - start < CALLIN_TIMEOUT_MS * 1000000ull)
		cpu_relax();
	if (cpu_online(cpu_nr))
		return 0;
	pr_err("smpboot: CPU %u (APIC ID %u) %s in %u ms\n", cpu_nr, area->apic_id,
	       trampoline_started() ? "started but did not come online"
				    : "did not answer the STARTUP IPIs",
	       CALLIN_TIMEOUT_MS);
	return -EIO;
}

/* The new CPU's first C code, on its idle task's stack with the kernel's
 * page tables (Linux: start_secondary and cpu_init). The boot CPU's
 * control registers and MSRs are copied: the same kernel runs here. */
void __noreturn start_secondary(unsigned int cpu_nr);
void start_secondary(unsigned int cpu_nr)
{
	struct percpu *area = per_cpu_area[cpu_nr];

	if (ap_told_to_stop)
		for (;;)
			__asm__ volatile("cli; hlt");
	write_cr4(boot_cr4);
	if (cpu.pat)
		wrmsr(IA32_PAT, boot_pat);
	gdt_init_secondary(area->tables, area);
	set_kernel_stack(area->kernel_stack);
	idt_load();
	syscall_init();
	fpu__init_cpu();
	lapic_init_secondary();
	secondary_cpu_online(cpu_nr);
}

void arch_send_call_function_single_ipi(unsigned int cpu_nr)
{
	apic_send_IPI(per_cpu_area[cpu_nr]->apic_id, CALL_FUNCTION_SINGLE_VECTOR);
}

/* Linux: x2apic's physical-mode send_IPI_mask: one ICR write per CPU. */
void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	unsigned int c;

	for_each_cpu(c, mask) apic_send_IPI(per_cpu_area[c]->apic_id, CALL_FUNCTION_SINGLE_VECTOR);
}

/* Linux: sysvec_call_function_single. */
void call_function_single_interrupt(void)
{
	apic_eoi_irq();
	generic_smp_call_function_single_interrupt();
}

/* Linux: native_stop_other_cpus's REBOOT_VECTOR IPI, without the NMI
 * fallback: a CPU spinning with interrupts off keeps spinning, which
 * changes nothing the report shows. */
void smp_send_stop(void)
{
	unsigned int self, c;

	if (num_online_cpus() < 2)
		return;
	self = smp_processor_id();
	for_each_online_cpu(c) if (c != self && per_cpu_area[c])
		apic_send_IPI(per_cpu_area[c]->apic_id, REBOOT_VECTOR);
}

/* REBOOT_VECTOR's handler: this CPU stops for good. */
void stop_this_cpu(void)
{
	set_cpu_online(smp_processor_id(), false);
	arch_halt();
}
