/* Credentials (kernel/cred.c): per-uid task counts, groups, how the
 * capability sets follow a change of uid (commoncap's rules) and exec's
 * credential step. */
#include <ktest.h>
#include <mm.h>
#include <sched.h>

/* ucounts and group_info come from kmalloc, node 0's: the kernel's run. */
static bool skip_without_node0(struct kunit *test)
{
	if (NODE_DATA(0))
		return false;
	kunit_mark_skipped(test, "kmalloc needs node 0 (in-kernel only)");
	return true;
}

static struct cred root_cred(void)
{
	struct cred c = INIT_CRED;

	return c;
}

static void ucounts_are_shared_per_uid_and_freed_with_the_last(struct kunit *test)
{
	int root_refs = init_ucounts.count;
	struct ucounts *a, *b, *c;

	if (skip_without_node0(test))
		return;
	a = alloc_ucounts(4242);
	b = alloc_ucounts(4242);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_EXPECT_TRUE(test, a == b);
	KUNIT_EXPECT_EQ(test, a->count, 2);
	c = alloc_ucounts(4243);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_EXPECT_TRUE(test, a != c);
	put_ucounts(b);
	KUNIT_EXPECT_EQ(test, a->count, 1);
	put_ucounts(a);
	put_ucounts(c);
	/* Root's is the static one, never freed. */
	KUNIT_EXPECT_TRUE(test, alloc_ucounts(GLOBAL_ROOT_UID) == &init_ucounts);
	put_ucounts(&init_ucounts);
	KUNIT_EXPECT_EQ(test, init_ucounts.count, root_refs);
}

static void nproc_is_over_only_past_the_limit(struct kunit *test)
{
	struct ucounts uc = { .uid = 7, .nproc = 3 };

	KUNIT_EXPECT_FALSE(test, is_rlimit_overlimit(&uc, 3));
	KUNIT_EXPECT_TRUE(test, is_rlimit_overlimit(&uc, 2));
	KUNIT_EXPECT_FALSE(test, is_rlimit_overlimit(&uc, RLIM_INFINITY));
}

static void groups_sort_and_search(struct kunit *test)
{
	const uint32_t in[5] = { 50, 7, 1000, 7, 3 };
	struct cred c = root_cred();
	struct group_info *gi;

	if (skip_without_node0(test))
		return;
	gi = groups_alloc(5);
	KUNIT_ASSERT_NOT_NULL(test, gi);
	for (int i = 0; i < 5; i++)
		gi->gid[i] = in[i];
	groups_sort(gi);
	for (int i = 1; i < 5; i++)
		KUNIT_EXPECT_LE(test, gi->gid[i - 1], gi->gid[i]);
	KUNIT_EXPECT_TRUE(test, groups_search(gi, 3));
	KUNIT_EXPECT_TRUE(test, groups_search(gi, 1000));
	KUNIT_EXPECT_FALSE(test, groups_search(gi, 8));
	c.group_info = gi;
	c.fsgid = 9;
	c.egid = 11;
	KUNIT_EXPECT_TRUE(test, in_group_p(&c, 9));
	KUNIT_EXPECT_FALSE(test, in_group_p(&c, 11));
	KUNIT_EXPECT_TRUE(test, in_egroup_p(&c, 11));
	KUNIT_EXPECT_TRUE(test, in_egroup_p(&c, 50));
	put_group_info(gi);
}

static void giving_up_every_root_uid_loses_the_capabilities(struct kunit *test)
{
	struct cred old = root_cred(), new = old;

	new.uid = new.euid = new.suid = new.fsuid = 1000;
	cap_task_fix_setuid(&new, &old, LSM_SETID_RES);
	KUNIT_EXPECT_EQ(test, new.cap_permitted, 0);
	KUNIT_EXPECT_EQ(test, new.cap_effective, 0);
	/* KEEP_CAPS keeps the permitted set; the effective one still goes. */
	old.securebits = SECBIT_KEEP_CAPS;
	new = old;
	new.uid = new.euid = new.suid = 1000;
	cap_task_fix_setuid(&new, &old, LSM_SETID_RES);
	KUNIT_EXPECT_EQ(test, new.cap_permitted, CAP_FULL_SET);
	KUNIT_EXPECT_EQ(test, new.cap_effective, 0);
}

static void the_effective_uid_carries_the_effective_set(struct kunit *test)
{
	struct cred old = root_cred(), new = old;

	new.euid = 1000; /* real and saved stay 0 */
	cap_task_fix_setuid(&new, &old, LSM_SETID_RES);
	KUNIT_EXPECT_EQ(test, new.cap_permitted, CAP_FULL_SET);
	KUNIT_EXPECT_EQ(test, new.cap_effective, 0);
	old = new;
	new.euid = 0;
	cap_task_fix_setuid(&new, &old, LSM_SETID_RES);
	KUNIT_EXPECT_EQ(test, new.cap_effective, CAP_FULL_SET);
}

