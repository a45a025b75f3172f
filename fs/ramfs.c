/*
 * ramfs: directories, regular files and symlinks in memory, rooted at "/"
 * (Linux: fs/ramfs/inode.c, with fs/namei.c's path walk). A directory
 * keeps its names in a list sorted by name; an inode may have several
 * names (hard links) unless it is a directory, whose one parent is "..".
 * A regular file's bytes live in its page cache (mm/filemap.c), in
 * large folios where the writes allow; names and symlink targets are
 * copied. A removed name is freed at once; an inode goes when it has
 * neither a name nor a user (i_count: open files, a cwd, an exe, a child
 * directory), its bytes with it (Linux: iput_final, evict). rootfs's
 * memory is kzalloc'ed; a test's arena gives none back. As Linux's root
 * is tmpfs, the fs keeps shmem's books: its files' pages and its inodes
 * counted against a size limit (-ENOSPC past it), their folios Shmem;
 * rename, fallocate and O_TMPFILE's linkable inodes are shmem's too.
 *
 * Path walk, worked example: with /bin -> usr/bin and /usr/bin/sh,
 * "/bin/../etc" is "/" then "bin" (a link, followed: "usr/bin" from "/",
 * one link of MAXSYMLINKS), then ".." (/usr), then "etc" in /usr.
 */
#include <kernel.h>
#include <mm.h>
#include <mman.h>
#include <ramfs.h>
#include <fs.h>
#include <sched.h>
#include <shmem_fs.h>
#include <slab.h>
#include <vm.h>

struct ramfs rootfs;
static struct ramfs shm_mnt;

/* One lookup's state (Linux: struct nameidata): links followed so far. */
struct nameidata {
	struct ramfs *fs;
	int links;
	ramfs_may_lookup_t may_lookup; /* NULL: every directory may be searched */
	const void *priv;	       /* for may_lookup */
};

static struct ramfs_inode *new_inode(struct ramfs *fs, uint32_t mode)
{
	struct ramfs_inode *inode = fs->alloc(fs, sizeof(*inode));

	if (inode) {
		inode->mode = mode;
		inode->nlink = 1;
		inode->ino = ++fs->last_ino;
		inode->i_sb = fs;
		fs->nr_inodes++;
		fs->nr_dirs += S_ISDIR(mode);
	}
	if (inode && S_ISREG(mode)) {
		/* Linux's shmem_get_inode without swap: never reclaimed,
		 * large folios as huge= and a write's size allow, counted
		 * as Shmem. */
		/* Linux: inode_init_always's GFP_HIGHUSER_MOVABLE; the
		 * folios migrate (move_to_new_folio). */
		address_space_init(&inode->i_data, inode, GFP_HIGHUSER_MOVABLE);
		mapping_set_unevictable(&inode->i_data);
		mapping_set_folio_order_range(&inode->i_data, 0, shmem_huge_max_order(fs->huge));
		mapping_set_shmem(&inode->i_data); /* the root is tmpfs, as Linux's */
		inode->i_mapping = &inode->i_data;
		inode->i_seals = F_SEAL_SEAL; /* Linux: shmem_get_inode */
	}
	return inode;
}

int ramfs_init(struct ramfs *fs, ramfs_alloc_t alloc, ramfs_free_t free, void *alloc_priv)
{
	memset(fs, 0, sizeof(*fs));
	fs->alloc = alloc;
	fs->free = free;
	fs->alloc_priv = alloc_priv;
	fs->huge = tmpfs_huge; /* Linux: a mount without huge= takes tmpfs_huge */
	fs->root = new_inode(fs, S_IFDIR | 0755);
	if (!fs->root)
		return -ENOMEM;
	fs->root->parent = fs->root;
	fs->root->nlink = 2;
	fs->root->size = 2 * BOGO_DIRENT_SIZE;
	return 0;
}

void *ramfs_kzalloc(struct ramfs *fs, size_t size)
{
	(void)fs;
	return kzalloc(size, GFP_KERNEL);
}

void ramfs_kfree(struct ramfs *fs, void *ptr)
{
	(void)fs;
	kfree(ptr);
}

/* Linux: simple_lookup. Return: the dentry named [name, +len) in dir. */
static struct ramfs_dentry *find_child(const struct ramfs_inode *dir, const char *name, size_t len)
{
	struct ramfs_dentry *d;

	for (d = dir->children; d; d = d->next)
		if (!strncmp(d->name, name, len) && d->name[len] == '\0')
			return d;
	return NULL;
}

/* The next component of [*p, end), slashes skipped. Return: its length
 * (0 at the end), *name its start; *p moves past it. */
static size_t next_component(const char **p, const char *end, const char **name)
{
	while (*p < end && **p == '/')
		(*p)++;
	*name = *p;
	while (*p < end && **p != '/')
		(*p)++;
	return (size_t)(*p - *name);
}

