/*
 * Reverse mapping of anonymous folios: who maps a folio, where, and how
 * often (Linux: mm/rmap.c), and migrating them. A folio points at the
 * anon_vma of the VMA it was faulted in (folio->mapping) with the page
 * index of its first page (folio->index); every VMA that uses that
 * anon_vma (the VMA itself, its splits and moves, its copies in forked
 * children) maps the folio, if at all, at vma_address(vma, index). Its
 * mapcount counts the entries that map it in all of them: one per PTE,
 * one per PMD. Example: a 64K folio faulted in at 0x40003000 of a VMA
 * mapped at 0x40000000 has index 0x40000; after fork the child's copy of
 * the VMA has the same vm_pgoff, rmap_walk visits 16 PTEs in each mm and
 * the mapcount is 32.
 */
#include <fs.h>
#include <pagemap.h>
#include <ramfs.h>
#include <slab.h>
#include <vm.h>

/* --- anon_vma: the reverse map of a family of VMAs --------------------------------- */

/* Linux: anon_vma_cachep, anon_vma_chain_cachep (here the member mms,
 * of anon_vmas and of files' i_mmap alike). */
static struct kmem_cache anon_vma_cachep = KMEM_CACHE_INIT("anon_vma", struct anon_vma);
static struct kmem_cache rmap_member_cachep = KMEM_CACHE_INIT("rmap_member", struct rmap_member);

static void put_anon_vma(struct anon_vma *av)
{
	if (--av->refcount)
		return;
	if (!list_empty(&av->mms))
		pr_err("put_anon_vma: anon_vma %p freed with member mms\n", (void *)av);
	kmem_cache_free(&anon_vma_cachep, av);
}

static struct rmap_member *rmap_find_member(struct list_head *mms, struct mm_struct *mm)
{
	struct rmap_member *m;

	list_for_each_entry(m, mms, node)
		if (m->mm == mm)
			return m;
	return NULL;
}

/* One more VMA of mm on the list mms. Return: 1 when mm is new to it,
 * 0 when it was a member, -ENOMEM. */
static int rmap_member_add(struct list_head *mms, struct mm_struct *mm)
{
	struct rmap_member *m = rmap_find_member(mms, mm);
	bool added = !m;

	if (!m) {
		m = kmem_cache_alloc_node(&rmap_member_cachep, GFP_KERNEL | __GFP_NOWARN, mm->nid);
		if (!m)
			return -ENOMEM;
		m->mm = mm;
		m->nr_vmas = 0;
		list_add_tail(&m->node, mms);
	}
	m->nr_vmas++;
	return added;
}

/* One VMA of mm fewer on mms. Return: true when it was mm's last. */
static bool rmap_member_del(struct list_head *mms, struct mm_struct *mm, const char *who)
{
	struct rmap_member *m = rmap_find_member(mms, mm);

	if (!m) {
		pr_err("%s: mm %p is no member\n", who, (void *)mm);
		return false;
	}
	if (--m->nr_vmas)
		return false;
	list_del(&m->node);
	kmem_cache_free(&rmap_member_cachep, m);
	return true;
}

int anon_vma_link(struct mm_struct *mm, struct anon_vma *av)
{
	int ret = rmap_member_add(&av->mms, mm);

	if (ret > 0)
		av->refcount++;
	return ret < 0 ? ret : 0;
}

void unlink_anon_vma(struct mm_struct *mm, struct anon_vma *av)
{
	if (rmap_member_del(&av->mms, mm, "unlink_anon_vma"))
		put_anon_vma(av);
}

int i_mmap_link(struct mm_struct *mm, struct address_space *mapping)
{
	int ret = rmap_member_add(&mapping->i_mmap, mm);

	return ret < 0 ? ret : 0;
}

void i_mmap_unlink(struct mm_struct *mm, struct address_space *mapping)
{
	rmap_member_del(&mapping->i_mmap, mm, "i_mmap_unlink");
}

