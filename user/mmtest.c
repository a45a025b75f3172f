/*
 * /bin/mmtest: the memory system calls from a real program, one line per
 * check ("mmtest: NAME ok" or "... FAILED"), exit status 1 on any failure.
 * Accesses that must fault are /bin/mmfault's: a fault ends the program.
 * MADV_FREE'd pages may read back old data or zeros: user space cannot
 * trigger reclaim yet, so both are accepted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define PAGE 4096ul
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)
#define RW (PROT_READ | PROT_WRITE)

static int failed;

static void check(const char *name, int ok)
{
	printf("mmtest: %s %s\n", name, ok ? "ok" : "FAILED");
	failed |= !ok;
}

static int all_bytes(const char *p, size_t len, char byte)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != byte)
			return 0;
	return 1;
}

static void round_trip(void)
{
	char *p = mmap(NULL, 4 * PAGE, RW, ANON, -1, 0);

	check("mmap gives zeroed memory", p != MAP_FAILED && all_bytes(p, 4 * PAGE, 0));
	if (p == MAP_FAILED)
		return;
	memset(p, 0x5a, 4 * PAGE);
	check("written memory reads back", all_bytes(p, 4 * PAGE, 0x5a));
	check("munmap", munmap(p, 4 * PAGE) == 0);
	check("munmap of nothing", munmap(p, 4 * PAGE) == 0);
	check("munmap unaligned is EINVAL", munmap(p + 1, PAGE) == -1 && errno == EINVAL);
	check("mmap length 0 is EINVAL",
	      mmap(NULL, 0, RW, ANON, -1, 0) == MAP_FAILED && errno == EINVAL);
	check("mmap of a file is EBADF",
	      mmap(NULL, PAGE, RW, MAP_PRIVATE, 9, 0) == MAP_FAILED && errno == EBADF);
}

static void fixed(void)
{
	char *p = mmap(NULL, 2 * PAGE, RW, ANON, -1, 0), *q;

	if (p == MAP_FAILED) {
		check("mmap for MAP_FIXED", 0);
		return;
	}
	q = mmap(p + PAGE, PAGE, RW, ANON | MAP_FIXED_NOREPLACE, -1, 0);
	check("MAP_FIXED_NOREPLACE over a mapping is EEXIST", q == MAP_FAILED && errno == EEXIST);
	p[PAGE] = 1;
	q = mmap(p + PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0);
	check("MAP_FIXED replaces the page", q == p + PAGE && q[0] == 0);
	check("MAP_FIXED unaligned is EINVAL",
	      mmap(p + 1, PAGE, RW, ANON | MAP_FIXED, -1, 0) == MAP_FAILED && errno == EINVAL);
	q = mmap(NULL, 8 * PAGE, RW, ANON | MAP_POPULATE, -1, 0);
	check("MAP_POPULATE", q != MAP_FAILED && all_bytes(q, 8 * PAGE, 0));
	munmap(q, 8 * PAGE);
	munmap(p, 2 * PAGE);
}

static void protect(void)
{
	char *p = mmap(NULL, 4 * PAGE, RW, ANON, -1, 0);

	if (p == MAP_FAILED) {
		check("mmap for mprotect", 0);
		return;
	}
	memset(p, 3, 4 * PAGE);
	check("mprotect read-only", mprotect(p + PAGE, 2 * PAGE, PROT_READ) == 0);
	check("read-only pages read", all_bytes(p + PAGE, 2 * PAGE, 3));
	check("mprotect PROT_NONE", mprotect(p, PAGE, PROT_NONE) == 0);
	check("mprotect back to read-write", mprotect(p, 4 * PAGE, RW) == 0);
	memset(p, 4, 4 * PAGE);
	check("writes after mprotect", all_bytes(p, 4 * PAGE, 4));
	/* musl's mprotect rounds start down: ask the kernel directly. */
	check("mprotect unaligned is EINVAL",
	      syscall(SYS_mprotect, p + 1, PAGE, PROT_READ) == -1 && errno == EINVAL);
	munmap(p + 2 * PAGE, PAGE);
	check("mprotect over a hole is ENOMEM",
	      mprotect(p, 4 * PAGE, PROT_READ) == -1 && errno == ENOMEM);
	munmap(p, 4 * PAGE);
}

static void advise(void)
{
	char *p = mmap(NULL, 4 * PAGE, RW, ANON, -1, 0);

	if (p == MAP_FAILED) {
		check("mmap for madvise", 0);
		return;
	}
	memset(p, 6, 4 * PAGE);
	check("MADV_DONTNEED", madvise(p, 2 * PAGE, MADV_DONTNEED) == 0);
	check("MADV_DONTNEED pages read zeros", all_bytes(p, 2 * PAGE, 0));
	check("MADV_FREE", madvise(p + 2 * PAGE, 2 * PAGE, MADV_FREE) == 0);
	check("MADV_FREE pages read old data or zeros",
	      all_bytes(p + 2 * PAGE, PAGE, 6) || all_bytes(p + 2 * PAGE, PAGE, 0));
	p[3 * PAGE] = 8;
	check("MADV_FREE then a write keeps the data",
	      p[3 * PAGE] == 8 && all_bytes(p + 3 * PAGE + 1, PAGE - 1, 6));
	check("MADV_WILLNEED, MADV_HUGEPAGE accepted",
	      madvise(p, 4 * PAGE, MADV_WILLNEED) == 0 && madvise(p, 4 * PAGE, MADV_HUGEPAGE) == 0);
	check("unknown advice is EINVAL", madvise(p, PAGE, 1000) == -1 && errno == EINVAL);
	munmap(p, 4 * PAGE);
}

int main(void)
{
	round_trip();
	fixed();
	protect();
	advise();
	printf("mmtest: %s\n", failed ? "FAILED" : "all ok");
	return failed;
}
