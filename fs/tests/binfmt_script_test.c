/*
 * "#!" line tests (fs/binfmt_script.c) against Linux's load_script rules:
 * where the name ends, what the one argument holds, and which lines are
 * no script at all. Example: "#!  /bin/sh  -e -x  \n" is /bin/sh with the
 * single argument "-e -x".
 */
#include <binfmts.h>
#include <errno.h>
#include <kernel.h>
#include <ktest.h>

static struct script_interp si;

static int parse(const char *s)
{
	return script_parse(s, strlen(s), &si);
}

static void name_and_one_whole_argument(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, parse("#!/bin/sh\necho hi\n"), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/sh");
	KUNIT_EXPECT_FALSE(test, si.has_arg);
	KUNIT_ASSERT_EQ(test, parse("#!  /bin/sh  -e -x  \n"), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/sh");
	KUNIT_EXPECT_TRUE(test, si.has_arg);
	KUNIT_EXPECT_STREQ(test, si.arg, "-e -x"); /* one argument, inner spaces kept */
	KUNIT_ASSERT_EQ(test, parse("#!\t/bin/awk\t-f\t\n"), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/awk");
	KUNIT_EXPECT_STREQ(test, si.arg, "-f");
	/* No newline at all: the file's end ends the line. */
	KUNIT_ASSERT_EQ(test, parse("#!/bin/true"), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/true");
	KUNIT_EXPECT_FALSE(test, si.has_arg);
}

static void not_a_script_is_enoexec(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test,
			parse("\x7f"
			      "ELF"),
			-ENOEXEC);
	KUNIT_EXPECT_EQ(test, parse("# !/bin/sh\n"), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, parse("#!\n"), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, parse("#!   \t \n/bin/sh\n"), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, parse("#"), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, script_parse("", 0, &si), -ENOEXEC);
}

/* Only 256 bytes are read: a long argument is cut, a long name refused. */
static void the_buffer_cuts_the_argument_but_never_the_name(struct kunit *test)
{
	char line[400];

	memset(line, 'a', sizeof(line));
	memcpy(line, "#!/bin/sh ", 10);
	KUNIT_ASSERT_EQ(test, script_parse(line, sizeof(line), &si), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/sh");
	KUNIT_EXPECT_EQ(test, strlen(si.arg), BINPRM_BUF_SIZE - 1 - 10);
	memset(line, 'a', sizeof(line));
	memcpy(line, "#!/bin/", 7); /* the name runs past byte 255 */
	KUNIT_EXPECT_EQ(test, script_parse(line, sizeof(line), &si), -ENOEXEC);
	/* A name that fits, then only spaces to the cut: no argument. */
	memset(line, ' ', sizeof(line));
	memcpy(line, "#!/bin/sh", 9);
	KUNIT_ASSERT_EQ(test, script_parse(line, sizeof(line), &si), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/sh");
	KUNIT_EXPECT_FALSE(test, si.has_arg);
}

/* A NUL ends the name, and then there is no argument (Linux's
 * next_terminator stops at it). */
static void a_nul_ends_the_name(struct kunit *test)
{
	static const char s[] = "#!/bin/sh\0-e\n";

	KUNIT_ASSERT_EQ(test, script_parse(s, sizeof(s) - 1, &si), 0);
	KUNIT_EXPECT_STREQ(test, si.name, "/bin/sh");
	KUNIT_EXPECT_FALSE(test, si.has_arg);
}

static struct kunit_case binfmt_script_cases[] = {
	KUNIT_CASE(name_and_one_whole_argument),
	KUNIT_CASE(not_a_script_is_enoexec),
	KUNIT_CASE(the_buffer_cuts_the_argument_but_never_the_name),
	KUNIT_CASE(a_nul_ends_the_name),
	{},
};

static struct kunit_suite binfmt_script_suite = {
	.name = "binfmt_script",
	.test_cases = binfmt_script_cases,
};

kunit_test_suite(binfmt_script_suite);
