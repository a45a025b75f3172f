/*
 * Sets of CPUs (Linux: include/linux/cpumask.h): a bitmap of NR_CPUS
 * bits. The kernel keeps three: possible (CPUs that may ever run, fixed
 * at boot: nr_cpu_ids is one past the highest), present (CPUs the
 * firmware listed and Folium may start) and online (CPUs running now).
 * Always online ⊆ present ⊆ possible. Example: `-smp 4` with maxcpus=2:
 * possible and present 0-3, online 0-1.
 */
#ifndef FOLIUM_CPUMASK_H
#define FOLIUM_CPUMASK_H

#include <bitmap.h>
#include <kernel.h>

#define NR_CPUS CONFIG_NR_CPUS

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
typedef struct cpumask cpumask_t;

extern struct cpumask __cpu_possible_mask, __cpu_present_mask, __cpu_online_mask;
#define cpu_possible_mask ((const struct cpumask *)&__cpu_possible_mask)
#define cpu_present_mask ((const struct cpumask *)&__cpu_present_mask)
#define cpu_online_mask ((const struct cpumask *)&__cpu_online_mask)
/* One past the highest possible CPU number (Linux: nr_cpu_ids). */
extern unsigned int nr_cpu_ids;

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return cpu < NR_CPUS && test_bit(cpu, m->bits);
}

/* Atomic: CPUs set and clear their own bits in shared masks. */
static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_or(&m->bits[cpu / BITS_PER_LONG], 1ul << (cpu % BITS_PER_LONG),
			  __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	__atomic_fetch_and(&m->bits[cpu / BITS_PER_LONG], ~(1ul << (cpu % BITS_PER_LONG)),
			   __ATOMIC_SEQ_CST);
}

static inline void cpumask_clear(struct cpumask *m)
{
	memset(m, 0, sizeof(*m));
}

static inline void cpumask_copy(struct cpumask *dst, const struct cpumask *src)
{
	*dst = *src;
}

/* Return: whether the result has any CPU (Linux: cpumask_and). */
static inline bool cpumask_and(struct cpumask *dst, const struct cpumask *a,
			       const struct cpumask *b)
{
	unsigned long any = 0;

	for (size_t i = 0; i < ARRAY_SIZE(dst->bits); i++)
		any |= dst->bits[i] = a->bits[i] & b->bits[i];
	return any != 0;
}

static inline void cpumask_or(struct cpumask *dst, const struct cpumask *a, const struct cpumask *b)
{
	for (size_t i = 0; i < ARRAY_SIZE(dst->bits); i++)
		dst->bits[i] = a->bits[i] | b->bits[i];
}

static inline bool cpumask_empty(const struct cpumask *m)
{
	for (size_t i = 0; i < ARRAY_SIZE(m->bits); i++)
		if (m->bits[i])
			return false;
	return true;
}

static inline unsigned int cpumask_weight(const struct cpumask *m)
{
	unsigned int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(m->bits); i++)
		n += (unsigned int)__builtin_popcountl(m->bits[i]);
	return n;
}

/* Return: the first CPU after @cpu in @m (-1 starts at 0), or NR_CPUS. */
static inline unsigned int cpumask_next(int cpu, const struct cpumask *m)
{
	for (unsigned int c = (unsigned int)(cpu + 1); c < NR_CPUS; c++)
		if (test_bit(c, m->bits))
			return c;
	return NR_CPUS;
}

#define cpumask_first(m) cpumask_next(-1, (m))
#define for_each_cpu(cpu, mask) \
	for ((cpu) = cpumask_first(mask); (cpu) < NR_CPUS; (cpu) = cpumask_next((cpu), (mask)))
#define for_each_possible_cpu(cpu) for_each_cpu((cpu), cpu_possible_mask)
#define for_each_present_cpu(cpu) for_each_cpu((cpu), cpu_present_mask)
#define for_each_online_cpu(cpu) for_each_cpu((cpu), cpu_online_mask)
#define cpu_online(cpu) cpumask_test_cpu((cpu), cpu_online_mask)
#define cpu_present(cpu) cpumask_test_cpu((cpu), cpu_present_mask)
#define cpu_possible(cpu) cpumask_test_cpu((cpu), cpu_possible_mask)
#define num_online_cpus() cpumask_weight(cpu_online_mask)
#define num_present_cpus() cpumask_weight(cpu_present_mask)
#define num_possible_cpus() cpumask_weight(cpu_possible_mask)

/* Linux: cpumap_print_list_to_buf / bitmap_print_to_pagebuf(true, ...):
 * ranges, comma-separated ("0-3,6"; "" for none) into @buf. Return: the
 * length written (cut to @size - 1). */
int cpumask_print_list(char *buf, size_t size, const struct cpumask *m);
/* Linux: cpulist_parse. Read a list like "0-2,5" into @m. Return: 0, or
 * -EINVAL for a malformed list or a CPU past NR_CPUS - 1. */
int cpulist_parse(const char *s, struct cpumask *m);

#endif
