/*
 * Address spaces: an mm_struct is a top-level table plus a sorted array of
 * disjoint VMAs. vm_mmap finds room, vm_munmap unmaps like Linux's munmap:
 * split PMD leaves cut by the range, clear every entry, drop each folio's
 * mapping, one TLB flush, then free the folios and the emptied tables.
 * Example: VMA [0x100000000, 0x100010000), munmap(0x100004000, 0x4000)
 * → VMAs [..0x100004000) and [0x100008000..), 4 PTEs cleared, 4 invlpg.
 * A folio whose mapcount drops to 0 is freed after the flush.
 */
#include <arch.h>
#include <vm.h>

/* vm_mmap(addr = 0) searches upwards from here: 4 GiB keeps workload
 * addresses visibly apart from small numbers and leaves room for fixed
 * mappings below. Linux starts below the stack and searches downwards. */
#define MMAP_BASE 0x100000000ul

struct mm_struct *current_mm;

_Static_assert(sizeof(struct mm_struct) <= PAGE_SIZE, "mm_struct must fit in a page");

struct mm_struct *mm_create(int nid)
{
	struct page *mm_page = alloc_pages_node(nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, 0);
	struct mm_struct *mm;

	if (!mm_page)
		return NULL;
	mm = page_address(mm_page);
	mm->nid = nid;
	mm->mmap_base = MMAP_BASE;
	if (!pgd_alloc(mm)) {
		__free_pages(mm_page, 0);
		return NULL;
	}
	return mm;
}

void mm_destroy(struct mm_struct *mm)
{
	if (current_mm == mm)
		switch_mm(NULL);
	vm_munmap(mm, USER_VA_START, USER_VA_END - USER_VA_START);
	free_pgtables(mm, 0, USER_VA_END);
	mm_put_zero_folio(mm);
	mm_put_huge_zero_folio(mm);
	if (mm->counters[MM_PGTABLES] != 1)
		pr_err("mm_destroy: %lu page tables still in use (entries below USER_VA_START?)\n",
		       mm->counters[MM_PGTABLES] - 1);
	pgd_free(mm);
	__free_pages(virt_to_page(mm), 0);
}

void switch_mm(struct mm_struct *mm)
{
	current_mm = mm;
	arch_switch_mm(mm ? mm->pgd : 0);
}

/* Linux's find_vma returns the first VMA ending above addr; this is its
 * vma_lookup(), which only returns a VMA containing addr. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (addr < vma->vm_start)
			break;
		if (addr < vma->vm_end)
			return vma;
	}
	return NULL;
}

uint64_t vm_get_page_prot(unsigned long vm_flags)
{
	return _PAGE_PRESENT | (vm_flags & VM_WRITE ? _PAGE_RW : 0) |
	       (vm_flags & VM_EXEC ? 0 : _PAGE_NX) | (vm_flags & VM_USER ? _PAGE_USER : 0);
}

/* --- the VMA array ----------------------------------------------------------- */

static void vma_insert_at(struct mm_struct *mm, int i, const struct vm_area_struct *vma)
{
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nr_vmas - i) * sizeof(*vma));
	mm->vmas[i] = *vma;
	mm->nr_vmas++;
}

static void vma_remove_at(struct mm_struct *mm, int i)
{
	mm->nr_vmas--;
	memmove(&mm->vmas[i], &mm->vmas[i + 1], (mm->nr_vmas - i) * sizeof(mm->vmas[0]));
}

/* Return: true if [start, end) overlaps a VMA. */
static bool range_in_use(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (int i = 0; i < mm->nr_vmas; i++)
		if (mm->vmas[i].vm_start < end && start < mm->vmas[i].vm_end)
			return true;
	return false;
}

/* First fit from mmap_base upwards, each candidate aligned to align.
 * Return: the address, or -ENOMEM. Linux: get_unmapped_area. */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len, unsigned long align)
{
	unsigned long addr = ALIGN_UP(MAX(mm->mmap_base, USER_VA_START), align);

	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= addr)
			continue;
		if (addr + len <= vma->vm_start)
			break;
		addr = ALIGN_UP(vma->vm_end, align);
	}
	if (addr > USER_VA_END || USER_VA_END - addr < len)
		return (unsigned long)-ENOMEM;
	return addr;
}

unsigned long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long vm_flags, unsigned long align)
{
	struct vm_area_struct vma;
	int i;

	if (!len || (vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC | VM_USER)) || (align & (align - 1)))
		return (unsigned long)-EINVAL;
	if (len > USER_VA_END - USER_VA_START)
		return (unsigned long)-ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!align)
		align = len >= PMD_SIZE ? PMD_SIZE : PAGE_SIZE;
	align = MAX(align, PAGE_SIZE);
	if (mm->nr_vmas == MM_MAX_VMAS)
		return (unsigned long)-ENOMEM;
	if (addr) {
		if ((addr & (PAGE_SIZE - 1)) || addr < USER_VA_START || addr > USER_VA_END - len ||
		    range_in_use(mm, addr, addr + len))
			return (unsigned long)-EINVAL;
	} else {
		addr = get_unmapped_area(mm, len, align);
		if (IS_ERR_VALUE(addr))
			return addr;
	}
	vma = (struct vm_area_struct){ addr, addr + len, vm_flags };
	for (i = 0; i < mm->nr_vmas && mm->vmas[i].vm_start < addr; i++)
		;
	vma_insert_at(mm, i, &vma);
	return addr;
}