/* Could a and b (a just below b) be one VMA but for their flags' access
 * bits? Linux: anon_vma_compatible. */
static bool anon_vma_compatible(const struct vm_area_struct *a, const struct vm_area_struct *b)
{
	return a->vm_end == b->vm_start &&
	       !((a->vm_flags ^ b->vm_flags) & ~(VM_ACCESS_FLAGS | VM_SOFTDIRTY)) &&
	       b->vm_pgoff == linear_page_index(a, a->vm_end);
}

/* A neighbour's anon_vma vma may share, so that mprotect can merge them
 * back later (Linux: find_mergeable_anon_vma; the flat anon_vma needs no
 * reusable_anon_vma check). Return: it, or NULL. */
static struct anon_vma *find_mergeable_anon_vma(struct mm_struct *mm,
						const struct vm_area_struct *vma)
{
	int i = (int)(vma - mm->vmas);

	if (i + 1 < mm->nr_vmas && mm->vmas[i + 1].anon_vma &&
	    anon_vma_compatible(vma, &mm->vmas[i + 1]))
		return mm->vmas[i + 1].anon_vma;
	if (i > 0 && mm->vmas[i - 1].anon_vma && anon_vma_compatible(&mm->vmas[i - 1], vma))
		return mm->vmas[i - 1].anon_vma;
	return NULL;
}

/* Linux: __anon_vma_prepare (a neighbour's, or anon_vma_alloc, then the
 * VMA linked to it). */
int anon_vma_prepare(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct anon_vma *av;

	if (vma->anon_vma)
		return 0;
	av = find_mergeable_anon_vma(mm, vma);
	if (av) {
		anon_vma_link(mm, av); /* mm is a member: cannot fail */
		vma->anon_vma = av;
		return 0;
	}
	av = kmem_cache_alloc_node(&anon_vma_cachep, GFP_KERNEL | __GFP_NOWARN, mm->nid);
	if (!av)
		return -ENOMEM;
	av->refcount = 0;
	INIT_LIST_HEAD(&av->mms);
	if (anon_vma_link(mm, av)) {
		kmem_cache_free(&anon_vma_cachep, av);
		return -ENOMEM;
	}
	vma->anon_vma = av;
	return 0;
}

void folio_set_anon_owner(struct folio *folio, struct anon_vma *av, unsigned long index)
{
	av->refcount++;
	folio->page.mapping = av;
	folio->page.index = index;
}

void folio_clear_anon_owner(struct folio *folio)
{
	struct anon_vma *av = folio->page.mapping;

	folio->page.mapping = NULL;
	folio->page.index = 0;
	if (av)
		put_anon_vma(av);
}

/* --- mapcounts: Linux 6.15's MM-ID scheme ----------------------------------------- */

_Static_assert(offsetof(struct folio, _flags_1) == sizeof(struct page),
	       "a large folio's fields live in its first tail page");
_Static_assert(offsetof(struct folio, _mm_id_mapcount) + sizeof(int[2]) <=
		       sizeof(struct page) + offsetof(struct page, index),
	       "the mapcount fields overlay only page[1]'s lru and mapping");

static void folio_set_mm_id(struct folio *folio, int slot, mm_id_t id)
{
	folio->_mm_id[slot] = (folio->_mm_id[slot] & ~FOLIO_MM_ID_MASK) | id;
}

/*
 * diff more entries of mm map the large folio (Linux:
 * folio_add_return_large_mapcount). mm's slot counts them; an mm without
 * a slot takes a free one, and the folio is "maybe mapped shared" as soon
 * as the new slot's entries are not all there are. A third mm finds no
 * slot: its entries count only in the total, and the bit is set already
 * (two slots are taken).
 */
