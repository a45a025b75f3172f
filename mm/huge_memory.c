/*
 * Transparent huge pages (Linux: mm/huge_memory.c). Which large folio
 * orders anonymous faults may use, and how often each one was used:
 * Linux's /sys/kernel/mm/transparent_hugepage/enabled and
 * hugepages-<size>kB/{enabled,stats}, as Linux's three per-size masks
 * (always, madvise, inherit), the top-level mode and one table, with the
 * show/store functions of those files. Example: `thp 16K,64K,2M` puts
 * orders 2, 4 and 9 in "always" (0x214); a fault in a 2 MiB-aligned VMA
 * then tries order 9, then 4, then 2, then order 0, always possible,
 * never listed. Writing "madvise" to hugepages-64kB/enabled then leaves
 * order 4 to VMAs with MADV_HUGEPAGE. And whether such a fault may compact
 * first (defrag: with Linux's default "madvise", only under MADV_HUGEPAGE).
 * And splitting: a folio into order-0 folios (unmapped, or PTE-mapped by
 * its mm), and a PMD leaf into a PTE table of the same translations.
 * Example: a 64K folio mapped by 16 PTEs splits into 16 order-0 folios,
 * each mapped by its own PTE (mapcount 16 → 16 × 1); a PMD leaf splits
 * into 512 PTEs mapping the same order-9 folio (mapcount 1 → 512).
 */
#include <bitmap.h>
#include <seq_file.h>
#include <vm.h>
#include "internal.h"

/* Linux's default in effect: only the PMD size (Linux: "inherit" with
 * enabled=always; here "always", see <vm.h>), the smaller mTHP sizes
 * "never" until asked for (`thp 16K,64K,2M`). Without
 * CONFIG_TRANSPARENT_HUGEPAGE there are no large anonymous folios at all. */
unsigned long thp_orders_enabled = CONFIG_TRANSPARENT_HUGEPAGE ? 1ul << HPAGE_PMD_ORDER : 0;
unsigned long huge_anon_orders_madvise, huge_anon_orders_inherit;
enum thp_mode thp_global_mode = CONFIG_TRANSPARENT_HUGEPAGE ? THP_MODE_ALWAYS : THP_MODE_NEVER;
enum thp_defrag thp_defrag_mode = THP_DEFRAG_MADVISE;

/* Linux: vma_thp_gfp_mask. Where Linux adds __GFP_KSWAPD_RECLAIM to wake
 * kcompactd ("defer", and "defer+madvise" for a VMA without
 * MADV_HUGEPAGE), Folium has nothing to wake: the light mask alone. */
gfp_t vma_thp_gfp_mask(const struct vm_area_struct *vma)
{
	bool madvised = vma->vm_flags & VM_HUGEPAGE;

	switch (thp_defrag_mode) {
	case THP_DEFRAG_ALWAYS:
		return GFP_TRANSHUGE | (madvised ? 0 : __GFP_NORETRY);
	case THP_DEFRAG_DEFER_MADVISE:
	case THP_DEFRAG_MADVISE:
		return madvised ? GFP_TRANSHUGE : GFP_TRANSHUGE_LIGHT;
	default:
		return GFP_TRANSHUGE_LIGHT;
	}
}

/* Linux: __thp_vma_allowable_orders (vma_thp_disabled, then the masks). */
unsigned long thp_vma_allowable_orders(const struct vm_area_struct *vma, unsigned long orders)
{
	bool madvised = vma->vm_flags & VM_HUGEPAGE;
	unsigned long mask = thp_orders_enabled;

	/* A HugeTLB VMA is no anonymous VMA for THP (Linux: !vma_is_anonymous). */
	if (!CONFIG_TRANSPARENT_HUGEPAGE || (vma->vm_flags & (VM_NOHUGEPAGE | VM_HUGETLB)))
		return 0;
	if (madvised)
		mask |= huge_anon_orders_madvise;
	if (thp_global_mode == THP_MODE_ALWAYS || (madvised && thp_global_mode == THP_MODE_MADVISE))
		mask |= huge_anon_orders_inherit;
	return orders & mask;
}

/* Overlapping masks (a direct write of thp_orders_enabled) read by
 * Linux's precedence in thpsize_enabled_show: always, inherit, madvise. */
enum thp_mode thp_order_mode(unsigned int order)
{
	unsigned long bit = 1ul << order;

	if (thp_orders_enabled & bit)
		return THP_MODE_ALWAYS;
	if (huge_anon_orders_inherit & bit)
		return THP_MODE_INHERIT;
	if (huge_anon_orders_madvise & bit)
		return THP_MODE_MADVISE;
	return THP_MODE_NEVER;
}

