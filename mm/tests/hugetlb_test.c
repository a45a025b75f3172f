/*
 * HugeTLB on a private node: the pool grows and shrinks as Linux's
 * set_max_huge_pages, mmap reserves (or -ENOMEM; MAP_NORESERVE does
 * not), a fault maps one zeroed PMD, MADV_DONTNEED and munmap give pages
 * and unused reservations back, cuts must be huge-page aligned, the
 * files say what Linux's say, and the command line follows Linux's
 * ordering rules. Also the seed's matrix (every pageblock order a build
 * has): the dma-buf system heap's allocation pattern gets every page.
 * Example: pool 2, mmap 4 MiB → Rsvd 2; write at +3 MiB → Free 1, Rsvd 1.
 */
#include <hugetlb.h>
#include <ktest.h>
#include <seq_file.h>
#include <sysctl.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define HP PMD_SIZE
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct hstate saved_hstates[HUGE_MAX_HSTATE]; /* the machine's pools, put back by exit */
static unsigned int saved_max, saved_default;
static struct hstate *h = &hstates[0];

static int hugetlb_test_init(struct kunit *test)
{
	memcpy(saved_hstates, hstates, sizeof(saved_hstates));
	saved_max = hugetlb_max_hstate;
	saved_default = default_hstate_idx;
	test_mm_create(test, &t, 16 * HPAGE_PMD_NR);
	hstate_init(h, HPAGE_PMD_ORDER, t.node ? t.node->node_id : 0);
	hugetlb_max_hstate = 1;
	default_hstate_idx = 0;
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	return 0;
}

static void hugetlb_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	if (t.mm)
		mm_destroy(t.mm);
	t.mm = NULL;
	h->nr_overcommit_huge_pages = 0;
	if (t.node) {
		set_max_huge_pages(h, 0);
		KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 0);
		KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
	}
	test_mm_destroy(test, &t);
	memcpy(hstates, saved_hstates, sizeof(saved_hstates)); /* list heads point at hstates[] */
	hugetlb_max_hstate = saved_max;
	default_hstate_idx = saved_default;
}

static unsigned long ev(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

static pmd_t *pmd_at(unsigned long addr)
{
	return mm_find_pmd(t.mm, addr);
}

static void pool_grows_and_shrinks_with_nr_hugepages(struct kunit *test)
{
	unsigned long free, ok;

	if (!t.mm)
		return;
	free = node_free_pages(t.node);
	ok = ev(HTLB_BUDDY_PGALLOC);
	set_max_huge_pages(h, 4);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 4);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 4);
	KUNIT_EXPECT_EQ(test, h->max_huge_pages, 4);
	KUNIT_EXPECT_EQ(test, ev(HTLB_BUDDY_PGALLOC), ok + 4);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free - 4 * HPAGE_PMD_NR);
	set_max_huge_pages(h, 1);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free - HPAGE_PMD_NR);
	set_max_huge_pages(h, 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* The node has 16 PMD blocks, some used by the mm's tables: asking for
 * 100 gets fewer, each miss counted once per try (Linux: HTLB_BUDDY_PGALLOC_FAIL). */
static void pool_growth_stops_when_memory_runs_out(struct kunit *test)
{
	unsigned long fail;

	if (!t.mm)
		return;
	fail = ev(HTLB_BUDDY_PGALLOC_FAIL);
	set_max_huge_pages(h, 100);
	KUNIT_EXPECT_GT(test, h->nr_huge_pages, 0);
	KUNIT_EXPECT_LT(test, h->nr_huge_pages, 100);
	KUNIT_EXPECT_EQ(test, h->max_huge_pages, h->nr_huge_pages);
	KUNIT_EXPECT_EQ(test, ev(HTLB_BUDDY_PGALLOC_FAIL), fail + 1);
}

static void mmap_reserves_and_a_fault_maps_one_zeroed_pmd(struct kunit *test)
{
	struct folio *folio;

	if (!t.mm)
		return;
	set_max_huge_pages(h, 2);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 2);
	KUNIT_ASSERT_EQ(test, handle_mm_fault(t.mm, A + HP + 5 * PAGE_SIZE, FAULT_FLAG_WRITE),
			VM_FAULT_OK);
	KUNIT_ASSERT_TRUE(test, pmd_at(A + HP) && pmd_leaf(*pmd_at(A + HP)));
	KUNIT_EXPECT_TRUE(test, pmd_write(*pmd_at(A + HP)));
	folio = pmd_folio(*pmd_at(A + HP));
	KUNIT_EXPECT_TRUE(test, PageFlag(&folio->page, PG_hugetlb));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0); /* not in the RSS */
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + HP, HP, 0));
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x5a, 2 * HP), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 2 * HP, 0x5a));
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * HP), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 2);
}

