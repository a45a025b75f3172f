/*
 * Fast user-space mutexes (Linux: kernel/futex/core.c, waitwake.c,
 * requeue.c, syscalls.c): the kernel half of every pthread mutex,
 * condition variable, barrier, rwlock, semaphore and join. A futex is a
 * 32-bit word in user memory; a thread that finds it taken sleeps on it
 * with FUTEX_WAIT (if it still holds the value it saw), and the thread
 * that releases it wakes sleepers with FUTEX_WAKE. Sleepers wait in a
 * hash of buckets keyed by what the word is: a private futex
 * (FUTEX_PRIVATE_FLAG) by (mm, address); a shared one by the page under
 * it, so processes mapping the same page meet: a file's page (a tmpfs
 * file, a memfd, shared anonymous memory) by (inode, index in the file),
 * whatever address each maps it at, and a private anonymous page by (mm,
 * address) again. One CPU and no preemption in the kernel make the check
 * of the word and the queueing one step, as Linux's bucket lock does.
 * Example: glibc's pthread_join waits with FUTEX_WAIT on the thread's tid
 * word; the thread's exit writes 0 there and wakes it (mm_release, with
 * CLONE_CHILD_CLEARTID's address).
 */
#include <errno.h>
#include <hrtimer.h>
#include <pagemap.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

/* futex(2)'s operations and flags (Linux: include/uapi/linux/futex.h). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_FD 2
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAKE_OP 5
#define FUTEX_LOCK_PI 6
#define FUTEX_UNLOCK_PI 7
#define FUTEX_TRYLOCK_PI 8
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_WAIT_REQUEUE_PI 11
#define FUTEX_CMP_REQUEUE_PI 12
#define FUTEX_LOCK_PI2 13
#define FUTEX_PRIVATE_FLAG 128
#define FUTEX_CLOCK_REALTIME 256
#define FUTEX_CMD_MASK (~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))
#define FUTEX_BITSET_MATCH_ANY 0xffffffffu

/* FUTEX_WAKE_OP's encoded operation. */
#define FUTEX_OP_SET 0
#define FUTEX_OP_ADD 1
#define FUTEX_OP_OR 2
#define FUTEX_OP_ANDN 3
#define FUTEX_OP_XOR 4
#define FUTEX_OP_OPARG_SHIFT 8
#define FUTEX_OP_CMP_EQ 0
#define FUTEX_OP_CMP_NE 1
#define FUTEX_OP_CMP_LT 2
#define FUTEX_OP_CMP_LE 3
#define FUTEX_OP_CMP_GT 4
#define FUTEX_OP_CMP_GE 5

/* The robust futex word's bits (Linux: FUTEX_WAITERS, FUTEX_OWNER_DIED,
 * FUTEX_TID_MASK) and the walk's bound (ROBUST_LIST_LIMIT). */
#define FUTEX_WAITERS 0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK 0x3fffffffu
#define ROBUST_LIST_LIMIT 2048
#define ROBUST_LIST_HEAD_SIZE 24 /* struct robust_list_head: next, futex_offset, pending */

#define FUTEX_HASH_BITS 8

/*
 * Linux: union futex_key. ptr and word: the mm and the page's address,
 * or the file's inode (its i_sequence) and the page's index in the file.
 * offset: the word's offset in its page, its low bits saying which:
 * FUT_OFF_INODE a file's page, FUT_OFF_MMSHARED a shared futex in a
 * private anonymous page, neither a private futex. Keys match when all
 * three do, so a private wait is never woken by a shared wake.
 */
#define FUT_OFF_INODE 1u
#define FUT_OFF_MMSHARED 2u
struct futex_key {
	uint64_t ptr;
	unsigned long word;
	unsigned int offset;
};

/* get_futex_key's access: a wait or wake reads the word (a read-only
 * mapping will do), FUTEX_WAKE_OP writes it. */
enum futex_access {
	FUTEX_READ,
	FUTEX_WRITE
};

/* Linux: struct futex_q, one sleeping waiter. */
struct futex_q {
	struct list_head list;
	struct task_struct *task;
	struct futex_key key;
	uint32_t bitset;
	bool woken;
};

