/*
 * /bin/sigtest: signals as a Linux program meets them. Each check prints
 * "sigtest: NAME: ok" or "sigtest: NAME: FAILED (why)"; then "sigtest: all
 * ok" and abort(), which must end the program by SIGABRT ("killed by
 * SIGABRT" in Folium's shell, "Aborted" and status 134 on Linux), or
 * "sigtest: N FAILED" and exit status 1. It runs the same on the build
 * machine: musl-gcc -static -O2 -o /tmp/sigtest user/sigtest.c &&
 * /tmp/sigtest. Example check: a write to address 0 enters the SIGSEGV
 * handler with si_code SEGV_MAPERR, si_addr 0, and siglongjmps back.
 */
#include <setjmp.h>
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile sig_atomic_t hits;
static siginfo_t last_info;
static int failures;
static volatile uintptr_t handler_frame, handler_local;
static volatile unsigned handler_mxcsr;
static char *fix_page;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("sigtest: %s: ok\n", name);
	} else {
		printf("sigtest: %s: FAILED (%s)\n", name, why);
		failures++;
	}
	fflush(stdout);
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fn;
	sa.sa_flags = SA_SIGINFO | flags;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		perror("sigaction");
}

/* Records the siginfo, the frame pointer (rsp + 8 at entry is 16-aligned
 * if rbp is) and a local's address, then jumps back. */
static void jump_handler(int sig, siginfo_t *info, void *uc)
{
	volatile int local = sig;

	(void)uc;
	hits++;
	last_info = *info;
	handler_frame = (uintptr_t)__builtin_frame_address(0);
	handler_local = (uintptr_t)&local;
	siglongjmp(env, 1);
}

static void null_write_reaches_the_handler(void)
{
	install(SIGSEGV, jump_handler, 0);
	hits = 0;
	if (!sigsetjmp(env, 1))
		*(volatile int *)0 = 1;
	check("SIGSEGV on a null write, siglongjmp out",
	      hits == 1 && last_info.si_signo == SIGSEGV && last_info.si_code == SEGV_MAPERR &&
		      last_info.si_addr == NULL,
	      "handler not run or wrong siginfo");
	check("handler entry stack is ABI-aligned", handler_frame % 16 == 0,
	      "rsp + 8 not 16-aligned");
}

/* Makes the page writable and returns: the store is retried. Clobbers
 * xmm1 and MXCSR's rounding, which the frame must give back. */
static void fix_handler(int sig, siginfo_t *info, void *uc)
{
	unsigned mxcsr;

	(void)sig;
	(void)uc;
	hits++;
	last_info = *info;
	__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
	handler_mxcsr = mxcsr;
	mxcsr |= 0x6000;
	__asm__ volatile("pxor %%xmm1, %%xmm1; ldmxcsr %0" : : "m"(mxcsr) : "xmm1");
	mprotect(fix_page, 4096, PROT_READ | PROT_WRITE);
}

static void mprotect_in_the_handler_retries_the_store(void)
{
	uint64_t in = 0x1122334455667788ull, out = 0, r12 = 0;
	unsigned mxcsr = 0x1f80 | 0x2000, mxcsr_after; /* round down */

	fix_page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	install(SIGSEGV, fix_handler, 0);
	hits = 0;
	__asm__ volatile("ldmxcsr %[m]\n\t"
			 "movq %[in], %%xmm1\n\t"
			 "mov %[in], %%r12\n\t"
			 "movl $7, (%[p])\n\t"
			 "movq %%xmm1, %[out]\n\t"
			 "mov %%r12, %[r12]\n\t"
			 "stmxcsr %[ma]"
			 : [out] "=r"(out), [r12] "=r"(r12), [ma] "=m"(mxcsr_after)
			 : [in] "r"(in), [p] "r"(fix_page), [m] "m"(mxcsr)
			 : "xmm1", "r12", "memory");
	check("SIGSEGV handler mprotects, the store is retried",
	      hits == 1 && *(volatile int *)fix_page == 7 && last_info.si_code == SEGV_ACCERR &&
		      last_info.si_addr == fix_page,
	      "no retry or wrong siginfo");
	check("registers and FPU state survive the handler",
	      out == in && r12 == in && mxcsr_after == mxcsr, "xmm1, r12 or MXCSR changed");
	check("the handler starts with the initial MXCSR", handler_mxcsr == 0x1f80,
	      "MXCSR inherited");
	munmap(fix_page, 4096);
}

