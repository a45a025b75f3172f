# Folium: the one build. `make` builds the loader, the kernel and the disk
# image; `make run` boots it in QEMU; `make test` runs every test and ends
# with "N passed, N failed". Config knobs: see config.mk (`make config`).
# Everything the build writes goes under build/.

# O=DIR puts every output under DIR instead of build/ (as Linux's O=).
B := $(if $(O),$(O),build)
# V=1 shows every command.
Q := $(if $(filter 1,$(V)),,@)
.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:
MAKEFLAGS += --no-builtin-rules

include config.mk

# --- knob checks: each CONFIG_KNOBS entry is NAME:default:min:max:help ------
knob_name = $(word 1,$(subst :, ,$(1)))
knob_min = $(word 3,$(subst :, ,$(1)))
knob_max = $(word 4,$(subst :, ,$(1)))
knob_help = $(subst ~, ,$(word 5,$(subst :, ,$(1))))
knob_value = $($(call knob_name,$(1)))
knob_is_bool = $(filter n,$(call knob_min,$(1)))
knob_in_range = $(if $(call knob_is_bool,$(1)),$(filter y n,$(call knob_value,$(1))),$(shell \
	echo '$(call knob_value,$(1))' | grep -qx '[0-9][0-9]*' && \
	[ '$(call knob_value,$(1))' -ge $(call knob_min,$(1)) ] && \
	[ '$(call knob_value,$(1))' -le $(call knob_max,$(1)) ] && echo ok))
knob_range = $(if $(call knob_is_bool,$(1)),y or n,an integer in $(call \
	knob_min,$(1))..$(call knob_max,$(1)))
check_knob = $(if $(call knob_in_range,$(1)),,$(error $(call knob_name,$(1))=$(call \
	knob_value,$(1)) is out of range: must be $(call knob_range,$(1)) \
	($(call knob_help,$(1))); see config.mk))
# y/n knobs become 1/0 in config.h, so C code tests them with #if.
knob_c_value = $(if $(call knob_is_bool,$(1)),$(if $(filter y,$(call \
	knob_value,$(1))),1,0),$(call knob_value,$(1)))
$(foreach k,$(CONFIG_KNOBS),$(call check_knob,$(k)))
KNOB_NAMES := $(foreach k,$(CONFIG_KNOBS),$(call knob_name,$(k)))

# --- toolchain -------------------------------------------------------------
KCC := clang
NASM := nasm
KLD := ld.lld
HOSTCC ?= cc
HOST_TEST_CC := clang

COMMON_WARN := -Wall -Wextra -Werror -Wno-unused-parameter
KCFLAGS := --target=x86_64-unknown-none-elf -std=gnu11 -ffreestanding \
	-fno-builtin -nostdlib -mno-red-zone -mcmodel=kernel -fno-pic -fno-pie \
	-mno-mmx -mno-sse -mno-sse2 -mno-3dnow -mno-avx -fno-stack-protector \
	-fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
	-fno-asynchronous-unwind-tables -O2 -g $(COMMON_WARN) \
	-Iinclude -Iinclude/klibc -Iarch/x86_64/include -I$(B)/include \
	-DFOLIUM_KERNEL -MMD -MP
HOST_TEST_CFLAGS := -std=gnu11 -O1 -g -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all $(COMMON_WARN) \
	-Iinclude -Iarch/host/include -I$(B)/include -DFOLIUM_HOST -MMD -MP

# The console font: taken from Debian's console-setup-linux at build time.
FONT := /usr/share/consolefonts/Uni2-Fixed16.psf.gz
LIB_GENERIC_SRCS :=
KERNEL_GENERIC_SRCS :=
MM_GENERIC_SRCS :=
BENCH_GENERIC_SRCS :=
SHELL_GENERIC_SRCS :=
FS_GENERIC_SRCS :=
KERNEL_ONLY_SRCS :=
ARCH_X86_SRCS :=
ARCH_X86_ASMS :=
HOST_ARCH_SRCS :=
TEST_SRCS :=
KERNEL_ONLY_TEST_SRCS :=
include lib/lib.mk init/init.mk kernel/kernel.mk mm/mm.mk arch/x86_64/arch.mk arch/host/host.mk
include boot/boot.mk shell/shell.mk bench/bench.mk tools/tools.mk fs/fs.mk fs/exec.mk

