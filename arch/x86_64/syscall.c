/*
 * Ring 3 on x86-64: the SYSCALL MSRs, do_syscall_64, arch_prctl and the
 * signal a trap in ring 3 becomes (Linux: arch/x86/kernel/cpu/common.c
 * syscall_init, arch/x86/entry/common.c do_syscall_64, process_64.c
 * do_arch_prctl_64, arch/x86/mm/fault.c show_signal_msg). A program runs
 * on its own kernel stack (TSS.rsp0 and the per-CPU area point at it,
 * set at each switch by process.c); its end is do_exit's last switch.
 */
#include <arch.h>
#include <errno.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/fpu.h>
#include <asm/io.h>
#include <asm/prctl.h>
#include <asm/special_insns.h>
#include <asm/smp.h>
#include "x86.h"

#define EFER_SCE (1ull << 0)	  /* SYSCALL/SYSRET enabled */
#define X86_CR4_SMEP (1ull << 20) /* no instruction fetch from user pages in ring 0 */

void syscall_entry(void);
void do_syscall_64(struct trap_frame *regs);

/* syscall_entry.asm's offsets. */
_Static_assert(offsetof(struct percpu, kernel_stack) == PERCPU_KERNEL_STACK, "percpu layout");
_Static_assert(offsetof(struct percpu, user_rsp) == PERCPU_USER_RSP, "percpu layout");
_Static_assert(offsetof(struct trap_frame, rip) == 17 * 8, "trap_frame layout");
_Static_assert(offsetof(struct trap_frame, rcx) == 12 * 8, "trap_frame layout");
_Static_assert(offsetof(struct trap_frame, r11) == 4 * 8, "trap_frame layout");
_Static_assert(offsetof(struct trap_frame, rflags) == 19 * 8, "trap_frame layout");
_Static_assert(offsetof(struct percpu, current_task) == PERCPU_CURRENT, "percpu layout");
_Static_assert(offsetof(struct percpu, cpu_number) == PERCPU_CPU_NUMBER, "percpu layout");

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
 * rcx, which SYSCALL overwrites with the return rip). The way out
 * delivers pending signals (syscall_exit_to_user_mode); a call a signal
 * interrupted returns -EINTR, never restarted (no SA_RESTART). */
