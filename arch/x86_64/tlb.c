/*
 * The hardware half of mm/tlb.c and of switch_mm: invlpg drops one page's
 * translation, a CR3 write drops every non-global one (all of the lower
 * half; the kernel's global pages stay), and a new mm's top table copies
 * the kernel's entries 256..511 so the kernel is mapped in every address
 * space. Example: pgd entry 273 (the direct map at 0xffff888000000000) is
 * the same pointer in every mm, so the tables below it are shared.
 */
#include <arch.h>
#include <kernel.h>
#include <pgtable_bits.h>
#include <asm/page.h>
#include <asm/special_insns.h>
#include "x86.h"

#define KERNEL_PGD_FIRST (PTRS_PER_TABLE / 2)

void arch_flush_tlb_one(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

void arch_flush_tlb_all(void)
{
	write_cr3(read_cr3());
}

void arch_switch_mm(uint64_t pgd)
{
	write_cr3(pgd ? pgd : __pa(paging_kernel_pml4()));
}

/*
 * Entries copied now are pointers to the kernel's PUD tables, so later
 * changes below them show in every mm. A PML4 entry the kernel adds after
 * this copy would not (Linux: sync_global_pgds); paging.c creates its
 * kernel-half PML4 entries at boot.
 */
void arch_pgd_init(uint64_t *pgd)
{
	memcpy(pgd + KERNEL_PGD_FIRST, paging_kernel_pml4() + KERNEL_PGD_FIRST,
	       KERNEL_PGD_FIRST * sizeof(*pgd));
}
