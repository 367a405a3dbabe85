/* Unit tests for the pending commits of the fixes index (fixscan.pending):
 * real repositories made with git fast-import, real refs under
 * refs/remotes/, indexed and updated through the public API.
 *
 * Each test asserts the exact pending fixes of a commit ("hex@ref" in id
 * order, "!" before a revert) and that no other commit has any.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "fixscan/config.h"
#include "fixscan/index.h"

#include "repo-builder.h"

static int setup(void **state)
{
	*state = NULL;
	return repo_env_setup("pendidx");
}

static int teardown(void **state)
{
	return repo_env_teardown();
}

/* Open the index of R with pending globs GLOBS (NULL-terminated). */
static struct fs_index *open_pending(struct repo *r, const char *const *globs,
				     struct fs_index_stats *st)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;

	repo_flush(r);
	o.repo_path = r->dir;
	o.threads = 2;
	o.pending_globs = globs;
	while (globs && globs[o.npending_globs])
		o.npending_globs++;
	if (st)
		memset(st, 0, sizeof(*st));
	if (fs_index_open(&idx, &o, st, &err) < 0)
		fail_msg("fs_index_open: %s", err.message);
	return idx;
}

static void set_ref(struct repo *r, const char *ref, int mark)
{
	run("git -C '%s' update-ref '%s' %s", r->dir, ref, id(r, mark));
}

/* The pending fixes of the commit of MARK: "hex12@ref" (ref without
 * refs/remotes/), "!" before a revert, in id order. */
static char *pending_of(const struct fs_index *idx, struct repo *r, int mark)
{
	struct fs_index_pending v[16];
	fs_cid c;
	GString *s = g_string_new(NULL);
	size_t n, i;

	assert_int_equal(fs_index_resolve(idx, id(r, mark), &c, NULL), 0);
	n = fs_index_pending_fixes(idx, c, v, 16);
	for (i = 0; i < n && i < 16; i++)
		g_string_append_printf(s, "%s%s%.12s@%s", s->len ? " " : "", v[i].revert ? "!" : "",
				       v[i].hex, v[i].ref + strlen("refs/remotes/"));
	return g_string_free(s, FALSE);
}

static void assert_pending(const struct fs_index *idx, struct repo *r, int mark, const char *want)
{
	char *got = pending_of(idx, r, mark);

	assert_string_equal(got, want);
	g_free(got);
}

/* "hex12@next/master" of MARK. */
static char *at(struct repo *r, int mark, const char *ref)
{
	return g_strdup_printf("%.12s@%s", id(r, mark), ref);
}

/* Whether the main table has MARK (as any commit). */
static bool indexed(const struct fs_index *idx, struct repo *r, int mark)
{
	fs_cid c;

	return fs_index_resolve(idx, id(r, mark), &c, NULL) == 0;
}

/* A mainline B - U - V - W (master), and the refs around it. */
struct hist {
	struct repo *r;
	int b, u, v, w;
};

static void mainline(struct hist *h, const char *name)
{
	h->r = repo_new(name);
	h->b = commit(h->r, "master", 0, "base");
	h->u = commit(h->r, "master", h->b, "foo: add the widget");
	h->v = commit(h->r, "master", h->u, "bar: speed up the frobnicator");
	h->w = commit(h->r, "master", h->v, "baz: unrelated");
}

/* A fix and a revert on next/master, a second fix on next/other (which
 * also has next/master's commits), a fix on a ref no glob names: the
 * glob finds both next refs, each commit under the first ref (by name)
 * that has it, and nothing else; pending commits are no commits of the
 * main table and no fixes for fs_index_fixes_of(). */
