/*
 * The XArray (Linux: lib/xarray.c, include/linux/xarray.h): an array of
 * pointers indexed by unsigned long, kept as a radix tree of 64-slot
 * nodes, with three marks per entry and multi-index entries (Linux's
 * CONFIG_XARRAY_MULTI). The page cache keeps each file's folios in one:
 * a folio of order 4 at index 16 is one entry covering indices 16..31,
 * so xa_load(xa, 20) returns it and xa_find visits it once.
 *
 * Entries are pointers aligned to 4 bytes, or values made by xa_mk_value
 * (Linux's shadow and swap entries); NULL means "no entry". The low two
 * bits of a slot tell a user entry from the tree's internal ones (node
 * pointers, sibling entries, errors) exactly as in Linux:
 *   ...00 a pointer    ...x1 a value    ...10 internal
 * Storing NULL erases. There is no lock: Folium runs one CPU and never
 * touches an xarray from an interrupt (the SMP issue adds xa_lock).
 */
#ifndef FOLIUM_XARRAY_H
#define FOLIUM_XARRAY_H

#include <kernel.h>
#include <mm.h>

#define XA_CHUNK_SHIFT 6
#define XA_CHUNK_SIZE (1ul << XA_CHUNK_SHIFT) /* slots per node */
#define XA_CHUNK_MASK (XA_CHUNK_SIZE - 1)
#define XA_MAX_MARKS 3
#define XA_MARK_LONGS (XA_CHUNK_SIZE / (8 * sizeof(unsigned long)))

/* A mark number, or XA_PRESENT as xa_find's filter: any entry. */
typedef unsigned int xa_mark_t;
#define XA_MARK_0 0u
#define XA_MARK_1 1u
#define XA_MARK_2 2u
#define XA_PRESENT 8u
#define XA_MARK_MAX XA_MARK_2

/*
 * One node: 64 slots covering 64 << shift indices. A slot holds an
 * entry, a node one level down (shift > 0), or, for the second and later
 * slots of a multi-index entry smaller than the node's span, a sibling
 * entry naming the entry's first slot. A mark bit is set in every node
 * on the path to a marked entry (on a multi-index entry's first slot).
 */
struct xa_node {
	unsigned char shift;	 /* index bits below this node's slots */
	unsigned char offset;	 /* this node's slot in its parent */
	unsigned char count;	 /* slots not NULL, siblings included */
	unsigned char nr_values; /* value entries among them */
	struct xa_node *parent;	 /* NULL at the top */
	struct xarray *array;
	void *slots[XA_CHUNK_SIZE];
	unsigned long marks[XA_MAX_MARKS][XA_MARK_LONGS];
};

struct xarray {
	/* NULL, the entry at index 0 alone (an order-0 entry), or the top
	 * node (internal). */
	void *xa_head;
	/* XA_FLAGS_MARK(m): some entry carries mark m. */
	unsigned int xa_flags;
};

#define XA_FLAGS_MARK(mark) (1u << (24 + (mark)))
#define XARRAY_INIT                            \
	{                                      \
		.xa_head = NULL, .xa_flags = 0 \
	}

/* The nodes come from their own cache (Linux: radix_tree_node_cachep),
 * node 0; tests read its kmem_cache_stats to see that none leaks. */
extern struct kmem_cache radix_tree_node_cachep;

/* --- entries -------------------------------------------------------------- */
/* A value entry holding v (v < LONG_MAX): tagged, never a pointer. */
static inline void *xa_mk_value(unsigned long v)
{
	return (void *)((v << 1) | 1);
}
static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}
static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}
/* Internal entries: nodes (…10 with the node's address), siblings and
 * errors (small numbers …10). Users never see a node or a sibling. */
static inline void *xa_mk_internal(unsigned long v)
{
	return (void *)((v << 2) | 2);
}
static inline unsigned long xa_to_internal(const void *entry)
{
	return (unsigned long)entry >> 2;
}
static inline bool xa_is_internal(const void *entry)
{
	return ((unsigned long)entry & 3) == 2;
}
/* An error from xa_store: -errno as an internal entry (Linux's -4094..-1). */
static inline bool xa_is_err(const void *entry)
{
	return xa_is_internal(entry) && (unsigned long)entry >= (unsigned long)-4094 * 4 + 2;
}
/* Return: the errno xa_store's result holds (negative), or 0. */
static inline int xa_err(const void *entry)
{
	return xa_is_err(entry) ? (int)((long)entry >> 2) : 0;
}

