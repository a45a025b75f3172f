/*
 * Offlining and onlining on a private node of four max-order blocks, as
 * the tests' memory is taken from node 0: the node's top or bottom block
 * leaves the zone's and node's span with the free memory beyond it,
 * reserved "firmware" pages stay reserved, movable folios migrate out,
 * an unmovable page pins its edge and a refusal changes nothing; online
 * gives every page back whatever the owner wrote over the block's struct
 * pages. buddy_check() runs after every step.
 */
#include <ktest.h>
#include "../internal.h"
#include "mm_test_util.h"

#define BLOCK MAX_ORDER_NR_PAGES
#define NODE_PAGES (4 * BLOCK)

static struct pglist_data *node;
static unsigned long base; /* the node's first pfn, aligned to BLOCK */
static migrate_folio_fn saved_hook;

static int hotplug_test_init(struct kunit *test)
{
	saved_hook = set_migrate_folio_hook(NULL);
	node = test_node_create(test, NODE_PAGES);
	base = node ? node->node_start_pfn : 0;
	return 0;
}

static void hotplug_test_exit(struct kunit *test)
{
	set_migrate_folio_hook(saved_hook);
	test_node_destroy(node);
	node = NULL;
}

static struct zone *zone0(void)
{
	return &node->node_zones[page_zonenum(pfn_to_page(base))];
}

/* Make [s, e) reserved as firmware leaves it: never the allocator's. */
static void reserve_pages(unsigned long s, unsigned long e)
{
	take_free_pfn_range(s, e);
	for (unsigned long pfn = s; pfn < e; pfn++) {
		pfn_to_page(pfn)->_refcount = 0;
		SetPageFlag(pfn_to_page(pfn), PG_reserved);
	}
	zone0()->managed_pages -= e - s;
	zone0()->present_pages -= e - s;
}

/* What the node looks like, to compare before offline and after online. */
struct node_state {
	unsigned long zone_start, spanned, managed, free, node_start, node_spanned;
};

static void node_state(struct node_state *st)
{
	drain_node_pages(node);
	st->zone_start = zone0()->zone_start_pfn;
	st->spanned = zone0()->spanned_pages;
	st->managed = zone0()->managed_pages;
	st->free = node_free_pages(node);
	st->node_start = node->node_start_pfn;
	st->node_spanned = node->node_spanned_pages;
}

static void expect_node_state(struct kunit *test, const struct node_state *want)
{
	struct node_state now;

	node_state(&now);
	KUNIT_EXPECT_EQ(test, now.zone_start, want->zone_start);
	KUNIT_EXPECT_EQ(test, now.spanned, want->spanned);
	KUNIT_EXPECT_EQ(test, now.managed, want->managed);
	KUNIT_EXPECT_EQ(test, now.free, want->free);
	KUNIT_EXPECT_EQ(test, now.node_start, want->node_start);
	KUNIT_EXPECT_EQ(test, now.node_spanned, want->node_spanned);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

/* Top block 3 holds a reserved page and the top 8 are firmware, so the
 * top candidate is block 2 with block 3's free pages beyond it; a
 * reserved page in block 0 makes the bottom candidate block 1 with all
 * of block 0 beyond it. The top strands fewer pages and wins. */
static void offline_edge_block_takes_the_edge_with_less_memory_beyond_it(struct kunit *test)
{
	unsigned long top = base + NODE_PAGES, managed;
	struct node_state before;
	struct edge_block b;

	reserve_pages(top - 8, top);
	reserve_pages(top - BLOCK + 5, top - BLOCK + 6);
	reserve_pages(base + 3, base + 4);
	node_state(&before);
	KUNIT_ASSERT_EQ(test, offline_edge_block(node, BLOCK, &b), 0);
	KUNIT_EXPECT_TRUE(test, b.top);
	KUNIT_EXPECT_EQ(test, b.start_pfn, base + 2 * BLOCK);
	KUNIT_EXPECT_EQ(test, b.region_start, base + 2 * BLOCK);
	KUNIT_EXPECT_EQ(test, b.region_end, top);
	KUNIT_EXPECT_EQ(test, b.nr_offline, 2 * BLOCK - 9);
	/* The zone and the node end at the block; the rest is gone. */
	KUNIT_EXPECT_EQ(test, zone0()->zone_start_pfn, base);
	KUNIT_EXPECT_EQ(test, zone0()->spanned_pages, 2 * BLOCK);
	KUNIT_EXPECT_EQ(test, node->node_spanned_pages, 2 * BLOCK);
	managed = zone0()->managed_pages;
	KUNIT_EXPECT_EQ(test, managed, before.managed - b.nr_offline);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), before.free - b.nr_offline);
	KUNIT_EXPECT_TRUE(test, PageFlag(pfn_to_page(b.start_pfn), PG_offline));
	KUNIT_EXPECT_TRUE(test, PageFlag(pfn_to_page(top - 1), PG_reserved));
	KUNIT_EXPECT_FALSE(test, PageFlag(pfn_to_page(top - 1), PG_offline));
	KUNIT_EXPECT_BUDDY_OK(test, node);
	/* The owner rebuilds the block's struct pages as it likes. */
	memset(pfn_to_page(b.start_pfn), 0x5a, b.nr_pages * sizeof(struct page));
	online_edge_block(&b);
	expect_node_state(test, &before);
	KUNIT_EXPECT_TRUE(test, PageFlag(pfn_to_page(top - 1), PG_reserved));
	KUNIT_EXPECT_FALSE(test, PageFlag(pfn_to_page(b.start_pfn), PG_offline));
	KUNIT_EXPECT_FALSE(test, PageFlag(pfn_to_page(top - BLOCK), PG_offline));
}

