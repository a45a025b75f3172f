/*
 * Memory compaction (mm/compaction.c; Linux: mm/compaction.c,
 * include/linux/compaction.h): make free blocks of a high order out of
 * fragmented memory by migrating movable folios from the low end of a zone
 * (the migrate scanner) into free pages taken from its high end (the free
 * scanner), until the scanners meet or a free block of the order asked for
 * exists. Movable folios are the anonymous ones (mm/migrate.c moves them
 * and their mappings through rmap); unmovable and reclaimable pages stay.
 * Triggered three ways, as in Linux: direct compaction from the allocation
 * slow path for costly orders (order > PAGE_ALLOC_COSTLY_ORDER), the shell's
 * `compact`, and writing /proc/sys/vm/compact_memory. Counters (vmstat):
 * compact_migrate_scanned, compact_free_scanned, compact_isolated,
 * compact_stall, compact_fail, compact_success.
 */
#ifndef FOLIUM_COMPACTION_H
#define FOLIUM_COMPACTION_H

#include <mm.h>

/* Linux: orders above this are "costly": worth compacting for. */
#define PAGE_ALLOC_COSTLY_ORDER 3

/* Linux: enum compact_result, the values Folium returns, in Linux's order:
 * direct compaction keeps the largest over the zones it tried. */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE, /* too little free memory to be worth it */
	COMPACT_SKIPPED,	   /* not run (e.g. below the watermark) */
	COMPACT_DEFERRED,	   /* not run: recent failures at this order */
	COMPACT_CONTINUE,	   /* internal: keep scanning */
	COMPACT_COMPLETE,	   /* the scanners met: the whole zone was tried */
	COMPACT_PARTIAL_SKIPPED,   /* the scanners met, skip hints cut the pass */
	COMPACT_CONTENDED,	   /* stopped: taking free pages would pass the min watermark */
	COMPACT_SUCCESS,	   /* a free block of the order exists now */
};

/* What one compaction pass did (summed into the vmstat counters). */
struct compact_stats {
	unsigned long migrate_scanned, free_scanned, isolated;
	unsigned long migrated; /* pages moved (pgmigrate_success) */
	unsigned long failed;	/* pages that could not move */
};

/*
 * Compact zone until a free block of order exists (order -1: the whole
 * zone, as compact_memory; no early stop). stats may be NULL.
 * Return: COMPACT_SUCCESS when the block exists (order >= 0), else why it
 * stopped. Context: process context, the zone's node registered.
 */
enum compact_result compact_zone_order(struct zone *zone, int order, struct compact_stats *stats);
/* Linux: compact_node. Every populated zone of the node, fully. */
void compact_node(struct pglist_data *pgdat, struct compact_stats *stats);
/* Linux: compact_nodes, behind /proc/sys/vm/compact_memory and `compact`. */
void compact_nodes(void);
/* Linux: fragmentation_index. Of 1000: how much a failure of order in zone
 * would be fragmentation (1000) rather than too little memory (0); -1000
 * when a free block of order exists. */
int fragmentation_index(const struct zone *zone, unsigned int order);
extern int sysctl_extfrag_threshold;	       /* /proc/sys/vm/extfrag_threshold, 0..1000 */
extern int sysctl_compact_unevictable_allowed; /* 0: mlocked folios stay put */
/* Forget the per-pageblock skip hints of zone (Linux:
 * __reset_isolation_suitable); a full pass resets them itself. */
void reset_isolation_suitable(struct zone *zone);
/* Return: whether compaction skips page's pageblock until the next reset
 * (Linux: get_pageblock_skip). */
bool get_pageblock_skip(const struct page *page);

/* --- direct compaction, for mm/page_alloc.c's slow path ------------------- */
/* Linux: enum compact_priority, how hard direct compaction tries. Folium
 * has Linux's two for allocations without __GFP_RETRY_MAYFAIL. */
enum compact_priority {
	COMPACT_PRIO_SYNC_LIGHT, /* every pageblock may be a source */
	COMPACT_PRIO_ASYNC,	 /* only pageblocks of the request's migratetype */
};
#define DEF_COMPACT_PRIORITY COMPACT_PRIO_SYNC_LIGHT
#define INIT_COMPACT_PRIORITY COMPACT_PRIO_ASYNC
/*
 * Linux: try_to_compact_pages. Compact the zones an allocation of gfp may
 * use on pgdat, in its zonelist order, until one holds a free block of
 * order; zones where compaction failed recently are deferred.
 * Return: the best result over the zones (COMPACT_SUCCESS: allocate now).
 */
enum compact_result try_to_compact_pages(struct pglist_data *pgdat, gfp_t gfp, unsigned int order,
					 enum compact_priority prio);
/* Linux: compaction_defer_reset. An allocation of order succeeded in zone
 * after compaction (alloc_success) or compaction expects it to. */
void compaction_defer_reset(struct zone *zone, int order, bool alloc_success);

#endif
