/*
 * Atomic integers and memory barriers (Linux: include/linux/atomic.h,
 * asm/barrier.h, include/asm-generic/rwonce.h), over the compiler's
 * __atomic builtins: on x86-64 a read-modify-write is one LOCK-prefixed
 * instruction, a plain load or store is already atomic, and only a
 * store followed by a load needs a fence (smp_mb). The same code builds
 * on the host, where the tests drive these from several threads.
 *
 * Ordering follows Linux's rules: atomic_read/atomic_set and the void
 * operations (atomic_inc, atomic_add) are relaxed; those that return a
 * value (atomic_inc_return, atomic_dec_and_test, atomic_cmpxchg) are
 * fully ordered; *_acquire and *_release are what they say.
 */
#ifndef FOLIUM_ATOMIC_H
#define FOLIUM_ATOMIC_H

#include <stdbool.h>

/* A compiler barrier: no memory access moves across it. */
#define barrier() __asm__ volatile("" ::: "memory")
/* Linux: READ_ONCE/WRITE_ONCE. One access, not torn, not cached in a
 * register, not merged with another: for data another CPU changes. */
#define READ_ONCE(x) (*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* Linux: smp_mb__before_atomic / after: x86's atomics are full fences. */
#define smp_mb__before_atomic() barrier()
#define smp_mb__after_atomic() barrier()

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

#define ATOMIC_INIT(i) \
	{              \
		(i)    \
	}
#define ATOMIC_LONG_INIT(i) \
	{                   \
		(i)         \
	}

/* One body for both widths: T is the counter's type, P the prefix. */
#define FOLIUM_ATOMIC_OPS(T, P, A)                                                                 \
	static inline T P##_read(const A *v)                                                       \
	{                                                                                          \
		return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);                             \
	}                                                                                          \
	static inline void P##_set(A *v, T i)                                                      \
	{                                                                                          \
		__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);                                \
	}                                                                                          \
	static inline T P##_read_acquire(const A *v)                                               \
	{                                                                                          \
		return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);                             \
	}                                                                                          \
	static inline void P##_set_release(A *v, T i)                                              \
	{                                                                                          \
		__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);                                \
	}                                                                                          \
	static inline void P##_add(T i, A *v)                                                      \
	{                                                                                          \
		__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);                              \
	}                                                                                          \
	static inline void P##_sub(T i, A *v)                                                      \
	{                                                                                          \
		__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);                              \
	}                                                                                          \
	static inline void P##_inc(A *v)                                                           \
	{                                                                                          \
		P##_add(1, v);                                                                     \
	}                                                                                          \
	static inline void P##_dec(A *v)                                                           \
	{                                                                                          \
		P##_sub(1, v);                                                                     \
	}                                                                                          \
	static inline T P##_fetch_add(T i, A *v)                                                   \
	{                                                                                          \
		return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);                       \
	}                                                                                          \
	static inline T P##_add_return(T i, A *v)                                                  \
	{                                                                                          \
		return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);                       \
	}                                                                                          \
	static inline T P##_sub_return(T i, A *v)                                                  \
	{                                                                                          \
		return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);                       \
	}                                                                                          \
	static inline T P##_inc_return(A *v)                                                       \
	{                                                                                          \
		return P##_add_return(1, v);                                                       \
	}                                                                                          \
	static inline T P##_dec_return(A *v)                                                       \
	{                                                                                          \
		return P##_sub_return(1, v);                                                       \
	}                                                                                          \
	static inline bool P##_dec_and_test(A *v)                                                  \
	{                                                                                          \
		return P##_sub_return(1, v) == 0;                                                  \
	}                                                                                          \
	static inline T P##_xchg(A *v, T i)                                                        \
	{                                                                                          \
		return __atomic_exchange_n(&v->counter, i, __ATOMIC_SEQ_CST);                      \
	}                                                                                          \
	/* Return: the old value; the new one was stored if it equalled @old. */                   \
	static inline T P##_cmpxchg(A *v, T old, T new)                                            \
	{                                                                                          \
		__atomic_compare_exchange_n(&v->counter, &old, new, false, __ATOMIC_SEQ_CST,       \
					    __ATOMIC_SEQ_CST);                                     \
		return old;                                                                        \
	}                                                                                          \
	/* Return: whether *@old was stored; if not, *@old is the value seen. */                   \
	static inline bool P##_try_cmpxchg(A *v, T *old, T new)                                    \
	{                                                                                          \
		return __atomic_compare_exchange_n(&v->counter, old, new, false, __ATOMIC_SEQ_CST, \
						   __ATOMIC_SEQ_CST);                              \
	}                                                                                          \
	/* Linux: atomic_add_unless. Return: whether @a was added. */                              \
	static inline bool P##_add_unless(A *v, T a, T u)                                          \
	{                                                                                          \
		T c = P##_read(v);                                                                 \
		do {                                                                               \
			if (c == u)                                                                \
				return false;                                                      \
		} while (!P##_try_cmpxchg(v, &c, c + a));                                          \
		return true;                                                                       \
	}

FOLIUM_ATOMIC_OPS(int, atomic, atomic_t)
FOLIUM_ATOMIC_OPS(long, atomic_long, atomic_long_t)
#undef FOLIUM_ATOMIC_OPS

#define atomic_inc_not_zero(v) atomic_add_unless((v), 1, 0)

#endif