/* A read fault gets a page too (no zero page), mapped read-only; the
 * write that follows makes it writable in place. */
static void a_read_fault_maps_read_only_until_the_write(struct kunit *test)
{
	unsigned long pfn;

	if (!t.mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, HP, RW | VM_HUGETLB, 0), A);
	KUNIT_ASSERT_EQ(test, handle_mm_fault(t.mm, A, 0), VM_FAULT_OK);
	KUNIT_ASSERT_TRUE(test, pmd_at(A) && pmd_leaf(*pmd_at(A)));
	KUNIT_EXPECT_FALSE(test, pmd_write(*pmd_at(A)));
	pfn = pmd_pfn(*pmd_at(A));
	KUNIT_ASSERT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pmd_write(*pmd_at(A)));
	KUNIT_EXPECT_EQ(test, pmd_pfn(*pmd_at(A)), pfn);
}

/* fork shares a private huge page write-protected in both mms; the
 * child's write copies it into a page of its own (Linux:
 * copy_hugetlb_page_range, hugetlb_wp), the parent's then reuses its
 * page, and the pool gets both back. */
static void fork_shares_a_huge_page_until_the_first_write(struct kunit *test)
{
	struct mm_struct *child;
	struct folio *folio;
	uint8_t byte = 0;

	if (!t.mm)
		return;
	set_max_huge_pages(h, 2);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, HP, RW | VM_HUGETLB, 0), A);
	KUNIT_ASSERT_EQ(test, fill_user(A, 0x5a, HP), 0);
	folio = pmd_folio(*pmd_at(A));
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, dup_mmap(child, t.mm), 0);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 2);
	KUNIT_EXPECT_FALSE(test, pmd_write(*pmd_at(A)));
	KUNIT_EXPECT_TRUE(test, pmd_folio(*mm_find_pmd(child, A)) == folio);
	KUNIT_EXPECT_FALSE(test, pmd_write(*mm_find_pmd(child, A)));
	switch_mm(child);
	KUNIT_EXPECT_EQ(test, fill_user(A + PAGE_SIZE, 0x11, 1), 0);
	KUNIT_EXPECT_EQ(test, child->counters[MM_WP_COPY], 1);
	KUNIT_EXPECT_TRUE(test, pmd_folio(*mm_find_pmd(child, A)) != folio);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, PAGE_SIZE, 0x5a));
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, A + PAGE_SIZE, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0x5a);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x22, 1), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_WP_REUSE], 1);
	KUNIT_EXPECT_TRUE(test, pmd_folio(*pmd_at(A)) == folio);
	mm_destroy(child);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, HP), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 2);
}

static void reservation_beyond_the_pool_is_enomem_unless_noreserve(struct kunit *test)
{
	if (!t.mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, A));
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB | VM_NORESERVE, 0), A);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + HP, FAULT_FLAG_WRITE), VM_FAULT_OOM);
	/* A length or address off the huge page size is refused. */
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, HP + PAGE_SIZE, RW | VM_HUGETLB, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, A + 4 * HP + PAGE_SIZE, HP, RW | VM_HUGETLB, 0),
			(unsigned long)-EINVAL);
}

