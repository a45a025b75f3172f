/*
 * The fragmentation experiment (issue 14), after mmtests' stress-highalloc:
 * what pageblocks are for. On a private node, NR_PROCS processes (mms on
 * the node: order-0 anonymous faults, the user memory compaction can move)
 * map VMAs of 64 KiB..4 MiB, NR_CONCURRENT at a time with their faults
 * interleaved, while kernel-like objects come and go between the faults:
 * alloc_pages of order 0..3, GFP_KERNEL or __GFP_RECLAIMABLE, living a few
 * steps, hundreds of steps or for good, plus eight bursts of them. The
 * user set ramps up to USER_FILL of the node, then churns there (random
 * VMAs unmapped to make room). Then the load ends: every process but two
 * daemons exits, the daemons unmap a quarter, only the lifelong objects
 * stay. Then 2 MiB (order 9) blocks are allocated until one fails, first
 * as a THP fault with defrag off (no __GFP_DIRECT_RECLAIM: no compaction),
 * then, holding those, with __GFP_DIRECT_RECLAIM, so the allocator
 * compacts before it fails. Success counts against what is free when the
 * attempts start: 378 MiB free = 189 blocks in theory; 21 without
 * compaction = 11.1%, 172 in all with it = 91.0%. Then the same seed
 * runs again on a fresh node, and the same state meets the HugeTLB pool
 * instead: nr_hugepages is raised one page at a time through Linux's own
 * path (set_max_huge_pages, __GFP_RETRY_MAYFAIL) until it stops growing;
 * the pages that came before the first compaction stall are the ones free
 * without compaction (the allocator takes a free block before it
 * compacts), the rest compaction made. Everything is seeded
 * (xorshift64*): a seed makes the same requests on every machine and
 * build, so two builds' rows differ only by what the build changes.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <hugetlb.h>
#include <vm.h>

#define FRAG_MAX_PAGES (512ul * MIB / PAGE_SIZE)
#define FRAG_MAX_SEEDS 9
#define NR_PROCS 16
#define DAEMON_EVERY 8	   /* processes 0 and 8 are daemons, which outlive the load */
#define PROC_CHUNKS 64	   /* live VMAs a process keeps, well under the mm page's MM_INLINE_VMAS */
#define MAX_OBJS 65536u	   /* live kernel objects */
#define WHEEL 1024u	   /* steps: the longest finite object lifetime */
#define USER_FILL 88u	   /* % of the node the user set churns at */
#define STEPS_PER_PAGES 64 /* one step per 64 pages of node: 2048 for 512 MiB */
#define NR_CONCURRENT 4	   /* processes faulting side by side in a step */
#define FAULT_BATCH 64	   /* most pages one faults before the next one's turn */
#define KOBJS_PER_STEP 10u /* kernel objects made per step, between bursts */
#define BURST_STEPS 8u	   /* a kernel burst lasts this many steps */
#define BURST_PCT 4u	   /* and makes objects (1.7 pages each) of this % of the node */
#define BURST_LIFE 128u	   /* steps: the longest a burst's objects live */
#define ORDER_2M HPAGE_PMD_ORDER

/* A THP fault's two masks, as Linux's GFP_TRANSHUGE_LIGHT (defrag off: no
 * reclaim, no compaction) and GFP_TRANSHUGE (defrag on: direct compaction
 * before failing). Not __GFP_COMP: the blocks are freed as pages. */
#define FRAG_GFP_NOCOMPACT (__GFP_MOVABLE | __GFP_NOWARN)
#define FRAG_GFP_COMPACT (FRAG_GFP_NOCOMPACT | __GFP_DIRECT_RECLAIM)

/* One VMA a process faulted in whole. */
struct frag_chunk {
	unsigned long addr, pages;
};

struct frag_proc {
	struct mm_struct *mm; /* NULL: exited */
	unsigned int nr;
	struct frag_chunk chunk[PROC_CHUNKS];
};

/* A kernel-like object: 2^order pages of one migratetype. A finite one
 * waits on the wheel slot of the step it dies in; a lifelong one is on no
 * list. next: index + 1 of the next on the same list, 0 at the end. */
struct frag_obj {
	unsigned long pfn;
	uint32_t next;
	uint8_t order, mt;
	bool live;
};

/* One run: the node, the random state, the processes and the objects. */
struct frag_run {
	struct pglist_data *pgdat;
	uint64_t rng;
	unsigned long step, ramp, user_pages, user_target, margin, max_chunk;
	unsigned long kobj_failed, chunk_failed;
	struct frag_proc proc[NR_PROCS];
	uint32_t wheel[WHEEL], free_slots;
};

/* What one seed measured; the units are the record's. */
enum frag_metric {
	FM_FREE_2M,	  /* free memory / 2 MiB when the attempts start */
	FM_NOCOMPACT,	  /* order-9 blocks without compaction, 0.1% of FM_FREE_2M */
	FM_COMPACT,	  /* ... in all, with compaction */
	FM_UNUSABLE,	  /* Linux's unusable free space index at order 9 (x1000) */
	FM_FRAGINDEX,	  /* Linux's fragmentation index at order 9 (x1000) */
	FM_UNMOVABLE_2M,  /* 2 MiB blocks holding a page compaction cannot move */
	FM_MIXED,	  /* pageblocks holding a page of another migratetype */
	FM_FALLBACKS,	  /* pgalloc_fallback over the whole run */
	FM_STEALS,	  /* pgalloc_steal over the whole run */
	FM_MIGRATED,	  /* pgmigrate_success during the attempts with compaction */
	FM_COMPACT_STALL, /* compact_* during them */
	FM_COMPACT_FAIL,
	FM_COMPACT_SUCCESS,
	FM_MIGRATE_SCANNED,
	FM_FREE_SCANNED,
	FM_ISOLATED,
	FM_COMPACT_TIME,   /* arch_cycles() over the attempts with compaction */
	FM_HTLB_NOCOMPACT, /* HugeTLB pool pages before the first compaction, 0.1% */
	FM_HTLB_COMPACT,   /* HugeTLB pool pages in all, 0.1% of FM_FREE_2M */
	NR_FRAG_METRICS
};

