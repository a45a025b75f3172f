/*
 * /proc and /sys against the kernel's own numbers (in-kernel only: the
 * files are read through their file_operations on a struct file set up
 * here, into a user buffer of a private mm, as read() would). Examples:
 * /proc/meminfo's MemFree is node_free_pages(node 0) × 4 kB at that
 * moment; /proc/1/maps lists the test mm's VMAs with their perms;
 * writing "never" to hugepages-64kB/enabled makes a fault in a 64K-aligned
 * range map an order-0 folio; a smaps of 40 VMAs outgrows one page.
 */
#include <binfmt_elf.h>
#include <compaction.h>
#include <kernel-page-flags.h>
#include <kernel_stat.h>
#include <ktest.h>
#include <smp.h>
#include <mm.h>
#include <mman.h>
#include <sched.h>
#include <seq_file.h>
#include <shmem_fs.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <vm.h>
#include <vmalloc.h>
#include "../../mm/tests/mm_test_util.h"
#include "ktest_task.h"

#define UBUF 0x400000ul /* user buffer: UBUF_PAGES pages */
#define UBUF_PAGES 16ul
#define AREA 0x40000000ul /* where cases map their VMAs (1 GiB aligned) */
#define HEAP 0x10000000ul /* the task's start_brk */
#define THP64 "/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled"
#define THP_DEFRAG "/sys/kernel/mm/transparent_hugepage/defrag"
#define THP_DIR "/sys/kernel/mm/transparent_hugepage"

static struct task_struct *task;
static struct proc_inode task_pi; /* what /proc/PID's inodes of task hold */
static struct mm_struct *mm, *prev_mm;
static unsigned long saved_always, saved_madvise, saved_inherit;
static enum thp_mode saved_global;
static char text[UBUF_PAGES * PAGE_SIZE + 1]; /* what a file read gave */

static int procfs_test_init(struct kunit *test)
{
	struct ramfs_inode *exe;

	(void)test;
	saved_always = thp_orders_enabled;
	saved_madvise = huge_anon_orders_madvise;
	saved_inherit = huge_anon_orders_inherit;
	saved_global = thp_global_mode;
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(
		    vm_mmap(mm, UBUF, UBUF_PAGES * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	task = ktest_task_create(mm);
	if (!task)
		return -1;
	/* The file its exe link names: the initramfs's /bin/hello, where
	 * the boot has one (not the matrix's boots). */
	if (ramfs_lookup(&rootfs, "/bin/hello", true, &exe))
		exe = NULL;
	if (exe)
		ihold(exe); /* free_task drops it */
	task->exe_file = exe;
	task_pi = (struct proc_inode){ .pid = task->pid };
	mm->start_brk = mm->brk = HEAP;
	return 0;
}

static void procfs_test_exit(struct kunit *test)
{
	(void)test;
	free_task(task);
	switch_mm(prev_mm);
	mm_destroy(mm);
	thp_orders_enabled = saved_always;
	huge_anon_orders_madvise = saved_madvise;
	huge_anon_orders_inherit = saved_inherit;
	thp_global_mode = saved_global;
}

/* Open inode as open() would for mode (FMODE_READ, FMODE_WRITE). */
static int file_open_mode(struct ramfs_inode *inode, struct file *file, uint32_t mode)
{
	*file = (struct file){
		.f_op = inode->i_fop, .f_inode = inode, .f_count = 1, .f_mode = mode
	};
	return file->f_op->open ? file->f_op->open(inode, file) : 0;
}

static int file_open(struct ramfs_inode *inode, struct file *file)
{
	return file_open_mode(inode, file, FMODE_READ);
}

/* Close as the last fput would: a file may have no release. */
static void file_release(struct ramfs_inode *inode, struct file *file)
{
	if (file->f_op->release)
		file->f_op->release(inode, file);
}

/* The whole file through read() calls of chunk bytes into UBUF; text
 * holds it NUL-terminated. Return: bytes, or the first error. */
static long read_all(struct ramfs_inode *inode, size_t chunk)
{
	struct file file;
	long total = 0, n;
	int err = file_open(inode, &file);

	if (err)
		return err;
	while ((n = file.f_op->read(&file, UBUF, chunk, &file.f_pos)) > 0) {
		if ((size_t)(total + n) >= sizeof(text) || copy_from_user(text + total, UBUF, n))
			break;
		total += n;
	}
	text[total] = '\0';
	file_release(inode, &file);
	return n < 0 ? n : total;
}

static long read_path(const char *path)
{
	struct ramfs_inode *inode;

	if (ramfs_lookup(&rootfs, path, true, &inode) || !inode->i_fop)
		return -ENOENT;
	return read_all(inode, PAGE_SIZE);
}

/* A task's file: its own inode, as /proc/PID/... with the task's pid */
static long read_task_file(const struct file_operations *fops, size_t chunk)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0444, .i_fop = fops, .i_private = &task_pi };

	return read_all(&inode, chunk);
}

/* Write s to a sysfs file from the user buffer. Return: write's value. */
static long write_path(const char *path, const char *s)
{
	struct ramfs_inode *inode;
	struct file file;
	long ret;

	if (ramfs_lookup(&rootfs, path, true, &inode) || !inode->i_fop)
		return -ENOENT;
	if (copy_to_user(UBUF, s, strlen(s)))
		return -EFAULT;
	ret = file_open_mode(inode, &file, FMODE_WRITE);
	if (ret)
		return ret;
	ret = file.f_op->write(&file, UBUF, strlen(s), &file.f_pos);
	file_release(inode, &file);
	return ret;
}

/* /proc/sys/vm/compact_memory as current Linux reads it (proc_dointvec,
 * then "1" only): 1 compacts every node (compact_migrate_scanned grows), any
 * other value or text is -EINVAL, and it is not readable. Linux 6.1
 * compacted on any write; /bin/mmtest accepts both on Linux. */
static void compact_memory_takes_1_only(struct kunit *test)
{
	const char *path = "/proc/sys/vm/compact_memory";
	unsigned long scanned = NODE_DATA(0)->vm_events[COMPACTMIGRATE_SCANNED];

	KUNIT_EXPECT_EQ(test, write_path(path, "1\n"), 2);
	KUNIT_EXPECT_GT(test, NODE_DATA(0)->vm_events[COMPACTMIGRATE_SCANNED], scanned);
	KUNIT_EXPECT_EQ(test, write_path(path, "x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_path(path, "2"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_path(path, "1x"), -EINVAL);
	KUNIT_EXPECT_LT(test, read_path(path), 0);
}

/* /proc/sys/vm: every registered entry is a file with its table's mode;
 * a 0644 file reads its value and a newline, and a write sets it (the
 * handler's checks apply). min_free_kbytes written moves node 0's min
 * watermark; mmap_min_addr and max_map_count read Debian's Linux's
 * defaults. */
static void proc_sys_vm_files_read_and_write_their_variables(struct kunit *test)
{
	const char *min_path = "/proc/sys/vm/min_free_kbytes";
	struct zone *zone = &NODE_DATA(0)->node_zones[ZONE_NORMAL];
	unsigned long wmark_min;
	int saved = min_free_kbytes;
	struct ramfs_inode *inode;
	char want[32];

	if (!zone->managed_pages)
		zone = &NODE_DATA(0)->node_zones[ZONE_DMA32];
	wmark_min = zone->_watermark[WMARK_MIN];
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/sys/vm/extfrag_threshold", true, &inode),
			0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0644);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/sys/vm/compact_memory", true, &inode),
			0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0200);
	KUNIT_EXPECT_EQ(test, read_path("/proc/sys/vm/mmap_min_addr"), 6);
	KUNIT_EXPECT_STREQ(test, text, "65536\n");
	KUNIT_EXPECT_EQ(test, read_path("/proc/sys/vm/max_map_count"), 6);
	KUNIT_EXPECT_STREQ(test, text, "65530\n");
	ksnprintf(want, sizeof(want), "%d\n", min_free_kbytes);
	KUNIT_EXPECT_GT(test, read_path(min_path), 0);
	KUNIT_EXPECT_STREQ(test, text, want);
	ksnprintf(want, sizeof(want), "%d\n", 2 * saved);
	KUNIT_EXPECT_EQ(test, write_path(min_path, want), (long)strlen(want));
	KUNIT_EXPECT_EQ(test, min_free_kbytes, 2 * saved);
	KUNIT_EXPECT_GT(test, zone->_watermark[WMARK_MIN], wmark_min);
	KUNIT_EXPECT_EQ(test, write_path(min_path, "-1"), -EINVAL);
	ksnprintf(want, sizeof(want), "%d", saved);
	KUNIT_EXPECT_EQ(test, write_path(min_path, want), (long)strlen(want));
	KUNIT_EXPECT_EQ(test, zone->_watermark[WMARK_MIN], wmark_min);
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/vm/extfrag_threshold", "1001"), -EINVAL);
	KUNIT_EXPECT_EQ(test, sysctl_extfrag_threshold, 500);
}

/* The number after "name" at a line start in text, or -1. */
static long field(const char *name)
{
	size_t n = strlen(name);

	for (const char *p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		uint64_t v = 0;

		if (strncmp(p, name, n))
			continue;
		for (p += n; *p == ' '; p++)
			;
		while (*p >= '0' && *p <= '9')
			v = v * 10 + (uint64_t)(*p++ - '0');
		return (long)v;
	}
	return -1;
}

static void meminfo_memfree_is_node_free_pages(struct kunit *test)
{
	struct seq_file m;
	unsigned long free;

	KUNIT_ASSERT_EQ(test, seq_fill(&m, meminfo_proc_show, NULL), 0);
	free = node_free_pages(NODE_DATA(0)); /* the buffer is still held */
	ksnprintf(text, sizeof(text), "%.*s", (int)m.count, m.buf);
	seq_release_buf(&m);
	KUNIT_EXPECT_EQ(test, field("MemFree:"), (long)free * 4);
	KUNIT_EXPECT_EQ(test, strncmp(text, "MemTotal:       ", 16), 0);
	KUNIT_EXPECT_GT(test, field("MemAvailable:"), 0);
	KUNIT_EXPECT_EQ(test, field("HugePages_Total:"), 0);
	KUNIT_EXPECT_EQ(test, field("Hugepagesize:"), 2048);
	/* Linux's x86-64 number; the suite's task holds a vmalloc'ed stack. */
	KUNIT_EXPECT_EQ(test, field("VmallocTotal:"), 34359738367l);
	KUNIT_EXPECT_GE(test, field("VmallocUsed:"), (long)(THREAD_SIZE / 1024));
	KUNIT_EXPECT_EQ(test, field("VmallocUsed:"), (long)vmalloc_nr_pages() * 4);
	/* Through the file too. */
	KUNIT_EXPECT_GT(test, read_path("/proc/meminfo"), 0);
	KUNIT_EXPECT_GT(test, field("MemFree:"), 0);
}

