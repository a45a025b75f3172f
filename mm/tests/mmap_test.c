/*
 * Address spaces on a private node: vm_mmap placement (from mmap_base,
 * PMD-aligned for 2 MiB and more), refusals (overlap, misaligned, zero
 * length, full array), vm_munmap trimming, splitting and removing VMAs,
 * and unmapping hand-installed folios: every folio and table freed, one
 * flush (the node back to its starting picture). On the host the software
 * MMU sets A/D; in the kernel a real access reads through the new tables.
 */
#include <ktest.h>
#include <sysctl.h>
#include <vm.h>
#include "mm_test_util.h"
#ifdef FOLIUM_HOST
#include <asm/mmu.h>
#endif

#define BASE 0x100000000ul /* mm/mmap.c's MMAP_BASE */
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;

static int mmap_test_init(struct kunit *test)
{
	return test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
}

static void mmap_test_exit(struct kunit *test)
{
	test_mm_destroy(test, &t);
}

/* Fault in by hand: a folio of 2^order pages mapped at addr with PTEs
 * (or one PMD for pmd), as handle_mm_fault would. */
static struct folio *map_folio(unsigned long addr, unsigned int order, bool pmd)
{
	struct folio *folio = folio_alloc_node(t.node->node_id, GFP_KERNEL, order);
	uint64_t prot = vm_get_page_prot(RW);
	pte_t *ptep;

	if (!folio)
		return NULL;
	if (pmd) {
		set_pmd_at(t.mm, addr, pmd_alloc(t.mm, addr), pfn_pmd(folio_pfn(folio), prot));
	} else {
		ptep = test_pte_alloc(t.mm, addr);
		set_ptes(t.mm, addr, ptep, pfn_pte(folio_pfn(folio), prot), 1u << order);
	}
	if (anon_vma_prepare(t.mm, find_vma(t.mm, addr))) {
		folio_put(folio);
		return NULL;
	}
	folio_set_anon(folio);
	folio_add_new_anon_rmap(folio, t.mm, find_vma(t.mm, addr), addr);
	t.mm->counters[MM_ANONPAGES] += 1ul << order;
	return folio;
}

static void vm_mmap_places_from_mmap_base_with_thp_alignment(struct kunit *test)
{
	unsigned long a, b, c, d;

	a = vm_mmap(t.mm, 0, 5 * PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, a, BASE);
	b = vm_mmap(t.mm, 0, 100, RW, 0); /* rounded up to a page */
	KUNIT_EXPECT_EQ(test, b, BASE + 5 * PAGE_SIZE);
	c = vm_mmap(t.mm, 0, PMD_SIZE, RW, 0); /* 2 MiB: PMD-aligned */
	KUNIT_EXPECT_EQ(test, c, BASE + PMD_SIZE);
	d = vm_mmap(t.mm, 0, PAGE_SIZE, VM_READ, 64 * 1024);
	KUNIT_EXPECT_EQ(test, d, BASE + 0x10000);
	KUNIT_ASSERT_EQ(test, t.mm->nr_vmas, 4);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[1].vm_start, b);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[1].vm_end, b + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[2].vm_start, d);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[2].vm_flags, VM_READ | VM_SOFTDIRTY);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, c + PMD_SIZE - 1) == &t.mm->vmas[3]);
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, c + PMD_SIZE));
	KUNIT_EXPECT_NULL(test, find_vma(t.mm, BASE - 1));
	/* A fixed address below mmap_base is taken as given. */
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, USER_VA_START, PAGE_SIZE, RW, 0), USER_VA_START);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[0].vm_start, USER_VA_START);
}

/* A program's layout (MMF_TOPDOWN): each mapping goes in the highest
 * gap below mmap_base that fits, a 2 MiB one PMD-aligned; full below,
 * the search falls back upwards from mmap_base. */