static void test_fix_and_revert_on_pending_refs(void **state)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct hist h;
	struct fs_index *idx;
	struct fs_index_stats st;
	struct fs_index_fix *fixes = NULL;
	int f1, r1, f2, f3, nfix;
	char *want, *a, *b;
	fs_cid u;

	mainline(&h, "refs-kernel");
	f1 = commit(h.r, "nextwork", h.w, "foo: fix the widget\n\nFixes: %.12s (\"foo: add the widget\")",
		    id(h.r, h.u));
	r1 = commit(h.r, "nextwork", f1, "Revert \"bar: speed up the frobnicator\"\n\n"
		    "This reverts commit %s.", id(h.r, h.v));
	f2 = commit(h.r, "otherwork", r1, "foo: widget: check the length\n\nFixes: %.8s",
		    id(h.r, h.u));
	f3 = commit(h.r, "elsewhere", h.w, "foo: widget: not pending\n\nFixes: %.12s",
		    id(h.r, h.u));
	set_ref(h.r, "refs/remotes/next/master", r1);
	set_ref(h.r, "refs/remotes/next/other", f2);
	set_ref(h.r, "refs/remotes/elsewhere/master", f3);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 3);
	assert_int_equal(st.pending_read, 3);
	assert_int_equal(fs_index_pending_count(idx), 3);
	a = at(h.r, f1, "next/master");
	b = at(h.r, f2, "next/other");
	want = strcmp(id(h.r, f1), id(h.r, f2)) < 0 ? g_strdup_printf("%s %s", a, b) :
						      g_strdup_printf("%s %s", b, a);
	assert_pending(idx, h.r, h.u, want);
	g_free(want);
	g_free(a);
	g_free(b);
	a = at(h.r, r1, "next/master");
	want = g_strdup_printf("!%s", a);
	assert_pending(idx, h.r, h.v, want);
	g_free(want);
	g_free(a);
	assert_pending(idx, h.r, h.b, "");
	assert_pending(idx, h.r, h.w, "");
	/* apart from the main table */
	assert_false(indexed(idx, h.r, f1));
	assert_false(indexed(idx, h.r, f2));
	assert_false(indexed(idx, h.r, r1));
	assert_int_equal(fs_index_resolve(idx, id(h.r, h.u), &u, NULL), 0);
	nfix = fs_index_fixes_of(idx, u, &fixes);
	assert_int_equal(nfix, 0);
	g_free(fixes);
	fs_index_free(idx);

	/* No pending glob: no pending commits. */
	idx = open_pending(h.r, NULL, &st);
	assert_int_equal(fs_index_pending_count(idx), 0);
	assert_pending(idx, h.r, h.u, "");
	fs_index_free(idx);
	repo_free(h.r);
	(void)state;
}

/* A glob that names no ref: nothing pending, and the cache stays what it
 * was without one. */
static void test_glob_matching_nothing(void **state)
{
	static const char *const globs[] = { "refs/remotes/nothere/*", NULL };
	struct hist h;
	struct fs_index *idx;
	struct fs_index_stats st;
	int f1;

	mainline(&h, "nomatch-kernel");
	f1 = commit(h.r, "nextwork", h.w, "foo: fix the widget\n\nFixes: %.12s", id(h.r, h.u));
	set_ref(h.r, "refs/remotes/next/master", f1);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 0);
	assert_int_equal(fs_index_pending_count(idx), 0);
	assert_pending(idx, h.r, h.u, "");
	fs_index_free(idx);
	repo_free(h.r);
	(void)state;
}

/* A pending fix that reaches mainline is no pending fix: mainline
 * fast-forwarded over it (the same commit), or mainline took it again
 * under its subject (rebased, cherry-picked) while next still has it. */
