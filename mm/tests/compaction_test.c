/*
 * Compaction on a private node fragmented by design: a test mm faults
 * anonymous folios over the whole node, then keeps only the lowest folio
 * of every 2 MiB region (a "kept" folio, filled with a byte of its own),
 * so most memory is free but no order-9 block is. The cases prove the
 * stop rule and a full pass, that every migrated folio keeps its data
 * and mapping (read back through the mapping; its PTEs map the new
 * pfns), 64K folios moving whole, unmovable pages never isolated, CMA
 * and isolated pageblocks under Linux's rules, skip hints, and direct
 * compaction from the allocator's slow path with its counters and
 * limits. buddy_check() runs after every step. Accesses go through
 * copy_to_user & co.: real page tables in the kernel, the software MMU on
 * the host. Addresses: A = 1 GiB, aligned for every order.
 */
#include <compaction.h>
#include <ktest.h>
#include <shell.h>
#include <vm.h>
#include "../internal.h"
#include "mm_test_util.h"

#define A 0x40000000ul
#define RW (VM_READ | VM_WRITE)
#define REGION HPAGE_PMD_NR /* pages in 2 MiB: one order-9 block */
/* 16 MiB at the default orders; eight pageblocks at least, so the two
 * scanners have room between them when pageblocks are larger than 2 MiB. */
#define NODE_PAGES MAX(4 * MAX_ORDER_NR_PAGES, 8 * pageblock_nr_pages)
#define MAX_KEPT (NODE_PAGES / REGION)

static struct pglist_data *node;
static struct mm_struct *mm, *prev_mm;
static unsigned long saved_orders, free_at_start;
static enum thp_defrag saved_defrag;
static migrate_folio_fn saved_hook;

/* A folio fragment() kept: where it is mapped, where it was, its data. */
static struct kept {
	unsigned long addr, pfn;
	unsigned int order;
	uint8_t byte;
} kept[MAX_KEPT];
static unsigned int nr_kept;

static int compaction_test_init(struct kunit *test)
{
	nr_kept = 0;
	/* Saved first: exit restores them even when the node is missing. */
	saved_orders = thp_orders_enabled;
	saved_defrag = thp_defrag_mode;
	saved_hook = set_migrate_folio_hook(anon_migrate_folio);
	node = test_node_create(test, NODE_PAGES);
	if (!node)
		return 0;
	free_at_start = node_free_pages(node);
	prev_mm = current_mm;
	mm = mm_create(node->node_id);
	if (mm)
		switch_mm(mm);
	return mm ? 0 : -1;
}

static void compaction_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	thp_defrag_mode = saved_defrag;
	set_migrate_folio_hook(saved_hook);
	if (mm) {
		switch_mm(prev_mm);
		mm_destroy(mm);
		drain_node_pages(node);
		KUNIT_EXPECT_EQ(test, node_free_pages(node), free_at_start);
		KUNIT_EXPECT_BUDDY_OK(test, node);
	}
	if (node)
		test_node_destroy(node);
	mm = NULL;
	node = NULL;
}

static struct zone *test_zone(void)
{
	return page_zone(pfn_to_page(node->node_start_pfn));
}

static unsigned long nr_regions(void)
{
	return node->node_spanned_pages / REGION;
}

static unsigned long region_start(unsigned long r)
{
	return node->node_start_pfn + r * REGION;
}

/* 2 MiB regions that are one free block now. */
static unsigned long free_regions(void)
{
	unsigned long n = 0;

	for (unsigned long r = 0; r < nr_regions(); r++)
		n += pfn_free_span(region_start(r)) >= REGION;
	return n;
}

/* Return: whether [pfn, end) holds an in-use page that is no LRU
 * folio's, which compaction cannot move. */
static bool area_has_unmovable(unsigned long pfn, unsigned long end)
{
	while (pfn < end) {
		unsigned long span = pfn_free_span(pfn);
		struct folio *folio = page_folio(pfn_to_page(pfn));

		if (!span && !folio_test_lru(folio))
			return true;
		pfn = span ? pfn + span : folio_pfn(folio) + folio_nr_pages(folio);
	}
	return false;
}

/* Regions compaction cannot empty. */
static unsigned long unmovable_regions(void)
{
	unsigned long n = 0;

	for (unsigned long r = 0; r < nr_regions(); r++)
		n += area_has_unmovable(region_start(r), region_start(r) + REGION);
	return n;
}

/* Pages of free blocks of at least order (all lists). */
static unsigned long free_blocks_of(unsigned int order)
{
	unsigned long n = 0;

	for (unsigned int o = order; o < NR_PAGE_ORDERS; o++)
		n += test_zone()->free_area[o].nr_free << (o - order);
	return n;
}

/* Fault folios of 2^order pages over A until the node is down to its high
 * watermark (so what stays free is less than 2 MiB), then zap all but the
 * lowest folio of each region and fill the kept ones with bytes of their
 * own. */
