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
#include <bitmap.h>
#include <fs.h>
#include <hugetlb.h>
#include <pagemap.h>
#include <ramfs.h>
#include <mman.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <sysctl.h>
#include <vm.h>
#include <asm/processor.h>
#include "internal.h"

/* The shell's workloads' vm_mmap(addr = 0) searches upwards from here
 * (Linux's legacy layout): 4 GiB keeps workload addresses visibly apart
 * from small numbers and leaves room for fixed mappings below. Programs
 * get Linux's default instead: exec sets MMF_TOPDOWN and a mmap_base
 * below the stack. */
#define MMAP_BASE 0x100000000ul

/*
 * vm.mmap_min_addr (Linux: security/min_addr.c): the lowest address a
 * mapping is placed at or a hint is taken for. dac_mmap_min_addr is the
 * file's value (CONFIG_DEFAULT_MMAP_MIN_ADDR, 64 KiB in Debian's Linux);
 * mmap_min_addr, the one used, never goes below USER_VA_START, which
 * Folium keeps unmapped as Linux's security modules keep
 * CONFIG_LSM_MMAP_MIN_ADDR: a MAP_FIXED below it is -EPERM even for root.
 */
unsigned long dac_mmap_min_addr = 65536;
unsigned long mmap_min_addr = USER_VA_START;

/* Linux: update_mmap_min_addr. */
static void update_mmap_min_addr(void)
{
	mmap_min_addr = MAX(dac_mmap_min_addr, USER_VA_START);
}

/* Linux: mmap_min_addr_handler. A write needs CAP_SYS_RAWIO, which
 * Folium's one task (root) has. */
static int mmap_min_addr_handler(const struct ctl_table *table, int write, char *buffer,
				 size_t *lenp, uint64_t *ppos)
{
	int ret = proc_doulongvec_minmax(table, write, buffer, lenp, ppos);

	update_mmap_min_addr();
	return ret;
}

static const struct ctl_table min_addr_sysctl_table[] = {
	{ .procname = "mmap_min_addr",
	  .data = &dac_mmap_min_addr,
	  .maxlen = sizeof(unsigned long),
	  .mode = 0644,
	  .proc_handler = mmap_min_addr_handler },
};
SYSCTL_TABLE("vm", min_addr_sysctl_table);

/* --- the VMA array's room: vm.max_map_count ------------------------------- */

int sysctl_max_map_count = DEFAULT_MAX_MAP_COUNT;

static const struct ctl_table mmap_sysctl_table[] = {
	{ .procname = "max_map_count",
	  .data = &sysctl_max_map_count,
	  .maxlen = sizeof(int),
	  .mode = 0644,
	  .proc_handler = proc_dointvec_minmax,
	  .extra1 = SYSCTL_ZERO },
};
SYSCTL_TABLE("vm", mmap_sysctl_table);

