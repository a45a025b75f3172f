/*
 * procbench: process and thread creation, a pipe and a futex round trip, as
 * one static program for the kernels of the side-by-side, in the shapes of
 * lmbench's lat_proc (fork, exec) and lat_pipe. Rows (op):
 *   fork      fork, the child _exits at once, waitpid: a small parent
 *             (this program before it maps anything: a few pages);
 *   fork_big  the same from a parent with --bytes (256M) of anonymous
 *             memory, 2 MiB aligned, written one byte per page before the
 *             timing (so every page is populated; after the first fork the
 *             parent's entries stay write-protected, as in repeated forks
 *             of any parent that does not write);
 *   exec      fork, the child execve()s this program (argv[0]) with the
 *             single argument --exit, which makes it _exit(0) first thing
 *             in main, then waitpid;
 *   pipe      a 1-byte write to a child through one pipe and its 1-byte
 *             answer through another, read back (two context switches);
 *   futex_pingpong  lat_pipe's shape between two threads of this process:
 *             a token handed to the other thread and back through two
 *             private futex words (FUTEX_WAKE_PRIVATE after each store,
 *             FUTEX_WAIT_PRIVATE while the awaited word is 0: two wakes
 *             and, on one CPU, two waits and two switches per round trip);
 *   thread_create  lat_proc fork's shape for a thread: pthread_create of
 *             a thread that returns at once, pthread_join (with musl: the
 *             stack mmap'ed, clone, the exit's tid-word futex wake, the
 *             stack munmap'ed by the joiner);
 *   munmap_big  munmap of --bytes of anonymous memory populated (untimed)
 *             one byte per page just before (zap of every entry);
 *   cow_copy  the parent of fork_big's kind forks, then writes one byte
 *             per 64 KiB of its range while the child still maps it (each
 *             write copies a page); only the writes are timed; op i
 *             writes page i % 16 of each 64 KiB, so a 64 KiB folio stays
 *             large from op to op;
 *   cow_reuse the same writes after the child has exited (each write
 *             finds its folio the parent's alone: reuse, no copy);
 *   mprotect_big  mprotect(PROT_READ) and back to PROT_READ|PROT_WRITE
 *             of --bytes populated once before (every entry
 *             write-protected, then made writable again where the page
 *             is the process's alone);
 *   mremap_big  mremap(MREMAP_MAYMOVE|MREMAP_FIXED) of --bytes populated
 *             once before, between its place and another 64 KiB past a
 *             2 MiB boundary, back and forth (a distance that moves the
 *             PTEs, not whole tables; PMD-mapped THPs are split on the
 *             first move).
 * The THP controls are left as the kernel has them, only reported: the
 * @env line says "thp=" (each control that is not "never": the top-level
 * one as "enabled", a size as "64K", with its choice), and fork_big's row
 * how much of the range was mapped by PMDs (AnonHugePages of smaps) and
 * how much was faulted as folios larger than 4K (large: the per-size
 * anon_fault_alloc counters' increase times the size, or thp_fault_alloc
 * times 2 MiB on a kernel with the top-level control only; the counters
 * are the whole system's, so natively other processes' faults count too).
 * A run times iters operations after one untimed; per_op is the median
 * over --runs runs of the run's microseconds per operation, min and max
 * the fastest and slowest run. Runs are interleaved across rows. Any
 * child that does not exit 0, or a short pipe read, ends the program with
 * exit 1 before the record.
 * Example: procbench --runs 5 on Linux 7.3 under TCG prints per_op near
 * 300 us for fork and near 30 us for pipe (the emulator's figures).
 * Usage: procbench [--quick] [--bytes N[K|M|G]] [--runs R]   (default 256M, 5;
 *        --quick: fewer iterations, 64M)
 */
#define _GNU_SOURCE /* mremap's MREMAP_FIXED */
#include <pthread.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "sbs.h"

/* Linux's include/uapi/linux/futex.h (musl-gcc has no kernel headers). */
#define FUTEX_WAIT_PRIVATE (0 | 128)
#define FUTEX_WAKE_PRIVATE (1 | 128)

extern char **environ;

