/*
 * The cpio "newc" unpacker on archives written by the test itself
 * (newc_entry below writes what `cpio -o -H newc` writes): entries of
 * every type with their modes, concatenated archives that replace and
 * extend, hard links, the "070702" checksum, and each kind of damage,
 * which must stop the unpack at that entry with one message naming it
 * while every entry before it stays.
 */
#include <ktest.h>
#include "fs_test_util.h"

static struct test_arena arena;
static struct ramfs fs;
static struct initramfs_stats st;

/* The archive being written: zeros beyond len, so padding is free. */
static struct {
	char buf[4096];
	size_t len;
} cpio;

static int initramfs_test_init(struct kunit *test)
{
	memset(&cpio, 0, sizeof(cpio));
	return test_fs_init(test, &fs, &arena, sizeof(arena.mem));
}

static void initramfs_test_exit(struct kunit *test)
{
	(void)test;
	test_fs_release(test, &fs);
}

/* Append one entry: header, name, padding, data, padding. */
static void newc_entry_full(const char *magic, uint32_t ino, uint32_t mode, uint32_t nlink,
			    const char *name, const char *data, uint32_t size)
{
	uint32_t sum = 0, namesize = strlen(name) + 1;

	for (uint32_t i = 0; i < size; i++)
		sum += (unsigned char)data[i];
	ksnprintf(cpio.buf + cpio.len, 111,
		  "%s%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x%08x", magic, ino, mode, 1000,
		  100, nlink, 1700000000, size, 8, 1, 0, 0, namesize, magic[5] == '2' ? sum : 0);
	memcpy(cpio.buf + cpio.len + 110, name, namesize);
	cpio.len = ALIGN_UP(cpio.len + 110 + namesize, 4);
	memcpy(cpio.buf + cpio.len, data, size);
	cpio.len = ALIGN_UP(cpio.len + size, 4);
}

static void newc_entry(uint32_t mode, const char *name, const char *data)
{
	static uint32_t ino = 100;

	newc_entry_full("070701", ino++, mode, S_ISDIR(mode) ? 2 : 1, name, data, strlen(data));
}

/* End an archive, padded with zeros to 512 bytes as cpio does. */
static void newc_trailer(void)
{
	newc_entry_full("070701", 0, 0, 1, "TRAILER!!!", "", 0);
	cpio.len = ALIGN_UP(cpio.len, 512);
}

static int unpack(void)
{
	return unpack_to_rootfs(&fs, cpio.buf, cpio.len, &st);
}

static struct ramfs_inode *get(struct kunit *test, const char *path, bool follow)
{
	struct ramfs_inode *inode = NULL;

	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, path, follow, &inode), 0);
	return inode;
}

/* Expect path to be a regular file holding exactly text. */
static void expect_file(struct kunit *test, const char *path, const char *text)
{
	struct ramfs_inode *f = get(test, path, true);
	char buf[64] = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, ramfs_read(f, 0, buf, sizeof(buf) - 1), strlen(text));
	KUNIT_EXPECT_STREQ(test, buf, text);
}

