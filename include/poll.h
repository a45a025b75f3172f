/*
 * Waiting for files to become ready (Linux: include/linux/poll.h,
 * uapi/asm-generic/poll.h): the event bits poll(2) and select(2) report
 * and the poll_table a file's ->poll is handed. A ->poll returns the
 * events ready now and, through poll_wait, puts the caller on each wait
 * queue whose wake-up could change that answer; fs/select.c sleeps until
 * one of them is woken. Example: an empty pipe's read end answers 0 and
 * queues the poller on rd_wait; a write wakes rd_wait, the poller looks
 * again and gets POLLIN | POLLRDNORM.
 */
#ifndef FOLIUM_POLL_H
#define FOLIUM_POLL_H

#include <stdint.h>

/* Linux's event bits (uapi/asm-generic/poll.h). */
#define POLLIN 0x0001
#define POLLPRI 0x0002
#define POLLOUT 0x0004
#define POLLERR 0x0008
#define POLLHUP 0x0010
#define POLLNVAL 0x0020
#define POLLRDNORM 0x0040
#define POLLRDBAND 0x0080
#define POLLWRNORM 0x0100
#define POLLWRBAND 0x0200
#define POLLMSG 0x0400
#define POLLRDHUP 0x2000
/* Linux's: given to a queue's entries when the queue itself is about to
 * be freed (wake_up_pollfree): each must leave it at once. */
#define POLLFREE 0x4000

/* A file without ->poll (a regular file, a directory) is always ready. */
#define DEFAULT_POLLMASK (POLLIN | POLLOUT | POLLRDNORM | POLLWRNORM)

typedef unsigned int __poll_t;

struct file;
struct wait_queue_head;
struct poll_table_struct;

/* Linux: poll_queue_proc, what poll_wait calls for each queue. */
typedef void (*poll_queue_proc)(struct file *filp, struct wait_queue_head *wait_address,
				struct poll_table_struct *p);

/* Linux: poll_table. _qproc NULL: only the answer is wanted (a poll that
 * already found an event, a zero timeout, or a second look). _key: the
 * events the caller waits for. */
typedef struct poll_table_struct {
	poll_queue_proc _qproc;
	__poll_t _key;
} poll_table;

/* Linux: poll_wait. Queue the poller on @wait_address, once per look. */
static inline void poll_wait(struct file *filp, struct wait_queue_head *wait_address, poll_table *p)
{
	if (p && p->_qproc && wait_address)
		p->_qproc(filp, wait_address, p);
}

/* Linux: struct pollfd, poll(2)'s array element. */
struct pollfd {
	int fd;
	short events;
	short revents;
};

#endif
