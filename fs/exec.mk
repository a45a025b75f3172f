# fs/ (exec): checking and laying out a static ELF program before it runs
# (Linux: fs/binfmt_elf.c, fs/exec.c). Generic code: built into the kernel
# and the host test program.
# Checking a static ELF program into a load plan, its initial stack, the
# user address-space layout; the tests use hand-built images.
FS_GENERIC_SRCS += fs/binfmt_elf.c
TEST_SRCS += fs/tests/binfmt_elf_test.c
# "#!" scripts: the interpreter line's rules.
FS_GENERIC_SRCS += fs/binfmt_script.c
TEST_SRCS += fs/tests/binfmt_script_test.c
# exec itself: the plan carried out in a new mm (kernel only: it needs
# the initramfs's programs and ring 3).
KERNEL_ONLY_SRCS += fs/exec.c
