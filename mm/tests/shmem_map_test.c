/*
 * Shared mappings of tmpfs files (mm/memory.c's do_fault, finish_fault
 * and fault-around, fs/ramfs.c's shmem_fault, mm/mmap.c's file VMAs):
 * a write through the mapping lands in the page cache; a write fault
 * maps a whole large folio with one batch and a read fault maps the
 * fault-around window of what the cache holds; past the end of the file
 * is SIGBUS and truncate unmaps what it cuts; fork shares the pages; a
 * private mapping copies a page on its first write, a hole punched keeps
 * the copy and truncate drops it; the
 * mapping's reference and the file's go with munmap, so no page is left.
 * Example: a 64 KiB folio mapped at A, written at A + 3 pages: 16 PTEs
 * map it after that one fault.
 */
#include <compaction.h>
#include <fs.h>
#include <ktest.h>
#include <mman.h>
#include <pagemap.h>
#include <ramfs.h>
#include <shmem_fs.h>
#include <slab.h>
#include <vm.h>
#include "../internal.h"
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define SHARED_RW (VM_READ | VM_WRITE | VM_SHARED | VM_MAYWRITE | VM_MAYSHARE)

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct ramfs fs;
static unsigned long file_pages_at_start;

static const struct file_operations map_fops = { .mmap = shmem_mmap, .fallocate = shmem_fallocate };

static int shmem_map_test_init(struct kunit *test)
{
	if (test_node0_get(test, 8192))
		return 0;
	file_pages_at_start = NODE_DATA(0)->nr_file_pages;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	if (ramfs_init(&fs, ramfs_kzalloc, ramfs_kfree, NULL))
		kunit_mark_skipped(test, "no memory for a ramfs");
	return 0;
}

/* Every case unmaps what it mapped and drops its file: the file system
 * goes, and with it every page-cache page. */
static void shmem_map_test_exit(struct kunit *test)
{
	if (!NODE_DATA(0))
		return;
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
	if (fs.root)
		ramfs_kill(&fs);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, file_pages_at_start);
	test_node0_put(test);
}

/* A file /name of @pages pages, page i full of 'a' + i, made with huge=
 * @huge, open for reading and writing. Return: the file, or NULL. */
static struct file *make_file(struct kunit *test, const char *name, unsigned long pages, int huge)
{
	char *buf = kmalloc(pages * P, GFP_KERNEL);
	struct ramfs_inode *inode = NULL;
	struct file *file = NULL;

	fs.huge = huge;
	for (unsigned long i = 0; buf && i < pages; i++)
		memset(buf + i * P, 'a' + (int)i, P);
	if (buf && !ramfs_create(&fs, name, 0644, buf, pages * P, &inode))
		file = alloc_file(inode, &map_fops, O_RDWR, FMODE_READ | FMODE_WRITE);
	kfree(buf);
	KUNIT_EXPECT_NOT_NULL(test, file);
	return file;
}

/* make_file, then all of it mapped shared and writable at A. Return:
 * the file, or NULL (no mm or fs for the case, or it failed). */
static struct file *map_new_file(struct kunit *test, const char *name, unsigned long pages,
				 int huge)
{
	struct file *file;

	if (!t.mm || !fs.root)
		return NULL;
	file = make_file(test, name, pages, huge);
	if (file && vm_mmap_file(t.mm, A, pages * P, SHARED_RW, file, 0) != A) {
		kunit_fail(test, __FILE__, __LINE__, "%s: mmap shared at A failed", name);
		fput(file);
		file = NULL;
	}
	return file;
}

static pte_t pte_at(unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(t.mm, addr);
	pte_t *pte = pmd && !pmd_leaf(*pmd) ? pte_offset_map(pmd, addr) : NULL;

	return pte ? *pte : 0;
}

static char file_byte(struct file *file, uint64_t off)
{
	char c = '?';

	ramfs_read(file->f_inode, off, &c, 1);
	return c;
}

static void shared_write_lands_in_the_page_cache(struct kunit *test)
{
	unsigned long mapped_before = NODE_DATA(0) ? NODE_DATA(0)->nr_file_mapped : 0;
	struct file *file;
	char c = 0;

	file = map_new_file(test, "/f", 4, SHMEM_HUGE_NEVER);
	if (!file)
		return;
	KUNIT_EXPECT_EQ(test, file->f_count, 2); /* the fd's and the VMA's */
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->i_mmap_writable, 1);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 2 * P + 5, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'c');
	KUNIT_EXPECT_EQ(test, copy_to_user(A + P + 7, "z", 1), 0);
	KUNIT_EXPECT_EQ(test, file_byte(file, P + 7), 'z');
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 4); /* fault-around took all */
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_mapped, mapped_before + 4);
	/* The cache's reference and the mappings' one. */
	KUNIT_EXPECT_EQ(test, folio_ref_count(test_mapped_folio(t.mm, A + P)), 2);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 4 * P), 0);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_mapped, mapped_before);
	KUNIT_EXPECT_EQ(test, file->f_count, 1);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->i_mmap_writable, 0);
	KUNIT_EXPECT_TRUE(test, list_empty(&file->f_inode->i_mapping->i_mmap));
	KUNIT_EXPECT_EQ(test, file_byte(file, P + 7), 'z');
	fput(file);
}

static void write_fault_maps_a_whole_folio(struct kunit *test)
{
	struct folio *folio;
	struct file *file;

	if (!t.mm || !fs.root || test_skip_without_thp(test))
		return;
	file = make_file(test, "/big", 16, SHMEM_HUGE_ALWAYS); /* one 64 KiB folio */
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 16 * P, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 3 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_order(folio), 4);
	for (unsigned long i = 0; i < 16; i++)
		KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + i * P)), folio_pfn(folio) + i);
	KUNIT_EXPECT_TRUE(test, pte_dirty(pte_at(A + 3 * P)) && pte_write(pte_at(A)));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 16);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_mapped, 16); /* the folio, whole */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_FAULTS], 1);
	/* Off by one page, no whole folio fits: only the faulting page. */
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + 32 * P, 16 * P, SHARED_RW, file, 1),
			A + 32 * P);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 35 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 17);
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + 35 * P)), folio_pfn(folio) + 4);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 17);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 48 * P), 0);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 0);
	fput(file);
}

