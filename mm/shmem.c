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
#include <pagemap.h>
#include <shmem_fs.h>

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
