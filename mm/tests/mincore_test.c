/*
 * mincore on a private node, through its system call entry (sys_mincore,
 * as a program's call reaches it): a byte per page, 1 where an entry
 * maps the page (written pages, zero-page reads, a PMD-mapped THP), the
 * checks in Linux's order. Example: 4 pages at A, pages 0 and 2 written,
 * page 3 read: vec 1 0 1 1.
 */
#include <binfmt_elf.h>
#include <ktest.h>
#include <syscalls.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define VEC 0x20000000ul /* the user's vec: 2 pages */
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct task_struct *task;
static unsigned long saved_orders;

static int mincore_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm) {
		switch_mm(t.mm);
		if (vm_mmap(t.mm, VEC, 2 * P, RW, 0) != VEC)
			return -1;
	}
	task = test_task(t.mm);
	return 0;
}

static void mincore_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
	thp_orders_enabled = saved_orders;
}

static long mincore(unsigned long start, unsigned long len, unsigned long vec)
{
	const unsigned long args[6] = { start, len, vec };

	return sys_mincore(task, args);
}

/* The first n bytes of vec as '0'/'1' characters. */
static const char *vec_string(unsigned long n)
{
	static char s[1024];
	unsigned char v[1024];

	if (n >= sizeof(s) || copy_from_user(v, VEC, n))
		return "(unreadable)";
	for (unsigned long i = 0; i < n; i++)
		s[i] = (char)('0' + v[i]);
	s[n] = '\0';
	return s;
}

static void written_and_read_pages_are_resident_untouched_ones_not(struct kunit *test)
{
	uint8_t byte;

	if (!t.mm)
		return;
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mincore(A, 4 * P, VEC), 0);
	KUNIT_EXPECT_STREQ(test, vec_string(4), "0000");
	KUNIT_ASSERT_EQ(test, fill_user(A, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, fill_user(A + 2 * P, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, A + 3 * P, 1), 0); /* the zero page */
	KUNIT_ASSERT_EQ(test, mincore(A, 4 * P, VEC), 0);
	KUNIT_EXPECT_STREQ(test, vec_string(4), "1011");
	/* A length that is not a page multiple still covers its last page. */
	KUNIT_ASSERT_EQ(test, mincore(A + 2 * P, P + 1, VEC), 0);
	KUNIT_EXPECT_STREQ(test, vec_string(2), "11");
}

static void a_pmd_mapped_thp_is_resident_in_every_page(struct kunit *test)
{
	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << HPAGE_PMD_ORDER);
	test_map_and_fill(test, t.mm, A, PMD_SIZE, 0x5a);
	KUNIT_ASSERT_EQ(test, test_mapped_order(t.mm, A), HPAGE_PMD_ORDER);
	fill_user(VEC, 0, 2 * P);
	KUNIT_ASSERT_EQ(test, mincore(A, PMD_SIZE, VEC), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(VEC, PTRS_PER_TABLE, 1));
	KUNIT_EXPECT_TRUE(test, test_reads_as(VEC + PTRS_PER_TABLE, 1, 0));
}

/* Linux's order: alignment, the user half, then holes and vec. */
static void mincore_checks_arguments_in_linux_order(struct kunit *test)
{
	if (!t.mm)
		return;
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * P, RW, 0), A);
	KUNIT_EXPECT_EQ(test, mincore(A + 1, P, VEC), -EINVAL);
	KUNIT_EXPECT_EQ(test, mincore(A + 1, P, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mincore(TASK_SIZE - P, 2 * P, VEC), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mincore(A, 3 * P, VEC), -ENOMEM); /* past the VMA */
	KUNIT_EXPECT_EQ(test, mincore(A - P, 2 * P, VEC), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mincore(A, 2 * P, 0x1000), -EFAULT);
	KUNIT_EXPECT_EQ(test, mincore(A, 0, VEC), 0);
}

static struct kunit_case mincore_test_cases[] = {
	KUNIT_CASE(written_and_read_pages_are_resident_untouched_ones_not),
	KUNIT_CASE(a_pmd_mapped_thp_is_resident_in_every_page),
	KUNIT_CASE(mincore_checks_arguments_in_linux_order),
	{},
};

static struct kunit_suite mincore_test_suite = {
	.name = "mincore",
	.init = mincore_test_init,
	.exit = mincore_test_exit,
	.test_cases = mincore_test_cases,
};
kunit_test_suite(mincore_test_suite);