static void buddyinfo_counts_are_the_free_areas(struct kunit *test)
{
	struct zone *zone;
	char line[256];
	int len = 0;

	KUNIT_ASSERT_GT(test, read_path("/proc/buddyinfo"), 0);
	for (zone = NODE_DATA(0)->node_zones; !zone->present_pages; zone++)
		;
	len = ksnprintf(line, sizeof(line), "Node 0, zone %8s ", zone->name);
	for (int order = 0; order < NR_PAGE_ORDERS; order++)
		len += ksnprintf(line + len, sizeof(line) - len, "%6lu ",
				 zone->free_area[order].nr_free);
	KUNIT_EXPECT_EQ(test, strncmp(text, line, len), 0);
	KUNIT_EXPECT_EQ(test, text[len], '\n');
}

static void pagetypeinfo_has_linux_sections(struct kunit *test)
{
	KUNIT_ASSERT_GT(test, read_path("/proc/pagetypeinfo"), 0);
	KUNIT_EXPECT_EQ(test, field("Page block order:"), (long)pageblock_order);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\nFree pages count per migrate type at order "
						 "      0      1 "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\nNumber of blocks type     Unmovable "));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, ", type    Unmovable "));
}

/* Linux's "Number of mixed blocks" section of node 0 as
 * zone_mixed_pageblocks() counts it now. Return: its length. */
static int mixed_blocks_section(char *buf, size_t size)
{
	struct zone *zones = NODE_DATA(0)->node_zones;
	int len = ksnprintf(buf, size, "\nNumber of mixed blocks ");

	for (int mt = 0; mt < MIGRATE_TYPES; mt++)
		len += ksnprintf(buf + len, size - len, "%12s ", migratetype_names[mt]);
	len += ksnprintf(buf + len, size - len, "\n");
	for (struct zone *zone = zones; zone < zones + MAX_NR_ZONES; zone++) {
		unsigned long count[MIGRATE_TYPES];

		if (!zone->present_pages)
			continue;
		zone_mixed_pageblocks(zone, count);
		len += ksnprintf(buf + len, size - len, "Node 0, zone %8s ", zone->name);
		for (int mt = 0; mt < MIGRATE_TYPES; mt++)
			len += ksnprintf(buf + len, size - len, "%12lu ", count[mt]);
		len += ksnprintf(buf + len, size - len, "\n");
	}
	return len;
}

/*
 * The mixed blocks follow the blocks per type, with the counts of page
 * owner's walk while the file's buffer is held (nothing is allocated
 * between the show and the count). One page re-recorded as asked for
 * another type than its pageblock's makes sure node 0 has a mixed one.
 */
static void pagetypeinfo_mixed_blocks_are_page_owner_counts(struct kunit *test)
{
	struct page *page = alloc_pages(GFP_KERNEL, 0);
	char want[512];
	struct seq_file m;
	gfp_t other;
	int err;

	KUNIT_ASSERT_NOT_NULL(test, page);
	other = get_pageblock_migratetype(page) == MIGRATE_MOVABLE ? GFP_KERNEL
								   : GFP_HIGHUSER_MOVABLE;
	set_page_owner(page, other);
	KUNIT_EXPECT_TRUE(test, pageblock_mixed(page_zone(page), page_to_pfn(page)));
	err = seq_fill(&m, pagetypeinfo_show, NULL);
	if (!err) {
		mixed_blocks_section(want, sizeof(want));
		ksnprintf(text, sizeof(text), "%.*s", (int)m.count, m.buf);
		seq_release_buf(&m);
	}
	__free_pages(page, 0);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	KUNIT_EXPECT_GT(test, strstr(text, "\nNumber of mixed blocks    Unmovable      Movable "),
			strstr(text, "\nNumber of blocks type "));
	/* Through the file too. */
	KUNIT_ASSERT_GT(test, read_path("/proc/pagetypeinfo"), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\nNumber of mixed blocks    Unmovable "));
}

/* The zone's watermarks and sizes, as user/lazyfree.c reads them. */
static void zoneinfo_has_the_watermarks(struct kunit *test)
{
	struct zone *zone;
	char want[256];

	KUNIT_ASSERT_GT(test, read_path("/proc/zoneinfo"), 0);
	for (zone = NODE_DATA(0)->node_zones; !zone->present_pages; zone++)
		;
	ksnprintf(want, sizeof(want), "Node 0, zone %8s\n  pages free     ", zone->name);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	ksnprintf(want, sizeof(want),
		  "\n        min      %lu\n        low      %lu\n        high     %lu\n",
		  zone->_watermark[WMARK_MIN], zone->_watermark[WMARK_LOW],
		  zone->_watermark[WMARK_HIGH]);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	ksnprintf(want, sizeof(want), "\n        managed  %lu\n", zone->managed_pages);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\n        protection: (0, 0)\n"));
	KUNIT_EXPECT_GT(test, zone->_watermark[WMARK_HIGH], 0ul);
}

static void vmstat_names_linux_counters(struct kunit *test)
{
	unsigned long free = 0;

	/* With the per-CPU lists empty, the read's buffers come from a refill
	 * taken before the file is printed, and go back to the lists, not to
	 * the free lists (a batch is far below high): the count printed is
	 * the count after. Full lists left by the cases before could instead
	 * drain into the free lists once the file is printed. The user
	 * buffer is faulted in first: its fault would refill the lists after
	 * the printing. */
	KUNIT_ASSERT_EQ(test, copy_to_user(UBUF, text, PAGE_SIZE), 0);
	drain_node_pages(NODE_DATA(0));
	KUNIT_ASSERT_GT(test, read_path("/proc/vmstat"), 0);
	for (int z = 0; z < MAX_NR_ZONES; z++)
		free += NODE_DATA(0)->node_zones[z].nr_free_pages;
	KUNIT_EXPECT_EQ(test, field("nr_free_pages"), (long)free);
	KUNIT_EXPECT_EQ(test, field("pglazyfree"), (long)NODE_DATA(0)->vm_events[PGLAZYFREE]);
	KUNIT_EXPECT_EQ(test, field("pgfault"), (long)NODE_DATA(0)->vm_events[PGFAULT]);
	KUNIT_EXPECT_EQ(test, field("pgmajfault"), 0);
	KUNIT_EXPECT_GE(test, field("thp_fault_alloc"), 0);
	KUNIT_EXPECT_EQ(test, field("pgalloc_fail"), -1); /* Folium's own: the shell shows it */
}

static void maps_lists_the_vmas_with_their_perms(struct kunit *test)
{
	char want[256];

	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 2 * PAGE_SIZE, VM_READ | VM_USER, 0), AREA);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, HEAP, PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0), HEAP);
	mm->brk = HEAP + 100;
	/* Linux pads the name to column 73 (seq_setwidth 72, then a blank). */
	ksnprintf(want, sizeof(want), "00400000-00410000 rw-p 00000000 00:00 0 \n%-72s [heap]\n%s",
		  "10000000-10001000 rw-p 00000000 00:00 0 ",
		  "40000000-40002000 r--p 00000000 00:00 0 \n");
	KUNIT_ASSERT_GT(test, read_task_file(&proc_pid_maps_fops, 7), 0);
	KUNIT_EXPECT_STREQ(test, text, want);
}

/* Read /proc/PID/smaps into text and keep it from the entry that starts
 * with @entry (the user buffer's VMA comes first). Return: whether the
 * file read and had that entry. */
static bool smaps_from(const char *entry)
{
	const char *at;

	if (read_task_file(&proc_pid_smaps_fops, PAGE_SIZE) <= 0 || !(at = strstr(text, entry)))
		return false;
	memmove(text, at, strlen(at) + 1);
	return true;
}

static void read_smaps_from(struct kunit *test, const char *entry)
{
	KUNIT_ASSERT_TRUE(test, smaps_from(entry));
}

static void smaps_rss_counts_touched_pages(struct kunit *test)
{
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 64 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 5 * PAGE_SIZE), 0);
	read_smaps_from(test, "40000000-40040000 rw-p");
	KUNIT_EXPECT_EQ(test, field("Size:"), 256);
	KUNIT_EXPECT_EQ(test, field("Rss:"), 20);
	KUNIT_EXPECT_EQ(test, field("Pss:"), 20);
	KUNIT_EXPECT_EQ(test, field("Private_Dirty:"), 20);
	KUNIT_EXPECT_EQ(test, field("Anonymous:"), 20);
	KUNIT_EXPECT_EQ(test, field("AnonHugePages:"), 0);
	KUNIT_EXPECT_EQ(test, field("THPeligible:"), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "VmFlags: rd wr mr mw me ac sd\n"));
	KUNIT_EXPECT_EQ(test, field("AnonFolio4kB:"), 20);
	KUNIT_EXPECT_NULL(test, strstr(text, "AnonFolio64kB:"));
	/* MADV_FREE'd pages are LazyFree once clean. */
	KUNIT_ASSERT_EQ(test, do_madvise(mm, AREA, 2 * PAGE_SIZE, MADV_FREE), 0);
	read_smaps_from(test, "40000000-40040000 rw-p");
	KUNIT_EXPECT_EQ(test, field("LazyFree:"), 8);
}

static void smaps_counts_pmd_mapped_thp(struct kunit *test)
{
	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return;
	thp_set_orders(1ul << HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0), AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, test_mapped_order(mm, AREA), HPAGE_PMD_ORDER);
	read_smaps_from(test, "40000000-40200000");
	KUNIT_EXPECT_EQ(test, field("Rss:"), 2048);
	KUNIT_EXPECT_EQ(test, field("AnonHugePages:"), 2048);
	KUNIT_EXPECT_EQ(test, field("AnonFolio2048kB:"), 2048);
	KUNIT_EXPECT_EQ(test, field("THPeligible:"), 1);
}

/* A PMD leaf of shared anonymous memory (a shmem folio) is Rss,
 * ShmemPmdMapped and Pss_Shmem, not anonymous (Linux: smaps_pmd_entry,
 * smaps_page_accumulate); /proc/meminfo and /proc/vmstat count it too. */
static void smaps_counts_pmd_mapped_shmem(struct kunit *test)
{
	unsigned long saved = huge_shmem_orders_always;
	struct file *file;

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return;
	shmem_set_order_mode(HPAGE_PMD_ORDER, SHMEM_HUGE_ALWAYS);
	file = shmem_zero_setup(PMD_SIZE, 0);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test,
			vm_mmap_file(mm, AREA, PMD_SIZE,
				     VM_READ | VM_WRITE | VM_SHARED | VM_MAYWRITE | VM_MAYSHARE,
				     file, 0),
			AREA);
	fput(file);
	KUNIT_EXPECT_EQ(test, fill_user(AREA, 1, 1), 0);
	huge_shmem_orders_always = saved;
	read_smaps_from(test, "40000000-40200000");
	KUNIT_EXPECT_EQ(test, field("Rss:"), 2048);
	KUNIT_EXPECT_EQ(test, field("ShmemPmdMapped:"), 2048);
	KUNIT_EXPECT_EQ(test, field("FilePmdMapped:"), 0);
	KUNIT_EXPECT_EQ(test, field("AnonHugePages:"), 0);
	KUNIT_EXPECT_EQ(test, field("Anonymous:"), 0);
	KUNIT_ASSERT_GT(test, read_task_file(&proc_pid_smaps_rollup_fops, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, field("Pss_Shmem:"), 2048);
	KUNIT_EXPECT_EQ(test, field("Pss_File:"), 0);
	KUNIT_EXPECT_EQ(test, field("Pss_Anon:"), field("Pss:") - 2048);
	KUNIT_EXPECT_GT(test, read_path("/proc/meminfo"), 0);
	KUNIT_EXPECT_GE(test, field("ShmemPmdMapped:"), 2048);
	KUNIT_EXPECT_GE(test, field("ShmemHugePages:"), 2048);
	KUNIT_EXPECT_GT(test, read_path("/proc/vmstat"), 0);
	KUNIT_EXPECT_GE(test, field("nr_shmem_pmdmapped "), 1);
	KUNIT_EXPECT_GE(test, field("thp_file_mapped "), 1);
	KUNIT_EXPECT_GE(test, field("thp_file_alloc "), 1);
}

