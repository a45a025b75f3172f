/*
 * The MMU of the host build: the arch TLB/CR3 hooks, which only record
 * (a process has no TLB to flush for simulated tables), and a software
 * page-table walker that does what the CPU does on an access: walk
 * PML4 → PDPT → PD (PS: 2 MiB leaf) → PT, refuse a missing level or a
 * write through a read-only one, set A in every entry used and D in the
 * leaf on a write. Example: a write to 0x100000123 mapped by a 4 KiB PTE
 * of pfn 0x4000 → host address __va(0x4000123); the PTE gains A|D.
 */
#include <arch.h>
#include <asm/mmu.h>
#include <vm.h>

uint64_t host_active_pgd;

void arch_flush_tlb_one(unsigned long addr)
{
}

void arch_flush_tlb_all(void)
{
}

void arch_switch_mm(uint64_t pgd)
{
	host_active_pgd = pgd;
}

/* The host has no kernel half to share: entries 256..511 stay empty. */
void arch_pgd_init(uint64_t *pgd)
{
}

/* Use one entry as the CPU does. Return: false if the access faults. */
static bool mmu_use_entry(uint64_t *entry, bool write)
{
	if (!(*entry & _PAGE_PRESENT) || (write && !(*entry & _PAGE_RW)))
		return false;
	*entry |= _PAGE_ACCESSED;
	return true;
}

int host_mmu_translate(struct mm_struct *mm, unsigned long addr, bool write, void **host_ptr)
{
	static const unsigned int shifts[] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };
	uint64_t *table = __va(mm->pgd);

	if (addr >= USER_VA_END)
		return -1;
	for (unsigned int level = 0; level < ARRAY_SIZE(shifts); level++) {
		unsigned int shift = shifts[level];
		uint64_t *entry = &table[(addr >> shift) & (PTRS_PER_TABLE - 1)];
		bool leaf = shift == PAGE_SHIFT || (shift != PGDIR_SHIFT && (*entry & _PAGE_PSE));

		if (!mmu_use_entry(entry, write))
			return -1;
		if (leaf) {
			if (write)
				*entry |= _PAGE_DIRTY;
			*host_ptr = __va((*entry & PTE_ADDR_MASK & ~((1ull << shift) - 1)) |
					 (addr & ((1ul << shift) - 1)));
			return 0;
		}
		table = __va(*entry & PTE_ADDR_MASK);
	}
	return -1;
}
