/*
 * HugeTLB's 1 GiB size (hstates[1], order 18) on a private node of
 * 1 GiB + 8 MiB whose one 1 GiB-aligned range becomes the pool page:
 * the pool grows through alloc_contig_pages and shrinks back to the
 * buddy allocator; mmap reserves whole 1 GiB pages; a fault maps one
 * zeroed page by a PUD leaf; mprotect, MADV_DONTNEED, munmap and mincore
 * handle the leaf; cuts off a 1 GiB boundary are -EINVAL; meminfo's
 * Hugetlb: sums both sizes. The mm's page tables come from a second
 * small node, so nothing unmovable lands in the range. Host only: the
 * kernel's test memory is 64 MiB (cases are skipped there; the command
 * line's 1G rules are in hugetlb_test.c).
 */
#include <hugetlb.h>
#include <ktest.h>
#include <seq_file.h>
#include <syscalls.h>
#include "mm_test_util.h"

#define A 0x40000000ul /* 1 GiB */
#define GB PUD_SIZE
#define RW (VM_READ | VM_WRITE)
#define VM_1G (VM_HUGETLB | VM_HSTATE(1))
#define BIG_START (32ull << 30) /* the pool's node: [32G - 8M, 33G) */
#define VEC 0x20000000ul	/* mincore's vec */

static struct pglist_data *big, *small;
static struct mm_struct *mm, *prev_mm;
static struct task_struct *task;
static struct hstate saved[HUGE_MAX_HSTATE];
static unsigned int saved_max, saved_default;
static struct hstate *h = &hstates[1];
static unsigned long big_free, small_free;

static int gigantic_test_init(struct kunit *test)
{
	memcpy(saved, hstates, sizeof(saved));
	saved_max = hugetlb_max_hstate;
	saved_default = default_hstate_idx;
	prev_mm = current_mm;
	mm = NULL;
#ifdef FOLIUM_HOST
	big = test_node_create_at(test, PHYS_PFN(BIG_START - 8 * MIB), PHYS_PFN(GB + 8 * MIB));
	small = test_node_create_at(test, PHYS_PFN(BIG_START + GB), PHYS_PFN(8 * MIB));
#else
	big = small = NULL; /* the kernel's test memory is 64 MiB */
	kunit_mark_skipped(test, "a 1 GiB page needs more than the kernel's test memory");
#endif
	if (!big || !small)
		return 0;
	hstate_init(&hstates[0], HPAGE_PMD_ORDER, small->node_id);
	hstate_init(h, PUD_SHIFT - PAGE_SHIFT, big->node_id);
	hugetlb_max_hstate = 2;
	default_hstate_idx = 0;
	big_free = node_free_pages(big);
	small_free = node_free_pages(small);
	mm = mm_create(small->node_id);
	if (mm)
		switch_mm(mm);
	task = test_task(mm);
	return 0;
}

static void gigantic_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	if (mm)
		mm_destroy(mm);
	if (big) {
		h->nr_overcommit_huge_pages = 0;
		set_max_huge_pages(h, 0);
		KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 0);
		KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
		KUNIT_EXPECT_EQ(test, node_free_pages(big), big_free);
		KUNIT_EXPECT_BUDDY_OK(test, big);
	}
	if (small) {
		KUNIT_EXPECT_EQ(test, node_free_pages(small), small_free);
		KUNIT_EXPECT_BUDDY_OK(test, small);
	}
	test_node_destroy(small);
	test_node_destroy(big);
	big = small = NULL;
	memcpy(hstates, saved, sizeof(saved)); /* list heads point at hstates[] again */
	hugetlb_max_hstate = saved_max;
	default_hstate_idx = saved_default;
}

/* The PUD slot of addr (pud_alloc finds it; the PUD table exists). */
static pud_t pud_at(unsigned long addr)
{
	pud_t *pud = pud_alloc(mm, addr);

	return pud ? *pud : 0;
}

static void pool_grows_by_alloc_contig_pages_and_shrinks_back(struct kunit *test)
{
	unsigned long ok, fail;
	struct folio *folio;

	if (!mm)
		return;
	ok = big->vm_events[HTLB_BUDDY_PGALLOC];
	fail = big->vm_events[HTLB_BUDDY_PGALLOC_FAIL];
	set_max_huge_pages(h, 2); /* room for one */
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, h->max_huge_pages, 1);
	/* Linux counts buddy allocations only (alloc_buddy_hugetlb_folio). */
	KUNIT_EXPECT_EQ(test, big->vm_events[HTLB_BUDDY_PGALLOC], ok);
	KUNIT_EXPECT_EQ(test, big->vm_events[HTLB_BUDDY_PGALLOC_FAIL], fail);
	KUNIT_EXPECT_EQ(test, node_free_pages(big), big_free - pages_per_huge_page(h));
	KUNIT_EXPECT_EQ(test, hugetlb_total_pages(), pages_per_huge_page(h));
	folio = page_folio(pfn_to_page(PHYS_PFN(BIG_START)));
	KUNIT_EXPECT_TRUE(test, PageFlag(&folio->page, PG_hugetlb));
	KUNIT_EXPECT_EQ(test, folio_pfn(folio), PHYS_PFN(BIG_START));
	KUNIT_EXPECT_EQ(test, folio_order(folio), 18);
	KUNIT_EXPECT_BUDDY_OK(test, big);
	set_max_huge_pages(h, 0);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 0);
	KUNIT_EXPECT_FALSE(test, PageHead(pfn_to_page(PHYS_PFN(BIG_START))));
	KUNIT_EXPECT_EQ(test, node_free_pages(big), big_free);
	KUNIT_EXPECT_BUDDY_OK(test, big);
}

