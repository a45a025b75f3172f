/*
 * The byte model behind madvise_random_test and fuzz_vm (compaction is in
 * the mix too: it moves folios under the mappings, so no byte may change).
 * The span is cut into 64-byte cells; each holds the value its bytes must
 * read and a "maybe zero" bit (mz). A write sets cells exactly;
 * MADV_DONTNEED sets them to zero; MADV_FREE marks every cell of the pages
 * it covers mz: until reclaim frees the folio they still read their value,
 * after it zero, and a page is replaced whole. So a page whose mz cells
 * were all set by one MADV_FREE (whole) reads all-old or all-zero
 * there; cells written since are exact either way. A second MADV_FREE
 * before that is resolved drops whole (old, written, zero mixes are
 * then possible) and cells are checked one by one. A cell observed zero
 * stays zero (the folio was freed, the new one is zero-filled); a cell
 * observed old is not pinned: reclaim may still free it later.
 * Example: write 0x11 over page P, MADV_FREE P, write 0x22 to cell 3: P
 * reads 0x11 everywhere but cell 3 (folio kept), or 0 everywhere but cell
 * 3 (freed before the write) — never a mix of 0x11 and 0.
 */
#include <compaction.h>
#include <kernel.h>
#include <mman.h>
#include "vm_model.h"

#define NR_CELLS (VM_MODEL_SPAN / VM_MODEL_CELL)
#define NR_PAGES (VM_MODEL_SPAN / PAGE_SIZE)
#define CELLS_PER_PAGE (PAGE_SIZE / VM_MODEL_CELL)
#define READ_MAX (4 * PAGE_SIZE)
#define RW (VM_READ | VM_WRITE)

/* Offsets in the span: PMD-aligned 2 MiB (PMD-mapped at order 9), 4K
 * past alignment (every large order cut at its start), 256K aligned, and
 * 68K at an odd page (edges on both sides). Gaps between them make
 * madvise ranges that run off a VMA (-ENOMEM). */
static const struct {
	unsigned long off, len;
} vm_model_vmas[] = {
	{ 0x000000, 0x200000 },
	{ 0x401000, 0x0fd000 },
	{ 0x600000, 0x040000 },
	{ 0x683000, 0x011000 },
};
#define NR_VMAS ARRAY_SIZE(vm_model_vmas)

/* What each cell may read (val; or zero too while mz, a lazyfree
 * cell), and whether a page was lazyfreed whole: for the mm, and for its
 * forked child (a copy of the mm's at the fork); cur is the one the
 * current operation is about. */
struct model_bytes {
	uint8_t val[NR_CELLS];
	bool mz[NR_CELLS];
	bool whole[NR_PAGES];
};
static struct model_bytes parent_bytes, child_bytes;
static struct model_bytes *cur = &parent_bytes;
/* fork_copy_batched, zap_batched, wp_reuse_batched, wp_copy_folio as
 * vm_model_init found them; vm_model_fini puts them back. */
static bool saved_modes[4];
static uint8_t read_buf[READ_MAX];

static int fail(struct vm_model *m, const char *fmt, ...) __printf(2, 3);
static int fail(struct vm_model *m, const char *fmt, ...)
{
	va_list ap;
	int n = ksnprintf(m->err, sizeof(m->err), "step %lu: ", m->step);

	va_start(ap, fmt);
	kvsnprintf(m->err + n, sizeof(m->err) - n, fmt, ap);
	va_end(ap);
	return -1;
}

/* Return: a decision in [0, bound): fuzzer bytes (0 once used up) or
 * xorshift64*. */
static unsigned long rnd(struct vm_model *m, unsigned long bound)
{
	unsigned long v = 0;

	if (m->data) {
		for (unsigned long b = bound - 1; b; b >>= 8)
			v = v << 8 | (m->pos < m->len ? m->data[m->pos++] : 0);
	} else {
		m->state ^= m->state >> 12;
		m->state ^= m->state << 25;
		m->state ^= m->state >> 27;
		v = (m->state * 0x2545f4914f6cdd1dull) >> 16;
	}
	return bound ? v % bound : 0;
}

