/*
 * The in-memory file system the initramfs unpacks into (Linux: ramfs over
 * the dcache, fs/ramfs/inode.c and fs/namei.c), and the cpio "newc"
 * unpacker that fills it (Linux: init/initramfs.c). Plain C over memory
 * the caller's allocator hands out, so the same code runs in the kernel
 * and in the host tests. Errors are negative errno values, as in Linux.
 */
#ifndef FOLIUM_RAMFS_H
#define FOLIUM_RAMFS_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <pagemap.h>

/* File types and permission bits of st_mode, Linux's values. */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISUID 0004000
#define S_ISGID 0002000
#define S_ISVTX 0001000
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m)&S_IFMT) == S_IFCHR)
#define S_ISFIFO(m) (((m)&S_IFMT) == S_IFIFO)

#define PATH_MAX 4096	    /* bytes of a path, with its NUL (Linux) */
#define NAME_MAX 255	    /* bytes of one component */
#define MAXSYMLINKS 40	    /* links followed in one lookup before ELOOP */
#define BOGO_DIRENT_SIZE 20 /* a name's share of a directory's size (Linux's shmem) */

struct ramfs_inode;
struct file_operations;

/* Linux: struct timespec64, an inode's times (and select's end time). */
struct timespec64 {
	int64_t tv_sec;
	long tv_nsec;
};

/* One name in a directory (Linux: a dentry). Hard links are several
 * dentries for one inode; a directory has exactly one. */
struct ramfs_dentry {
	const char *name; /* NUL-terminated, no '/' */
	struct ramfs_inode *inode;
	struct ramfs_dentry *next; /* siblings, sorted by name */
};

struct ramfs_inode {
	uint32_t mode; /* S_IF* | permission bits */
	uint32_t nlink;
	/* Its users besides its names (Linux: i_count): open files, a
	 * task's cwd or exe, a directory's children (ihold, iput). An inode
	 * of a fs that frees goes when both this and nlink are 0; until
	 * then an unlinked file keeps its bytes. */
	uint32_t i_count;
	unsigned int i_state; /* I_LINKABLE */
	struct ramfs *i_sb;   /* the fs that made it; NULL: not a fs's (a pipe's) */
	unsigned long ino;    /* Linux: i_ino, unique in its fs; the root's is 1 */
	uint64_t i_sequence;  /* its futexes' key, 0 until one is used (Linux's) */
	uint32_t rdev;	      /* device number of a S_IFCHR inode (Linux: i_rdev) */
	uint32_t uid, gid;
	/* Since the epoch: last read (relatime), last change of the bytes,
	 * last change of the inode (Linux: i_atime, i_mtime, i_ctime). */
	struct timespec64 i_atime, i_mtime, i_ctime;
	/* bytes of data: file contents or symlink target; a directory's,
	 * BOGO_DIRENT_SIZE per name and for "." and ".." (tmpfs's) */
	uint64_t size;
	/* A symlink's target bytes (not NUL-terminated); a regular file's
	 * bytes are in its page cache, i_data. */
	const char *data;
	/* Linux: i_mapping, the page cache of a regular file (its own
	 * i_data); NULL for every other type. */
	struct address_space *i_mapping;
	struct address_space i_data;
	/* A regular file's F_SEAL_* (Linux: shmem_inode_info->seals):
	 * F_SEAL_SEAL on every file but a memfd made to be sealed. */
	unsigned int i_seals;
	/* Pages of i_data counted in i_sb->used_pages (Linux: shmem's
	 * info->alloced), brought level by ramfs_recalc_inode, which
	 * charges them to Committed_AS too (Linux: shmem_acct_blocks for a
	 * VM_NORESERVE file, every tmpfs file and memfd)... */
	unsigned long alloced;
	/* ...unless the file was charged its whole size when made (Linux:
	 * shmem_acct_size, a shared anonymous mapping without
	 * MAP_NORESERVE): those pages, given back at evict. */
	unsigned long acct_size_pages;
	struct ramfs_inode *parent;    /* directories: "..", the root's is itself */
	struct ramfs_dentry *children; /* directories: sorted by name */
	/* Special files (/proc, /sys): their own operations, used by open
	 * instead of the regular file's; NULL for initramfs files. */
	const struct file_operations *i_fop;
	void *i_private; /* for i_fop (e.g. the show function's data) */
	/* Symlinks whose target is computed when followed (/proc/self/exe):
	 * write it, NUL-terminated, in buf. Return: its length, or -errno. */
	int (*get_link)(struct ramfs_inode *inode, char *buf, size_t size);
	/* Directories whose names are computed (/proc: a pid): the inode
	 * for [name, +len), asked when no dentry has it (Linux:
	 * i_op->lookup, proc_root_lookup). Return: it, or NULL: -ENOENT. */
	struct ramfs_inode *(*lookup)(struct ramfs_inode *dir, const char *name, size_t len);
	/* The name of a directory no dentry names (/proc/PID, which lookup
	 * leads to), for getcwd and readlink of /proc/PID/cwd; NULL otherwise. */
	const char *i_name;
	/* The fs mounted on this directory, whose root a walk enters in its
	 * place (Linux: d_mountpoint and the mount hash); NULL: none. */
	struct ramfs *i_mounted;
};

