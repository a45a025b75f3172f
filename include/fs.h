/*
 * Open files of a process (Linux: include/linux/fs.h, fdtable.h): struct
 * file with its file_operations, the per-process table of file
 * descriptors, and the calls fs/ offers the rest of the kernel. A file is
 * a ramfs inode opened (regular file, directory, or a /proc or /sys file
 * whose inode carries its own file_operations), the console (fds 0, 1, 2
 * of every program), or one end of a pipe. Every operation goes through
 * file->f_op. Errors are negative errno values. Example:
 * openat(AT_FDCWD, "/etc/motd", O_RDONLY) finds the inode, takes the
 * lowest free fd and returns it; read() then copies from the inode's
 * bytes at f_pos.
 */
#ifndef FOLIUM_FS_H
#define FOLIUM_FS_H

#include <poll.h>
#include <ramfs.h>

/* Linux's values of the errnos files need that <errno.h> does not list
 * yet (to move there; a second identical definition is harmless). */
#ifndef EINTR
#define EINTR 4
#endif
#ifndef ENXIO
#define ENXIO 6
#endif
#ifndef EMFILE
#define EMFILE 24
#endif
#ifndef ESPIPE
#define ESPIPE 29
#endif
#ifndef EROFS
#define EROFS 30
#endif
#ifndef EPIPE
#define EPIPE 32
#endif

struct task_struct;
struct cred;
struct file;
struct vm_area_struct;
struct epitem;

/* open's flags and fcntl's commands: Linux's x86-64 values. */
#define O_ACCMODE 00000003
#define O_RDONLY 00000000
#define O_WRONLY 00000001
#define O_RDWR 00000002
#define O_CREAT 00000100
#define O_EXCL 00000200
#define O_NOCTTY 00000400
#define O_TRUNC 00001000
#define O_APPEND 00002000
#define O_NONBLOCK 00004000
#define O_DIRECT 00040000
#define O_LARGEFILE 00100000
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define __O_TMPFILE 020000000
#define O_TMPFILE (__O_TMPFILE | O_DIRECTORY) /* an unnamed file in the directory */
#define AT_FDCWD (-100)
#define TIOCGWINSZ 0x5413 /* ioctl: the terminal's size */
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EACCESS 0x200
#define AT_NO_AUTOMOUNT 0x800
#define AT_SYMLINK_FOLLOW 0x400
#define AT_EMPTY_PATH 0x1000
#define AT_STATX_SYNC_TYPE 0x6000
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#define SEEK_DATA 3
#define SEEK_HOLE 4
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_GETLK 5
#define F_SETLK 6
#define F_SETLKW 7
#define F_DUPFD_CLOEXEC 1030
#define F_SETPIPE_SZ 1031 /* F_LINUX_SPECIFIC_BASE + 7 */
/* File seals (memfd): fcntl F_ADD_SEALS and F_GET_SEALS, the bits
 * (Linux's values). */
#define F_ADD_SEALS 1033
#define F_GET_SEALS 1034
#define F_SEAL_SEAL 0x0001	   /* no more seals may be added */
#define F_SEAL_SHRINK 0x0002	   /* the size may not shrink */
#define F_SEAL_GROW 0x0004	   /* the size may not grow */
#define F_SEAL_WRITE 0x0008	   /* no write at all (no writable shared mapping left) */
#define F_SEAL_FUTURE_WRITE 0x0010 /* no new write; existing writable mappings stay */
#define F_SEAL_EXEC 0x0020	   /* the exec bits may not change */
#define F_ALL_SEALS                                                                       \
	(F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE | \
	 F_SEAL_EXEC)
#define F_GETPIPE_SZ 1032
#define FD_CLOEXEC 1
#define F_RDLCK 0
#define F_WRLCK 1
#define F_UNLCK 2
#define LOCK_SH 1
#define LOCK_EX 2
#define LOCK_NB 4
#define LOCK_UN 8
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#define TCGETS 0x5401
#define FIONREAD 0x541b
#define FIONBIO 0x5421 /* ioctl: set or clear O_NONBLOCK */

/* Linux: f_mode's FMODE_* bits, set by open from the access mode. */
#define FMODE_READ 0x1
#define FMODE_WRITE 0x2
#define FMODE_PREAD 0x8	  /* pread64 allowed: the file has positions */
#define FMODE_PWRITE 0x10 /* pwrite64 allowed */
#define FMODE_PATH 0x4000 /* O_PATH: a place, no I/O */

#define MAX_RW_COUNT 0x7ffff000 /* Linux: INT_MAX & PAGE_MASK, one read's cap */

