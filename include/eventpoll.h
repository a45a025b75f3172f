/*
 * epoll (Linux: include/uapi/linux/eventpoll.h, include/linux/eventpoll.h):
 * the event bits and flags user space passes, the 12-byte struct
 * epoll_event of x86-64, and the hook the last fput of a file calls so
 * no epoll keeps watching a file that is gone (fs/eventpoll.c).
 */
#ifndef FOLIUM_EVENTPOLL_H
#define FOLIUM_EVENTPOLL_H

#include <fs.h>
#include <stdint.h>

/* epoll_create1's flag. */
#define EPOLL_CLOEXEC O_CLOEXEC

/* epoll_ctl's operations. */
#define EPOLL_CTL_ADD 1
#define EPOLL_CTL_DEL 2
#define EPOLL_CTL_MOD 3

/* The event bits are poll's (<poll.h>); the flags above them say how an
 * item reports. */
#define EPOLLIN POLLIN
#define EPOLLPRI POLLPRI
#define EPOLLOUT POLLOUT
#define EPOLLERR POLLERR
#define EPOLLHUP POLLHUP
#define EPOLLRDNORM POLLRDNORM
#define EPOLLRDHUP POLLRDHUP
#define EPOLLEXCLUSIVE (1u << 28) /* wake one of the epolls waiting on a file */
#define EPOLLWAKEUP (1u << 29)	  /* hold off suspend while ready (no effect here) */
#define EPOLLONESHOT (1u << 30)	  /* report once, then nothing until EPOLL_CTL_MOD */
#define EPOLLET (1u << 31)	  /* edge triggered: report a change once */

/* Linux: struct epoll_event. Packed on x86-64 (EPOLL_PACKED): the data
 * follows the events at byte 4, 12 bytes in all. */
struct epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));
_Static_assert(sizeof(struct epoll_event) == 12, "epoll_event is 12 bytes on x86-64");

/* Linux: eventpoll_release_file. @file is going (its last reference):
 * every epoll item watching it leaves its epoll. */
void eventpoll_release_file(struct file *file);

/* Linux: eventpoll_release, called by fput before the file's ->release. */
static inline void eventpoll_release(struct file *file)
{
	if (file->f_ep)
		eventpoll_release_file(file);
}

#endif
