/*
 * /bin/sysconform: each served system call (include/syscall_64.h) called
 * raw through syscall(SYS_x, ...), so no libc wrapper hides an errno, and
 * its result checked against Linux's man pages: "ok NAME" or "FAIL NAME:
 * got R errno E, want W" a line, then "sysconform: N checks, all ok" (exit
 * 0) or "sysconform: K of N checks FAILED" (exit 1). Example: read of a
 * closed fd must be -1/EBADF: "ok read closed fd is EBADF".
 * Only what holds on Linux and on a minimal kernel is asserted, as uid 0 or
 * not: the known regular file is this program (argv[0]), the known
 * directory "/", pipes make the rest; what needs an absent facility (a
 * symlink, /proc) prints "skip NAME: why" and counts for nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/prctl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096ul
#define BAD ((void *)1)			     /* unmapped: page 0 */
#define KADDR ((void *)0xffffffff80000000ul) /* the kernel's half */
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)
#define RW (PROT_READ | PROT_WRITE)
#define ARCH_SET_FS_ 0x1002 /* <asm/prctl.h>, which musl-gcc cannot see */
#define ARCH_GET_FS_ 0x1003
#ifndef GRND_INSECURE
#define GRND_INSECURE 4
#endif
#ifndef STATX_BASIC_STATS
#define STATX_SIZE 0x200u
#define STATX_BASIC_STATS 0x7ffu
#endif
#ifndef AT_STATX_FORCE_SYNC
#define AT_STATX_FORCE_SYNC 0x2000
#define AT_STATX_DONT_SYNC 0x4000
#endif

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE 1
#define RENAME_EXCHANGE 2
#endif
#define RENAME_WHITEOUT_ 4 /* musl 1.2.3 has no name for it */
#ifndef FALLOC_FL_KEEP_SIZE
#define FALLOC_FL_KEEP_SIZE 1
#define FALLOC_FL_PUNCH_HOLE 2
#endif
#define SYS_fchmodat2_ 452 /* Linux 6.6; musl 1.2.3 has no number for it */
#define TMPFS_MAGIC_ 0x01021994
#define PIPEFS_MAGIC_ 0x50495045

/* The kernel's struct statx (<linux/stat.h>): musl 1.2.3 has none. */
struct kstatx {
	uint32_t stx_mask, stx_blksize;
	uint64_t stx_attributes;
	uint32_t stx_nlink, stx_uid, stx_gid;
	uint16_t stx_mode, pad0;
	uint64_t stx_ino, stx_size, stx_blocks, stx_attributes_mask;
	uint64_t rest[20]; /* the times, devices and what later kernels add */
};

/* The kernel's struct sigaction (not libc's): sa_mask is one word. */
struct ksigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static int nchecks, nfailed;
static long r; /* the last call's result, and its errno (0 on success) */
static int e;
static const char *exe; /* a regular file: this program */
static long exe_size;

/*
 * SYS(NR, args...): call NR raw through syscall(2), keep its result in r
 * and e, give the result. Every argument is cast to long first: syscall()
 * reads six longs, and an int passed to it has undefined upper bits.
 */
#define SYS(...) SYS_(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0)
#define SYS_(n, a, b, c, d, e, f, ...) \
	keep(syscall((long)(n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), (long)(f)))

static long keep(long ret)
{
	r = ret;
	e = ret == -1 ? errno : 0;
	return ret;
}

static void result(const char *name, int ok, const char *want)
{
	nchecks++;
	if (ok) {
		printf("ok %s\n", name);
		return;
	}
	nfailed++;
	printf("FAIL %s: got %ld errno %d (%s), want %s\n", name, r, e, strerror(e), want);
}

/* The call (evaluated as the argument) succeeded. */
static void ok(const char *name, long call)
{
	(void)call;
	result(name, r >= 0, "success");
}

/* The call (or a value made from its result) is want. */
static void ok_eq(const char *name, long call, long want)
{
	char w[48];

	r = call;
	snprintf(w, sizeof(w), "%ld", want);
	result(name, r == want, w);
}

/* The call failed with errno want. */
static void fails(const char *name, long call, int want)
{
	char w[80];

	(void)call;
	snprintf(w, sizeof(w), "-1 errno %d (%s)", want, strerror(want));
	result(name, r == -1 && e == want, w);
}

/* A condition on what the last calls returned. */
static void cond(const char *name, int ok, const char *want)
{
	result(name, ok, want);
}

static void skip(const char *name, const char *why)
{
	printf("skip %s: %s\n", name, why);
}

/* An fd number that is surely closed, that no open() here will take and
 * that dup2 may still make: 900, or RLIMIT_NOFILE - 1 when that is less. */
static int closed_fd(void)
{
	struct rlimit lim;
	int fd = 900;

	if (syscall(SYS_getrlimit, RLIMIT_NOFILE, &lim) == 0 && lim.rlim_cur <= 900)
		fd = (int)lim.rlim_cur - 1;
	close(fd);
	return fd;
}

static int open_exe(void)
{
	return (int)syscall(SYS_open, exe, O_RDONLY | O_CLOEXEC);
}