static void initramfs_unpacks_dirs_files_and_symlinks_with_modes(struct kunit *test)
{
	struct ramfs_inode *motd, *bin, *tool;

	newc_entry(S_IFDIR | 0755, ".", "");
	newc_entry(S_IFDIR | 0750, "etc", "");
	newc_entry(S_IFREG | 0640, "etc/motd", "Welcome to Folium\n");
	newc_entry(S_IFDIR | 0755, "usr", "");
	newc_entry(S_IFDIR | 0755, "usr/bin", "");
	newc_entry(S_IFREG | 04755, "usr/bin/tool", "\177ELF");
	newc_entry(S_IFLNK | 0777, "bin", "usr/bin");
	newc_trailer();
	KUNIT_ASSERT_EQ(test, unpack(), 0);
	KUNIT_EXPECT_STREQ(test, st.message, "");
	KUNIT_EXPECT_EQ(test, st.files, 2);
	KUNIT_EXPECT_EQ(test, st.dirs, 4); /* ".", etc, usr, usr/bin */
	KUNIT_EXPECT_EQ(test, st.symlinks, 1);
	KUNIT_EXPECT_EQ(test, st.bytes, 18 + 4);
	KUNIT_EXPECT_EQ(test, st.archives, 1);
	KUNIT_EXPECT_EQ(test, st.failed, 0);
	expect_file(test, "/etc/motd", "Welcome to Folium\n");
	motd = get(test, "/etc/motd", true);
	KUNIT_ASSERT_NOT_NULL(test, motd);
	KUNIT_EXPECT_EQ(test, motd->mode, S_IFREG | 0640);
	KUNIT_EXPECT_EQ(test, motd->uid, 1000);
	KUNIT_EXPECT_EQ(test, motd->gid, 100);
	KUNIT_EXPECT_EQ(test, motd->i_mtime.tv_sec, 1700000000);
	/* Copied: the file's bytes are in its page cache, one page. */
	KUNIT_EXPECT_EQ(test, motd->i_mapping->nrpages, 1);
	KUNIT_EXPECT_EQ(test, get(test, "/etc", true)->mode, S_IFDIR | 0750);
	tool = get(test, "/bin/tool", true);
	KUNIT_ASSERT_NOT_NULL(test, tool);
	KUNIT_EXPECT_EQ(test, tool->mode, S_IFREG | 04755);
	bin = get(test, "/bin", false);
	KUNIT_ASSERT_NOT_NULL(test, bin);
	KUNIT_EXPECT_EQ(test, bin->mode, S_IFLNK | 0777);
	KUNIT_EXPECT_EQ(test, bin->size, 7);
}

static void initramfs_later_archive_replaces_and_extends_the_first(struct kunit *test)
{
	newc_entry(S_IFDIR | 0755, "etc", "");
	newc_entry(S_IFREG | 0644, "etc/motd", "one");
	newc_entry(S_IFREG | 0644, "etc/issue", "kept");
	newc_entry(S_IFREG | 0644, "etc/link", "was a file");
	newc_trailer();
	/* What `cat mine.cpio >> initramfs.cpio` appends. */
	newc_entry(S_IFDIR | 0700, "etc", "");
	newc_entry(S_IFREG | 0600, "etc/motd", "two!");
	newc_entry(S_IFREG | 0644, "etc/extra", "new");
	newc_entry(S_IFLNK | 0777, "etc/link", "issue");
	newc_trailer();
	KUNIT_ASSERT_EQ(test, unpack(), 0);
	KUNIT_EXPECT_EQ(test, st.archives, 2);
	KUNIT_EXPECT_EQ(test, st.files, 5);
	KUNIT_EXPECT_EQ(test, st.dirs, 2);
	expect_file(test, "/etc/motd", "two!");
	expect_file(test, "/etc/issue", "kept");
	expect_file(test, "/etc/extra", "new");
	expect_file(test, "/etc/link", "kept"); /* now a symlink to issue */
	KUNIT_EXPECT_EQ(test, get(test, "/etc/motd", true)->mode, S_IFREG | 0600);
	KUNIT_EXPECT_EQ(test, get(test, "/etc", true)->mode, S_IFDIR | 0700);
	KUNIT_EXPECT_EQ(test, get(test, "/etc/link", false)->mode, S_IFLNK | 0777);
}

/* cpio writes a hard-linked file's data once, with its last name. */
static void initramfs_hard_links_share_one_inode(struct kunit *test)
{
	struct ramfs_inode *a, *b;

	newc_entry_full("070701", 7, S_IFREG | 0755, 2, "a", "", 0);
	newc_entry_full("070701", 7, S_IFREG | 0755, 2, "b", "shared", 6);
	newc_trailer();
	KUNIT_ASSERT_EQ(test, unpack(), 0);
	KUNIT_EXPECT_EQ(test, st.files, 1);
	KUNIT_EXPECT_EQ(test, st.hardlinks, 1);
	a = get(test, "/a", true);
	b = get(test, "/b", true);
	KUNIT_EXPECT_TRUE(test, a && a == b);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->nlink, 2);
	expect_file(test, "/a", "shared");
}

