/*
 * ramfs on private arenas: creating and finding files by path with "."
 * and "..", symlinks followed relative to their directory and bounded by
 * MAXSYMLINKS (ELOOP), each -errno the calls promise, hard links and
 * unlinking, out-of-memory that keeps what was made before, the sorted
 * directory listing and ls's mode strings; lookups from a given directory,
 * computed links (get_link, as /proc/self/exe) and inode numbers;
 * rename (moves, replacements, exchanges, refusals) and fallocate.
 */
#include <ktest.h>
#include <shmem_fs.h>
#include <slab.h>
#include "fs_test_util.h"

static struct test_arena arena; /* 64 KiB: not on a kernel stack */
static struct ramfs fs;

static int ramfs_test_init(struct kunit *test)
{
	return test_fs_init(test, &fs, &arena, sizeof(arena.mem));
}

static void ramfs_test_exit(struct kunit *test)
{
	(void)test;
	test_fs_release(test, &fs);
}

/* Expect path to resolve (following links) to want. */
static void expect_resolves(struct kunit *test, const char *path, struct ramfs_inode *want)
{
	struct ramfs_inode *got = NULL;

	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, path, true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == want);
}

static int lookup_err(const char *path, bool follow)
{
	struct ramfs_inode *got;

	return ramfs_lookup(&fs, path, follow, &got);
}

static void ramfs_finds_a_file_by_every_spelling_of_its_path(struct kunit *test)
{
	struct ramfs_inode *etc, *motd;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/etc", 0755, &etc), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/etc/motd", 0644, "hello", 5, &motd), 0);
	expect_resolves(test, "/etc/motd", motd);
	expect_resolves(test, "etc/motd", motd);
	expect_resolves(test, "./etc/./motd", motd);
	expect_resolves(test, "//etc//motd", motd);
	expect_resolves(test, "/etc/../etc/motd", motd);
	expect_resolves(test, "/../../etc/motd", motd); /* the root's ".." is the root */
	expect_resolves(test, "/etc/", etc);
	expect_resolves(test, "/", fs.root);
	KUNIT_EXPECT_EQ(test, motd->mode, S_IFREG | 0644);
	KUNIT_EXPECT_EQ(test, etc->mode, S_IFDIR | 0755);
	KUNIT_EXPECT_TRUE(test, etc->parent == fs.root);
	KUNIT_EXPECT_EQ(test, fs.root->nlink, 3); /* ".", "..", etc's ".." */
}

static void ramfs_read_copies_from_an_offset_and_stops_at_the_end(struct kunit *test)
{
	struct ramfs_inode *f, *d;
	char buf[8] = { 0 };

	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "hello", 5, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/d", 0755, &d), 0);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 2, buf, sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(test, buf, "llo");
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, 2), 2);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 5, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 99, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, ramfs_read(d, 0, buf, sizeof(buf)), -EISDIR);
}

static void ramfs_lookup_errors_are_linux_errnos(struct kunit *test)
{
	static char long_path[PATH_MAX + 1];
	char long_name[NAME_MAX + 3];

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/etc", 0755, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/etc/motd", 0644, "x", 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, lookup_err("/nope", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup_err("/etc/nope/x", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup_err("", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup_err("/etc/motd/x", true), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, lookup_err("/etc/motd/", true), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, lookup_err("/etc/motd/..", true), -ENOTDIR);
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[0] = '/';
	long_name[sizeof(long_name) - 1] = '\0'; /* "/" and 256 letters */
	KUNIT_EXPECT_EQ(test, lookup_err(long_name, true), -ENAMETOOLONG);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, long_name, 0755, NULL), -ENAMETOOLONG);
	for (size_t i = 0; i < PATH_MAX; i++)
		long_path[i] = i % 2 ? '.' : '/'; /* "/./././..." of 4096 bytes */
	long_path[PATH_MAX] = '\0';
	KUNIT_EXPECT_EQ(test, lookup_err(long_path, true), -ENAMETOOLONG);
	long_path[PATH_MAX - 1] = '\0'; /* 4095 bytes fit */
	KUNIT_EXPECT_EQ(test, lookup_err(long_path, true), 0);
}