bool vm_model_exhausted(const struct vm_model *m)
{
	return m->data && m->pos >= m->len;
}

static unsigned long cell_of(unsigned long addr)
{
	return (addr - VM_MODEL_BASE) / VM_MODEL_CELL;
}

static unsigned long vma_start(unsigned int v)
{
	return VM_MODEL_BASE + vm_model_vmas[v].off;
}

static unsigned long vma_end(unsigned int v)
{
	return vma_start(v) + vm_model_vmas[v].len;
}

/* Bit n of the result: order n enabled; any of orders 1..PMD order.
 * And each batched path of fork, zap and reuse on or off (the per-page
 * path it replaced), and the whole-folio copy on write on or off, so
 * both forms of each are fuzzed against the same bytes. */
static void pick_thp_orders(struct vm_model *m)
{
	unsigned long modes = rnd(m, 16);

	thp_orders_enabled = rnd(m, 1ul << HPAGE_PMD_ORDER) << 1;
	fork_copy_batched = modes & 1;
	zap_batched = modes & 2;
	wp_reuse_batched = modes & 4;
	wp_copy_folio = modes & 8;
}

int vm_model_init(struct vm_model *m, struct mm_struct *mm, struct pglist_data *node, uint64_t seed,
		  const uint8_t *data, size_t len)
{
	*m = (struct vm_model){
		.mm = mm,
		.node = node,
		.data = data,
		.len = len,
		.state = seed ? seed : 1,
		.nr_cpus = 1,
	};
	memset(&parent_bytes, 0, sizeof(parent_bytes));
	cur = &parent_bytes;
	saved_modes[0] = fork_copy_batched;
	saved_modes[1] = zap_batched;
	saved_modes[2] = wp_reuse_batched;
	saved_modes[3] = wp_copy_folio;
	for (unsigned int v = 0; v < NR_VMAS; v++)
		if (vm_mmap(mm, vma_start(v), vm_model_vmas[v].len, RW, 0) != vma_start(v))
			return fail(m, "vm_mmap %lx+%lx failed", vma_start(v),
				    vm_model_vmas[v].len);
	pick_thp_orders(m);
	return 0;
}

/* A cell-aligned range inside VMA v: [*addr, *addr + *len). */
static void pick_cells(struct vm_model *m, unsigned int v, unsigned long max_len,
		       unsigned long *addr, unsigned long *len)
{
	unsigned long cells = vm_model_vmas[v].len / VM_MODEL_CELL;
	unsigned long first = rnd(m, cells);
	unsigned long n = 1 + rnd(m, MIN(cells - first, max_len / VM_MODEL_CELL));

	*addr = vma_start(v) + first * VM_MODEL_CELL;
	*len = n * VM_MODEL_CELL;
}

/* A page range around VMA v that may stick out of it by two pages on
 * either side; a quarter of the time exactly the VMA. */
static void pick_pages(struct vm_model *m, unsigned int v, unsigned long *start, unsigned long *end)
{
	unsigned long pages = vm_model_vmas[v].len / PAGE_SIZE;

	if (rnd(m, 4) == 0) {
		*start = vma_start(v);
		*end = vma_end(v);
		return;
	}
	*start = vma_start(v) - 2 * PAGE_SIZE + rnd(m, pages + 2) * PAGE_SIZE;
	*end = *start + (1 + rnd(m, pages + 4)) * PAGE_SIZE;
	*start = MAX(*start, VM_MODEL_BASE);
	*end = MAX(MIN(*end, VM_MODEL_BASE + VM_MODEL_SPAN), *start + PAGE_SIZE);
}

/* Return: whether every byte of a cell equals its first (word compares:
 * this loop is most of the model's time). */
