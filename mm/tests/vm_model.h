/*
 * A byte model of four anonymous VMAs for random operation sequences:
 * write (fill_user), MADV_FREE, MADV_DONTNEED, lazyfree reclaim,
 * compaction, mprotect away and back, mremap away and back,
 * fork (dup_mmap, then writes and reads in the child too),
 * child exit (the next fork's) and read, each checked against what every
 * byte may read, with the batched and per-page forms of fork, zap and
 * reuse and the whole-folio copy on write switched at random. After each
 * step every folio's mapcounts are checked against the entries rmap
 * finds (total, PMD leaves, each mm's MM-ID slot, "maybe mapped shared"
 * exact with two mms), and every writable entry must map an
 * anon-exclusive page, no page both mms map may be one. On the host the
 * steps may run on any of nr_cpus modelled CPUs, each with its own TLB.
 * Driven by a PRNG (the seeded ktest) or by fuzzer bytes (fuzz_vm); both
 * share this code, so a fuzzer crash replays as a seed-free input and a
 * ktest failure prints its seed and step.
 */
#ifndef FOLIUM_VM_MODEL_H
#define FOLIUM_VM_MODEL_H

#include <vm.h>

/* The modelled span: [VM_MODEL_BASE, VM_MODEL_BASE + VM_MODEL_SPAN). */
#define VM_MODEL_BASE 0x40000000ul
#define VM_MODEL_SPAN 0x700000ul
/* Bytes per model cell: writes and reads are cell-granular. */
#define VM_MODEL_CELL 64

struct vm_model {
	struct mm_struct *mm;
	struct mm_struct *child; /* forked from mm by op_fork, or NULL */
	struct pglist_data *node;
	const uint8_t *data; /* fuzzer bytes, or NULL: use the PRNG */
	size_t len, pos;
	uint64_t state; /* xorshift64 state (seed) */
	unsigned long step;
	/* CPUs the steps move between (1 unless the caller raises it after
	 * vm_model_init; only the host's model of CPUs can: each loads the
	 * mm on its first step there, keeps its own TLB, and the others'
	 * changes must shoot its stale entries down). */
	unsigned int nr_cpus;
	char err[256]; /* the first violation */
};

/*
 * Map the four VMAs in mm (current, empty, tables on node) and reset the
 * model; thp_orders_enabled gets a random set. Take decisions from
 * data[0..len) when data is set, else from a PRNG seeded with seed.
 * Return: 0, or -1 with m->err set.
 */
int vm_model_init(struct vm_model *m, struct mm_struct *mm, struct pglist_data *node, uint64_t seed,
		  const uint8_t *data, size_t len);
/* One random operation, then buddy_check and a random read. Return: 0,
 * or -1 with m->err naming the operation and step. */
int vm_model_step(struct vm_model *m);
/* Return: true when fuzzer bytes are used up (never for the PRNG). */
bool vm_model_exhausted(const struct vm_model *m);
/* Read every mapped byte, of the mm and of the forked child if there is
 * one, and compare. Return: 0, or -1 with m->err. */
int vm_model_check_all(struct vm_model *m);
/* Destroy the forked child, if there is one (before the mm's node goes). */
void vm_model_fini(struct vm_model *m);

#endif
