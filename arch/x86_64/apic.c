/*
 * The local APIC and its timer, the kernel's tick (Linux:
 * arch/x86/kernel/apic/apic.c). The APIC is reached through its page at
 * IA32_APIC_BASE (xAPIC), or through MSRs where the firmware left x2APIC
 * mode on; it passes the 8259s' interrupts on in virtual-wire mode (irq.c
 * owns the PICs). The tick comes from the first of these that works:
 *   TSC-deadline  where CPUID.1:ECX[24] says so: each tick arms
 *                 IA32_TSC_DEADLINE one jiffy of TSC after the last deadline;
 *   one-shot      without TSC-deadline, where the TSC's rate is known:
 *                 the LAPIC timer counting down to the sooner of the next
 *                 tick (kept in TSC, as TSC-deadline's) and the next
 *                 hrtimer, bus clocks per jiffy measured against the TSC;
 *   periodic      the LAPIC timer reloading every lapic_timer_period bus
 *                 clocks (divided by 16), measured against the TSC, or
 *                 against the PIT when the TSC's rate is only a guess, and
 *                 with lapic=notscdeadline; hrtimers then run at the tick;
 *   the PIT       (irq.c) without a usable local APIC, or with nolapic_timer.
 * Every LAPIC mode ends in tick_handle_periodic (irq.c), as the PIT does;
 * TSC-deadline and one-shot also interrupt at each hrtimer's expiry.
 * Example: TSC at 2.6 GHz, CONFIG_HZ=100: deadlines 26,000,000 cycles
 * apart; QEMU's 1 GHz APIC bus: lapic_timer_period 10,000,000, TMICT 625,000.
 */
#include <arch.h>
#include <hrtimer.h>
#include <kernel_stat.h>
#include <timekeeping.h>
#include <asm/apicdef.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/processor.h>
#include "x86.h"

#define CALIBRATE_MS 20

enum lapic_timer_mode lapic_timer_mode;
uint32_t lapic_timer_period;
static volatile uint32_t *lapic_mmio;
static bool lapic_x2apic, lapic_usable;
static uint64_t tsc_per_jiffy, tsc_deadline;

uint32_t apic_read(uint32_t reg)
{
	if (lapic_x2apic)
		return (uint32_t)rdmsr(APIC_X2APIC_MSR + (reg >> 4));
	return lapic_mmio[reg / 4];
}

void apic_write(uint32_t reg, uint32_t v)
{
	if (lapic_x2apic)
		wrmsr(APIC_X2APIC_MSR + (reg >> 4), v);
	else
		lapic_mmio[reg / 4] = v;
}

/* Linux: apic_eoi. Ends the in-service fixed interrupt. ExtINT ones (the
 * PICs' through LINT0) are never in service here and take none. */
static void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

CMDLINE_KEY(nox2apic, "keep the local APIC in xAPIC (MMIO) mode even where the CPU has x2APIC");

/* Linux: x2apic_enable. The APIC must be enabled in xAPIC mode before
 * x2APIC mode may be entered (SDM vol. 3A, 11.12.5's state diagram). */
static void x2apic_enable(void)
{
	uint64_t base = rdmsr(MSR_IA32_APICBASE);

	if (!(base & X2APIC_ENABLE))
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE | X2APIC_ENABLE);
}

/* Linux: check_x2apic and try_to_enable_x2apic. x2APIC mode where the
 * CPU has it (IPIs are one MSR write, 32-bit APIC IDs), unless nox2apic;
 * a firmware that left it on keeps it on (leaving it needs a reset of
 * the APIC). */
static bool want_x2apic(uint64_t base)
{
	const char *arg = boot_cmdline_get(nox2apic);

	if (arg && arg[0])
		pr_err("cmdline: nox2apic takes no value; ignoring '=%s'\n", arg);
	if (base & X2APIC_ENABLE)
		return true;
	return cpu.x2apic && !arg;
}

/* The software enable, the task priority, the timer masked and stopped;
 * LINT0 passes the PICs' interrupts on (ExtINT) on the boot CPU only,
 * LINT1 is NMI everywhere (Linux: setup_local_APIC's LVT0/LVT1 rule).
 * The software enable comes first: while it is off, the LVT mask bits
 * cannot be cleared. */
