/*
 * The file system calls in the kernel (in-kernel only: they need rootfs
 * and a user address space). Each case gets a private mm with a user
 * buffer and a task whose fd table console_on_rootfs filled (0-2: the console);
 * it calls do_syscall as a program's syscall instruction would and
 * checks results and Linux's errno values against the real initramfs
 * (/etc/motd, /bin/hello) and a fixture directory /ktest-fs made once
 * per boot (a file, links, a /proc-like computed link, /sys-like special
 * files). After each case free_task must have freed every object.
 */
#include <ktest.h>
#include <mm.h>
#include <mman.h>
#include <resource.h>
#include <shell.h>
#include <slab.h>
#include <syscalls.h>
#include <vm.h>
#include "ktest_task.h"

#define BUF 0x400000ul		  /* four user pages of the test mm */
#define PATH_A BUF		  /* a path argument */
#define PATH_B (BUF + 512)	  /* a second one */
#define DATA (BUF + 1024)	  /* read and stat buffers: 3 KiB */
#define BIG (BUF + 2 * PAGE_SIZE) /* two pages for long names and full pipes */
#define UNMAPPED 0x1000ul	  /* no VMA: below MMAP_MIN_ADDR */
#define FIXTURE "/ktest-fs"
#define FILE_BYTES "hello world\n"

static struct task_struct *task;
static struct mm_struct *mm, *prev_mm;
static struct shell_capture out;
static unsigned long objects_before;
static struct ramfs_inode *motd;

/* --- the fixture: special files as /proc and /sys make them ---------------- */

static char sys_written[32];
static int sys_releases, sys_opens;

static long sysfile_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	static const char text[] = "42\n";
	size_t n = *pos >= 3 ? 0 : MIN(count, 3 - *pos);

	if (copy_to_user(buf, text + *pos, n))
		return -EFAULT;
	*pos += n;
	return (long)n;
}

static long sysfile_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	size_t n = MIN(count, sizeof(sys_written) - 1);

	memset(sys_written, 0, sizeof(sys_written));
	return copy_from_user(sys_written, buf, n) ? -EFAULT : (long)n;
}

static int sysfile_open(struct ramfs_inode *inode, struct file *file)
{
	sys_opens++;
	return inode->i_private ? -EPERM : 0; /* i_private set: refuse */
}

static void sysfile_release(struct ramfs_inode *inode, struct file *file)
{
	sys_releases++;
}

static const struct file_operations sysfile_fops = {
	.open = sysfile_open,
	.read = sysfile_read,
	.write = sysfile_write,
	.release = sysfile_release,
};

static const struct file_operations rofile_fops = {
	.read = sysfile_read,
};

static int exe_get_link(struct ramfs_inode *inode, char *buf, size_t size)
{
	return ksnprintf(buf, size, "/bin/hello");
}

/* /ktest-fs: f (FILE_BYTES), link -> f, etclink -> /etc, sub/, sys (rw
 * special), ro (read-only special), refuse (open fails), exe (computed
 * link to /bin/hello). Made once: ramfs never frees. */
static int make_fixture(void)
{
	struct ramfs_inode *inode;

	if (!ramfs_lookup(&rootfs, FIXTURE, false, &inode))
		return 0;
	if (ramfs_mkdir(&rootfs, FIXTURE, 0755, NULL) ||
	    ramfs_create(&rootfs, FIXTURE "/f", 0644, FILE_BYTES, 12, NULL) ||
	    ramfs_symlink(&rootfs, FIXTURE "/link", "f", 1, NULL) ||
	    ramfs_symlink(&rootfs, FIXTURE "/etclink", "/etc", 4, NULL) ||
	    ramfs_mkdir(&rootfs, FIXTURE "/sub", 0755, NULL))
		return -1;
	if (ramfs_create(&rootfs, FIXTURE "/sys", 0644, NULL, 0, &inode))
		return -1;
	inode->i_fop = &sysfile_fops;
	if (ramfs_create(&rootfs, FIXTURE "/ro", 0444, NULL, 0, &inode))
		return -1;
	inode->i_fop = &rofile_fops;
	if (ramfs_create(&rootfs, FIXTURE "/refuse", 0644, NULL, 0, &inode))
		return -1;
	inode->i_fop = &sysfile_fops;
	inode->i_private = inode;
	if (ramfs_symlink(&rootfs, FIXTURE "/exe", "?", 1, &inode))
		return -1;
	inode->get_link = exe_get_link;
	if (ramfs_mknod(&rootfs, FIXTURE "/null", S_IFCHR | 0666, MKDEV(1, 3), NULL) ||
	    ramfs_mknod(&rootfs, FIXTURE "/nodev", S_IFCHR | 0666, MKDEV(42, 0), NULL))
		return -1;
	return 0;
}

static unsigned long kmalloc_objects(void)
{
	struct kmalloc_stats st;

	kmalloc_stats(0, &st);
	return st.objects;
}

static int fs_syscall_test_init(struct kunit *test)
{
	if (ramfs_lookup(&rootfs, "/etc/motd", true, &motd) ||
	    ramfs_lookup(&rootfs, "/bin/hello", true, &(struct ramfs_inode *){ NULL })) {
		kunit_mark_skipped(test, "no /etc/motd or /bin/hello in the initramfs");
		return 0;
	}
	if (make_fixture())
		return -1;
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(vm_mmap(mm, BUF, 4 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	objects_before = kmalloc_objects();
	task = ktest_task_create(mm);
	if (!task)
		return -1;
	return console_on_rootfs(task);
}

static void fs_syscall_test_exit(struct kunit *test)
{
	if (!mm)
		return;
	free_task(task);
	/* Every file, pipe, line buffer and name went back. */
	KUNIT_EXPECT_EQ(test, kmalloc_objects(), objects_before);
	switch_mm(prev_mm);
	mm_destroy(mm);
	mm = NULL;
}

static long sys(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2)
{
	const unsigned long args[6] = { a0, a1, a2, 0, 0, 0 };

	return do_syscall(task, nr, args);
}

static long sys4(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		 unsigned long a3)
{
	const unsigned long args[6] = { a0, a1, a2, a3, 0, 0 };

	return do_syscall(task, nr, args);
}

/* A call that meets a bad user pointer: the fault report is captured. */
static long sys4_captured(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
			  unsigned long a3)
{
	long ret;

	shell_capture_start(&out);
	ret = sys4(nr, a0, a1, a2, a3);
	shell_capture_stop();
	return ret;
}

static void put_str(unsigned long addr, const char *s)
{
	BUG_ON(copy_to_user(addr, s, strlen(s) + 1));
}

/* openat(dfd, path, flags) with path placed at PATH_A. */
static long openat_path(long dfd, const char *path, unsigned long flags)
{
	put_str(PATH_A, path);
	return sys4(__NR_openat, (unsigned long)dfd, PATH_A, flags, 0);
}

static long open_path(const char *path, unsigned long flags)
{
	return openat_path(AT_FDCWD, path, flags);
}

/* The user's bytes at addr, NUL-terminated, in a static buffer. */
static const char *user_str(unsigned long addr, size_t len)
{
	static char buf[512];

	memset(buf, 0, sizeof(buf));
	BUG_ON(len >= sizeof(buf) || copy_from_user(buf, addr, len));
	return buf;
}

/* --- open, read, close --------------------------------------------------- */

static void open_read_close_round_trip_and_fds_are_reused_lowest_first(struct kunit *test)
{
	long fd = open_path("/etc/motd", O_RDONLY);
	static char bytes[500];
	size_t n = MIN(motd->size, sizeof(bytes));

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 4096), (long)motd->size);
	KUNIT_EXPECT_EQ(test, ramfs_read(motd, 0, bytes, n), (long)n);
	KUNIT_EXPECT_EQ(test, memcmp(user_str(DATA, n), bytes, n), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 4096), 0); /* end of file */
	KUNIT_EXPECT_EQ(test, open_path("etc/motd", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fd, 0, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, 4096, 0, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, open_path("/etc/../etc/./motd", O_RDONLY), 3);
	put_str(PATH_A, "/etc/motd");
	KUNIT_EXPECT_EQ(test, sys(__NR_open, PATH_A, O_RDONLY, 0), 5);
	/* Through a symlink, and a directory. */
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/link", O_RDONLY), 6);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 6, DATA, 100), 12);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 12), FILE_BYTES);
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY | O_DIRECTORY), 7);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 7, DATA, 100), -EISDIR);
}

