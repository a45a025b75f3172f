/*
 * /bin/memfdtest: memfd_create and file seals, checked from ring 3 the
 * same way on Linux and on Folium: the flags (MFD_CLOEXEC,
 * MFD_ALLOW_SEALING, MFD_NOEXEC_SEAL, MFD_EXEC) and the name's limit, the
 * file it makes (0777, empty, "/memfd:NAME (deleted)" in /proc/self/fd),
 * writes and a shared mapping of it seen by each other and by a forked
 * child; then each seal: F_SEAL_WRITE refused while a shared mapping may
 * write (EBUSY) and then refusing write, pwrite, hole punching and shared
 * writable mappings (EPERM) and mprotect to write (EACCES);
 * F_SEAL_FUTURE_WRITE keeping the writable mapping there; F_SEAL_SHRINK
 * and F_SEAL_GROW (a write refused from the chunk that would grow the
 * file);
 * F_SEAL_SEAL; F_SEAL_EXEC (and the write seals it brings along on an
 * executable memfd); F_GET_SEALS of a tmpfs file and of a pipe. Prints
 * "ok NAME" or "FAIL NAME: ..." a line, then "memfdtest: N checks, all
 * ok" (exit 0) or "memfdtest: K of N checks FAILED" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define PAGE 4096l
/* Linux 6.3's flags and seal, which older libc headers lack. */
#ifndef MFD_NOEXEC_SEAL
#define MFD_NOEXEC_SEAL 0x0008u
#endif
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010u
#endif
#ifndef F_SEAL_EXEC
#define F_SEAL_EXEC 0x0020
#endif
#ifndef F_SEAL_FUTURE_WRITE
#define F_SEAL_FUTURE_WRITE 0x0010
#endif

/* musl and glibc both have memfd_create; the raw call keeps the flags
 * exactly as given. */
static int memfd(const char *name, unsigned int flags)
{
	return (int)syscall(SYS_memfd_create, name, flags);
}

#define ERRNO(expr) ((expr) == -1 ? errno : 0)

static void creation(void)
{
	char link[64], target[128] = "", name[300];
	struct stat st;
	int fd = memfd("test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	ssize_t n;

	check("memfd_create", fd >= 0, "errno %s", strerror(errno));
	if (fd < 0)
		return;
	EXPECT("MFD_CLOEXEC sets FD_CLOEXEC", fcntl(fd, F_GETFD), FD_CLOEXEC);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, target, sizeof(target) - 1);
	if (n >= 0)
		target[n] = '\0';
	check("/proc/self/fd names it /memfd:test (deleted)",
	      !strcmp(target, "/memfd:test (deleted)"), "'%s'", target);
	check("a regular file, mode 0777, empty",
	      fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 07777) == 0777 &&
		      st.st_size == 0,
	      "mode %o size %ld", st.st_mode, (long)st.st_size);
	EXPECT("F_GET_SEALS: none (MFD_ALLOW_SEALING)", fcntl(fd, F_GET_SEALS), 0);
	EXPECT("F_ADD_SEALS of an unknown bit: EINVAL", ERRNO(fcntl(fd, F_ADD_SEALS, 0x40)),
	       EINVAL);
	close(fd);
	fd = memfd("plain", 0);
	EXPECT("without MFD_ALLOW_SEALING: F_SEAL_SEAL", fcntl(fd, F_GET_SEALS), F_SEAL_SEAL);
	EXPECT("and F_ADD_SEALS is EPERM", ERRNO(fcntl(fd, F_ADD_SEALS, F_SEAL_GROW)), EPERM);
	close(fd);
	EXPECT("MFD_EXEC with MFD_NOEXEC_SEAL: EINVAL",
	       ERRNO(memfd("x", MFD_EXEC | MFD_NOEXEC_SEAL)), EINVAL);
	EXPECT("an unknown flag: EINVAL", ERRNO(memfd("x", 0x100)), EINVAL);
	memset(name, 'n', sizeof(name));
	name[250] = '\0';
	EXPECT("a 250-byte name: EINVAL", ERRNO(memfd(name, 0)), EINVAL);
	name[249] = '\0';
	fd = memfd(name, 0);
	check("a 249-byte name", fd >= 0, "errno %s", strerror(errno));
	close(fd);
	EXPECT("an unreadable name: EFAULT", ERRNO(memfd((const char *)8, 0)), EFAULT);
}

