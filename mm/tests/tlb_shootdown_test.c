/*
 * TLB shootdown on the host's model of four CPUs (arch/host/smp.c: an
 * IPI runs its handler on the target at once; arch/host/mmu.c: a TLB per
 * CPU). CPUs that have an mm loaded cache its translations; when CPU 0
 * changes the tables, mm/tlb.c must reach exactly the CPUs of
 * mm_cpumask, each flushing what its generation says. Each case fails if
 * a shootdown goes missing: another CPU would then read a freed page
 * through its stale entry, or write through a stale dirty entry after
 * MADV_FREE and lose the write to reclaim. Host only: it looks into the
 * model's TLBs. A = 1 GiB.
 */
#include <asm/mmu.h>
#include <ktest.h>
#include <smp.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define K64 0x10000ul
#define ALL (~0ul)

void host_smp_model_start(unsigned int nr_cpus);
void host_smp_model_stop(void);

static struct test_mm t;
static unsigned long saved_orders;
static bool have_cpus;

static int tlb_shootdown_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	have_cpus = false;
	if (test_node0_get(test, 256))
		return 0;
	host_smp_model_start(4);
	have_cpus = true;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	if (!t.mm)
		return 0;
	pgdat_set_lazyfree_reclaim(t.node);
	switch_mm(t.mm);
	thp_orders_enabled = 0;
	return 0;
}

static void tlb_shootdown_test_exit(struct kunit *test)
{
	thp_orders_enabled = saved_orders;
	host_cpu = 0;
	if (t.mm)
		test_mm_destroy(test, &t); /* every CPU leaves it first */
	for (unsigned int cpu = 0; have_cpus && cpu < 4; cpu++) {
		host_cpu = cpu;
		KUNIT_EXPECT_TRUE(test, current_mm == NULL);
	}
	host_cpu = 0;
	if (have_cpus) {
		host_smp_model_stop();
		test_node0_put(test);
	}
}

#define SKIP_WITHOUT_MM(test)   \
	do {                    \
		if (!t.mm)      \
			return; \
	} while (0)

static int read_byte(unsigned long addr)
{
	uint8_t c;

	return copy_from_user(&c, addr, 1) ? -1 : c;
}

/* Whether @cpu's TLB covers @addr. */
static bool cached_on(unsigned int cpu, unsigned long addr)
{
	unsigned int self = host_cpu;
	struct host_tlb_entry e;
	bool cached;

	host_cpu = cpu;
	cached = host_tlb_lookup(addr, &e);
	host_cpu = self;
	return cached;
}

/* @cpu loads the test's mm and reads @addr, caching its translation.
 * Return: the byte read. */
static int load_and_read_on(unsigned int cpu, unsigned long addr)
{
	int byte;

	host_cpu = cpu;
	if (current_mm != t.mm)
		switch_mm(t.mm);
	byte = read_byte(addr);
	host_cpu = 0;
	return byte;
}

static int read_on(unsigned int cpu, unsigned long addr)
{
	int byte;

	host_cpu = cpu;
	byte = read_byte(addr);
	host_cpu = 0;
	return byte;
}

/* MADV_DONTNEED on CPU 0 reaches CPUs 1 and 2, which have the mm loaded,
 * and not CPU 3, which has not: one IPI each, and their reads find
 * zeros, not the freed page. */
static void a_flush_reaches_every_cpu_that_has_the_mm_loaded(struct kunit *test)
{
	const unsigned long b = A + 2 * PAGE_SIZE;
	unsigned long got[4];

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 8 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, b), 0x5a);
	KUNIT_EXPECT_EQ(test, load_and_read_on(2, b), 0x5a);
	KUNIT_EXPECT_TRUE(test, cached_on(1, b) && cached_on(2, b));
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(1, mm_cpumask(t.mm)));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(3, mm_cpumask(t.mm)));
	for (int c = 0; c < 4; c++)
		got[c] = tlb_flush_ipis_received[c];
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, b, PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, tlb_flush_ipis_received[1], got[1] + 1);
	KUNIT_EXPECT_EQ(test, tlb_flush_ipis_received[2], got[2] + 1);
	KUNIT_EXPECT_EQ(test, tlb_flush_ipis_received[3], got[3]);
	KUNIT_EXPECT_FALSE(test, cached_on(0, b) || cached_on(1, b) || cached_on(2, b));
	KUNIT_EXPECT_EQ(test, read_on(1, b), 0);
	KUNIT_EXPECT_EQ(test, read_on(2, b), 0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* A CPU that loaded another mm left mm_cpumask: no IPI for it; its CR3
 * load dropped the entries, so coming back it faults on the unmapped
 * page instead of reading it. */
static void a_cpu_that_switched_away_gets_no_ipi(struct kunit *test)
{
	const unsigned long b = A + PAGE_SIZE;
	unsigned long got;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 4 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, b), 0x5a);
	host_cpu = 1;
	switch_mm(NULL);
	host_cpu = 0;
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(1, mm_cpumask(t.mm)));
	got = tlb_flush_ipis_received[1];
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, b, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, tlb_flush_ipis_received[1], got);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, b), -1);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, A), 0x5a);
}

/* CPU 1 wrote a page (its entry cached dirty); CPU 0's MADV_FREE must
 * drop that entry, so CPU 1's next write walks and sets D in the PTE,
 * and reclaim keeps the written folio instead of freeing it. */