enum op {
	OP_FORK,
	OP_FORK_BIG,
	OP_EXEC,
	OP_PIPE,
	OP_FUTEX,
	OP_THREAD,
	OP_MUNMAP_BIG,
	OP_COW_COPY,
	OP_COW_REUSE,
	OP_MPROTECT_BIG,
	OP_MREMAP_BIG,
	NR_OPS
};

#define COW_STRIDE (64ul << 10) /* the cow rows write one byte per 64 KiB */

struct row {
	const char *name;
	int iters, quick_iters;
	double us[MAX_RUNS];
	long anon_huge, large; /* KiB, fork_big: the last run's */
};

static struct row rows[NR_OPS] = {
	[OP_FORK] = { "fork", 200, 20 },
	[OP_FORK_BIG] = { "fork_big", 8, 2 },
	[OP_EXEC] = { "exec", 100, 10 },
	[OP_PIPE] = { "pipe", 2000, 200 },
	[OP_FUTEX] = { "futex_pingpong", 2000, 200 },
	[OP_THREAD] = { "thread_create", 200, 20 },
	[OP_MUNMAP_BIG] = { "munmap_big", 2, 1 },
	[OP_COW_COPY] = { "cow_copy", 8, 2 },
	[OP_COW_REUSE] = { "cow_reuse", 8, 2 },
	[OP_MPROTECT_BIG] = { "mprotect_big", 8, 2 },
	[OP_MREMAP_BIG] = { "mremap_big", 8, 2 },
};

static const char *self;

/* Wait for pid; anything but exit status 0 ends the program. */
static void reap(pid_t pid, const char *what)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			die("%s: waitpid(%d): %s", what, (int)pid, strerror(errno));
	if (WIFSIGNALED(status))
		die("%s: child %d killed by signal %d", what, (int)pid, WTERMSIG(status));
	if (WEXITSTATUS(status))
		die("%s: child %d exited with status %d%s", what, (int)pid, WEXITSTATUS(status),
		    WEXITSTATUS(status) == 127 ? " (execve failed)" : "");
}

static pid_t fork_or_die(const char *what)
{
	pid_t pid = fork();

	if (pid < 0)
		die("%s: fork: %s", what, strerror(errno));
	return pid;
}

/* lat_proc fork: the child exits at once. */
static void fork_exit_wait(void)
{
	pid_t pid = fork_or_die("fork");

	if (!pid)
		_exit(0);
	reap(pid, "fork");
}

/* lat_proc exec: the child becomes a fresh copy of this program that
 * exits at once (main's --exit). */
static void fork_exec_wait(void)
{
	char *argv[] = { (char *)self, "--exit", NULL };
	pid_t pid = fork_or_die("exec");

	if (!pid) {
		execve(self, argv, environ);
		_exit(127);
	}
	reap(pid, "exec");
}

/* The ms of n operations of op, after one untimed. */
static double time_ops(void (*op)(void), int n)
{
	double t0;

	op();
	t0 = now_ms();
	for (int i = 0; i < n; i++)
		op();
	return now_ms() - t0;
}