static bool cell_uniform(const uint8_t *cell)
{
	uint64_t want = cell[0] * 0x0101010101010101ull, w;

	for (unsigned int i = 0; i < VM_MODEL_CELL; i += sizeof(w)) {
		memcpy(&w, cell + i, sizeof(w));
		if (w != want)
			return false;
	}
	return true;
}

/* Compare the cells of one page that [addr, addr + len) covers with
 * what was read into buf, collapsing mz cells seen zero. */
static int check_page(struct vm_model *m, unsigned long addr, unsigned long len, const uint8_t *buf)
{
	unsigned long page = (addr - VM_MODEL_BASE) / PAGE_SIZE;
	bool seen_old = false, seen_zero = false;

	for (unsigned long off = 0; off < len; off += VM_MODEL_CELL) {
		unsigned long c = cell_of(addr + off);
		uint8_t b = buf[off];

		if (!cell_uniform(buf + off))
			return fail(m, "read %lx: cell of mixed bytes, first %02x", addr + off, b);
		if (b == cur->val[c]) {
			seen_old |= cur->mz[c] && b;
			continue;
		}
		if (b || !cur->mz[c])
			return fail(m, "read %lx: %02x, expected %02x%s", addr + off, b,
				    cur->val[c], cur->mz[c] ? " or 00 (lazyfree)" : "");
		seen_zero = true;
		cur->val[c] = 0;
		cur->mz[c] = false;
	}
	if (!cur->whole[page] || !seen_zero)
		return 0;
	if (seen_old)
		return fail(m, "read %lx: lazyfree page half old, half zero", addr);
	/* Freed: the page's other lazy cells are zero too. */
	for (unsigned long c = page * CELLS_PER_PAGE; c < (page + 1) * CELLS_PER_PAGE; c++)
		if (cur->mz[c])
			cur->val[c] = 0, cur->mz[c] = false;
	cur->whole[page] = false;
	return 0;
}

/* Read a cell-aligned range of at most READ_MAX bytes and check it. */
static int check_chunk(struct vm_model *m, unsigned long addr, unsigned long len)
{
	int ret = copy_from_user(read_buf, addr, len);

	if (ret)
		return fail(m, "copy_from_user %lx+%lx: %d", addr, len, ret);
	for (unsigned long off = 0; off < len;) {
		unsigned long n = MIN(len - off, PAGE_SIZE - ((addr + off) & (PAGE_SIZE - 1)));

		if (check_page(m, addr + off, n, read_buf + off))
			return -1;
		off += n;
	}
	return 0;
}

static int check_range(struct vm_model *m, unsigned long addr, unsigned long len)
{
	for (unsigned long off = 0; off < len; off += READ_MAX)
		if (check_chunk(m, addr + off, MIN(READ_MAX, len - off)))
			return -1;
	return 0;
}

static int check_all_of(struct vm_model *m)
{
	for (unsigned int v = 0; v < NR_VMAS; v++)
		if (check_range(m, vma_start(v), vm_model_vmas[v].len))
			return -1;
	return 0;
}

/* Run op on the child's bytes through the child's mm, then come back. */
static int in_child(struct vm_model *m, int (*op)(struct vm_model *m, unsigned int v),
		    unsigned int v)
{
	int ret;

	switch_mm(m->child);
	cur = &child_bytes;
	ret = op(m, v);
	cur = &parent_bytes;
	switch_mm(m->mm);
	return ret;
}

static int check_all_op(struct vm_model *m, unsigned int v)
{
	(void)v;
	return check_all_of(m);
}

static int check_counts(struct vm_model *m, unsigned int v);

int vm_model_check_all(struct vm_model *m)
{
	if (check_all_of(m))
		return -1;
	for (unsigned int v = 0; v < NR_VMAS; v++)
		if (check_counts(m, v))
			return -1;
	return m->child ? in_child(m, check_all_op, 0) : 0;
}

#ifdef FOLIUM_HOST
extern unsigned int host_cpu;

