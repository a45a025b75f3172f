/*
 * folio_zero_user(): zero a new folio so that the page the user faulted on
 * is cleared last and is still in the cache when the fault returns. The
 * default (upstream) strategy clears three runs with one clear_pages()
 * each: right of the fault, left of it, then the fault with 2 pages either
 * side. Example: order 4, fault in page 5 → [8..15], [0..2], then [3..7].
 * Folios above MAX_ORDER_NR_PAGES are cleared in one straight run.
 */
#include <arch.h>
#include <vm.h>

/* Linux: FOLIO_ZERO_LOCALITY_RADIUS in mm/memory.c. */
#define FOLIO_ZERO_LOCALITY_RADIUS 2

enum zero_strategy zero_strategy = ZERO_NEIGHBOURHOOD;
void (*clear_pages_recorder)(void *addr, unsigned int npages);

static const char *const zero_strategy_names[] = {
	[ZERO_NEIGHBOURHOOD] = "neighbourhood",
	[ZERO_CONTIGUOUS] = "contiguous",
	[ZERO_PAGE] = "page",
};

const char *zero_strategy_name(enum zero_strategy strategy)
{
	return zero_strategy_names[strategy];
}

int zero_strategy_parse(const char *name, enum zero_strategy *strategy)
{
	int i = match_string(zero_strategy_names, ARRAY_SIZE(zero_strategy_names), name);

	if (i < 0)
		return i;
	*strategy = (enum zero_strategy)i;
	return 0;
}

/* Every clear of this file goes through here, so tests see each call. */
static void zero_pages(struct folio *folio, unsigned long start, unsigned long nr)
{
	void *addr = page_address(folio_page(folio, start));

	if (clear_pages_recorder)
		clear_pages_recorder(addr, nr);
	clear_pages(addr, nr);
}

static long clamp_long(long v, long lo, long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* Append the inclusive run [first, last] to r unless it is empty. */
static unsigned int add_range(struct folio_zero_range *r, unsigned int n, long first, long last)
{
	if (last >= first)
		r[n++] = (struct folio_zero_range){ first, last - first + 1 };
	return n;
}

/*
 * Linux: folio_zero_user() in mm/memory.c as rewritten in 2025 (Ankur
 * Arora, "mm: folio_zero_user: clear page ranges"): r[2] is the fault
 * ±radius clamped to the folio,
 * r[1] = [0, r[2].start - 1], r[0] = [r[2].end + 1, last], cleared r[0],
 * r[1], r[2]. Signed arithmetic as upstream's clamp_t(s64, ...).
 */
unsigned int folio_zero_ranges(unsigned long nr_pages, unsigned long fault_idx,
			       struct folio_zero_range r[3])
{
	const long last = (long)nr_pages - 1, fault = (long)fault_idx;
	const long radius = FOLIO_ZERO_LOCALITY_RADIUS;
	long nb_start, nb_end;
	unsigned int n = 0;

	if (nr_pages > MAX_ORDER_NR_PAGES)
		return add_range(r, 0, 0, last);
	nb_start = clamp_long(fault - radius, 0, last);
	nb_end = clamp_long(fault + radius, 0, last);
	n = add_range(r, n, nb_end + 1, last); /* right of the fault */
	n = add_range(r, n, 0, nb_start - 1);  /* left of the fault */
	return add_range(r, n, nb_start, nb_end);
}

static void zero_neighbourhood_last(struct folio *folio, unsigned long fault_idx)
{
	struct folio_zero_range r[3];
	unsigned int n = folio_zero_ranges(folio_nr_pages(folio), fault_idx, r);

	for (unsigned int i = 0; i < n; i++)
		zero_pages(folio, r[i].start, r[i].nr);
}

/*
 * The older Linux order (process_huge_page(), 2017 to 2025): page by page,
 * first the far side of the folio from the fault, then alternately left
 * and right converging on it. Example: 16 pages, fault 5 → 15..10, then
 * 0 9 1 8 2 7 3 6 4 5. Larger folios: 0..n-1 (clear_gigantic_page()).
 */
static void zero_page_by_page(struct folio *folio, unsigned long fault_idx)
{
	const long nr = (long)folio_nr_pages(folio), n = (long)fault_idx;
	long base, l;

	if (nr > (long)MAX_ORDER_NR_PAGES) {
		for (long i = 0; i < nr; i++)
			zero_pages(folio, i, 1);
		return;
	}
	if (2 * n <= nr) {
		base = 0;
		l = n;
		for (long i = nr - 1; i >= 2 * n; i--)
			zero_pages(folio, i, 1);
	} else {
		base = nr - 2 * (nr - n);
		l = nr - n;
		for (long i = 0; i < base; i++)
			zero_pages(folio, i, 1);
	}
	for (long i = 0; i < l; i++) {
		zero_pages(folio, base + i, 1);
		zero_pages(folio, base + 2 * l - 1 - i, 1);
	}
}

void folio_zero_user(struct folio *folio, unsigned long addr_hint)
{
	const unsigned long base_addr = ALIGN_DOWN(addr_hint, folio_size(folio));
	const unsigned long fault_idx = (addr_hint - base_addr) / PAGE_SIZE;

	switch (zero_strategy) {
	case ZERO_CONTIGUOUS:
		zero_pages(folio, 0, folio_nr_pages(folio));
		break;
	case ZERO_PAGE:
		zero_page_by_page(folio, fault_idx);
		break;
	default:
		zero_neighbourhood_last(folio, fault_idx);
		break;
	}
}

/* The instruction clear_pages() uses: CPUID's choice until clear_pages=
 * (or a test) picks one. */
enum clear_insn {
	CLEAR_STOSB,
	CLEAR_STOSQ
};
static const char *const clear_insn_names[] = { "stosb", "stosq" };
static bool clear_insn_chosen;
static enum clear_insn clear_insn;

static enum clear_insn current_insn(void)
{
	if (clear_insn_chosen)
		return clear_insn;
	return arch_has_fast_stosb() ? CLEAR_STOSB : CLEAR_STOSQ;
}

void clear_pages(void *addr, unsigned int npages)
{
	unsigned long bytes = (unsigned long)npages * PAGE_SIZE;

	if (current_insn() == CLEAR_STOSB)
		arch_clear_stosb(addr, bytes);
	else
		arch_clear_stosq(addr, bytes);
}

const char *clear_pages_insn_name(void)
{
	return clear_insn_names[current_insn()];
}

int clear_pages_select(const char *name)
{
	int i = match_string(clear_insn_names, ARRAY_SIZE(clear_insn_names), name);

	if (i < 0)
		return i;
	clear_insn = (enum clear_insn)i;
	clear_insn_chosen = true;
	return 0;
}

CMDLINE_KEY(clear_pages, "stosb|stosq: the clearing instruction (default: stosb if ERMS or FSRM)");
CMDLINE_KEY(zero, "neighbourhood|contiguous|page: the folio_zero_user() strategy");

void clear_pages_init(void)
{
	const char *insn = boot_cmdline_get(clear_pages);
	const char *zero = boot_cmdline_get(zero);

	if (insn && clear_pages_select(insn) < 0)
		pr_err("cmdline: clear_pages=%s is not stosb or stosq; keeping %s\n", insn,
		       clear_pages_insn_name());
	if (zero && zero_strategy_parse(zero, &zero_strategy) < 0)
		pr_err("cmdline: zero=%s is not neighbourhood, contiguous or page; keeping %s\n",
		       zero, zero_strategy_name(zero_strategy));
	pr_info("clear_pages: rep %s; folio_zero_user: %s\n", clear_pages_insn_name(),
		zero_strategy_name(zero_strategy));
}
