/*
 * System calls and exec in the kernel (in-kernel only: ring 3 needs the
 * machine). The syscall suite calls do_syscall on a private mm with one
 * user buffer, as a program's syscall instruction would, and checks
 * results, errno values and console output; bad pointers must come back
 * as -EFAULT. The exec suite runs the initramfs's /bin/hello and
 * /bin/crash (skipped without them) and checks the exit status, the fault
 * report and that every page comes back.
 */
#include <hugetlb.h>
#include <ktest.h>
#include <mm.h>
#include <mman.h>
#include <mman.h>
#include <syscalls.h>
#include <ramfs.h>
#include <shell.h>
#include <umh.h>
#include <vm.h>
#include <asm/prctl.h>
#include "ktest_task.h"

#define BUF 0x400000ul	       /* a user page of the test mm */
#define HEAP 0x800000ul	       /* the test task's start_brk */
#define HEAP_LIMIT 0x1000000ul /* a mapping there stops the heap (NEXT_VMA) */
#define UNMAPPED 0x1000ul      /* no VMA: below MMAP_MIN_ADDR */
#define FIXED 0x40000000ul     /* where the mmap cases place MAP_FIXED mappings */
#define RW (PROT_READ | PROT_WRITE)
#define ANON (MAP_PRIVATE | MAP_ANONYMOUS)

static struct task_struct *task;
static struct mm_struct *mm, *prev_mm;
static struct shell_capture out;

static int syscall_test_init(struct kunit *test)
{
	prev_mm = current_mm;
	mm = mm_create(0);
	if (!mm)
		return -1;
	switch_mm(mm);
	if (IS_ERR_VALUE(vm_mmap(mm, BUF, 2 * PAGE_SIZE, VM_READ | VM_WRITE | VM_USER, 0)))
		return -1;
	task = ktest_task_create(mm);
	if (!task)
		return -1;
	mm->start_brk = mm->brk = HEAP;
	/* The mapping above the heap, which brk may not come within a page
	 * of (Linux: sys_brk's vm_start_gap check). */
	if (IS_ERR_VALUE(vm_mmap(mm, HEAP_LIMIT, PAGE_SIZE, VM_READ | VM_USER, 0)))
		return -1;
	return console_on_rootfs(task); /* fds 0-2: the console */
}

static void syscall_test_exit(struct kunit *test)
{
	free_task(task);
	switch_mm(prev_mm);
	mm_destroy(mm);
}

static long sys(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2)
{
	const unsigned long args[6] = { a0, a1, a2, 0, 0, 0 };

	return do_syscall(task, nr, args);
}

static long sys6(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2,
		 unsigned long a3, unsigned long a4, unsigned long a5)
{
	const unsigned long args[6] = { a0, a1, a2, a3, a4, a5 };

	return do_syscall(task, nr, args);
}

static long test_mmap(unsigned long addr, unsigned long len, unsigned long prot,
		      unsigned long flags)
{
	return sys6(__NR_mmap, addr, len, prot, flags, -1ul, 0);
}

/* Run a system call with the console captured into out. */
static long sys_captured(unsigned long nr, unsigned long a0, unsigned long a1, unsigned long a2)
{
	long ret;

	shell_capture_start(&out);
	ret = sys(nr, a0, a1, a2);
	shell_capture_stop();
	return ret;
}

static void write_sends_user_bytes_to_the_console(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, "hi\n", 3), 0);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_write, 1, BUF, 3), 3);
	KUNIT_EXPECT_STREQ(test, out.text, "hi\n");
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_write, 2, BUF, 0), 0);
	KUNIT_EXPECT_STREQ(test, out.text, "");
	KUNIT_EXPECT_EQ(test, sys(__NR_write, 3, BUF, 3), -EBADF);
	KUNIT_EXPECT_EQ(test, sys(__NR_write, -1ul, BUF, 3), -EBADF);
}

static void writev_writes_each_vector_in_order(struct kunit *test)
{
	const uint64_t iov[4] = { BUF + 64, 2, BUF + 66, 2 };

	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, iov, sizeof(iov)), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF + 64, "ab\n", 4), 0);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_writev, 1, BUF, 2), 4);
	/* "ab" then "\n\0": the NUL goes out too, but ends the text here. */
	KUNIT_EXPECT_STREQ(test, out.text, "ab\n");
	KUNIT_EXPECT_EQ(test, out.len, 4);
	KUNIT_EXPECT_EQ(test, sys(__NR_writev, 1, BUF, 1025), -EINVAL);
}