/* The next step runs on CPU @cpu of the host's model, which loads the mm
 * there if it has not yet; the CPU left keeps it loaded (and cached). */
static void move_to_cpu(struct vm_model *m, unsigned int cpu)
{
	host_cpu = cpu;
	if (current_mm != m->mm)
		switch_mm(m->mm);
}
#else
static void move_to_cpu(struct vm_model *m, unsigned int cpu)
{
	(void)m, (void)cpu;
}
#endif

void vm_model_fini(struct vm_model *m)
{
	move_to_cpu(m, 0);
	if (m->child)
		mm_destroy(m->child);
	m->child = NULL;
	fork_copy_batched = saved_modes[0];
	zap_batched = saved_modes[1];
	wp_reuse_batched = saved_modes[2];
	wp_copy_folio = saved_modes[3];
}

/* --- mapcounts against the page tables -------------------------------- */

/* Each folio's entries by mm, as rmap_walk finds them. */
struct mapping_census {
	struct mm_struct *mm[2]; /* the mm, the child (or NULL) */
	unsigned int n[2], other, leaves;
};

static int census_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct mapping_census *c = arg;

	if (pvmw->mm == c->mm[0])
		c->n[0]++;
	else if (c->mm[1] && pvmw->mm == c->mm[1])
		c->n[1]++;
	else
		c->other++;
	c->leaves += !pvmw->pte;
	return 0;
}

/*
 * folio's counts against its entries: the total and the leaves (PMDs)
 * rmap finds, each mm's slot (Linux 6.15's MM-ID mapcounts), and "maybe
 * mapped shared", which with two mms at most must be exact.
 */
static int check_folio_counts(struct vm_model *m, struct folio *folio, unsigned long addr)
{
	struct mapping_census c = { { m->mm, m->child }, { 0, 0 }, 0, 0 };
	const struct rmap_walk_control rwc = { .rmap_one = census_one, .arg = &c };
	unsigned int total;

	rmap_walk(folio, &rwc);
	total = c.n[0] + c.n[1] + c.other;
	if ((unsigned int)folio_mapcount(folio) != total)
		return fail(m, "folio at %lx: mapcount %d, rmap finds %u entries", addr,
			    folio_mapcount(folio), total);
	if (folio_maybe_mapped_shared(folio) != (c.n[0] && c.n[1]))
		return fail(m, "folio at %lx: maybe_mapped_shared %d with %u + %u entries", addr,
			    folio_maybe_mapped_shared(folio), c.n[0], c.n[1]);
	if (!folio_test_large(folio))
		return 0;
	if ((unsigned int)folio_entire_mapcount(folio) != c.leaves)
		return fail(m, "folio at %lx: entire mapcount %d, %u leaves", addr,
			    folio_entire_mapcount(folio), c.leaves);
	for (int i = 0; i < 2; i++)
		for (int slot = 0; c.mm[i] && slot < 2; slot++)
			if (folio_mm_id(folio, slot) == c.mm[i]->mm_id &&
			    (unsigned int)folio->_mm_id_mapcount[slot] + 1 != c.n[i])
				return fail(m, "folio at %lx: slot %d counts %d for %u entries",
					    addr, slot, folio->_mm_id_mapcount[slot] + 1, c.n[i]);
	return 0;
}

struct count_walk {
	struct vm_model *m;
	unsigned long start;	 /* of the range walked */
	struct mm_struct *other; /* the other mm (the child's parent), or NULL */
};

/* A writable anon entry maps an anon-exclusive page (Linux's rule); each
 * folio is counted once, at its first page or the range's start. */
