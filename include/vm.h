/*
 * Virtual memory: address spaces (mm_struct, VMAs), 4-level page tables
 * and their accessors, TLB flushing, anonymous faults with large folios,
 * folio_zero_user, and access to the lower ("user") half. Grouped by the
 * file in mm/ that implements each declaration. Names follow Linux
 * (include/linux/mm.h, pgtable.h, huge_mm.h) so the two read side by side.
 *
 * The lower half of every address space belongs to test and benchmark
 * workloads; the kernel runs them in ring 0 on the mm's own tables, whose
 * upper half is shared with the kernel's. On the host the same tables are
 * walked by a software MMU (arch/host), so every test runs in both places.
 */
#ifndef FOLIUM_VM_H
#define FOLIUM_VM_H

#include <mm.h>
#include <percpu.h>
#include <pgtable_bits.h>

/* --- page-table entries (layout in <pgtable_bits.h>) ------------------------ */
typedef uint64_t pgd_t, pud_t, pmd_t, pte_t;

#define PMD_SIZE (1ul << PMD_SHIFT) /* 2 MiB */
#define PMD_MASK (~(PMD_SIZE - 1))
#define PUD_SIZE (1ul << PUD_SHIFT) /* 1 GiB */
#define PUD_MASK (~(PUD_SIZE - 1))
#define USER_VA_END 0x0000800000000000ul   /* end of the lower half */
#define USER_VA_START 0x0000000000010000ul /* [0, 64 KiB) stays unmapped: Linux's mmap_min_addr */

/* The accessor tables below read one per line, as in Linux's pgtable.h. */
/* clang-format off */
static inline unsigned int pgd_index(unsigned long a) { return (a >> PGDIR_SHIFT) & 511; }
static inline unsigned int pud_index(unsigned long a) { return (a >> PUD_SHIFT) & 511; }
static inline unsigned int pmd_index(unsigned long a) { return (a >> PMD_SHIFT) & 511; }
static inline unsigned int pte_index(unsigned long a) { return (a >> PAGE_SHIFT) & 511; }
/* clang-format on */

/* The end of the chunk of [addr, end) that one entry at this level
 * covers: the next boundary, or end. Linux: pgd_addr_end, pud_addr_end,
 * pmd_addr_end ("boundary - 1 < end - 1" also works when end is 0, the
 * top of the address space). Example: pmd_addr_end(0x201000, 0x800000)
 * = 0x400000. */
static inline unsigned long addr_end_at(unsigned long addr, unsigned long end, unsigned int shift)
{
	unsigned long boundary = (addr + (1ul << shift)) & ~((1ul << shift) - 1);

	return boundary - 1 < end - 1 ? boundary : end;
}
static inline unsigned long pgd_addr_end(unsigned long addr, unsigned long end)
{
	return addr_end_at(addr, end, PGDIR_SHIFT);
}
static inline unsigned long pud_addr_end(unsigned long addr, unsigned long end)
{
	return addr_end_at(addr, end, PUD_SHIFT);
}
static inline unsigned long pmd_addr_end(unsigned long addr, unsigned long end)
{
	return addr_end_at(addr, end, PMD_SHIFT);
}

/* PTE and PMD accessors, as Linux's pte_*() and pmd_*(). */
/* clang-format off */
static inline bool pte_none(pte_t pte) { return pte == 0; }
static inline bool pte_present(pte_t pte) { return pte & _PAGE_PRESENT; }
static inline bool pte_young(pte_t pte) { return pte & _PAGE_ACCESSED; }
static inline bool pte_dirty(pte_t pte) { return pte & _PAGE_DIRTY; }
static inline bool pte_write(pte_t pte) { return pte & _PAGE_RW; }
static inline unsigned long pte_pfn(pte_t pte) { return (pte & PTE_ADDR_MASK) >> PAGE_SHIFT; }
static inline pte_t pte_mkold(pte_t pte) { return pte & ~_PAGE_ACCESSED; }
static inline pte_t pte_mkyoung(pte_t pte) { return pte | _PAGE_ACCESSED; }
static inline pte_t pte_mkclean(pte_t pte) { return pte & ~_PAGE_DIRTY; }
/* x86's pte_mkdirty: every entry made dirty is soft-dirty too. */
static inline pte_t pte_mkdirty(pte_t pte) { return pte | _PAGE_DIRTY | _PAGE_SOFT_DIRTY; }
static inline bool pte_soft_dirty(pte_t pte) { return pte & _PAGE_SOFT_DIRTY; }
static inline pte_t pte_mksoft_dirty(pte_t pte) { return pte | _PAGE_SOFT_DIRTY; }
static inline pte_t pte_clear_soft_dirty(pte_t pte) { return pte & ~_PAGE_SOFT_DIRTY; }
static inline pte_t pte_mkwrite(pte_t pte) { return pte | _PAGE_RW; }
static inline pte_t pte_wrprotect(pte_t pte) { return pte & ~_PAGE_RW; }
/* clang-format on */
/*
 * A PTE marker: a non-present entry that maps nothing and is no swap
 * entry (Folium has no swap, so every non-present, non-none PTE is a
 * marker). The one kind is Linux's PTE_MARKER_GUARD (MADV_GUARD_INSTALL):
 * any access to its page raises SIGSEGV. It lives in a software bit the
 * MMU ignores while the entry is not present:
 *   63..10 0   9 marker guard   8..1 0   0 present = 0
 * Linux: make_pte_marker, is_pte_marker, is_guard_pte_marker.
 */
#define PTE_MARKER_GUARD (1ull << 9)
/* clang-format off */
static inline pte_t make_pte_marker(uint64_t marker) { return marker; }
static inline bool is_pte_marker(pte_t pte) { return !pte_none(pte) && !pte_present(pte); }
static inline bool is_guard_pte_marker(pte_t pte) { return is_pte_marker(pte) && (pte & PTE_MARKER_GUARD); }
/* clang-format on */
/* prot: the flag bits of a VMA's pages (vm_get_page_prot). */
static inline pte_t pfn_pte(unsigned long pfn, uint64_t prot)
{
	return ((uint64_t)pfn << PAGE_SHIFT) | prot;
}
/* A directory entry (PGD/PUD/PMD pointing to a table) grants everything,
 * ring 3 included: the leaf decides. Linux: _PAGE_TABLE. Only the lower
 * half's tables are made here; the kernel half's (paging.c) lack USER. */
#define _PAGE_TABLE (_PAGE_PRESENT | _PAGE_RW | _PAGE_USER)
/* clang-format off */
static inline bool pmd_none(pmd_t pmd) { return pmd == 0; }
static inline bool pmd_present(pmd_t pmd) { return pmd & _PAGE_PRESENT; }
/* A PMD that maps 2 MiB itself instead of pointing to a PTE table. */
static inline bool pmd_leaf(pmd_t pmd) { return (pmd & (_PAGE_PRESENT | _PAGE_PSE)) == (_PAGE_PRESENT | _PAGE_PSE); }
static inline bool pmd_young(pmd_t pmd) { return pmd & _PAGE_ACCESSED; }
static inline bool pmd_dirty(pmd_t pmd) { return pmd & _PAGE_DIRTY; }
static inline bool pmd_write(pmd_t pmd) { return pmd & _PAGE_RW; }
static inline unsigned long pmd_pfn(pmd_t pmd) { return (pmd & PTE_ADDR_MASK) >> PAGE_SHIFT; }
static inline pmd_t pmd_mkold(pmd_t pmd) { return pmd & ~_PAGE_ACCESSED; }
static inline pmd_t pmd_mkyoung(pmd_t pmd) { return pmd | _PAGE_ACCESSED; }
static inline pmd_t pmd_mkclean(pmd_t pmd) { return pmd & ~_PAGE_DIRTY; }
static inline pmd_t pmd_mkdirty(pmd_t pmd) { return pmd | _PAGE_DIRTY | _PAGE_SOFT_DIRTY; }
static inline pmd_t pmd_mkwrite(pmd_t pmd) { return pmd | _PAGE_RW; }
static inline pmd_t pmd_wrprotect(pmd_t pmd) { return pmd & ~_PAGE_RW; }
static inline bool pmd_soft_dirty(pmd_t pmd) { return pmd & _PAGE_SOFT_DIRTY; }
static inline pmd_t pmd_mksoft_dirty(pmd_t pmd) { return pmd | _PAGE_SOFT_DIRTY; }
static inline pmd_t pmd_clear_soft_dirty(pmd_t pmd) { return pmd & ~_PAGE_SOFT_DIRTY; }
/* clang-format on */
static inline pmd_t pfn_pmd(unsigned long pfn, uint64_t prot)
{
	return ((uint64_t)pfn << PAGE_SHIFT) | prot | _PAGE_PSE;
}
/* A PUD that maps 1 GiB itself (a HugeTLB page of the PUD size; the CPU
 * must have PDPE1GB). The same bit layout as a PMD leaf. */
/* clang-format off */
static inline bool pud_none(pud_t pud) { return pud == 0; }
static inline bool pud_leaf(pud_t pud) { return pmd_leaf(pud); }
static inline bool pud_write(pud_t pud) { return pud & _PAGE_RW; }
static inline unsigned long pud_pfn(pud_t pud) { return (pud & PTE_ADDR_MASK) >> PAGE_SHIFT; }
static inline pud_t pud_mkdirty(pud_t pud) { return pud | _PAGE_DIRTY | _PAGE_SOFT_DIRTY; }
static inline pud_t pfn_pud(unsigned long pfn, uint64_t prot) { return pfn_pmd(pfn, prot); }
/* clang-format on */
/* The page a present entry maps, and a PMD leaf's folio (Linux: pte_page,
 * pmd_page, pmd_folio). */
#define pte_page(pte) pfn_to_page(pte_pfn(pte))
#define pmd_page(pmd) pfn_to_page(pmd_pfn(pmd))
#define pmd_folio(pmd) page_folio(pmd_page(pmd))
#define pud_folio(pud) page_folio(pfn_to_page(pud_pfn(pud)))

/* --- address spaces (mm/mmap.c) ---------------------------------------------- */
#define VM_READ 0x1ul
#define VM_WRITE 0x2ul
#define VM_EXEC 0x4ul /* instruction fetches allowed: no NX on its pages */
/* Any access at all: x86 pages cannot be write- or execute-only, so a VMA
 * with VM_WRITE or VM_EXEC alone is readable too (Linux: VM_ACCESS_FLAGS,
 * vma_is_accessible; x86's protection_map). */
#define VM_ACCESS_FLAGS (VM_READ | VM_WRITE | VM_EXEC)
/* Ring 3 may touch its pages (_PAGE_USER): a program's VMAs. Kernel
 * workloads (usemem, poke) leave it off, so ring 3 never reaches theirs.
 * Linux has no such flag: every VMA there is user memory. */
#define VM_USER 0x8ul
/* madvise(MADV_HUGEPAGE / MADV_NOHUGEPAGE) on the range: THP sizes in
 * "madvise" mode may be used here / no large folio at all here. Linux's
 * values. */