static void fragment(struct kunit *test, unsigned int order)
{
	unsigned long size = PAGE_SIZE << order, len = node->node_spanned_pages * PAGE_SIZE;
	unsigned long stop = test_zone()->_watermark[WMARK_HIGH] + (1ul << order) + 32;
	struct kept *lowest[MAX_KEPT] = { NULL };
	unsigned long end = A;

	thp_orders_enabled = order ? 1ul << order : 0;
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, A, len, RW, 0), A);
	for (; end < A + len && node_free_pages(node) > stop; end += size)
		KUNIT_ASSERT_EQ(test, fill_user(end, 0x11, size), 0);
	for (unsigned long addr = A; addr < end; addr += size) {
		struct folio *folio = test_mapped_folio(mm, addr);
		unsigned long r = (folio_pfn(folio) - node->node_start_pfn) / REGION;

		if (lowest[r] && lowest[r]->pfn < folio_pfn(folio))
			continue;
		if (!lowest[r])
			lowest[r] = &kept[nr_kept++];
		*lowest[r] = (struct kept){ addr, folio_pfn(folio), folio_order(folio), 0 };
	}
	for (unsigned long addr = A; addr < end; addr += size) {
		bool keep = false;

		for (unsigned int i = 0; i < nr_kept; i++)
			keep |= kept[i].addr == addr;
		if (!keep)
			KUNIT_ASSERT_EQ(test, zap_page_range(mm, addr, addr + size), 0);
	}
	for (unsigned int i = 0; i < nr_kept; i++) {
		kept[i].byte = (uint8_t)(0x40 + i);
		KUNIT_ASSERT_EQ(test, fill_user(kept[i].addr, kept[i].byte, size), 0);
	}
	drain_node_pages(node);
	KUNIT_EXPECT_EQ(test, free_blocks_of(HPAGE_PMD_ORDER), 0);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

/* Every kept folio reads back its byte through its mapping, is still an
 * anon LRU folio of its order owned by mm at its address, naturally
 * aligned, and its PTEs map its pages in order; a moved one sits in a
 * MOVABLE or CMA pageblock. Return: pages moved. */
static unsigned long check_kept(struct kunit *test)
{
	unsigned long moved = 0;

	for (unsigned int i = 0; i < nr_kept; i++) {
		struct kept *k = &kept[i];
		struct folio *folio = test_mapped_folio(mm, k->addr);
		pte_t *pte = mm_find_pte(mm, k->addr);
		int mt;

		KUNIT_EXPECT_TRUE(test, test_reads_as(k->addr, PAGE_SIZE << k->order, k->byte));
		if (!folio || !pte) {
			KUNIT_EXPECT_NOT_NULL(test, folio);
			continue;
		}
		KUNIT_EXPECT_EQ(test, folio_order(folio), k->order);
		KUNIT_EXPECT_TRUE(test, folio_anon_vma(folio) == find_vma(mm, k->addr)->anon_vma &&
						folio_test_lru(folio));
		KUNIT_EXPECT_EQ(test, vma_address(find_vma(mm, k->addr), folio->page.index),
				k->addr);
		KUNIT_EXPECT_EQ(test, folio_pfn(folio) & ((1ul << k->order) - 1), 0);
		for (unsigned long n = 0; n < (1ul << k->order); n++)
			KUNIT_EXPECT_EQ(test, pte_pfn(pte[n]), folio_pfn(folio) + n);
		if (folio_pfn(folio) == k->pfn)
			continue;
		moved += 1ul << k->order;
		/* Destinations come from MOVABLE and CMA pageblocks only. */
		mt = get_pageblock_migratetype(&folio->page);
		KUNIT_EXPECT_TRUE(test, mt == MIGRATE_MOVABLE || mt == MIGRATE_CMA);
	}
	return moved;
}

static unsigned long kept_pages(void)
{
	unsigned long n = 0;

	for (unsigned int i = 0; i < nr_kept; i++)
		n += 1ul << kept[i].order;
	return n;
}

static unsigned long kept_pfn_now(const struct kept *k)
{
	struct folio *folio = test_mapped_folio(mm, k->addr);

	return folio ? folio_pfn(folio) : 0;
}

/* Zap the kept folios whose pageblock is not MOVABLE: the rest sit where
 * an async pass for a movable request may take them, and nowhere else. */
static void keep_only_movable_blocks(struct kunit *test)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < nr_kept; i++) {
		struct kept *k = &kept[i];

		if (get_pageblock_migratetype(pfn_to_page(k->pfn)) == MIGRATE_MOVABLE) {
			kept[n++] = *k;
			continue;
		}
		KUNIT_EXPECT_EQ(test,
				zap_page_range(mm, k->addr, k->addr + (PAGE_SIZE << k->order)), 0);
	}
	nr_kept = n;
	drain_node_pages(node);
}

/* Free pages in the pageblock holding pfn. */
static unsigned long pageblock_free_pages(unsigned long pfn)
{
	unsigned long start = pageblock_start_pfn(pfn), end = start + pageblock_nr_pages, n = 0;

	for (pfn = start; pfn < end;) {
		unsigned long span = pfn_free_span(pfn);

		n += MIN(span, end - pfn);
		pfn += span ? span : 1;
	}
	return n;
}

/* Return: whether no pageblock of the node has a skip hint. */
static bool no_skip_hints(void)
{
	for (unsigned long pfn = node->node_start_pfn; pfn < node->node_start_pfn + NODE_PAGES;
	     pfn += pageblock_nr_pages)
		if (get_pageblock_skip(pfn_to_page(pfn)))
			return false;
	return true;
}

