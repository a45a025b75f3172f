/*
 * Signal frames on x86-64 (Linux: arch/x86/kernel/signal.c, signal_64.c,
 * arch/x86/entry/common.c exit_to_user_mode_loop). Every return to ring 3
 * (after a system call, a trap or an interrupt from ring 3) runs
 * exit_to_user_mode: while get_signal finds a handler to run, an
 * rt_sigframe is pushed on the user stack and the saved registers are
 * pointed at the handler. Frame, from the stack's top down (Linux's):
 *
 *   [128-byte red zone of the interrupted code]
 *   fpstate, 64-aligned: the XSAVE image and FP_XSTATE_MAGIC2 (832 + 4
 *     bytes with AVX), or FXSAVE64's 512  <- uc.uc_mcontext.fpstate
 *   struct rt_sigframe { pretcode = sa_restorer; ucontext; siginfo }
 *   ^ rsp at handler entry: 16n - 8, as after a call
 *
 * The handler gets rdi = sig, rsi = &info, rdx = &uc; its ret goes to
 * the restorer, which makes rt_sigreturn: that reads the frame at rsp - 8
 * and restores every register, the FPU state (fpu_signal.c), the blocked
 * mask and the alternate stack, refusing a CS, SS, RIP or FPU image that
 * iretq or xrstor would fault on in ring 0 (a bad frame is SIGSEGV).
 */
#include <errno.h>
#include <syscalls.h>
#include <vm.h>
#include <asm/fpu.h>
#include "x86.h"

#define UC_SIGCONTEXT_SS 0x2
#define UC_STRICT_RESTORE_SS 0x4
#define RED_ZONE 128

#define X86_EFLAGS_CF 0x00000001ul
#define X86_EFLAGS_PF 0x00000004ul
#define X86_EFLAGS_AF 0x00000010ul
#define X86_EFLAGS_ZF 0x00000040ul
#define X86_EFLAGS_SF 0x00000080ul
#define X86_EFLAGS_OF 0x00000800ul
/* Linux: FIX_EFLAGS, the flags a frame may change (never IF, IOPL, ...). */
#define FIX_EFLAGS                                                                       \
	(X86_EFLAGS_AC | X86_EFLAGS_OF | X86_EFLAGS_DF | X86_EFLAGS_TF | X86_EFLAGS_SF | \
	 X86_EFLAGS_ZF | X86_EFLAGS_AF | X86_EFLAGS_PF | X86_EFLAGS_CF | X86_EFLAGS_RF)

/* Linux: uapi struct sigcontext (64-bit). */
struct sigcontext {
	uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
	uint64_t di, si, bp, bx, dx, ax, cx, sp, ip;
	uint64_t flags;
	uint16_t cs, gs, fs, ss;
	uint64_t err, trapno, oldmask, cr2;
	uint64_t fpstate; /* user address of the FPU image (fpu_signal.c), 0: none */
	uint64_t reserved1[8];
};

struct ucontext {
	uint64_t uc_flags;
	uint64_t uc_link;
	struct k_sigaltstack uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;
};

struct rt_sigframe {
	uint64_t pretcode;
	struct ucontext uc;
	uint8_t info[SI_MAX_SIZE];
};

_Static_assert(sizeof(struct sigcontext) == 256, "sigcontext is Linux's");
_Static_assert(offsetof(struct ucontext, uc_mcontext) == 40, "ucontext is Linux's");
_Static_assert(offsetof(struct ucontext, uc_sigmask) == 296, "ucontext is Linux's");
_Static_assert(offsetof(struct rt_sigframe, info) == 312, "rt_sigframe is Linux's");

/* The last trap's details for the frame (Linux: thread.trap_nr,
 * error_code, cr2). One program runs at a time. */
static struct {
	uint64_t trap_nr, error_code, cr2;
} thread;

static bool is_canonical(uint64_t addr)
{
	return (uint64_t)((int64_t)(addr << 16) >> 16) == addr;
}

void signal_note_trap(uint64_t trap_nr, uint64_t error_code, uint64_t cr2)
{
	thread.trap_nr = trap_nr;
	thread.error_code = error_code;
	thread.cr2 = cr2;
}

uint64_t arch_user_sp(const struct task_struct *t)
{
	struct trap_frame *regs = task_pt_regs(t);

	return regs ? regs->rsp : 0;
}

/* Linux: get_sigframe. Return: the frame's address, or -1 (a sure fault)
 * when the alternate stack would overflow. */