static void folio_add_large_mapcount(struct folio *folio, int diff, struct mm_struct *mm)
{
	const mm_id_t id = mm->mm_id;
	int new_mapcount = folio->_large_mapcount + diff;

	folio->_large_mapcount = new_mapcount;
	if (folio_mm_id(folio, 0) == id) {
		folio->_mm_id_mapcount[0] += diff;
	} else if (folio_mm_id(folio, 1) == id) {
		folio->_mm_id_mapcount[1] += diff;
	} else if (folio_mm_id(folio, 0) == MM_ID_DUMMY) {
		folio_set_mm_id(folio, 0, id);
		folio->_mm_id_mapcount[0] = diff - 1;
		if (new_mapcount != diff - 1) /* other mappings already */
			folio->_mm_id[1] |= FOLIO_MM_IDS_SHARED_BIT;
	} else if (folio_mm_id(folio, 1) == MM_ID_DUMMY) {
		folio_set_mm_id(folio, 1, id);
		folio->_mm_id_mapcount[1] = diff - 1;
		folio->_mm_id[1] |= FOLIO_MM_IDS_SHARED_BIT; /* slot 0 maps it too */
	}
}

/*
 * diff fewer entries of mm map it (Linux: folio_sub_return_large_mapcount).
 * A slot whose count goes below zero is freed: its mm has no entry left
 * (or some were counted while no slot was free, the corner Linux allows
 * for). When one slot's mm holds every remaining entry, or none is left,
 * the folio is exclusive again.
 */
static void folio_sub_large_mapcount(struct folio *folio, int diff, struct mm_struct *mm)
{
	const mm_id_t id = mm->mm_id;
	int new_mapcount = folio->_large_mapcount - diff;

	folio->_large_mapcount = new_mapcount;
	for (int slot = 0; slot < 2; slot++) {
		if (folio_mm_id(folio, slot) != id)
			continue;
		folio->_mm_id_mapcount[slot] -= diff;
		if (folio->_mm_id_mapcount[slot] >= 0)
			return;
		folio->_mm_id_mapcount[slot] = -1;
		folio_set_mm_id(folio, slot, MM_ID_DUMMY);
		break;
	}
	if (folio->_mm_id_mapcount[0] == new_mapcount || folio->_mm_id_mapcount[1] == new_mapcount)
		folio->_mm_id[1] &= ~FOLIO_MM_IDS_SHARED_BIT;
}

/* Linux: __folio_add_rmap and __folio_remove_rmap, RMAP_LEVEL_PTE (nr
 * entries) or RMAP_LEVEL_PMD (one leaf, also the entire mapcount). */
static void folio_add_rmap(struct folio *folio, int nr, bool leaf, struct mm_struct *mm)
{
	if (!folio_test_large(folio)) {
		folio->page._mapcount += nr;
		return;
	}
	if (leaf)
		folio->_entire_mapcount++;
	folio_add_large_mapcount(folio, nr, mm);
}

static void folio_remove_rmap(struct folio *folio, int nr, bool leaf, struct mm_struct *mm)
{
	if (!folio_test_large(folio)) {
		folio->page._mapcount -= nr;
		return;
	}
	if (leaf)
		folio->_entire_mapcount--;
	folio_sub_large_mapcount(folio, nr, mm);
}

void folio_add_new_anon_rmap(struct folio *folio, struct mm_struct *mm, struct vm_area_struct *vma,
			     unsigned long addr)
{
	unsigned long start = ALIGN_DOWN(addr, folio_size(folio));

	folio_set_anon_owner(folio, vma->anon_vma, linear_page_index(vma, start));
	page_mapcount_reset(&folio->page);
	/* Linux's RMAP_EXCLUSIVE: a new folio is this mm's alone. */
	SetPageAnonExclusive(&folio->page);
	if (!folio_test_large(folio)) {
		folio->page._mapcount = 0;
		return;
	}
	mthp_stats[folio_order(folio)][MTHP_STAT_NR_ANON]++;
	folio_reset_large_mapcounts(folio);
	/* A PMD-order folio is mapped by one PMD when it is faulted in. */
	if (folio_order(folio) == HPAGE_PMD_ORDER) {
		folio_add_rmap(folio, 1, true, mm);
		return;
	}
	for (unsigned long i = 1; i < folio_nr_pages(folio); i++)
		SetPageAnonExclusive(folio_page(folio, i));
	folio_add_rmap(folio, (int)folio_nr_pages(folio), false, mm);
}