/* Re-type the pageblock of pfn as an unmovable or reclaimable allocation
 * falling back into it would claim it (Linux: try_to_claim_block): the
 * block and its free pages. */
static void claim_pageblock(unsigned long pfn, int mt)
{
	struct page *page = pfn_to_page(pageblock_start_pfn(pfn));

	set_pageblock_migratetype(page, mt);
	move_freepages_block(test_zone(), page, mt);
}

/* Kernel pages (GFP_KERNEL: unmovable, no LRU) until the node is down to
 * its high watermark; the lowest of each region is kept in keep[region]
 * and filled with 0x60 + region, the others freed. Return: pages kept. */
static unsigned int fragment_unmovable(struct kunit *test, struct page **keep)
{
	unsigned long stop = test_zone()->_watermark[WMARK_HIGH] + 32;
	struct page *page, *next;
	unsigned int n = 0;
	struct list_head rest = LIST_HEAD_INIT(rest);

	while (node_free_pages(node) > stop &&
	       (page = alloc_pages_node(node->node_id, GFP_KERNEL | __GFP_NOWARN, 0))) {
		unsigned long r = (page_to_pfn(page) - node->node_start_pfn) / REGION;
		struct page *other = page;

		if (!keep[r] || page_to_pfn(page) < page_to_pfn(keep[r])) {
			other = keep[r];
			keep[r] = page;
		}
		if (other)
			list_add(&other->lru, &rest);
	}
	list_for_each_entry_safe(page, next, &rest, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
	}
	for (unsigned long r = 0; r < nr_regions(); r++)
		if (keep[r]) {
			memset(page_address(keep[r]), 0x60 + (int)r, PAGE_SIZE);
			n++;
		}
	drain_node_pages(node);
	KUNIT_EXPECT_EQ(test, free_blocks_of(HPAGE_PMD_ORDER), 0);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	return n;
}

static void free_unmovable(struct page **keep)
{
	for (unsigned long r = 0; r < nr_regions(); r++)
		if (keep[r])
			__free_pages(keep[r], 0);
}

/* Take every free order-9 block (no reclaim, so no direct compaction). */
static void hold_free_blocks(struct list_head *held)
{
	struct page *page;

	while ((page = alloc_pages_node(node->node_id, __GFP_NOWARN, HPAGE_PMD_ORDER)))
		list_add(&page->lru, held);
}

static void release_held(struct list_head *held)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, held, lru) {
		list_del(&page->lru);
		__free_pages(page, HPAGE_PMD_ORDER);
	}
}

/* --- the stop rule and a full pass ---------------------------------------------- */

static void compaction_stops_once_an_order9_block_is_free(struct kunit *test)
{
	unsigned long migrated0 = node->vm_events[PGMIGRATE_SUCCESS];
	struct compact_stats st = { 0 };

	fragment(test, 0);
	KUNIT_ASSERT_GE(test, nr_kept, 4);
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_SUCCESS);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_GE(test, free_blocks_of(HPAGE_PMD_ORDER), 1);
	/* Stopped early: most kept pages never moved. */
	KUNIT_EXPECT_GE(test, st.migrated, 1);
	KUNIT_EXPECT_LT(test, st.migrated, kept_pages() / 2);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
	KUNIT_EXPECT_EQ(test, st.failed, 0);
	KUNIT_EXPECT_EQ(test, node->vm_events[PGMIGRATE_SUCCESS] - migrated0, st.migrated);
	/* Asked again, the block is there: nothing to do. */
	st = (struct compact_stats){ 0 };
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_SUCCESS);
	KUNIT_EXPECT_EQ(test, st.migrate_scanned, 0);
}

/* Linux's __fragmentation_index on free-block counts set by hand:
 * nothing free is 0; a free block of the order is -1000; 512 single
 * pages for order 9 is 1000 - (1000 + 1000) / 512 = 997 (fragmentation);
 * two order-8 blocks is 1000 - (1000 + 1000) / 2 = 0 (lack of memory, in
 * the formula's eyes). */
static void fragmentation_index_follows_linux(struct kunit *test)
{
	static struct zone z; /* only free_area is read */

	memset(&z, 0, sizeof(z));
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, HPAGE_PMD_ORDER), 0);
	z.free_area[0].nr_free = 512;
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, HPAGE_PMD_ORDER), 997);
	z.free_area[0].nr_free = 0;
	z.free_area[8].nr_free = 2;
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, HPAGE_PMD_ORDER), 0);
	z.free_area[HPAGE_PMD_ORDER].nr_free = 1;
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, HPAGE_PMD_ORDER), -1000);
	KUNIT_EXPECT_EQ(test, fragmentation_index(&z, 0), -1000);
}

/* vm.extfrag_threshold: at 1000 no failure counts as fragmentation, so a
 * costly order is not compacted (COMPACT_SKIPPED, nothing scanned); at
 * the default 500 the same fragmented zone is compacted. */
