/* lib/rbtree.c against its invariants: thousands of random inserts and
 * erases on a plain cached tree and on an augmented one (subtree maximum),
 * every red-black rule, the order, the leftmost cache and the augmented
 * values checked after every step by walking the whole tree. */
#include <kernel.h>
#include <ktest.h>
#include <rbtree_augmented.h>

#define NR_NODES 256
#define NR_STEPS 6000

struct thing {
	struct rb_node rb;
	unsigned int key;
	unsigned int val;
	unsigned int subtree_max; /* augmented: max val in the subtree */
	bool queued;
};

static struct thing things[NR_NODES];

static uint64_t rng_state;

static unsigned int rng(unsigned int bound)
{
	rng_state ^= rng_state << 13; /* xorshift64 */
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned int)(rng_state % bound);
}

static struct thing *to_thing(const struct rb_node *n)
{
	return rb_entry(n, struct thing, rb);
}

static bool thing_less(struct rb_node *a, const struct rb_node *b)
{
	return to_thing(a)->key < to_thing(b)->key;
}

static unsigned int thing_val(struct thing *t)
{
	return t->val;
}

RB_DECLARE_CALLBACKS_MAX(static, thing_cb, struct thing, rb, unsigned int, subtree_max, thing_val);

/* The colour bit as rbtree.h lays it out (bit 0, 1 = black). */
static bool is_black(const struct rb_node *n)
{
	return !n || (n->__rb_parent_color & 1);
}

struct check {
	const char *why; /* first broken rule, NULL if none */
	unsigned int count;
	bool augmented;
};

static void broken(struct check *c, const char *why)
{
	if (!c->why)
		c->why = why;
}

/* Check the subtree at n below parent. Return: its black height. */
static int check_subtree(struct check *c, const struct rb_node *n, const struct rb_node *parent)
{
	int left, right;
	unsigned int max;

	if (!n)
		return 1;
	c->count++;
	if (rb_parent(n) != parent)
		broken(c, "parent pointer wrong");
	if (!is_black(n) && (!is_black(n->rb_left) || !is_black(n->rb_right)))
		broken(c, "red node with a red child");
	if (n->rb_left && to_thing(n->rb_left)->key > to_thing(n)->key)
		broken(c, "left child sorts after its parent");
	if (n->rb_right && to_thing(n->rb_right)->key < to_thing(n)->key)
		broken(c, "right child sorts before its parent");
	left = check_subtree(c, n->rb_left, n);
	right = check_subtree(c, n->rb_right, n);
	if (left != right)
		broken(c, "black heights differ");
	max = to_thing(n)->val;
	if (n->rb_left)
		max = MAX(max, to_thing(n->rb_left)->subtree_max);
	if (n->rb_right)
		max = MAX(max, to_thing(n->rb_right)->subtree_max);
	if (c->augmented && to_thing(n)->subtree_max != max)
		broken(c, "augmented value differs from a recomputation");
	return left + is_black(n);
}

/* Every rule of a cached tree holding `expected` nodes. Return: NULL if
 * all hold, else the first broken one. */
static const char *check_tree(struct rb_root_cached *tree, unsigned int expected, bool augmented)
{
	struct check c = { .augmented = augmented };
	struct rb_node *n, *prev = NULL;
	unsigned int walked = 0;

	if (!is_black(tree->rb_root.rb_node))
		return "red root";
	check_subtree(&c, tree->rb_root.rb_node, NULL);
	if (c.why)
		return c.why;
	if (c.count != expected)
		return "node count differs";
	if (rb_first_cached(tree) != rb_first(&tree->rb_root))
		return "cached leftmost is not rb_first";
	for (n = rb_first(&tree->rb_root); n; prev = n, n = rb_next(n), walked++) {
		if (prev && to_thing(prev)->key > to_thing(n)->key)
			return "rb_next walk not sorted";
		if (rb_prev(n) != prev)
			return "rb_prev is not the inverse of rb_next";
	}
	if (walked != expected || rb_last(&tree->rb_root) != prev)
		return "rb_next walk misses nodes or rb_last is wrong";
	return NULL;
}

