/*
 * memblock on private instances, fed the kinds of memory maps firmware
 * really produces: unsorted, adjacent, overlapping, tiny, above 4 GiB,
 * with large holes; then reservations, removal, top-down allocation and
 * the free-range walk that hands memory to the buddy allocator.
 */
#include <ktest.h>
#include <mm.h>

static struct memblock mb; /* 8 KiB: too big for a kernel stack frame */

static int memblock_test_init(struct kunit *test)
{
	memblock_init(&mb);
	return 0;
}

/* Expect type to hold exactly the n regions in want (base, size pairs). */
static void expect_regions(struct kunit *test, const struct memblock_type *type,
			   const phys_addr_t *want, unsigned long n)
{
	KUNIT_ASSERT_EQ(test, type->cnt, n);
	for (unsigned long i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, type->regions[i].base, want[2 * i]);
		KUNIT_EXPECT_EQ(test, type->regions[i].size, want[2 * i + 1]);
	}
}

static void memblock_sorts_unsorted_firmware_entries(struct kunit *test)
{
	static const phys_addr_t want[] = { 0x1000, 0x1000, 0x10000, 0x4000, 0x100000, 0x100000 };

	KUNIT_EXPECT_EQ(test, memblock_add(&mb, 0x100000, 0x100000), 0);
	KUNIT_EXPECT_EQ(test, memblock_add(&mb, 0x1000, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, memblock_add(&mb, 0x10000, 0x4000), 0);
	expect_regions(test, &mb.memory, want, 3);
}

static void memblock_merges_adjacent_entries(struct kunit *test)
{
	static const phys_addr_t want[] = { 0x1000, 0x5000 };

	memblock_add(&mb, 0x3000, 0x1000);
	memblock_add(&mb, 0x1000, 0x2000); /* ends where the first starts */
	memblock_add(&mb, 0x4000, 0x2000); /* starts where it ends */
	expect_regions(test, &mb.memory, want, 1);
	KUNIT_EXPECT_EQ(test, memblock_phys_mem_size(&mb), 0x5000);
}

static void memblock_merges_overlapping_entries_into_one(struct kunit *test)
{
	static const phys_addr_t want[] = { 0x1000, 0xf000 };

	memblock_add(&mb, 0x2000, 0x1000);
	memblock_add(&mb, 0x6000, 0x1000);
	memblock_add(&mb, 0xa000, 0x1000);
	memblock_add(&mb, 0x1000, 0xa000); /* swallows the first two, touches the third */
	memblock_add(&mb, 0x8000, 0x8000); /* overlaps the merged region's tail */
	expect_regions(test, &mb.memory, want, 1);
	memblock_add(&mb, 0x3000, 0x1000); /* entirely inside: no change */
	expect_regions(test, &mb.memory, want, 1);
}

static void memblock_keeps_tiny_regions_and_large_holes(struct kunit *test)
{
	static const phys_addr_t want[] = { 0x9f000, 0x1000,	      0x100000000ull,
					    0x1000,  0x4000000000ull, 0x40000000ull };

	memblock_add(&mb, 0x4000000000ull, 0x40000000ull); /* 1 GiB at 256 GiB */
	memblock_add(&mb, 0x100000000ull, PAGE_SIZE);	   /* one page at 4 GiB */
	memblock_add(&mb, 0x9f000, PAGE_SIZE);
	expect_regions(test, &mb.memory, want, 3);
	KUNIT_EXPECT_EQ(test, memblock_start_of_DRAM(&mb), 0x9f000);
	KUNIT_EXPECT_EQ(test, memblock_end_of_DRAM(&mb), 0x4040000000ull);
	KUNIT_EXPECT_EQ(test, memblock_phys_mem_size(&mb), 0x40000000ull + 2 * PAGE_SIZE);
}

static void memblock_reserve_may_straddle_the_edges_of_memory(struct kunit *test)
{
	static const phys_addr_t rsv[] = { 0x0, 0x3000, 0x9000, 0x3000 };
	phys_addr_t start, end;
	unsigned long idx = 0;

	memblock_add(&mb, 0x2000, 0x8000);
	KUNIT_EXPECT_EQ(test, memblock_reserve(&mb, 0x0, 0x3000), 0);	 /* left edge */
	KUNIT_EXPECT_EQ(test, memblock_reserve(&mb, 0x9000, 0x3000), 0); /* right edge */
	expect_regions(test, &mb.reserved, rsv, 2);
	KUNIT_ASSERT_TRUE(test, memblock_next_free_range(&mb, &idx, &start, &end));
	KUNIT_EXPECT_EQ(test, start, 0x3000);
	KUNIT_EXPECT_EQ(test, end, 0x9000);
	KUNIT_EXPECT_FALSE(test, memblock_next_free_range(&mb, &idx, &start, &end));
}

static void memblock_remove_splits_a_region(struct kunit *test)
{
	static const phys_addr_t want[] = { 0x1000, 0x2000, 0x5000, 0x5000, 0x20000, 0x1000 };

	memblock_add(&mb, 0x1000, 0x9000);
	memblock_add(&mb, 0x20000, 0x2000);
	KUNIT_EXPECT_EQ(test, memblock_remove(&mb, 0x3000, 0x2000), 0);	 /* a hole */
	KUNIT_EXPECT_EQ(test, memblock_remove(&mb, 0x21000, 0x8000), 0); /* a tail */
	KUNIT_EXPECT_EQ(test, memblock_remove(&mb, 0x40000, 0x1000), 0); /* nothing */
	expect_regions(test, &mb.memory, want, 3);
	KUNIT_EXPECT_EQ(test, memblock_remove(&mb, 0x0, 0x100000), 0); /* everything */
	KUNIT_EXPECT_EQ(test, mb.memory.cnt, 0);
}

static void memblock_alloc_is_top_down_and_reserves(struct kunit *test)
{
	phys_addr_t a, b;

	memblock_add(&mb, 0x100000, 0x100000);
	memblock_add(&mb, 0x400000, 0x10000);
	a = memblock_phys_alloc(&mb, 0x1000, 0x1000);
	b = memblock_phys_alloc(&mb, 0x1000, 0x1000);
	KUNIT_EXPECT_EQ(test, a, 0x40f000);
	KUNIT_EXPECT_EQ(test, b, 0x40e000);
	KUNIT_EXPECT_EQ(test, memblock_reserved_size(&mb), 0x2000);
	/* Too big for the upper region: falls to the lower one. */
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x20000, 0x1000), 0x1e0000);
}