static void read_fault_maps_the_window_around(struct kunit *test)
{
	struct file *file;

	if (!t.mm || !fs.root)
		return;
	file = make_file(test, "/small", 32, SHMEM_HUGE_NEVER); /* 32 order-0 folios */
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 32 * P, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 20 * P, 0), VM_FAULT_OK);
	for (unsigned long i = 0; i < 32; i++)
		KUNIT_EXPECT_EQ(test, pte_present(pte_at(A + i * P)), i >= 16);
	KUNIT_EXPECT_FALSE(test, pte_dirty(pte_at(A + 20 * P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 16);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 32 * P), 0);
	fput(file);
}

static void past_the_end_is_sigbus_and_truncate_unmaps(struct kunit *test)
{
	struct file *file;

	if (!t.mm || !fs.root)
		return;
	file = make_file(test, "/t", 4, SHMEM_HUGE_NEVER);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 8 * P, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 5 * P, 0), VM_FAULT_SIGBUS);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 3 * P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A + 2 * P)) && pte_present(pte_at(A + 3 * P)));
	ramfs_setsize(file->f_inode, P + 100);
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A)) && pte_present(pte_at(A + P)));
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A + 2 * P)) && pte_none(pte_at(A + 3 * P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 2);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 2 * P, 0), VM_FAULT_SIGBUS);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 2);
	/* The file's bytes replaced whole (ramfs_set_data: an initramfs
	 * entry or the shell writing it): the old pages are unmapped
	 * before they go, and the mapping reads the new bytes. */
	KUNIT_EXPECT_EQ(test, ramfs_set_data(file->f_inode, "xy", 2), 0);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A)) && pte_none(pte_at(A + P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_SIGBUS);
	{
		char got[4] = { 0 };

		KUNIT_EXPECT_EQ(test, copy_from_user(got, A, 3), 0);
		KUNIT_EXPECT_STREQ(test, got, "xy");
	}
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	fput(file);
}

/* Linux: truncate_inode_partial_folio. A PMD-size folio a truncate cuts
 * is split, a mapped one after it is unmapped (its mappings fault the
 * pages back from the cache): the pages past the end go, ShmemHugePages
 * drops by the folio, the pages kept keep their bytes and the new end
 * reads zeros after. An mlocked one stays whole, zeroed past the end; a
 * punched hole splits it the same way. */
static void truncate_splits_a_large_folio_it_cuts(struct kunit *test)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long thps_before = pgdat ? pgdat->nr_shmem_thps : 0;
	struct folio *folio;
	struct file *file;
	char c = 0;

	if (!t.mm || !fs.root || test_skip_without_thp(test))
		return;
	file = make_file(test, "/split", 512, SHMEM_HUGE_ALWAYS);
	KUNIT_ASSERT_NOT_NULL(test, file);
	folio = filemap_get_folio(file->f_inode->i_mapping, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
	KUNIT_EXPECT_EQ(test, folio_order(folio), HPAGE_PMD_ORDER);
	folio_put(folio);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_thps, thps_before + HPAGE_PMD_NR);
	/* Pages 0 and 7 mapped by PTEs (the mapping is not 2 MiB-aligned,
	 * so no PMD leaf), page 7 written through the mapping, and mlocked:
	 * the truncate unmaps pages 401 on and leaves the folio whole. */
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + 16 * P, 512 * P, SHARED_RW, file, 0),
			A + 16 * P);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 16 * P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 23 * P, "D", 1), 0);
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A + 16 * P)));
	folio = test_mapped_folio(t.mm, A + 16 * P);
	folio_clear_dirty(folio);
	folio_set_mlocked(folio);
	ramfs_setsize(file->f_inode, 500 * P);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 512);
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A + 16 * P)));
	folio_clear_mlocked(folio);
	/* Not mlocked: unmapped (the written PTE's dirt goes to the folio),
	 * split, the pages past the end freed; page 0 faults back in. */
	ramfs_setsize(file->f_inode, 400 * P + 100);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 401);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_thps, thps_before);
	KUNIT_EXPECT_FALSE(test, pte_present(pte_at(A + 16 * P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(folio));
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 23 * P, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'D');
	KUNIT_EXPECT_EQ(test, folio_order(test_mapped_folio(t.mm, A + 23 * P)), 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 16 * P, 512 * P), 0);
	ramfs_setsize(file->f_inode, 2 * P + 100);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 3);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_thps, thps_before);
	for (unsigned long i = 0; i < 3; i++) {
		folio = filemap_get_folio(file->f_inode->i_mapping, i);
		KUNIT_ASSERT_FALSE(test, IS_ERR(folio));
		KUNIT_EXPECT_EQ(test, folio_order(folio), 0);
		KUNIT_EXPECT_TRUE(test, folio_test_uptodate(folio) && folio_test_swapbacked(folio));
		KUNIT_EXPECT_EQ(test, folio->page.index, i);
		KUNIT_EXPECT_EQ(test, folio_ref_count(folio), 2); /* the cache's and ours */
		folio_put(folio);
	}
	KUNIT_EXPECT_EQ(test, file_byte(file, P + 5), 'b');
	KUNIT_EXPECT_EQ(test, file_byte(file, 2 * P + 99), 'c');
	ramfs_setsize(file->f_inode, 3 * P);
	KUNIT_EXPECT_EQ(test, file_byte(file, 2 * P + 100), 0);
	ramfs_read(file->f_inode, 2 * P + 4000, &c, 1);
	KUNIT_EXPECT_EQ(test, c, 0);
	fput(file);
	/* A hole punched in the middle of a whole folio splits it too. */
	file = make_file(test, "/hole", 16, SHMEM_HUGE_ALWAYS);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_EXPECT_EQ(test, mapping_max_folio_order(file->f_inode->i_mapping) >= 4, true);
	KUNIT_EXPECT_EQ(test,
			shmem_fallocate(file, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 4 * P,
					4 * P + 10),
			0);
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 12);
	KUNIT_EXPECT_EQ(test, file_byte(file, 8 * P + 9), 0);
	KUNIT_EXPECT_EQ(test, file_byte(file, 8 * P + 10), 'i');
	fput(file);
}