static void test_pending_fix_in_mainline(void **state)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct hist h;
	struct fs_index *idx;
	struct fs_index_stats st;
	struct fs_index_fix *fixes = NULL;
	int f1, f2, picked, nfix;
	char *want;
	fs_cid u;

	mainline(&h, "merged-kernel");
	f1 = commit(h.r, "nextwork", h.w, "foo: fix the widget\n\nFixes: %.12s", id(h.r, h.u));
	f2 = commit(h.r, "nextwork", f1, "foo: widget: check the length\n\nFixes: %.12s",
		    id(h.r, h.u));
	set_ref(h.r, "refs/remotes/next/master", f2);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 2);
	fs_index_free(idx);

	/* mainline takes f1 itself, and f2 as another commit of its subject */
	picked = commit(h.r, "master", f1, "foo: widget: check the length\n\nFixes: %.12s\n\n"
			"(cherry picked, another id)", id(h.r, h.u));
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 1);     /* f2; f1 is mainline now */
	assert_int_equal(st.pending_read, 0);
	assert_pending(idx, h.r, h.u, "");
	assert_true(indexed(idx, h.r, f1));
	assert_false(indexed(idx, h.r, f2));
	assert_int_equal(fs_index_resolve(idx, id(h.r, h.u), &u, NULL), 0);
	nfix = fs_index_fixes_of(idx, u, &fixes);
	assert_int_equal(nfix, 2);
	g_free(fixes);
	(void)picked;
	fs_index_free(idx);

	/* A new pending fix after all that is one again. */
	f2 = commit(h.r, "nextwork", f2, "foo: widget: one more\n\nFixes: %.12s", id(h.r, h.u));
	set_ref(h.r, "refs/remotes/next/master", f2);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending_read, 1);
	want = at(h.r, f2, "next/master");
	assert_pending(idx, h.r, h.u, want);
	g_free(want);
	fs_index_free(idx);
	repo_free(h.r);
	(void)state;
}

/* linux-next rebuilt: next/master now leads to other commits, the old
 * fix among none of them: no finding, and the old commits are gone from
 * the index; the subsystem tree it merges again keeps its ids and is not
 * read again.  A pending ref removed takes its commits with it. */
static void test_rebased_and_removed(void **state)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct hist h;
	struct fs_index *idx;
	struct fs_index_stats st;
	int sub1, sub2, f1, m1, m2, fx, merge2[3];
	char *want;

	mainline(&h, "rebased-kernel");
	/* a subsystem tree with a fix of V, merged into next with a fix of U */
	sub1 = commit(h.r, "subsys", h.w, "bar: fix the speed-up\n\nFixes: %.12s", id(h.r, h.v));
	sub2 = commit(h.r, "subsys", sub1, "bar: tidy");
	f1 = commit(h.r, "nextwork", h.w, "foo: fix the widget\n\nFixes: %.12s", id(h.r, h.u));
	{
		int parents[3] = { f1, sub2, 0 };
		m1 = commit_m(h.r, "nextwork", parents, "Merge branch 'subsys'");
	}
	set_ref(h.r, "refs/remotes/next/master", m1);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 4);
	assert_int_equal(st.pending_read, 4);
	want = at(h.r, f1, "next/master");
	assert_pending(idx, h.r, h.u, want);
	g_free(want);
	fs_index_free(idx);

	/* next of the next day: built again from mainline, without f1, the
	 * subsystem tree merged again, a new fix of V */
	fx = commit(h.r, "nextwork2", h.w, "bar: another speed-up fix\n\nFixes: %.12s",
		    id(h.r, h.v));
	merge2[0] = fx;
	merge2[1] = sub2;
	merge2[2] = 0;
	m2 = commit_m(h.r, "nextwork2", merge2, "Merge branch 'subsys'");
	set_ref(h.r, "refs/remotes/next/master", m2);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 4);      /* fx, m2, sub1, sub2 */
	assert_int_equal(st.pending_read, 2); /* fx, m2: the subsystem's are kept */
	assert_pending(idx, h.r, h.u, "");
	{
		char *a = at(h.r, fx, "next/master"), *b = at(h.r, sub1, "next/master");
		want = strcmp(id(h.r, fx), id(h.r, sub1)) < 0 ? g_strdup_printf("%s %s", a, b) :
								g_strdup_printf("%s %s", b, a);
		g_free(a);
		g_free(b);
	}
	assert_pending(idx, h.r, h.v, want);
	g_free(want);
	fs_index_free(idx);

	/* next/master removed: nothing pending. */
	run("git -C '%s' update-ref -d refs/remotes/next/master", h.r->dir);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 0);
	assert_pending(idx, h.r, h.u, "");
	assert_pending(idx, h.r, h.v, "");
	fs_index_free(idx);
	repo_free(h.r);
	(void)state;
}

