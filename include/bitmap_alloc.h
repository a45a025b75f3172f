/*
 * A bitmap page allocator of the kind many hobby kernels use, kept as the
 * baseline the buddy allocator is measured against (bench/page_alloc.c).
 * One bit per page, 1 = in use; allocation is a first-fit scan from the
 * start for 2^order clear bits at a multiple of 2^order, so a request costs
 * O(pages) in the worst case where the buddy allocator's costs O(orders).
 */
#ifndef FOLIUM_BITMAP_ALLOC_H
#define FOLIUM_BITMAP_ALLOC_H

#include <stdbool.h>
#include <stddef.h>

#define BITMAP_ALLOC_FAIL (~0ul)
#define BITMAP_ALLOC_LONGS(nr_pages) (((nr_pages) + 63) / 64)

struct bitmap_alloc {
	unsigned long base_pfn;
	unsigned long nr_pages;
	unsigned long *bitmap; /* BITMAP_ALLOC_LONGS(nr_pages) longs */
};

/* Every page of [base_pfn, base_pfn + nr_pages) starts free. */
void bitmap_alloc_init(struct bitmap_alloc *ba, unsigned long base_pfn, unsigned long nr_pages,
		       unsigned long *bitmap);
/* Return: the first pfn of 2^order free pages, now in use, or BITMAP_ALLOC_FAIL. */
unsigned long bitmap_alloc_pages(struct bitmap_alloc *ba, unsigned int order);
void bitmap_free_pages(struct bitmap_alloc *ba, unsigned long pfn, unsigned int order);

#endif