/* Folium's per-size lines: 64 KiB folios; MADV_DONTNEED of one page
 * leaves its folio whole (partly mapped, as Linux); then the second half
 * faulted with large folios off is 4 kB folios beside the 64 kB ones. */
static void smaps_counts_anon_folios_per_size(struct kunit *test)
{
	unsigned int order = 4; /* 64 KiB */

	if (!CONFIG_TRANSPARENT_HUGEPAGE || order > MAX_PAGE_ORDER)
		return;
	thp_set_orders(1ul << order);
	KUNIT_ASSERT_EQ(
		test, vm_mmap(mm, AREA, 4 * (PAGE_SIZE << order), VM_READ | VM_WRITE | VM_USER, 0),
		AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 4 * (PAGE_SIZE << order)), 0);
	KUNIT_ASSERT_EQ(test, test_mapped_order(mm, AREA), order);
	read_smaps_from(test, "40000000-40040000");
	KUNIT_EXPECT_EQ(test, field("AnonFolio64kB:"), 256);
	KUNIT_EXPECT_NULL(test, strstr(text, "AnonFolio4kB:"));
	KUNIT_ASSERT_EQ(test, do_madvise(mm, AREA + PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED), 0);
	read_smaps_from(test, "40000000-40040000");
	KUNIT_EXPECT_EQ(test, field("AnonFolio64kB:"), 252);
	KUNIT_EXPECT_EQ(test, field("Rss:"), 252);
	KUNIT_ASSERT_EQ(test,
			do_madvise(mm, AREA + 2 * (PAGE_SIZE << order), 2 * (PAGE_SIZE << order),
				   MADV_DONTNEED),
			0);
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test,
			fill_user(AREA + 2 * (PAGE_SIZE << order), 1, 2 * (PAGE_SIZE << order)), 0);
	read_smaps_from(test, "40000000-40040000");
	KUNIT_EXPECT_EQ(test, field("AnonFolio64kB:"), 124);
	KUNIT_EXPECT_EQ(test, field("AnonFolio4kB:"), 128);
	KUNIT_EXPECT_EQ(test, field("Rss:"), 252);
}

/* Linux's seq_read would produce it piecewise; here the buffer doubles. */
static void smaps_of_many_vmas_outgrows_one_page(struct kunit *test)
{
	long len;
	int n = 0;

	for (unsigned long i = 0; i < 40; i++)
		KUNIT_ASSERT_EQ(test,
				vm_mmap(mm, AREA + i * 2 * PAGE_SIZE, PAGE_SIZE,
					VM_READ | VM_USER | (i & 1 ? VM_WRITE : 0), 0),
				AREA + i * 2 * PAGE_SIZE);
	len = read_task_file(&proc_pid_smaps_fops, 1000);
	KUNIT_EXPECT_GT(test, len, (long)(4 * PAGE_SIZE));
	for (const char *p = text; (p = strstr(p, "\nVmFlags:")); p++)
		n++;
	KUNIT_EXPECT_EQ(test, n, mm->nr_vmas);
	KUNIT_EXPECT_EQ(test, (long)strlen(text), len);
}

static void seq_lseek_follows_linux(struct kunit *test)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0444,
				     .i_fop = &proc_pid_maps_fops,
				     .i_private = &task_pi };
	struct file file;
	char got[8] = { 0 };

	KUNIT_ASSERT_EQ(test, file_open(&inode, &file), 0);
	KUNIT_EXPECT_EQ(test, file.f_op->llseek(&file, 9, SEEK_SET), 9);
	KUNIT_EXPECT_EQ(test, file.f_op->llseek(&file, 2, SEEK_CUR), 11);
	KUNIT_EXPECT_EQ(test, file.f_op->llseek(&file, 0, SEEK_END), -EINVAL);
	KUNIT_EXPECT_EQ(test, file.f_op->llseek(&file, -20, SEEK_CUR), -EINVAL);
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 4, &file.f_pos), 4);
	KUNIT_EXPECT_EQ(test, copy_from_user(got, UBUF, 4), 0);
	KUNIT_EXPECT_STREQ(test, got, "4100"); /* "00400000-00410000": bytes 11..14 */
	KUNIT_EXPECT_EQ(test, file.f_op->llseek(&file, 1 << 20, SEEK_SET), 1 << 20);
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 4, &file.f_pos), 0);
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, 0x1000, 4, &(uint64_t){ 0 }), -EFAULT);
	file.f_op->release(&inode, &file);
}

/* A read from offset 0 prints the file again, as Linux's seq_read does
 * after a rewind: mremap_test reads a /proc/self/maps it opened before
 * its mmaps. A read further on continues the output it had. */
static void maps_read_from_the_start_shows_vmas_mapped_after_open(struct kunit *test)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0444,
				     .i_fop = &proc_pid_maps_fops,
				     .i_private = &task_pi };
	struct file file;
	uint64_t pos = 0;
	long len;

	KUNIT_ASSERT_EQ(test, file_open(&inode, &file), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PAGE_SIZE, VM_READ | VM_USER, 0), AREA);
	len = file.f_op->read(&file, UBUF, PAGE_SIZE, &pos);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(text, UBUF, (size_t)len), 0);
	text[len] = 0;
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "40000000-40001000 r--p"));
	KUNIT_ASSERT_EQ(test, vm_munmap(mm, AREA, PAGE_SIZE), 0);
	pos = 9;
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, PAGE_SIZE, &pos), len - 9);
	pos = 0;
	len = file.f_op->read(&file, UBUF, PAGE_SIZE, &pos);
	KUNIT_ASSERT_GT(test, len, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(text, UBUF, (size_t)len), 0);
	text[len] = 0;
	KUNIT_EXPECT_NULL(test, strstr(text, "40000000-40001000"));
	file.f_op->release(&inode, &file);
}

static void proc_self_and_exe_lead_to_the_task(struct kunit *test)
{
	struct ramfs_inode *inode, *exe;
	char buf[PATH_MAX];

	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/self/maps", true, &inode), 0);
	KUNIT_EXPECT_TRUE(test, inode->i_fop == &proc_pid_maps_fops);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/self/exe", false, &exe), 0);
	KUNIT_ASSERT_TRUE(test, exe->get_link != NULL);
	/* The shell runs no program: no exe, as for a pid that is gone. */
	KUNIT_EXPECT_EQ(test, exe->get_link(exe, buf, sizeof(buf)), -ENOENT);
	inode = &(struct ramfs_inode){ .mode = S_IFLNK | 0777, .i_private = &task_pi };
	if (task->exe_file) {
		KUNIT_EXPECT_EQ(test, proc_exe_get_link(inode, buf, sizeof(buf)), 10);
		KUNIT_EXPECT_STREQ(test, buf, "/bin/hello");
		KUNIT_EXPECT_EQ(test, proc_exe_get_link(inode, buf, 10), -ENAMETOOLONG);
	} else {
		KUNIT_EXPECT_EQ(test, proc_exe_get_link(inode, buf, sizeof(buf)), -ENOENT);
	}
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&rootfs, "/proc/cpuinfo", true, &inode), 0);
	KUNIT_EXPECT_GT(test, read_path("/proc/cpuinfo"), 0);
	KUNIT_EXPECT_EQ(test, field("processor\t:"), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\nflags\t\t: fpu "));
	/* One stanza per online CPU, numbered as they are. */
	{
		unsigned int stanzas = 0, cpu = 0;
		char want[32];

		for (const char *p = text; (p = strstr(p, "processor\t: ")); p++)
			stanzas++;
		KUNIT_EXPECT_EQ(test, stanzas, num_online_cpus());
		for_each_online_cpu(cpu)
		{
			ksnprintf(want, sizeof(want), "processor\t: %u\n", cpu);
			KUNIT_EXPECT_NOT_NULL(test, strstr(text, want));
		}
	}
}

/* One of Folium's 0/1 switches at path: reads its default (on or off),
 * follows a write of 0 and of 1 (the file reads 0 back), and is left at
 * its default again. */
static void expect_switch(struct kunit *test, const char *path, bool *knob, bool on)
{
	KUNIT_EXPECT_EQ(test, read_path(path), 2);
	KUNIT_EXPECT_STREQ(test, text, on ? "1\n" : "0\n");
	KUNIT_EXPECT_EQ(test, write_path(path, "0"), 1);
	KUNIT_EXPECT_FALSE(test, *knob);
	KUNIT_EXPECT_EQ(test, read_path(path), 2);
	KUNIT_EXPECT_STREQ(test, text, "0\n");
	KUNIT_EXPECT_EQ(test, write_path(path, "1"), 1);
	KUNIT_EXPECT_TRUE(test, *knob);
	KUNIT_EXPECT_EQ(test, write_path(path, on ? "1" : "0"), 1);
	KUNIT_EXPECT_EQ(test, *knob, on);
}