# --- dependencies (Debian packages) ------------------------------------------
# Checked once per build tree (again when tools/deps.sh changes), before
# any rule runs, so a fresh Debian machine needs nothing but `make run` or
# `make test`.
DEPS_STAMP := $(B)/.deps-ok
ifeq ($(filter deps clean config,$(MAKECMDGOALS)),)
# A new package in tools/deps.sh makes an existing tree check again.
ifneq ($(wildcard $(DEPS_STAMP)),)
DEPS_STALE := $(shell [ tools/deps.sh -nt $(DEPS_STAMP) ] && echo stale)
else
DEPS_STALE := stale
endif
ifeq ($(DEPS_STALE),stale)
DEPS_OK := $(shell sh tools/deps.sh >&2 && mkdir -p $(B) && touch $(DEPS_STAMP) && echo ok)
$(if $(DEPS_OK),,$(error missing build dependencies: see the messages above))
endif
endif
.PHONY: deps
deps:
	@sh tools/deps.sh

# --- generated config header (rewritten only when a value changes) ----------
CONFIG_H := $(B)/include/generated/config.h
$(CONFIG_H): FORCE
	@mkdir -p $(@D)
	@{ echo '/* Generated from config.mk by make: do not edit. */'; \
	   echo '#ifndef FOLIUM_GENERATED_CONFIG_H'; \
	   echo '#define FOLIUM_GENERATED_CONFIG_H'; \
	   $(foreach k,$(CONFIG_KNOBS),echo '#define $(call knob_name,$(k)) $(call knob_c_value,$(k))';) \
	   echo '#define CONFIG_SUMMARY "$(foreach n,$(KNOB_NAMES),$(n)=$($(n)))"'; \
	   echo '#endif'; } > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The version gets its own header so a new commit rebuilds one object.
FOLIUM_VERSION := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
VERSION_H := $(B)/include/version.h
$(VERSION_H): FORCE
	@mkdir -p $(@D)
	@echo '#define FOLIUM_VERSION "$(FOLIUM_VERSION)"' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi

# The kernel's compiler flags and the headers make generates before any
# object compiles, for tools/seed-objects.sh.
.PHONY: print-kcflags generated-headers
generated-headers: $(CONFIG_H) $(VERSION_H) $(B)/include/generated/syscall_names.h
print-kcflags:
	@echo '$(KCFLAGS)'

.PHONY: config
config:
	@$(foreach k,$(CONFIG_KNOBS),printf '%-28s %-4s (%s) %s\n' \
		'$(call knob_name,$(k))' '$(call knob_value,$(k))' \
		'$(call knob_range,$(k))' '$(call knob_help,$(k))';)

# --- kernel ----------------------------------------------------------------
KSRCS := $(LIB_GENERIC_SRCS) $(KERNEL_GENERIC_SRCS) $(MM_GENERIC_SRCS) $(BENCH_GENERIC_SRCS) $(SHELL_GENERIC_SRCS) $(FS_GENERIC_SRCS) $(KERNEL_ONLY_SRCS) $(ARCH_X86_SRCS) \
	$(BOOT_GENERIC_SRCS) $(TEST_SRCS) $(BOOT_TEST_SRCS) $(KERNEL_ONLY_TEST_SRCS)
KOBJS := $(patsubst %.c,$(B)/kernel-obj/%.o,$(KSRCS)) \
	$(patsubst %.asm,$(B)/kernel-obj/%.o,$(ARCH_X86_ASMS))

$(B)/kernel-obj/%.o: %.c | $(CONFIG_H) $(VERSION_H)
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@
$(B)/kernel-obj/%.o: %.asm
	@mkdir -p $(@D)
	@echo "  NASM    $<"
	$(Q)$(NASM) -f elf64 -g -F dwarf -MD $(@:.o=.d) -MP -I$(B)/ -o $@ $<

