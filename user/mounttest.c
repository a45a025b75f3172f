/*
 * /bin/mounttest: a tmpfs mounted on a directory, checked from ring 3 the
 * same way on Linux and on Folium, started as root: its own device, root
 * mode and statfs numbers, size= enforced (a write stops at the limit,
 * then ENOSPC) and nr_inodes= too, names that cannot leave it (EXDEV), its mount point busy
 * for rmdir, ".." leading out of it and getcwd through it, remount's new
 * size (and a size below what it holds refused), huge= deciding whether a
 * 2 MiB write makes a PMD-sized folio (ShmemHugePages), umount refused
 * while a file or a cwd holds it, then everything in it gone; errors for
 * a bad option, an unknown type, a file as the target and a user without
 * CAP_SYS_ADMIN. Prints "ok NAME" or "FAIL NAME: ..." a line, then
 * "mounttest: N checks, all ok" (exit 0) or "mounttest: K of N checks
 * FAILED" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define DIR "mounttest-m"
#define TMPFS_MAGIC_ 0x01021994
#define CHUNK (64 * 1024)

static char buf[2 << 20];

/* /proc/meminfo's ShmemHugePages in kB, or -1. */
static long shmem_huge_kb(void)
{
	return proc_kb("/proc/meminfo", "ShmemHugePages");
}

/* Write @len bytes to @fd in CHUNKs until one fails. Return: the bytes
 * written; errno is the failing write's. */
static long write_until_error(int fd, long len)
{
	long done = 0, n = 0;

	while (done < len && (n = write(fd, buf, CHUNK)) > 0)
		done += n;
	return done;
}

