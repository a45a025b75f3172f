/*
 * mlock on a private node, through the system call entries (sys_mlock,
 * sys_mlock2, sys_munlock, sys_mlockall, sys_munlockall) as a program's
 * call reaches them: populate, ONFAULT, munlock splitting and merging
 * VMAs, MCL_FUTURE, the unevictable LRU that reclaim never scans,
 * MADV_FREE refused, Linux's counters and errors, RLIMIT_MEMLOCK for a
 * task without CAP_IPC_LOCK. Example: mlock of 8 written pages: 8
 * folios PG_mlocked on lru_unevictable, unevictable_pgs_mlocked +8.
 */
#include <binfmt_elf.h>
#include <ktest.h>
#include <resource.h>
#include <syscalls.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define RW (VM_READ | VM_WRITE)

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct task_struct *task;
static unsigned long saved_orders;

static int mlock_test_init(struct kunit *test)
{
	saved_orders = thp_orders_enabled;
	thp_set_orders(0);
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	task = test_task(t.mm);
	return 0;
}

static void mlock_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	if (t.node)
		KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	test_mm_destroy(test, &t);
	thp_orders_enabled = saved_orders;
}

static long mlock(unsigned long start, unsigned long len)
{
	const unsigned long args[6] = { start, len };

	return sys_mlock(task, args);
}

static long mlock2(unsigned long start, unsigned long len, unsigned long flags)
{
	const unsigned long args[6] = { start, len, flags };

	return sys_mlock2(task, args);
}

static long munlock(unsigned long start, unsigned long len)
{
	const unsigned long args[6] = { start, len };

	return sys_munlock(task, args);
}

static long mlockall(unsigned long flags)
{
	const unsigned long args[6] = { flags };

	return sys_mlockall(task, args);
}

static long munlockall(void)
{
	const unsigned long args[6] = { 0 };

	return sys_munlockall(task, args);
}

/* How many of the n pages from addr are mapped by an mlocked folio on
 * lru_unevictable. */
static unsigned long mlocked_pages(unsigned long addr, unsigned long n)
{
	unsigned long locked = 0;

	for (unsigned long i = 0; i < n; i++) {
		struct folio *folio = test_mapped_folio(t.mm, addr + i * P);

		locked += folio && folio_test_mlocked(folio) && folio_test_unevictable(folio) &&
			  folio_test_lru(folio);
	}
	return locked;
}

static unsigned long event(enum vm_event_item item)
{
	return t.node->vm_events[item];
}

static void mlock_faults_in_and_mlocks_every_page(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, fill_user(A + 2 * P, 7, 1), 0); /* one page before */
	KUNIT_ASSERT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW | VM_LOCKED);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 8), 8);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 8);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_unevictable, 8);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 0);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGMLOCKED), 8);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGCULLED), 8);
	KUNIT_EXPECT_EQ(test, mm_locked_vm(t.mm), 8);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A + 2 * P, 1, 7));
	/* Locking again, with or without ONFAULT, mlocks no folio twice:
	 * one munlock still returns it. */
	KUNIT_ASSERT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_ASSERT_EQ(test, mlock2(A, 8 * P, MLOCK_ONFAULT), 0);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGMLOCKED), 8);
	KUNIT_EXPECT_EQ(test, test_mapped_folio(t.mm, A)->page.private, 1);
	KUNIT_ASSERT_EQ(test, munlock(A, 8 * P), 0);
}

static void a_read_only_vma_is_populated_with_the_zero_page(struct kunit *test)
{
	pte_t *pte;

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * P, VM_READ, 0), A);
	KUNIT_ASSERT_EQ(test, mlock(A, 2 * P), 0);
	pte = mm_find_pte(t.mm, A + P);
	KUNIT_ASSERT_NOT_NULL(test, pte);
	KUNIT_EXPECT_TRUE(test, pte_present(*pte) && is_zero_pfn(pte_pfn(*pte)));
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	KUNIT_ASSERT_EQ(test, munlock(A, 2 * P), 0);
}

static void mlock2_onfault_locks_pages_as_they_fault_in(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mlock2(A, 8 * P, MLOCK_ONFAULT), 0);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY,
			RW | VM_LOCKED | VM_LOCKONFAULT);
	KUNIT_EXPECT_NULL(test, test_mapped_folio(t.mm, A));
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	KUNIT_ASSERT_EQ(test, fill_user(A + 3 * P, 1, 1), 0);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 8), 1);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 1);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGMLOCKED), 1);
	KUNIT_ASSERT_EQ(test, munlock(A, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW);
}

