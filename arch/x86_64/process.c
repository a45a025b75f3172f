/*
 * Tasks on x86-64 (Linux: arch/x86/kernel/process.c, process_64.c): a new
 * task's kernel stack, the switch from one task to another, and the
 * registers a program starts with.
 *
 * A task's kernel stack, top down: its user registers (struct
 * trap_frame, Linux's pt_regs: every entry from ring 3 pushes them
 * there), then, while it is switched out, the callee-saved registers and
 * the address __switch_to_asm returns to (struct inactive_task_frame),
 * with thread.sp pointing at them. copy_thread builds that frame by hand
 * for a task that never ran, returning into ret_from_fork_asm.
 */
#include <arch.h>
#include <sched.h>
#include <asm/fpu.h>
#include <asm/io.h>
#include <asm/special_insns.h>
#include "x86.h"

/* Linux: struct inactive_task_frame, what __switch_to_asm pushes. */
struct inactive_task_frame {
	uint64_t r15, r14, r13, r12, rbx, rbp;
	uint64_t ret_addr;
};

struct task_struct *__switch_to_asm(uint64_t *prev_sp, uint64_t next_sp, struct task_struct *prev,
				    struct task_struct *next);
struct task_struct *__switch_to(struct task_struct *prev, struct task_struct *next);
void ret_from_fork_asm(void);

static struct trap_frame *__task_pt_regs(const struct task_struct *t)
{
	return (struct trap_frame *)((char *)t->stack + THREAD_SIZE) - 1;
}

struct trap_frame *task_pt_regs(const struct task_struct *t)
{
	if (!t || t != current || (t->flags & PF_KTHREAD) || !t->stack)
		return NULL;
	return __task_pt_regs(t);
}

void copy_thread(struct task_struct *p, const struct kernel_clone_args *args)
{
	struct trap_frame *regs = __task_pt_regs(p);
	struct inactive_task_frame *frame = (struct inactive_task_frame *)regs - 1;

	*frame = (struct inactive_task_frame){
		.rbx = (uint64_t)args->fn,
		.r12 = (uint64_t)args->fn_arg,
		.ret_addr = (uint64_t)ret_from_fork_asm,
	};
	p->thread.sp = (uint64_t)frame;
	if (args->fn || !current->mm) {
		/* A kernel thread, or a program exec will load. */
		memset(regs, 0, sizeof(*regs));
		p->thread.fsbase = p->thread.gsbase = 0;
		return;
	}
	/* A program's clone returns where the caller's system call does,
	 * with 0 (Linux: copy_thread's *childregs = *current_pt_regs()),
	 * on the new stack if one was given, with the caller's TLS or
	 * CLONE_SETTLS's. */
	*regs = *__task_pt_regs(current);
	regs->rax = 0;
	if (args->stack)
		regs->rsp = args->stack;
	p->thread.fsbase = rdmsr(MSR_FS_BASE);
	p->thread.gsbase = rdmsr(MSR_KERNEL_GS_BASE);
	if (args->flags & CLONE_SETTLS)
		p->thread.fsbase = args->tls;
}

void start_thread(struct task_struct *task, unsigned long ip, unsigned long sp)
{
	struct trap_frame *regs = __task_pt_regs(task);

	memset(regs, 0, sizeof(*regs));
	regs->rip = ip;
	regs->rsp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = X86_EFLAGS_IF;
	regs->vector = (uint64_t)-1; /* no call to restart: Linux's orig_ax -1 */
	regs->error_code = (uint64_t)-1;
	task->thread.fsbase = task->thread.gsbase = 0;
	if (task == current) {
		/* An execve: the old program's TLS goes with it. */
		wrmsr(MSR_FS_BASE, 0);
		wrmsr(MSR_KERNEL_GS_BASE, 0);
	}
	/* The FPU in its init state, never the last program's (Linux:
	 * flush_thread's fpu_flush_thread, earlier in the same exec). */
	fpu_flush_thread(&task->thread.fpu);
}

/*
 * Linux: __switch_to, the C half, on @next's stack. A program's FS and GS
 * bases (its TLS) are saved from their MSRs and the next one's loaded,
 * its FPU/SSE/AVX registers likewise (eager, as Linux); ring-3 entries
 * will land on @next's kernel stack.
 */
struct task_struct *__switch_to(struct task_struct *prev, struct task_struct *next)
{
	if (prev->mm) {
		prev->thread.fsbase = rdmsr(MSR_FS_BASE);
		prev->thread.gsbase = rdmsr(MSR_KERNEL_GS_BASE);
	}
	if (next->mm) {
		wrmsr(MSR_FS_BASE, next->thread.fsbase);
		wrmsr(MSR_KERNEL_GS_BASE, next->thread.gsbase);
	}
	fpu_switch(&prev->thread.fpu, &next->thread.fpu);
	this_cpu_area()->current_task = next;
	if (next->stack)
		set_kernel_stack((uint64_t)next->stack + THREAD_SIZE);
	return prev;
}

struct task_struct *arch_switch_to(struct task_struct *prev, struct task_struct *next)
{
	return __switch_to_asm(&prev->thread.sp, next->thread.sp, prev, next);
}
