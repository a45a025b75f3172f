/*
 * epoll (Linux: fs/eventpoll.c). An epoll file holds a struct eventpoll:
 * its interest list, a tree of struct epitem keyed by (file, fd), and its
 * ready list. Each item queues an entry of its own on every wait queue
 * the file's ->poll names (ep_ptable_queue_proc), so a wake-up of the
 * file runs ep_poll_callback, which puts the item on the ready list and
 * wakes the tasks in epoll_wait. epoll_wait looks only at the ready list:
 * it polls each item again (ep_item_poll) and reports what is really
 * ready; a level-triggered item goes back on the list for the next call,
 * an edge-triggered one waits for the next wake-up, a one-shot one is
 * disabled until EPOLL_CTL_MOD. Example: a pipe's read end added for
 * EPOLLIN is not ready; a write wakes rd_wait, ep_poll_callback puts the
 * item on the ready list, epoll_wait reports EPOLLIN and (level
 * triggered) keeps it there until a read empties the pipe.
 *
 * Any file with ->poll and a wait queue can be watched (pipes, the tty,
 * eventfd, another epoll); a file without ->poll is -EPERM. A callback
 * may come from an interrupt (the console's input), so the ready list
 * changes with interrupts off. An item lives until EPOLL_CTL_DEL, the
 * epoll's release or the watched file's last fput (eventpoll_release).
 * One CPU: Linux's ep->mtx is not needed, since whatever takes an item
 * off its epoll (ep_remove) also takes it off the list a scan walks; a
 * scan only holds an item across a copy to the user while it is still on
 * that list.
 */
#include <anon_inodes.h>
#include <arch.h>
#include <eventpoll.h>
#include <rbtree.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>

#define EP_MAX_NESTS 4 /* Linux: epoll chains deeper than this are -ELOOP */
#define EP_MAX_EVENTS (INT32_MAX / (int)sizeof(struct epoll_event))
#define EP_NO_END UINT64_MAX /* ep_poll waits for ever */

/* The flags of an item that are not events (Linux: EP_PRIVATE_BITS). */
#define EP_PRIVATE_BITS (EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
/* What EPOLLEXCLUSIVE may come with (Linux: EPOLLEXCLUSIVE_OK_BITS). */
#define EPOLLEXCLUSIVE_OK_BITS \
	(EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | EPOLLEXCLUSIVE)

struct epitem;

/* Linux: struct eppoll_entry, an item's entry on one of its file's
 * wait queues. */
struct eppoll_entry {
	struct eppoll_entry *next; /* the item's other entries */
	struct epitem *base;
	struct wait_queue_entry wait; /* func: ep_poll_callback */
	struct wait_queue_head *whead;
};

/* Linux: struct epoll_filefd, what an item watches. */
struct epoll_filefd {
	struct file *file;
	int fd;
};

/* Linux: struct epitem, one (file, fd) in an epoll's interest list. */
struct epitem {
	struct rb_node rbn;	  /* in ep->rbr */
	struct list_head rdllink; /* on the ready list (or a scan's); empty if not */
	struct epoll_filefd ffd;  /* no reference: the file's last fput removes us */
	struct eppoll_entry *pwqlist;
	int nwait; /* queues joined; -1 when an entry could not be had */
	struct eventpoll *ep;
	struct epitem *fllink_next; /* the next item on ffd.file->f_ep */
	bool woken_in_scan;	    /* a callback found it on a scan's list (Linux: ovflist) */
	struct epoll_event event;   /* events asked (with EPOLLERR | EPOLLHUP) and data */
};

/* Linux: struct eventpoll, an epoll file's private_data. */
struct eventpoll {
	struct wait_queue_head wq;	  /* tasks in epoll_wait */
	struct wait_queue_head poll_wait; /* pollers of this epoll file (file->poll) */
	struct list_head rdllist;	  /* ready items */
	struct rb_root rbr;		  /* every item, by (file, fd) */
	struct file *file;
	uint64_t gen;	      /* ep_loop_check's visit mark */
	int loop_check_depth; /* its answer for this epoll during that visit */
};

/* Linux: struct ep_pqueue, the poll table ep_insert polls the file with. */
struct ep_pqueue {
	poll_table pt;
	struct epitem *epi;
};

