/*
 * The initramfs: cpio "newc" archives unpacked into ramfs (Linux:
 * init/initramfs.c; here in fs/ because it is plain C over a byte buffer
 * that the host tests run too, while init/ is kernel-only). An entry is a
 * 110-byte header of ASCII hex fields, the name with its NUL, padding to
 * 4 bytes, the data, padding to 4 bytes (offsets from the buffer start):
 *
 *   "070701" ino mode uid gid nlink mtime filesize devmajor devminor
 *            rdevmajor rdevminor namesize check      (8 hex digits each)
 *
 * Example: "070701...0000000a...", name "etc/motd\0" (namesize 9): the
 * name ends at 110 + 9 = 119, so the 10 data bytes start at 120 and the
 * next header at 132. "TRAILER!!!" ends an archive; zero bytes may follow
 * and another archive may start, as with `cat a.cpio b.cpio`. "070702"
 * adds a checksum: the sum of the data bytes, mod 2^32.
 */
#include <kernel.h>
#include <mm.h>
#include <shmem_fs.h>
#include <ramfs.h>
#include <sched.h>

#define NEWC_HEADER_SIZE 110
#define NEWC_NR_FIELDS 13
#define TRAILER "TRAILER!!!"

enum newc_field {
	F_INO,
	F_MODE,
	F_UID,
	F_GID,
	F_NLINK,
	F_MTIME,
	F_FILESIZE,
	F_DEVMAJOR,
	F_DEVMINOR,
	F_RDEVMAJOR,
	F_RDEVMINOR,
	F_NAMESIZE,
	F_CHECK,
};

struct cpio_entry {
	uint32_t field[NEWC_NR_FIELDS];
	const char *name; /* NULL until it is known to end in NUL */
	const char *data;
	bool csum; /* "070702" */
};

/* A file with nlink > 1 seen in this archive (Linux: struct hash). */
struct hardlink {
	uint32_t ino, major, minor, mode;
	struct ramfs_inode *inode;
	struct hardlink *next;
};

struct unpack {
	struct ramfs *fs;
	const char *buf;
	size_t len, pos;
	struct initramfs_stats *st;
	struct hardlink *links; /* forgotten at each TRAILER!!!, as Linux */
	bool in_archive;	/* an entry since the last trailer */
};

/* Stop the unpack: one message naming the entry and where it starts. */
static int __printf(3, 4) stop(struct unpack *u, const struct cpio_entry *e, const char *fmt, ...)
{
	char why[96], name[48];
	size_t i;
	va_list ap;

	va_start(ap, fmt);
	kvsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	/* The name is archive bytes: show it, but never a control byte. */
	for (i = 0; e->name && e->name[i] && i < sizeof(name) - 1; i++)
		name[i] = e->name[i] >= 0x20 && e->name[i] < 0x7f ? e->name[i] : '?';
	name[i] = '\0';
	if (e->name)
		ksnprintf(u->st->message, INITRAMFS_MSG_MAX, "entry \"%s\" at offset %zu: %s", name,
			  u->pos, why);
	else
		ksnprintf(u->st->message, INITRAMFS_MSG_MAX, "entry at offset %zu: %s", u->pos,
			  why);
	u->st->stop_offset = u->pos;
	return -EINVAL;
}

/* Eight hex digits, strictly (Linux's simple_strtoul would stop early). */
static bool parse_hex8(const char *s, uint32_t *out)
{
	uint32_t v = 0;

	for (int i = 0; i < 8; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;

		if (d < 0)
			return false;
		v = v << 4 | (uint32_t)d;
	}
	*out = v;
	return true;
}

/* Check the header, the name and that the data is inside the buffer.
 * Return: 0 with e filled and *next the following entry's offset. */
