/*
 * The CMOS real-time clock (MC146818; Linux: drivers/rtc/rtc-mc146818-lib.c
 * mc146818_get_time, kernel/time/time.c mktime64). Registers through
 * index port 0x70 / data port 0x71: 0 seconds, 2 minutes, 4 hours,
 * 7 day, 8 month, 9 year (two digits), 0x0a status A (bit 7: update in
 * progress), 0x0b status B (bit 2: binary, else BCD; bit 1: 24-hour,
 * else bit 7 of the hour is PM). Example: BCD 0x23 0x59 0x59 on 0x24-12-31
 * is 2024-12-31 23:59:59 = 1735689599.
 */
#include <timekeeping.h>
#include <asm/io.h>

#define RTC_INDEX 0x70
#define RTC_DATA 0x71
#define RTC_FREQ_SELECT 0x0a
#define RTC_UIP 0x80
#define RTC_CONTROL 0x0b
#define RTC_DM_BINARY 0x04
#define RTC_24H 0x02

static uint8_t cmos_read(uint8_t reg)
{
	outb(RTC_INDEX, reg);
	return inb(RTC_DATA);
}

static unsigned int bcd2bin(uint8_t v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

/* Linux: mktime64, Gauss's algorithm; months counted from March so the
 * leap day is last. */
static int64_t mktime64(unsigned int year, unsigned int mon, unsigned int day, unsigned int hour,
			unsigned int min, unsigned int sec)
{
	if ((int)(mon -= 2) <= 0) {
		mon += 12;
		year -= 1;
	}
	return ((((int64_t)(year / 4 - year / 100 + year / 400 + 367 * mon / 12 + day) +
		  year * 365 - 719499) *
			 24 +
		 hour) * 60 +
		min) * 60 +
	       sec;
}

/* Registers 0..9 once no update is running; the seconds read again to
 * make sure none started in between. */
static bool read_regs(uint8_t r[10])
{
	for (int tries = 0; tries < 1000000; tries++) {
		if (cmos_read(RTC_FREQ_SELECT) & RTC_UIP)
			continue;
		for (int i = 0; i < 10; i++)
			r[i] = cmos_read((uint8_t)i);
		if (!(cmos_read(RTC_FREQ_SELECT) & RTC_UIP) && cmos_read(0) == r[0])
			return true;
	}
	return false;
}

int64_t arch_rtc_read_seconds(void)
{
	uint8_t r[10], ctl;
	unsigned int sec, min, hour, day, mon, year;
	bool pm;

	if (!read_regs(r))
		return -1;
	ctl = cmos_read(RTC_CONTROL);
	pm = !(ctl & RTC_24H) && (r[4] & 0x80);
	r[4] &= 0x7f;
	if (ctl & RTC_DM_BINARY) {
		sec = r[0], min = r[2], hour = r[4], day = r[7], mon = r[8], year = r[9];
	} else {
		sec = bcd2bin(r[0]), min = bcd2bin(r[2]), hour = bcd2bin(r[4]);
		day = bcd2bin(r[7]), mon = bcd2bin(r[8]), year = bcd2bin(r[9]);
	}
	if (!(ctl & RTC_24H))
		hour = hour % 12 + (pm ? 12 : 0);
	/* Two digits: 70..99 are 19xx, as Linux's mc146818 without a century. */
	year += year < 70 ? 2000 : 1900;
	if (!mon || mon > 12 || !day || day > 31 || hour > 23 || min > 59 || sec > 59)
		return -1;
	return mktime64(year, mon, day, hour, min, sec);
}
