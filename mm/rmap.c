/*
 * Reverse mapping of anonymous folios: who maps a folio, where, and how
 * often (Linux: mm/rmap.c), and migrating them. Without fork a folio has
 * one owner, its mm, and the user address of its first page
 * (folio_anon_mm, folio_anon_addr); its mapcount counts the entries that
 * map it: one per PTE, one for a PMD. Example: a 64K folio faulted in at
 * 0x40003000 has address 0x40000000 and mapcount 16; rmap_walk visits
 * those 16 PTEs, and migrating it copies 64K and rewrites them to the new
 * pfns with their old flags.
 */
#include <vm.h>

void folio_add_new_anon_rmap(struct folio *folio, struct mm_struct *mm, unsigned long addr)
{
	folio_set_anon_owner(folio, mm, ALIGN_DOWN(addr, folio_size(folio)));
	page_mapcount_reset(&folio->page);
	if (folio_test_large(folio))
		mthp_stats[folio_order(folio)][MTHP_STAT_NR_ANON]++;
	/* A PMD-order folio is mapped by one PMD when it is faulted in. */
	if (folio_order(folio) == HPAGE_PMD_ORDER)
		folio_mapcount_add(folio, 1);
	else
		folio_mapcount_add(folio, (int)folio_nr_pages(folio));
}

void folio_add_anon_rmap_ptes(struct folio *folio, unsigned int nr)
{
	folio_mapcount_add(folio, (int)nr);
}

void folio_remove_rmap_ptes(struct folio *folio, unsigned int nr)
{
	folio_mapcount_add(folio, -(int)nr);
}

void folio_remove_rmap_pmd(struct folio *folio)
{
	folio_mapcount_add(folio, -1);
}

/* --- rmap_walk: every entry that maps a folio ------------------------------------ */

struct rmap_walk_state {
	struct page_vma_mapped_walk pvmw;
	const struct rmap_walk_control *rwc;
};

/* A PTE in the folio's range maps it only if it maps the page at the
 * same offset: after a partial munmap and a new fault it may map another
 * folio. */
static int rmap_walk_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct rmap_walk_state *s = walk->private;
	struct folio *folio = s->pvmw.folio;
	unsigned long n = (addr - folio_anon_addr(folio)) >> PAGE_SHIFT;

	if (pte_pfn(*ptep) != folio_pfn(folio) + n)
		return 0;
	s->pvmw.address = addr;
	s->pvmw.pte = ptep;
	s->pvmw.pmd = NULL;
	return s->rwc->rmap_one(&s->pvmw, s->rwc->arg);
}

static int rmap_walk_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct rmap_walk_state *s = walk->private;

	if (!pmd_leaf(*pmdp))
		return 0;
	walk->action = ACTION_CONTINUE;
	if (pmd_pfn(*pmdp) != folio_pfn(s->pvmw.folio))
		return 0;
	s->pvmw.address = addr & PMD_MASK;
	s->pvmw.pte = NULL;
	s->pvmw.pmd = pmdp;
	return s->rwc->rmap_one(&s->pvmw, s->rwc->arg);
}

static const struct mm_walk_ops rmap_walk_ops = {
	.pmd_entry = rmap_walk_pmd,
	.pte_entry = rmap_walk_pte,
};

int rmap_walk(struct folio *folio, const struct rmap_walk_control *rwc)
{
	struct rmap_walk_state s = {
		.pvmw = { .folio = folio, .mm = folio_anon_mm(folio) },
		.rwc = rwc,
	};
	unsigned long start = folio_anon_addr(folio);

	if (!s.pvmw.mm || !folio_mapped(folio))
		return 0;
	return walk_page_range(s.pvmw.mm, start, start + folio_size(folio), &rmap_walk_ops, &s);
}

static int count_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	(*(unsigned int *)arg)++;
	return 0;
}

unsigned int folio_count_mappings(struct folio *folio)
{
	unsigned int count = 0;
	const struct rmap_walk_control rwc = { .rmap_one = count_one, .arg = &count };

	rmap_walk(folio, &rwc);
	return count;
}

struct page_mapcount_arg {
	unsigned long address; /* where a PTE would map the page */
	int count;
};

static int count_page_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct page_mapcount_arg *a = arg;

	if (pvmw->pmd || pvmw->address == a->address)
		a->count++;
	return 0;
}

/* A page of a folio can be mapped only at its offset from the folio's
 * address: by the PMD that maps the whole folio, or by one PTE there. */
int folio_precise_page_mapcount(struct folio *folio, struct page *page)
{
	struct page_mapcount_arg a = {
		.address = folio_anon_addr(folio) +
			   ((page_to_pfn(page) - folio_pfn(folio)) << PAGE_SHIFT),
	};
	const struct rmap_walk_control rwc = { .rmap_one = count_page_one, .arg = &a };

	if (!folio_test_anon(folio))
		return 0; /* the zero pages are never rmapped */
	rmap_walk(folio, &rwc);
	return a.count;
}

/* --- unmapping --------------------------------------------------------------------- */

/*
 * How many PTEs from pvmw's map the folio's next pages in one table: the
 * whole run for a lazyfree large folio, else 1. Linux:
 * folio_unmap_pte_batch (it, too, batches only lazyfree folios). Example:
 * a 64K lazyfree folio mapped whole: 16, so one call unmaps it.
 */
static unsigned int folio_unmap_pte_batch(const struct page_vma_mapped_walk *pvmw)
{
	struct folio *folio = pvmw->folio;
	unsigned long end = folio_anon_addr(folio) + folio_size(folio);

	if (!folio_test_large(folio) || !folio_test_anon(folio) || folio_test_swapbacked(folio))
		return 1;
	end = pmd_addr_end(pvmw->address, end);
	return folio_pte_batch(folio, pvmw->pte, *pvmw->pte,
			       (unsigned int)((end - pvmw->address) >> PAGE_SHIFT), NULL, NULL);
}