static void ramfs_follows_relative_and_absolute_symlinks(struct kunit *test)
{
	struct ramfs_inode *sh, *bin, *link;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/usr", 0755, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/usr/bin", 0755, &bin), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/usr/bin/sh", 0755, "#!", 2, &sh), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/bin", "usr/bin", 7, &link), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/usr/bin/up", "../../bin/sh", 12, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/abs", "/usr/bin/sh", 11, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/dangling", "nowhere", 7, NULL), 0);
	expect_resolves(test, "/bin/sh", sh);
	expect_resolves(test, "/bin", bin);
	expect_resolves(test, "/bin/", bin);
	expect_resolves(test, "/usr/bin/up", sh);
	expect_resolves(test, "/abs", sh);
	expect_resolves(test, "/bin/../bin/sh", sh); /* ".." of /usr/bin is /usr */
	KUNIT_EXPECT_EQ(test, lookup_err("/bin/../sh", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/bin", false, &bin), 0);
	KUNIT_EXPECT_TRUE(test, bin == link);
	KUNIT_EXPECT_EQ(test, link->mode, S_IFLNK | 0777);
	KUNIT_EXPECT_EQ(test, lookup_err("/dangling", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, lookup_err("/dangling", false), 0);
	KUNIT_EXPECT_EQ(test, ramfs_symlink(&fs, "/empty", "", 0, NULL), -ENOENT);
}

static void ramfs_symlink_loops_end_in_eloop_after_maxsymlinks(struct kunit *test)
{
	char name[16], target[16];

	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/a", "b", 1, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/b", "/a", 2, NULL), 0);
	KUNIT_EXPECT_EQ(test, lookup_err("/a", true), -ELOOP);
	KUNIT_EXPECT_EQ(test, lookup_err("/a/x", false), -ELOOP);
	KUNIT_EXPECT_EQ(test, lookup_err("/a", false), 0);
	/* A chain l0 -> l1 -> ... -> l40 -> f: 40 links are allowed, 41 not. */
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "", 0, NULL), 0);
	for (int i = 0; i <= MAXSYMLINKS; i++) {
		ksnprintf(name, sizeof(name), "/l%d", i);
		ksnprintf(target, sizeof(target), i == MAXSYMLINKS ? "f" : "l%d", i + 1);
		KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, name, target, strlen(target), NULL), 0);
	}
	KUNIT_EXPECT_EQ(test, lookup_err("/l1", true), 0);
	KUNIT_EXPECT_EQ(test, lookup_err("/l0", true), -ELOOP);
}

static void ramfs_create_refuses_what_linux_refuses(struct kunit *test)
{
	struct ramfs_inode *f, *again;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/d", 0755, NULL), 0);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, "/d", 0755, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, "/", 0755, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, "/d/.", 0755, NULL), -EEXIST);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, "/no/d", 0755, NULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_create(&fs, "/d", 0644, "x", 1, NULL), -EISDIR);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/d/f", 0600, "old", 3, &f), 0);
	KUNIT_EXPECT_EQ(test, ramfs_mkdir(&fs, "/d/f/g", 0755, NULL), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, ramfs_symlink(&fs, "/d/f", "x", 1, NULL), -EEXIST);
	/* An existing file gets the new bytes (O_TRUNC), keeping its mode. */
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/d/f", 0644, "new!", 4, &again), 0);
	KUNIT_EXPECT_TRUE(test, again == f);
	KUNIT_EXPECT_EQ(test, f->size, 4);
	KUNIT_EXPECT_EQ(test, f->mode, S_IFREG | 0600);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/d/l", "f", 1, NULL), 0);
	KUNIT_EXPECT_EQ(test, ramfs_create(&fs, "/d/l", 0644, "x", 1, NULL), -EEXIST);
}

static void ramfs_unlink_and_hard_links_keep_counts(struct kunit *test)
{
	struct ramfs_inode *f, *d, *got;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/d", 0755, &d), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/d/f", 0644, "x", 1, &f), 0);
	KUNIT_EXPECT_EQ(test, ramfs_link(&fs, f, "/g"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_link(&fs, f, "/g"), -EEXIST);
	KUNIT_EXPECT_EQ(test, ramfs_link(&fs, d, "/d2"), -EPERM);
	expect_resolves(test, "/g", f);
	KUNIT_EXPECT_EQ(test, f->nlink, 2);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&fs, "/d"), -ENOTEMPTY);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&fs, "/"), -EBUSY);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&fs, "/nope"), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&fs, "/d/f"), 0);
	KUNIT_EXPECT_EQ(test, f->nlink, 1);
	KUNIT_EXPECT_EQ(test, lookup_err("/d/f", true), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/g", true, &got), 0);
	KUNIT_EXPECT_EQ(test, fs.root->nlink, 3);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&fs, "/d/"), 0);
	KUNIT_EXPECT_EQ(test, fs.root->nlink, 2);
	KUNIT_EXPECT_EQ(test, lookup_err("/d", true), -ENOENT);
}

