/*
 * ACPI table walk: RSDP -> XSDT (64-bit entries) or RSDT (32-bit) -> every
 * table's header, then the FADT's power registers and the DSDT's \_S5
 * package. Every table is checksummed (its bytes sum to 0 mod 256) before
 * use, and every read is checked against the length the table claims, so
 * corrupt firmware tables give an error message, never a wild read.
 * Physical memory is reached only through the caller's map function.
 */
#include <acpi.h>

#define SDT_HEADER_SIZE 36
#define RSDP_V1_SIZE 20
#define RSDP_V2_SIZE 36
#define ACPI_TABLE_MAX (16 * MIB) /* sanity bound on a table's length */
#define FADT_RESET_REG_SUP (1u << 10)
#define MADT_ENTRIES 44
#define MADT_LOCAL_APIC 0
#define MADT_LAPIC_ADDR_OVERRIDE 5
#define MADT_LOCAL_X2APIC 9
#define ACPI_MADT_ENABLED (1u << 0)
#define ACPI_MADT_ONLINE_CAPABLE (1u << 1)
#define AML_NAME_OP 0x08
#define AML_PACKAGE_OP 0x12
#define AML_ROOT_CHAR '\\'

struct acpi_info acpi_boot_info;

static uint16_t get16(const uint8_t *p)
{
	return p[0] | p[1] << 8;
}

