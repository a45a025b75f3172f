# mm/: generic memory management, built into the kernel and the host
# test program (no x86 or libc knowledge), and its tests.
MM_GENERIC_SRCS +=

TEST_SRCS +=
