/*
 * The MMU of the host build: a page-table walker with a TLB in front, as
 * the CPU (SDM vol. 3A, 4.8 and 4.10). A miss walks PML4 → PDPT → PD (PS:
 * 2 MiB leaf) → PT, refuses a missing level or a write through a read-only
 * one, sets A in every entry used and D in the leaf on a write, and caches
 * the leaf's pfn, rights and D. A hit touches no table, except a write
 * through an entry cached clean: that walks again to set D. Entries go only
 * by invlpg, a CR3 write, a fault on their address or eviction. Example: a
 * write to 0x40000123 mapped by a 4 KiB PTE of pfn 0x4000 misses, the PTE
 * gains A|D, the entry caches pfn 0x4000 RW D; MADV_FREE clears the PTE's
 * D, and until the invlpg of 0x40000000 a write hits the dirty entry and
 * leaves the PTE clean, so reclaim would free the written page.
 */
#include <arch.h>
#include <asm/mmu.h>
#include <asm/smp.h>
#include <vm.h>

/*
 * Set-associative, as Skylake's: the 4 KiB array has the STLB's 1536
 * entries, 128 sets of 12 ways; the 2 MiB one the L1 DTLB's 32, 8 sets of
 * 4. vpn % sets picks the set, a fill takes an invalid way or else the
 * least recently used one. So 1536 consecutive pages, or 64 MiB of 2 MiB
 * leaves, stay cached together: tests see no eviction they did not ask for.
 */
#define TLB_4K_SETS 128
#define TLB_4K_WAYS 12
#define TLB_2M_SETS 8
#define TLB_2M_WAYS 4

/* One page's translation as a walk found it. flags: the walk's rights
 * (RW and U if every level grants them, NX if any level sets it) and the
 * leaf's D; A is not cached, the walk set it. */
struct tlb_entry {
	unsigned long vpn; /* addr >> the array's shift */
	unsigned long pfn; /* the first 4 KiB frame of the page */
	uint64_t flags;	   /* _PAGE_RW, _PAGE_USER, _PAGE_NX, _PAGE_DIRTY */
	uint64_t last_use; /* the LRU clock at the last hit or fill; 0: invalid */
};

struct tlb_array {
	unsigned int shift; /* PAGE_SHIFT or PMD_SHIFT */
	unsigned int sets, ways;
	struct tlb_entry *entries; /* set s is entries[s * ways .. s * ways + ways - 1] */
};

/* Each modelled CPU (host_cpu, arch/host/smp.c) has its own TLB and its
 * own loaded tables: an invlpg or CR3 write on one leaves the others'
 * entries alone, so only a TLB shootdown (mm/tlb.c's IPIs) drops them. */
struct host_cpu_mmu {
	struct tlb_entry entries_4k[TLB_4K_SETS * TLB_4K_WAYS];
	struct tlb_entry entries_2m[TLB_2M_SETS * TLB_2M_WAYS];
	struct tlb_array tlb_4k, tlb_2m;
	uint64_t active_pgd;
};
static struct host_cpu_mmu cpu_mmu[HOST_MMU_CPUS];
static uint64_t tlb_clock;

struct host_tlb_stat host_tlb_stat;

static struct host_cpu_mmu *this_cpu_mmu(void)
{
	struct host_cpu_mmu *m;

	if (host_cpu >= HOST_MMU_CPUS)
		panic("host MMU: CPU %u is past the %d modelled", host_cpu, HOST_MMU_CPUS);
	m = &cpu_mmu[host_cpu];
	if (!m->tlb_4k.entries) {
		m->tlb_4k =
			(struct tlb_array){ PAGE_SHIFT, TLB_4K_SETS, TLB_4K_WAYS, m->entries_4k };
		m->tlb_2m =
			(struct tlb_array){ PMD_SHIFT, TLB_2M_SETS, TLB_2M_WAYS, m->entries_2m };
	}
	return m;
}

uint64_t host_active_pgd_of_this_cpu(void)
{
	return this_cpu_mmu()->active_pgd;
}

static struct tlb_entry *tlb_set(struct tlb_array *tlb, unsigned long vpn)
{
	return &tlb->entries[(vpn % tlb->sets) * tlb->ways];
}