static void extfrag_threshold_decides_costly_compaction(struct kunit *test)
{
	int saved = sysctl_extfrag_threshold;
	struct compact_stats st = { 0 };
	int index;

	fragment(test, 0);
	KUNIT_ASSERT_GE(test, nr_kept, 4);
	index = fragmentation_index(test_zone(), HPAGE_PMD_ORDER);
	KUNIT_EXPECT_GT(test, index, 500);
	sysctl_extfrag_threshold = 1000;
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_SKIPPED);
	KUNIT_EXPECT_EQ(test, st.migrate_scanned, 0);
	sysctl_extfrag_threshold = index - 1;
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_SUCCESS);
	sysctl_extfrag_threshold = saved;
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
}

/*
 * compact_node (compact_memory's pass): the scanners meet. When one
 * pageblock has room for every kept page, every region empties but the
 * target pageblock's and, at most, the last source pageblock's: its
 * folios were isolated when the free scanner's pageblock was the next
 * one up, which then is no longer a target (Linux's low_pfn rule in
 * isolate_freepages). With pageblocks of a few pages, each target takes
 * one or two: at least half of the regions without unmovable pages.
 */
static void compact_node_empties_regions_and_counts(struct kunit *test)
{
	unsigned long per_block = MAX(1ul, pageblock_nr_pages / REGION), movable, want;
	struct compact_stats st = { 0 };

	fragment(test, 0);
	movable = nr_regions() - unmovable_regions();
	compact_node(node, &st);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	want = pageblock_nr_pages > 2 * kept_pages() ? movable - 2 * per_block : movable / 2;
	KUNIT_EXPECT_GE(test, free_regions(), want);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
	KUNIT_EXPECT_LE(test, st.failed, per_block);
	KUNIT_EXPECT_GE(test, st.isolated, 2 * st.migrated); /* sources and targets */
	KUNIT_EXPECT_EQ(test, node->vm_events[COMPACTMIGRATE_SCANNED], st.migrate_scanned);
	KUNIT_EXPECT_EQ(test, node->vm_events[COMPACTFREE_SCANNED], st.free_scanned);
	KUNIT_EXPECT_EQ(test, node->vm_events[COMPACTISOLATED], st.isolated);
	KUNIT_EXPECT_EQ(test, node->vm_events[COMPACTSTALL], 0); /* no allocation stalled */
	KUNIT_EXPECT_TRUE(test, no_skip_hints());		 /* the scanners met */
}

/* vm.compact_unevictable_allowed 0: mlocked folios stay where they are
 * (Linux: no ISOLATE_UNEVICTABLE), so a full pass migrates nothing when
 * every kept folio is mlocked; allowed again, they move. */
static void unevictable_folios_move_only_when_allowed(struct kunit *test)
{
	int saved = sysctl_compact_unevictable_allowed;
	struct compact_stats st = { 0 };

	fragment(test, 0);
	KUNIT_ASSERT_GE(test, nr_kept, 4);
	for (unsigned int i = 0; i < nr_kept; i++)
		mlock_folio(test_mapped_folio(mm, kept[i].addr));
	sysctl_compact_unevictable_allowed = 0;
	compact_node(node, &st);
	KUNIT_EXPECT_EQ(test, st.migrated, 0);
	KUNIT_EXPECT_EQ(test, check_kept(test), 0);
	sysctl_compact_unevictable_allowed = 1;
	st = (struct compact_stats){ 0 };
	compact_node(node, &st);
	KUNIT_EXPECT_GT(test, st.migrated, 0);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
	sysctl_compact_unevictable_allowed = saved;
	for (unsigned int i = 0; i < nr_kept; i++)
		munlock_folio(test_mapped_folio(mm, kept[i].addr));
}

/* 64K folios move as one: same order, naturally aligned, 16 PTEs in a row
 * (check_kept), the destination an isolated block of order 4 or a piece
 * of a larger one. */
static void large_folios_migrate_whole(struct kunit *test)
{
	struct compact_stats st = { 0 };
	unsigned int large = 0;

	if (test_skip_without_thp(test))
		return;
	if (pageblock_order <= 4) {
		kunit_mark_skipped(test, "64K folios are pageblock-sized here: never migrated");
		return;
	}
	fragment(test, 4);
	for (unsigned int i = 0; i < nr_kept; i++)
		large += kept[i].order == 4;
	KUNIT_ASSERT_GE(test, large, 2);
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_SUCCESS);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_GE(test, st.migrated, 16);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
	KUNIT_EXPECT_EQ(test, st.failed, 0);
}

/* --- what may move, and where to --------------------------------------------- */

static void unmovable_pages_are_never_isolated(struct kunit *test)
{
	struct page *keep[MAX_KEPT] = { NULL };
	struct compact_stats st = { 0 };

	KUNIT_ASSERT_GE(test, fragment_unmovable(test, keep), 2);
	/* Every pageblock yields nothing and gets a hint; the scanners meet
	 * and clear them all. */
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, &st),
			COMPACT_COMPLETE);
	KUNIT_EXPECT_TRUE(test, no_skip_hints());
	compact_node(node, &st);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_EQ(test, st.isolated, 0);
	KUNIT_EXPECT_EQ(test, st.migrated + st.failed, 0);
	KUNIT_EXPECT_EQ(test, free_blocks_of(HPAGE_PMD_ORDER), 0);
	for (unsigned long r = 0; r < nr_regions(); r++) {
		const uint8_t *p = keep[r] ? page_address(keep[r]) : NULL;

		if (!p)
			continue;
		KUNIT_EXPECT_EQ(test, page_count(keep[r]), 1);
		KUNIT_EXPECT_TRUE(test, p[0] == 0x60 + r && p[PAGE_SIZE - 1] == 0x60 + r);
	}
	free_unmovable(keep);
}

