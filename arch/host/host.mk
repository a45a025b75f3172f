# arch/host/: the arch hooks as a user process, for the host test program.
HOST_ARCH_SRCS += \
	arch/host/arch.c \
	arch/host/phys.c \
	arch/host/test_main.c