/* A number file (a hugepages-<N>kB/stats counter); -1 if missing. */
static long read_count(const char *path)
{
	long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%ld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

/* KiB faulted as folios larger than 4K so far, by the kernel's counters:
 * each hugepages-<N>kB/stats/anon_fault_alloc times N, else (Linux 6.1)
 * thp_fault_alloc times 2048; -1 if the kernel keeps neither. */
static long large_fault_kib(void)
{
	char path[160];
	long sum = -1, v;

	for (size_t i = 0; i < sizeof(mthp_kib) / sizeof(mthp_kib[0]); i++) {
		snprintf(path, sizeof(path), "%s/hugepages-%ukB/stats/anon_fault_alloc", thp,
			 mthp_kib[i]);
		v = read_count(path);
		if (v >= 0)
			sum = (sum < 0 ? 0 : sum) + v * (long)mthp_kib[i];
	}
	if (sum < 0 && (v = vmstat("thp_fault_alloc")) >= 0)
		sum = v * 2048;
	return sum;
}

/* fork_big: map and populate len bytes, time n forks, unmap. */
static double fork_big(struct row *r, size_t len, int n)
{
	long large0 = large_fault_kib();
	volatile char *p;
	char *raw;
	double ms;

	p = map_2m_aligned(len, &raw);
	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	r->anon_huge = anon_huge_kib();
	r->large = large0 < 0 ? -1 : large_fault_kib() - large0;
	ms = time_ops(fork_exit_wait, n);
	munmap(raw, len + SZ_2M);
	return ms;
}

/* A 2 MiB-aligned range of len bytes, one byte written per page. */
static volatile char *populate(size_t len, char **raw)
{
	volatile char *p = map_2m_aligned(len, raw);

	for (size_t off = 0; off < len; off += PAGE)
		p[off] = 1;
	return p;
}

/* munmap_big: n munmaps of len bytes, each populated just before (and
 * one untimed first). */
static double munmap_big(size_t len, int n)
{
	double ms = 0;

	for (int i = -1; i < n; i++) {
		char *raw;
		double t0;

		populate(len, &raw);
		t0 = now_ms();
		if (munmap(raw, len + SZ_2M))
			die("munmap_big: munmap: %s", strerror(errno));
		if (i >= 0)
			ms += now_ms() - t0;
	}
	return ms;
}

/* mprotect_big: n round trips to PROT_READ and back over len bytes
 * populated once, one untimed first. */
static double mprotect_big(size_t len, int n)
{
	char *raw;
	void *p = (void *)populate(len, &raw);
	double ms = 0;

	for (int i = -1; i < n; i++) {
		double t0 = now_ms();

		if (mprotect(p, len, PROT_READ) || mprotect(p, len, PROT_READ | PROT_WRITE))
			die("mprotect_big: mprotect: %s", strerror(errno));
		if (i >= 0)
			ms += now_ms() - t0;
	}
	munmap(raw, len + SZ_2M);
	return ms;
}

/* mremap_big: n moves of len bytes populated once, between their 2 MiB
 * aligned place and 64 KiB past the 2 MiB aligned start of a reserved
 * range, back and forth (the offsets in a PMD differ, so no kernel can
 * move whole tables, Linux's realignment included); one untimed first. */
static double mremap_big(size_t len, int n)
{
	char *raw, *far_raw, *far = (char *)map_2m_aligned(len + SZ_2M, &far_raw);
	char *here = (char *)populate(len, &raw), *there = far + (64 << 10);
	double ms = 0;

	for (int i = -1; i < n; i++) {
		char *from = (i & 1) ? here : there, *to = (i & 1) ? there : here;
		double t0 = now_ms();

		if (mremap(from, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, to) != to)
			die("mremap_big: mremap: %s", strerror(errno));
		if (i >= 0)
			ms += now_ms() - t0;
	}
	munmap(raw, len + SZ_2M);
	munmap(far_raw, len + 2 * SZ_2M);
	return ms;
}

/* cow_copy (reuse 0) and cow_reuse (1): n forks of a parent with len
 * bytes populated, each followed by one byte written per COW_STRIDE in
 * the parent while the child waits (copy) or after it exited (reuse);
 * only the writes are timed, one untimed op first. */
static double cow_writes(size_t len, int n, int reuse)
{
	const char *what = reuse ? "cow_reuse" : "cow_copy";
	char *raw;
	volatile char *p = populate(len, &raw);
	double ms = 0;

	for (int i = -1; i < n; i++) {
		size_t page = (size_t)(i + 1) % (COW_STRIDE / PAGE) * PAGE;
		int go[2];
		pid_t pid;
		double t0;
		char c;

		if (pipe(go))
			die("%s: pipe: %s", what, strerror(errno));
		pid = fork_or_die(what);
		if (!pid) {
			close(go[1]);
			_exit(read(go[0], &c, 1) == 0 ? 0 : 1); /* EOF: the parent is done */
		}
		close(go[0]);
		if (reuse) {
			close(go[1]);
			reap(pid, what);
		}
		t0 = now_ms();
		for (size_t off = page; off < len; off += COW_STRIDE)
			p[off] = (char)i;
		if (i >= 0)
			ms += now_ms() - t0;
		if (!reuse) {
			close(go[1]);
			reap(pid, what);
		}
	}
	munmap(raw, len + SZ_2M);
	return ms;
}

/* lat_pipe: n round trips of one byte to a child and one byte back. */
static double pipe_round_trips(int n)
{
	int down[2], up[2];
	char c = 'x';
	pid_t pid;
	double t0, ms;

	if (pipe(down) || pipe(up))
		die("pipe: %s", strerror(errno));
	pid = fork_or_die("pipe");
	if (!pid) {
		close(down[1]);
		close(up[0]);
		while (read(down[0], &c, 1) == 1)
			if (write(up[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(down[0]);
	close(up[1]);
	t0 = 0;
	for (int i = -1; i < n; i++) { /* i == -1: the untimed one */
		if (i == 0)
			t0 = now_ms();
		if (write(down[1], &c, 1) != 1 || read(up[0], &c, 1) != 1)
			die("pipe: round trip %d: %s", i, strerror(errno));
	}
	ms = now_ms() - t0;
	close(down[1]); /* the child reads EOF and exits */
	close(up[0]);
	reap(pid, "pipe");
	return ms;
}

/* The ping-pong's two words: ping to the helper thread, pong back. 0 is
 * "nothing yet", 1 the token, 2 (ping only) "exit". */
static _Atomic uint32_t ping, pong;

static void futex_wait_word(_Atomic uint32_t *word)
{
	while (!atomic_load(word))
		if (syscall(SYS_futex, word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) &&
		    errno != EAGAIN && errno != EINTR)
			die("futex_pingpong: FUTEX_WAIT: %s", strerror(errno));
}

static void futex_post_word(_Atomic uint32_t *word, uint32_t val)
{
	atomic_store(word, val);
	if (syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) < 0)
		die("futex_pingpong: FUTEX_WAKE: %s", strerror(errno));
}

/* The helper: take each ping, answer with a pong, until ping is 2. */
static void *pong_thread(void *arg)
{
	(void)arg;
	for (;;) {
		futex_wait_word(&ping);
		if (atomic_exchange(&ping, 0) == 2)
			return NULL;
		futex_post_word(&pong, 1);
	}
}

/* n round trips of the token to the helper thread and back. */
static double futex_round_trips(int n)
{
	pthread_t t;
	double t0 = 0, ms;
	int err = pthread_create(&t, NULL, pong_thread, NULL);

	if (err)
		die("futex_pingpong: pthread_create: %s", strerror(err));
	for (int i = -1; i < n; i++) { /* i == -1: the untimed one */
		if (i == 0)
			t0 = now_ms();
		futex_post_word(&ping, 1);
		futex_wait_word(&pong);
		atomic_store(&pong, 0);
	}
	ms = now_ms() - t0;
	futex_post_word(&ping, 2);
	pthread_join(t, NULL);
	return ms;
}

static void *return_at_once(void *arg)
{
	return arg;
}

/* One thread made and joined. */
static void thread_create_join(void)
{
	pthread_t t;
	void *ret;
	int err = pthread_create(&t, NULL, return_at_once, &rows[OP_THREAD]);

	if (err)
		die("thread_create: pthread_create: %s", strerror(err));
	err = pthread_join(t, &ret);
	if (err || ret != &rows[OP_THREAD])
		die("thread_create: pthread_join: %s", err ? strerror(err) : "wrong return value");
}

static void run_row(enum op op, size_t len, int run, int quick)
{
	struct row *r = &rows[op];
	int n = quick ? r->quick_iters : r->iters;
	double ms = 0;

	switch (op) {
	case OP_FORK:
		ms = time_ops(fork_exit_wait, n);
		break;
	case OP_FORK_BIG:
		ms = fork_big(r, len, n);
		break;
	case OP_EXEC:
		ms = time_ops(fork_exec_wait, n);
		break;
	case OP_PIPE:
		ms = pipe_round_trips(n);
		break;
	case OP_FUTEX:
		ms = futex_round_trips(n);
		break;
	case OP_MUNMAP_BIG:
		ms = munmap_big(len, n);
		break;
	case OP_COW_COPY:
		ms = cow_writes(len, n, 0);
		break;
	case OP_COW_REUSE:
		ms = cow_writes(len, n, 1);
		break;
	case OP_MPROTECT_BIG:
		ms = mprotect_big(len, n);
		break;
	case OP_MREMAP_BIG:
		ms = mremap_big(len, n);
		break;
	default:
		ms = time_ops(thread_create_join, n);
	}
	r->us[run] = ms * 1e3 / n;
}

/* buf gets " thp=enabled:always,64K:inherit": every THP control (read,
 * not written: writable or not) whose choice is not "never"; " thp=never"
 * if all are, " thp=none" where the kernel has none. */
static void thp_env(char *buf, size_t len)
{
	char path[128], choice[16];
	size_t used = (size_t)snprintf(buf, len, " thp=");
	int found = 0, any = 0;

	for (int i = -1; i < (int)(sizeof(mthp_kib) / sizeof(mthp_kib[0])); i++) {
		if (i < 0)
			snprintf(path, sizeof(path), "%s/enabled", thp);
		else
			snprintf(path, sizeof(path), "%s/hugepages-%ukB/enabled", thp, mthp_kib[i]);
		if (read_choice(path, choice, sizeof(choice)))
			continue;
		found = 1;
		if (!strcmp(choice, "never") || used >= len)
			continue;
		if (i < 0)
			used += (size_t)snprintf(buf + used, len - used, "enabled:%s", choice);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%uK:%s", any ? "," : "",
						 mthp_kib[i], choice);
		any = 1;
	}
	if (!any && used < len)
		snprintf(buf + used, len - used, "%s", found ? "never" : "none");
}

static void print_rows(size_t len, int runs, int quick)
{
	char env[256];
	struct utsname u;

	uname(&u);
	printf("Processes and threads (lmbench lat_proc, lat_pipe shapes) on %s %s, median of %d "
	       "run(s), fork_big parent %zu MiB\n",
	       u.sysname, u.release, runs, len >> 20);
	printf("            op  per_op[us]    min[us]    max[us]  iters AnonHuge[KiB] "
	       "large[KiB]\n");
	for (int i = 0; i < NR_OPS; i++) {
		struct row *r = &rows[i];

		qsort(r->us, (size_t)runs, sizeof(double), cmp_double);
		printf("%14s %11.1f %10.1f %10.1f %6d %13ld %10ld\n", r->name, r->us[runs / 2],
		       r->us[0], r->us[runs - 1], quick ? r->quick_iters : r->iters,
		       i == OP_FORK_BIG ? r->anon_huge : 0, i == OP_FORK_BIG ? r->large : 0);
	}
	thp_env(env, sizeof(env));
	rec_start_env("procs_sbs", &u, len, runs, env);
	rec_line("@cols op[-] per_op[us] min[us] max[us] iters[count] populated[KiB] "
		 "anon_huge[KiB] large[KiB]");
	for (int i = 0; i < NR_OPS; i++) {
		struct row *r = &rows[i];
		int big = i == OP_FORK_BIG;
		int populated = big || i >= OP_MUNMAP_BIG;

		rec_line("@row %s %.2f %.2f %.2f %d %zu %ld %ld", r->name, r->us[runs / 2],
			 r->us[0], r->us[runs - 1], quick ? r->quick_iters : r->iters,
			 populated ? len >> 10 : 0, big ? r->anon_huge : 0, big ? r->large : 0);
	}
	printf("@end procs_sbs %d %08x\n", NR_OPS, rec_hash);
}

int main(int argc, char **argv)
{
	size_t len = 256ul << 20;
	int runs = 5, quick = 0, bytes_given = 0;

	/* The exec row's child: a fresh start of this program, gone at once. */
	if (argc == 2 && !strcmp(argv[1], "--exit"))
		_exit(0);
	prog_name = "procbench";
	self = argv[0];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			quick = 1;
		} else if (!strcmp(argv[i], "--bytes") && i + 1 < argc) {
			len = parse_size(argv[++i]);
			bytes_given = 1;
		} else if (!strcmp(argv[i], "--runs") && i + 1 < argc && atoi(argv[i + 1]) > 0 &&
			   atoi(argv[i + 1]) <= MAX_RUNS) {
			runs = atoi(argv[++i]);
		} else {
			fprintf(stderr,
				"usage: procbench [--quick] [--bytes N[K|M|G]] [--runs 1..%d]\n",
				MAX_RUNS);
			return 2;
		}
	}
	if (quick && !bytes_given)
		len = 64ul << 20;
	if (!strchr(self, '/'))
		die("argv[0] '%s' is no path: the exec row re-executes it", self);
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_ctls();
	for (int run = 0; run < runs; run++)
		for (int i = 0; i < NR_OPS; i++)
			run_row((enum op)((i + run) % NR_OPS), len, run, quick);
	print_rows(len, runs, quick);
	return 0;
}