/* The vm events each compaction column takes its delta from. */
static const struct {
	enum frag_metric m;
	enum vm_event_item ev;
} compact_events[] = {
	{ FM_MIGRATED, PGMIGRATE_SUCCESS },
	{ FM_COMPACT_STALL, COMPACTSTALL },
	{ FM_COMPACT_FAIL, COMPACTFAIL },
	{ FM_COMPACT_SUCCESS, COMPACTSUCCESS },
	{ FM_MIGRATE_SCANNED, COMPACTMIGRATE_SCANNED },
	{ FM_FREE_SCANNED, COMPACTFREE_SCANNED },
	{ FM_ISOLATED, COMPACTISOLATED },
};

static struct pglist_data frag_node;
static uint8_t frag_pageblock_flags[FRAG_MAX_PAGES / 2];
static struct frag_run run;
static struct frag_obj objs[MAX_OBJS];
static unsigned long held[FRAG_MAX_PAGES >> ORDER_2M]; /* pfns of the order-9 blocks got */
static long metrics[NR_FRAG_METRICS][FRAG_MAX_SEEDS];

/* The same sequence on every machine. */
static uint64_t frag_rand(struct frag_run *r)
{
	return bench_rand(&r->rng);
}

static unsigned long frag_below(struct frag_run *r, unsigned long n)
{
	return (unsigned long)(frag_rand(r) >> 16) % n;
}

/* --- the kernel-like objects ------------------------------------------------ */

static void obj_free(struct frag_run *r, uint32_t i)
{
	struct frag_obj *o = &objs[i];

	__free_pages(pfn_to_page(o->pfn), o->order);
	o->live = false;
	o->next = r->free_slots;
	r->free_slots = i + 1;
}

/*
 * The lifetime of a new object in steps, 0 for lifelong. Steady activity:
 * 55% live 1..4 steps (a request's buffers), 30% 16..WHEEL-1 (caches
 * that turn over), 15% for good (what a kernel keeps: inodes in use,
 * tables, stacks). A burst (a file-heavy phase: dentries, inodes,
 * buffers): 98% live 16..BURST_LIFE-1 steps, 2% for good.
 */
static unsigned int obj_lifetime(struct frag_run *r, bool burst)
{
	unsigned long pick = frag_below(r, 100);

	if (burst)
		return pick < 98 ? 16 + (unsigned int)frag_below(r, BURST_LIFE - 16) : 0;
	if (pick < 55)
		return 1 + (unsigned int)frag_below(r, 4);
	if (pick < 85)
		return 16 + (unsigned int)frag_below(r, WHEEL - 16);
	return 0;
}

/* One kernel object: order 0 (70%), 1 (15%), 2 (10%) or 3 (5%);
 * reclaimable (dentries and inodes: 35%, 70% in a burst) or unmovable. */
static void obj_alloc(struct frag_run *r, bool burst)
{
	unsigned long pick = frag_below(r, 100);
	unsigned int order = pick < 70 ? 0 : pick < 85 ? 1 : pick < 95 ? 2 : 3;
	int mt = frag_below(r, 100) < (burst ? 70u : 35u) ? MIGRATE_RECLAIMABLE : MIGRATE_UNMOVABLE;
	gfp_t gfp = GFP_KERNEL | __GFP_NOWARN | (mt == MIGRATE_RECLAIMABLE ? __GFP_RECLAIMABLE : 0);
	unsigned int life = obj_lifetime(r, burst);
	uint32_t i = r->free_slots - 1;
	struct page *page;

	if (!r->free_slots || !(page = alloc_pages_node(r->pgdat->node_id, gfp, order))) {
		r->kobj_failed++;
		return;
	}
	r->free_slots = objs[i].next;
	objs[i] = (struct frag_obj){
		.pfn = page_to_pfn(page), .order = order, .mt = mt, .live = true
	};
	if (life) {
		objs[i].next = r->wheel[(r->step + life) % WHEEL];
		r->wheel[(r->step + life) % WHEEL] = i + 1;
	}
}

/* Free every object on one wheel slot. */
static void objs_expire(struct frag_run *r, unsigned int slot)
{
	uint32_t i = r->wheel[slot];

	r->wheel[slot] = 0;
	while (i) {
		uint32_t next = objs[i - 1].next;

		obj_free(r, i - 1);
		i = next;
	}
}

/* --- the processes ---------------------------------------------------------- */

/* The word page addr of process p holds: its address and the process. */
static uint64_t stamp(const struct frag_run *r, const struct frag_proc *p, unsigned long addr)
{
	return addr ^ ((uint64_t)(p - r->proc) << 56);
}

/* A VMA being faulted in, a few pages at a time; pages 0: none. */
struct frag_fault {
	struct frag_proc *p;
	unsigned long addr, pages, done;
};

/* Fault in up to n more pages of f (order-0 faults), writing each page's
 * stamp. A fault that fails unmaps the VMA (pages 0). */
