/* Unit tests for lib/kernel/version.c: kernel release and branch names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fixscan/version.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* A name and what fs_version_parse() makes of it. */
static const struct {
	const char *name;
	int nparts; /* 0: not a version */
	unsigned part[4], rc;
	int v;
} parse_cases[] = {
	{ "v4.4.15", 3, { 4, 4, 15 }, 0, 1 },
	{ "v4.4", 2, { 4, 4 }, 0, 1 },
	{ "v4.5-rc1", 2, { 4, 5 }, 1, 1 },
	{ "4.4.15-rc1", 3, { 4, 4, 15 }, 1, 0 },
	{ "4.4", 2, { 4, 4 }, 0, 0 },
	{ "6.18", 2, { 6, 18 }, 0, 0 },
	{ "v2.6.32.5", 4, { 2, 6, 32, 5 }, 0, 1 },
	{ "v2.6.32-rc12", 3, { 2, 6, 32 }, 12, 1 },
	{ "v3.0", 2, { 3, 0 }, 0, 1 },
	{ "5", 1, { 5 }, 0, 0 },
	{ "0", 1, { 0 }, 0, 0 },
	{ "99999.99999.99999.99999-rc99999", 4, { 99999, 99999, 99999, 99999 }, 99999, 0 },
	/* not versions, or with something after one */
	{ "", 0, { 0 }, 0, 0 },
	{ "v", 0, { 0 }, 0, 0 },
	{ "V4.4", 0, { 0 }, 0, 0 },
	{ "vv4.4", 0, { 0 }, 0, 0 },
	{ "linux-4.4.y", 0, { 0 }, 0, 0 },
	{ "4.4.y", 0, { 0 }, 0, 0 },
	{ "4.4.", 0, { 0 }, 0, 0 },
	{ ".4.4", 0, { 0 }, 0, 0 },
	{ "4..4", 0, { 0 }, 0, 0 },
	{ "4.4-rc", 0, { 0 }, 0, 0 },
	{ "4.4-rc0", 0, { 0 }, 0, 0 },
	{ "4.4-rc01", 0, { 0 }, 0, 0 },
	{ "4.4-rc1-rc2", 0, { 0 }, 0, 0 },
	{ "4.4-RC1", 0, { 0 }, 0, 0 },
	{ "4.4-rc-1", 0, { 0 }, 0, 0 },
	{ "4.4-rc+1", 0, { 0 }, 0, 0 },
	{ "4.4.1.2.3", 0, { 0 }, 0, 0 },
	{ "04.4", 0, { 0 }, 0, 0 },
	{ "4.04", 0, { 0 }, 0, 0 },
	{ "4.4.00", 0, { 0 }, 0, 0 },
	{ "+4.4", 0, { 0 }, 0, 0 },
	{ "-4.4", 0, { 0 }, 0, 0 },
	{ " 4.4", 0, { 0 }, 0, 0 },
	{ "4.4 ", 0, { 0 }, 0, 0 },
	{ "4.-4", 0, { 0 }, 0, 0 },
	{ "4.4\n", 0, { 0 }, 0, 0 },
	{ "4.4-tree", 0, { 0 }, 0, 0 },
	{ "4.4.15-rt3", 0, { 0 }, 0, 0 },
	{ "100000.1", 0, { 0 }, 0, 0 },
	{ "4.100000", 0, { 0 }, 0, 0 },
	{ "4.4-rc100000", 0, { 0 }, 0, 0 },
	{ "4294967296.1", 0, { 0 }, 0, 0 },
	{ "18446744073709551617.4", 0, { 0 }, 0, 0 },
	{ "4.4.99999999999999999999999999999999", 0, { 0 }, 0, 0 },
	{ "4.4\xc3\xa9", 0, { 0 }, 0, 0 },
	{ "next-20240101", 0, { 0 }, 0, 0 },
};

