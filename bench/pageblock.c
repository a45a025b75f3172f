/*
 * What CONFIG_PAGE_BLOCK_ORDER changes, measured on this build (upstream:
 * "mm: add CONFIG_PAGE_BLOCK_ORDER to select page block order"). One row:
 * CMA_MIN_ALIGNMENT_BYTES, the pageblocks in the node, the smallest CMA
 * area cma_reserve_area() really reserves when asked for one page, and the
 * upstream patch's mixed-size workload: allocations cycling through 8M,
 * 4M, 2M, 1M, 64 B, 8 B and 4 B rounded up to pages (2048, 1024, 512, 256,
 * 1, 1, 1), the large ones movable (user buffers) held in a FIFO of
 * about 55% of the node, the small ones unmovable (a slab's page) in a
 * FIFO of 6%, so they outlive many large ones, as kernel memory does: a
 * new allocation first frees its FIFO's oldest until it fits. A size
 * above MAX_PAGE_ORDER is several max-order blocks (8M = 2 x 4M).
 * Reported: cost per alloc and per free, fallbacks to another
 * migratetype's free list and whole-pageblock steals, and, with the live
 * set still allocated, Linux's unusable free space index at 2 MiB.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <mm.h>

#define BENCH_MAX_PAGES (512ul * MIB / PAGE_SIZE)
#define MAX_CHUNKS 4 /* 8 MiB in blocks of at least order 9 */
#define MOVABLE_SLOTS 1024
#define UNMOVABLE_SLOTS 8192

static const unsigned long mixed_pages[] = { 2048, 1024, 512, 256, 1, 1, 1 };

/* One live allocation: up to MAX_CHUNKS blocks of one order. */
struct mixed_alloc {
	unsigned long pfn[MAX_CHUNKS];
	unsigned int order, nr;
};

/* Live allocations of one migratetype, oldest first. */
struct mixed_fifo {
	struct mixed_alloc *slots;
	unsigned int cap, head, count;
	unsigned long live_pages, budget; /* pages held; most it may hold */
};

/* What one run measured. */
struct mixed_result {
	unsigned long allocs, frees, failures;
	uint64_t alloc_time, free_time;
};

static struct pglist_data bench_node;
static uint8_t bench_pageblock_flags[BENCH_MAX_PAGES / 2];
static struct mixed_alloc movable_slots[MOVABLE_SLOTS], unmovable_slots[UNMOVABLE_SLOTS];
static struct memblock cma_memblock;

static void free_oldest(struct mixed_fifo *f, struct mixed_result *res)
{
	struct mixed_alloc *a = &f->slots[f->head];
	uint64_t t0 = arch_cycles();

	for (unsigned int i = 0; i < a->nr; i++)
		__free_pages(pfn_to_page(a->pfn[i]), a->order);
	res->free_time += arch_cycles() - t0;
	res->frees++;
	f->live_pages -= (unsigned long)a->nr << a->order;
	f->head = (f->head + 1) % f->cap;
	f->count--;
}

/* Allocate nr_pages in blocks of at most MAX_PAGE_ORDER. Return: true,
 * or false with nothing held (the blocks already taken are given back). */
static bool alloc_mixed(int nid, unsigned long nr_pages, struct mixed_alloc *a,
			struct mixed_result *res)
{
	gfp_t gfp = (nr_pages > 1 ? GFP_HIGHUSER_MOVABLE : GFP_KERNEL) | __GFP_NOWARN;
	/* The sizes are powers of two: their order is their trailing zeros. */
	unsigned int order =
		MIN((unsigned int)__builtin_ctzl(nr_pages), (unsigned int)MAX_PAGE_ORDER);
	uint64_t t0 = arch_cycles();

	a->order = order;
	for (a->nr = 0; a->nr < nr_pages >> order; a->nr++) {
		struct page *page = alloc_pages_node(nid, gfp, order);

		if (!page) {
			while (a->nr)
				__free_pages(pfn_to_page(a->pfn[--a->nr]), order);
			return false;
		}
		a->pfn[a->nr] = page_to_pfn(page);
	}
	res->alloc_time += arch_cycles() - t0;
	return true;
}

/* One allocation into fifo f: make room, allocate; when fragmentation
 * defeats a request, free more of the oldest, as reclaim would. */