/* i_state: an O_TMPFILE inode (no name, nlink 0) linkat may name. */
#define I_LINKABLE 0x1u

struct ramfs;
/* Zeroed memory for an inode, a dentry or a name. Return: NULL when
 * there is none. */
typedef void *(*ramfs_alloc_t)(struct ramfs *fs, size_t size);
/* Give back what the allocator gave (a name removed, an inode evicted). */
typedef void (*ramfs_free_t)(struct ramfs *fs, void *ptr);

struct ramfs {
	struct ramfs_inode *root;
	ramfs_alloc_t alloc;
	ramfs_free_t free;	  /* NULL: nothing is given back (a test's arena) */
	void *alloc_priv;	  /* for the allocator */
	unsigned long last_ino;	  /* the last inode number handed out */
	unsigned long nr_inodes;  /* inodes alive (statfs: f_files - f_ffree) */
	unsigned long used_pages; /* page-cache pages of its files (f_blocks - f_bfree) */
	/* Linux: tmpfs's max_blocks and max_inodes (size=, nr_inodes=): the
	 * pages its files may hold and the inodes programs may make (the
	 * kernel's /proc inodes on rootfs count, unchecked), -ENOSPC past
	 * them; 0: no limit. */
	unsigned long max_pages, max_inodes;
	int huge; /* Linux: tmpfs's huge= (SHMEM_HUGE_*, <shmem_fs.h>), for new inodes */
	/* Mounted: the directory of another fs it covers (its root's ".."
	 * leads there); NULL for rootfs. */
	struct ramfs_inode *mountpoint;
	unsigned long nr_refs; /* the i_count of all its inodes, for umount's busy test */
	unsigned long nr_dirs; /* its directories alive: each but the root holds its parent */
	uint32_t dev;	       /* st_dev's minor (major 0); 0: rootfs's */
};

/* --- fs/ramfs.c --------------------------------------------------------- */
/* The kernel's file system (populate_rootfs fills it); empty until then. */
extern struct ramfs rootfs;

/* An empty file system: a root directory with mode S_IFDIR | 0755,
 * whose inodes, dentries and names come from @alloc and go back through
 * @free (NULL: never). Return: 0, or -ENOMEM. */
int ramfs_init(struct ramfs *fs, ramfs_alloc_t alloc, ramfs_free_t free, void *alloc_priv);
/* rootfs's allocator: kzalloc and kfree. Context: after mm_init. */
void *ramfs_kzalloc(struct ramfs *fs, size_t size);
void ramfs_kfree(struct ramfs *fs, void *ptr);

/*
 * Find path (Linux: kern_path). Every path starts at the root, with or
 * without a leading '/': "/etc/motd", "etc/motd" and "./etc/./motd" are
 * one file. "." and ".." work as in Linux (the root's ".." is the root);
 * symlinks are followed in every component, and in the last one too when
 * follow is true; a relative target starts in the link's directory.
 * Return: 0 with *out set, -ENOENT, -ENOTDIR (a component is not a
 * directory), -ELOOP (more than MAXSYMLINKS links), -ENAMETOOLONG.
 */
int ramfs_lookup(struct ramfs *fs, const char *path, bool follow, struct ramfs_inode **out);
/*
 * Find path as ramfs_lookup does, but a relative path starts at dir (Linux:
 * filename_lookup from a dirfd or the cwd); an absolute one at the root.
 * A symlink with a get_link hook is followed through the target the hook
 * computes; such a target may not itself pass through another get_link
 * link (-ELOOP), which is enough for /proc/self/exe. Return: as
 * ramfs_lookup, plus get_link's own error; -ENOTDIR if dir is not a
 * directory and path is relative.
 */
int ramfs_lookup_at(struct ramfs *fs, struct ramfs_inode *dir, const char *path, bool follow,
		    struct ramfs_inode **out);
