/*
 * `ls` and `cat`: the files the initramfs unpacked into rootfs (Linux:
 * coreutils' ls -l and cat over the VFS); `pagecache`: how a file's bytes
 * sit in the page cache, folios by order. Errors read as coreutils'
 * do: "ls: /x: No such file or directory".
 */
#include <ramfs.h>
#include <seq_file.h>
#include <shell.h>

/* Linux: strerror, for the errors ramfs returns. */
static const char *fs_strerror(int err)
{
	switch (-err) {
	case ENOENT:
		return "No such file or directory";
	case ENOTDIR:
		return "Not a directory";
	case EISDIR:
		return "Is a directory";
	case ELOOP:
		return "Too many levels of symbolic links";
	case ENAMETOOLONG:
		return "File name too long";
	case EACCES:
		return "Permission denied";
	default:
		return "Invalid argument";
	}
}

static int fs_error(const char *cmd, const char *path, int err)
{
	kprintf("%s: %s: %s\n", cmd, path, fs_strerror(err));
	return CMD_ERROR;
}

/* One `ls -l` line: mode, size (a device's "major, minor", as ls -l
 * shows it), name, and a symlink's target. */
static void ls_line(const struct ramfs_inode *inode, const char *name)
{
	char mode[11];

	if (S_ISCHR(inode->mode))
		kprintf("%s %3u, %3u %s", ramfs_mode_string(inode->mode, mode), inode->rdev >> 8,
			inode->rdev & 0xff, name);
	else
		kprintf("%s %8llu %s", ramfs_mode_string(inode->mode, mode),
			(unsigned long long)inode->size, name);
	if (S_ISLNK(inode->mode))
		kprintf(" -> %.*s", (int)inode->size, inode->data);
	kprintf("\n");
}

/* A symlink is shown, not followed, unless the path ends in '/' (as ls -l). */
static int cmd_ls(int argc, char **argv)
{
	const char *path = argc == 2 ? argv[1] : "/";
	struct ramfs_inode *inode;
	int err;

	if (argc > 2)
		return CMD_USAGE;
	if (!rootfs.root) {
		kprintf("ls: no root file system\n");
		return CMD_ERROR;
	}
	err = ramfs_lookup(&rootfs, path, false, &inode);
	if (err)
		return fs_error("ls", path, err);
	if (!S_ISDIR(inode->mode)) {
		ls_line(inode, path);
		return CMD_OK;
	}
	for (const struct ramfs_dentry *d = inode->children; d; d = d->next)
		ls_line(d->inode, d->name);
	return CMD_OK;
}
DEFINE_SHELL_COMMAND(ls, "ls [PATH]", "list a directory of the initramfs (mode, size, name)");

/* /proc and /sys files print what their show function makes; the ones
 * about a running program (maps, smaps) have none while the shell runs. */
static int cat_special(const char *path, const struct ramfs_inode *inode)
{
	int err;

	if (!(inode->mode & 0444)) /* e.g. /proc/sys/vm/compact_memory, mode 0200 */
		return fs_error("cat", path, -EACCES);
	if (inode->i_fop == &proc_single_fops)
		err = seq_show_to_console((seq_show_t)inode->i_private, NULL);
	else if (inode->i_fop == &sysfs_file_fops)
		err = sysfs_show_to_console(inode);
	else {
		kprintf("cat: %s: describes the running program; read it from one "
			"(no program runs in the shell)\n",
			path);
		return CMD_ERROR;
	}
	return err ? fs_error("cat", path, err) : CMD_OK;
}

static int cmd_cat(int argc, char **argv)
{
	struct ramfs_inode *inode;
	char buf[256];
	uint64_t off = 0;
	long n;
	int err;

	if (argc != 2)
		return CMD_USAGE;
	if (!rootfs.root) {
		kprintf("cat: no root file system\n");
		return CMD_ERROR;
	}
	err = ramfs_lookup(&rootfs, argv[1], true, &inode);
	if (err)
		return fs_error("cat", argv[1], err);
	if (inode->i_fop)
		return cat_special(argv[1], inode);
	while ((n = ramfs_read(inode, off, buf, sizeof(buf))) > 0) {
		console_write(buf, (size_t)n);
		off += (uint64_t)n;
	}
	return n < 0 ? fs_error("cat", argv[1], (int)n) : CMD_OK;
}
DEFINE_SHELL_COMMAND(cat, "cat PATH", "print a file of the initramfs");

/* One file's line: "PATH: SIZE bytes, N pages in M folios, order:count
 * 0:1 2:1". */
static int pagecache_show(const char *path)
{
	unsigned long counts[NR_PAGE_ORDERS], folios = 0;
	struct ramfs_inode *inode;
	int err = ramfs_lookup(&rootfs, path, true, &inode);

	if (err)
		return fs_error("pagecache", path, err);
	if (!inode->i_mapping)
		return fs_error("pagecache", path, S_ISDIR(inode->mode) ? -EISDIR : -EINVAL);
	mapping_folio_orders(inode->i_mapping, counts);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		folios += counts[o];
	kprintf("%s: %llu bytes, %lu pages in %lu folios, order:count", path,
		(unsigned long long)inode->size, inode->i_mapping->nrpages, folios);
	for (int o = 0; o < NR_PAGE_ORDERS; o++)
		if (counts[o])
			kprintf(" %d:%lu", o, counts[o]);
	kprintf("\n");
	return CMD_OK;
}

static int cmd_pagecache(int argc, char **argv)
{
	int ret = CMD_OK;

	if (argc < 2)
		return CMD_USAGE;
	for (int i = 1; i < argc; i++)
		if (pagecache_show(argv[i]) != CMD_OK)
			ret = CMD_ERROR;
	return ret;
}
DEFINE_SHELL_COMMAND(pagecache, "pagecache PATH...",
		     "a file's page cache: its folios by order (large folios as written)");