/* A PMD leaf is cleared and flushed at once (its one entry); a run of
 * PTEs is cleared with one rmap and counter update for the run (the
 * walk then skips its emptied entries) and flushed by the caller, with
 * the folio's other PTEs. arg: set when a PTE was cleared. */
static int unmap_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	bool *ptes_cleared = arg;
	unsigned int nr;

	if (pvmw->pmd) {
		pmdp_huge_clear_flush(pvmw->mm, pvmw->address, pvmw->pmd);
		folio_remove_rmap_pmd(pvmw->folio);
		pvmw->mm->counters[MM_ANONPAGES] -= HPAGE_PMD_NR;
		return 0;
	}
	nr = folio_unmap_pte_batch(pvmw);
	get_and_clear_full_ptes(pvmw->mm, pvmw->address, pvmw->pte, nr);
	folio_remove_rmap_ptes(pvmw->folio, nr);
	pvmw->mm->counters[MM_ANONPAGES] -= nr;
	*ptes_cleared = true;
	return 0;
}

/* Before the caller frees the pages: the PTEs' range flushed once, as
 * Linux's try_to_unmap_one on one CPU (should_defer_flush is false
 * there: no other CPU to batch a shootdown for). */
void try_to_unmap(struct folio *folio)
{
	bool ptes_cleared = false;
	const struct rmap_walk_control rwc = { .rmap_one = unmap_one, .arg = &ptes_cleared };
	struct mm_struct *mm = folio_anon_mm(folio);
	unsigned long addr = folio_anon_addr(folio);

	if (!mm)
		return;
	update_hiwater_rss(mm); /* Linux: try_to_unmap_one */
	rmap_walk(folio, &rwc);
	if (ptes_cleared)
		flush_tlb_range(mm, addr, addr + folio_size(folio));
}

/* --- migration ------------------------------------------------------------------------ */

struct remap_state {
	struct folio *dst;
	bool ptes_remapped; /* to be flushed together by the caller */
};

/* Point the entry at the same page of s->dst, keeping its flags. A PMD
 * leaf's one translation is flushed as it is cleared (Linux: the
 * pmdp_invalidate of set_pmd_migration_entry: one invlpg, where a flush of
 * its 512 pages would drop the whole TLB). */
static int remap_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct remap_state *s = arg;
	struct mm_struct *mm = pvmw->mm;
	unsigned long n = (pvmw->address - folio_anon_addr(pvmw->folio)) >> PAGE_SHIFT;
	uint64_t old;

	if (pvmw->pmd) {
		old = pmdp_huge_clear_flush(mm, pvmw->address, pvmw->pmd);
		set_pmd_at(mm, pvmw->address, pvmw->pmd,
			   pfn_pmd(folio_pfn(s->dst), old & ~PTE_ADDR_MASK));
	} else {
		old = ptep_get_and_clear(mm, pvmw->address, pvmw->pte);
		set_ptes(mm, pvmw->address, pvmw->pte,
			 pfn_pte(folio_pfn(s->dst) + n, old & ~PTE_ADDR_MASK), 1);
		s->ptes_remapped = true;
	}
	return 0;
}

/* The owner's state moves from src to dst: owner, mapcount, the data
 * flags and the LRU position; src keeps only migration's reference. */
static void move_anon_state(struct folio *dst, struct folio *src)
{
	const unsigned long moved = (1ul << PG_anon) | (1ul << PG_swapbacked) | (1ul << PG_dirty) |
				    (1ul << PG_referenced) | (1ul << PG_lru) |
				    (1ul << PG_partially_mapped) | (1ul << PG_mlocked) |
				    (1ul << PG_unevictable);
	int mapcount = folio_mapcount(src);

	folio_set_anon_owner(dst, folio_anon_mm(src), folio_anon_addr(src));
	folio_mapcount_add(dst, mapcount);
	dst->page.flags |= src->page.flags & moved;
	dst->page.private = src->page.private; /* mlock_count */
	if (folio_test_lru(src)) {
		list_add(&dst->page.lru, &src->page.lru);
		list_del(&src->page.lru);
	}
	src->page.flags &= ~moved;
	folio_clear_anon_owner(src);
	folio_mapcount_add(src, -mapcount);
}

/*
 * Copy src into dst, point every entry that maps src at the same page of
 * dst with its old flags (young, dirty, RW), then one flush for the
 * PTEs' range (a PMD leaf's one entry is flushed by remap_one). Linux unmaps to migration entries
 * before copying because other CPUs may write meanwhile; Folium has one CPU and the caller does not
 * touch the user half while migrating, so copy, swap and flush suffice.
 * Return: 0, or -EBUSY if src is not a mapped anon folio of dst's order
 * or the entries found do not match its mapcount (nothing changed).
 */
int anon_migrate_folio(struct folio *dst, struct folio *src)
{
	struct remap_state state = { .dst = dst };
	const struct rmap_walk_control rwc = { .rmap_one = remap_one, .arg = &state };
	struct mm_struct *mm = folio_anon_mm(src);
	unsigned long addr = folio_anon_addr(src);

	if (!folio_test_anon(src) || !mm || !folio_mapped(src) ||
	    folio_order(dst) != folio_order(src))
		return -EBUSY;
	if (folio_count_mappings(src) != (unsigned int)folio_mapcount(src))
		return -EBUSY;
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	rmap_walk(src, &rwc);
	if (state.ptes_remapped)
		flush_tlb_range(mm, addr, addr + folio_size(src));
	move_anon_state(dst, src);
	return 0;
}
