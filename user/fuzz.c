/*
 * /bin/fuzz [SEED [COUNT [v|- [JOBS]]]]: COUNT (2000) random system calls, numbers
 * 0..460 and arguments drawn from interesting values (0, -1, small ints,
 * page addresses in and out of its mappings, kernel and non-canonical
 * addresses, huge lengths, random 64-bit), from SEED (1); then "fuzz: N
 * calls, seed S, E errors, done" and exit 0. v prints each call first.
 * It must not end itself, change the machine or create files, so: calls
 * that exit, signal, block or change the system are never made (skip[]);
 * fork and clone make a child that exits at once and is reaped (clone
 * never shares the mm or the stack), kill only sends signal 0, execve
 * and execveat only get paths that cannot run; paths are only NULL, bad pointers or names under
 * /nonexistent-fuzz/; a pointer or range that touches its own text, brk or
 * stack becomes one in its playground (a 16-page arena, remapped before
 * every call, then up to 1 GiB of hole); fds 0-5 are harmless read-only files
 * and every other fd is closed after each call; what a call maps is
 * unmapped after it; timers are made with their signals ignored and are
 * stopped or deleted after their call (the timer block below). With JOBS, that many processes fuzz
 * at once, seeds SEED, SEED+1, ..., and the first waits for them: "fuzz: JOBS jobs, all done". One
 * draw in 16 is an epoll or eventfd call on fds made for it (the epoll block below). Example: `fuzz
 * 7 500` makes the same 500 calls on Linux and on Folium; the harness compares MemFree before and
 * after. Another draw in 16 is a thread, futex, signal or job-control block (the section of that
 * name): threads of its own, futex waits that time out, signals only to itself or its children.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PAGE 4096ul
#define NR_MAX 460
#define ARENA_PAGES 16
#define PLAYGROUND_MAX (1ul << 30)
#define MAP_CAP (16ul << 20) /* a bigger mapping length becomes a huge one */
#define KADDR 0xffffffff80000000ul
#define USER_END 0x0000800000000000ul /* the first non-canonical address */
#define LOW_END 0x10000ul	      /* below Linux's mmap_min_addr */
#define NR_FDS 128		      /* fds 0..127 and 900 are closed after each call */

/*
 * Never called: exit, signals, blocking or sleeping calls, process
 * creation, anything that changes the machine as root (time, hostname,
 * mounts, modules, reboot, syslog, swap, I/O ports, file modes of / and
 * of this program), sockets and System V IPC (they outlive the process),
 * and calls that could end this process (seccomp, prctl, rseq,
 * userfaultfd, shadow stacks, uretprobe).
 */
static const unsigned short skip[] = {
	7,   23,  29,  30,  31,	 34,  35,  41,	42,  43,  44,  45,  46,	 47,  48,  49,	50,
	51,  52,  53,  54,  55,	 58,  60,  64,	65,  66,  67,  68,  69,	 70,  71,  91,	93,
	101, 103, 128, 129, 130, 141, 142, 144, 151, 153, 155, 157, 159, 160, 161, 163, 164,
	165, 166, 167, 168, 169, 170, 171, 172, 173, 175, 176, 179, 190, 199, 200, 202, 203,
	206, 207, 208, 209, 210, 216, 220, 227, 230, 231, 232, 234, 240, 241, 242, 243, 244,
	245, 246, 248, 249, 250, 251, 256, 260, 261, 270, 271, 272, 279, 280, 281, 297, 298,
	299, 300, 301, 304, 305, 307, 308, 310, 311, 313, 314, 317, 320, 321, 323, 333, 334,
	335, 424, 425, 426, 427, 428, 429, 430, 431, 432, 433, 435, 438, 441, 442, 443, 444,
	445, 446, 449, 452, 453, 454, 455, 456, 460, 15,  288,
};

/* Calls that take a path, and which arguments are paths (bit i: arg i). */
static const struct {
	unsigned short nr, args;
} paths[] = {
	{ 2, 1 },   { 4, 1 },	 { 6, 1 },    { 21, 1 },  { 76, 1 },  { 80, 1 },  { 82, 3 },
	{ 83, 1 },  { 84, 1 },	 { 85, 1 },   { 86, 3 },  { 87, 1 },  { 88, 3 },  { 89, 1 },
	{ 90, 1 },  { 92, 1 },	 { 94, 1 },   { 132, 1 }, { 133, 1 }, { 134, 1 }, { 137, 1 },
	{ 188, 1 }, { 189, 1 },	 { 191, 1 },  { 192, 1 }, { 194, 1 }, { 195, 1 }, { 197, 1 },
	{ 198, 1 }, { 235, 1 },	 { 254, 2 },  { 257, 2 }, { 258, 2 }, { 259, 2 }, { 262, 2 },
	{ 263, 2 }, { 264, 10 }, { 265, 10 }, { 266, 5 }, { 267, 2 }, { 268, 2 }, { 269, 2 },
	{ 303, 2 }, { 316, 10 }, { 332, 2 },  { 437, 2 }, { 439, 2 }, { 59, 1 },  { 322, 2 },
};

static uint64_t rng_state;
static unsigned long arena, play_end, play_len; /* [arena, play_end): the playground */
static unsigned long own[3][2];			/* text+data, brk, stack: never touched */
static unsigned long brk0;
static int saved[3]; /* the real stdin, stdout, stderr */
static char long_path[5000], long_name[320];

/* splitmix64: a seeded, well-mixed 64-bit sequence. Each thread and
 * child of the block below draws from a state of its own, so the main
 * sequence stays the same whatever they do. */
static uint64_t splitmix(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rnd(void)
{
	return splitmix(&rng_state);
}

static int is_skipped(unsigned long nr)
{
	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (skip[i] == nr)
			return 1;
	return 0;
}

static unsigned int path_args(unsigned long nr)
{
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (paths[i].nr == nr)
			return paths[i].args;
	return 0;
}

static unsigned long interesting(void)
{
	static const unsigned long fixed[] = {
		0,	    1,
		2,	    3,
		4,	    5,
		8,	    16,
		64,	    900,
		-1ul,	    -2ul,
		0x7fffffff, 0x80000000,
		0xffffffff, 1ul << 32,
		1ul << 62,  PAGE - 1,
		PAGE,	    PAGE + 1,
		KADDR,	    0xffff800000000000ul,
		USER_END,   0xdead000000000000ul,
		LOW_END,
	};

	switch (rnd() % 8) {
	case 0:
	case 1:
		return fixed[rnd() % (sizeof(fixed) / sizeof(fixed[0]))];
	case 2:
		return rnd() % 32; /* small ints: fds, signals, flags, commands */
	case 3:
		return arena + (rnd() % ARENA_PAGES) * PAGE + (rnd() % 4 ? 0 : rnd() % 64);
	case 4:
		return arena + (rnd() % (play_len / PAGE)) * PAGE; /* mostly the hole */
	case 5:
		return rnd() & 0xffffffff;
	case 6:
		return 1ul << (rnd() % 64);
	default:
		return rnd();
	}
}

static unsigned long path_value(void)
{
	static const char *const names[] = { "/nonexistent-fuzz/a", "/nonexistent-fuzz/a/b/",
					     long_path, long_name };

	switch (rnd() % 6) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return KADDR;
	default:
		return (unsigned long)names[rnd() % 4];
	}
}

/* Does [a, a + len) touch memory this program runs on? */
static int touches_own(unsigned long a, unsigned long len)
{
	unsigned long end = a + len < a ? ~0ul : a + len;

	for (int i = 0; i < 3; i++)
		if (a < own[i][1] && end > own[i][0])
			return 1;
	return 0;
}

/* A range a call may unmap, protect, move or advise away: the
 * playground, or where nothing of this program can be. */
static int harmless_range(unsigned long a, unsigned long len)
{
	if (a >= USER_END)
		return 1; /* the kernel must refuse it */
	if (a + len < a)
		return 0;
	return (a >= arena && a + len <= play_end) || a + len <= LOW_END;
}

