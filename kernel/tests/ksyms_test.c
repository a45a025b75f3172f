/* Symbol lookup for backtraces, on a hand-made table. */
#include <ksyms.h>
#include <ktest.h>

static const struct ksym syms[] = {
	{ 0x100, 0 }, /* a */
	{ 0x180, 2 }, /* b */
	{ 0x1c0, 4 }, /* c */
};
static const struct ksym_table table = {
	.count = 3,
	.syms = syms,
	.names = "a\0b\0c",
	.text_end = 0x200,
};

static void ksym_finds_the_enclosing_symbol(struct kunit *test)
{
	uint64_t off = 0;

	KUNIT_EXPECT_STREQ(test, ksym_table_lookup(&table, 0x17f, &off), "a");
	KUNIT_EXPECT_EQ(test, off, 0x7f);
	KUNIT_EXPECT_STREQ(test, ksym_table_lookup(&table, 0x180, &off), "b");
	KUNIT_EXPECT_EQ(test, off, 0);
	KUNIT_EXPECT_STREQ(test, ksym_table_lookup(&table, 0x1ff, &off), "c");
	KUNIT_EXPECT_EQ(test, off, 0x3f);
}

static void ksym_rejects_addresses_outside_the_text(struct kunit *test)
{
	const struct ksym_table empty = { .count = 0, .text_end = 0x200 };
	uint64_t off = 0;

	KUNIT_EXPECT_NULL(test, ksym_table_lookup(&table, 0xff, &off));
	KUNIT_EXPECT_NULL(test, ksym_table_lookup(&table, 0x200, &off));
	KUNIT_EXPECT_NULL(test, ksym_table_lookup(&empty, 0x150, &off));
}

static struct kunit_case ksyms_cases[] = {
	KUNIT_CASE(ksym_finds_the_enclosing_symbol),
	KUNIT_CASE(ksym_rejects_addresses_outside_the_text),
	{},
};

static struct kunit_suite ksyms_suite = {
	.name = "ksyms",
	.test_cases = ksyms_cases,
};
kunit_test_suite(ksyms_suite);
