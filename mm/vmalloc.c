/*
 * Kernel virtual areas (Linux: mm/vmalloc.c). [VMALLOC_START, VMALLOC_END)
 * is cut into areas whose span holds their pages and an unmapped guard
 * page after them (a kernel stack also one below, VM_GUARD_BELOW), so the
 * pages of two areas never touch. Busy areas sit in vmap_area_list sorted
 * by address, and a new one takes the lowest gap that fits (first fit).
 * Linux finds the same lowest gap in O(log n) with an rb-tree of free
 * space augmented by each subtree's largest gap (free_vmap_area_root,
 * subtree_max_size) and keeps busy areas in rb-trees too; a list is O(n)
 * and plenty for Folium's few areas.
 * Example: on an empty range vmalloc(8192) spans [S, S+12K): pages at S
 * and S+4K, guard at S+8K; a kernel stack (16K, VM_GUARD_BELOW) next spans
 * [S+12K, S+36K): guard, stack S+16K..S+32K, guard. vfree(S) leaves a 12K
 * gap that the next 8K area takes again.
 * The arch maps each page in kernel tables every mm shares
 * (arch_map_kernel_page). One CPU, no allocation from interrupts: no lock.
 */
#include <arch.h>
#include <slab.h>
#include <vm.h>
#include <llist.h>
#include <smp.h>
#include <vmalloc.h>

static struct list_head vmap_area_list = LIST_HEAD_INIT(vmap_area_list);
static unsigned long nr_vmalloc_pages;

bool is_vmalloc_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= VMALLOC_START && a < VMALLOC_END;
}

static unsigned long guard_below(unsigned long flags)
{
	return flags & VM_GUARD_BELOW ? PAGE_SIZE : 0;
}

/*
 * The lowest gap of [start, end) that holds @span bytes (Linux:
 * __alloc_vmap_area over the free tree). *after gets the list node the
 * new area goes after, to keep the list sorted.
 * Return: the gap's first address, or 0 if none fits.
 */
static unsigned long find_gap(unsigned long span, unsigned long start, unsigned long end,
			      struct list_head **after)
{
	unsigned long addr = start;
	struct vm_struct *va;

	*after = &vmap_area_list;
	list_for_each_entry(va, &vmap_area_list, list) {
		if (va->va_start >= addr && va->va_start - addr >= span)
			break; /* fits below va; any later gap is higher */
		if (va->va_end > addr)
			addr = va->va_end;
		*after = &va->list;
	}
	return addr < end && end - addr >= span ? addr : 0;
}

struct vm_struct *__get_vm_area_node(unsigned long size, unsigned long flags, unsigned long start,
				     unsigned long end, int nid)
{
	struct list_head *after;
	struct vm_struct *area;
	unsigned long span, addr;

	size = ALIGN_UP(size, PAGE_SIZE);
	if (!size || end <= start || size > end - start)
		return NULL;
	span = guard_below(flags) + size + PAGE_SIZE;
	addr = find_gap(span, start, end, &after);
	if (!addr)
		return NULL;
	area = kmalloc_node(sizeof(*area), GFP_KERNEL | __GFP_ZERO, nid);
	if (!area)
		return NULL;
	area->va_start = addr;
	area->va_end = addr + span;
	area->addr = (void *)(addr + guard_below(flags));
	area->size = size;
	area->flags = flags;
	area->nid = nid;
	list_add(&area->list, after);
	return area;
}

struct vm_struct *__get_vm_area(unsigned long size, unsigned long flags, unsigned long start,
				unsigned long end)
{
	return __get_vm_area_node(size, flags, start, end, 0);
}

/* Linux: find_vmap_area. Return: the area whose span (guards included)
 * holds @addr, or NULL. */
static struct vm_struct *find_vmap_area(unsigned long addr)
{
	struct vm_struct *va;

	list_for_each_entry(va, &vmap_area_list, list) {
		if (addr < va->va_start)
			break;
		if (addr < va->va_end)
			return va;
	}
	return NULL;
}

/* Folium asks for the start itself: Linux's lookup takes any address of
 * the span, so a vfree of a page-aligned pointer into an area frees it. */
struct vm_struct *find_vm_area(const void *addr)
{
	struct vm_struct *va = find_vmap_area((unsigned long)addr);

	return va && va->addr == addr ? va : NULL;
}

int vmap_pages_range(unsigned long addr, unsigned long end, struct page **pages)
{
	for (unsigned long i = 0; addr < end; addr += PAGE_SIZE, i++)
		if (arch_map_kernel_page(addr, page_to_pfn(pages[i])))
			return -ENOMEM;
	return 0;
}

void vunmap_range(unsigned long addr, unsigned long end)
{
	for (unsigned long a = addr; a < end; a += PAGE_SIZE)
		arch_unmap_kernel_page(a);
	flush_tlb_kernel_range(addr, end);
}

struct vm_struct *remove_vm_area(const void *addr)
{
	struct vm_struct *area;

	if ((unsigned long)addr & (PAGE_SIZE - 1)) {
		pr_warn("Trying to vfree() bad address (0x%lx)\n", (unsigned long)addr);
		return NULL;
	}
	area = find_vm_area(addr);
	if (!area)
		return NULL;
	list_del(&area->list);
	vunmap_range((unsigned long)area->addr, (unsigned long)area->addr + area->size);
	return area;
}

