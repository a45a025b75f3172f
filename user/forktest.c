/*
 * /bin/forktest [CYCLES]: fork as Linux does it, checked from ring 3 the
 * same way on Linux and on Folium. 64 children each write their pid
 * through one pipe and exit with their number; every anonymous folio
 * size the kernel offers (4K, each anonymous mTHP size in
 * /sys/kernel/mm/transparent_hugepage/hugepages-*kB, 2M mapped by a PMD
 * and 2M mapped by PTEs) is copied on write: parent and child each see
 * only their own writes, whichever writes first; the zero page stays
 * zero in both; for each size pagemap's exclusive bit is set before
 * fork, clear in both while both map the folio, set again after the
 * child's exit, when the parent's write reuses the folio (no page moves),
 * and kpageflags show one folio (a compound head, tails, THP); a
 * MADV_DONTFORK range is absent in the child, a MADV_WIPEONFORK one
 * reads zeros; then CYCLES (1000) fork + exit + wait and CYCLES / 10
 * fork + exec + wait. Prints "ok NAME" or "FAIL NAME: ..." a line, then
 * "forktest: N checks, all ok" (exit 0) or "forktest: K of N checks
 * FAILED" (exit 1). The THP settings it changes are put back.
 * Example: a 64K folio written with 'p' by the parent: after fork the
 * child writes 'c' over its first page; the parent still reads 'p'
 * there, the child 'c', and both read 'p' on the other 15 pages.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define THP "/sys/kernel/mm/transparent_hugepage"
#define PAGE 4096ul
#define SZ_2M (2ul << 20)
#define NR_CHILDREN 64

static void cond(const char *name, int ok, const char *detail)
{
	check(name, ok, "%s", detail);
}

/* --- 64 children through one pipe -------------------------------------------- */

static void check_many_children(void)
{
	pid_t pids[NR_CHILDREN], got[NR_CHILDREN];
	int fds[2], bad_status = 0, distinct = 1, matched = 0;
	ssize_t n, len = 0;

	if (pipe(fds)) {
		cond("pipe", 0, strerror(errno));
		return;
	}
	for (int i = 0; i < NR_CHILDREN; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			pid_t me = getpid();

			close(fds[0]);
			_exit(write(fds[1], &me, sizeof(me)) == sizeof(me) ? i : 255);
		}
		if (pids[i] < 0) {
			cond("fork of 64 children", 0, strerror(errno));
			return;
		}
	}
	close(fds[1]);
	while ((n = read(fds[0], (char *)got + len, sizeof(got) - len)) > 0)
		len += n;
	close(fds[0]);
	for (int i = 0; i < NR_CHILDREN; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != i)
			bad_status++;
		for (int j = 0; j < NR_CHILDREN; j++)
			if (got[j] == pids[i])
				matched++;
		for (int j = 0; j < i; j++)
			if (pids[j] == pids[i])
				distinct = 0;
	}
	cond("64 children each wrote their pid through the pipe",
	     len == sizeof(got) && matched == NR_CHILDREN && distinct, "pids missing");
	cond("64 children reaped with their exit codes", !bad_status, "bad statuses");
	cond("no child left", waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD, "a child left");
}

/* --- copy on write, per folio size ------------------------------------------------- */

/* Read or write a sysfs file; "" when it cannot be read. */
static void sysfs_read(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, size - 1);

	buf[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
}

static int sysfs_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, val, strlen(val)) == (ssize_t)strlen(val);

	if (!ok)
		printf("  %s <- %s: %s\n", path, val, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ok ? 0 : -1;
}

/* The word in [brackets] of a sysfs choice file. */
static void sysfs_choice(const char *path, char *out, size_t size)
{
	char buf[256], *l, *r;

	sysfs_read(path, buf, sizeof(buf));
	l = strchr(buf, '[');
	r = l ? strchr(l, ']') : NULL;
	out[0] = 0;
	if (l && r && (size_t)(r - l - 1) < size) {
		memcpy(out, l + 1, r - l - 1);
		out[r - l - 1] = 0;
	}
}