static void bad_user_pointers_are_efault_never_a_kernel_fault(struct kunit *test)
{
	const uint64_t iov[2] = { UNMAPPED, 8 };

	KUNIT_EXPECT_EQ(test, sys_captured(__NR_write, 1, UNMAPPED, 4), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_write, 1, (unsigned long)task, 4), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_writev, 1, UNMAPPED, 1), -EFAULT);
	KUNIT_ASSERT_EQ(test, copy_to_user(BUF, iov, sizeof(iov)), 0);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_writev, 1, BUF, 1), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_ioctl, 1, TIOCGWINSZ, UNMAPPED), -EFAULT);
	/* A write running off the end of the mapping ends short. */
	KUNIT_EXPECT_EQ(test, sys_captured(__NR_write, 1, BUF + 2 * PAGE_SIZE - 256, 512), 256);
}

static void ioctl_tiocgwinsz_reports_80_by_25(struct kunit *test)
{
	uint16_t ws[4] = { 1, 1, 1, 1 };

	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 0, TIOCGWINSZ, BUF), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(ws, BUF, sizeof(ws)), 0);
	KUNIT_EXPECT_EQ(test, ws[0], 25); /* ws_row */
	KUNIT_EXPECT_EQ(test, ws[1], 80); /* ws_col */
	KUNIT_EXPECT_EQ(test, ws[2] | ws[3], 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 1, 0x5415 /* TIOCMGET: no modem lines */, BUF),
			-ENOTTY);
	KUNIT_EXPECT_EQ(test, sys(__NR_ioctl, 3, TIOCGWINSZ, BUF), -EBADF);
}

static void brk_grows_and_shrinks_the_heap(struct kunit *test)
{
	char byte = 7;

	KUNIT_EXPECT_EQ(test, sys(__NR_brk, 0, 0, 0), HEAP);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP + 10000, 0, 0), HEAP + 10000);
	KUNIT_EXPECT_EQ(test, copy_to_user(HEAP + 9999, &byte, 1), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP + 100, 0, 0), HEAP + 100);
	/* The page holding the break stays; the ones above it are gone. */
	KUNIT_EXPECT_EQ(test, copy_to_user(HEAP + 99, &byte, 1), 0);
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, copy_to_user(HEAP + PAGE_SIZE, &byte, 1), -EFAULT);
	shell_capture_stop();
	/* Onto the next mapping, or within a page of it: the old break comes
	 * back, which is the error; a page short of it is allowed. */
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP_LIMIT + PAGE_SIZE, 0, 0), HEAP + 100);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP_LIMIT - 1, 0, 0), HEAP + 100);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP_LIMIT - PAGE_SIZE, 0, 0), HEAP_LIMIT - PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP + 100, 0, 0), HEAP + 100);
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP - 1, 0, 0), HEAP + 100);
}

/* Overcommit mode 0 (Linux: __vm_enough_memory): one request above all
 * RAM fails, brk's by giving the old break back; MAP_NORESERVE is not
 * charged, except in mode 2. */
static void overcommit_refuses_single_requests_above_ram(struct kunit *test)
{
	const unsigned long big = 64ul << 30, tib = 1ul << 40;
	int mode = sysctl_overcommit_memory;
	unsigned long committed = vm_memory_committed();
	long addr;

	sysctl_overcommit_memory = OVERCOMMIT_GUESS;
	KUNIT_ASSERT_EQ(test, sys(__NR_munmap, HEAP_LIMIT, PAGE_SIZE, 0), 0); /* room to grow */
	KUNIT_EXPECT_EQ(test, sys(__NR_brk, HEAP + big, 0, 0), HEAP);
	KUNIT_EXPECT_EQ(test, test_mmap(0, tib, RW, ANON), -ENOMEM);
	addr = test_mmap(0, tib, RW, ANON | MAP_NORESERVE);
	KUNIT_EXPECT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
	if (!IS_ERR_VALUE(addr))
		KUNIT_EXPECT_EQ(test, sys(__NR_munmap, (unsigned long)addr, tib, 0), 0);
	sysctl_overcommit_memory = OVERCOMMIT_NEVER;
	KUNIT_EXPECT_EQ(test, test_mmap(0, tib, RW, ANON | MAP_NORESERVE), -ENOMEM);
	KUNIT_EXPECT_EQ(test, vm_memory_committed(), committed);
	sysctl_overcommit_memory = mode;
}

