/*
 * Tunables under /proc/sys (Linux: include/linux/sysctl.h). A subsystem
 * describes its files in a table of struct ctl_table, next to the
 * variables they set, and registers it once at file scope:
 *
 *     static const struct ctl_table vm_compaction[] = {
 *             { .procname = "extfrag_threshold", .data = &sysctl_extfrag_threshold,
 *               .maxlen = sizeof(int), .mode = 0644,
 *               .proc_handler = proc_dointvec_minmax,
 *               .extra1 = SYSCTL_ZERO, .extra2 = SYSCTL_ONE_THOUSAND },
 *     };
 *     SYSCTL_TABLE("vm", vm_compaction);
 *
 * /proc/sys/vm/extfrag_threshold then reads "500\n" and takes a write of
 * "700" (fs/proc/proc_sysctl.c makes the files at boot). The handlers
 * work on kernel buffers, as Linux's do since 5.8: on a read, print at
 * most *lenp bytes into buffer; on a write, buffer holds the *lenp bytes
 * written, NUL-terminated. Either way *lenp becomes the bytes used and
 * *ppos advances by them. Return: 0 or -errno (Linux: proc_handler).
 */
#ifndef FOLIUM_SYSCTL_H
#define FOLIUM_SYSCTL_H

#include <kernel.h>

struct ctl_table;
typedef int proc_handler(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			 uint64_t *ppos);

struct ctl_table {
	const char *procname; /* the file's name in its directory */
	void *data;	      /* the variable (or array) the handler reads and sets */
	int maxlen;	      /* its size in bytes: an array of maxlen/sizeof(int) ints */
	uint16_t mode;	      /* permission bits, checked as Linux's proc_sys_permission */
	proc_handler *proc_handler;
	const void *extra1, *extra2; /* the minmax handlers' bounds (inclusive) */
};

/* One registered table: its directory under /proc/sys ("vm") and its
 * entries (Linux: register_sysctl_init's path and table). */
struct ctl_table_header {
	const char *path;
	const struct ctl_table *table;
	size_t size;
};

#define SYSCTL_TABLE(dir, tbl)                                                            \
	static const struct ctl_table_header __sysctl_header_##tbl = { dir, tbl,          \
								       ARRAY_SIZE(tbl) }; \
	static const struct ctl_table_header *__sysctl_header_ptr_##tbl                   \
		__attribute__((used, section("sysctl_tables"))) = &__sysctl_header_##tbl

/* Return: the nth registered table (link order), or NULL past the last. */
const struct ctl_table_header *sysctl_table_nth(size_t n);
/* Return: the entry dir/name ("vm", "max_map_count"), or NULL. */
const struct ctl_table *sysctl_find(const char *dir, const char *name);

/* Linux's bounds for the minmax handlers (sysctl_vals). */
extern const int sysctl_vals[];
#define SYSCTL_ZERO ((const void *)&sysctl_vals[0])
#define SYSCTL_ONE ((const void *)&sysctl_vals[1])
#define SYSCTL_TWO ((const void *)&sysctl_vals[2])
#define SYSCTL_FOUR ((const void *)&sysctl_vals[3])
#define SYSCTL_ONE_HUNDRED ((const void *)&sysctl_vals[4])
#define SYSCTL_ONE_THOUSAND ((const void *)&sysctl_vals[5])
#define SYSCTL_THREE_THOUSAND ((const void *)&sysctl_vals[6])
#define SYSCTL_INT_MAX ((const void *)&sysctl_vals[7])

/* Linux's handlers (kernel/sysctl.c). A write reads whitespace-separated
 * numbers, each as strtoul with base 0 ("0x10" is 16), one per element
 * of data; the rest of the write is left unread (a short write count).
 * A value out of the type's range or of [*extra1, *extra2] is -EINVAL and
 * nothing is stored; so is a write with no number. A write at a nonzero
 * offset is ignored whole (Linux's default sysctl_writes_strict). A read
 * prints the elements tab-separated and a newline, and reads nothing
 * past offset 0. */
int proc_dointvec(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
		  uint64_t *ppos);
int proc_dointvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			 uint64_t *ppos);
int proc_douintvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			  uint64_t *ppos);
/* extra1/extra2 point to unsigned longs here. */
int proc_doulongvec_minmax(const struct ctl_table *table, int write, char *buffer, size_t *lenp,
			   uint64_t *ppos);

#endif
