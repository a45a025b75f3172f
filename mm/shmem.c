/*
 * shmem's huge policy (Linux: mm/shmem.c, tmpfs_huge,
 * shmem_allowable_huge_orders): which folio orders a tmpfs file's writes
 * and fallocates may make, from its mount's huge= value. The file system
 * itself (names, inodes, the size limit) is fs/ramfs.c. Example: with
 * huge=within_size, a 64 KiB write at offset 0 of an empty file may make
 * an order-4 folio (the write's end is the new size); a fallocate past
 * the end makes pages only.
 */
#include <kernel.h>
#include <mman.h>
#include <pagemap.h>
#include <shmem_fs.h>
#include <vm.h>

int tmpfs_huge = SHMEM_HUGE_ALWAYS;

static const char *const huge_names[] = {
	[SHMEM_HUGE_NEVER] = "never",
	[SHMEM_HUGE_ALWAYS] = "always",
	[SHMEM_HUGE_WITHIN_SIZE] = "within_size",
	[SHMEM_HUGE_ADVISE] = "advise",
};

int shmem_parse_huge(const char *s)
{
	for (int i = 0; i < (int)ARRAY_SIZE(huge_names); i++)
		if (!strcmp(s, huge_names[i]))
			return i;
	return -EINVAL;
}

const char *shmem_format_huge(int huge)
{
	return huge >= 0 && huge < (int)ARRAY_SIZE(huge_names) ? huge_names[huge] : "?";
}

unsigned int shmem_huge_max_order(int huge)
{
	return huge == SHMEM_HUGE_ALWAYS || huge == SHMEM_HUGE_WITHIN_SIZE ? MAX_PAGECACHE_ORDER
									   : 0;
}

uint64_t shmem_huge_fallocate_bytes(int huge, uint64_t pos, uint64_t bytes, uint64_t i_size)
{
	if (huge != SHMEM_HUGE_WITHIN_SIZE)
		return bytes;
	if (pos >= i_size)
		return PAGE_SIZE;
	return MIN(bytes, i_size - pos);
}

unsigned int shmem_fault_order(int huge, unsigned long vm_flags, unsigned long index,
			       uint64_t i_size, unsigned int max_order)
{
	unsigned long end = (index | (HPAGE_PMD_NR - 1)) + 1; /* the PMD folio's end */

	if (!CONFIG_TRANSPARENT_HUGEPAGE || max_order < HPAGE_PMD_ORDER ||
	    (vm_flags & VM_NOHUGEPAGE))
		return 0;
	switch (huge) {
	case SHMEM_HUGE_ALWAYS:
		return HPAGE_PMD_ORDER;
	case SHMEM_HUGE_WITHIN_SIZE:
		return (uint64_t)end << PAGE_SHIFT <= ALIGN_UP(i_size, PAGE_SIZE) ? HPAGE_PMD_ORDER
										  : 0;
	case SHMEM_HUGE_ADVISE:
		return vm_flags & VM_HUGEPAGE ? HPAGE_PMD_ORDER : 0;
	default:
		return 0;
	}
}

/* An octal number that fills all of @s. Return: 0, or -1. */
static int parse_octal(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '7' || v > (UINT64_MAX >> 3))
			return -1;
		v = v << 3 | (uint64_t)(*s - '0');
	}
	*out = v;
	return 0;
}

/* A count of pages or inodes: N with memparse's suffixes (kparse_size),
 * or N% of @totalram (Linux: size= and nr_inodes= take a percentage). */
static int parse_count(const char *s, unsigned long totalram, bool bytes, unsigned long *out)
{
	size_t n = strlen(s);
	uint64_t v;
	char num[32];

	if (n && s[n - 1] == '%' && n < sizeof(num)) {
		memcpy(num, s, n - 1);
		num[n - 1] = '\0';
		if (kstrtou64(num, &v) || v > UINT64_MAX / (totalram ? totalram : 1))
			return -1;
		*out = (unsigned long)(v * totalram / 100); /* pages */
		return 0;
	}
	if (kparse_size(s, &v))
		return -1;
	*out = bytes ? (unsigned long)((v >> PAGE_SHIFT) + !!(v & (PAGE_SIZE - 1)))
		     : (unsigned long)v;
	return 0;
}

