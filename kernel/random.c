/*
 * The kernel's random numbers and getrandom (Linux: drivers/char/
 * random.c, lib/crypto/chacha.c). One ChaCha20 key (RFC 8439) is seeded
 * at the first request from RDSEED/RDRAND, or TSC jitter without them.
 * Each request first draws one block under that key: its first half
 * becomes the new key, its second half the request's own key, whose
 * stream (counter 0, 1, ...) is the output (Linux: crng_fast_key_erasure).
 * Example: get_random_bytes(buf, 100) = 1 block to rekey + 2 blocks of
 * the request key's stream, 100 of their 128 bytes.
 */
#include <arch.h>
#include <random.h>
#include <syscalls.h>
#include <vm.h>

#ifndef MAX_RW_COUNT
#define MAX_RW_COUNT 0x7ffff000 /* Linux: INT_MAX & PAGE_MASK, one read's cap */
#endif
#define CHACHA_BLOCK_SIZE 64

static uint32_t crng_key[8];
static bool crng_ready;

static inline uint32_t rol32(uint32_t v, unsigned int n)
{
	return (v << n) | (v >> (32 - n));
}

/* RFC 8439 2.1: the quarter round on four words of the state. */
#define QUARTERROUND(x, a, b, c, d)                          \
	do {                                                 \
		x[a] += x[b], x[d] = rol32(x[d] ^ x[a], 16); \
		x[c] += x[d], x[b] = rol32(x[b] ^ x[c], 12); \
		x[a] += x[b], x[d] = rol32(x[d] ^ x[a], 8);  \
		x[c] += x[d], x[b] = rol32(x[b] ^ x[c], 7);  \
	} while (0)

/* State: "expand 32-byte k", key, counter, nonce; 10 double rounds
 * (columns, then diagonals); the input added back; little-endian out. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64])
{
	uint32_t in[16] = { 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574 }, x[16];

	memcpy(&in[4], key, 32);
	in[12] = counter;
	memcpy(&in[13], nonce, 12);
	memcpy(x, in, sizeof(x));
	for (int i = 0; i < 10; i++) {
		QUARTERROUND(x, 0, 4, 8, 12);
		QUARTERROUND(x, 1, 5, 9, 13);
		QUARTERROUND(x, 2, 6, 10, 14);
		QUARTERROUND(x, 3, 7, 11, 15);
		QUARTERROUND(x, 0, 5, 10, 15);
		QUARTERROUND(x, 1, 6, 11, 12);
		QUARTERROUND(x, 2, 7, 8, 13);
		QUARTERROUND(x, 3, 4, 9, 14);
	}
	for (int i = 0; i < 16; i++) {
		uint32_t v = x[i] + in[i];

		out[4 * i] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

/* Keep the compiler from dropping the wipe of a dead buffer (Linux:
 * memzero_explicit). */
static void memzero_explicit(void *p, size_t len)
{
	memset(p, 0, len);
	__asm__ volatile("" : : "r"(p) : "memory");
}

/* Without RDSEED/RDRAND: the low bits of the cycle counter around a
 * little memory work vary from read to read (weak under emulation,
 * where the TSC follows a virtual clock; said at seeding). */
static unsigned long tsc_jitter_long(void)
{
	static volatile uint8_t scratch[4096];
	unsigned long v = 0;

	for (int i = 0; i < 64; i++) {
		uint64_t t = arch_cycles();

		scratch[(t * 67) % sizeof(scratch)] += (uint8_t)t;
		v = (v << 7 | v >> 57) ^ t;
	}
	return v;
}

static void crng_seed(void)
{
	unsigned long seed[4];
	size_t n = arch_get_random_seed_longs(seed, 4);

	if (n < 4)
		n += arch_get_random_longs(seed + n, 4 - n);
	if (n < 4)
		pr_warn("random: no RDSEED/RDRAND; seeding from TSC jitter\n");
	for (; n < 4; n++)
		seed[n] = tsc_jitter_long();
	seed[0] ^= arch_cycles(); /* two boots never share a key */
	memcpy(crng_key, seed, sizeof(crng_key));
	memzero_explicit(seed, sizeof(seed));
	crng_ready = true;
}

void get_random_bytes(void *buf, size_t len)
{
	static const uint32_t nonce[3];
	uint8_t block[CHACHA_BLOCK_SIZE];
	uint32_t key[8];
	unsigned long flags = arch_irq_save();

	if (!crng_ready)
		crng_seed();
	chacha20_block(crng_key, 0, nonce, block);
	memcpy(crng_key, block, sizeof(crng_key));
	memcpy(key, block + 32, sizeof(key));
	arch_irq_restore(flags);
	for (uint32_t counter = 0; len; counter++) {
		size_t n = MIN(len, sizeof(block));

		chacha20_block(key, counter, nonce, block);
		memcpy(buf, block, n);
		buf = (uint8_t *)buf + n;
		len -= n;
	}
	memzero_explicit(block, sizeof(block));
	memzero_explicit(key, sizeof(key));
}

/* Copy what copy_to_user could not copy whole, byte by byte. Return: how
 * many bytes of src reached dst. */
static size_t copy_to_user_partial(unsigned long dst, const uint8_t *src, size_t len)
{
	size_t done = 0;

	while (done < len && !copy_to_user(dst + done, src + done, 1))
		done++;
	return done;
}

/*
 * Linux: sys_getrandom. Unknown flags, or GRND_INSECURE with GRND_RANDOM,
 * are -EINVAL. The generator is ready from its first use, so no flag ever
 * waits or gets -EAGAIN. len is capped to MAX_RW_COUNT; a fault part-way
 * returns the bytes copied before it, -EFAULT if none were.
 */
SYSCALL_DEFINE3(getrandom, unsigned long, ubuf, size_t, len, unsigned int, flags)
{
	uint8_t chunk[512];
	size_t done = 0;

	if (flags & ~(unsigned int)(GRND_NONBLOCK | GRND_RANDOM | GRND_INSECURE))
		return -EINVAL;
	if ((flags & (GRND_INSECURE | GRND_RANDOM)) == (GRND_INSECURE | GRND_RANDOM))
		return -EINVAL;
	len = MIN(len, (size_t)MAX_RW_COUNT);
	if (ubuf + len < ubuf || ubuf + len > USER_VA_END)
		return -EFAULT; /* Linux: access_ok in import_single_range */
	while (done < len) {
		size_t n = MIN(len - done, sizeof(chunk));

		get_random_bytes(chunk, n);
		if (copy_to_user(ubuf + done, chunk, n)) {
			done += copy_to_user_partial(ubuf + done, chunk, n);
			break;
		}
		done += n;
	}
	memzero_explicit(chunk, sizeof(chunk));
	return done || !len ? (long)done : -EFAULT;
}