static void test_parse(void **state)
{
	size_t i;
	unsigned k;

	for (i = 0; i < N_OF(parse_cases); i++) {
		struct fs_version v;
		bool ok = fs_version_parse(parse_cases[i].name, &v);

		if (ok != (parse_cases[i].nparts > 0))
			fail_msg("'%s': parsed %d", parse_cases[i].name, ok);
		if (!ok)
			continue;
		assert_int_equal(v.nparts, parse_cases[i].nparts);
		for (k = 0; k < FS_VERSION_PARTS; k++)
			assert_int_equal(v.part[k], parse_cases[i].part[k]);
		assert_int_equal(v.rc, parse_cases[i].rc);
		assert_int_equal(v.v, parse_cases[i].v);
	}
	assert_false(fs_version_parse(NULL, &(struct fs_version){ { 0 }, 0, 0, false }));
}

/* Every name that parses is written back as it was. */
static void test_format_round_trip(void **state)
{
	char buf[FS_VERSION_NAME_MAX], small[5];
	struct fs_version v;
	size_t i;

	for (i = 0; i < N_OF(parse_cases); i++) {
		if (!fs_version_parse(parse_cases[i].name, &v))
			continue;
		assert_true(fs_version_format(&v, buf, sizeof(buf)));
		assert_string_equal(buf, parse_cases[i].name);
	}
	assert_true(fs_version_parse("v4.4.15", &v));
	assert_false(fs_version_format(&v, small, sizeof(small)));
	assert_string_equal(small, "");
	assert_false(fs_version_format(&v, buf, 0));
	assert_true(fs_version_format(&v, buf, 8));
	assert_string_equal(buf, "v4.4.15");
	assert_false(fs_version_format(&v, buf, 7));
	/* a record no parse makes */
	v.nparts = 0;
	assert_false(fs_version_format(&v, buf, sizeof(buf)));
	v.nparts = 9;
	assert_false(fs_version_format(&v, buf, sizeof(buf)));
}

static const struct {
	const char *text;
	size_t n; /* bytes the scan may read; 0: strlen */
	size_t want;
} scan_cases[] = {
	{ "4.4.11 release", 0, 6 },
	{ "4.4.11.", 0, 6 },
	{ "4.4.11-rc1 release", 0, 10 },
	{ "4.4.11-rcX", 0, 6 },
	{ "4.4.11-rc", 0, 6 },
	{ "4.4.11-rc0", 0, 6 },
	{ "4.4.1.2.3", 0, 7 },
	{ "4.4.05", 0, 3 },
	{ "4.4.123456", 0, 3 },
	{ "v4.4: ok", 0, 4 },
	{ "4.4.y", 0, 3 },
	{ "4.4abc", 0, 3 },
	{ "x4.4", 0, 0 },
	{ "v.4", 0, 0 },
	{ "", 0, 0 },
	/* N bounds the scan, inside a number, a dot or an -rc */
	{ "4.4.11", 4, 3 },
	{ "4.4.11", 5, 5 },
	{ "4.4.11-rc1", 8, 6 },
	{ "4.4.11-rc1", 9, 6 },
	{ "4.4.11-rc12", 10, 10 },
	{ "v4.4", 1, 0 },
};

static void test_scan(void **state)
{
	size_t i;

	for (i = 0; i < N_OF(scan_cases); i++) {
		size_t n = scan_cases[i].n ? scan_cases[i].n : strlen(scan_cases[i].text);
		/* an exact copy, no NUL after it: a read past N is caught by
		 * the sanitizer build */
		char *copy = malloc(n ? n : 1);
		struct fs_version v;
		size_t got;

		memcpy(copy, scan_cases[i].text, n);
		got = fs_version_scan(copy, n, &v);
		if (got != scan_cases[i].want)
			fail_msg("scan('%s', %zu) = %zu, want %zu", scan_cases[i].text, n, got,
				 scan_cases[i].want);
		if (!got)
			assert_int_equal(v.nparts, 0);
		free(copy);
	}
}

/* Hostile input: long runs of digits and dots, every byte value; never a
 * read past the end, never a version that is not one. */