/* The order of the pages cap VMAs need. */
static unsigned int vmas_order(int cap)
{
	unsigned long bytes = (unsigned long)cap * sizeof(struct vm_area_struct);
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

static void vmas_free(struct mm_struct *mm)
{
	if (mm->vmas != mm->inline_vmas)
		__free_pages(virt_to_page(mm->vmas), vmas_order(mm->vmas_cap));
}

int mm_vmas_reserve(struct mm_struct *mm, int n)
{
	int cap = mm->vmas_cap;
	struct vm_area_struct *vmas;
	struct page *page;
	unsigned int order;

	if (mm->nr_vmas + n <= cap)
		return 0;
	while (cap < mm->nr_vmas + n)
		cap *= 2;
	order = vmas_order(cap);
	page = alloc_pages_node(mm->nid, GFP_KERNEL | __GFP_NOWARN, order);
	if (!page)
		return -ENOMEM;
	vmas = page_address(page);
	memcpy(vmas, mm->vmas, (size_t)mm->nr_vmas * sizeof(*vmas));
	vmas_free(mm);
	mm->vmas = vmas;
	mm->vmas_cap = (int)((PAGE_SIZE << order) / sizeof(*vmas));
	return 0;
}

_Static_assert(sizeof(struct mm_struct) <= PAGE_SIZE, "mm_struct must fit in a page");

/* --- mm ids: each mm's number in large folios' mapcounts ------------------------- */

/* Linux: mm_alloc_id and mm_free_id on an IDA of MM_ID_MIN..MM_ID_MAX;
 * here a bitmap searched from the last id given, so ids cycle. */
static unsigned long mm_ids[BITS_TO_LONGS(MM_ID_MAX + 1)];
static mm_id_t mm_id_next = MM_ID_MIN;

static mm_id_t mm_alloc_id(void)
{
	mm_id_t id = mm_id_next;

	for (unsigned int n = 0; n < MM_ID_MAX; n++, id = id == MM_ID_MAX ? MM_ID_MIN : id + 1) {
		if (test_bit(id, mm_ids))
			continue;
		bitmap_set(mm_ids, id, 1);
		mm_id_next = id == MM_ID_MAX ? MM_ID_MIN : id + 1;
		return id;
	}
	return MM_ID_DUMMY;
}

static void mm_free_id(mm_id_t id)
{
	bitmap_clear(mm_ids, id, 1);
}

struct mm_struct *mm_create(int nid)
{
	struct page *mm_page = alloc_pages_node(nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN, 0);
	struct mm_struct *mm;

	if (!mm_page)
		return NULL;
	mm = page_address(mm_page);
	mm->mm_id = mm_alloc_id();
	if (mm->mm_id == MM_ID_DUMMY) {
		__free_pages(mm_page, 0);
		return NULL;
	}
	mm->nid = nid;
	mm->mm_users = 1;
	mm->vmas = mm->inline_vmas;
	mm->vmas_cap = MM_INLINE_VMAS;
	mm->mmap_base = MMAP_BASE;
	if (!pgd_alloc(mm)) {
		mm_free_id(mm->mm_id);
		__free_pages(mm_page, 0);
		return NULL;
	}
	return mm;
}

void mm_destroy(struct mm_struct *mm)
{
	mm_leave_all_cpus(mm);
	vm_munmap(mm, USER_VA_START, USER_VA_END - USER_VA_START);
	free_pgtables(mm, 0, USER_VA_END);
	mm_put_zero_folio(mm);
	mm_put_huge_zero_folio(mm);
	if (mm->counters[MM_PGTABLES] != 1)
		pr_err("mm_destroy: %lu page tables still in use (entries below USER_VA_START?)\n",
		       mm->counters[MM_PGTABLES] - 1);
	pgd_free(mm);
	vmas_free(mm);
	mm_free_id(mm->mm_id);
	__free_pages(virt_to_page(mm), 0);
}

/* --- fork: Linux's dup_mmap ------------------------------------------------------ */

/* The page cache a file VMA maps (Linux: vma->vm_file->f_mapping). */
static struct address_space *vma_mapping(const struct vm_area_struct *vma)
{
	return vma->vm_file->f_inode->i_mapping;
}

/* Linux: vma_is_shared_maywrite, what mapping_map_writable counts. */
static bool vma_is_shared_maywrite(const struct vm_area_struct *vma)
{
	return (vma->vm_flags & (VM_SHARED | VM_MAYWRITE)) == (VM_SHARED | VM_MAYWRITE);
}

/* A file VMA holds a reference on its file and counts in its i_mmap
 * (and i_mmap_writable) while it is in an mm (Linux: vma_link_file,
 * remove_vma's fput). Return: 0, or -ENOMEM when mm is new to the file
 * and no memory is left to list it. */
static int vma_link_file(struct mm_struct *mm, const struct vm_area_struct *vma)
{
	if (!vma->vm_file)
		return 0;
	if (i_mmap_link(mm, vma_mapping(vma)))
		return -ENOMEM;
	get_file(vma->vm_file);
	if (vma_is_shared_maywrite(vma))
		vma_mapping(vma)->i_mmap_writable++;
	return 0;
}

static void vma_unlink_file(struct mm_struct *mm, const struct vm_area_struct *vma)
{
	if (!vma->vm_file)
		return;
	if (vma_is_shared_maywrite(vma))
		vma_mapping(vma)->i_mmap_writable--;
	i_mmap_unlink(mm, vma_mapping(vma));
	fput(vma->vm_file);
}

/* The mm flags a child keeps (Linux: MMF_INIT_MASK, through mm_init's
 * mmf_init_flags); the zero-page references are taken, not copied. */
#define MMF_INIT_MASK (MMF_TOPDOWN | MMF_DISABLE_THP | MMF_DUMPABLE)

/* The child's references to the zero folios its copied entries map. */
static int dup_zero_folios(struct mm_struct *mm, const struct mm_struct *oldmm)
{
	if ((oldmm->flags & MMF_ZERO_PAGE) && !mm_get_zero_folio(mm))
		return -ENOMEM;
	if ((oldmm->flags & MMF_HUGE_ZERO_PAGE) && !mm_get_huge_zero_folio(mm))
		return -ENOMEM;
	return 0;
}

/* One VMA of the parent into the child, appended (the parent's are
 * sorted): charged if VM_ACCOUNT (Linux: security_vm_enough_memory_mm),
 * unlocked, and either linked to the parent's anon_vma with its entries
 * copied, or, VM_WIPEONFORK, left with no anon_vma and no entries. */
static int dup_vma(struct mm_struct *mm, struct mm_struct *oldmm, const struct vm_area_struct *mpnt)
{
	struct vm_area_struct tmp = *mpnt;
	long pages = (long)((mpnt->vm_end - mpnt->vm_start) >> PAGE_SHIFT);

	if ((mpnt->vm_flags & VM_ACCOUNT) && __vm_enough_memory(oldmm, pages, true))
		return -ENOMEM;
	tmp.vm_flags &= ~VM_LOCKED_MASK; /* Linux: vm_flags_clear(tmp, VM_LOCKED_MASK) */
	if (tmp.vm_flags & VM_WIPEONFORK)
		tmp.anon_vma = NULL; /* Linux: the child faults in new pages */
	else if (tmp.anon_vma && anon_vma_link(mm, tmp.anon_vma)) /* Linux: anon_vma_fork */
		goto fail;
	if (vma_link_file(mm, &tmp)) {
		if (tmp.anon_vma)
			unlink_anon_vma(mm, tmp.anon_vma);
		goto fail;
	}
	mm->vmas[mm->nr_vmas++] = tmp;
	/* Linux: vma_needs_copy. A file VMA that no write ever copied from
	 * (no anon_vma) is faulted in again from the page cache: a shared
	 * one sees the same folios, so copying its entries buys nothing. */
	if ((tmp.vm_flags & VM_WIPEONFORK) || (tmp.vm_file && !tmp.anon_vma))
		return 0;
	return copy_page_range(mm, oldmm, mpnt);
fail:
	if (mpnt->vm_flags & VM_ACCOUNT)
		vm_unacct_memory(pages);
	return -ENOMEM;
}

int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm)
{
	int err;

	mm->mmap_base = oldmm->mmap_base;
	mm->start_brk = oldmm->start_brk;
	mm->brk = oldmm->brk;
	mm->start_code = oldmm->start_code;
	mm->end_code = oldmm->end_code;
	mm->start_data = oldmm->start_data;
	mm->end_data = oldmm->end_data;
	mm->start_stack = oldmm->start_stack;
	mm->arg_start = oldmm->arg_start;
	mm->arg_end = oldmm->arg_end;
	mm->env_start = oldmm->env_start;
	mm->env_end = oldmm->env_end;
	mm->flags = (mm->flags & ~MMF_INIT_MASK) | (oldmm->flags & MMF_INIT_MASK);
	mm->def_flags = oldmm->def_flags & VM_NOHUGEPAGE; /* Linux: VM_INIT_DEF_MASK */
	err = mm_vmas_reserve(mm, oldmm->nr_vmas);
	if (!err)
		err = dup_zero_folios(mm, oldmm);
	for (int i = 0; !err && i < oldmm->nr_vmas; i++)
		if (!(oldmm->vmas[i].vm_flags & VM_DONTCOPY)) /* MADV_DONTFORK */
			err = dup_vma(mm, oldmm, &oldmm->vmas[i]);
	/* The parent's write-protected entries may be cached writable. */
	flush_tlb_mm(oldmm);
	mm->hiwater_rss = mm->counters[MM_ANONPAGES];
	return err;
}

/* The index of the first VMA ending above addr, or nr_vmas: a binary
 * search of the array, which is sorted and without overlaps (Linux finds
 * it in the maple tree, mas_find). A process that madvised page by page
 * has a thousand VMAs; every fault looks one up. */