static bool is_dot_or_dotdot(const char *name, size_t len)
{
	return (len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.');
}

struct ramfs_inode *follow_mount(struct ramfs_inode *inode)
{
	while (S_ISDIR(inode->mode) && inode->i_mounted)
		inode = inode->i_mounted->root;
	return inode;
}

struct ramfs_inode *follow_up(struct ramfs_inode *dir)
{
	for (struct ramfs *fs; (fs = mount_root_sb(dir));)
		dir = fs->mountpoint;
	return dir;
}

/* Linux: follow_dotdot. ".." of a mounted fs's root is ".." of the
 * directory it covers; the root of all is its own "..". */
static struct ramfs_inode *follow_dotdot(struct ramfs_inode *dir)
{
	return follow_mount(follow_up(dir)->parent); /* "/..": whatever is mounted on / */
}

static int walk(struct nameidata *nd, struct ramfs_inode *dir, const char *path, size_t len,
		bool follow, struct ramfs_inode **out);

/* The target a get_link hook computed, while it is walked. One lookup
 * runs at a time (one CPU, never from an interrupt), and a computed
 * target may not lead through another computed one, so one buffer does,
 * and it keeps PATH_MAX bytes off the 16 KiB system-call stack. */
static char link_body[PATH_MAX];
static bool link_body_busy;

/* Linux: pick_link with a ->get_link inode operation (proc_pid_get_link). */
static int follow_get_link(struct nameidata *nd, struct ramfs_inode *dir, struct ramfs_inode *link,
			   struct ramfs_inode **out)
{
	int len, err;

	if (link_body_busy)
		return -ELOOP;
	len = link->get_link(link, link_body, sizeof(link_body));
	if (len < 0)
		return len;
	if (!len)
		return -ENOENT;
	link_body_busy = true;
	err = walk(nd, dir, link_body, (size_t)len, true, out);
	link_body_busy = false;
	return err;
}

/*
 * Walk [path, +len) from dir, or from the root if it starts with '/'
 * (Linux: link_path_walk). A trailing slash makes the last component
 * followed and requires a directory, as in Linux.
 */
static int walk(struct nameidata *nd, struct ramfs_inode *dir, const char *path, size_t len,
		bool follow, struct ramfs_inode **out)
{
	const char *p = path, *end = path + len, *name, *rest, *next;
	struct ramfs_inode *cur = len && path[0] == '/' ? follow_mount(nd->fs->root) : dir;
	size_t n;

	while ((n = next_component(&p, end, &name))) {
		struct ramfs_inode *child;
		struct ramfs_dentry *d;
		bool last, slash = p < end;
		int err;

		if (!S_ISDIR(cur->mode))
			return -ENOTDIR;
		if (nd->may_lookup && (err = nd->may_lookup(nd->priv, cur)))
			return err;
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		if (is_dot_or_dotdot(name, n)) {
			cur = n == 2 ? follow_dotdot(cur) : cur;
			continue;
		}
		d = find_child(cur, name, n);
		child = d ? d->inode : cur->lookup ? cur->lookup(cur, name, n) : NULL;
		if (!child)
			return -ENOENT;
		rest = p;
		last = !next_component(&rest, end, &next);
		if (S_ISLNK(child->mode) && (!last || follow || slash)) {
			if (++nd->links > MAXSYMLINKS)
				return -ELOOP;
			if (child->get_link)
				err = follow_get_link(nd, cur, child, &cur);
			else if (!child->size)
				err = -ENOENT; /* Linux: an empty target names nothing */
			else
				err = walk(nd, cur, child->data, child->size, true, &cur);
			if (err)
				return err;
		} else {
			cur = follow_mount(child);
		}
		if (last && slash && !S_ISDIR(cur->mode))
			return -ENOTDIR;
	}
	*out = cur;
	return 0;
}

int ramfs_lookup(struct ramfs *fs, const char *path, bool follow, struct ramfs_inode **out)
{
	return ramfs_lookup_at(fs, fs->root, path, follow, out);
}

int ramfs_lookup_at(struct ramfs *fs, struct ramfs_inode *dir, const char *path, bool follow,
		    struct ramfs_inode **out)
{
	return ramfs_lookup_perm(fs, dir, path, follow, NULL, NULL, out);
}

int ramfs_lookup_perm(struct ramfs *fs, struct ramfs_inode *dir, const char *path, bool follow,
		      ramfs_may_lookup_t may_lookup, const void *priv, struct ramfs_inode **out)
{
	struct nameidata nd = { .fs = fs, .may_lookup = may_lookup, .priv = priv };
	size_t len = strnlen(path, PATH_MAX);

	if (len == PATH_MAX)
		return -ENAMETOOLONG;
	if (!len)
		return -ENOENT;
	return walk(&nd, dir, path, len, follow, out);
}

/*
 * Split path into its directory, looked up with links followed, and its
 * last name [*name, +*len), trailing slashes dropped (Linux:
 * filename_parentat). "/" and "" give an empty name.
 */
static int lookup_parent(struct ramfs *fs, const char *path, struct ramfs_inode **dir,
			 const char **name, size_t *len)
{
	struct nameidata nd = { .fs = fs };
	size_t end = strnlen(path, PATH_MAX), start;
	int err;

	if (end == PATH_MAX)
		return -ENAMETOOLONG;
	while (end > 0 && path[end - 1] == '/')
		end--;
	for (start = end; start > 0 && path[start - 1] != '/'; start--)
		;
	*name = path + start;
	*len = end - start;
	if (*len > NAME_MAX)
		return -ENAMETOOLONG;
	err = walk(&nd, fs->root, path, start, true, dir);
	if (!err && !S_ISDIR((*dir)->mode))
		err = -ENOTDIR;
	return err;
}

/* A name removed: its memory goes back, if the fs gives any back. */
static void free_dentry(struct ramfs *fs, struct ramfs_dentry *d)
{
	if (!fs->free)
		return;
	fs->free(fs, (void *)d->name);
	fs->free(fs, d);
}

/*
 * Linux: iput_final and evict. An inode with no name and no user goes:
 * its bytes, a symlink's target, its hold on its parent directory, and
 * (where the fs gives memory back) the inode itself. An inode no fs made
 * (i_sb NULL: a pipe's, the console's) belongs to its maker.
 */
static void evict(struct ramfs_inode *inode)
{
	struct ramfs *fs = inode->i_sb;
	struct ramfs_inode *parent = inode->parent;

	ramfs_truncate(inode);
	vm_unacct_memory((long)inode->acct_size_pages); /* Linux: shmem_unacct_size */
	if (!fs)
		return;
	fs->nr_inodes--;
	fs->nr_dirs -= S_ISDIR(inode->mode);
	if (S_ISDIR(inode->mode) && parent && parent != inode)
		iput(parent);
	if (!fs->free)
		return;
	if (S_ISLNK(inode->mode) && !inode->get_link) /* ramfs_symlink's copy */
		fs->free(fs, (void *)inode->data);
	if (fs == &shm_mnt) /* shmem_file_setup's name */
		fs->free(fs, (void *)inode->i_name);
	fs->free(fs, inode);
}

/* Put d in dir's list, keeping it sorted by name. */
static void insert_dentry(struct ramfs_inode *dir, struct ramfs_dentry *d)
{
	struct ramfs_dentry **pp;

	for (pp = &dir->children; *pp && strcmp((*pp)->name, d->name) < 0; pp = &(*pp)->next)
		;
	d->next = *pp;
	*pp = d;
}

/* Take d out of dir's list (it must be there). */
static void unlink_dentry(struct ramfs_inode *dir, struct ramfs_dentry *d)
{
	struct ramfs_dentry **pp;

	for (pp = &dir->children; *pp != d; pp = &(*pp)->next)
		;
	*pp = d->next;
}

/* Insert a name for inode into dir, keeping the list sorted. */
static int add_dentry(struct ramfs *fs, struct ramfs_inode *dir, const char *name, size_t len,
		      struct ramfs_inode *inode)
{
	struct ramfs_dentry *d = fs->alloc(fs, sizeof(*d));
	char *copy = fs->alloc(fs, len + 1); /* zeroed: the NUL is there */

	if (!d || !copy) {
		if (fs->free) {
			fs->free(fs, d);
			fs->free(fs, copy);
		}
		return -ENOMEM;
	}
	memcpy(copy, name, len);
	d->name = copy;
	d->inode = inode;
	insert_dentry(dir, d);
	dir->size += BOGO_DIRENT_SIZE;
	return 0;
}

/* A new inode of mode named [name, +len) in dir; len 0: no name. */
static int add_node(struct ramfs *fs, struct ramfs_inode *dir, const char *name, size_t len,
		    uint32_t mode, struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	int err;

	if (len && (is_dot_or_dotdot(name, len) || find_child(dir, name, len)))
		return -EEXIST;
	inode = new_inode(fs, mode);
	if (!inode)
		return -ENOMEM;
	if (len) {
		err = add_dentry(fs, dir, name, len, inode);
		if (err) {
			fs->nr_inodes--; /* new_inode's counts, undone */
			fs->nr_dirs -= S_ISDIR(mode);
			if (fs->free)
				fs->free(fs, inode);
			return err;
		}
	}
	if (S_ISDIR(mode)) {
		inode->parent = dir;
		inode->nlink = 2;
		inode->size = 2 * BOGO_DIRENT_SIZE; /* "." and ".." */
		ihold(dir); /* its ".." (Linux: the dentry's d_parent reference) */
		dir->nlink += len ? 1 : 0;
	}
	if (out)
		*out = inode;
	return 0;
}

/* A new inode of mode under a new name (Linux: ramfs_mknod). */
static int make_node(struct ramfs *fs, const char *path, uint32_t mode, struct ramfs_inode **out)
{
	struct ramfs_inode *dir;
	const char *name;
	size_t len;
	int err;

	err = lookup_parent(fs, path, &dir, &name, &len);
	if (err)
		return err;
	if (!len)
		return -EEXIST;
	return add_node(fs, dir, name, len, mode, out);
}

int ramfs_add(struct ramfs *fs, struct ramfs_inode *dir, const char *name, uint32_t mode,
	      struct ramfs_inode **out)
{
	size_t len = name ? strnlen(name, NAME_MAX + 1) : 0;

	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	return add_node(fs, dir, name, len, mode, out);
}

int ramfs_mkdir(struct ramfs *fs, const char *path, uint32_t mode, struct ramfs_inode **out)
{
	return make_node(fs, path, S_IFDIR | (mode & 07777), out);
}

int ramfs_mknod(struct ramfs *fs, const char *path, uint32_t mode, uint32_t rdev,
		struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	int err;

	if (!S_ISCHR(mode))
		return -EINVAL;
	err = make_node(fs, path, mode, &inode);
	if (err)
		return err;
	inode->rdev = rdev;
	if (out)
		*out = inode;
	return 0;
}

int ramfs_create(struct ramfs *fs, const char *path, uint32_t mode, const char *data, uint64_t size,
		 struct ramfs_inode **out)
{
	struct ramfs_inode *dir, *inode;
	struct ramfs_dentry *d;
	const char *name;
	size_t len;
	int err;

	err = lookup_parent(fs, path, &dir, &name, &len);
	if (err)
		return err;
	d = len ? find_child(dir, name, len) : NULL;
	if (!len || is_dot_or_dotdot(name, len) || (d && S_ISDIR(d->inode->mode)))
		return -EISDIR;
	if (d && !S_ISREG(d->inode->mode))
		return -EEXIST;
	if (d) {
		inode = d->inode; /* O_TRUNC, then the new bytes; mode unchanged */
	} else {
		err = make_node(fs, path, S_IFREG | (mode & 07777), &inode);
		if (err)
			return err;
	}
	if (out)
		*out = inode;
	return ramfs_set_data(inode, data, size);
}

void ramfs_setsize(struct ramfs_inode *inode, uint64_t size)
{
	uint64_t old = inode->size;

	if (!inode->i_mapping)
		return;
	inode->size = size; /* Linux: truncate_setsize, the size first */
	if (size < old) {
		/* Linux: truncate_pagecache. Mappings of whole pages past the
		 * new end go (a later access is SIGBUS); the last partial
		 * page stays mapped, its tail zeroed. */
		pgoff_t first = (pgoff_t)DIV_ROUND_UP(size, PAGE_SIZE);

		unmap_mapping_pages(inode->i_mapping, first, ULONG_MAX - first, true);
		truncate_inode_pages(inode->i_mapping, size);
	}
	ramfs_recalc_inode(inode);
}

void ramfs_recalc_inode(struct ramfs_inode *inode)
{
	unsigned long now = inode->i_mapping ? inode->i_mapping->nrpages : 0;

	if (inode->i_sb)
		inode->i_sb->used_pages += now - inode->alloced;
	/* Linux: shmem_inode_acct_blocks as pages come, and
	 * shmem_recalc_inode's shmem_inode_unacct_blocks as they go. */
	if (!inode->acct_size_pages)
		vm_acct_memory((long)(now - inode->alloced));
	inode->alloced = now;
}

void ramfs_truncate(struct ramfs_inode *inode)
{
	if (!inode->i_mapping)
		return;
	inode->size = 0;
	/* Linux: truncate_pagecache. No mapping may keep a page that goes. */
	unmap_mapping_pages(inode->i_mapping, 0, ULONG_MAX, true);
	truncate_inode_pages(inode->i_mapping, 0);
	ramfs_recalc_inode(inode);
}

/* Pages the fs may still give the file (ULONG_MAX: no limit): its size=
 * limit, and for a file charged page by page what Committed_AS can still
 * take under overcommit mode 2 (Linux: shmem_inode_acct_blocks, whose
 * refusal is -ENOSPC). */
static unsigned long space_left(const struct ramfs_inode *inode)
{
	const struct ramfs *fs = inode->i_sb;
	unsigned long commit =
		inode->acct_size_pages ? ULONG_MAX : vm_commit_room(current->mm, true);
	unsigned long left = ULONG_MAX;

	if (fs && fs->max_pages)
		left = fs->used_pages < fs->max_pages ? fs->max_pages - fs->used_pages : 0;
	return MIN(left, commit);
}

/* Walk [start, end) of the cache a folio at a time, counting the pages
 * it does not hold in *missing, and stop at the missing page that would
 * make them more than @budget. Return: where the walk stopped (@end when
 * it went through). */
static pgoff_t walk_missing_pages(struct ramfs_inode *inode, pgoff_t start, pgoff_t end,
				  unsigned long budget, unsigned long *missing)
{
	pgoff_t index = start;

	*missing = 0;
	while (index < end) {
		struct folio *folio = filemap_get_folio(inode->i_mapping, index);

		if (!IS_ERR(folio)) {
			index = folio_next_index(folio);
			folio_put(folio);
		} else if (*missing == budget) {
			break;
		} else {
			++*missing;
			index++;
		}
	}
	return MIN(index, end);
}

/* The pages of [start, end) the cache does not hold. */
static unsigned long missing_pages(struct ramfs_inode *inode, pgoff_t start, pgoff_t end)
{
	unsigned long missing;

	walk_missing_pages(inode, start, end, ULONG_MAX, &missing);
	return missing;
}

size_t ramfs_write_room(struct ramfs_inode *inode, uint64_t pos, size_t len)
{
	unsigned long left = space_left(inode), missing;
	pgoff_t start = pos >> PAGE_SHIFT, end = ((pos + len - 1) >> PAGE_SHIFT) + 1, stop;

	if (!len || left == ULONG_MAX)
		return len;
	stop = walk_missing_pages(inode, start, end, left, &missing);
	/* the write stops where the first page past the limit would start */
	return stop == end ? len : (size_t)(MAX((uint64_t)stop << PAGE_SHIFT, pos) - pos);
}

/* Undo a failed fallocate: the folios it made (not uptodate: nothing
 * was written or allocated there before) leave [start, end). */
static void fallocate_undo(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	for (pgoff_t index = start; index < end;) {
		struct folio *folio = filemap_get_folio(mapping, index);

		if (IS_ERR(folio)) {
			index++;
			continue;
		}
		index = folio_next_index(folio);
		if (!folio_test_uptodate(folio))
			truncate_inode_pages_range(mapping, folio_pos(folio),
						   folio_pos(folio) + folio_size(folio) - 1);
		folio_put(folio);
	}
}

int ramfs_fallocate(struct ramfs_inode *inode, int mode, uint64_t offset, uint64_t len)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t start = offset >> PAGE_SHIFT, end = (offset + len + PAGE_SIZE - 1) >> PAGE_SHIFT;

	if (!mapping)
		return -ENODEV;
	if (!(mode & FALLOC_FL_PUNCH_HOLE) && missing_pages(inode, start, end) > space_left(inode))
		return -ENOSPC;
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		/* Linux: shmem_fallocate's unmap_mapping_range of the whole
		 * pages in the hole, before they leave the cache. */
		pgoff_t first = (pgoff_t)DIV_ROUND_UP(offset, PAGE_SIZE);
		pgoff_t last = (pgoff_t)((offset + len) >> PAGE_SHIFT);

		if (last > first)
			unmap_mapping_pages(mapping, first, last - first, false);
		truncate_inode_pages_range(mapping, offset, offset + len - 1);
		ramfs_recalc_inode(inode);
		return 0;
	}
	/* Linux: shmem_fallocate, folio by folio, each as large as the
	 * rest of the range and its index's alignment allow. */
	for (pgoff_t index = start; index < end;) {
		uint64_t bytes = shmem_huge_fallocate_bytes(
			inode->i_sb ? inode->i_sb->huge : 0, (uint64_t)index << PAGE_SHIFT,
			(uint64_t)(end - index) << PAGE_SHIFT, inode->size);
		struct folio *folio = __filemap_get_folio(
			mapping, index, FGP_LOCK | FGP_CREAT | fgf_set_order(bytes),
			mapping_gfp_mask(mapping));

		if (IS_ERR(folio)) {
			fallocate_undo(mapping, start, index);
			ramfs_recalc_inode(inode);
			return -ENOSPC; /* Linux's answer when the memory is not there */
		}
		index = folio_next_index(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	/* Every folio is there: the new ones (zeroed) become the file's. */
	for (pgoff_t index = start; index < end;) {
		struct folio *folio = filemap_get_folio(mapping, index);

		index = folio_next_index(folio);
		folio_mark_uptodate(folio);
		folio_put(folio);
	}
	if (!(mode & FALLOC_FL_KEEP_SIZE) && offset + len > inode->size)
		inode->size = offset + len;
	ramfs_recalc_inode(inode);
	return 0;
}

int ramfs_set_data(struct ramfs_inode *inode, const char *data, uint64_t size)
{
	struct iov_iter iter;

	if (!inode->i_mapping)
		return -EINVAL;
	ramfs_truncate(inode);
	if (size && ramfs_write_room(inode, 0, size) < size)
		return -ENOSPC;
	iov_iter_kvec(&iter, ITER_SOURCE, (void *)data, size);
	if (size && generic_perform_write(inode->i_mapping, &iter, 0) != (long)size) {
		ramfs_truncate(inode); /* all or nothing: never half a file */
		return -ENOMEM;
	}
	ramfs_recalc_inode(inode);
	return 0;
}

int ramfs_symlink(struct ramfs *fs, const char *path, const char *target, size_t len,
		  struct ramfs_inode **out)
{
	struct ramfs_inode *inode;
	char *copy;
	int err;

	if (!len)
		return -ENOENT;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	copy = fs->alloc(fs, len);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, target, len);
	err = make_node(fs, path, S_IFLNK | 0777, &inode);
	if (err) {
		if (fs->free)
			fs->free(fs, copy);
		return err;
	}
	inode->data = copy;
	inode->size = len;
	if (out)
		*out = inode;
	return 0;
}

