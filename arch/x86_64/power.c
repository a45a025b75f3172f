/*
 * Reboot and power-off, the hardware half of kernel/acpi.c. Power-off is
 * ACPI S5: write SLP_TYP from \_S5 and SLP_EN into PM1_CNT. Reboot tries
 * the methods in the order Linux's "reboot=acpi,pci,kbd,triple" would:
 * FADT RESET_REG, the 0xCF9 reset control register, the 8042's reset line,
 * and finally a triple fault, which every x86 turns into a reset.
 *
 * PM1 control register (ACPI 6.5, 4.8.4.2.1), 16 bits:
 *   bit 0 SCI_EN (ACPI mode on)   bits 12-10 SLP_TYP   bit 13 SLP_EN
 */
#include <acpi.h>
#include <arch.h>
#include <asm/io.h>
#include "x86.h"

#define PM1_SCI_EN (1u << 0)
#define PM1_SLP_TYP_SHIFT 10
#define PM1_SLP_TYP_MASK (7u << PM1_SLP_TYP_SHIFT)
#define PM1_SLP_EN (1u << 13)
#define RESET_CONTROL 0xcf9 /* Intel PCH/ICH and most others */
#define RST_SYS_RST 0x02    /* next write of RST_CPU does a full reset */
#define RST_CPU 0x04
#define KBC_STATUS 0x64
#define KBC_INPUT_FULL 0x02
#define KBC_PULSE_RESET 0xfe /* pulse output line 0: CPU reset */
#define PCI_CONFIG_ADDR 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define ACPI_ENABLE_WAIT_MS 3000

static void *acpi_map(uint64_t phys, uint64_t size)
{
	return memremap(phys, size);
}

void acpi_init(const struct boot_info *bi)
{
	struct acpi_info *a = &acpi_boot_info;
	char err[128];

	if (!bi->acpi_rsdp) {
		pr_warn("acpi: the loader found no RSDP; no ACPI power-off\n");
		return;
	}
	if (acpi_parse(bi->acpi_rsdp, acpi_map, a, err, sizeof(err))) {
		pr_warn("%s; no ACPI power-off or reset register\n", err);
		memset(a, 0, sizeof(*a));
		return;
	}
	pr_info("acpi: revision %u, OEM %s, %d tables (%s), FADT %s, "
		"\\_S5 %s SLP_TYPa %u SLP_TYPb %u\n",
		a->revision, a->oem_id, a->ntables, a->xsdt ? "XSDT" : "RSDT",
		a->fadt_found ? "found" : "missing",
		a->s5_found ? "found:" : "missing:", a->slp_typa, a->slp_typb);
	if (a->nerrors)
		pr_warn("acpi: %d problem(s) in the tables, first: %s\n", a->nerrors, a->error);
}

/* A GAS address in system I/O or memory space; others are not used here. */
static bool gas_usable(const struct acpi_gas *gas)
{
	return gas->address &&
	       (gas->space_id == ACPI_SPACE_IO || gas->space_id == ACPI_SPACE_MEMORY);
}

static uint16_t gas_read16(const struct acpi_gas *gas)
{
	if (gas->space_id == ACPI_SPACE_IO)
		return inw(gas->address);
	return *(volatile uint16_t *)ioremap(gas->address, 2);
}

static void gas_write16(const struct acpi_gas *gas, uint16_t v)
{
	if (gas->space_id == ACPI_SPACE_IO)
		outw(gas->address, v);
	else
		*(volatile uint16_t *)ioremap(gas->address, 2) = v;
}

/* Firmware may still own the power button (legacy mode, SCI_EN clear):
 * the FADT's SMI_CMD/ACPI_ENABLE hand it to the OS, as Linux does at
 * boot. The firmware sets SCI_EN when the handover is done. */
static void acpi_enable_mode(const struct acpi_info *a)
{
	if (gas_read16(&a->pm1a_cnt) & PM1_SCI_EN || !a->smi_cmd || !a->acpi_enable)
		return;
	outb(a->smi_cmd, a->acpi_enable);
	for (int ms = 0; ms < ACPI_ENABLE_WAIT_MS; ms += 10) {
		if (gas_read16(&a->pm1a_cnt) & PM1_SCI_EN)
			return;
		mdelay(10);
	}
	pr_warn("poweroff: firmware did not enter ACPI mode (SMI_CMD 0x%x)\n", a->smi_cmd);
}

