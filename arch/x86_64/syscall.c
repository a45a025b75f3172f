/*
 * Ring 3 on x86-64: the SYSCALL MSRs, do_syscall_64, entering a program
 * and leaving it for good (Linux: arch/x86/kernel/cpu/common.c
 * syscall_init, arch/x86/entry/common.c do_syscall_64, process_64.c
 * start_thread and do_arch_prctl_64, arch/x86/mm/fault.c
 * show_signal_msg). A program runs on its own kernel stack (TSS.rsp0 and
 * the per-CPU area point at it); its end, by exit or by a fault, jumps
 * back to arch_run_user's caller through user_mode_return
 * (syscall_entry.asm), abandoning whatever that stack held.
 */
#include <arch.h>
#include <errno.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/io.h>
#include <asm/special_insns.h>
#include "x86.h"

#define EFER_SCE (1ull << 0)	  /* SYSCALL/SYSRET enabled */
#define X86_CR4_SMEP (1ull << 20) /* no instruction fetch from user pages in ring 0 */
#define X86_EFLAGS_TF (1ull << 8)
#define X86_EFLAGS_IF (1ull << 9)
#define X86_EFLAGS_DF (1ull << 10)
#define X86_EFLAGS_NT (1ull << 14)
#define X86_EFLAGS_AC (1ull << 18)

#define TASK_STACK_SIZE 16384

/* Callee-saved state of arch_run_user's caller (syscall_entry.asm). */
struct user_context {
	uint64_t rbx, rbp, r12, r13, r14, r15, rsp, rflags;
};

void syscall_entry(void);
long user_mode_enter(struct user_context *ctx, uint64_t rip, uint64_t rsp);
void __noreturn user_mode_return(struct user_context *ctx, long status);
void do_syscall_64(struct trap_frame *regs);

/* syscall_entry.asm's offsets. */
_Static_assert(offsetof(struct percpu, kernel_stack) == PERCPU_KERNEL_STACK, "percpu layout");
_Static_assert(offsetof(struct percpu, user_rsp) == PERCPU_USER_RSP, "percpu layout");
_Static_assert(offsetof(struct trap_frame, rip) == 17 * 8, "trap_frame layout");
_Static_assert(offsetof(struct user_context, rflags) == 56, "user_context layout");

static uint8_t task_stack[TASK_STACK_SIZE] __attribute__((aligned(16)));
static struct user_context kernel_context;

void syscall_init(void)
{
	/* STAR: SYSCALL loads CS = 0x08, SS = 0x10; SYSRET CS = base + 16,
	 * SS = base + 8, both with RPL 3 (SDM vol. 2B, SYSRET). */
	wrmsr(MSR_STAR, ((uint64_t)(USER32_CS | 3) << 48) | ((uint64_t)KERNEL_CS << 32));
	wrmsr(MSR_LSTAR, (uint64_t)syscall_entry);
	/* FMASK: the entry runs with interrupts off until it is on the
	 * kernel stack, never single-steps, copies forward and checks no
	 * alignment; NT would make a later iretq a task return. */
	wrmsr(MSR_SYSCALL_MASK,
	      X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_AC | X86_EFLAGS_NT);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* Linux: setup_smep. A kernel jump into a program's pages faults
	 * instead of running them. (SMAP, which would also refuse kernel
	 * data accesses outside copy_*_user, needs stac/clac there.) */
	if (cpu.smep)
		write_cr4(read_cr4() | X86_CR4_SMEP);
}

/* Linux: do_syscall_64. Arguments in rdi, rsi, rdx, r10, r8, r9 (r10 for
 * rcx, which SYSCALL overwrites with the return rip). */
void do_syscall_64(struct trap_frame *regs)
{
	const unsigned long args[6] = { regs->rdi, regs->rsi, regs->rdx,
					regs->r10, regs->r8,  regs->r9 };

	regs->rax = (uint64_t)do_syscall(current_task(), regs->rax, args);
}

struct task *current_task(void)
{
	return percpu.current;
}

int arch_run_user(struct task *task, unsigned long ip, unsigned long sp)
{
	long status;

	percpu.current = task;
	set_kernel_stack((uint64_t)(task_stack + TASK_STACK_SIZE));
	status = user_mode_enter(&kernel_context, ip, sp);
	/* The program's TLS base must not outlive it. */
	wrmsr(MSR_FS_BASE, 0);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
	percpu.current = NULL;
	return (int)status;
}

void arch_exit_user(int status)
{
	user_mode_return(&kernel_context, status);
}

/* Linux: do_arch_prctl_64, the TLS base libc sets. */
SYSCALL_DEFINE2(arch_prctl, int, option, unsigned long, addr)
{
	uint64_t fs;

	switch (option) {
	case ARCH_SET_FS:
		/* A non-canonical base would fault the wrmsr in ring 0. */
		if (addr >= USER_VA_END)
			return -EPERM;
		wrmsr(MSR_FS_BASE, addr);
		return 0;
	case ARCH_GET_FS:
		fs = rdmsr(MSR_FS_BASE);
		return copy_to_user(addr, &fs, sizeof(fs)) ? -EFAULT : 0;
	}
	return -EINVAL;
}

uint64_t arch_elf_hwcap(void)
{
	uint32_t eax = 1, ebx, ecx = 0, edx;

	__asm__ volatile("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	return edx;
}

/* The signal Linux sends for an exception in ring 3 (traps.c's names). */
static int exception_signal(uint64_t vector)
{
	switch (vector) {
	case 0:
	case 16:
	case 19:
		return SIGFPE;
	case 1:
	case 3:
		return SIGTRAP;
	case 6:
		return SIGILL;
	}
	return SIGSEGV;
}

/*
 * One line in Linux's words, then the signal ends the program.
 * #PF: "hello[1]: segfault at 0 ip 0000000000401000 sp 00007fffffffec40
 * error 6"; #GP and #UD: "traps: hello[1] general protection fault ip:...
 * sp:... error:0" (show_signal_msg, do_trap's and do_general_protection's).
 */
void user_fault(struct trap_frame *f)
{
	struct task *task = current_task();
	const char *comm = task ? task->comm : "?";
	int pid = task ? task->pid : 0;

	if (f->vector == 14)
		pr_info("%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx\n", comm, pid,
			(unsigned long long)read_cr2(), (unsigned long long)f->rip,
			(unsigned long long)f->rsp, (unsigned long long)f->error_code);
	else if (f->vector == 13)
		pr_info("traps: %s[%d] general protection fault ip:%llx sp:%llx error:%llx\n", comm,
			pid, (unsigned long long)f->rip, (unsigned long long)f->rsp,
			(unsigned long long)f->error_code);
	else if (f->vector == 6)
		pr_info("traps: %s[%d] trap invalid opcode ip:%llx sp:%llx error:0\n", comm, pid,
			(unsigned long long)f->rip, (unsigned long long)f->rsp);
	else
		pr_info("traps: %s[%d] exception %llu ip:%llx sp:%llx error:%llx\n", comm, pid,
			(unsigned long long)f->vector, (unsigned long long)f->rip,
			(unsigned long long)f->rsp, (unsigned long long)f->error_code);
	if (!task)
		panic("user_fault: ring-3 exception %llu with no task",
		      (unsigned long long)f->vector);
	do_exit(exception_signal(f->vector));
}
