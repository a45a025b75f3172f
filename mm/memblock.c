/*
 * memblock: the early allocator, two sorted lists of physical ranges —
 * `memory` (all RAM) and `reserved` (RAM, or anything, that is not free).
 * Invariant: each list is sorted, and no two of its regions overlap or
 * touch (touching ones are merged). Free memory is memory minus reserved.
 * Example: memory [0x1000,0x9000), reserved [0x3000,0x4000) → free ranges
 * [0x1000,0x3000) and [0x4000,0x9000); a top-down 0x2000 allocation takes
 * [0x7000,0x9000). Every change rewrites one run of neighbouring regions.
 */
#include <mm.h>

#define PHYS_ADDR_MAX (~(phys_addr_t)0)

struct memblock memblock;

static phys_addr_t region_end(const struct memblock_region *r)
{
	return r->base + r->size;
}

/* Linux: memblock_cap_size — a range running past the top is clipped. */
static phys_addr_t cap_size(phys_addr_t base, phys_addr_t size)
{
	return MIN(size, PHYS_ADDR_MAX - base);
}

/* Empty both lists; no limit on allocations. */
void memblock_init(struct memblock *mb)
{
	memset(mb, 0, sizeof(*mb));
	mb->memory.name = "memory";
	mb->reserved.name = "reserved";
}

/*
 * Replace regions [first, last) of type by the n regions in repl (sorted,
 * and fitting between the neighbours of the run).
 * Return: 0, or -1 with nothing changed if the list would overflow.
 */
static int replace_run(struct memblock_type *type, unsigned long first, unsigned long last,
		       const struct memblock_region *repl, unsigned long n)
{
	unsigned long new_cnt = type->cnt - (last - first) + n;
	unsigned long tail = type->cnt - last;

	if (new_cnt > MEMBLOCK_MAX_REGIONS) {
		pr_err("memblock: %s list is full (%d regions); range %#llx-%#llx "
		       "not recorded\n",
		       type->name, MEMBLOCK_MAX_REGIONS, (unsigned long long)repl[0].base,
		       (unsigned long long)region_end(&repl[n - 1]) - 1);
		return -1;
	}
	memmove(&type->regions[first + n], &type->regions[last], tail * sizeof(type->regions[0]));
	memcpy(&type->regions[first], repl, n * sizeof(repl[0]));
	type->cnt = new_cnt;
	return 0;
}

/*
 * Add [base, base + size) to type. Every region that overlaps or touches
 * the new range is one run of neighbours in the sorted list; the run and
 * the new range become one region (Linux: memblock_add_range followed by
 * memblock_merge_regions). Return: 0, or -1 if the list is full.
 */
static int add_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	struct memblock_region merged;
	unsigned long first = 0, last;

	size = cap_size(base, size);
	if (!size)
		return 0;
	merged = (struct memblock_region){ base, size };
	while (first < type->cnt && region_end(&type->regions[first]) < base)
		first++;
	last = first;
	while (last < type->cnt && type->regions[last].base <= base + size)
		last++;
	if (last > first) {
		phys_addr_t lo = MIN(base, type->regions[first].base);
		phys_addr_t hi = MAX(base + size, region_end(&type->regions[last - 1]));

		merged = (struct memblock_region){ lo, hi - lo };
	}
	return replace_run(type, first, last, &merged, 1);
}

/*
 * Take [base, base + size) out of type. The regions it overlaps are one
 * run; what sticks out on its left and right survives, so cutting a hole
 * in the middle of one region splits it in two (which needs a free slot).
 * Return: 0, or -1 if that split does not fit.
 */
static int remove_range(struct memblock_type *type, phys_addr_t base, phys_addr_t size)
{
	struct memblock_region keep[2];
	unsigned long first = 0, last, n = 0;
	phys_addr_t end;

	size = cap_size(base, size);
	end = base + size;
	while (first < type->cnt && region_end(&type->regions[first]) <= base)
		first++;
	last = first;
	while (last < type->cnt && type->regions[last].base < end)
		last++;
	if (!size || last == first)
		return 0;
	if (type->regions[first].base < base)
		keep[n++] = (struct memblock_region){ type->regions[first].base,
						      base - type->regions[first].base };
	if (region_end(&type->regions[last - 1]) > end)
		keep[n++] =
			(struct memblock_region){ end, region_end(&type->regions[last - 1]) - end };
	return replace_run(type, first, last, keep, n);
}

int memblock_add(struct memblock *mb, phys_addr_t base, phys_addr_t size)
{
	return add_range(&mb->memory, base, size);
}

int memblock_remove(struct memblock *mb, phys_addr_t base, phys_addr_t size)
{
	return remove_range(&mb->memory, base, size);
}

/* Linux allows reserving what is not memory (e.g. a firmware range that
 * straddles the end of RAM); only the part inside memory ever matters. */
int memblock_reserve(struct memblock *mb, phys_addr_t base, phys_addr_t size)
{
	return add_range(&mb->reserved, base, size);
}

/*
 * Step through free memory (memory minus reserved) in ascending order.
 * *idx packs two cursors, as Linux's __next_mem_range: the memory region
 * (low 32 bits) and the gap between reserved regions (high 32 bits); gap
 * g runs from the end of reserved[g - 1] (or 0) to reserved[g] (or the
 * top). Each answer is one memory region cut by one gap; then whichever
 * of the two ends first is advanced.
 */