/* An unreserved fault takes only pages reservations leave free. */
static void an_unreserved_fault_leaves_reserved_pages_alone(struct kunit *test)
{
	if (!t.mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, HP, RW | VM_HUGETLB, 0), A);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + HP, HP, RW | VM_HUGETLB | VM_NORESERVE, 0), A + HP);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + HP, FAULT_FLAG_WRITE), VM_FAULT_OOM);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
}

static void overcommit_makes_surplus_pages_freed_on_unmap(struct kunit *test)
{
	if (!t.mm)
		return;
	h->nr_overcommit_huge_pages = 2;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, h->surplus_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, A + 4 * HP, HP, RW | VM_HUGETLB, 0),
			(unsigned long)-ENOMEM);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * HP), 0);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, h->surplus_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
}

static void dontneed_and_munmap_give_pages_back_to_the_pool(struct kunit *test)
{
	if (!t.mm)
		return;
	set_max_huge_pages(h, 2);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 1, 2 * HP), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + PAGE_SIZE, HP, MADV_DONTNEED), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, HP, MADV_FREE), -EINVAL);
	/* Linux's private HugeTLB mapping has a hugetlbfs file, not shared:
	 * madvise_remove's -EACCES, and the pages stay. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, HP, MADV_REMOVE), -EACCES);
	KUNIT_EXPECT_NOT_NULL(test, test_mapped_folio(t.mm, A));
	/* The end is rounded down: less than a huge page frees nothing. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, HP - PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, HP, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_NULL(test, test_mapped_folio(t.mm, A));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, HP, 0)); /* a new zeroed page */
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * HP), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
}

static void cuts_must_be_huge_page_aligned(struct kunit *test)
{
	if (!t.mm)
		return;
	set_max_huge_pages(h, 2);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PAGE_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + PAGE_SIZE, HP), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, PAGE_SIZE, VM_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + HP, HP), 0); /* its reservation back */
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, HP, VM_READ), 0);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_ACCESS);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A) && is_vm_hugetlb_page(find_vma(t.mm, A)));
}

/* Shrinking under mapped pages turns them surplus; they go when unmapped. */
static void shrinking_below_mapped_pages_makes_them_surplus(struct kunit *test)
{
	if (!t.mm)
		return;
	set_max_huge_pages(h, 2);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 1, 2 * HP), 0);
	set_max_huge_pages(h, 0);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, h->surplus_huge_pages, 2);
	KUNIT_EXPECT_EQ(test, persistent_huge_pages(h), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 2 * HP), 0);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, h->surplus_huge_pages, 0);
}

static void show(const struct kobj_attribute *attr, char *out, size_t len)
{
	struct seq_file m = { .buf = out, .size = len };

	attr->show(&m, h);
	out[seq_has_overflowed(&m) ? 0 : m.count] = '\0';
}

static void meminfo_and_sysfs_show_the_pool_as_linux(struct kunit *test)
{
	static char buf[512];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };

	if (!t.mm)
		return;
	set_max_huge_pages(h, 3);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * HP, RW | VM_HUGETLB, 0), A);
	hugetlb_report_meminfo(&m);
	buf[m.count] = '\0';
	KUNIT_EXPECT_STREQ(test, buf,
			   "HugePages_Total:       3\nHugePages_Free:        3\n"
			   "HugePages_Rsvd:        2\nHugePages_Surp:        0\n"
			   "Hugepagesize:       2048 kB\nHugetlb:            6144 kB\n");
	show(&hugetlb_resv_hugepages_attr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
	KUNIT_EXPECT_EQ(test, hugetlb_nr_hugepages_attr.store("1\n", 2, h), 2);
	show(&hugetlb_nr_hugepages_attr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "2\n"); /* the reserved pages stay */
	KUNIT_EXPECT_EQ(test, hugetlb_nr_hugepages_attr.store("x\n", 2, h), -EINVAL);
	KUNIT_EXPECT_EQ(test, hugetlb_nr_hugepages_attr.store("-1", 2, h), -EINVAL);
	KUNIT_EXPECT_EQ(test, hugetlb_nr_overcommit_hugepages_attr.store("5\n", 2, h), 2);
	show(&hugetlb_nr_overcommit_hugepages_attr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "5\n");
	/* The reserved page above the new size is surplus (Linux too). */
	show(&hugetlb_surplus_hugepages_attr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "1\n");
	show(&hugetlb_free_hugepages_attr, buf, sizeof(buf));
	KUNIT_EXPECT_STREQ(test, buf, "2\n");
}

