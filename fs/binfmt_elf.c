/*
 * binfmt_elf: checking an ELF program and building its initial
 * stack (Linux: fs/binfmt_elf.c, load_elf_binary and create_elf_tables).
 * Every header is read out of the file with bounds checked first, so a
 * truncated or hostile file yields a message, never an out-of-bounds read.
 * Example: gcc -static puts text at 0x401000 and data + bss at 0x4a06d8
 * (file 0x5b98, memory 0x23a68 bytes); the plan maps [0x4a0000, 0x4c5000)
 * read-write, copies 0x5b98 bytes to 0x4a06d8, zeroes [0x4a6270,
 * 0x4c4140), and brk starts at 0x4c5000.
 */
#include <binfmt_elf.h>
#include <elf.h>
#include <errno.h>
#include <kernel.h>
#include <resource.h>

#define ELF_PAGESTART(v) ((v) & ~(ELF_EXEC_PAGESIZE - 1))
#define ELF_PAGEALIGN(v) (((v) + ELF_EXEC_PAGESIZE - 1) & ~(ELF_EXEC_PAGESIZE - 1))
#define STACK_GUARD_GAP (256ul * ELF_EXEC_PAGESIZE) /* Linux's stack_guard_gap */
#define MMAP_GAP_MIN (128ul << 20)		    /* Linux's SIZE_128M */

/* One check of one image: the state the helpers below share. */
struct elf_check {
	const struct elf_image *img;
	size_t size;
	Elf64_Ehdr ehdr;
	struct elf_program *prog;
	uint64_t phdr_vaddr; /* PT_PHDR's, biased; 0 if absent */
	char *why;
	size_t whylen;
};

/* Fill in the reason; "return refuse(c, ...)" reads as the refusal. */
static __printf(2, 3) int refuse(struct elf_check *c, const char *fmt, ...)
{
	va_list ap;

	if (c->whylen) {
		va_start(ap, fmt);
		kvsnprintf(c->why, c->whylen, fmt, ap);
		va_end(ap);
	}
	return -ENOEXEC;
}

static bool in_file(const struct elf_check *c, uint64_t offset, uint64_t len)
{
	return offset <= c->size && len <= c->size - offset;
}

/* The identity, type and program header table; Linux: the checks at the
 * top of load_elf_binary and load_elf_phdrs. */
static int check_ehdr(struct elf_check *c)
{
	const Elf64_Ehdr *e = &c->ehdr;

	if (c->size < sizeof(*e))
		return refuse(c, "truncated: %zu bytes is too small for an ELF header", c->size);
	c->img->read(c->img, 0, &c->ehdr, sizeof(*e));
	if (memcmp(e->e_ident, ELFMAG, SELFMAG) != 0)
		return refuse(c, "bad magic: not an ELF file");
	if (e->e_ident[EI_CLASS] != ELFCLASS64)
		return refuse(c, "not a 64-bit ELF (class %u)", e->e_ident[EI_CLASS]);
	if (e->e_ident[EI_DATA] != ELFDATA2LSB)
		return refuse(c, "not a little-endian ELF (data encoding %u)", e->e_ident[EI_DATA]);
	if (e->e_ident[EI_VERSION] != EV_CURRENT)
		return refuse(c, "bad ELF version %u", e->e_ident[EI_VERSION]);
	if (e->e_machine != EM_X86_64)
		return refuse(c, "not an x86-64 program (machine %u)", e->e_machine);
	if (e->e_type != ET_EXEC && e->e_type != ET_DYN)
		return refuse(c, "not an executable (type %u, want ET_EXEC or ET_DYN)", e->e_type);
	if (e->e_phentsize != sizeof(Elf64_Phdr))
		return refuse(c, "bad program header size %u (want 56)", e->e_phentsize);
	if (e->e_phnum == 0 || e->e_phnum > ELF_MAX_PHNUM)
		return refuse(c, "%u program headers (want 1 to %u)", e->e_phnum, ELF_MAX_PHNUM);
	if (!in_file(c, e->e_phoff, (uint64_t)e->e_phnum * sizeof(Elf64_Phdr)))
		return refuse(c, "truncated: program headers end past the file size %#zx", c->size);
	return 0;
}