static void munlock_rescues_folios_and_splits_then_merges_the_vma(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_ASSERT_EQ(test, munlock(A + 3 * P, 2 * P), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 3);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 3 * P)->vm_flags & ~VM_SOFTDIRTY, RW);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 5 * P)->vm_flags & ~VM_SOFTDIRTY, RW | VM_LOCKED);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 8), 6);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_anon, 2);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 6);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGMUNLOCKED), 2);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGRESCUED), 2);
	/* An unaligned start is rounded down, the length up from it. */
	KUNIT_ASSERT_EQ(test, munlock(A + 10, 8 * P - 10), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 1);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_unevictable, 0);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGRESCUED), 8);
}

static void mlockall_future_locks_a_later_mapping(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mlockall(MCL_CURRENT | MCL_FUTURE), 0);
	KUNIT_EXPECT_EQ(test, t.mm->def_flags, VM_LOCKED);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 2), 2); /* MCL_CURRENT populated it */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 4 * P, 4 * P, RW, 0), A + 4 * P);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 4 * P)->vm_flags & ~VM_SOFTDIRTY, RW | VM_LOCKED);
	KUNIT_ASSERT_EQ(test, __mm_populate(t.mm, A + 4 * P, 4 * P, true), 0); /* as mmap does */
	KUNIT_EXPECT_EQ(test, mlocked_pages(A + 4 * P, 4), 4);
	KUNIT_ASSERT_EQ(test, munlockall(), 0);
	KUNIT_EXPECT_EQ(test, t.mm->def_flags, 0);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 4 * P)->vm_flags & ~VM_SOFTDIRTY, RW);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	/* MCL_FUTURE alone changes no existing VMA; ONFAULT rides along. */
	KUNIT_ASSERT_EQ(test, mlockall(MCL_FUTURE | MCL_ONFAULT), 0);
	KUNIT_EXPECT_EQ(test, t.mm->def_flags, VM_LOCKED | VM_LOCKONFAULT);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW);
	KUNIT_ASSERT_EQ(test, munlockall(), 0);
}

static void reclaim_never_takes_mlocked_folios(struct kunit *test)
{
	if (!t.mm)
		return;
	test_map_and_fill(test, t.mm, A, 4 * P, 0x5a);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A, 4 * P, MADV_FREE), 0);
	KUNIT_ASSERT_EQ(test, t.node->nr_lru_lazyfree, 4);
	KUNIT_ASSERT_EQ(test, mlock(A, 4 * P), 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_unevictable, 4);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 1024), 0);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * P, 0x5a));
	/* Unlocked, the still lazyfree folios go back to lru_lazyfree. */
	KUNIT_ASSERT_EQ(test, munlock(A, 4 * P), 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 4);
}

/* A large folio only partly inside the locked range stays evictable
 * (Linux 6.x: folio_within_range), until reclaim finds it mapped in the
 * VM_LOCKED VMA and culls it instead of freeing it. */
static void a_partly_locked_large_folio_is_culled_by_reclaim(struct kunit *test)
{
	struct folio *folio;

	if (!t.mm || test_skip_without_thp(test))
		return;
	thp_set_orders(1ul << 4);
	test_map_and_fill(test, t.mm, A, 16 * P, 0x33);
	folio = test_mapped_folio(t.mm, A);
	KUNIT_ASSERT_EQ(test, folio_order(folio), 4);
	KUNIT_ASSERT_EQ(test, do_madvise(t.mm, A, 16 * P, MADV_FREE), 0);
	KUNIT_ASSERT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(folio));
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 1024), 0);
	KUNIT_EXPECT_TRUE(test, folio_test_mlocked(folio) && folio_test_unevictable(folio));
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGCULLED), 16);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 16 * P, 0x33));
	/* A folio the range maps whole is mlocked. */
	KUNIT_ASSERT_EQ(test, munlock(A, 16 * P), 0);
	KUNIT_EXPECT_FALSE(test, folio_test_mlocked(folio));
	KUNIT_ASSERT_EQ(test, mlock(A, 16 * P), 0);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 16), 16);
	KUNIT_ASSERT_EQ(test, munlock(A, 16 * P), 0);
}

static void madvise_free_and_dontneed_of_a_locked_range_are_einval(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mlock(A, 4 * P), 0);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A, 4 * P, MADV_FREE), -EINVAL);
	KUNIT_EXPECT_EQ(test, do_madvise(t.mm, A + P, P, MADV_DONTNEED), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlocked_pages(A, 4), 4);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 0);
	KUNIT_ASSERT_EQ(test, munlock(A, 4 * P), 0);
}

