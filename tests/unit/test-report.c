/* Unit tests for the pure helpers of lib/report/report.c: NN/MM widths as the
 * subjects write them, cutting subjects to a width, and the order of
 * --short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/report.h"

static void test_subject_number_width(void **state)
{
	(void)state;
	assert_int_equal(fs_report_subject_number_width("[PATCH 4.4 00/27] 4.4.7-stable review"), 2);
	assert_int_equal(fs_report_subject_number_width("[PATCH 4.4 003/300] x"), 3);
	assert_int_equal(fs_report_subject_number_width("[PATCH 4.4 000/002] x"), 3);
	assert_int_equal(fs_report_subject_number_width("[PATCH AUTOSEL 4.5 1/5] x"), 1);
	/* Only inside the bracket: a slash in the title is no number. */
	assert_int_equal(fs_report_subject_number_width("[PATCH 4.4] tcp: 1/2 of it"), 0);
	assert_int_equal(fs_report_subject_number_width("no bracket 1/2"), 0);
	assert_int_equal(fs_report_subject_number_width(""), 0);
	assert_int_equal(fs_report_subject_number_width(NULL), 0);
}

static void test_number_width_fallback(void **state)
{
	struct fs_thread_series s;

	(void)state;
	memset(&s, 0, sizeof(s));
	s.total = 24;
	assert_int_equal(fs_report_number_width(&s), 2);
	s.total = 300;
	assert_int_equal(fs_report_number_width(&s), 3);
	s.total = -1;
	assert_int_equal(fs_report_number_width(&s), 1);
}

/* A patch's number as public mail names it: no "/0000" for a series
 * whose total is unknown (past FS_THREAD_MAX_TOTAL, or not written). */
static void test_patch_number(void **state)
{
	struct fs_thread_series s;
	char buf[32];

	(void)state;
	memset(&s, 0, sizeof(s));
	s.total = 27;
	assert_string_equal(fs_report_patch_number(&s, 3, buf, sizeof(buf)), "03/27");
	assert_string_equal(fs_report_patch_number(&s, 0, buf, sizeof(buf)), "00/27");
	s.total = -1;
	assert_string_equal(fs_report_patch_number(&s, 2374, buf, sizeof(buf)), "2374");
	assert_string_equal(fs_report_patch_number(&s, 5, buf, sizeof(buf)), "5");
	assert_string_equal(fs_report_patch_number(NULL, 5, buf, sizeof(buf)), "05");
}

static void expect_cut(const char *in, size_t cols, const char *want)
{
	char *got = fs_report_ellipsize(in, cols);

	assert_string_equal(got, want);
	free(got);
}

static void test_ellipsize(void **state)
{
	(void)state;
	expect_cut("short", 10, "short");
	expect_cut("exactly10!", 10, "exactly10!");
	expect_cut("a little too long", 10, "a littl...");
	/* Characters, not bytes: a UTF-8 name is not cut in its middle. */
	expect_cut("J\xc3\xb6rg Lindqvist", 6, "J\xc3\xb6r...");
	expect_cut("abcdef", 3, "...");
	expect_cut("abcdef", 2, "..");
	expect_cut("abcdef", 0, "");
}

static void test_rank(void **state)
{
	struct fs_finding a, b;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	/* What to queue or drop, then reports, then notes. */
	a.kind = FS_FIND_FIX_MISSING;
	b.kind = FS_FIND_REVERTED_IN_STABLE;
	assert_true(fs_report_rank(&a) < fs_report_rank(&b));
	a.kind = FS_FIND_DEP_MISSING;
	b.kind = FS_FIND_REGRESSION_REPORT;
	assert_true(fs_report_rank(&a) < fs_report_rank(&b));
	a.kind = FS_FIND_OBJECTION;
	b.kind = FS_FIND_TARGET_ABSENT;
	assert_true(fs_report_rank(&a) < fs_report_rank(&b));
	a.kind = FS_FIND_NO_UPSTREAM;
	b.kind = FS_FIND_FIX_PRESENT;
	assert_true(fs_report_rank(&a) < fs_report_rank(&b));
	/* A revert undone again asks for nothing: among the notes. */
	a.kind = FS_FIND_REVERTED_UPSTREAM;
	a.cause = FS_CAUSE_REVERT_OF_REVERT;
	b.kind = FS_FIND_OBJECTION;
	assert_true(fs_report_rank(&a) > fs_report_rank(&b));
}

/* The rule the exit status follows: everything asks for action but a fix
 * that is there (in the branch or queued in the series), the advisory
 * notes of a reply (one of no class, one carrying a replacement), the
 * advisory series-partial and fix-not-applicable, and a patch mail
 * without its diff. */
static void test_problem_kinds(void **state)
{
	int k;

	(void)state;
	for (k = 0; k < FS_FIND_KIND_COUNT; k++)
		assert_int_equal(fs_finding_kind_is_problem(k),
				 k != FS_FIND_FIX_PRESENT && k != FS_FIND_FIX_QUEUED &&
				 k != FS_FIND_REPLY && k != FS_FIND_REPLACEMENT_POSTED &&
				 k != FS_FIND_SERIES_PARTIAL && k != FS_FIND_FIX_NOT_APPLICABLE &&
				 k != FS_FIND_DIFF_ABSENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_subject_number_width),
		cmocka_unit_test(test_number_width_fallback),
		cmocka_unit_test(test_patch_number),
		cmocka_unit_test(test_ellipsize),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_problem_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
