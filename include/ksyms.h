/* The kernel's own symbol table, embedded at build time (tools/ksyms.sh). */
#ifndef FOLIUM_KSYMS_H
#define FOLIUM_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ksym {
	uint64_t addr;
	uint32_t name_offset; /* into the names blob */
};

/* Emitted by tools/ksyms.sh into the .ksyms section (empty on the host). */
extern const unsigned long ksyms_count;
extern const struct ksym ksyms_table[];
extern const char ksyms_names[];

struct ksym_table {
	unsigned long count;
	const struct ksym *syms; /* sorted by addr */
	const char *names;
	uint64_t text_end; /* first address past the last symbol's code */
};

/* Find the symbol containing addr. Return: its name, with *offset set, or
 * NULL when addr is before the first symbol or at/after text_end. */
const char *ksym_table_lookup(const struct ksym_table *t, uint64_t addr, uint64_t *offset);
/* ksym_table_lookup() on the kernel's own table. */
const char *ksym_lookup(uint64_t addr, uint64_t *offset);

#endif