/* The bottom block goes: the zone starts after it, and every pageblock
 * left keeps its type (the flags do not move with the zone's start; at
 * pageblock_order == MAX_PAGE_ORDER that is an odd number of entries). */
static void offline_bottom_block_keeps_every_pageblock_type(struct kunit *test)
{
	unsigned long top = base + NODE_PAGES;
	struct node_state before;
	struct edge_block b;
	struct page *page;

	/* The top candidate is block 2, with block 3 beyond it; block 0
	 * strands nothing and wins. */
	reserve_pages(top - 1, top);
	/* An unmovable allocation claims a pageblock above block 0. */
	page = alloc_pages_node(node->node_id, GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_GE(test, page_to_pfn(page), base + BLOCK);
	KUNIT_ASSERT_EQ(test, get_pageblock_migratetype(page), MIGRATE_UNMOVABLE);
	node_state(&before);
	KUNIT_ASSERT_EQ(test, offline_edge_block(node, BLOCK, &b), 0);
	KUNIT_EXPECT_FALSE(test, b.top);
	KUNIT_EXPECT_EQ(test, b.start_pfn, base);
	KUNIT_EXPECT_EQ(test, zone0()->zone_start_pfn, base + BLOCK);
	KUNIT_EXPECT_EQ(test, node->node_start_pfn, base + BLOCK);
	KUNIT_EXPECT_EQ(test, node->node_spanned_pages, 3 * BLOCK);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_UNMOVABLE);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(pfn_to_page(base + BLOCK)),
			MIGRATE_MOVABLE);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	online_edge_block(&b);
	expect_node_state(test, &before);
	KUNIT_EXPECT_EQ(test, get_pageblock_migratetype(page), MIGRATE_UNMOVABLE);
	__free_pages(page, 0);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

/* What the anonymous-memory code does: copy, take over dst, let src go. */
static int copying_migrate_hook(struct folio *dst, struct folio *src)
{
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	folio_set_anon(dst);
	folio_clear_anon(src);
	return 0;
}

/* An anonymous order-2 folio at pfn, filled with 0x3c. */
static struct folio *anon_folio_at(unsigned long pfn)
{
	struct page *page = pfn_to_page(pfn);

	if (take_free_pfn_range(pfn, pfn + 4) != 4)
		return NULL;
	for (int i = 1; i < 4; i++)
		page[i]._refcount = 0;
	prep_compound_page(page, 2);
	folio_set_anon(page_folio(page));
	memset(page_address(page), 0x3c, 4 * PAGE_SIZE);
	return page_folio(page);
}

