/*
 * What every change or read of a file stamps on its inode (Linux:
 * fs/inode.c's current_time, inode_set_ctime_current, file_update_time,
 * touch_atime under relatime, file_remove_privs and file_modified).
 * Generic: the page cache's callers on the host stamp files too.
 * Example: a write by a user without CAP_FSETID to a set-user-ID file
 * clears the bit and sets mtime and ctime to now.
 */
#include <sched.h>
#include <timekeeping.h>
#include <vm.h>

struct timespec64 current_time(void)
{
	uint64_t ns = ktime_get_real_ns();

	return (struct timespec64){ (int64_t)(ns / NSEC_PER_SEC), (long)(ns % NSEC_PER_SEC) };
}

void inode_set_ctime_current(struct ramfs_inode *inode)
{
	inode->i_ctime = current_time();
}

void inode_touch_dir(struct ramfs_inode *dir)
{
	dir->i_ctime = dir->i_mtime = current_time();
}

void file_update_time(struct ramfs_inode *inode)
{
	inode->i_ctime = inode->i_mtime = current_time();
}

static int timespec64_compare(const struct timespec64 *a, const struct timespec64 *b)
{
	if (a->tv_sec != b->tv_sec)
		return a->tv_sec < b->tv_sec ? -1 : 1;
	return a->tv_nsec < b->tv_nsec ? -1 : a->tv_nsec > b->tv_nsec;
}

/* Linux: touch_atime under relatime (relatime_need_update): only when
 * the last read is older than the last change, or a day old. */
void file_accessed(struct ramfs_inode *inode)
{
	struct timespec64 now = current_time();

	if (timespec64_compare(&inode->i_atime, &inode->i_mtime) <= 0 ||
	    timespec64_compare(&inode->i_atime, &inode->i_ctime) <= 0 ||
	    now.tv_sec - inode->i_atime.tv_sec >= 24 * 60 * 60)
		inode->i_atime = now;
}

/* Linux: file_remove_privs after should_remove_suid: a write by a
 * caller without CAP_FSETID clears set-user-ID, and set-group-ID when
 * the group may execute (otherwise it marks mandatory locking). */
void file_remove_privs(const struct task_struct *task, struct ramfs_inode *inode)
{
	uint32_t kill = inode->mode & S_ISUID;

	if ((inode->mode & (S_ISGID | 0010)) == (S_ISGID | 0010))
		kill |= S_ISGID;
	if (!kill || has_capability(task, CAP_FSETID))
		return;
	inode->mode &= ~kill;
	inode_set_ctime_current(inode);
}

void file_modified(const struct task_struct *task, struct ramfs_inode *inode)
{
	file_remove_privs(task, inode);
	file_update_time(inode);
}