/* A fs that gives memory back (rootfs's kzalloc and kfree): removing
 * names and inodes gives back every object they took; an unlinked file
 * that is still held keeps its bytes until the last iput, and a removed
 * directory still held keeps its parent. */
static void ramfs_unlink_and_iput_give_every_object_back(struct kunit *test)
{
	struct ramfs kfs;
	struct ramfs_inode *f, *sub;
	struct kmalloc_stats before, after;
	char buf[8];

	kmalloc_stats(0, &before);
	KUNIT_ASSERT_EQ(test, ramfs_init(&kfs, ramfs_kzalloc, ramfs_kfree, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&kfs, "/d", 0755, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&kfs, "/d/sub", 0755, &sub), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&kfs, "/d/f", 0644, "bytes", 5, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&kfs, "/d/l", "f", 1, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_link(&kfs, f, "/g"), 0);
	ihold(f);   /* an open file */
	ihold(sub); /* a cwd */
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&kfs, "/d/f"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&kfs, "/g"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&kfs, "/d/l"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&kfs, "/d/sub"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_unlink(&kfs, "/d"), 0);
	/* no name left, but held: the bytes are still there */
	KUNIT_EXPECT_EQ(test, f->nlink, 0);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, sizeof(buf)), 5);
	KUNIT_EXPECT_EQ(test, sub->parent->i_count, 1); /* /d, kept by sub */
	iput(f);
	iput(sub); /* sub goes, then /d with it */
	kmalloc_stats(0, &after);
	/* only the root is left */
	KUNIT_EXPECT_EQ(test, after.objects, before.objects + 1);
	ramfs_kfree(&kfs, kfs.root);
}

/* Rename moves a name, replaces what Linux lets it replace, refuses
 * the rest with Linux's errors and changes nothing then; a directory's
 * ".." and both parents' link counts follow it. */
static void ramfs_rename_moves_replaces_and_refuses_as_linux(struct kunit *test)
{
	struct ramfs_inode *a, *b, *f, *g, *e, *got;
	char buf[8] = { 0 };

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/a", 0755, &a), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/b", 0755, &b), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/a/f", 0644, "eff", 3, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/b/g", 0644, "gee", 3, &g), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/b/e", 0755, &e), 0);
	/* refused: nothing changes */
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "nope", b, "x", 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "g", RENAME_NOREPLACE), -EEXIST);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "x", RENAME_EXCHANGE), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "e", 0), -EISDIR);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, b, "e", b, "g", 0), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, fs.root, "b", e, "in", 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, fs.root, "a", fs.root, "b", 0), -ENOTEMPTY);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "..", 0), -EBUSY);
	expect_resolves(test, "/a/f", f);
	expect_resolves(test, "/b/g", g);
	/* a move to a new name; then onto a file, which goes */
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "h", 0), 0);
	KUNIT_EXPECT_EQ(test, lookup_err("/a/f", true), -ENOENT);
	expect_resolves(test, "/b/h", f);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, b, "h", b, "g", 0), 0);
	expect_resolves(test, "/b/g", f);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, sizeof(buf)), 3);
	KUNIT_EXPECT_STREQ(test, buf, "eff");
	KUNIT_EXPECT_EQ(test, g->nlink, 0);
	/* two names of one inode: nothing happens */
	KUNIT_ASSERT_EQ(test, ramfs_link(&fs, f, "/b/h"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, b, "h", b, "g", 0), 0);
	expect_resolves(test, "/b/h", f);
	KUNIT_EXPECT_EQ(test, f->nlink, 2);
	/* a directory changes parent: "..", and the counts of both */
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, b, "e", a, "e2", 0), 0);
	KUNIT_EXPECT_TRUE(test, e->parent == a);
	KUNIT_EXPECT_EQ(test, a->nlink, 3);
	KUNIT_EXPECT_EQ(test, b->nlink, 2);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/a/e2/..", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == a);
	/* onto an empty directory, which goes */
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/b/empty", 0755, NULL), 0);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "e2", b, "empty", 0), 0);
	expect_resolves(test, "/b/empty", e);
	KUNIT_EXPECT_EQ(test, a->nlink, 2);
	KUNIT_EXPECT_EQ(test, b->nlink, 3);
	KUNIT_EXPECT_EQ(test, lookup_err("/a/e2", true), -ENOENT);
	/* tmpfs's directory sizes follow: /a empty, /b with g, h, empty */
	KUNIT_EXPECT_EQ(test, a->size, 2 * BOGO_DIRENT_SIZE);
	KUNIT_EXPECT_EQ(test, b->size, 5 * BOGO_DIRENT_SIZE);
}

