/*
 * CONFIG_DEBUG_VM: catching page-state bugs where they happen (Linux:
 * mm/debug.c, page_poison.c, bad_page() in page_alloc.c). Freed pages are
 * filled with PAGE_POISON_BYTE (0xaa) and checked when handed out again; a
 * bad free (double free, tail page, wrong order, still mapped or referenced)
 * is refused with a dump of the page, so the free lists stay intact.
 * buddy_check() proves every free-list invariant in one O(pages) walk:
 * e.g. a free order-2 block at pfn 8 covers 8..11, is on free_area[2] of
 * its pageblock's type, and its buddy at pfn 12 is not a free order-2 block.
 */
#include "internal.h"

static const char *const pageflag_names[NR_PAGEFLAGS] = {
	"locked",   "referenced",  "dirty",	    "lru",
	"head",	    "anon",	   "swapbacked",    "reserved",
	"buddy",    "pcp",	   "poisoned",	    "cma",
	"offline",  "slab",	   "large_kmalloc", "partially_mapped",
	"mlocked",  "unevictable", "hugetlb",	    "anon_exclusive",
	"uptodate",
};

/* "reserved|buddy" for the PG_* bits of flags. */
static void format_pageflags(char *buf, size_t size, unsigned long flags)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int f = 0; f < NR_PAGEFLAGS && n < size; f++)
		if (flags & (1ul << f))
			n += (size_t)ksnprintf(buf + n, size - n, "%s%s", n ? "|" : "",
					       pageflag_names[f]);
}

void dump_page(const struct page *page, const char *reason)
{
	const struct pglist_data *pgdat = NODE_DATA(page_to_nid(page));
	char flags[128];

	format_pageflags(flags, sizeof(flags), page->flags);
	pr_err("page: pfn %lx refcount %d mapcount %d order/private %lu\n", page_to_pfn(page),
	       page->_refcount, page_mapcount(page), page->private);
	pr_err("page: mapping %p index %lx compound_head %lx\n", page->mapping, page->index,
	       page->compound_head);
	pr_err("page: flags %#lx(%s) folio order %lu\n", page->flags, flags,
	       (page->flags >> PAGE_FLAGS_ORDER_SHIFT) & 0xff);
	if (pgdat && zone_spans_pfn(page_zone(page), page_to_pfn(page)))
		pr_err("page: node %d zone %s pageblock %s%s\n", page_to_nid(page),
		       page_zone(page)->name, migratetype_names[get_pageblock_type_raw(page)],
		       get_pageblock_isolate(page) ? " isolated" : "");
	else
		pr_err("page: node %d zone %d (no such node or zone)\n", page_to_nid(page),
		       page_zonenum(page));
	pr_err("page dumped because: %s\n", reason);
}

static void count_bad_page(const struct page *page)
{
	struct pglist_data *pgdat = NODE_DATA(page_to_nid(page));

	if (pgdat)
		count_vm_event(pgdat, BAD_PAGE);
}

void bad_free(struct page *page, unsigned int order, const char *fn)
{
	const char *why = "refcount already 0: not an allocated block head";

	if (PageTail(page))
		why = "tail page of a folio (free the head)";
	else if (PageBuddy(page) || PageFlag(page, PG_pcp) || PageFlag(page, PG_poisoned))
		why = "double free: the page is already free";
	else if (order > MAX_PAGE_ORDER)
		why = "order above MAX_PAGE_ORDER";
	pr_err("%s: pfn %lx order %u refcount %d: %s\n", fn, page_to_pfn(page), order,
	       page->_refcount, why);
	dump_page(page, why);
	count_bad_page(page);
}

#if CONFIG_DEBUG_VM

#define POISON_WORD (0x0101010101010101ull * PAGE_POISON_BYTE)

void poison_pages(struct page *page, unsigned int nr)
{
	for (unsigned int i = 0; i < nr; i++) {
		memset(page_address(page + i), PAGE_POISON_BYTE, PAGE_SIZE);
		SetPageFlag(page + i, PG_poisoned);
	}
}

