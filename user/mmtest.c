/*
 * /bin/mmtest [reclaim | hugetlb1g]: the memory system calls from a real program, one
 * line per check ("mmtest: NAME ok" or "... FAILED"), exit status 1 on any
 * failure. MADV_FREE'd pages may read back old data or zeros until reclaim
 * takes them; with "reclaim" (or MMTEST_RECLAIM=1) MADV_PAGEOUT reclaims
 * them and they must read zeros; without, that check prints a "skip" line
 * (Folium has no user-triggered reclaim yet). Faults: when rt_sigaction
 * works, a SIGSEGV handler checks PROT_NONE, read-only, NX and unmapped
 * accesses (si_code, si_addr); without signals a fault would end the
 * program, so those accesses are /bin/mmfault's. Compaction: writing 1
 * to /proc/sys/vm/compact_memory (root's only, never readable) compacts,
 * and /proc/vmstat lists the compact_* counters. `mmtest hugetlb1g` checks
 * only 1 GiB HugeTLB pages (the CPU needs PDPE1GB, the machine a free
 * 1 GiB-aligned GiB): the pool grown through sysfs, a MAP_HUGE_1GB mapping
 * reserved, touched, seen in smaps, pagemap and mincore, given back by
 * MADV_DONTNEED and munmap, Linux's EINVALs; the pool is put back.
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
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#define PAGE 4096ul
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)
#define RW (PROT_READ | PROT_WRITE)
#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

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

/* MADV_FREE, then reclaim: the lazily freed pages are dropped, and read
 * zeros. MADV_PAGEOUT is Linux's way to reclaim a range now. */
/* --- hugetlb1g ------------------------------------------------------------ */

#define GIB (1ul << 30)
#define HUGE_1G_SHIFT 30
#ifndef MAP_HUGE_SHIFT
#define MAP_HUGE_SHIFT 26
#endif
#define HUGE_1G "/sys/kernel/mm/hugepages/hugepages-1048576kB/"

static long read_long(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY);
	long n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

static int write_long(const char *path, long v)
{
	char buf[32];
	int fd = open(path, O_WRONLY), len = snprintf(buf, sizeof(buf), "%ld\n", v);
	int ok = fd >= 0 && write(fd, buf, (size_t)len) == len;

	if (fd >= 0)
		close(fd);
	return ok;
}

/* Does /proc/self/smaps say text? */
static int smaps_has(const char *text)
{
	static char buf[65536];
	int fd = open("/proc/self/smaps", O_RDONLY);
	long n, total = 0;

	while (fd >= 0 && (n = read(fd, buf + total, sizeof(buf) - 1 - (size_t)total)) > 0)
		total += n;
	if (fd >= 0)
		close(fd);
	buf[total] = '\0';
	return strstr(buf, text) != NULL;
}

static unsigned long long pagemap_entry(const char *addr)
{
	unsigned long long e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd >= 0 && pread(fd, &e, sizeof(e), (off_t)((unsigned long)addr / PAGE * 8)) != 8)
		e = 0;
	if (fd >= 0)
		close(fd);
	return e;
}

static char *mmap_1g(void *addr, size_t len, int flags)
{
	return mmap(addr, len, RW, ANON | MAP_HUGETLB | flags | HUGE_1G_SHIFT << MAP_HUGE_SHIFT, -1,
		    0);
}

/* The checks on a touched 1 GiB page at p: the walkers see one leaf. */
static void hugetlb_1g_walkers(char *p)
{
	unsigned long long first = pagemap_entry(p), mid = pagemap_entry(p + GIB / 2);
	unsigned char vec[2] = { 0, 0 };

	check("1G: smaps KernelPageSize 1048576 kB", smaps_has("KernelPageSize:  1048576 kB"));
	check("1G: pagemap present, one physical run",
	      (first >> 63) && (mid >> 63) &&
		      (first & ((1ull << 55) - 1)) + GIB / 2 / PAGE == (mid & ((1ull << 55) - 1)));
	check("1G: mincore sees the pages",
	      mincore(p + GIB - 2 * PAGE, 2 * PAGE, vec) == 0 && vec[0] == 1 && vec[1] == 1);
}

