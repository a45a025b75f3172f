/*
 * The tick as the CPU sees it (in-kernel only): the clock apic.c chose
 * is the one the CPU and the command line call for, its registers say
 * so, the PIT's channel 0 is quiet unless it is the tick, and jiffies
 * advance at CONFIG_HZ measured against the TSC, spinning and in a hlt
 * loop. Rates are measured over MEASURE_MS, up to three times until one
 * run is close: a busy host running the emulator can only lose ticks,
 * never add one, so a second clock ticking as well fails every run.
 */
#include <arch.h>
#include <asm/apicdef.h>
#include <asm/i8253.h>
#include <asm/io.h>
#include <ktest.h>
#include "../x86.h"

#define MEASURE_MS 200
#define PIC1_DATA 0x21 /* the master PIC's mask register: bit 0 is IRQ 0 */

static bool interrupts_enabled(void)
{
	unsigned long flags = arch_irq_save();

	arch_irq_restore(flags);
	return flags & (1ul << 9);
}

static enum lapic_timer_mode expected_mode(void)
{
	const char *lapic = cmdline_get(&boot_cmdline, "lapic");

	if (!cpu.apic || cmdline_get(&boot_cmdline, "nolapic_timer"))
		return LAPIC_TIMER_OFF;
	if (lapic && !strcmp(lapic, "notscdeadline"))
		return LAPIC_TIMER_PERIODIC;
	if (!tsc_rate_known)
		return LAPIC_TIMER_PERIODIC;
	return cpu.tsc_deadline ? LAPIC_TIMER_TSC_DEADLINE : LAPIC_TIMER_ONESHOT;
}

static void tick_source_follows_the_cpu_and_the_command_line(struct kunit *test)
{
	static const char *const names[] = { "the PIT", "the LAPIC timer (periodic)",
					     "TSC-deadline", "the LAPIC timer (one-shot)" };

	ktest_print("    # %s: the tick is %s\n", test->name, names[lapic_timer_mode]);
	KUNIT_EXPECT_EQ(test, lapic_timer_mode, expected_mode());
}

static void lapic_timer_registers_match_the_mode(struct kunit *test)
{
	uint32_t lvtt;

	if (!cpu.apic) {
		kunit_mark_skipped(test, "no local APIC");
		return;
	}
	lvtt = apic_read(APIC_LVTT);
	if (lapic_timer_mode == LAPIC_TIMER_OFF) {
		KUNIT_EXPECT_TRUE(test, lvtt & APIC_LVT_MASKED);
		return;
	}
	KUNIT_EXPECT_EQ(test, lvtt & APIC_VECTOR_MASK, LOCAL_TIMER_VECTOR);
	KUNIT_EXPECT_FALSE(test, lvtt & APIC_LVT_MASKED);
	if (lapic_timer_mode == LAPIC_TIMER_TSC_DEADLINE) {
		unsigned long flags = arch_irq_save();
		uint64_t deadline = rdmsr(MSR_IA32_TSC_DEADLINE), now = rdtsc();

		arch_irq_restore(flags);
		KUNIT_EXPECT_EQ(test, lvtt & APIC_LVT_TIMER_MASK, APIC_LVT_TIMER_TSCDEADLINE);
		/* Armed at most one jiffy ahead, or 0: fired, the interrupt pending. */
		KUNIT_EXPECT_LE(test, deadline ? deadline - now : 0, tsc_hz / CONFIG_HZ);
		return;
	}
	KUNIT_EXPECT_EQ(test, apic_read(APIC_TDCR) & 0xb, APIC_TDR_DIV_16);
	if (lapic_timer_mode == LAPIC_TIMER_ONESHOT) {
		/* Counting down to the next event, at most a jiffy away (a
		 * reload after the tick or an hrtimer rounds up by one). */
		KUNIT_EXPECT_EQ(test, lvtt & APIC_LVT_TIMER_MASK, APIC_LVT_TIMER_ONESHOT);
		KUNIT_EXPECT_LE(test, apic_read(APIC_TMICT), lapic_timer_period / APIC_DIVISOR + 1);
		KUNIT_EXPECT_GT(test, apic_read(APIC_TMICT), 0);
	} else {
		KUNIT_EXPECT_EQ(test, lvtt & APIC_LVT_TIMER_MASK, APIC_LVT_TIMER_PERIODIC);
		KUNIT_EXPECT_EQ(test, apic_read(APIC_TMICT), lapic_timer_period / APIC_DIVISOR);
	}
	/* A bus between 1 MHz and 10 GHz: the calibration measured something. */
	KUNIT_EXPECT_GE(test, (uint64_t)lapic_timer_period * CONFIG_HZ, 1000000);
	KUNIT_EXPECT_LE(test, (uint64_t)lapic_timer_period * CONFIG_HZ, 10000000000ull);
}

/* The 8254's read-back command, status only, channel 0:
 * 11 (read-back) 1 (no count latch) 0 (latch status) 001 (channel 0) 0.
 * Status byte: bit 7 OUT, bit 6 null count, bits 5-4 access, 3-1 mode, 0 BCD. */
static unsigned pit_channel0_mode(void)
{
	outb(PIT_MODE, 0xe2);
	return (inb(PIT_CH0) >> 1) & 7;
}

