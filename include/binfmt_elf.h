/*
 * binfmt_elf: the pure half of exec for ELF programs (Linux:
 * fs/binfmt_elf.c). elf_check_program() turns a file image into a load
 * plan or a one-line reason; create_elf_tables() writes argc, argv, envp
 * and the auxiliary vector into a buffer standing for the top of the user
 * stack; pick_mmap_layout() places the stack and the mmap area. None of
 * them maps, allocates or touches an mm: the exec step does that with the
 * numbers they return, so every number here is tested on the host.
 */
#ifndef FOLIUM_BINFMT_ELF_H
#define FOLIUM_BINFMT_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <mman.h>
#include <vm.h>
#include <asm/processor.h>

/* --- the user address space (Linux: arch/x86/include/asm/processor.h for
 * TASK_SIZE and STACK_TOP, mm/util.c) --------------------------------------- */
#define ELF_EXEC_PAGESIZE 4096ul /* AT_PAGESZ and the loader's page */
/* Linux's default vm.mmap_min_addr: nothing is mapped below 64 KiB. */
#define MMAP_MIN_ADDR USER_VA_START /* 64 KiB (include/vm.h) */
/* Where an ET_DYN program goes: 2/3 of TASK_SIZE, page aligned, as
 * Linux's ELF_ET_DYN_BASE with ASLR off: 0x555555554000. */
#define ELF_ET_DYN_BASE (((TASK_SIZE / 3) * 2) & ~(ELF_EXEC_PAGESIZE - 1))

/* --- refusals of absurd programs (a real static binary is a few MiB) ------ */
#define ELF_MAX_PHNUM 64	 /* program headers read */
#define ELF_MAX_LOAD 16		 /* PT_LOAD segments with memory */
#define ELF_MAX_SPAN (1ul << 30) /* lowest to highest loaded byte */
#define ELF_MAX_INTERP_PATH 4096 /* Linux: PATH_MAX */

/*
 * One PT_LOAD segment, load bias applied. The exec step maps fresh zeroed
 * pages over [start, end) with prot, copies file bytes [offset, +filesz)
 * to vaddr, and leaves [bss_start, bss_end) zero. Two neighbours may share
 * one boundary page (their bytes never overlap); that page gets the union
 * of both prots, see elf_page_prot().
 */
struct elf_load_segment {
	uint64_t start, end; /* page-aligned: what is mapped */
	uint64_t vaddr;	     /* first byte of the segment */
	uint64_t offset, filesz;
	uint64_t bss_start, bss_end; /* vaddr + filesz, vaddr + memsz */
	uint32_t prot;		     /* PROT_* from p_flags */
	uint32_t phdr_index;	     /* in the program header table */
};

/* PT_TLS, load bias applied: the TLS image libc copies for each thread
 * (static glibc and musl set up TLS themselves, through arch_prctl). */
struct elf_tls {
	bool present;
	uint64_t vaddr, filesz, memsz, align;
};

/* What elf_check_program() found: only filled in for a valid program, so
 * its numbers need no further checks. */
struct elf_program {
	uint16_t e_type;     /* ET_EXEC or ET_DYN */
	uint64_t load_bias;  /* added to every p_vaddr; 0 for ET_EXEC */
	uint64_t entry;	     /* AT_ENTRY: inside an executable segment */
	uint64_t phdr_addr;  /* AT_PHDR: where the program headers are loaded */
	uint16_t phnum;	     /* AT_PHNUM */
	uint64_t brk;	     /* mm->start_brk: page after the highest segment */
	uint32_t stack_prot; /* PT_GNU_STACK: PROT_EXEC only if asked */
	struct elf_tls tls;
	/* PT_INTERP: the dynamic loader's path is file bytes [interp_offset,
	 * +interp_len), its NUL the last; interp_len 0: a static program. */
	uint64_t interp_offset, interp_len;
	uint64_t max_align; /* an ET_DYN's largest PT_LOAD p_align, at least a page */
	unsigned int nr_segments;
	struct elf_load_segment segments[ELF_MAX_LOAD]; /* ascending vaddr */
};

/* The file elf_check_image reads (Linux: elf_read over kernel_read):
 * @size bytes; @read copies [@off, +@len), always inside the file, to
 * @buf (exec: from the page cache). */
struct elf_image {
	uint64_t size;
	void (*read)(const struct elf_image *img, uint64_t off, void *buf, size_t len);
	const void *priv;
};

/**
 * elf_check_image - check an x86-64 ELF program and plan its load.
 * @img: the file; only its headers and PT_INTERP's bytes are read.
 * @load_bias: added to every address of an ET_DYN (static-PIE) program,
 *             rounded down to its largest p_align as Linux does; normally
 *             ELF_ET_DYN_BASE. Ignored for ET_EXEC.
 * @prog: filled in only on success.
 * @why: on failure, one NUL-terminated line saying why (truncated to
 *       @whylen), e.g. "segments 2 and 3 overlap". May be NULL if @whylen
 *       is 0.
 *
 * Accepts ET_EXEC and ET_DYN, static (gcc -static, gcc -static-pie,
 * musl-gcc -static) or with a PT_INTERP naming its dynamic loader, whose
 * path exec reads and loads as a program of its own. Segments must be in
 * ascending order and must not overlap, but may share a boundary page;
 * they must lie in [MMAP_MIN_ADDR, TASK_SIZE) and span at most
 * ELF_MAX_SPAN. AT_PHDR is where the PT_LOAD holding e_phoff puts the
 * table (Linux >= 5.18); a PT_PHDR must agree with it.
 * Return: 0, or -ENOEXEC with @why set.
 */
