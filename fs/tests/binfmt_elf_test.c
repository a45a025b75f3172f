/*
 * binfmt_elf tests. Checker cases start from one valid static program built
 * below (text + data + bss, as gcc -static lays them out), break exactly one
 * property and expect the exact message; accepted shapes check every number
 * of the plan. Stack cases decode the buffer word by word against Linux's
 * layout. Example: argv {"prog", "-v"}, envp {"HOME=/"}, execfn "/bin/prog"
 * put "/bin/prog" just under the 8 zero bytes at STACK_TOP, and rsp at a
 * 16-aligned argc of 2.
 */
#include <binfmt_elf.h>
#include <resource.h>
#include <elf.h>
#include <errno.h>
#include <kernel.h>
#include <ktest.h>

#define IMG_SIZE 0x3000
#define TEXT 0x400000ul
#define DATA 0x402000ul
#define ENTRY (TEXT + 0x100)

static unsigned char img[IMG_SIZE];
static struct elf_program prog;
static char why[160];

static Elf64_Ehdr get_ehdr(void)
{
	Elf64_Ehdr e;

	memcpy(&e, img, sizeof(e));
	return e;
}

static void set_ehdr(const Elf64_Ehdr *e)
{
	memcpy(img, e, sizeof(*e));
}

static Elf64_Phdr get_phdr(unsigned int i)
{
	Elf64_Phdr ph;

	memcpy(&ph, img + sizeof(Elf64_Ehdr) + i * sizeof(ph), sizeof(ph));
	return ph;
}

static void set_phdr(unsigned int i, const Elf64_Phdr *ph)
{
	memcpy(img + sizeof(Elf64_Ehdr) + i * sizeof(*ph), ph, sizeof(*ph));
}

/* Append a program header; the table follows the ELF header at 64. */
static unsigned int add_phdr(uint32_t type, uint32_t flags, uint64_t offset, uint64_t vaddr,
			     uint64_t filesz, uint64_t memsz)
{
	Elf64_Ehdr e = get_ehdr();
	Elf64_Phdr ph = { type, flags, offset, vaddr, vaddr, filesz, memsz, 0x1000 };
	unsigned int i = e.e_phnum++;

	set_phdr(i, &ph);
	set_ehdr(&e);
	return i;
}

