/*
 * The FPU state in a signal frame (Linux: arch/x86/kernel/fpu/signal.c).
 * The frame's fpstate is the task's image in the standard format, 64-byte
 * aligned on the user stack, with the kernel's note in the bytes the CPU
 * leaves to software and a second magic after the image:
 *
 *   buf_fx +   0  legacy region: x87, MXCSR, xmm0-xmm15
 *          + 464  struct _fpx_sw_bytes: FP_XSTATE_MAGIC1, extended_size,
 *                 xfeatures (XCR0), xstate_size
 *          + 512  XSAVE header: XSTATE_BV, x87 and SSE always set
 *          + 576  the extended components: YMM_Hi128, AVX-512's
 *          + xstate_size  FP_XSTATE_MAGIC2
 *
 * Example: xfeatures 0x7 gives xstate_size 832, extended_size 836, and
 * uc_flags UC_FP_XSTATE. Without XSAVE the fpstate is FXSAVE64's 512
 * bytes (the same sw bytes, no magic2). rt_sigreturn takes an image whose
 * two magics are right as XSAVE's, any other as a legacy FXSAVE image
 * (x87 and SSE from it, the rest init), and refuses what XRSTOR or
 * FXRSTOR would fault on in ring 0: Linux runs them on the user frame
 * itself and turns the fault into SIGSEGV; Folium checks a copy first.
 */
#include <errno.h>
#include <sched.h>
#include <vm.h>
#include <asm/fpu.h>

/* Linux: xstate_sigframe_size. */
static unsigned int xstate_sigframe_size(void)
{
	unsigned int size = fpu_user_cfg.max_size;

	return fpu_user_cfg.xsave ? size + FP_XSTATE_MAGIC2_SIZE : size;
}

uint64_t fpu__alloc_mathframe(uint64_t sp)
{
	return (sp - xstate_sigframe_size()) & ~63ull;
}

/* Linux: save_sw_bytes and save_xstate_epilog, on the kernel's copy. */
static void save_xstate_epilog(struct fpstate *fpstate)
{
	struct xregs_state *x = &fpstate->regs;

	x->i387.sw_reserved = (struct _fpx_sw_bytes){
		.magic1 = FP_XSTATE_MAGIC1,
		.extended_size = fpstate->size + FP_XSTATE_MAGIC2_SIZE,
		.xfeatures = fpstate->xfeatures,
		.xstate_size = fpstate->size,
	};
	/* Linux: set_xfeature_in_sigframe. A handler that edits only the
	 * legacy region is heard on return. */
	if (fpu_user_cfg.xsave)
		x->header.xfeatures |= XFEATURE_MASK_FPSSE;
}

int copy_fpstate_to_sigframe(struct fpu *fpu, uint64_t buf)
{
	struct fpstate *fpstate = fpu->fpstate;
	uint32_t magic2 = FP_XSTATE_MAGIC2;

	/* XSAVE writes only XSTATE_BV of the header: the rest goes out
	 * zero, as Linux clears the frame's header before its XSAVE. */
	memset(&fpstate->regs.header, 0, sizeof(fpstate->regs.header));
	save_fpregs_to_fpstate(fpu);
	save_xstate_epilog(fpstate);
	if (copy_to_user(buf, &fpstate->regs, fpstate->size))
		return -EFAULT;
	if (fpu_user_cfg.xsave && copy_to_user(buf + fpstate->size, &magic2, sizeof(magic2)))
		return -EFAULT;
	return 0;
}

/* Linux: check_xstate_in_sigframe. Return: 0 with *@fx_sw naming the
 * image's components (magic1 0: a legacy image, x87 and SSE), or -EFAULT. */
static int check_xstate_in_sigframe(uint64_t buf, struct _fpx_sw_bytes *fx_sw)
{
	uint32_t magic2;

	if (copy_from_user(fx_sw, buf + offsetof(struct fxregs_state, sw_reserved), sizeof(*fx_sw)))
		return -EFAULT;
	if (fx_sw->magic1 == FP_XSTATE_MAGIC1 && fx_sw->xstate_size >= sizeof(struct xregs_state) &&
	    fx_sw->xstate_size <= fpu_user_cfg.max_size &&
	    fx_sw->xstate_size <= fx_sw->extended_size) {
		/* A frame copied by an old program holds the legacy part only. */
		if (copy_from_user(&magic2, buf + fx_sw->xstate_size, sizeof(magic2)))
			return -EFAULT;
		if (magic2 == FP_XSTATE_MAGIC2)
			return 0;
	}
	fx_sw->magic1 = 0;
	fx_sw->xstate_size = sizeof(struct fxregs_state);
	fx_sw->xfeatures = XFEATURE_MASK_FPSSE;
	return 0;
}

/* What XRSTOR faults on in a standard-format header (SDM vol. 1, 13.8.1):
 * an XSTATE_BV bit XCR0 lacks, or a non-zero byte among bytes 8..23. */
static bool xstate_header_valid(const struct xstate_header *hdr)
{
	return !(hdr->xfeatures & ~fpu_user_cfg.max_features) && !hdr->xcomp_bv &&
	       !hdr->reserved[0];
}

/* Copy the frame's extended image into @x: the header, then the bytes of
 * the components the restore will load (XRSTOR reads no others). */
static int copy_xstate_from_sigframe(struct xregs_state *x, uint64_t buf, uint64_t xrestore)
{
	unsigned int end;

	if (copy_from_user(&x->header, buf + sizeof(x->i387), sizeof(x->header)))
		return -EFAULT;
	if (!xstate_header_valid(&x->header))
		return -EINVAL;
	/* The components the frame does not name come back in their init
	 * state (Linux: init_bv), MXCSR with SSE. */
	x->header.xfeatures &= xrestore;
	if (!(xrestore & XFEATURE_MASK_SSE))
		x->i387.mxcsr = MXCSR_DEFAULT;
	end = xstate_calculate_size(x->header.xfeatures);
	if (copy_from_user(x + 1, buf + sizeof(*x), end - sizeof(*x)))
		return -EFAULT;
	return 0;
}

/* Linux: __fpu_restore_sig and restore_fpregs_from_user. */
static int __fpu_restore_sig(struct fpu *fpu, uint64_t buf)
{
	struct xregs_state *x = &fpu->fpstate->regs;
	struct _fpx_sw_bytes fx_sw = { .xfeatures = XFEATURE_MASK_FPSSE };
	bool fx_only = true;
	int err;

	if (fpu_user_cfg.xsave) {
		err = check_xstate_in_sigframe(buf, &fx_sw);
		if (err)
			return err;
		fx_only = !fx_sw.magic1;
	}
	/* FXRSTOR needs a 16-byte aligned image, XRSTOR a 64-byte one. */
	if (buf & (fx_only ? 15 : 63))
		return -EINVAL;
	if (copy_from_user(&x->i387, buf, sizeof(x->i387)))
		return -EFAULT;
	if (fx_only) {
		x->header = (struct xstate_header){ .xfeatures = XFEATURE_MASK_FPSSE };
	} else {
		err = copy_xstate_from_sigframe(x, buf,
						fx_sw.xfeatures & fpu_user_cfg.max_features);
		if (err)
			return err;
	}
	if (x->i387.mxcsr & ~mxcsr_feature_mask)
		return -EINVAL;
	restore_fpregs_from_fpstate(fpu);
	return 0;
}

int fpu__restore_sig(struct fpu *fpu, uint64_t buf)
{
	int err = buf ? __fpu_restore_sig(fpu, buf) : 0;

	if (!buf || err)
		fpu__clear_user_states(fpu);
	return err;
}
