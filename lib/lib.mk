# lib/: the freestanding library. format.c (ksnprintf, the number
# parsers) and rbtree.c (red-black trees) build into the kernel and the
# host test program; string.c (memcpy & co.) is kernel only, the host has
# libc's.
LIB_GENERIC_SRCS += lib/format.c lib/rbtree.c
KERNEL_ONLY_SRCS += lib/string.c
TEST_SRCS += lib/tests/format_test.c lib/tests/rbtree_test.c
