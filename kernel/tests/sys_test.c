/*
 * The process, time and randomness system calls, mremap and SMAP, in the
 * kernel (suite "sys"): each call through do_syscall on a private mm with
 * two user pages, as a program's syscall instruction would, checking
 * values, Linux's errno values and -EFAULT for bad pointers; the ChaCha20
 * block function against RFC 8439's test vector; clocks that never go
 * back; a 10 ms nanosleep that takes at least 10 ms by the TSC.
 */
#include <arch.h>
#include <ktest.h>
#include <mm.h>
#include <mman.h>
#include <random.h>
#include <resource.h>
#include <shell.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>
#include "../../mm/tests/mm_test_util.h"
#include <asm/smap.h>
#include "ktest_task.h"

#define BUF 0x400000ul	  /* two user pages of the test mm */
#define UNMAPPED 0x1000ul /* no VMA */
#define MOVE 0x40000000ul /* where the mremap cases map */
#define KERNEL_ADDR 0xffff800000000000ul
#define P PAGE_SIZE

static struct task_struct *task;
static struct mm_struct *mm, *prev_mm;
static struct shell_capture out;

static int sys_test_init(struct kunit *test)
{
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(vm_mmap(mm, BUF, 2 * P, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	task = ktest_task_create(mm);
	if (!task)
		return -1;
	/* The task never runs: its CPU time (getrusage, the CPU-time
	 * clocks) is what the scheduler would have charged it. */
	task->sum_exec_runtime = 3000000;
	return 0;
}

static void sys_test_exit(struct kunit *test)
{
	free_task(task);
	switch_mm(prev_mm);
	mm_destroy(mm);
}

static long sys(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		unsigned long a3)
{
	const unsigned long args[6] = { a0, a1, a2, a3, 0, 0 };

	return do_syscall(task, nr, args);
}

/* The same with the console captured (bad-access reports) into out. */
static long sys_quiet(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		      unsigned long a3)
{
	long ret;

	shell_capture_start(&out);
	ret = sys(nr, a0, a1, a2, a3);
	shell_capture_stop();
	return ret;
}

static void ids_are_the_tasks_its_parents_and_root(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys(__NR_getpid, 0, 0, 0, 0), task->pid);
	KUNIT_EXPECT_EQ(test, sys(__NR_gettid, 0, 0, 0, 0), task->pid);
	KUNIT_EXPECT_EQ(test, sys(__NR_getppid, 0, 0, 0, 0), current->pid);
	KUNIT_EXPECT_EQ(test, sys(__NR_getuid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_geteuid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getgid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getegid, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_yield, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_rseq, 0, 0, 0, 0), -ENOSYS);
}

static void uname_names_folium_with_a_linux_release(struct kunit *test)
{
	char u[6][65];

	KUNIT_ASSERT_EQ(test, sys(__NR_uname, BUF, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(u, BUF, sizeof(u)), 0);
	KUNIT_EXPECT_STREQ(test, u[0], "Folium");
	KUNIT_EXPECT_STREQ(test, u[1], "folium");
	KUNIT_EXPECT_STREQ(test, u[2], "6.1.0-folium");
	KUNIT_EXPECT_EQ(test, strncmp(u[3], "#1 Folium ", 10), 0);
	KUNIT_EXPECT_STREQ(test, u[4], "x86_64");
	KUNIT_EXPECT_STREQ(test, u[5], "(none)");
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_uname, UNMAPPED, 0, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_uname, BUF + 2 * P - 100, 0, 0, 0), -EFAULT);
}

static void getrlimit_reports_the_limits_at_exec(struct kunit *test)
{
	struct rlimit64 r;

	KUNIT_ASSERT_EQ(test, sys(__NR_getrlimit, RLIMIT_STACK, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&r, BUF, sizeof(r)), 0);
	KUNIT_EXPECT_EQ(test, r.rlim_cur, 8ul << 20);
	KUNIT_EXPECT_EQ(test, r.rlim_max, RLIM_INFINITY);
	KUNIT_ASSERT_EQ(test, sys(__NR_getrlimit, RLIMIT_NOFILE, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&r, BUF, sizeof(r)), 0);
	KUNIT_EXPECT_EQ(test, r.rlim_cur, NR_OPEN_DEFAULT);
	KUNIT_EXPECT_EQ(test, r.rlim_max, NR_OPEN_DEFAULT);
	KUNIT_ASSERT_EQ(test, sys(__NR_getrlimit, RLIMIT_AS, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&r, BUF, sizeof(r)), 0);
	KUNIT_EXPECT_EQ(test, r.rlim_cur, RLIM_INFINITY);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrlimit, RLIM_NLIMITS, BUF, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_getrlimit, RLIMIT_AS, UNMAPPED, 0, 0), -EFAULT);
}

