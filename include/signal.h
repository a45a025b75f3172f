/*
 * Signals of a process (Linux: include/linux/signal.h, sched/signal.h,
 * uapi/asm-generic/signal.h, siginfo.h): Linux's numbers, the handler
 * table, the blocked and pending masks, the alternate stack. kernel/signal.c
 * sends, chooses and dequeues (the generic half); arch/x86_64/signal.c
 * builds Linux's x86-64 rt_sigframe on the user stack and takes it down
 * again in rt_sigreturn. Example: a ring-3 write to address 0 queues
 * SIGSEGV (SEGV_MAPERR, si_addr 0); on the way back to ring 3 the handler
 * runs with (11, &info, &uc), or the program dies with status 11.
 */
#ifndef FOLIUM_SIGNAL_H
#define FOLIUM_SIGNAL_H

#include <list.h>
#include <stdbool.h>
#include <stdint.h>

struct task_struct;
struct ucounts;

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
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31

#define SIGRTMIN 32 /* the kernel's: libc keeps 32-34 for itself */

typedef uint64_t sigset_t; /* bit (sig - 1) */
#define sigmask(sig) (1ull << ((sig)-1))
#define valid_signal(sig) ((unsigned long)(sig) <= _NSIG)

#define SIG_DFL 0ul
#define SIG_IGN 1ul

/* sa_flags (uapi/asm-generic/signal-defs.h, x86's SA_RESTORER). */
#define SA_NOCLDSTOP 0x00000001ul
#define SA_NOCLDWAIT 0x00000002ul
#define SA_SIGINFO 0x00000004ul
#define SA_RESTORER 0x04000000ul
#define SA_ONSTACK 0x08000000ul
#define SA_RESTART 0x10000000ul
#define SA_NODEFER 0x40000000ul
#define SA_RESETHAND 0x80000000ul

/* rt_sigprocmask's how. */
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* sigaltstack: ss_flags, and the smallest stack Linux accepts. */
#define SS_ONSTACK 1
#define SS_DISABLE 2
#define SS_AUTODISARM (1u << 31)
#define SS_FLAG_BITS SS_AUTODISARM
#define MINSIGSTKSZ 2048

/* si_code values (uapi/asm-generic/siginfo.h). */
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_TIMER (-2) /* a POSIX timer's expiry (kernel/posix-timers.c) */
/* SIGCHLD's si_code (Linux: CLD_*). */
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_STOPPED 5
#define CLD_CONTINUED 6
#define SI_QUEUE (-1)
#define SI_TKILL (-6)
#define ILL_ILLOPN 2
#define FPE_INTDIV 1
#define FPE_FLTDIV 3
#define FPE_FLTOVF 4
#define FPE_FLTUND 5
#define FPE_FLTRES 6
#define FPE_FLTINV 7
#define SEGV_MAPERR 1
#define SEGV_ACCERR 2
#define BUS_ADRALN 1
#define BUS_ADRERR 2
#define TRAP_BRKPT 1
#define TRAP_TRACE 2

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

/*
 * Linux: kernel_siginfo, the first 32 bytes of the user's 128-byte
 * siginfo_t: si_signo, si_errno, si_code at 0, 4, 8; at 16 the union,
 * si_pid and si_uid for kill, with si_status for SIGCHLD (si_utime and
 * si_stime, beyond, stay 0), si_addr for a fault.
 */
struct kernel_siginfo {
	int32_t si_signo;
	int32_t si_errno;
	int32_t si_code;
	int32_t pad;
	union {
		struct {
			int32_t pid;
			uint32_t uid;
		} kill;
		struct {
			int32_t pid;
			uint32_t uid;
			int32_t status; /* exit code, or the signal that killed it */
		} sigchld;
		struct {
			int32_t pid;
			uint32_t uid;
			uint64_t value; /* si_value: sigqueue's int or pointer */
		} rt;
		uint64_t addr;
		struct {
			int32_t tid;	 /* si_timerid */
			int32_t overrun; /* si_overrun */
			uint64_t sigval; /* si_value */
		} timer;
	};
	uint64_t pad2;
};
#define SI_MAX_SIZE 128