static void ud2_is_sigill(void)
{
	install(SIGILL, jump_handler, 0);
	hits = 0;
	if (!sigsetjmp(env, 1))
		__asm__ volatile("ud2");
	check("ud2 is SIGILL ILL_ILLOPN",
	      hits == 1 && last_info.si_signo == SIGILL && last_info.si_code == ILL_ILLOPN &&
		      last_info.si_addr != NULL,
	      "wrong signal or siginfo");
}

static void divide_by_zero_is_sigfpe(void)
{
	volatile int zero = 0, x = 7;

	install(SIGFPE, jump_handler, 0);
	hits = 0;
	if (!sigsetjmp(env, 1))
		x = x / zero;
	check("integer divide by zero is SIGFPE FPE_INTDIV",
	      hits == 1 && last_info.si_signo == SIGFPE && last_info.si_code == FPE_INTDIV,
	      "wrong signal or siginfo");
}

static void count_handler(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)uc;
	hits++;
	last_info = *info;
}

/* int3 traps after the instruction: returning resumes past it. */
static void int3_is_sigtrap(void)
{
	install(SIGTRAP, count_handler, 0);
	hits = 0;
	__asm__ volatile("int3");
	check("int3 is SIGTRAP, the handler returns past it",
	      hits == 1 && last_info.si_signo == SIGTRAP && last_info.si_code == SI_KERNEL,
	      "wrong signal or siginfo");
}

static void info_handler(int sig, siginfo_t *info, void *uc)
{
	sigset_t now;

	(void)sig;
	(void)uc;
	hits++;
	last_info = *info;
	/* Blocked here: the signal itself (no SA_NODEFER) and sa_mask. */
	sigprocmask(SIG_BLOCK, NULL, &now);
	handler_local = sigismember(&now, SIGUSR1) * 2 + sigismember(&now, SIGUSR2);
}

static void raise_delivers_siginfo_and_masks(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGUSR2);
	sigaction(SIGUSR1, &sa, NULL);
	hits = 0;
	raise(SIGUSR1);
	check("raise(SIGUSR1) with SA_SIGINFO",
	      hits == 1 && last_info.si_signo == SIGUSR1 && last_info.si_code == SI_TKILL,
	      "handler not run or wrong siginfo");
	check("SIGUSR1 and sa_mask blocked in the handler", handler_local == 3,
	      "wrong mask in the handler");
	hits = 0;
	kill(getpid(), SIGUSR1);
	check("kill(getpid()) is SI_USER from this pid",
	      hits == 1 && last_info.si_code == SI_USER && last_info.si_pid == getpid(),
	      "handler not run or wrong siginfo");
}

/* A write to a pipe nobody can read: SIGPIPE (caught here), and EPIPE. */
static void write_to_a_closed_pipe_is_sigpipe(void)
{
	struct sigaction sa;
	int fds[2];
	long n;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, NULL);
	hits = 0;
	if (pipe(fds)) {
		check("a write to a pipe with no reader is SIGPIPE and EPIPE", 0, "pipe failed");
		return;
	}
	close(fds[0]);
	n = write(fds[1], "x", 1);
	check("a write to a pipe with no reader is SIGPIPE and EPIPE",
	      n == -1 && errno == EPIPE && hits == 1 && last_info.si_signo == SIGPIPE,
	      "no SIGPIPE, or not EPIPE");
	close(fds[1]);
	signal(SIGPIPE, SIG_DFL);
}

