/*
 * Red-black trees, Linux's API (include/linux/rbtree.h): the node is
 * embedded in the element and the caller walks the tree to find the link
 * for a new node, so the tree never calls a comparison of its own except
 * in the rb_add*() helpers. The invariants kept by rb_insert_color() and
 * rb_erase() (lib/rbtree.c): the root is black, a red node has no red
 * child, and every path from a node down to a NULL link passes the same
 * number of black nodes; so the height is at most 2*log2(n + 1).
 * Example of use, a tree of `struct thing` keyed on `key`:
 *
 *	struct rb_node **link = &root->rb_node, *parent = NULL;
 *	while (*link) {
 *		parent = *link;
 *		if (new->key < rb_entry(parent, struct thing, node)->key)
 *			link = &parent->rb_left;
 *		else
 *			link = &parent->rb_right;
 *	}
 *	rb_link_node(&new->node, parent, link);
 *	rb_insert_color(&new->node, root);
 */
#ifndef FOLIUM_RBTREE_H
#define FOLIUM_RBTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <list.h> /* container_of */

/* The parent pointer and the colour share a word: nodes are aligned to a
 * long, so bit 0 is free and holds the colour (0 red, 1 black). */
struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

/* A tree that also remembers its leftmost (smallest) node, so rb_first is
 * O(1): the scheduler's timeline picks from the left on every switch. */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT          \
	(struct rb_root) \
	{                \
		NULL     \
	}
#define RB_ROOT_CACHED          \
	(struct rb_root_cached) \
	{                       \
		{ NULL }, NULL  \
	}

#define rb_parent(r) ((struct rb_node *)((r)->__rb_parent_color & ~3ul))
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define rb_entry_safe(ptr, type, member)                                  \
	({                                                                \
		struct rb_node *____ptr = (ptr);                          \
		____ptr ? rb_entry(____ptr, type, member) : (type *)NULL; \
	})
#define RB_EMPTY_ROOT(root) ((root)->rb_node == NULL)
/* A node that is in no tree points at itself (RB_CLEAR_NODE). */
#define RB_EMPTY_NODE(node) ((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) ((node)->__rb_parent_color = (unsigned long)(node))

/* lib/rbtree.c */
/* Rebalance after rb_link_node() put node in a leaf position.
 * Context: node is linked, red, and was not in the tree before. */
void rb_insert_color(struct rb_node *node, struct rb_root *root);
/* Take node out of the tree and rebalance. Context: node is in root. */
void rb_erase(struct rb_node *node, struct rb_root *root);
/* In-order neighbours. Return: the next (previous) node, or NULL at the
 * end; NULL for a node in no tree. */
struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
/* Return: the smallest (largest) node, or NULL if the tree is empty. */
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/* Hang node at *link below parent (NULL for the root), red, childless.
 * rb_insert_color() must follow. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent, struct rb_node **link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	*link = node;
}

/* Same as rb_first(), but O(1). */
#define rb_first_cached(root) (root)->rb_leftmost

/* rb_insert_color() for a cached tree; leftmost: the walk to the link only
 * ever went left, so node is the new smallest. */
static inline void rb_insert_color_cached(struct rb_node *node, struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/* rb_erase() for a cached tree. Return: the new leftmost if node was the
 * leftmost, else NULL. */
static inline struct rb_node *rb_erase_cached(struct rb_node *node, struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

/*
 * The helpers below take less(a, b): "a sorts before b", a strict weak
 * order. Equal keys go to the right of those already there, so nodes with
 * one key keep their insertion order.
 */

/* The descent of every rb_add: link node as a leaf where less() puts it
 * (after its equals), setting *leftmost false if it went right at least
 * once. Return: its parent, NULL for the root. */
static inline struct rb_node *__rb_add_leaf(struct rb_node *node, struct rb_root *root,
					    bool (*less)(struct rb_node *, const struct rb_node *),
					    bool *leftmost)
{
	struct rb_node **link = &root->rb_node;
	struct rb_node *parent = NULL;

	*leftmost = true;
	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			*leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	return parent;
}

/* Insert node into a cached tree by less(). Return: node if it became the
 * leftmost, else NULL. */
static inline struct rb_node *rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
					    bool (*less)(struct rb_node *, const struct rb_node *))
{
	bool leftmost;

	__rb_add_leaf(node, &tree->rb_root, less, &leftmost);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

/* Insert node into tree by less(). */
static inline void rb_add(struct rb_node *node, struct rb_root *tree,
			  bool (*less)(struct rb_node *, const struct rb_node *))
{
	bool leftmost;

	__rb_add_leaf(node, tree, less, &leftmost);
	rb_insert_color(node, tree);
}

#endif