static int vma_index_above(const struct mm_struct *mm, unsigned long addr)
{
	int lo = 0, hi = mm->nr_vmas;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (mm->vmas[mid].vm_end > addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* Linux's find_vma returns the first VMA ending above addr; this is its
 * vma_lookup(), which only returns a VMA containing addr. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr)
{
	int i = vma_index_above(mm, addr);

	return i < mm->nr_vmas && mm->vmas[i].vm_start <= addr ? &mm->vmas[i] : NULL;
}

uint64_t vm_get_page_prot(unsigned long vm_flags)
{
	/* A program's PROT_NONE VMA keeps its pages present but not USER, so
	 * every ring-3 access faults and the data survives a later mprotect
	 * (Linux: _PAGE_PROTNONE, a non-present entry). */
	bool user = (vm_flags & VM_USER) && (vm_flags & VM_ACCESS_FLAGS);

	return _PAGE_PRESENT | (vm_flags & VM_WRITE ? _PAGE_RW : 0) |
	       (vm_flags & VM_EXEC ? 0 : _PAGE_NX) | (user ? _PAGE_USER : 0);
}

/* --- the VMA array ----------------------------------------------------------- */

/* A VMA with an anon_vma counts in it (anon_vma_link, unlink_anon_vma)
 * while it is in the array, and one of a file in the file's i_mmap.
 * Context: an inserted VMA's anon_vma and file already have mm as a
 * member (it is a split or a move of one of mm's, or a new mapping whose
 * caller linked mm first), so the links cannot fail. */
static void vma_insert_at(struct mm_struct *mm, int i, const struct vm_area_struct *vma)
{
	if (vma->anon_vma && anon_vma_link(mm, vma->anon_vma))
		pr_err("vma_insert_at: mm %p not yet in anon_vma %p\n", (void *)mm,
		       (void *)vma->anon_vma);
	if (vma_link_file(mm, vma))
		pr_err("vma_insert_at: mm %p not yet in i_mmap\n", (void *)mm);
	memmove(&mm->vmas[i + 1], &mm->vmas[i], (mm->nr_vmas - i) * sizeof(*vma));
	mm->vmas[i] = *vma;
	mm->nr_vmas++;
}

static void vma_remove_at(struct mm_struct *mm, int i)
{
	if (mm->vmas[i].anon_vma)
		unlink_anon_vma(mm, mm->vmas[i].anon_vma);
	vma_unlink_file(mm, &mm->vmas[i]);
	mm->nr_vmas--;
	memmove(&mm->vmas[i], &mm->vmas[i + 1], (mm->nr_vmas - i) * sizeof(mm->vmas[0]));
}

struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end)
{
	int i = vma_index_above(mm, start);

	return i < mm->nr_vmas && mm->vmas[i].vm_start < end ? &mm->vmas[i] : NULL;
}

bool vma_range_has_hole(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long addr = start;

	for (int i = 0; i < mm->nr_vmas && addr < end; i++) {
		if (mm->vmas[i].vm_end <= addr)
			continue;
		if (mm->vmas[i].vm_start > addr)
			return true;
		addr = mm->vmas[i].vm_end;
	}
	return addr < end;
}

/* The highest fit below mmap_base, aligned to align: each gap between
 * VMAs from the top down (Linux: arch_get_unmapped_area_topdown).
 * Return: the address, or -ENOMEM. */
static unsigned long get_unmapped_area_topdown(struct mm_struct *mm, unsigned long len,
					       unsigned long align)
{
	unsigned long high = mm->mmap_base;

	for (int i = mm->nr_vmas - 1; i >= -1; i--) {
		/* Never below vm.mmap_min_addr, even where it was raised past a
		 * VMA's end. */
		unsigned long low = MAX(i >= 0 ? mm->vmas[i].vm_end : 0, mmap_min_addr);

		if (i >= 0 && mm->vmas[i].vm_start >= high)
			continue; /* above the window */
		if (low < high && high - low >= len && ALIGN_DOWN(high - len, align) >= low)
			return ALIGN_DOWN(high - len, align);
		if (i >= 0)
			high = mm->vmas[i].vm_start;
	}
	return (unsigned long)-ENOMEM;
}

/* First fit from mmap_base upwards, each candidate aligned to align; a
 * top-down mm looks below mmap_base first and falls back to this, as
 * Linux does. Return: the address, or -ENOMEM. Linux: get_unmapped_area. */
static unsigned long get_unmapped_area(struct mm_struct *mm, unsigned long len, unsigned long align)
{
	unsigned long addr = ALIGN_UP(MAX(mm->mmap_base, mmap_min_addr), align);

	if (mm->flags & MMF_TOPDOWN) {
		unsigned long down = get_unmapped_area_topdown(mm, len, align);

		if (!IS_ERR_VALUE(down))
			return down;
	}
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

unsigned long mm_data_vm(const struct mm_struct *mm)
{
	unsigned long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++)
		if ((mm->vmas[i].vm_flags & VM_WRITE) && mm->vmas[i].vm_end != STACK_TOP)
			pages += (mm->vmas[i].vm_end - mm->vmas[i].vm_start) >> PAGE_SHIFT;
	return pages;
}

/*
 * Linux: may_expand_vm, with the running task's limits: RLIMIT_AS over
 * every mapping, RLIMIT_DATA over private writable ones (is_data_mapping;
 * the stack is its own class). Linux's Valgrind exception lets a soft
 * RLIMIT_DATA of 0 through up to the hard limit, and Linux's warning is
 * printed once; there is no ignore_rlimit_data.
 */
bool may_expand_vm(struct mm_struct *mm, unsigned long flags, unsigned long npages)
{
	const struct rlimit64 *data = &current->signal->rlim[RLIMIT_DATA];
	static bool warned;

	if (mm_total_vm(mm) + npages > rlimit(RLIMIT_AS) >> PAGE_SHIFT)
		return false;
	if ((flags & VM_WRITE) && mm_data_vm(mm) + npages > data->rlim_cur >> PAGE_SHIFT) {
		if (!data->rlim_cur && mm_data_vm(mm) + npages <= data->rlim_max >> PAGE_SHIFT)
			return true;
		if (!warned)
			pr_warn("%s (%d): VmData %lu exceed data ulimit %llu. Update limits.\n",
				current->comm, current->pid,
				(mm_data_vm(mm) + npages) << PAGE_SHIFT,
				(unsigned long long)data->rlim_cur);
		warned = true;
		return false;
	}
	return true;
}