static int parse_entry(struct unpack *u, struct cpio_entry *e, size_t *next)
{
	const char *h = u->buf + u->pos;
	size_t left = u->len - u->pos, data_off;
	uint32_t namesize, filesize;

	if (u->pos & 3)
		return stop(u, e, "broken padding (not on a 4-byte boundary)");
	if (left >= 6 && !memcmp(h, "070707", 6))
		return stop(u, e, "old cpio format: use -H newc");
	if (left < 6 || (memcmp(h, "070701", 6) && memcmp(h, "070702", 6)))
		return stop(u, e, "bad magic (not a cpio newc header)");
	if (left < NEWC_HEADER_SIZE)
		return stop(u, e, "truncated header (%zu of %d bytes)", left, NEWC_HEADER_SIZE);
	e->csum = h[5] == '2';
	for (int i = 0; i < NEWC_NR_FIELDS; i++)
		if (!parse_hex8(h + 6 + 8 * i, &e->field[i]))
			return stop(u, e, "header field %d is not hex", i);
	namesize = e->field[F_NAMESIZE];
	filesize = e->field[F_FILESIZE];
	if (namesize == 0 || namesize > PATH_MAX)
		return stop(u, e, "absurd name size %u", namesize);
	if (namesize > left - NEWC_HEADER_SIZE)
		return stop(u, e, "truncated name (%u bytes, %zu left)", namesize,
			    left - NEWC_HEADER_SIZE);
	if (h[NEWC_HEADER_SIZE + namesize - 1] != '\0')
		return stop(u, e, "name without NUL");
	e->name = h + NEWC_HEADER_SIZE;
	data_off = ALIGN_UP(u->pos + NEWC_HEADER_SIZE + namesize, 4);
	if (filesize && (data_off > u->len || filesize > u->len - data_off))
		return stop(u, e, "truncated data (%u bytes, %zu left)", filesize,
			    data_off > u->len ? 0 : u->len - data_off);
	e->data = u->buf + MIN(data_off, u->len);
	*next = MIN(ALIGN_UP(data_off + filesize, 4), u->len);
	return 0;
}

/* The "070702" check: the sum of the data bytes (Linux: io_csum). */
static int check_csum(struct unpack *u, const struct cpio_entry *e)
{
	uint32_t sum = 0;

	for (uint32_t i = 0; i < e->field[F_FILESIZE]; i++)
		sum += (unsigned char)e->data[i];
	if (sum != e->field[F_CHECK])
		return stop(u, e, "bad data checksum (header %08x, data %08x)", e->field[F_CHECK],
			    sum);
	return 0;
}

/* A well-formed entry the fs refused: counted, the first one described,
 * and unpacking goes on (Linux ignores these errors silently). */
static void refused(struct unpack *u, const struct cpio_entry *e, int err)
{
	if (!u->st->failed++)
		ksnprintf(u->st->failure, INITRAMFS_MSG_MAX, "cannot create \"%.64s\": error %d",
			  e->name, err);
}

/* Linux: clean_path. An existing name of another type (any type, for
 * fmt 0) is removed first, so a later archive can replace it. */
static void clean_path(struct unpack *u, const char *path, uint32_t fmt)
{
	struct ramfs_inode *old;

	if (!ramfs_lookup(u->fs, path, false, &old) && (old->mode & S_IFMT) != fmt)
		ramfs_unlink(u->fs, path);
}

static void set_attrs(struct ramfs_inode *inode, const struct cpio_entry *e)
{
	inode->mode = (inode->mode & S_IFMT) | (e->field[F_MODE] & 07777);
	inode->uid = e->field[F_UID];
	inode->gid = e->field[F_GID];
	/* Linux: do_utime's atime and mtime; the ctime too (no clock here). */
	inode->i_mtime = (struct timespec64){ (int64_t)e->field[F_MTIME], 0 };
	inode->i_atime = inode->i_ctime = inode->i_mtime;
}

static struct hardlink *find_link(struct unpack *u, const struct cpio_entry *e)
{
	struct hardlink *l;

	for (l = u->links; l; l = l->next)
		if (l->ino == e->field[F_INO] && l->major == e->field[F_DEVMAJOR] &&
		    l->minor == e->field[F_DEVMINOR] && l->mode == e->field[F_MODE])
			return l;
	return NULL;
}

/* Remember a file with nlink > 1; without memory its later names just
 * become separate files, which is still a correct tree. */
static void remember_link(struct unpack *u, const struct cpio_entry *e, struct ramfs_inode *inode)
{
	struct hardlink *l = u->fs->alloc(u->fs, sizeof(*l));

	if (!l)
		return;
	*l = (struct hardlink){ e->field[F_INO],
				e->field[F_DEVMAJOR],
				e->field[F_DEVMINOR],
				e->field[F_MODE],
				inode,
				u->links };
	u->links = l;
}

/* A regular file, or another name of one (cpio puts a hard-linked file's
 * data with its last name; Linux: maybe_link). */
static int do_file(struct unpack *u, const struct cpio_entry *e)
{
	uint32_t size = e->field[F_FILESIZE];
	struct hardlink *l = e->field[F_NLINK] > 1 ? find_link(u, e) : NULL;
	struct ramfs_inode *inode;
	int err;

	u->st->bytes += size;
	if (l) {
		clean_path(u, e->name, 0);
		err = ramfs_link(u->fs, l->inode, e->name);
		if (!err && size)
			err = ramfs_set_data(l->inode, e->data, size);
		u->st->hardlinks += !err;
		return err;
	}
	clean_path(u, e->name, S_IFREG);
	err = ramfs_create(u->fs, e->name, e->field[F_MODE], e->data, size, &inode);
	if (err)
		return err;
	set_attrs(inode, e);
	if (e->field[F_NLINK] > 1)
		remember_link(u, e, inode);
	u->st->files++;
	return 0;
}