/* The ELF header alone: no program headers yet. */
static void build_ehdr(uint16_t type, uint64_t entry)
{
	Elf64_Ehdr e = {
		.e_ident = { 0x7f, 'E', 'L', 'F', ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = type,
		.e_machine = EM_X86_64,
		.e_version = EV_CURRENT,
		.e_entry = entry,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
	};

	memset(img, 0, sizeof(img));
	set_ehdr(&e);
}

/*
 * The valid program: phdr 0 text (R+X, file [0, 0x1800) at TEXT, headers
 * included), phdr 1 data + bss (R+W, 0x100 file bytes at 0x2000 to DATA,
 * 0x3000 in memory), phdr 2 PT_GNU_STACK (RW), phdr 3 PT_TLS in the data.
 */
static void build_exec(void)
{
	build_ehdr(ET_EXEC, ENTRY);
	add_phdr(PT_LOAD, PF_R | PF_X, 0, TEXT, 0x1800, 0x1800);
	add_phdr(PT_LOAD, PF_R | PF_W, 0x2000, DATA, 0x100, 0x3000);
	add_phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	add_phdr(PT_TLS, PF_R, 0x2000, DATA, 0x10, 0x40);
}

/* The same shape linked at 0, as gcc -static-pie does. */
static void build_dyn(void)
{
	build_ehdr(ET_DYN, 0x100);
	add_phdr(PT_LOAD, PF_R | PF_X, 0, 0, 0x1800, 0x1800);
	add_phdr(PT_LOAD, PF_R | PF_W, 0x2000, 0x2000, 0x100, 0x3000);
}

/* Change one field of phdr i with a statement using ph. */
#define EDIT_PHDR(i, stmt)                   \
	do {                                 \
		Elf64_Phdr ph = get_phdr(i); \
		stmt;                        \
		set_phdr(i, &ph);            \
	} while (0)
#define EDIT_EHDR(stmt)                    \
	do {                               \
		Elf64_Ehdr e = get_ehdr(); \
		stmt;                      \
		set_ehdr(&e);              \
	} while (0)

static int check(size_t size)
{
	why[0] = '\0';
	return elf_check_program(img, size, ELF_ET_DYN_BASE, &prog, why, sizeof(why));
}

static void expect_refused(struct kunit *test, size_t size, const char *msg)
{
	KUNIT_EXPECT_EQ(test, check(size), -ENOEXEC);
	KUNIT_EXPECT_STREQ(test, why, msg);
}

/* --- accepted shapes ------------------------------------------------------- */

static void static_exec_plan_has_text_data_bss_and_brk(struct kunit *test)
{
	const struct elf_load_segment *text = &prog.segments[0], *data = &prog.segments[1];

	build_exec();
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.e_type, ET_EXEC);
	KUNIT_EXPECT_EQ(test, prog.load_bias, 0);
	KUNIT_EXPECT_EQ(test, prog.entry, ENTRY);
	KUNIT_EXPECT_EQ(test, prog.phnum, 4);
	KUNIT_ASSERT_EQ(test, prog.nr_segments, 2);
	KUNIT_EXPECT_EQ(test, text->start, TEXT);
	KUNIT_EXPECT_EQ(test, text->end, TEXT + 0x2000);
	KUNIT_EXPECT_EQ(test, text->offset, 0);
	KUNIT_EXPECT_EQ(test, text->filesz, 0x1800);
	KUNIT_EXPECT_EQ(test, text->bss_start, text->bss_end);
	KUNIT_EXPECT_EQ(test, text->prot, PROT_READ | PROT_EXEC);
	KUNIT_EXPECT_EQ(test, data->start, DATA);
	KUNIT_EXPECT_EQ(test, data->end, DATA + 0x3000);
	KUNIT_EXPECT_EQ(test, data->vaddr, DATA);
	KUNIT_EXPECT_EQ(test, data->offset, 0x2000);
	KUNIT_EXPECT_EQ(test, data->filesz, 0x100);
	KUNIT_EXPECT_EQ(test, data->bss_start, DATA + 0x100);
	KUNIT_EXPECT_EQ(test, data->bss_end, DATA + 0x3000);
	KUNIT_EXPECT_EQ(test, data->prot, PROT_READ | PROT_WRITE);
	KUNIT_EXPECT_EQ(test, data->phdr_index, 1);
	KUNIT_EXPECT_EQ(test, prog.brk, DATA + 0x3000);
	KUNIT_EXPECT_EQ(test, prog.stack_prot, PROT_READ | PROT_WRITE);
	KUNIT_EXPECT_TRUE(test, prog.tls.present);
	KUNIT_EXPECT_EQ(test, prog.tls.vaddr, DATA);
	KUNIT_EXPECT_EQ(test, prog.tls.memsz, 0x40);
}

static void phdr_addr_is_computed_from_the_load_holding_the_table(struct kunit *test)
{
	build_exec();
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.phdr_addr, TEXT + sizeof(Elf64_Ehdr));
}

static void pt_phdr_that_agrees_is_accepted(struct kunit *test)
{
	build_exec();
	add_phdr(PT_PHDR, PF_R, 0x40, TEXT + 0x40, 5 * 56, 5 * 56);
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.phdr_addr, TEXT + 0x40);
}

static void static_pie_is_biased_to_elf_et_dyn_base(struct kunit *test)
{
	build_dyn();
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, ELF_ET_DYN_BASE, 0x555555554000ul);
	KUNIT_EXPECT_EQ(test, prog.e_type, ET_DYN);
	KUNIT_EXPECT_EQ(test, prog.load_bias, ELF_ET_DYN_BASE);
	KUNIT_EXPECT_EQ(test, prog.entry, ELF_ET_DYN_BASE + 0x100);
	KUNIT_EXPECT_EQ(test, prog.phdr_addr, ELF_ET_DYN_BASE + 0x40);
	KUNIT_EXPECT_EQ(test, prog.segments[0].start, ELF_ET_DYN_BASE);
	KUNIT_EXPECT_EQ(test, prog.segments[1].vaddr, ELF_ET_DYN_BASE + 0x2000);
	KUNIT_EXPECT_EQ(test, prog.segments[1].offset, 0x2000);
	KUNIT_EXPECT_EQ(test, prog.brk, ELF_ET_DYN_BASE + 0x5000);
}

/* Linux's maximum_alignment: a 2 MiB p_align pulls the bias down to 2 MiB. */
static void static_pie_bias_honours_the_largest_alignment(struct kunit *test)
{
	build_dyn();
	EDIT_PHDR(0, ph.p_align = 0x200000);
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.load_bias, 0x555555400000ul);
}

/* ET_EXEC is linked where it runs: the bias argument is ignored. */
static void exec_ignores_the_load_bias(struct kunit *test)
{
	build_exec();
	KUNIT_ASSERT_EQ(
		test, elf_check_program(img, IMG_SIZE, 0x100000000ul, &prog, why, sizeof(why)), 0);
	KUNIT_EXPECT_EQ(test, prog.load_bias, 0);
	KUNIT_EXPECT_EQ(test, prog.entry, ENTRY);
}

