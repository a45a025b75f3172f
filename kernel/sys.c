/*
 * Process identity and the process's own settings (Linux: kernel/sys.c,
 * kernel/exit.c, kernel/sched/core.c, kernel/futex/syscalls.c): the ids,
 * uname, resource limits and usage, sysinfo, the scheduler calls,
 * set_robust_list, exit and exit_group. One program runs at a time as pid
 * 1 with no parent, as root: every id is 0 but the pid. Example:
 * uname(&u) gives sysname "Folium", release "6.1.0-folium", which glibc
 * reads as kernel 6.1.0, above any minimum it checks.
 */
#include <arch.h>
#include <binfmt_elf.h>
#include <fs.h>
#include <kernel_stat.h>
#include <mm.h>
#include <resource.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <version.h>
#include <vm.h>

SYSCALL_DEFINE0(getpid)
{
	return task->pid;
}

/* One thread per process: its tid is the pid (Linux: sys_gettid). */
SYSCALL_DEFINE0(gettid)
{
	return task->pid;
}

/* Linux: sys_getppid. The kernel's own task, pid 0, parents nothing a
 * program sees but the kernel shell (pid 1). */
SYSCALL_DEFINE0(getppid)
{
	return task->real_parent ? task->real_parent->pid : 0;
}

SYSCALL_DEFINE0(getuid)
{
	return 0;
}

SYSCALL_DEFINE0(geteuid)
{
	return 0;
}

SYSCALL_DEFINE0(getgid)
{
	return 0;
}

SYSCALL_DEFINE0(getegid)
{
	return 0;
}

/* Linux: sys_getgroups. A program starts as root with no supplementary
 * groups (as under Linux's init) and cannot set any (no setgroups). */
SYSCALL_DEFINE2(getgroups, int, gidsetsize, unsigned long, grouplist)
{
	(void)grouplist;
	return gidsetsize < 0 ? -EINVAL : 0;
}

SYSCALL_DEFINE1(set_tid_address, unsigned long, tidptr)
{
	task->clear_child_tid = tidptr;
	return task->pid; /* the caller's tid: one thread, tid = pid */
}

/* One thread per process: exit and exit_group both end it (Linux:
 * do_exit, do_group_exit), with the status's low byte. */
