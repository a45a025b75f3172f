/*
 * The XArray (Linux: lib/xarray.c): a radix tree of 64-slot nodes under
 * xa_head. A slot holds NULL, a user entry, or an internal entry (low bits
 * 10, see xarray.h), told apart by value:
 *   node     address | 2           always > 4096 (xa_is_node)
 *   sibling  xa_mk_internal(0..62) 2, 6, ..., 250: "the entry is in slot n"
 *   error    xa_mk_internal(-errno) the last 16 KiB of the address space,
 *            where no node lives; never stored in a slot
 * An entry of order k lives in the node of shift s = k - k % 6 and takes
 * 2^(k - s) slots there: the entry in the first, xa_mk_sibling(first) in
 * the others. Example: order 4 at 16 in a lone shift-0 node takes slots
 * 16..31, slot 17 holds (16 << 2) | 2 = 0x42, and xa_load(20) finds 0x42
 * in slot 20 and returns slot 16. A store at 100 then grows the tree
 * (xas_expand): a shift-6 top with the old node in slot 0 and a new shift-0
 * node in slot 1 (100 >> 6) holding the entry in slot 36 (100 & 63).
 * Invariants: every node has count > 0 (xas_delete_node); the top does
 * not hold slot 0 alone unless that is an entry of order >= 6
 * (xas_shrink); a node's mark bit for a slot is set iff the entry there or
 * something below it carries the mark; xa_flags says which marks the top
 * (or the lone head entry) carries.
 */
#include <bitmap.h>
#include <slab.h>
#include <xarray.h>

struct kmem_cache radix_tree_node_cachep = KMEM_CACHE_INIT("radix_tree_node", struct xa_node);

#define XA_MAX_HEIGHT 11 /* shifts 0, 6, ..., 60 cover 64 index bits */
#define XA_FLAGS_MARKS (XA_FLAGS_MARK(0) | XA_FLAGS_MARK(1) | XA_FLAGS_MARK(2))

_Static_assert(XA_MARK_LONGS == 1, "node_next scans one word of marks");

/* --- internal entries ------------------------------------------------------ */

static inline void *xa_mk_node(const struct xa_node *node)
{
	return (void *)((unsigned long)node | 2);
}

static inline struct xa_node *xa_to_node(const void *entry)
{
	return (struct xa_node *)((unsigned long)entry - 2);
}

/* Linux: xa_is_node; an error entry is never in a slot, but say no anyway. */
static inline bool xa_is_node(const void *entry)
{
	return xa_is_internal(entry) && (unsigned long)entry > 4096 && !xa_is_err(entry);
}

static inline void *xa_mk_sibling(unsigned int offset)
{
	return xa_mk_internal(offset);
}

static inline bool xa_is_sibling(const void *entry)
{
	return xa_is_internal(entry) &&
	       (unsigned long)entry < (unsigned long)xa_mk_sibling(XA_CHUNK_SIZE - 1);
}

static inline unsigned int xa_to_sibling(const void *entry)
{
	return (unsigned int)xa_to_internal(entry);
}

static inline void *xa_mk_err(int err)
{
	return xa_mk_internal((unsigned long)(long)err);
}

/* --- node geometry --------------------------------------------------------- */

/* The last index a top node of this shift can reach. */
static unsigned long xa_shift_max(unsigned int shift)
{
	if (shift + XA_CHUNK_SHIFT >= BITS_PER_LONG)
		return ULONG_MAX;
	return (XA_CHUNK_SIZE << shift) - 1;
}

static unsigned int node_offset(const struct xa_node *node, unsigned long index)
{
	return (index >> node->shift) & XA_CHUNK_MASK;
}

/* First index of slot @offset of @node, which lies on @index's path. */
static unsigned long node_slot_index(const struct xa_node *node, unsigned long index,
				     unsigned int offset)
{
	return (index & ~xa_shift_max(node->shift)) + ((unsigned long)offset << node->shift);
}

/* Slots taken by the entry in slot @offset: itself and its siblings. */
static unsigned int node_entry_slots(const struct xa_node *node, unsigned int offset)
{
	unsigned int n = 1;

	while (offset + n < XA_CHUNK_SIZE && node->slots[offset + n] == xa_mk_sibling(offset))
		n++;
	return n;
}

static unsigned int node_entry_order(const struct xa_node *node, unsigned int offset)
{
	return node->shift + (unsigned int)__builtin_ctz(node_entry_slots(node, offset));
}

