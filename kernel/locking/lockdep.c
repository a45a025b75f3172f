/*
 * The lock-order checker (include/lockdep.h says what it checks; Linux:
 * kernel/locking/lockdep.c). Its state: the classes (a static key and a
 * subclass each), the order graph as one bit per ordered pair of classes
 * ("before[a] has b": a was held when b was taken), a stack trace per
 * edge for the report, and each task's stack of held locks
 * (task->held_locks). A new edge a -> b is refused, and reported, when
 * the graph already leads from b to a: some CPU may then hold b and wait
 * for a while this one holds a and waits for b.
 *
 * Example: task 1 takes zone->lock then pcp->lock; task 2 takes
 * pcp->lock then zone->lock. The second order closes the cycle, so the
 * checker reports it at once, whether or not the two ever ran together.
 *
 * The graph has its own lock, an untracked arch spinlock taken with
 * interrupts off, so every CPU may check at once.
 */
#include <arch.h>
#include <hardirq.h>
#include <lockdep.h>
#include <sched.h>
#include <spinlock.h>

unsigned int lockdep_reports;
int debug_locks = 1;

#if CONFIG_PROVE_LOCKING

#define MAX_LOCKDEP_KEYS 256
#define MAX_LOCKDEP_ENTRIES 1024
#define LOCKDEP_TRACE 12
#define LOCK_USED_IN_HARDIRQ 0x1 /* taken in a hard interrupt */
#define LOCK_ENABLED_HARDIRQ 0x2 /* taken with interrupts on */

struct lock_class {
	const struct lock_class_key *key;
	unsigned int subclass;
	const char *name;
	unsigned int usage;			     /* LOCK_* */
	unsigned long usage_trace[2][LOCKDEP_TRACE]; /* where each usage was first seen */
};

/* An edge of the graph and the stack that recorded it (Linux: lock_list). */
struct lock_list {
	unsigned short from, to;
	unsigned long trace[LOCKDEP_TRACE];
};

static struct lock_class lock_classes[MAX_LOCKDEP_KEYS];
static unsigned int nr_lock_classes;
static unsigned long before[MAX_LOCKDEP_KEYS][MAX_LOCKDEP_KEYS / BITS_PER_LONG];
static struct lock_list list_entries[MAX_LOCKDEP_ENTRIES];
static unsigned int nr_list_entries;
static arch_spinlock_t lockdep_lock;

static void graph_lock(void)
{
	arch_spin_lock(&lockdep_lock);
}

static void graph_unlock(void)
{
	arch_spin_unlock(&lockdep_lock);
}

/* Linux: debug_locks_off, after the first report. */
static void debug_locks_off(void)
{
	debug_locks = 0;
	lockdep_reports++;
}

void lockdep_init_map(struct lockdep_map *map, const char *name, const struct lock_class_key *key)
{
	map->key = key;
	map->name = name;
	map->class_idx[0] = map->class_idx[1] = 0;
}

/* The class of @map at @subclass, registered on first use. Return: its
 * index, or -1 when the table is full (the checker turns off). */
static int register_lock_class(struct lockdep_map *map, unsigned int subclass)
{
	unsigned int i;

	if (map->class_idx[subclass])
		return map->class_idx[subclass] - 1;
	for (i = 0; i < nr_lock_classes; i++)
		if (lock_classes[i].key == map->key && lock_classes[i].subclass == subclass)
			break;
	if (i == nr_lock_classes) {
		if (nr_lock_classes == MAX_LOCKDEP_KEYS) {
			pr_err("lockdep: more than %d lock classes; turning the checker off\n",
			       MAX_LOCKDEP_KEYS);
			debug_locks = 0;
			return -1;
		}
		lock_classes[i] = (struct lock_class){ .key = map->key,
						       .subclass = subclass,
						       .name = map->name };
		nr_lock_classes++;
	}
	map->class_idx[subclass] = (unsigned short)(i + 1);
	return (int)i;
}

static bool is_before(unsigned int a, unsigned int b)
{
	return before[a][b / BITS_PER_LONG] & (1ul << (b % BITS_PER_LONG));
}

