/*
 * Memory hotplug: taking a pfn range at an edge of its zone away from the
 * allocator and giving it back (Linux: mm/memory_hotplug.c, offline_pages
 * and online_pages). Offlining isolates the range, migrates its movable
 * folios out, takes its free pages (PG_offline), then shrinks the zone's
 * and the node's span past it and lowers the managed pages and watermarks:
 * no walker of the node reads those struct pages, so their new owner may
 * rebuild them. Reserved pages inside (firmware, memmap) stay reserved.
 * Example, zone DMA32 over [0, 0x8000): offline [0, 0x1c00) and it spans
 * [0x1c00, 0x8000) until online_pages(0, 0x1c00) grows it back and frees
 * every PG_offline page. The in-kernel tests take their memory this way
 * (test_memory_offline): an aligned block at an edge of node 0, with
 * everything between it and the edge.
 */
#include "internal.h"

static unsigned long zone_end_pfn(const struct zone *zone)
{
	return zone->zone_start_pfn + zone->spanned_pages;
}

/* Linux: shrink_zone_span, for a range at an edge of the zone. */
static void shrink_zone_span(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn)
{
	if (start_pfn == zone->zone_start_pfn)
		zone->zone_start_pfn = end_pfn;
	zone->spanned_pages -= end_pfn - start_pfn;
}

/* Linux: resize_zone_range: the zone grows to cover [start_pfn, end_pfn). */
static void resize_zone_range(struct zone *zone, unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long end = zone->spanned_pages ? MAX(zone_end_pfn(zone), end_pfn) : end_pfn;

	if (!zone->spanned_pages || start_pfn < zone->zone_start_pfn)
		zone->zone_start_pfn = start_pfn;
	zone->spanned_pages = end - zone->zone_start_pfn;
}

/* Linux: update_pgdat_span: the node spans its non-empty zones. */
static void update_pgdat_span(struct pglist_data *pgdat)
{
	unsigned long start = ~0ul, end = 0;

	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		const struct zone *zone = &pgdat->node_zones[zt];

		if (!zone->spanned_pages)
			continue;
		start = MIN(start, zone->zone_start_pfn);
		end = MAX(end, zone_end_pfn(zone));
	}
	pgdat->node_start_pfn = end ? start : 0;
	pgdat->node_spanned_pages = end ? end - start : 0;
}

static bool page_managed(const struct page *page)
{
	return !PageReserved(page);
}

static bool page_offline(const struct page *page)
{
	return PageFlag(page, PG_offline);
}

/*
 * The next run of pages in [*start, limit) for which in_run holds: *start
 * moves to its first pfn, *end past its last. Return: false if none.
 * Context: every pfn of the range has a struct page.
 */
static bool next_run(unsigned long *start, unsigned long *end, unsigned long limit,
		     bool (*in_run)(const struct page *))
{
	unsigned long pfn = *start;

	while (pfn < limit && !in_run(pfn_to_page(pfn)))
		pfn++;
	if (pfn >= limit)
		return false;
	*start = pfn;
	while (pfn < limit && in_run(pfn_to_page(pfn)))
		pfn++;
	*end = pfn;
	return true;
}

/*
 * What offline_pages refuses before it changes anything: a pfn without a
 * struct page (-EINVAL), a CMA or HIGHATOMIC pageblock (-EBUSY: the CMA
 * bitmap and nr_reserved_highatomic count on the block staying).
 */
static int check_offline_range(unsigned long start_pfn, unsigned long end_pfn)
{
	for (unsigned long pfn = start_pfn; pfn < end_pfn; pfn++) {
		int mt;

		if (!pfn_valid(pfn))
			return -EINVAL;
		if (pfn != start_pfn && pfn != pageblock_start_pfn(pfn))
			continue;
		mt = get_pageblock_type_raw(pfn_to_page(pfn));
		if (mt == MIGRATE_CMA || mt == MIGRATE_HIGHATOMIC)
			return -EBUSY;
	}
	return 0;
}

/* Linux: do_migrate_range, run by run (reserved pages never move).
 * Return: 0 or the first error. */
static int migrate_managed_runs(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long s = start_pfn, e;

	for (; next_run(&s, &e, end_pfn, page_managed); s = e) {
		int err = migrate_pfn_range(s, e);

		if (err)
			return err;
	}
	return 0;
}

/* Linux: test_pages_isolated. Return: true if every managed page is free. */
static bool managed_runs_free(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long s = start_pfn, e;

	for (; next_run(&s, &e, end_pfn, page_managed); s = e) {
		for (unsigned long pfn = s; pfn < e;) {
			unsigned long span = pfn_free_span(pfn);

			if (!span)
				return false;
			pfn += span;
		}
	}
	return true;
}

/* Linux: __offline_isolated_pages. Every managed page leaves the free
 * lists, without a reference, marked PG_offline. Return: pages taken. */