static void shared_data(void)
{
	int fd = memfd("data", MFD_ALLOW_SEALING), status = -1;
	char buf[8] = { 0 };
	char *m;
	pid_t pid;

	EXPECT("ftruncate to 3 pages", ftruncate(fd, 3 * PAGE), 0);
	EXPECT("pwrite", pwrite(fd, "hello", 5, PAGE), 5);
	m = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check("mmap shared", m != MAP_FAILED, "errno %s", strerror(errno));
	if (m == MAP_FAILED)
		return;
	check("the mapping sees the write", !memcmp(m + PAGE, "hello", 5), "%.5s", m + PAGE);
	pid = fork();
	if (pid == 0) {
		memcpy(m + 2 * PAGE, "child", 5);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("a child's write through the mapping is read back",
	      pread(fd, buf, 5, 2 * PAGE) == 5 && !memcmp(buf, "child", 5), "%.5s", buf);
	EXPECT("F_SEAL_WRITE while mapped shared and writable: EBUSY",
	       ERRNO(fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE)), EBUSY);
	munmap(m, 3 * PAGE);
	EXPECT("F_SEAL_WRITE once unmapped", fcntl(fd, F_ADD_SEALS, F_SEAL_WRITE), 0);
	EXPECT("write: EPERM", ERRNO(write(fd, "x", 1)), EPERM);
	EXPECT("pwrite: EPERM", ERRNO(pwrite(fd, "x", 1, 0)), EPERM);
	EXPECT("punching a hole: EPERM",
	       ERRNO(fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, PAGE)), EPERM);
	EXPECT("mmap shared writable: EPERM",
	       ERRNO((long)mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)), EPERM);
	m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, PAGE);
	check("mmap shared read-only", m != MAP_FAILED && !memcmp(m, "hello", 5), "errno %s",
	      strerror(errno));
	if (m != MAP_FAILED) {
		EXPECT("mprotect it writable: EACCES",
		       ERRNO(mprotect(m, PAGE, PROT_READ | PROT_WRITE)), EACCES);
		munmap(m, PAGE);
	}
	m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, PAGE);
	check("mmap private writable: its own copy", m != MAP_FAILED, "errno %s", strerror(errno));
	if (m != MAP_FAILED) {
		m[0] = 'J';
		check("the file keeps its bytes", pread(fd, buf, 1, PAGE) == 1 && buf[0] == 'h',
		      "%c", buf[0]);
		munmap(m, PAGE);
	}
	EXPECT("F_SEAL_SHRINK | F_SEAL_GROW", fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW),
	       0);
	EXPECT("ftruncate smaller: EPERM", ERRNO(ftruncate(fd, PAGE)), EPERM);
	EXPECT("ftruncate larger: EPERM", ERRNO(ftruncate(fd, 4 * PAGE)), EPERM);
	EXPECT("ftruncate to its size", ftruncate(fd, 3 * PAGE), 0);
	EXPECT("F_SEAL_SEAL", fcntl(fd, F_ADD_SEALS, F_SEAL_SEAL), 0);
	EXPECT("then any seal: EPERM", ERRNO(fcntl(fd, F_ADD_SEALS, F_SEAL_EXEC)), EPERM);
	EXPECT("F_GET_SEALS", fcntl(fd, F_GET_SEALS),
	       F_SEAL_SEAL | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE);
	close(fd);
}