/* --- marks in a node --------------------------------------------------------- */

static bool node_get_mark(const struct xa_node *node, unsigned int offset, xa_mark_t mark)
{
	return test_bit(offset, node->marks[mark]);
}

static void node_set_mark(struct xa_node *node, unsigned int offset, xa_mark_t mark)
{
	bitmap_set(node->marks[mark], offset, 1);
}

static void node_clear_mark(struct xa_node *node, unsigned int offset, xa_mark_t mark)
{
	bitmap_clear(node->marks[mark], offset, 1);
}

static bool node_any_mark(const struct xa_node *node, xa_mark_t mark)
{
	return node->marks[mark][0] != 0;
}

static void node_clear_marks(struct xa_node *node, unsigned int offset)
{
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
		node_clear_mark(node, offset, mark);
}

/*
 * Make @mark's bits from @node up to xa_flags agree with @node's own
 * (Linux: the walk up in xas_set_mark and xas_clear_mark): a parent's bit
 * for a child means "marked below", so it follows the child's bitmap.
 */
static void xas_update_mark(struct xarray *xa, struct xa_node *node, xa_mark_t mark)
{
	for (; node->parent; node = node->parent) {
		if (node_any_mark(node, mark))
			node_set_mark(node->parent, node->offset, mark);
		else
			node_clear_mark(node->parent, node->offset, mark);
	}
	if (node_any_mark(node, mark))
		xa->xa_flags |= XA_FLAGS_MARK(mark);
	else
		xa->xa_flags &= ~XA_FLAGS_MARK(mark);
}

static void xas_update_marks(struct xarray *xa, struct xa_node *node)
{
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
		xas_update_mark(xa, node, mark);
}

/* --- nodes ----------------------------------------------------------------- */

/* Linux: xas_alloc. The cache honours __GFP_ZERO (mm/slab.c slab_alloc). */
static struct xa_node *xa_node_alloc(struct xarray *xa, unsigned int shift, gfp_t gfp)
{
	struct xa_node *node = kmem_cache_alloc_node(&radix_tree_node_cachep, gfp | __GFP_ZERO, 0);

	if (node) {
		node->shift = (unsigned char)shift;
		node->array = xa;
	}
	return node;
}

static void xa_node_free(struct xa_node *node)
{
	kmem_cache_free(&radix_tree_node_cachep, node);
}

/* Free @node and every node below it (Linux: xas_free_nodes); recursion
 * is as deep as the tree, 11 at most. The entries are the caller's. */
static void xas_free_nodes(struct xa_node *node)
{
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++)
		if (xa_is_node(node->slots[i]))
			xas_free_nodes(xa_to_node(node->slots[i]));
	xa_node_free(node);
}

/* The lowest-index entry below @node (a node is never empty). */
static void *xa_first_entry(struct xa_node *node)
{
	for (;;) {
		unsigned int i = 0;

		while (i < XA_CHUNK_SIZE && !node->slots[i])
			i++;
		if (i == XA_CHUNK_SIZE || !xa_is_node(node->slots[i]))
			return i == XA_CHUNK_SIZE ? NULL : node->slots[i];
		node = xa_to_node(node->slots[i]);
	}
}

static void node_link(struct xa_node *parent, unsigned int offset, struct xa_node *child)
{
	child->parent = parent;
	child->offset = (unsigned char)offset;
	parent->slots[offset] = xa_mk_node(child);
	parent->count++;
}

/*
 * Empty slot @offset of @node: an entry with its siblings, or a whole
 * subtree (its nodes freed). The slot's marks go; the caller fixes the
 * path above. Return: the entry, or the subtree's first entry.
 */
static void *node_remove(struct xa_node *node, unsigned int offset)
{
	void *entry = node->slots[offset];
	unsigned int n = 1;

	if (xa_is_node(entry)) {
		struct xa_node *child = xa_to_node(entry);

		entry = xa_first_entry(child);
		xas_free_nodes(child);
	} else {
		n = node_entry_slots(node, offset);
		node->nr_values -= xa_is_value(entry);
	}
	for (unsigned int i = 0; i < n; i++)
		node->slots[offset + i] = NULL;
	node->count -= n;
	node_clear_marks(node, offset);
	return entry;
}

/*
 * Remove whatever covers slots [@offset, @offset + @n) of @node, whole,
 * even where it reaches past them. Only the first slot can be a sibling
 * (of an entry that starts before): a later one went with its entry.
 * Return: the first entry removed (the lowest index), or NULL.
 */