static struct ramfs_inode eventpoll_inode = ANON_INODE_INIT("[eventpoll]");
static const struct file_operations eventpoll_fops;
static uint64_t loop_check_gen; /* Linux: one walk of ep_loop_check */
static struct eventpoll *inserting_into;

static bool is_file_epoll(const struct file *file)
{
	return file->f_op == &eventpoll_fops;
}

/* Linux: file_can_poll. */
static bool file_can_poll(const struct file *file)
{
	return file->f_op && file->f_op->poll;
}

/* Linux: ep_op_has_event: every op but EPOLL_CTL_DEL reads an event. */
static bool ep_op_has_event(int op)
{
	return op != EPOLL_CTL_DEL;
}

/* --- the ready list: interrupts off around every change ------------------ */

static bool ep_is_linked(const struct epitem *epi)
{
	return !list_empty(&epi->rdllink);
}

static bool ep_events_available(struct eventpoll *ep)
{
	return !list_empty(&ep->rdllist);
}

/* Move every entry of @from to the front of @to (Linux: list_splice_init). */
static void ep_splice_init(struct list_head *from, struct list_head *to)
{
	struct list_head *first = from->next, *last = from->prev;

	if (list_empty(from))
		return;
	last->next = to->next;
	to->next->prev = last;
	to->next = first;
	first->prev = to;
	INIT_LIST_HEAD(from);
}

/* Put @epi on the ready list unless it is on one already. Return: true
 * if it was put there. */
static bool ep_set_ready(struct eventpoll *ep, struct epitem *epi)
{
	unsigned long flags = arch_irq_save();
	bool added = !ep_is_linked(epi);

	if (added)
		list_add_tail(&epi->rdllink, &ep->rdllist);
	arch_irq_restore(flags);
	return added;
}

/* Linux: ep_start_scan: the ready list becomes the scan's @txlist. */
static void ep_start_scan(struct eventpoll *ep, struct list_head *txlist)
{
	unsigned long flags = arch_irq_save();

	ep_splice_init(&ep->rdllist, txlist);
	arch_irq_restore(flags);
}

/* Linux: ep_done_scan: what the scan left goes back in front of the
 * items made ready meanwhile, and another waiter is told if any are. */
static void ep_done_scan(struct eventpoll *ep, struct list_head *txlist)
{
	unsigned long flags = arch_irq_save();

	ep_splice_init(txlist, &ep->rdllist);
	arch_irq_restore(flags);
	if (ep_events_available(ep))
		wake_up(&ep->wq);
}

/* The first item of a scan's @txlist, or NULL. */
static struct epitem *ep_txlist_first(struct list_head *txlist)
{
	unsigned long flags = arch_irq_save();
	struct epitem *epi =
		list_empty(txlist) ? NULL : list_first_entry(txlist, struct epitem, rdllink);

	arch_irq_restore(flags);
	return epi;
}

/* The first item of a scan's @txlist, taken off it, or NULL. */
static struct epitem *ep_txlist_pop(struct list_head *txlist)
{
	unsigned long flags = arch_irq_save();
	struct epitem *epi = NULL;

	if (!list_empty(txlist)) {
		epi = list_first_entry(txlist, struct epitem, rdllink);
		list_del_init(&epi->rdllink);
	}
	arch_irq_restore(flags);
	return epi;
}

/* Put @epi back at the front of @list, unless a callback has put it on
 * the ready list meanwhile. */
static void ep_relink(struct epitem *epi, struct list_head *list)
{
	unsigned long flags = arch_irq_save();

	if (!ep_is_linked(epi))
		list_add(&epi->rdllink, list);
	arch_irq_restore(flags);
}

static void ep_unlink_ready(struct epitem *epi)
{
	unsigned long flags = arch_irq_save();

	list_del_init(&epi->rdllink);
	arch_irq_restore(flags);
}

/* --- polling an item ------------------------------------------------------ */

static __poll_t __ep_eventpoll_poll(struct file *file, poll_table *wait, int depth);

/* Linux: ep_item_poll. The item's file's events now, of those it asks
 * for; an epoll file is asked at @depth, so nesting stays bounded. */