static void test_hostile(void **state)
{
	size_t len = 1 << 16, i;
	char *s = malloc(len + 1);
	struct fs_version v;
	int c;

	memset(s, '9', len);
	s[len] = '\0';
	assert_false(fs_version_parse(s, &v));
	assert_int_equal(fs_version_scan(s, len, &v), 0);
	for (i = 0; i < len; i += 2)
		s[i] = '1', s[i + 1] = '.';
	assert_false(fs_version_parse(s, &v));
	assert_int_equal(fs_version_scan(s, len, &v), 7); /* "1.1.1.1" */
	assert_int_equal(v.nparts, 4);
	memset(s, '.', len);
	assert_int_equal(fs_version_scan(s, len, &v), 0);
	memset(s, 'v', len);
	assert_int_equal(fs_version_scan(s, len, &v), 0);
	for (i = 0; i + 3 < len; i += 3)
		memcpy(s + i, "-rc", 3);
	assert_false(fs_version_parse(s, &v));
	free(s);
	for (c = 1; c < 256; c++) {
		char name[8];
		snprintf(name, sizeof(name), "4.4%c", c);
		assert_int_equal(fs_version_parse(name, &v), c >= '0' && c <= '9');
		snprintf(name, sizeof(name), "%c4.4", c);
		assert_int_equal(fs_version_parse(name, &v), c == 'v' || (c >= '1' && c <= '9'));
	}
	/* the comparisons take anything */
	assert_true(fs_version_name_cmp("", "") == 0);
	assert_true(fs_version_name_cmp("99999999999999999999", "v4.4") < 0);
	assert_true(fs_version_name_cmp("-rc-5", "-rc-6") < 0);
	assert_false(fs_version_branch_parse(NULL, &v));
	assert_false(fs_version_branch_parse("linux-", &v));
	assert_false(fs_version_branch_parse("linux-.y", &v));
	assert_false(fs_version_branch_parse("linux-99999999999.1.y", &v));
}

/* What kind of version each is. */
static const struct {
	const char *name;
	int mainline, stable, release, series;
} kind_cases[] = {
	{ "4.4", 1, 0, 1, 1 },
	{ "v4.4", 1, 0, 1, 0 },
	{ "v4.5-rc1", 1, 0, 1, 0 },
	{ "4.4.15", 0, 1, 1, 0 },
	{ "v4.4.15", 0, 1, 1, 0 },
	{ "4.4.15-rc1", 0, 1, 0, 0 },
	{ "v4.4.0", 0, 0, 0, 0 },
	{ "v4.4.1.2", 0, 0, 0, 0 },
	{ "v4", 0, 0, 0, 0 },
	{ "v2.6.32", 1, 0, 1, 0 },
	{ "2.6.32", 1, 0, 1, 1 },
	{ "v2.6.32-rc1", 1, 0, 1, 0 },
	{ "v2.6.32.5", 0, 1, 1, 0 },
	{ "2.6.32.5-rc1", 0, 1, 0, 0 },
	{ "v2.6", 0, 0, 0, 0 },
	{ "2.6", 0, 0, 0, 1 },
	{ "3.0", 1, 0, 1, 1 },
	{ "2.4.37", 0, 1, 1, 0 },
};

static void test_kinds(void **state)
{
	size_t i;

	for (i = 0; i < N_OF(kind_cases); i++) {
		struct fs_version v;

		if (!fs_version_parse(kind_cases[i].name, &v))
			fail_msg("'%s' does not parse", kind_cases[i].name);
		if (fs_version_is_mainline(&v) != kind_cases[i].mainline ||
		    fs_version_is_stable(&v) != kind_cases[i].stable ||
		    fs_version_is_release(&v) != kind_cases[i].release ||
		    fs_version_is_series(&v) != kind_cases[i].series)
			fail_msg("'%s': mainline %d stable %d release %d series %d", kind_cases[i].name,
				 fs_version_is_mainline(&v), fs_version_is_stable(&v),
				 fs_version_is_release(&v), fs_version_is_series(&v));
	}
}