int ramfs_link_at(struct ramfs *fs, struct ramfs_inode *inode, struct ramfs_inode *dir,
		  const char *name, size_t len)
{
	int err;

	if (S_ISDIR(inode->mode))
		return -EPERM;
	if (!len || is_dot_or_dotdot(name, len) || find_child(dir, name, len))
		return -EEXIST;
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	if (!inode->nlink && !(inode->i_state & I_LINKABLE))
		return -ENOENT; /* Linux: vfs_link, no resurrection */
	err = add_dentry(fs, dir, name, len, inode);
	if (!err) {
		inode->nlink++;
		inode->i_state &= ~I_LINKABLE;
	}
	return err;
}

int ramfs_link(struct ramfs *fs, struct ramfs_inode *inode, const char *path)
{
	struct ramfs_inode *dir;
	const char *name;
	size_t len;
	int err;

	if (S_ISDIR(inode->mode))
		return -EPERM;
	err = lookup_parent(fs, path, &dir, &name, &len);
	return err ? err : ramfs_link_at(fs, inode, dir, name, len);
}

int ramfs_remove(struct ramfs *fs, struct ramfs_inode *dir, const char *name, size_t len)
{
	struct ramfs_dentry **pp, *d;
	struct ramfs_inode *inode;

	if (!len || is_dot_or_dotdot(name, len))
		return -EBUSY;
	for (pp = &dir->children; *pp; pp = &(*pp)->next)
		if (!strncmp((*pp)->name, name, len) && (*pp)->name[len] == '\0')
			break;
	if (!*pp)
		return -ENOENT;
	d = *pp;
	inode = d->inode;
	if (S_ISDIR(inode->mode) && inode->children)
		return -ENOTEMPTY;
	*pp = d->next;
	free_dentry(fs, d);
	dir->size -= BOGO_DIRENT_SIZE;
	if (S_ISDIR(inode->mode)) {
		inode->nlink = 0; /* Linux: simple_rmdir's two drop_nlinks */
		dir->nlink--;
	} else {
		inode->nlink--;
	}
	if (!inode->nlink && !inode->i_count)
		evict(inode);
	return 0;
}

