/*
 * lib/xarray.c as a specification: edge indices, the tree growing and
 * shrinking back to a lone head entry, multi-index entries of every order
 * 0..12, marks, find and find_after, -ENOMEM with nothing changed, and
 * 2 x 20000 random operations compared with a model array that records
 * which entry covers each index. xa_check() walks the whole tree after
 * each step: counts, siblings, mark bits up the path, a shrunk top, and as
 * many nodes as the node cache has handed out (no leak).
 */
#include <ktest.h>
#include <list.h>
#include <mm.h>
#include <slab.h>
#include <xarray.h>
#include "../../mm/tests/mm_test_util.h"

/* --- fixture: node 0 and the node cache ------------------------------------ */

/* The host has no node 0: each case gets a private one (test_node0_get);
 * the kernel's node 0 is the machine. */
#define NODE0_PAGES MAX_ORDER_NR_PAGES

static struct {
	bool own_node0;	       /* the host's private node 0 (it may be exhausted) */
	unsigned long objects; /* radix_tree_node objects before the case */
} fx;

static unsigned long node_objects(void)
{
	struct kmalloc_stats st;

	kmem_cache_stats(&radix_tree_node_cachep, 0, &st);
	return st.objects;
}

static int xa_test_init(struct kunit *test)
{
	fx.own_node0 = !NODE_DATA(0);
	if (test_node0_get(test, NODE0_PAGES))
		fx.own_node0 = false;
	fx.objects = node_objects();
	return 0;
}

/* Every node back in the cache, every slab page back on node 0. */
static void xa_test_exit(struct kunit *test)
{
	unsigned long objects = node_objects();

	if (objects != fx.objects)
		kunit_fail(test, __FILE__, __LINE__, "%ld xa_nodes leaked",
			   (long)(objects - fx.objects));
	if (!fx.own_node0)
		return;
	/* after a leak the cache's slabs are on pages about to vanish */
	if (objects != fx.objects)
		memset(&radix_tree_node_cachep.node[0], 0, sizeof(radix_tree_node_cachep.node[0]));
	test_node0_put(test);
	fx.own_node0 = false;
}

/* --- the invariant checker ------------------------------------------------- */

/* The slot encoding as xarray.c's header documents it. */
static bool t_is_node(const void *e)
{
	return xa_is_internal(e) && (unsigned long)e > 4096 && !xa_is_err(e);
}

static bool t_is_sibling(const void *e)
{
	return xa_is_internal(e) && (unsigned long)e < (unsigned long)xa_mk_internal(63);
}

static struct xa_node *t_to_node(const void *e)
{
	return (struct xa_node *)((unsigned long)e - 2);
}

static bool t_mark(const struct xa_node *node, unsigned int i, xa_mark_t m)
{
	return (node->marks[m][0] >> i) & 1;
}

struct check {
	const char *why; /* first broken rule, NULL if none */
	unsigned long nodes;
};

static void broken(struct check *c, const char *why)
{
	if (!c->why)
		c->why = why;
}

static void check_node(struct check *c, struct xarray *xa, struct xa_node *node,
		       struct xa_node *parent, unsigned int offset, unsigned int shift);

/* Slot i of node: a sibling continues a run from a user entry, a run is a
 * power of two aligned to itself, a node agrees with its mark bits. */
static void check_slot(struct check *c, struct xarray *xa, struct xa_node *node, unsigned int i)
{
	void *e = node->slots[i];
	unsigned int n = 1;

	for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
		if (t_mark(node, i, m) && (!e || t_is_sibling(e)))
			broken(c, "a mark on an empty slot or a sibling");
	if (!e)
		return;
	if (t_is_sibling(e)) {
		unsigned int t = (unsigned int)xa_to_internal(e);

		if (t >= i || !node->slots[t] || xa_is_internal(node->slots[t]) ||
		    (t + 1 < i && node->slots[i - 1] != e))
			broken(c, "a sibling that does not continue its entry's run");
		return;
	}
	if (t_is_node(e)) {
		if (!node->shift) {
			broken(c, "a node below shift 0");
			return;
		}
		check_node(c, xa, t_to_node(e), node, i, node->shift - XA_CHUNK_SHIFT);
		for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
			if (t_mark(node, i, m) != (t_to_node(e)->marks[m][0] != 0))
				broken(c, "a node's mark bit disagrees with its child");
		return;
	}
	if (xa_is_internal(e))
		broken(c, "an internal entry in a slot");
	while (i + n < XA_CHUNK_SIZE && node->slots[i + n] == xa_mk_internal(i))
		n++;
	if ((n & (n - 1)) || (i & (n - 1)))
		broken(c, "a multi-index run not a power of two or misaligned");
}

static void check_node(struct check *c, struct xarray *xa, struct xa_node *node,
		       struct xa_node *parent, unsigned int offset, unsigned int shift)
{
	unsigned int count = 0, values = 0;

	c->nodes++;
	if (node->parent != parent || node->offset != offset || node->shift != shift ||
	    node->array != xa)
		broken(c, "a node's parent, offset, shift or array is wrong");
	for (unsigned int i = 0; i < XA_CHUNK_SIZE; i++) {
		count += node->slots[i] != NULL;
		values += node->slots[i] && xa_is_value(node->slots[i]);
		check_slot(c, xa, node, i);
	}
	if (count != node->count)
		broken(c, "a node's count is wrong");
	if (values != node->nr_values)
		broken(c, "a node's nr_values is wrong");
	if (!count)
		broken(c, "an empty node left in the tree");
}

/* Return: NULL if the whole tree keeps every rule, else the first broken
 * one; *nodes is the number of nodes in the tree. */
static const char *xa_check(struct xarray *xa, unsigned long *nodes)
{
	struct check c = { 0 };
	struct xa_node *top = t_is_node(xa->xa_head) ? t_to_node(xa->xa_head) : NULL;

	if (top && (top->shift % XA_CHUNK_SHIFT || top->shift > 60))
		broken(&c, "the top's shift is not 0, 6, ..., 60");
	else if (top)
		check_node(&c, xa, top, NULL, 0, top->shift);
	else if (xa_is_internal(xa->xa_head))
		broken(&c, "an internal entry in xa_head");
	for (xa_mark_t m = 0; m < XA_MAX_MARKS; m++)
		if (top ? (top->marks[m][0] != 0) != xa_marked(xa, m)
			: !xa->xa_head && xa_marked(xa, m))
			broken(&c, "xa_flags disagree with the top's marks");
	if (top && top->count == 1 && top->slots[0] && (t_is_node(top->slots[0]) || !top->shift))
		broken(&c, "the top could shrink");
	*nodes = c.nodes;
	return c.why;
}

/* xa_check, and as many nodes in the tree as the cache handed out since
 * the case began (xa the only array holding nodes). */