static int sizes_kb[16], nr_sizes;
static char saved_top[32], saved_size[16][32];

static void find_sizes(void)
{
	DIR *d = opendir(THP);
	struct dirent *e;

	while (d && (e = readdir(d)) && nr_sizes < 16) {
		char path[300];
		int kb;

		/* Linux 7.3 lists sizes only shmem has (8K): no "enabled". */
		snprintf(path, sizeof(path), THP "/%s/enabled", e->d_name);
		if (sscanf(e->d_name, "hugepages-%dkB", &kb) == 1 && access(path, W_OK) == 0)
			sizes_kb[nr_sizes++] = kb;
	}
	if (d)
		closedir(d);
	for (int i = 0; i < nr_sizes; i++)
		for (int j = i + 1; j < nr_sizes; j++)
			if (sizes_kb[j] < sizes_kb[i]) {
				int t = sizes_kb[i];

				sizes_kb[i] = sizes_kb[j];
				sizes_kb[j] = t;
			}
	sysfs_choice(THP "/enabled", saved_top, sizeof(saved_top));
	for (int i = 0; i < nr_sizes; i++) {
		char path[128];

		snprintf(path, sizeof(path), THP "/hugepages-%dkB/enabled", sizes_kb[i]);
		sysfs_choice(path, saved_size[i], sizeof(saved_size[i]));
	}
}

/* Only @kb (0: none, 4K pages) enabled, as "always". */
static int thp_only(int kb)
{
	int err = sysfs_write(THP "/enabled", kb ? "always" : "never");

	for (int i = 0; i < nr_sizes; i++) {
		char path[128];

		snprintf(path, sizeof(path), THP "/hugepages-%dkB/enabled", sizes_kb[i]);
		err |= sysfs_write(path, sizes_kb[i] == kb ? "always" : "never");
	}
	return err;
}

static void thp_restore(void)
{
	if (saved_top[0])
		sysfs_write(THP "/enabled", saved_top);
	for (int i = 0; i < nr_sizes; i++) {
		char path[128];

		snprintf(path, sizeof(path), THP "/hugepages-%dkB/enabled", sizes_kb[i]);
		if (saved_size[i][0])
			sysfs_write(path, saved_size[i]);
	}
}

/* Every byte of each page of [p, +len) is @want, except the first page,
 * @first. */
static int region_is(const char *p, size_t len, char first, char want)
{
	for (size_t off = 0; off < len; off += PAGE)
		for (size_t i = 0; i < PAGE; i += 512)
			if (p[off + i] != (off == 0 ? first : want))
				return 0;
	return 1;
}

/*
 * One folio of @len bytes at a 2M-aligned address, written with 'p'.
 * After fork one side writes its letter over the first page, then the
 * other side writes its own over the first page too; each must see its
 * own letter there and 'p' everywhere else. @child_first says who writes
 * first; @pte_mapped splits a 2M PMD mapping into PTEs first (mprotect
 * of one page and back).
 */
static int cow_round(size_t len, int child_first, int pte_mapped)
{
	char *raw =
		mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p = (char *)(((uintptr_t)raw + SZ_2M - 1) & ~(SZ_2M - 1));
	int to_child[2], to_parent[2], status = -1, ok;
	char go = 'g';
	pid_t pid;

	if (raw == MAP_FAILED || pipe(to_child) || pipe(to_parent))
		return 0;
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 'p', len);
	if (pte_mapped) {
		mprotect(p + PAGE, PAGE, PROT_READ);
		mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE);
	}
	pid = fork();
	if (pid == 0) {
		if (child_first) {
			p[0] = 'c';
			memset(p, 'c', PAGE);
			write(to_parent[1], &go, 1);
			read(to_child[0], &go, 1);
		} else {
			read(to_child[0], &go, 1);
			memset(p, 'c', PAGE);
		}
		_exit(region_is(p, len, 'c', 'p') ? 0 : 1);
	}
	if (child_first) {
		read(to_parent[0], &go, 1);
		memset(p, 'P', PAGE);
		write(to_child[1], &go, 1);
	} else {
		memset(p, 'P', PAGE);
		write(to_child[1], &go, 1);
	}
	waitpid(pid, &status, 0);
	ok = region_is(p, len, 'P', 'p') && WIFEXITED(status) && WEXITSTATUS(status) == 0;
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
	munmap(raw, len + SZ_2M);
	return ok;
}

