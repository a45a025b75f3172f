/*
 * Bit arrays of unsigned longs, with Linux's names (<linux/bitmap.h>):
 * bit n lives in word n / BITS_PER_LONG at position n % BITS_PER_LONG.
 * Example: bit 70 is bit 6 of word 1.
 */
#ifndef FOLIUM_BITMAP_H
#define FOLIUM_BITMAP_H

#include <stdbool.h>

#define BITS_PER_LONG (8 * (int)sizeof(unsigned long))
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[nr / BITS_PER_LONG] & (1ul << (nr % BITS_PER_LONG));
}

/* Set bits [start, start + n). */
static inline void bitmap_set(unsigned long *map, unsigned long start, unsigned long n)
{
	for (unsigned long b = start; b < start + n; b++)
		map[b / BITS_PER_LONG] |= 1ul << (b % BITS_PER_LONG);
}

/* Clear bits [start, start + n). */
static inline void bitmap_clear(unsigned long *map, unsigned long start, unsigned long n)
{
	for (unsigned long b = start; b < start + n; b++)
		map[b / BITS_PER_LONG] &= ~(1ul << (b % BITS_PER_LONG));
}

#endif
