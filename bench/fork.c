/*
 * The fork benchmark, shared by `bench fork` in the kernel and the host
 * program build/bench-fork: what Linux 6.9 to 6.15 batched for large
 * anonymous folios across fork, each path against the per-page path it
 * replaced, in one run. For each folio size (thp_orders_enabled = that
 * order only; 2048K once mapped by PMDs and once by PTEs, its PMDs split
 * after the fault) a parent's range is faulted in with writes, then:
 *   fork     dup_mmap of the parent into a new mm (copy_present_ptes);
 *   exit     mm_destroy of that child (zap_present_ptes over its range);
 *   reuse    after the child's exit, one byte written per folio in the
 *            parent: each write finds the folio its own (do_wp_page);
 *   reuse4k  after another fork and exit, one byte per page: a folio
 *            reused whole takes one fault (wp_folio_reuse), one reused
 *            page by page a fault per page;
 *   copy     after a third fork, the child alive, one byte per folio in
 *            the parent: each write copies one page (wp_page_copy); and
 *            in the batched runs, from a fresh range, the same with
 *            wp_copy_folio (the whole folio per write, Folium's), with
 *            the KiB each allocated;
 *   munmap   vm_munmap of the parent's whole range, freshly faulted
 *            (zap_present_ptes), timed before the forks;
 *   mprotect on another fresh range, mprotect(PROT_READ) and back to
 *            PROT_READ|PROT_WRITE (change_pte_range; the way back makes
 *            every entry writable again: can_change_pte_writable);
 *   mremap   then that range moved by its size plus 64K (MREMAP_FIXED),
 *            a distance that keeps every folio below 2M aligned but no
 *            PTE table, so the PTEs move (move_ptes; PMD leaves are split
 *            first); an aligned distance would move whole tables in both
 *            modes.
 * per-page runs with fork_copy_batched, zap_batched, wp_reuse_batched,
 * mprotect_batched and mremap_batched off (Linux before 6.9 for fork and
 * zap, 6.15's one-PTE reuse, before 6.17 for mprotect and mremap; x86
 * Linux 7.3 still moves mremap's PTEs one by one); batched with them on. The best of `runs` runs
 * per mode, interleaved in alternating order, each from a freshly faulted range. The record
 * fork_batching follows the table.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <mman.h>
#include <vm.h>

#define RW (VM_READ | VM_WRITE)
#define PTE_MAPPED_2M 10 /* bench_sizes[]: order 9 with its PMDs split */

static const unsigned int bench_sizes[] = { 0, 2, 3, 4, 5, 6, 7, 8, PTE_MAPPED_2M, 9 };

enum fork_phase {
	PH_FORK,
	PH_EXIT,
	PH_REUSE,
	PH_REUSE4K,
	PH_COPY,
	PH_MUNMAP,
	PH_MPROTECT,
	PH_MREMAP,
	NR_PHASES
};
static const char *const phase_names[NR_PHASES] = { "fork", "exit",   "reuse",	  "reuse4k",
						    "copy", "munmap", "mprotect", "mremap" };

/* One mode's run: each phase's time, and the evidence counters. */
struct fork_run {
	uint64_t time[NR_PHASES];
	unsigned long fork_batches, reuse4k_faults;
	unsigned long mprotect_batches, mremap_batches; /* their calls, as fork_batches */
	/* batched runs only: wp_copy_folio's copy, and both copies' KiB */
	uint64_t copy_folio_time;
	unsigned long copy_kib, copy_folio_kib;
};

struct fork_row {
	unsigned int size; /* an order, or PTE_MAPPED_2M */
	struct fork_run per_page, batched;
};
static struct fork_row rows[ARRAY_SIZE(bench_sizes)];
static unsigned int nr_rows;

static unsigned int size_order(unsigned int size)
{
	return size == PTE_MAPPED_2M ? HPAGE_PMD_ORDER : size;
}

static void set_batching(bool on)
{
	fork_copy_batched = on;
	zap_batched = on;
	wp_reuse_batched = on;
	mprotect_batched = on;
	mremap_batched = on;
}

/* Write one byte every step bytes of [addr, +bytes). Return: 0 or the
 * first copy_to_user error. */
