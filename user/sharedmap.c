/*
 * /bin/sharedmap: shared mappings of tmpfs files and shared anonymous
 * memory, checked from ring 3 the same way on Linux and on Folium:
 * writes through a MAP_SHARED mapping are seen by read(2), by a second
 * mapping and after munmap; write(2) is seen by the mapping; a read of a
 * page past the end of the file is SIGBUS (BUS_ADRERR at the address);
 * ftruncate unmaps what lies past the new end (SIGBUS), and a hole
 * punched reads zero through the mapping; a MAP_PRIVATE mapping reads
 * the file until it writes a page, keeps its copies through a forked
 * child's writes and a punched hole, and loses them to truncate (SIGBUS);
 * MAP_SHARED|MAP_ANONYMOUS and MAP_SHARED of /dev/zero are
 * shared with a forked child (and MAP_PRIVATE is not); a mapped file
 * stays when unlinked; mremap moves a shared mapping with its data, and
 * growing shared anonymous memory past its size is SIGBUS; /proc/self/maps
 * names the file and /dev/zero (deleted); RssShmem and
 * mincore count what is mapped and cached; and the errors: PROT_WRITE
 * shared of a read-only fd (EACCES, mmap and mprotect), a pipe (ENODEV),
 * MADV_FREE of a shared mapping (EINVAL), msync's argument checks;
 * MADV_REMOVE frees a shared mapping's file pages (the range reads zero
 * through the mapping and read(2), the size stays, RssShmem drops, shared
 * anonymous memory too) and refuses a private mapping (EACCES), private
 * anonymous memory and a locked mapping (EINVAL) and a private HugeTLB
 * mapping (EACCES); Committed_AS charges
 * shared anonymous memory its size (page by page with MAP_NORESERVE) and
 * a tmpfs file its pages (under overcommit mode 2 a write past what it
 * allows is ENOSPC); shared futexes meet on the page under the word
 * (across fork, at two addresses of a memfd, a file's page under private
 * and shared mappings) while private ones, private copies and private
 * anonymous memory stay per process; a PMD-sized tmpfs folio is mapped by
 * a PMD (ShmemPmdMapped) until a private write or an mprotect cuts it,
 * and not with MADV_NOHUGEPAGE, and a truncate splits it even while
 * mapped. Works
 * in the current directory (tmpfs on both kernels' initramfs). Prints
 * "ok NAME" or "FAIL NAME: ..." a line, then "sharedmap: N checks, all
 * ok" (exit 0) or "sharedmap: K of N checks FAILED" (exit 1).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

#define PAGE 4096l
#define FILE_NAME "sharedmap-f"

static sigjmp_buf bus_jmp;
static volatile void *bus_addr;
static volatile int bus_code;

static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	bus_addr = si->si_addr;
	bus_code = si->si_code;
	siglongjmp(bus_jmp, 1);
}

/* Read the byte at p. Return: 1 and the byte in *out, or 0 after a
 * SIGBUS at exactly p with BUS_ADRERR, or -1 after another SIGBUS. */
static int read_byte(volatile char *p, char *out)
{
	if (sigsetjmp(bus_jmp, 1))
		return bus_addr == p && bus_code == BUS_ADRERR ? 0 : -1;
	*out = *p;
	return 1;
}

/* A new file of @pages pages, page i full of 'a' + i. Return: its fd. */
static int make_file(long pages)
{
	char page[PAGE];
	int fd = open(FILE_NAME, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	for (long i = 0; i < pages; i++) {
		memset(page, 'a' + (int)i, sizeof(page));
		if (write(fd, page, sizeof(page)) != PAGE)
			return -1;
	}
	return fd;
}

/* The /proc/self/maps line of the mapping at addr, without its newline,
 * in line; "" if there is none. */
static void maps_line(const void *addr, char *line, size_t size)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char start[32];

	snprintf(start, sizeof(start), "%08lx-", (unsigned long)addr);
	line[0] = '\0';
	while (f && fgets(line, (int)size, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, start, strlen(start)))
			break;
		line[0] = '\0';
	}
	if (f)
		fclose(f);
}

/* Does the maps line have these permissions and offset, and end with name? */
static int maps_line_is(const char *line, const char *perms, const char *offset, const char *name)
{
	const char *sp = strchr(line, ' ');
	size_t n = strlen(line), len = strlen(name);

	return sp && !strncmp(sp + 1, perms, 4) && !strncmp(sp + 6, offset, 8) && n >= len &&
	       !strcmp(line + n - len, name);
}

/* /proc/self/status's RssShmem in kB, or -1. */
static long rss_shmem_kb(void)
{
	return proc_kb("/proc/self/status", "RssShmem");
}

/* /proc/meminfo's Committed_AS in kB, or -1. */
static long committed_kb(void)
{
	return proc_kb("/proc/meminfo", "Committed_AS");
}

