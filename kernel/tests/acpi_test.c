/*
 * ACPI table walk on synthetic firmware: an RSDP, RSDT and XSDT, a FADT, an
 * "APIC" table (the MADT: empty, or the CPUs a case lists) and a DSDT with a \_S5 package, laid out
 * in a 4 KiB buffer that stands for physical memory at FAKE_BASE. Checksums are computed like
 * firmware does; the cases then corrupt one thing each.
 */
#include <acpi.h>
#include <ktest.h>

#define FAKE_BASE 0x100000ull
#define MEM_SIZE 0x1000
enum {
	RSDP = 0x000,
	RSDT = 0x040,
	XSDT = 0x080,
	FADT = 0x100,
	APIC = 0x240,
	DSDT = 0x300
};
#define FADT_V6_LEN 276
#define FADT_V1_LEN 116

static uint8_t mem[MEM_SIZE];
static struct acpi_info info;
static char err[128];

static void *fake_map(uint64_t phys, uint64_t size)
{
	if (phys < FAKE_BASE || phys - FAKE_BASE > MEM_SIZE || size > MEM_SIZE - (phys - FAKE_BASE))
		return NULL;
	return mem + (phys - FAKE_BASE);
}

static void put32(size_t off, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		mem[off + i] = v >> (8 * i);
}

static void put64(size_t off, uint64_t v)
{
	put32(off, (uint32_t)v);
	put32(off + 4, v >> 32);
}

/* Make bytes [off, off + len) sum to zero by adjusting mem[sum_at]. */
static void seal(size_t off, size_t len, size_t sum_at)
{
	uint8_t sum = 0;

	mem[sum_at] = 0;
	for (size_t i = 0; i < len; i++)
		sum += mem[off + i];
	mem[sum_at] = -sum;
}

static void seal_table(size_t off)
{
	seal(off, mem[off + 4] | mem[off + 5] << 8, off + 9);
}

static void sdt_header(size_t off, const char *sig, uint32_t len)
{
	memcpy(mem + off, sig, 4);
	put32(off + 4, len);
	mem[off + 8] = 2;
	memcpy(mem + off + 10, "FOLIUM", 6);
	memcpy(mem + off + 16, "SYNTHTBL", 8);
}

static void build_rsdp(uint8_t revision)
{
	memcpy(mem + RSDP, "RSD PTR ", 8);
	memcpy(mem + RSDP + 9, "FOLIUM", 6);
	mem[RSDP + 15] = revision;
	put32(RSDP + 16, FAKE_BASE + RSDT);
	put32(RSDP + 20, 36);
	put64(RSDP + 24, FAKE_BASE + XSDT);
	seal(RSDP, 20, RSDP + 8);
	seal(RSDP, 36, RSDP + 32);
}

static void build_roots(void)
{
	sdt_header(RSDT, "RSDT", 36 + 2 * 4);
	put32(RSDT + 36, FAKE_BASE + FADT);
	put32(RSDT + 40, FAKE_BASE + APIC);
	seal_table(RSDT);
	sdt_header(XSDT, "XSDT", 36 + 2 * 8);
	put64(XSDT + 36, FAKE_BASE + FADT);
	put64(XSDT + 44, FAKE_BASE + APIC);
	seal_table(XSDT);
}

/* A FADT like QEMU q35's: PM1a_CNT at port 0x604, reset via 0xcf9. */
static void build_fadt(uint32_t len, size_t dsdt)
{
	sdt_header(FADT, "FACP", len);
	put32(FADT + 40, FAKE_BASE + dsdt);
	put32(FADT + 48, 0xb2);	     /* SMI_CMD */
	mem[FADT + 52] = 0xf1;	     /* ACPI_ENABLE */
	put32(FADT + 64, 0x604);     /* PM1a_CNT_BLK */
	put32(FADT + 112, 1u << 10); /* RESET_REG_SUP */
	if (len >= 129) {
		mem[FADT + 116] = ACPI_SPACE_IO;
		mem[FADT + 117] = 8;
		put64(FADT + 120, 0xcf9);
		mem[FADT + 128] = 0x06;
		put64(FADT + 140, FAKE_BASE + dsdt); /* X_DSDT */
	}
	seal_table(FADT);
}