static void fault_some(struct frag_run *r, struct frag_fault *f, unsigned long n)
{
	switch_mm(f->p->mm);
	for (; n && f->done < f->pages; n--, f->done++) {
		unsigned long a = f->addr + f->done * PAGE_SIZE;
		uint64_t word = stamp(r, f->p, a);

		if (copy_to_user(a, &word, sizeof(word))) {
			vm_munmap(f->p->mm, f->addr, f->pages * PAGE_SIZE);
			f->pages = f->done = 0;
			r->chunk_failed++;
			return;
		}
	}
}

static void chunk_unmap(struct frag_run *r, struct frag_proc *p, unsigned int i)
{
	vm_munmap(p->mm, p->chunk[i].addr, p->chunk[i].pages * PAGE_SIZE);
	r->user_pages -= p->chunk[i].pages;
	p->chunk[i] = p->chunk[--p->nr];
}

/* A daemon maps its memory while the load ramps up and keeps it: the
 * churn never unmaps its VMAs, and it outlives the load. */
static bool is_daemon(const struct frag_run *r, const struct frag_proc *p)
{
	return (p - r->proc) % DAEMON_EVERY == 0;
}

/* Unmap a random VMA of a random process that has one, daemons apart.
 * Return: false if none has any. */
static bool unmap_random_chunk(struct frag_run *r)
{
	unsigned long first = frag_below(r, NR_PROCS);

	for (unsigned long k = 0; k < NR_PROCS; k++) {
		struct frag_proc *p = &r->proc[(first + k) % NR_PROCS];

		if (p->mm && p->nr && !is_daemon(r, p)) {
			chunk_unmap(r, p, (unsigned int)frag_below(r, p->nr));
			return true;
		}
	}
	return false;
}

/* The process exits: its mm goes with every folio and table. */
static void proc_exit(struct frag_run *r, struct frag_proc *p)
{
	for (unsigned int i = 0; i < p->nr; i++)
		r->user_pages -= p->chunk[i].pages;
	p->nr = 0;
	mm_destroy(p->mm);
	p->mm = NULL;
}

/* One VMA's size: 16 << e pages and up to as many more (64 KiB..4 MiB,
 * as many small as large ones), at most 1/64 of the node. */
static unsigned long chunk_pages(struct frag_run *r)
{
	unsigned long base = 16ul << frag_below(r, 6);

	return MIN(base + frag_below(r, base), r->max_chunk);
}

/* Unmap VMAs at random while `pages` more would pass the user target or
 * leave the node short (the margin keeps kernel allocations possible). */
static void make_room(struct frag_run *r, unsigned long pages)
{
	while (r->user_pages + pages > r->user_target ||
	       node_free_pages(r->pgdat) < pages + r->margin) {
		if (!unmap_random_chunk(r))
			break;
	}
}

/* Map the VMAs NR_CONCURRENT different processes fault in this step;
 * one that does not fit the target, or a daemon's after the ramp, is
 * left out (pages 0). */
static void step_mmap(struct frag_run *r, struct frag_fault *f)
{
	unsigned long total = 0, taken = 0, k;

	for (unsigned int i = 0; i < NR_CONCURRENT; i++) {
		do
			k = frag_below(r, NR_PROCS);
		while (taken & (1ul << k));
		taken |= 1ul << k;
		f[i].p = &r->proc[k];
		f[i].pages = is_daemon(r, f[i].p) && r->step >= r->ramp ? 0 : chunk_pages(r);
		f[i].done = 0;
		total += f[i].pages;
	}
	make_room(r, total);
	for (unsigned int i = 0; i < NR_CONCURRENT; i++) {
		struct frag_proc *p = f[i].p;

		if (!f[i].pages)
			continue;
		if (p->nr == PROC_CHUNKS)
			chunk_unmap(r, p, (unsigned int)frag_below(r, p->nr));
		if (r->user_pages + total > r->user_target) {
			total -= f[i].pages;
			f[i].pages = 0;
			continue;
		}
		f[i].addr = vm_mmap(p->mm, 0, f[i].pages * PAGE_SIZE, VM_READ | VM_WRITE, 0);
		if (IS_ERR_VALUE(f[i].addr))
			f[i].pages = 0;
	}
}

/*
 * One step: NR_CONCURRENT processes fault in a new VMA each, taking turns
 * of 1..FAULT_BATCH pages, as processes running side by side do, so their
 * pages interleave in physical memory; the kernel makes nr_objs objects
 * (burst ones if burst) spread evenly between the turns.
 */
static void user_step(struct frag_run *r, unsigned long nr_objs, bool burst)
{
	struct frag_fault f[NR_CONCURRENT];
	unsigned long turns = 0, gap = 0, made = 0;
	bool busy = true;

	step_mmap(r, f);
	for (unsigned int i = 0; i < NR_CONCURRENT; i++)
		gap += f[i].pages * 2 / (FAULT_BATCH + 1); /* the turns expected */
	gap = MAX(gap / nr_objs, 1ul);
	while (busy) {
		busy = false;
		for (unsigned int i = 0; i < NR_CONCURRENT; i++) {
			if (f[i].done == f[i].pages)
				continue;
			fault_some(r, &f[i], 1 + frag_below(r, FAULT_BATCH));
			if (++turns % gap == 0 && made < nr_objs && ++made)
				obj_alloc(r, burst);
			busy = true;
		}
	}
	while (made++ < nr_objs)
		obj_alloc(r, burst);
	for (unsigned int i = 0; i < NR_CONCURRENT; i++) {
		if (!f[i].pages)
			continue;
		f[i].p->chunk[f[i].p->nr++] = (struct frag_chunk){ f[i].addr, f[i].pages };
		r->user_pages += f[i].pages;
	}
}