/* Unpacking copies every file's bytes into its page cache, so the
 * archive may be overwritten (freed) at once: every file still reads its
 * bytes, and a hard-linked inode holds one copy. */
static void initramfs_files_outlive_the_archive(struct kunit *test)
{
	struct ramfs_inode *a;

	newc_entry(S_IFDIR | 0755, "etc", "");
	newc_entry(S_IFREG | 0644, "etc/motd", "Welcome to Folium\n");
	newc_entry(S_IFREG | 0644, "etc/empty", "");
	newc_entry(S_IFLNK | 0777, "motd", "etc/motd");
	newc_entry_full("070701", 7, S_IFREG | 0755, 2, "a", "", 0);
	newc_entry_full("070701", 7, S_IFREG | 0755, 2, "b", "shared", 6);
	newc_trailer();
	KUNIT_ASSERT_EQ(test, unpack(), 0);
	memset(cpio.buf, 'X', sizeof(cpio.buf));
	expect_file(test, "/etc/motd", "Welcome to Folium\n");
	expect_file(test, "/motd", "Welcome to Folium\n");
	expect_file(test, "/a", "shared");
	expect_file(test, "/b", "shared");
	expect_file(test, "/etc/empty", "");
	a = get(test, "/a", true);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, a->i_mapping->nrpages, 1);
	KUNIT_EXPECT_EQ(test, get(test, "/etc/empty", true)->i_mapping->nrpages, 0);
}

static void initramfs_070702_checksum_is_verified(struct kunit *test)
{
	newc_entry_full("070702", 1, S_IFREG | 0644, 1, "good", "abc", 3);
	newc_entry_full("070702", 2, S_IFREG | 0644, 1, "bad", "abc", 3);
	cpio.buf[cpio.len - 4] = 'x'; /* "abc" becomes "xbc": the sum differs */
	newc_entry(S_IFREG | 0644, "after", "never");
	newc_trailer();
	KUNIT_EXPECT_EQ(test, unpack(), -EINVAL);
	KUNIT_EXPECT_STREQ(test, st.message,
			   "entry \"bad\" at offset 120: bad data checksum "
			   "(header 00000126, data 0000013d)");
	KUNIT_EXPECT_EQ(test, st.stop_offset, 120);
	expect_file(test, "/good", "abc");
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/bad", true, &(struct ramfs_inode *){ 0 }),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/after", true, &(struct ramfs_inode *){ 0 }),
			-ENOENT);
}

/*
 * Write "etc" and "etc/motd", damage the third entry ("broken", at
 * offset 240) with damage(), unpack, and expect the message and the two
 * entries before it.
 */
static void expect_stop_at_third_entry(struct kunit *test, void (*damage)(size_t at),
				       const char *message)
{
	size_t at;

	newc_entry(S_IFDIR | 0755, "etc", "");
	newc_entry(S_IFREG | 0644, "etc/motd", "hi\n");
	at = cpio.len;
	newc_entry(S_IFREG | 0644, "broken", "data");
	newc_entry(S_IFREG | 0644, "later", "never");
	newc_trailer();
	if (damage)
		damage(at);
	KUNIT_EXPECT_EQ(test, unpack(), -EINVAL);
	KUNIT_EXPECT_STREQ(test, st.message, message);
	KUNIT_EXPECT_GE(test, st.stop_offset, at); /* the message has it exactly */
	KUNIT_EXPECT_LE(test, st.stop_offset, at + 1);
	KUNIT_EXPECT_EQ(test, st.dirs, 1);
	KUNIT_EXPECT_EQ(test, st.files, 1);
	KUNIT_EXPECT_EQ(test, st.archives, 1);
	expect_file(test, "/etc/motd", "hi\n");
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&fs, "/later", true, &(struct ramfs_inode *){ 0 }),
			-ENOENT);
}