/* Overcommit accounting (include/mman.h), Linux's values: VM_ACCOUNT, the
 * VMA's pages are charged to Committed_AS (a program's private writable
 * mapping); VM_NORESERVE, never charge them (MAP_NORESERVE outside mode 2). */
#define VM_ACCOUNT 0x00100000ul
#define VM_NORESERVE 0x00200000ul
#define VM_HUGEPAGE 0x20000000ul
#define VM_NOHUGEPAGE 0x40000000ul
/* mlock (mm/mlock.c): the VMA's pages stay in memory, faulted in when it
 * is locked, or (with VM_LOCKONFAULT) locked as they fault in; madvise
 * advice that would drop or move its pages (FREE, DONTNEED, COLD,
 * PAGEOUT, GUARD_INSTALL) refuses the range. Linux's values. */
#define VM_LOCKED 0x2000ul
#define VM_LOCKONFAULT 0x80000ul
#define VM_LOCKED_MASK (VM_LOCKED | VM_LOCKONFAULT)
/* Every page of the VMA reads soft-dirty in /proc/PID/pagemap, whatever
 * its entry says: set on each new mapping (vm_mmap, Linux's
 * __mmap_complete and do_brk_flags) so a range unmapped and mapped again
 * shows as new data; cleared by clear_refs 4. Merging ignores it and
 * keeps it (Linux's VM_STICKY). Linux's value. */
#define VM_SOFTDIRTY 0x08000000ul
/* A HugeTLB mapping (mm/hugetlb.c); VM_NORESERVE (above) on one that
 * reserved nothing at mmap. Linux's value. */
#define VM_HUGETLB 0x00400000ul
/* MAP_DROPPABLE (Linux 6.11): private anonymous memory reclaim may drop
 * even when dirty (its folios are never swapbacked), that mlock never
 * locks and that is not charged (VM_NORESERVE with it). A fault that
 * finds no memory is retried, not fatal. Linux's bit (VMA_DROPPABLE_BIT). */
#define VM_DROPPABLE (1ul << 40)
/* fork (dup_mmap): a VM_DONTCOPY VMA is not copied into the child
 * (MADV_DONTFORK); a VM_WIPEONFORK one is, empty (MADV_WIPEONFORK, and
 * every MAP_DROPPABLE mapping). Linux's values. */
#define VM_DONTCOPY 0x00020000ul
#define VM_WIPEONFORK 0x02000000ul
/* Which pool a VM_HUGETLB VMA's pages come from: its index in hstates[]
 * (0 the PMD size, 1 the PUD size). Linux keeps the size in the
 * hugetlbfs file (hstate_file); Folium keeps it in the flags, so a split
 * copies it and VMAs of two sizes never merge. */
#define VM_HSTATE_SHIFT 32
#define VM_HSTATE_MASK (3ul << VM_HSTATE_SHIFT)
#define VM_HSTATE(idx) ((unsigned long)(idx) << VM_HSTATE_SHIFT)
/* A shared mapping of a file or of shmem (MAP_SHARED): its writes land
 * in the page cache, every mapping and read() sees them, and fork shares
 * it instead of copying it. Linux's VM_SHARED is 0x08, Folium's VM_USER,
 * so it lives in a high bit. VM_MAYSHARE (Linux's value) says the mapping
 * was asked shared; VM_MAYWRITE (Linux's value) that mprotect may add
 * PROT_WRITE to a shared mapping (one of a file not open for writing,
 * or of a write-sealed memfd, lacks it: -EACCES). Linux sets it on every
 * private mapping too; Folium looks at it only with VM_SHARED. */
#define VM_SHARED (1ul << 41)
#define VM_MAYWRITE 0x20ul
#define VM_MAYSHARE 0x80ul

enum vm_fault_reason {
	VM_FAULT_OK = 0,
	VM_FAULT_NOVMA,	 /* no VMA covers the address */
	VM_FAULT_ACCESS, /* the VMA does not allow this access */
	VM_FAULT_OOM,	 /* no memory even for an order-0 folio */
	/* A guard marker: SIGSEGV with SEGV_MAPERR, as Linux. */
	VM_FAULT_SIGSEGV,
	/* A file mapping's page past the end of the file, or one its file
	 * system has no room for: SIGBUS with BUS_ADRERR, as Linux. */
	VM_FAULT_SIGBUS,
};

struct address_space;
struct anon_vma;
struct file;
struct vm_area_struct;
/* Linux: struct vm_fault, what a file mapping's fault asks its file
 * system for and gets back. */
struct vm_fault {
	struct vm_area_struct *vma;
	unsigned long address; /* the faulting page */
	unsigned long pgoff;   /* its index in the file */
	unsigned int flags;    /* FAULT_FLAG_* */
	/* The largest folio order the VMA can map around address (the
	 * folio must lie inside the VMA and one PTE table, at an address
	 * as aligned as its index); the file system may make a smaller one. */
	unsigned int max_order;
	struct folio *folio; /* out: the folio holding pgoff, referenced */
};
/* Linux: struct vm_operations_struct, what a file mapping's faults ask
 * of its file system: the folio at vmf->pgoff (shmem_fault). */
struct vm_operations_struct {
	enum vm_fault_reason (*fault)(struct vm_fault *vmf);
};
struct vm_area_struct {
	unsigned long vm_start; /* first byte */
	unsigned long vm_end;	/* first byte after */
	unsigned long vm_flags; /* VM_READ, VM_WRITE, VM_EXEC, VM_USER, VM_(NO)HUGEPAGE, VM_LOCKED*,
				   VM_SOFTDIRTY, VM_ACCOUNT, ... */
	/* The page index of vm_start: vm_start >> PAGE_SHIFT when the VMA was
	 * mapped, kept when mremap moves it (its folios keep their index),
	 * advanced when its front is cut off (Linux: vm_pgoff of a private
	 * anonymous mapping). */
	unsigned long vm_pgoff;
	/* The reverse map its anonymous folios point at, made at its first
	 * fault (anon_vma_prepare) and shared with the VMAs fork copies from
	 * it; NULL until then (Linux: vma->anon_vma). */
	struct anon_vma *anon_vma;
	/* The file it maps (Linux: vm_file), a reference held by the VMA
	 * (get_file/fput), page vm_pgoff of it at vm_start; NULL: anonymous.
	 * vm_ops serve its faults. */
	struct file *vm_file;
	const struct vm_operations_struct *vm_ops;
};

/* Linux: vma_is_anonymous. */
static inline bool vma_is_anonymous(const struct vm_area_struct *vma)
{
	return !vma->vm_ops;
}

/* The page index a user address of vma has (Linux: linear_page_index). */
static inline unsigned long linear_page_index(const struct vm_area_struct *vma, unsigned long addr)
{
	return ((addr - vma->vm_start) >> PAGE_SHIFT) + vma->vm_pgoff;
}
/* The user address of page index pgoff in vma, which may lie outside it
 * (Linux: vma_address's arithmetic, vma_pgoff_address). */
static inline unsigned long vma_address(const struct vm_area_struct *vma, unsigned long pgoff)
{
	return vma->vm_start + ((pgoff - vma->vm_pgoff) << PAGE_SHIFT);
}

/* Linux: vma_supports_mlock. mlock never sets VM_LOCKED on a droppable
 * or HugeTLB VMA (the pool's pages are never on an LRU list), though it
 * still faults the range in. */
static inline bool vma_supports_mlock(const struct vm_area_struct *vma)
{
	return !(vma->vm_flags & (VM_DROPPABLE | VM_HUGETLB));
}

/* Counters that are evidence, not statistics: the MADV_FREE issue asserts
 * on them to prove batching. */
enum mm_counter {
	MM_PTE_WRITES,	  /* entries written by set_ptes/set_pmd_at/clears */
	MM_TLB_FLUSH_ONE, /* single-page invalidations (invlpg) */
	MM_TLB_FLUSH_ALL, /* full flushes (CR3 reload) */
	MM_PGTABLES,	  /* page-table pages in use, top level included */
	MM_ANONPAGES,	  /* anonymous pages mapped (RssAnon) */
	MM_FILEPAGES,	  /* page-cache pages of files mapped (RssFile) */
	MM_SHMEMPAGES,	  /* shmem's (tmpfs, shared anonymous, memfd) (RssShmem) */
	MM_FAULTS,	  /* faults handled */
	/* Write faults on a write-protected anonymous entry (do_wp_page):
	 * the folio reused in place, or a page copied (wp_page_copy; the
	 * zero page's replacement is not counted here). */
	MM_WP_REUSE,
	MM_WP_COPY,
	/* Entries reuse made writable: one per MM_WP_REUSE, or a large
	 * folio's entries in the VMA at once (wp_reuse_batched). */
	MM_WP_REUSE_PTES,
	/* fork's copies of entries into this mm (copy_present_ptes calls):
	 * one per large folio's run when batched, one per entry if not. */
	MM_FORK_COPY_BATCHES,
	/* Entries of folios zapped (munmap, exit, MADV_DONTNEED), counted
	 * per zap_present_ptes call: a large folio's run at once when
	 * batched, one per entry if not. */
	MM_ZAP_BATCHES,
	/* Entries mprotect changed, per change_present_ptes call, and
	 * entries mremap moved, per move_ptes batch: a large folio's run at
	 * once when batched, one per entry if not. */
	MM_MPROTECT_BATCHES,
	MM_MREMAP_BATCHES,
	NR_MM_COUNTERS
};

/* VMAs kept in the mm's own page; more move to pages of their own. */
#define MM_INLINE_VMAS 64
/* Linux: DEFAULT_MAX_MAP_COUNT (USHRT_MAX - 5), vm.max_map_count's default. */
#define DEFAULT_MAX_MAP_COUNT 65530
struct mm_struct {
	phys_addr_t pgd; /* physical address of the top table */
	int nid;	 /* node folios and tables come from */
	int nr_vmas;	 /* Linux: map_count */
	mm_id_t mm_id;	 /* its number in large folios' mapcounts (<mm.h>) */
	int mm_users;	 /* tasks using it (CLONE_VM shares it): mmget/mmput */
	int vmas_cap;	 /* room in vmas */
	/* Sorted, disjoint; inline_vmas until a mapping needs more room. A
	 * pointer into it is good until the next call that may add a VMA. */
	struct vm_area_struct *vmas;
	struct vm_area_struct inline_vmas[MM_INLINE_VMAS];
	unsigned long counters[NR_MM_COUNTERS];
	unsigned long mmap_base; /* where vm_mmap(addr = 0) starts looking */
	unsigned long start_brk; /* the heap: the page after the highest segment */
	unsigned long brk;	 /* its end: [start_brk, brk) is mapped (sys_brk) */
	/* What exec laid out, for /proc/PID/stat, statm and cmdline (Linux's
	 * fields): the code and data segments, argv's and envp's strings. */
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long start_stack, arg_start, arg_end, env_start, env_end;
	unsigned long flags;	 /* MMF_* */
	unsigned long def_flags; /* every new VMA's: VM_LOCKED* after mlockall(MCL_FUTURE) */
	/* The highest MM_ANONPAGES seen, noted only before it drops (Linux:
	 * hiwater_rss, update_hiwater_rss); get_mm_hiwater_rss reads it. */
	unsigned long hiwater_rss;
	/* Table pages a fault took in one alloc_pages_bulk call before its
	 * walk (pgtable_prealloc), used before any other; empty between faults. */
	struct page *table_reserve[3];
	unsigned int nr_table_reserve;
	/* mm_cpumask(): the CPUs that have it loaded; tlb_gen: bumped by
	 * every flush request (mm/tlb.c, Linux's mm->context.tlb_gen). */
	struct cpumask cpu_bitmap;
	uint64_t tlb_gen;
};
/* This mm holds a reference to the (huge) zero folio: taken at its first
 * zero-page mapping, dropped by mm_destroy (Linux: MMF_HUGE_ZERO_PAGE). */
