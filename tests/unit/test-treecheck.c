/* Unit tests for lib/review/treecheck.c: the names a backport uses that
 * the branch lacks, with the mainline commit that brought each, and the
 * fixes whose files the branch lacks, on a hand-built repository with
 * real trees (git fast-import).  Each patch of the series below is one
 * shape of the principle; each test gives the exact answer. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/index.h"
#include "fixscan/review.h"
#include "fixscan/source.h"
#include "fixscan/treecheck.h"
#include "fixscan/treesyms.h"

#include "repo-builder.h"

static void tag_light(struct repo *r, const char *name, int mark)
{
	g_string_append_printf(r->fi, "reset refs/tags/%s\nfrom :%d\n\n", name, mark);
}

#define H1 "struct widget {\n\tint old_member;\n};\n#define WIDGET_OLD 1\n" \
	   "int widget_old(struct widget *w);\n"
#define H2 H1 "int widget_helper(struct widget *w);\n"
#define H3 "struct widget {\n\tint old_member;\n\tint new_member;\n};\n#define WIDGET_OLD 1\n" \
	   "int widget_old(struct widget *w);\nint widget_helper(struct widget *w);\n"
#define H4 H3 "#define WIDGET_FLAG_NEW 4\n"
#define C1 "#include <linux/widget.h>\nint widget_old(struct widget *w)\n{\n" \
	   "\treturn w->old_member;\n}\n"
#define C2 C1 "int widget_helper(struct widget *w)\n{\n\treturn 2;\n}\n"

/* mainline: M0, M1 = v4.4; H (widget_helper), MEM (new_member), MAC
 * (WIDGET_FLAG_NEW), Q (queue_helper), B (backported_helper), LH
 * (later_helper), SH (series_helper), SQ (squash_helper), NF
 * (drivers/newdrv/) = v4.5; U (uses them: the
 * upstream commit of every patch), U14 (brings u14_helper and uses it);
 * FIX_ABS fixes U in drivers/newdrv/ only, FIX_MIX there and in
 * drivers/widget.c, FIX_PRES in drivers/widget.c, FIX_ADDED in
 * drivers/added/ (which ADD made, and patch 08 adds), FIX_NEW only adds a
 * file; N1, N2, N3 (upstream commits of
 * the review's series).  linux-4.4.y from M1: S1
 * backports B as back_helper_old() (another name) = v4.4.1. */
static struct {
	struct repo *r;
	int m0, m1, h, mem, mac, q, b, lh, sh, sq, nf, u, u14, fix_abs, fix_mix, fix_pres, add;
	int fix_added, fix_new;
	int n1, n2, n3, s1;
} K;

static struct fs_index *IDX;