/* Linux: thpsize_enabled_store (one mask gains the bit, the others lose it). */
void thp_set_order_mode(unsigned int order, enum thp_mode mode)
{
	unsigned long bit = 1ul << order;

	thp_orders_enabled &= ~bit;
	huge_anon_orders_madvise &= ~bit;
	huge_anon_orders_inherit &= ~bit;
	if (mode == THP_MODE_ALWAYS)
		thp_orders_enabled |= bit;
	else if (mode == THP_MODE_MADVISE)
		huge_anon_orders_madvise |= bit;
	else if (mode == THP_MODE_INHERIT)
		huge_anon_orders_inherit |= bit;
}

void thp_set_orders(unsigned long orders)
{
	thp_orders_enabled = orders;
	huge_anon_orders_madvise = huge_anon_orders_inherit = 0;
}

/* Linux: sysfs_streq — equal, or equal but for one trailing newline. */
static bool sysfs_streq(const char *buf, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(buf, word, n) && (!buf[n] || (buf[n] == '\n' && !buf[n + 1]));
}

static const char *const thp_mode_words[] = {
	[THP_MODE_NEVER] = "never",
	[THP_MODE_ALWAYS] = "always",
	[THP_MODE_MADVISE] = "madvise",
	[THP_MODE_INHERIT] = "inherit",
};

int thp_mode_parse(const char *buf, bool per_size, enum thp_mode *mode)
{
	for (unsigned int m = 0; m < ARRAY_SIZE(thp_mode_words); m++) {
		if (m == THP_MODE_INHERIT && !per_size)
			continue;
		if (sysfs_streq(buf, thp_mode_words[m])) {
			*mode = (enum thp_mode)m;
			return 0;
		}
	}
	return -EINVAL;
}

/* --- the sysfs files (Linux: enabled_show/store, thpsize_enabled_show/store) --- */

/* "always [madvise] never": every choice, the current one bracketed, in
 * Linux's order. */
static void show_choices(struct seq_file *m, const enum thp_mode *choices, unsigned int n,
			 enum thp_mode mode)
{
	for (unsigned int i = 0; i < n; i++)
		seq_printf(m, choices[i] == mode ? "%s[%s]" : "%s%s", i ? " " : "",
			   thp_mode_words[choices[i]]);
	seq_putc(m, '\n');
}

static int enabled_show(struct seq_file *m, void *priv)
{
	static const enum thp_mode choices[] = { THP_MODE_ALWAYS, THP_MODE_MADVISE,
						 THP_MODE_NEVER };

	(void)priv;
	show_choices(m, choices, ARRAY_SIZE(choices), thp_global_mode);
	return 0;
}

static long enabled_store(const char *buf, size_t count, void *priv)
{
	enum thp_mode mode;

	(void)priv;
	if (thp_mode_parse(buf, false, &mode))
		return -EINVAL;
	thp_global_mode = mode;
	return (long)count;
}

static int thpsize_enabled_show(struct seq_file *m, void *priv)
{
	static const enum thp_mode choices[] = { THP_MODE_ALWAYS, THP_MODE_INHERIT,
						 THP_MODE_MADVISE, THP_MODE_NEVER };

	show_choices(m, choices, ARRAY_SIZE(choices),
		     thp_order_mode((unsigned int)(uintptr_t)priv));
	return 0;
}

static long thpsize_enabled_store(const char *buf, size_t count, void *priv)
{
	enum thp_mode mode;

	if (thp_mode_parse(buf, true, &mode))
		return -EINVAL;
	thp_set_order_mode((unsigned int)(uintptr_t)priv, mode);
	return (long)count;
}

/* Linux's defrag words, in its order (defrag_show). */
static const char *const thp_defrag_words[] = {
	[THP_DEFRAG_ALWAYS] = "always",
	[THP_DEFRAG_DEFER] = "defer",
	[THP_DEFRAG_DEFER_MADVISE] = "defer+madvise",
	[THP_DEFRAG_MADVISE] = "madvise",
	[THP_DEFRAG_NEVER] = "never",
};

static int defrag_show(struct seq_file *m, void *priv)
{
	(void)priv;
	for (unsigned int i = 0; i < ARRAY_SIZE(thp_defrag_words); i++)
		seq_printf(m, i == thp_defrag_mode ? "%s[%s]" : "%s%s", i ? " " : "",
			   thp_defrag_words[i]);
	seq_putc(m, '\n');
	return 0;
}

/* Linux: defrag_store (one word, or -EINVAL and the mode kept). */
static long defrag_store(const char *buf, size_t count, void *priv)
{
	(void)priv;
	for (unsigned int i = 0; i < ARRAY_SIZE(thp_defrag_words); i++) {
		if (sysfs_streq(buf, thp_defrag_words[i])) {
			thp_defrag_mode = (enum thp_defrag)i;
			return (long)count;
		}
	}
	return -EINVAL;
}

