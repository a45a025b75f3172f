/*
 * The host's software MMU (arch/host/mmu.c): translate a lower-half
 * address of an mm through its page tables in simulated physical memory,
 * as the CPU would, setting accessed and dirty bits on the way, with a
 * TLB per modelled CPU (host_cpu) for the address space it has loaded,
 * keeping each translation until invlpg, a CR3 write or a fault on that
 * CPU drops it. Tests read the TLB through
 * host_tlb_lookup and host_tlb_stat.
 */
#ifndef FOLIUM_ASM_MMU_H
#define FOLIUM_ASM_MMU_H

#include <stdbool.h>
#include <stdint.h>

struct mm_struct;

/*
 * Translate addr for one access, as the CPU. For the active mm (its pgd
 * is host_active_pgd): a TLB hit serves the access without reading the
 * tables, even if they changed since; a write through an entry cached
 * clean walks again to set D; a miss walks like the CPU (every level
 * present, RW at every level for a write, A set in each entry used, D in
 * the leaf on a write) and caches the 4 KiB or 2 MiB leaf. For any other
 * mm: the walk alone, nothing cached, as a CR3 load of its tables, the
 * access and the CR3 load back would leave it. That matches mm/tlb.c's
 * mm_is_active(), which sends no flush for an inactive mm: an entry
 * cached for one would be stale with no flush to drop it. A fault drops
 * the address's entries. Return: 0 with *host_ptr the byte's host
 * address, or -1 (not present, or a write to a read-only mapping).
 */
int host_mmu_translate(struct mm_struct *mm, unsigned long addr, bool write, void **host_ptr);

/* The CPUs the MMU models (host_cpu 0..HOST_MMU_CPUS-1), each with its
 * own TLB and loaded tables. */
#define HOST_MMU_CPUS 8
/* The pgd this CPU last passed to arch_switch_mm (0: the "kernel's"
 * tables). Its TLB holds translations of these tables only: switch_mm
 * sets it with current_mm, and the CR3 write empties the TLB. */
uint64_t host_active_pgd_of_this_cpu(void);

/* What the TLB caches for an address. */
struct host_tlb_entry {
	unsigned long size; /* PAGE_SIZE or PMD_SIZE */
	unsigned long pfn;  /* the page's first 4 KiB frame */
	uint64_t flags;	    /* _PAGE_RW, _PAGE_USER, _PAGE_NX, _PAGE_DIRTY as cached */
};
/* Look without touching: no walk, no A/D, no LRU update. Return: true
 * with *e filled if an entry covers addr (the 4 KiB one if both do). */
bool host_tlb_lookup(unsigned long addr, struct host_tlb_entry *e);
/* Return: how many entries, of both sizes, are valid. */
unsigned long host_tlb_nr_entries(void);

/* Since the program started; tests take differences. */
struct host_tlb_stat {
	unsigned long hits;	   /* accesses served by an entry */
	unsigned long misses;	   /* accesses that walked and (if allowed) filled */
	unsigned long dirty_walks; /* writes through a clean entry, walking to set D */
	unsigned long dropped;	   /* entries invalidated: invlpg, CR3, faults, D walks */
	unsigned long evicted;	   /* entries replaced by a fill into a full set */
};
extern struct host_tlb_stat host_tlb_stat;

/* arch/host/fault_probe.c: would one access to @addr fault (SIGSEGV or SIGBUS)?
 * It is made, and a fault caught: for guard pages and unmapped vmalloc
 * addresses, which the kernel would report as an oops. */
bool host_access_faults(const void *addr, bool write);

#endif