static void *node_clear_range(struct xa_node *node, unsigned int offset, unsigned int n)
{
	void *first = NULL;

	for (unsigned int i = offset; i < offset + n; i++) {
		void *entry = node->slots[i], *old;

		if (!entry)
			continue;
		old = node_remove(node, xa_is_sibling(entry) ? xa_to_sibling(entry) : i);
		if (!first)
			first = old;
	}
	return first;
}

/* Put @entry in the empty slots [@offset, @offset + @n): itself first,
 * then siblings naming @offset. */
static void node_store(struct xa_node *node, unsigned int offset, unsigned int n, void *entry)
{
	node->slots[offset] = entry;
	for (unsigned int i = 1; i < n; i++)
		node->slots[offset + i] = xa_mk_sibling(offset);
	node->count += n;
	node->nr_values += xa_is_value(entry);
}

/* --- the shape of the tree ------------------------------------------------- */

/* Free @node and its ancestors while they are empty (Linux:
 * xas_delete_node). Return: the lowest node left, NULL if none is. */
static struct xa_node *xas_delete_node(struct xarray *xa, struct xa_node *node)
{
	while (node && !node->count) {
		struct xa_node *parent = node->parent;

		if (parent) {
			parent->slots[node->offset] = NULL;
			parent->count--;
			node_clear_marks(parent, node->offset);
		} else {
			xa->xa_head = NULL;
		}
		xa_node_free(node);
		node = parent;
	}
	return node;
}

/*
 * Drop top nodes that use only slot 0 (Linux: xas_shrink), down to a lone
 * order-0 entry at index 0 in xa_head. An entry of order >= 6 keeps its
 * node. xa_flags needs no change: the top's marks were slot 0's.
 */
static void xas_shrink(struct xarray *xa)
{
	while (xa_is_node(xa->xa_head)) {
		struct xa_node *node = xa_to_node(xa->xa_head);
		void *entry = node->slots[0];

		if (node->count != 1 || !entry || (!xa_is_node(entry) && node->shift))
			return;
		if (xa_is_node(entry))
			xa_to_node(entry)->parent = NULL;
		xa->xa_head = entry;
		xa_node_free(node);
	}
}

/* After removals in @node: free what is empty, fix the marks up the
 * path, shrink. */
static void xas_fixup(struct xarray *xa, struct xa_node *node)
{
	node = xas_delete_node(xa, node);
	if (node)
		xas_update_marks(xa, node);
	else if (!xa->xa_head)
		xa->xa_flags &= ~XA_FLAGS_MARKS;
	xas_shrink(xa);
}

/*
 * Grow the tree at the top until the top node's shift is at least @top
 * (Linux: xas_expand): each new top holds the old head in slot 0 with its
 * marks. An empty array grows nothing (xas_create makes its top).
 * Return: 0, or -ENOMEM with the tree grown part way (xas_shrink undoes
 * that exactly, as the tree was shrunk before).
 */
static int xas_expand(struct xarray *xa, unsigned int top, gfp_t gfp)
{
	void *head = xa->xa_head;
	unsigned int shift = xa_is_node(head) ? xa_to_node(head)->shift + XA_CHUNK_SHIFT : 0;

	for (; head && shift <= top; shift += XA_CHUNK_SHIFT) {
		struct xa_node *node = xa_node_alloc(xa, shift, gfp);

		if (!node)
			return -ENOMEM;
		node->slots[0] = head;
		node->count = 1;
		node->nr_values = xa_is_value(head);
		if (xa_is_node(head))
			xa_to_node(head)->parent = node;
		for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
			if (xa_marked(xa, mark))
				node_set_mark(node, 0, mark);
		xa->xa_head = head = xa_mk_node(node);
	}
	return 0;
}

/* The top shift a store of shift-@shift slots ending at @last needs. */
static unsigned int xas_top_shift(struct xarray *xa, unsigned long last, unsigned int shift)
{
	if (xa_is_node(xa->xa_head))
		shift = MAX(shift, xa_to_node(xa->xa_head)->shift);
	while (last > xa_shift_max(shift))
		shift += XA_CHUNK_SHIFT;
	return shift;
}

/* The nodes a store allocates before it changes anything: the tree is
 * only grown at the top first, which xas_shrink can undo. */