/* Free pages are taken from MOVABLE and CMA pageblocks only: the highest
 * kept folio's pageblock claimed UNMOVABLE and the next one's
 * RECLAIMABLE receive nothing (check_kept checks every destination). */
static void unmovable_and_reclaimable_pageblocks_are_not_targets(struct kunit *test)
{
	struct kept *t[2] = { NULL, NULL };
	struct compact_stats st = { 0 };
	unsigned long free[2];

	fragment(test, 0);
	for (unsigned int i = 0; i < nr_kept; i++)
		if (!t[0] || kept[i].pfn > t[0]->pfn)
			t[0] = &kept[i];
	for (unsigned int i = 0; i < nr_kept; i++)
		if (pageblock_start_pfn(kept[i].pfn) != pageblock_start_pfn(t[0]->pfn) &&
		    (!t[1] || kept[i].pfn > t[1]->pfn))
			t[1] = &kept[i];
	KUNIT_ASSERT_NOT_NULL(test, t[1]);
	claim_pageblock(t[0]->pfn, MIGRATE_UNMOVABLE);
	claim_pageblock(t[1]->pfn, MIGRATE_RECLAIMABLE);
	for (int i = 0; i < 2; i++)
		free[i] = pageblock_free_pages(t[i]->pfn);
	compact_node(node, &st);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_GE(test, st.migrated, 1);
	for (int i = 0; i < 2; i++)
		KUNIT_EXPECT_EQ(test, pageblock_free_pages(t[i]->pfn), free[i]);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
}

/* A pageblock that is one free block is no target: filling it would undo
 * what compaction makes. The highest area (a region, or a pageblock if
 * larger) without unmovable pages is freed whole, the areas above it
 * (page tables in them) claimed UNMOVABLE; after a full pass it is still
 * free, and the kept folios went below it. */
static void free_pageblocks_are_left_whole(struct kunit *test)
{
	unsigned long area = MAX(REGION, pageblock_nr_pages),
		      end = node->node_start_pfn + NODE_PAGES;
	unsigned long top = end, n = 0;
	struct compact_stats st = { 0 };

	fragment(test, 0);
	while (top > node->node_start_pfn && area_has_unmovable(top - area, top))
		top -= area;
	KUNIT_ASSERT_GT(test, top, node->node_start_pfn + area);
	for (unsigned long pfn = top; pfn < end; pfn += pageblock_nr_pages)
		claim_pageblock(pfn, MIGRATE_UNMOVABLE);
	top -= area;
	for (unsigned int i = 0; i < nr_kept; i++) {
		struct kept *k = &kept[i];

		if (k->pfn < top || k->pfn >= top + area) {
			kept[n++] = *k;
			continue;
		}
		KUNIT_ASSERT_EQ(test,
				zap_page_range(mm, k->addr, k->addr + (PAGE_SIZE << k->order)), 0);
	}
	nr_kept = (unsigned int)n;
	drain_node_pages(node);
	KUNIT_ASSERT_GE(test, pfn_free_span(top), area);
	compact_node(node, &st);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_GE(test, st.migrated, 1);
	KUNIT_EXPECT_GE(test, pfn_free_span(top), area);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
}

/* Linux's rules for CMA pageblocks: movable data may leave them (a source)
 * and enter them (a target). One area at the bottom of the node, where
 * the migrate scanner starts, one at the top, where the free scanner does. */
static struct cma cma_low, cma_high;
static unsigned long cma_bits[2][CMA_BITMAP_LONGS(MAX_ORDER_NR_PAGES)];

static bool in_area(const struct cma *cma, unsigned long pfn)
{
	return pfn >= cma->base_pfn && pfn < cma->base_pfn + cma->count;
}

static void cma_pageblocks_are_sources_and_targets(struct kunit *test)
{
	unsigned long area = ALIGN_UP(REGION, pageblock_nr_pages),
		      end = node->node_start_pfn + NODE_PAGES;
	struct compact_stats st = { 0 };
	bool left = false, entered = false;

	KUNIT_ASSERT_EQ(test,
			cma_init_area(&cma_low, node->node_start_pfn, area, cma_bits[0], "low"), 0);
	KUNIT_ASSERT_EQ(test, cma_init_area(&cma_high, end - area, area, cma_bits[1], "high"), 0);
	fragment(test, 0);
	compact_node(node, &st);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	for (unsigned int i = 0; i < nr_kept; i++) {
		unsigned long now = kept_pfn_now(&kept[i]);

		left |= in_area(&cma_low, kept[i].pfn) && !in_area(&cma_low, now);
		entered |= !in_area(&cma_high, kept[i].pfn) && in_area(&cma_high, now);
	}
	KUNIT_EXPECT_TRUE(test, left);
	KUNIT_EXPECT_TRUE(test, entered);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
}

