/*
 * The contiguous memory allocator: an area of whole pageblocks typed
 * MIGRATE_CMA, which movable allocations borrow until cma_alloc() needs
 * a range back; then the range's pageblocks are isolated, the borrowed
 * folios migrated out and the freed pages taken (Linux: mm/cma.c and
 * alloc_contig_range). A bitmap, one bit per page, records what cma_alloc
 * handed out. Example, pageblock_order 9: cma=6M is rounded up to 8 MiB
 * (four 2 MiB pageblocks) and placed at a 2 MiB-aligned base.
 */
#include <bitmap.h>
#include "internal.h"

struct cma cma_areas[MAX_CMA_AREAS];
unsigned int cma_area_count;
struct cma *boot_cma;

/* --- placement: pure math over a memblock, pageblock order a parameter --- */

phys_addr_t cma_align_size(phys_addr_t size, unsigned int pb_order)
{
	return ALIGN_UP(size, cma_alignment(pb_order));
}

/*
 * A pageblock belongs to one zone, so an area must not straddle the
 * ZONE_DMA32/ZONE_NORMAL boundary at 4 GiB: try above it first (Linux's
 * memblock allocates top-down and CMA prefers high memory), then below.
 * The search starts at one alignment unit so base 0 can mean "none".
 */
phys_addr_t cma_reserve_area(struct memblock *mb, phys_addr_t size, unsigned int pb_order)
{
	phys_addr_t align = cma_alignment(pb_order);
	phys_addr_t end = memblock_end_of_DRAM(mb);
	phys_addr_t zone_edge = 4 * GIB, base = 0;

	size = cma_align_size(size, pb_order);
	if (!size)
		return 0;
	if (end > zone_edge)
		base = memblock_phys_alloc_range(mb, size, align, zone_edge, end);
	if (!base)
		base = memblock_phys_alloc_range(mb, size, align, align, MIN(end, zone_edge));
	return base;
}

static phys_addr_t largest_free_range(struct memblock *mb)
{
	phys_addr_t start, end, largest = 0;
	unsigned long idx = 0;

	while (memblock_next_free_range(mb, &idx, &start, &end))
		largest = MAX(largest, end - start);
	return largest;
}

/* Boot, `cma=SIZE`: reserve the area now, activate it once the buddy
 * allocator runs (cma_activate_boot_area). */
int cma_declare_contiguous(struct memblock *mb, phys_addr_t size, const char *name)
{
	phys_addr_t aligned = cma_align_size(size, pageblock_order), base;
	char want[24], align[24], largest[24];
	struct cma *cma;

	kformat_size(want, sizeof(want), aligned);
	kformat_size(align, sizeof(align), CMA_MIN_ALIGNMENT_BYTES);
	if (cma_area_count == MAX_CMA_AREAS || !size) {
		pr_err("cma: cannot reserve %s: %s\n", want,
		       size ? "all CMA areas are in use" : "size is 0");
		return -1;
	}
	base = cma_reserve_area(mb, aligned, pageblock_order);
	if (!base) {
		kformat_size(largest, sizeof(largest), largest_free_range(mb));
		pr_err("cma: cannot reserve %s aligned to %s: largest free range is %s\n", want,
		       align, largest);
		return -1;
	}
	cma = &cma_areas[cma_area_count++];
	ksnprintf(cma->name, sizeof(cma->name), "%s", name);
	cma->base_pfn = PHYS_PFN(base);
	cma->count = aligned / PAGE_SIZE;
	pr_info("cma: reserved %s at %#llx for %s (pageblocks of %s)\n", want,
		(unsigned long long)base, cma->name, align);
	return 0;
}

/* --- activation --------------------------------------------------------- */

/*
 * Type the area's pageblocks MIGRATE_CMA. Pages already in the buddy
 * allocator (a test's private node) move to the CMA free lists; reserved
 * pages (the boot area) are freed by the caller afterwards.
 */