/* Linux's shmem accounting, as /proc/meminfo shows it: shared anonymous
 * memory is charged its whole size when mapped (shmem_acct_size), or
 * with MAP_NORESERVE a page at a time as it is touched; a tmpfs file is
 * charged its pages as it gets them and gives them back on truncate
 * (shmem_acct_blocks). */
static void committed_as(void)
{
	long before = committed_kb();
	char *s = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char page[PAGE];
	int fd;

	check("shared anonymous memory: Committed_AS +1024 kB", committed_kb() - before == 1024,
	      "%+ld kB", committed_kb() - before);
	if (s != MAP_FAILED) {
		s[0] = 1;
		check("touching it charges nothing more", committed_kb() - before == 1024,
		      "%+ld kB", committed_kb() - before);
		munmap(s, 1 << 20);
	}
	check("munmap gives it back", committed_kb() == before, "%+ld kB", committed_kb() - before);
	s = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	check("with MAP_NORESERVE: nothing at mmap", committed_kb() == before, "%+ld kB",
	      committed_kb() - before);
	if (s != MAP_FAILED) {
		s[0] = 1;
		s[5 * PAGE] = 1;
		check("and a page per page touched", committed_kb() - before == 8, "%+ld kB",
		      committed_kb() - before);
		munmap(s, 1 << 20);
	}
	s = mmap(NULL, 1ul << 40, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	EXPECT("1 TiB of it, more than all memory: the charge is refused, ENOMEM",
	       s == MAP_FAILED ? errno : 0, ENOMEM);
	s = mmap(NULL, 1ul << 40, PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	check("with MAP_NORESERVE it maps", s != MAP_FAILED, "errno %s", strerror(errno));
	if (s != MAP_FAILED)
		munmap(s, 1ul << 40);
	fd = open(FILE_NAME, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	memset(page, 'c', sizeof(page));
	for (int i = 0; i < 16; i++)
		if (write(fd, page, sizeof(page)) != PAGE)
			break;
	check("a tmpfs file's 16 pages: +64 kB", committed_kb() - before == 64, "%+ld kB",
	      committed_kb() - before);
	check("ftruncate to 0 gives them back", ftruncate(fd, 0) == 0 && committed_kb() == before,
	      "%+ld kB", committed_kb() - before);
	close(fd);
	unlink(FILE_NAME);
}

static void file_visibility(void)
{
	int fd = make_file(4);
	char *a = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *b = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 2 * PAGE);
	char got[8] = { 0 }, path[512], line[1024];

	check("mmap shared of a file", a != MAP_FAILED && b != MAP_FAILED, "errno %s",
	      strerror(errno));
	if (a == MAP_FAILED || b == MAP_FAILED)
		return;
	check("the mapping reads the file", a[0] == 'a' && a[PAGE] == 'b' && a[3 * PAGE + 7] == 'd',
	      "%c %c %c", a[0], a[PAGE], a[3 * PAGE + 7]);
	memcpy(a + 2 * PAGE + 100, "shared", 6);
	check("read(2) sees a write through the mapping",
	      pread(fd, got, 6, 2 * PAGE + 100) == 6 && !memcmp(got, "shared", 6), "got %.6s", got);
	check("a second mapping at another offset sees it", !memcmp(b + 100, "shared", 6),
	      "got %.6s", b + 100);
	if (getcwd(path, sizeof(path) - sizeof(FILE_NAME) - 1)) {
		strcat(strcmp(path, "/") ? strcat(path, "/") : path, FILE_NAME);
		maps_line(b, line, sizeof(line));
		check("/proc/self/maps: shared, its offset, the file's path",
		      maps_line_is(line, "r--s", "00002000", path), "'%s'", line);
		maps_line(a, line, sizeof(line));
		check("and the writable one", maps_line_is(line, "rw-s", "00000000", path), "'%s'",
		      line);
	}
	EXPECT("pwrite into the mapped file", pwrite(fd, "write", 5, 3 * PAGE + 9), 5);
	check("the mapping sees write(2)", !memcmp(a + 3 * PAGE + 9, "write", 5), "got %.5s",
	      a + 3 * PAGE + 9);
	EXPECT("msync MS_SYNC", msync(a, 4 * PAGE, MS_SYNC), 0);
	EXPECT("msync MS_ASYNC|MS_SYNC: EINVAL",
	       msync(a, PAGE, MS_ASYNC | MS_SYNC) == -1 ? errno : 0, EINVAL);
	EXPECT("msync of an unaligned address: EINVAL",
	       msync(a + 1, PAGE, MS_SYNC) == -1 ? errno : 0, EINVAL);
	EXPECT("madvise MADV_FREE of a shared mapping: EINVAL",
	       madvise(a, PAGE, MADV_FREE) == -1 ? errno : 0, EINVAL);
	EXPECT("madvise MADV_DONTNEED of a shared mapping", madvise(a, 4 * PAGE, MADV_DONTNEED), 0);
	check("after MADV_DONTNEED the data comes back from the file",
	      !memcmp(a + 2 * PAGE + 100, "shared", 6) && a[0] == 'a', "got %.6s",
	      a + 2 * PAGE + 100);
	EXPECT("munmap", munmap(a, 4 * PAGE), 0);
	a = mmap(NULL, 4 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	check("a new mapping still has the write",
	      a != MAP_FAILED && !memcmp(a + 2 * PAGE + 100, "shared", 6), "errno %s",
	      strerror(errno));
	EXPECT("unlink the mapped file", unlink(FILE_NAME), 0);
	close(fd);
	check("the mapping outlives the name and the fd", a != MAP_FAILED && a[PAGE] == 'b', "%c",
	      a != MAP_FAILED ? a[PAGE] : '?');
	munmap(a, 4 * PAGE);
	munmap(b, 2 * PAGE);
}

static void file_end(void)
{
	int fd = make_file(4);
	char *a = mmap(NULL, 8 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char c = 0;
	unsigned char vec[8];

	if (a == MAP_FAILED) {
		check("mmap past the end of the file", 0, "errno %s", strerror(errno));
		return;
	}
	EXPECT("a read past the end of the file: SIGBUS", read_byte(a + 5 * PAGE, &c), 0);
	EXPECT("ftruncate to 1.5 pages", ftruncate(fd, PAGE + PAGE / 2), 0);
	EXPECT("the last partial page stays readable", read_byte(a + PAGE + 10, &c), 1);
	check("and keeps its data", c == 'b', "%c", c);
	EXPECT("the page after it: SIGBUS", read_byte(a + 2 * PAGE, &c), 0);
	EXPECT("the partial page's tail reads zero", read_byte(a + PAGE + PAGE / 2 + 1, &c), 1);
	check("zero", c == 0, "%d", c);
	EXPECT("ftruncate back to 4 pages", ftruncate(fd, 4 * PAGE), 0);
	EXPECT("the cut pages read again", read_byte(a + 3 * PAGE, &c), 1);
	check("as zeros", c == 0, "%d", c);
	memset(a, 'x', 3 * PAGE);
	EXPECT("punch a hole in page 1",
	       fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, PAGE, PAGE), 0);
	check("the hole reads zero through the mapping, the rest stays",
	      a[PAGE] == 0 && a[2 * PAGE - 1] == 0 && a[0] == 'x' && a[2 * PAGE] == 'x',
	      "%d %d %d %d", a[PAGE], a[2 * PAGE - 1], a[0], a[2 * PAGE]);
	EXPECT("mincore of the mapping", mincore(a, 4 * PAGE, vec), 0);
	check("mincore: the pages in the cache",
	      vec[0] & 1 && vec[1] & 1 && vec[2] & 1 && vec[3] & 1, "%d %d %d %d", vec[0], vec[1],
	      vec[2], vec[3]);
	close(fd);
	unlink(FILE_NAME);
	munmap(a, 8 * PAGE);
}

static void private_mapping(void)
{
	int fd = make_file(4), status = -1;
	char *m = mmap(NULL, 6 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char c = 0, got[4] = { 0 };
	pid_t pid;

	if (m == MAP_FAILED) {
		check("mmap private of a file", 0, "errno %s", strerror(errno));
		return;
	}
	check("a private mapping reads the file", m[0] == 'a' && m[3 * PAGE] == 'd', "%c %c", m[0],
	      m[3 * PAGE]);
	m[PAGE] = 'P';
	check("its write stays its own",
	      pread(fd, got, 1, PAGE) == 1 && got[0] == 'b' && m[PAGE] == 'P', "file %c map %c",
	      got[0], m[PAGE]);
	EXPECT("pwrite to pages 1 and 2",
	       pwrite(fd, "W", 1, PAGE + 1) + pwrite(fd, "W", 1, 2 * PAGE), 2);
	check("a page not yet written sees write(2)", m[2 * PAGE] == 'W', "%c", m[2 * PAGE]);
	check("a copied page does not", m[PAGE + 1] == 'b', "%c", m[PAGE + 1]);
	EXPECT("a private read past the end: SIGBUS", read_byte(m + 5 * PAGE, &c), 0);
	pid = fork();
	if (pid == 0) {
		m[0] = 'C';
		m[PAGE] = 'C';
		_exit(m[0] == 'C' ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	check("a child's private writes are its own",
	      WIFEXITED(status) && WEXITSTATUS(status) == 0 && m[0] == 'a' && m[PAGE] == 'P',
	      "status %d, %c %c", status, m[0], m[PAGE]);
	m[3 * PAGE] = 'Q';
	EXPECT("punch a hole in pages 0 and 3",
	       fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, PAGE) +
		       fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 3 * PAGE, PAGE),
	       0);
	check("the hole shows where the mapping had not written, the copy stays",
	      m[0] == 0 && m[3 * PAGE] == 'Q', "%d %c", m[0], m[3 * PAGE]);
	EXPECT("ftruncate to 1 page", ftruncate(fd, PAGE), 0);
	EXPECT("a copied page past the new end: SIGBUS", read_byte(m + PAGE, &c), 0);
	EXPECT("a page of the file there: SIGBUS", read_byte(m + 2 * PAGE, &c), 0);
	munmap(m, 6 * PAGE);
	close(fd);
	unlink(FILE_NAME);
}

/* The smaps field key (e.g. "ShmemPmdMapped") of the mapping at addr, in
 * kB, or -1. */
static long smaps_kb(const void *addr, const char *key)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[256], start[32];
	size_t n = strlen(key);
	int in = 0;
	long kb = -1;

	snprintf(start, sizeof(start), "%08lx-", (unsigned long)addr);
	while (f && kb < 0 && fgets(line, sizeof(line), f)) {
		if (strchr(line, '-') && strchr(line, '-') < strchr(line, ' ')) /* a VMA's line */
			in = !strncmp(line, start, strlen(start));
		else if (in && !strncmp(line, key, n) && line[n] == ':')
			kb = atol(line + n + 1);
	}
	if (f)
		fclose(f);
	return kb;
}

#define HUGE_DIR "sharedmap-huge"
#define PMD (2l << 20)

/*
 * A PMD-sized tmpfs folio (huge=always) under a 2 MiB-aligned mapping is
 * mapped by one PMD (Linux: do_set_pmd): smaps' ShmemPmdMapped, and
 * /proc/meminfo's counts the folio once however many mappings have it.
 * A private mapping's write copies one page and leaves its PMD mapping;
 * mprotect of one page of the shared one ends its PMD mapping; a forked
 * child maps the folio by its own PMD; MADV_NOHUGEPAGE maps by pages; a
 * truncate splits the folio mapped so (Linux: try_folio_split).
 */
static void pmd_mapping(void)
{
	char *area, *buf = malloc(PMD), *m, *p, got = 0;
	long before = proc_kb("/proc/meminfo", "ShmemPmdMapped"), huge;
	int fd, status = -1;
	pid_t pid;

	mkdir(HUGE_DIR, 0700);
	if (!buf || mount("none", HUGE_DIR, "tmpfs", 0, "huge=always")) {
		check("mount tmpfs huge=always", 0, "errno %s", strerror(errno));
		free(buf);
		return;
	}
	for (long i = 0; i < PMD; i++)
		buf[i] = (char)('a' + i / PAGE % 26);
	fd = open(HUGE_DIR "/f", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	EXPECT("a 2 MiB file on huge=always", write(fd, buf, PMD), PMD);
	free(buf);
	/* Two 2 MiB-aligned slots: the shared mapping, then a private one. */
	area = mmap(NULL, 3 * PMD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		check("mmap 6 MiB to align in", 0, "errno %s", strerror(errno));
		close(fd);
		umount(HUGE_DIR);
		return;
	}
	m = (char *)(((unsigned long)area + PMD - 1) & ~(PMD - 1));
	EXPECT("mmap shared at a 2 MiB boundary",
	       mmap(m, PMD, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == m, 1);
	p = m + PMD;
	EXPECT("mmap private after it",
	       mmap(p, PMD, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, fd, 0) == p, 1);
	check("a read maps the folio by a PMD",
	      m[5 * PAGE] == 'f' && m[300 * PAGE] == 'a' + 300 % 26, "%c", m[5 * PAGE]);
	EXPECT("smaps: ShmemPmdMapped 2048 kB", smaps_kb(m, "ShmemPmdMapped"), 2048);
	EXPECT("smaps: Rss 2048 kB", smaps_kb(m, "Rss"), 2048);
	EXPECT("meminfo: ShmemPmdMapped +2048 kB",
	       proc_kb("/proc/meminfo", "ShmemPmdMapped") - before, 2048);
	check("the private mapping reads it", p[7 * PAGE] == 'h', "%c", p[7 * PAGE]);
	EXPECT("smaps: its ShmemPmdMapped 2048 kB", smaps_kb(p, "ShmemPmdMapped"), 2048);
	EXPECT("meminfo: the folio counts once",
	       proc_kb("/proc/meminfo", "ShmemPmdMapped") - before, 2048);
	p[7 * PAGE] = 'P';
	check("a private write copies the page",
	      pread(fd, &got, 1, 7 * PAGE) == 1 && got == 'h' && p[7 * PAGE] == 'P' &&
		      p[8 * PAGE] == 'i',
	      "file %c", got);
	EXPECT("smaps: the private PMD mapping is gone", smaps_kb(p, "ShmemPmdMapped"), 0);
	EXPECT("smaps: one anonymous page", smaps_kb(p, "Anonymous"), 4);
	m[9 * PAGE] = 'S';
	check("a shared write lands in the file", pread(fd, &got, 1, 9 * PAGE) == 1 && got == 'S',
	      "%c", got);
	pid = fork();
	if (pid == 0)
		_exit(m[10 * PAGE] == 'k' && smaps_kb(m, "ShmemPmdMapped") == 2048 ? 0 : 1);
	waitpid(pid, &status, 0);
	check("a child maps the folio by its own PMD",
	      WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
	EXPECT("mprotect of one page", mprotect(m, PAGE, PROT_READ), 0);
	EXPECT("smaps: no PMD mapping left", smaps_kb(m + PAGE, "ShmemPmdMapped"), 0);
	check("the pages read on", m[20 * PAGE] == 'u' && m[0] == 'a', "%c", m[20 * PAGE]);
	munmap(m, 2 * PMD);
	EXPECT("mmap shared again",
	       mmap(m, PMD, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == m, 1);
	EXPECT("MADV_NOHUGEPAGE", madvise(m, PMD, MADV_NOHUGEPAGE), 0);
	check("reads", m[PAGE] == 'b', "%c", m[PAGE]);
	EXPECT("smaps: MADV_NOHUGEPAGE maps by pages", smaps_kb(m, "ShmemPmdMapped"), 0);
	huge = proc_kb("/proc/meminfo", "ShmemHugePages");
	EXPECT("ftruncate the mapped folio's file to 1 MiB + 100", ftruncate(fd, PMD / 2 + 100), 0);
	EXPECT("meminfo: the mapped folio is split",
	       huge - proc_kb("/proc/meminfo", "ShmemHugePages"), 2048);
	check("its mapping reads on, zeros past the end",
	      m[PAGE] == 'b' && m[256 * PAGE + 99] == 'w' && m[256 * PAGE + 100] == 0, "%c %c %d",
	      m[PAGE], m[256 * PAGE + 99], m[256 * PAGE + 100]);
	munmap(area, 3 * PMD);
	close(fd);
	EXPECT("meminfo: ShmemPmdMapped back", proc_kb("/proc/meminfo", "ShmemPmdMapped") - before,
	       0);
	umount(HUGE_DIR);
	rmdir(HUGE_DIR);
}

static void shared_anon(void)
{
	long before = rss_shmem_kb();
	int *s = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status = -1;
	char c = 0, line[1024];
	pid_t pid;

	if (s == MAP_FAILED || p == MAP_FAILED) {
		check("mmap MAP_SHARED|MAP_ANONYMOUS", 0, "errno %s", strerror(errno));
		return;
	}
	check("shared anonymous memory starts zero", s[0] == 0 && s[16 * PAGE / 4 - 1] == 0, "%d",
	      s[0]);
	maps_line(s, line, sizeof(line));
	check("/proc/self/maps names it /dev/zero (deleted)",
	      maps_line_is(line, "rw-s", "00000000", "/dev/zero (deleted)"), "'%s'", line);
	for (long i = 0; i < 16; i++)
		s[i * PAGE / 4] = 1;
	check("RssShmem counts its 16 pages", rss_shmem_kb() - before == 64, "%ld kB more",
	      rss_shmem_kb() - before);
	s[0] = 1;
	*p = 1;
	pid = fork();
	if (pid == 0) {
		s[0] = 42;
		s[5 * PAGE / 4] = 43;
		*p = 42;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("a forked child's writes to shared memory are seen",
	      s[0] == 42 && s[5 * PAGE / 4] == 43, "%d %d", s[0], s[5 * PAGE / 4]);
	check("and to private memory are not", *p == 1, "%d", *p);
	s = mremap(s, 16 * PAGE, 32 * PAGE, MREMAP_MAYMOVE);
	check("mremap grows it, the data moves along", s != MAP_FAILED && s[0] == 42, "errno %s",
	      strerror(errno));
	if (s != MAP_FAILED) {
		EXPECT("past its original size: SIGBUS", read_byte((char *)s + 20 * PAGE, &c), 0);
		munmap(s, 32 * PAGE);
	}
	check("RssShmem back where it was", rss_shmem_kb() == before, "%ld kB, %ld before",
	      rss_shmem_kb(), before);
	munmap(p, PAGE);
}

/* A /proc/sys/vm file's first line into buf. Return: 0, or -1. */
static int sysctl_read(const char *name, char *buf, size_t size)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	f = fopen(path, "r");
	ok = f && fgets(buf, (int)size, f);
	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

static int sysctl_write(const char *name, const char *value)
{
	char path[96];
	int fd, ok;

	snprintf(path, sizeof(path), "/proc/sys/vm/%s", name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	ok = fd >= 0 && write(fd, value, strlen(value)) == (long)strlen(value);
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/*
 * Under overcommit mode 2 a tmpfs file gets no page Committed_AS cannot
 * take (Linux: shmem_inode_acct_blocks): with CommitLimit 8 MiB above
 * Committed_AS, a 32 MiB write stops short, the next is ENOSPC, pages the
 * file has can still be written, and once the limit is lifted it grows.
 */
static void tmpfs_under_overcommit_never(void)
{
	const long len = 32l << 20;
	char mode[32], ratio[32], kbytes[32], value[32];
	char *buf =
		mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = open(FILE_NAME, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct stat st;
	long n, more, again;

	if (buf == MAP_FAILED || fd < 0 || sysctl_read("overcommit_memory", mode, sizeof(mode)) ||
	    sysctl_read("overcommit_ratio", ratio, sizeof(ratio)) ||
	    sysctl_read("overcommit_kbytes", kbytes, sizeof(kbytes))) {
		check("overcommit 2: the buffer, the file and the sysctls", 0, "errno %s",
		      strerror(errno));
		return;
	}
	memset(buf, 'o', (size_t)len);
	snprintf(value, sizeof(value), "%ld", committed_kb() + 8192);
	if (sysctl_write("overcommit_kbytes", value) || sysctl_write("overcommit_memory", "2")) {
		check("overcommit 2: set", 0, "errno %s", strerror(errno));
	} else {
		n = write(fd, buf, (size_t)len);
		errno = 0;
		more = write(fd, buf, PAGE);
		check("overcommit 2: a 32 MiB tmpfs write stops short of CommitLimit, then ENOSPC",
		      n > 0 && n < len && more == -1 && errno == ENOSPC,
		      "wrote %ld, then %ld (errno %s)", n, more, strerror(errno));
		check("the file is what was written",
		      fstat(fd, &st) == 0 && st.st_size == (n > 0 ? n : 0), "%lld bytes",
		      (long long)st.st_size);
		EXPECT("a page it has can still be written", pwrite(fd, buf, PAGE, 0), PAGE);
	}
	sysctl_write("overcommit_memory", mode);
	sysctl_write(strtol(kbytes, NULL, 10) ? "overcommit_kbytes" : "overcommit_ratio",
		     strtol(kbytes, NULL, 10) ? kbytes : ratio);
	again = pwrite(fd, buf, PAGE, len);
	EXPECT("with the limit lifted it grows", again, PAGE);
	close(fd);
	unlink(FILE_NAME);
	munmap(buf, (size_t)len);
}

/* mmap of /dev/zero (Linux: mmap_zero) is anonymous memory: shared with a
 * forked child through MAP_SHARED (named /dev/zero (deleted), as shared
 * anonymous memory), private with MAP_PRIVATE; both start zero. */
static void dev_zero(void)
{
	int fd = open("/dev/zero", O_RDWR | O_CLOEXEC);
	int *s = MAP_FAILED, *p = MAP_FAILED, status = -1;
	char line[1024];
	pid_t pid;

	if (fd >= 0) {
		s = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	}
	if (s == MAP_FAILED || p == MAP_FAILED) {
		check("mmap of /dev/zero", 0, "errno %s", strerror(errno));
		return;
	}
	check("/dev/zero's mappings start zero", !s[0] && !s[2 * PAGE / 4 - 1] && !p[PAGE / 4],
	      "%d %d %d", s[0], s[2 * PAGE / 4 - 1], p[PAGE / 4]);
	maps_line(s, line, sizeof(line));
	check("MAP_SHARED of /dev/zero is named /dev/zero (deleted)",
	      maps_line_is(line, "rw-s", "00000000", "/dev/zero (deleted)"), "'%s'", line);
	pid = fork();
	if (pid == 0) {
		s[PAGE / 4] = 7;
		p[PAGE / 4] = 7;
		_exit(0);
	}
	waitpid(pid, &status, 0);
	check("a child's write to MAP_SHARED /dev/zero is seen, to MAP_PRIVATE not",
	      s[PAGE / 4] == 7 && p[PAGE / 4] == 0, "%d %d", s[PAGE / 4], p[PAGE / 4]);
	munmap(s, 2 * PAGE);
	munmap(p, 2 * PAGE);
	close(fd);
}

/* futex(2)'s operations (Linux: include/uapi/linux/futex.h; musl has no
 * <linux/futex.h>). */
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_PRIVATE_FLAG 128

static long futex(volatile int *word, int op, int val, long timeout_ms)
{
	struct timespec ts = { timeout_ms / 1000, timeout_ms % 1000 * 1000000 };

	return syscall(SYS_futex, word, op, val, timeout_ms ? &ts : NULL, NULL, 0);
}

/* Is @pid asleep ('S' in /proc/PID/stat), within 2 s? */
static int sleeping(pid_t pid)
{
	char path[64], buf[512], *state;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	for (int i = 0; i < 2000; i++) {
		FILE *f = fopen(path, "r");
		size_t n = f ? fread(buf, 1, sizeof(buf) - 1, f) : 0;

		if (f)
			fclose(f);
		buf[n] = 0;
		state = strrchr(buf, ')');
		if (state && state[1] == ' ' && state[2] == 'S')
			return 1;
		usleep(1000);
	}
	return 0;
}

/* A forked child waits (@op: FUTEX_WAIT, maybe private) on @wait_at
 * holding 0 for at most 300 ms; once it sleeps, the parent wakes every
 * waiter at @wake_at (the same op's wake). Return: how many the wake
 * woke (-1: the child never slept), and in *child what its wait gave:
 * 0 woken, 2 timed out, 3 another error. */
static long wake_a_waiting_child(volatile int *wait_at, volatile int *wake_at, int op, int *child)
{
	int status = -1;
	long woken = -1;
	pid_t pid = fork();

	if (pid == 0) {
		long r = futex(wait_at, FUTEX_WAIT | op, 0, 300);

		_exit(r == 0 ? 0 : errno == ETIMEDOUT ? 2 : 3);
	}
	if (pid > 0 && sleeping(pid))
		woken = futex(wake_at, FUTEX_WAKE | op, 1 << 30, 0);
	if (pid > 0)
		waitpid(pid, &status, 0);
	*child = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return woken;
}

/*
 * Shared futexes (Linux: get_futex_key) meet on the page under the word,
 * so processes mapping the same page wake each other: shared anonymous
 * memory across fork, a memfd mapped at two addresses, a file's page
 * cache under a read-only private mapping and a shared one. A private
 * futex, a private writable file mapping (the wait's write fault makes
 * the child its own copy) and private anonymous memory are per process.
 * A shared futex on a read-only anonymous page (the zero page) is EFAULT.
 */
static void shared_futex(void)
{
	int *s = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	int *p = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int *ro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int mfd = memfd_create("sharedmap-futex", MFD_CLOEXEC);
	int fd = make_file(1);
	int *a = MAP_FAILED, *b = MAP_FAILED, *fshared = MAP_FAILED, *fro = MAP_FAILED,
	    *frw = MAP_FAILED;
	int child = -1;
	long woken;

	if (mfd >= 0 && ftruncate(mfd, PAGE) == 0) {
		a = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
		b = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	}
	if (fd >= 0) {
		fshared = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		fro = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, fd, 0);
		frw = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	}
	if (s == MAP_FAILED || p == MAP_FAILED || ro == MAP_FAILED || a == MAP_FAILED ||
	    b == MAP_FAILED || fshared == MAP_FAILED || fro == MAP_FAILED || frw == MAP_FAILED) {
		check("futex: the mappings", 0, "errno %s", strerror(errno));
		return;
	}
	fshared[4] = 0; /* the file is 'a's: the word waited on holds 0 */

	woken = wake_a_waiting_child(&s[1], &s[1], 0, &child);
	check("futex in shared anonymous memory: the parent wakes its child", woken == 1 && !child,
	      "woke %ld, child %d", woken, child);
	woken = wake_a_waiting_child(&s[1], &s[1], FUTEX_PRIVATE_FLAG, &child);
	check("a private futex there is the child's own", woken == 0 && child == 2,
	      "woke %ld, child %d", woken, child);
	woken = wake_a_waiting_child(&a[2], &b[2], 0, &child);
	check("a memfd mapped twice: a wait at one address, the wake at the other",
	      woken == 1 && !child, "woke %ld, child %d", woken, child);
	woken = wake_a_waiting_child(&fro[4], &fshared[4], 0, &child);
	check("a read-only private file mapping waits on the file's page", woken == 1 && !child,
	      "woke %ld, child %d", woken, child);
	woken = wake_a_waiting_child(&frw[4], &fshared[4], 0, &child);
	check("a writable private one on its own copy", woken == 0 && child == 2,
	      "woke %ld, child %d", woken, child);
	woken = wake_a_waiting_child(&p[3], &p[3], 0, &child);
	check("private anonymous memory: each process's own", woken == 0 && child == 2,
	      "woke %ld, child %d", woken, child);
	errno = 0;
	woken = futex(&ro[5], FUTEX_WAKE, 1, 0);
	check("a shared futex on a read-only anonymous page: EFAULT",
	      woken == -1 && errno == EFAULT, "got %ld (errno %s)", woken, strerror(errno));
	EXPECT("a private one there: 0 woken", futex(&ro[5], FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, 0),
	       0);
	munmap(s, PAGE);
	munmap(p, PAGE);
	munmap(ro, PAGE);
	munmap(a, PAGE);
	munmap(b, PAGE);
	munmap(fshared, PAGE);
	munmap(fro, PAGE);
	munmap(frw, PAGE);
	close(mfd);
	close(fd);
	unlink(FILE_NAME);
}

static void madv_remove(void)
{
	int fd = make_file(4);
	long before = rss_shmem_kb();
	char *a = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char *p = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	char *anon =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char *priv = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *huge;
	char buf[PAGE];
	struct stat st;

	if (a == MAP_FAILED || p == MAP_FAILED || anon == MAP_FAILED || priv == MAP_FAILED) {
		check("MADV_REMOVE: the mappings", 0, "errno %s", strerror(errno));
		return;
	}
	for (long i = 0; i < 4; i++)
		a[i * PAGE] = 'A' + (char)i;
	check("RssShmem counts the 4 mapped pages", rss_shmem_kb() - before == 16, "%ld kB more",
	      rss_shmem_kb() - before);
	EXPECT("MADV_REMOVE of 2 pages of a shared file mapping",
	       madvise(a + PAGE, 2 * PAGE, MADV_REMOVE), 0);
	check("RssShmem drops by the 2 pages", rss_shmem_kb() - before == 8, "%ld kB more",
	      rss_shmem_kb() - before);
	check("the range reads zero through the mapping, the rest stays",
	      a[PAGE] == 0 && a[3 * PAGE - 1] == 0 && a[0] == 'A' && a[3 * PAGE] == 'D',
	      "%d %d %d %d", a[PAGE], a[3 * PAGE - 1], a[0], a[3 * PAGE]);
	check("and through read(2)",
	      pread(fd, buf, PAGE, 2 * PAGE) == PAGE && buf[0] == 0 && buf[PAGE - 1] == 0, "'%c'",
	      buf[0]);
	check("the file keeps its size", fstat(fd, &st) == 0 && st.st_size == 4 * PAGE, "%lld",
	      (long long)st.st_size);
	EXPECT("MADV_REMOVE of a private file mapping: EACCES",
	       madvise(p, PAGE, MADV_REMOVE) == -1 ? errno : 0, EACCES);
	EXPECT("MADV_REMOVE of private anonymous memory: EINVAL",
	       madvise(priv, PAGE, MADV_REMOVE) == -1 ? errno : 0, EINVAL);
	huge = mmap(NULL, 2 << 20, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_NORESERVE, -1, 0);
	if (huge == MAP_FAILED) {
		check("mmap MAP_HUGETLB|MAP_NORESERVE", 0, "errno %s", strerror(errno));
	} else {
		EXPECT("MADV_REMOVE of a private HugeTLB mapping: EACCES (its file is not shared)",
		       madvise(huge, 2 << 20, MADV_REMOVE) == -1 ? errno : 0, EACCES);
		munmap(huge, 2 << 20);
	}
	anon[0] = 'x';
	anon[PAGE] = 'y';
	EXPECT("MADV_REMOVE of shared anonymous memory", madvise(anon, PAGE, MADV_REMOVE), 0);
	check("its page reads zero, the next stays", anon[0] == 0 && anon[PAGE] == 'y', "%d %d",
	      anon[0], anon[PAGE]);
	if (mlock(a, PAGE) == 0) {
		EXPECT("MADV_REMOVE of a locked mapping: EINVAL",
		       madvise(a, PAGE, MADV_REMOVE) == -1 ? errno : 0, EINVAL);
		munlock(a, PAGE);
	}
	munmap(a, 4 * PAGE);
	munmap(p, 4 * PAGE);
	munmap(anon, 2 * PAGE);
	munmap(priv, PAGE);
	close(fd);
	unlink(FILE_NAME);
}

static void errors(void)
{
	int fd = make_file(1), ro = open(FILE_NAME, O_RDONLY | O_CLOEXEC), pipefd[2];
	char *a;

	errno = 0;
	a = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
	EXPECT("mmap shared writable of a read-only fd: EACCES", a == MAP_FAILED ? errno : 0,
	       EACCES);
	a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, ro, 0);
	check("mmap shared read-only of it", a != MAP_FAILED, "errno %s", strerror(errno));
	if (a != MAP_FAILED) {
		EXPECT("mprotect PROT_WRITE of it: EACCES",
		       mprotect(a, PAGE, PROT_READ | PROT_WRITE) == -1 ? errno : 0, EACCES);
		munmap(a, PAGE);
	}
	a = mmap(NULL, PAGE, PROT_READ, MAP_PRIVATE, ro, 0);
	check("mmap private of it, then mprotect PROT_WRITE",
	      a != MAP_FAILED && mprotect(a, PAGE, PROT_READ | PROT_WRITE) == 0, "errno %s",
	      strerror(errno));
	if (a != MAP_FAILED)
		munmap(a, PAGE);
	if (pipe(pipefd) == 0) {
		a = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, pipefd[0], 0);
		EXPECT("mmap shared of a pipe: ENODEV", a == MAP_FAILED ? errno : 0, ENODEV);
		close(pipefd[0]);
		close(pipefd[1]);
	}
	a = mmap(NULL, 0, PROT_READ, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	EXPECT("mmap shared anonymous of length 0: EINVAL", a == MAP_FAILED ? errno : 0, EINVAL);
	close(ro);
	close(fd);
	unlink(FILE_NAME);
}

int main(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO };

	setvbuf(stdout, NULL, _IOLBF, 0);
	sigaction(SIGBUS, &sa, NULL);
	if (access("/dev/zero", F_OK)) { /* Linux's initramfs: no devtmpfs yet */
		mkdir("/dev", 0755);
		mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	}
	file_visibility();
	file_end();
	private_mapping();
	pmd_mapping();
	shared_anon();
	dev_zero();
	madv_remove();
	committed_as();
	tmpfs_under_overcommit_never();
	shared_futex();
	errors();
	return check_summary("sharedmap");
}
