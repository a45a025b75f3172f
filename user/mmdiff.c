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
 * pagemap: x present and exclusive, p present, f file, s swapped, g guard
 * region, . none.
 * The THP controls (and khugepaged's sleep, so it collapses nothing
 * mid-script) are restored on exit. Usage: mmdiff
 */
#define _GNU_SOURCE /* mremap's MREMAP_FIXED */
#include <setjmp.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include "sbs.h"

#define BASE 0x200000000000ul /* step n's range: BASE + n * SLOT */
#define SLOT (64ul << 20)
#define RANGE SZ_2M
#define MAXPAGES 16384 /* pages a step looks at (64 MiB) */
#define PRESSURE_LEN (64ul << 20)

#define PM_PFN(e) ((e) & ((1ull << 55) - 1))
#define PM_SOFT_DIRTY (1ull << 55)
#define PM_EXCLUSIVE (1ull << 56)
#define PM_GUARD_REGION (1ull << 58)
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
	"thp_collapse_alloc",
	"thp_collapse_alloc_failed",
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
		if (pme[i] & PM_GUARD_REGION)
			tok[n++] = 'g';
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

/* mremap of the whole range to another 2 MiB aligned address (shift 0:
 * whole tables or a PMD leaf move), or 64 KiB past one (the PTEs move,
 * a PMD leaf is split first; every folio stays whole either way). */
static void step_mremap(unsigned int kib, size_t shift)
{
	char name[48];
	char *p, *q, *to;
	uint64_t old_pfn, new_pfn;

	set_size(kib);
	p = map_range(RANGE);
	write_pages(p, RANGE);
	to = (char *)(BASE + next_slot++ * SLOT + shift);
	snprintf(name, sizeof(name), "mremap%s-%uK", shift ? "-shifted" : "", kib);
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

/* --- mlock ------------------------------------------------------------------------ */

/* What mlock changes outside the range: Linux's unevictable_pgs_* events,
 * nr_mlock and nr_unevictable from /proc/vmstat, Mlocked and Unevictable
 * from /proc/meminfo. Linux folds its per-CPU page counts into the
 * totals on a timer; /proc/sys/vm/stat_refresh folds them now (Folium
 * has no such file and no per-CPU counts). */
static const char *const mlock_vm_names[] = {
	"unevictable_pgs_culled",
	"unevictable_pgs_scanned",
	"unevictable_pgs_rescued",
	"unevictable_pgs_mlocked",
	"unevictable_pgs_munlocked",
	"unevictable_pgs_cleared",
	"unevictable_pgs_stranded",
	"nr_mlock",
	"nr_unevictable",
};
#define NMLOCKVM (sizeof(mlock_vm_names) / sizeof(mlock_vm_names[0]))
struct mlock_snap {
	long vm[NMLOCKVM];
	long mlocked_kb, unevictable_kb;
};
static struct mlock_snap mlock_before;

static void mlock_snap(struct mlock_snap *s)
{
	const char *text;
	int fd = open("/proc/sys/vm/stat_refresh", O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "1", 1) < 0)
			(void)0; /* the counts are only a little late then */
		close(fd);
	}
	drain();
	/* Linux batches mlock's LRU moves per CPU too; a change of a VMA's
	 * lock flags drains them (mlock_vma_pages_range's lru_add_drain). */
	syscall(SYS_mlock2, drain_page, PAGE, MLOCK_ONFAULT);
	syscall(SYS_munlock, drain_page, PAGE);
	text = read_file("/proc/vmstat");
	for (size_t i = 0; i < NMLOCKVM; i++)
		s->vm[i] = text ? field(text, mlock_vm_names[i]) : -1;
	text = read_file("/proc/meminfo");
	s->mlocked_kb = text ? field(text, "Mlocked:") : -1;
	s->unevictable_kb = text ? field(text, "Unevictable:") : -1;
}

static void mlock_begin(const char *name)
{
	begin(name);
	mlock_snap(&mlock_before);
}

/* The mlock counters that changed since mlock_begin, and what smaps says
 * of the range: Locked and the VMAs flagged "lo". */
static void mlock_print(unsigned long start, unsigned long end_addr)
{
	const char *text;
	struct mlock_snap now;
	long locked = 0;
	int lo = 0, in = 0;

	mlock_snap(&now);
	for (size_t i = 0; i < NMLOCKVM; i++)
		if (now.vm[i] != mlock_before.vm[i])
			out("vmstat %s %+ld", mlock_vm_names[i], now.vm[i] - mlock_before.vm[i]);
	out("meminfo Mlocked %+ld kB Unevictable %+ld kB", now.mlocked_kb - mlock_before.mlocked_kb,
	    now.unevictable_kb - mlock_before.unevictable_kb);
	text = read_file("/proc/self/smaps");
	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long s, e;

		if (sscanf(p, "%lx-%lx ", &s, &e) == 2 && strchr(p, '-') < strchr(p, ' '))
			in = s >= start && e <= end_addr;
		else if (in && !strncmp(p, "Locked:", 7))
			locked += strtol(p + 7, NULL, 10);
		else if (in && !strncmp(p, "VmFlags:", 8))
			lo += strstr(p, " lo") && strstr(p, " lo") < strchr(p, '\n');
	}
	out("smaps Locked %ld kB, VMAs with lo %d", locked, lo);
}

/* Pages of the range whose /proc/kpageflags say mlocked and unevictable
 * (after end() read them). */
static void mlock_print_kpf(size_t npages)
{
	size_t mlocked = 0, unevictable = 0;

	if (kpageflags_fd < 0)
		return;
	for (size_t i = 0; i < npages; i++) {
		mlocked += !!(kpf[i] & (1ull << 33));	  /* KPF_MLOCKED */
		unevictable += !!(kpf[i] & (1ull << 18)); /* KPF_UNEVICTABLE */
	}
	out("kpageflags mlocked %zu unevictable %zu", mlocked, unevictable);
}

