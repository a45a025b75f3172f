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
 * after.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

/* splitmix64: a seeded, well-mixed 64-bit sequence. */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
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
 * epoll_wait, epoll_pwait, epoll_pwait2, eventfd2, read or write is made
 * on them with fuzzed arguments. Waits never block: their timeout is 0
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
	static const unsigned short nrs[] = { 233, 232, 281, 441, 290, 0, 1 };
	unsigned long nr = nrs[rnd() % 7], a[6];

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

/* JOBS processes fuzz at once, seeds SEED..SEED+JOBS-1; the parent waits
 * for them all. Return: 0 if every one ended with status 0. */
static int fuzz_jobs(char **argv, unsigned long seed, int jobs)
{
	char seed_arg[32], self[256];
	char *args[] = { self, seed_arg, argv[2], (char *)"-", NULL };
	int bad = 0;

	/* A bare name is in /bin (the kernel shell runs "fuzz" from there). */
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
		reset_fds(argv[0]);
	}
	syscall(SYS_brk, brk0);
	for (int i = 0; i < 3; i++)
		dup2(saved[i], i);
	printf("fuzz: %ld calls, seed %lu, %ld errors, done\n", calls, seed, errors);
	return 0;
}
