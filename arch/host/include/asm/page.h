/* Host build: "physical" addresses are plain process addresses. */
#ifndef FOLIUM_ASM_PAGE_H
#define FOLIUM_ASM_PAGE_H

#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)
#define PAGE_OFFSET 0ul

#define __va(phys) ((void *)(uintptr_t)(phys))
#define __pa(virt) ((uintptr_t)(virt))

#endif