/* Linux: shmem_inode_acct_blocks under overcommit mode 2. A tmpfs file
 * gets no page Committed_AS cannot take: a write's room stops at the
 * commit room, pages it has are free to write, and shared anonymous
 * memory (charged its size at mmap) is not held to it. */
static void tmpfs_pages_stop_at_the_commit_room_in_mode_2(struct kunit *test)
{
	int mode = sysctl_overcommit_memory;
	unsigned long kbytes = sysctl_overcommit_kbytes, reserve = sysctl_user_reserve_kbytes;
	struct file *file, *anon;

	if (!t.mm || !fs.root)
		return;
	file = make_file(test, "/commit", 2, SHMEM_HUGE_NEVER);
	anon = shmem_zero_setup(64 * P, VM_NORESERVE);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_NOT_NULL(test, anon);
	anon->f_inode->acct_size_pages = 64; /* as if charged its size at mmap */
	sysctl_overcommit_memory = OVERCOMMIT_NEVER;
	sysctl_user_reserve_kbytes = 0;
	sysctl_overcommit_kbytes = (vm_memory_committed() + 10) * (P / 1024);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(file->f_inode, 0, 100 * P), 11 * P);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(file->f_inode, 0, 2 * P), 2 * P);
	KUNIT_EXPECT_EQ(test, ramfs_write_room(anon->f_inode, 0, 64 * P), 64 * P);
	sysctl_overcommit_memory = mode;
	sysctl_overcommit_kbytes = kbytes;
	sysctl_user_reserve_kbytes = reserve;
	anon->f_inode->acct_size_pages = 0;
	fput(anon);
	fput(file);
}

static pmd_t pmd_at(unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(t.mm, addr);

	return pmd ? *pmd : 0;
}

/* make_file of a whole PMD-sized folio (huge=always). Return: the file
 * and, in *folio, its folio (no reference kept); NULL without THP. */
static struct file *make_pmd_file(struct kunit *test, const char *name, struct folio **folio)
{
	struct file *file;

	if (!t.mm || !fs.root || test_skip_without_thp(test))
		return NULL;
	file = make_file(test, name, HPAGE_PMD_NR, SHMEM_HUGE_ALWAYS);
	if (!file)
		return NULL;
	*folio = filemap_get_folio(file->f_inode->i_mapping, 0);
	if (IS_ERR(*folio) || folio_order(*folio) != HPAGE_PMD_ORDER) {
		kunit_fail(test, __FILE__, __LINE__, "%s: no PMD-sized folio", name);
		fput(file);
		return NULL;
	}
	folio_put(*folio);
	return file;
}

/*
 * Linux: do_set_pmd, from filemap_map_pmd (a read) and finish_fault. A
 * PMD-sized page-cache folio under a 2 MiB-aligned mapping is mapped by
 * one PMD leaf: writable in a shared mapping, read-only in a private one;
 * counted once in ShmemPmdMapped however many leaves map it, once per
 * leaf in thp_file_mapped. A write to the private one takes its leaf
 * away and copies one page; the file keeps its bytes. munmap leaves the
 * folio to the cache.
 */
static void a_pmd_sized_folio_is_mapped_by_a_pmd_leaf(struct kunit *test)
{
	struct pglist_data *pgdat = NODE_DATA(0);
	unsigned long pmdmapped, mapped, events, splits;
	struct folio *folio;
	struct file *file;
	char c = 0;

	file = make_pmd_file(test, "/pmd", &folio);
	if (!file)
		return;
	pmdmapped = pgdat->nr_shmem_pmdmapped;
	mapped = pgdat->nr_file_mapped;
	events = pgdat->vm_events[THP_FILE_MAPPED];
	splits = NODE_DATA(t.mm->nid)->vm_events[THP_SPLIT_PMD];
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, PMD_SIZE, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 5 * P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, pmd_pfn(pmd_at(A)), folio_pfn(folio));
	KUNIT_EXPECT_TRUE(test, pmd_write(pmd_at(A)) && !pmd_dirty(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), HPAGE_PMD_NR + 1); /* cache's + mapping's */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_pmdmapped, pmdmapped + HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, pgdat->nr_file_mapped, mapped + HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[THP_FILE_MAPPED], events + 1);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 300 * P + 1, 1), 0);
	KUNIT_EXPECT_EQ(test, c, file_byte(file, 300 * P));
	/* A private mapping of the same folio: a read-only leaf of its own. */
	KUNIT_ASSERT_EQ(test,
			vm_mmap_file(t.mm, A + PMD_SIZE, PMD_SIZE, VM_READ | VM_WRITE | VM_MAYWRITE,
				     file, 0),
			A + PMD_SIZE);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + PMD_SIZE, 0), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A + PMD_SIZE)) && !pmd_write(pmd_at(A + PMD_SIZE)));
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 2);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_pmdmapped, pmdmapped + HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, pgdat->vm_events[THP_FILE_MAPPED], events + 2);
	/* Its write: the leaf goes, one anonymous copy comes. */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + PMD_SIZE + 7 * P, "W", 1), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(pmd_at(A + PMD_SIZE)));
	KUNIT_EXPECT_EQ(test, NODE_DATA(t.mm->nid)->vm_events[THP_SPLIT_PMD], splits + 1);
	KUNIT_EXPECT_TRUE(test, folio_test_anon(test_mapped_folio(t.mm, A + PMD_SIZE + 7 * P)));
	KUNIT_EXPECT_EQ(test, file_byte(file, 7 * P), 'h');
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 1);
	/* Its other pages come back by PTEs, from the same folio. */
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + PMD_SIZE + 8 * P, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'i');
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + PMD_SIZE + 8 * P) == folio);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 2 * PMD_SIZE), 0);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 0);
	KUNIT_EXPECT_EQ(test, folio_ref_count(folio), HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, pgdat->nr_shmem_pmdmapped, pmdmapped);
	KUNIT_EXPECT_EQ(test, pgdat->nr_file_mapped, mapped);
	fput(file);
}

