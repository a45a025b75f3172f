/*
 * What the firmware tells the kernel besides memory: where ACPI starts (the
 * RSDP, from the system configuration table; the ACPI 2.0 entry is preferred
 * because it leads to the 64-bit XSDT) and who the firmware is.
 */
#include "loader.h"

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;

static bool same_guid(const EFI_GUID *a, const EFI_GUID *b)
{
	const UINT8 *x = (const UINT8 *)a, *y = (const UINT8 *)b;
	int i;

	for (i = 0; i < 16; i++)
		if (x[i] != y[i])
			return false;
	return true;
}

static void *config_table(EFI_GUID *guid)
{
	UINTN i;

	for (i = 0; i < efi_st->NumberOfTableEntries; i++)
		if (same_guid(&efi_st->ConfigurationTable[i].VendorGuid, guid))
			return efi_st->ConfigurationTable[i].VendorTable;
	return NULL;
}

static void find_rsdp(struct boot_info *bi)
{
	UINT8 *rsdp = config_table(&acpi20_guid);

	if (!rsdp)
		rsdp = config_table(&acpi10_guid);
	if (!rsdp) {
		loader_log("no ACPI RSDP in the UEFI configuration table");
		return;
	}
	bi->acpi_rsdp = (UINT64)(UINTN)rsdp;
	bi->acpi_rsdp_revision = rsdp[15]; /* RSDP "Revision" byte */
	loader_log("ACPI RSDP at 0x%lx, revision %u", bi->acpi_rsdp, bi->acpi_rsdp_revision);
}

/* UCS-2 to ASCII, '?' for anything else; always NUL-terminated. */
static void copy_vendor(char *out, const CHAR16 *s)
{
	int i = 0;

	for (; s && *s && i < BOOT_FW_VENDOR_MAX - 1; s++)
		out[i++] = *s >= 0x20 && *s < 0x7f ? (char)*s : '?';
	out[i] = '\0';
}

void describe_firmware(struct boot_info *bi)
{
	copy_vendor(bi->fw_vendor, efi_st->FirmwareVendor);
	bi->fw_revision = efi_st->FirmwareRevision;
	bi->uefi_revision = efi_st->Hdr.Revision;
	loader_log("firmware \"%s\" revision 0x%x, UEFI revision 0x%x", bi->fw_vendor,
		   bi->fw_revision, bi->uefi_revision);
	find_rsdp(bi);
}
