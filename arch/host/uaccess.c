/*
 * The lower half from the host test program: copies go page by page
 * through the software MMU and its TLB (asm/mmu.h), which see the mm's
 * page tables as the CPU would, stale translations included until they
 * are flushed. A page it cannot translate is a fault: handle_mm_fault
 * resolves it and the page is retried, or the access is reported and
 * -EFAULT returned, as the kernel's exception-table fixup does. Example:
 * copy_to_user(0x40000ff0, buf, 32) translates 0x40000ff0 (16 bytes) and
 * 0x40001000 (16 bytes), faulting each page in on first touch.
 */
#include <asm/mmu.h>
#include <vm.h>

/* Return: the host address of addr for this access, faulting it in; or
 * NULL after the report. */
static void *user_page(unsigned long addr, bool write, const char *from)
{
	unsigned int flags = write ? FAULT_FLAG_WRITE : 0;
	enum vm_fault_reason reason = VM_FAULT_NOVMA;
	void *p;

	for (int tries = 0; tries < 2; tries++) {
		if (!current_mm || addr >= USER_VA_END)
			break;
		if (host_mmu_translate(current_mm, addr, write, &p) == 0)
			return p;
		reason = handle_mm_fault(current_mm, addr, flags);
		if (reason != VM_FAULT_OK)
			break;
	}
	/* Resolved but still not translatable would be an MMU/fault bug. */
	vm_fault_report(addr, reason, flags, from);
	return NULL;
}

/* Apply op to [addr, addr + len) one page piece at a time. */
static int user_walk(unsigned long addr, size_t len, bool write, const char *from,
		     void (*op)(void *user, size_t n, size_t done, void *arg), void *arg)
{
	size_t done = 0;

	if (addr + len < addr)
		return -EFAULT;
	while (done < len) {
		unsigned long a = addr + done;
		size_t n = MIN(len - done, PAGE_SIZE - (a & (PAGE_SIZE - 1)));
		void *p = user_page(a, write, from);

		if (!p)
			return -EFAULT;
		op(p, n, done, arg);
		done += n;
	}
	return 0;
}

static void op_to(void *user, size_t n, size_t done, void *arg)
{
	memcpy(user, (const char *)arg + done, n);
}

static void op_from(void *user, size_t n, size_t done, void *arg)
{
	memcpy((char *)arg + done, user, n);
}

static void op_fill(void *user, size_t n, size_t done, void *arg)
{
	memset(user, *(int *)arg, n);
}

int copy_to_user(unsigned long dst, const void *src, size_t len)
{
	return user_walk(dst, len, true, "copy_to_user", op_to, (void *)src);
}

int copy_from_user(void *dst, unsigned long src, size_t len)
{
	return user_walk(src, len, false, "copy_from_user", op_from, dst);
}

int fill_user(unsigned long dst, int byte, size_t len)
{
	return user_walk(dst, len, true, "fill_user", op_fill, &byte);
}