void do_syscall_64(struct trap_frame *regs)
{
	const unsigned long args[6] = { regs->rdi, regs->rsi, regs->rdx,
					regs->r10, regs->r8,  regs->r9 };

	regs->rax = (uint64_t)do_syscall(current, regs->rax, args);
	exit_to_user_mode(regs);
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
		task->thread.fsbase = addr;
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

/*
 * The signal Linux sends for each exception in ring 3 (arch/x86/kernel/
 * traps.c: do_error_trap's table, do_int3_user, exc_general_protection,
 * math_error) and do_trap's name for its message. A vector not listed is
 * SIGSEGV with SI_KERNEL.
 */
static const struct {
	uint8_t sig;
	int8_t code; /* si_code; SI_KERNEL is -1 here */
	bool addr_is_ip;
	const char *name;
} trap_signals[32] = {
	[0] = { SIGFPE, FPE_INTDIV, true, "divide error" },
	[1] = { SIGTRAP, TRAP_TRACE, true, "debug" },
	[3] = { SIGTRAP, -1, false, "int3" },
	[4] = { SIGSEGV, -1, false, "overflow" },
	[5] = { SIGSEGV, -1, false, "bounds" },
	[6] = { SIGILL, ILL_ILLOPN, true, "invalid opcode" },
	[10] = { SIGSEGV, -1, false, "invalid TSS" },
	[11] = { SIGBUS, -1, false, "segment not present" },
	[12] = { SIGBUS, -1, false, "stack segment" },
	[13] = { SIGSEGV, -1, false, "general protection fault" },
	[16] = { SIGFPE, FPE_FLTINV, true, "coprocessor error" },
	[17] = { SIGBUS, BUS_ADRALN, false, "alignment check" },
	[19] = { SIGFPE, FPE_FLTINV, true, "SIMD exception" },
};

/* Linux: fpu__exception_code. @err is the raised exceptions not masked
 * (x87 status & ~control, or MXCSR flags & ~MXCSR masks). */
static int fpu_exception_code(uint32_t err)
{
	if (err & 0x01)
		return FPE_FLTINV;
	if (err & 0x04)
		return FPE_FLTDIV;
	if (err & 0x08)
		return FPE_FLTOVF;
	if (err & 0x12)
		return FPE_FLTUND;
	if (err & 0x20)
		return FPE_FLTRES;
	return FPE_FLTINV;
}

static int math_error_code(uint64_t vector)
{
	uint32_t mxcsr;
	uint16_t cwd, swd;

	if (vector == 19) {
		__asm__ volatile("stmxcsr %0" : "=m"(mxcsr));
		return fpu_exception_code(mxcsr & ~(mxcsr >> 7) & 0x3f);
	}
	__asm__ volatile("fnstcw %0; fnstsw %1" : "=m"(cwd), "=m"(swd));
	return fpu_exception_code(swd & ~cwd & 0x3f);
}

/* Linux: show_signal_msg and do_trap's line, in their words, printed only
 * if the signal will kill (unhandled_signal). Examples: "hello[1]:
 * segfault at 0 ip 0000000000401000 sp 00007fffffffec40 error 6";
 * "traps: hello[1] general protection fault ip:... sp:... error:0";
 * "traps: hello[1] trap invalid opcode ip:... sp:... error:0". */
static void show_signal_msg(const struct task_struct *task, const struct trap_frame *f,
			    uint64_t cr2)
{
	const char *name = f->vector < 32 ? trap_signals[f->vector].name : NULL;

	if (f->vector == 14)
		pr_info("%s[%d]: segfault at %llx ip %016llx sp %016llx error %llx\n", task->comm,
			task->pid, (unsigned long long)cr2, (unsigned long long)f->rip,
			(unsigned long long)f->rsp, (unsigned long long)f->error_code);
	else if (f->vector == 13)
		pr_info("traps: %s[%d] general protection fault ip:%llx sp:%llx error:%llx\n",
			task->comm, task->pid, (unsigned long long)f->rip,
			(unsigned long long)f->rsp, (unsigned long long)f->error_code);
	else if (name)
		pr_info("traps: %s[%d] trap %s ip:%llx sp:%llx error:%llx\n", task->comm, task->pid,
			name, (unsigned long long)f->rip, (unsigned long long)f->rsp,
			(unsigned long long)f->error_code);
	else
		pr_info("traps: %s[%d] exception %llu ip:%llx sp:%llx error:%llx\n", task->comm,
			task->pid, (unsigned long long)f->vector, (unsigned long long)f->rip,
			(unsigned long long)f->rsp, (unsigned long long)f->error_code);
}

int user_fault_reason;

/* Linux: bad_area_nosemaphore (no VMA, or VM_FAULT_SIGSEGV: a guard
 * marker) says SEGV_MAPERR, bad_area_access_error SEGV_ACCERR. */
static int user_fault_si_code(uint64_t cr2)
{
	int reason = user_fault_reason;

	user_fault_reason = VM_FAULT_OK;
	if (reason == VM_FAULT_SIGSEGV || !current_mm || !find_vma(current_mm, cr2))
		return SEGV_MAPERR;
	return SEGV_ACCERR;
}

/*
 * An exception in ring 3 becomes a signal (Linux: force_sig_fault from
 * the trap handlers): #PF SIGSEGV with SEGV_MAPERR (no VMA there) or
 * SEGV_ACCERR (the VMA refuses the access) at CR2, #GP SIGSEGV, #UD
 * SIGILL, #DE SIGFPE, ... The line is printed if it will kill; the
 * delivery (a handler, or do_exit) happens in exit_to_user_mode.
 */
void user_fault(struct trap_frame *f)
{
	struct task_struct *task = current;
	uint64_t cr2 = f->vector == 14 ? read_cr2() : 0;
	int sig = SIGSEGV, code = SI_KERNEL;
	uint64_t addr = 0;

	if (!task)
		panic("user_fault: ring-3 exception %llu with no task",
		      (unsigned long long)f->vector);
	if (f->vector == 14 && user_fault_reason == VM_FAULT_SIGBUS) {
		/* Linux: do_sigbus, a file mapping's page past the end of its file. */
		user_fault_reason = VM_FAULT_OK;
		sig = SIGBUS;
		code = BUS_ADRERR;
		addr = cr2;
	} else if (f->vector == 14) {
		code = user_fault_si_code(cr2);
		addr = cr2;
	} else if (f->vector < 32 && trap_signals[f->vector].sig) {
		sig = trap_signals[f->vector].sig;
		code = trap_signals[f->vector].code < 0 ? SI_KERNEL : trap_signals[f->vector].code;
		addr = trap_signals[f->vector].addr_is_ip ? f->rip : 0;
		if (f->vector == 16 || f->vector == 19)
			code = math_error_code(f->vector);
	}
	signal_note_trap(f->vector, f->error_code, cr2);
	/* Linux: do_sigbus prints no line, show_signal_msg is SIGSEGV's. */
	if (unhandled_signal(task, sig) && !(f->vector == 14 && sig == SIGBUS))
		show_signal_msg(task, f, cr2);
	force_sig_fault(task, sig, code, addr);
}
