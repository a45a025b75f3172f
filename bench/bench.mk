# bench/: the benchmarks. Each has a generic half (bench/NAME.c) that runs
# in the kernel (`bench NAME`, TSC cycles) and in a host program (make
# bench, ns), the bench records every table is printed as, and the
# hobby-kernel bitmap allocator the page allocator is measured against.
BENCH_GENERIC_SRCS += bench/benchrec.c bench/bitmap_alloc.c bench/page_alloc.c \
	bench/clear.c bench/madvise.c bench/pageblock.c bench/fragment.c bench/fork.c
TEST_SRCS += bench/tests/benchrec_test.c

# --- host-native benchmarks (make bench) -------------------------------------
# -O2, no sanitizers, DEBUG_VM off (its own copy of config.h), so they
# measure the mm code rather than the checks. Each program runs one
# benchmark's generic half as a process, in ns: bench-page-alloc (buddy vs
# bitmap), bench-clear (clear_pages per instruction and extent,
# folio_zero_user per strategy), bench-madvise (split vs batched MADV_FREE
# of 1 GiB), bench-fork (fork, exit, reuse, copy, munmap, mprotect and mremap of a 1 GiB parent,
# batched vs per-page), bench-pageblock (the mixed-size workload at this build's
# pageblock order), bench-fragment (the fragmentation experiment: THP
# success without and with compaction at this build's pageblock order).
BENCH_CFLAGS := -std=gnu11 -O2 -g $(COMMON_WARN) -Iinclude -Iarch/host/include \
	-I$(B)/bench/include -I$(B)/include -DFOLIUM_HOST -MMD -MP
$(B)/bench/include/generated/config.h: $(B)/include/generated/config.h
	@mkdir -p $(@D)
	$(Q)sed 's/^#define CONFIG_DEBUG_VM .*/#define CONFIG_DEBUG_VM 0/' $< > $@
$(B)/bench-obj/%.o: %.c $(B)/bench/include/generated/config.h | $(B)/include/version.h
	@mkdir -p $(@D)
	@echo "  BENCHCC $<"
	$(Q)clang $(BENCH_CFLAGS) -c $< -o $@

# sort: once each, whichever of these VM_HOST_SRCS already lists.
BENCH_HOST_SRCS := $(sort $(VM_HOST_SRCS) mm/memblock.c mm/cma.c mm/memory_hotplug.c \
	mm/page_owner.c mm/compaction.c shell/shell.c shell/jobs.c fs/ramfs.c fs/inode.c mm/shmem.c $(BENCH_GENERIC_SRCS) \
	bench/host/start.c)
BENCH_HOST_OBJS := $(patsubst %.c,$(B)/bench-obj/%.o,$(BENCH_HOST_SRCS))
BENCH_PROGRAMS := $(addprefix $(B)/bench-,page-alloc clear madvise pageblock fragment fork)
$(B)/bench-page-alloc: $(B)/bench-obj/bench/host/page_alloc.o
$(B)/bench-clear: $(B)/bench-obj/bench/host/clear.o
$(B)/bench-madvise: $(B)/bench-obj/bench/host/madvise.o
$(B)/bench-fork: $(B)/bench-obj/bench/host/fork.o
$(B)/bench-pageblock: $(B)/bench-obj/bench/host/pageblock.o
$(B)/bench-fragment: $(B)/bench-obj/bench/host/fragment.o
$(BENCH_PROGRAMS): $(BENCH_HOST_OBJS)
	@echo "  LINK    $@"
	$(Q)clang -o $@ $^
.PHONY: bench-host
bench-host: $(BENCH_PROGRAMS)
