/*
 * Augmented red-black trees (Linux: include/linux/rbtree_augmented.h):
 * each node also holds a value computed over its whole subtree (the
 * scheduler keeps the smallest vruntime below each entity), and the tree
 * calls back whenever the shape under a node changes:
 *
 *   propagate(node, stop)  recompute node and its ancestors, up to (not
 *                          including) stop; may end early once a node's
 *                          value did not change
 *   copy(old, new)         new took old's place over the same subtree:
 *                          new's value = old's value
 *   rotate(old, new)       new was rotated above old: new's value = old's
 *                          old value (same subtree), old is recomputed
 *
 * RB_DECLARE_CALLBACKS*() write the three from one "compute" function.
 * Insertion: walk down, link, propagate(parent, NULL) for the new leaf,
 * then rb_insert_augmented(); rb_add_augmented_cached() does it all.
 */
#ifndef FOLIUM_RBTREE_AUGMENTED_H
#define FOLIUM_RBTREE_AUGMENTED_H

#include <rbtree.h>

struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

/* lib/rbtree.c */
/* rb_insert_color() that calls augment->rotate at each rotation.
 * Context: the values on the path from the root to node are up to date. */
void rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			 const struct rb_augment_callbacks *augment);
/* rb_erase() that keeps the subtree values up to date. */
void rb_erase_augmented(struct rb_node *node, struct rb_root *root,
			const struct rb_augment_callbacks *augment);

static inline void rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
					      bool newleft,
					      const struct rb_augment_callbacks *augment)
{
	if (newleft)
		root->rb_leftmost = node;
	rb_insert_augmented(node, &root->rb_root, augment);
}

static inline void rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
					     const struct rb_augment_callbacks *augment)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase_augmented(node, &root->rb_root, augment);
}

/* rb_add_cached() for an augmented tree. Context: node's own value is
 * initialised (a leaf's subtree value is its own). Return: node if it
 * became the leftmost, else NULL. */
static inline struct rb_node *
rb_add_augmented_cached(struct rb_node *node, struct rb_root_cached *tree,
			bool (*less)(struct rb_node *, const struct rb_node *),
			const struct rb_augment_callbacks *augment)
{
	bool leftmost;
	struct rb_node *parent = __rb_add_leaf(node, &tree->rb_root, less, &leftmost);

	augment->propagate(parent, NULL); /* the new leaf's ancestors */
	rb_insert_augmented_cached(node, tree, leftmost, augment);
	return leftmost ? node : NULL;
}

/*
 * Callbacks for several augmented fields. RBCOMPUTE(node, exit) recomputes
 * node's fields from node and its children; with exit true it returns
 * true when nothing changed (propagation may stop there). RBCOPY(new, old)
 * copies the fields.
 */
#define RB_DECLARE_CALLBACKS_MULTI(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBCOPY, RBCOMPUTE)        \
	static inline void RBNAME##_propagate(struct rb_node *rb, struct rb_node *stop)           \
	{                                                                                         \
		while (rb != stop) {                                                              \
			RBSTRUCT *node = rb_entry(rb, RBSTRUCT, RBFIELD);                         \
			if (RBCOMPUTE(node, true))                                                \
				break;                                                            \
			rb = rb_parent(&node->RBFIELD);                                           \
		}                                                                                 \
	}                                                                                         \
	static inline void RBNAME##_copy(struct rb_node *rb_old, struct rb_node *rb_new)          \
	{                                                                                         \
		RBCOPY(rb_entry(rb_new, RBSTRUCT, RBFIELD), rb_entry(rb_old, RBSTRUCT, RBFIELD)); \
	}                                                                                         \
	static void RBNAME##_rotate(struct rb_node *rb_old, struct rb_node *rb_new)               \
	{                                                                                         \
		RBSTRUCT *old = rb_entry(rb_old, RBSTRUCT, RBFIELD);                              \
		RBCOPY(rb_entry(rb_new, RBSTRUCT, RBFIELD), old);                                 \
		RBCOMPUTE(old, false);                                                            \
	}                                                                                         \
	RBSTATIC const struct rb_augment_callbacks RBNAME = {                                     \
		.propagate = RBNAME##_propagate,                                                  \
		.copy = RBNAME##_copy,                                                            \
		.rotate = RBNAME##_rotate,                                                        \
	}

/* Callbacks for one augmented field RBAUGMENTED. */
#define RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBCOMPUTE)     \
	static inline void RBNAME##_copy_single(RBSTRUCT *new, RBSTRUCT *old)                 \
	{                                                                                     \
		new->RBAUGMENTED = old->RBAUGMENTED;                                          \
	}                                                                                     \
	RB_DECLARE_CALLBACKS_MULTI(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBNAME##_copy_single, \
				   RBCOMPUTE)

/* Callbacks for RBAUGMENTED = the largest RBCOMPUTE(n) over the subtree. */
#define RB_DECLARE_CALLBACKS_MAX(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBTYPE, RBAUGMENTED,  \
				 RBCOMPUTE)                                                 \
	static inline bool RBNAME##_compute_max(RBSTRUCT *node, bool exit)                  \
	{                                                                                   \
		struct rb_node *kid[2] = { node->RBFIELD.rb_left, node->RBFIELD.rb_right }; \
		RBTYPE max = RBCOMPUTE(node);                                               \
		for (int i = 0; i < 2; i++) {                                               \
			RBSTRUCT *child = rb_entry_safe(kid[i], RBSTRUCT, RBFIELD);         \
			if (child && child->RBAUGMENTED > max)                              \
				max = child->RBAUGMENTED;                                   \
		}                                                                           \
		if (exit && node->RBAUGMENTED == max)                                       \
			return true;                                                        \
		node->RBAUGMENTED = max;                                                    \
		return false;                                                               \
	}                                                                                   \
	RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, RBNAME##_compute_max)

#endif
