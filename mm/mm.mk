# mm/: generic memory management, built into the kernel and the host
# test program (no x86 or libc knowledge), and its tests.
MM_GENERIC_SRCS += mm/memblock.c
# shmem's huge policy: the folio orders a tmpfs file may hold (huge=).
MM_GENERIC_SRCS += mm/shmem.c
TEST_SRCS += mm/tests/memblock_test.c
# Boot-time memory (node 0, vmemmap sections, mm_test_memory):
# kernel only, the host has its own mm_test_memory in arch/host/phys.c.
KERNEL_ONLY_SRCS += mm/boot.c
# The OOM killer of a program's fault (it needs the task and its signals).
KERNEL_ONLY_SRCS += mm/oom_kill.c
# The buddy allocator, node/zone set-up and the DEBUG_VM checks.
MM_GENERIC_SRCS += mm/mm_init.c mm/page_alloc.c mm/debug_vm.c
TEST_SRCS += mm/tests/mm_test_util.c mm/tests/page_alloc_test.c mm/tests/pcp_test.c
# Folios, page isolation, migration and CMA.
MM_GENERIC_SRCS += mm/folio.c mm/page_isolation.c mm/migrate.c mm/cma.c
# Compaction: the migrate and free scanners, direct compaction's half
# (the allocator's slow path calls it), compact_memory.
MM_GENERIC_SRCS += mm/compaction.c
TEST_SRCS += mm/tests/compaction_test.c
# kmalloc: power-of-two caches of order-0 slabs, whole pages above.
MM_GENERIC_SRCS += mm/slab.c
TEST_SRCS += mm/tests/slab_test.c
# vmalloc: kernel virtual areas with guard pages (kernel stacks too); the
# pages are mapped by the arch (arch_map_kernel_page).
MM_GENERIC_SRCS += mm/vmalloc.c
TEST_SRCS += mm/tests/vmalloc_test.c
TEST_SRCS += mm/tests/folio_test.c mm/tests/cma_test.c mm/tests/alloc_contig_test.c
# Offlining and onlining a range at a zone's edge; the tests' memory,
# taken from node 0 while they run.
MM_GENERIC_SRCS += mm/memory_hotplug.c
TEST_SRCS += mm/tests/memory_hotplug_test.c

# --- fuzzing the buddy allocator (host only) ---------------------------------
# What the allocator needs to run as a process: the buddy core, folios
# (prep_compound_page), direct compaction (the slow path's) with the
# migration it drives, printk and the host arch hooks, the tasks
# console waits are made of, and the console tty (exit hangs it up). Tasks hold an mm, so the fuzzer links the VM
# fuzzer's objects (VM_HOST_SRCS, below: built once for both).
BUDDY_HOST_SRCS := mm/mm_init.c mm/page_alloc.c mm/debug_vm.c mm/folio.c \
	mm/compaction.c mm/migrate.c mm/page_isolation.c \
	lib/format.c kernel/printk.c kernel/console.c kernel/sysctl.c \
	init/init_task.c kernel/fork.c kernel/pid.c kernel/sched/core.c kernel/sched/fair.c kernel/sched/wait.c kernel/timer.c kernel/hrtimer.c lib/rbtree.c \
	fs/file.c fs/inode.c fs/eventpoll.c fs/ramfs.c mm/shmem.c mm/filemap.c mm/truncate.c lib/xarray.c lib/iov_iter.c \
	fs/tty_io.c fs/n_tty.c fs/tty_ioctl.c fs/tty_jobctrl.c \
	mm/slab.c mm/tlb.c mm/vmalloc.c \
	arch/host/arch.c arch/host/cpu.c arch/host/phys.c arch/host/process.c arch/host/mmu.c \
	arch/host/smp.c kernel/smp.c lib/cpumask.c kernel/locking/lockdep.c

# libFuzzer: every object instrumented for coverage, ASan and UBSan.
# `make fuzz` runs 10 minutes, `make fuzz-smoke` 10 seconds (make test).
FUZZ_CFLAGS = $(HOST_TEST_CFLAGS) -fsanitize=fuzzer-no-link
$(B)/fuzz-obj/%.o: %.c | $(B)/include/generated/config.h $(B)/include/version.h
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@
.PHONY: fuzz fuzz-smoke
fuzz: $(B)/fuzz-page-alloc
	@mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-page-alloc -max_total_time=600 -max_len=4096 $(B)/fuzz-corpus