bool memblock_next_free_range(struct memblock *mb, unsigned long *idx, phys_addr_t *start,
			      phys_addr_t *end)
{
	const struct memblock_type *mem = &mb->memory, *rsv = &mb->reserved;
	unsigned long m = *idx & 0xffffffffu, g = *idx >> 32;

	for (; m < mem->cnt; m++) {
		phys_addr_t m_start = mem->regions[m].base;
		phys_addr_t m_end = region_end(&mem->regions[m]);

		for (; g <= rsv->cnt; g++) {
			phys_addr_t g_start = g ? region_end(&rsv->regions[g - 1]) : 0;
			phys_addr_t g_end = g < rsv->cnt ? rsv->regions[g].base : PHYS_ADDR_MAX;

			if (g_start >= m_end)
				break; /* this gap is past the region: next region */
			if (g_end <= m_start)
				continue;
			*start = MAX(m_start, g_start);
			*end = MIN(m_end, g_end);
			if (m_end <= g_end)
				m++;
			else
				g++;
			*idx = m | (unsigned long)g << 32;
			return true;
		}
	}
	*idx = m | (unsigned long)g << 32;
	return false;
}

/*
 * The highest base in [start, end) where size bytes aligned to align fit
 * in free memory, or 0. Linux's top-down rule: take each free range, clip
 * it, round its last fitting base down to the alignment; the highest
 * candidate wins, so early allocations stay away from low (DMA) memory.
 */
static phys_addr_t find_top_down(struct memblock *mb, phys_addr_t size, phys_addr_t align,
				 phys_addr_t start, phys_addr_t end)
{
	phys_addr_t best = 0, r_start, r_end;
	unsigned long idx = 0;

	while (memblock_next_free_range(mb, &idx, &r_start, &r_end)) {
		phys_addr_t lo = MAX(r_start, start), hi = MIN(r_end, end);
		phys_addr_t cand;

		if (hi <= lo || hi - lo < size)
			continue;
		cand = ALIGN_DOWN(hi - size, align);
		if (cand >= lo)
			best = MAX(best, cand);
	}
	return best;
}

phys_addr_t memblock_phys_alloc_range(struct memblock *mb, phys_addr_t size, phys_addr_t align,
				      phys_addr_t start, phys_addr_t end)
{
	phys_addr_t base;

	if (mb->retired) {
		pr_err("memblock_phys_alloc_range: %#llx bytes asked after the "
		       "buddy allocator took over memory; use alloc_pages()\n",
		       (unsigned long long)size);
		return 0;
	}
	if (!size || !align || (align & (align - 1)))
		return 0;
	/* Linux: never hand out page 0, so 0 can mean failure. */
	start = MAX(start, PAGE_SIZE);
	if (mb->current_limit)
		end = MIN(end, mb->current_limit);
	base = find_top_down(mb, size, align, start, end);
	if (!base || memblock_reserve(mb, base, size) < 0)
		return 0;
	return base;
}

/* Return: like memblock_phys_alloc_range over all memory below the limit. */
phys_addr_t memblock_phys_alloc(struct memblock *mb, phys_addr_t size, phys_addr_t align)
{
	return memblock_phys_alloc_range(mb, size, align, 0, PHYS_ADDR_MAX);
}

phys_addr_t memblock_start_of_DRAM(struct memblock *mb)
{
	return mb->memory.cnt ? mb->memory.regions[0].base : 0;
}

/* Return: the end (exclusive) of the highest memory region, 0 if none. */
phys_addr_t memblock_end_of_DRAM(struct memblock *mb)
{
	const struct memblock_type *mem = &mb->memory;

	return mem->cnt ? region_end(&mem->regions[mem->cnt - 1]) : 0;
}

static phys_addr_t type_size(const struct memblock_type *type)
{
	phys_addr_t total = 0;

	for (unsigned long i = 0; i < type->cnt; i++)
		total += type->regions[i].size;
	return total;
}

phys_addr_t memblock_phys_mem_size(struct memblock *mb)
{
	return type_size(&mb->memory);
}

/* Return: bytes reserved, including reservations outside memory. */
phys_addr_t memblock_reserved_size(struct memblock *mb)
{
	return type_size(&mb->reserved);
}

static void dump_type(const struct memblock_type *type)
{
	printk(" %s.cnt  = %#lx\n", type->name, type->cnt);
	for (unsigned long i = 0; i < type->cnt; i++) {
		const struct memblock_region *r = &type->regions[i];

		printk(" %s[%#lx]\t[%#018llx-%#018llx], %#018llx bytes\n", type->name, i,
		       (unsigned long long)r->base, (unsigned long long)region_end(r) - 1,
		       (unsigned long long)r->size);
	}
}

/* Print both lists the way Linux's memblock=debug does. */
void memblock_dump(struct memblock *mb)
{
	printk("MEMBLOCK configuration:\n");
	printk(" memory size = %#llx reserved size = %#llx\n",
	       (unsigned long long)memblock_phys_mem_size(mb),
	       (unsigned long long)memblock_reserved_size(mb));
	dump_type(&mb->memory);
	dump_type(&mb->reserved);
}