/* Overwrite header field i (0: magic) of the entry at at. */
static void set_field(size_t at, int i, const char *text)
{
	memcpy(cpio.buf + at + (i ? 6 + 8 * (i - 1) : 0), text, strlen(text));
}

static void damage_magic(size_t at)
{
	set_field(at, 0, "07070X");
}

static void damage_old_format(size_t at)
{
	set_field(at, 0, "070707");
}

static void damage_hex(size_t at)
{
	set_field(at, 2, "000081g4"); /* mode */
}

static void damage_namesize_zero(size_t at)
{
	set_field(at, 12, "00000000");
}

static void damage_namesize_absurd(size_t at)
{
	set_field(at, 12, "00100000");
}

static void damage_name_nul(size_t at)
{
	cpio.buf[at + 110 + 6] = 'X'; /* "broken\0" loses its NUL */
}

static void damage_filesize(size_t at)
{
	set_field(at, 7, "00010000"); /* 64 KiB of data in a 1 KiB buffer */
}

static void damage_cut_in_data(size_t at)
{
	cpio.len = at + 120 + 2; /* header, name, then 2 of the 4 data bytes */
}

static void damage_cut_in_header(size_t at)
{
	cpio.len = at + 50;
}

static void damage_cut_in_name(size_t at)
{
	set_field(at, 12, "00000100"); /* a 256-byte name runs off the end */
	cpio.len = at + 200;
}

static void damage_alignment(size_t at)
{
	/* Zeros may pad, but a header must start on a 4-byte boundary. */
	memmove(cpio.buf + at + 1, cpio.buf + at, 120);
	cpio.buf[at] = '\0';
	cpio.len = at + 121;
}

static void initramfs_bad_magic_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_magic,
				   "entry at offset 240: bad magic (not a cpio newc header)");
}

static void initramfs_old_cpio_format_is_named(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_old_format,
				   "entry at offset 240: old cpio format: use -H newc");
}

static void initramfs_non_hex_field_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_hex,
				   "entry at offset 240: header field 1 is not hex");
}

static void initramfs_namesize_zero_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_namesize_zero,
				   "entry at offset 240: absurd name size 0");
}

static void initramfs_absurd_namesize_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_namesize_absurd,
				   "entry at offset 240: absurd name size 1048576");
}

static void initramfs_name_without_nul_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_name_nul, "entry at offset 240: name without NUL");
}

static void initramfs_filesize_beyond_the_buffer_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_filesize,
				   "entry \"broken\" at offset 240: truncated data "
				   "(65536 bytes, 664 left)");
}

static void initramfs_truncated_data_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(
		test, damage_cut_in_data,
		"entry \"broken\" at offset 240: truncated data (4 bytes, 2 left)");
}

static void initramfs_truncated_header_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_cut_in_header,
				   "entry at offset 240: truncated header (50 of 110 bytes)");
}

static void initramfs_truncated_name_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(test, damage_cut_in_name,
				   "entry at offset 240: truncated name (256 bytes, 90 left)");
}

static void initramfs_misaligned_header_stops_there(struct kunit *test)
{
	expect_stop_at_third_entry(
		test, damage_alignment,
		"entry at offset 241: broken padding (not on a 4-byte boundary)");
}

/* A stop in the second archive keeps all of the first. */
static void initramfs_damage_in_a_second_archive_keeps_the_first(struct kunit *test)
{
	size_t at;

	newc_entry(S_IFREG | 0644, "first", "1");
	newc_trailer();
	at = cpio.len;
	newc_entry(S_IFREG | 0644, "second", "2");
	set_field(at, 0, "170701");
	KUNIT_EXPECT_EQ(test, unpack(), -EINVAL);
	KUNIT_EXPECT_STREQ(test, st.message,
			   "entry at offset 512: bad magic (not a cpio newc header)");
	KUNIT_EXPECT_EQ(test, st.archives, 1);
	expect_file(test, "/first", "1");
}

