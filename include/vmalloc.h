/*
 * Kernel virtual areas (Linux: include/linux/vmalloc.h): memory that is
 * contiguous in the vmalloc range [VMALLOC_START, VMALLOC_END) of
 * <asm/page.h> but made of order-0 pages from anywhere, each area followed
 * by an unmapped guard page. Kernel stacks are such areas with a guard
 * below too (VM_GUARD_BELOW), so an overflow faults instead of corrupting
 * a neighbour. Example: vmalloc(10000) maps 3 pages at VMALLOC_START and
 * leaves VMALLOC_START + 12 KiB unmapped.
 */
#ifndef FOLIUM_VMALLOC_H
#define FOLIUM_VMALLOC_H

#include <mm.h>

/* vm_struct.flags (Linux's values where Linux has the flag). */
#define VM_ALLOC 0x00000002 /* vmalloc's: the area owns its pages */
/* Folium's: one more guard page, below the area (a kernel stack, which
 * grows down). Linux has no flag: there every area's guard is after it,
 * so the page below an area is either free or the guard of the area
 * below, and VMAP_STACK relies on that. Folium makes the page below a
 * stack the stack's own, whatever lies under it. */
#define VM_GUARD_BELOW 0x00010000

/*
 * Linux: struct vm_struct together with its struct vmap_area (Linux keeps
 * two objects, the second in the allocator's trees). The span
 * [va_start, va_end) holds the guard pages; addr and size are the mapped
 * part (Linux's vm_struct.size counts the trailing guard page,
 * get_vm_area_size() subtracts it).
 *   va_start   [guard, VM_GUARD_BELOW only]
 *   addr       size bytes of pages
 *   addr+size  [guard]
 *   va_end
 */
struct vm_struct {
	struct list_head list; /* in vmap_area_list, by address */
	unsigned long va_start, va_end;
	void *addr;
	unsigned long size;
	unsigned long flags;   /* VM_* */
	struct page **pages;   /* nr_pages order-0 pages in address order (VM_ALLOC) */
	unsigned int nr_pages; /* pages allocated so far */
	int nid;	       /* node of the pages and of this descriptor */
};

/* --- mm/vmalloc.c ------------------------------------------------------------ */
/* Linux: is_vmalloc_addr. Return: whether @addr is in the vmalloc range. */
bool is_vmalloc_addr(const void *addr);

/**
 * __get_vm_area_node - reserve a kernel virtual area in [start, end).
 * @size: bytes, rounded up to whole pages; guards are added to the span.
 * @flags: VM_* (VM_GUARD_BELOW puts a second guard page below).
 * The lowest gap that fits is taken (first fit, Linux's policy too). No
 * page is mapped. The descriptor comes from kmalloc on node @nid.
 * Return: the area, or NULL when no gap fits or without memory.
 */
struct vm_struct *__get_vm_area_node(unsigned long size, unsigned long flags, unsigned long start,
				     unsigned long end, int nid);
/* Linux (before 6.x): __get_vm_area, the same on node 0. */
struct vm_struct *__get_vm_area(unsigned long size, unsigned long flags, unsigned long start,
				unsigned long end);
/* Linux: find_vm_area. Return: the area whose mapped part starts at
 * @addr, or NULL. */
struct vm_struct *find_vm_area(const void *addr);
/**
 * remove_vm_area - take the area starting at @addr out of the range.
 * Its entries are emptied and the TLB flushed (vunmap_range); its pages
 * and descriptor are the caller's to free.
 * Return: the area, or NULL (reported) if @addr is not page-aligned.
 */
struct vm_struct *remove_vm_area(const void *addr);
/* Linux: free_vm_area. remove_vm_area, then free the descriptor. For an
 * area __get_vm_area_node made (whose pages are not its own). */
void free_vm_area(struct vm_struct *area);

/* Map @pages, one per page of [addr, end), read/write (Linux:
 * vmap_pages_range with PAGE_KERNEL). Return: 0 or -ENOMEM (part of
 * the range may be mapped: the caller unmaps it). */
int vmap_pages_range(unsigned long addr, unsigned long end, struct page **pages);
/* Empty the entries of [addr, end) and flush the TLB for the range (Linux:
 * vunmap_range; Linux flushes lazily, in batches, Folium at once). */
void vunmap_range(unsigned long addr, unsigned long end);

/**
 * __vmalloc_node_range - allocate @size bytes of virtually contiguous
 * memory in [start, end): an area (__get_vm_area_node), order-0 pages of
 * node @nid allocated one at a time with @gfp (__GFP_ZERO to clear
 * them), mapped with vmap_pages_range.
 * Return: the address, or NULL with nothing held (a line says why unless
 * @gfp has __GFP_NOWARN). Context: may reclaim if @gfp allows.
 */
void *__vmalloc_node_range(unsigned long size, unsigned long start, unsigned long end, gfp_t gfp,
			   unsigned long vm_flags, int nid);
/* The same over the whole range (Linux: __vmalloc_node, without align). */
void *__vmalloc_node(unsigned long size, gfp_t gfp, int nid);
void *vmalloc_node(unsigned long size, int nid);
void *vzalloc_node(unsigned long size, int nid); /* zeroed */
void *vmalloc(unsigned long size);		 /* node 0 */
void *vzalloc(unsigned long size);
/**
 * vfree - free what vmalloc returned: unmap, flush, free every page.
 * NULL is ignored. Anything else that is not the start of an area is
 * reported (Linux's "Trying to vfree() ..." lines) and changes nothing.
 */
void vfree(const void *addr);
/* Linux: vfree_atomic. vfree later, from a context that may wait for the
 * other CPUs (vfree_drain_deferred: the next vfree with interrupts on,
 * or the idle loop). vfree itself defers when interrupts are off and
 * other CPUs are online. */
void vfree_atomic(const void *addr);
void vfree_drain_deferred(void);
/* Linux: vmalloc_to_page. Return: the page mapped at @addr (any byte of
 * a vmalloc'ed area), or NULL (a guard, a bare area, not in an area). */
struct page *vmalloc_to_page(const void *addr);
/* Linux: vmalloc_nr_pages (meminfo's VmallocUsed). Pages vmalloc holds,
 * all nodes. */
unsigned long vmalloc_nr_pages(void);

#endif
