/*
 * The FPU state (in-kernel only): what fpu__init_system enabled matches
 * CPUID and XCR0; a save, a clobber and a restore give back xmm/ymm, MXCSR
 * and the x87 control word; exec's and a handler's init state; a switch;
 * and the signal frame through a private mm: its layout (sw bytes, both
 * magics, XSTATE_BV), the round trip, a legacy frame, and every image
 * XRSTOR would fault on refused with the registers left in the init state.
 * The cases run as the kernel's task, which has no FPU state of its own:
 * they may clobber the registers. Example: ymm3 = 0x60..0x7f ^ 0xa5 saved,
 * zeroed, restored reads 0x60..0x7f ^ 0xa5 again.
 */
#include <ktest.h>
#include <mm.h>
#include <sched.h>
#include <vm.h>
#include <asm/fpu.h>
#include <asm/special_insns.h>
#include "../x86.h"

#define BUF 0x400000ul /* two user pages of the test mm */
#define UNMAPPED 0x1000ul

/* ymm0-15 (xmm0-15 their lower halves), as the tests read and write them. */
struct vregs {
	uint8_t r[16][32];
};

static struct mm_struct *mm, *prev_mm;
static struct fpu fpu;

static bool has_avx(void)
{
	return fpu_user_cfg.max_features & XFEATURE_MASK_YMM;
}

/* clang-format off */
#define EACH_REG(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
	op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)
#define YMM_LOAD(n) "vmovdqu " #n "*32(%0), %%ymm" #n "\n\t"
#define YMM_STORE(n) "vmovdqu %%ymm" #n ", " #n "*32(%0)\n\t"
#define XMM_LOAD(n) "movdqu " #n "*32(%0), %%xmm" #n "\n\t"
#define XMM_STORE(n) "movdqu %%xmm" #n ", " #n "*32(%0)\n\t"
/* clang-format on */

/* The kernel is built without SSE: the compiler never holds a value in
 * these registers, so no clobber list is needed. */
static void load_vregs(const struct vregs *v)
{
	if (has_avx())
		__asm__ volatile(EACH_REG(YMM_LOAD) : : "r"(v) : "memory");
	else
		__asm__ volatile(EACH_REG(XMM_LOAD) : : "r"(v) : "memory");
}

/* Without AVX the upper halves read as zero. */
static void store_vregs(struct vregs *v)
{
	memset(v, 0, sizeof(*v));
	if (has_avx())
		__asm__ volatile(EACH_REG(YMM_STORE) : : "r"(v) : "memory");
	else
		__asm__ volatile(EACH_REG(XMM_STORE) : : "r"(v) : "memory");
}

static void fill(struct vregs *v, uint8_t seed)
{
	for (unsigned int i = 0; i < sizeof(v->r); i++)
		v->r[i / 32][i % 32] = (uint8_t)(i ^ seed);
	if (!has_avx())
		for (int i = 0; i < 16; i++)
			memset(&v->r[i][16], 0, 16);
}

static uint32_t read_mxcsr(void)
{
	uint32_t m;

	__asm__ volatile("stmxcsr %0" : "=m"(m));
	return m;
}

static void write_mxcsr(uint32_t m)
{
	__asm__ volatile("ldmxcsr %0" : : "m"(m));
}

static uint16_t read_fcw(void)
{
	uint16_t cw;

	__asm__ volatile("fnstcw %0" : "=m"(cw));
	return cw;
}

static void write_fcw(uint16_t cw)
{
	__asm__ volatile("fldcw %0" : : "m"(cw));
}

/* Registers in the init state: every vector register zero, FCW 0x37f,
 * MXCSR 0x1f80. */
static bool regs_are_init(void)
{
	static const struct vregs zero;
	struct vregs now;

	store_vregs(&now);
	return !memcmp(&now, &zero, sizeof(now)) && read_mxcsr() == MXCSR_DEFAULT &&
	       read_fcw() == FCW_DEFAULT;
}

