/*
 * Bench records: the machine-readable form of every benchmark table,
 * printed next to the human one so a host tool (tools/benchrec) can turn
 * a serial log into CSV without scraping prose. One record per table:
 *
 *   @bench madvise_free
 *   @env source=kernel cpu="AMD EPYC 7B13" features=erms,fsrm clear_pages=stosb ...
 *   @cols folio[KiB] split[ms] batched[ms] change[%]
 *   @row 64 5.680 0.580 -89.8
 *   @row 1024 5.910 0.350 -94.0
 *   @end madvise_free 2 9c0f3a1e
 *
 * - Lines start with '@'; anything else between them (human tables, a
 *   stray printk) is ignored. A line may end in "\r" (serial).
 * - @env: key=value pairs, a value with spaces in double quotes. The keys
 *   every record carries are listed at benchrec_begin(); a benchmark may
 *   add its own parameters after them.
 * - @cols: the header, one NAME[UNIT] per column. UNIT "-" marks a text
 *   column; every other column holds numbers (decimal, optional sign and
 *   fraction).
 * - @row: one value per column, separated by single spaces; text values
 *   have no spaces.
 * - @end NAME ROWS HASH: ROWS is the number of @row lines; HASH is the
 *   FNV-1a 32-bit hash, 8 lowercase hex digits, of every record line from
 *   "@bench" through the last "@row", each without its line ending and
 *   followed by one "\n". A record without a matching @end is truncated;
 *   a wrong count or hash means the stream was corrupted in transit.
 */
#ifndef FOLIUM_BENCHREC_H
#define FOLIUM_BENCHREC_H

#include <stdint.h>

/* One record being printed. */
struct benchrec {
	const char *name;
	uint32_t hash; /* FNV-1a over the lines printed so far */
	unsigned int rows;
	unsigned int cols; /* @row checks its value count against this */
};

/*
 * Print "@bench name", the "@env" line and "@cols cols". The env line
 * holds, in this order: source (kernel|host), cpu (quoted), features (the
 * CPU features the benchmarks depend on: erms, fsrm; "none"), clear_pages
 * (stosb|stosq), tsc_hz (0: unknown), hypervisor (quoted: "none" or its
 * CPUID vendor, which may hold spaces: "Microsoft Hv"), emulated (yes under TCG, no otherwise),
 * mem_bytes (RAM the system has), version, max_page_order, pageblock_order, thp (y|n), thp_orders
 * (the enabled folio sizes, "64K,2M"; "none"), debug_vm (y|n); then extra_env if not NULL ("
 * key=value..." pairs of this benchmark).
 */
void benchrec_begin(struct benchrec *r, const char *name, const char *cols, const char *extra_env);
/* Print one "@row": fmt (kprintf's) must produce exactly r->cols values
 * separated by single spaces. A row that does not is still printed (the
 * host tool rejects the record) and an error names the benchmark. */
void benchrec_row(struct benchrec *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "@end name rows hash". */
void benchrec_end(struct benchrec *r);

/* FNV-1a 32 of n bytes, continuing from h (start: FNV1A32_INIT). */
#define FNV1A32_INIT 0x811c9dc5u
uint32_t fnv1a32(uint32_t h, const void *data, unsigned long n);

#endif