static void ids_are_the_tasks_and_unknown_numbers_are_enosys(struct kunit *test)
{
	char line[64];

	KUNIT_EXPECT_EQ(test, sys(__NR_getpid, 0, 0, 0), task->pid);
	KUNIT_EXPECT_EQ(test, sys(__NR_set_tid_address, BUF, 0, 0), task->pid);
	KUNIT_EXPECT_EQ(test, task->clear_child_tid, BUF);
	KUNIT_EXPECT_EQ(test, sys_captured(511, 0, 0, 0), -ENOSYS);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, "system call 511 not implemented") != NULL);
	/* A Linux call Folium does not serve is logged by its Linux name. */
	KUNIT_EXPECT_EQ(test, sys_captured(169, 0, 0, 0), -ENOSYS);
	ksnprintf(line, sizeof(line), "ktest[%d]: reboot (169) not implemented", task->pid);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, line) != NULL);
	/* Logged once: the second call is silent. */
	KUNIT_EXPECT_EQ(test, sys_captured(511, 0, 0, 0), -ENOSYS);
	KUNIT_EXPECT_STREQ(test, out.text, "");
	KUNIT_EXPECT_EQ(test, sys(100000, 0, 0, 0), -ENOSYS);
}

static void arch_prctl_sets_and_reads_the_fs_base(struct kunit *test)
{
	uint64_t fs = 0;

	KUNIT_EXPECT_EQ(test, sys(__NR_arch_prctl, ARCH_SET_FS, 0x12345000, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_arch_prctl, ARCH_GET_FS, BUF, 0), 0);
	KUNIT_ASSERT_EQ(test, copy_from_user(&fs, BUF, sizeof(fs)), 0);
	KUNIT_EXPECT_EQ(test, fs, 0x12345000);
	KUNIT_EXPECT_EQ(test, sys(__NR_arch_prctl, ARCH_SET_FS, USER_VA_END, 0), -EPERM);
	KUNIT_EXPECT_EQ(test, sys(__NR_arch_prctl, 0x1001 /* ARCH_SET_GS */, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_arch_prctl, ARCH_SET_FS, 0, 0), 0);
}

static void mmap_and_munmap_round_trip_anonymous_memory(struct kunit *test)
{
	long addr = test_mmap(0, 3 * PAGE_SIZE, RW, ANON);
	char byte = 0;

	KUNIT_ASSERT_FALSE(test, IS_ERR_VALUE(addr));
	KUNIT_EXPECT_EQ(test, addr & (PAGE_SIZE - 1), 0);
	KUNIT_EXPECT_EQ(test, find_vma(mm, addr)->vm_flags,
			VM_READ | VM_WRITE | VM_USER | VM_SOFTDIRTY | VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, addr + 2 * PAGE_SIZE, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_munmap, addr, 3 * PAGE_SIZE, 0), 0);
	KUNIT_EXPECT_EQ(test, find_vma(mm, addr), NULL);
	/* Unmapping nothing is no error; a bad range is. */
	KUNIT_EXPECT_EQ(test, sys(__NR_munmap, addr, 3 * PAGE_SIZE, 0), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_munmap, addr + 1, PAGE_SIZE, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_munmap, addr, 0, 0), -EINVAL);
	/* PROT_WRITE alone is VM_WRITE alone, as Linux's calc_vm_prot_bits:
	 * x86 lets a read through, MADV_POPULATE_READ (which asks for
	 * VM_READ) refuses it; PROT_NONE allows nothing. */
	addr = test_mmap(0, PAGE_SIZE, PROT_WRITE, ANON);
	KUNIT_EXPECT_EQ(test, find_vma(mm, addr)->vm_flags,
			VM_WRITE | VM_USER | VM_SOFTDIRTY | VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, handle_mm_fault(mm, addr, 0), VM_FAULT_OK);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, addr, PAGE_SIZE, 22 /* POPULATE_READ */), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, addr, PAGE_SIZE, 23 /* POPULATE_WRITE */), 0);
	addr = test_mmap(0, PAGE_SIZE, PROT_NONE, ANON);
	KUNIT_EXPECT_EQ(test, find_vma(mm, addr)->vm_flags, VM_USER | VM_SOFTDIRTY);
}