static void lapic_setup(bool boot_cpu)
{
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_LVTT, APIC_LVT_MASKED | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, 0);
	apic_write(APIC_LVT0, boot_cpu ? APIC_DM_EXTINT : APIC_LVT_MASKED | APIC_DM_EXTINT);
	apic_write(APIC_LVT1, APIC_DM_NMI);
}

uint32_t read_apic_id(void)
{
	uint32_t id = apic_read(APIC_ID);

	return lapic_x2apic ? id : id >> 24;
}

bool lapic_x2apic_mode(void)
{
	return lapic_x2apic;
}

/* Linux: init_bsp_APIC and the boot CPU's setup_local_APIC. Whatever
 * timer the firmware ran is stopped. */
bool lapic_init(void)
{
	uint64_t base;

	if (!cpu.apic)
		return false;
	base = rdmsr(MSR_IA32_APICBASE);
	wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	lapic_x2apic = want_x2apic(base);
	if (lapic_x2apic)
		x2apic_enable();
	else
		lapic_mmio = ioremap(base & MSR_IA32_APICBASE_BASE, PAGE_SIZE);
	if (!APIC_INTEGRATED(apic_read(APIC_LVR))) {
		pr_warn("apic: version register reads %#x; no usable local APIC\n",
			apic_read(APIC_LVR));
		return false;
	}
	lapic_setup(true);
	lapic_usable = true;
	pr_info("apic: local APIC in %s mode, ID %u\n", lapic_x2apic ? "x2APIC" : "xAPIC",
		read_apic_id());
	return true;
}

void lapic_init_secondary(void)
{
	uint64_t base = rdmsr(MSR_IA32_APICBASE);

	wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	if (lapic_x2apic)
		x2apic_enable();
	lapic_setup(false);
}

bool lapic_present(void)
{
	return lapic_usable;
}

/* Linux: __default_send_IPI_dest_field and x2apic's __x2apic_send_IPI_dest.
 * xAPIC: the destination in ICR2's top byte, then the write of ICR's low
 * half sends; wait while the previous one is still pending. x2APIC: one
 * MSR write of both halves. */
void apic_icr_write(uint32_t low, uint32_t apic_id)
{
	if (lapic_x2apic) {
		/* The SDM asks for a fence before the ICR write in x2APIC
		 * mode: the MSR write is not serializing (Linux:
		 * weak_wrmsr_fence). */
		__asm__ volatile("mfence" ::: "memory");
		wrmsr(APIC_X2APIC_MSR + (APIC_ICR >> 4), ((uint64_t)apic_id << 32) | low);
		return;
	}
	while (apic_read(APIC_ICR) & APIC_ICR_BUSY)
		cpu_relax();
	apic_write(APIC_ICR2, apic_id << 24);
	apic_write(APIC_ICR, low);
}

void apic_send_IPI(uint32_t apic_id, unsigned int vector)
{
	apic_icr_write(APIC_DM_FIXED | vector, apic_id);
}

void apic_eoi_irq(void)
{
	apic_eoi();
}

/* Bus clocks / 16 since lapic_calibrate started the counter at the top. */
static uint64_t lapic_timer_elapsed(void)
{
	return 0xffffffffu - apic_read(APIC_TMCCT);
}

/* The count, and in *tsc the TSC halfway through reading it: an MMIO read
 * can take microseconds under an emulator. */
static uint64_t lapic_timer_read_tsc(uint64_t *tsc)
{
	uint64_t before = rdtsc(), count = lapic_timer_elapsed();

	*tsc = before + (rdtsc() - before) / 2;
	return count;
}

/*
 * Linux: calibrate_APIC_clock. Let the masked timer count down for
 * CALIBRATE_MS of TSC (the PIT's channel 2 when the TSC's rate is a
 * guess). Return: bus clocks per jiffy, 0 if the timer did not count.
 */