int ramfs_unlink(struct ramfs *fs, const char *path)
{
	struct ramfs_inode *dir;
	const char *name;
	size_t len;
	int err;

	err = lookup_parent(fs, path, &dir, &name, &len);
	return err ? err : ramfs_remove(fs, dir, name, len);
}

bool is_subdir(const struct ramfs_inode *dir, const struct ramfs_inode *inode)
{
	for (const struct ramfs_inode *p = dir; p; p = p->parent) {
		if (p == inode)
			return true;
		if (p->parent == p)
			break;
	}
	return false;
}

int ramfs_lookup_child(struct ramfs_inode *dir, const char *name, size_t len,
		       struct ramfs_inode **out)
{
	struct ramfs_dentry *d = find_child(dir, name, len);
	struct ramfs_inode *inode = d ? d->inode : dir->lookup ? dir->lookup(dir, name, len) : NULL;

	if (!inode)
		return -ENOENT;
	*out = inode;
	return 0;
}

bool ramfs_busy(const struct ramfs *fs)
{
	return fs->nr_refs > fs->nr_dirs - 1;
}

void ramfs_kill(struct ramfs *fs)
{
	struct ramfs_inode *dir = fs->root;

	/* Depth first without recursion (a deep tree must not take the
	 * stack): into the first child while it is a directory with names,
	 * else remove the first child; up when a directory is empty. */
	for (;;) {
		struct ramfs_dentry *d = dir->children;

		if (!d) {
			if (dir == fs->root)
				break;
			dir = dir->parent;
		} else if (S_ISDIR(d->inode->mode) && d->inode->children) {
			dir = d->inode;
		} else {
			ramfs_remove(fs, dir, d->name, strlen(d->name));
		}
	}
	fs->root->nlink = 0;
	evict(fs->root);
	fs->root = NULL;
}

