/*
 * mmdiff: a fixed script of memory operations whose every observable
 * result is printed as stable text, so its output on Folium can be
 * compared line by line with its output on Linux 7.3
 * (tools/tests/mmdiff-qemu.sh). Each step maps its own 2 MiB aligned
 * range at a fixed address (no neighbour to merge with), does one thing
 * and prints "step NAME: key value" lines: the per-size
 * hugepages-<N>kB/stats and /proc/vmstat counters that changed (deltas),
 * smaps of the range's VMAs and smaps_rollup deltas, mincore, and per
 * page the pagemap bits and, as root, /proc/kpageflags and kpagecount,
 * run-length encoded. No pfn or address is printed, only relations
 * (folios are runs of a head and its tails at consecutive pfns).
 * Example: "step fault-64K: folios 64K[AMLSTU]*32" is 32 mapped 64 KiB
 * anonymous THP folios on the LRU. Letters: A anon, M mapped, L LRU,
 * S swapbacked, T THP, Z zero page, D dirty, U uptodate, B buddy.
 * pagemap: x present and exclusive, p present, f file, s swapped, . none.
 * The THP controls (and khugepaged's sleep, so it collapses nothing
 * mid-script) are restored on exit. Usage: mmdiff
 */
#define _GNU_SOURCE /* mremap's MREMAP_FIXED */
#include <sys/mman.h>
#include "sbs.h"

#define BASE 0x200000000000ul /* step n's range: BASE + n * SLOT */
#define SLOT (64ul << 20)
#define RANGE SZ_2M
#define MAXPAGES 16384 /* pages a step looks at (64 MiB) */
#define PRESSURE_LEN (64ul << 20)

#define PM_PFN(e) ((e) & ((1ull << 55) - 1))
#define PM_SOFT_DIRTY (1ull << 55)
#define PM_EXCLUSIVE (1ull << 56)
#define PM_FILE (1ull << 61)
#define PM_SWAP (1ull << 62)
#define PM_PRESENT (1ull << 63)

/* /proc/kpageflags bits (Linux: include/uapi/linux/kernel-page-flags.h). */
enum {
	KPF_UPTODATE = 3,
	KPF_DIRTY = 4,
	KPF_LRU = 5,
	KPF_BUDDY = 10,
	KPF_MMAP = 11,
	KPF_ANON = 12,
	KPF_SWAPBACKED = 14,
	KPF_COMPOUND_HEAD = 15,
	KPF_COMPOUND_TAIL = 16,
	KPF_THP = 22,
	KPF_ZERO_PAGE = 24
};
static const struct {
	int bit;
	char letter;
} kpf_letters[] = {
	{ KPF_ANON, 'A' },	 { KPF_MMAP, 'M' },	{ KPF_LRU, 'L' },
	{ KPF_SWAPBACKED, 'S' }, { KPF_THP, 'T' },	{ KPF_ZERO_PAGE, 'Z' },
	{ KPF_DIRTY, 'D' },	 { KPF_UPTODATE, 'U' }, { KPF_BUDDY, 'B' },
};

static const char *const vm_names[] = {
	"thp_fault_alloc",
	"thp_fault_fallback",
	"thp_split_page",
	"thp_split_page_failed",
	"thp_deferred_split_page",
	"thp_split_pmd",
	"thp_zero_page_alloc",
	"pglazyfree",
	"pglazyfreed",
	"nr_anon_transparent_hugepages",
};
#define NVM (sizeof(vm_names) / sizeof(vm_names[0]))
static const char *const stat_names[] = {
	"anon_fault_alloc", "anon_fault_fallback",	"split", "split_failed", "split_deferred",
	"nr_anon",	    "nr_anon_partially_mapped",
};
#define NSTAT (sizeof(stat_names) / sizeof(stat_names[0]))
static const unsigned int sizes[] = { 16, 32, 64, 128, 256, 512, 1024, 2048 };
#define NSIZES (sizeof(sizes) / sizeof(sizes[0]))
static const char *const rollup_names[] = { "Rss:", "Anonymous:", "AnonHugePages:", "LazyFree:" };
#define NROLLUP (sizeof(rollup_names) / sizeof(rollup_names[0]))

struct snap {
	long vm[NVM];
	long stat[NSIZES][NSTAT];
	long rollup[NROLLUP];
};

