/*
 * /proc/loadavg (Linux: loadavg_proc_show in fs/proc/loadavg.c):
 * "0.00 0.00 0.00 1/3 5\n" is the 1, 5 and 15 minute averages, the
 * runnable tasks over all tasks, and the highest pid in use.
 * Folium keeps no calc_global_load (no EXP_1/5/15 averaging every 5 s),
 * so the three averages read 0.00; the counts are exact. Linux's last
 * field is the last pid allocated (idr_get_cursor); Folium's pids are
 * the lowest free slot, so the highest live pid is shown instead.
 */
#include <sched.h>
#include <seq_file.h>

int loadavg_proc_show(struct seq_file *m, void *v)
{
	struct task_struct *p;
	int running = 0, total = 0, last = 0;

	(void)v;
	for_each_process(p)
	{
		total++;
		if (p->__state == TASK_RUNNING && !p->exit_state)
			running++;
		last = p->pid;
	}
	seq_printf(m, "0.00 0.00 0.00 %d/%d %d\n", running, total, last);
	return 0;
}