/* Linux: hpage_pmd_size_show, the PMD-mapped THP size in bytes. */
static int hpage_pmd_size_show(struct seq_file *m, void *priv)
{
	(void)priv;
	seq_printf(m, "%lu\n", PMD_SIZE);
	return 0;
}

/* Folium's switches, 0 or 1 (Linux's single_hugepage_flag_show/_store
 * form, as use_zero_page): priv points at the bool. */
static int bool_knob_show(struct seq_file *m, void *priv)
{
	seq_printf(m, "%d\n", *(bool *)priv);
	return 0;
}

static long bool_knob_store(const char *buf, size_t count, void *priv)
{
	if (sysfs_streq(buf, "0"))
		*(bool *)priv = false;
	else if (sysfs_streq(buf, "1"))
		*(bool *)priv = true;
	else
		return -EINVAL;
	return (long)count;
}

const struct kobj_attribute thp_enabled_attr = { enabled_show, enabled_store };
const struct kobj_attribute bool_knob_attr = { bool_knob_show, bool_knob_store };
const struct kobj_attribute thp_defrag_attr = { defrag_show, defrag_store };
const struct kobj_attribute hpage_pmd_size_attr = { hpage_pmd_size_show, NULL };
const struct kobj_attribute thpsize_enabled_attr = { thpsize_enabled_show, thpsize_enabled_store };

/* Linux's per-size stats files, in its order, with the counter each
 * shows: an mthp_stats item, the splits (per node, summed here: -1), or
 * nothing (-2: swap and memcg charges Folium does not have read 0). */
const char *const thp_stat_names[] = {
	"anon_fault_alloc",
	"anon_fault_fallback",
	"anon_fault_fallback_charge",
	"swpout",
	"swpout_fallback",
	"split",
	"split_failed",
	"split_deferred",
	"nr_anon",
	"nr_anon_partially_mapped",
};
const unsigned int nr_thp_stat_names = ARRAY_SIZE(thp_stat_names);
static const int thp_stat_items[ARRAY_SIZE(thp_stat_names)] = {
	MTHP_STAT_ANON_FAULT_ALLOC,
	MTHP_STAT_ANON_FAULT_FALLBACK,
	-2,
	-2,
	-2,
	-1,
	MTHP_STAT_SPLIT_FAILED,
	MTHP_STAT_SPLIT_DEFERRED,
	MTHP_STAT_NR_ANON,
	MTHP_STAT_NR_ANON_PARTIALLY_MAPPED,
};

static unsigned long thp_stat_value(unsigned int order, unsigned int idx)
{
	unsigned long sum = 0;

	if (thp_stat_items[idx] >= 0)
		return mthp_stats[order][thp_stat_items[idx]];
	if (thp_stat_items[idx] == -2)
		return 0;
	for (int nid = 0; nid < MAX_NUMNODES; nid++)
		if (NODE_DATA(nid))
			sum += NODE_DATA(nid)->split_count[order];
	return sum;
}

static int thpsize_stat_show(struct seq_file *m, void *priv)
{
	unsigned int v = (unsigned int)(uintptr_t)priv;

	seq_printf(m, "%lu\n", thp_stat_value(v >> 8, v & 0xff));
	return 0;
}

const struct kobj_attribute thpsize_stat_attr = { thpsize_stat_show, NULL };

const char *thpsize_dir_name(unsigned int order, char *buf, size_t len)
{
	ksnprintf(buf, len, "hugepages-%lukB", (PAGE_SIZE << order) >> 10);
	return buf;
}

/* One word of the list: a power-of-two size from 8K to 2M → its order. */
static int parse_one_size(const char *word, unsigned long *orders, char *err, size_t errlen)
{
	uint64_t size;

	if (kparse_size(word, &size) < 0 || size < 2 * PAGE_SIZE ||
	    size > (PAGE_SIZE << HPAGE_PMD_ORDER) || (size & (size - 1))) {
		ksnprintf(err, errlen, "'%s' is not a power-of-two size from 8K to 2M", word);
		return -EINVAL;
	}
	*orders |= 1ul << __builtin_ctzll(size >> PAGE_SHIFT);
	return 0;
}

int thp_parse_orders(const char *s, unsigned long *orders, char *err, size_t errlen)
{
	unsigned long parsed = 0;
	char word[16];

	if (!strcmp(s, "never")) {
		*orders = 0;
		return 0;
	}
	if (!CONFIG_TRANSPARENT_HUGEPAGE) {
		ksnprintf(err, errlen,
			  "large folios are compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n)");
		return -EINVAL;
	}
	if (!strcmp(s, "always")) {
		*orders = THP_ORDERS_ALL;
		return 0;
	}
	while (*s) {
		size_t n = 0;

		while (s[n] && s[n] != ',')
			n++;
		if (n == 0 || n >= sizeof(word)) {
			ksnprintf(err, errlen, "bad size list at '%.16s'", s);
			return -EINVAL;
		}
		memcpy(word, s, n);
		word[n] = '\0';
		if (parse_one_size(word, &parsed, err, errlen))
			return -EINVAL;
		s += n;
		if (*s == ',' && !*++s) {
			ksnprintf(err, errlen, "size list ends with ','");
			return -EINVAL;
		}
	}
	if (!parsed) {
		ksnprintf(err, errlen, "empty size list");
		return -EINVAL;
	}
	*orders = parsed;
	return 0;
}

