/*
 * elf_check: validate a kernel ELF image before anything trusts it.
 * Pure C (no libc, no firmware types): the loader, the kernel and the host
 * unit tests compile the same file. A layout is only filled in for an image
 * that passed every check, so its numbers can be used without re-checking.
 */
#ifndef FOLIUM_ELF_CHECK_H
#define FOLIUM_ELF_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define ELF_KERNEL_BASE 0xffffffff80000000ull /* lowest allowed vaddr */
#define ELF_MAX_SPAN (64ull << 20)	      /* vaddr_end - vaddr_start limit */
#define ELF_MAX_LOAD 16			      /* PT_LOAD segments kept */

#define ELF_PF_X 0x1
#define ELF_PF_W 0x2
#define ELF_PF_R 0x4

/* One PT_LOAD segment: file bytes [offset, +filesz) go to [vaddr, +filesz),
 * the rest of [vaddr, +memsz) is zero. */
struct elf_segment {
	uint64_t offset;
	uint64_t filesz;
	uint64_t vaddr;
	uint64_t memsz;
	uint32_t flags;	     /* ELF_PF_* */
	uint32_t phdr_index; /* index in the program header table */
};

struct elf_layout {
	uint64_t vaddr_start; /* lowest PT_LOAD vaddr, rounded down to 4 KiB */
	uint64_t vaddr_end;   /* highest PT_LOAD end, rounded up to 4 KiB */
	uint64_t entry;	      /* e_entry, inside an executable segment */
	uint32_t nr_segments;
	struct elf_segment segments[ELF_MAX_LOAD]; /* in program header order */
};

/**
 * elf_check - check that @image is a loadable Folium kernel and describe it.
 * @image: the whole file, @size bytes; need not be aligned.
 * @out: filled only on success.
 * @err: on failure, a one-line NUL-terminated reason (truncated to @errlen),
 *       e.g. "segments 1 and 2 overlap". May be NULL when @errlen is 0.
 *
 * PT_LOAD segments with memsz 0 are ignored; other program headers are not
 * looked at beyond their type.
 * Return: 0 if the image is valid, -1 otherwise.
 */
int elf_check(const void *image, size_t size, struct elf_layout *out, char *err, size_t errlen);

#endif