static void mlock_end(char *p, size_t len)
{
	mlock_print((unsigned long)p, (unsigned long)p + len);
	end((unsigned long)p, len);
	mlock_print_kpf(len / PAGE);
}

/* mlock of a written range, munlock of its middle half, munmap of the rest. */
static void step_mlock(unsigned int kib)
{
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	write_pages(p, RANGE);
	snprintf(name, sizeof(name), "mlock-%uK", kib);
	mlock_begin(name);
	check(!mlock(p, RANGE), "mlock ok");
	mlock_end(p, RANGE);
	snprintf(name, sizeof(name), "munlock-%uK", kib);
	mlock_begin(name);
	check(!munlock(p + RANGE / 4, RANGE / 2), "munlock ok");
	mlock_end(p, RANGE);
	snprintf(name, sizeof(name), "munmap-locked-%uK", kib);
	mlock_begin(name);
	munmap(p, RANGE);
	mlock_print((unsigned long)p, (unsigned long)p + RANGE);
}

/* mlock of an untouched range faults it in; mlock2(MLOCK_ONFAULT) of
 * another locks only what is written later. */
static void step_mlock_populate(unsigned int kib)
{
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	snprintf(name, sizeof(name), "mlock-populates-%uK", kib);
	mlock_begin(name);
	check(!mlock(p, RANGE), "mlock ok");
	mlock_end(p, RANGE);
	munmap(p, RANGE);
	p = map_range(RANGE);
	snprintf(name, sizeof(name), "mlock2-onfault-%uK", kib);
	mlock_begin(name);
	check(!syscall(SYS_mlock2, p, RANGE, MLOCK_ONFAULT), "mlock2 ok");
	write_pages(p, RANGE / 4);
	mlock_end(p, RANGE);
	munmap(p, RANGE);
}

/* mlockall(MCL_CURRENT | MCL_FUTURE): a later mmap is locked and faulted
 * in; munlockall gives back every lock (Mlocked as before mlockall). Only
 * the new range is shown: mlockall locks the whole program, whose stack
 * VMA is not the same size on both kernels. */
static void step_mlockall(void)
{
	struct mlock_snap start, now;
	char *p;

	set_size(4);
	mlock_snap(&start);
	check(!syscall(SYS_mlockall, MCL_CURRENT | MCL_FUTURE), "mlockall ok");
	p = map_range(RANGE);
	begin("mlockall-then-mmap");
	print_smaps((unsigned long)p, (unsigned long)p + RANGE);
	end((unsigned long)p, RANGE);
	mlock_print_kpf(RANGE / PAGE);
	begin("munlockall");
	check(!syscall(SYS_munlockall), "munlockall ok");
	mlock_snap(&now);
	check(now.mlocked_kb == start.mlocked_kb, "Mlocked as before mlockall");
	check(now.unevictable_kb == start.unevictable_kb, "Unevictable as before mlockall");
	munmap(p, RANGE);
}

static void mlock_errno(const char *what, long ret)
{
	out("%s %s", what, ret == 0 ? "0" : strerror(errno));
}

/* Linux's errors for bad flags, holes and locked ranges. */
static void step_mlock_errors(void)
{
	char *p = map_range(RANGE);

	begin("mlock-errors");
	mlock_errno("mlock2 flags 2", syscall(SYS_mlock2, p, PAGE, 2));
	mlock_errno("mlockall 0", syscall(SYS_mlockall, 0));
	mlock_errno("mlockall MCL_ONFAULT", syscall(SYS_mlockall, MCL_ONFAULT));
	mlock_errno("mlockall 8", syscall(SYS_mlockall, 8));
	mlock_errno("mlock len 0", syscall(SYS_mlock, p, 0));
	mlock_errno("mlock past the end", syscall(SYS_mlock, p + RANGE - PAGE, 2 * PAGE));
	mlock_errno("mlock before the start", syscall(SYS_mlock, p - PAGE, 2 * PAGE));
	mlock_errno("munlock past the end", syscall(SYS_munlock, p + RANGE - PAGE, 2 * PAGE));
	mlock_errno("mlock unaligned", syscall(SYS_mlock, p + 100, PAGE));
	mlock_errno("madvise free locked", madvise(p, PAGE, MADV_FREE));
	mlock_errno("madvise dontneed locked", madvise(p, PAGE, MADV_DONTNEED));
	mlock_errno("munlock", syscall(SYS_munlock, p, RANGE));
	mlock_errno("mprotect none", mprotect(p, PAGE, PROT_NONE));
	mlock_errno("mlock prot none", syscall(SYS_mlock, p, PAGE));
	mlock_errno("munlock prot none", syscall(SYS_munlock, p, PAGE));
	end((unsigned long)p, RANGE);
	munmap(p, RANGE);
}

/* /proc/self/status's VmLck follows mlock; capset dropping CAP_IPC_LOCK
 * from the effective set puts mlock under RLIMIT_MEMLOCK (as Linux's
 * mlock-random-test does with libcap), raising it again lifts that. The
 * capability words are printed as the bits they hold for CAP_IPC_LOCK
 * (14): CAP_LAST_CAP may differ between kernels. */
#define CAP_VERSION_3 0x20080522
#define CAP_IPC_LOCK_BIT (1u << 14)
struct cap_header {
	uint32_t version;
	int pid;
};
struct cap_data {
	uint32_t effective, permitted, inheritable;
};

static int vma_has_flag(unsigned long start, const char *flag);

static long status_field(const char *name)
{
	const char *text = read_file("/proc/self/status");

	return text ? field(text, name) : -1;
}

static int cap_eff_ipc_lock(void)
{
	const char *text = read_file("/proc/self/status"),
		   *p = text ? strstr(text, "CapEff:\t") : NULL;

	return p ? !!(strtoull(p + 8, NULL, 16) & CAP_IPC_LOCK_BIT) : -1;
}

