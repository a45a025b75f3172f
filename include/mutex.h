/*
 * Sleeping locks (Linux: struct mutex, include/linux/mutex.h): one owner
 * at a time; a task that finds it taken sleeps until the owner unlocks,
 * so the owner may sleep too (copy from a user page that faults, wait for
 * I/O). The owner is the task (atomic, compare-and-exchange from NULL);
 * sleepers wait on the mutex's wait queue. Only the owner may unlock, and
 * never from an interrupt (Linux's rules; the checker sees mutexes too).
 */
#ifndef FOLIUM_MUTEX_H
#define FOLIUM_MUTEX_H

#include <atomic.h>
#include <lockdep.h>
#include <wait.h>

struct task_struct;

struct mutex {
	struct task_struct *owner; /* NULL: unlocked */
	struct wait_queue_head wait;
#if CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
};

void __mutex_init(struct mutex *lock, const char *name, const struct lock_class_key *key);
#define mutex_init(lock)                             \
	do {                                         \
		static struct lock_class_key __key;  \
		__mutex_init((lock), #lock, &__key); \
	} while (0)

void mutex_lock(struct mutex *lock);
/* Return: 0, or -EINTR if a signal came while waiting (not taken). */
int mutex_lock_interruptible(struct mutex *lock);
/* Return: whether it was free and is now current's. */
bool mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

static inline bool mutex_is_locked(const struct mutex *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != NULL;
}

#endif
