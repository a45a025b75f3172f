/*
 * Anonymous inodes (Linux: fs/anon_inodes.c, alloc_anon_inode in
 * fs/libfs.c): what a file no name leads to (eventfd, epoll) has as its
 * inode. Linux gives every such file one inode, which fstat shows as mode
 * 0600 with no file type (anon_inode_getattr hides the S_IFREG it keeps
 * inside), and the file a name such as "[eventfd]", which readlink of
 * /proc/PID/fd/N shows as "anon_inode:[eventfd]". Folium keeps the name in the inode's i_name, so
 * each kind of file has its own static inode, all with the one number.
 * Example: fstat of an eventfd and of an epoll fd give the same st_ino.
 */
#ifndef FOLIUM_ANON_INODES_H
#define FOLIUM_ANON_INODES_H

#include <ramfs.h>

#define ANON_INODE_INO (3ul << 32) /* apart from rootfs's and the pipes' numbers */

/* The inode of the anonymous files named @name ("[eventfd]"). */
#define ANON_INODE_INIT(name)                                                     \
	{                                                                         \
		.mode = 0600, .nlink = 1, .ino = ANON_INODE_INO, .i_name = (name) \
	}

#endif