static void step_status_and_caps(void)
{
	struct cap_header h = { CAP_VERSION_3, 0 };
	struct cap_data d[2], saved[2];
	struct rlimit old, lim = { 4 * PAGE, 4 * PAGE };
	char *p = map_range(RANGE);
	long vmlck = status_field("VmLck:");

	begin("status-vmlck");
	check(vmlck >= 0, "status has VmLck");
	mlock_errno("mlock 3 pages", syscall(SYS_mlock, p, 3 * PAGE));
	out("VmLck %+ld kB", status_field("VmLck:") - vmlck);
	mlock_errno("munlock", syscall(SYS_munlock, p, 3 * PAGE));
	out("VmLck %+ld kB", status_field("VmLck:") - vmlck);
	begin("capset-ipc-lock");
	h.version = 0;
	mlock_errno("capget probe", syscall(SYS_capget, &h, NULL));
	out("capget version %#x", h.version);
	mlock_errno("capget", syscall(SYS_capget, &h, saved));
	out("CapEff ipc_lock %d, capget ipc_lock %d", cap_eff_ipc_lock(),
	    !!(saved[0].effective & CAP_IPC_LOCK_BIT));
	memcpy(d, saved, sizeof(d));
	d[0].effective &= ~CAP_IPC_LOCK_BIT;
	mlock_errno("capset drop", syscall(SYS_capset, &h, d));
	out("CapEff ipc_lock %d", cap_eff_ipc_lock());
	getrlimit(RLIMIT_MEMLOCK, &old);
	check(!setrlimit(RLIMIT_MEMLOCK, &lim), "setrlimit ok");
	mlock_errno("mlock within the limit", syscall(SYS_mlock, p, 2 * PAGE));
	mlock_errno("mlock past the limit", syscall(SYS_mlock, p, 8 * PAGE));
	mlock_errno("munlock", syscall(SYS_munlock, p, 2 * PAGE));
	d[0].effective |= CAP_IPC_LOCK_BIT;
	d[0].permitted &= ~CAP_IPC_LOCK_BIT;
	mlock_errno("capset effective beyond permitted", syscall(SYS_capset, &h, d));
	mlock_errno("capset restore", syscall(SYS_capset, &h, saved));
	out("CapEff ipc_lock %d", cap_eff_ipc_lock());
	mlock_errno("mlock past the limit with CAP_IPC_LOCK", syscall(SYS_mlock, p, 8 * PAGE));
	mlock_errno("munlock", syscall(SYS_munlock, p, 8 * PAGE));
	check(!setrlimit(RLIMIT_MEMLOCK, &old), "setrlimit restores");
	munmap(p, RANGE);
}

#ifndef MAP_DROPPABLE
#define MAP_DROPPABLE 0x08
#endif
/* MAP_DROPPABLE (Linux 6.11): never locked by mlock or mlockall's
 * MCL_FUTURE, though mlock faults it in; Linux's refusals. */
static void step_droppable(void)
{
	const int anon = MAP_ANONYMOUS | MAP_DROPPABLE;
	long vmlck = status_field("VmLck:");
	char *p, *q;

	begin("droppable");
	p = mmap(NULL, RANGE, PROT_READ | PROT_WRITE, anon, -1, 0);
	check(p != MAP_FAILED, "mmap MAP_DROPPABLE ok");
	if (p == MAP_FAILED)
		return;
	out("VmFlags dp %d lo %d", vma_has_flag((unsigned long)p, " dp"),
	    vma_has_flag((unsigned long)p, " lo"));
	mlock_errno("mlock2", syscall(SYS_mlock2, p, 4 * PAGE, 0));
	out("VmFlags lo %d, VmLck %+ld kB", vma_has_flag((unsigned long)p, " lo"),
	    status_field("VmLck:") - vmlck);
	end((unsigned long)p, RANGE);
	begin("droppable-mlockall");
	check(!syscall(SYS_mlockall, MCL_CURRENT | MCL_FUTURE), "mlockall ok");
	q = mmap(NULL, RANGE, PROT_READ | PROT_WRITE, anon, -1, 0);
	check(q != MAP_FAILED, "mmap MAP_DROPPABLE ok");
	out("VmFlags lo %d", vma_has_flag((unsigned long)q, " lo"));
	check(!syscall(SYS_munlockall), "munlockall ok");
	begin("droppable-errors");
	q = mmap(NULL, PAGE, PROT_READ, anon | MAP_LOCKED, -1, 0);
	mlock_errno("mmap MAP_DROPPABLE|MAP_LOCKED", q == MAP_FAILED ? -1 : 0);
	q = mmap(NULL, PAGE, PROT_READ, anon | MAP_HUGETLB, -1, 0);
	mlock_errno("mmap MAP_DROPPABLE|MAP_HUGETLB", q == MAP_FAILED ? -1 : 0);
	munmap(p, RANGE);
}

/* --- madvise advice ----------------------------------------------------------------------- */
/* POPULATE, HUGEPAGE/NOHUGEPAGE, COLLAPSE, COLD, PAGEOUT, GUARD_INSTALL/
 * REMOVE and process_madvise: each step prints what the advice returned
 * (0 or the errno's name) and what the range looks like after it. */
#ifndef MADV_COLD
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#endif
#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
#endif
#define NR_PIDFD_OPEN 434
#define NR_PROCESS_MADVISE 440

static const char *errno_name(int e)
{
	switch (e) {
	case 0:
		return "0";
	case EINVAL:
		return "EINVAL";
	case ENOMEM:
		return "ENOMEM";
	case EFAULT:
		return "EFAULT";
	case EAGAIN:
		return "EAGAIN";
	case EBADF:
		return "EBADF";
	case EBUSY:
		return "EBUSY";
	default:
		return strerror(e);
	}
}