struct xa_pool {
	unsigned int nr;
	struct xa_node *nodes[XA_MAX_HEIGHT];
};

/* How many nodes xas_create will take: one per level from the first
 * slot on @index's path that is not a node down to @shift. */
static unsigned int xas_nodes_needed(struct xarray *xa, unsigned long index, unsigned int shift,
				     unsigned int top)
{
	struct xa_node *node;

	if (!xa->xa_head)
		return (top - shift) / XA_CHUNK_SHIFT + 1;
	for (node = xa_to_node(xa->xa_head); node->shift > shift;) {
		void *entry = node->slots[node_offset(node, index)];

		if (!xa_is_node(entry))
			return (node->shift - shift) / XA_CHUNK_SHIFT;
		node = xa_to_node(entry);
	}
	return 0;
}

/* Nodes xas_nodes_needed counted but xas_create did not take (none, as
 * the count is exact; freed all the same). */
static void xa_pool_drain(struct xa_pool *pool)
{
	while (pool->nr)
		xa_node_free(pool->nodes[--pool->nr]);
}

static int xa_pool_fill(struct xa_pool *pool, struct xarray *xa, unsigned int nr, gfp_t gfp)
{
	BUG_ON(nr > XA_MAX_HEIGHT);
	for (pool->nr = 0; pool->nr < nr; pool->nr++) {
		pool->nodes[pool->nr] = xa_node_alloc(xa, 0, gfp);
		if (!pool->nodes[pool->nr]) {
			xa_pool_drain(pool);
			return -ENOMEM;
		}
	}
	return 0;
}

static struct xa_node *xa_pool_take(struct xa_pool *pool, unsigned int shift)
{
	if (!pool->nr)
		panic("xas_create: no node left for shift %u", shift);
	pool->nodes[pool->nr - 1]->shift = (unsigned char)shift;
	return pool->nodes[--pool->nr];
}

/*
 * Walk from the top down to the node of @shift on @index's path, making
 * the missing nodes from @pool (Linux: xas_create). An entry met above
 * @shift covers the whole range being stored: it goes, whole, into *@old.
 * Return: the node of @shift. Context: xas_expand reached @top.
 */
static struct xa_node *xas_create(struct xarray *xa, unsigned long index, unsigned int shift,
				  unsigned int top, struct xa_pool *pool, void **old)
{
	struct xa_node *node;

	if (!xa->xa_head)
		xa->xa_head = xa_mk_node(xa_pool_take(pool, top));
	for (node = xa_to_node(xa->xa_head); node->shift > shift;) {
		unsigned int offset = node_offset(node, index);
		void *entry = node->slots[offset];

		if (!xa_is_node(entry)) {
			if (entry)
				*old = node_remove(node, xa_is_sibling(entry) ? xa_to_sibling(entry)
									      : offset);
			node_link(node, offset, xa_pool_take(pool, node->shift - XA_CHUNK_SHIFT));
			entry = node->slots[offset];
		}
		node = xa_to_node(entry);
	}
	return node;
}

/* --- lookup ---------------------------------------------------------------- */

/*
 * The entry covering @index, and where it sits: *@nodep (NULL for xa_head
 * or beyond the tree) and *@offsetp, its first slot. On NULL inside the
 * tree, the deepest node on the path and the empty slot. Linux: xas_load.
 */
static void *xas_load(struct xarray *xa, unsigned long index, struct xa_node **nodep,
		      unsigned int *offsetp)
{
	void *entry = xa->xa_head;
	struct xa_node *node = NULL;
	unsigned int offset = 0;

	if (xa_is_node(entry) ? index > xa_shift_max(xa_to_node(entry)->shift) : index != 0)
		entry = NULL;
	while (xa_is_node(entry)) {
		node = xa_to_node(entry);
		offset = node_offset(node, index);
		entry = node->slots[offset];
		if (xa_is_sibling(entry)) {
			offset = xa_to_sibling(entry);
			entry = node->slots[offset];
		}
	}
	*nodep = node;
	*offsetp = offset;
	return entry;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct xa_node *node;
	unsigned int offset;

	return xas_load(xa, index, &node, &offset);
}

unsigned int xa_get_order(struct xarray *xa, unsigned long index)
{
	struct xa_node *node;
	unsigned int offset;
	void *entry = xas_load(xa, index, &node, &offset);

	return entry && node ? node_entry_order(node, offset) : 0;
}

