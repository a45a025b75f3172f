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
 * taken with interrupts off everywhere else). The same code runs on the
 * host, where the tests contend for a lock from several threads.
 */
#ifndef FOLIUM_SPINLOCK_H
#define FOLIUM_SPINLOCK_H

#include <arch.h>
#include <atomic.h>
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

/* Linux: raw_spinlock_t. spinlock_t is the same lock here (no PREEMPT_RT). */
typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;
typedef raw_spinlock_t spinlock_t;

#define __RAW_SPIN_LOCK_UNLOCKED(name)  \
	{                               \
		.raw_lock = {.val = 0 } \
	}
#define DEFINE_RAW_SPINLOCK(x) raw_spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)
#define DEFINE_SPINLOCK(x) spinlock_t x = __RAW_SPIN_LOCK_UNLOCKED(x)

static inline void raw_spin_lock_init(raw_spinlock_t *lock)
{
	lock->raw_lock.val = 0;
}
#define spin_lock_init raw_spin_lock_init

static inline void raw_spin_lock(raw_spinlock_t *lock)
{
	arch_spinlock_t *l = &lock->raw_lock;
	uint16_t ticket = __atomic_fetch_add(&l->tickets.next, 1, __ATOMIC_RELAXED);

	while (__atomic_load_n(&l->tickets.owner, __ATOMIC_ACQUIRE) != ticket)
		cpu_relax();
}

/* Return: true if the lock was free and is now held (Linux:
 * arch_spin_trylock: take a ticket only when it would be served now). */
static inline bool raw_spin_trylock(raw_spinlock_t *lock)
{
	arch_spinlock_t *l = &lock->raw_lock, old, new;

	old.val = __atomic_load_n(&l->val, __ATOMIC_RELAXED);
	if (old.tickets.owner != old.tickets.next)
		return false;
	new = old;
	new.tickets.next++;
	return __atomic_compare_exchange_n(&l->val, &old.val, new.val, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

static inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	arch_spinlock_t *l = &lock->raw_lock;

	/* Only the holder writes owner: a plain increment, released. */
	__atomic_store_n(&l->tickets.owner, (uint16_t)(l->tickets.owner + 1), __ATOMIC_RELEASE);
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
#define spin_trylock raw_spin_trylock
#define spin_unlock raw_spin_unlock
#define spin_is_locked raw_spin_is_locked
#define spin_is_contended raw_spin_is_contended
#define spin_lock_irq raw_spin_lock_irq
#define spin_unlock_irq raw_spin_unlock_irq
#define spin_lock_irqsave raw_spin_lock_irqsave
#define spin_unlock_irqrestore raw_spin_unlock_irqrestore

#endif