#define MMF_ZERO_PAGE 0x1ul
#define MMF_HUGE_ZERO_PAGE 0x2ul
/* vm_mmap(addr = 0) searches downwards from mmap_base, as Linux's
 * default layout for programs (exec sets it); without it upwards, as the
 * shell's workloads and Linux's legacy layout. */
#define MMF_TOPDOWN 0x4ul
/* prctl(PR_SET_THP_DISABLE): every fault of this mm is order 0, as Linux's
 * MMF_DISABLE_THP. */
#define MMF_DISABLE_THP 0x8ul
/* Linux: the dumpable bits (SUID_DUMP_USER when set, SUID_DUMP_DISABLE
 * when clear; suid_dumpable is 0): prctl(PR_GET/SET_DUMPABLE), cleared
 * by a change of credentials. Kept by fork. */
#define MMF_DUMPABLE 0x10ul

/* Linux: mm_counter. Which RSS counter a folio's pages count in. */
static inline enum mm_counter mm_counter(const struct folio *folio)
{
	if (folio_test_anon(folio))
		return MM_ANONPAGES;
	return folio_test_swapbacked(folio) ? MM_SHMEMPAGES : MM_FILEPAGES;
}
/* Linux: get_mm_rss, every page mapped. */
static inline unsigned long get_mm_rss(const struct mm_struct *mm)
{
	return mm->counters[MM_ANONPAGES] + mm->counters[MM_FILEPAGES] +
	       mm->counters[MM_SHMEMPAGES];
}

/* The RSS high-water mark (Linux: update_hiwater_rss, called before RSS
 * drops; get_mm_hiwater_rss; reset_mm_hiwater_rss, for clear_refs 5). */
static inline void update_hiwater_rss(struct mm_struct *mm)
{
	if (mm->hiwater_rss < get_mm_rss(mm))
		mm->hiwater_rss = get_mm_rss(mm);
}
static inline unsigned long get_mm_hiwater_rss(const struct mm_struct *mm)
{
	return MAX(mm->hiwater_rss, get_mm_rss(mm));
}
static inline void reset_mm_hiwater_rss(struct mm_struct *mm)
{
	mm->hiwater_rss = get_mm_rss(mm);
}

/* Return: an empty address space whose tables come from node nid, or
 * NULL when memory is short. */
struct mm_struct *mm_create(int nid);
/* Unmap everything, free every folio and table, then the mm itself. */
void mm_destroy(struct mm_struct *mm);
/*
 * fork's half of mm (Linux: dup_mmap, called by dup_mm): copy oldmm's
 * layout (mmap_base, the heap, MMF_TOPDOWN and MMF_DISABLE_THP,
 * def_flags' VM_NOHUGEPAGE only, as Linux's mm_init) and its VMAs into
 * mm, a fresh mm_create'd one: VM_DONTCOPY VMAs are left out,
 * VM_WIPEONFORK ones copied empty with no anon_vma, VM_LOCKED* cleared,
 * VM_ACCOUNT ones charged again. Every other VMA shares its anon_vma
 * (anon_vma_fork) and has its entries copied (copy_page_range): an
 * anonymous folio becomes mapped by both, write-protected in both, for
 * do_wp_page to copy on the first write. oldmm's TLB is flushed once.
 * Return: 0, or -ENOMEM; then mm holds what was copied so far and the
 * caller destroys it (Linux: dup_mmap's fail_nomem, then mmput).
 */
int dup_mmap(struct mm_struct *mm, struct mm_struct *oldmm);
/* Make mm the active address space (loads CR3 in the kernel); NULL goes
 * back to the kernel's own tables (empty lower half). */
void switch_mm(struct mm_struct *mm);
/* Linux: struct tlb_state (arch/x86/include/asm/tlbflush.h), per CPU:
 * the mm whose tables it has loaded and the tlb_gen its TLB has caught
 * up with (mm/tlb.c). */
struct tlb_state {
	struct mm_struct *loaded_mm; /* NULL: the kernel's own tables */
	uint64_t loaded_mm_tlb_gen;
};
DECLARE_PER_CPU(struct tlb_state, cpu_tlbstate);
/* The mm this CPU has loaded (NULL: none). */
#define current_mm (this_cpu_read(cpu_tlbstate).loaded_mm)
/* Linux: mm_cpumask. The CPUs that have @mm loaded: the targets of its
 * TLB shootdowns. */
static inline struct cpumask *mm_cpumask(struct mm_struct *mm)
{
	return &mm->cpu_bitmap;
}
/* Before @mm's tables go: every CPU that has it loaded loads the
 * kernel's tables instead (Linux: exit_mmap's flush with freed tables,
 * which makes lazy CPUs leave_mm). */
void mm_leave_all_cpus(struct mm_struct *mm);
/* vm.max_map_count: the most VMAs an mm may have (Linux's checks: a new
 * mapping while nr_vmas > it, a split while nr_vmas >= it, mremap while
 * nr_vmas >= it - 3 are -ENOMEM). */
extern int sysctl_max_map_count;
/* Room for n more VMAs in mm->vmas, moving them to larger pages if need
 * be (every vma pointer into the old array is then stale). Return: 0, or
 * -ENOMEM when no pages can be had. */
int mm_vmas_reserve(struct mm_struct *mm, int n);
/* vm.mmap_min_addr: the sysctl's value, and the floor used (never below
 * USER_VA_START). */
extern unsigned long dac_mmap_min_addr, mmap_min_addr;

/* Return: the VMA containing addr, or NULL. */
struct vm_area_struct *find_vma(struct mm_struct *mm, unsigned long addr);
/* Return: the first VMA overlapping [start, end), or NULL (Linux:
 * find_vma_intersection). */
struct vm_area_struct *find_vma_intersection(struct mm_struct *mm, unsigned long start,
					     unsigned long end);
