/* Unit tests for src/stats.c: percentages and their rounding, range
 * parsing, series names, and the pair count on hand-made tables (no
 * repository, no index).  The ids are invented.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/stats.h"

/* Stable ids (S*) and the mainline ids they backport (U*). */
#define S1 "1111aaaa2222bbbb3333cccc4444dddd5555eeee"
#define S2 "2222aaaa2222bbbb3333cccc4444dddd5555eeee"
#define S3 "3333aaaa2222bbbb3333cccc4444dddd5555eeee"
#define S4 "4444aaaa2222bbbb3333cccc4444dddd5555eeee"
#define S5 "5555aaaa2222bbbb3333cccc4444dddd5555eeee"
#define U1 "a1a1a1a1a1a1b2b2b2b2b2b2c3c3c3c3c3c3d4d4"
#define U2 "a2a2a2a2a2a2b2b2b2b2b2b2c3c3c3c3c3c3d4d4"
#define U3 "a3a3a3a3a3a3b2b2b2b2b2b2c3c3c3c3c3c3d4d4"
#define U4 "a4a4a4a4a4a4b2b2b2b2b2b2c3c3c3c3c3c3d4d4"
/* Two ids that share their first 12 digits. */
#define T1 "bebebebebebe0000000000000000000000000001"
#define T2 "bebebebebebe0000000000000000000000000002"
#define OUTSIDE "f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0"

/* ------------------------------------------------------------------ */

struct pct_case {
	size_t num, den;
	const char *want;
};

static void test_stats__percent(void **state)
{
	static const struct pct_case cases[] = {
		/* The article's rows. */
		{ 39, 1712, "2.3%" }, { 39, 632, "6.2%" },
		{ 2, 314, "0.6%" }, { 2, 144, "1.4%" },
		{ 9, 973, "0.9%" }, { 9, 437, "2.1%" },
		{ 105, 4779, "2.2%" }, { 105, 1098, "9.6%" },
		/* Exact halves round up; just below stays down. */
		{ 1, 8, "12.5%" }, { 1, 16, "6.3%" }, { 1, 400, "0.3%" },
		{ 1, 2000, "0.1%" }, { 1, 2001, "0.0%" }, { 3, 16, "18.8%" },
		{ 0, 5, "0.0%" }, { 5, 5, "100.0%" }, { 7, 3, "233.3%" },
		{ 1, 0, "-" }, { 0, 0, "-" },
	};
	char buf[FS_STATS_PERCENT_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fs_stats_percent(buf, cases[i].num, cases[i].den);
		if (strcmp(buf, cases[i].want))
			fail_msg("%zu/%zu: got '%s', want '%s'", cases[i].num, cases[i].den,
				 buf, cases[i].want);
	}
	assert_int_equal(fs_stats_tenths(39, 1712), 23);
	assert_int_equal(fs_stats_tenths(39, 632), 62);
	assert_int_equal(fs_stats_tenths(1, 0), -1);
	/* Large counts do not overflow. */
	assert_int_equal(fs_stats_tenths(1300000, 1300000), 1000);
}

struct range_case {
	const char *spec;
	int rc;
	const char *base, *tip, *branch, *series;
};

