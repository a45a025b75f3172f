/*
 * read, write, their vector and positioned forms, and lseek (Linux:
 * fs/read_write.c): the fd's access mode is checked, then the call goes
 * to file->f_op for every kind of file. The initramfs's regular files
 * are read from their page cache (ramfs_file_fops, filemap_read). Example: with
 * /etc/motd open at fd 3, read(3, buf, 4) copies bytes 0-3 and moves
 * f_pos to 4; pread64(3, buf, 4, 0) copies them again and leaves f_pos.
 */
#include <asm/processor.h>
#include <slab.h>
#include <syscalls.h>
#include <timekeeping.h>
#include <sched.h>
#include <signal.h>
#include <vm.h>

#define UIO_FASTIOV 8	/* vectors kept on the stack (Linux's number) */
#define UIO_MAXIOV 1024 /* Linux's limit on a vector's length */

/* Linux: struct iovec (the user's layout). */
struct iovec {
	uint64_t iov_base;
	uint64_t iov_len;
};

/* Linux: access_ok. */
static bool access_ok(unsigned long addr, size_t size)
{
	return size <= TASK_SIZE && addr <= TASK_SIZE - size;
}

/* Linux: generic_file_read_iter for a file of the page cache. */
static long ramfs_file_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct address_space *mapping = file->f_inode->i_mapping;
	struct iov_iter iter;
	long n;

	if (!mapping)
		return -EINVAL;
	iov_iter_ubuf(&iter, ITER_DEST, buf, count);
	n = filemap_read(mapping, pos, &iter);
	file_accessed(file->f_inode);
	return n;
}

/* Linux: generic_write_checks and generic_write_check_limits. O_APPEND
 * writes at the end; a write starting at RLIMIT_FSIZE or past it is
 * SIGXFSZ and -EFBIG, one that would cross it is cut there. Return: the
 * bytes that may be written, or -EFBIG. */
static long write_checks(struct file *file, uint64_t *pos, size_t count)
{
	uint64_t limit = task_rlimit(current, RLIMIT_FSIZE);

	if (file->f_flags & O_APPEND)
		*pos = file->f_inode->size;
	if (!count)
		return 0;
	if (*pos >= limit) {
		send_signal(current, SIGXFSZ, NULL);
		return -EFBIG;
	}
	return (long)MIN((uint64_t)count, limit - *pos);
}

/* Linux: generic_file_write_iter for a file of the page cache: the bytes
 * go into its folios (generic_perform_write), the size grows. */
static long ramfs_file_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	struct ramfs_inode *inode = file->f_inode;
	struct iov_iter iter;
	long n;

	if (!inode->i_mapping)
		return -EINVAL;
	n = write_checks(file, pos, count);
	if (n <= 0)
		return n;
	file_modified(current, inode); /* before the bytes go in (or do not fit) */
	n = shmem_write_sealed(inode, *pos, (size_t)n);
	if (n < 0)
		return n;
	n = (long)ramfs_write_room(inode, *pos, (size_t)n); /* tmpfs's size limit */
	if (!n)
		return -ENOSPC;
	iov_iter_ubuf(&iter, ITER_SOURCE, buf, (size_t)n);
	n = generic_perform_write(inode->i_mapping, &iter, *pos);
	ramfs_recalc_inode(inode);
	if (n > 0)
		*pos += (uint64_t)n;
	return n;
}

int64_t generic_file_llseek(struct file *file, int64_t offset, int whence)
{
	int64_t size = (int64_t)file->f_inode->size;

	switch (whence) {
	case SEEK_SET:
		break;
	case SEEK_CUR:
		offset += (int64_t)file->f_pos;
		break;
	case SEEK_END:
		offset += size;
		break;
	case SEEK_DATA: /* no holes: data is everywhere before the end */
		if (offset < 0 || offset >= size)
			return -ENXIO;
		break;
	case SEEK_HOLE: /* the one hole starts at the end */
		if (offset < 0 || offset >= size)
			return -ENXIO;
		offset = size;
		break;
	default:
		return -EINVAL;
	}
	if (offset < 0)
		return -EINVAL;
	file->f_pos = (uint64_t)offset;
	return offset;
}

const struct file_operations ramfs_file_fops = {
	.read = ramfs_file_read,
	.write = ramfs_file_write,
	.llseek = generic_file_llseek,
	.mmap = shmem_mmap,
	.fallocate = shmem_fallocate,
};

/* Linux: vfs_read. */
static long vfs_read(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	if (!(file->f_mode & FMODE_READ))
		return -EBADF;
	if (!file->f_op->read)
		return -EINVAL;
	if (!access_ok(buf, count))
		return -EFAULT;
	if ((int64_t)*pos < 0)
		return -EINVAL;
	return file->f_op->read(file, buf, MIN(count, (size_t)MAX_RW_COUNT), pos);
}