static void munmap_unlocks_and_gives_every_page_back(struct kunit *test)
{
	unsigned long free0, munlocked0;

	if (!t.mm)
		return;
	free0 = node_free_pages(t.node);
	munlocked0 = event(UNEVICTABLE_PGMUNLOCKED);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 8 * P), 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_unevictable, 0);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGMUNLOCKED) - munlocked0, 8);
	KUNIT_EXPECT_EQ(test, event(UNEVICTABLE_PGCLEARED), 0);
	drain_node_pages(t.node);
	KUNIT_EXPECT_EQ(test, node_free_pages(t.node), free0);
	KUNIT_EXPECT_BUDDY_OK(test, t.node);
}

/* Linux's errors: flags, holes (after the part before them is done),
 * PROT_NONE, overflow, and a zero length. */
static void mlock_errors_are_linux_errnos(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 2 * P, RW, 0), A);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 4 * P, P, 0, 0), A + 4 * P);
	KUNIT_EXPECT_EQ(test, mlock2(A, P, 2), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlockall(0), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlockall(MCL_ONFAULT), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlockall(8), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlock(A - P, 2 * P), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY,
			RW); /* start in no VMA: nothing */
	KUNIT_EXPECT_EQ(test, mlock(A, 0), 0);
	KUNIT_EXPECT_EQ(test, mlock(~0ul - P, 4 * P), -EINVAL);
	KUNIT_EXPECT_EQ(test, mlock(A + 4 * P, P), -ENOMEM); /* PROT_NONE */
	KUNIT_EXPECT_EQ(test, munlock(A + 4 * P, P), 0);
	KUNIT_EXPECT_EQ(test, mlock(A, 3 * P), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY,
			RW | VM_LOCKED); /* as Linux */
	KUNIT_EXPECT_EQ(test, munlock(A, 3 * P), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A)->vm_flags & ~VM_SOFTDIRTY, RW);
}

/* A task without CAP_IPC_LOCK is held to RLIMIT_MEMLOCK (Linux:
 * can_do_mlock, do_mlock, sys_mlockall, mlock_future_ok); root is not. */
static void rlimit_memlock_binds_a_task_without_cap_ipc_lock(struct kunit *test)
{
	const struct rlimit64 four_pages = { 4 * P, 4 * P }, none = { 0, 0 };

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 8 * P, RW, 0), A);
	task->signal->rlim[RLIMIT_MEMLOCK] = four_pages;
	task->cred.cap_effective &= ~(1ull << CAP_IPC_LOCK);
	KUNIT_EXPECT_EQ(test, mlock(A, 8 * P), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mlock(A, 4 * P), 0);
	KUNIT_EXPECT_EQ(test, mlock(A, 4 * P), 0); /* already locked: not counted twice */
	KUNIT_EXPECT_EQ(test, mlock(A + 4 * P, P), -ENOMEM);
	KUNIT_EXPECT_FALSE(test, mlock_future_ok(task, VM_LOCKED, P));
	KUNIT_EXPECT_TRUE(test, mlock_future_ok(task, 0, P));
	KUNIT_EXPECT_EQ(test, mlockall(MCL_CURRENT), -ENOMEM);
	KUNIT_EXPECT_EQ(test, mlockall(MCL_FUTURE), 0);
	KUNIT_ASSERT_EQ(test, munlockall(), 0);
	task->cred.cap_effective = CAP_FULL_SET;
	KUNIT_EXPECT_EQ(test, mlock(A, 8 * P), 0);
	KUNIT_EXPECT_TRUE(test, mlock_future_ok(task, VM_LOCKED, P));
	KUNIT_ASSERT_EQ(test, munlock(A, 8 * P), 0);
	task->signal->rlim[RLIMIT_MEMLOCK] = none;
	task->cred.cap_effective = 0;
	KUNIT_EXPECT_EQ(test, mlock(A, P), -EPERM);
	KUNIT_EXPECT_EQ(test, mlockall(MCL_FUTURE), -EPERM);
	KUNIT_EXPECT_EQ(test, munlock(A, P), 0);
}

/*
 * MAP_DROPPABLE memory (Linux 6.11): its folios are never swapbacked, so
 * they sit on lru_lazyfree from the first fault; mlock faults the range in
 * but sets no VM_LOCKED (vma_supports_mlock), nor does mlockall's
 * MCL_FUTURE on a later droppable mapping; reclaim drops the folios even
 * though they are dirty, and a fault that finds no memory is retried
 * (VM_FAULT_OK with nothing mapped) instead of being fatal.
 */