void folio_add_anon_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm)
{
	folio_add_rmap(folio, (int)nr, false, mm);
}

/* The mappings of a page-cache folio hold one reference on it together
 * (as an anonymous folio's hold its only one), taken by the first, which
 * also counts the folio in NR_FILE_MAPPED. */
static void folio_file_mapping_starts(struct folio *folio)
{
	if (!folio_mapped(folio)) {
		folio_get(folio);
		folio_pgdat(folio)->nr_file_mapped += folio_nr_pages(folio);
	}
}

/* Linux: folio_add_file_rmap_ptes. */
void folio_add_file_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm)
{
	folio_file_mapping_starts(folio);
	folio_add_rmap(folio, (int)nr, false, mm);
}

/* The node's count of PMD-mapped page-cache pages, shmem's or another
 * file's (Linux: NR_SHMEM_PMDMAPPED, NR_FILE_PMDMAPPED). */
static unsigned long *file_pmdmapped(struct folio *folio)
{
	return folio_test_swapbacked(folio) ? &folio_pgdat(folio)->nr_shmem_pmdmapped
					    : &folio_pgdat(folio)->nr_file_pmdmapped;
}

/* Linux: folio_add_file_rmap_pmd. As the PTEs' version, and the folio's
 * first PMD leaf counts it as PMD-mapped (__folio_add_rmap's
 * nr_pmdmapped, which goes to NR_SHMEM_PMDMAPPED or NR_FILE_PMDMAPPED). */
void folio_add_file_rmap_pmd(struct folio *folio, struct mm_struct *mm)
{
	folio_file_mapping_starts(folio);
	if (!folio_entire_mapcount(folio))
		*file_pmdmapped(folio) += HPAGE_PMD_NR;
	folio_add_rmap(folio, 1, true, mm);
}

/* Both mms map the pages now: neither may reuse them without asking
 * (Linux: folio_try_dup_anon_rmap_ptes clears PageAnonExclusive; it
 * fails for a page that may be pinned, which Folium never has). */
void folio_dup_anon_rmap_ptes(struct folio *folio, struct page *page, unsigned int nr,
			      struct mm_struct *dst_mm)
{
	for (unsigned int i = 0; i < nr; i++)
		ClearPageAnonExclusive(page + i);
	folio_add_rmap(folio, (int)nr, false, dst_mm);
}

void folio_dup_anon_rmap_pmd(struct folio *folio, struct mm_struct *dst_mm)
{
	ClearPageAnonExclusive(&folio->page);
	folio_add_rmap(folio, 1, true, dst_mm);
}

/* A page-cache folio's last mapping went: it leaves NR_FILE_MAPPED (the
 * mappings' reference is the unmapper's to give back). */
static void folio_file_mapping_ends(struct folio *folio)
{
	if (!folio_mapped(folio))
		folio_pgdat(folio)->nr_file_mapped -= folio_nr_pages(folio);
}

void folio_remove_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm)
{
	folio_remove_rmap(folio, (int)nr, false, mm);
	if (!folio_test_anon(folio) && folio->page.mapping)
		folio_file_mapping_ends(folio);
}

void folio_remove_rmap_pmd(struct folio *folio, struct mm_struct *mm)
{
	folio_remove_rmap(folio, 1, true, mm);
	if (folio_test_anon(folio) || !folio->page.mapping)
		return;
	if (!folio_entire_mapcount(folio))
		*file_pmdmapped(folio) -= HPAGE_PMD_NR;
	folio_file_mapping_ends(folio);
}

void folio_put_file_mappings(struct folio *folio)
{
	if (folio_mapped(folio))
		return;
	if (!folio_in_page_cache(folio)) /* truncated while mapped */
		folio_del_lru(folio);
	folio_put(folio);
}

