/*
 * The FPU, SSE and AVX registers of a task (Linux: arch/x86/include/asm/
 * fpu/types.h, api.h, signal.h, uapi/asm/sigcontext.h). Eager, as Linux:
 * while a task runs, the registers hold its state and its fpstate is only
 * a save area; a switch saves the old task's registers there and loads
 * the new one's. The kernel itself never uses these registers (it is
 * built with -mno-sse), so no kernel_fpu_begin is needed. Example: with
 * x87|SSE|AVX enabled (xfeatures 0x7) a task's fpstate holds an 832-byte
 * XSAVE image, and a signal frame carries it plus 4 bytes of FP_XSTATE_MAGIC2.
 * The rest of arch/x86_64 calls this; generic code never needs it.
 */
#ifndef FOLIUM_ASM_FPU_H
#define FOLIUM_ASM_FPU_H

#include <stdbool.h>
#include <stdint.h>

/* XSAVE state components (Linux: enum xfeature), and their masks. */
#define XFEATURE_FP 0
#define XFEATURE_SSE 1
#define XFEATURE_YMM 2	     /* AVX: the upper halves of ymm0-15 */
#define XFEATURE_OPMASK 5    /* AVX-512: k0-k7 */
#define XFEATURE_ZMM_Hi256 6 /* AVX-512: the upper halves of zmm0-15 */
#define XFEATURE_Hi16_ZMM 7  /* AVX-512: zmm16-31 */
#define XFEATURE_MAX 8	     /* the last one Folium may enable, plus one */
#define XFEATURE_MASK_FP (1ull << XFEATURE_FP)
#define XFEATURE_MASK_SSE (1ull << XFEATURE_SSE)
#define XFEATURE_MASK_YMM (1ull << XFEATURE_YMM)
#define XFEATURE_MASK_FPSSE (XFEATURE_MASK_FP | XFEATURE_MASK_SSE)
#define XFEATURE_MASK_AVX512 \
	((1ull << XFEATURE_OPMASK) | (1ull << XFEATURE_ZMM_Hi256) | (1ull << XFEATURE_Hi16_ZMM))

#define MXCSR_DEFAULT 0x1f80 /* every SIMD exception masked, round to nearest */
#define FCW_DEFAULT 0x037f   /* x87: every exception masked, 64-bit precision */

/* Signal frames (Linux: uapi/asm/sigcontext.h). */
#define FP_XSTATE_MAGIC1 0x46505853u /* "FPXS", in the legacy area's sw_reserved */
#define FP_XSTATE_MAGIC2 0x46505845u /* "FPXE", right after the xstate */
#define FP_XSTATE_MAGIC2_SIZE 4
#define UC_FP_XSTATE 0x1 /* uc_flags: the frame's fpstate is an XSAVE image */

/* Linux: struct _fpx_sw_bytes. What the kernel says of the image it put
 * in a signal frame, in the 48 bytes FXSAVE leaves to software. */
struct _fpx_sw_bytes {
	uint32_t magic1;	/* FP_XSTATE_MAGIC1: the frame holds an XSAVE image */
	uint32_t extended_size; /* the whole frame: xstate_size + magic2 */
	uint64_t xfeatures;	/* the components in the image: XCR0 */
	uint32_t xstate_size;	/* the XSAVE image; magic2 follows it */
	uint32_t padding[7];
};

/* Linux: struct fxregs_state, FXSAVE64's 512 bytes, which are also the
 * legacy region at the start of an XSAVE image. */
struct fxregs_state {
	uint16_t cwd, swd, twd, fop; /* control, status, abridged tag, opcode */
	uint64_t rip, rdp;	     /* last x87 instruction and operand */
	uint32_t mxcsr, mxcsr_mask;
	uint32_t st_space[32];	/* st0-st7, 16 bytes each */
	uint32_t xmm_space[64]; /* xmm0-xmm15, 16 bytes each */
	uint32_t padding[12];
	struct _fpx_sw_bytes sw_reserved; /* ignored by the CPU */
} __attribute__((aligned(16)));

/* Linux: struct xstate_header, the 64 bytes after the legacy region.
 * xfeatures is XSTATE_BV: a clear bit means the component is in its init
 * state (zero) whatever its bytes hold. xcomp_bv 0: the standard format. */
struct xstate_header {
	uint64_t xfeatures;
	uint64_t xcomp_bv;
	uint64_t reserved[6];
};

/* Linux: struct xregs_state. The extended components follow the header,
 * each at the offset CPUID 0xD gives it (576 for AVX's YMM_Hi128). */
struct xregs_state {
	struct fxregs_state i387;
	struct xstate_header header;
} __attribute__((aligned(64)));

/* Linux: struct fpstate. A task's save area: @size bytes of image from
 * @regs (FXSAVE64's or XSAVE's), 64-byte aligned as XSAVE needs. */
struct fpstate {
	unsigned int size;
	uint64_t xfeatures; /* the components the image holds */
	struct xregs_state regs;
};

/* Linux: struct fpu, in thread_struct. A task that never runs in ring 3
 * (the kernel's own) has no fpstate: nothing to save or load. */
