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
	if (test_fs_init(&rootfs, &arena, sizeof(arena.mem)) ||
	    ramfs_mkdir(&rootfs, "/etc", 0755, NULL) ||
	    ramfs_create(&rootfs, "/etc/motd", 0644, "hello\n", 6, NULL) ||
	    ramfs_symlink(&rootfs, "/bin", "usr/bin", 7, NULL))
		return -1;
	return 0;
}

static void cmd_fs_test_exit(struct kunit *test)
{
	rootfs = saved_rootfs;
}

static void ls_shows_mode_size_name_and_link_target(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "ls /"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text,
			   "lrwxrwxrwx        7 bin -> usr/bin\n"
			   "drwxr-xr-x        0 etc\n");
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

static struct kunit_case cmd_fs_cases[] = {
	KUNIT_CASE(ls_shows_mode_size_name_and_link_target),
	KUNIT_CASE(cat_prints_the_bytes),
	KUNIT_CASE(fs_commands_report_errors_as_coreutils),
	{},
};

static struct kunit_suite cmd_fs_suite = {
	.name = "cmd_fs",
	.init = cmd_fs_test_init,
	.exit = cmd_fs_test_exit,
	.test_cases = cmd_fs_cases,
};
kunit_test_suite(cmd_fs_suite);