/* "4K", "64K", "2M": the size of an order, as Linux names the sysfs dirs. */
const char *thp_order_name(unsigned int order, char *buf, size_t len)
{
	unsigned long kib = (PAGE_SIZE << order) >> 10;

	if (kib >= 1024)
		ksnprintf(buf, len, "%luM", kib >> 10);
	else
		ksnprintf(buf, len, "%luK", kib);
	return buf;
}

CMDLINE_KEY(thp, "SIZES|never|always: enabled anonymous folio sizes (e.g. 16K,64K,2M)");

/* Boot: thp= from the command line (a bad value keeps the default), and
 * the migration hook: anonymous folios are the movable ones. */
void thp_init(void)
{
	const char *arg = boot_cmdline_get(thp);
	unsigned long orders;
	char err[80];

	set_migrate_folio_hook(move_to_new_folio);
	if (!arg)
		return;
	if (thp_parse_orders(arg, &orders, err, sizeof(err))) {
		pr_err("cmdline: thp=%s: %s; keeping the default\n", arg, err);
		return;
	}
	thp_set_orders(orders);
}

void deferred_split_folio(struct folio *folio)
{
	unsigned int order = folio_order(folio);

	/* Linux: order-1 folios have no room for the deferred list. */
	if (order <= 1 || !folio_test_anon(folio) || PageFlag(&folio->page, PG_partially_mapped))
		return;
	SetPageFlag(&folio->page, PG_partially_mapped);
	if (order == HPAGE_PMD_ORDER)
		count_vm_event(NODE_DATA(page_to_nid(&folio->page)), THP_DEFERRED_SPLIT_PAGE);
	mthp_stats[order][MTHP_STAT_SPLIT_DEFERRED]++;
	mthp_stats[order][MTHP_STAT_NR_ANON_PARTIALLY_MAPPED]++;
}

/* --- splitting a folio ------------------------------------------------------------ */

/* Can folio be split? Linux's rule (split_huge_page_to_list_to_order):
 * nobody else may hold it (the caller's reference, and a page-cache
 * folio's one per page from the cache), lock it or map it while its
 * pages change hands. */
static bool folio_can_split(const struct folio *folio)
{
	int refs = 1 + (folio_in_page_cache(folio) ? (int)folio_nr_pages(folio) : 0);

	return !folio_test_locked(folio) && folio_ref_count(folio) == refs && !folio_mapped(folio);
}

/* Flags that describe the data, not the grouping: each piece inherits
 * them (Linux: __split_folio_to_order copies the same set), and the
 * migratetype the folio was allocated as (Linux: split_page_owner). */
#define SPLIT_INHERITED_FLAGS                                                                     \
	((1ul << PG_dirty) | (1ul << PG_referenced) | (1ul << PG_anon) | (1ul << PG_swapbacked) | \
	 (1ul << PG_uptodate) | (1ul << PG_cma) | (1ul << PG_mlocked) | (1ul << PG_unevictable) | \
	 PAGE_FLAGS_OWNER_MASK)

/* A split's counters: the event (PMD size only, as Linux), the per-order count, and the pieces
 * now on the head's LRU list (nr_lru_* count folios). */
static void split_count_lru(struct folio *folio, unsigned int order)
{
	struct pglist_data *pgdat = NODE_DATA(page_to_nid(&folio->page));
	unsigned long pieces = (1ul << order) - 1;

	if (order == HPAGE_PMD_ORDER)
		count_vm_event(pgdat, THP_SPLIT_PAGE);
	pgdat->split_count[order]++;
	if (!folio_test_lru(folio))
		return;
	if (folio_test_unevictable(folio))
		pgdat->nr_lru_unevictable += pieces;
	else if (folio_test_lazyfree(folio))
		pgdat->nr_lru_lazyfree += pieces;
	else
		pgdat->nr_lru_anon += pieces;
}

/* Linux: the failure half of __folio_split's counters. */
static void split_failed_count(struct folio *folio, unsigned int order)
{
	if (order == HPAGE_PMD_ORDER)
		count_vm_event(NODE_DATA(page_to_nid(&folio->page)), THP_SPLIT_PAGE_FAILED);
	mthp_stats[order][MTHP_STAT_SPLIT_FAILED]++;
}