/* --- the workload ------------------------------------------------------------ */

static int run_init(struct frag_run *r, struct pglist_data *pgdat, unsigned int seed)
{
	unsigned long nr_pages = pgdat->node_spanned_pages;

	memset(r, 0, sizeof(*r));
	r->pgdat = pgdat;
	r->rng = 0x9e3779b97f4a7c15ull * seed;
	/* Kernel allocations between the faults must not find the node at
	 * its watermark: the high one (where Linux's kswapd stops) and 1%. */
	r->margin = nr_pages / 100;
	for (int z = 0; z < pgdat->nr_zones; z++)
		r->margin += pgdat->node_zones[z]._watermark[WMARK_HIGH];
	r->max_chunk = nr_pages / 64;
	for (uint32_t i = 0; i < MAX_OBJS; i++)
		objs[i] = (struct frag_obj){ .next = i + 1 < MAX_OBJS ? i + 2 : 0 };
	r->free_slots = 1;
	for (int i = 0; i < NR_PROCS; i++) {
		r->proc[i].mm = mm_create(pgdat->node_id);
		if (!r->proc[i].mm)
			return -1;
		/* Order-0 faults in every build: user memory is the same
		 * whether THP is compiled in or not. */
		r->proc[i].mm->flags |= MMF_DISABLE_THP;
	}
	return 0;
}

/*
 * Fill and churn: the user target ramps up over the first quarter of the
 * steps, then holds; kernel objects come and go at every step, and eight
 * times after the ramp the kernel has a burst: BURST_STEPS steps that
 * make BURST_PCT of the node in objects, which the user side makes room
 * for as reclaim would.
 */
static void run_workload(struct frag_run *r)
{
	unsigned long nr_pages = r->pgdat->node_spanned_pages;
	unsigned long steps = nr_pages / STEPS_PER_PAGES, ramp = r->ramp = steps / 4;
	unsigned long period = MAX((steps - ramp) / 8, 2ul * BURST_STEPS);
	unsigned long burst_objs = nr_pages * BURST_PCT / 100 * 10 / 17 / BURST_STEPS;

	for (r->step = 0; r->step < steps; r->step++) {
		bool burst = r->step >= ramp && (r->step - ramp) % period < BURST_STEPS;

		r->user_target = nr_pages * USER_FILL / 100 * MIN(r->step + 1, ramp) / ramp;
		user_step(r, burst ? burst_objs : KOBJS_PER_STEP, burst);
		objs_expire(r, (unsigned int)(r->step % WHEEL));
	}
}

/* What goes before the attempts, as when stress-highalloc's background
 * load ends: every process but the daemons exits, the daemons unmap a
 * quarter of their VMAs, and only the lifelong kernel objects stay. */
static void free_part(struct frag_run *r)
{
	for (int i = 0; i < NR_PROCS; i++) {
		struct frag_proc *p = &r->proc[i];
		unsigned int drop = p->nr / 4;

		if (!is_daemon(r, p)) {
			proc_exit(r, p);
			continue;
		}
		while (drop--)
			chunk_unmap(r, p, (unsigned int)frag_below(r, p->nr));
	}
	for (unsigned int slot = 0; slot < WHEEL; slot++)
		objs_expire(r, slot);
	drain_node_pages(r->pgdat);
}

/* --- what the node looks like ------------------------------------------------ */

/* Linux: struct contig_page_info and fill_contig_page_info (mm/vmstat.c),
 * summed over the node's zones, the per-CPU lists drained first so that
 * their pages count as free. */
struct frag_contig_info {
	unsigned long free_pages, free_blocks_total, free_blocks_suitable;
};

static void frag_fill_contig_info(struct pglist_data *pgdat, unsigned int suitable_order,
				  struct frag_contig_info *info)
{
	*info = (struct frag_contig_info){ 0 };
	drain_node_pages(pgdat);
	for (int z = 0; z < pgdat->nr_zones; z++) {
		for (unsigned int o = 0; o <= MAX_PAGE_ORDER; o++) {
			unsigned long blocks = pgdat->node_zones[z].free_area[o].nr_free;

			info->free_blocks_total += blocks;
			info->free_pages += blocks << o;
			if (o >= suitable_order)
				info->free_blocks_suitable += blocks << (o - suitable_order);
		}
	}
}

/* Linux: unusable_free_index. Thousandths of free memory in blocks too
 * small for the order (0: all usable, 1000: none). */
static long frag_unusable_index(unsigned int order, const struct frag_contig_info *info)
{
	if (!info->free_pages)
		return 0;
	return (long)((info->free_pages - (info->free_blocks_suitable << order)) * 1000 /
		      info->free_pages);
}

/* Linux: __fragmentation_index. -1000 while a block of the order is free;
 * else 0..1000: towards 0 the allocation fails for lack of memory,
 * towards 1000 because free memory is in too many small pieces (the
 * kernel compacts above vm.extfrag_threshold, 500). */
static long frag_fragmentation_index(unsigned int order, const struct frag_contig_info *info)
{
	unsigned long requested = 1ul << order;

	if (!info->free_blocks_total)
		return 0;
	if (info->free_blocks_suitable)
		return -1000;
	return 1000 -
	       (long)((1000 + info->free_pages * 1000 / requested) / info->free_blocks_total);
}

