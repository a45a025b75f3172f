/*
 * poll, ppoll, select and pselect6 (Linux: fs/select.c). Each look asks
 * every file's ->poll for its events; the first look also queues the
 * caller on every wait queue a ->poll names (poll_wait -> __pollwait),
 * so whatever could make a file ready wakes it. Nothing ready: sleep
 * until a wake-up, a signal or the end time, then look again. Example:
 * poll({pipe read end, POLLIN}, 1, 100) on an empty pipe queues the
 * caller on rd_wait and sleeps; a write wakes it and the second look
 * returns 1 with revents POLLIN | POLLRDNORM; with no writer it would
 * have returned 0 after 100 ms.
 *
 * Timeouts are Linux's: an absolute CLOCK_MONOTONIC end time
 * (poll_select_set_timeout: a zero timeout means "look once"), and
 * select and pselect6 write the time left back (poll_select_finish). A
 * signal ends a wait with -ERESTARTNOHAND: -EINTR after a handler, else
 * the call starts again. ppoll and pselect6 wait under the caller's
 * mask and keep the old one for the return to ring 3 (set_user_sigmask).
 */
#include <arch.h>
#include <resource.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

#define N_INLINE_POLL_ENTRIES 8 /* queues a small poll needs no allocation for */
#define POLL_CHUNK_ENTRIES 32
#define TIME64_MAX INT64_MAX
#define NSEC_PER_SEC_S 1000000000ll
#define USEC_PER_SEC_S 1000000ll

/* The events that make select's three sets true (Linux's). */
#define POLLIN_SET (POLLRDNORM | POLLRDBAND | POLLIN | POLLHUP | POLLERR)
#define POLLOUT_SET (POLLWRBAND | POLLWRNORM | POLLOUT | POLLERR)
#define POLLEX_SET (POLLPRI)

/* Linux: struct poll_table_entry. The caller queued on one file's queue;
 * it holds a reference to the file so the queue outlives the wait. */
struct poll_table_entry {
	struct file *filp;
	struct wait_queue_head *wait_address;
	struct wait_queue_entry wait;
};

/* Linux: struct poll_table_page, here a kmalloc'ed chunk. */
struct poll_table_chunk {
	struct poll_table_chunk *next;
	unsigned int nr;
	struct poll_table_entry entries[POLL_CHUNK_ENTRIES];
};

/* Linux: struct poll_wqueues, one poll's or select's queue entries. */
struct poll_wqueues {
	poll_table pt;
	struct task_struct *polling_task;
	int error; /* -ENOMEM: an entry could not be had */
	unsigned int inline_index;
	struct poll_table_entry inline_entries[N_INLINE_POLL_ENTRIES];
	struct poll_table_chunk *table;
};

/* Linux: poll_get_entry. Return: a free entry, or NULL (error set). */
static struct poll_table_entry *poll_get_entry(struct poll_wqueues *p)
{
	struct poll_table_chunk *chunk = p->table;

	if (p->inline_index < N_INLINE_POLL_ENTRIES)
		return &p->inline_entries[p->inline_index++];
	if (!chunk || chunk->nr == POLL_CHUNK_ENTRIES) {
		chunk = kmalloc(sizeof(*chunk), GFP_KERNEL);
		if (!chunk) {
			p->error = -ENOMEM;
			return NULL;
		}
		chunk->nr = 0;
		chunk->next = p->table;
		p->table = chunk;
	}
	return &chunk->entries[chunk->nr++];
}

/* Linux: __pollwait, poll_wait's work during a first look. */
static void __pollwait(struct file *filp, struct wait_queue_head *wait_address, poll_table *pt)
{
	struct poll_wqueues *p = container_of(pt, struct poll_wqueues, pt);
	struct poll_table_entry *entry = poll_get_entry(p);

	if (!entry)
		return;
	filp->f_count++; /* Linux: get_file */
	entry->filp = filp;
	entry->wait_address = wait_address;
	init_waitqueue_func_entry(&entry->wait, NULL);
	entry->wait.task = p->polling_task;
	add_wait_queue(wait_address, &entry->wait);
}