/* madvise, printed as "madvise WHAT = 0|ENAME". */
static int advise(const char *what, void *p, size_t len, int advice)
{
	int ret = madvise(p, len, advice);

	out("madvise %s = %s", what, errno_name(ret ? errno : 0));
	return ret;
}

/* Per VMA inside [start, end): its offset and size, THPeligible, and
 * the hg/nh VmFlags. */
static void print_vma_thp(unsigned long start, unsigned long end)
{
	const char *text = read_file("/proc/self/smaps");
	unsigned long s = 0, e = 0;
	int in = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long a, b;

		if (sscanf(p, "%lx-%lx ", &a, &b) == 2 && strchr(p, '-') < strchr(p, ' ')) {
			in = a >= start && b <= end;
			s = a, e = b;
		} else if (in && !strncmp(p, "THPeligible:", 12)) {
			out("vma +%luK %luK THPeligible %ld", (s - start) >> 10, (e - s) >> 10,
			    strtol(p + 12, NULL, 10));
		} else if (in && !strncmp(p, "VmFlags:", 8)) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);
			char line[256];

			snprintf(line, sizeof(line), "%.*s", (int)n, p);
			out("vma +%luK flags%s%s", (s - start) >> 10,
			    strstr(line, " hg") ? " hg" : "", strstr(line, " nh") ? " nh" : "");
		}
	}
}

/* The smaps Referenced kB of the VMAs inside [start, end). */
static long referenced_kb(unsigned long start, unsigned long end)
{
	const char *text = read_file("/proc/self/smaps");
	long sum = 0;
	int in = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long a, b;

		if (sscanf(p, "%lx-%lx ", &a, &b) == 2 && strchr(p, '-') < strchr(p, ' '))
			in = a >= start && b <= end;
		else if (in && !strncmp(p, "Referenced:", 11))
			sum += strtol(p + 11, NULL, 10);
	}
	return sum;
}

/* populate-NK: POPULATE_READ maps the zero page (or huge zero folio),
 * POPULATE_WRITE memory of its own; then Linux's errors. */
static void step_populate(unsigned int kib)
{
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	snprintf(name, sizeof(name), "populate-read-%uK", kib);
	begin(name);
	advise("POPULATE_READ", p, RANGE, MADV_POPULATE_READ);
	end((unsigned long)p, RANGE);
	snprintf(name, sizeof(name), "populate-write-%uK", kib);
	begin(name);
	advise("POPULATE_WRITE", p, RANGE, MADV_POPULATE_WRITE);
	check(read_pages(p, RANGE) == 0, "reads zero");
	end_range(p);
}

static void step_populate_errors(void)
{
	char *p;

	set_size(4);
	p = map_range(RANGE);
	begin("populate-errors");
	munmap(p + RANGE / 2, PAGE);
	advise("POPULATE_READ over a hole", p, RANGE, MADV_POPULATE_READ);
	advise("POPULATE_WRITE unaligned", p + 1, PAGE, MADV_POPULATE_WRITE);
	mprotect(p, PAGE, PROT_READ);
	advise("POPULATE_WRITE read-only", p, PAGE, MADV_POPULATE_WRITE);
	advise("POPULATE_READ read-only", p, PAGE, MADV_POPULATE_READ);
	mprotect(p, PAGE, PROT_NONE);
	advise("POPULATE_READ PROT_NONE", p, PAGE, MADV_POPULATE_READ);
	mprotect(p, PAGE, PROT_WRITE); /* VM_WRITE without VM_READ */
	advise("POPULATE_READ PROT_WRITE", p, PAGE, MADV_POPULATE_READ);
	advise("POPULATE_WRITE PROT_WRITE", p, PAGE, MADV_POPULATE_WRITE);
	check(*(volatile char *)p == 0, "PROT_WRITE page reads");
	end((unsigned long)p, RANGE);
	munmap(p, RANGE);
}

/* hugepage: 2M folios in "madvise" mode, 4 MiB mapped: MADV_HUGEPAGE on
 * the first 2 MiB splits the VMA and lets its fault have a 2M folio;
 * MADV_NOHUGEPAGE on the second keeps it at 4K; then both flags back. */
static void step_hugepage(void)
{
	char path[160];
	char *p;

	set_size(4);
	snprintf(path, sizeof(path), "%s/hugepages-2048kB/enabled", thp);
	set_ctl(path, "madvise");
	p = map_range(2 * RANGE);
	begin("hugepage");
	print_vma_thp((unsigned long)p, (unsigned long)p + 2 * RANGE);
	advise("HUGEPAGE", p, RANGE, MADV_HUGEPAGE);
	advise("NOHUGEPAGE", p + RANGE, RANGE, MADV_NOHUGEPAGE);
	write_pages(p, 2 * RANGE);
	print_vma_thp((unsigned long)p, (unsigned long)p + 2 * RANGE);
	advise("NOHUGEPAGE over both", p, 2 * RANGE, MADV_NOHUGEPAGE);
	print_vma_thp((unsigned long)p, (unsigned long)p + 2 * RANGE);
	end((unsigned long)p, 2 * RANGE);
	munmap(p, 2 * RANGE);
}

/* collapse-NK: N KiB folios written, 16 pages dropped (MADV_DONTNEED)
 * and 16 only read (zero page), then MADV_COLLAPSE: one 2M folio with
 * the bytes kept and zeroes where nothing was. */
static void step_collapse(unsigned int kib)
{
	char *p = written_range("collapse", kib);
	long sum;

	madvise(p + 64 * PAGE, 16 * PAGE, MADV_DONTNEED);
	madvise(p + 128 * PAGE, 16 * PAGE, MADV_DONTNEED);
	read_pages(p + 128 * PAGE, 16 * PAGE);
	sum = read_pages(p, RANGE);
	set_size(4); /* the collapse does not need the sysfs modes */
	advise("COLLAPSE", p, RANGE, MADV_COLLAPSE);
	check(read_pages(p, RANGE) == sum && sum == 512 - 32, "bytes kept, zeroes where none");
	advise("COLLAPSE again", p, RANGE, MADV_COLLAPSE);
	end_range(p);
}