static const char *xa_problem(struct xarray *xa)
{
	unsigned long nodes;
	const char *why = xa_check(xa, &nodes);

	if (!why && nodes != node_objects() - fx.objects)
		why = "the node cache's objects differ from the nodes in the tree";
	return why;
}

#define EXPECT_XA_OK(test, xa)                                                       \
	do {                                                                         \
		const char *__why = xa_problem(xa);                                  \
		if (__why)                                                           \
			kunit_fail(test, __FILE__, __LINE__, "xa_check: %s", __why); \
	} while (0)

#define EXPECT_PTR_EQ(test, a, b) KUNIT_EXPECT_EQ(test, (unsigned long)(a), (unsigned long)(b))

static long objs[8]; /* entries that are pointers */

/* Entries in [first, last], up to COUNT_MAX (a broken find_after could
 * visit one entry at each of 2^63 indices). */
#define COUNT_MAX 100000u

static unsigned int count_entries(struct xarray *xa, unsigned long first, unsigned long last)
{
	unsigned long index;
	unsigned int n = 0;
	void *entry;

	xa_for_each_range(xa, index, entry, first, last) {
		if (++n == COUNT_MAX)
			break;
	}
	return n;
}

/* --- plain entries ---------------------------------------------------------- */

static void an_empty_array_loads_null_and_finds_nothing(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long index = 0;

	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 0));
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 1));
	KUNIT_EXPECT_NULL(test, xa_load(&xa, ULONG_MAX));
	KUNIT_EXPECT_NULL(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT));
	KUNIT_EXPECT_NULL(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT));
	KUNIT_EXPECT_EQ(test, index, 0);
	KUNIT_EXPECT_NULL(test, xa_erase(&xa, 5));
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, 5), 0);
	xa_set_mark(&xa, 5, XA_MARK_0);
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 5, XA_MARK_0));
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_0));
	xa_destroy(&xa);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
}

static const unsigned long edge_indices[] = { 0, 1, 63, 64, 4095, 1ul << 30, ULONG_MAX };

static void store_load_erase_at_edge_indices(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long index;
	unsigned int i = 0;
	void *entry;

	for (i = 0; i < ARRAY_SIZE(edge_indices); i++) {
		unsigned long idx = edge_indices[i];

		KUNIT_EXPECT_NULL(test, xa_store(&xa, idx, &objs[0], GFP_KERNEL));
		EXPECT_PTR_EQ(test, xa_load(&xa, idx), &objs[0]);
		if (idx)
			KUNIT_EXPECT_NULL(test, xa_load(&xa, idx - 1));
		if (idx != ULONG_MAX)
			KUNIT_EXPECT_NULL(test, xa_load(&xa, idx + 1));
		index = 0;
		EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[0]);
		KUNIT_EXPECT_EQ(test, index, idx);
		EXPECT_XA_OK(test, &xa);
		EXPECT_PTR_EQ(test, xa_erase(&xa, idx), &objs[0]);
		KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
		EXPECT_XA_OK(test, &xa);
	}
	/* all at once: each is its own entry, visited in index order */
	for (i = 0; i < ARRAY_SIZE(edge_indices); i++)
		KUNIT_EXPECT_NULL(test, xa_store(&xa, edge_indices[i], &objs[i], GFP_KERNEL));
	EXPECT_XA_OK(test, &xa);
	i = 0;
	xa_for_each(&xa, index, entry) {
		KUNIT_ASSERT_LT(test, i, ARRAY_SIZE(edge_indices));
		KUNIT_EXPECT_EQ(test, index, edge_indices[i]);
		EXPECT_PTR_EQ(test, entry, &objs[i]);
		i++;
	}
	KUNIT_EXPECT_EQ(test, i, ARRAY_SIZE(edge_indices));
	while (i--) {
		EXPECT_PTR_EQ(test, xa_erase(&xa, edge_indices[i]), &objs[i]);
		EXPECT_XA_OK(test, &xa);
	}
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
}

/* Erasing all but index 0 leaves xa_head holding the entry itself again;
 * erasing that empties the array and frees every node. */
static void the_tree_shrinks_back_to_a_lone_head_entry(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	void *zero = xa_mk_value(7);

	KUNIT_EXPECT_NULL(test, xa_store(&xa, 0, zero, GFP_KERNEL));
	EXPECT_PTR_EQ(test, xa.xa_head, zero);
	xa_store(&xa, 4096, &objs[1], GFP_KERNEL);
	xa_store(&xa, ULONG_MAX, &objs[2], GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, xa_is_internal(xa.xa_head));
	xa_erase(&xa, ULONG_MAX);
	EXPECT_XA_OK(test, &xa); /* the top is checked to be shrunk */
	KUNIT_EXPECT_TRUE(test, xa_is_internal(xa.xa_head));
	xa_erase(&xa, 4096);
	EXPECT_PTR_EQ(test, xa.xa_head, zero);
	KUNIT_EXPECT_EQ(test, node_objects(), fx.objects);
	/* a one-level tree too */
	xa_store(&xa, 63, &objs[1], GFP_KERNEL);
	xa_store(&xa, 64, &objs[2], GFP_KERNEL);
	xa_erase(&xa, 64);
	EXPECT_XA_OK(test, &xa);
	xa_erase(&xa, 63);
	EXPECT_PTR_EQ(test, xa.xa_head, zero);
	EXPECT_PTR_EQ(test, xa_erase(&xa, 0), zero);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	/* an order-6 entry at 0 keeps its node: xa_head holds order 0 only */
	xa_store_order(&xa, 0, 6, zero, GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, xa_is_internal(xa.xa_head));
	EXPECT_XA_OK(test, &xa);
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, 0), 6);
	xa_erase(&xa, 63);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	EXPECT_XA_OK(test, &xa);
}