/*
 * What compaction cannot fix and what grouping by mobility failed to keep
 * apart: the 2 MiB blocks holding a page compaction cannot move (in use,
 * not an LRU folio: kernel objects, page tables, mm_structs), and the
 * pageblocks holding an allocation of another migratetype than theirs
 * (Linux's "Number of mixed blocks" in /proc/pagetypeinfo), all types.
 */
static void scan_node(const struct frag_run *r, long *unmovable_2m, long *mixed)
{
	unsigned long start = r->pgdat->node_start_pfn;
	unsigned long end = start + r->pgdat->node_spanned_pages;
	unsigned long count[MIGRATE_TYPES], last_2m = ~0ul;

	*unmovable_2m = *mixed = 0;
	for (unsigned long pfn = start; pfn < end; pfn++) {
		unsigned long span = pfn_free_span(pfn);

		if (span) {
			pfn += span - 1;
		} else if (!PageLRU(pfn_to_page(pfn)) && pfn >> ORDER_2M != last_2m) {
			last_2m = pfn >> ORDER_2M;
			++*unmovable_2m;
		}
	}
	for (int z = 0; z < r->pgdat->nr_zones; z++) {
		zone_mixed_pageblocks(&r->pgdat->node_zones[z], count);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			*mixed += (long)count[mt];
	}
}

/* --- the attempts -------------------------------------------------------------- */

/* Allocate order-9 blocks with gfp until one fails, adding them to the
 * held ones. Return: how many this call got. */
static unsigned long grab_2m(struct frag_run *r, gfp_t gfp, unsigned long *nr_held)
{
	unsigned long got = 0;
	struct page *page;

	while (*nr_held < ARRAY_SIZE(held) &&
	       (page = alloc_pages_node(r->pgdat->node_id, gfp, ORDER_2M))) {
		held[(*nr_held)++] = page_to_pfn(page);
		got++;
	}
	return got;
}

/* Every user page still mapped holds its stamp (compaction moved some).
 * Return: how many do not. */
static unsigned long count_lost(struct frag_run *r)
{
	unsigned long lost = 0;

	for (int i = 0; i < NR_PROCS; i++) {
		struct frag_proc *p = &r->proc[i];

		if (!p->mm)
			continue;
		switch_mm(p->mm);
		for (unsigned int c = 0; c < p->nr; c++) {
			for (unsigned long a = p->chunk[c].addr;
			     a < p->chunk[c].addr + p->chunk[c].pages * PAGE_SIZE; a += PAGE_SIZE) {
				uint64_t word = 0;

				if (copy_from_user(&word, a, sizeof(word)) ||
				    word != stamp(r, p, a))
					lost++;
			}
		}
	}
	return lost;
}

/* The attempts, without compaction and then with it, and what the node
 * looked like before and between them. */
static void attempts(struct frag_run *r, unsigned int s, unsigned long *nr_held)
{
	struct pglist_data *pgdat = r->pgdat;
	unsigned long before[ARRAY_SIZE(compact_events)];
	struct frag_contig_info info;
	unsigned long light, free_pages;
	uint64_t t0;

	frag_fill_contig_info(pgdat, ORDER_2M, &info);
	free_pages = MAX(info.free_pages, 1ul);
	metrics[FM_FREE_2M][s] = (long)(free_pages >> ORDER_2M);
	metrics[FM_UNUSABLE][s] = frag_unusable_index(ORDER_2M, &info);
	scan_node(r, &metrics[FM_UNMOVABLE_2M][s], &metrics[FM_MIXED][s]);
	metrics[FM_FALLBACKS][s] = (long)pgdat->vm_events[PGALLOC_FALLBACK];
	metrics[FM_STEALS][s] = (long)pgdat->vm_events[PGALLOC_STEAL];
	light = grab_2m(r, FRAG_GFP_NOCOMPACT, nr_held);
	/* Linux computes it when an allocation has failed: now. */
	frag_fill_contig_info(pgdat, ORDER_2M, &info);
	metrics[FM_FRAGINDEX][s] = frag_fragmentation_index(ORDER_2M, &info);
	for (unsigned int i = 0; i < ARRAY_SIZE(compact_events); i++)
		before[i] = pgdat->vm_events[compact_events[i].ev];
	t0 = arch_cycles();
	grab_2m(r, FRAG_GFP_COMPACT, nr_held);
	metrics[FM_COMPACT_TIME][s] = (long)(arch_cycles() - t0);
	for (unsigned int i = 0; i < ARRAY_SIZE(compact_events); i++)
		metrics[compact_events[i].m][s] =
			(long)(pgdat->vm_events[compact_events[i].ev] - before[i]);
	/* Success against free memory / 2 MiB, in tenths of a percent. */
	metrics[FM_NOCOMPACT][s] = (long)(light * HPAGE_PMD_NR * 1000 / free_pages);
	metrics[FM_COMPACT][s] = (long)(*nr_held * HPAGE_PMD_NR * 1000 / free_pages);
}

/*
 * The second run's attempts: the HugeTLB pool on this node grows one page
 * at a time, as `echo N > nr_hugepages` would for each N, until a page
 * does not come (Linux's set_max_huge_pages stops there too). Return: 0,
 * or -1 (printed) if the workload did not leave the node as the THP run
 * found it (it must: same seed, same allocator).
 */
