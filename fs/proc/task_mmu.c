/*
 * /proc/PID/maps and /proc/PID/smaps (Linux: fs/proc/task_mmu.c). maps:
 * one line per VMA, "start-end perms offset dev inode", padded to column
 * 73 before a name ([heap], [stack], a file's path); an anonymous VMA
 * reads offset 0, device 00:00, inode 0, e.g.
 * "7fffff7ff000-7ffffffff000 rw-p 00000000 00:00 0                          [stack]",
 * a file's its offset, device, inode and path, 's' when shared:
 * "7ffff7ff0000-7ffff7ff4000 rw-s 00000000 00:00 17                         /tmp/f".
 * smaps: that line, then Linux's fields from a page-table walk of the VMA
 * (walk_page_range): a PTE adds 4 kB to Rss, a PMD leaf 2048 kB and the
 * same to AnonHugePages; zero-page entries count nowhere (Linux:
 * vm_normal_page is NULL for them). After Linux's fields, Folium adds
 * one line per anonymous folio size the VMA maps, the bytes mapped by
 * folios of that size ("AnonFolio64kB:   512 kB"): Linux has no such
 * line (its tools/mm/thpmaps reads pagemap for it), and mTHP is what
 * Folium is for. Parsers that read "Key: value" lines skip them.
 * smaps_rollup: the same fields summed over every VMA, under one
 * "[rollup]" line spanning the first VMA's start to the last one's end.
 * pagemap: one u64 per virtual page, read at offset (vaddr / 4096) * 8
 * (bits: PM_* in <seq_file.h>), e.g. a 2 MiB PMD-mapped folio just
 * written gives 512 entries PM_PRESENT | PM_SOFT_DIRTY |
 * PM_MMAP_EXCLUSIVE | pfn, the pfns consecutive.
 * clear_refs: write-only; "4" clears the soft-dirty bits (clear_refs in
 * mm/clear_refs.c does the walk).
 */
#include <binfmt_elf.h>
#include <hugetlb.h>
#include <sched.h>
#include <seq_file.h>
#include <slab.h>
#include <vm.h>

#define PSS_SHIFT 12 /* Linux: fixed-point Pss, to split shared pages */

/* The file's task's mm with a reference (Linux: proc_mem_open at open,
 * mmget_not_zero at each read): NULL once the task exited. */
static struct mm_struct *proc_mm(struct seq_file *m)
{
	struct task_struct *task = proc_task_get(m->private);

	return task ? get_task_mm(task) : NULL;
}

/* Linux: get_vma_name's special names. */
static const char *vma_name(const struct mm_struct *mm, const struct vm_area_struct *vma)
{
	if (vma->vm_start >= mm->start_brk && vma->vm_start < ALIGN_UP(mm->brk, PAGE_SIZE))
		return "[heap]";
	if (vma->vm_end == STACK_TOP) /* pick_mmap_layout's stack_top */
		return "[stack]";
	return NULL;
}

/* Linux: show_map_vma (show_vma_header_prefix, then the padded name). A
 * file VMA shows its offset in the file, the file's device and inode and
 * its path (d_path), 's' when shared. */
static void show_map_vma(struct seq_file *m, const struct mm_struct *mm,
			 const struct vm_area_struct *vma)
{
	const struct ramfs_inode *inode = vma->vm_file ? vma->vm_file->f_inode : NULL;
	size_t line = m->count;
	const char *name = vma_name(mm, vma);
	char path[256];

	if (inode && d_path(inode, path, sizeof(path)) >= 0)
		name = path;
	seq_printf(m, "%08lx-%08lx %c%c%c%c %08lx %02x:%02x %lu ", vma->vm_start, vma->vm_end,
		   vma->vm_flags & VM_READ ? 'r' : '-', vma->vm_flags & VM_WRITE ? 'w' : '-',
		   vma->vm_flags & VM_EXEC ? 'x' : '-', vma->vm_flags & VM_MAYSHARE ? 's' : 'p',
		   inode ? vma->vm_pgoff << PAGE_SHIFT : 0ul, 0u,
		   inode && inode->i_sb ? inode->i_sb->dev : 0u, inode ? inode->ino : 0ul);
	if (name) {
		seq_pad_to(m, line, 25 + sizeof(void *) * 6 - 1, ' ');
		seq_puts(m, name);
	}
	seq_putc(m, '\n');
}