/* Return: offset of the first byte that is not poison, or -1. */
static long poison_mismatch(const void *addr)
{
	const uint64_t *w = addr;

	for (size_t i = 0; i < PAGE_SIZE / 8; i++) {
		if (w[i] == POISON_WORD)
			continue;
		for (size_t b = 0; b < 8; b++)
			if (((const uint8_t *)&w[i])[b] != PAGE_POISON_BYTE)
				return (long)(i * 8 + b);
	}
	return -1;
}

/* Pages that were never freed since boot carry no poison and are skipped. */
bool check_poison(struct page *page, unsigned int nr)
{
	bool ok = true;

	for (unsigned int i = 0; i < nr; i++) {
		long off;

		if (!PageFlag(page + i, PG_poisoned))
			continue;
		ClearPageFlag(page + i, PG_poisoned);
		off = poison_mismatch(page_address(page + i));
		if (off < 0 || !ok)
			continue;
		pr_err("page_alloc: poison overwritten at pfn %lx offset %x\n",
		       page_to_pfn(page + i), (unsigned int)off);
		dump_page(page + i, "poison overwritten after free (use after free?)");
		count_bad_page(page);
		ok = false;
	}
	return ok;
}

/* Return: why page cannot be freed as a 2^order block, or NULL. */
static const char *free_page_problem(const struct page *page, unsigned int order)
{
	if (PageBuddy(page) || PageFlag(page, PG_pcp))
		return "double free: the page is already free";
	if (PageTail(page))
		return "tail page of a folio (free the head)";
	if (PageHead(page) && folio_order((const struct folio *)page) != order)
		return "wrong order: not the order of the folio";
	if (page_to_pfn(page) & ((1ul << order) - 1))
		return "misaligned: pfn is not a multiple of 2^order";
	if (PageReserved(page))
		return "reserved page: never given to the buddy allocator";
	if (folio_mapcount((const struct folio *)page) > 0)
		return "still mapped (mapcount > 0)";
	if (page->_refcount != 0)
		return "still referenced (refcount != 0)";
	if (PageFlag(page, PG_lru) || PageFlag(page, PG_locked))
		return "still on an LRU list or locked";
	for (unsigned long i = 1; i < (1ul << order); i++)
		if (PageBuddy(page + i) || PageFlag(page + i, PG_pcp))
			return "part of the block is already free";
	return NULL;
}

bool check_free_page(struct page *page, unsigned int order)
{
	const char *why = free_page_problem(page, order);

	if (!why)
		return true;
	pr_err("free_pages_prepare: pfn %lx order %u refcount %d mapcount %d: %s\n",
	       page_to_pfn(page), order, page->_refcount, page_mapcount(page), why);
	dump_page(page, why);
	count_bad_page(page);
	return false;
}

#else /* !CONFIG_DEBUG_VM */

void poison_pages(struct page *page, unsigned int nr)
{
}

bool check_poison(struct page *page, unsigned int nr)
{
	return true;
}

bool check_free_page(struct page *page, unsigned int order)
{
	return true;
}

#endif

/* --- buddy_check: every free-list invariant, in one pass ---------------------- */

struct census {
	unsigned long blocks[NR_PAGE_ORDERS][MIGRATE_TYPES];
	unsigned long free_pages, free_cma, pcp_pages, managed, highatomic_blocks;
};

#define FAIL(...) (ksnprintf(err, errlen, __VA_ARGS__), -1)

/* The free block at pfn: aligned, in the zone, on its pageblocks' list,
 * no free block inside it, not left unmerged with its buddy. */