static int hugetlb_attempts(struct frag_run *r, unsigned int s)
{
	struct pglist_data *pgdat = r->pgdat;
	unsigned long stalls = pgdat->vm_events[COMPACTSTALL], nocompact = 0, free_pages;
	struct frag_contig_info info;
	struct hstate h;

	frag_fill_contig_info(pgdat, ORDER_2M, &info);
	free_pages = MAX(info.free_pages, 1ul);
	if ((long)(free_pages >> ORDER_2M) != metrics[FM_FREE_2M][s]) {
		pr_err("bench fragment: seed %u: the HugeTLB run found %lu free 2M, the THP run "
		       "%ld\n",
		       s + 1, free_pages >> ORDER_2M, metrics[FM_FREE_2M][s]);
		return -1;
	}
	hstate_init(&h, ORDER_2M, pgdat->node_id);
	for (;;) {
		unsigned long before = h.nr_huge_pages;

		set_max_huge_pages(&h, before + 1);
		if (h.nr_huge_pages == before)
			break;
		if (pgdat->vm_events[COMPACTSTALL] == stalls)
			nocompact++;
	}
	metrics[FM_HTLB_NOCOMPACT][s] = (long)(nocompact * HPAGE_PMD_NR * 1000 / free_pages);
	metrics[FM_HTLB_COMPACT][s] = (long)(h.nr_huge_pages * HPAGE_PMD_NR * 1000 / free_pages);
	set_max_huge_pages(&h, 0);
	return 0;
}

/* --- one seed ---------------------------------------------------------------------- */

/* Give everything back: the blocks, the processes, the lifelong objects.
 * Return: 0, or -1 (printed) if a page is missing or the buddy
 * allocator's invariants broke. */
static int run_teardown(struct frag_run *r, unsigned long nr_held)
{
	char err[160];

	while (nr_held)
		__free_pages(pfn_to_page(held[--nr_held]), ORDER_2M);
	for (int i = 0; i < NR_PROCS; i++)
		if (r->proc[i].mm)
			proc_exit(r, &r->proc[i]);
	for (uint32_t i = 0; i < MAX_OBJS; i++)
		if (objs[i].live)
			obj_free(r, i);
	drain_node_pages(r->pgdat);
	if (node_free_pages(r->pgdat) != r->pgdat->node_spanned_pages) {
		pr_err("bench fragment: %lu of %lu pages free after the run\n",
		       node_free_pages(r->pgdat), r->pgdat->node_spanned_pages);
		return -1;
	}
	if (buddy_check(r->pgdat, err, sizeof(err))) {
		pr_err("bench fragment: buddy_check: %s\n", err);
		return -1;
	}
	return 0;
}

/* Seed s + 1 on a fresh node: the workload, then the THP attempts
 * (hugetlb false) or the HugeTLB pool's (true). Return: 0, or -1
 * (printed) when the node could not be set up, a user page lost its
 * contents or the teardown found a fault. */
static int run_seed_once(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned int s,
			 bool hugetlb)
{
	unsigned long nr_held = 0, lost;
	int ret = 0;

	pgdat_init(&frag_node, nid, start_pfn, start_pfn + nr_pages, frag_pageblock_flags);
	free_pfn_range_to_buddy(start_pfn, start_pfn + nr_pages);
	if (run_init(&run, &frag_node, s + 1)) {
		pr_err("bench fragment: mm_create failed\n");
		ret = -1;
	} else {
		run_workload(&run);
		free_part(&run);
		if (hugetlb)
			ret = hugetlb_attempts(&run, s);
		else
			attempts(&run, s, &nr_held);
		if (!hugetlb && (run.kobj_failed || run.chunk_failed))
			kprintf("seed %u: the allocator refused %lu kernel objects and %lu VMAs' "
				"faults\n",
				s + 1, run.kobj_failed, run.chunk_failed);
		lost = count_lost(&run);
		if (lost) {
			pr_err("bench fragment: seed %u: %lu user pages lost their contents\n",
			       s + 1, lost);
			ret = -1;
		}
	}
	if (run_teardown(&run, nr_held))
		ret = -1;
	pgdat_destroy(&frag_node);
	return ret;
}

/* Seed s + 1: the THP run, then the HugeTLB run of the same workload. */
static int run_seed(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned int s)
{
	int ret = run_seed_once(start_pfn, nr_pages, nid, s, false);

	return ret ? ret : run_seed_once(start_pfn, nr_pages, nid, s, true);
}

/* --- the table and the record ------------------------------------------------------ */

/* How a metric reads: as is, tenths ("93.1"), thousandths ("0.812", as
 * Linux's extfrag files) or millions of arch_cycles() units ("12.345":
 * ms of ns, Mcycles of cycles). */
enum frag_fmt {
	FMT_PLAIN,
	FMT_TENTHS,
	FMT_MILLI,
	FMT_MILLIONS
};

/* The record's columns after the build's own, in order. unit NULL: the
 * time unit. spread: NAME_min and NAME_max over the seeds follow. */