/* Return: true if some page of [start, end) is in no VMA. */
bool vma_range_has_hole(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Create an anonymous VMA of len bytes (page-rounded), its flags vm_flags
 * and mm->def_flags (Linux: do_mmap). addr 0 picks a free
 * range aligned to align (0: PMD_SIZE when len >= PMD_SIZE, else a page,
 * as Linux's THP-friendly placement). A program's private writable
 * mapping (VM_USER | VM_WRITE, no VM_NORESERVE) is charged to Committed_AS
 * and gets VM_ACCOUNT (Linux: accountable_mapping in mmap_region).
 * Return: the start address, or a negative errno cast to unsigned long
 * (-ENOMEM: no room, or the overcommit policy refused the charge; -EINVAL:
 * bad arguments or overlap with an existing VMA). */
unsigned long vm_mmap(struct mm_struct *mm, unsigned long addr, unsigned long len,
		      unsigned long vm_flags, unsigned long align);
/* The same for a mapping of file from its page pgoff on (Linux: do_mmap
 * with a file): the file's f_op->mmap gives the VMA its vm_ops (or
 * refuses: its errno), the VMA holds a reference on the file and mm is
 * listed in its i_mmap. vm_flags may add VM_SHARED (its writes land in
 * the page cache), VM_MAYWRITE and VM_MAYSHARE. */
unsigned long vm_mmap_file(struct mm_struct *mm, unsigned long addr, unsigned long len,
			   unsigned long vm_flags, struct file *file, unsigned long pgoff);
#define IS_ERR_VALUE(x) ((unsigned long)(x) >= (unsigned long)-4095)
/* Unmap [start, start + len): clear the PTEs/PMDs (batched), drop the
 * folios, free tables left empty, one TLB flush for the range, split or
 * remove VMAs, uncharge the VM_ACCOUNT pages. Return: 0, -EINVAL (start not page-aligned, len 0,
 * outside the lower half) or -ENOMEM (a split needs a free VMA slot or a PTE table to split a PMD
 * leaf; nothing was unmapped). */
int vm_munmap(struct mm_struct *mm, unsigned long start, unsigned long len);
/* Clear and free what [start, end) maps (page aligned), VMAs untouched:
 * the unmap half of vm_munmap, also MADV_DONTNEED's (Linux:
 * zap_page_range_single). One TLB flush. Return: 0, or -ENOMEM when a PMD
 * leaf cut by an end cannot be split (nothing unmapped). */
int zap_page_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* The same, but only the entries that map a file's folios: a private
 * file mapping's anonymous copies stay (a hole punched in the file). */
int zap_file_pages(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Folium's run-time switch for zapping (munmap, exit, MADV_DONTNEED): a
 * large folio's run of PTEs at once (true: Linux 6.9's zap_present_ptes)
 * or one PTE at a time (the path it replaced), the bench's baseline. */
extern bool zap_batched;
/* Fault in every page of [start, end) with FAULT_FLAG_* flags, stopping
 * at the first failure (Linux: mm_populate, for MAP_POPULATE). */
void mm_populate(struct mm_struct *mm, unsigned long start, unsigned long end, unsigned int flags);
/* Give [start, start + len) (len page-rounded) the flags vm_flags: VMAs
 * are split at the ends (split_vma) and merged with equal neighbours,
 * present entries rewritten with one flush (Linux: mprotect_fixup,
 * change_protection). A program's private mapping made writable for the
 * first time is charged and gets VM_ACCOUNT; the charge stays when write
 * is taken away again, as in Linux. Return: 0 (len 0 too), -EINVAL (start
 * unaligned, unknown flags) or -ENOMEM (overflow, a page in no VMA, the
 * charge refused, or no VMA slot or PTE table for a split: then nothing
 * changed). */
int vm_mprotect(struct mm_struct *mm, unsigned long start, unsigned long len,
		unsigned long vm_flags);
/* Linux: sys_mremap on mm (flags: MREMAP_* of <mman.h>). Return: the new
 * address, or -errno. */
long vm_mremap(struct mm_struct *mm, unsigned long addr, unsigned long old_len,
	       unsigned long new_len, unsigned long flags, unsigned long new_addr);
/* Cut the VMA strictly containing addr in two at addr (Linux: split_vma).
 * Return: 0 (also when addr is at an edge or in no VMA), or -ENOMEM when
 * the VMA array is full. */
int split_vma(struct mm_struct *mm, unsigned long addr);
/* Join touching VMAs with equal flags from the one ending at start to the
 * one starting at end (Linux: vma_merge after a flags change). */
void vma_merge_range(struct mm_struct *mm, unsigned long start, unsigned long end);
/* Merge the VMA containing addr, just mapped, grown or moved there, with
 * the next VMA and (merge_prev) the previous one where their flags are
 * equal but for VM_SOFTDIRTY, which the merged VMA keeps if either had it
 * (Linux: vma_merge_new_range, vma_merge_extend; VM_STICKY). The VMA
 * containing keep is never merged with it (Linux's copy_vma keeps an
 * MREMAP_DONTUNMAP source apart; 0: none). */
void vma_merge_new_range(struct mm_struct *mm, unsigned long addr, bool merge_prev,
			 unsigned long keep);
/* An anonymous vma of mm (mremap's new range) becomes a mapping of file
 * from page pgoff with vm_ops, as the VMA it moves from (Linux:
 * copy_vma). Context: mm maps file already. */
void vma_set_file(struct mm_struct *mm, struct vm_area_struct *vma, struct file *file,
		  const struct vm_operations_struct *vm_ops, unsigned long pgoff);
/* vma, a VMA of mm, takes over av (of which mm is a member) with its
 * folios at page index pgoff from vm_start: mremap's moved entries
 * (Linux: copy_vma gives the new VMA the old one's anon_vma and pgoff). */
void vma_set_anon_vma(struct mm_struct *mm, struct vm_area_struct *vma, struct anon_vma *av,
		      unsigned long pgoff);
/* Copy the entries of src_vma in src_mm into dst_mm (which has its copy
 * of the VMA, same range, no entries yet), write-protecting anonymous
 * ones in both (Linux: copy_page_range → copy_pte_range →
 * copy_present_ptes; copy_huge_pmd; copy_hugetlb_page_range). The caller
 * flushes src_mm. Return: 0, or -ENOMEM (a page table; what was copied
 * stays, counted). */
int copy_page_range(struct mm_struct *dst_mm, struct mm_struct *src_mm,
		    const struct vm_area_struct *src_vma);
/* Folium's run-time switch for fork's copy: a large folio's run of PTEs
 * at once (true: Linux 6.9's copy_present_ptes) or one PTE at a time (the
 * path it replaced), the baseline the fork bench measures against. */
extern bool fork_copy_batched;
/* A write fault that reuses an exclusive large folio makes all its
 * entries in the VMA writable at once (Folium's), not one (Linux 6.15). */
extern bool wp_reuse_batched;
/* mprotect changes a large folio's run of PTEs at once (true: Linux
 * 6.17's change_pte_range) or one PTE at a time (the path it replaced). */
extern bool mprotect_batched;
/* mremap moves a large folio's run of PTEs at once (true: Linux 6.17's
 * move_ptes as arm64 runs it) or one PTE at a time (x86 Linux, whose
 * pte_batch_hint of 1 keeps it from batching). */
extern bool mremap_batched;
/* A write fault on a shared large folio copies the whole folio when this
 * VMA maps it whole (Folium's, off by default), not one page (Linux). */
extern bool wp_copy_folio;
/* The PTE flag bits for pages of a VMA: present, RW if VM_WRITE, NX
 * unless VM_EXEC, USER if VM_USER and VM_READ (a PROT_NONE VMA's pages
 * fault in ring 3). */
uint64_t vm_get_page_prot(unsigned long vm_flags);

/* --- page tables (mm/pgtable.c) ----------------------------------------------- */
/* Page-table pages: every one comes from the mm's node, zeroed and
 * unmovable, and is counted in MM_PGTABLES (the top table included).
 * pgd_alloc: the top table of a new mm; pte_alloc_one: one table for
 * below it (free_pgtables frees it once it maps nothing). Return: false /
 * NULL when memory is short (nothing counted). */
bool pgd_alloc(struct mm_struct *mm);
void pgd_free(struct mm_struct *mm);
struct page *pte_alloc_one(struct mm_struct *mm);
/* Free a PTE table no PMD points to any more (MADV_COLLAPSE's old one). */
void pte_free(struct mm_struct *mm, struct page *table);
/*
 * A fault where addr's walk lacks two or three tables (a first touch of
 * an empty 1 GiB or 2 MiB region: PUD, PMD, PTE) takes them in one
 * alloc_pages_bulk call into mm->table_reserve; the walk then uses them,
 * cleared as each is taken. pgtable_prealloc_release frees the ones the
 * fault did not use (a PMD-mapped folio needs no PTE table). Return: the
 * pages reserved (0 when one table or none is missing).
 */
unsigned int pgtable_prealloc(struct mm_struct *mm, unsigned long addr);
void pgtable_prealloc_release(struct mm_struct *mm);
/* Lookup, never allocating. mm_find_pmd: the PMD slot for addr, or NULL
 * when an upper table is missing. pte_offset_map: the PTE slot for addr
 * in the table pmd points to, or NULL when pmd maps no table (none, or a
 * leaf). mm_find_pte: both steps. Linux: mm_find_pmd, pte_offset_map. */
pmd_t *mm_find_pmd(struct mm_struct *mm, unsigned long addr);
pte_t *pte_offset_map(pmd_t *pmd, unsigned long addr);
/* The page mapped at addr by a PTE, a PMD or a PUD leaf, if the entry
 * allows the access (a write needs a writable one); NULL if not, or
 * nothing is mapped. Linux: follow_page_mask. */
struct page *follow_page(struct mm_struct *mm, unsigned long addr, bool write);
/* Linux: get_user_pages_fast for one page: follow_page, and if that
 * finds nothing, the fault the access would take, then follow_page
 * again. No reference is taken: the page is the caller's only until it
 * sleeps or the mapping changes. Return: the page, or NULL (no VMA, an
 * access the VMA refuses, a fault that fails). */
struct page *get_user_page(struct mm_struct *mm, unsigned long addr, bool write);
static inline pte_t *mm_find_pte(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);

	return pmd ? pte_offset_map(pmd, addr) : NULL;
}
/* Allocation. pmd_alloc: the PMD slot for addr, allocating the upper
 * tables. pte_alloc_map: the PTE slot for addr, allocating the table pmd
 * should point to. Return: NULL when memory is short, or (pte_alloc_map)
 * when pmd is a leaf. Linux: pmd_alloc, pte_alloc_map. */
pmd_t *pmd_alloc(struct mm_struct *mm, unsigned long addr);
/* The PUD slot for addr, allocating the PUD table (Linux: pud_alloc). */
pud_t *pud_alloc(struct mm_struct *mm, unsigned long addr);
pte_t *pte_alloc_map(struct mm_struct *mm, pmd_t *pmd, unsigned long addr);
/* Map nr consecutive pages: ptep[i] = pte with pfn + i, for addresses
 * addr .. addr + (nr - 1) * PAGE_SIZE, all in one PTE table. Counts nr PTE
 * writes. Context: the slots were empty (no flush needed). */
void set_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, pte_t pte, unsigned int nr);
/* Hand the PTE table *from points to over to the empty *to, every entry
 * as it is (Linux: move_normal_pmd's pmd_clear and pmd_populate). The
 * caller flushes the old range. */
void pmd_move_table(struct mm_struct *mm, pmd_t *from, pmd_t *to);
/* Take the write bit off a present entry (one entry write); the caller
 * flushes. Linux: ptep_set_wrprotect, pmdp_set_wrprotect. */
void ptep_set_wrprotect(struct mm_struct *mm, unsigned long addr, pte_t *ptep);
/* ptep_set_wrprotect on nr PTEs of one table (Linux: wrprotect_ptes, the
 * generic loop x86 uses). */
void wrprotect_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, unsigned int nr);
/* wp_folio_reuse's batch (Folium's): of the nr PTEs from ptep, each that
 * maps the matching page of page[0..nr) gets it marked anon-exclusive
 * and, if read-only and not owed a soft-dirty write fault
 * (soft_dirty_faults and not soft-dirty), becomes writable, its dirty
 * and young bits kept. Return: the PTEs made writable. */
unsigned int folio_reuse_ptes(struct mm_struct *mm, pte_t *ptep, struct page *page, unsigned int nr,
			      bool soft_dirty_faults);
void pmdp_set_wrprotect(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp);
/* Return: the old entry; the slot is now empty (one PTE write). */
pte_t ptep_get_and_clear(struct mm_struct *mm, unsigned long addr, pte_t *ptep);
void set_pmd_at(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp, pmd_t pmd);
pmd_t pmdp_get_and_clear(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp);
/* The same for a PUD leaf (one entry write each). */
void set_pud_at(struct mm_struct *mm, unsigned long addr, pud_t *pudp, pud_t pud);
pud_t pudp_get_and_clear(struct mm_struct *mm, unsigned long addr, pud_t *pudp);
/* Mark the PMD leaf not present and flush its 2 MiB translation at once.
 * Return: the entry as it was. Linux: pmdp_invalidate. */
pmd_t pmdp_invalidate(struct mm_struct *mm, unsigned long addr, pmd_t *pmdp);
/* Empty the PMD leaf at haddr (PMD-aligned) and flush its 2 MiB
 * translation (one entry, one invlpg). Return: the entry as it was.
 * Linux: pmdp_huge_clear_flush. */
pmd_t pmdp_huge_clear_flush(struct mm_struct *mm, unsigned long haddr, pmd_t *pmdp);
/* Free the page tables that map nothing in [start, end). */
void free_pgtables(struct mm_struct *mm, unsigned long start, unsigned long end);
/*
 * The one page-table walker (Linux: mm/pagewalk.c, walk_page_range). For
 * [start, end): pmd_entry sees every present PMD, a leaf or a table,
 * covering [addr, next) of the range, and says what comes next through
 * walk->action: ACTION_SUBTREE (default) walks the PMD's PTE table with
 * pte_entry, ACTION_CONTINUE skips it, ACTION_AGAIN looks at the PMD
 * again (after it changed, e.g. was split). pte_entry sees each present
 * PTE. A PMD leaf has no subtree: only pmd_entry sees it. A non-zero
 * return stops the walk and is returned by walk_page_range. Either
 * callback may be NULL; they may change or clear entries, and pmd_entry
 * may turn a leaf into a table, but neither may free tables.
 */
enum page_walk_action {
	ACTION_SUBTREE = 0,
	ACTION_CONTINUE = 1,
	ACTION_AGAIN = 2,
};
struct mm_walk;
struct mm_walk_ops {
	int (*pmd_entry)(pmd_t *pmdp, unsigned long addr, unsigned long next, struct mm_walk *walk);
	int (*pte_entry)(pte_t *ptep, unsigned long addr, struct mm_walk *walk);
	/* Each PTE marker (is_pte_marker), if set: Linux hands every entry
	 * to pte_entry, whose users test pte_present; Folium's users of
	 * present entries never see a marker. */
	int (*pte_marker_entry)(pte_t *ptep, unsigned long addr, struct mm_walk *walk);
	/* Each PUD leaf (a 1 GiB HugeTLB page), if set; [addr, next) is the
	 * part of it inside the walk. Walkers without it step over the leaf
	 * (Linux: pud_entry, and hugetlb_entry for HugeTLB VMAs). */
	int (*pud_entry)(pud_t *pudp, unsigned long addr, unsigned long next, struct mm_walk *walk);
};
struct mm_walk {
	const struct mm_walk_ops *ops;
	struct mm_struct *mm;
	void *private;
	enum page_walk_action action; /* set by pmd_entry */
};
int walk_page_range(struct mm_struct *mm, unsigned long start, unsigned long end,
		    const struct mm_walk_ops *ops, void *private);

