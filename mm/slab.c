/*
 * kmalloc (Linux: mm/slub.c, mm/slab_common.c, much simplified): one
 * cache per power of two from KMALLOC_MIN_SIZE to KMALLOC_MAX_CACHE_SIZE.
 * A slab is one order-0 page cut into equal objects; its free objects form
 * a list threaded through the objects themselves, its struct page holds
 * the list head, the count in use and the cache (see mm_types.h). A cache
 * keeps the slabs with a free object on a partial list; a slab that becomes
 * empty goes back to the page allocator at once (Linux keeps a few for
 * speed; Folium prefers that free memory returns exactly). Larger
 * requests are 2^order pages marked PG_large_kmalloc (Linux:
 * kmalloc_large). One CPU, and no interrupt handler allocates: no locks.
 */
#include <slab.h>
#include "internal.h"

#define NR_KMALLOC_CACHES 8 /* 16, 32, ..., 2048 */

/* struct kmem_cache_node (one cache's slabs on one node) is in <slab.h>. */

/* Per node, so tests can use a private node; the kernel uses node 0. */
static struct kmem_cache_node kmalloc_caches[MAX_NUMNODES][NR_KMALLOC_CACHES];
static unsigned long large_pages[MAX_NUMNODES];

_Static_assert(KMALLOC_MIN_SIZE << (NR_KMALLOC_CACHES - 1) == KMALLOC_MAX_CACHE_SIZE,
	       "one cache per power of two");

/* Linux: kmalloc_index. */
static unsigned int kmalloc_index(size_t size)
{
	unsigned int i = 0;

	while ((size_t)KMALLOC_MIN_SIZE << i < size)
		i++;
	return i;
}

static struct kmem_cache_node *cache_of(int nid, unsigned int index)
{
	struct kmem_cache_node *s = &kmalloc_caches[nid][index];

	if (!s->size) {
		s->size = KMALLOC_MIN_SIZE << index;
		INIT_LIST_HEAD(&s->partial);
	}
	return s;
}

/* A fresh slab: every object free, threaded in address order. */
static struct page *new_slab(struct kmem_cache_node *s, int nid, unsigned int index, gfp_t gfp)
{
	struct page *page = alloc_pages_node(nid, gfp & ~(gfp_t)__GFP_ZERO, 0);
	char *base;
	unsigned int n = PAGE_SIZE / s->size;

	if (!page)
		return NULL;
	base = page_address(page);
	for (unsigned int i = 0; i < n; i++)
		*(void **)(base + i * s->size) = i + 1 < n ? base + (i + 1) * s->size : NULL;
	SetPageFlag(page, PG_slab);
	page->mapping = base;
	page->index = 0;
	page->private = index;
	list_add(&page->lru, &s->partial);
	s->nr_slabs++;
	return page;
}

static void *kmalloc_large(size_t size, gfp_t gfp, int nid)
{
	unsigned int order = 0;
	struct page *page;

	while ((PAGE_SIZE << order) < size)
		order++;
	if (order > MAX_PAGE_ORDER)
		return NULL;
	page = alloc_pages_node(nid, gfp, order);
	if (!page)
		return NULL;
	SetPageFlag(page, PG_large_kmalloc);
	page->private = order;
	large_pages[nid] += 1ul << order;
	return page_address(page);
}

/* One object from s's slabs on node nid; tag marks a new slab's page
 * (page->private: the kmalloc index, or KMEM_CACHE_TAG). */
static void *slab_alloc(struct kmem_cache_node *s, int nid, unsigned int tag, gfp_t gfp)
{
	struct page *page;
	void *obj;

	if (list_empty(&s->partial) && !new_slab(s, nid, tag, gfp))
		return NULL;
	page = list_first_entry(&s->partial, struct page, lru);
	obj = page->mapping;
	page->mapping = *(void **)obj;
	page->index++;
	s->objects++;
	if (!page->mapping)
		list_del_init(&page->lru); /* full: off the partial list */
	if (gfp & __GFP_ZERO)
		memset(obj, 0, s->size);
	return obj;
}

void *kmalloc_node(size_t size, gfp_t gfp, int nid)
{
	if (!size)
		return NULL;
	if (size > KMALLOC_MAX_CACHE_SIZE)
		return kmalloc_large(size, gfp, nid);
	return slab_alloc(cache_of(nid, kmalloc_index(size)), nid, kmalloc_index(size), gfp);
}

