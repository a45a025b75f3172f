# boot/boot.mk: the UEFI loader, $(B)/BOOTX64.EFI, built with gnu-efi.
# Included by the top-level Makefile, which defines B (the build directory).
# The loader is a PE32+ made the gnu-efi way: compile position-independent
# with the MS calling convention for firmware calls, link a shared ELF with
# gnu-efi's crt0 and linker script, then convert it with objcopy.

BOOT_GENERIC_SRCS := boot/elf_check.c
BOOT_TEST_SRCS := boot/tests/elf_check_test.c

BOOT_EFI_INC ?= /usr/include/efi
BOOT_EFI_LIB ?= /usr/lib
BOOT_CC ?= gcc
BOOT_LD ?= ld
BOOT_OBJCOPY ?= objcopy

BOOT_SRCS := boot/loader.c boot/console.c boot/fs.c boot/video.c \
	boot/firmware.c boot/paging.c boot/elf_check.c
BOOT_OBJS := $(patsubst boot/%.c,$(B)/boot/efi/%.o,$(BOOT_SRCS))

BOOT_CFLAGS := -std=gnu11 -O2 -g -Wall -Wextra -Werror \
	-ffreestanding -fno-stack-protector -fno-stack-check -fpic \
	-fshort-wchar -mno-red-zone -mgeneral-regs-only \
	-DGNU_EFI_USE_MS_ABI \
	-isystem $(BOOT_EFI_INC) -isystem $(BOOT_EFI_INC)/x86_64 \
	-Iinclude -Iboot -MMD -MP
BOOT_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic \
	-T $(BOOT_EFI_LIB)/elf_x86_64_efi.lds
BOOT_SECTIONS := .text .sdata .data .dynamic .dynsym .rel .rela .reloc

$(B)/boot/efi/%.o: boot/%.c boot/boot.mk
	@mkdir -p $(@D)
	@echo "  EFICC   $<"
	$(Q)$(BOOT_CC) $(BOOT_CFLAGS) -c $< -o $@

# libefi only supplies memset/memcpy for compiler-generated calls.
$(B)/boot/efi/loader.so: $(BOOT_OBJS)
	@echo "  EFILD   $@"
	$(Q)$(BOOT_LD) $(BOOT_LDFLAGS) $(BOOT_EFI_LIB)/crt0-efi-x86_64.o $^ \
		-o $@ -L$(BOOT_EFI_LIB) -lefi -lgnuefi

$(B)/BOOTX64.EFI: $(B)/boot/efi/loader.so
	@echo "  PE32+   $@"
	$(Q)$(BOOT_OBJCOPY) $(addprefix -j ,$(BOOT_SECTIONS)) \
		--target efi-app-x86_64 --subsystem=10 $< $@

-include $(BOOT_OBJS:.o=.d)
