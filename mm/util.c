/*
 * Overcommit accounting (Linux: mm/util.c, __vm_enough_memory): the
 * committed address space and the policy that may refuse a charge.
 * Mode 0 (heuristic) refuses only a single request larger than RAM +
 * swap; mode 1 refuses nothing; mode 2 keeps Committed_AS below
 * CommitLimit, less a reserve. Folium has no swap and no hugetlb pool, so
 * CommitLimit is RAM * overcommit_ratio / 100, or overcommit_kbytes.
 * Example: 262144 pages of RAM, ratio 50: CommitLimit 131072 pages.
 */
#include <arch.h>
#include <kernel.h>
#include <hugetlb.h>
#include <mman.h>
#include <sysctl.h>

int sysctl_overcommit_memory = OVERCOMMIT_GUESS;
int sysctl_overcommit_ratio = 50;
unsigned long sysctl_overcommit_kbytes;
unsigned long sysctl_admin_reserve_kbytes = 1ul << 13; /* 8 MiB */
unsigned long sysctl_user_reserve_kbytes = 1ul << 17;  /* 128 MiB */

/* Pages charged (Linux: the vm_committed_as percpu counter; one CPU). */
static long vm_committed_as;

unsigned long totalram_pages(void)
{
	unsigned long pages = 0;

	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		for (int z = 0; NODE_DATA(nid) && z < MAX_NR_ZONES; z++)
			pages += NODE_DATA(nid)->node_zones[z].managed_pages;
	return pages;
}

unsigned long vm_commit_limit(void)
{
	if (sysctl_overcommit_kbytes)
		return sysctl_overcommit_kbytes >> (PAGE_SHIFT - 10);
	/* Linux: the HugeTLB pools are not committable memory. */
	return (totalram_pages() - hugetlb_total_pages()) * (unsigned long)sysctl_overcommit_ratio /
	       100;
}

unsigned long vm_memory_committed(void)
{
	return vm_committed_as > 0 ? (unsigned long)vm_committed_as : 0;
}

void vm_acct_memory(long pages)
{
	vm_committed_as += pages;
}

void vm_unacct_memory(long pages)
{
	vm_acct_memory(-pages);
}

/* Linux: __vm_enough_memory's pr_warn_ratelimited (10 per 5 s). */
static void vm_enough_memory_warn(long pages)
{
	static uint64_t window_start;
	static int printed;
	uint64_t now = arch_uptime_ns();

	if (now - window_start > 5000000000ull) {
		window_start = now;
		printed = 0;
	}
	if (printed++ < 10)
		pr_warn("__vm_enough_memory: bytes: %lu not enough memory for the allocation\n",
			(unsigned long)pages << PAGE_SHIFT);
}

/* What overcommit mode 2 lets Committed_AS stay below for @mm. */
static long vm_commit_allowed(const struct mm_struct *mm, bool cap_sys_admin)
{
	long allowed = (long)vm_commit_limit();

	if (!cap_sys_admin)
		allowed -= (long)(sysctl_admin_reserve_kbytes >> (PAGE_SHIFT - 10));
	/* Don't let a single process grow so big a user can't recover. */
	if (mm)
		allowed -= MIN((long)(mm_total_vm(mm) / 32),
			       (long)(sysctl_user_reserve_kbytes >> (PAGE_SHIFT - 10)));
	return allowed;
}

int __vm_enough_memory(const struct mm_struct *mm, long pages, bool cap_sys_admin)
{
	/* Charged first, so a racing check sees it (Linux's order). */
	vm_acct_memory(pages);
	if (sysctl_overcommit_memory == OVERCOMMIT_ALWAYS)
		return 0;
	if (sysctl_overcommit_memory == OVERCOMMIT_GUESS) {
		if (pages > (long)totalram_pages())
			goto error;
		return 0;
	}
	if (vm_committed_as < vm_commit_allowed(mm, cap_sys_admin))
		return 0;
error:
	vm_enough_memory_warn(pages);
	vm_unacct_memory(pages);
	return -ENOMEM;
}

unsigned long vm_commit_room(const struct mm_struct *mm, bool cap_sys_admin)
{
	long allowed;

	if (sysctl_overcommit_memory != OVERCOMMIT_NEVER)
		return ULONG_MAX;
	allowed = vm_commit_allowed(mm, cap_sys_admin);
	return vm_committed_as + 1 < allowed ? (unsigned long)(allowed - vm_committed_as - 1) : 0;
}

void init_overcommit_reserves(void)
{
	unsigned long free_kbytes = 0;

	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			free_kbytes += node_free_pages(NODE_DATA(nid)) << (PAGE_SHIFT - 10);
	sysctl_admin_reserve_kbytes = MIN(free_kbytes / 32, 1ul << 13);
	sysctl_user_reserve_kbytes = MIN(free_kbytes / 32, 1ul << 17);
}

/* Linux: overcommit_policy_handler (0..2; the policy change needs no
 * per-CPU sync on one CPU). */
static int overcommit_policy_handler(const struct ctl_table *table, int write, char *buffer,
				     size_t *lenp, uint64_t *ppos)
{
	return proc_dointvec_minmax(table, write, buffer, lenp, ppos);
}

/* Linux: overcommit_ratio_handler. Setting the ratio makes it the rule. */
static int overcommit_ratio_handler(const struct ctl_table *table, int write, char *buffer,
				    size_t *lenp, uint64_t *ppos)
{
	int ret = proc_dointvec(table, write, buffer, lenp, ppos);

	if (!ret && write)
		sysctl_overcommit_kbytes = 0;
	return ret;
}

/* Linux: overcommit_kbytes_handler. Setting kbytes makes it the rule. */
static int overcommit_kbytes_handler(const struct ctl_table *table, int write, char *buffer,
				     size_t *lenp, uint64_t *ppos)
{
	int ret = proc_doulongvec_minmax(table, write, buffer, lenp, ppos);

	if (!ret && write)
		sysctl_overcommit_ratio = 0;
	return ret;
}

/* Linux: util_sysctl_table in mm/util.c. */
static const struct ctl_table util_sysctl_table[] = {
	{ .procname = "overcommit_memory",
	  .data = &sysctl_overcommit_memory,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = overcommit_policy_handler,
	  .extra1 = SYSCTL_ZERO,
	  .extra2 = SYSCTL_TWO },
	{ .procname = "overcommit_ratio",
	  .data = &sysctl_overcommit_ratio,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = overcommit_ratio_handler },
	{ .procname = "overcommit_kbytes",
	  .data = &sysctl_overcommit_kbytes,
	  .maxlen = sizeof(unsigned long),
	  .mode = 0644,
	  .proc_handler = overcommit_kbytes_handler },
	{ .procname = "user_reserve_kbytes",
	  .data = &sysctl_user_reserve_kbytes,
	  .maxlen = sizeof(unsigned long),
	  .mode = 0644,
	  .proc_handler = proc_doulongvec_minmax },
	{ .procname = "admin_reserve_kbytes",
	  .data = &sysctl_admin_reserve_kbytes,
	  .maxlen = sizeof(unsigned long),
	  .mode = 0644,
	  .proc_handler = proc_doulongvec_minmax },
};
SYSCTL_TABLE("vm", util_sysctl_table);