fuzz-smoke: $(B)/fuzz-page-alloc
	@mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-page-alloc -max_total_time=10 -max_len=4096 $(B)/fuzz-corpus

# Clearing: folio_zero_user's strategies (clear_pages is arch code), its
# tests.
MM_GENERIC_SRCS += mm/clear.c
TEST_SRCS += mm/tests/clear_test.c
# Address spaces: page tables and the walker, TLB flushing and the
# mmu_gather that batches it, VMAs and munmap.
MM_GENERIC_SRCS += mm/pgtable.c mm/tlb.c mm/mmu_gather.c mm/mmap.c mm/mprotect.c
TEST_SRCS += mm/tests/pgtable_test.c mm/tests/mmap_test.c
# Anonymous faults with large folios, mTHP orders and stats, THP
# splitting, the reverse map and the migration hook.
MM_GENERIC_SRCS += mm/memory.c mm/huge_memory.c mm/rmap.c
TEST_SRCS += mm/tests/fault_test.c mm/tests/thp_mode_test.c mm/tests/thp_stats_test.c
# fork's half of mm: dup_mmap, copy-on-write (do_wp_page, wp_page_copy).
TEST_SRCS += mm/tests/fork_test.c
# HugeTLB: the pools of huge pages, their reservations and faults; the
# tests also run the seed's matrix (the dma-buf system heap's pattern).
MM_GENERIC_SRCS += mm/hugetlb.c
TEST_SRCS += mm/tests/hugetlb_test.c mm/tests/hugetlb_gigantic_test.c
# The counters as /proc/vmstat, /proc/buddyinfo and /proc/pagetypeinfo,
# and the mixed pageblocks pagetypeinfo counts (page_owner).
MM_GENERIC_SRCS += mm/vmstat.c mm/page_owner.c
TEST_SRCS += mm/tests/page_owner_test.c
# MADV_FREE/MADV_DONTNEED (batched or split), the anon/lazyfree LRU
# lists and lazyfree reclaim, their tests.
MM_GENERIC_SRCS += mm/madvise.c mm/vmscan.c
TEST_SRCS += mm/tests/madvise_test.c
# MADV_COLLAPSE (no khugepaged thread), and the tests of the other advice.
MM_GENERIC_SRCS += mm/khugepaged.c
TEST_SRCS += mm/tests/madvise_advice_test.c
# mprotect's batched change of a large folio's entries.
TEST_SRCS += mm/tests/mprotect_test.c
# mremap: shrink, grow in place, move the page-table entries.
MM_GENERIC_SRCS += mm/mremap.c
TEST_SRCS += mm/tests/mremap_test.c
# msync: Linux's checks (tmpfs has nothing to write back).
MM_GENERIC_SRCS += mm/msync.c
# mincore: which pages of a range an entry maps.
MM_GENERIC_SRCS += mm/mincore.c
TEST_SRCS += mm/tests/mincore_test.c
# mlock: VM_LOCKED VMAs, mlocked folios on the unevictable LRU, the
# system calls and RLIMIT_MEMLOCK.
MM_GENERIC_SRCS += mm/mlock.c
TEST_SRCS += mm/tests/mlock_test.c
# Soft-dirty tracking and young clearing: the walk behind
# /proc/PID/clear_refs.
MM_GENERIC_SRCS += mm/clear_refs.c
TEST_SRCS += mm/tests/soft_dirty_test.c
# The page cache: each file's folios in an XArray by index, large
# folios on writes, reads, truncation (Linux: mm/filemap.c, mm/truncate.c).
MM_GENERIC_SRCS += mm/filemap.c mm/truncate.c
# posix_fadvise: checked, and nothing to read ahead or drop (no backing store).
KERNEL_ONLY_SRCS += mm/fadvise.c
TEST_SRCS += mm/tests/filemap_test.c
# Shared mappings of tmpfs files and shared anonymous memory.
TEST_SRCS += mm/tests/shmem_map_test.c
# Overcommit accounting: Committed_AS, CommitLimit, __vm_enough_memory.
MM_GENERIC_SRCS += mm/util.c
TEST_SRCS += mm/tests/overcommit_test.c
# Random sequences over several VMAs checked against a byte model (the
# model is shared with the fuzz target below).
TEST_SRCS += mm/tests/vm_model.c mm/tests/madvise_random_test.c