/* Linux: mmap_region, for vm_mmap and vm_mmap_file. */
static unsigned long mmap_region(struct mm_struct *mm, unsigned long addr, unsigned long len,
				 unsigned long vm_flags, unsigned long align, struct file *file,
				 unsigned long pgoff)
{
	struct vm_area_struct vma;
	struct file *made = NULL;
	int i;

	if (!len ||
	    (vm_flags & ~(VM_READ | VM_WRITE | VM_EXEC | VM_USER | VM_LOCKED_MASK | VM_HUGETLB |
			  VM_HSTATE_MASK | VM_NORESERVE | VM_DROPPABLE | VM_WIPEONFORK | VM_SHARED |
			  VM_MAYWRITE | VM_MAYSHARE)) ||
	    (align & (align - 1)) || (!file && (vm_flags & VM_SHARED)))
		return (unsigned long)-EINVAL;
	if (len > USER_VA_END - USER_VA_START)
		return (unsigned long)-ENOMEM;
	len = ALIGN_UP(len, PAGE_SIZE);
	if (!align)
		align = len >= PMD_SIZE ? PMD_SIZE : PAGE_SIZE;
	align = MAX(align, PAGE_SIZE);
	/* Linux: hugetlb_get_unmapped_area and prepare_hugepage_range. */
	if (vm_flags & VM_HUGETLB) {
		unsigned long size = huge_page_size(hstate_vm_flags(vm_flags));

		align = MAX(align, size);
		if ((len | addr) & (size - 1))
			return (unsigned long)-EINVAL;
	}
	/* Linux's do_mmap: "map_count > sysctl_max_map_count". */
	if (mm->nr_vmas > sysctl_max_map_count || mm_vmas_reserve(mm, 1))
		return (unsigned long)-ENOMEM;
	if (addr) {
		if ((addr & (PAGE_SIZE - 1)) || addr < USER_VA_START || addr > USER_VA_END - len ||
		    find_vma_intersection(mm, addr, addr + len))
			return (unsigned long)-EINVAL;
	} else {
		addr = get_unmapped_area(mm, len, align);
		if (IS_ERR_VALUE(addr))
			return addr;
	}
	if ((vm_flags & VM_HUGETLB) && hugetlb_reserve_pages(mm, addr, addr + len, vm_flags))
		return (unsigned long)-ENOMEM;
	/* Linux: mmap_region's file half: the file sets the VMA's
	 * operations (f_op->mmap), and mm joins its i_mmap first, so the
	 * insertion below cannot fail. */
	vma = (struct vm_area_struct){ .vm_start = addr,
				       .vm_end = addr + len,
				       .vm_flags = vm_flags | mm->def_flags | VM_SOFTDIRTY,
				       .vm_pgoff = file ? pgoff : addr >> PAGE_SHIFT,
				       .vm_file = file };
	if (file) {
		int err = file->f_op->mmap(file, &vma);

		/* The file may give the VMA another (Linux: mmap_zero's
		 * shmem_zero_setup), held by the VMA once it is in, or none
		 * (anonymous memory): the VMA's file is the one linked. */
		if (!err && vma.vm_file != file)
			made = file = vma.vm_file;
		if (!err && file && i_mmap_link(mm, file->f_inode->i_mapping))
			err = -ENOMEM;
		if (err) {
			if (made)
				fput(made);
			return (unsigned long)(long)err;
		}
	}
	if (accountable_mapping(vm_flags)) {
		if (__vm_enough_memory(mm, (long)(len >> PAGE_SHIFT), true)) {
			if (file)
				i_mmap_unlink(mm, file->f_inode->i_mapping);
			if (made)
				fput(made);
			return (unsigned long)-ENOMEM;
		}
		vma.vm_flags |= VM_ACCOUNT;
	}
	/* Linux's __mmap_complete: a new mapping is new data to a soft-dirty
	 * tracker, even where an old one was unmapped; mlockall(MCL_FUTURE)
	 * locks no mapping mlock cannot lock (__mmap_complete clears
	 * VM_LOCKED_MASK when !vma_supports_mlock). */
	if (!vma_supports_mlock(&vma))
		vma.vm_flags &= ~VM_LOCKED_MASK;
	for (i = 0; i < mm->nr_vmas && mm->vmas[i].vm_start < addr; i++)
		;
	vma_insert_at(mm, i, &vma);
	if (file)
		i_mmap_unlink(mm, file->f_inode->i_mapping); /* the VMA holds its own */
	if (made)
		fput(made);
	return addr;
}

unsigned long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long vm_flags, unsigned long align)
{
	return mmap_region(mm, addr, len, vm_flags, align, NULL, 0);
}

unsigned long vm_mmap_file(struct mm_struct *mm, unsigned long addr, unsigned long len,
			   unsigned long vm_flags, struct file *file, unsigned long pgoff)
{
	return mmap_region(mm, addr, len, vm_flags, 0, file, pgoff);
}

/* Pages of [start, end) in VM_ACCOUNT VMAs (Linux: the nr_accounted
 * that do_vmi_align_munmap uncharges). */
static long accounted_pages(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];

		if ((vma->vm_flags & VM_ACCOUNT) && vma->vm_end > start && vma->vm_start < end)
			pages += (long)((MIN(vma->vm_end, end) - MAX(vma->vm_start, start)) >>
					PAGE_SHIFT);
	}
	return pages;
}

/* The part of vma from addr on, as a VMA of its own: its pgoff follows
 * (Linux: __split_vma's new->vm_pgoff). */
static struct vm_area_struct vma_tail(const struct vm_area_struct *vma, unsigned long addr)
{
	struct vm_area_struct tail = *vma;

	tail.vm_start = addr;
	tail.vm_pgoff = linear_page_index(vma, addr);
	return tail;
}

/* Trim, split or remove the VMAs [start, end) cuts, uncharging their
 * accounted pages. Context: a split (the range strictly inside one VMA)
 * has a free slot, checked before. */
static void vma_unmap_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	vm_unacct_memory(accounted_pages(mm, start, end));
	for (int i = 0; i < mm->nr_vmas;) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (vma->vm_end <= start) {
			i++;
		} else if (vma->vm_start >= end) {
			break;
		} else if (vma->vm_start < start && vma->vm_end > end) {
			struct vm_area_struct tail = vma_tail(vma, end);

			vma->vm_end = start;
			vma_insert_at(mm, i + 1, &tail);
			break;
		} else if (vma->vm_start < start) {
			vma->vm_end = start;
			i++;
		} else if (vma->vm_end > end) {
			vma->vm_pgoff = linear_page_index(vma, end);
			vma->vm_start = end;
			break;
		} else {
			vma_remove_at(mm, i);
		}
	}
}

/* --- unmapping: Linux's zap_page_range with an mmu_gather ------------------------ */

/* A zap: the gather, the large folio whose PTEs are being taken, and
 * the VMA [vm_start, vm_end) the last entry was in, with its flags. */
struct zap_details {
	struct mmu_gather tlb;
	struct folio *folio;
	struct folio *munlocked; /* the folio last munlocked: once per folio */
	unsigned long vm_start, vm_end, vm_flags;
	bool drop_markers; /* munmap's: guard markers go too (Linux: ZAP_FLAG_DROP_MARKER) */
	/* Only a file's folios go; a private mapping's anonymous copies of
	 * them stay (Linux: zap_details's even_cows false, a hole punched). */
	bool keep_anon;
};

/* The VMA @addr is in becomes the zap's current one (its end and flags). */
static void zap_vma_at(struct zap_details *d, struct mm_struct *mm, unsigned long addr)
{
	if (addr < d->vm_start || addr >= d->vm_end) {
		struct vm_area_struct *vma = find_vma(mm, addr);

		d->vm_start = addr;
		d->vm_end = vma ? vma->vm_end : addr + PAGE_SIZE;
		d->vm_flags = vma ? vma->vm_flags : 0;
		d->munlocked = NULL;
	}
}

/* Entries of a VM_LOCKED VMA go: munlock their folio, once for all its
 * entries (Linux: folio_remove_rmap_ptes calls munlock_vma_folio once
 * per batch of a folio's PTEs). */
static void zap_munlock_folio(struct zap_details *d, struct mm_struct *mm, unsigned long addr,
			      struct folio *folio)
{
	zap_vma_at(d, mm, addr);
	if ((d->vm_flags & VM_LOCKED) && folio != d->munlocked) {
		munlock_folio(folio);
		d->munlocked = folio;
	}
}

/*
 * A large anonymous folio still mapped once the walk has left it is partially
 * mapped (Linux decides it after each zap_present_ptes batch; a folio
 * whose run was cut by a table or VMA end has more batches to come, so
 * Folium waits until the walk leaves the folio; a folio fully unmapped
 * is in the gather, not yet freed).
 */
