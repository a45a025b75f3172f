/*
 * The mm half of /proc/PID/clear_refs (Linux: fs/proc/task_mmu.c's
 * clear_refs_write and its walk; the file is fs/proc/task_mmu.c's, the
 * walk lives here so the host tests run it). 1 and 2 make every mapped
 * page old: a large folio's run of PTEs has its young bits cleared at
 * once (folio_pte_batch), a PMD leaf in its one entry, and PG_referenced
 * goes; no TLB flush, as x86 Linux (a translation still cached young
 * only makes a page look used once more). 3 is for file pages: Folium
 * maps none. 4 starts soft-dirty tracking: every VMA loses VM_SOFTDIRTY,
 * every present entry is write-protected and loses _PAGE_SOFT_DIRTY,
 * then one flush_tlb_mm; the next write to a page faults and
 * wp_page_reuse (mm/memory.c) makes that one entry writable and
 * soft-dirty again. 5 puts the RSS high-water mark back to the RSS.
 * Example: a 64K folio written, then 4: its 16 PTEs read-only, none
 * soft-dirty; a write to its page 3 is one fault, after which PTE 3 is
 * writable and soft-dirty and the other 15 are as they were.
 */
#include <vm.h>

/* Linux's isspace: the C blanks and, in its Latin-1 table, 0xa0. */
static bool clear_refs_isspace(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || (unsigned char)c == 0xa0;
}

/* Linux: kstrtoint(s, 10, res): an optional sign, at least one digit, at
 * most one trailing newline, -ERANGE outside int. s holds at most
 * CLEAR_REFS_MAX_WRITE digits, so v cannot overflow. */
static int kstrtoint_dec(const char *s, int *res)
{
	bool neg = *s == '-';
	unsigned long long v = 0;
	const char *d;

	if (*s == '-' || *s == '+')
		s++;
	for (d = s; *d >= '0' && *d <= '9'; d++)
		v = v * 10 + (unsigned long long)(*d - '0');
	if (d == s)
		return -EINVAL;
	if (*d == '\n')
		d++;
	if (*d)
		return -EINVAL;
	if (v > (neg ? 2147483648ull : 2147483647ull))
		return -ERANGE;
	*res = neg ? (int)-(long long)v : (int)v;
	return 0;
}

int clear_refs_parse(const char *buf, size_t count, enum clear_refs_types *type)
{
	char buffer[CLEAR_REFS_MAX_WRITE + 1] = { 0 };
	char *s = buffer, *end;
	int itype, err;

	/* Linux: the first PROC_NUMBUF - 1 bytes, then strstrip. */
	memcpy(buffer, buf, MIN(count, (size_t)CLEAR_REFS_MAX_WRITE));
	end = s + strlen(s);
	while (end > s && clear_refs_isspace(end[-1]))
		*--end = '\0';
	while (clear_refs_isspace(*s))
		s++;
	err = kstrtoint_dec(s, &itype);
	if (err)
		return err;
	if (itype < CLEAR_REFS_ALL || itype >= CLEAR_REFS_LAST)
		return -EINVAL;
	*type = (enum clear_refs_types)itype;
	return 0;
}

/* Write-protect the PTE and take its soft-dirty bit (Linux:
 * clear_soft_dirty, ptep_modify_prot_start and _commit: two writes). */
static void clear_soft_dirty(struct mm_struct *mm, unsigned long addr, pte_t *ptep)
{
	pte_t old = ptep_get_and_clear(mm, addr, ptep);

	set_ptes(mm, addr, ptep, pte_clear_soft_dirty(pte_wrprotect(old)), 1);
}

/* The same for a PMD leaf, invalidated (one flush of its 2 MiB) while
 * it is rewritten (Linux: clear_soft_dirty_pmd). */
