/*
 * Page faults in the lower half, and the kernel's way in and out of it.
 * A #PF there goes to handle_mm_fault on the current mm; resolved, the
 * instruction retries. Unresolved, the access is reported and, if the
 * faulting instruction is listed in __ex_table (uaccess.asm), execution
 * resumes at its fixup so only the workload ends (Linux: exception
 * tables, fixup_exception). Example: fill_user(0x1000, 0, 1) outside any
 * VMA prints "bad access at 0x1000: no mapping at this address (write
 * from __fill_user+0x5)" and returns -EFAULT; the shell goes on.
 */
#include <ksyms.h>
#include <vm.h>
#include <asm/special_insns.h>
#include "x86.h"

/* Page-fault error code bits used here (full layout in traps.c). */
#define PF_WRITE (1u << 1)
#define PF_USER (1u << 2)
#define PF_RSVD (1u << 3)
#define PF_INSTR (1u << 4)

struct exception_table_entry {
	uint64_t insn;	/* an instruction that may fault on the lower half */
	uint64_t fixup; /* where it resumes if the fault is not resolved */
};
extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

/* Return: the fixup address for rip, or 0 if rip has none. */
static uint64_t search_exception_tables(uint64_t rip)
{
	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == rip)
			return e->fixup;
	return 0;
}

bool do_page_fault(struct trap_frame *f)
{
	unsigned long addr = read_cr2();
	unsigned int flags = 0;
	enum vm_fault_reason reason;
	char from[64];
	uint64_t off, fixup;
	const char *sym;

	/* A reserved bit is a page-table bug, not an access to resolve. */
	if (addr >= USER_VA_END || !current_mm || (f->error_code & PF_RSVD))
		return false;
	if (f->error_code & PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (f->error_code & PF_INSTR)
		flags |= FAULT_FLAG_INSTRUCTION;
	reason = handle_mm_fault(current_mm, addr, flags);
	if (reason == VM_FAULT_OK)
		return true;
	if (f->error_code & PF_USER)
		return false; /* the program's own access: user_fault() ends it */
	sym = ksym_lookup(f->rip, &off);
	ksnprintf(from, sizeof(from), "%s+0x%llx", sym ? sym : "?", (unsigned long long)off);
	vm_fault_report(addr, reason, flags, from);
	fixup = search_exception_tables(f->rip);
	if (!fixup)
		return false; /* kernel code outside uaccess: die() reports it */
	f->rip = fixup;
	return true;
}

/* The raw copies (uaccess.asm). Return: bytes not copied. */
unsigned long __copy_user(void *dst, const void *src, size_t len);
unsigned long __fill_user(void *dst, int byte, size_t len);

/* Linux: access_ok. A range reaching the upper half is never touched. */
static bool access_ok(unsigned long addr, size_t len, unsigned int flags)
{
	if (addr + len >= addr && addr + len <= USER_VA_END)
		return true;
	vm_fault_report(addr, VM_FAULT_NOVMA, flags, "access_ok");
	return false;
}

int copy_to_user(unsigned long dst, const void *src, size_t len)
{
	if (!access_ok(dst, len, FAULT_FLAG_WRITE))
		return -EFAULT;
	return __copy_user((void *)dst, src, len) ? -EFAULT : 0;
}

int copy_from_user(void *dst, unsigned long src, size_t len)
{
	if (!access_ok(src, len, 0))
		return -EFAULT;
	return __copy_user(dst, (const void *)src, len) ? -EFAULT : 0;
}

int fill_user(unsigned long dst, int byte, size_t len)
{
	if (!access_ok(dst, len, FAULT_FLAG_WRITE))
		return -EFAULT;
	return __fill_user((void *)dst, byte, len) ? -EFAULT : 0;
}