/* Data starting mid-page right after text: one page, both prots. */
static void segments_sharing_a_page_get_the_union_of_prots(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_offset = 0x1800; ph.p_vaddr = TEXT + 0x1800);
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.segments[1].start, TEXT + 0x1000);
	KUNIT_EXPECT_EQ(test, elf_page_prot(&prog, TEXT), PROT_READ | PROT_EXEC);
	KUNIT_EXPECT_EQ(test, elf_page_prot(&prog, TEXT + 0x1000),
			PROT_READ | PROT_WRITE | PROT_EXEC);
	KUNIT_EXPECT_EQ(test, elf_page_prot(&prog, TEXT + 0x2000), PROT_READ | PROT_WRITE);
	KUNIT_EXPECT_EQ(test, elf_page_prot(&prog, prog.brk), 0);
}

static void exec_stack_request_is_recorded(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(2, ph.p_flags = PF_R | PF_W | PF_X);
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.stack_prot, PROT_READ | PROT_WRITE | PROT_EXEC);
}

/* --- refusals -------------------------------------------------------------- */

static void refuses_bad_magic(struct kunit *test)
{
	build_exec();
	img[1] = 'X';
	expect_refused(test, IMG_SIZE, "bad magic: not an ELF file");
}

static void refuses_truncated_header(struct kunit *test)
{
	build_exec();
	expect_refused(test, 63, "truncated: 63 bytes is too small for an ELF header");
}

static void refuses_elfclass32(struct kunit *test)
{
	build_exec();
	img[EI_CLASS] = ELFCLASS32;
	expect_refused(test, IMG_SIZE, "not a 64-bit ELF (class 1)");
}

static void refuses_big_endian(struct kunit *test)
{
	build_exec();
	img[EI_DATA] = ELFDATA2MSB;
	expect_refused(test, IMG_SIZE, "not a little-endian ELF (data encoding 2)");
}

static void refuses_wrong_machine(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_machine = 183); /* EM_AARCH64 */
	expect_refused(test, IMG_SIZE, "not an x86-64 program (machine 183)");
}

static void refuses_relocatable_and_core(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_type = ET_REL);
	expect_refused(test, IMG_SIZE, "not an executable (type 1, want ET_EXEC or ET_DYN)");
	EDIT_EHDR(e.e_type = ET_CORE);
	expect_refused(test, IMG_SIZE, "not an executable (type 4, want ET_EXEC or ET_DYN)");
}

static void refuses_bad_phentsize(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_phentsize = 32);
	expect_refused(test, IMG_SIZE, "bad program header size 32 (want 56)");
}

static void refuses_too_many_phdrs(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_phnum = ELF_MAX_PHNUM + 1);
	expect_refused(test, IMG_SIZE, "65 program headers (want 1 to 64)");
}

static void refuses_phdrs_past_the_end(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_phoff = IMG_SIZE - 100);
	expect_refused(test, IMG_SIZE, "truncated: program headers end past the file size 0x3000");
	build_exec();
	EDIT_EHDR(e.e_phoff = ~0ull - 8); /* offset + length wraps */
	expect_refused(test, IMG_SIZE, "truncated: program headers end past the file size 0x3000");
}

static void refuses_filesz_above_memsz(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_filesz = 0x3001);
	expect_refused(test, IMG_SIZE,
		       "segment 1 file size 0x3001 is larger than its memory size 0x3000");
}

static void refuses_segment_data_past_the_end(struct kunit *test)
{
	build_exec();
	expect_refused(test, 0x2080,
		       "truncated: segment 1 data [0x2000, +0x100) ends past the file size 0x2080");
}

static void refuses_incongruent_offset(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_offset = 0x2010);
	expect_refused(
		test, IMG_SIZE,
		"segment 1 vaddr 0x402000 and offset 0x2010 differ modulo its alignment 0x1000");
}

static void refuses_overlapping_segments(struct kunit *test)
{
	build_exec();
	/* Text ends at TEXT + 0x1800; data starting 16 bytes earlier. */
	EDIT_PHDR(1, ph.p_offset = 0x17f0; ph.p_vaddr = TEXT + 0x17f0);
	expect_refused(test, IMG_SIZE, "segments 0 and 1 overlap");
}

static void refuses_descending_segments(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_vaddr = TEXT - 0x10000);
	expect_refused(test, IMG_SIZE, "segments 0 and 1 are not in ascending address order");
}