static const struct frag_col {
	const char *name, *unit;
	enum frag_metric m;
	enum frag_fmt fmt;
	bool spread;
} frag_cols[] = {
	{ "thp_nocompact", "%", FM_NOCOMPACT, FMT_TENTHS, true },
	{ "thp_compact", "%", FM_COMPACT, FMT_TENTHS, true },
	{ "hugetlb_nocompact", "%", FM_HTLB_NOCOMPACT, FMT_TENTHS, true },
	{ "hugetlb_compact", "%", FM_HTLB_COMPACT, FMT_TENTHS, true },
	{ "unusable_index", "index", FM_UNUSABLE, FMT_MILLI, false },
	{ "fragmentation_index", "index", FM_FRAGINDEX, FMT_MILLI, false },
	{ "compact_time", NULL, FM_COMPACT_TIME, FMT_MILLIONS, false },
	{ "free_2m", "count", FM_FREE_2M, FMT_PLAIN, false },
	{ "unmovable_2m", "count", FM_UNMOVABLE_2M, FMT_PLAIN, false },
	{ "mixed", "count", FM_MIXED, FMT_PLAIN, false },
	{ "fallbacks", "count", FM_FALLBACKS, FMT_PLAIN, false },
	{ "steals", "count", FM_STEALS, FMT_PLAIN, false },
	{ "pgmigrate_success", "count", FM_MIGRATED, FMT_PLAIN, false },
	{ "compact_stall", "count", FM_COMPACT_STALL, FMT_PLAIN, false },
	{ "compact_fail", "count", FM_COMPACT_FAIL, FMT_PLAIN, false },
	{ "compact_success", "count", FM_COMPACT_SUCCESS, FMT_PLAIN, false },
	{ "compact_migrate_scanned", "count", FM_MIGRATE_SCANNED, FMT_PLAIN, false },
	{ "compact_free_scanned", "count", FM_FREE_SCANNED, FMT_PLAIN, false },
	{ "compact_isolated", "count", FM_ISOLATED, FMT_PLAIN, false },
};

static const char *format_value(char *buf, size_t len, long v, enum frag_fmt fmt)
{
	const char *sign = v < 0 ? "-" : "";
	unsigned long a = (unsigned long)(v < 0 ? -v : v);

	switch (fmt) {
	case FMT_TENTHS:
		ksnprintf(buf, len, "%s%lu.%lu", sign, a / 10, a % 10);
		break;
	case FMT_MILLI:
		ksnprintf(buf, len, "%s%lu.%03lu", sign, a / 1000, a % 1000);
		break;
	case FMT_MILLIONS:
		ksnprintf(buf, len, "%s%lu.%03lu", sign, a / 1000000, a / 1000 % 1000);
		break;
	default:
		ksnprintf(buf, len, "%ld", v);
	}
	return buf;
}

/* Which of the seeds' values of metric m: the median (which 1), the
 * smallest (0) or the largest (2). */
static long seed_stat(enum frag_metric m, unsigned int seeds, int which)
{
	long v[FRAG_MAX_SEEDS];

	for (unsigned int i = 0; i < seeds; i++) {
		unsigned int j = i;

		for (; j > 0 && v[j - 1] > metrics[m][i]; j--)
			v[j] = v[j - 1];
		v[j] = metrics[m][i];
	}
	return which == 0 ? v[0] : which == 2 ? v[seeds - 1] : v[seeds / 2];
}

/* The human table's columns: the heading and the metric. */
static const struct {
	const char *head;
	enum frag_metric m;
	enum frag_fmt fmt;
} table_cols[] = {
	{ "free2M", FM_FREE_2M, FMT_PLAIN },
	{ "nocomp%", FM_NOCOMPACT, FMT_TENTHS },
	{ "compact%", FM_COMPACT, FMT_TENTHS },
	{ "htlb0%", FM_HTLB_NOCOMPACT, FMT_TENTHS },
	{ "htlb%", FM_HTLB_COMPACT, FMT_TENTHS },
	{ "unusable", FM_UNUSABLE, FMT_MILLI },
	{ "fragidx", FM_FRAGINDEX, FMT_MILLI },
	{ "unmov2M", FM_UNMOVABLE_2M, FMT_PLAIN },
	{ "mixed", FM_MIXED, FMT_PLAIN },
	{ "fallback", FM_FALLBACKS, FMT_PLAIN },
	{ "steals", FM_STEALS, FMT_PLAIN },
	{ "migrated", FM_MIGRATED, FMT_PLAIN },
	{ "compact", FM_COMPACT_TIME, FMT_MILLIONS },
};

static void print_table_row(const char *label, const long *v)
{
	char buf[24];

	kprintf("%-7s", label);
	for (unsigned int c = 0; c < ARRAY_SIZE(table_cols); c++)
		kprintf(" %9s",
			format_value(buf, sizeof(buf), v[table_cols[c].m], table_cols[c].fmt));
	kprintf("\n");
}

static void print_table(unsigned long nr_pages, unsigned int seeds, const char *time_unit,
			unsigned long cma_bytes)
{
	long v[NR_FRAG_METRICS];
	char label[16];

	kprintf("pageblock_order %u (%lu KiB): %lu pageblocks in a %lu MiB node; smallest CMA area "
		"%lu KiB\n",
		(unsigned int)pageblock_order,
		(unsigned long)(pageblock_nr_pages * PAGE_SIZE / KIB), nr_pages >> pageblock_order,
		(unsigned long)(nr_pages * PAGE_SIZE / MIB), (unsigned long)(cma_bytes / KIB));
	kprintf("%-7s", "seed");
	for (unsigned int c = 0; c < ARRAY_SIZE(table_cols); c++)
		kprintf(" %9s", table_cols[c].head);
	kprintf("\n");
	for (unsigned int s = 0; s < seeds; s++) {
		for (unsigned int m = 0; m < NR_FRAG_METRICS; m++)
			v[m] = metrics[m][s];
		ksnprintf(label, sizeof(label), "%u", s + 1);
		print_table_row(label, v);
	}
	for (unsigned int m = 0; m < NR_FRAG_METRICS; m++)
		v[m] = seed_stat(m, seeds, 1);
	print_table_row("median", v);
	kprintf("free2M = free memory / 2 MiB when the attempts start; nocomp%% and compact%% = "
		"order-9\nblocks got without compaction and in all with it, against free2M;\n"
		"htlb0%% and htlb%% = the same for the HugeTLB pool (nr_hugepages raised\n"
		"page by page) after the same workload run again;\n"
		"unusable and fragidx = Linux's unusable free space index (before) and\n"
		"fragmentation index (after the attempts without compaction) at order 9;\n"
		"unmov2M = 2 MiB blocks holding a page compaction cannot move; mixed =\n"
		"pageblocks holding another migratetype's page; compact = %s spent on the\n"
		"attempts with compaction.\n\n",
		time_unit);
}