static void blocked_signal_waits_for_unblock(void)
{
	sigset_t set, pending;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	hits = 0;
	raise(SIGUSR1);
	sigpending(&pending);
	check("a blocked signal stays pending", hits == 0 && sigismember(&pending, SIGUSR1) == 1,
	      "delivered while blocked");
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	check("unblocking delivers it", hits == 1, "not delivered after unblock");
}

static char altstack_mem[64 * 1024] __attribute__((aligned(16)));
static volatile int altstack_flags, altstack_eperm;

static void onstack_handler(int sig, siginfo_t *info, void *uc)
{
	volatile int local = sig;
	stack_t now, other = { .ss_sp = altstack_mem, .ss_size = sizeof(altstack_mem) };

	(void)info;
	(void)uc;
	hits++;
	handler_local = (uintptr_t)&local;
	sigaltstack(NULL, &now);
	altstack_flags = now.ss_flags;
	altstack_eperm = sigaltstack(&other, NULL);
}

static void sigaltstack_runs_the_handler_there(void)
{
	stack_t ss = { .ss_sp = altstack_mem, .ss_size = sizeof(altstack_mem) }, old;
	uintptr_t base = (uintptr_t)altstack_mem;

	check("sigaltstack refuses less than MINSIGSTKSZ",
	      sigaltstack(&(stack_t){ .ss_sp = altstack_mem, .ss_size = 1024 }, NULL) == -1,
	      "accepted");
	sigaltstack(&ss, NULL);
	install(SIGUSR2, onstack_handler, SA_ONSTACK);
	hits = 0;
	raise(SIGUSR2);
	check("SA_ONSTACK handler runs on the alternate stack",
	      hits == 1 && handler_local >= base && handler_local < base + sizeof(altstack_mem),
	      "local not on the alternate stack");
	check("sigaltstack inside: SS_ONSTACK, changes refused",
	      altstack_flags == SS_ONSTACK && altstack_eperm == -1, "wrong flags or accepted");
	sigaltstack(NULL, &old);
	check("after the handler: off the stack again", old.ss_flags == 0, "still SS_ONSTACK");
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
}

static void resethand_handler(int sig, siginfo_t *info, void *uc)
{
	(void)sig;
	(void)info;
	(void)uc;
	hits++;
}

static void resethand_restores_the_default(void)
{
	struct sigaction now;

	install(SIGUSR1, resethand_handler, SA_RESETHAND);
	hits = 0;
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &now);
	check("SA_RESETHAND runs once, then SIG_DFL", hits == 1 && now.sa_handler == SIG_DFL,
	      "handler kept");
}

static void ignored_signal_does_nothing(void)
{
	sigset_t pending;

	signal(SIGUSR2, SIG_IGN);
	raise(SIGUSR2);
	signal(SIGCHLD, SIG_DFL);
	raise(SIGCHLD);
	sigpending(&pending);
	/* Reaching the check at all means neither killed the program. */
	check("SIG_IGN and a default-ignored SIGCHLD do nothing",
	      !sigismember(&pending, SIGUSR2) && !sigismember(&pending, SIGCHLD), "left pending");
}

int main(void)
{
	null_write_reaches_the_handler();
	mprotect_in_the_handler_retries_the_store();
	ud2_is_sigill();
	divide_by_zero_is_sigfpe();
	int3_is_sigtrap();
	raise_delivers_siginfo_and_masks();
	blocked_signal_waits_for_unblock();
	write_to_a_closed_pipe_is_sigpipe();
	sigaltstack_runs_the_handler_there();
	resethand_restores_the_default();
	ignored_signal_does_nothing();
	if (failures) {
		printf("sigtest: %d FAILED\n", failures);
		return 1;
	}
	printf("sigtest: all ok\n");
	fflush(stdout);
	abort();
}
