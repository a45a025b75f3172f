/*
 * Overcommit accounting on a private node (Linux: __vm_enough_memory,
 * Documentation/mm/overcommit-accounting.rst): each mode's rule, and
 * Committed_AS following a program's private writable mappings through
 * vm_mmap, vm_munmap, vm_mprotect, mremap (sys_mremap, as a program's call
 * reaches it) and the mm's exit. Every case measures Committed_AS from
 * where it started and restores the knobs. Example: mode 2 with
 * overcommit_kbytes making CommitLimit = Committed_AS + 100 pages: 99
 * pages are granted, the 100th is refused.
 */
#include <ktest.h>
#include <mman.h>
#include <syscalls.h>
#include <vm.h>
#include "mm_test_util.h"

#define A 0x40000000ul
#define P PAGE_SIZE
#define URW (VM_READ | VM_WRITE | VM_USER)
#define MAYMOVE 1
#define DONTUNMAP 4

static struct test_mm t;
static struct mm_struct *prev_mm;
static struct task_struct *task;
static int saved_mode, saved_ratio;
static unsigned long saved_kbytes, saved_user_reserve, committed_at_start;

static int overcommit_test_init(struct kunit *test)
{
	saved_mode = sysctl_overcommit_memory;
	saved_ratio = sysctl_overcommit_ratio;
	saved_kbytes = sysctl_overcommit_kbytes;
	saved_user_reserve = sysctl_user_reserve_kbytes;
	sysctl_overcommit_memory = OVERCOMMIT_GUESS;
	test_mm_create(test, &t, 4 * MAX_ORDER_NR_PAGES);
	prev_mm = current_mm;
	if (t.mm)
		switch_mm(t.mm);
	task = test_task(t.mm);
	committed_at_start = vm_memory_committed();
	return 0;
}

static void overcommit_test_exit(struct kunit *test)
{
	switch_mm(prev_mm);
	test_mm_destroy(test, &t);
	/* The exit (mm_destroy) uncharged what the case left mapped. */
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed_at_start);
	sysctl_overcommit_memory = saved_mode;
	sysctl_overcommit_ratio = saved_ratio;
	sysctl_overcommit_kbytes = saved_kbytes;
	sysctl_user_reserve_kbytes = saved_user_reserve;
}

/* Committed_AS now, in pages more than at the start of the case. */
static long committed(void)
{
	return (long)vm_memory_committed() - (long)committed_at_start;
}

static unsigned long mmap_pages(unsigned long addr, unsigned long pages, unsigned long vm_flags)
{
	return vm_mmap(t.mm, addr, pages * P, vm_flags, 0);
}

static long mremap(unsigned long addr, unsigned long old_len, unsigned long new_len,
		   unsigned long flags)
{
	const unsigned long args[6] = { addr, old_len, new_len, flags, 0, 0 };

	return sys_mremap(task, args);
}

/* Mode 0 refuses one request larger than all RAM (no swap), and nothing
 * for being too much in total. */
static void guess_mode_refuses_only_a_single_request_above_ram(struct kunit *test)
{
	unsigned long ram = totalram_pages();

	if (!t.mm)
		return;
	KUNIT_EXPECT_EQ(test, mmap_pages(A, ram + 1, URW), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, committed(), 0);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, 0);
	KUNIT_EXPECT_EQ(test, mmap_pages(A, ram, URW), A);
	KUNIT_EXPECT_EQ(test, mmap_pages(A + ram * P, ram, URW), A + ram * P);
	KUNIT_EXPECT_EQ(test, committed(), 2 * (long)ram);
	KUNIT_EXPECT_TRUE(test, t.mm->vmas[0].vm_flags & VM_ACCOUNT);
	/* VM_NORESERVE (MAP_NORESERVE) and read-only mappings are not charged. */
	KUNIT_EXPECT_EQ(test, mmap_pages(A + 4 * ram * P, ram + 1, URW | VM_NORESERVE),
			A + 4 * ram * P);
	KUNIT_EXPECT_EQ(test, mmap_pages(A + 8 * ram * P, ram + 1, VM_READ | VM_USER),
			A + 8 * ram * P);
	KUNIT_EXPECT_EQ(test, committed(), 2 * (long)ram);
}

static void always_mode_refuses_nothing(struct kunit *test)
{
	unsigned long tib = (1ul << 40) / P;

	if (!t.mm)
		return;
	sysctl_overcommit_memory = OVERCOMMIT_ALWAYS;
	KUNIT_EXPECT_EQ(test, mmap_pages(A, tib, URW), A);
	KUNIT_EXPECT_EQ(test, committed(), (long)tib);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, tib * P), 0);
	KUNIT_EXPECT_EQ(test, committed(), 0);
}

/* Mode 2: CommitLimit from overcommit_kbytes, else from the ratio;
 * Committed_AS must stay below it after the charge. */
