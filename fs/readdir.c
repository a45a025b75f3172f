/*
 * getdents64 and the initramfs's directories (Linux: fs/readdir.c,
 * fs/libfs.c dcache_readdir). A directory's f_pos counts entries: 0 is
 * ".", 1 is "..", 2 + i the i-th name of the sorted list. Example: /etc
 * holding only motd gives ".", "..", "motd" (d_type DT_DIR, DT_DIR,
 * DT_REG), each record 8-byte aligned, d_off the next entry's position;
 * the next getdents64 returns 0.
 */
#include <sched.h>
#include <syscalls.h>
#include <vm.h>

/* Linux: struct linux_dirent64, the user's layout (a 19-byte header). */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
} __packed;

/* Linux: fs_umode_to_dtype: DT_REG 8, DT_DIR 4, DT_LNK 10, DT_CHR 2. */
static unsigned int dtype(uint32_t mode)
{
	return (mode & S_IFMT) >> 12;
}

bool dir_emit_dots(struct file *file, struct dir_context *ctx)
{
	const struct ramfs_inode *dir = file->f_inode;

	if (ctx->pos == 0 && !ctx->actor(ctx, ".", 1, dir->ino, dtype(dir->mode)))
		return false;
	if (ctx->pos == 0)
		ctx->pos = 1;
	if (ctx->pos == 1 && !ctx->actor(ctx, "..", 2, dir->parent->ino, dtype(S_IFDIR)))
		return false;
	if (ctx->pos == 1)
		ctx->pos = 2;
	return true;
}

int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	const struct ramfs_dentry *d = file->f_inode->children;

	if (!dir_emit_dots(file, ctx))
		return 0;
	for (uint64_t i = 2; d; d = d->next, i++) {
		if (i < ctx->pos)
			continue;
		if (!ctx->actor(ctx, d->name, (int)strlen(d->name), d->inode->ino,
				dtype(d->inode->mode)))
			return 0;
		ctx->pos = i + 1;
	}
	return 0;
}

/* Linux: dcache_dir_lseek: positions are entry counts, from the start
 * or the current one. */
static int64_t dcache_dir_lseek(struct file *file, int64_t offset, int whence)
{
	return no_seek_end_llseek(file, offset, whence);
}

long generic_read_dir(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	return -EISDIR;
}

const struct file_operations ramfs_dir_fops = {
	.read = generic_read_dir,
	.llseek = dcache_dir_lseek,
	.iterate_shared = dcache_readdir,
};

/* Linux: struct getdents_callback64. */
struct getdents_callback64 {
	struct dir_context ctx;
	unsigned long dirent; /* where the next record goes */
	size_t count;	      /* bytes left there */
	int error;
};

/* Linux: filldir64. A record that does not fit ends the call; if it is
 * the first, the buffer is too small: -EINVAL. */
static bool filldir64(struct dir_context *ctx, const char *name, int namelen, uint64_t ino,
		      unsigned int d_type)
{
	struct getdents_callback64 *buf = (struct getdents_callback64 *)ctx;
	size_t reclen = ALIGN_UP(offsetof(struct linux_dirent64, d_name) + namelen + 1, 8);
	char rec[ALIGN_UP(sizeof(struct linux_dirent64) + NAME_MAX + 1, 8)] = { 0 };
	struct linux_dirent64 *de = (struct linux_dirent64 *)rec;

	if (reclen > buf->count) {
		buf->error = -EINVAL;
		return false;
	}
	de->d_ino = ino;
	de->d_off = (int64_t)ctx->pos + 1;
	de->d_reclen = (uint16_t)reclen;
	de->d_type = (uint8_t)d_type;
	memcpy(de->d_name, name, (size_t)namelen);
	if (copy_to_user(buf->dirent, rec, reclen)) {
		buf->error = -EFAULT;
		return false;
	}
	buf->dirent += reclen;
	buf->count -= reclen;
	return true;
}

SYSCALL_DEFINE3(getdents64, int, fd, unsigned long, dirent, unsigned int, count)
{
	struct getdents_callback64 buf = {
		.ctx.actor = filldir64,
		.dirent = dirent,
		.count = count,
	};
	struct file *file = fget(task, fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = -ENOTDIR;
	if (!file->f_op->iterate_shared)
		goto out;
	buf.ctx.pos = file->f_pos;
	ret = file->f_op->iterate_shared(file, &buf.ctx);
	file->f_pos = buf.ctx.pos;
	if (!ret)
		ret = count - buf.count; /* Linux: what fit, else the error */
	if (ret == 0 && buf.error)
		ret = buf.error;
out:
	fput(file);
	return ret;
}