static void build(void)
{
	struct repo *r = repo_new("kernel");

	K.r = r;
	repo_put(r, "include/linux/widget.h", H1);
	repo_put(r, "drivers/widget.c", C1);
	repo_put(r, "drivers/other.c", "#define OTHER_CONST 5\nint other_fn(void)\n{\n"
				       "\treturn OTHER_CONST;\n}\n");
	K.m0 = commit(r, "master", 0, "Initial import\n");
	repo_put(r, "Makefile", "VERSION = 4\n");
	K.m1 = commit(r, "master", K.m0, "Linux 4.4\n");
	tag_light(r, "v4.4", K.m1);
	repo_put(r, "include/linux/widget.h", H2);
	repo_put(r, "drivers/widget.c", C2);
	K.h = commit(r, "master", K.m1, "widget: add widget_helper()\n");
	repo_put(r, "include/linux/widget.h", H3);
	K.mem = commit(r, "master", K.h, "widget: add new_member\n");
	repo_put(r, "include/linux/widget.h", H4);
	K.mac = commit(r, "master", K.mem, "widget: add WIDGET_FLAG_NEW\n");
	repo_put(r, "drivers/queue.c", "int queue_helper(void)\n{\n\treturn 0;\n}\n");
	K.q = commit(r, "master", K.mac, "queue: add queue_helper()\n");
	repo_put(r, "lib/back.c", "int backported_helper(void)\n{\n\treturn 0;\n}\n");
	K.b = commit(r, "master", K.q, "lib: add backported_helper()\n");
	repo_put(r, "lib/later.c", "int later_helper(void)\n{\n\treturn 0;\n}\n");
	K.lh = commit(r, "master", K.b, "lib: add later_helper()\n");
	repo_put(r, "lib/series.c", "int series_helper(void)\n{\n\treturn 0;\n}\n");
	K.sh = commit(r, "master", K.lh, "lib: add series_helper()\n");
	repo_put(r, "lib/squash.c", "int squash_helper(void)\n{\n\treturn 0;\n}\n");
	K.sq = commit(r, "master", K.sh, "lib: add squash_helper()\n");
	repo_put(r, "drivers/newdrv/newdrv.c", "int newdrv_probe(void)\n{\n\treturn 0;\n}\n");
	K.nf = commit(r, "master", K.sq, "newdrv: a new driver\n");
	tag_light(r, "v4.5", K.nf);
	repo_put(r, "drivers/widget.c", C2 "int widget_user(struct widget *w)\n{\n"
				       "\treturn widget_helper(w) + w->new_member;\n}\n");
	K.u = commit(r, "master", K.nf, "widget: add widget_user()\n");
	repo_put(r, "drivers/u14.c", "int u14_helper(void)\n{\n\treturn 0;\n}\n"
				     "int u14_user(void)\n{\n\treturn u14_helper();\n}\n");
	K.u14 = commit(r, "master", K.u, "u14: add u14_helper() and its user\n");
	repo_put(r, "drivers/newdrv/newdrv.c", "int newdrv_probe(void)\n{\n\treturn 1;\n}\n");
	K.fix_abs = commit(r, "master", K.u14, "newdrv: fix probe\n\nFixes: %.12s (\"widget: add widget_user()\")\n",
			   id(r, K.u));
	repo_put(r, "drivers/newdrv/newdrv.c", "int newdrv_probe(void)\n{\n\treturn 2;\n}\n");
	repo_put(r, "drivers/widget.c", C2 "int widget_user(struct widget *w)\n{\n"
				       "\treturn widget_helper(w);\n}\n");
	K.fix_mix = commit(r, "master", K.fix_abs, "widget: fix user\n\nFixes: %.12s (\"widget: add widget_user()\")\n",
			   id(r, K.u));
	repo_put(r, "drivers/widget.c", C2 "int widget_user(struct widget *w)\n{\n"
				       "\treturn !widget_helper(w);\n}\n");
	K.fix_pres = commit(r, "master", K.fix_mix, "widget: fix user again\n\nFixes: %.12s (\"widget: add widget_user()\")\n",
			    id(r, K.u));
	repo_put(r, "drivers/added/added.c", "int added_fn(void)\n{\n\treturn 0;\n}\n");
	K.add = commit(r, "master", K.fix_pres, "added: a new driver\n");
	repo_put(r, "drivers/added/added.c", "int added_fn(void)\n{\n\treturn 1;\n}\n");
	K.fix_added = commit(r, "master", K.add, "added: fix\n\nFixes: %.12s (\"widget: add widget_user()\")\n",
			     id(r, K.u));
	repo_put(r, "drivers/brandnew.c", "int brandnew;\n");
	K.fix_new = commit(r, "master", K.fix_added, "brandnew: fix with a new file\n\n"
			   "Fixes: %.12s (\"widget: add widget_user()\")\n", id(r, K.u));
	repo_put(r, "drivers/n.c", "int n1;\n");
	K.n1 = commit(r, "master", K.fix_new, "n: one\n");
	repo_put(r, "drivers/n.c", "int n2;\n");
	K.n2 = commit(r, "master", K.n1, "n: two\n");
	repo_put(r, "drivers/n.c", "int n3;\n");
	K.n3 = commit(r, "master", K.n2, "n: three\n");
	repo_put(r, "lib/back.c", "int back_helper_old(void)\n{\n\treturn 0;\n}\n");
	K.s1 = commit(r, "linux-4.4.y", K.m1, "lib: add backported_helper()\n\ncommit %s upstream.\n",
		      id(r, K.b));
	tag_light(r, "v4.4.1", K.s1);
	repo_flush(r);
}