static void never_mode_keeps_committed_below_commit_limit(struct kunit *test)
{
	if (!t.mm)
		return;
	sysctl_overcommit_memory = OVERCOMMIT_NEVER;
	sysctl_overcommit_ratio = 50;
	KUNIT_EXPECT_EQ(test, vm_commit_limit(), totalram_pages() * 50 / 100);
	sysctl_user_reserve_kbytes = 0; /* so the limit is exact */
	sysctl_overcommit_kbytes = (vm_memory_committed() + 100) * (P / 1024);
	KUNIT_EXPECT_EQ(test, vm_commit_limit(), vm_memory_committed() + 100);
	KUNIT_EXPECT_EQ(test, mmap_pages(A, 99, URW), A);
	KUNIT_EXPECT_EQ(test, mmap_pages(A + 200 * P, 1, URW), (unsigned long)-ENOMEM);
	KUNIT_EXPECT_EQ(test, committed(), 99);
	/* VM_NORESERVE is still not charged (mode 2 is enforced by mmap,
	 * which then does not pass it). */
	KUNIT_EXPECT_EQ(test, mmap_pages(A + 200 * P, 1000, URW | VM_NORESERVE), A + 200 * P);
	/* Unmapping gives room back. */
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 9 * P, 10 * P), 0);
	KUNIT_EXPECT_EQ(test, committed(), 89);
	KUNIT_EXPECT_EQ(test, mmap_pages(A + 9 * P, 10, URW), A + 9 * P);
	/* The user reserve: a process may not take the last total_vm / 32. */
	sysctl_user_reserve_kbytes = 1ul << 17;
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, P), 0);
	KUNIT_EXPECT_EQ(test, mmap_pages(A, 1, URW), (unsigned long)-ENOMEM);
}

/* vm_commit_room (tmpfs's budget, page by page): what mode 2 would still
 * grant, exactly: that many pages one at a time are granted, the next is
 * refused; in the other modes no budget. */
static void commit_room_is_what_mode_2_still_grants(struct kunit *test)
{
	unsigned long room;

	if (!t.mm)
		return;
	KUNIT_EXPECT_EQ(test, vm_commit_room(t.mm, true), ULONG_MAX);
	sysctl_overcommit_memory = OVERCOMMIT_NEVER;
	sysctl_user_reserve_kbytes = 0;
	sysctl_overcommit_kbytes = (vm_memory_committed() + 10) * (P / 1024);
	room = vm_commit_room(t.mm, true);
	KUNIT_EXPECT_EQ(test, room, 9);
	for (unsigned long i = 0; i < room; i++)
		KUNIT_EXPECT_EQ(test, __vm_enough_memory(t.mm, 1, true), 0);
	KUNIT_EXPECT_EQ(test, vm_commit_room(t.mm, true), 0);
	KUNIT_EXPECT_EQ(test, __vm_enough_memory(t.mm, 1, true), -ENOMEM);
	vm_unacct_memory((long)room);
	sysctl_overcommit_memory = OVERCOMMIT_ALWAYS;
	KUNIT_EXPECT_EQ(test, vm_commit_room(t.mm, true), ULONG_MAX);
}

/* munmap uncharges exactly the accounted pages it removes, whether it
 * trims, splits or removes a VMA. */
static void munmap_uncharges_the_pages_it_removes(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, mmap_pages(A, 16, URW), A);
	KUNIT_ASSERT_EQ(test, mmap_pages(A + 16 * P, 4, VM_READ | VM_USER), A + 16 * P);
	KUNIT_EXPECT_EQ(test, committed(), 16);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 4 * P, 2 * P), 0); /* a split */
	KUNIT_EXPECT_EQ(test, committed(), 14);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A + 14 * P, 4 * P), 0); /* across both */
	KUNIT_EXPECT_EQ(test, committed(), 12);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 64 * P), 0);
	KUNIT_EXPECT_EQ(test, committed(), 0);
}

/* mprotect of part of a never-faulted charged VMA to read-only and back:
 * the part is uncharged and charged again, the rest keeps its charge and
 * its flags, so the parts merge back into one VMA (the mark that carries
 * the uncharge through the split is gone from both). */
static void mprotect_part_and_back_merges_again(struct kunit *test)
{
	int vmas;

	KUNIT_ASSERT_EQ(test, mmap_pages(A, 16, URW), A);
	vmas = t.mm->nr_vmas;
	KUNIT_EXPECT_EQ(test, committed(), 16);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, 4 * P, VM_READ | VM_USER), 0);
	KUNIT_EXPECT_EQ(test, committed(), 12);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, 4 * P, URW), 0);
	KUNIT_EXPECT_EQ(test, committed(), 16);
	KUNIT_EXPECT_EQ(test, t.mm->nr_vmas, vmas);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 16 * P), 0);
	KUNIT_EXPECT_EQ(test, committed(), 0);
}

/* mprotect charges a private mapping the first time it becomes writable,
 * once; taking write away uncharges it only while it has never held an
 * anonymous folio (Linux: mprotect_fixup, the VMA without anon_vma). */
