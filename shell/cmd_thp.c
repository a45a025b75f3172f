/*
 * `thp`: which large folio sizes anonymous faults may use, and how often
 * each was used: a view of /sys/kernel/mm/transparent_hugepage/enabled
 * and hugepages-<size>kB/{enabled,stats} (the same show functions,
 * mm/huge_memory.c). `thp 16K,64K,2M` makes those sizes "always" and the
 * others "never", as thp= does. `zero`: how folio_zero_user orders its
 * clears. Both change mm/ state through its own parsers.
 */
#include <seq_file.h>
#include <shell.h>
#include <vm.h>

/* An attribute's value as its file reads, without the newline. */
static void show_attr(const struct kobj_attribute *attr, void *priv)
{
	struct seq_file m;

	if (seq_fill(&m, attr->show, priv))
		return;
	if (m.count && m.buf[m.count - 1] == '\n')
		m.count--;
	console_write(m.buf, m.count);
	seq_release_buf(&m);
}

static void thp_show(void)
{
	const struct vm_area_struct plain = { 0 }; /* a VMA without madvise */
	unsigned long enabled = thp_vma_allowable_orders(&plain, THP_ORDERS_ALL);
	char name[8];

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		kprintf("large folios are compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n): 4K only\n");
	kprintf("enabled:");
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++)
		if (enabled & (1ul << order))
			kprintf(" %s", thp_order_name(order, name, sizeof(name)));
	kprintf("%s (4K always)\n", enabled ? "" : " never");
	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return; /* no transparent_hugepage directory either */
	kprintf("transparent_hugepage/enabled: ");
	show_attr(&thp_enabled_attr, NULL);
	kprintf("\n%-6s %-31s %16s %19s\n", "size", "hugepages-<size>kB/enabled",
		"anon_fault_alloc", "anon_fault_fallback");
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		if (!(THP_ORDERS_ALL & (1ul << order)))
			continue;
		kprintf("%-6s ", thp_order_name(order, name, sizeof(name)));
		show_attr(&thpsize_enabled_attr, (void *)(uintptr_t)order);
		kprintf("%*s %16lu %19lu\n", 0, "", mthp_stats[order][MTHP_STAT_ANON_FAULT_ALLOC],
			mthp_stats[order][MTHP_STAT_ANON_FAULT_FALLBACK]);
	}
}

static int cmd_thp(int argc, char **argv)
{
	unsigned long orders;
	char err[80];

	if (argc > 2)
		return CMD_USAGE;
	if (argc == 2) {
		if (thp_parse_orders(argv[1], &orders, err, sizeof(err))) {
			kprintf("thp: %s\n", err);
			return CMD_USAGE;
		}
		thp_set_orders(orders);
	}
	thp_show();
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(thp, "thp [SIZES | never | always]  (SIZES: e.g. 16K,64K,2M)",
		     "large folio sizes for anonymous faults, and their counters");

static int cmd_zero(int argc, char **argv)
{
	if (argc > 2)
		return CMD_USAGE;
	if (argc == 2 && zero_strategy_parse(argv[1], &zero_strategy) < 0)
		return CMD_USAGE;
	kprintf("folio_zero_user: %s (clear_pages: rep %s)\n", zero_strategy_name(zero_strategy),
		clear_pages_insn_name());
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(zero, "zero [neighbourhood|contiguous|page]",
		     "how folio_zero_user orders its clears (fault's neighbours last by default)");
