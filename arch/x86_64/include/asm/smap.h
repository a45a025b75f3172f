/*
 * Supervisor Mode Access Prevention (SDM vol. 3A 4.6; Linux:
 * arch/x86/include/asm/smap.h, setup_smap in kernel/cpu/common.c). With
 * CR4.SMAP, a ring-0 data access to a page with _PAGE_USER faults unless
 * EFLAGS.AC is set, which only the uaccess copies do (stac ... clac in
 * uaccess.asm). A fault like that is reported as "SMAP violation" by
 * do_page_fault (fault.c). Kernel workloads' VMAs (no VM_USER) have no
 * _PAGE_USER, so their direct accesses are not affected.
 */
#ifndef FOLIUM_ASM_SMAP_H
#define FOLIUM_ASM_SMAP_H

#include <stdbool.h>

#define X86_CR4_SMAP (1ull << 21)
#define X86_EFLAGS_AC (1ull << 18)

/* Set by setup_smap once CR4.SMAP is on: uaccess.asm runs stac/clac. */
extern bool smap_enabled;
/* Turn SMAP on if CPUID.(7,0):EBX bit 20 says the CPU has it; print
 * "SMAP: on" or "SMAP: not supported by this CPU". Context: boot, after
 * the kernel's page tables (paging_init) and before any program runs. */
void setup_smap(void);
/* A plain one-byte kernel read of addr (uaccess.asm). Return: the byte,
 * or -1 after a fault (its fixup). For tests of SMAP. */
long __smap_probe_read(unsigned long addr);

#endif