static void refuses_kernel_half_segment(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_vaddr = 0xffffffff80002000ull);
	expect_refused(test, IMG_SIZE,
		       "segment 1 [0xffffffff80002000, 0xffffffff80005000) is not in the user "
		       "half (ends above 0x7ffffffff000)");
}

static void refuses_segment_crossing_task_size(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_vaddr = TASK_SIZE - 0x2000);
	expect_refused(test, IMG_SIZE,
		       "segment 1 [0x7fffffffd000, 0x800000000000) is not in the user half (ends "
		       "above 0x7ffffffff000)");
}

static void refuses_address_below_mmap_min_addr(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(0, ph.p_vaddr = 0xf000);
	EDIT_EHDR(e.e_entry = 0xf100);
	expect_refused(test, IMG_SIZE, "segment 0 at 0xf000 is below mmap_min_addr 0x10000");
}

static void refuses_wrap_around(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_vaddr = 0xfffffffffffff000ull);
	expect_refused(
		test, IMG_SIZE,
		"segment 1 at 0xfffffffffffff000 size 0x3000 wraps around the address space");
}

/* A bias that pushes a segment past 2^64 is a wrap too. */
static void refuses_bias_that_wraps(struct kunit *test)
{
	build_dyn();
	EDIT_PHDR(1, ph.p_vaddr = 0xfffffffffff02000ull; ph.p_offset = 0x2000);
	expect_refused(
		test, IMG_SIZE,
		"segment 1 at 0xfffffffffff02000 size 0x3000 wraps around the address space");
}

static void refuses_absurd_segment_size(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_memsz = (1ul << 30) + 1);
	expect_refused(test, IMG_SIZE, "segment 1 memory size 0x40000001 is absurd (over 1 GiB)");
}

static void refuses_absurd_span(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(1, ph.p_vaddr = TEXT + (1ul << 30));
	expect_refused(test, IMG_SIZE, "segments span 0x40003000 bytes (over 1 GiB)");
}

static void refuses_entry_outside_executable_segments(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_entry = DATA + 0x10); /* in data: not executable */
	expect_refused(test, IMG_SIZE, "entry point 0x402010 is not inside an executable segment");
	EDIT_EHDR(e.e_entry = 0x1000000); /* in no segment at all */
	expect_refused(test, IMG_SIZE, "entry point 0x1000000 is not inside an executable segment");
}

/* A PT_INTERP is kept as where its path lies; exec reads and loads it. */
static void records_the_interpreter_path(struct kunit *test)
{
	static const char path[] = "/lib64/ld-linux-x86-64.so.2";

	build_exec();
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.interp_len, 0); /* static */
	memcpy(img + 0x1000, path, sizeof(path));
	add_phdr(PT_INTERP, PF_R, 0x1000, TEXT + 0x1000, sizeof(path), sizeof(path));
	KUNIT_ASSERT_EQ(test, check(IMG_SIZE), 0);
	KUNIT_EXPECT_EQ(test, prog.interp_offset, 0x1000);
	KUNIT_EXPECT_EQ(test, prog.interp_len, sizeof(path));
}

/* Not NUL-terminated, too short, or past the end: refused, as Linux's
 * -ENOEXEC, without reading the path. */
static void refuses_malformed_interpreter_without_reading_it(struct kunit *test)
{
	static const char *const msg = "malformed PT_INTERP: not a NUL-terminated path in the file";

	build_exec();
	memset(img + 0x1000, 'A', 0x20);
	add_phdr(PT_INTERP, PF_R, 0x1000, TEXT + 0x1000, 0x20, 0x20);
	expect_refused(test, IMG_SIZE, msg);
	EDIT_PHDR(4, ph.p_offset = IMG_SIZE - 4);
	expect_refused(test, IMG_SIZE, msg);
	img[0x1000] = '\0';
	EDIT_PHDR(4, ph.p_offset = 0x1000; ph.p_filesz = 1);
	expect_refused(test, IMG_SIZE, msg);
}

static void refuses_phdrs_outside_every_load(struct kunit *test)
{
	build_exec();
	EDIT_PHDR(0, ph.p_filesz = 0x40; ph.p_memsz = 0x1800);
	expect_refused(test, IMG_SIZE,
		       "program headers at file offset 0x40 are in no loaded segment");
}

static void refuses_pt_phdr_that_disagrees(struct kunit *test)
{
	build_exec();
	add_phdr(PT_PHDR, PF_R, 0x40, TEXT + 0x80, 5 * 56, 5 * 56);
	expect_refused(test, IMG_SIZE,
		       "PT_PHDR at 0x400080 disagrees with the loaded program headers at 0x400040");
}