static void build_dsdt(size_t off, const uint8_t *aml, size_t n)
{
	sdt_header(off, "DSDT", 36 + n);
	memcpy(mem + off + 36, aml, n);
	seal_table(off);
}

/* ACPI 2.0+ tables with the given AML in the DSDT. */
static void build(uint8_t revision, const uint8_t *aml, size_t n)
{
	memset(mem, 0, sizeof(mem));
	build_rsdp(revision);
	build_roots();
	build_fadt(revision >= 2 ? FADT_V6_LEN : FADT_V1_LEN, DSDT);
	sdt_header(APIC, "APIC", 44);
	seal_table(APIC);
	build_dsdt(DSDT, aml, n);
}

static int parse(void)
{
	return acpi_parse(FAKE_BASE + RSDP, fake_map, &info, err, sizeof(err));
}

static bool contains(const char *s, const char *word)
{
	for (size_t n = strlen(word); *s; s++)
		if (strncmp(s, word, n) == 0)
			return true;
	return false;
}

/* Name (_S5, Package (4) { Zero, Zero, Zero, Zero }), as QEMU writes it,
 * after a Scope opcode and a "_S5_" that is a reference, not a name. */
static const uint8_t aml_zero_ops[] = {
	0x10, 0x05, '_', 'S', 'B', '_',	 0x70, '_',  'S',  '5',	 '_',  0x60,
	0x08, '_',  'S', '5', '_', 0x12, 0x06, 0x04, 0x00, 0x00, 0x00, 0x00,
};

static void acpi_xsdt_fadt_and_s5_are_found(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.revision, 2);
	KUNIT_EXPECT_TRUE(test, info.xsdt);
	KUNIT_EXPECT_STREQ(test, info.oem_id, "FOLIUM");
	KUNIT_EXPECT_STREQ(test, info.tables[0].oem_id, "FOLIUM");
	KUNIT_ASSERT_EQ(test, info.ntables, 3);
	KUNIT_EXPECT_STREQ(test, info.tables[0].signature, "FACP");
	KUNIT_EXPECT_STREQ(test, info.tables[1].signature, "APIC");
	KUNIT_EXPECT_STREQ(test, info.tables[2].signature, "DSDT");
	KUNIT_EXPECT_EQ(test, info.tables[0].phys, FAKE_BASE + FADT);
	KUNIT_EXPECT_EQ(test, info.tables[0].length, FADT_V6_LEN);
	KUNIT_EXPECT_STREQ(test, info.tables[1].oem_id, "FOLIUM");
	KUNIT_EXPECT_EQ(test, info.nerrors, 0);
	KUNIT_EXPECT_TRUE(test, info.fadt_found);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.space_id, ACPI_SPACE_IO);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.address, 0x604);
	KUNIT_EXPECT_EQ(test, info.pm1b_cnt.address, 0);
	KUNIT_EXPECT_EQ(test, info.smi_cmd, 0xb2);
	KUNIT_EXPECT_EQ(test, info.acpi_enable, 0xf1);
	KUNIT_EXPECT_TRUE(test, info.reset_supported);
	KUNIT_EXPECT_EQ(test, info.reset_reg.space_id, ACPI_SPACE_IO);
	KUNIT_EXPECT_EQ(test, info.reset_reg.address, 0xcf9);
	KUNIT_EXPECT_EQ(test, info.reset_value, 0x06);
	KUNIT_EXPECT_EQ(test, info.dsdt_phys, FAKE_BASE + DSDT);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
	KUNIT_EXPECT_EQ(test, info.slp_typa, 0);
	KUNIT_EXPECT_EQ(test, info.slp_typb, 0);
}

