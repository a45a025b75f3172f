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
#include <seq_file.h>
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

int shmem_huge = SHMEM_HUGE_NEVER;
unsigned long huge_shmem_orders_always, huge_shmem_orders_madvise, huge_shmem_orders_within_size;
/* Linux: the PMD size inherits the global value unless told otherwise. */
unsigned long huge_shmem_orders_inherit = CONFIG_TRANSPARENT_HUGEPAGE ? 1ul << HPAGE_PMD_ORDER : 0;

static const char *const enabled_words[] = {
	"always", "within_size", "advise", "never", "deny", "force", "inherit",
};
static const int enabled_values[] = {
	SHMEM_HUGE_ALWAYS, SHMEM_HUGE_WITHIN_SIZE, SHMEM_HUGE_ADVISE,	  SHMEM_HUGE_NEVER,
	SHMEM_HUGE_DENY,   SHMEM_HUGE_FORCE,	   SHMEM_ENABLED_INHERIT,
};

int shmem_enabled_parse(const char *buf, bool per_size, int *value)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(enabled_words); i++) {
		size_t n = strlen(enabled_words[i]);
		bool global_only = enabled_values[i] < 0,
		     size_only = i == ARRAY_SIZE(enabled_words) - 1;

		if ((per_size ? global_only : size_only) || strncmp(buf, enabled_words[i], n) ||
		    (buf[n] && (buf[n] != '\n' || buf[n + 1])))
			continue;
		*value = enabled_values[i];
		return 0;
	}
	return -EINVAL;
}

int shmem_order_mode(unsigned int order)
{
	unsigned long bit = 1ul << order;

	if (huge_shmem_orders_always & bit)
		return SHMEM_HUGE_ALWAYS;
	if (huge_shmem_orders_inherit & bit)
		return SHMEM_ENABLED_INHERIT;
	if (huge_shmem_orders_within_size & bit)
		return SHMEM_HUGE_WITHIN_SIZE;
	if (huge_shmem_orders_madvise & bit)
		return SHMEM_HUGE_ADVISE;
	return SHMEM_HUGE_NEVER;
}

/* Linux: thpsize_shmem_enabled_store, one mask gains the bit. */
void shmem_set_order_mode(unsigned int order, int mode)
{
	unsigned long bit = 1ul << order;

	huge_shmem_orders_always &= ~bit;
	huge_shmem_orders_inherit &= ~bit;
	huge_shmem_orders_within_size &= ~bit;
	huge_shmem_orders_madvise &= ~bit;
	if (mode == SHMEM_HUGE_ALWAYS)
		huge_shmem_orders_always |= bit;
	else if (mode == SHMEM_ENABLED_INHERIT)
		huge_shmem_orders_inherit |= bit;
	else if (mode == SHMEM_HUGE_WITHIN_SIZE)
		huge_shmem_orders_within_size |= bit;
	else if (mode == SHMEM_HUGE_ADVISE)
		huge_shmem_orders_madvise |= bit;
}

/* Linux: shmem_enabled_store; the kernel's own instance takes the value
 * but force (fs/ramfs.c reads shmem_huge for it). */
void shmem_set_huge(int huge)
{
	shmem_huge = huge;
}

/* The orders of @mask whose folio at index lies inside the file (Linux:
 * shmem_get_orders_within_size). */
static unsigned long orders_within_size(unsigned long mask, unsigned long index, uint64_t i_size)
{
	unsigned long within = 0;

	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		unsigned long end = (index | ((1ul << order) - 1)) + 1;

		if ((mask & (1ul << order)) &&
		    (uint64_t)end << PAGE_SHIFT <= ALIGN_UP(i_size, PAGE_SIZE))
			within |= 1ul << order;
	}
	return within;
}

/* Linux: shmem_huge_global_enabled, the PMD order or nothing. */
static unsigned long global_orders(int sb_huge, unsigned long vm_flags, unsigned long index,
				   uint64_t i_size)
{
	unsigned long pmd = 1ul << HPAGE_PMD_ORDER;

	if (shmem_huge == SHMEM_HUGE_DENY)
		return 0;
	if (shmem_huge == SHMEM_HUGE_FORCE)
		return pmd;
	switch (sb_huge) {
	case SHMEM_HUGE_ALWAYS:
		return pmd;
	case SHMEM_HUGE_WITHIN_SIZE:
		return orders_within_size(pmd, index, i_size);
	case SHMEM_HUGE_ADVISE:
		return vm_flags & VM_HUGEPAGE ? pmd : 0;
	default:
		return 0;
	}
}