static struct list_head futex_queues[1 << FUTEX_HASH_BITS];

static struct list_head *hash_futex(const struct futex_key *key)
{
	uint64_t h = (key->ptr >> 4) ^ key->word ^ ((uint64_t)key->offset << 40);

	h *= 0x9e3779b97f4a7c15ull; /* Fibonacci hashing */
	return &futex_queues[h >> (64 - FUTEX_HASH_BITS)];
}

static bool match_futex(const struct futex_key *a, const struct futex_key *b)
{
	return a->ptr == b->ptr && a->word == b->word && a->offset == b->offset;
}

/* Linux: get_inode_sequence_number. An inode's number for futex keys,
 * given on first use and never reused (an inode's address could be, once
 * it is freed), so a key needs no reference on the inode. */
static uint64_t get_inode_sequence_number(struct ramfs_inode *inode)
{
	static uint64_t i_seq;

	if (!inode->i_sequence)
		inode->i_sequence = ++i_seq;
	return inode->i_sequence;
}

/*
 * Linux: get_futex_key. The word must be 4-byte aligned (-EINVAL) and in
 * user space. A shared futex's page is looked up, faulted in for writing
 * first as Linux does (a private file mapping's page is then the
 * process's own copy, keyed by its mm) and for reading if that fails
 * (@rw FUTEX_READ only): a page of the page cache keys by its file; an
 * anonymous one by the mm, unless it is read-only (it can never change,
 * -EFAULT); the zero page and a failed fault are -EFAULT.
 */
static int get_futex_key(struct mm_struct *mm, unsigned long uaddr, bool shared,
			 struct futex_key *key, enum futex_access rw)
{
	unsigned long address = ALIGN_DOWN(uaddr, PAGE_SIZE);
	struct address_space *mapping;
	struct folio *folio;
	struct page *page;
	bool ro = false;

	if (uaddr & 3)
		return -EINVAL;
	if (uaddr >= TASK_SIZE)
		return -EFAULT;
	key->offset = (unsigned int)(uaddr % PAGE_SIZE);
	if (!shared) {
		key->ptr = (uintptr_t)mm;
		key->word = address;
		return 0;
	}
	page = get_user_page(mm, address, true);
	if (!page && rw == FUTEX_READ) {
		page = get_user_page(mm, address, false);
		ro = true;
	}
	if (!page)
		return -EFAULT;
	folio = page_folio(page);
	if (folio_test_anon(folio)) {
		if (ro)
			return -EFAULT;
		key->offset |= FUT_OFF_MMSHARED;
		key->ptr = (uintptr_t)mm;
		key->word = address;
		return 0;
	}
	mapping = folio_file_mapping(folio);
	if (!mapping)
		return -EFAULT;
	key->offset |= FUT_OFF_INODE;
	key->ptr = get_inode_sequence_number(mapping->host);
	key->word = folio->page.index + (unsigned long)(page - &folio->page);
	return 0;
}

static int get_futex_value(uint32_t *val, unsigned long uaddr)
{
	return copy_from_user(val, uaddr, sizeof(*val)) ? -EFAULT : 0;
}

/* Linux: futex_wake_mark, with the waker's part of futex_q_unlock. */
static void wake_futex(struct futex_q *q)
{
	list_del_init(&q->list);
	q->woken = true;
	wake_up_process(q->task);
}

/* Wake at most @nr waiters of @key whose bitset meets @bitset. Return:
 * how many. */
static int futex_wake_key(const struct futex_key *key, int nr, uint32_t bitset)
{
	struct list_head *bucket = hash_futex(key);
	struct futex_q *q, *n;
	int woken = 0;

	if (!bucket->next)
		return 0;
	list_for_each_entry_safe(q, n, bucket, list) {
		if (!match_futex(&q->key, key) || !(q->bitset & bitset))
			continue;
		if (woken >= nr)
			break;
		wake_futex(q);
		woken++;
	}
	return woken;
}

static void futex_queues_init(void)
{
	if (futex_queues[0].next)
		return;
	for (unsigned int i = 0; i < ARRAY_SIZE(futex_queues); i++)
		INIT_LIST_HEAD(&futex_queues[i]);
}