static void thp_sysfs_write_never_makes_faults_order_0(struct kunit *test)
{
	if (!CONFIG_TRANSPARENT_HUGEPAGE) {
		struct ramfs_inode *inode;

		KUNIT_EXPECT_EQ(test, ramfs_lookup(&rootfs, THP64, true, &inode), -ENOENT);
		return;
	}
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0), AREA);
	KUNIT_EXPECT_EQ(test, write_path(THP64, "always\n"), 7);
	KUNIT_EXPECT_GT(test, read_path(THP64), 0);
	KUNIT_EXPECT_STREQ(test, text, "[always] inherit madvise never\n");
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, AREA), 4);
	KUNIT_EXPECT_EQ(test, write_path(THP64, "never"), 5);
	KUNIT_ASSERT_EQ(test, fill_user(AREA + 0x10000, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, AREA + 0x10000), 0);
	/* Garbage is -EINVAL and changes nothing. */
	KUNIT_EXPECT_EQ(test, write_path(THP64, "sometimes"), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_order_mode(4), THP_MODE_NEVER);
	KUNIT_EXPECT_EQ(test, write_path("/sys/kernel/mm/transparent_hugepage/enabled", "inherit"),
			-EINVAL);
	KUNIT_EXPECT_GT(test,
			read_path("/sys/kernel/mm/transparent_hugepage/hugepages-64kB/"
				  "stats/anon_fault_alloc"),
			0);
	KUNIT_EXPECT_EQ(test, field(""), (long)mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC]);
	/* defrag is the file Linux has, its words and its default. */
	KUNIT_EXPECT_GT(test, read_path(THP_DEFRAG), 0);
	KUNIT_EXPECT_STREQ(test, text, "always defer defer+madvise [madvise] never\n");
	KUNIT_EXPECT_EQ(test, write_path(THP_DEFRAG, "never\n"), 6);
	KUNIT_EXPECT_EQ(test, thp_defrag_mode, THP_DEFRAG_NEVER);
	KUNIT_EXPECT_EQ(test, write_path(THP_DEFRAG, "sometimes"), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_path(THP_DEFRAG, "madvise"), 7);
	/* hpage_pmd_size: the PMD THP's bytes, read-only as in Linux. */
	KUNIT_EXPECT_EQ(test, read_path("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"), 8);
	KUNIT_EXPECT_STREQ(test, text, "2097152\n");
	KUNIT_EXPECT_LT(test, write_path("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size", "1"),
			0);
	/* Folium's switches: 0 or 1, anything else -EINVAL and no change. */
	KUNIT_EXPECT_EQ(test, read_path(THP_DIR "/folium_zap_batched"), 2);
	KUNIT_EXPECT_STREQ(test, text, "1\n");
	KUNIT_EXPECT_EQ(test, write_path(THP_DIR "/folium_zap_batched", "0\n"), 2);
	KUNIT_EXPECT_FALSE(test, zap_batched);
	KUNIT_EXPECT_EQ(test, write_path(THP_DIR "/folium_zap_batched", "2"), -EINVAL);
	KUNIT_EXPECT_FALSE(test, zap_batched);
	KUNIT_EXPECT_EQ(test, write_path(THP_DIR "/folium_zap_batched", "1"), 1);
	KUNIT_EXPECT_TRUE(test, zap_batched);
	expect_switch(test, THP_DIR "/folium_wp_copy_folio", &wp_copy_folio, false);
	expect_switch(test, THP_DIR "/folium_fork_copy_batched", &fork_copy_batched, true);
	expect_switch(test, THP_DIR "/folium_wp_reuse_batched", &wp_reuse_batched, true);
	expect_switch(test, THP_DIR "/folium_mprotect_batched", &mprotect_batched, true);
	expect_switch(test, THP_DIR "/folium_mremap_batched", &mremap_batched, true);
}

static long madvise_as_task(unsigned long start, unsigned long len, int advice)
{
	const unsigned long args[6] = { start, len, (unsigned long)advice };

	return do_syscall(task, __NR_madvise, args);
}

static void madv_hugepage_enables_madvise_sizes(struct kunit *test)
{
	thp_set_orders(0);
	thp_set_order_mode(4, THP_MODE_MADVISE);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0), AREA);
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA + 0x10000, 0x20000, MADV_HUGEPAGE), 0);
	/* Split at both ends: before, the madvised part, after. */
	KUNIT_ASSERT_NOT_NULL(test, find_vma(mm, AREA + 0x10000));
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + 0x10000)->vm_start, AREA + 0x10000);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + 0x10000)->vm_end, AREA + 0x30000);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA)->vm_flags & VM_HUGEPAGE, 0);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, fill_user(AREA + 0x10000, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, AREA), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, AREA + 0x10000),
			CONFIG_TRANSPARENT_HUGEPAGE ? 4 : 0);
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA + 0x20000, 0x10000, MADV_NOHUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + 0x20000)->vm_flags & VM_NOHUGEPAGE,
			VM_NOHUGEPAGE);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + 0x20000)->vm_flags & VM_HUGEPAGE, 0);
	KUNIT_ASSERT_EQ(test, fill_user(AREA + 0x20000, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, test_mapped_order(mm, AREA + 0x20000), 0);
	/* Linux's errnos: unaligned start, a hole in the range. */
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA + 1, PAGE_SIZE, MADV_HUGEPAGE), -EINVAL);
	KUNIT_EXPECT_EQ(test,
			madvise_as_task(AREA + PMD_SIZE - PAGE_SIZE, 2 * PAGE_SIZE, MADV_HUGEPAGE),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + PMD_SIZE - PAGE_SIZE)->vm_flags & VM_HUGEPAGE,
			VM_HUGEPAGE); /* the mapped part was done */
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA, 0, MADV_NOHUGEPAGE), 0);
	/* mprotect keeps the advice. */
	KUNIT_EXPECT_EQ(test, vm_mprotect(mm, AREA + 0x10000, 0x10000, VM_READ | VM_USER), 0);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + 0x10000)->vm_flags & VM_HUGEPAGE, VM_HUGEPAGE);
}

static void madv_hugepage_merges_equal_neighbours(struct kunit *test)
{
	int before = mm->nr_vmas;

	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 4 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA + PAGE_SIZE, PAGE_SIZE, MADV_HUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_vmas, before + 3);
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA + 2 * PAGE_SIZE, PAGE_SIZE, MADV_HUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_vmas, before + 3); /* [1, 3) is one VMA */
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA + PAGE_SIZE)->vm_end, AREA + 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, madvise_as_task(AREA, 4 * PAGE_SIZE, MADV_HUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_vmas, before + 1);
	KUNIT_EXPECT_EQ(test, find_vma(mm, AREA)->vm_end, AREA + 4 * PAGE_SIZE);
}

/* Read n u64 entries of a binary /proc file (the task's, for pagemap)
 * at entry index idx into out. Return: read's value. */
static long read_entries(const struct file_operations *fops, unsigned long idx, uint64_t *out,
			 unsigned long n)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0400, .i_fop = fops, .i_private = &task_pi };
	struct file file;
	long ret = file_open(&inode, &file);

	if (ret)
		return ret;
	file.f_pos = idx * sizeof(uint64_t);
	ret = file.f_op->read(&file, UBUF, n * sizeof(uint64_t), &file.f_pos);
	if (ret > 0 && copy_from_user(out, UBUF, (size_t)ret))
		ret = -EFAULT;
	file_release(&inode, &file);
	return ret;
}

static uint64_t pagemap_of(unsigned long addr)
{
	uint64_t e = ~0ull;

	read_entries(&proc_pagemap_fops, addr >> PAGE_SHIFT, &e, 1);
	return e;
}

static uint64_t kpageflags_of(unsigned long pfn)
{
	uint64_t e = ~0ull;

	read_entries(&proc_kpageflags_fops, pfn, &e, 1);
	return e;
}

static uint64_t kpagecount_of(unsigned long pfn)
{
	uint64_t e = ~0ull;

	read_entries(&proc_kpagecount_fops, pfn, &e, 1);
	return e;
}

#define KPF(bit) (1ull << KPF_##bit)
/* The bits an anonymous page on the LRU shows, mapped. */
#define KPF_ANON_LRU (KPF(ANON) | KPF(MMAP) | KPF(LRU) | KPF(SWAPBACKED) | KPF(UPTODATE))
/* The bits these tests look at (referenced and dirty vary with age). */
#define KPF_CHECKED                                                                           \
	(KPF_ANON_LRU | KPF(COMPOUND_HEAD) | KPF(COMPOUND_TAIL) | KPF(THP) | KPF(ZERO_PAGE) | \
	 KPF(BUDDY) | KPF(NOPAGE) | KPF(SLAB))

/* A 64 KiB folio's 16 pages: present, exclusive, soft-dirty, their own
 * pfns in order; the next, untouched 64 KiB reads soft-dirty only (a new
 * VMA is VM_SOFTDIRTY); one MADV_DONTNEED'd page the same, the rest stay. */
static void pagemap_shows_each_page_of_a_pte_mapped_folio(struct kunit *test)
{
	uint64_t e[32];
	unsigned long pfn;

	if (!CONFIG_TRANSPARENT_HUGEPAGE || 4 > MAX_PAGE_ORDER)
		return;
	thp_set_orders(1ul << 4);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 32 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA + 5 * PAGE_SIZE, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, test_mapped_order(mm, AREA), 4);
	pfn = folio_pfn(test_mapped_folio(mm, AREA));
	KUNIT_ASSERT_EQ(test, read_entries(&proc_pagemap_fops, AREA >> PAGE_SHIFT, e, 32), 256);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, e[i],
				PM_PRESENT | PM_SOFT_DIRTY | PM_MMAP_EXCLUSIVE | (pfn + i));
	for (unsigned long i = 16; i < 32; i++)
		KUNIT_EXPECT_EQ(test, e[i], PM_SOFT_DIRTY);
	KUNIT_ASSERT_EQ(test, do_madvise(mm, AREA + PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, pagemap_of(AREA + PAGE_SIZE), PM_SOFT_DIRTY);
	KUNIT_EXPECT_EQ(test, pagemap_of(AREA + 2 * PAGE_SIZE),
			PM_PRESENT | PM_SOFT_DIRTY | PM_MMAP_EXCLUSIVE | (pfn + 2));
}

/* A 64 KiB VMA at AREA, written whole: one 64 KiB folio. Return: false
 * without 64 KiB folios (the case is skipped) or if the folio is not
 * there (the case failed). */
static bool map_filled_64k_folio(struct kunit *test)
{
	if (!CONFIG_TRANSPARENT_HUGEPAGE || 4 > MAX_PAGE_ORDER)
		return false;
	thp_set_orders(1ul << 4);
	if (vm_mmap(mm, AREA, 16 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0) != AREA ||
	    fill_user(AREA, 1, 16 * PAGE_SIZE) || test_mapped_order(mm, AREA) != 4) {
		kunit_fail(test, __FILE__, __LINE__, "no 64 KiB folio at %lx", AREA);
		return false;
	}
	return true;
}

/* smaps of the parent's 64 KiB VMA, as a field's kB. */
static long fork_smaps_field(const char *name)
{
	return smaps_from("40000000-40010000") ? field(name) : -1;
}

/*
 * A 64 KiB folio across fork, by Linux 6.15's rules without per-page
 * mapcounts: before fork private and exclusive; while a child maps it
 * too, shared, Pss halved (average page mapcount 2), no page exclusive;
 * after the child's exit private and exclusive again. Linux 7.3 (with
 * per-page mapcounts) prints the same figures for these three states.
 */
static void smaps_and_pagemap_follow_a_folio_across_fork(struct kunit *test)
{
	struct mm_struct *child;

	if (!map_filled_64k_folio(test))
		return;
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Pss:"), 64);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Private_Dirty:"), 64);
	KUNIT_EXPECT_TRUE(test, pagemap_of(AREA + 3 * PAGE_SIZE) & PM_MMAP_EXCLUSIVE);
	child = mm_create(0);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_ASSERT_EQ(test, dup_mmap(child, mm), 0);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Rss:"), 64);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Pss:"), 32);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Shared_Dirty:"), 64);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Private_Dirty:"), 0);
	KUNIT_EXPECT_FALSE(test, pagemap_of(AREA + 3 * PAGE_SIZE) & PM_MMAP_EXCLUSIVE);
	mm_destroy(child);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Pss:"), 64);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Shared_Dirty:"), 0);
	KUNIT_EXPECT_EQ(test, fork_smaps_field("Private_Dirty:"), 64);
	KUNIT_EXPECT_TRUE(test, pagemap_of(AREA + 3 * PAGE_SIZE) & PM_MMAP_EXCLUSIVE);
}