static void value_entries_and_pointers_round_trip(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long big = (ULONG_MAX >> 1) - 1; /* LONG_MAX - 1 */

	xa_store(&xa, 10, xa_mk_value(0), GFP_KERNEL); /* value 0 is not NULL */
	xa_store(&xa, 11, xa_mk_value(big), GFP_KERNEL);
	xa_store(&xa, 12, &objs[3], GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, xa_is_value(xa_load(&xa, 10)));
	KUNIT_EXPECT_EQ(test, xa_to_value(xa_load(&xa, 10)), 0);
	KUNIT_EXPECT_EQ(test, xa_to_value(xa_load(&xa, 11)), big);
	KUNIT_EXPECT_FALSE(test, xa_is_value(xa_load(&xa, 12)));
	EXPECT_PTR_EQ(test, xa_load(&xa, 12), &objs[3]);
	EXPECT_XA_OK(test, &xa); /* nr_values == 2 */
	EXPECT_PTR_EQ(test, xa_erase(&xa, 10), xa_mk_value(0));
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

static void an_internal_entry_is_refused_with_einval(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	void *r;

	xa_store(&xa, 3, &objs[0], GFP_KERNEL);
	r = xa_store(&xa, 3, xa_mk_internal(5), GFP_KERNEL); /* looks like a sibling */
	KUNIT_EXPECT_TRUE(test, xa_is_err(r));
	KUNIT_EXPECT_EQ(test, xa_err(r), -EINVAL);
	r = xa_store(&xa, 300, xa_mk_internal(2000), GFP_KERNEL); /* looks like a node */
	KUNIT_EXPECT_EQ(test, xa_err(r), -EINVAL);
	r = xa_store_order(&xa, 64, 3, xa_mk_internal(1), GFP_KERNEL);
	KUNIT_EXPECT_EQ(test, xa_err(r), -EINVAL);
	EXPECT_PTR_EQ(test, xa_load(&xa, 3), &objs[0]);
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 300));
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 64));
	KUNIT_EXPECT_EQ(test, xa_err(&objs[0]), 0);
	KUNIT_EXPECT_EQ(test, xa_err(NULL), 0);
	KUNIT_EXPECT_FALSE(test, xa_is_err(xa_mk_value(ULONG_MAX >> 1)));
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

static void a_store_returns_the_old_entry_and_null_erases(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;

	KUNIT_EXPECT_NULL(test, xa_store(&xa, 100, &objs[0], GFP_KERNEL));
	EXPECT_PTR_EQ(test, xa_store(&xa, 100, &objs[1], GFP_KERNEL), &objs[0]);
	EXPECT_PTR_EQ(test, xa_store(&xa, 100, NULL, GFP_KERNEL), &objs[1]);
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 100));
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	/* NULL over a range: every entry in it goes, the first is returned */
	xa_store(&xa, 64, &objs[2], GFP_KERNEL);
	xa_store(&xa, 70, &objs[3], GFP_KERNEL);
	xa_store(&xa, 72, &objs[4], GFP_KERNEL);
	EXPECT_PTR_EQ(test, xa_store_order(&xa, 64, 3, NULL, GFP_KERNEL), &objs[2]);
	KUNIT_EXPECT_NULL(test, xa_load(&xa, 70));
	EXPECT_PTR_EQ(test, xa_load(&xa, 72), &objs[4]);
	EXPECT_XA_OK(test, &xa);
	/* NULL over a range wider than the whole tree */
	EXPECT_PTR_EQ(test, xa_store_order(&xa, 0, 20, NULL, GFP_KERNEL), &objs[4]);
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	EXPECT_XA_OK(test, &xa);
}

/*
 * With every page of (the private) node 0 taken, a store that needs
 * nodes fails with -ENOMEM and leaves the array as it was: when even the
 * growth at the top fails, when the growth succeeds but the path below
 * cannot be had, and from a lone head entry. One needing no node works.
 */
static void a_failed_allocation_returns_enomem_and_changes_nothing(struct kunit *test)
{
	const gfp_t nomem = GFP_NOWAIT | __GFP_NOWARN;
	struct xarray xa = XARRAY_INIT, lone = XARRAY_INIT;
	struct list_head taken = LIST_HEAD_INIT(taken);
	unsigned long per_slab = PAGE_SIZE / ALIGN_UP(sizeof(struct xa_node), 16ul), spare;
	unsigned long far[] = { ULONG_MAX, 0, 1ul << 40 };
	struct kmalloc_stats st;
	struct page *page, *next;
	void *head;

	if (!fx.own_node0) {
		kunit_mark_skipped(test, "exhausting node 0 needs the host's private node 0");
		return;
	}
	xa_store(&xa, 0, &objs[0], GFP_KERNEL);
	xa_store(&xa, 1, &objs[1], GFP_KERNEL);
	xa_store(&xa, 200, &objs[2], GFP_KERNEL);
	xa_store_order(&xa, 4096, 12, &objs[6], GFP_KERNEL);
	xa_store(&lone, 0, &objs[3], GFP_KERNEL);
	kmem_cache_stats(&radix_tree_node_cachep, 0, &st);
	spare = st.slab_pages * per_slab - st.objects; /* free objects in the slab */
	KUNIT_ASSERT_TRUE(test, spare >= 1 && spare <= 9);
	while ((page = alloc_pages_node(0, GFP_ATOMIC | __GFP_NOWARN, 0)))
		list_add(&page->lru, &taken);
	head = xa.xa_head;
	/* 1 << 6 * (spare + 1): growing to that shift takes the spare
	 * nodes, the path down needs spare + 1 more */
	far[1] = 1ul << (6 * (spare + 1));
	for (unsigned int i = 0; i < ARRAY_SIZE(far); i++) {
		unsigned long idx = far[i];

		KUNIT_EXPECT_EQ(test, xa_err(xa_store(&xa, idx, &objs[4], nomem)), -ENOMEM);
		KUNIT_EXPECT_TRUE(test, xa.xa_head == head);
		KUNIT_EXPECT_NULL(test, xa_load(&xa, idx));
		EXPECT_PTR_EQ(test, xa_load(&xa, 200), &objs[2]);
		KUNIT_EXPECT_EQ(test, node_objects(), st.objects);
		KUNIT_EXPECT_TRUE(test, xa_check(&xa, &(unsigned long){ 0 }) == NULL);
	}
	KUNIT_EXPECT_EQ(test, xa_err(xa_store_order(&lone, 1ul << 30, 9, &objs[4], nomem)),
			-ENOMEM);
	EXPECT_PTR_EQ(test, lone.xa_head, &objs[3]);
	KUNIT_EXPECT_EQ(test, node_objects(), st.objects);
	/* splitting an order-12 entry takes 65 nodes: none, and nothing changes */
	KUNIT_EXPECT_EQ(test, xa_split(&xa, 4096 + 5, nomem), -ENOMEM);
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, 4096 + 5), 12);
	KUNIT_EXPECT_EQ(test, node_objects(), st.objects);
	/* a store into an existing node allocates nothing */
	KUNIT_EXPECT_NULL(test, xa_store(&xa, 2, &objs[5], nomem));
	EXPECT_PTR_EQ(test, xa_erase(&xa, 2), &objs[5]);
	list_for_each_entry_safe(page, next, &taken, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
	}
	KUNIT_EXPECT_NULL(test, xa_store(&xa, ULONG_MAX, &objs[4], GFP_KERNEL));
	EXPECT_PTR_EQ(test, xa_load(&xa, ULONG_MAX), &objs[4]);
	xa_destroy(&lone);
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

/* --- multi-index entries ------------------------------------------------------ */

