/*
 * Private nodes for mm tests: a few static slots (pgdat + pageblock flags)
 * carved out of the test memory one after another, so two nodes can live at
 * once; the carving restarts when none is alive. See mm_test_util.h.
 */
#include <sched.h>
#include "mm_test_util.h"

#define TEST_NODE_SLOTS 4
#define TEST_NODE_FLAGS_BYTES 8192 /* 64 MiB at pageblock order 1 */

static struct test_node_slot {
	struct pglist_data pgdat;
	uint8_t flags[TEST_NODE_FLAGS_BYTES];
	bool used;
} slots[TEST_NODE_SLOTS];
static int live_nodes;
static unsigned long carve_base, carve_used; /* pages used from carve_base */

/* A node id nobody uses (node 0 is the machine). Return: it, or -1. */
static int free_nid(void)
{
	for (int nid = 1; nid < MAX_NUMNODES; nid++)
		if (!NODE_DATA(nid))
			return nid;
	return -1;
}

static struct pglist_data *node_setup(struct kunit *test, int nid, unsigned long start_pfn,
				      unsigned long nr_pages)
{
	struct test_node_slot *slot = NULL;

	for (int i = 0; i < TEST_NODE_SLOTS && !slot; i++)
		if (!slots[i].used)
			slot = &slots[i];
	if (!slot || nid < 0 ||
	    pgdat_pageblock_flags_size(start_pfn, start_pfn + nr_pages) > TEST_NODE_FLAGS_BYTES) {
		kunit_fail(test, __FILE__, __LINE__,
			   "test_node_create: no slot, node id or flag space for %lu pages",
			   nr_pages);
		return NULL;
	}
	slot->used = true;
	live_nodes++;
	pgdat_init(&slot->pgdat, nid, start_pfn, start_pfn + nr_pages, slot->flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + nr_pages);
	return &slot->pgdat;
}

/* A node numbered nid over the next nr_pages of the test memory. */
static struct pglist_data *carve_node(struct kunit *test, int nid, unsigned long nr_pages)
{
	unsigned long start, avail, first;

	if (mm_test_memory(&start, &avail)) {
		kunit_mark_skipped(test, "no test memory (the mm: line before the tests says why)");
		return NULL;
	}
	if (start != carve_base || !live_nodes) {
		carve_base = start;
		carve_used = 0;
	}
	first = ALIGN_UP(start + carve_used, MAX_ORDER_NR_PAGES);
	if (first + nr_pages > start + avail) {
		kunit_mark_skipped(test, "test memory too small for this node");
		return NULL;
	}
	carve_used = first + nr_pages - start;
	return node_setup(test, nid, first, nr_pages);
}

struct pglist_data *test_node_create(struct kunit *test, unsigned long nr_pages)
{
	return carve_node(test, free_nid(), nr_pages);
}

static struct pglist_data *host_node0; /* test_node0_get's, on the host */
static unsigned long host_node0_free;

int test_node0_get(struct kunit *test, unsigned long nr_pages)
{
	if (NODE_DATA(0))
		return 0; /* the machine's (or one made and not put yet) */
	host_node0 = carve_node(test, 0, nr_pages);
	if (!host_node0)
		return -ENOMEM;
	host_node0_free = node_free_pages(host_node0);
	return 0;
}

void test_node0_put(struct kunit *test)
{
	if (!host_node0)
		return;
	KUNIT_EXPECT_EQ(test, node_free_pages(host_node0), host_node0_free);
	test_node_destroy(host_node0);
	host_node0 = NULL;
}

struct pglist_data *test_node_create_at(struct kunit *test, unsigned long start_pfn,
					unsigned long nr_pages)
{
#ifndef FOLIUM_HOST
	unsigned long start, avail;

	if (mm_test_memory(&start, &avail) || start_pfn < start ||
	    start_pfn + nr_pages > start + avail || live_nodes) {
		kunit_mark_skipped(test, "range not inside the kernel's test memory");
		return NULL;
	}
#endif
	return node_setup(test, free_nid(), start_pfn, nr_pages);
}

