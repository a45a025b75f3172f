/*
 * /proc/uptime (Linux: uptime_proc_show in fs/proc/uptime.c): seconds
 * since boot and seconds the CPU spent idle, each with two decimals,
 * e.g. "12.34 10.01\n". Idle time is the idle task's (init_task's)
 * runtime; it is brought up to date when the idle task is switched out,
 * so while the reader runs it is exact.
 */
#include <sched.h>
#include <seq_file.h>
#include <timekeeping.h>

/* Nanoseconds as "S.CC" (Linux prints centiseconds the same way). */
static void seq_put_secs(struct seq_file *m, uint64_t ns, char end)
{
	uint64_t cs = ns / 10000000ULL;

	seq_printf(m, "%llu.%02llu%c", (unsigned long long)(cs / 100),
		   (unsigned long long)(cs % 100), end);
}

int uptime_proc_show(struct seq_file *m, void *v)
{
	(void)v;
	seq_put_secs(m, ktime_get_ns(), ' ');
	seq_put_secs(m, init_task.sum_exec_runtime, '\n');
	return 0;
}
