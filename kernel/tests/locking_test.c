/*
 * The locks and their checker. Spinlocks and rwlocks keep their counts
 * exact under contention: on the host from four threads, in the kernel
 * from every online CPU at once (the others through an IPI, so there
 * the lock is taken in hard-IRQ context and, as Linux's rule says, with
 * interrupts off here too). Mutexes, rw_semaphores and refcount_t follow
 * their rules; and the checker reports each kind of bug once, in a case
 * made for it (between "lockdep: expected report" lines, which make test
 * allows; a report anywhere else fails the boot).
 */
#include <arch.h>
#include <hardirq.h>
#include <ktest.h>
#include <mutex.h>
#include <refcount.h>
#include <rwlock.h>
#include <rwsem.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>

/* Fewer rounds in the kernel: under TCG four CPUs share two host cores,
 * and a CPU the host deschedules holding the lock stalls the others. */
#ifdef FOLIUM_HOST
#define ROUNDS 20000
#else
#define ROUNDS 2000
#endif

struct contention {
	spinlock_t lock;
	rwlock_t rw;
	unsigned long counter;
	unsigned long rw_counter;
	unsigned int done;
};

/* Each round: the counter under the spinlock, the other under the
 * rwlock's write side, and a read-side check that nobody is writing. */
static void contend(void *arg)
{
	struct contention *c = arg;

	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&c->lock);
		c->counter++;
		spin_unlock(&c->lock);
		write_lock(&c->rw);
		c->rw_counter++;
		write_unlock(&c->rw);
		read_lock(&c->rw);
		read_unlock(&c->rw);
	}
	__atomic_fetch_add(&c->done, 1, __ATOMIC_RELEASE);
}

#ifdef FOLIUM_HOST
#include <pthread.h>

#define HOST_THREADS 4

static void *contend_thread(void *arg)
{
	contend(arg);
	return NULL;
}

/* The checker keeps one held-lock stack per task, and every host thread
 * runs as the same task: it is off while they contend. */
static unsigned int run_contention(struct contention *c)
{
	pthread_t threads[HOST_THREADS];
	int saved = debug_locks;

	debug_locks = 0;
	for (int i = 0; i < HOST_THREADS; i++)
		pthread_create(&threads[i], NULL, contend_thread, c);
	for (int i = 0; i < HOST_THREADS; i++)
		pthread_join(threads[i], NULL);
	debug_locks = saved;
	return HOST_THREADS;
}
#else
static unsigned int run_contention(struct contention *c)
{
	unsigned int n = num_online_cpus();
	unsigned long flags;
	uint64_t start = arch_uptime_ns();

	smp_call_function_many(cpu_online_mask, contend, c, false);
	flags = arch_irq_save(); /* the others take the locks in an IPI */
	contend(c);
	arch_irq_restore(flags);
	while (__atomic_load_n(&c->done, __ATOMIC_ACQUIRE) < n &&
	       arch_uptime_ns() - start < 60000000000ull)
		cpu_relax();
	return n;
}
#endif

static void spinlocks_and_rwlocks_count_exactly_under_contention(struct kunit *test)
{
	static struct contention c;
	unsigned int n;

	spin_lock_init(&c.lock);
	rwlock_init(&c.rw);
	c.counter = c.rw_counter = 0;
	c.done = 0;
	n = run_contention(&c);
	KUNIT_EXPECT_EQ(test, c.done, n);
	KUNIT_EXPECT_EQ(test, c.counter, (unsigned long)n * ROUNDS);
	KUNIT_EXPECT_EQ(test, c.rw_counter, (unsigned long)n * ROUNDS);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&c.lock));
}

static void a_held_spinlock_refuses_trylock(struct kunit *test)
{
	spinlock_t l;

	spin_lock_init(&l);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&l));
	spin_lock(&l);
	KUNIT_EXPECT_TRUE(test, spin_is_locked(&l));
	KUNIT_EXPECT_FALSE(test, spin_is_contended(&l));
	KUNIT_EXPECT_FALSE(test, spin_trylock(&l));
	spin_unlock(&l);
	KUNIT_EXPECT_TRUE(test, spin_trylock(&l));
	spin_unlock(&l);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&l));
}