static void future_write_and_grow(void)
{
	int fd = memfd("future", MFD_ALLOW_SEALING);
	char *page = calloc(3, PAGE), buf[4] = { 0 };
	char *m;

	EXPECT("ftruncate to 2 pages and 100 bytes", ftruncate(fd, 2 * PAGE + 100), 0);
	m = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	EXPECT("F_SEAL_FUTURE_WRITE while mapped", fcntl(fd, F_ADD_SEALS, F_SEAL_FUTURE_WRITE), 0);
	if (m != MAP_FAILED) {
		memcpy(m, "old", 3);
		check("the writable mapping still writes",
		      pread(fd, buf, 3, 0) == 3 && !memcmp(buf, "old", 3), "%.3s", buf);
		munmap(m, PAGE);
	}
	EXPECT("but write(2) is EPERM", ERRNO(write(fd, "x", 1)), EPERM);
	close(fd);
	fd = memfd("grow", MFD_ALLOW_SEALING);
	EXPECT("ftruncate to 2 pages and 100 bytes", ftruncate(fd, 2 * PAGE + 100), 0);
	EXPECT("F_SEAL_GROW", fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), 0);
	EXPECT("a write inside the file", pwrite(fd, "in", 2, 2 * PAGE + 10), 2);
	EXPECT("a write across the end: EPERM", ERRNO(pwrite(fd, page, 100, 2 * PAGE + 50)), EPERM);
	/* Linux 7.3 checks a write a 2 MiB chunk at a time (shmem's largest
	 * folio): the first chunk already passes the end. */
	EXPECT("3 pages at 0: EPERM", ERRNO(pwrite(fd, page, 3 * PAGE, 0)), EPERM);
	EXPECT("fallocate past the end: EPERM", ERRNO(fallocate(fd, 0, 2 * PAGE, PAGE)), EPERM);
	close(fd);
	free(page);
}

static void exec_seals(void)
{
	struct stat st;
	int fd = memfd("noexec", MFD_NOEXEC_SEAL), pipefd[2], file;

	check("MFD_NOEXEC_SEAL: mode 0666", fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0666,
	      "mode %o", st.st_mode);
	EXPECT("and F_SEAL_EXEC", fcntl(fd, F_GET_SEALS), F_SEAL_EXEC);
	EXPECT("fchmod 0777: EPERM", ERRNO(fchmod(fd, 0777)), EPERM);
	EXPECT("fchmod 0644 (no exec bit changes)", fchmod(fd, 0644), 0);
	EXPECT("more seals may come", fcntl(fd, F_ADD_SEALS, F_SEAL_GROW), 0);
	close(fd);
	fd = memfd("exec", MFD_EXEC | MFD_ALLOW_SEALING);
	EXPECT("F_SEAL_EXEC on an executable memfd", fcntl(fd, F_ADD_SEALS, F_SEAL_EXEC), 0);
	EXPECT("brings every write seal", fcntl(fd, F_GET_SEALS),
	       F_SEAL_EXEC | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE);
	close(fd);
	file = open("memfdtest-f", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	EXPECT("a tmpfs file: F_SEAL_SEAL", fcntl(file, F_GET_SEALS), F_SEAL_SEAL);
	close(file);
	unlink("memfdtest-f");
	if (pipe(pipefd) == 0) {
		EXPECT("a pipe: F_GET_SEALS is EINVAL", ERRNO(fcntl(pipefd[1], F_GET_SEALS)),
		       EINVAL);
		close(pipefd[0]);
		close(pipefd[1]);
	}
}

/* The first line of @path, without its newline, in line ("" if none). */
static void first_line(const char *path, char *line, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, line, size - 1) : -1;

	line[n > 0 ? n : 0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	if (fd >= 0)
		close(fd);
}

/* The shmem_enabled files that say which folio sizes memfds and shared
 * anonymous memory get: Linux 6.11's words, the defaults. */
static void shmem_enabled(void)
{
	static const char dir[] = "/sys/kernel/mm/transparent_hugepage";
	char path[128], line[128];

	first_line("/sys/kernel/mm/transparent_hugepage/shmem_enabled", line, sizeof(line));
	check("shmem_enabled: never of six",
	      !strcmp(line, "always within_size advise [never] deny force"), "'%s'", line);
	snprintf(path, sizeof(path), "%s/hugepages-2048kB/shmem_enabled", dir);
	first_line(path, line, sizeof(line));
	check("hugepages-2048kB/shmem_enabled: inherit",
	      !strcmp(line, "always [inherit] within_size advise never"), "'%s'", line);
	snprintf(path, sizeof(path), "%s/hugepages-64kB/shmem_enabled", dir);
	first_line(path, line, sizeof(line));
	check("hugepages-64kB/shmem_enabled: never",
	      !strcmp(line, "always inherit within_size advise [never]"), "'%s'", line);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	creation();
	shared_data();
	future_write_and_grow();
	exec_seals();
	shmem_enabled();
	return check_summary("memfdtest");
}