static void step_collapse_errors(void)
{
	char *p;

	set_size(4);
	p = map_range(2 * RANGE);
	begin("collapse-errors");
	advise("COLLAPSE untouched", p, RANGE, MADV_COLLAPSE);
	read_pages(p, RANGE);
	advise("COLLAPSE zero pages only", p, RANGE, MADV_COLLAPSE);
	advise("COLLAPSE inside one PMD", p + PAGE, 4 * PAGE, MADV_COLLAPSE);
	advise("COLLAPSE no whole PMD in range", p, PAGE, MADV_COLLAPSE);
	write_pages(p + RANGE, RANGE);
	advise("NOHUGEPAGE", p + RANGE, RANGE, MADV_NOHUGEPAGE);
	advise("COLLAPSE under NOHUGEPAGE", p + RANGE, RANGE, MADV_COLLAPSE);
	munmap(p + RANGE + RANGE / 2, RANGE / 2);
	advise("COLLAPSE VMA without a whole PMD", p + RANGE, RANGE / 2, MADV_COLLAPSE);
	mprotect(p, RANGE, PROT_READ);
	advise("COLLAPSE read-only", p, RANGE, MADV_COLLAPSE);
	end((unsigned long)p, RANGE);
	munmap(p, 2 * RANGE);
}

/* cold-NK: MADV_COLD ages every page (Referenced 0), keeps it mapped. */
static void step_cold(unsigned int kib)
{
	char *p = written_range("cold", kib);

	check(referenced_kb((unsigned long)p, (unsigned long)p + RANGE) > 0, "referenced before");
	advise("COLD", p, RANGE, MADV_COLD);
	out("Referenced %ld kB", referenced_kb((unsigned long)p, (unsigned long)p + RANGE));
	advise("COLD half a folio", p + RANGE - 2 * PAGE, PAGE, MADV_COLD);
	end_range(p);
}

/* pageout-NK: without swap MADV_PAGEOUT frees nothing written; after
 * MADV_FREE it frees the clean lazyfree pages, keeping rewritten ones. */
static void step_pageout(unsigned int kib)
{
	char name[48];
	char *p = written_range("pageout", kib);

	advise("PAGEOUT", p, RANGE, MADV_PAGEOUT);
	check(read_pages(p, RANGE) == 512, "every byte kept");
	end((unsigned long)p, RANGE);
	snprintf(name, sizeof(name), "pageout-lazyfree-%uK", kib);
	begin(name);
	advise("FREE", p, RANGE, MADV_FREE);
	p[0] = 2;
	advise("PAGEOUT", p, RANGE, MADV_PAGEOUT);
	check(read_pages(p, RANGE) == 2, "rewritten page kept, the rest reads zero");
	end_range(p);
}

static sigjmp_buf guard_jmp;
static volatile int guard_code;

static void on_guard_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig, (void)uc;
	guard_code = si->si_code;
	siglongjmp(guard_jmp, 1);
}

/* What touching p does: "ok", or the signal's si_code name. */
static const char *touch(char *p, int write)
{
	struct sigaction sa = { .sa_sigaction = on_guard_segv, .sa_flags = SA_SIGINFO }, old;
	const char *volatile what = "ok";

	sigaction(SIGSEGV, &sa, &old);
	if (!sigsetjmp(guard_jmp, 1)) {
		if (write)
			*(volatile char *)p = 3;
		else
			(void)*(volatile char *)p;
	} else {
		what = guard_code == SEGV_MAPERR   ? "SIGSEGV SEGV_MAPERR"
		       : guard_code == SEGV_ACCERR ? "SIGSEGV SEGV_ACCERR"
						   : "SIGSEGV other";
	}
	sigaction(SIGSEGV, &old, NULL);
	return what;
}

/* guard: markers over written and unwritten pages; accesses fault with
 * SIGSEGV; DONTNEED, FREE and mprotect keep them, POPULATE fails on
 * them, mremap moves them, GUARD_REMOVE and munmap remove them. */
static void step_guard(void)
{
	char *p, *q;

	set_size(4);
	p = map_range(RANGE);
	write_pages(p, 8 * PAGE);
	begin("guard");
	advise("GUARD_INSTALL", p + 4 * PAGE, 8 * PAGE, MADV_GUARD_INSTALL);
	out("read %s, write %s, next page %s", touch(p + 4 * PAGE, 0), touch(p + 11 * PAGE, 1),
	    touch(p + 12 * PAGE, 1));
	if (!read_page_info((unsigned long)p + 4 * PAGE, 1))
		out("pagemap entry of a guard page %#llx", (unsigned long long)pme[0]);
	advise("DONTNEED", p, 16 * PAGE, MADV_DONTNEED);
	advise("FREE", p, 16 * PAGE, MADV_FREE);
	mprotect(p, 16 * PAGE, PROT_READ);
	mprotect(p, 16 * PAGE, PROT_READ | PROT_WRITE);
	advise("POPULATE_READ", p, 16 * PAGE, MADV_POPULATE_READ);
	advise("COLLAPSE", p, RANGE, MADV_COLLAPSE);
	out("after DONTNEED, FREE, mprotect: read %s", touch(p + 5 * PAGE, 0));
	end((unsigned long)p, 16 * PAGE);
	q = mremap(p, RANGE, RANGE, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)(p + SLOT / 2));
	begin("guard-mremap");
	check(q == p + SLOT / 2, "moved");
	out("moved: read %s", touch(q + 5 * PAGE, 0));
	end((unsigned long)q, 16 * PAGE);
	begin("guard-remove");
	advise("GUARD_REMOVE", q, RANGE, MADV_GUARD_REMOVE);
	out("read %s, reads %ld", touch(q + 5 * PAGE, 0), read_pages(q + 4 * PAGE, 8 * PAGE));
	end((unsigned long)q, 16 * PAGE);
	advise("GUARD_INSTALL", q, 4 * PAGE, MADV_GUARD_INSTALL);
	munmap(q, RANGE);
	p = mmap(q, RANGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	begin("guard-munmap");
	out("after munmap and mmap: read %s", touch(p, 0));
	end_range(p);
}