static void the_fsuid_carries_the_file_system_set(struct kunit *test)
{
	struct cred old = root_cred(), new = old;

	new.fsuid = 1000;
	cap_task_fix_setuid(&new, &old, LSM_SETID_FS);
	KUNIT_EXPECT_EQ(test, new.cap_effective, CAP_FULL_SET & ~CAP_FS_SET);
	KUNIT_EXPECT_FALSE(test, new.cap_effective &CAP_TO_MASK(CAP_DAC_OVERRIDE));
	KUNIT_EXPECT_TRUE(test, new.cap_effective &CAP_TO_MASK(CAP_KILL));
	old = new;
	new.fsuid = 0;
	cap_task_fix_setuid(&new, &old, LSM_SETID_FS);
	KUNIT_EXPECT_EQ(test, new.cap_effective, CAP_FULL_SET);
}

static void exec_gives_root_the_bounding_set_and_others_nothing(struct kunit *test)
{
	struct cred c = root_cred();

	c.cap_permitted = c.cap_effective = CAP_TO_MASK(CAP_KILL);
	c.cap_bset = CAP_FULL_SET & ~CAP_TO_MASK(CAP_SYS_ADMIN);
	c.securebits = SECBIT_KEEP_CAPS;
	bprm_creds(&c, 0100755, 0, 0, false);
	KUNIT_EXPECT_EQ(test, c.cap_permitted, CAP_FULL_SET & ~CAP_TO_MASK(CAP_SYS_ADMIN));
	KUNIT_EXPECT_EQ(test, c.cap_effective, c.cap_permitted);
	KUNIT_EXPECT_EQ(test, c.securebits, 0);
	/* Real uid 0 alone permits but does not make effective. */
	c.euid = 5;
	bprm_creds(&c, 0100755, 0, 0, false);
	KUNIT_EXPECT_EQ(test, c.cap_effective, 0);
	KUNIT_EXPECT_NE(test, c.cap_permitted, 0);
	KUNIT_EXPECT_EQ(test, c.suid, 5);
	KUNIT_EXPECT_EQ(test, c.fsuid, 5);
	c.uid = c.euid = c.suid = 1000;
	bprm_creds(&c, 0100755, 0, 0, false);
	KUNIT_EXPECT_EQ(test, c.cap_permitted, 0);
}

static void a_set_user_id_file_runs_as_its_owner(struct kunit *test)
{
	struct cred c = root_cred();

	c.uid = c.euid = c.suid = c.fsuid = 1000;
	c.gid = c.egid = c.sgid = c.fsgid = 100;
	bprm_creds(&c, 0104755, 0, 0, false); /* set-user-ID root */
	KUNIT_EXPECT_EQ(test, c.uid, 1000);
	KUNIT_EXPECT_EQ(test, c.euid, 0);
	KUNIT_EXPECT_EQ(test, c.suid, 0);
	KUNIT_EXPECT_EQ(test, c.cap_effective, CAP_FULL_SET);
	/* set-group-ID needs the group execute bit; no_new_privs ignores both */
	bprm_creds(&c, 0102745, 0, 42, false);
	KUNIT_EXPECT_EQ(test, c.egid, 100);
	bprm_creds(&c, 0102755, 0, 42, false);
	KUNIT_EXPECT_EQ(test, c.egid, 42);
	c.euid = c.suid = c.fsuid = 1000;
	bprm_creds(&c, 0104755, 0, 0, true);
	KUNIT_EXPECT_EQ(test, c.euid, 1000);
}

static struct kunit_case cred_cases[] = {
	KUNIT_CASE(ucounts_are_shared_per_uid_and_freed_with_the_last),
	KUNIT_CASE(nproc_is_over_only_past_the_limit),
	KUNIT_CASE(groups_sort_and_search),
	KUNIT_CASE(giving_up_every_root_uid_loses_the_capabilities),
	KUNIT_CASE(the_effective_uid_carries_the_effective_set),
	KUNIT_CASE(the_fsuid_carries_the_file_system_set),
	KUNIT_CASE(exec_gives_root_the_bounding_set_and_others_nothing),
	KUNIT_CASE(a_set_user_id_file_runs_as_its_owner),
	{},
};

static struct kunit_suite cred_suite = {
	.name = "cred",
	.test_cases = cred_cases,
};
kunit_test_suite(cred_suite);