/* An isolated pageblock belongs to whoever isolated it: compaction takes
 * neither folios from it nor free pages in it. S: the lowest kept folio
 * in a MOVABLE pageblock (the first source); T: the highest (the free
 * scanner's first target: the pageblocks above it are free whole, or not
 * MOVABLE). */
static void isolated_pageblocks_are_neither_source_nor_target(struct kunit *test)
{
	struct kept *s = NULL, *t = NULL;
	struct compact_stats st = { 0 };
	unsigned long t_free;

	fragment(test, 0);
	for (unsigned int i = 0; i < nr_kept; i++) {
		struct kept *k = &kept[i];

		if (get_pageblock_migratetype(pfn_to_page(k->pfn)) != MIGRATE_MOVABLE)
			continue;
		if (!t || k->pfn > t->pfn)
			t = k;
		if (!s || k->pfn < s->pfn)
			s = k;
	}
	KUNIT_ASSERT_TRUE(test,
			  s && t && pageblock_start_pfn(s->pfn) != pageblock_start_pfn(t->pfn));
	t_free = pageblock_free_pages(t->pfn);
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(s->pfn, s->pfn + 1), 0);
	KUNIT_ASSERT_EQ(test, start_isolate_page_range(t->pfn, t->pfn + 1), 0);
	compact_node(node, &st);
	KUNIT_EXPECT_GE(test, st.migrated, 1); /* the others moved */
	KUNIT_EXPECT_EQ(test, kept_pfn_now(s), s->pfn);
	KUNIT_EXPECT_EQ(test, kept_pfn_now(t), t->pfn);
	KUNIT_EXPECT_EQ(test, pageblock_free_pages(t->pfn), t_free);
	undo_isolate_page_range(s->pfn, s->pfn + 1);
	undo_isolate_page_range(t->pfn, t->pfn + 1);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_EQ(test, check_kept(test), st.migrated);
}

/* --- skip hints -------------------------------------------------------------------- */

/* Pin every kept folio in the lowest kept folio's pageblock: the block
 * yields nothing, gets a skip hint, and a later pass steps over it even
 * when its folios could move, until the hints are reset. */
static void skip_hint_steps_over_a_barren_block_until_reset(struct kunit *test)
{
	struct kept *p = NULL;
	unsigned long block;
	enum compact_result ret;
	struct list_head held = LIST_HEAD_INIT(held);

	fragment(test, 0);
	for (unsigned int i = 0; i < nr_kept; i++)
		if (!p || kept[i].pfn < p->pfn)
			p = &kept[i];
	KUNIT_ASSERT_NOT_NULL(test, p);
	block = pageblock_start_pfn(p->pfn);
	for (unsigned int i = 0; i < nr_kept; i++)
		if (pageblock_start_pfn(kept[i].pfn) == block)
			folio_get(test_mapped_folio(mm, kept[i].addr));
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, NULL),
			COMPACT_SUCCESS);
	KUNIT_EXPECT_TRUE(test, get_pageblock_skip(pfn_to_page(block)));
	for (unsigned int i = 0; i < nr_kept; i++)
		if (pageblock_start_pfn(kept[i].pfn) == block)
			folio_put(test_mapped_folio(mm, kept[i].addr));
	/* Movable now, but the hint is there. */
	hold_free_blocks(&held);
	ret = compact_zone_order(test_zone(), HPAGE_PMD_ORDER, NULL);
	KUNIT_EXPECT_TRUE(test, ret == COMPACT_SUCCESS || ret == COMPACT_PARTIAL_SKIPPED);
	KUNIT_EXPECT_EQ(test, kept_pfn_now(p), p->pfn);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	reset_isolation_suitable(test_zone());
	KUNIT_EXPECT_FALSE(test, get_pageblock_skip(pfn_to_page(block)));
	hold_free_blocks(&held);
	compact_zone_order(test_zone(), HPAGE_PMD_ORDER, NULL);
	KUNIT_EXPECT_NE(test, kept_pfn_now(p), p->pfn);
	release_held(&held);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	check_kept(test);
}

/* The free scanner's hint: the zone's top pageblock, movable with every
 * free page taken, is scanned whole for free pages and yields none; the
 * pass marks it so later passes step over it (Linux: update_pageblock_skip
 * in isolate_freepages). The migration scanner never gets that far: the
 * pass succeeds from the bottom regions. */
static void skip_hint_marks_a_target_block_scanned_in_full(struct kunit *test)
{
	static bool taken[MAX_ORDER_NR_PAGES];
	unsigned long top;

	fragment(test, 0);
	top = pageblock_start_pfn(node->node_start_pfn + node->node_spanned_pages - 1);
	for (unsigned long i = 0; i < pageblock_nr_pages; i++)
		taken[i] = take_free_pfn_range(top + i, top + i + 1) == 1;
	KUNIT_ASSERT_EQ(test, get_pageblock_migratetype(pfn_to_page(top)), MIGRATE_MOVABLE);
	KUNIT_ASSERT_FALSE(test, get_pageblock_skip(pfn_to_page(top)));
	KUNIT_EXPECT_EQ(test, compact_zone_order(test_zone(), HPAGE_PMD_ORDER, NULL),
			COMPACT_SUCCESS);
	KUNIT_EXPECT_TRUE(test, get_pageblock_skip(pfn_to_page(top)));
	for (unsigned long i = 0; i < pageblock_nr_pages; i++)
		if (taken[i])
			__free_pages(pfn_to_page(top + i), 0);
	reset_isolation_suitable(test_zone());
	KUNIT_EXPECT_BUDDY_OK(test, node);
	check_kept(test);
}