unsigned long shmem_allowable_huge_orders(int sb_huge, bool anon_shmem, unsigned long vm_flags,
					  unsigned long index, uint64_t i_size,
					  unsigned int max_order)
{
	unsigned long fits = (2ul << max_order) - 1, mask;

	if (!CONFIG_TRANSPARENT_HUGEPAGE || (vm_flags & VM_NOHUGEPAGE))
		return 0;
	if (!anon_shmem)
		return global_orders(sb_huge, vm_flags, index, i_size) & fits;
	if (shmem_huge == SHMEM_HUGE_DENY)
		return 0;
	if (shmem_huge == SHMEM_HUGE_FORCE)
		return huge_shmem_orders_inherit & fits;
	mask = huge_shmem_orders_always |
	       orders_within_size(huge_shmem_orders_within_size, index, i_size);
	if (vm_flags & VM_HUGEPAGE)
		mask |= huge_shmem_orders_madvise;
	if (global_orders(sb_huge, vm_flags, index, i_size))
		mask |= huge_shmem_orders_inherit;
	return mask & THP_ORDERS_ALL & fits;
}

/* "always within_size advise [never] deny force": every choice of the
 * file (the global one's or a size's, in Linux's order), the current one
 * bracketed (Linux: shmem_enabled_show, thpsize_shmem_enabled_show). */
static void show_enabled(struct seq_file *m, const int *values, unsigned int n, int current)
{
	for (unsigned int i = 0; i < n; i++) {
		const char *word = NULL;

		for (unsigned int j = 0; j < ARRAY_SIZE(enabled_values); j++)
			if (enabled_values[j] == values[i])
				word = enabled_words[j];
		seq_printf(m, values[i] == current ? "%s[%s]" : "%s%s", i ? " " : "", word);
	}
	seq_putc(m, '\n');
}

static int shmem_enabled_show(struct seq_file *m, void *priv)
{
	static const int values[] = { SHMEM_HUGE_ALWAYS, SHMEM_HUGE_WITHIN_SIZE, SHMEM_HUGE_ADVISE,
				      SHMEM_HUGE_NEVER,	 SHMEM_HUGE_DENY,	 SHMEM_HUGE_FORCE };

	(void)priv;
	show_enabled(m, values, ARRAY_SIZE(values), shmem_huge);
	return 0;
}

static long shmem_enabled_store(const char *buf, size_t count, void *priv)
{
	int huge;

	(void)priv;
	if (shmem_enabled_parse(buf, false, &huge))
		return -EINVAL;
	/* Linux: "Do not override huge allocation policy with non-PMD sized
	 * mTHP": force only while the PMD size alone inherits. */
	if (huge == SHMEM_HUGE_FORCE && huge_shmem_orders_inherit != 1ul << HPAGE_PMD_ORDER)
		return -EINVAL;
	shmem_set_huge(huge);
	return (long)count;
}

static int thpsize_shmem_enabled_show(struct seq_file *m, void *priv)
{
	static const int values[] = { SHMEM_HUGE_ALWAYS, SHMEM_ENABLED_INHERIT,
				      SHMEM_HUGE_WITHIN_SIZE, SHMEM_HUGE_ADVISE, SHMEM_HUGE_NEVER };

	show_enabled(m, values, ARRAY_SIZE(values),
		     shmem_order_mode((unsigned int)(uintptr_t)priv));
	return 0;
}

static long thpsize_shmem_enabled_store(const char *buf, size_t count, void *priv)
{
	int mode;

	if (shmem_enabled_parse(buf, true, &mode))
		return -EINVAL;
	/* Linux: under force no size but the PMD's may inherit. */
	if (mode == SHMEM_ENABLED_INHERIT && shmem_huge == SHMEM_HUGE_FORCE &&
	    (uintptr_t)priv != HPAGE_PMD_ORDER)
		return -EINVAL;
	shmem_set_order_mode((unsigned int)(uintptr_t)priv, mode);
	return (long)count;
}

const struct kobj_attribute shmem_enabled_attr = { shmem_enabled_show, shmem_enabled_store };
const struct kobj_attribute thpsize_shmem_enabled_attr = { thpsize_shmem_enabled_show,
							   thpsize_shmem_enabled_store };

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
