/*
 * Credentials (Linux: kernel/cred.c, kernel/groups.c, kernel/ucount.c and
 * security/commoncap.c's id and exec rules): the per-uid task counts
 * RLIMIT_NPROC is checked against, supplementary groups, and how the
 * capability sets follow a change of uid. A task's credentials are its own
 * copy (task_struct.cred); the ucounts and group_info they point to are
 * shared and counted. Example: a root task's setuid(1000) moves it from
 * uid 0's ucounts (nproc - 1) to uid 1000's (made, nproc 1), and
 * cap_emulate_setxuid empties its permitted and effective sets.
 */
#include <errno.h>
#include <sched.h>
#include <slab.h>
#include <string.h>
#include <vm.h>

struct ucounts init_ucounts = { .uid = GLOBAL_ROOT_UID, .count = 1, .nproc = 1 };
struct group_info init_groups = { .usage = 1 };

/* Every ucounts but root's, which is never freed. Few uids are ever in use
 * on one machine, so a list does (Linux hashes them). */
static struct ucounts *ucounts_list;

struct ucounts *alloc_ucounts(uint32_t uid)
{
	struct ucounts *uc;

	if (uid == GLOBAL_ROOT_UID) {
		init_ucounts.count++;
		return &init_ucounts;
	}
	for (uc = ucounts_list; uc; uc = uc->next)
		if (uc->uid == uid) {
			uc->count++;
			return uc;
		}
	uc = kzalloc(sizeof(*uc), GFP_KERNEL);
	if (!uc)
		return NULL;
	uc->uid = uid;
	uc->count = 1;
	uc->next = ucounts_list;
	ucounts_list = uc;
	return uc;
}

void put_ucounts(struct ucounts *ucounts)
{
	struct ucounts **pp;

	if (--ucounts->count || ucounts == &init_ucounts)
		return;
	for (pp = &ucounts_list; *pp != ucounts; pp = &(*pp)->next)
		;
	*pp = ucounts->next;
	kfree(ucounts);
}

struct group_info *groups_alloc(int ngroups)
{
	struct group_info *gi = kzalloc(sizeof(*gi) + sizeof(gi->gid[0]) * ngroups, GFP_KERNEL);

	if (!gi)
		return NULL;
	gi->usage = 1;
	gi->ngroups = ngroups;
	return gi;
}

void put_group_info(struct group_info *gi)
{
	if (!--gi->usage && gi != &init_groups)
		kfree(gi);
}

/* Linux: groups_sort (a heap sort there; insertion sort here: setgroups
 * is rare and lists are short). */
void groups_sort(struct group_info *gi)
{
	for (int i = 1; i < gi->ngroups; i++) {
		uint32_t g = gi->gid[i];
		int j = i;

		for (; j > 0 && gi->gid[j - 1] > g; j--)
			gi->gid[j] = gi->gid[j - 1];
		gi->gid[j] = g;
	}
}

bool groups_search(const struct group_info *gi, uint32_t gid)
{
	int left = 0, right = gi->ngroups;

	while (left < right) {
		int mid = (left + right) / 2;

		if (gid > gi->gid[mid])
			left = mid + 1;
		else if (gid < gi->gid[mid])
			right = mid;
		else
			return true;
	}
	return false;
}

bool in_group_p(const struct cred *cred, uint32_t gid)
{
	return gid == cred->fsgid || groups_search(cred->group_info, gid);
}

bool in_egroup_p(const struct cred *cred, uint32_t gid)
{
	return gid == cred->egid || groups_search(cred->group_info, gid);
}

void get_cred_refs(const struct cred *cred)
{
	cred->ucounts->count++;
	cred->group_info->usage++;
}

void put_cred_refs(const struct cred *cred)
{
	if (cred->ucounts)
		put_ucounts(cred->ucounts);
	if (cred->group_info)
		put_group_info(cred->group_info);
}

/*
 * Linux: cap_emulate_setxuid. Giving up every root uid (real, effective
 * and saved) loses the permitted and effective sets unless KEEP_CAPS is
 * set; an effective uid leaving 0 loses the effective set, one coming
 * back to 0 regains the permitted set.
 */