int cma_init_area(struct cma *cma, unsigned long base_pfn, unsigned long count,
		  unsigned long *bitmap, const char *name)
{
	struct zone *zone = page_zone(pfn_to_page(base_pfn));

	if (!count || (base_pfn | count) & (CMA_MIN_ALIGNMENT_PAGES - 1) ||
	    !zone_spans_pfn(zone, base_pfn) || !zone_spans_pfn(zone, base_pfn + count - 1))
		return -EINVAL;
	if (cma->name != name)
		ksnprintf(cma->name, sizeof(cma->name), "%s", name);
	cma->base_pfn = base_pfn;
	cma->count = count;
	cma->bitmap = bitmap;
	cma->nr_allocated = 0;
	memset(bitmap, 0, CMA_BITMAP_LONGS(count) * sizeof(unsigned long));
	for (unsigned long pfn = base_pfn; pfn < base_pfn + count; pfn += pageblock_nr_pages) {
		struct page *page = pfn_to_page(pfn);

		split_large_buddy(zone, pfn);
		set_pageblock_migratetype(page, MIGRATE_CMA);
		if (get_pageblock_isolate(page))
			continue;
		move_freepages_block(zone, page, MIGRATE_CMA);
		merge_free_pageblock(zone, pfn, MIGRATE_CMA);
	}
	zone->cma_pages += count;
	return 0;
}

/* Return: the smallest order whose block holds bytes. */
static unsigned int bytes_order(size_t bytes)
{
	unsigned int order = 0;

	while ((PAGE_SIZE << order) < bytes)
		order++;
	return order;
}

/* Return: true if the area lies in one zone of a node (its struct pages
 * were initialised by pgdat_init). */
static bool cma_area_in_one_zone(const struct cma *cma)
{
	unsigned long last = cma->base_pfn + cma->count - 1;
	struct zone *zone;

	if (!pfn_valid(cma->base_pfn) || !pfn_valid(last))
		return false;
	zone = page_zone(pfn_to_page(cma->base_pfn));
	return zone_spans_pfn(zone, cma->base_pfn) && zone_spans_pfn(zone, last);
}

/*
 * The bitmap comes from the buddy allocator, as Linux's bitmap_zalloc at
 * activation; without one the area's memory becomes ordinary memory. An
 * area outside node 0's zones stays reserved (never seen in practice:
 * placement keeps it in one zone).
 */
static int cma_activate_area(struct cma *cma)
{
	size_t bytes = CMA_BITMAP_LONGS(cma->count) * sizeof(unsigned long);
	unsigned long end_pfn = cma->base_pfn + cma->count;
	struct page *page;

	if (!cma_area_in_one_zone(cma)) {
		pr_err("cma: %s at pfn %#lx is not inside one zone; left reserved\n", cma->name,
		       cma->base_pfn);
		return -1;
	}
	page = alloc_pages(GFP_KERNEL, bytes_order(bytes));
	if (!page) {
		pr_err("cma: no memory for the bitmap of %s; its memory is not CMA\n", cma->name);
		free_pfn_range_to_buddy(cma->base_pfn, end_pfn);
		return -1;
	}
	cma_init_area(cma, cma->base_pfn, cma->count, page_address(page), cma->name);
	free_pfn_range_to_buddy(cma->base_pfn, end_pfn);
	return 0;
}

void cma_activate_boot_area(void)
{
	for (unsigned int i = 0; i < cma_area_count; i++)
		if (!cma_activate_area(&cma_areas[i]) && !boot_cma)
			boot_cma = &cma_areas[i];
}

/* --- the bitmap ---------------------------------------------------------- */

/*
 * Return: the first bit >= start opening nr clear bits whose pfn is a
 * multiple of mask + 1 (alignment is physical, as Linux's
 * cma_bitmap_aligned_offset), or cma->count if none.
 */