static void a_fault_maps_one_zeroed_pud_leaf_and_munmap_gives_it_back(struct kunit *test)
{
	struct folio *folio;

	if (!mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, GB, RW | VM_1G, 0), A);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, hstates[0].resv_huge_pages, 0);
	KUNIT_ASSERT_EQ(test, handle_mm_fault(mm, A + 300 * MIB + 5 * PAGE_SIZE, FAULT_FLAG_WRITE),
			VM_FAULT_OK);
	KUNIT_ASSERT_TRUE(test, pud_leaf(pud_at(A)));
	KUNIT_EXPECT_TRUE(test, pud_write(pud_at(A)));
	KUNIT_EXPECT_NULL(test, mm_find_pmd(mm, A)); /* no PMD table under a leaf */
	folio = pud_folio(pud_at(A));
	KUNIT_EXPECT_EQ(test, folio_pfn(folio), PHYS_PFN(BIG_START));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 64 * KIB, 0));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + GB - 64 * KIB, 64 * KIB, 0));
	KUNIT_EXPECT_EQ(test, fill_user(A + 700 * MIB, 0x5a, 8 * KIB), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 700 * MIB, 8 * KIB, 0x5a));
	KUNIT_EXPECT_EQ(test, ((uint8_t *)folio_address(folio))[700 * MIB], 0x5a);
	KUNIT_ASSERT_EQ(test, vm_munmap(mm, A, GB), 0);
	KUNIT_EXPECT_TRUE(test, pud_none(pud_at(A)));
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, h->resv_huge_pages, 0);
}

/* A read fault maps the page read-only; the write makes it writable in
 * place. mprotect(PROT_READ) takes the right back from the leaf. */
static void read_fault_write_fault_and_mprotect_change_the_leaf(struct kunit *test)
{
	if (!mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, GB, RW | VM_1G, 0), A);
	KUNIT_ASSERT_EQ(test, handle_mm_fault(mm, A + GB - 1, 0), VM_FAULT_OK);
	KUNIT_ASSERT_TRUE(test, pud_leaf(pud_at(A)));
	KUNIT_EXPECT_FALSE(test, pud_write(pud_at(A)));
	KUNIT_ASSERT_EQ(test, handle_mm_fault(mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pud_write(pud_at(A)));
	KUNIT_EXPECT_EQ(test, pud_pfn(pud_at(A)), PHYS_PFN(BIG_START));
	KUNIT_ASSERT_EQ(test, vm_mprotect(mm, A, GB, VM_READ), 0);
	KUNIT_EXPECT_TRUE(test, pud_leaf(pud_at(A)));
	KUNIT_EXPECT_FALSE(test, pud_write(pud_at(A)));
	KUNIT_ASSERT_NOT_NULL(test, find_vma(mm, A));
	KUNIT_EXPECT_TRUE(test, hstate_vma(find_vma(mm, A)) == h); /* the size survives */
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A, FAULT_FLAG_WRITE), VM_FAULT_ACCESS);
}

static void dontneed_gives_the_page_back_and_a_touch_gets_a_zeroed_one(struct kunit *test)
{
	if (!mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, GB, RW | VM_1G, 0), A);
	KUNIT_EXPECT_EQ(test, fill_user(A, 0x33, 4 * KIB), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, do_madvise(mm, A + PMD_SIZE, GB - PMD_SIZE, MADV_DONTNEED), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(mm, A, GB - PMD_SIZE, MADV_DONTNEED), 0); /* rounds down */
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
	KUNIT_EXPECT_EQ(test, do_madvise(mm, A, GB, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 1);
	KUNIT_EXPECT_TRUE(test, pud_none(pud_at(A)));
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * KIB, 0));
	KUNIT_EXPECT_EQ(test, h->free_huge_pages, 0);
}

/* Linux: hugetlb_reserve_pages's -ENOMEM, prepare_hugepage_range's and
 * hugetlb_vm_op_split's -EINVAL at 1 GiB granularity. */
