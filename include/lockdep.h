/*
 * The lock-order checker (Linux: kernel/locking/lockdep.c, in small):
 * every lock belongs to a class, named after the place that initialised
 * it (one class for every zone->lock, say). While a task holds locks of
 * classes A and B and takes C, the checker records "A before C" and "B
 * before C" in a graph; a new edge that closes a cycle (C is already
 * before A somewhere) is a possible deadlock between CPUs, reported with
 * the stack that recorded the old order and the stack taking the new
 * one. It also reports a class taken both in a hard interrupt and with
 * interrupts on (an interrupt on the holder's CPU would spin forever),
 * the same class taken twice without a nesting annotation, and an
 * unlock of a lock not held. The first report turns the checker off, as
 * Linux's debug_locks does; make test expects no report in any boot.
 * With CONFIG_PROVE_LOCKING=n all of it compiles away.
 */
#ifndef FOLIUM_LOCKDEP_H
#define FOLIUM_LOCKDEP_H

#include <stdbool.h>
#include <generated/config.h>

/* A class's identity: the address of a static key (Linux's). */
struct lock_class_key {
	char dummy;
};

/* What each lock carries for the checker (Linux: struct lockdep_map). */
struct lockdep_map {
	const struct lock_class_key *key;
	const char *name;
	unsigned short class_idx[2]; /* per subclass 0 and 1: index + 1, 0 not yet */
};

/* One lock a task holds (Linux: struct held_lock). */
struct held_lock {
	struct lockdep_map *map;
	unsigned short class_idx;
	unsigned char irq_context; /* taken in a hard interrupt */
	unsigned char trylock;
};
#define MAX_LOCK_DEPTH 48

/* Reports made since boot; a boot with a report fails make test. */
extern unsigned int lockdep_reports;
/* Linux: debug_locks. 0 once a report was made: no more checking. */
extern int debug_locks;

#if CONFIG_PROVE_LOCKING
#define STATIC_LOCKDEP_MAP_INIT(lockname, k)   \
	{                                      \
		.key = (k), .name = (lockname) \
	}
void lockdep_init_map(struct lockdep_map *map, const char *name, const struct lock_class_key *key);
/* @subclass: 0, or 1 for a second lock of the class taken inside the
 * first in a fixed order (Linux: spin_lock_nested, SINGLE_DEPTH_NESTING).
 * @trylock: a trylock never waits, so it adds no order; @read: a shared
 * acquisition (read_lock, down_read). */
void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock, bool read);
void lock_release(struct lockdep_map *map);
/* Return: whether current holds @map (Linux: lock_is_held). */
bool lock_is_held(const struct lockdep_map *map);
#define lockdep_assert_held(l) BUG_ON(debug_locks && !lock_is_held(&(l)->dep_map))
#else
#define STATIC_LOCKDEP_MAP_INIT(lockname, k) \
	{                                    \
		0                            \
	}
static inline void lockdep_init_map(struct lockdep_map *map, const char *name,
				    const struct lock_class_key *key)
{
	(void)map, (void)name, (void)key;
}
static inline void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock,
				bool read)
{
	(void)map, (void)subclass, (void)trylock, (void)read;
}
static inline void lock_release(struct lockdep_map *map)
{
	(void)map;
}
#define lockdep_assert_held(l) ((void)(l))
#endif

#endif
