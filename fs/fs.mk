# fs/: files. The in-memory file system the initramfs unpacks into, and
# the cpio "newc" unpacker (Linux: fs/ramfs, init/initramfs.c). Generic
# code: built into the kernel and the host test program.
FS_GENERIC_SRCS += fs/ramfs.c fs/initramfs.c
TEST_SRCS += fs/tests/ramfs_test.c fs/tests/initramfs_test.c fs/tests/cmd_fs_test.c
# Open files and the system calls on them (Linux: fs/file.c, open.c,
# read_write.c, stat.c, readdir.c, pipe.c, fcntl.c, locks.c, namei.c,
# d_path.c, ioctl.c, attr.c, statfs.c, namespace.c; change.c: namei.c's
# and open.c's calls that change the fs). Kernel only: they run for a program; their suite
# needs the real initramfs. file.c and the console tty (Linux:
# drivers/tty) are generic: exit closes files, and a session leader's
# exit hangs up its controlling tty.
FS_GENERIC_SRCS += fs/file.c
# The stamps on an inode (times, privileges) every change makes
# (Linux: fs/inode.c): generic, the page cache's writers use them.
FS_GENERIC_SRCS += fs/inode.c
FS_GENERIC_SRCS += fs/tty_io.c fs/n_tty.c fs/tty_ioctl.c fs/tty_jobctrl.c
KERNEL_ONLY_SRCS += fs/read_write.c fs/ioctl.c fs/open.c fs/stat.c fs/readdir.c \
	fs/pipe.c fs/fcntl.c fs/locks.c fs/namei.c fs/d_path.c fs/change.c fs/attr.c fs/statfs.c fs/namespace.c
# poll and select over every file's ->poll (Linux: fs/select.c); /dev:
# character devices by number, the memory devices and the nodes at boot
# (Linux: fs/char_dev.c, drivers/char/mem.c, drivers/base/devtmpfs.c).
KERNEL_ONLY_SRCS += fs/select.c fs/char_dev.c fs/mem.c fs/devtmpfs.c
# timerfd: an hrtimer's expiries read as a count (Linux: fs/timerfd.c).
KERNEL_ONLY_SRCS += fs/timerfd.c
# signalfd: a thread's pending signals read as records (Linux: fs/signalfd.c).
KERNEL_ONLY_SRCS += fs/signalfd.c
KERNEL_ONLY_TEST_SRCS += kernel/tests/fs_syscall_test.c
# seq_file, /proc/meminfo and /sys: generic, so the shell's views (and
# the host tests) print the same text; /proc's tree, the per-process
# files and /proc/cpuinfo need the running kernel.
FS_GENERIC_SRCS += fs/seq_file.c fs/proc/meminfo.c fs/sysfs.c fs/drop_caches.c
TEST_SRCS += fs/tests/seq_file_test.c
KERNEL_ONLY_SRCS += fs/proc/root.c fs/proc/base.c fs/proc/array.c fs/proc/task_mmu.c fs/proc/proc_sysctl.c \
	fs/proc/page.c fs/proc/loadavg.c fs/proc/uptime.c fs/proc/stat.c fs/proc/kmsg.c
KERNEL_ONLY_TEST_SRCS += kernel/tests/procfs_test.c
# epoll and eventfd (Linux: fs/eventpoll.c, fs/eventfd.c). eventpoll.c is
# generic: fput (fs/file.c) calls its eventpoll_release_file.
FS_GENERIC_SRCS += fs/eventpoll.c
KERNEL_ONLY_SRCS += fs/eventfd.c
# memfd_create and file seals (Linux: mm/memfd.c).
KERNEL_ONLY_SRCS += fs/memfd.c
