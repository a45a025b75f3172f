/* The boot command line parser: words, quotes, overrides and errors; the
 * registry of known keys (CMDLINE_KEY). */
#include <kernel.h>
#include <ktest.h>

static struct cmdline cl; /* too big for a kernel stack frame */

static void cmdline_parses_keys_values_and_quotes(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, cmdline_parse(&cl, "  run=\"test; poweroff\" quiet thp=16K\n"), 0);
	KUNIT_EXPECT_EQ(test, cl.nparams, 3);
	KUNIT_EXPECT_STREQ(test, cmdline_get(&cl, "run"), "test; poweroff");
	KUNIT_EXPECT_STREQ(test, cmdline_get(&cl, "quiet"), "");
	KUNIT_EXPECT_STREQ(test, cmdline_get(&cl, "thp"), "16K");
	KUNIT_EXPECT_NULL(test, cmdline_get(&cl, "cma"));
	KUNIT_EXPECT_STREQ(test, cl.error, "");
}

static void cmdline_later_words_override_earlier(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, cmdline_parse(&cl, "loglevel=3 loglevel=7"), 0);
	KUNIT_EXPECT_STREQ(test, cmdline_get(&cl, "loglevel"), "7");
}

static void cmdline_empty_is_valid(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, ""), 0);
	KUNIT_EXPECT_EQ(test, cl.nparams, 0);
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, " \t\r\n"), 0);
	KUNIT_EXPECT_EQ(test, cl.nparams, 0);
}

static void cmdline_reports_unterminated_quote_and_keeps_earlier_words(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, "a=1 run=\"test; poweroff"), -1);
	KUNIT_EXPECT_EQ(test, cl.nparams, 1);
	KUNIT_EXPECT_STREQ(test, cmdline_get(&cl, "a"), "1");
	KUNIT_EXPECT_TRUE(test, strstr(cl.error, "unterminated quote"));
}

static void cmdline_rejects_overlong_key_value_and_missing_name(struct kunit *test)
{
	static char text[CMDLINE_VALUE_MAX + 16];

	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, "averyveryveryveryverylongparametername=1"), -1);
	KUNIT_EXPECT_TRUE(test, strstr(cl.error, "name too long"));
	memcpy(text, "k=", 2);
	memset(text + 2, 'v', CMDLINE_VALUE_MAX);
	text[CMDLINE_VALUE_MAX + 2] = '\0';
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, text), -1);
	KUNIT_EXPECT_TRUE(test, strstr(cl.error, "value too long"));
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, "=5"), -1);
	KUNIT_EXPECT_TRUE(test, strstr(cl.error, "missing parameter name"));
}

static void cmdline_rejects_too_many_words(struct kunit *test)
{
	static char text[CMDLINE_MAX_PARAMS * 4 + 8];
	char *p = text;

	for (int i = 0; i <= CMDLINE_MAX_PARAMS; i++)
		p += ksnprintf(p, 8, "k%d ", i % 10);
	KUNIT_EXPECT_EQ(test, cmdline_parse(&cl, text), -1);
	KUNIT_EXPECT_EQ(test, cl.nparams, CMDLINE_MAX_PARAMS);
	KUNIT_EXPECT_TRUE(test, strstr(cl.error, "too many parameters"));
}

/* One place per key: a second CMDLINE_KEY of the same name would be
 * shadowed by the first, so find() must return every key itself. */
static void cmdline_keys_are_registered_once_with_help(struct kunit *test)
{
	const struct cmdline_key *k;

	for (size_t n = 0; (k = cmdline_key_nth(n)); n++) {
		if (!k->help || !k->help[0])
			kunit_fail(test, __FILE__, __LINE__, "cmdline key '%s' has no help line",
				   k->name);
		if (cmdline_key_find(k->name) != k)
			kunit_fail(test, __FILE__, __LINE__,
				   "cmdline key '%s' is registered more than once", k->name);
	}
}

static void cmdline_key_find_rejects_unregistered_keys(struct kunit *test)
{
	KUNIT_EXPECT_NULL(test, cmdline_key_find("no_such_key"));
	KUNIT_EXPECT_NULL(test, cmdline_key_find(""));
}

static struct kunit_case cmdline_cases[] = {
	KUNIT_CASE(cmdline_parses_keys_values_and_quotes),
	KUNIT_CASE(cmdline_later_words_override_earlier),
	KUNIT_CASE(cmdline_empty_is_valid),
	KUNIT_CASE(cmdline_reports_unterminated_quote_and_keeps_earlier_words),
	KUNIT_CASE(cmdline_rejects_overlong_key_value_and_missing_name),
	KUNIT_CASE(cmdline_rejects_too_many_words),
	KUNIT_CASE(cmdline_keys_are_registered_once_with_help),
	KUNIT_CASE(cmdline_key_find_rejects_unregistered_keys),
	{},
};

static struct kunit_suite cmdline_suite = {
	.name = "cmdline",
	.test_cases = cmdline_cases,
};
kunit_test_suite(cmdline_suite);