/* Linux: discard_slab. Context: page has no object in use. */
static void discard_slab(struct kmem_cache_node *s, struct page *page)
{
	list_del(&page->lru);
	ClearPageFlag(page, PG_slab);
	page->mapping = NULL;
	page->private = 0;
	s->nr_slabs--;
	__free_pages(page, 0);
}

static void slab_free(struct kmem_cache_node *s, struct page *page, const void *ptr);

void kfree(const void *ptr)
{
	struct page *page;
	struct kmem_cache_node *s;

	if (!ptr)
		return;
	page = virt_to_page(ptr);
	if (PageFlag(page, PG_large_kmalloc)) {
		unsigned int order = (unsigned int)page->private;

		if ((unsigned long)ptr & (PAGE_SIZE - 1)) {
			bad_free(page, order, "kfree");
			return;
		}
		ClearPageFlag(page, PG_large_kmalloc);
		page->private = 0;
		large_pages[page_to_nid(page)] -= 1ul << order;
		__free_pages(page, order);
		return;
	}
	s = &kmalloc_caches[page_to_nid(page)][page->private % NR_KMALLOC_CACHES];
	/* Not an object kmalloc handed out: refuse, the lists stay intact. */
	if (!PageFlag(page, PG_slab) || page->private >= NR_KMALLOC_CACHES ||
	    ((unsigned long)ptr & (PAGE_SIZE - 1)) % s->size) {
		bad_free(page, 0, "kfree");
		return;
	}
	slab_free(s, page, ptr);
}

/* Put ptr back on its slab; an empty slab goes back at once: after a
 * program exits, free memory is what it was before it started (the exec
 * tests check). */
static void slab_free(struct kmem_cache_node *s, struct page *page, const void *ptr)
{
	bool was_full;

	was_full = !page->mapping;
	*(void **)ptr = page->mapping;
	page->mapping = (void *)ptr;
	page->index--;
	s->objects--;
	if (was_full)
		list_add(&page->lru, &s->partial);
	if (!page->index)
		discard_slab(s, page);
}

size_t ksize(const void *ptr)
{
	struct page *page = virt_to_page(ptr);

	if (PageFlag(page, PG_large_kmalloc))
		return PAGE_SIZE << page->private;
	return kmalloc_caches[page_to_nid(page)][page->private].size;
}

void kmalloc_stats(int nid, struct kmalloc_stats *st)
{
	*st = (struct kmalloc_stats){ .large_pages = large_pages[nid] };
	for (unsigned int i = 0; i < NR_KMALLOC_CACHES; i++) {
		st->objects += kmalloc_caches[nid][i].objects;
		st->slab_pages += kmalloc_caches[nid][i].nr_slabs;
	}
}

/* --- caches of their own (Linux: kmem_cache_create) ---------------------------- */

/* page->private of a dedicated cache's slab: never a kmalloc index, so
 * kfree refuses its objects. */
#define KMEM_CACHE_TAG NR_KMALLOC_CACHES

static struct kmem_cache_node *cache_node(struct kmem_cache *s, int nid)
{
	struct kmem_cache_node *n = &s->node[nid];

	if (!n->size) {
		n->size = s->size < KMALLOC_MIN_SIZE ? KMALLOC_MIN_SIZE : ALIGN_UP(s->size, 16u);
		INIT_LIST_HEAD(&n->partial);
	}
	return n;
}

void *kmem_cache_alloc_node(struct kmem_cache *s, gfp_t gfp, int nid)
{
	return slab_alloc(cache_node(s, nid), nid, KMEM_CACHE_TAG, gfp);
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct page *page;

	if (!obj)
		return;
	page = virt_to_page(obj);
	if (!PageFlag(page, PG_slab) || page->private != KMEM_CACHE_TAG ||
	    ((unsigned long)obj & (PAGE_SIZE - 1)) % cache_node(s, page_to_nid(page))->size) {
		bad_free(page, 0, s->name);
		return;
	}
	slab_free(cache_node(s, page_to_nid(page)), page, obj);
}

void kmem_cache_stats(struct kmem_cache *s, int nid, struct kmalloc_stats *st)
{
	*st = (struct kmalloc_stats){ .objects = s->node[nid].objects,
				      .slab_pages = s->node[nid].nr_slabs };
}