static void open_refuses_what_linux_refuses(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, open_path("/nope", O_RDONLY), -ENOENT);
	KUNIT_EXPECT_EQ(test, open_path("", O_RDONLY), -ENOENT);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd/x", O_RDONLY), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd/", O_RDONLY), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, open_path("/nodir/new", O_WRONLY | O_CREAT), -ENOENT);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/new/", O_WRONLY | O_CREAT), -EISDIR);
	KUNIT_EXPECT_EQ(test, open_path("/proc/new", O_WRONLY | O_CREAT), -EACCES);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_CREAT | O_EXCL), -EEXIST);
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY | O_CREAT), -EISDIR);
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_CREAT | O_DIRECTORY), -EINVAL);
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_WRONLY), -EISDIR);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_DIRECTORY), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/link", O_NOFOLLOW), -ELOOP);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/ro", O_WRONLY), -EACCES);
	/* An existing file is opened, not made again, with O_CREAT. */
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_RDONLY | O_CREAT), 3);
	/* No fd was used by the failures. */
	KUNIT_EXPECT_EQ(test, sys(__NR_close, 4, 0, 0), -EBADF);
}

static void open_bad_names_are_efault_and_enametoolong(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_openat, AT_FDCWD, UNMAPPED, O_RDONLY, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_open, (unsigned long)task, O_RDONLY, 0, 0),
			-EFAULT);
	/* A name running into an unmapped page. */
	KUNIT_ASSERT_EQ(test, fill_user(BUF + 4 * PAGE_SIZE - 8, 'a', 8), 0);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_open, BUF + 4 * PAGE_SIZE - 8, 0, 0, 0), -EFAULT);
	/* PATH_MAX bytes without a NUL. */
	KUNIT_ASSERT_EQ(test, fill_user(BIG, 'a', PATH_MAX), 0);
	KUNIT_ASSERT_EQ(test, fill_user(BIG + PATH_MAX, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_open, BIG, O_RDONLY, 0), -ENAMETOOLONG);
	/* 4095 bytes fit: "/./././..." ends at "/" itself. */
	for (unsigned long i = 0; i < PATH_MAX - 1; i++)
		KUNIT_ASSERT_EQ(test, fill_user(BIG + i, i % 2 ? '.' : '/', 1), 0);
	KUNIT_ASSERT_EQ(test, fill_user(BIG + PATH_MAX - 1, 0, 1), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_open, BIG, O_RDONLY | O_DIRECTORY, 0), 3);
}

static void open_runs_out_of_fds_with_emfile(struct kunit *test)
{
	long fd;

	for (fd = 3; fd < NR_OPEN_DEFAULT; fd++)
		KUNIT_ASSERT_EQ(test, open_path("/etc/motd", O_RDONLY), fd);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_RDONLY), -EMFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, 0, 0, 0), -EMFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_pipe, DATA, 0, 0), -EMFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, 100, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, 0, 0, 0), 100);
}

static void rlimit_nofile_bounds_new_fds(struct kunit *test)
{
	const uint64_t lim[2] = { 8, NR_OPEN_DEFAULT };
	const unsigned long args[6] = { 0, RLIMIT_NOFILE, DATA, 0 };

	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, lim, sizeof(lim)), 0);
	KUNIT_ASSERT_EQ(test, do_syscall(task, __NR_prlimit64, args), 0);
	for (long fd = 3; fd < 8; fd++)
		KUNIT_ASSERT_EQ(test, sys(__NR_dup, 0, 0, 0), fd);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, 0, 0, 0), -EMFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, 0, 8, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup3, 0, 8, O_CLOEXEC), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 0, F_DUPFD, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, 0, 7, 0), 7);
}

static void o_path_names_a_file_without_io(struct kunit *test)
{
	long fd = open_path(FIXTURE "/link", O_PATH | O_NOFOLLOW);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 10), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 0, SEEK_SET), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, fd, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, *(const uint32_t *)user_str(DATA + 24, 4), S_IFLNK | 0777);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_GETFL, 0), O_PATH | O_NOFOLLOW | O_LARGEFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_GETLK, DATA), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, fd, 0, 0), 4);
	/* readlinkat on it with "" reads the link itself. */
	put_str(PATH_A, "");
	KUNIT_EXPECT_EQ(test, sys4(__NR_readlinkat, fd, PATH_A, DATA, 100), 1);
}

/* --- paths relative to a dirfd or the cwd ------------------------------- */

static void openat_walks_from_the_dirfd_and_chdir_moves_the_cwd(struct kunit *test)
{
	long etc = open_path("/etc", O_RDONLY | O_DIRECTORY), fd;

	KUNIT_ASSERT_EQ(test, etc, 3);
	KUNIT_EXPECT_EQ(test, openat_path(etc, "motd", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, openat_path(etc, "../bin/hello", O_RDONLY), 5);
	KUNIT_EXPECT_EQ(test, openat_path(4, "x", O_RDONLY), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, openat_path(99, "motd", O_RDONLY), -EBADF);
	KUNIT_EXPECT_EQ(test, openat_path(99, "/etc/motd", O_RDONLY), 6); /* dfd unused */
	KUNIT_EXPECT_EQ(test, open_path("motd", O_RDONLY), -ENOENT);
	put_str(PATH_A, "/etc");
	KUNIT_EXPECT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), 0);
	fd = open_path("motd", O_RDONLY);
	KUNIT_EXPECT_EQ(test, fd, 7);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 4096), (long)motd->size);
	put_str(PATH_A, "../" FIXTURE "/etclink");
	KUNIT_EXPECT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, 100, 0), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "/etc");
	put_str(PATH_A, "motd");
	KUNIT_EXPECT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), -ENOTDIR);
	put_str(PATH_A, "nope");
	KUNIT_EXPECT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_chdir, UNMAPPED, 0, 0, 0), -EFAULT);
}

static void getcwd_returns_the_length_with_its_nul_or_erange(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, 100, 0), 2);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 2), "/");
	put_str(PATH_A, FIXTURE "/sub/");
	KUNIT_ASSERT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, 100, 0), sizeof(FIXTURE "/sub"));
	KUNIT_EXPECT_STREQ(test, user_str(DATA, sizeof(FIXTURE "/sub")), FIXTURE "/sub");
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, sizeof(FIXTURE "/sub"), 0),
			sizeof(FIXTURE "/sub"));
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, sizeof(FIXTURE "/sub") - 1, 0), -ERANGE);
	KUNIT_EXPECT_EQ(test, sys(__NR_getcwd, DATA, 0, 0), -ERANGE);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_getcwd, UNMAPPED, 100, 0, 0), -EFAULT);
	/* chdir(".."), then relative again. */
	put_str(PATH_A, "..");
	KUNIT_ASSERT_EQ(test, sys(__NR_chdir, PATH_A, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, open_path("f", O_RDONLY), 3);
}

/* --- read, write, seek -------------------------------------------------- */