/* --- store and erase ------------------------------------------------------- */

/* Remove all, for a range that covers the whole tree. Return: the
 * first entry. */
static void *xas_erase_all(struct xarray *xa)
{
	void *first = xa->xa_head;

	if (xa_is_node(first))
		first = xa_first_entry(xa_to_node(first));
	xa_destroy(xa);
	return first;
}

/*
 * Remove whatever covers an index of the aligned range [@index, @index +
 * 2^@order) (Linux: xas_store of NULL). Return: the first entry removed.
 */
static void *xas_erase_range(struct xarray *xa, unsigned long index, unsigned int order)
{
	unsigned int shift = order - order % XA_CHUNK_SHIFT;
	struct xa_node *node = xa_is_node(xa->xa_head) ? xa_to_node(xa->xa_head) : NULL;
	void *old = NULL;

	/* A tree no wider than the range is inside it iff the range starts at 0. */
	if (!node || node->shift < shift)
		return index ? NULL : xas_erase_all(xa);
	if (index > xa_shift_max(node->shift))
		return NULL;
	while (node->shift > shift && !old) {
		unsigned int offset = node_offset(node, index);
		void *entry = node->slots[offset];

		if (!entry)
			return NULL;
		if (!xa_is_node(entry))
			old = node_remove(node,
					  xa_is_sibling(entry) ? xa_to_sibling(entry) : offset);
		else
			node = xa_to_node(entry);
	}
	if (!old)
		old = node_clear_range(node, node_offset(node, index), 1u << (order - shift));
	xas_fixup(xa, node);
	return old;
}

/*
 * Store non-NULL @entry of @order at aligned @index. Every node is had
 * before anything changes: the tree is grown at the top (undone by
 * xas_shrink on failure), then the path's nodes are allocated into a pool.
 * Return: the first old entry, NULL, or -ENOMEM (nothing changed).
 */
static void *xas_store(struct xarray *xa, unsigned long index, unsigned int order, void *entry,
		       gfp_t gfp)
{
	unsigned int shift = order - order % XA_CHUNK_SHIFT, nr = 1u << (order - shift);
	unsigned int top = xas_top_shift(xa, index | ((1ul << order) - 1), shift);
	struct xa_pool pool;
	struct xa_node *node;
	void *old = NULL, *below;

	if (xas_expand(xa, top, gfp) ||
	    xa_pool_fill(&pool, xa, xas_nodes_needed(xa, index, shift, top), gfp)) {
		xas_shrink(xa);
		return xa_mk_err(-ENOMEM);
	}
	node = xas_create(xa, index, shift, top, &pool, &old);
	xa_pool_drain(&pool);
	below = node_clear_range(node, node_offset(node, index), nr);
	node_store(node, node_offset(node, index), nr, entry);
	xas_update_marks(xa, node);
	xas_shrink(xa); /* a large entry replaced by a path of nodes may leave slot 0 alone */
	return old ? old : below;
}

/*
 * The marks a store keeps: Linux's xas_store keeps the marks of what it
 * overwrites; Folium keeps them only when an order-0 entry replaces an
 * order-0 entry at the same index (xa_store's common case). A store of
 * order >= 1, or one that splits a multi-index entry away, starts clean.
 * Return: a bit per mark.
 */
static unsigned int xas_kept_marks(struct xarray *xa, unsigned long index, unsigned int order)
{
	unsigned int marks = 0;

	if (order || !xa_load(xa, index) || xa_get_order(xa, index))
		return 0;
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
		if (xa_get_mark(xa, index, mark))
			marks |= 1u << mark;
	return marks;
}

/* A misaligned @index is rounded down to the order, as Linux's
 * XA_STATE_ORDER does. */
void *xa_store_order(struct xarray *xa, unsigned long index, unsigned int order, void *entry,
		     gfp_t gfp)
{
	unsigned int marks;
	void *old;

	if (xa_is_internal(entry) || order >= BITS_PER_LONG)
		return xa_mk_err(-EINVAL);
	index &= ~((1ul << order) - 1);
	if (!entry)
		return xas_erase_range(xa, index, order);
	if (!order && !index && !xa_is_node(xa->xa_head)) {
		/* the lone entry at 0: same index and order, xa_flags stay */
		old = xa->xa_head;
		xa->xa_head = entry;
		return old;
	}
	marks = xas_kept_marks(xa, index, order);
	old = xas_store(xa, index, order, entry, gfp);
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS && !xa_is_err(old); mark++)
		if (marks & (1u << mark))
			xa_set_mark(xa, index, mark);
	return old;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	return xa_store_order(xa, index, 0, entry, gfp);
}

