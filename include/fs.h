/*
 * Open files of a process (Linux: include/linux/fs.h, fdtable.h): struct
 * file with its file_operations, the per-process table of file
 * descriptors, and the calls fs/ offers the rest of the kernel. A file is
 * a ramfs inode opened (regular file, directory, or a /proc or /sys file
 * whose inode carries its own file_operations), the console (fds 0, 1, 2
 * of every program), or one end of a pipe. Errors are negative errno
 * values. Example: openat(AT_FDCWD, "/etc/motd", O_RDONLY) finds the
 * inode, takes the lowest free fd and returns it; read() then copies
 * from the inode's bytes at f_pos.
 */
#ifndef FOLIUM_FS_H
#define FOLIUM_FS_H

#include <ramfs.h>

struct task;
struct file;

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
#define O_DIRECTORY 00200000
#define O_NOFOLLOW 00400000
#define O_CLOEXEC 02000000
#define O_PATH 010000000
#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_EMPTY_PATH 0x1000
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

/* Linux: struct file_operations, the members Folium's files use. A NULL
 * member means the operation is refused with Linux's errno for it (read:
 * -EINVAL, write: -EINVAL, ioctl: -ENOTTY, llseek: -ESPIPE). User
 * buffers are user addresses: the operation copies with copy_to_user /
 * copy_from_user and returns -EFAULT if nothing could be copied. */
struct file_operations {
	/* Called by open with the file set up (f_inode, f_flags, f_op).
	 * Return: 0, or a negative errno that fails the open. */
	int (*open)(struct ramfs_inode *inode, struct file *file);
	long (*read)(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos);
	long (*write)(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos);
	int64_t (*llseek)(struct file *file, int64_t offset, int whence);
	long (*ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	/* The last reference is gone (all fds closed). */
	void (*release)(struct ramfs_inode *inode, struct file *file);
};

/* Linux: struct file. Shared by the fds dup made of one open. */
struct file {
	const struct file_operations *f_op;
	struct ramfs_inode *f_inode; /* NULL for the console and pipes */
	unsigned int f_flags;	     /* O_* given to open (O_CLOEXEC is per fd) */
	uint32_t f_mode;	     /* st_mode for fstat when f_inode is NULL */
	uint64_t f_pos;
	int f_count;	    /* references: fds and callers between fget and fput */
	void *private_data; /* the file's own state (seq_file, pipe) */
};

#define NR_OPEN_DEFAULT 256 /* fds per process: RLIMIT_NOFILE is this */

/* Linux: struct files_struct, plus the process's working directory
 * (Linux's fs_struct). */
struct files_struct {
	struct file *fd[NR_OPEN_DEFAULT];
	uint64_t close_on_exec[NR_OPEN_DEFAULT / 64];
	struct ramfs_inode *cwd;
	uint32_t umask;
};

/* --- fs/file.c --------------------------------------------------------- */
/* A program's table at exec: fds 0, 1 and 2 on the console, cwd "/",
 * umask 022. Return: 0 or -ENOMEM. */
int files_init(struct task *task);
/* Close every fd (Linux: exit_files): pipes and buffers are freed. */
void exit_files(struct task *task);
/* Linux: fget/fput. Return: the file of fd with a reference, or NULL. */
struct file *fget(struct task *task, int fd);
void fput(struct file *file);

/* mmap of a file (Linux: do_mmap's file checks): fd must be an open
 * regular file, readable; MAP_SHARED with PROT_WRITE is -EACCES (every fd
 * here is read-only). Return: 0 with *filep (a reference for fput),
 * -EBADF, -EACCES, or -ENODEV (not a regular file: console, pipe). */
int mmap_file_get(struct task *task, int fd, unsigned long prot, unsigned long flags,
		  struct file **filep);
/* Copy file bytes [off, off + len) to the user range [addr, +len), which
 * is mapped writable; what lies past the file's end is left as it is
 * (zero). Return: 0 or -EFAULT. */
int mmap_file_fill(struct file *file, unsigned long addr, unsigned long len, unsigned long off);

/* The console as a file: what fds 0, 1 and 2 are (fs/tty.c). */
extern const struct file_operations console_fops;

#endif