/* Return: the valid entry of tlb that covers addr, or NULL. */
static struct tlb_entry *tlb_find(struct tlb_array *tlb, unsigned long addr)
{
	unsigned long vpn = addr >> tlb->shift;
	struct tlb_entry *set = tlb_set(tlb, vpn);

	for (unsigned int way = 0; way < tlb->ways; way++)
		if (set[way].last_use && set[way].vpn == vpn)
			return &set[way];
	return NULL;
}

static void tlb_drop(struct tlb_entry *e)
{
	e->last_use = 0;
	host_tlb_stat.dropped++;
}

/* Drop every entry, 4 KiB and 2 MiB, that covers addr. */
static void tlb_drop_addr(unsigned long addr)
{
	struct tlb_entry *e;

	if ((e = tlb_find(&this_cpu_mmu()->tlb_4k, addr)))
		tlb_drop(e);
	if ((e = tlb_find(&this_cpu_mmu()->tlb_2m, addr)))
		tlb_drop(e);
}

static void tlb_drop_array(struct tlb_array *tlb)
{
	for (unsigned int i = 0; i < tlb->sets * tlb->ways; i++)
		if (tlb->entries[i].last_use)
			tlb_drop(&tlb->entries[i]);
}

/* Cache a walk's result in its set: the first invalid way, else the one
 * least recently used. */
static void tlb_fill(struct tlb_array *tlb, const struct tlb_entry *walked)
{
	struct tlb_entry *set = tlb_set(tlb, walked->vpn), *victim = &set[0];

	for (unsigned int way = 0; way < tlb->ways && victim->last_use; way++)
		if (!set[way].last_use || set[way].last_use < victim->last_use)
			victim = &set[way];
	if (victim->last_use)
		host_tlb_stat.evicted++;
	*victim = *walked;
	victim->last_use = ++tlb_clock;
}

/* invlpg: the SDM says it drops the translations of addr's page whatever
 * their size, so a 2 MiB entry goes with an invlpg of any address in it. */
void arch_flush_tlb_one(unsigned long addr)
{
	tlb_drop_addr(addr);
}

/* A CR3 reload without PCID: every non-global entry; the lower half has
 * no global ones. */
void arch_flush_tlb_all(void)
{
	tlb_drop_array(&this_cpu_mmu()->tlb_4k);
	tlb_drop_array(&this_cpu_mmu()->tlb_2m);
}

void arch_switch_mm(uint64_t pgd)
{
	this_cpu_mmu()->active_pgd = pgd;
	arch_flush_tlb_all();
}

/* The host has no kernel half to share: entries 256..511 stay empty. */
void arch_pgd_init(uint64_t *pgd)
{
}

/* Use one entry as the CPU does. Return: false if the access faults. */
static bool mmu_use_entry(uint64_t *entry, bool write)
{
	if (!(*entry & _PAGE_PRESENT) || (write && !(*entry & _PAGE_RW)))
		return false;
	*entry |= _PAGE_ACCESSED;
	return true;
}

/*
 * Walk the tables at pgd for addr. Return: the page's shift (PAGE_SHIFT,
 * PMD_SHIFT or PUD_SHIFT) with *walked filled as a TLB entry would be, or
 * 0 if the access faults.
 */
static unsigned int mmu_walk(uint64_t pgd, unsigned long addr, bool write, struct tlb_entry *walked)
{
	static const unsigned int shifts[] = { PGDIR_SHIFT, PUD_SHIFT, PMD_SHIFT, PAGE_SHIFT };
	uint64_t *table = __va(pgd);
	uint64_t rights = _PAGE_RW | _PAGE_USER;

	for (unsigned int level = 0; level < ARRAY_SIZE(shifts); level++) {
		unsigned int shift = shifts[level];
		uint64_t *entry = &table[(addr >> shift) & (PTRS_PER_TABLE - 1)];
		bool leaf = shift == PAGE_SHIFT || (shift != PGDIR_SHIFT && (*entry & _PAGE_PSE));

		if (!mmu_use_entry(entry, write))
			return 0;
		rights &= *entry | _PAGE_NX;
		rights |= *entry & _PAGE_NX;
		if (leaf) {
			if (write)
				*entry |= _PAGE_DIRTY;
			*walked = (struct tlb_entry){
				.vpn = addr >> shift,
				.pfn = (*entry & PTE_ADDR_MASK & ~((1ull << shift) - 1)) >>
				       PAGE_SHIFT,
				.flags = rights | (*entry & _PAGE_DIRTY),
			};
			return shift;
		}
		table = __va(*entry & PTE_ADDR_MASK);
	}
	return 0;
}