int futex_wake(struct mm_struct *mm, unsigned long uaddr, int nr)
{
	struct futex_key key;

	if (get_futex_key(mm, uaddr, true, &key, FUTEX_READ))
		return 0;
	futex_queues_init();
	return futex_wake_key(&key, nr, FUTEX_BITSET_MATCH_ANY);
}

/*
 * Linux: futex_do_wait, futex_sleep_multiple. Sleep until one of the @nr
 * queued waiters @qs is woken, the monotonic @deadline (0: none) passes
 * or a signal comes, in that order of precedence. The waiters stay
 * queued: the caller takes them off. Return: 0 (one was woken),
 * -ETIMEDOUT or -ERESTARTSYS.
 */
static long futex_sleep(struct task_struct *task, const struct futex_q *qs, unsigned int nr,
			uint64_t deadline)
{
	long ret;

	for (;;) {
		uint64_t now = ktime_get_ns();
		bool woken = false;

		set_current_state(TASK_INTERRUPTIBLE);
		for (unsigned int i = 0; i < nr; i++)
			woken |= qs[i].woken;
		if (woken) {
			ret = 0;
			break;
		}
		if (deadline && now >= deadline) {
			ret = -ETIMEDOUT;
			break;
		}
		if (signal_pending(task)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (task != current) {
			/* An in-kernel test's task cannot sleep: the caller's
			 * own thread is not it. Give up as a timeout would. */
			ret = -ETIMEDOUT;
			break;
		}
		if (deadline)
			schedule_timeout_ns(deadline - now);
		else
			schedule();
	}
	set_current_state(TASK_RUNNING);
	return ret;
}

/*
 * Linux: futex_wait. Sleep on @uaddr while it holds @val, until a wake
 * with a matching bitset, the monotonic @deadline (0: none) or a signal.
 * Return: 0 when woken, -EAGAIN if the word had changed, -ETIMEDOUT,
 * -ERESTARTSYS for a signal with no timeout (the call starts again after
 * a SA_RESTART handler), -EINTR for one with a timeout (Linux restarts
 * those through a restart block with the time left; here the caller sees
 * EINTR, which glibc and musl retry).
 */
static long futex_wait(struct task_struct *task, unsigned long uaddr, bool shared, uint32_t val,
		       uint64_t deadline, uint32_t bitset)
{
	struct futex_q q = { .task = task, .bitset = bitset };
	uint32_t uval;
	long ret;

	if (!bitset)
		return -EINVAL;
	ret = get_futex_key(task->mm, uaddr, shared, &q.key, FUTEX_READ);
	if (ret)
		return ret;
	futex_queues_init();
	ret = get_futex_value(&uval, uaddr);
	if (ret)
		return ret;
	if (uval != val)
		return -EAGAIN;
	list_add_tail(&q.list, hash_futex(&q.key));
	ret = futex_sleep(task, &q, 1, deadline);
	if (q.woken)
		return 0;
	list_del_init(&q.list);
	return ret == -ERESTARTSYS && deadline ? -EINTR : ret;
}

/*
 * Linux: futex_requeue (not PI). With @cmpval (CMP_REQUEUE) the word at
 * @uaddr1 must still hold it (-EAGAIN). Wake @nr_wake waiters of @uaddr1
 * and move up to @nr_requeue more to wait on @uaddr2. Return: the woken
 * and moved together.
 */
static long futex_requeue(struct task_struct *task, bool shared, unsigned long uaddr1,
			  unsigned long uaddr2, int nr_wake, int nr_requeue, const uint32_t *cmpval)
{
	struct futex_key key1, key2;
	struct futex_q *q, *n;
	struct list_head *bucket;
	long ret;
	int done = 0, moved = 0;

	if (nr_wake < 0 || nr_requeue < 0)
		return -EINVAL;
	ret = get_futex_key(task->mm, uaddr1, shared, &key1, FUTEX_READ);
	if (!ret)
		ret = get_futex_key(task->mm, uaddr2, shared, &key2, FUTEX_READ);
	if (ret)
		return ret;
	futex_queues_init();
	if (cmpval) {
		uint32_t uval;

		ret = get_futex_value(&uval, uaddr1);
		if (ret)
			return ret;
		if (uval != *cmpval)
			return -EAGAIN;
	}
	bucket = hash_futex(&key1);
	list_for_each_entry_safe(q, n, bucket, list) {
		if (!match_futex(&q->key, &key1))
			continue;
		if (done < nr_wake) {
			wake_futex(q);
			done++;
		} else if (moved < nr_requeue) {
			list_del(&q->list);
			q->key = key2;
			list_add_tail(&q->list, hash_futex(&key2));
			moved++;
		} else {
			break;
		}
	}
	return done + moved;
}

/* Linux: futex_atomic_op_inuser. The op on the word at @uaddr, its old
 * value in *@oldval. Return: 0, -EFAULT or -ENOSYS for an unknown op. */
static int futex_atomic_op_inuser(uint32_t encoded_op, unsigned long uaddr, int *oldval)
{
	unsigned int op = (encoded_op >> 28) & 7;
	int oparg = (int)(encoded_op << 8) >> 20;
	uint32_t old, next;

	if (encoded_op & (FUTEX_OP_OPARG_SHIFT << 28)) {
		/* Linux warns once and masks a shift out of range. */
		if (oparg < 0 || oparg > 31)
			oparg &= 31;
		oparg = 1 << oparg;
	}
	if (get_futex_value(&old, uaddr))
		return -EFAULT;
	switch (op) {
	case FUTEX_OP_SET:
		next = (uint32_t)oparg;
		break;
	case FUTEX_OP_ADD:
		next = old + (uint32_t)oparg;
		break;
	case FUTEX_OP_OR:
		next = old | (uint32_t)oparg;
		break;
	case FUTEX_OP_ANDN:
		next = old & ~(uint32_t)oparg;
		break;
	case FUTEX_OP_XOR:
		next = old ^ (uint32_t)oparg;
		break;
	default:
		return -ENOSYS;
	}
	if (copy_to_user(uaddr, &next, sizeof(next)))
		return -EFAULT;
	*oldval = (int)old;
	return 0;
}

/* Linux: futex_atomic_op_inuser's comparison. Return: 0/1, or -ENOSYS. */
static int futex_op_cmp(uint32_t encoded_op, int oldval)
{
	unsigned int cmp = (encoded_op >> 24) & 15;
	int cmparg = (int)(encoded_op << 20) >> 20;

	switch (cmp) {
	case FUTEX_OP_CMP_EQ:
		return oldval == cmparg;
	case FUTEX_OP_CMP_NE:
		return oldval != cmparg;
	case FUTEX_OP_CMP_LT:
		return oldval < cmparg;
	case FUTEX_OP_CMP_LE:
		return oldval <= cmparg;
	case FUTEX_OP_CMP_GT:
		return oldval > cmparg;
	case FUTEX_OP_CMP_GE:
		return oldval >= cmparg;
	default:
		return -ENOSYS;
	}
}

/* Linux: futex_wake_op. Change the word at @uaddr2 by @op, wake
 * @nr_wake waiters of @uaddr1 and, if the old value passes @op's test,
 * @nr_wake2 of @uaddr2. Return: how many were woken. */
static long futex_wake_op(struct task_struct *task, bool shared, unsigned long uaddr1,
			  unsigned long uaddr2, int nr_wake, int nr_wake2, uint32_t op)
{
	struct futex_key key1, key2;
	int oldval, cmp, ret;
	long woken;

	ret = get_futex_key(task->mm, uaddr1, shared, &key1, FUTEX_READ);
	if (!ret)
		ret = get_futex_key(task->mm, uaddr2, shared, &key2, FUTEX_WRITE);
	if (ret)
		return ret;
	futex_queues_init();
	ret = futex_atomic_op_inuser(op, uaddr2, &oldval);
	if (ret)
		return ret;
	cmp = futex_op_cmp(op, oldval);
	if (cmp < 0)
		return cmp;
	woken = futex_wake_key(&key1, nr_wake, FUTEX_BITSET_MATCH_ANY);
	if (cmp)
		woken += futex_wake_key(&key2, nr_wake2, FUTEX_BITSET_MATCH_ANY);
	return woken;
}

/* The monotonic deadline of FUTEX_WAIT's relative or WAIT_BITSET's
 * absolute time on the clock @op names. Return: 0, -EFAULT, -EINVAL. */
static int futex_deadline(int cmd, int op, unsigned long utime, uint64_t *deadline)
{
	struct __kernel_timespec ts;
	uint64_t t;

	*deadline = 0;
	if (!utime)
		return 0;
	if (copy_from_user(&ts, utime, sizeof(ts)))
		return -EFAULT;
	if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long long)NSEC_PER_SEC)
		return -EINVAL;
	t = (uint64_t)ts.tv_sec > (UINT64_MAX >> 1) / NSEC_PER_SEC
		    ? UINT64_MAX >> 1
		    : (uint64_t)ts.tv_sec * NSEC_PER_SEC + (uint64_t)ts.tv_nsec;
	if (cmd == FUTEX_WAIT) {
		/* Linux: relative, whatever the clock. */
		*deadline = ktime_get_ns() + t;
	} else if (op & FUTEX_CLOCK_REALTIME) {
		uint64_t real = ktime_get_real_ns(), now = ktime_get_ns();

		*deadline = t <= real ? now : now + (t - real);
	} else {
		*deadline = t;
	}
	if (!*deadline)
		*deadline = 1; /* monotonic 0 is long gone: expired, not "none" */
	return 0;
}