/*
 * Split a large folio into order-0 folios, each with refcount 1 so the
 * caller owns every page and may free them one by one. Pieces inherit
 * the data flags and the owner; piece n's address is the folio's + n pages.
 * A folio on an LRU list leaves its pieces on that list right after the
 * head, in address order (Linux: lru_add_split_folio). A page-cache
 * folio's pieces take its place in the cache, each with the cache's
 * reference as its one (Linux: __split_unmapped_folio's xas_split, then
 * an entry per piece); the caller keeps its reference on the first.
 * Return: 0 (an order-0 folio is already split), -EBUSY if the folio
 * is locked, has references besides the caller's (and the cache's), or
 * is mapped, or -ENOMEM (no node for the cache's entries; nothing changed).
 */
int split_folio(struct folio *folio)
{
	unsigned int order = folio_order(folio);
	struct page *head = &folio->page;
	unsigned long inherit = head->flags & SPLIT_INHERITED_FLAGS;
	struct address_space *mapping = folio_file_mapping(folio);

	if (!order)
		return 0;
	if (!folio_can_split(folio) ||
	    (mapping && xa_split(&mapping->i_pages, head->index,
				 mapping_gfp_mask(mapping) & GFP_RECLAIM_MASK))) {
		split_failed_count(folio, order);
		return folio_can_split(folio) ? -ENOMEM : -EBUSY;
	}
	if (mapping && order == HPAGE_PMD_ORDER) /* Linux: NR_SHMEM_THPS, NR_FILE_THPS */
		*(folio_test_swapbacked(folio) ? &folio_pgdat(folio)->nr_shmem_thps
					       : &folio_pgdat(folio)->nr_file_thps) -= HPAGE_PMD_NR;
	folio_undo_large_rmappable(folio); /* its pieces are order 0: none counts */
	destroy_large_folio(folio, order);
	if (mapping)
		head->_refcount = 2; /* the caller's and the cache's */
	for (unsigned long i = 1; i < (1ul << order); i++) {
		struct page *page = head + i;

		page->flags = (page->flags & ~SPLIT_INHERITED_FLAGS) | inherit;
		if (folio_anon_vma(folio))
			folio_set_anon_owner((struct folio *)page, folio_anon_vma(folio),
					     head->index + i);
		if (mapping) {
			page->mapping = mapping;
			page->index = head->index + i;
			xa_store(&mapping->i_pages, page->index, page, 0); /* allocates nothing */
		}
		page->_refcount = 1;
		page_mapcount_reset(page);
		page->private =
			0; /* an unevictable piece's mlock_count (Linux: lru_add_split_folio) */
		if (folio_test_lru(folio)) {
			SetPageFlag(page, PG_lru);
			list_add(&page->lru, &page[-1].lru);
		}
	}
	split_count_lru(folio, order);
	return 0;
}

/* The entries that map the folio being split, in every mm: count[n] PTEs
 * map page n; nr_pmds PMD leaves map it all, pmd the last one found. */
struct split_mapped {
	unsigned long nr; /* PTEs */
	bool dirty;	  /* some PTE is dirty */
	unsigned short count[HPAGE_PMD_NR];
	unsigned int nr_pmds;
	pmd_t *pmd;
	struct mm_struct *pmd_mm;
	unsigned long pmd_addr;
};

static int split_note_mapping(struct page_vma_mapped_walk *pvmw, void *arg)
{
	struct split_mapped *m = arg;
	unsigned long n = (pvmw->address - pvmw_folio_address(pvmw)) >> PAGE_SHIFT;

	if (!pvmw->pte) {
		m->nr_pmds++;
		m->pmd = pvmw->pmd;
		m->pmd_mm = pvmw->mm;
		m->pmd_addr = pvmw->address;
		return 0;
	}
	m->count[n]++;
	m->nr++;
	m->dirty |= pte_dirty(*pvmw->pte);
	return 0;
}

/* Where is folio mapped? Return: 0 with *m filled, or -EBUSY when rmap
 * cannot see every mapping, or none. */
static int split_find_mappings(struct folio *folio, struct split_mapped *m)
{
	const struct rmap_walk_control rwc = { .rmap_one = split_note_mapping, .arg = m };

	unsigned long entries;

	memset(m, 0, sizeof(*m));
	if (rmap_walk(folio, &rwc))
		return -EBUSY;
	entries = m->nr + m->nr_pmds;
	return entries && entries == (unsigned long)folio_mapcount(folio) ? 0 : -EBUSY;
}

/*
 * What Linux's unmap before a split (unmap_folio: try_to_migrate_one, PTE
 * by PTE) leaves behind that Folium's in-place split would not: a dirty
 * PTE makes the folio dirty (so every piece is), and a folio mapped by
 * more than one PTE is partially mapped on the way (deferred_split_folio).
 * A PMD-mapped one is not: Linux freezes its PMD straight into migration
 * entries (split_huge_pmd_locked with freeze), all at once.
 */