static int touch(unsigned long addr, unsigned long bytes, unsigned long step)
{
	for (unsigned long off = 0; off < bytes; off += step) {
		uint8_t byte = (uint8_t)(off >> PAGE_SHIFT);
		int ret = copy_to_user(addr + off, &byte, 1);

		if (ret)
			return ret;
	}
	return 0;
}

/* The parent's range, fresh: a new VMA written in full in folios of the
 * row's size (PMD leaves split into PTE tables for PTE_MAPPED_2M). */
static int fault_range(struct mm_struct *mm, unsigned long *addr, unsigned long bytes,
		       unsigned int size)
{
	*addr = vm_mmap(mm, 0, bytes, RW, 0);
	if (IS_ERR_VALUE(*addr) || touch(*addr, bytes, PAGE_SIZE))
		return -1;
	if (size == PTE_MAPPED_2M)
		for (unsigned long a = *addr; a < *addr + bytes; a += PMD_SIZE)
			if (split_huge_pmd(mm, a + PAGE_SIZE))
				return -1;
	return 0;
}

/* A child forked from mm (timed: its fork's time and copy_present_ptes
 * calls into r). Return: the child, or NULL. */
static struct mm_struct *fork_child(struct mm_struct *mm, struct fork_run *r, bool timed)
{
	struct mm_struct *child = mm_create(mm->nid);
	uint64_t t0 = arch_cycles();

	if (!child)
		return NULL;
	if (dup_mmap(child, mm)) {
		mm_destroy(child);
		return NULL;
	}
	if (timed && r) {
		r->time[PH_FORK] = arch_cycles() - t0;
		r->fork_batches = child->counters[MM_FORK_COPY_BATCHES];
	}
	return child;
}

/* A child forked and destroyed (timed: both into r). Return: 0 or -1. */
static int fork_and_exit(struct mm_struct *mm, struct fork_run *r, bool timed)
{
	struct mm_struct *child = fork_child(mm, r, timed);
	uint64_t t0;

	if (!child)
		return -1;
	t0 = arch_cycles();
	mm_destroy(child);
	if (timed)
		r->time[PH_EXIT] = arch_cycles() - t0;
	return 0;
}

/* One byte per folio written while a child maps the range: the time,
 * and the KiB the copies took. Return: 0 or -1. */
static int timed_copy(struct mm_struct *mm, unsigned long addr, unsigned long bytes,
		      unsigned long folio_bytes, uint64_t *time, unsigned long *kib)
{
	struct pglist_data *pgdat = NODE_DATA(mm->nid);
	struct mm_struct *child = fork_child(mm, NULL, false);
	unsigned long pages = pgdat->vm_events[PGALLOC];
	uint64_t t0;
	int ret;

	if (!child)
		return -1;
	t0 = arch_cycles();
	ret = touch(addr, bytes, folio_bytes);
	*time = arch_cycles() - t0;
	*kib = (pgdat->vm_events[PGALLOC] - pages) * (PAGE_SIZE / 1024);
	mm_destroy(child);
	return ret ? -1 : 0;
}

/* mprotect there and back, then mremap, of a fresh range (timed into
 * r, with the batches each took); the moved range is unmapped. Return:
 * 0 or -1. */
static int protect_and_move(struct mm_struct *mm, unsigned long bytes, unsigned int size,
			    struct fork_run *r)
{
	unsigned long addr, dst, batches;
	uint64_t t0;
	long moved;

	if (fault_range(mm, &addr, bytes, size))
		return -1;
	batches = mm->counters[MM_MPROTECT_BATCHES];
	t0 = arch_cycles();
	if (vm_mprotect(mm, addr, bytes, VM_READ) || vm_mprotect(mm, addr, bytes, RW))
		return -1;
	r->time[PH_MPROTECT] = arch_cycles() - t0;
	r->mprotect_batches = mm->counters[MM_MPROTECT_BATCHES] - batches;
	/* The destination: room reserved, then replaced by the move. */
	dst = vm_mmap(mm, 0, bytes + PMD_SIZE, RW, 0);
	if (IS_ERR_VALUE(dst))
		return -1;
	batches = mm->counters[MM_MREMAP_BATCHES];
	t0 = arch_cycles();
	moved = vm_mremap(mm, addr, bytes, bytes, MREMAP_MAYMOVE | MREMAP_FIXED, dst + 64 * KIB);
	r->time[PH_MREMAP] = arch_cycles() - t0;
	r->mremap_batches = mm->counters[MM_MREMAP_BATCHES] - batches;
	if (moved != (long)(dst + 64 * KIB))
		return -1;
	return vm_munmap(mm, dst, bytes + PMD_SIZE) ? -1 : 0;
}

