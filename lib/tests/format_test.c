/* ksnprintf, kstrtou64, kparse_size and kformat_size against known strings. */
#include <errno.h>
#include <kernel.h>
#include <ktest.h>

#define EXPECT_FORMAT(test, want, ...)                                  \
	do {                                                            \
		char __buf[128];                                        \
		int __n = ksnprintf(__buf, sizeof(__buf), __VA_ARGS__); \
		KUNIT_EXPECT_STREQ(test, __buf, want);                  \
		KUNIT_EXPECT_EQ(test, __n, (int)strlen(want));          \
	} while (0)

static void format_integers(struct kunit *test)
{
	EXPECT_FORMAT(test, "42 -7 0", "%d %i %u", 42, -7, 0u);
	EXPECT_FORMAT(test, "ff FF 0xff 377", "%x %X %#x %o", 255, 255, 255, 255);
	EXPECT_FORMAT(test, "-9223372036854775808", "%lld", (long long)INT64_MIN);
	EXPECT_FORMAT(test, "18446744073709551615", "%llu", (unsigned long long)UINT64_MAX);
	EXPECT_FORMAT(test, "ffffffff80000000", "%lx", 0xffffffff80000000ul);
	EXPECT_FORMAT(test, "12 34", "%zu %hhu", (size_t)12, (unsigned char)34);
}

static void format_width_precision_flags(struct kunit *test)
{
	EXPECT_FORMAT(test, "[   42]", "[%5d]", 42);
	EXPECT_FORMAT(test, "[42   ]", "[%-5d]", 42);
	EXPECT_FORMAT(test, "[00042]", "[%05d]", 42);
	EXPECT_FORMAT(test, "[-0042]", "[%05d]", -42);
	EXPECT_FORMAT(test, "[  042]", "[%5.3d]", 42);
	EXPECT_FORMAT(test, "[+42] [ 42]", "[%+d] [% d]", 42, 42);
	EXPECT_FORMAT(test, "[    7]", "[%*d]", 5, 7);
	EXPECT_FORMAT(test, "0x000000000000beef", "%#018llx", 0xbeefull);
	EXPECT_FORMAT(test, "[]", "[%.0d]", 0);
}

static void format_strings_and_chars(struct kunit *test)
{
	EXPECT_FORMAT(test, "[  abc]", "[%5s]", "abc");
	EXPECT_FORMAT(test, "[ab]", "[%.2s]", "abc");
	EXPECT_FORMAT(test, "[ab   ]", "[%-5.*s]", 2, "abc");
	EXPECT_FORMAT(test, "(null)", "%s", (char *)NULL);
	EXPECT_FORMAT(test, "x%", "%c%%", 'x');
	EXPECT_FORMAT(test, "0x1000", "%p", (void *)0x1000);
}

static void format_truncates_and_reports_full_length(struct kunit *test)
{
	char buf[8];
	int n = ksnprintf(buf, sizeof(buf), "%s", "hello world");

	KUNIT_EXPECT_EQ(test, n, 11);
	KUNIT_EXPECT_STREQ(test, buf, "hello w");
	n = ksnprintf(buf, 0, "abc");
	KUNIT_EXPECT_EQ(test, n, 3);
}

static void parse_numbers(struct kunit *test)
{
	uint64_t v = 0;

	KUNIT_EXPECT_EQ(test, kstrtou64("1234", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 1234);
	KUNIT_EXPECT_EQ(test, kstrtou64("0xFFff", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0xffff);
	KUNIT_EXPECT_EQ(test, kstrtou64("18446744073709551615", &v), 0);
	KUNIT_EXPECT_EQ(test, kstrtou64("18446744073709551616", &v), -1);
	KUNIT_EXPECT_EQ(test, kstrtou64("", &v), -1);
	KUNIT_EXPECT_EQ(test, kstrtou64("0x", &v), -1);
	KUNIT_EXPECT_EQ(test, kstrtou64("12a", &v), -1);
	KUNIT_EXPECT_EQ(test, kstrtou64("-1", &v), -1);
}

static void parse_sizes(struct kunit *test)
{
	uint64_t v = 0;

	KUNIT_EXPECT_EQ(test, kparse_size("4096", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 4096);
	KUNIT_EXPECT_EQ(test, kparse_size("64K", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 65536);
	KUNIT_EXPECT_EQ(test, kparse_size("2m", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 2 * MIB);
	KUNIT_EXPECT_EQ(test, kparse_size("1G", &v), 0);
	KUNIT_EXPECT_EQ(test, v, GIB);
	KUNIT_EXPECT_EQ(test, kparse_size("K", &v), -1);
	KUNIT_EXPECT_EQ(test, kparse_size("12Q", &v), -1);
	KUNIT_EXPECT_EQ(test, kparse_size("1p", &v), 0); /* memparse's last two */
	KUNIT_EXPECT_EQ(test, v, 1ull << 50);
	KUNIT_EXPECT_EQ(test, kparse_size("3E", &v), 0);
	KUNIT_EXPECT_EQ(test, v, 3ull << 60);
	KUNIT_EXPECT_EQ(test, kparse_size("16E", &v), -1);
	KUNIT_EXPECT_EQ(test, kparse_size("17179869184G", &v), -1);
}

static void format_sizes(struct kunit *test)
{
	char buf[32];

	KUNIT_EXPECT_STREQ(test, kformat_size(buf, sizeof(buf), 512), "512 B");
	KUNIT_EXPECT_STREQ(test, kformat_size(buf, sizeof(buf), 64 * KIB), "64 KiB");
	KUNIT_EXPECT_STREQ(test, kformat_size(buf, sizeof(buf), 3 * GIB / 2), "1.5 GiB");
	KUNIT_EXPECT_STREQ(test, kformat_size(buf, sizeof(buf), 1023), "1023 B");
}

/* Linux's match_string: the index of the word, -EINVAL for another. */
static void match_string_finds_the_index_or_refuses(struct kunit *test)
{
	static const char *const names[] = { "batched", NULL, "split" };

	KUNIT_EXPECT_EQ(test, match_string(names, ARRAY_SIZE(names), "batched"), 0);
	KUNIT_EXPECT_EQ(test, match_string(names, ARRAY_SIZE(names), "split"), 2);
	KUNIT_EXPECT_EQ(test, match_string(names, ARRAY_SIZE(names), "Split"), -EINVAL);
	KUNIT_EXPECT_EQ(test, match_string(names, ARRAY_SIZE(names), ""), -EINVAL);
	KUNIT_EXPECT_EQ(test, match_string(names, 1, "split"), -EINVAL);
}

static struct kunit_case format_cases[] = {
	KUNIT_CASE(format_integers),
	KUNIT_CASE(format_width_precision_flags),
	KUNIT_CASE(format_strings_and_chars),
	KUNIT_CASE(format_truncates_and_reports_full_length),
	KUNIT_CASE(parse_numbers),
	KUNIT_CASE(parse_sizes),
	KUNIT_CASE(format_sizes),
	KUNIT_CASE(match_string_finds_the_index_or_refuses),
	{},
};

static struct kunit_suite format_suite = {
	.name = "format",
	.test_cases = format_cases,
};
kunit_test_suite(format_suite);
