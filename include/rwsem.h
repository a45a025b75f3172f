/*
 * Sleeping reader-writer locks (Linux: struct rw_semaphore,
 * include/linux/rwsem.h): many readers or one writer, each may sleep
 * while holding it; mmap_lock is one. count is the number of readers,
 * or RWSEM_WRITER_LOCKED while a writer holds it. A writer waiting
 * stops new readers (writers_waiting), so a stream of readers cannot
 * starve it: Linux's RWSEM_FLAG_WAITERS / handoff rule in small.
 */
#ifndef FOLIUM_RWSEM_H
#define FOLIUM_RWSEM_H

#include <atomic.h>
#include <lockdep.h>
#include <wait.h>

#define RWSEM_WRITER_LOCKED (-1L)

struct rw_semaphore {
	long count;
	unsigned int writers_waiting;
	struct task_struct *owner; /* the writer, for reports */
	struct wait_queue_head wait;
#if CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
};

void __init_rwsem(struct rw_semaphore *sem, const char *name, const struct lock_class_key *key);
#define init_rwsem(sem)                             \
	do {                                        \
		static struct lock_class_key __key; \
		__init_rwsem((sem), #sem, &__key);  \
	} while (0)

void down_read(struct rw_semaphore *sem);
bool down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
bool down_write_trylock(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* Linux: downgrade_write. The writer becomes a reader without letting
 * another writer in between. */
void downgrade_write(struct rw_semaphore *sem);

static inline bool rwsem_is_locked(const struct rw_semaphore *sem)
{
	return __atomic_load_n(&sem->count, __ATOMIC_RELAXED) != 0;
}

#endif
