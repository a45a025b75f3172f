# arch/host/: the arch hooks as a user process, for the host test program.
HOST_ARCH_SRCS += \
	arch/host/arch.c \
	arch/host/cpu.c \
	arch/host/phys.c \
	arch/host/test_main.c
# More CPUs as a model: host_cpu, IPIs delivered at once on the target.
HOST_ARCH_SRCS += arch/host/smp.c
# clear_pages() on the host: the same two instructions.
HOST_ARCH_SRCS += arch/host/clear.c
# copy_thread for kernel/fork.c.
HOST_ARCH_SRCS += arch/host/process.c
# The TLB/CR3 hooks and the software MMU.
HOST_ARCH_SRCS += arch/host/mmu.c
# copy_to_user & co. over the software MMU, faulting pages in.
HOST_ARCH_SRCS += arch/host/uaccess.c
# The TLB model's tests: host only, they look into the software TLB.
HOST_ARCH_SRCS += mm/tests/tlb_model_test.c
# TLB shootdown on the model of four CPUs, a TLB each.
HOST_ARCH_SRCS += mm/tests/tlb_shootdown_test.c
# vmalloc through the host's mappings: a guard page or a freed area
# faults (a caught SIGSEGV), as only the host can show without an oops.
# The probe needs libc's <signal.h>, which include/'s would hide.
HOST_ARCH_SRCS += mm/tests/vmalloc_host_test.c arch/host/fault_probe.c
HOST_PROBE_CFLAGS := $(filter-out -Iinclude,$(HOST_TEST_CFLAGS))
$(B)/host-obj/arch/host/fault_probe.o: HOST_TEST_CFLAGS = $(HOST_PROBE_CFLAGS)