/*
 * A write fault maps the leaf writable and dirty, and the folio dirty
 * (do_set_pmd with write). mprotect takes RW off the leaf and, the
 * mapping being shared, gives it back (can_change_pmd_writable); one that
 * cuts the leaf takes it away (__split_huge_file_pmd), as MADV_DONTNEED
 * of a part and a truncate do; the next faults map PTEs where the VMA no
 * longer covers 2 MiB, and the leaf again where it does.
 */
static void a_file_pmd_leaf_goes_where_a_change_cuts_it(struct kunit *test)
{
	struct folio *folio;
	struct file *file;
	char c = 0;

	file = make_pmd_file(test, "/pmdw", &folio);
	if (!file)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, PMD_SIZE, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 9 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test,
			  pmd_leaf(pmd_at(A)) && pmd_write(pmd_at(A)) && pmd_dirty(pmd_at(A)));
	KUNIT_EXPECT_TRUE(test, folio_test_dirty(folio));
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, PMD_SIZE, VM_READ), 0);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)) && !pmd_write(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, PMD_SIZE, VM_READ | VM_WRITE), 0);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)) && pmd_write(pmd_at(A)));
	/* MADV_DONTNEED of one page: the leaf goes; a read maps it again. */
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, P, MADV_DONTNEED), 0);
	KUNIT_EXPECT_TRUE(test, pmd_none(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + P, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'b');
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)));
	/* mprotect of one page: two VMAs, neither covers 2 MiB: PTEs. */
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, P, VM_READ), 0);
	KUNIT_EXPECT_TRUE(test, pmd_none(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 20 * P, "Z", 1), 0);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + 20 * P)), folio_pfn(folio) + 20);
	KUNIT_EXPECT_EQ(test, file_byte(file, 20 * P), 'Z');
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PMD_SIZE), 0);
	/* Mapped again, then truncated inside the folio: the leaf goes and
	 * the folio, no longer mapped, is split (Linux: truncate_pagecache
	 * unmaps first, truncate_inode_partial_folio splits). */
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, PMD_SIZE, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, 0), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, pmd_leaf(pmd_at(A)));
	ramfs_setsize(file->f_inode, 100 * P);
	KUNIT_EXPECT_TRUE(test, pmd_none(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 100);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PMD_SIZE), 0);
	fput(file);
}

/* No leaf where THP is refused or the alignment is off: MADV_NOHUGEPAGE,
 * PR_SET_THP_DISABLE, a file offset not 2 MiB-aligned with the address.
 * fork copies no leaf, even where it copies the VMA's page tables: the
 * child's own fault maps its leaf (Linux: copy_huge_pmd's "Skip if can
 * be re-fill on fault"). */
static void a_file_pmd_leaf_needs_thp_and_alignment(struct kunit *test)
{
	struct mm_struct *child;
	struct folio *folio;
	struct file *file;

	file = make_pmd_file(test, "/pmdno", &folio);
	if (!file)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, PMD_SIZE, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, PMD_SIZE, MADV_NOHUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 40 * P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + 40 * P)), folio_pfn(folio) + 40);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PMD_SIZE), 0);
	t.mm->flags |= MMF_DISABLE_THP;
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, PMD_SIZE, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(pmd_at(A)));
	t.mm->flags &= ~MMF_DISABLE_THP;
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PMD_SIZE), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + P, PMD_SIZE - P, SHARED_RW, file, 1), A + P);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_FALSE(test, pmd_leaf(pmd_at(A)));
	KUNIT_EXPECT_EQ(test, pte_pfn(pte_at(A + P)), folio_pfn(folio) + 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + P, PMD_SIZE - P), 0);
	fput(file);
	/* fork of a private mapping with a copied page past the leaf (so
	 * its page tables are copied): the leaf is not. */
	file = make_file(test, "/pmdfork", HPAGE_PMD_NR + 1, SHMEM_HUGE_ALWAYS);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(
		test,
		vm_mmap_file(t.mm, A, PMD_SIZE + P, VM_READ | VM_WRITE | VM_MAYWRITE, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + PMD_SIZE, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_ASSERT_TRUE(test, pmd_leaf(pmd_at(A)));
	folio = pmd_folio(pmd_at(A));
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_EXPECT_EQ(test, dup_mmap(child, t.mm), 0);
	KUNIT_EXPECT_EQ(test, child->counters[MM_ANONPAGES], 1);
	KUNIT_EXPECT_EQ(test, child->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(child, A + 3 * P, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, child->counters[MM_SHMEMPAGES], HPAGE_PMD_NR);
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 2);
	mm_destroy(child);
	KUNIT_EXPECT_EQ(test, folio_entire_mapcount(folio), 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, PMD_SIZE + P), 0);
	fput(file);
}

static void fork_shares_the_pages(struct kunit *test)
{
	struct mm_struct *child;
	struct file *file;
	char c = 0;

	file = map_new_file(test, "/s", 2, SHMEM_HUGE_NEVER);
	if (!file)
		return;
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_EXPECT_EQ(test, dup_mmap(child, t.mm), 0);
	/* Not copied: the child faults the file's pages in itself. */
	KUNIT_EXPECT_EQ(test, child->counters[MM_SHMEMPAGES], 0);
	KUNIT_EXPECT_EQ(test, file->f_count, 3);
	switch_mm(child);
	KUNIT_EXPECT_EQ(test, copy_to_user(A + P + 1, "Q", 1), 0);
	KUNIT_EXPECT_EQ(test, child->counters[MM_SHMEMPAGES], 1); /* a write: no fault-around */
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + P + 1, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'Q');
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + P) == test_mapped_folio(child, A + P));
	mm_destroy(child);
	KUNIT_EXPECT_EQ(test, file->f_count, 2);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 2 * P), 0);
	fput(file);
}