struct dir_context;
/* Linux: filldir_t. Return: true to go on, false when the buffer is full. */
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name, int namelen, uint64_t ino,
			  unsigned int d_type);
/* Linux: struct dir_context; pos is the entry being offered. */
struct dir_context {
	filldir_t actor;
	uint64_t pos;
};

/* Linux: struct file_operations, the members Folium's files use. A NULL
 * member means the operation is refused with Linux's errno for it (read:
 * -EINVAL, write: -EINVAL, ioctl: -ENOTTY, llseek: -ESPIPE, iterate_shared:
 * -ENOTDIR). User buffers are user addresses: the operation copies with
 * copy_to_user / copy_from_user and returns -EFAULT if nothing could be
 * copied. */
struct file_operations {
	/* Called by open with the file set up (f_inode, f_flags, f_op).
	 * Return: 0, or a negative errno that fails the open. */
	int (*open)(struct ramfs_inode *inode, struct file *file);
	long (*read)(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos);
	long (*write)(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos);
	int64_t (*llseek)(struct file *file, int64_t offset, int whence);
	long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* Offer each entry from ctx->pos on to ctx->actor, advancing ctx->pos
	 * past each one taken. Return: 0 or a negative errno. */
	int (*iterate_shared)(struct file *file, struct dir_context *ctx);
	/* mmap of the file (Linux: f_op->mmap): give the new VMA, not yet
	 * in its mm, its vm_ops (shmem_mmap), or refuse it. Return: 0 or
	 * -errno. NULL: the file cannot be mapped (-ENODEV). A private
	 * mapping of a file is still a copy of its bytes (sys_mmap). */
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	/* Linux: f_op->poll. The events ready now (POLL*), after
	 * poll_wait on every queue whose wake-up may change them. Must not
	 * sleep. NULL: always ready (DEFAULT_POLLMASK). */
	__poll_t (*poll)(struct file *file, poll_table *wait);
	/* Linux: f_op->fallocate, after vfs_fallocate's checks: mode is
	 * FALLOC_FL_*. Return: 0 or -errno. NULL: -EOPNOTSUPP. */
	long (*fallocate)(struct file *file, int mode, uint64_t offset, uint64_t len);
	/* The last reference is gone (all fds closed). */
	void (*release)(struct ramfs_inode *inode, struct file *file);
};

/* Linux: struct file. Shared by the fds dup made of one open. */
struct file {
	const struct file_operations *f_op;
	/* Every file has one: a ramfs inode, the console's (fs/tty_io.c) or the
	 * pipe's (fs/pipe.c); fstat reports it. */
	struct ramfs_inode *f_inode;
	/* O_* given to open but O_CREAT, O_EXCL, O_NOCTTY, O_TRUNC and
	 * O_CLOEXEC (per fd); F_SETFL changes O_APPEND and O_NONBLOCK. */
	unsigned int f_flags;
	uint32_t f_mode; /* FMODE_* */
	uint64_t f_pos;
	int f_count;	    /* references: fds and callers between fget and fput */
	void *private_data; /* the file's own state (seq_file, pipe, tty line) */
	/* Linux: f_ep, the epoll items watching this file, linked by their
	 * fllink_next (fs/eventpoll.c); NULL: none. */
	struct epitem *f_ep;
};

#define NR_OPEN_DEFAULT 256 /* the table's size: RLIMIT_NOFILE's ceiling */

/* Linux: struct files_struct, the fd table CLONE_FILES shares. */
struct files_struct {
	int count; /* tasks sharing it */
	struct file *fd[NR_OPEN_DEFAULT];
	uint64_t close_on_exec[NR_OPEN_DEFAULT / 64];
};

/* --- fs/file.c --------------------------------------------------------- */
/* Linux: dup_fd, the table fork copies: every open fd of @old with a
 * reference each, and its close-on-exec bit. Return: it, or NULL. */
struct files_struct *dup_fd(const struct files_struct *old);
/* Drop a user of @files; the last closes every fd (Linux:
 * put_files_struct): pipes and buffers are freed. NULL is allowed. */
void put_files_struct(struct files_struct *files);
/* Linux: exit_files: @task lets go of its table. */
void exit_files(struct task_struct *task);
/* Close every fd marked close-on-exec (Linux: do_close_on_exec). */
void do_close_on_exec(struct task_struct *task);
/* Linux: fget/fput. Return: the file of fd with a reference, or NULL
 * (no such fd, or an O_PATH file: Linux's fget refuses those too). */
