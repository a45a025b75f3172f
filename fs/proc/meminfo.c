/*
 * /proc/meminfo (Linux: fs/proc/meminfo.c): Linux's lines in Linux's
 * order and format ("%-16s%8lu kB"), Folium's numbers where it has them,
 * 0 where it has no such memory (swap). Cached is the page cache: the
 * root's files, which are tmpfs's and so Shmem too (not on an LRU list
 * yet).
 * Node 0 is the machine's memory. Example: "MemFree:         3911768 kB"
 * is node_free_pages(node 0), the per-CPU lists included, times 4.
 * MADV_FREE'd folios are on Linux's inactive file LRU, so they are
 * Inactive(file) here too, and count in MemAvailable (reclaim frees them
 * without I/O). Page tables are per mm: the active mm's are shown.
 */
#include <hugetlb.h>
#include <mman.h>
#include <seq_file.h>
#include <slab.h>
#include <vm.h>
#include <vmalloc.h>

/* Linux: show_val_kb. */
static void show_val_kb(struct seq_file *m, const char *name, unsigned long pages)
{
	seq_printf(m, "%-16s%8lu kB\n", name, pages * (unsigned long)(PAGE_SIZE / KIB));
}

static unsigned long node_managed_pages(const struct pglist_data *pgdat)
{
	unsigned long managed = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		managed += pgdat->node_zones[z].managed_pages;
	return managed;
}

static unsigned long node_free_cma(const struct pglist_data *pgdat)
{
	unsigned long free = 0;

	for (int z = 0; z < MAX_NR_ZONES; z++)
		free += pgdat->node_zones[z].nr_free_cma;
	return free;
}

/* The lines after the LRU ones, which Folium has no memory for but
 * Slab, PageTables and the THP line. */
static void meminfo_kernel(struct seq_file *m, struct pglist_data *pgdat, unsigned long anon)
{
	struct kmalloc_stats ks;
	unsigned long slab;

	kmalloc_stats(0, &ks);
	slab = ks.slab_pages + ks.large_pages;
	show_val_kb(m, "SwapTotal:", 0);
	show_val_kb(m, "SwapFree:", 0);
	show_val_kb(m, "Dirty:", 0);
	show_val_kb(m, "Writeback:", 0);
	show_val_kb(m, "AnonPages:", anon);
	show_val_kb(m, "Mapped:", pgdat->nr_file_mapped);
	show_val_kb(m, "Shmem:", pgdat->nr_shmem);
	show_val_kb(m, "KReclaimable:", 0);
	show_val_kb(m, "Slab:", slab);
	show_val_kb(m, "SReclaimable:", 0);
	show_val_kb(m, "SUnreclaim:", slab);
	seq_printf(m, "KernelStack:    %8lu kB\n", 0ul);
	show_val_kb(m, "PageTables:", current_mm ? current_mm->counters[MM_PGTABLES] : 0);
	show_val_kb(m, "SecPageTables:", 0);
	show_val_kb(m, "NFS_Unstable:", 0);
	show_val_kb(m, "Bounce:", 0);
	show_val_kb(m, "WritebackTmp:", 0);
	show_val_kb(m, "CommitLimit:", vm_commit_limit());
	show_val_kb(m, "Committed_AS:", vm_memory_committed());
	/* Linux's VMALLOC_TOTAL: its VMALLOC_END is the last byte, so the
	 * line is one byte short of the range (34359738367 kB on x86-64). */
	seq_printf(m, "VmallocTotal:   %8lu kB\n",
		   (unsigned long)((VMALLOC_END - 1 - VMALLOC_START) / KIB));
	show_val_kb(m, "VmallocUsed:", vmalloc_nr_pages());
	show_val_kb(m, "VmallocChunk:", 0);
	show_val_kb(m, "Percpu:", 0);
	if (CONFIG_TRANSPARENT_HUGEPAGE) {
		show_val_kb(m, "AnonHugePages:", vm_anon_thps(pgdat) << HPAGE_PMD_ORDER);
		show_val_kb(m, "ShmemHugePages:", pgdat->nr_shmem_thps);
		show_val_kb(m, "ShmemPmdMapped:", pgdat->nr_shmem_pmdmapped);
		show_val_kb(m, "FileHugePages:", pgdat->nr_file_thps);
		show_val_kb(m, "FilePmdMapped:", pgdat->nr_file_pmdmapped);
	}
}

int meminfo_proc_show(struct seq_file *m, void *v)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long free, active_anon, lazy, unevictable;

	(void)v;
	if (!pgdat)
		return -ENODEV;
	free = node_free_pages(pgdat);
	active_anon = lru_list_pages(&pgdat->lru_anon);
	lazy = lru_list_pages(&pgdat->lru_lazyfree);
	unevictable = lru_list_pages(&pgdat->lru_unevictable);
	show_val_kb(m, "MemTotal:", node_managed_pages(pgdat));
	show_val_kb(m, "MemFree:", free);
	show_val_kb(m, "MemAvailable:", free + lazy);
	show_val_kb(m, "Buffers:", 0);
	/* Linux: NR_FILE_PAGES less swap cache and buffers (none here). */
	show_val_kb(m, "Cached:", pgdat->nr_file_pages);
	show_val_kb(m, "SwapCached:", 0);
	show_val_kb(m, "Active:", active_anon);
	show_val_kb(m, "Inactive:", lazy);
	show_val_kb(m, "Active(anon):", active_anon);
	show_val_kb(m, "Inactive(anon):", 0);
	show_val_kb(m, "Active(file):", 0);
	show_val_kb(m, "Inactive(file):", lazy);
	show_val_kb(m, "Unevictable:", unevictable);
	show_val_kb(m, "Mlocked:", pgdat->nr_mlock);
	meminfo_kernel(m, pgdat, active_anon + lazy + unevictable);
	show_val_kb(m, "CmaTotal:", boot_cma ? boot_cma->count : 0);
	show_val_kb(m, "CmaFree:", node_free_cma(pgdat));
	hugetlb_report_meminfo(m);
	return 0;
}