/* Linux: do_futex with futex_cmd_has_timeout's argument decoding:
 * @utime is a timeout for the waits and the count val2 for the others. */
long do_futex(struct task_struct *task, unsigned long uaddr, int op, uint32_t val,
	      unsigned long utime, unsigned long uaddr2, uint32_t val3)
{
	int cmd = op & FUTEX_CMD_MASK;
	bool shared = !(op & FUTEX_PRIVATE_FLAG);
	uint64_t deadline;
	long ret;

	/* Linux: FUTEX_CLOCK_REALTIME only for the waits that take a time. */
	if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET &&
	    cmd != FUTEX_WAIT_REQUEUE_PI && cmd != FUTEX_LOCK_PI2)
		return -ENOSYS;
	switch (cmd) {
	case FUTEX_WAIT:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAIT_BITSET:
		ret = futex_deadline(cmd, op, utime, &deadline);
		if (ret)
			return ret;
		return futex_wait(task, uaddr, shared, val, deadline, val3);
	case FUTEX_WAKE:
		val3 = FUTEX_BITSET_MATCH_ANY;
		/* fall through */
	case FUTEX_WAKE_BITSET: {
		struct futex_key key;

		if (!val3)
			return -EINVAL;
		ret = get_futex_key(task->mm, uaddr, shared, &key, FUTEX_READ);
		if (ret)
			return ret;
		futex_queues_init();
		return futex_wake_key(&key, (int)MIN(val, (uint32_t)INT32_MAX), val3);
	}
	case FUTEX_REQUEUE:
		return futex_requeue(task, shared, uaddr, uaddr2, (int)val, (int)utime, NULL);
	case FUTEX_CMP_REQUEUE:
		return futex_requeue(task, shared, uaddr, uaddr2, (int)val, (int)utime, &val3);
	case FUTEX_WAKE_OP:
		return futex_wake_op(task, shared, uaddr, uaddr2, (int)val, (int)utime, val3);
	default:
		/* Priority-inheritance futexes (LOCK_PI, ...) and FUTEX_FD
		 * (gone since Linux 2.6.26) are not served. */
		return -ENOSYS;
	}
}

