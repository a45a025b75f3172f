/*
 * elf_check tests: each case starts from one small valid kernel image (text
 * and data segments in the higher half, built byte by byte below) and breaks
 * exactly one property, then checks the exact message a user would see.
 */
#include <ktest.h>

#include "../elf_check.h"

#define IMG_SIZE 0x400
#define KBASE 0xffffffff80000000ull
#define PHOFF 64
#define PT_LOAD 1
#define PT_NOTE 4

/* Byte offsets of the fields the tests touch (ELF64 header / phdr). */
#define E_CLASS 4
#define E_DATA 5
#define E_TYPE 16
#define E_MACHINE 18
#define E_ENTRY 24
#define E_PHNUM 56
#define P_TYPE 0
#define P_FLAGS 4
#define P_OFFSET 8
#define P_VADDR 16
#define P_FILESZ 32
#define P_MEMSZ 40

static void put_le(unsigned char *p, uint64_t v, int bytes)
{
	while (bytes--) {
		*p++ = (unsigned char)v;
		v >>= 8;
	}
}

static unsigned char *phdr(unsigned char *img, int i)
{
	return img + PHOFF + 56 * i;
}

static void put_load(unsigned char *img, int i, uint32_t flags, uint64_t offset, uint64_t vaddr,
		     uint64_t filesz, uint64_t memsz)
{
	unsigned char *ph = phdr(img, i);

	put_le(ph + P_TYPE, PT_LOAD, 4);
	put_le(ph + P_FLAGS, flags, 4);
	put_le(ph + P_OFFSET, offset, 8);
	put_le(ph + P_VADDR, vaddr, 8);
	put_le(ph + P_FILESZ, filesz, 8);
	put_le(ph + P_MEMSZ, memsz, 8);
	put_le(ph + 48, 0x1000, 8); /* p_align */
}

/*
 * The valid image: segment 0 is text (R+X, 0x100 bytes at file 0x200,
 * vaddr KBASE, entry KBASE + 0x10), segment 1 is data + bss (R+W, 0x80 file
 * bytes at 0x300, vaddr KBASE + 0x1000, 0x2000 in memory).
 */
static void build_kernel(unsigned char *img)
{
	int i;

	for (i = 0; i < IMG_SIZE; i++)
		img[i] = 0;
	img[0] = 0x7f, img[1] = 'E', img[2] = 'L', img[3] = 'F';
	img[E_CLASS] = 2;
	img[E_DATA] = 1;
	img[6] = 1;
	put_le(img + E_TYPE, 2, 2);
	put_le(img + E_MACHINE, 62, 2);
	put_le(img + 20, 1, 4);
	put_le(img + E_ENTRY, KBASE + 0x10, 8);
	put_le(img + 32, PHOFF, 8);
	put_le(img + 52, 64, 2);
	put_le(img + 54, 56, 2);
	put_le(img + E_PHNUM, 2, 2);
	put_load(img, 0, ELF_PF_R | ELF_PF_X, 0x200, KBASE, 0x100, 0x100);
	put_load(img, 1, ELF_PF_R | ELF_PF_W, 0x300, KBASE + 0x1000, 0x80, 0x2000);
}

static void elf_check_accepts_valid_kernel(struct kunit *test)
{
	unsigned char img[IMG_SIZE];
	struct elf_layout l;
	char err[128];

	build_kernel(img);
	KUNIT_ASSERT_EQ(test, elf_check(img, IMG_SIZE, &l, err, sizeof(err)), 0);
	KUNIT_EXPECT_EQ(test, l.vaddr_start, KBASE);
	KUNIT_EXPECT_EQ(test, l.vaddr_end, KBASE + 0x3000);
	KUNIT_EXPECT_EQ(test, l.entry, KBASE + 0x10);
	KUNIT_ASSERT_EQ(test, l.nr_segments, 2);
	KUNIT_EXPECT_EQ(test, l.segments[0].offset, 0x200);
	KUNIT_EXPECT_EQ(test, l.segments[0].flags, ELF_PF_R | ELF_PF_X);
	KUNIT_EXPECT_EQ(test, l.segments[1].vaddr, KBASE + 0x1000);
	KUNIT_EXPECT_EQ(test, l.segments[1].filesz, 0x80);
	KUNIT_EXPECT_EQ(test, l.segments[1].memsz, 0x2000);
}

/* Run elf_check on @img of @size bytes and expect failure with @msg. */
static void expect_reject(struct kunit *test, unsigned char *img, size_t size, const char *msg)
{
	struct elf_layout l;
	char err[128];

	err[0] = '\0';
	KUNIT_EXPECT_EQ(test, elf_check(img, size, &l, err, sizeof(err)), -1);
	KUNIT_EXPECT_STREQ(test, err, msg);
}

static void elf_check_rejects_bad_magic(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	img[1] = 'X';
	expect_reject(test, img, IMG_SIZE, "bad magic (not an ELF file)");
}

static void elf_check_rejects_file_smaller_than_header(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	expect_reject(test, img, 10, "file of 10 bytes is too small for an ELF header");
}

