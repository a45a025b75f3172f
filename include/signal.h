/*
 * Signals of a process (Linux: include/linux/signal.h, sched/signal.h,
 * uapi/asm-generic/signal.h): Linux's numbers, the handler table, the
 * blocked and pending masks, the alternate stack. Delivery builds Linux's
 * x86-64 rt_sigframe on the user stack (arch/x86_64/signal.c). Errors are
 * negative errno values.
 */
#ifndef FOLIUM_SIGNAL_H
#define FOLIUM_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>

#define _NSIG 64
#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19

typedef uint64_t sigset_t; /* bit (sig - 1) */
#define sigmask(sig) (1ull << ((sig)-1))

/* Linux's kernel struct sigaction for x86-64 (what rt_sigaction copies). */
struct k_sigaction {
	uint64_t handler; /* SIG_DFL 0, SIG_IGN 1, or a user address */
	uint64_t flags;	  /* SA_* */
	uint64_t restorer;
	sigset_t mask;
};

/* Linux: stack_t. */
struct k_sigaltstack {
	uint64_t ss_sp;
	int32_t ss_flags;
	int32_t pad;
	uint64_t ss_size;
};

/* What a task holds (Linux: sighand_struct, task->blocked, ->pending,
 * sas_ss_*). */
struct task_signals {
	struct k_sigaction action[_NSIG];
	sigset_t blocked;
	sigset_t pending;
	struct k_sigaltstack altstack;
	int fault_code;	     /* si_code of a pending synchronous fault */
	uint64_t fault_addr; /* si_addr of it */
};

#endif