static void zap_folio_done(struct zap_details *d, struct folio *next)
{
	if (d->folio && d->folio != next && folio_mapped(d->folio) && folio_test_anon(d->folio))
		deferred_split_folio(d->folio);
	d->folio = next && folio_test_large(next) ? next : NULL;
}

/* One mapping of folio went. The last one hands the folio to the gather,
 * which frees it after the flush (a page-cache folio: drops the
 * mappings' reference; the cache keeps its own). */
static void zap_folio_mapping(struct mmu_gather *tlb, struct folio *folio)
{
	if (folio_mapped(folio))
		return;
	if (folio_mapcount(folio) < 0) { /* mapped more often than counted */
		dump_page(&folio->page, "zap_folio_mapping: mapcount below zero, not freed");
		if (folio_test_large(folio))
			folio_reset_large_mapcounts(folio);
		else
			page_mapcount_reset(&folio->page);
		return;
	}
	/* Never freed while on an LRU list; a page-cache folio stays on
	 * its list, held by the cache. */
	if (!folio_in_page_cache(folio))
		folio_del_lru(folio);
	tlb_remove_folio(tlb, folio);
}

bool zap_batched = true;

/*
 * Linux: zap_present_ptes, for the present entry at @ptep (@addr) and at
 * most @max_nr after it in the same table. A large folio's run of
 * entries mapping consecutive pages of it (folio_pte_batch; young, dirty
 * and write may differ), within one VMA, goes at once: one
 * get_and_clear_full_ptes, one tlb_remove_tlb_entries, one
 * folio_remove_rmap_ptes(folio, nr) and one look at the folio; the
 * gather frees a folio whose last mapping went after the flush.
 * zap_batched off takes one entry at a time, the path Linux had before
 * 6.9. Return: the entries zapped.
 */
static unsigned int zap_present_ptes(struct zap_details *d, struct mm_struct *mm, pte_t *ptep,
				     unsigned long addr, unsigned int max_nr)
{
	pte_t pte = *ptep;
	struct folio *folio;
	unsigned int nr = 1;

	if (is_zero_pfn(pte_pfn(pte))) {
		/* No folio behind it (Linux: vm_normal_page is NULL). */
		ptep_get_and_clear(mm, addr, ptep);
		tlb_remove_tlb_entries(&d->tlb, addr, 1);
		return 1;
	}
	folio = page_folio(pte_page(pte));
	if (d->keep_anon && folio_test_anon(folio))
		return 1;
	zap_vma_at(d, mm, addr);
	if (zap_batched && folio_test_large(folio)) {
		max_nr = (unsigned int)MIN((unsigned long)max_nr, (d->vm_end - addr) >> PAGE_SHIFT);
		if (max_nr > 1)
			nr = folio_pte_batch(folio, ptep, pte, max_nr, NULL, NULL);
	}
	pte = get_and_clear_full_ptes(mm, addr, ptep, nr);
	tlb_remove_tlb_entries(&d->tlb, addr, nr);
	/* Linux: zap_present_folio_ptes, a file folio written through a
	 * writable entry the CPU made dirty. */
	if (!folio_test_anon(folio) && pte_dirty(pte))
		folio_set_dirty(folio);
	zap_folio_done(d, folio);
	zap_munlock_folio(d, mm, addr, folio);
	mm->counters[mm_counter(folio)] -= nr;
	mm->counters[MM_ZAP_BATCHES]++;
	folio_remove_rmap_ptes(folio, nr, mm);
	zap_folio_mapping(&d->tlb, folio);
	return nr;
}

/* A marker maps nothing: clearing it frees nothing and needs no flush. */
static void zap_marker(struct zap_details *d, struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	if (d->drop_markers)
		ptep_get_and_clear(mm, addr, ptep);
}

/* A PTE table's entries, batch by batch (Linux: zap_pte_range). */
static void zap_pte_range(struct zap_details *d, struct mm_struct *mm, pmd_t *pmdp,
			  unsigned long addr, unsigned long end)
{
	pte_t *ptep = pte_offset_map(pmdp, addr);
	unsigned int nr;

	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (pte_present(*ptep))
			nr = zap_present_ptes(d, mm, ptep, addr,
					      (unsigned int)((end - addr) >> PAGE_SHIFT));
		else if (is_pte_marker(*ptep))
			zap_marker(d, mm, addr, ptep);
	}
}

/* A PMD leaf goes whole; a PTE table batch by batch. */
static int zap_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct zap_details *d = walk->private;
	struct folio *folio;
	pmd_t pmd;

	walk->action = ACTION_CONTINUE;
	if (!pmd_leaf(*pmdp)) {
		zap_pte_range(d, walk->mm, pmdp, addr, next);
		return 0;
	}
	/* split_huge_pmd() left only leaves wholly inside the range. */
	if ((addr & ~PMD_MASK) || next - addr != PMD_SIZE) {
		pr_err("zap_pmd: leaf at %lx cut at %lx, left mapped\n", addr, next);
		return 0;
	}
	pmd = pmdp_get_and_clear(walk->mm, addr, pmdp);
	folio = pmd_folio(pmd);
	tlb_remove_pmd_tlb_entry(&d->tlb, addr);
	if (is_huge_zero_pmd(pmd))
		return 0; /* Linux: zap_huge_pmd's huge zero case */
	if (PageFlag(&folio->page, PG_hugetlb)) {
		/* Linux: __unmap_hugepage_range; not in the anon RSS. A page
		 * fork shared goes with its last mapping. */
		hugetlb_remove_rmap(folio);
		if (!folio_mapped(folio))
			tlb_remove_folio(&d->tlb, folio);
		return 0;
	}
	/* Linux: zap_huge_pmd, a page-cache folio written through the leaf. */
	if (!folio_test_anon(folio) && pmd_dirty(pmd))
		folio_set_dirty(folio);
	zap_folio_done(d, NULL); /* before the gather may free the last one */
	zap_munlock_folio(d, walk->mm, addr, folio);
	walk->mm->counters[mm_counter(folio)] -= HPAGE_PMD_NR;
	folio_remove_rmap_pmd(folio, walk->mm);
	zap_folio_mapping(&d->tlb, folio);
	return 0;
}

/* A 1 GiB HugeTLB leaf (Linux: __unmap_hugepage_range); hugetlb_vm_op_split
 * let only whole ones into the range. */
static int zap_pud(pud_t *pudp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct zap_details *d = walk->private;
	pud_t pud = pudp_get_and_clear(walk->mm, addr, pudp);
	struct folio *folio = pud_folio(pud);

	(void)next;
	tlb_remove_pud_tlb_entry(&d->tlb, addr);
	hugetlb_remove_rmap(folio); /* the one entry of a PUD leaf */
	if (!folio_mapped(folio))
		tlb_remove_folio(&d->tlb, folio);
	return 0;
}

static const struct mm_walk_ops zap_walk_ops = {
	.pud_entry = zap_pud,
	.pmd_entry = zap_pmd,
};

