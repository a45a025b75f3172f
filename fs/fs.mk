# fs/: files. The in-memory file system the initramfs unpacks into, and
# the cpio "newc" unpacker (Linux: fs/ramfs, init/initramfs.c). Generic
# code: built into the kernel and the host test program.
FS_GENERIC_SRCS += fs/ramfs.c fs/initramfs.c
TEST_SRCS += fs/tests/ramfs_test.c fs/tests/initramfs_test.c fs/tests/cmd_fs_test.c
# Open files, read/write, ioctl: the system calls on files (kernel only:
# they run for a program).
KERNEL_ONLY_SRCS += fs/file.c fs/read_write.c fs/ioctl.c