static void mmap_refuses_what_linux_refuses(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, test_mmap(0, 0, RW, ANON), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys6(__NR_mmap, 0, PAGE_SIZE, RW, ANON, -1ul, 100), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys6(__NR_mmap, 0, PAGE_SIZE, RW, MAP_PRIVATE, 1, 0), -ENODEV);
	KUNIT_EXPECT_EQ(test, sys6(__NR_mmap, 0, PAGE_SIZE, RW, MAP_PRIVATE, 7, 0), -EBADF);
	/* A shared HugeTLB mapping (a hugetlbfs file in Linux) is not served. */
	KUNIT_EXPECT_EQ(test, test_mmap(0, PAGE_SIZE, RW, MAP_SHARED | MAP_ANONYMOUS | MAP_HUGETLB),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, test_mmap(FIXED + 1, PAGE_SIZE, RW, ANON | MAP_FIXED), -EINVAL);
	KUNIT_EXPECT_EQ(test, test_mmap(0, -1ul, RW, ANON), -ENOMEM);
	KUNIT_EXPECT_EQ(test,
			test_mmap(USER_VA_END - PAGE_SIZE, 2 * PAGE_SIZE, RW, ANON | MAP_FIXED),
			-ENOMEM);
	/* Below mmap_min_addr (64 KiB) is -EPERM; at it, a mapping. */
	KUNIT_EXPECT_EQ(test, test_mmap(0xf000, PAGE_SIZE, RW, ANON | MAP_FIXED), -EPERM);
	KUNIT_EXPECT_EQ(test, test_mmap(0x10000, PAGE_SIZE, RW, ANON | MAP_FIXED), 0x10000);
	KUNIT_EXPECT_EQ(test, test_mmap(0, PAGE_SIZE, RW, ANON | MAP_HUGETLB), -ENOMEM);
	/* MAP_HUGE_*: only the sizes with a pool (Linux: hstate_sizelog);
	 * 1 GiB's empty pool is -ENOMEM where the CPU has PDPE1GB. */
	KUNIT_EXPECT_EQ(test,
			test_mmap(0, PAGE_SIZE, RW, ANON | MAP_HUGETLB | 25 << MAP_HUGE_SHIFT),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			test_mmap(0, PAGE_SIZE, RW, ANON | MAP_HUGETLB | 30 << MAP_HUGE_SHIFT),
			size_to_hstate(PUD_SIZE) ? -ENOMEM : -EINVAL);
	/* MAP_NORESERVE is accepted. */
	KUNIT_EXPECT_FALSE(test, IS_ERR_VALUE(test_mmap(0, PAGE_SIZE, RW, ANON | MAP_NORESERVE)));
}

static void mmap_fixed_replaces_and_fixed_noreplace_is_eexist(struct kunit *test)
{
	char byte = 5;

	KUNIT_ASSERT_EQ(test, test_mmap(FIXED, 2 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED);
	KUNIT_ASSERT_EQ(test, copy_to_user(FIXED + PAGE_SIZE, &byte, 1), 0);
	KUNIT_EXPECT_EQ(test,
			test_mmap(FIXED + PAGE_SIZE, PAGE_SIZE, RW, ANON | MAP_FIXED_NOREPLACE),
			-EEXIST);
	KUNIT_EXPECT_EQ(test, test_mmap(FIXED + PAGE_SIZE, PAGE_SIZE, PROT_READ, ANON | MAP_FIXED),
			FIXED + PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, find_vma(mm, FIXED + PAGE_SIZE)->vm_flags,
			VM_READ | VM_USER | VM_SOFTDIRTY);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, FIXED + PAGE_SIZE, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0); /* the old page went */
	/* A free hint is taken; a used one is not. */
	KUNIT_EXPECT_EQ(test, test_mmap(FIXED + 16 * PAGE_SIZE, PAGE_SIZE, RW, ANON),
			FIXED + 16 * PAGE_SIZE);
	KUNIT_EXPECT_NE(test, test_mmap(FIXED, PAGE_SIZE, RW, ANON), FIXED);
}