static void rwlocks_let_readers_share_and_writers_be_alone(struct kunit *test)
{
	rwlock_t rw;

	rwlock_init(&rw);
	KUNIT_ASSERT_TRUE(test, read_trylock(&rw));
	KUNIT_ASSERT_TRUE(test, read_trylock(&rw));
	KUNIT_EXPECT_FALSE(test, write_trylock(&rw));
	read_unlock(&rw);
	KUNIT_EXPECT_FALSE(test, write_trylock(&rw));
	read_unlock(&rw);
	KUNIT_ASSERT_TRUE(test, write_trylock(&rw));
	KUNIT_EXPECT_FALSE(test, read_trylock(&rw));
	KUNIT_EXPECT_FALSE(test, write_trylock(&rw));
	write_unlock(&rw);
	KUNIT_EXPECT_EQ(test, rw.cnts, 0u);
}

static void mutexes_and_rwsems_follow_their_rules(struct kunit *test)
{
	struct rw_semaphore sem;
	struct mutex m;

	mutex_init(&m);
	KUNIT_ASSERT_TRUE(test, mutex_trylock(&m));
	KUNIT_EXPECT_TRUE(test, mutex_is_locked(&m));
	KUNIT_EXPECT_TRUE(test, m.owner == current);
	KUNIT_EXPECT_FALSE(test, mutex_trylock(&m));
	mutex_unlock(&m);
	mutex_lock(&m); /* free: no sleep */
	mutex_unlock(&m);
	KUNIT_EXPECT_FALSE(test, mutex_is_locked(&m));

	init_rwsem(&sem);
	down_read(&sem);
	KUNIT_ASSERT_TRUE(test, down_read_trylock(&sem));
	KUNIT_EXPECT_FALSE(test, down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KUNIT_ASSERT_TRUE(test, down_write_trylock(&sem));
	KUNIT_EXPECT_FALSE(test, down_read_trylock(&sem));
	KUNIT_EXPECT_TRUE(test, sem.owner == current);
	downgrade_write(&sem); /* now a reader: others may read */
	KUNIT_ASSERT_TRUE(test, down_read_trylock(&sem));
	KUNIT_EXPECT_FALSE(test, down_write_trylock(&sem));
	up_read(&sem);
	up_read(&sem);
	KUNIT_EXPECT_FALSE(test, rwsem_is_locked(&sem));
	/* A waiting writer holds new readers back. */
	sem.writers_waiting = 1;
	KUNIT_EXPECT_FALSE(test, down_read_trylock(&sem));
	sem.writers_waiting = 0;
}

static void refcounts_saturate_instead_of_wrapping(struct kunit *test)
{
	refcount_t r = REFCOUNT_INIT(1);

	refcount_inc(&r);
	KUNIT_EXPECT_EQ(test, refcount_read(&r), 2);
	KUNIT_EXPECT_FALSE(test, refcount_dec_and_test(&r));
	KUNIT_EXPECT_TRUE(test, refcount_dec_and_test(&r));
	KUNIT_EXPECT_FALSE(test, refcount_inc_not_zero(&r));
	refcount_inc(&r); /* from 0: a use after free */
	KUNIT_EXPECT_EQ(test, refcount_read(&r), REFCOUNT_SATURATED);
	KUNIT_EXPECT_FALSE(test, refcount_dec_and_test(&r));
	KUNIT_EXPECT_EQ(test, refcount_read(&r), REFCOUNT_SATURATED);
	refcount_set(&r, 0);
	KUNIT_EXPECT_FALSE(test, refcount_dec_and_test(&r)); /* underflow */
	KUNIT_EXPECT_EQ(test, refcount_read(&r), REFCOUNT_SATURATED);
}

#if CONFIG_PROVE_LOCKING
/* A case that provokes a report: the report is counted and the checker
 * turned back on, with current's held-lock stack as it was. */
struct expected_report {
	unsigned int reports;
	int depth;
};

static struct expected_report expect_report_begin(void)
{
	pr_info("lockdep: expected report follows (the locking suite)\n");
	return (struct expected_report){ lockdep_reports, current->lockdep_depth };
}

/* Return: how many reports the case made. */
static unsigned int expect_report_end(struct expected_report r)
{
	unsigned int made = lockdep_reports - r.reports;

	pr_info("lockdep: expected report ends\n");
	lockdep_reports = r.reports;
	current->lockdep_depth = r.depth;
	debug_locks = 1;
	return made;
}

static void the_checker_reports_an_inverted_pair(struct kunit *test)
{
	struct expected_report r;
	spinlock_t a, b;

	KUNIT_ASSERT_EQ(test, debug_locks, 1);
	spin_lock_init(&a);
	spin_lock_init(&b);
	spin_lock(&a);
	spin_lock(&b); /* a before b: recorded */
	spin_unlock(&b);
	spin_unlock(&a);
	spin_lock(&a);
	spin_lock(&b); /* the same order again: nothing to say */
	spin_unlock(&b);
	spin_unlock(&a);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
	r = expect_report_begin();
	spin_lock(&b);
	spin_lock(&a); /* b before a: the cycle */
	spin_unlock(&a);
	spin_unlock(&b);
	KUNIT_EXPECT_EQ(test, expect_report_end(r), 1u);
}

/* A third lock closes a longer cycle: a before b, b before c, c before a. */
static void the_checker_follows_a_chain_of_orders(struct kunit *test)
{
	struct expected_report r;
	struct mutex a, b, c;

	mutex_init(&a);
	mutex_init(&b);
	mutex_init(&c);
	mutex_lock(&a);
	mutex_lock(&b);
	mutex_unlock(&b);
	mutex_unlock(&a);
	mutex_lock(&b);
	mutex_lock(&c);
	mutex_unlock(&c);
	mutex_unlock(&b);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
	r = expect_report_begin();
	mutex_lock(&c);
	mutex_lock(&a);
	mutex_unlock(&a);
	mutex_unlock(&c);
	KUNIT_EXPECT_EQ(test, expect_report_end(r), 1u);
}

static void the_checker_reports_recursion_unless_nested(struct kunit *test)
{
	struct expected_report r;
	spinlock_t pair[2];

	for (int i = 0; i < 2; i++)
		spin_lock_init(&pair[i]); /* one line: one class */
	spin_lock(&pair[0]);
	spin_lock_nested(&pair[1], SINGLE_DEPTH_NESTING);
	spin_unlock(&pair[1]);
	spin_unlock(&pair[0]);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
	r = expect_report_begin();
	spin_lock(&pair[0]);
	spin_lock(&pair[1]);
	spin_unlock(&pair[1]);
	spin_unlock(&pair[0]);
	KUNIT_EXPECT_EQ(test, expect_report_end(r), 1u);
}

/* Taken in a hard interrupt, then with interrupts on: the interrupt
 * could come while this CPU holds it. The handler is played by
 * irq_enter/irq_exit around the lock, interrupts off. */
static void the_checker_reports_an_irq_unsafe_use(struct kunit *test)
{
	struct expected_report r;
	unsigned long flags;
	spinlock_t l, safe;

	spin_lock_init(&l);
	spin_lock_init(&safe);
	flags = arch_irq_save();
	irq_enter();
	spin_lock(&l);
	spin_unlock(&l);
	spin_lock(&safe);
	spin_unlock(&safe);
	irq_exit();
	arch_irq_restore(flags);
	spin_lock_irqsave(&safe, flags); /* the safe way: no report */
	spin_unlock_irqrestore(&safe, flags);
	KUNIT_EXPECT_EQ(test, debug_locks, 1);
	if (arch_irqs_disabled()) {
		kunit_mark_skipped(test, "interrupts are off here: the unsafe use cannot be shown");
		return;
	}
	r = expect_report_begin();
	spin_lock(&l);
	spin_unlock(&l);
	KUNIT_EXPECT_EQ(test, expect_report_end(r), 1u);
}

static void the_checker_reports_an_unlock_of_a_lock_not_held(struct kunit *test)
{
	struct expected_report r;
	spinlock_t l;

	spin_lock_init(&l);
	arch_spin_lock(&l.raw_lock); /* held, but the checker did not see it */
	r = expect_report_begin();
	spin_unlock(&l);
	KUNIT_EXPECT_EQ(test, expect_report_end(r), 1u);
	KUNIT_EXPECT_FALSE(test, spin_is_locked(&l));
}
#endif

static struct kunit_case locking_cases[] = {
	KUNIT_CASE(spinlocks_and_rwlocks_count_exactly_under_contention),
	KUNIT_CASE(a_held_spinlock_refuses_trylock),
	KUNIT_CASE(rwlocks_let_readers_share_and_writers_be_alone),
	KUNIT_CASE(mutexes_and_rwsems_follow_their_rules),
	KUNIT_CASE(refcounts_saturate_instead_of_wrapping),
#if CONFIG_PROVE_LOCKING
	KUNIT_CASE(the_checker_reports_an_inverted_pair),
	KUNIT_CASE(the_checker_follows_a_chain_of_orders),
	KUNIT_CASE(the_checker_reports_recursion_unless_nested),
	KUNIT_CASE(the_checker_reports_an_irq_unsafe_use),
	KUNIT_CASE(the_checker_reports_an_unlock_of_a_lock_not_held),
#endif
	{},
};

static struct kunit_suite locking_suite = {
	.name = "locking",
	.test_cases = locking_cases,
};
kunit_test_suite(locking_suite);