/* Whether the directory may be searched (Linux: may_lookup, the caller's
 * MAY_EXEC permission on it). Return: 0, or the error that ends the walk. */
typedef int (*ramfs_may_lookup_t)(const void *priv, const struct ramfs_inode *dir);
/* ramfs_lookup_at asking @may_lookup (with @priv) before each directory
 * it searches: every component's, "." and ".." too, as Linux's
 * link_path_walk. */
int ramfs_lookup_perm(struct ramfs *fs, struct ramfs_inode *dir, const char *path, bool follow,
		      ramfs_may_lookup_t may_lookup, const void *priv, struct ramfs_inode **out);
/* Create a directory. Return: 0, -EEXIST, -ENOMEM or a lookup error for
 * the parent. */
int ramfs_mkdir(struct ramfs *fs, const char *path, uint32_t mode, struct ramfs_inode **out);
/* Create a regular file holding a copy of [data, +size) in its page
 * cache, or give an existing one those bytes (Linux: open with O_CREAT |
 * O_TRUNC, then write). Return: 0, -EISDIR, -EEXIST (another type is
 * there), -ENOMEM (the file is left empty), ... */
int ramfs_create(struct ramfs *fs, const char *path, uint32_t mode, const char *data, uint64_t size,
		 struct ramfs_inode **out);
/* A new inode of mode in dir, named name, or with no name (NULL: a
 * directory only lookup hooks lead to, as /proc/PID; its ".." is dir).
 * No path walk. Return: 0, -EEXIST, -ENAMETOOLONG, -ENOMEM. */
int ramfs_add(struct ramfs *fs, struct ramfs_inode *dir, const char *name, uint32_t mode,
	      struct ramfs_inode **out);
/* Create a character device node (Linux: vfs_mknod with S_IFCHR):
 * mode S_IFCHR | permissions, rdev its MKDEV(major, minor); open hands
 * it to the driver of its major. Return: 0, -EINVAL (not S_IFCHR),
 * -EEXIST, -ENOMEM or a lookup error for the parent. */
int ramfs_mknod(struct ramfs *fs, const char *path, uint32_t mode, uint32_t rdev,
		struct ramfs_inode **out);
/* Create a symlink whose target is a copy of [target, +len). Return: 0, -EEXIST,
 * -ENAMETOOLONG (len >= PATH_MAX), -ENOMEM, ... */
int ramfs_symlink(struct ramfs *fs, const char *path, const char *target, size_t len,
		  struct ramfs_inode **out);
/* Give inode another name (a hard link). An inode with no name left
 * takes one only while I_LINKABLE (an O_TMPFILE file; then no more).
 * Return: 0, -EEXIST, -EPERM for a directory, -ENOENT (no name, not
 * linkable), -ENOMEM, ... */
int ramfs_link(struct ramfs *fs, struct ramfs_inode *inode, const char *path);
/* The same as [name, +len) in dir (no path walk). */
int ramfs_link_at(struct ramfs *fs, struct ramfs_inode *inode, struct ramfs_inode *dir,
		  const char *name, size_t len);
/* Remove a name (Linux: unlink, or rmdir for a directory). A regular
 * file's last name takes its bytes with it, unless a file is open on it
 * (then the last iput does). Return: 0, -ENOENT, -ENOTEMPTY, -EBUSY for
 * the root. */
int ramfs_unlink(struct ramfs *fs, const char *path);
/* The fs whose mounted root @inode is (not rootfs, which covers
 * nothing), or NULL (Linux: path->dentry == path->mnt->mnt_root with a
 * parent mount). */
static inline struct ramfs *mount_root_sb(const struct ramfs_inode *inode)
{
	struct ramfs *fs = inode->i_sb;

	return fs && inode == fs->root && fs->mountpoint ? fs : NULL;
}
/* Linux: follow_up, from the root of a mounted fs to the directory it
 * covers, through every mount stacked there; @dir when it is no mount's
 * root. */
struct ramfs_inode *follow_up(struct ramfs_inode *dir);
/* Linux: follow_mount. The root of what is mounted on @inode, over and
 * over (mounts stack); @inode when nothing is. */
struct ramfs_inode *follow_mount(struct ramfs_inode *inode);
/* The inode named [name, +len) in @dir, as the last step of an unlink,
 * rmdir or rename looks it up (Linux: lookup_one_qstr_excl): a lookup
 * hook's names too, a symlink or a mount point not followed. Return: 0,
 * -ENOENT. */
