/*
 * /proc/PID/stat, statm, status, cmdline and environ (Linux:
 * fs/proc/array.c do_task_stat, proc_pid_statm, proc_pid_status;
 * fs/proc/base.c proc_pid_cmdline_read, environ_read;
 * task_mem in fs/proc/task_mmu.c). stat is one line of Linux's 52
 * fields, times in clock ticks of USER_HZ, e.g. "7 (sh) S 1 7 7 0 -1 ...".
 * status: who the process is, its memory in kB and its
 * signal and capability masks, one "Key:\tvalue" line each, in Linux's
 * order. Example: after mlock of 3 pages, "VmLck:\t      12 kB".
 * Every file reads the task its open found: -ESRCH once it is reaped
 * (cmdline and environ read empty instead, as Linux's without an mm).
 * Lines whose value Folium does not keep are left out rather than made
 * up: VmPeak (no hiwater_vm), VmPin and HugetlbPages (not counted per
 * mm), the namespace and seccomp lines and the speculation controls.
 */
#include <binfmt_elf.h>
#include <kernel_stat.h>
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
struct vm_counts {
	unsigned long data, stack, exec; /* pages */
};

static struct vm_counts vm_stat_account(const struct mm_struct *mm)
{
	struct vm_counts c = { 0 };

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];
		unsigned long pages = (vma->vm_end - vma->vm_start) >> PAGE_SHIFT;

		if (vma->vm_end == STACK_TOP)
			c.stack += pages;
		else if (vma->vm_flags & VM_WRITE)
			c.data += pages;
		else if (vma->vm_flags & VM_EXEC)
			c.exec += pages;
	}
	return c;
}

static void task_mem(struct seq_file *m, const struct mm_struct *mm)
{
	struct vm_counts c = vm_stat_account(mm);
	unsigned long data = c.data, stack = c.stack, exec = c.exec;

	status_kb(m, "VmSize:", mm_total_vm(mm));
	status_kb(m, "VmLck:", mm_locked_vm(mm));
	status_kb(m, "VmHWM:", get_mm_hiwater_rss(mm));
	status_kb(m, "VmRSS:", get_mm_rss(mm));
	status_kb(m, "RssAnon:", mm->counters[MM_ANONPAGES]);
	status_kb(m, "RssFile:", mm->counters[MM_FILEPAGES]);
	status_kb(m, "RssShmem:", mm->counters[MM_SHMEMPAGES]);
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
	for (int sig = 1; task->sighand && sig <= _NSIG; sig++) {
		uint64_t handler = task->sighand->action[sig - 1].handler;

		if (handler == SIG_IGN)
			*ign |= sigmask(sig);
		else if (handler != SIG_DFL)
			*catch |= sigmask(sig);
	}
}

/* Linux: task_state_array, indexed by get_task_state. */
static const char *task_state_name(const struct task_struct *task)
{
	if (task->exit_state == EXIT_ZOMBIE)
		return "Z (zombie)";
	if (task->exit_state == EXIT_DEAD)
		return "X (dead)";
	if (task->__state == TASK_INTERRUPTIBLE)
		return "S (sleeping)";
	if (task->__state & __TASK_STOPPED)
		return "T (stopped)";
	/* Linux's kernel threads wait as TASK_IDLE, "I"; Folium's (the
	 * kernel shell waiting for its program) wait uninterruptibly. */
	if (task->__state == TASK_UNINTERRUPTIBLE && (task->flags & PF_KTHREAD))
		return "I (idle)";
	if (task->__state == TASK_UNINTERRUPTIBLE)
		return "D (disk sleep)";
	return "R (running)";
}

/* Linux: task_ppid_nr, 0 for a child of the idle task or one detached. */
static int task_ppid_nr(const struct task_struct *task)
{
	return task->real_parent ? task->real_parent->tgid : 0;
}