static uint32_t get32(const uint8_t *p)
{
	return get16(p) | (uint32_t)get16(p + 2) << 16;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static uint8_t checksum(const uint8_t *p, size_t n)
{
	uint8_t sum = 0;

	while (n--)
		sum += *p++;
	return sum;
}

/* Copy an n-byte firmware string, space padded: NUL-terminate it, drop
 * the padding, show unprintables as '?'. */
static void copy_ident(char *dst, const uint8_t *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dst[i] = src[i] >= 0x20 && src[i] < 0x7f ? src[i] : '?';
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

/* Record a problem that does not stop the walk; keep the first message. */
static void __printf(2, 3) note_error(struct acpi_info *out, const char *fmt, ...)
{
	va_list ap;

	if (out->nerrors++ == 0) {
		va_start(ap, fmt);
		kvsnprintf(out->error, sizeof(out->error), fmt, ap);
		va_end(ap);
	}
}

/*
 * RSDP (ACPI 6.5, 5.2.5.3):
 *   0 "RSD PTR "  8 checksum (bytes 0..19)  9 OEM id[6]  15 revision
 *   16 RSDT address (u32)  -- ACPI 2.0+: --  20 length  24 XSDT address
 *   (u64)  32 extended checksum (bytes 0..35)  33 reserved[3]
 */
static const uint8_t *rsdp_check(uint64_t phys, acpi_map_fn map, struct acpi_info *out, char *err,
				 size_t errlen)
{
	const uint8_t *p = map(phys, RSDP_V1_SIZE);

	if (!p) {
		ksnprintf(err, errlen, "acpi: cannot map RSDP at 0x%llx", (unsigned long long)phys);
		return NULL;
	}
	if (memcmp(p, "RSD PTR ", 8) != 0) {
		ksnprintf(err, errlen, "acpi: no RSDP signature at 0x%llx",
			  (unsigned long long)phys);
		return NULL;
	}
	if (checksum(p, RSDP_V1_SIZE) != 0) {
		ksnprintf(err, errlen, "acpi: RSDP checksum mismatch (sum 0x%02x)",
			  checksum(p, RSDP_V1_SIZE));
		return NULL;
	}
	out->revision = p[15];
	copy_ident(out->oem_id, p + 9, 6);
	if (out->revision < 2)
		return p;
	p = map(phys, RSDP_V2_SIZE);
	if (!p || checksum(p, RSDP_V2_SIZE) != 0) {
		ksnprintf(err, errlen, "acpi: RSDP revision %u extended checksum mismatch",
			  out->revision);
		return NULL;
	}
	return p;
}

/*
 * System description table header (5.2.6), 36 bytes:
 *   0 signature[4]  4 length (u32, header included)  8 revision
 *   9 checksum  10 OEM id[6]  16 OEM table id[8]  24 OEM revision
 *   28 creator id  32 creator revision
 * Return: the whole table mapped, or NULL (with *len 0) if it cannot be
 * mapped or its length is impossible.
 */
static const uint8_t *map_table(uint64_t phys, acpi_map_fn map, uint32_t *len)
{
	const uint8_t *p = map(phys, SDT_HEADER_SIZE);

	*len = 0;
	if (!p || get32(p + 4) < SDT_HEADER_SIZE || get32(p + 4) > ACPI_TABLE_MAX)
		return NULL;
	*len = get32(p + 4);
	return map(phys, *len);
}

/* Add a table to out's list. Return: whether its checksum is good. */
static bool record_table(struct acpi_info *out, const uint8_t *p, uint64_t phys, uint32_t len)
{
	bool ok = checksum(p, len) == 0;
	struct acpi_table *t;

	if (!ok)
		note_error(out, "acpi: %.4s at 0x%llx: bad checksum, skipped", (const char *)p,
			   (unsigned long long)phys);
	if (out->ntables == ACPI_MAX_TABLES) {
		note_error(out, "acpi: more than %d tables, %.4s not listed", ACPI_MAX_TABLES,
			   (const char *)p);
		return ok;
	}
	t = &out->tables[out->ntables++];
	copy_ident(t->signature, p, 4);
	copy_ident(t->oem_id, p + 10, 6);
	t->phys = phys;
	t->length = len;
	t->revision = p[8];
	t->checksum_ok = ok;
	return ok;
}

/*
 * FADT (5.2.9), the fields used here (u32 unless noted):
 *   40 DSDT  48 SMI_CMD  52 ACPI_ENABLE (u8)  64 PM1a_CNT_BLK
 *   68 PM1b_CNT_BLK  112 Flags  116 RESET_REG (GAS)  128 RESET_VALUE (u8)
 *   140 X_DSDT (u64)  172 X_PM1a_CNT_BLK (GAS)  184 X_PM1b_CNT_BLK (GAS)
 * GAS, 12 bytes: 0 space id  1 bit width  2 bit offset  3 access size
 *   4 address (u64). Older, shorter FADTs simply lack the later fields.
 */
static void gas_read(struct acpi_gas *gas, const uint8_t *p)
{
	gas->space_id = p[0];
	gas->bit_width = p[1];
	gas->bit_offset = p[2];
	gas->access_size = p[3];
	gas->address = get64(p + 4);
}

static void pm1_cnt_read(struct acpi_gas *gas, const uint8_t *fadt, uint32_t len, uint32_t legacy,
			 uint32_t x_off)
{
	struct acpi_gas x;

	*gas = (struct acpi_gas){ .space_id = ACPI_SPACE_IO,
				  .bit_width = 16,
				  .address = get32(fadt + legacy) };
	if (len < x_off + 12)
		return;
	gas_read(&x, fadt + x_off);
	if (x.address)
		*gas = x;
}

static void fadt_parse(struct acpi_info *out, const uint8_t *p, uint32_t len)
{
	if (len < 72) {
		note_error(out, "acpi: FADT too short (%u bytes)", len);
		return;
	}
	out->fadt_found = true;
	out->dsdt_phys = get32(p + 40);
	if (len >= 148 && get64(p + 140))
		out->dsdt_phys = get64(p + 140);
	out->smi_cmd = get32(p + 48);
	out->acpi_enable = p[52];
	pm1_cnt_read(&out->pm1a_cnt, p, len, 64, 172);
	pm1_cnt_read(&out->pm1b_cnt, p, len, 68, 184);
	if (len >= 129) {
		out->reset_supported = get32(p + 112) & FADT_RESET_REG_SUP;
		gas_read(&out->reset_reg, p + 116);
		out->reset_value = p[128];
	}
}

static void dsdt_parse(struct acpi_info *out, acpi_map_fn map)
{
	uint32_t len;
	const uint8_t *p = map_table(out->dsdt_phys, map, &len);

	if (!p) {
		note_error(out, "acpi: cannot map DSDT at 0x%llx",
			   (unsigned long long)out->dsdt_phys);
		return;
	}
	if (memcmp(p, "DSDT", 4) != 0) {
		note_error(out, "acpi: DSDT at 0x%llx has signature %.4s",
			   (unsigned long long)out->dsdt_phys, (const char *)p);
		return;
	}
	if (!record_table(out, p, out->dsdt_phys, len))
		return;
	out->s5_found = acpi_find_s5(p + SDT_HEADER_SIZE, len - SDT_HEADER_SIZE, &out->slp_typa,
				     &out->slp_typb);
}

/*
 * MADT (5.2.12): 36 local APIC address (u32)  40 flags (bit 0 PCAT_COMPAT)
 * 44.. entries, each 0 type (u8)  1 length (u8):
 *   type 0, Processor Local APIC (8 bytes): 2 ACPI processor UID (u8)
 *     3 APIC ID (u8)  4 flags (u32)
 *   type 5, Local APIC Address Override (12 bytes): 4 address (u64)
 *   type 9, Processor Local x2APIC (16 bytes): 4 x2APIC ID (u32)
 *     8 flags (u32)  12 ACPI processor UID (u32)
 * Flags: bit 0 Enabled; bit 1 Online Capable (ACPI 6.3: a disabled CPU
 * that may be hot-added). Linux: acpi_parse_lapic, acpi_parse_x2apic.
 * A CPU listed twice (a firmware giving both entry types for one APIC
 * ID) is kept once, as Linux's topology_register_apic does.
 */
static void madt_add_cpu(struct acpi_info *out, uint32_t apic_id, uint32_t uid, uint32_t flags,
			 bool x2apic)
{
	struct acpi_cpu *c;

	if (!(flags & (ACPI_MADT_ENABLED | ACPI_MADT_ONLINE_CAPABLE)))
		return; /* not usable, not hot-pluggable: Linux skips it too */
	for (int i = 0; i < out->ncpus; i++)
		if (out->cpus[i].apic_id == apic_id)
			return;
	if (out->ncpus == ACPI_MAX_CPUS) {
		out->cpus_dropped++;
		return;
	}
	c = &out->cpus[out->ncpus++];
	c->apic_id = apic_id;
	c->uid = uid;
	c->enabled = flags & ACPI_MADT_ENABLED;
	c->x2apic = x2apic;
}

static void madt_parse(struct acpi_info *out, const uint8_t *p, uint32_t len)
{
	if (len < MADT_ENTRIES) {
		note_error(out, "acpi: MADT too short (%u bytes)", len);
		return;
	}
	out->madt_found = true;
	out->lapic_phys = get32(p + 36);
	for (uint32_t off = MADT_ENTRIES; off + 2 <= len;) {
		const uint8_t *e = p + off;
		uint8_t type = e[0], elen = e[1];

		if (elen < 2 || off + elen > len) {
			note_error(out, "acpi: MADT entry at offset %u has length %u", off, elen);
			return;
		}
		if (type == MADT_LOCAL_APIC && elen >= 8)
			madt_add_cpu(out, e[3], e[2], get32(e + 4), false);
		else if (type == MADT_LOCAL_X2APIC && elen >= 16)
			madt_add_cpu(out, get32(e + 4), get32(e + 12), get32(e + 8), true);
		else if (type == MADT_LAPIC_ADDR_OVERRIDE && elen >= 12)
			out->lapic_phys = get64(e + 4);
		off += elen;
	}
	if (out->cpus_dropped)
		note_error(out, "acpi: MADT lists more than %d CPUs; %d left out", ACPI_MAX_CPUS,
			   out->cpus_dropped);
}

/* Visit every entry of the XSDT (esize 8) or RSDT (esize 4). */
static void root_walk(struct acpi_info *out, const uint8_t *root, uint32_t len, size_t esize,
		      acpi_map_fn map)
{
	for (size_t off = SDT_HEADER_SIZE; off + esize <= len; off += esize) {
		uint64_t phys = esize == 8 ? get64(root + off) : get32(root + off);
		uint32_t tlen;
		const uint8_t *t = phys ? map_table(phys, map, &tlen) : NULL;

		if (!t) {
			note_error(out,
				   "acpi: table at 0x%llx unreadable "
				   "(unmapped or bad length)",
				   (unsigned long long)phys);
			continue;
		}
		if (!record_table(out, t, phys, tlen))
			continue;
		if (memcmp(t, "FACP", 4) == 0 && !out->fadt_found)
			fadt_parse(out, t, tlen);
		else if (memcmp(t, "APIC", 4) == 0 && !out->madt_found)
			madt_parse(out, t, tlen);
	}
}

int acpi_parse(uint64_t rsdp_phys, acpi_map_fn map, struct acpi_info *out, char *err, size_t errlen)
{
	const uint8_t *rsdp, *root;
	const char *sig;
	uint64_t root_phys;
	uint32_t len;

	memset(out, 0, sizeof(*out));
	rsdp = rsdp_check(rsdp_phys, map, out, err, errlen);
	if (!rsdp)
		return -1;
	out->xsdt = out->revision >= 2 && get64(rsdp + 24);
	root_phys = out->xsdt ? get64(rsdp + 24) : get32(rsdp + 16);
	sig = out->xsdt ? "XSDT" : "RSDT";
	root = map_table(root_phys, map, &len);
	if (!root || memcmp(root, sig, 4) != 0 || checksum(root, len) != 0) {
		ksnprintf(err, errlen, "acpi: %s at 0x%llx: %s", sig, (unsigned long long)root_phys,
			  !root			 ? "cannot map"
			  : memcmp(root, sig, 4) ? "bad signature"
						 : "bad checksum");
		return -1;
	}
	root_walk(out, root, len, out->xsdt ? 8 : 4, map);
	if (out->fadt_found && out->dsdt_phys)
		dsdt_parse(out, map);
	return 0;
}

/*
 * An AML integer at aml[*pos], within [*pos, end): ZeroOp 00, OneOp 01,
 * OnesOp ff, or BytePrefix 0a / WordPrefix 0b / DWordPrefix 0c /
 * QWordPrefix 0e followed by that many little-endian bytes. The low byte
 * is kept: SLP_TYP is a 3-bit field.
 */
static bool aml_integer(const uint8_t *aml, size_t *pos, size_t end, uint8_t *val)
{
	size_t p = *pos, n;

	if (p >= end)
		return false;
	switch (aml[p]) {
	case 0x00:
	case 0x01:
		*val = aml[p];
		*pos = p + 1;
		return true;
	case 0xff:
		*val = 0xff;
		*pos = p + 1;
		return true;
	case 0x0a:
		n = 1;
		break;
	case 0x0b:
		n = 2;
		break;
	case 0x0c:
		n = 4;
		break;
	case 0x0e:
		n = 8;
		break;
	default:
		return false;
	}
	if (end - p - 1 < n)
		return false;
	*val = aml[p + 1];
	*pos = p + 1 + n;
	return true;
}

/*
 * PackageOp 12, PkgLength, NumElements, elements. PkgLength counts itself
 * and everything after it; its lead byte is
 *   bits 7-6: number of following bytes (0-3)
 *   bits 5-0: the length if no bytes follow, else bits 3-0 are its low
 *   nibble and each following byte adds 8 more bits (e.g. 4a 01 = 0x1a).
 */
static bool s5_package(const uint8_t *p, size_t n, uint8_t *a, uint8_t *b)
{
	size_t follow, pkglen, pos = 1, end;
	uint8_t nelems;

	if (n < 2 || p[0] != AML_PACKAGE_OP)
		return false;
	follow = p[1] >> 6;
	pkglen = follow ? p[1] & 0x0f : p[1] & 0x3f;
	if (2 + follow > n)
		return false;
	for (size_t i = 0; i < follow; i++)
		pkglen |= (size_t)p[2 + i] << (4 + 8 * i);
	end = pos + pkglen;
	if (end > n || pkglen < 2 + follow)
		return false;
	pos += 1 + follow;
	nelems = p[pos++];
	if (nelems < 1 || !aml_integer(p, &pos, end, a))
		return false;
	/* A one-element package (some old firmware) gives both types. */
	if (nelems < 2 || !aml_integer(p, &pos, end, b))
		*b = *a;
	return true;
}

bool acpi_find_s5(const uint8_t *aml, size_t len, uint8_t *slp_typa, uint8_t *slp_typb)
{
	for (size_t i = 1; i + 4 <= len; i++) {
		bool named = aml[i - 1] == AML_NAME_OP ||
			     (i >= 2 && aml[i - 1] == AML_ROOT_CHAR && aml[i - 2] == AML_NAME_OP);

		if (named && memcmp(aml + i, "_S5_", 4) == 0 &&
		    s5_package(aml + i + 4, len - i - 4, slp_typa, slp_typb))
			return true;
	}
	return false;
}

static const char *gas_space(const struct acpi_gas *gas)
{
	return gas->space_id == ACPI_SPACE_IO		? "io"
	       : gas->space_id == ACPI_SPACE_MEMORY	? "mem"
	       : gas->space_id == ACPI_SPACE_PCI_CONFIG ? "pci"
							: "other";
}

void acpi_info_print(const struct acpi_info *info)
{
	if (!info->ntables) {
		kprintf("ACPI: no tables\n");
		return;
	}
	kprintf("ACPI revision %u, OEM %s, %d tables from the %s:\n", info->revision, info->oem_id,
		info->ntables, info->xsdt ? "XSDT" : "RSDT");
	for (int i = 0; i < info->ntables; i++) {
		const struct acpi_table *t = &info->tables[i];

		kprintf("  %s  0x%012llx  %7u bytes  rev %u  OEM %-6s%s\n", t->signature,
			(unsigned long long)t->phys, t->length, t->revision, t->oem_id,
			t->checksum_ok ? "" : "  BAD CHECKSUM");
	}
	if (info->fadt_found)
		kprintf("  PM1a_CNT %s 0x%llx, PM1b_CNT %s 0x%llx, reset %s "
			"%s 0x%llx value 0x%02x\n",
			gas_space(&info->pm1a_cnt), (unsigned long long)info->pm1a_cnt.address,
			gas_space(&info->pm1b_cnt), (unsigned long long)info->pm1b_cnt.address,
			info->reset_supported ? "supported" : "unsupported",
			gas_space(&info->reset_reg), (unsigned long long)info->reset_reg.address,
			info->reset_value);
	if (info->s5_found)
		kprintf("  \\_S5: SLP_TYPa %u, SLP_TYPb %u\n", info->slp_typa, info->slp_typb);
	if (info->madt_found) {
		kprintf("  MADT: local APIC at 0x%llx, %d CPU(s):",
			(unsigned long long)info->lapic_phys, info->ncpus);
		for (int i = 0; i < info->ncpus; i++)
			kprintf(" %s%u%s", info->cpus[i].x2apic ? "x2apic " : "apic ",
				info->cpus[i].apic_id,
				info->cpus[i].enabled ? "" : " (hot-pluggable)");
		kprintf("\n");
	}
	if (info->nerrors)
		kprintf("  %d problem(s), first: %s\n", info->nerrors, info->error);
}

void acpi_print_tables(void)
{
	acpi_info_print(&acpi_boot_info);
}