static void clear_soft_dirty_pmd(struct mm_struct *mm, unsigned long haddr, pmd_t *pmdp)
{
	pmd_t old = pmdp_invalidate(mm, haddr, pmdp) | _PAGE_PRESENT;

	set_pmd_at(mm, haddr, pmdp, pmd_clear_soft_dirty(pmd_wrprotect(old)));
}

/* Make the page at ptep old, and with it every PTE of the run mapping the
 * same large folio: one folio_pte_batch, one clear_young_dirty_ptes, and
 * the folio's PG_referenced cleared once. The zero page has no folio
 * (Linux: vm_normal_folio is NULL). Return: the PTEs done. */
static unsigned int clear_refs_young_ptes(struct mm_struct *mm, unsigned long addr, pte_t *ptep,
					  unsigned int max_nr)
{
	pte_t pte = *ptep;
	bool young = pte_young(pte);
	struct folio *folio;
	unsigned int nr = 1;

	if (is_zero_pfn(pte_pfn(pte)))
		return 1;
	folio = page_folio(pte_page(pte));
	if (folio_test_large(folio))
		nr = folio_pte_batch(folio, ptep, pte, max_nr, &young, NULL);
	if (young)
		clear_young_dirty_ptes(mm, addr, ptep, nr, CYDP_CLEAR_YOUNG);
	folio_clear_referenced(folio);
	return nr;
}

/* Linux: clear_refs_pte_range. A PMD leaf is one entry; a PTE table is
 * done here, run by run. */
static int clear_refs_pte_range(pmd_t *pmdp, unsigned long addr, unsigned long end,
				struct mm_walk *walk)
{
	const enum clear_refs_types *type = walk->private;
	bool soft_dirty = *type == CLEAR_REFS_SOFT_DIRTY;
	unsigned int nr;
	pte_t *ptep;

	walk->action = ACTION_CONTINUE;
	if (pmd_leaf(*pmdp)) {
		if (soft_dirty) {
			clear_soft_dirty_pmd(walk->mm, addr & PMD_MASK, pmdp);
		} else {
			if (pmd_young(*pmdp))
				set_pmd_at(walk->mm, addr & PMD_MASK, pmdp, pmd_mkold(*pmdp));
			folio_clear_referenced(pmd_folio(*pmdp));
		}
		return 0;
	}
	ptep = pte_offset_map(pmdp, addr);
	for (; ptep && addr < end; addr += nr * PAGE_SIZE, ptep += nr) {
		nr = 1;
		if (!pte_present(*ptep))
			continue;
		if (soft_dirty)
			clear_soft_dirty(walk->mm, addr, ptep);
		else
			nr = clear_refs_young_ptes(walk->mm, addr, ptep,
						   (unsigned int)((end - addr) >> PAGE_SHIFT));
	}
	return 0;
}

static const struct mm_walk_ops clear_refs_walk_ops = {
	.pmd_entry = clear_refs_pte_range,
};

int clear_refs(struct mm_struct *mm, enum clear_refs_types type)
{
	if (type < CLEAR_REFS_ALL || type >= CLEAR_REFS_LAST)
		return -EINVAL;
	if (type == CLEAR_REFS_MM_HIWATER_RSS) {
		reset_mm_hiwater_rss(mm);
		return 0;
	}
	/* Linux's clear_refs_test_walk: 3 walks only VMAs of files. */
	if (type == CLEAR_REFS_MAPPED)
		return 0;
	for (int i = 0; i < mm->nr_vmas; i++) {
		struct vm_area_struct *vma = &mm->vmas[i];

		if (type == CLEAR_REFS_SOFT_DIRTY)
			vma->vm_flags &= ~VM_SOFTDIRTY;
		walk_page_range(mm, vma->vm_start, vma->vm_end, &clear_refs_walk_ops, &type);
	}
	/* The entries lost their write bit: no CPU may keep writing through a
	 * cached writable translation without faulting. */
	if (type == CLEAR_REFS_SOFT_DIRTY)
		flush_tlb_mm(mm);
	return 0;
}