/* --- TLB (mm/tlb.c) ------------------------------------------------------------- */
/* Linux's tlb_single_page_flush_ceiling: up to this many pages are
 * invalidated one by one, a larger range reloads CR3. */
#define TLB_SINGLE_PAGE_FLUSH_CEILING 33
#define TLB_FLUSH_ALL (~0ul)
/* Linux: struct flush_tlb_info, what every CPU of a shootdown gets. */
struct flush_tlb_info {
	struct mm_struct *mm;
	unsigned long start, end; /* end TLB_FLUSH_ALL: everything */
	uint64_t new_tlb_gen;	  /* the mm's tlb_gen this request made */
	unsigned int stride_shift;
	unsigned int initiating_cpu;
};
/* Linux: flush_tlb_mm_range. Flush [start, end) of @mm (entries of
 * 1 << @stride_shift bytes; end TLB_FLUSH_ALL for all) on every CPU of
 * mm_cpumask, this one included; the others by one IPI batch, waited
 * for. */
void flush_tlb_mm_range(struct mm_struct *mm, unsigned long start, unsigned long end,
			unsigned int stride_shift);
void flush_tlb_range(struct mm_struct *mm, unsigned long start, unsigned long end);
void flush_tlb_mm(struct mm_struct *mm);
/* TLB shootdown IPIs each CPU sent and received (Linux: the TLB line of
 * /proc/interrupts counts the second). */
extern unsigned long tlb_flush_ipis_sent[], tlb_flush_ipis_received[];
/*
 * Reclaim's deferred flush (Linux 4.3's TTU_BATCH_FLUSH: struct
 * tlbflush_unmap_batch, x86's arch_tlbbatch_*): try_to_unmap_batched
 * clears the entries and only notes each mm (its tlb_gen bumped, its
 * CPUs added to the batch's mask); try_to_unmap_flush then flushes those
 * CPUs' TLBs once, a full flush each, and the caller frees the folios
 * only after it. Example: reclaiming 32 lazyfree folios of one mm: one
 * shootdown instead of 32.
 */
struct tlbflush_unmap_batch {
	struct cpumask cpumask;
	bool flush_required;
};
void arch_tlbbatch_add_pending(struct tlbflush_unmap_batch *batch, struct mm_struct *mm);
void try_to_unmap_flush(struct tlbflush_unmap_batch *batch);
/* Batched flushes run (each one full flush per CPU of its mask). */
extern unsigned long nr_tlb_batch_flushes;
/* The 2 MiB of the PMD leaf mapping addr: one invlpg (counted as one). */
void flush_pmd_tlb_range(struct mm_struct *mm, unsigned long addr);
/* The 1 GiB of the PUD leaf mapping addr: one invlpg too (Linux:
 * flush_pud_tlb_range). */
void flush_pud_tlb_range(struct mm_struct *mm, unsigned long addr);
/* The kernel's [start, end) (the vmalloc range), in every address space
 * (Linux: flush_tlb_kernel_range). nr_kernel_tlb_flush_one counts the
 * pages invalidated: the evidence vfree's tests read. */
void flush_tlb_kernel_range(unsigned long start, unsigned long end);
extern unsigned long nr_kernel_tlb_flush_one;

/* --- batching flushes and frees (mm/mmu_gather.c) ---------------------------------- */
/*
 * Linux's mmu_gather: whoever clears or changes entries records their
 * addresses (tlb_remove_tlb_entries), and folios whose last mapping went
 * are freed only after the recorded range is flushed, so no stale
 * translation can reach a page that already belongs to someone else. The
 * folios wait in batches sized as Linux's: the first, MMU_GATHER_BUNDLE
 * of them, inside the gather; then page-sized ones (MAX_GATHER_BATCH
 * folios each) taken from the allocator without waiting, at most
 * MAX_GATHER_BATCH_COUNT. One flush at tlb_finish_mmu, or earlier when no
 * batch page can be had or the count is reached.
 */
struct mmu_gather_batch {
	struct mmu_gather_batch *next;
	unsigned int nr, max;
	struct folio **folios; /* max slots: the gather's bundle, or the rest of the page */
};
#define MMU_GATHER_BUNDLE 8
#define MAX_GATHER_BATCH \
	((unsigned int)((PAGE_SIZE - sizeof(struct mmu_gather_batch)) / sizeof(void *)))
#define MAX_GATHER_BATCH_COUNT (10000u / MAX_GATHER_BATCH)
struct mmu_gather {
	struct mm_struct *mm;
	unsigned long start, end;	 /* changed entries; start >= end: none */
	struct mmu_gather_batch *active; /* the batch being filled */
	struct mmu_gather_batch local;
	unsigned int batch_count; /* page-sized batches taken */
	struct folio *bundle[MMU_GATHER_BUNDLE];
};
void tlb_gather_mmu(struct mmu_gather *tlb, struct mm_struct *mm);
/* nr PTEs from addr changed (Linux: tlb_remove_tlb_entries), or one PMD
 * leaf at addr (Linux: tlb_remove_pmd_tlb_entry). */
void tlb_remove_tlb_entries(struct mmu_gather *tlb, unsigned long addr, unsigned long nr);
void tlb_remove_pmd_tlb_entry(struct mmu_gather *tlb, unsigned long addr);
/* The same for the 1 GiB of a PUD leaf (Linux: tlb_remove_pud_tlb_entry). */
void tlb_remove_pud_tlb_entry(struct mmu_gather *tlb, unsigned long addr);
/* Drop the mapping's reference to folio after the flush (Linux:
 * tlb_remove_folio). */
void tlb_remove_folio(struct mmu_gather *tlb, struct folio *folio);
/* Flush the recorded range, then free the gathered folios. */
void tlb_flush_mmu(struct mmu_gather *tlb);
void tlb_finish_mmu(struct mmu_gather *tlb);

/* --- faults (mm/memory.c) ---------------------------------------------------------- */
#define FAULT_FLAG_WRITE 0x1u
#define FAULT_FLAG_INSTRUCTION 0x2u
/* Resolve a fault at addr in mm. Return: VM_FAULT_OK (retry the access)
 * or why not; the caller reports and ends the workload. */
enum vm_fault_reason handle_mm_fault(struct mm_struct *mm, unsigned long addr, unsigned int flags);
/* A program's fault got VM_FAULT_OOM: kill it with SIGKILL and say so
 * (mm/oom_kill.c). Return: false when no program runs. */
bool pagefault_out_of_memory(void);
/* Linux: sys_msync on mm (mm/msync.c): the checks and the range's
 * answer; there is nothing to write back. Return: 0 or -errno. */
long do_msync(struct mm_struct *mm, unsigned long start, size_t len, int flags);
/* Linux: unmap_mapping_pages. Zap every entry that maps a page of
 * [start, start + nr) of the file whose cache is mapping, in every mm
 * that maps it (its i_mmap): truncate and hole punching, before the
 * pages leave the cache. even_cows: a private mapping's anonymous copies
 * of those pages go too (truncate: past the end is SIGBUS for them as
 * well), else they stay (a hole punched). */
void unmap_mapping_pages(struct address_space *mapping, unsigned long start, unsigned long nr,
			 bool even_cows);
/* Linux: access_remote_vm, reading only: copy [addr, +len) of mm's user
 * half to buf from the pages mapped now (none is faulted in). Return:
 * the bytes copied, fewer at the first page not present. Context: the
 * caller holds mm (mmget). */
size_t access_remote_vm(struct mm_struct *mm, unsigned long addr, void *buf, size_t len);
/* The zero page (mm/memory.c): one shared page of zeroes that read faults
 * map read-only. is_zero_pfn: does pfn hold it (Linux: is_zero_pfn)?
 * mm_get_zero_folio: it, with mm's reference taken the first time (it is
 * allocated on first use); NULL when memory is short. mm_put_zero_folio:
 * drop mm's reference (mm_destroy); the last one frees it.
 * vm_zero_page_prot: the bits of a zero-page entry in vma (read-only). */
bool is_zero_pfn(unsigned long pfn);
struct folio *mm_get_zero_folio(struct mm_struct *mm);
void mm_put_zero_folio(struct mm_struct *mm);
uint64_t vm_zero_page_prot(const struct vm_area_struct *vma);
const char *vm_fault_reason_name(enum vm_fault_reason reason);
/* Print "bad access at ADDR: REASON (read|write from FROM)", the one
 * report for an access that ends a workload (both arches' uaccess). */
void vm_fault_report(unsigned long addr, enum vm_fault_reason reason, unsigned int flags,
		     const char *from);

/* --- large anonymous folios and THP splitting (mm/huge_memory.c) ----------------------- */
/*
 * Linux's THP policy: /sys/kernel/mm/transparent_hugepage/enabled (the
 * top-level mode) and hugepages-<size>kB/enabled per order, each always,
 * inherit, madvise or never, kept as Linux's three bitmasks. An order may
 * be used in a VMA if its mode is always; or madvise and the VMA has
 * VM_HUGEPAGE; or inherit and the top-level mode is always, or madvise
 * with VM_HUGEPAGE. VM_NOHUGEPAGE allows none (Linux:
 * __thp_vma_allowable_orders). Order 0 is always possible, never listed.
 * thp_orders_enabled is Linux's huge_anon_orders_always: `thp SIZES`,
 * thp= and the benchmarks set it directly (the other masks cleared), and
 * the default puts the PMD size there ("always", where Linux says
 * "inherit" under enabled=always: the same effect, and a write of the
 * bitmask stays the whole policy). With CONFIG_TRANSPARENT_HUGEPAGE=n
 * every mask is 0 and faults ignore them.
 */
extern unsigned long thp_orders_enabled;
extern unsigned long huge_anon_orders_madvise;
extern unsigned long huge_anon_orders_inherit;
/* Every order a fault may use: 8K (order 1) up to the PMD size. Linux
 * leaves order 1 out for anon (THP_ORDERS_ALL_ANON); Folium accepts it so
 * the smallest step can be measured. */
#define THP_ORDERS_ALL (((1ul << (HPAGE_PMD_ORDER + 1)) - 1) & ~1ul)
enum thp_mode {
	THP_MODE_NEVER,
	THP_MODE_ALWAYS,
	THP_MODE_MADVISE,
	THP_MODE_INHERIT, /* per size only */
};
/* The top-level mode (Linux: the TRANSPARENT_HUGEPAGE_FLAG and _REQ_MADV_FLAG
 * bits of transparent_hugepage_flags); Linux's default, always. */
extern enum thp_mode thp_global_mode;
/* Whether a THP fault may compact (Linux: /sys/kernel/mm/transparent_hugepage/
 * defrag, the DEFRAG_* bits of transparent_hugepage_flags); Linux's default,
 * madvise. Folium has no kcompactd, so "defer" wakes nothing. */
