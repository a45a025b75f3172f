/*
 * What the host process runs on, read with CPUID as the kernel does
 * (arch/x86_64/cpu.c): the brand string, the hypervisor's vendor and the
 * clearing features, so host-native benchmark records name their machine.
 * The TSC rate comes from /proc/cpuinfo's "cpu MHz", the kernel's figure.
 */
#define _GNU_SOURCE
#include <arch.h>
#include <cpuid.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char brand[49];
static char hypervisor[13];

const char *arch_cpu_name(void)
{
	unsigned int r[12];

	if (brand[0])
		return brand;
	if ((unsigned int)__get_cpuid_max(0x80000000, NULL) < 0x80000004u)
		return "unknown x86-64 CPU";
	for (unsigned int i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
	memcpy(brand, r, 48);
	/* Brand strings are padded with spaces on either side. */
	for (size_t n = strlen(brand); n && brand[n - 1] == ' '; n--)
		brand[n - 1] = '\0';
	return brand + strspn(brand, " ");
}

const char *arch_hypervisor(void)
{
	unsigned int a, b, c, d;

	__cpuid(1, a, b, c, d);
	if (!(c & (1u << 31)))
		return NULL;
	__cpuid(0x40000000, a, b, c, d);
	memcpy(hypervisor, &b, 4);
	memcpy(hypervisor + 4, &c, 4);
	memcpy(hypervisor + 8, &d, 4);
	return hypervisor;
}

static uint64_t cpuinfo_tsc_hz(void)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	double mhz = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)(mhz * 1e6);
}

void arch_machine_info(struct arch_machine_info *info)
{
	unsigned int a = 0, b = 0, c = 0, d = 0;
	bool erms, fsrm;

	if ((unsigned int)__get_cpuid_max(0, NULL) >= 7u)
		__cpuid_count(7, 0, a, b, c, d);
	erms = b & (1u << 9);
	fsrm = d & (1u << 4);
	info->source = "host";
	info->features = erms ? (fsrm ? "erms,fsrm" : "erms") : fsrm ? "fsrm" : "none";
	info->tsc_hz = cpuinfo_tsc_hz();
	info->ram_bytes = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
}
