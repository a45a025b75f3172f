/*
 * The `ls` and `cat` shell commands over a private file system swapped in
 * for rootfs while each case runs (the kernel's own is put back after).
 */
#include <ktest.h>
#include <shell.h>
#include "fs_test_util.h"

static struct test_arena arena;
static struct ramfs saved_rootfs;
static struct shell_capture out;

static int cmd_fs_test_init(struct kunit *test)
{
	saved_rootfs = rootfs;
	if (test_fs_init(test, &rootfs, &arena, sizeof(arena.mem)) ||
	    ramfs_mkdir(&rootfs, "/etc", 0755, NULL) ||
	    ramfs_create(&rootfs, "/etc/motd", 0644, "hello\n", 6, NULL) ||
	    ramfs_symlink(&rootfs, "/bin", "usr/bin", 7, NULL))
		return -1;
	return 0;
}

static void cmd_fs_test_exit(struct kunit *test)
{
	test_fs_release(test, &rootfs);
	rootfs = saved_rootfs;
}

static void ls_shows_mode_size_name_and_link_target(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "ls /"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text,
			   "lrwxrwxrwx        7 bin -> usr/bin\n"
			   "drwxr-xr-x       60 etc\n" /* tmpfs: 20 per name, "." and ".." */);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "ls"), CMD_OK);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, " etc\n") != NULL);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "ls /etc/motd"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text, "-rw-r--r--        6 /etc/motd\n");
}

static void cat_prints_the_bytes(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat /etc/motd"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text, "hello\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat etc/../etc/motd"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text, "hello\n");
}

static void fs_commands_report_errors_as_coreutils(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "ls /x"), CMD_ERROR);
	KUNIT_EXPECT_STREQ(test, out.text, "ls: /x: No such file or directory\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat /etc"), CMD_ERROR);
	KUNIT_EXPECT_STREQ(test, out.text, "cat: /etc: Is a directory\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat /etc/motd/x"), CMD_ERROR);
	KUNIT_EXPECT_STREQ(test, out.text, "cat: /etc/motd/x: Not a directory\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat /bin"), CMD_ERROR);
	KUNIT_EXPECT_STREQ(test, out.text, "cat: /bin: No such file or directory\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "cat"), CMD_USAGE);
}

static void pagecache_counts_a_files_folios_by_order(struct kunit *test)
{
	static char bytes[5 * 4096];

	KUNIT_ASSERT_EQ(test, ramfs_create(&rootfs, "/big", 0644, bytes, sizeof(bytes), NULL), 0);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "pagecache /big /etc/motd"), CMD_OK);
	/* 20 KiB written at once: 16 KiB in an order-2 folio, then a page */
	KUNIT_EXPECT_STREQ(test, out.text,
			   "/big: 20480 bytes, 5 pages in 2 folios, order:count 0:1 2:1\n"
			   "/etc/motd: 6 bytes, 1 pages in 1 folios, order:count 0:1\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "pagecache /etc /big"), CMD_ERROR);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, "pagecache: /etc: Is a directory\n") != NULL);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "pagecache"), CMD_USAGE);
}

static struct kunit_case cmd_fs_cases[] = {
	KUNIT_CASE(ls_shows_mode_size_name_and_link_target),
	KUNIT_CASE(cat_prints_the_bytes),
	KUNIT_CASE(fs_commands_report_errors_as_coreutils),
	KUNIT_CASE(pagecache_counts_a_files_folios_by_order),
	{},
};

static struct kunit_suite cmd_fs_suite = {
	.name = "cmd_fs",
	.init = cmd_fs_test_init,
	.exit = cmd_fs_test_exit,
	.test_cases = cmd_fs_cases,
};
kunit_test_suite(cmd_fs_suite);