/* --- direct compaction -------------------------------------------------------------- */

static void direct_compaction_serves_a_costly_movable_allocation(struct kunit *test)
{
	const unsigned long *ev = node->vm_events;
	struct page *page;

	fragment(test, 0);
	page = alloc_pages_node(node->node_id, __GFP_MOVABLE | __GFP_NOWARN, HPAGE_PMD_ORDER);
	KUNIT_EXPECT_NULL(test, page); /* may not reclaim: may not compact */
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL] + ev[COMPACTMIGRATE_SCANNED], 0);
	page = alloc_pages_node(node->node_id, GFP_HIGHUSER_MOVABLE | __GFP_NOWARN,
				HPAGE_PMD_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 1); /* the async pass did it */
	KUNIT_EXPECT_EQ(test, ev[COMPACTSUCCESS], 1);
	KUNIT_EXPECT_EQ(test, ev[COMPACTFAIL], 0);
	KUNIT_EXPECT_GT(test, ev[COMPACTMIGRATE_SCANNED], 0);
	__free_pages(page, HPAGE_PMD_ORDER);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_EQ(test, check_kept(test), ev[PGMIGRATE_SUCCESS]);
}

/* A THP fault compacts only where the VMA asked for huge pages (Linux's
 * vma_thp_gfp_mask with defrag "madvise"): elsewhere it falls back to 4K
 * without a stall; under MADV_HUGEPAGE (VM_HUGEPAGE) it compacts and
 * gets its 2 MiB folio. */
static void thp_fault_compacts_only_under_madv_hugepage(struct kunit *test)
{
	const unsigned long *ev = node->vm_events;
	unsigned long b = A + 2 * node->node_spanned_pages * PAGE_SIZE;

	if (test_skip_without_thp(test))
		return;
	b = ALIGN_UP(b, PMD_SIZE);
	fragment(test, 0);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, b, PMD_SIZE, RW, 0), b);
	KUNIT_ASSERT_EQ(test, fill_user(b, 0x5a, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, b), 0u);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 0);
	b += PMD_SIZE;
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, b, PMD_SIZE, RW, 0), b);
	find_vma(mm, b)->vm_flags |= VM_HUGEPAGE; /* what madvise(MADV_HUGEPAGE) sets */
	KUNIT_ASSERT_EQ(test, fill_user(b, 0x5b, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, b), (unsigned int)HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 1);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSUCCESS], 1);
	KUNIT_EXPECT_EQ(test, check_kept(test), ev[PGMIGRATE_SUCCESS]);
}

/* The defrag mode decides, as Linux's: under "never" even a VMA with
 * MADV_HUGEPAGE falls back to 4K without a stall; under "always" a VMA
 * without it compacts too (one light try, __GFP_NORETRY) and gets its
 * 2 MiB folio. */
static void thp_fault_compacts_as_defrag_says(struct kunit *test)
{
	const unsigned long *ev = node->vm_events;
	unsigned long b = A + 2 * node->node_spanned_pages * PAGE_SIZE;

	if (test_skip_without_thp(test))
		return;
	b = ALIGN_UP(b, PMD_SIZE);
	fragment(test, 0);
	thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
	thp_defrag_mode = THP_DEFRAG_NEVER;
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, b, PMD_SIZE, RW, 0), b);
	find_vma(mm, b)->vm_flags |= VM_HUGEPAGE;
	KUNIT_ASSERT_EQ(test, fill_user(b, 0x5a, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, b), 0u);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 0);
	b += PMD_SIZE;
	thp_defrag_mode = THP_DEFRAG_ALWAYS;
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, b, PMD_SIZE, RW, 0), b);
	KUNIT_ASSERT_EQ(test, fill_user(b, 0x5b, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, b), (unsigned int)HPAGE_PMD_ORDER);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 1);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSUCCESS], 1);
	KUNIT_EXPECT_EQ(test, check_kept(test), ev[PGMIGRATE_SUCCESS]);
}

/* With the kept folios in MOVABLE pageblocks only, an async pass for an
 * unmovable request finds no source (suitable_migration_source): with
 * __GFP_NORETRY both tries are async and fail; without, the sync-light
 * pass after reclaim moves them. */
static void noretry_unmovable_allocation_gets_async_passes_only(struct kunit *test)
{
	const unsigned long *ev = node->vm_events;
	struct page *page;

	fragment(test, 0);
	keep_only_movable_blocks(test);
	KUNIT_ASSERT_GE(test, nr_kept, 2);
	page = alloc_pages_node(node->node_id, GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN,
				HPAGE_PMD_ORDER);
	KUNIT_EXPECT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 2);
	KUNIT_EXPECT_EQ(test, ev[COMPACTFAIL], 2);
	KUNIT_EXPECT_EQ(test, ev[PGMIGRATE_SUCCESS], 0);
	page = alloc_pages_node(node->node_id, GFP_KERNEL | __GFP_NOWARN, HPAGE_PMD_ORDER);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 4);
	KUNIT_EXPECT_EQ(test, ev[COMPACTFAIL], 3);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSUCCESS], 1);
	__free_pages(page, HPAGE_PMD_ORDER);
	KUNIT_EXPECT_BUDDY_OK(test, node);
	KUNIT_EXPECT_EQ(test, check_kept(test), ev[PGMIGRATE_SUCCESS]);
}