static uint32_t lapic_calibrate(void)
{
	uint64_t t0, t1, c0, c1, per_sec;

	apic_write(APIC_LVTT, APIC_LVT_MASKED | APIC_LVT_TIMER_ONESHOT | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_TMICT, 0xffffffff);
	if (tsc_rate_known) {
		c0 = lapic_timer_read_tsc(&t0);
		do
			t1 = rdtsc();
		while (t1 - t0 < tsc_hz / (1000 / CALIBRATE_MS));
		c1 = lapic_timer_read_tsc(&t1);
		/* (c1 - c0) < 2^27 even at a 100 GHz bus: no overflow. */
		per_sec = (c1 - c0) * tsc_hz / (t1 - t0);
	} else {
		per_sec = pit_measure_rate(lapic_timer_elapsed);
	}
	apic_write(APIC_TMICT, 0);
	return (uint32_t)(per_sec * APIC_DIVISOR / CONFIG_HZ);
}

static void lapic_timer_start_periodic(void)
{
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_PERIODIC | LOCAL_TIMER_VECTOR);
	apic_write(APIC_TMICT, lapic_timer_period / APIC_DIVISOR);
}

/* Count down to @deadline_tsc, at most a jiffy ahead; rounded up, so the
 * interrupt does not come before it (TMICT 0 would stop the timer). */
static void lapic_oneshot_at(uint64_t deadline_tsc)
{
	uint64_t now = rdtsc(), per_jiffy = lapic_timer_period / APIC_DIVISOR;
	uint64_t delta = (int64_t)(deadline_tsc - now) > 0 ? deadline_tsc - now : 0;

	delta = MIN(delta, tsc_per_jiffy);
	apic_write(APIC_TMICT,
		   (uint32_t)MAX((delta * per_jiffy + tsc_per_jiffy - 1) / tsc_per_jiffy, 1));
}

/* Linux: lapic_next_event / lapic_next_deadline, the device's next event. */
static void lapic_program(uint64_t deadline_tsc)
{
	if (lapic_timer_mode == LAPIC_TIMER_TSC_DEADLINE)
		wrmsr(MSR_IA32_TSC_DEADLINE, deadline_tsc);
	else if (lapic_timer_mode == LAPIC_TIMER_ONESHOT)
		lapic_oneshot_at(deadline_tsc);
}

static void lapic_timer_start_oneshot(void)
{
	tsc_per_jiffy = tsc_hz / CONFIG_HZ;
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, APIC_LVT_TIMER_ONESHOT | LOCAL_TIMER_VECTOR);
	tsc_deadline = rdtsc() + tsc_per_jiffy;
	apic_write(APIC_TMICT, lapic_timer_period / APIC_DIVISOR);
}

static void lapic_timer_start_deadline(void)
{
	tsc_per_jiffy = tsc_hz / CONFIG_HZ;
	apic_write(APIC_LVTT, APIC_LVT_TIMER_TSCDEADLINE | LOCAL_TIMER_VECTOR);
	/* In xAPIC mode the LVT write (MMIO) and the MSR write below are not
	 * ordered; the SDM's TSC-deadline section names MFENCE for it. */
	__asm__ volatile("mfence" ::: "memory");
	tsc_deadline = rdtsc() + tsc_per_jiffy;
	wrmsr(MSR_IA32_TSC_DEADLINE, tsc_deadline);
}

uint64_t tsc_deadline_after(uint64_t last, uint64_t now, uint64_t period)
{
	uint64_t next = last + period;

	return (int64_t)(next - now) > 0 ? next : now + period;
}

/* The TSC value at @expires (ns since boot), UINT64_MAX if no sooner
 * than a tick from now (the tick's deadline comes first anyway), so the
 * product below stays under 2^64. */
static uint64_t hrtimer_expires_to_tsc(int64_t expires)
{
	int64_t delta = expires - (int64_t)arch_uptime_ns();

	if (expires == INT64_MAX || delta >= (int64_t)(NSEC_PER_SEC / CONFIG_HZ))
		return UINT64_MAX;
	if (delta <= 0)
		return rdtsc();
	return rdtsc() + (uint64_t)delta * tsc_hz / NSEC_PER_SEC;
}

/* TSC-deadline and one-shot modes: one event serves the tick and the
 * hrtimers, the sooner of the two (Linux: the tick being one more
 * hrtimer, tick_sched_timer). */