static void hugetlb_1g(void)
{
	long saved = read_long(HUGE_1G "nr_hugepages"), free;
	char *p;

	check("1G: the pool's sysfs directory", saved >= 0);
	check("1G: the pool grows by one page",
	      write_long(HUGE_1G "nr_hugepages", saved + 1) &&
		      read_long(HUGE_1G "nr_hugepages") == saved + 1);
	free = read_long(HUGE_1G "free_hugepages");
	p = mmap_1g(NULL, GIB - PAGE, 0); /* rounded up to 1 GiB */
	check("1G: mmap is 1 GiB aligned", p != MAP_FAILED && !((unsigned long)p & (GIB - 1)));
	if (p == MAP_FAILED)
		return;
	check("1G: mmap reserved a page", read_long(HUGE_1G "resv_hugepages") >= 1);
	check("1G: a second mmap beyond the pool is ENOMEM",
	      mmap_1g(NULL, (size_t)free * GIB, 0) == MAP_FAILED && errno == ENOMEM);
	p[0] = 1;
	p[GIB - 1] = 2;
	check("1G: written bytes read back, the rest zero",
	      p[0] == 1 && p[GIB - 1] == 2 && all_bytes(p + GIB / 2, PAGE, 0));
	check("1G: the fault took a free page", read_long(HUGE_1G "free_hugepages") == free - 1);
	hugetlb_1g_walkers(p);
	check("1G: munmap of 2 MiB inside is EINVAL",
	      munmap(p + (2ul << 20), 2ul << 20) == -1 && errno == EINVAL);
	check("1G: MADV_DONTNEED gives the page back",
	      madvise(p, GIB, MADV_DONTNEED) == 0 && read_long(HUGE_1G "free_hugepages") == free);
	check("1G: the next touch reads zero", p[0] == 0);
	check("1G: munmap", munmap(p, GIB) == 0 && read_long(HUGE_1G "free_hugepages") == free);
	check("1G: MAP_FIXED off a 1 GiB boundary is EINVAL",
	      mmap_1g(p + (2ul << 20), GIB, MAP_FIXED) == MAP_FAILED && errno == EINVAL);
	check("1G: MAP_HUGE shift 25 is EINVAL",
	      mmap(NULL, GIB, RW, ANON | MAP_HUGETLB | 25 << MAP_HUGE_SHIFT, -1, 0) == MAP_FAILED &&
		      errno == EINVAL);
	check("1G: the pool shrinks back", write_long(HUGE_1G "nr_hugepages", saved) &&
						   read_long(HUGE_1G "nr_hugepages") == saved);
}

static void reclaim(int asked)
{
	char *p;

	if (!asked) {
		printf("mmtest: skip MADV_FREE then reclaim reads zeros (run `mmtest reclaim`)\n");
		return;
	}
	p = mmap(NULL, 4 * PAGE, RW, ANON, -1, 0);
	if (p == MAP_FAILED) {
		check("mmap for reclaim", 0);
		return;
	}
	memset(p, 9, 4 * PAGE);
	check("MADV_FREE before reclaim", madvise(p, 4 * PAGE, MADV_FREE) == 0);
	check("MADV_PAGEOUT reclaims", madvise(p, 4 * PAGE, MADV_PAGEOUT) == 0);
	check("MADV_FREE then reclaim reads zeros", all_bytes(p, 4 * PAGE, 0));
	munmap(p, 4 * PAGE);
}

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_code;
static void *volatile fault_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_code = si->si_code;
	fault_addr = si->si_addr;
	siglongjmp(fault_jmp, 1);
}

/* Run access(p); it must raise SIGSEGV with code at address p. */
static void expect_segv(const char *name, void (*access)(char *), char *p, int code)
{
	fault_code = 0;
	fault_addr = NULL;
	if (sigsetjmp(fault_jmp, 1) == 0) {
		access(p);
		check(name, 0); /* no fault */
		return;
	}
	check(name, fault_code == code && fault_addr == p);
}

static void read_byte(char *p)
{
	*(volatile char *)p;
}

static void write_byte(char *p)
{
	*(volatile char *)p = 1;
}

static void call_code(char *p)
{
	((void (*)(void))p)();
}

static void faults(void)
{
	struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO };
	char *p;

	if (sigaction(SIGSEGV, &sa, NULL)) {
		printf("mmtest: skip fault checks (rt_sigaction: %s): see mmfault\n",
		       strerror(errno));
		return;
	}
	p = mmap(NULL, 4 * PAGE, RW, ANON, -1, 0);
	if (p == MAP_FAILED) {
		check("mmap for faults", 0);
		return;
	}
	memset(p, 0xc3, 4 * PAGE); /* ret, for the NX page */
	mprotect(p, PAGE, PROT_NONE);
	mprotect(p + PAGE, PAGE, PROT_READ);
	munmap(p + 3 * PAGE, PAGE);
	expect_segv("PROT_NONE read faults (SEGV_ACCERR)", read_byte, p, SEGV_ACCERR);
	expect_segv("read-only write faults (SEGV_ACCERR)", write_byte, p + PAGE, SEGV_ACCERR);
	expect_segv("NX page execute faults (SEGV_ACCERR)", call_code, p + 2 * PAGE, SEGV_ACCERR);
	expect_segv("unmapped read faults (SEGV_MAPERR)", read_byte, p + 3 * PAGE, SEGV_MAPERR);
	check("the pages are intact after the faults",
	      mprotect(p, 3 * PAGE, PROT_READ) == 0 && all_bytes(p, 3 * PAGE, (char)0xc3));
	munmap(p, 3 * PAGE);
	sa.sa_handler = SIG_DFL;
	sa.sa_flags = 0;
	sigaction(SIGSEGV, &sa, NULL);
}

