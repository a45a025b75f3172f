/*
 * A task's credentials (Linux: include/linux/cred.h, include/linux/
 * uidgid.h, include/uapi/linux/capability.h, kernel/cred.c, kernel/
 * groups.c, kernel/ucount.c, security/commoncap.c). The ids are the real,
 * effective, saved and file-system ones; the capability sets follow them
 * as Linux's commoncap does (a program that gives up uid 0 loses its
 * capabilities). Every task holds one reference to its real uid's
 * ucounts, which counts the tasks of that uid for RLIMIT_NPROC, and one
 * to its supplementary groups. Programs start as root with every
 * capability (init_task's credentials, kept through fork and exec).
 * Example: setuid(65534) from root sets all four uids and clears the
 * permitted and effective capabilities; a fork beyond RLIMIT_NPROC of
 * that uid is then -EAGAIN.
 */
#ifndef FOLIUM_CRED_H
#define FOLIUM_CRED_H

#include <stdbool.h>
#include <stdint.h>

#define CAP_CHOWN 0
#define CAP_DAC_OVERRIDE 1
#define CAP_DAC_READ_SEARCH 2
#define CAP_FOWNER 3
#define CAP_FSETID 4
#define CAP_KILL 5
#define CAP_SETGID 6
#define CAP_SETUID 7
#define CAP_LINUX_IMMUTABLE 9
#define CAP_IPC_LOCK 14
#define CAP_SYS_PTRACE 19
#define CAP_SYS_ADMIN 21
#define CAP_SYS_NICE 23
#define CAP_SYS_RESOURCE 24
#define CAP_MKNOD 27
#define CAP_MAC_OVERRIDE 32
#define CAP_SYSLOG 34
#define CAP_LAST_CAP 40
#define CAP_FULL_SET ((1ull << (CAP_LAST_CAP + 1)) - 1)
#define CAP_TO_MASK(cap) (1ull << (cap))
/* Linux: CAP_FS_SET, what a file-system uid of 0 brings. */
#define CAP_FS_SET                                                                              \
	(CAP_TO_MASK(CAP_CHOWN) | CAP_TO_MASK(CAP_MKNOD) | CAP_TO_MASK(CAP_DAC_OVERRIDE) |      \
	 CAP_TO_MASK(CAP_DAC_READ_SEARCH) | CAP_TO_MASK(CAP_FOWNER) | CAP_TO_MASK(CAP_FSETID) | \
	 CAP_TO_MASK(CAP_MAC_OVERRIDE) | CAP_TO_MASK(CAP_LINUX_IMMUTABLE))

#define GLOBAL_ROOT_UID 0u
#define GLOBAL_ROOT_GID 0u
#define INVALID_UID ((uint32_t)-1) /* "leave it" to setreuid and friends */
#define NGROUPS_MAX 65536

/* Linux: SECBIT_KEEP_CAPS (prctl PR_SET_KEEPCAPS); cleared by exec. */
#define SECURE_KEEP_CAPS 4
#define SECBIT_KEEP_CAPS (1u << SECURE_KEEP_CAPS)

/* Linux: struct group_info. Shared between credentials that have the same
 * groups (fork copies the pointer); never changed once made. */
struct group_info {
	int usage;
	int ngroups;
	uint32_t gid[]; /* ascending (groups_sort), for groups_search */
};

/* Linux: struct ucounts, one per uid that some task has as its real uid. */
struct ucounts {
	struct ucounts *next; /* the table's list */
	uint32_t uid;
	int count;	 /* credentials that point here */
	long nproc;	 /* Linux: rlimit[UCOUNT_RLIMIT_NPROC]: tasks of this uid */
	long sigpending; /* ... UCOUNT_RLIMIT_SIGPENDING: queued siginfos */
};

/* Linux: struct cred. A task's own copy (task_struct.cred). */
struct cred {
	uint32_t uid, gid;     /* real: who the task is (kill, RLIMIT_NPROC) */
	uint32_t suid, sgid;   /* saved: what it may switch back to */
	uint32_t euid, egid;   /* effective: what it acts as */
	uint32_t fsuid, fsgid; /* file-system: whose files it may touch */
	unsigned int securebits;
	uint64_t cap_effective;	  /* what the task may do now */
	uint64_t cap_permitted;	  /* what capset may raise into cap_effective */
	uint64_t cap_inheritable; /* kept for exec (none at exec, as for root) */
	uint64_t cap_bset;	  /* the bounding set: CAP_FULL_SET */
	struct ucounts *ucounts;  /* the real uid's */
	struct group_info *group_info;
};

extern struct ucounts init_ucounts;
extern struct group_info init_groups;