static struct folio *alloc_migration_dst(struct folio *src, unsigned long private)
{
	(void)private;
	return folio_alloc(GFP_HIGHUSER_MOVABLE, folio_order(src));
}

/* migrate_pages() of one folio with the kernel's hook. Return: how many
 * failed; *moved: the pages that moved. */
static int migrate_one(struct folio *folio, unsigned long *moved)
{
	migrate_folio_fn saved = set_migrate_folio_hook(move_to_new_folio);
	int failed = migrate_pages(&folio, 1, alloc_migration_dst, NULL, 0, moved);

	set_migrate_folio_hook(saved);
	return failed;
}

/* Page-cache folios are on an LRU list and migrate as Linux's
 * migrate_folio moves them: the cache's entry, every mapping in two mms,
 * the references and counters go to the new folio, and the data with
 * them; a folio someone else holds (here, a lookup's reference) stays. */
static void migrate_file_folio(struct kunit *test, const char *name, int huge)
{
	unsigned long moved, file_pages, file_mapped, nr, old_pfn;
	struct mm_struct *child;
	struct address_space *mapping;
	struct folio *src, *dst;
	struct file *file;
	char c = 0;

	file = map_new_file(test, name, 16, huge);
	if (!file)
		return;
	mapping = file->f_inode->i_mapping;
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 2 * P, 1), 0);
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_EXPECT_EQ(test, dup_mmap(child, t.mm), 0);
	switch_mm(child);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 2 * P, 1), 0);
	switch_mm(t.mm);
	src = filemap_get_folio(mapping, 2);
	KUNIT_ASSERT_NOT_NULL(test, src);
	nr = folio_nr_pages(src);
	old_pfn = folio_pfn(src);
	KUNIT_EXPECT_TRUE(test, huge == SHMEM_HUGE_NEVER ? nr == 1 : nr == 16);
	KUNIT_EXPECT_TRUE(test, folio_test_lru(src));
	KUNIT_EXPECT_EQ(test, folio_mapcount(src), (int)(2 * nr));
	file_pages = NODE_DATA(0)->nr_file_pages;
	file_mapped = NODE_DATA(0)->nr_file_mapped;
	/* The lookup's reference pins it. */
	KUNIT_EXPECT_EQ(test, migrate_one(src, &moved), 1);
	KUNIT_EXPECT_EQ(test, moved, 0);
	KUNIT_EXPECT_TRUE(test, xa_load(&mapping->i_pages, 2) == src);
	folio_put(src);
	KUNIT_EXPECT_EQ(test, folio_ref_count(src), (int)nr + 1);
	KUNIT_EXPECT_EQ(test, migrate_one(src, &moved), 0);
	KUNIT_EXPECT_EQ(test, moved, nr);
	dst = xa_load(&mapping->i_pages, 2);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	KUNIT_EXPECT_NE(test, folio_pfn(dst), old_pfn);
	KUNIT_EXPECT_EQ(test, folio_nr_pages(dst), nr);
	KUNIT_EXPECT_TRUE(test, dst->page.mapping == mapping && folio_test_lru(dst));
	KUNIT_EXPECT_EQ(test, folio_ref_count(dst), (int)nr + 1);
	KUNIT_EXPECT_EQ(test, folio_mapcount(dst), (int)(2 * nr));
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(t.mm, A + 2 * P) == dst);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A + 2 * P) == dst);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, file_pages);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_mapped, file_mapped);
	/* The data moved, and the mappings and the cache share it still. */
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 2 * P + 7, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'c');
	switch_mm(child);
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 2 * P + 7, "Z", 1), 0);
	switch_mm(t.mm);
	KUNIT_EXPECT_EQ(test, file_byte(file, 2 * P + 7), 'Z');
	mm_destroy(child);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 16 * P), 0);
	/* Unmapped: the cache's references alone. */
	src = xa_load(&mapping->i_pages, 2);
	KUNIT_ASSERT_NOT_NULL(test, src);
	KUNIT_EXPECT_EQ(test, folio_ref_count(src), (int)nr);
	KUNIT_EXPECT_EQ(test, migrate_one(src, &moved), 0);
	dst = xa_load(&mapping->i_pages, 2);
	KUNIT_EXPECT_TRUE(test, dst && dst != src && folio_ref_count(dst) == (int)nr);
	KUNIT_EXPECT_EQ(test, file_byte(file, 2 * P + 7), 'Z');
	KUNIT_EXPECT_EQ(test, file_byte(file, 2 * P + 8), 'c');
	fput(file);
}

static void page_cache_folios_migrate_with_their_mappings(struct kunit *test)
{
	migrate_file_folio(test, "/m", SHMEM_HUGE_NEVER);
	if (CONFIG_TRANSPARENT_HUGEPAGE)
		migrate_file_folio(test, "/m64k", SHMEM_HUGE_ALWAYS);
}

/* After a migration of the 8-page file made by make_file and mapped at
 * A: every page moved, its PTE maps the folio the cache holds and reads
 * the file's bytes, and a write through the mapping lands in the file. */
static void expect_file_moved(struct kunit *test, struct file *file, const unsigned long *old_pfn)
{
	char c = 0;

	for (unsigned long i = 0; i < 8; i++) {
		struct folio *folio = xa_load(&file->f_inode->i_mapping->i_pages, i);

		KUNIT_EXPECT_NE(test, pte_pfn(pte_at(A + i * P)), old_pfn[i]);
		KUNIT_EXPECT_TRUE(test, folio && pte_pfn(pte_at(A + i * P)) == folio_pfn(folio));
		KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + i * P + 9, 1), 0);
		KUNIT_EXPECT_EQ(test, c, 'a' + (char)i);
	}
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 5 * P, "W", 1), 0);
	KUNIT_EXPECT_EQ(test, file_byte(file, 5 * P), 'W');
}

