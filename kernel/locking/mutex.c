/*
 * Sleeping locks: struct mutex and struct rw_semaphore (Linux:
 * kernel/locking/mutex.c, rwsem.c, without optimistic spinning). Both
 * take the lock with one compare-and-exchange when it is free; a task
 * that finds it busy sleeps on the lock's wait queue (wait_event) until
 * an unlock wakes the queue, then tries again. The checker of
 * <lockdep.h> is told before a task waits, so an inverted order is
 * reported even when no deadlock happens this time.
 */
#include <errno.h>
#include <mutex.h>
#include <rwsem.h>
#include <sched.h>

#if CONFIG_PROVE_LOCKING
#define dep_init(l, name, key) lockdep_init_map(&(l)->dep_map, (name), (key))
#define dep_acquire(l, try, read) lock_acquire(&(l)->dep_map, 0, (try), (read))
#define dep_release(l) lock_release(&(l)->dep_map)
#else
#define dep_init(l, name, key) ((void)(name), (void)(key))
#define dep_acquire(l, try, read) ((void)(l))
#define dep_release(l) ((void)(l))
#endif

void __mutex_init(struct mutex *lock, const char *name, const struct lock_class_key *key)
{
	lock->owner = NULL;
	init_waitqueue_head(&lock->wait);
	dep_init(lock, name, key);
}

static bool __mutex_trylock(struct mutex *lock)
{
	struct task_struct *none = NULL;

	return __atomic_compare_exchange_n(&lock->owner, &none, current, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

bool mutex_trylock(struct mutex *lock)
{
	if (!__mutex_trylock(lock))
		return false;
	dep_acquire(lock, true, false);
	return true;
}

void mutex_lock(struct mutex *lock)
{
	dep_acquire(lock, false, false);
	if (!__mutex_trylock(lock))
		wait_event(lock->wait, __mutex_trylock(lock));
}

int mutex_lock_interruptible(struct mutex *lock)
{
	dep_acquire(lock, false, false);
	if (__mutex_trylock(lock) || !wait_event_interruptible(lock->wait, __mutex_trylock(lock)))
		return 0;
	dep_release(lock);
	return -EINTR;
}

void mutex_unlock(struct mutex *lock)
{
	if (lock->owner != current)
		panic("mutex_unlock: %s unlocks a mutex %s holds", current->comm,
		      lock->owner ? lock->owner->comm : "nobody");
	dep_release(lock);
	__atomic_store_n(&lock->owner, NULL, __ATOMIC_RELEASE);
	wake_up(&lock->wait);
}

void __init_rwsem(struct rw_semaphore *sem, const char *name, const struct lock_class_key *key)
{
	sem->count = 0;
	sem->writers_waiting = 0;
	sem->owner = NULL;
	init_waitqueue_head(&sem->wait);
	dep_init(sem, name, key);
}

/* A reader gets in while no writer holds it or waits for it. */
static bool rwsem_read_trylock(struct rw_semaphore *sem)
{
	long c = __atomic_load_n(&sem->count, __ATOMIC_RELAXED);

	while (c >= 0 && !__atomic_load_n(&sem->writers_waiting, __ATOMIC_RELAXED))
		if (__atomic_compare_exchange_n(&sem->count, &c, c + 1, false, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			return true;
	return false;
}

static bool rwsem_write_trylock(struct rw_semaphore *sem)
{
	long zero = 0;

	if (!__atomic_compare_exchange_n(&sem->count, &zero, RWSEM_WRITER_LOCKED, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	sem->owner = current;
	return true;
}

bool down_read_trylock(struct rw_semaphore *sem)
{
	if (!rwsem_read_trylock(sem))
		return false;
	dep_acquire(sem, true, true);
	return true;
}

void down_read(struct rw_semaphore *sem)
{
	dep_acquire(sem, false, true);
	if (!rwsem_read_trylock(sem))
		wait_event(sem->wait, rwsem_read_trylock(sem));
}

void up_read(struct rw_semaphore *sem)
{
	dep_release(sem);
	if (__atomic_sub_fetch(&sem->count, 1, __ATOMIC_RELEASE) == 0)
		wake_up(&sem->wait);
}

bool down_write_trylock(struct rw_semaphore *sem)
{
	if (!rwsem_write_trylock(sem))
		return false;
	dep_acquire(sem, true, false);
	return true;
}

void down_write(struct rw_semaphore *sem)
{
	dep_acquire(sem, false, false);
	if (rwsem_write_trylock(sem))
		return;
	__atomic_fetch_add(&sem->writers_waiting, 1, __ATOMIC_RELAXED);
	wait_event(sem->wait, rwsem_write_trylock(sem));
	__atomic_fetch_sub(&sem->writers_waiting, 1, __ATOMIC_RELAXED);
}

void up_write(struct rw_semaphore *sem)
{
	if (sem->owner != current)
		panic("up_write: %s releases an rw_semaphore %s holds", current->comm,
		      sem->owner ? sem->owner->comm : "no writer");
	dep_release(sem);
	sem->owner = NULL;
	__atomic_store_n(&sem->count, 0, __ATOMIC_RELEASE);
	wake_up(&sem->wait);
}

void downgrade_write(struct rw_semaphore *sem)
{
	sem->owner = NULL;
	__atomic_store_n(&sem->count, 1, __ATOMIC_RELEASE);
	wake_up(&sem->wait); /* other readers may join */
}