static int fpu_test_init(struct kunit *test)
{
	if (fpstate_alloc(&fpu))
		return -1;
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(vm_mmap(mm, BUF, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	return 0;
}

static void fpu_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	mm_destroy(mm);
	fpstate_free(&fpu);
	/* Leave the registers as a fresh program would find them. */
	__asm__ volatile("fninit");
	write_mxcsr(MXCSR_DEFAULT);
}

static void boot_enabled_what_cpuid_offers(struct kunit *test)
{
	uint64_t cr4 = read_cr4();
	uint32_t r[4];

	KUNIT_EXPECT_TRUE(test, cr4 & (1ull << 9));  /* OSFXSR */
	KUNIT_EXPECT_TRUE(test, cr4 & (1ull << 10)); /* OSXMMEXCPT */
	KUNIT_EXPECT_EQ(test, fpu_user_cfg.max_features & XFEATURE_MASK_FPSSE, XFEATURE_MASK_FPSSE);
	if (!fpu_user_cfg.xsave) {
		KUNIT_EXPECT_FALSE(test, cpu.xsave);
		KUNIT_EXPECT_EQ(test, fpu_user_cfg.max_size, 512);
		return;
	}
	KUNIT_EXPECT_TRUE(test, cr4 & (1ull << 18)); /* OSXSAVE */
	cpuid_count(1, 0, r);
	KUNIT_EXPECT_TRUE(test, r[2] & (1u << 27)); /* what glibc checks */
	KUNIT_EXPECT_EQ(test, xgetbv(XCR_XFEATURE_ENABLED_MASK), fpu_user_cfg.max_features);
	KUNIT_EXPECT_EQ(test, !!(fpu_user_cfg.max_features & XFEATURE_MASK_YMM), cpu.avx);
	KUNIT_EXPECT_EQ(test, (fpu_user_cfg.max_features & XFEATURE_MASK_AVX512) != 0, cpu.avx512f);
	cpuid_count(0xd, 0, r);
	KUNIT_EXPECT_EQ(test, fpu_user_cfg.max_size, r[1]);
	KUNIT_EXPECT_EQ(test, xstate_calculate_size(fpu_user_cfg.max_features),
			fpu_user_cfg.max_size);
	/* The kernel's tasks (this one is the shell's thread) have none. */
	KUNIT_EXPECT_NULL(test, init_task.thread.fpu.fpstate);
	KUNIT_EXPECT_NULL(test, current->thread.fpu.fpstate);
}

static void save_clobber_restore_gives_every_register_back(struct kunit *test)
{
	struct vregs in, out;
	uint32_t r[4];

	fill(&in, 0xa5);
	load_vregs(&in);
	write_mxcsr(MXCSR_DEFAULT | 0x6000); /* round toward zero */
	write_fcw(0x027f);		     /* 53-bit precision */
	save_fpregs_to_fpstate(&fpu);
	__asm__ volatile("fninit");
	write_mxcsr(MXCSR_DEFAULT);
	fill(&out, 0);
	load_vregs(&out);
	restore_fpregs_from_fpstate(&fpu);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
	KUNIT_EXPECT_EQ(test, read_mxcsr(), MXCSR_DEFAULT | 0x6000);
	KUNIT_EXPECT_EQ(test, read_fcw(), 0x027f);
	/* The image: xmm3 in the legacy region, ymm3's upper half at
	 * YMM_Hi128's offset, XSTATE_BV naming it. */
	KUNIT_EXPECT_EQ(test, memcmp(&fpu.fpstate->regs.i387.xmm_space[3 * 4], in.r[3], 16), 0);
	if (has_avx()) {
		cpuid_count(0xd, XFEATURE_YMM, r);
		KUNIT_EXPECT_EQ(test, r[1], 576);
		KUNIT_EXPECT_EQ(
			test,
			memcmp((uint8_t *)&fpu.fpstate->regs + r[1] + 3 * 16, &in.r[3][16], 16), 0);
		KUNIT_EXPECT_TRUE(test, fpu.fpstate->regs.header.xfeatures & XFEATURE_MASK_YMM);
	}
}

static void init_state_is_fcw_37f_mxcsr_1f80_and_zeros(struct kunit *test)
{
	struct vregs in;

	fill(&in, 0x5a);
	load_vregs(&in);
	write_mxcsr(MXCSR_DEFAULT | 0x2000);
	save_fpregs_to_fpstate(&fpu);
	/* Not current's: exec's reset changes the image only. */
	fpu_flush_thread(&fpu);
	KUNIT_EXPECT_EQ(test, read_mxcsr(), MXCSR_DEFAULT | 0x2000);
	KUNIT_EXPECT_EQ(test, fpu.fpstate->regs.i387.cwd, FCW_DEFAULT);
	KUNIT_EXPECT_EQ(test, fpu.fpstate->regs.i387.mxcsr, MXCSR_DEFAULT);
	KUNIT_EXPECT_EQ(test, fpu.fpstate->regs.header.xfeatures, 0);
	KUNIT_EXPECT_EQ(test, fpu.fpstate->regs.i387.xmm_space[0], 0);
	restore_fpregs_from_fpstate(&fpu);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
	/* A handler's start: the registers themselves. */
	load_vregs(&in);
	fpu__clear_user_states(&fpu);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
}

static void switch_saves_prev_and_loads_next(struct kunit *test)
{
	struct fpu next = { 0 }, kernel = { 0 };
	struct vregs a, b, out;

	KUNIT_ASSERT_EQ(test, fpstate_alloc(&next), 0);
	fill(&a, 0x11);
	fill(&b, 0x77);
	load_vregs(&b);
	save_fpregs_to_fpstate(&next);
	load_vregs(&a);
	fpu_switch(&fpu, &next);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &b, sizeof(out)), 0);
	/* To a kernel task: nothing loaded; back: fpu's registers again. */
	fpu_switch(&next, &kernel);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &b, sizeof(out)), 0);
	fpu_switch(&kernel, &fpu);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&out, &a, sizeof(out)), 0);
	fpstate_free(&next);
	KUNIT_EXPECT_NULL(test, next.fpstate);
}