/* Append one column's header cells (with NAME_min, NAME_max if spread). */
static size_t append_cols(char *buf, size_t len, size_t used, const struct frag_col *c,
			  const char *time_unit)
{
	const char *unit = c->unit ? c->unit : time_unit;

	used += ksnprintf(buf + used, len - used, " %s[%s]", c->name, unit);
	if (c->spread)
		used += ksnprintf(buf + used, len - used, " %s_min[%s] %s_max[%s]", c->name, unit,
				  c->name, unit);
	return MIN(used, len - 1);
}

/* Append one column's values: the median, then the spread if it has one. */
static size_t append_values(char *buf, size_t len, size_t used, const struct frag_col *c,
			    unsigned int seeds)
{
	static const int order[] = { 1, 0, 2 }; /* median, min, max */
	char v[24];

	for (unsigned int i = 0; i < (c->spread ? 3u : 1u); i++)
		used += ksnprintf(
			buf + used, len - used, " %s",
			format_value(v, sizeof(v), seed_stat(c->m, seeds, order[i]), c->fmt));
	return MIN(used, len - 1);
}

static void print_record(unsigned long nr_pages, unsigned int seeds, const char *time_unit,
			 unsigned long cma_bytes)
{
	char cols[1200], row[512], env[64];
	size_t nc, nr;
	struct benchrec rec;

	nc = ksnprintf(
		cols, sizeof(cols),
		"pageblock_order[order] pageblock[bytes] smallest_cma[bytes] pageblocks[count]");
	nr = ksnprintf(row, sizeof(row), "%u %lu %lu %lu", (unsigned int)pageblock_order,
		       (unsigned long)(pageblock_nr_pages * PAGE_SIZE), cma_bytes,
		       nr_pages >> pageblock_order);
	for (unsigned int c = 0; c < ARRAY_SIZE(frag_cols); c++) {
		nc = append_cols(cols, sizeof(cols), nc, &frag_cols[c], time_unit);
		nr = append_values(row, sizeof(row), nr, &frag_cols[c], seeds);
	}
	ksnprintf(env, sizeof(env), " node_bytes=%lu seeds=%u", nr_pages * PAGE_SIZE, seeds);
	benchrec_begin(&rec, "fragment", cols, env);
	benchrec_row(&rec, "%s", row);
	benchrec_end(&rec);
}

int bench_fragment(unsigned long start_pfn, unsigned long nr_pages, int nid, unsigned int seeds,
		   const char *time_unit)
{
	struct mm_struct *prev = current_mm;
	/* Compaction moves user memory through the anonymous memory's
	 * migration hook: thp_init registers it at boot, a host program
	 * has no boot. */
	migrate_folio_fn prev_hook = set_migrate_folio_hook(anon_migrate_folio);
	unsigned long cma_bytes;
	int ret = 0;

	nr_pages = MIN(ALIGN_DOWN(nr_pages, MAX_ORDER_NR_PAGES), FRAG_MAX_PAGES);
	if (nr_pages < 4 * MAX_ORDER_NR_PAGES || NODE_DATA(nid)) {
		kprintf("bench: need %lu free pages and node %d unused\n", 4 * MAX_ORDER_NR_PAGES,
			nid);
		set_migrate_folio_hook(prev_hook);
		return -1;
	}
	if (pgdat_pageblock_flags_size(start_pfn, start_pfn + nr_pages) >
	    sizeof(frag_pageblock_flags)) {
		kprintf("bench: pageblock flags of %lu pages do not fit\n", nr_pages);
		set_migrate_folio_hook(prev_hook);
		return -1;
	}
	seeds = MAX(1u, MIN(seeds, (unsigned int)FRAG_MAX_SEEDS));
	cma_bytes = bench_smallest_cma(start_pfn, nr_pages);
	for (unsigned int s = 0; s < seeds && !ret; s++)
		ret = run_seed(start_pfn, nr_pages, nid, s);
	switch_mm(prev);
	set_migrate_folio_hook(prev_hook);
	if (ret)
		return ret;
	print_table(nr_pages, seeds, time_unit, cma_bytes);
	print_record(nr_pages, seeds, time_unit, cma_bytes);
	return 0;
}

/* `bench fragment`: the experiment over the test memory as a private node,
 * 3 seeds (quick: at most 16 MiB, one seed). */
int bench_fragment_command(bool quick)
{
	unsigned long start_pfn, nr_pages;
	int ret = -1;

	bench_banner("Folium fragmentation experiment");
	/* The private node lives in memory node 0 lends for this run. */
	if (test_memory_offline() || mm_test_memory(&start_pfn, &nr_pages) < 0) {
		kprintf("bench: no test memory (the mm: line above says why)\n");
	} else {
		kprintf("\n");
		if (quick)
			nr_pages = MIN(nr_pages, PHYS_PFN(16 * MIB));
		ret = bench_fragment(start_pfn, nr_pages, MAX_NUMNODES - 1, quick ? 1 : 3,
				     "Mcycles");
	}
	test_memory_online();
	return ret;
}