static char step_name[48];
static struct snap before;
static int pagemap_fd = -1, kpageflags_fd = -1, kpagecount_fd = -1;
static char *drain_page;
static int quiet; /* the warm-up step prints nothing */

__attribute__((format(printf, 1, 2))) static void out(const char *fmt, ...)
{
	va_list ap;

	if (quiet)
		return;
	printf("step %s: ", step_name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/*
 * The observers read files with open/read into static buffers, never
 * stdio's fopen: a malloc'd FILE and its freeing would fault in and give
 * back heap pages between two snapshots, which smaps_rollup would show.
 */
static char file_buf[1 << 20];

/* The whole file, NUL-terminated, in file_buf; NULL if unreadable. */
static const char *read_file(const char *path)
{
	int fd = open(path, O_RDONLY);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return NULL;
	while (len < sizeof(file_buf) - 1 &&
	       (n = read(fd, file_buf + len, sizeof(file_buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	file_buf[len] = '\0';
	return file_buf;
}

/* A number file; -1 if missing. */
static long read_long(const char *path)
{
	const char *s = read_file(path);

	return s && *s >= '0' && *s <= '9' ? strtol(s, NULL, 10) : -1;
}

/* The number after "name" and blanks at a line start of text; -1 if none. */
static long field(const char *text, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\t'))
			return strtol(p + n, NULL, 10);
	return -1;
}

static long vmstat_field(const char *name)
{
	const char *text = read_file("/proc/vmstat");

	return text ? field(text, name) : -1;
}

static void take_snap(struct snap *s)
{
	const char *text;
	char path[160];

	text = read_file("/proc/vmstat");
	for (size_t i = 0; i < NVM; i++)
		s->vm[i] = text ? field(text, vm_names[i]) : -1;
	for (size_t i = 0; i < NSIZES; i++)
		for (size_t j = 0; j < NSTAT; j++) {
			snprintf(path, sizeof(path), "%s/hugepages-%ukB/stats/%s", thp, sizes[i],
				 stat_names[j]);
			s->stat[i][j] = read_long(path);
		}
	text = read_file("/proc/self/smaps_rollup");
	for (size_t i = 0; i < NROLLUP; i++)
		s->rollup[i] = text ? field(text, rollup_names[i]) : -1;
}

/* Linux adds order-0 folios to the LRU in per-CPU batches; MADV_FREE of
 * an untouched page drains this CPU's batch first (lru_add_drain) and
 * changes nothing else, so both kernels show every folio on its LRU. */
static void drain(void)
{
	madvise(drain_page, PAGE, MADV_FREE);
}

static void begin(const char *name)
{
	snprintf(step_name, sizeof(step_name), "%s", name);
	drain();
	take_snap(&before);
}

/* The counters that changed since begin, one line each. */
static void print_deltas(void)
{
	struct snap now;

	drain();
	take_snap(&now);
	for (size_t i = 0; i < NVM; i++)
		if (now.vm[i] >= 0 && before.vm[i] >= 0 && now.vm[i] != before.vm[i])
			out("vmstat %s %+ld", vm_names[i], now.vm[i] - before.vm[i]);
	for (size_t i = 0; i < NSIZES; i++)
		for (size_t j = 0; j < NSTAT; j++)
			if (now.stat[i][j] >= 0 && before.stat[i][j] >= 0 &&
			    now.stat[i][j] != before.stat[i][j])
				out("stats %ukB/%s %+ld", sizes[i], stat_names[j],
				    now.stat[i][j] - before.stat[i][j]);
	for (size_t i = 0; i < NROLLUP; i++)
		if (now.rollup[i] >= 0 && before.rollup[i] >= 0)
			out("rollup %s %+ld kB", rollup_names[i], now.rollup[i] - before.rollup[i]);
}

/* smaps fields summed over the VMAs inside [start, end). */
static void print_smaps(unsigned long start, unsigned long end)
{
	static const char *const names[] = { "Rss:", "Anonymous:", "AnonHugePages:", "LazyFree:" };
	const char *text = read_file("/proc/self/smaps");
	long sum[4] = { 0 };
	int vmas = 0, in = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long s, e;

		if (sscanf(p, "%lx-%lx ", &s, &e) == 2 && strchr(p, '-') < strchr(p, ' ')) {
			in = s >= start && e <= end;
			vmas += in;
			continue;
		}
		for (int i = 0; in && i < 4; i++)
			if (!strncmp(p, names[i], strlen(names[i])))
				sum[i] += strtol(p + strlen(names[i]), NULL, 10);
	}
	out("smaps vmas %d Rss %ld AnonHugePages %ld Anonymous %ld LazyFree %ld", vmas, sum[0],
	    sum[2], sum[1], sum[3]);
}

/* Run-length encoding of n tokens: "a*3 b c*2". */
struct rle {
	char buf[4096];
	size_t len;
	char last[64];
	long count;
};

static void rle_flush(struct rle *r)
{
	if (!r->count || r->len >= sizeof(r->buf) - 80)
		return;
	r->len += (size_t)snprintf(r->buf + r->len, sizeof(r->buf) - r->len, "%s%s",
				   r->len ? " " : "", r->last);
	if (r->count > 1)
		r->len += (size_t)snprintf(r->buf + r->len, sizeof(r->buf) - r->len, "*%ld",
					   r->count);
	r->count = 0;
}

static void rle_add(struct rle *r, const char *tok)
{
	if (r->count && !strcmp(tok, r->last)) {
		r->count++;
		return;
	}
	rle_flush(r);
	snprintf(r->last, sizeof(r->last), "%s", tok);
	r->count = 1;
}

static void print_mincore(unsigned long start, size_t npages)
{
	static unsigned char vec[MAXPAGES];
	struct rle r = { 0 };

	if (mincore((void *)start, npages * PAGE, vec)) {
		out("mincore error %s", strerror(errno));
		return;
	}
	for (size_t i = 0; i < npages; i++)
		rle_add(&r, vec[i] & 1 ? "1" : "0");
	rle_flush(&r);
	out("mincore %s", r.buf);
}

static uint64_t pme[MAXPAGES], kpf[MAXPAGES], kpc[MAXPAGES];

/* The pagemap entries of the pages, and the flags and counts of the
 * pfns they map (0 where none or unreadable). */
static int read_page_info(unsigned long start, size_t npages)
{
	size_t bytes = npages * sizeof(uint64_t);

	if (pread(pagemap_fd, pme, bytes, (off_t)(start / PAGE * 8)) != (ssize_t)bytes)
		return -1;
	for (size_t i = 0; i < npages; i++) {
		off_t off = (off_t)(PM_PFN(pme[i]) * 8);

		kpf[i] = kpc[i] = 0;
		if (!(pme[i] & PM_PRESENT) || kpageflags_fd < 0)
			continue;
		if (pread(kpageflags_fd, &kpf[i], 8, off) != 8)
			kpf[i] = 0;
		if (kpagecount_fd >= 0 && pread(kpagecount_fd, &kpc[i], 8, off) != 8)
			kpc[i] = 0;
	}
	return 0;
}

static void print_pagemap(size_t npages)
{
	struct rle r = { 0 };
	char tok[8];

	for (size_t i = 0; i < npages; i++) {
		size_t n = 0;

		if (pme[i] & PM_PRESENT)
			tok[n++] = pme[i] & PM_EXCLUSIVE ? 'x' : 'p';
		if (pme[i] & PM_FILE)
			tok[n++] = 'f';
		if (pme[i] & PM_SWAP)
			tok[n++] = 's';
		if (!n)
			tok[n++] = '.';
		tok[n] = '\0';
		rle_add(&r, tok);
	}
	rle_flush(&r);
	out("pagemap %s", r.buf);
}

/* The KPF letters of a page, head/tail apart. */
static void kpf_string(uint64_t flags, char *s)
{
	size_t n = 0;

	for (size_t i = 0; i < sizeof(kpf_letters) / sizeof(kpf_letters[0]); i++)
		if (flags & (1ull << kpf_letters[i].bit))
			s[n++] = kpf_letters[i].letter;
	s[n] = '\0';
}

/*
 * Folios as the pages show them: a head and the tails after it at
 * consecutive pfns are one folio, "64K[AMLSTU]"; tails whose flags differ
 * from the head's add "/tail-letters"; a page of no compound folio is
 * "4K[...]"; tails without their head in the range "tail4K..." (a folio
 * cut by the range's start); an unmapped page "-".
 */
static void print_folios(size_t npages)
{
	struct rle r = { 0 }, counts = { 0 };
	char tok[64], head[24], tail[24];
	int broken = 0;

	for (size_t i = 0; i < npages;) {
		size_t n = 1;
		int is_head = !!(kpf[i] & (1ull << KPF_COMPOUND_HEAD));

		if (!(pme[i] & PM_PRESENT)) {
			rle_add(&r, "-");
			i++;
			continue;
		}
		while (i + n < npages && (pme[i + n] & PM_PRESENT) &&
		       (kpf[i + n] & (1ull << KPF_COMPOUND_TAIL)) &&
		       PM_PFN(pme[i + n]) == PM_PFN(pme[i]) + n)
			n++;
		if (!is_head && (kpf[i] & (1ull << KPF_COMPOUND_TAIL)))
			broken += i != 0; /* a tail after an unrelated page */
		kpf_string(kpf[i] & ~(1ull << KPF_COMPOUND_HEAD), head);
		kpf_string(n > 1 ? kpf[i + 1] : kpf[i] & ~(1ull << KPF_COMPOUND_HEAD), tail);
		snprintf(tok, sizeof(tok), "%s%zuK[%s%s%s]",
			 is_head || !(kpf[i] & (1ull << KPF_COMPOUND_TAIL)) ? "" : "tail", n * 4,
			 head, strcmp(head, tail) ? "/" : "", strcmp(head, tail) ? tail : "");
		rle_add(&r, tok);
		i += n;
	}
	rle_flush(&r);
	out("folios %s", r.buf);
	for (size_t i = 0; i < npages; i++) {
		snprintf(tok, sizeof(tok), "%llu", (unsigned long long)kpc[i]);
		rle_add(&counts, tok);
	}
	rle_flush(&counts);
	out("kpagecount %s", counts.buf);
	if (broken)
		out("tails apart from their head %d", broken);
}

/* Everything about [start, start + len) after the step. */
static void end(unsigned long start, size_t len)
{
	size_t npages = len / PAGE;

	print_deltas();
	print_smaps(start, start + len);
	print_mincore(start, npages);
	if (read_page_info(start, npages)) {
		out("pagemap unreadable");
		return;
	}
	print_pagemap(npages);
	if (kpageflags_fd >= 0)
		print_folios(npages);
}

static unsigned long next_slot;

/* A fresh read-write range of len at the next slot. */
static char *map_range(size_t len)
{
	unsigned long addr = BASE + next_slot++ * SLOT;
	void *p = mmap((void *)addr, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p != (void *)addr)
		die("mmap at %#lx: %s", addr, strerror(errno));
	return p;
}

static void write_pages(char *p, size_t len)
{
	for (size_t off = 0; off < len; off += PAGE)
		((volatile char *)p)[off] = 1;
}

static long read_pages(const char *p, size_t len)
{
	long sum = 0;

	for (size_t off = 0; off < len; off += PAGE)
		sum += ((const volatile char *)p)[off];
	return sum;
}

static void check(int ok, const char *what)
{
	out("%s %s", what, ok ? "yes" : "NO");
}

/* The start of most steps: only kib KiB folios enabled, the range mapped
 * and every page written, then begin("WHAT-<kib>K"). Return: the range. */
static char *written_range(const char *what, unsigned int kib)
{
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	write_pages(p, RANGE);
	snprintf(name, sizeof(name), "%s-%uK", what, kib);
	begin(name);
	return p;
}

/* The end of a step over the whole range: what user space sees, then unmap. */
static void end_range(char *p)
{
	end((unsigned long)p, RANGE);
	munmap(p, RANGE);
}

/* fault-NK: every page written with only N KiB folios enabled. */
static void step_fault(unsigned int kib)
{
	char name[32];
	char *p;

	snprintf(name, sizeof(name), "fault-%uK", kib);
	set_size(kib);
	p = map_range(RANGE);
	begin(name);
	write_pages(p, RANGE);
	end_range(p);
}

/* Reads map the zero page (4K) or the huge zero folio (2048K); a write
 * after them gets memory of its own. */
static void step_read_then_write(unsigned int kib)
{
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	snprintf(name, sizeof(name), "read-%uK", kib);
	begin(name);
	check(read_pages(p, RANGE) == 0, "reads zero");
	end((unsigned long)p, RANGE);
	snprintf(name, sizeof(name), "write-after-read-%uK", kib);
	begin(name);
	p[5 * PAGE] = 1;
	end((unsigned long)p, RANGE);
	snprintf(name, sizeof(name), "write-all-after-read-%uK", kib);
	begin(name);
	write_pages(p, RANGE);
	end_range(p);
}

/* MADV_FREE of the whole range, then of part of a folio, then writes. */
static void step_madv_free(unsigned int kib)
{
	size_t fsz = (size_t)kib << 10;
	char name[48];
	char *p = written_range("madv-free", kib);

	check(!madvise(p, RANGE, MADV_FREE), "madvise ok");
	end((unsigned long)p, RANGE);
	snprintf(name, sizeof(name), "rewrite-after-free-%uK", kib);
	begin(name);
	for (size_t off = 0; off < RANGE; off += 2 * fsz)
		p[off] = 2;
	end_range(p);

	p = written_range("madv-free-part", kib);
	check(!madvise(p + fsz / 2, RANGE - fsz, MADV_FREE), "madvise ok");
	end_range(p);
}

/* MADV_DONTNEED of a page, then of a quarter of the range from a quarter
 * into a folio. */
static void step_dontneed(unsigned int kib)
{
	size_t fsz = (size_t)kib << 10;
	char *p = written_range("dontneed", kib);

	check(!madvise(p + PAGE, PAGE, MADV_DONTNEED), "madvise ok");
	check(!madvise(p + RANGE / 2 + fsz / 4, RANGE / 4, MADV_DONTNEED), "madvise ok");
	check(read_pages(p, RANGE) == RANGE / PAGE - 1 - RANGE / 4 / PAGE, "bytes as expected");
	end_range(p);
}

/* mprotect of a range that cuts a folio's mapping in two VMAs. */
static void step_mprotect(unsigned int kib)
{
	size_t fsz = (size_t)kib << 10;
	char *p = written_range("mprotect", kib);

	check(!mprotect(p + fsz / 2, fsz / 4, PROT_READ), "mprotect ok");
	end_range(p);
}

/* munmap of the first half of a folio; the rest of the range is looked at. */
static void step_munmap(unsigned int kib)
{
	size_t fsz = (size_t)kib << 10;
	char *p = written_range("munmap-part", kib);

	check(!munmap(p, fsz / 2), "munmap ok");
	end((unsigned long)p + fsz / 2, RANGE - fsz / 2);
	munmap(p, RANGE);
}

/* mremap of the whole range to another 2 MiB aligned address. */
static void step_mremap(unsigned int kib)
{
	char name[48];
	char *p, *q, *to;
	uint64_t old_pfn, new_pfn;

	set_size(kib);
	p = map_range(RANGE);
	write_pages(p, RANGE);
	to = (char *)(BASE + next_slot++ * SLOT);
	snprintf(name, sizeof(name), "mremap-%uK", kib);
	old_pfn = read_page_info((unsigned long)p, 1) ? 0 : PM_PFN(pme[0]);
	begin(name);
	q = mremap(p, RANGE, RANGE, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	check(q == to, "moved");
	new_pfn = read_page_info((unsigned long)to, 1) ? 1 : PM_PFN(pme[0]);
	check(old_pfn == new_pfn, "same first pfn");
	end((unsigned long)to, RANGE);
	munmap(to, RANGE);
}

/*
 * Write max bytes of b page by page, or stop 4 MiB after pglazyfreed
 * has moved past lazyfreed0: free memory the kernel does not count in
 * MemFree (Linux's per-CPU lists grow to 1/8 of a zone after big frees)
 * would make a fixed size miss reclaim. Return: the bytes written.
 */
static size_t press(char *b, size_t max, long lazyfreed0)
{
	const size_t after = 4ul << 20, step = 4ul << 20;
	size_t len = 0, stop = max;

	while (len < stop) {
		size_t n = stop - len < step ? stop - len : step;

		write_pages(b + len, n);
		len += n;
		if (stop == max && vmstat_field("pglazyfreed") != lazyfreed0)
			stop = len + after < max ? len + after : max;
	}
	return len;
}

/*
 * pressure-64K: 64 MiB of 64K folios lazyfreed, every 4th folio written
 * again, then written elsewhere with 4K pages until the kernel reclaims
 * lazyfree folios (at most MemFree less the reserve, plus what per-CPU
 * lists may hold beyond MemFree, plus half of the range). How much it
 * reclaims is its own business; printed are the relations that must
 * hold: rewritten data kept, reclaimed pages unmapped and reading zero,
 * mapped pages keeping their data.
 */
static void step_pressure(void)
{
	const size_t fsz = 64 << 10, npages = PRESSURE_LEN / PAGE;
	long reclaimed = 0, lost = 0, unmapped = 0, lazyfreed0;
	size_t blen;
	char *a, *b;

	set_size(64);
	a = map_range(PRESSURE_LEN);
	memset(a, 0x5a, PRESSURE_LEN);
	begin("pressure-64K");
	lazyfreed0 = vmstat_field("pglazyfreed");
	check(!madvise(a, PRESSURE_LEN, MADV_FREE), "madvise ok");
	for (size_t off = 0; off < PRESSURE_LEN; off += 4 * fsz)
		memset(a + off, 0xa5, fsz);
	set_size(4);
	blen = ((mem_free_kib() - total_reserve_kib("min") +
		 (unsigned long)meminfo_kib("MemTotal") / 8)
		<< 10) +
	       PRESSURE_LEN / 2;
	b = mmap(NULL, blen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
		 -1, 0);
	if (b == MAP_FAILED)
		die("mmap of %zu bytes: %s", blen, strerror(errno));
	blen = press(b, blen, lazyfreed0);
	check(read_pages(b, blen) == (long)(blen / PAGE), "pressure bytes kept");
	munmap(b, blen);
	if (read_page_info((unsigned long)a, npages))
		die("pagemap unreadable");
	for (size_t i = 0; i < npages; i++) {
		const unsigned char want = (i * PAGE / fsz) % 4 ? 0x5a : 0xa5;
		const unsigned char got = ((volatile char *)a)[i * PAGE];

		unmapped += !(pme[i] & PM_PRESENT);
		if (got == 0 && want == 0x5a && !(pme[i] & PM_PRESENT))
			reclaimed++;
		else if (got != want || !(pme[i] & PM_PRESENT))
			lost++;
	}
	check(lost == 0, "every page kept or reclaimed (unmapped, reading zero)");
	check(reclaimed > 0, "some lazyfree pages reclaimed");
	check(unmapped == reclaimed, "unmapped pages are the reclaimed ones");
	check(vmstat_field("pglazyfreed") - lazyfreed0 == reclaimed, "pglazyfreed counts them");
	munmap(a, PRESSURE_LEN);
}

/* khugepaged would collapse ranges behind the script's back on Linux:
 * put it to sleep for the run (Folium has none: no such files). */
static char saved_sleep[2][32];
static const char *const khugepaged_files[2] = {
	"/sys/kernel/mm/transparent_hugepage/khugepaged/scan_sleep_millisecs",
	"/sys/kernel/mm/transparent_hugepage/khugepaged/alloc_sleep_millisecs",
};

static void khugepaged_sleep(int restore_it)
{
	for (int i = 0; i < 2; i++) {
		FILE *f;

		if (restore_it) {
			if (saved_sleep[i][0])
				write_ctl(khugepaged_files[i], saved_sleep[i]);
			continue;
		}
		f = fopen(khugepaged_files[i], "r");
		if (!f)
			continue;
		if (!fgets(saved_sleep[i], sizeof(saved_sleep[i]), f))
			saved_sleep[i][0] = '\0';
		fclose(f);
		write_ctl(khugepaged_files[i], "3600000");
	}
}

/* Which of the counters the script reads the kernel has, by name. */
static void print_stat_files(void)
{
	char path[160];

	printf("mmdiff: hugepages-64kB/stats:");
	for (size_t j = 0; j < NSTAT; j++) {
		snprintf(path, sizeof(path), "%s/hugepages-64kB/stats/%s", thp, stat_names[j]);
		if (!access(path, R_OK))
			printf(" %s", stat_names[j]);
	}
	printf("\nmmdiff: vmstat:");
	for (size_t i = 0; i < NVM; i++)
		if (vmstat_field(vm_names[i]) >= 0)
			printf(" %s", vm_names[i]);
	printf("\n");
}

/* Bit 55 of a written page's entry, once: a kernel that tracks soft-dirty
 * (Linux's VM_SOFTDIRTY on a new VMA) sets it on every page, one that
 * does not never; per step it would only repeat this. */
static void print_soft_dirty(void)
{
	char *p = map_range(PAGE);

	p[0] = 1;
	printf("mmdiff: pagemap soft-dirty on a written page: %s\n",
	       read_page_info((unsigned long)p, 1) ? "unreadable"
	       : pme[0] & PM_SOFT_DIRTY		   ? "yes"
						   : "no");
	munmap(p, PAGE);
}

/* --- vm sysctls ----------------------------------------------------------------- */

static const char *errno_name(int ok, int err)
{
	if (ok)
		return "ok";
	return err == ENOMEM   ? "ENOMEM"
	       : err == EACCES ? "EACCES"
	       : err == EPERM  ? "EPERM"
			       : "other";
}

/* The /proc/sys/vm files Linux's tests read, their values where both
 * kernels' defaults agree (min_free_kbytes follows each kernel's managed
 * memory, so only its presence), compact_memory write-only, a hint below
 * mmap_min_addr not taken, and vm.max_map_count at 0: a new mapping and a
 * split are refused, and go through once it is back. */
static void step_vm_sysctls(void)
{
	static const char *const same[] = {
		"max_map_count",
		"mmap_min_addr",
		"extfrag_threshold",
		"watermark_scale_factor",
		"watermark_boost_factor",
		"compaction_proactiveness",
		"compact_unevictable_allowed",
	};
	const char *ctl = "/proc/sys/vm/max_map_count";
	char saved[32], path[64];
	int map_ok, split_ok, map_err, split_err, fd;
	char *p, *q;
	long v;

	begin("vm-sysctls");
	for (size_t i = 0; i < sizeof(same) / sizeof(same[0]); i++) {
		snprintf(path, sizeof(path), "/proc/sys/vm/%s", same[i]);
		out("%s %ld", same[i], read_long(path));
	}
	out("hpage_pmd_size %ld", read_long("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"));
	v = read_long("/proc/sys/vm/min_free_kbytes");
	out("min_free_kbytes %s", v > 0 ? "present" : "missing");
	fd = open("/proc/sys/vm/compact_memory", O_RDONLY);
	out("compact_memory read: %s", errno_name(fd >= 0, errno));
	if (fd >= 0)
		close(fd);
	fd = open("/proc/sys/vm/drop_caches", O_RDONLY);
	out("drop_caches read: %s", errno_name(fd >= 0, errno));
	if (fd >= 0)
		close(fd);
	q = mmap((void *)0x1000, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	out("hint below mmap_min_addr taken: %s", q == (char *)0x1000 ? "yes" : "no");
	munmap(q, PAGE);
	/* Nothing printed while the limit is 0: stdio must not need memory. */
	p = map_range(3 * PAGE);
	snprintf(saved, sizeof(saved), "%ld", read_long(ctl));
	if (write_ctl(ctl, "0"))
		die("cannot write %s", ctl);
	q = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	map_ok = q != MAP_FAILED;
	map_err = errno;
	split_ok = !munmap(p + PAGE, PAGE);
	split_err = errno;
	write_ctl(ctl, saved);
	out("max_map_count 0: mmap %s, split %s", errno_name(map_ok, map_err),
	    errno_name(split_ok, split_err));
	if (map_ok)
		munmap(q, PAGE);
	out("max_map_count %s again: split %s", saved, errno_name(!munmap(p + PAGE, PAGE), errno));
	munmap(p, 3 * PAGE);
}

/* --- hugetlb: a pool of 2 MiB pages, reserved at mmap, mapped at the touch --- */

#define HUGETLB_NR "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
#define HUGETLB_LEN (4ul << 20)

/* /proc/meminfo's HugePages_* lines and Hugetlb:, as "step" lines. */
static void print_hugetlb_meminfo(const char *when)
{
	static const char *const names[] = { "HugePages_Total:", "HugePages_Free:",
					     "HugePages_Rsvd:",	 "HugePages_Surp:",
					     "Hugepagesize:",	 "Hugetlb:" };
	const char *text = read_file("/proc/meminfo");

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		out("%s %s %ld", when, names[i], text ? field(text, names[i]) : -1);
}

/* hugetlb-2M: nr_hugepages 4 through sysfs, a 4 MiB MAP_HUGETLB mapping
 * (2 reserved), both pages touched (taken), munmap (back), the pool put back. */
static void step_hugetlb(void)
{
	long saved = read_long(HUGETLB_NR), success;
	char *p, want[24] = "4";
	unsigned long addr = BASE + next_slot++ * SLOT;

	if (saved < 0)
		return;
	success = vmstat_field("htlb_buddy_alloc_success");
	write_ctl(HUGETLB_NR, want);
	snprintf(step_name, sizeof(step_name), "hugetlb-2M");
	out("nr_hugepages %ld", read_long(HUGETLB_NR));
	out("htlb_buddy_alloc_success +%ld", vmstat_field("htlb_buddy_alloc_success") - success);
	begin("hugetlb-2M");
	p = mmap((void *)addr, HUGETLB_LEN - PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | MAP_FIXED_NOREPLACE, -1, 0);
	check(p == (void *)addr, "mmap ok");
	if (p != (void *)addr)
		goto out;
	print_hugetlb_meminfo("mapped");
	write_pages(p, HUGETLB_LEN);
	check(read_pages(p, HUGETLB_LEN) == (long)(HUGETLB_LEN / PAGE), "bytes as written");
	print_hugetlb_meminfo("touched");
	check(munmap(p + PAGE, SZ_2M) == -1 && errno == EINVAL, "unaligned munmap EINVAL");
	check(madvise(p, SZ_2M, MADV_FREE) == -1 && errno == EINVAL, "MADV_FREE EINVAL");
	end((unsigned long)p, HUGETLB_LEN);
	check(!munmap(p, HUGETLB_LEN), "munmap ok");
	print_hugetlb_meminfo("unmapped");
	p = mmap(NULL, 8 * HUGETLB_LEN, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	check(p == MAP_FAILED && errno == ENOMEM, "mmap beyond the pool ENOMEM");
out:
	snprintf(want, sizeof(want), "%ld", saved);
	write_ctl(HUGETLB_NR, want);
	out("nr_hugepages restored %ld", read_long(HUGETLB_NR));
}

int main(void)
{
	static const unsigned int script_sizes[] = { 16, 64, 2048 };

	prog_name = "mmdiff";
	setvbuf(stdout, NULL, _IOLBF, 0);
	find_ctls();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	khugepaged_sleep(0);
	drain_page = mmap(NULL, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pagemap_fd = open("/proc/self/pagemap", O_RDONLY);
	kpageflags_fd = open("/proc/kpageflags", O_RDONLY);
	kpagecount_fd = open("/proc/kpagecount", O_RDONLY);
#ifdef __GLIBC__
	printf("mmdiff: begin glibc\n");
#else
	printf("mmdiff: begin musl\n");
#endif
	printf("mmdiff: pagemap %s, kpageflags %s, kpagecount %s, per-size controls %s\n",
	       pagemap_fd < 0 ? "no" : "yes", kpageflags_fd < 0 ? "no" : "yes",
	       kpagecount_fd < 0 ? "no" : "yes", have_size(64) ? "yes" : "no");
	if (pagemap_fd < 0 || !have_size(64))
		die("needs /proc/self/pagemap and hugepages-<N>kB controls");
	print_stat_files();
	print_soft_dirty();
	quiet = 1; /* warm up: stdio buffers, stack and heap pages of the observers */
	step_fault(4);
	quiet = 0;
	step_fault(4);
	for (size_t i = 0; i < NSIZES; i++)
		if (have_size(sizes[i]))
			step_fault(sizes[i]);
	step_read_then_write(4);
	step_read_then_write(64);
	step_read_then_write(2048);
	for (size_t i = 0; i < sizeof(script_sizes) / sizeof(script_sizes[0]); i++) {
		step_madv_free(script_sizes[i]);
		step_dontneed(script_sizes[i]);
		step_mprotect(script_sizes[i]);
		step_munmap(script_sizes[i]);
		step_mremap(script_sizes[i]);
	}
	step_pressure();
	step_vm_sysctls();
	step_hugetlb();
	restore();
	khugepaged_sleep(1);
	printf("mmdiff: done\n");
	return 0;
}