static void prlimit64_lowers_but_never_raises_a_hard_limit(struct kunit *test)
{
	const struct rlimit64 lower = { 64, 128 }, raise = { 64, 256 }, inverted = { 100, 50 };
	struct rlimit64 old;

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &lower, sizeof(lower)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, RLIMIT_NOFILE, BUF, BUF + 64), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF + 64, sizeof(old)), 0);
	KUNIT_EXPECT_EQ(test, old.rlim_cur, NR_OPEN_DEFAULT);
	KUNIT_EXPECT_EQ(test, task_rlimit(task, RLIMIT_NOFILE), 64);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &raise, sizeof(raise)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, task->pid, RLIMIT_NOFILE, BUF, 0), -EPERM);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &inverted, sizeof(inverted)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, RLIMIT_NOFILE, BUF, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, NO_SUCH_PID, RLIMIT_NOFILE, 0, BUF), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, 99, 0, BUF), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_prlimit64, 0, RLIMIT_NOFILE, UNMAPPED, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_prlimit64, 0, RLIMIT_NOFILE, 0, UNMAPPED), -EFAULT);
	/* Only a read: nothing changed. */
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, RLIMIT_NOFILE, 0, BUF), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&old, BUF, sizeof(old)), 0);
	KUNIT_EXPECT_EQ(test, old.rlim_cur, 64);
	KUNIT_EXPECT_EQ(test, old.rlim_max, 128);
	/* Raising a hard limit takes CAP_SYS_RESOURCE (root's). */
	task->cred.cap_effective = 1ull << CAP_SYS_RESOURCE;
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &raise, sizeof(raise)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, RLIMIT_NOFILE, BUF, 0), 0);
	KUNIT_EXPECT_EQ(test, task_rlimit(task, RLIMIT_NOFILE), 64);
	task->cred.cap_effective = 0;
}

/* A new process starts with a copy of its parent's limits (Linux:
 * copy_signal): the kernel's, not what another process changed. */
static void a_new_task_has_its_parents_limits(struct kunit *test)
{
	const struct rlimit64 lower = { 64, 128 };
	struct task_struct *child;

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, &lower, sizeof(lower)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prlimit64, 0, RLIMIT_NOFILE, BUF, 0), 0);
	child = copy_process(&(struct kernel_clone_args){ 0 });
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_EXPECT_EQ(test, task_rlimit(child, RLIMIT_NOFILE),
			task_rlimit(current, RLIMIT_NOFILE));
	KUNIT_EXPECT_EQ(test, task_rlimit(child, RLIMIT_NOFILE), NR_OPEN_DEFAULT);
	KUNIT_EXPECT_EQ(test, task_rlimit(child, RLIMIT_STACK), RLIMIT_STACK_DEFAULT);
	KUNIT_EXPECT_NE(test, child->pid, task->pid);
	free_task(child);
}

static void getrusage_counts_cpu_time_and_the_mm_faults(struct kunit *test)
{
	long ru[18];

	KUNIT_ASSERT_EQ(test, fill_user(BUF, 1, 2 * P), 0); /* two faults */
	KUNIT_ASSERT_EQ(test, sys(__NR_getrusage, RUSAGE_SELF, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ru, BUF, sizeof(ru)), 0);
	KUNIT_EXPECT_EQ(test, ru[0] * 1000000 + ru[1], 3000);  /* ru_utime: its 3 ms */
	KUNIT_EXPECT_EQ(test, ru[4], 2 * (long)P / 1024);      /* ru_maxrss, KiB */
	KUNIT_EXPECT_EQ(test, ru[8], mm->counters[MM_FAULTS]); /* ru_minflt */
	KUNIT_EXPECT_GE(test, ru[8], 2);
	KUNIT_ASSERT_EQ(test, sys(__NR_getrusage, RUSAGE_CHILDREN, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ru, BUF, sizeof(ru)), 0);
	for (int i = 0; i < 18; i++)
		KUNIT_EXPECT_EQ(test, ru[i], 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrusage, 2, BUF, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_getrusage, RUSAGE_SELF, UNMAPPED, 0, 0), -EFAULT);
}

