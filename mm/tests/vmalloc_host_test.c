/*
 * vmalloc's guard pages really fault (host only, arch/host/host.mk: the
 * kernel would oops, so only a host process can touch one and go on).
 * The host maps each page of an area at its address (arch/host/phys.c);
 * a guard page, a stack's page below and a freed area stay inaccessible,
 * and host_access_faults catches the SIGSEGV of a touch.
 */
#include <asm/mmu.h>
#include <ktest.h>
#include <vmalloc.h>
#include <asm/processor.h>
#include "mm_test_util.h"

#define P PAGE_SIZE

static struct pglist_data *node;

static int vmalloc_host_test_init(struct kunit *test)
{
	node = test_node_create(test, MAX_ORDER_NR_PAGES);
	return 0;
}

static void vmalloc_host_test_exit(struct kunit *test)
{
	test_node_destroy(node);
	node = NULL;
}

/* The page after an area faults, the pages before it do not. */
static void the_guard_after_an_area_faults(struct kunit *test)
{
	char *p;

	if (!node)
		return;
	p = vmalloc_node(3 * P, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (unsigned long off = 0; off < 3 * P; off += P)
		KUNIT_EXPECT_FALSE(test, host_access_faults(p + off, true));
	KUNIT_EXPECT_TRUE(test, host_access_faults(p + 3 * P, false));
	KUNIT_EXPECT_TRUE(test, host_access_faults(p + 3 * P, true));
	vfree(p);
}

/* A kernel stack's last byte below works; one byte further faults. */
static void a_stack_overflow_faults_in_its_guard_below(struct kunit *test)
{
	char *stack;

	if (!node)
		return;
	stack = __vmalloc_node_range(THREAD_SIZE, VMALLOC_START, VMALLOC_END,
				     GFP_KERNEL | __GFP_ZERO, VM_GUARD_BELOW, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, stack);
	KUNIT_EXPECT_FALSE(test, host_access_faults(stack, true));
	KUNIT_EXPECT_FALSE(test, host_access_faults(stack + THREAD_SIZE - 1, true));
	KUNIT_EXPECT_TRUE(test, host_access_faults(stack - 1, true));
	KUNIT_EXPECT_TRUE(test, host_access_faults(stack - P, true));
	KUNIT_EXPECT_TRUE(test, host_access_faults(stack + THREAD_SIZE, true));
	vfree(stack);
}

/* After vfree nothing of the area is reachable; its pages are free. */
static void a_freed_area_faults(struct kunit *test)
{
	unsigned long free;
	char *p;

	if (!node)
		return;
	free = node_free_pages(node);
	p = vmalloc_node(2 * P, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	p[0] = p[P] = 1;
	vfree(p);
	KUNIT_EXPECT_TRUE(test, host_access_faults(p, false));
	KUNIT_EXPECT_TRUE(test, host_access_faults(p + P, false));
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free);
}

static struct kunit_case vmalloc_host_cases[] = {
	KUNIT_CASE(the_guard_after_an_area_faults),
	KUNIT_CASE(a_stack_overflow_faults_in_its_guard_below),
	KUNIT_CASE(a_freed_area_faults),
	{},
};

static struct kunit_suite vmalloc_host_suite = {
	.name = "vmalloc_host",
	.init = vmalloc_host_test_init,
	.exit = vmalloc_host_test_exit,
	.test_cases = vmalloc_host_cases,
};
kunit_test_suite(vmalloc_host_suite);