/* Linux: struct sigqueue, one queued instance with its siginfo. */
struct sigqueue {
	struct list_head list;
	struct kernel_siginfo info;
	unsigned int flags;	 /* SIGQUEUE_PREALLOC: a POSIX timer's, never freed here */
	struct ucounts *ucounts; /* charged to this user's RLIMIT_SIGPENDING count */
};
#define SIGQUEUE_PREALLOC 1

/* Linux: struct sigpending. A signal is pending when its bit is set in
 * @signal; its instances, with their siginfo, are on @list (a standard
 * signal has at most one, a real-time one as many as were sent; a bit
 * with no instance is a signal whose siginfo could not be queued, which
 * is dequeued as SI_USER). */
struct sigpending {
	struct list_head list;
	sigset_t signal;
};

/* What a task holds of its own (Linux: task->blocked, ->pending, sas_ss_*,
 * saved_sigmask). The handlers are the sighand's, shared with
 * CLONE_SIGHAND; the process-directed pending set is the signal_struct's. */
struct task_signals {
	sigset_t blocked;
	struct sigpending pending;     /* thread-directed: tkill, faults */
	struct k_sigaltstack altstack; /* ss_size 0: none */
	/* Linux: saved_sigmask and restore_sigmask. ppoll and pselect6 wait
	 * under the caller's mask; the one to go back to is kept here until
	 * the return to ring 3, so a handler for a signal only that mask let
	 * in still runs (its frame saves this one for rt_sigreturn). */
	sigset_t saved_sigmask;
	bool restore_sigmask;
};

/* A signal chosen for delivery to a handler (Linux: struct ksignal). */
struct ksignal {
	struct k_sigaction ka; /* the action as it was when chosen */
	struct kernel_siginfo info;
	int sig;
};

/* --- kernel/signal.c ------------------------------------------------------- */
/* Linux: send_signal_locked (PIDTYPE_PID). Queue @sig with @info (NULL:
 * SI_KERNEL) for the thread @t; a signal it ignores is dropped, a second
 * instance of a pending standard one is merged into it. Return: 0, or
 * -EINVAL for a number outside 1.._NSIG. Context: any. */
int send_signal(struct task_struct *t, int sig, const struct kernel_siginfo *info);
/* Linux: group_send_sig_info's send (PIDTYPE_TGID): @sig for @p's whole
 * process, taken by any thread that does not block it. Return: as
 * send_signal's, or -EAGAIN when a sigqueue()'d real-time signal cannot
 * be queued. */
int group_send_signal(struct task_struct *p, int sig, const struct kernel_siginfo *info);
/* Linux: posixtimer_send_sigqueue. Queue the preallocated @q (its
 * info filled) for the thread @t or (@group) its process. Return: false
 * if @q is still queued from before (the caller counts an overrun). */
bool send_sigqueue(struct sigqueue *q, struct task_struct *t, bool group);
/* Take the preallocated @q off whichever queue of @t's process holds it
 * (timer_delete, exit). */
void sigqueue_cancel(struct sigqueue *q, struct task_struct *t);
/* Linux: dequeue_signal. Take the first pending signal @mask does not
 * block, the thread's own before the process's. Return: it, 0 if none. */
int dequeue_signal(struct task_struct *t, sigset_t mask, struct kernel_siginfo *info);
/* The signal dequeue_signal(@t, @mask, ...) would take, left pending; 0
 * if none (Linux: signalfd_poll's next_signal on both queues). */
int peek_signal(const struct task_struct *t, sigset_t mask);
/* Linux: init_sigpending, flush_sigqueue, flush_signals. */
void init_sigpending(struct sigpending *pending);
void flush_sigqueue(struct sigpending *pending);
void flush_signals(struct task_struct *t);
/* Linux: copy_siginfo_to_user: 128 bytes, zeros past the kernel's. */
int copy_siginfo_to_user(unsigned long uinfo, const struct kernel_siginfo *info);
/* Linux: kill_pgrp. @sig with si_code @code and @sender's pid (NULL:
 * the kernel's, 0) to every process of the group @pgid. Return: 0,
 * -ESRCH (nobody in it) or -EINVAL. */
int kill_pgrp(const struct task_struct *sender, int pgid, int sig, int code);
/* Linux: kill_pid_info. The same for the process @pid alone. Return: 0,
 * -ESRCH (no such process) or -EINVAL. */
int kill_pid_info(const struct task_struct *sender, int pid, int sig, int code);
/* Linux: force_sig_fault. A synchronous fault signal: if blocked or
 * ignored it is unblocked and its action reset to SIG_DFL, so it kills. */