/* process_madvise on our own pidfd: bytes advised, and Linux's errors. */
static void step_process_madvise(void)
{
	struct iovec iov[2];
	long pidfd, ret;
	char *p;

	set_size(4);
	p = written_range("process-madvise", 4);
	pidfd = syscall(NR_PIDFD_OPEN, getpid(), 0);
	out("pidfd_open %s", pidfd >= 0 ? "ok" : errno_name(errno));
	out("pidfd_open flags 1 %s",
	    syscall(NR_PIDFD_OPEN, getpid(), 1) < 0 ? errno_name(errno) : "ok");
	iov[0] = (struct iovec){ p, 16 * PAGE };
	iov[1] = (struct iovec){ p + 64 * PAGE, 8 * PAGE + 1 };
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 2, MADV_COLD, 0);
	out("COLD = %ld", ret < 0 ? -(long)errno : ret);
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 2, MADV_DONTNEED, 0);
	out("DONTNEED = %ld", ret < 0 ? -(long)errno : ret);
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 2, MADV_COLD, 1);
	out("flags 1 = %s", ret < 0 ? errno_name(errno) : "ok");
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 1025, MADV_COLD, 0);
	out("vlen 1025 = %s", ret < 0 ? errno_name(errno) : "ok");
	ret = syscall(NR_PROCESS_MADVISE, pidfd, (void *)8, 1, MADV_COLD, 0);
	out("iovec at 8 = %s", ret < 0 ? errno_name(errno) : "ok");
	ret = syscall(NR_PROCESS_MADVISE, 0, iov, 1, MADV_COLD, 0);
	out("fd 0 = %s", ret < 0 ? errno_name(errno) : "ok");
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 1, 999, 0);
	out("advice 999 = %s", ret < 0 ? errno_name(errno) : "ok");
	iov[1].iov_base = p + 1;
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 2, MADV_COLD, 0);
	out("second unaligned = %ld", ret < 0 ? -(long)errno : ret);
	ret = syscall(NR_PROCESS_MADVISE, pidfd, iov, 0, MADV_COLD, 0);
	out("vlen 0 = %ld", ret < 0 ? -(long)errno : ret);
	close((int)pidfd);
	end_range(p);
}
/* --- end of madvise advice ---------------------------------------------------------------- */

/* --- soft-dirty: /proc/self/clear_refs and pagemap bit 55 ---------------- */

/* Write s to /proc/self/clear_refs. Return: write's value or -errno. */
static int clear_refs_write(const char *s)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0)
		n = -errno;
	close(fd);
	return (int)n;
}

/* Does smaps' VmFlags line of the VMA starting at start say "sd"?
 * Return: 1, 0, or -1 when there is no such VMA. */
/* Whether the VMA starting at start has the two-letter smaps VmFlag flag
 * (" sd", " lo", " dp"); -1 if there is no such VMA. */
static int vma_has_flag(unsigned long start, const char *flag)
{
	const char *text = read_file("/proc/self/smaps");
	int in = 0;

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned long s, e;

		if (sscanf(p, "%lx-%lx ", &s, &e) == 2 && strchr(p, '-') < strchr(p, ' '))
			in = s == start;
		else if (in && !strncmp(p, "VmFlags:", 8)) {
			const char *f = strstr(p, flag);

			return f && f < strchr(p, '\n');
		}
	}
	return -1;
}

static int vma_soft_dirty(unsigned long start)
{
	return vma_has_flag(start, " sd");
}

/* Bits 63 and 55 of each page, run-length encoded: "ps" present and
 * soft-dirty, "p" present, "s" soft-dirty only (its VMA's flag), "."
 * neither; then the VMA's VmFlags sd. */
static void print_soft_dirty_bits(const char *when, const char *start, size_t npages)
{
	struct rle r = { 0 };

	if (read_page_info((unsigned long)start, npages))
		die("pagemap unreadable");
	for (size_t i = 0; i < npages; i++) {
		char tok[3];
		size_t n = 0;

		if (pme[i] & PM_PRESENT)
			tok[n++] = 'p';
		if (pme[i] & PM_SOFT_DIRTY)
			tok[n++] = 's';
		if (!n)
			tok[n++] = '.';
		tok[n] = '\0';
		rle_add(&r, tok);
	}
	rle_flush(&r);
	out("softdirty %s %s vma-sd %d", when, r.buf, vma_soft_dirty((unsigned long)start));
}

/* softdirty-NK: the range written but its last 64 KiB, so N KiB folios
 * and untouched pages; clear_refs 4; then a write into a folio (one
 * entry soft-dirty again: the folio reused, its frame kept; a PMD leaf
 * whole), a write into the untouched part (a new folio, soft-dirty) and
 * a read of its last page (the zero page, not soft-dirty). */
static void step_soft_dirty(unsigned int kib)
{
	const size_t fsz = 64 << 10, npages = RANGE / PAGE;
	uint64_t frame;
	char name[48];
	char *p;

	set_size(kib);
	p = map_range(RANGE);
	write_pages(p, RANGE - fsz);
	snprintf(name, sizeof(name), "softdirty-%uK", kib);
	begin(name);
	print_soft_dirty_bits("new", p, npages);
	check(clear_refs_write("4") == 1, "clear_refs 4");
	print_soft_dirty_bits("cleared", p, npages);
	frame = PM_PFN(pme[3]);
	((volatile char *)p)[3 * PAGE] = 2;
	((volatile char *)p)[RANGE - 8 * PAGE] = 2;
	(void)((volatile char *)p)[RANGE - PAGE];
	print_soft_dirty_bits("written", p, npages);
	check(PM_PFN(pme[3]) == frame, "written page keeps its frame");
	munmap(p, RANGE);
}

