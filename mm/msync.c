/*
 * msync (Linux: mm/msync.c). Folium's files live in the page cache with
 * no backing store (tmpfs), so there is nothing to write back: what is
 * left is Linux's argument checks and its answers for the range, which
 * programs rely on (-ENOMEM for a hole, -EBUSY for MS_INVALIDATE of
 * locked pages). Example: msync(addr, 4096, MS_SYNC) of a shared mapping
 * of a tmpfs file is 0 (Linux: shmem's noop_fsync).
 */
#include <mman.h>
#include <syscalls.h>
#include <vm.h>

long do_msync(struct mm_struct *mm, unsigned long start, size_t len, int flags)
{
	unsigned long end;
	long unmapped_error = 0;

	if (flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC))
		return -EINVAL;
	if (start & (PAGE_SIZE - 1))
		return -EINVAL;
	if ((flags & MS_ASYNC) && (flags & MS_SYNC))
		return -EINVAL;
	len = ALIGN_UP(len, PAGE_SIZE);
	end = start + len;
	if (end < start)
		return -ENOMEM;
	while (start < end) {
		struct vm_area_struct *vma = find_vma_intersection(mm, start, end);

		if (!vma)
			return -ENOMEM; /* nothing mapped from here to the end */
		if (start < vma->vm_start) {
			if (flags == MS_ASYNC)
				return -ENOMEM; /* Linux: MS_ASYNC alone stops at a hole */
			unmapped_error = -ENOMEM;
		}
		if ((flags & MS_INVALIDATE) && (vma->vm_flags & VM_LOCKED))
			return -EBUSY;
		start = vma->vm_end;
	}
	return unmapped_error;
}

SYSCALL_DEFINE3(msync, unsigned long, start, size_t, len, int, flags)
{
	return do_msync(task->mm, start, len, flags);
}
