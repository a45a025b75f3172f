/*
 * Bench records (bench/benchrec.c): the hash is FNV-1a 32 (checked against
 * the published test vectors, so host tool and kernel agree by
 * construction), a record's lines come in the documented order with every
 * environment key, and @end carries the row count and the hash of the
 * lines before it. Example: "@bench t" + "@env ..." + "@cols a[x]" +
 * "@row 1" gives "@end t 1 <fnv1a32 of those four lines, \n-ended>".
 */
#include <benchrec.h>
#include <ktest.h>
#include <shell.h>
#include <vm.h>

static struct shell_capture cap;

static uint32_t hash_str(const char *s)
{
	return fnv1a32(FNV1A32_INIT, s, strlen(s));
}

static void fnv1a32_matches_published_vectors(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, hash_str(""), 0x811c9dc5u);
	KUNIT_EXPECT_EQ(test, hash_str("a"), 0xe40c292cu);
	KUNIT_EXPECT_EQ(test, hash_str("foobar"), 0xbf9cf968u);
	/* Continuing a hash equals hashing the concatenation. */
	KUNIT_EXPECT_EQ(test, fnv1a32(hash_str("foo"), "bar", 3), 0xbf9cf968u);
}

static void emit_two_row_record(void)
{
	struct benchrec rec;

	shell_capture_start(&cap);
	benchrec_begin(&rec, "demo", "size[KiB] name[-]", " range_bytes=4096");
	benchrec_row(&rec, "%u %s", 4u, "four");
	benchrec_row(&rec, "%u %s", 64u, "sixtyfour");
	benchrec_end(&rec);
	shell_capture_stop();
}

static void benchrec_prints_lines_in_order_with_count_and_hash(struct kunit *test)
{
	const char *end, *env;
	char expect[40];

	emit_two_row_record();
	KUNIT_ASSERT_EQ(test, strncmp(cap.text, "@bench demo\n@env source=", 24), 0);
	env = cap.text + 12;
	KUNIT_EXPECT_NOT_NULL(test, strstr(env, "\n@cols size[KiB] name[-]\n@row 4 four\n"
						"@row 64 sixtyfour\n@end demo 2 "));
	end = strstr(cap.text, "@end ");
	KUNIT_ASSERT_NOT_NULL(test, end);
	ksnprintf(expect, sizeof(expect), "@end demo 2 %08x\n",
		  fnv1a32(FNV1A32_INIT, cap.text, (unsigned long)(end - cap.text)));
	KUNIT_EXPECT_STREQ(test, end, expect);
}

static void benchrec_env_names_machine_and_config(struct kunit *test)
{
	static const char *const keys[] = {
		" cpu=\"",	    " features=",	 " clear_pages=", " tsc_hz=",
		" hypervisor=",	    " emulated=",	 " mem_bytes=",	  " version=",
		" max_page_order=", " pageblock_order=", " thp=",	  " thp_orders=",
		" debug_vm=",
	};
	const char *prev = cap.text;

	emit_two_row_record();
	/* Each key present, in the documented order, the extra ones last. */
	for (unsigned int i = 0; i < ARRAY_SIZE(keys); i++) {
		const char *at = strstr(prev, keys[i]);

		KUNIT_EXPECT_NOT_NULL(test, at);
		if (at)
			prev = at;
	}
	KUNIT_EXPECT_NOT_NULL(test, strstr(prev, " range_bytes=4096\n@cols "));
}

static void benchrec_env_lists_enabled_folio_sizes(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled;

	thp_orders_enabled = (1ul << 4) | (1ul << HPAGE_PMD_ORDER);
	emit_two_row_record();
	KUNIT_EXPECT_NOT_NULL(test, strstr(cap.text, " thp_orders=64K,2M "));
	thp_orders_enabled = 0;
	emit_two_row_record();
	KUNIT_EXPECT_NOT_NULL(test, strstr(cap.text, " thp_orders=none "));
	thp_orders_enabled = saved;
}

static void benchrec_row_with_wrong_value_count_is_counted_and_reported(struct kunit *test)
{
	struct benchrec rec;

	shell_capture_start(&cap);
	benchrec_begin(&rec, "bad", "a[x] b[x]", NULL);
	benchrec_row(&rec, "%u", 1u);
	benchrec_end(&rec);
	shell_capture_stop();
	/* Printed as is, so the host tool sees and rejects the short row. */
	KUNIT_EXPECT_NOT_NULL(test, strstr(cap.text, "\n@row 1\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(cap.text, "benchrec_row: bad: 1 values for 2 columns"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(cap.text, "@end bad 1 "));
}

static struct kunit_case benchrec_test_cases[] = {
	KUNIT_CASE(fnv1a32_matches_published_vectors),
	KUNIT_CASE(benchrec_prints_lines_in_order_with_count_and_hash),
	KUNIT_CASE(benchrec_env_names_machine_and_config),
	KUNIT_CASE(benchrec_env_lists_enabled_folio_sizes),
	KUNIT_CASE(benchrec_row_with_wrong_value_count_is_counted_and_reported),
	{},
};

static struct kunit_suite benchrec_test_suite = {
	.name = "benchrec",
	.test_cases = benchrec_test_cases,
};
kunit_test_suite(benchrec_test_suite);