struct file *fget(struct task_struct *task, int fd);
/* Linux: fget_raw: O_PATH files too (fstat, fcntl, dup, a dirfd). */
struct file *fget_raw(struct task_struct *task, int fd);
void fput(struct file *file);
/* Linux: get_file, one more reference on a file already held. */
static inline struct file *get_file(struct file *file)
{
	file->f_count++;
	return file;
}
/* A new file on inode with f_count 1 (Linux: alloc_file). Return: it, or
 * NULL without memory. */
struct file *alloc_file(struct ramfs_inode *inode, const struct file_operations *fop,
			unsigned int flags, uint32_t mode);
/* The fds @task may have: RLIMIT_NOFILE's soft limit, at most
 * NR_OPEN_DEFAULT. */
unsigned int nofile_limit(const struct task_struct *task);
/* Put file at the lowest free fd >= start and below nofile_limit(), taking over the caller's
 * reference (Linux: get_unused_fd_flags + fd_install). Return: the fd, or
 * -EMFILE (the reference is then still the caller's). */
int fd_install_lowest(struct task_struct *task, struct file *file, int start, bool cloexec);
/* Linux: close_fd. Return: 0 or -EBADF. */
int close_fd(struct task_struct *task, int fd);
/* FD_CLOEXEC of fd (Linux: get_close_on_exec / __set_close_on_exec). */
bool get_close_on_exec(struct task_struct *task, int fd);
void set_close_on_exec(struct task_struct *task, int fd, bool on);

/* --- fs/namei.c -------------------------------------------------------- */
#define MAY_EXEC 0x1 /* the same bits as access(2)'s X_OK, W_OK, R_OK */
#define MAY_WRITE 0x2
#define MAY_READ 0x4
/* Linux: generic_permission, inode_permission (which also refuses a
 * write to a /proc or /sys file that has no ->write). Return: 0 or
 * -EACCES. */
int generic_permission(const struct cred *cred, const struct ramfs_inode *inode, int mask);
int inode_permission(const struct cred *cred, const struct ramfs_inode *inode, int mask);
#define LOOKUP_FOLLOW 0x1 /* follow a symlink in the last component */
#define LOOKUP_EMPTY 0x2  /* "" names dfd itself (AT_EMPTY_PATH) */
/* The lookup an *at call's AT_SYMLINK_NOFOLLOW and AT_EMPTY_PATH ask for
 * (as each Linux caller spells it out). */
static inline unsigned int at_lookup_flags(int at_flags)
{
	return (at_flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW) |
	       (at_flags & AT_EMPTY_PATH ? LOOKUP_EMPTY : 0);
}
/* Copy a path from the user into a new PATH_MAX buffer (Linux: getname).
 * Return: the buffer (kfree it), or NULL with *err -EFAULT or
 * -ENAMETOOLONG. */
char *getname(unsigned long upath, int *err);
/* Linux: filename_lookup from dfd (AT_FDCWD: the cwd). Return: 0 with
 * *out, -ENOENT for "" without LOOKUP_EMPTY, -EBADF, -ENOTDIR, or a
 * ramfs_lookup_at error. */
int path_lookupat(struct task_struct *task, int dfd, const char *name, unsigned int flags,
		  struct ramfs_inode **out);
/* The last component's kind (Linux: LAST_NORM, LAST_DOT, LAST_DOTDOT). */
enum last_type {
	LAST_NORM,
	LAST_DOT,
	LAST_DOTDOT
};
/* getname + path_lookupat (Linux: user_path_at). */
int user_path_at(struct task_struct *task, int dfd, unsigned long upath, unsigned int flags,
		 struct ramfs_inode **out);

/* --- fs/change.c: the calls that change the file system ------------------ */
/* Linux: filename_parentat. The directory holding @name's last component
 * (trailing slashes cut from @name) in *@parent, the component in *@last
 * (inside @name), its kind in *@type. Return: 0, -ENOENT for "", or the
 * parent's lookup error (-ENOTDIR: not a directory). */
int filename_parentat(struct task_struct *task, int dfd, char *name, enum last_type *type,
		      struct ramfs_inode **parent, char **last);
/* Linux: vfs_create/vfs_mkdir/vfs_mknod after may_create: a new inode of
 * @mode named @last in @dir, owned by @task's fsuid (inode_init_owner).
 * Return: 0 with *@out set (if not NULL), -EEXIST, -EACCES (no write or
 * search on @dir; a create in /proc), -EPERM (mkdir or mknod in /proc),
 * -ENOENT (@dir was removed), -ENAMETOOLONG, -ENOMEM. */