static void mmap_populate_faults_every_page_in(struct kunit *test)
{
	unsigned long before = mm->counters[MM_ANONPAGES];

	KUNIT_ASSERT_FALSE(test,
			   IS_ERR_VALUE(test_mmap(0, 4 * PAGE_SIZE, RW, ANON | MAP_POPULATE)));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], before + 4);
	KUNIT_ASSERT_FALSE(
		test, IS_ERR_VALUE(test_mmap(0, 4 * PAGE_SIZE, PROT_NONE, ANON | MAP_POPULATE)));
	KUNIT_EXPECT_EQ(test, mm->counters[MM_ANONPAGES], before + 4);
}

static void mprotect_splits_vmas_and_rewrites_present_ptes(struct kunit *test)
{
	int vmas = mm->nr_vmas;
	char byte = 9;

	KUNIT_ASSERT_EQ(test, test_mmap(FIXED, 4 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED);
	KUNIT_ASSERT_EQ(test, fill_user(FIXED, 9, 4 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED + PAGE_SIZE, 2 * PAGE_SIZE, PROT_READ), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_vmas, vmas + 3);
	/* Still charged: mprotect never uncharges (Linux: mprotect_fixup). */
	KUNIT_EXPECT_EQ(test, find_vma(mm, FIXED + PAGE_SIZE)->vm_flags,
			VM_READ | VM_USER | VM_SOFTDIRTY | VM_ACCOUNT);
	KUNIT_EXPECT_FALSE(test, pte_write(*mm_find_pte(mm, FIXED + PAGE_SIZE)));
	KUNIT_EXPECT_TRUE(test, pte_write(*mm_find_pte(mm, FIXED)));
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, copy_to_user(FIXED + PAGE_SIZE, &byte, 1), -EFAULT);
	shell_capture_stop();
	/* PROT_NONE: present, but ring 3 may not touch it. */
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, PAGE_SIZE, PROT_NONE), 0);
	KUNIT_EXPECT_FALSE(test, *mm_find_pte(mm, FIXED) & _PAGE_USER);
	/* Back to one read-write VMA, the data kept. */
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, 4 * PAGE_SIZE, RW), 0);
	KUNIT_EXPECT_EQ(test, mm->nr_vmas, vmas + 1);
	KUNIT_EXPECT_TRUE(test, *mm_find_pte(mm, FIXED) & _PAGE_USER);
	byte = 0;
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, FIXED + 2 * PAGE_SIZE, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 9);
	KUNIT_EXPECT_EQ(test, copy_to_user(FIXED + 2 * PAGE_SIZE, &byte, 1), 0);
}

static void mprotect_refuses_holes_and_unaligned_starts(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, test_mmap(FIXED, 2 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED + 1, PAGE_SIZE, PROT_READ), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, 3 * PAGE_SIZE, PROT_READ), -ENOMEM);
	KUNIT_EXPECT_EQ(test, find_vma(mm, FIXED)->vm_flags,
			VM_READ | VM_WRITE | VM_USER | VM_SOFTDIRTY | VM_ACCOUNT);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, 0, PROT_READ), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, PAGE_SIZE, 0x8 /* PROT_SEM */), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_mprotect, FIXED, -PAGE_SIZE, PROT_READ), -ENOMEM);
}

/* process_madvise on the caller's own pidfd: the bytes of the ranges
 * advised (lengths as given), and Linux's order of errors. */
static void process_madvise_on_own_pidfd_returns_bytes_advised(struct kunit *test)
{
	const uint64_t iov[4] = { FIXED, PAGE_SIZE, FIXED + PAGE_SIZE, PAGE_SIZE + 1 };
	const unsigned long vec = FIXED + 3 * PAGE_SIZE;
	char byte = 1;
	long pidfd;

	KUNIT_ASSERT_EQ(test, test_mmap(FIXED, 4 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED);
	KUNIT_ASSERT_EQ(test, fill_user(FIXED, 7, 3 * PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, copy_to_user(vec, iov, sizeof(iov)), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_pidfd_open, task->pid, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_pidfd_open, 0, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_pidfd_open, task->pid + 1, 0, 0), -ESRCH);
	pidfd = sys(__NR_pidfd_open, task->pid, 0, 0);
	KUNIT_ASSERT_GE(test, pidfd, 3);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 2, MADV_COLD, 0, 0),
			2 * PAGE_SIZE + 1);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 2, MADV_COLD, 1, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 1025, MADV_COLD, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, 8, 1, MADV_COLD, 0, 0), -EFAULT);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, 0, vec, 1, MADV_COLD, 0, 0), -EBADF);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 1, 999, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 0, MADV_COLD, 0, 0), 0);
	/* The caller's own mm takes destructive advice too (Linux 6.13+). */
	KUNIT_EXPECT_EQ(test, sys6(__NR_process_madvise, pidfd, vec, 1, MADV_DONTNEED, 0, 0),
			PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, FIXED, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_close, pidfd, 0, 0), 0);
}