/* One entry of order at first, order-0 neighbours just outside it. */
static void check_one_multi_index_entry(struct kunit *test, unsigned int order, unsigned long first)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long last = first + ((1ul << order) - 1), mid = first + (1ul << order) / 2;
	unsigned long index;
	void *e = &objs[0], *entry;
	unsigned int seen = 0;

	if (first)
		xa_store(&xa, first - 1, &objs[1], GFP_KERNEL);
	if (last != ULONG_MAX)
		xa_store(&xa, last + 1, &objs[2], GFP_KERNEL);
	KUNIT_EXPECT_NULL(test, xa_store_order(&xa, first, order, e, GFP_KERNEL));
	EXPECT_XA_OK(test, &xa);
	EXPECT_PTR_EQ(test, xa_load(&xa, first), e);
	EXPECT_PTR_EQ(test, xa_load(&xa, mid), e);
	EXPECT_PTR_EQ(test, xa_load(&xa, last), e);
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, first), order);
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, last), order);
	if (first)
		EXPECT_PTR_EQ(test, xa_load(&xa, first - 1), &objs[1]);
	if (last != ULONG_MAX)
		EXPECT_PTR_EQ(test, xa_load(&xa, last + 1), &objs[2]);
	xa_for_each(&xa, index, entry) {
		if (entry == e && ++seen > 1)
			break;
		if (entry == e)
			KUNIT_EXPECT_EQ(test, index, first);
	}
	KUNIT_EXPECT_EQ(test, seen, 1);
	index = mid; /* found from inside, the index stays */
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), e);
	KUNIT_EXPECT_EQ(test, index, mid);
	/* find_after from inside skips the rest of it */
	EXPECT_PTR_EQ(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT),
		      last == ULONG_MAX ? NULL : &objs[2]);
	KUNIT_EXPECT_EQ(test, index, last == ULONG_MAX ? mid : last + 1);
	if (first) {
		index = first - 1;
		EXPECT_PTR_EQ(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT), e);
		KUNIT_EXPECT_EQ(test, index, first);
	}
	/* erased from the middle: all of it */
	EXPECT_PTR_EQ(test, xa_erase(&xa, mid), e);
	KUNIT_EXPECT_NULL(test, xa_load(&xa, first));
	KUNIT_EXPECT_NULL(test, xa_load(&xa, last));
	KUNIT_EXPECT_EQ(test, count_entries(&xa, 0, ULONG_MAX), (first != 0) + (last != ULONG_MAX));
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

static void multi_index_entries_of_orders_0_to_12_cover_exactly_their_range(struct kunit *test)
{
	for (unsigned int order = 0; order <= 12; order++) {
		unsigned long size = 1ul << order;
		const unsigned long firsts[] = { 0, size, 5 * size, 1ul << 30,
						 (ULONG_MAX >> order) << order };

		for (unsigned int i = 0; i < ARRAY_SIZE(firsts); i++)
			check_one_multi_index_entry(test, order, firsts[i]);
	}
}

/* Orders past a page cache's, up to half the index space. */
static void large_orders_reach_both_ends_of_the_index_space(struct kunit *test)
{
	static const unsigned int orders[] = { 13, 18, 30, 45, 58, 59, 60, 61, 63 };

	for (unsigned int i = 0; i < ARRAY_SIZE(orders); i++) {
		check_one_multi_index_entry(test, orders[i], 0);
		check_one_multi_index_entry(test, orders[i], (ULONG_MAX >> orders[i]) << orders[i]);
	}
}

/* As Linux's XA_STATE_ORDER: the index is rounded down to the order. */
static void an_unaligned_index_rounds_down_and_order_64_is_refused(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long index = 0;

	KUNIT_EXPECT_NULL(test, xa_store_order(&xa, 7, 2, &objs[0], GFP_KERNEL));
	EXPECT_PTR_EQ(test, xa_load(&xa, 4), &objs[0]);
	KUNIT_EXPECT_EQ(test, xa_get_order(&xa, 5), 2);
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[0]);
	KUNIT_EXPECT_EQ(test, index, 4);
	KUNIT_EXPECT_EQ(test, xa_err(xa_store_order(&xa, 0, 64, &objs[1], GFP_KERNEL)), -EINVAL);
	EXPECT_PTR_EQ(test, xa_load(&xa, 4), &objs[0]);
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

/* Smaller entries inside the range go (subtrees freed), the lowest is
 * returned; then a store over part of that larger entry removes it whole. */
static void a_store_over_a_range_removes_what_covered_it(struct kunit *test)
{
	for (unsigned int order = 2; order <= 12; order++) {
		unsigned long size = 1ul << order;
		const unsigned long firsts[] = { 0, 3 * size, (ULONG_MAX >> order) << order };

		for (unsigned int i = 0; i < ARRAY_SIZE(firsts); i++) {
			struct xarray xa = XARRAY_INIT;
			unsigned long first = firsts[i];
			unsigned long outside = first + size ? first + size : first - 1;

			xa_store(&xa, first + 1, &objs[1], GFP_KERNEL);
			xa_store_order(&xa, first + size / 2, order - 1, &objs[2], GFP_KERNEL);
			xa_store(&xa, outside, &objs[3], GFP_KERNEL);
			EXPECT_PTR_EQ(test, xa_store_order(&xa, first, order, &objs[0], GFP_KERNEL),
				      &objs[1]);
			EXPECT_PTR_EQ(test, xa_load(&xa, first + size / 2), &objs[0]);
			KUNIT_EXPECT_EQ(test, xa_get_order(&xa, first + 1), order);
			KUNIT_EXPECT_EQ(test, count_entries(&xa, first, first + size - 1), 1);
			EXPECT_PTR_EQ(test, xa_load(&xa, outside), &objs[3]);
			EXPECT_XA_OK(test, &xa);
			/* the upper half of the order-`order` entry goes with it */
			EXPECT_PTR_EQ(test,
				      xa_store_order(&xa, first, order - 1, &objs[4], GFP_KERNEL),
				      &objs[0]);
			KUNIT_EXPECT_NULL(test, xa_load(&xa, first + size / 2));
			KUNIT_EXPECT_EQ(test, xa_get_order(&xa, first), order - 1);
			EXPECT_XA_OK(test, &xa);
			xa_destroy(&xa);
		}
	}
}

static void an_order_0_store_inside_a_multi_index_entry_splits_it_away(struct kunit *test)
{
	for (unsigned int order = 1; order <= 12; order++) {
		struct xarray xa = XARRAY_INIT;
		unsigned long size = 1ul << order, first = 3 * size, mid = first + size / 2;

		xa_store_order(&xa, first, order, &objs[0], GFP_KERNEL);
		xa_set_mark(&xa, first, XA_MARK_0);
		EXPECT_PTR_EQ(test, xa_store(&xa, mid, &objs[1], GFP_KERNEL), &objs[0]);
		EXPECT_PTR_EQ(test, xa_load(&xa, mid), &objs[1]);
		KUNIT_EXPECT_NULL(test, xa_load(&xa, first));
		KUNIT_EXPECT_NULL(test, xa_load(&xa, mid - 1));
		KUNIT_EXPECT_EQ(test, xa_get_order(&xa, mid), 0);
		KUNIT_EXPECT_EQ(test, count_entries(&xa, 0, ULONG_MAX), 1);
		/* a new shape starts without marks */
		KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, mid, XA_MARK_0));
		KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_0));
		EXPECT_XA_OK(test, &xa);
		xa_destroy(&xa);
	}
}

