/*
 * What the fs/ tests share: a file system over a private arena whose
 * size a test may cap (to see -ENOMEM), so no test touches the kernel's
 * rootfs or its page allocator.
 */
#ifndef FOLIUM_FS_TEST_UTIL_H
#define FOLIUM_FS_TEST_UTIL_H

#include <kernel.h>
#include <ramfs.h>

struct test_arena {
	_Alignas(16) char mem[64 * 1024];
	size_t used, limit; /* limit: bytes the fs may take */
};

/* Zeroed, 16-byte aligned, until the limit. */
static inline void *test_arena_alloc(struct ramfs *fs, size_t size)
{
	struct test_arena *a = fs->alloc_priv;
	void *p;

	size = ALIGN_UP(size, 16);
	if (size > a->limit - a->used)
		return NULL;
	p = a->mem + a->used;
	a->used += size;
	memset(p, 0, size);
	return p;
}

/* A fresh fs over a (its arena emptied, limit bytes usable). */
static inline int test_fs_init(struct ramfs *fs, struct test_arena *a, size_t limit)
{
	a->used = 0;
	a->limit = MIN(limit, sizeof(a->mem));
	return ramfs_init(fs, test_arena_alloc, a);
}

#endif