static void vm_mmap_topdown_fills_gaps_from_mmap_base_down(struct kunit *test)
{
	unsigned long top = BASE + 64 * PMD_SIZE, a, b, c, d, e;

	t.mm->flags |= MMF_TOPDOWN;
	t.mm->mmap_base = top;
	a = vm_mmap(t.mm, 0, 3 * PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, a, top - 3 * PAGE_SIZE);
	b = vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, b, a - PAGE_SIZE);
	c = vm_mmap(t.mm, 0, PMD_SIZE, RW, 0); /* aligned down past a and b */
	KUNIT_EXPECT_EQ(test, c, top - 2 * PMD_SIZE);
	/* The hole between c's end and b is used by a mapping that fits. */
	d = vm_mmap(t.mm, 0, 2 * PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, d, b - 2 * PAGE_SIZE);
	/* A VMA across mmap_base does not count as room below it. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, 3 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, top - PAGE_SIZE, 2 * PAGE_SIZE, RW, 0),
			top - PAGE_SIZE);
	e = vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, e, top - 2 * PAGE_SIZE);
	/* Nothing fits below (every gap from USER_VA_START filled):
	 * upwards from mmap_base, past the VMA that crosses it. */
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, USER_VA_START, c - USER_VA_START, RW, 0),
			USER_VA_START);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, c + PMD_SIZE, d - c - PMD_SIZE, RW, 0), c + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0), top - 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, 4 * PAGE_SIZE, RW, 0), top + PAGE_SIZE);
}

/* vm.mmap_min_addr raised to 2 MiB below mmap_base: a one-page mapping
 * still goes just below mmap_base, but one of 4 MiB no longer fits above
 * the floor and goes upwards from mmap_base; back at 64 KiB, the same
 * request fits below a. Values below 64 KiB leave the floor at
 * USER_VA_START. */
static void vm_mmap_topdown_stays_above_mmap_min_addr(struct kunit *test)
{
	const struct ctl_table *t_min = sysctl_find("vm", "mmap_min_addr");
	unsigned long top = BASE + 64 * PMD_SIZE;
	char buf[32];
	size_t len;
	uint64_t pos = 0;
	unsigned long a, b;

	KUNIT_ASSERT_NOT_NULL(test, t_min);
	t.mm->flags |= MMF_TOPDOWN;
	t.mm->mmap_base = top;
	len = (size_t)ksnprintf(buf, sizeof(buf), "%lu\n", top - 2 * PMD_SIZE);
	KUNIT_ASSERT_EQ(test, t_min->proc_handler(t_min, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, mmap_min_addr, top - 2 * PMD_SIZE);
	a = vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, a, top - PAGE_SIZE);
	b = vm_mmap(t.mm, 0, 2 * PMD_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, b, top);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, b, 2 * PMD_SIZE), 0);
	len = (size_t)ksnprintf(buf, sizeof(buf), "4096");
	pos = 0;
	KUNIT_ASSERT_EQ(test, t_min->proc_handler(t_min, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, mmap_min_addr, USER_VA_START);
	len = (size_t)ksnprintf(buf, sizeof(buf), "65536");
	pos = 0;
	KUNIT_ASSERT_EQ(test, t_min->proc_handler(t_min, 1, buf, &len, &pos), 0);
	KUNIT_EXPECT_EQ(test, dac_mmap_min_addr, 65536);
	b = vm_mmap(t.mm, 0, 2 * PMD_SIZE, RW, 0);
	KUNIT_EXPECT_EQ(test, b, top - 3 * PMD_SIZE); /* PMD-aligned, below a */
}

static void vm_mmap_refuses_bad_arguments_and_overlap(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, 4 * PAGE_SIZE, RW, 0);

	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, 0, RW, 0), (unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, a + 3 * PAGE_SIZE, 2 * PAGE_SIZE, RW, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, a - PAGE_SIZE, 2 * PAGE_SIZE, RW, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, BASE + 0x123, PAGE_SIZE, RW, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, PAGE_SIZE, PAGE_SIZE, RW, 0), (unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, USER_VA_END - PAGE_SIZE, 2 * PAGE_SIZE, RW, 0),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, PAGE_SIZE, RW, 3 * PAGE_SIZE),
			(unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, PAGE_SIZE, 0x10, 0), (unsigned long)-EINVAL);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, USER_VA_END, RW, 0), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	/* Right after the VMA is free. */
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, a + 4 * PAGE_SIZE, PAGE_SIZE, RW, 0),
			a + 4 * PAGE_SIZE);
}

/* vm.max_map_count 200 with Linux's checks: a mapping is refused once
 * nr_vmas > 200 (so 201 fit), a split once nr_vmas >= 200; trimming needs
 * no new VMA. The array grew past the mm page's 64 twice and kept every
 * VMA; mm_destroy returns its pages (the exit's free-page check). */