static void lseek_and_pread_follow_linux_rules(struct kunit *test)
{
	long fd = open_path(FIXTURE "/f", O_RDONLY);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 6, SEEK_SET), 6);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 5), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "world");
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, -2, SEEK_CUR), 9);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, -1, SEEK_END), 11);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 100, SEEK_END), 112); /* past the end: ok */
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 5), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, -13, SEEK_END), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 0, 5), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 3, SEEK_DATA), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 3, SEEK_HOLE), 12);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 12, SEEK_DATA), -ENXIO);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, 1, 0, SEEK_SET), -ESPIPE);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, 99, 0, SEEK_SET), -EBADF);
	/* pread leaves f_pos where it was. */
	KUNIT_ASSERT_EQ(test, sys(__NR_lseek, fd, 0, SEEK_SET), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, fd, DATA, 5, 6), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "world");
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 5), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "hello");
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, fd, DATA, 5, -1ul), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, 0, DATA, 5, 0), -ESPIPE);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pwrite64, fd, DATA, 5, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pwrite64, 1, DATA, 5, 0), -ESPIPE);
	/* Directories seek by entry. */
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, 4, 1, SEEK_SET), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, 4, 0, SEEK_END), -EINVAL);
}

static void read_and_write_check_the_fd_mode_and_the_buffer(struct kunit *test)
{
	long fd = open_path(FIXTURE "/f", O_RDONLY);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fd, DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 99, DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, -1ul, DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_read, fd, UNMAPPED, 4, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_read, fd, (unsigned long)task, 4, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 0), 0);
	/* A read running into an unmapped page ends short. */
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_read, fd, BUF + 4 * PAGE_SIZE - 5, 12, 0), 5);
	KUNIT_EXPECT_STREQ(test, user_str(BUF + 4 * PAGE_SIZE - 5, 5), "hello");
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 100), 7); /* f_pos moved by 5 */
	/* The console writes, and is read-write. */
	put_str(DATA, "ok\n");
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, 2, DATA, 3), 3);
	shell_capture_stop();
	KUNIT_EXPECT_STREQ(test, out.text, "ok\n");
}

static void readv_and_writev_go_vector_by_vector(struct kunit *test)
{
	const uint64_t iov[4] = { DATA + 256, 5, DATA + 512, 100 };
	const uint64_t bad[2] = { DATA, (uint64_t)-1 };
	long fd = open_path(FIXTURE "/f", O_RDONLY);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, iov, sizeof(iov)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_readv, fd, DATA, 2), 12);
	KUNIT_EXPECT_STREQ(test, user_str(DATA + 256, 5), "hello");
	KUNIT_EXPECT_STREQ(test, user_str(DATA + 512, 7), " world\n");
	KUNIT_EXPECT_EQ(test, sys(__NR_readv, fd, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_readv, fd, DATA, 1025), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_writev, fd, DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_readv, fd, UNMAPPED, 1, 0), -EFAULT);
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, bad, sizeof(bad)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_readv, fd, DATA, 1), -EINVAL);
	/* writev to the console, the vector kept off the stack past 8. */
	put_str(DATA + 256, "ab");
	for (int i = 0; i < 10; i++) {
		const uint64_t one[2] = { DATA + 256 + (i % 2), 1 };

		KUNIT_ASSERT_EQ(test, copy_to_user(DATA + 16 * i, one, sizeof(one)), 0);
	}
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, sys(__NR_writev, 1, DATA, 10), 10);
	shell_capture_stop();
	KUNIT_EXPECT_STREQ(test, out.text, "ababababab");
}

/* --- dup, fcntl, flock ---------------------------------------------------- */

static void dup_shares_the_offset_and_dup3_takes_cloexec(struct kunit *test)
{
	long fd = open_path(FIXTURE "/f", O_RDONLY);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, fd, 0, 0), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 6), 6);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 4, DATA, 5), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "world");
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, 99, 0, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, fd, 10, 0), 10);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, 10, 0, SEEK_CUR), 11);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, fd, fd, 0), fd);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, 99, 99, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, fd, NR_OPEN_DEFAULT, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup3, fd, fd, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup3, fd, 11, O_NONBLOCK), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_dup3, fd, 11, O_CLOEXEC), 11);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 11, F_GETFD, 0), FD_CLOEXEC);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 10, F_GETFD, 0), 0);
	/* dup2 onto the console's fd 1 closes that reference only. */
	KUNIT_EXPECT_EQ(test, sys(__NR_dup2, fd, 1, 0), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 1, DATA, 10), 1); /* the shared offset: "\n" */
	KUNIT_EXPECT_EQ(test, task->files->fd[0]->f_count, 2);
}

static void fcntl_dups_flags_and_locks_as_linux(struct kunit *test)
{
	const int16_t wrlck[16] = { F_WRLCK, SEEK_SET };
	const int16_t rdlck[16] = { F_RDLCK, SEEK_SET };
	long fd = open_path(FIXTURE "/f", O_RDONLY);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_DUPFD, 10), 10);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_DUPFD, 10), 11);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_DUPFD, 0), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_DUPFD, NR_OPEN_DEFAULT), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_DUPFD_CLOEXEC, 20), 20);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 20, F_GETFD, 0), FD_CLOEXEC);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 20, F_SETFD, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 20, F_GETFD, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_GETFL, 0), O_RDONLY | O_LARGEFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 0, F_GETFL, 0), O_RDWR | O_LARGEFILE);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_SETFL, O_APPEND | O_NONBLOCK | O_WRONLY), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 10, F_GETFL, 0),
			O_RDONLY | O_LARGEFILE | O_APPEND | O_NONBLOCK);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, 999, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 99, F_GETFD, 0), -EBADF);
	/* Locks: nobody else holds one; a write lock needs a writable fd. */
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, wrlck, sizeof(wrlck)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_GETLK, DATA), 0);
	KUNIT_EXPECT_EQ(test, *(const int16_t *)user_str(DATA, 2), F_UNLCK);
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, wrlck, sizeof(wrlck)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_SETLK, DATA), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 1, F_SETLKW, DATA), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, rdlck, sizeof(rdlck)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_SETLK, DATA), 0);
	KUNIT_ASSERT_EQ(test, fill_user(DATA, 7, 2), 0); /* l_type 0x707 */
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fd, F_SETLK, DATA), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_fcntl, fd, F_GETLK, UNMAPPED, 0), -EFAULT);
	/* flock checks its command, then always has the lock. */
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, fd, LOCK_SH, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, fd, LOCK_EX | LOCK_NB, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, fd, LOCK_UN, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, fd, 3, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, fd, LOCK_NB, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_flock, 99, LOCK_SH, 0), -EBADF);
}

/* --- pipes ----------------------------------------------------------------- */

static void pipe_round_trip_then_eof_after_the_writer_closes(struct kunit *test)
{
	int fds[2];

	KUNIT_ASSERT_EQ(test, sys(__NR_pipe, PATH_B, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(fds, PATH_B, sizeof(fds)), 0);
	KUNIT_EXPECT_EQ(test, fds[0], 3);
	KUNIT_EXPECT_EQ(test, fds[1], 4);
	put_str(DATA, "abc");
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], DATA, 3), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, fds[0], FIONREAD, DATA + 64), 0);
	KUNIT_EXPECT_EQ(test, *(const int *)user_str(DATA + 64, 4), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA + 128, 2), 2);
	KUNIT_EXPECT_STREQ(test, user_str(DATA + 128, 2), "ab");
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[1], DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[0], DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fds[0], 0, SEEK_SET), -ESPIPE);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA + 128, 10), 1);
	/* Empty with a writer: a non-blocking read is -EAGAIN (a blocking
	 * one sleeps: /bin/proctest checks that across processes). */
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[0], F_SETFL, O_NONBLOCK), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA + 128, 10), -EAGAIN);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], DATA, 3), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fds[1], 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA + 128, 10), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA + 128, 10), 0);
	/* fstat: a fifo. */
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, fds[0], DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, *(const uint32_t *)user_str(DATA + 24, 4), S_IFIFO | 0600);
}