int ramfs_lookup_child(struct ramfs_inode *dir, const char *name, size_t len,
		       struct ramfs_inode **out);
/* Whether anything outside @fs's own tree holds one of its inodes: an
 * open file, a cwd, an fs mounted on one of its directories (Linux:
 * may_umount_tree's refcount test). */
bool ramfs_busy(const struct ramfs *fs);
/* Remove every name of @fs and free its inodes, the root's too (Linux:
 * kill_litter_super at umount). Context: not busy. */
void ramfs_kill(struct ramfs *fs);
/* Whether @dir is @inode or lies below it (Linux: is_subdir, the walk
 * up the ".." chain lock_rename's trap check makes). */
bool is_subdir(const struct ramfs_inode *dir, const struct ramfs_inode *inode);
/* renameat2's flags (Linux's values). */
#define RENAME_NOREPLACE 1 /* fail with -EEXIST rather than replace */
#define RENAME_EXCHANGE 2  /* swap the two names' inodes */
#define RENAME_WHITEOUT 4  /* leave a whiteout (0:0 device) behind */
/*
 * Move the name @old_name of @old_dir to @new_name in @new_dir (Linux:
 * simple_rename, shmem_rename2): a name there is replaced (a regular
 * file by any non-directory, a directory only by a directory into an
 * empty one), its inode going as with ramfs_remove; a directory's ".."
 * and both parents' link counts follow. RENAME_EXCHANGE swaps two names'
 * inodes; RENAME_NOREPLACE keeps an existing name. Two names of one
 * inode: nothing happens. WHITEOUT is the caller's. Return: 0, -ENOENT
 * (no old name; no new one to exchange), -EEXIST, -EINVAL (a directory
 * into itself), -ENOTDIR, -EISDIR, -ENOTEMPTY, -EBUSY ("." or ".."),
 * -ENAMETOOLONG, -ENOMEM (nothing changed).
 */
int ramfs_rename(struct ramfs *fs, struct ramfs_inode *old_dir, const char *old_name,
		 struct ramfs_inode *new_dir, const char *new_name, unsigned int flags);
/* The same for the name [name, +len) in dir (no path walk). Return: as
 * ramfs_unlink. */
int ramfs_remove(struct ramfs *fs, struct ramfs_inode *dir, const char *name, size_t len);
/* Make a regular file's bytes a copy of [data, +size): its page cache
 * emptied, then written (large folios where the sizes allow). Return: 0,
 * or -ENOMEM or -ENOSPC (past max_pages) with the file left empty. */
int ramfs_set_data(struct ramfs_inode *inode, const char *data, uint64_t size);
/* A regular file's new size (Linux: truncate_setsize): the bytes past a
 * smaller one leave the page cache, a larger one reads as zeros. */
void ramfs_setsize(struct ramfs_inode *inode, uint64_t size);
/* How many of the @len bytes a write at @pos may put in @inode before
 * its fs's max_pages is reached: the pages the range already holds are
 * free, each missing one takes one (Linux: shmem_inode_acct_blocks at
 * each folio, the write cut short where it fails). Return: @len, less,
 * or 0 (then the write is -ENOSPC). */
size_t ramfs_write_room(struct ramfs_inode *inode, uint64_t pos, size_t len);
/* Bring the fs's used_pages level with the pages @inode's cache holds
 * now (Linux: shmem_recalc_inode); after every write, truncate and
 * fallocate. */
void ramfs_recalc_inode(struct ramfs_inode *inode);
/* fallocate's modes (Linux's values). */
#define FALLOC_FL_KEEP_SIZE 0x01  /* the size stays */
#define FALLOC_FL_PUNCH_HOLE 0x02 /* free the range (with KEEP_SIZE) */
/* Linux: shmem_fallocate. Allocate [@offset, +@len) of a regular file
 * in its page cache (zeroed folios, as large as the range allows), the
 * size growing to its end unless FALLOC_FL_KEEP_SIZE; or with
 * FALLOC_FL_PUNCH_HOLE free it, zeroing the parts of folios it cuts.
 * Return: 0, -ENODEV (not a regular file), -ENOSPC (past the fs's
 * max_pages, or no memory: what this call allocated is freed again).
 * Context: @len > 0, checked modes. */
int ramfs_fallocate(struct ramfs_inode *inode, int mode, uint64_t offset, uint64_t len);
/* Free a regular file's bytes (its page cache) and make it empty (Linux:
 * truncate_setsize(inode, 0)). */