static void madvise_dontneed_zeroes_free_keeps_and_others_are_checked(struct kunit *test)
{
	char byte = 0;

	KUNIT_ASSERT_EQ(test, test_mmap(FIXED, 2 * PAGE_SIZE, RW, ANON | MAP_FIXED), FIXED);
	KUNIT_ASSERT_EQ(test, fill_user(FIXED, 7, 2 * PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, PAGE_SIZE, MADV_DONTNEED), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, FIXED, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 0);
	/* No reclaim runs in between: MADV_FREE'd data is still there. */
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED + PAGE_SIZE, PAGE_SIZE, MADV_FREE), 0);
	KUNIT_EXPECT_EQ(test, copy_from_user(&byte, FIXED + PAGE_SIZE, 1), 0);
	KUNIT_EXPECT_EQ(test, byte, 7);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, 2 * PAGE_SIZE, MADV_WILLNEED), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, 2 * PAGE_SIZE, MADV_HUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, 2 * PAGE_SIZE, MADV_NOHUGEPAGE), 0);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, 3 * PAGE_SIZE, MADV_WILLNEED), -ENOMEM);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, 3 * PAGE_SIZE, MADV_DONTNEED), -ENOMEM);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED + 1, PAGE_SIZE, MADV_FREE), -EINVAL);
	KUNIT_EXPECT_EQ(test, sys(__NR_madvise, FIXED, PAGE_SIZE, 100), -EINVAL);
}

static struct kunit_case syscall_cases[] = {
	KUNIT_CASE(write_sends_user_bytes_to_the_console),
	KUNIT_CASE(writev_writes_each_vector_in_order),
	KUNIT_CASE(bad_user_pointers_are_efault_never_a_kernel_fault),
	KUNIT_CASE(ioctl_tiocgwinsz_reports_80_by_25),
	KUNIT_CASE(brk_grows_and_shrinks_the_heap),
	KUNIT_CASE(overcommit_refuses_single_requests_above_ram),
	KUNIT_CASE(ids_are_the_tasks_and_unknown_numbers_are_enosys),
	KUNIT_CASE(arch_prctl_sets_and_reads_the_fs_base),
	KUNIT_CASE(mmap_and_munmap_round_trip_anonymous_memory),
	KUNIT_CASE(mmap_refuses_what_linux_refuses),
	KUNIT_CASE(mmap_fixed_replaces_and_fixed_noreplace_is_eexist),
	KUNIT_CASE(mmap_populate_faults_every_page_in),
	KUNIT_CASE(mprotect_splits_vmas_and_rewrites_present_ptes),
	KUNIT_CASE(mprotect_refuses_holes_and_unaligned_starts),
	KUNIT_CASE(madvise_dontneed_zeroes_free_keeps_and_others_are_checked),
	KUNIT_CASE(process_madvise_on_own_pidfd_returns_bytes_advised),
	{},
};

static struct kunit_suite syscall_suite = {
	.name = "syscall",
	.init = syscall_test_init,
	.exit = syscall_test_exit,
	.test_cases = syscall_cases,
};
kunit_test_suite(syscall_suite);

/* --- exec: the initramfs's programs, end to end --------------------------- */

static bool have_programs(struct kunit *test)
{
	struct ramfs_inode *inode;

	if (ramfs_lookup(&rootfs, "/bin/hello", true, &inode) ||
	    ramfs_lookup(&rootfs, "/bin/crash", true, &inode)) {
		kunit_mark_skipped(test, "no /bin/hello or /bin/crash in the initramfs");
		return false;
	}
	return true;
}