/* Nothing to move (kernel pages in every region): a failed sync pass
 * defers the next attempts at that order (Linux: defer_compaction), the
 * first one, then the next three after a second failure. */
static void failed_direct_compaction_is_deferred(struct kunit *test)
{
	const unsigned long *ev = node->vm_events;
	struct page *keep[MAX_KEPT] = { NULL };
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN;

	KUNIT_ASSERT_GE(test, fragment_unmovable(test, keep), 2);
	KUNIT_EXPECT_NULL(test, alloc_pages_node(node->node_id, gfp, HPAGE_PMD_ORDER));
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 2); /* async, then sync-light */
	KUNIT_EXPECT_NULL(test, alloc_pages_node(node->node_id, gfp, HPAGE_PMD_ORDER));
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 3); /* the async one deferred */
	KUNIT_EXPECT_NULL(test, alloc_pages_node(node->node_id, gfp, HPAGE_PMD_ORDER));
	KUNIT_EXPECT_EQ(test, ev[COMPACTSTALL], 3); /* both deferred */
	KUNIT_EXPECT_EQ(test, ev[COMPACTFAIL], 3);
	KUNIT_EXPECT_EQ(test, ev[COMPACTSUCCESS], 0);
	free_unmovable(keep);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

/* --- the shell's `compact` ------------------------------------------------------------ */

/* Bad arguments print the usage; a pass over one node prints how it
 * ended, what the scanners did, and the free blocks before and after. */
static void compact_command_reports_each_zone(struct kunit *test)
{
	static struct shell_capture out;
	char line[32], want[96];

	fragment(test, 0);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "compact x"), CMD_USAGE);
	KUNIT_EXPECT_STREQ(test, out.text, "usage: compact [ORDER|all] [NODE]\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "compact 99"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "compact all 1 2"), CMD_USAGE);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "compact all 99"), CMD_USAGE);
	if (!NODE_DATA(MAX_NUMNODES - 1)) {
		ksnprintf(line, sizeof(line), "compact all %d", MAX_NUMNODES - 1);
		KUNIT_EXPECT_EQ(test, shell_run_captured(&out, line), CMD_ERROR);
	}
	ksnprintf(line, sizeof(line), "compact 9 %d", node->node_id);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, line), CMD_OK);
	ksnprintf(want, sizeof(want), "compact: node %d, zone %s: success; scanned ", node->node_id,
		  test_zone()->name);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, want) == out.text);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "\n  order       0      1 "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "\n  before "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "\n  after  "));
	KUNIT_EXPECT_GE(test, free_blocks_of(HPAGE_PMD_ORDER), 1);
	ksnprintf(line, sizeof(line), "compact all %d", node->node_id);
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, line), CMD_OK);
	ksnprintf(want, sizeof(want), "compact: node %d, zone %s: complete; ", node->node_id,
		  test_zone()->name);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, want) == out.text);
	KUNIT_EXPECT_EQ(test, check_kept(test), node->vm_events[PGMIGRATE_SUCCESS]);
	KUNIT_EXPECT_BUDDY_OK(test, node);
}

static struct kunit_case compaction_test_cases[] = {
	KUNIT_CASE(compaction_stops_once_an_order9_block_is_free),
	KUNIT_CASE(fragmentation_index_follows_linux),
	KUNIT_CASE(extfrag_threshold_decides_costly_compaction),
	KUNIT_CASE(thp_fault_compacts_only_under_madv_hugepage),
	KUNIT_CASE(thp_fault_compacts_as_defrag_says),
	KUNIT_CASE(compact_node_empties_regions_and_counts),
	KUNIT_CASE(unevictable_folios_move_only_when_allowed),
	KUNIT_CASE(large_folios_migrate_whole),
	KUNIT_CASE(unmovable_pages_are_never_isolated),
	KUNIT_CASE(unmovable_and_reclaimable_pageblocks_are_not_targets),
	KUNIT_CASE(free_pageblocks_are_left_whole),
	KUNIT_CASE(cma_pageblocks_are_sources_and_targets),
	KUNIT_CASE(isolated_pageblocks_are_neither_source_nor_target),
	KUNIT_CASE(skip_hint_steps_over_a_barren_block_until_reset),
	KUNIT_CASE(skip_hint_marks_a_target_block_scanned_in_full),
	KUNIT_CASE(direct_compaction_serves_a_costly_movable_allocation),
	KUNIT_CASE(noretry_unmovable_allocation_gets_async_passes_only),
	KUNIT_CASE(failed_direct_compaction_is_deferred),
	KUNIT_CASE(compact_command_reports_each_zone),
	{},
};

static struct kunit_suite compaction_test_suite = {
	.name = "compaction",
	.init = compaction_test_init,
	.exit = compaction_test_exit,
	.test_cases = compaction_test_cases,
};
kunit_test_suite(compaction_test_suite);