static int check_free_block(struct zone *zone, unsigned long pfn, struct census *c, char *err,
			    size_t errlen)
{
	struct page *page = pfn_to_page(pfn);
	unsigned int order = buddy_order(page);
	unsigned long nr = 1ul << order, buddy_pfn = __find_buddy_pfn(pfn, order);
	int mt = (int)page->index;

	if (order > MAX_PAGE_ORDER || mt < 0 || mt >= MIGRATE_TYPES)
		return FAIL("zone %s: pfn %lx: free block with order %u type %d", zone->name, pfn,
			    order, mt);
	if ((pfn & (nr - 1)) || !zone_spans_pfn(zone, pfn + nr - 1))
		return FAIL("zone %s: pfn %lx order %u: misaligned or past the zone", zone->name,
			    pfn, order);
	for (unsigned long i = 0; i < nr; i += pageblock_nr_pages)
		if (get_pageblock_migratetype(page + i) != mt)
			return FAIL(
				"zone %s: pfn %lx order %u: on the %s list, pageblock at %lx is %s",
				zone->name, pfn, order, migratetype_names[mt],
				pageblock_start_pfn(pfn + i),
				migratetype_names[get_pageblock_migratetype(page + i)]);
	for (unsigned long i = 1; i < nr; i++)
		if (PageBuddy(page + i) || PageFlag(page + i, PG_pcp) || PageReserved(page + i))
			return FAIL("zone %s: pfn %lx inside free block %lx order %u is %s",
				    zone->name, pfn + i, pfn, order,
				    PageReserved(page + i) ? "reserved" : "also free (overlap)");
	if (order < MAX_PAGE_ORDER && zone_spans_pfn(zone, buddy_pfn) &&
	    PageBuddy(pfn_to_page(buddy_pfn)) && buddy_order(pfn_to_page(buddy_pfn)) == order &&
	    (int)pfn_to_page(buddy_pfn)->index == mt)
		return FAIL("zone %s: pfn %lx and its buddy %lx: both free at order %u on %s, not "
			    "merged",
			    zone->name, pfn, buddy_pfn, order, migratetype_names[mt]);
	c->blocks[order][mt]++;
	if (mt != MIGRATE_ISOLATE)
		c->free_pages += nr;
	if (mt == MIGRATE_CMA)
		c->free_cma += nr;
	return 0;
}

/* Walk every pfn of the zone once; holes of whole MAX_PAGE_ORDER blocks
 * without struct pages are skipped (a free block never crosses one). */
static int check_zone_pfns(struct zone *zone, struct census *c, char *err, size_t errlen)
{
	unsigned long end = zone->zone_start_pfn + zone->spanned_pages;

	for (unsigned long pfn = zone->zone_start_pfn; pfn < end;) {
		struct page *page;

		if (!pfn_valid(pfn)) {
			pfn = ALIGN_DOWN(pfn, MAX_ORDER_NR_PAGES) + MAX_ORDER_NR_PAGES;
			continue;
		}
		page = pfn_to_page(pfn);
		if (pfn == pageblock_start_pfn(pfn) &&
		    get_pageblock_type_raw(page) == MIGRATE_HIGHATOMIC)
			c->highatomic_blocks++;
		if (!PageReserved(page))
			c->managed++;
		if (PageBuddy(page)) {
			if (check_free_block(zone, pfn, c, err, errlen))
				return -1;
			for (unsigned long i = 1; i < (1ul << buddy_order(page)); i++)
				c->managed++;
			for (unsigned long i = pageblock_nr_pages; i < (1ul << buddy_order(page));
			     i += pageblock_nr_pages)
				if (get_pageblock_type_raw(page + i) == MIGRATE_HIGHATOMIC)
					c->highatomic_blocks++;
			pfn += 1ul << buddy_order(page);
			continue;
		}
		if (PageFlag(page, PG_pcp))
			c->pcp_pages += 1ul << page->private;
		pfn++;
	}
	return 0;
}

/* Every list entry is a free block of that order and type, linked both
 * ways, and the lists hold exactly the blocks the pfn walk found. */