/* Set SLP_TYP first, then SLP_EN in a second write, as ACPICA does: some
 * chipsets latch the type only while SLP_EN is clear. */
static void pm1_sleep(const struct acpi_gas *cnt, uint8_t slp_typ, bool go)
{
	uint16_t v = gas_read16(cnt) & ~(PM1_SLP_TYP_MASK | PM1_SLP_EN);

	v |= (slp_typ << PM1_SLP_TYP_SHIFT) & PM1_SLP_TYP_MASK;
	gas_write16(cnt, go ? v | PM1_SLP_EN : v);
}

void arch_poweroff(void)
{
	const struct acpi_info *a = &acpi_boot_info;
	bool has_b = gas_usable(&a->pm1b_cnt);
	unsigned long flags;

	if (!a->s5_found || !gas_usable(&a->pm1a_cnt)) {
		pr_info("poweroff: no usable ACPI \\_S5 and PM1a_CNT\n");
		return;
	}
	pr_info("poweroff: ACPI S5, SLP_TYP %u via PM1a_CNT 0x%llx\n", a->slp_typa,
		(unsigned long long)a->pm1a_cnt.address);
	acpi_enable_mode(a);
	flags = arch_irq_save();
	for (int go = 0; go <= 1; go++) {
		pm1_sleep(&a->pm1a_cnt, a->slp_typa, go);
		if (has_b)
			pm1_sleep(&a->pm1b_cnt, a->slp_typb, go);
	}
	mdelay(1000);
	arch_irq_restore(flags);
}

/*
 * GAS address in PCI configuration space (bus 0):
 *   bits 47-32 device   bits 31-16 function   bits 15-0 register offset
 */
static void pci_config_write8(uint64_t address, uint8_t v)
{
	uint32_t dev = address >> 32 & 0x1f, fn = address >> 16 & 0x7;
	uint32_t off = address & 0xff;

	outl(PCI_CONFIG_ADDR, 0x80000000u | dev << 11 | fn << 8 | (off & ~3u));
	outb(PCI_CONFIG_DATA + (off & 3), v);
}

static void reset_acpi(const struct acpi_info *a)
{
	const struct acpi_gas *r = &a->reset_reg;

	if (!a->reset_supported || !r->address)
		return;
	pr_info("reboot: trying the ACPI reset register (%s 0x%llx <- 0x%02x)\n",
		r->space_id == ACPI_SPACE_IO	   ? "io"
		: r->space_id == ACPI_SPACE_MEMORY ? "mem"
						   : "pci",
		(unsigned long long)r->address, a->reset_value);
	if (r->space_id == ACPI_SPACE_IO)
		outb(r->address, a->reset_value);
	else if (r->space_id == ACPI_SPACE_MEMORY)
		*(volatile uint8_t *)ioremap(r->address, 1) = a->reset_value;
	else if (r->space_id == ACPI_SPACE_PCI_CONFIG)
		pci_config_write8(r->address, a->reset_value);
	mdelay(500);
}

static void reset_cf9(void)
{
	uint8_t keep = inb(RESET_CONTROL) & ~(RST_SYS_RST | RST_CPU);

	pr_info("reboot: trying the reset control register (port 0x%x)\n", RESET_CONTROL);
	outb(RESET_CONTROL, keep | RST_SYS_RST);
	mdelay(1);
	outb(RESET_CONTROL, keep | RST_SYS_RST | RST_CPU);
	mdelay(500);
}

static void reset_kbc(void)
{
	pr_info("reboot: trying the keyboard controller reset line\n");
	for (int i = 0; i < 100000; i++)
		if (!(inb(KBC_STATUS) & KBC_INPUT_FULL))
			break;
	outb(KBC_STATUS, KBC_PULSE_RESET);
	mdelay(500);
}

/* With an empty IDT the breakpoint cannot be delivered: #GP, then #DF,
 * then shutdown, which the chipset turns into a reset. */
static void reset_triple_fault(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed idtr = { 0, 0 };

	pr_info("reboot: trying a triple fault\n");
	__asm__ volatile("lidt %0; int3" : : "m"(idtr) : "memory");
}

void arch_reboot(void)
{
	unsigned long flags = arch_irq_save();

	reset_acpi(&acpi_boot_info);
	reset_cf9();
	reset_kbc();
	reset_triple_fault();
	arch_irq_restore(flags);
}
