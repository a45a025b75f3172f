/*
 * Small kernel objects (Linux: include/linux/slab.h): kmalloc, kzalloc
 * and kfree over the page allocator. Requests up to KMALLOC_MAX_CACHE_SIZE
 * come from power-of-two caches whose slabs are order-0 pages; larger ones
 * are whole pages (Linux: kmalloc_large). Example: kmalloc(40) returns a
 * 64-byte object from a page shared with 63 others.
 */
#ifndef FOLIUM_SLAB_H
#define FOLIUM_SLAB_H

#include <mm.h>

#define KMALLOC_MIN_SIZE 16
#define KMALLOC_MAX_CACHE_SIZE 2048 /* larger requests take whole pages */

/* Return: size bytes aligned to min(size rounded up to a power of two,
 * PAGE_SIZE), or NULL when no page can be had (never panics). kmalloc(0)
 * returns NULL, as ZERO_SIZE_PTR would be refused by every user here. */
void *kmalloc_node(size_t size, gfp_t gfp, int nid);
static inline void *kmalloc(size_t size, gfp_t gfp)
{
	return kmalloc_node(size, gfp, 0);
}
static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}
/* Free what kmalloc returned; NULL is ignored. A pointer kmalloc did not
 * return is reported (bad_free: dump_page, BAD_PAGE) and ignored. */
void kfree(const void *ptr);
/* Bytes the object really has (Linux: ksize). */
size_t ksize(const void *ptr);

/* Objects in use and pages held by node nid's caches (for meminfo's Slab
 * line and the leak checks of tests). */
struct kmalloc_stats {
	unsigned long objects, slab_pages, large_pages;
};
void kmalloc_stats(int nid, struct kmalloc_stats *st);

#endif
