/* Unit tests for the table of finding kinds (lib/review/kinds.c) and the
 * tables of their words (lib/report/report-words.c, lib/draft/draft-para.c,
 * lib/draft/draft-items.c): complete and consistent, so that a new kind
 * cannot be half added. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/kinds.h"
#include "draft/draft-private.h"
#include "report/report-words.h"

/* Every kind has a row: a name that reads back, words for the report, a
 * paragraph, a colour; the fixes kinds are the only ones without a
 * summary item of their own. */
static void test_every_kind_has_a_row(void **state)
{
	int k;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		const struct fs_kind *row = fs_kind(k);

		assert_non_null(row->name);
		assert_string_not_equal(row->name, "unknown");
		assert_int_equal(fs_finding_kind_from_name(row->name), k);
		assert_string_equal(fs_finding_kind_name(k), row->name);
		assert_non_null(fsr_kind(k)->words);
		assert_non_null(fsr_kind(k)->color);
		assert_non_null(fsd_para_kind(k)->para);
		assert_true(fsd_has_summary_item(k) || row->group == FS_GROUP_FIXES ||
			    row->group == FS_GROUP_NONE);
		/* a kind that asks for a reply is a problem */
		assert_true(!row->asks || row->problem);
		/* the digest's risky patches are those with a finding that
		 * asks: a kind that asks for nothing weighs nothing */
		assert_true(row->asks || row->digest_weight == 0);
		assert_true(!row->asks || row->digest_weight > 0);
	}
}

/* Ranks and paragraph orders are places in a list of the kinds: each
 * kind in each list once, none left out, so the order of the report and
 * of a reply is total. */
static void test_orders_are_permutations(void **state)
{
	int seen_rank[FS_FIND_KIND_COUNT] = { 0 }, seen_para[FS_FIND_KIND_COUNT] = { 0 };
	int k;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		int rank = fs_kind_rank(k), para = fsd_kind_by_para_order(k);

		assert_in_range(rank, 0, FS_FIND_KIND_COUNT - 1);
		assert_in_range(para, 0, FS_FIND_KIND_COUNT - 1);
		seen_rank[rank]++;
		seen_para[para]++;
	}
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		assert_int_equal(seen_rank[k], 1);
		assert_int_equal(seen_para[k], 1);
	}
	assert_int_equal(fsd_kind_by_para_order(FS_FIND_KIND_COUNT), -1);
	assert_int_equal(fsd_kind_by_para_order(-1), -1);
	assert_int_equal(fs_kind_rank(FS_FIND_KIND_COUNT), FS_FIND_KIND_COUNT);
}

/* The classes follow the ranks: what to act on, then reports, then
 * notes. */
static void test_classes_follow_ranks(void **state)
{
	int k, j;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++)
		for (j = 0; j < FS_FIND_KIND_COUNT; j++)
			if (fs_kind_rank(k) < fs_kind_rank(j))
				assert_true(fs_kind(k)->cls <= fs_kind(j)->cls);
}

/* Out of range: a row of its own, named "unknown", no kind's name. */
static void test_unknown_kind(void **state)
{
	const struct fs_kind *row = fs_kind(FS_FIND_KIND_COUNT);

	assert_string_equal(row->name, "unknown");
	assert_int_equal(row->digest_weight, 0);
	assert_int_equal(row->group, FS_GROUP_NONE);
	assert_int_equal(fs_finding_kind_from_name("unknown"), -1);
	assert_int_equal(fs_finding_kind_from_name("fix-missing"), FS_FIND_FIX_MISSING);
}

/* The per-finding refinements: a revert undone by a revert of the
 * revert is in no group and asks for nothing; a Stable-dep-of
 * prerequisite or an id nobody can find is a note, not a request; an
 * unknown upstream id a clone older than the thread lacks asks for
 * nothing. */
static void test_refinements(void **state)
{
	struct fs_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = FS_FIND_REVERTED_UPSTREAM;
	assert_int_equal(fs_kind_group_of(&f), FS_GROUP_REVERTED);
	assert_true(fs_finding_is_problem(&f));
	f.cause = FS_CAUSE_REVERT_OF_REVERT;
	assert_int_equal(fs_kind_group_of(&f), FS_GROUP_NONE);
	assert_false(fs_finding_is_problem(&f));

	memset(&f, 0, sizeof(f));
	f.kind = FS_FIND_DEP_MISSING;
	f.cause = FS_CAUSE_PREREQUISITE;
	assert_int_equal(fs_kind_group_of(&f), FS_GROUP_FIXES);
	f.cause = FS_CAUSE_STABLE_DEP_OF;
	assert_int_equal(fs_kind_group_of(&f), FS_GROUP_OTHER);
	f.cause = FS_CAUSE_PREREQUISITE;
	f.unresolved = FS_CAUSE_NOT_FOUND;
	assert_int_equal(fs_kind_group_of(&f), FS_GROUP_OTHER);

	memset(&f, 0, sizeof(f));
	f.kind = FS_FIND_UNKNOWN_UPSTREAM;
	assert_true(fs_kind_asks(&f));
	f.cause = FS_CAUSE_NOT_IN_CLONE;
	assert_false(fs_kind_asks(&f));

	memset(&f, 0, sizeof(f));
	f.kind = FS_FIND_FIXES_TAG_MISMATCH;
	assert_true(fs_finding_is_problem(&f));
	assert_false(fs_kind_asks(&f));
	f.kind = FS_FIND_FIX_QUEUED;
	assert_false(fs_finding_is_problem(&f));
	assert_false(fs_kind_asks(&f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_kind_has_a_row),
		cmocka_unit_test(test_orders_are_permutations),
		cmocka_unit_test(test_classes_follow_ranks),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_refinements),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