/* Return: the first in-use pfn of [pfn, end) that is no folio migration
 * takes (off every LRU list, held by someone besides its owners, or
 * locked), or 0. */
static unsigned long unmovable_pfn(unsigned long pfn, unsigned long end)
{
	while (pfn < end) {
		unsigned long span = pfn_free_span(pfn);
		struct folio *folio;

		if (span) {
			pfn += span;
			continue;
		}
		folio = page_folio(pfn_to_page(pfn));
		if (!folio_test_lru(folio) || folio_test_locked(folio) ||
		    folio_ref_count(folio) != folio_expected_ref_count(folio))
			return pfn;
		pfn = folio_pfn(folio) + folio_nr_pages(folio);
	}
	return 0;
}

/* alloc_contig_range (CMA's and gigantic HugeTLB's path) over the
 * pageblock a mapped file's folios are in moves them out, as it moves
 * anonymous ones: the mapping and a read see the same bytes at their new
 * pfns, outside the range. */
static void alloc_contig_range_moves_page_cache_folios(struct kunit *test)
{
	migrate_folio_fn saved = set_migrate_folio_hook(move_to_new_folio);
	unsigned long old_pfn[8], taken[8], pfn;
	unsigned int nr_taken = 0;
	struct file *file;
	char c = 0;

	if (!t.mm || !fs.root)
		goto out;
	file = make_file(test, "/c", 8, SHMEM_HUGE_NEVER);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 8 * P, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A, 1), 0); /* fault-around maps all 8 */
	for (unsigned long i = 0; i < 8; i++)
		old_pfn[i] = pte_pfn(pte_at(A + i * P));
	/* Each pageblock a page is in (the pages may lie in more than one),
	 * once, each held until the end so no page moves back into one. */
	for (unsigned long i = 0; i < 8; i++) {
		unsigned long start = pageblock_start_pfn(old_pfn[i]);
		int err;

		if (pte_pfn(pte_at(A + i * P)) != old_pfn[i])
			continue; /* its pageblock was taken already */
		err = alloc_contig_range(start, start + pageblock_nr_pages, GFP_KERNEL);
		if (err == -EBUSY && (pfn = unmovable_pfn(start, start + pageblock_nr_pages))) {
			/* The machine's node (in the kernel): a pageblock may
			 * hold what no one can move, not this test's subject. */
			struct folio *f = page_folio(pfn_to_page(pfn));
			static char why[96];

			ksnprintf(why, sizeof(why),
				  "pfn %#lx in the pageblock cannot move (%s, %d refs)", pfn,
				  folio_test_lru(f) ? "on an LRU list" : "on no LRU list",
				  folio_ref_count(f));
			kunit_mark_skipped(test, why);
			goto release;
		}
		KUNIT_EXPECT_EQ(test, err, 0);
		if (!err)
			taken[nr_taken++] = start;
	}
	for (unsigned long i = 0; i < 8; i++)
		for (unsigned int r = 0; r < nr_taken; r++)
			KUNIT_EXPECT_NE(test, pageblock_start_pfn(pte_pfn(pte_at(A + i * P))),
					taken[r]);
	expect_file_moved(test, file, old_pfn);
release:
	while (nr_taken)
		free_contig_range(taken[--nr_taken], pageblock_nr_pages);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	fput(file);
out:
	set_migrate_folio_hook(saved);
}

/* A full compaction of the node moves a mapped file's folios up from
 * the bottom, as it moves anonymous ones: the mapping and a read see the
 * same bytes at the new pfns. A hog takes the node in half pageblocks,
 * gives the lowest back for the file, and frees the upper half of every
 * other pageblock while compaction runs (a whole free pageblock is no
 * target: Linux's suitable_migration_target). Host only: the kernel's
 * node is the machine's, its layout not the test's to arrange. */
static void compaction_moves_mapped_page_cache_folios(struct kunit *test)
{
	migrate_folio_fn saved = set_migrate_folio_hook(move_to_new_folio);
	const unsigned int half = pageblock_order - 1;
	unsigned long old_pfn[8];
	struct compact_stats st = { 0 };
	struct page *hog[40], *lowest = NULL, *page, *next;
	unsigned int nr_hog = 0;
	struct list_head crumbs = LIST_HEAD_INIT(crumbs);
	struct file *file;
	char c = 0;

#ifndef FOLIUM_HOST
	kunit_mark_skipped(test, "the machine's node");
	goto out;
#endif
	if (!t.mm || !fs.root)
		goto out;
	if (NODE_DATA(0)->node_spanned_pages < 4 * pageblock_nr_pages) {
		kunit_mark_skipped(test, "fewer than four pageblocks: no room for the layout");
		goto out;
	}
	while (nr_hog < ARRAY_SIZE(hog) &&
	       (hog[nr_hog] = alloc_pages(GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, half)))
		nr_hog++;
	KUNIT_ASSERT_GE(test, nr_hog, 4);
	/* and the crumbs, reserves too, so the file can only land in the
	 * half pageblock the hog gives back */
	while ((page = alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 0)))
		list_add(&page->lru, &crumbs);
	for (unsigned int i = 0; i < nr_hog; i++)
		if (!lowest || page_to_pfn(hog[i]) < page_to_pfn(lowest))
			lowest = hog[i];
	__free_pages(lowest, half);
	file = make_file(test, "/c", 8, SHMEM_HUGE_NEVER);
	list_for_each_entry_safe(page, next, &crumbs, lru) {
		list_del(&page->lru);
		__free_pages(page, 0);
	}
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 8 * P, SHARED_RW, file, 0), A);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A, 1), 0); /* fault-around maps all 8 */
	for (unsigned long i = 0; i < 8; i++)
		old_pfn[i] = pte_pfn(pte_at(A + i * P));
	for (unsigned int i = 0; i < nr_hog; i++)
		if (hog[i] != lowest && page_to_pfn(hog[i]) & (1ul << half)) {
			__free_pages(hog[i], half);
			hog[i] = NULL;
		}
	compact_node(NODE_DATA(0), &st);
	for (unsigned int i = 0; i < nr_hog; i++)
		if (hog[i] && hog[i] != lowest)
			__free_pages(hog[i], half);
	KUNIT_EXPECT_GE(test, st.migrated, 8);
	for (unsigned long i = 0; i < 8; i++)
		KUNIT_EXPECT_GT(test, pte_pfn(pte_at(A + i * P)), old_pfn[i]);
	expect_file_moved(test, file, old_pfn);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	fput(file);