static void sysinfo_reports_uptime_and_node_0_memory(struct kunit *test)
{
	unsigned long s[14];
	uint16_t procs;
	uint32_t mem_unit;

	KUNIT_ASSERT_EQ(test, sys(__NR_sysinfo, BUF, 0, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(s, BUF, sizeof(s)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&procs, BUF + 80, 2), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&mem_unit, BUF + 104, 4), 0);
	KUNIT_EXPECT_GE(test, s[0], 1); /* uptime, rounded up */
	KUNIT_EXPECT_LE(test, s[0], arch_uptime_ns() / NSEC_PER_SEC + 1);
	KUNIT_EXPECT_GT(test, s[4], s[5]); /* totalram > freeram */
	KUNIT_EXPECT_GT(test, s[5], 0);
	KUNIT_EXPECT_EQ(test, s[4] % P, 0); /* bytes */
	KUNIT_EXPECT_EQ(test, procs, 1);
	KUNIT_EXPECT_EQ(test, mem_unit, 1);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_sysinfo, UNMAPPED, 0, 0, 0), -EFAULT);
}

static void sched_getaffinity_returns_one_cpu_in_one_long(struct kunit *test)
{
	unsigned long mask[2] = { 0, 0 };

	KUNIT_ASSERT_EQ(test, fill_user(BUF, 0xff, 16), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_getaffinity, 0, 128, BUF, 0), 8);
	KUNIT_ASSERT_EQ(test, copy_from_user(mask, BUF, sizeof(mask)), 0);
	KUNIT_EXPECT_EQ(test, mask[0], 1);
	KUNIT_EXPECT_EQ(test, mask[1], ~0ul); /* nothing past the bytes returned */
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_getaffinity, task->pid, 8, BUF, 0), 8);
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_getaffinity, 0, 4, BUF, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_getaffinity, 0, 12, BUF, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_sched_getaffinity, 7, 8, BUF, 0), -ESRCH);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_sched_getaffinity, 0, 8, UNMAPPED, 0), -EFAULT);
}

static void set_robust_list_keeps_a_24_byte_head(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys(__NR_set_robust_list, BUF, 24, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, task->robust_list, BUF);
	KUNIT_EXPECT_EQ(test, sys(__NR_set_robust_list, BUF + 8, 16, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, task->robust_list, BUF);
}

static int64_t read_clock(int clock)
{
	int64_t ts[2];

	if (sys(__NR_clock_gettime, clock, BUF, 0, 0) || copy_from_user(ts, BUF, sizeof(ts)))
		return -1;
	return ts[0] * (int64_t)NSEC_PER_SEC + ts[1];
}

static void clock_gettime_serves_every_clock_and_never_goes_back(struct kunit *test)
{
	static const int clocks[] = { CLOCK_REALTIME,		CLOCK_MONOTONIC,
				      CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
				      CLOCK_MONOTONIC_RAW,	CLOCK_REALTIME_COARSE,
				      CLOCK_MONOTONIC_COARSE,	CLOCK_BOOTTIME };
	int64_t last = 0;

	for (size_t i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++)
		KUNIT_EXPECT_GT(test, read_clock(clocks[i]), 0);
	for (int i = 0; i < 1000; i++) {
		int64_t now = read_clock(CLOCK_MONOTONIC);

		KUNIT_ASSERT_GE(test, now, last);
		last = now;
	}
	/* After 2020-01-01: the RTC was read (QEMU keeps the host's time). */
	KUNIT_EXPECT_GT(test, read_clock(CLOCK_REALTIME), 1577836800ll * NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, read_clock(CLOCK_MONOTONIC_COARSE), read_clock(CLOCK_MONOTONIC));
	KUNIT_EXPECT_EQ(test, read_clock(CLOCK_MONOTONIC_COARSE) % TICK_NSEC, 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_clock_gettime, 8, BUF, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_clock_gettime, -1ul, BUF, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_clock_gettime, CLOCK_MONOTONIC, UNMAPPED, 0, 0),
			-EFAULT);
}

static void clock_getres_is_a_nanosecond_or_a_tick(struct kunit *test)
{
	int64_t ts[2];

	KUNIT_EXPECT_EQ(test, sys(__NR_clock_getres, CLOCK_MONOTONIC, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ts, BUF, sizeof(ts)), 0);
	KUNIT_EXPECT_EQ(test, ts[0], 0);
	KUNIT_EXPECT_EQ(test, ts[1], 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_clock_getres, CLOCK_REALTIME_COARSE, BUF, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ts, BUF, sizeof(ts)), 0);
	KUNIT_EXPECT_EQ(test, ts[1], TICK_NSEC);
	KUNIT_EXPECT_EQ(test, sys(__NR_clock_getres, CLOCK_REALTIME, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_clock_getres, 42, BUF, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_clock_getres, CLOCK_BOOTTIME, UNMAPPED, 0, 0),
			-EFAULT);
}