static unsigned long take_offline_pages(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long s = start_pfn, e, taken = 0;

	for (; next_run(&s, &e, end_pfn, page_managed); s = e) {
		taken += take_free_pfn_range(s, e);
		for (unsigned long pfn = s; pfn < e; pfn++) {
			pfn_to_page(pfn)->_refcount = 0;
			SetPageFlag(pfn_to_page(pfn), PG_offline);
		}
	}
	return taken;
}

int offline_pages(unsigned long start_pfn, unsigned long nr_pages, struct zone *zone)
{
	unsigned long end_pfn = start_pfn + nr_pages, taken = 0;
	int err;

	if (!nr_pages || !zone_spans_pfn(zone, start_pfn) || !zone_spans_pfn(zone, end_pfn - 1) ||
	    (start_pfn != zone->zone_start_pfn && end_pfn != zone_end_pfn(zone)))
		return -EINVAL;
	err = check_offline_range(start_pfn, end_pfn);
	if (!err)
		err = start_isolate_page_range(start_pfn, end_pfn);
	if (err)
		return err;
	err = migrate_managed_runs(start_pfn, end_pfn);
	drain_zone_pages(zone); /* migration frees the old folios to the pcp lists */
	if (!err && !managed_runs_free(start_pfn, end_pfn))
		err = -EBUSY;
	if (!err)
		taken = take_offline_pages(start_pfn, end_pfn);
	undo_isolate_page_range(start_pfn, end_pfn);
	if (err)
		return err;
	shrink_zone_span(zone, start_pfn, end_pfn);
	update_pgdat_span(zone->zone_pgdat);
	/* Linux: adjust_managed_page_count, then the watermarks follow. */
	zone->managed_pages -= taken;
	zone->present_pages -= taken;
	setup_per_zone_wmarks(zone->zone_pgdat);
	return 0;
}

int online_pages(unsigned long pfn, unsigned long nr_pages, struct zone *zone)
{
	struct pglist_data *pgdat = zone->zone_pgdat;
	enum zone_type zt = (enum zone_type)(zone - pgdat->node_zones);
	unsigned long end_pfn = pfn + nr_pages, s = pfn, e;

	if (!nr_pages ||
	    (zone->spanned_pages && end_pfn != zone->zone_start_pfn && pfn != zone_end_pfn(zone)))
		return -EINVAL;
	/* Linux: move_pfn_range_to_zone. */
	resize_zone_range(zone, pfn, end_pfn);
	update_pgdat_span(pgdat);
	/* Linux: online_pages_range, generic_online_page. */
	for (; next_run(&s, &e, end_pfn, page_offline); s = e) {
		memmap_init_range(pgdat->node_id, zt, s, e);
		free_pfn_range_to_buddy(s, e);
	}
	return 0;
}

/* --- a block at an edge of a node ------------------------------------------ */

/* The node's highest (top) or lowest non-empty zone: the one at that edge. */
static struct zone *edge_zone(struct pglist_data *pgdat, bool top)
{
	for (int i = 0; i < MAX_NR_ZONES; i++) {
		struct zone *zone = &pgdat->node_zones[top ? MAX_NR_ZONES - 1 - i : i];

		if (zone->spanned_pages)
			return zone;
	}
	return NULL;
}

/* Return: true with *bad the reserved (or memmap-less) pfn of [s, s + nr)
 * nearest the top (or bottom) edge, false if the block has none. */
static bool block_has_reserved(unsigned long s, unsigned long nr, bool top, unsigned long *bad)
{
	for (unsigned long i = 0; i < nr; i++) {
		unsigned long pfn = top ? s + nr - 1 - i : s + i;

		if (!pfn_valid(pfn) || PageReserved(pfn_to_page(pfn))) {
			*bad = pfn;
			return true;
		}
	}
	return false;
}

/*
 * The block of nr pages aligned to MAX_ORDER_NR_PAGES nearest the zone's
 * top (or bottom) edge without a reserved page; each reserved pfn met
 * moves the next candidate past it, so the zone is read about once.
 * Return: false if there is none.
 */
static bool find_edge_block(struct zone *zone, unsigned long nr, bool top, unsigned long *found)
{
	unsigned long lo = ALIGN_UP(zone->zone_start_pfn, MAX_ORDER_NR_PAGES);
	unsigned long hi = ALIGN_DOWN(zone_end_pfn(zone), MAX_ORDER_NR_PAGES);
	unsigned long s, bad;

	if (hi < lo + nr)
		return false;
	s = top ? hi - nr : lo;
	while (block_has_reserved(s, nr, top, &bad)) {
		if (top && ALIGN_DOWN(bad, MAX_ORDER_NR_PAGES) < lo + nr)
			return false;
		s = top ? ALIGN_DOWN(bad, MAX_ORDER_NR_PAGES) - nr
			: ALIGN_UP(bad + 1, MAX_ORDER_NR_PAGES);
		if (s + nr > hi)
			return false;
	}
	*found = s;
	return true;
}