/* Return: whether the graph leads from @from to @to (breadth first). */
static bool reachable(unsigned int from, unsigned int to)
{
	static unsigned short queue[MAX_LOCKDEP_KEYS];
	static unsigned long seen[MAX_LOCKDEP_KEYS / BITS_PER_LONG];
	unsigned int head = 0, tail = 0;

	memset(seen, 0, sizeof(seen));
	queue[tail++] = (unsigned short)from;
	seen[from / BITS_PER_LONG] |= 1ul << (from % BITS_PER_LONG);
	while (head < tail) {
		unsigned int c = queue[head++];

		if (c == to)
			return true;
		for (unsigned int n = 0; n < nr_lock_classes; n++) {
			if (!is_before(c, n) ||
			    (seen[n / BITS_PER_LONG] & (1ul << (n % BITS_PER_LONG))))
				continue;
			seen[n / BITS_PER_LONG] |= 1ul << (n % BITS_PER_LONG);
			queue[tail++] = (unsigned short)n;
		}
	}
	return false;
}

static const struct lock_list *find_edge(unsigned int from, unsigned int to)
{
	for (unsigned int i = 0; i < nr_list_entries; i++)
		if (list_entries[i].from == from && list_entries[i].to == to)
			return &list_entries[i];
	return NULL;
}

/* The first edge out of @from on a path to @to: the stack that made it
 * is the other half of an inversion's story. */
static const struct lock_list *first_edge_towards(unsigned int from, unsigned int to)
{
	for (unsigned int n = 0; n < nr_lock_classes; n++)
		if (is_before(from, n) && (n == to || reachable(n, to)))
			return find_edge(from, n);
	return NULL;
}

static void print_class(const char *what, unsigned int idx)
{
	const struct lock_class *c = &lock_classes[idx];

	pr_emerg("%s (%s)%s\n", what, c->name ? c->name : "?", c->subclass ? "/1" : "");
}

static void print_held_locks(const struct task_struct *t)
{
	pr_emerg("%d lock(s) held by %s/%d:\n", t->lockdep_depth, t->comm, t->pid);
	for (int i = 0; i < t->lockdep_depth; i++)
		pr_emerg(" #%d: (%s)%s\n", i, lock_classes[t->held_locks[i].class_idx].name,
			 t->held_locks[i].irq_context ? " in hard interrupt" : "");
}

static void print_stack_now(void)
{
	unsigned long trace[16];
	unsigned int n = arch_stack_trace_save(trace, 16, 1);

	pr_emerg("stack backtrace (CPU %u):\n", smp_processor_id());
	arch_stack_trace_print(trace, n);
}

static void report_header(const char *what)
{
	pr_emerg("\n======================================================\n");
	pr_emerg("WARNING: %s\n", what);
	pr_emerg("%s/%d is trying to acquire a lock on CPU %u:\n", current->comm, current->pid,
		 smp_processor_id());
}

/* Linux: print_circular_bug. */
static void report_inversion(unsigned int held, unsigned int taken)
{
	const struct lock_list *old = first_edge_towards(taken, held);

	report_header("possible circular locking dependency detected");
	print_class("  new:", taken);
	print_class("but it already holds:", held);
	pr_emerg("and the other order, new before held, was recorded here:\n");
	if (old) {
		print_class("  first:", old->from);
		print_class("  then: ", old->to);
		arch_stack_trace_print(old->trace, LOCKDEP_TRACE);
	}
	print_held_locks(current);
	print_stack_now();
	pr_emerg("======================================================\n");
	debug_locks_off();
}

/* Linux: print_deadlock_bug. */
static void report_recursion(unsigned int idx)
{
	report_header("possible recursive locking detected");
	print_class("  lock:", idx);
	pr_emerg("but it already holds a lock of that class (no nesting annotation)\n");
	print_held_locks(current);
	print_stack_now();
	pr_emerg("======================================================\n");
	debug_locks_off();
}

/* Linux: print_usage_bug, for the hard-interrupt rule. */
static void report_usage(unsigned int idx, unsigned int had)
{
	const struct lock_class *c = &lock_classes[idx];

	report_header(had == LOCK_USED_IN_HARDIRQ
			      ? "inconsistent {IN-HARDIRQ-W} -> {HARDIRQ-ON-W} usage"
			      : "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage");
	print_class("  lock:", idx);
	pr_emerg("%s earlier, here:\n", had == LOCK_USED_IN_HARDIRQ
						? "it was taken in a hard interrupt"
						: "it was taken with interrupts on");
	arch_stack_trace_print(c->usage_trace[had == LOCK_USED_IN_HARDIRQ ? 0 : 1], LOCKDEP_TRACE);
	pr_emerg("an interrupt on a CPU holding it would wait for it forever\n");
	print_held_locks(current);
	print_stack_now();
	pr_emerg("======================================================\n");
	debug_locks_off();
}