/* --- split ------------------------------------------------------------------ */

/* Nodes in a full subtree whose top node has @shift. */
static unsigned long subtree_nodes(unsigned int shift)
{
	return shift ? 1 + XA_CHUNK_SIZE * subtree_nodes(shift - XA_CHUNK_SHIFT) : 1;
}

static struct xa_node *split_subtree(struct xa_node **pool, unsigned int shift, void *entry,
				     unsigned int marks);

/* Fill slot @i of @node for a split, with @marks (a bit per mark): @entry
 * itself in a node of shift 0, else a full subtree of it from @pool. The
 * caller counts the slot in node->count. */
static void split_fill_slot(struct xa_node *node, unsigned int i, struct xa_node **pool,
			    void *entry, unsigned int marks)
{
	if (node->shift) {
		struct xa_node *child =
			split_subtree(pool, node->shift - XA_CHUNK_SHIFT, entry, marks);

		child->parent = node;
		child->offset = (unsigned char)i;
		node->slots[i] = xa_mk_node(child);
	} else {
		node->slots[i] = entry;
		node->nr_values += xa_is_value(entry);
	}
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
		if (marks & (1u << mark))
			node_set_mark(node, i, mark);
}

/* A full subtree of @shift from @pool (a list through ->parent), every
 * index holding @entry with @marks. */
static struct xa_node *split_subtree(struct xa_node **pool, unsigned int shift, void *entry,
				     unsigned int marks)
{
	struct xa_node *node = *pool;

	*pool = node->parent;
	node->parent = NULL;
	node->shift = (unsigned char)shift;
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++) {
		split_fill_slot(node, i, pool, entry, marks);
		node->count++;
	}
	return node;
}

int xa_split(struct xarray *xa, unsigned long index, gfp_t gfp)
{
	struct xa_node *node, *pool = NULL;
	unsigned int offset, slots, marks = 0;
	unsigned long need;
	void *entry = xas_load(xa, index, &node, &offset);

	if (!entry)
		return -ENOENT;
	if (!node || xa_get_order(xa, index) == 0)
		return 0;
	/* Every node first (Linux: xas_split_alloc), so a failure changes
	 * nothing. */
	slots = node_entry_slots(node, offset);
	need = node->shift ? slots * subtree_nodes(node->shift - XA_CHUNK_SHIFT) : 0;
	for (unsigned long i = 0; i < need; i++) {
		struct xa_node *n = xa_node_alloc(xa, 0, gfp);

		if (!n) {
			while (pool) {
				n = pool;
				pool = pool->parent;
				xa_node_free(n);
			}
			return -ENOMEM;
		}
		n->parent = pool;
		pool = n;
	}
	for (xa_mark_t mark = 0; mark < XA_MAX_MARKS; mark++)
		if (node_get_mark(node, offset, mark))
			marks |= 1u << mark;
	/* The slots stay full (node->count holds): the entry and its
	 * siblings give way to one entry, or one subtree, per slot, each
	 * counting its own value entries. */
	node->nr_values -= xa_is_value(entry);
	for (unsigned int i = 0; i < slots; i++)
		split_fill_slot(node, offset + i, &pool, entry, marks);
	xas_update_marks(xa, node);
	return 0;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	struct xa_node *node;
	unsigned int offset;
	void *entry = xas_load(xa, index, &node, &offset);

	if (!entry)
		return NULL;
	if (!node) {
		xa->xa_head = NULL;
		xa->xa_flags &= ~XA_FLAGS_MARKS;
		return entry;
	}
	node_remove(node, offset);
	xas_fixup(xa, node);
	return entry;
}

void xa_destroy(struct xarray *xa)
{
	if (xa_is_node(xa->xa_head))
		xas_free_nodes(xa_to_node(xa->xa_head));
	xa->xa_head = NULL;
	xa->xa_flags &= ~XA_FLAGS_MARKS;
}

/* --- marks ----------------------------------------------------------------- */

bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	struct xa_node *node;
	unsigned int offset;
	void *entry = xas_load(xa, index, &node, &offset);

	if (!entry || mark > XA_MARK_MAX)
		return false;
	return node ? node_get_mark(node, offset, mark) : xa_marked(xa, mark);
}