/* xa_split: every order, a pointer or a value entry, marked: each index
 * then holds the entry at order 0 with the marks, the tree is sound, and
 * storing another entry at every index allocates no node (the page
 * cache's split of a large folio). Nothing to split: -ENOENT, and 0 for
 * an order-0 entry. */
static void split_makes_order_0_entries_and_later_stores_allocate_nothing(struct kunit *test)
{
	for (unsigned int order = 1; order <= 12; order++) {
		struct xarray xa = XARRAY_INIT;
		unsigned long size = 1ul << order, first = 3 * size, nodes;
		void *entry = order & 1 ? (void *)&objs[0] : xa_mk_value(order);

		xa_store(&xa, first - 1, &objs[2], GFP_KERNEL);
		xa_store_order(&xa, first, order, entry, GFP_KERNEL);
		xa_set_mark(&xa, first, XA_MARK_1);
		KUNIT_EXPECT_EQ(test, xa_split(&xa, first + 1, GFP_KERNEL), 0);
		EXPECT_XA_OK(test, &xa);
		KUNIT_EXPECT_EQ(test, count_entries(&xa, 0, ULONG_MAX), size + 1);
		for (unsigned long i = 0; i < size; i++) {
			if (xa_load(&xa, first + i) != entry || xa_get_order(&xa, first + i) ||
			    !xa_get_mark(&xa, first + i, XA_MARK_1)) {
				kunit_fail(test, __FILE__, __LINE__, "order %u: index +%lu", order,
					   i);
				break;
			}
		}
		KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, first - 1, XA_MARK_1));
		nodes = node_objects();
		for (unsigned long i = 0; i < size; i++)
			xa_store(&xa, first + i, &objs[1], GFP_NOWAIT);
		KUNIT_EXPECT_EQ(test, node_objects(), nodes);
		EXPECT_PTR_EQ(test, xa_load(&xa, first + size - 1), &objs[1]);
		KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, first + size - 1, XA_MARK_1));
		EXPECT_XA_OK(test, &xa);
		KUNIT_EXPECT_EQ(test, xa_split(&xa, first, GFP_KERNEL), 0); /* order 0 now */
		KUNIT_EXPECT_EQ(test, xa_split(&xa, first + size, GFP_KERNEL), -ENOENT);
		for (unsigned long i = 0; i < size; i++)
			xa_erase(&xa, first + i);
		xa_erase(&xa, first - 1);
		KUNIT_EXPECT_NULL(test, xa.xa_head);
	}
}

/* --- marks ------------------------------------------------------------------ */

static void marks_are_set_read_and_cleared_from_any_index_of_an_entry(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;

	xa_store(&xa, 5, &objs[0], GFP_KERNEL);
	xa_store_order(&xa, 32, 4, &objs[1], GFP_KERNEL);
	xa_store(&xa, ULONG_MAX, &objs[2], GFP_KERNEL);
	xa_set_mark(&xa, 5, XA_MARK_0);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 5, XA_MARK_0));
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 5, XA_MARK_1));
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 6, XA_MARK_0));
	KUNIT_EXPECT_TRUE(test, xa_marked(&xa, XA_MARK_0));
	xa_set_mark(&xa, 40, XA_MARK_1); /* the middle of 32..47 */
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 32, XA_MARK_1));
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 47, XA_MARK_1));
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 48, XA_MARK_1));
	xa_set_mark(&xa, ULONG_MAX, XA_MARK_2);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, ULONG_MAX, XA_MARK_2));
	EXPECT_XA_OK(test, &xa);
	xa_set_mark(&xa, 1000, XA_MARK_2); /* no entry: nothing */
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 1000, XA_MARK_2));
	xa_clear_mark(&xa, 47, XA_MARK_1);
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 32, XA_MARK_1));
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_1));
	xa_clear_mark(&xa, 5, XA_MARK_0);
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_0));
	xa_clear_mark(&xa, ULONG_MAX, XA_MARK_2);
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_2));
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

#define NR_SPREAD 200
#define NR_MULTI 10

static void for_each_marked_visits_exactly_the_marked_entries_in_order(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	static unsigned long idx[NR_SPREAD + NR_MULTI];
	unsigned long index;
	unsigned int i, n;
	void *entry;

	for (i = 0; i < NR_SPREAD + NR_MULTI; i++) {
		/* 0, 97, ...: all levels of a small tree; then orders 0..9 far up */
		idx[i] = i < NR_SPREAD ? i * 97ul : (1ul << 20) + ((i - NR_SPREAD) << 10);
		xa_store_order(&xa, idx[i], i < NR_SPREAD ? 0 : i - NR_SPREAD, xa_mk_value(i),
			       GFP_KERNEL);
		if (i % 3 == 0) /* through the last index of a multi-index entry */
			xa_set_mark(&xa,
				    idx[i] + (i < NR_SPREAD ? 0 : (1ul << (i - NR_SPREAD)) - 1),
				    XA_MARK_1);
	}
	EXPECT_XA_OK(test, &xa);
	n = 0;
	xa_for_each_marked(&xa, index, entry, XA_MARK_1) {
		KUNIT_ASSERT_LT(test, 3 * n, NR_SPREAD + NR_MULTI);
		KUNIT_EXPECT_EQ(test, index, idx[3 * n]);
		KUNIT_EXPECT_EQ(test, xa_to_value(entry), 3 * n);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, (NR_SPREAD + NR_MULTI + 2) / 3);
	n = 0;
	xa_for_each(&xa, index, entry) {
		KUNIT_ASSERT_LT(test, n, NR_SPREAD + NR_MULTI);
		KUNIT_EXPECT_EQ(test, index, idx[n]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, NR_SPREAD + NR_MULTI);
	index = 0;
	KUNIT_EXPECT_NULL(test, xa_find(&xa, &index, ULONG_MAX, XA_MARK_2));
	xa_destroy(&xa);
}

/* Marks go with erase; xa_store of order 0 over an order-0 entry keeps
 * them; a store of order >= 1 starts clean, even over the same shape. */
static void marks_vanish_with_erase_and_survive_an_order_0_replacement(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;

	xa_store(&xa, 70, &objs[0], GFP_KERNEL);
	xa_set_mark(&xa, 70, XA_MARK_0);
	xa_set_mark(&xa, 70, XA_MARK_2);
	EXPECT_PTR_EQ(test, xa_store(&xa, 70, &objs[1], GFP_KERNEL), &objs[0]);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 70, XA_MARK_0));
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 70, XA_MARK_2));
	EXPECT_PTR_EQ(test, xa_store_order(&xa, 64, 3, &objs[2], GFP_KERNEL), &objs[1]);
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 70, XA_MARK_0));
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_2));
	xa_set_mark(&xa, 64, XA_MARK_1);
	xa_store_order(&xa, 64, 3, &objs[3], GFP_KERNEL);
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 64, XA_MARK_1));
	xa_set_mark(&xa, 71, XA_MARK_1);
	EXPECT_XA_OK(test, &xa);
	EXPECT_PTR_EQ(test, xa_erase(&xa, 66), &objs[3]);
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_1));
	xa_store(&xa, 70, &objs[0], GFP_KERNEL);
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 70, XA_MARK_1));
	xa_set_mark(&xa, 70, XA_MARK_1);
	xa_store(&xa, 70, NULL, GFP_KERNEL);
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_1));
	KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
	EXPECT_XA_OK(test, &xa);
}