static void refuses_program_without_load(struct kunit *test)
{
	build_ehdr(ET_EXEC, ENTRY);
	add_phdr(PT_GNU_STACK, PF_R | PF_W, 0, 0, 0, 0);
	expect_refused(test, IMG_SIZE, "no PT_LOAD segment");
}

/* Nothing is allocated, and a refused program leaves the plan alone. */
static void refusal_leaves_the_plan_untouched(struct kunit *test)
{
	build_exec();
	EDIT_EHDR(e.e_entry = 0x1000000);
	memset(&prog, 0xa5, sizeof(prog));
	KUNIT_EXPECT_EQ(test, check(IMG_SIZE), -ENOEXEC);
	KUNIT_EXPECT_EQ(test, prog.entry, 0xa5a5a5a5a5a5a5a5ull);
	KUNIT_EXPECT_EQ(test, prog.nr_segments, 0xa5a5a5a5u);
}

static void message_is_truncated_to_the_buffer(struct kunit *test)
{
	char small[10];

	build_exec();
	img[0] = 0;
	KUNIT_EXPECT_EQ(test, elf_check_program(img, IMG_SIZE, 0, &prog, small, sizeof(small)),
			-ENOEXEC);
	KUNIT_EXPECT_STREQ(test, small, "bad magic");
	KUNIT_EXPECT_EQ(test, elf_check_program(img, IMG_SIZE, 0, &prog, NULL, 0), -ENOEXEC);
}

/* --- the initial stack ----------------------------------------------------- */

#define STACK_BUF 0x24000 /* a MAX_ARG_STRLEN string and the rest */
static unsigned char stack_buf[STACK_BUF];
static char long_arg[MAX_ARG_STRLEN + 1];

static uint64_t ustack_word(uint64_t uaddr)
{
	uint64_t v;

	memcpy(&v, stack_buf + (uaddr - (STACK_TOP - STACK_BUF)), sizeof(v));
	return v;
}

static const char *ustack_str(uint64_t uaddr)
{
	return (const char *)stack_buf + (uaddr - (STACK_TOP - STACK_BUF));
}

static const char *const test_argv[] = { "prog", "-v", NULL };
static const char *const test_envp[] = { "HOME=/", "TERM=vt100", NULL };

static void init_bprm(struct elf_binprm *bprm)
{
	*bprm = (struct elf_binprm){
		.argv = test_argv,
		.envp = test_envp,
		.filename = "/bin/prog",
		.hwcap = 0x178bfbff,
		.hwcap2 = 0x2,
		.rlim_stack = RLIMIT_STACK_DEFAULT,
	};
	for (int i = 0; i < 16; i++)
		bprm->rand_bytes[i] = (uint8_t)(0xc0 + i);
}

static int build_stack(const struct elf_binprm *bprm, struct elf_stack *st)
{
	build_exec();
	if (check(IMG_SIZE))
		return -1;
	memset(stack_buf, 0xee, sizeof(stack_buf));
	return create_elf_tables(&prog, bprm, stack_buf, sizeof(stack_buf), STACK_TOP, st);
}

static void stack_has_argc_argv_envp_at_an_aligned_rsp(struct kunit *test)
{
	struct elf_binprm bprm;
	struct elf_stack st;

	init_bprm(&bprm);
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	KUNIT_EXPECT_EQ(test, st.sp % 16, 0);
	KUNIT_EXPECT_EQ(test, ustack_word(st.sp), 2);
	KUNIT_EXPECT_EQ(test, st.argc, 2);
	KUNIT_EXPECT_EQ(test, st.envc, 2);
	KUNIT_EXPECT_EQ(test, st.argv, st.sp + 8);
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.argv)), "prog");
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.argv + 8)), "-v");
	KUNIT_EXPECT_EQ(test, ustack_word(st.argv + 16), 0);
	KUNIT_EXPECT_EQ(test, st.envp, st.argv + 24);
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.envp)), "HOME=/");
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.envp + 8)), "TERM=vt100");
	KUNIT_EXPECT_EQ(test, ustack_word(st.envp + 16), 0);
	KUNIT_EXPECT_EQ(test, st.auxv, st.envp + 24);
}