static void reservations_and_cuts_work_in_whole_gigabytes(struct kunit *test)
{
	if (!mm)
		return;
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, A, GB, RW | VM_1G, 0), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_NULL(test, find_vma(mm, A));
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, A, GB + PMD_SIZE, RW | VM_1G | VM_NORESERVE, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, A + PMD_SIZE, GB, RW | VM_1G | VM_NORESERVE, 0),
			(unsigned long)-EINVAL);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, 2 * GB, RW | VM_1G | VM_NORESERVE, 0), A);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, A + PMD_SIZE, PMD_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, A, GB + PMD_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mprotect(mm, A, PMD_SIZE, VM_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(mm, A + GB, GB), 0);
	KUNIT_EXPECT_EQ(test, find_vma(mm, A)->vm_end, A + GB);
	/* Without a reservation a fault finds no page: the pool is empty. */
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, A, FAULT_FLAG_WRITE), VM_FAULT_OOM);
	/* Without an address the search aligns to 1 GiB. */
	KUNIT_EXPECT_EQ(test, vm_mmap(mm, 0, GB, RW | VM_1G | VM_NORESERVE, 0) & (GB - 1), 0);
}

static long mincore(unsigned long start, unsigned long len)
{
	const unsigned long args[6] = { start, len, VEC };

	return sys_mincore(task, args);
}

static void mincore_sees_every_page_of_the_leaf(struct kunit *test)
{
	uint8_t vec[4];

	if (!mm)
		return;
	set_max_huge_pages(h, 1);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, VEC, PAGE_SIZE, RW, 0), VEC);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, GB, RW | VM_1G, 0), A);
	KUNIT_ASSERT_EQ(test, mincore(A + GB - 2 * PAGE_SIZE, 2 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(vec, VEC, 2), 0);
	KUNIT_EXPECT_EQ(test, vec[0] + vec[1], 0);
	KUNIT_ASSERT_EQ(test, fill_user(A, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, mincore(A + GB - 4 * PAGE_SIZE, 4 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(vec, VEC, 4), 0);
	KUNIT_EXPECT_EQ(test, vec[0] + vec[1] + vec[2] + vec[3], 4);
}

static void meminfo_sums_every_size_and_shows_the_default_one(struct kunit *test)
{
	static char buf[512];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };

	if (!mm)
		return;
	set_max_huge_pages(h, 1);
	set_max_huge_pages(&hstates[0], 2);
	hugetlb_report_meminfo(&m);
	buf[m.count] = '\0';
	KUNIT_EXPECT_STREQ(test, buf,
			   "HugePages_Total:       2\nHugePages_Free:        2\n"
			   "HugePages_Rsvd:        0\nHugePages_Surp:        0\n"
			   "Hugepagesize:       2048 kB\nHugetlb:         1052672 kB\n");
	KUNIT_EXPECT_EQ(test, hugetlb_total_pages(), pages_per_huge_page(h) + 2 * HPAGE_PMD_NR);
	default_hstate_idx = 1; /* default_hugepagesz=1G */
	m.count = 0;
	hugetlb_report_meminfo(&m);
	buf[m.count] = '\0';
	KUNIT_EXPECT_STREQ(test, buf,
			   "HugePages_Total:       1\nHugePages_Free:        1\n"
			   "HugePages_Rsvd:        0\nHugePages_Surp:        0\n"
			   "Hugepagesize:    1048576 kB\nHugetlb:         1052672 kB\n");
	set_max_huge_pages(&hstates[0], 0);
}

/* The sysfs file of hugepages-1048576kB grows this pool, not the other. */
static void sysfs_nr_hugepages_of_the_1g_pool(struct kunit *test)
{
	static char buf[32];
	struct seq_file m = { .buf = buf, .size = sizeof(buf) };

	if (!mm)
		return;
	KUNIT_EXPECT_EQ(test, hugetlb_nr_hugepages_attr.store("1\n", 2, h), 2);
	KUNIT_EXPECT_EQ(test, h->nr_huge_pages, 1);
	KUNIT_EXPECT_EQ(test, hstates[0].nr_huge_pages, 0);
	hugetlb_free_hugepages_attr.show(&m, h);
	buf[m.count] = '\0';
	KUNIT_EXPECT_STREQ(test, buf, "1\n");
}

static struct kunit_case gigantic_cases[] = {
	KUNIT_CASE(pool_grows_by_alloc_contig_pages_and_shrinks_back),
	KUNIT_CASE(a_fault_maps_one_zeroed_pud_leaf_and_munmap_gives_it_back),
	KUNIT_CASE(read_fault_write_fault_and_mprotect_change_the_leaf),
	KUNIT_CASE(dontneed_gives_the_page_back_and_a_touch_gets_a_zeroed_one),
	KUNIT_CASE(reservations_and_cuts_work_in_whole_gigabytes),
	KUNIT_CASE(mincore_sees_every_page_of_the_leaf),
	KUNIT_CASE(meminfo_sums_every_size_and_shows_the_default_one),
	KUNIT_CASE(sysfs_nr_hugepages_of_the_1g_pool),
	{},
};

static struct kunit_suite gigantic_suite = {
	.name = "hugetlb_gigantic",
	.init = gigantic_test_init,
	.exit = gigantic_test_exit,
	.test_cases = gigantic_cases,
};
kunit_test_suite(gigantic_suite);