static void pipe_without_reader_is_epipe_and_a_full_one_writes_short(struct kunit *test)
{
	int fds[2];
	char byte;

	/* O_NONBLOCK: a full pipe takes what fits of a write over PIPE_BUF,
	 * then nothing (-EAGAIN) instead of sleeping. F_SETPIPE_SZ makes it
	 * one page (Linux: round_pipe_size), from its default 16. */
	KUNIT_ASSERT_EQ(test, sys(__NR_pipe2, PATH_B, O_NONBLOCK, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(fds, PATH_B, sizeof(fds)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[0], F_GETPIPE_SZ, 0), 16 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[1], F_SETPIPE_SZ, 100), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 0, F_GETPIPE_SZ, 0), -EBADF);
	for (unsigned long i = 0; i < 2 * PAGE_SIZE; i++)
		KUNIT_ASSERT_EQ(test, fill_user(BIG + i, (int)(i % 251), 1), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], BIG, PAGE_SIZE + 100), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], BIG, 1), -EAGAIN);
	/* Read 100, write 100 more: the ring wraps and keeps the order. */
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], DATA, 100), 100);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], BIG + PAGE_SIZE, 100), 100);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fds[0], BIG, 2 * PAGE_SIZE), PAGE_SIZE);
	for (unsigned long i = 0; i < PAGE_SIZE; i++) {
		KUNIT_ASSERT_EQ(test, copy_from_user(&byte, BIG + i, 1), 0);
		KUNIT_ASSERT_EQ(test, (unsigned char)byte, (i + 100) % 251);
	}
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fds[0], 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], DATA, 1), -EPIPE);
}

static void pipe2_flags_and_a_bad_fildes_leave_no_fd(struct kunit *test)
{
	int fds[2];

	KUNIT_EXPECT_EQ(test, sys(__NR_pipe2, PATH_B, O_DIRECT, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_pipe, UNMAPPED, 0, 0, 0), -EFAULT);
	KUNIT_ASSERT_EQ(test, sys(__NR_pipe2, PATH_B, O_CLOEXEC | O_NONBLOCK, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(fds, PATH_B, sizeof(fds)), 0);
	KUNIT_EXPECT_EQ(test, fds[0], 3); /* the failed pipe kept none */
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[1], F_GETFD, 0), FD_CLOEXEC);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[0], F_GETFL, 0), O_RDONLY | O_NONBLOCK);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, fds[1], F_GETFL, 0), O_WRONLY | O_NONBLOCK);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, fds[0], TCGETS, DATA), -ENOTTY);
}

/* n pipes in a second task's table, then its end. */
static void pipes_then_exit(struct kunit *test, int n, unsigned long *during)
{
	const unsigned long args[6] = { PATH_B, 0 };
	struct task_struct *other = copy_process(&(struct kernel_clone_args){ 0 });

	KUNIT_ASSERT_NOT_NULL(test, other);
	for (int i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, do_syscall(other, __NR_pipe, args), 0);
	*during = node_free_pages(NODE_DATA(0));
	free_task(other);
}

static void exit_files_frees_pipes_and_their_pages(struct kunit *test)
{
	unsigned long before, during;

	pipes_then_exit(test, 1, &during); /* the slab caches warmed */
	before = node_free_pages(NODE_DATA(0));
	pipes_then_exit(test, 4, &during);
	KUNIT_EXPECT_LE(test, during, before); /* pages come at the first write */
	KUNIT_EXPECT_EQ(test, node_free_pages(NODE_DATA(0)), before);
}

/* --- stat ------------------------------------------------------------------ */

/* struct stat's fields by offset (x86-64 layout). */
static uint64_t stat_u64(unsigned long off)
{
	uint64_t v;

	BUG_ON(copy_from_user(&v, DATA + off, sizeof(v)));
	return v;
}

static uint32_t stat_mode(void)
{
	return (uint32_t)stat_u64(24);
}

static void stat_lstat_fstat_fill_linux_struct_stat(struct kunit *test)
{
	put_str(PATH_A, FIXTURE "/link");
	KUNIT_EXPECT_EQ(test, sys(__NR_stat, PATH_A, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFREG | 0644);
	KUNIT_EXPECT_EQ(test, stat_u64(48), 12);   /* st_size */
	KUNIT_EXPECT_EQ(test, stat_u64(56), 4096); /* st_blksize */
	KUNIT_EXPECT_EQ(test, stat_u64(64), 8);	   /* st_blocks: its page, as tmpfs */
	KUNIT_EXPECT_EQ(test, stat_u64(16), 1);	   /* st_nlink */
	KUNIT_EXPECT_NE(test, stat_u64(8), 0);	   /* st_ino */
	KUNIT_EXPECT_EQ(test, sys(__NR_lstat, PATH_A, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFLNK | 0777);
	KUNIT_EXPECT_EQ(test, stat_u64(48), 1);
	/* The console: a character device, /dev/tty1's numbers. */
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, 0, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFCHR | 0620);
	KUNIT_EXPECT_EQ(test, stat_u64(40), 0x401); /* st_rdev */
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, 99, DATA, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_fstat, 0, UNMAPPED, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_stat, UNMAPPED, DATA, 0, 0), -EFAULT);
	put_str(PATH_A, "/nope");
	KUNIT_EXPECT_EQ(test, sys(__NR_stat, PATH_A, DATA, 0), -ENOENT);
	/* The root: a directory with "." and ".." counted. */
	put_str(PATH_A, "/");
	KUNIT_EXPECT_EQ(test, sys(__NR_stat, PATH_A, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode() & S_IFMT, S_IFDIR);
	KUNIT_EXPECT_EQ(test, stat_u64(8), 1);
}

static void newfstatat_takes_a_dirfd_empty_path_and_nofollow(struct kunit *test)
{
	long dfd = open_path(FIXTURE, O_RDONLY | O_DIRECTORY);

	KUNIT_ASSERT_EQ(test, dfd, 3);
	put_str(PATH_A, "link");
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, dfd, PATH_A, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFREG | 0644);
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, dfd, PATH_A, DATA, AT_SYMLINK_NOFOLLOW), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFLNK | 0777);
	put_str(PATH_A, "");
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, dfd, PATH_A, DATA, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, dfd, PATH_A, DATA, AT_EMPTY_PATH), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFDIR | 0755);
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, AT_FDCWD, PATH_A, DATA, AT_EMPTY_PATH), 0);
	KUNIT_EXPECT_EQ(test, stat_u64(8), 1); /* the cwd: the root */
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, 1, PATH_A, DATA, AT_EMPTY_PATH), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFCHR | 0620);
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, 99, PATH_A, DATA, AT_EMPTY_PATH), -EBADF);
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, dfd, PATH_A, DATA, 0x1), -EINVAL);
	put_str(PATH_A, "f");
	KUNIT_EXPECT_EQ(test, sys4(__NR_newfstatat, 1, PATH_A, DATA, 0), -ENOTDIR);
}

static void statx_reports_the_basic_stats(struct kunit *test)
{
	uint64_t ino;
	uint32_t mask;
	uint16_t mode;
	const unsigned long args[6] = { AT_FDCWD, PATH_A, 0, 0xfff, DATA };
	const unsigned long bad[6] = { AT_FDCWD, PATH_A, 0, 0x80000000u, DATA };
	const unsigned long sync[6] = { AT_FDCWD, PATH_A, AT_STATX_SYNC_TYPE, 0xfff, DATA };

	put_str(PATH_A, "/etc/motd");
	KUNIT_ASSERT_EQ(test, sys(__NR_stat, PATH_A, DATA + 512, 0), 0);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_statx, args), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&mask, DATA, 4), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&mode, DATA + 0x1c, 2), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&ino, DATA + 0x20, 8), 0);
	KUNIT_EXPECT_EQ(test, mask, 0x7ff);
	KUNIT_EXPECT_EQ(test, mode, motd->mode);
	KUNIT_EXPECT_EQ(test, ino, motd->ino);
	KUNIT_ASSERT_EQ(test, copy_from_user(&ino, DATA + 0x28, 8), 0);
	KUNIT_EXPECT_EQ(test, ino, motd->size);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_statx, bad), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_statx, sync), -EINVAL);
}