/* Strings contiguous from argv[0] up to execfn, 8 zero bytes at the top. */
static void stack_strings_sit_at_the_top_in_linux_order(struct kunit *test)
{
	struct elf_binprm bprm;
	struct elf_stack st;
	uint64_t arg0;

	init_bprm(&bprm);
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	KUNIT_EXPECT_EQ(test, ustack_word(STACK_TOP - 8), 0);
	KUNIT_EXPECT_EQ(test, st.execfn, STACK_TOP - 8 - sizeof("/bin/prog"));
	KUNIT_EXPECT_STREQ(test, ustack_str(st.execfn), "/bin/prog");
	arg0 = st.execfn - sizeof("HOME=/") - sizeof("TERM=vt100") - sizeof("prog") - sizeof("-v");
	KUNIT_EXPECT_EQ(test, ustack_word(st.argv), arg0);
	KUNIT_EXPECT_EQ(test, ustack_word(st.argv + 8), arg0 + 5);
	KUNIT_EXPECT_EQ(test, ustack_word(st.envp), arg0 + 8);
	KUNIT_EXPECT_EQ(test, ustack_word(st.envp + 8), arg0 + 15);
	KUNIT_EXPECT_EQ(test, st.platform, (arg0 & ~15ul) - sizeof("x86_64"));
	KUNIT_EXPECT_STREQ(test, ustack_str(st.platform), "x86_64");
	KUNIT_EXPECT_EQ(test, st.random, st.platform - 16);
	for (int i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, (uint8_t)ustack_str(st.random)[i], 0xc0 + i);
	/* argc, 3 argv and 3 envp words, 19 auxv pairs, ending below the
	 * random bytes and rounded down to 16 (Linux's STACK_ROUND). */
	KUNIT_EXPECT_EQ(test, st.sp, (st.random - (1 + 3 + 3 + 38) * 8) & ~15ul);
	KUNIT_EXPECT_LT(test, st.random - (st.auxv + 19 * 16), 16);
}

static void auxv_has_every_entry_in_linux_order(struct kunit *test)
{
	struct elf_binprm bprm;
	struct elf_stack st;
	const uint64_t want[][2] = {
		{ AT_HWCAP, 0x178bfbff },
		{ AT_PAGESZ, 4096 },
		{ AT_CLKTCK, 100 },
		{ AT_PHDR, TEXT + 0x40 },
		{ AT_PHENT, 56 },
		{ AT_PHNUM, 4 },
		{ AT_BASE, 0x7ffff7fc3000 },
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, ENTRY },
		{ AT_UID, 0 },
		{ AT_EUID, 0 },
		{ AT_GID, 0 },
		{ AT_EGID, 0 },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, 0 }, /* checked against st below */
		{ AT_HWCAP2, 0x2 },
		{ AT_EXECFN, 0 },
		{ AT_PLATFORM, 0 },
		{ AT_NULL, 0 },
	};

	init_bprm(&bprm);
	bprm.interp_base = 0x7ffff7fc3000; /* where exec put a dynamic loader */
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++) {
		uint64_t type = ustack_word(st.auxv + 16 * i),
			 val = ustack_word(st.auxv + 16 * i + 8);

		KUNIT_EXPECT_EQ(test, type, want[i][0]);
		if (type == AT_RANDOM)
			KUNIT_EXPECT_EQ(test, val, st.random);
		else if (type == AT_EXECFN)
			KUNIT_EXPECT_EQ(test, val, st.execfn);
		else if (type == AT_PLATFORM)
			KUNIT_EXPECT_EQ(test, val, st.platform);
		else
			KUNIT_EXPECT_EQ(test, val, want[i][1]);
	}
}

/* Linux >= 5.18 never starts a program with argc 0. */
static void empty_argv_gets_an_empty_argv0(struct kunit *test)
{
	static const char *const none[] = { NULL };
	struct elf_binprm bprm;
	struct elf_stack st;

	init_bprm(&bprm);
	bprm.argv = none;
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	KUNIT_EXPECT_EQ(test, ustack_word(st.sp), 1);
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.argv)), "");
	KUNIT_EXPECT_EQ(test, ustack_word(st.argv + 8), 0);
	KUNIT_EXPECT_EQ(test, st.sp % 16, 0);
}

/* With an even and an odd number of words, rsp stays 16-aligned. Four
 * arguments leave argv[0] at 8 mod 16, so the string area's rounding
 * down to 16 is visible in where "x86_64" lands. */
static void rsp_is_aligned_whatever_the_argument_count(struct kunit *test)
{
	static const char *const three[] = { "a", "bb", "ccc", NULL };
	static const char *const four[] = { "a", "bb", "ccc", "dddd", NULL };
	struct elf_binprm bprm;
	struct elf_stack st;

	init_bprm(&bprm);
	bprm.argv = three;
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	KUNIT_EXPECT_EQ(test, st.sp % 16, 0);
	KUNIT_EXPECT_EQ(test, ustack_word(st.sp), 3);
	KUNIT_EXPECT_STREQ(test, ustack_str(ustack_word(st.argv + 16)), "ccc");
	KUNIT_EXPECT_EQ(test, ustack_word(st.argv + 24), 0);
	bprm.argv = four;
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	KUNIT_EXPECT_EQ(test, st.sp % 16, 0);
	KUNIT_EXPECT_EQ(test, ustack_word(st.sp), 4);
	KUNIT_EXPECT_GE(test, ustack_word(st.argv) % 16, 8);
	KUNIT_EXPECT_EQ(test, st.platform, (ustack_word(st.argv) & ~15ul) - sizeof("x86_64"));
}

