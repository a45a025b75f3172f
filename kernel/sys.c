/*
 * Process identity and the process's own settings (Linux: kernel/sys.c,
 * kernel/groups.c, kernel/exit.c, kernel/sched/core.c,
 * kernel/futex/syscalls.c): pids, user and group ids and groups (the
 * credentials themselves are kernel/cred.c's), uname, resource limits
 * and usage, sysinfo, priorities and affinity, prctl,
 * exit and exit_group. Example: uname(&u) gives sysname "Folium",
 * release "6.1.0-folium", which glibc reads as kernel 6.1.0, above any
 * minimum it checks; setresuid(1000, 1000, 1000) from root makes the
 * caller uid 1000 with no capabilities.
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

/* Linux: sys_getpid, the thread group's id. */
/* Linux: sys_getcpu. One CPU, one node: both are 0; the third argument
 * (Linux's unused cache) is ignored. */
SYSCALL_DEFINE3(getcpu, unsigned long, cpup, unsigned long, nodep, unsigned long, unused)
{
	const unsigned int zero = 0;

	(void)unused;
	if (cpup && copy_to_user(cpup, &zero, sizeof(zero)))
		return -EFAULT;
	if (nodep && copy_to_user(nodep, &zero, sizeof(zero)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE0(getpid)
{
	return task->tgid;
}

/* Linux: sys_gettid, the thread's own. */
SYSCALL_DEFINE0(gettid)
{
	return task->pid;
}

/* Linux: sys_getppid, the process's parent. The kernel's own task, pid
 * 0, parents nothing a program sees but the kernel shell (pid 1). */
SYSCALL_DEFINE0(getppid)
{
	return task->real_parent ? task->real_parent->tgid : 0;
}

/* --- user and group ids (Linux: kernel/sys.c, kernel/groups.c) ------------------- */

SYSCALL_DEFINE0(getuid)
{
	return task->cred.uid;
}

SYSCALL_DEFINE0(geteuid)
{
	return task->cred.euid;
}

SYSCALL_DEFINE0(getgid)
{
	return task->cred.gid;
}

SYSCALL_DEFINE0(getegid)
{
	return task->cred.egid;
}

/* Linux: set_user and flag_nproc_exceeded. A new real uid takes its
 * ucounts (-EAGAIN without memory). Linux does not fail set*uid beyond
 * RLIMIT_NPROC, since programs run as root rarely check it: it marks the
 * task, and the next execve fails instead if the uid still has too many
 * tasks. */
static int set_user(struct task_struct *task, struct cred *next)
{
	struct ucounts *uc = alloc_ucounts(next->uid);

	if (!uc)
		return -EAGAIN;
	put_ucounts(next->ucounts);
	next->ucounts = uc;
	if (uc != &init_ucounts && is_rlimit_overlimit(uc, task_rlimit(task, RLIMIT_NPROC)))
		task->flags |= PF_NPROC_EXCEEDED;
	else
		task->flags &= ~PF_NPROC_EXCEEDED;
	return 0;
}

/* The end of every set*uid and set*gid: the capabilities follow the uids
 * (cap_task_fix_setuid) and the credentials are installed, or thrown
 * away on @err. */
static long finish_setid(struct task_struct *task, struct cred *next, enum setid_kind kind,
			 long err)
{
	if (err) {
		abort_creds(next);
		return err;
	}
	if (kind)
		cap_task_fix_setuid(next, &task->cred, kind);
	commit_creds(task, next);
	return 0;
}

/* Linux: __sys_setuid. With CAP_SETUID all four uids; otherwise the
 * effective and file-system uid, to the real or saved one only. */
SYSCALL_DEFINE1(setuid, unsigned int, uid)
{
	const struct cred *old = &task->cred;
	struct cred next;
	long err = 0;

	if (uid == INVALID_UID)
		return -EINVAL;
	prepare_creds(task, &next);
	if (has_capability(task, CAP_SETUID)) {
		next.uid = next.suid = uid;
		if (uid != old->uid)
			err = set_user(task, &next);
	} else if (uid != old->uid && uid != old->suid) {
		err = -EPERM;
	}
	next.euid = next.fsuid = uid;
	return finish_setid(task, &next, LSM_SETID_ID, err);
}

/* Linux: __sys_setgid. */
SYSCALL_DEFINE1(setgid, unsigned int, gid)
{
	const struct cred *old = &task->cred;
	struct cred next;
	long err = 0;

	if (gid == INVALID_UID)
		return -EINVAL;
	prepare_creds(task, &next);
	if (has_capability(task, CAP_SETGID))
		next.gid = next.egid = next.sgid = next.fsgid = gid;
	else if (gid == old->gid || gid == old->sgid)
		next.egid = next.fsgid = gid;
	else
		err = -EPERM;
	return finish_setid(task, &next, 0, err);
}

/* Linux: __sys_setreuid. -1 leaves an id; the real uid may become the
 * effective one, the effective any of the three, or anything with
 * CAP_SETUID. The saved uid follows the effective one when the real uid
 * is set or the effective one leaves the real one. */
SYSCALL_DEFINE2(setreuid, unsigned int, ruid, unsigned int, euid)
{
	const struct cred *old = &task->cred;
	bool cap = has_capability(task, CAP_SETUID);
	struct cred next;
	long err = 0;

	prepare_creds(task, &next);
	if (ruid != INVALID_UID) {
		next.uid = ruid;
		if (ruid != old->uid && ruid != old->euid && !cap)
			err = -EPERM;
	}
	if (!err && euid != INVALID_UID) {
		next.euid = euid;
		if (euid != old->uid && euid != old->euid && euid != old->suid && !cap)
			err = -EPERM;
	}
	if (!err && next.uid != old->uid)
		err = set_user(task, &next);
	if (ruid != INVALID_UID || (euid != INVALID_UID && euid != old->uid))
		next.suid = next.euid;
	next.fsuid = next.euid;
	return finish_setid(task, &next, LSM_SETID_RE, err);
}

/* Linux: __sys_setregid. */
SYSCALL_DEFINE2(setregid, unsigned int, rgid, unsigned int, egid)
{
	const struct cred *old = &task->cred;
	bool cap = has_capability(task, CAP_SETGID);
	struct cred next;
	long err = 0;

	prepare_creds(task, &next);
	if (rgid != INVALID_UID) {
		if (rgid == old->gid || rgid == old->egid || cap)
			next.gid = rgid;
		else
			err = -EPERM;
	}
	if (!err && egid != INVALID_UID) {
		if (egid == old->gid || egid == old->egid || egid == old->sgid || cap)
			next.egid = egid;
		else
			err = -EPERM;
	}
	if (rgid != INVALID_UID || (egid != INVALID_UID && egid != old->gid))
		next.sgid = next.egid;
	next.fsgid = next.egid;
	return finish_setid(task, &next, 0, err);
}

/* Whether @id (not -1) is none of the task's three: changing to it then
 * takes the capability (Linux: __sys_setresuid's ruid_new and friends). */
static bool id_new(uint32_t id, uint32_t a, uint32_t b, uint32_t c)
{
	return id != INVALID_UID && id != a && id != b && id != c;
}

/* Linux: __sys_setresuid. Each id may become any of the three, or
 * anything with CAP_SETUID; -1 leaves it. */
SYSCALL_DEFINE3(setresuid, unsigned int, ruid, unsigned int, euid, unsigned int, suid)
{
	const struct cred *old = &task->cred;
	struct cred next;
	long err = 0;

	if ((id_new(ruid, old->uid, old->euid, old->suid) ||
	     id_new(euid, old->uid, old->euid, old->suid) ||
	     id_new(suid, old->uid, old->euid, old->suid)) &&
	    !has_capability(task, CAP_SETUID))
		return -EPERM;
	prepare_creds(task, &next);
	if (ruid != INVALID_UID) {
		next.uid = ruid;
		if (ruid != old->uid)
			err = set_user(task, &next);
	}
	if (euid != INVALID_UID)
		next.euid = euid;
	if (suid != INVALID_UID)
		next.suid = suid;
	next.fsuid = next.euid;
	return finish_setid(task, &next, LSM_SETID_RES, err);
}

/* Linux: __sys_setresgid. */
SYSCALL_DEFINE3(setresgid, unsigned int, rgid, unsigned int, egid, unsigned int, sgid)
{
	const struct cred *old = &task->cred;
	struct cred next;

	if ((id_new(rgid, old->gid, old->egid, old->sgid) ||
	     id_new(egid, old->gid, old->egid, old->sgid) ||
	     id_new(sgid, old->gid, old->egid, old->sgid)) &&
	    !has_capability(task, CAP_SETGID))
		return -EPERM;
	prepare_creds(task, &next);
	if (rgid != INVALID_UID)
		next.gid = rgid;
	if (egid != INVALID_UID)
		next.egid = egid;
	if (sgid != INVALID_UID)
		next.sgid = sgid;
	next.fsgid = next.egid;
	return finish_setid(task, &next, 0, 0);
}

/* Linux: sys_getresuid and sys_getresgid: each id to its pointer. */
static long put_ids(uint32_t a, uint32_t b, uint32_t c, unsigned long pa, unsigned long pb,
		    unsigned long pc)
{
	if (copy_to_user(pa, &a, sizeof(a)) || copy_to_user(pb, &b, sizeof(b)) ||
	    copy_to_user(pc, &c, sizeof(c)))
		return -EFAULT;
	return 0;
}

SYSCALL_DEFINE3(getresuid, unsigned long, ruidp, unsigned long, euidp, unsigned long, suidp)
{
	return put_ids(task->cred.uid, task->cred.euid, task->cred.suid, ruidp, euidp, suidp);
}

SYSCALL_DEFINE3(getresgid, unsigned long, rgidp, unsigned long, egidp, unsigned long, sgidp)
{
	return put_ids(task->cred.gid, task->cred.egid, task->cred.sgid, rgidp, egidp, sgidp);
}

/* Linux: __sys_setfsuid. Always the old fsuid back; the new one is taken
 * when it is one of the task's uids or the task has CAP_SETUID, and the
 * file-system capabilities follow it. */
SYSCALL_DEFINE1(setfsuid, unsigned int, uid)
{
	const struct cred *old = &task->cred;
	uint32_t old_fsuid = old->fsuid;
	struct cred next;

	if (uid == INVALID_UID || uid == old->fsuid)
		return old_fsuid;
	if (uid != old->uid && uid != old->euid && uid != old->suid &&
	    !has_capability(task, CAP_SETUID))
		return old_fsuid;
	prepare_creds(task, &next);
	next.fsuid = uid;
	finish_setid(task, &next, LSM_SETID_FS, 0);
	return old_fsuid;
}

/* Linux: __sys_setfsgid. */
SYSCALL_DEFINE1(setfsgid, unsigned int, gid)
{
	const struct cred *old = &task->cred;
	uint32_t old_fsgid = old->fsgid;
	struct cred next;

	if (gid == INVALID_UID || gid == old->fsgid)
		return old_fsgid;
	if (gid != old->gid && gid != old->egid && gid != old->sgid &&
	    !has_capability(task, CAP_SETGID))
		return old_fsgid;
	prepare_creds(task, &next);
	next.fsgid = gid;
	finish_setid(task, &next, 0, 0);
	return old_fsgid;
}

/* Linux: sys_getgroups. Size 0 asks how many; a smaller buffer than the
 * groups is -EINVAL. A program starts with none (as under Linux's init). */
SYSCALL_DEFINE2(getgroups, int, gidsetsize, unsigned long, grouplist)
{
	const struct group_info *gi = task->cred.group_info;

	if (gidsetsize < 0)
		return -EINVAL;
	if (!gidsetsize)
		return gi->ngroups;
	if (gi->ngroups > gidsetsize)
		return -EINVAL;
	if (copy_to_user(grouplist, gi->gid, sizeof(gi->gid[0]) * gi->ngroups))
		return -EFAULT;
	return gi->ngroups;
}

/* Linux: sys_setgroups. CAP_SETGID (may_setgroups), at most NGROUPS_MAX,
 * kept sorted (groups_sort). */
SYSCALL_DEFINE2(setgroups, int, gidsetsize, unsigned long, grouplist)
{
	struct group_info *gi;
	struct cred next;

	if (!has_capability(task, CAP_SETGID))
		return -EPERM;
	if ((unsigned int)gidsetsize > NGROUPS_MAX)
		return -EINVAL;
	gi = groups_alloc(gidsetsize);
	if (!gi)
		return -ENOMEM;
	if (copy_from_user(gi->gid, grouplist, sizeof(gi->gid[0]) * gidsetsize)) {
		put_group_info(gi);
		return -EFAULT;
	}
	for (int i = 0; i < gidsetsize; i++)
		if (gi->gid[i] == INVALID_UID) {
			put_group_info(gi);
			return -EINVAL;
		}
	groups_sort(gi);
	prepare_creds(task, &next);
	put_group_info(next.group_info);
	next.group_info = gi;
	commit_creds(task, &next);
	return 0;
}

/* Linux: sys_set_tid_address. exit writes 0 there and wakes its futex
 * (mm_release), which pthread_join waits on. */
SYSCALL_DEFINE1(set_tid_address, unsigned long, tidptr)
{
	task->clear_child_tid = tidptr;
	return task->pid;
}

/* Linux: sys_exit ends the calling thread only; exit_group the whole
 * process (do_group_exit). The status is the low byte. */
SYSCALL_DEFINE1(exit, int, error_code)
{
	do_exit((error_code & 0xff) << 8);
}

SYSCALL_DEFINE1(exit_group, int, error_code)
{
	do_group_exit((error_code & 0xff) << 8);
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

/* Linux: check_prlimit_permission. Another process's limits take all
 * its uids and gids equal to the caller's real ones, or CAP_SYS_RESOURCE. */
static bool prlimit_permitted(const struct task_struct *task, const struct task_struct *p)
{
	return p == task || cred_ids_are(&p->cred, task->cred.uid, task->cred.gid) ||
	       has_capability(task, CAP_SYS_RESOURCE);
}

/* Linux: sys_prlimit64. The new limit is read before the pid is looked
 * up; pid 0 is the caller. */
SYSCALL_DEFINE4(prlimit64, int, pid, unsigned int, resource, unsigned long, new_rlim, unsigned long,
		old_rlim)
{
	struct rlimit64 new, old;
	struct task_struct *p;
	int err;

	if (new_rlim && copy_from_user(&new, new_rlim, sizeof(new)))
		return -EFAULT;
	p = pid ? find_task_by_vpid(pid) : task;
	if (!p)
		return -ESRCH;
	if (!prlimit_permitted(task, p))
		return -EPERM;
	err = do_prlimit(p, resource, new_rlim ? &new : NULL, old_rlim ? &old : NULL,
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
	if (who == RUSAGE_THREAD) {
		task_cputime_adjusted(p, &ut, &st);
	} else if (who != RUSAGE_CHILDREN) {
		thread_group_cputime_adjusted(p, &ut, &st);
	}
	if (who != RUSAGE_CHILDREN) {
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

	thread_group_cputime_adjusted(task, &ut, &st);
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
	struct task_struct *p, *t;

	if (!pid)
		pid = task->tgid;
	if (!pgid)
		pgid = pid;
	if (pgid < 0)
		return -EINVAL;
	p = find_task_by_vpid(pid);
	if (!p)
		return -ESRCH;
	/* Linux: only a process (its leader's id) has a group to change. */
	if (!thread_group_leader(p))
		return -EINVAL;
	if (p->tgid != task->tgid) {
		if (!p->real_parent || p->real_parent->tgid != task->tgid)
			return -ESRCH;
		if (p->sid != task->sid)
			return -EPERM;
		if (!(p->flags & PF_FORKNOEXEC))
			return -EACCES;
	}
	if (p->sid == p->pid)
		return -EPERM;
	if (pgid != pid && !pgrp_in_session(pgid, task->sid))
		return -EPERM;
	for_each_thread(p, t) t->pgid = pgid;
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

	struct task_struct *t;

	for_each_process(p) if (p->pgid == task->tgid) return -EPERM;
	for_each_thread(task, t)
	{
		t->sid = task->tgid;
		t->pgid = task->tgid;
	}
	return task->tgid;
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
#define MIN_NICE (-20)
#define MAX_NICE 19

/* Linux: check_same_owner: the caller's effective uid is the target's
 * real or effective one. */
static bool check_same_owner(const struct task_struct *task, const struct task_struct *p)
{
	return p->cred.uid == task->cred.euid || p->cred.euid == task->cred.euid;
}

/* Linux: set_one_prio_perm: the same owner, or CAP_SYS_NICE. */
static bool set_one_prio_perm(const struct task_struct *task, const struct task_struct *p)
{
	return check_same_owner(task, p) || has_capability(task, CAP_SYS_NICE);
}

/* Linux: set_one_prio. A lower nice (more CPU) than now is allowed up to
 * RLIMIT_NICE (20 - nice) or with CAP_SYS_NICE (can_nice). The first
 * target clears -ESRCH; a refusal stays the answer. */
static long set_one_prio(struct task_struct *task, struct task_struct *p, int niceval, long error)
{
	if (!set_one_prio_perm(task, p))
		return -EPERM;
	if (niceval < task_nice(p) && (uint64_t)(20 - niceval) > task_rlimit(p, RLIMIT_NICE) &&
	    !has_capability(task, CAP_SYS_NICE))
		return -EACCES;
	set_user_nice(p, niceval);
	return error == -ESRCH ? 0 : error;
}

/* Whether @p is in the set setpriority and getpriority name beyond one
 * process: a process group (0: the caller's) or a user's processes (0:
 * the caller's real uid; the idle task, pid 0, is nobody's). */
static bool prio_match(const struct task_struct *task, const struct task_struct *p, int which,
		       int who)
{
	if (p->exit_state)
		return false; /* Linux's would include zombies until reaped */
	if (which == PRIO_PGRP)
		return p->pgid == (who ? who : task->pgid);
	return p->cred.uid == (who ? (uint32_t)who : task->cred.uid) && p->pid;
}

/* Linux: sys_setpriority. The nice value is clamped to -20..19. */
SYSCALL_DEFINE3(setpriority, int, which, int, who, int, niceval)
{
	struct task_struct *p;
	long error = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	niceval = MIN(MAX(niceval, MIN_NICE), MAX_NICE);
	if (which == PRIO_PROCESS) {
		p = who ? find_task_by_vpid(who) : task;
		return p ? set_one_prio(task, p, niceval, error) : error;
	}
	for_each_process(p) if (prio_match(task, p, which, who)) error =
		set_one_prio(task, p, niceval, error);
	return error;
}

/* Linux: sys_getpriority, which returns 20 - nice (1..40) so that no
 * value looks like an error; libc turns it back into the nice value. Of
 * a group or a user, the highest priority (lowest nice) among them. */
SYSCALL_DEFINE2(getpriority, int, which, int, who)
{
	struct task_struct *p;
	long ret = -ESRCH;

	if (which < PRIO_PROCESS || which > PRIO_USER)
		return -EINVAL;
	if (which == PRIO_PROCESS) {
		p = who ? find_task_by_vpid(who) : task;
		return p ? 20 - task_nice(p) : ret;
	}
	for_each_process(p) if (prio_match(task, p, which, who)) ret = MAX(ret, 20 - task_nice(p));
	return ret;
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
	if (pid != 0 && !find_task_by_vpid(pid))
		return -ESRCH;
	if (copy_to_user(user_mask_ptr, &mask, sizeof(mask)))
		return -EFAULT;
	return sizeof(mask);
}

/*
 * Linux: sys_sched_setaffinity. A mask shorter than the kernel's counts
 * as zero-extended, a longer one is cut; the target must be the caller's
 * own user's (check_same_owner: same effective uid as its real or
 * effective one) or the caller have CAP_SYS_NICE; a mask without an
 * online CPU (here: without CPU 0) is -EINVAL.
 */
SYSCALL_DEFINE3(sched_setaffinity, int, pid, unsigned int, len, unsigned long, user_mask_ptr)
{
	unsigned long mask = 0;
	struct task_struct *p;

	if (copy_from_user(&mask, user_mask_ptr, MIN(len, sizeof(mask))))
		return -EFAULT;
	p = pid ? find_task_by_vpid(pid) : task;
	if (!p)
		return -ESRCH;
	if (!check_same_owner(task, p) && !has_capability(task, CAP_SYS_NICE))
		return -EPERM;
	return mask & 1 ? 0 : -EINVAL;
}

/* prctl options served (Linux: include/uapi/linux/prctl.h). */
#define PR_SET_PDEATHSIG 1
#define PR_GET_PDEATHSIG 2
#define PR_GET_DUMPABLE 3
#define PR_SET_DUMPABLE 4
#define PR_GET_KEEPCAPS 7
#define PR_SET_KEEPCAPS 8
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
 * and busybox set it), the parent-death signal (sent when the parent
 * exits), the dumpable flag (no core dumps are written; it decides who
 * owns /proc/PID), KEEP_CAPS (the permitted set survives giving up uid
 * 0), no_new_privs (one-way, as Linux), and PR_SET_THP_DISABLE, which
 * makes every fault of the process order 0 (MMF_DISABLE_THP), and the
 * capability bounding set (kernel/capability.c). Any other option is
 * -EINVAL, as Linux's default.
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
		return task->mm && (task->mm->flags & MMF_DUMPABLE);
	case PR_SET_DUMPABLE: /* Linux: SUID_DUMP_DISABLE or SUID_DUMP_USER */
		if (arg2 > 1)
			return -EINVAL;
		if (arg2)
			task->mm->flags |= MMF_DUMPABLE;
		else
			task->mm->flags &= ~MMF_DUMPABLE;
		return 0;
	case PR_SET_KEEPCAPS:
		if (arg2 > 1)
			return -EINVAL;
		if (arg2)
			task->cred.securebits |= SECBIT_KEEP_CAPS;
		else
			task->cred.securebits &= ~SECBIT_KEEP_CAPS;
		return 0;
	case PR_GET_KEEPCAPS:
		return !!(task->cred.securebits & SECBIT_KEEP_CAPS);
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
