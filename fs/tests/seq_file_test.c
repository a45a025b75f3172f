/*
 * seq_file: output past one page grows seq_fill's buffer as it is
 * printed (the show runs once) and comes out whole; a show's error fails
 * the fill; a buffer of the caller's own does not grow; seq_pad_to pads
 * to a column as /proc/PID/maps does.
 */
#include <ktest.h>
#include <mm.h>
#include <seq_file.h>

static unsigned int shows;

static int show_lines(struct seq_file *m, void *v)
{
	shows++;
	for (unsigned long i = 0; i < (unsigned long)(uintptr_t)v; i++)
		seq_printf(m, "line %05lu\n", i); /* 11 bytes */
	return 0;
}

/* Past SEQ_BUF_MAX in 64 KiB writes (few calls: the kernel's run is
 * emulated). */
static int show_too_much(struct seq_file *m, void *v)
{
	static const char chunk[64 << 10];

	(void)v;
	for (size_t done = 0; done <= SEQ_BUF_MAX; done += sizeof(chunk))
		seq_write(m, chunk, sizeof(chunk));
	return 0;
}

static int show_fails(struct seq_file *m, void *v)
{
	(void)m;
	(void)v;
	return -ENODEV;
}

/* seq_fill's buffers come from kmalloc, node 0's: the kernel's run. */
static bool skip_without_node0(struct kunit *test)
{
	if (NODE_DATA(0))
		return false;
	kunit_mark_skipped(test, "kmalloc needs node 0 (in-kernel only)");
	return true;
}

static void seq_fill_grows_past_one_page(struct kunit *test)
{
	struct seq_file m;

	if (skip_without_node0(test))
		return;
	shows = 0;
	KUNIT_ASSERT_EQ(test, seq_fill(&m, show_lines, (void *)1000ul), 0);
	KUNIT_EXPECT_EQ(test, shows, 1);
	KUNIT_EXPECT_EQ(test, m.count, 11000);
	KUNIT_EXPECT_EQ(test, m.size, 4 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, !memcmp(m.buf, "line 00000\n", 11));
	KUNIT_EXPECT_TRUE(test, !memcmp(m.buf + 4092, "line 00372\n", 11)); /* across 4096 */
	KUNIT_EXPECT_TRUE(test, !memcmp(m.buf + 10989, "line 00999\n", 11));
	seq_release_buf(&m);
	/* Past SEQ_BUF_MAX: -ENOMEM, nothing kept. */
	KUNIT_EXPECT_EQ(test, seq_fill(&m, show_too_much, NULL), -ENOMEM);
	KUNIT_EXPECT_NULL(test, m.buf);
	KUNIT_ASSERT_EQ(test, seq_fill(&m, show_lines, (void *)2ul), 0);
	KUNIT_EXPECT_EQ(test, m.size, PAGE_SIZE);
	seq_release_buf(&m);
}

static void seq_fill_returns_show_errors(struct kunit *test)
{
	struct seq_file m;

	if (skip_without_node0(test))
		return;
	KUNIT_EXPECT_EQ(test, seq_fill(&m, show_fails, NULL), -ENODEV);
}

static void seq_pad_to_pads_to_the_column(struct kunit *test)
{
	char buf[32];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };

	seq_puts(&m, "ab\n");
	seq_puts(&m, "cd");
	seq_pad_to(&m, 3, 6, ' ');
	seq_putc(&m, 'x');
	KUNIT_EXPECT_EQ(test, m.count, 11);
	KUNIT_EXPECT_TRUE(test, !memcmp(buf, "ab\ncd     x", 11));
	seq_puts(&m, "0123456789012345678901234567890123"); /* overflows */
	KUNIT_EXPECT_TRUE(test, seq_has_overflowed(&m));
}

static struct kunit_case seq_file_cases[] = {
	KUNIT_CASE(seq_fill_grows_past_one_page),
	KUNIT_CASE(seq_fill_returns_show_errors),
	KUNIT_CASE(seq_pad_to_pads_to_the_column),
	{},
};

static struct kunit_suite seq_file_suite = {
	.name = "seq_file",
	.test_cases = seq_file_cases,
};
kunit_test_suite(seq_file_suite);
