/*
 * Resource limits (Linux: include/uapi/linux/resource.h, kernel/sys.c
 * do_prlimit): each process has its table (task->signal->rlim,
 * <sched.h>), a copy of its parent's at fork. Example: after
 * prlimit64(0, RLIMIT_NOFILE, {64, 128}, NULL), raising the hard limit
 * back to 256 is -EPERM; lowering the soft one to 32 is allowed.
 */
#ifndef FOLIUM_RESOURCE_H
#define FOLIUM_RESOURCE_H

#include <kernel.h>
#include <errno.h>
#include <timekeeping.h>

#ifndef ESRCH
#define ESRCH 3 /* not in <errno.h> yet */
#endif

#define RLIMIT_CPU 0
#define RLIMIT_FSIZE 1
#define RLIMIT_DATA 2
#define RLIMIT_STACK 3
#define RLIMIT_CORE 4
#define RLIMIT_RSS 5
#define RLIMIT_NPROC 6
#define RLIMIT_NOFILE 7
#define RLIMIT_MEMLOCK 8
#define RLIMIT_AS 9
#define RLIMIT_LOCKS 10
#define RLIMIT_SIGPENDING 11
#define RLIMIT_MSGQUEUE 12
#define RLIMIT_NICE 13
#define RLIMIT_RTPRIO 14
#define RLIMIT_RTTIME 15
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0ul)
#define RLIMIT_STACK_DEFAULT (8ul << 20) /* Linux's _STK_LIM, 8 MiB */

struct rlimit64 {
	uint64_t rlim_cur;
	uint64_t rlim_max;
};

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1

struct task_struct;
/* Linux: struct rusage (getrusage, wait4). */
struct rusage {
	struct __kernel_old_timeval ru_utime, ru_stime;
	long ru_maxrss, ru_ixrss, ru_idrss, ru_isrss, ru_minflt, ru_majflt, ru_nswap;
	long ru_inblock, ru_oublock, ru_msgsnd, ru_msgrcv, ru_nsignals, ru_nvcsw, ru_nivcsw;
};
/* Linux: getrusage(p, who, r) with RUSAGE_SELF, RUSAGE_CHILDREN (the
 * children reaped so far) or RUSAGE_BOTH (kernel/sys.c). Time on the CPU
 * counts as user time (the kernel does not split it). */
#define RUSAGE_BOTH (-2)
void getrusage(struct task_struct *p, int who, struct rusage *r);
/* Read (old) and/or set (new) a limit of @task (kernel/sys.c). Return: 0,
 * -EINVAL (resource, soft above hard) or -EPERM (raising a hard limit
 * without cap_sys_resource, RLIMIT_NOFILE past the fd table). Linux:
 * do_prlimit, capable(CAP_SYS_RESOURCE) passed in. */
int do_prlimit(struct task_struct *task, unsigned int resource, const struct rlimit64 *new,
	       struct rlimit64 *old, bool cap_sys_resource);

#endif