/* A file with no name left takes one only while I_LINKABLE (an
 * O_TMPFILE file), and then only once from nothing. */
static void ramfs_link_names_a_nameless_inode_only_if_linkable(struct kunit *test)
{
	struct ramfs_inode *tmp, *f;

	KUNIT_ASSERT_EQ(test, ramfs_add(&fs, fs.root, NULL, S_IFREG | 0600, &tmp), 0);
	tmp->nlink = 0; /* as vfs_tmpfile leaves it */
	ihold(tmp);
	KUNIT_EXPECT_EQ(test, ramfs_link_at(&fs, tmp, fs.root, "t", 1), -ENOENT);
	tmp->i_state |= I_LINKABLE;
	KUNIT_EXPECT_EQ(test, ramfs_link_at(&fs, tmp, fs.root, "t", 1), 0);
	KUNIT_EXPECT_EQ(test, tmp->nlink, 1);
	KUNIT_EXPECT_EQ(test, tmp->i_state & I_LINKABLE, 0);
	expect_resolves(test, "/t", tmp);
	iput(tmp);
	/* an unlinked file still open: no new name */
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "x", 1, &f), 0);
	ihold(f);
	KUNIT_ASSERT_EQ(test, ramfs_unlink(&fs, "/f"), 0);
	KUNIT_EXPECT_EQ(test, ramfs_link_at(&fs, f, fs.root, "g", 1), -ENOENT);
	iput(f);
}

/* RENAME_EXCHANGE swaps a file and a directory across two parents. */
static void ramfs_rename_exchange_swaps_two_names(struct kunit *test)
{
	struct ramfs_inode *a, *b, *f, *d;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/a", 0755, &a), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/b", 0755, &b), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/a/f", 0644, "x", 1, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/b/d", 0755, &d), 0);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, a, "f", b, "d", RENAME_EXCHANGE), 0);
	expect_resolves(test, "/a/f", d);
	expect_resolves(test, "/b/d", f);
	KUNIT_EXPECT_TRUE(test, d->parent == a);
	KUNIT_EXPECT_EQ(test, a->nlink, 3);
	KUNIT_EXPECT_EQ(test, b->nlink, 2);
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, fs.root, "a", a, "f", RENAME_EXCHANGE), -EINVAL);
}

/* A rename's one allocation (the new name) fails before anything moves. */
static void ramfs_rename_out_of_memory_changes_nothing(struct kunit *test)
{
	struct ramfs_inode *f, *g;

	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "x", 1, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/g", 0644, "y", 1, &g), 0);
	arena.limit = arena.used;
	KUNIT_EXPECT_EQ(test, ramfs_rename(&fs, fs.root, "f", fs.root, "g", 0), -ENOMEM);
	expect_resolves(test, "/f", f);
	expect_resolves(test, "/g", g);
	KUNIT_EXPECT_EQ(test, g->nlink, 1);
}

/* fallocate gives a file zeroed folios (large where the range allows),
 * the size following unless KEEP_SIZE; a punched hole reads as zeros
 * and gives its whole folios back; used_pages follows every step. */