static int show_map(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm(m);

	(void)v;
	if (!mm)
		return 0;
	for (int i = 0; i < mm->nr_vmas; i++)
		show_map_vma(m, mm, &mm->vmas[i]);
	mmput(mm);
	return 0;
}

/* Linux: struct mem_size_stats, in bytes (pss << PSS_SHIFT). */
struct mem_size_stats {
	unsigned long resident, shared_clean, shared_dirty, private_clean, private_dirty;
	unsigned long referenced, anonymous, lazyfree, anonymous_thp, shmem_thp, file_thp;
	unsigned long shared_hugetlb, private_hugetlb;
	uint64_t pss, pss_dirty, pss_locked, pss_anon, pss_file, pss_shmem;
	bool vma_locked;			  /* the VMA being walked is VM_LOCKED */
	unsigned long anon_folio[NR_PAGE_ORDERS]; /* Folium's: bytes per folio order */
};

/*
 * Linux 6.15's smaps_account without per-page mapcounts
 * (CONFIG_NO_PAGE_MAPCOUNT): a folio mapped once is private and counts
 * whole in Pss; otherwise each page counts as private if the folio is not
 * maybe mapped shared, and Pss divides each page by the folio's average
 * page mapcount. Exact for a folio all of whose pages are mapped alike
 * (before fork, after fork, after the child's exit); an estimate once
 * some pages were copied or unmapped, as Linux's admin-guide says.
 */
static void smaps_account(struct mem_size_stats *mss, struct folio *folio, unsigned long size,
			  bool young, bool dirty)
{
	unsigned long nr = size >> PAGE_SHIFT;
	uint64_t pss = (uint64_t)size << PSS_SHIFT;
	bool private = true;

	dirty = dirty || folio_test_dirty(folio);
	mss->resident += size;
	if (folio_test_anon(folio)) {
		mss->anonymous += size;
		mss->anon_folio[folio_order(folio)] += size;
	}
	if (folio_test_lazyfree(folio) && !dirty)
		mss->lazyfree += size;
	if (young || folio_test_referenced(folio))
		mss->referenced += size;
	if (folio_mapcount(folio) > 1) {
		int mapcount = folio_average_page_mapcount(folio);

		private = !folio_maybe_mapped_shared(folio);
		if (mapcount >= 2) /* Linux divides page by page */
			pss = (((uint64_t)PAGE_SIZE << PSS_SHIFT) / (unsigned int)mapcount) * nr;
	}
	mss->pss += pss;
	/* Linux: smaps_page_accumulate's split of Pss by kind. */
	if (folio_test_anon(folio))
		mss->pss_anon += pss;
	else if (folio_test_swapbacked(folio))
		mss->pss_shmem += pss;
	else
		mss->pss_file += pss;
	if (dirty)
		mss->pss_dirty += pss;
	if (mss->vma_locked)
		mss->pss_locked += pss;
	if (private)
		*(dirty ? &mss->private_dirty : &mss->private_clean) += size;
	else
		*(dirty ? &mss->shared_dirty : &mss->shared_clean) += size;
}

static int smaps_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	(void)addr;
	if (!is_zero_pfn(pte_pfn(*ptep)))
		smaps_account(walk->private, page_folio(pte_page(*ptep)), PAGE_SIZE,
			      pte_young(*ptep), pte_dirty(*ptep));
	return 0;
}

static int smaps_pmd_entry(pmd_t *pmdp, unsigned long addr, unsigned long next,
			   struct mm_walk *walk)
{
	struct mem_size_stats *mss = walk->private;