enum thp_defrag {
	THP_DEFRAG_ALWAYS,	  /* every fault compacts (__GFP_NORETRY unless madvised) */
	THP_DEFRAG_DEFER,	  /* none compacts; Linux wakes kcompactd */
	THP_DEFRAG_DEFER_MADVISE, /* madvised ones compact; Linux wakes kcompactd for others */
	THP_DEFRAG_MADVISE,	  /* only VMAs with MADV_HUGEPAGE compact */
	THP_DEFRAG_NEVER,	  /* none compacts */
};
extern enum thp_defrag thp_defrag_mode;
/* Return: the gfp of a large folio for a fault in vma, by thp_defrag_mode
 * and VM_HUGEPAGE (Linux: vma_thp_gfp_mask). */
gfp_t vma_thp_gfp_mask(const struct vm_area_struct *vma);
/* Return: the orders among orders that faults in vma may use now. */
unsigned long thp_vma_allowable_orders(const struct vm_area_struct *vma, unsigned long orders);
/* Return: order's mode; set it (the order leaves the other masks). */
enum thp_mode thp_order_mode(unsigned int order);
void thp_set_order_mode(unsigned int order, enum thp_mode mode);
/* A sysfs write: "always", "madvise", "never", and "inherit" if
 * per_size, with or without one trailing newline (Linux: sysfs_streq).
 * Return: 0 with *mode, or -EINVAL. */
int thp_mode_parse(const char *buf, bool per_size, enum thp_mode *mode);
/* Parse "16K,64K,2M", "never" or "always" (every order up to PMD order).
 * Return: 0 with *orders set, or -EINVAL with err describing the word
 * (with THP compiled out, every value but "never"). */
int thp_parse_orders(const char *s, unsigned long *orders, char *err, size_t errlen);
/* `thp SIZES` and thp=: the listed orders always, every other never. */
void thp_set_orders(unsigned long orders);
/* "4K", "64K", "2M": an order's folio size, as Linux names the sysfs
 * dirs. Return: buf. */
const char *thp_order_name(unsigned int order, char *buf, size_t len);
/* mTHP counters per order, named as Linux's per-size stats. */
enum mthp_stat_item {
	MTHP_STAT_ANON_FAULT_ALLOC,
	MTHP_STAT_ANON_FAULT_FALLBACK,
	MTHP_STAT_SPLIT_FAILED,		    /* splits refused */
	MTHP_STAT_SPLIT_DEFERRED,	    /* folios found partially mapped */
	MTHP_STAT_NR_ANON,		    /* anonymous folios of the order now */
	MTHP_STAT_NR_ANON_PARTIALLY_MAPPED, /* ... of which partially mapped */
	MTHP_STAT_NR
};
extern unsigned long mthp_stats[NR_PAGE_ORDERS][MTHP_STAT_NR];
/* A large anonymous folio is freed or split: its nr_anon counts go
 * (mm/folio.c). Linux: folio_undo_large_rmappable. */
void folio_undo_large_rmappable(struct folio *folio);
/* Some but not all of a large anonymous folio's pages are mapped now:
 * the first time, count it partially mapped (split_deferred,
 * nr_anon_partially_mapped, thp_deferred_split_page at PMD size). Linux
 * also queues it for the deferred split shrinker; Folium has none, so
 * it stays whole until something splits it (mm/huge_memory.c). Linux:
 * deferred_split_folio(folio, true). */
void deferred_split_folio(struct folio *folio);
/* The sysfs view of the policy and the stats (fs/sysfs.c makes the files):
 * thp_enabled_attr is .../enabled, thpsize_enabled_attr each
 * hugepages-<size>kB/enabled (priv: the order), and thpsize_stat_attr
 * each file of hugepages-<size>kB/stats/ (priv: THP_STAT_PRIV(order,
 * index into thp_stat_names)). */
struct kobj_attribute;
extern const struct kobj_attribute thp_enabled_attr, thpsize_enabled_attr, thpsize_stat_attr;
/* .../defrag: "always defer defer+madvise [madvise] never". */
extern const struct kobj_attribute thp_defrag_attr;
extern const struct kobj_attribute hpage_pmd_size_attr; /* read-only */
/* A bool switch as a sysfs file, "0" or "1" (priv: the bool). */
extern const struct kobj_attribute bool_knob_attr;
extern const char *const thp_stat_names[];
extern const unsigned int nr_thp_stat_names;
#define THP_STAT_PRIV(order, idx) ((void *)(uintptr_t)((order) << 8 | (idx)))
/* "hugepages-64kB": the directory of order (Linux: thpsize_create). */
const char *thpsize_dir_name(unsigned int order, char *buf, size_t len);
/* Boot, after mm_init: apply thp= (a bad value is reported and the
 * default, PMD size only as Linux's, kept) and register
 * anon_migrate_folio as the migration hook. Shell: `thp`. */
void thp_init(void);
/* Split a large folio that nobody maps into 2^order order-0 folios, each
 * with refcount 1, the folio's data flags and owner, in its place on its
 * LRU list. Counts split_count[order], and THP_SPLIT_PAGE at PMD order
 * (Linux counts that event for PMD-size folios only). Return: 0 (an
 * order-0 folio is already split), or -EBUSY if it is locked or has
 * extra references or mappings (as Linux, the caller then skips it). */
int split_folio(struct folio *folio);
/* Large folios of every order pgdat split so far (Folium's evidence
 * counter: the sum of split_count). */
static inline unsigned long node_split_count(const struct pglist_data *pgdat)
{
	unsigned long n = 0;

	for (int order = 1; order < NR_PAGE_ORDERS; order++)
		n += pgdat->split_count[order];
	return n;
}
/* Split a large anon folio still mapped by its mm (PTEs, or one PMD
 * leaf, split into PTEs first) into order-0 folios: a piece whose PTE is
 * present keeps that mapping, a piece no longer mapped is freed.
 * Return: 0, -EBUSY (locked, extra references, or mapped where rmap
 * cannot see: nothing changed, a PMD leaf included), or -ENOMEM (no
 * page for the PTE table). Linux: split_folio after unmapping the folio
 * to migration entries (splitting the PMD) and remapping the pieces. */
int split_anon_folio_mapped(struct folio *folio);
/* Replace the PMD leaf at pmdp by a PTE table with the same translations
 * (one PMD mapping becomes 512 PTE mappings). split_huge_pmd: only if a
 * leaf maps addr and addr is not its first byte (a range end cutting it).
 * Return: 0 or -ENOMEM. */
int __split_huge_pmd(struct mm_struct *mm, pmd_t *pmdp, unsigned long addr);
int split_huge_pmd(struct mm_struct *mm, unsigned long addr);
/* The huge zero folio (mm/huge_memory.c): 2 MiB of zeroes a read fault
 * maps by one read-only PMD where a PMD-size folio would fit. Like the
 * zero page, allocated on first use (THP_ZERO_PAGE_ALLOC, or _FAILED) and
 * freed with the last mm holding it. is_huge_zero_pmd: does the leaf map
 * it? set_huge_zero_folio: map it at the empty pmd for addr; 0, or
 * -ENOMEM. A split turns it into 512 zero-page PTEs. */
bool is_huge_zero_pmd(pmd_t pmd);
bool is_huge_zero_folio(const struct folio *folio);
int set_huge_zero_folio(struct mm_struct *mm, struct vm_area_struct *vma, pmd_t *pmd,
			unsigned long addr);
void mm_put_huge_zero_folio(struct mm_struct *mm);
/* The huge zero folio with mm's reference taken the first time (Linux:
 * mm_get_huge_zero_folio); NULL when memory is short. */
struct folio *mm_get_huge_zero_folio(struct mm_struct *mm);
/* fork: copy the PMD leaf at src_pmd (addr PMD-aligned) into the empty
 * dst_pmd. The huge zero folio is shared as it is; an anonymous THP gets
 * one more PMD mapping, write-protected in both mms (Linux:
 * copy_huge_pmd). */
void copy_huge_pmd(struct mm_struct *dst_mm, struct mm_struct *src_mm, pmd_t *dst_pmd,
		   pmd_t *src_pmd, unsigned long addr);
/* A write to the read-only PMD leaf at pmd in a VM_WRITE VMA: an
 * exclusive THP is made writable in place; a shared one has its PMD split
 * and the caller goes on with the PTE (Linux: do_huge_pmd_wp_page).
 * Return: true when done (the PMD reused), false after the split (or
 * -ENOMEM in *err). */
bool do_huge_pmd_wp_page(struct mm_struct *mm, unsigned long addr, pmd_t *pmd, int *err);
/* MADV_FREE of the PMD leaf at pmdp for [addr, next): a leaf wholly
 * inside is invalidated, rewritten old and clean and lazyfreed, without a
 * split; one only partly inside has its folio split when it can be.
 * Return: true when the leaf was lazyfreed here; false when the caller
 * goes on with the PTE table at pmdp, if there is one (none when the
 * folio was skipped: mapped elsewhere, locked, or not splittable). */
bool madvise_free_huge_pmd(struct mmu_gather *tlb, pmd_t *pmdp, unsigned long addr,
			   unsigned long next);

/* --- clearing (mm/clear.c over the arch instructions) --------------------------------- */
/* Zero npages pages at the kernel virtual address addr with `rep stosb`
 * when the CPU has ERMS or FSRM, `rep stosq` otherwise, unless
 * clear_pages_select() chose ("stosb"/"stosq", cmdline clear_pages=).
 * Return of clear_pages_select: 0 or -EINVAL. */
void clear_pages(void *addr, unsigned int npages);
const char *clear_pages_insn_name(void);
int clear_pages_select(const char *name);
enum zero_strategy {
	ZERO_NEIGHBOURHOOD, /* upstream folio_zero_user: fault's neighbours last */
	ZERO_CONTIGUOUS,    /* the whole folio in one clear_pages() */
	ZERO_PAGE,	    /* page by page, converging on the fault (older Linux) */
};
extern enum zero_strategy zero_strategy; /* cmdline/shell zero= */
/* Zero a folio about to be mapped at a user address; addr_hint is the
 * faulting address. Every clear goes through clear_pages(). */
void folio_zero_user(struct folio *folio, unsigned long addr_hint);
/* Tests: see every clear_pages() call folio_zero_user makes, in order. */
extern void (*clear_pages_recorder)(void *addr, unsigned int npages);
/* Pages [start, start + nr) of a folio: one clear_pages() call. */
struct folio_zero_range {
	unsigned long start;
	unsigned long nr;
};
/* The ranges ZERO_NEIGHBOURHOOD clears, in clearing order, for a folio of
 * nr_pages whose fault is in page fault_idx. Pure, so tests can ask about
 * folios larger than the allocator gives. Return: how many (1..3). */
unsigned int folio_zero_ranges(unsigned long nr_pages, unsigned long fault_idx,
			       struct folio_zero_range r[3]);
/* Return: "neighbourhood", "contiguous" or "page"; parse: 0 or -EINVAL. */
const char *zero_strategy_name(enum zero_strategy strategy);
int zero_strategy_parse(const char *name, enum zero_strategy *strategy);
/* Boot, after mm_init: apply clear_pages= and zero= from the command line
 * (a bad value is reported and the default kept). */
void clear_pages_init(void);

