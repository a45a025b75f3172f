/*
 * Private nodes for mm tests (Zircon-style: each test gets its own
 * allocator instance). test_node_create(test, 4096) builds a node of 4096
 * pages over the test memory (mm_test_memory), registers it under a free
 * node id 1..MAX_NUMNODES-1 and hands all its pages to the buddy
 * allocator; test_node_destroy() unregisters it.
 */
#ifndef FOLIUM_MM_TEST_UTIL_H
#define FOLIUM_MM_TEST_UTIL_H

#include <ktest.h>
#include <mm.h>
#include <vm.h>

/* Return: the node, all pages free, start aligned to MAX_ORDER_NR_PAGES;
 * or NULL with the case marked skipped when the test memory is too small. */
struct pglist_data *test_node_create(struct kunit *test, unsigned long nr_pages);
/* The same over [start_pfn, start_pfn + nr_pages): any simulated range on
 * the host, only ranges inside the test memory in the kernel (else NULL,
 * skipped). */
struct pglist_data *test_node_create_at(struct kunit *test, unsigned long start_pfn,
					unsigned long nr_pages);
void test_node_destroy(struct pglist_data *pgdat);

/* Node 0 for suites that allocate without naming a node (kmalloc, the
 * page cache, the XArray's nodes): the machine's in the kernel; on the
 * host, which has none, a private node 0 of nr_pages over the test
 * memory, until test_node0_put. Return: 0, or -ENOMEM with the case
 * marked skipped (no test memory). */
int test_node0_get(struct kunit *test, unsigned long nr_pages);
/* The host's node 0: expect every page back (nothing leaked), then
 * destroy it. Nothing in the kernel. */
void test_node0_put(struct kunit *test);

/* Allocate order-0 pages of pgdat without reclaim (GFP_NOWAIT) into
 * pages[from..max) until the watermark says no. Return: the pages held,
 * from included; test_free_filled gives back pages[0..n). */
unsigned long test_fill_node(struct pglist_data *pgdat, struct page **pages, unsigned long from,
			     unsigned long max);
void test_free_filled(struct page **pages, unsigned long n);

/* A private node with an empty address space on it, for vm tests. */
struct test_mm {
	struct pglist_data *node;
	struct mm_struct *mm;
	unsigned long free_at_start; /* node's free pages before the mm */
};
/* Build t over nr_pages; a shortage marks the case skipped. Return: 0. */
int test_mm_create(struct kunit *test, struct test_mm *t, unsigned long nr_pages);
/* Destroy the mm, expect every page back free and buddy_check clean,
 * destroy the node. */
void test_mm_destroy(struct kunit *test, struct test_mm *t);

/* The task the system-call cases run as: pid TEST_TASK_PID on @mm, with
 * its own copy of init_task's limits and credentials (root's), no files.
 * One per test program, reset by each call; nothing to free. */
#define TEST_TASK_PID 1
struct task_struct *test_task(struct mm_struct *mm);

/* buddy_check() as an expectation: a violation fails the case with the
 * checker's message and `what` (e.g. "seed 0x1234 step 17"). */
bool test_buddy_ok(struct kunit *test, struct pglist_data *pgdat, const char *file, int line,
		   const char *what);
#define KUNIT_EXPECT_BUDDY_OK(test, pgdat) test_buddy_ok(test, pgdat, __FILE__, __LINE__, "")

/* Cases about large folios: with CONFIG_TRANSPARENT_HUGEPAGE=n faults map
 * order 0 only, so they are skipped. Return: true when skipped. */
static inline bool test_skip_without_thp(struct kunit *test)
{
	if (CONFIG_TRANSPARENT_HUGEPAGE)
		return false;
	kunit_mark_skipped(test, "large folios are compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n)");
	return true;
}

/* Map [addr, addr + len) read-write in mm (the current one) and write byte
 * to all of it, faulting every page in: an assertion if the mapping fails. */
void test_map_and_fill(struct kunit *test, struct mm_struct *mm, unsigned long addr,
		       unsigned long len, int byte);
/* Return: true if every byte of [addr, addr + len) of the current mm reads
 * as byte (through copy_from_user, so faults resolve as for any access). */
bool test_reads_as(unsigned long addr, unsigned long len, uint8_t byte);

/* Return: the folio mapping addr in mm, by PMD leaf or PTE; NULL if none
 * or the (huge) zero page. */
struct folio *test_mapped_folio(struct mm_struct *mm, unsigned long addr);
/* The order of that folio; 99 if there is none. */
static inline unsigned int test_mapped_order(struct mm_struct *mm, unsigned long addr)
{
	struct folio *folio = test_mapped_folio(mm, addr);

	return folio ? folio_order(folio) : 99;
}

/* The PTE slot for addr, allocating the tables on the way (NULL: no
 * memory, or a PMD leaf maps addr). */
static inline pte_t *test_pte_alloc(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = pmd_alloc(mm, addr);

	return pmd ? pte_alloc_map(mm, pmd, addr) : NULL;
}

#endif
