# user/user.mk: the user programs (included by the top-level Makefile; B is
# the build directory). Each user/NAME.c is an unmodified static x86-64
# Linux program, built twice so the kernel meets both C libraries' start-up
# code and system call habits: with musl (Debian's musl-gcc) as /bin/NAME,
# with glibc (gcc -static, libc6-dev's libc.a) as /bin/NAME.glibc. Example:
# user/hello.c -> $(B)/user/hello and $(B)/user/hello.glibc, both in /bin
# of the initramfs. tools/linux-madvise-free.c (a host tool too) joins them.
USER_CFLAGS := -static -O2 -Wall -Wextra -Werror
USER_MUSL_PROGS := $(patsubst user/%.c,$(B)/user/%,$(wildcard user/*.c))
USER_TOOL_PROGS := $(B)/user/linux-madvise-free
USER_PROGS := $(USER_MUSL_PROGS) $(USER_MUSL_PROGS:=.glibc) \
	$(USER_TOOL_PROGS) $(USER_TOOL_PROGS:=.glibc)

$(USER_MUSL_PROGS): $(B)/user/%: user/%.c user/user.mk $(wildcard user/*.h)
	@mkdir -p $(@D)
	@echo "  MUSLCC  $<"
	$(Q)musl-gcc $(USER_CFLAGS) -o $@ $<
$(USER_MUSL_PROGS:=.glibc): $(B)/user/%.glibc: user/%.c user/user.mk $(wildcard user/*.h)
	@mkdir -p $(@D)
	@echo "  GLIBCC  $<"
	$(Q)gcc $(USER_CFLAGS) -o $@ $<
$(USER_TOOL_PROGS): $(B)/user/%: tools/%.c user/user.mk user/rec_line.h
	@mkdir -p $(@D)
	@echo "  MUSLCC  $<"
	$(Q)musl-gcc $(USER_CFLAGS) -o $@ $<
$(USER_TOOL_PROGS:=.glibc): $(B)/user/%.glibc: tools/%.c user/user.mk user/rec_line.h
	@mkdir -p $(@D)
	@echo "  GLIBCC  $<"
	$(Q)gcc $(USER_CFLAGS) -o $@ $<

# `make fuzz` also runs the system call fuzzer at length in QEMU (4 boots,
# 8 runs of 32000 calls each, musl and glibc: 1,024,000 calls;
# tools/fuzz-syscalls.sh).
.PHONY: fuzz-syscalls
fuzz-syscalls: all
	sh tools/fuzz-syscalls.sh $(B) 4 32000
fuzz: fuzz-syscalls