static int check_free_lists(struct zone *zone, struct census *c, char *err, size_t errlen)
{
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++) {
		unsigned long total = 0;

		for (int mt = 0; mt < MIGRATE_TYPES; mt++) {
			struct list_head *head = &zone->free_area[o].free_list[mt], *pos;
			unsigned long n = 0;

			for (pos = head->next; pos != head; pos = pos->next) {
				struct page *page = list_entry(pos, struct page, lru);

				if (pos->next->prev != pos || n++ > zone->spanned_pages)
					return FAIL("zone %s: free_area[%u] %s list corrupted",
						    zone->name, o, migratetype_names[mt]);
				if (!zone_spans_pfn(zone, page_to_pfn(page)) || !PageBuddy(page) ||
				    buddy_order(page) != o || (int)page->index != mt)
					return FAIL("zone %s: free_area[%u] %s holds pfn %lx "
						    "(buddy %d order %lu type %lu)",
						    zone->name, o, migratetype_names[mt],
						    page_to_pfn(page), PageBuddy(page),
						    page->private, page->index);
			}
			if (n != c->blocks[o][mt])
				return FAIL("zone %s: free_area[%u] %s: %lu on the list, %lu free "
					    "blocks found",
					    zone->name, o, migratetype_names[mt], n,
					    c->blocks[o][mt]);
			total += n;
		}
		if (total != zone->free_area[o].nr_free)
			return FAIL("zone %s: free_area[%u].nr_free %lu, lists hold %lu",
				    zone->name, o, zone->free_area[o].nr_free, total);
	}
	return 0;
}

/* pcp entries are PG_pcp blocks of the list's order; count is exact. */
static int check_pcp(struct zone *zone, struct census *c, char *err, size_t errlen)
{
	unsigned long pages = 0;

	for (int i = 0; i < NR_PCP_LISTS; i++) {
		struct page *page;
		unsigned long n = 0;

		list_for_each_entry(page, &zone->pcp.lists[i], lru) {
			unsigned int order = (unsigned int)(i / MIGRATE_PCPTYPES);

			if (order > PAGE_ALLOC_COSTLY_ORDER)
				order = HPAGE_PMD_ORDER;
			if (n++ > zone->spanned_pages || !PageFlag(page, PG_pcp) ||
			    page->private != order || !zone_spans_pfn(zone, page_to_pfn(page)))
				return FAIL("zone %s: pcp list %d: bad entry pfn %lx (order %lu)",
					    zone->name, i, page_to_pfn(page), page->private);
			pages += 1ul << order;
		}
	}
	if (pages != (unsigned long)zone->pcp.count || pages != c->pcp_pages)
		return FAIL("zone %s: pcp count %d, lists hold %lu, PG_pcp pages %lu", zone->name,
			    zone->pcp.count, pages, c->pcp_pages);
	/* The fast path reads pcp->high without clamping it (Linux clamps
	 * on every use): every writer keeps it inside its bounds. */
	if (zone->pcp.high < zone->pcp.high_min || zone->pcp.high > zone->pcp.high_max)
		return FAIL("zone %s: pcp high %d outside [%d, %d]", zone->name, zone->pcp.high,
			    zone->pcp.high_min, zone->pcp.high_max);
	return 0;
}

static int check_zone_counters(struct zone *zone, struct census *c, char *err, size_t errlen)
{
	if (zone->nr_free_pages != c->free_pages || zone->nr_free_cma != c->free_cma)
		return FAIL(
			"zone %s: nr_free_pages %lu nr_free_cma %lu, free blocks hold %lu and %lu",
			zone->name, zone->nr_free_pages, zone->nr_free_cma, c->free_pages,
			c->free_cma);
	if (zone->managed_pages != c->managed)
		return FAIL("zone %s: managed_pages %lu, %lu pages not reserved", zone->name,
			    zone->managed_pages, c->managed);
	if (zone->nr_reserved_highatomic != c->highatomic_blocks * pageblock_nr_pages)
		return FAIL("zone %s: nr_reserved_highatomic %lu, %lu HighAtomic pageblocks",
			    zone->name, zone->nr_reserved_highatomic, c->highatomic_blocks);
	return 0;
}

int buddy_check(struct pglist_data *pgdat, char *err, size_t errlen)
{
	for (int zt = 0; zt < MAX_NR_ZONES; zt++) {
		struct zone *zone = &pgdat->node_zones[zt];
		struct census c;

		memset(&c, 0, sizeof(c));
		if (check_zone_pfns(zone, &c, err, errlen) ||
		    check_free_lists(zone, &c, err, errlen) || check_pcp(zone, &c, err, errlen) ||
		    check_zone_counters(zone, &c, err, errlen))
			return -1;
	}
	if (errlen)
		err[0] = '\0';
	return 0;
}