/* HugeTLB folios are mapped whole, by one leaf per mapping, and keep no
 * mm ids (Linux: hugetlb_add_new_anon_rmap, hugetlb_add_anon_rmap,
 * hugetlb_remove_rmap). */
void hugetlb_add_new_anon_rmap(struct folio *folio)
{
	folio_reset_large_mapcounts(folio);
	hugetlb_add_anon_rmap(folio);
}

void hugetlb_add_anon_rmap(struct folio *folio)
{
	folio->_entire_mapcount++;
	folio->_large_mapcount++;
}

void hugetlb_remove_rmap(struct folio *folio)
{
	folio->_entire_mapcount--;
	folio->_large_mapcount--;
}

void folio_move_mapcounts(struct folio *dst, struct folio *src)
{
	if (!folio_test_large(src)) {
		dst->page._mapcount = src->page._mapcount;
		page_mapcount_reset(&src->page);
		return;
	}
	dst->_large_mapcount = src->_large_mapcount;
	dst->_entire_mapcount = src->_entire_mapcount;
	dst->_mm_id[0] = src->_mm_id[0];
	dst->_mm_id[1] = src->_mm_id[1];
	dst->_mm_id_mapcount[0] = src->_mm_id_mapcount[0];
	dst->_mm_id_mapcount[1] = src->_mm_id_mapcount[1];
	folio_reset_large_mapcounts(src);
}

/* --- rmap_walk: every entry that maps a folio ------------------------------------ */

struct rmap_walk_state {
	struct page_vma_mapped_walk pvmw;
	const struct rmap_walk_control *rwc;
};

/* A PTE in the folio's range maps it only if it maps the page at the
 * same offset: after a partial munmap and a new fault, or a COW, it may
 * map another folio. */
static int rmap_walk_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct rmap_walk_state *s = walk->private;
	struct folio *folio = s->pvmw.folio;
	unsigned long n = (addr - pvmw_folio_address(&s->pvmw)) >> PAGE_SHIFT;

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

/* The entries of folio in one VMA of an mm using its anon_vma. */
static int rmap_walk_vma(struct rmap_walk_state *s, struct vm_area_struct *vma)
{
	unsigned long first = vma_address(vma, s->pvmw.folio->page.index);
	unsigned long start, end;
	int ret;

	/* Computed in page indices, so a folio far below the VMA cannot
	 * wrap around into it. */
	if (s->pvmw.folio->page.index + folio_nr_pages(s->pvmw.folio) <= vma->vm_pgoff ||
	    s->pvmw.folio->page.index >= linear_page_index(vma, vma->vm_end))
		return 0;
	start = MAX(first, vma->vm_start);
	end = MIN(first + folio_size(s->pvmw.folio), vma->vm_end);
	s->pvmw.vma = vma;
	ret = walk_page_range(s->pvmw.mm, start, end, &rmap_walk_ops, s);
	if (s->rwc->vma_done)
		s->rwc->vma_done(s->pvmw.mm, start, end, s->rwc->arg);
	return ret;
}

/* Does vma use the anon_vma, or map the file, whose members are walked? */
static bool rmap_vma_matches(const struct vm_area_struct *vma, const struct anon_vma *av,
			     const struct address_space *mapping)
{
	if (av)
		return vma->anon_vma == av;
	return vma->vm_file && vma->vm_file->f_inode->i_mapping == mapping;
}

/* Linux: rmap_walk_anon over the mms of the flat anon_vma, and
 * rmap_walk_file over the mms of the file's i_mmap. */