static void *entry_host_ptr(const struct tlb_entry *e, unsigned int shift, unsigned long addr)
{
	return __va(((uint64_t)e->pfn << PAGE_SHIFT) | (addr & ((1ul << shift) - 1)));
}

/* An mm that is not active: walk, cache nothing (see asm/mmu.h). */
static int mmu_translate_uncached(struct mm_struct *mm, unsigned long addr, bool write,
				  void **host_ptr)
{
	struct tlb_entry walked;
	unsigned int shift = mmu_walk(mm->pgd, addr, write, &walked);

	if (!shift)
		return -1;
	*host_ptr = entry_host_ptr(&walked, shift, addr);
	return 0;
}

/*
 * A miss, or a write through an entry cached clean: x86 sets D by going
 * back to the entries in memory, and faults if they no longer allow the
 * write. A 1 GiB leaf is translated but not cached: Folium maps none in
 * the lower half.
 */
static int mmu_walk_and_fill(unsigned long addr, bool write, void **host_ptr)
{
	struct tlb_entry walked;
	unsigned int shift = mmu_walk(this_cpu_mmu()->active_pgd, addr, write, &walked);

	tlb_drop_addr(addr);
	if (!shift)
		return -1;
	if (shift == PAGE_SHIFT)
		tlb_fill(&this_cpu_mmu()->tlb_4k, &walked);
	else if (shift == PMD_SHIFT)
		tlb_fill(&this_cpu_mmu()->tlb_2m, &walked);
	*host_ptr = entry_host_ptr(&walked, shift, addr);
	return 0;
}

int host_mmu_translate(struct mm_struct *mm, unsigned long addr, bool write, void **host_ptr)
{
	struct host_cpu_mmu *m = this_cpu_mmu();
	struct tlb_array *tlb = &m->tlb_4k;
	struct tlb_entry *e;

	if (addr >= USER_VA_END)
		return -1;
	if (mm->pgd != m->active_pgd)
		return mmu_translate_uncached(mm, addr, write, host_ptr);
	/* Both sizes can cover addr (a PMD split without a flush); the SDM
	 * lets either serve, the model takes the 4 KiB entry. */
	e = tlb_find(tlb, addr);
	if (!e)
		e = tlb_find(tlb = &m->tlb_2m, addr);
	if (!e) {
		host_tlb_stat.misses++;
		return mmu_walk_and_fill(addr, write, host_ptr);
	}
	if (write && !(e->flags & _PAGE_RW)) {
		/* A fault from the cached rights; a #PF drops the address's
		 * entries (SDM 4.10.4.1), so the retry walks again. */
		tlb_drop_addr(addr);
		return -1;
	}
	if (write && !(e->flags & _PAGE_DIRTY)) {
		host_tlb_stat.dirty_walks++;
		return mmu_walk_and_fill(addr, write, host_ptr);
	}
	host_tlb_stat.hits++;
	e->last_use = ++tlb_clock;
	*host_ptr = entry_host_ptr(e, tlb->shift, addr);
	return 0;
}

bool host_tlb_lookup(unsigned long addr, struct host_tlb_entry *out)
{
	struct tlb_array *tlb = &this_cpu_mmu()->tlb_4k;
	struct tlb_entry *e = tlb_find(tlb, addr);

	if (!e)
		e = tlb_find(tlb = &this_cpu_mmu()->tlb_2m, addr);
	if (!e)
		return false;
	*out = (struct host_tlb_entry){
		.size = 1ul << tlb->shift,
		.pfn = e->pfn,
		.flags = e->flags,
	};
	return true;
}

unsigned long host_tlb_nr_entries(void)
{
	unsigned long n = 0;

	struct host_cpu_mmu *m = this_cpu_mmu();

	for (unsigned int i = 0; i < ARRAY_SIZE(m->entries_4k); i++)
		n += m->entries_4k[i].last_use != 0;
	for (unsigned int i = 0; i < ARRAY_SIZE(m->entries_2m); i++)
		n += m->entries_2m[i].last_use != 0;
	return n;
}

/* The software MMU walks 1 GiB leaves whatever the host CPU has. */
bool arch_has_gbpages(void)
{
	return true;
}