/* One "key=value" (Linux: shmem_parse_one). Return: 0, or -EINVAL with
 * @err set. */
static int parse_one(char *opt, unsigned long totalram, struct shmem_options *opts, char *err,
		     size_t errlen)
{
	char *value = strchr(opt, '=');
	uint64_t v;

	if (!value) {
		ksnprintf(err, errlen, "tmpfs: Unknown parameter '%s'", opt);
		return -EINVAL;
	}
	*value++ = '\0';
	if (!strcmp(opt, "size") || !strcmp(opt, "nr_blocks")) {
		if (parse_count(value, totalram, !strcmp(opt, "size"), &opts->blocks))
			goto bad;
		opts->seen |= SHMEM_SEEN_BLOCKS;
	} else if (!strcmp(opt, "nr_inodes")) {
		if (parse_count(value, totalram, false, &opts->inodes))
			goto bad;
		opts->seen |= SHMEM_SEEN_INODES;
	} else if (!strcmp(opt, "mode")) {
		if (parse_octal(value, &v) || v > 07777)
			goto bad;
		opts->mode = (uint32_t)v;
		opts->seen |= SHMEM_SEEN_MODE;
	} else if (!strcmp(opt, "uid") || !strcmp(opt, "gid")) {
		if (kstrtou64(value, &v) || v >= UINT32_MAX)
			goto bad;
		*(opt[0] == 'u' ? &opts->uid : &opts->gid) = (uint32_t)v;
		opts->seen |= opt[0] == 'u' ? SHMEM_SEEN_UID : SHMEM_SEEN_GID;
	} else if (!strcmp(opt, "huge")) {
		opts->huge = shmem_parse_huge(value);
		if (opts->huge < 0)
			goto bad;
		opts->seen |= SHMEM_SEEN_HUGE;
	} else {
		ksnprintf(err, errlen, "tmpfs: Unknown parameter '%s'", opt);
		return -EINVAL;
	}
	return 0;
bad:
	ksnprintf(err, errlen, "tmpfs: Bad value for '%s'", opt);
	return -EINVAL;
}

int shmem_parse_options(const char *data, unsigned long totalram, struct shmem_options *opts,
			char *err, size_t errlen)
{
	char buf[256], *opt = buf;
	size_t n = data ? strlen(data) : 0;

	err[0] = '\0';
	if (n >= sizeof(buf)) {
		ksnprintf(err, errlen, "tmpfs: options longer than %lu bytes",
			  (unsigned long)sizeof(buf) - 1);
		return -EINVAL;
	}
	memcpy(buf, data ? data : "", n + 1);
	while (*opt) {
		char *comma = strchr(opt, ',');
		int ret;

		if (comma)
			*comma = '\0';
		if (*opt && (ret = parse_one(opt, totalram, opts, err, errlen)))
			return ret;
		if (!comma)
			break;
		opt = comma + 1;
	}
	return 0;
}

unsigned long shmem_default_max_pages(void)
{
	return totalram_pages() / 2;
}

CMDLINE_KEY(transparent_hugepage_tmpfs,
	    "never|always|within_size|advise: the root tmpfs's huge= (its large folios)");

void shmem_init(void)
{
	const char *arg = boot_cmdline_get(transparent_hugepage_tmpfs);
	int huge;

	if (!arg)
		return;
	huge = shmem_parse_huge(arg);
	if (huge < 0) {
		pr_err("cmdline: transparent_hugepage_tmpfs=%s: not never, always, within_size or "
		       "advise; keeping %s\n",
		       arg, shmem_format_huge(tmpfs_huge));
		return;
	}
	tmpfs_huge = huge;
}