static void gettimeofday_and_time_agree_with_the_realtime_clock(struct kunit *test)
{
	int64_t before = read_clock(CLOCK_REALTIME) / (int64_t)NSEC_PER_SEC, tv[2], t;
	int32_t tz[2] = { 1, 1 };

	KUNIT_ASSERT_EQ(test, sys(__NR_gettimeofday, BUF, BUF + 64, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(tv, BUF, sizeof(tv)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(tz, BUF + 64, sizeof(tz)), 0);
	KUNIT_EXPECT_GE(test, tv[0], before);
	KUNIT_EXPECT_LE(test, tv[0], before + 1);
	KUNIT_EXPECT_LT(test, tv[1], 1000000);
	KUNIT_EXPECT_EQ(test, tz[0] | tz[1], 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_gettimeofday, 0, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_gettimeofday, UNMAPPED, 0, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_gettimeofday, BUF, UNMAPPED, 0, 0), -EFAULT);
	t = sys(__NR_time, BUF, 0, 0, 0);
	KUNIT_EXPECT_GE(test, t, before);
	KUNIT_EXPECT_LE(test, t, before + 1);
	KUNIT_ASSERT_EQ(test, copy_from_user(tv, BUF, 8), 0);
	KUNIT_EXPECT_EQ(test, tv[0], t);
	KUNIT_EXPECT_GE(test, sys(__NR_time, 0, 0, 0, 0), t);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_time, UNMAPPED, 0, 0, 0), -EFAULT);
}

static long sleep_ns(unsigned long nr, long clock, long flags, int64_t sec, int64_t nsec,
		     unsigned long rem)
{
	const int64_t ts[2] = { sec, nsec };

	if (copy_to_user(BUF, ts, sizeof(ts)))
		return -EFAULT;
	if (nr == __NR_nanosleep)
		return sys(nr, BUF, rem, 0, 0);
	return sys(nr, clock, flags, BUF, rem);
}

static void nanosleep_of_10ms_takes_at_least_10ms(struct kunit *test)
{
	uint64_t start = arch_uptime_ns();

	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 0, 10000000, 0), 0);
	KUNIT_EXPECT_GE(test, arch_uptime_ns() - start, 10000000);
	start = arch_uptime_ns();
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, 0, 10000000, 0),
			0);
	KUNIT_EXPECT_GE(test, arch_uptime_ns() - start, 10000000);
}

static void nanosleep_refuses_bad_times(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 0, 1000000000, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 0, -1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, -1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_nanosleep, UNMAPPED, 0, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 0, 0, 0), 0);
}

static void a_pending_signal_interrupts_a_sleep_with_the_time_left(struct kunit *test)
{
	int64_t rem[2] = { -1, -1 };

	task->signals.pending.signal = 1ul << (SIGUSR1 - 1);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 5, 0, BUF + 64), -EINTR);
	KUNIT_ASSERT_EQ(test, copy_from_user(rem, BUF + 64, sizeof(rem)), 0);
	KUNIT_EXPECT_GT(test, rem[0] * (int64_t)NSEC_PER_SEC + rem[1], 4 * (int64_t)NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, rem[0] * (int64_t)NSEC_PER_SEC + rem[1], 5 * (int64_t)NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_REALTIME, 0, 5, 0, 0), -EINTR);
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 5, 0, UNMAPPED), -EFAULT);
	shell_capture_stop();
	/* A blocked signal does not interrupt. */
	task->signals.blocked = task->signals.pending.signal;
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_nanosleep, 0, 0, 0, 1000000, 0), 0);
	task->signals.pending.signal = task->signals.blocked = 0;
}

