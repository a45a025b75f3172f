/*
 * vmalloc on a private node (mm/vmalloc.c): vfree gives every page back
 * and flushes the TLB once per mapped page; the bytes written through an
 * area are those of the pages vmalloc_to_page names; vzalloc's pages are
 * zero; two areas are always apart by a guard page, a kernel stack's also
 * has one below it; a freed gap is taken again; a full range or an
 * exhausted node gives NULL and keeps nothing; a vfree of an address that
 * starts no area is refused with Linux's line and changes nothing.
 * buddy_check() after each case. The host's half (guards fault) is
 * vmalloc_host_test.c.
 */
#include <ktest.h>
#include <vmalloc.h>
#include <asm/processor.h>
#include "mm_test_util.h"

#define P PAGE_SIZE

static struct pglist_data *node;
static unsigned long free_at_start, vmalloc_at_start;

static int vmalloc_test_init(struct kunit *test)
{
	node = test_node_create(test, 2 * MAX_ORDER_NR_PAGES);
	if (node)
		free_at_start = node_free_pages(node);
	vmalloc_at_start = vmalloc_nr_pages();
	return 0;
}

/* Every case ends with the node as it found it. */
static void vmalloc_test_exit(struct kunit *test)
{
	if (!node)
		return;
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	KUNIT_EXPECT_EQ(test, vmalloc_nr_pages(), vmalloc_at_start);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	test_node_destroy(node);
	node = NULL;
}

/* A kernel stack as fork.c makes one, on the test node. */
static void *stack_alloc(void)
{
	return __vmalloc_node_range(THREAD_SIZE, VMALLOC_START, VMALLOC_END,
				    GFP_KERNEL | __GFP_ZERO, VM_GUARD_BELOW, node->node_id);
}

/* The console output of a vfree, for the refusals' lines. */
static char said[512];
static size_t said_len;

static void say_write(struct console *con, const char *s, size_t n)
{
	n = MIN(n, sizeof(said) - 1 - said_len);
	memcpy(said + said_len, s, n);
	said_len += n;
	said[said_len] = '\0';
}

static struct console say_console = { .name = "vmalloc_test", .write = say_write };

static void vfree_quiet(const void *addr)
{
	said_len = 0;
	said[0] = '\0';
	console_redirect(&say_console);
	vfree(addr);
	console_redirect(NULL);
}

