/*
 * Red-black trees (Linux: lib/rbtree.c), written from the textbook
 * algorithm (CLRS ch. 13) with one function per direction-free case
 * analysis: `dir` names the side x is on, and the mirror image is the
 * same code with dir flipped. Invariants after every insert and erase:
 * the root is black, no red node has a red child, every root-to-NULL
 * path has the same number of black nodes.
 * Example: inserting 1, 2, 3 in order links 3 red below red 2; its uncle
 * is NULL (black), so 1 is rotated left: 2 becomes the black root with
 * red children 1 and 3.
 * Augmented trees get rotate(old, new) at every rotation, copy() and
 * propagate() when erase moves a successor (include/rbtree_augmented.h).
 */
#include <rbtree_augmented.h>

#define RB_RED 0ul
#define RB_BLACK 1ul
enum {
	RB_LEFT,
	RB_RIGHT
};

static inline bool rb_is_black(const struct rb_node *n)
{
	return !n || (n->__rb_parent_color & RB_BLACK); /* NULL leaves are black */
}

static inline bool rb_is_red(const struct rb_node *n)
{
	return !rb_is_black(n);
}

static inline void rb_set_color(struct rb_node *n, unsigned long color)
{
	n->__rb_parent_color = (n->__rb_parent_color & ~RB_BLACK) | color;
}

static inline void rb_set_parent(struct rb_node *n, struct rb_node *parent)
{
	n->__rb_parent_color = (unsigned long)parent | (n->__rb_parent_color & RB_BLACK);
}

/* The child link of n on side dir. */
static inline struct rb_node **rb_child(struct rb_node *n, int dir)
{
	return dir == RB_LEFT ? &n->rb_left : &n->rb_right;
}

/* Make new take old's place under old's parent (or at the root). */
static void rb_replace_child(struct rb_node *old, struct rb_node *new, struct rb_node *parent,
			     struct rb_root *root)
{
	if (!parent)
		root->rb_node = new;
	else if (parent->rb_left == old)
		parent->rb_left = new;
	else
		parent->rb_right = new;
}

/*
 * Rotate x down to side dir: its child y on the other side takes x's
 * place and colour-free link, y's inner subtree moves under x.
 *
 *       x                 y          (dir = RB_LEFT)
 *      / \               / \
 *     a   y     ->      x   c
 *        / \           / \
 *       b   c         a   b
 */
static void rb_rotate(struct rb_node *x, int dir, struct rb_root *root,
		      void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	struct rb_node *y = *rb_child(x, !dir);
	struct rb_node *inner = *rb_child(y, dir);
	struct rb_node *parent = rb_parent(x);

	*rb_child(x, !dir) = inner;
	if (inner)
		rb_set_parent(inner, x);
	*rb_child(y, dir) = x;
	rb_set_parent(y, parent);
	rb_replace_child(x, y, parent, root);
	rb_set_parent(x, y);
	if (augment_rotate)
		augment_rotate(x, y);
}

/* CLRS RB-INSERT-FIXUP: node is red; while its parent is red too, either
 * recolour (red uncle: the problem moves up two levels) or rotate once or
 * twice (black uncle: done). */
static void rb_insert_fixup(struct rb_node *node, struct rb_root *root,
			    void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	struct rb_node *parent, *gparent, *uncle;
	int dir;

	while ((parent = rb_parent(node)) && rb_is_red(parent)) {
		gparent = rb_parent(parent); /* exists: a red node is not the root */
		dir = gparent->rb_left == parent ? RB_LEFT : RB_RIGHT;
		uncle = *rb_child(gparent, !dir);
		if (rb_is_red(uncle)) {
			rb_set_color(parent, RB_BLACK);
			rb_set_color(uncle, RB_BLACK);
			rb_set_color(gparent, RB_RED);
			node = gparent;
			continue;
		}
		if (node == *rb_child(parent, !dir)) {
			/* inner grandchild: make it the outer one first */
			rb_rotate(parent, dir, root, augment_rotate);
			node = parent;
			parent = rb_parent(node);
		}
		rb_set_color(parent, RB_BLACK);
		rb_set_color(gparent, RB_RED);
		rb_rotate(gparent, !dir, root, augment_rotate);
		break;
	}
	rb_set_color(root->rb_node, RB_BLACK);
}

void rb_insert_color(struct rb_node *node, struct rb_root *root)
{
	rb_insert_fixup(node, root, NULL);
}

void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment)
{
	rb_insert_fixup(node, root, augment->rotate);
}

/*
 * CLRS RB-DELETE-FIXUP: the subtree at x (NULL allowed, below parent) has
 * one black node too few on its paths. A red x just turns black; else look
 * at the sibling w: red w is rotated up to get a black sibling; a black w
 * with two black children turns red and the shortage moves up to parent;
 * otherwise one or two rotations borrow a black node from w's side.
 */