static void check_cow(void)
{
	char name[96];

	find_sizes();
	for (int i = -1; i < nr_sizes; i++) {
		int kb = i < 0 ? 0 : sizes_kb[i];
		size_t len = kb ? (size_t)kb << 10 : 16 * PAGE;

		if (thp_only(kb)) {
			snprintf(name, sizeof(name), "THP settings for %dK", kb ? kb : 4);
			cond(name, 0, "cannot write /sys/kernel/mm/transparent_hugepage");
			continue;
		}
		for (int first = 0; first < 2; first++) {
			snprintf(name, sizeof(name), "COW of %dK folios, %s writes first",
				 kb ? kb : 4, first ? "the child" : "the parent");
			cond(name, cow_round(len, first, 0), "a side saw the other's write");
		}
		if (kb == 2048) {
			snprintf(name, sizeof(name), "COW of a PTE-mapped 2048K folio");
			cond(name, cow_round(len, 1, 1), "a side saw the other's write");
		}
	}
	thp_restore();

	/* Never-written memory reads zero on both sides after either writes. */
	char *z = mmap(NULL, 16 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int zero = 1, status = -1;
	pid_t pid;

	for (size_t i = 0; i < 16 * PAGE; i += PAGE)
		zero &= z[i] == 0; /* read faults: the zero page */
	pid = fork();
	if (pid == 0) {
		z[0] = 1;
		_exit(z[PAGE] == 0 && z[0] == 1 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	cond("the zero page stays zero in the parent after the child writes",
	     zero && z[0] == 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0, "not zero");
	munmap(z, 16 * PAGE);
}

/* --- what fork does to a folio's state: pagemap, kpageflags, reuse --------------- */

#define PM_PFN_MASK ((1ull << 55) - 1)
#define PM_MMAP_EXCLUSIVE (1ull << 56)
#define PM_PRESENT (1ull << 63)
#define KPF_COMPOUND_HEAD (1ull << 15)
#define KPF_COMPOUND_TAIL (1ull << 16)
#define KPF_THP (1ull << 22)

/* The pagemap entries of the @n pages from @p into @pme. Return: 0, or
 * -1 if pagemap cannot be read. */
static int pagemap_read(const char *p, size_t n, uint64_t *pme)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	size_t bytes = n * sizeof(*pme);
	ssize_t got = fd < 0 ? -1 : pread(fd, pme, bytes, (off_t)((uintptr_t)p / PAGE * 8));

	if (fd >= 0)
		close(fd);
	return got == (ssize_t)bytes ? 0 : -1;
}

/* How many of the @n pages from @p are present and exclusive (@excl) or
 * present and not exclusive (!@excl); -1 if pagemap is unreadable. */
static long count_exclusive(const char *p, size_t n, int excl, uint64_t *pme)
{
	long count = 0;

	if (pagemap_read(p, n, pme))
		return -1;
	for (size_t i = 0; i < n; i++)
		count += (pme[i] & PM_PRESENT) && !!(pme[i] & PM_MMAP_EXCLUSIVE) == excl;
	return count;
}

/* Do the @n pages' kpageflags say one folio (a head and tails, all THP),
 * or for n == 1 a small one (neither)? -1 if kpageflags is unreadable. */
static int kpageflags_say_one_folio(const uint64_t *pme, size_t n)
{
	int fd = open("/proc/kpageflags", O_RDONLY), ok = 1;

	if (fd < 0)
		return -1;
	for (size_t i = 0; i < n && ok; i++) {
		uint64_t f = 0, want = n == 1	? 0
				       : i == 0 ? KPF_COMPOUND_HEAD | KPF_THP
						: KPF_COMPOUND_TAIL | KPF_THP;

		if (pread(fd, &f, 8, (off_t)((pme[i] & PM_PFN_MASK) * 8)) != 8)
			ok = -1;
		else
			ok = (f & (KPF_COMPOUND_HEAD | KPF_COMPOUND_TAIL | KPF_THP)) == want;
	}
	close(fd);
	return ok;
}

/*
 * One folio of @len bytes (PTE-mapped if @pte_mapped, as cow_round):
 * pagemap's exclusive bit is set on every page before fork, clear on
 * every page in parent and child while both map it, set again once the
 * child has exited; kpageflags show one folio of that size; and the
 * parent's write after the child's exit reuses the folio (every page
 * keeps its pfn, Linux's wp_can_reuse_anon_folio) instead of copying.
 */
static void fork_state_round(const char *size, size_t len, int pte_mapped)
{
	size_t n = len / PAGE;
	char *raw =
		mmap(NULL, len + SZ_2M, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *p = (char *)(((uintptr_t)raw + SZ_2M - 1) & ~(SZ_2M - 1));
	uint64_t *before = calloc(n, 8), *pme = calloc(n, 8);
	int to_child[2], status = -1, moved = 0;
	char name[128], go = 'g';
	long got;
	pid_t pid;

	if (raw == MAP_FAILED || !before || !pme || pipe(to_child)) {
		snprintf(name, sizeof(name), "fork state of %s folios", size);
		cond(name, 0, "no memory or pipe");
		return;
	}
	madvise(p, len, MADV_HUGEPAGE);
	memset(p, 'p', len);
	if (pte_mapped) {
		mprotect(p + PAGE, PAGE, PROT_READ);
		mprotect(p + PAGE, PAGE, PROT_READ | PROT_WRITE);
	}
	got = count_exclusive(p, n, 1, before);
	snprintf(name, sizeof(name), "%s: every page exclusive before fork", size);
	check(name, got == (long)n, "%ld of %zu", got, n);
	snprintf(name, sizeof(name), "%s: kpageflags show one folio", size);
	check(name, kpageflags_say_one_folio(before, n) == 1, "flags differ (or not root)");
	pid = fork();
	if (pid == 0) {
		/* exit 0: every page shared, the parent's pfns */
		int ok = count_exclusive(p, n, 0, pme) == (long)n;

		for (size_t i = 0; i < n; i++)
			ok &= (pme[i] & PM_PFN_MASK) == (before[i] & PM_PFN_MASK);
		read(to_child[0], &go, 1);
		_exit(ok ? 0 : 1);
	}
	got = count_exclusive(p, n, 0, pme);
	snprintf(name, sizeof(name), "%s: no page exclusive while the child maps it", size);
	check(name, got == (long)n, "%ld of %zu", got, n);
	write(to_child[1], &go, 1);
	waitpid(pid, &status, 0);
	snprintf(name, sizeof(name), "%s: the child sees every page shared, same pfns", size);
	check(name, WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	got = count_exclusive(p, n, 1, pme);
	snprintf(name, sizeof(name), "%s: every page exclusive again after the child's exit", size);
	check(name, got == (long)n, "%ld of %zu", got, n);
	p[n > 1 ? PAGE + 7 : 7] = 'w';
	got = count_exclusive(p, n, 1, pme);
	for (size_t i = 0; i < n; i++)
		moved += (pme[i] & PM_PFN_MASK) != (before[i] & PM_PFN_MASK);
	snprintf(name, sizeof(name), "%s: the write after the child's exit reuses the folio", size);
	check(name, got == (long)n && !moved && p[n > 1 ? PAGE + 7 : 7] == 'w' && p[8] == 'p',
	      "%d pages moved, %ld exclusive", moved, got);
	close(to_child[0]);
	close(to_child[1]);
	free(before);
	free(pme);
	munmap(raw, len + SZ_2M);
}

/* MADV_DONTFORK: the range is not in the child (mincore says ENOMEM);
 * MADV_WIPEONFORK: the child reads zeros; the parent keeps both. */
static void check_dontfork_and_wipeonfork(void)
{
	char *keep =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *wipe =
		mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status = -1;
	pid_t pid;

	if (keep == MAP_FAILED || wipe == MAP_FAILED) {
		cond("MADV_DONTFORK and MADV_WIPEONFORK", 0, "mmap failed");
		return;
	}
	memset(keep, 'k', 2 * PAGE);
	memset(wipe, 'w', 2 * PAGE);
	EXPECT("MADV_DONTFORK", madvise(keep, 2 * PAGE, MADV_DONTFORK), 0);
	EXPECT("MADV_WIPEONFORK", madvise(wipe, 2 * PAGE, MADV_WIPEONFORK), 0);
	pid = fork();
	if (pid == 0) {
		unsigned char vec[2];
		int absent = mincore(keep, 2 * PAGE, vec) == -1 && errno == ENOMEM;
		int zero = wipe[0] == 0 && wipe[PAGE + 5] == 0;

		_exit((absent ? 0 : 1) | (zero ? 0 : 2));
	}
	waitpid(pid, &status, 0);
	check("a MADV_DONTFORK range is absent in the child",
	      WIFEXITED(status) && !(WEXITSTATUS(status) & 1), "status %#x", status);
	check("a MADV_WIPEONFORK range reads zeros in the child",
	      WIFEXITED(status) && !(WEXITSTATUS(status) & 2), "status %#x", status);
	check("the parent keeps both ranges' bytes", keep[PAGE] == 'k' && wipe[PAGE] == 'w',
	      "%c %c", keep[PAGE], wipe[PAGE]);
	munmap(keep, 2 * PAGE);
	munmap(wipe, 2 * PAGE);
}

/* After check_cow, which found the sizes. */
static void check_fork_state(void)
{
	char size[32];

	for (int i = -1; i < nr_sizes; i++) {
		int kb = i < 0 ? 0 : sizes_kb[i];

		if (thp_only(kb))
			continue; /* check_cow said so */
		snprintf(size, sizeof(size), "%dK", kb ? kb : 4);
		fork_state_round(size, kb ? (size_t)kb << 10 : PAGE, 0);
		if (kb == 2048)
			fork_state_round("PTE-mapped 2048K", SZ_2M, 1);
	}
	thp_restore();
}

/* --- many cycles ---------------------------------------------------------------------- */

static void check_cycles(const char *self, int cycles)
{
	char *argv[] = { (char *)"forktest", (char *)"exit", NULL };
	int bad = 0;

	for (int i = 0; i < cycles; i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0)
			_exit(7);
		if (pid < 0 || waitpid(pid, &status, 0) != pid || WEXITSTATUS(status) != 7)
			bad++;
	}
	cond("fork + exit + wait cycles", !bad, "a cycle failed");
	bad = 0;
	for (int i = 0; i < cycles / 10; i++) {
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			execv(self, argv);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || WEXITSTATUS(status) != 9)
			bad++;
	}
	cond("fork + exec + wait cycles", !bad, "a cycle failed");
}

int main(int argc, char **argv)
{
	const char *self = argv[0][0] == '/' ? argv[0] : "/bin/forktest";
	int cycles = 1000;

	if (argc > 1 && !strcmp(argv[1], "exit"))
		return 9;
	if (argc > 1)
		cycles = atoi(argv[1]);
	setvbuf(stdout, NULL, _IONBF, 0);
	check_many_children();
	check_cow();
	check_fork_state();
	check_dontfork_and_wipeonfork();
	check_cycles(self, cycles);
	return check_summary("forktest");
}