int rmap_walk(struct folio *folio, const struct rmap_walk_control *rwc)
{
	struct anon_vma *av = folio_anon_vma(folio);
	struct address_space *mapping = folio_test_anon(folio) ? NULL : folio->page.mapping;
	struct rmap_walk_state s = { .pvmw = { .folio = folio }, .rwc = rwc };
	struct list_head *mms = av ? &av->mms : mapping ? &mapping->i_mmap : NULL;
	struct rmap_member *m;

	if (!mms || !folio_mapped(folio))
		return 0;
	list_for_each_entry(m, mms, node) {
		s.pvmw.mm = m->mm;
		for (int i = 0; i < m->mm->nr_vmas; i++) {
			int ret;

			if (!rmap_vma_matches(&m->mm->vmas[i], av, mapping))
				continue;
			ret = rmap_walk_vma(&s, &m->mm->vmas[i]);
			if (ret)
				return ret;
		}
	}
	return 0;
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
	unsigned long n; /* the page's number in its folio */
	int count;
};

static int count_page_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct page_mapcount_arg *a = arg;

	if (pvmw->pmd || pvmw->address == pvmw_folio_address(pvmw) + (a->n << PAGE_SHIFT))
		a->count++;
	return 0;
}

/* A page of a folio can be mapped only at its offset from the folio's
 * address in each VMA: by the PMD that maps the whole folio, or by one
 * PTE there. */
int folio_precise_page_mapcount(struct folio *folio, struct page *page)
{
	struct page_mapcount_arg a = { .n = page_to_pfn(page) - folio_pfn(folio) };
	const struct rmap_walk_control rwc = { .rmap_one = count_page_one, .arg = &a };

	if (!folio_test_anon(folio) && !folio->page.mapping)
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
	unsigned long end = MIN(pvmw_folio_address(pvmw) + folio_size(folio), pvmw->vma->vm_end);

	if (!folio_test_large(folio) || !folio_test_anon(folio) || folio_test_swapbacked(folio))
		return 1;
	end = pmd_addr_end(pvmw->address, end);
	return folio_pte_batch(folio, pvmw->pte, *pvmw->pte,
			       (unsigned int)((end - pvmw->address) >> PAGE_SHIFT), NULL, NULL);
}

/* What rmap_one callbacks that change PTEs leave for vma_done: a flush
 * of the VMA's part of the folio, once per VMA (so once per mm), or,
 * with a batch, the mm noted in it (Linux: set_tlb_ubc_flush_pending). */
struct rmap_flush {
	bool ptes_changed;
	struct tlbflush_unmap_batch *batch; /* NULL: flush now */
};

static void rmap_flush_vma(struct mm_struct *mm, unsigned long start, unsigned long end, void *arg)
{
	struct rmap_flush *f = arg;

	if (f->ptes_changed && f->batch)
		arch_tlbbatch_add_pending(f->batch, mm);
	else if (f->ptes_changed)
		flush_tlb_range(mm, start, end);
	f->ptes_changed = false;
}

/* A PMD leaf is cleared and flushed at once (its one entry); a run of
 * PTEs is cleared with one rmap and counter update for the run (the
 * walk then skips its emptied entries) and flushed by rmap_flush_vma,
 * with the folio's other PTEs in this VMA. */
static int unmap_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct rmap_flush *f = arg;
	unsigned int nr;
	pte_t pte;

	update_hiwater_rss(pvmw->mm); /* Linux: try_to_unmap_one */
	if (pvmw->pmd) {
		pmd_t old = pmdp_huge_clear_flush(pvmw->mm, pvmw->address, pvmw->pmd);

		/* A page-cache folio written through the entry keeps the news. */
		if (!folio_test_anon(pvmw->folio) && pmd_dirty(old))
			folio_set_dirty(pvmw->folio);
		folio_remove_rmap_pmd(pvmw->folio, pvmw->mm);
		pvmw->mm->counters[mm_counter(pvmw->folio)] -= HPAGE_PMD_NR;
		return 0;
	}
	nr = folio_unmap_pte_batch(pvmw);
	pte = get_and_clear_full_ptes(pvmw->mm, pvmw->address, pvmw->pte, nr);
	if (!folio_test_anon(pvmw->folio) && pte_dirty(pte))
		folio_set_dirty(pvmw->folio);
	folio_remove_rmap_ptes(pvmw->folio, nr, pvmw->mm);
	pvmw->mm->counters[mm_counter(pvmw->folio)] -= nr;
	f->ptes_changed = true;
	return 0;
}

