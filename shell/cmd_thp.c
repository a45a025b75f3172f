/*
 * `thp`: which large folio sizes anonymous faults may use, and how often
 * each was used (Linux: /sys/kernel/mm/transparent_hugepage/
 * hugepages-<size>kB/enabled and .../stats). `zero`: how folio_zero_user
 * orders its clears. Both change mm/ state through its own parsers.
 */
#include <shell.h>
#include <vm.h>

static void thp_show(void)
{
	char name[8];

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		kprintf("large folios are compiled out (CONFIG_TRANSPARENT_HUGEPAGE=n): 4K only\n");
	kprintf("enabled:");
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++)
		if (thp_orders_enabled & (1ul << order))
			kprintf(" %s", thp_order_name(order, name, sizeof(name)));
	kprintf("%s (4K always)\n", thp_orders_enabled ? "" : " never");
	kprintf("%-6s %-8s %16s %19s\n", "size", "enabled", "anon_fault_alloc",
		"anon_fault_fallback");
	for (unsigned int order = 0; order <= HPAGE_PMD_ORDER; order++) {
		bool on = !order || (thp_orders_enabled & (1ul << order));

		kprintf("%-6s %-8s %16lu %19lu\n", thp_order_name(order, name, sizeof(name)),
			order ? (on ? "yes" : "never") : "always",
			mthp_stats[order][MTHP_STAT_ANON_FAULT_ALLOC],
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
		thp_orders_enabled = orders;
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
