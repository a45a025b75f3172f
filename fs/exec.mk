# fs/ (exec): checking and laying out a static ELF program before it runs
# (Linux: fs/binfmt_elf.c, fs/exec.c). Generic code: built into the kernel
# and the host test program.
