/*
 * RDSEED and RDRAND (Linux: arch/x86/include/asm/archrandom.h): each
 * gives 64 bits with CF=1, or CF=0 when the DRNG is momentarily empty,
 * so a read is retried RDRAND_RETRY_LOOPS times. CPUID.1:ECX bit 30 is
 * RDRAND, CPUID.(7,0):EBX bit 18 RDSEED; both #UD on a CPU without them,
 * hence the probe. Example: QEMU -cpu max has both.
 */
#include <random.h>

#define RDRAND_RETRY_LOOPS 10

static bool probed, has_rdrand, has_rdseed;

static void cpuid(uint32_t leaf, uint32_t r[4])
{
	__asm__ volatile("cpuid"
			 : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3])
			 : "a"(leaf), "c"(0));
}

static void probe(void)
{
	uint32_t r[4];

	cpuid(0, r);
	if (r[0] >= 7) {
		uint32_t max = r[0];

		cpuid(7, r);
		has_rdseed = max >= 7 && (r[1] & (1u << 18));
	}
	cpuid(1, r);
	has_rdrand = r[2] & (1u << 30);
	probed = true;
}

static bool rdseed_long(unsigned long *v)
{
	for (int i = 0; i < RDRAND_RETRY_LOOPS; i++) {
		bool ok;

		__asm__ volatile("rdseed %0; setc %1" : "=r"(*v), "=qm"(ok));
		if (ok)
			return true;
	}
	return false;
}

static bool rdrand_long(unsigned long *v)
{
	for (int i = 0; i < RDRAND_RETRY_LOOPS; i++) {
		bool ok;

		__asm__ volatile("rdrand %0; setc %1" : "=r"(*v), "=qm"(ok));
		if (ok)
			return true;
	}
	return false;
}

size_t arch_get_random_seed_longs(unsigned long *v, size_t max_longs)
{
	size_t n = 0;

	if (!probed)
		probe();
	while (has_rdseed && n < max_longs && rdseed_long(&v[n]))
		n++;
	return n;
}

size_t arch_get_random_longs(unsigned long *v, size_t max_longs)
{
	size_t n = 0;

	if (!probed)
		probe();
	while (has_rdrand && n < max_longs && rdrand_long(&v[n]))
		n++;
	return n;
}