/* Linux checks a sysctl against its mode (0200 here), not the caller's
 * uid, for reading; writing is root's. */
static void compaction(void)
{
	static const char *const counters[] = {
		"\ncompact_migrate_scanned ", "\ncompact_free_scanned ", "\ncompact_isolated ",
		"\ncompact_stall ",	      "\ncompact_fail ",	 "\ncompact_success ",
	};
	const char *path = "/proc/sys/vm/compact_memory";
	static char text[65536];
	int fd = open(path, O_RDONLY), all = 1;
	long n;

	check("compact_memory is not readable", fd == -1 && errno == EACCES);
	fd = open(path, O_WRONLY);
	if (geteuid() != 0) {
		check("compact_memory is root's to write", fd == -1 && errno == EACCES);
	} else {
		check("writing 1 to compact_memory", fd >= 0 && write(fd, "1\n", 2) == 2);
		/* At offset 0: a write further on is ignored. Linux 6.1 compacts
		 * on any write; later Linux (and Folium) want "1" (EINVAL). */
		check("writing x to compact_memory: EINVAL, or compacts as 6.1",
		      fd >= 0 && lseek(fd, 0, SEEK_SET) == 0 &&
			      (write(fd, "x", 1) == 1 || errno == EINVAL));
	}
	if (fd >= 0)
		close(fd);
	fd = open("/proc/vmstat", O_RDONLY);
	n = fd >= 0 ? read(fd, text + 1, sizeof(text) - 2) : -1;
	text[0] = '\n';
	text[n > 0 ? n + 1 : 1] = '\0';
	for (unsigned int i = 0; i < sizeof(counters) / sizeof(counters[0]); i++)
		all &= strstr(text, counters[i]) != NULL;
	check("/proc/vmstat has the compact_* counters", n > 0 && all);
	if (fd >= 0)
		close(fd);
}

/* Does one line of maps (read again from its start, as Linux prints it
 * afresh after a rewind) cover [start, end)? */
static int maps_covers(FILE *maps, const char *start, const char *end)
{
	unsigned long lo, hi;
	char line[512];

	rewind(maps);
	while (fgets(line, sizeof(line), maps))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= (unsigned long)start &&
		    (unsigned long)end <= hi)
			return 1;
	return 0;
}

/* Is this Linux older than major.minor (where Folium follows a newer
 * Linux's rule; the side-by-side also boots Linux 6.1)? */
