/*
 * Reader-writer spinlocks (Linux: rwlock_t, include/linux/rwlock.h; its
 * x86 lock is the queued qrwlock). Many readers or one writer; a reader
 * never sleeps and neither does a writer. Here one atomic word: the
 * writer's byte (0xff while held) and the readers' count above it, in
 * units of 0x100. A reader adds 0x100 and backs off while the writer
 * byte is set; a writer waits for the whole word to be 0. Readers win
 * over a waiting writer (Linux's qrwlock queues them fairly, and lets
 * a reader in interrupt context in first, as here).
 */
#ifndef FOLIUM_RWLOCK_H
#define FOLIUM_RWLOCK_H

#include <spinlock.h>

#define RW_WRITER_LOCKED 0xffu
#define RW_READER_BIAS 0x100u

typedef struct {
	uint32_t cnts;
#if CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
} rwlock_t;

#if CONFIG_PROVE_LOCKING
#define rwlock_init(lock)                                          \
	do {                                                       \
		static struct lock_class_key __key;                \
		(lock)->cnts = 0;                                  \
		lockdep_init_map(&(lock)->dep_map, #lock, &__key); \
	} while (0)
#define rwlock_acquire(l, try, read) lock_acquire(&(l)->dep_map, 0, (try), (read))
#define rwlock_release(l) lock_release(&(l)->dep_map)
#else
#define rwlock_init(lock) ((lock)->cnts = 0)
#define rwlock_acquire(l, try, read) ((void)(l))
#define rwlock_release(l) ((void)(l))
#endif

static inline bool read_trylock(rwlock_t *l)
{
	uint32_t c = __atomic_add_fetch(&l->cnts, RW_READER_BIAS, __ATOMIC_ACQUIRE);

	if (!(c & RW_WRITER_LOCKED)) {
		rwlock_acquire(l, true, true);
		return true;
	}
	__atomic_fetch_sub(&l->cnts, RW_READER_BIAS, __ATOMIC_RELAXED);
	return false;
}

static inline void read_lock(rwlock_t *l)
{
	rwlock_acquire(l, false, true);
	for (;;) {
		uint32_t c = __atomic_add_fetch(&l->cnts, RW_READER_BIAS, __ATOMIC_ACQUIRE);

		if (!(c & RW_WRITER_LOCKED))
			return;
		__atomic_fetch_sub(&l->cnts, RW_READER_BIAS, __ATOMIC_RELAXED);
		while (__atomic_load_n(&l->cnts, __ATOMIC_RELAXED) & RW_WRITER_LOCKED)
			cpu_relax();
	}
}

static inline void read_unlock(rwlock_t *l)
{
	rwlock_release(l);
	__atomic_fetch_sub(&l->cnts, RW_READER_BIAS, __ATOMIC_RELEASE);
}

static inline bool write_trylock(rwlock_t *l)
{
	uint32_t zero = 0;

	if (!__atomic_compare_exchange_n(&l->cnts, &zero, RW_WRITER_LOCKED, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED))
		return false;
	rwlock_acquire(l, true, false);
	return true;
}

static inline void write_lock(rwlock_t *l)
{
	uint32_t zero = 0;

	rwlock_acquire(l, false, false);
	while (!__atomic_compare_exchange_n(&l->cnts, &zero, RW_WRITER_LOCKED, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		zero = 0;
		cpu_relax();
	}
}

static inline void write_unlock(rwlock_t *l)
{
	rwlock_release(l);
	__atomic_fetch_and(&l->cnts, ~RW_WRITER_LOCKED, __ATOMIC_RELEASE);
}

#define read_lock_irqsave(l, flags)        \
	do {                               \
		(flags) = arch_irq_save(); \
		read_lock(l);              \
	} while (0)
#define write_lock_irqsave(l, flags)       \
	do {                               \
		(flags) = arch_irq_save(); \
		write_lock(l);             \
	} while (0)

static inline void read_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	read_unlock(l);
	arch_irq_restore(flags);
}

static inline void write_unlock_irqrestore(rwlock_t *l, unsigned long flags)
{
	write_unlock(l);
	arch_irq_restore(flags);
}

#endif