static int count_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct count_walk *w = walk->private;
	struct page *page;
	struct folio *folio;

	if (is_zero_pfn(pte_pfn(*ptep)))
		return 0;
	page = pte_page(*ptep);
	folio = page_folio(page);
	if (pte_write(*ptep) && !PageAnonExclusive(page))
		return fail(w->m, "writable PTE at %lx maps a page not anon-exclusive", addr);
	if (PageAnonExclusive(page) && w->other) {
		pte_t *o = mm_find_pte(w->other, addr);

		if (o && pte_present(*o) && pte_pfn(*o) == pte_pfn(*ptep))
			return fail(w->m, "page at %lx is anon-exclusive but both mms map it",
				    addr);
	}
	if (page != &folio->page && addr != w->start)
		return 0;
	return check_folio_counts(w->m, folio, addr);
}

static int count_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct count_walk *w = walk->private;
	struct folio *folio;

	(void)next;
	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (is_huge_zero_pmd(*pmdp))
		return 0;
	folio = pmd_folio(*pmdp);
	if (pmd_write(*pmdp) && !PageAnonExclusive(&folio->page))
		return fail(w->m, "writable PMD at %lx maps a folio not anon-exclusive", addr);
	return check_folio_counts(w->m, folio, addr);
}

static const struct mm_walk_ops count_walk_ops = { .pmd_entry = count_pmd, .pte_entry = count_pte };

/* The counts of every folio VMA v maps, in the mm and in the child. */
static int check_counts(struct vm_model *m, unsigned int v)
{
	struct mm_struct *mms[2] = { m->mm, m->child };

	for (int i = 0; i < 2; i++) {
		struct count_walk w = { m, vma_start(v), mms[1 - i] };

		if (mms[i] &&
		    walk_page_range(mms[i], vma_start(v), vma_end(v), &count_walk_ops, &w))
			return -1;
	}
	return 0;
}

static int op_write(struct vm_model *m, unsigned int v)
{
	unsigned long addr, len;
	uint8_t val = 1 + rnd(m, 255);
	int ret;

	pick_cells(m, v, 16 * PAGE_SIZE, &addr, &len);
	ret = fill_user(addr, val, len);
	if (ret)
		return fail(m, "fill_user %lx+%lx %02x: %d", addr, len, val, ret);
	memset(&cur->val[cell_of(addr)], val, len / VM_MODEL_CELL);
	memset(&cur->mz[cell_of(addr)], 0, len / VM_MODEL_CELL);
	return 0;
}

/* Return: what madvise must return for [start, end): 0 if VMAs cover it,
 * -ENOMEM if any page of it is outside every VMA. */
static int covered(unsigned long start, unsigned long end)
{
	unsigned long bytes = 0;

	for (unsigned int v = 0; v < NR_VMAS; v++)
		if (vma_start(v) < end && start < vma_end(v))
			bytes += MIN(end, vma_end(v)) - MAX(start, vma_start(v));
	return bytes == end - start ? 0 : -ENOMEM;
}

/* The model's side of madvise on the pages of [start, end) in a VMA. */
static void model_advise(unsigned long start, unsigned long end, int advice)
{
	for (unsigned long a = start; a < end; a += PAGE_SIZE) {
		unsigned long page = (a - VM_MODEL_BASE) / PAGE_SIZE, c0 = cell_of(a);
		bool in_vma = covered(a, a + PAGE_SIZE) == 0, any_mz = false;

		if (!in_vma)
			continue;
		for (unsigned long c = c0; c < c0 + CELLS_PER_PAGE; c++)
			any_mz |= cur->mz[c];
		if (advice == MADV_DONTNEED)
			memset(&cur->val[c0], 0, CELLS_PER_PAGE);
		memset(&cur->mz[c0], advice == MADV_FREE, CELLS_PER_PAGE);
		cur->whole[page] = advice == MADV_FREE && !any_mz;
	}
}

static int op_madvise(struct vm_model *m, unsigned int v, int advice)
{
	unsigned long start, end;
	int ret, want;

	pick_pages(m, v, &start, &end);
	lazyfree_mode = rnd(m, 2) ? LAZYFREE_SPLIT : LAZYFREE_BATCHED;
	want = covered(start, end);
	ret = do_madvise(m->mm, start, end - start, advice);
	if (ret != want)
		return fail(m, "madvise %lx+%lx %s (%s): %d, expected %d", start, end - start,
			    advice == MADV_FREE ? "free" : "dontneed",
			    lazyfree_mode == LAZYFREE_SPLIT ? "split" : "batched", ret, want);
	model_advise(start, end, advice);
	return 0;
}