/* mremap after clear_refs 4 to a PMD-aligned address (shift 0: Linux
 * moves whole tables, or a PMD leaf) or one 64 KiB further (entries moved
 * one by one); the new VMA has the old one's flags. */
static void step_soft_dirty_mremap(unsigned int kib, size_t shift)
{
	const size_t fsz = 64 << 10;
	char name[48];
	char *p, *to, *q;

	set_size(kib);
	p = map_range(RANGE);
	to = (char *)(BASE + next_slot++ * SLOT + shift);
	write_pages(p, RANGE - fsz);
	snprintf(name, sizeof(name), "softdirty-mremap%s-%uK", shift ? "-shifted" : "", kib);
	begin(name);
	check(clear_refs_write("4") == 1, "clear_refs 4");
	q = mremap(p, RANGE, RANGE, MREMAP_MAYMOVE | MREMAP_FIXED, to);
	check(q == to, "moved");
	print_soft_dirty_bits("moved", to, RANGE / PAGE);
	munmap(to, RANGE);
}

/* mprotect read-only and back after clear_refs 4 keeps the bits: the
 * pages stay clean until written, the VMAs merge back. */
static void step_soft_dirty_mprotect(void)
{
	const size_t fsz = 64 << 10;
	char *p;

	set_size(64);
	p = map_range(RANGE);
	write_pages(p, RANGE);
	begin("softdirty-mprotect-64K");
	check(clear_refs_write("4") == 1, "clear_refs 4");
	((volatile char *)p)[0] = 2;
	check(!mprotect(p + fsz, fsz, PROT_READ), "mprotect ok");
	check(!mprotect(p + fsz, fsz, PROT_READ | PROT_WRITE), "mprotect back ok");
	((volatile char *)p)[fsz + PAGE] = 2;
	print_soft_dirty_bits("mprotected", p, RANGE / PAGE);
	print_smaps((unsigned long)p, (unsigned long)p + RANGE);
	munmap(p, RANGE);
}

/* What a write of each value returns (bytes, or -errno), and a read. */
static void step_clear_refs_values(void)
{
	static const char *const values[] = {
		"0", "6", "-1", "4x", "0x4", "", "1", "2\n", "3", "5", " 4 ", "4                   "
	};
	char buf[8];
	int fd;

	begin("clear-refs-values");
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++)
		out("clear_refs value %zu (%zu bytes) %d", i, strlen(values[i]),
		    clear_refs_write(values[i]));
	fd = open("/proc/self/clear_refs", O_RDONLY);
	out("clear_refs read %ld", fd < 0 ? -errno : read(fd, buf, sizeof(buf)) < 0 ? -errno : 0L);
	if (fd >= 0)
		close(fd);
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

static const char *ok_or_errno(int ok, int err)
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
		"overcommit_memory",
		"overcommit_ratio",
		"overcommit_kbytes",
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
	out("compact_memory read: %s", ok_or_errno(fd >= 0, errno));
	if (fd >= 0)
		close(fd);
	fd = open("/proc/sys/vm/drop_caches", O_RDONLY);
	out("drop_caches read: %s", ok_or_errno(fd >= 0, errno));
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
	out("max_map_count 0: mmap %s, split %s", ok_or_errno(map_ok, map_err),
	    ok_or_errno(split_ok, split_err));
	if (map_ok)
		munmap(q, PAGE);
	out("max_map_count %s again: split %s", saved, ok_or_errno(!munmap(p + PAGE, PAGE), errno));
	munmap(p, 3 * PAGE);
}

/* --- overcommit (Linux: __vm_enough_memory in mode 0, the default) ------ */

/* A /proc/meminfo field in kB; -1 if missing. */
static long meminfo_kb(const char *name)
{
	const char *text = read_file("/proc/meminfo");

	return text ? field(text, name) : -1;
}

/* One request above all RAM is refused: brk gives the old break back,
 * mmap fails with ENOMEM; MAP_NORESERVE is not charged, so it maps. */