SYSCALL_DEFINE6(futex, unsigned long, uaddr, int, op, uint32_t, val, unsigned long, utime,
		unsigned long, uaddr2, uint32_t, val3)
{
	return do_futex(task, uaddr, op, val, utime, uaddr2, val3);
}

/* --- futex_waitv: one wait on many futexes -------------------------------------- */

#define FUTEX_WAITV_MAX 128
#define FUTEX2_SIZE_U32 0x02
#define FUTEX2_SIZE_MASK 0x03
#define FUTEX2_PRIVATE FUTEX_PRIVATE_FLAG

/* Linux: struct futex_waitv (uapi). */
struct futex_waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

/* Linux: futex_parse_waitv. Each waiter a 32-bit futex (FUTEX2_SIZE_U32;
 * FUTEX2_PRIVATE or shared), a value that fits it and nothing reserved. */
static int futex_parse_waitv(struct task_struct *task, struct futex_q *qs, struct futex_waitv *ws,
			     unsigned long uwaiters, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		struct futex_waitv *w = &ws[i];
		int ret;

		if (copy_from_user(w, uwaiters + i * sizeof(*w), sizeof(*w)))
			return -EFAULT;
		if ((w->flags & ~(FUTEX2_SIZE_MASK | FUTEX2_PRIVATE)) || w->reserved ||
		    (w->flags & FUTEX2_SIZE_MASK) != FUTEX2_SIZE_U32 || w->val > UINT32_MAX)
			return -EINVAL;
		ret = get_futex_key(task->mm, (unsigned long)w->uaddr, !(w->flags & FUTEX2_PRIVATE),
				    &qs[i].key, FUTEX_READ);
		if (ret)
			return ret;
		qs[i].task = task;
		qs[i].bitset = FUTEX_BITSET_MATCH_ANY;
		qs[i].woken = false;
		INIT_LIST_HEAD(&qs[i].list);
	}
	return 0;
}