static void split_unmap_accounting(struct folio *folio, const struct split_mapped *mapped,
				   bool pmd_mapped)
{
	if (mapped->dirty)
		folio_set_dirty(folio);
	if (mapped->nr > 1 && !pmd_mapped)
		deferred_split_folio(folio);
}

/*
 * split_folio() splits only unmapped folios; here the mappings are ones
 * rmap can see in the folio's mm. A PMD leaf is split into PTEs first
 * (Linux: unmap_folio with TTU_SPLIT_HUGE_PMD), but only once the folio is
 * known to be splittable, so a refused split leaves the leaf as it was.
 * Then the PTE mappings are taken off the folio for the split and handed
 * to the pieces: page n keeps its PTE's mapping if it has one, and a piece
 * no PTE maps any more (an earlier partial munmap) is freed.
 */
int split_anon_folio_mapped(struct folio *folio)
{
	struct split_mapped mapped;
	unsigned long nr = folio_nr_pages(folio);
	struct folio saved;
	bool pmd_mapped;

	if (!folio_test_large(folio))
		return 0;
	if (!folio_anon_vma(folio) || folio_test_locked(folio) || folio_ref_count(folio) != 1 ||
	    nr > HPAGE_PMD_NR)
		return -EBUSY;
	if (split_find_mappings(folio, &mapped))
		return -EBUSY;
	pmd_mapped = mapped.nr_pmds;
	/* One PMD leaf per mm that maps it (fork shares a PMD-mapped THP). */
	while (mapped.nr_pmds) {
		if (__split_huge_pmd(mapped.pmd_mm, mapped.pmd, mapped.pmd_addr))
			return -ENOMEM;
		if (split_find_mappings(folio, &mapped))
			return -EBUSY; /* cannot happen: the PTEs were just made */
	}
	split_unmap_accounting(folio, &mapped, pmd_mapped);
	/* The pieces are order 0: their counts need no mm (NULL). Linux
	 * unmaps every entry (unmap_folio) and maps the pieces back
	 * (remap_page); here the counts move while the entries stay. */
	saved = *folio;
	folio_reset_large_mapcounts(folio);
	if (split_folio(folio)) {
		folio_move_mapcounts(folio, &saved);
		return -EBUSY;
	}
	for (unsigned long n = 0; n < nr; n++) {
		struct folio *piece = (struct folio *)folio_page(folio, n);

		if (mapped.count[n]) {
			folio_add_anon_rmap_ptes(piece, mapped.count[n], NULL);
			continue;
		}
		folio_del_lru(piece); /* unmapped by an earlier partial munmap */
		folio_put(piece);
	}
	return 0;
}

/* --- the huge zero folio -------------------------------------------------------------- */

static struct folio *huge_zero_folio;
static unsigned long huge_zero_mms; /* mms holding a reference */

bool is_huge_zero_pmd(pmd_t pmd)
{
	return huge_zero_folio && pmd_leaf(pmd) && pmd_pfn(pmd) == folio_pfn(huge_zero_folio);
}

bool is_huge_zero_folio(const struct folio *folio)
{
	return huge_zero_folio && folio == huge_zero_folio;
}

/* The huge zero folio for mm, taking mm's reference the first time.
 * Linux: mm_get_huge_zero_folio → get_huge_zero_folio, which allocates it
 * zeroed and unmovable and counts THP_ZERO_PAGE_ALLOC(_FAILED). */
struct folio *mm_get_huge_zero_folio(struct mm_struct *mm)
{
	struct pglist_data *pgdat = NODE_DATA(mm->nid);

	if (mm->flags & MMF_HUGE_ZERO_PAGE)
		return huge_zero_folio;
	if (!huge_zero_folio) {
		huge_zero_folio = folio_alloc_node(mm->nid, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN,
						   HPAGE_PMD_ORDER);
		count_vm_event(pgdat,
			       huge_zero_folio ? THP_ZERO_PAGE_ALLOC : THP_ZERO_PAGE_ALLOC_FAILED);
		if (!huge_zero_folio)
			return NULL;
	}
	huge_zero_mms++;
	mm->flags |= MMF_HUGE_ZERO_PAGE;
	return huge_zero_folio;
}

/* mm_destroy: drop mm's reference; the last one frees the folio (Linux
 * keeps it until its shrinker runs). */
void mm_put_huge_zero_folio(struct mm_struct *mm)
{
	if (!(mm->flags & MMF_HUGE_ZERO_PAGE))
		return;
	mm->flags &= ~MMF_HUGE_ZERO_PAGE;
	if (--huge_zero_mms)
		return;
	folio_put(huge_zero_folio);
	huge_zero_folio = NULL;
}

