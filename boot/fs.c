/*
 * Files on the loader's own volume, and the kernel command line. The command
 * line comes from, in order: non-empty printable UEFI load options (minus a
 * leading program name such as "\EFI\BOOT\BOOTX64.EFI"), /folium/cmdline.txt,
 * or nothing. Example: load options "BOOTX64.EFI cma=16M" give "cma=16M".
 */
#include "loader.h"

#define CMDLINE_FILE_MAX (64 * 1024)
#define INITRAMFS_FILE_MAX ((UINT64)256 << 20)

static EFI_GUID loaded_image_guid = LOADED_IMAGE_PROTOCOL;
static EFI_GUID fs_guid = SIMPLE_FILE_SYSTEM_PROTOCOL;
static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

static EFI_LOADED_IMAGE *loaded_image(void)
{
	EFI_LOADED_IMAGE *li = NULL;

	if (efi_bs->HandleProtocol(efi_image, &loaded_image_guid, (void **)&li) != EFI_SUCCESS)
		return NULL;
	return li;
}

EFI_STATUS open_boot_volume(EFI_FILE_HANDLE *root)
{
	EFI_LOADED_IMAGE *li = loaded_image();
	EFI_FILE_IO_INTERFACE *fs;
	EFI_STATUS st;

	if (!li) {
		loader_error("cannot find the loader's own image (LoadedImage)");
		return EFI_LOAD_ERROR;
	}
	st = efi_bs->HandleProtocol(li->DeviceHandle, &fs_guid, (void **)&fs);
	if (st == EFI_SUCCESS)
		st = fs->OpenVolume(fs, root);
	if (st != EFI_SUCCESS)
		loader_error("cannot open the boot volume: %s", efi_strerror(st));
	return st;
}

/* UEFI paths are UCS-2 with backslashes: "/folium/x" -> L"\folium\x". */
static void to_efi_path(const char *path, CHAR16 *out, UINTN max)
{
	UINTN i;

	for (i = 0; path[i] && i < max - 1; i++)
		out[i] = path[i] == '/' ? L'\\' : (CHAR16)path[i];
	out[i] = 0;
}

static EFI_STATUS file_size(EFI_FILE_HANDLE fh, UINT64 *size)
{
	UINT64 buf[128]; /* EFI_FILE_INFO plus a file name, 8-byte aligned */
	EFI_FILE_INFO *info = (EFI_FILE_INFO *)buf;
	UINTN len = sizeof(buf);
	EFI_STATUS st;

	st = fh->GetInfo(fh, &file_info_guid, &len, info);
	if (st != EFI_SUCCESS)
		return st;
	if (info->Attribute & EFI_FILE_DIRECTORY)
		return EFI_NOT_FOUND;
	*size = info->FileSize;
	return EFI_SUCCESS;
}

/* Some firmware returns less than asked for; loop until done. */
static EFI_STATUS read_all(EFI_FILE_HANDLE fh, UINT8 *buf, UINTN size)
{
	UINTN done = 0, chunk;
	EFI_STATUS st;

	while (done < size) {
		chunk = size - done;
		st = fh->Read(fh, &chunk, buf + done);
		if (st != EFI_SUCCESS)
			return st;
		if (chunk == 0)
			return EFI_END_OF_FILE;
		done += chunk;
	}
	return EFI_SUCCESS;
}

EFI_STATUS read_file(EFI_FILE_HANDLE root, const char *path, UINTN max, void **data, UINTN *size)
{
	CHAR16 path16[128];
	EFI_FILE_HANDLE fh;
	UINT64 fsize = 0;
	EFI_STATUS st;

	to_efi_path(path, path16, 128);
	st = root->Open(root, &fh, path16, EFI_FILE_MODE_READ, 0);
	if (st != EFI_SUCCESS)
		return st;
	st = file_size(fh, &fsize);
	*size = (UINTN)fsize;
	if (st == EFI_SUCCESS && fsize > max)
		st = EFI_BAD_BUFFER_SIZE;
	if (st == EFI_SUCCESS)
		st = efi_bs->AllocatePool(EfiLoaderData, fsize ? fsize : 1, data);
	if (st == EFI_SUCCESS) {
		st = read_all(fh, *data, fsize);
		if (st != EFI_SUCCESS)
			efi_bs->FreePool(*data);
	}
	fh->Close(fh);
	return st;
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 'a' - 'A' : c;
}

/*
 * Is [s, s+n) the program name a shell or boot manager put first? It is if
 * it contains a backslash or ends in ".efi", or is the shell's short form
 * "BOOTX64".
 */
static bool is_program_name(const CHAR16 *s, UINTN n)
{
	static const char bootx64[] = "bootx64";
	UINTN i;

	for (i = 0; i < n; i++)
		if (s[i] == '\\')
			return true;
	if (n >= 4 && s[n - 4] == '.' && lower(s[n - 3]) == 'e' && lower(s[n - 2]) == 'f' &&
	    lower(s[n - 1]) == 'i')
		return true;
	if (n != sizeof(bootx64) - 1)
		return false;
	for (i = 0; i < n; i++)
		if (lower(s[i]) != bootx64[i])
			return false;
	return true;
}