static uint64_t get_sigframe(struct task_struct *t, const struct ksignal *ks,
			     const struct trap_frame *regs, uint64_t *fpstate)
{
	uint64_t sp = regs->rsp - RED_ZONE;
	bool nested_altstack = on_sig_stack(t, regs->rsp), entering_altstack = false;

	if ((ks->ka.flags & SA_ONSTACK) && sas_ss_flags(t, sp) == 0) {
		sp = t->signals.altstack.ss_sp + t->signals.altstack.ss_size;
		entering_altstack = true;
	}
	sp = *fpstate = fpu__alloc_mathframe(sp);
	sp = ((sp - sizeof(struct rt_sigframe)) & ~15ul) - 8;
	if ((nested_altstack || entering_altstack) && !on_sig_stack(t, sp))
		return (uint64_t)-1;
	return sp;
}

static void fill_sigcontext(struct sigcontext *sc, const struct trap_frame *regs, sigset_t oldmask,
			    uint64_t fpstate)
{
	*sc = (struct sigcontext){
		.r8 = regs->r8,
		.r9 = regs->r9,
		.r10 = regs->r10,
		.r11 = regs->r11,
		.r12 = regs->r12,
		.r13 = regs->r13,
		.r14 = regs->r14,
		.r15 = regs->r15,
		.di = regs->rdi,
		.si = regs->rsi,
		.bp = regs->rbp,
		.bx = regs->rbx,
		.dx = regs->rdx,
		.ax = regs->rax,
		.cx = regs->rcx,
		.sp = regs->rsp,
		.ip = regs->rip,
		.flags = regs->rflags,
		.cs = (uint16_t)regs->cs,
		.ss = (uint16_t)regs->ss,
		.err = thread.error_code,
		.trapno = thread.trap_nr,
		.oldmask = oldmask,
		.cr2 = thread.cr2,
		.fpstate = fpstate,
	};
}

/* Linux: x64_setup_rt_frame. Return: 0, or -EFAULT if the frame could not
 * be written (the caller forces SIGSEGV). */
static int setup_rt_frame(struct task_struct *t, const struct ksignal *ks, struct trap_frame *regs)
{
	static struct rt_sigframe frame; /* 440 bytes: off the kernel stack */
	uint64_t fpstate, sp;

	/* x86-64 has no kernel-provided restorer: libc must give one. */
	if (!(ks->ka.flags & SA_RESTORER) || !is_canonical(ks->ka.handler))
		return -EFAULT;
	sp = get_sigframe(t, ks, regs, &fpstate);
	memset(&frame, 0, sizeof(frame));
	frame.pretcode = ks->ka.restorer;
	frame.uc.uc_flags = UC_SIGCONTEXT_SS | UC_STRICT_RESTORE_SS;
	if (fpu_user_cfg.xsave)
		frame.uc.uc_flags |= UC_FP_XSTATE;
	/* ppoll's or pselect6's caller gets its own mask back (Linux:
	 * sigmask_to_save), not the one the call waited under. */
	fill_sigcontext(&frame.uc.uc_mcontext, regs, sigmask_to_save(t), fpstate);
	frame.uc.uc_sigmask = sigmask_to_save(t);
	memcpy(frame.info, &ks->info, sizeof(ks->info));
	if (sp == (uint64_t)-1 || copy_fpstate_to_sigframe(&t->thread.fpu, fpstate) ||
	    copy_to_user(sp, &frame, sizeof(frame)) ||
	    save_altstack(t, sp + offsetof(struct rt_sigframe, uc.uc_stack), regs->rsp))
		return -EFAULT;
	regs->rdi = (uint64_t)ks->sig;
	regs->rax = 0; /* for a handler declared without a prototype */
	regs->rsi = sp + offsetof(struct rt_sigframe, info);
	regs->rdx = sp + offsetof(struct rt_sigframe, uc);
	regs->rip = ks->ka.handler;
	regs->rsp = sp;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	return 0;
}

/* Linux: handle_signal. */
/* Linux: syscall_get_nr. The call a frame returns from (the entry
 * keeps its number as orig_ax, in error_code), or -1: a trap, an
 * interrupt, or a frame exec or rt_sigreturn rewrote. */
static long syscall_get_nr(const struct trap_frame *regs)
{
	return regs->vector == (uint64_t)-1 ? (long)regs->error_code : -1;
}

/* Run the call again: rax its number, rip back over the 2-byte
 * SYSCALL (Linux: regs->ax = regs->orig_ax; regs->ip -= 2). */
static void restart_syscall(struct trap_frame *regs)
{
	regs->rax = regs->error_code;
	regs->rip -= 2;
}