/* /proc/sys/vm/nr_hugepages resizes the default pool and reads its
 * persistent size; nr_overcommit_hugepages sets the overcommit. */
static void proc_sys_vm_nr_hugepages_resizes_the_default_pool(struct kunit *test)
{
	const struct ctl_table *nr = sysctl_find("vm", "nr_hugepages");
	const struct ctl_table *over = sysctl_find("vm", "nr_overcommit_hugepages");
	char buf[32] = "3\n";
	uint64_t pos = 0;
	size_t len = 2;

	if (!t.mm)
		return;
	KUNIT_ASSERT_NOT_NULL(test, nr);
	KUNIT_ASSERT_NOT_NULL(test, over);
	KUNIT_EXPECT_EQ(test, nr->proc_handler(nr, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 3);
	pos = 0;
	len = sizeof(buf);
	KUNIT_EXPECT_EQ(test, nr->proc_handler(nr, 0, buf, &len, &pos), 0);
	buf[len] = '\0';
	KUNIT_EXPECT_STREQ(test, buf, "3\n");
	memcpy(buf, "x", 2);
	pos = 0;
	len = 1;
	KUNIT_EXPECT_EQ(test, nr->proc_handler(nr, 1, buf, &len, &pos), -EINVAL);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 3);
	memcpy(buf, "7", 2);
	pos = 0;
	len = 1;
	KUNIT_EXPECT_EQ(test, over->proc_handler(over, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, h->nr_overcommit_huge_pages, 7);
}

static unsigned long parse(const char *line, unsigned int *def)
{
	static struct cmdline cl;
	unsigned long counts[HUGE_MAX_HSTATE] = { 0 };

	*def = 0;
	if (cmdline_parse(&cl, line))
		return 999;
	hugetlb_parse_cmdline(&cl, counts, def);
	return counts[0];
}

static void cmdline_follows_linux_ordering_rules(struct kunit *test)
{
	unsigned int def;

	KUNIT_EXPECT_EQ(test, parse("hugepagesz=2M hugepages=3", &def), 3);
	KUNIT_EXPECT_EQ(test, parse("hugepages=5", &def), 5); /* the default size */
	KUNIT_EXPECT_EQ(test, parse("default_hugepagesz=2M hugepages=6", &def), 6);
	KUNIT_EXPECT_EQ(test, parse("hugepagesz=2M hugepages=3 hugepages=4", &def), 3);
	KUNIT_EXPECT_EQ(test, parse("hugepagesz=4M hugepages=2", &def), 0);
	KUNIT_EXPECT_EQ(test, parse("hugepagesz=1G hugepages=2 hugepagesz=2M hugepages=7", &def),
			7);
	KUNIT_EXPECT_EQ(test, parse("hugepages=x", &def), 0);
	KUNIT_EXPECT_EQ(test, parse("default_hugepagesz=3M", &def), 0);
	KUNIT_EXPECT_EQ(test, def, 0);
}

/* counts[1]: the 1 GiB size's hugepages=. */
static unsigned long parse_1g(const char *line, unsigned int *def)
{
	static struct cmdline cl;
	unsigned long counts[HUGE_MAX_HSTATE] = { 0 };

	*def = 0;
	if (cmdline_parse(&cl, line))
		return 999;
	hugetlb_parse_cmdline(&cl, counts, def);
	return counts[1];
}

/* hugepagesz=1G counts only where the size is registered: without
 * PDPE1GB Linux says "HugeTLB: unsupported hugepagesz=1G" and ignores it. */
static void cmdline_takes_1g_only_where_the_cpu_has_it(struct kunit *test)
{
	unsigned int def;

	hstate_init(&hstates[1], PUD_SHIFT - PAGE_SHIFT, 0);
	hugetlb_max_hstate = 2;
	KUNIT_EXPECT_EQ(test, parse_1g("hugepagesz=1G hugepages=2", &def), 2);
	KUNIT_EXPECT_EQ(test, parse_1g("hugepagesz=2M hugepages=1 hugepagesz=1G hugepages=3", &def),
			3);
	KUNIT_EXPECT_EQ(test, parse_1g("default_hugepagesz=1G hugepages=4", &def), 4);
	KUNIT_EXPECT_EQ(test, def, 1);
	hugetlb_max_hstate = 1; /* no PDPE1GB: the 2 MiB size only */
	KUNIT_EXPECT_EQ(test, parse_1g("hugepagesz=1G hugepages=2", &def), 0);
	KUNIT_EXPECT_EQ(test, parse_1g("default_hugepagesz=1G hugepages=2", &def), 0);
	KUNIT_EXPECT_EQ(test, def, 0);
	KUNIT_EXPECT_EQ(test, parse("default_hugepagesz=1G hugepages=2", &def), 2);
}

/* --- the seed's matrix: the dma-buf system heap's pattern ------------------------ */

/*
 * Linux's drivers/dma-buf/heaps/system_heap.c fills a buffer largest
 * order first from {8, 4, 0}, never going back up (max_order follows the
 * last page), the high orders with no reclaim and __GFP_NORETRY so they
 * fail fast (order_flags: HIGH_ORDER_GFP, HIGH_ORDER_GFP, LOW_ORDER_GFP).
 */
static const unsigned int heap_orders[] = { 8, 4, 0 };
#define HEAP_HIGH_GFP                                                            \
	((GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN | __GFP_NORETRY | __GFP_COMP) & \
	 ~__GFP_DIRECT_RECLAIM)
static const gfp_t heap_gfp[] = { HEAP_HIGH_GFP, HEAP_HIGH_GFP, GFP_KERNEL | __GFP_ZERO };

struct heap_page {
	struct page *page;
	unsigned int order;
};

/* Linux: alloc_largest_available. */
static struct page *heap_alloc_largest(int nid, unsigned long left, unsigned int *max_order)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(heap_orders); i++) {
		struct page *page;

