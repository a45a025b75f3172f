/*
 * The page-table entry format, x86_64 4-level paging (SDM vol. 3A, 4.5).
 * It is data both arches share: the kernel's tables are read by the CPU,
 * the host's by arch/host's software MMU, which walks them the same way.
 *
 *  63  62..52  51..12       11  10..9  8  7   6  5  4   3   2  1  0
 *  NX  avail   phys addr    SD  avail  G  PS  D  A  PCD PWT US RW P
 *
 * PS is set in a PDPT entry for a 1 GiB page and in a PD entry for a
 * 2 MiB page; in a 4 KiB PTE bit 7 is PAT. In large pages PAT is bit 12.
 * SD, soft-dirty, is a bit the CPU ignores (Linux: _PAGE_BIT_SOFT_DIRTY =
 * _PAGE_BIT_SOFTW3, bit 11, in PTEs and PMD leaves alike): set with D by
 * every write fault, cleared by /proc/PID/clear_refs.
 */
#ifndef FOLIUM_PGTABLE_BITS_H
#define FOLIUM_PGTABLE_BITS_H

#include <stdint.h>

#define _PAGE_PRESENT (1ull << 0)
#define _PAGE_RW (1ull << 1)
#define _PAGE_USER (1ull << 2)
#define _PAGE_PWT (1ull << 3)
#define _PAGE_PCD (1ull << 4)
#define _PAGE_ACCESSED (1ull << 5)
#define _PAGE_DIRTY (1ull << 6)
#define _PAGE_PSE (1ull << 7)
#define _PAGE_GLOBAL (1ull << 8)
#define _PAGE_SOFT_DIRTY (1ull << 11)
#define _PAGE_NX (1ull << 63)
#define PTE_ADDR_MASK 0x000ffffffffff000ull

#define PTRS_PER_TABLE 512
#define PGDIR_SHIFT 39
#define PUD_SHIFT 30
#define PMD_SHIFT 21

#endif