int vfs_create(struct task_struct *task, struct ramfs_inode *dir, const char *last, uint32_t mode,
	       uint32_t rdev, struct ramfs_inode **out);
/* Linux: vfs_tmpfile. An unnamed regular file of @mode in @dir with
 * nlink 0 (the caller's open holds it), I_LINKABLE if @linkable.
 * Return: 0 with *@out, may_create's errors, -EOPNOTSUPP in /proc,
 * -ENOMEM. */
int vfs_tmpfile(struct task_struct *task, struct ramfs_inode *dir, uint32_t mode, bool linkable,
		struct ramfs_inode **out);
/* Linux: do_truncate. @inode's new size (@length, checked against
 * RLIMIT_FSIZE: SIGXFSZ and -EFBIG); mtime and ctime stamped when the
 * size changes, or always with @stamp (ftruncate, O_TRUNC). Return: 0. */
long do_truncate(struct task_struct *task, struct ramfs_inode *inode, long length, bool stamp);

/* --- fs/attr.c: modes, owners and times -------------------------------- */
/* Linux: current_time, the wall-clock time a change is stamped with. */
struct timespec64 current_time(void);
/* Linux: inode_set_ctime_current (the inode changed) and, for a
 * directory whose names changed, its mtime and ctime (inode_touch_dir). */
void inode_set_ctime_current(struct ramfs_inode *inode);
void inode_touch_dir(struct ramfs_inode *dir);
/* Linux: file_update_time (the bytes changed: mtime and ctime),
 * file_accessed (a read: atime, under relatime's rule) and
 * file_remove_privs (a write by @task clears set-user-ID and
 * set-group-ID, unless it has CAP_FSETID). */
void file_update_time(struct ramfs_inode *inode);
void file_accessed(struct ramfs_inode *inode);
void file_remove_privs(const struct task_struct *task, struct ramfs_inode *inode);
/* Linux: file_modified, before a write or fallocate changes the bytes:
 * file_remove_privs, then file_update_time. */
void file_modified(const struct task_struct *task, struct ramfs_inode *inode);
/* Linux: vfs_fallocate, for fallocate(2) and MADV_REMOVE: its checks in
 * Linux's order (fs/change.c), then f_op->fallocate, with file_modified
 * for current. Return: 0 or -errno. */
long vfs_fallocate(struct file *file, int mode, long offset, long len);

/* --- fs/read_write.c, fs/readdir.c: the initramfs's own files ------------ */
/* Regular files (read from the inode's bytes, seek) and directories
 * (getdents64, read is -EISDIR). */
extern const struct file_operations ramfs_file_fops;
/* fs/memfd.c: fcntl's F_ADD_SEALS (-EPERM: not open for writing or
 * F_SEAL_SEAL; -EINVAL: unknown bits or not a tmpfs file; -EBUSY:
 * F_SEAL_WRITE while a shared mapping may write) and F_GET_SEALS (the
 * seals, or -EINVAL). */
long memfd_fcntl(struct file *file, unsigned int cmd, unsigned int arg);
extern const struct file_operations ramfs_dir_fops;
/* Linux: dcache_readdir, the names of a directory's list after "." and
 * ".." (positions 0 and 1: dir_emit_dots, false when the buffer is
 * full); generic_read_dir: -EISDIR. */
int dcache_readdir(struct file *file, struct dir_context *ctx);
bool dir_emit_dots(struct file *file, struct dir_context *ctx);
long generic_read_dir(struct file *file, unsigned long buf, size_t count, uint64_t *pos);
/* Linux: generic_file_llseek_size over [0, size]. Return: the new f_pos
 * or -EINVAL (and -ENXIO for SEEK_DATA/SEEK_HOLE at or past the end). */
int64_t generic_file_llseek(struct file *file, int64_t offset, int whence);
/* Linux: no_seek_end_llseek, for files whose end is not known up front
 * (directories by entry count, generated files): SEEK_SET and SEEK_CUR to
 * any position >= 0. Return: the new f_pos, or -EINVAL. */
static inline int64_t no_seek_end_llseek(struct file *file, int64_t offset, int whence)
{
	if (whence == SEEK_CUR)
		offset += (int64_t)file->f_pos;
	else if (whence != SEEK_SET)
		return -EINVAL;
	if (offset < 0)
		return -EINVAL;
	file->f_pos = (uint64_t)offset;
	return offset;
}

/* --- fs/d_path.c --------------------------------------------------------- */
/* The absolute path of directory dir, NUL-terminated, in buf (Linux:
 * d_path over the parent links). Return: its length without the NUL,
 * -ENOENT if dir was removed, -ENAMETOOLONG if it does not fit. */