static __poll_t ep_item_poll(struct epitem *epi, poll_table *pt, int depth)
{
	struct file *file = epi->ffd.file;
	__poll_t res;

	pt->_key = epi->event.events;
	if (is_file_epoll(file))
		res = __ep_eventpoll_poll(file, pt, depth);
	else
		res = file->f_op->poll(file, pt);
	return res & epi->event.events;
}

/*
 * Linux: __ep_eventpoll_poll. An epoll file is readable when one of its
 * ready items really is: items on the list that poll as nothing (a
 * callback for an event not asked for, a pipe read empty since) leave it.
 */
static __poll_t __ep_eventpoll_poll(struct file *file, poll_table *wait, int depth)
{
	struct eventpoll *ep = file->private_data;
	poll_table pt = { NULL, 0 };
	struct list_head txlist = LIST_HEAD_INIT(txlist);
	__poll_t res = 0;
	struct epitem *epi;

	poll_wait(file, &ep->poll_wait, wait);
	ep_start_scan(ep, &txlist);
	while (!res && (epi = ep_txlist_pop(&txlist))) {
		if (ep_item_poll(epi, &pt, depth + 1)) {
			res = EPOLLIN | EPOLLRDNORM;
			ep_relink(epi, &txlist); /* still ready: it stays */
		}
	}
	ep_done_scan(ep, &txlist);
	return res;
}

static __poll_t ep_eventpoll_poll(struct file *file, poll_table *wait)
{
	return __ep_eventpoll_poll(file, wait, 0);
}

/* --- wake-ups ------------------------------------------------------------- */

/*
 * Linux: ep_poll_callback, the func of an item's entry on its file's
 * queue. The item goes on the ready list (unless one-shot disabled it)
 * and the epoll's waiters and pollers are woken; a poller may be another
 * epoll, whose callback runs in turn. Return: whether the wake-up was
 * taken: always for a plain item; for an EPOLLEXCLUSIVE one only if a
 * task waits in epoll_wait, else the file's wake-up goes on to the next
 * exclusive epoll. Context: interrupts off, maybe in an interrupt.
 */
static int ep_poll_callback(struct wait_queue_entry *wait, unsigned int mode, void *key)
{
	struct eppoll_entry *pwq = container_of(wait, struct eppoll_entry, wait);
	struct epitem *epi = pwq->base;
	struct eventpoll *ep = epi->ep;
	__poll_t pollflags = key ? (__poll_t)(uintptr_t)key : 0;
	int ewake = !(epi->event.events & EPOLLEXCLUSIVE);

	(void)mode;
	/* Linux: the queue is being freed (a signalfd's sighand): leave it
	 * now; ep_unregister_pollwait finds whead NULL. */
	if (pollflags & POLLFREE) {
		list_del_init(&wait->entry);
		pwq->whead = NULL;
	}
	if (!(epi->event.events & ~EP_PRIVATE_BITS))
		return ewake; /* EPOLLONESHOT fired: disabled until MOD */
	if (pollflags && !(pollflags & epi->event.events))
		return ewake;
	if (!ep_set_ready(ep, epi))
		epi->woken_in_scan = true; /* already listed: maybe being reported */
	if (!list_empty(&ep->wq.head)) {
		ewake = 1; /* Folium's wake-ups carry no events: any waiter takes it */
		wake_up(&ep->wq);
	}
	wake_up(&ep->poll_wait); /* Linux: ep_poll_safewake */
	return ewake;
}

/* Linux: ep_ptable_queue_proc, poll_wait's work while an item is added:
 * an entry of the item's own on @whead. */
static void ep_ptable_queue_proc(struct file *file, struct wait_queue_head *whead, poll_table *pt)
{
	struct ep_pqueue *epq = container_of(pt, struct ep_pqueue, pt);
	struct epitem *epi = epq->epi;
	struct eppoll_entry *pwq;

	if (epi->nwait < 0)
		return;
	pwq = kzalloc(sizeof(*pwq), GFP_KERNEL);
	if (!pwq) {
		epi->nwait = -1;
		return;
	}
	init_waitqueue_func_entry(&pwq->wait, ep_poll_callback);
	pwq->base = epi;
	pwq->whead = whead;
	pwq->next = epi->pwqlist;
	epi->pwqlist = pwq;
	epi->nwait++;
	if (epi->event.events & EPOLLEXCLUSIVE)
		add_wait_queue_exclusive(whead, &pwq->wait);
	else
		add_wait_queue(whead, &pwq->wait);
}