void free_vm_area(struct vm_struct *area)
{
	struct vm_struct *removed = remove_vm_area(area->addr);

	BUG_ON(removed != area);
	kfree(area);
}

/* Give back the pages, their array and the descriptor of a removed area. */
static void vm_area_free(struct vm_struct *area)
{
	for (unsigned int i = 0; i < area->nr_pages; i++)
		__free_pages(area->pages[i], 0);
	nr_vmalloc_pages -= area->nr_pages;
	kfree(area->pages);
	kfree(area);
}

/* Linux: vfree_atomic's deferred list (vmap_purge's llist): areas freed
 * where the other CPUs' TLBs could not be flushed and waited for. Each
 * area is still mapped, so its first bytes hold the list node. */
static struct llist_head vfree_deferred;

void vfree_atomic(const void *addr)
{
	if (addr)
		llist_add((struct llist_node *)addr, &vfree_deferred);
}

void vfree_drain_deferred(void)
{
	struct llist_node *n;

	if (llist_empty(&vfree_deferred) || arch_irqs_disabled())
		return;
	n = llist_del_all(&vfree_deferred);
	while (n) {
		struct llist_node *next = n->next;

		vfree(n);
		n = next;
	}
}

void vfree(const void *addr)
{
	struct vm_struct *area;

	if (!addr)
		return;
	/* Linux: vfree in atomic context defers. Unmapping flushes every
	 * CPU's TLB and waits for the IPIs, which needs interrupts on here;
	 * with one CPU online there is nobody to wait for. */
	if (arch_irqs_disabled() && num_online_cpus() > 1) {
		vfree_atomic(addr);
		return;
	}
	vfree_drain_deferred();
	area = remove_vm_area(addr);
	if (!area) {
		pr_warn("Trying to vfree() nonexistent vm area (0x%lx)\n", (unsigned long)addr);
		return;
	}
	vm_area_free(area);
}

/*
 * Linux: __vmalloc_area_node. Allocate the area's pages one by one (order
 * 0; Linux takes them from the bulk allocator, in batches, order 0 too
 * unless the area may use huge pages) and map them.
 * Return: NULL if done, else what failed (the caller undoes the rest).
 */
static const char *vmalloc_area_populate(struct vm_struct *area, gfp_t gfp)
{
	unsigned int nr = area->size >> PAGE_SHIFT;
	unsigned long start = (unsigned long)area->addr;

	area->pages = kmalloc_node(nr * sizeof(*area->pages), GFP_KERNEL, area->nid);
	if (!area->pages)
		return "page array allocation failed";
	for (; area->nr_pages < nr; area->nr_pages++) {
		area->pages[area->nr_pages] = alloc_pages_node(area->nid, gfp, 0);
		if (!area->pages[area->nr_pages])
			return "failed to allocate pages";
		nr_vmalloc_pages++;
	}
	if (vmap_pages_range(start, start + area->size, area->pages))
		return "failed to map pages";
	return NULL;
}

void *__vmalloc_node_range(unsigned long size, unsigned long start, unsigned long end, gfp_t gfp,
			   unsigned long vm_flags, int nid)
{
	struct vm_struct *area = __get_vm_area_node(size, vm_flags | VM_ALLOC, start, end, nid);
	const char *failed = "vm_struct allocation failed";

	if (area) {
		failed = vmalloc_area_populate(area, gfp);
		if (!failed)
			return area->addr;
		vm_area_free(remove_vm_area(area->addr));
	}
	if (!(gfp & __GFP_NOWARN))
		pr_warn("vmalloc error: size %lu, %s, mode:0x%x\n", size, failed, gfp);
	return NULL;
}

void *__vmalloc_node(unsigned long size, gfp_t gfp, int nid)
{
	return __vmalloc_node_range(size, VMALLOC_START, VMALLOC_END, gfp, 0, nid);
}

void *vmalloc_node(unsigned long size, int nid)
{
	return __vmalloc_node(size, GFP_KERNEL, nid);
}

void *vzalloc_node(unsigned long size, int nid)
{
	return __vmalloc_node(size, GFP_KERNEL | __GFP_ZERO, nid);
}

void *vmalloc(unsigned long size)
{
	return vmalloc_node(size, 0);
}

void *vzalloc(unsigned long size)
{
	return vzalloc_node(size, 0);
}

/* Linux walks the kernel page tables (it serves vmap() of foreign pages
 * and ioremap too); every Folium area with pages is vmalloc's and
 * remembers them, so the area's array answers. */
struct page *vmalloc_to_page(const void *addr)
{
	struct vm_struct *area = find_vmap_area((unsigned long)addr);
	unsigned long offset;

	if (!area || (char *)addr < (char *)area->addr)
		return NULL;
	offset = (unsigned long)((char *)addr - (char *)area->addr);
	if (offset >= area->size || !(area->flags & VM_ALLOC))
		return NULL;
	return area->pages[offset >> PAGE_SHIFT];
}

unsigned long vmalloc_nr_pages(void)
{
	return nr_vmalloc_pages;
}