	(void)addr;
	(void)next;
	if (!pmd_leaf(*pmdp))
		return 0; /* ACTION_SUBTREE: its PTEs */
	walk->action = ACTION_CONTINUE;
	if (is_huge_zero_pmd(*pmdp))
		return 0;
	/* Linux: smaps_hugetlb_range, outside Rss. */
	if (PageFlag(pmd_page(*pmdp), PG_hugetlb)) {
		if (folio_maybe_mapped_shared(pmd_folio(*pmdp)))
			mss->shared_hugetlb += PMD_SIZE;
		else
			mss->private_hugetlb += PMD_SIZE;
		return 0;
	}
	smaps_account(mss, pmd_folio(*pmdp), PMD_SIZE, pmd_young(*pmdp), pmd_dirty(*pmdp));
	if (folio_test_anon(pmd_folio(*pmdp)))
		mss->anonymous_thp += PMD_SIZE;
	else if (folio_test_swapbacked(pmd_folio(*pmdp)))
		mss->shmem_thp += PMD_SIZE;
	else
		mss->file_thp += PMD_SIZE;
	return 0;
}

/* A 1 GiB HugeTLB leaf (Linux: smaps_hugetlb_range), outside Rss. */
static int smaps_pud_entry(pud_t *pudp, unsigned long addr, unsigned long next,
			   struct mm_walk *walk)
{
	struct mem_size_stats *mss = walk->private;

	(void)addr;
	(void)next;
	if (folio_maybe_mapped_shared(pud_folio(*pudp)))
		mss->shared_hugetlb += PUD_SIZE;
	else
		mss->private_hugetlb += PUD_SIZE;
	return 0;
}

static const struct mm_walk_ops smaps_walk_ops = {
	.pmd_entry = smaps_pmd_entry,
	.pte_entry = smaps_pte_entry,
	.pud_entry = smaps_pud_entry,
};

static void seq_kb(struct seq_file *m, const char *name, unsigned long bytes)
{
	seq_printf(m, "%-16s%8lu kB\n", name, bytes >> 10);
}

/* Linux: __show_smap from Shared_Clean on (smaps and smaps_rollup). */
static void __show_smap_fields(struct seq_file *m, const struct mem_size_stats *mss)
{
	seq_kb(m, "Shared_Clean:", mss->shared_clean);
	seq_kb(m, "Shared_Dirty:", mss->shared_dirty);
	seq_kb(m, "Private_Clean:", mss->private_clean);
	seq_kb(m, "Private_Dirty:", mss->private_dirty);
	seq_kb(m, "Referenced:", mss->referenced);
	seq_kb(m, "Anonymous:", mss->anonymous);
	seq_kb(m, "KSM:", 0);
	seq_kb(m, "LazyFree:", mss->lazyfree);
	seq_kb(m, "AnonHugePages:", mss->anonymous_thp);
	seq_kb(m, "ShmemPmdMapped:", mss->shmem_thp);
	seq_kb(m, "FilePmdMapped:", mss->file_thp);
	seq_kb(m, "Shared_Hugetlb:", mss->shared_hugetlb);
	seq_printf(m, "Private_Hugetlb: %7lu kB\n", mss->private_hugetlb >> 10);
	seq_kb(m, "Swap:", 0);
	seq_kb(m, "SwapPss:", 0);
	seq_kb(m, "Locked:", mss->pss_locked >> PSS_SHIFT);
	for (unsigned int order = 0; order < NR_PAGE_ORDERS; order++) {
		char name[24];

		if (!mss->anon_folio[order])
			continue;
		ksnprintf(name, sizeof(name), "AnonFolio%lukB:", (PAGE_SIZE << order) >> 10);
		seq_kb(m, name, mss->anon_folio[order]);
	}
}

/* Linux: __show_smap. */
static void __show_smap(struct seq_file *m, const struct mem_size_stats *mss)
{
	seq_kb(m, "Rss:", mss->resident);
	seq_kb(m, "Pss:", mss->pss >> PSS_SHIFT);
	seq_kb(m, "Pss_Dirty:", mss->pss_dirty >> PSS_SHIFT);
	__show_smap_fields(m, mss);
}

/* Linux: show_smap_vma_flags. A private anonymous mapping may become
 * readable, writable, executable (mr mw me); a writable one is
 * accounted (ac). */
