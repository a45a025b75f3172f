/*
 * Which large folio orders anonymous faults may use, and how often each
 * one was used: Linux's /sys/kernel/mm/transparent_hugepage/
 * hugepages-<size>kB/enabled and .../stats, as one bitmask and one table.
 * Example: `thp 16K,64K,2M` sets bits 2, 4 and 9 (0x214); a fault in a
 * 2 MiB-aligned VMA then tries order 9, then 4, then 2, then order 0,
 * which is always possible and never listed.
 */
#include <vm.h>

/* Every order a fault may use: 8K (order 1) up to the PMD size. Linux
 * leaves order 1 out for anon (THP_ORDERS_ALL_ANON); Folium accepts it so
 * the smallest step can be measured. */
#define THP_ORDERS_ALL (((1ul << (HPAGE_PMD_ORDER + 1)) - 1) & ~1ul)

/* Linux's default: only the PMD size ("inherit" with enabled=always), the
 * smaller mTHP sizes "never" until asked for (`thp 16K,64K,2M`). */
unsigned long thp_orders_enabled = 1ul << HPAGE_PMD_ORDER;
unsigned long mthp_stats[NR_PAGE_ORDERS][MTHP_STAT_NR];

/* One word of the list: a power-of-two size from 8K to 2M → its order. */
static int parse_one_size(const char *word, unsigned long *orders, char *err,
			  size_t errlen)
{
	uint64_t size;

	if (kparse_size(word, &size) < 0 || size < 2 * PAGE_SIZE ||
	    size > (PAGE_SIZE << HPAGE_PMD_ORDER) || (size & (size - 1))) {
		ksnprintf(err, errlen, "'%s' is not a power-of-two size from 8K to 2M",
			  word);
		return -EINVAL;
	}
	*orders |= 1ul << __builtin_ctzll(size >> PAGE_SHIFT);
	return 0;
}

int thp_parse_orders(const char *s, unsigned long *orders, char *err, size_t errlen)
{
	unsigned long parsed = 0;
	char word[16];

	if (!strcmp(s, "never") || !strcmp(s, "always")) {
		*orders = s[0] == 'a' ? THP_ORDERS_ALL : 0;
		return 0;
	}
	while (*s) {
		size_t n = 0;

		while (s[n] && s[n] != ',')
			n++;
		if (n == 0 || n >= sizeof(word)) {
			ksnprintf(err, errlen, "bad size list at '%.16s'", s);
			return -EINVAL;
		}
		memcpy(word, s, n);
		word[n] = '\0';
		if (parse_one_size(word, &parsed, err, errlen))
			return -EINVAL;
		s += n;
		if (*s == ',' && !*++s) {
			ksnprintf(err, errlen, "size list ends with ','");
			return -EINVAL;
		}
	}
	if (!parsed) {
		ksnprintf(err, errlen, "empty size list");
		return -EINVAL;
	}
	*orders = parsed;
	return 0;
}

/* "4K", "64K", "2M": the size of an order, as Linux names the sysfs dirs. */
const char *thp_order_name(unsigned int order, char *buf, size_t len)
{
	unsigned long kib = (PAGE_SIZE << order) >> 10;

	if (kib >= 1024)
		ksnprintf(buf, len, "%luM", kib >> 10);
	else
		ksnprintf(buf, len, "%luK", kib);
	return buf;
}

/* Boot: thp= from the command line (a bad value keeps the default), and
 * the migration hook: anonymous folios are the movable ones. */
void thp_init(void)
{
	const char *arg = cmdline_get(&boot_cmdline, "thp");
	unsigned long orders;
	char err[80];

	set_migrate_folio_hook(anon_migrate_folio);
	if (!arg)
		return;
	if (thp_parse_orders(arg, &orders, err, sizeof(err))) {
		pr_err("cmdline: thp=%s: %s; keeping the default\n", arg, err);
		return;
	}
	thp_orders_enabled = orders;
}