static int proc_pid_status(struct seq_file *m, void *v)
{
	struct task_struct *task = proc_task_get(m->private);
	const struct cred *c;
	struct mm_struct *mm;
	sigset_t ign, catch;

	(void)v;
	if (!task)
		return -ESRCH;
	c = &task->cred;
	mm = get_task_mm(task);
	seq_printf(m, "Name:\t%s\n", task->comm);
	if (task->fs)
		seq_printf(m, "Umask:\t%04o\n", task->fs->umask);
	seq_printf(m, "State:\t%s\n", task_state_name(task));
	seq_printf(m, "Tgid:\t%d\nNgid:\t0\nPid:\t%d\nPPid:\t%d\nTracerPid:\t0\n", task->tgid,
		   task->pid, task_ppid_nr(task));
	seq_printf(m, "Uid:\t%u\t%u\t%u\t%u\nGid:\t%u\t%u\t%u\t%u\n", c->uid, c->euid, c->suid,
		   c->fsuid, c->gid, c->egid, c->sgid, c->fsgid);
	seq_printf(m, "FDSize:\t%d\nGroups:\t", task->files ? NR_OPEN_DEFAULT : 0);
	for (int i = 0; i < c->group_info->ngroups; i++)
		seq_printf(m, i ? " %u" : "%u", c->group_info->gid[i]);
	seq_puts(m, " \n"); /* Linux: "Trailing space shouldn't have been added" */
	if (mm)
		task_mem(m, mm);
	seq_puts(m, "CoreDumping:\t0\n");
	seq_printf(m, "THP_enabled:\t%d\n", !mm || !(mm->flags & MMF_DISABLE_THP));
	if (mm)
		mmput(mm);
	seq_printf(m, "Threads:\t%d\n", task->signal->nr_threads);
	render_mask(m, "SigPnd:", task->signals.pending.signal);
	render_mask(m, "ShdPnd:", task->signal->shared_pending.signal);
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
	return proc_pid_single_open(inode, file, proc_pid_status);
}