/* The lone entry at 0 keeps its marks in xa_flags, through growth and
 * shrinking. */
static void a_head_entry_keeps_its_marks_through_growth_and_shrinking(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;

	xa_store(&xa, 0, &objs[0], GFP_KERNEL);
	xa_set_mark(&xa, 0, XA_MARK_2);
	KUNIT_EXPECT_TRUE(test, xa_marked(&xa, XA_MARK_2));
	xa_store(&xa, 100, &objs[1], GFP_KERNEL);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 0, XA_MARK_2));
	KUNIT_EXPECT_FALSE(test, xa_get_mark(&xa, 100, XA_MARK_2));
	EXPECT_XA_OK(test, &xa);
	xa_erase(&xa, 100);
	EXPECT_PTR_EQ(test, xa.xa_head, &objs[0]);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 0, XA_MARK_2));
	EXPECT_PTR_EQ(test, xa_store(&xa, 0, &objs[2], GFP_KERNEL), &objs[0]);
	KUNIT_EXPECT_TRUE(test, xa_get_mark(&xa, 0, XA_MARK_2));
	xa_erase(&xa, 0);
	KUNIT_EXPECT_FALSE(test, xa_marked(&xa, XA_MARK_2));
	EXPECT_XA_OK(test, &xa);
}

/* --- find -------------------------------------------------------------------- */

static void find_and_find_after_stop_at_max_and_never_wrap(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long index, top = (ULONG_MAX >> 9) << 9;
	unsigned int n = 0;
	void *entry;

	xa_store(&xa, 0, &objs[0], GFP_KERNEL);
	xa_store(&xa, 10, &objs[1], GFP_KERNEL);
	xa_store(&xa, ULONG_MAX, &objs[2], GFP_KERNEL);
	xa_set_mark(&xa, 10, XA_MARK_0);
	index = 5;
	KUNIT_EXPECT_NULL(test, xa_find(&xa, &index, 9, XA_PRESENT));
	KUNIT_EXPECT_EQ(test, index, 5);
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, 10, XA_PRESENT), &objs[1]);
	KUNIT_EXPECT_EQ(test, index, 10);
	index = 20;
	KUNIT_EXPECT_NULL(test, xa_find(&xa, &index, 10, XA_PRESENT)); /* *indexp > max */
	index = 10;
	KUNIT_EXPECT_NULL(test, xa_find_after(&xa, &index, 10, XA_PRESENT));
	EXPECT_PTR_EQ(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[2]);
	KUNIT_EXPECT_EQ(test, index, ULONG_MAX);
	KUNIT_EXPECT_NULL(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT));
	KUNIT_EXPECT_EQ(test, index, ULONG_MAX);
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[2]);
	index = 0; /* a mark filter skips the unmarked entry at 0 */
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_MARK_0), &objs[1]);
	KUNIT_EXPECT_EQ(test, index, 10);
	KUNIT_EXPECT_NULL(test, xa_find_after(&xa, &index, ULONG_MAX, XA_MARK_0));
	/* a multi-index entry ending at ULONG_MAX */
	xa_erase(&xa, ULONG_MAX);
	xa_store_order(&xa, top, 9, &objs[3], GFP_KERNEL);
	index = ULONG_MAX - 3;
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[3]);
	KUNIT_EXPECT_EQ(test, index, ULONG_MAX - 3);
	KUNIT_EXPECT_NULL(test, xa_find_after(&xa, &index, ULONG_MAX, XA_PRESENT));
	xa_for_each_start(&xa, index, entry, ULONG_MAX - 3) {
		EXPECT_PTR_EQ(test, entry, &objs[3]);
		KUNIT_EXPECT_EQ(test, index, ULONG_MAX - 3); /* covering start: start */
		if (++n > 1)
			break;
	}
	KUNIT_EXPECT_EQ(test, n, 1);
	index = 11;
	EXPECT_PTR_EQ(test, xa_find(&xa, &index, ULONG_MAX, XA_PRESENT), &objs[3]);
	KUNIT_EXPECT_EQ(test, index, top);
	EXPECT_XA_OK(test, &xa);
	xa_destroy(&xa);
}

/* --- leaks ------------------------------------------------------------------ */

static uint64_t rng_state;

static unsigned long rng(unsigned long bound)
{
	return (unsigned long)(ktest_rand(&rng_state) % bound);
}

/* A wide random tree, then xa_destroy; again, then erase every entry from
 * inside xa_for_each: every node goes back to the cache either way. */
static void destroy_and_erasing_everything_free_every_node(struct kunit *test)
{
	struct xarray xa = XARRAY_INIT;
	unsigned long index;
	void *entry;

	rng_state = 0x2545f4914f6cdd1dull;
	for (int round = 0; round < 2; round++) {
		for (int i = 0; i < 1000; i++) {
			unsigned int order = (unsigned int)rng(13);
			unsigned long idx =
				((rng(1ul << 16) << 40) | rng(1ul << 30)) >> order << order;

			KUNIT_ASSERT_FALSE(test,
					   xa_is_err(xa_store_order(&xa, idx, order,
								    xa_mk_value(idx), GFP_KERNEL)));
		}
		EXPECT_XA_OK(test, &xa);
		KUNIT_EXPECT_GT(test, node_objects(), fx.objects + 100);
		if (round == 0) {
			xa_destroy(&xa);
		} else {
			xa_for_each(&xa, index, entry)
				EXPECT_PTR_EQ(test, xa_erase(&xa, index), entry);
		}
		KUNIT_EXPECT_TRUE(test, xa_empty(&xa));
		KUNIT_EXPECT_EQ(test, node_objects(), fx.objects);
	}
}

/* --- the model ---------------------------------------------------------------- */

