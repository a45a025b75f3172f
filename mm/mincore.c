/*
 * mincore (Linux: mm/mincore.c): one byte per page of a mapped range, 1
 * where a page is in memory. Anonymous memory has no page cache and no
 * swap here, so a page is in memory exactly when an entry maps it: a
 * present PTE (the zero page's too), a PMD leaf (512 ones) or a PUD leaf
 * (a 1 GiB HugeTLB page). A file mapping's page is in memory when an
 * entry maps it or its page cache holds it. Example:
 * a 4-page VMA whose pages 0 and 2 were touched gives 1 0 1 0.
 */
#include <fs.h>
#include <mman.h>
#include <pagemap.h>
#include <ramfs.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/processor.h>

#define MINCORE_BATCH 512 /* bytes of vec filled per walk (Linux: a page's worth) */

struct mincore_walk {
	unsigned char *vec;
	unsigned long start;
};

static int mincore_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct mincore_walk *mw = walk->private;

	(void)ptep;
	mw->vec[(addr - mw->start) >> PAGE_SHIFT] = 1;
	return 0;
}

/* Linux: mincore_pte_range's PMD leaf case. */
static int mincore_pmd_entry(pmd_t *pmdp, unsigned long addr, unsigned long next,
			     struct mm_walk *walk)
{
	struct mincore_walk *mw = walk->private;

	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	memset(mw->vec + ((addr - mw->start) >> PAGE_SHIFT), 1, (next - addr) >> PAGE_SHIFT);
	return 0;
}

/* A 1 GiB HugeTLB leaf (Linux: mincore_hugetlb): every page in memory. */
static int mincore_pud_entry(pud_t *pudp, unsigned long addr, unsigned long next,
			     struct mm_walk *walk)
{
	struct mincore_walk *mw = walk->private;

	(void)pudp;
	memset(mw->vec + ((addr - mw->start) >> PAGE_SHIFT), 1, (next - addr) >> PAGE_SHIFT);
	return 0;
}

static const struct mm_walk_ops mincore_walk_ops = {
	.pmd_entry = mincore_pmd_entry,
	.pte_entry = mincore_pte_entry,
	.pud_entry = mincore_pud_entry,
};

/* Linux: mincore_page, for a file VMA's pages no entry maps: 1 when the
 * page cache holds the page uptodate (another mapping or a write put it
 * there). Linux asks can_do_mincore first (the file's owner, or one who
 * may write it); Folium does not. */
static void mincore_file_pages(const struct vm_area_struct *vma, unsigned long addr,
			       unsigned long end, unsigned char *vec)
{
	struct address_space *mapping = vma->vm_file->f_inode->i_mapping;

	for (unsigned long a = addr; a < end; a += PAGE_SIZE, vec++) {
		struct folio *folio;

		if (*vec)
			continue;
		folio = filemap_get_folio(mapping, linear_page_index(vma, a));
		if (IS_ERR(folio))
			continue;
		*vec = folio_test_uptodate(folio);
		folio_put(folio);
	}
}

/* Linux: do_mincore. Fill vec for up to pages pages from addr, within the
 * one VMA at addr. Return: pages filled, or -ENOMEM outside every VMA. */
static long do_mincore(struct mm_struct *mm, unsigned long addr, unsigned long pages,
		       unsigned char *vec)
{
	struct vm_area_struct *vma = find_vma(mm, addr);
	struct mincore_walk mw = { vec, addr };
	unsigned long end;

	if (!vma)
		return -ENOMEM;
	end = MIN(vma->vm_end, addr + (pages << PAGE_SHIFT));
	memset(vec, 0, (end - addr) >> PAGE_SHIFT);
	walk_page_range(mm, addr, end, &mincore_walk_ops, &mw);
	if (vma->vm_file)
		mincore_file_pages(vma, addr, end, vec);
	return (long)((end - addr) >> PAGE_SHIFT);
}

/*
 * Linux: sys_mincore. The checks in its order: start not page aligned
 * (-EINVAL), the range past the user half (-ENOMEM); then a page in no
 * VMA is -ENOMEM and an unwritable vec -EFAULT, with what came before it
 * already written.
 */
SYSCALL_DEFINE3(mincore, unsigned long, start, size_t, len, unsigned long, vec)
{
	unsigned char tmp[MINCORE_BATCH];
	unsigned long pages;

	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if (start > TASK_SIZE || len > TASK_SIZE - start)
		return -ENOMEM;
	pages = ALIGN_UP(len, PAGE_SIZE) >> PAGE_SHIFT;
	while (pages) {
		long done = do_mincore(task->mm, start, MIN(pages, MINCORE_BATCH), tmp);

		if (done <= 0)
			return done;
		if (copy_to_user(vec, tmp, (size_t)done))
			return -EFAULT;
		pages -= (unsigned long)done;
		vec += (unsigned long)done;
		start += (unsigned long)done << PAGE_SHIFT;
	}
	return 0;
}