/* Arguments Linux refuses or ignores: nothing may change. */
static int op_bad_madvise(struct vm_model *m, unsigned int v)
{
	unsigned long start = vma_start(v) + rnd(m, vm_model_vmas[v].len);
	int ret;

	if (!(start & (PAGE_SIZE - 1)))
		start++;
	ret = do_madvise(m->mm, start, PAGE_SIZE, MADV_FREE);
	if (ret != -EINVAL)
		return fail(m, "madvise unaligned %lx: %d, expected -EINVAL", start, ret);
	ret = do_madvise(m->mm, vma_start(v), PAGE_SIZE, 999);
	if (ret != -EINVAL)
		return fail(m, "madvise advice 999: %d, expected -EINVAL", ret);
	ret = do_madvise(m->mm, vma_start(v), 0, MADV_DONTNEED);
	if (ret)
		return fail(m, "madvise len 0: %d, expected 0", ret);
	return 0;
}

/* Compact the node's zones: fully, or until a 64K or a 2 MiB block is
 * free. Folios move (the migration hook rewrites their PTEs or PMD);
 * what every byte reads must not change, which the step's read and the
 * final read check. */
static int op_compact(struct vm_model *m)
{
	static const int orders[] = { -1, 4, HPAGE_PMD_ORDER };
	int order = orders[rnd(m, ARRAY_SIZE(orders))];

	for (int zt = 0; zt < MAX_NR_ZONES; zt++)
		if (m->node->node_zones[zt].managed_pages)
			compact_zone_order(&m->node->node_zones[zt], order, NULL);
	return 0;
}

/* fork: a child whose bytes are the mm's now (dup_mmap; every folio
 * shared until a write copies it, lazyfree cells lazy in both); a child
 * already there is read whole and destroyed first. Later operations go
 * on in the mm, with writes (op_child_write) and reads in the child. */
static int op_fork(struct vm_model *m)
{
	int ret;

	if (m->child) {
		ret = in_child(m, check_all_op, 0);
		vm_model_fini(m);
		return ret;
	}
	m->child = mm_create(m->node->node_id);
	if (!m->child)
		return fail(m, "mm_create for fork: no memory");
	ret = dup_mmap(m->child, m->mm);
	if (ret)
		return fail(m, "dup_mmap: %d", ret);
	child_bytes = parent_bytes;
	return 0;
}

/* A page range inside the VMA of the current mm that holds a random
 * page of model VMA v (mprotect and mremap split VMAs; merges usually
 * join them again, but the range must not depend on it). */
static void pick_range_in_vma(struct vm_model *m, unsigned int v, unsigned long *start,
			      unsigned long *end)
{
	unsigned long a = vma_start(v) + rnd(m, vm_model_vmas[v].len / PAGE_SIZE) * PAGE_SIZE;
	const struct vm_area_struct *vma = find_vma(current_mm, a);
	unsigned long pages = (vma->vm_end - vma->vm_start) / PAGE_SIZE;

	*start = vma->vm_start + rnd(m, pages) * PAGE_SIZE;
	*end = *start + (1 + rnd(m, (vma->vm_end - *start) / PAGE_SIZE)) * PAGE_SIZE;
}

/* mprotect(PROT_READ) and back over part of a VMA, batched or entry by
 * entry, in the mm or the child: no byte changes, and check_counts then
 * finds no writable entry on a page that is not anon-exclusive (Linux's
 * can_change_pte_writable gave RW back only where a fault would). */
