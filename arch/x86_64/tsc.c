/*
 * The TSC as the kernel's clock. Its rate is measured against the PIT
 * (1.193182 MHz, the one timer every PC and QEMU has): channel 2 counts
 * down 50 ms with its gate opened through port 0x61, and we read the TSC
 * at both ends. The best of three runs is kept (an interruption only
 * makes a run longer). Under emulation the TSC follows the emulator's
 * virtual clock, and benchmarks say so. The same PIT window calibrates
 * the local APIC timer when the TSC's rate is only a guess (apic.c).
 */
#include <arch.h>
#include <asm/i8253.h>
#include <asm/io.h>
#include "x86.h"

#define PORT_B 0x61 /* bit 0: channel 2 gate, bit 1: speaker, bit 5: OUT2 */
#define CALIBRATE_MS 50

uint64_t tsc_hz;
bool tsc_rate_known;
static uint64_t tsc_at_boot;

uint64_t pit_measure_rate(uint64_t (*read_counter)(void))
{
	uint16_t count = PIT_TICK_RATE * CALIBRATE_MS / 1000;
	uint64_t start, end;
	uint32_t spins = 0;

	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01); /* gate on, speaker off */
	outb(PIT_MODE, 0xb0);			    /* channel 2, lo/hi byte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	start = read_counter();
	while (!(inb(PORT_B) & 0x20)) {
		if (++spins > 100000000)
			return 0; /* OUT2 never rose: no working PIT */
	}
	end = read_counter();
	return (end - start) * 1000 / CALIBRATE_MS;
}

static uint64_t read_tsc(void)
{
	return rdtsc();
}

void tsc_calibrate(void)
{
	uint64_t best = 0;

	tsc_at_boot = rdtsc();
	for (int i = 0; i < 3; i++) {
		uint64_t hz = pit_measure_rate(read_tsc);

		if (hz && (!best || hz < best))
			best = hz;
	}
	if (!best && cpu.tsc_crystal_hz && cpu.tsc_ratio_den)
		best = (uint64_t)cpu.tsc_crystal_hz * cpu.tsc_ratio_num / cpu.tsc_ratio_den;
	tsc_rate_known = best != 0;
	if (!best) {
		pr_warn("tsc: no PIT and no CPUID 0x15 rate; assuming 1 GHz\n");
		best = 1000000000;
	}
	tsc_hz = best;
}

uint64_t arch_cycles(void)
{
	return rdtsc();
}

uint64_t arch_cycles_per_sec(void)
{
	return tsc_hz;
}

uint64_t arch_uptime_ns(void)
{
	uint64_t c;

	if (!tsc_hz)
		return 0;
	c = rdtsc() - tsc_at_boot;
	/* Split to avoid overflowing 64 bits: (c % hz) * 1e9 < 2^64 for
	 * any hz below 18 GHz. */
	return c / tsc_hz * 1000000000ull + c % tsc_hz * 1000000000ull / tsc_hz;
}

void udelay(uint64_t us)
{
	uint64_t start = arch_uptime_ns();

	if (!tsc_hz) { /* not calibrated: ~1 us per port 0x80 write */
		for (uint64_t i = 0; i < us; i++)
			io_delay();
		return;
	}
	while (arch_uptime_ns() - start < us * 1000)
		__asm__ volatile("pause");
}

void mdelay(unsigned int ms)
{
	udelay(ms * 1000ull);
}
