/*
 * Workloads that touch the lower half through the fault path: usemem,
 * modelled on vm-scalability's usemem (map an anonymous region in the
 * shell's address space, touch every page once, report, unmap), and
 * poke/peek for hands-on looks. Example: `usemem 64M seq write` in a
 * 2 MiB-aligned VMA with `thp 2M` takes 32 faults, one per PMD-mapped
 * folio; with `thp never` it takes 16384. Touch order: seq ascends; rand
 * visits every page once in the order of a seeded full-period LCG.
 */
#include <arch.h>
#include <shell.h>
#include <vm.h>

#define USEMEM_BYTE 0x5a     /* what `usemem ... write` fills pages with */
#define USEMEM_SEED 0x5eedul /* fixed, so rand runs are repeatable */

struct usemem_run {
	unsigned long addr, npages;
	bool rand, write;
	unsigned long faults;
	unsigned long zero_ptes, huge_zero_pmds;	   /* reads served without a folio */
	unsigned long stats[NR_PAGE_ORDERS][MTHP_STAT_NR]; /* before, then delta */
	uint64_t cycles;
};

/*
 * The i-th page to touch. rand walks x → 5x + c mod m over m = the power
 * of two ≥ npages, which visits every residue once (Hull–Dobell: c odd,
 * 4 | a - 1), and skips values ≥ npages: a permutation without a table.
 */
static unsigned long next_page(struct usemem_run *r, unsigned long *x, unsigned long m)
{
	if (!r->rand)
		return (*x)++;
	do
		*x = (*x * 5 + (USEMEM_SEED | 1)) & (m - 1);
	while (*x >= r->npages);
	return *x;
}

/* Touch every page once. Return: 0, or -EFAULT (already reported). */
static int usemem_touch(struct usemem_run *r)
{
	unsigned long m = 1, x = r->rand ? USEMEM_SEED : 0;
	uint64_t word;

	while (m < r->npages)
		m <<= 1;
	x &= m - 1;
	for (unsigned long i = 0; i < r->npages; i++) {
		unsigned long addr = r->addr + next_page(r, &x, m) * PAGE_SIZE;
		int err;

		if (console_interrupted()) {
			kprintf("usemem: interrupted after %lu of %lu pages\n", i, r->npages);
			return -EINTR;
		}
		err = r->write ? fill_user(addr, USEMEM_BYTE, PAGE_SIZE)
			       : copy_from_user(&word, addr, sizeof(word));

		if (err) {
			kprintf("usemem: stopped after %lu of %lu pages\n", i, r->npages);
			return err;
		}
	}
	return 0;
}

/* Count the entries that map the zero page or the huge zero folio. */
static int count_zero_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	struct usemem_run *r = walk->private;

	r->zero_ptes += is_zero_pfn(pte_pfn(*ptep));
	return 0;
}

static int count_zero_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	struct usemem_run *r = walk->private;

	r->huge_zero_pmds += is_huge_zero_pmd(*pmdp);
	return 0;
}

static const struct mm_walk_ops count_zero_ops = { .pte_entry = count_zero_pte,
						   .pmd_entry = count_zero_pmd };

static void usemem_print(const struct usemem_run *r, bool order_stats)
{
	uint64_t mhz = arch_cycles_per_sec() / 1000000;
	uint64_t ns = mhz ? r->cycles * 1000 / mhz : 0;
	char size[24];

	kprintf("usemem: %s %s %s: %lu pages, %lu faults, %llu cycles, %llu ns\n",
		kformat_size(size, sizeof(size), r->npages * PAGE_SIZE), r->rand ? "rand" : "seq",
		r->write ? "write" : "read", r->npages, r->faults, (unsigned long long)r->cycles,
		(unsigned long long)ns);
	kprintf("usemem: %llu cycles/page, %llu cycles/fault\n",
		(unsigned long long)(r->cycles / r->npages),
		(unsigned long long)(r->faults ? r->cycles / r->faults : 0));
	if (!order_stats)
		return;
	kprintf("%5s %6s %8s %9s %8s\n", "order", "size", "faults", "fallback", "pages");
	for (unsigned int o = 0; o <= HPAGE_PMD_ORDER; o++) {
		unsigned long alloc = r->stats[o][MTHP_STAT_ANON_FAULT_ALLOC];
		unsigned long fb = r->stats[o][MTHP_STAT_ANON_FAULT_FALLBACK];

		if (alloc || fb || !o || (thp_orders_enabled & (1ul << o)))
			kprintf("%5u %6s %8lu %9lu %8lu\n", o,
				kformat_size(size, sizeof(size), PAGE_SIZE << o), alloc, fb,
				alloc << o);
	}
	kprintf("%5s %6s %8lu %9s %8s  (reads: %lu zero-page PTEs, %lu huge zero PMDs)\n", "zero",
		"-", r->zero_ptes + r->huge_zero_pmds, "-", "0", r->zero_ptes, r->huge_zero_pmds);
}

static int usemem_parse(int argc, char **argv, struct usemem_run *r, bool *order_stats)
{
	uint64_t len;

	if (argc < 2 || kparse_size(argv[1], &len) || len < PAGE_SIZE)
		return -EINVAL;
	r->npages = len / PAGE_SIZE;
	r->write = true;
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "seq") || !strcmp(argv[i], "rand"))
			r->rand = argv[i][0] == 'r';
		else if (!strcmp(argv[i], "write") || !strcmp(argv[i], "read"))
			r->write = argv[i][0] == 'w';
		else if (!strcmp(argv[i], "--order-stats"))
			*order_stats = true;
		else
			return -EINVAL;
	}
	return 0;
}

