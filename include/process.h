/*
 * User processes: exec of a static ELF program from the root file system,
 * the Linux system calls it may make, and its end (Linux: fs/exec.c,
 * kernel/exit.c, the sys_* functions). One program runs at a time, to
 * completion: the caller of do_execve waits for it, as a shell waits for
 * a foreground job. Errors are negative errno values.
 */
#ifndef FOLIUM_PROCESS_H
#define FOLIUM_PROCESS_H

#include <kernel.h>
#include <fs.h>
#include <signal.h>

struct mm_struct;

/* What the kernel knows of a running program (Linux: task_struct). */
struct task {
	int pid;
	char comm[16];		       /* the file name's last component, truncated */
	struct mm_struct *mm;	       /* its address space, current_mm while it runs */
	unsigned long start_brk;       /* the page after the highest segment */
	unsigned long brk;	       /* the heap's end: [start_brk, brk) is mapped */
	unsigned long brk_limit;       /* brk stays below the mmap area */
	unsigned long clear_child_tid; /* set_tid_address */
	unsigned long robust_list;     /* set_robust_list (kept, never walked) */
	int pdeath_signal;	       /* prctl(PR_SET_PDEATHSIG): kept, no parent */
	bool no_new_privs;	       /* prctl(PR_SET_NO_NEW_PRIVS) */
	uint64_t cap_effective;	       /* Linux: cred->cap_effective; root's full set at exec */
	uint64_t cap_permitted;	       /* what capset may raise into cap_effective */
	uint64_t cap_inheritable;      /* kept for exec (none at exec, as for root) */
	uint64_t cap_bset;	       /* the bounding set: CAP_FULL_SET */
	char exe[PATH_MAX];	       /* the path exec was given: /proc/self/exe */
	struct files_struct files;     /* fds and cwd (fs/file.c) */
	struct task_signals signals;   /* handlers, masks, pending (kernel/signal.c) */
};

/* A signal is pending and not blocked: a blocking wait (console read,
 * nanosleep) returns -EINTR so it can be delivered (Linux:
 * signal_pending). */
static inline bool signal_pending(const struct task *task)
{
	return task->signals.pending & ~task->signals.blocked;
}

/* Capabilities (Linux: include/uapi/linux/capability.h). Every program
 * runs as root, which holds all of them (Linux: CAP_FULL_SET for uid 0);
 * a task without one (the tests' tasks) is held to the limits. */
#define CAP_IPC_LOCK 14
#define CAP_SYS_RESOURCE 24
#define CAP_LAST_CAP 40
#define CAP_FULL_SET ((1ull << (CAP_LAST_CAP + 1)) - 1)
/* Root's credentials at exec (Linux: the capabilities exec gives uid 0). */
static inline void task_caps_root(struct task *task)
{
	task->cap_effective = task->cap_permitted = task->cap_bset = CAP_FULL_SET;
	task->cap_inheritable = 0;
}
/* Linux: has_capability (capable() is this for current). */
static inline bool has_capability(const struct task *task, int cap)
{
	return task->cap_effective & (1ull << cap);
}

/* kernel/capability.c: prctl's PR_CAPBSET_READ and PR_CAPBSET_DROP.
 * Return: the result, or -ENOSYS for any other option. */
long cap_task_prctl(struct task *task, int option, unsigned long cap);

/* The pid every program gets: each runs alone, as the first process. */
#define TASK_PID 1

/* --- kernel/exec.c --------------------------------------------------------- */
/**
 * do_execve - run the program at @path with @argv and @envp, and wait.
 * Loads it into a new mm (segments, an 8 MiB stack VMA, the initial stack
 * of create_elf_tables), runs it in ring 3 until it exits or faults, then
 * goes back to the caller's mm and destroys the program's.
 * Return: a wait status in Linux's encoding (<sys/wait.h>): the exit
 * code << 8 for a program that exited (W_EXITCODE), the signal number for
 * one a signal ended; or a negative errno if it never ran (-ENOENT,
 * -EACCES, -ENOEXEC with the reason printed, -ENOMEM).
 */
int do_execve(const char *path, const char *const *argv, const char *const *envp);
/* End the running program with the wait status @code: exit code << 8, or
 * the signal that killed it (Linux: do_exit's code). Context: ring 0,
 * called from a system call or a trap of the program. */
void __noreturn do_exit(int code);
#define WIFEXITED(status) (((status)&0x7f) == 0)
#define WEXITSTATUS(status) (((status) >> 8) & 0xff)
#define WTERMSIG(status) ((status)&0x7f)

/* --- kernel/pid.c ------------------------------------------------------------ */
/* The task the pidfd fd of task names (Linux: pidfd_get_task). Return:
 * it, or NULL with *err -EBADF (no fd, or not a pidfd) or -ESRCH (the
 * process is gone). */
struct task *pidfd_get_task(struct task *task, int fd, int *err);

/* --- system calls (<syscalls.h>, kernel/syscall_table.c) ----------------- */
#define ARCH_SET_FS 0x1002
#define ARCH_GET_FS 0x1003
#define TIOCGWINSZ 0x5413

/* mmap's prot and flags (madvise's advice is in <vm.h>): Linux's values
 * (uapi/asm-generic/mman*.h). */
#define PROT_NONE 0x0
#define PROT_READ 0x1
#define PROT_WRITE 0x2
#define PROT_EXEC 0x4
#define MAP_SHARED 0x01
#define MAP_PRIVATE 0x02
#define MAP_DROPPABLE 0x08 /* a mapping type, as MAP_PRIVATE (Linux 6.11) */
#define MAP_TYPE 0x0f
#define MAP_FIXED 0x10
#define MAP_ANONYMOUS 0x20
#define MAP_GROWSDOWN 0x0100
#define MAP_LOCKED 0x2000
#define MAP_NORESERVE 0x4000
#define MAP_POPULATE 0x8000
#define MAP_HUGETLB 0x40000
#define MAP_FIXED_NOREPLACE 0x100000
/* mlock2's and mlockall's flags (uapi/asm-generic/mman*.h). */
#define MLOCK_ONFAULT 0x01
#define MCL_CURRENT 1
#define MCL_FUTURE 2
#define MCL_ONFAULT 4
/* MAP_HUGETLB's size: log2 of it in bits 26..31, 0 for the default. */
#define MAP_HUGE_SHIFT 26
#define MAP_HUGE_MASK 0x3f

/**
 * do_syscall - run system call @nr for @task with the six arguments @args
 * (Linux: the sys_call_table lookup of do_syscall_64).
 * Return: the value for rax: a result, or a negative errno (-ENOSYS for
 * a number not served, each logged once). exit and exit_group do not
 * return.
 */
long do_syscall(struct task *task, unsigned long nr, const unsigned long args[6]);
/* Linux's name of system call nr ("?" if it has none). */
const char *syscall_name(unsigned long nr);

/* --- arch hooks (arch/x86_64/syscall.c) ------------------------------------ */
/* Enter ring 3 at @ip with @sp and run @task until do_exit. Context: its
 * mm is current. Return: the status do_exit was given. */
int arch_run_user(struct task *task, unsigned long ip, unsigned long sp);
/* Leave the program for good, back into arch_run_user's caller. */
void __noreturn arch_exit_user(int status);
/* The running program, NULL in the kernel's own work. */
struct task *current_task(void);
/* AT_HWCAP: CPUID.1:EDX, as Linux's ELF_HWCAP. */
uint64_t arch_elf_hwcap(void);

#endif
