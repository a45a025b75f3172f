# fs/: files. The in-memory file system the initramfs unpacks into, and
# the cpio "newc" unpacker (Linux: fs/ramfs, init/initramfs.c). Generic
# code: built into the kernel and the host test program.