/* One run of every phase in one mode, from a fresh range. */
static int one_run(struct mm_struct *mm, unsigned long bytes, unsigned int size, bool batched,
		   struct fork_run *r)
{
	unsigned long folio_bytes = PAGE_SIZE << size_order(size), addr, faults;
	uint64_t t0;
	int ret;

	set_batching(batched);
	if (fault_range(mm, &addr, bytes, size))
		return -1;
	t0 = arch_cycles();
	if (vm_munmap(mm, addr, bytes))
		return -1;
	r->time[PH_MUNMAP] = arch_cycles() - t0;
	if (protect_and_move(mm, bytes, size, r))
		return -1;
	if (fault_range(mm, &addr, bytes, size) || fork_and_exit(mm, r, true))
		return -1;
	t0 = arch_cycles();
	if (touch(addr, bytes, folio_bytes))
		return -1;
	r->time[PH_REUSE] = arch_cycles() - t0;
	if (fork_and_exit(mm, r, false))
		return -1;
	faults = mm->counters[MM_FAULTS];
	t0 = arch_cycles();
	if (touch(addr, bytes, PAGE_SIZE))
		return -1;
	r->time[PH_REUSE4K] = arch_cycles() - t0;
	r->reuse4k_faults = mm->counters[MM_FAULTS] - faults;
	if (timed_copy(mm, addr, bytes, folio_bytes, &r->time[PH_COPY], &r->copy_kib))
		return -1;
	if (vm_munmap(mm, addr, bytes))
		return -1;
	if (!batched)
		return 0;
	/* Folium's whole-folio copy, on a fresh range: the copy above left
	 * one page of each folio replaced. */
	if (fault_range(mm, &addr, bytes, size))
		return -1;
	wp_copy_folio = true;
	ret = timed_copy(mm, addr, bytes, folio_bytes, &r->copy_folio_time, &r->copy_folio_kib);
	wp_copy_folio = false;
	return ret || vm_munmap(mm, addr, bytes) ? -1 : 0;
}

/* t in the unit's millions (ns → ms, cycles → Mcycles), 3 decimals. */
static const char *millions(char *buf, size_t len, uint64_t t)
{
	ksnprintf(buf, len, "%llu.%03llu", (unsigned long long)(t / 1000000),
		  (unsigned long long)(t / 1000 % 1000));
	return buf;
}

/* a / b with two decimals ("0.31"); "-" without b. */
static const char *ratio(char *buf, size_t len, uint64_t a, uint64_t b)
{
	uint64_t hundredths = b ? (a * 100 + b / 2) / b : 0;

	if (!b)
		return "-";
	ksnprintf(buf, len, "%llu.%02llu", (unsigned long long)(hundredths / 100),
		  (unsigned long long)(hundredths % 100));
	return buf;
}

static const char *size_name(char *buf, size_t len, unsigned int size)
{
	ksnprintf(buf, len, "%luK%s", (unsigned long)((PAGE_SIZE << size_order(size)) / KIB),
		  size == PTE_MAPPED_2M ? "-pte" : "");
	return buf;
}

static void print_row(const struct fork_row *r)
{
	char name[16], a[24], b[24];

	kprintf("%-9s", size_name(name, sizeof(name), r->size));
	for (int p = 0; p < NR_PHASES; p++) {
		if (p == PH_COPY) {
			kprintf(" %10s %10s %5s", millions(a, sizeof(a), r->batched.time[p]),
				millions(b, sizeof(b), r->batched.copy_folio_time),
				ratio(name, sizeof(name), r->batched.copy_folio_time,
				      r->batched.time[p]));
			continue;
		}
		kprintf(" %10s %10s %5s", millions(a, sizeof(a), r->per_page.time[p]),
			millions(b, sizeof(b), r->batched.time[p]),
			ratio(name, sizeof(name), r->batched.time[p], r->per_page.time[p]));
	}
	kprintf(" | %5s | %6lu %6lu %7lu %7lu %6lu %6lu %6lu %6lu | %8lu %8lu\n",
		ratio(a, sizeof(a), r->batched.time[PH_REUSE], r->batched.time[PH_COPY]),
		r->per_page.fork_batches, r->batched.fork_batches, r->per_page.reuse4k_faults,
		r->batched.reuse4k_faults, r->per_page.mprotect_batches,
		r->batched.mprotect_batches, r->per_page.mremap_batches, r->batched.mremap_batches,
		r->batched.copy_kib, r->batched.copy_folio_kib);
}