static void clock_nanosleep_takes_absolute_times_and_refuses_other_clocks(struct kunit *test)
{
	int64_t now = read_clock(CLOCK_MONOTONIC), deadline = now + 5000000;

	KUNIT_EXPECT_EQ(test,
			sleep_ns(__NR_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME,
				 deadline / (int64_t)NSEC_PER_SEC, deadline % (int64_t)NSEC_PER_SEC,
				 0),
			0);
	KUNIT_EXPECT_GE(test, read_clock(CLOCK_MONOTONIC), deadline);
	/* In the past: at once. */
	KUNIT_EXPECT_EQ(test,
			sleep_ns(__NR_clock_nanosleep, CLOCK_REALTIME, TIMER_ABSTIME, 1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_MONOTONIC_RAW, 0, 0, 1, 0),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0, 0, 1, 0),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_PROCESS_CPUTIME_ID, 0, 0, 1, 0),
			0);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, 99, 0, 0, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sleep_ns(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, 0, -5, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_clock_nanosleep, CLOCK_MONOTONIC, 0, UNMAPPED, 0),
			-EFAULT);
}

/* RFC 8439 2.3.2: key 00..1f, nonce 00:00:00:09:00:00:00:4a:00:00:00:00,
 * block count 1. */
static void chacha20_block_matches_rfc_8439(struct kunit *test)
{
	static const uint8_t expected[64] = {
		0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3,
		0x20, 0x71, 0xc4, 0xc7, 0xd1, 0xf4, 0xc7, 0x33, 0xc0, 0x68, 0x03, 0x04, 0x22,
		0xaa, 0x9a, 0xc3, 0xd4, 0x6c, 0x4e, 0xd2, 0x82, 0x64, 0x46, 0x07, 0x9f, 0xaa,
		0x09, 0x14, 0xc2, 0xd7, 0x05, 0xd9, 0x8b, 0x02, 0xa2, 0xb5, 0x12, 0x9c, 0xd1,
		0xde, 0x16, 0x4e, 0xb9, 0xcb, 0xd0, 0x83, 0xe8, 0xa2, 0x50, 0x3c, 0x4e,
	};
	const uint32_t nonce[3] = { 0x09000000, 0x4a000000, 0 };
	uint32_t key[8];
	uint8_t out[64];

	for (int i = 0; i < 8; i++)
		key[i] = (uint32_t)(4 * i) | (uint32_t)(4 * i + 1) << 8 |
			 (uint32_t)(4 * i + 2) << 16 | (uint32_t)(4 * i + 3) << 24;
	chacha20_block(key, 1, nonce, out);
	for (int i = 0; i < 64; i++)
		KUNIT_EXPECT_EQ(test, out[i], expected[i]);
}

static void get_random_bytes_never_repeats_itself(struct kunit *test)
{
	uint64_t a[4] = { 0 }, b[4] = { 0 };

	get_random_bytes(a, sizeof(a));
	get_random_bytes(b, sizeof(b));
	KUNIT_EXPECT_NE(test, memcmp(a, b, sizeof(a)), 0);
	KUNIT_EXPECT_NE(test, a[0] | a[1] | a[2] | a[3], 0);
}

static void getrandom_fills_the_buffer_and_checks_its_flags(struct kunit *test)
{
	uint8_t a[600], b[600];
	int zeros = 0;

	KUNIT_ASSERT_EQ(test, fill_user(BUF, 0, sizeof(a) * 2), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, sizeof(a), 0, 0), sizeof(a));
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF + sizeof(a), sizeof(b), GRND_NONBLOCK, 0),
			sizeof(b));
	KUNIT_ASSERT_EQ(test, copy_from_user(a, BUF, sizeof(a)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(b, BUF + sizeof(a), sizeof(b)), 0);
	KUNIT_EXPECT_NE(test, memcmp(a, b, sizeof(a)), 0);
	for (size_t i = 0; i < sizeof(a); i++)
		zeros += !a[i];
	KUNIT_EXPECT_LT(test, zeros, 20); /* ~2.3 expected */
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, 16, GRND_RANDOM, 0), 16);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, 16, GRND_INSECURE, 0), 16);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, 16, GRND_INSECURE | GRND_RANDOM, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, 16, 8, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_getrandom, BUF, 0, 0, 0), 0);
	/* A buffer running off the mapping: the bytes that fit. */
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_getrandom, BUF + 2 * P - 100, 300, 0, 0), 100);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_getrandom, UNMAPPED, 16, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_getrandom, KERNEL_ADDR, 16, 0, 0), -EFAULT);
}

static long mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		   unsigned long flags)
{
	const unsigned long args[6] = { addr, old_len, new_len, flags, 0, 0 };

	return do_syscall(task, __NR_mremap, args);
}