# Two links: the first with an empty symbol table, the second with the
# table generated from the first. .ksyms is last in linker.ld, so code
# addresses cannot move; the check below proves it on every build.
$(B)/kernel-obj/ksyms0.c: tools/ksyms.sh
	@mkdir -p $(@D)
	$(Q)sh tools/ksyms.sh > $@
$(B)/folium.elf.0: $(KOBJS) $(B)/kernel-obj/ksyms0.o linker.ld
	@echo "  LD      $@"
	$(Q)$(KLD) -T linker.ld -nostdlib -z max-page-size=4096 -o $@ $(KOBJS) $(B)/kernel-obj/ksyms0.o
$(B)/kernel-obj/ksyms1.c: $(B)/folium.elf.0 tools/ksyms.sh
	@echo "  KSYMS   $@"
	$(Q)sh tools/ksyms.sh $< > $@
$(B)/kernel-obj/ksyms%.o: $(B)/kernel-obj/ksyms%.c
	$(Q)$(KCC) $(KCFLAGS) -c $< -o $@
$(B)/folium.elf: $(KOBJS) $(B)/kernel-obj/ksyms1.o linker.ld
	@echo "  LD      $@"
	$(Q)$(KLD) -T linker.ld -nostdlib -z max-page-size=4096 -o $@ $(KOBJS) $(B)/kernel-obj/ksyms1.o
	@sh tools/ksyms.sh $(B)/folium.elf.0 | cmp -s - $(B)/kernel-obj/ksyms1.c || \
		{ echo "ksyms: code moved between links; check linker.ld" >&2; rm -f $@; exit 1; }

# --- disk image ------------------------------------------------------------
CMDLINE ?=
$(B)/cmdline.txt: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' '$(CMDLINE)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(B)/folium.img: $(B)/BOOTX64.EFI $(B)/folium.elf $(B)/cmdline.txt $(B)/initramfs.cpio \
		tools/mkimage.sh
	sh tools/mkimage.sh $@ $(B)/BOOTX64.EFI $(B)/folium.elf $(B)/cmdline.txt \
		$(B)/initramfs.cpio

# --- user programs: each user/NAME.c is a static Linux program /bin/NAME ----
include user/user.mk