/* --- getdents64 ------------------------------------------------------------- */

/* Walk the records at DATA: "name:type " for each, into names. */
static void list_dirents(long n, char *names, size_t size)
{
	char rec[300];
	long off = 0;

	names[0] = '\0';
	while (off < n) {
		uint16_t reclen;

		BUG_ON(copy_from_user(rec, DATA + off, 19));
		memcpy(&reclen, rec + 16, 2);
		BUG_ON(reclen > sizeof(rec) || reclen % 8 ||
		       copy_from_user(rec, DATA + off, reclen));
		ksnprintf(names + strlen(names), size - strlen(names), "%s:%d ", rec + 19, rec[18]);
		off += reclen;
	}
}

static void getdents64_lists_dot_dotdot_and_names_with_types(struct kunit *test)
{
	char names[256];
	long fd = open_path(FIXTURE, O_RDONLY | O_DIRECTORY), n;

	KUNIT_ASSERT_EQ(test, fd, 3);
	n = sys(__NR_getdents64, fd, DATA, 3072);
	KUNIT_ASSERT_GT(test, n, 0);
	list_dirents(n, names, sizeof(names));
	KUNIT_EXPECT_STREQ(
		test, names,
		".:4 ..:4 etclink:10 exe:10 f:8 link:10 nodev:2 null:2 refuse:8 ro:8 sub:4 sys:8 ");
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, fd, DATA, 3072), 0);
	/* Back to the start, a buffer with room for two records at a time. */
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 0, SEEK_SET), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, fd, DATA, 48), 48);
	list_dirents(48, names, sizeof(names));
	KUNIT_EXPECT_STREQ(test, names, ".:4 ..:4 ");
	n = sys(__NR_getdents64, fd, DATA, 40);
	list_dirents(n, names, sizeof(names));
	KUNIT_EXPECT_STREQ(test, names, "etclink:10 ");
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, fd, DATA, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_getdents64, fd, UNMAPPED, 100, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, 4, DATA, 3072), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, 0, DATA, 3072), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, sys(__NR_getdents64, 99, DATA, 3072), -EBADF);
	/* /etc of the initramfs. */
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY), 5);
	n = sys(__NR_getdents64, 5, DATA, 3072);
	list_dirents(n, names, sizeof(names));
	KUNIT_EXPECT_TRUE(test, strstr(names, "motd:8 ") != NULL);
}

/* --- access, readlink, umask -------------------------------------------------- */

static long access_path(const char *path, int mode)
{
	put_str(PATH_A, path);
	return sys(__NR_access, PATH_A, (unsigned long)mode, 0);
}

static void access_lets_root_do_all_but_exec_of_a_file_without_x(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, access_path("/etc/motd", F_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path("/etc/motd", R_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path("/etc/motd", W_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path("/etc/motd", X_OK), -EACCES);
	KUNIT_EXPECT_EQ(test, access_path("/bin/hello", X_OK | R_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path("/etc", X_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path("/etc", W_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path(FIXTURE "/sys", W_OK), 0);
	KUNIT_EXPECT_EQ(test, access_path(FIXTURE "/ro", W_OK), -EACCES);
	KUNIT_EXPECT_EQ(test, access_path("/nope", F_OK), -ENOENT);
	KUNIT_EXPECT_EQ(test, access_path("/etc/motd", 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_access, UNMAPPED, F_OK, 0, 0), -EFAULT);
	put_str(PATH_A, "motd");
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_faccessat, 3, PATH_A, R_OK), 0);
	put_str(PATH_A, "motd");
	KUNIT_EXPECT_EQ(test, sys4(__NR_faccessat2, 3, PATH_A, R_OK, AT_EACCESS), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_faccessat2, 3, PATH_A, R_OK, 0x1), -EINVAL);
	/* Through the computed link, or (NOFOLLOW) the link itself. */
	put_str(PATH_A, FIXTURE "/exe");
	KUNIT_EXPECT_EQ(test, sys4(__NR_faccessat2, AT_FDCWD, PATH_A, X_OK, 0), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_faccessat2, AT_FDCWD, PATH_A, W_OK, AT_SYMLINK_NOFOLLOW),
			0);
}

static void readlink_copies_the_target_without_nul_and_cuts_it(struct kunit *test)
{
	put_str(PATH_A, FIXTURE "/etclink");
	KUNIT_ASSERT_EQ(test, fill_user(DATA, 'x', 8), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_readlink, PATH_A, DATA, 100), 4);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "/etcx");
	KUNIT_EXPECT_EQ(test, sys(__NR_readlink, PATH_A, DATA + 100, 2), 2);
	KUNIT_EXPECT_STREQ(test, user_str(DATA + 100, 2), "/e");
	KUNIT_EXPECT_EQ(test, sys(__NR_readlink, PATH_A, DATA, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_readlink, PATH_A, UNMAPPED, 10, 0), -EFAULT);
	put_str(PATH_A, "/etc/motd");
	KUNIT_EXPECT_EQ(test, sys(__NR_readlink, PATH_A, DATA, 100), -EINVAL);
	put_str(PATH_A, "/nope");
	KUNIT_EXPECT_EQ(test, sys(__NR_readlink, PATH_A, DATA, 100), -ENOENT);
	/* readlinkat from a dirfd, and a link whose target is computed. */
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE, O_RDONLY), 3);
	put_str(PATH_A, "exe");
	KUNIT_EXPECT_EQ(test, sys4(__NR_readlinkat, 3, PATH_A, DATA, 100), 10);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 10), "/bin/hello");
	put_str(PATH_A, "");
	KUNIT_EXPECT_EQ(test, sys4(__NR_readlinkat, 3, PATH_A, DATA, 100), -ENOENT);
	/* Opening through the computed link reaches the program. */
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/exe", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, 4, DATA, 4), 4);
	KUNIT_EXPECT_EQ(test, memcmp(user_str(DATA, 4), "\177ELF", 4), 0);
}

static void umask_returns_the_old_mask(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys(__NR_umask, 077, 0, 0), 022);
	KUNIT_EXPECT_EQ(test, sys(__NR_umask, 01777, 0, 0), 077);
	KUNIT_EXPECT_EQ(test, sys(__NR_umask, 022, 0, 0), 0777);
}

/* --- the console and special files ------------------------------------------ */

static void ioctl_on_the_console_answers_tcgets_and_tiocgwinsz(struct kunit *test)
{
	uint32_t flags[4];
	uint8_t cc[3];
	uint16_t ws[2];

	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 0, TCGETS, DATA), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(flags, DATA, sizeof(flags)), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(cc, DATA + 17, sizeof(cc)), 0);
	KUNIT_EXPECT_TRUE(test, flags[3] & 0x2); /* c_lflag: ICANON */
	KUNIT_EXPECT_TRUE(test, flags[3] & 0x8); /* ECHO */
	KUNIT_EXPECT_EQ(test, cc[0], 3);	 /* VINTR: ^C */
	KUNIT_EXPECT_EQ(test, cc[2], 0x7f);	 /* VERASE */
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 2, TIOCGWINSZ, DATA), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ws, DATA, sizeof(ws)), 0);
	KUNIT_EXPECT_EQ(test, ws[0], 25);
	KUNIT_EXPECT_EQ(test, ws[1], 80);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 0, 0x5415 /* TIOCMGET */, DATA), -ENOTTY);
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_ioctl, 0, TCGETS, UNMAPPED, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_RDONLY), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 3, TCGETS, DATA), -ENOTTY);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 99, TCGETS, DATA), -EBADF);
}

static void type(const char *s)
{
	while (console_trygetc() >= 0)
		; /* nothing typed before the test counts */
	for (; *s; s++)
		console_input((uint8_t)*s);
}

static long read_console(unsigned long count)
{
	long ret;

	shell_capture_start(&out);
	ret = sys(__NR_read, 0, DATA, count);
	shell_capture_stop();
	return ret;
}

