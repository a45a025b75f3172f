/*
 * shmem's huge policy (Linux: include/linux/shmem_fs.h, mm/shmem.c): the
 * folio sizes a tmpfs file's page cache gets, by the mount's huge=
 * option as Linux 6.18+ reads it (never: pages only; always: any size a
 * write's length and alignment allow; within_size: the same, but not
 * past the file's size; advise: only for madvised mappings, so pages
 * for write and fallocate). The root's huge= comes from the command
 * line (Linux: transparent_hugepage_tmpfs=).
 */
#ifndef FOLIUM_SHMEM_FS_H
#define FOLIUM_SHMEM_FS_H

#include <stdbool.h>
#include <stdint.h>

/* Linux's values of sbinfo->huge. */
#define SHMEM_HUGE_NEVER 0
#define SHMEM_HUGE_ALWAYS 1
#define SHMEM_HUGE_WITHIN_SIZE 2
#define SHMEM_HUGE_ADVISE 3
/* shmem_enabled's two global-only values (Linux's): no huge folio on any
 * mount, or PMD-sized ones on every mount, whatever its huge= says. */
#define SHMEM_HUGE_DENY (-1)
#define SHMEM_HUGE_FORCE (-2)

/* huge= of a tmpfs mounted without one, the root's (Linux: tmpfs_huge).
 * Folium's default is always, so its page cache shows large folios;
 * Linux's is never (boot with transparent_hugepage_tmpfs=never for it). */
extern int tmpfs_huge;

/* "never", "always", "within_size" or "advise" as SHMEM_HUGE_*. Return:
 * the value, or -EINVAL. */
int shmem_parse_huge(const char *s);
/* The name of a SHMEM_HUGE_* value. */
const char *shmem_format_huge(int huge);
/* The largest folio order a file of a fs with @huge may hold (Linux:
 * shmem_get_inode's mapping_set_large_folios when huge= is not never;
 * advise asks for a madvised mapping, which no write or fallocate has). */
unsigned int shmem_huge_max_order(int huge);
/* How many of the @bytes at @pos a new folio may cover under @huge for a
 * file of @i_size (Linux: shmem_get_orders_within_size for a fallocate,
 * whose end is not yet the size): within_size stops folios at the size,
 * one page at least; any other value leaves @bytes. */
uint64_t shmem_huge_fallocate_bytes(int huge, uint64_t pos, uint64_t bytes, uint64_t i_size);
/*
 * /sys/kernel/mm/transparent_hugepage/shmem_enabled (Linux: shmem_huge):
 * the huge= of the kernel's own instance (shared anonymous memory,
 * memfds), or SHMEM_HUGE_DENY / SHMEM_HUGE_FORCE over every mount.
 * Default: never. And hugepages-<N>kB/shmem_enabled, per folio size, for
 * shared anonymous memory only (Linux 6.11's huge_shmem_orders_*: always,
 * inherit (the global value decides; the PMD size's default), within_size,
 * advise, never).
 */
extern int shmem_huge;
extern unsigned long huge_shmem_orders_always, huge_shmem_orders_inherit, huge_shmem_orders_madvise,
	huge_shmem_orders_within_size;
/* Parse a global (per_size false: always within_size advise never deny
 * force) or per-size (always inherit within_size advise never) value,
 * one trailing newline allowed. Return: 0, or -EINVAL. */
int shmem_enabled_parse(const char *buf, bool per_size, int *value);
/* The global value, or a size's mode (SHMEM_HUGE_* or, per size,
 * SHMEM_ENABLED_INHERIT), as the sysfs files show and take them. */
#define SHMEM_ENABLED_INHERIT 4
int shmem_order_mode(unsigned int order);
void shmem_set_order_mode(unsigned int order, int mode);
void shmem_set_huge(int huge);
/*
 * The folio orders a fault at index may make (Linux 7.3:
 * shmem_allowable_huge_orders): a tmpfs file's from its mount's huge=
 * (PMD-only: always; within_size when the file covers the PMD folio;
 * advise with VM_HUGEPAGE), under the global deny and force; shared
 * anonymous memory's (anon_shmem) from the per-size masks, the inherit
 * ones only while the global value would allow the PMD size. Orders the
 * VMA cannot map (above max_order) are left out. Return: the mask.
 */
unsigned long shmem_allowable_huge_orders(int sb_huge, bool anon_shmem, unsigned long vm_flags,
					  unsigned long index, uint64_t i_size,
					  unsigned int max_order);
/* The sysfs files (fs/sysfs.c makes them): transparent_hugepage/
 * shmem_enabled, and hugepages-<N>kB/shmem_enabled (priv: the order). */
struct kobj_attribute;
extern const struct kobj_attribute shmem_enabled_attr, thpsize_shmem_enabled_attr;
/* What a tmpfs mount's options say (Linux: struct shmem_options). */
struct shmem_options {
	unsigned long blocks;	 /* pages its files may hold; 0: no limit */
	unsigned long inodes;	 /* 0: no limit */
	uint32_t mode, uid, gid; /* the root directory's */
	int huge;
	unsigned int seen; /* SHMEM_SEEN_* */
};
#define SHMEM_SEEN_BLOCKS 0x1u
#define SHMEM_SEEN_INODES 0x2u
#define SHMEM_SEEN_HUGE 0x4u
#define SHMEM_SEEN_MODE 0x8u
#define SHMEM_SEEN_UID 0x10u
#define SHMEM_SEEN_GID 0x20u
/*
 * Linux: shmem_parse_options and shmem_parse_one. Read @data, "opt=value"
 * pairs split by commas (NULL or "": none), into @opts, setting what it
 * names in opts->seen: size= (bytes with a k, m, g, t, p or e suffix,
 * rounded up to pages, or N% of RAM), nr_blocks=, nr_inodes= (with the
 * same suffixes), mode= (octal), uid=, gid=, huge= (never, always,
 * within_size, advise). @totalram: RAM's pages, for N%. Return: 0, or
 * -EINVAL with @err naming the option and why.
 */
int shmem_parse_options(const char *data, unsigned long totalram, struct shmem_options *opts,
			char *err, size_t errlen);
/* Linux: shmem_default_max_blocks and shmem_default_max_inodes (equal
 * on x86-64, no highmem): a tmpfs mounted without size= or nr_inodes=
 * takes half of RAM's pages, and as many inodes. */
unsigned long shmem_default_max_pages(void);
/* Boot: transparent_hugepage_tmpfs= from the command line (a bad value
 * is reported and the default kept). */
void shmem_init(void);

#endif