static void vm_mmap_stops_at_max_map_count(struct kunit *test)
{
	int saved = sysctl_max_map_count;

	sysctl_max_map_count = 200;
	for (int i = 0; i <= 200; i++)
		KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, 0, 3 * PAGE_SIZE, RW, 4 * PAGE_SIZE),
				BASE + i * 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_GE(test, t.mm->vmas_cap, 201);
	KUNIT_EXPECT_TRUE(test, t.mm->vmas != t.mm->inline_vmas);
	for (int i = 0; i <= 200; i++)
		KUNIT_EXPECT_EQ(test, t.mm->vmas[i].vm_end,
				BASE + i * 4 * PAGE_SIZE + 3 * PAGE_SIZE);
	/* Splitting a VMA needs a slot too: refused, nothing changed. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, BASE + PAGE_SIZE, PAGE_SIZE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, split_vma(t.mm, BASE + PAGE_SIZE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[0].vm_end, BASE + 3 * PAGE_SIZE);
	/* Trimming needs none. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, BASE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[0].vm_start, BASE + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 201);
	/* Raised again, the split goes through. */
	sysctl_max_map_count = saved;
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, BASE + 4 * PAGE_SIZE + PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 202);
}

static void vm_munmap_trims_splits_and_removes_vmas(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, 16 * PAGE_SIZE, RW, 0);
	unsigned long b = vm_mmap(t.mm, 0, 16 * PAGE_SIZE, RW, 0);
	unsigned long c = vm_mmap(t.mm, 0, 16 * PAGE_SIZE, RW, 0);

	KUNIT_ASSERT_EQ(test, b, a + 16 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + 0x123, PAGE_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, 0), -EINVAL);
	/* The middle of a: split in two (the length rounds up to a page). */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE - 100), 0);
	KUNIT_ASSERT_EQ(test, t.mm->nr_vmas, 4);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[0].vm_end, a + 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[1].vm_start, a + 8 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[1].vm_end, b);
	/* From a's tail, all of b, into c's head. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + 12 * PAGE_SIZE, 24 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, t.mm->nr_vmas, 3);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[1].vm_end, a + 12 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[2].vm_start, c + 4 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, t.mm->vmas[2].vm_end, c + 16 * PAGE_SIZE);
	/* Unmapping nothing is not an error; nothing to flush either. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, c + 64 * PAGE_SIZE, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] + t.mm->counters[MM_TLB_FLUSH_ALL],
			0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, c + 16 * PAGE_SIZE - a), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 0);
}

static void munmap_frees_every_folio_and_table_with_one_flush(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, 4 * PMD_SIZE, RW, 0);
	unsigned long before_folios;

	KUNIT_ASSERT_EQ(test, a & ~PMD_MASK, 0);
	before_folios = node_free_pages(t.node);
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a, 4, false)); /* 64K */
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a + 16 * PAGE_SIZE, 0, false));
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a + PMD_SIZE - 8 * PAGE_SIZE, 3, false));
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a + 2 * PMD_SIZE, HPAGE_PMD_ORDER, true));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 16 + 1 + 8 + HPAGE_PMD_NR);
	KUNIT_EXPECT_LT(test, node_free_pages(t.node), before_folios);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, 4 * PMD_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ALL], 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

static void partial_munmap_keeps_a_large_folio_until_its_last_pte(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, 16 * PAGE_SIZE, RW, 0);
	struct folio *folio = map_folio(a, 4, false);

	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 12);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], 4); /* 4 <= 33 */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 12);
	KUNIT_EXPECT_TRUE(test, pte_present(*mm_find_pte(t.mm, a + 3 * PAGE_SIZE)));
	KUNIT_EXPECT_TRUE(test, pte_none(*mm_find_pte(t.mm, a + 4 * PAGE_SIZE)));
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, 16 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE], 4 + 16);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2);
}

/* A 64K folio's 16 PTEs are zapped as one batch (zap_present_ptes, the
 * default), or 16 with zap_batched off; a batch stops at the end of the range and of
 * the VMA (an mprotect'ed middle is a VMA of its own). */
static void munmap_zaps_a_large_folios_run_as_one_batch(struct kunit *test)
{
	const bool batched[] = { true, false };
	unsigned long a = vm_mmap(t.mm, 0, 16 * PAGE_SIZE, RW, 0);
	unsigned long tables_only;

	/* The zap keeps the VMA's tables: what is free with them alone. */
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a, 0, false));
	KUNIT_EXPECT_EQ(test, zap_page_range(t.mm, a, a + PAGE_SIZE), 0);
	tables_only = node_free_pages(t.node);
	for (unsigned int i = 0; i < ARRAY_SIZE(batched); i++) {
		KUNIT_ASSERT_NOT_NULL(test, map_folio(a, 4, false));
		t.mm->counters[MM_ZAP_BATCHES] = 0;
		if (!batched[i]) /* the first round runs with the default */
			zap_batched = false;
		KUNIT_EXPECT_EQ(test, zap_page_range(t.mm, a, a + 16 * PAGE_SIZE), 0);
		zap_batched = true;
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ZAP_BATCHES], batched[i] ? 1 : 16);
		KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
		KUNIT_EXPECT_EQ(test, node_free_pages(t.node), tables_only);
	}
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a, 4, false));
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, a + 4 * PAGE_SIZE, 4 * PAGE_SIZE, VM_READ), 0);
	t.mm->counters[MM_ZAP_BATCHES] = 0;
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + 2 * PAGE_SIZE, 12 * PAGE_SIZE), 0);
	/* 2-3 in the first VMA, 4-7 the read-only one, 8-13 the last. */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ZAP_BATCHES], 3);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 4);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, 16 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2);
}