static void print_header(unsigned long bytes, const char *time_unit)
{
	char size[24];

	kprintf("fork of a parent with %s faulted in with writes, per folio size; times in %s\n",
		kformat_size(size, sizeof(size), bytes), time_unit);
	kprintf("upstream (Linux 6.9-6.15 cover letters, native): fork 16K -16%%, 64K -26%%, "
		"512K-2M -30%%;\n  munmap 64K -37%%, 2M -58%%; reuse of PTE-mapped THP -64%%\n");
	kprintf("%-9s", "folio");
	for (int p = 0; p < NR_PHASES; p++) {
		if (p == PH_COPY)
			kprintf(" %10s %10s %5s", "copy", "folio", "f/c");
		else
			kprintf(" %10s %10s %5s", phase_names[p], "batched", "b/p");
	}
	kprintf(" | %5s | %6s %6s %7s %7s %6s %6s %6s %6s | %8s %8s\n", "r/c", "runs", "runs",
		"faults", "faults", "mprot", "mprot", "mremap", "mremap", "copy KiB", "fol. KiB");
}

/* The fastest of the runs, phase by phase (each phase's best run). */
static void keep_best(struct fork_run *best, const struct fork_run *r, bool first)
{
	for (int p = 0; p < NR_PHASES; p++)
		if (first || r->time[p] < best->time[p])
			best->time[p] = r->time[p];
	if (first || r->copy_folio_time < best->copy_folio_time)
		best->copy_folio_time = r->copy_folio_time;
	best->fork_batches = r->fork_batches;
	best->reuse4k_faults = r->reuse4k_faults;
	best->mprotect_batches = r->mprotect_batches;
	best->mremap_batches = r->mremap_batches;
	best->copy_kib = r->copy_kib;
	best->copy_folio_kib = r->copy_folio_kib;
}

static int bench_size(struct mm_struct *mm, unsigned long bytes, unsigned int size,
		      unsigned int runs)
{
	struct fork_row *r = &rows[nr_rows++];
	struct fork_run run;

	thp_orders_enabled = size_order(size) ? 1ul << size_order(size) : 0;
	r->size = size;
	for (unsigned int i = 0; i < runs; i++) {
		bool per_page_first = !(i & 1);

		for (int m = 0; m < 2; m++) {
			bool batched = per_page_first ? m == 1 : m == 0;

			if (one_run(mm, bytes, size, batched, &run))
				return -1;
			keep_best(batched ? &r->batched : &r->per_page, &run, i == 0);
		}
	}
	print_row(r);
	return 0;
}