static void child_of_a_kernel_thread_starts_in_the_init_state(struct kunit *test)
{
	struct fpu child = { 0 };
	struct vregs in;

	fill(&in, 0x33);
	load_vregs(&in);
	KUNIT_ASSERT_EQ(test, fpu_clone(&child), 0);
	restore_fpregs_from_fpstate(&child);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
	fpstate_free(&child);
}

/* The test fpu's registers (the live ones) with @in, in a frame at @buf. */
static int frame_of(struct vregs *in, uint8_t seed, uint64_t buf)
{
	fill(in, seed);
	load_vregs(in);
	return copy_fpstate_to_sigframe(&fpu, buf);
}

static void sigframe_has_the_image_sw_bytes_and_magic2(struct kunit *test)
{
	struct xregs_state frame;
	struct vregs in;
	uint32_t magic2 = 0;
	unsigned int size = fpu_user_cfg.max_size;

	KUNIT_EXPECT_EQ(test, fpu__alloc_mathframe(BUF + 8000) % 64, 0);
	KUNIT_EXPECT_LE(test, fpu__alloc_mathframe(BUF + 8000) + size, BUF + 8000);
	KUNIT_ASSERT_EQ(test, frame_of(&in, 0xc3, BUF), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&frame, BUF, sizeof(frame)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(frame.i387.xmm_space, in.r[0], 16), 0);
	KUNIT_EXPECT_EQ(test, frame.i387.sw_reserved.magic1, FP_XSTATE_MAGIC1);
	KUNIT_EXPECT_EQ(test, frame.i387.sw_reserved.xstate_size, size);
	KUNIT_EXPECT_EQ(test, frame.i387.sw_reserved.extended_size, size + 4);
	KUNIT_EXPECT_EQ(test, frame.i387.sw_reserved.xfeatures, fpu_user_cfg.max_features);
	if (!fpu_user_cfg.xsave)
		return;
	KUNIT_ASSERT_EQ(test, copy_from_user(&magic2, BUF + size, 4), 0);
	KUNIT_EXPECT_EQ(test, magic2, FP_XSTATE_MAGIC2);
	KUNIT_EXPECT_EQ(test, frame.header.xfeatures & XFEATURE_MASK_FPSSE, XFEATURE_MASK_FPSSE);
	KUNIT_EXPECT_EQ(test, frame.header.xcomp_bv, 0);
}

static void sigreturn_restores_the_frame_upper_halves_too(struct kunit *test)
{
	struct vregs in, out;

	KUNIT_ASSERT_EQ(test, frame_of(&in, 0x3c, BUF), 0);
	fill(&out, 0);
	load_vregs(&out);
	write_mxcsr(MXCSR_DEFAULT | 0x4000);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF), 0);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
	KUNIT_EXPECT_EQ(test, read_mxcsr(), MXCSR_DEFAULT);
	/* No frame at all: the init state. */
	load_vregs(&in);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, 0), 0);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
}