/* Return: pages of [start_pfn, end_pfn) the allocator manages. */
static unsigned long managed_pages_in(unsigned long start_pfn, unsigned long end_pfn)
{
	unsigned long s = start_pfn, e, nr = 0;

	for (; next_run(&s, &e, end_pfn, page_managed); s = e)
		nr += e - s;
	return nr;
}

/* The candidate at one edge: the block and the region offline_pages takes. */
static bool edge_candidate(struct pglist_data *pgdat, unsigned long nr_pages, bool top,
			   struct edge_block *b)
{
	struct zone *zone = edge_zone(pgdat, top);
	unsigned long start;

	if (!zone || !find_edge_block(zone, nr_pages, top, &start))
		return false;
	b->zone = zone;
	b->top = top;
	b->start_pfn = start;
	b->nr_pages = nr_pages;
	b->region_start = top ? start : zone->zone_start_pfn;
	b->region_end = top ? zone_end_pfn(zone) : start + nr_pages;
	b->nr_offline = managed_pages_in(b->region_start, b->region_end);
	return true;
}

int offline_edge_block(struct pglist_data *pgdat, unsigned long nr_pages, struct edge_block *b)
{
	struct edge_block cand[2], tmp;
	int n = 0;

	for (int top = 1; top >= 0; top--)
		n += edge_candidate(pgdat, nr_pages, top, &cand[n]);
	if (n == 2 && cand[1].nr_offline < cand[0].nr_offline) {
		tmp = cand[0];
		cand[0] = cand[1];
		cand[1] = tmp;
	}
	for (int i = 0; i < n; i++) {
		if (!offline_pages(cand[i].region_start, cand[i].region_end - cand[i].region_start,
				   cand[i].zone)) {
			*b = cand[i];
			return 0;
		}
	}
	return n ? -EBUSY : -ENOSPC;
}

void online_edge_block(const struct edge_block *b)
{
	/* Whatever the owner made of the block's struct pages, they are the
	 * node's offline pages again; online_pages re-initialises each. */
	for (unsigned long pfn = b->start_pfn; pfn < b->start_pfn + b->nr_pages; pfn++)
		pfn_to_page(pfn)->flags = 1ul << PG_offline;
	online_pages(b->region_start, b->region_end - b->region_start, b->zone);
}

/* --- the in-kernel tests' memory ------------------------------------------- */

static struct {
	unsigned long nr_pages; /* the block the tests get; 0: too little RAM */
	bool taken;
	struct edge_block block;
} test_memory;

phys_addr_t test_memory_size(phys_addr_t ram)
{
	phys_addr_t size = MAX(16 * MIB, 4 * (PAGE_SIZE << MAX_PAGE_ORDER));

	if (ram < 96 * MIB)
		return 0;
	if (ram >= 384 * MIB)
		size = MAX(size, 32 * MIB);
	if (ram >= 768 * MIB)
		size = MAX(size, 64 * MIB);
	return size;
}

void test_memory_init(phys_addr_t ram)
{
	test_memory.nr_pages = test_memory_size(ram) / PAGE_SIZE;
	if (test_memory.nr_pages)
		pr_info("mm: the in-kernel mm tests take %llu MiB from node 0 while they run\n",
			(unsigned long long)(test_memory_size(ram) / MIB));
	else
		pr_warn("mm: under 96 MiB of RAM: no memory for the in-kernel mm tests "
			"(they will be skipped)\n");
}

int test_memory_offline(void)
{
	unsigned long mib = test_memory.nr_pages * PAGE_SIZE / MIB;
	const struct edge_block *b = &test_memory.block;
	int err;

	if (test_memory.taken)
		return 0;
	if (!test_memory.nr_pages) {
		pr_warn("mm: under 96 MiB of RAM: no memory for the in-kernel mm tests "
			"(they are skipped)\n");
		return -ENOSPC;
	}
	err = offline_edge_block(NODE_DATA(0), test_memory.nr_pages, &test_memory.block);
	if (err == -ENOSPC)
		pr_warn("mm: no %lu MiB block without reserved pages at an edge of node 0: "
			"the in-kernel mm tests are skipped\n",
			mib);
	else if (err)
		pr_warn("mm: the %lu MiB blocks at both edges of node 0 hold pages that cannot "
			"move (unmovable allocations): the in-kernel mm tests are skipped\n",
			mib);
	if (err)
		return err;
	test_memory.taken = true;
	pr_info("mm: pfns %#lx-%#lx (%lu MiB) taken from node 0 for the tests, with %lu KiB of "
		"free memory between them and its %s edge\n",
		b->start_pfn, b->start_pfn + b->nr_pages - 1, mib,
		(unsigned long)((b->nr_offline - b->nr_pages) * PAGE_SIZE / KIB),
		b->top ? "top" : "bottom");
	return 0;
}

void test_memory_online(void)
{
	if (!test_memory.taken)
		return;
	online_edge_block(&test_memory.block);
	test_memory.taken = false;
}

const struct edge_block *test_memory_block(void)
{
	return test_memory.taken ? &test_memory.block : NULL;
}
