/*
 * The resource limits of the running program (Linux: the rlim array of
 * signal_struct, do_prlimit in kernel/sys.c). One program runs at a time,
 * so the table is this file's, reset at each exec; plain C, so the host
 * tests can set a limit (RLIMIT_MEMLOCK for mlock) as prlimit64 would.
 * The system calls over it are kernel/sys.c's.
 */
#include <binfmt_elf.h>
#include <fs.h>
#include <resource.h>

static struct rlimit64 rlim[RLIM_NLIMITS];
static bool rlim_set; /* rlimits_init has run: the kernel's own callers need no exec */

/* Linux: INIT_RLIMITS, with RLIMIT_NOFILE the size of the fd table
 * (which cannot grow: Linux's nr_open) and the stack exec's 8 MiB. */
void rlimits_init(void)
{
	for (int i = 0; i < RLIM_NLIMITS; i++)
		rlim[i] = (struct rlimit64){ RLIM_INFINITY, RLIM_INFINITY };
	rlim[RLIMIT_STACK].rlim_cur = RLIMIT_STACK_DEFAULT;
	rlim[RLIMIT_CORE].rlim_cur = 0;
	rlim[RLIMIT_NOFILE] = (struct rlimit64){ NR_OPEN_DEFAULT, NR_OPEN_DEFAULT };
	rlim[RLIMIT_MEMLOCK] = (struct rlimit64){ 8ul << 20, 8ul << 20 };
	rlim[13] = rlim[14] = (struct rlimit64){ 0, 0 }; /* RLIMIT_NICE, RLIMIT_RTPRIO */
	rlim_set = true;
}

uint64_t rlimit(unsigned int resource)
{
	if (!rlim_set)
		rlimits_init();
	return rlim[resource].rlim_cur;
}

/*
 * Linux: do_prlimit. The checks in its order: the resource, soft above
 * hard, RLIMIT_NOFILE above the fd table (-EPERM), then raising a hard
 * limit, which needs CAP_SYS_RESOURCE (-EPERM without it).
 */
int do_prlimit(unsigned int resource, const struct rlimit64 *new, struct rlimit64 *old,
	       bool cap_sys_resource)
{
	if (resource >= RLIM_NLIMITS)
		return -EINVAL;
	if (!rlim_set)
		rlimits_init();
	if (new) {
		if (new->rlim_cur > new->rlim_max)
			return -EINVAL;
		if (resource == RLIMIT_NOFILE && new->rlim_max > NR_OPEN_DEFAULT)
			return -EPERM;
		if (new->rlim_max > rlim[resource].rlim_max && !cap_sys_resource)
			return -EPERM;
	}
	if (old)
		*old = rlim[resource];
	if (new)
		rlim[resource] = *new;
	return 0;
}
