/*
 * /bin/spin [N]: compute in ring 3 for N million rounds (default 20), long
 * enough for timer interrupts to arrive there, then print the result.
 * It proves the trap path from ring 3 (swapgs in and out, TSS.rsp0): a
 * wrong GS after an interrupt would break the write that follows.
 */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	unsigned long rounds = (argc > 1 ? strtoul(argv[1], NULL, 10) : 20) * 1000000ul;
	volatile unsigned long x = 1;

	for (unsigned long i = 0; i < rounds; i++)
		x = x * 6364136223846793005ul + 1442695040888963407ul;
	printf("spin: %lu million rounds, x = %016lx\n", rounds / 1000000, (unsigned long)x);
	return 0;
}