static void handle_signal(struct task_struct *t, const struct ksignal *ks, struct trap_frame *regs)
{
	/* Linux: handle_signal's restart rules, before the frame saves rax. */
	if (syscall_get_nr(regs) >= 0) {
		switch ((long)regs->rax) {
		case -ERESTARTNOHAND:
			regs->rax = (uint64_t)-EINTR;
			break;
		case -ERESTARTSYS:
			if (!(ks->ka.flags & SA_RESTART)) {
				regs->rax = (uint64_t)-EINTR;
				break;
			}
			restart_syscall(regs);
			break;
		case -ERESTARTNOINTR:
			restart_syscall(regs);
			break;
		}
	}
	if (setup_rt_frame(t, ks, regs)) {
		force_sigsegv(t);
		return;
	}
	/* The handler runs with no single-step, string ops forward. */
	regs->rflags &= ~(X86_EFLAGS_DF | X86_EFLAGS_RF | X86_EFLAGS_TF);
	/* ... and the FPU as after exec (Linux: fpu__clear_user_states). */
	fpu__clear_user_states(&t->thread.fpu);
	signal_delivered(t, ks);
}

void exit_to_user_mode(struct trap_frame *regs)
{
	struct task_struct *t = current;
	struct ksignal ks;

	/* Linux: exit_to_user_mode_loop. The CPU goes to another task if
	 * the tick asked; several pending signals stack several frames (the
	 * last one set up runs first, as on Linux); a fatal one never returns
	 * here. */
	for (;;) {
		if (need_resched()) {
			schedule();
			continue;
		}
		if (!get_signal(t, &ks))
			break;
		handle_signal(t, &ks, regs);
	}
	/* Linux: arch_do_signal_or_restart with no handler to run: an
	 * interrupted call starts again (a handler already turned rax into
	 * -EINTR or the call's number). */
	if (syscall_get_nr(regs) >= 0) {
		long ret = (long)regs->rax;

		if (ret == -ERESTARTNOHAND || ret == -ERESTARTSYS || ret == -ERESTARTNOINTR)
			restart_syscall(regs);
	}
	/* No handler took the mask ppoll or pselect6 saved: it is restored
	 * here (Linux: restore_saved_sigmask at the end of
	 * arch_do_signal_or_restart). */
	restore_saved_sigmask(t);
}

/* Linux: restore_sigcontext, with the checks an iretq needs here: Linux
 * survives a faulting iretq through its exception table, Folium refuses
 * the frame instead (the same SIGSEGV). */
static int restore_sigcontext(struct task_struct *t, struct trap_frame *regs,
			      const struct sigcontext *sc)
{
	if ((sc->cs | 3) != USER_CS || (sc->ss | 3) != USER_DS || !is_canonical(sc->ip))
		return -EINVAL;
	regs->r8 = sc->r8, regs->r9 = sc->r9, regs->r10 = sc->r10, regs->r11 = sc->r11;
	regs->r12 = sc->r12, regs->r13 = sc->r13, regs->r14 = sc->r14, regs->r15 = sc->r15;
	regs->rdi = sc->di, regs->rsi = sc->si, regs->rbp = sc->bp, regs->rbx = sc->bx;
	regs->rdx = sc->dx, regs->rax = sc->ax, regs->rcx = sc->cx, regs->rsp = sc->sp;
	regs->rip = sc->ip;
	regs->cs = USER_CS;
	regs->ss = USER_DS;
	regs->rflags = (regs->rflags & ~FIX_EFLAGS) | (sc->flags & FIX_EFLAGS);
	regs->vector = (uint64_t)-1; /* Linux: orig_ax = -1, no restart */
	return fpu__restore_sig(&t->thread.fpu, sc->fpstate);
}

/* Linux: signal_fault. */
static long bad_frame(struct task_struct *t, struct trap_frame *regs, uint64_t frame)
{
	pr_info("%s[%d] bad frame in rt_sigreturn frame:%llx ip:%llx sp:%llx\n", t->comm, t->pid,
		(unsigned long long)frame, (unsigned long long)regs->rip,
		(unsigned long long)regs->rsp);
	force_sigsegv(t);
	return (long)regs->rax;
}

/*
 * Linux: sys_rt_sigreturn. The restorer's syscall runs with rsp just
 * above pretcode, which the handler's ret popped. Return: the restored
 * rax, so do_syscall_64 leaves it in place. A task not in ring 3 (the
 * in-kernel tests') has no frame: -EINVAL.
 */
SYSCALL_DEFINE0(rt_sigreturn)
{
	static struct rt_sigframe frame;
	struct trap_frame *regs = task_pt_regs(task);
	uint64_t uframe;

	if (!regs)
		return -EINVAL;
	uframe = regs->rsp - 8;
	if (copy_from_user(&frame, uframe, sizeof(frame)))
		return bad_frame(task, regs, uframe);
	set_current_blocked(task, frame.uc.uc_sigmask);
	if (restore_sigcontext(task, regs, &frame.uc.uc_mcontext) ||
	    restore_altstack(task, uframe + offsetof(struct rt_sigframe, uc.uc_stack), regs->rsp))
		return bad_frame(task, regs, uframe);
	regs->error_code = (uint64_t)-1; /* Linux: orig_ax = -1, no restart checks */
	return (long)regs->rax;
}