/* A directory's ".." moves from @from to @to (Linux: the d_parent of
 * d_move; simple_rename's nlink changes). */
static void reparent(struct ramfs_inode *dir, struct ramfs_inode *from, struct ramfs_inode *to)
{
	if (from == to)
		return;
	dir->parent = to;
	ihold(to);
	to->nlink++;
	from->nlink--;
	iput(from);
}

/* Linux: simple_rename_exchange. Both names stay; their inodes swap. */
static void rename_exchange(struct ramfs_inode *old_dir, struct ramfs_dentry *od,
			    struct ramfs_inode *new_dir, struct ramfs_dentry *nd)
{
	struct ramfs_inode *inode = od->inode, *target = nd->inode;

	od->inode = target;
	nd->inode = inode;
	if (S_ISDIR(inode->mode))
		reparent(inode, old_dir, new_dir);
	if (S_ISDIR(target->mode))
		reparent(target, new_dir, old_dir);
}

/* Linux: the checks simple_rename's callers make (do_renameat2's trap,
 * may_delete's types, simple_empty) for moving @inode onto @target. */
static int rename_check(const struct ramfs_inode *old_dir, const struct ramfs_inode *inode,
			const struct ramfs_inode *new_dir, const struct ramfs_inode *target,
			unsigned int flags)
{
	if ((flags & RENAME_NOREPLACE) && target)
		return -EEXIST;
	if ((flags & RENAME_EXCHANGE) && !target)
		return -ENOENT;
	if (S_ISDIR(inode->mode) && is_subdir(new_dir, inode))
		return -EINVAL;
	if (target && S_ISDIR(target->mode) && is_subdir(old_dir, target))
		return flags & RENAME_EXCHANGE ? -EINVAL : -ENOTEMPTY;
	if (!target || (flags & RENAME_EXCHANGE))
		return 0;
	if (S_ISDIR(inode->mode) != S_ISDIR(target->mode))
		return S_ISDIR(inode->mode) ? -ENOTDIR : -EISDIR;
	return S_ISDIR(target->mode) && target->children ? -ENOTEMPTY : 0;
}

