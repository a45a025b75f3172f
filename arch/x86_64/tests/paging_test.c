/*
 * The kernel's own page tables as the CPU sees them (in-kernel only): W^X
 * per section, NX on the direct map, the boot stack's guard page, an
 * empty lower half, and the embedded symbol table naming real functions.
 */
#include <asm/page.h>
#include <pgtable_bits.h>
#include <ksyms.h>
#include <ktest.h>
#include "../x86.h"

extern char __text_start[], __rodata_start[], __data_start[], __ksyms_start[];
extern char boot_stack_guard[], boot_stack_bottom[];

static uint64_t flags_of(struct kunit *test, const void *va)
{
	int level = 0;
	uint64_t e = paging_lookup((uint64_t)va, &level);

	return e;
}

static void kernel_text_is_executable_and_read_only(struct kunit *test)
{
	uint64_t e = flags_of(test, (void *)paging_lookup);

	KUNIT_ASSERT_TRUE(test, e & _PAGE_PRESENT);
	KUNIT_EXPECT_FALSE(test, e & _PAGE_RW);
	KUNIT_EXPECT_FALSE(test, e & _PAGE_NX);
}

static void kernel_rodata_is_neither_writable_nor_executable(struct kunit *test)
{
	static const char marker[] = "rodata";
	uint64_t e = flags_of(test, marker);

	KUNIT_ASSERT_TRUE(test, e & _PAGE_PRESENT);
	KUNIT_EXPECT_FALSE(test, e & _PAGE_RW);
	KUNIT_EXPECT_EQ(test, !!(e & _PAGE_NX), cpu.nx);
}

static void kernel_data_is_writable_not_executable(struct kunit *test)
{
	static int data_marker = 1;
	uint64_t e = flags_of(test, &data_marker);

	KUNIT_ASSERT_TRUE(test, e & _PAGE_PRESENT);
	KUNIT_EXPECT_TRUE(test, e & _PAGE_RW);
	KUNIT_EXPECT_EQ(test, !!(e & _PAGE_NX), cpu.nx);
}

static void boot_stack_guard_page_is_unmapped(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, flags_of(test, boot_stack_guard), 0);
	KUNIT_EXPECT_TRUE(test, flags_of(test, boot_stack_bottom) & _PAGE_PRESENT);
}

static void direct_map_is_writable_not_executable(struct kunit *test)
{
	/* A .bss page seen through its direct-map alias. */
	static uint64_t bss_page[PAGE_SIZE / 8] __attribute__((aligned(PAGE_SIZE)));
	uint64_t page = flags_of(test, bss_page) & PTE_ADDR_MASK;
	uint64_t e = flags_of(test, __va(page));
	volatile uint64_t *p = __va(page);

	KUNIT_ASSERT_TRUE(test, e & _PAGE_PRESENT);
	KUNIT_EXPECT_TRUE(test, e & _PAGE_RW);
	KUNIT_EXPECT_EQ(test, !!(e & _PAGE_NX), cpu.nx);
	*p = 0x1234;
	KUNIT_EXPECT_EQ(test, *p, 0x1234);
}

static void lower_half_is_empty(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, flags_of(test, (void *)0), 0);
	KUNIT_EXPECT_EQ(test, flags_of(test, (void *)0x100000), 0);
}

static void embedded_symbols_name_kernel_functions(struct kunit *test)
{
	uint64_t off = 99;
	const char *name = ksym_lookup((uint64_t)paging_lookup + 3, &off);

	KUNIT_ASSERT_NOT_NULL(test, name);
	KUNIT_EXPECT_STREQ(test, name, "paging_lookup");
	KUNIT_EXPECT_EQ(test, off, 3);
	KUNIT_EXPECT_GT(test, ksyms_count, 100);
	KUNIT_EXPECT_NULL(test, ksym_lookup((uint64_t)__rodata_start, &off));
}

static struct kunit_case paging_cases[] = {
	KUNIT_CASE(kernel_text_is_executable_and_read_only),
	KUNIT_CASE(kernel_rodata_is_neither_writable_nor_executable),
	KUNIT_CASE(kernel_data_is_writable_not_executable),
	KUNIT_CASE(boot_stack_guard_page_is_unmapped),
	KUNIT_CASE(direct_map_is_writable_not_executable),
	KUNIT_CASE(lower_half_is_empty),
	KUNIT_CASE(embedded_symbols_name_kernel_functions),
	{},
};

static struct kunit_suite paging_suite = {
	.name = "x86_paging",
	.test_cases = paging_cases,
};
kunit_test_suite(paging_suite);
