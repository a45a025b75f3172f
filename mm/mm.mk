# mm/: generic memory management, built into the kernel and the host
# test program (no x86 or libc knowledge), and its tests.
MM_GENERIC_SRCS +=

TEST_SRCS +=
MM_GENERIC_SRCS += mm/memblock.c
TEST_SRCS += mm/tests/memblock_test.c
MM_GENERIC_SRCS += mm/show_mem.c
# Boot-time memory (node 0, vmemmap sections, mm_test_memory, meminfo):
# kernel only, the host has its own mm_test_memory in arch/host/phys.c.
KERNEL_ONLY_SRCS += mm/boot.c
# The buddy allocator, node/zone set-up and the DEBUG_VM checks.
MM_GENERIC_SRCS += mm/mm_init.c mm/page_alloc.c mm/debug_vm.c
TEST_SRCS += mm/tests/mm_test_util.c mm/tests/page_alloc_test.c
# Folios, page isolation, migration and CMA.
MM_GENERIC_SRCS += mm/folio.c mm/page_isolation.c mm/migrate.c mm/cma.c
TEST_SRCS += mm/tests/folio_test.c mm/tests/cma_test.c
# The hobby-kernel bitmap allocator, the benchmark's baseline, and the
# benchmark itself (`bench alloc` in the kernel, make bench on the host).
MM_GENERIC_SRCS += mm/bitmap_alloc.c mm/bench_page_alloc.c mm/bench.c

# --- fuzzing and benchmarking the buddy allocator (host only) ---------------
# What the allocator needs to run as a process: the buddy core, folios
# (prep_compound_page), printk and the host arch hooks.
BUDDY_HOST_SRCS := mm/mm_init.c mm/page_alloc.c mm/debug_vm.c mm/folio.c \
	kernel/lib/format.c kernel/printk.c kernel/console.c \
	arch/host/arch.c arch/host/phys.c

# libFuzzer: every object instrumented for coverage, ASan and UBSan.
# `make fuzz` runs 10 minutes, `make fuzz-smoke` 20 seconds (make test).
FUZZ_CFLAGS = $(HOST_TEST_CFLAGS) -fsanitize=fuzzer-no-link
FUZZ_OBJS := $(patsubst %.c,$(B)/fuzz-obj/%.o,$(BUDDY_HOST_SRCS) mm/tests/fuzz_page_alloc.c)
$(B)/fuzz-obj/%.o: %.c | $(B)/include/generated/config.h $(B)/include/version.h
	@mkdir -p $(@D)
	@echo "  FUZZCC  $<"
	$(Q)clang $(FUZZ_CFLAGS) -c $< -o $@
$(B)/fuzz-page-alloc: $(FUZZ_OBJS)
	@echo "  LINK    $@"
	$(Q)clang $(HOST_TEST_CFLAGS) -fsanitize=fuzzer -o $@ $^
.PHONY: fuzz fuzz-smoke
fuzz: $(B)/fuzz-page-alloc
	@mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-page-alloc -max_total_time=600 -max_len=4096 $(B)/fuzz-corpus
fuzz-smoke: $(B)/fuzz-page-alloc
	@mkdir -p $(B)/fuzz-corpus
	$(B)/fuzz-page-alloc -max_total_time=20 -max_len=4096 $(B)/fuzz-corpus

# The host-native benchmark: -O2, no sanitizers, DEBUG_VM off (its own
# copy of config.h), so it measures the allocator rather than the checks.
BENCH_CFLAGS := -std=gnu11 -O2 -g $(COMMON_WARN) -Iinclude -Iarch/host/include \
	-I$(B)/bench/include -DFOLIUM_HOST -MMD -MP
BENCH_OBJS := $(patsubst %.c,$(B)/bench-obj/%.o,$(BUDDY_HOST_SRCS) \
	mm/bitmap_alloc.c mm/bench_page_alloc.c arch/host/bench_main.c arch/host/bench_host.c)
$(B)/bench/include/generated/config.h: $(B)/include/generated/config.h
	@mkdir -p $(@D)
	$(Q)sed 's/^#define CONFIG_DEBUG_VM .*/#define CONFIG_DEBUG_VM 0/' $< > $@
$(B)/bench-obj/%.o: %.c $(B)/bench/include/generated/config.h | $(B)/include/version.h
	@mkdir -p $(@D)
	@echo "  BENCHCC $<"
	$(Q)clang $(BENCH_CFLAGS) -c $< -o $@
$(B)/bench-page-alloc: $(BENCH_OBJS)
	@echo "  LINK    $@"
	$(Q)clang -o $@ $^
.PHONY: bench-host
bench-host: $(B)/bench-page-alloc
	$(B)/bench-page-alloc
# Clearing: folio_zero_user's strategies (clear_pages is arch code), its
# tests, and the clearing benchmark (`bench clear`, make bench).
MM_GENERIC_SRCS += mm/clear.c mm/bench_clear.c
TEST_SRCS += mm/tests/clear_test.c
# Address spaces: page tables, TLB flushing, VMAs and munmap, their shell
# commands (vmas, map, unmap, ptdump).
MM_GENERIC_SRCS += mm/pgtable.c mm/tlb.c mm/mmap.c mm/vm_commands.c
TEST_SRCS += mm/tests/pgtable_test.c mm/tests/mmap_test.c
# The host-native clearing benchmark (make bench): clear_pages per
# instruction and extent, folio_zero_user per strategy, in ns.
BENCH_CLEAR_OBJS := $(patsubst %.c,$(B)/bench-obj/%.o,$(BUDDY_HOST_SRCS) kernel/cmdline.c \
	mm/clear.c mm/bench_clear.c arch/host/clear.c arch/host/bench_clear.c arch/host/bench_host.c)
$(B)/bench-clear: $(BENCH_CLEAR_OBJS)
	@echo "  LINK    $@"
	$(Q)clang -o $@ $^
# Anonymous faults with large folios, mTHP orders and stats (`thp`), the
# reverse map and migration hook, and the workloads (usemem, poke, peek).
MM_GENERIC_SRCS += mm/memory.c mm/huge_memory.c mm/rmap.c mm/usemem.c
TEST_SRCS += mm/tests/fault_test.c