		if (left < (PAGE_SIZE << heap_orders[i]) || *max_order < heap_orders[i])
			continue;
		page = alloc_pages_node(nid, heap_gfp[i], heap_orders[i]);
		if (!page)
			continue;
		*max_order = heap_orders[i];
		return page;
	}
	return NULL;
}

/* One buffer of size bytes into pages[]. Return: pages used, or 0 if the heap failed. */
static unsigned long heap_allocate(int nid, unsigned long size, struct heap_page *pages,
				   unsigned long max)
{
	unsigned int max_order = heap_orders[0];
	unsigned long n = 0;

	for (unsigned long left = size; left && n < max;) {
		struct page *page = heap_alloc_largest(nid, left, &max_order);

		if (!page)
			break;
		pages[n++] = (struct heap_page){ page, max_order };
		left -= PAGE_SIZE << max_order;
	}
	return n;
}

static void dma_buf_system_heap_pattern_gets_every_page(struct kunit *test)
{
	static const unsigned long sizes[] = { 8 * MIB,	 4 * MIB, 2 * MIB, 1 * MIB,
					       64 * KIB, 8 * KIB, 4 * KIB };
	static struct heap_page pages[8192];
	unsigned long free, n = 0, bytes = 0, want = 0;

	if (!t.mm)
		return;
	free = node_free_pages(t.node);
	for (unsigned int i = 0; i < ARRAY_SIZE(sizes); i++) {
		unsigned long got =
			heap_allocate(t.node->node_id, sizes[i], pages + n, ARRAY_SIZE(pages) - n);

		for (unsigned long j = n; j < n + got; j++)
			bytes += PAGE_SIZE << pages[j].order;
		want += sizes[i];
		n += got;
		KUNIT_EXPECT_EQ(test, bytes, want);
	}
	KUNIT_EXPECT_EQ(test, pages[0].order, 8); /* a fresh node has order-8 blocks */
	for (unsigned long j = 0; j < n; j++)
		__free_pages(pages[j].page, pages[j].order);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* With every other page of the node held, the few blocks the watermark
 * kept free go first, then order 0: every page asked for comes, the
 * orders never go back up. */
static void dma_buf_system_heap_pattern_falls_back_to_order_0(struct kunit *test)
{
	static struct page *held[16 * HPAGE_PMD_NR];
	static struct heap_page pages[512];
	unsigned long n, got, bytes = 0;

	if (!t.mm)
		return;
	n = test_fill_node(t.node, held, 0, ARRAY_SIZE(held));
	for (unsigned long i = 0; i < n; i += 2)
		__free_pages(held[i], 0);
	got = heap_allocate(t.node->node_id, 1 * MIB, pages, ARRAY_SIZE(pages));
	for (unsigned long j = 0; j < got; j++) {
		bytes += PAGE_SIZE << pages[j].order;
		KUNIT_EXPECT_TRUE(test, !j || pages[j].order <= pages[j - 1].order);
		__free_pages(pages[j].page, pages[j].order);
	}
	KUNIT_EXPECT_EQ(test, bytes, 1 * MIB);
	KUNIT_EXPECT_EQ(test, pages[got - 1].order, 0);
	for (unsigned long i = 1; i < n; i += 2)
		__free_pages(held[i], 0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static struct kunit_case hugetlb_cases[] = {
	KUNIT_CASE(pool_grows_and_shrinks_with_nr_hugepages),
	KUNIT_CASE(pool_growth_stops_when_memory_runs_out),
	KUNIT_CASE(mmap_reserves_and_a_fault_maps_one_zeroed_pmd),
	KUNIT_CASE(a_read_fault_maps_read_only_until_the_write),
	KUNIT_CASE(fork_shares_a_huge_page_until_the_first_write),
	KUNIT_CASE(reservation_beyond_the_pool_is_enomem_unless_noreserve),
	KUNIT_CASE(an_unreserved_fault_leaves_reserved_pages_alone),
	KUNIT_CASE(overcommit_makes_surplus_pages_freed_on_unmap),
	KUNIT_CASE(dontneed_and_munmap_give_pages_back_to_the_pool),
	KUNIT_CASE(cuts_must_be_huge_page_aligned),
	KUNIT_CASE(shrinking_below_mapped_pages_makes_them_surplus),
	KUNIT_CASE(meminfo_and_sysfs_show_the_pool_as_linux),
	KUNIT_CASE(proc_sys_vm_nr_hugepages_resizes_the_default_pool),
	KUNIT_CASE(cmdline_follows_linux_ordering_rules),
	KUNIT_CASE(cmdline_takes_1g_only_where_the_cpu_has_it),
	KUNIT_CASE(dma_buf_system_heap_pattern_gets_every_page),
	KUNIT_CASE(dma_buf_system_heap_pattern_falls_back_to_order_0),
	{},
};

static struct kunit_suite hugetlb_suite = {
	.name = "hugetlb",
	.init = hugetlb_test_init,
	.exit = hugetlb_test_exit,
	.test_cases = hugetlb_cases,
};
kunit_test_suite(hugetlb_suite);