static void step_overcommit_refusals(void)
{
	long brk0 = syscall(SYS_brk, 0), brk1 = syscall(SYS_brk, brk0 + (64l << 30));
	void *p = mmap(NULL, 1ul << 40, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int err = p == MAP_FAILED ? errno : 0;
	void *q = mmap(NULL, 1ul << 40, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	begin("overcommit");
	check(brk1 == brk0, "brk +64G gives the old break");
	out("mmap 1T: %s", p == MAP_FAILED ? strerror(err) : "mapped");
	out("mmap 1T MAP_NORESERVE: %s", q == MAP_FAILED ? strerror(errno) : "mapped");
	if (p != MAP_FAILED)
		munmap(p, 1ul << 40);
	if (q != MAP_FAILED)
		munmap(q, 1ul << 40);
}

/* Committed_AS follows private writable mappings: mmap charges, mprotect
 * to writable charges once and back to read-only uncharges only a mapping
 * that never held a page (Linux: no anon_vma yet), munmap uncharges its
 * part; read-only and MAP_NORESERVE mappings are free. CommitLimit is half
 * of MemTotal (overcommit_ratio 50, no swap, no hugetlb), to a page. */
static void step_overcommit_committed_as(void)
{
	long c[8], limit = meminfo_kb("CommitLimit:"), total = meminfo_kb("MemTotal:");
	char *rw, *ro, *nr;

	c[0] = meminfo_kb("Committed_AS:");
	rw = mmap(NULL, 10 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	c[1] = meminfo_kb("Committed_AS:");
	ro = mmap(NULL, 1 << 20, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	nr = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	c[2] = meminfo_kb("Committed_AS:");
	mprotect(ro, 1 << 20, PROT_READ | PROT_WRITE);
	c[3] = meminfo_kb("Committed_AS:");
	mprotect(ro, 1 << 20, PROT_READ);
	c[4] = meminfo_kb("Committed_AS:");
	mprotect(ro, 1 << 20, PROT_READ | PROT_WRITE);
	ro[0] = 1;
	mprotect(ro, 1 << 20, PROT_READ);
	c[5] = meminfo_kb("Committed_AS:");
	munmap(rw, 4 << 20);
	c[6] = meminfo_kb("Committed_AS:");
	munmap(rw + (4 << 20), 6 << 20);
	munmap(ro, 1 << 20);
	munmap(nr, 1 << 20);
	c[7] = meminfo_kb("Committed_AS:");
	begin("overcommit-committed");
	out("mmap 10M rw: Committed_AS %+ld kB", c[1] - c[0]);
	out("mmap 1M ro and 1M rw MAP_NORESERVE: Committed_AS %+ld kB", c[2] - c[1]);
	out("mprotect 1M ro to rw: Committed_AS %+ld kB", c[3] - c[2]);
	out("mprotect it back to ro, never written: Committed_AS %+ld kB", c[4] - c[3]);
	out("mprotect it rw, write a byte, back to ro: Committed_AS %+ld kB", c[5] - c[4]);
	out("munmap 4M of 10M: Committed_AS %+ld kB", c[6] - c[5]);
	out("munmap the rest: Committed_AS %+ld kB", c[7] - c[6]);
	check(limit >= 0 && total >= 0 && labs(limit - total / 2) <= 4,
	      "CommitLimit is half of MemTotal");
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

/* --- file steps: shmem's own tmpfs (huge=never on both kernels) ------------------- */

/* A shared or private mapping of fd at the next slot. */
static char *map_fd(size_t len, int flags, int fd)
{
	unsigned long addr = BASE + next_slot++ * SLOT;
	void *p =
		mmap((void *)addr, len, PROT_READ | PROT_WRITE, flags | MAP_FIXED_NOREPLACE, fd, 0);

	if (p != (void *)addr)
		die("mmap at %#lx: %s", addr, strerror(errno));
	return p;
}

/* A memfd of len bytes written with write(2) (its pages in the cache). */
static int filled_memfd(size_t len)
{
	int fd = (int)syscall(SYS_memfd_create, "mmdiff", 0x10u /* MFD_EXEC */);
	static char chunk[1 << 16];

	memset(chunk, 7, sizeof(chunk));
	for (size_t off = 0; fd >= 0 && off < len; off += sizeof(chunk))
		if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
			die("memfd write: %s", strerror(errno));
	if (fd < 0)
		die("memfd_create: %s", strerror(errno));
	return fd;
}

/* shared-anon: MAP_SHARED|MAP_ANONYMOUS, every page written. */
static void step_shared_anon(void)
{
	char *p;

	set_size(4);
	p = map_fd(RANGE, MAP_SHARED | MAP_ANONYMOUS, -1);
	begin("shared-anon");
	write_pages(p, RANGE);
	end_range(p);
}

/* memfd-shared: a shared mapping of a written memfd, read (fault-around
 * maps what the cache holds), then a write, then truncated to half: the
 * cut half is unmapped. */
static void step_memfd_shared(void)
{
	int fd = filled_memfd(RANGE);
	char *p = map_fd(RANGE, MAP_SHARED, fd);

	begin("memfd-shared");
	check(read_pages(p, RANGE) == 7 * (long)(RANGE / PAGE), "the file's bytes read");
	((volatile char *)p)[PAGE] = 9;
	check(ftruncate(fd, RANGE / 2) == 0, "ftruncate to half");
	end_range(p);
	close(fd);
}

/* memfd-private: a private mapping of it, every page read, the second
 * half written: those pages become anonymous copies. */
static void step_memfd_private(void)
{
	int fd = filled_memfd(RANGE);
	char *p = map_fd(RANGE, MAP_PRIVATE, fd);
	char b = 0;

	begin("memfd-private");
	check(read_pages(p, RANGE) == 7 * (long)(RANGE / PAGE), "the file's bytes read");
	write_pages(p + RANGE / 2, RANGE / 2);
	check(pread(fd, &b, 1, RANGE / 2) == 1 && b == 7, "the file keeps its bytes");
	end_range(p);
	close(fd);
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
		step_mremap(script_sizes[i], 0);
		step_mremap(script_sizes[i], 64 << 10);
	}
	step_pressure();
	step_overcommit_refusals();
	step_overcommit_committed_as();
	step_vm_sysctls();
	step_hugetlb();
	/* madvise advice */
	step_populate(4);
	step_populate(2048);
	step_populate_errors();
	step_hugepage();
	step_collapse(4);
	step_collapse(64);
	step_collapse_errors();
	for (size_t i = 0; i < sizeof(script_sizes) / sizeof(script_sizes[0]); i++) {
		step_cold(script_sizes[i]);
		step_pageout(script_sizes[i]);
	}
	step_guard();
	step_process_madvise();
	/* mlock */
	quiet = 1; /* warm up the mlock observers' stack */
	step_mlock(4);
	quiet = 0;
	step_mlock(4);
	step_mlock(64);
	step_mlock(2048);
	step_mlock_populate(4);
	step_mlock_populate(64);
	step_mlockall();
	step_mlock_errors();
	step_status_and_caps();
	step_droppable();
	/* soft-dirty */
	step_soft_dirty(4);
	step_soft_dirty(64);
	step_soft_dirty(2048);
	step_soft_dirty_mremap(64, 0);
	step_soft_dirty_mremap(64, 64 << 10);
	step_soft_dirty_mremap(2048, 0);
	step_soft_dirty_mprotect();
	step_clear_refs_values();
	step_shared_anon();
	step_memfd_shared();
	step_memfd_private();
	restore();
	khugepaged_sleep(1);
	printf("mmdiff: done\n");
	return 0;
}