unsigned long test_fill_node(struct pglist_data *pgdat, struct page **pages, unsigned long from,
			     unsigned long max)
{
	while (from < max &&
	       (pages[from] = alloc_pages_node(pgdat->node_id, GFP_NOWAIT | __GFP_NOWARN, 0)))
		from++;
	return from;
}

void test_free_filled(struct page **pages, unsigned long n)
{
	while (n)
		__free_pages(pages[--n], 0);
}

void test_node_destroy(struct pglist_data *pgdat)
{
	if (!pgdat)
		return;
	pgdat_destroy(pgdat);
	for (int i = 0; i < TEST_NODE_SLOTS; i++) {
		if (&slots[i].pgdat == pgdat && slots[i].used) {
			slots[i].used = false;
			live_nodes--;
		}
	}
}

bool test_buddy_ok(struct kunit *test, struct pglist_data *pgdat, const char *file, int line,
		   const char *what)
{
	char err[256];

	if (!buddy_check(pgdat, err, sizeof(err)))
		return true;
	kunit_fail(test, file, line, "buddy_check: %s%s%s", err, *what ? " at " : "", what);
	return false;
}

int test_mm_create(struct kunit *test, struct test_mm *t, unsigned long nr_pages)
{
	t->mm = NULL;
	t->node = test_node_create(test, nr_pages);
	if (!t->node)
		return 0;
	t->free_at_start = node_free_pages(t->node);
	t->mm = mm_create(t->node->node_id);
	if (!t->mm)
		kunit_mark_skipped(test, "mm_create: no memory");
	return 0;
}

void test_mm_destroy(struct kunit *test, struct test_mm *t)
{
	if (t->mm)
		mm_destroy(t->mm);
	if (t->node) {
		KUNIT_EXPECT_EQ(test, node_free_pages(t->node), t->free_at_start);
		KUNIT_EXPECT_BUDDY_OK(test, t->node);
		test_node_destroy(t->node);
	}
	t->mm = NULL;
	t->node = NULL;
}

struct folio *test_mapped_folio(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);
	pte_t *pte;

	if (!pmd || !pmd_present(*pmd))
		return NULL;
	if (pmd_leaf(*pmd))
		return is_huge_zero_pmd(*pmd) ? NULL : pmd_folio(*pmd);
	pte = pte_offset_map(pmd, addr);
	if (!pte || !pte_present(*pte) || is_zero_pfn(pte_pfn(*pte)))
		return NULL; /* the zero pages are no one's folio (vm_normal_folio) */
	return page_folio(pte_page(*pte));
}

void test_map_and_fill(struct kunit *test, struct mm_struct *mm, unsigned long addr,
		       unsigned long len, int byte)
{
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, addr, len, VM_READ | VM_WRITE, 0), addr);
	KUNIT_EXPECT_EQ(test, fill_user(addr, byte, len), 0);
}

bool test_reads_as(unsigned long addr, unsigned long len, uint8_t byte)
{
	static uint8_t buf[PAGE_SIZE];

	for (unsigned long off = 0; off < len; off += PAGE_SIZE) {
		unsigned long n = MIN(PAGE_SIZE, len - off);

		if (copy_from_user(buf, addr + off, n))
			return false;
		for (unsigned long i = 0; i < n; i++)
			if (buf[i] != byte)
				return false;
	}
	return true;
}

struct task_struct *test_task(struct mm_struct *mm)
{
	static struct signal_struct signal;
	static struct task_struct task;

	signal = *init_task.signal;
	task = (struct task_struct){
		.pid = TEST_TASK_PID,
		.comm = "ktest",
		.mm = mm,
		.fs = init_task.fs,
		.sighand = init_task.sighand,
		.signal = &signal,
		.cred = init_task.cred,
	};
	return &task;
}
