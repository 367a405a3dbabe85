/* Unit tests of the rounds module: what changed since the previous round
 * of a release, on hand-built reviews. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/review.h"
#include "fixscan/rounds.h"

#define U1 "1111111111111111111111111111111111111111"
#define U2 "2222222222222222222222222222222222222222"
#define U3 "3333333333333333333333333333333333333333"
#define F1 "f111111111111111111111111111111111111111"
#define F2 "f222222222222222222222222222222222222222"

static void test_parse(void **state)
{
	char *base;
	int n;

	assert_true(fs_round_parse("4.4.21-rc2", &base, &n));
	assert_string_equal(base, "4.4.21");
	assert_int_equal(n, 2);
	g_free(base);
	assert_true(fs_round_parse("6.1.73-rc1", &base, &n));
	assert_int_equal(n, 1);
	g_free(base);
	assert_false(fs_round_parse("4.4.21", &base, &n));
	assert_null(base);
	assert_false(fs_round_parse("4.4.21-rc", &base, &n));
	assert_false(fs_round_parse("4.4.21-rc2x", &base, &n));
	assert_false(fs_round_parse("x\"y-rc2", &base, &n));
	assert_false(fs_round_parse("-rc2", &base, &n));
	assert_false(fs_round_parse(NULL, &base, &n));
}

/* A review of one patch per upstream id of UPS (NULL-terminated), patch
 * K with the findings FINDS[K] (a kind and a commit each). */
struct fake {
	struct fs_thread_series s;
	struct fs_review r;
	struct fs_review_patch p[4];
	struct fs_finding f[4][2];
};

static void fake(struct fake *x, const char *release, const char *const *ups,
		 const struct fs_finding *finds[4], size_t nfinds[4])
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->s.release = (char *)release;
	x->r.series = &x->s;
	x->r.patches = x->p;
	for (i = 0; ups[i]; i++) {
		snprintf(x->p[i].findings.upstream, 41, "%s", ups[i]);
		x->p[i].index = (int)i + 1;
		if (nfinds[i])
			memcpy(x->f[i], finds[i], nfinds[i] * sizeof(struct fs_finding));
		x->p[i].findings.v = x->f[i];
		x->p[i].findings.n = nfinds[i];
	}
	x->r.npatches = i;
}

static struct fs_finding finding(enum fs_finding_kind kind, const char *commit, bool ignored)
{
	struct fs_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	snprintf(f.commit, sizeof(f.commit), "%s", commit);
	f.ignored = ignored ? (char *)"why" : NULL;
	return f;
}

/* rc1: U1 (fix-missing F1), U2 (fix-missing F2); rc2: U1 (fix-missing
 * F1, already-applied U1 ignored), U3 (dep-missing F2).  Added U3,
 * dropped U2, new: U3's dep-missing, resolved: U2's fix-missing; the
 * same finding of U1 and an ignored one are no change. */
static void test_compare(void **state)
{
	struct fs_finding a1[1], a2[1], b1[2], b3[1];
	const struct fs_finding *fa[4] = { a1, a2, NULL, NULL }, *fb[4] = { b1, b3, NULL, NULL };
	size_t na[4] = { 1, 1, 0, 0 }, nb[4] = { 2, 1, 0, 0 };
	static const char *const ua[] = { U1, U2, NULL }, *const ub[] = { U1, U3, NULL };
	struct fake prev, cur;
	struct fs_round *rd = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *text;

	a1[0] = finding(FS_FIND_FIX_MISSING, F1, false);
	a2[0] = finding(FS_FIND_FIX_MISSING, F2, false);
	b1[0] = finding(FS_FIND_FIX_MISSING, F1, false);
	b1[1] = finding(FS_FIND_ALREADY_APPLIED, U1, true);
	b3[0] = finding(FS_FIND_DEP_MISSING, F2, false);
	fake(&prev, "4.4.21-rc1", ua, fa, na);
	fake(&cur, "4.4.21-rc2", ub, fb, nb);
	assert_int_equal(fs_round_compare(&rd, &prev.r, &cur.r, &err), 0);
	assert_string_equal(rd->release, "4.4.21-rc1");
	assert_null(rd->cover);
	assert_int_equal(rd->nadded, 1);
	assert_string_equal(rd->added[0], U3);
	assert_int_equal(rd->ndropped, 1);
	assert_string_equal(rd->dropped[0], U2);
	assert_int_equal(rd->nfindings_new, 1);
	assert_int_equal(rd->findings_new[0].kind, FS_FIND_DEP_MISSING);
	assert_string_equal(rd->findings_new[0].commit, F2);
	assert_string_equal(rd->findings_new[0].upstream, U3);
	assert_int_equal(rd->findings_new[0].index, 2);
	assert_int_equal(rd->nfindings_resolved, 1);
	assert_int_equal(rd->findings_resolved[0].kind, FS_FIND_FIX_MISSING);
	assert_string_equal(rd->findings_resolved[0].commit, F2);
	assert_string_equal(rd->findings_resolved[0].upstream, U2);
	text = fs_round_text(rd);
	assert_string_equal(text, "since 4.4.21-rc1: +1 patch, -1 patch, 1 new finding, 1 finding resolved");
	g_free(text);
	fs_round_free(rd);

	/* the same round twice: no change */
	assert_int_equal(fs_round_compare(&rd, &prev.r, &prev.r, &err), 0);
	assert_int_equal(rd->nadded + rd->ndropped + rd->nfindings_new + rd->nfindings_resolved, 0);
	text = fs_round_text(rd);
	assert_string_equal(text, "since 4.4.21-rc1: no change");
	g_free(text);
	fs_round_free(rd);
}

