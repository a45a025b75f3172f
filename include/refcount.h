/*
 * Reference counts that cannot wrap (Linux: include/linux/refcount.h):
 * an increment from 0 (a use after free), an overflow or a decrement
 * below 0 saturates the count at REFCOUNT_SATURATED, where it stays, and
 * warns once: the object then leaks instead of being freed while used.
 */
#ifndef FOLIUM_REFCOUNT_H
#define FOLIUM_REFCOUNT_H

#include <atomic.h>
#include <kernel.h>

typedef struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)               \
	{                              \
		.refs = ATOMIC_INIT(n) \
	}
#define REFCOUNT_SATURATED (-0x40000000) /* INT_MIN / 2 */

/* Linux: refcount_warn_saturate. Saturate @r and say why, once. */
static inline void refcount_warn_saturate(refcount_t *r, const char *why)
{
	static bool warned;

	atomic_set(&r->refs, REFCOUNT_SATURATED);
	if (!warned) {
		warned = true;
		pr_warn("refcount_t: %s; the object is leaked, not freed\n", why);
	}
}

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}

static inline int refcount_read(const refcount_t *r)
{
	return atomic_read(&r->refs);
}

/* Return: false (and nothing taken) if the count was 0. */
static inline bool refcount_inc_not_zero(refcount_t *r)
{
	int old = atomic_read(&r->refs);

	do {
		if (!old)
			return false;
	} while (!atomic_try_cmpxchg(&r->refs, &old, old + 1));
	if (old < 0 || old + 1 < 0)
		refcount_warn_saturate(r, "saturated");
	return true;
}

static inline void refcount_inc(refcount_t *r)
{
	int old = atomic_fetch_add(1, &r->refs);

	if (!old)
		refcount_warn_saturate(r, "addition on 0; use-after-free");
	else if (old < 0 || old + 1 < 0)
		refcount_warn_saturate(r, "saturated");
}

/* Return: true when this dropped the last reference (free the object). */
static inline bool refcount_dec_and_test(refcount_t *r)
{
	int old = atomic_fetch_add(-1, &r->refs);

	if (old == 1)
		return true;
	if (old <= 0)
		refcount_warn_saturate(r, old == 0 ? "underflow; use-after-free" : "saturated");
	return false;
}

#endif