static void mprotect_charges_a_mapping_made_writable_once(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, mmap_pages(A, 8, VM_READ | VM_USER), A);
	KUNIT_EXPECT_EQ(test, committed(), 0);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A + 2 * P, 4 * P, URW), 0);
	KUNIT_EXPECT_EQ(test, committed(), 4);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A + 2 * P, 4 * P, VM_READ | VM_USER), 0);
	KUNIT_EXPECT_EQ(test, committed(), 0);
	KUNIT_EXPECT_FALSE(test, find_vma(t.mm, A + 2 * P)->vm_flags & VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A + 2 * P, 4 * P, URW), 0);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(t.mm, A + 2 * P, FAULT_FLAG_WRITE), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A + 2 * P, 4 * P, VM_READ | VM_USER), 0);
	KUNIT_EXPECT_EQ(test, committed(), 4);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A, 8 * P, URW), 0); /* 4 more, not 8 */
	KUNIT_EXPECT_EQ(test, committed(), 8);
	/* Refused in mode 2: nothing changed. */
	sysctl_overcommit_memory = OVERCOMMIT_NEVER;
	sysctl_overcommit_kbytes = vm_memory_committed() * (P / 1024);
	KUNIT_ASSERT_EQ(test, mmap_pages(A + 16 * P, 4, VM_READ | VM_USER), A + 16 * P);
	KUNIT_EXPECT_EQ(test, vm_mprotect(t.mm, A + 16 * P, 4 * P, URW), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(t.mm, A + 16 * P)->vm_flags & ~VM_SOFTDIRTY,
			VM_READ | VM_USER);
	KUNIT_EXPECT_EQ(test, committed(), 8);
	KUNIT_EXPECT_EQ(test, vm_munmap(t.mm, A, 32 * P), 0);
	KUNIT_EXPECT_EQ(test, committed(), 0);
}

/* mremap charges what a mapping grows by, in place or moved; a move
 * carries the old charge along; shrinking uncharges the tail; with
 * MREMAP_DONTUNMAP the whole new range is charged. */
static void mremap_charges_growth_and_moves_the_charge(struct kunit *test)
{
	long addr;

	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, mmap_pages(A, 4, URW), A);
	KUNIT_EXPECT_EQ(test, mremap(A, 4 * P, 6 * P, 0), (long)A); /* in place */
	KUNIT_EXPECT_EQ(test, committed(), 6);
	KUNIT_ASSERT_EQ(test, mmap_pages(A + 6 * P, 1, VM_READ | VM_USER), A + 6 * P);
	addr = mremap(A, 6 * P, 10 * P, MAYMOVE); /* moved */
	KUNIT_EXPECT_NE(test, addr, (long)A);
	KUNIT_EXPECT_EQ(test, committed(), 10);
	KUNIT_EXPECT_TRUE(test, find_vma(t.mm, (unsigned long)addr)->vm_flags & VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, mremap((unsigned long)addr, 10 * P, 3 * P, 0), addr); /* shrink */
	KUNIT_EXPECT_EQ(test, committed(), 3);
	addr = mremap((unsigned long)addr, 3 * P, 3 * P, MAYMOVE | DONTUNMAP);
	KUNIT_EXPECT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, committed(), 6);
	/* Mode 0: growing by more than RAM is refused, the mapping stays. */
	KUNIT_EXPECT_EQ(test,
			mremap((unsigned long)addr, 3 * P, (totalram_pages() + 4) * P, MAYMOVE),
			-ENOMEM);
	KUNIT_EXPECT_EQ(test, committed(), 6);
}

/* The exit gives every charge back: mm_destroy unmaps all (checked by
 * the suite's exit after every case; here with mappings left behind). */
static void exit_uncharges_every_mapping(struct kunit *test)
{
	if (!t.mm)
		return;
	KUNIT_ASSERT_EQ(test, mmap_pages(A, 5, URW), A);
	KUNIT_ASSERT_EQ(test, mmap_pages(A + 8 * P, 7, URW), A + 8 * P);
	KUNIT_EXPECT_EQ(test, committed(), 12);
}

static struct kunit_case overcommit_test_cases[] = {
	KUNIT_CASE(guess_mode_refuses_only_a_single_request_above_ram),
	KUNIT_CASE(always_mode_refuses_nothing),
	KUNIT_CASE(never_mode_keeps_committed_below_commit_limit),
	KUNIT_CASE(commit_room_is_what_mode_2_still_grants),
	KUNIT_CASE(munmap_uncharges_the_pages_it_removes),
	KUNIT_CASE(mprotect_charges_a_mapping_made_writable_once),
	KUNIT_CASE(mprotect_part_and_back_merges_again),
	KUNIT_CASE(mremap_charges_growth_and_moves_the_charge),
	KUNIT_CASE(exit_uncharges_every_mapping),
	{},
};

static struct kunit_suite overcommit_test_suite = {
	.name = "overcommit",
	.init = overcommit_test_init,
	.exit = overcommit_test_exit,
	.test_cases = overcommit_test_cases,
};
kunit_test_suite(overcommit_test_suite);