static void acpi_s5_byte_prefix_and_root_prefix(struct kunit *test)
{
	static const uint8_t aml[] = { 0x08, '\\', '_',	 'S',  '5',  '_',  0x12, 0x08,
				       0x04, 0x0a, 0x05, 0x0a, 0x07, 0x00, 0x00 };

	build(2, aml, sizeof(aml));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
	KUNIT_EXPECT_EQ(test, info.slp_typa, 5);
	KUNIT_EXPECT_EQ(test, info.slp_typb, 7);
}

static void acpi_s5_one_op_and_word_prefix(struct kunit *test)
{
	static const uint8_t aml[] = { 0x08, '_',  'S',	 '5',  '_',  0x12,
				       0x06, 0x02, 0x01, 0x0b, 0x03, 0x00 };

	build(2, aml, sizeof(aml));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
	KUNIT_EXPECT_EQ(test, info.slp_typa, 1);
	KUNIT_EXPECT_EQ(test, info.slp_typb, 3);
}

/* PkgLength 0x4b 0x04 = 0x4b & 0xf | 0x04 << 4 = 75: itself (2),
 * NumElements (1), 0a 03 0a 04 (4) and 68 ZeroOps. */
static void acpi_s5_two_byte_pkglength(struct kunit *test)
{
	static uint8_t aml[6 + 75];
	static const uint8_t head[] = { 0x08, '_', 'S',	 '5',  '_',  0x12, 0x4b,
					0x04, 70,  0x0a, 0x03, 0x0a, 0x04 };

	memset(aml, 0, sizeof(aml));
	memcpy(aml, head, sizeof(head));
	build(2, aml, sizeof(aml));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
	KUNIT_EXPECT_EQ(test, info.slp_typa, 3);
	KUNIT_EXPECT_EQ(test, info.slp_typb, 4);
	/* One byte short: the package no longer fits in the table. */
	build(2, aml, sizeof(aml) - 1);
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_FALSE(test, info.s5_found);
}

static void acpi_bad_rsdp_checksum_is_an_error(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[RSDP + 9] ^= 1;
	KUNIT_EXPECT_EQ(test, parse(), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "RSDP checksum mismatch"));
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[RSDP + 33] = 1; /* only the extended checksum breaks */
	KUNIT_EXPECT_EQ(test, parse(), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "extended checksum"));
	mem[RSDP] = 'X';
	KUNIT_EXPECT_EQ(test, parse(), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "no RSDP signature"));
	KUNIT_EXPECT_EQ(test, acpi_parse(0x42, fake_map, &info, err, sizeof(err)), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "cannot map RSDP at 0x42"));
}

static void acpi_bad_xsdt_checksum_is_an_error(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[XSDT + 40] ^= 0x10;
	KUNIT_EXPECT_EQ(test, parse(), -1);
	KUNIT_EXPECT_TRUE(test, contains(err, "XSDT at 0x100080: bad checksum"));
}

static void acpi_bad_table_checksum_skips_that_table(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[APIC + 40] = 0x55;
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.nerrors, 1);
	KUNIT_EXPECT_TRUE(test, contains(info.error, "APIC at 0x100240: bad checksum"));
	KUNIT_EXPECT_FALSE(test, info.tables[1].checksum_ok);
	KUNIT_EXPECT_TRUE(test, info.fadt_found);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
	/* A FADT with a bad checksum is not used at all. */
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[FADT + 64] = 0x08;
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_TRUE(test, contains(info.error, "FACP"));
	KUNIT_EXPECT_FALSE(test, info.fadt_found);
	KUNIT_EXPECT_FALSE(test, info.s5_found);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.address, 0);
}

static void acpi_unmappable_table_is_recorded_as_error(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	put64(XSDT + 44, 0x7000000);
	seal_table(XSDT);
	put32(FADT + 4, 20); /* a length shorter than the header */
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.ntables, 0);
	KUNIT_EXPECT_EQ(test, info.nerrors, 2);
	KUNIT_EXPECT_TRUE(test, contains(info.error, "table at 0x100100 unreadable"));
}