static void mremap_grows_in_place_or_moves_with_maymove(struct kunit *test)
{
	const unsigned long rw = VM_READ | VM_WRITE | VM_USER;
	uint8_t byte = 0;
	long moved;

	KUNIT_ASSERT_EQ(test, vm_mmap(mm, MOVE, P, rw, 0), MOVE);
	KUNIT_ASSERT_EQ(test, fill_user(MOVE, 0x42, P), 0);
	KUNIT_EXPECT_EQ(test, mremap(MOVE, P, 2 * P, 0), MOVE);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, MOVE + 2 * P, P, rw, 0), MOVE + 2 * P);
	KUNIT_EXPECT_EQ(test, mremap(MOVE, 2 * P, 3 * P, 0), -ENOMEM);
	moved = mremap(MOVE, 2 * P, 3 * P, 1 /* MREMAP_MAYMOVE */);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(moved));
	KUNIT_EXPECT_NULL(test, find_vma(mm, MOVE));
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, moved + P - 1, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0x42);
	KUNIT_EXPECT_EQ(test, mremap(moved, 3 * P, P, 0), moved);
	KUNIT_EXPECT_EQ(test, mremap(UNMAPPED, P, 2 * P, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, mremap(moved + 1, P, 2 * P, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mremap(moved, P, 2 * P, 2 /* FIXED alone */), -EINVAL);
}

static void smap_stops_kernel_reads_of_user_pages_outside_the_copies(struct kunit *test)
{
	long byte;

	KUNIT_ASSERT_EQ(test, fill_user(BUF, 0x5c, 1), 0); /* the copies still work */
	shell_capture_start(&out);
	byte = __smap_probe_read(BUF);
	shell_capture_stop();
	if (!smap_enabled) {
		KUNIT_EXPECT_EQ(test, byte, 0x5c);
		kunit_mark_skipped(test, "SMAP: not supported by this CPU");
		return;
	}
	KUNIT_EXPECT_EQ(test, byte, -1);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "SMAP violation"));
	/* A kernel workload's page (no VM_USER) is not a user page. */
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, MOVE, P, VM_READ | VM_WRITE, 0), MOVE);
	KUNIT_ASSERT_EQ(test, fill_user(MOVE, 0x6d, 1), 0);
	KUNIT_EXPECT_EQ(test, __smap_probe_read(MOVE), 0x6d);
}

/* prctl: the name (truncated to 15 bytes), no_new_privs one way,
 * PR_SET_THP_DISABLE making a PMD-size fault order 0, unknown options. */
static void prctl_names_and_disables_thp(struct kunit *test)
{
	unsigned long saved = thp_orders_enabled;
	char name[16];

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, "a-very-long-program-name", 25), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 15 /* PR_SET_NAME */, BUF, 0, 0), 0);
	KUNIT_EXPECT_STREQ(test, task->comm, "a-very-long-pro");
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 16 /* PR_GET_NAME */, BUF + 64, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(name, BUF + 64, sizeof(name)), 0);
	KUNIT_EXPECT_STREQ(test, name, "a-very-long-pro");
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_prctl, 15, UNMAPPED, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 39 /* PR_GET_NO_NEW_PRIVS */, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 38, 2, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 38, 1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 39, 0, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 999, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 42 /* PR_GET_THP_DISABLE */, 0, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 41, 1, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 41 /* PR_SET_THP_DISABLE */, 1, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 42, 0, 0, 0), 1);
	if (CONFIG_TRANSPARENT_HUGEPAGE) {
		thp_set_orders(1ul << HPAGE_PMD_ORDER);
		KUNIT_ASSERT_EQ(test, vm_mmap(mm, MOVE, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
				MOVE);
		KUNIT_ASSERT_EQ(test, fill_user(MOVE, 1, 1), 0);
		KUNIT_EXPECT_EQ(test, test_mapped_order(mm, MOVE), 0);
		/* Enabled again: the next fault may be a PMD. */
		KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 41, 0, 0, 0), 0);
		KUNIT_ASSERT_EQ(test, vm_munmap(mm, MOVE, PMD_SIZE), 0);
		KUNIT_ASSERT_EQ(test, vm_mmap(mm, MOVE, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
				MOVE);
		KUNIT_ASSERT_EQ(test, fill_user(MOVE, 1, 1), 0);
		KUNIT_EXPECT_EQ(test, test_mapped_order(mm, MOVE), HPAGE_PMD_ORDER);
		thp_set_orders(saved);
	}
}

/* capget's and capset's words: header {version, pid}, then data {effective,
 * permitted, inheritable} per 32 capabilities. */