static void pit_channel0_ticks_only_without_the_lapic_timer(struct kunit *test)
{
	unsigned long flags = arch_irq_save();
	bool irq0_masked = inb(PIC1_DATA) & 1;
	unsigned mode = pit_channel0_mode();

	arch_irq_restore(flags);
	if (lapic_timer_mode == LAPIC_TIMER_OFF) {
		KUNIT_EXPECT_FALSE(test, irq0_masked);
		KUNIT_EXPECT_EQ(test, mode, 2); /* rate generator */
	} else {
		KUNIT_EXPECT_TRUE(test, irq0_masked);
		KUNIT_EXPECT_EQ(test, mode, 0); /* one shot, long spent */
	}
}

struct tick_run {
	uint64_t ticks, expected, wakeups;
};

/* One MEASURE_MS window of TSC, spinning or halting between ticks. */
static struct tick_run measure_ticks(bool halt)
{
	uint64_t window = tsc_hz / (1000 / MEASURE_MS), t0, t1, j0;
	struct tick_run r = { 0 };

	j0 = jiffies;
	t0 = rdtsc();
	while ((t1 = rdtsc()) - t0 < window) {
		if (halt) {
			arch_idle();
			r.wakeups++;
		}
	}
	r.ticks = jiffies - j0;
	r.expected = (t1 - t0) * CONFIG_HZ / tsc_hz;
	return r;
}

static uint64_t distance(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

static bool close_to_hz(struct tick_run r)
{
	return distance(r.ticks, r.expected) <= r.expected / 10 + 1;
}

/* The first run within 10% (and a tick) of CONFIG_HZ, else the closest
 * of three. */
static struct tick_run measure_best(struct kunit *test, bool halt)
{
	struct tick_run best = { 0 };

	for (int i = 0; i < 3 && (i == 0 || !close_to_hz(best)); i++) {
		struct tick_run r = measure_ticks(halt);

		ktest_print("    # %s: %llu ticks in %d ms (%llu expected)", test->name,
			    (unsigned long long)r.ticks, MEASURE_MS,
			    (unsigned long long)r.expected);
		ktest_print(halt ? ", %llu wake-ups from hlt\n" : "\n",
			    (unsigned long long)r.wakeups);
		if (i == 0 || distance(r.ticks, r.expected) < distance(best.ticks, best.expected))
			best = r;
	}
	return best;
}

/*
 * Spinning with interrupts on. Never more ticks than CONFIG_HZ gives (a
 * second clock would double them). Never fewer on real hardware; under
 * an emulator a spinning vCPU keeps a host core busy, and on a loaded
 * host the thread that fires the emulated timer can wait past a period:
 * QEMU then drops the tick (seen in make test: 9 of 20 under TCG, while
 * the hlt loop below, which frees the core, kept 20). There the tick
 * must only reach a busy CPU at all.
 */
static void tick_advances_jiffies_at_config_hz(struct kunit *test)
{
	struct tick_run r;

	KUNIT_ASSERT_TRUE(test, interrupts_enabled());
	r = measure_best(test, false);
	KUNIT_EXPECT_LE(test, r.ticks, r.expected + r.expected / 10 + 1);
	if (cpu.hypervisor)
		KUNIT_EXPECT_GE(test, r.ticks, 1);
	else
		KUNIT_EXPECT_LE(test, distance(r.ticks, r.expected), r.expected / 10 + 1);
}

/* The rate check that holds under an emulator too: halted, the vCPU
 * leaves the host core to the emulator's timer. */
static void hlt_loop_wakes_on_the_tick(struct kunit *test)
{
	uint64_t j0 = jiffies, t0 = rdtsc();
	struct tick_run r;

	KUNIT_ASSERT_TRUE(test, interrupts_enabled());
	/* Spin first: with no tick, the hlt below would never return. */
	while (jiffies == j0 && rdtsc() - t0 < 5 * tsc_hz / CONFIG_HZ)
		;
	KUNIT_ASSERT_NE(test, jiffies, j0);
	r = measure_best(test, true);
	KUNIT_EXPECT_LE(test, distance(r.ticks, r.expected), r.expected / 10 + 1);
	/* The hlts ended on the ticks: about one wake-up each (a tick that
	 * comes between two hlts wakes none; other interrupts add some). */
	KUNIT_EXPECT_GE(test, r.wakeups, r.ticks / 2);
}

static void tsc_deadline_keeps_the_pace_and_drops_missed_ticks(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, tsc_deadline_after(1000, 1200, 1000), 2000);
	KUNIT_EXPECT_EQ(test, tsc_deadline_after(1000, 1999, 1000), 2000);
	/* Due now or passed: one period from now, no burst of late ticks. */
	KUNIT_EXPECT_EQ(test, tsc_deadline_after(1000, 2000, 1000), 3000);
	KUNIT_EXPECT_EQ(test, tsc_deadline_after(1000, 4500, 1000), 5500);
}

static struct kunit_case tick_cases[] = {
	KUNIT_CASE(tick_source_follows_the_cpu_and_the_command_line),
	KUNIT_CASE(lapic_timer_registers_match_the_mode),
	KUNIT_CASE(pit_channel0_ticks_only_without_the_lapic_timer),
	KUNIT_CASE(tick_advances_jiffies_at_config_hz),
	KUNIT_CASE(hlt_loop_wakes_on_the_tick),
	KUNIT_CASE(tsc_deadline_keeps_the_pace_and_drops_missed_ticks),
	{},
};

static struct kunit_suite tick_suite = {
	.name = "x86_tick",
	.test_cases = tick_cases,
};
kunit_test_suite(tick_suite);