static void mixed_step(int nid, struct mixed_fifo *f, unsigned long nr, struct mixed_result *res)
{
	struct mixed_alloc *slot;

	while (f->count && (f->count == f->cap || f->live_pages + nr > f->budget))
		free_oldest(f, res);
	for (;;) {
		slot = &f->slots[(f->head + f->count) % f->cap];
		if (alloc_mixed(nid, nr, slot, res))
			break;
		if (!f->count) {
			res->failures++;
			return;
		}
		free_oldest(f, res);
	}
	f->count++;
	f->live_pages += nr;
	res->allocs++;
}

static void fifo_init(struct mixed_fifo *f, struct mixed_alloc *slots, unsigned int cap,
		      unsigned long budget)
{
	*f = (struct mixed_fifo){ .slots = slots, .cap = cap, .budget = budget };
}

static struct mixed_fifo movable, unmovable;

static void run_mixed(int nid, unsigned long node_pages, unsigned long allocs,
		      struct mixed_result *res)
{
	fifo_init(&movable, movable_slots, MOVABLE_SLOTS, node_pages * 55 / 100);
	fifo_init(&unmovable, unmovable_slots, UNMOVABLE_SLOTS, node_pages * 6 / 100);
	for (unsigned long i = 0; i < allocs; i++) {
		unsigned long nr = mixed_pages[i % ARRAY_SIZE(mixed_pages)];

		mixed_step(nid, nr > 1 ? &movable : &unmovable, nr, res);
	}
}

/* Linux's unusable free space index at order 9, in tenths of a percent:
 * the share of free memory in blocks too small for a 2 MiB folio. */
static unsigned long unusable_2m(struct pglist_data *pgdat, unsigned long *blocks_2m)
{
	unsigned long free = 0, usable = 0;

	drain_node_pages(pgdat);
	*blocks_2m = 0;
	for (int z = 0; z < pgdat->nr_zones; z++) {
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			unsigned long n = pgdat->node_zones[z].free_area[o].nr_free;

			free += n << o;
			if (o >= HPAGE_PMD_ORDER) {
				usable += n << o;
				*blocks_2m += n << (o - HPAGE_PMD_ORDER);
			}
		}
	}
	return free ? (free - usable) * 1000 / free : 0;
}

unsigned long bench_smallest_cma(unsigned long start_pfn, unsigned long nr_pages)
{
	memblock_init(&cma_memblock);
	memblock_add(&cma_memblock, PFN_PHYS(start_pfn), nr_pages * PAGE_SIZE);
	if (!cma_reserve_area(&cma_memblock, PAGE_SIZE, pageblock_order))
		return 0;
	return memblock_reserved_size(&cma_memblock);
}

/* One row of the table: the config, the last run's counters, and the
 * median per-call costs (x10) over the runs. */
struct pageblock_row {
	unsigned long nr_pages, cma_bytes, allocs, failures;
	unsigned long fallbacks, steals, unusable, blocks_2m;
	uint64_t alloc, free;
};

static void print_row(const struct pageblock_row *r, unsigned int runs, const char *unit)
{
	kprintf("pageblock_order %u: pageblock %lu KiB, CMA_MIN_ALIGNMENT_BYTES %lu, %lu "
		"pageblocks,\n"
		"smallest CMA area %lu KiB\n",
		(unsigned int)pageblock_order,
		(unsigned long)(pageblock_nr_pages * PAGE_SIZE / KIB),
		(unsigned long)CMA_MIN_ALIGNMENT_BYTES, r->nr_pages >> pageblock_order,
		(unsigned long)(r->cma_bytes / KIB));
	kprintf("mixed workload: %lu allocations (%lu failed), median of %u runs: %llu.%llu "
		"%s/alloc,\n"
		"%llu.%llu %s/free; fallbacks %lu, pageblock steals %lu; after it %lu.%lu%% of "
		"free\n"
		"memory is unusable for 2 MiB, %lu free 2 MiB blocks\n\n",
		r->allocs, r->failures, runs, (unsigned long long)(r->alloc / 10),
		(unsigned long long)(r->alloc % 10), unit, (unsigned long long)(r->free / 10),
		(unsigned long long)(r->free % 10), unit, r->fallbacks, r->steals, r->unusable / 10,
		r->unusable % 10, r->blocks_2m);
}

