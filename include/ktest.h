/*
 * ktest: Folium's KUnit. A suite is a static table of cases; each case gets
 * a struct kunit and reports through KUNIT_EXPECT_* (record a failure, keep
 * going) and KUNIT_ASSERT_* (record a failure, return from the case).
 * Results are printed as KTAP version 1, exactly as Linux KUnit prints them,
 * so the same parser reads kernel and host runs. The same test files build
 * into the kernel (`test` shell command) and the host test program.
 */
#ifndef FOLIUM_KTEST_H
#define FOLIUM_KTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct kunit {
	const char *name; /* the running case */
	bool failed;
	bool skipped;
	const char *skip_reason;
	void *priv; /* for the suite's init/exit */
};

struct kunit_case {
	void (*run_case)(struct kunit *test);
	const char *name;
};

struct kunit_suite {
	const char *name;
	int (*init)(struct kunit *test);  /* before each case; may be NULL */
	void (*exit)(struct kunit *test); /* after each case; may be NULL */
	struct kunit_case *test_cases;	  /* ends with an empty entry */
};

/* An initializer, not a block: */
/* clang-format off */
#define KUNIT_CASE(fn) { .run_case = fn, .name = #fn }
/* clang-format on */

/* Registers a suite in the "ktest_suites" section that the runner walks. */
#define kunit_test_suite(suite)                              \
	static const struct kunit_suite *__ktest_ptr_##suite \
		__attribute__((used, section("ktest_suites"))) = &(suite)

/* Run every suite (name == NULL) or the one named. Return: number of failed
 * cases, or -1 if no suite has that name. Prints KTAP to the consoles. */
int ktest_run(const char *name);
/* Print the registered suite names, one per line. */
void ktest_list(void);
/* Where KTAP lines go; the kernel prints to its consoles, the host to
 * stdout. Implemented once per environment. */
void ktest_print(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void kunit_fail(struct kunit *test, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* A failed string comparison; both strings are shown C-escaped. */
void kunit_fail_streq(struct kunit *test, const char *file, int line, const char *expr_a,
		      const char *expr_b, const char *a, const char *b);
void kunit_mark_skipped(struct kunit *test, const char *reason);

/* xorshift64: a test's reproducible pseudo-random numbers, from a
 * nonzero *state (its seed). */
static inline uint64_t ktest_rand(uint64_t *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 7;
	*state ^= *state << 17;
	return *state;
}

#define __KUNIT_BINARY(test, a, op, b, on_fail)                                            \
	do {                                                                               \
		long long __a = (long long)(a), __b = (long long)(b);                      \
		if (!(__a op __b)) {                                                       \
			kunit_fail(test, __FILE__, __LINE__,                               \
				   "Expected %s %s %s, but\n"                              \
				   "    %s == %lld (0x%llx)\n"                             \
				   "    %s == %lld (0x%llx)",                              \
				   #a, #op, #b, #a, __a, (unsigned long long)__a, #b, __b, \
				   (unsigned long long)__b);                               \
			on_fail;                                                           \
		}                                                                          \
	} while (0)

#define __KUNIT_TRUE(test, cond, want, on_fail)                                             \
	do {                                                                                \
		if (!!(cond) != (want)) {                                                   \
			kunit_fail(test, __FILE__, __LINE__, "Expected %s to be %s", #cond, \
				   (want) ? "true" : "false");                              \
			on_fail;                                                            \
		}                                                                           \
	} while (0)

#define __KUNIT_STREQ(test, a, b, on_fail)                                              \
	do {                                                                            \
		const char *__sa = (a), *__sb = (b);                                    \
		if (!__sa || !__sb || ktest_strcmp(__sa, __sb) != 0) {                  \
			kunit_fail_streq(test, __FILE__, __LINE__, #a, #b, __sa, __sb); \
			on_fail;                                                        \
		}                                                                       \
	} while (0)

int ktest_strcmp(const char *a, const char *b);

#define KUNIT_EXPECT_EQ(t, a, b) __KUNIT_BINARY(t, a, ==, b, (void)0)
#define KUNIT_EXPECT_NE(t, a, b) __KUNIT_BINARY(t, a, !=, b, (void)0)
#define KUNIT_EXPECT_LT(t, a, b) __KUNIT_BINARY(t, a, <, b, (void)0)
#define KUNIT_EXPECT_LE(t, a, b) __KUNIT_BINARY(t, a, <=, b, (void)0)
#define KUNIT_EXPECT_GT(t, a, b) __KUNIT_BINARY(t, a, >, b, (void)0)
#define KUNIT_EXPECT_GE(t, a, b) __KUNIT_BINARY(t, a, >=, b, (void)0)
#define KUNIT_EXPECT_TRUE(t, c) __KUNIT_TRUE(t, c, true, (void)0)
#define KUNIT_EXPECT_FALSE(t, c) __KUNIT_TRUE(t, c, false, (void)0)
#define KUNIT_EXPECT_NULL(t, p) __KUNIT_TRUE(t, (p) == NULL, true, (void)0)
#define KUNIT_EXPECT_NOT_NULL(t, p) __KUNIT_TRUE(t, (p) != NULL, true, (void)0)
#define KUNIT_EXPECT_STREQ(t, a, b) __KUNIT_STREQ(t, a, b, (void)0)

#define KUNIT_ASSERT_EQ(t, a, b) __KUNIT_BINARY(t, a, ==, b, return )
#define KUNIT_ASSERT_NE(t, a, b) __KUNIT_BINARY(t, a, !=, b, return )
#define KUNIT_ASSERT_LT(t, a, b) __KUNIT_BINARY(t, a, <, b, return )
#define KUNIT_ASSERT_LE(t, a, b) __KUNIT_BINARY(t, a, <=, b, return )
#define KUNIT_ASSERT_GT(t, a, b) __KUNIT_BINARY(t, a, >, b, return )
#define KUNIT_ASSERT_GE(t, a, b) __KUNIT_BINARY(t, a, >=, b, return )
#define KUNIT_ASSERT_TRUE(t, c) __KUNIT_TRUE(t, c, true, return )
#define KUNIT_ASSERT_FALSE(t, c) __KUNIT_TRUE(t, c, false, return )
#define KUNIT_ASSERT_NOT_NULL(t, p) __KUNIT_TRUE(t, (p) != NULL, true, return )
#define KUNIT_ASSERT_STREQ(t, a, b) __KUNIT_STREQ(t, a, b, return )

#endif
