/*
 * Shell commands on the shell's address space (shell_mm()): vmas, map,
 * unmap and ptdump. ptdump folds a run of entries that map consecutive
 * pfns of one folio with the same flags into one line, so a 64K folio
 * reads as one line:
 *   0x100000000-0x100010000 16 ptes pfn 0x4a10..0x4a1f RW A D order 4
 */
#include <shell.h>
#include <vm.h>

static struct mm_struct *shell_mm_or_complain(const char *cmd)
{
	struct mm_struct *mm = shell_mm();

	if (!mm)
		kprintf("%s: no memory for the shell's address space\n", cmd);
	return mm;
}

static int count_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	(*(unsigned long *)walk->private)++;
	return 0;
}

static int count_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	if (pmd_leaf(*pmdp))
		*(unsigned long *)walk->private += HPAGE_PMD_NR;
	return 0;
}

static const struct mm_walk_ops count_ops = { .pte_entry = count_pte, .pmd_entry = count_pmd };

static int cmd_vmas(int argc, char **argv)
{
	struct mm_struct *mm;
	char size[24];

	if (argc != 1)
		return CMD_USAGE;
	mm = shell_mm_or_complain("vmas");
	if (!mm)
		return CMD_ERROR;
	kprintf("%-29s %10s %5s %9s\n", "range", "size", "flags", "resident");
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];
		unsigned long resident = 0;

		walk_page_range(mm, vma->vm_start, vma->vm_end, &count_ops, &resident);
		kprintf("0x%012lx-0x%012lx %10s    %c%c %9lu\n", vma->vm_start, vma->vm_end,
			kformat_size(size, sizeof(size), vma->vm_end - vma->vm_start),
			vma->vm_flags & VM_READ ? 'r' : '-', vma->vm_flags & VM_WRITE ? 'w' : '-',
			resident);
	}
	kprintf("%d vmas, %lu pages resident, %lu page tables\n", mm->nr_vmas,
		mm->counters[MM_ANONPAGES], mm->counters[MM_PGTABLES]);
	return CMD_OK;
}

static int cmd_map(int argc, char **argv)
{
	uint64_t len, align = 0;
	struct mm_struct *mm;
	unsigned long addr;

	if (argc < 2 || argc > 3 || kparse_size(argv[1], &len) ||
	    (argc == 3 && kparse_size(argv[2], &align)))
		return CMD_USAGE;
	mm = shell_mm_or_complain("map");
	if (!mm)
		return CMD_ERROR;
	addr = vm_mmap(mm, 0, len, VM_READ | VM_WRITE, align);
	if (IS_ERR_VALUE(addr)) {
		kprintf("map: %s\n", (long)addr == -ENOMEM ? "no room (or too many VMAs)"
							   : "bad size or alignment");
		return CMD_ERROR;
	}
	kprintf("map: 0x%lx-0x%lx\n", addr, addr + (unsigned long)ALIGN_UP(len, PAGE_SIZE));
	return CMD_OK;
}

static int cmd_unmap(int argc, char **argv)
{
	struct vm_area_struct *vma;
	uint64_t addr, len = 0;
	struct mm_struct *mm;
	int err;

	if (argc < 2 || argc > 3 || kstrtou64(argv[1], &addr) ||
	    (argc == 3 && kparse_size(argv[2], &len)))
		return CMD_USAGE;
	mm = shell_mm_or_complain("unmap");
	if (!mm)
		return CMD_ERROR;
	if (argc == 2) {
		vma = find_vma(mm, addr);
		if (!vma || vma->vm_start != addr) {
			kprintf("unmap: no VMA starts at 0x%llx (see vmas)\n",
				(unsigned long long)addr);
			return CMD_ERROR;
		}
		len = vma->vm_end - vma->vm_start;
	}
	err = vm_munmap(mm, addr, len);
	if (err) {
		kprintf("unmap: %s\n", err == -ENOMEM ? "no memory to split a VMA or PMD"
						      : "ADDR must be page-aligned, LEN > 0");
		return CMD_ERROR;
	}
	kprintf("unmap: 0x%llx-0x%llx\n", (unsigned long long)addr,
		(unsigned long long)ALIGN_UP(addr + len, PAGE_SIZE));
	return CMD_OK;
}

/* --- ptdump ---------------------------------------------------------------------- */

/* The run of entries being folded into one line. */
struct ptdump_run {
	unsigned long start, end;    /* virtual range so far */
	unsigned long pfn, next_pfn; /* first pfn, pfn the next entry needs */
	uint64_t flags;		     /* entry bits without the address */
	struct folio *folio;
	unsigned long nr; /* entries */
	bool huge;
	bool zero; /* the zero page or the huge zero folio: every entry maps it */
};

