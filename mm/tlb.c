/*
 * The active mm and TLB flushing with Linux's ceiling rule
 * (arch/x86/mm/tlb.c): a range of at
 * most TLB_SINGLE_PAGE_FLUSH_CEILING pages is invalidated page by page
 * (invlpg), a larger one by reloading CR3. Example: 33 pages → 33 invlpg;
 * 34 pages → one CR3 reload.
 * The counters record the flushes the code requests, whether or not mm is
 * active: they are the evidence the batching tests assert on, and they
 * read the same on the host as in the kernel.
 */
#include <arch.h>
#include <vm.h>

struct mm_struct *current_mm;

/* Linux: switch_mm (arch/x86/mm/tlb.c switch_mm_irqs_off): load @mm's
 * tables, or the kernel's own for NULL. */
void switch_mm(struct mm_struct *mm)
{
	current_mm = mm;
	arch_switch_mm(mm ? mm->pgd : 0);
}

/*
 * Only the active mm can have translations in the TLB (one CPU, and a CR3
 * write drops every non-global entry), so an inactive mm needs no hardware
 * flush. Linux: the same idea, per CPU, with mm_cpumask().
 */
static bool mm_is_active(const struct mm_struct *mm)
{
	return mm == current_mm;
}

void flush_tlb_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long nr = (end - start) >> PAGE_SHIFT;

	if (start >= end)
		return;
	if (nr > TLB_SINGLE_PAGE_FLUSH_CEILING) {
		flush_tlb_mm(mm);
		return;
	}
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		mm->counters[MM_TLB_FLUSH_ONE]++;
		if (mm_is_active(mm))
			arch_flush_tlb_one(addr);
	}
}

void flush_tlb_mm(struct mm_struct *mm)
{
	mm->counters[MM_TLB_FLUSH_ALL]++;
	if (mm_is_active(mm))
		arch_flush_tlb_all();
}

unsigned long nr_kernel_tlb_flush_one;

/*
 * Every mm shares the kernel half, so this flushes whatever is active.
 * Always page by page: the kernel's entries are global, which a CR3
 * reload keeps (Linux, past its ceiling, flushes everything, globals too,
 * with a CR4.PGE toggle; Folium has no such hook and vfree's ranges are
 * small).
 */
void flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	for (unsigned long addr = start; addr < end; addr += PAGE_SIZE) {
		nr_kernel_tlb_flush_one++;
		arch_flush_tlb_one(addr);
	}
}

/* One PMD leaf's 2 MiB: one invlpg drops it (x86 flush_pmd_tlb_range uses
 * a 2 MiB stride, so the ceiling sees one entry, not 512 pages). */
void flush_pmd_tlb_range(struct mm_struct *mm, unsigned long addr)
{
	mm->counters[MM_TLB_FLUSH_ONE]++;
	if (mm_is_active(mm))
		arch_flush_tlb_one(addr & PMD_MASK);
}

/* invlpg of any address inside a 1 GiB page drops its whole entry. */
void flush_pud_tlb_range(struct mm_struct *mm, unsigned long addr)
{
	mm->counters[MM_TLB_FLUSH_ONE]++;
	if (mm_is_active(mm))
		arch_flush_tlb_one(addr & PUD_MASK);
}
