/*
 * /proc/cpuinfo for the one CPU (Linux: arch/x86/kernel/cpu/proc.c,
 * show_cpuinfo): the fields a program parses, from cpu_detect()'s
 * results and CPUID, with Linux's names for the feature bits
 * (x86_cap_flags). Example: "processor\t: 0", "model name\t: QEMU
 * Virtual CPU version 2.5+", "flags\t\t: fpu ... sse2 ... erms".
 */
#include <seq_file.h>
#include <smp.h>
#include "x86.h"

static void cpuid_regs(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

/* Linux's flag names, by CPUID word and bit (arch/x86/include/asm/cpufeatures.h). */
struct cap_flag {
	uint32_t leaf;
	uint8_t reg; /* 1 ebx, 2 ecx, 3 edx */
	uint8_t bit;
	const char *name;
};

/* clang-format off */
static const struct cap_flag cap_flags[] = {
	{ 1, 3, 0, "fpu" }, { 1, 3, 1, "vme" }, { 1, 3, 2, "de" }, { 1, 3, 3, "pse" },
	{ 1, 3, 4, "tsc" }, { 1, 3, 5, "msr" }, { 1, 3, 6, "pae" }, { 1, 3, 7, "mce" },
	{ 1, 3, 8, "cx8" }, { 1, 3, 9, "apic" }, { 1, 3, 11, "sep" }, { 1, 3, 12, "mtrr" },
	{ 1, 3, 13, "pge" }, { 1, 3, 14, "mca" }, { 1, 3, 15, "cmov" }, { 1, 3, 16, "pat" },
	{ 1, 3, 17, "pse36" }, { 1, 3, 19, "clflush" }, { 1, 3, 23, "mmx" }, { 1, 3, 24, "fxsr" },
	{ 1, 3, 25, "sse" }, { 1, 3, 26, "sse2" }, { 1, 3, 27, "ss" }, { 1, 3, 28, "ht" },
	{ 0x80000001, 3, 11, "syscall" }, { 0x80000001, 3, 20, "nx" },
	{ 0x80000001, 3, 26, "pdpe1gb" }, { 0x80000001, 3, 27, "rdtscp" },
	{ 0x80000001, 3, 29, "lm" },
	{ 1, 2, 0, "pni" }, { 1, 2, 1, "pclmulqdq" }, { 1, 2, 9, "ssse3" }, { 1, 2, 12, "fma" },
	{ 1, 2, 13, "cx16" }, { 1, 2, 19, "sse4_1" }, { 1, 2, 20, "sse4_2" },
	{ 1, 2, 21, "x2apic" }, { 1, 2, 22, "movbe" }, { 1, 2, 23, "popcnt" },
	{ 1, 2, 24, "tsc_deadline_timer" }, { 1, 2, 25, "aes" }, { 1, 2, 26, "xsave" },
	{ 1, 2, 28, "avx" }, { 1, 2, 29, "f16c" }, { 1, 2, 30, "rdrand" },
	{ 1, 2, 31, "hypervisor" },
	{ 0x80000001, 2, 0, "lahf_lm" }, { 0x80000001, 2, 5, "abm" },
	{ 7, 1, 0, "fsgsbase" }, { 7, 1, 3, "bmi1" }, { 7, 1, 5, "avx2" }, { 7, 1, 7, "smep" },
	{ 7, 1, 8, "bmi2" }, { 7, 1, 9, "erms" }, { 7, 1, 10, "invpcid" },
	{ 7, 1, 18, "rdseed" }, { 7, 1, 19, "adx" }, { 7, 1, 20, "smap" },
	{ 7, 1, 23, "clflushopt" }, { 7, 1, 29, "sha_ni" }, { 7, 2, 2, "umip" },
	{ 7, 2, 16, "la57" }, { 7, 3, 4, "fsrm" },
};
/* clang-format on */

static void show_flags(struct seq_file *m, uint32_t max_leaf)
{
	uint32_t r[4], max_ext;

	cpuid_regs(0x80000000, 0, r);
	max_ext = r[0];
	seq_puts(m, "flags\t\t:");
	for (unsigned int i = 0; i < ARRAY_SIZE(cap_flags); i++) {
		const struct cap_flag *f = &cap_flags[i];

		if (f->leaf < 0x80000000 ? f->leaf > max_leaf : f->leaf > max_ext)
			continue;
		cpuid_regs(f->leaf, 0, r);
		if (r[f->reg] & (1u << f->bit))
			seq_printf(m, " %s", f->name);
	}
	seq_putc(m, '\n');
}

/* Linux: show_cpuinfo for one CPU. Every CPU is the boot CPU's model
 * (QEMU's and a PC's CPUs are alike), so the CPUID fields are read here;
 * the numbers are the CPU's own: processor, apicid. One package, one
 * thread per core: siblings and cpu cores are the CPUs online. */
static void show_cpuinfo(struct seq_file *m, unsigned int nr, uint32_t apic_id)
{
	uint32_t r[4];

	cpuid_regs(0, 0, r);
	seq_printf(m, "processor\t: %u\nvendor_id\t: %s\n", nr, cpu.vendor);
	seq_printf(m, "cpu family\t: %u\nmodel\t\t: %u\n", cpu.family, cpu.model);
	seq_printf(m, "model name\t: %s\n", cpu.brand[0] ? cpu.brand : "unknown");
	seq_printf(m, "stepping\t: %u\n", cpu.stepping);
	seq_printf(m, "cpu MHz\t\t: %llu.%03llu\n", (unsigned long long)(tsc_hz / 1000000),
		   (unsigned long long)(tsc_hz / 1000 % 1000));
	seq_printf(m, "physical id\t: 0\nsiblings\t: %u\ncore id\t\t: %u\ncpu cores\t: %u\n",
		   num_online_cpus(), nr, num_online_cpus());
	seq_printf(m, "apicid\t\t: %u\ninitial apicid\t: %u\nfpu\t\t: yes\n", apic_id, apic_id);
	seq_printf(m, "fpu_exception\t: yes\ncpuid level\t: %u\nwp\t\t: yes\n", r[0]);
	show_flags(m, r[0]);
	seq_printf(m, "bogomips\t: %llu.%02llu\n", (unsigned long long)(tsc_hz / 500000),
		   (unsigned long long)(tsc_hz / 5000 % 100));
	seq_printf(m, "clflush size\t: 64\ncache_alignment\t: 64\n");
	seq_printf(m, "address sizes\t: %u bits physical, %u bits virtual\n", cpu.phys_addr_bits,
		   cpu.virt_addr_bits);
	seq_printf(m, "power management:\n\n");
}

/* Linux: c_start/c_next over the online CPUs. */
int cpuinfo_proc_show(struct seq_file *m, void *v)
{
	unsigned int nr;

	(void)v;
	for_each_online_cpu(nr)
		show_cpuinfo(m, nr, per_cpu_area[nr] ? per_cpu_area[nr]->apic_id : 0);
	return 0;
}
