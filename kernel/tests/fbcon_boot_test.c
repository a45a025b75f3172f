/*
 * The boot console's deferred redraw (kernel/fbcon_boot.c): a scroll on
 * the GOP framebuffer leaves the screen to a timer, and the timer draws
 * it within a few ticks without anyone writing again.
 */
#include <arch.h>
#include <fbcon.h>
#include <ktest.h>
#include <sched.h>

static void a_scroll_is_drawn_by_the_timer(struct kunit *test)
{
	struct fbcon *fc = fbcon_boot_console();
	uint64_t deadline;

	if (!fc) {
		kunit_mark_skipped(test, "no framebuffer");
		return;
	}
	KUNIT_EXPECT_TRUE(test, fc->defer);
	/* As many line feeds as rows: the last one scrolls, wherever the
	 * insertion point was. */
	for (uint32_t row = 0; row < fc->rows; row++)
		fbcon_write(fc, "\n", 1);
	KUNIT_EXPECT_TRUE(test, fc->redraw_pending);
	deadline = arch_uptime_ns() + 2000 * 1000 * 1000ull;
	while (fc->redraw_pending && arch_uptime_ns() < deadline)
		schedule_timeout_ns(5 * 1000 * 1000);
	KUNIT_EXPECT_FALSE(test, fc->redraw_pending);
}

static struct kunit_case fbcon_boot_test_cases[] = {
	KUNIT_CASE(a_scroll_is_drawn_by_the_timer),
	{},
};

static struct kunit_suite fbcon_boot_test_suite = {
	.name = "fbcon_boot",
	.test_cases = fbcon_boot_test_cases,
};
kunit_test_suite(fbcon_boot_test_suite);