static bool lapic_oneshot_mode(void)
{
	return lapic_timer_mode == LAPIC_TIMER_TSC_DEADLINE ||
	       lapic_timer_mode == LAPIC_TIMER_ONESHOT;
}

static void lapic_next_deadline(void)
{
	lapic_program(MIN(tsc_deadline, hrtimer_expires_to_tsc(hrtimer_next_event())));
}

void arch_clockevent_program(int64_t expires)
{
	/* Periodic or PIT ticks: the hrtimers run at the next tick. */
	if (lapic_oneshot_mode())
		lapic_program(MIN(tsc_deadline, hrtimer_expires_to_tsc(expires)));
}

/* With one event for both, a tick is due once the TSC passed the tick's
 * deadline; else the interrupt is an hrtimer's (Linux: hrtimer_interrupt). */
void local_apic_timer_interrupt(struct trap_frame *frame)
{
	bool tick = true;

	if (lapic_oneshot_mode()) {
		uint64_t now = rdtsc();

		tick = (int64_t)(now - tsc_deadline) >= 0;
		if (tick)
			tsc_deadline = tsc_deadline_after(tsc_deadline, now, tsc_per_jiffy);
	}
	apic_eoi();
	kstat_arch_irqs++; /* Linux: LOC, no IRQ line */
	if (tick)
		tick_handle_periodic(frame);
	else
		hrtimer_interrupt();
	if (lapic_oneshot_mode())
		lapic_next_deadline();
}

CMDLINE_KEY(lapic, "notscdeadline: the LAPIC timer ticks in periodic mode, not TSC-deadline");
CMDLINE_KEY(nolapic_timer, "tick from the PIT, not the local APIC timer");

/* Linux: parse_lapic. Return: whether lapic=notscdeadline was given. */
static bool notscdeadline(void)
{
	const char *arg = boot_cmdline_get(lapic);

	if (arg && strcmp(arg, "notscdeadline") != 0)
		pr_err("cmdline: lapic=%s is not notscdeadline; ignored\n", arg);
	return arg && strcmp(arg, "notscdeadline") == 0;
}

/* Linux: parse_nolapic_timer. */
static bool nolapic_timer(void)
{
	const char *arg = boot_cmdline_get(nolapic_timer);

	if (arg && arg[0])
		pr_err("cmdline: nolapic_timer takes no value; ignoring '=%s'\n", arg);
	return arg != NULL;
}

/* Linux: setup_boot_APIC_clock. TSC-deadline needs the TSC's rate: a
 * guessed one would tick at a guessed rate. Both keys are read first, so
 * a bad value is reported whichever clock ends up ticking. */
bool apic_timer_init(const char **why_not)
{
	bool refused = nolapic_timer(), periodic = notscdeadline();
	bool deadline = !periodic && cpu.tsc_deadline && tsc_rate_known;
	uint64_t bus_hz;

	*why_not = refused ? "nolapic_timer" : !lapic_usable ? "no usable local APIC" : NULL;
	if (*why_not)
		return false;
	if (deadline) {
		lapic_timer_start_deadline();
		lapic_timer_mode = LAPIC_TIMER_TSC_DEADLINE;
		pr_info("apic: tick from TSC-deadline at %d Hz\n", CONFIG_HZ);
		return true;
	}
	lapic_timer_period = lapic_calibrate();
	if (lapic_timer_period < APIC_DIVISOR) {
		*why_not = "the LAPIC timer does not count";
		return false;
	}
	/* One-shot needs the TSC's rate to keep the tick's pace. */
	if (tsc_rate_known && !periodic) {
		lapic_timer_start_oneshot();
		lapic_timer_mode = LAPIC_TIMER_ONESHOT;
	} else {
		lapic_timer_start_periodic();
		lapic_timer_mode = LAPIC_TIMER_PERIODIC;
	}
	bus_hz = (uint64_t)lapic_timer_period * CONFIG_HZ;
	pr_info("apic: tick from the LAPIC timer (%s, bus %llu MHz) at %d Hz\n",
		lapic_timer_mode == LAPIC_TIMER_ONESHOT ? "one-shot" : "periodic",
		(unsigned long long)((bus_hz + 500000) / 1000000), CONFIG_HZ);
	return true;
}
