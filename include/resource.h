/*
 * Resource limits of the running program (Linux: include/uapi/linux/
 * resource.h, kernel/sys.c do_prlimit). One program runs at a time, so
 * the table is kernel/sys.c's own, reset at each exec. Example: after
 * prlimit64(0, RLIMIT_NOFILE, {64, 128}, NULL), raising the hard limit
 * back to 256 is -EPERM; lowering the soft one to 32 is allowed.
 */
#ifndef FOLIUM_RESOURCE_H
#define FOLIUM_RESOURCE_H

#include <kernel.h>
#include <errno.h>

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
#define RLIM_NLIMITS 16
#define RLIM_INFINITY (~0ul)

struct rlimit64 {
	uint64_t rlim_cur;
	uint64_t rlim_max;
};

#define RUSAGE_SELF 0
#define RUSAGE_CHILDREN (-1)
#define RUSAGE_THREAD 1

/* Set every limit to its value at exec (8 MiB stack, NR_OPEN_DEFAULT
 * files, no core dumps, the rest unlimited). Context: each exec, before
 * the program runs. */
void rlimits_init(void);
/* Return: the soft limit of resource (< RLIM_NLIMITS). */
uint64_t rlimit(unsigned int resource);
/* Read (old) and/or set (new) a limit (kernel/resource.c). Return: 0,
 * -EINVAL (resource, soft above hard) or -EPERM (raising a hard limit
 * without cap_sys_resource, RLIMIT_NOFILE past the fd table). Linux:
 * do_prlimit, capable(CAP_SYS_RESOURCE) passed in. */
int do_prlimit(unsigned int resource, const struct rlimit64 *new, struct rlimit64 *old,
	       bool cap_sys_resource);

#endif
