/*
 * The ktest runner: walks the suites registered in the "ktest_suites"
 * section and prints KTAP version 1 in KUnit's shape, one nested subtest
 * per suite:
 *     KTAP version 1
 *     1..2
 *         KTAP version 1
 *         # Subtest: format
 *         1..3
 *         ok 1 formats_decimal
 *     ...
 *     ok 1 format
 * A failed expectation prints "# case: EXPECTATION FAILED at file:line"
 * and its message as diagnostic lines before the case's result.
 */
#include <ktest.h>
#include <kernel.h>

extern const struct kunit_suite *const __start_ktest_suites[];
extern const struct kunit_suite *const __stop_ktest_suites[];

int ktest_strcmp(const char *a, const char *b)
{
	return strcmp(a, b);
}

void kunit_fail(struct kunit *test, const char *file, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	char *p = msg;

	test->failed = true;
	ktest_print("    # %s: EXPECTATION FAILED at %s:%d\n", test->name, file, line);
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* One diagnostic line per message line, so KTAP stays well-formed. */
	while (*p) {
		char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		ktest_print("    # %.*s\n", len, p);
		p += len + (nl ? 1 : 0);
	}
}

/* Quote s as a C string literal into buf, truncating long strings. */
static const char *escape(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	if (!s)
		return "(null)";
	buf[n++] = '"';
	for (; *s && n + 8 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '\n')
			n += ksnprintf(buf + n, size - n, "\\n");
		else if (c == '"' || c == '\\')
			n += ksnprintf(buf + n, size - n, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			n += ksnprintf(buf + n, size - n, "\\x%02x", c);
		else
			buf[n++] = c;
	}
	ksnprintf(buf + n, size - n, *s ? "\"..." : "\"");
	return buf;
}

void kunit_fail_streq(struct kunit *test, const char *file, int line, const char *expr_a,
		      const char *expr_b, const char *a, const char *b)
{
	char qa[160], qb[160];

	kunit_fail(test, file, line, "Expected %s == %s, but\n    %s == %s\n    %s == %s", expr_a,
		   expr_b, expr_a, escape(qa, sizeof(qa), a), expr_b, escape(qb, sizeof(qb), b));
}

void kunit_mark_skipped(struct kunit *test, const char *reason)
{
	test->skipped = true;
	test->skip_reason = reason;
}

struct suite_counts {
	int passed, failed, skipped;
};

static void run_case(const struct kunit_suite *suite, struct kunit_case *c, int index,
		     struct suite_counts *counts)
{
	struct kunit test = { .name = c->name };

	if (suite->init && suite->init(&test) != 0) {
		kunit_fail(&test, __FILE__, __LINE__, "suite init failed");
	} else {
		/* An init that marked the case skipped (no memory for it,
		 * say) has decided: the body does not run. */
		if (!test.skipped && !test.failed)
			c->run_case(&test);
		if (suite->exit)
			suite->exit(&test);
	}
	if (test.failed) {
		counts->failed++;
		ktest_print("    not ok %d %s\n", index, c->name);
	} else if (test.skipped) {
		counts->skipped++;
		ktest_print("    ok %d %s # SKIP %s\n", index, c->name,
			    test.skip_reason ? test.skip_reason : "");
	} else {
		counts->passed++;
		ktest_print("    ok %d %s\n", index, c->name);
	}
}

static int run_suite(const struct kunit_suite *suite, int index)
{
	struct suite_counts counts = { 0 };
	int ncases = 0;

	while (suite->test_cases[ncases].run_case)
		ncases++;
	ktest_print("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", suite->name, ncases);
	for (int i = 0; i < ncases; i++)
		run_case(suite, &suite->test_cases[i], i + 1, &counts);
	ktest_print("# %s: pass:%d fail:%d skip:%d total:%d\n", suite->name, counts.passed,
		    counts.failed, counts.skipped, ncases);
	ktest_print("%s %d %s\n", counts.failed ? "not ok" : "ok", index, suite->name);
	return counts.failed;
}

static bool suite_selected(const struct kunit_suite *suite, const char *name)
{
	return !name || strcmp(suite->name, name) == 0;
}

int ktest_run(const char *name)
{
	const struct kunit_suite *const *s;
	int nsuites = 0, index = 0, failed = 0;

	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		nsuites += suite_selected(*s, name);
	if (nsuites == 0)
		return -1;
	ktest_print("KTAP version 1\n1..%d\n", nsuites);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (suite_selected(*s, name))
			failed += run_suite(*s, ++index);
	return failed;
}

void ktest_list(void)
{
	for (const struct kunit_suite *const *s = __start_ktest_suites; s < __stop_ktest_suites;
	     s++)
		ktest_print("%s\n", (*s)->name);
}
