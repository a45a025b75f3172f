/*
 * Symbol lookup for backtraces: binary search of a table sorted by address.
 * Example: symbols a at 0x100 and b at 0x180, text ends at 0x200:
 * 0x17f is a+0x7f, 0x180 is b+0x0, 0x200 is outside the text (NULL).
 */
#include <ksyms.h>

/* Defined by linker.ld in the kernel; absent (NULL) on the host. */
extern const char __text_end[] __attribute__((weak));

const char *ksym_table_lookup(const struct ksym_table *t, uint64_t addr, uint64_t *offset)
{
	unsigned long lo = 0, hi = t->count;

	if (t->count == 0 || addr < t->syms[0].addr || addr >= t->text_end)
		return NULL;
	/* Invariant: syms[lo].addr <= addr, and addr < syms[hi].addr if any. */
	while (hi - lo > 1) {
		unsigned long mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid;
	}
	*offset = addr - t->syms[lo].addr;
	return &t->names[t->syms[lo].name_offset];
}

const char *ksym_lookup(uint64_t addr, uint64_t *offset)
{
	const struct ksym_table kernel_table = {
		.count = ksyms_count,
		.syms = ksyms_table,
		.names = ksyms_names,
		.text_end = (uint64_t)(uintptr_t)__text_end,
	};

	return ksym_table_lookup(&kernel_table, addr, offset);
}