/* Linux: futex_unqueue_multiple. Every waiter off its queue. Return: the
 * index of the first that was woken, or -1. */
static int futex_unqueue_multiple(struct futex_q *qs, unsigned int nr)
{
	int woken = -1;

	for (unsigned int i = 0; i < nr; i++) {
		if (qs[i].woken && woken < 0)
			woken = (int)i;
		list_del_init(&qs[i].list);
	}
	return woken;
}

/*
 * Linux: futex_wait_multiple with futex_wait_multiple_setup. Queue on
 * every futex while each word holds its value (-EAGAIN and none queued
 * if one does not), then sleep until a wake of any, the monotonic
 * @deadline (0: none) or a signal. Return: the index of the woken one
 * (the lowest if several), -ETIMEDOUT or -ERESTARTSYS.
 */
static long futex_wait_multiple(struct task_struct *task, struct futex_q *qs,
				const struct futex_waitv *ws, unsigned int nr, uint64_t deadline)
{
	long ret;
	int woken;

	for (unsigned int i = 0; i < nr; i++) {
		uint32_t uval;

		if (get_futex_value(&uval, (unsigned long)ws[i].uaddr)) {
			futex_unqueue_multiple(qs, i);
			return -EFAULT;
		}
		if (uval != (uint32_t)ws[i].val) {
			futex_unqueue_multiple(qs, i);
			return -EAGAIN;
		}
		list_add_tail(&qs[i].list, hash_futex(&qs[i].key));
	}
	ret = futex_sleep(task, qs, nr, deadline);
	woken = futex_unqueue_multiple(qs, nr);
	return woken >= 0 ? woken : ret;
}

/*
 * Linux: futex_waitv(waiters, nr_futexes, flags, timeout, clockid) with
 * futex2_setup_timeout: no flags; 1 to 128 waiters; an absolute
 * timeout on CLOCK_MONOTONIC or CLOCK_REALTIME. Example: Wine's and
 * Proton's WaitForMultipleObjects. Return: the index of a woken futex,
 * -EINVAL, -EFAULT, -EAGAIN (a word no longer held its value),
 * -ETIMEDOUT, -ERESTARTSYS or -ENOMEM.
 */
SYSCALL_DEFINE5(futex_waitv, unsigned long, waiters, unsigned int, nr_futexes, unsigned int, flags,
		unsigned long, timeout, int, clockid)
{
	struct futex_waitv *ws;
	struct futex_q *qs;
	uint64_t deadline = 0;
	long ret;

	if (flags || !nr_futexes || nr_futexes > FUTEX_WAITV_MAX || !waiters)
		return -EINVAL;
	if (timeout) {
		if (clockid != CLOCK_REALTIME && clockid != CLOCK_MONOTONIC)
			return -EINVAL;
		ret = futex_deadline(FUTEX_WAIT_BITSET,
				     clockid == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0, timeout,
				     &deadline);
		if (ret)
			return ret;
	}
	ws = kmalloc(nr_futexes * sizeof(*ws), GFP_KERNEL);
	qs = kmalloc(nr_futexes * sizeof(*qs), GFP_KERNEL);
	ret = -ENOMEM;
	if (ws && qs) {
		futex_queues_init();
		ret = futex_parse_waitv(task, qs, ws, waiters, nr_futexes);
		if (!ret)
			ret = futex_wait_multiple(task, qs, ws, nr_futexes, deadline);
	}
	kfree(qs);
	kfree(ws);
	return ret;
}