static void test_stats__range_parse(void **state)
{
	static const struct range_case cases[] = {
		{ "v4.4..v4.4.14", 0, "v4.4", "v4.4.14", NULL, "4.4" },
		{ "v4.4.3..v4.4.7", 0, "v4.4.3", "v4.4.7", NULL, "4.4" },
		{ "v3.14..v3.14.73", 0, "v3.14", "v3.14.73", NULL, "3.14" },
		{ "v4.4..linux-4.4.y", 0, "v4.4", "linux-4.4.y", NULL, "4.4" },
		{ "abc123..def456", 0, "abc123", "def456", NULL, "abc123..def456" },
		{ "linux-4.4.y", 0, NULL, NULL, "linux-4.4.y", "4.4" },
		{ "stable/linux-3.14.y", 0, NULL, NULL, "stable/linux-3.14.y", "3.14" },
		{ "master", 0, NULL, NULL, "master", "master" },
		{ "", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "..v4.4.1", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "v4.4..", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "v4.4...v4.4.2", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "v4.4..v4.4.1..v4.4.2", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "v4.4 ..v4.4.2", FS_EUSAGE, NULL, NULL, NULL, NULL },
		{ "linux-4.4.y\n", FS_EUSAGE, NULL, NULL, NULL, NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct range_case *c = &cases[i];
		struct fs_error err = FS_ERROR_INIT;
		struct fs_stats_range r;
		char *series;
		int rc = fs_stats_range_parse(&r, c->spec, &err);

		if (rc != c->rc)
			fail_msg("'%s': rc %d, want %d", c->spec, rc, c->rc);
		if (rc < 0) {
			assert_non_null(strstr(err.message, "bad range '"));
			continue;
		}
		assert_string_equal(r.spec, c->spec);
		if (c->base)
			assert_string_equal(r.base, c->base);
		else
			assert_null(r.base);
		if (c->tip)
			assert_string_equal(r.tip, c->tip);
		else
			assert_null(r.tip);
		if (c->branch)
			assert_string_equal(r.branch, c->branch);
		else
			assert_null(r.branch);
		series = fs_stats_series_name(&r);
		assert_string_equal(series, c->series);
		g_free(series);
		fs_stats_range_clear(&r);
	}
	fs_stats_range_clear(NULL);
}

/* ------------------------------------------------------------------ */
/* Pair counting */

static struct fs_stats *new_table(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_stats *st = NULL;

	assert_int_equal(fs_stats_new(&st, "v4.4..v4.4.3", "4.4", &err), 0);
	return st;
}

static size_t add(struct fs_stats *st, const char *id, const char *rel, long order,
		  const char *up)
{
	long p = fs_stats_add_patch(st, id, rel, order, up != NULL);

	assert_true(p >= 0);
	if (up)
		assert_int_equal(fs_stats_add_key(st, (size_t)p, up), 0);
	return (size_t)p;
}

static void finish(struct fs_stats *st)
{
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_stats_finish(st, &err), 0);
}

static void assert_pair(const struct fs_stats *st, size_t i, size_t intro, size_t fixer)
{
	const struct fs_stats_pair *pv;
	size_t n;

	pv = fs_stats_pairs(st, &n);
	assert_true(i < n);
	assert_int_equal(pv[i].introducer, intro);
	assert_int_equal(pv[i].fixer, fixer);
}

static void test_stats__counts(void **state)
{
	struct fs_stats *st = new_table();
	struct fs_stats_counts k;
	size_t a, b, c;

	(void)state;
	a = add(st, S1, "v4.4.1", 0, U1);
	b = add(st, S2, "v4.4.1", 1, NULL); /* no upstream: not mapped */
	c = add(st, S3, "v4.4.2", 2, U3);
	/* A fix line naming nothing still makes a patch one with fixes. */
	assert_int_equal(fs_stats_add_fix(st, b, OUTSIDE, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, c, "zz-not-hex", NULL), 0);
	finish(st);
	fs_stats_get_counts(st, &k);
	assert_int_equal(k.patches, 3);
	assert_int_equal(k.mapped, 2);
	assert_int_equal(k.with_fixes, 2);
	assert_int_equal(k.fixed, 0);
	assert_string_equal(fs_stats_spec(st), "v4.4..v4.4.3");
	assert_string_equal(fs_stats_series(st), "4.4");
	assert_null(fs_stats_base(st));
	assert_string_equal(fs_stats_patch_id(st, a), S1);
	assert_string_equal(fs_stats_patch_release(st, c), "v4.4.2");
	assert_null(fs_stats_patch_subject(st, a));
	assert_int_equal(fs_stats_set_subject(st, a, "net: fix it"), 0);
	assert_string_equal(fs_stats_patch_subject(st, a), "net: fix it");
	assert_null(fs_stats_patch_id(st, 99));
	fs_stats_free(st);
	fs_stats_free(NULL);
}

/* Every way of naming the introducer: upstream id abbreviated and full,
 * upper case, its own stable id, a revert of the stable id with the
 * upstream as the alternative. */
