# kernel/: the kernel's own services. Generic C that builds into the
# kernel and into the host test program, kernel-only C, and the ktest
# suites.
KERNEL_GENERIC_SRCS += \
	kernel/printk.c \
	kernel/console.c \
	kernel/cmdline.c \
	kernel/ktest.c \
	kernel/ksyms.c

KERNEL_ONLY_SRCS += kernel/panic.c
# User programs: exec, exit and the system calls (ring 3 needs the machine).
KERNEL_ONLY_SRCS += kernel/exec.c kernel/syscall.c
KERNEL_ONLY_TEST_SRCS += kernel/tests/syscall_test.c

TEST_SRCS += \
	kernel/tests/cmdline_test.c \
	kernel/tests/printk_test.c \
	kernel/tests/ksyms_test.c

# Drivers: framebuffer console, keyboard translation, ACPI tables.
KERNEL_GENERIC_SRCS += kernel/psf.c kernel/fbcon.c kernel/keymap.c kernel/acpi.c
KERNEL_ONLY_SRCS += kernel/fbcon_boot.c
TEST_SRCS += kernel/tests/fbcon_test.c kernel/tests/keymap_test.c \
	kernel/tests/acpi_test.c

# The console font comes from Debian's console-setup-linux at build time
# (FONT, set in the top-level Makefile); arch/x86_64/font.asm incbins it.
$(B)/font.psf: $(FONT)
	@mkdir -p $(@D)
	$(Q)gzip -dc $< > $@
$(B)/kernel-obj/arch/x86_64/font.o: $(B)/font.psf