static void ramfs_fallocate_allocates_and_punches(struct kunit *test)
{
	struct ramfs_inode *f;
	unsigned long counts[NR_PAGE_ORDERS];
	char buf[4] = { 1, 1, 1, 1 };
	unsigned long used0 = fs.used_pages, shmem0 = NODE_DATA(0)->nr_shmem;

	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "abcd", 4, &f), 0);
	KUNIT_EXPECT_EQ(test, fs.used_pages, used0 + 1);
	/* tmpfs's folios: swap-backed, counted as Shmem (NR_SHMEM) */
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_shmem, shmem0 + 1);
	KUNIT_ASSERT_EQ(test, ramfs_fallocate(f, 0, 0, 64 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, f->size, 64 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, f->i_mapping->nrpages, 64);
	KUNIT_EXPECT_EQ(test, fs.used_pages, used0 + 64);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_shmem, shmem0 + 64);
	mapping_folio_orders(f->i_mapping, counts);
	KUNIT_EXPECT_GT(test, counts[5], 0); /* 32 pages from index 32 */
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, 4), 4);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "abcd", 4), 0); /* the data stays */
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 40 * PAGE_SIZE, buf, 4), 4);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "\0\0\0\0", 4), 0);
	KUNIT_ASSERT_EQ(test, ramfs_fallocate(f, FALLOC_FL_KEEP_SIZE, 64 * PAGE_SIZE, PAGE_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, f->size, 64 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, f->i_mapping->nrpages, 65);
	KUNIT_ASSERT_EQ(
		test,
		ramfs_fallocate(f, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 2, 64 * PAGE_SIZE),
		0);
	KUNIT_EXPECT_EQ(test, f->size, 64 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, f->i_mapping->nrpages, 2); /* the pages it cuts */
	KUNIT_EXPECT_EQ(test, fs.used_pages, used0 + 2);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, 4), 4);
	KUNIT_EXPECT_EQ(test, memcmp(buf, "ab\0\0", 4), 0);
	ramfs_truncate(f);
	KUNIT_EXPECT_EQ(test, fs.used_pages, used0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_shmem, shmem0);
	/* a PMD-sized folio counts in ShmemHugePages too */
	shmem0 = NODE_DATA(0)->nr_shmem_thps;
	KUNIT_ASSERT_EQ(test, ramfs_fallocate(f, 0, 0, HPAGE_PMD_NR * PAGE_SIZE), 0);
	mapping_folio_orders(f->i_mapping, counts);
	KUNIT_EXPECT_EQ(test, counts[HPAGE_PMD_ORDER], 1);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_shmem_thps, shmem0 + HPAGE_PMD_NR);
	ramfs_truncate(f);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_shmem_thps, shmem0);
}

/* A size limit (tmpfs's size=): a write is cut where a new page would
 * pass it (pages already there are free), a file that would not fit is
 * -ENOSPC and left empty, fallocate past it allocates nothing; what a
 * truncate frees is there again. */
static void ramfs_size_limit_cuts_writes_and_refuses_what_does_not_fit(struct kunit *test)
{
	static char data[10 * PAGE_SIZE];
	struct ramfs_inode *f, *g;

	fs.max_pages = 8;
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, data, 6 * PAGE_SIZE, &f), 0);
	KUNIT_EXPECT_EQ(test, fs.used_pages, 6);
	/* pages 0-5 are there: only 2 more, so a write from page 4 stops at page 8 */
	KUNIT_EXPECT_EQ(test, ramfs_write_room(f, 4 * PAGE_SIZE + 10, 6 * PAGE_SIZE),
			4 * PAGE_SIZE - 10);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(f, 0, 6 * PAGE_SIZE), 6 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(f, 100 * PAGE_SIZE, 3 * PAGE_SIZE), 2 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ramfs_fallocate(f, 0, 6 * PAGE_SIZE, 3 * PAGE_SIZE), -ENOSPC);
	KUNIT_EXPECT_EQ(test, f->i_mapping->nrpages, 6);
	KUNIT_EXPECT_EQ(test, f->size, 6 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ramfs_create(&fs, "/g", 0644, data, 3 * PAGE_SIZE, &g), -ENOSPC);
	KUNIT_EXPECT_EQ(test, g->size, 0);
	KUNIT_EXPECT_EQ(test, fs.used_pages, 6);
	KUNIT_EXPECT_EQ(test, ramfs_fallocate(f, 0, 6 * PAGE_SIZE, 2 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(g, 0, 1), 0); /* full */
	ramfs_setsize(f, 4 * PAGE_SIZE); /* its order-1 folio and the fallocated pages go */
	KUNIT_EXPECT_EQ(test, fs.used_pages, 4);
	KUNIT_EXPECT_EQ(test, ramfs_set_data(g, data, 4 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, fs.used_pages, 8);
}

/* How many folios @counts (mapping_folio_orders's) holds. */
static unsigned long folio_count(const unsigned long counts[NR_PAGE_ORDERS])
{
	unsigned long n = 0;

	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		n += counts[o];
	return n;
}

/* huge= decides a new file's folio sizes: never and advise make pages
 * only, always any size a write allows, within_size the same but no
 * fallocated folio past the size. Names parse both ways. */
static void ramfs_huge_option_decides_folio_sizes(struct kunit *test)
{
	static char data[64 * PAGE_SIZE];
	unsigned long counts[NR_PAGE_ORDERS];
	static const char *const names[] = { "never", "always", "within_size", "advise" };
	struct ramfs_inode *f;

	for (int i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, shmem_parse_huge(names[i]), i);
		KUNIT_EXPECT_STREQ(test, shmem_format_huge(i), names[i]);
	}
	KUNIT_EXPECT_EQ(test, shmem_parse_huge("sometimes"), -EINVAL);
	KUNIT_EXPECT_EQ(test, fs.huge, tmpfs_huge); /* a mount without huge= */
	for (int huge = SHMEM_HUGE_NEVER; huge <= SHMEM_HUGE_ADVISE; huge += SHMEM_HUGE_ADVISE) {
		fs.huge = huge;
		KUNIT_ASSERT_EQ(test,
				ramfs_create(&fs, huge ? "/advise" : "/never", 0644, data,
					     sizeof(data), &f),
				0);
		mapping_folio_orders(f->i_mapping, counts);
		KUNIT_EXPECT_EQ(test, counts[0], 64);
	}
	/* always: the write's 64 pages in large folios (one of order 6
	 * when the allocator has one; smaller large ones when it has not) */
	fs.huge = SHMEM_HUGE_ALWAYS;
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/always", 0644, data, sizeof(data), &f), 0);
	mapping_folio_orders(f->i_mapping, counts);
	KUNIT_EXPECT_EQ(test, counts[0], 0);
	KUNIT_EXPECT_LT(test, folio_count(counts), 64);
	fs.huge = SHMEM_HUGE_WITHIN_SIZE;
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/within", 0644, data, sizeof(data), &f), 0);
	KUNIT_ASSERT_EQ(test,
			ramfs_fallocate(f, FALLOC_FL_KEEP_SIZE, 64 * PAGE_SIZE, 64 * PAGE_SIZE), 0);
	mapping_folio_orders(f->i_mapping, counts);
	KUNIT_EXPECT_EQ(test, counts[0], 64);		 /* past the size: pages only */
	KUNIT_EXPECT_LT(test, folio_count(counts), 128); /* the write's: large, within its size */
}