/* Linux: set_huge_zero_folio, from do_huge_pmd_anonymous_page on a read. */
int set_huge_zero_folio(struct mm_struct *mm, struct vm_area_struct *vma, pmd_t *pmd,
			unsigned long addr)
{
	struct folio *zero = mm_get_huge_zero_folio(mm);

	if (!zero)
		return -ENOMEM;
	set_pmd_at(mm, addr & PMD_MASK, pmd, pfn_pmd(folio_pfn(zero), vm_zero_page_prot(vma)));
	return 0;
}

/* A huge zero leaf becomes 512 PTEs of the 4K zero page, read-only as it
 * was; no folio changes hands (Linux: __split_huge_zero_page_pmd). */
static int __split_huge_zero_page_pmd(struct mm_struct *mm, pmd_t *pmdp, unsigned long haddr)
{
	struct folio *zero = mm_get_zero_folio(mm);
	struct page *table = zero ? pte_alloc_one(mm) : NULL;
	pmd_t old;

	if (!table)
		return -ENOMEM;
	old = pmdp_invalidate(mm, haddr, pmdp);
	for (unsigned int i = 0; i < HPAGE_PMD_NR; i++)
		set_ptes(mm, haddr + i * PAGE_SIZE, (pte_t *)page_address(table) + i,
			 pfn_pte(folio_pfn(zero), old & ~(PTE_ADDR_MASK | _PAGE_PSE)), 1);
	set_pmd_at(mm, haddr, pmdp, page_to_phys(table) | _PAGE_TABLE);
	return 0;
}

/* --- splitting a PMD ------------------------------------------------------------------ */

/*
 * A page-cache folio's PMD leaf is not replaced by PTEs but taken away:
 * the file still holds the folio, and the next fault maps what it needs
 * by PTEs (Linux: __split_huge_pmd_locked for a VMA that is not
 * anonymous, "We are going to unmap this huge page. So just go ahead and
 * zap it"). A dirty or young leaf leaves the folio dirty or referenced;
 * the last mapping's reference goes, as a zap's would.
 */
static void __split_huge_file_pmd(struct mm_struct *mm, pmd_t *pmdp, unsigned long haddr)
{
	pmd_t old = pmdp_huge_clear_flush(mm, haddr, pmdp);
	struct folio *folio = pmd_folio(old);

	if (pmd_dirty(old))
		folio_set_dirty(folio);
	if (pmd_young(old))
		folio_set_referenced(folio);
	mm->counters[mm_counter(folio)] -= HPAGE_PMD_NR;
	folio_remove_rmap_pmd(folio, mm);
	folio_put_file_mappings(folio);
}

/*
 * Replace the PMD leaf at pmdp (mapping the 2 MiB at addr & PMD_MASK) by a
 * PTE table with the same 512 translations (a page-cache folio's leaf is
 * only cleared: __split_huge_file_pmd); its one PMD mapping becomes
 * 512 PTE mappings. The leaf is invalidated and its 2 MiB TLB entry
 * flushed before the table goes in, so no CPU keeps using (or setting
 * accessed/dirty through) the old translation while the PTEs take over;
 * a dirty leaf makes the folio dirty, as its PTEs may later be cleaned
 * one by one. Linux: __split_huge_pmd_locked (pmdp_invalidate,
 * folio_set_dirty, pmd_populate).
 * Return: 0, or -ENOMEM without a page for the table.
 */
int __split_huge_pmd(struct mm_struct *mm, pmd_t *pmdp, unsigned long addr)
{
	unsigned long haddr = addr & PMD_MASK;
	struct folio *folio;
	struct page *table;
	pmd_t old;

	count_vm_event(NODE_DATA(mm->nid), THP_SPLIT_PMD);
	if (is_huge_zero_pmd(*pmdp))
		return __split_huge_zero_page_pmd(mm, pmdp, haddr);
	if (!folio_test_anon(pmd_folio(*pmdp))) {
		__split_huge_file_pmd(mm, pmdp, haddr);
		return 0;
	}
	table = pte_alloc_one(mm);

	if (!table)
		return -ENOMEM;
	old = pmdp_invalidate(mm, haddr, pmdp);
	folio = pmd_folio(old);
	if (pmd_dirty(old))
		folio_set_dirty(folio);
	/* In a 4 KiB PTE bit 7 is PAT, not PSE: clear it. The rest stays,
	 * so every PTE is as soft-dirty as the PMD was (Linux:
	 * __split_huge_pmd_locked's pte_mksoft_dirty). */
	set_ptes(mm, haddr, page_address(table), old & ~_PAGE_PSE, HPAGE_PMD_NR);
	/* The head's bit spoke for the folio; now each page has its own
	 * (Linux: __split_huge_pmd_locked's anon_exclusive). The tails'
	 * were clear: prep_compound_page made them so, and a PMD-mapped
	 * folio never had its tails' bits set. */
	if (PageAnonExclusive(&folio->page))
		for (unsigned long i = 1; i < HPAGE_PMD_NR; i++)
			SetPageAnonExclusive(folio_page(folio, i));
	folio_add_anon_rmap_ptes(folio, HPAGE_PMD_NR, mm);
	folio_remove_rmap_pmd(folio, mm);
	set_pmd_at(mm, haddr, pmdp, page_to_phys(table) | _PAGE_TABLE);
	return 0;
}

