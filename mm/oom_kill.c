/*
 * The out-of-memory killer, for the case Folium has: a program's page
 * fault found no page even after the allocator's reclaim (VM_FAULT_OOM).
 * Linux's pagefault_out_of_memory runs out_of_memory(), which picks the
 * task with the highest oom_badness (about its RSS and page tables) and
 * kills it with SIGKILL; Folium runs one program at a time, so the victim
 * is the faulting program, and its memory comes back when it exits.
 * The line is __oom_kill_process's, e.g. "Out of memory: Killed process 2
 * (crash) total-vm:4194316kB, anon-rss:483328kB, file-rss:0kB,
 * shmem-rss:0kB, UID:0 pgtables:1004kB oom_score_adj:0".
 */
#include <sched.h>
#include <signal.h>
#include <vm.h>

/* Linux: __oom_kill_process (the victim is the current task here). */
static void oom_kill_process(struct task_struct *victim)
{
	struct mm_struct *mm = victim->mm;
	unsigned long total_vm = 0;

	for (int i = 0; i < mm->nr_vmas; i++)
		total_vm += (mm->vmas[i].vm_end - mm->vmas[i].vm_start) >> PAGE_SHIFT;
	pr_err("Out of memory: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB, "
	       "file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:%lukB oom_score_adj:0\n",
	       victim->pid, victim->comm, total_vm << (PAGE_SHIFT - 10),
	       mm->counters[MM_ANONPAGES] << (PAGE_SHIFT - 10),
	       mm->counters[MM_PGTABLES] << (PAGE_SHIFT - 10));
	send_signal(victim, SIGKILL, NULL);
}

/* Linux: pagefault_out_of_memory. Return: false when there is no program
 * to kill (the shell's own workloads report the fault instead). */
bool pagefault_out_of_memory(void)
{
	struct task_struct *task = current;

	if (!task || !task->mm)
		return false;
	oom_kill_process(task);
	return true;
}
