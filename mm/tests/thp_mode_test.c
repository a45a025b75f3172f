/*
 * The THP policy as Linux's sysfs files state it: per-size modes (always,
 * inherit, madvise, never) with the top-level mode and the VMA's
 * VM_HUGEPAGE / VM_NOHUGEPAGE deciding which orders a fault may use, the
 * "[selected]" display, and writes that reject garbage with -EINVAL.
 */
#include <ktest.h>
#include <seq_file.h>
#include <shmem_fs.h>
#include <vm.h>

static unsigned long saved_always, saved_madvise, saved_inherit;
static enum thp_mode saved_global;
static enum thp_defrag saved_defrag;
static int saved_shmem_huge;
static unsigned long saved_shmem[4];

static int thp_mode_init(struct kunit *test)
{
	(void)test;
	saved_always = thp_orders_enabled;
	saved_madvise = huge_anon_orders_madvise;
	saved_inherit = huge_anon_orders_inherit;
	saved_global = thp_global_mode;
	saved_defrag = thp_defrag_mode;
	saved_shmem_huge = shmem_huge;
	saved_shmem[0] = huge_shmem_orders_always;
	saved_shmem[1] = huge_shmem_orders_inherit;
	saved_shmem[2] = huge_shmem_orders_madvise;
	saved_shmem[3] = huge_shmem_orders_within_size;
	return 0;
}

static void thp_mode_exit(struct kunit *test)
{
	(void)test;
	thp_orders_enabled = saved_always;
	huge_anon_orders_madvise = saved_madvise;
	huge_anon_orders_inherit = saved_inherit;
	thp_global_mode = saved_global;
	thp_defrag_mode = saved_defrag;
	shmem_huge = saved_shmem_huge;
	huge_shmem_orders_always = saved_shmem[0];
	huge_shmem_orders_inherit = saved_shmem[1];
	huge_shmem_orders_madvise = saved_shmem[2];
	huge_shmem_orders_within_size = saved_shmem[3];
}

/* The file's text, shown into out (no kmalloc: the host has no node 0). */
static void show(const struct kobj_attribute *attr, void *priv, char *out, size_t len)
{
	struct seq_file m = { .buf = out, .size = len };

	attr->show(&m, priv);
	out[seq_has_overflowed(&m) ? 0 : m.count] = '\0';
}

static void thp_modes_follow_linux_rules(struct kunit *test)
{
	struct vm_area_struct plain = { .vm_end = PMD_SIZE, .vm_flags = VM_READ | VM_WRITE };
	struct vm_area_struct hg = { .vm_end = PMD_SIZE,
				     .vm_flags = VM_READ | VM_WRITE | VM_HUGEPAGE };
	struct vm_area_struct nh = { .vm_end = PMD_SIZE,
				     .vm_flags = VM_READ | VM_WRITE | VM_NOHUGEPAGE };

	if (!CONFIG_TRANSPARENT_HUGEPAGE) {
		KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&plain, THP_ORDERS_ALL), 0);
		return;
	}
	thp_set_orders(0);
	thp_set_order_mode(2, THP_MODE_ALWAYS);
	thp_set_order_mode(4, THP_MODE_MADVISE);
	thp_set_order_mode(HPAGE_PMD_ORDER, THP_MODE_INHERIT);
	thp_global_mode = THP_MODE_ALWAYS;
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&plain, THP_ORDERS_ALL),
			(1ul << 2) | (1ul << HPAGE_PMD_ORDER));
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&hg, THP_ORDERS_ALL),
			(1ul << 2) | (1ul << 4) | (1ul << HPAGE_PMD_ORDER));
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&nh, THP_ORDERS_ALL), 0);
	thp_global_mode = THP_MODE_MADVISE; /* inherit now needs VM_HUGEPAGE */
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&plain, THP_ORDERS_ALL), 1ul << 2);
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&hg, THP_ORDERS_ALL),
			(1ul << 2) | (1ul << 4) | (1ul << HPAGE_PMD_ORDER));
	thp_global_mode = THP_MODE_NEVER; /* always per size still works */
	KUNIT_EXPECT_EQ(test, thp_vma_allowable_orders(&hg, THP_ORDERS_ALL),
			(1ul << 2) | (1ul << 4));
}