/* --- robust futexes ------------------------------------------------------------ */

SYSCALL_DEFINE2(set_robust_list, unsigned long, head, size_t, len)
{
	if (len != ROBUST_LIST_HEAD_SIZE)
		return -EINVAL;
	task->robust_list = head;
	return 0;
}

/* Linux: sys_get_robust_list. Another thread's needs ptrace access. */
SYSCALL_DEFINE3(get_robust_list, int, pid, unsigned long, head_ptr, unsigned long, len_ptr)
{
	struct task_struct *p = pid ? find_task_by_vpid(pid) : task;
	size_t len = ROBUST_LIST_HEAD_SIZE;

	if (!p)
		return -ESRCH;
	if (!ptrace_may_access(task, p))
		return -EPERM;
	if (copy_to_user(len_ptr, &len, sizeof(len)) ||
	    copy_to_user(head_ptr, &p->robust_list, sizeof(p->robust_list)))
		return -EFAULT;
	return 0;
}

/* Linux: handle_futex_death. A lock word @tsk still owns gets
 * FUTEX_OWNER_DIED (keeping FUTEX_WAITERS) and one waiter is woken to
 * take it; a pending op on an unowned word wakes one as well. */
static void handle_futex_death(struct task_struct *tsk, unsigned long uaddr, bool pending_op)
{
	uint32_t uval, next;

	if ((uaddr & 3) || get_futex_value(&uval, uaddr))
		return;
	if (pending_op && !uval) {
		futex_wake(tsk->mm, uaddr, 1);
		return;
	}
	if ((uval & FUTEX_TID_MASK) != (uint32_t)tsk->pid)
		return;
	next = (uval & FUTEX_WAITERS) | FUTEX_OWNER_DIED;
	if (copy_to_user(uaddr, &next, sizeof(next)))
		return;
	if (uval & FUTEX_WAITERS)
		futex_wake(tsk->mm, uaddr, 1);
}

/* Linux: fetch_robust_entry; bit 0 marks a PI futex (not served). */
static int fetch_robust_entry(unsigned long *entry, unsigned long uptr, bool *pi)
{
	unsigned long v;

	if (copy_from_user(&v, uptr, sizeof(v)))
		return -EFAULT;
	*entry = v & ~1ul;
	*pi = v & 1;
	return 0;
}

/*
 * Linux: exit_robust_list. At exit or exec, every lock on the thread's
 * robust list (glibc's robust and, since 2.x, all mutexes it holds that
 * were made robust) is marked as its owner's death: a waiter wakes with
 * EOWNERDEAD instead of waiting forever. The walk is bounded, so a
 * corrupt or circular list cannot hang the exit.
 */
void exit_robust_list(struct task_struct *tsk)
{
	unsigned long head = tsk->robust_list, entry, next_entry, pending;
	unsigned int limit = ROBUST_LIST_LIMIT;
	long futex_offset;
	bool pi, pip, next_pi;

	if (!head || !tsk->mm)
		return;
	tsk->robust_list = 0;
	if (fetch_robust_entry(&entry, head, &pi) ||
	    copy_from_user(&futex_offset, head + 8, sizeof(futex_offset)) ||
	    fetch_robust_entry(&pending, head + 16, &pip))
		return;
	while (entry != head) {
		int err = fetch_robust_entry(&next_entry, entry, &next_pi);

		/* The pending op is handled after the list. */
		if (entry != pending && !pi)
			handle_futex_death(tsk, entry + (unsigned long)futex_offset, false);
		if (err || !--limit)
			return;
		entry = next_entry;
		pi = next_pi;
		cond_resched();
	}
	if (pending && !pip)
		handle_futex_death(tsk, pending + (unsigned long)futex_offset, true);
}