void ramfs_truncate(struct ramfs_inode *inode);
/* Linux: shmem_mmap, a regular file's f_op->mmap: its VMA's faults come
 * to shmem_fault (the page cache's folio, made for a hole; SIGBUS past
 * the end of the file or with the fs full). Return: 0, or -ENODEV for a
 * file without page cache. */
struct file;
struct vm_area_struct;
struct file_operations;
int shmem_mmap(struct file *file, struct vm_area_struct *vma);
/* Linux: shmem_file_setup on shm_mnt (the kernel's own tmpfs: no size
 * limit, huge=never): a new unnamed regular file of size bytes, open
 * for reading and writing with fops; it goes with its last reference
 * (shared anonymous memory: shmem_zero_setup; memfd), and name (a
 * kmalloc'd "memfd:NAME" for /proc/PID/fd, or NULL) with it. Return:
 * the file, or NULL without memory (name freed). */
struct file *shmem_file_setup(char *name, uint64_t size, const struct file_operations *fops);
/* The file's seals against a change (Linux: shmem_write_begin,
 * shmem_setattr and shmem_fallocate's tests). A write of len bytes at
 * pos: the bytes it may write (fewer when F_SEAL_GROW stops it at the
 * 2 MiB chunk that would grow the file), or -EPERM. A new size, an fallocate
 * (mode FALLOC_FL_*): 0 or -EPERM. */
long shmem_write_sealed(const struct ramfs_inode *inode, uint64_t pos, size_t len);
int shmem_setsize_sealed(const struct ramfs_inode *inode, uint64_t size);
int shmem_fallocate_sealed(const struct ramfs_inode *inode, int mode, uint64_t offset,
			   uint64_t len);
/* Linux: shmem_fallocate, a tmpfs file's f_op->fallocate: the seals,
 * file_modified, ramfs_fallocate. Return: 0 or -errno. */
long shmem_fallocate(struct file *file, int mode, uint64_t offset, uint64_t len);
/* Linux: shmem_zero_setup, the file of a MAP_SHARED|MAP_ANONYMOUS
 * mapping of size bytes (only its mapping uses it), charged its size to
 * Committed_AS unless vm_flags has VM_NORESERVE (shmem_acct_size).
 * Return: it, or NULL (no memory, or the charge was refused). */
struct file *shmem_zero_setup(uint64_t size, unsigned long vm_flags);
/* Linux: ihold and iput. The last iput of an inode with no name left
 * frees its bytes (Linux: evict, truncate_inode_pages_final). */
void ihold(struct ramfs_inode *inode);
void iput(struct ramfs_inode *inode);
/* Copy up to len bytes from offset off of a regular file. Return: bytes
 * copied (0 at or past the end), -EISDIR, -EINVAL for another type. */
long ramfs_read(struct ramfs_inode *inode, uint64_t off, void *buf, size_t len);
/* "drwxr-xr-x" for mode, in buf[11]. Return: buf. */
const char *ramfs_mode_string(uint32_t mode, char buf[11]);

/* --- fs/initramfs.c ----------------------------------------------------- */
#define INITRAMFS_MSG_MAX 160

/* What unpack_to_rootfs did, and why it stopped if it stopped early. */
struct initramfs_stats {
	unsigned int files, dirs, symlinks, hardlinks, archives;
	unsigned int skipped;		 /* device nodes, fifos, sockets: not supported */
	unsigned int failed;		 /* well-formed entries the fs refused */
	uint64_t bytes;			 /* of regular file data */
	uint64_t stop_offset;		 /* where the malformed entry starts */
	char message[INITRAMFS_MSG_MAX]; /* the stop reason, "" if none */
	char failure[INITRAMFS_MSG_MAX]; /* the first refused entry, "" if none */
};

/*
 * Unpack every cpio "newc" archive in [buf, +len) into fs, in order: a
 * later archive's entries replace or extend an earlier one's (Linux:
 * unpack_to_rootfs). Zero bytes between archives are skipped. File bytes
 * are copied into the files' page cache (as Linux's ramfs), so buf may be
 * freed afterwards. A malformed entry stops the unpack
 * there; the entries before it stay.
 * Return: 0, or -EINVAL with st->message naming the entry and its offset.
 */
int unpack_to_rootfs(struct ramfs *fs, const void *buf, size_t len, struct initramfs_stats *st);
/* Boot: make rootfs and unpack the archive the loader handed over (NULL
 * for none) into it, then free it ("Freeing initrd memory"); prints one
 * summary line. Context: after mm_init. */
void populate_rootfs(const void *archive, size_t len);

#endif