static unsigned long cma_find_free_range(const struct cma *cma, unsigned long start,
					 unsigned long nr, unsigned long mask)
{
	unsigned long bit = ALIGN_UP(cma->base_pfn + start, mask + 1) - cma->base_pfn;

	while (bit + nr <= cma->count) {
		unsigned long i = 0;

		while (i < nr && !test_bit(bit + i, cma->bitmap))
			i++;
		if (i == nr)
			return bit;
		/* Restart after the set bit, at the next aligned pfn. */
		bit = ALIGN_UP(cma->base_pfn + bit + i + 1, mask + 1) - cma->base_pfn;
	}
	return cma->count;
}

/* --- allocation ------------------------------------------------------------ */

/* The pages of a cleared range are the caller's: order-0, refcount 1,
 * marked PG_cma so migration leaves them alone. */
static struct page *cma_alloc_done(struct cma *cma, unsigned long pfn, unsigned long nr_pages)
{
	struct page *page = pfn_to_page(pfn);

	for (unsigned long i = 0; i < nr_pages; i++)
		SetPageFlag(page + i, PG_cma);
	cma->nr_allocated += nr_pages;
	count_vm_event(NODE_DATA(page_to_nid(page)), CMA_ALLOC_SUCCESS);
	return page;
}

/*
 * Try each free, aligned candidate range in turn; a range that cannot be
 * cleared (-EBUSY) moves the search one alignment step on, as Linux.
 */
struct page *cma_alloc(struct cma *cma, unsigned long nr_pages, unsigned int align_order)
{
	unsigned long mask, bit, start = 0;
	struct pglist_data *pgdat;
	int err = -ENOMEM;

	if (!cma || !cma->bitmap)
		return NULL;
	pgdat = NODE_DATA(page_to_nid(pfn_to_page(cma->base_pfn)));
	if (!nr_pages || nr_pages > cma->count || align_order >= BITS_PER_LONG / 2)
		goto fail;
	mask = (1ul << align_order) - 1;
	for (;;) {
		unsigned long pfn;

		bit = cma_find_free_range(cma, start, nr_pages, mask);
		if (bit >= cma->count)
			break;
		pfn = cma->base_pfn + bit;
		bitmap_set(cma->bitmap, bit, nr_pages);
		err = alloc_contig_range(pfn, pfn + nr_pages, 0);
		if (!err)
			return cma_alloc_done(cma, pfn, nr_pages);
		bitmap_clear(cma->bitmap, bit, nr_pages);
		if (err != -EBUSY)
			break;
		start = bit + mask + 1;
	}
fail:
	count_vm_event(pgdat, CMA_ALLOC_FAIL);
	return NULL;
}

/* Free the pages one by one (each holds its own reference, as after
 * cma_alloc) and clear their bits (Linux: free_contig_range). */
bool cma_release(struct cma *cma, struct page *pages, unsigned long nr_pages)
{
	unsigned long pfn, bit;

	if (!cma || !pages || !nr_pages || !cma->bitmap)
		return false;
	pfn = page_to_pfn(pages);
	if (pfn < cma->base_pfn || nr_pages > cma->count ||
	    pfn - cma->base_pfn > cma->count - nr_pages)
		return false;
	bit = pfn - cma->base_pfn;
	for (unsigned long i = 0; i < nr_pages; i++)
		if (!test_bit(bit + i, cma->bitmap))
			return false;
	for (unsigned long i = 0; i < nr_pages; i++) {
		ClearPageFlag(pages + i, PG_cma);
		__free_pages(pages + i, 0);
	}
	bitmap_clear(cma->bitmap, bit, nr_pages);
	cma->nr_allocated -= nr_pages;
	return true;
}

/* Return: free pages inside the area (on buddy or per-CPU lists). */
unsigned long cma_free_pages(const struct cma *cma)
{
	unsigned long pfn = cma->base_pfn, end = cma->base_pfn + cma->count;
	unsigned long nr_free = 0;

	while (pfn < end) {
		unsigned long span = pfn_free_span(pfn);

		nr_free += MIN(span, end - pfn);
		pfn += span ? span : 1;
	}
	return nr_free;
}