static long cap_call(unsigned long nr, uint32_t version, int pid, unsigned long data)
{
	const struct {
		uint32_t version;
		int pid;
	} header = { version, pid };

	if (copy_to_user(BUF, &header, sizeof(header)))
		return -999;
	return sys(nr, BUF, data, 0, 0);
}

static long cap_set(uint64_t effective, uint64_t permitted)
{
	const uint32_t data[6] = { (uint32_t)effective,		(uint32_t)permitted,	     0,
				   (uint32_t)(effective >> 32), (uint32_t)(permitted >> 32), 0 };

	if (copy_to_user(BUF + 64, data, sizeof(data)))
		return -999;
	return cap_call(__NR_capset, 0x20080522, 0, BUF + 64);
}

static void capget_and_capset_change_only_the_callers_sets_by_linux_rules(struct kunit *test)
{
	const uint64_t ipc_lock = 1ull << CAP_IPC_LOCK;
	uint32_t data[7], version;

	cred_init_root(&task->cred);
	/* An unknown version: the kernel's own is written back; NULL data probes. */
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0xdead, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&version, BUF, sizeof(version)), 0);
	KUNIT_EXPECT_EQ(test, version, 0x20080522);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0xdead, 0, BUF + 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capset, 0xdead, 0, BUF + 64), -EINVAL);
	/* Version 3: two structs; root holds all 41. */
	memset(data, 0x5a, sizeof(data));
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF + 64, data, sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0x20080522, 0, BUF + 64), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(data, BUF + 64, sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, data[0], 0xffffffffu); /* effective, low word */
	KUNIT_EXPECT_EQ(test, data[1], 0xffffffffu); /* permitted */
	KUNIT_EXPECT_EQ(test, data[2], 0u);	     /* inheritable */
	KUNIT_EXPECT_EQ(test, data[3], 0x1ffu);	     /* effective, caps 32..40 */
	KUNIT_EXPECT_EQ(test, data[6], 0x5a5a5a5au); /* past the two: untouched */
	/* Version 1: one struct only. */
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0x19980330, 0, BUF + 128), 0);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0x20080522, -1, BUF + 64), -EINVAL);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0x20080522, NO_SUCH_PID, BUF + 64), -ESRCH);
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capget, 0x20080522, task->pid, BUF + 64), 0);
	KUNIT_EXPECT_EQ(test, sys_quiet(__NR_capget, UNMAPPED, BUF, 0, 0), -EFAULT);
	/* Drop CAP_IPC_LOCK from the effective set, raise it again. */
	KUNIT_EXPECT_EQ(test, cap_set(CAP_FULL_SET & ~ipc_lock, CAP_FULL_SET), 0);
	KUNIT_EXPECT_FALSE(test, has_capability(task, CAP_IPC_LOCK));
	KUNIT_EXPECT_EQ(test, cap_set(CAP_FULL_SET, CAP_FULL_SET), 0);
	KUNIT_EXPECT_TRUE(test, has_capability(task, CAP_IPC_LOCK));
	/* Bits past CAP_LAST_CAP are dropped, not refused. */
	KUNIT_EXPECT_EQ(test, cap_set(~0ull, ~0ull), 0);
	KUNIT_EXPECT_EQ(test, task->cred.cap_effective, CAP_FULL_SET);
	/* Effective beyond permitted, or permitted growing: -EPERM, no change. */
	KUNIT_EXPECT_EQ(test, cap_set(CAP_FULL_SET, CAP_FULL_SET & ~ipc_lock), -EPERM);
	KUNIT_EXPECT_TRUE(test, has_capability(task, CAP_IPC_LOCK));
	KUNIT_EXPECT_EQ(test, cap_set(CAP_FULL_SET & ~ipc_lock, CAP_FULL_SET & ~ipc_lock), 0);
	KUNIT_EXPECT_EQ(test, cap_set(CAP_FULL_SET & ~ipc_lock, CAP_FULL_SET), -EPERM);
	KUNIT_EXPECT_EQ(test, task->cred.cap_permitted, CAP_FULL_SET & ~ipc_lock);
	/* Another process's sets: -EPERM. */
	KUNIT_EXPECT_EQ(test, cap_call(__NR_capset, 0x20080522, current->pid, BUF + 64), -EPERM);
	cred_init_root(&task->cred);
}