static int op_mprotect(struct vm_model *m, unsigned int v)
{
	unsigned long start, end;
	int ret;

	pick_range_in_vma(m, v, &start, &end);
	mprotect_batched = rnd(m, 2);
	ret = vm_mprotect(current_mm, start, end - start, VM_READ);
	if (!ret)
		ret = check_range(m, start, end - start);
	if (!ret)
		ret = vm_mprotect(current_mm, start, end - start, RW);
	mprotect_batched = true;
	if (ret)
		return fail(m, "mprotect %lx+%lx: %d", start, end - start, ret);
	return 0;
}

/* mremap part of a VMA outside the span and back (MREMAP_FIXED both
 * ways; the first move with MREMAP_DONTUNMAP a third of the time), by a
 * distance PMD-aligned a quarter of the time (whole tables and leaves
 * move), batched or entry by entry: every folio moves, none is copied,
 * so every byte and every lazyfree cell is as it was. */
static int op_mremap(struct vm_model *m, unsigned int v)
{
	const unsigned long dontunmap = rnd(m, 3) ? 0 : MREMAP_DONTUNMAP,
			    fixed = MREMAP_MAYMOVE | MREMAP_FIXED;
	unsigned long start, end, away = VM_MODEL_BASE + VM_MODEL_SPAN + 2 * PMD_SIZE;
	long ret;

	pick_range_in_vma(m, v, &start, &end);
	away += rnd(m, 4) ? rnd(m, PMD_SIZE / PAGE_SIZE) * PAGE_SIZE : (start & ~PMD_MASK);
	mremap_batched = rnd(m, 2);
	ret = vm_mremap(current_mm, start, end - start, end - start, fixed | dontunmap, away);
	if (ret == (long)away)
		ret = vm_mremap(current_mm, away, end - start, end - start, fixed, start);
	mremap_batched = true;
	if (ret != (long)start)
		return fail(m, "mremap %lx+%lx via %lx: %ld", start, end - start, away, ret);
	return 0;
}

static int check_vma_op(struct vm_model *m, unsigned int v)
{
	return check_range(m, vma_start(v), vm_model_vmas[v].len);
}

static int run_op(struct vm_model *m, unsigned int op, unsigned int v)
{
	switch (op) {
	case 0:
	case 1:
	case 2:
	case 3:
		return op_write(m, v);
	case 4:
	case 5:
		return op_madvise(m, v, MADV_FREE);
	case 6:
		return op_madvise(m, v, MADV_DONTNEED);
	case 7:
	case 8:
		reclaim_lazyfree(m->node, 1 + rnd(m, 1024));
		return 0;
	case 9:
		return check_range(m, vma_start(v), vm_model_vmas[v].len);
	case 10:
		pick_thp_orders(m);
		return 0;
	case 11:
		return op_compact(m);
	case 12:
		return op_fork(m);
	case 13:
		return m->child ? in_child(m, op_write, v) : 0;
	case 14:
		return m->child ? in_child(m, check_vma_op, v) : 0;
	case 15:
		return m->child && rnd(m, 2) ? in_child(m, op_mprotect, v) : op_mprotect(m, v);
	case 16:
		return m->child && rnd(m, 2) ? in_child(m, op_mremap, v) : op_mremap(m, v);
	default:
		return op_bad_madvise(m, v);
	}
}

int vm_model_step(struct vm_model *m)
{
	unsigned int op, v;
	unsigned long addr, len;
	char err[200];

	if (m->nr_cpus > 1)
		move_to_cpu(m, rnd(m, m->nr_cpus));
	op = rnd(m, 18);
	v = rnd(m, NR_VMAS);
	m->step++;
	if (run_op(m, op, v))
		return -1;
	if (buddy_check(m->node, err, sizeof(err)))
		return fail(m, "after op %u: buddy_check: %s", op, err);
	for (unsigned int u = 0; u < NR_VMAS; u++)
		if (check_counts(m, u))
			return -1;
	v = rnd(m, NR_VMAS);
	pick_cells(m, v, READ_MAX, &addr, &len);
	return check_chunk(m, addr, len);
}