/* Linux: mark_lock. Return: false after a report. */
static bool mark_usage(unsigned int idx, bool irqs_were_on)
{
	struct lock_class *c = &lock_classes[idx];
	unsigned int now = in_hardirq()	  ? LOCK_USED_IN_HARDIRQ
			   : irqs_were_on ? LOCK_ENABLED_HARDIRQ
					  : 0;
	unsigned int other =
		now == LOCK_USED_IN_HARDIRQ ? LOCK_ENABLED_HARDIRQ : LOCK_USED_IN_HARDIRQ;

	if (!now || (c->usage & now))
		return true;
	if (c->usage & other) {
		report_usage(idx, other);
		return false;
	}
	c->usage |= now;
	arch_stack_trace_save(c->usage_trace[now == LOCK_USED_IN_HARDIRQ ? 0 : 1], LOCKDEP_TRACE,
			      1);
	return true;
}

/* Linux: check_prev_add. Return: false after a report. */
static bool add_order(unsigned int held, unsigned int taken)
{
	struct lock_list *e;

	if (is_before(held, taken))
		return true;
	if (reachable(taken, held)) {
		report_inversion(held, taken);
		return false;
	}
	before[held][taken / BITS_PER_LONG] |= 1ul << (taken % BITS_PER_LONG);
	if (nr_list_entries == MAX_LOCKDEP_ENTRIES)
		return true; /* the order is kept; only its trace is not */
	e = &list_entries[nr_list_entries++];
	e->from = (unsigned short)held;
	e->to = (unsigned short)taken;
	memset(e->trace, 0, sizeof(e->trace));
	arch_stack_trace_save(e->trace, LOCKDEP_TRACE, 1);
	return true;
}

void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock, bool read)
{
	bool irqs_were_on = !arch_irqs_disabled();
	struct task_struct *t = current;
	unsigned long flags;
	int idx;

	if (!debug_locks || t->lockdep_recursion)
		return;
	flags = arch_irq_save();
	t->lockdep_recursion = 1;
	graph_lock();
	idx = register_lock_class(map, subclass ? 1 : 0);
	if (idx < 0 || !mark_usage((unsigned int)idx, irqs_were_on))
		goto out;
	for (int i = 0; !trylock && i < t->lockdep_depth; i++) {
		const struct held_lock *h = &t->held_locks[i];

		/* A handler's locks do not wait on the task's it interrupted. */
		if (h->irq_context != in_hardirq())
			continue;
		if (h->class_idx == idx) {
			if (read && h->map != map)
				continue; /* two readers of one class: no wait */
			report_recursion((unsigned int)idx);
			goto out;
		}
		if (!add_order(h->class_idx, (unsigned int)idx))
			goto out;
	}
	if (t->lockdep_depth == MAX_LOCK_DEPTH) {
		pr_err("lockdep: %s holds more than %d locks; turning the checker off\n", t->comm,
		       MAX_LOCK_DEPTH);
		debug_locks = 0;
		goto out;
	}
	t->held_locks[t->lockdep_depth++] = (struct held_lock){
		.map = map,
		.class_idx = (unsigned short)idx,
		.irq_context = in_hardirq(),
		.trylock = trylock,
	};
out:
	graph_unlock();
	t->lockdep_recursion = 0;
	arch_irq_restore(flags);
}

void lock_release(struct lockdep_map *map)
{
	struct task_struct *t = current;
	unsigned long flags;
	int i;

	if (!debug_locks || t->lockdep_recursion)
		return;
	flags = arch_irq_save();
	for (i = t->lockdep_depth - 1; i >= 0 && t->held_locks[i].map != map; i--)
		;
	if (i < 0) {
		/* Linux: print_unlock_imbalance_bug. */
		t->lockdep_recursion = 1;
		pr_emerg("\n=====================================\n");
		pr_emerg("WARNING: bad unlock balance detected!\n");
		pr_emerg("%s/%d is trying to release lock (%s) on CPU %u\n", t->comm, t->pid,
			 map->name ? map->name : "?", smp_processor_id());
		pr_emerg("but there are no more locks to release!\n");
		print_held_locks(t);
		print_stack_now();
		debug_locks_off();
		t->lockdep_recursion = 0;
	} else {
		for (; i < t->lockdep_depth - 1; i++)
			t->held_locks[i] = t->held_locks[i + 1];
		t->lockdep_depth--;
	}
	arch_irq_restore(flags);
}

bool lock_is_held(const struct lockdep_map *map)
{
	const struct task_struct *t = current;

	for (int i = 0; i < t->lockdep_depth; i++)
		if (t->held_locks[i].map == map)
			return true;
	return false;
}

#endif /* CONFIG_PROVE_LOCKING */