# --- fuzzing virtual memory (host only) --------------------------------------
# What an mm needs to run as a process: the buddy core, page tables, VMAs,
# faults, clearing, madvise and reclaim, and the host MMU and uaccess
# (seq_file and kmalloc: huge_memory.c's sysfs show functions; memblock:
# hugetlb.c's boot-time 1 GiB pages; vmalloc: fork.c's kernel stacks;
# signal, exit, cred, time, cputime and loadavg: what fork.c and the tick
# call).
VM_HOST_SRCS := $(BUDDY_HOST_SRCS) kernel/cmdline.c kernel/sched/cputime.c kernel/sched/loadavg.c \
	kernel/signal.c kernel/futex.c kernel/time.c kernel/itimer.c kernel/posix-timers.c kernel/exit.c kernel/cred.c \
	mm/pgtable.c mm/mmu_gather.c mm/mmap.c mm/mprotect.c mm/util.c mm/memory.c mm/huge_memory.c mm/rmap.c mm/hugetlb.c \
	mm/clear.c mm/madvise.c mm/khugepaged.c mm/vmscan.c mm/mlock.c mm/clear_refs.c mm/mremap.c \
	mm/memblock.c fs/seq_file.c \
	arch/host/uaccess.c arch/host/clear.c
FUZZ_VM_OBJS := $(patsubst %.c,$(B)/fuzz-obj/%.o,$(VM_HOST_SRCS) \
	mm/tests/vm_model.c mm/tests/fuzz_vm.c)
$(B)/fuzz-vm: $(FUZZ_VM_OBJS)
	@echo "  LINK    $@"
	$(Q)clang $(HOST_TEST_CFLAGS) -fsanitize=fuzzer -o $@ $^
FUZZ_OBJS := $(patsubst %.c,$(B)/fuzz-obj/%.o,$(VM_HOST_SRCS) mm/tests/fuzz_page_alloc.c)
$(B)/fuzz-page-alloc: $(FUZZ_OBJS)
	@echo "  LINK    $@"
	$(Q)clang $(HOST_TEST_CFLAGS) -fsanitize=fuzzer -o $@ $^
# `make fuzz` and `make fuzz-smoke` run this target too, before the
# allocator's (10 minutes / 10 seconds, its own corpus; inputs of up to
# 1 KiB from the start, about 250 model steps each), then again with the
# steps on 2 and on 4 CPUs of the host's model (5 minutes / 5 seconds
# each).
.PHONY: fuzz-vm fuzz-vm-smoke
fuzz-vm: $(B)/fuzz-vm
	@mkdir -p $(B)/fuzz-vm-corpus
	$(B)/fuzz-vm -max_total_time=600 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
	FOLIUM_FUZZ_CPUS=2 $(B)/fuzz-vm -max_total_time=300 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
	FOLIUM_FUZZ_CPUS=4 $(B)/fuzz-vm -max_total_time=300 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
fuzz-vm-smoke: $(B)/fuzz-vm
	@mkdir -p $(B)/fuzz-vm-corpus
	$(B)/fuzz-vm -max_total_time=10 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
	FOLIUM_FUZZ_CPUS=2 $(B)/fuzz-vm -max_total_time=5 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
	FOLIUM_FUZZ_CPUS=4 $(B)/fuzz-vm -max_total_time=5 -max_len=1024 -len_control=0 $(B)/fuzz-vm-corpus
fuzz: fuzz-vm
fuzz-smoke: fuzz-vm-smoke
# The model is the oracle, not the target: no coverage feedback from it.
$(B)/fuzz-obj/mm/tests/vm_model.o: FUZZ_CFLAGS = $(HOST_TEST_CFLAGS)
