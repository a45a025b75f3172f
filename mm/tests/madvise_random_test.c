/*
 * Random sequences of write / MADV_FREE / MADV_DONTNEED / lazyfree
 * reclaim / compaction / read over four VMAs, checked against the byte
 * model in vm_model.c after every step (buddy_check and a random read), for a few
 * fixed seeds; every seed gets its own node and mm, and must give every
 * page back. A failure names the seed and step: rerun that seed alone by
 * putting it first in `seeds`. Fewer steps in the kernel, where each one
 * takes real faults under emulation.
 */
#include <ktest.h>
#include <vm.h>
#include "mm_test_util.h"
#include "vm_model.h"

#ifdef FOLIUM_HOST
#define NR_SEEDS 8
#define NR_STEPS 1000
#else
#define NR_SEEDS 2
#define NR_STEPS 300
#endif

static const uint64_t seeds[8] = {
	0x5eed0001, 0x9e3779b97f4a7c15ull, 0x1234567,	    0xdeadbeefcafeull, 0x42,
	0xfeedface, 0x0badc0de5eedull,	   0x7777777777ull,
};

#ifdef FOLIUM_HOST
void host_smp_model_start(unsigned int nr_cpus);
void host_smp_model_stop(void);
#endif

/* Run one seed on a fresh node and mm, on @nr_cpus CPUs (host only above
 * one). Return: false after a failure. */
static bool run_seed(struct kunit *test, uint64_t seed, unsigned int steps, unsigned int nr_cpus)
{
	struct mm_struct *prev_mm = current_mm;
	struct vm_model model;
	struct test_mm t;
	int ret;

	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return false;
	switch_mm(t.mm);
	ret = vm_model_init(&model, t.mm, t.node, seed, NULL, 0);
	model.nr_cpus = nr_cpus;
	for (unsigned int i = 0; i < steps && !ret; i++)
		ret = vm_model_step(&model);
	if (!ret)
		ret = vm_model_check_all(&model);
	if (ret)
		kunit_fail(test, __FILE__, __LINE__, "seed %#llx on %u CPU(s): %s",
			   (unsigned long long)seed, nr_cpus, model.err);
	vm_model_fini(&model);
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
	return !ret && !test->failed;
}

static void madvise_random_sequences_match_byte_model(struct kunit *test)
{
	unsigned long saved_orders = thp_orders_enabled;
	enum lazyfree_mode saved_mode = lazyfree_mode;
	/* Compaction moves anonymous folios through this hook (thp_init's). */
	migrate_folio_fn saved_hook = set_migrate_folio_hook(anon_migrate_folio);

	for (unsigned int s = 0; s < NR_SEEDS; s++)
		if (!run_seed(test, seeds[s], NR_STEPS, 1))
			break;
#ifdef FOLIUM_HOST
	/* Half the seeds again with the steps spread over two and four
	 * CPUs of the host's model, each caching translations in its TLB. */
	if (!test->failed && !test_node0_get(test, 256)) {
		for (unsigned int s = 0; s < NR_SEEDS / 2 && !test->failed; s++) {
			host_smp_model_start(2 + 2 * (s & 1));
			run_seed(test, seeds[s], NR_STEPS, 2 + 2 * (s & 1));
			host_smp_model_stop();
		}
		test_node0_put(test);
	}
#endif
	thp_orders_enabled = saved_orders;
	lazyfree_mode = saved_mode;
	set_migrate_folio_hook(saved_hook);
}

static struct kunit_case madvise_random_test_cases[] = {
	KUNIT_CASE(madvise_random_sequences_match_byte_model),
	{},
};

static struct kunit_suite madvise_random_test_suite = {
	.name = "madvise_random",
	.test_cases = madvise_random_test_cases,
};
kunit_test_suite(madvise_random_test_suite);