/* A second fs mounted on /mnt (as fs/namespace.c mounts a tmpfs): walks
 * enter its root and leave it by "..", the last step of an unlink or
 * rename sees the covered directory; it is busy while something outside
 * holds one of its inodes, and killing it gives back every object and
 * page it took. */
static void ramfs_walks_cross_a_mount_and_kill_frees_it(struct kunit *test)
{
	struct ramfs *fs2 = kzalloc(sizeof(*fs2), GFP_KERNEL);
	struct ramfs_inode *mnt, *sub, *f, *got;
	struct kmalloc_stats before, after;
	unsigned long file_pages = NODE_DATA(0)->nr_file_pages;

	KUNIT_ASSERT_TRUE(test, fs2 != NULL);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/mnt", 0755, &mnt), 0);
	kmalloc_stats(0, &before);
	KUNIT_ASSERT_EQ(test, ramfs_init(fs2, ramfs_kzalloc, ramfs_kfree, NULL), 0);
	fs2->mountpoint = mnt;
	mnt->i_mounted = fs2;
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(fs2, "/sub", 0755, &sub), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(fs2, "/sub/f", 0644, "data", 4, &f), 0);
	expect_resolves(test, "/mnt", fs2->root);
	expect_resolves(test, "/mnt/sub/f", f);
	expect_resolves(test, "/mnt/sub/../..", fs.root);
	expect_resolves(test, "/mnt/../mnt/sub", sub);
	KUNIT_EXPECT_TRUE(test, follow_mount(mnt) == fs2->root);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_child(fs.root, "mnt", 3, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == mnt);	   /* what unlink and rename see */
	KUNIT_EXPECT_FALSE(test, ramfs_busy(fs2)); /* sub's ".." is its own */
	ihold(f);				   /* an open file */
	KUNIT_EXPECT_TRUE(test, ramfs_busy(fs2));
	iput(f);
	ihold(fs2->root); /* a cwd at its root */
	KUNIT_EXPECT_TRUE(test, ramfs_busy(fs2));
	iput(fs2->root);
	KUNIT_EXPECT_FALSE(test, ramfs_busy(fs2));
	ramfs_kill(fs2);
	mnt->i_mounted = NULL;
	KUNIT_EXPECT_EQ(test, fs2->nr_inodes, 0);
	KUNIT_EXPECT_EQ(test, fs2->used_pages, 0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, file_pages);
	kmalloc_stats(0, &after);
	KUNIT_EXPECT_EQ(test, after.objects, before.objects);
	expect_resolves(test, "/mnt", mnt);
	kfree(fs2);
}

/* tmpfs's mount options as Linux reads them (shmem_parse_one): sizes
 * with suffixes rounded up to pages or a percentage of RAM, octal modes,
 * huge= names; anything else -EINVAL naming the option. */