/*
 * Extract a command line from the load options into @out. Binary junk (any
 * character outside printable ASCII before the first NUL) means "none".
 * Return: its length, 0 for none, -1 if longer than BOOT_CMDLINE_MAX - 1.
 */
static int cmdline_from_load_options(char *out)
{
	EFI_LOADED_IMAGE *li = loaded_image();
	const CHAR16 *s;
	UINTN n, i, start, len = 0;

	if (!li || !li->LoadOptions || li->LoadOptionsSize < 2)
		return 0;
	s = li->LoadOptions;
	for (n = 0; n < li->LoadOptionsSize / 2 && s[n]; n++)
		if ((s[n] < 0x20 || s[n] > 0x7e) && !is_space(s[n]))
			return 0;
	for (i = 0; i < n && is_space(s[i]); i++)
		;
	for (start = i; i < n && !is_space(s[i]); i++)
		;
	if (!is_program_name(s + start, i - start))
		i = start;
	for (; i < n && is_space(s[i]); i++)
		;
	while (n > i && is_space(s[n - 1]))
		n--;
	if (n - i > BOOT_CMDLINE_MAX - 1)
		return -1;
	for (; i < n; i++)
		out[len++] = is_space(s[i]) ? ' ' : (char)s[i];
	out[len] = '\0';
	return (int)len;
}

/*
 * Turn file bytes into one line in @out: drop a UTF-8 byte-order mark and
 * trailing whitespace, and make inner line breaks and control bytes spaces.
 * Return: the length, or -1 if longer than BOOT_CMDLINE_MAX - 1.
 */
static int cmdline_from_file(const UINT8 *p, UINTN n, char *out)
{
	UINTN i;

	if (n >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		p += 3, n -= 3;
	while (n && (is_space(p[n - 1]) || p[n - 1] == 0))
		n--;
	if (n > BOOT_CMDLINE_MAX - 1)
		return -1;
	for (i = 0; i < n; i++)
		out[i] = p[i] < 0x20 ? ' ' : (char)p[i];
	out[n] = '\0';
	return (int)n;
}

static EFI_STATUS cmdline_file(EFI_FILE_HANDLE root, struct boot_info *bi)
{
	void *data;
	UINTN size;
	EFI_STATUS st;
	int len = -1;

	st = read_file(root, CMDLINE_PATH, CMDLINE_FILE_MAX, &data, &size);
	if (st == EFI_NOT_FOUND) {
		loader_log("no %s, using the default (empty) command line", CMDLINE_PATH);
		return EFI_SUCCESS;
	}
	if (st == EFI_SUCCESS) {
		len = cmdline_from_file(data, size, bi->cmdline);
		efi_bs->FreePool(data);
	}
	if (st != EFI_SUCCESS && st != EFI_BAD_BUFFER_SIZE) {
		loader_error("cannot read %s: %s", CMDLINE_PATH, efi_strerror(st));
		return st;
	}
	if (len < 0) {
		loader_error("%s is longer than %u characters; shorten it", CMDLINE_PATH,
			     BOOT_CMDLINE_MAX - 1);
		return EFI_BAD_BUFFER_SIZE;
	}
	bi->cmdline_source = BOOT_CMDLINE_FILE;
	loader_log("command line from %s: \"%s\"", CMDLINE_PATH, bi->cmdline);
	return EFI_SUCCESS;
}

EFI_STATUS load_cmdline(EFI_FILE_HANDLE root, struct boot_info *bi)
{
	int len = cmdline_from_load_options(bi->cmdline);

	bi->cmdline_source = BOOT_CMDLINE_DEFAULT;
	if (len < 0) {
		loader_error("UEFI load options are longer than %u characters",
			     BOOT_CMDLINE_MAX - 1);
		return EFI_BAD_BUFFER_SIZE;
	}
	if (len > 0) {
		bi->cmdline_source = BOOT_CMDLINE_LOAD_OPTIONS;
		loader_log("command line from UEFI load options (overrides %s): \"%s\"",
			   CMDLINE_PATH, bi->cmdline);
		return EFI_SUCCESS;
	}
	bi->cmdline[0] = '\0';
	return cmdline_file(root, bi);
}

/* read_file's pool memory is EfiLoaderData, which the kernel keeps. */
void load_initramfs(EFI_FILE_HANDLE root, struct boot_info *bi)
{
	void *data;
	UINTN size;
	EFI_STATUS st;

	st = read_file(root, INITRAMFS_PATH, INITRAMFS_FILE_MAX, &data, &size);
	if (st == EFI_NOT_FOUND) {
		loader_log("no %s: no initramfs", INITRAMFS_PATH);
	} else if (st == EFI_BAD_BUFFER_SIZE) {
		loader_log("warning: %s is %lu bytes, more than the %lu MiB limit; "
			   "booting without an initramfs",
			   INITRAMFS_PATH, (UINT64)size, INITRAMFS_FILE_MAX >> 20);
	} else if (st != EFI_SUCCESS) {
		loader_log("warning: cannot read %s: %s; booting without an initramfs",
			   INITRAMFS_PATH, efi_strerror(st));
	} else {
		bi->initrd_phys = (UINT64)(UINTN)data;
		bi->initrd_size = size;
		loader_log("initramfs: %s, %lu bytes at phys 0x%lx", INITRAMFS_PATH, (UINT64)size,
			   bi->initrd_phys);
	}
}