static void reset_things(unsigned int key_range)
{
	for (int i = 0; i < NR_NODES; i++) {
		things[i] = (struct thing){ .key = rng(key_range), .val = rng(100000) };
		RB_CLEAR_NODE(&things[i].rb);
	}
}

/* One random step: a queued node leaves, or an idle one joins with a
 * fresh key. Return: the change in the node count. */
static int random_step(struct rb_root_cached *tree, bool augmented, unsigned int key_range)
{
	struct thing *t = &things[rng(NR_NODES)];

	if (t->queued) {
		if (augmented)
			rb_erase_augmented_cached(&t->rb, tree, &thing_cb);
		else
			rb_erase_cached(&t->rb, tree);
		t->queued = false;
		return -1;
	}
	t->key = rng(key_range);
	t->val = rng(100000);
	t->subtree_max = t->val;
	if (augmented)
		rb_add_augmented_cached(&t->rb, tree, thing_less, &thing_cb);
	else
		rb_add_cached(&t->rb, tree, thing_less);
	t->queued = true;
	return 1;
}

static void run_random_steps(struct kunit *test, bool augmented, unsigned int key_range)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;
	unsigned int nr = 0, max_nr = 0;
	const char *why;

	rng_state = 0x9e3779b97f4a7c15ull + key_range;
	reset_things(key_range);
	for (int step = 0; step < NR_STEPS; step++) {
		nr += random_step(&tree, augmented, key_range);
		max_nr = MAX(max_nr, nr);
		why = check_tree(&tree, nr, augmented);
		if (why) {
			kunit_fail(test, __FILE__, __LINE__, "step %d (%u nodes): %s", step, nr,
				   why);
			return;
		}
	}
	/* the walk reached large trees, not just a handful of nodes */
	KUNIT_EXPECT_GT(test, max_nr, NR_NODES / 2);
}

static void random_inserts_and_erases_keep_every_invariant(struct kunit *test)
{
	run_random_steps(test, false, 1u << 30);
}

static void equal_keys_keep_every_invariant(struct kunit *test)
{
	run_random_steps(test, false, 16);
}

static void augmented_subtree_max_matches_a_recomputation(struct kunit *test)
{
	run_random_steps(test, true, 1u << 30);
	run_random_steps(test, true, 16);
}

/* Sorted and reverse-sorted insertion, then erasing from the left, from
 * the right and from the middle: the shapes that rotate the most. */
static void sorted_runs_rebalance_and_keep_leftmost(struct kunit *test)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;
	int order[3][NR_NODES];

	for (int i = 0; i < NR_NODES; i++) {
		order[0][i] = i;
		order[1][i] = NR_NODES - 1 - i;
		order[2][i] = (i * 97) % NR_NODES; /* 97 is prime to 256 */
	}
	for (int ins = 0; ins < 2; ins++) {
		for (int era = 0; era < 3; era++) {
			for (int i = 0; i < NR_NODES; i++) {
				struct thing *t = &things[order[ins][i]];

				t->key = order[ins][i];
				t->val = t->subtree_max = (unsigned int)i;
				rb_add_augmented_cached(&t->rb, &tree, thing_less, &thing_cb);
				KUNIT_ASSERT_TRUE(test, check_tree(&tree, i + 1, true) == NULL);
			}
			KUNIT_EXPECT_TRUE(test, rb_first_cached(&tree) == &things[0].rb);
			for (int i = 0; i < NR_NODES; i++) {
				rb_erase_augmented_cached(&things[order[era][i]].rb, &tree,
							  &thing_cb);
				KUNIT_ASSERT_TRUE(test, check_tree(&tree, NR_NODES - 1 - i, true) ==
								NULL);
			}
			KUNIT_EXPECT_TRUE(test, RB_EMPTY_ROOT(&tree.rb_root));
			KUNIT_EXPECT_NULL(test, rb_first_cached(&tree));
		}
	}
}