int ramfs_rename(struct ramfs *fs, struct ramfs_inode *old_dir, const char *old_name,
		 struct ramfs_inode *new_dir, const char *new_name, unsigned int flags)
{
	size_t len = strlen(new_name);
	struct ramfs_dentry *od = find_child(old_dir, old_name, strlen(old_name));
	struct ramfs_dentry *nd = find_child(new_dir, new_name, len);
	struct ramfs_inode *inode, *target;
	char *copy;
	int err;

	if (!od || is_dot_or_dotdot(old_name, strlen(old_name)))
		return -ENOENT;
	if (!len || is_dot_or_dotdot(new_name, len))
		return -EBUSY;
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	inode = od->inode;
	target = nd ? nd->inode : NULL;
	if (target == inode)
		return 0; /* Linux: vfs_rename of two names of one inode does nothing */
	err = rename_check(old_dir, inode, new_dir, target, flags);
	if (err)
		return err;
	if (flags & RENAME_EXCHANGE) {
		rename_exchange(old_dir, od, new_dir, nd);
		return 0;
	}
	copy = fs->alloc(fs, len + 1); /* the one allocation: before any change */
	if (!copy)
		return -ENOMEM;
	memcpy(copy, new_name, len);
	if (nd) /* the replaced name goes as an unlink or rmdir would take it */
		ramfs_remove(fs, new_dir, new_name, len);
	unlink_dentry(old_dir, od);
	old_dir->size -= BOGO_DIRENT_SIZE;
	if (fs->free)
		fs->free(fs, (void *)od->name);
	od->name = copy;
	insert_dentry(new_dir, od);
	new_dir->size += BOGO_DIRENT_SIZE;
	if (S_ISDIR(inode->mode))
		reparent(inode, old_dir, new_dir);
	return 0;
}

void ihold(struct ramfs_inode *inode)
{
	inode->i_count++;
	if (inode->i_sb)
		inode->i_sb->nr_refs++;
}