static void program_output_and_exit_status_reach_the_shell(struct kunit *test)
{
	if (!have_programs(test))
		return;
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "/bin/hello a b"), CMD_OK);
	KUNIT_EXPECT_STREQ(test, out.text,
			   "argv[0] = \"/bin/hello\"\nargv[1] = \"a\"\nargv[2] = \"b\"\n"
			   "hello from ring 3\n");
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "hello fail"), CMD_ERROR);
	KUNIT_EXPECT_STREQ(test, out.text,
			   "argv[0] = \"hello\"\nargv[1] = \"fail\"\nhello from ring 3\n"
			   "exit status 3\n");
}

/* The shell's environment (and a NAME=VALUE word) and the auxiliary
 * vector reach the program, as hello env prints them. */
static void environment_and_auxv_reach_the_program(struct kunit *test)
{
	static const char *const want[] = {
		"argv[1] = \"env\"\n",
		"env: PATH=/bin\n",
		"env: HOME=/\n",
		"env: TERM=linux\n",
		"env: DEBUG=a b\n",
		"auxv: AT_PAGESZ 4096\n",
		"auxv: AT_CLKTCK 100\n",
		"auxv: AT_SECURE 0\n",
		"auxv: AT_EXECFN /bin/hello\n",
		"auxv: AT_PLATFORM x86_64\n",
		"auxv: AT_RANDOM 16 bytes, not all zero\n",
		"auxv: AT_ENTRY set\n",
	};

	if (!have_programs(test))
		return;
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "DEBUG='a b' hello env"), CMD_OK);
	for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
		KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, want[i]));
	/* The glibc build reads the same stack. */
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "hello.glibc env"), CMD_OK);
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "auxv: AT_EXECFN /bin/hello.glibc\n"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(out.text, "env: TERM=linux\n"));
}

static void exited_program_gives_back_every_page(struct kunit *test)
{
	const char *const argv[] = { "hello", NULL }, *const envp[] = { NULL };
	unsigned long before = node_free_pages(NODE_DATA(0));

	if (!have_programs(test))
		return;
	shell_capture_start(&out);
	KUNIT_EXPECT_EQ(test, call_usermodehelper("/bin/hello", argv, envp), 0);
	shell_capture_stop();
	KUNIT_EXPECT_EQ(test, node_free_pages(NODE_DATA(0)), before);
	KUNIT_EXPECT_TRUE(test, (current->flags & PF_KTHREAD) && !current->mm);
}

static void fault_in_ring3_ends_only_the_program(struct kunit *test)
{
	unsigned long before = node_free_pages(NODE_DATA(0));
	char line[64];

	if (!have_programs(test))
		return;
	KUNIT_EXPECT_EQ(test, shell_run_captured(&out, "/bin/crash"), CMD_ERROR);
	/* Linux's line names the program's pid, the last one given. */
	ksnprintf(line, sizeof(line), "crash[%d]: segfault at 0 ip ", pid_last_allocated());
	KUNIT_EXPECT_TRUE(test, strstr(out.text, line) != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, " error 6\n") != NULL);
	KUNIT_EXPECT_TRUE(test, strstr(out.text, "\nkilled by SIGSEGV\n") != NULL);
	KUNIT_EXPECT_EQ(test, node_free_pages(NODE_DATA(0)), before);
}

static void files_that_are_not_programs_never_run(struct kunit *test)
{
	const char *const argv[] = { "x", NULL }, *const envp[] = { NULL };

	KUNIT_EXPECT_EQ(test, call_usermodehelper("/no/such/file", argv, envp), -ENOENT);
	if (ramfs_lookup(&rootfs, "/etc/motd", true, &(struct ramfs_inode *){ NULL }) == 0)
		KUNIT_EXPECT_EQ(test, call_usermodehelper("/etc/motd", argv, envp), -EACCES);
}

static struct kunit_case exec_cases[] = {
	KUNIT_CASE(program_output_and_exit_status_reach_the_shell),
	KUNIT_CASE(environment_and_auxv_reach_the_program),
	KUNIT_CASE(exited_program_gives_back_every_page),
	KUNIT_CASE(fault_in_ring3_ends_only_the_program),
	KUNIT_CASE(files_that_are_not_programs_never_run),
	{},
};

static struct kunit_suite exec_suite = {
	.name = "exec",
	.test_cases = exec_cases,
};
kunit_test_suite(exec_suite);