/* Root's credentials, as init_task has them (init/init_task.c). */
#define INIT_CRED                                                                              \
	{                                                                                      \
		.cap_effective = CAP_FULL_SET, .cap_permitted = CAP_FULL_SET,                  \
		.cap_bset = CAP_FULL_SET, .ucounts = &init_ucounts, .group_info = &init_groups \
	}

/* Root's capability sets (what exec gives uid 0 with every bounding
 * capability); the ids are left as they are. */
static inline void cred_init_root(struct cred *cred)
{
	cred->cap_effective = cred->cap_permitted = cred->cap_bset = CAP_FULL_SET;
	cred->cap_inheritable = 0;
}

/* Whether @cred's real, effective and saved uids are all @uid and its
 * three gids all @gid: another process counts as the caller's own for
 * ptrace_may_access (the caller's fs ids) and prlimit (its real ones). */
static inline bool cred_ids_are(const struct cred *cred, uint32_t uid, uint32_t gid)
{
	return cred->uid == uid && cred->euid == uid && cred->suid == uid && cred->gid == gid &&
	       cred->egid == gid && cred->sgid == gid;
}

/* --- kernel/cred.c --------------------------------------------------------- */
struct task_struct;

/* Linux: copy_creds. The child starts with its parent's credentials and
 * counts as a task of their real uid; exit_creds undoes both when the
 * task is freed. */
void copy_creds(struct task_struct *p, const struct cred *parent);
void exit_creds(struct task_struct *task);

/* Linux: __ptrace_may_access with PTRACE_MODE_READ_FSCREDS (kernel/
 * ptrace.c), what /proc asks before showing one process's memory, links
 * or environment to another: the same process; or the caller's
 * file-system uid and gid are all of the target's uids and gids, and the
 * target's mm may be dumped; or the caller has CAP_SYS_PTRACE. */
bool ptrace_may_access(const struct task_struct *task, const struct task_struct *target);

/* Linux: prepare_creds, commit_creds, abort_creds. A copy of the task's
 * credentials to change (with its own references), then installed: a
 * change of real uid moves the task between the uids' counts; or thrown
 * away. */
void prepare_creds(const struct task_struct *task, struct cred *next);
void commit_creds(struct task_struct *task, struct cred *next);
void abort_creds(struct cred *next);

/* A reference to @cred's ucounts and groups for a copy of it (Linux:
 * get_cred's share); put_cred_refs drops them. */
void get_cred_refs(const struct cred *cred);
void put_cred_refs(const struct cred *cred);

/* Linux: alloc_ucounts / put_ucounts. The ucounts of @uid with a reference
 * taken, made if none exists. Return: it, or NULL (no memory). */
struct ucounts *alloc_ucounts(uint32_t uid);
void put_ucounts(struct ucounts *ucounts);

/* Linux: is_rlimit_overlimit: more tasks of the uid than @max. */
static inline bool is_rlimit_overlimit(const struct ucounts *ucounts, uint64_t max)
{
	return (uint64_t)ucounts->nproc > max;
}

/* Linux: groups_alloc, with a reference; put_group_info frees it at 0. */
struct group_info *groups_alloc(int ngroups);
void put_group_info(struct group_info *gi);
/* Linux: groups_sort, groups_search. */
void groups_sort(struct group_info *gi);
bool groups_search(const struct group_info *gi, uint32_t gid);
/* Linux: in_group_p (the fsgid or a supplementary group), in_egroup_p
 * (the egid or a supplementary group). */
bool in_group_p(const struct cred *cred, uint32_t gid);
bool in_egroup_p(const struct cred *cred, uint32_t gid);

/* Linux: LSM_SETID_* and cap_task_fix_setuid: after an id change from
 * @old to @new, the capabilities follow (cap_emulate_setxuid for the
 * ID/RE/RES changes, the file-system set for FS). */
enum setid_kind {
	LSM_SETID_ID = 1,
	LSM_SETID_RE,
	LSM_SETID_RES,
	LSM_SETID_FS
};
void cap_task_fix_setuid(struct cred *next, const struct cred *old, enum setid_kind kind);

/* Linux: the credential half of exec (bprm_fill_uid for a set-user-ID or
 * set-group-ID file of @mode owned by @uid:@gid, then
 * cap_bprm_creds_from_file without file capabilities): root keeps its
 * bounding set, anyone else has no capabilities; KEEP_CAPS is cleared;
 * the saved and file-system ids become the effective ones. */
void bprm_creds(struct cred *cred, uint32_t mode, uint32_t uid, uint32_t gid, bool no_new_privs);

#endif