/* A directory that exists already only takes the new attributes (Linux
 * ignores init_mkdir's EEXIST, then chmods): how "." is tolerated. */
static int do_dir(struct unpack *u, const struct cpio_entry *e)
{
	struct ramfs_inode *inode;
	int err;

	clean_path(u, e->name, S_IFDIR);
	err = ramfs_mkdir(u->fs, e->name, e->field[F_MODE], &inode);
	if (err == -EEXIST)
		err = ramfs_lookup(u->fs, e->name, false, &inode);
	if (!err && !S_ISDIR(inode->mode))
		err = -EEXIST;
	if (err)
		return err;
	set_attrs(inode, e);
	u->st->dirs++;
	return 0;
}

static int do_symlink(struct unpack *u, const struct cpio_entry *e)
{
	struct ramfs_inode *inode;
	int err;

	clean_path(u, e->name, 0);
	err = ramfs_symlink(u->fs, e->name, e->data, e->field[F_FILESIZE], &inode);
	if (err)
		return err;
	set_attrs(inode, e);
	u->st->symlinks++;
	return 0;
}

/* One entry at u->pos. Return: 0 with u->pos at the next, or -EINVAL. */
static int do_entry(struct unpack *u)
{
	struct cpio_entry e = { 0 };
	size_t next;
	int err;

	err = parse_entry(u, &e, &next);
	if (!err && e.csum)
		err = check_csum(u, &e);
	if (err)
		return err;
	u->pos = next;
	if (!strcmp(e.name, TRAILER)) {
		u->st->archives++;
		u->links = NULL;
		u->in_archive = false;
		return 0;
	}
	u->in_archive = true;
	switch (e.field[F_MODE] & S_IFMT) {
	case S_IFREG:
		err = do_file(u, &e);
		break;
	case S_IFDIR:
		err = do_dir(u, &e);
		break;
	case S_IFLNK:
		err = do_symlink(u, &e);
		break;
	default: /* device nodes, fifos, sockets: nothing here uses them */
		u->st->skipped++;
		break;
	}
	if (err)
		refused(u, &e, err);
	return 0;
}

int unpack_to_rootfs(struct ramfs *fs, const void *buf, size_t len, struct initramfs_stats *st)
{
	struct unpack u = { .fs = fs, .buf = buf, .len = len, .st = st };
	int err = 0;

	memset(st, 0, sizeof(*st));
	while (!err && u.pos < len) {
		/* Zeros pad an archive to its block size; skip them, as Linux
		 * does, so `cat a.cpio b.cpio` is two archives in a row. */
		if (u.buf[u.pos] == '\0') {
			u.pos++;
			continue;
		}
		err = do_entry(&u);
	}
	if (u.in_archive)
		st->archives++; /* its trailer is missing, its entries are kept */
	return err;
}

/* Linux: free_initrd_mem. Every file's bytes were copied into its page
 * cache as it was unpacked: no byte of the archive is read once it is free. */
static void free_initrd_mem(const void *archive, size_t len)
{
	free_reserved_area((void *)archive, (char *)archive + len, "initrd");
}

void populate_rootfs(const void *archive, size_t len)
{
	struct initramfs_stats st;

	if (ramfs_init(&rootfs, ramfs_kzalloc, ramfs_kfree, NULL) < 0) {
		pr_err("initramfs: no memory for the root directory\n");
		return;
	}
	/* tmpfs's limits when mounted without size= and nr_inodes= */
	rootfs.max_pages = rootfs.max_inodes = shmem_default_max_pages();
	pr_info("rootfs: tmpfs, size=%luk, huge=%s\n", rootfs.max_pages << (PAGE_SHIFT - 10),
		shmem_format_huge(rootfs.huge));
	/* Linux: init_mount_tree's set_fs_pwd; every task inherits it. */
	init_task.fs->pwd = rootfs.root;
	ihold(rootfs.root);
	if (!archive || !len) {
		pr_info("initramfs: none (no /folium/initramfs.cpio): no programs\n");
		return;
	}
	if (unpack_to_rootfs(&rootfs, archive, len, &st) < 0)
		pr_err("initramfs: stopped at %s; the entries before it are kept\n", st.message);
	if (st.failed)
		pr_warn("initramfs: %u entries refused, the first: %s\n", st.failed, st.failure);
	if (st.skipped)
		pr_info("initramfs: %u device nodes, fifos or sockets skipped\n", st.skipped);
	pr_info("initramfs: %u files, %u dirs, %u symlinks (%llu bytes) from %u archive(s)\n",
		st.files, st.dirs, st.symlinks, (unsigned long long)st.bytes, st.archives);
	free_initrd_mem(archive, len);
}