static void rb_erase_fixup(struct rb_node *x, struct rb_node *parent, struct rb_root *root,
			   void (*augment_rotate)(struct rb_node *old, struct rb_node *new))
{
	struct rb_node *w;
	int dir;

	while (x != root->rb_node && rb_is_black(x)) {
		dir = parent->rb_left == x ? RB_LEFT : RB_RIGHT;
		w = *rb_child(parent, !dir); /* not NULL: its side has a black node more */
		if (rb_is_red(w)) {
			rb_set_color(w, RB_BLACK);
			rb_set_color(parent, RB_RED);
			rb_rotate(parent, dir, root, augment_rotate);
			w = *rb_child(parent, !dir);
		}
		if (rb_is_black(w->rb_left) && rb_is_black(w->rb_right)) {
			rb_set_color(w, RB_RED);
			x = parent;
			parent = rb_parent(x);
			continue;
		}
		if (rb_is_black(*rb_child(w, !dir))) {
			/* only the inner nephew is red: turn it outward */
			rb_set_color(*rb_child(w, dir), RB_BLACK);
			rb_set_color(w, RB_RED);
			rb_rotate(w, !dir, root, augment_rotate);
			w = *rb_child(parent, !dir);
		}
		rb_set_color(w, rb_is_black(parent) ? RB_BLACK : RB_RED);
		rb_set_color(parent, RB_BLACK);
		rb_set_color(*rb_child(w, !dir), RB_BLACK);
		rb_rotate(parent, dir, root, augment_rotate);
		x = root->rb_node;
		break;
	}
	if (x)
		rb_set_color(x, RB_BLACK);
}

/* The leftmost (rightmost) node of the subtree at n. */
static struct rb_node *rb_leftmost_below(struct rb_node *n)
{
	while (n->rb_left)
		n = n->rb_left;
	return n;
}

static struct rb_node *rb_rightmost_below(struct rb_node *n)
{
	while (n->rb_right)
		n = n->rb_right;
	return n;
}

/*
 * CLRS RB-DELETE. A node with at most one child is replaced by that child;
 * one with two is replaced by its successor s (the leftmost of its right
 * subtree), which takes node's colour, and s's old position loses a node
 * instead. Either way the colour that left the tree is removed_black, x is
 * what now stands where it was removed, and parent is x's parent.
 */
static void rb_erase_node(struct rb_node *node, struct rb_root *root,
			  const struct rb_augment_callbacks *augment)
{
	struct rb_node *parent = rb_parent(node), *x, *s;
	bool removed_black;

	if (!node->rb_left || !node->rb_right) {
		x = node->rb_left ? node->rb_left : node->rb_right;
		removed_black = rb_is_black(node);
		rb_replace_child(node, x, parent, root);
		if (x)
			rb_set_parent(x, parent);
		if (augment)
			augment->propagate(parent, NULL);
	} else {
		s = rb_leftmost_below(node->rb_right);
		removed_black = rb_is_black(s);
		x = s->rb_right;
		if (s == node->rb_right) {
			parent = s;
		} else {
			parent = rb_parent(s);
			parent->rb_left = x;
			if (x)
				rb_set_parent(x, parent);
			s->rb_right = node->rb_right;
			rb_set_parent(s->rb_right, s);
		}
		s->rb_left = node->rb_left;
		rb_set_parent(s->rb_left, s);
		s->__rb_parent_color = node->__rb_parent_color; /* node's parent and colour */
		rb_replace_child(node, s, rb_parent(node), root);
		if (augment) {
			/* s now spans node's old subtree: start from node's value,
			 * fix the path from s's old parent up to s, then s and up */
			augment->copy(node, s);
			if (parent != s)
				augment->propagate(parent, s);
			augment->propagate(s, NULL);
		}
	}
	if (removed_black)
		rb_erase_fixup(x, parent, root, augment ? augment->rotate : NULL);
}

void rb_erase(struct rb_node *node, struct rb_root *root)
{
	rb_erase_node(node, root, NULL);
}

void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment)
{
	rb_erase_node(node, root, augment);
}

struct rb_node *rb_first(const struct rb_root *root)
{
	return root->rb_node ? rb_leftmost_below(root->rb_node) : NULL;
}

struct rb_node *rb_last(const struct rb_root *root)
{
	return root->rb_node ? rb_rightmost_below(root->rb_node) : NULL;
}

/* The in-order successor: the leftmost of the right subtree, else the
 * first ancestor reached from its left side. */
struct rb_node *rb_next(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_right)
		return rb_leftmost_below(node->rb_right);
	while ((parent = rb_parent(node)) && node == parent->rb_right)
		node = parent;
	return parent;
}

/* The mirror image of rb_next(). */
struct rb_node *rb_prev(const struct rb_node *node)
{
	struct rb_node *parent;

	if (RB_EMPTY_NODE(node))
		return NULL;
	if (node->rb_left)
		return rb_rightmost_below(node->rb_left);
	while ((parent = rb_parent(node)) && node == parent->rb_left)
		node = parent;
	return parent;
}
