/*
 * CPUID feature detection. Bits are from the SDM vol. 2A (CPUID) and AMD
 * APM vol. 3: leaf 1 ECX/EDX, leaf 7 EBX/ECX/EDX, leaf 0x80000001 EDX,
 * leaf 0x80000007 EDX. QEMU's default CPU model hides ERMS and FSRM; the
 * test runner pins -cpu max so rep stosb is exercised.
 */
#include "x86.h"

struct cpu_features cpu;

void cpuid_count(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(sub));
}

static void copy_regs(char *dst, const uint32_t *regs, int n)
{
	memcpy(dst, regs, 4 * n);
	dst[4 * n] = '\0';
}

static void detect_identity(uint32_t max_leaf, uint32_t max_ext)
{
	uint32_t r[4];

	cpuid_count(0, 0, r);
	uint32_t vendor[3] = { r[1], r[3], r[2] }; /* EBX, EDX, ECX */
	copy_regs(cpu.vendor, vendor, 3);
	cpuid_count(1, 0, r);
	cpu.stepping = r[0] & 0xf;
	cpu.model = (r[0] >> 4) & 0xf;
	cpu.family = (r[0] >> 8) & 0xf;
	if (cpu.family == 0xf)
		cpu.family += (r[0] >> 20) & 0xff;
	if (cpu.family >= 6)
		cpu.model |= ((r[0] >> 16) & 0xf) << 4;
	if (max_ext >= 0x80000004) {
		uint32_t brand[12];

		for (int i = 0; i < 3; i++)
			cpuid_count(0x80000002 + i, 0, &brand[4 * i]);
		copy_regs(cpu.brand, brand, 12);
	}
	(void)max_leaf;
}

void cpu_detect(void)
{
	uint32_t r[4], max_leaf, max_ext;

	cpuid_count(0, 0, r);
	max_leaf = r[0];
	cpuid_count(0x80000000, 0, r);
	max_ext = r[0];
	detect_identity(max_leaf, max_ext);

	cpuid_count(1, 0, r);
	cpu.hypervisor = r[2] & (1u << 31);
	cpu.x2apic = r[2] & (1u << 21);
	cpu.tsc_deadline = r[2] & (1u << 24);
	cpu.apic = r[3] & (1u << 9);
	cpu.pat = r[3] & (1u << 16);
	cpu.xsave = r[2] & (1u << 26);
	cpu.avx = r[2] & (1u << 28);
	if (max_leaf >= 7) {
		cpuid_count(7, 0, r);
		cpu.erms = r[1] & (1u << 9);
		cpu.smep = r[1] & (1u << 7);
		cpu.avx512f = r[1] & (1u << 16);
		cpu.la57 = r[2] & (1u << 16);
		cpu.fsrm = r[3] & (1u << 4);
	}
	if (max_leaf >= 0x15) {
		cpuid_count(0x15, 0, r);
		cpu.tsc_ratio_den = r[0];
		cpu.tsc_ratio_num = r[1];
		cpu.tsc_crystal_hz = r[2];
	}
	if (max_ext >= 0x80000001) {
		cpuid_count(0x80000001, 0, r);
		cpu.nx = r[3] & (1u << 20);
		cpu.pdpe1gb = r[3] & (1u << 26);
	}
	if (max_ext >= 0x80000007) {
		cpuid_count(0x80000007, 0, r);
		cpu.invariant_tsc = r[3] & (1u << 8);
	}
	if (max_ext >= 0x80000008) {
		cpuid_count(0x80000008, 0, r);
		cpu.phys_addr_bits = r[0] & 0xff;
		cpu.virt_addr_bits = (r[0] >> 8) & 0xff;
	}
	if (cpu.hypervisor) {
		cpuid_count(0x40000000, 0, r);
		uint32_t hv[3] = { r[1], r[2], r[3] };
		copy_regs(cpu.hypervisor_vendor, hv, 3);
	}
}