static void test_stats__names(void **state)
{
	static const struct {
		const char *hex, *alt;
		size_t pairs;
	} cases[] = {
		{ U1, NULL, 1 },
		{ "a1a1a1a1a1a1", NULL, 1 },
		{ "a1a1a1a", NULL, 1 },
		{ "A1A1A1A1A1A1B2B2", NULL, 1 },
		{ S1, NULL, 1 },
		{ "1111aaaa2222", NULL, 1 },
		{ S1, U1, 1 },
		{ OUTSIDE, U1, 1 },   /* the alternative when the id names nothing */
		{ OUTSIDE, NULL, 0 },
		{ "a1a1a1", NULL, 0 }, /* too short to count */
		{ "", NULL, 0 },
		{ U2, NULL, 0 },      /* U2 is not backported in the range */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fs_stats *st = new_table();
		struct fs_stats_counts k;
		size_t a, f;

		a = add(st, S1, "v4.4.1", 0, U1);
		f = add(st, S2, "v4.4.2", 1, U4);
		assert_int_equal(fs_stats_add_fix(st, f, cases[i].hex, cases[i].alt), 0);
		finish(st);
		fs_stats_get_counts(st, &k);
		if (k.fixed != cases[i].pairs)
			fail_msg("'%s' / '%s': %zu pairs, want %zu", cases[i].hex,
				 cases[i].alt ? cases[i].alt : "-", k.fixed, cases[i].pairs);
		if (k.fixed)
			assert_pair(st, 0, a, f);
		assert_int_equal(k.with_fixes, 1);
		fs_stats_free(st);
	}
}

/* A revert naming both the stable and the upstream id, and a fixer naming
 * the same introducer twice, give one pair; a fixer naming two
 * introducers gives two; a patch never fixes itself. */
static void test_stats__one_pair_per_couple(void **state)
{
	struct fs_stats *st = new_table();
	struct fs_stats_counts k;
	size_t a, b, f1, f2, self;

	(void)state;
	a = add(st, S1, "v4.4.1", 0, U1);
	b = add(st, S2, "v4.4.1", 1, U2);
	f1 = add(st, S3, "v4.4.2", 2, NULL);
	assert_int_equal(fs_stats_add_fix(st, f1, S1, U1), 0);
	assert_int_equal(fs_stats_add_fix(st, f1, "a1a1a1a1a1a1", NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, f1, S1, NULL), 0);
	f2 = add(st, S4, "v4.4.3", 3, U4);
	assert_int_equal(fs_stats_add_fix(st, f2, "a1a1a1a1a1a1", NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, f2, U2, NULL), 0);
	self = add(st, S5, "v4.4.3", 4, U3);
	assert_int_equal(fs_stats_add_fix(st, self, U3, NULL), 0);
	finish(st);
	fs_stats_get_counts(st, &k);
	assert_int_equal(k.fixed, 3);
	assert_int_equal(k.with_fixes, 3);
	assert_pair(st, 0, a, f1);
	assert_pair(st, 1, a, f2);
	assert_pair(st, 2, b, f2);
	fs_stats_free(st);
}

/* Two patches backporting one upstream commit (a duplicate backport) are
 * both named by a fix of that commit; an abbreviation that is a prefix of
 * two different ids names neither; an upstream id written abbreviated
 * still matches a full id in the fix line. */
static void test_stats__duplicates_and_ambiguity(void **state)
{
	struct fs_stats *st = new_table();
	struct fs_stats_counts k;
	size_t a, dup, t1, f, g, h, s4;

	(void)state;
	a = add(st, S1, "v4.4.1", 0, U1);
	dup = add(st, S2, "v4.4.2", 1, U1);
	t1 = add(st, S3, "v4.4.1", 2, T1);
	add(st, "6666aaaa2222bbbb3333cccc4444dddd5555eeee", "v4.4.1", 3, T2);
	s4 = add(st, S4, "v4.4.1", 4, "a4a4a4a4a4a4"); /* upstream written short */
	f = add(st, S5, "v4.4.3", 5, NULL);
	assert_int_equal(fs_stats_add_fix(st, f, U1, NULL), 0);
	g = add(st, "7777aaaa2222bbbb3333cccc4444dddd5555eeee", "v4.4.3", 6, NULL);
	assert_int_equal(fs_stats_add_fix(st, g, "bebebebebebe", NULL), 0);
	h = add(st, "8888aaaa2222bbbb3333cccc4444dddd5555eeee", "v4.4.3", 7, NULL);
	assert_int_equal(fs_stats_add_fix(st, h, T1, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, h, U4, NULL), 0);
	finish(st);
	fs_stats_get_counts(st, &k);
	assert_int_equal(k.fixed, 4);
	assert_pair(st, 0, a, f);
	assert_pair(st, 1, t1, h);
	assert_pair(st, 2, s4, h);
	assert_pair(st, 3, dup, f);
	fs_stats_free(st);
}

