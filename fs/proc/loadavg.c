/*
 * /proc/loadavg (Linux: loadavg_proc_show in fs/proc/loadavg.c):
 * "0.00 0.00 0.00 1/3 5\n" is the 1, 5 and 15 minute averages, the
 * runnable tasks over all tasks, and the last pid given.
 * The averages are calc_global_load's (kernel/sched/loadavg.c), shown
 * rounded to two decimals as Linux does; the last field is Linux's
 * idr_get_cursor - 1.
 */
#include <kernel_stat.h>
#include <sched.h>
#include <seq_file.h>

int loadavg_proc_show(struct seq_file *m, void *v)
{
	struct task_struct *p;
	int running = 0, total = 0;

	(void)v;
	for_each_process(p)
	{
		total++;
		if (p->__state == TASK_RUNNING && !p->exit_state)
			running++;
	}
	for (int i = 0; i < 3; i++) {
		unsigned long a = avenrun[i] + FIXED_1 / 200;

		seq_printf(m, "%lu.%02lu ", LOAD_INT(a), LOAD_FRAC(a));
	}
	seq_printf(m, "%d/%d %d\n", running, total, pid_last_allocated());
	return 0;
}