/* The DSDT ends exactly at the end of the buffer, with "_S5_" as its last
 * bytes: any read past it is an ASan report on the host. */
static void acpi_s5_at_end_of_truncated_dsdt_not_found(struct kunit *test)
{
	static const uint8_t aml[] = { 0x08, '_', 'S', '5', '_' };
	size_t at = MEM_SIZE - 36 - sizeof(aml);

	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	build_dsdt(at, aml, sizeof(aml));
	build_fadt(FADT_V6_LEN, at);
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.dsdt_phys, FAKE_BASE + at);
	KUNIT_EXPECT_EQ(test, info.nerrors, 0);
	KUNIT_EXPECT_FALSE(test, info.s5_found);
}

static void acpi_find_s5_rejects_truncated_packages(struct kunit *test)
{
	static const uint8_t no_pkglen[] = { 0x08, '_', 'S', '5', '_', 0x12 };
	static const uint8_t short_pkglen[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x4b };
	static const uint8_t long_pkg[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x0a, 0x04, 0x0a };
	static const uint8_t cut_byte[] = { 0x08, '_', 'S', '5', '_', 0x12, 0x03, 0x02, 0x0a };
	uint8_t a = 9, b = 9;

	KUNIT_EXPECT_FALSE(test, acpi_find_s5(no_pkglen, sizeof(no_pkglen), &a, &b));
	KUNIT_EXPECT_FALSE(test, acpi_find_s5(short_pkglen, sizeof(short_pkglen), &a, &b));
	KUNIT_EXPECT_FALSE(test, acpi_find_s5(long_pkg, sizeof(long_pkg), &a, &b));
	KUNIT_EXPECT_FALSE(test, acpi_find_s5(cut_byte, sizeof(cut_byte), &a, &b));
	KUNIT_EXPECT_EQ(test, a, 9);
}

static void acpi_revision_0_uses_rsdt(struct kunit *test)
{
	build(0, aml_zero_ops, sizeof(aml_zero_ops));
	mem[XSDT] = 'X' + 1; /* must not be looked at */
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.revision, 0);
	KUNIT_EXPECT_FALSE(test, info.xsdt);
	KUNIT_EXPECT_EQ(test, info.ntables, 3);
	KUNIT_EXPECT_EQ(test, info.tables[0].length, FADT_V1_LEN);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.address, 0x604);
	/* An ACPI 1.0 FADT has no reset register. */
	KUNIT_EXPECT_FALSE(test, info.reset_supported);
	KUNIT_EXPECT_EQ(test, info.reset_reg.address, 0);
	KUNIT_EXPECT_TRUE(test, info.s5_found);
}

static void acpi_x_pm1_block_overrides_legacy_port(struct kunit *test)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	mem[FADT + 172] = ACPI_SPACE_IO;
	mem[FADT + 173] = 16;
	put64(FADT + 176, 0x1004);
	seal_table(FADT);
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.address, 0x1004);
	KUNIT_EXPECT_EQ(test, info.pm1a_cnt.bit_width, 16);
}

/* A MADT at APIC: the header, then @n entries of @entries' bytes. */
static void build_madt(const uint8_t *entries, size_t n)
{
	build(2, aml_zero_ops, sizeof(aml_zero_ops));
	sdt_header(APIC, "APIC", 44 + n);
	put32(APIC + 36, 0xfee00000); /* the local APIC's address */
	put32(APIC + 40, 1);	      /* PCAT_COMPAT */
	memcpy(mem + APIC + 44, entries, n);
	seal_table(APIC);
}