static void tmpfs_options_parse_as_linux(struct kunit *test)
{
	struct shmem_options o = { 0 };
	char err[80];

	KUNIT_EXPECT_EQ(
		test,
		shmem_parse_options("size=1m,nr_inodes=2k,mode=1777,uid=5,gid=6,huge=within_size",
				    1000, &o, err, sizeof(err)),
		0);
	KUNIT_EXPECT_EQ(test, o.blocks, 256);
	KUNIT_EXPECT_EQ(test, o.inodes, 2048);
	KUNIT_EXPECT_EQ(test, o.mode, 01777);
	KUNIT_EXPECT_EQ(test, o.uid, 5);
	KUNIT_EXPECT_EQ(test, o.gid, 6);
	KUNIT_EXPECT_EQ(test, o.huge, SHMEM_HUGE_WITHIN_SIZE);
	KUNIT_EXPECT_EQ(test, o.seen, 0x3fu);
	o = (struct shmem_options){ 0 };
	KUNIT_EXPECT_EQ(test, shmem_parse_options("size=4097", 1000, &o, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, o.blocks, 2); /* rounded up to pages */
	KUNIT_EXPECT_EQ(test, shmem_parse_options("size=50%,,", 1000, &o, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, o.blocks, 500);
	KUNIT_EXPECT_EQ(test, shmem_parse_options(NULL, 1000, &o, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, shmem_parse_options("size=1q", 1000, &o, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "tmpfs: Bad value for 'size'");
	KUNIT_EXPECT_EQ(test, shmem_parse_options("mode=9", 1000, &o, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_EQ(test, shmem_parse_options("huge=deny", 1000, &o, err, sizeof(err)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, shmem_parse_options("noswap", 1000, &o, err, sizeof(err)), -EINVAL);
	KUNIT_EXPECT_STREQ(test, err, "tmpfs: Unknown parameter 'noswap'");
}

static void ramfs_out_of_memory_is_enomem_and_keeps_the_rest(struct kunit *test)
{
	int err = 0, made = 0;
	char name[16];

	KUNIT_ASSERT_EQ(test, test_fs_init(test, &fs, &arena, 2048), 0);
	while (!err && made < 100) {
		ksnprintf(name, sizeof(name), "/dir%d", made);
		err = ramfs_mkdir(&fs, name, 0755, NULL);
		made += !err;
	}
	KUNIT_EXPECT_EQ(test, err, -ENOMEM);
	KUNIT_EXPECT_GT(test, made, 2);
	KUNIT_EXPECT_EQ(test, lookup_err("/dir0", true), 0);
	ksnprintf(name, sizeof(name), "/dir%d", made - 1);
	KUNIT_EXPECT_EQ(test, lookup_err(name, true), 0);
	KUNIT_EXPECT_EQ(test, ramfs_init(&fs, test_arena_alloc, NULL, &arena), -ENOMEM);
}

static void ramfs_lists_a_directory_sorted_with_ls_modes(struct kunit *test)
{
	static const char *const want[] = { "a", "b", "c" };
	const struct ramfs_dentry *d;
	char mode[11];
	int i = 0;

	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/c", 04755, "", 0, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/a", 01777, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/b", "a", 1, NULL), 0);
	for (d = fs.root->children; d && i < 3; d = d->next, i++)
		KUNIT_EXPECT_STREQ(test, d->name, want[i]);
	KUNIT_EXPECT_EQ(test, i, 3);
	KUNIT_EXPECT_NULL(test, d);
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFDIR | 0755, mode), "drwxr-xr-x");
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFREG | 0644, mode), "-rw-r--r--");
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFLNK | 0777, mode), "lrwxrwxrwx");
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFREG | 04755, mode), "-rwsr-xr-x");
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFDIR | 01777, mode), "drwxrwxrwt");
	KUNIT_EXPECT_STREQ(test, ramfs_mode_string(S_IFCHR | 02600, mode), "crw---S---");
}

static void ramfs_lookup_at_starts_relative_paths_at_the_given_dir(struct kunit *test)
{
	struct ramfs_inode *etc, *motd, *f, *got = NULL;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/etc", 0755, &etc), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/etc/motd", 0644, "x", 1, &motd), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/f", 0644, "y", 1, &f), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/etc/up", "../f", 4, NULL), 0);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "motd", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == motd);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "up", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == f);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "..", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == fs.root);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "/f", true, &got), 0); /* absolute */
	KUNIT_EXPECT_TRUE(test, got == f);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "f", true, &got), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, etc, "", true, &got), -ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_lookup_at(&fs, motd, "x", true, &got), -ENOTDIR);
}

