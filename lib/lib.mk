# lib/: the freestanding library. format.c (ksnprintf, the number
# parsers) and rbtree.c (red-black trees) build into the kernel and the
# host test program; string.c (memcpy & co.) is kernel only, the host has
# libc's.
LIB_GENERIC_SRCS += lib/format.c lib/rbtree.c
# xarray.c: Linux's XArray (radix tree of 64-slot nodes, marks,
# multi-index entries), for the page cache.
LIB_GENERIC_SRCS += lib/xarray.c
# iov_iter.c: where a read puts bytes and a write takes them (user or
# kernel buffers), for the page cache.
LIB_GENERIC_SRCS += lib/iov_iter.c
# cpumask.c: CPU lists ("0-3,6") for sysfs and the command line.
LIB_GENERIC_SRCS += lib/cpumask.c
KERNEL_ONLY_SRCS += lib/string.c
TEST_SRCS += lib/tests/format_test.c lib/tests/rbtree_test.c
TEST_SRCS += lib/tests/xarray_test.c
