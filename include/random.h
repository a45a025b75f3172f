/*
 * Random numbers (Linux: drivers/char/random.c). A ChaCha20 generator
 * (RFC 8439) keyed once, at the first request, from the CPU's RDSEED or
 * RDRAND, or TSC jitter without them; every request rekeys it first
 * (fast key erasure), so a later key reveals no earlier output. Example:
 * get_random_bytes(buf, 16) for exec's AT_RANDOM; getrandom(2) for libc.
 */
#ifndef FOLIUM_RANDOM_H
#define FOLIUM_RANDOM_H

#include <kernel.h>

#define GRND_NONBLOCK 0x0001
#define GRND_RANDOM 0x0002
#define GRND_INSECURE 0x0004

/* --- kernel/random.c ---------------------------------------------------------- */
/* Fill buf with len random bytes. Context: any, after arch_setup. */
void get_random_bytes(void *buf, size_t len);
/* The ChaCha20 block function (RFC 8439 2.3): 64 bytes of key stream for
 * key (8 words), block counter and nonce (3 words). Exported for its
 * known-answer test. */
void chacha20_block(const uint32_t key[8], uint32_t counter, const uint32_t nonce[3],
		    uint8_t out[64]);

/* --- arch/x86_64/random.c (Linux: asm/archrandom.h) ------------------------------ */
/* Fill up to max_longs words from RDSEED (seed) or RDRAND. Return: how
 * many were filled; 0 when the CPU lacks the instruction or it keeps
 * failing. */
size_t arch_get_random_seed_longs(unsigned long *v, size_t max_longs);
size_t arch_get_random_longs(unsigned long *v, size_t max_longs);

#endif
