/* printk's byte ring (on private instances) and printk's line format. */
#include <kernel.h>
#include <ktest.h>

static size_t read_all(const struct log_ring *r, uint64_t seq, char *out, size_t size)
{
	size_t n = 0, got;

	while ((got = log_ring_read(r, &seq, out + n, size - 1 - n)) > 0)
		n += got;
	out[n] = '\0';
	return n;
}

static void log_ring_reads_back_what_was_appended(struct kunit *test)
{
	char buf[64], out[64];
	struct log_ring r = { .buf = buf, .size = sizeof(buf) };

	log_ring_append(&r, "one\n", 4);
	log_ring_append(&r, "two\n", 4);
	KUNIT_EXPECT_EQ(test, read_all(&r, 0, out, sizeof(out)), 8);
	KUNIT_EXPECT_STREQ(test, out, "one\ntwo\n");
	KUNIT_EXPECT_EQ(test, read_all(&r, 4, out, sizeof(out)), 4);
	KUNIT_EXPECT_STREQ(test, out, "two\n");
}

/* size 16: after "aaaaaaaaa\n" (10) + "bbbbbbbbb\n" (10) the ring holds the
 * last 16 bytes, "aaaa\nbbbbbbbbb\n", whose first whole line is the b's. */
static void log_ring_wraps_to_the_oldest_whole_line(struct kunit *test)
{
	char buf[16], out[64];
	struct log_ring r = { .buf = buf, .size = sizeof(buf) };

	log_ring_append(&r, "aaaaaaaaa\n", 10);
	log_ring_append(&r, "bbbbbbbbb\n", 10);
	KUNIT_EXPECT_EQ(test, log_ring_first_seq(&r), 10);
	KUNIT_EXPECT_EQ(test, read_all(&r, 0, out, sizeof(out)), 10);
	KUNIT_EXPECT_STREQ(test, out, "bbbbbbbbb\n");
}

static void log_ring_read_respects_the_callers_buffer(struct kunit *test)
{
	char buf[32], out[4];
	struct log_ring r = { .buf = buf, .size = sizeof(buf) };
	uint64_t seq = 0;

	log_ring_append(&r, "0123456789\n", 11);
	KUNIT_EXPECT_EQ(test, log_ring_read(&r, &seq, out, sizeof(out)), 4);
	KUNIT_EXPECT_EQ(test, seq, 4);
	KUNIT_EXPECT_EQ(test, out[3], '3');
	KUNIT_EXPECT_EQ(test, log_ring_read(&r, &seq, out, sizeof(out)), 4);
	KUNIT_EXPECT_EQ(test, out[0], '4');
}

static char log_copy[1u << CONFIG_LOG_BUF_SHIFT];

/* Find the kernel log's current end, so a test reads only its own lines. */
static uint64_t log_end(void)
{
	uint64_t seq = 0;

	while (printk_log_read(&seq, log_copy, sizeof(log_copy)) > 0)
		;
	return seq;
}

static void printk_writes_one_timestamped_line_per_message(struct kunit *test)
{
	uint64_t seq = log_end();
	size_t n;

	printk_set_console_loglevel(0); /* keep test noise off the consoles */
	pr_info("ktest marker %d", 42);
	printk(KERN_DEBUG "second\nmarker\n");
	printk_set_console_loglevel(7);
	n = printk_log_read(&seq, log_copy, sizeof(log_copy) - 1);
	log_copy[n] = '\0';
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_EXPECT_EQ(test, log_copy[0], '[');
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_copy, "] ktest marker 42\n["));
	KUNIT_EXPECT_NOT_NULL(test, strstr(log_copy, "] second\nmarker\n"));
	KUNIT_EXPECT_NULL(test, strchr(log_copy, '\001')); /* level prefix stripped */
}

static void printk_ends_an_overlong_message_with_a_newline(struct kunit *test)
{
	static char big[2000];
	uint64_t seq = log_end();
	size_t n;

	memset(big, 'y', sizeof(big) - 1);
	printk_set_console_loglevel(0);
	printk("%s", big);
	printk_set_console_loglevel(7);
	n = printk_log_read(&seq, log_copy, sizeof(log_copy));
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_EXPECT_LT(test, n, sizeof(big));
	KUNIT_EXPECT_EQ(test, log_copy[n - 1], '\n');
}

static struct kunit_case printk_cases[] = {
	KUNIT_CASE(log_ring_reads_back_what_was_appended),
	KUNIT_CASE(log_ring_wraps_to_the_oldest_whole_line),
	KUNIT_CASE(log_ring_read_respects_the_callers_buffer),
	KUNIT_CASE(printk_writes_one_timestamped_line_per_message),
	KUNIT_CASE(printk_ends_an_overlong_message_with_a_newline),
	{},
};

static struct kunit_suite printk_suite = {
	.name = "printk",
	.test_cases = printk_cases,
};
kunit_test_suite(printk_suite);
