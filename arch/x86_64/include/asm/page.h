/*
 * Page size and the kernel's virtual layout (Linux: arch/x86/include/asm/
 * page_64_types.h, pgtable_64_types.h, with 4-level paging):
 *   0x0000000000000000 - 0x00007fffffffffff  the user half, one per mm
 *   0xffff888000000000                        direct map of all RAM: __va(p)
 *   0xffffc90000000000 - 0xffffe8ffffffffff  vmalloc areas (32 TiB, 64 PML4
 *                                             entries whose PUD tables are
 *                                             made at boot, so every mm shares
 *                                             them: mm/vmalloc.c, paging.c)
 *   0xffffea0000000000                        struct page array (vmemmap)
 *   0xffffffff80000000                        the kernel image
 */
#ifndef FOLIUM_ASM_PAGE_H
#define FOLIUM_ASM_PAGE_H

#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define PAGE_OFFSET 0xffff888000000000ul	   /* direct map of all RAM */
#define VMEMMAP_START 0xffffea0000000000ul	   /* struct page array, by pfn */
#define VMALLOC_START 0xffffc90000000000ul	   /* Linux's, without KASLR */
#define VMALLOC_END (VMALLOC_START + (32ul << 40)) /* exclusive: Linux's VMALLOC_END + 1 */
#define KERNEL_VIRT_BASE 0xffffffff80000000ul

#define vmemmap ((struct page *)VMEMMAP_START)

#define __va(phys) ((void *)((uintptr_t)(phys) + PAGE_OFFSET))
#define __pa(virt) ((uintptr_t)(virt)-PAGE_OFFSET)

#endif