/* Trim, split or remove the VMAs [start, end) cuts. Context: a split
 * (the range strictly inside one VMA) has a free slot, checked before. */
static void vma_unmap_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (int i = 0; i < mm->nr_vmas;) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= start) {
			i++;
		} else if (vma->vm_start >= end) {
			break;
		} else if (vma->vm_start < start && vma->vm_end > end) {
			struct vm_area_struct tail = { end, vma->vm_end, vma->vm_flags };

			vma->vm_end = start;
			vma_insert_at(mm, i + 1, &tail);
			break;
		} else if (vma->vm_start < start) {
			vma->vm_end = start;
			i++;
		} else if (vma->vm_end > end) {
			vma->vm_start = end;
			break;
		} else {
			vma_remove_at(mm, i);
		}
	}
}

/* --- unmapping: Linux's zap_page_range with an mmu_gather ------------------------ */

/* One mapping of folio went. The last one hands the folio to the gather,
 * which frees it after the flush. */
static void zap_folio_mapping(struct mmu_gather *tlb, struct folio *folio)
{
	if (folio_mapped(folio))
		return;
	if (folio_mapcount(folio) < 0) { /* mapped more often than counted */
		dump_page(&folio->page, "zap_folio_mapping: mapcount below zero, not freed");
		page_mapcount_reset(&folio->page);
		return;
	}
	folio_del_lru(folio); /* never freed while on an LRU list */
	tlb_remove_folio(tlb, folio);
}

static int zap_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	pte_t pte = ptep_get_and_clear(walk->mm, addr, ptep);
	struct folio *folio = page_folio(pte_page(pte));

	tlb_remove_tlb_entries(walk->private, addr, 1);
	if (is_zero_pfn(pte_pfn(pte)))
		return 0; /* no folio behind it (Linux: vm_normal_page is NULL) */
	walk->mm->counters[MM_ANONPAGES]--;
	folio_remove_rmap_ptes(folio, 1);
	zap_folio_mapping(walk->private, folio);
	return 0;
}

/* A PMD leaf goes whole; a PTE table is left to zap_pte. */
static int zap_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct folio *folio;
	pmd_t pmd;

	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	/* split_huge_pmd() left only leaves wholly inside the range. */
	if ((addr & ~PMD_MASK) || next - addr != PMD_SIZE) {
		pr_err("zap_pmd: leaf at %lx cut at %lx, left mapped\n", addr, next);
		return 0;
	}
	pmd = pmdp_get_and_clear(walk->mm, addr, pmdp);
	folio = pmd_folio(pmd);
	tlb_remove_pmd_tlb_entry(walk->private, addr);
	if (is_huge_zero_pmd(pmd))
		return 0; /* Linux: zap_huge_pmd's huge zero case */
	walk->mm->counters[MM_ANONPAGES] -= HPAGE_PMD_NR;
	folio_remove_rmap_pmd(folio);
	zap_folio_mapping(walk->private, folio);
	return 0;
}

static const struct mm_walk_ops zap_walk_ops = {
	.pmd_entry = zap_pmd,
	.pte_entry = zap_pte,
};

/* Return: true if unmapping [start, end) splits a VMA in two. */
static bool unmap_splits_vma(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return vma && vma->vm_start < start && vma->vm_end > end;
}

int zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct mmu_gather tlb;

	/* Only the two ends can cut a PMD leaf. A split alone changes no
	 * translation, so failing after the first one is harmless. */
	if (split_huge_pmd(mm, start) || split_huge_pmd(mm, end))
		return -ENOMEM;
	tlb_gather_mmu(&tlb, mm);
	walk_page_range(mm, start, end, &zap_walk_ops, &tlb);
	tlb_finish_mmu(&tlb);
	free_pgtables(mm, start, end);
	return 0;
}

int vm_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end;

	if ((start & (PAGE_SIZE - 1)) || !len || start >= USER_VA_END || len > USER_VA_END - start)
		return -EINVAL;
	end = ALIGN_UP(start + len, PAGE_SIZE);
	if (unmap_splits_vma(mm, start, end) && mm->nr_vmas == MM_MAX_VMAS)
		return -ENOMEM;
	if (zap_page_range(mm, start, end))
		return -ENOMEM;
	vma_unmap_range(mm, start, end);
	return 0;
}
