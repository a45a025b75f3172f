/*
 * Lock-less singly linked lists (Linux: include/linux/llist.h): any CPU
 * adds a node with one compare-and-exchange, the owner takes them all
 * with one exchange. Adding returns whether the list was empty, which is
 * how a sender knows the receiver needs an interrupt to look (the IPI
 * queues of kernel/smp.c). Taking all yields the newest first.
 */
#ifndef FOLIUM_LLIST_H
#define FOLIUM_LLIST_H

#include <stdbool.h>
#include <stddef.h>

struct llist_node {
	struct llist_node *next;
};

struct llist_head {
	struct llist_node *first;
};

static inline void init_llist_head(struct llist_head *list)
{
	list->first = NULL;
}

static inline bool llist_empty(const struct llist_head *list)
{
	return __atomic_load_n(&list->first, __ATOMIC_RELAXED) == NULL;
}

/* Return: whether the list was empty before (Linux: llist_add). */
static inline bool llist_add(struct llist_node *node, struct llist_head *list)
{
	struct llist_node *first = __atomic_load_n(&list->first, __ATOMIC_RELAXED);

	do
		node->next = first;
	while (!__atomic_compare_exchange_n(&list->first, &first, node, false, __ATOMIC_RELEASE,
					    __ATOMIC_RELAXED));
	return first == NULL;
}

/* Take every node; the newest comes first (Linux: llist_del_all). */
static inline struct llist_node *llist_del_all(struct llist_head *list)
{
	return __atomic_exchange_n(&list->first, NULL, __ATOMIC_ACQUIRE);
}

/* Return: @head's nodes oldest first (Linux: llist_reverse_order). */
static inline struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *next = head->next;

		head->next = new_head;
		new_head = head;
		head = next;
	}
	return new_head;
}

#endif