/* Patches are counted one to one: a duplicate dropped is a patch
 * dropped though its commit stays; one added again is a patch added; a
 * round that only renumbers changes nothing. */
static void test_patches(void **state)
{
	const struct fs_finding *none[4] = { NULL, NULL, NULL, NULL };
	size_t n0[4] = { 0, 0, 0, 0 };
	static const char *const dup[] = { U1, U2, U1, NULL }, *const one_each[] = { U2, U1, NULL };
	static const char *const u1[] = { U1, NULL }, *const u1u1u3[] = { U1, U1, U3, NULL };
	struct fake prev, cur;
	struct fs_round *rd = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *text;

	/* rc1 carries U1 twice (01 and 03), rc2 once and U2 first */
	fake(&prev, "4.4.21-rc1", dup, none, n0);
	fake(&cur, "4.4.21-rc2", one_each, none, n0);
	assert_int_equal(fs_round_compare(&rd, &prev.r, &cur.r, &err), 0);
	assert_int_equal(rd->ndropped, 0);
	assert_int_equal(rd->nadded, 0);
	assert_int_equal(rd->npatches_added, 0);
	assert_int_equal(rd->npatches_dropped, 1);
	assert_int_equal(rd->patches_dropped[0], 3);
	assert_true(fs_round_dropped(rd, 3));
	assert_false(fs_round_dropped(rd, 1));
	assert_false(fs_round_dropped(rd, 2));
	text = fs_round_text(rd);
	assert_string_equal(text, "since 4.4.21-rc1: -1 patch");
	g_free(text);
	fs_round_free(rd);

	/* the other way: one patch of U1 added, and U3 */
	fake(&prev, "4.4.21-rc1", u1, none, n0);
	fake(&cur, "4.4.21-rc2", u1u1u3, none, n0);
	assert_int_equal(fs_round_compare(&rd, &prev.r, &cur.r, &err), 0);
	assert_int_equal(rd->nadded, 1);
	assert_string_equal(rd->added[0], U3);
	assert_int_equal(rd->npatches_added, 2);
	assert_int_equal(rd->patches_added[0], 2);
	assert_int_equal(rd->patches_added[1], 3);
	assert_int_equal(rd->npatches_dropped, 0);
	assert_false(fs_round_dropped(rd, 1));
	text = fs_round_text(rd);
	assert_string_equal(text, "since 4.4.21-rc1: +2 patches");
	g_free(text);
	fs_round_free(rd);

	/* renumbered only */
	fake(&prev, "4.4.21-rc1", one_each, none, n0);
	fake(&cur, "4.4.21-rc2", (const char *const[]){ U1, U2, NULL }, none, n0);
	assert_int_equal(fs_round_compare(&rd, &prev.r, &cur.r, &err), 0);
	assert_int_equal(rd->npatches_added + rd->npatches_dropped + rd->nadded + rd->ndropped, 0);
	assert_false(fs_round_dropped(NULL, 1));
	fs_round_free(rd);
}

/* What a reply in the earlier round's thread said is not resolved by a
 * round without it (the reply stays in its thread); a reply in this
 * round's thread is new; a finding of fixscan's own that is gone is
 * resolved. */
static void test_replies_not_resolved(void **state)
{
	struct fs_finding a[3], b[1];
	const struct fs_finding *fa[4] = { a, NULL, NULL, NULL }, *fb[4] = { b, NULL, NULL, NULL };
	size_t na[4] = { 3, 0, 0, 0 }, nb[4] = { 1, 0, 0, 0 };
	static const char *const u1[] = { U1, NULL };
	struct fake prev, cur;
	struct fs_round *rd = NULL;
	struct fs_error err = FS_ERROR_INIT;

	a[0] = finding(FS_FIND_NEEDS_ALSO, F1, false);
	a[0].mail.message_id = (char *)"asked@example.org";
	a[1] = finding(FS_FIND_OBJECTION, "", false);
	a[1].mail.message_id = (char *)"drop@example.org";
	a[2] = finding(FS_FIND_FIX_MISSING, F2, false);
	b[0] = finding(FS_FIND_REGRESSION_REPORT, "", false);
	b[0].mail.message_id = (char *)"broke@example.org";
	fake(&prev, "4.4.21-rc1", u1, fa, na);
	fake(&cur, "4.4.21-rc2", u1, fb, nb);
	assert_int_equal(fs_round_compare(&rd, &prev.r, &cur.r, &err), 0);
	assert_int_equal(rd->nfindings_resolved, 1);
	assert_int_equal(rd->findings_resolved[0].kind, FS_FIND_FIX_MISSING);
	assert_int_equal(rd->nfindings_new, 1);
	assert_int_equal(rd->findings_new[0].kind, FS_FIND_REGRESSION_REPORT);
	fs_round_free(rd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_patches),
		cmocka_unit_test(test_replies_not_resolved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