static void munmap_splits_a_pmd_leaf_it_cuts(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, PMD_SIZE, RW, 0);
	struct folio *folio = map_folio(a, HPAGE_PMD_ORDER, true);
	pte_t *ptep;

	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a + PAGE_SIZE, 2 * PAGE_SIZE), 0);
	ptep = mm_find_pte(t.mm, a);
	KUNIT_ASSERT_NOT_NULL(test, ptep); /* the leaf became a PTE table */
	KUNIT_EXPECT_EQ(test, pte_pfn(ptep[0]), folio_pfn(folio));
	KUNIT_EXPECT_TRUE(test, pte_none(ptep[1]) && pte_none(ptep[2]));
	KUNIT_EXPECT_EQ(test, pte_pfn(ptep[511]), folio_pfn(folio) + 511);
	KUNIT_EXPECT_FALSE(test, ptep[3] & _PAGE_PSE);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 510);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], HPAGE_PMD_NR - 2);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 2);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, a, PMD_SIZE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_PGTABLES], 1);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start - 2);
}

static void mm_destroy_returns_every_page(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, 4 * PMD_SIZE, RW, 0);

	KUNIT_ASSERT_NOT_NULL(test, map_folio(a + 5 * PAGE_SIZE, 0, false));
	KUNIT_ASSERT_NOT_NULL(test, map_folio(a + PMD_SIZE, HPAGE_PMD_ORDER, true));
	mm_destroy(t.mm);
	t.mm = NULL;
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), t.free_at_start);
}

#ifdef FOLIUM_HOST
static void software_mmu_sets_accessed_dirty_and_refuses_readonly_writes(struct kunit *test)
{
	unsigned long rw = vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0);
	unsigned long ro = vm_mmap(t.mm, 0, PAGE_SIZE, VM_READ, 0);
	struct folio *folio = map_folio(rw, 0, false);
	pte_t *ptep = mm_find_pte(t.mm, rw);
	pte_t *ro_ptep = test_pte_alloc(t.mm, ro);
	void *p;

	KUNIT_ASSERT_NOT_NULL(test, folio);
	set_ptes(t.mm, ro, ro_ptep, pfn_pte(folio_pfn(folio), vm_get_page_prot(VM_READ)), 1);
	KUNIT_EXPECT_FALSE(test, pte_young(*ptep));
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, rw + 0x123, false, &p), 0);
	KUNIT_EXPECT_TRUE(test, p == (char *)folio_address(folio) + 0x123);
	KUNIT_EXPECT_TRUE(test, pte_young(*ptep));
	KUNIT_EXPECT_FALSE(test, pte_dirty(*ptep));
	KUNIT_EXPECT_TRUE(test, *mm_find_pmd(t.mm, rw) & _PAGE_ACCESSED);
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, rw, true, &p), 0);
	KUNIT_EXPECT_TRUE(test, pte_dirty(*ptep));
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, ro, true, &p), -1);
	KUNIT_EXPECT_FALSE(test, pte_young(*ro_ptep));
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, ro, false, &p), 0);
	KUNIT_EXPECT_TRUE(test, pte_young(*ro_ptep) && !pte_dirty(*ro_ptep));
	KUNIT_EXPECT_EQ(test, host_mmu_translate(t.mm, rw + PAGE_SIZE * 4, false, &p), -1);
	/* ro's PTE is a second mapping of the folio, by hand. */
	ptep_get_and_clear(t.mm, ro, ro_ptep);
}
#define ARCH_MMU_CASE KUNIT_CASE(software_mmu_sets_accessed_dirty_and_refuses_readonly_writes)
#else
static void switch_mm_makes_a_user_address_reach_its_page(struct kunit *test)
{
	unsigned long a = vm_mmap(t.mm, 0, PAGE_SIZE, RW, 0);
	struct folio *folio = map_folio(a, 0, false);
	struct mm_struct *prev = current_mm;
	volatile uint64_t *user = (volatile uint64_t *)(a + 64);
	uint64_t *direct;
	uint64_t seen;

	KUNIT_ASSERT_NOT_NULL(test, folio);
	direct = (uint64_t *)((char *)folio_address(folio) + 64);
	*direct = 0x0123456789abcdefull;
	switch_mm(t.mm);
	seen = *user;
	*user = 0xfeedfacecafebeefull;
	switch_mm(prev);
	KUNIT_EXPECT_EQ(test, seen, 0x0123456789abcdefull);
	KUNIT_EXPECT_EQ(test, *direct, 0xfeedfacecafebeefull);
	/* The CPU set A and D in the PTE. */
	KUNIT_EXPECT_TRUE(test, pte_young(*mm_find_pte(t.mm, a)));
	KUNIT_EXPECT_TRUE(test, pte_dirty(*mm_find_pte(t.mm, a)));
}
#define ARCH_MMU_CASE KUNIT_CASE(switch_mm_makes_a_user_address_reach_its_page)
#endif