/* Linux: ep_unregister_pollwait: off every queue of the file. */
static void ep_unregister_pollwait(struct epitem *epi)
{
	while (epi->pwqlist) {
		struct eppoll_entry *pwq = epi->pwqlist;

		epi->pwqlist = pwq->next;
		if (pwq->whead)
			remove_wait_queue(pwq->whead, &pwq->wait);
		kfree(pwq);
	}
}

/* --- the interest list ---------------------------------------------------- */

/* Linux: ep_cmp_ffd, the tree's order. */
static int ep_cmp_ffd(const struct epoll_filefd *a, const struct epoll_filefd *b)
{
	if (a->file != b->file)
		return a->file > b->file ? 1 : -1;
	return a->fd - b->fd;
}

/* Linux: ep_find. Return: the item for (@file, @fd), or NULL. */
static struct epitem *ep_find(struct eventpoll *ep, struct file *file, int fd)
{
	struct epoll_filefd ffd = { file, fd };
	struct rb_node *rbp = ep->rbr.rb_node;

	while (rbp) {
		struct epitem *epi = rb_entry(rbp, struct epitem, rbn);
		int kcmp = ep_cmp_ffd(&ffd, &epi->ffd);

		if (!kcmp)
			return epi;
		rbp = kcmp > 0 ? rbp->rb_right : rbp->rb_left;
	}
	return NULL;
}

static void ep_rbtree_insert(struct eventpoll *ep, struct epitem *epi)
{
	struct rb_node **p = &ep->rbr.rb_node, *parent = NULL;

	while (*p) {
		parent = *p;
		if (ep_cmp_ffd(&epi->ffd, &rb_entry(parent, struct epitem, rbn)->ffd) > 0)
			p = &parent->rb_right;
		else
			p = &parent->rb_left;
	}
	rb_link_node(&epi->rbn, parent, p);
	rb_insert_color(&epi->rbn, &ep->rbr);
}

/* Take @epi off its file's f_ep list (Linux: the fllink hlist). */
static void ep_detach_from_file(struct epitem *epi)
{
	struct epitem **link = &epi->ffd.file->f_ep;

	while (*link && *link != epi)
		link = &(*link)->fllink_next;
	if (*link)
		*link = epi->fllink_next;
}

/* Linux: ep_remove. The item leaves the file's queues, its list, the
 * tree and the ready list, and is freed. */
static void ep_remove(struct eventpoll *ep, struct epitem *epi)
{
	ep_unregister_pollwait(epi);
	ep_detach_from_file(epi);
	rb_erase(&epi->rbn, &ep->rbr);
	ep_unlink_ready(epi);
	kfree(epi);
}

/*
 * Linux: ep_insert. A new item on @tfile's queues; ready at once if the
 * file already has an event asked for. Return: 0 or -ENOMEM. (Linux's
 * max_user_watches limit, -ENOSPC, and its wake-up path count check,
 * reverse_path_check, are not kept.)
 */
static int ep_insert(struct eventpoll *ep, const struct epoll_event *event, struct file *tfile,
		     int fd)
{
	struct epitem *epi = kzalloc(sizeof(*epi), GFP_KERNEL);
	struct ep_pqueue epq;
	__poll_t revents;

	if (!epi)
		return -ENOMEM;
	INIT_LIST_HEAD(&epi->rdllink);
	epi->ep = ep;
	epi->ffd = (struct epoll_filefd){ tfile, fd };
	epi->event = *event;
	epi->fllink_next = tfile->f_ep;
	tfile->f_ep = epi;
	ep_rbtree_insert(ep, epi);

	epq = (struct ep_pqueue){ { ep_ptable_queue_proc, 0 }, epi };
	revents = ep_item_poll(epi, &epq.pt, 1);
	if (epi->nwait < 0) {
		ep_remove(ep, epi);
		return -ENOMEM;
	}
	if (revents && ep_set_ready(ep, epi)) {
		wake_up(&ep->wq);
		wake_up(&ep->poll_wait);
	}
	return 0;
}