/* 6 pages (5 and a byte) leave the node and come back, with 6 flushes. */
static void vfree_gives_back_every_page_and_flushes_them(struct kunit *test)
{
	unsigned long flushes;
	char *p;

	if (!node)
		return;
	p = vmalloc_node(5 * P + 1, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	KUNIT_EXPECT_TRUE(test, is_vmalloc_addr(p) && is_vmalloc_addr(p + 6 * P - 1));
	KUNIT_EXPECT_EQ(test, vmalloc_nr_pages(), vmalloc_at_start + 6);
	KUNIT_EXPECT_LE(test, node_free_pages(node), free_at_start - 6);
	KUNIT_EXPECT_EQ(test, find_vm_area(p)->size, 6 * P);
	flushes = nr_kernel_tlb_flush_one;
	vfree(p);
	KUNIT_EXPECT_EQ(test, nr_kernel_tlb_flush_one, flushes + 6);
	KUNIT_EXPECT_NULL(test, find_vm_area(p));
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
	vfree(NULL);
}

/* Each page's bytes, written through the area, are in the page
 * vmalloc_to_page names (its direct-map address), and back again. */
static void writes_land_in_the_pages_vmalloc_to_page_names(struct kunit *test)
{
	struct page *page;
	char *p;

	if (!node)
		return;
	p = vmalloc_node(4 * P, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (unsigned long k = 0; k < 4; k++)
		memset(p + k * P, 0x10 + (int)k, P);
	for (unsigned long k = 0; k < 4; k++) {
		page = vmalloc_to_page(p + k * P + 123);
		KUNIT_ASSERT_NOT_NULL(test, page);
		KUNIT_EXPECT_EQ(test, page_to_nid(page), node->node_id);
		KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(page_address(page)));
		KUNIT_EXPECT_EQ(test, ((char *)page_address(page))[0], 0x10 + (int)k);
		KUNIT_EXPECT_EQ(test, ((char *)page_address(page))[P - 1], 0x10 + (int)k);
		((char *)page_address(page))[7] = 0x7f;
		KUNIT_EXPECT_EQ(test, p[k * P + 7], 0x7f);
	}
	KUNIT_EXPECT_NULL(test, vmalloc_to_page(p + 4 * P)); /* the guard */
	KUNIT_EXPECT_NULL(test, vmalloc_to_page(p - 1));
	vfree(p);
	KUNIT_EXPECT_NULL(test, vmalloc_to_page(p));
}

static void vzalloc_pages_are_zero(struct kunit *test)
{
	bool zero = true;
	char *p;

	if (!node)
		return;
	p = vzalloc_node(3 * P, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	for (unsigned long i = 0; i < 3 * P; i++)
		zero &= p[i] == 0;
	KUNIT_EXPECT_TRUE(test, zero);
	vfree(p);
}

/* Between the pages of any two areas there is a page no area maps: the
 * first one's guard, or a stack's own guard below it. */
static void two_areas_never_touch(struct kunit *test)
{
	void *p[4];
	struct vm_struct *a, *b;

	if (!node)
		return;
	p[0] = vmalloc_node(2 * P, node->node_id);
	p[1] = stack_alloc();
	p[2] = vmalloc_node(P, node->node_id);
	p[3] = stack_alloc();
	for (int i = 0; i < 4; i++)
		KUNIT_ASSERT_NOT_NULL(test, p[i]);
	for (int i = 0; i < 4; i++) {
		for (int j = 0; j < 4; j++) {
			a = find_vm_area(p[i]);
			b = find_vm_area(p[j]);
			KUNIT_ASSERT_TRUE(test, a && b);
			if (a->addr < b->addr) /* a's mapped end, one page, then b */
				KUNIT_EXPECT_GE(test, (unsigned long)b->addr,
						(unsigned long)a->addr + a->size + P);
		}
	}
	for (int i = 1; i < 4; i += 2) {
		a = find_vm_area(p[i]);
		KUNIT_EXPECT_EQ(test, a->size, THREAD_SIZE);
		KUNIT_EXPECT_EQ(test, (unsigned long)a->addr - a->va_start, P);
		KUNIT_EXPECT_EQ(test, a->va_end - (unsigned long)a->addr, THREAD_SIZE + P);
		KUNIT_EXPECT_NULL(test, vmalloc_to_page((char *)p[i] - 1));
	}
	for (int i = 0; i < 4; i++)
		vfree(p[i]);
}

/* First fit, in a window at the range's top (first fit elsewhere leaves
 * it alone; bare areas, so no page table is made there): the lowest gap
 * that holds the area, guards included. */
static void a_freed_gap_is_taken_again(struct kunit *test)
{
	unsigned long end = VMALLOC_END, start = end - 16 * P;
	struct vm_struct *a, *b, *c, *again;
	int nid;

	if (!node)
		return;
	nid = node->node_id;
	a = __get_vm_area_node(P, 0, start, end, nid);
	b = __get_vm_area_node(3 * P, 0, start, end, nid);
	c = __get_vm_area_node(P, 0, start, end, nid);
	KUNIT_ASSERT_TRUE(test, a && b && c);
	KUNIT_EXPECT_EQ(test, (unsigned long)b->addr, start + 2 * P);
	KUNIT_EXPECT_EQ(test, (unsigned long)c->addr, start + 6 * P);
	free_vm_area(b);
	again = __get_vm_area_node(2 * P, 0, start, end, nid); /* fits in b's 4 pages */
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_EQ(test, (unsigned long)again->addr, start + 2 * P);
	free_vm_area(again);
	again = __get_vm_area_node(4 * P, 0, start, end, nid); /* does not */
	KUNIT_ASSERT_NOT_NULL(test, again);
	KUNIT_EXPECT_EQ(test, (unsigned long)again->addr, start + 8 * P);
	free_vm_area(again);
	free_vm_area(a);
	free_vm_area(c);
}

/* An 8-page window at the range's top (first fit leaves it alone): two
 * 3-page areas take it all, with their guards; nothing else fits, and a
 * vmalloc there fails without taking a page. */
static void a_full_range_returns_null(struct kunit *test)
{
	unsigned long end = VMALLOC_END, start = end - 8 * P;
	struct vm_struct *a, *b;
	int nid;

	if (!node)
		return;
	nid = node->node_id;
	a = __get_vm_area_node(3 * P, 0, start, end, nid);
	b = __get_vm_area_node(3 * P, 0, start, end, nid);
	KUNIT_ASSERT_TRUE(test, a && b);
	KUNIT_EXPECT_EQ(test, (unsigned long)a->addr, start);
	KUNIT_EXPECT_EQ(test, (unsigned long)b->addr, start + 4 * P);
	KUNIT_EXPECT_NULL(test, __get_vm_area_node(P, 0, start, end, nid));
	KUNIT_EXPECT_NULL(test,
			  __vmalloc_node_range(P, start, end, GFP_KERNEL | __GFP_NOWARN, 0, nid));
	KUNIT_EXPECT_EQ(test, vmalloc_nr_pages(), vmalloc_at_start);
	free_vm_area(a);
	/* A stack needs a guard more: 2 + 2 pages fit a's 4, 3 + 2 do not. */
	KUNIT_EXPECT_NULL(test, __get_vm_area_node(3 * P, VM_GUARD_BELOW, start, end, nid));
	a = __get_vm_area_node(2 * P, VM_GUARD_BELOW, start, end, nid);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_EQ(test, (unsigned long)a->addr, start + P);
	free_vm_area(a);
	free_vm_area(b);
	KUNIT_EXPECT_NULL(test, __vmalloc_node(VMALLOC_END - VMALLOC_START + P,
					       GFP_KERNEL | __GFP_NOWARN, nid));
}

/* With the node empty to its watermark vmalloc fails, and whatever it got
 * before failing (descriptor, array, some pages) goes back. */
static void no_memory_returns_null_and_keeps_nothing(struct kunit *test)
{
	static struct page *fill[2 * MAX_ORDER_NR_PAGES];
	unsigned long n;

	if (!node)
		return;
	n = test_fill_node(node, fill, 0, ARRAY_SIZE(fill));
	test_free_filled(fill + n - 3, 3); /* 3 pages free again: too few for 8 */
	n -= 3;
	KUNIT_EXPECT_NULL(test, __vmalloc_node(8 * P, GFP_NOWAIT | __GFP_NOWARN, node->node_id));
	KUNIT_EXPECT_EQ(test, vmalloc_nr_pages(), vmalloc_at_start);
	test_free_filled(fill, n);
}

/* Linux's lines, and nothing changes: the area still reads, and frees. */
static void a_bad_vfree_is_refused_with_a_message(struct kunit *test)
{
	unsigned long free;
	struct page *page;
	char *p;

	if (!node)
		return;
	p = vmalloc_node(2 * P, node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, p);
	memset(p, 0x5a, 2 * P);
	page = alloc_pages_node(node->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	free = node_free_pages(node);
	vfree_quiet(p + P); /* inside, page-aligned: Linux would free the area */
	KUNIT_EXPECT_NOT_NULL(test, strstr(said, "Trying to vfree() nonexistent vm area (0x"));
	vfree_quiet(p + 8);
	KUNIT_EXPECT_NOT_NULL(test, strstr(said, "Trying to vfree() bad address (0x"));
	vfree_quiet(page_address(page)); /* a page, but no area's */
	KUNIT_EXPECT_NOT_NULL(test, strstr(said, "Trying to vfree() nonexistent vm area (0x"));
	vfree_quiet(p + 4 * P); /* past the guard */
	KUNIT_EXPECT_NOT_NULL(test, strstr(said, "nonexistent vm area"));
	KUNIT_EXPECT_EQ(test, node_free_pages(node), free);
	KUNIT_EXPECT_EQ(test, vmalloc_nr_pages(), vmalloc_at_start + 2);
	KUNIT_ASSERT_NOT_NULL(test, find_vm_area(p)); /* still there to read */
	KUNIT_EXPECT_EQ(test, p[0] + p[2 * P - 1], 0x5a + 0x5a);
	__free_pages(page, 0);
	vfree(p);
}

static struct kunit_case vmalloc_cases[] = {
	KUNIT_CASE(vfree_gives_back_every_page_and_flushes_them),
	KUNIT_CASE(writes_land_in_the_pages_vmalloc_to_page_names),
	KUNIT_CASE(vzalloc_pages_are_zero),
	KUNIT_CASE(two_areas_never_touch),
	KUNIT_CASE(a_freed_gap_is_taken_again),
	KUNIT_CASE(a_full_range_returns_null),
	KUNIT_CASE(no_memory_returns_null_and_keeps_nothing),
	KUNIT_CASE(a_bad_vfree_is_refused_with_a_message),
	{},
};

static struct kunit_suite vmalloc_suite = {
	.name = "vmalloc",
	.init = vmalloc_test_init,
	.exit = vmalloc_test_exit,
	.test_cases = vmalloc_cases,
};
kunit_test_suite(vmalloc_suite);