/* A read maps the zero page: present, its pfn, neither exclusive nor a
 * file page (it is no vm_normal_page); soft-dirty by the VMA's flag. */
static void pagemap_shows_the_zero_page_present_and_not_exclusive(struct kunit *test)
{
	uint8_t byte;
	uint64_t e;

	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, AREA, 1), 0);
	e = pagemap_of(AREA);
	KUNIT_EXPECT_EQ(test, e & ~PM_PFRAME_MASK, PM_PRESENT | PM_SOFT_DIRTY);
	KUNIT_EXPECT_TRUE(test, is_zero_pfn(e & PM_PFRAME_MASK));
	KUNIT_EXPECT_EQ(test, pagemap_of(AREA + PAGE_SIZE), PM_SOFT_DIRTY);
}

/* Every subpage of a PMD leaf has its entry, the pfns consecutive: a THP
 * exclusive, the huge zero folio present only. */
static void pagemap_shows_every_subpage_of_a_pmd_leaf(struct kunit *test)
{
	static uint64_t e[PTRS_PER_TABLE];
	unsigned long pfn;
	uint8_t byte;

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return;
	thp_set_orders(1ul << HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 2 * PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_ASSERT_EQ(test, test_mapped_order(mm, AREA), HPAGE_PMD_ORDER);
	pfn = folio_pfn(test_mapped_folio(mm, AREA));
	KUNIT_ASSERT_EQ(test, read_entries(&proc_pagemap_fops, AREA >> PAGE_SHIFT, e, 512), 4096);
	for (unsigned long i = 0; i < PTRS_PER_TABLE; i++)
		if (e[i] != (PM_PRESENT | PM_SOFT_DIRTY | PM_MMAP_EXCLUSIVE | (pfn + i)))
			kunit_fail(test, __FILE__, __LINE__, "entry %lu: %llx", i,
				   (unsigned long long)e[i]);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, AREA + PMD_SIZE, 1), 0);
	KUNIT_ASSERT_EQ(test,
			read_entries(&proc_pagemap_fops, (AREA + PMD_SIZE) >> PAGE_SHIFT, e, 512),
			4096);
	KUNIT_EXPECT_EQ(test, e[0] & ~PM_PFRAME_MASK, PM_PRESENT | PM_SOFT_DIRTY);
	KUNIT_EXPECT_EQ(test, e[511], e[0] + 511);
}

/* Linux's pagemap_read checks: offset and count in whole entries; at the
 * end of the user half, nothing more. */
static void pagemap_reads_whole_entries_only(struct kunit *test)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0400,
				     .i_fop = &proc_pagemap_fops,
				     .i_private = &task_pi };
	struct file file;
	uint64_t pos = 4;

	KUNIT_ASSERT_EQ(test, file_open(&inode, &file), 0);
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 8, &pos), -EINVAL);
	pos = 0;
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 12, &pos), -EINVAL);
	pos = (TASK_SIZE >> PAGE_SHIFT) * 8;
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 8, &pos), 0);
	pos = ((TASK_SIZE >> PAGE_SHIFT) - 1) * 8;
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 64, &pos), 8);
	KUNIT_EXPECT_EQ(test, pos, (TASK_SIZE >> PAGE_SHIFT) * 8);
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, 0x1000, 8, &(uint64_t){ 0 }), -EFAULT);
	file_release(&inode, &file);
}

/* Write len bytes of s to a per-task /proc file of the test's task, from
 * the user buffer. Return: write's value. */
static long write_task_file(const struct file_operations *fops, const char *s, size_t len)
{
	struct ramfs_inode inode = { .mode = S_IFREG | 0200, .i_fop = fops, .i_private = &task_pi };
	struct file file;
	long ret;

	if (copy_to_user(UBUF, s, len))
		return -EFAULT;
	ret = file_open_mode(&inode, &file, FMODE_WRITE);
	if (ret)
		return ret;
	ret = file.f_op->write(&file, UBUF, len, &file.f_pos);
	file_release(&inode, &file);
	return ret;
}

/* /proc/PID/clear_refs as Linux: write-only (0200); "4" takes pagemap's
 * soft-dirty bit from a written page and from the untouched ones (the
 * VMA's flag), the next write gives it back; a bad value is -EINVAL; a
 * long write is read and answered as 12 bytes. */
static void clear_refs_4_clears_pagemap_soft_dirty_until_the_next_write(struct kunit *test)
{
	const char *long_write = "4                   ";
	struct ramfs_inode *inode;

	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/self/clear_refs", true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode & 0777, 0200u);
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_EXPECT_TRUE(test, pagemap_of(AREA) & PM_SOFT_DIRTY);
	KUNIT_EXPECT_EQ(test, write_task_file(&proc_clear_refs_fops, "4\n", 2), 2);
	KUNIT_EXPECT_EQ(test, pagemap_of(AREA) & (PM_SOFT_DIRTY | PM_PRESENT), PM_PRESENT);
	KUNIT_EXPECT_EQ(test, pagemap_of(AREA + PAGE_SIZE), 0ull);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 2, 1), 0);
	KUNIT_EXPECT_TRUE(test, pagemap_of(AREA) & PM_SOFT_DIRTY);
	KUNIT_EXPECT_EQ(test, write_task_file(&proc_clear_refs_fops, "0", 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_task_file(&proc_clear_refs_fops, "6\n", 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_task_file(&proc_clear_refs_fops, "soft", 4), -EINVAL);
	KUNIT_EXPECT_TRUE(test, pagemap_of(AREA) & PM_SOFT_DIRTY);
	KUNIT_EXPECT_EQ(test,
			write_task_file(&proc_clear_refs_fops, long_write, strlen(long_write)),
			CLEAR_REFS_MAX_WRITE);
	KUNIT_EXPECT_FALSE(test, pagemap_of(AREA) & PM_SOFT_DIRTY);
}

/* Head and tails of an mTHP folio: anon, mapped, on the LRU, THP (Linux
 * marks every large rmappable folio, not just PMD-size ones); MADV_FREE
 * takes swapbacked away. */
static void kpageflags_mark_head_and_tails_of_an_mthp_folio(struct kunit *test)
{
	unsigned long pfn;

	if (!map_filled_64k_folio(test))
		return;
	pfn = folio_pfn(test_mapped_folio(mm, AREA));
	KUNIT_EXPECT_EQ(test, kpageflags_of(pfn) & KPF_CHECKED,
			KPF_ANON_LRU | KPF(COMPOUND_HEAD) | KPF(THP));
	KUNIT_EXPECT_EQ(test, kpageflags_of(pfn + 15) & KPF_CHECKED,
			KPF_ANON_LRU | KPF(COMPOUND_TAIL) | KPF(THP));
	KUNIT_ASSERT_EQ(test, do_madvise(mm, AREA, 16 * PAGE_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, kpageflags_of(pfn + 3) & KPF_CHECKED,
			(KPF_ANON_LRU & ~KPF(SWAPBACKED)) | KPF(COMPOUND_TAIL) | KPF(THP));
}

/* An order-0 anonymous page is no THP and no compound page; the zero
 * page is ZERO_PAGE only; the huge zero folio ZERO_PAGE and THP; a free
 * page is BUDDY; a pfn without a struct page NOPAGE. */
static void kpageflags_tell_zero_pages_free_pages_and_holes(struct kunit *test)
{
	struct page *page;
	uint8_t byte;
	uint64_t e;

	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 2 * PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, kpageflags_of(pte_pfn(*test_pte_alloc(mm, AREA))) & KPF_CHECKED,
			KPF_ANON_LRU);
	KUNIT_ASSERT_EQ(test, copy_from_user(&byte, AREA + PAGE_SIZE, 1), 0);
	e = pte_pfn(*test_pte_alloc(mm, AREA + PAGE_SIZE));
	KUNIT_ASSERT_TRUE(test, is_zero_pfn(e));
	KUNIT_EXPECT_EQ(test, kpageflags_of(e) & KPF_CHECKED, KPF(ZERO_PAGE));
	KUNIT_EXPECT_EQ(test, kpagecount_of(e), 0ull);
	if (CONFIG_TRANSPARENT_HUGEPAGE) {
		thp_set_orders(1ul << HPAGE_PMD_ORDER);
		KUNIT_ASSERT_EQ(test, copy_from_user(&byte, AREA + PMD_SIZE, 1), 0);
		e = pagemap_of(AREA + PMD_SIZE) & PM_PFRAME_MASK;
		KUNIT_EXPECT_EQ(test, kpageflags_of(e) & KPF_CHECKED,
				KPF(COMPOUND_HEAD) | KPF(THP) | KPF(ZERO_PAGE));
		KUNIT_EXPECT_EQ(test, kpageflags_of(e + 1) & KPF_CHECKED,
				KPF(COMPOUND_TAIL) | KPF(THP) | KPF(ZERO_PAGE));
	}
	page = alloc_pages(GFP_KERNEL, 3);
	KUNIT_ASSERT_NOT_NULL(test, page);
	__free_pages(page, 3);
	drain_zone_pages(page_zone(page)); /* off the per-CPU list, into the buddy */
	KUNIT_EXPECT_EQ(test, kpageflags_of(page_to_pfn(page) + 1) & KPF_CHECKED, KPF(BUDDY));
	KUNIT_EXPECT_EQ(test, stable_page_flags(NULL), KPF(NOPAGE));
}

/* The folio's own state: a kmalloc slab is SLAB, a locked folio LOCKED,
 * a reserved page RESERVED (Linux's kernel-hacking bit 32). */
static void kpageflags_show_slab_locked_and_reserved(struct kunit *test)
{
	void *obj = kmalloc(64, GFP_KERNEL);
	struct folio *folio;
	struct page page = { 0 };

	KUNIT_ASSERT_NOT_NULL(test, obj);
	KUNIT_EXPECT_EQ(test, kpageflags_of(page_to_pfn(virt_to_page(obj))) & KPF(SLAB), KPF(SLAB));
	kfree(obj);
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0), AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 1), 0);
	folio = test_mapped_folio(mm, AREA);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, kpageflags_of(folio_pfn(folio)) & KPF(LOCKED), 0ull);
	folio_set_locked(folio);
	KUNIT_EXPECT_EQ(test, kpageflags_of(folio_pfn(folio)) & KPF(LOCKED), KPF(LOCKED));
	folio_clear_locked(folio);
	page_mapcount_reset(&page);
	page._refcount = 1; /* in use: no buddy lookup of its (made-up) pfn */
	SetPageFlag(&page, PG_reserved);
	KUNIT_EXPECT_EQ(test, stable_page_flags(&page), KPF(RESERVED));
}

/* kpagecount: 1 for each page a PTE maps, 0 once unmapped; 1 for every
 * page of a PMD-mapped THP. Reads past the last pfn give nothing. */
