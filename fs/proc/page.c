/*
 * /proc/kpageflags and /proc/kpagecount (Linux: fs/proc/page.c): one u64
 * per pfn, read at offset pfn * 8, up to the end of the last memory
 * section that holds RAM. kpageflags has Linux's KPF_* bits for the
 * state Folium keeps (<kernel-page-flags.h>); a pfn without a struct
 * page reads KPF_NOPAGE. kpagecount is the number of entries that map
 * the page. Example: page 3 of a 64 KiB anonymous folio mapped by its 16
 * PTEs reads KPF_ANON | KPF_MMAP | KPF_LRU | KPF_SWAPBACKED | KPF_UPTODATE
 * | KPF_COMPOUND_TAIL | KPF_THP, and count 1.
 */
#include <kernel-page-flags.h>
#include <seq_file.h>
#include <vm.h>

#define KPMSIZE sizeof(uint64_t)

/* Linux: get_max_dump_pfn, the last section with RAM rounded up. */
static unsigned long get_max_dump_pfn(void)
{
	const struct pglist_data *pgdat = NODE_DATA(0);

	return ALIGN_UP(pgdat->node_start_pfn + pgdat->node_spanned_pages, PAGES_PER_SECTION);
}

static uint64_t kpf_bit(bool set, unsigned int bit)
{
	return (uint64_t)set << bit;
}

/* Which kind of folio: Linux's KPF_HUGE / KPF_THP / KPF_ZERO_PAGE chain.
 * Every large anonymous folio is large_rmappable there, whatever its
 * size (mTHP included): THP; a HugeTLB page is HUGE. The huge zero folio is ZERO_PAGE and THP,
 * the zero page ZERO_PAGE. */
static uint64_t kpf_folio_kind(const struct folio *folio)
{
	if (PageFlag(&folio->page, PG_hugetlb))
		return 1ull << KPF_HUGE; /* a HugeTLB page, never THP */
	if (folio_test_large(folio) && folio_test_anon(folio))
		return 1ull << KPF_THP;
	if (is_huge_zero_folio(folio))
		return (1ull << KPF_ZERO_PAGE) | (1ull << KPF_THP);
	if (is_zero_pfn(folio_pfn(folio)))
		return 1ull << KPF_ZERO_PAGE;
	return 0;
}

/* Linux: stable_page_flags. Anonymous folios are always uptodate
 * (Linux marks them when zeroed; Folium has no PG_uptodate). */
uint64_t stable_page_flags(const struct page *page)
{
	const struct folio *folio;
	uint64_t u = 0;

	if (!page)
		return 1ull << KPF_NOPAGE;
	folio = page_folio(page);
	u |= kpf_bit(folio_mapped(folio), KPF_MMAP);
	u |= kpf_bit(folio_test_anon(folio), KPF_ANON);
	/* An anon folio is uptodate from its first fault (Folium sets no
	 * bit for it); a page-cache folio once its bytes are the file's. */
	u |= kpf_bit(folio_test_anon(folio) || folio_test_uptodate(folio), KPF_UPTODATE);
	if (page == &folio->page)
		u |= kpf_bit(PageHead(page), KPF_COMPOUND_HEAD);
	else
		u |= 1ull << KPF_COMPOUND_TAIL;
	u |= kpf_folio_kind(folio);
	u |= kpf_bit(PageBuddy(page) || (!page_count(page) && is_free_buddy_page(page)), KPF_BUDDY);
	u |= kpf_bit(PageFlag(page, PG_offline), KPF_OFFLINE);
	u |= kpf_bit(PageFlag(&folio->page, PG_slab), KPF_SLAB);
	u |= kpf_bit(folio_test_locked(folio), KPF_LOCKED);
	u |= kpf_bit(folio_test_dirty(folio), KPF_DIRTY);
	u |= kpf_bit(folio_test_lru(folio), KPF_LRU);
	u |= kpf_bit(folio_test_referenced(folio), KPF_REFERENCED);
	u |= kpf_bit(folio_test_swapbacked(folio), KPF_SWAPBACKED);
	u |= kpf_bit(folio_test_unevictable(folio), KPF_UNEVICTABLE);
	u |= kpf_bit(folio_test_mlocked(folio), KPF_MLOCKED);
	u |= kpf_bit(PageFlag(&folio->page, PG_reserved), KPF_RESERVED);
	return u;
}

/* Linux: pfn_to_online_page. */
static struct page *pfn_to_online_page(unsigned long pfn)
{
	return pfn_valid(pfn) ? pfn_to_page(pfn) : NULL;
}

static uint64_t kpagecount_of(unsigned long pfn)
{
	struct page *page = pfn_to_online_page(pfn);

	return page ? (uint64_t)folio_precise_page_mapcount(page_folio(page), page) : 0;
}

static uint64_t kpageflags_of(unsigned long pfn)
{
	return stable_page_flags(pfn_to_online_page(pfn));
}

/* One u64 per pfn from *pos on (Linux: kpagecount_read, kpageflags_read):
 * offset and count must be multiples of 8; past the last pfn, 0. */
static long kpage_read(unsigned long ubuf, size_t count, uint64_t *pos,
		       uint64_t (*entry)(unsigned long pfn))
{
	const unsigned long max_pfn = get_max_dump_pfn();
	unsigned long pfn = *pos / KPMSIZE;
	long done = 0;

	if (*pos % KPMSIZE || count % KPMSIZE)
		return -EINVAL;
	if (pfn >= max_pfn)
		return 0;
	count = MIN(count, (max_pfn - pfn) * KPMSIZE);
	for (; count; count -= KPMSIZE, pfn++, done += KPMSIZE) {
		uint64_t v = entry(pfn);

		if (copy_to_user(ubuf + (unsigned long)done, &v, KPMSIZE))
			break;
	}
	if (!done && count)
		return -EFAULT;
	*pos += (uint64_t)done;
	return done;
}

static long kpagecount_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	(void)file;
	return kpage_read(ubuf, count, pos, kpagecount_of);
}

static long kpageflags_read(struct file *file, unsigned long ubuf, size_t count, uint64_t *pos)
{
	(void)file;
	return kpage_read(ubuf, count, pos, kpageflags_of);
}

const struct file_operations proc_kpagecount_fops = {
	.read = kpagecount_read, .llseek = no_seek_end_llseek, /* Linux: mem_lseek */
};

const struct file_operations proc_kpageflags_fops = {
	.read = kpageflags_read,
	.llseek = no_seek_end_llseek,
};
