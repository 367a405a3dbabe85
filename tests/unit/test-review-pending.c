/* Unit tests for fix-pending through the review (lib/review/pending.c,
 * lib/review/review.c): fixes posted to the lists, or in a pending tree
 * such as linux-next, but not in mainline yet, found from the store and
 * from pending refs, each once. */
#include "review-store.h"

/* ---- fixes posted but not in mainline yet ------------------------------ */

/* A repository whose mainline has U "can: fix the widget", its fix F
 * "can: widget: fix the fix" (Fixes: U) and its fix G "can: widget: take
 * the lock" (Fixes: U, a real diff, saved in TMPDIR/pending-diff), with
 * linux-4.4.y forked before all three.  Their ids in U, F and G. */
static struct fs_index *pending_index_refs(char u[41], char f[41], char g[41], bool next);

static struct fs_index *pending_index(char u[41], char f[41], char g[41])
{
	return pending_index_refs(u, f, g, false);
}

/* The same with, when NEXT, a pending ref refs/remotes/next/master on top
 * of mainline (the glob refs/remotes/next/[*]) with four commits naming U:
 * the commit of the posted fix fix.42 (its title), another fix, a copy of
 * F (mainline has its subject), and the commit of the posted revert
 * revert.50.  Their ids in TMPDIR/next-ids. */
static struct fs_index *pending_index_refs(char u[41], char f[41], char g[41], bool next)
{
	static const char *const globs[] = { "refs/remotes/next/*", NULL };
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_index *idx = NULL;
	char repo[512], path[512], line[128];
	FILE *fp;

