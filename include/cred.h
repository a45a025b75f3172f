/*
 * A task's credentials (Linux: include/linux/cred.h, include/uapi/linux/
 * capability.h). Every program runs as root, which holds every capability
 * (Linux: CAP_FULL_SET for uid 0 at exec); a task without one (the tests'
 * tasks) is held to the limits it guards. Example: mlock beyond
 * RLIMIT_MEMLOCK is -ENOMEM only for a task whose cap_effective lacks
 * CAP_IPC_LOCK.
 */
#ifndef FOLIUM_CRED_H
#define FOLIUM_CRED_H

#include <stdint.h>

#define CAP_IPC_LOCK 14
#define CAP_SYS_ADMIN 21
#define CAP_SYS_RESOURCE 24
#define CAP_SYSLOG 34
#define CAP_LAST_CAP 40
#define CAP_FULL_SET ((1ull << (CAP_LAST_CAP + 1)) - 1)

/* Linux: struct cred's capability sets (uid and gid are always 0). */
struct cred {
	uint64_t cap_effective;	  /* what the task may do now */
	uint64_t cap_permitted;	  /* what capset may raise into cap_effective */
	uint64_t cap_inheritable; /* kept for exec (none at exec, as for root) */
	uint64_t cap_bset;	  /* the bounding set: CAP_FULL_SET */
};

/* Root's credentials at exec (Linux: the capabilities exec gives uid 0). */
static inline void cred_init_root(struct cred *cred)
{
	cred->cap_effective = cred->cap_permitted = cred->cap_bset = CAP_FULL_SET;
	cred->cap_inheritable = 0;
}

#endif