static void offline_pages_migrates_movable_folios_out(struct kunit *test)
{
	unsigned long start = base + 3 * BLOCK;
	struct folio *folio = anon_folio_at(start + 8), *moved = NULL;
	struct node_state before;

	KUNIT_ASSERT_NOT_NULL(test, folio);
	node_state(&before);
	set_migrate_folio_hook(copying_migrate_hook);
	KUNIT_ASSERT_EQ(test, offline_pages(start, BLOCK, zone0()), 0);
	KUNIT_EXPECT_EQ(test, node->vm_events[PGMIGRATE_SUCCESS], 4);
	KUNIT_EXPECT_EQ(test, zone0()->spanned_pages, 3 * BLOCK);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	/* The copy is the node's only other in-use folio. */
	for (unsigned long pfn = base; pfn < start && !moved; pfn++)
		if (PageHead(pfn_to_page(pfn)))
			moved = page_folio(pfn_to_page(pfn));
	KUNIT_ASSERT_NOT_NULL(test, moved);
	KUNIT_EXPECT_EQ(test, folio_order(moved), 2);
	KUNIT_EXPECT_EQ(test, ((unsigned char *)folio_address(moved))[4 * PAGE_SIZE - 1], 0x3c);
	/* Online frees the old folio's pages with the rest of the block. */
	KUNIT_EXPECT_EQ(test, online_pages(start, BLOCK, zone0()), 0);
	expect_node_state(test, &before);
	folio_put(moved);
	KUNIT_EXPECT_EQ(test, node_free_pages(node), before.free + 4);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

/* An unmovable page pins its edge: offline fails and changes nothing. */
static void offline_pages_refuses_an_unmovable_page_and_changes_nothing(struct kunit *test)
{
	unsigned long start = base + 3 * BLOCK;
	struct node_state before;
	struct edge_block b;

	KUNIT_ASSERT_EQ(test, take_free_pfn_range(start + 1, start + 2), 1);
	KUNIT_ASSERT_EQ(test, take_free_pfn_range(base + BLOCK - 1, base + BLOCK), 1);
	node_state(&before);
	KUNIT_EXPECT_EQ(test, offline_pages(start, BLOCK, zone0()), -EBUSY);
	expect_node_state(test, &before);
	for (unsigned long pfn = start; pfn < start + BLOCK; pfn += pageblock_nr_pages)
		KUNIT_EXPECT_FALSE(test, get_pageblock_isolate(pfn_to_page(pfn)));
	/* Both edges pinned: the node keeps everything. */
	KUNIT_EXPECT_EQ(test, offline_edge_block(node, BLOCK, &b), -EBUSY);
	expect_node_state(test, &before);
	__free_pages(pfn_to_page(start + 1), 0);
	__free_pages(pfn_to_page(base + BLOCK - 1), 0);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

static void offline_and_online_refuse_ranges_off_the_zone_edges(struct kunit *test)
{
	struct node_state before;
	struct edge_block b;

	node_state(&before);
	KUNIT_EXPECT_EQ(test, offline_pages(base + BLOCK, BLOCK, zone0()), -EINVAL);
	KUNIT_EXPECT_EQ(test, offline_pages(base, NODE_PAGES + 1, zone0()), -EINVAL);
	KUNIT_EXPECT_EQ(test, offline_pages(base, 0, zone0()), -EINVAL);
	KUNIT_EXPECT_EQ(test, online_pages(base + BLOCK, BLOCK, zone0()), -EINVAL);
	expect_node_state(test, &before);
	/* A reserved page in every block: there is no block to take. */
	for (unsigned long pfn = base; pfn < base + NODE_PAGES; pfn += BLOCK)
		reserve_pages(pfn + BLOCK / 2, pfn + BLOCK / 2 + 1);
	KUNIT_EXPECT_EQ(test, offline_edge_block(node, BLOCK, &b), -ENOSPC);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

static void test_memory_size_follows_the_ram_rules(struct kunit *test)
{
	phys_addr_t blocks = 4 * (PAGE_SIZE << MAX_PAGE_ORDER);

	KUNIT_EXPECT_EQ(test, test_memory_size(64 * MIB), 0);
	KUNIT_EXPECT_EQ(test, test_memory_size(96 * MIB - PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, test_memory_size(96 * MIB), MAX(16 * MIB, blocks));
	KUNIT_EXPECT_EQ(test, test_memory_size(383 * MIB), MAX(16 * MIB, blocks));
	KUNIT_EXPECT_EQ(test, test_memory_size(384 * MIB), MAX(32 * MIB, blocks));
	KUNIT_EXPECT_EQ(test, test_memory_size(768 * MIB), MAX(64 * MIB, blocks));
	KUNIT_EXPECT_EQ(test, test_memory_size(6 * GIB), MAX(64 * MIB, blocks));
}

static struct kunit_case memory_hotplug_test_cases[] = {
	KUNIT_CASE(offline_edge_block_takes_the_edge_with_less_memory_beyond_it),
	KUNIT_CASE(offline_bottom_block_keeps_every_pageblock_type),
	KUNIT_CASE(offline_pages_migrates_movable_folios_out),
	KUNIT_CASE(offline_pages_refuses_an_unmovable_page_and_changes_nothing),
	KUNIT_CASE(offline_and_online_refuse_ranges_off_the_zone_edges),
	{},
};

static struct kunit_suite memory_hotplug_test_suite = {
	.name = "memory_hotplug",
	.init = hotplug_test_init,
	.exit = hotplug_test_exit,
	.test_cases = memory_hotplug_test_cases,
};
kunit_test_suite(memory_hotplug_test_suite);

static struct kunit_case test_memory_test_cases[] = {
	KUNIT_CASE(test_memory_size_follows_the_ram_rules),
	{},
};

static struct kunit_suite test_memory_test_suite = {
	.name = "test_memory",
	.test_cases = test_memory_test_cases,
};
kunit_test_suite(test_memory_test_suite);