static void add_and_erase_cached_report_the_new_leftmost(struct kunit *test)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;

	for (int i = 0; i < 3; i++) {
		things[i].key = 10 - i; /* 10, 9, 8: each a new leftmost */
		KUNIT_EXPECT_TRUE(test,
				  rb_add_cached(&things[i].rb, &tree, thing_less) == &things[i].rb);
	}
	things[3].key = 9; /* after the 9 already there: not leftmost */
	KUNIT_EXPECT_NULL(test, rb_add_cached(&things[3].rb, &tree, thing_less));
	KUNIT_EXPECT_TRUE(test, rb_next(&things[1].rb) == &things[3].rb);
	KUNIT_EXPECT_TRUE(test, rb_erase_cached(&things[2].rb, &tree) == &things[1].rb);
	KUNIT_EXPECT_NULL(test, rb_erase_cached(&things[0].rb, &tree));
	KUNIT_EXPECT_TRUE(test, rb_first_cached(&tree) == &things[1].rb);
	KUNIT_EXPECT_TRUE(test, rb_last(&tree.rb_root) == &things[3].rb);
	RB_CLEAR_NODE(&things[2].rb);
	KUNIT_EXPECT_TRUE(test, RB_EMPTY_NODE(&things[2].rb));
	KUNIT_EXPECT_NULL(test, rb_next(&things[2].rb));
}

/* The checker itself finds each kind of damage (so the tests above can
 * fail): a red root, a red-red pair, a wrong augmented value. */
static void checker_catches_a_broken_tree(struct kunit *test)
{
	struct rb_root_cached tree = RB_ROOT_CACHED;
	struct rb_node *root;

	for (int i = 0; i < 7; i++) {
		things[i].key = (unsigned int)i;
		things[i].val = things[i].subtree_max = (unsigned int)i;
		rb_add_augmented_cached(&things[i].rb, &tree, thing_less, &thing_cb);
	}
	KUNIT_ASSERT_TRUE(test, check_tree(&tree, 7, true) == NULL);
	root = tree.rb_root.rb_node;
	root->__rb_parent_color &= ~1ul;
	KUNIT_EXPECT_STREQ(test, check_tree(&tree, 7, true), "red root");
	root->__rb_parent_color |= 1ul;
	things[6].subtree_max = 0;
	KUNIT_EXPECT_STREQ(test, check_tree(&tree, 7, true),
			   "augmented value differs from a recomputation");
	things[6].subtree_max = 6;
	/* 0..6 inserted in order leave 5 black over red 4 and 6: paint it red */
	KUNIT_ASSERT_TRUE(test, is_black(&things[5].rb) && !is_black(&things[4].rb) &&
					!is_black(&things[6].rb) &&
					rb_parent(&things[4].rb) == &things[5].rb);
	things[5].rb.__rb_parent_color &= ~1ul;
	KUNIT_EXPECT_STREQ(test, check_tree(&tree, 7, true), "red node with a red child");
}

static struct kunit_case rbtree_cases[] = {
	KUNIT_CASE(random_inserts_and_erases_keep_every_invariant),
	KUNIT_CASE(equal_keys_keep_every_invariant),
	KUNIT_CASE(augmented_subtree_max_matches_a_recomputation),
	KUNIT_CASE(sorted_runs_rebalance_and_keep_leftmost),
	KUNIT_CASE(add_and_erase_cached_report_the_new_leftmost),
	KUNIT_CASE(checker_catches_a_broken_tree),
	{},
};

static struct kunit_suite rbtree_suite = {
	.name = "rbtree",
	.test_cases = rbtree_cases,
};
kunit_test_suite(rbtree_suite);