static void ptdump_print(const struct ptdump_run *run)
{
	uint64_t f = run->flags;
	const char *what = run->huge ? "pmd" : "pte";

	if (!run->nr)
		return;
	if (run->zero) {
		kprintf("0x%lx-0x%lx %lu %s%s pfn 0x%lx %s%s%s %szero page\n", run->start, run->end,
			run->nr, what, run->nr > 1 ? "s" : "", run->pfn, f & _PAGE_RW ? "RW" : "R-",
			f & _PAGE_ACCESSED ? " A" : "", f & _PAGE_DIRTY ? " D" : "",
			run->huge ? "huge " : "");
		return;
	}
	kprintf("0x%lx-0x%lx %lu %s%s pfn 0x%lx..0x%lx %s%s%s%s%s order %u\n", run->start, run->end,
		run->nr, what, run->nr > 1 ? "s" : "", run->pfn, run->next_pfn - 1,
		f & _PAGE_RW ? "RW" : "R-", f & _PAGE_ACCESSED ? " A" : "",
		f & _PAGE_DIRTY ? " D" : "", f & _PAGE_SOFT_DIRTY ? " SD" : "",
		run->huge ? " huge" : "", folio_order(run->folio));
}

static void ptdump_entry(struct ptdump_run *run, unsigned long addr, unsigned long size,
			 uint64_t entry, bool huge)
{
	unsigned long pfn = (entry & PTE_ADDR_MASK) >> PAGE_SHIFT;
	struct folio *folio = page_folio(pfn_to_page(pfn));
	uint64_t flags = entry & ~PTE_ADDR_MASK;
	bool zero = huge ? is_huge_zero_pmd(entry) : is_zero_pfn(pfn);

	if (!(run->nr && addr == run->end && pfn == run->next_pfn && flags == run->flags &&
	      folio == run->folio && huge == run->huge && zero == run->zero)) {
		ptdump_print(run);
		*run = (struct ptdump_run){ .start = addr,
					    .pfn = pfn,
					    .flags = flags,
					    .folio = folio,
					    .huge = huge,
					    .zero = zero };
	}
	run->end = addr + size;
	/* Zero-page entries all map the same page: a run of them folds too. */
	run->next_pfn = zero ? pfn : pfn + (size >> PAGE_SHIFT);
	run->nr++;
}

/* Ctrl-C stops the walk (a non-zero return), at an entry. */
static int ptdump_pte(pte_t *ptep, unsigned long addr, struct mm_walk *walk)
{
	if (console_interrupted())
		return -EINTR;
	ptdump_entry(walk->private, addr, PAGE_SIZE, *ptep, false);
	return 0;
}

static int ptdump_pmd(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk)
{
	if (console_interrupted())
		return -EINTR;
	if (pmd_leaf(*pmdp))
		ptdump_entry(walk->private, addr & PMD_MASK, PMD_SIZE, *pmdp, true);
	return 0;
}

static const struct mm_walk_ops ptdump_ops = { .pte_entry = ptdump_pte, .pmd_entry = ptdump_pmd };

static int cmd_ptdump(int argc, char **argv)
{
	struct ptdump_run run = { 0 };
	struct vm_area_struct *vma;
	uint64_t addr, len = PAGE_SIZE;
	struct mm_struct *mm;
	bool interrupted;

	if (argc < 2 || argc > 3 || kstrtou64(argv[1], &addr) ||
	    (argc == 3 && (kparse_size(argv[2], &len) || !len)))
		return CMD_USAGE;
	if (addr >= USER_VA_END || len > USER_VA_END - addr) {
		kprintf("ptdump: the range must lie below 0x%lx\n", USER_VA_END);
		return CMD_ERROR;
	}
	mm = shell_mm_or_complain("ptdump");
	if (!mm)
		return CMD_ERROR;
	vma = find_vma(mm, addr);
	if (argc == 2 && vma)
		len = vma->vm_end - addr; /* default: the rest of the VMA */
	interrupted = walk_page_range(mm, ALIGN_DOWN(addr, PAGE_SIZE), addr + len, &ptdump_ops,
				      &run) == -EINTR;
	ptdump_print(&run);
	if (interrupted) {
		kprintf("ptdump: interrupted after 0x%lx\n", run.nr ? run.end : addr);
		return CMD_ERROR;
	}
	if (!run.nr)
		kprintf("ptdump: nothing mapped in 0x%llx-0x%llx\n", (unsigned long long)addr,
			(unsigned long long)(addr + len));
	return CMD_OK;
}

DEFINE_SHELL_COMMAND(vmas, "vmas", "list the shell address space's VMAs and resident pages");
DEFINE_SHELL_COMMAND(map, "map SIZE [ALIGN]",
		     "create an anonymous read/write VMA, print its address");
DEFINE_SHELL_COMMAND(unmap, "unmap ADDR [LEN]",
		     "unmap the VMA starting at ADDR, or LEN bytes from ADDR");
DEFINE_SHELL_COMMAND(ptdump, "ptdump ADDR [LEN]",
		     "dump the page tables: PTE/PMD runs with pfn, flags, folio order");

/* The shell's address space: created on node 0 at first use, made current. */
struct mm_struct *shell_mm(void)
{
	static struct mm_struct *mm;

	if (!mm && NODE_DATA(0))
		mm = mm_create(0);
	if (mm && current_mm != mm)
		switch_mm(mm);
	return mm;
}