static void files(void)
{
	char buf[256], buf2[256], lng[5000];
	int fd = open_exe(), bad = closed_fd(), dfd;
	struct stat st;

	ok("open the program's file", fd);
	if (fd < 0)
		return;
	ok_eq("read 4 bytes", SYS(SYS_read, fd, buf, 4), 4);
	cond("read gives the ELF magic", memcmp(buf, "\177ELF", 4) == 0, "\\177ELF");
	ok_eq("read count 0", SYS(SYS_read, fd, buf, 0), 0);
	fails("read closed fd is EBADF", SYS(SYS_read, bad, buf, 1), EBADF);
	fails("read fd -1 is EBADF", SYS(SYS_read, -1, buf, 1), EBADF);
	fails("read to a bad pointer is EFAULT", SYS(SYS_read, fd, BAD, 16), EFAULT);
	fails("write to a read-only fd is EBADF", SYS(SYS_write, fd, buf, 1), EBADF);
	fails("write closed fd is EBADF", SYS(SYS_write, bad, buf, 1), EBADF);

	ok_eq("lseek SEEK_SET", SYS(SYS_lseek, fd, 10, SEEK_SET), 10);
	ok_eq("lseek SEEK_CUR", SYS(SYS_lseek, fd, 5, SEEK_CUR), 15);
	exe_size = SYS(SYS_lseek, fd, 0, SEEK_END);
	cond("lseek SEEK_END gives the size", exe_size > 4096, "> 4096");
	fails("lseek whence 5 is EINVAL", SYS(SYS_lseek, fd, 0, 5), EINVAL);
	fails("lseek before 0 is EINVAL", SYS(SYS_lseek, fd, -1, SEEK_SET), EINVAL);
	fails("lseek closed fd is EBADF", SYS(SYS_lseek, bad, 0, SEEK_SET), EBADF);
	ok_eq("read at the end gives 0", SYS(SYS_read, fd, buf, 16), 0);

	ok_eq("pread64 at 1", SYS(SYS_pread64, fd, buf, 3, 1), 3);
	cond("pread64 gives the bytes at 1", memcmp(buf, "ELF", 3) == 0, "ELF");
	ok_eq("pread64 leaves the offset", SYS(SYS_lseek, fd, 0, SEEK_CUR), exe_size);
	fails("pread64 negative offset is EINVAL", SYS(SYS_pread64, fd, buf, 1, -1), EINVAL);
	fails("pwrite64 to a read-only fd is EBADF", SYS(SYS_pwrite64, fd, buf, 1, 0), EBADF);
	/* posix_fadvise: files in memory take the advice as given. */
	ok_eq("fadvise64 DONTNEED", SYS(SYS_fadvise64, fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	ok_eq("fadvise64 SEQUENTIAL of a range", SYS(SYS_fadvise64, fd, 4096, 8192, 2), 0);
	fails("fadvise64 advice 6 is EINVAL", SYS(SYS_fadvise64, fd, 0, 0, 6), EINVAL);
	fails("fadvise64 negative length is EINVAL", SYS(SYS_fadvise64, fd, 0, -1, 0), EINVAL);
	fails("fadvise64 closed fd is EBADF", SYS(SYS_fadvise64, bad, 0, 0, 0), EBADF);

	ok("fstat", SYS(SYS_fstat, fd, &st));
	cond("fstat: a regular file of the size", S_ISREG(st.st_mode) && st.st_size == exe_size,
	     "S_IFREG and the lseek size");
	fails("fstat closed fd is EBADF", SYS(SYS_fstat, bad, &st), EBADF);
	fails("fstat to a bad pointer is EFAULT", SYS(SYS_fstat, fd, BAD), EFAULT);
	ok("stat", SYS(SYS_stat, exe, &st));
	cond("stat: a regular file of the size", S_ISREG(st.st_mode) && st.st_size == exe_size,
	     "S_IFREG and the lseek size");
	ok("lstat /", SYS(SYS_lstat, "/", &st));
	cond("lstat /: a directory", S_ISDIR(st.st_mode), "S_IFDIR");
	fails("stat of a missing file is ENOENT", SYS(SYS_stat, "/nonexistent-sysconform", &st),
	      ENOENT);
	fails("stat of a bad path pointer is EFAULT", SYS(SYS_stat, BAD, &st), EFAULT);
	fails("stat of an empty path is ENOENT", SYS(SYS_stat, "", &st), ENOENT);
	ok("newfstatat AT_EMPTY_PATH", SYS(SYS_newfstatat, fd, "", &st, AT_EMPTY_PATH));
	cond("newfstatat AT_EMPTY_PATH: the fd's file",
	     S_ISREG(st.st_mode) && st.st_size == exe_size, "S_IFREG and the lseek size");
	ok("newfstatat AT_FDCWD", SYS(SYS_newfstatat, AT_FDCWD, "/", &st, 0));
	fails("newfstatat bad flags is EINVAL", SYS(SYS_newfstatat, AT_FDCWD, "/", &st, 0x40000000),
	      EINVAL);
	fails("newfstatat relative to a file is ENOTDIR", SYS(SYS_newfstatat, fd, "x", &st, 0),
	      ENOTDIR);
	fails("newfstatat relative to a closed fd is EBADF", SYS(SYS_newfstatat, bad, "x", &st, 0),
	      EBADF);

	/* statx: the layout is the kernel's struct statx (<linux/stat.h>). */
	{
		struct kstatx stx;

		ok("statx", SYS(SYS_statx, AT_FDCWD, exe, 0, STATX_BASIC_STATS, &stx));
		cond("statx: a regular file of the size",
		     S_ISREG(stx.stx_mode) && (long)stx.stx_size == exe_size &&
			     (stx.stx_mask & STATX_SIZE),
		     "S_IFREG, the lseek size, STATX_SIZE");
		fails("statx reserved mask bit is EINVAL",
		      SYS(SYS_statx, AT_FDCWD, exe, 0, 0x80000000u, &stx), EINVAL);
		fails("statx FORCE_SYNC|DONT_SYNC is EINVAL",
		      SYS(SYS_statx, AT_FDCWD, exe, AT_STATX_FORCE_SYNC | AT_STATX_DONT_SYNC,
			  STATX_BASIC_STATS, &stx),
		      EINVAL);
		fails("statx to a bad pointer is EFAULT",
		      SYS(SYS_statx, AT_FDCWD, exe, 0, STATX_BASIC_STATS, BAD), EFAULT);
	}

	fails("open a missing file is ENOENT", SYS(SYS_open, "/nonexistent-sysconform/x", O_RDONLY),
	      ENOENT);
	snprintf(buf2, sizeof(buf2), "%s/x", exe);
	fails("open below a regular file is ENOTDIR", SYS(SYS_open, buf2, O_RDONLY), ENOTDIR);
	fails("open a file O_DIRECTORY is ENOTDIR", SYS(SYS_open, exe, O_RDONLY | O_DIRECTORY),
	      ENOTDIR);
	fails("open / for writing is EISDIR", SYS(SYS_open, "/", O_WRONLY), EISDIR);
	fails("open a bad path pointer is EFAULT", SYS(SYS_open, BAD, O_RDONLY), EFAULT);
	memset(lng, 'a', sizeof(lng));
	lng[0] = '/';
	lng[sizeof(lng) - 1] = 0;
	fails("open a path of 5000 bytes is ENAMETOOLONG", SYS(SYS_open, lng, O_RDONLY),
	      ENAMETOOLONG);
	lng[300] = 0;
	fails("open a name of 299 bytes is ENAMETOOLONG", SYS(SYS_open, lng, O_RDONLY),
	      ENAMETOOLONG);

	dfd = (int)SYS(SYS_open, "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok("open / O_DIRECTORY", dfd);
	fails("read of a directory is EISDIR", SYS(SYS_read, dfd, buf, sizeof(buf)), EISDIR);
	fails("openat relative to a file is ENOTDIR", SYS(SYS_openat, fd, "x", O_RDONLY), ENOTDIR);
	fails("openat relative to a closed fd is EBADF", SYS(SYS_openat, bad, "x", O_RDONLY),
	      EBADF);
	ok("openat an absolute path ignores dirfd",
	   SYS(SYS_openat, bad, exe[0] == '/' ? exe : "/", O_RDONLY | O_CLOEXEC));
	if (r >= 0)
		close((int)r);
	ok("openat AT_FDCWD", SYS(SYS_openat, AT_FDCWD, exe, O_RDONLY | O_CLOEXEC));
	if (r >= 0)
		close((int)r);

	ok_eq("close", SYS(SYS_close, dfd), 0);
	fails("close again is EBADF", SYS(SYS_close, dfd), EBADF);
	fails("close -1 is EBADF", SYS(SYS_close, -1), EBADF);

	ok_eq("flock LOCK_SH", SYS(SYS_flock, fd, LOCK_SH), 0);
	ok_eq("flock LOCK_EX|LOCK_NB", SYS(SYS_flock, fd, LOCK_EX | LOCK_NB), 0);
	ok_eq("flock LOCK_UN", SYS(SYS_flock, fd, LOCK_UN), 0);
	fails("flock of no operation is EINVAL", SYS(SYS_flock, fd, 0), EINVAL);
	fails("flock closed fd is EBADF", SYS(SYS_flock, bad, LOCK_SH), EBADF);

	ok_eq("access R_OK", SYS(SYS_access, exe, R_OK), 0);
	ok_eq("access X_OK of the running program", SYS(SYS_access, exe, X_OK), 0);
	fails("access of a missing file is ENOENT",
	      SYS(SYS_access, "/nonexistent-sysconform", F_OK), ENOENT);
	fails("access mode 8 is EINVAL", SYS(SYS_access, exe, 8), EINVAL);
	fails("access of a bad path pointer is EFAULT", SYS(SYS_access, BAD, F_OK), EFAULT);
	ok_eq("faccessat", SYS(SYS_faccessat, AT_FDCWD, exe, R_OK), 0);
	fails("faccessat relative to a file is ENOTDIR", SYS(SYS_faccessat, fd, "x", R_OK),
	      ENOTDIR);
	ok_eq("faccessat2 AT_EACCESS", SYS(SYS_faccessat2, AT_FDCWD, exe, R_OK, AT_EACCESS), 0);
	fails("faccessat2 bad flags is EINVAL", SYS(SYS_faccessat2, AT_FDCWD, exe, R_OK, 0x1),
	      EINVAL);

	fails("readlink of a regular file is EINVAL", SYS(SYS_readlink, exe, buf, sizeof(buf)),
	      EINVAL);
	fails("readlink of a missing file is ENOENT",
	      SYS(SYS_readlink, "/nonexistent-sysconform", buf, sizeof(buf)), ENOENT);
	fails("readlink bufsiz 0 is EINVAL", SYS(SYS_readlink, exe, buf, 0), EINVAL);
	fails("readlinkat relative to a file is ENOTDIR",
	      SYS(SYS_readlinkat, fd, "x", buf, sizeof(buf)), ENOTDIR);
	close(fd);
}

/* A symlink "link" -> "target" (a regular file) and, where the program
 * made them itself, "loop" -> "loop". On Linux they go in a new directory
 * under /tmp; on Folium (no symlink call) the initramfs has
 * /etc/sysconform-link -> motd. */
static void links(void)
{
	static char dir[] = "/tmp/sysconform-XXXXXX";
	char link[64], loop[64], target[64], buf[64];
	int made = mkdtemp(dir) != NULL;

	if (made) {
		snprintf(link, sizeof(link), "%s/link", dir);
		snprintf(loop, sizeof(loop), "%s/loop", dir);
		snprintf(target, sizeof(target), "%s/target", dir);
		made = symlink("target", link) == 0 && symlink("loop", loop) == 0 &&
		       close(open(target, O_CREAT | O_WRONLY, 0644)) == 0;
	}
	if (!made) {
		snprintf(link, sizeof(link), "/etc/sysconform-link");
		if (SYS(SYS_readlink, link, buf, sizeof(buf)) < 0) {
			skip("readlink, ELOOP", "no symlink here and none can be made");
			return;
		}
	}
	ok_eq("readlink of a symlink gives its length", SYS(SYS_readlink, link, buf, sizeof(buf)),
	      made ? 6 : 4);
	cond("readlink gives the target, no NUL",
	     memcmp(buf, made ? "target" : "motd", made ? 6 : 4) == 0, "the target");
	ok_eq("readlink truncates to bufsiz", SYS(SYS_readlink, link, buf, 2), 2);
	fails("open O_NOFOLLOW of a symlink is ELOOP", SYS(SYS_open, link, O_RDONLY | O_NOFOLLOW),
	      ELOOP);
	ok("open through a symlink", SYS(SYS_open, link, O_RDONLY | O_CLOEXEC));
	if (r >= 0)
		close((int)r);
	if (made) {
		fails("open of a symlink loop is ELOOP", SYS(SYS_open, loop, O_RDONLY), ELOOP);
		unlink(link);
		unlink(loop);
		unlink(target);
		rmdir(dir);
	} else {
		skip("open of a symlink loop is ELOOP", "no loop here and none can be made");
	}
}

/* Files and directories made in the working directory (the root, a
 * tmpfs or ramfs, under Folium's and Linux's init; a scratch directory
 * on the build machine): made, written, truncated, linked and removed,
 * an open file outliving its last name. Only a user who is not root may
 * find the directory unwritable (the build machine's run as nobody). */
static void writes(void)
{
	static const char dir[] = "sysconform-w", file[] = "sysconform-w/f",
			  hard[] = "sysconform-w/h", sym[] = "sysconform-w/s",
			  sub[] = "sysconform-w/d";
	mode_t old_umask = umask(022);
	char buf[32];
	struct stat st;
	int fd, fd2;

	SYS(SYS_mkdir, dir, 0777);
	if (r < 0 && e == EACCES && geteuid() != 0) {
		skip("files made, written and removed", "the working directory is not writable");
		umask(old_umask);
		return;
	}
	ok_eq("mkdir", r, 0);
	fails("mkdir again is EEXIST", SYS(SYS_mkdir, dir, 0777), EEXIST);
	SYS(SYS_stat, dir, &st);
	cond("mkdir's mode is 0777 less the umask",
	     S_ISDIR(st.st_mode) && (st.st_mode & 07777) == 0755, "drwxr-xr-x");
	fd = (int)SYS(SYS_open, file, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	ok("open O_CREAT|O_EXCL", fd);
	fails("open O_CREAT|O_EXCL of an existing file is EEXIST",
	      SYS(SYS_open, file, O_RDWR | O_CREAT | O_EXCL, 0666), EEXIST);
	SYS(SYS_fstat, fd, &st);
	cond("a new file: regular, 0666 less the umask, empty",
	     S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0644 && st.st_size == 0,
	     "-rw-r--r--, 0 bytes");
	ok_eq("write", SYS(SYS_write, fd, "hello, world", 12), 12);
	ok_eq("pwrite64 past the end", SYS(SYS_pwrite64, fd, "!", 1, 100), 1);
	SYS(SYS_fstat, fd, &st);
	cond("the size follows the last byte", st.st_size == 101, "101");
	memset(buf, 'x', sizeof(buf));
	ok_eq("pread64 over the hole", SYS(SYS_pread64, fd, buf, 16, 0), 16);
	cond("the bytes, then zeros", memcmp(buf, "hello, world\0\0\0\0", 16) == 0,
	     "hello, world and zeros");
	fd2 = (int)SYS(SYS_open, file, O_WRONLY | O_APPEND | O_CLOEXEC);
	ok_eq("write with O_APPEND", SYS(SYS_write, fd2, "ab", 2), 2);
	SYS(SYS_fstat, fd, &st);
	cond("O_APPEND wrote at the end", st.st_size == 103, "103");
	close(fd2);
	fd2 = (int)SYS(SYS_open, file, O_RDONLY | O_CLOEXEC);
	fails("ftruncate of a read-only fd is EINVAL", SYS(SYS_ftruncate, fd2, 0), EINVAL);
	close(fd2);
	ok_eq("ftruncate", SYS(SYS_ftruncate, fd, 5), 0);
	ok_eq("truncate", SYS(SYS_truncate, file, 3), 0);
	fails("truncate of a directory is EISDIR", SYS(SYS_truncate, dir, 0), EISDIR);
	SYS(SYS_fstat, fd, &st);
	cond("truncate sets the size", st.st_size == 3, "3");
	ok_eq("link", SYS(SYS_link, file, hard), 0);
	SYS(SYS_stat, hard, &st);
	cond("a link counts in st_nlink", st.st_nlink == 2, "2");
	fails("link of a directory is EPERM", SYS(SYS_link, dir, sub), EPERM);
	ok_eq("symlink", SYS(SYS_symlink, "f", sym), 0);
	SYS(SYS_stat, sym, &st);
	cond("stat follows the symlink", st.st_size == 3, "3");
	ok_eq("symlink to a missing name", SYS(SYS_symlink, "made", "sysconform-w/dl"), 0);
	fd2 = (int)SYS(SYS_open, "sysconform-w/dl", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	ok("open O_CREAT through a dangling symlink", fd2);
	close(fd2);
	cond("... makes the link's target",
	     SYS(SYS_stat, "sysconform-w/made", &st) == 0 && S_ISREG(st.st_mode), "a regular file");
	fails("open O_CREAT|O_EXCL of a symlink is EEXIST",
	      SYS(SYS_open, "sysconform-w/dl", O_WRONLY | O_CREAT | O_EXCL, 0644), EEXIST);
	SYS(SYS_unlink, "sysconform-w/dl");
	SYS(SYS_unlink, "sysconform-w/made");
	ok_eq("mkdir inside", SYS(SYS_mkdir, sub, 0700), 0);
	fails("rmdir of a directory with names is ENOTEMPTY", SYS(SYS_rmdir, dir), ENOTEMPTY);
	fails("unlink of a directory is EISDIR", SYS(SYS_unlink, sub), EISDIR);
	fails("rmdir of a file is ENOTDIR", SYS(SYS_rmdir, file), ENOTDIR);
	ok_eq("rmdir", SYS(SYS_rmdir, sub), 0);
	ok_eq("unlink", SYS(SYS_unlink, file), 0);
	ok_eq("unlink the other name", SYS(SYS_unlink, hard), 0);
	fails("open of a removed file is ENOENT", SYS(SYS_open, file, O_RDONLY), ENOENT);
	ok_eq("an open file outlives its names", SYS(SYS_pread64, fd, buf, 3, 0), 3);
	cond("... with its bytes", memcmp(buf, "hel", 3) == 0, "hel");
	close(fd);
	ok_eq("unlink the symlink", SYS(SYS_unlink, sym), 0);
	ok_eq("rmdir the directory", SYS(SYS_rmdir, dir), 0);
	fails("mkdir / is EEXIST", SYS(SYS_mkdir, "/", 0755), EEXIST);
	fails("rmdir / is EBUSY", SYS(SYS_rmdir, "/"), EBUSY);
	fails("unlink / is EISDIR", SYS(SYS_unlink, "/"), EISDIR);
	umask(old_umask);
}

/* The names used by renames_and_attrs, in the working directory. */
#define RD "sysconform-r"
static const char *const rd_files[] = {
	RD "/s/t/e", RD "/s/t", RD "/s/b", RD "/s",  RD "/b",  RD "/h", RD "/l",
	RD "/big",   RD "/e",	RD "/c",   RD "/tn", RD "/tx", RD "/w",
};

/* Renames, with their refusals and replacements. */
static void renames(int tmpfs)
{
	struct stat st, st2;
	int fd = (int)SYS(SYS_open, RD "/a", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	SYS(SYS_write, fd, "A", 1);
	close(fd);
	fd = (int)SYS(SYS_open, RD "/b", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	SYS(SYS_write, fd, "BB", 2);
	close(fd);
	SYS(SYS_mkdir, RD "/s", 0755);
	SYS(SYS_mkdir, RD "/s/t", 0755);
	SYS(SYS_mkdir, RD "/e", 0755);
	if (tmpfs) {
		SYS(SYS_stat, RD "/s", &st);
		SYS(SYS_stat, RD, &st2);
		cond("a tmpfs directory's size: 20 for each name and for . and ..",
		     st.st_size == 60 && st2.st_size == 120, "60 and 120");
	}
	ok_eq("rename to a new name", SYS(SYS_rename, RD "/a", RD "/c"), 0);
	fails("the old name is gone", SYS(SYS_stat, RD "/a", &st), ENOENT);
	fails("renameat2 RENAME_NOREPLACE onto a name is EEXIST",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/c", AT_FDCWD, RD "/b", RENAME_NOREPLACE), EEXIST);
	fails("renameat2 NOREPLACE with EXCHANGE is EINVAL",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/c", AT_FDCWD, RD "/b",
		  RENAME_NOREPLACE | RENAME_EXCHANGE),
	      EINVAL);
	fails("renameat2 with an unknown flag is EINVAL",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/c", AT_FDCWD, RD "/b", 8), EINVAL);
	fails("rename of a file onto a directory is EISDIR", SYS(SYS_rename, RD "/c", RD "/s"),
	      EISDIR);
	fails("rename of a directory onto a file is ENOTDIR", SYS(SYS_rename, RD "/s", RD "/c"),
	      ENOTDIR);
	fails("rename of a directory below itself is EINVAL", SYS(SYS_rename, RD "/s", RD "/s/t/x"),
	      EINVAL);
	fails("rename onto a directory with names is ENOTEMPTY", SYS(SYS_rename, RD "/e", RD "/s"),
	      ENOTEMPTY);
	fails("rename of a file named with a trailing slash is ENOTDIR",
	      SYS(SYS_rename, RD "/c/", RD "/z"), ENOTDIR);
	fails("rename of a missing name is ENOENT", SYS(SYS_rename, RD "/nope", RD "/z"), ENOENT);
	fails("rename of \".\" is EBUSY", SYS(SYS_rename, RD "/.", RD "/z"), EBUSY);
	ok_eq("rename onto a file replaces it", SYS(SYS_rename, RD "/c", RD "/b"), 0);
	SYS(SYS_stat, RD "/b", &st);
	cond("... which then has the moved file's bytes", r == 0 && st.st_size == 1, "1 byte");
	SYS(SYS_link, RD "/b", RD "/h");
	ok_eq("rename between two names of one file", SYS(SYS_rename, RD "/b", RD "/h"), 0);
	cond("... does nothing: both names stay",
	     SYS(SYS_stat, RD "/b", &st) == 0 && SYS(SYS_stat, RD "/h", &st2) == 0 &&
		     st.st_ino == st2.st_ino && st.st_nlink == 2,
	     "both, one inode, 2 links");
	ok_eq("rename of a directory onto an empty one", SYS(SYS_rename, RD "/e", RD "/s/t"), 0);
	SYS(SYS_stat, RD, &st);
	SYS(SYS_stat, RD "/s", &st2);
	cond("directory link counts follow the move", st.st_nlink == 3 && st2.st_nlink == 3,
	     "3 and 3");
	if (SYS(SYS_access, "/proc/self", F_OK) == 0)
		fails("rename into /proc is EXDEV", SYS(SYS_rename, RD "/h", "/proc/x"), EXDEV);
	if (!tmpfs) {
		skip("renameat2 RENAME_EXCHANGE", "not on tmpfs");
		return;
	}
	ok_eq("renameat2 RENAME_EXCHANGE of a file and a directory",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/b", AT_FDCWD, RD "/s", RENAME_EXCHANGE), 0);
	SYS(SYS_stat, RD "/b", &st);
	SYS(SYS_stat, RD "/s", &st2);
	cond("... swaps them", S_ISDIR(st.st_mode) && S_ISREG(st2.st_mode),
	     "b a directory, s a file");
	fails("RENAME_EXCHANGE with a missing name is ENOENT",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/b", AT_FDCWD, RD "/z", RENAME_EXCHANGE), ENOENT);
	SYS(SYS_renameat2, AT_FDCWD, RD "/b", AT_FDCWD, RD "/s", RENAME_EXCHANGE);
	ok_eq("renameat2 RENAME_WHITEOUT",
	      SYS(SYS_renameat2, AT_FDCWD, RD "/b", AT_FDCWD, RD "/w", RENAME_WHITEOUT_), 0);
	SYS(SYS_lstat, RD "/b", &st);
	SYS(SYS_stat, RD "/w", &st2);
	cond("... leaves a 0:0 character device at the old name",
	     S_ISCHR(st.st_mode) && st.st_rdev == 0 && S_ISREG(st2.st_mode), "c 0:0, and w a file");
	SYS(SYS_unlink, RD "/b");
	SYS(SYS_rename, RD "/w", RD "/b");
}

/* Modes and owners. */
static void modes(void)
{
	struct stat st;
	int fd = (int)SYS(SYS_open, RD "/h", O_RDONLY | O_CLOEXEC);

	ok_eq("chmod", SYS(SYS_chmod, RD "/h", 0600), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("chmod sets the permission bits", (st.st_mode & 07777) == 0600, "0600");
	ok_eq("fchmod on a read-only fd", SYS(SYS_fchmod, fd, 04711), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("fchmod sets set-user-ID too", (st.st_mode & 07777) == 04711, "04711");
	ok_eq("chown to the same owner", SYS(SYS_chown, RD "/h", geteuid(), getegid()), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("chown clears set-user-ID", (st.st_mode & 07777) == 0711, "0711");
	SYS(SYS_symlink, "h", RD "/l");
	ok_eq("chmod through a symlink", SYS(SYS_chmod, RD "/l", 0640), 0);
	SYS(SYS_lstat, RD "/l", &st);
	cond("... leaves the link's mode", (st.st_mode & 0777) == 0777, "0777");
	SYS(SYS_stat, RD "/h", &st);
	cond("... and changes the file's", (st.st_mode & 07777) == 0640, "0640");
	SYS(SYS_fchmodat2_, AT_FDCWD, RD "/l", 0600, AT_SYMLINK_NOFOLLOW);
	if (r == -1 && e == ENOSYS)
		skip("fchmodat2", "before Linux 6.6");
	else
		fails("fchmodat2 AT_SYMLINK_NOFOLLOW of a symlink is EOPNOTSUPP", r, EOPNOTSUPP);
	fails("fchmod of a closed fd is EBADF", SYS(SYS_fchmod, closed_fd(), 0600), EBADF);
	fails("chown of a missing name is ENOENT", SYS(SYS_chown, RD "/nope", 0, 0), ENOENT);
	close(fd);
}

/* Times: explicit, UTIME_NOW and UTIME_OMIT, microseconds and seconds,
 * who may set them; the ctime every change stamps. */
static void file_times(int tmpfs)
{
	struct timespec ts[2] = { { 1000000000, 123456789 }, { 1100000000, 5 } };
	struct timeval tv[2] = { { 1200000000, 7 }, { 1300000000, 999999 } };
	time_t t0 = time(NULL);
	struct stat st;
	char c;
	int fd;

	ok_eq("utimensat", SYS(SYS_utimensat, AT_FDCWD, RD "/h", ts, 0), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("utimensat sets atime and mtime to the nanosecond",
	     st.st_atim.tv_sec == 1000000000 && st.st_atim.tv_nsec == 123456789 &&
		     st.st_mtim.tv_sec == 1100000000 && st.st_mtim.tv_nsec == 5,
	     "1000000000.123456789 and 1100000000.000000005");
	cond("... and the ctime to now", st.st_ctim.tv_sec >= t0, ">= the time before");
	ts[0].tv_nsec = UTIME_OMIT;
	ts[1].tv_nsec = UTIME_NOW;
	ok_eq("utimensat UTIME_OMIT, UTIME_NOW", SYS(SYS_utimensat, AT_FDCWD, RD "/h", ts, 0), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("... keeps atime, sets mtime to now",
	     st.st_atim.tv_sec == 1000000000 && st.st_mtim.tv_sec >= t0, "atime kept, mtime now");
	if (tmpfs) {
		fd = (int)SYS(SYS_open, RD "/h", O_RDONLY | O_CLOEXEC);
		SYS(SYS_read, fd, &c, 1);
		close(fd);
		SYS(SYS_stat, RD "/h", &st);
		cond("a read sets an atime older than the mtime (relatime)",
		     st.st_atim.tv_sec >= t0, "atime now");
	}
	ts[0].tv_nsec = ts[1].tv_nsec = UTIME_OMIT;
	ok_eq("utimensat of both UTIME_OMIT does not even look up the name",
	      SYS(SYS_utimensat, AT_FDCWD, RD "/nope", ts, 0), 0);
	ts[0].tv_nsec = 1000000000;
	fails("utimensat with tv_nsec 1e9 is EINVAL", SYS(SYS_utimensat, AT_FDCWD, RD "/h", ts, 0),
	      EINVAL);
	fails("utimensat with an unknown flag is EINVAL",
	      SYS(SYS_utimensat, AT_FDCWD, RD "/h", NULL, 1), EINVAL);
	ok_eq("utimensat AT_SYMLINK_NOFOLLOW of a symlink",
	      SYS(SYS_utimensat, AT_FDCWD, RD "/l", NULL, AT_SYMLINK_NOFOLLOW), 0);
	ok_eq("utimes", SYS(SYS_utimes, RD "/h", tv), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("utimes sets microseconds",
	     st.st_atim.tv_sec == 1200000000 && st.st_atim.tv_nsec == 7000 &&
		     st.st_mtim.tv_nsec == 999999000,
	     "1200000000.000007 and .999999");
	tv[0].tv_usec = 1000000;
	fails("utimes with tv_usec 1e6 is EINVAL", SYS(SYS_utimes, RD "/h", tv), EINVAL);
	ok_eq("utime to now", SYS(SYS_utime, RD "/h", NULL), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("... sets both times to now", st.st_atim.tv_sec >= t0 && st.st_mtim.tv_sec >= t0,
	     ">= the time before");
	fd = (int)SYS(SYS_open, RD "/h", O_RDONLY | O_CLOEXEC);
	ts[0] = (struct timespec){ 5, 0 };
	ts[1] = (struct timespec){ 6, 0 };
	ok_eq("futimens (a NULL name and an fd)", SYS(SYS_utimensat, fd, NULL, ts, 0), 0);
	fails("futimens with a flag is EINVAL",
	      SYS(SYS_utimensat, fd, NULL, ts, AT_SYMLINK_NOFOLLOW), EINVAL);
	close(fd);
	SYS(SYS_stat, RD "/h", &st);
	cond("futimens sets the times", st.st_atim.tv_sec == 5 && st.st_mtim.tv_sec == 6,
	     "5 and 6");
}

/* Another user's file. Root looks through setfsuid(65534) at its own
 * file; anyone else at "/" (root's, not writable by others) and the
 * working directory when it is another's and writable (the build
 * machine's run as nobody). Then who may give a file away. */
static void other_users(void)
{
	struct timespec ts[2] = { { 5, 0 }, { 6, 0 } };
	int root = geteuid() == 0;
	const char *theirs = root ? RD "/h" : "/", *writable = root ? RD "/h" : ".";
	struct stat st;

	if (root) {
		SYS(SYS_chmod, RD "/h", 0644);
		SYS(SYS_setfsuid, 65534);
	}
	fails("chmod of another's file is EPERM", SYS(SYS_chmod, theirs, 0644), EPERM);
	fails("chown of another's file is EPERM", SYS(SYS_chown, theirs, 65534, -1), EPERM);
	fails("utimensat of another's file with times is EPERM",
	      SYS(SYS_utimensat, AT_FDCWD, theirs, ts, 0), EPERM);
	fails("utimensat to now of another's file not writable is EACCES",
	      SYS(SYS_utimensat, AT_FDCWD, theirs, NULL, 0), EACCES);
	if (root) {
		SYS(SYS_setfsuid, 0);
		SYS(SYS_chmod, RD "/h", 0666);
		SYS(SYS_setfsuid, 65534);
	}
	if (root || (stat(".", &st) == 0 && st.st_uid != geteuid() && access(".", W_OK) == 0))
		ok_eq("utimensat to now of another's file that is writable",
		      SYS(SYS_utimensat, AT_FDCWD, writable, NULL, 0), 0);
	else
		skip("utimensat to now of another's writable file", "none here");
	if (!root) {
		fails("a user cannot give a file away (EPERM)", SYS(SYS_chown, RD "/h", 0, -1),
		      EPERM);
		fails("nor give it a group it is not in (EPERM)", SYS(SYS_chown, RD "/h", -1, 0),
		      EPERM);
		return;
	}
	SYS(SYS_setfsuid, 0);
	ok_eq("root gives a file away", SYS(SYS_chown, RD "/h", 65534, 65534), 0);
	SYS(SYS_stat, RD "/h", &st);
	cond("... its owner and group change", st.st_uid == 65534 && st.st_gid == 65534,
	     "65534:65534");
	SYS(SYS_chown, RD "/h", 0, 0);
}

/* statfs and fallocate: tmpfs counts pages and inodes exactly. */
static void space(int tmpfs)
{
	static char page[4096];
	struct statfs sf, sf2;
	struct stat st;
	char buf[4];
	int fd, p[2];

	ok_eq("statfs", SYS(SYS_statfs, RD, &sf), 0);
	cond("statfs: names of 255 bytes, a block size", sf.f_namelen == 255 && sf.f_bsize > 0,
	     "255, > 0");
	fails("statfs of a missing name is ENOENT", SYS(SYS_statfs, RD "/nope", &sf2), ENOENT);
	fails("statfs to a bad pointer is EFAULT", SYS(SYS_statfs, RD, BAD), EFAULT);
	fails("fstatfs of a closed fd is EBADF", SYS(SYS_fstatfs, closed_fd(), &sf2), EBADF);
	SYS(SYS_pipe2, p, O_CLOEXEC);
	SYS(SYS_fstatfs, p[0], &sf2);
	cond("fstatfs of a pipe: pipefs", r == 0 && sf2.f_type == PIPEFS_MAGIC_, "PIPEFS_MAGIC");
	fd = (int)SYS(SYS_open, RD "/big", O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	fails("fallocate of length 0 is EINVAL", SYS(SYS_fallocate, fd, 0, 0, 0), EINVAL);
	fails("fallocate PUNCH_HOLE without KEEP_SIZE is EOPNOTSUPP",
	      SYS(SYS_fallocate, fd, FALLOC_FL_PUNCH_HOLE, 0, 4096), EOPNOTSUPP);
	fails("fallocate of a pipe is ESPIPE", SYS(SYS_fallocate, p[1], 0, 0, 4096), ESPIPE);
	fails("fallocate of a read-only fd is EBADF", SYS(SYS_fallocate, p[0], 0, 0, 4096), EBADF);
	close(p[0]);
	close(p[1]);
	if (!tmpfs) {
		skip("statfs counts and fallocate", "not on tmpfs");
		close(fd);
		return;
	}
	cond("statfs of tmpfs: TMPFS_MAGIC, 4 KiB blocks, free <= total",
	     sf.f_type == TMPFS_MAGIC_ && sf.f_bsize == 4096 && sf.f_bfree <= sf.f_blocks &&
		     sf.f_ffree <= sf.f_files,
	     "0x01021994, 4096");
	for (int i = 0; i < 256; i++)
		SYS(SYS_write, fd, page, sizeof(page));
	SYS(SYS_fstatfs, fd, &sf2);
	cond("1 MiB written and a new inode: 256 blocks and 1 inode fewer free",
	     sf.f_bfree - sf2.f_bfree == 256 && sf.f_ffree - sf2.f_ffree == 1, "256 and 1");
	SYS(SYS_fstat, fd, &st);
	cond("st_blocks counts the pages in 512-byte units", st.st_blocks == 2048, "2048");
	ok_eq("fallocate KEEP_SIZE past the end",
	      SYS(SYS_fallocate, fd, FALLOC_FL_KEEP_SIZE, 1 << 20, 1 << 20), 0);
	SYS(SYS_fstat, fd, &st);
	cond("... allocates, the size stays", st.st_size == 1 << 20 && st.st_blocks == 4096,
	     "1 MiB, 4096 blocks");
	ok_eq("fallocate to 3 MiB", SYS(SYS_fallocate, fd, 0, 2 << 20, 1 << 20), 0);
	SYS(SYS_fstat, fd, &st);
	cond("... the size follows", st.st_size == 3 << 20 && st.st_blocks == 6144,
	     "3 MiB, 6144 blocks");
	SYS(SYS_pwrite64, fd, "data", 4, 4096 * 10);
	ok_eq("fallocate PUNCH_HOLE|KEEP_SIZE",
	      SYS(SYS_fallocate, fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4096 * 8,
		  4096 * 8 + 2),
	      0);
	SYS(SYS_fstat, fd, &st);
	cond("... frees the whole pages, keeps the size",
	     st.st_size == 3 << 20 && st.st_blocks == 6144 - 64, "3 MiB, 6080 blocks");
	memset(buf, 'x', sizeof(buf));
	SYS(SYS_pread64, fd, buf, 4, 4096 * 10);
	cond("... and the hole reads as zeros", !memcmp(buf, "\0\0\0\0", 4), "zeros");
	close(fd);
	SYS(SYS_unlink, RD "/big");
	SYS(SYS_statfs, RD, &sf2);
	cond("unlink of a closed file gives its blocks and inode back",
	     sf2.f_bfree == sf.f_bfree && sf2.f_ffree == sf.f_ffree, "as before");
}

/* linkat of an O_TMPFILE fd to @name: root through AT_EMPTY_PATH
 * (which Linux before 6.10 keeps to CAP_DAC_READ_SEARCH), anyone else
 * through /proc/self/fd. */
static long link_tmpfile(int fd, const char *name)
{
	char path[64];

	if (geteuid() == 0)
		return SYS(SYS_linkat, fd, "", AT_FDCWD, name, AT_EMPTY_PATH);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	return SYS(SYS_linkat, AT_FDCWD, path, AT_FDCWD, name, AT_SYMLINK_FOLLOW);
}

/* O_TMPFILE: an unnamed file that linkat may name, unless O_EXCL. */
static void tmpfiles(int tmpfs)
{
	struct stat st;
	int fd;

	if (!tmpfs) {
		skip("O_TMPFILE", "not on tmpfs");
		return;
	}
	fails("O_TMPFILE read-only is EINVAL", SYS(SYS_open, RD, O_TMPFILE | O_RDONLY, 0600),
	      EINVAL);
	fails("O_TMPFILE of a file is ENOTDIR", SYS(SYS_open, RD "/h", O_TMPFILE | O_RDWR, 0600),
	      ENOTDIR);
	fd = (int)SYS(SYS_open, RD, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
	ok("open O_TMPFILE", fd);
	SYS(SYS_fstat, fd, &st);
	cond("... a regular file with no name, 0666 less the umask",
	     S_ISREG(st.st_mode) && st.st_nlink == 0 && (st.st_mode & 07777) == 0644,
	     "-rw-r--r--, 0 links");
	ok_eq("write to it", SYS(SYS_write, fd, "tmp", 3), 3);
	ok_eq("linkat names an O_TMPFILE file", link_tmpfile(fd, RD "/tn"), 0);
	SYS(SYS_stat, RD "/tn", &st);
	cond("... with its bytes", r == 0 && st.st_size == 3 && st.st_nlink == 1,
	     "3 bytes, 1 link");
	close(fd);
	fd = (int)SYS(SYS_open, RD, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	fails("linkat of an O_TMPFILE|O_EXCL file is ENOENT", link_tmpfile(fd, RD "/tx"), ENOENT);
	close(fd);
}

/* Renames, modes, owners, times, statfs, fallocate and O_TMPFILE in a
 * directory of the working directory (tmpfs under Folium's and Linux's
 * init). What only tmpfs promises (RENAME_EXCHANGE, page-sized blocks,
 * statfs's counts, relatime, O_TMPFILE) is checked there and skipped on
 * another fs. */
static void renames_and_attrs(void)
{
	mode_t old_umask = umask(022);
	struct statfs sf;
	int tmpfs;

	SYS(SYS_mkdir, RD, 0755);
	if (r < 0 && e == EACCES && geteuid() != 0) {
		skip("renames and attributes", "the working directory is not writable");
		umask(old_umask);
		return;
	}
	ok_eq("mkdir " RD, r, 0);
	tmpfs = SYS(SYS_statfs, RD, &sf) == 0 && sf.f_type == TMPFS_MAGIC_;
	renames(tmpfs);
	modes();
	file_times(tmpfs);
	other_users();
	space(tmpfs);
	tmpfiles(tmpfs);
	for (size_t i = 0; i < sizeof(rd_files) / sizeof(rd_files[0]); i++)
		if (SYS(SYS_unlink, rd_files[i]) && e == EISDIR)
			SYS(SYS_rmdir, rd_files[i]);
	ok_eq("rmdir " RD " when all is removed", SYS(SYS_rmdir, RD), 0);
	umask(old_umask);
}

static void dirs(void)
{
	char buf[4096], cwd[4096], name[256];
	const char *base = strrchr(exe, '/');
	int fd, found = 0, sane = 1, n;
	long total = 0;

	ok("getcwd", SYS(SYS_getcwd, cwd, sizeof(cwd)));
	cond("getcwd: an absolute path and its length with the NUL",
	     r > 0 && cwd[0] == '/' && (size_t)r == strlen(cwd) + 1, "/... and strlen + 1");
	fails("getcwd into 1 byte is ERANGE", SYS(SYS_getcwd, buf, 1), ERANGE);
	fails("getcwd size 0 is ERANGE", SYS(SYS_getcwd, buf, 0), ERANGE);
	fails("getcwd to a bad pointer is EFAULT", SYS(SYS_getcwd, BAD, 4096), EFAULT);

	/* The directory that holds the program lists the program. */
	if (base) {
		snprintf(name, sizeof(name), "%.*s", (int)(base - exe), exe);
		base++;
	}
	fd = (int)SYS(SYS_open, base && name[0] ? name : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ok("open the program's directory", fd);
	while ((n = (int)SYS(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (int off = 0; off < n;) {
			struct linux_dirent64 *d = (void *)(buf + off);

			sane &= d->d_reclen >= 20 && d->d_reclen % 8 == 0 &&
				off + d->d_reclen <= n &&
				memchr(d->d_name, 0, d->d_reclen - 19) != NULL;
			if (!sane)
				break;
			found |= base && strcmp(d->d_name, base) == 0;
			off += d->d_reclen;
			total++;
		}
		if (!sane)
			break;
	}
	cond("getdents64 ends with 0", n == 0, "0");
	cond("getdents64 records are well-formed", sane && total > 0, "8-aligned, NUL-terminated");
	if (base)
		cond("getdents64 lists the program", found, base);
	ok("lseek a directory to 0", SYS(SYS_lseek, fd, 0, SEEK_SET));
	fails("getdents64 into 1 byte is EINVAL", SYS(SYS_getdents64, fd, buf, 1), EINVAL);
	fails("getdents64 to a bad pointer is EFAULT", SYS(SYS_getdents64, fd, BAD, 4096), EFAULT);
	close(fd);
	fd = open_exe();
	fails("getdents64 of a file is ENOTDIR", SYS(SYS_getdents64, fd, buf, sizeof(buf)),
	      ENOTDIR);
	close(fd);
	fails("getdents64 closed fd is EBADF", SYS(SYS_getdents64, closed_fd(), buf, sizeof(buf)),
	      EBADF);

	fails("chdir to a file is ENOTDIR", SYS(SYS_chdir, exe), ENOTDIR);
	ok_eq("chdir /", SYS(SYS_chdir, "/"), 0);
	SYS(SYS_getcwd, buf, sizeof(buf));
	cond("getcwd after chdir / is /", r == 2 && strcmp(buf, "/") == 0, "\"/\", 2");
	fails("chdir to a missing directory is ENOENT", SYS(SYS_chdir, "/nonexistent-sysconform"),
	      ENOENT);
	fails("chdir to a bad pointer is EFAULT", SYS(SYS_chdir, BAD), EFAULT);
	ok_eq("chdir back", SYS(SYS_chdir, cwd), 0);
}

static void pipes_and_dups(void)
{
	int p[2] = { -1, -1 }, q[2] = { -1, -1 }, bad = closed_fd(), fd;
	char buf[16] = "", a[3], b[3];
	struct iovec iov[2] = { { "abc", 3 }, { "def", 3 } }, in[2] = { { a, 3 }, { b, 3 } };
	struct stat st;

	ok_eq("pipe", SYS(SYS_pipe, p), 0);
	fails("fadvise64 of a pipe is ESPIPE", SYS(SYS_fadvise64, p[0], 0, 0, 0), ESPIPE);
	fails("pipe to a bad pointer is EFAULT", SYS(SYS_pipe, BAD), EFAULT);
	fails("pipe2 bad flags is EINVAL", SYS(SYS_pipe2, q, 0x1), EINVAL);
	ok_eq("pipe2 O_CLOEXEC|O_NONBLOCK", SYS(SYS_pipe2, q, O_CLOEXEC | O_NONBLOCK), 0);
	ok_eq("fcntl F_GETFD of a pipe2 O_CLOEXEC end", SYS(SYS_fcntl, q[0], F_GETFD), FD_CLOEXEC);
	fails("read of an empty O_NONBLOCK pipe is EAGAIN", SYS(SYS_read, q[0], buf, 1), EAGAIN);
	ok("fcntl F_GETFL", SYS(SYS_fcntl, q[0], F_GETFL));
	cond("F_GETFL: O_RDONLY|O_NONBLOCK",
	     (r & (O_ACCMODE | O_NONBLOCK)) == (O_RDONLY | O_NONBLOCK), "O_RDONLY|O_NONBLOCK");
	ok_eq("fcntl F_SETFL clears O_NONBLOCK", SYS(SYS_fcntl, q[0], F_SETFL, 0), 0);
	ok_eq("F_GETFL after F_SETFL", SYS(SYS_fcntl, q[0], F_GETFL) & O_NONBLOCK, 0);
	ok_eq("fcntl F_GETFL of a write end", SYS(SYS_fcntl, q[1], F_GETFL) & O_ACCMODE, O_WRONLY);

	ok_eq("write to a pipe", SYS(SYS_write, p[1], "hello", 5), 5);
	ok_eq("write count 0 to a pipe", SYS(SYS_write, p[1], "", 0), 0);
	fails("write from a bad pointer is EFAULT", SYS(SYS_write, p[1], BAD, 5), EFAULT);
	fails("read of a write end is EBADF", SYS(SYS_read, p[1], buf, 1), EBADF);
	fails("write to a read end is EBADF", SYS(SYS_write, p[0], "x", 1), EBADF);
	ok_eq("read from a pipe", SYS(SYS_read, p[0], buf, sizeof(buf)), 5);
	cond("the pipe gives the bytes", memcmp(buf, "hello", 5) == 0, "hello");
	ok("fstat of a pipe", SYS(SYS_fstat, p[0], &st));
	cond("fstat of a pipe: S_IFIFO", S_ISFIFO(st.st_mode), "S_IFIFO");
	fails("lseek of a pipe is ESPIPE", SYS(SYS_lseek, p[0], 0, SEEK_SET), ESPIPE);
	fails("pread64 of a pipe is ESPIPE", SYS(SYS_pread64, p[0], buf, 1, 0), ESPIPE);

	ok_eq("writev of two buffers", SYS(SYS_writev, p[1], iov, 2), 6);
	ok_eq("readv into two buffers", SYS(SYS_readv, p[0], in, 2), 6);
	cond("readv splits the bytes", memcmp(a, "abc", 3) == 0 && memcmp(b, "def", 3) == 0,
	     "abc, def");
	fails("writev iovcnt -1 is EINVAL", SYS(SYS_writev, p[1], iov, -1), EINVAL);
	fails("writev iovcnt 1025 is EINVAL", SYS(SYS_writev, p[1], iov, 1025), EINVAL);
	fails("writev of a bad iov pointer is EFAULT", SYS(SYS_writev, p[1], BAD, 1), EFAULT);
	fails("readv closed fd is EBADF", SYS(SYS_readv, bad, in, 1), EBADF);

	fails("ioctl TCGETS of a pipe is ENOTTY", SYS(SYS_ioctl, p[0], TCGETS, buf), ENOTTY);
	fails("ioctl TIOCGWINSZ of a pipe is ENOTTY", SYS(SYS_ioctl, p[0], TIOCGWINSZ, buf),
	      ENOTTY);
	fd = open_exe();
	fails("ioctl TCGETS of a file is ENOTTY", SYS(SYS_ioctl, fd, TCGETS, buf), ENOTTY);
	fails("ioctl closed fd is EBADF", SYS(SYS_ioctl, bad, TCGETS, buf), EBADF);

	fd = (int)SYS(SYS_dup, p[1]);
	ok("dup", fd);
	ok_eq("write through a dup", SYS(SYS_write, fd, "x", 1), 1);
	ok_eq("read what the dup wrote", SYS(SYS_read, p[0], buf, 1), 1);
	ok_eq("dup leaves FD_CLOEXEC off", SYS(SYS_fcntl, fd, F_GETFD), 0);
	fails("dup closed fd is EBADF", SYS(SYS_dup, bad), EBADF);
	ok_eq("dup2 onto itself", SYS(SYS_dup2, fd, fd), fd);
	ok_eq("dup2 onto an open fd replaces it", SYS(SYS_dup2, q[1], fd), fd);
	ok_eq("write through the replaced fd", SYS(SYS_write, fd, "y", 1), 1);
	ok_eq("it reached the other pipe", SYS(SYS_read, q[0], buf, 1), 1);
	fails("dup2 of a closed fd is EBADF", SYS(SYS_dup2, bad, fd), EBADF);
	fails("dup3 onto itself is EINVAL", SYS(SYS_dup3, fd, fd, 0), EINVAL);
	fails("dup3 bad flags is EINVAL", SYS(SYS_dup3, fd, bad, O_NONBLOCK), EINVAL);
	ok_eq("dup3 O_CLOEXEC", SYS(SYS_dup3, fd, bad, O_CLOEXEC), bad);
	ok_eq("dup3 O_CLOEXEC sets FD_CLOEXEC", SYS(SYS_fcntl, bad, F_GETFD), FD_CLOEXEC);
	close(bad);
	ok_eq("fcntl F_SETFD", SYS(SYS_fcntl, fd, F_SETFD, FD_CLOEXEC), 0);
	ok_eq("fcntl F_GETFD after F_SETFD", SYS(SYS_fcntl, fd, F_GETFD), FD_CLOEXEC);
	ok("fcntl F_DUPFD 100", SYS(SYS_fcntl, fd, F_DUPFD, 100));
	cond("F_DUPFD gives the lowest free fd >= 100", r == 100, "100");
	if (r >= 0)
		close((int)r);
	ok_eq("fcntl F_DUPFD_CLOEXEC 100", SYS(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 100), 100);
	ok_eq("F_DUPFD_CLOEXEC sets FD_CLOEXEC", SYS(SYS_fcntl, 100, F_GETFD), FD_CLOEXEC);
	close(100);
	fails("fcntl F_DUPFD -1 is EINVAL", SYS(SYS_fcntl, fd, F_DUPFD, -1), EINVAL);
	fails("fcntl unknown cmd is EINVAL", SYS(SYS_fcntl, fd, 9999), EINVAL);
	fails("fcntl closed fd is EBADF", SYS(SYS_fcntl, bad, F_GETFD), EBADF);
	close(fd);
	close(p[0]);
	close(p[1]);
	close(q[0]);
	close(q[1]);
}

/* EMFILE: with RLIMIT_NOFILE at 32, dup fills fds up to 31 and fails. */
static void fd_limit(void)
{
	struct rlimit old, lim;
	int last = -1, got[40], n = 0;

	ok_eq("prlimit64 get RLIMIT_NOFILE", SYS(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &old), 0);
	if (r)
		return;
	lim.rlim_cur = 32;
	lim.rlim_max = old.rlim_max;
	ok_eq("prlimit64 set RLIMIT_NOFILE 32", SYS(SYS_prlimit64, 0, RLIMIT_NOFILE, &lim, NULL),
	      0);
	if (r)
		return;
	while (n < 40 && SYS(SYS_dup, 0) >= 0)
		last = got[n++] = (int)r;
	fails("dup past RLIMIT_NOFILE is EMFILE", r, EMFILE);
	cond("dup filled every fd below the limit", last == 31, "31");
	fails("dup2 onto the limit is EBADF", SYS(SYS_dup2, 0, 32), EBADF);
	fails("fcntl F_DUPFD at the limit is EINVAL", SYS(SYS_fcntl, 0, F_DUPFD, 32), EINVAL);
	while (n)
		close(got[--n]);
	ok_eq("prlimit64 restores RLIMIT_NOFILE", SYS(SYS_prlimit64, 0, RLIMIT_NOFILE, &old, NULL),
	      0);
}

static int all_bytes(const char *p, size_t len, char byte)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

static void memory(void)
{
	char *p, *q, buf[64];
	int fd = open_exe(), bad = closed_fd(), pfd[2];
	long cur;

	fails("mmap length 0 is EINVAL", SYS(SYS_mmap, 0, 0, RW, ANON, -1, 0), EINVAL);
	fails("mmap without PRIVATE or SHARED is EINVAL",
	      SYS(SYS_mmap, 0, PAGE, RW, MAP_ANONYMOUS, -1, 0), EINVAL);
	fails("mmap an unaligned offset is EINVAL",
	      SYS(SYS_mmap, 0, PAGE, PROT_READ, MAP_PRIVATE, fd, 1), EINVAL);
	fails("mmap MAP_FIXED unaligned is EINVAL",
	      SYS(SYS_mmap, 0x10000001ul, PAGE, RW, ANON | MAP_FIXED, -1, 0), EINVAL);
	fails("mmap a closed fd is EBADF", SYS(SYS_mmap, 0, PAGE, PROT_READ, MAP_PRIVATE, bad, 0),
	      EBADF);
	fails("mmap 2^62 bytes is ENOMEM", SYS(SYS_mmap, 0, 1ul << 62, RW, ANON, -1, 0), ENOMEM);
	fails("mmap MAP_SHARED writable of a read-only fd is EACCES",
	      SYS(SYS_mmap, 0, PAGE, RW, MAP_SHARED, fd, 0), EACCES);
	p = (char *)SYS(SYS_mmap, 0, 2 * PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
	ok("mmap MAP_PRIVATE of a file", (long)p);
	if (r != -1) {
		pread(fd, buf, sizeof(buf), PAGE);
		cond("the mapping holds the file's bytes",
		     memcmp(p, "\177ELF", 4) == 0 && memcmp(p + PAGE, buf, sizeof(buf)) == 0,
		     "the bytes pread gives");
		munmap(p, 2 * PAGE);
	}
	close(fd);

	p = (char *)SYS(SYS_mmap, 0, 4 * PAGE, RW, ANON, -1, 0);
	ok("mmap anonymous", (long)p);
	if (r == -1)
		return;
	memset(p, 7, 4 * PAGE);
	fails("MAP_FIXED_NOREPLACE over a mapping is EEXIST",
	      SYS(SYS_mmap, p, PAGE, RW, ANON | MAP_FIXED_NOREPLACE, -1, 0), EEXIST);
	fails("mprotect unaligned is EINVAL", SYS(SYS_mprotect, p + 1, PAGE, PROT_READ), EINVAL);
	fails("mprotect unknown prot bit is EINVAL", SYS(SYS_mprotect, p, PAGE, 0x100), EINVAL);
	ok_eq("mprotect PROT_READ", SYS(SYS_mprotect, p, PAGE, PROT_READ), 0);
	if (pipe(pfd) == 0) {
		write(pfd[1], "x", 1);
		fails("read into a read-only page is EFAULT", SYS(SYS_read, pfd[0], p, 1), EFAULT);
		close(pfd[0]);
		close(pfd[1]);
	}
	ok_eq("mprotect back", SYS(SYS_mprotect, p, PAGE, RW), 0);
	fails("munmap unaligned is EINVAL", SYS(SYS_munmap, p + 1, PAGE), EINVAL);
	fails("munmap length 0 is EINVAL", SYS(SYS_munmap, p, 0), EINVAL);
	fails("munmap of a kernel address is EINVAL", SYS(SYS_munmap, KADDR, PAGE), EINVAL);
	fails("madvise unaligned is EINVAL", SYS(SYS_madvise, p + 1, PAGE, MADV_DONTNEED), EINVAL);
	fails("madvise unknown advice is EINVAL", SYS(SYS_madvise, p, PAGE, 1000), EINVAL);
	ok_eq("madvise length 0", SYS(SYS_madvise, p, 0, MADV_DONTNEED), 0);
	ok_eq("madvise MADV_WILLNEED", SYS(SYS_madvise, p, PAGE, MADV_WILLNEED), 0);
	ok_eq("madvise MADV_DONTNEED", SYS(SYS_madvise, p + 3 * PAGE, PAGE, MADV_DONTNEED), 0);
	cond("MADV_DONTNEED reads zeros", all_bytes(p + 3 * PAGE, PAGE, 0), "zeros");

	/* mremap: shrink in place, then grow by moving; the bytes follow. */
	fails("mremap unaligned is EINVAL", SYS(SYS_mremap, p + 1, PAGE, PAGE, 0), EINVAL);
	fails("mremap new length 0 is EINVAL", SYS(SYS_mremap, p, PAGE, 0, 0), EINVAL);
	fails("mremap unknown flag is EINVAL", SYS(SYS_mremap, p, PAGE, PAGE, 0x100), EINVAL);
	fails("mremap MREMAP_FIXED without MAYMOVE is EINVAL",
	      SYS(SYS_mremap, p, PAGE, PAGE, MREMAP_FIXED, p + 8 * PAGE), EINVAL);
	ok_eq("mremap shrink stays", SYS(SYS_mremap, p, 4 * PAGE, 2 * PAGE, 0), (long)p);
	fails("mremap of the unmapped tail is EFAULT", SYS(SYS_mremap, p + 2 * PAGE, PAGE, PAGE, 0),
	      EFAULT);
	q = (char *)SYS(SYS_mremap, p, 2 * PAGE, 64 * PAGE, MREMAP_MAYMOVE);
	ok("mremap grow MREMAP_MAYMOVE", (long)q);
	if (r != -1) {
		cond("mremap keeps the bytes, the new part is zero",
		     all_bytes(q, 2 * PAGE, 7) && all_bytes(q + 2 * PAGE, 62 * PAGE, 0),
		     "7s, zeros");
		p = q;
		munmap(q, 64 * PAGE);
	} else {
		munmap(p, 2 * PAGE);
	}
	fails("madvise of an unmapped range is ENOMEM", SYS(SYS_madvise, p, PAGE, MADV_WILLNEED),
	      ENOMEM);
	fails("mprotect of an unmapped range is ENOMEM", SYS(SYS_mprotect, p, PAGE, PROT_READ),
	      ENOMEM);
	ok_eq("munmap of nothing", SYS(SYS_munmap, p, PAGE), 0);

	cur = SYS(SYS_brk, 0);
	ok("brk(0) gives the break", cur);
	ok_eq("brk grows by 4 pages", SYS(SYS_brk, cur + 4 * PAGE), cur + 4 * (long)PAGE);
	if (r == cur + 4 * (long)PAGE) {
		cond("the new break reads zeros", all_bytes((char *)cur, 4 * PAGE, 0), "zeros");
		memset((char *)cur, 1, 4 * PAGE);
	}
	ok_eq("brk shrinks back", SYS(SYS_brk, cur), cur);
	ok_eq("a brk below the data gives the old break", SYS(SYS_brk, 1), cur);
}

/* A field of /proc/self/status in KiB, or -1. */
static long status_kb(const char *field)
{
	char line[256];
	size_t n = strlen(field);
	long v = -1;
	FILE *f = fopen("/proc/self/status", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			v = atol(line + n + 1);
			break;
		}
	fclose(f);
	return v;
}

/* RLIMIT_AS and RLIMIT_DATA (Linux's may_expand_vm), set a little above
 * what the process maps now (VmSize, VmData), then put back. */
static void vm_limits(void)
{
	struct rlimit old_as, old_data, lim;
	long size_kb, data_kb;
	char *q, *brk0;

	getrlimit(RLIMIT_AS, &old_as);
	getrlimit(RLIMIT_DATA, &old_data);
	q = (char *)SYS(SYS_mmap, 0, 8 << 20, RW, ANON, -1, 0);
	size_kb = status_kb("VmSize");
	if (r == -1 || size_kb < 0) {
		skip("RLIMIT_AS and RLIMIT_DATA", "no mapping or no VmSize in /proc/self/status");
		return;
	}
	lim = (struct rlimit){ (size_kb << 10) + (32 << 20), old_as.rlim_max };
	ok_eq("setrlimit RLIMIT_AS to VmSize + 32 MiB", setrlimit(RLIMIT_AS, &lim), 0);
	fails("mmap of 64 MiB past RLIMIT_AS is ENOMEM",
	      SYS(SYS_mmap, 0, 64 << 20, RW, ANON, -1, 0), ENOMEM);
	ok("mmap of 16 MiB under it",
	   SYS(SYS_munmap, SYS(SYS_mmap, 0, 16 << 20, RW, ANON, -1, 0), 16 << 20));
	fails("mremap growing 8 MiB to 64 MiB past RLIMIT_AS is ENOMEM",
	      SYS(SYS_mremap, q, 8 << 20, 64 << 20, MREMAP_MAYMOVE), ENOMEM);
	lim.rlim_cur = (size_kb << 10) + (1 << 20);
	setrlimit(RLIMIT_AS, &lim);
	ok_eq("MAP_FIXED over its own 8 MiB adds nothing to RLIMIT_AS",
	      SYS(SYS_mmap, q, 8 << 20, RW, ANON | MAP_FIXED, -1, 0), (long)q);
	fails("MAP_FIXED of 16 MiB there is ENOMEM",
	      SYS(SYS_mmap, q, 16 << 20, RW, ANON | MAP_FIXED, -1, 0), ENOMEM);
	q[0] = 1;
	cond("the 8 MiB stay mapped", q[0] == 1, "writable");
	setrlimit(RLIMIT_AS, &old_as);
	SYS(SYS_munmap, q, 8 << 20);

	data_kb = status_kb("VmData");
	lim = (struct rlimit){ (data_kb << 10) + (16 << 20), old_data.rlim_max };
	ok_eq("setrlimit RLIMIT_DATA to VmData + 16 MiB", setrlimit(RLIMIT_DATA, &lim), 0);
	fails("a private writable mmap of 32 MiB past RLIMIT_DATA is ENOMEM",
	      SYS(SYS_mmap, 0, 32 << 20, RW, ANON, -1, 0), ENOMEM);
	ok("a read-only mapping is not data",
	   SYS(SYS_munmap, SYS(SYS_mmap, 0, 32 << 20, PROT_READ, ANON, -1, 0), 32 << 20));
	brk0 = (char *)SYS(SYS_brk, 0);
	ok_eq("brk 32 MiB up past RLIMIT_DATA stays where it was", SYS(SYS_brk, brk0 + (32 << 20)),
	      (long)brk0);
	setrlimit(RLIMIT_DATA, &old_data);
}

static void signals(void)
{
	struct ksigaction sa = { 0 }, old;
	uint64_t set = 1ull << (SIGUSR1 - 1), oldset, pend;
	stack_t ss, oss;
	static char altstack[65536];
	long tid = syscall(SYS_gettid);

	fails("rt_sigaction sigsetsize 4 is EINVAL", SYS(SYS_rt_sigaction, SIGUSR1, NULL, &old, 4),
	      EINVAL);
	fails("rt_sigaction signal 0 is EINVAL", SYS(SYS_rt_sigaction, 0, NULL, &old, 8), EINVAL);
	fails("rt_sigaction signal 65 is EINVAL", SYS(SYS_rt_sigaction, 65, NULL, &old, 8), EINVAL);
	sa.handler = SIG_IGN;
	fails("rt_sigaction on SIGKILL is EINVAL", SYS(SYS_rt_sigaction, SIGKILL, &sa, NULL, 8),
	      EINVAL);
	fails("rt_sigaction from a bad pointer is EFAULT",
	      SYS(SYS_rt_sigaction, SIGUSR1, BAD, NULL, 8), EFAULT);
	ok_eq("rt_sigaction query", SYS(SYS_rt_sigaction, SIGUSR1, NULL, &old, 8), 0);
	cond("SIGUSR1 starts SIG_DFL", old.handler == SIG_DFL, "SIG_DFL");
	ok_eq("rt_sigaction SIG_IGN", SYS(SYS_rt_sigaction, SIGUSR1, &sa, NULL, 8), 0);
	SYS(SYS_rt_sigaction, SIGUSR1, NULL, &old, 8);
	cond("rt_sigaction reads back SIG_IGN", r == 0 && old.handler == SIG_IGN, "SIG_IGN");

	fails("rt_sigprocmask how 3 is EINVAL", SYS(SYS_rt_sigprocmask, 3, &set, NULL, 8), EINVAL);
	fails("rt_sigprocmask sigsetsize 4 is EINVAL",
	      SYS(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 4), EINVAL);
	ok_eq("rt_sigprocmask SIG_BLOCK", SYS(SYS_rt_sigprocmask, SIG_BLOCK, &set, NULL, 8), 0);
	SYS(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &oldset, 8);
	cond("the mask has SIGUSR1", r == 0 && (oldset & set), "SIGUSR1 blocked");
	oldset = ~0ull;
	SYS(SYS_rt_sigprocmask, SIG_SETMASK, &oldset, NULL, 8);
	SYS(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &oldset, 8);
	cond("SIGKILL and SIGSTOP cannot be blocked",
	     r == 0 && !(oldset & (1ull << (SIGKILL - 1))) && !(oldset & (1ull << (SIGSTOP - 1))),
	     "both clear");
	SYS(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);
	fails("rt_sigpending sigsetsize 16 is EINVAL", SYS(SYS_rt_sigpending, &pend, 16), EINVAL);
	ok_eq("kill self signal 0", SYS(SYS_kill, getpid(), 0), 0);
	/* Only with SIGUSR1 ignored and blocked: it must neither kill nor run. */
	if ((oldset & set) && old.handler == SIG_IGN) {
		ok_eq("kill self SIGUSR1 (blocked)", SYS(SYS_kill, getpid(), SIGUSR1), 0);
		ok_eq("rt_sigpending", SYS(SYS_rt_sigpending, &pend, 8), 0);
		cond("a blocked signal stays pending, even ignored", r == 0 && (pend & set),
		     "SIGUSR1 pending");
	}
	set = 0;
	ok_eq("rt_sigprocmask SIG_SETMASK empty",
	      SYS(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8), 0);
	sa.handler = SIG_DFL;
	SYS(SYS_rt_sigaction, SIGUSR1, &sa, NULL, 8);
	fails("kill signal 65 is EINVAL", SYS(SYS_kill, getpid(), 65), EINVAL);
	fails("kill of a missing pid is ESRCH", SYS(SYS_kill, 0x3fffffff, 0), ESRCH);
	ok_eq("tgkill self signal 0", SYS(SYS_tgkill, getpid(), tid, 0), 0);
	fails("tgkill wrong tgid is ESRCH", SYS(SYS_tgkill, 0x3fffffff, tid, 0), ESRCH);
	fails("tgkill signal 65 is EINVAL", SYS(SYS_tgkill, getpid(), tid, 65), EINVAL);
	ok_eq("tkill self signal 0", SYS(SYS_tkill, tid, 0), 0);
	fails("tkill tid 0 is EINVAL", SYS(SYS_tkill, 0, 0), EINVAL);

	ok_eq("sigaltstack query", SYS(SYS_sigaltstack, NULL, &oss), 0);
	cond("no alternate stack at start", oss.ss_flags == SS_DISABLE, "SS_DISABLE");
	ss.ss_sp = altstack;
	ss.ss_size = 1024;
	ss.ss_flags = 0;
	fails("sigaltstack smaller than MINSIGSTKSZ is ENOMEM", SYS(SYS_sigaltstack, &ss, NULL),
	      ENOMEM);
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0x1234;
	fails("sigaltstack bad flags is EINVAL", SYS(SYS_sigaltstack, &ss, NULL), EINVAL);
	ss.ss_flags = 0;
	ok_eq("sigaltstack set", SYS(SYS_sigaltstack, &ss, NULL), 0);
	SYS(SYS_sigaltstack, NULL, &oss);
	cond("sigaltstack reads back",
	     r == 0 && oss.ss_sp == altstack && oss.ss_size == sizeof(altstack) &&
		     oss.ss_flags == 0,
	     "the stack set");
	ss.ss_flags = SS_DISABLE;
	ok_eq("sigaltstack SS_DISABLE", SYS(SYS_sigaltstack, &ss, NULL), 0);
}

static long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000l + (b->tv_nsec - a->tv_nsec);
}

static void times(void)
{
	static const int clocks[] = { CLOCK_REALTIME,		CLOCK_MONOTONIC,
				      CLOCK_PROCESS_CPUTIME_ID, CLOCK_THREAD_CPUTIME_ID,
				      CLOCK_MONOTONIC_RAW,	CLOCK_REALTIME_COARSE,
				      CLOCK_MONOTONIC_COARSE,	CLOCK_BOOTTIME };
	struct timespec a, b, t = { 0, 2000000 }, res;
	struct timeval tv;
	char name[64];
	long t0;

	for (unsigned int i = 0; i < sizeof(clocks) / sizeof(clocks[0]); i++) {
		snprintf(name, sizeof(name), "clock_gettime clock %d", clocks[i]);
		ok_eq(name, SYS(SYS_clock_gettime, clocks[i], &a), 0);
		snprintf(name, sizeof(name), "clock_getres clock %d", clocks[i]);
		ok_eq(name, SYS(SYS_clock_getres, clocks[i], &res), 0);
		snprintf(name, sizeof(name), "clock %d resolution in (0, 10 ms]", clocks[i]);
		cond(name, r == 0 && res.tv_sec == 0 && res.tv_nsec > 0 && res.tv_nsec <= 10000000,
		     "0 < res <= 10 ms");
	}
	fails("clock_gettime clock 100 is EINVAL", SYS(SYS_clock_gettime, 100, &a), EINVAL);
	fails("clock_gettime to a bad pointer is EFAULT",
	      SYS(SYS_clock_gettime, CLOCK_MONOTONIC, BAD), EFAULT);
	fails("clock_getres clock 100 is EINVAL", SYS(SYS_clock_getres, 100, &res), EINVAL);
	ok_eq("clock_getres NULL", SYS(SYS_clock_getres, CLOCK_MONOTONIC, NULL), 0);

	SYS(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
	ok_eq("nanosleep 2 ms", SYS(SYS_nanosleep, &t, NULL), 0);
	SYS(SYS_clock_gettime, CLOCK_MONOTONIC, &b);
	cond("nanosleep slept 2 ms or more", ns_between(&a, &b) >= 2000000, ">= 2000000 ns");
	ok_eq("clock_nanosleep 2 ms", SYS(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &t, NULL), 0);
	SYS(SYS_clock_gettime, CLOCK_MONOTONIC, &a);
	cond("clock_nanosleep slept 2 ms or more", ns_between(&b, &a) >= 2000000, ">= 2000000 ns");
	ok_eq("clock_nanosleep TIMER_ABSTIME in the past",
	      SYS(SYS_clock_nanosleep, CLOCK_MONOTONIC, TIMER_ABSTIME, &b, NULL), 0);
	t.tv_nsec = 1000000000;
	fails("nanosleep tv_nsec 1e9 is EINVAL", SYS(SYS_nanosleep, &t, NULL), EINVAL);
	t.tv_nsec = 0;
	t.tv_sec = -1;
	fails("nanosleep negative tv_sec is EINVAL", SYS(SYS_nanosleep, &t, NULL), EINVAL);
	fails("nanosleep from a bad pointer is EFAULT", SYS(SYS_nanosleep, BAD, NULL), EFAULT);
	t.tv_sec = 0;
	fails("clock_nanosleep clock 100 is EINVAL", SYS(SYS_clock_nanosleep, 100, 0, &t, NULL),
	      EINVAL);
	fails("clock_nanosleep of THREAD_CPUTIME is ENOTSUP",
	      SYS(SYS_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0, &t, NULL), ENOTSUP);

	SYS(SYS_clock_gettime, CLOCK_REALTIME, &a);
	ok_eq("gettimeofday", SYS(SYS_gettimeofday, &tv, NULL), 0);
	t0 = SYS(SYS_time, NULL);
	cond("gettimeofday, time and CLOCK_REALTIME agree",
	     tv.tv_usec >= 0 && tv.tv_usec < 1000000 && labs(tv.tv_sec - a.tv_sec) <= 2 &&
		     labs(t0 - a.tv_sec) <= 2,
	     "within 2 s");
	fails("gettimeofday to a bad pointer is EFAULT", SYS(SYS_gettimeofday, BAD, NULL), EFAULT);
	ok("time into a pointer", SYS(SYS_time, &t0));
	cond("time stores what it returns", t0 == r, "equal");
	fails("time to a bad pointer is EFAULT", SYS(SYS_time, BAD), EFAULT);
	ok_eq("sched_yield", SYS(SYS_sched_yield), 0);
}

static void identity(void)
{
	struct utsname u;
	struct rlimit lim;
	struct rusage ru;
	struct sysinfo si;
	unsigned long mask[16] = { 0 };
	char buf[32], buf2[32];
	long pid = syscall(SYS_getpid), old_umask;
	uint64_t fs;

	cond("getpid is positive", pid > 0, "> 0");
	ok_eq("gettid is getpid", SYS(SYS_gettid), pid);
	ok_eq("set_tid_address gives the tid", SYS(SYS_set_tid_address, NULL), pid);
	ok("getppid", SYS(SYS_getppid));
	ok_eq("geteuid is getuid", SYS(SYS_geteuid), syscall(SYS_getuid));
	ok_eq("getegid is getgid", SYS(SYS_getegid), syscall(SYS_getgid));
	cond("getgroups(0, NULL) counts the groups", SYS(SYS_getgroups, 0, NULL) >= 0, ">= 0");
	fails("getgroups with a negative size is EINVAL", SYS(SYS_getgroups, -1, NULL), EINVAL);
	ok_eq("uname", SYS(SYS_uname, &u), 0);
	cond("uname: fields non-empty, machine x86_64",
	     u.sysname[0] && u.nodename[0] && u.release[0] && u.version[0] &&
		     strcmp(u.machine, "x86_64") == 0,
	     "non-empty, x86_64");
	fails("uname to a bad pointer is EFAULT", SYS(SYS_uname, BAD), EFAULT);
	/* prctl: the name round trip (15 bytes kept), THP disable, refusals. */
	ok_eq("prctl PR_SET_NAME", SYS(SYS_prctl, PR_SET_NAME, "sysconform-name-long"), 0);
	ok_eq("prctl PR_GET_NAME", SYS(SYS_prctl, PR_GET_NAME, buf), 0);
	cond("prctl PR_GET_NAME gives 15 bytes of it", strcmp(buf, "sysconform-name") == 0,
	     "sysconform-name");
	fails("prctl PR_SET_NAME from a bad pointer is EFAULT", SYS(SYS_prctl, PR_SET_NAME, BAD),
	      EFAULT);
	ok_eq("prctl PR_GET_THP_DISABLE is 0", SYS(SYS_prctl, PR_GET_THP_DISABLE, 0, 0, 0, 0), 0);
	ok_eq("prctl PR_SET_THP_DISABLE", SYS(SYS_prctl, PR_SET_THP_DISABLE, 1, 0, 0, 0), 0);
	ok_eq("prctl PR_GET_THP_DISABLE is 1", SYS(SYS_prctl, PR_GET_THP_DISABLE, 0, 0, 0, 0), 1);
	ok_eq("prctl PR_SET_THP_DISABLE off", SYS(SYS_prctl, PR_SET_THP_DISABLE, 0, 0, 0, 0), 0);
	fails("prctl PR_GET_THP_DISABLE with an argument is EINVAL",
	      SYS(SYS_prctl, PR_GET_THP_DISABLE, 1, 0, 0, 0), EINVAL);
	fails("prctl of an unknown option is EINVAL", SYS(SYS_prctl, 999, 0, 0, 0, 0), EINVAL);
	ok("umask", SYS(SYS_umask, 022));
	old_umask = r;
	ok_eq("umask gives the old mask", SYS(SYS_umask, old_umask), 022);

	ok_eq("getrlimit RLIMIT_STACK", SYS(SYS_getrlimit, RLIMIT_STACK, &lim), 0);
	cond("RLIMIT_STACK cur <= max", lim.rlim_cur <= lim.rlim_max, "cur <= max");
	fails("getrlimit resource 99 is EINVAL", SYS(SYS_getrlimit, 99, &lim), EINVAL);
	fails("getrlimit to a bad pointer is EFAULT", SYS(SYS_getrlimit, RLIMIT_NOFILE, BAD),
	      EFAULT);
	fails("prlimit64 resource 99 is EINVAL", SYS(SYS_prlimit64, 0, 99, NULL, &lim), EINVAL);
	fails("prlimit64 of a missing pid is ESRCH",
	      SYS(SYS_prlimit64, 0x3fffffff, RLIMIT_NOFILE, NULL, &lim), ESRCH);
	SYS(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, &lim);
	lim.rlim_cur = lim.rlim_max == RLIM_INFINITY ? lim.rlim_max : lim.rlim_max + 1;
	if (lim.rlim_max != RLIM_INFINITY)
		fails("prlimit64 cur above max is EINVAL",
		      SYS(SYS_prlimit64, 0, RLIMIT_NOFILE, &lim, NULL), EINVAL);
	ok_eq("getrusage RUSAGE_SELF", SYS(SYS_getrusage, RUSAGE_SELF, &ru), 0);
	fails("getrusage who 5 is EINVAL", SYS(SYS_getrusage, 5, &ru), EINVAL);
	fails("getrusage to a bad pointer is EFAULT", SYS(SYS_getrusage, RUSAGE_SELF, BAD), EFAULT);
	ok_eq("sysinfo", SYS(SYS_sysinfo, &si), 0);
	cond("sysinfo: totalram > 0, freeram <= totalram, mem_unit >= 1",
	     si.totalram > 0 && si.freeram <= si.totalram && si.mem_unit >= 1, "sane");
	fails("sysinfo to a bad pointer is EFAULT", SYS(SYS_sysinfo, BAD), EFAULT);

	SYS(SYS_sched_getaffinity, 0, sizeof(mask), mask);
	cond("sched_getaffinity gives the mask's bytes, a CPU set",
	     r > 0 && r <= (long)sizeof(mask) && r % 8 == 0 && mask[0] != 0, "8k bytes, a bit set");
	fails("sched_getaffinity into 1 byte is EINVAL", SYS(SYS_sched_getaffinity, 0, 1, mask),
	      EINVAL);
	fails("sched_getaffinity to a bad pointer is EFAULT",
	      SYS(SYS_sched_getaffinity, 0, sizeof(mask), BAD), EFAULT);
	fails("sched_getaffinity of a missing pid is ESRCH",
	      SYS(SYS_sched_getaffinity, 0x3fffffff, sizeof(mask), mask), ESRCH);
	{
		unsigned int cpu = ~0u, node = ~0u;

		ok_eq("getcpu", SYS(SYS_getcpu, &cpu, &node, NULL), 0);
		cond("getcpu gives a CPU the task may run on, on node 0",
		     cpu < 64 * 16 && (mask[cpu / 64] >> (cpu % 64) & 1) && node == 0,
		     "a CPU of the mask, node 0");
		ok_eq("getcpu with both pointers NULL", SYS(SYS_getcpu, NULL, NULL, NULL), 0);
		fails("getcpu to a bad pointer is EFAULT", SYS(SYS_getcpu, BAD, NULL, NULL),
		      EFAULT);
	}

	ok_eq("getrandom 16 bytes", SYS(SYS_getrandom, buf, 16, 0), 16);
	ok_eq("getrandom again", SYS(SYS_getrandom, buf2, 16, 0), 16);
	cond("two getrandom draws differ", memcmp(buf, buf2, 16) != 0, "different bytes");
	fails("getrandom unknown flag is EINVAL", SYS(SYS_getrandom, buf, 16, 0x100), EINVAL);
	fails("getrandom GRND_RANDOM|GRND_INSECURE is EINVAL",
	      SYS(SYS_getrandom, buf, 16, GRND_RANDOM | GRND_INSECURE), EINVAL);
	fails("getrandom to a bad pointer is EFAULT", SYS(SYS_getrandom, BAD, 16, 0), EFAULT);

	fails("set_robust_list wrong length is EINVAL", SYS(SYS_set_robust_list, NULL, 7), EINVAL);
	/* A kernel may lack rseq: ENOSYS tells libc so (glibc then skips it).
	 * The area is valid, so only the flag is wrong: Linux 7.x checks the
	 * area before the flags (EFAULT for NULL), 6.1 the flags first. */
	static struct {
		char bytes[32];
	} __attribute__((aligned(32))) rseq_area;
	SYS(SYS_rseq, &rseq_area, sizeof(rseq_area), 1u << 30, 0);
	cond("rseq unknown flag is EINVAL (ENOSYS if not served)",
	     r == -1 && (e == EINVAL || e == ENOSYS), "-1 errno EINVAL or ENOSYS");

	/* musl and glibc both keep the TCB's own address at %fs:0. */
	__asm__ volatile("mov %%fs:0, %0" : "=r"(fs));
	ok_eq("arch_prctl ARCH_GET_FS", SYS(SYS_arch_prctl, ARCH_GET_FS_, &mask[0]), 0);
	cond("ARCH_GET_FS gives the TCB", mask[0] == fs, "%fs:0");
	fails("arch_prctl ARCH_GET_FS to a bad pointer is EFAULT",
	      SYS(SYS_arch_prctl, ARCH_GET_FS_, BAD), EFAULT);
	fails("arch_prctl ARCH_SET_FS to a kernel address is EPERM",
	      SYS(SYS_arch_prctl, ARCH_SET_FS_, KADDR), EPERM);
	fails("arch_prctl unknown code is EINVAL", SYS(SYS_arch_prctl, 0x9999, 0), EINVAL);
}

/* The known regular file: argv[0] if it names one, else /bin/NAME. */
static const char *find_exe(const char *argv0)
{
	static char path[256];

	if (strchr(argv0, '/'))
		return argv0;
	snprintf(path, sizeof(path), "/bin/%s", argv0);
	return path;
}

int main(int argc, char **argv)
{
	(void)argc;
	setvbuf(stdout, NULL, _IOLBF, 0);
	exe = find_exe(argv[0]);
	files();
	links();
	writes();
	renames_and_attrs();
	dirs();
	pipes_and_dups();
	fd_limit();
	memory();
	vm_limits();
	signals();
	times();
	identity();
	if (nfailed)
		printf("sysconform: %d of %d checks FAILED\n", nfailed, nchecks);
	else
		printf("sysconform: %d checks, all ok\n", nchecks);
	return nfailed != 0;
}