/* Linux: vfs_write. O_APPEND writes at the end, whatever f_pos says. */
static long vfs_write(struct file *file, unsigned long buf, size_t count, uint64_t *pos)
{
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (!file->f_op->write)
		return -EINVAL;
	if (!access_ok(buf, count))
		return -EFAULT;
	if ((int64_t)*pos < 0)
		return -EINVAL;
	if ((file->f_flags & O_APPEND) && file->f_inode && S_ISREG(file->f_inode->mode))
		*pos = file->f_inode->size;
	return file->f_op->write(file, buf, MIN(count, (size_t)MAX_RW_COUNT), pos);
}

SYSCALL_DEFINE3(read, int, fd, unsigned long, buf, size_t, count)
{
	struct file *file = fget(task, fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = vfs_read(file, buf, count, &file->f_pos);
	fput(file);
	return ret;
}

SYSCALL_DEFINE3(write, int, fd, unsigned long, buf, size_t, count)
{
	struct file *file = fget(task, fd);
	long ret;

	if (!file)
		return -EBADF;
	ret = vfs_write(file, buf, count, &file->f_pos);
	fput(file);
	return ret;
}

/* Linux: ksys_pread64 / ksys_pwrite64: the file's position is left alone;
 * a file without positions (console, pipe) is -ESPIPE. */
static long rw_at(struct task_struct *task, int fd, unsigned long buf, size_t count, int64_t pos,
		  bool write)
{
	struct file *file;
	uint64_t p = (uint64_t)pos;
	long ret = -ESPIPE;

	if (pos < 0)
		return -EINVAL;
	file = fget(task, fd);
	if (!file)
		return -EBADF;
	if (file->f_mode & (write ? FMODE_PWRITE : FMODE_PREAD))
		ret = write ? vfs_write(file, buf, count, &p) : vfs_read(file, buf, count, &p);
	fput(file);
	return ret;
}

SYSCALL_DEFINE4(pread64, int, fd, unsigned long, buf, size_t, count, int64_t, pos)
{
	return rw_at(task, fd, buf, count, pos, false);
}

SYSCALL_DEFINE4(pwrite64, int, fd, unsigned long, buf, size_t, count, int64_t, pos)
{
	return rw_at(task, fd, buf, count, pos, true);
}

/*
 * Linux: import_iovec, then do_loop_readv_writev: the whole vector is
 * read and checked first (a length that is negative as ssize_t is
 * -EINVAL), then each part in turn until one comes back short.
 */
static long do_readv_writev(struct task_struct *task, int fd, unsigned long vec, unsigned long vlen,
			    bool write)
{
	struct iovec fast[UIO_FASTIOV], *iov = fast;
	struct file *file = fget(task, fd);
	long ret, total = 0;

	if (!file)
		return -EBADF;
	ret = -EBADF;
	if (!(file->f_mode & (write ? FMODE_WRITE : FMODE_READ)))
		goto out;
	ret = -EINVAL;
	if (!(write ? file->f_op->write : file->f_op->read) || vlen > UIO_MAXIOV)
		goto out;
	ret = -ENOMEM;
	if (vlen > UIO_FASTIOV && !(iov = kmalloc(vlen * sizeof(*iov), GFP_KERNEL)))
		goto out;
	ret = -EFAULT;
	if (vlen && copy_from_user(iov, vec, vlen * sizeof(*iov)))
		goto out;
	ret = -EINVAL;
	for (unsigned long i = 0; i < vlen; i++)
		if ((int64_t)iov[i].iov_len < 0)
			goto out;
	for (unsigned long i = 0; i < vlen; i++) {
		long n = write ? vfs_write(file, iov[i].iov_base, iov[i].iov_len, &file->f_pos)
			       : vfs_read(file, iov[i].iov_base, iov[i].iov_len, &file->f_pos);

		if (n < 0) {
			total = total ? total : n;
			break;
		}
		total += n;
		if ((size_t)n != iov[i].iov_len)
			break;
	}
	ret = total;
out:
	if (iov != fast)
		kfree(iov);
	fput(file);
	return ret;
}

SYSCALL_DEFINE3(readv, int, fd, unsigned long, vec, unsigned long, vlen)
{
	return do_readv_writev(task, fd, vec, vlen, false);
}

SYSCALL_DEFINE3(writev, int, fd, unsigned long, vec, unsigned long, vlen)
{
	return do_readv_writev(task, fd, vec, vlen, true);
}

/* Linux: ksys_lseek; a file without llseek (console, pipe) is -ESPIPE. */
SYSCALL_DEFINE3(lseek, int, fd, int64_t, offset, unsigned int, whence)
{
	struct file *file = fget(task, fd);
	int64_t ret = -EINVAL;

	if (!file)
		return -EBADF;
	if (whence <= SEEK_HOLE)
		ret = file->f_op->llseek ? file->f_op->llseek(file, offset, (int)whence) : -ESPIPE;
	fput(file);
	return ret;
}