/* --- reverse mapping and migration (mm/rmap.c) ------------------------------------- */
/*
 * An anon_vma is the reverse map of a family of VMAs: a VMA gets one at
 * its first fault (anon_vma_prepare), the VMAs split from it, moved from
 * it by mremap, and copied from it by fork share it, and every anonymous
 * folio of theirs points at it (folio->mapping, with PG_anon) with the
 * page index of its first page (folio->index, linear_page_index). Folium
 * uses the flat form Linux had before 2.6.34: one anon_vma per family,
 * not Linux's anon_vma_chain hierarchy. Folium's VMAs live by value in
 * each mm's array, so the anon_vma lists the mms (rmap_member) whose VMAs
 * use it, and rmap_walk scans their arrays for those VMAs. refcount
 * counts the member mms and the folios pointing here; the last put frees
 * it, when its last VMA and last folio are gone.
 */
struct rmap_member {
	struct list_head node; /* on anon_vma->mms, or a file's i_mmap */
	struct mm_struct *mm;
	int nr_vmas; /* mm's VMAs using the anon_vma, or mapping the file */
};
struct anon_vma {
	int refcount; /* member mms + folios pointing here */
	struct list_head mms;
};
/* Give vma an anon_vma before its first folio is mapped (Linux:
 * anon_vma_prepare → __anon_vma_prepare; Linux would first try to reuse
 * a mergeable neighbour's, find_mergeable_anon_vma). Return: 0, or
 * -ENOMEM. */
int anon_vma_prepare(struct mm_struct *mm, struct vm_area_struct *vma);
/* One more VMA of mm uses av (a split, a move, a copy by fork). Return:
 * 0, or -ENOMEM when mm is new to av and no memory is left for that. */
int anon_vma_link(struct mm_struct *mm, struct anon_vma *av);
/* A VMA of mm no longer uses av (Linux: unlink_anon_vmas). */
void unlink_anon_vma(struct mm_struct *mm, struct anon_vma *av);
/* The file side (Linux: vma_link_file, the i_mmap tree; Folium lists the
 * member mms, as for an anon_vma): one more (fewer) VMA of mm maps the
 * file whose cache is mapping. Link: 0, or -ENOMEM when mm is new to it
 * and no memory is left for that. */
int i_mmap_link(struct mm_struct *mm, struct address_space *mapping);
void i_mmap_unlink(struct mm_struct *mm, struct address_space *mapping);
/* Return: the anon_vma of an anonymous folio with an owner, else NULL
 * (Linux: folio_anon_vma). */
static inline struct anon_vma *folio_anon_vma(const struct folio *folio)
{
	return folio_test_anon(folio) ? folio->page.mapping : NULL;
}
/* Point folio at av with the page index of its first page, taking a
 * reference on av; clear drops it (the folio is freed or moves away). */
void folio_set_anon_owner(struct folio *folio, struct anon_vma *av, unsigned long index);
void folio_clear_anon_owner(struct folio *folio);
/*
 * The rmap functions keep the mapcounts (<mm.h>): each takes the mm whose
 * entries come or go, for a large folio's MM-ID slots (Linux passes the
 * VMA, for vma->vm_mm). A new anonymous folio mapped at addr in vma
 * (which has its anon_vma): it points at vma's anon_vma, and is mapped by
 * one PMD if of PMD order, else by one PTE per page (Linux:
 * folio_add_new_anon_rmap). Then: nr more (fewer) PTEs of mm map it; a
 * PMD leaf went (Linux: folio_add_anon_rmap_ptes, folio_remove_rmap_ptes,
 * folio_remove_rmap_pmd). For an order-0 folio mm is not used.
 */
void folio_add_new_anon_rmap(struct folio *folio, struct mm_struct *mm, struct vm_area_struct *vma,
			     unsigned long addr);
void folio_add_anon_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm);
/* nr more PTEs of mm map a page-cache folio (the first takes the
 * mappings' reference on it, which the zap of the last gives back). */
void folio_add_file_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm);
/* ... or one PMD leaf of mm maps all of a PMD-sized one. */
void folio_add_file_rmap_pmd(struct folio *folio, struct mm_struct *mm);
/* After entries of a page-cache folio were taken away and flushed: if
 * none maps it any more, the mappings' reference goes (off its LRU list
 * first when truncation took it out of the cache; zap_folio_mapping does
 * the same through the mmu_gather). */
void folio_put_file_mappings(struct folio *folio);
void folio_remove_rmap_ptes(struct folio *folio, unsigned int nr, struct mm_struct *mm);
void folio_remove_rmap_pmd(struct folio *folio, struct mm_struct *mm);
/* A HugeTLB folio's leaves: no mm ids, one count per leaf. */
void hugetlb_add_new_anon_rmap(struct folio *folio);
void hugetlb_add_anon_rmap(struct folio *folio);
void hugetlb_remove_rmap(struct folio *folio);
/* Migration: dst takes src's mapcounts; src reads as unmapped. */
void folio_move_mapcounts(struct folio *dst, struct folio *src);
/*
 * Where a folio is mapped: rmap_walk calls rmap_one for every entry that
 * maps it, in every VMA of every mm that uses its anon_vma, through
 * walk_page_range over the part of the folio's range (vma_address of its
 * index) inside each such VMA: pvmw->pte is a PTE mapping page (address -
 * start) / PAGE_SIZE of the folio, or pvmw->pmd the PMD leaf mapping all
 * of it. After a partial munmap some pages have no PTE; a PTE that maps
 * another folio is not the folio's. A non-zero return of rmap_one stops
 * the walk. vma_done, if set, is called after each VMA's entries with the
 * range walked (Folium's, so a caller flushes each mm's TLB once).
 * rmap_one may change entries, never the VMAs. Return: rmap_one's
 * non-zero value, or 0. Linux: rmap_walk_anon, rmap_one and
 * page_vma_mapped_walk.
 */
struct page_vma_mapped_walk {
	struct folio *folio;
	struct mm_struct *mm;
	struct vm_area_struct *vma;
	unsigned long address; /* of this entry */
	pmd_t *pmd;	       /* set for a PMD leaf (pte NULL) */
	pte_t *pte;	       /* set for a PTE */
};
struct rmap_walk_control {
	void *arg;
	int (*rmap_one)(struct page_vma_mapped_walk *pvmw, void *arg);
	void (*vma_done)(struct mm_struct *mm, unsigned long start, unsigned long end, void *arg);
};
int rmap_walk(struct folio *folio, const struct rmap_walk_control *rwc);
/* Return: the user address of the first page of folio in pvmw's VMA (it
 * may lie below the VMA's start when the VMA holds only part of it). */
static inline unsigned long pvmw_folio_address(const struct page_vma_mapped_walk *pvmw)
{
	return vma_address(pvmw->vma, pvmw->folio->page.index);
}
/* nr more PTEs of a forked child, dst_mm, map nr pages of folio from
 * page on (a PMD: all of it), which stop being anon-exclusive (Linux:
 * folio_try_dup_anon_rmap_ptes / _pmd, which fail only for a pinned
 * exclusive page: Folium has no GUP pins, so never). */
void folio_dup_anon_rmap_ptes(struct folio *folio, struct page *page, unsigned int nr,
			      struct mm_struct *dst_mm);
void folio_dup_anon_rmap_pmd(struct folio *folio, struct mm_struct *dst_mm);
/* Return: how many entries map folio (0 when it has no owner). */
unsigned int folio_count_mappings(struct folio *folio);
/* Return: how many entries map page, a page of folio: its PTE, or the PMD
 * that maps all of folio (/proc/kpagecount). Linux:
 * folio_precise_page_mapcount with CONFIG_PAGE_MAPCOUNT. */
int folio_precise_page_mapcount(struct folio *folio, struct page *page);
/* Unmap every entry mapping folio, one flush for its PTEs' range (a PMD
 * leaf: one flush of its one entry), and drop the mappings from mapcount
 * and MM_ANONPAGES (Linux: try_to_unmap; the caller has decided the
 * contents may go, as for a clean lazyfree folio). */
void try_to_unmap(struct folio *folio);
/* The same, the flush left to @batch (see struct tlbflush_unmap_batch):
 * the caller runs try_to_unmap_flush before it frees the folio. A PMD
 * leaf is still flushed at once. */
void try_to_unmap_batched(struct folio *folio, struct tlbflush_unmap_batch *batch);
/* The migration hook for anonymous folios: copy, remap, flush. */
int anon_migrate_folio(struct folio *dst, struct folio *src);
/* The migration of a page-cache folio: copy, the cache's entry, remap,
 * flush (mm/rmap.c). */
int filemap_migrate_folio(struct folio *dst, struct folio *src);
/* The kernel's migration hook: an anonymous folio through
 * anon_migrate_folio, a page-cache one through filemap_migrate_folio
 * (Linux: move_to_new_folio, which asks the mapping's a_ops). */
int move_to_new_folio(struct folio *dst, struct folio *src);
/* Linux: folio_expected_ref_count, in Folium's reference model: an
 * anonymous folio's mappings hold one reference together; a page-cache
 * folio has one per page from the cache and one from all its mappings
 * together (folio_add_file_rmap_ptes). Return: the references the folio
 * has when no one else holds it (a higher count: it is pinned or in use). */
static inline int folio_expected_ref_count(const struct folio *folio)
{
	if (folio_test_anon(folio))
		return 1;
	return (int)folio_nr_pages(folio) + (folio_mapped(folio) ? 1 : 0);
}

/* --- batched PTE operations for large folios (mm/pgtable.c) ------------------- */
/* Return: how many PTEs from ptep (at most max_nr) map consecutive pages of
 * folio starting with pte's page (pte is *ptep, present), with the same
 * flags except young, dirty and write, which may differ. any_young,
 * any_dirty (either may be NULL): whether one PTE of the run is young,
 * dirty. Linux: folio_pte_batch() without FPB_RESPECT_WRITE, with its
 * any_young and any_dirty. */
unsigned int folio_pte_batch(struct folio *folio, const pte_t *ptep, pte_t pte, unsigned int max_nr,
			     bool *any_young, bool *any_dirty);
/* Linux's FPB_* flags: bits that must then be the same in every PTE of
 * the run (fork copies one entry value to all of them; mprotect and
 * mremap write one value, advanced by pfn, over the run). */
#define FPB_RESPECT_DIRTY 0x1u
#define FPB_RESPECT_SOFT_DIRTY 0x2u
#define FPB_RESPECT_WRITE 0x4u
/* folio_pte_batch with FPB_* @flags; any_writable (may be NULL): whether
 * one PTE of the run is writable. */
unsigned int folio_pte_batch_flags(struct folio *folio, const pte_t *ptep, pte_t pte,
				   unsigned int max_nr, unsigned int flags, bool *any_young,
				   bool *any_dirty, bool *any_writable);
/* Empty nr PTEs of one table (nr PTE writes). Return: the first entry
 * with the young and dirty bits of all of them. The caller flushes.
 * Linux: get_and_clear_full_ptes. */
pte_t get_and_clear_full_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
			      unsigned int nr);
/* Empty nr PTEs of one table before they are written back changed
 * (nr PTE writes). Return: the first entry, made dirty (and so, on x86,
 * soft-dirty) or young when another of them was. The caller flushes.
 * Linux: modify_prot_start_ptes (the generic loop x86 uses). */
