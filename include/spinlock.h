/*
 * Spinlocks (Linux: include/linux/spinlock.h and x86's ticket lock of
 * Linux 2.6.25..4.1, arch/x86/include/asm/spinlock.h). A ticket lock is
 * fair and small: a locker takes the next ticket with one atomic add and
 * spins until the owner field reaches it; unlock advances the owner.
 * Example: owner 5, next 7: the holder has ticket 5, one CPU waits with
 * ticket 6; a third locker takes 7 and waits behind it.
 *
 * Folium's kernel is PREEMPT_NONE, so taking a spinlock need not disable
 * preemption; a holder must still never sleep. The _irq and _irqsave
 * forms also disable interrupts on this CPU, for data an interrupt
 * handler touches too (Linux's rule: a lock taken in hard-IRQ context is
 * taken with interrupts off everywhere else; the checker of <lockdep.h>
 * enforces it). The arch_spin_* forms are the bare lock, unseen by the
 * checker (its own lock uses them). The same code runs on the host,
 * where the tests contend for a lock from several threads.
 */
#ifndef FOLIUM_SPINLOCK_H
#define FOLIUM_SPINLOCK_H

#include <arch.h>
#include <atomic.h>
#include <lockdep.h>
#include <stdint.h>
#include <asm/processor.h>

typedef struct {
	union {
		uint32_t val;
		struct {
			uint16_t owner; /* the ticket being served */
			uint16_t next;	/* the ticket the next locker takes */
		} tickets;
	};
} arch_spinlock_t;

static inline void arch_spin_lock(arch_spinlock_t *l)
{
	uint16_t ticket = __atomic_fetch_add(&l->tickets.next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->tickets.owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

/* Return: true if the lock was free and is now held (Linux:
 * arch_spin_trylock: take a ticket only when it would be served now). */
static inline bool arch_spin_trylock(arch_spinlock_t *l)
{
	arch_spinlock_t old, new;

	old.val = __atomic_load_n(&l->val, __ATOMIC_RELAXED);
	if (old.tickets.owner != old.tickets.next)
		return false;
	new = old;
	new.tickets.next++;
	return __atomic_compare_exchange_n(&l->val, &old.val, new.val, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void arch_spin_unlock(arch_spinlock_t *l)
{
	/* Only the holder writes owner: a plain increment, released. */
	__atomic_store_n(&l->tickets.owner, (uint16_t)(l->tickets.owner + 1), __ATOMIC_RELEASE);
}

/* Linux: raw_spinlock_t. spinlock_t is the same lock here (no PREEMPT_RT). */
typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
#if CONFIG_PROVE_LOCKING
	struct lockdep_map dep_map;
#endif
} raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;

#if CONFIG_PROVE_LOCKING
#define __RAW_SPIN_LOCK_UNLOCKED(lockname)                                     \
	{                                                                      \
		.raw_lock = { .val = 0 },                                      \
		.dep_map = STATIC_LOCKDEP_MAP_INIT(#lockname, &lockname##_key) \
	}
/* A static lock's class is its own name. */
#define DEFINE_RAW_SPINLOCK(x)                \
	static struct lock_class_key x##_key; \
	raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
/* Linux: raw_spin_lock_init. Every lock initialised at this line is one
 * class, named after the expression. */
#define raw_spin_lock_init(lock)                                   \
	do {                                                       \
		static struct lock_class_key __key;                \
		(lock)->raw_lock.val = 0;                          \
		lockdep_init_map(&(lock)->dep_map, #lock, &__key); \
	} while (0)
#else
#define __RAW_SPIN_LOCK_UNLOCKED(lockname) \
	{                                  \
		.raw_lock = {.val = 0 }    \
	}
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define raw_spin_lock_init(lock) ((lock)->raw_lock.val = 0)
#endif
#define DEFINE_SPINLOCK(x) DEFINE_RAW_SPINLOCK(x)
#define spin_lock_init raw_spin_lock_init

#if CONFIG_PROVE_LOCKING
#define spin_acquire(l, sub, try) lock_acquire(&(l)->dep_map, (sub), (try), false)
#define spin_release(l) lock_release(&(l)->dep_map)
#else
#define spin_acquire(l, sub, try) ((void)(l))
#define spin_release(l) ((void)(l))
#endif

static inline void raw_spin_lock(raw_spinlock_t *lock)
{
	spin_acquire(lock, 0, false);
	arch_spin_lock(&lock->raw_lock);
}

/* Linux: raw_spin_lock_nested. A second lock of @lock's class, taken
 * inside the first in an order the caller guarantees (subclass 1). */
static inline void raw_spin_lock_nested(raw_spinlock_t *lock, unsigned int subclass)
{
	spin_acquire(lock, subclass, false);
	arch_spin_lock(&lock->raw_lock);
}

static inline bool raw_spin_trylock(raw_spinlock_t *lock)
{
	if (!arch_spin_trylock(&lock->raw_lock))
		return false;
	spin_acquire(lock, 0, true);
	return true;
}

static inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	spin_release(lock);
	arch_spin_unlock(&lock->raw_lock);
}

/* Return: whether some CPU holds the lock (for assertions only). */
static inline bool raw_spin_is_locked(raw_spinlock_t *lock)
{
	arch_spinlock_t v;

	v.val = __atomic_load_n(&lock->raw_lock.val, __ATOMIC_RELAXED);
	return v.tickets.owner != v.tickets.next;
}

/* Return: whether another CPU waits for the lock (Linux:
 * spin_is_contended, for a holder deciding to drop it for a while). */
static inline bool raw_spin_is_contended(raw_spinlock_t *lock)
{
	arch_spinlock_t v;

	v.val = __atomic_load_n(&lock->raw_lock.val, __ATOMIC_RELAXED);
	return (uint16_t)(v.tickets.next - v.tickets.owner) > 1;
}

static inline void raw_spin_lock_irq(raw_spinlock_t *lock)
{
	arch_irq_save();
	raw_spin_lock(lock);
}

static inline void raw_spin_unlock_irq(raw_spinlock_t *lock)
{
	raw_spin_unlock(lock);
	arch_irq_enable();
}

/* Linux: raw_spin_lock_irqsave. @flags gets the interrupt state to give
 * back to raw_spin_unlock_irqrestore. */
#define raw_spin_lock_irqsave(lock, flags) \
	do {                               \
		(flags) = arch_irq_save(); \
		raw_spin_lock(lock);       \
	} while (0)

static inline void raw_spin_unlock_irqrestore(raw_spinlock_t *lock, unsigned long flags)
{
	raw_spin_unlock(lock);
	arch_irq_restore(flags);
}

#define spin_lock raw_spin_lock
#define spin_lock_nested raw_spin_lock_nested
#define spin_trylock raw_spin_trylock
#define spin_unlock raw_spin_unlock
#define spin_is_locked raw_spin_is_locked
#define spin_is_contended raw_spin_is_contended
#define spin_lock_irq raw_spin_lock_irq
#define spin_unlock_irq raw_spin_unlock_irq
#define spin_lock_irqsave raw_spin_lock_irqsave
#define spin_unlock_irqrestore raw_spin_unlock_irqrestore
#define SINGLE_DEPTH_NESTING 1

#endif
