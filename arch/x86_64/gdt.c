/*
 * GDT, TSS and the per-CPU area. Long mode ignores segment bases and
 * limits, so the GDT holds a code and a data segment for ring 0 and for
 * ring 3 (in the order SYSCALL/SYSRET derive them from STAR) and the TSS.
 * The TSS has two jobs: rsp0, the stack a trap from ring 3 switches to,
 * and the Interrupt Stack Table: a double fault (often a kernel stack
 * overflow) and an NMI switch to stacks of their own, so they can still be
 * reported when the current stack is unusable. Each CPU has its own GDT,
 * TSS, IST stacks and per-CPU area (struct cpu_tables, struct percpu).
 */
#include <sched.h>
#include <smp.h>
#include <asm/io.h>
#include "x86.h"

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7]; /* ist[0] is IST1 */
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __packed;

#define IST_STACK_SIZE 16384

/* What each CPU has of its own (Linux: the GDT page, cpu_tss_rw and the
 * exception stacks of struct cpu_entry_area). The TSS comes first: in a
 * page-aligned allocation it never crosses a page. */
struct cpu_tables {
	struct tss tss;
	uint64_t gdt[8];
	uint8_t ist_stacks[2][IST_STACK_SIZE] __attribute__((aligned(16)));
};

static struct cpu_tables boot_cpu_tables __attribute__((aligned(4096)));

/*
 * Descriptor layout (SDM vol. 3A, 3.4.5): for code/data only the access
 * byte (bits 40-47) and flags (52-55, L = bit 53) matter in long mode.
 *   0x00af9a000000ffff: present, ring 0, code, exec/read, L=1, G=1
 *   0x00cf92000000ffff: present, ring 0, data, read/write, G=1
 *   0x00cff2000000ffff: the same data segment with DPL 3 (USER_DS)
 *   0x00affa000000ffff: the same code segment with DPL 3 (USER_CS)
 * The TSS descriptor is 16 bytes (index 6 and 7), type 0x9 (available).
 */
#define GDT_TSS (TSS_SEL / 8)
static const uint64_t gdt_template[8] = {
	0,
	0x00af9a000000ffffull,
	0x00cf92000000ffffull,
	0,
	0x00cff2000000ffffull,
	0x00affa000000ffffull,
	0,
	0,
};

/* Linux: pcpu_hot, current_task = &init_task from the first instruction. */
static struct percpu boot_cpu_area = { .current_task = &init_task };
struct percpu *per_cpu_area[NR_CPUS] = { &boot_cpu_area };

static void set_tss_descriptor(struct cpu_tables *t)
{
	uint64_t base = (uint64_t)&t->tss;
	uint64_t limit = sizeof(t->tss) - 1;

	t->gdt[GDT_TSS] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) |
			  (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	t->gdt[GDT_TSS + 1] = base >> 32;
}

void set_kernel_stack(uint64_t top)
{
	struct percpu *area = this_cpu_area();

	area->tables->tss.rsp[0] = top;
	area->kernel_stack = top;
}

size_t cpu_tables_size(void)
{
	return sizeof(struct cpu_tables);
}

/* Load @t as this CPU's GDT and TSS, and @area as its GS. */
static void cpu_tables_load(struct cpu_tables *t, struct percpu *area)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __packed gdtr = { sizeof(t->gdt) - 1, (uint64_t)t->gdt };

	memcpy(t->gdt, gdt_template, sizeof(t->gdt));
	t->tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(t->ist_stacks[0] + IST_STACK_SIZE);
	t->tss.ist[IST_NMI - 1] = (uint64_t)(t->ist_stacks[1] + IST_STACK_SIZE);
	t->tss.iomap_base = sizeof(t->tss); /* no I/O permission bitmap */
	set_tss_descriptor(t);

	/* Reload CS with a far return, then the data segments and TR. */
	__asm__ volatile("lgdt %0\n\t"
			 "pushq %1\n\t"
			 "leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"
			 "lretq\n"
			 "1:\n\t"
			 "movw %w2, %%ax\n\t"
			 "movw %%ax, %%ds\n\t"
			 "movw %%ax, %%es\n\t"
			 "movw %%ax, %%ss\n\t"
			 "movw %%ax, %%fs\n\t"
			 "movw %%ax, %%gs\n\t"
			 "ltr %w3"
			 :
			 : "m"(gdtr), "i"(KERNEL_CS), "r"(KERNEL_DS), "r"(TSS_SEL)
			 : "rax", "memory");

	/* After the GS load above, which zeroed the base: the kernel's GS is
	 * the per-CPU area; the user's (0 until a program sets one) waits in
	 * MSR_KERNEL_GS_BASE for the first swapgs. */
	area->self = area;
	area->tables = t;
	wrmsr(MSR_GS_BASE, (uint64_t)area);
	wrmsr(MSR_KERNEL_GS_BASE, 0);
}

void gdt_init_secondary(struct cpu_tables *tables, struct percpu *area)
{
	cpu_tables_load(tables, area);
}

void gdt_init(void)
{
	cpu_tables_load(&boot_cpu_tables, &boot_cpu_area);
}