pte_t modify_prot_start_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
			     unsigned int nr);
#define CYDP_CLEAR_YOUNG 0x1u
#define CYDP_CLEAR_DIRTY 0x2u
/* Clear the accessed and/or dirty bits of nr PTEs of one table (Linux's
 * generic clear_young_dirty_ptes, as on x86): MM_PTE_WRITES counts young
 * alone as one write per PTE, with dirty two (get and clear, set back).
 * The caller flushes. */
void clear_young_dirty_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep, unsigned int nr,
			    unsigned int cydp_flags);

/* --- soft-dirty and /proc/PID/clear_refs (mm/clear_refs.c) ----------------------------- */
/* What a write to /proc/PID/clear_refs asks (Linux's values). */
enum clear_refs_types {
	CLEAR_REFS_ALL = 1,	   /* every page old, PG_referenced cleared */
	CLEAR_REFS_ANON,	   /* the same for anonymous pages */
	CLEAR_REFS_MAPPED,	   /* the same for file pages: Folium maps none */
	CLEAR_REFS_SOFT_DIRTY,	   /* soft-dirty and write bits off, VM_SOFTDIRTY off */
	CLEAR_REFS_MM_HIWATER_RSS, /* the RSS high-water mark back to the RSS */
	CLEAR_REFS_LAST,
};
/* Linux reads at most PROC_NUMBUF - 1 bytes of a write, and says so. */
#define CLEAR_REFS_MAX_WRITE 12
/* Parse a write as Linux's clear_refs_write: its first
 * CLEAR_REFS_MAX_WRITE bytes (up to a NUL), blanks around them dropped, a
 * decimal int with an optional sign and newline (kstrtoint). Return: 0
 * with *type; -EINVAL (not a number, or not 1..5) or -ERANGE. */
int clear_refs_parse(const char *buf, size_t count, enum clear_refs_types *type);
/* Do what type says to every VMA of mm (see mm/clear_refs.c). Return: 0,
 * or -EINVAL for a type outside 1..5. */
int clear_refs(struct mm_struct *mm, enum clear_refs_types type);

/* --- madvise (mm/madvise.c) ------------------------------------------------------ */
/* The advice served, Linux's values (uapi/asm-generic/mman-common.h). */
#define MADV_WILLNEED 3
#define MADV_DONTNEED 4
#define MADV_FREE 8
#define MADV_REMOVE 9
#define MADV_DONTFORK 10
#define MADV_DOFORK 11
#define MADV_WIPEONFORK 18
#define MADV_KEEPONFORK 19
#define MADV_HUGEPAGE 14
#define MADV_NOHUGEPAGE 15
#define MADV_COLD 20
#define MADV_PAGEOUT 21
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#define MADV_COLLAPSE 25
#define MADV_GUARD_INSTALL 102
#define MADV_GUARD_REMOVE 103
/* Linux's rules: start must be page aligned (-EINVAL), len is rounded up
 * to pages, len 0 is a no-op, unknown advice is -EINVAL, and a range
 * partly outside every VMA is applied to the covered parts and returns
 * -ENOMEM (POPULATE stops at the hole instead). Each advice's own errors
 * are at its function in mm/madvise.c. MADV_HUGEPAGE/NOHUGEPAGE with THP
 * compiled out still set the flags (Linux: -EINVAL), so programs that ask
 * keep running. */
int do_madvise(struct mm_struct *mm, unsigned long start, size_t len, int advice);
/* Return: whether process_madvise may give advice to another process's
 * mm (Linux: process_madvise_remote_valid); for the caller's own mm
 * every advice madvise takes is allowed (Linux 6.13+). */
bool process_madvise_remote_valid(int advice);
/* MADV_FREE's implementation: batched (default, current Linux) or split
 * (each large folio split where it is met, then PTE by PTE, the flush
 * gathered, as before "mm/madvise: optimize lazyfreeing with mTHP in
 * madvise_free"). */
enum lazyfree_mode {
	LAZYFREE_BATCHED,
	LAZYFREE_SPLIT
};
extern enum lazyfree_mode lazyfree_mode; /* cmdline/shell lazyfree= */
/* Return: "batched" or "split"; parse: 0, or -EINVAL for another word. */
const char *lazyfree_mode_name(enum lazyfree_mode mode);
int lazyfree_mode_parse(const char *s, enum lazyfree_mode *mode);
/* Boot, after thp_init: apply lazyfree= (a bad value keeps batched) and
 * make node 0 reclaim lazyfree folios before an allocation fails. */
void lazyfree_init(void);

/* --- mlock (mm/mlock.c) ---------------------------------------------------------- */
/* The system calls are in mm/mlock.c (mlock, mlock2, munlock, mlockall,
 * munlockall; their flags in <mman.h>); these are what the rest of mm
 * calls. */
/* Return: the pages of mm's VM_LOCKED VMAs (Linux: mm->locked_vm, which
 * Folium counts from the VMAs instead of keeping it up to date). */
unsigned long mm_locked_vm(const struct mm_struct *mm);
/* Return: the pages of all of mm's VMAs (Linux: mm->total_vm). */
unsigned long mm_total_vm(const struct mm_struct *mm);
/* Return: the pages of mm's private writable VMAs but the stack (Linux:
 * mm->data_vm, VmData). */
unsigned long mm_data_vm(const struct mm_struct *mm);
/* Linux: may_expand_vm. Return: may mm grow by @npages of a mapping with
 * @flags under the running task's RLIMIT_AS and RLIMIT_DATA? */
bool may_expand_vm(struct mm_struct *mm, unsigned long flags, unsigned long npages);
/*
 * An mlocked folio is PG_mlocked and on its node's lru_unevictable with
 * an mlock_count (page.private: how many VM_LOCKED VMAs locked it);
 * munlock puts it back on its evictable list when the count reaches 0.
 * mlock_folio: a mapped folio of a VMA being locked (or met by reclaim
 * in one). mlock_new_folio: a new folio a fault maps in a VM_LOCKED VMA,
 * not yet on a list. munlock_folio: a VMA mapping it is unlocked or
 * unmapped. Each counts Linux's unevictable_pgs_* events and NR_MLOCK.
 */
void mlock_folio(struct folio *folio);
void mlock_new_folio(struct folio *folio);
void munlock_folio(struct folio *folio);
/* A new folio of vma onto its LRU list: lru_unevictable, mlocked, if
 * vma is VM_LOCKED (Linux: folio_add_lru_vma). */
void folio_add_lru_vma(struct folio *folio, const struct vm_area_struct *vma);
/* Fault in [start, start + len) for mlock: each VMA's pages written if
 * it is writable, read otherwise, VM_LOCKONFAULT VMAs skipped. Return:
 * 0, -ENOMEM (a hole, or a PROT_NONE VMA: Linux's -EFAULT turned into
 * mlock's errno) or -EAGAIN (no memory). ignore_errors: go on with the
 * next VMA instead (mlockall, mmap). Linux: __mm_populate and
 * __mlock_posix_error_return. */
int __mm_populate(struct mm_struct *mm, unsigned long start, unsigned long len, bool ignore_errors);
/* May a new mapping of bytes with vm_flags (VM_LOCKED from MAP_LOCKED or
 * mlockall(MCL_FUTURE)) be locked under task's RLIMIT_MEMLOCK? Always
 * with CAP_IPC_LOCK. Linux: mlock_future_ok (mmap, brk: -EAGAIN). */
struct task_struct;
bool mlock_future_ok(const struct task_struct *task, unsigned long vm_flags, unsigned long bytes);
/* --- collapse (mm/khugepaged.c) ----------------------------------------------------- */
/* MADV_COLLAPSE of [start, end) inside vma: each PMD-aligned 2 MiB of it
 * becomes one PMD-mapped folio (Linux: madvise_collapse). Return: 0 when
 * every such range is PMD-mapped now (also when there is none), else
 * the errno of the last failure: -EINVAL (THP not allowed here, a range
 * with nothing to collapse, read-only, a guard marker), -ENOMEM (no
 * PMD-size folio), -EAGAIN (a folio locked, off the LRU or referenced
 * elsewhere). */
int madvise_collapse(struct mm_struct *mm, struct vm_area_struct *vma, unsigned long start,
		     unsigned long end);

/* --- LRU lists and reclaim (mm/vmscan.c) ------------------------------------------ */
/* New anonymous folio: onto its node's lru_anon (PG_lru set), or the
 * list its flags name (lru_lazyfree, lru_unevictable). */
void folio_add_lru(struct folio *folio);
/* Off whichever LRU list it is on (unmap, migration, split). */
void folio_del_lru(struct folio *folio);
/* MADV_FREE: clear dirty and swapbacked, move to lru_lazyfree, count
 * PGLAZYFREE by the folio's pages. */
void folio_mark_lazyfree(struct folio *folio);
/* MADV_COLD: put folio at the end of its LRU list reclaim takes first
 * and clear PG_referenced (Linux: folio_deactivate). */
void folio_deactivate(struct folio *folio);
/* MADV_PAGEOUT of one folio, reclaimed at once whatever its young bits
 * (Linux: reclaim_pages, shrink_folio_list with ignore_references):
 * without swap only a clean lazyfree folio can go; it is unmapped and
 * freed (counted PGLAZYFREED). A swapbacked large folio is split, as
 * Linux's fallback when no swap slot takes it whole, and its pages stay.
 * Return: pages freed. */
unsigned long reclaim_folio(struct folio *folio);
/* Return: the pages of the folios on list (meminfo's AnonLRU, LazyFree). */
unsigned long lru_list_pages(const struct list_head *list);
/* Reclaim from pgdat's lazyfree list: a folio whose PTEs are all clean
 * and old is unmapped (batched) and freed; a young one is aged and gets a
 * second chance; a written one (dirty PTE or folio) becomes swapbacked
 * and returns to lru_anon with its data. Return: pages freed. */
unsigned long reclaim_lazyfree(struct pglist_data *pgdat, unsigned long nr_to_reclaim);
/* What one reclaim_lazyfree pass did, in pages (shell `reclaim`). */
struct lazyfree_reclaim_stat {
	unsigned long scanned, freed, reactivated, second_chance;
};
unsigned long reclaim_lazyfree_stat(struct pglist_data *pgdat, unsigned long nr_to_reclaim,
				    struct lazyfree_reclaim_stat *stat);
/* Make pgdat's allocations run reclaim_lazyfree before failing (node 0 at
 * boot; tests' private nodes). */
void pgdat_set_lazyfree_reclaim(struct pglist_data *pgdat);

/* --- the lower half, from the kernel (arch: uaccess) -------------------------------- */
/* Copy to/from the current mm's lower half through the MMU; faults are
 * resolved by handle_mm_fault. Return: 0, or -EFAULT after a report
 * ("bad access at ADDR: REASON") when an access cannot be resolved: the
 * workload ends, the kernel goes on. */
int copy_to_user(unsigned long dst, const void *src, size_t len);
int copy_from_user(void *dst, unsigned long src, size_t len);
/* One byte value into len bytes (usemem, poke). */
int fill_user(unsigned long dst, int byte, size_t len);

#endif
