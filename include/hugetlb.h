/*
 * HugeTLB (Linux: include/linux/hugetlb.h): pools of huge pages per size
 * (struct hstate), reserved at mmap time and mapped by one PMD (2 MiB) or
 * one PUD (1 GiB, where the CPU has PDPE1GB) each.
 * Implemented in mm/hugetlb.c; the sysfs files are made by fs/sysfs.c.
 */
#ifndef FOLIUM_HUGETLB_H
#define FOLIUM_HUGETLB_H

#include <vm.h>

struct seq_file;
struct kobj_attribute;
struct memblock;

/* Linux: HUGE_MAX_HSTATE. hstates[0] is the PMD size (2 MiB), hstates[1]
 * the PUD size (1 GiB), registered only if arch_has_gbpages(). */
#define HUGE_MAX_HSTATE 2

/*
 * One pool (Linux: struct hstate). nr_huge_pages counts every huge page
 * that exists (free or mapped), surplus_huge_pages those of them above
 * the persistent size (max_huge_pages), allocated on demand within
 * nr_overcommit_huge_pages and freed when they come back. resv_huge_pages
 * is what mmap promised and faults have not taken yet; invariant:
 * resv_huge_pages <= free_huge_pages.
 */
struct hstate {
	unsigned int order;
	int nid; /* node the pages come from (node 0; a test's private node) */
	unsigned long max_huge_pages;
	unsigned long nr_huge_pages;
	unsigned long free_huge_pages;
	unsigned long resv_huge_pages;
	unsigned long surplus_huge_pages;
	unsigned long nr_overcommit_huge_pages;
	struct list_head hugepage_freelist;
};

extern struct hstate hstates[HUGE_MAX_HSTATE];
extern unsigned int hugetlb_max_hstate;
extern unsigned int default_hstate_idx;
/* Linux: hugetlb_total_pages, the base pages every pool holds (CommitLimit
 * leaves them out). */
unsigned long hugetlb_total_pages(void);
#define default_hstate (hstates[default_hstate_idx])

static inline unsigned long huge_page_size(const struct hstate *h)
{
	return PAGE_SIZE << h->order;
}
static inline unsigned long pages_per_huge_page(const struct hstate *h)
{
	return 1ul << h->order;
}
static inline unsigned long persistent_huge_pages(const struct hstate *h)
{
	return h->nr_huge_pages - h->surplus_huge_pages;
}
/* Linux: hstate_is_gigantic. Above the buddy allocator's largest block:
 * its pages come from alloc_contig_pages (or memblock at boot). */
static inline bool hstate_is_gigantic(const struct hstate *h)
{
	return h->order > MAX_PAGE_ORDER;
}

/* Linux: is_vm_hugetlb_page. */
static inline bool is_vm_hugetlb_page(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_HUGETLB;
}
/* The pool a VM_HUGETLB VMA's flags name (VM_HSTATE; Linux: hstate_file
 * of the VMA's hugetlbfs file), and that of a VMA (Linux: hstate_vma). */
static inline struct hstate *hstate_vm_flags(unsigned long vm_flags)
{
	return &hstates[(vm_flags & VM_HSTATE_MASK) >> VM_HSTATE_SHIFT];
}
static inline struct hstate *hstate_vma(const struct vm_area_struct *vma)
{
	return hstate_vm_flags(vma->vm_flags);
}
/* Return: the hstate of a huge page size in bytes, or NULL (Linux: size_to_hstate). */
struct hstate *size_to_hstate(unsigned long size);

/* Reset h to an empty pool of order on node nid (boot, tests). */
void hstate_init(struct hstate *h, unsigned int order, int nid);
/* Grow or shrink the persistent pool to count pages; in-use pages above
 * count become surplus (Linux: set_max_huge_pages). Return: 0. */
int set_max_huge_pages(struct hstate *h, unsigned long count);
/* /proc/sys/vm/nr_hugepages's write for the default size (Linux:
 * hugetlb_sysctl_handler_common → __nr_hugepages_store_common). */
int hugetlb_set_nr_hugepages(struct hstate *h, unsigned long count);

/* A free pool page leaves / returns (refcount 1 while in the pool). The
 * last folio_put of a hugetlb folio calls free_huge_folio (Linux: __folio_put). */
void free_huge_folio(struct folio *folio);

/* mmap: reserve the huge pages of [start, end) unless VM_NORESERVE
 * (Linux: hugetlb_reserve_pages). Return: 0, or -ENOMEM when the pool
 * (with overcommit) cannot cover them. */
int hugetlb_reserve_pages(struct mm_struct *mm, unsigned long start, unsigned long end,
			  unsigned long vm_flags);
/* munmap of [start, end): give back the reservations faults did not take
 * (Linux: hugetlb_vm_op_close). */
void hugetlb_unreserve_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Linux: hugetlb_fault. */
enum vm_fault_reason hugetlb_fault(struct mm_struct *mm, struct vm_area_struct *vma,
				   unsigned long addr, unsigned int flags);
/* Is [start, end) huge-page aligned where it cuts hugetlb VMAs? (Linux:
 * hugetlb_vm_op_split's -EINVAL). */
bool hugetlb_range_aligned(struct mm_struct *mm, unsigned long start, unsigned long end);

/* Linux: hugetlb_add_hstate. Register the pool of order on node 0 (the
 * boot's sizes, in hstates[] order). */
void hugetlb_add_hstate(unsigned int order);
/* Boot, before the buddy allocator: the 1 GiB pages hugepagesz=1G
 * hugepages=N asks for, taken from memblock (Linux:
 * hugetlb_hstate_alloc_pages → alloc_bootmem_huge_page). hugetlb_init
 * turns them into pool pages. */
void hugetlb_bootmem_alloc(struct memblock *mb);
/* Boot: the pools from hugepagesz=, hugepages=, default_hugepagesz=. */
void hugetlb_init(void);
/* The parse of those keys over cl (boot's, or a test's). Problems are
 * printed as Linux's "HugeTLB: ..." warnings and the key is ignored.
 * counts[i]: hugepages= for hstates[i]; *default_idx: the default size. */
void hugetlb_parse_cmdline(const struct cmdline *cl, unsigned long counts[HUGE_MAX_HSTATE],
			   unsigned int *default_idx);

/* /proc/meminfo's HugePages_* ... Hugetlb: lines (Linux: hugetlb_report_meminfo). */
void hugetlb_report_meminfo(struct seq_file *m);
/* sysfs: hugepages-<N>kB/<name>, priv = the hstate (Linux: hstate_attrs). */
extern const struct kobj_attribute hugetlb_nr_hugepages_attr, hugetlb_free_hugepages_attr,
	hugetlb_resv_hugepages_attr, hugetlb_surplus_hugepages_attr,
	hugetlb_nr_overcommit_hugepages_attr;

#endif