static void show_smap_vma_flags(struct seq_file *m, const struct vm_area_struct *vma)
{
	unsigned long f = vma->vm_flags;

	seq_puts(m, "VmFlags:");
	seq_puts(m, f & VM_READ ? " rd" : "");
	seq_puts(m, f & VM_WRITE ? " wr" : "");
	seq_puts(m, f & VM_EXEC ? " ex" : "");
	seq_puts(m, " mr mw me");
	seq_puts(m, f & VM_LOCKED ? " lo" : "");
	seq_puts(m, f & VM_HUGETLB ? " de" : ""); /* hugetlbfs_file_mmap's VM_DONTEXPAND */
	seq_puts(m, (f & VM_WRITE) && !(f & VM_HUGETLB) ? " ac" : "");
	seq_puts(m, f & VM_NORESERVE ? " nr" : "");
	seq_puts(m, f & VM_HUGETLB ? " ht" : "");
	seq_puts(m, f & VM_SOFTDIRTY ? " sd" : "");
	seq_puts(m, f & VM_HUGEPAGE ? " hg" : "");
	seq_puts(m, f & VM_NOHUGEPAGE ? " nh" : "");
	seq_puts(m, f & VM_DROPPABLE ? " dp" : "");
	seq_putc(m, '\n');
}

/* THPeligible: some allowed order has an aligned block inside the VMA
 * (Linux: thp_vma_allowable_orders(..., TVA_SMAPS, THP_ORDERS_ALL), whose
 * vma_thp_disabled also sees prctl(PR_SET_THP_DISABLE)). */
static bool vma_thp_eligible(const struct mm_struct *mm, const struct vm_area_struct *vma)
{
	unsigned long orders = thp_vma_allowable_orders(vma, THP_ORDERS_ALL);

	if (mm->flags & MMF_DISABLE_THP)
		return false;

	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		unsigned long size = PAGE_SIZE << order;

		if ((orders & (1ul << order)) &&
		    ALIGN_UP(vma->vm_start, size) + size <= vma->vm_end)
			return true;
	}
	return false;
}

static int show_smap(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm(m);

	(void)v;
	if (!mm)
		return 0;
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];
		struct mem_size_stats mss = { .vma_locked = vma->vm_flags & VM_LOCKED };

		walk_page_range(mm, vma->vm_start, vma->vm_end, &smaps_walk_ops, &mss);
		show_map_vma(m, mm, vma);
		seq_kb(m, "Size:", vma->vm_end - vma->vm_start);
		/* Linux: vma_kernel_pagesize, vma_mmu_pagesize. */
		seq_kb(m, "KernelPageSize:",
		       is_vm_hugetlb_page(vma) ? huge_page_size(hstate_vma(vma)) : PAGE_SIZE);
		seq_kb(m, "MMUPageSize:",
		       is_vm_hugetlb_page(vma) ? huge_page_size(hstate_vma(vma)) : PAGE_SIZE);
		__show_smap(m, &mss);
		seq_printf(m, "THPeligible:    %8u\n", vma_thp_eligible(mm, vma));
		show_smap_vma_flags(m, vma);
	}
	mmput(mm);
	return 0;
}

/* Linux: show_smaps_rollup. Pss_Anon and friends follow Pss_Dirty there;
 * every Folium page is anonymous, so Pss_Anon is Pss. */
static int show_smaps_rollup(struct seq_file *m, void *v)
{
	struct mm_struct *mm = proc_mm(m);
	struct mem_size_stats mss = { 0 };
	size_t line = m->count;

	(void)v;
	if (!mm)
		return 0;
	for (int i = 0; i < mm->nr_vmas; i++) {
		mss.vma_locked = mm->vmas[i].vm_flags & VM_LOCKED;
		walk_page_range(mm, mm->vmas[i].vm_start, mm->vmas[i].vm_end, &smaps_walk_ops,
				&mss);
	}
	seq_printf(m, "%08lx-%08lx ---p 00000000 00:00 0 ",
		   mm->nr_vmas ? mm->vmas[0].vm_start : 0ul,
		   mm->nr_vmas ? mm->vmas[mm->nr_vmas - 1].vm_end : 0ul);
	seq_pad_to(m, line, 25 + sizeof(void *) * 6 - 1, ' ');
	seq_puts(m, "[rollup]\n");
	seq_kb(m, "Rss:", mss.resident);
	seq_kb(m, "Pss:", mss.pss >> PSS_SHIFT);
	seq_kb(m, "Pss_Dirty:", mss.pss_dirty >> PSS_SHIFT);
	seq_kb(m, "Pss_Anon:", mss.pss_anon >> PSS_SHIFT);
	seq_kb(m, "Pss_File:", mss.pss_file >> PSS_SHIFT);
	seq_kb(m, "Pss_Shmem:", mss.pss_shmem >> PSS_SHIFT);
	__show_smap_fields(m, &mss);
	mmput(mm);
	return 0;
}