void iput(struct ramfs_inode *inode)
{
	if (!inode->i_count) {
		pr_err("iput: inode %lu has no reference to drop\n", inode->ino);
		return;
	}
	if (inode->i_sb)
		inode->i_sb->nr_refs--;
	if (!--inode->i_count && !inode->nlink)
		evict(inode);
}

long ramfs_read(struct ramfs_inode *inode, uint64_t off, void *buf, size_t len)
{
	struct iov_iter iter;

	if (S_ISDIR(inode->mode))
		return -EISDIR;
	if (!S_ISREG(inode->mode) || !inode->i_mapping)
		return -EINVAL;
	iov_iter_kvec(&iter, ITER_DEST, buf, len);
	return filemap_read(inode->i_mapping, &off, &iter);
}

/* Linux: ls's filemode(); "rws" and "rwS" for set-id without/with x off. */
const char *ramfs_mode_string(uint32_t mode, char buf[11])
{
	static const char types[] = "?pc?d?b?-?l?s???";
	static const char rwx[] = "rwxrwxrwx";

	buf[0] = types[(mode & S_IFMT) >> 12];
	for (int i = 0; i < 9; i++)
		buf[1 + i] = mode & (0400 >> i) ? rwx[i] : '-';
	if (mode & 04000)
		buf[3] = buf[3] == 'x' ? 's' : 'S';
	if (mode & 02000)
		buf[6] = buf[6] == 'x' ? 's' : 'S';
	if (mode & 01000)
		buf[9] = buf[9] == 'x' ? 't' : 'T';
	buf[10] = '\0';
	return buf;
}

/* --- mappings of its files (Linux: mm/shmem.c's shmem_fault, shmem_mmap) --------- */

static const struct vm_operations_struct shmem_vm_ops, shmem_anon_vm_ops;

/* The huge= a file's faults follow: its mount's, or for the kernel's own
 * instance the global shmem_enabled (Linux: shmem_enabled_store sets
 * shm_mnt's huge but for force). */
static int shmem_sb_huge(const struct ramfs_inode *inode)
{
	if (inode->i_sb == &shm_mnt)
		return shmem_huge >= 0 ? shmem_huge : SHMEM_HUGE_NEVER;
	return inode->i_sb ? inode->i_sb->huge : SHMEM_HUGE_NEVER;
}

/*
 * Linux: shmem_alloc_and_add_folio. A zeroed folio of the largest order
 * in @orders the mapping takes and @left pages hold, added at @index
 * aligned down to it; an order that cannot be had (no memory, or a
 * smaller folio in its range) gives way to the next, then to one page.
 * Return: the folio holding @index, unlocked, with a reference; NULL
 * without memory.
 */
static struct folio *shmem_alloc_and_add_folio(struct address_space *mapping, pgoff_t index,
					       unsigned long orders, unsigned long left)
{
	gfp_t gfp = mapping_gfp_mask(mapping);

	for (orders |= 1; orders;) {
		unsigned int order = 63u - (unsigned int)__builtin_clzl(orders);
		struct folio *folio;

		orders &= ~(1ul << order);
		if (order && (order > mapping_max_folio_order(mapping) || (1ul << order) > left))
			continue;
		folio = folio_alloc(gfp | __GFP_ZERO | (order ? __GFP_NORETRY | __GFP_NOWARN : 0),
				    order);
		count_shmem_thp_alloc(mapping, order, folio);
		if (!folio)
			continue;
		folio_set_locked(folio);
		if (!filemap_add_folio(mapping, folio, ALIGN_DOWN(index, 1ul << order), gfp)) {
			folio_unlock(folio);
			return folio;
		}
		folio_clear_locked(folio);
		folio_put(folio);
	}
	return NULL;
}

/*
 * Linux: shmem_fault with shmem_get_folio_gfp(SGP_CACHE). The folio at
 * vmf->pgoff, made if the page is a hole: a read of a shared mapping
 * allocates too, unlike read(2). Past the end of the file is SIGBUS; so
 * is a hole the fs has no room for (-ENOSPC), and no memory is OOM. A
 * new folio takes the largest order shmem_allowable_huge_orders allows
 * (huge=, shmem_enabled, and for shared anonymous memory the per-size
 * shmem_enabled files) that the VMA can map and the fs has room for,
 * else the next allowed one, else a page (shmem_alloc_and_add_folio). A
 * folio fallocate left not uptodate is zero and becomes uptodate.
 */
static enum vm_fault_reason shmem_fault(struct vm_fault *vmf)
{
	struct ramfs_inode *inode = vmf->vma->vm_file->f_inode;
	struct address_space *mapping = inode->i_mapping;
	unsigned long left = space_left(inode), orders;
	struct folio *folio;

	if (vmf->pgoff >= DIV_ROUND_UP(inode->size, PAGE_SIZE))
		return VM_FAULT_SIGBUS;
	folio = filemap_get_folio(mapping, vmf->pgoff);
	if (IS_ERR(folio)) {
		if (!left)
			return VM_FAULT_SIGBUS;
		orders = shmem_allowable_huge_orders(
			shmem_sb_huge(inode), vmf->vma->vm_ops == &shmem_anon_vm_ops,
			vmf->vma->vm_flags, vmf->pgoff, inode->size, vmf->max_order);
		folio = shmem_alloc_and_add_folio(mapping, vmf->pgoff, orders, left);
		if (!folio)
			return VM_FAULT_OOM;
		ramfs_recalc_inode(inode);
	}
	if (!folio_test_uptodate(folio))
		folio_mark_uptodate(folio);
	vmf->folio = folio;
	return VM_FAULT_OK;
}

