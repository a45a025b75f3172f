/*
 * ACPI table discovery: from the RSDP the loader found, through the XSDT
 * (or RSDT) to the tables the kernel uses for power control: the FADT
 * (PM1 control ports, reset register), the DSDT's \_S5 sleep type and
 * the MADT's processors (the CPUs SMP bring-up starts). The
 * parser reads physical memory only through a caller's map function, so the
 * host tests run it on synthetic tables in a buffer.
 */
#ifndef FOLIUM_ACPI_H
#define FOLIUM_ACPI_H

#include <boot_info.h>
#include <kernel.h>

#define ACPI_MAX_TABLES 32
#define ACPI_MAX_CPUS 256

/* Generic Address Structure space ids (ACPI 6.5, table 5.25). */
#define ACPI_SPACE_MEMORY 0
#define ACPI_SPACE_IO 1
#define ACPI_SPACE_PCI_CONFIG 2

struct acpi_gas {
	uint8_t space_id; /* ACPI_SPACE_* */
	uint8_t bit_width, bit_offset, access_size;
	uint64_t address; /* 0: not present */
};

struct acpi_table {
	char signature[5];
	char oem_id[7];
	uint64_t phys;
	uint32_t length;
	uint8_t revision;
	bool checksum_ok; /* tables with a bad checksum are not used */
};

/* A processor the MADT lists (Linux: acpi_parse_lapic/_x2apic's view). */
struct acpi_cpu {
	uint32_t apic_id; /* the local APIC (or x2APIC) ID: whom an IPI goes to */
	uint32_t uid;	  /* the ACPI processor UID */
	bool enabled;	  /* usable now; else only online capable (hot-add) */
	bool x2apic;	  /* listed by a Local x2APIC entry */
};

struct acpi_info {
	uint8_t revision; /* RSDP revision: 0 = ACPI 1.0, 2+ = XSDT */
	char oem_id[7];
	bool xsdt; /* tables came from the XSDT (else RSDT) */
	int ntables;
	struct acpi_table tables[ACPI_MAX_TABLES];
	int nerrors;	 /* problems that did not stop the walk */
	char error[128]; /* the first of them, "" if none */

	bool fadt_found;
	struct acpi_gas pm1a_cnt, pm1b_cnt; /* address 0 if absent */
	uint32_t smi_cmd;		    /* port to write acpi_enable to, 0 if none */
	uint8_t acpi_enable;
	bool reset_supported; /* FADT flags RESET_REG_SUP */
	struct acpi_gas reset_reg;
	uint8_t reset_value;
	uint64_t dsdt_phys;

	bool madt_found;
	uint64_t lapic_phys; /* the MADT's local APIC address (or its override) */
	int ncpus;	     /* CPUs the MADT lists as enabled or online capable */
	int cpus_dropped;    /* listed past ACPI_MAX_CPUS */
	struct acpi_cpu cpus[ACPI_MAX_CPUS];

	bool s5_found;
	uint8_t slp_typa, slp_typb; /* \_S5 package elements 0 and 1 */
};

/* Returns a pointer through which [phys, phys + size) can be read, or NULL
 * if that range cannot be mapped. */
typedef void *(*acpi_map_fn)(uint64_t phys, uint64_t size);

/* Walk the tables from the RSDP at rsdp_phys into out. Tables with bad
 * checksums are recorded, counted in out->nerrors and otherwise skipped.
 * Return: 0, or -1 with err naming the problem if the RSDP or the
 * RSDT/XSDT itself is unusable (out then holds what was found so far). */
int acpi_parse(uint64_t rsdp_phys, acpi_map_fn map, struct acpi_info *out, char *err,
	       size_t errlen);
/* Find \_S5 in AML: NameOp '_S5_' PackageOp PkgLength NumElements
 * SLP_TYPa SLP_TYPb. Return: true and the two values if found. */
bool acpi_find_s5(const uint8_t *aml, size_t len, uint8_t *slp_typa, uint8_t *slp_typb);
/* Print info's tables, one per line, with kprintf. */
void acpi_info_print(const struct acpi_info *info);

/* The machine's tables, filled by acpi_init(). */
extern struct acpi_info acpi_boot_info;
/* Print acpi_boot_info's tables (for hwreport). */
void acpi_print_tables(void);

/* kernel/acpi_boot.c (kernel only): parse the tables the loader found and
 * log a summary; on failure logs a warning and leaves acpi_boot_info empty.
 * Context: after paging_init() (tables are reached through memremap()). */
void acpi_init(const struct boot_info *bi);

#endif