/* Before the caller frees the pages: each mm's PTEs flushed once, or
 * noted in a batch the caller flushes before it frees (reclaim: Linux's
 * TTU_BATCH_FLUSH, should_defer_flush). A page-cache folio's
 * mappings give back their one reference with the last of them (the
 * caller holds its own). */
void try_to_unmap_batched(struct folio *folio, struct tlbflush_unmap_batch *batch)
{
	struct rmap_flush flush = { .batch = batch };
	const struct rmap_walk_control rwc = { .rmap_one = unmap_one,
					       .vma_done = rmap_flush_vma,
					       .arg = &flush };
	bool file_mapped = !folio_test_anon(folio) && folio_mapped(folio);

	rmap_walk(folio, &rwc);
	if (file_mapped)
		folio_put_file_mappings(folio);
}

void try_to_unmap(struct folio *folio)
{
	try_to_unmap_batched(folio, NULL);
}

/* --- migration ------------------------------------------------------------------------ */

struct remap_state {
	struct rmap_flush flush; /* first: rmap_flush_vma's arg */
	struct folio *dst;
};

/* Point the entry at the same page of s->dst, keeping its flags. A PMD
 * leaf's one translation is flushed as it is cleared (Linux: the
 * pmdp_invalidate of set_pmd_migration_entry: one invlpg, where a flush of
 * its 512 pages would drop the whole TLB). */
static int remap_one(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct remap_state *s = arg;
	struct mm_struct *mm = pvmw->mm;
	unsigned long n = (pvmw->address - pvmw_folio_address(pvmw)) >> PAGE_SHIFT;
	uint64_t old;

	if (pvmw->pmd) {
		old = pmdp_huge_clear_flush(mm, pvmw->address, pvmw->pmd);
		set_pmd_at(mm, pvmw->address, pvmw->pmd,
			   pfn_pmd(folio_pfn(s->dst), old & ~PTE_ADDR_MASK));
	} else {
		old = ptep_get_and_clear(mm, pvmw->address, pvmw->pte);
		set_ptes(mm, pvmw->address, pvmw->pte,
			 pfn_pte(folio_pfn(s->dst) + n, old & ~PTE_ADDR_MASK), 1);
		s->flush.ptes_changed = true;
	}
	return 0;
}

/* The flags a folio's state is in, which migration moves (Linux:
 * folio_migrate_flags); PG_anon and PG_swapbacked go with the owner. */
#define MIGRATE_FLAGS                                                                          \
	((1ul << PG_dirty) | (1ul << PG_referenced) | (1ul << PG_lru) | (1ul << PG_uptodate) | \
	 (1ul << PG_partially_mapped) | (1ul << PG_mlocked) | (1ul << PG_unevictable))

/* Linux: folio_migrate_flags. The data flags, mlock_count and the LRU
 * position (dst takes src's place on its list) move from src to dst. */
static void folio_migrate_flags(struct folio *dst, struct folio *src)
{
	dst->page.flags |= src->page.flags & MIGRATE_FLAGS;
	dst->page.private = src->page.private; /* mlock_count */
	if (folio_test_lru(src)) {
		list_add(&dst->page.lru, &src->page.lru);
		list_del(&src->page.lru);
	}
	src->page.flags &= ~MIGRATE_FLAGS;
}

/* The owner's state moves from src to dst: anon_vma and index,
 * mapcount, the data flags and the LRU position; src keeps only
 * migration's reference. */
static void move_anon_state(struct folio *dst, struct folio *src)
{
	const unsigned long owner = (1ul << PG_anon) | (1ul << PG_swapbacked);

	folio_set_anon_owner(dst, folio_anon_vma(src), src->page.index);
	folio_move_mapcounts(dst, src);
	for (unsigned long i = 0; i < folio_nr_pages(src);
	     i++) /* Linux: exclusive migration entries */
		if (PageAnonExclusive(folio_page(src, i))) {
			SetPageAnonExclusive(folio_page(dst, i));
			ClearPageAnonExclusive(folio_page(src, i));
		}
	dst->page.flags |= src->page.flags & owner;
	src->page.flags &= ~owner;
	folio_migrate_flags(dst, src);
	folio_clear_anon_owner(src);
}

