/*
 * /bin/fpstate: the AVX state of a Linux program across signals. Each
 * check prints "fpstate: NAME: ok" or "fpstate: NAME: FAILED (why)", then
 * "fpstate: all ok" (exit 0) or "fpstate: N FAILED" (exit 1); without AVX
 * (CPUID.1:ECX.AVX) it says so and exits 0. The kernel must have enabled
 * AVX (CPUID.1:ECX.OSXSAVE, XCR0 bits 1-2: what glibc checks) and keep
 * ymm0-15 whole across a handler that clobbers them, from the XSAVE image
 * it puts in the frame (uc_flags UC_FP_XSTATE, 64-byte aligned,
 * _fpx_sw_bytes, FP_XSTATE_MAGIC2); a frame without magic1 is a legacy
 * one (xmm from it, the upper halves zero). `fpstate badframe` and
 * `fpstate badheader` return from a handler through a frame whose MXCSR
 * has a reserved bit set, or whose XSTATE_BV names a component XCR0
 * lacks: the kernel must kill the program with SIGSEGV. The same binary
 * runs on Linux. Example: ymm0 = bytes 0xa1..0xc0 before kill(getpid(),
 * SIGUSR1), a handler sets every ymm to all ones, ymm0 is 0xa1..0xc0 after.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef FP_XSTATE_MAGIC1 /* glibc's <bits/sigcontext.h> has them, musl not */
#define FP_XSTATE_MAGIC1 0x46505853u
#define FP_XSTATE_MAGIC2 0x46505845u
#endif
#define UC_FP_XSTATE 0x1
#define SW_BYTES 464 /* struct _fpx_sw_bytes in the legacy region */
#define XSTATE_BV 512

enum mode {
	CLOBBER,
	LEGACY,
	BAD_MXCSR,
	BAD_XSTATE_BV
};

/* ymm0-15, 32 bytes each; the asm below names these (no static). */
unsigned char before[16][32], after[16][32], at_entry[16][32];
static volatile enum mode mode;
static volatile int hits;
static int failures;
static uint32_t ymm_hi_offset; /* YMM_Hi128 in the image: CPUID(0xD, 2).EBX */
static uint32_t xstate_size;   /* CPUID(0xD, 0).EBX: the size for XCR0 */
static char frame_problem[160];

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("fpstate: %s: ok\n", name);
	} else {
		printf("fpstate: %s: FAILED (%s)\n", name, why);
		failures++;
	}
	fflush(stdout);
}

static void cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

static uint64_t xgetbv0(void)
{
	uint32_t eax, edx;

	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return eax | (uint64_t)edx << 32;
}

/* clang-format off */
#define EACH(op) op(0) op(1) op(2) op(3) op(4) op(5) op(6) op(7) \
	op(8) op(9) op(10) op(11) op(12) op(13) op(14) op(15)
#define LOAD(n) "vmovdqu " #n "*32(%[in]), %%ymm" #n "\n\t"
#define STORE(n) "vmovdqu %%ymm" #n ", " #n "*32(%[out])\n\t"
#define ENTRY_STORE(n) "vmovdqu %ymm" #n ", at_entry+" #n "*32(%rip)\n\t"
#define ONES(n) "vpcmpeqd %%ymm" #n ", %%ymm" #n ", %%ymm" #n "\n\t"
#define YMM_CLOBBERS "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", \
	"xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15"
/* clang-format on */

void fp_handler(int sig, siginfo_t *info, void *uc);
/* The handler's first instructions, before any compiled code: record the
 * registers it starts with, then the C handler (rdi, rsi, rdx kept). */
__asm__(".text\n"
	".globl fp_entry\n"
	"fp_entry:\n\t" EACH(ENTRY_STORE) "jmp fp_handler\n");
void fp_entry(int sig, siginfo_t *info, void *uc);

/* What the frame must hold: the sw bytes, magic2, XSTATE_BV, and the
 * interrupted ymm5's upper half at YMM_Hi128. Empty if all is well. */
static void inspect_frame(const ucontext_t *uc, const unsigned char *fp)
{
	uint32_t magic1, extended, size, magic2 = 0;
	uint64_t xfeatures, bv;

	memcpy(&magic1, fp + SW_BYTES, 4);
	memcpy(&extended, fp + SW_BYTES + 4, 4);
	memcpy(&xfeatures, fp + SW_BYTES + 8, 8);
	memcpy(&size, fp + SW_BYTES + 16, 4);
	memcpy(&bv, fp + XSTATE_BV, 8);
	if (size == xstate_size)
		memcpy(&magic2, fp + size, 4);
	if (!(uc->uc_flags & UC_FP_XSTATE) || (uintptr_t)fp % 64)
		snprintf(frame_problem, sizeof(frame_problem), "uc_flags %lx, fpstate at %p",
			 (unsigned long)uc->uc_flags, (const void *)fp);
	else if (magic1 != FP_XSTATE_MAGIC1 || size != xstate_size || extended != size + 4 ||
		 xfeatures != xgetbv0() || magic2 != FP_XSTATE_MAGIC2)
		snprintf(frame_problem, sizeof(frame_problem),
			 "sw bytes %x %u %u %llx, magic2 %x, CPUID size %u", magic1, extended, size,
			 (unsigned long long)xfeatures, magic2, xstate_size);
	else if ((bv & 7) != 7 || memcmp(fp + ymm_hi_offset + 5 * 16, &before[5][16], 16))
		snprintf(frame_problem, sizeof(frame_problem),
			 "XSTATE_BV %llx or ymm5's upper half", (unsigned long long)bv);
}

