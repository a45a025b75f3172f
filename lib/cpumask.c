/*
 * CPU lists as sysfs prints and the command line takes them (Linux:
 * lib/bitmap-str.c's bitmap_print_to_pagebuf and bitmap_parselist).
 * Example: CPUs 0, 1, 2, 3 and 6 are "0-3,6".
 */
#include <cpumask.h>
#include <errno.h>

int cpumask_print_list(char *buf, size_t size, const struct cpumask *m)
{
	size_t len = 0;
	unsigned int cpu = cpumask_first(m);

	if (size)
		buf[0] = '\0';
	while (cpu < NR_CPUS && len + 1 < size) {
		unsigned int end = cpu;

		while (end + 1 < NR_CPUS && cpumask_test_cpu(end + 1, m))
			end++;
		len += (size_t)ksnprintf(buf + len, size - len, end > cpu ? "%s%u-%u" : "%s%u",
					 len ? "," : "", cpu, end);
		len = MIN(len, size - 1);
		cpu = cpumask_next((int)end, m);
	}
	return (int)len;
}

/* One CPU number at *s, advancing it. Return: -1 if none is there. */
static long parse_cpu(const char **s)
{
	long v = 0;

	if (**s < '0' || **s > '9')
		return -1;
	while (**s >= '0' && **s <= '9') {
		v = v * 10 + (**s - '0');
		if (v >= NR_CPUS)
			return -1;
		(*s)++;
	}
	return v;
}

int cpulist_parse(const char *s, struct cpumask *m)
{
	cpumask_clear(m);
	while (*s && *s != '\n') {
		long first = parse_cpu(&s), last = first;

		if (first < 0)
			return -EINVAL;
		if (*s == '-') {
			s++;
			last = parse_cpu(&s);
			if (last < first)
				return -EINVAL;
		}
		for (long c = first; c <= last; c++)
			cpumask_set_cpu((unsigned int)c, m);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return 0;
}
