/*
 * The hobby-kernel baseline: one bit per page, first fit (see
 * <bitmap_alloc.h>). An order-3 request on bits 0b00001111.. skips index 0
 * (pages 0-3 in use) and takes pages 8-15, the first aligned run of 8.
 */
#include <bitmap.h>
#include <bitmap_alloc.h>
#include <kernel.h>

void bitmap_alloc_init(struct bitmap_alloc *ba, unsigned long base_pfn, unsigned long nr_pages,
		       unsigned long *bitmap)
{
	ba->base_pfn = base_pfn;
	ba->nr_pages = nr_pages;
	ba->bitmap = bitmap;
	memset(bitmap, 0, BITMAP_ALLOC_LONGS(nr_pages) * sizeof(long));
}

/* Return: whether the n bits at i (aligned to n) are all clear. */
static bool run_is_free(const struct bitmap_alloc *ba, unsigned long i, unsigned long n)
{
	if (n < BITS_PER_LONG) {
		unsigned long mask = ((1ul << n) - 1) << (i % BITS_PER_LONG);

		return !(ba->bitmap[i / BITS_PER_LONG] & mask);
	}
	for (unsigned long w = i / BITS_PER_LONG; w < (i + n) / BITS_PER_LONG; w++)
		if (ba->bitmap[w])
			return false;
	return true;
}

unsigned long bitmap_alloc_pages(struct bitmap_alloc *ba, unsigned int order)
{
	unsigned long n = 1ul << order;

	for (unsigned long i = 0; i + n <= ba->nr_pages; i += n) {
		/* The one optimisation most such allocators have: skip full words. */
		if (n < BITS_PER_LONG && ba->bitmap[i / BITS_PER_LONG] == ~0ul) {
			i = ALIGN_DOWN(i, BITS_PER_LONG) + BITS_PER_LONG - n;
			continue;
		}
		if (run_is_free(ba, i, n)) {
			bitmap_set(ba->bitmap, i, n);
			return ba->base_pfn + i;
		}
	}
	return BITMAP_ALLOC_FAIL;
}

void bitmap_free_pages(struct bitmap_alloc *ba, unsigned long pfn, unsigned int order)
{
	bitmap_clear(ba->bitmap, pfn - ba->base_pfn, 1ul << order);
}