static void poll_initwait(struct poll_wqueues *p, struct task_struct *task)
{
	p->pt = (poll_table){ ._qproc = __pollwait };
	p->polling_task = task;
	p->error = 0;
	p->inline_index = 0;
	p->table = NULL;
}

static void free_poll_entry(struct poll_table_entry *entry)
{
	remove_wait_queue(entry->wait_address, &entry->wait);
	fput(entry->filp);
}

/* Linux: poll_freewait. Off every queue, every reference dropped. */
static void poll_freewait(struct poll_wqueues *p)
{
	for (unsigned int i = 0; i < p->inline_index; i++)
		free_poll_entry(&p->inline_entries[i]);
	while (p->table) {
		struct poll_table_chunk *chunk = p->table;

		for (unsigned int i = 0; i < chunk->nr; i++)
			free_poll_entry(&chunk->entries[i]);
		p->table = chunk->next;
		kfree(chunk);
	}
}

/* --- time ---------------------------------------------------------------- */

static struct timespec64 ktime_get_ts64(void)
{
	uint64_t ns = ktime_get_ns();

	return (struct timespec64){ (int64_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
}

static bool timespec64_is_zero(const struct timespec64 *ts)
{
	return !ts->tv_sec && !ts->tv_nsec;
}

/* Linux: poll_select_set_timeout. *to becomes now + (sec, nsec), or
 * {0, 0} for a zero timeout; past TIME64_MAX it saturates
 * (timespec64_add_safe). Return: 0, or -EINVAL if not normalized. */
static int poll_select_set_timeout(struct timespec64 *to, int64_t sec, int64_t nsec)
{
	struct timespec64 now;

	if (sec < 0 || nsec < 0 || nsec >= NSEC_PER_SEC_S)
		return -EINVAL;
	if (!sec && !nsec) {
		*to = (struct timespec64){ 0, 0 };
		return 0;
	}
	now = ktime_get_ts64();
	nsec += now.tv_nsec;
	if (sec > TIME64_MAX - now.tv_sec - 1) {
		*to = (struct timespec64){ TIME64_MAX, 0 };
		return 0;
	}
	to->tv_sec = now.tv_sec + sec + nsec / NSEC_PER_SEC_S;
	to->tv_nsec = (long)(nsec % NSEC_PER_SEC_S);
	return 0;
}

/* The time from now to @end, {0, 0} once it has passed. */
static struct timespec64 time_left(const struct timespec64 *end)
{
	struct timespec64 now = ktime_get_ts64(), rts;

	rts.tv_sec = end->tv_sec - now.tv_sec;
	rts.tv_nsec = end->tv_nsec - now.tv_nsec;
	if (rts.tv_nsec < 0) {
		rts.tv_sec--;
		rts.tv_nsec += NSEC_PER_SEC_S;
	}
	if (rts.tv_sec < 0)
		rts = (struct timespec64){ 0, 0 };
	return rts;
}

static uint64_t time_left_ns(const struct timespec64 *end)
{
	struct timespec64 left = time_left(end);

	if ((uint64_t)left.tv_sec >= UINT64_MAX / NSEC_PER_SEC)
		return UINT64_MAX; /* centuries: forever */
	return (uint64_t)left.tv_sec * NSEC_PER_SEC + (uint64_t)left.tv_nsec;
}

enum poll_time_type {
	PT_TIMEVAL,
	PT_TIMESPEC
};

/*
 * Linux: poll_select_finish. The mask ppoll or pselect6 installed goes
 * (unless a signal interrupted: then at the return to ring 3), and the
 * time left is written to @p; a copy that fails keeps @ret but makes an
 * interrupted call -EINTR, which is not restarted with a stale time.
 */
static long poll_select_finish(struct task_struct *task, const struct timespec64 *end_time,
			       unsigned long p, enum poll_time_type type, long ret)
{
	struct timespec64 rts;
	int err;

	restore_saved_sigmask_unless(task, ret == -ERESTARTNOHAND);
	if (!p || timespec64_is_zero(end_time))
		return ret;
	rts = time_left(end_time);
	if (type == PT_TIMEVAL) {
		struct __kernel_old_timeval rtv = { rts.tv_sec, rts.tv_nsec / 1000 };

		err = copy_to_user(p, &rtv, sizeof(rtv));
	} else {
		struct __kernel_timespec ts = { rts.tv_sec, rts.tv_nsec };

		err = copy_to_user(p, &ts, sizeof(ts));
	}
	if (err && ret == -ERESTARTNOHAND)
		ret = -EINTR;
	return ret;
}

/* Linux: get_timespec64 and poll_select_set_timeout for ppoll and
 * pselect6. Return: 0, -EFAULT or -EINVAL. */
static int get_end_time(unsigned long tsp, struct timespec64 *to)
{
	struct __kernel_timespec ts;

	if (copy_from_user(&ts, tsp, sizeof(ts)))
		return -EFAULT;
	return poll_select_set_timeout(to, ts.tv_sec, ts.tv_nsec);
}

/* --- the wait ------------------------------------------------------------- */

/* The in-kernel tests poll for a task that is not running: only the
 * running task sets its own state. */
static void poll_set_state(struct task_struct *task, unsigned int state)
{
	if (task == current)
		set_current_state(state);
}

/*
 * Linux: poll_schedule_timeout. Sleep (the state is already set) until
 * a queue, a signal or the end time wakes the caller. Return: false once
 * the end time has passed. A test's task idles to the next interrupt.
 */
static bool poll_schedule_timeout(struct task_struct *task, const struct timespec64 *end)
{
	uint64_t left = end ? time_left_ns(end) : UINT64_MAX;

	if (!left)
		return false;
	if (task != current)
		arch_idle();
	else if (end)
		left = schedule_timeout_ns(left);
	else
		schedule();
	return !end || (task == current ? left != 0 : time_left_ns(end) != 0);
}

/*
 * The look-and-sleep loop of do_poll and do_select. The first look runs
 * TASK_RUNNING and queues the caller (a ->poll may allocate); every later
 * look sets TASK_INTERRUPTIBLE first, so a wake-up that comes between a
 * look and the sleep is not lost: it makes the task running again and
 * schedule() returns at once (Linux closes the same gap with
 * pwq->triggered). @look returns the events found, counted.
 * Return: the count, -ERESTARTNOHAND for a signal, or the table's error.
 */
static int poll_loop(struct task_struct *task, struct poll_wqueues *wait,
		     const struct timespec64 *end_time, int (*look)(void *arg, poll_table *pt),
		     void *arg)
{
	bool timed_out = false, queued = false;
	int count;

	if (end_time && timespec64_is_zero(end_time)) {
		wait->pt._qproc = NULL; /* Linux: optimise the no-wait case */
		timed_out = true;
	}
	for (;;) {
		if (queued)
			poll_set_state(task, TASK_INTERRUPTIBLE);
		count = look(arg, &wait->pt);
		wait->pt._qproc = NULL; /* every queue is joined after one look */
		if (!count) {
			count = wait->error;
			if (signal_pending(task))
				count = -ERESTARTNOHAND;
		}
		if (count || timed_out)
			break;
		if (!queued) {
			queued = true;
			continue;
		}
		if (!poll_schedule_timeout(task, end_time))
			timed_out = true;
	}
	poll_set_state(task, TASK_RUNNING);
	return count;
}

/* The events of @file the caller asks for with @key, or all it has
 * (DEFAULT_POLLMASK without ->poll: regular files, directories). */
static __poll_t vfs_poll(struct file *file, poll_table *pt, __poll_t key)
{
	if (!file->f_op || !file->f_op->poll)
		return DEFAULT_POLLMASK;
	pt->_key = key;
	return file->f_op->poll(file, pt);
}

/* --- poll ------------------------------------------------------------------ */

struct poll_list {
	struct task_struct *task;
	struct pollfd *fds;
	unsigned int nfds;
};

/* Linux: do_pollfd. A negative fd is skipped (revents 0), a closed one
 * is POLLNVAL; POLLERR and POLLHUP are reported unasked. */
static __poll_t do_pollfd(struct task_struct *task, struct pollfd *pollfd, poll_table *pt)
{
	__poll_t events = (unsigned short)pollfd->events | POLLERR | POLLHUP, mask = 0;
	struct file *file;

	if (pollfd->fd >= 0) {
		file = fget(task, pollfd->fd);
		mask = POLLNVAL;
		if (file) {
			mask = vfs_poll(file, pt, events) & events;
			fput(file);
		}
	}
	pollfd->revents = (short)mask;
	return mask;
}

/* One look of do_poll: once something is found, no further queueing. */
static int poll_look(void *arg, poll_table *pt)
{
	struct poll_list *list = arg;
	int count = 0;

	for (unsigned int i = 0; i < list->nfds; i++) {
		if (do_pollfd(list->task, &list->fds[i], pt)) {
			count++;
			pt->_qproc = NULL;
		}
	}
	return count;
}

/* Linux: do_sys_poll. Return: the number of fds with events, or
 * -EINVAL (nfds over RLIMIT_NOFILE), -EFAULT, -ENOMEM, -ERESTARTNOHAND. */
static long do_sys_poll(struct task_struct *task, unsigned long ufds, unsigned int nfds,
			const struct timespec64 *end_time)
{
	struct poll_list list = { task, NULL, nfds };
	struct poll_wqueues *table;
	long ret = -ENOMEM;

	if (nfds > task_rlimit(task, RLIMIT_NOFILE))
		return -EINVAL;
	table = kmalloc(sizeof(*table), GFP_KERNEL);
	if (nfds)
		list.fds = kmalloc(nfds * sizeof(struct pollfd), GFP_KERNEL);
	if (!table || (nfds && !list.fds))
		goto out;
	ret = -EFAULT;
	if (copy_from_user(list.fds, ufds, nfds * sizeof(struct pollfd)))
		goto out;
	poll_initwait(table, task);
	ret = poll_loop(task, table, end_time, poll_look, &list);
	poll_freewait(table);
	for (unsigned int i = 0; i < nfds; i++) {
		unsigned long urevents =
			ufds + i * sizeof(struct pollfd) + offsetof(struct pollfd, revents);

		if (copy_to_user(urevents, &list.fds[i].revents, sizeof(short))) {
			ret = -EFAULT;
			break;
		}
	}
out:
	kfree(list.fds);
	kfree(table);
	return ret;
}

/* Linux returns -ERESTART_RESTARTBLOCK to restart with the time left
 * (do_restart_poll); Folium has no restart block: -ERESTARTNOHAND
 * restarts a poll no handler interrupted with its whole timeout again. */
SYSCALL_DEFINE3(poll, unsigned long, ufds, unsigned int, nfds, int, timeout_msecs)
{
	struct timespec64 end_time, *to = NULL;

	if (timeout_msecs >= 0) {
		to = &end_time;
		poll_select_set_timeout(to, timeout_msecs / 1000,
					(int64_t)(timeout_msecs % 1000) * 1000000);
	}
	return do_sys_poll(task, ufds, nfds, to);
}

SYSCALL_DEFINE5(ppoll, unsigned long, ufds, unsigned int, nfds, unsigned long, tsp, unsigned long,
		sigmask, size_t, sigsetsize)
{
	struct timespec64 end_time, *to = NULL;
	long ret;

	if (tsp) {
		to = &end_time;
		ret = get_end_time(tsp, to);
		if (ret)
			return ret;
	}
	ret = set_user_sigmask(task, sigmask, sigsetsize);
	if (ret)
		return ret;
	ret = do_sys_poll(task, ufds, nfds, to);
	return poll_select_finish(task, &end_time, tsp, PT_TIMESPEC, ret);
}

/* --- select ----------------------------------------------------------------- */

#define FDS_LONGS(nr) (((nr) + 63) / 64)
#define FDS_BYTES(nr) (FDS_LONGS(nr) * sizeof(unsigned long))
#define SELECT_LONGS FDS_LONGS(NR_OPEN_DEFAULT)

/* Linux: fd_set_bits: the three sets asked and the three answered. */
struct fd_set_bits {
	struct task_struct *task;
	int n;
	unsigned long in[SELECT_LONGS], out[SELECT_LONGS], ex[SELECT_LONGS];
	unsigned long res_in[SELECT_LONGS], res_out[SELECT_LONGS], res_ex[SELECT_LONGS];
};

/* Linux: max_select_fd. Return: the highest fd in a set, plus one, or
 * -EBADF if a set names an fd that is not open. */
static int max_select_fd(const struct fd_set_bits *fds)
{
	int max = 0;

	for (int fd = 0; fd < fds->n; fd++) {
		unsigned long bit = 1ul << (fd % 64);

		if (!((fds->in[fd / 64] | fds->out[fd / 64] | fds->ex[fd / 64]) & bit))
			continue;
		if (!fds->task->files->fd[fd])
			return -EBADF;
		max = fd + 1;
	}
	return max;
}

/* Linux: wait_key_set. */
static __poll_t select_key(const struct fd_set_bits *fds, int fd)
{
	unsigned long bit = 1ul << (fd % 64);
	__poll_t key = POLLEX_SET;

	if (fds->in[fd / 64] & bit)
		key |= POLLIN_SET;
	if (fds->out[fd / 64] & bit)
		key |= POLLOUT_SET;
	return key;
}

/* Record @mask's answer for @fd in the result sets. Return: how many of
 * the fd's sets became true. */
static int select_record(struct fd_set_bits *fds, int fd, __poll_t mask)
{
	unsigned long bit = 1ul << (fd % 64);
	int w = fd / 64, count = 0;

	if ((mask & POLLIN_SET) && (fds->in[w] & bit) && !(fds->res_in[w] & bit))
		fds->res_in[w] |= bit, count++;
	if ((mask & POLLOUT_SET) && (fds->out[w] & bit) && !(fds->res_out[w] & bit))
		fds->res_out[w] |= bit, count++;
	if ((mask & POLLEX_SET) && (fds->ex[w] & bit) && !(fds->res_ex[w] & bit))
		fds->res_ex[w] |= bit, count++;
	return count;
}

/* One look of do_select over the fds below fds->n. */
static int select_look(void *arg, poll_table *pt)
{
	struct fd_set_bits *fds = arg;
	int count = 0;

	for (int fd = 0; fd < fds->n; fd++) {
		__poll_t key = select_key(fds, fd);
		struct file *file;
		int found;

		if (key == POLLEX_SET && !(fds->ex[fd / 64] & (1ul << (fd % 64))))
			continue; /* in no set */
		file = fget(fds->task, fd);
		if (!file)
			continue; /* an O_PATH fd: open, but no events */
		found = select_record(fds, fd, vfs_poll(file, pt, key));
		fput(file);
		if (found) {
			count += found;
			pt->_qproc = NULL;
		}
	}
	return count;
}

static int get_fd_set(int n, unsigned long ufdset, unsigned long *fdset)
{
	if (ufdset)
		return copy_from_user(fdset, ufdset, FDS_BYTES(n)) ? -EFAULT : 0;
	memset(fdset, 0, FDS_BYTES(n));
	return 0;
}

static int set_fd_set(int n, unsigned long ufdset, const unsigned long *fdset)
{
	return ufdset && copy_to_user(ufdset, fdset, FDS_BYTES(n)) ? -EFAULT : 0;
}

/*
 * Linux: core_sys_select with do_select. n is cut to the fd table's size
 * (Linux: fdt->max_fds). Return: the number of set bits in the results
 * (written back over the sets given), -EINVAL (n < 0), -EBADF, -EFAULT,
 * -ENOMEM or -ERESTARTNOHAND.
 */
static long core_sys_select(struct task_struct *task, int n, unsigned long inp, unsigned long outp,
			    unsigned long exp, const struct timespec64 *end_time)
{
	struct fd_set_bits *fds;
	struct poll_wqueues *table;
	long ret = -ENOMEM;

	if (n < 0)
		return -EINVAL;
	n = MIN(n, NR_OPEN_DEFAULT);
	fds = kzalloc(sizeof(*fds), GFP_KERNEL);
	table = kmalloc(sizeof(*table), GFP_KERNEL);
	if (!fds || !table)
		goto out;
	fds->task = task;
	fds->n = n;
	ret = get_fd_set(n, inp, fds->in);
	if (!ret)
		ret = get_fd_set(n, outp, fds->out);
	if (!ret)
		ret = get_fd_set(n, exp, fds->ex);
	if (!ret)
		ret = max_select_fd(fds);
	if (ret < 0)
		goto out;
	fds->n = (int)ret;
	poll_initwait(table, task);
	ret = poll_loop(task, table, end_time, select_look, fds);
	poll_freewait(table);
	if (ret < 0)
		goto out;
	if (set_fd_set(n, inp, fds->res_in) || set_fd_set(n, outp, fds->res_out) ||
	    set_fd_set(n, exp, fds->res_ex))
		ret = -EFAULT;
out:
	kfree(fds);
	kfree(table);
	return ret;
}

/* Linux: sys_select. A timeval's microseconds past a second carry into
 * the seconds (Linux's normalization); a negative one is -EINVAL. */
SYSCALL_DEFINE5(select, int, n, unsigned long, inp, unsigned long, outp, unsigned long, exp,
		unsigned long, tvp)
{
	struct timespec64 end_time, *to = NULL;
	struct __kernel_old_timeval tv;
	long ret;

	if (tvp) {
		if (copy_from_user(&tv, tvp, sizeof(tv)))
			return -EFAULT;
		to = &end_time;
		if (poll_select_set_timeout(to, tv.tv_sec + tv.tv_usec / USEC_PER_SEC_S,
					    (tv.tv_usec % USEC_PER_SEC_S) * 1000))
			return -EINVAL;
	}
	ret = core_sys_select(task, n, inp, outp, exp, to);
	return poll_select_finish(task, &end_time, tvp, PT_TIMEVAL, ret);
}

/* Linux: do_pselect with pselect6's sixth argument, the pointer to a
 * { const sigset_t *ss; size_t ss_len; } pair (get_sigset_argpack). */
SYSCALL_DEFINE6(pselect6, int, n, unsigned long, inp, unsigned long, outp, unsigned long, exp,
		unsigned long, tsp, unsigned long, sig)
{
	struct {
		unsigned long p;
		size_t size;
	} x = { 0, 0 };
	struct timespec64 end_time, *to = NULL;
	long ret;

	if (sig && copy_from_user(&x, sig, sizeof(x)))
		return -EFAULT;
	if (tsp) {
		to = &end_time;
		ret = get_end_time(tsp, to);
		if (ret)
			return ret;
	}
	ret = set_user_sigmask(task, x.p, x.size);
	if (ret)
		return ret;
	ret = core_sys_select(task, n, inp, outp, exp, to);
	return poll_select_finish(task, &end_time, tsp, PT_TIMESPEC, ret);
}