static void print_record(unsigned long bytes, unsigned int runs, const char *time_unit)
{
	char cols[1024], env[64], t[NR_PHASES * 2][24], c[24];
	struct benchrec rec;
	int n = ksnprintf(cols, sizeof(cols), "folio[KiB]");

	for (int p = 0; p < NR_PHASES; p++) {
		if (p == PH_COPY) {
			n += ksnprintf(cols + n, sizeof(cols) - (size_t)n,
				       " copy[%s] copy_folio[%s]", time_unit, time_unit);
			continue;
		}
		n += ksnprintf(cols + n, sizeof(cols) - (size_t)n,
			       " %s_per_page[%s] %s_batched[%s]", phase_names[p], time_unit,
			       phase_names[p], time_unit);
	}
	ksnprintf(cols + n, sizeof(cols) - (size_t)n,
		  " reuse_over_copy[x] per_page_fork_runs[count] batched_fork_runs[count] "
		  "per_page_reuse4k_faults[count] batched_reuse4k_faults[count] "
		  "per_page_mprotect_runs[count] batched_mprotect_runs[count] "
		  "per_page_mremap_runs[count] batched_mremap_runs[count] copy_mem[KiB] "
		  "copy_folio_mem[KiB] pmd_mapped[bool]");
	ksnprintf(env, sizeof(env), " range_bytes=%lu runs=%u", bytes, runs);
	benchrec_begin(&rec, "fork_batching", cols, env);
	for (unsigned int i = 0; i < nr_rows; i++) {
		const struct fork_row *r = &rows[i];
		char line[400];
		int len = ksnprintf(line, sizeof(line), "%lu",
				    (unsigned long)((PAGE_SIZE << size_order(r->size)) / KIB));

		for (int p = 0; p < NR_PHASES; p++) {
			if (p == PH_COPY) {
				len += ksnprintf(
					line + len, sizeof(line) - (size_t)len, " %s %s",
					millions(t[0], sizeof(t[0]), r->batched.time[p]),
					millions(t[1], sizeof(t[1]), r->batched.copy_folio_time));
				continue;
			}
			len += ksnprintf(line + len, sizeof(line) - (size_t)len, " %s %s",
					 millions(t[0], sizeof(t[0]), r->per_page.time[p]),
					 millions(t[1], sizeof(t[1]), r->batched.time[p]));
		}
		benchrec_row(
			&rec, "%s %s %lu %lu %lu %lu %lu %lu %lu %lu %lu %lu %d", line,
			ratio(c, sizeof(c), r->batched.time[PH_REUSE], r->batched.time[PH_COPY]),
			r->per_page.fork_batches, r->batched.fork_batches,
			r->per_page.reuse4k_faults, r->batched.reuse4k_faults,
			r->per_page.mprotect_batches, r->batched.mprotect_batches,
			r->per_page.mremap_batches, r->batched.mremap_batches, r->batched.copy_kib,
			r->batched.copy_folio_kib, r->size == HPAGE_PMD_ORDER);
	}
	benchrec_end(&rec);
}

int bench_fork(int nid, unsigned long bytes, unsigned int runs, const char *unit,
	       const char *time_unit)
{
	unsigned long saved_orders = thp_orders_enabled;
	struct mm_struct *prev = current_mm, *mm = mm_create(nid);
	int ret = 0;

	if (!mm)
		return -1;
	switch_mm(mm);
	nr_rows = 0;
	runs = MIN(MAX(runs, 1u), 9u);
	print_header(bytes, time_unit);
	for (unsigned int i = 0; i < ARRAY_SIZE(bench_sizes) && !ret; i++) {
		if (size_order(bench_sizes[i]) > MAX_PAGE_ORDER)
			continue;
		ret = bench_size(mm, bytes, bench_sizes[i], runs);
	}
	if (ret)
		kprintf("bench fork: cannot fault in, fork or unmap %lu bytes\n", bytes);
	kprintf("per-page: fork_copy_batched, zap_batched, wp_reuse_batched, mprotect_batched\n"
		"and mremap_batched off (fork and exit entry by entry, Linux before 6.9; reuse\n"
		"one PTE per fault, Linux 6.15; mprotect and mremap entry by entry, Linux before\n"
		"6.17, and x86 Linux 7.3's mremap); batched: on. b/p = batched / per-page. copy "
		"(one page per fault, as Linux) and\n"
		"folio (wp_copy_folio: the whole folio per fault, Folium's) in the batched runs,\n"
		"f/c = folio / copy, with the KiB each allocated. r/c = reuse / copy (batched).\n"
		"runs = copy_present_ptes calls of the fork; faults = faults of reuse4k;\n"
		"mprot, mremap = their batches (mprotect there and back: two per folio).\n"
		"Times: best of %u runs per mode\n"
		"(%s), interleaved in alternating order, each from a freshly faulted range.\n\n",
		runs, unit);
	if (!ret)
		print_record(bytes, runs, time_unit);
	thp_orders_enabled = saved_orders;
	set_batching(true);
	switch_mm(prev);
	mm_destroy(mm);
	return ret;
}

/* `bench fork`: up to 128 MiB of node 0 (4 MiB quick), a third of what
 * is free (the parent, a child's tables and the copies). */
int bench_fork_command(bool quick)
{
	unsigned long bytes = quick ? 4 * MIB : 128 * MIB;
	unsigned long avail = node_free_pages(NODE_DATA(0)) * PAGE_SIZE;

	bench_banner("Folium fork benchmark");
	while (bytes > PMD_SIZE && bytes > avail / 3)
		bytes /= 2;
	kprintf("\n");
	return bench_fork(0, bytes, quick ? 1 : 3, "cycles", "Mcycles");
}