static void memblock_alloc_honours_alignment(struct kunit *test)
{
	phys_addr_t a;

	memblock_add(&mb, 0x1000, 0x7ff000);	 /* up to 8 MiB */
	memblock_reserve(&mb, 0x7ff000, 0x1000); /* spoil the top page */
	a = memblock_phys_alloc(&mb, 0x200000, 0x200000);
	KUNIT_EXPECT_EQ(test, a, 0x400000);
	a = memblock_phys_alloc(&mb, 0x1000, 0x10000);
	KUNIT_EXPECT_EQ(test, a & 0xffff, 0);
	KUNIT_EXPECT_EQ(test, a, 0x7f0000); /* above the 2 MiB block */
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x1000, 0x3000), 0); /* not 2^n */
}

static void memblock_alloc_stays_in_range_and_below_limit(struct kunit *test)
{
	memblock_add(&mb, 0x0, 0x200000000ull); /* 8 GiB from 0 */
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc_range(&mb, 0x1000, 0x1000, 0x10000, 0x20000),
			0x1f000);
	mb.current_limit = 0x100000000ull;
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x1000, 0x1000), 0xfffff000);
	KUNIT_EXPECT_EQ(
		test,
		memblock_phys_alloc_range(&mb, 0x1000, 0x1000, 0x180000000ull, 0x1c0000000ull),
		0); /* above limit */
	/* Page 0 is never handed out, so 0 can mean failure (as Linux). */
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc_range(&mb, 0x1000, 0x1000, 0, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc_range(&mb, 0x1000, 0x1000, 0, 0x2000), 0x1000);
}

static void memblock_alloc_failure_returns_zero(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x1000, 0x1000), 0); /* no memory */
	memblock_add(&mb, 0x100000, 0x4000);
	memblock_reserve(&mb, 0x101000, 0x1000);
	memblock_reserve(&mb, 0x103000, 0x1000);
	/* 0x2000 free in all, but in two separate pages. */
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x2000, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, memblock_reserved_size(&mb), 0x2000); /* unchanged */
	mb.retired = true;
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x1000, 0x1000), 0);
}