static void read_phdr(const struct elf_check *c, unsigned int i, Elf64_Phdr *ph)
{
	c->img->read(c->img, c->ehdr.e_phoff + (uint64_t)i * sizeof(*ph), ph, sizeof(*ph));
}

/* PT_INTERP: the dynamic loader's path, kept as where its bytes are.
 * Linux's checks (load_elf_binary): in the file, 2 to PATH_MAX bytes,
 * NUL-terminated; the first PT_INTERP counts. */
static int note_interp(struct elf_check *c, const Elf64_Phdr *ph)
{
	size_t len = ph->p_filesz;
	char last = 1;

	if (c->prog->interp_len)
		return 0;
	if (in_file(c, ph->p_offset, len) && len >= 2 && len <= ELF_MAX_INTERP_PATH)
		c->img->read(c->img, ph->p_offset + len - 1, &last, 1);
	if (last != '\0')
		return refuse(c, "malformed PT_INTERP: not a NUL-terminated path in the file");
	c->prog->interp_offset = ph->p_offset;
	c->prog->interp_len = len;
	return 0;
}

static bool is_power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* One PT_LOAD on its own: sizes, file range, alignment, and the biased
 * address range inside [MMAP_MIN_ADDR, TASK_SIZE). */
static int check_load(struct elf_check *c, unsigned int i, const Elf64_Phdr *ph, uint64_t bias)
{
	uint64_t align = ph->p_align > ELF_EXEC_PAGESIZE ? ph->p_align : ELF_EXEC_PAGESIZE;
	uint64_t start, end;

	if (ph->p_filesz > ph->p_memsz)
		return refuse(c, "segment %u file size %#llx is larger than its memory size %#llx",
			      i, (unsigned long long)ph->p_filesz, (unsigned long long)ph->p_memsz);
	if (!in_file(c, ph->p_offset, ph->p_filesz))
		return refuse(
			c,
			"truncated: segment %u data [%#llx, +%#llx) ends past the file size %#zx",
			i, (unsigned long long)ph->p_offset, (unsigned long long)ph->p_filesz,
			c->size);
	if (ph->p_align > 1 && !is_power_of_2(ph->p_align))
		return refuse(c, "segment %u alignment %#llx is not a power of two", i,
			      (unsigned long long)ph->p_align);
	/* Linux's elf_map maps the file page holding p_offset at the page
	 * holding p_vaddr: they must agree below the alignment. */
	if ((ph->p_vaddr - ph->p_offset) & (align - 1))
		return refuse(
			c,
			"segment %u vaddr %#llx and offset %#llx differ modulo its alignment %#llx",
			i, (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_offset,
			(unsigned long long)align);
	if (ph->p_memsz > ELF_MAX_SPAN)
		return refuse(c, "segment %u memory size %#llx is absurd (over 1 GiB)", i,
			      (unsigned long long)ph->p_memsz);
	if (__builtin_add_overflow(ph->p_vaddr, bias, &start) ||
	    __builtin_add_overflow(start, ph->p_memsz, &end))
		return refuse(c, "segment %u at %#llx size %#llx wraps around the address space", i,
			      (unsigned long long)ph->p_vaddr, (unsigned long long)ph->p_memsz);
	if (end > TASK_SIZE)
		return refuse(c,
			      "segment %u [%#llx, %#llx) is not in the user half (ends above %#lx)",
			      i, (unsigned long long)start, (unsigned long long)end, TASK_SIZE);
	if (ELF_PAGESTART(start) < MMAP_MIN_ADDR)
		return refuse(c, "segment %u at %#llx is below mmap_min_addr %#lx", i,
			      (unsigned long long)start, MMAP_MIN_ADDR);
	return 0;
}

static uint32_t pf_to_prot(uint32_t p_flags)
{
	return (p_flags & PF_R ? PROT_READ : 0) | (p_flags & PF_W ? PROT_WRITE : 0) |
	       (p_flags & PF_X ? PROT_EXEC : 0);
}

/* Append a checked PT_LOAD to the plan. Neighbours must ascend and not
 * overlap byte-wise; sharing one page is allowed (elf_page_prot). */
static int add_load(struct elf_check *c, unsigned int i, const Elf64_Phdr *ph, uint64_t bias)
{
	struct elf_program *prog = c->prog;
	struct elf_load_segment *s = &prog->segments[prog->nr_segments];
	const struct elf_load_segment *prev = s - 1;

	if (prog->nr_segments == ELF_MAX_LOAD)
		return refuse(c, "more than %u PT_LOAD segments", ELF_MAX_LOAD);
	s->vaddr = ph->p_vaddr + bias;
	s->bss_start = s->vaddr + ph->p_filesz;
	s->bss_end = s->vaddr + ph->p_memsz;
	s->start = ELF_PAGESTART(s->vaddr);
	s->end = ELF_PAGEALIGN(s->bss_end);
	s->offset = ph->p_offset;
	s->filesz = ph->p_filesz;
	s->prot = pf_to_prot(ph->p_flags);
	s->phdr_index = i;
	if (prog->nr_segments && s->vaddr < prev->vaddr)
		return refuse(c, "segments %u and %u are not in ascending address order",
			      prev->phdr_index, i);
	if (prog->nr_segments && s->vaddr < prev->bss_end)
		return refuse(c, "segments %u and %u overlap", prev->phdr_index, i);
	prog->nr_segments++;
	return 0;
}

/* Everything but PT_LOAD that load_elf_binary looks at. */
static int note_phdr(struct elf_check *c, const Elf64_Phdr *ph, uint64_t bias)
{
	struct elf_program *prog = c->prog;

	switch (ph->p_type) {
	case PT_INTERP:
		return note_interp(c, ph);
	case PT_GNU_STACK:
		if (ph->p_flags & PF_X)
			prog->stack_prot |= PROT_EXEC;
		break;
	case PT_TLS:
		prog->tls = (struct elf_tls){ true, ph->p_vaddr + bias, ph->p_filesz, ph->p_memsz,
					      ph->p_align };
		break;
	case PT_PHDR:
		c->phdr_vaddr = ph->p_vaddr + bias;
		break;
	}
	return 0;
}

/* The ET_DYN bias: @base rounded down to the largest PT_LOAD alignment,
 * less the first segment's page so that segment lands at @base (Linux:
 * maximum_alignment and ELF_PAGESTART(load_bias - vaddr)). */
static uint64_t dyn_load_bias(const struct elf_check *c, uint64_t base)
{
	uint64_t align = ELF_EXEC_PAGESIZE, first = 0;
	bool found = false;
	Elf64_Phdr ph;

	for (unsigned int i = 0; i < c->ehdr.e_phnum; i++) {
		read_phdr(c, i, &ph);
		if (ph.p_type != PT_LOAD)
			continue;
		if (is_power_of_2(ph.p_align) && ph.p_align > align)
			align = ph.p_align;
		if (!found)
			first = ph.p_vaddr;
		found = true;
	}
	c->prog->max_align = align;
	return ELF_PAGESTART((base & ~(align - 1)) - first);
}

/* AT_PHDR: where the PT_LOAD that holds the whole table puts it (Linux
 * >= 5.18). libc finds PT_TLS through it, so it must exist. */
static int find_phdr_addr(struct elf_check *c)
{
	uint64_t phoff = c->ehdr.e_phoff, len = c->ehdr.e_phnum * sizeof(Elf64_Phdr);
	struct elf_program *prog = c->prog;

	for (unsigned int i = 0; i < prog->nr_segments; i++) {
		const struct elf_load_segment *s = &prog->segments[i];

		if (s->offset <= phoff && phoff - s->offset <= s->filesz &&
		    len <= s->filesz - (phoff - s->offset)) {
			prog->phdr_addr = s->vaddr + (phoff - s->offset);
			break;
		}
	}
	if (!prog->phdr_addr)
		return refuse(c, "program headers at file offset %#llx are in no loaded segment",
			      (unsigned long long)phoff);
	if (c->phdr_vaddr && c->phdr_vaddr != prog->phdr_addr)
		return refuse(
			c, "PT_PHDR at %#llx disagrees with the loaded program headers at %#llx",
			(unsigned long long)c->phdr_vaddr, (unsigned long long)prog->phdr_addr);
	return 0;
}

/* The whole-program checks once every PT_LOAD is in the plan. */
static int check_layout(struct elf_check *c)
{
	struct elf_program *prog = c->prog;
	const struct elf_load_segment *first = &prog->segments[0];
	const struct elf_load_segment *last = &prog->segments[prog->nr_segments - 1];

	if (last->end - first->start > ELF_MAX_SPAN)
		return refuse(c, "segments span %#llx bytes (over 1 GiB)",
			      (unsigned long long)(last->end - first->start));
	for (const struct elf_load_segment *s = first; s <= last; s++)
		if ((s->prot & PROT_EXEC) && prog->entry >= s->vaddr && prog->entry < s->bss_end)
			return 0;
	return refuse(c, "entry point %#llx is not inside an executable segment",
		      (unsigned long long)prog->entry);
}

static int scan_phdrs(struct elf_check *c, uint64_t bias)
{
	Elf64_Phdr ph;
	int ret;

	for (unsigned int i = 0; i < c->ehdr.e_phnum; i++) {
		read_phdr(c, i, &ph);
		if (ph.p_type != PT_LOAD)
			ret = note_phdr(c, &ph, bias);
		else if (ph.p_memsz == 0 && ph.p_filesz == 0)
			ret = 0; /* maps nothing: Linux skips it too */
		else
			ret = check_load(c, i, &ph, bias) ?: add_load(c, i, &ph, bias);
		if (ret)
			return ret;
	}
	if (!c->prog->nr_segments)
		return refuse(c, "no PT_LOAD segment");
	return 0;
}

/* Linux: load_elf_binary up to the first mapping. */
int elf_check_image(const struct elf_image *img, uint64_t load_bias, struct elf_program *prog,
		    char *why, size_t whylen)
{
	struct elf_check c = { .img = img, .size = img->size, .why = why, .whylen = whylen };
	struct elf_program plan = { .stack_prot = PROT_READ | PROT_WRITE,
				    .max_align = ELF_EXEC_PAGESIZE };
	uint64_t bias = 0;
	int ret;

	c.prog = &plan;
	ret = check_ehdr(&c);
	if (ret)
		return ret;
	if (c.ehdr.e_type == ET_DYN)
		bias = dyn_load_bias(&c, load_bias);
	plan.e_type = c.ehdr.e_type;
	plan.load_bias = bias;
	plan.entry = c.ehdr.e_entry + bias;
	plan.phnum = c.ehdr.e_phnum;
	ret = scan_phdrs(&c, bias) ?: check_layout(&c) ?: find_phdr_addr(&c);
	if (ret)
		return ret;
	plan.brk = plan.segments[plan.nr_segments - 1].end;
	*prog = plan;
	return 0;
}

static void memory_image_read(const struct elf_image *img, uint64_t off, void *buf, size_t len)
{
	memcpy(buf, (const char *)img->priv + off, len);
}

int elf_check_program(const void *image, size_t size, uint64_t load_bias, struct elf_program *prog,
		      char *why, size_t whylen)
{
	struct elf_image img = { .size = size, .read = memory_image_read, .priv = image };

	return elf_check_image(&img, load_bias, prog, why, whylen);
}

uint32_t elf_page_prot(const struct elf_program *prog, uint64_t addr)
{
	uint32_t prot = 0;

	for (unsigned int i = 0; i < prog->nr_segments; i++)
		if (addr >= prog->segments[i].start && addr < prog->segments[i].end)
			prot |= prog->segments[i].prot;
	return prot;
}

/* --- the initial stack (Linux: copy_strings, create_elf_tables) ---------- */

#define AUXV_WORDS (19 * 2) /* the pairs fill_auxv writes, AT_NULL's too */

/* The buffer standing for user addresses [base, top), and the next free
 * byte going down (Linux's bprm->p). */
struct stack_writer {
	unsigned char *buf;
	uint64_t base, p;
};

/* Take @len bytes below p. Return: their user address, or 0 if they do
 * not fit (no valid stack address is 0). */
static uint64_t stack_alloc(struct stack_writer *w, uint64_t len)
{
	if (w->p - w->base < len)
		return 0;
	w->p -= len;
	return w->p;
}

static void stack_copy(struct stack_writer *w, uint64_t uaddr, const void *src, size_t len)
{
	memcpy(w->buf + (uaddr - w->base), src, len);
}

static void stack_put_word(struct stack_writer *w, uint64_t *uaddr, uint64_t v)
{
	stack_copy(w, *uaddr, &v, sizeof(v));
	*uaddr += sizeof(v);
}

/* Count @strs and their bytes with NULs. Return: -E2BIG if one string is
 * longer than Linux's MAX_ARG_STRLEN, else 0. */
static int count_strings(const char *const *strs, unsigned long *n, uint64_t *bytes)
{
	for (*n = 0, *bytes = 0; strs[*n]; (*n)++) {
		size_t len = strnlen(strs[*n], MAX_ARG_STRLEN) + 1;

		if (len > MAX_ARG_STRLEN)
			return -E2BIG;
		*bytes += len;
	}
	return 0;
}

uint64_t bprm_arg_limit(uint64_t rlim_stack)
{
	uint64_t limit = MIN(RLIMIT_STACK_DEFAULT / 4 * 3, rlim_stack / 4);

	return MAX(limit, ARG_MAX);
}

/* Write each string of @strs upward from @uaddr and, at @*ptrs, its
 * address, then the NULL that ends the array. Return: the address after
 * the last string. */
static uint64_t put_strings(struct stack_writer *w, const char *const *strs, uint64_t uaddr,
			    uint64_t *ptrs)
{
	for (; *strs; strs++) {
		size_t len = strlen(*strs) + 1;

		stack_copy(w, uaddr, *strs, len);
		stack_put_word(w, ptrs, uaddr);
		uaddr += len;
	}
	stack_put_word(w, ptrs, 0);
	return uaddr;
}

/* The auxiliary vector in Linux's order (ARCH_DLINFO's vDSO and
 * AT_MINSIGSTKSZ left out). Return: the number of words, AT_NULL's too. */
static unsigned int fill_auxv(uint64_t auxv[AUXV_WORDS], const struct elf_program *prog,
			      const struct elf_binprm *bprm, const struct elf_stack *st)
{
	const uint64_t pairs[][2] = {
		{ AT_HWCAP, bprm->hwcap },
		{ AT_PAGESZ, ELF_EXEC_PAGESIZE },
		{ AT_CLKTCK, 100 }, /* Linux's USER_HZ, what times() counts in */
		{ AT_PHDR, prog->phdr_addr },
		{ AT_PHENT, sizeof(Elf64_Phdr) },
		{ AT_PHNUM, prog->phnum },
		{ AT_BASE, bprm->interp_base }, /* 0 without an interpreter */
		{ AT_FLAGS, 0 },
		{ AT_ENTRY, prog->entry },
		{ AT_UID, 0 },
		{ AT_EUID, 0 },
		{ AT_GID, 0 },
		{ AT_EGID, 0 },
		{ AT_SECURE, 0 },
		{ AT_RANDOM, st->random },
		{ AT_HWCAP2, bprm->hwcap2 },
		{ AT_EXECFN, st->execfn },
		{ AT_PLATFORM, st->platform },
		{ AT_NULL, 0 },
	};

	_Static_assert(sizeof(pairs) == AUXV_WORDS * sizeof(uint64_t), "AUXV_WORDS is stale");
	memcpy(auxv, pairs, sizeof(pairs));
	return ARRAY_SIZE(pairs) * 2;
}

/* Check Linux's limits, then take the strings' room at the top, from
 * @stack_top down: 8 zero bytes (Linux's bprm->p starts a word below the
 * end), execfn (written here), then envp and argv strings, argv[0] lowest,
 * which put_strings() writes with their pointers. Return: 0 or -E2BIG. */
static int reserve_strings(struct stack_writer *w, const struct elf_binprm *bprm,
			   const char *const *argv, struct elf_stack *st)
{
	uint64_t argv_bytes, envp_bytes, ptr_bytes, limit = bprm_arg_limit(bprm->rlim_stack);
	size_t name_len = strnlen(bprm->filename, MAX_ARG_STRLEN) + 1;
	uint64_t zero = 0, argv_start;

	if (count_strings(argv, &st->argc, &argv_bytes) ||
	    count_strings(bprm->envp, &st->envc, &envp_bytes) || name_len > MAX_ARG_STRLEN)
		return -E2BIG;
	ptr_bytes = (st->argc + st->envc) * sizeof(uint64_t);
	if (ptr_bytes >= limit ||
	    sizeof(zero) + name_len + argv_bytes + envp_bytes > limit - ptr_bytes)
		return -E2BIG;
	if (!stack_alloc(w, sizeof(zero)))
		return -E2BIG;
	stack_copy(w, w->p, &zero, sizeof(zero));
	st->execfn = stack_alloc(w, name_len);
	argv_start = stack_alloc(w, envp_bytes + argv_bytes);
	if (!st->execfn || !argv_start)
		return -E2BIG;
	st->arg_start = argv_start;
	st->arg_end = argv_start + argv_bytes;
	st->env_end = st->arg_end + envp_bytes;
	stack_copy(w, st->execfn, bprm->filename, name_len);
	return 0;
}

int create_elf_tables(const struct elf_program *prog, const struct elf_binprm *bprm, void *stack,
		      size_t size, uint64_t stack_top, struct elf_stack *out)
{
	static const char *const empty_argv[] = { "", NULL }; /* Linux >= 5.18 */
	const char *const *argv = bprm->argv[0] ? bprm->argv : empty_argv;
	struct stack_writer w = { .buf = stack, .base = stack_top - size, .p = stack_top };
	struct elf_stack st = { 0 };
	uint64_t auxv[AUXV_WORDS], items, sp, strings;
	unsigned int nr_auxv;
	int ret;

	if (size > stack_top || (stack_top & 15))
		return -E2BIG;
	ret = reserve_strings(&w, bprm, argv, &st);
	if (ret)
		return ret;
	strings = w.p;
	w.p &= ~15ul; /* Linux's arch_align_stack, randomization off */
	st.platform = stack_alloc(&w, sizeof(ELF_PLATFORM));
	st.random = stack_alloc(&w, sizeof(bprm->rand_bytes));
	nr_auxv = fill_auxv(auxv, prog, bprm, &st);
	/* Linux's STACK_ROUND: argc, argv[] + NULL, envp[] + NULL, auxv. */
	items = 1 + (st.argc + 1) + (st.envc + 1) + nr_auxv;
	if (!st.platform || !st.random || w.p - w.base < items * 8)
		return -E2BIG;
	/* Below the strings, nothing is written before this check and all
	 * of it lies above sp; so it also catches p rounded below an
	 * unaligned base, which stack_alloc's unsigned test lets through. */
	sp = (w.p - items * 8) & ~15ul;
	if (sp < w.base)
		return -E2BIG;
	stack_copy(&w, st.platform, ELF_PLATFORM, sizeof(ELF_PLATFORM));
	stack_copy(&w, st.random, bprm->rand_bytes, sizeof(bprm->rand_bytes));
	st.sp = sp;
	stack_put_word(&w, &sp, st.argc);
	st.argv = sp;
	strings = put_strings(&w, argv, strings, &sp);
	st.envp = sp;
	put_strings(&w, bprm->envp, strings, &sp);
	st.auxv = sp;
	stack_copy(&w, sp, auxv, nr_auxv * sizeof(uint64_t));
	*out = st;
	return 0;
}

/* Linux: arch_pick_mmap_layout and mmap_base, ASLR off. */
void pick_mmap_layout(uint64_t rlim_stack, struct mmap_layout *layout)
{
	uint64_t gap = rlim_stack;

	/* A limit near RLIM_INFINITY must not wrap when the guard is added. */
	if (gap + STACK_GUARD_GAP > gap)
		gap += STACK_GUARD_GAP;
	gap = MAX(gap, MMAP_GAP_MIN);
	gap = MIN(gap, TASK_SIZE / 6 * 5);
	*layout = (struct mmap_layout){
		.stack_top = STACK_TOP,
		.stack_size = rlim_stack,
		.mmap_base = ELF_PAGEALIGN(TASK_SIZE - gap),
		.dyn_base = ELF_ET_DYN_BASE,
		.mmap_min_addr = MMAP_MIN_ADDR,
	};
}