/* Return: true if unmapping [start, end) splits a VMA in two. */
static bool unmap_splits_vma(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	struct vm_area_struct *vma = find_vma(mm, start);

	return vma && vma->vm_start < start && vma->vm_end > end;
}

static int __zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			    bool drop_markers, bool keep_anon)
{
	struct zap_details d = { .folio = NULL,
				 .vm_start = 1,
				 .vm_end = 0,
				 .drop_markers = drop_markers,
				 .keep_anon = keep_anon };

	/* Only the two ends can cut a PMD leaf. A split alone changes no
	 * translation, so failing after the first one is harmless. */
	if (split_huge_pmd(mm, start) || split_huge_pmd(mm, end))
		return -ENOMEM;
	update_hiwater_rss(mm);
	tlb_gather_mmu(&d.tlb, mm);
	walk_page_range(mm, start, end, &zap_walk_ops, &d);
	zap_folio_done(&d, NULL);
	tlb_finish_mmu(&d.tlb);
	free_pgtables(mm, start, end);
	return 0;
}

/* MADV_DONTNEED's zap keeps guard markers (Linux: zap_page_range_single
 * with no details); munmap's drops them. */
int zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	return __zap_page_range(mm, start, end, false, false);
}

int zap_file_pages(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	return __zap_page_range(mm, start, end, false, true);
}

int vm_munmap(struct mm_struct *mm, unsigned long start, unsigned long len)
{
	unsigned long end;

	if ((start & (PAGE_SIZE - 1)) || !len || start >= USER_VA_END || len > USER_VA_END - start)
		return -EINVAL;
	end = ALIGN_UP(start + len, PAGE_SIZE);
	if (!hugetlb_range_aligned(mm, start, end))
		return -EINVAL; /* Linux: hugetlb_vm_op_split */
	/* Linux: do_vmi_align_munmap's map_count check for a split. */
	if (unmap_splits_vma(mm, start, end) &&
	    (mm->nr_vmas >= sysctl_max_map_count || mm_vmas_reserve(mm, 1)))
		return -ENOMEM;
	if (__zap_page_range(mm, start, end, true, false))
		return -ENOMEM;
	hugetlb_unreserve_range(mm, start, end);
	vma_unmap_range(mm, start, end);
	return 0;
}

/* Fault every page of [start, end) in, as a write when flags says so,
 * until one fails (Linux: mm_populate; MAP_POPULATE ignores a failure).
 * A PMD leaf covers the rest of its 2 MiB at once. */
void mm_populate(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned int flags)
{
	for (unsigned long addr = start; addr < end;) {
		pmd_t *pmd;

		if (handle_mm_fault(mm, addr, flags) != VM_FAULT_OK)
			return;
		pmd = mm_find_pmd(mm, addr);
		addr = pmd && pmd_leaf(*pmd) ? pmd_addr_end(addr, end) : addr + PAGE_SIZE;
	}
}

/* --- mprotect: Linux's mprotect_fixup, split_vma and change_protection ------------ */

/* Cut the VMA strictly containing addr in two at addr, both halves with
 * its flags, so a flag change can stop at addr (Linux: split_vma). An
 * addr at a VMA's edge or in no VMA needs nothing. Return: 0, or -ENOMEM
 * at vm.max_map_count or when the array cannot grow. */
int split_vma(struct mm_struct *mm, unsigned long addr)
{
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];
		struct vm_area_struct tail;

		if (addr <= vma->vm_start || addr >= vma->vm_end)
			continue;
		/* Linux: __split_vma's map_count check. */
		if (mm->nr_vmas >= sysctl_max_map_count || mm_vmas_reserve(mm, 1))
			return -ENOMEM;
		vma = &mm->vmas[i]; /* the array may have moved */
		tail = vma_tail(vma, addr);
		vma->vm_end = addr;
		vma_insert_at(mm, i + 1, &tail);
		return 0;
	}
	return 0;
}

/* Linux: is_mergeable_anon_vma, in the flat form: a VMA without an
 * anon_vma can join any, else they must share it. */
static bool is_mergeable_anon_vma(const struct anon_vma *a, const struct anon_vma *b)
{
	return !a || !b || a == b;
}

/* Linux: is_mergeable_vma with can_vma_merge_after. Touching, with equal
 * flags but for VM_SOFTDIRTY, which does not keep VMAs apart
 * (VM_IGNORE_MERGE), the same file (or none), compatible anon_vmas and
 * next's pgoff continuing
 * vma's, so every folio keeps its address in the merged VMA. */
static bool vma_mergeable(const struct vm_area_struct *vma, const struct vm_area_struct *next)
{
	return vma->vm_end == next->vm_start &&
	       !((vma->vm_flags ^ next->vm_flags) & ~VM_SOFTDIRTY) &&
	       vma->vm_file == next->vm_file &&
	       is_mergeable_anon_vma(vma->anon_vma, next->anon_vma) &&
	       next->vm_pgoff == linear_page_index(vma, vma->vm_end);
}

/* Fold vmas[i + 1] into vmas[i]; VM_SOFTDIRTY survives the merge (Linux:
 * VM_STICKY, so a new range merged into a tracked one still reads as
 * new data), and so does an anon_vma either had (Linux: vma_expand's
 * dup_anon_vma). */
static void vma_merge_next(struct mm_struct *mm, int i)
{
	struct vm_area_struct *vma = &mm->vmas[i], *next = &mm->vmas[i + 1];

	if (!vma->anon_vma && next->anon_vma) {
		vma->anon_vma = next->anon_vma;
		anon_vma_link(mm, vma->anon_vma); /* mm is a member: cannot fail */
	}
	vma->vm_end = next->vm_end;
	vma->vm_flags |= next->vm_flags & VM_SOFTDIRTY;
	vma_remove_at(mm, i + 1);
}

void vma_set_file(struct mm_struct *mm, struct vm_area_struct *vma, struct file *file,
		  const struct vm_operations_struct *vm_ops, unsigned long pgoff)
{
	vma->vm_file = file;
	vma->vm_ops = vm_ops;
	vma->vm_pgoff = pgoff;
	if (vma_link_file(mm, vma)) /* mm maps file already: cannot fail */
		pr_err("vma_set_file: mm %p not yet in i_mmap\n", (void *)mm);
}

void vma_set_anon_vma(struct mm_struct *mm, struct vm_area_struct *vma, struct anon_vma *av,
		      unsigned long pgoff)
{
	if (vma->anon_vma)
		unlink_anon_vma(mm, vma->anon_vma);
	anon_vma_link(mm, av); /* mm is a member: cannot fail */
	vma->anon_vma = av;
	vma->vm_pgoff = pgoff;
}

/* Join touching VMAs with equal flags from the one ending at start to the
 * one starting at end, so mprotect back and forth does not use up the
 * array (Linux: vma_merge in mprotect_fixup). */
void vma_merge_range(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	for (int i = 0; i + 1 < mm->nr_vmas && mm->vmas[i].vm_start <= end;) {
		if (mm->vmas[i].vm_end >= start && vma_mergeable(&mm->vmas[i], &mm->vmas[i + 1]))
			vma_merge_next(mm, i);
		else
			i++;
	}
}