/*
 * Copy src into dst, point every entry that maps src at the same page of
 * dst with its old flags (young, dirty, RW), then one flush for the
 * PTEs' range in each mm (a PMD leaf's one entry is flushed by remap_one). Linux unmaps to
 * migration entries before copying because other CPUs may write meanwhile; Folium has one CPU and
 * the caller does not touch the user half while migrating, so copy, swap and flush suffice. Return:
 * 0, or -EBUSY if src is not a mapped anon folio of dst's order or the entries found do not match
 * its mapcount (nothing changed).
 */
int anon_migrate_folio(struct folio *dst, struct folio *src)
{
	struct remap_state state = { .dst = dst };
	const struct rmap_walk_control rwc = { .rmap_one = remap_one,
					       .vma_done = rmap_flush_vma,
					       .arg = &state };

	if (!folio_anon_vma(src) || !folio_mapped(src) || folio_order(dst) != folio_order(src))
		return -EBUSY;
	if (folio_count_mappings(src) != (unsigned int)folio_mapcount(src))
		return -EBUSY;
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	rmap_walk(src, &rwc);
	move_anon_state(dst, src);
	return 0;
}

/*
 * The migration of a page-cache folio (Linux: migrate_folio, shmem's
 * a_ops->migrate_folio, with try_to_migrate and remove_migration_ptes
 * around it): copy src into dst, put dst in the cache at src's index
 * (folio_migrate_mapping), point every entry that maps src at dst with
 * its flags, flush once per mm, and move the flags and LRU position.
 * References: the cache's one per page move with the entry; the one all
 * the mappings hold together is dst's own from its allocation, so an
 * unmapped src hands that one back and keeps migration's.
 * Return: 0; -EBUSY if src is not an unpinned page-cache folio of dst's
 * order or its entries do not match its mapcount; -ENOMEM if the cache's
 * index needed memory (nothing changed).
 */
int filemap_migrate_folio(struct folio *dst, struct folio *src)
{
	struct address_space *mapping = src->page.mapping;
	struct remap_state state = { .dst = dst };
	const struct rmap_walk_control rwc = { .rmap_one = remap_one,
					       .vma_done = rmap_flush_vma,
					       .arg = &state };
	bool mapped = folio_mapped(src);
	int err;

	if (!folio_in_page_cache(src) || folio_order(dst) != folio_order(src) ||
	    folio_ref_count(src) != folio_expected_ref_count(src))
		return -EBUSY;
	if (mapped && folio_count_mappings(src) != (unsigned int)folio_mapcount(src))
		return -EBUSY;
	memcpy(folio_address(dst), folio_address(src), folio_size(src));
	err = folio_migrate_mapping(mapping, dst, src);
	if (err)
		return err;
	if (mapped) {
		rmap_walk(src, &rwc);
		folio_move_mapcounts(dst, src);
		if (folio_pgdat(dst) != folio_pgdat(src)) {
			folio_pgdat(src)->nr_file_mapped -= folio_nr_pages(src);
			folio_pgdat(dst)->nr_file_mapped += folio_nr_pages(src);
		}
	} else {
		/* Nothing maps it: dst keeps only the cache's references,
		 * src gets migration's (its own went with the cache's). */
		dst->page._refcount--;
		src->page._refcount++;
	}
	src->page.mapping = NULL;
	folio_migrate_flags(dst, src);
	return 0;
}

int move_to_new_folio(struct folio *dst, struct folio *src)
{
	return folio_test_anon(src) ? anon_migrate_folio(dst, src)
				    : filemap_migrate_folio(dst, src);
}