/*
 * The gather keeps folios as Linux sizes its batches: the first
 * MMU_GATHER_BUNDLE in the gather, then page-sized batches of
 * MAX_GATHER_BATCH taken as needed; nothing is freed before the flush,
 * and tlb_finish_mmu gives the batch pages back.
 */
static void the_gather_holds_folios_in_page_sized_batches(struct kunit *test)
{
	const unsigned int n = MMU_GATHER_BUNDLE + MAX_GATHER_BATCH + 1;
	unsigned long free_before, flushes;
	struct mmu_gather tlb;

	if (!t.mm)
		return;
	drain_node_pages(t.node);
	free_before = node_free_pages(t.node);
	tlb_gather_mmu(&tlb, t.mm);
	tlb_remove_tlb_entries(&tlb, BASE, 1);
	flushes = t.mm->counters[MM_TLB_FLUSH_ONE] + t.mm->counters[MM_TLB_FLUSH_ALL];
	for (unsigned int i = 0; i < n; i++) {
		struct folio *folio = folio_alloc_node(t.node->node_id, GFP_KERNEL, 0);

		KUNIT_ASSERT_NOT_NULL(test, folio);
		tlb_remove_folio(&tlb, folio);
	}
	KUNIT_EXPECT_EQ(test, tlb.batch_count, 2);
	KUNIT_EXPECT_EQ(test, tlb.local.nr, MMU_GATHER_BUNDLE);
	KUNIT_EXPECT_EQ(test, tlb.active->nr, 1);
	/* n folios and two batch pages out, none back before the flush */
	KUNIT_EXPECT_EQ(test, free_before - node_free_pages(t.node), n + 2);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] + t.mm->counters[MM_TLB_FLUSH_ALL],
			flushes);
	tlb_finish_mmu(&tlb);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_TLB_FLUSH_ONE] + t.mm->counters[MM_TLB_FLUSH_ALL],
			flushes + 1);
	drain_node_pages(t.node);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free_before);
}

static struct kunit_case mmap_test_cases[] = {
	KUNIT_CASE(vm_mmap_places_from_mmap_base_with_thp_alignment),
	KUNIT_CASE(vm_mmap_topdown_fills_gaps_from_mmap_base_down),
	KUNIT_CASE(vm_mmap_topdown_stays_above_mmap_min_addr),
	KUNIT_CASE(vm_mmap_refuses_bad_arguments_and_overlap),
	KUNIT_CASE(vm_mmap_stops_at_max_map_count),
	KUNIT_CASE(vm_munmap_trims_splits_and_removes_vmas),
	KUNIT_CASE(munmap_frees_every_folio_and_table_with_one_flush),
	KUNIT_CASE(partial_munmap_keeps_a_large_folio_until_its_last_pte),
	KUNIT_CASE(munmap_zaps_a_large_folios_run_as_one_batch),
	KUNIT_CASE(the_gather_holds_folios_in_page_sized_batches),
	KUNIT_CASE(munmap_splits_a_pmd_leaf_it_cuts),
	KUNIT_CASE(mm_destroy_returns_every_page),
	ARCH_MMU_CASE,
	{},
};

static struct kunit_suite mmap_test_suite = {
	.name = "mmap",
	.init = mmap_test_init,
	.exit = mmap_test_exit,
	.test_cases = mmap_test_cases,
};
kunit_test_suite(mmap_test_suite);
