/*
 * Per-CPU variables (Linux: include/linux/percpu-defs.h): each CPU has
 * its own copy, so a CPU updates its counters without a lock and
 * without bouncing a cache line between CPUs. Linux lays every CPU's
 * copies out in a per-CPU area and reaches this CPU's through a segment
 * base; Folium keeps one array per variable, each CPU's slot on a cache
 * line of its own, indexed by smp_processor_id(). The names are Linux's
 * (this_cpu_inc(x), per_cpu(x, 2)), but per_cpu_ptr and this_cpu_ptr
 * take the variable's name where Linux takes its address. A shared
 * variable is DECLARE_PER_CPU'd in a header and DEFINE_PER_CPU'd in one
 * file that includes it; a file's own is DEFINE_PER_CPU_STATIC.
 * this_cpu_* read and write this CPU's copy: the caller keeps the task
 * on this CPU meanwhile (interrupts off, or code that never sleeps).
 */
#ifndef FOLIUM_PERCPU_H
#define FOLIUM_PERCPU_H

#include <cpumask.h>
#include <asm/smp.h>

#define SMP_CACHE_BYTES 64

#define DECLARE_PER_CPU(type, name) \
	extern struct {             \
		type v;             \
	} __attribute__((aligned(SMP_CACHE_BYTES))) name##__per_cpu[NR_CPUS]
#define DEFINE_PER_CPU(type, name) __typeof__(name##__per_cpu) name##__per_cpu
#define DEFINE_PER_CPU_STATIC(type, name) \
	static struct {                   \
		type v;                   \
	} __attribute__((aligned(SMP_CACHE_BYTES))) name##__per_cpu[NR_CPUS]

#define per_cpu(name, cpu) (name##__per_cpu[(cpu)].v)
#define per_cpu_ptr(name, cpu) (&per_cpu(name, cpu))
#define this_cpu_ptr(name) per_cpu_ptr(name, smp_processor_id())
#define this_cpu_read(name) per_cpu(name, smp_processor_id())
#define this_cpu_write(name, val) (per_cpu(name, smp_processor_id()) = (val))
#define this_cpu_add(name, val) (per_cpu(name, smp_processor_id()) += (val))
#define this_cpu_inc(name) this_cpu_add(name, 1)
#define this_cpu_dec(name) this_cpu_add(name, -1)

#endif