static const struct vm_operations_struct shmem_vm_ops = {
	.fault = shmem_fault,
};

/* Linux: shmem_anon_vm_ops, what vma_is_anon_shmem looks for. */
static const struct vm_operations_struct shmem_anon_vm_ops = {
	.fault = shmem_fault,
};

int shmem_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!file->f_inode->i_mapping)
		return -ENODEV;
	/* Linux: memfd_check_seals_mmap. A write-sealed file takes no new
	 * shared writable mapping, and a read-only one may never become
	 * writable; a private mapping's writes are its own. */
	if ((file->f_inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)) &&
	    (vma->vm_flags & VM_SHARED)) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		vma->vm_flags &= ~VM_MAYWRITE;
	}
	vma->vm_ops = &shmem_vm_ops;
	return 0;
}

long shmem_write_sealed(const struct ramfs_inode *inode, uint64_t pos, size_t len)
{
	uint64_t room;

	if (inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE))
		return -EPERM;
	if (!(inode->i_seals & F_SEAL_GROW) || pos + len <= inode->size)
		return (long)len;
	/* Linux 7.3 refuses in shmem_write_begin, a chunk at a time, and
	 * generic_perform_write's chunk is the mapping's largest folio (a
	 * PMD's for shmem): the whole chunks before the one that would
	 * grow the file are written. */
	room = ALIGN_DOWN(inode->size, PAGE_SIZE << MAX_PAGECACHE_ORDER);
	return pos < room ? (long)(room - pos) : -EPERM;
}

int shmem_setsize_sealed(const struct ramfs_inode *inode, uint64_t size)
{
	if ((size < inode->size && (inode->i_seals & F_SEAL_SHRINK)) ||
	    (size > inode->size && (inode->i_seals & F_SEAL_GROW)))
		return -EPERM;
	return 0;
}

int shmem_fallocate_sealed(const struct ramfs_inode *inode, int mode, uint64_t offset, uint64_t len)
{
	if ((mode & FALLOC_FL_PUNCH_HOLE) &&
	    (inode->i_seals & (F_SEAL_WRITE | F_SEAL_FUTURE_WRITE)))
		return -EPERM;
	if (!(mode & FALLOC_FL_PUNCH_HOLE) && (inode->i_seals & F_SEAL_GROW) &&
	    offset + len > inode->size)
		return -EPERM;
	return 0;
}

long shmem_fallocate(struct file *file, int mode, uint64_t offset, uint64_t len)
{
	struct ramfs_inode *inode = file->f_inode;
	int err = shmem_fallocate_sealed(inode, mode, offset, len);

	if (err)
		return err;
	file_modified(current, inode);
	return ramfs_fallocate(inode, mode, offset, len);
}

/* Linux: shm_mnt, the kernel's own tmpfs instance: no size limit, no
 * huge pages (shmem_enabled's default, never). Its files have no name,
 * so it needs no root directory and holds no memory of its own. */
static struct ramfs shm_mnt = {
	.alloc = ramfs_kzalloc,
	.free = ramfs_kfree,
	.huge = SHMEM_HUGE_NEVER,
};

struct file *shmem_file_setup(char *name, uint64_t size, const struct file_operations *fops)
{
	struct ramfs_inode *inode = new_inode(&shm_mnt, S_IFREG | 0777);
	struct file *file;

	if (!inode) {
		kfree(name);
		return NULL;
	}
	inode->nlink = 0;
	inode->size = size;
	inode->i_name = name;
	file = alloc_file(inode, fops, O_RDWR, FMODE_READ | FMODE_WRITE);
	if (!file) {
		ihold(inode);
		iput(inode); /* no name, no user: evicted */
	}
	return file;
}

/* Linux: shmem_zero_setup's vma->vm_ops = &shmem_anon_vm_ops. */
static int shmem_zero_mmap(struct file *file, struct vm_area_struct *vma)
{
	(void)file;
	vma->vm_ops = &shmem_anon_vm_ops;
	return 0;
}

/* A shared anonymous mapping's file has no fd: it is only mapped. */
static const struct file_operations shmem_zero_fops = {
	.mmap = shmem_zero_mmap, .fallocate = shmem_fallocate, /* MADV_REMOVE */
};

struct file *shmem_zero_setup(uint64_t size, unsigned long vm_flags)
{
	static const char zero_name[] = "dev/zero"; /* Linux's, for /proc/PID/maps */
	/* Linux: shmem_acct_size, the whole size at once unless
	 * MAP_NORESERVE; given back when the file goes (evict). */
	long charged =
		vm_flags & VM_NORESERVE ? 0 : (long)(ALIGN_UP(size, PAGE_SIZE) >> PAGE_SHIFT);
	char *name;
	struct file *file;

	if (charged && __vm_enough_memory(current->mm, charged, true))
		return NULL;
	name = kmalloc(sizeof(zero_name), GFP_KERNEL);
	if (name)
		memcpy(name, zero_name, sizeof(zero_name));
	file = shmem_file_setup(name, size, &shmem_zero_fops);
	if (!file) {
		vm_unacct_memory(charged);
		return NULL;
	}
	file->f_inode->acct_size_pages = (unsigned long)charged;
	/* Its faults' folio sizes are the shmem_enabled files' to choose
	 * (shmem_allowable_huge_orders); it has no fd to write through. */
	mapping_set_large_folios(file->f_inode->i_mapping);
	return file;
}