static void legacy_frame_restores_xmm_and_inits_the_rest(struct kunit *test)
{
	static uint8_t legacy[512];
	struct vregs in, out;
	uint32_t zero = 0;

	KUNIT_ASSERT_EQ(test, frame_of(&in, 0x96, BUF), 0);
	KUNIT_ASSERT_EQ(
		test, copy_to_user(BUF + offsetof(struct fxregs_state, sw_reserved), &zero, 4), 0);
	fpu__clear_user_states(&fpu);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF), 0);
	store_vregs(&out);
	for (int i = 0; i < 16; i++) {
		KUNIT_EXPECT_EQ(test, memcmp(out.r[i], in.r[i], 16), 0);
		memset(&in.r[i][16], 0, 16); /* YMM_Hi128: init */
	}
	KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
	/* FXRSTOR's alignment is 16, not 64: the legacy image moved. */
	KUNIT_ASSERT_EQ(test, copy_from_user(legacy, BUF, sizeof(legacy)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF + 16, legacy, sizeof(legacy)), 0);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF + 16), 0);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(&in, &out, sizeof(in)), 0);
}

/* Write @len bytes of @val at @off in the frame at BUF (made from a fresh
 * save), then rt_sigreturn's restore must refuse it with @err and leave
 * the registers in the init state. */
static void expect_refused(struct kunit *test, unsigned int off, uint64_t val, size_t len, int err)
{
	struct vregs in;

	KUNIT_ASSERT_EQ(test, frame_of(&in, 0x42, BUF), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF + off, &val, len), 0);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF), err);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
}

static void sigreturn_refuses_what_xrstor_would_fault_on(struct kunit *test)
{
	uint64_t missing = ~fpu_user_cfg.max_features & -~fpu_user_cfg.max_features;
	struct vregs in;

	/* MXCSR's reserved bits. */
	expect_refused(test, offsetof(struct fxregs_state, mxcsr), 0x80001f80ull, 4, -EINVAL);
	if (fpu_user_cfg.xsave) {
		/* XSTATE_BV naming a component XCR0 lacks; XCOMP_BV; the
		 * reserved bytes 16..23. */
		expect_refused(test, 512, fpu_user_cfg.max_features | missing, 8, -EINVAL);
		expect_refused(test, 520, 1ull << 63, 8, -EINVAL);
		expect_refused(test, 528, 1, 8, -EINVAL);
		/* An XSAVE image not 64-byte aligned. */
		KUNIT_ASSERT_EQ(test, frame_of(&in, 0x24, BUF + 16), 0);
		KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF + 16), -EINVAL);
		KUNIT_EXPECT_TRUE(test, regs_are_init());
	}
	/* Not readable. */
	load_vregs(&in);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, UNMAPPED), -EFAULT);
	KUNIT_EXPECT_TRUE(test, regs_are_init());
}

static void wrong_magic2_makes_a_legacy_frame_not_a_fault(struct kunit *test)
{
	struct vregs in, out;
	uint32_t zero = 0;

	if (!fpu_user_cfg.xsave)
		return;
	KUNIT_ASSERT_EQ(test, frame_of(&in, 0x81, BUF), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF + fpu_user_cfg.max_size, &zero, 4), 0);
	KUNIT_EXPECT_EQ(test, fpu__restore_sig(&fpu, BUF), 0);
	store_vregs(&out);
	KUNIT_EXPECT_EQ(test, memcmp(out.r[7], in.r[7], 16), 0);
	KUNIT_EXPECT_EQ(test, out.r[7][16] | out.r[7][31], 0);
}

static struct kunit_case fpu_cases[] = {
	KUNIT_CASE(boot_enabled_what_cpuid_offers),
	KUNIT_CASE(save_clobber_restore_gives_every_register_back),
	KUNIT_CASE(init_state_is_fcw_37f_mxcsr_1f80_and_zeros),
	KUNIT_CASE(switch_saves_prev_and_loads_next),
	KUNIT_CASE(child_of_a_kernel_thread_starts_in_the_init_state),
	KUNIT_CASE(sigframe_has_the_image_sw_bytes_and_magic2),
	KUNIT_CASE(sigreturn_restores_the_frame_upper_halves_too),
	KUNIT_CASE(legacy_frame_restores_xmm_and_inits_the_rest),
	KUNIT_CASE(sigreturn_refuses_what_xrstor_would_fault_on),
	KUNIT_CASE(wrong_magic2_makes_a_legacy_frame_not_a_fault),
	{},
};

static struct kunit_suite fpu_suite = {
	.name = "x86_fpu",
	.init = fpu_test_init,
	.exit = fpu_test_exit,
	.test_cases = fpu_cases,
};
kunit_test_suite(fpu_suite);
