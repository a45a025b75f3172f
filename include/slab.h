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

/*
 * A cache of objects of one size of its own (Linux: kmem_cache_create,
 * e.g. anon_vma_cachep): its slabs are order-0 pages as kmalloc's, on the
 * node asked for, and its objects are not in kmalloc_stats (Linux's
 * /proc/slabinfo lists it apart). Define one statically:
 *   static struct kmem_cache anon_vma_cachep = KMEM_CACHE_INIT("anon_vma", struct anon_vma);
 * kmem_cache_alloc_node returns NULL when no page can be had; kfree
 * refuses its objects, kmem_cache_free takes them.
 */
struct kmem_cache_node {
	unsigned int size;		 /* bytes per object */
	struct list_head partial;	 /* slabs with at least one free object */
	unsigned long nr_slabs, objects; /* pages held, objects handed out */
};
struct kmem_cache {
	const char *name;
	unsigned int size;
	struct kmem_cache_node node[MAX_NUMNODES];
};
#define KMEM_CACHE_INIT(cname, type)                  \
	{                                             \
		.name = (cname), .size = sizeof(type) \
	}
void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfp, int nid);
void kmem_cache_free(struct kmem_cache *s, void *obj);
void kmem_cache_stats(struct kmem_cache *s, int nid, struct kmalloc_stats *st);

#endif