/* A version, its series and the release it is made on. */
static const struct {
	const char *name, *series, *base; /* NULL: none */
} series_cases[] = {
	{ "4.4.11-rc1", "4.4", "v4.4.10" },
	{ "v4.4.11", "4.4", "v4.4.10" },
	{ "4.4.1", "4.4", "v4.4" },
	{ "4.4.1-rc3", "4.4", "v4.4" },
	{ "6.18.2", "6.18", "v6.18.1" },
	{ "v4.5-rc1", "4.5", NULL },
	{ "4.4", "4.4", NULL },
	{ "4.4.0", "4.4", NULL },
	{ "4.4.1.2", "4.4", NULL },
	{ "v2.6.32.5", "2.6.32", "v2.6.32.4" },
	{ "2.6.32.1-rc1", "2.6.32", "v2.6.32" },
	{ "v2.6.32", "2.6.32", NULL },
	{ "2.6", "2.6", NULL },
	{ "5", NULL, NULL },
	{ "99999.99999.99999.99999", "99999.99999", NULL },
	{ "1.2.99999", "1.2", "v1.2.99998" },
};

static void test_series_and_base(void **state)
{
	char buf[FS_VERSION_NAME_MAX];
	size_t i;

	for (i = 0; i < N_OF(series_cases); i++) {
		struct fs_version v, s, b;
		bool has_s, has_b;

		assert_true(fs_version_parse(series_cases[i].name, &v));
		has_s = fs_version_series(&v, &s);
		has_b = fs_version_base(&v, &b);
		if (has_s != !!series_cases[i].series || has_b != !!series_cases[i].base)
			fail_msg("'%s': series %d, base %d", series_cases[i].name, has_s, has_b);
		if (has_s) {
			assert_true(fs_version_format(&s, buf, sizeof(buf)));
			assert_string_equal(buf, series_cases[i].series);
			assert_true(fs_version_is_series(&s));
		} else {
			assert_int_equal(s.nparts, 0);
		}
		if (has_b) {
			assert_true(fs_version_format(&b, buf, sizeof(buf)));
			assert_string_equal(buf, series_cases[i].base);
			assert_true(fs_version_is_release(&b));
		}
	}
}

/* Releases in the order they were made within their series, and as git
 * sorts the kernel's tags by version. */
static const char *const release_order[] = {
	"v2.6.11", "v2.6.32-rc1", "v2.6.32-rc8", "v2.6.32", "v2.6.32.1", "v2.6.32.9",
	"v2.6.32.10", "v2.6.39", "v3.0-rc1", "v3.0", "v3.0.1", "v3.1", "v3.9", "v3.10-rc1",
	"v3.10", "v3.10.9", "v3.10.10", "v3.10.100", "v4.4-rc1", "v4.4-rc2", "v4.4-rc10",
	"v4.4", "v4.4.1", "v4.4.2", "v4.4.10", "v4.5-rc1", "v4.5", "v4.10", "v4.19.300",
	"v4.20-rc1", "v5.0", "v6.18-rc7", "v6.18", "v6.18.1",
};

static void test_cmp(void **state)
{
	size_t n = N_OF(release_order), i, j;
	struct fs_version a, b;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c, cn;

			assert_true(fs_version_parse(release_order[i], &a));
			assert_true(fs_version_parse(release_order[j], &b));
			c = fs_version_cmp(&a, &b);
			cn = fs_version_name_cmp(release_order[i], release_order[j]);
			if ((i < j && (c >= 0 || cn >= 0)) || (i == j && (c || cn)) ||
			    (i > j && (c <= 0 || cn <= 0)))
				fail_msg("cmp(%s, %s) = %d, %d", release_order[i], release_order[j], c,
					 cn);
		}
	/* a review round sorts like the release it leads to */
	assert_true(fs_version_name_cmp("v4.4-rc3", "v4.4-rc12") < 0);
	assert_true(fs_version_name_cmp("4.4.15-rc1", "4.4.15-rc2") < 0);
	assert_true(fs_version_name_cmp("4.4.15-rc2", "4.4.15") < 0);
	assert_true(fs_version_name_cmp("4.4.15", "4.4.16-rc1") < 0);
	/* equal numbers: the names decide, so only equal names are equal */
	assert_true(fs_version_name_cmp("4.4", "v4.4") < 0);
	assert_true(fs_version_name_cmp("v4.4", "v4.4.0") < 0);
	assert_true(fs_version_parse("4.4", &a) && fs_version_parse("v4.4", &b));
	assert_true(fs_version_cmp(&a, &b) < 0 && fs_version_cmp(&b, &a) > 0);
	assert_true(fs_version_parse("v4.4.0", &a) && fs_version_parse("v4.4", &b));
	assert_true(fs_version_cmp(&a, &b) > 0);
	/* names that are no versions sort first (their numbers are 0), by
	 * strcmp among themselves */
	assert_true(fs_version_name_cmp("mainline", "v2.6.11") < 0);
	assert_true(fs_version_name_cmp("a", "b") < 0);
	assert_true(fs_version_name_cmp("b", "a") > 0);
	/* a version that something follows sorts by its version */
	assert_true(fs_version_name_cmp("v4.4-foo", "v4.4.1") < 0);
	assert_true(fs_version_name_cmp("v4.5 x", "v4.4.1") > 0);
}

