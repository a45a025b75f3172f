/*
 * The hobby-kernel baseline: one bit per page, first fit (see
 * <bitmap_alloc.h>). An order-3 request on bits 0b00001111.. skips index 0
 * (pages 0-3 in use) and takes pages 8-15, the first aligned run of 8.
 */
#include <bitmap_alloc.h>
#include <kernel.h>

#define BITS_PER_LONG 64

void bitmap_alloc_init(struct bitmap_alloc *ba, unsigned long base_pfn,
		       unsigned long nr_pages, unsigned long *bitmap)
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

/* Set (in_use) or clear the n bits at i. */
static void mark_run(struct bitmap_alloc *ba, unsigned long i, unsigned long n, bool in_use)
{
	for (unsigned long b = i; b < i + n; b++) {
		unsigned long bit = 1ul << (b % BITS_PER_LONG);

		if (in_use)
			ba->bitmap[b / BITS_PER_LONG] |= bit;
		else
			ba->bitmap[b / BITS_PER_LONG] &= ~bit;
	}
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
			mark_run(ba, i, n, true);
			return ba->base_pfn + i;
		}
	}
	return BITMAP_ALLOC_FAIL;
}

void bitmap_free_pages(struct bitmap_alloc *ba, unsigned long pfn, unsigned int order)
{
	mark_run(ba, pfn - ba->base_pfn, 1ul << order, false);
}