int ramfs_dir_path(struct ramfs *fs, const struct ramfs_inode *dir, char *buf, size_t size);
/* The path of any inode, as ramfs_dir_path: a directory by its parent
 * links, another by the first name found for it in a walk of the tree
 * (Linux keeps the dentry a file was opened by; ramfs files have no
 * parent link), or for a device the node in /dev with its number.
 * Return: as ramfs_dir_path; -ENOENT if no name leads to it. */
int ramfs_inode_path(struct ramfs *fs, const struct ramfs_inode *inode, char *buf, size_t size);
/* Linux: d_path of an open or mapped file, as /proc/PID/fd and
 * /proc/PID/maps show it: its path in rootfs, or for a tmpfs file with
 * no name left, the name its maker gave and " (deleted)" ("/memfd:buf
 * (deleted)", "/dev/zero (deleted)" for shared anonymous memory), else
 * "/#INO (deleted)" (Linux keeps the unlinked name; Folium does not).
 * Return: the length, -ENOENT (no path: a pipe, an anonymous inode) or
 * -ENAMETOOLONG. */
int d_path(const struct ramfs_inode *inode, char *buf, size_t size);

/* --- fs/tty_io.c (the tty itself: include/tty.h) ------------------------- */
/* The console tty as a file: what fds 0, 1 and 2 are. Reads are n_tty's
 * (canonical or raw, as termios says); writes go to every console. */
extern const struct file_operations console_fops;
/* A /dev/console file (inode S_IFCHR 0620, /dev/tty1's (4, 1)) whose
 * reads are ended by task's pending signals when a kernel thread reads. Return: it (f_count 1), or
 * NULL without memory. */
struct file *console_file_open(struct task_struct *task);
/* fds 0, 1 and 2 of @task on one console file (f_count 3), as Linux's
 * console_on_rootfs gives the first program. Context: the fds are free.
 * Return: 0 or -ENOMEM. */
int console_on_rootfs(struct task_struct *task);

/* --- fs/locks.c ----------------------------------------------------------- */
/* fcntl's F_GETLK and F_SETLK/F_SETLKW on the user's struct flock at arg.
 * Return: 0, -EFAULT, -EINVAL, or -EBADF (a lock the fd's mode forbids). */
long fcntl_getlk(struct file *file, unsigned long arg);
long fcntl_setlk(struct file *file, unsigned long arg);

/* --- fs/pipe.c ----------------------------------------------------------- */
/* Both ends of a new pipe (Linux: create_pipe_files); flags may hold
 * O_NONBLOCK. Return: 0 with res[0] the read end and res[1] the write end,
 * or -ENOMEM. */
int create_pipe_files(struct file *res[2], unsigned int flags);
/* Linux: pipe_fcntl, F_SETPIPE_SZ and F_GETPIPE_SZ. Return: the pipe's
 * size in bytes, -EBADF (not a pipe), -EINVAL, -EPERM, -EBUSY (the
 * buffered bytes do not fit the new size) or -ENOMEM. */
long pipe_fcntl(struct task_struct *task, struct file *file, unsigned int cmd, unsigned int arg);

/* --- fs/char_dev.c, fs/mem.c, fs/devtmpfs.c ------------------------------ */
#define MAJOR(dev) ((unsigned int)(dev) >> 8) /* the old 8:8 encoding of rdev */
#define MINOR(dev) ((unsigned int)(dev)&0xff)
#define MKDEV(ma, mi) ((uint32_t)(ma) << 8 | (mi))
#define MEM_MAJOR 1    /* /dev/null, zero, full, random, urandom */
#define TTY_MAJOR 4    /* /dev/tty1, /dev/ttyS0 (64): the console */
#define TTYAUX_MAJOR 5 /* /dev/tty, /dev/console */
/* What open gives a S_IFCHR inode (Linux: def_chr_fops): its open is
 * chrdev_open, which hands the file to the driver of the inode's major
 * (-ENXIO for a major or minor no driver serves). */
extern const struct file_operations def_chr_fops;
/* Linux: memory_open's table: the mem device of @minor, or NULL. */
const struct file_operations *mem_fops_of(unsigned int minor);
/* Linux: tty_open for the console's numbers (4:1, 5:0, 5:1): the
 * console as a file, its reads ended by the opener's signals. */
int tty_open(struct ramfs_inode *inode, struct file *file);
/* Linux: devtmpfs_init with the nodes its drivers register: /dev and its
 * char devices in rootfs. Context: after populate_rootfs. */
void devtmpfs_init(void);

#endif