/* fs_version_name_cmp() is a total order on any strings: qsort() needs
 * one.  Every triple of a set of names, versions or not. */
static void test_name_cmp_total(void **state)
{
	static const char *const names[] = {
		"", "v", "v4.4", "4.4", "v4.4.0", "v4.4-rc1", "v4.4-rc", "v4.4-rc0", "v4.4.1",
		"04.4", "v4.04", "4.4-foo", "mainline", "-rc3", "v99999", "100000", "v2.6.32.5",
		"v2.6.32", "2.6.32.5-rc1", "4.4.y", "linux-4.4.y",
	};
	size_t n = N_OF(names), i, j, k;

	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int ij = fs_version_name_cmp(names[i], names[j]);
			int ji = fs_version_name_cmp(names[j], names[i]);

			if ((ij > 0) != (ji < 0) || (ij == 0) != (i == j))
				fail_msg("not antisymmetric: %s, %s", names[i], names[j]);
			for (k = 0; k < n; k++)
				if (ij < 0 && fs_version_name_cmp(names[j], names[k]) < 0 &&
				    fs_version_name_cmp(names[i], names[k]) >= 0)
					fail_msg("not transitive: %s, %s, %s", names[i], names[j],
						 names[k]);
		}
}

static void test_same_cycle(void **state)
{
	static const struct {
		const char *a, *b;
		int same;
	} cases[] = {
		{ "v4.7-rc3", "v4.7", 1 },
		{ "v4.7-rc1", "v4.7-rc3", 1 },
		{ "v4.7", "4.7", 1 },
		{ "v4.7", "v4.8-rc1", 0 },
		{ "v4.7", "v4.7.1", 0 },
		{ "4.4.15-rc1", "4.4.15", 1 },
		{ "4.4.15-rc1", "4.4.16-rc1", 0 },
		{ "v2.6.32-rc2", "v2.6.32", 1 },
	};
	size_t i;

	for (i = 0; i < N_OF(cases); i++) {
		struct fs_version a, b;

		assert_true(fs_version_parse(cases[i].a, &a) && fs_version_parse(cases[i].b, &b));
		if (fs_version_same_cycle(&a, &b) != cases[i].same ||
		    fs_version_same_cycle(&b, &a) != cases[i].same)
			fail_msg("same_cycle(%s, %s) != %d", cases[i].a, cases[i].b, cases[i].same);
	}
}