static int pid_maps_open(struct ramfs_inode *inode, struct file *file)
{
	int err = proc_mem_open_check(inode);

	return err ? err : proc_pid_single_open(inode, file, show_map);
}

static int pid_smaps_open(struct ramfs_inode *inode, struct file *file)
{
	int err = proc_mem_open_check(inode);

	return err ? err : proc_pid_single_open(inode, file, show_smap);
}

const struct file_operations proc_pid_maps_fops = {
	.open = pid_maps_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

const struct file_operations proc_pid_smaps_fops = {
	.open = pid_smaps_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

static int smaps_rollup_open(struct ramfs_inode *inode, struct file *file)
{
	int err = proc_mem_open_check(inode);

	return err ? err : proc_pid_single_open(inode, file, show_smaps_rollup);
}

const struct file_operations proc_pid_smaps_rollup_fops = {
	.open = smaps_rollup_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = proc_pid_release,
};

/* --- /proc/PID/pagemap ----------------------------------------------------- */

#define PM_ENTRY_BYTES sizeof(uint64_t)
#define PAGEMAP_WALK_PAGES PTRS_PER_TABLE /* entries per step: one PMD's */
/* A guard marker's frame as Linux 7.3 on x86-64 reports it: swap type
 * SWP_PTE_MARKER (31) | offset PTE_MARKER_GUARD (4) << MAX_SWAPFILES_SHIFT. */
#define PAGEMAP_GUARD_FRAME (31ul | 4ul << 5)

/* Linux: struct pagemapread; buffer[i] is the entry of start + i pages. */
struct pagemapread {
	uint64_t *buffer;
	unsigned long start;
	bool show_pfn;
};

static uint64_t make_pme(const struct pagemapread *pm, unsigned long pfn, uint64_t flags)
{
	return (pm->show_pfn ? (pfn & PM_PFRAME_MASK) : 0) | flags;
}

/*
 * Linux: the end of pte_to_pagemap_entry and pagemap_pmd_range_thp, and
 * pagemap_pte_hole: every page of a VM_SOFTDIRTY VMA reads soft-dirty,
 * mapped or not. The walk adds the entries' own bits to these.
 */
static void pagemap_vma_soft_dirty(struct pagemapread *pm, const struct mm_struct *mm,
				   unsigned long end)
{
	for (int i = 0; i < mm->nr_vmas; i++) {
		const struct vm_area_struct *vma = &mm->vmas[i];
		unsigned long addr = MAX(vma->vm_start, pm->start);

		if (!(vma->vm_flags & VM_SOFTDIRTY))
			continue;
		for (; addr < MIN(vma->vm_end, end); addr += PAGE_SIZE)
			pm->buffer[(addr - pm->start) >> PAGE_SHIFT] = PM_SOFT_DIRTY;
	}
}

/*
 * Linux: pte_to_pagemap_entry for a present PTE. The zero page is no
 * vm_normal_page: present, nothing else. A folio's page is exclusive
 * when the folio is not maybe mapped shared (Linux's
 * __folio_page_mapped_exclusively without CONFIG_PAGE_MAPCOUNT; with it,
 * as Debian's Linux 7.3, the page's own mapcount of 1: the same answer
 * unless a large folio is mapped by two mms only in part).
 */
static int pagemap_pte_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct pagemapread *pm = walk->private;
	unsigned long pfn = pte_pfn(*ptep);
	uint64_t flags = PM_PRESENT | (pte_soft_dirty(*ptep) ? PM_SOFT_DIRTY : 0);

	if (!is_zero_pfn(pfn)) {
		struct folio *folio = page_folio(pfn_to_page(pfn));

		flags |= folio_test_anon(folio) ? 0 : PM_FILE;
		flags |= folio_maybe_mapped_shared(folio) ? 0 : PM_MMAP_EXCLUSIVE;
	}
	pm->buffer[(addr - pm->start) >> PAGE_SHIFT] |= make_pme(pm, pfn, flags);
	return 0;
}

/*
 * Linux: pagemap_pmd_range_thp, and pagemap_hugetlb_range for a PUD leaf
 * (mask PUD_MASK). Every page of the leaf gets an entry, its own pfn. The
 * huge zero folio is no vm_normal_page_pmd: present, nothing else (as the
 * zero page's PTE); a folio mapped by its one leaf is exclusive.
 */
static void pagemap_leaf(struct pagemapread *pm, pmd_t leaf, unsigned long mask, unsigned long addr,
			 unsigned long next)
{
	struct folio *folio = pmd_folio(leaf);
	uint64_t flags = PM_PRESENT | (pmd_soft_dirty(leaf) ? PM_SOFT_DIRTY : 0);
	unsigned long pfn = pmd_pfn(leaf) + ((addr & ~mask) >> PAGE_SHIFT);

	if (!is_huge_zero_folio(folio)) {
		flags |= folio_test_anon(folio) ? 0 : PM_FILE;
		flags |= folio_maybe_mapped_shared(folio) ? 0 : PM_MMAP_EXCLUSIVE;
	}
	for (; addr < next; addr += PAGE_SIZE, pfn++)
		pm->buffer[(addr - pm->start) >> PAGE_SHIFT] |= make_pme(pm, pfn, flags);
}

static int pagemap_pmd_entry(pmd_t *pmdp, unsigned long addr, unsigned long next,
			     struct mm_walk *walk)
{
	if (!pmd_leaf(*pmdp))
		return 0; /* ACTION_SUBTREE: its PTEs */
	walk->action = ACTION_CONTINUE;
	pagemap_leaf(walk->private, *pmdp, PMD_MASK, addr, next);
	return 0;
}

static int pagemap_pud_entry(pud_t *pudp, unsigned long addr, unsigned long next,
			     struct mm_walk *walk)
{
	pagemap_leaf(walk->private, *pudp, PUD_MASK, addr, next);
	return 0;
}

/* Linux: pte_to_pagemap_entry for a PTE marker, which is a swap-format
 * entry there: PM_SWAP, and PM_GUARD_REGION for a guard marker; its
 * frame field holds the swap type and offset, PAGEMAP_GUARD_FRAME; and
 * PM_SOFT_DIRTY in a VM_SOFTDIRTY VMA, as for every entry. */
static int pagemap_marker_entry(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct pagemapread *pm = walk->private;
	const struct vm_area_struct *vma = find_vma(walk->mm, addr);
	uint64_t flags = PM_SWAP;

	if (is_guard_pte_marker(*ptep))
		flags |= PM_GUARD_REGION;
	if (vma && (vma->vm_flags & VM_SOFTDIRTY))
		flags |= PM_SOFT_DIRTY;
	pm->buffer[(addr - pm->start) >> PAGE_SHIFT] = make_pme(pm, PAGEMAP_GUARD_FRAME, flags);
	return 0;
}

static const struct mm_walk_ops pagemap_ops = {
	.pmd_entry = pagemap_pmd_entry,
	.pte_entry = pagemap_pte_entry,
	.pte_marker_entry = pagemap_marker_entry,
	.pud_entry = pagemap_pud_entry,
};

/*
 * Linux: pagemap_read. *pos / 8 is the first virtual page; offset and
 * count must be multiples of 8. Holes and unmapped pages read 0, or
 * PM_SOFT_DIRTY inside a VM_SOFTDIRTY VMA (no swap). The walk goes one
 * PMD's worth of entries at a time through a kernel buffer.
 */
static long pagemap_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	struct task_struct *task = proc_task_get(file->private_data);
	/* Linux: pagemap_open decides show_pfn by CAP_SYS_ADMIN; Folium's
	 * programs run as root with every capability. */
	struct pagemapread pm = { .show_pfn = true };
	struct mm_struct *mm;
	unsigned long addr = (unsigned long)(*pos / PM_ENTRY_BYTES) << PAGE_SHIFT;
	unsigned long end, next;
	long done = 0;

	if (*pos % PM_ENTRY_BYTES || count % PM_ENTRY_BYTES)
		return -EINVAL;
	/* Linux: nothing once the mm is gone (mmget_not_zero). */
	mm = task ? get_task_mm(task) : NULL;
	if (!mm)
		return 0;
	if (*pos / PM_ENTRY_BYTES >= TASK_SIZE >> PAGE_SHIFT) {
		mmput(mm);
		return 0;
	}
	end = addr + MIN(count / PM_ENTRY_BYTES, (TASK_SIZE - addr) >> PAGE_SHIFT) * PAGE_SIZE;
	pm.buffer = kmalloc(PAGEMAP_WALK_PAGES * PM_ENTRY_BYTES, GFP_KERNEL);
	if (!pm.buffer) {
		mmput(mm);
		return -ENOMEM;
	}
	for (; addr < end; addr = next) {
		size_t len;

		next = MIN(ALIGN_DOWN(addr, PMD_SIZE) + PMD_SIZE, end);
		len = ((next - addr) >> PAGE_SHIFT) * PM_ENTRY_BYTES;
		pm.start = addr;
		memset(pm.buffer, 0, len);
		pagemap_vma_soft_dirty(&pm, mm, next);
		walk_page_range(mm, addr, next, &pagemap_ops, &pm);
		if (copy_to_user(ubuf + (unsigned long)done, pm.buffer, len))
			break;
		done += (long)len;
	}
	kfree(pm.buffer);
	mmput(mm);
	if (!done && addr < end)
		return -EFAULT;
	*pos += (uint64_t)done;
	return done;
}