/* Set or clear @mark on the entry covering @index, then up the path. */
static void xas_mark(struct xarray *xa, unsigned long index, xa_mark_t mark, bool set)
{
	struct xa_node *node;
	unsigned int offset;
	void *entry = xas_load(xa, index, &node, &offset);

	if (!entry || mark > XA_MARK_MAX)
		return;
	if (!node) {
		/* the lone head entry keeps its marks in xa_flags only */
		if (set)
			xa->xa_flags |= XA_FLAGS_MARK(mark);
		else
			xa->xa_flags &= ~XA_FLAGS_MARK(mark);
		return;
	}
	if (set)
		node_set_mark(node, offset, mark);
	else
		node_clear_mark(node, offset, mark);
	xas_update_mark(xa, node, mark);
}

void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	xas_mark(xa, index, mark, true);
}

void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	xas_mark(xa, index, mark, false);
}

/* --- find ------------------------------------------------------------------ */

static bool xa_filter_valid(xa_mark_t filter)
{
	return filter == XA_PRESENT || filter <= XA_MARK_MAX;
}

static bool slot_matches(const struct xa_node *node, unsigned int offset, xa_mark_t filter)
{
	return filter == XA_PRESENT || node_get_mark(node, offset, filter);
}

/*
 * The first slot at or after @offset that may hold a match: for a mark,
 * a marked one (an unmarked subtree is skipped whole); for XA_PRESENT,
 * any entry or node (a sibling belongs to the entry before it).
 * Return: XA_CHUNK_SIZE if none.
 */
static unsigned int node_next(const struct xa_node *node, unsigned int offset, xa_mark_t filter)
{
	if (filter != XA_PRESENT) {
		unsigned long bits = offset < XA_CHUNK_SIZE ? node->marks[filter][0] >> offset : 0;

		return bits ? offset + (unsigned int)__builtin_ctzl(bits) : XA_CHUNK_SIZE;
	}
	while (offset < XA_CHUNK_SIZE &&
	       (!node->slots[offset] || xa_is_sibling(node->slots[offset])))
		offset++;
	return offset;
}

/*
 * Scan on from slot @offset of @node (on @index's path), climbing up
 * when a node is done and down into a node that may match (Linux:
 * xas_find_marked). Indices only grow, so the first one past @max ends it.
 */
static void *xas_find_next(struct xa_node *node, unsigned int offset, unsigned long index,
			   unsigned long max, xa_mark_t filter, unsigned long *indexp)
{
	for (;;) {
		void *entry;

		offset = node_next(node, offset, filter);
		if (offset == XA_CHUNK_SIZE) {
			if (!node->parent)
				return NULL;
			offset = node->offset + 1u;
			node = node->parent;
			continue;
		}
		index = node_slot_index(node, index, offset);
		if (index > max)
			return NULL;
		entry = node->slots[offset];
		if (!xa_is_node(entry)) {
			*indexp = index;
			return entry;
		}
		node = xa_to_node(entry);
		offset = 0;
	}
}

void *xa_find(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	struct xa_node *node;
	unsigned int offset;
	void *entry;

	if (*indexp > max || !xa_filter_valid(filter))
		return NULL;
	entry = xas_load(xa, *indexp, &node, &offset);
	if (entry && (node ? slot_matches(node, offset, filter)
			   : filter == XA_PRESENT || xa_marked(xa, filter)))
		return entry; /* it covers *indexp, which stays */
	if (!node)
		return NULL; /* xa_head alone, or beyond the tree: nothing later */
	offset += entry ? node_entry_slots(node, offset) : 1;
	return xas_find_next(node, offset, *indexp, max, filter, indexp);
}

void *xa_find_after(struct xarray *xa, unsigned long *indexp, unsigned long max, xa_mark_t filter)
{
	struct xa_node *node;
	unsigned int offset;
	unsigned long last = *indexp, start;
	void *entry = xas_load(xa, *indexp, &node, &offset);

	if (entry && node)
		last = node_slot_index(node, *indexp, offset) |
		       (((unsigned long)node_entry_slots(node, offset) << node->shift) - 1);
	if (last >= max)
		return NULL; /* also keeps last + 1 from wrapping at ULONG_MAX */
	start = last + 1;
	/* No entry covers start from before it: that one would cover *indexp. */
	entry = xa_find(xa, &start, max, filter);
	if (entry)
		*indexp = start;
	return entry;
}
