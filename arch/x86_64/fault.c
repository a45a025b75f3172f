/*
 * Page faults in the lower half, and the kernel's way in and out of it.
 * A #PF there goes to handle_mm_fault on the current mm; resolved, the
 * instruction retries. Unresolved, the access is reported and, if the
 * faulting instruction is listed in __ex_table (uaccess.asm), execution
 * resumes at its fixup so only the workload ends (Linux: exception
 * tables, fixup_exception). Example: fill_user(0x1000, 0, 1) outside any
 * VMA prints "bad access at 0x1000: no mapping at this address (write
 * from __fill_user+0x5)" and returns -EFAULT; the shell goes on.
 * With SMAP (setup_smap), a kernel access to a user page outside the
 * copies faults on a present entry; it is reported as "SMAP violation"
 * and never handed to handle_mm_fault, which would see nothing to fix
 * and retry it forever.
 */
#include <ksyms.h>
#include <sched.h>
#include <vm.h>
#include <asm/smap.h>
#include <asm/special_insns.h>
#include "x86.h"

/* Page-fault error code bits used here (full layout in traps.c). */
#define PF_PROT (1u << 0) /* the entry was present: a protection fault */
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

bool smap_enabled;

/* CPUID leaf 7, subleaf 0, register EBX; 0 when the CPU has no leaf 7. */
static uint32_t cpuid_7_ebx(void)
{
	uint32_t a, b, c, d;

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	if (a < 7)
		return 0;
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
	return b;
}

void setup_smap(void)
{
	if (!(cpuid_7_ebx() & (1u << 20))) { /* CPUID.(7,0):EBX.SMAP */
		pr_info("SMAP: not supported by this CPU\n");
		return;
	}
	write_cr4(read_cr4() | X86_CR4_SMAP);
	smap_enabled = true;
	pr_info("SMAP: on\n");
}

/* Does the entry mapping addr in mm let ring 3 in (_PAGE_USER)? */
static bool user_page(struct mm_struct *mm, unsigned long addr)
{
	pmd_t *pmd = mm_find_pmd(mm, addr);
	pte_t *pte;

	if (!pmd || !pmd_present(*pmd))
		return false;
	if (pmd_leaf(*pmd))
		return *pmd & _PAGE_USER;
	pte = pte_offset_map(pmd, addr);
	return pte && pte_present(*pte) && (*pte & _PAGE_USER);
}

/* Linux: the SMAP check of do_user_addr_fault. A ring-0 data access
 * with AC clear to a present user page: only SMAP refuses that. */
static bool smap_violation(const struct trap_frame *f, unsigned long addr)
{
	return smap_enabled && (f->error_code & PF_PROT) &&
	       !(f->error_code & (PF_USER | PF_INSTR)) && !(f->rflags & X86_EFLAGS_AC) &&
	       user_page(current_mm, addr);
}

/* Where the fault came from, "symbol+0xoff", for the reports. */
static void fault_origin(uint64_t rip, char *buf, size_t len)
{
	uint64_t off;
	const char *sym = ksym_lookup(rip, &off);

	ksnprintf(buf, len, "%s+0x%llx", sym ? sym : "?", (unsigned long long)off);
}

bool do_page_fault(struct trap_frame *f)
{
	unsigned long addr = read_cr2();
	unsigned int flags = 0;
	enum vm_fault_reason reason;
	char from[64];
	uint64_t fixup;

	/* A reserved bit is a page-table bug, not an access to resolve. */
	if (addr >= USER_VA_END || !current_mm || (f->error_code & PF_RSVD))
		return false;
	if (f->error_code & PF_WRITE)
		flags |= FAULT_FLAG_WRITE;
	if (f->error_code & PF_INSTR)
		flags |= FAULT_FLAG_INSTRUCTION;
	if (smap_violation(f, addr)) {
		fault_origin(f->rip, from, sizeof(from));
		pr_err("SMAP violation: kernel %s of user page %#lx (from %s)\n",
		       flags & FAULT_FLAG_WRITE ? "write" : "read", addr, from);
		fixup = search_exception_tables(f->rip);
		f->rip = fixup ? fixup : f->rip;
		return fixup != 0; /* no fixup: die() reports the oops */
	}
	reason = handle_mm_fault(current_mm, addr, flags);
	if (reason == VM_FAULT_OK)
		return true;
	user_fault_reason = reason;
	/* The program's own access: no memory left kills it as Linux's
	 * do_user_addr_fault does; anything else user_fault() reports. */
	if (f->error_code & PF_USER)
		return reason == VM_FAULT_OOM && pagefault_out_of_memory();
	/* A shell workload's bad address is worth a line; a program's bad
	 * pointer to a system call is only its -EFAULT, as on Linux. */
	if (current->flags & PF_KTHREAD) {
		fault_origin(f->rip, from, sizeof(from));
		vm_fault_report(addr, reason, flags, from);
	}
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
	if (current->flags & PF_KTHREAD)
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