static int group_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;

	if (repo_env_setup("treecheck") < 0)
		return -1;
	build();
	o.repo_path = K.r->dir;
	o.threads = 2;
	if (fs_index_open(&IDX, &o, NULL, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	fs_index_free(IDX);
	repo_free(K.r);
	return repo_env_teardown();
}

static fs_cid cid_of(int mark)
{
	fs_cid c;

	assert_int_equal(fs_index_resolve(IDX, id(K.r, mark), &c, NULL), 0);
	return c;
}

static int mark_of(fs_cid c)
{
	char hex[41];
	int m;

	fs_index_commit_hex(IDX, c, hex);
	for (m = 1; m < K.r->next_mark; m++)
		if (!strcmp(id(K.r, m), hex))
			return m;
	fail_msg("%s is no commit of the test", hex);
	return -1;
}

/* A diff of PATH adding LINES ("\t...\n" each) after one context line. */
static char *adds(const char *path, const char *lines)
{
	int n = 0;
	const char *p;

	for (p = lines; *p; p++)
		n += *p == '\n';
	return g_strdup_printf("diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -3,1 +3,%d @@\n \tcontext();\n%s",
			       path, path, path, path, n + 1, lines);
}

/* The series: one patch per shape (see the tests), in order. */
struct patch {
	int index;
	const char *diff_path;
	const char *added; /* "+..." lines */
	int up;            /* the mark of its upstream commit */
	bool with_sq;      /* and SQ, a second upstream commit (squashed) */
};

static const struct patch SERIES[] = {
	{ 1, "drivers/widget.c", "+\treturn widget_helper(w);\n", 0, false },
	{ 2, "drivers/widget.c", "+\tif (w->new_member & WIDGET_FLAG_NEW)\n+\t\treturn 1;\n", 0, false },
	{ 3, NULL, NULL, -1, false },   /* the backport of Q, its mail without a diff */
	{ 4, "drivers/widget.c", "+\treturn queue_helper();\n", 0, false },
	{ 5, "drivers/widget.c", "+\treturn backported_helper();\n", 0, false },
	{ 6, "drivers/widget.c", "+static int p6_local_helper(int x)\n+{\n+\treturn x;\n+}\n"
				 "+\treturn p6_local_helper(P6_LOCAL);\n+#define P6_LOCAL 3\n", 0, false },
	{ 7, "drivers/widget.c", "+\treturn other_fn() + OTHER_CONST + widget_old(w);\n", 0, false },
	{ 8, "drivers/added/added.c", "+int series_helper(void)\n+{\n+\treturn 1;\n+}\n", 0, false },
	{ 9, "drivers/widget.c", "+\treturn series_helper();\n", 0, false },
	{ 10, "drivers/widget.c", "+\treturn later_helper();\n", 0, false },
	{ 11, "lib/later.c", "+int later_helper(void)\n+{\n+\treturn 0;\n+}\n", -2, false },
	{ 12, "drivers/widget.c", "+\t/* call widget_helper() and ->new_member here */\n"
				  "+\tpr_info(\"WIDGET_FLAG_NEW later_helper()\");\n", 0, false },
	{ 13, "drivers/widget.c", "+\treturn totally_unknown_fn(UNKNOWN_CONST);\n", 0, false },
	{ 14, "drivers/u14.c", "+\treturn u14_helper();\n", -3, false },
	{ 15, "drivers/widget.c", "+\treturn squash_helper();\n", 0, true },
};
#define NSERIES (sizeof(SERIES) / sizeof(SERIES[0]))

/* The trees handle of the last open_series(), for close_series(). */
static struct fs_treesyms *T;

static struct fs_treecheck *open_series(const char *base)
{
	struct fs_treesyms *t = NULL;
	struct fs_treecheck *tc = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t i;

	assert_int_equal(fs_treesyms_open(&t, K.r->dir, &err), 0);
	assert_int_equal(fs_treecheck_open(&tc, t, IDX, "linux-4.4.y", base, &err), 0);
	for (i = 0; i < NSERIES; i++) {
		const struct patch *p = &SERIES[i];
		int up = p->up == -1 ? K.q : p->up == -2 ? K.lh : p->up == -3 ? K.u14 : K.u;
		fs_cid c[2] = { cid_of(up), cid_of(K.sq) };
		char *diff = p->diff_path ? adds(p->diff_path, p->added) : g_strdup("no diff\n");

		if (p->index == 8) { /* a new file */
			g_free(diff);
			diff = g_strdup_printf("diff --git a/%s b/%s\nnew file mode 100644\n"
					       "--- /dev/null\n+++ b/%s\n@@ -0,0 +1,4 @@\n%s",
					       p->diff_path, p->diff_path, p->diff_path, p->added);
		}
		assert_int_equal(fs_treecheck_add_patch(tc, p->index, diff, strlen(diff), c,
							p->with_sq ? 2 : 1, &err), 0);
		g_free(diff);
	}
	T = t;
	return tc;
}

/* "name@commit-mark[/queued]": the missing prerequisites of the K-th
 * patch, in order. */
static char *missing(struct fs_treecheck *tc, size_t k)
{
	struct fs_treecheck_missing *m;
	struct fs_error err = FS_ERROR_INIT;
	GString *g = g_string_new(NULL);
	size_t n, i, j;

	assert_int_equal(fs_treecheck_missing(tc, k, &m, &n, &err), 0);
	for (i = 0; i < n; i++) {
		for (j = 0; j < m[i].nnames; j++)
			g_string_append_printf(g, "%s%s", j ? "," : (i ? " " : ""), m[i].names[j].name);
		if (m[i].commit == FS_CID_NONE)
			g_string_append(g, "@none");
		else
			g_string_append_printf(g, "@%d", mark_of(m[i].commit));
		if (m[i].queued >= 0)
			g_string_append_printf(g, "/%d", m[i].queued);
	}
	fs_treecheck_missing_free(m, n);
	return g_string_free(g, FALSE);
}

#define EXPECT_MISSING(tc, nn, want)                                             \
	do {                                                                     \
		char *got_ = missing(tc, (nn) - 1);                              \
		if (strcmp(got_, want))                                          \
			fail_msg("patch %d: got \"%s\", want \"%s\"", nn, got_, want); \
		g_free(got_);                                                    \
	} while (0)

static void test_missing(void **state)
{
	struct fs_treecheck *tc = open_series("v4.4.1");
	char h[16], mem[16], mac[16], lh[16];

	snprintf(h, sizeof(h), "widget_helper@%d", K.h);
	snprintf(mem, sizeof(mem), "@%d", K.mem);
	snprintf(mac, sizeof(mac), "@%d", K.mac);
	snprintf(lh, sizeof(lh), "@%d/11", K.lh);
	/* a helper an earlier mainline commit added */
	EXPECT_MISSING(tc, 1, h);
	/* a struct member and a macro: two prerequisites */
	{
		char *want = g_strdup_printf("new_member%s WIDGET_FLAG_NEW%s", mem, mac);

		EXPECT_MISSING(tc, 2, want);
		g_free(want);
	}
	EXPECT_MISSING(tc, 3, "");
	/* its prerequisite is queued earlier in the series (03) */
	EXPECT_MISSING(tc, 4, "");
	/* its prerequisite was backported (under another name) */
	EXPECT_MISSING(tc, 5, "");
	/* the patch defines what it uses */
	EXPECT_MISSING(tc, 6, "");
	/* the branch has them elsewhere */
	EXPECT_MISSING(tc, 7, "");
	EXPECT_MISSING(tc, 8, "");
	/* an earlier patch of the series adds it (not as a backport of SH) */
	EXPECT_MISSING(tc, 9, "");
	/* a later patch queues its prerequisite: still missing here */
	{
		char *want = g_strdup_printf("later_helper%s", lh);

		EXPECT_MISSING(tc, 10, want);
		g_free(want);
	}
	EXPECT_MISSING(tc, 11, "");
	/* words in comments and strings */
	EXPECT_MISSING(tc, 12, "");
	/* nothing mainline defines */
	EXPECT_MISSING(tc, 13, "");
	/* the upstream commit brought it itself */
	EXPECT_MISSING(tc, 14, "");
	/* a squashed backport of its prerequisite (SQ) too */
	EXPECT_MISSING(tc, 15, "");
	fs_treecheck_free(tc);
	fs_treesyms_free(T);
}

/* "path path" of the files FIX changes when the branch lacks them all,
 * "" when it has one. */
static char *fix_files(struct fs_treecheck *tc, int fix)
{
	struct fs_error err = FS_ERROR_INIT;
	char **files, *s;
	size_t n;
	int rc = fs_treecheck_fix_files(tc, cid_of(fix), &files, &n, &err);

	assert_true(rc == 0 || rc == 1);
	if (rc == 0) {
		assert_null(files);
		return g_strdup("");
	}
	assert_int_equal(g_strv_length(files), n);
	s = g_strjoinv(" ", files);
	g_strfreev(files);
	return s;
}

static void test_fix_files(void **state)
{
	struct fs_treecheck *tc = open_series(NULL);
	char *s;

	/* only files the branch lacks */
	s = fix_files(tc, K.fix_abs);
	assert_string_equal(s, "drivers/newdrv/newdrv.c");
	g_free(s);
	/* one it lacks, one it has */
	s = fix_files(tc, K.fix_mix);
	assert_string_equal(s, "");
	g_free(s);
	/* one it has */
	s = fix_files(tc, K.fix_pres);
	assert_string_equal(s, "");
	g_free(s);
	/* one a patch of the series adds */
	s = fix_files(tc, K.fix_added);
	assert_string_equal(s, "");
	g_free(s);
	/* none but one it adds itself: it applies anywhere */
	s = fix_files(tc, K.fix_new);
	assert_string_equal(s, "");
	g_free(s);
	fs_treecheck_free(tc);
	fs_treesyms_free(T);
}

/* ---- the findings of a review --------------------------------------------------- */

/* One patch of a stable-queue directory: its upstream commit and diff. */
static void queue_patch(const char *dir, int nn, int up, const char *title, const char *diff)
{
	char *path = g_strdup_printf("%s/%02d.patch", dir, nn);
	char *text = g_strdup_printf("From: Ann Author <ann@example.org>\nSubject: [PATCH] %s\n\n"
				     "commit %s upstream.\n\nA backport.\n\n"
				     "Signed-off-by: Ann Author <ann@example.org>\n---\n%s",
				     title, id(K.r, up), diff);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(text);
	g_free(path);
}

/* "NN kind mark[/NN]" of every finding of R, sorted, one per line. */
static char *findings_of(const struct fs_review *r)
{
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	char *out;
	size_t i, k;

	for (i = 0; i < r->npatches; i++)
		for (k = 0; k < r->patches[i].findings.n; k++) {
			const struct fs_finding *f = &r->patches[i].findings.v[k];
			fs_cid c;
			int m = 0;

			if (f->commit[0] && fs_index_resolve(IDX, f->commit, &c, NULL) == 0)
				m = mark_of(c);
			if (f->series_index >= 0)
				g_ptr_array_add(v, g_strdup_printf("%02d %s %d/%d", r->patches[i].index,
								   fs_finding_kind_name(f->kind), m,
								   f->series_index));
			else
				g_ptr_array_add(v, g_strdup_printf("%02d %s %d", r->patches[i].index,
								   fs_finding_kind_name(f->kind), m));
		}
	g_ptr_array_add(v, NULL);
	out = g_strjoinv("\n", (char **)v->pdata);
	g_ptr_array_free(v, TRUE);
	return out;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* TEXT's lines sorted (TEXT freed). */
static char *sorted(char *text)
{
	char **lines = g_strsplit(text, "\n", 0), *out;

	qsort(lines, g_strv_length(lines), sizeof(*lines), cmp_str);
	out = g_strjoinv("\n", lines);
	g_strfreev(lines);
	g_free(text);
	return out;
}

/* The findings of the series in queue directory DIR, reviewed on
 * linux-4.4.y as of v4.4.1, with the branch's tree read (WITH_TREES) or
 * not: "NN kind commit-mark[/queued NN]" per line, sorted. */
static char *review_queue(const char *dir, bool with_trees)
{
	struct fs_source src = FS_SOURCE_INIT;
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_treesyms *t = NULL;
	struct fs_review *r = NULL;
	char *got;
	size_t n = 0;

	src.kind = FS_SOURCE_QUEUE;
	src.what = dir;
	assert_int_equal(fs_source_load(&threads, &n, &src, NULL, &err), 0);
	assert_int_equal(n, 1);
	if (with_trees)
		assert_int_equal(fs_treesyms_open(&t, K.r->dir, &err), 0);
	o.base = "v4.4.1";
	o.treesyms = t;
	if (fs_review_run(&r, fs_thread_get(threads[0], 0), IDX, NULL, &o, &err) < 0)
		fail_msg("fs_review_run: %s", err.message);
	got = sorted(findings_of(r));
	fs_review_free(r);
	fs_source_free(threads, n);
	fs_treesyms_free(t);
	return got;
}

/* A series of six on linux-4.4.y: 01 calls widget_helper() (H, missing);
 * 02 backports Q (no diff in its mail: diff-absent, with or without the
 * trees); 03 calls queue_helper() (queued
 * in 02: nothing); 04 calls later_helper(), whose commit LH 05 queues
 * after it; 05 backports LH; 06 backports U, adds drivers/added/ and
 * uses what the branch has (WIDGET_OLD): U's fixes are FIX_ABS (only
 * drivers/newdrv/, which the branch lacks: fix-not-applicable), FIX_MIX
 * and FIX_PRES (files the branch has), FIX_ADDED (a file 06 adds) and
 * FIX_NEW (a file it adds): fix-missing.  Exactly these findings, and without the trees the same
 * but fix-missing for FIX_ABS and no symbol-missing. */
static void test_review(void **state)
{
	char *dir = g_strdup_printf("%s/queue-4.4", tmp_root), *got, *want;
	char *d1 = adds("drivers/widget.c", "+\treturn widget_helper(w);\n");
	char *d3 = adds("drivers/widget.c", "+\treturn queue_helper();\n");
	char *d4 = adds("drivers/widget.c", "+\treturn later_helper();\n");
	char *d5 = adds("lib/later.c", "+int later_helper(void)\n+{\n+\treturn 0;\n+}\n");
	char *d6 = g_strdup_printf("diff --git a/drivers/added/added.c b/drivers/added/added.c\n"
				   "new file mode 100644\n--- /dev/null\n+++ b/drivers/added/added.c\n"
				   "@@ -0,0 +1,4 @@\n+int added_fn(void)\n+{\n+\treturn WIDGET_OLD;\n+}\n");

	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	queue_patch(dir, 1, K.n1, "widget: call the helper", d1);
	queue_patch(dir, 2, K.q, "queue: add queue_helper()", " drivers/queue.c | 4 ++++\n");
	queue_patch(dir, 3, K.n2, "widget: call the queue helper", d3);
	queue_patch(dir, 4, K.n3, "widget: call the later helper", d4);
	queue_patch(dir, 5, K.lh, "lib: add later_helper()", d5);
	queue_patch(dir, 6, K.u, "widget: add widget_user()", d6);
	run("printf '01.patch\n02.patch\n03.patch\n04.patch\n05.patch\n06.patch\n' >'%s/series'", dir);
	got = review_queue(dir, true);
	want = sorted(g_strdup_printf("01 symbol-missing %d\n02 diff-absent 0\n04 symbol-missing %d/5\n"
				      "06 fix-missing %d\n06 fix-missing %d\n06 fix-missing %d\n"
				      "06 fix-missing %d\n06 fix-not-applicable %d",
				      K.h, K.lh, K.fix_added, K.fix_mix, K.fix_pres, K.fix_new,
				      K.fix_abs));
	if (strcmp(got, want))
		fail_msg("got:\n%s\nwant:\n%s", got, want);
	g_free(got);
	g_free(want);
	got = review_queue(dir, false);
	want = sorted(g_strdup_printf("02 diff-absent 0\n06 fix-missing %d\n06 fix-missing %d\n"
				      "06 fix-missing %d\n06 fix-missing %d\n06 fix-missing %d",
				      K.fix_abs, K.fix_added, K.fix_mix, K.fix_pres, K.fix_new));
	if (strcmp(got, want))
		fail_msg("without the trees, got:\n%s\nwant:\n%s", got, want);
	g_free(got);
	g_free(want);
	g_free(d1);
	g_free(d3);
	g_free(d4);
	g_free(d5);
	g_free(d6);
	g_free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_fix_files),
		cmocka_unit_test(test_review),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