/* The mount, its statfs and its limit. */
static void size_limit(const struct stat *parent)
{
	struct statfs sf;
	struct stat st;
	long done;
	int fd;

	EXPECT("mount tmpfs size=1m,mode=0700", mount("none", DIR, "tmpfs", 0, "size=1m,mode=0700"),
	       0);
	check("its root: mode 0700, a device of its own",
	      stat(DIR, &st) == 0 && st.st_mode == (S_IFDIR | 0700) && st.st_dev != parent->st_dev,
	      "mode %o dev %lx", st.st_mode, (unsigned long)st.st_dev);
	check("statfs: tmpfs, 256 blocks of 4 KiB, all free",
	      statfs(DIR, &sf) == 0 && sf.f_type == TMPFS_MAGIC_ && sf.f_bsize == 4096 &&
		      sf.f_blocks == 256 && sf.f_bfree == 256 && sf.f_files > 0,
	      "type %lx bsize %ld blocks %lu free %lu", (long)sf.f_type, (long)sf.f_bsize,
	      (unsigned long)sf.f_blocks, (unsigned long)sf.f_bfree);
	fd = open(DIR "/f", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	done = write_until_error(fd, 2 << 20);
	check("a write stops at size=, then ENOSPC", done == 1 << 20 && errno == ENOSPC,
	      "%ld bytes, errno %s", done, strerror(errno));
	check("statfs: no block free", fstatfs(fd, &sf) == 0 && sf.f_bfree == 0, "free %lu",
	      (unsigned long)sf.f_bfree);
	EXPECT("umount while a file is open is EBUSY", umount(DIR) == -1 ? errno : 0, EBUSY);
	close(fd);
}

/* Names stay inside; the mount point is busy; ".." and getcwd cross it. */
static void crossing(const struct stat *parent)
{
	char cwd[4096];
	struct stat st;

	EXPECT("rename out of the mount is EXDEV",
	       rename(DIR "/f", "mounttest-out") == -1 ? errno : 0, EXDEV);
	EXPECT("link out of the mount is EXDEV", link(DIR "/f", "mounttest-out") == -1 ? errno : 0,
	       EXDEV);
	EXPECT("rmdir of the mount point is EBUSY", rmdir(DIR) == -1 ? errno : 0, EBUSY);
	check("\"..\" of its root is the directory holding the mount point",
	      stat(DIR "/..", &st) == 0 && st.st_ino == parent->st_ino &&
		      st.st_dev == parent->st_dev,
	      "ino %lu", (unsigned long)st.st_ino);
	EXPECT("chdir into it", chdir(DIR), 0);
	check("getcwd names the mount point",
	      getcwd(cwd, sizeof(cwd)) && strlen(cwd) >= strlen("/" DIR) &&
		      !strcmp(cwd + strlen(cwd) - strlen("/" DIR), "/" DIR),
	      "%s", cwd);
	EXPECT("umount of a cwd's mount is EBUSY", umount("../" DIR) == -1 ? errno : 0, EBUSY);
	EXPECT("chdir back", chdir(".."), 0);
}

/* remount changes the size; huge= decides PMD-sized folios. */
static void remount_and_huge(void)
{
	struct statfs sf;
	long before;
	int fd;

	EXPECT("remount size=2m", mount("none", DIR, "tmpfs", MS_REMOUNT, "size=2m"), 0);
	check("statfs: 512 blocks", statfs(DIR, &sf) == 0 && sf.f_blocks == 512, "blocks %lu",
	      (unsigned long)sf.f_blocks);
	EXPECT("remount below what it holds is EINVAL",
	       mount("none", DIR, "tmpfs", MS_REMOUNT, "size=64k") == -1 ? errno : 0, EINVAL);
	EXPECT("umount", umount(DIR), 0);
	EXPECT("mount nr_inodes=3", mount("none", DIR, "tmpfs", 0, "nr_inodes=3"), 0);
	EXPECT("the root and two files fit", mkdir(DIR "/a", 0755) | mkdir(DIR "/b", 0755), 0);
	EXPECT("a fourth inode is ENOSPC", mkdir(DIR "/c", 0755) == -1 ? errno : 0, ENOSPC);
	rmdir(DIR "/a");
	rmdir(DIR "/b");
	EXPECT("umount", umount(DIR), 0);
	for (int always = 0; always <= 1; always++) {
		EXPECT(always ? "mount huge=always" : "mount huge=never",
		       mount("none", DIR, "tmpfs", 0, always ? "huge=always" : "huge=never"), 0);
		before = shmem_huge_kb();
		fd = open(DIR "/big", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		EXPECT(always ? "a 2 MiB write (huge=always)" : "a 2 MiB write (huge=never)",
		       write(fd, buf, sizeof(buf)), sizeof(buf));
		check(always ? "huge=always: one PMD-sized folio (ShmemHugePages +2048 kB)"
			     : "huge=never: no PMD-sized folio",
		      shmem_huge_kb() - before == (always ? 2048 : 0), "%ld kB more",
		      shmem_huge_kb() - before);
		close(fd);
		EXPECT("umount", umount(DIR), 0);
	}
}

/* What mount and umount refuse. */
static void refusals(void)
{
	int status = -1;
	pid_t pid;

	EXPECT("an unknown option is EINVAL",
	       mount("none", DIR, "tmpfs", 0, "bogus=1") == -1 ? errno : 0, EINVAL);
	EXPECT("an unknown type is ENODEV",
	       mount("none", DIR, "nosuchfs", 0, NULL) == -1 ? errno : 0, ENODEV);
	close(open("mounttest-file", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	EXPECT("a file as the target is ENOTDIR",
	       mount("none", "mounttest-file", "tmpfs", 0, NULL) == -1 ? errno : 0, ENOTDIR);
	unlink("mounttest-file");
	EXPECT("umount of a directory that is no mount is EINVAL", umount(DIR) == -1 ? errno : 0,
	       EINVAL);
	pid = fork();
	if (pid == 0)
		_exit(setuid(65534) || mount("none", DIR, "tmpfs", 0, NULL) != -1 ? 1
		      : errno == EPERM						  ? 0
										  : 2);
	waitpid(pid, &status, 0);
	check("a user without CAP_SYS_ADMIN: EPERM", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "status %#x", status);
}

int main(void)
{
	struct stat parent, st;

	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(buf, 'm', sizeof(buf));
	mkdir(DIR, 0755);
	if (stat(".", &parent) || stat(DIR, &st) || !S_ISDIR(st.st_mode)) {
		printf("mounttest: cannot make %s here\n", DIR);
		return 1;
	}
	size_limit(&parent);
	crossing(&parent);
	remount_and_huge();
	check("after umount the directory is empty and the parent's again",
	      stat(DIR "/f", &st) == -1 && errno == ENOENT && stat(DIR, &st) == 0 &&
		      st.st_dev == parent.st_dev,
	      "dev %lx", (unsigned long)st.st_dev);
	refusals();
	EXPECT("rmdir the mount point", rmdir(DIR), 0);
	return check_summary("mounttest");
}