static void thp_sysfs_show_and_store(struct kunit *test)
{
	char out[64];

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return;
	thp_global_mode = THP_MODE_ALWAYS;
	show(&thp_enabled_attr, NULL, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "[always] madvise never\n");
	KUNIT_EXPECT_EQ(test, thp_enabled_attr.store("madvise\n", 8, NULL), 8);
	show(&thp_enabled_attr, NULL, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always [madvise] never\n");
	KUNIT_EXPECT_EQ(test, thp_enabled_attr.store("inherit", 7, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_enabled_attr.store("never\n\n", 7, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_global_mode, THP_MODE_MADVISE);

	thp_set_orders(1ul << 4);
	show(&thpsize_enabled_attr, (void *)4ul, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "[always] inherit madvise never\n");
	KUNIT_EXPECT_EQ(test, thpsize_enabled_attr.store("inherit", 7, (void *)4ul), 7);
	show(&thpsize_enabled_attr, (void *)4ul, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always [inherit] madvise never\n");
	KUNIT_EXPECT_EQ(test, huge_anon_orders_inherit, 1ul << 4);
	KUNIT_EXPECT_EQ(test, thp_orders_enabled, 0);
	KUNIT_EXPECT_EQ(test, thpsize_enabled_attr.store("sometimes", 9, (void *)4ul), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_order_mode(4), THP_MODE_INHERIT);
	KUNIT_EXPECT_EQ(test, thpsize_enabled_attr.store("never\n", 6, (void *)4ul), 6);
	show(&thpsize_enabled_attr, (void *)4ul, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always inherit madvise [never]\n");
}

/* shmem_enabled (global and per size) read and write Linux 6.11's words,
 * and decide shmem's fault orders as shmem_allowable_huge_orders does: a
 * tmpfs file's from its huge= (PMD only) under deny and force; shared
 * anonymous memory's from the per-size masks, inherit only while the
 * global value allows the PMD size. */
static void shmem_enabled_follows_linux(struct kunit *test)
{
	const unsigned long pmd = 1ul << HPAGE_PMD_ORDER, all = HPAGE_PMD_ORDER;
	const unsigned long rw = VM_READ | VM_WRITE | VM_SHARED;
	char out[96];

	if (!CONFIG_TRANSPARENT_HUGEPAGE)
		return;
	shmem_huge = SHMEM_HUGE_NEVER;
	show(&shmem_enabled_attr, NULL, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always within_size advise [never] deny force\n");
	KUNIT_EXPECT_EQ(test, shmem_enabled_attr.store("force\n", 6, NULL), 6);
	show(&shmem_enabled_attr, NULL, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always within_size advise never deny [force]\n");
	KUNIT_EXPECT_EQ(test, shmem_enabled_attr.store("inherit", 7, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, shmem_huge, SHMEM_HUGE_FORCE);
	show(&thpsize_shmem_enabled_attr, (void *)(uintptr_t)HPAGE_PMD_ORDER, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "always [inherit] within_size advise never\n");
	KUNIT_EXPECT_EQ(test, thpsize_shmem_enabled_attr.store("always", 6, (void *)4ul), 6);
	KUNIT_EXPECT_EQ(test, thpsize_shmem_enabled_attr.store("deny", 4, (void *)4ul), -EINVAL);
	show(&thpsize_shmem_enabled_attr, (void *)4ul, out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "[always] inherit within_size advise never\n");
	/* Under force only the PMD size may inherit, and force needs that. */
	KUNIT_EXPECT_EQ(test, thpsize_shmem_enabled_attr.store("inherit", 7, (void *)4ul), -EINVAL);
	KUNIT_EXPECT_EQ(test, shmem_enabled_attr.store("never", 5, NULL), 5);
	KUNIT_EXPECT_EQ(test, thpsize_shmem_enabled_attr.store("inherit", 7, (void *)4ul), 7);
	KUNIT_EXPECT_EQ(test, shmem_enabled_attr.store("force", 5, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, thpsize_shmem_enabled_attr.store("always", 6, (void *)4ul), 6);
	KUNIT_EXPECT_EQ(test, shmem_enabled_attr.store("force", 5, NULL), 5);

	/* force: every tmpfs PMD, shared anonymous memory the inherit ones. */
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, false, rw, 0, 0, all),
			pmd);
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, true, rw, 0, 0, all),
			pmd);
	shmem_huge = SHMEM_HUGE_DENY;
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_ALWAYS, false, rw, 0, 0, all),
			0);
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_ALWAYS, true, rw, 0, 0, all),
			0);
	shmem_huge = SHMEM_HUGE_NEVER;
	/* never: 64K (always) only; PMD inherits nothing. */
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, true, rw, 0, 0, all),
			1ul << 4);
	/* a VMA that fits no 64K folio gets none. */
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, true, rw, 0, 0, 3), 0);
	/* the global advise: the PMD inherits it with VM_HUGEPAGE only. */
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_ADVISE, true, rw, 0, 0, all),
			1ul << 4);
	KUNIT_EXPECT_EQ(
		test,
		shmem_allowable_huge_orders(SHMEM_HUGE_ADVISE, true, rw | VM_HUGEPAGE, 0, 0, all),
		(1ul << 4) | pmd);
	/* within_size, per size: only a folio the file covers. */
	shmem_set_order_mode(4, SHMEM_HUGE_WITHIN_SIZE);
	KUNIT_EXPECT_EQ(
		test,
		shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, true, rw, 16, 32 * PAGE_SIZE, all),
		1ul << 4);
	KUNIT_EXPECT_EQ(
		test,
		shmem_allowable_huge_orders(SHMEM_HUGE_NEVER, true, rw, 16, 31 * PAGE_SIZE, all),
		0);
	/* a tmpfs file with huge=always: the PMD; within_size: if covered. */
	KUNIT_EXPECT_EQ(test, shmem_allowable_huge_orders(SHMEM_HUGE_ALWAYS, false, rw, 0, 0, all),
			pmd);
	KUNIT_EXPECT_EQ(test,
			shmem_allowable_huge_orders(SHMEM_HUGE_WITHIN_SIZE, false, rw, 0,
						    PMD_SIZE - PAGE_SIZE - 1, all),
			0);
	KUNIT_EXPECT_EQ(test,
			shmem_allowable_huge_orders(SHMEM_HUGE_ALWAYS, false, rw | VM_NOHUGEPAGE, 0,
						    0, all),
			0);
}