/*
 * Model slots stand for 2048 indices at 0 and four blocks of 1024 far up
 * (the last ends at ULONG_MAX); stores of order <= 9 stay inside a block.
 * mslot[s] is the id of the entry covering slot s (0: none); an id names
 * its first slot, order and marks, and its entry is a value (odd ids) or
 * a pointer-like word (even ids).
 */
#define MODEL_NEAR 2048u
#define MODEL_BLOCK 1024u
#define MODEL_SLOTS (MODEL_NEAR + 4 * MODEL_BLOCK)
/* The host's run (ASan, UBSan) is the long one; the kernel's shows the
 * same code right in the kernel's own environment. */
#ifdef FOLIUM_HOST
#define MODEL_STEPS 20000
#else
#define MODEL_STEPS 5000
#endif
#define MODEL_FULL_CHECK 500

static const unsigned long model_far[4] = { 1ul << 20, 1ul << 32, 1ul << 45,
					    ULONG_MAX - (MODEL_BLOCK - 1) };
/* Indices nothing is stored at, for loads and the starts of finds. */
static const unsigned long model_probes[] = { MODEL_NEAR,      5000,
					      (1ul << 20) - 1, (1ul << 20) + MODEL_BLOCK,
					      1ul << 40,       ULONG_MAX - MODEL_BLOCK };

struct model_entry {
	unsigned int first; /* slot */
	unsigned char order, marks;
};

static struct model {
	unsigned int mslot[MODEL_SLOTS];
	struct model_entry ent[MODEL_STEPS + 1];
	unsigned int next_id;
	uint64_t seed;
	int step;
	struct kunit *test;
	bool failed;
} m;

static unsigned long model_index(unsigned int slot)
{
	if (slot < MODEL_NEAR)
		return slot;
	slot -= MODEL_NEAR;
	return model_far[slot / MODEL_BLOCK] + slot % MODEL_BLOCK;
}

/* Return: the id covering index (0 if none or not modelled). */
static unsigned int model_id_at(unsigned long index)
{
	if (index < MODEL_NEAR)
		return m.mslot[index];
	for (unsigned int b = 0; b < ARRAY_SIZE(model_far); b++)
		if (index - model_far[b] < MODEL_BLOCK)
			return m.mslot[MODEL_NEAR + b * MODEL_BLOCK + (index - model_far[b])];
	return 0;
}

static void *model_ptr(unsigned int id)
{
	if (!id)
		return NULL;
	return id & 1 ? xa_mk_value(id) : (void *)((unsigned long)id << 2);
}

static unsigned long model_last(unsigned int id)
{
	return model_index(m.ent[id].first) + ((1ul << m.ent[id].order) - 1);
}

static bool model_check(bool ok, const char *what, unsigned long index)
{
	if (!ok && !m.failed)
		kunit_fail(m.test, __FILE__, __LINE__, "seed %llx step %d: %s (index %lx)",
			   (unsigned long long)m.seed, m.step, what, index);
	m.failed |= !ok;
	return ok;
}

/* Remove every entry touching [slot, slot + n), whole. Return: the first
 * (what a store or erase there returns). */
static unsigned int model_clear(unsigned int slot, unsigned int n)
{
	unsigned int first = 0;

	for (unsigned int s = slot; s < slot + n; s++) {
		unsigned int id = m.mslot[s];

		if (!id)
			continue;
		first = first ? first : id;
		for (unsigned int t = 0; t < 1u << m.ent[id].order; t++)
			m.mslot[m.ent[id].first + t] = 0;
	}
	return first;
}

static void model_put(unsigned int slot, unsigned int order, unsigned int id, unsigned int marks)
{
	m.ent[id] = (struct model_entry){ .first = slot,
					  .order = (unsigned char)order,
					  .marks = (unsigned char)marks };
	for (unsigned int t = 0; t < 1u << order; t++)
		m.mslot[slot + t] = id;
}

/* A slot aligned to 2^order, near or in a far block. */
static unsigned int random_slot(unsigned int order)
{
	unsigned int b = (unsigned int)rng(8);

	if (b >= 4)
		return (unsigned int)rng(MODEL_NEAR >> order) << order;
	return MODEL_NEAR + b * MODEL_BLOCK + ((unsigned int)rng(MODEL_BLOCK >> order) << order);
}

static unsigned long random_index(void)
{
	if (rng(8) == 0)
		return model_probes[rng(ARRAY_SIZE(model_probes))];
	return model_index(random_slot(0));
}

/* xa_store or xa_store_order (a NULL one now and then) against the model. */
static void model_step_store(struct xarray *xa, unsigned int order)
{
	unsigned int slot = random_slot(order), id = rng(10) ? m.next_id++ : 0, old, marks = 0;
	unsigned long index = model_index(slot);
	void *r;

	/* an order-0 entry replaced in place keeps its marks */
	if (!order && id && m.mslot[slot] && !m.ent[m.mslot[slot]].order)
		marks = m.ent[m.mslot[slot]].marks;
	old = model_clear(slot, 1u << order);
	if (id)
		model_put(slot, order, id, marks);
	r = order ? xa_store_order(xa, index, order, model_ptr(id), GFP_KERNEL)
		  : xa_store(xa, index, model_ptr(id), GFP_KERNEL);
	model_check(r == model_ptr(old), "store returned another old entry", index);
	model_check(xa_load(xa, index + (1ul << order) - 1) == model_ptr(id), "load after store",
		    index);
}

static void model_step_erase(struct xarray *xa)
{
	unsigned long index = random_index();
	unsigned int id = model_id_at(index);

	if (id)
		model_clear(m.ent[id].first, 1);
	model_check(xa_erase(xa, index) == model_ptr(id), "erase returned another entry", index);
	model_check(!xa_load(xa, index), "load after erase", index);
}

static void model_step_mark(struct xarray *xa, bool set)
{
	unsigned long index = random_index();
	unsigned int id = model_id_at(index);
	xa_mark_t mark = (xa_mark_t)rng(3);

	if (set) {
		xa_set_mark(xa, index, mark);
		if (id)
			m.ent[id].marks |= 1u << mark;
	} else {
		xa_clear_mark(xa, index, mark);
		if (id)
			m.ent[id].marks &= ~(1u << mark);
	}
	model_check(xa_get_mark(xa, index, mark) == (id && ((m.ent[id].marks >> mark) & 1)),
		    "mark after set or clear", index);
}

static bool model_matches(unsigned int id, xa_mark_t filter)
{
	return id && (filter == XA_PRESENT || ((m.ent[id].marks >> filter) & 1));
}

/* The first entry matching filter whose first index is in [lo, max]. */
static unsigned int model_first_from(unsigned long lo, unsigned long max, xa_mark_t filter)
{
	for (unsigned int s = 0; s < MODEL_SLOTS; s++) {
		unsigned int id = m.mslot[s];

		if (!id || m.ent[id].first != s || model_index(s) < lo)
			continue;
		if (model_index(s) > max)
			return 0;
		if (model_matches(id, filter))
			return id;
	}
	return 0;
}