static void arena_range(unsigned long *a, unsigned long *len)
{
	*a = arena + (rnd() % ARENA_PAGES) * PAGE;
	*len = (rnd() % (ARENA_PAGES + 1)) * PAGE;
}

/* Make the arguments of call nr safe for this process, as the header says. */
/*
 * --- Timers: alarm, getitimer/setitimer, timer_*, timerfd ---------------
 * Made like the rest, but a timer's signal is one this program ignores
 * (SIGALRM, SIGVTALRM, SIGPROF; set up in setup() and again after any
 * rt_sigaction), so an expiry cannot end it: timer_create gets a sigevent
 * naming one of those (or a bad one, or NULL: SIGALRM) and its id lands
 * in timer_id, and after the call every itimer is stopped and the timer
 * made is deleted (a timerfd is closed with the other fds). Half the time
 * the times given are valid and short, so timers really fire.
 */
static const unsigned short timer_calls[] = { 36, 37, 38, 222, 223, 224, 225, 226, 283, 286, 287 };
static const int timer_signals[] = { SIGALRM, SIGVTALRM, SIGPROF };
static int timer_id = -1;
static struct {
	unsigned long value; /* sigval */
	int signo, notify, tid, pad[11];
} timer_ev;
static struct {
	long interval[2], value[2]; /* itimerspec; an itimerval's usec fit too */
} timer_times;

static int is_timer_call(unsigned long nr)
{
	for (size_t i = 0; i < sizeof(timer_calls) / sizeof(timer_calls[0]); i++)
		if (timer_calls[i] == nr)
			return 1;
	return 0;
}

static void timer_signals_ignore(void)
{
	for (int i = 0; i < 3; i++)
		signal(timer_signals[i], SIG_IGN);
}

/* A sigevent: SIGEV_SIGNAL, SIGEV_NONE, SIGEV_THREAD_ID (this thread or
 * none) or a bad notify, with an ignored signal or a bad number. */
static unsigned long timer_sigevent(void)
{
	static const int notify[] = { 0, 1, 4, 4, 99 }, signo[] = { 0, 65, -1 };
	unsigned int s = rnd() % 6;

	timer_ev.value = rnd();
	timer_ev.notify = notify[rnd() % 5];
	timer_ev.signo = s < 3 ? timer_signals[s] : signo[s - 3];
	timer_ev.tid = rnd() % 4 ? (int)syscall(SYS_gettid) : 999999;
	return (unsigned long)&timer_ev;
}

/* Short valid times (up to 10 ms, interval 0 or 1 ms), or the arena's. */
static unsigned long timer_value(unsigned long a)
{
	if (rnd() % 2)
		return a;
	timer_times.interval[0] = 0;
	timer_times.interval[1] = rnd() % 2 ? 1000 : 0;
	timer_times.value[0] = 0;
	timer_times.value[1] = (long)(rnd() % 10000);
	return (unsigned long)&timer_times;
}

static void timer_tame(unsigned long nr, unsigned long *a)
{
	switch (nr) {
	case 37: /* alarm: seconds, undone at once */
		break;
	case 38: /* setitimer(which, value, old) */
		a[1] = timer_value(a[1]);
		break;
	case 222: /* timer_create(clock, sigevent, id) */
		if (rnd() % 4)
			a[1] = rnd() % 8 ? timer_sigevent() : 0;
		if (rnd() % 4) {
			timer_id = -1;
			a[2] = (unsigned long)&timer_id;
		}
		break;
	case 223: /* timer_settime(id, flags, new, old) */
	case 286: /* timerfd_settime(fd, flags, new, old) */
		a[2] = timer_value(a[2]);
		break;
	}
}

static void timer_undo(unsigned long nr, long ret)
{
	static const unsigned long zero[4];

	if (nr == 13)
		timer_signals_ignore();
	if (!is_timer_call(nr))
		return;
	for (int which = 0; which < 3; which++)
		syscall(SYS_setitimer, which, zero, NULL);
	if (nr == 222 && ret == 0 && timer_id >= 0)
		syscall(SYS_timer_delete, timer_id);
	timer_id = -1;
}

static void tame(unsigned long nr, unsigned long *a)
{
	unsigned int p = path_args(nr);

	for (int i = 0; i < 6; i++) {
		if (p & (1u << i))
			a[i] = path_value();
		else if (touches_own(a[i], 1))
			a[i] = arena;
	}
	if (is_timer_call(nr))
		timer_tame(nr, a);
	switch (nr) {
	case 9: /* mmap: a fixed one only over the playground; no huge populate */
		if (a[1] > MAP_CAP)
			a[1] = 1ul << 62;
		if ((a[3] & (MAP_FIXED | MAP_FIXED_NOREPLACE)) && !harmless_range(a[0], a[1]))
			arena_range(&a[0], &a[1]);
		break;
	case 25: /* mremap: the old and a fixed new range in the playground */
		if (!harmless_range(a[0], a[1]))
			arena_range(&a[0], &a[1]);
		if (a[2] > MAP_CAP)
			a[2] = 1ul << 62;
		if (!harmless_range(a[4], a[2]))
			a[4] = arena;
		break;
	case 28: /* madvise: no MADV_HWPOISON, MADV_SOFT_OFFLINE */
		if (a[2] == 100 || a[2] == 101)
			a[2] = MADV_DONTNEED;
		/* fall through */
	case 10:  /* mprotect */
	case 11:  /* munmap */
	case 26:  /* msync */
	case 237: /* mbind */
	case 329: /* pkey_mprotect */
		if (!harmless_range(a[0], a[1]))
			arena_range(&a[0], &a[1]);
		break;
	case 12: { /* brk: never below the break main() started with */
		static const unsigned long at[] = { 0, 1, 0, 64 << 10, 1 << 20, KADDR, 1ul << 62 };
		unsigned int i = rnd() % 7;

		a[0] = at[i] + (i >= 2 && i <= 4 ? brk0 : 0);
		break;
	}
	case 16: { /* ioctl: commands that change no file system or terminal */
		static const unsigned long cmd[] = {
			0x5401, 0x5413, 0x541b, 0x5421, 0x5451, 0, -1ul
		};

		a[1] = cmd[rnd() % 7];
		break;
	}
	case 158: { /* arch_prctl: no ARCH_SET_FS, no shadow stack */
		static const unsigned long code[] = { 0x1003, 0x1004, 0x1011, 0x4001,
						      0x9999, 0,      -1ul };

		a[0] = code[rnd() % 7];
		break;
	}
	case 56: /* clone: a process that exits at once (below); never on this
		  * mm or stack (CLONE_VM, CLONE_VFORK, a new stack), never a
		  * sibling (CLONE_PARENT), namespaces or a signal but SIGCHLD */
		a[0] &= 0x01f10e00ul | 0x80000000ul; /* FS FILES SIGHAND THREAD, tid flags, IO */
		a[0] |= (rnd() % 2) ? SIGCHLD : 0;
		a[1] = 0;
		break;
	case 62: /* kill: only asks (signal 0), of anyone */
		a[1] = 0;
		break;
	case 302: /* prlimit64: read the limits, never set them */
		a[2] = 0;
		break;
	case 436: /* close_range: not the saved stdio */
		a[1] %= NR_FDS;
		break;
	}
}

/* Fresh fds 0-5: 0-3 the read end of a pipe with no writer (reads give
 * EOF, writes EBADF), 4 "/", 5 this program; every other fd closed. */
static void reset_fds(const char *exe)
{
	int p[2];

	for (int fd = 0; fd < NR_FDS; fd++)
		if (fd != saved[0] && fd != saved[1] && fd != saved[2])
			close(fd);
	close(900);
	if (pipe(p) || p[0] != 0 || p[1] != 1) {
		dprintf(saved[2], "fuzz: cannot make fds 0-5 again\n");
		exit(1);
	}
	close(1);
	dup2(0, 1);
	dup2(0, 2);
	dup2(0, 3);
	if (open("/", O_RDONLY | O_DIRECTORY) != 4 || open(exe, O_RDONLY) != 5) {
		dprintf(saved[2], "fuzz: cannot open / or %s as fds 4 and 5\n", exe);
		exit(1);
	}
}

