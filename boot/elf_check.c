/*
 * elf_check: the only code that reads a kernel ELF's headers. Every field is
 * read with explicit little-endian loads and every offset + length is checked
 * against the file size without overflow, so a truncated or hostile file
 * yields a message, never an out-of-bounds read. Example: a 0x1000-byte file
 * whose segment 2 claims 0x200 bytes at offset 0xf00 fails with
 * "truncated: segment 2 file data ends at 0x1100 past file size 0x1000".
 */
#include "elf_check.h"

#include <stdbool.h>

#define EHDR_SIZE 64
#define PHDR_SIZE 56
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define EM_X86_64 62
#define PT_LOAD 1
#define PAGE_MASK 0xfffull
#define LAST_PAGE 0xfffffffffffff000ull /* a segment must end at or below */

static uint64_t load_le(const unsigned char *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = (v << 8) | p[bytes];
	return v;
}

static char *put_char(char *p, char *end, char c)
{
	if (p < end)
		*p++ = c;
	return p;
}

static char *put_num(char *p, char *end, uint64_t v, unsigned base)
{
	char digits[20];
	int n = 0;

	if (base == 16) {
		p = put_char(p, end, '0');
		p = put_char(p, end, 'x');
	}
	do {
		digits[n++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	while (n)
		p = put_char(p, end, digits[--n]);
	return p;
}

/*
 * Write @fmt to @err, replacing each %u (decimal) or %x (0x-prefixed hex)
 * with the next of @a, @b, @c. Always returns -1 so a check reads
 * "return fail(...)".
 */
static int fail(char *err, size_t errlen, const char *fmt, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t args[3] = { a, b, c };
	char *p = err, *end;
	int next = 0;

	if (!errlen)
		return -1;
	end = err + errlen - 1;
	for (; *fmt; fmt++) {
		if (fmt[0] == '%' && (fmt[1] == 'u' || fmt[1] == 'x') && next < 3) {
			p = put_num(p, end, args[next++], fmt[1] == 'u' ? 10 : 16);
			fmt++;
		} else {
			p = put_char(p, end, *fmt);
		}
	}
	*p = '\0';
	return -1;
}

static int check_ehdr(const unsigned char *e, size_t size, char *err, size_t errlen)
{
	uint64_t phoff, phnum;

	if (size < EHDR_SIZE)
		return fail(err, errlen, "file of %u bytes is too small for an ELF header", size, 0,
			    0);
	if (e[0] != 0x7f || e[1] != 'E' || e[2] != 'L' || e[3] != 'F')
		return fail(err, errlen, "bad magic (not an ELF file)", 0, 0, 0);
	if (e[4] != ELFCLASS64)
		return fail(err, errlen, "not a 64-bit ELF (class %u)", e[4], 0, 0);
	if (e[5] != ELFDATA2LSB)
		return fail(err, errlen, "not a little-endian ELF (data encoding %u)", e[5], 0, 0);
	if (e[6] != EV_CURRENT)
		return fail(err, errlen, "bad ELF version %u", e[6], 0, 0);
	if (load_le(e + 18, 2) != EM_X86_64)
		return fail(err, errlen, "not an x86_64 ELF (machine %u)", load_le(e + 18, 2), 0,
			    0);
	if (load_le(e + 16, 2) != ET_EXEC)
		return fail(err, errlen, "not an executable ELF (type %u, want ET_EXEC)",
			    load_le(e + 16, 2), 0, 0);
	if (load_le(e + 54, 2) != PHDR_SIZE)
		return fail(err, errlen, "bad program header size %u (want 56)", load_le(e + 54, 2),
			    0, 0);
	phoff = load_le(e + 32, 8);
	phnum = load_le(e + 56, 2);
	if (phnum == 0)
		return fail(err, errlen, "no program headers", 0, 0, 0);
	if (phoff > size || phnum * PHDR_SIZE > size - phoff)
		return fail(err, errlen,
			    "truncated: program header table ends at %x past file size %x",
			    phoff + phnum * PHDR_SIZE, size, 0);
	return 0;
}

/* Check one PT_LOAD in isolation: file range, sizes, higher-half placement. */
static int check_segment(const struct elf_segment *s, size_t size, char *err, size_t errlen)
{
	unsigned i = s->phdr_index;

	if (s->offset > size || s->filesz > size - s->offset)
		return fail(err, errlen,
			    "truncated: segment %u file data ends at %x past file size %x", i,
			    s->offset + s->filesz, size);
	if (s->filesz > s->memsz)
		return fail(err, errlen,
			    "segment %u file size %x is larger than its memory size %x", i,
			    s->filesz, s->memsz);
	if (s->vaddr < ELF_KERNEL_BASE)
		return fail(err, errlen,
			    "segment %u at %x is not in the higher half (below 0xffffffff80000000)",
			    i, s->vaddr, 0);
	if (s->memsz > LAST_PAGE - s->vaddr || s->vaddr > LAST_PAGE)
		return fail(err, errlen, "segment %u at %x size %x wraps around the address space",
			    i, s->vaddr, s->memsz);
	return 0;
}

static uint64_t page_start(const struct elf_segment *s)
{
	return s->vaddr & ~PAGE_MASK;
}

static uint64_t page_end(const struct elf_segment *s)
{
	return (s->vaddr + s->memsz + PAGE_MASK) & ~PAGE_MASK;
}

/* Pages, not bytes: the loader maps whole pages, so sharing one is a clash. */
static int check_overlap(const struct elf_layout *l, char *err, size_t errlen)
{
	const struct elf_segment *a, *b;

	for (a = l->segments; a < l->segments + l->nr_segments; a++)
		for (b = a + 1; b < l->segments + l->nr_segments; b++)
			if (page_start(a) < page_end(b) && page_start(b) < page_end(a))
				return fail(err, errlen, "segments %u and %u overlap",
					    a->phdr_index, b->phdr_index, 0);
	return 0;
}

static int check_entry(const struct elf_layout *l, char *err, size_t errlen)
{
	const struct elf_segment *s;

	for (s = l->segments; s < l->segments + l->nr_segments; s++)
		if ((s->flags & ELF_PF_X) && l->entry >= s->vaddr && l->entry - s->vaddr < s->memsz)
			return 0;
	return fail(err, errlen, "entry point %x is not inside an executable segment", l->entry, 0,
		    0);
}

static void read_phdr(const unsigned char *ph, unsigned index, struct elf_segment *s)
{
	s->flags = (uint32_t)load_le(ph + 4, 4);
	s->offset = load_le(ph + 8, 8);
	s->vaddr = load_le(ph + 16, 8);
	s->filesz = load_le(ph + 32, 8);
	s->memsz = load_le(ph + 40, 8);
	s->phdr_index = index;
}

/* Collect and individually check the PT_LOAD segments into @l. */
static int collect_segments(const unsigned char *e, size_t size, struct elf_layout *l, char *err,
			    size_t errlen)
{
	const unsigned char *ph = e + load_le(e + 32, 8);
	unsigned i, phnum = (unsigned)load_le(e + 56, 2);
	struct elf_segment s;

	l->nr_segments = 0;
	for (i = 0; i < phnum; i++, ph += PHDR_SIZE) {
		if (load_le(ph, 4) != PT_LOAD)
			continue;
		read_phdr(ph, i, &s);
		if (s.memsz == 0)
			continue;
		if (check_segment(&s, size, err, errlen))
			return -1;
		if (l->nr_segments == ELF_MAX_LOAD)
			return fail(err, errlen, "more than %u PT_LOAD segments", ELF_MAX_LOAD, 0,
				    0);
		l->segments[l->nr_segments++] = s;
	}
	if (l->nr_segments == 0)
		return fail(err, errlen, "no PT_LOAD segment", 0, 0, 0);
	return 0;
}

static void compute_span(struct elf_layout *l)
{
	const struct elf_segment *s;

	l->vaddr_start = UINT64_MAX;
	l->vaddr_end = 0;
	for (s = l->segments; s < l->segments + l->nr_segments; s++) {
		if (page_start(s) < l->vaddr_start)
			l->vaddr_start = page_start(s);
		if (page_end(s) > l->vaddr_end)
			l->vaddr_end = page_end(s);
	}
}

int elf_check(const void *image, size_t size, struct elf_layout *out, char *err, size_t errlen)
{
	const unsigned char *e = image;
	struct elf_layout l;

	if (check_ehdr(e, size, err, errlen) || collect_segments(e, size, &l, err, errlen) ||
	    check_overlap(&l, err, errlen))
		return -1;
	compute_span(&l);
	if (l.vaddr_end - l.vaddr_start > ELF_MAX_SPAN)
		return fail(err, errlen, "kernel spans %x bytes, more than the 64 MiB limit",
			    l.vaddr_end - l.vaddr_start, 0, 0);
	l.entry = load_le(e + 24, 8);
	if (check_entry(&l, err, errlen))
		return -1;
	*out = l;
	return 0;
}