/* Linux: ep_modify. New events and data; ready at once if the file has
 * one of the new events (a one-shot item is enabled again). */
static int ep_modify(struct eventpoll *ep, struct epitem *epi, const struct epoll_event *event)
{
	poll_table pt = { NULL, 0 };

	epi->event.events = event->events;
	epi->event.data = event->data;
	if (ep_item_poll(epi, &pt, 1) && ep_set_ready(ep, epi)) {
		wake_up(&ep->wq);
		wake_up(&ep->poll_wait);
	}
	return 0;
}

void eventpoll_release_file(struct file *file)
{
	while (file->f_ep)
		ep_remove(file->f_ep->ep, file->f_ep);
}

/* --- loops and depth (Linux: ep_loop_check) --------------------------------- */

/* Linux: ep_loop_check_proc. The longest chain of epolls below @ep, or
 * more than EP_MAX_NESTS if one leads back to inserting_into. */
static int ep_loop_check_proc(struct eventpoll *ep, int depth)
{
	int result = 0;

	if (ep->gen == loop_check_gen)
		return ep->loop_check_depth;
	ep->gen = loop_check_gen;
	for (struct rb_node *rbp = rb_first(&ep->rbr); rbp; rbp = rb_next(rbp)) {
		struct epitem *epi = rb_entry(rbp, struct epitem, rbn);
		struct eventpoll *ep_tovisit;

		if (!is_file_epoll(epi->ffd.file))
			continue;
		ep_tovisit = epi->ffd.file->private_data;
		if (ep_tovisit == inserting_into || depth > EP_MAX_NESTS)
			result = EP_MAX_NESTS + 1;
		else
			result = MAX(result, ep_loop_check_proc(ep_tovisit, depth + 1) + 1);
		if (result > EP_MAX_NESTS)
			break;
	}
	ep->loop_check_depth = result;
	return result;
}

/* Linux: ep_get_upwards_depth_proc. The longest chain of epolls that
 * watch @ep, through the items on its file's f_ep. */
static int ep_get_upwards_depth_proc(struct eventpoll *ep, int depth)
{
	int result = 0;

	if (ep->gen == loop_check_gen)
		return ep->loop_check_depth;
	for (struct epitem *epi = ep->file->f_ep; epi; epi = epi->fllink_next)
		result = MAX(result, ep_get_upwards_depth_proc(epi->ep, depth + 1) + 1);
	ep->gen = loop_check_gen;
	ep->loop_check_depth = result;
	return result;
}

/* Linux: ep_loop_check. Adding epoll @to to @ep must close no cycle and
 * make no chain of more than EP_MAX_NESTS links. Return: 0 or -ELOOP. */
static int ep_loop_check(struct eventpoll *ep, struct eventpoll *to)
{
	int depth, upwards_depth;

	loop_check_gen++;
	inserting_into = ep;
	depth = ep_loop_check_proc(to, 0);
	if (depth > EP_MAX_NESTS)
		return -ELOOP;
	upwards_depth = ep_get_upwards_depth_proc(ep, 0);
	return depth + 1 + upwards_depth > EP_MAX_NESTS ? -ELOOP : 0;
}

/* --- the epoll file ------------------------------------------------------- */

/* Linux: ep_clear_and_put: the epoll's last fput drops every item. */
static void ep_eventpoll_release(struct ramfs_inode *inode, struct file *file)
{
	struct eventpoll *ep = file->private_data;
	struct rb_node *rbp;

	while ((rbp = rb_first(&ep->rbr)))
		ep_remove(ep, rb_entry(rbp, struct epitem, rbn));
	kfree(ep);
}

/* Linux: noop_llseek. */
static int64_t ep_llseek(struct file *file, int64_t offset, int whence)
{
	return (int64_t)file->f_pos;
}

static const struct file_operations eventpoll_fops = {
	.llseek = ep_llseek,
	.poll = ep_eventpoll_poll,
	.release = ep_eventpoll_release,
};