/* The arena again: 16 fresh pages, each starting with a path that
 * cannot exist, so a pointer to it read as a path names nothing. */
static void reset_arena(void)
{
	if (mmap((void *)arena, ARENA_PAGES * PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != (void *)arena) {
		dprintf(saved[2], "fuzz: cannot map the arena again\n");
		exit(1);
	}
	for (unsigned long i = 0; i < ARENA_PAGES; i++)
		strcpy((char *)arena + i * PAGE, "/nonexistent-fuzz/z");
}

/* Undo what a call left that could hurt the next ones. */
static void undo(unsigned long nr, const unsigned long *a, long ret)
{
	struct {
		unsigned long handler, flags, restorer, mask;
	} dfl = { 0, 0, 0, 0 };

	if ((nr == 9 || nr == 25) && ret != -1)
		syscall(SYS_munmap, ret, nr == 9 ? a[1] : a[2]);
	if (nr == 13 && a[1] && a[0] != SIGKILL && a[0] != SIGSTOP)
		syscall(SYS_rt_sigaction, a[0], &dfl, NULL, 8);
	if ((nr == 56 || nr == 57) && ret > 0)
		waitpid((pid_t)ret, NULL, __WALL);
}

static void setup(const char *exe)
{
	extern char __executable_start[], end[];
	char here;
	void *p = MAP_FAILED;

	for (int i = 0; i < 3; i++) {
		saved[i] = fcntl(i, F_DUPFD, 200);
		if (saved[i] < 0) /* a kernel with fewer fds: above the ones used */
			saved[i] = fcntl(i, F_DUPFD, 20);
	}
	memset(long_path, 'a', sizeof(long_path) - 1);
	memcpy(long_path, "/nonexistent-fuzz/", 18);
	memset(long_name, 'b', sizeof(long_name) - 1);
	memcpy(long_name, "/nonexistent-fuzz/", 18);
	/* The biggest free range it can find (a kernel may count PROT_NONE
	 * against its commit limit, as Linux does not). */
	for (play_len = PLAYGROUND_MAX; play_len >= ARENA_PAGES * PAGE; play_len /= 4) {
		p = mmap(NULL, play_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1,
			 0);
		if (p != MAP_FAILED)
			break;
	}
	if (p == MAP_FAILED) {
		dprintf(saved[2], "fuzz: no address space for the playground\n");
		exit(1);
	}
	arena = (unsigned long)p;
	play_end = arena + play_len;
	munmap(p, play_len);
	brk0 = syscall(SYS_brk, 0);
	own[0][0] = (unsigned long)__executable_start;
	own[0][1] = (unsigned long)end;
	own[1][0] = (unsigned long)end;
	own[1][1] = brk0 + (2ul << 20);
	own[2][0] = ((unsigned long)&here & ~0xffffful) - (16ul << 20);
	own[2][1] = (unsigned long)&here + (16ul << 20);
	reset_fds(exe);
	timer_signals_ignore();
}

/* --- epoll and eventfd -------------------------------------------------------
 * One draw in EPOLL_ONE_IN is made here instead of a random number: fds 6-11 are made first
 * (6 and 7 epolls, 7 inside 6 at times, 8 a non-blocking eventfd, 9 and
 * 10 a non-blocking pipe with bytes in it or not, 11 a closed number),
 * each epoll watching a random few of them, and then one epoll_ctl,
 * epoll_wait, epoll_pwait, epoll_pwait2, eventfd2, signalfd4, read or
 * write is made on them with fuzzed arguments. Waits never block: their timeout is 0
 * (a timespec of zeros, or one the kernel refuses). reset_fds closes all
 * of it after the call, so every epoll goes with its items each time.
 */
#define EPOLL_ONE_IN 16
#define EP_FDS 6 /* the fds the block makes start here */

static unsigned long epoll_fd(void)
{
	return rnd() % 4 ? EP_FDS + rnd() % 6 : interesting();
}

static unsigned long epoll_events(void)
{
	static const unsigned long bit[] = { 0x1,	0x4,	   0x8,	      0x10,	0x2000,
					     1ul << 28, 1ul << 29, 1ul << 30, 1ul << 31 };
	unsigned long ev = 0;

	if (rnd() % 8 == 0)
		return interesting();
	for (int i = rnd() % 4; i >= 0; i--)
		ev |= bit[rnd() % 9];
	return ev;
}

/* Make fds 6-10 and the interest lists of the two epolls. */
static void epoll_setup(void)
{
	int p[2];

	if (syscall(SYS_epoll_create1, 0) != EP_FDS ||
	    syscall(SYS_epoll_create1, 0) != EP_FDS + 1 ||
	    syscall(SYS_eventfd2, rnd() % 3, O_NONBLOCK | (rnd() % 2)) != EP_FDS + 2 ||
	    pipe2(p, O_NONBLOCK) || p[0] != EP_FDS + 3) {
		dprintf(saved[2], "fuzz: cannot make the epoll fds\n");
		exit(1);
	}
	if (rnd() % 2)
		write(p[1], "ab", 2);
	for (int i = rnd() % 6; i > 0; i--) {
		struct {
			unsigned int events;
			unsigned long data;
		} __attribute__((packed)) ev = { (unsigned int)epoll_events(), rnd() };

		syscall(SYS_epoll_ctl, EP_FDS + rnd() % 2, 1 + rnd() % 3, EP_FDS + 1 + rnd() % 4,
			&ev);
	}
	/* A watched file goes: the inner epoll, the eventfd or the pipe's
	 * write end (never the read end: a write would be SIGPIPE). */
	if (rnd() % 4 == 0)
		close(EP_FDS + 1 + (int[]){ 0, 1, 3 }[rnd() % 3]);
}

/* One fuzzed epoll or eventfd call. Return: its result, as syscall's. */
static long epoll_call(int verbose, char *line, size_t size)
{
	static const struct timespec zero, bad = { 0, 1000000000 };
	static const unsigned long ts[] = { (unsigned long)&zero, (unsigned long)&bad, KADDR };
	static const unsigned short nrs[] = { 233, 232, 281, 441, 290, 289, 0, 1 };
	unsigned long nr = nrs[rnd() % 8], a[6];

	for (int i = 0; i < 6; i++)
		a[i] = interesting();
	a[0] = epoll_fd();
	switch (nr) {
	case 233: /* epoll_ctl(epfd, op, fd, event): an event in the arena */
		a[1] = rnd() % 2 ? 1 + rnd() % 3 : a[1];
		a[2] = epoll_fd();
		if (rnd() % 4) {
			a[3] = arena + (rnd() % ARENA_PAGES) * PAGE;
			*(unsigned int *)a[3] = (unsigned int)epoll_events();
		}
		break;
	case 232: /* epoll_wait(epfd, events, maxevents, 0) */
	case 281: /* epoll_pwait(..., 0, sigmask, sigsetsize) */
	case 441: /* epoll_pwait2(..., timeout, sigmask, sigsetsize) */
		if (rnd() % 4)
			a[1] = arena + (rnd() % ARENA_PAGES) * PAGE;
		if (rnd() % 4)
			a[2] = 1 + rnd() % 8;
		a[3] = nr == 441 ? ts[rnd() % 3] : 0;
		a[5] = rnd() % 4 ? 8 : a[5];
		break;
	case 290: /* eventfd2(count, flags): a new fd, closed after */
		break;
	case 289: /* signalfd4(-1 or an fd, mask, 8, flags): a new fd or a
		   * changed set; never read here, so it may block */
		if (rnd() % 2)
			a[0] = (unsigned long)-1;
		if (rnd() % 4) {
			a[1] = arena + (rnd() % ARENA_PAGES) * PAGE;
			*(unsigned long *)a[1] = rnd();
		}
		if (rnd() % 4)
			a[2] = 8;
		if (rnd() % 2)
			a[3] = (rnd() % 2) ? O_NONBLOCK : O_NONBLOCK | O_CLOEXEC;
		break;
	default: /* read or write of the eventfd or another fd */
		if (rnd() % 4)
			a[0] = EP_FDS + 2;
		if (rnd() % 4)
			a[1] = arena + (rnd() % ARENA_PAGES) * PAGE;
		if (rnd() % 2)
			a[2] = 8;
		break;
	}
	for (int i = 0; i < 6; i++)
		if (touches_own(a[i], 1))
			a[i] = arena;
	if (verbose)
		write(saved[1], line,
		      snprintf(line, size, "fuzz: epoll: %lu(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n",
			       nr, a[0], a[1], a[2], a[3], a[4], a[5]));
	return syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* --- Threads, futexes, signals and job control ------------------------------
 * One draw in PROC_ONE_IN is one of four blocks instead of a random number:
 * - threads: clone with the flags pthread_create uses (CLONE_VM ...
 *   CLONE_CHILD_CLEARTID) on a stack and TLS block of its own; each thread
 *   makes a few calls (futex waits of at most 2 ms, wakes, masks, signals
 *   to itself, robust lists, set_tid_address) and exits while the others
 *   run; meanwhile the first thread signals them, wakes and requeues them,
 *   reads their robust lists and aims a timer at one (SIGEV_THREAD_ID),
 *   then waits for each: its tid word cleared (a FUTEX_WAIT of 1 ms at a
 *   time) or tgkill's ESRCH, 5 s at most. Flag sets copy_process refuses,
 *   and clone3 with bad sizes and arguments, must fail (else "fuzz:
 *   clone ... Linux refuses" and exit 1).
 * - futex: every op, with FUTEX_PRIVATE_FLAG and FUTEX_CLOCK_REALTIME or
 *   not, and futex_waitv on up to 4 words (fuzzed values, flags, counts
 *   and clocks), on its words, unaligned, unmapped and kernel addresses, with bad
 *   timespecs; every wait has a timeout of at most 2 ms (an absolute one
 *   now or in the past) or one the kernel refuses, so none blocks for
 *   long; at times a thread waits there to be woken or requeued.
 * - signals: rt_sigqueueinfo and rt_tgsigqueueinfo with any si_code
 *   (to another process, si_code >= 0 or SI_TKILL must fail: Linux's
 *   EPERM, else "fuzz: rt_sigqueueinfo ..." and exit 1),
 *   rt_sigtimedwait with a zero or 1 ms timeout, sigaltstack,
 *   rt_sigprocmask, tkill and tgkill, gettid.
 * - job control: a child made by fork sets its group and session, sends
 *   kill(0) and kill(-pgrp) to its own group (only signals ignored by
 *   default: another process may have joined it) and SIGSTOP to itself,
 *   and tries TIOCSCTTY, TIOCNOTTY, TIOCSPGRP; the parent stops and
 *   continues it (SIGSTOP,
 *   SIGCONT; wait4 and waitid with WUNTRACED, WCONTINUED, WNOHANG), tries
 *   setpgid, getpgid, getsid and the tty's TIOCGPGRP, TIOCSPGRP, TIOCGSID,
 *   TCGETS and TCSETS(W,F), then kills and reaps it.
 * A real signal goes only to this process or its own children (and to
 * whoever joined a child's group), and only one it handles (SIGUSR1, SIGUSR2, 40, 50: a handler
 * that does nothing) or ignores (SIGCHLD, SIGWINCH, SIGURG, SIGCONT; SIGHUP, SIGTSTP, SIGTTIN and
 * SIGTTOU are ignored from the start, so a tty's job control cannot stop or end it); another
 * process gets signal 0 or a bad number. The block restores the mask, the alternate stack, the
 * tty's foreground group and termios, and takes any signal left pending, before the next draw; the
 * tty's termios at the start is set again at the end.
 */
#define PROC_ONE_IN 16
#define NR_THREADS 3
#define THREAD_STACK (16ul << 10)
#define THREAD_WAIT_MS 5000 /* a thread not gone by then is a kernel bug */
#define FUTEX_PRIVATE 128
#define FUTEX_REALTIME 256
#define SS_DISABLE_ 2
#define SI_TKILL_ -6

static const int handled_signals[] = { SIGUSR1, SIGUSR2, 40, 50 };
static const int quiet_signals[] = { SIGCHLD, SIGWINCH, SIGURG, SIGCONT, SIGALRM, SIGHUP, SIGTSTP };
static const int jobctl_signals[] = { SIGHUP, SIGTSTP, SIGTTIN, SIGTTOU };
static const int group_signals[] = { SIGCHLD, SIGWINCH, SIGURG, SIGCONT }; /* ignored by default */

/* Linux's struct termios (TCGETS), not the C library's. */
struct kernel_termios {
	unsigned int iflag, oflag, cflag, lflag;
	unsigned char line, cc[19];
};

static struct fuzz_thread {
	int tid_word;			   /* CLONE_PARENT_SETTID's tid, CLONE_CHILD_CLEARTID's 0 */
	int futex;			   /* it waits here; the first thread wakes it */
	int tid;			   /* clone's answer */
	int calls;			   /* how many calls it makes before it exits */
	int waiter;			   /* it waits on futex first */
	uint64_t rng;			   /* its own sequence */
	unsigned long robust[3], entry[2]; /* a robust list: head, one lock */
	int lock;			   /* that lock's word, entry + 16 */
	unsigned long tls[16];		   /* fs points here: tls[0] itself, as libc's */
	char stack[THREAD_STACK] __attribute__((aligned(16)));
} threads[NR_THREADS];
_Static_assert(offsetof(struct fuzz_thread, lock) == offsetof(struct fuzz_thread, entry) + 16,
	       "the robust entry's futex_offset");

static int shared_futex[4];		/* words threads and the first thread share */
static uint64_t proc_sigs_all;		/* the handled and quiet signals' mask */
static struct kernel_termios tty_start; /* the tty as setup found it */
static int tty_start_ok;

/* syscall(2) without errno, which lives in TLS the threads lack. */
static long raw_syscall(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

/* interesting(), but never this program's own memory (see tame). */
static unsigned long wild(void)
{
	unsigned long a = interesting();

	return touches_own(a, 1) ? arena : a;
}

static void on_signal(int sig)
{
	(void)sig;
}

static uint64_t sig_bit(int sig)
{
	return 1ull << (sig - 1);
}

/* A signal this process may send itself: handled, quiet, 0 or a bad one. */
static int own_signal(uint64_t *state)
{
	static const int bad[] = { 0, 65, -1, 0x7fffffff };
	unsigned int i = splitmix(state) % 16;

	if (i < 4)
		return handled_signals[i];
	if (i < 11)
		return quiet_signals[i - 4];
	if (i < 14)
		return bad[i - 11];
	return 0;
}

/* A signal for someone else: only asks (0) or is refused (a bad number). */
static int other_signal(void)
{
	static const int sig[] = { 0, 0, 65, -1 };

	return sig[rnd() % 4];
}

/* A pid or tid: ours, a thread's, our parent's, init, none, or random. */
static long some_pid(int thread_tid)
{
	switch (rnd() % 8) {
	case 0:
		return getpid();
	case 1:
		return thread_tid;
	case 2:
		return getppid();
	case 3:
		return 1;
	case 4:
		return 0;
	case 5:
		return -1;
	case 6:
		return 4194304 + rnd() % 100; /* above Linux's pid_max */
	default:
		return (long)(int)interesting();
	}
}

static void jobctl_signals_ignore(void)
{
	for (size_t i = 0; i < sizeof(jobctl_signals) / sizeof(jobctl_signals[0]); i++)
		signal(jobctl_signals[i], SIG_IGN);
}

/* The handlers and the mask of every signal the blocks send themselves. */
static void proc_handlers(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	for (int i = 0; i < 4; i++) {
		sigaction(handled_signals[i], &sa, NULL);
		proc_sigs_all |= sig_bit(handled_signals[i]);
	}
	for (size_t i = 0; i < sizeof(quiet_signals) / sizeof(quiet_signals[0]); i++)
		proc_sigs_all |= sig_bit(quiet_signals[i]);
	proc_sigs_all |=
		sig_bit(SIGVTALRM) | sig_bit(SIGPROF) | sig_bit(SIGTTIN) | sig_bit(SIGTTOU);
}

/* Take every such signal still pending, so none waits for a mask or a
 * disposition the fuzzing changes later. */
static void proc_drain(void)
{
	static const struct timespec zero;
	uint64_t old;

	syscall(SYS_rt_sigprocmask, SIG_BLOCK, &proc_sigs_all, &old, 8);
	while (syscall(SYS_rt_sigtimedwait, &proc_sigs_all, NULL, &zero, 8) > 0)
		;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
}

/* A struct timespec: up to 2 ms, zero, or one the kernel refuses. */
static unsigned long short_timeout(struct timespec *ts)
{
	switch (rnd() % 8) {
	case 0:
		ts->tv_sec = 0, ts->tv_nsec = 1000000000;
		return (unsigned long)ts;
	case 1:
		ts->tv_sec = -1, ts->tv_nsec = 0;
		return (unsigned long)ts;
	case 2:
		return rnd() % 2 ? KADDR : arena + play_len - PAGE;
	default:
		ts->tv_sec = 0, ts->tv_nsec = (long)(rnd() % 2000001);
		return (unsigned long)ts;
	}
}

/* --- the threads --- */

/* A thread's calls, raw (its TLS is no C library's): then it returns to
 * the code clone put it on, which calls exit. Context: its own stack. */
static void thread_main(struct fuzz_thread *t)
{
	const struct timespec wait = { 0, (long)(t->rng % 2000000) };
	const struct timespec nap = { 0, 100000 };
	long pid = raw_syscall(SYS_getpid, 0, 0, 0, 0, 0, 0), tid;
	uint64_t mask;

	tid = raw_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
	if (t->waiter) /* one the first thread's futex call may wake or requeue */
		raw_syscall(SYS_futex, (long)&t->futex, 0, 0, (long)&wait, 0, 0);
	for (int i = 0; i < t->calls; i++) {
		uint64_t r = splitmix(&t->rng);

		switch (r % 12) {
		case 0: /* a bounded wait the first thread may end */
			raw_syscall(SYS_futex, (long)&t->futex, (r >> 8) % 2 ? 128 : 0, 0,
				    (long)&wait, 0, 0);
			break;
		case 1:
			raw_syscall(SYS_futex, (long)&shared_futex[r % 4], 1 | ((r >> 8) % 2) * 128,
				    (long)(r >> 16) % 3, 0, 0, 0);
			break;
		case 2:
			raw_syscall(SYS_futex, (long)&shared_futex[r % 4], 9, 0, (long)&wait, 0,
				    -1);
			break;
		case 3:
			raw_syscall(SYS_sched_yield, 0, 0, 0, 0, 0, 0);
			break;
		case 4:
			mask = (r >> 8) % 2 ? proc_sigs_all : r >> 16;
			raw_syscall(SYS_rt_sigprocmask, (r >> 4) % 4, (long)&mask, 0, 8, 0, 0);
			break;
		case 5:
			raw_syscall(SYS_tgkill, pid, tid, own_signal(&t->rng), 0, 0, 0);
			break;
		case 6: /* an empty list, one lock it holds, or a bad length */
			t->robust[0] =
				(r >> 8) % 2 ? (unsigned long)t->robust : (unsigned long)t->entry;
			t->entry[0] = (unsigned long)t->robust;
			t->robust[1] = 16; /* futex_offset: entry + 16 is the lock */
			t->robust[2] = 0;
			t->lock = (int)tid;
			raw_syscall(SYS_set_robust_list, (long)t->robust, (r >> 16) % 4 ? 24 : 23,
				    0, 0, 0, 0);
			break;
		case 7: /* the tid word elsewhere: the first thread waits on tgkill */
			raw_syscall(SYS_set_tid_address,
				    (long)((r >> 8) % 2 ? (unsigned long)&t->futex : KADDR), 0, 0,
				    0, 0, 0);
			break;
		case 8:
			raw_syscall(SYS_nanosleep, (long)&nap, 0, 0, 0, 0, 0);
			break;
		case 9:
			raw_syscall(SYS_futex, (long)&t->futex, 4, 1, 1, (long)&shared_futex[r % 4],
				    (r >> 8) % 2); /* CMP_REQUEUE; the word is 0 */
			break;
		case 10:
			raw_syscall(SYS_get_robust_list, 0, (long)&t->tls[8], (long)&t->tls[9], 0,
				    0, 0);
			break;
		default:
			raw_syscall(SYS_gettid, 0, 0, 0, 0, 0, 0);
			break;
		}
	}
}

/*
 * clone(flags, stack, &t->tid_word, &t->tid_word, tls): the child pops
 * thread_main and t from its new stack, calls it and exits (only itself).
 * Return: the tid, or -errno.
 */
static long thread_clone(unsigned long flags, struct fuzz_thread *t, unsigned long tls)
{
	unsigned long *top = (unsigned long *)(t->stack + THREAD_STACK) - 2;
	register unsigned long r10 __asm__("r10") = (unsigned long)&t->tid_word;
	register unsigned long r8 __asm__("r8") = tls;
	long ret;

	top[0] = (unsigned long)thread_main;
	top[1] = (unsigned long)t;
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "pop %%rax\n\t"
			 "pop %%rdi\n\t"
			 "call *%%rax\n\t"
			 "mov $60, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall\n\t"
			 "ud2\n"
			 "1:"
			 : "=a"(ret)
			 : "a"(SYS_clone), "D"(flags), "S"(top), "d"(&t->tid_word), "r"(r10),
			   "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

/* A clone or clone3 that must fail; a child it makes after all exits at
 * once, touching no memory (it may share this stack). */
static long clone_refused(long nr, unsigned long a0, unsigned long a1)
{
	register long r10 __asm__("r10") = 0, r8 __asm__("r8") = 0;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "mov $60, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall\n\t"
			 "ud2\n"
			 "1:"
			 : "=a"(ret)
			 : "a"(nr), "D"(a0), "S"(a1), "d"(0), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

static void refused_check(const char *call, unsigned long flags, long ret)
{
	if (ret >= 0) {
		dprintf(saved[2], "fuzz: %s(%#lx) made %ld; Linux refuses it\n", call, flags, ret);
		exit(1);
	}
}

/* Flag sets copy_process refuses (-EINVAL), with harmless others. */
static void clone_bad_flags(void)
{
	static const unsigned long bad[] = {
		CLONE_THREAD,
		CLONE_THREAD | CLONE_VM,
		CLONE_SIGHAND,
		CLONE_SIGHAND | CLONE_THREAD,
		CLONE_NEWNS | CLONE_FS,
		CLONE_NEWUSER | CLONE_FS,
		CLONE_VM | CLONE_SIGHAND | CLONE_THREAD | CLONE_NEWPID,
		CLONE_PIDFD | CLONE_DETACHED,
	};
	unsigned long extra = rnd() & (CLONE_FILES | CLONE_SYSVSEM | CLONE_UNTRACED | CLONE_IO);
	unsigned long flags = bad[rnd() % 8] | extra | (rnd() % 2 ? SIGCHLD : 0);

	refused_check("clone", flags, clone_refused(SYS_clone, flags, 0));
}

/* clone3 with a size or struct clone_args Linux refuses. */
static void clone3_bad(void)
{
	static unsigned long args[32]; /* flags pidfd ctid ptid sig stack size tls set_tid n */
	static const unsigned long sizes[] = { 0, 8, 63, 4097, 1ul << 20, 256, -1ul };
	unsigned long size = 88, a = (unsigned long)args;

	memset(args, 0, sizeof(args));
	switch (rnd() % 10) {
	case 0: /* a byte set past what the kernel knows: -E2BIG */
		args[31] = 1;
		/* fall through */
	case 1:
	case 2:
		size = sizes[rnd() % 7];
		args[31] = size == 256 ? 1 : args[31];
		break;
	case 3:
		a = rnd() % 2 ? 0 : KADDR;
		break;
	case 4:
		args[4] = 65; /* exit_signal */
		break;
	case 5:
		args[0] = CLONE_THREAD | CLONE_VM;
		break;
	case 6:
		args[0] = CLONE_VM | CLONE_SIGHAND | 0x100000000ul; /* CLONE_CLEAR_SIGHAND */
		break;
	case 7:
		args[5] = arena; /* a stack without a size */
		break;
	case 8:
		args[9] = 1 + rnd() % 40; /* set_tid_size without set_tid */
		break;
	default:
		args[0] = SIGCHLD; /* the signal belongs in exit_signal */
		break;
	}
	refused_check("clone3", size, clone_refused(SYS_clone3, a, size));
}

/* Wait for each thread made: its tid word cleared, or no such thread. */
static void threads_join(int n)
{
	const struct timespec ms = { 0, 1000000 };
	long pid = getpid();

	for (int i = 0; i < n; i++) {
		struct fuzz_thread *t = &threads[i];
		int waited = 0;

		if (t->tid <= 0)
			continue;
		while (__atomic_load_n(&t->tid_word, __ATOMIC_ACQUIRE) &&
		       syscall(SYS_tgkill, pid, t->tid, 0) == 0) {
			if (++waited > THREAD_WAIT_MS) {
				dprintf(saved[2], "fuzz: thread %d did not exit\n", t->tid);
				exit(1);
			}
			syscall(SYS_futex, &t->tid_word, 0, t->tid_word, &ms, NULL, 0);
		}
	}
}

/* One call of the first thread while the others run. */
static long thread_poke(int n, int *timer)
{
	struct fuzz_thread *t = &threads[rnd() % n];
	struct {
		unsigned long value;
		int signo, notify, tid, pad[11];
	} ev = { rnd(), handled_signals[rnd() % 4], 4 /* SIGEV_THREAD_ID */, t->tid, { 0 } };
	const struct itimerspec soon = { { 0, 0 }, { 0, (long)(rnd() % 2000000) + 1 } };
	unsigned long head, len;
	uint64_t state = rnd();

	switch (rnd() % 8) {
	case 0: /* by tid alone only asks: a tid gone may be another's now */
		return syscall(SYS_tkill, t->tid, other_signal());
	case 1:
		if (rnd() % 4)
			return syscall(SYS_tgkill, getpid(), t->tid, own_signal(&state));
		return syscall(SYS_tgkill, some_pid(0), t->tid, other_signal());
	case 2:
		return syscall(SYS_futex, &t->futex, 1 | (rnd() % 2) * FUTEX_PRIVATE, 1, NULL, NULL,
			       0);
	case 3: /* REQUEUE or CMP_REQUEUE a thread's waiter to a shared word */
		return syscall(SYS_futex, &t->futex, 3 + rnd() % 2, rnd() % 2, 1 + rnd() % 2,
			       &shared_futex[rnd() % 4], rnd() % 2);
	case 4:
		return syscall(SYS_get_robust_list, rnd() % 2 ? t->tid : some_pid(t->tid),
			       rnd() % 4 ? (unsigned long)&head : wild(),
			       rnd() % 4 ? (unsigned long)&len : wild());
	case 5:
		if (*timer >= 0)
			return 0;
		if (syscall(SYS_timer_create, CLOCK_MONOTONIC, &ev, timer))
			return *timer = -1;
		return syscall(SYS_timer_settime, *timer, 0, &soon, NULL);
	case 6:
		return syscall(
			SYS_rt_tgsigqueueinfo, getpid(), t->tid, own_signal(&state),
			(unsigned long)(int[32]){ handled_signals[0], 0, -1 - (int)(rnd() % 6) });
	default:
		return syscall(SYS_futex, &shared_futex[rnd() % 4], 10, INT32_MAX, NULL, NULL,
			       rnd() % 2 ? -1 : 1 + (int)(rnd() % 8)); /* WAKE_BITSET */
	}
}

/* The thread block. Return: how many of its calls failed. */
static long thread_block(void)
{
	const unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
				    CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
				    CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID;
	int n = 1 + rnd() % NR_THREADS, timer = -1;
	long failed = 0;

	switch (rnd() % 4) {
	case 0:
		clone_bad_flags();
		return 1;
	case 1:
		clone3_bad();
		return 1;
	}
	for (int i = 0; i < n; i++) {
		struct fuzz_thread *t = &threads[i];
		unsigned long tls = (unsigned long)t->tls;

		t->futex = 0;
		t->tid_word = -1;
		t->calls = rnd() % 8;
		t->waiter = rnd() % 4 == 0;
		t->rng = rnd();
		t->tls[0] = tls;
		if (rnd() % 16 == 0)
			tls = rnd() % 2 ? KADDR : USER_END; /* -EPERM */
		t->tid = (int)thread_clone(flags, t, tls);
		failed += t->tid < 0;
	}
	for (int i = rnd() % 6; i > 0; i--)
		failed += thread_poke(n, &timer) == -1;
	threads_join(n);
	if (timer >= 0)
		syscall(SYS_timer_delete, timer);
	return failed;
}

/* --- futex --- */

/* A futex address: its words (aligned or not), the arena, none mapped,
 * the kernel's, NULL. */
static unsigned long futex_addr(void)
{
	switch (rnd() % 8) {
	case 0:
		return (unsigned long)&shared_futex[rnd() % 4] + 1 + rnd() % 3;
	case 1:
		return arena + (rnd() % ARENA_PAGES) * PAGE;
	case 2:
		return arena + play_len - PAGE;
	case 3:
		return rnd() % 2 ? KADDR : 0;
	default:
		return (unsigned long)&shared_futex[rnd() % 4];
	}
}

/* FUTEX_WAKE_OP's operation: op, cmp, oparg, cmparg, or a bad op. */
static unsigned long wake_op(void)
{
	unsigned long op = rnd() % 10, cmp = rnd() % 8;

	return op << 28 | cmp << 24 | (rnd() & 0xfff) << 12 | (rnd() & 0xfff);
}

/* One futex call. Every wait has a timeout: up to 2 ms (absolute ones,
 * of WAIT_BITSET, WAIT_REQUEUE_PI and the PI locks, now or in the past),
 * or one the kernel refuses. */
static long futex_block(void)
{
	static const int ops[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 9, 1 };
	int op = ops[rnd() % 18], flags = (int)(rnd() % 4) << 7;
	unsigned long uaddr = futex_addr(), uaddr2 = futex_addr(), val = rnd() % 4, ts;
	unsigned int val3 = rnd() % 2 ? 0xffffffffu : (unsigned int)rnd();
	struct timespec t;
	struct fuzz_thread *w = &threads[0];
	long ret;

	for (int i = 0; i < 4; i++)
		shared_futex[i] = (int)(rnd() % 4);
	ts = short_timeout(&t);
	if (op == 9 || op == 11 || op == 6 || op == 13) { /* absolute */
		clock_gettime(flags & FUTEX_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC, &t);
		t.tv_sec = rnd() % 2 ? 0 : t.tv_sec;
		t.tv_nsec = rnd() % 2 ? 0 : t.tv_nsec;
		ts = (unsigned long)&t;
	} else if (op != 0 && rnd() % 2) {
		ts = rnd() % 4; /* the others' count (val2) */
	}
	if (op == 5)
		val3 = (unsigned int)wake_op();
	/* A waiter on a shared word, woken, requeued or timed out. */
	w->tid = -1;
	if (rnd() % 4 == 0) {
		w->futex = 0;
		w->tid_word = -1;
		w->calls = rnd() % 2;
		w->waiter = 1;
		w->rng = rnd();
		w->tls[0] = (unsigned long)w->tls;
		w->tid = (int)thread_clone(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
						   CLONE_THREAD | CLONE_SETTLS |
						   CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID,
					   w, (unsigned long)w->tls);
		if (rnd() % 2)
			uaddr = (unsigned long)&w->futex;
	}
	if (rnd() % 8) {
		ret = syscall(SYS_futex, uaddr, op | flags, val, ts, uaddr2, val3);
	} else {
		/* futex_waitv on up to 4 of the words (or a fuzzed count),
		 * fuzzed flags, an absolute timeout now or in the past. */
		struct {
			unsigned long val, uaddr;
			unsigned int flags, reserved;
		} v[4];
		unsigned int n = rnd() % 8 ? 1 + rnd() % 4 : (unsigned int)interesting();

		for (int i = 0; i < 4; i++) {
			v[i].val = rnd() % 8 ? rnd() % 4 : interesting();
			v[i].uaddr = rnd() % 2 ? uaddr : futex_addr();
			v[i].flags = rnd() % 8 ? 0x02 | (unsigned int)(rnd() % 2) << 7
					       : (unsigned int)rnd();
			v[i].reserved = rnd() % 16 ? 0 : 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		t.tv_sec = rnd() % 2 ? 0 : t.tv_sec;
		ret = syscall(449, rnd() % 8 ? (unsigned long)v : interesting(), n,
			      rnd() % 8 ? 0 : (unsigned int)rnd(), &t, rnd() % 8 ? 1 : rnd() % 4);
	}
	if (w->tid > 0)
		threads_join(1);
	return ret == -1;
}

/* --- signals --- */

static long signal_block(void)
{
	static const int codes[] = { -1, -2, -3, -4, -5, -6, 0, 1, 0x80, -60 };
	static const struct timespec zero, ms = { 0, 1000000 };
	int info[32] = { 0 }, code = codes[rnd() % 10];
	uint64_t mask = rnd() % 2 ? proc_sigs_all : rnd(), old, state = rnd();
	struct {
		unsigned long sp;
		int flags;
		unsigned long size;
	} ss = { arena, (int)(rnd() % 4), rnd() % 2 ? 8192 : interesting() },
	  off = { 0, SS_DISABLE_, 0 }, old_ss;
	long pid = some_pid((int)syscall(SYS_gettid)), ret;

	info[0] = own_signal(&state);
	info[2] = code;
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, NULL, &old, 8);
	switch (rnd() % 9) {
	case 0: /* another process: only asks; si_code >= 0 must be EPERM */
		ret = syscall(SYS_rt_sigqueueinfo, pid, other_signal(), info);
		if (pid != getpid() && (code >= 0 || code == SI_TKILL_) && ret != -1) {
			dprintf(saved[2],
				"fuzz: rt_sigqueueinfo(%ld, si_code %d) = %ld, not EPERM\n", pid,
				code, ret);
			exit(1);
		}
		break;
	case 1:
		ret = syscall(SYS_rt_sigqueueinfo, getpid(), info[0],
			      rnd() % 8 ? info : (int *)KADDR);
		break;
	case 2:
		ret = syscall(SYS_rt_tgsigqueueinfo, getpid(), syscall(SYS_gettid), info[0], info);
		break;
	case 3:
		ret = syscall(SYS_rt_sigtimedwait, &mask, rnd() % 2 ? (unsigned long)info : wild(),
			      rnd() % 2 ? &zero : &ms, rnd() % 8 ? 8 : interesting());
		break;
	case 4:
		ret = syscall(SYS_sigaltstack, rnd() % 4 ? (unsigned long)&ss : wild(),
			      rnd() % 2 ? (unsigned long)&old_ss : wild());
		syscall(SYS_sigaltstack, &off, NULL);
		break;
	case 5:
		ret = syscall(
			SYS_rt_sigprocmask, rnd() % 4, rnd() % 4 ? (unsigned long)&mask : wild(),
			rnd() % 2 ? (unsigned long)info : wild(), rnd() % 8 ? 8 : interesting());
		break;
	case 6: /* its own tid gets its own signals, others are asked */
		if (rnd() % 2)
			ret = syscall(SYS_tkill, syscall(SYS_gettid), own_signal(&state));
		else
			ret = syscall(SYS_tkill, pid, other_signal());
		break;
	case 7:
		if (rnd() % 2)
			ret = syscall(SYS_tgkill, getpid(), syscall(SYS_gettid),
				      own_signal(&state));
		else
			ret = syscall(SYS_tgkill, some_pid(0), pid, other_signal());
		break;
	default:
		ret = syscall(SYS_gettid) > 0 ? 0 : -1;
		break;
	}
	syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
	return ret == -1;
}

/* --- job control --- */

#define TCGETS_ 0x5401
#define TCSETS_ 0x5402 /* TCSETSW, TCSETSF follow */
#define TIOCSCTTY_ 0x540e
#define TIOCGPGRP_ 0x540f
#define TIOCSPGRP_ 0x5410
#define TIOCNOTTY_ 0x5422
#define TIOCGSID_ 0x5429

static long tty_ioctl(unsigned long cmd, unsigned long arg)
{
	return syscall(SYS_ioctl, saved[0], cmd, arg);
}

/* The child: a few job-control calls of its own, then it sleeps in a
 * read until the parent kills it. Never returns. */
static void jobctl_child(uint64_t state, int fd)
{
	for (int n = 1 + splitmix(&state) % 6; n > 0; n--) {
		uint64_t r = splitmix(&state);
		int me = getpid(), pg = getpgrp(), x;

		switch (r % 10) {
		case 0:
			setsid();
			break;
		case 1:
			setpgid(0, (r >> 8) % 2 ? 0 : getpgid(getppid()));
			break;
		case 2:
			setpgid((r >> 8) % 2 ? 0 : (int)(r >> 16) % 64, (int)(r >> 24) % 64);
			break;
		case 3:
			getsid((int)(r >> 8) % 64);
			getpgid((int)(r >> 16) % 64);
			break;
		case 4: /* its own group, which it leads, but another may have
			 * joined (pids are small: setpgid finds them), so only
			 * a signal nobody acts on by default; SIGSTOP to itself */
			if (pg == me && (r >> 12) % 8)
				kill((r >> 8) % 2 ? 0 : -pg, group_signals[(r >> 16) % 4]);
			else if (pg == me)
				kill(me, SIGSTOP);
			break;
		case 5:
			tty_ioctl(TIOCSCTTY_, (r >> 8) % 2 ? 0 : 2); /* 1 would steal the tty */
			break;
		case 6:
			tty_ioctl(TIOCNOTTY_, 0);
			break;
		case 7:
			tty_ioctl(TIOCSPGRP_, (unsigned long)&pg);
			break;
		default:
			tty_ioctl((r >> 8) % 2 ? TIOCGSID_ : TIOCGPGRP_, (unsigned long)&x);
			break;
		}
	}
	read(fd, &state, 1);
	_exit(0);
}

/* Reap the child, gone or killed. Return: 0, or -1 after 5 s. */
static int jobctl_reap(int child)
{
	const struct timespec ms = { 0, 1000000 };
	int status;

	for (int waited = 0; waited < THREAD_WAIT_MS; waited++) {
		long ret = syscall(SYS_wait4, child, &status, WNOHANG | __WALL, NULL);

		if (ret == child || ret == -1)
			return 0;
		nanosleep(&ms, NULL);
	}
	return -1;
}

/* A termios like @tio but for one input, echo or job-control setting,
 * or VMIN/VTIME: nothing that changes how output looks. */
static void termios_tweak(struct kernel_termios *tio)
{
	static const unsigned int lflag[] = { 0x8 /* ECHO */, 0x2 /* ICANON */, 0x100 /* TOSTOP */,
					      0x8000 /* IEXTEN */, 0x1 /* ISIG */ };

	if (rnd() % 2)
		tio->lflag ^= lflag[rnd() % 5];
	else
		tio->cc[5 + rnd() % 2] = (unsigned char)rnd(); /* VTIME, VMIN */
}

/* One call of the parent on the child or the tty. *reaped: the child is
 * gone (its pid may be another's). */
static long jobctl_poke(int child, int fg, const struct kernel_termios *tio, int *reaped)
{
	struct kernel_termios t = *tio;
	int x = rnd() % 2 ? getpgrp() : child, status, pg = getpgid(child);
	siginfo_t si;
	long ret;

	switch (rnd() % 10) {
	case 0: /* stop or continue it; its group (see jobctl_child) only continue */
	case 1:
		if (*reaped)
			return 0;
		if (rnd() % 2 && pg == child)
			return kill(-child, group_signals[rnd() % 4]);
		return kill(child, rnd() % 2 ? SIGSTOP : SIGCONT);
	case 2: {
		static const int who[] = { 0, -1, 1 };

		ret = syscall(SYS_wait4, rnd() % 2 ? child : who[rnd() % 3] * child, &status,
			      WNOHANG | (rnd() % 2 ? WUNTRACED : 0) | (rnd() % 2 ? WCONTINUED : 0) |
				      (rnd() % 8 ? 0 : (int)rnd()),
			      rnd() % 2 ? NULL : (void *)wild());
		if (ret == child && (WIFEXITED(status) || WIFSIGNALED(status)))
			*reaped = 1;
		return ret;
	}
	case 3: /* waitid reports stops and continues; an exit only WNOWAIT */
		return syscall(SYS_waitid, rnd() % 4 ? P_PID : rnd() % 3, child,
			       rnd() % 8 ? &si : (void *)wild(),
			       WNOHANG | WNOWAIT | (rnd() % 2 ? WSTOPPED : 0) |
				       (rnd() % 2 ? WCONTINUED : 0) | (rnd() % 2 ? WEXITED : 0),
			       NULL);
	case 4:
		return setpgid(rnd() % 4 ? child : (int)some_pid(child),
			       rnd() % 2 ? x : (int)some_pid(child));
	case 5:
		return rnd() % 2 ? getpgid((int)some_pid(child)) : getsid((int)some_pid(child));
	case 6:
		x = rnd() % 2 ? x : fg;
		return tty_ioctl(rnd() % 2   ? TIOCSPGRP_
				 : rnd() % 2 ? TIOCGPGRP_
					     : TIOCGSID_,
				 rnd() % 8 ? (unsigned long)&x : wild());
	case 7:
		return rnd() % 2 ? tty_ioctl(TIOCSCTTY_, rnd() % 2 ? 0 : 2)
				 : tty_ioctl(TIOCNOTTY_, 0);
	case 8:
		termios_tweak(&t);
		return tty_ioctl(TCSETS_ + rnd() % 3, rnd() % 8 ? (unsigned long)&t : wild());
	default:
		return tty_ioctl(TCGETS_, rnd() % 4 ? (unsigned long)&t : wild());
	}
}

/* The job-control block. Return: how many of its calls failed. */
static long jobctl_block(void)
{
	struct kernel_termios tio;
	int p[2], fg = 0, reaped = 0, have_tio = tty_ioctl(TCGETS_, (unsigned long)&tio) == 0;
	uint64_t state = rnd();
	long failed = 0, child;

	tty_ioctl(TIOCGPGRP_, (unsigned long)&fg);
	if (pipe(p))
		return 1;
	child = fork();
	if (child == 0) {
		close(p[1]);
		jobctl_child(state, p[0]);
	}
	close(p[0]);
	if (child < 0)
		return 1;
	for (int i = 1 + rnd() % 6; i > 0; i--)
		failed += jobctl_poke((int)child, fg, &tio, &reaped) == -1;
	if (!reaped && (kill((int)child, SIGKILL) || jobctl_reap((int)child))) {
		dprintf(saved[2], "fuzz: child %ld not gone after SIGKILL\n", child);
		exit(1);
	}
	if (fg > 0)
		tty_ioctl(TIOCSPGRP_, (unsigned long)&fg);
	if (have_tio)
		tty_ioctl(TCSETS_, (unsigned long)&tio);
	return failed;
}

/* Done once per process: the job-control signals ignored, the handlers
 * set, the tty's termios kept for the end. */
static void proc_setup(void)
{
	jobctl_signals_ignore();
	proc_handlers();
	tty_start_ok = tty_ioctl(TCGETS_, (unsigned long)&tty_start) == 0;
}

static void proc_restore_tty(void)
{
	if (tty_start_ok)
		tty_ioctl(TCSETS_, (unsigned long)&tty_start);
}

/* One block of this section. Return: how many of its calls failed. */
static long proc_call(int verbose, char *line, size_t size)
{
	static const char *const names[] = { "threads", "futex", "signals", "job control" };
	unsigned int which = rnd() % 4;
	long failed;

	if (verbose)
		write(saved[1], line, snprintf(line, size, "fuzz: %s block\n", names[which]));
	jobctl_signals_ignore();
	proc_handlers();
	switch (which) {
	case 0:
		failed = thread_block();
		break;
	case 1:
		failed = futex_block();
		break;
	case 2:
		failed = signal_block();
		break;
	default:
		failed = jobctl_block();
		break;
	}
	proc_drain();
	return failed;
}

/* JOBS processes fuzz at once, seeds SEED..SEED+JOBS-1; the parent waits
 * for them all. Return: 0 if every one ended with status 0. */
static int fuzz_jobs(char **argv, unsigned long seed, int jobs)
{
	char seed_arg[32], self[256];
	char *args[] = { self, seed_arg, argv[2], (char *)"-", NULL };
	int bad = 0;

	/* A bare name is in /bin (the kernel shell runs "fuzz" from there). */
	proc_setup(); /* its jobs' job control must not stop or end it (saved[0]: fd 0) */
	snprintf(self, sizeof(self), "%s%s", strchr(argv[0], '/') ? "" : "/bin/", argv[0]);
	for (int i = 0; i < jobs; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			snprintf(seed_arg, sizeof(seed_arg), "%lu", seed + (unsigned long)i);
			execv(self, args);
			_exit(127);
		}
		if (pid < 0)
			bad++;
	}
	for (;;) {
		int status;
		pid_t pid = wait(&status);

		if (pid < 0)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	}
	proc_restore_tty();
	printf("fuzz: %d jobs, %s\n", jobs, bad ? "some FAILED" : "all done");
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	unsigned long seed = argc > 1 ? strtoul(argv[1], NULL, 0) : 1;
	long count = argc > 2 ? strtol(argv[2], NULL, 0) : 2000, calls = 0, errors = 0;
	int verbose = argc > 3 && argv[3][0] == 'v';
	int jobs = argc > 4 ? atoi(argv[4]) : 1;
	char line[200];

	if (jobs > 1 && argc > 2)
		return fuzz_jobs(argv, seed, jobs);
	rng_state = seed;
	setup(argv[0]);
	proc_setup();
	while (calls < count) {
		unsigned long nr, a[6];
		long ret;

		if (rnd() % EPOLL_ONE_IN == 0) {
			reset_arena();
			epoll_setup();
			errors += epoll_call(verbose, line, sizeof(line)) == -1;
			calls++;
			reset_fds(argv[0]);
			continue;
		}
		if (rnd() % PROC_ONE_IN == 0) {
			reset_arena();
			errors += proc_call(verbose, line, sizeof(line)) > 0;
			calls++;
			reset_fds(argv[0]);
			continue;
		}
		nr = rnd() % (NR_MAX + 1);
		if (is_skipped(nr))
			continue;
		for (int i = 0; i < 6; i++)
			a[i] = interesting();
		tame(nr, a);
		if (verbose)
			write(saved[1], line,
			      snprintf(line, sizeof(line),
				       "fuzz: %ld: %lu(%#lx, %#lx, %#lx, %#lx, %#lx, %#lx)\n",
				       calls, nr, a[0], a[1], a[2], a[3], a[4], a[5]));
		reset_arena();
		ret = syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
		if ((nr == 56 || nr == 57) && ret == 0)
			syscall(SYS_exit_group, 0); /* the child of fork or clone */
		errors += ret == -1;
		calls++;
		undo(nr, a, ret);
		timer_undo(nr, ret);
		if (nr == 13)
			jobctl_signals_ignore();
		reset_fds(argv[0]);
	}
	syscall(SYS_brk, brk0);
	proc_restore_tty();
	for (int i = 0; i < 3; i++)
		dup2(saved[i], i);
	printf("fuzz: %ld calls, seed %lu, %ld errors, done\n", calls, seed, errors);
	return 0;
}
