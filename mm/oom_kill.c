/*
 * The out-of-memory killer, for the case Folium has: a program's page
 * fault found no page even after the allocator's reclaim (VM_FAULT_OOM).
 * Linux's pagefault_out_of_memory runs out_of_memory(): select_bad_process
 * picks the process with the highest oom_badness (its RSS and page
 * tables, in pages; kernel threads, pid 1 and processes already dying are
 * not candidates) and __oom_kill_process kills it, and every other
 * process sharing its mm, with SIGKILL; their memory comes back when they
 * exit. The faulting program then gives up the CPU so the victim can run
 * to its end, and retries its access. The line is __oom_kill_process's,
 * e.g. "Out of memory: Killed process 2 (crash) total-vm:4194316kB,
 * anon-rss:483328kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:1004kB
 * oom_score_adj:0".
 */
#include <sched.h>
#include <signal.h>
#include <vm.h>

/* Linux: find_lock_task_mm. A thread of @p's process that still has the
 * mm (the leader may have exited before the others). */
static struct task_struct *find_task_mm(struct task_struct *p)
{
	struct task_struct *t;

	for_each_thread(p, t) if (t->mm) return t;
	return NULL;
}

/* Linux: oom_badness with oom_score_adj 0: resident pages plus page
 * tables. Return: the points, or -1 for a task that may not be chosen. */
static long oom_badness(const struct task_struct *p)
{
	if (!p->mm || (p->flags & (PF_KTHREAD | PF_EXITING)) || p->pid == 1 || p->exit_state)
		return -1;
	return (long)(get_mm_rss(p->mm) + p->mm->counters[MM_PGTABLES]);
}

/* Linux: select_bad_process. A process already killed for memory and
 * not yet gone (SIGKILL pending) means the kill is under way: NULL, wait
 * for it (Linux: oom_evaluate_task's tsk_is_oom_victim abort). */
static struct task_struct *select_bad_process(bool *in_progress)
{
	struct task_struct *p, *chosen = NULL;
	long chosen_points = -1;

	*in_progress = false;
	for_each_process(p)
	{
		struct task_struct *t = find_task_mm(p);
		long points = t ? oom_badness(t) : -1;

		if (points < 0)
			continue;
		if (fatal_signal_pending(t)) {
			*in_progress = true;
			return NULL;
		}
		if (points > chosen_points) {
			chosen = t;
			chosen_points = points;
		}
	}
	return chosen;
}

/* Linux: __oom_kill_process. */
static void oom_kill_process(struct task_struct *victim)
{
	struct mm_struct *mm = victim->mm;
	unsigned long total_vm = 0;
	struct task_struct *p;

	for (int i = 0; i < mm->nr_vmas; i++)
		total_vm += (mm->vmas[i].vm_end - mm->vmas[i].vm_start) >> PAGE_SHIFT;
	pr_err("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:%lukB, shmem-rss:%lukB, UID:0 pgtables:%lukB oom_score_adj:0\n",
	       victim->tgid, victim->comm, total_vm << (PAGE_SHIFT - 10),
	       mm->counters[MM_ANONPAGES] << (PAGE_SHIFT - 10),
	       mm->counters[MM_FILEPAGES] << (PAGE_SHIFT - 10),
	       mm->counters[MM_SHMEMPAGES] << (PAGE_SHIFT - 10),
	       mm->counters[MM_PGTABLES] << (PAGE_SHIFT - 10));
	/* Every process on this mm goes, or the memory would stay. */
	for_each_process(p)
	{
		struct task_struct *t = find_task_mm(p);

		if (t && t->mm == mm)
			group_send_signal(p, SIGKILL, NULL);
	}
}

/* Linux: pagefault_out_of_memory. Return: false when there is no program
 * to kill (the shell's own workloads report the fault instead). */
bool pagefault_out_of_memory(void)
{
	struct task_struct *task = current, *victim;
	bool in_progress;

	if (!task || !task->mm)
		return false;
	victim = select_bad_process(&in_progress);
	if (victim)
		oom_kill_process(victim);
	else if (!in_progress)
		oom_kill_process(task); /* nothing else to choose */
	/* Let the victim run to its end; a killed current dies on its way
	 * back to ring 3 instead (Linux: schedule_timeout_killable(1)). */
	if (!fatal_signal_pending(task))
		do_sched_yield();
	return true;
}