static void too_big_arguments_are_refused_with_e2big(struct kunit *test)
{
	static const char *const one_long[] = { long_arg, NULL };
	struct elf_binprm bprm;
	struct elf_stack st;

	init_bprm(&bprm);
	bprm.argv = one_long;
	/* A string of MAX_ARG_STRLEN bytes with its NUL fits; one more
	 * byte is refused though the buffer would hold it. */
	memset(long_arg, 'x', MAX_ARG_STRLEN - 1);
	long_arg[MAX_ARG_STRLEN - 1] = '\0';
	KUNIT_EXPECT_EQ(test, build_stack(&bprm, &st), 0);
	long_arg[MAX_ARG_STRLEN - 1] = 'x';
	long_arg[MAX_ARG_STRLEN] = '\0';
	KUNIT_EXPECT_EQ(test, build_stack(&bprm, &st), -E2BIG);
	/* An 8 KiB rlimit allows ARG_MAX (128 KiB) of strings and pointers:
	 * the same 128 KiB string no longer fits with the other strings. */
	long_arg[MAX_ARG_STRLEN - 1] = '\0';
	bprm.rlim_stack = 8192;
	KUNIT_EXPECT_EQ(test, build_stack(&bprm, &st), -E2BIG);
	/* Within every limit but larger than the buffer. */
	bprm.rlim_stack = RLIMIT_STACK_DEFAULT;
	memset(long_arg, 'x', MAX_ARG_STRLEN - 1);
	KUNIT_EXPECT_EQ(test, create_elf_tables(&prog, &bprm, stack_buf, 0x10000, STACK_TOP, &st),
			-E2BIG);
}

/* Just enough buffer succeeds; 8 bytes less fails. With 2 + 2 strings
 * the words fill rsp's 16 bytes exactly, with 3 + 2 they leave 8 spare,
 * so both ways of running out are met. */
static void stack_fits_exactly_or_refuses(struct kunit *test)
{
	static const char *const three[] = { "a", "bb", "ccc", NULL };
	const char *const *argvs[] = { test_argv, three };
	struct elf_binprm bprm;
	struct elf_stack st;
	size_t need;

	init_bprm(&bprm);
	for (unsigned int i = 0; i < ARRAY_SIZE(argvs); i++) {
		bprm.argv = argvs[i];
		KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
		need = STACK_TOP - st.sp;
		KUNIT_EXPECT_EQ(test,
				create_elf_tables(&prog, &bprm, stack_buf + STACK_BUF - need, need,
						  STACK_TOP, &st),
				0);
		KUNIT_EXPECT_EQ(test, STACK_TOP - st.sp, need);
		KUNIT_EXPECT_EQ(test,
				create_elf_tables(&prog, &bprm, stack_buf + STACK_BUF - need + 8,
						  need - 8, STACK_TOP, &st),
				-E2BIG);
	}
}

/* A buffer whose low end is 2 bytes below argv[0]: rounding down to 16
 * leaves it; refused, and nothing is written below it. */
static void unaligned_buffer_end_is_refused_not_overrun(struct kunit *test)
{
	struct elf_binprm bprm;
	struct elf_stack st;
	size_t size;

	init_bprm(&bprm);
	KUNIT_ASSERT_EQ(test, build_stack(&bprm, &st), 0);
	size = STACK_TOP - (ustack_word(st.argv) - 2);
	KUNIT_ASSERT_NE(test, (STACK_TOP - size) & 15, 0);
	memset(stack_buf, 0xee, sizeof(stack_buf));
	KUNIT_EXPECT_EQ(
		test,
		create_elf_tables(&prog, &bprm, stack_buf + STACK_BUF - size, size, STACK_TOP, &st),
		-E2BIG);
	for (size_t i = STACK_BUF - size - 64; i < STACK_BUF - size; i++)
		KUNIT_EXPECT_EQ(test, stack_buf[i], 0xee);
}

/* --- the layout ------------------------------------------------------------ */