/* xa_find / xa_find_after by their definition over the model. */
static void model_step_find(struct xarray *xa, bool after)
{
	unsigned long start = random_index(), index = start, max, from = start;
	unsigned long r10 = rng(10);
	xa_mark_t filter = rng(4) == 3 ? XA_PRESENT : (xa_mark_t)rng(3);
	unsigned int cover = model_id_at(start), want = 0;
	bool none = false; /* nothing can start after what covers start */
	void *r;

	/* to the end, a little further (ULONG_MAX if that wraps), or below start */
	max = r10 < 5 ? ULONG_MAX : r10 < 9 ? start + rng(3000) : start - 1;
	if (r10 < 9 && max < start)
		max = ULONG_MAX;
	if (cover) {
		none = model_last(cover) == ULONG_MAX;
		from = model_last(cover) + 1;
	} else if (after) {
		none = start == ULONG_MAX;
		from = start + 1;
	}
	if (!after && start <= max && model_matches(cover, filter))
		want = cover;
	else if (!none && (after || start <= max))
		want = model_first_from(from, max, filter);
	r = after ? xa_find_after(xa, &index, max, filter) : xa_find(xa, &index, max, filter);
	model_check(r == model_ptr(want),
		    after ? "find_after found another entry" : "find found another entry", start);
	if (want)
		model_check(
			index == (want == cover && !after ? start : model_index(m.ent[want].first)),
			"find set another index", start);
	else
		model_check(index == start, "find moved the index without a result", start);
}

/* Every slot's entry, order and marks; both kinds of walk; the probes. */
static void model_full_check(struct xarray *xa)
{
	unsigned long index;
	unsigned int s = 0, marked[XA_MAX_MARKS] = { 0 };
	void *entry;

	for (unsigned int t = 0; t < MODEL_SLOTS && !m.failed; t++) {
		unsigned int id = m.mslot[t];

		index = model_index(t);
		model_check(xa_load(xa, index) == model_ptr(id), "load differs", index);
		model_check(xa_get_order(xa, index) == (id ? m.ent[id].order : 0u), "order differs",
			    index);
		for (xa_mark_t mk = 0; mk < XA_MAX_MARKS; mk++) {
			model_check(xa_get_mark(xa, index, mk) == model_matches(id, mk),
				    "mark differs", index);
			marked[mk] += id && m.ent[id].first == t && model_matches(id, mk);
		}
	}
	for (unsigned int p = 0; p < ARRAY_SIZE(model_probes); p++)
		model_check(!xa_load(xa, model_probes[p]), "a probe index holds an entry",
			    model_probes[p]);
	xa_for_each(xa, index, entry) {
		while (s < MODEL_SLOTS && (!m.mslot[s] || m.ent[m.mslot[s]].first != s))
			s++;
		if (!model_check(s < MODEL_SLOTS && index == model_index(s) &&
					 entry == model_ptr(m.mslot[s]),
				 "xa_for_each differs", index))
			break;
		s++;
	}
	for (xa_mark_t mk = 0; mk < XA_MAX_MARKS; mk++) {
		unsigned int n = 0;

		xa_for_each_marked(xa, index, entry, mk) {
			if (!model_check(model_matches(model_id_at(index), mk) &&
						 entry == model_ptr(model_id_at(index)),
					 "xa_for_each_marked visits an unmarked entry", index))
				break;
			n++;
		}
		model_check(n == marked[mk], "xa_for_each_marked misses entries", mk);
		model_check(xa_marked(xa, mk) == (n != 0), "xa_marked differs", mk);
	}
}

static void model_run(struct kunit *test, uint64_t seed)
{
	struct xarray xa = XARRAY_INIT;
	const char *why;

	memset(&m, 0, sizeof(m));
	m.test = test;
	m.seed = rng_state = seed;
	m.next_id = 1;
	for (m.step = 0; m.step < MODEL_STEPS && !m.failed; m.step++) {
		unsigned long op = rng(100);

		if (op < 30)
			model_step_store(&xa, 0);
		else if (op < 50)
			model_step_store(&xa, 1 + (unsigned int)rng(9));
		else if (op < 62)
			model_step_erase(&xa);
		else if (op < 85)
			model_step_mark(&xa, op < 77);
		else
			model_step_find(&xa, op < 92);
		why = xa_problem(&xa);
		model_check(!why, why, 0);
		if (m.step % MODEL_FULL_CHECK == MODEL_FULL_CHECK - 1)
			model_full_check(&xa);
	}
	if (!m.failed)
		model_full_check(&xa);
	xa_destroy(&xa);
}

static void random_operations_match_a_model(struct kunit *test)
{
	model_run(test, 0x9e3779b97f4a7c15ull);
	model_run(test, 0xd1b54a32d192ed03ull);
}

static struct kunit_case xarray_cases[] = {
	KUNIT_CASE(an_empty_array_loads_null_and_finds_nothing),
	KUNIT_CASE(store_load_erase_at_edge_indices),
	KUNIT_CASE(the_tree_shrinks_back_to_a_lone_head_entry),
	KUNIT_CASE(value_entries_and_pointers_round_trip),
	KUNIT_CASE(an_internal_entry_is_refused_with_einval),
	KUNIT_CASE(a_store_returns_the_old_entry_and_null_erases),
	KUNIT_CASE(a_failed_allocation_returns_enomem_and_changes_nothing),
	KUNIT_CASE(multi_index_entries_of_orders_0_to_12_cover_exactly_their_range),
	KUNIT_CASE(large_orders_reach_both_ends_of_the_index_space),
	KUNIT_CASE(an_unaligned_index_rounds_down_and_order_64_is_refused),
	KUNIT_CASE(a_store_over_a_range_removes_what_covered_it),
	KUNIT_CASE(an_order_0_store_inside_a_multi_index_entry_splits_it_away),
	KUNIT_CASE(split_makes_order_0_entries_and_later_stores_allocate_nothing),
	KUNIT_CASE(marks_are_set_read_and_cleared_from_any_index_of_an_entry),
	KUNIT_CASE(for_each_marked_visits_exactly_the_marked_entries_in_order),
	KUNIT_CASE(marks_vanish_with_erase_and_survive_an_order_0_replacement),
	KUNIT_CASE(a_head_entry_keeps_its_marks_through_growth_and_shrinking),
	KUNIT_CASE(find_and_find_after_stop_at_max_and_never_wrap),
	KUNIT_CASE(destroy_and_erasing_everything_free_every_node),
	KUNIT_CASE(random_operations_match_a_model),
	{},
};

static struct kunit_suite xarray_suite = {
	.name = "xarray",
	.init = xa_test_init,
	.exit = xa_test_exit,
	.test_cases = xarray_cases,
};
kunit_test_suite(xarray_suite);
