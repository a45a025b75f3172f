/*
 * What the fs/ tests share: a file system over a private arena whose
 * size a test may cap (to see -ENOMEM), so no test touches the kernel's
 * rootfs; only file bytes come from the page allocator (the page cache),
 * and test_fs_release gives them back after each case.
 */
#ifndef FOLIUM_FS_TEST_UTIL_H
#define FOLIUM_FS_TEST_UTIL_H

#include <kernel.h>
#include <ramfs.h>
#include "../../mm/tests/mm_test_util.h"

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

/* Give back every regular file's page cache under dir (file bytes are
 * the one thing outside the arena). */
static inline void test_fs_release_dir(struct ramfs_inode *dir)
{
	for (struct ramfs_dentry *d = dir->children; d; d = d->next) {
		if (S_ISDIR(d->inode->mode) && d->inode != dir)
			test_fs_release_dir(d->inode);
		else if (S_ISREG(d->inode->mode))
			ramfs_truncate(d->inode);
	}
}

/* Every case's exit: the files' pages go back to the allocator, and the
 * host's node 0 (test_fs_init's) goes. */
static inline void test_fs_release(struct kunit *test, struct ramfs *fs)
{
	if (fs->root)
		test_fs_release_dir(fs->root);
	test_node0_put(test);
}

/* A fresh fs over a (its arena emptied, limit bytes usable), with a
 * node 0 for its files' bytes (test_node0_get). */
static inline int test_fs_init(struct kunit *test, struct ramfs *fs, struct test_arena *a,
			       size_t limit)
{
	if (test_node0_get(test, 2048))
		return -ENOMEM;
	a->used = 0;
	a->limit = MIN(limit, sizeof(a->mem));
	return ramfs_init(fs, test_arena_alloc, NULL, a);
}

#endif
