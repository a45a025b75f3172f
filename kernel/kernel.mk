# kernel/: generic C that builds into the kernel and into the host test
# program, kernel-only C, and the ktest suites.
KERNEL_GENERIC_SRCS += \
	kernel/lib/format.c \
	kernel/printk.c \
	kernel/console.c \
	kernel/cmdline.c \
	kernel/ktest.c \
	kernel/shell.c \
	kernel/ksyms.c

KERNEL_ONLY_SRCS += \
	kernel/lib/string.c \
	kernel/main.c \
	kernel/panic.c \
	kernel/commands.c

TEST_SRCS += \
	kernel/tests/format_test.c \
	kernel/tests/cmdline_test.c \
	kernel/tests/printk_test.c \
	kernel/tests/shell_test.c \
	kernel/tests/ksyms_test.c