SYSCALL_DEFINE1(exit, int, error_code)
{
	do_exit((error_code & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, error_code)
{
	do_exit((error_code & 0xff) << 8);
}

/* --- uname ------------------------------------------------------------------ */
#define UTS_LEN 65
struct new_utsname {
	char sysname[UTS_LEN];
	char nodename[UTS_LEN];
	char release[UTS_LEN];
	char version[UTS_LEN];
	char machine[UTS_LEN];
	char domainname[UTS_LEN];
};

/* Linux: sys_newuname. The release is Linux-shaped so that libc's
 * kernel-version checks (glibc's _dl_discover_osversion) pass. */
SYSCALL_DEFINE1(uname, unsigned long, name)
{
	struct new_utsname u;

	memset(&u, 0, sizeof(u));
	ksnprintf(u.sysname, UTS_LEN, "Folium");
	ksnprintf(u.nodename, UTS_LEN, "folium");
	ksnprintf(u.release, UTS_LEN, "6.1.0-folium");
	ksnprintf(u.version, UTS_LEN, "#1 Folium %s HZ=%d", FOLIUM_VERSION, CONFIG_HZ);
	ksnprintf(u.machine, UTS_LEN, "x86_64");
	ksnprintf(u.domainname, UTS_LEN, "(none)");
	return copy_to_user(name, &u, sizeof(u)) ? -EFAULT : 0;
}

/* --- resource limits (the table: task->signal->rlim) ------------------------------ */
/*
 * Linux: do_prlimit. The checks in its order: the resource, soft above
 * hard, RLIMIT_NOFILE above the fd table (-EPERM), then raising a hard
 * limit, which needs CAP_SYS_RESOURCE (-EPERM without it).
 */
int do_prlimit(struct task_struct *tsk, unsigned int resource, const struct rlimit64 *new,
	       struct rlimit64 *old, bool cap_sys_resource)
{
	struct rlimit64 *rlim;

	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	rlim = &tsk->signal->rlim[resource];
	if (new) {
		if (new->rlim_cur > new->rlim_max)
			return -EINVAL;
		if (resource == RLIMIT_NOFILE && new->rlim_max > NR_OPEN_DEFAULT)
			return -EPERM;
		if (new->rlim_max > rlim->rlim_max && !cap_sys_resource)
			return -EPERM;
	}
	if (old)
		*old = *rlim;
	if (new)
		*rlim = *new;
	return 0;
}

SYSCALL_DEFINE2(getrlimit, unsigned int, resource, unsigned long, rlimp)
{
	struct rlimit64 r;
	int err = do_prlimit(task, resource, NULL, &r, false);

	if (err)
		return err;
	return copy_to_user(rlimp, &r, sizeof(r)) ? -EFAULT : 0;
}

/* Linux: sys_prlimit64. The new limit is read before the pid is looked
 * up; pid 0 is the caller, and the caller is the only process. */
SYSCALL_DEFINE4(prlimit64, int, pid, unsigned int, resource, unsigned long, new_rlim, unsigned long,
		old_rlim)
{
	struct rlimit64 new, old;
	int err;

	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	if (pid != 0 && pid != task->pid)
		return -ESRCH;
	err = do_prlimit(task, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL,
			 has_capability(task, CAP_SYS_RESOURCE));
	if (!err && old_rlim && copy_to_user(old_rlim, &old, sizeof(old)))
		return -EFAULT;
	return err;
}

/* --- usage ------------------------------------------------------------------------- */
void getrusage(struct task_struct *p, int who, struct rusage *r)
{
	uint64_t ut = 0, st = 0;

	memset(r, 0, sizeof(*r));
	if (who != RUSAGE_CHILDREN) {
		task_cputime_adjusted(p, &ut, &st);
		r->ru_maxrss =
			p->mm ? (long)(get_mm_hiwater_rss(p->mm) * (PAGE_SIZE / 1024)) : p->maxrss;
		r->ru_minflt = p->mm ? (long)p->mm->counters[MM_FAULTS] : p->min_flt;
	}
	if (who == RUSAGE_CHILDREN || who == RUSAGE_BOTH) {
		ut += p->signal->cutime;
		st += p->signal->cstime;
		r->ru_maxrss = MAX(r->ru_maxrss, p->signal->cmaxrss);
		r->ru_minflt += p->signal->cmin_flt;
	}
	r->ru_utime.tv_sec = ut / NSEC_PER_SEC;
	r->ru_utime.tv_usec = ut % NSEC_PER_SEC / NSEC_PER_USEC;
	r->ru_stime.tv_sec = st / NSEC_PER_SEC;
	r->ru_stime.tv_usec = st % NSEC_PER_SEC / NSEC_PER_USEC;
}

/*
 * Linux: sys_getrusage. maxrss is the mm's RSS high-water mark in KiB
 * (get_mm_hiwater_rss; clear_refs 5 resets it), minflt the faults the mm
 * has handled; the children's are those of the children waited for.
 */
SYSCALL_DEFINE2(getrusage, int, who, unsigned long, ru)
{
	struct rusage r;

	if (who != RUSAGE_SELF && who != RUSAGE_CHILDREN && who != RUSAGE_THREAD)
		return -EINVAL;
	getrusage(task, who, &r);
	return copy_to_user(ru, &r, sizeof(r)) ? -EFAULT : 0;
}

/* Linux: struct tms, in clock ticks of USER_HZ. */
struct tms {
	long tms_utime, tms_stime, tms_cutime, tms_cstime;
};

/*
 * Linux: sys_times. The runtime is split into user and system time by
 * the ticks that sampled it (task_cputime_adjusted); the return value is
 * the ticks since boot (Linux's starts 5 minutes below 0,
 * INITIAL_JIFFIES, so programs only ever use differences).
 */
SYSCALL_DEFINE1(times, unsigned long, tbuf)
{
	struct tms t = { 0 };
	uint64_t ut, st;

	task_cputime_adjusted(task, &ut, &st);
	t.tms_utime = (long)nsec_to_clock_t(ut);
	t.tms_stime = (long)nsec_to_clock_t(st);
	t.tms_cutime = (long)nsec_to_clock_t(task->signal->cutime);
	t.tms_cstime = (long)nsec_to_clock_t(task->signal->cstime);
	if (tbuf && copy_to_user(tbuf, &t, sizeof(t)))
		return -EFAULT;
	return (long)nsec_to_clock_t(ktime_get_ns());
}

/* --- process groups and sessions ------------------------------------------------ */

/* Some process (a zombie too, as Linux keeps its pids until reaped) is
 * in group @pgid of session @sid. */
static bool pgrp_in_session(int pgid, int sid)
{
	struct task_struct *p;

	for_each_process(p) if (p->pgid == pgid && p->sid == sid) return true;
	return false;
}

/*
 * Linux: ksys_setpgid. The caller or one of its children (one that has
 * not exec'd: -EACCES) joins group @pgid (0: its own pid), which must be
 * its own or one in the same session; session leaders stay put.
 */
SYSCALL_DEFINE2(setpgid, int, pid, int, pgid)
{
	struct task_struct *p;

	if (!pid)
		pid = task->pid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_vpid(pid);
	if (!p || (p != task && p->real_parent != task))
		return -ESRCH;
	if (p != task) {
		if (p->sid != task->sid)
			return -EPERM;
		if (!(p->flags & PF_FORKNOEXEC))
			return -EACCES;
	}
	if (p->sid == p->pid)
		return -EPERM;
	if (pgid != pid && !pgrp_in_session(pgid, task->sid))
		return -EPERM;
	p->pgid = pgid;
	return 0;
}

/* Linux: sys_getpgid; 0 is the caller. */
SYSCALL_DEFINE1(getpgid, int, pid)
{
	struct task_struct *p = pid ? find_task_by_vpid(pid) : task;

	return p ? p->pgid : -ESRCH;
}

SYSCALL_DEFINE0(getpgrp)
{
	return task->pgid;
}

/* Linux: sys_getsid; 0 is the caller. */
SYSCALL_DEFINE1(getsid, int, pid)
{
	struct task_struct *p = pid ? find_task_by_vpid(pid) : task;

	return p ? p->sid : -ESRCH;
}

/* Linux: ksys_setsid. A new session and group named by the caller's pid,
 * unless a group of that id exists already (a group leader: -EPERM). */
SYSCALL_DEFINE0(setsid)
{
	struct task_struct *p;

	for_each_process(p) if (p->pgid == task->pid) return -EPERM;
	task->sid = task->pid;
	task->pgid = task->pid;
	return task->sid;
}

struct sysinfo {
	long uptime;
	unsigned long loads[3];
	unsigned long totalram, freeram, sharedram, bufferram, totalswap, freeswap;
	uint16_t procs, pad;
	unsigned long totalhigh, freehigh;
	uint32_t mem_unit;
};
_Static_assert(sizeof(struct sysinfo) == 112, "Linux's struct sysinfo on x86-64");

/* Linux: do_sysinfo. Uptime in whole seconds, rounded up as Linux does;
 * memory in bytes (mem_unit 1): node 0's managed and free pages. */
SYSCALL_DEFINE1(sysinfo, unsigned long, info)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	uint64_t up = ktime_get_ns();
	struct sysinfo s;

	memset(&s, 0, sizeof(s));
	s.uptime = (long)((up + NSEC_PER_SEC - 1) / NSEC_PER_SEC);
	for (int z = 0; z < pgdat->nr_zones; z++)
		s.totalram += pgdat->node_zones[z].managed_pages;
	s.totalram *= PAGE_SIZE;
	s.freeram = node_free_pages(pgdat) * PAGE_SIZE;
	s.procs = 1;
	s.mem_unit = 1;
	return copy_to_user(info, &s, sizeof(s)) ? -EFAULT : 0;
}

/* --- scheduling and futexes ----------------------------------------------------------- */
SYSCALL_DEFINE0(sched_yield)
{
	do_sched_yield();
	return 0;
}

#define PRIO_PROCESS 0
#define PRIO_PGRP 1
#define PRIO_USER 2
#define CAP_SYS_NICE 23

/* The task PRIO_PROCESS @who names: 0 is the caller. Return: it, or NULL
 * with *err (Linux: -EINVAL for which, -ESRCH for who). Process groups
 * and users are each one process here: the caller (uid 0, its own group). */
static struct task_struct *prio_target(struct task_struct *task, int which, int who, long *err)
{
	struct task_struct *p = NULL;

	*err = 0;
	if (which < PRIO_PROCESS || which > PRIO_USER) {
		*err = -EINVAL;
		return NULL;
	}
	if (!who || (which == PRIO_PROCESS && who == task->pid))
		p = task;
	else if (which == PRIO_PROCESS)
		p = find_task_by_vpid(who);
	if (!p)
		*err = -ESRCH;
	return p;
}

/* Linux: sys_setpriority. A nice value is clamped to -20..19; lowering it
 * (more CPU) takes CAP_SYS_NICE (can_nice), which root has. */
SYSCALL_DEFINE3(setpriority, int, which, int, who, int, niceval)
{
	long err;
	struct task_struct *p = prio_target(task, which, who, &err);

	if (!p)
		return err;
	niceval = MIN(MAX(niceval, -20), 19);
	if (niceval < task_nice(p) && !has_capability(task, CAP_SYS_NICE))
		return -EACCES;
	set_user_nice(p, niceval);
	return 0;
}

/* Linux: sys_getpriority, which returns 20 - nice (1..40) so that no
 * value looks like an error; libc turns it back into the nice value. */
SYSCALL_DEFINE2(getpriority, int, which, int, who)
{
	long err;
	struct task_struct *p = prio_target(task, which, who, &err);

	return p ? 20 - task_nice(p) : err;
}

/*
 * Linux: sys_sched_getaffinity. The length must hold the mask of every
 * possible CPU and be a multiple of a long: -EINVAL otherwise. One CPU:
 * the mask is bit 0, one long. Return: the bytes written (the raw call's
 * value; libc turns it into 0).
 */
SYSCALL_DEFINE3(sched_getaffinity, int, pid, unsigned int, len, unsigned long, user_mask_ptr)
{
	const unsigned long mask = 1;

	if (len < sizeof(mask) || (len & (sizeof(mask) - 1)))
		return -EINVAL;
	if (pid != 0 && pid != task->pid)
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

/* Linux: sys_set_robust_list. The head is kept but never walked: with one
 * thread, no other waiter can be left behind. */
#define ROBUST_LIST_HEAD_SIZE 24 /* struct robust_list_head */
SYSCALL_DEFINE2(set_robust_list, unsigned long, head, size_t, len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	task->robust_list = head;
	return 0;
}

/* prctl options served (Linux: include/uapi/linux/prctl.h). */
#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_SET_NAME 15
#define PR_GET_NAME 16
#define PR_SET_NO_NEW_PRIVS 38
#define PR_GET_NO_NEW_PRIVS 39
#define PR_SET_THP_DISABLE 41
#define PR_GET_THP_DISABLE 42
#define TASK_COMM_LEN 16

/* Linux: PR_SET_NAME's strncpy_from_user of TASK_COMM_LEN - 1 bytes. */
static long set_comm(struct task_struct *task, unsigned long uname)
{
	char comm[TASK_COMM_LEN] = { 0 };

	for (int i = 0; i < TASK_COMM_LEN - 1; i++) {
		if (copy_from_user(&comm[i], uname + (unsigned long)i, 1))
			return -EFAULT;
		if (!comm[i])
			break;
	}
	memcpy(task->comm, comm, sizeof(comm));
	return 0;
}

/*
 * Linux: sys_prctl, the options a static program meets: its name (libc
 * and busybox set it), the parent-death signal and dumpable flag (kept,
 * there is no parent and no core dump), no_new_privs (one-way, as
 * Linux), and PR_SET_THP_DISABLE, which makes every fault of the process
 * order 0 (MMF_DISABLE_THP), and the capability bounding set
 * (kernel/capability.c). Any other option is -EINVAL, as Linux's default.
 */
SYSCALL_DEFINE5(prctl, int, option, unsigned long, arg2, unsigned long, arg3, unsigned long, arg4,
		unsigned long, arg5)
{
	long ret;

	switch (option) {
	case PR_SET_NAME:
		return set_comm(task, arg2);
	case PR_GET_NAME:
		return copy_to_user(arg2, task->comm, TASK_COMM_LEN) ? -EFAULT : 0;
	case PR_SET_PDEATHSIG:
		if (arg2 > _NSIG)
			return -EINVAL;
		task->pdeath_signal = (int)arg2;
		return 0;
	case PR_GET_PDEATHSIG:
		return copy_to_user(arg2, &task->pdeath_signal, sizeof(int)) ? -EFAULT : 0;
	case PR_GET_DUMPABLE:
		return 1;
	case PR_SET_DUMPABLE:
		return arg2 > 1 ? -EINVAL : 0;
	case PR_SET_NO_NEW_PRIVS:
		if (arg2 != 1 || arg3 || arg4 || arg5)
			return -EINVAL;
		task->no_new_privs = true;
		return 0;
	case PR_GET_NO_NEW_PRIVS:
		return arg2 || arg3 || arg4 || arg5 ? -EINVAL : task->no_new_privs;
	case PR_SET_THP_DISABLE:
		if (arg3 || arg4 || arg5)
			return -EINVAL;
		if (arg2)
			task->mm->flags |= MMF_DISABLE_THP;
		else
			task->mm->flags &= ~MMF_DISABLE_THP;
		return 0;
	case PR_GET_THP_DISABLE:
		if (arg2 || arg3 || arg4 || arg5)
			return -EINVAL;
		return !!(task->mm->flags & MMF_DISABLE_THP);
	}
	ret = cap_task_prctl(task, option, arg2);
	return ret == -ENOSYS ? -EINVAL : ret;
}
