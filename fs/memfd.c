/*
 * memfd (Linux: mm/memfd.c): memfd_create makes an unnamed tmpfs file on
 * the kernel's own instance (shmem_file_setup), open for reading and
 * writing, and fcntl's F_ADD_SEALS / F_GET_SEALS seal it. The seals are
 * enforced where the file changes: write (shmem_write_sealed), truncate
 * (shmem_setsize_sealed), fallocate, chmod (F_SEAL_EXEC) and mmap
 * (shmem_mmap). Example: memfd_create("buf", MFD_ALLOW_SEALING), write,
 * then F_ADD_SEALS(F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE): every
 * later write, truncate and shared writable mmap is -EPERM, and
 * /proc/self/fd/N reads "/memfd:buf (deleted)".
 */
#include <fs.h>
#include <ramfs.h>
#include <sched.h>
#include <slab.h>
#include <syscalls.h>

/* memfd_create's flags (Linux's values). */
#define MFD_CLOEXEC 0x0001u
#define MFD_ALLOW_SEALING 0x0002u
#define MFD_HUGETLB 0x0004u
#define MFD_NOEXEC_SEAL 0x0008u
#define MFD_EXEC 0x0010u
#define MFD_ALL_FLAGS (MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB | MFD_NOEXEC_SEAL | MFD_EXEC)
#define MFD_NAME_PREFIX "memfd:"
#define MFD_NAME_MAX_LEN (255 - (sizeof(MFD_NAME_PREFIX) - 1))

/* Linux: memfd_add_seals. The fd must be open for writing; a file with
 * F_SEAL_SEAL takes no more; F_SEAL_WRITE needs no shared mapping that
 * may write (mapping_deny_writable: -EBUSY); F_SEAL_EXEC on a file
 * whose exec bits are set seals writes too (W^X from then on). */
static long memfd_add_seals(struct file *file, unsigned int seals)
{
	struct ramfs_inode *inode = file->f_inode;

	if (!(file->f_mode & FMODE_WRITE))
		return -EPERM;
	if (seals & ~(unsigned int)F_ALL_SEALS)
		return -EINVAL;
	if (!inode->i_mapping || !shmem_mapping(inode->i_mapping))
		return -EINVAL;
	if (inode->i_seals & F_SEAL_SEAL)
		return -EPERM;
	if ((seals & F_SEAL_WRITE) && !(inode->i_seals & F_SEAL_WRITE) &&
	    inode->i_mapping->i_mmap_writable > 0)
		return -EBUSY;
	if ((seals & F_SEAL_EXEC) && (inode->mode & 0111))
		seals |= F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_FUTURE_WRITE;
	inode->i_seals |= seals;
	return 0;
}

long memfd_fcntl(struct file *file, unsigned int cmd, unsigned int arg)
{
	const struct ramfs_inode *inode = file->f_inode;

	if (cmd == F_ADD_SEALS)
		return memfd_add_seals(file, arg);
	/* F_GET_SEALS: a file that is no tmpfs file has none to show. */
	if (!inode->i_mapping || !shmem_mapping(inode->i_mapping))
		return -EINVAL;
	return inode->i_seals;
}

/*
 * Linux: sys_memfd_create. Flags first (MFD_EXEC with MFD_NOEXEC_SEAL is
 * -EINVAL; neither means MFD_EXEC, vm.memfd_noexec's default 0, with
 * Linux's one-time warning), then the name (at most 249 bytes:
 * -EINVAL beyond, -EFAULT unreadable), then the fd. The file is mode
 * 0777 owned by the caller, with F_SEAL_SEAL unless sealing was asked
 * for; MFD_NOEXEC_SEAL drops the exec bits and seals them. MFD_HUGETLB
 * (a hugetlbfs file in Linux) is not served: -EINVAL.
 */
SYSCALL_DEFINE2(memfd_create, unsigned long, uname, unsigned int, flags)
{
	static bool warned;
	struct ramfs_inode *inode;
	struct file *file;
	char *path, *name;
	int err = 0, fd;
	size_t len;

	if ((flags & ~MFD_ALL_FLAGS) || (flags & MFD_HUGETLB))
		return -EINVAL;
	if ((flags & MFD_EXEC) && (flags & MFD_NOEXEC_SEAL))
		return -EINVAL;
	if (!(flags & (MFD_EXEC | MFD_NOEXEC_SEAL))) {
		if (!warned)
			pr_warn("%s[%d]: memfd_create() called without MFD_EXEC or "
				"MFD_NOEXEC_SEAL set\n",
				task->comm, task->pid);
		warned = true;
		flags |= MFD_EXEC;
	}
	path = getname(uname, &err);
	if (!path)
		return err == -ENAMETOOLONG ? -EINVAL : err;
	len = strlen(path);
	name = len <= MFD_NAME_MAX_LEN ? kmalloc(sizeof(MFD_NAME_PREFIX) + len, GFP_KERNEL) : NULL;
	if (name) {
		memcpy(name, MFD_NAME_PREFIX, sizeof(MFD_NAME_PREFIX) - 1);
		memcpy(name + sizeof(MFD_NAME_PREFIX) - 1, path, len + 1);
	}
	kfree(path);
	if (!name)
		return len > MFD_NAME_MAX_LEN ? -EINVAL : -ENOMEM;
	file = shmem_file_setup(name, 0, &ramfs_file_fops);
	if (!file)
		return -ENOMEM;
	file->f_flags |= O_LARGEFILE;
	file->f_mode |= FMODE_PREAD | FMODE_PWRITE;
	inode = file->f_inode;
	inode->uid = task->cred.fsuid;
	inode->gid = task->cred.fsgid;
	if (flags & MFD_NOEXEC_SEAL) {
		inode->mode &= ~0111u;
		inode->i_seals = F_SEAL_EXEC;
	} else if (flags & MFD_ALLOW_SEALING) {
		inode->i_seals = 0;
	}
	fd = fd_install_lowest(task, file, 0, flags & MFD_CLOEXEC);
	if (fd < 0)
		fput(file);
	return fd;
}