void vma_merge_new_range(struct mm_struct *mm, unsigned long addr, bool merge_prev,
			 unsigned long keep)
{
	int i = 0;

	while (i < mm->nr_vmas && mm->vmas[i].vm_end <= addr)
		i++;
	if (i == mm->nr_vmas || mm->vmas[i].vm_start > addr)
		return;
	if (i + 1 < mm->nr_vmas && vma_mergeable(&mm->vmas[i], &mm->vmas[i + 1]) &&
	    !(keep >= mm->vmas[i + 1].vm_start && keep < mm->vmas[i + 1].vm_end))
		vma_merge_next(mm, i);
	if (merge_prev && i > 0 && vma_mergeable(&mm->vmas[i - 1], &mm->vmas[i]) &&
	    !(keep >= mm->vmas[i - 1].vm_start && keep < mm->vmas[i - 1].vm_end))
		vma_merge_next(mm, i - 1);
}

/* --- the system calls (Linux: mm/mmap.c, arch/x86/kernel/sys_x86_64.c) --- */
/*
 * Linux: sys_brk. brk(0), or any value below start_brk, returns the
 * current break; growing maps anonymous pages up to the new break's page
 * unless that would come within a page of the next mapping (Linux's
 * check against vm_start_gap), shrinking unmaps them. On failure the old
 * break is returned, which is how libc sees the error.
 */
SYSCALL_DEFINE1(brk, unsigned long, brk)
{
	struct mm_struct *mm = task->mm;
	unsigned long old_end = ALIGN_UP(mm->brk, PAGE_SIZE);
	unsigned long new_end = ALIGN_UP(brk, PAGE_SIZE);

	if (brk < mm->start_brk || brk > TASK_SIZE)
		return (long)mm->brk;
	if (new_end > old_end) {
		unsigned long flags = VM_READ | VM_WRITE | VM_USER;

		if (new_end > TASK_SIZE - PAGE_SIZE ||
		    find_vma_intersection(mm, old_end, new_end + PAGE_SIZE) ||
		    !mlock_future_ok(task, mm->def_flags, new_end - old_end) ||
		    !may_expand_vm(mm, flags, (new_end - old_end) >> PAGE_SHIFT) ||
		    IS_ERR_VALUE(vm_mmap(mm, old_end, new_end - old_end, flags, 0)))
			return (long)mm->brk;
		/* Linux: brk's mm_populate after mlockall(MCL_FUTURE). */
		if (mm->def_flags & VM_LOCKED)
			__mm_populate(mm, old_end, new_end - old_end, true);
	} else if (new_end < old_end && vm_munmap(mm, new_end, old_end - new_end)) {
		return (long)mm->brk;
	}
	mm->brk = brk;
	return (long)brk;
}

/* Pages of [start, end) some VMA maps (Linux: count_vma_pages_range). */
static unsigned long mapped_pages(struct mm_struct *mm, unsigned long start, unsigned long end)
{
	unsigned long pages = 0;

	for (int i = 0; i < mm->nr_vmas; i++) {
		unsigned long s = MAX(start, mm->vmas[i].vm_start),
			      e = MIN(end, mm->vmas[i].vm_end);

		if (s < e)
			pages += (e - s) >> PAGE_SHIFT;
	}
	return pages;
}

/*
 * MAP_FIXED: [addr, addr + len) is the mapping, whatever was there is
 * unmapped first; MAP_FIXED_NOREPLACE fails instead (Linux: do_mmap).
 * Folium keeps [0, USER_VA_START) unmapped: below it is -EPERM, Linux's
 * answer for an address below mmap_min_addr from a task without
 * CAP_SYS_RAWIO (root on Linux may map there).
 */
static long mmap_fixed(struct mm_struct *mm, unsigned long addr, unsigned long len,
		       unsigned long vm_flags, unsigned long flags, struct file *file,
		       unsigned long pgoff)
{
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	/* Linux: hugetlb_get_unmapped_area, before anything is unmapped. */
	if ((vm_flags & VM_HUGETLB) && (addr & (huge_page_size(hstate_vm_flags(vm_flags)) - 1)))
		return -EINVAL;
	if (addr > TASK_SIZE || len > TASK_SIZE - addr)
		return -ENOMEM;
	if (addr < USER_VA_START)
		return -EPERM;
	if ((flags & MAP_FIXED_NOREPLACE) && find_vma_intersection(mm, addr, addr + len))
		return -EEXIST;
	/* Linux's mmap_region: the limits count what the new mapping adds
	 * beyond what it replaces, before anything is unmapped. */
	if (!may_expand_vm(mm, vm_flags,
			   (ALIGN_UP(len, PAGE_SIZE) >> PAGE_SHIFT) -
				   mapped_pages(mm, addr, addr + ALIGN_UP(len, PAGE_SIZE))))
		return -ENOMEM;
	if (!(flags & MAP_FIXED_NOREPLACE) && vm_munmap(mm, addr, len))
		return -ENOMEM;
	return (long)mmap_region(mm, addr, len, vm_flags, 0, file, pgoff);
}

/* Without MAP_FIXED: the hint if it is free and not below mmap_min_addr
 * (Linux: arch_get_unmapped_area_topdown), else vm_mmap's own choice,
 * which for a program searches downwards from mm->mmap_base, as Linux
 * (MMF_TOPDOWN); never the page above TASK_SIZE. */
static long mmap_anywhere(struct mm_struct *mm, unsigned long hint, unsigned long len,
			  unsigned long vm_flags, struct file *file, unsigned long pgoff)
{
	unsigned long addr = (unsigned long)-ENOMEM;

	if (!may_expand_vm(mm, vm_flags, ALIGN_UP(len, PAGE_SIZE) >> PAGE_SHIFT))
		return -ENOMEM;
	hint = ALIGN_UP(hint, PAGE_SIZE);
	if (hint >= mmap_min_addr && hint <= TASK_SIZE && len <= TASK_SIZE - hint)
		addr = mmap_region(mm, hint, len, vm_flags, 0, file, pgoff);
	if (IS_ERR_VALUE(addr))
		addr = mmap_region(mm, 0, len, vm_flags, 0, file, pgoff);
	if (!IS_ERR_VALUE(addr) && addr + len > TASK_SIZE) {
		vm_munmap(mm, addr, len);
		return -ENOMEM;
	}
	return (long)addr;
}

/* Linux's order in do_mmap: the access checks (MAP_SHARED with
 * PROT_WRITE of an fd not open for writing is -EACCES), then whether the
 * file can be mapped at all (only regular files can: -ENODEV for the
 * console, a pipe, a directory). */
static long mmap_file_check(const struct file *file, unsigned long prot, unsigned long flags)
{
	if (!(file->f_mode & FMODE_READ))
		return -EACCES;
	if ((flags & MAP_TYPE) == MAP_SHARED && (prot & PROT_WRITE) &&
	    !(file->f_mode & FMODE_WRITE))
		return -EACCES;
	if (!file->f_op->mmap)
		return -ENODEV;
	return 0;
}