void force_sig_fault(struct task_struct *t, int sig, int code, uint64_t addr);
/* Linux: force_sigsegv, for a frame that cannot be built or taken down:
 * SIGSEGV with its default action, unblocked. */
void force_sigsegv(struct task_struct *t);
/* Linux: unhandled_signal (without the global-init rule). Return: true if
 * @sig, raised now by a fault, would kill @t: no handler, or blocked. */
bool unhandled_signal(const struct task_struct *t, int sig);
/* Linux: the default action's kind (sig_kernel_ignore, sig_kernel_stop,
 * else terminate). */
bool sig_kernel_ignore(int sig);
bool sig_kernel_stop(int sig);
/*
 * Linux: get_signal's choice, without acting on a fatal one. Dequeues
 * pending unblocked signals, synchronous ones (SEGV BUS ILL TRAP FPE SYS)
 * first, then the lowest number, skipping the ignored ones.
 * Return: 0 if none is left; sig > 0 with @ks filled if its handler must
 * run (SA_RESETHAND already applied); -sig if it kills the task.
 */
int signal_next_action(struct task_struct *t, struct ksignal *ks);
/* Linux: get_signal. Return: true with @ks filled for a handler to run;
 * false: nothing to deliver. A fatal signal ends the task (do_exit). */
bool get_signal(struct task_struct *t, struct ksignal *ks);
/* Linux: signal_delivered. The handler's frame is built: block sa_mask
 * and (without SA_NODEFER) the signal itself. */
void signal_delivered(struct task_struct *t, const struct ksignal *ks);
/* Linux: set_current_blocked. SIGKILL and SIGSTOP are never blocked. */
void set_current_blocked(struct task_struct *t, sigset_t set);
/* Linux: set_user_sigmask. Install the user's mask at @umask (0: leave
 * the mask) until restore_saved_sigmask_unless. Return: 0, -EINVAL
 * (@sigsetsize is not 8) or -EFAULT. */
int set_user_sigmask(struct task_struct *t, unsigned long umask, size_t sigsetsize);
/* Linux: restore_saved_sigmask_unless. @interrupted (the call returns
 * -ERESTARTNOHAND for a signal): keep the call's mask for the signal's
 * delivery, the return to ring 3 restores the saved one; else restore
 * it now. */
void restore_saved_sigmask_unless(struct task_struct *t, bool interrupted);
/* Linux: restore_saved_sigmask: the saved mask back, if one is kept. */
void restore_saved_sigmask(struct task_struct *t);
/* Linux: flush_signal_handlers (force_default 0). Caught signals go back
 * to SIG_DFL, ignored ones stay ignored: at exec and for clone3's
 * CLONE_CLEAR_SIGHAND. */
void flush_signal_handlers(struct task_struct *task);

/* Linux: sigmask_to_save: the mask a signal frame must restore. */
sigset_t sigmask_to_save(const struct task_struct *t);
/* Linux: on_sig_stack, sas_ss_flags for the user stack pointer @sp. */
bool on_sig_stack(const struct task_struct *t, uint64_t sp);
int sas_ss_flags(const struct task_struct *t, uint64_t sp);
/* Linux: do_sigaltstack with the user's stack pointer @sp. @ss NULL: no
 * change; @oss NULL: no report. Return: 0, -EPERM (on the stack now),
 * -EINVAL (bad ss_flags) or -ENOMEM (smaller than MINSIGSTKSZ). */
int do_sigaltstack(struct task_struct *t, const struct k_sigaltstack *ss, struct k_sigaltstack *oss,
		   uint64_t sp);
/* Linux: restore_altstack in rt_sigreturn, and __save_altstack for the
 * frame (which disarms an SS_AUTODISARM stack). Return: 0 or -EFAULT. */
int restore_altstack(struct task_struct *t, unsigned long uss, uint64_t sp);
int save_altstack(struct task_struct *t, unsigned long uss, uint64_t sp);

/* --- arch hooks (arch/x86_64/signal.c; arch/host/arch.c) -------------------- */
/* Linux: current_user_stack_pointer. The ring-3 rsp @t entered the kernel
 * with; 0 for a task not running in ring 3 (the in-kernel tests' own). */
uint64_t arch_user_sp(const struct task_struct *t);

#endif