static void initramfs_tolerates_a_missing_trailer_and_skips_devices(struct kunit *test)
{
	newc_entry(S_IFDIR | 0755, "dev", "");
	newc_entry(S_IFCHR | 0600, "dev/console", "");
	newc_entry(S_IFREG | 0644, "f", "x");
	KUNIT_EXPECT_EQ(test, unpack(), 0);
	KUNIT_EXPECT_EQ(test, st.archives, 1);
	KUNIT_EXPECT_EQ(test, st.skipped, 1);
	KUNIT_EXPECT_EQ(test, st.files, 1);
	expect_file(test, "/f", "x");
}

/* An entry the fs refuses (its directory is missing) is counted and
 * named; the entries after it are still unpacked. */
static void initramfs_refused_entry_is_named_and_unpacking_goes_on(struct kunit *test)
{
	newc_entry(S_IFREG | 0644, "no/such/dir/f", "x");
	newc_entry(S_IFREG | 0644, "g", "y");
	newc_trailer();
	KUNIT_EXPECT_EQ(test, unpack(), 0);
	KUNIT_EXPECT_EQ(test, st.failed, 1);
	KUNIT_EXPECT_STREQ(test, st.failure, "cannot create \"no/such/dir/f\": error -2");
	expect_file(test, "/g", "y");
}

static void initramfs_empty_and_zero_buffers_unpack_nothing(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, unpack_to_rootfs(&fs, cpio.buf, 0, &st), 0);
	KUNIT_EXPECT_EQ(test, unpack_to_rootfs(&fs, cpio.buf, 1000, &st), 0);
	KUNIT_EXPECT_EQ(test, st.archives, 0);
	KUNIT_EXPECT_NULL(test, fs.root->children);
}

static struct kunit_case initramfs_cases[] = {
	KUNIT_CASE(initramfs_unpacks_dirs_files_and_symlinks_with_modes),
	KUNIT_CASE(initramfs_later_archive_replaces_and_extends_the_first),
	KUNIT_CASE(initramfs_hard_links_share_one_inode),
	KUNIT_CASE(initramfs_files_outlive_the_archive),
	KUNIT_CASE(initramfs_070702_checksum_is_verified),
	KUNIT_CASE(initramfs_bad_magic_stops_there),
	KUNIT_CASE(initramfs_old_cpio_format_is_named),
	KUNIT_CASE(initramfs_non_hex_field_stops_there),
	KUNIT_CASE(initramfs_namesize_zero_stops_there),
	KUNIT_CASE(initramfs_absurd_namesize_stops_there),
	KUNIT_CASE(initramfs_name_without_nul_stops_there),
	KUNIT_CASE(initramfs_filesize_beyond_the_buffer_stops_there),
	KUNIT_CASE(initramfs_truncated_data_stops_there),
	KUNIT_CASE(initramfs_truncated_header_stops_there),
	KUNIT_CASE(initramfs_truncated_name_stops_there),
	KUNIT_CASE(initramfs_misaligned_header_stops_there),
	KUNIT_CASE(initramfs_damage_in_a_second_archive_keeps_the_first),
	KUNIT_CASE(initramfs_tolerates_a_missing_trailer_and_skips_devices),
	KUNIT_CASE(initramfs_refused_entry_is_named_and_unpacking_goes_on),
	KUNIT_CASE(initramfs_empty_and_zero_buffers_unpack_nothing),
	{},
};

static struct kunit_suite initramfs_suite = {
	.name = "initramfs",
	.init = initramfs_test_init,
	.exit = initramfs_test_exit,
	.test_cases = initramfs_cases,
};
kunit_test_suite(initramfs_suite);