static void console_read_is_a_canonical_line_with_echo_and_erase(struct kunit *test)
{
	type("ab\x7f"
	     "c\x7f"
	     "d\n");
	KUNIT_EXPECT_EQ(test, read_console(100), 3);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 3), "ad\n");
	KUNIT_EXPECT_STREQ(test, out.text, "ab\b \bc\b \bd\n");
	/* At most count bytes; the rest of the line waits for the next read. */
	type("hello\r");
	KUNIT_EXPECT_EQ(test, read_console(2), 2);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 2), "he");
	KUNIT_EXPECT_EQ(test, read_console(100), 4);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 4), "llo\n");
	/* ^D: the line so far without '\n'; on an empty line, end of file. */
	type("xy\x04");
	KUNIT_EXPECT_EQ(test, read_console(100), 2);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 2), "xy");
	type("\x04");
	KUNIT_EXPECT_EQ(test, read_console(100), 0);
	/* A control byte echoes as ^X and erases as two columns. */
	type("\x01\x7f\n");
	KUNIT_EXPECT_EQ(test, read_console(100), 1);
	KUNIT_EXPECT_STREQ(test, out.text, "^A\b \b\b \b\n");
}

static void console_read_waits_until_a_signal_or_refuses_with_nonblock(struct kunit *test)
{
	type("par");
	task->signals.pending.signal = sigmask(SIGINT);
	KUNIT_EXPECT_EQ(test, read_console(100), -ERESTARTSYS);
	task->signals.blocked = sigmask(SIGINT);
	KUNIT_EXPECT_EQ(test, sys(__NR_fcntl, 0, F_SETFL, O_NONBLOCK), 0);
	KUNIT_EXPECT_EQ(test, read_console(100), -EAGAIN);
	/* The typed part stayed in the line. */
	console_input('t');
	console_input('\n');
	KUNIT_EXPECT_EQ(test, read_console(100), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 5), "part\n");
	task->signals.pending.signal = task->signals.blocked = 0;
	KUNIT_EXPECT_EQ(test, sys4_captured(__NR_write, 1, UNMAPPED, 4, 0), -EFAULT);
}

static long mmap_fd(unsigned long fd)
{
	const unsigned long args[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, fd, 0 };

	return do_syscall(task, __NR_mmap, args);
}

static void special_files_dispatch_through_their_own_operations(struct kunit *test)
{
	int releases = sys_releases, opens = sys_opens;
	long fd = open_path(FIXTURE "/sys", O_RDWR);

	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys_opens, opens + 1);
	put_str(DATA, "always");
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fd, DATA, 6), 6);
	KUNIT_EXPECT_STREQ(test, sys_written, "always");
	KUNIT_EXPECT_EQ(test, sys(__NR_read, fd, DATA, 100), 3);
	KUNIT_EXPECT_STREQ(test, user_str(DATA, 3), "42\n");
	KUNIT_EXPECT_EQ(test, sys(__NR_lseek, fd, 0, SEEK_SET), -ESPIPE); /* no llseek */
	KUNIT_EXPECT_EQ(test, sys(__NR_dup, fd, 0, 0), 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_releases, releases); /* fd 4 still holds it */
	KUNIT_EXPECT_EQ(test, sys(__NR_close, 4, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_releases, releases + 1);
	/* An open the file refuses; a read-only one. */
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/refuse", O_RDONLY), -EPERM);
	KUNIT_EXPECT_EQ(test, sys_releases, releases + 1);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/ro", O_RDONLY), 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, 3, DATA, 1), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 3, TCGETS, DATA), -ENOTTY);
	KUNIT_EXPECT_EQ(test, mmap_fd(3), -ENODEV);
}

static void mmap_of_a_file_maps_its_page_cache(struct kunit *test)
{
	long fd = open_path(FIXTURE "/f", O_RDONLY), addr;
	const unsigned long args[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 3, 0 };
	const unsigned long shared_w[6] = {
		0, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 3, 0
	};
	const unsigned long dir[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 4, 0 };
	const unsigned long path[6] = { 0, PAGE_SIZE, PROT_READ, MAP_PRIVATE, 5, 0 };
	unsigned long anon_before = mm->counters[MM_ANONPAGES];
	char tail;

	KUNIT_ASSERT_EQ(test, fd, 3);
	addr = do_syscall(task, __NR_mmap, args);
	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_STREQ(test, user_str((unsigned long)addr, 12), FILE_BYTES);
	KUNIT_ASSERT_EQ(test, copy_from_user(&tail, (unsigned long)addr + 12, 1), 0);
	KUNIT_EXPECT_EQ(test, tail, 0);
	/* The file's own page, read-only: no copy was made. */
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], anon_before);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_SHMEMPAGES], 1);
	KUNIT_EXPECT_NOT_NULL(test, find_vma(mm, (unsigned long)addr)->vm_file);
	/* The VMA holds the file until it is unmapped. */
	KUNIT_EXPECT_EQ(test, sys(__NR_munmap, (unsigned long)addr, PAGE_SIZE, 0), 0);
	KUNIT_EXPECT_EQ(test, mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_mmap, shared_w), -EACCES);
	KUNIT_EXPECT_EQ(test, open_path("/etc", O_RDONLY), 4);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_mmap, dir), -ENODEV);
	KUNIT_EXPECT_EQ(test, open_path("/etc/motd", O_PATH), 5);
	KUNIT_EXPECT_EQ(test, do_syscall(task, __NR_mmap, path), -EBADF);
}

/* Two paths at PATH_A and PATH_B, then the call. */
static long sys_paths(unsigned long nr, const char *a, const char *b, unsigned long a2)
{
	put_str(PATH_A, a);
	if (b)
		put_str(PATH_B, b);
	return sys(nr, PATH_A, b ? PATH_B : a2, a2);
}

/* stat's st_size of path (through PATH_B, so PATH_A may hold another). */
static long size_of(const char *path)
{
	put_str(PATH_B, path);
	return sys(__NR_stat, PATH_B, DATA, 0) ? -1 : (long)stat_u64(48);
}

/* A file made with O_CREAT (mode less the umask), written, appended to,
 * read back, truncated, then removed while open: its bytes stay until
 * the close. */
static void files_are_made_written_truncated_and_removed(struct kunit *test)
{
	unsigned long file_pages = NODE_DATA(0)->nr_file_pages;
	long fd, ro;

	put_str(PATH_A, FIXTURE "/new");
	fd = sys4(__NR_open, PATH_A, O_RDWR | O_CREAT | O_EXCL, 0666, 0);
	KUNIT_ASSERT_EQ(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys4(__NR_open, PATH_A, O_RDWR | O_CREAT | O_EXCL, 0666, 0), -EEXIST);
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, (unsigned long)fd, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFREG | 0644); /* umask 022 */
	put_str(DATA, "hello, world");
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, DATA, 12), 12);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pwrite64, (unsigned long)fd, DATA, 5, 100), 5);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/new"), 105);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, (unsigned long)fd, DATA + 200, 14, 0), 14);
	KUNIT_EXPECT_EQ(test, memcmp(user_str(DATA + 200, 14), "hello, world\0\0", 14), 0);
	/* O_APPEND writes at the end, whatever the offset. */
	ro = open_path(FIXTURE "/new", O_WRONLY | O_APPEND);
	KUNIT_ASSERT_EQ(test, ro, 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)ro, DATA, 5), 5);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/new"), 110);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)ro, 0, 0), 0);
	/* ftruncate needs a writable fd; truncate a writable file. */
	ro = open_path(FIXTURE "/new", O_RDONLY);
	KUNIT_EXPECT_EQ(test, sys(__NR_ftruncate, (unsigned long)ro, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)ro, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_ftruncate, (unsigned long)fd, 5, 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/new"), 5);
	KUNIT_EXPECT_EQ(test, sys(__NR_ftruncate, (unsigned long)fd, 8192, 0), 0);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, (unsigned long)fd, DATA + 200, 8, 2), 8);
	KUNIT_EXPECT_EQ(test, memcmp(user_str(DATA + 200, 8), "llo\0\0\0\0\0", 8), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_truncate, FIXTURE "/new", NULL, 3), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/new"), 3);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_truncate, FIXTURE, NULL, 0), -EISDIR);
	/* O_TRUNC empties it at open. */
	ro = open_path(FIXTURE "/new", O_WRONLY | O_TRUNC);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/new"), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)ro, 0, 0), 0);
	put_str(DATA, "hello, world"); /* size_of's stat wrote over it */
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, DATA, 12), 12);
	/* Removed while open: unreachable by name, readable by fd. */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/new", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/new", O_RDONLY), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pread64, (unsigned long)fd, DATA + 200, 5, 12), 5);
	KUNIT_EXPECT_STREQ(test, user_str(DATA + 200, 5), "hello");
	KUNIT_EXPECT_EQ(test, sys(__NR_fsync, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_GT(test, NODE_DATA(0)->nr_file_pages, file_pages);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)fd, 0, 0), 0);
	/* the last close took the bytes */
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, file_pages);
}

