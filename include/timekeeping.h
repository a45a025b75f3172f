/*
 * Time for programs (Linux: include/linux/timekeeping.h, kernel/time/):
 * CLOCK_MONOTONIC is the TSC since boot (arch_uptime_ns), CLOCK_REALTIME
 * that plus the CMOS clock's reading, taken once at the first use. A
 * program's CPU time is the time since its exec. Example: RTC 12:00:00
 * read at uptime 2 s; at uptime 5.5 s, CLOCK_REALTIME says 12:00:03.5.
 * kernel/time.c serves the clock and sleep system calls over these.
 */
#ifndef FOLIUM_TIMEKEEPING_H
#define FOLIUM_TIMEKEEPING_H

#include <kernel.h>
#include <errno.h>

/* Not in <errno.h> yet (Linux values). */
#ifndef EINTR
#define EINTR 4
#endif
#ifndef EOPNOTSUPP
#define EOPNOTSUPP 95
#endif

#define NSEC_PER_SEC 1000000000ull
#define NSEC_PER_USEC 1000ull
#define TICK_NSEC (NSEC_PER_SEC / CONFIG_HZ) /* the coarse clocks' step */

/* Linux's clock ids (uapi/linux/time.h) and clock_nanosleep's flag. */
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define CLOCK_MONOTONIC_RAW 4
#define CLOCK_REALTIME_COARSE 5
#define CLOCK_MONOTONIC_COARSE 6
#define CLOCK_BOOTTIME 7
#define TIMER_ABSTIME 0x01

/* The user's struct timespec and struct timeval on x86-64. */
struct __kernel_timespec {
	int64_t tv_sec;
	long long tv_nsec;
};
struct __kernel_old_timeval {
	long tv_sec;
	long tv_usec;
};

/* --- kernel/time.c ---------------------------------------------------------- */
/* Nanoseconds since boot (CLOCK_MONOTONIC, never goes back). */
uint64_t ktime_get_ns(void);
/* Nanoseconds since 1970 (CLOCK_REALTIME): the RTC at first use + monotonic. */
uint64_t ktime_get_real_ns(void);
struct task_struct;
/* @task's CPU time (CLOCK_PROCESS_CPUTIME_ID, getrusage) in ns: the time
 * since it was created, for it ran all that time (one task runs at a
 * time, to its end). */
uint64_t task_cputime_ns(const struct task_struct *task);

/* --- arch/x86_64/rtc.c ------------------------------------------------------- */
/* The CMOS real-time clock (MC146818) as seconds since 1970, UTC as PC
 * firmware and QEMU keep it. Return: the seconds, or -1 if it never
 * settles. */
int64_t arch_rtc_read_seconds(void);

#endif