/* A computed link, as /proc/self/exe: its hook writes the target. */
static int to_etc_motd(struct ramfs_inode *inode, char *buf, size_t size)
{
	return ksnprintf(buf, size, "%s", (const char *)inode->data);
}

static int broken_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	return -EACCES;
}

static void ramfs_follows_a_get_link_hook_but_not_one_through_another(struct kunit *test)
{
	struct ramfs_inode *motd, *exe, *self, *bad, *got = NULL;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/etc", 0755, NULL), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/etc/motd", 0644, "x", 1, &motd), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/exe", "/etc/motd", 9, &exe), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/self", "/exe", 4, &self), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/bad", "?", 1, &bad), 0);
	exe->get_link = to_etc_motd;
	bad->get_link = broken_link;
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/exe", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == motd);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/exe", false, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == exe);
	/* A plain link to a computed one is fine: one computed target. */
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/self", true, &got), 0);
	KUNIT_EXPECT_TRUE(test, got == motd);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/bad", true, &got), -EACCES);
	/* A computed target leading through another computed link. */
	self->get_link = to_etc_motd;
	self->data = "/exe";
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/self", true, &got), -ELOOP);
	/* and the buffer is free again afterwards. */
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/exe", true, &got), 0);
}

static void ramfs_inode_numbers_are_unique_and_the_root_is_one(struct kunit *test)
{
	struct ramfs_inode *a, *b, *c;

	KUNIT_ASSERT_EQ(test, ramfs_mkdir(&fs, "/a", 0755, &a), 0);
	KUNIT_ASSERT_EQ(test, ramfs_create(&fs, "/a/b", 0644, "", 0, &b), 0);
	KUNIT_ASSERT_EQ(test, ramfs_symlink(&fs, "/c", "a", 1, &c), 0);
	KUNIT_EXPECT_EQ(test, fs.root->ino, 1);
	KUNIT_EXPECT_EQ(test, a->ino, 2);
	KUNIT_EXPECT_EQ(test, b->ino, 3);
	KUNIT_EXPECT_EQ(test, c->ino, 4);
}

static struct kunit_case ramfs_cases[] = {
	KUNIT_CASE(ramfs_lookup_at_starts_relative_paths_at_the_given_dir),
	KUNIT_CASE(ramfs_follows_a_get_link_hook_but_not_one_through_another),
	KUNIT_CASE(ramfs_inode_numbers_are_unique_and_the_root_is_one),
	KUNIT_CASE(ramfs_finds_a_file_by_every_spelling_of_its_path),
	KUNIT_CASE(ramfs_read_copies_from_an_offset_and_stops_at_the_end),
	KUNIT_CASE(ramfs_lookup_errors_are_linux_errnos),
	KUNIT_CASE(ramfs_follows_relative_and_absolute_symlinks),
	KUNIT_CASE(ramfs_symlink_loops_end_in_eloop_after_maxsymlinks),
	KUNIT_CASE(ramfs_create_refuses_what_linux_refuses),
	KUNIT_CASE(ramfs_unlink_and_hard_links_keep_counts),
	KUNIT_CASE(ramfs_rename_moves_replaces_and_refuses_as_linux),
	KUNIT_CASE(ramfs_rename_exchange_swaps_two_names),
	KUNIT_CASE(ramfs_link_names_a_nameless_inode_only_if_linkable),
	KUNIT_CASE(ramfs_rename_out_of_memory_changes_nothing),
	KUNIT_CASE(ramfs_fallocate_allocates_and_punches),
	KUNIT_CASE(ramfs_size_limit_cuts_writes_and_refuses_what_does_not_fit),
	KUNIT_CASE(ramfs_huge_option_decides_folio_sizes),
	KUNIT_CASE(ramfs_walks_cross_a_mount_and_kill_frees_it),
	KUNIT_CASE(tmpfs_options_parse_as_linux),
	KUNIT_CASE(ramfs_out_of_memory_is_enomem_and_keeps_the_rest),
	KUNIT_CASE(ramfs_unlink_and_iput_give_every_object_back),
	KUNIT_CASE(ramfs_lists_a_directory_sorted_with_ls_modes),
	{},
};

static struct kunit_suite ramfs_suite = {
	.name = "ramfs",
	.init = ramfs_test_init,
	.exit = ramfs_test_exit,
	.test_cases = ramfs_cases,
};
kunit_test_suite(ramfs_suite);