/* mkdir (mode less the umask), rmdir of an empty one only; links and
 * symlinks; /proc makes and removes nothing. */
static void directories_and_links_are_made_and_removed(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, "/etc", NULL, 0755), -EEXIST);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, "/no/new", NULL, 0755), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, "/etc/motd/x", NULL, 0755), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, sys(__NR_mkdir, UNMAPPED, 0755, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, FIXTURE "/d/", NULL, 0777), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/d"), 2 * BOGO_DIRENT_SIZE); /* ".", ".." */
	KUNIT_EXPECT_EQ(test, stat_mode(), S_IFDIR | 0755);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, FIXTURE "/d/e", NULL, 0700), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/d"), 3 * BOGO_DIRENT_SIZE);
	KUNIT_EXPECT_EQ(test, size_of("/proc"), 0); /* procfs's directories: 0 */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_symlink, "../f", FIXTURE "/d/s", 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/d/s"), 12); /* followed to f */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_link, FIXTURE "/f", FIXTURE "/d/h", 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/d/h"), 12);
	KUNIT_EXPECT_EQ(test, stat_u64(16), 2); /* st_nlink */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_link, FIXTURE "/d", FIXTURE "/d2", 0), -EPERM);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_link, "/etc/motd", "/etc/motd", 0), -EEXIST);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_link, "/proc/meminfo", FIXTURE "/m", 0), -EXDEV);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d", NULL, 0), -ENOTEMPTY);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/d/e", NULL, 0), -EISDIR);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d/s", NULL, 0), -ENOTDIR);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d/.", NULL, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d/..", NULL, 0), -ENOTEMPTY);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d/e", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/d/s", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/d/h", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/d/h", NULL, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, FIXTURE "/d", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/f"), 12);
	KUNIT_EXPECT_EQ(test, stat_u64(16), 1);
	/* /proc's directory is r-x: no write without CAP_DAC_OVERRIDE; with
	 * it, /proc itself refuses (no ->mkdir, no ->unlink). */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, "/proc/x", NULL, 0755), -EACCES);
	task->cred.cap_effective |= CAP_TO_MASK(CAP_DAC_OVERRIDE);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_mkdir, "/proc/x", NULL, 0755), -EPERM);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, "/proc/meminfo", NULL, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, "/proc/meminfo", NULL, 0), -ENOTDIR);
	task->cred.cap_effective = 0;
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, "/proc", NULL, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rmdir, "/", NULL, 0), -EBUSY);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, "/", NULL, 0), -EISDIR);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, "/no/absent", NULL, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, sys(__NR_unlinkat, (unsigned long)AT_FDCWD, PATH_A, 0x1), -EINVAL);
}

/* statfs's f_bfree or f_ffree of path (struct statfs: at 24 and 48). */
static uint64_t statfs_u64(const char *path, unsigned long off)
{
	put_str(PATH_B, path);
	BUG_ON(sys(__NR_statfs, PATH_B, DATA, 0));
	return stat_u64(off);
}

/* rename moves a name (/proc is another mount: -EXDEV); chmod and
 * utimensat change the inode, stamping its ctime; statfs counts the
 * pages a write and a fallocate take and a punched hole gives back,
 * and the inode; the last close gives everything back. fsync of a
 * rootfs file is 0, of the console -EINVAL. */
static void rename_modes_times_and_space_change_rootfs(struct kunit *test)
{
	uint64_t bfree = statfs_u64("/", 24), ffree = statfs_u64("/", 48);
	struct __kernel_timespec ts[2] = { { 1000000000, 7 }, { 1100000000, 9 } };
	long fd;

	put_str(PATH_A, FIXTURE "/r");
	fd = sys4(__NR_open, PATH_A, O_RDWR | O_CREAT | O_EXCL, 0644, 0);
	KUNIT_ASSERT_GE(test, fd, 0);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 48), ffree - 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, DATA, 100), 100);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), bfree - 1);
	KUNIT_EXPECT_EQ(test, sys4(__NR_fallocate, (unsigned long)fd, 0, 0, 16 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), bfree - 16);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/r"), 16 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test,
			sys4(__NR_fallocate, (unsigned long)fd,
			     FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4 * PAGE_SIZE,
			     4 * PAGE_SIZE),
			0);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), bfree - 12);
	KUNIT_EXPECT_EQ(test, sys4(__NR_fallocate, (unsigned long)fd, FALLOC_FL_PUNCH_HOLE, 0, 1),
			-EOPNOTSUPP);
	/* rename: the name moves; into /proc is -EXDEV */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rename, FIXTURE "/r", FIXTURE "/r2", 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/r"), -1);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/r2"), 16 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rename, FIXTURE "/r2", "/proc/r2", 0), -EXDEV);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rename, "/proc", FIXTURE "/p", 0), -EACCES);
	task->cred.cap_effective |= CAP_TO_MASK(CAP_DAC_OVERRIDE); /* then: a mount point */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rename, "/proc", FIXTURE "/p", 0), -EBUSY);
	task->cred.cap_effective = 0;
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_rename, FIXTURE "/r2", "/no/r2", 0), -ENOENT);
	/* chmod, and times to the nanosecond; stat's mode at 24, times at 72 */
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_chmod, FIXTURE "/r2", NULL, 0600), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fchmod, (unsigned long)fd, 0640, 0), 0);
	BUG_ON(copy_to_user(DATA + 512, ts, sizeof(ts)));
	put_str(PATH_A, FIXTURE "/r2");
	KUNIT_EXPECT_EQ(test, sys4(__NR_utimensat, (unsigned long)AT_FDCWD, PATH_A, DATA + 512, 0),
			0);
	KUNIT_EXPECT_EQ(test, sys(__NR_fstat, (unsigned long)fd, DATA, 0), 0);
	KUNIT_EXPECT_EQ(test, stat_u64(24) & 0xffffffff, S_IFREG | 0640);
	KUNIT_EXPECT_EQ(test, stat_u64(72), 1000000000);
	KUNIT_EXPECT_EQ(test, stat_u64(80), 7);
	KUNIT_EXPECT_EQ(test, stat_u64(88), 1100000000);
	KUNIT_EXPECT_EQ(test, stat_u64(96), 9);
	KUNIT_EXPECT_GE(test, stat_u64(104), 1000000000); /* ctime: now, after 2001 */
	KUNIT_EXPECT_EQ(test, sys(__NR_fsync, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/r2", NULL, 0), 0);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), bfree - 12); /* open: kept */
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), bfree);
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 48), ffree);
	KUNIT_EXPECT_EQ(test, sys(__NR_fsync, 1, 0, 0), -EINVAL); /* the console */
	KUNIT_EXPECT_EQ(test, sys(__NR_fsync, 99, 0, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_sync, 0, 0, 0), 0);
}