static void kpagecount_counts_the_entries_of_each_page(struct kunit *test)
{
	unsigned long pfn;

	if (!CONFIG_TRANSPARENT_HUGEPAGE || 4 > MAX_PAGE_ORDER)
		return;
	thp_set_orders(1ul << 4);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0), AREA);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 16 * PAGE_SIZE), 0);
	pfn = folio_pfn(test_mapped_folio(mm, AREA));
	KUNIT_EXPECT_EQ(test, kpagecount_of(pfn + 7), 1ull);
	KUNIT_ASSERT_EQ(test, do_madvise(mm, AREA + 7 * PAGE_SIZE, PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, kpagecount_of(pfn + 7), 0ull);
	KUNIT_EXPECT_EQ(test, kpagecount_of(pfn + 8), 1ull);
	KUNIT_EXPECT_EQ(test, kpageflags_of(pfn + 7) & KPF(MMAP), KPF(MMAP)); /* the folio is */
	thp_set_orders(1ul << HPAGE_PMD_ORDER);
	KUNIT_ASSERT_EQ(test,
			vm_mmap(mm, AREA + PMD_SIZE, PMD_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA + PMD_SIZE);
	KUNIT_ASSERT_EQ(test, fill_user(AREA + PMD_SIZE, 1, 1), 0);
	pfn = folio_pfn(test_mapped_folio(mm, AREA + PMD_SIZE));
	KUNIT_EXPECT_EQ(test, kpagecount_of(pfn + 300), 1ull);
	KUNIT_EXPECT_EQ(test, read_entries(&proc_kpagecount_fops, ~0ul >> 4, &(uint64_t){ 0 }, 1),
			0);
}

/* smaps_rollup: one [rollup] entry, the sums of every VMA's fields. */
static void smaps_rollup_sums_the_vmas(struct kunit *test)
{
	thp_set_orders(0);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, AREA, 8 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			AREA);
	KUNIT_ASSERT_EQ(test, vm_mmap(mm, HEAP, 4 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0),
			HEAP);
	KUNIT_ASSERT_EQ(test, fill_user(AREA, 1, 3 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, fill_user(HEAP, 1, 2 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, fill_user(UBUF, 0, UBUF_PAGES * PAGE_SIZE), 0);
	KUNIT_ASSERT_GT(test, read_task_file(&proc_pid_smaps_rollup_fops, PAGE_SIZE), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "00400000-40008000 ---p 00000000 00:00 0"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "[rollup]\nRss:"));
	KUNIT_EXPECT_EQ(test, field("Rss:"), (long)(UBUF_PAGES + 5) * 4);
	KUNIT_EXPECT_EQ(test, field("Anonymous:"), (long)(UBUF_PAGES + 5) * 4);
	KUNIT_EXPECT_EQ(test, field("Pss_Anon:"), (long)(UBUF_PAGES + 5) * 4);
	KUNIT_EXPECT_EQ(test, field("AnonHugePages:"), 0);
}

/* A decimal at *pp, "S.CC" read as centiseconds; *pp moves past it. */
static long parse_num(const char **pp)
{
	const char *p = *pp;
	long v = 0;

	while ((*p >= '0' && *p <= '9') || *p == '.') {
		if (*p != '.')
			v = v * 10 + (*p - '0');
		p++;
	}
	*pp = p + (*p ? 1 : 0);
	return v;
}

static void proc_sys_kernel_pid_max_and_threads_max_are_the_pid_table(struct kunit *test)
{
	struct ramfs_inode *inode;
	char want[16];

	ksnprintf(want, sizeof(want), "%d\n", PID_MAX);
	KUNIT_EXPECT_EQ(test, read_path("/proc/sys/kernel/pid_max"), (long)strlen(want));
	KUNIT_EXPECT_STREQ(test, text, want);
	KUNIT_EXPECT_EQ(test, read_path("/proc/sys/kernel/threads-max"), (long)strlen(want));
	KUNIT_EXPECT_STREQ(test, text, want);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/sys/kernel/pid_max", true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0644);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/sys/kernel/threads-max", true, &inode),
			0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0444);
	KUNIT_EXPECT_LT(test, write_path("/proc/sys/kernel/threads-max", "100"), 0);
	/* Linux's bounds: PID_MAX_MIN (301) up to the table's size. */
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/kernel/pid_max", "300"), -EINVAL);
	ksnprintf(want, sizeof(want), "%d", PID_MAX + 1);
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/kernel/pid_max", want), -EINVAL);
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/kernel/pid_max", "301"), 3);
	KUNIT_EXPECT_EQ(test, read_path("/proc/sys/kernel/pid_max"), 4);
	KUNIT_EXPECT_STREQ(test, text, "301\n");
	ksnprintf(want, sizeof(want), "%d", PID_MAX);
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/kernel/pid_max", want), (long)strlen(want));
}

/* /sys/devices/system/cpu as Linux's: the masks as lists, kernel_max,
 * and a cpuN directory per present CPU (cpuN/online for all but cpu0). */
static void sys_devices_system_cpu_lists_the_cpus(struct kunit *test)
{
	struct ramfs_inode *inode;
	char want[64], path[64];
	unsigned int cpu;

	KUNIT_EXPECT_GT(test, read_path("/sys/devices/system/cpu/online"), 0);
	cpumask_print_list(want, sizeof(want), cpu_online_mask);
	KUNIT_EXPECT_EQ(test, strncmp(text, want, strlen(want)), 0);
	KUNIT_EXPECT_EQ(test, text[0], '0'); /* the boot CPU is always online */
	KUNIT_EXPECT_GT(test, read_path("/sys/devices/system/cpu/possible"), 0);
	cpumask_print_list(want, sizeof(want), cpu_possible_mask);
	KUNIT_EXPECT_EQ(test, strncmp(text, want, strlen(want)), 0);
	KUNIT_EXPECT_GT(test, read_path("/sys/devices/system/cpu/present"), 0);
	KUNIT_EXPECT_GT(test, read_path("/sys/devices/system/cpu/offline"), 0);
	if (num_online_cpus() == num_possible_cpus())
		KUNIT_EXPECT_STREQ(test, text, "\n");
	KUNIT_EXPECT_GT(test, read_path("/sys/devices/system/cpu/kernel_max"), 0);
	ksnprintf(want, sizeof(want), "%d\n", NR_CPUS - 1);
	KUNIT_EXPECT_STREQ(test, text, want);
	for_each_present_cpu(cpu)
	{
		ksnprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", cpu);
		KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
		KUNIT_EXPECT_EQ(test, inode->mode & S_IFMT, S_IFDIR);
		if (!cpu)
			continue;
		ksnprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
		KUNIT_EXPECT_EQ(test, read_path(path), 2);
		KUNIT_EXPECT_EQ(test, text[0], cpu_online(cpu) ? '1' : '0');
	}
	KUNIT_EXPECT_LT(test, write_path("/sys/devices/system/cpu/online", "0-1"), 0);
}

/* Row @label of /proc/interrupts in text: each online CPU's count into
 * @vals. Return: how many columns it had. */
static unsigned int interrupts_row(const char *label, unsigned long *vals, unsigned int max)
{
	char want[16];
	const char *p;
	unsigned int n = 0;

	ksnprintf(want, sizeof(want), "\n%3s:", label);
	p = strstr(text, want);
	if (!p)
		return 0;
	p += strlen(want);
	while (n < max) {
		uint64_t v = 0;
		bool digits = false;

		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (uint64_t)(*p++ - '0');
			digits = true;
		}
		if (!digits)
			break;
		vals[n++] = (unsigned long)v;
	}
	return n;
}

static void note_cpu(void *arg)
{
	(void)arg;
}

/* /proc/interrupts as Linux's: a CPUn column per online CPU, the tick
 * on the boot CPU (LOC, or IRQ 0's row when the PIT ticks), and each
 * function-call IPI counted on its target's CAL column. */
static void proc_interrupts_counts_per_cpu(struct kunit *test)
{
	unsigned long before[NR_CPUS], after[NR_CPUS], loc[NR_CPUS];
	unsigned int n = num_online_cpus(), cpu;

	KUNIT_ASSERT_GT(test, read_path("/proc/interrupts"), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "CPU0"));
	if (n > 1)
		KUNIT_EXPECT_NOT_NULL(test, strstr(text, "CPU1"));
	KUNIT_ASSERT_EQ(test, interrupts_row("LOC", loc, NR_CPUS), n);
	/* The tick: the local APIC timer's, or the PIT's IRQ 0 (nolapic_timer). */
	if (interrupts_row("0", after, NR_CPUS) != n)
		after[0] = 0;
	KUNIT_EXPECT_GT(test, loc[0] + after[0], 0ul);
	KUNIT_ASSERT_EQ(test, interrupts_row("CAL", before, NR_CPUS), n);
	KUNIT_ASSERT_EQ(test, interrupts_row("TLB", after, NR_CPUS), n);
	smp_call_function_many(cpu_online_mask, note_cpu, NULL, true);
	KUNIT_ASSERT_GT(test, read_path("/proc/interrupts"), 0);
	KUNIT_ASSERT_EQ(test, interrupts_row("CAL", after, NR_CPUS), n);
	cpu = 0;
	for (unsigned int col = 0; col < n; col++, cpu++) {
		while (!cpu_online(cpu))
			cpu++;
		if (cpu == smp_processor_id())
			KUNIT_EXPECT_EQ(test, after[col], before[col]);
		else
			KUNIT_EXPECT_GE(test, after[col], before[col] + 1);
	}
}

/* A lowered pid_max turns alloc_pid's cycle at it: no pid above it is
 * given, and a fork finds none free once those up to it are all taken
 * (-EAGAIN, as Linux's). */
static void a_lowered_pid_max_turns_the_pid_cycle_at_it(struct kunit *test)
{
	static struct task_struct *held[PID_MAX];
	struct task_struct probe = { 0 };
	char want[16];
	int n = 0, highest = 0;

	KUNIT_ASSERT_EQ(test, write_path("/proc/sys/kernel/pid_max", "320"), 3);
	while (n < PID_MAX && (held[n] = copy_process(&(struct kernel_clone_args){ 0 })) != NULL) {
		highest = MAX(highest, held[n]->pid);
		n++;
	}
	KUNIT_EXPECT_LE(test, highest, 320);
	KUNIT_EXPECT_GT(test, n, 0);
	KUNIT_EXPECT_LT(test, n, 320);
	KUNIT_EXPECT_EQ(test, alloc_pid(&probe), -EAGAIN);
	while (n--)
		free_task(held[n]);
	/* Raised again: the cycle goes past 320. */
	ksnprintf(want, sizeof(want), "%d", PID_MAX);
	KUNIT_EXPECT_EQ(test, write_path("/proc/sys/kernel/pid_max", want), (long)strlen(want));
	for (n = 0; n < PID_MAX && !alloc_pid(&probe) && probe.pid <= 320; n++)
		free_pid(&probe);
	KUNIT_EXPECT_GT(test, probe.pid, 320);
	free_pid(&probe);
}