/* Pairs come in release order: by the introducer's release (in version
 * order, not text order: v4.4.10 after v4.4.9), then its order in the
 * range, then the fixer's release; patches without a release come last. */
static void test_stats__release_order(void **state)
{
	struct fs_stats *st = new_table();
	size_t late, early2, early1, f9, f10, fnone;

	(void)state;
	fnone = add(st, "9999aaaa2222bbbb3333cccc4444dddd5555eeee", NULL, 9, NULL);
	f10 = add(st, "aaaaaaaa2222bbbb3333cccc4444dddd5555eeee", "v4.4.10", 8, NULL);
	f9 = add(st, "bbbbaaaa2222bbbb3333cccc4444dddd5555eeee", "v4.4.9", 7, NULL);
	late = add(st, S1, "v4.4.10", 6, U1);
	early2 = add(st, S2, "v4.4.2", 2, U2);
	early1 = add(st, S3, "v4.4.2", 1, U3);
	assert_int_equal(fs_stats_add_fix(st, f10, U1, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, fnone, U2, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, f10, U2, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, f9, U2, NULL), 0);
	assert_int_equal(fs_stats_add_fix(st, f9, U3, NULL), 0);
	finish(st);
	assert_pair(st, 0, early1, f9);
	assert_pair(st, 1, early2, f9);
	assert_pair(st, 2, early2, f10);
	assert_pair(st, 3, early2, fnone);
	assert_pair(st, 4, late, f10);
	fs_stats_free(st);
}

/* A table built to the article's 4.4 counts: 1,712 patches, 632 with
 * fixes, 39 pairs; the rates print as the article's. */
static void test_stats__article_row(void **state)
{
	struct fs_stats *st = new_table();
	struct fs_stats_counts k;
	char id[41], up[41], a[FS_STATS_PERCENT_MAX], b[FS_STATS_PERCENT_MAX];
	size_t i;

	(void)state;
	for (i = 0; i < 1712; i++) {
		snprintf(id, sizeof(id), "%040zx", i + 1);
		snprintf(up, sizeof(up), "f%039zx", i + 1);
		add(st, id, "v4.4.1", (long)i, up);
	}
	/* Patches 1000..1038 each fix patch N - 1000 by its upstream id;
	 * 593 more name commits outside the range. */
	for (i = 0; i < 632; i++) {
		snprintf(up, sizeof(up), i < 39 ? "f%039zx" : "e%039zx", i + 1);
		assert_int_equal(fs_stats_add_fix(st, 1000 + i, up, NULL), 0);
	}
	finish(st);
	fs_stats_get_counts(st, &k);
	assert_int_equal(k.patches, 1712);
	assert_int_equal(k.mapped, 1712);
	assert_int_equal(k.with_fixes, 632);
	assert_int_equal(k.fixed, 39);
	assert_string_equal(fs_stats_percent(a, k.fixed, k.patches), "2.3%");
	assert_string_equal(fs_stats_percent(b, k.fixed, k.with_fixes), "6.2%");
	fs_stats_free(st);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_stats__percent),
	cmocka_unit_test(test_stats__range_parse),
	cmocka_unit_test(test_stats__counts),
	cmocka_unit_test(test_stats__names),
	cmocka_unit_test(test_stats__one_pair_per_couple),
	cmocka_unit_test(test_stats__duplicates_and_ambiguity),
	cmocka_unit_test(test_stats__release_order),
	cmocka_unit_test(test_stats__article_row),
};

int main(void)
{
	return cmocka_run_group_tests(tests, NULL, NULL);
}