static int cmd_usemem(int argc, char **argv)
{
	struct usemem_run r = { 0 };
	bool order_stats = false;
	struct mm_struct *mm;
	unsigned long faults;
	uint64_t t0;
	int err;

	if (usemem_parse(argc, argv, &r, &order_stats))
		return CMD_USAGE;
	mm = shell_mm();
	if (!mm)
		return CMD_ERROR;
	r.addr = vm_mmap(mm, 0, r.npages * PAGE_SIZE, VM_READ | VM_WRITE, 0);
	if (IS_ERR_VALUE(r.addr)) {
		kprintf("usemem: no room for %lu pages in the shell's address space\n", r.npages);
		return CMD_ERROR;
	}
	memcpy(r.stats, mthp_stats, sizeof(r.stats));
	faults = mm->counters[MM_FAULTS];
	t0 = arch_cycles();
	err = usemem_touch(&r);
	r.cycles = arch_cycles() - t0;
	r.faults = mm->counters[MM_FAULTS] - faults;
	for (unsigned int o = 0; o < NR_PAGE_ORDERS; o++)
		for (int s = 0; s < MTHP_STAT_NR; s++)
			r.stats[o][s] = mthp_stats[o][s] - r.stats[o][s];
	walk_page_range(mm, r.addr, r.addr + r.npages * PAGE_SIZE, &count_zero_ops, &r);
	if (!err)
		usemem_print(&r, order_stats);
	vm_munmap(mm, r.addr, r.npages * PAGE_SIZE);
	return err ? CMD_ERROR : CMD_OK;
}
DEFINE_SHELL_COMMAND(usemem, "usemem SIZE [seq|rand] [write|read] [--order-stats]",
		     "map SIZE, touch every page (faults), report, unmap");

/* poke fills this much between two looks for Ctrl-C. */
#define POKE_CHUNK (64ul << 10)

static int cmd_poke(int argc, char **argv)
{
	uint64_t addr, len, byte, done, n;

	if (argc != 4 || kstrtou64(argv[1], &addr) || kparse_size(argv[2], &len) ||
	    kstrtou64(argv[3], &byte) || byte > 255)
		return CMD_USAGE;
	if (!shell_mm())
		return CMD_ERROR;
	for (done = 0; done < len; done += n) {
		if (console_interrupted()) {
			kprintf("poke: interrupted after %llu of %llu bytes\n",
				(unsigned long long)done, (unsigned long long)len);
			return CMD_ERROR;
		}
		n = MIN(len - done, POKE_CHUNK);
		if (fill_user(addr + done, (int)byte, n))
			return CMD_ERROR;
	}
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(poke, "poke ADDR LEN BYTE", "fill LEN bytes at ADDR (shell mm) with BYTE");

/* ≤ PEEK_DUMP_MAX bytes: a hex dump, 16 bytes a line. */
#define PEEK_DUMP_MAX 256

static int peek_dump(unsigned long addr, size_t len)
{
	uint8_t buf[PEEK_DUMP_MAX];

	if (copy_from_user(buf, addr, len))
		return CMD_ERROR;
	for (size_t i = 0; i < len; i++) {
		if (i % 16 == 0)
			kprintf("0x%lx:", addr + i);
		kprintf(" %02x%s", buf[i], i % 16 == 15 || i + 1 == len ? "\n" : "");
	}
	return CMD_OK;
}

/* More: how many bytes of each value, "0x00 x 4096, 0xab x 61440". */
static int peek_histogram(unsigned long addr, size_t len)
{
	static unsigned long count[256];
	uint8_t buf[PEEK_DUMP_MAX];
	const char *sep = "";

	memset(count, 0, sizeof(count));
	for (size_t done = 0; done < len;) {
		size_t n = MIN(len - done, sizeof(buf));

		if (console_interrupted()) {
			kprintf("peek: interrupted after %zu of %zu bytes\n", done, len);
			return CMD_ERROR;
		}
		if (copy_from_user(buf, addr + done, n))
			return CMD_ERROR;
		for (size_t i = 0; i < n; i++)
			count[buf[i]]++;
		done += n;
	}
	kprintf("%zu bytes: ", len);
	for (int v = 0; v < 256; v++) {
		if (count[v] == len)
			kprintf("all 0x%02x", v);
		else if (count[v])
			kprintf("%s0x%02x x %lu", sep, v, count[v]);
		if (count[v])
			sep = ", ";
	}
	kprintf("\n");
	return CMD_OK;
}

static int cmd_peek(int argc, char **argv)
{
	uint64_t addr, len = 64;

	if (argc < 2 || argc > 3 || kstrtou64(argv[1], &addr) ||
	    (argc == 3 && (kparse_size(argv[2], &len) || !len)))
		return CMD_USAGE;
	if (!shell_mm())
		return CMD_ERROR;
	if (len <= PEEK_DUMP_MAX)
		return peek_dump(addr, len);
	return peek_histogram(addr, len);
}
DEFINE_SHELL_COMMAND(peek, "peek ADDR [LEN]",
		     "hex dump of LEN (64) bytes at ADDR, or for > 256 bytes a histogram");