	snprintf(repo, sizeof(repo), "%s/kernel-pending%s", tmpdir, next ? "-next" : "");
	/* Fixed dates: both repositories have the same U, F and G, which
	 * the mails of write_pending_samples() name. */
	sh("export GIT_AUTHOR_DATE='2023-11-01T10:00:00Z' GIT_COMMITTER_DATE='2023-11-01T10:00:00Z' && "
	   "git init -q -b master %s && cd %s && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty -m base && "
	   "git branch linux-4.4.y && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty "
	   "-m 'can: fix the widget' && git rev-parse HEAD > %s/pending-ids && "
	   "git -c user.name=T -c user.email=t@example.org commit -q --allow-empty "
	   "-m 'can: widget: fix the fix' -m \"Fixes: $(git rev-parse --short=12 HEAD) "
	   "(\\\"can: fix the widget\\\")\" && git rev-parse HEAD >> %s/pending-ids && "
	   "echo lock > widget.c && git add widget.c && "
	   "git -c user.name=T -c user.email=t@example.org commit -q "
	   "-m 'can: widget: take the lock' -m \"Fixes: $(git rev-parse --short=12 HEAD~1)\" && "
	   "git rev-parse HEAD >> %s/pending-ids && git show --format= HEAD > %s/pending-diff",
	   repo, repo, tmpdir, tmpdir, tmpdir, tmpdir);
	snprintf(path, sizeof(path), "%s/pending-ids", tmpdir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	assert_non_null(fgets(line, sizeof(line), fp));
	memcpy(u, line, 40);
	u[40] = '\0';
	assert_non_null(fgets(line, sizeof(line), fp));
	memcpy(f, line, 40);
	f[40] = '\0';
	assert_non_null(fgets(line, sizeof(line), fp));
	memcpy(g, line, 40);
	g[40] = '\0';
	fclose(fp);
	if (next)
		sh("cd %s && export GIT_AUTHOR_DATE='2023-11-02T10:00:00Z' "
		   "GIT_COMMITTER_DATE='2023-11-02T10:00:00Z' && "
		   "G='git -c user.name=T -c user.email=t@example.org' && "
		   "$G checkout -q -b nextwork && "
		   "$G commit -q --allow-empty -m 'net: frobnicator: do not leak the queue' "
		   "-m \"Fixes: %.12s\" && git rev-parse HEAD > %s/next-ids && "
		   "$G commit -q --allow-empty -m 'can: widget: reset on stop' -m \"Fixes: %.12s\" && "
		   "git rev-parse HEAD >> %s/next-ids && "
		   "$G commit -q --allow-empty -m 'can: widget: fix the fix' -m \"Fixes: %.12s\" && "
		   "$G commit -q --allow-empty -m 'Revert \"can: fix the widget\"' "
		   "-m 'This reverts commit %s.' && git rev-parse HEAD >> %s/next-ids && "
		   "git update-ref refs/remotes/next/master HEAD && $G checkout -q master",
		   repo, u, tmpdir, u, tmpdir, u, u, tmpdir);
	snprintf(path, sizeof(path), "%s/index-cache-pending%s", tmpdir, next ? "-next" : "");
	o.repo_path = repo;
	o.cache_path = path;
	o.threads = 1;
	if (next) {
		o.pending_globs = globs;
		o.npending_globs = 1;
	}
	if (fs_index_open(&idx, &o, NULL, &err) < 0)
		fail_msg("fs_index_open: %s", err.message);
	return idx;
}

#define PENDING_HDR(from, subject, id, day) \
	"From: " from "\nTo: netdev@example.org\nSubject: " subject "\n" \
	"Date: " day " Nov 2023 10:00:00 +0000\nMessage-Id: <" id "@example.org>\n"

/* A stable series backporting U, and around it every shape of a posted
 * fix of U: three pending (a Fixes: of 12 hex, one of 8 hex in a series
 * of v2, a revert of U) and seven that are not (a quoted Fixes:, a
 * reply quoting one, the user's own patch, a patch of a stable review
 * thread, the patch of F that mainline has by its title, the patch of G
 * that mainline has by its diff under another title, a Fixes: of 7
 * hex). */
static void write_pending_samples(const char *u)
{
	char path[512], *diff = NULL;

	snprintf(path, sizeof(path), "%s/pending-diff", tmpdir);
	assert_true(g_file_get_contents(path, &diff, NULL, NULL));
	make_maildir("lists");
	make_maildir("sent");
	write_mail("stable/cur/40.host:2,S",
		   PENDING_HDR("Greg <greg@example.org>", "[PATCH 4.4 0/1] 4.4.12-stable review",
			       "cover.40", "Mon, 20") "\nOne fix.\n");
	write_mail("stable/cur/41.host:2,S",
		   PENDING_HDR("Greg <greg@example.org>", "[PATCH 4.4 1/1] can: fix the widget",
			       "p.41", "Mon, 20")
		   "In-Reply-To: <cover.40@example.org>\nReferences: <cover.40@example.org>\n\n"
		   "commit %s upstream.\n---\n can/widget.c | 1 +\n 1 file changed, 1 insertion(+)\n\n"
		   "diff --git a/can/widget.c b/can/widget.c\n--- a/can/widget.c\n+++ b/can/widget.c\n"
		   "@@ -1 +1,2 @@\n a\n+b\n", u);
	write_mail("lists/cur/42.host:2,S",
		   PENDING_HDR("Bo <bo@example.org>", "[PATCH net] net: frobnicator: do not leak the queue",
			       "fix.42", "Tue, 14")
		   "\nThe queue leaks when the frobnicator stops.\n\n"
		   "Fixes: %.12s (\"can: fix the widget\")\nSigned-off-by: Bo <bo@example.org>\n"
		   "---\n net/frob.c | 1 +\n", u);
	write_mail("lists/cur/43.host:2,S",
		   PENDING_HDR("Al <al@example.org>", "[PATCH net 0/2] frobnicator clean-ups",
			       "cover.43", "Tue, 14")
		   "\nAs Bo wrote last week:\n\n> Fixes: %.12s (\"can: fix the widget\")\n\n"
		   "but these two are only clean-ups.\n", u);
	write_mail("lists/cur/44.host:2,S",
		   PENDING_HDR("Al <al@example.org>", "Re: [PATCH net] net: frobnicator: do not leak the queue",
			       "reply.44", "Wed, 15")
		   "In-Reply-To: <fix.42@example.org>\n\n> Fixes: %.12s (\"can: fix the widget\")\n\n"
		   "Looks right to me.\n", u);
	write_mail("sent/cur/45.host:2,S",
		   PENDING_HDR("Rita <rita@example.org>", "[PATCH] net: frobnicator: my own fix",
			       "own.45", "Wed, 15")
		   "\nFixes: %.12s (\"can: fix the widget\")\n", u);
	write_mail("lists/cur/46.host:2,S",
		   PENDING_HDR("Greg <greg@example.org>", "[PATCH 5.10 3/9] net: frobnicator: stable copy",
			       "stable.46", "Wed, 15")
		   "\ncommit 0123456789abcdef0123456789abcdef01234567 upstream.\n\n"
		   "Fixes: %.12s (\"can: fix the widget\")\n", u);
	write_mail("lists/cur/47.host:2,S",
		   PENDING_HDR("Bo <bo@example.org>", "[PATCH] can: widget: fix the fix",
			       "landed.47", "Thu, 16")
		   "\nFixes: %.12s (\"can: fix the widget\")\n", u);
	write_mail("lists/cur/48.host:2,S",
		   PENDING_HDR("Cy <cy@example.org>", "[PATCH v2 2/3] net: frobnicator: check the length",
			       "fix.48", "Thu, 16")
		   "\nFixes: %.8s (\"can: fix the widget\")\n", u);
	write_mail("lists/cur/49.host:2,S",
		   PENDING_HDR("Cy <cy@example.org>", "[PATCH] net: frobnicator: short id",
			       "short.49", "Fri, 17")
		   "\nFixes: %.7s (\"can: fix the widget\")\n", u);
	write_mail("lists/cur/51.host:2,S",
		   PENDING_HDR("Cy <cy@example.org>", "[PATCH v3] can: widget: hold the lock while stopping",
			       "landed.51", "Fri, 17")
		   "\nFixes: %.12s (\"can: fix the widget\")\n---\n%s", u, diff);
	write_mail("lists/cur/50.host:2,S",
		   PENDING_HDR("Di <di@example.org>", "[PATCH net] Revert \"can: fix the widget\"",
			       "revert.50", "Fri, 17")
		   "\nThis reverts commit %s.\n\nIt breaks the frobnicator on big-endian machines.\n", u);
	g_free(diff);
	sh("notmuch new --quiet >/dev/null 2>&1");
}

/* The findings of the one patch of the series at cover.40, reviewed with
 * the user's addresses OWN, as "kind:commit-or-mail ..." in order. */
static char *pending_findings(struct fs_index *idx, struct fs_store *st, const char *const *own,
			      bool no_reports)
{
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_review *r = NULL;
	GString *out = g_string_new(NULL);
	size_t n = 0, i;

	assert_int_equal(fs_review_load(&threads, &n, st, "id:cover.40@example.org", NULL, &err), 0);
	assert_int_equal(n, 1);
	o.own_addresses = own;
	o.no_reports = no_reports;
	if (fs_review_run(&r, fs_thread_get(threads[0], 0), idx, st, &o, &err) < 0)
		fail_msg("fs_review_run: %s", err.message);
	assert_int_equal(r->npatches, 1);
	for (i = 0; i < r->patches[0].findings.n; i++) {
		const struct fs_finding *f = &r->patches[0].findings.v[i];
		g_string_append_printf(out, "%s%s:%s", out->len ? " " : "",
				       fs_finding_kind_name(f->kind),
				       f->mail.message_id ? f->mail.message_id : f->commit);
		if (f->kind == FS_FIND_FIX_PENDING)
			g_string_append_printf(out, "(%s)", fs_finding_cause_name(f->cause));
	}
	if (r->counts[FS_FIND_FIX_PENDING])
		assert_true(r->problems >= r->counts[FS_FIND_FIX_PENDING]);
	fs_review_free(r);
	fs_thread_free(threads[0]);
	g_free(threads);
	return g_string_free(out, FALSE);
}

/* Exactly the three posted fixes mainline lacks are fix-pending, oldest
 * first, with their mail; the fix mainline has is fix-missing and not
 * pending; the quoted, own, stable and 7-hex mails are nothing. */
static void test_fix_pending(void **state)
{
	static const char *const own[] = { "rita@example.org", NULL };
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_review *r = NULL;
	struct fs_store *st;
	struct fs_index *idx;
	char u[41], f[41], g[41], *got, *want;
	const char *lo, *hi;
	const struct fs_finding *fp;
	size_t n = 0;

	idx = pending_index(u, f, g);
	/* The index gives the fixes of a commit in id order. */
	lo = strcmp(f, g) < 0 ? f : g;
	hi = lo == f ? g : f;
	write_pending_samples(u);
	st = open_store();
	got = pending_findings(idx, st, own, false);
	want = g_strdup_printf("fix-missing:%s fix-missing:%s fix-pending:fix.42@example.org(fix) "
			       "fix-pending:fix.48@example.org(fix) "
			       "fix-pending:revert.50@example.org(revert)", lo, hi);
	assert_string_equal(got, want);
	g_free(got);
	g_free(want);

	/* Without the user's addresses the user's patch is anyone's. */
	got = pending_findings(idx, st, NULL, false);
	want = g_strdup_printf("fix-missing:%s fix-missing:%s fix-pending:fix.42@example.org(fix) "
			       "fix-pending:own.45@example.org(fix) "
			       "fix-pending:fix.48@example.org(fix) "
			       "fix-pending:revert.50@example.org(revert)", lo, hi);
	assert_string_equal(got, want);
	g_free(got);
	g_free(want);

	/* --no-reports: the store is not searched. */
	got = pending_findings(idx, st, own, true);
	want = g_strdup_printf("fix-missing:%s fix-missing:%s", lo, hi);
	assert_string_equal(got, want);
	g_free(got);
	g_free(want);

	/* The mail's own words: subject, from, date; no commit. */
	assert_int_equal(fs_review_load(&threads, &n, st, "id:cover.40@example.org", NULL, &err), 0);
	o.own_addresses = own;
	assert_int_equal(fs_review_run(&r, fs_thread_get(threads[0], 0), idx, st, &o, &err), 0);
	fp = &r->patches[0].findings.v[2];
	assert_int_equal(fp->kind, FS_FIND_FIX_PENDING);
	assert_string_equal(fp->commit, "");
	assert_string_equal(fp->subject, "[PATCH net] net: frobnicator: do not leak the queue");
	assert_string_equal(fp->mail.from, "Bo <bo@example.org>");
	assert_string_equal(fp->mail.date, "Tue, 14 Nov 2023 10:00:00 +0000");
	assert_true(fs_finding_is_problem(fp));
	fs_review_free(r);
	fs_thread_free(threads[0]);
	g_free(threads);
	fs_store_free(st);
	fs_index_free(idx);
}

/* The commit id on line LINE (0-based) of TMPDIR/next-ids. */
static void next_id(int line, char out[41])
{
	char path[512], buf[128];
	FILE *fp;
	int i;

	snprintf(path, sizeof(path), "%s/next-ids", tmpdir);
	fp = fopen(path, "r");
	assert_non_null(fp);
	for (i = 0; i <= line; i++)
		assert_non_null(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	memcpy(out, buf, 40);
	out[40] = '\0';
}

/* With a pending ref: the posted fix and the posted revert whose commits
 * next has are one finding each, with their mail and their commit; the
 * fix only next has is one more, with its commit and ref; next's copy of
 * F, which mainline has, is none.  Without the store the pending ref's
 * three are still found, with no mail. */
static void test_fix_pending_refs(void **state)
{
	static const char *const own[] = { "rita@example.org", NULL };
	struct fs_review_opts o = FS_REVIEW_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_thread **threads = NULL;
	struct fs_review *r = NULL;
	struct fs_store *st;
	struct fs_index *idx;
	char u[41], f[41], g[41], n1[41], n2[41], n4[41], *got, *want;
	const char *lo, *hi;
	const struct fs_findings *fs;
	size_t n = 0;

	idx = pending_index_refs(u, f, g, true);
	next_id(0, n1);
	next_id(1, n2);
	next_id(2, n4);
	lo = strcmp(f, g) < 0 ? f : g;
	hi = lo == f ? g : f;
	write_pending_samples(u);
	st = open_store();
	got = pending_findings(idx, st, own, false);
	want = g_strdup_printf("fix-missing:%s fix-missing:%s fix-pending:fix.42@example.org(fix) "
			       "fix-pending:fix.48@example.org(fix) "
			       "fix-pending:revert.50@example.org(revert) fix-pending:%s(fix)",
			       lo, hi, n2);
	assert_string_equal(got, want);
	g_free(got);
	g_free(want);

	assert_int_equal(fs_review_load(&threads, &n, st, "id:cover.40@example.org", NULL, &err), 0);
	o.own_addresses = own;
	assert_int_equal(fs_review_run(&r, fs_thread_get(threads[0], 0), idx, st, &o, &err), 0);
	fs = &r->patches[0].findings;
	/* the posted fix and next's commit of it: one finding */
	assert_string_equal(fs->v[2].commit, n1);
	assert_string_equal(fs->v[2].ref, "refs/remotes/next/master");
	assert_string_equal(fs->v[2].mail.from, "Bo <bo@example.org>");
	assert_string_equal(fs->v[2].subject, "net: frobnicator: do not leak the queue");
	/* a posted fix next does not have */
	assert_string_equal(fs->v[3].commit, "");
	assert_null(fs->v[3].ref);
	/* the posted revert and next's commit of it */
	assert_string_equal(fs->v[4].commit, n4);
	assert_int_equal(fs->v[4].cause, FS_CAUSE_REVERT);
	/* next's own fix: no mail */
	assert_string_equal(fs->v[5].commit, n2);
	assert_string_equal(fs->v[5].ref, "refs/remotes/next/master");
	assert_string_equal(fs->v[5].subject, "can: widget: reset on stop");
	assert_null(fs->v[5].mail.message_id);
	assert_null(fs->v[5].mail.from);
	assert_true(fs_finding_is_problem(&fs->v[5]));
	fs_review_free(r);
	r = NULL;

	/* --no-reports: no mails, the pending ref's three commits all the
	 * same, in id order */
	{
		const char *ids[3] = { n1, n2, n4 }, *t;
		GString *w = g_string_new(NULL);
		int i, k;
		for (i = 0; i < 3; i++)
			for (k = i + 1; k < 3; k++)
				if (strcmp(ids[k], ids[i]) < 0)
					t = ids[i], ids[i] = ids[k], ids[k] = t;
		g_string_printf(w, "fix-missing:%s fix-missing:%s", lo, hi);
		for (i = 0; i < 3; i++)
			g_string_append_printf(w, " fix-pending:%s(%s)", ids[i],
					       ids[i] == n4 ? "revert" : "fix");
		got = pending_findings(idx, st, own, true);
		assert_string_equal(got, w->str);
		g_free(got);
		g_string_free(w, TRUE);
	}
	fs_thread_free(threads[0]);
	g_free(threads);
	fs_store_free(st);
	fs_index_free(idx);
	(void)state;
}


int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fix_pending),
		cmocka_unit_test(test_fix_pending_refs),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