static void prctl_reads_and_drops_the_bounding_set(struct kunit *test)
{
	cred_init_root(&task->cred);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 23 /* PR_CAPBSET_READ */, CAP_IPC_LOCK, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 23, CAP_LAST_CAP, 0, 0), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 23, CAP_LAST_CAP + 1, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 24 /* PR_CAPBSET_DROP */, CAP_IPC_LOCK, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 23, CAP_IPC_LOCK, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 24, CAP_LAST_CAP + 1, 0, 0), -EINVAL);
	task->cred.cap_effective &= ~(1ull << 8); /* CAP_SETPCAP */
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 24, CAP_SYS_RESOURCE, 0, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, sys(__NR_prctl, 23, CAP_SYS_RESOURCE, 0, 0), 1);
	cred_init_root(&task->cred);
}

/* Linux: getpriority returns 20 - nice; setpriority clamps, and lowering
 * nice takes CAP_SYS_NICE. */
static void setpriority_sets_the_nice_value_and_its_weight(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys(__NR_getpriority, 0, 0, 0, 0), 20);
	KUNIT_EXPECT_EQ(test, sys(__NR_setpriority, 0, 0, 5, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getpriority, 0, task->pid, 0, 0), 15);
	KUNIT_EXPECT_EQ(test, task->se.load.weight, 335);
	KUNIT_EXPECT_EQ(test, sys(__NR_setpriority, 0, 0, 100, 0), 0); /* clamped */
	KUNIT_EXPECT_EQ(test, task_nice(task), 19);
	/* No CAP_SYS_NICE (the test task has no capabilities): -EACCES. */
	KUNIT_EXPECT_EQ(test, sys(__NR_setpriority, 0, 0, -5, 0), -EACCES);
	cred_init_root(&task->cred);
	KUNIT_EXPECT_EQ(test, sys(__NR_setpriority, 0, 0, -5, 0), 0);
	KUNIT_EXPECT_EQ(test, task->se.load.weight, 3121);
	KUNIT_EXPECT_EQ(test, sys(__NR_getpriority, 3, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_getpriority, 0, NO_SUCH_PID, 0, 0), -ESRCH);
	task->cred = (struct cred){ 0 };
}

static struct kunit_case sys_test_cases[] = {
	KUNIT_CASE(setpriority_sets_the_nice_value_and_its_weight),
	KUNIT_CASE(ids_are_the_tasks_its_parents_and_root),
	KUNIT_CASE(uname_names_folium_with_a_linux_release),
	KUNIT_CASE(getrlimit_reports_the_limits_at_exec),
	KUNIT_CASE(a_new_task_has_its_parents_limits),
	KUNIT_CASE(prlimit64_lowers_but_never_raises_a_hard_limit),
	KUNIT_CASE(capget_and_capset_change_only_the_callers_sets_by_linux_rules),
	KUNIT_CASE(prctl_reads_and_drops_the_bounding_set),
	KUNIT_CASE(getrusage_counts_cpu_time_and_the_mm_faults),
	KUNIT_CASE(sysinfo_reports_uptime_and_node_0_memory),
	KUNIT_CASE(sched_getaffinity_returns_one_cpu_in_one_long),
	KUNIT_CASE(set_robust_list_keeps_a_24_byte_head),
	KUNIT_CASE(clock_gettime_serves_every_clock_and_never_goes_back),
	KUNIT_CASE(clock_getres_is_a_nanosecond_or_a_tick),
	KUNIT_CASE(gettimeofday_and_time_agree_with_the_realtime_clock),
	KUNIT_CASE(nanosleep_of_10ms_takes_at_least_10ms),
	KUNIT_CASE(nanosleep_refuses_bad_times),
	KUNIT_CASE(a_pending_signal_interrupts_a_sleep_with_the_time_left),
	KUNIT_CASE(clock_nanosleep_takes_absolute_times_and_refuses_other_clocks),
	KUNIT_CASE(chacha20_block_matches_rfc_8439),
	KUNIT_CASE(get_random_bytes_never_repeats_itself),
	KUNIT_CASE(getrandom_fills_the_buffer_and_checks_its_flags),
	KUNIT_CASE(mremap_grows_in_place_or_moves_with_maymove),
	KUNIT_CASE(smap_stops_kernel_reads_of_user_pages_outside_the_copies),
	KUNIT_CASE(prctl_names_and_disables_thp),
	{},
};

static struct kunit_suite sys_test_suite = {
	.name = "sys",
	.init = sys_test_init,
	.exit = sys_test_exit,
	.test_cases = sys_test_cases,
};
kunit_test_suite(sys_test_suite);
