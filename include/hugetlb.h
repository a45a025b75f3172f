/*
 * HugeTLB (Linux: include/linux/hugetlb.h): pools of huge pages per size
 * (struct hstate), reserved at mmap time and mapped by one PMD each.
 * Implemented in mm/hugetlb.c; the sysfs files are made by fs/sysfs.c.
 */
#ifndef FOLIUM_HUGETLB_H
#define FOLIUM_HUGETLB_H

#include <vm.h>

struct seq_file;
struct kobj_attribute;

/* Linux: HUGE_MAX_HSTATE. Folium serves the PMD size only (2 MiB). */
#define HUGE_MAX_HSTATE 1

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

/* Linux: is_vm_hugetlb_page. */
static inline bool is_vm_hugetlb_page(const struct vm_area_struct *vma)
{
	return vma->vm_flags & VM_HUGETLB;
}
/* The pool of a hugetlb VMA (Linux: hstate_vma; one size here). */
struct hstate *hstate_vma(const struct vm_area_struct *vma);
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