int split_huge_pmd(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmdp;

	if (!(addr & ~PMD_MASK))
		return 0; /* a boundary between leaves cuts none */
	pmdp = mm_find_pmd(mm, addr);
	if (!pmdp || !pmd_leaf(*pmdp))
		return 0;
	return __split_huge_pmd(mm, pmdp, addr);
}

/* --- fork and copy-on-write of a PMD leaf ---------------------------------------------- */

void copy_huge_pmd(struct mm_struct *dst_mm, struct mm_struct *src_mm, pmd_t *dst_pmd,
		   pmd_t *src_pmd, unsigned long addr)
{
	pmd_t pmd = *src_pmd;

	/* Linux: copy_huge_pmd's "Skip if can be re-fill on fault": a
	 * page-cache folio's leaf is not copied; the child's fault maps it. */
	if (!is_huge_zero_pmd(pmd) && !folio_test_anon(pmd_folio(pmd)))
		return;
	/* Linux: "copy_huge_pmd: huge zero page"; dup_mmap took dst_mm's
	 * reference (mm_get_huge_zero_folio). */
	if (!is_huge_zero_pmd(pmd)) {
		folio_dup_anon_rmap_pmd(pmd_folio(pmd), dst_mm);
		dst_mm->counters[MM_ANONPAGES] += HPAGE_PMD_NR;
		if (pmd_write(pmd)) {
			pmdp_set_wrprotect(src_mm, addr, src_pmd);
			pmd = pmd_wrprotect(pmd);
		}
	}
	set_pmd_at(dst_mm, addr, dst_pmd, pmd_mkold(pmd));
}

/* Linux: do_huge_pmd_wp_page. Reuse: the folio is anon-exclusive, or its
 * one mapping is this PMD and nothing else holds it (Folium's mappings
 * share one reference); it is anon-exclusive from then on. */
bool do_huge_pmd_wp_page(struct mm_struct *mm, unsigned long addr, pmd_t *pmd, int *err)
{
	struct folio *folio = pmd_folio(*pmd);

	if (PageAnonExclusive(&folio->page) ||
	    (folio_mapcount(folio) == 1 && folio_ref_count(folio) == 1)) {
		SetPageAnonExclusive(&folio->page);
		set_pmd_at(mm, addr & PMD_MASK, pmd, pmd_mkwrite(pmd_mkdirty(pmd_mkyoung(*pmd))));
		mm->counters[MM_WP_REUSE]++;
		return true;
	}
	/* Linux: "fallback: __split_huge_pmd(vma, vmf->pmd, vmf->address,
	 * false); return VM_FAULT_FALLBACK", then do_wp_page on the PTE. */
	*err = __split_huge_pmd(mm, pmd, addr);
	return false;
}

/* --- MADV_FREE on a PMD leaf -------------------------------------------------------- */

/*
 * Both MADV_FREE modes handle a PMD leaf here: Linux has had
 * madvise_free_huge_pmd since 4.5, long before the batching change. A
 * folio mapped anywhere besides this leaf, or locked, is skipped (Linux:
 * folio_maybe_mapped_shared, folio_trylock). A leaf only partly inside
 * the range has its folio split (PMD and folio, only if the folio can be
 * split; else the leaf stays as it is) and the caller goes on with the
 * PTEs. A leaf wholly inside is invalidated (one 2 MiB flush), rewritten
 * old and clean, and recorded in the gather.
 * Return: true when the leaf was handled; false when the caller should
 * look for a PTE table (there is one only after a split).
 */
bool madvise_free_huge_pmd(struct mmu_gather *tlb, pmd_t *pmdp, unsigned long addr,
			   unsigned long next)
{
	struct folio *folio = pmd_folio(*pmdp);
	pmd_t orig;

	if (is_huge_zero_pmd(*pmdp))
		return false; /* nothing to free; no PTE table either */
	if (folio_mapcount(folio) != 1 || folio_test_locked(folio))
		return false;
	if (next - addr != PMD_SIZE) {
		split_anon_folio_mapped(folio);
		return false;
	}
	folio_clear_dirty(folio);
	if (pmd_young(*pmdp) || pmd_dirty(*pmdp)) {
		orig = pmdp_invalidate(tlb->mm, addr, pmdp);
		set_pmd_at(tlb->mm, addr, pmdp, pmd_mkclean(pmd_mkold(orig)));
		tlb_remove_pmd_tlb_entry(tlb, addr);
	}
	folio_mark_lazyfree(folio);
	return true;
}
