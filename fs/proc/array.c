/*
 * /proc/PID/status (Linux: proc_pid_status in fs/proc/array.c, task_mem
 * in fs/proc/task_mmu.c): who the process is, its memory in kB and its
 * signal and capability masks, one "Key:\tvalue" line each, in Linux's
 * order. Example: after mlock of 3 pages, "VmLck:\t      12 kB".
 * Lines whose value Folium does not keep are left out rather than made
 * up: VmPeak (no hiwater_vm), VmPin and HugetlbPages (not counted per
 * mm), the namespace and seccomp lines and the speculation controls.
 */
#include <binfmt_elf.h>
#include <sched.h>
#include <seq_file.h>
#include <vm.h>

static void status_kb(struct seq_file *m, const char *key, unsigned long pages)
{
	seq_printf(m, "%s\t%8lu kB\n", key, pages << (PAGE_SHIFT - 10));
}

/*
 * Linux: task_mem. The VMAs are sorted into Linux's vm_stat_account
 * classes: the stack (the VMA ending at the stack top), data (private
 * writable), and exec (executable, not writable). VmExe is the exec
 * total: a static program maps no library (VmLib 0).
 */
static void task_mem(struct seq_file *m, const struct task_struct *task)
{
	const struct mm_struct *mm = task->mm;
	unsigned long data = 0, stack = 0, exec = 0;

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];
		unsigned long pages = (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;

		if (vma->vm_end == STACK_TOP)
			stack += pages;
		else if (vma->vm_flags & VM_WRITE)
			data += pages;
		else if (vma->vm_flags & VM_EXEC)
			exec += pages;
	}
	status_kb(m, "VmSize:", mm_total_vm(mm));
	status_kb(m, "VmLck:", mm_locked_vm(mm));
	status_kb(m, "VmHWM:", get_mm_hiwater_rss(mm));
	status_kb(m, "VmRSS:", mm->counters[MM_ANONPAGES]);
	status_kb(m, "RssAnon:", mm->counters[MM_ANONPAGES]);
	status_kb(m, "RssFile:", 0);  /* no file mappings yet */
	status_kb(m, "RssShmem:", 0); /* no shared memory yet */
	status_kb(m, "VmData:", data);
	status_kb(m, "VmStk:", stack);
	status_kb(m, "VmExe:", exec);
	status_kb(m, "VmLib:", 0);
	status_kb(m, "VmPTE:", mm->counters[MM_PGTABLES]);
	status_kb(m, "VmSwap:", 0); /* no swap */
}

/* A signal or capability set as 16 hex digits, the highest bit first
 * (Linux: render_sigset_t, render_cap_t). */
static void render_mask(struct seq_file *m, const char *key, uint64_t mask)
{
	seq_printf(m, "%s\t%016llx\n", key, (unsigned long long)mask);
}

/* Linux: collect_sigign_sigcatch. */
static void sigign_sigcatch(const struct task_struct *task, sigset_t *ign, sigset_t *catch)
{
	*ign = *catch = 0;
	for (int sig = 1; sig <= _NSIG; sig++) {
		uint64_t handler = task->sighand->action[sig - 1].handler;

		if (handler == SIG_IGN)
			*ign |= sigmask(sig);
		else if (handler != SIG_DFL)
			*catch |= sigmask(sig);
	}
}

static int proc_pid_status(struct seq_file *m, void *v)
{
	struct task_struct *task = m->private ? m->private : current;
	sigset_t ign, catch;

	(void)v;
	if (!task || !task->mm)
		return 0;
	seq_printf(m, "Name:\t%s\n", task->comm);
	seq_printf(m, "Umask:\t%04o\n", task->fs->umask);
	seq_puts(m, "State:\tR (running)\n"); /* it is the one reading */
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t0\nTracerPid:\t0\n", task->pid,
		   task->pid);
	seq_puts(m, "Uid:\t0\t0\t0\t0\nGid:\t0\t0\t0\t0\n");
	seq_printf(m, "FDSize:\t%d\nGroups:\t\n", NR_OPEN_DEFAULT);
	task_mem(m, task);
	seq_puts(m, "CoreDumping:\t0\n");
	seq_printf(m, "THP_enabled:\t%d\n", !(task->mm->flags & MMF_DISABLE_THP));
	seq_puts(m, "Threads:\t1\n");
	render_mask(m, "SigPnd:", task->signals.pending);
	render_mask(m, "ShdPnd:", 0);
	render_mask(m, "SigBlk:", task->signals.blocked);
	sigign_sigcatch(task, &ign, &catch);
	render_mask(m, "SigIgn:", ign);
	render_mask(m, "SigCgt:", catch);
	render_mask(m, "CapInh:", task->cred.cap_inheritable);
	render_mask(m, "CapPrm:", task->cred.cap_permitted);
	render_mask(m, "CapEff:", task->cred.cap_effective);
	render_mask(m, "CapBnd:", task->cred.cap_bset);
	render_mask(m, "CapAmb:", 0);
	seq_printf(m, "NoNewPrivs:\t%d\n", task->no_new_privs);
	seq_puts(m, "Cpus_allowed:\t1\nCpus_allowed_list:\t0\n");
	seq_puts(m, "Mems_allowed_list:\t0\n");
	return 0;
}

static int proc_pid_status_open(struct ramfs_inode *inode, struct file *file)
{
	return single_open(file, proc_pid_status, inode->i_private);
}

const struct file_operations proc_pid_status_fops = {
	.open = proc_pid_status_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};
