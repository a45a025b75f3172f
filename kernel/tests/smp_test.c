/*
 * Cross-CPU function calls and the CPU masks. In the kernel the calls go
 * to the CPUs the boot started (make test boots with -smp 2 and 4 too);
 * on the host they go to arch/host/smp.c's model of four CPUs, which
 * delivers each IPI on its target at once. Either way a call must run on
 * the CPU it names, once, and the caller must wait for it when asked.
 */
#include <arch.h>
#include <errno.h>
#include <ktest.h>
#include <smp.h>
#include <asm/processor.h>

#ifdef FOLIUM_HOST
#include "../../mm/tests/mm_test_util.h"

void host_smp_model_start(unsigned int nr_cpus);
void host_smp_model_stop(void);

/* The host's model: four CPUs, all online, their call data on a node 0
 * of the test's, which must get every page back. */
static int smp_test_init(struct kunit *test)
{
	if (test_node0_get(test, 256))
		return 0;
	host_smp_model_start(4);
	return 0;
}

static void smp_test_exit(struct kunit *test)
{
	host_smp_model_stop();
	test_node0_put(test);
}
#else
static int smp_test_init(struct kunit *test)
{
	(void)test;
	return 0;
}

static void smp_test_exit(struct kunit *test)
{
	(void)test;
}
#endif

static void cpu_lists_print_and_parse_as_linux(struct kunit *test)
{
	struct cpumask m;
	char buf[64];

	cpumask_clear(&m);
	KUNIT_EXPECT_EQ(test, cpumask_print_list(buf, sizeof(buf), &m), 0);
	KUNIT_EXPECT_STREQ(test, buf, "");
	KUNIT_ASSERT_EQ(test, cpulist_parse("0-3,6", &m), 0);
	KUNIT_EXPECT_EQ(test, cpumask_weight(&m), 5);
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(3, &m));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(4, &m));
	cpumask_set_cpu(8, &m);
	cpumask_set_cpu(9, &m);
	KUNIT_EXPECT_EQ(test, cpumask_print_list(buf, sizeof(buf), &m), 9);
	KUNIT_EXPECT_STREQ(test, buf, "0-3,6,8-9");
	cpumask_print_list(buf, 5, &m); /* cut, still a string */
	KUNIT_EXPECT_STREQ(test, buf, "0-3,");
	KUNIT_ASSERT_EQ(test, cpulist_parse("5\n", &m), 0);
	KUNIT_EXPECT_EQ(test, cpumask_first(&m), 5);
	KUNIT_EXPECT_EQ(test, cpulist_parse("3-1", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpulist_parse("1,x", &m), -EINVAL);
	KUNIT_EXPECT_EQ(test, cpulist_parse("-2", &m), -EINVAL);
	ksnprintf(buf, sizeof(buf), "%d", NR_CPUS);
	KUNIT_EXPECT_EQ(test, cpulist_parse(buf, &m), -EINVAL);
}

static void record_cpu(void *info)
{
	*(volatile unsigned int *)info = smp_processor_id() + 1;
}

/* A call runs on the CPU it names, the caller's own included; a CPU that
 * is not online takes none. */
static void a_call_runs_on_the_cpu_it_names(struct kunit *test)
{
	unsigned int cpu, offline = NR_CPUS;

	for (unsigned int c = 0; c < NR_CPUS; c++)
		if (!cpu_online(c))
			offline = c;
	for_each_online_cpu(cpu)
	{
		unsigned int ran_on = 0;

		KUNIT_ASSERT_EQ(test, smp_call_function_single(cpu, record_cpu, &ran_on, true), 0);
		KUNIT_EXPECT_EQ(test, ran_on, cpu + 1);
	}
	if (offline < NR_CPUS) {
		unsigned int ran_on = 0;

		KUNIT_EXPECT_EQ(test, smp_call_function_single(offline, record_cpu, &ran_on, true),
				-ENXIO);
		KUNIT_EXPECT_EQ(test, ran_on, 0);
	}
}

static unsigned int calls_on[NR_CPUS];

static void count_call(void *info)
{
	(void)info;
	__atomic_fetch_add(&calls_on[smp_processor_id()], 1, __ATOMIC_SEQ_CST);
}

/* smp_call_function_many: once on every other online CPU, never on the
 * caller's; on_each_cpu: once on each, the caller's too. */
static void a_call_to_many_runs_once_on_each_other_cpu(struct kunit *test)
{
	unsigned int self = smp_processor_id(), cpu;

	memset(calls_on, 0, sizeof(calls_on));
	smp_call_function_many(cpu_online_mask, count_call, NULL, true);
	for_each_online_cpu(cpu) KUNIT_EXPECT_EQ(test, calls_on[cpu], cpu == self ? 0u : 1u);
	on_each_cpu(count_call, NULL, true);
	for_each_online_cpu(cpu) KUNIT_EXPECT_EQ(test, calls_on[cpu], cpu == self ? 1u : 2u);
	for (cpu = 0; cpu < NR_CPUS; cpu++)
		if (!cpu_online(cpu))
			KUNIT_EXPECT_EQ(test, calls_on[cpu], 0u);
}

/* Without wait the caller goes on; the call still runs, once, and the
 * target counts the IPI that brought it. */
static void an_async_call_runs_and_is_counted(struct kunit *test)
{
	unsigned int self = smp_processor_id(), cpu;

	for_each_online_cpu(cpu)
	{
		volatile unsigned int ran_on = 0;
		unsigned long ipis = irq_call_count[cpu];
		uint64_t start = arch_uptime_ns();

		if (cpu == self)
			continue;
		KUNIT_ASSERT_EQ(
			test, smp_call_function_single(cpu, record_cpu, (void *)&ran_on, false), 0);
		while (!ran_on && arch_uptime_ns() - start < 2000000000ull)
			cpu_relax();
		KUNIT_EXPECT_EQ(test, ran_on, cpu + 1);
		KUNIT_EXPECT_GT(test, irq_call_count[cpu], ipis);
	}
}

static struct kunit_case smp_cases[] = {
	KUNIT_CASE(cpu_lists_print_and_parse_as_linux),
	KUNIT_CASE(a_call_runs_on_the_cpu_it_names),
	KUNIT_CASE(a_call_to_many_runs_once_on_each_other_cpu),
	KUNIT_CASE(an_async_call_runs_and_is_counted),
	{},
};

static struct kunit_suite smp_suite = {
	.name = "smp",
	.init = smp_test_init,
	.exit = smp_test_exit,
	.test_cases = smp_cases,
};
kunit_test_suite(smp_suite);
