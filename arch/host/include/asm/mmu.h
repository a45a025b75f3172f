/*
 * The host's software MMU (arch/host/mmu.c): translate a lower-half
 * address of an mm through its page tables in simulated physical memory,
 * as the CPU would, setting accessed and dirty bits on the way.
 */
#ifndef FOLIUM_ASM_MMU_H
#define FOLIUM_ASM_MMU_H

#include <stdbool.h>
#include <stdint.h>

struct mm_struct;

/* Walk mm's 4-level tables for addr like the CPU: every level present,
 * RW at every level for a write; sets A in each entry used and D in the
 * leaf on a write. Return: 0 with *host_ptr the byte's host address, or
 * -1 (not present, or a write to a read-only mapping). */
int host_mmu_translate(struct mm_struct *mm, unsigned long addr, bool write, void **host_ptr);

/* The pgd last passed to arch_switch_mm (0: the "kernel's" tables). */
extern uint64_t host_active_pgd;

#endif