/* Clobbers every ymm register; changes the frame as the mode says. */
void fp_handler(int sig, siginfo_t *info, void *ucv)
{
	ucontext_t *uc = ucv;
	unsigned char *fp = (unsigned char *)uc->uc_mcontext.fpregs;
	uint32_t mxcsr = 0x80001f80u;
	uint64_t bv;

	(void)sig;
	(void)info;
	hits++;
	inspect_frame(uc, fp);
	__asm__ volatile(EACH(ONES) : : : YMM_CLOBBERS);
	switch (mode) {
	case CLOBBER: /* ymm15's upper half comes back from the frame */
		memset(fp + ymm_hi_offset + 15 * 16, 0x5f, 16);
		break;
	case LEGACY: /* no magic1; xmm3 taken from the frame */
		memset(fp + SW_BYTES, 0, 4);
		memset(fp + 160 + 3 * 16, 0x33, 16);
		break;
	case BAD_MXCSR:
		memcpy(fp + 24, &mxcsr, 4);
		break;
	case BAD_XSTATE_BV:
		memcpy(&bv, fp + XSTATE_BV, 8);
		bv |= 1ull << 62;
		memcpy(fp + XSTATE_BV, &bv, 8);
		break;
	}
}

/* ymm0-15 = before[], then kill(getpid(), SIGUSR1) by a raw syscall (the
 * signal is delivered on its way back), then after[] = ymm0-15. */
static void signal_between_load_and_store(void)
{
	long pid = getpid();

	hits = 0;
	frame_problem[0] = '\0';
	__asm__ volatile(EACH(LOAD) "mov %[nr], %%eax\n\t"
				    "mov %[pid], %%rdi\n\t"
				    "mov %[sig], %%esi\n\t"
				    "syscall\n\t" EACH(STORE)
			 :
			 : [in] "r"(before), [out] "r"(after), [pid] "r"(pid), [nr] "i"(SYS_kill),
			   [sig] "i"(SIGUSR1)
			 : "rax", "rdi", "rsi", "rcx", "r11", "memory", YMM_CLOBBERS);
}

static void install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = fp_entry;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
}

static int all_zero(const unsigned char *p, size_t n)
{
	while (n--)
		if (*p++)
			return 0;
	return 1;
}

static void ymm_survive_a_clobbering_handler(void)
{
	unsigned char want[16][32];

	mode = CLOBBER;
	signal_between_load_and_store();
	check("the handler ran once", hits == 1, "no handler");
	check("the handler starts with every ymm register zero",
	      all_zero(&at_entry[0][0], sizeof(at_entry)), "the interrupted state leaked");
	check("the frame holds the XSAVE image: UC_FP_XSTATE, sw bytes, magic2, ymm5's upper half",
	      !frame_problem[0], frame_problem);
	memcpy(want, before, sizeof(want));
	memset(&want[15][16], 0x5f, 16);
	check("ymm0-15 survive a handler that clobbers them (ymm15's upper half edited in the "
	      "frame)",
	      !memcmp(after, want, sizeof(want)), "a register differs after the handler");
}

static void legacy_frame_zeroes_the_upper_halves(void)
{
	unsigned char want[16][32];

	mode = LEGACY;
	signal_between_load_and_store();
	memcpy(want, before, sizeof(want));
	memset(want[3], 0x33, 16);
	for (int i = 0; i < 16; i++)
		memset(&want[i][16], 0, 16);
	check("a frame without magic1 restores xmm from it, the upper halves zero",
	      hits == 1 && !memcmp(after, want, sizeof(want)), "registers differ");
}

/* Return through a corrupt frame: this must be the program's end. */
static int return_through_a_bad_frame(enum mode bad, const char *what)
{
	mode = bad;
	printf("fpstate: returning through a frame with %s: SIGSEGV expected\n", what);
	fflush(stdout);
	signal_between_load_and_store();
	printf("fpstate: %s: FAILED (the program survived)\n", what);
	return 1;
}

int main(int argc, char **argv)
{
	uint32_t r[4];

	cpuid(1, 0, r);
	if (!(r[2] & (1u << 28))) {
		printf("fpstate: no AVX on this CPU: nothing to check\n");
		return 0;
	}
	check("OSXSAVE set and XCR0 enables x87, SSE and AVX",
	      (r[2] & (1u << 27)) && (xgetbv0() & 7) == 7, "AVX not enabled by the kernel");
	if (failures)
		return 1;
	cpuid(0xd, 0, r);
	xstate_size = r[1];
	cpuid(0xd, 2, r);
	ymm_hi_offset = r[1];
	printf("fpstate: XCR0 %#llx, xstate size %u\n", (unsigned long long)xgetbv0(), xstate_size);
	for (unsigned int i = 0; i < sizeof(before); i++)
		before[i / 32][i % 32] = (unsigned char)(0xa1 + i);
	install();
	if (argc > 1 && !strcmp(argv[1], "badframe"))
		return return_through_a_bad_frame(BAD_MXCSR, "MXCSR bit 31 set");
	if (argc > 1 && !strcmp(argv[1], "badheader"))
		return return_through_a_bad_frame(BAD_XSTATE_BV, "XSTATE_BV bit 62 set");
	ymm_survive_a_clobbering_handler();
	legacy_frame_zeroes_the_upper_halves();
	if (failures) {
		printf("fpstate: %d FAILED\n", failures);
		return 1;
	}
	printf("fpstate: all ok\n");
	return 0;
}