/* --- lib/xarray.c ----------------------------------------------------------- */
static inline void xa_init(struct xarray *xa)
{
	xa->xa_head = NULL;
	xa->xa_flags = 0;
}
static inline bool xa_empty(const struct xarray *xa)
{
	return xa->xa_head == NULL;
}
/* Return: whether some entry carries @mark. */
static inline bool xa_marked(const struct xarray *xa, xa_mark_t mark)
{
	return xa->xa_flags & XA_FLAGS_MARK(mark);
}

/* Return: the entry covering @index (a multi-index entry from any of its
 * indices), or NULL. */
void *xa_load(struct xarray *xa, unsigned long index);
/*
 * Store @entry at @index, replacing what covered it: a multi-index entry
 * there is replaced as a whole by an order-0 one at @index, its other
 * indices left empty (Folium's rule; Linux stores @entry over the whole
 * multi-index entry). NULL erases. The marks of an order-0 entry replaced
 * by a non-NULL one are kept (Linux's xas_store); other marks go.
 * Return: the old entry (NULL if none), or an error entry (xa_err:
 * -ENOMEM when a node cannot be had; -EINVAL for an internal @entry);
 * on error nothing changed.
 */
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
/*
 * Store @entry over the 2^@order indices starting at @index (aligned to
 * 2^@order; Linux: xa_store_order with CONFIG_XARRAY_MULTI). Whatever
 * covered any of them is removed first, marks cleared. Order 0 is
 * xa_store. Return: as xa_store (the first old entry found, or NULL).
 */
void *xa_store_order(struct xarray *xa, unsigned long index, unsigned int order, void *entry,
		     gfp_t gfp);
/*
 * Split the multi-index entry covering @index into order-0 entries, each
 * holding the same entry with its marks (Linux: xas_split_alloc and
 * xas_split to order 0). The nodes are had before anything changes; a
 * later xa_store of another entry at one of the indices then allocates
 * nothing (how a large folio's pieces take its place in the page cache).
 * Return: 0 (also for an order-0 entry), -ENOENT if nothing covers
 * @index, or -ENOMEM with nothing changed.
 */
int xa_split(struct xarray *xa, unsigned long index, gfp_t gfp);
/* Return: the order of the entry covering @index (0 if none). */
unsigned int xa_get_order(struct xarray *xa, unsigned long index);
/* Remove the entry covering @index, all of a multi-index one, with its
 * marks; nodes left empty are freed. Return: the entry, or NULL. */
void *xa_erase(struct xarray *xa, unsigned long index);
/* Free every node; the array is empty afterwards. The entries are the
 * caller's. */
void xa_destroy(struct xarray *xa);

/* Marks: on the entry covering @index; nothing happens if there is none. */
bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);

/*
 * The first entry at or after *@indexp and at most @max that matches
 * @filter (XA_PRESENT: any; a mark: marked ones). An entry covering
 * *@indexp itself is found with *@indexp left as it is; a later one sets
 * *@indexp to its first index. Return: the entry, or NULL (*@indexp
 * unchanged).
 */
void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter);
/* The same, strictly after the entry covering *@indexp (after all of a
 * multi-index one); *@indexp becomes the found entry's first index. */
void *xa_find_after(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter);

/* Each entry in [start, last] once, in index order; index is its first
 * index (or start, for one covering start). The body may store and erase. */
#define xa_for_each_range(xa, index, entry, start, last)                            \
	for (index = (start), entry = xa_find(xa, &index, last, XA_PRESENT); entry; \
	     entry = xa_find_after(xa, &index, last, XA_PRESENT))
#define xa_for_each_start(xa, index, entry, start) \
	xa_for_each_range(xa, index, entry, start, ULONG_MAX)
#define xa_for_each(xa, index, entry) xa_for_each_start(xa, index, entry, 0)
#define xa_for_each_marked(xa, index, entry, filter)                           \
	for (index = 0, entry = xa_find(xa, &index, ULONG_MAX, filter); entry; \
	     entry = xa_find_after(xa, &index, ULONG_MAX, filter))

#endif