static void acpi_madt_lists_enabled_and_hotpluggable_cpus(struct kunit *test)
{
	static const uint8_t entries[] = {
		0, 8,  0, 0, 1,	   0, 0,    0, /* LAPIC uid 0, id 0, enabled */
		0, 8,  1, 2, 1,	   0, 0,    0, /* LAPIC uid 1, id 2, enabled */
		0, 8,  2, 4, 0,	   0, 0,    0, /* LAPIC id 4: neither flag, skipped */
		0, 8,  3, 6, 2,	   0, 0,    0, /* LAPIC id 6: online capable only */
		1, 12, 0, 0, 0,	   0, 0xc0, 0xfe, 0, 0, 0, 0, /* an I/O APIC: not a CPU */
		9, 16, 0, 0, 0x2c, 1, 0,    0,	  1, 0, 0, 0, 7, 0, 0, 0, /* x2APIC id 300 uid 7 */
		0, 8,  9, 2, 1,	   0, 0,    0, /* id 2 again: kept once */
	};

	build_madt(entries, sizeof(entries));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_TRUE(test, info.madt_found);
	KUNIT_EXPECT_EQ(test, info.lapic_phys, 0xfee00000);
	KUNIT_ASSERT_EQ(test, info.ncpus, 4);
	KUNIT_EXPECT_EQ(test, info.cpus[0].apic_id, 0);
	KUNIT_EXPECT_EQ(test, info.cpus[1].apic_id, 2);
	KUNIT_EXPECT_EQ(test, info.cpus[1].uid, 1);
	KUNIT_EXPECT_TRUE(test, info.cpus[1].enabled);
	KUNIT_EXPECT_EQ(test, info.cpus[2].apic_id, 6);
	KUNIT_EXPECT_FALSE(test, info.cpus[2].enabled);
	KUNIT_EXPECT_EQ(test, info.cpus[3].apic_id, 300);
	KUNIT_EXPECT_EQ(test, info.cpus[3].uid, 7);
	KUNIT_EXPECT_TRUE(test, info.cpus[3].x2apic);
	KUNIT_EXPECT_EQ(test, info.nerrors, 0);
}

static void acpi_madt_address_override_and_bad_entry(struct kunit *test)
{
	static const uint8_t entries[] = {
		5, 12, 0, 0, 0, 0, 0xd0, 0xfe, 1, 0, 0, 0, /* override: 0x1fed00000 */
		0, 8,  0, 0, 1, 0, 0,	 0,		   /* LAPIC id 0 */
		0, 40, 1, 1, 1, 0, 0,	 0,		   /* runs past the table's end */
	};

	build_madt(entries, sizeof(entries));
	KUNIT_ASSERT_EQ(test, parse(), 0);
	KUNIT_EXPECT_EQ(test, info.lapic_phys, 0x1fed00000ull);
	KUNIT_EXPECT_EQ(test, info.ncpus, 1);
	KUNIT_EXPECT_EQ(test, info.nerrors, 1);
	KUNIT_EXPECT_TRUE(test, contains(info.error, "MADT"));
}

static struct kunit_case acpi_cases[] = {
	KUNIT_CASE(acpi_madt_lists_enabled_and_hotpluggable_cpus),
	KUNIT_CASE(acpi_madt_address_override_and_bad_entry),
	KUNIT_CASE(acpi_xsdt_fadt_and_s5_are_found),
	KUNIT_CASE(acpi_s5_byte_prefix_and_root_prefix),
	KUNIT_CASE(acpi_s5_one_op_and_word_prefix),
	KUNIT_CASE(acpi_s5_two_byte_pkglength),
	KUNIT_CASE(acpi_bad_rsdp_checksum_is_an_error),
	KUNIT_CASE(acpi_bad_xsdt_checksum_is_an_error),
	KUNIT_CASE(acpi_bad_table_checksum_skips_that_table),
	KUNIT_CASE(acpi_unmappable_table_is_recorded_as_error),
	KUNIT_CASE(acpi_s5_at_end_of_truncated_dsdt_not_found),
	KUNIT_CASE(acpi_find_s5_rejects_truncated_packages),
	KUNIT_CASE(acpi_revision_0_uses_rsdt),
	KUNIT_CASE(acpi_x_pm1_block_overrides_legacy_port),
	{},
};

static struct kunit_suite acpi_suite = {
	.name = "acpi",
	.test_cases = acpi_cases,
};
kunit_test_suite(acpi_suite);