/* defrag reads and writes Linux's five words, and each mode gives a THP
 * fault Linux's mask (vma_thp_gfp_mask): direct reclaim (so compaction)
 * for every VMA under "always" (one light try without MADV_HUGEPAGE),
 * only for VM_HUGEPAGE ones under "madvise" and "defer+madvise", never
 * under "defer" and "never". */
static void thp_defrag_follows_linux(struct kunit *test)
{
	struct vm_area_struct plain = { .vm_end = PMD_SIZE, .vm_flags = VM_READ | VM_WRITE };
	struct vm_area_struct hg = { .vm_end = PMD_SIZE,
				     .vm_flags = VM_READ | VM_WRITE | VM_HUGEPAGE };
	static const struct {
		const char *word, *shown;
		gfp_t plain, hg;
	} modes[] = {
		{ "always", "[always] defer defer+madvise madvise never\n",
		  GFP_TRANSHUGE | __GFP_NORETRY, GFP_TRANSHUGE },
		{ "defer\n", "always [defer] defer+madvise madvise never\n", GFP_TRANSHUGE_LIGHT,
		  GFP_TRANSHUGE_LIGHT },
		{ "defer+madvise", "always defer [defer+madvise] madvise never\n",
		  GFP_TRANSHUGE_LIGHT, GFP_TRANSHUGE },
		{ "madvise", "always defer defer+madvise [madvise] never\n", GFP_TRANSHUGE_LIGHT,
		  GFP_TRANSHUGE },
		{ "never", "always defer defer+madvise madvise [never]\n", GFP_TRANSHUGE_LIGHT,
		  GFP_TRANSHUGE_LIGHT },
	};
	char out[64];

	KUNIT_EXPECT_EQ(test, saved_defrag, THP_DEFRAG_MADVISE); /* Linux's default */
	KUNIT_EXPECT_EQ(test, GFP_TRANSHUGE_LIGHT & __GFP_DIRECT_RECLAIM, 0);
	for (unsigned int i = 0; i < ARRAY_SIZE(modes); i++) {
		long n = (long)strlen(modes[i].word);

		KUNIT_EXPECT_EQ(test, thp_defrag_attr.store(modes[i].word, (size_t)n, NULL), n);
		show(&thp_defrag_attr, NULL, out, sizeof(out));
		KUNIT_EXPECT_STREQ(test, out, modes[i].shown);
		KUNIT_EXPECT_EQ(test, vma_thp_gfp_mask(&plain), modes[i].plain);
		KUNIT_EXPECT_EQ(test, vma_thp_gfp_mask(&hg), modes[i].hg);
	}
	KUNIT_EXPECT_EQ(test, thp_defrag_attr.store("defer+", 6, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_defrag_attr.store("inherit", 7, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, thp_defrag_mode, THP_DEFRAG_NEVER);
}

static void thp_stats_and_dir_names(struct kunit *test)
{
	char out[32];
	unsigned long saved = mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC];

	mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC] = 42;
	show(&thpsize_stat_attr, THP_STAT_PRIV(4, 0), out, sizeof(out));
	KUNIT_EXPECT_STREQ(test, out, "42\n");
	mthp_stats[4][MTHP_STAT_ANON_FAULT_ALLOC] = saved;
	KUNIT_EXPECT_STREQ(test, thp_stat_names[0], "anon_fault_alloc");
	KUNIT_EXPECT_STREQ(test, thpsize_dir_name(4, out, sizeof(out)), "hugepages-64kB");
	KUNIT_EXPECT_STREQ(test, thpsize_dir_name(HPAGE_PMD_ORDER, out, sizeof(out)),
			   "hugepages-2048kB");
}

static struct kunit_case thp_mode_cases[] = {
	KUNIT_CASE(thp_modes_follow_linux_rules), KUNIT_CASE(thp_sysfs_show_and_store),
	KUNIT_CASE(shmem_enabled_follows_linux),  KUNIT_CASE(thp_defrag_follows_linux),
	KUNIT_CASE(thp_stats_and_dir_names),	  {},
};

static struct kunit_suite thp_mode_suite = {
	.name = "thp_mode",
	.init = thp_mode_init,
	.exit = thp_mode_exit,
	.test_cases = thp_mode_cases,
};
kunit_test_suite(thp_mode_suite);