static void print_record(const struct pageblock_row *r, unsigned int runs, const char *unit)
{
	char cols[400], env[80];
	struct benchrec rec;

	ksnprintf(cols, sizeof(cols),
		  "pageblock_order[order] pageblock[bytes] cma_min_alignment[bytes] "
		  "pageblocks[count] smallest_cma[bytes] allocs[count] alloc[%s/alloc] "
		  "free[%s/free] fallbacks[count] steals[count] unusable_2m[%%] "
		  "free_2m_blocks[count] failures[count]",
		  unit, unit);
	ksnprintf(env, sizeof(env), " node_bytes=%lu runs=%u", r->nr_pages * PAGE_SIZE, runs);
	benchrec_begin(&rec, "pageblock", cols, env);
	benchrec_row(&rec, "%u %lu %lu %lu %lu %lu %llu.%llu %llu.%llu %lu %lu %lu.%lu %lu %lu",
		     (unsigned int)pageblock_order, (unsigned long)(pageblock_nr_pages * PAGE_SIZE),
		     (unsigned long)CMA_MIN_ALIGNMENT_BYTES, r->nr_pages >> pageblock_order,
		     r->cma_bytes, r->allocs, (unsigned long long)(r->alloc / 10),
		     (unsigned long long)(r->alloc % 10), (unsigned long long)(r->free / 10),
		     (unsigned long long)(r->free % 10), r->fallbacks, r->steals, r->unusable / 10,
		     r->unusable % 10, r->blocks_2m, r->failures);
	benchrec_end(&rec);
}

/* One run on a fresh node: the workload, the fragmentation it leaves with
 * the live set held, then everything freed. Fills r's counters; returns
 * the per-call costs (x10) in *alloc and *free. */
static void run_once(unsigned long start_pfn, int nid, unsigned long allocs,
		     struct pageblock_row *r, uint64_t *alloc, uint64_t *free)
{
	struct mixed_result res = { 0 };

	pgdat_init(&bench_node, nid, start_pfn, start_pfn + r->nr_pages, bench_pageblock_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + r->nr_pages);
	run_mixed(nid, r->nr_pages, allocs, &res);
	r->unusable = unusable_2m(&bench_node, &r->blocks_2m);
	r->fallbacks = bench_node.vm_events[PGALLOC_FALLBACK];
	r->steals = bench_node.vm_events[PGALLOC_STEAL];
	r->allocs = res.allocs;
	r->failures = res.failures;
	*alloc = res.allocs ? res.alloc_time * 10 / res.allocs : 0;
	*free = res.frees ? res.free_time * 10 / res.frees : 0;
	while (movable.count)
		free_oldest(&movable, &res);
	while (unmovable.count)
		free_oldest(&unmovable, &res);
	pgdat_destroy(&bench_node);
}

#define MAX_RUNS 9

int bench_pageblock(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned long allocs,
		    unsigned int runs, const char *unit)
{
	uint64_t alloc[MAX_RUNS], free[MAX_RUNS];
	struct pageblock_row row = { 0 };

	nr_pages = MIN(ALIGN_DOWN(nr_pages, MAX_ORDER_NR_PAGES), BENCH_MAX_PAGES);
	if (nr_pages < 8 * MAX_ORDER_NR_PAGES || NODE_DATA(nid)) {
		kprintf("bench: need %lu free pages and node %d unused\n", 8 * MAX_ORDER_NR_PAGES,
			nid);
		return -1;
	}
	runs = MAX(1u, MIN(runs, (unsigned int)MAX_RUNS));
	row.nr_pages = nr_pages;
	row.cma_bytes = bench_smallest_cma(start_pfn, nr_pages);
	/* The workload is deterministic: every run leaves the same counters. */
	for (unsigned int i = 0; i < runs; i++)
		run_once(start_pfn, nid, allocs, &row, &alloc[i], &free[i]);
	row.alloc = bench_median(alloc, runs);
	row.free = bench_median(free, runs);
	print_row(&row, runs, unit);
	print_record(&row, runs, unit);
	return 0;
}

/* `bench pageblock`: the workload over the test memory as a private node,
 * 100K allocations, median of 3 runs (quick: 700, the sizes 100 times,
 * once). */
int bench_pageblock_command(bool quick)
{
	unsigned long start_pfn, nr_pages;
	int ret = -1;

	bench_banner("Folium pageblock order benchmark");
	/* The private node lives in memory node 0 lends for this run. */
	if (test_memory_offline() || mm_test_memory(&start_pfn, &nr_pages) < 0) {
		kprintf("bench: no test memory (the mm: line above says why)\n");
	} else {
		kprintf("\n");
		ret = bench_pageblock(start_pfn, nr_pages, MAX_NUMNODES - 1, quick ? 700 : 100000,
				      quick ? 1 : 3, "cycles");
	}
	test_memory_online();
	return ret;
}
