/*
 * The FPU, SSE and AVX state of each task (Linux: arch/x86/kernel/fpu/
 * init.c, xstate.c, core.c). At boot fpu__init_system enables in XCR0
 * the XSAVE components Linux gives programs that this CPU has: x87, SSE,
 * AVX and the three of AVX-512; no supervisor state, nor PKRU, MPX, AMX
 * or APX (Folium has no protection keys, no bounds registers, no
 * arch_prctl(ARCH_REQ_XCOMP_PERM)). Each task that may run in ring 3 has
 * one save area in that format, saved at switch-out and loaded at
 * switch-in (eager). The XSAVE image, standard format (SDM vol. 1, 13.4):
 *
 *      0  legacy region, FXSAVE64's layout (struct fxregs_state):
 *         0 FCW  2 FSW  4 FTW  6 FOP  8 FIP  16 FDP  24 MXCSR  28 MXCSR_MASK
 *         32 st0-st7, 16 bytes each    160 xmm0-xmm15, 16 bytes each
 *         464 48 bytes the CPU leaves to software
 *    512  header: XSTATE_BV (a clear bit: that component is in its init
 *         state), XCOMP_BV (0: standard format), reserved zeros
 *    576  component i >= 2 at CPUID(0xD, i).EBX, CPUID(0xD, i).EAX bytes
 *
 * Example: x87|SSE|AVX is xfeatures 0x7, 512 + 64 + 256 = 832 bytes
 * (YMM_Hi128 at 576); AVX-512 adds opmask (at 1088, 64 bytes), ZMM_Hi256
 * (1152, 512) and Hi16_ZMM (1664, 1024): 0xe7 and 2688 bytes.
 *
 * Saves use plain XSAVE. Linux prefers XSAVES (the compacted format, for
 * supervisor states Folium does not have) and then XSAVEOPT, whose
 * "modified" optimization skips a component unchanged since the last
 * XRSTOR from the same address: right only while that buffer still holds
 * what was loaded, which Linux keeps true with fpregs_owner_ctx and
 * last_cpu across frees and reuses. (QEMU's TCG, where the tests run, has
 * no XSAVES: Linux says 'standard' format there too.)
 */
#include <errno.h>
#include <sched.h>
#include <slab.h>
#include <asm/fpu.h>
#include <asm/special_insns.h>
#include "x86.h"

#define X86_CR0_MP (1ull << 1)		/* WAIT honours TS */
#define X86_CR0_EM (1ull << 2)		/* no FPU: x87 and SSE instructions fault */
#define X86_CR0_TS (1ull << 3)		/* the next FPU instruction is #NM */
#define X86_CR0_NE (1ull << 5)		/* x87 errors are #MF, not IRQ 13 */
#define X86_CR4_OSFXSR (1ull << 9)	/* FXSAVE/FXRSTOR and SSE */
#define X86_CR4_OSXMMEXCPT (1ull << 10) /* unmasked SIMD exceptions are #XM */
#define X86_CR4_OSXSAVE (1ull << 18)	/* XSAVE, XSETBV; CPUID.1:ECX.OSXSAVE */

struct fpu_state_config fpu_user_cfg;
uint32_t mxcsr_feature_mask;
/* Linux: xstate_offsets, xstate_sizes: where each enabled component i
 * >= 2 lies in the standard format (CPUID 0xD, sub-leaf i). */
static unsigned int xstate_offsets[XFEATURE_MAX], xstate_sizes[XFEATURE_MAX];

/* Linux: xsave_cpuid_features within XFEATURE_MASK_USER_SUPPORTED: the
 * components whose instructions this CPU has. */
static uint64_t user_features_supported(void)
{
	uint64_t mask = XFEATURE_MASK_FPSSE;

	if (cpu.avx)
		mask |= XFEATURE_MASK_YMM;
	if (cpu.avx512f)
		mask |= XFEATURE_MASK_AVX512;
	return mask;
}

/* Linux: fpu__init_system_xstate's choice. Return: the components to
 * enable, or 0 to use FXSAVE64 (no XSAVE, or an enumeration without x87
 * and SSE, which Linux refuses too). */