/* A mapping of a file (shared or private), or of a new shmem file for
 * MAP_SHARED|MAP_ANONYMOUS (Linux: shmem_zero_setup; its pgoff is 0).
 * The VMA holds the file. Return: the address, or -errno. */
static long mmap_file(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long vm_flags, unsigned long flags, struct file *file,
		      unsigned long pgoff)
{
	struct file *anon = NULL;
	long ret;

	if (!file) {
		anon = file = shmem_zero_setup(len, vm_flags);
		if (!file)
			return -ENOMEM;
		pgoff = 0;
	}
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))
		ret = mmap_fixed(mm, addr, len, vm_flags, flags, file, pgoff);
	else
		ret = mmap_anywhere(mm, addr, len, vm_flags, file, pgoff);
	if (anon)
		fput(anon);
	return ret;
}

/* MAP_HUGETLB: the pool MAP_HUGE_* names (Linux: hstate_sizelog; a size
 * with no pool, MAP_HUGE_1GB without PDPE1GB or a shift other than 21 and
 * 30, is -EINVAL), len rounded up to its page size, the VMA flags naming
 * the pool (VM_HSTATE). Return: 0 or -EINVAL. */
static long mmap_hugetlb_flags(unsigned long flags, unsigned long *len, unsigned long *vm_flags)
{
	unsigned long log = (flags >> MAP_HUGE_SHIFT) & MAP_HUGE_MASK;
	struct hstate *h = log ? size_to_hstate(1ul << log) : &default_hstate;

	if (!h || !hugetlb_max_hstate)
		return -EINVAL;
	*len = ALIGN_UP(*len, huge_page_size(h));
	*vm_flags |=
		VM_HUGETLB | VM_HSTATE(h - hstates) | (flags & MAP_NORESERVE ? VM_NORESERVE : 0);
	return 0;
}

/*
 * Linux: sys_mmap. Anonymous memory, private or shared (a shmem file of
 * its own), and mappings of files' page caches: MAP_SHARED writes the
 * file, MAP_PRIVATE reads it and copies a page on its first write
 * (mm/memory.c); past the end of the file is SIGBUS. The checks come in
 * Linux's order: offset, file (with MAP_ANONYMOUS fd is ignored, as Linux
 * does), length, type. A private writable mapping is charged to
 * Committed_AS (vm_mmap), except with MAP_NORESERVE outside overcommit
 * mode 2 (Linux: do_mmap's VM_NORESERVE); a shared one is not, but shared
 * anonymous memory's file is charged its size (shmem_zero_setup, the
 * same MAP_NORESERVE rule) and a file's pages as it gets them.
 * MAP_HUGETLB's size comes from MAP_HUGE_* (0: the default), its length
 * is rounded up to it (Linux: ksys_mmap_pgoff), and the pool must cover
 * it unless MAP_NORESERVE (-ENOMEM, vm_mmap's hugetlb_reserve_pages); it
 * is never charged.
 */
SYSCALL_DEFINE6(mmap, unsigned long, addr, unsigned long, len, unsigned long, prot, unsigned long,
		flags, int, fd, unsigned long, off)
{
	unsigned long vm_flags = calc_vm_prot_bits(prot) | VM_USER;
	struct file *file = NULL;
	long ret;

	if (off & (PAGE_SIZE - 1))
		return -EINVAL;
	if (!(flags & MAP_ANONYMOUS)) {
		file = fget(task, fd);
		if (!file)
			return -EBADF;
		/* Linux: ksys_mmap_pgoff, MAP_HUGETLB of a file that is no
		 * hugetlbfs file. */
		ret = -EINVAL;
		if (flags & MAP_HUGETLB)
			goto out;
		ret = mmap_file_check(file, prot, flags);
		if (ret)
			goto out;
	}
	ret = -EINVAL;
	if (!len)
		goto out;
	ret = -ENOMEM;
	if (len > TASK_SIZE)
		goto out;
	len = ALIGN_UP(len, PAGE_SIZE);
	ret = -EAGAIN; /* Linux: do_mmap's mlock_future_ok, for mlockall(MCL_FUTURE) */
	if (!mlock_future_ok(task, task->mm->def_flags, len))
		goto out;
	ret = -EINVAL;
	if ((flags & MAP_TYPE) == MAP_DROPPABLE) {
		/* Linux: do_mmap's MAP_DROPPABLE case. Anonymous only; locked,
		 * huge or growing-down makes no sense for memory that may go. */
		if (file || (flags & (MAP_LOCKED | MAP_HUGETLB | MAP_GROWSDOWN)))
			goto out;
		vm_flags |= VM_DROPPABLE | VM_NORESERVE | VM_WIPEONFORK;
	} else if ((flags & MAP_TYPE) == MAP_SHARED) {
		/* Linux: do_mmap's MAP_SHARED case. A shared HugeTLB mapping
		 * (a hugetlbfs file in Linux) is not served. */
		if (flags & MAP_HUGETLB)
			goto out;
		vm_flags |= VM_SHARED | VM_MAYSHARE | VM_MAYWRITE;
		if (file && !(file->f_mode & FMODE_WRITE))
			vm_flags &= ~VM_MAYWRITE;
	} else if ((flags & MAP_TYPE) != MAP_PRIVATE) {
		goto out;
	}
	if (flags & MAP_HUGETLB) {
		ret = mmap_hugetlb_flags(flags, &len, &vm_flags);
		if (ret)
			goto out;
	} else if ((flags & MAP_NORESERVE) && sysctl_overcommit_memory != OVERCOMMIT_NEVER) {
		vm_flags |= VM_NORESERVE;
	}
	if (file || (vm_flags & VM_SHARED))
		ret = mmap_file(task->mm, addr, len, vm_flags, flags, file, off >> PAGE_SHIFT);
	else if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE))
		ret = mmap_fixed(task->mm, addr, len, vm_flags, flags, NULL, 0);
	else
		ret = mmap_anywhere(task->mm, addr, len, vm_flags, NULL, 0);
	/* Linux: mm_populate, which skips PROT_NONE and ignores failures;
	 * a VMA locked by mlockall(MCL_FUTURE) is populated as mlock does. */
	if (!IS_ERR_VALUE(ret) && (task->mm->def_flags & VM_LOCKED_MASK) == VM_LOCKED)
		__mm_populate(task->mm, (unsigned long)ret, len, true);
	else if (!IS_ERR_VALUE(ret) && (flags & MAP_POPULATE) && (vm_flags & VM_ACCESS_FLAGS))
		mm_populate(task->mm, (unsigned long)ret, (unsigned long)ret + len,
			    vm_flags & VM_WRITE ? FAULT_FLAG_WRITE : 0);
out:
	if (file)
		fput(file);
	return ret;
}

SYSCALL_DEFINE2(munmap, unsigned long, addr, size_t, len)
{
	return vm_munmap(task->mm, addr, len); /* Linux: sys_munmap's rules */
}
