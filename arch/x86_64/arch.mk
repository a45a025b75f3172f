# arch/x86_64/: the real machine.
ARCH_X86_SRCS += \
	arch/x86_64/setup.c \
	arch/x86_64/cpu.c \
	arch/x86_64/cpuinfo.c \
	arch/x86_64/gdt.c \
	arch/x86_64/idt.c \
	arch/x86_64/traps.c \
	arch/x86_64/paging.c \
	arch/x86_64/serial.c \
	arch/x86_64/irq.c \
	arch/x86_64/apic.c \
	arch/x86_64/tsc.c \
	arch/x86_64/stacktrace.c \
	arch/x86_64/memmap.c \
	arch/x86_64/cmd_crash.c \
	arch/x86_64/cmd_machine.c

ARCH_X86_ASMS += \
	arch/x86_64/entry.asm \
	arch/x86_64/trap_entry.asm

KERNEL_ONLY_TEST_SRCS += \
	arch/x86_64/tests/paging_test.c \
	arch/x86_64/tests/tick_test.c

# Drivers: PS/2 keyboard, reboot/poweroff, the console font.
ARCH_X86_SRCS += arch/x86_64/i8042.c arch/x86_64/power.c
ARCH_X86_ASMS += arch/x86_64/font.asm
# clear_pages(): rep stosb / rep stosq.
ARCH_X86_SRCS += arch/x86_64/clear.c
# TLB flushes, CR3 switches and the kernel half of every mm's top table.
ARCH_X86_SRCS += arch/x86_64/tlb.c
# #PF in the lower half, exception-table fixups and the uaccess copies.
ARCH_X86_SRCS += arch/x86_64/fault.c
# The CMOS clock (CLOCK_REALTIME's start) and RDSEED/RDRAND (kernel/random.c).
ARCH_X86_SRCS += arch/x86_64/rtc.c arch/x86_64/random.c
ARCH_X86_ASMS += arch/x86_64/uaccess.asm
# Ring 3: SYSCALL/SYSRET, entering and leaving a program; the task switch.
ARCH_X86_SRCS += arch/x86_64/syscall.c arch/x86_64/process.c
# The other CPUs: the trampoline below 1 MiB, INIT-SIPI-SIPI, the IPIs.
ARCH_X86_SRCS += arch/x86_64/smpboot.c arch/x86_64/proc_interrupts.c
ARCH_X86_ASMS += arch/x86_64/trampoline.asm
ARCH_X86_ASMS += arch/x86_64/syscall_entry.asm
# Signal frames and the return to ring 3 (exit_to_user_mode).
ARCH_X86_SRCS += arch/x86_64/signal.c
# The FPU/SSE/AVX state per task (XSAVE where present), in signal frames too.
ARCH_X86_SRCS += arch/x86_64/fpu.c arch/x86_64/fpu_signal.c
KERNEL_ONLY_TEST_SRCS += arch/x86_64/tests/fpu_test.c
# /proc/cpuinfo (Linux: arch/x86/kernel/cpu/proc.c).
ARCH_X86_SRCS += arch/x86_64/proc_cpuinfo.c