static uint64_t xstate_features(void)
{
	uint32_t r[4];
	uint64_t mask;

	if (!cpu.xsave) {
		pr_info("x86/fpu: x87 FPU will use FXSAVE\n");
		return 0;
	}
	cpuid_count(0xd, 0, r);
	mask = (r[0] | (uint64_t)r[3] << 32) & user_features_supported();
	if ((mask & XFEATURE_MASK_FPSSE) != XFEATURE_MASK_FPSSE) {
		pr_err("x86/fpu: FP/SSE not present amongst the CPU's xstate features: 0x%llx.\n",
		       (unsigned long long)mask);
		return 0;
	}
	return mask;
}

void fpu__init_cpu(void)
{
	uint64_t cr4 = X86_CR4_OSFXSR | X86_CR4_OSXMMEXCPT;

	write_cr0((read_cr0() & ~(X86_CR0_EM | X86_CR0_TS)) | X86_CR0_MP | X86_CR0_NE);
	if (fpu_user_cfg.xsave)
		cr4 |= X86_CR4_OSXSAVE;
	write_cr4(read_cr4() | cr4);
	if (fpu_user_cfg.xsave)
		xsetbv(XCR_XFEATURE_ENABLED_MASK, fpu_user_cfg.max_features);
	__asm__ volatile("fninit");
}

/* Linux: fpu__init_system_mxcsr. FXSAVE reports the MXCSR bits FXRSTOR
 * and XRSTOR accept; 0 there means the first SSE CPUs' 0xffbf. */
static void fpu__init_system_mxcsr(void)
{
	static struct fxregs_state fx; /* 512 bytes: off the boot stack */

	memset(&fx, 0, sizeof(fx));
	__asm__ volatile("fxsave64 %0" : "=m"(fx));
	mxcsr_feature_mask = fx.mxcsr_mask ? fx.mxcsr_mask : 0xffbf;
}

/* Linux: setup_xstate_cache, and the size CPUID 0xD's EBX gives for what
 * XCR0 enables now. Context: after xsetbv. */
static void setup_xstate_cache(void)
{
	uint32_t r[4];

	for (int i = XFEATURE_YMM; i < XFEATURE_MAX; i++) {
		if (!(fpu_user_cfg.max_features & (1ull << i)))
			continue;
		cpuid_count(0xd, (uint32_t)i, r);
		xstate_sizes[i] = r[0];
		xstate_offsets[i] = r[1];
	}
	cpuid_count(0xd, 0, r);
	fpu_user_cfg.max_size = r[1];
}

unsigned int xstate_calculate_size(uint64_t xfeatures)
{
	unsigned int end = sizeof(struct xregs_state);

	for (int i = XFEATURE_YMM; i < XFEATURE_MAX; i++)
		if ((xfeatures & fpu_user_cfg.max_features & (1ull << i)) &&
		    xstate_offsets[i] + xstate_sizes[i] > end)
			end = xstate_offsets[i] + xstate_sizes[i];
	return end;
}

void fpu__init_system(void)
{
	uint64_t xfeatures = xstate_features();

	fpu_user_cfg = (struct fpu_state_config){
		.max_features = xfeatures ? xfeatures : XFEATURE_MASK_FPSSE,
		.max_size = sizeof(struct fxregs_state),
		.xsave = xfeatures != 0,
	};
	fpu__init_cpu();
	fpu__init_system_mxcsr();
	if (!fpu_user_cfg.xsave)
		return;
	setup_xstate_cache();
	pr_info("x86/fpu: Enabled xstate features 0x%llx, context size is %u bytes, using "
		"'standard' format.\n",
		(unsigned long long)fpu_user_cfg.max_features, fpu_user_cfg.max_size);
}

void fpstate_init_user(struct fpstate *fpstate)
{
	memset(&fpstate->regs, 0, fpstate->size);
	fpstate->regs.i387.cwd = FCW_DEFAULT;
	fpstate->regs.i387.mxcsr = MXCSR_DEFAULT;
}