static void loadavg_counts_the_tasks_and_shows_the_highest_pid(struct kunit *test)
{
	struct task_struct *p;
	int total = 0, last = 0;
	const char *s = text;

	for_each_process(p)
	{
		total++;
		last = p->pid;
	}
	char want[40];
	unsigned long a[3];

	for (int i = 0; i < 3; i++)
		a[i] = avenrun[i] + FIXED_1 / 200;
	KUNIT_ASSERT_GT(test, read_path("/proc/loadavg"), 0);
	ksnprintf(want, sizeof(want), "%lu.%02lu %lu.%02lu %lu.%02lu ", LOAD_INT(a[0]),
		  LOAD_FRAC(a[0]), LOAD_INT(a[1]), LOAD_FRAC(a[1]), LOAD_INT(a[2]),
		  LOAD_FRAC(a[2]));
	KUNIT_EXPECT_EQ(test, strncmp(text, want, strlen(want)), 0);
	s += strlen(want);
	KUNIT_EXPECT_GE(test, parse_num(&s), 1); /* the reader runs */
	KUNIT_EXPECT_EQ(test, parse_num(&s), total);
	KUNIT_EXPECT_EQ(test, parse_num(&s), last);
}

static void uptime_grows_and_idle_is_within_it(struct kunit *test)
{
	long up1, idle1, up2, idle2;
	const char *s = text;

	KUNIT_ASSERT_GT(test, read_path("/proc/uptime"), 0);
	up1 = parse_num(&s);
	idle1 = parse_num(&s);
	KUNIT_EXPECT_LE(test, idle1, up1);
	KUNIT_EXPECT_EQ(test, (long)(ktime_get_ns() / 10000000ULL) - up1 < 100, true);
	for (uint64_t t = ktime_get_ns(); ktime_get_ns() - t < 30000000ULL;)
		; /* 30 ms */
	s = text;
	KUNIT_ASSERT_GT(test, read_path("/proc/uptime"), 0);
	up2 = parse_num(&s);
	idle2 = parse_num(&s);
	KUNIT_EXPECT_GE(test, up2, up1 + 2);
	KUNIT_EXPECT_GE(test, idle2, idle1);
}

/* Linux's calc_load: one task running for a minute (12 samples) from
 * idle gives 0.63, 0.18 and 0.06; the average falls back towards 0. */
static void calc_load_follows_linux_fixed_point(struct kunit *test)
{
	unsigned long a[3] = { 0 };
	const unsigned long exp[3] = { EXP_1, EXP_5, EXP_15 };

	for (int n = 0; n < 12; n++)
		for (int i = 0; i < 3; i++)
			a[i] = calc_load(a[i], exp[i], FIXED_1);
	KUNIT_EXPECT_EQ(test, LOAD_INT(a[0] + FIXED_1 / 200), 0ul);
	KUNIT_EXPECT_EQ(test, LOAD_FRAC(a[0] + FIXED_1 / 200), 63ul);
	KUNIT_EXPECT_EQ(test, LOAD_FRAC(a[1] + FIXED_1 / 200), 18ul);
	KUNIT_EXPECT_EQ(test, LOAD_FRAC(a[2] + FIXED_1 / 200), 6ul);
	KUNIT_EXPECT_LT(test, calc_load(a[0], EXP_1, 0), a[0]);
	KUNIT_EXPECT_EQ(test, calc_load(FIXED_1, EXP_1, FIXED_1), FIXED_1);
}

/* getdents64's actor for a test: is "want" among the names? */
struct find_name_ctx {
	struct dir_context ctx;
	const char *want;
	int found, names;
};

static bool find_name_actor(struct dir_context *ctx, const char *name, int namelen, uint64_t ino,
			    unsigned int d_type)
{
	struct find_name_ctx *f = (struct find_name_ctx *)ctx;

	(void)ino;
	(void)d_type;
	f->names++;
	if ((int)strlen(f->want) == namelen && !strncmp(name, f->want, (size_t)namelen))
		f->found++;
	return true;
}

/* How often the directory at path lists name (getdents64's walk). */
static int dir_lists(const char *path, const char *name)
{
	struct find_name_ctx f = { .ctx.actor = find_name_actor, .want = name };
	struct ramfs_inode *dir;
	struct file file;

	if (ramfs_lookup(&rootfs, path, true, &dir) || file_open(dir, &file))
		return -1;
	file.f_op->iterate_shared(&file, &f.ctx);
	file_release(dir, &file);
	return f.found;
}

/* /proc/PID exists while the task does: listed by /proc, found by a
 * lookup; a file opened before the task went reads -ESRCH after, and
 * the name is gone from both. */
static void proc_pid_dir_lives_and_dies_with_its_task(struct kunit *test)
{
	struct task_struct *t = ktest_task_create(mm);
	struct ramfs_inode *inode;
	struct file file;
	char path[40], name[12];

	KUNIT_ASSERT_NOT_NULL(test, t);
	ksnprintf(name, sizeof(name), "%d", t->pid);
	ksnprintf(path, sizeof(path), "/proc/%d/stat", t->pid);
	KUNIT_EXPECT_EQ(test, dir_lists("/proc", name), 1);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0444);
	KUNIT_ASSERT_EQ(test, file_open(inode, &file), 0);
	free_task(t); /* the suite's mm stays: free_task leaves a task's mm */
	KUNIT_EXPECT_EQ(test, file.f_op->read(&file, UBUF, 100, &file.f_pos), -ESRCH);
	file_release(inode, &file);
	KUNIT_EXPECT_EQ(test, dir_lists("/proc", name), 0);
	KUNIT_EXPECT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), -ENOENT);
	KUNIT_EXPECT_EQ(test, dir_lists("/proc", "self"), 1);
	KUNIT_EXPECT_EQ(test, dir_lists("/proc", "meminfo"), 1);
}

/* /proc/PID directories whose tasks are gone are bound to the next pids
 * looked up: looking at 20 new pids after 20 old ones went makes no new
 * inode, and each directory names its new pid. */
static void proc_pid_dirs_of_gone_tasks_serve_new_pids(struct kunit *test)
{
	struct task_struct *t[40];
	struct ramfs_inode *inode;
	unsigned long inos;
	char path[48];
	int n = 0;

	for (; n < 40 && (t[n] = ktest_task_create(mm)); n++)
		;
	KUNIT_ASSERT_EQ(test, n, 40);
	for (int i = 0; i < 20; i++) {
		ksnprintf(path, sizeof(path), "/proc/%d/stat", t[i]->pid);
		KUNIT_EXPECT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
	}
	for (int i = 0; i < 20; i++)
		free_task(t[i]);
	inos = rootfs.last_ino;
	for (int i = 20; i < 40; i++) {
		ksnprintf(path, sizeof(path), "/proc/%d/fd", t[i]->pid);
		KUNIT_EXPECT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
		KUNIT_EXPECT_EQ(test, proc_inode_task(inode), t[i]);
		KUNIT_EXPECT_EQ(test, ramfs_dir_path(&rootfs, inode, path, sizeof(path)) > 0, true);
		KUNIT_EXPECT_EQ(test, proc_name_to_int(path + 6, strlen(path + 6) - 3), t[i]->pid);
	}
	KUNIT_EXPECT_EQ(test, rootfs.last_ino, inos);
	for (int i = 20; i < 40; i++)
		free_task(t[i]);
}

/* The number of space-separated fields in text, and the n-th (1-based). */
static long stat_field(int n, int *count)
{
	const char *p = strchr(text, ')'); /* comm may hold spaces */
	long v = -1;
	int i = 2;

	for (*count = 2; p && *p && *p != '\n'; p++) {
		if (*p != ' ')
			continue;
		i++;
		(*count)++;
		if (i == n) {
			const char *q = p + 1;
			int neg = *q == '-';

			v = 0;
			for (q += neg; *q >= '0' && *q <= '9'; q++)
				v = v * 10 + (*q - '0');
			v = neg ? -v : v;
		}
	}
	return v;
}

/* /proc/PID/stat as do_task_stat: 52 fields, the task's pid, comm,
 * state, parent, group, vsize in bytes and rss in pages; statm's size
 * is vsize in pages; status names the parent; the modes are Linux's. */
static void proc_pid_stat_statm_status_show_the_task(struct kunit *test)
{
	char path[48], want[32];
	struct ramfs_inode *inode;
	int count;

	ksnprintf(path, sizeof(path), "/proc/%d/stat", task->pid);
	KUNIT_ASSERT_EQ(test, fill_user(UBUF, 1, 3 * PAGE_SIZE), 0);
	KUNIT_ASSERT_GT(test, read_path(path), 0);
	ksnprintf(want, sizeof(want), "%d (ktest) R %d ", task->pid, current->pid);
	KUNIT_EXPECT_EQ(test, strncmp(text, want, strlen(want)), 0);
	stat_field(1, &count);
	KUNIT_EXPECT_EQ(test, count, 52);
	KUNIT_EXPECT_EQ(test, stat_field(5, &count), (long)task->pgid);
	KUNIT_EXPECT_EQ(test, stat_field(19, &count), 0L);  /* nice */
	KUNIT_EXPECT_EQ(test, stat_field(18, &count), 20L); /* priority */
	KUNIT_EXPECT_EQ(test, stat_field(23, &count), (long)(mm_total_vm(mm) << PAGE_SHIFT));
	KUNIT_EXPECT_EQ(test, stat_field(24, &count), (long)get_mm_rss(mm));
	KUNIT_EXPECT_GE(test, stat_field(24, &count), 3L);
	KUNIT_EXPECT_EQ(test, stat_field(47, &count), (long)HEAP); /* start_brk */
	ksnprintf(path, sizeof(path), "/proc/%d/statm", task->pid);
	KUNIT_ASSERT_GT(test, read_path(path), 0);
	const char *s = text;
	KUNIT_EXPECT_EQ(test, parse_num(&s), (long)mm_total_vm(mm));
	KUNIT_EXPECT_EQ(test, parse_num(&s), (long)get_mm_rss(mm));
	ksnprintf(path, sizeof(path), "/proc/%d/status", task->pid);
	KUNIT_ASSERT_GT(test, read_path(path), 0);
	KUNIT_EXPECT_EQ(test, field("PPid:\t"), (long)current->pid);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "Name:\tktest\n"));
	ksnprintf(path, sizeof(path), "/proc/%d/environ", task->pid);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0400);
	ksnprintf(path, sizeof(path), "/proc/%d/comm", task->pid);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFREG | 0644);
	ksnprintf(path, sizeof(path), "/proc/%d/fd", task->pid);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, true, &inode), 0);
	KUNIT_EXPECT_EQ(test, inode->mode, S_IFDIR | 0500);
}

/* cmdline and environ are the bytes between the mm's arg_start and
 * arg_end, env_start and env_end, NULs and all, read from the task's
 * pages (not the reader's). */
static void proc_pid_cmdline_and_environ_read_the_tasks_strings(struct kunit *test)
{
	static const char strings[] = "ktest\0-v\0HOME=/\0";
	char path[48];

	KUNIT_ASSERT_EQ(test, copy_to_user(UBUF + 100, strings, sizeof(strings) - 1), 0);
	mm->arg_start = UBUF + 100;
	mm->arg_end = mm->env_start = UBUF + 109;
	mm->env_end = UBUF + 116;
	ksnprintf(path, sizeof(path), "/proc/%d/cmdline", task->pid);
	KUNIT_EXPECT_EQ(test, read_path(path), 9);
	KUNIT_EXPECT_EQ(test, memcmp(text, "ktest\0-v\0", 9), 0);
	ksnprintf(path, sizeof(path), "/proc/%d/environ", task->pid);
	KUNIT_EXPECT_EQ(test, read_path(path), 7);
	KUNIT_EXPECT_EQ(test, memcmp(text, "HOME=/\0", 7), 0);
	ksnprintf(path, sizeof(path), "/proc/%d/comm", task->pid);
	KUNIT_EXPECT_EQ(test, read_path(path), 6);
	KUNIT_EXPECT_STREQ(test, text, "ktest\n");
	mm->arg_start = mm->arg_end = mm->env_start = mm->env_end = 0;
}

