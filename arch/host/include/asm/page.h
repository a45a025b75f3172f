/*
 * Host build: "physical memory" is one large shared mapping of a memfd made
 * at start-up (arch/host/phys.c) and touched only where used, so physical
 * address p lives at host_phys_base + p, and the vmemmap array is a
 * second reservation indexed by pfn, exactly as in the kernel. The
 * vmalloc range is a third reservation, inaccessible but where a page is
 * mapped (arch_map_kernel_page: the arena is a memfd, so the page's file
 * offset mmap'ed there is the same memory as its __va address).
 */
#ifndef FOLIUM_ASM_PAGE_H
#define FOLIUM_ASM_PAGE_H

#include <stdint.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1ul << PAGE_SHIFT)

extern uintptr_t host_phys_base;
extern struct page *host_vmemmap;
#define PAGE_OFFSET host_phys_base
#define vmemmap host_vmemmap

extern uintptr_t host_vmalloc_base;
#define VMALLOC_START host_vmalloc_base
#define VMALLOC_END (host_vmalloc_base + HOST_VMALLOC_SIZE)

#define __va(phys) ((void *)((uintptr_t)(phys) + host_phys_base))
#define __pa(virt) ((uintptr_t)(virt)-host_phys_base)

/* Size of the simulated physical address space (holes cost nothing). */
#define HOST_PHYS_SIZE (64ull << 30)
/* Size of the simulated vmalloc range (the kernel's is 32 TiB). */
#define HOST_VMALLOC_SIZE (1ul << 30)

#endif