/* O_CREAT through a dangling symlink makes its target, in the link's
 * directory; with O_EXCL it is -EEXIST; two links to each other -ELOOP. */
static void o_creat_follows_a_dangling_symlink(struct kunit *test)
{
	long fd;

	KUNIT_ASSERT_EQ(test, sys_paths(__NR_symlink, "t", FIXTURE "/dl", 0), 0);
	put_str(PATH_A, FIXTURE "/dl");
	KUNIT_EXPECT_EQ(test, sys4(__NR_open, PATH_A, O_WRONLY | O_CREAT | O_EXCL, 0644, 0),
			-EEXIST);
	fd = sys4(__NR_open, PATH_A, O_WRONLY | O_CREAT, 0644, 0);
	KUNIT_EXPECT_GE(test, fd, 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/t"), 0);
	KUNIT_ASSERT_EQ(test, sys_paths(__NR_symlink, "l2", FIXTURE "/l1", 0), 0);
	KUNIT_ASSERT_EQ(test, sys_paths(__NR_symlink, "l1", FIXTURE "/l2", 0), 0);
	put_str(PATH_A, FIXTURE "/l1");
	KUNIT_EXPECT_EQ(test, sys4(__NR_open, PATH_A, O_WRONLY | O_CREAT, 0644, 0), -ELOOP);
	for (const char *const *n = (const char *const[]){ FIXTURE "/dl", FIXTURE "/t",
							   FIXTURE "/l1", FIXTURE "/l2", NULL };
	     *n; n++)
		KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, *n, NULL, 0), 0);
}

/* tmpfs's size limit: a write stops where its next new page would pass
 * it, the next is -ENOSPC, as is a fallocate; statfs says none is free. */
static void a_full_rootfs_cuts_writes_and_is_enospc(struct kunit *test)
{
	unsigned long max = rootfs.max_pages;
	long fd;

	put_str(PATH_A, FIXTURE "/full");
	fd = sys4(__NR_open, PATH_A, O_RDWR | O_CREAT | O_EXCL, 0644, 0);
	KUNIT_ASSERT_GE(test, fd, 0);
	rootfs.max_pages = rootfs.used_pages + 1;
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, BIG, 2 * PAGE_SIZE), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, BIG, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, sys4(__NR_fallocate, (unsigned long)fd, 0, PAGE_SIZE, 1), -ENOSPC);
	KUNIT_EXPECT_EQ(test, sys4(__NR_pwrite64, (unsigned long)fd, BIG, 10, 0),
			10); /* in place */
	KUNIT_EXPECT_EQ(test, statfs_u64("/", 24), 0);
	rootfs.max_pages = max;
	KUNIT_EXPECT_EQ(test, size_of(FIXTURE "/full"), PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys_paths(__NR_unlink, FIXTURE "/full", NULL, 0), 0);
}

/* chrdev_open by rdev: a node anywhere reaches its driver; an unknown
 * major is -ENXIO. poll sees a pipe's bytes and its writer's close. */
static void char_devices_open_by_number_and_pipes_poll(struct kunit *test)
{
	struct pollfd pfd;
	long fd = open_path(FIXTURE "/null", O_RDWR);
	int fds[2];

	KUNIT_ASSERT_GE(test, fd, 3);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, (unsigned long)fd, DATA, 5), 5);
	KUNIT_EXPECT_EQ(test, sys(__NR_read, (unsigned long)fd, DATA, 5), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, (unsigned long)fd, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, open_path(FIXTURE "/nodev", O_RDONLY), -ENXIO);
	KUNIT_ASSERT_EQ(test, sys(__NR_pipe, PATH_B, 0, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(fds, PATH_B, sizeof(fds)), 0);
	pfd = (struct pollfd){ fds[0], POLLIN, 0 };
	KUNIT_ASSERT_EQ(test, copy_to_user(DATA, &pfd, sizeof(pfd)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_poll, DATA, 1, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, fds[1], PATH_A, 1), 1);
	KUNIT_EXPECT_EQ(test, sys(__NR_poll, DATA, 1, 0), 1);
	KUNIT_ASSERT_EQ(test, copy_from_user(&pfd, DATA, sizeof(pfd)), 0);
	KUNIT_EXPECT_EQ(test, pfd.revents, POLLIN); /* only what was asked */
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fds[1], 0, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_poll, DATA, 1, 0), 1);
	KUNIT_ASSERT_EQ(test, copy_from_user(&pfd, DATA, sizeof(pfd)), 0);
	KUNIT_EXPECT_EQ(test, pfd.revents, POLLIN | POLLHUP);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, fds[0], 0, 0), 0);
}

static struct kunit_case fs_syscall_cases[] = {
	KUNIT_CASE(open_read_close_round_trip_and_fds_are_reused_lowest_first),
	KUNIT_CASE(open_refuses_what_linux_refuses),
	KUNIT_CASE(open_bad_names_are_efault_and_enametoolong),
	KUNIT_CASE(open_runs_out_of_fds_with_emfile),
	KUNIT_CASE(rlimit_nofile_bounds_new_fds),
	KUNIT_CASE(o_path_names_a_file_without_io),
	KUNIT_CASE(openat_walks_from_the_dirfd_and_chdir_moves_the_cwd),
	KUNIT_CASE(getcwd_returns_the_length_with_its_nul_or_erange),
	KUNIT_CASE(lseek_and_pread_follow_linux_rules),
	KUNIT_CASE(read_and_write_check_the_fd_mode_and_the_buffer),
	KUNIT_CASE(readv_and_writev_go_vector_by_vector),
	KUNIT_CASE(dup_shares_the_offset_and_dup3_takes_cloexec),
	KUNIT_CASE(fcntl_dups_flags_and_locks_as_linux),
	KUNIT_CASE(pipe_round_trip_then_eof_after_the_writer_closes),
	KUNIT_CASE(pipe_without_reader_is_epipe_and_a_full_one_writes_short),
	KUNIT_CASE(pipe2_flags_and_a_bad_fildes_leave_no_fd),
	KUNIT_CASE(exit_files_frees_pipes_and_their_pages),
	KUNIT_CASE(stat_lstat_fstat_fill_linux_struct_stat),
	KUNIT_CASE(newfstatat_takes_a_dirfd_empty_path_and_nofollow),
	KUNIT_CASE(statx_reports_the_basic_stats),
	KUNIT_CASE(getdents64_lists_dot_dotdot_and_names_with_types),
	KUNIT_CASE(access_lets_root_do_all_but_exec_of_a_file_without_x),
	KUNIT_CASE(readlink_copies_the_target_without_nul_and_cuts_it),
	KUNIT_CASE(umask_returns_the_old_mask),
	KUNIT_CASE(ioctl_on_the_console_answers_tcgets_and_tiocgwinsz),
	KUNIT_CASE(console_read_is_a_canonical_line_with_echo_and_erase),
	KUNIT_CASE(console_read_waits_until_a_signal_or_refuses_with_nonblock),
	KUNIT_CASE(special_files_dispatch_through_their_own_operations),
	KUNIT_CASE(mmap_of_a_file_maps_its_page_cache),
	KUNIT_CASE(char_devices_open_by_number_and_pipes_poll),
	KUNIT_CASE(files_are_made_written_truncated_and_removed),
	KUNIT_CASE(directories_and_links_are_made_and_removed),
	KUNIT_CASE(rename_modes_times_and_space_change_rootfs),
	KUNIT_CASE(a_full_rootfs_cuts_writes_and_is_enospc),
	KUNIT_CASE(o_creat_follows_a_dangling_symlink),
	{},
};

static struct kunit_suite fs_syscall_suite = {
	.name = "fs_syscall",
	.init = fs_syscall_test_init,
	.exit = fs_syscall_test_exit,
	.test_cases = fs_syscall_cases,
};
kunit_test_suite(fs_syscall_suite);