static void test_branches(void **state)
{
	static const struct {
		const char *branch, *series; /* NULL: no stable branch name */
	} cases[] = {
		{ "linux-4.4.y", "4.4" },
		{ "linux-6.18.y", "6.18" },
		{ "linux-2.6.32.y", "2.6.32" },
		{ "linux-2.6.y", "2.6" },
		{ "linux-4.4.1.y", NULL },
		{ "linux-v4.4.y", NULL },
		{ "linux-4.4-rc1.y", NULL },
		{ "linux-4.y", NULL },
		{ "linux-04.4.y", NULL },
		{ "linux-4.4.y.y", NULL },
		{ "linux-4.4.x", NULL },
		{ "linux-4.4.Y", NULL },
		{ "Linux-4.4.y", NULL },
		{ "stable/linux-4.4.y", NULL },
		{ "linux-4.4.y ", NULL },
		{ "linux-.y", NULL },
		{ "linux-y", NULL },
		{ "linux-next", NULL },
		{ "master", NULL },
		{ "", NULL },
	};
	char buf[FS_VERSION_NAME_MAX];
	struct fs_version v;
	size_t i;

	for (i = 0; i < N_OF(cases); i++) {
		bool ok = fs_version_branch_series(cases[i].branch, buf, sizeof(buf));

		if (ok != !!cases[i].series)
			fail_msg("'%s': %d", cases[i].branch, ok);
		assert_int_equal(fs_version_branch_parse(cases[i].branch, &v), ok);
		if (!ok) {
			assert_string_equal(buf, "");
			continue;
		}
		assert_string_equal(buf, cases[i].series);
		/* and back */
		assert_true(fs_version_branch_name(cases[i].series, buf, sizeof(buf)));
		assert_string_equal(buf, cases[i].branch);
	}
	assert_false(fs_version_branch_name("v4.4", buf, sizeof(buf)));
	assert_false(fs_version_branch_name("4.4.15", buf, sizeof(buf)));
	assert_false(fs_version_branch_name("4.5-rc1", buf, sizeof(buf)));
	assert_false(fs_version_branch_name("4", buf, sizeof(buf)));
	assert_false(fs_version_branch_name("", buf, sizeof(buf)));
	assert_false(fs_version_branch_name(NULL, buf, sizeof(buf)));
	assert_false(fs_version_branch_name("4.4", buf, 11));
	assert_string_equal(buf, "");
	assert_true(fs_version_branch_name("4.4", buf, 12));
	assert_string_equal(buf, "linux-4.4.y");
	assert_true(fs_version_branch_name("99999.99999.99999", buf, sizeof(buf)) == false);
	assert_true(fs_version_branch_name("2.6.99999", buf, sizeof(buf)));
	/* a branch name inside text: its length; what follows is the caller's */
	{
		static const struct {
			const char *text;
			size_t n; /* 0: strlen */
			size_t want;
		} scans[] = {
			{ "linux-4.4.y is open", 0, 11 },
			{ "linux-4.4.yz", 0, 11 },
			{ "linux-2.6.32.y.", 0, 14 },
			{ "linux-4.4.y", 10, 0 },
			{ "linux-4.4.y", 11, 11 },
			{ "linux-4.4", 0, 0 },
			{ "linux-4.4.1.y", 0, 0 },
			{ "linux-v4.4.y", 0, 0 },
			{ "linux-", 0, 0 },
			{ "linu", 0, 0 },
			{ "Linux-4.4.y", 0, 0 },
		};
		size_t j;

		for (j = 0; j < N_OF(scans); j++) {
			size_t n = scans[j].n ? scans[j].n : strlen(scans[j].text);
			char *copy = malloc(n);
			size_t got;

			memcpy(copy, scans[j].text, n);
			got = fs_version_branch_scan(copy, n, &v);
			if (got != scans[j].want)
				fail_msg("branch_scan('%s', %zu) = %zu", scans[j].text, n, got);
			assert_int_equal(v.nparts, got ? (strstr(scans[j].text, "2.6") ? 3 : 2) : 0);
			free(copy);
		}
	}
	/* branches sort by their series */
	assert_true(fs_version_branch_parse("linux-4.19.y", &v));
	{
		struct fs_version w;

		assert_true(fs_version_branch_parse("linux-5.4.y", &w));
		assert_true(fs_version_cmp(&v, &w) < 0);
		assert_true(fs_version_branch_parse("linux-5.10.y", &v));
		assert_true(fs_version_cmp(&w, &v) < 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_format_round_trip),
		cmocka_unit_test(test_scan),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_series_and_base),
		cmocka_unit_test(test_cmp),
		cmocka_unit_test(test_name_cmp_total),
		cmocka_unit_test(test_same_cycle),
		cmocka_unit_test(test_branches),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
