/*
 * libFuzzer target for virtual memory: each input drives the byte model
 * of vm_model.c (write, MADV_FREE split or batched, MADV_DONTNEED,
 * lazyfree reclaim, compaction, reads, mTHP order sets) over four VMAs of
 * a fresh mm on a fresh 16 MiB node; the input's bytes are the model's
 * decisions, so libFuzzer steers towards new paths in madvise, reclaim,
 * compaction and the fault code. After every step buddy_check() and a read; at the end every byte
 * is read back, the mm destroyed, and every page must be free again.
 * With FOLIUM_FUZZ_CPUS the steps run on several modelled CPUs. A
 * violation abort()s with the model's message (step, address, values).
 */
#include <stdio.h>
#include <stdlib.h>
#include "../internal.h"
#include "vm_model.h"

#define FUZZ_NID 1
#define FUZZ_PAGES (4 * MAX_ORDER_NR_PAGES)
#define FUZZ_START PHYS_PFN(8ull << 30)
#define FUZZ_MAX_STEPS 2000

static struct pglist_data pgdat;
static uint8_t pageblock_flags[4096];
static void die(const char *what, const char *err)
{
	fprintf(stderr, "fuzz_vm: %s: %s\n", what, err);
	abort();
}

static void check_node_empty(void)
{
	char err[256];

	drain_node_pages(&pgdat);
	if (buddy_check(&pgdat, err, sizeof(err)))
		die("after mm_destroy", err);
	if (node_free_pages(&pgdat) != FUZZ_PAGES) {
		snprintf(err, sizeof(err), "%lu of %lu pages free", node_free_pages(&pgdat),
			 (unsigned long)FUZZ_PAGES);
		die("after mm_destroy", err);
	}
}

/* Node 0, for what kmalloc serves: the CPU model's call data. */
#define FUZZ_NODE0_START PHYS_PFN(12ull << 30)
#define FUZZ_NODE0_PAGES 512
static struct pglist_data node0;
static uint8_t node0_pageblock_flags[4096];
static unsigned int fuzz_cpus = 1;

void host_smp_model_start(unsigned int nr_cpus);

/* FOLIUM_FUZZ_CPUS=N (1..8): the steps move between N CPUs of the host's
 * model, each with its own TLB, so a missing TLB shootdown reads stale
 * bytes somewhere (make fuzz-smoke runs 1, 2 and 4). */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *cpus = getenv("FOLIUM_FUZZ_CPUS");

	(void)argc, (void)argv;
	if (cpus) {
		fuzz_cpus = (unsigned int)atoi(cpus);
		if (fuzz_cpus < 1 || fuzz_cpus > 8)
			die("FOLIUM_FUZZ_CPUS", "wants 1..8");
	}
	if (fuzz_cpus > 1) {
		pgdat_init(&node0, 0, FUZZ_NODE0_START, FUZZ_NODE0_START + FUZZ_NODE0_PAGES,
			   node0_pageblock_flags);
		free_pfn_range_to_buddy(FUZZ_NODE0_START, FUZZ_NODE0_START + FUZZ_NODE0_PAGES);
		host_smp_model_start(fuzz_cpus);
		fprintf(stderr, "fuzz_vm: steps on %u CPUs of the host's model\n", fuzz_cpus);
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vm_model model;
	struct mm_struct *mm;

	/* Compaction moves anonymous folios through this hook (the kernel's
	 * thp_init sets it at boot). */
	set_migrate_folio_hook(anon_migrate_folio);
	pgdat_init(&pgdat, FUZZ_NID, FUZZ_START, FUZZ_START + FUZZ_PAGES, pageblock_flags);
	free_pfn_range_to_buddy(FUZZ_START, FUZZ_START + FUZZ_PAGES);
	mm = mm_create(FUZZ_NID);
	if (!mm)
		die("mm_create", "no memory");
	switch_mm(mm);
	if (vm_model_init(&model, mm, &pgdat, 0, data, size))
		die("init", model.err);
	model.nr_cpus = fuzz_cpus;
	while (!vm_model_exhausted(&model) && model.step < FUZZ_MAX_STEPS)
		if (vm_model_step(&model))
			die("step", model.err);
	if (vm_model_check_all(&model))
		die("final read", model.err);
	vm_model_fini(&model); /* back on CPU 0 */
	switch_mm(NULL);
	mm_destroy(mm); /* every other CPU leaves it first */
	check_node_empty();
	pgdat_destroy(&pgdat);
	return 0;
}
