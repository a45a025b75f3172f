/*
 * Overcommit accounting (Linux: include/linux/mman.h, mm/util.c,
 * Documentation/mm/overcommit-accounting.rst): the policy knobs, the
 * committed address space (Committed_AS) and the check every accountable
 * mapping passes. A private writable mapping of a program (VM_ACCOUNT) is
 * charged when it is made or grows, and uncharged when it is unmapped,
 * shrinks or its mm exits. Example, mode 2 with ratio 50 on 1 GiB of RAM
 * and no swap: CommitLimit is 512 MiB, so with 100 MiB committed a
 * 450 MiB mmap fails with -ENOMEM and a 400 MiB one succeeds.
 */
#ifndef FOLIUM_MMAN_H
#define FOLIUM_MMAN_H

#include <vm.h>

/* sysctl_overcommit_memory's values (Linux's). */
#define OVERCOMMIT_GUESS 0  /* heuristic: refuse only one request above RAM + swap */
#define OVERCOMMIT_ALWAYS 1 /* never refuse */
#define OVERCOMMIT_NEVER 2  /* strict: Committed_AS stays within CommitLimit */

/* The knobs of /proc/sys/vm/overcommit_{memory,ratio,kbytes} and
 * {admin,user}_reserve_kbytes, Linux's names and defaults (0, 50, 0;
 * the reserves are set at boot from free memory, as Linux's
 * init_admin_reserve and init_user_reserve do). */
extern int sysctl_overcommit_memory;
extern int sysctl_overcommit_ratio;
extern unsigned long sysctl_overcommit_kbytes;
extern unsigned long sysctl_admin_reserve_kbytes;
extern unsigned long sysctl_user_reserve_kbytes;

/* --- mm/util.c ------------------------------------------------------------- */
/* Return: the pages of RAM the page allocator manages (Linux: totalram_pages). */
unsigned long totalram_pages(void);
/* Return: CommitLimit in pages: overcommit_kbytes, else (RAM - hugetlb) *
 * overcommit_ratio / 100, plus swap (Linux: vm_commit_limit). */
unsigned long vm_commit_limit(void);
/* Return: Committed_AS in pages (Linux: vm_memory_committed). */
unsigned long vm_memory_committed(void);
/* Charge or uncharge pages of committed address space (Linux:
 * vm_acct_memory, vm_unacct_memory); no check. */
void vm_acct_memory(long pages);
void vm_unacct_memory(long pages);
/*
 * Charge pages for mm if the overcommit policy allows it (Linux:
 * __vm_enough_memory; cap_sys_admin: the caller may use the admin
 * reserve, as root can). Return: 0 with the pages charged, or -ENOMEM
 * with nothing charged.
 */
int __vm_enough_memory(const struct mm_struct *mm, long pages, bool cap_sys_admin);
/* Set the reserves from the free memory now (Linux: init_admin_reserve,
 * init_user_reserve). Context: boot, after mm_init. */
void init_overcommit_reserves(void);

#endif