/* The task is taken at open (clear_refs: the mode bits alone guard it). */
static int proc_task_ref_open(struct ramfs_inode *inode, struct file *file)
{
	int err;

	file->private_data = proc_task_ref_new(inode, &err);
	return file->private_data ? 0 : err;
}

/* Linux: pagemap_open (proc_mem_open): also the reader must be allowed
 * into the task's memory. */
static int pagemap_open(struct ramfs_inode *inode, struct file *file)
{
	int err = proc_mem_open_check(inode);

	return err ? err : proc_task_ref_open(inode, file);
}

static void proc_task_ref_release(struct ramfs_inode *inode, struct file *file)
{
	(void)inode;
	kfree(file->private_data);
}

const struct file_operations proc_pagemap_fops = {
	.open = pagemap_open,
	.read = pagemap_read,
	.llseek = no_seek_end_llseek, /* Linux: mem_lseek */
	.release = proc_task_ref_release,
};

/* --- /proc/PID/clear_refs ---------------------------------------------------- */

/*
 * Linux: clear_refs_write. At most CLEAR_REFS_MAX_WRITE bytes are read,
 * and that many is what a longer write returns; a bad value is -EINVAL
 * (-ERANGE past int) before the task is looked at.
 */
static long clear_refs_write(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	struct task_struct *task = proc_task_get(file->private_data);
	char buf[CLEAR_REFS_MAX_WRITE];
	struct mm_struct *mm;
	enum clear_refs_types type;
	int err;

	(void)pos;
	count = MIN(count, sizeof(buf));
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	err = clear_refs_parse(buf, count, &type);
	if (err)
		return err;
	if (!task)
		return -ESRCH;
	mm = get_task_mm(task);
	if (mm) {
		clear_refs(mm, type);
		mmput(mm);
	}
	return (long)count;
}

/* Linux: noop_llseek, the file position stays. */
static int64_t noop_llseek(struct file *file, int64_t offset, int whence)
{
	(void)offset;
	(void)whence;
	return (int64_t)file->f_pos;
}

const struct file_operations proc_clear_refs_fops = {
	.open = proc_task_ref_open,
	.write = clear_refs_write,
	.llseek = noop_llseek,
	.release = proc_task_ref_release,
};
