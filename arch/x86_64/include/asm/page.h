/* Page size and the direct map: physical address p is at virtual __va(p). */
#ifndef FOLIUM_ASM_PAGE_H
#define FOLIUM_ASM_PAGE_H

#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define PAGE_OFFSET 0xffff888000000000ul   /* direct map of all RAM */
#define VMEMMAP_START 0xffffea0000000000ul /* struct page array, by pfn */
#define KERNEL_VIRT_BASE 0xffffffff80000000ul

#define vmemmap ((struct page *)VMEMMAP_START)

#define __va(phys) ((void *)((uintptr_t)(phys) + PAGE_OFFSET))
#define __pa(virt) ((uintptr_t)(virt)-PAGE_OFFSET)

#endif
