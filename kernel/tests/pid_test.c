/*
 * The pid suite (in-kernel only): pids come in a cycle, as Linux's
 * alloc_pid (idr_alloc_cyclic) gives them. Example: a task made and freed
 * had pid 40; the next task gets 41, not 40 again. Once the cycle wraps it
 * starts over at RESERVED_PIDS (300), and it skips a free number that
 * still names a living process group.
 */
#include <ktest.h>
#include <sched.h>

static struct task_struct *new_task(void)
{
	return copy_process(&(struct kernel_clone_args){ 0 });
}

static void a_freed_pid_is_not_given_again_at_once(struct kunit *test)
{
	struct task_struct *a = new_task(), *b;
	int pid;

	KUNIT_ASSERT_NOT_NULL(test, a);
	pid = a->pid;
	free_task(a);
	b = new_task();
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_NE(test, b->pid, pid);
	KUNIT_EXPECT_EQ(test, pid_last_allocated(), b->pid);
	free_task(b);
}

/* One turn of the cycle: every pid but the live ones is given once, the
 * wrap goes to 300, and the pid of a group leader that is gone while its
 * group lives on is never given. */
static void the_cycle_wraps_to_300_and_spares_a_live_group(struct kunit *test)
{
	struct task_struct *leader, *member;
	int group, lowest = PID_MAX, seen_group = 0, expected = 300;

	/* A group numbered where the wrapped cycle goes (>= 300). */
	while ((leader = new_task()) && leader->pid < 300)
		free_task(leader);
	member = new_task();
	KUNIT_ASSERT_NOT_NULL(test, leader);
	KUNIT_ASSERT_NOT_NULL(test, member);
	group = leader->pid;
	member->pgid = group;
	free_task(leader);
	for (int i = 0; i < PID_MAX; i++) {
		struct task_struct *t = new_task();

		KUNIT_ASSERT_NOT_NULL(test, t);
		lowest = MIN(lowest, t->pid);
		seen_group += t->pid == group;
		free_task(t);
	}
	/* The lowest is the first number from 300 that is free and names
	 * no group. */
	while (expected == group || find_task_by_vpid(expected))
		expected++;
	KUNIT_EXPECT_EQ(test, lowest, expected);
	KUNIT_EXPECT_EQ(test, seen_group, 0);
	free_task(member);
}

static struct kunit_case pid_cases[] = { KUNIT_CASE(a_freed_pid_is_not_given_again_at_once),
					 KUNIT_CASE(the_cycle_wraps_to_300_and_spares_a_live_group),
					 {} };

static struct kunit_suite pid_suite = {
	.name = "pid",
	.test_cases = pid_cases,
};
kunit_test_suite(pid_suite);
