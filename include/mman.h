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

/* mmap's prot and flags (madvise's advice is in <vm.h>): Linux's values
 * (uapi/asm-generic/mman*.h). */
#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_DROPPABLE 0x08 /* a mapping type, as MAP_PRIVATE (Linux 6.11) */
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_GROWSDOWN 0x0100
#define MAP_LOCKED 0x2000
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_HUGETLB 0x40000
#define MAP_FIXED_NOREPLACE 0x100000
/* mlock2's and mlockall's flags (uapi/asm-generic/mman*.h). */
#define MLOCK_ONFAULT 0x01
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4
/* MAP_HUGETLB's size: log2 of it in bits 26..31, 0 for the default. */
#define MAP_HUGE_SHIFT 26
#define MAP_HUGE_MASK 0x3f
/* mremap flags (Linux: include/uapi/linux/mman.h). */
#define MREMAP_MAYMOVE 1
#define MREMAP_FIXED 2
/* msync's flags (Linux's values). */
#define MS_ASYNC 1
#define MS_INVALIDATE 2
#define MS_SYNC 4
#define MREMAP_DONTUNMAP 4

/* Linux: calc_vm_prot_bits, one VMA flag per PROT bit. A PROT_WRITE-only
 * VMA has no VM_READ ("-w-p" in maps, MADV_POPULATE_READ refuses it),
 * though x86 lets a read through (VM_ACCESS_FLAGS); PROT_NONE gives none,
 * so every access faults. A program's VMA adds VM_USER. */
static inline unsigned long calc_vm_prot_bits(unsigned long prot)
{
	return (prot & PROT_READ ? VM_READ : 0) | (prot & PROT_WRITE ? VM_WRITE : 0) |
	       (prot & PROT_EXEC ? VM_EXEC : 0);
}

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
/* How many pages __vm_enough_memory would still grant mm, charged one
 * request at a time: ULONG_MAX outside overcommit mode 2 (there a request
 * fails only alone, by its own size). For tmpfs, whose files are charged
 * page by page as they get them (Linux: shmem_acct_blocks, -ENOSPC). */
unsigned long vm_commit_room(const struct mm_struct *mm, bool cap_sys_admin);
/* Set the reserves from the free memory now (Linux: init_admin_reserve,
 * init_user_reserve). Context: boot, after mm_init. */
void init_overcommit_reserves(void);

#endif