static void a_write_on_another_cpu_after_madv_free_survives_reclaim(struct kunit *test)
{
	const unsigned long b = A + K64 + 0x123;
	uint8_t one = 0x22;
	struct folio *written;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 2 * K64, 0x11);
	host_cpu = 1;
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, copy_to_user(b, &one, 1), 0);
	host_cpu = 0;
	written = test_mapped_folio(t.mm, b);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 2 * K64, MADV_FREE), 0);
	KUNIT_EXPECT_FALSE(test, cached_on(1, b));
	host_cpu = 1;
	one = 0x33;
	KUNIT_EXPECT_EQ(test, copy_to_user(b, &one, 1), 0);
	host_cpu = 0;
	KUNIT_EXPECT_TRUE(test, pte_dirty(*mm_find_pte(t.mm, b)));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 16);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, b) == written);
	KUNIT_EXPECT_EQ(test, read_on(1, b), 0x33);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, K64, 0));
}

/* The ceiling holds on every CPU: a 4-page request is four invlpg there
 * too (CPU 1's other entries stay), a 64-page one a full flush (they
 * go); each request bumps tlb_gen once and leaves CPU 1 caught up. */
static void remote_cpus_follow_the_ceiling_and_the_generation(struct kunit *test)
{
	const unsigned long kept = A + 100 * PAGE_SIZE;
	uint64_t gen;

	SKIP_WITHOUT_MM(test);
	test_map_and_fill(test, t.mm, A, 128 * PAGE_SIZE, 0x5a);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, kept), 0x5a);
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, A), 0x5a);
	gen = t.mm->tlb_gen;
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, t.mm->tlb_gen, gen + 1);
	KUNIT_EXPECT_EQ(test, per_cpu(cpu_tlbstate, 1).loaded_mm_tlb_gen, t.mm->tlb_gen);
	KUNIT_EXPECT_FALSE(test, cached_on(1, A));
	KUNIT_EXPECT_TRUE(test, cached_on(1, kept));
	KUNIT_EXPECT_EQ(test, load_and_read_on(1, A + 8 * PAGE_SIZE), 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 8 * PAGE_SIZE, 64 * PAGE_SIZE, MADV_DONTNEED),
			0);
	KUNIT_EXPECT_EQ(test, t.mm->tlb_gen, gen + 2);
	KUNIT_EXPECT_EQ(test, per_cpu(cpu_tlbstate, 1).loaded_mm_tlb_gen, gen + 2);
	KUNIT_EXPECT_FALSE(test, cached_on(1, kept));
	KUNIT_EXPECT_FALSE(test, cached_on(1, A + 8 * PAGE_SIZE));
	KUNIT_EXPECT_EQ(test, read_on(1, A + 8 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, read_on(1, kept), 0x5a);
}

/* Reclaim's deferred flush: CPU 1 caches four clean, old lazyfree 64K
 * folios; CPU 0 reclaims them with one batched shootdown (one IPI to
 * CPU 1, not four), before the pages are freed, so CPU 1 then reads
 * zeros. Young is cleared without a flush, as x86 Linux does. */
static void reclaim_shoots_down_once_per_batch(struct kunit *test)
{
	unsigned long got, batches;

	SKIP_WITHOUT_MM(test);
	if (test_skip_without_thp(test))
		return;
	thp_orders_enabled = 1ul << 4;
	test_map_and_fill(test, t.mm, A, 4 * K64, 0x5a);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * K64, MADV_FREE), 0);
	for (unsigned long f = A; f < A + 4 * K64; f += K64) {
		KUNIT_EXPECT_EQ(test, load_and_read_on(1, f), 0x5a);
		clear_young_dirty_ptes(t.mm, f, mm_find_pte(t.mm, f), 16, CYDP_CLEAR_YOUNG);
		KUNIT_EXPECT_TRUE(test, cached_on(1, f));
	}
	got = tlb_flush_ipis_received[1];
	batches = nr_tlb_batch_flushes;
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, ALL), 4 * 16);
	KUNIT_EXPECT_EQ(test, nr_tlb_batch_flushes - batches, 1ul);
	KUNIT_EXPECT_EQ(test, tlb_flush_ipis_received[1] - got, 1ul);
	for (unsigned long f = A; f < A + 4 * K64; f += K64) {
		KUNIT_EXPECT_FALSE(test, cached_on(1, f));
		KUNIT_EXPECT_EQ(test, read_on(1, f), 0);
	}
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* mm_destroy first makes every CPU that has the mm loaded leave it. */
static void a_destroyed_mm_is_loaded_nowhere(struct kunit *test)
{
	struct mm_struct *other;

	SKIP_WITHOUT_MM(test);
	other = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, other);
	host_cpu = 2;
	switch_mm(other);
	host_cpu = 0;
	KUNIT_EXPECT_TRUE(test, per_cpu(cpu_tlbstate, 2).loaded_mm == other);
	mm_destroy(other);
	KUNIT_EXPECT_TRUE(test, per_cpu(cpu_tlbstate, 2).loaded_mm == NULL);
	KUNIT_EXPECT_TRUE(test, per_cpu(cpu_tlbstate, 0).loaded_mm == t.mm);
}

static struct kunit_case tlb_shootdown_cases[] = {
	KUNIT_CASE(a_flush_reaches_every_cpu_that_has_the_mm_loaded),
	KUNIT_CASE(a_cpu_that_switched_away_gets_no_ipi),
	KUNIT_CASE(a_write_on_another_cpu_after_madv_free_survives_reclaim),
	KUNIT_CASE(remote_cpus_follow_the_ceiling_and_the_generation),
	KUNIT_CASE(reclaim_shoots_down_once_per_batch),
	KUNIT_CASE(a_destroyed_mm_is_loaded_nowhere),
	{},
};

static struct kunit_suite tlb_shootdown_suite = {
	.name = "tlb_shootdown",
	.init = tlb_shootdown_test_init,
	.exit = tlb_shootdown_test_exit,
	.test_cases = tlb_shootdown_cases,
};
kunit_test_suite(tlb_shootdown_suite);