static void cap_emulate_setxuid(struct cred *next, const struct cred *old)
{
	bool old_root = old->uid == GLOBAL_ROOT_UID || old->euid == GLOBAL_ROOT_UID ||
			old->suid == GLOBAL_ROOT_UID;

	if (old_root && next->uid != GLOBAL_ROOT_UID && next->euid != GLOBAL_ROOT_UID &&
	    next->suid != GLOBAL_ROOT_UID && !(old->securebits & SECBIT_KEEP_CAPS)) {
		next->cap_permitted = 0;
		next->cap_effective = 0;
	}
	if (old->euid == GLOBAL_ROOT_UID && next->euid != GLOBAL_ROOT_UID)
		next->cap_effective = 0;
	if (old->euid != GLOBAL_ROOT_UID && next->euid == GLOBAL_ROOT_UID)
		next->cap_effective = next->cap_permitted;
}

void cap_task_fix_setuid(struct cred *next, const struct cred *old, enum setid_kind kind)
{
	if (kind != LSM_SETID_FS) {
		cap_emulate_setxuid(next, old);
		return;
	}
	/* Linux: cap_drop_fs_set / cap_raise_fs_set. */
	if (old->fsuid == GLOBAL_ROOT_UID && next->fsuid != GLOBAL_ROOT_UID)
		next->cap_effective &= ~CAP_FS_SET;
	if (old->fsuid != GLOBAL_ROOT_UID && next->fsuid == GLOBAL_ROOT_UID)
		next->cap_effective |= next->cap_permitted & CAP_FS_SET;
}

#define S_IXGRP 00010

void bprm_creds(struct cred *cred, uint32_t mode, uint32_t uid, uint32_t gid, bool no_new_privs)
{
	bool root;

	/* Linux: bprm_fill_uid; with no_new_privs the ids do not change
	 * (LSM_UNSAFE_NO_NEW_PRIVS makes cap_bprm_creds_from_file undo it). */
	if (!no_new_privs) {
		if (mode & S_ISUID)
			cred->euid = uid;
		if ((mode & (S_ISGID | S_IXGRP)) == (S_ISGID | S_IXGRP))
			cred->egid = gid;
	}
	/* Linux: handle_privileged_root. Without file capabilities, a real or
	 * effective uid of 0 permits the bounding set and what was
	 * inheritable; an effective uid of 0 makes them effective too. */
	root = cred->uid == GLOBAL_ROOT_UID || cred->euid == GLOBAL_ROOT_UID;
	cred->cap_permitted = root ? cred->cap_bset | cred->cap_inheritable : 0;
	cred->cap_effective = cred->euid == GLOBAL_ROOT_UID ? cred->cap_permitted : 0;
	cred->suid = cred->fsuid = cred->euid;
	cred->sgid = cred->fsgid = cred->egid;
	cred->securebits &= ~SECBIT_KEEP_CAPS;
}

void copy_creds(struct task_struct *p, const struct cred *parent)
{
	p->cred = *parent;
	get_cred_refs(&p->cred);
	p->cred.ucounts->nproc++;
}

void exit_creds(struct task_struct *task)
{
	if (!task->cred.ucounts)
		return; /* copy_process failed before copy_creds */
	task->cred.ucounts->nproc--;
	put_cred_refs(&task->cred);
	task->cred.ucounts = NULL;
	task->cred.group_info = NULL;
}

void prepare_creds(const struct task_struct *task, struct cred *next)
{
	*next = task->cred;
	get_cred_refs(next);
}

void commit_creds(struct task_struct *task, struct cred *next)
{
	struct cred old = task->cred;

	/* Linux: a change of the acting ids or new capabilities makes the
	 * mm not dumpable (suid_dumpable 0) and drops the parent-death
	 * signal. */
	if (next->euid != old.euid || next->egid != old.egid || next->fsuid != old.fsuid ||
	    next->fsgid != old.fsgid || (next->cap_permitted & ~old.cap_permitted)) {
		if (task->mm)
			task->mm->flags &= ~MMF_DUMPABLE;
		task->pdeath_signal = 0;
	}
	if (next->ucounts != old.ucounts) {
		next->ucounts->nproc++;
		old.ucounts->nproc--;
	}
	task->cred = *next;
	put_cred_refs(&old);
}

void abort_creds(struct cred *next)
{
	put_cred_refs(next);
}

bool ptrace_may_access(const struct task_struct *task, const struct task_struct *target)
{
	bool cap = has_capability(task, CAP_SYS_PTRACE);

	if (task == target)
		return true;
	if (!cap && !cred_ids_are(&target->cred, task->cred.fsuid, task->cred.fsgid))
		return false;
	return cap || !target->mm || (target->mm->flags & MMF_DUMPABLE);
}