static void memblock_full_region_array_returns_error(struct kunit *test)
{
	unsigned long i;

	for (i = 0; i < MEMBLOCK_MAX_REGIONS; i++)
		KUNIT_ASSERT_EQ(test, memblock_add(&mb, i * 0x10000, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, memblock_add(&mb, i * 0x10000, 0x1000), -1);
	KUNIT_EXPECT_EQ(test, mb.memory.cnt, MEMBLOCK_MAX_REGIONS);
	/* Growing an existing region or splitting one needs no new slot... */
	KUNIT_EXPECT_EQ(test, memblock_add(&mb, 0x1000, 0x1000), 0);
	KUNIT_EXPECT_EQ(test, mb.memory.regions[0].size, 0x2000);
	/* ...but cutting a hole in one does, and is refused untouched. */
	KUNIT_EXPECT_EQ(test, memblock_remove(&mb, 0x800, 0x100), -1);
	KUNIT_EXPECT_EQ(test, mb.memory.regions[0].size, 0x2000);
	KUNIT_EXPECT_EQ(test, memblock_phys_mem_size(&mb),
			MEMBLOCK_MAX_REGIONS * 0x1000ul + 0x1000);
}

static void memblock_free_ranges_are_exact_and_ascending(struct kunit *test)
{
	static const phys_addr_t want[][2] = {
		{ 0x1000, 0x2000 },	{ 0x3000, 0x8000 },	{ 0x9000, 0xa000 },
		{ 0x100000, 0x180000 }, { 0x1c0000, 0x200000 }, { 0x100000000ull, 0x140000000ull },
	};
	phys_addr_t start, end;
	unsigned long idx = 0, n = 0;

	memblock_add(&mb, 0x100000000ull, 0x40000000ull);
	memblock_add(&mb, 0x100000, 0x100000);
	memblock_add(&mb, 0x1000, 0x9000);
	memblock_reserve(&mb, 0x2000, 0x1000);	  /* inside region 0 */
	memblock_reserve(&mb, 0x8000, 0x1000);	  /* inside region 0 */
	memblock_reserve(&mb, 0xa000, 0x20000);	  /* in the hole after it */
	memblock_reserve(&mb, 0x180000, 0x40000); /* inside region 1 */
	while (memblock_next_free_range(&mb, &idx, &start, &end)) {
		KUNIT_ASSERT_LT(test, n, ARRAY_SIZE(want));
		KUNIT_EXPECT_EQ(test, start, want[n][0]);
		KUNIT_EXPECT_EQ(test, end, want[n][1]);
		n++;
	}
	KUNIT_EXPECT_EQ(test, n, ARRAY_SIZE(want));
	KUNIT_EXPECT_FALSE(test, memblock_next_free_range(&mb, &idx, &start, &end));
}

static void memblock_fully_reserved_memory_has_no_free_range(struct kunit *test)
{
	phys_addr_t start, end;
	unsigned long idx = 0;

	memblock_add(&mb, 0x1000, 0x3000);
	memblock_reserve(&mb, 0x0, 0x10000);
	KUNIT_EXPECT_FALSE(test, memblock_next_free_range(&mb, &idx, &start, &end));
	KUNIT_EXPECT_EQ(test, memblock_phys_alloc(&mb, 0x1000, 0x1000), 0);
}

static struct kunit_case memblock_cases[] = {
	KUNIT_CASE(memblock_sorts_unsorted_firmware_entries),
	KUNIT_CASE(memblock_merges_adjacent_entries),
	KUNIT_CASE(memblock_merges_overlapping_entries_into_one),
	KUNIT_CASE(memblock_keeps_tiny_regions_and_large_holes),
	KUNIT_CASE(memblock_reserve_may_straddle_the_edges_of_memory),
	KUNIT_CASE(memblock_remove_splits_a_region),
	KUNIT_CASE(memblock_alloc_is_top_down_and_reserves),
	KUNIT_CASE(memblock_alloc_honours_alignment),
	KUNIT_CASE(memblock_alloc_stays_in_range_and_below_limit),
	KUNIT_CASE(memblock_alloc_failure_returns_zero),
	KUNIT_CASE(memblock_full_region_array_returns_error),
	KUNIT_CASE(memblock_free_ranges_are_exact_and_ascending),
	KUNIT_CASE(memblock_fully_reserved_memory_has_no_free_range),
	{},
};

static struct kunit_suite memblock_suite = {
	.name = "memblock",
	.init = memblock_test_init,
	.test_cases = memblock_cases,
};
kunit_test_suite(memblock_suite);