int elf_check_image(const struct elf_image *img, uint64_t load_bias, struct elf_program *prog,
		    char *why, size_t whylen);
/* elf_check_image of the file in [@image, +@size) (need not be aligned). */
int elf_check_program(const void *image, size_t size, uint64_t load_bias, struct elf_program *prog,
		      char *why, size_t whylen);

/**
 * elf_page_prot - the protection of the page at @addr under @prog.
 * Return: the union of the prots of every segment mapping that page (two
 * on a shared boundary page), or 0 if none maps it.
 */
uint32_t elf_page_prot(const struct elf_program *prog, uint64_t addr);

/* What exec passes to create_elf_tables (Linux: parts of linux_binprm). */
struct elf_binprm {
	const char *const *argv; /* NULL-terminated; empty gets argv[0] "" */
	const char *const *envp; /* NULL-terminated */
	const char *filename;	 /* AT_EXECFN */
	uint64_t hwcap;		 /* AT_HWCAP: CPUID.1:EDX, as Linux */
	uint64_t hwcap2;	 /* AT_HWCAP2 */
	uint8_t rand_bytes[16];	 /* AT_RANDOM: the caller's random bytes */
	uint64_t rlim_stack;	 /* the stack limit: bounds argv + envp */
	uint64_t interp_base;	 /* AT_BASE: where the dynamic loader is, or 0 */
};

/* Where create_elf_tables put things, as user addresses. */
struct elf_stack {
	uint64_t sp; /* rsp at entry: 16-byte aligned, *sp = argc */
	uint64_t argv, envp, auxv;
	uint64_t execfn, platform, random;
	unsigned long argc, envc;
	/* The strings: argv's [arg_start, arg_end), then envp's up to
	 * env_end (Linux: mm->arg_start..env_end, /proc/PID/cmdline). */
	uint64_t arg_start, arg_end, env_end;
};

#define ELF_PLATFORM "x86_64" /* AT_PLATFORM, as Linux's utsname machine */
/* Linux's per-string limit (MAX_ARG_STRLEN) and floor of the total
 * (ARG_MAX): 32 pages each. The total limit is max(rlim_stack / 4,
 * ARG_MAX), strings and pointers counted, as bprm_stack_limits(). */
#define MAX_ARG_STRLEN (32 * ELF_EXEC_PAGESIZE)
#define ARG_MAX (32 * ELF_EXEC_PAGESIZE)
/* Linux's bprm_stack_limits: strings and pointers together stay under
 * min(3/4 of 8 MiB, @rlim_stack / 4), but ARG_MAX is always allowed. */
uint64_t bprm_arg_limit(uint64_t rlim_stack);

/**
 * create_elf_tables - lay out the initial stack exactly as Linux does.
 * @prog: the checked program (AT_PHDR, AT_PHNUM, AT_ENTRY).
 * @bprm: arguments, environment, file name and the arch values.
 * @stack: @size bytes standing for user addresses [@stack_top - @size,
 *         @stack_top); need not be aligned. @stack_top must be 16-aligned.
 * @out: filled in on success.
 *
 * From @stack_top down: 8 zero bytes, the AT_EXECFN string, the envp
 * strings, the argv strings (argv[0] lowest); aligned down to 16, the
 * "x86_64" platform string, the 16 AT_RANDOM bytes; then, ending at the
 * 16-aligned rsp and going up: argc, argv[], NULL, envp[], NULL, auxv
 * pairs ending with AT_NULL. No AT_SYSINFO_EHDR (no vDSO) nor
 * AT_MINSIGSTKSZ (no signals) yet.
 * Return: 0, or -E2BIG if the strings exceed a limit or anything does not
 * fit in @size.
 */
int create_elf_tables(const struct elf_program *prog, const struct elf_binprm *bprm, void *stack,
		      size_t size, uint64_t stack_top, struct elf_stack *out);

/* The address-space layout exec sets up (Linux: arch_pick_mmap_layout). */
struct mmap_layout {
	uint64_t stack_top;  /* the stack VMA's end */
	uint64_t stack_size; /* its reach down: the stack rlimit */
	uint64_t mmap_base;  /* mmap grows down from here */
	uint64_t dyn_base;   /* ELF_ET_DYN_BASE */
	uint64_t mmap_min_addr;
};

/**
 * pick_mmap_layout - the layout for a stack limit of @rlim_stack bytes.
 * mmap_base is STACK_TOP less the gap: the rlimit plus Linux's 1 MiB
 * stack_guard_gap, clamped to [128 MiB, 5/6 of TASK_SIZE], page aligned,
 * with no randomization: 0x7ffff7fff000 for the 8 MiB default.
 */
void pick_mmap_layout(uint64_t rlim_stack, struct mmap_layout *layout);

#endif