# --- initramfs: user/ (but its README, C sources, headers, user.mk) as a cpio
# "newc" archive, with the user programs in /bin.
# Reproducible: a staging copy with mtimes 0, group/other write bits off,
# names sorted, owners 0:0, inode numbers renumbered (--reproducible).
INITRAMFS_INPUTS := $(shell find user 2>/dev/null)
$(B)/initramfs-own.cpio: $(INITRAMFS_INPUTS) $(USER_PROGS)
	@echo "  CPIO    $@"
	$(Q)rm -rf $(B)/initramfs-root && mkdir -p $(B) && cp -R user $(B)/initramfs-root && \
		rm -f $(B)/initramfs-root/README.md $(B)/initramfs-root/*.c \
			$(B)/initramfs-root/*.h $(B)/initramfs-root/*.mk && \
		mkdir -p $(B)/initramfs-root/bin && \
		$(if $(USER_PROGS),cp $(USER_PROGS) $(B)/initramfs-root/bin/ &&) \
		chmod -R u+rwX,go+rX,go-w $(B)/initramfs-root && \
		find $(B)/initramfs-root -exec touch -h -d @0 {} + && \
		(cd $(B)/initramfs-root && find . -mindepth 1 | LC_ALL=C sort | \
		 cpio -o -H newc --reproducible --owner=0:0 --quiet) > $@.tmp && mv $@.tmp $@

# --- the distribution's programs: Debian's busybox-static and bash-static
# (config.mk pins them; tools/fetch-programs.sh fetches them as data into
# $(B)/distro/, never installed) as a second archive: /bin/busybox with a
# link per applet (but names /bin has already: init) and /bin/bash. The
# initramfs every kernel boots is the two archives one after the other,
# so Folium, Linux 6.1 and Linux 7.3 run the very same shells.
DISTRO_PINS := busybox busybox-static $(BUSYBOX_VERSION) ./bin/busybox \
	bash bash-static $(BASH_VERSION) ./bin/bash-static
$(B)/distro/pins: FORCE
	@mkdir -p $(@D)
	@echo '$(DISTRO_SUITE) $(DISTRO_PINS)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(B)/distro/busybox $(B)/distro/bash &: $(B)/distro/pins tools/fetch-programs.sh \
		tools/debian-archive.sh
	$(Q)sh tools/fetch-programs.sh $(B)/distro $(DISTRO_SUITE) $(DISTRO_PINS) && \
		touch $(B)/distro/busybox $(B)/distro/bash
$(B)/distro.cpio: $(B)/distro/busybox $(B)/distro/bash $(USER_PROGS)
	@echo "  CPIO    $@"
	$(Q)rm -rf $(B)/distro-root && mkdir -p $(B)/distro-root/bin && \
		cp $(B)/distro/busybox $(B)/distro/bash $(B)/distro-root/bin/ && \
		for a in $$($(B)/distro/busybox --list); do \
			[ -e $(B)/distro-root/bin/$$a ] || [ -e user/$$a.c ] || \
				ln -s busybox $(B)/distro-root/bin/$$a || exit 1; \
		done && \
		find $(B)/distro-root -exec touch -h -d @0 {} + && \
		(cd $(B)/distro-root && find . -mindepth 1 | LC_ALL=C sort | \
		 cpio -o -H newc --reproducible --owner=0:0 --quiet) > $@.tmp && mv $@.tmp $@
# Programs of this machine, dynamically linked ones with their loader and
# libraries (tools/initramfs-extra.sh), as a third archive:
# `make initramfs-extra PROGS="ls cat grep"`, then `make run`; without
# PROGS the archive is emptied again.
.PHONY: initramfs-extra
initramfs-extra:
	@mkdir -p $(B)
	$(Q)sh tools/initramfs-extra.sh $(B)/initramfs-extra.cpio $(PROGS)
$(B)/initramfs-extra.cpio:
	@mkdir -p $(@D)
	$(Q): > $@
$(B)/initramfs.cpio: $(B)/initramfs-own.cpio $(B)/distro.cpio $(B)/initramfs-extra.cpio
	$(Q)cat $(B)/initramfs-own.cpio $(B)/distro.cpio $(B)/initramfs-extra.cpio > $@.tmp && \
		mv $@.tmp $@

# --- the Linux side of the side-by-side: two of Debian's kernels (config.mk
# pins them; tools/fetch-linux.sh fetches each as data into $(B)/linux/)
# boot in the same QEMU (tools/qemu-run.sh --kernel) with Folium's
# initramfs plus one more archive holding /init (user/init.c, which runs
# the programs named on the kernel command line and powers off), so all
# three kernels run the very same /bin files. LINUX_OLD_VMLINUZ or
# LINUX_NEW_VMLINUZ set to another file boots that one instead.
LINUX_OLD_VMLINUZ ?= $(B)/linux/$(LINUX_OLD_VERSION)/vmlinuz
LINUX_NEW_VMLINUZ ?= $(B)/linux/$(LINUX_NEW_VERSION)/vmlinuz
LINUX_KERNELS := $(LINUX_OLD_VMLINUZ) $(LINUX_NEW_VMLINUZ)
export DEBIAN_MIRROR
$(B)/linux/$(LINUX_OLD_VERSION)/vmlinuz: tools/fetch-linux.sh
	$(Q)sh tools/fetch-linux.sh $(@D) $(LINUX_OLD_SUITE) $(LINUX_OLD_PACKAGE) \
		$(LINUX_OLD_VERSION) $(LINUX_OLD_CONFIG_PACKAGE) && touch $@
$(B)/linux/$(LINUX_NEW_VERSION)/vmlinuz: tools/fetch-linux.sh
	$(Q)sh tools/fetch-linux.sh $(@D) $(LINUX_NEW_SUITE) $(LINUX_NEW_PACKAGE) \
		$(LINUX_NEW_VERSION) $(LINUX_NEW_CONFIG_PACKAGE) && touch $@
# `make -s print-LINUX_NEW_VMLINUZ`: the kernel the tests and benchmarks boot.
.PHONY: print-LINUX_OLD_VMLINUZ print-LINUX_NEW_VMLINUZ
print-LINUX_OLD_VMLINUZ print-LINUX_NEW_VMLINUZ: print-%:
	@echo $($*)
# The environment the test and benchmark scripts read the kernels from.
LINUX_ENV := LINUX_OLD_VMLINUZ=$(LINUX_OLD_VMLINUZ) LINUX_NEW_VMLINUZ=$(LINUX_NEW_VMLINUZ) \
	LINUX_NEW_PIN="$(LINUX_NEW_SUITE) $(LINUX_NEW_PACKAGE) $(LINUX_NEW_VERSION) $(LINUX_NEW_CONFIG_PACKAGE)" \
	DISTRO_PIN="$(DISTRO_SUITE) busybox busybox-static $(BUSYBOX_VERSION) ./bin/busybox"
# make deps: the packages, then the kernels.
deps: $(LINUX_KERNELS) $(B)/distro/busybox $(B)/distro/bash
$(B)/linux-initramfs.cpio: $(B)/initramfs.cpio $(B)/user/init
	@echo "  CPIO    $@"
	$(Q)rm -rf $(B)/linux-init-root && mkdir -p $(B)/linux-init-root && \
		cp $(B)/user/init $(B)/linux-init-root/init && \
		touch -h -d @0 $(B)/linux-init-root/init && \
		(cd $(B)/linux-init-root && echo init | \
		 cpio -o -H newc --reproducible --owner=0:0 --quiet) > $@.init && \
		cat $(B)/initramfs.cpio $@.init > $@.tmp && rm $@.init && mv $@.tmp $@

.PHONY: all
all: $(B)/BOOTX64.EFI $(B)/folium.elf $(B)/folium.img $(B)/linux-initramfs.cpio

# --- running ---------------------------------------------------------------
QEMU_MEM ?= 512M
QEMU_CPUS ?= 2
QEMU_RUN := sh tools/qemu-run.sh --mem $(QEMU_MEM) --cpus $(QEMU_CPUS)
.PHONY: run run-usb debug
run: all
	$(QEMU_RUN) --interactive --image $(B)/folium.img
run-usb: all
	$(QEMU_RUN) --interactive --usb --image $(B)/folium.img
debug: all
	@echo "In another terminal: gdb $(B)/folium.elf -ex 'target remote :1234'"
	$(QEMU_RUN) --interactive --gdb --image $(B)/folium.img

# --- host test program -----------------------------------------------------
HOST_TEST_SRCS := $(LIB_GENERIC_SRCS) $(KERNEL_GENERIC_SRCS) $(MM_GENERIC_SRCS) $(BENCH_GENERIC_SRCS) $(SHELL_GENERIC_SRCS) $(FS_GENERIC_SRCS) $(BOOT_GENERIC_SRCS) $(TEST_SRCS) \
	$(BOOT_TEST_SRCS) $(HOST_ARCH_SRCS)
HOST_TEST_OBJS := $(patsubst %.c,$(B)/host-obj/%.o,$(HOST_TEST_SRCS))
$(B)/host-obj/%.o: %.c | $(CONFIG_H) $(VERSION_H)
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	$(Q)$(HOST_TEST_CC) $(HOST_TEST_CFLAGS) -c $< -o $@
$(B)/host-tests: $(HOST_TEST_OBJS)
	@echo "  LINK    $@"
	$(Q)$(HOST_TEST_CC) $(HOST_TEST_CFLAGS) -o $@ $^

# --- tests -----------------------------------------------------------------
# The C sources follow .clang-format (make test checks it).
.PHONY: format format-check
format:
	@sh tools/check-format.sh --fix
format-check:
	@sh tools/check-format.sh

.PHONY: test host-test
host-test: $(B)/host-tests $(B)/tools/ktap
	$(B)/host-tests > $(B)/host-tests.ktap; $(B)/tools/ktap $(B)/host-tests.ktap
# What the tests need is built with every core first (unless make was
# given a -j of its own): make test on a fresh machine is mostly this
# build and the tests' QEMU boots, which run two at a time themselves.
NPROC := $(shell nproc 2>/dev/null || echo 1)
test:
	+@$(MAKE) --no-print-directory $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC)) \
		all $(B)/host-tests $(TOOLS_BINS) $(LINUX_KERNELS)
	@$(LINUX_ENV) sh tools/run-tests.sh

# Mutation checks (not part of make test: about a minute per mutant): each
# one-line mutation in tools/mutants.txt must make a host test fail.
.PHONY: mutants
mutants: $(DEPS_STAMP)
	@sh tools/mutants.sh --dir $(B)/mutants

# --- benchmarks (never part of make test) --------------------------------
# The in-kernel run uses its own kernel with the DEBUG_VM checks off. The
# pageblock table and the fragmentation experiment need one host program
# each per CONFIG_PAGE_BLOCK_ORDER, with THP off so pageblock_order is the
# knob's value (THP caps it at the PMD order, as Linux does).
BENCH_PAGEBLOCK_ORDERS := 1 4 7 9 10
SBS_ROUNDS ?= 5
# The side-by-side's fragmentation experiment also runs on Folium kernels
# built with these pageblock orders (THP on, so orders 9 and 10 are the
# default kernel's pageblock_order 9): the rest of the test matrix's.
SBS_PAGEBLOCK_ORDERS := 1 7
.PHONY: sbs-kernels
sbs-kernels:
	$(Q)$(MAKE) -s O=$(B)/bench-kernel CONFIG_DEBUG_VM=n $(B)/bench-kernel/folium.elf
	$(Q)for o in $(SBS_PAGEBLOCK_ORDERS); do \
		$(MAKE) -s O=$(B)/bench-kernel-pbo$$o CONFIG_DEBUG_VM=n CONFIG_PAGE_BLOCK_ORDER=$$o \
			$(B)/bench-kernel-pbo$$o/folium.elf || exit 1; \
	done
.PHONY: bench
bench: all $(BENCH_PROGRAMS) $(TOOLS_BINS) $(LINUX_KERNELS) sbs-kernels
	$(Q)for o in $(BENCH_PAGEBLOCK_ORDERS); do \
		$(MAKE) -s O=$(B)/bench-pbo$$o CONFIG_PAGE_BLOCK_ORDER=$$o \
			CONFIG_TRANSPARENT_HUGEPAGE=n $(B)/bench-pbo$$o/bench-pageblock \
			$(B)/bench-pbo$$o/bench-fragment || exit 1; \
	done
	$(Q)B=$(B) BENCH_PAGEBLOCK_ORDERS="$(BENCH_PAGEBLOCK_ORDERS)" $(LINUX_ENV) \
		SBS_ROUNDS=$(SBS_ROUNDS) SBS_PAGEBLOCK_ORDERS="$(SBS_PAGEBLOCK_ORDERS)" sh tools/bench.sh

# Only the side-by-side (the same static programs on Folium's bench kernel
# and on Debian's Linux under one QEMU line, then natively): logs, CSVs and
# REPORT.md in $(B)/bench-sbs/. SBS_ROUNDS boots per kernel (default 5).
.PHONY: bench-sbs
bench-sbs: all $(TOOLS_BINS) $(LINUX_KERNELS) sbs-kernels
	$(Q)B=$(B) $(LINUX_ENV) SBS_PAGEBLOCK_ORDERS="$(SBS_PAGEBLOCK_ORDERS)" sh tools/bench-sbs.sh --rounds $(SBS_ROUNDS) $(B)/bench-sbs
	$(Q)sh tools/sbs-report.sh $(B)/bench-sbs $(B)/bench-sbs/sbs.png > $(B)/bench-sbs/REPORT.md.tmp && \
		mv $(B)/bench-sbs/REPORT.md.tmp $(B)/bench-sbs/REPORT.md
	@echo "bench-sbs: report in $(B)/bench-sbs/REPORT.md"

.PHONY: clean
clean:
	rm -rf $(B)

.PHONY: FORCE
FORCE:

-include $(shell find $(B) -name '*.d' 2>/dev/null)