struct fpu {
	struct fpstate *fpstate;
};

/* What fpu__init_system found (Linux: fpu_user_cfg): the components in
 * XCR0 (x87 and SSE only without XSAVE) and the size of their image. */
struct fpu_state_config {
	uint64_t max_features;
	unsigned int max_size;
	bool xsave; /* XSAVE/XRSTOR, else FXSAVE64/FXRSTOR64 */
};
extern struct fpu_state_config fpu_user_cfg;
/* The MXCSR bits this CPU accepts: a 1 elsewhere makes FXRSTOR/XRSTOR #GP. */
extern uint32_t mxcsr_feature_mask;

/* --- fpu.c: the state ------------------------------------------------------ */
/* Boot: choose the components (x87, SSE, AVX, AVX-512 where CPUID has
 * them; never supervisor ones), enable them (fpu__init_cpu), size the
 * image and print Linux's "x86/fpu: Enabled xstate features" line.
 * Context: arch_setup, after cpu_detect. */
void fpu__init_system(void);
/* Each CPU: CR0.MP/NE on, EM/TS off; CR4.OSFXSR, OSXMMEXCPT, OSXSAVE;
 * XCR0 = fpu_user_cfg.max_features; fninit. */
void fpu__init_cpu(void);
/* Linux: xstate_calculate_size (standard format). The bytes of an image
 * up to the end of the last component of @xfeatures that XCR0 enables;
 * at least the legacy region and the header (576). */
unsigned int xstate_calculate_size(uint64_t xfeatures);
/* A save area for @fpu, in the init state. Return: 0 or -ENOMEM. */
int fpstate_alloc(struct fpu *fpu);
void fpstate_free(struct fpu *fpu);
/* Linux: fpstate_init_user. @fpstate becomes the init state: FCW 0x37f,
 * MXCSR 0x1f80, every register zero (XSTATE_BV 0). */
void fpstate_init_user(struct fpstate *fpstate);
/**
 * fpu_clone - the FPU state of @dst, a new child of current (Linux: fpu_clone).
 * A child of the kernel's task starts in the init state; a child of a
 * program gets a copy of its registers as they are now.
 * Return: 0, or -ENOMEM with @dst left without an fpstate.
 */
int fpu_clone(struct fpu *dst);
/* Linux: fpu_flush_thread, exec's reset: @fpu's state becomes the init
 * state, in the registers too if @fpu is current's. */
void fpu_flush_thread(struct fpu *fpu);
/* Linux: fpu__clear_user_states. Current's registers (@fpu is current's)
 * get the init state, as a signal handler starts. */
void fpu__clear_user_states(struct fpu *fpu);
/* Linux: save_fpregs_to_fpstate: XSAVE (or FXSAVE64) the registers into
 * @fpu's fpstate. Context: the registers hold @fpu's state. */
void save_fpregs_to_fpstate(struct fpu *fpu);
/* Linux: restore_fpregs_from_fpstate: XRSTOR (or FXRSTOR64) them back.
 * Context: the image is valid (the kernel made it or checked it). */
void restore_fpregs_from_fpstate(struct fpu *fpu);
/**
 * fpu_switch - hand the FPU from @prev's task to @next's (eager, as
 * Linux's switch_fpu followed at once by its restore on the way out).
 * Saves @prev's registers unless it has no fpstate (a kernel task), then
 * loads @next's unless it has none: a kernel task keeps whatever is
 * there, since the kernel never uses it.
 * Context: interrupts off, in the context switch (__switch_to), before
 * @next can return to ring 3.
 */
void fpu_switch(struct fpu *prev, struct fpu *next);

/* --- fpu_signal.c: the state in a signal frame ------------------------------ */
/* Linux: fpu__alloc_mathframe. Room for the fpstate below @sp: the image
 * and, with XSAVE, magic2. Return: its 64-byte aligned address, which is
 * the new stack pointer. */
uint64_t fpu__alloc_mathframe(uint64_t sp);
/**
 * copy_fpstate_to_sigframe - write @fpu's registers to the user frame at @buf.
 * The image (XSAVE's standard format, or FXSAVE64's), the _fpx_sw_bytes
 * and FP_XSTATE_MAGIC2 after the image, as Linux lays them out.
 * Context: @fpu is current's; @buf comes from fpu__alloc_mathframe.
 * Return: 0, or -EFAULT if the frame cannot be written.
 */
int copy_fpstate_to_sigframe(struct fpu *fpu, uint64_t buf);
/**
 * fpu__restore_sig - load @fpu's registers from the user frame at @buf.
 * An XSAVE frame (both magics right) restores the components its
 * sw_bytes name and sets the others to init; any other frame is legacy:
 * x87 and SSE from it, the rest init. @buf 0: the init state.
 * Context: @fpu is current's (rt_sigreturn).
 * Return: 0; -EFAULT (unreadable) or -EINVAL (an image XRSTOR or FXRSTOR
 * would fault on: misaligned, reserved MXCSR bits, a bad header), and the
 * registers then hold the init state. The caller makes it SIGSEGV.
 */
int fpu__restore_sig(struct fpu *fpu, uint64_t buf);

#endif