/* An update walks only what is new: a pending ref moved forward by two
 * commits reads two; mainline moving alone reads none; nothing moving
 * writes nothing. */
static void test_incremental(void **state)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct hist h;
	struct fs_index *idx;
	struct fs_index_stats st;
	int tip, i, f;
	char *a, *b, *want;

	mainline(&h, "incr-kernel");
	tip = h.w;
	for (i = 0; i < 20; i++)
		tip = commit(h.r, "nextwork", tip, "qux: step %d", i);
	set_ref(h.r, "refs/remotes/next/master", tip);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 20);
	assert_int_equal(st.pending_read, 20);
	fs_index_free(idx);

	tip = commit(h.r, "nextwork", tip, "qux: one more");
	f = tip = commit(h.r, "nextwork", tip, "foo: fix the widget\n\nFixes: %.12s", id(h.r, h.u));
	set_ref(h.r, "refs/remotes/next/master", tip);
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.pending, 22);
	assert_int_equal(st.pending_read, 2);
	want = at(h.r, f, "next/master");
	assert_pending(idx, h.r, h.u, want);
	g_free(want);
	fs_index_free(idx);

	/* mainline moves, the pending ref does not */
	commit(h.r, "master", h.w, "baz: mainline goes on");
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.new_commits, 1);
	assert_int_equal(st.pending, 22);
	assert_int_equal(st.pending_read, 0);
	fs_index_free(idx);

	/* nothing moves: nothing read */
	idx = open_pending(h.r, globs, &st);
	assert_int_equal(st.new_commits, 0);
	assert_int_equal(st.pending_read, 0);
	a = at(h.r, f, "next/master");
	assert_pending(idx, h.r, h.u, a);
	g_free(a);
	fs_index_free(idx);

	/* a second glob: the same commits under the first ref by name */
	{
		static const char *const two[] = { "refs/remotes/next/*", "refs/remotes/fixes/*", NULL };
		set_ref(h.r, "refs/remotes/fixes/for-linus", f);
		idx = open_pending(h.r, two, &st);
		assert_int_equal(st.pending, 22);
		assert_int_equal(st.pending_read, 0);
		b = at(h.r, f, "fixes/for-linus");
		assert_pending(idx, h.r, h.u, b);
		g_free(b);
		fs_index_free(idx);
	}
	repo_free(h.r);
	(void)state;
}

/* A Fixes: id naming a stable backport of U is a fix of U; a merge's
 * message names nothing; an id of 6 digits names nothing. */
static void test_stable_id_merge_and_short(void **state)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct hist h;
	struct fs_index *idx;
	int s1, f1, f2, m;
	char *want;

	mainline(&h, "stableid-kernel");
	s1 = commit(h.r, "linux-4.4.y", h.b, "foo: add the widget\n\ncommit %s upstream.",
		    id(h.r, h.u));
	f1 = commit(h.r, "nextwork", h.w, "foo: fix via the stable id\n\nFixes: %.12s",
		    id(h.r, s1));
	f2 = commit(h.r, "nextwork", f1, "foo: too short\n\nFixes: %.6s", id(h.r, h.u));
	{
		int parents[3] = { f2, h.v, 0 };
		m = commit_m(h.r, "nextwork", parents, "Merge\n\nFixes: %.12s", id(h.r, h.u));
	}
	set_ref(h.r, "refs/remotes/next/master", m);
	idx = open_pending(h.r, globs, NULL);
	want = at(h.r, f1, "next/master");
	assert_pending(idx, h.r, h.u, want);
	g_free(want);
	fs_index_free(idx);
	repo_free(h.r);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_fix_and_revert_on_pending_refs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_glob_matching_nothing, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pending_fix_in_mainline, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rebased_and_removed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incremental, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stable_id_merge_and_short, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