/* /proc/self leads to the reader's own pid; fd/ lists no fd of a task
 * with an empty table; cwd is the task's working directory. */
static void proc_self_is_the_readers_pid_and_cwd_the_tasks(struct kunit *test)
{
	struct ramfs_inode *self, *cwd;
	char buf[64], want[16], path[48];

	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, "/proc/self", false, &self), 0);
	ksnprintf(want, sizeof(want), "%d", current->pid);
	KUNIT_EXPECT_EQ(test, self->get_link(self, buf, sizeof(buf)), (int)strlen(want));
	KUNIT_EXPECT_STREQ(test, buf, want);
	ksnprintf(path, sizeof(path), "/proc/%d/cwd", task->pid);
	KUNIT_ASSERT_EQ(test, ramfs_lookup(&rootfs, path, false, &cwd), 0);
	KUNIT_ASSERT_EQ(test, cwd->get_link(cwd, buf, sizeof(buf)),
			ramfs_dir_path(&rootfs, task->fs->pwd, path, sizeof(path)));
	KUNIT_EXPECT_STREQ(test, buf, path);
	ksnprintf(path, sizeof(path), "/proc/%d/fd", task->pid);
	KUNIT_EXPECT_EQ(test, dir_lists(path, "0"), 0);
	KUNIT_EXPECT_EQ(test, dir_lists(path, ".."), 1);
}

/* /proc/stat: the cpu lines have Linux's ten columns, idle is the idle
 * task's runtime in USER_HZ, processes the forks, ctxt the switches. */
static void proc_stat_shows_idle_forks_and_switches(struct kunit *test)
{
	uint64_t idle = nsec_to_clock_t(kcpustat_idle_ns());
	const char *s, *eol;
	long v;
	int n = 0;

	KUNIT_ASSERT_GT(test, read_path("/proc/stat"), 0);
	KUNIT_ASSERT_EQ(test, strncmp(text, "cpu  ", 5), 0);
	eol = strchr(text, '\n');
	KUNIT_ASSERT_NOT_NULL(test, eol);
	for (s = text + 5; s <= eol; n++)
		parse_num(&s); /* each takes its number and the blank or newline after it */
	KUNIT_EXPECT_EQ(test, n, 10);
	s = text + 5;
	for (int i = 0; i < 3; i++)
		parse_num(&s);
	v = parse_num(&s);
	KUNIT_EXPECT_GE(test, v, (long)idle);
	KUNIT_EXPECT_LE(test, v, (long)nsec_to_clock_t(kcpustat_idle_ns()));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "\ncpu0 "));
	KUNIT_EXPECT_EQ(test, field("processes"), (long)total_forks);
	KUNIT_EXPECT_EQ(test, field("ctxt"), (long)nr_context_switches());
	KUNIT_EXPECT_GT(test, field("intr"), 0L);
	KUNIT_EXPECT_GT(test, field("btime"), 1600000000L);
	KUNIT_EXPECT_EQ(test, field("procs_blocked"), 0L);
}

/* The console's output while a case runs (console_redirect). */
static char echoed[256];
static size_t echoed_len;

static void echo_write(struct console *con, const char *s, size_t n)
{
	(void)con;
	n = MIN(n, sizeof(echoed) - 1 - echoed_len);
	memcpy(echoed + echoed_len, s, n);
	echoed_len += n;
	echoed[echoed_len] = '\0';
}

static struct console echo_console = { .name = "procfs_test", .write = echo_write };

/* syslog's console actions as Linux: CONSOLE_LEVEL n echoes the levels
 * below n, CONSOLE_OFF only emergencies, CONSOLE_ON the level before. */
static void syslog_console_level_decides_what_is_echoed(struct kunit *test)
{
	echoed_len = 0;
	echoed[0] = '\0';
	console_redirect(&echo_console);
	do_syslog(SYSLOG_ACTION_CONSOLE_LEVEL, 0, 4);
	pr_warn("echo-test warn\n");
	pr_err("echo-test err\n");
	do_syslog(SYSLOG_ACTION_CONSOLE_OFF, 0, 0);
	printk(KERN_CRIT "echo-test crit\n");
	do_syslog(SYSLOG_ACTION_CONSOLE_ON, 0, 0);
	pr_err("echo-test err again\n");
	console_redirect(NULL);
	printk_set_console_loglevel(7);
	KUNIT_EXPECT_NULL(test, strstr(echoed, "echo-test warn"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(echoed, "echo-test err\n"));
	KUNIT_EXPECT_NULL(test, strstr(echoed, "echo-test crit"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(echoed, "echo-test err again\n"));
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_CONSOLE_LEVEL, 0, 0), -EINVAL);
}

/* syslog(2) as do_syslog: SIZE_BUFFER is the ring, READ_ALL gives the
 * newest whole lines with their level, bad arguments are -EINVAL. */
static void syslog_reads_the_log_with_levels(struct kunit *test)
{
	long n;

	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_SIZE_BUFFER, 0, 0),
			1 << CONFIG_LOG_BUF_SHIFT);
	printk_set_console_loglevel(0);
	pr_warn("syslog test marker\n");
	printk_set_console_loglevel(7);
	n = do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, (int)(UBUF_PAGES * PAGE_SIZE));
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(text, UBUF, (size_t)n), 0);
	text[n] = '\0';
	KUNIT_EXPECT_EQ(test, text[0], '<');
	KUNIT_EXPECT_EQ(test, text[n - 1], '\n');
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "<4>["));
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "] syslog test marker\n"));
	/* A small buffer gets the newest whole lines only. */
	n = do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, 200);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(text, UBUF, (size_t)n), 0);
	text[n] = '\0';
	KUNIT_EXPECT_EQ(test, text[0], '<');
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "syslog test marker\n"));
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, 0, 10), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, -1), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, 0), 0);
	KUNIT_EXPECT_EQ(test, do_syslog(11, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_CONSOLE_LEVEL, 0, 9), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, 0x1000, 100), -EFAULT);
	KUNIT_EXPECT_GT(test, do_syslog(SYSLOG_ACTION_SIZE_UNREAD, 0, 0), 0);
	/* CLEAR: READ_ALL gives only what came after it. */
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_CLEAR, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, 4096), 0);
	printk_set_console_loglevel(0);
	pr_info("after clear\n");
	printk_set_console_loglevel(7);
	n = do_syslog(SYSLOG_ACTION_READ_CLEAR, UBUF, 4096);
	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(text, UBUF, (size_t)n), 0);
	text[n] = '\0';
	KUNIT_EXPECT_EQ(test, strncmp(text, "<6>[", 4), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(text, "] after clear\n"));
	KUNIT_EXPECT_EQ(test, do_syslog(SYSLOG_ACTION_READ_ALL, UBUF, 4096), 0);
}

static struct kunit_case procfs_cases[] = {
	KUNIT_CASE(calc_load_follows_linux_fixed_point),
	KUNIT_CASE(proc_pid_dir_lives_and_dies_with_its_task),
	KUNIT_CASE(proc_pid_dirs_of_gone_tasks_serve_new_pids),
	KUNIT_CASE(proc_pid_stat_statm_status_show_the_task),
	KUNIT_CASE(proc_pid_cmdline_and_environ_read_the_tasks_strings),
	KUNIT_CASE(proc_self_is_the_readers_pid_and_cwd_the_tasks),
	KUNIT_CASE(proc_stat_shows_idle_forks_and_switches),
	KUNIT_CASE(syslog_reads_the_log_with_levels),
	KUNIT_CASE(syslog_console_level_decides_what_is_echoed),
	KUNIT_CASE(proc_sys_kernel_pid_max_and_threads_max_are_the_pid_table),
	KUNIT_CASE(a_lowered_pid_max_turns_the_pid_cycle_at_it),
	KUNIT_CASE(sys_devices_system_cpu_lists_the_cpus),
	KUNIT_CASE(proc_interrupts_counts_per_cpu),
	KUNIT_CASE(loadavg_counts_the_tasks_and_shows_the_highest_pid),
	KUNIT_CASE(uptime_grows_and_idle_is_within_it),
	KUNIT_CASE(pagemap_shows_each_page_of_a_pte_mapped_folio),
	KUNIT_CASE(pagemap_shows_the_zero_page_present_and_not_exclusive),
	KUNIT_CASE(pagemap_shows_every_subpage_of_a_pmd_leaf),
	KUNIT_CASE(pagemap_reads_whole_entries_only),
	KUNIT_CASE(clear_refs_4_clears_pagemap_soft_dirty_until_the_next_write),
	KUNIT_CASE(kpageflags_mark_head_and_tails_of_an_mthp_folio),
	KUNIT_CASE(kpageflags_tell_zero_pages_free_pages_and_holes),
	KUNIT_CASE(kpageflags_show_slab_locked_and_reserved),
	KUNIT_CASE(kpagecount_counts_the_entries_of_each_page),
	KUNIT_CASE(smaps_rollup_sums_the_vmas),
	KUNIT_CASE(meminfo_memfree_is_node_free_pages),
	KUNIT_CASE(buddyinfo_counts_are_the_free_areas),
	KUNIT_CASE(pagetypeinfo_has_linux_sections),
	KUNIT_CASE(pagetypeinfo_mixed_blocks_are_page_owner_counts),
	KUNIT_CASE(zoneinfo_has_the_watermarks),
	KUNIT_CASE(compact_memory_takes_1_only),
	KUNIT_CASE(proc_sys_vm_files_read_and_write_their_variables),
	KUNIT_CASE(vmstat_names_linux_counters),
	KUNIT_CASE(maps_lists_the_vmas_with_their_perms),
	KUNIT_CASE(smaps_rss_counts_touched_pages),
	KUNIT_CASE(smaps_counts_pmd_mapped_thp),
	KUNIT_CASE(smaps_counts_pmd_mapped_shmem),
	KUNIT_CASE(smaps_and_pagemap_follow_a_folio_across_fork),
	KUNIT_CASE(smaps_counts_anon_folios_per_size),
	KUNIT_CASE(smaps_of_many_vmas_outgrows_one_page),
	KUNIT_CASE(seq_lseek_follows_linux),
	KUNIT_CASE(maps_read_from_the_start_shows_vmas_mapped_after_open),
	KUNIT_CASE(proc_self_and_exe_lead_to_the_task),
	KUNIT_CASE(thp_sysfs_write_never_makes_faults_order_0),
	KUNIT_CASE(madv_hugepage_enables_madvise_sizes),
	KUNIT_CASE(madv_hugepage_merges_equal_neighbours),
	{},
};

static struct kunit_suite procfs_suite = {
	.name = "procfs",
	.init = procfs_test_init,
	.exit = procfs_test_exit,
	.test_cases = procfs_cases,
};
kunit_test_suite(procfs_suite);