int fpstate_alloc(struct fpu *fpu)
{
	unsigned int size = fpu_user_cfg.max_size;
	struct fpstate *fpstate;

	if (size < sizeof(struct xregs_state))
		size = sizeof(struct xregs_state); /* FXSAVE64's 512: keep the header */
	/* kmalloc's objects of 64 bytes and more are aligned to their size
	 * (a power of two) or a page: regs, at 64, is 64-byte aligned. */
	fpstate = kzalloc(offsetof(struct fpstate, regs) + size, GFP_KERNEL);
	if (!fpstate)
		return -ENOMEM;
	if ((uintptr_t)&fpstate->regs % 64)
		panic("fpstate_alloc: regs at %p not 64-byte aligned", (void *)&fpstate->regs);
	fpstate->size = fpu_user_cfg.max_size;
	fpstate->xfeatures = fpu_user_cfg.max_features;
	fpstate_init_user(fpstate);
	fpu->fpstate = fpstate;
	return 0;
}

void fpstate_free(struct fpu *fpu)
{
	kfree(fpu->fpstate);
	fpu->fpstate = NULL;
}

void save_fpregs_to_fpstate(struct fpu *fpu)
{
	struct xregs_state *x = &fpu->fpstate->regs;
	uint64_t mask = fpu->fpstate->xfeatures;

	/* The memory clobber: XSAVE writes past *x, up to fpstate->size. */
	if (fpu_user_cfg.xsave)
		__asm__ volatile("xsave64 %0"
				 : "+m"(*x)
				 : "a"((uint32_t)mask), "d"((uint32_t)(mask >> 32))
				 : "memory");
	else
		__asm__ volatile("fxsave64 %0" : "=m"(x->i387));
}

void restore_fpregs_from_fpstate(struct fpu *fpu)
{
	struct xregs_state *x = &fpu->fpstate->regs;
	uint64_t mask = fpu->fpstate->xfeatures;

	if (fpu_user_cfg.xsave)
		__asm__ volatile("xrstor64 %0"
				 :
				 : "m"(*x), "a"((uint32_t)mask), "d"((uint32_t)(mask >> 32))
				 : "memory");
	else
		__asm__ volatile("fxrstor64 %0" : : "m"(x->i387) : "memory");
}

void fpu_switch(struct fpu *prev, struct fpu *next)
{
	if (prev->fpstate)
		save_fpregs_to_fpstate(prev);
	if (next->fpstate)
		restore_fpregs_from_fpstate(next);
}

int fpu_clone(struct fpu *dst)
{
	struct fpu *src = &current->thread.fpu;

	if (fpstate_alloc(dst))
		return -ENOMEM;
	/* A program's registers are its state (eager): save them straight
	 * into the child's area, as Linux does. */
	if (src->fpstate)
		save_fpregs_to_fpstate(dst);
	return 0;
}

void fpu__clear_user_states(struct fpu *fpu)
{
	fpstate_init_user(fpu->fpstate);
	restore_fpregs_from_fpstate(fpu);
}

void fpu_flush_thread(struct fpu *fpu)
{
	if (!fpu->fpstate)
		return;
	if (fpu == &current->thread.fpu)
		fpu__clear_user_states(fpu);
	else
		fpstate_init_user(fpu->fpstate); /* loaded when it runs */
}

/* Linux: arch_dup_task_struct, with copy_thread's fpu_clone. A kernel
 * thread gets no save area: the kernel is built without SSE, so it has
 * no FPU state to keep, and a switch to it loads nothing (Linux's
 * kthreads skip the copy too). Context: copy_process; @src is current. */
int arch_dup_task_struct(struct task_struct *dst, struct task_struct *src)
{
	(void)src;
	if (dst->flags & PF_KTHREAD)
		return 0;
	return fpu_clone(&dst->thread.fpu);
}

/* Linux: arch_release_task_struct. Context: free_task. */
void arch_release_task_struct(struct task_struct *tsk)
{
	fpstate_free(&tsk->thread.fpu);
}