const struct file_operations proc_pid_status_fops = {
	.open = proc_pid_status_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

/* Linux: get_task_state's letter. */
static char task_state_char(const struct task_struct *task)
{
	return task_state_name(task)[0];
}

/*
 * Linux: do_task_stat, the 52 fields: 1 pid, (comm), state, ppid, pgrp,
 * session, tty_nr, tpgid, flags, minflt, cminflt, majflt, cmajflt, utime,
 * stime, cutime, cstime, priority, nice, num_threads, itrealvalue,
 * starttime, vsize, rss, rsslim, startcode, endcode, startstack,
 * kstkesp, kstkeip, signal, blocked, sigignore, sigcatch, wchan, nswap,
 * cnswap, exit_signal, processor, rt_priority, policy,
 * delayacct_blkio_ticks, guest_time, cguest_time, start_data, end_data,
 * start_brk, arg_start, arg_end, env_start, env_end, 52 exit_code.
 * No controlling tty (tty_nr 0, tpgid -1), as a program Linux starts
 * from its command line has; the esp and eip are 0 as Linux shows them
 * for a task that is not dumping core; wchan is 1 for a sleeping task.
 */
/* The mm's addresses stat shows: all 0 without an mm (Linux prints 0
 * for a kernel thread or a zombie). */
struct mm_layout {
	unsigned long start_code, end_code, start_stack, start_data, end_data, start_brk;
	unsigned long arg_start, arg_end, env_start, env_end;
};

static struct mm_layout mm_layout_of(const struct mm_struct *mm)
{
	if (!mm)
		return (struct mm_layout){ 0 };
	return (struct mm_layout){ mm->start_code, mm->end_code,  mm->start_stack, mm->start_data,
				   mm->end_data,   mm->start_brk, mm->arg_start,   mm->arg_end,
				   mm->env_start,  mm->env_end };
}

int proc_tgid_stat_show(struct seq_file *m, void *v)
{
	struct task_struct *task = proc_task_get(m->private);
	struct mm_struct *mm;
	struct mm_layout lay;
	uint64_t ut, st;
	sigset_t ign, catch;
	unsigned long vsize = 0, rss = 0;

	(void)v;
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	lay = mm_layout_of(mm);
	if (mm) {
		vsize = mm_total_vm(mm) << PAGE_SHIFT;
		rss = get_mm_rss(mm);
	}
	thread_group_cputime_adjusted(task, &ut, &st);
	sigign_sigcatch(task, &ign, &catch);
	seq_printf(m, "%d (%s) %c %d %d %d 0 -1 %u ", task->pid, task->comm, task_state_char(task),
		   task_ppid_nr(task), task->pgid, task->sid, task->flags);
	seq_printf(m, "%lu %lu 0 0 %llu %llu %llu %llu ",
		   mm ? mm->counters[MM_FAULTS] : (unsigned long)task->min_flt,
		   (unsigned long)task->signal->cmin_flt, (unsigned long long)nsec_to_clock_t(ut),
		   (unsigned long long)nsec_to_clock_t(st),
		   (unsigned long long)nsec_to_clock_t(task->signal->cutime),
		   (unsigned long long)nsec_to_clock_t(task->signal->cstime));
	seq_printf(m, "%d %d %d 0 %llu %lu %lu %llu ", task->static_prio - 100, task_nice(task),
		   task->signal->nr_threads, (unsigned long long)nsec_to_clock_t(task->start_time),
		   vsize, rss, (unsigned long long)task_rlimit(task, RLIMIT_RSS));
	seq_printf(m, "%lu %lu %lu 0 0 %llu %llu %llu %llu %d 0 0 %d 0 0 0 0 0 0 ", lay.start_code,
		   lay.end_code, lay.start_stack,
		   (unsigned long long)(task->signals.pending.signal & 0x7fffffff),
		   (unsigned long long)(task->signals.blocked & 0x7fffffff),
		   (unsigned long long)(ign & 0x7fffffff), (unsigned long long)(catch & 0x7fffffff),
		   task->__state != TASK_RUNNING, task->exit_signal);
	seq_printf(m, "%lu %lu %lu %lu %lu %lu %lu %d\n", lay.start_data, lay.end_data,
		   lay.start_brk, lay.arg_start, lay.arg_end, lay.env_start, lay.env_end,
		   task->exit_code);
	if (mm)
		mmput(mm);
	return 0;
}

/* Linux: proc_pid_statm (task_statm): pages of size, resident, shared,
 * text, lib (0), data + stack, dt (0). */
int proc_pid_statm_show(struct seq_file *m, void *v)
{
	struct task_struct *task = proc_task_get(m->private);
	struct mm_struct *mm;
	struct vm_counts c;
	unsigned long text;

	(void)v;
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	if (!mm) {
		seq_puts(m, "0 0 0 0 0 0 0\n");
		return 0;
	}
	c = vm_stat_account(mm);
	text = (ALIGN_UP(mm->end_code, PAGE_SIZE) - ALIGN_DOWN(mm->start_code, PAGE_SIZE)) >>
	       PAGE_SHIFT;
	/* Linux: task_statm, shared = the file and shmem pages mapped. */
	seq_printf(m, "%lu %lu %lu %lu 0 %lu 0\n", mm_total_vm(mm), get_mm_rss(mm),
		   mm->counters[MM_FILEPAGES] + mm->counters[MM_SHMEMPAGES], MIN(text, c.exec),
		   c.data + c.stack);
	mmput(mm);
	return 0;
}

/* [start, end) of the task's memory, as it is now, into m. */
static int seq_task_range(struct seq_file *m, bool env)
{
	struct task_struct *task = proc_task_get(m->private);
	struct mm_struct *mm = task ? get_task_mm(task) : NULL;
	unsigned long start, end;

	if (!mm)
		return 0; /* Linux: a task without an mm reads empty */
	start = env ? mm->env_start : mm->arg_start;
	end = env ? mm->env_end : mm->arg_end;
	if (end > start && m->size - m->count <= end - start)
		m->count = m->size; /* too long for the buffer: show it again */
	else if (end > start)
		m->count += access_remote_vm(mm, start, m->buf + m->count, end - start);
	mmput(mm);
	return 0;
}

/* Linux: proc_pid_cmdline_read (get_mm_cmdline): argv's strings, each
 * with its NUL, e.g. "/bin/sh\0-c\0true\0". */
int proc_pid_cmdline_show(struct seq_file *m, void *v)
{
	(void)v;
	return seq_task_range(m, false);
}

/* Linux: environ_read, envp's strings with their NULs. */
int proc_pid_environ_show(struct seq_file *m, void *v)
{
	(void)v;
	return seq_task_range(m, true);
}