out:
	set_migrate_folio_hook(saved);
}

/* MADV_REMOVE punches a hole in the file under a shared writable
 * mapping (Linux: madvise_remove, vfs_fallocate): the range is unmapped
 * and its pages freed, the size stays; a private mapping is -EACCES. */
static void madv_remove_punches_a_hole_under_a_shared_mapping(struct kunit *test)
{
	struct file *file;
	char c = 1;

	file = map_new_file(test, "/r", 4, SHMEM_HUGE_NEVER);
	if (!file)
		return;
	KUNIT_ASSERT_EQ(
		test,
		vm_mmap_file(t.mm, A + 8 * P, 4 * P, VM_READ | VM_WRITE | VM_MAYWRITE, file, 0),
		A + 8 * P);
	for (unsigned long i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + i * P, FAULT_FLAG_WRITE),
				VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, 2 * P, MADV_REMOVE), 0);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A + P)) && pte_none(pte_at(A + 2 * P)));
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A)) && pte_present(pte_at(A + 3 * P)));
	KUNIT_EXPECT_EQ(test, file->f_inode->i_mapping->nrpages, 2);
	KUNIT_EXPECT_EQ(test, file->f_inode->size, 4 * P);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 2);
	KUNIT_EXPECT_EQ(test, file_byte(file, P + 5), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 2 * P + 5, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 0);
	KUNIT_EXPECT_EQ(test, file_byte(file, 3 * P), 'd');
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + 8 * P, P, MADV_REMOVE), -EACCES);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 12 * P), 0);
	fput(file);
}

static void private_write_copies_and_hole_keeps_the_copy(struct kunit *test)
{
	struct mm_struct *child;
	struct folio *cache;
	struct file *file;
	char c = 0;

	if (!t.mm || !fs.root)
		return;
	file = make_file(test, "/p", 4, SHMEM_HUGE_NEVER);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 4 * P, VM_READ | VM_WRITE, file, 0), A);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_OK);
	cache = test_mapped_folio(t.mm, A + P);
	KUNIT_ASSERT_NOT_NULL(test, cache);
	KUNIT_EXPECT_FALSE(test, folio_test_anon(cache));
	KUNIT_EXPECT_FALSE(test, pte_write(pte_at(A + P))); /* a write must copy */
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 4);
	/* A write to a mapped file page copies it (wp_page_copy)... */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + P, "W", 1), 0);
	KUNIT_EXPECT_TRUE(test, folio_test_anon(test_mapped_folio(t.mm, A + P)));
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_SHMEMPAGES], 3);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 1);
	KUNIT_EXPECT_EQ(test, file_byte(file, P), 'b');
	KUNIT_EXPECT_EQ(test, folio_mapcount(cache), 0);
	/* ...and so does one to a page never mapped (do_cow_fault). */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 3 * P, P), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + 3 * P, P, VM_READ | VM_WRITE, file, 3),
			A + 3 * P);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 3 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_TRUE(test, folio_test_anon(test_mapped_folio(t.mm, A + 3 * P)));
	KUNIT_EXPECT_EQ(test, copy_from_user(&c, A + 3 * P, 1), 0);
	KUNIT_EXPECT_EQ(test, c, 'd');
	/* fork copies the entries: the file's page read-only in both. */
	child = mm_create(t.node->node_id);
	KUNIT_ASSERT_NOT_NULL(test, child);
	KUNIT_EXPECT_EQ(test, dup_mmap(child, t.mm), 0);
	KUNIT_EXPECT_TRUE(test, test_mapped_folio(child, A + 2 * P) ==
					test_mapped_folio(t.mm, A + 2 * P));
	KUNIT_EXPECT_EQ(test, child->counters[MM_SHMEMPAGES], 2);
	mm_destroy(child);
	/* A hole keeps the copies, its file pages go; truncate takes all. */
	KUNIT_EXPECT_EQ(test,
			ramfs_fallocate(file->f_inode, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					0, 2 * P),
			0);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A)));
	KUNIT_EXPECT_TRUE(test, pte_present(pte_at(A + P)));
	ramfs_setsize(file->f_inode, P);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A + P)) && pte_none(pte_at(A + 3 * P)));
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + P, 0), VM_FAULT_SIGBUS);
	KUNIT_EXPECT_EQ(test, t.mm->counters[MM_ANONPAGES], 0);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 4 * P), 0);
	fput(file);
}

/* hugepages-64kB/shmem_enabled "always": a write fault in shared
 * anonymous memory makes a 64 KiB folio and maps all of it at once. */
/* get_user_page (the futex key's lookup): the page the access would
 * use, faulting it in: through a shared mapping and a read-only private
 * one the cache's page; a write through a writable private mapping makes
 * the process's copy; a write through a read-only one and an address
 * without a VMA find nothing. */
