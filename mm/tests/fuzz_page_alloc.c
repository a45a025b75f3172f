/*
 * libFuzzer target for the buddy allocator: each input is a program of
 * allocator operations on a fresh private node that spans 4 GiB (DMA32 and
 * Normal). Byte `op` picks: alloc (next two bytes: order, gfp bits), free a
 * slot, drain the pcp lists, or a refused misuse (double free, tail free).
 * buddy_check() runs after every operation; at the end everything is freed
 * and every page must be free again. A violation abort()s with the message.
 * Example input 00 02 41 | 03 00: alloc order 2 with __GFP_COMP|__GFP_MOVABLE
 * into slot 0, then free slot 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include "../internal.h"

#define FUZZ_NID 1
#define FUZZ_SLOTS 32
#define FUZZ_PAGES 1024ul
#define FUZZ_START (PHYS_PFN(4ull << 30) - FUZZ_PAGES / 2)

static struct pglist_data pgdat;
static uint8_t pageblock_flags[4096];
static struct slot {
	struct page *page;
	unsigned int order;
} slots[FUZZ_SLOTS];

static void check(const char *op, size_t at)
{
	char err[256];

	if (buddy_check(&pgdat, err, sizeof(err))) {
		fprintf(stderr, "fuzz_page_alloc: after %s at byte %zu: %s\n", op, at, err);
		abort();
	}
}

static void free_slot(struct slot *s)
{
	if (s->page)
		__free_pages(s->page, s->order);
	s->page = NULL;
}

/* The reclaim hook: give back the first slot in use, as reclaim would. */
static unsigned long fuzz_reclaim(struct pglist_data *p, unsigned int order, unsigned long nr_pages)
{
	for (int i = 0; i < FUZZ_SLOTS; i++) {
		if (slots[i].page) {
			unsigned long nr = 1ul << slots[i].order;

			free_slot(&slots[i]);
			return nr;
		}
	}
	return 0;
}

static void fuzz_alloc(struct slot *s, uint8_t order_byte, uint8_t gfp_byte)
{
	gfp_t gfp = (gfp_t)gfp_byte & (__GFP_DMA32 | __GFP_MOVABLE | __GFP_RECLAIMABLE |
				       __GFP_HIGH | __GFP_DIRECT_RECLAIM | __GFP_ZERO | __GFP_COMP);

	free_slot(s);
	if (gfp_byte & 0x80)
		gfp |= __GFP_HIGHATOMIC;
	s->order = order_byte % NR_PAGE_ORDERS;
	s->page = alloc_pages_node(FUZZ_NID, gfp | __GFP_NOWARN, s->order);
}

/* Misuse the allocator the way buggy callers do; it must refuse. */
static void fuzz_misuse(struct slot *s, uint8_t how)
{
	struct page *page = s->page;

	if (!page)
		return;
	if ((how & 1) && s->order && PageHead(page)) {
		__free_pages(page + 1, 0); /* a tail page */
		return;
	}
	free_slot(s);
	__free_pages(page, s->order); /* a double free */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i = 0;

	pgdat_init(&pgdat, FUZZ_NID, FUZZ_START, FUZZ_START + FUZZ_PAGES, pageblock_flags);
	free_pfn_range_to_buddy(FUZZ_START, FUZZ_START + FUZZ_PAGES);
	pgdat.reclaim = fuzz_reclaim;
	memset(slots, 0, sizeof(slots));
	while (i + 3 <= size) {
		uint8_t op = data[i], a = data[i + 1], b = data[i + 2];
		struct slot *s = &slots[a % FUZZ_SLOTS];
		static const char *const names[] = { "alloc", "alloc", "alloc",
						     "free",  "drain", "misuse" };

		switch (op % 6) {
		case 0:
		case 1:
		case 2:
			fuzz_alloc(&slots[op / 6 % FUZZ_SLOTS], a, b);
			break;
		case 3:
			free_slot(s);
			break;
		case 4:
			drain_node_pages(&pgdat);
			break;
		case 5:
			fuzz_misuse(s, b);
			break;
		}
		check(names[op % 6], i);
		i += (op % 6) < 3 ? 3 : 2;
	}
	for (int s = 0; s < FUZZ_SLOTS; s++)
		free_slot(&slots[s]);
	drain_node_pages(&pgdat);
	check("freeing everything", size);
	if (node_free_pages(&pgdat) != FUZZ_PAGES) {
		fprintf(stderr, "fuzz_page_alloc: %lu of %lu pages free after freeing everything\n",
			node_free_pages(&pgdat), FUZZ_PAGES);
		abort();
	}
	pgdat_destroy(&pgdat);
	return 0;
}