static int linux_before(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;

	if (uname(&u) || strcmp(u.sysname, "Linux") || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma < major || (ma == major && mi < minor);
}

/* Is [p, p + len) mapped? mincore answers ENOMEM for an unmapped page. */
static int mapped(char *p, size_t len)
{
	unsigned char vec[16];

	return mincore(p, len, vec) == 0;
}

/* Growing in place merges with the next VMA; MREMAP_FIXED at the same
 * size moves every VMA of a range and keeps the gaps (Linux 6.17+), with
 * MREMAP_DONTUNMAP leaving each source mapped and empty. */
static void remap(void)
{
	FILE *maps = fopen("/proc/self/maps", "r"); /* before the mappings */
	char *p = mmap(NULL, 5 * PAGE, RW, ANON, -1, 0), *q;
	int flags = MREMAP_MAYMOVE | MREMAP_FIXED;

	if (!maps || p == MAP_FAILED) {
		check("mmap and /proc/self/maps for mremap", 0);
		return;
	}
	munmap(p + PAGE, PAGE);
	check("mremap grows into a hole", mremap(p, PAGE, 2 * PAGE, 0) == p);
	check("the grown VMA merged with the next one", maps_covers(maps, p, p + 5 * PAGE));
	if (linux_before(6, 17)) {
		printf("mmtest: skip mremap of several VMAs (Linux 6.17+)\n");
		munmap(p, 5 * PAGE);
		fclose(maps);
		return;
	}
	q = mmap(NULL, 10 * PAGE, RW, ANON, -1, 0);
	munmap(q, 10 * PAGE);
	memset(p, 1, 5 * PAGE);
	munmap(p + PAGE, PAGE);
	munmap(p + 3 * PAGE, PAGE);
	check("mremap MREMAP_FIXED moves 3 VMAs", mremap(p, 5 * PAGE, 5 * PAGE, flags, q) == q);
	check("the 3 moved VMAs keep their bytes and gaps",
	      all_bytes(q, PAGE, 1) && !mapped(q + PAGE, PAGE) &&
		      all_bytes(q + 2 * PAGE, PAGE, 1) && !mapped(q + 3 * PAGE, PAGE) &&
		      all_bytes(q + 4 * PAGE, PAGE, 1) && !mapped(p, PAGE) &&
		      !mapped(p + 4 * PAGE, PAGE));
	flags |= MREMAP_DONTUNMAP;
	check("mremap MREMAP_DONTUNMAP moves 3 VMAs",
	      mremap(q, 5 * PAGE, 5 * PAGE, flags, q + 5 * PAGE) == q + 5 * PAGE);
	check("the sources stay, empty",
	      all_bytes(q + 5 * PAGE, PAGE, 1) && all_bytes(q + 9 * PAGE, PAGE, 1) &&
		      all_bytes(q, PAGE, 0) && all_bytes(q + 2 * PAGE, PAGE, 0) &&
		      all_bytes(q + 4 * PAGE, PAGE, 0) && !mapped(q + 8 * PAGE, PAGE));
	munmap(q, 10 * PAGE);
	fclose(maps);
}

/* Linux 7.3's VM_STICKY: after clear_refs 4, a new VMA moved beside a
 * clean one merges with it (neither was faulted) and the merged VMA is
 * soft-dirty, the clean page too (soft-dirty's test_merge). */
static void remap_soft_dirty(void)
{
	char *pad, *p, *q, *probe;
	int clear, pagemap, merged;
	unsigned long long pme = 0;

	if (linux_before(7, 3)) { /* 6.1's merge keeps the clean VMA's flags */
		printf("mmtest: skip soft-dirty after a remap merge (Linux 7.3's rule)\n");
		return;
	}
	pad = mmap(NULL, 4 * PAGE, PROT_NONE, ANON, -1, 0);
	clear = open("/proc/self/clear_refs", O_WRONLY);
	pagemap = open("/proc/self/pagemap", O_RDONLY);
	if (pad == MAP_FAILED || clear < 0 || pagemap < 0) {
		printf("mmtest: skip soft-dirty after a remap merge (no clear_refs or pagemap)\n");
		return;
	}
	/* [pad: none][p][merge target][q], no other neighbour. */
	p = mmap(pad + PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0);
	check("clear_refs 4", write(clear, "4", 1) == 1);
	q = mmap(pad + 3 * PAGE, PAGE, RW, ANON | MAP_FIXED, -1, 0);
	check("mremap beside a clean VMA",
	      mremap(q, PAGE, PAGE, MREMAP_MAYMOVE | MREMAP_FIXED, p + PAGE) == p + PAGE);
	merged = pread(pagemap, &pme, 8, (off_t)((unsigned long)p / PAGE * 8)) == 8 &&
		 (pme >> 55 & 1);
	/* A page written now reads soft-dirty, unless the kernel has no
	 * CONFIG_MEM_SOFT_DIRTY. */
	probe = mmap(NULL, PAGE, RW, ANON, -1, 0);
	*probe = 1;
	if (pread(pagemap, &pme, 8, (off_t)((unsigned long)probe / PAGE * 8)) != 8 ||
	    !(pme >> 55 & 1))
		printf("mmtest: skip soft-dirty after a remap merge (no soft-dirty bits)\n");
	else
		check("the clean page of the merged VMA reads soft-dirty", merged);
	munmap(probe, PAGE);
	munmap(pad, 4 * PAGE);
	close(clear);
	close(pagemap);
}

int main(int argc, char **argv)
{
	const char *env = getenv("MMTEST_RECLAIM");

	if (argc > 1 && strcmp(argv[1], "hugetlb1g") == 0) {
		hugetlb_1g();
		printf("mmtest: %s\n", failed ? "FAILED" : "all ok");
		return failed;
	}
	round_trip();
	fixed();
	protect();
	advise();
	remap();
	remap_soft_dirty();
	reclaim((argc > 1 && strcmp(argv[1], "reclaim") == 0) || (env && strcmp(env, "1") == 0));
	faults();
	compaction();
	printf("mmtest: %s\n", failed ? "FAILED" : "all ok");
	return failed;
}