static void layout_puts_mmap_base_128mib_below_the_stack(struct kunit *test)
{
	struct mmap_layout l;

	pick_mmap_layout(RLIMIT_STACK_DEFAULT, &l);
	KUNIT_EXPECT_EQ(test, l.stack_top, 0x7ffffffff000ul);
	KUNIT_EXPECT_EQ(test, l.stack_size, 8ul << 20);
	KUNIT_EXPECT_EQ(test, l.mmap_base, 0x7ffff7fff000ul);
	KUNIT_EXPECT_EQ(test, l.dyn_base, 0x555555554000ul);
	KUNIT_EXPECT_EQ(test, l.mmap_min_addr, 0x10000);
}

/* Past 127 MiB the gap is the rlimit plus the 1 MiB guard; an unlimited
 * stack is clamped to 5/6 of the address space. */
static void layout_gap_follows_the_stack_rlimit(struct kunit *test)
{
	struct mmap_layout l;

	pick_mmap_layout(1ul << 30, &l);
	KUNIT_EXPECT_EQ(test, l.mmap_base, 0x7ffffffff000ul - (1ul << 30) - (1ul << 20));
	pick_mmap_layout(~0ull, &l);
	KUNIT_EXPECT_EQ(test, l.mmap_base,
			(0x7ffffffff000ul - 0x7ffffffff000ul / 6 * 5 + 4095) & ~4095ul);
}

static struct kunit_case binfmt_elf_cases[] = {
	KUNIT_CASE(static_exec_plan_has_text_data_bss_and_brk),
	KUNIT_CASE(phdr_addr_is_computed_from_the_load_holding_the_table),
	KUNIT_CASE(pt_phdr_that_agrees_is_accepted),
	KUNIT_CASE(static_pie_is_biased_to_elf_et_dyn_base),
	KUNIT_CASE(static_pie_bias_honours_the_largest_alignment),
	KUNIT_CASE(exec_ignores_the_load_bias),
	KUNIT_CASE(segments_sharing_a_page_get_the_union_of_prots),
	KUNIT_CASE(exec_stack_request_is_recorded),
	KUNIT_CASE(refuses_bad_magic),
	KUNIT_CASE(refuses_truncated_header),
	KUNIT_CASE(refuses_elfclass32),
	KUNIT_CASE(refuses_big_endian),
	KUNIT_CASE(refuses_wrong_machine),
	KUNIT_CASE(refuses_relocatable_and_core),
	KUNIT_CASE(refuses_bad_phentsize),
	KUNIT_CASE(refuses_too_many_phdrs),
	KUNIT_CASE(refuses_phdrs_past_the_end),
	KUNIT_CASE(refuses_filesz_above_memsz),
	KUNIT_CASE(refuses_segment_data_past_the_end),
	KUNIT_CASE(refuses_incongruent_offset),
	KUNIT_CASE(refuses_overlapping_segments),
	KUNIT_CASE(refuses_descending_segments),
	KUNIT_CASE(refuses_kernel_half_segment),
	KUNIT_CASE(refuses_segment_crossing_task_size),
	KUNIT_CASE(refuses_address_below_mmap_min_addr),
	KUNIT_CASE(refuses_wrap_around),
	KUNIT_CASE(refuses_bias_that_wraps),
	KUNIT_CASE(refuses_absurd_segment_size),
	KUNIT_CASE(refuses_absurd_span),
	KUNIT_CASE(refuses_entry_outside_executable_segments),
	KUNIT_CASE(records_the_interpreter_path),
	KUNIT_CASE(refuses_malformed_interpreter_without_reading_it),
	KUNIT_CASE(refuses_phdrs_outside_every_load),
	KUNIT_CASE(refuses_pt_phdr_that_disagrees),
	KUNIT_CASE(refuses_program_without_load),
	KUNIT_CASE(refusal_leaves_the_plan_untouched),
	KUNIT_CASE(message_is_truncated_to_the_buffer),
	KUNIT_CASE(stack_has_argc_argv_envp_at_an_aligned_rsp),
	KUNIT_CASE(stack_strings_sit_at_the_top_in_linux_order),
	KUNIT_CASE(auxv_has_every_entry_in_linux_order),
	KUNIT_CASE(empty_argv_gets_an_empty_argv0),
	KUNIT_CASE(rsp_is_aligned_whatever_the_argument_count),
	KUNIT_CASE(too_big_arguments_are_refused_with_e2big),
	KUNIT_CASE(stack_fits_exactly_or_refuses),
	KUNIT_CASE(unaligned_buffer_end_is_refused_not_overrun),
	KUNIT_CASE(layout_puts_mmap_base_128mib_below_the_stack),
	KUNIT_CASE(layout_gap_follows_the_stack_rlimit),
	{},
};

static struct kunit_suite binfmt_elf_suite = {
	.name = "binfmt_elf",
	.test_cases = binfmt_elf_cases,
};

kunit_test_suite(binfmt_elf_suite);
