/*
 * `cma`: the boot CMA area (cma=SIZE): its state, and cma_alloc /
 * cma_release by hand.
 */
#include <shell.h>
#include <mm.h>

static void cma_show(const struct cma *cma)
{
	char size[24];

	kformat_size(size, sizeof(size), (uint64_t)cma->count * PAGE_SIZE);
	kprintf("cma %s: base %#llx (pfn %#lx), size %s (%lu pages), allocated %lu pages, "
		"free %lu pages\n",
		cma->name, (unsigned long long)PFN_PHYS(cma->base_pfn), cma->base_pfn, size,
		cma->count, cma->nr_allocated, cma_free_pages(cma));
}

static int cma_cmd_alloc(int argc, char **argv)
{
	uint64_t nr, align = 0;
	struct page *page;

	if (argc < 3 || argc > 4 || kstrtou64(argv[2], &nr) || !nr ||
	    (argc == 4 && (kstrtou64(argv[3], &align) || align > MAX_PAGE_ORDER)))
		return CMD_USAGE;
	page = cma_alloc(boot_cma, nr, (unsigned int)align);
	if (!page) {
		kprintf("cma: cannot allocate %llu pages aligned to order %llu\n",
			(unsigned long long)nr, (unsigned long long)align);
		return CMD_ERROR;
	}
	kprintf("cma: %llu pages at pfn %#lx\n", (unsigned long long)nr, page_to_pfn(page));
	return CMD_OK;
}

static int cma_cmd_release(int argc, char **argv)
{
	uint64_t pfn, nr;

	if (argc != 4 || kstrtou64(argv[2], &pfn) || kstrtou64(argv[3], &nr) || !nr)
		return CMD_USAGE;
	if (pfn < boot_cma->base_pfn || pfn >= boot_cma->base_pfn + boot_cma->count ||
	    !cma_release(boot_cma, pfn_to_page(pfn), nr)) {
		kprintf("cma: pfn %#llx + %llu pages is not an allocation from %s\n",
			(unsigned long long)pfn, (unsigned long long)nr, boot_cma->name);
		return CMD_ERROR;
	}
	kprintf("cma: released %llu pages at pfn %#llx\n", (unsigned long long)nr,
		(unsigned long long)pfn);
	return CMD_OK;
}

static int cmd_cma(int argc, char **argv)
{
	if (!boot_cma) {
		kprintf("no CMA area: boot with cma=SIZE\n");
		return CMD_ERROR;
	}
	if (argc == 1) {
		cma_show(boot_cma);
		for (unsigned int i = 0; i < cma_area_count; i++)
			if (cma_areas[i].bitmap && &cma_areas[i] != boot_cma)
				cma_show(&cma_areas[i]);
		return CMD_OK;
	}
	if (!strcmp(argv[1], "alloc"))
		return cma_cmd_alloc(argc, argv);
	if (!strcmp(argv[1], "release"))
		return cma_cmd_release(argc, argv);
	return CMD_USAGE;
}

DEFINE_SHELL_COMMAND(cma, "cma [alloc PAGES [ALIGN_ORDER] | release PFN PAGES]",
		     "the CMA area: status, allocate or release a contiguous range");
