/*
 * Bench records (include/benchrec.h): every benchmark table also printed
 * as "@bench/@env/@cols/@row/@end" lines, so tools/benchrec can turn a
 * serial log into CSV and tell a complete record from a truncated or
 * garbled one. The hash covers each record line as printed, "\n"-ended:
 * "@bench x\n" hashes the 9 bytes '@' 'b' ... 'x' '\n'.
 */
#include <arch.h>
#include <bench.h>
#include <benchrec.h>
#include <generated/config.h>
#include <kernel.h>
#include <mm.h>
#include <stdarg.h>
#include <version.h>
#include <vm.h>

#define LINE_MAX_LEN 1024

uint32_t fnv1a32(uint32_t h, const void *data, unsigned long n)
{
	const unsigned char *p = data;

	while (n--) {
		h ^= *p++;
		h *= 0x01000193u;
	}
	return h;
}

/* Print one record line and fold it into the hash. */
static void record_line(struct benchrec *r, const char *line)
{
	r->hash = fnv1a32(r->hash, line, strlen(line));
	r->hash = fnv1a32(r->hash, "\n", 1);
	kprintf("%s\n", line);
}

static const char *yn(bool b)
{
	return b ? "y" : "n";
}

/* "64K,2M": the folio sizes anonymous faults may use now; "none". */
static void format_thp_orders(char *buf, size_t len)
{
	size_t used = 0;
	char name[8];

	buf[0] = '\0';
	for (unsigned int order = 1; order <= HPAGE_PMD_ORDER; order++) {
		if (!(thp_orders_enabled & (1ul << order)))
			continue;
		used += ksnprintf(buf + used, len - used, "%s%s", used ? "," : "",
				  thp_order_name(order, name, sizeof(name)));
		if (used >= len)
			break;
	}
	if (!buf[0])
		ksnprintf(buf, len, "none");
}

/* The environment every record carries, in benchrec.h's order. */
static void format_env(char *buf, size_t len, const char *extra_env)
{
	const char *hv = arch_hypervisor();
	struct arch_machine_info m;
	char orders[64];

	arch_machine_info(&m);
	format_thp_orders(orders, sizeof(orders));
	ksnprintf(buf, len,
		  "@env source=%s cpu=\"%s\" features=%s clear_pages=%s tsc_hz=%llu "
		  "hypervisor=\"%s\" emulated=%s mem_bytes=%llu version=%s max_page_order=%d "
		  "pageblock_order=%d thp=%s thp_orders=%s debug_vm=%s%s",
		  m.source, arch_cpu_name(), m.features, clear_pages_insn_name(),
		  (unsigned long long)m.tsc_hz, hv ? hv : "none",
		  hv && strncmp(hv, "TCG", 3) == 0 ? "yes" : "no", (unsigned long long)m.ram_bytes,
		  FOLIUM_VERSION, MAX_PAGE_ORDER, (int)pageblock_order,
		  yn(CONFIG_TRANSPARENT_HUGEPAGE), orders, yn(CONFIG_DEBUG_VM),
		  extra_env ? extra_env : "");
}

static unsigned int count_words(const char *s)
{
	unsigned int n = 0;

	for (; *s; s++)
		if (*s != ' ' && (s[1] == ' ' || s[1] == '\0'))
			n++;
	return n;
}

void benchrec_begin(struct benchrec *r, const char *name, const char *cols, const char *extra_env)
{
	char line[LINE_MAX_LEN];

	r->name = name;
	r->hash = FNV1A32_INIT;
	r->rows = 0;
	r->cols = count_words(cols);
	ksnprintf(line, sizeof(line), "@bench %s", name);
	record_line(r, line);
	format_env(line, sizeof(line), extra_env);
	record_line(r, line);
	ksnprintf(line, sizeof(line), "@cols %s", cols);
	record_line(r, line);
}

void benchrec_row(struct benchrec *r, const char *fmt, ...)
{
	char line[LINE_MAX_LEN] = "@row ";
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(line + 5, sizeof(line) - 5, fmt, ap);
	va_end(ap);
	if (count_words(line + 5) != r->cols)
		pr_err("benchrec_row: %s: %u values for %u columns\n", r->name,
		       count_words(line + 5), r->cols);
	record_line(r, line);
	r->rows++;
}

void benchrec_end(struct benchrec *r)
{
	kprintf("@end %s %u %08x\n", r->name, r->rows, r->hash);
}

void bench_banner(const char *title)
{
	const char *hv = arch_hypervisor();

	kprintf("%s (in-kernel)\ncpu: %s\n", title, arch_cpu_name());
	if (!hv)
		kprintf("run: bare metal\n");
	else if (strncmp(hv, "TCG", 3) == 0)
		kprintf("run: emulated (TCG): compare ratios, not absolute times\n");
	else
		kprintf("run: under a hypervisor (%s): near-native, but other guests share the "
			"CPU\n",
			hv);
}

uint64_t bench_median(uint64_t *v, unsigned int n)
{
	for (unsigned int i = 1; i < n; i++)
		for (unsigned int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			uint64_t t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	return v[n / 2];
}