static void elf_check_rejects_32bit_class(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	img[E_CLASS] = 1;
	expect_reject(test, img, IMG_SIZE, "not a 64-bit ELF (class 1)");
}

static void elf_check_rejects_big_endian(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	img[E_DATA] = 2;
	expect_reject(test, img, IMG_SIZE, "not a little-endian ELF (data encoding 2)");
}

static void elf_check_rejects_wrong_machine(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(img + E_MACHINE, 3, 2); /* EM_386 */
	expect_reject(test, img, IMG_SIZE, "not an x86_64 ELF (machine 3)");
}

static void elf_check_rejects_shared_object(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(img + E_TYPE, 3, 2); /* ET_DYN */
	expect_reject(test, img, IMG_SIZE, "not an executable ELF (type 3, want ET_EXEC)");
}

static void elf_check_rejects_truncated_phdr_table(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	/* Room for the header and one of the two program headers. */
	expect_reject(test, img, PHOFF + 56,
		      "truncated: program header table ends at 0xb0 past file size 0x78");
}

static void elf_check_rejects_segment_past_eof(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	expect_reject(test, img, 0x340,
		      "truncated: segment 1 file data ends at 0x380 past file size 0x340");
}

static void elf_check_rejects_low_half_segment(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(phdr(img, 1) + P_VADDR, 0x400000, 8);
	expect_reject(test, img, IMG_SIZE,
		      "segment 1 at 0x400000 is not in the higher half (below 0xffffffff80000000)");
}

static void elf_check_rejects_wraparound(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(phdr(img, 1) + P_VADDR, 0xfffffffffffff800ull, 8);
	expect_reject(test, img, IMG_SIZE,
		      "segment 1 at 0xfffffffffffff800 size 0x2000 wraps around the address space");
}

static void elf_check_rejects_overlapping_segments(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	/* Byte ranges are disjoint, but both touch the first page. */
	put_le(phdr(img, 1) + P_VADDR, KBASE + 0x800, 8);
	expect_reject(test, img, IMG_SIZE, "segments 0 and 1 overlap");
}

static void elf_check_rejects_entry_outside_text(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(img + E_ENTRY, KBASE + 0x1000, 8); /* in the data segment */
	expect_reject(test, img, IMG_SIZE,
		      "entry point 0xffffffff80001000 is not inside an executable segment");
}

static void elf_check_rejects_filesz_above_memsz(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(phdr(img, 0) + P_MEMSZ, 0x80, 8);
	expect_reject(test, img, IMG_SIZE,
		      "segment 0 file size 0x100 is larger than its memory size 0x80");
}

static void elf_check_rejects_image_without_pt_load(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(phdr(img, 0) + P_TYPE, PT_NOTE, 4);
	put_le(phdr(img, 1) + P_TYPE, PT_NOTE, 4);
	expect_reject(test, img, IMG_SIZE, "no PT_LOAD segment");
}

static void elf_check_rejects_span_over_64mib(struct kunit *test)
{
	unsigned char img[IMG_SIZE];

	build_kernel(img);
	put_le(phdr(img, 1) + P_VADDR, KBASE + (64ull << 20), 8);
	expect_reject(test, img, IMG_SIZE,
		      "kernel spans 0x4002000 bytes, more than the 64 MiB limit");
}

static void elf_check_truncates_long_message(struct kunit *test)
{
	unsigned char img[IMG_SIZE];
	struct elf_layout l;
	char err[8];

	build_kernel(img);
	img[0] = 0;
	KUNIT_EXPECT_EQ(test, elf_check(img, IMG_SIZE, &l, err, sizeof(err)), -1);
	KUNIT_EXPECT_STREQ(test, err, "bad mag");
}

static struct kunit_case elf_check_cases[] = {
	KUNIT_CASE(elf_check_accepts_valid_kernel),
	KUNIT_CASE(elf_check_rejects_bad_magic),
	KUNIT_CASE(elf_check_rejects_file_smaller_than_header),
	KUNIT_CASE(elf_check_rejects_32bit_class),
	KUNIT_CASE(elf_check_rejects_big_endian),
	KUNIT_CASE(elf_check_rejects_wrong_machine),
	KUNIT_CASE(elf_check_rejects_shared_object),
	KUNIT_CASE(elf_check_rejects_truncated_phdr_table),
	KUNIT_CASE(elf_check_rejects_segment_past_eof),
	KUNIT_CASE(elf_check_rejects_low_half_segment),
	KUNIT_CASE(elf_check_rejects_wraparound),
	KUNIT_CASE(elf_check_rejects_overlapping_segments),
	KUNIT_CASE(elf_check_rejects_entry_outside_text),
	KUNIT_CASE(elf_check_rejects_filesz_above_memsz),
	KUNIT_CASE(elf_check_rejects_image_without_pt_load),
	KUNIT_CASE(elf_check_rejects_span_over_64mib),
	KUNIT_CASE(elf_check_truncates_long_message),
	{},
};

static struct kunit_suite elf_check_suite = {
	.name = "elf_check",
	.test_cases = elf_check_cases,
};

kunit_test_suite(elf_check_suite);