static void get_user_page_finds_the_page_an_access_uses(struct kunit *test)
{
	struct file *file = map_new_file(test, "/g", 2, SHMEM_HUGE_NEVER);
	struct page *page, *copy;

	if (!file)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + 16 * P, 2 * P, VM_READ, file, 0), A + 16 * P);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A + 32 * P, 2 * P, VM_READ | VM_WRITE, file, 0),
			A + 32 * P);
	KUNIT_EXPECT_NULL(test, follow_page(t.mm, A + P, false)); /* not faulted yet */
	page = get_user_page(t.mm, A + P, true);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_EXPECT_TRUE(test, folio_file_mapping(page_folio(page)) == file->f_inode->i_mapping);
	KUNIT_EXPECT_EQ(test, page_folio(page)->page.index, 1);
	KUNIT_EXPECT_TRUE(test, follow_page(t.mm, A + P, true) == page);
	KUNIT_EXPECT_TRUE(test, get_user_page(t.mm, A + 17 * P, false) == page);
	KUNIT_EXPECT_NULL(test, get_user_page(t.mm, A + 17 * P, true));
	copy = get_user_page(t.mm, A + 33 * P, true);
	KUNIT_ASSERT_NOT_NULL(test, copy);
	KUNIT_EXPECT_TRUE(test, folio_test_anon(page_folio(copy)));
	KUNIT_EXPECT_EQ(test, *(char *)page_address(copy), 'b');
	KUNIT_EXPECT_NULL(test, get_user_page(t.mm, A + 64 * P, false));
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 64 * P), 0);
	fput(file);
}

static void shmem_enabled_gives_shared_anonymous_memory_large_folios(struct kunit *test)
{
	unsigned long saved = huge_shmem_orders_always;
	struct folio *folio;
	struct file *file;

	if (!t.mm || !fs.root || test_skip_without_thp(test))
		return;
	shmem_set_order_mode(4, SHMEM_HUGE_ALWAYS);
	file = shmem_zero_setup(32 * P, 0);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_ASSERT_EQ(test, file->f_op->mmap == NULL, false);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 32 * P, SHARED_RW, file, 0), A);
	fput(file);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 17 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	folio = test_mapped_folio(t.mm, A + 16 * P);
	KUNIT_ASSERT_NOT_NULL(test, folio);
	KUNIT_EXPECT_EQ(test, folio_order(folio), 4);
	KUNIT_EXPECT_EQ(test, folio_mapcount(folio), 16);
	KUNIT_EXPECT_TRUE(test, pte_none(pte_at(A + 15 * P)) && pte_present(pte_at(A + 31 * P)));
	huge_shmem_orders_always = saved;
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 32 * P), 0);
}

/* Shared anonymous memory goes with its mapping, and with it the
 * Committed_AS charge of its whole size taken when it was made. */
static void shared_anonymous_memory_goes_with_its_mapping(struct kunit *test)
{
	unsigned long committed = vm_memory_committed();
	struct file *file;
	unsigned long before;

	if (!t.mm || !fs.root)
		return;
	before = NODE_DATA(0)->nr_file_pages;
	file = shmem_zero_setup(8 * P, 0);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 8);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 8 * P, SHARED_RW, file, 0), A);
	fput(file); /* the VMA holds it now, as sys_mmap leaves it */
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 7 * P, "x", 1), 0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, before + 1);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 8); /* no page charged again */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, NODE_DATA(0)->nr_file_pages, before);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
}

/* Linux's shmem accounting: a tmpfs file (VM_NORESERVE, as every tmpfs
 * file and memfd is) charges Committed_AS a page at a time as its cache
 * gets pages and gives them back as they go (shmem_acct_blocks); shared
 * anonymous memory with MAP_NORESERVE is charged that way too, instead
 * of its whole size (shmem_acct_size). */
static void shmem_pages_are_charged_to_committed_as(struct kunit *test)
{
	unsigned long committed = vm_memory_committed();
	struct file *file;

	if (!t.mm || !fs.root)
		return;
	file = make_file(test, "/a", 4, SHMEM_HUGE_NEVER);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 4);
	KUNIT_EXPECT_EQ(
		test,
		ramfs_fallocate(file->f_inode, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, P, P),
		0);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 3);
	ramfs_setsize(file->f_inode, 0);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
	fput(file);
	file = shmem_zero_setup(8 * P, VM_NORESERVE);
	KUNIT_ASSERT_NOT_NULL(test, file);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
	KUNIT_ASSERT_EQ(test, vm_mmap_file(t.mm, A, 8 * P, SHARED_RW | VM_NORESERVE, file, 0), A);
	fput(file);
	KUNIT_EXPECT_EQ(test, copy_to_user(A + 2 * P, "x", 1), 0);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed + 1);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
}

static struct kunit_case shmem_map_test_cases[] = {
	KUNIT_CASE(shared_write_lands_in_the_page_cache),
	KUNIT_CASE(write_fault_maps_a_whole_folio),
	KUNIT_CASE(read_fault_maps_the_window_around),
	KUNIT_CASE(past_the_end_is_sigbus_and_truncate_unmaps),
	KUNIT_CASE(truncate_splits_a_large_folio_it_cuts),
	KUNIT_CASE(tmpfs_pages_stop_at_the_commit_room_in_mode_2),
	KUNIT_CASE(fork_shares_the_pages),
	KUNIT_CASE(a_pmd_sized_folio_is_mapped_by_a_pmd_leaf),
	KUNIT_CASE(a_file_pmd_leaf_goes_where_a_change_cuts_it),
	KUNIT_CASE(a_file_pmd_leaf_needs_thp_and_alignment),
	KUNIT_CASE(private_write_copies_and_hole_keeps_the_copy),
	KUNIT_CASE(page_cache_folios_migrate_with_their_mappings),
	KUNIT_CASE(alloc_contig_range_moves_page_cache_folios),
	KUNIT_CASE(compaction_moves_mapped_page_cache_folios),
	KUNIT_CASE(madv_remove_punches_a_hole_under_a_shared_mapping),
	KUNIT_CASE(get_user_page_finds_the_page_an_access_uses),
	KUNIT_CASE(shmem_enabled_gives_shared_anonymous_memory_large_folios),
	KUNIT_CASE(shared_anonymous_memory_goes_with_its_mapping),
	KUNIT_CASE(shmem_pages_are_charged_to_committed_as),
	{}
};

static struct kunit_suite shmem_map_test_suite = {
	.name = "shmem_map",
	.init = shmem_map_test_init,
	.exit = shmem_map_test_exit,
	.test_cases = shmem_map_test_cases,
};
kunit_test_suite(shmem_map_test_suite);