/* Linux: do_epoll_create. Return: the fd, -EINVAL, -ENOMEM or -EMFILE. */
static long do_epoll_create(struct task_struct *task, int flags)
{
	struct eventpoll *ep;
	struct file *file;
	int fd;

	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	ep = kzalloc(sizeof(*ep), GFP_KERNEL);
	file = ep ? alloc_file(&eventpoll_inode, &eventpoll_fops, O_RDWR, FMODE_READ | FMODE_WRITE)
		  : NULL;
	if (!file) {
		kfree(ep);
		return -ENOMEM;
	}
	init_waitqueue_head(&ep->wq);
	init_waitqueue_head(&ep->poll_wait);
	INIT_LIST_HEAD(&ep->rdllist);
	ep->rbr = RB_ROOT;
	ep->file = file;
	file->private_data = ep;
	fd = fd_install_lowest(task, file, 0, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}

SYSCALL_DEFINE1(epoll_create1, int, flags)
{
	return do_epoll_create(task, flags);
}

/* The size is a hint Linux ignores but must be positive. */
SYSCALL_DEFINE1(epoll_create, int, size)
{
	if (size <= 0)
		return -EINVAL;
	return do_epoll_create(task, 0);
}

/* --- epoll_ctl ------------------------------------------------------------ */

/* Linux: the EPOLLEXCLUSIVE rules of do_epoll_ctl: never with MOD, and
 * with ADD only on a file that is not an epoll and with only the bits
 * that make sense for a one-of-many wake-up. */
static bool ep_exclusive_ok(int op, const struct epoll_event *epds, const struct file *tfile)
{
	if (!ep_op_has_event(op) || !(epds->events & EPOLLEXCLUSIVE))
		return true;
	if (op == EPOLL_CTL_MOD)
		return false;
	return !(op == EPOLL_CTL_ADD &&
		 (is_file_epoll(tfile) || (epds->events & ~EPOLLEXCLUSIVE_OK_BITS)));
}

/* Linux: the switch of do_epoll_ctl, with both files checked. */
static int ep_ctl_op(struct eventpoll *ep, int op, struct epoll_event *epds, struct file *tfile,
		     int fd)
{
	struct epitem *epi;

	if (op == EPOLL_CTL_ADD && is_file_epoll(tfile) && ep_loop_check(ep, tfile->private_data))
		return -ELOOP; /* Linux looks for loops before it looks for the item */
	epi = ep_find(ep, tfile, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		if (epi)
			return -EEXIST;
		epds->events |= EPOLLERR | EPOLLHUP;
		return ep_insert(ep, epds, tfile, fd);
	case EPOLL_CTL_DEL:
		if (!epi)
			return -ENOENT;
		ep_remove(ep, epi);
		return 0;
	case EPOLL_CTL_MOD:
		if (!epi)
			return -ENOENT;
		if (epi->event.events & EPOLLEXCLUSIVE)
			return -EINVAL;
		epds->events |= EPOLLERR | EPOLLHUP;
		return ep_modify(ep, epi, epds);
	}
	return -EINVAL;
}

/*
 * Linux: do_epoll_ctl, its checks in Linux's order: -EBADF for either fd,
 * -EPERM for a file without ->poll, -EINVAL for an epoll on itself or an
 * epfd that is no epoll, then EPOLLEXCLUSIVE's rules, then the op's own
 * -EEXIST, -ENOENT and -ELOOP (a cycle, or a chain too deep).
 */
static long do_epoll_ctl(struct task_struct *task, int epfd, int op, int fd,
			 struct epoll_event *epds)
{
	struct file *file = fget(task, epfd), *tfile = NULL;
	long error = -EBADF;

	if (!file)
		return error;
	tfile = fget(task, fd);
	if (!tfile)
		goto out;
	error = -EPERM;
	if (!file_can_poll(tfile))
		goto out;
	error = -EINVAL;
	if (file == tfile || !is_file_epoll(file) || !ep_exclusive_ok(op, epds, tfile))
		goto out;
	error = ep_ctl_op(file->private_data, op, epds, tfile, fd);
out:
	if (tfile)
		fput(tfile);
	fput(file);
	return error;
}

SYSCALL_DEFINE4(epoll_ctl, int, epfd, int, op, int, fd, unsigned long, event)
{
	struct epoll_event epds = { 0, 0 };

	if (ep_op_has_event(op) && copy_from_user(&epds, event, sizeof(epds)))
		return -EFAULT;
	return do_epoll_ctl(task, epfd, op, fd, &epds);
}

/* --- epoll_wait ----------------------------------------------------------- */

/* After @epi's event is reported: a one-shot item is disabled, a
 * level-triggered one goes back on the ready list for the next call, an
 * edge-triggered one only if a wake-up came while it was being reported
 * (Linux: the ovflist). */
static void ep_reported(struct eventpoll *ep, struct epitem *epi)
{
	if (epi->event.events & EPOLLONESHOT)
		epi->event.events &= EP_PRIVATE_BITS;
	else if (!(epi->event.events & EPOLLET) || epi->woken_in_scan)
		ep_set_ready(ep, epi);
}

/*
 * Linux: ep_send_events. Each item of the scan is polled again and its
 * event copied to the user at @uevents; an item with no event leaves the
 * list. The item stays on the scan's list while its event is copied (the
 * copy may sleep on a fault): an EPOLL_CTL_DEL or close meanwhile takes
 * it off, and a copy that fails leaves it ready, as Linux puts it back.
 * Return: the events copied (at most @maxevents), or -EFAULT if the
 * first copy failed.
 */
static int ep_send_events(struct eventpoll *ep, unsigned long uevents, int maxevents)
{
	struct list_head txlist = LIST_HEAD_INIT(txlist);
	poll_table pt = { NULL, 0 };
	struct epitem *epi;
	int res = 0;

	ep_start_scan(ep, &txlist);
	while (res < maxevents && (epi = ep_txlist_first(&txlist))) {
		struct epoll_event ev;

		epi->woken_in_scan = false;
		ev.events = ep_item_poll(epi, &pt, 1);
		if (!ev.events) {
			ep_unlink_ready(epi);
			continue;
		}
		ev.data = epi->event.data;
		if (copy_to_user(uevents + (unsigned long)res * sizeof(ev), &ev, sizeof(ev))) {
			res = res ? res : -EFAULT;
			break;
		}
		res++;
		/* Still first: not removed while the copy slept. (A freed
		 * item's memory, reused, is never on this list.) */
		if (ep_txlist_first(&txlist) == epi) {
			ep_unlink_ready(epi);
			ep_reported(ep, epi);
		}
	}
	ep_done_scan(ep, &txlist);
	return res;
}

/* Sleep (the state is set) until a wake-up or @end. Return: false once
 * @end has passed. */
static bool ep_schedule_timeout(uint64_t end)
{
	uint64_t now = ktime_get_ns();

	if (end == EP_NO_END) {
		schedule();
		return true;
	}
	if (now >= end)
		return false;
	schedule_timeout_ns(end - now);
	return ktime_get_ns() < end;
}

/*
 * Linux: ep_poll. Report what is ready; with nothing, sleep on ep->wq
 * until a callback, a signal or @end (0: look once, EP_NO_END: no end).
 * The state is set before the last look, so a callback between the look
 * and the sleep is not lost. Return: the events copied, 0 at the end
 * time, -EINTR for a signal (epoll_wait is never restarted), -EFAULT.
 */
static long ep_poll(struct task_struct *task, struct eventpoll *ep, unsigned long events,
		    int maxevents, uint64_t end)
{
	bool timed_out = !end;
	DEFINE_WAIT(wait);
	int res;

	for (;;) {
		if (ep_events_available(ep)) {
			res = ep_send_events(ep, events, maxevents);
			if (res)
				return res;
		}
		if (timed_out)
			return 0;
		if (signal_pending(task))
			return -EINTR;
		prepare_to_wait(&ep->wq, &wait, TASK_INTERRUPTIBLE);
		if (!ep_events_available(ep) && !signal_pending(task))
			timed_out = !ep_schedule_timeout(end);
		finish_wait(&ep->wq, &wait);
	}
}

/*
 * Linux 7.3's x86-64 access_ok as Debian's kernel answers in QEMU: the
 * range may not wrap and must end at USER_PTR_MAX, 2^56 - 4096 (5-level
 * paging's end) however many levels the page tables have; the copy, not
 * this check, then catches a hole or the part past 2^47.
 */
#define USER_PTR_MAX ((1ul << 56) - 4096)

static bool ep_access_ok(unsigned long addr, unsigned long size)
{
	unsigned long end = addr + size;

	return end >= addr && end <= USER_PTR_MAX;
}

/*
 * Linux: do_epoll_wait, its checks in Linux 7.3's order: -EBADF for the
 * epfd, -EINVAL for the count, -EFAULT for the buffer (access_ok), then
 * -EINVAL for an epfd that is no epoll.
 */
static long do_epoll_wait(struct task_struct *task, int epfd, unsigned long events, int maxevents,
			  uint64_t end)
{
	struct file *file = fget(task, epfd);
	long ret = -EBADF;

	if (!file)
		return ret;
	ret = -EINVAL;
	if (maxevents <= 0 || maxevents > EP_MAX_EVENTS)
		goto out;
	ret = -EFAULT;
	if (!ep_access_ok(events, (unsigned long)maxevents * sizeof(struct epoll_event)))
		goto out;
	ret = -EINVAL;
	if (is_file_epoll(file))
		ret = ep_poll(task, file->private_data, events, maxevents, end);
out:
	fput(file);
	return ret;
}

/* Linux: ep_timeout_to_timespec for epoll_wait's milliseconds: negative
 * waits for ever, 0 looks once. */
static uint64_t ep_ms_to_end(int timeout)
{
	if (timeout < 0)
		return EP_NO_END;
	if (!timeout)
		return 0;
	return ktime_get_ns() + (uint64_t)timeout * 1000000ull;
}

/* Linux: do_epoll_pwait. The mask stays for a handler if the wait was
 * interrupted (restore_saved_sigmask_unless, as ppoll). */
static long do_epoll_pwait(struct task_struct *task, int epfd, unsigned long events, int maxevents,
			   uint64_t end, unsigned long sigmask, size_t sigsetsize)
{
	long ret = set_user_sigmask(task, sigmask, sigsetsize);

	if (ret)
		return ret;
	ret = do_epoll_wait(task, epfd, events, maxevents, end);
	restore_saved_sigmask_unless(task, ret == -EINTR);
	return ret;
}

SYSCALL_DEFINE4(epoll_wait, int, epfd, unsigned long, events, int, maxevents, int, timeout)
{
	return do_epoll_wait(task, epfd, events, maxevents, ep_ms_to_end(timeout));
}

SYSCALL_DEFINE6(epoll_pwait, int, epfd, unsigned long, events, int, maxevents, int, timeout,
		unsigned long, sigmask, size_t, sigsetsize)
{
	return do_epoll_pwait(task, epfd, events, maxevents, ep_ms_to_end(timeout), sigmask,
			      sigsetsize);
}

/* Linux: epoll_pwait2: a timespec (NULL: no end), checked as
 * poll_select_set_timeout does: -EINVAL unless normalized. */
SYSCALL_DEFINE6(epoll_pwait2, int, epfd, unsigned long, events, int, maxevents, unsigned long,
		timeout, unsigned long, sigmask, size_t, sigsetsize)
{
	struct __kernel_timespec ts;
	uint64_t end = EP_NO_END, now;

	if (timeout) {
		if (copy_from_user(&ts, timeout, sizeof(ts)))
			return -EFAULT;
		if (ts.tv_sec < 0 || ts.tv_nsec < 0 || ts.tv_nsec >= (long long)NSEC_PER_SEC)
			return -EINVAL;
		now = ktime_get_ns();
		end = 0;
		if (ts.tv_sec || ts.tv_nsec) {
			if ((uint64_t)ts.tv_sec >= (EP_NO_END - now) / NSEC_PER_SEC - 1)
				end = EP_NO_END; /* centuries: for ever */
			else
				end = now + (uint64_t)ts.tv_sec * NSEC_PER_SEC +
				      (uint64_t)ts.tv_nsec;
		}
	}
	return do_epoll_pwait(task, epfd, events, maxevents, end, sigmask, sigsetsize);
}