static void droppable_memory_is_never_locked_and_reclaim_drops_it_dirty(struct kunit *test)
{
	static struct page *filled[4 * MAX_ORDER_NR_PAGES];
	const unsigned long droppable = RW | VM_DROPPABLE | VM_NORESERVE;
	unsigned long n;

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, 4 * P, droppable, 0), A);
	KUNIT_ASSERT_EQ(test, fill_user(A, 0x5a, 4 * P), 0);
	KUNIT_EXPECT_FALSE(test, folio_test_swapbacked(test_mapped_folio(t.mm, A)));
	KUNIT_EXPECT_EQ(test, t.node->nr_lru_lazyfree, 4);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 8 * P, 2 * P, droppable, 0), A + 8 * P);
	KUNIT_EXPECT_EQ(test, mlock(A + 8 * P, 2 * P), 0);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A + 8 * P)->vm_flags & VM_LOCKED_MASK);
	KUNIT_EXPECT_NOT_NULL(test,
			      test_mapped_folio(t.mm, A + 9 * P)); /* populated all the same */
	KUNIT_EXPECT_EQ(test, t.node->nr_mlock, 0);
	KUNIT_EXPECT_EQ(test, mm_locked_vm(t.mm), 0);
	/* mprotect keeps it droppable (a flag of the mapping, not of prot). */
	KUNIT_ASSERT_EQ(test, vm_mprotect(t.mm, A + 9 * P, P, VM_READ), 0);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, A + 9 * P)->vm_flags & VM_DROPPABLE);
	KUNIT_ASSERT_EQ(test, mlockall(MCL_CURRENT | MCL_FUTURE), 0);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 12 * P, 2 * P, droppable, 0), A + 12 * P);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A + 12 * P)->vm_flags & VM_LOCKED_MASK);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A)->vm_flags & VM_LOCKED_MASK);
	KUNIT_ASSERT_EQ(test, munlockall(), 0);
	/* Written, so dirty; dropped anyway once old (the first pass takes
	 * the young bits: a second chance), and reads zeros after. */
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 1024), 0);
	KUNIT_EXPECT_EQ(test, reclaim_lazyfree(t.node, 1024), 6);
	KUNIT_EXPECT_EQ(test, event(PGLAZYFREED), 6);
	KUNIT_EXPECT_TRUE(test, test_reads_as(A, 4 * P, 0));
	KUNIT_ASSERT_EQ(test, vm_munmap(t.mm, A, 16 * P), 0);
	/* No memory: a droppable fault maps nothing and is retried. */
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A, P, droppable, 0), A);
	KUNIT_ASSERT_EQ(test, vm_mmap(t.mm, A + 2 * P, P, RW, 0), A + 2 * P);
	for (n = 0; n < ARRAY_SIZE(filled) &&
		    (filled[n] = alloc_pages_node(t.node->node_id,
						  GFP_HIGHUSER_MOVABLE | __GFP_NOWARN, 0));
	     n++)
		;
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_NULL(test, test_mapped_folio(t.mm, A));
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 2 * P, FAULT_FLAG_WRITE), VM_FAULT_OOM);
	test_free_filled(filled, n);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_NOT_NULL(test, test_mapped_folio(t.mm, A));
}

static struct kunit_case mlock_test_cases[] = {
	KUNIT_CASE(mlock_faults_in_and_mlocks_every_page),
	KUNIT_CASE(a_read_only_vma_is_populated_with_the_zero_page),
	KUNIT_CASE(mlock2_onfault_locks_pages_as_they_fault_in),
	KUNIT_CASE(munlock_rescues_folios_and_splits_then_merges_the_vma),
	KUNIT_CASE(mlockall_future_locks_a_later_mapping),
	KUNIT_CASE(reclaim_never_takes_mlocked_folios),
	KUNIT_CASE(a_partly_locked_large_folio_is_culled_by_reclaim),
	KUNIT_CASE(madvise_free_and_dontneed_of_a_locked_range_are_einval),
	KUNIT_CASE(munmap_unlocks_and_gives_every_page_back),
	KUNIT_CASE(mlock_errors_are_linux_errnos),
	KUNIT_CASE(rlimit_memlock_binds_a_task_without_cap_ipc_lock),
	KUNIT_CASE(droppable_memory_is_never_locked_and_reclaim_drops_it_dirty),
	{},
};

static struct kunit_suite mlock_test_suite = {
	.name = "mlock",
	.init = mlock_test_init,
	.exit = mlock_test_exit,
	.test_cases = mlock_test_cases,
};
kunit_test_suite(mlock_test_suite);
