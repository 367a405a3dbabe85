/* Unit tests for lib/report/digest.c: the weights of fixscan-digest(1), patch
 * scores, the ranking, deadlines, the digest key, the mail, and saving it
 * once per day and set of series into a maildir indexed by a real notmuch
 * database (set up in a temporary directory by the group setup).
 *
 * Reviews and series are built by hand; the digest borrows them, so each
 * test takes them back (series[i].r = NULL) before fs_digest_clear().
 */
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/digest.h"

static char tmpdir[256], mailroot[300];
static int nfiles;

#define NOW ((time_t)1700000000)

static struct fs_patch *mail(const char *id)
{
	char path[512], *text;
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;

	snprintf(path, sizeof(path), "%s/mail%d.eml", tmpdir, nfiles++);
	text = g_strdup_printf("From: Greta <greta@example.org>\nSubject: [PATCH 4.4 00/02] x\n"
			       "Message-Id: <%s>\n\nbody\n", id);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(text);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	return p;
}

/* A hand-built series of NP patches whose findings are KINDS (one per
 * patch; FS_FIND_KIND_COUNT for none), with a cover ID and DEADLINE. */
struct fake {
	struct fs_patch *cover;
	struct fs_thread_series s;
	struct fs_review r;
	struct fs_review_patch rp[4];
	struct fs_finding f[4];
};

static void fake_init(struct fake *x, const char *id, const char *deadline,
		      const enum fs_finding_kind *kinds, size_t np)
{
	size_t i;

	memset(x, 0, sizeof(*x));
	x->cover = mail(id);
	x->s.cover = x->cover;
	x->s.npatches = np;
	x->s.total = (int)np;
	x->s.deadline = (char *)deadline;
	x->r.series = &x->s;
	x->r.branch = (char *)"linux-4.4.y";
	x->r.patches = x->rp;
	x->r.npatches = np;
	for (i = 0; i < np; i++) {
		x->rp[i].index = (int)i + 1;
		if (kinds[i] == FS_FIND_KIND_COUNT)
			continue;
		x->f[i].kind = kinds[i];
		x->rp[i].findings.v = &x->f[i];
		x->rp[i].findings.n = 1;
	}
}

static void fake_free(struct fake *x)
{
	fs_patch_free(x->cover);
}

/* Clear D without freeing the hand-built reviews. */
static void digest_clear(struct fs_digest *d)
{
	size_t i;

	for (i = 0; i < d->nseries; i++)
		d->series[i].r = NULL;
	fs_digest_clear(d);
}

static void test_weights(void **state)
{
	/* the table of fixscan-digest(1) */
	assert_int_equal(fs_digest_kind_weight(FS_FIND_FIX_MISSING), 16);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_REVERTED_UPSTREAM), 16);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_REGRESSION_REPORT), 8);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_OBJECTION), 8);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_ALREADY_APPLIED), 4);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_TARGET_ABSENT), 2);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_DEP_MISSING), 2);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_UNKNOWN_UPSTREAM), 1);
	/* They ask for nothing (issue 33: a patch whose only finding was a
	 * Fixes: tag mismatch was "risky"). */
	assert_int_equal(fs_digest_kind_weight(FS_FIND_NO_UPSTREAM), 0);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_FIXES_TAG_MISMATCH), 0);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_FIX_QUEUED), 0);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_FIX_PRESENT), 0);
	assert_int_equal(fs_digest_kind_weight(FS_FIND_REVERTS_STABLE), 0);
}

static void test_patch_score(void **state)
{
	struct fs_finding f[3];
	struct fs_review_patch rp;

	memset(f, 0, sizeof(f));
	memset(&rp, 0, sizeof(rp));
	f[0].kind = FS_FIND_FIX_MISSING;
	f[1].kind = FS_FIND_OBJECTION;
	f[2].kind = FS_FIND_ALREADY_APPLIED;
	f[2].ignored = (char *)"known";
	rp.findings.v = f;
	rp.findings.n = 3;
	assert_int_equal(fs_digest_patch_score(&rp), 24);
	rp.findings.n = 0;
	assert_int_equal(fs_digest_patch_score(&rp), 0);
}

/* Risky means a finding that asks the maintainer to act: a patch whose
 * only findings ask for nothing scores 0, whatever their kind. */
static void test_asks_nothing(void **state)
{
	struct fs_finding f[3];
	struct fs_review_patch rp;

	memset(f, 0, sizeof(f));
	memset(&rp, 0, sizeof(rp));
	rp.findings.v = f;
	f[0].kind = FS_FIND_FIXES_TAG_MISMATCH;
	f[1].kind = FS_FIND_NO_UPSTREAM;
	f[2].kind = FS_FIND_REVERTS_STABLE;
	rp.findings.n = 3;
	assert_int_equal(fs_digest_patch_score(&rp), 0);
	/* an id the clone, older than the thread, does not have yet */
	f[0].kind = FS_FIND_UNKNOWN_UPSTREAM;
	f[0].cause = FS_CAUSE_NOT_IN_CLONE;
	rp.findings.n = 1;
	assert_int_equal(fs_digest_patch_score(&rp), 0);
	/* an id nobody can find asks for the right one */
	f[0].cause = FS_CAUSE_NONE;
	assert_int_equal(fs_digest_patch_score(&rp), 1);
	/* a revert applied again asks for nothing */
	f[0].kind = FS_FIND_REVERTED_UPSTREAM;
	f[0].cause = FS_CAUSE_REVERT_OF_REVERT;
	assert_int_equal(fs_digest_patch_score(&rp), 0);
	f[0].cause = FS_CAUSE_NONE;
	assert_int_equal(fs_digest_patch_score(&rp), 16);
	/* with a mismatch beside it, the score is the fix's alone */
	f[1].kind = FS_FIND_FIXES_TAG_MISMATCH;
	f[1].cause = FS_CAUSE_NONE;
	rp.findings.n = 2;
	assert_int_equal(fs_digest_patch_score(&rp), 16);
}

static void test_deadline(void **state)
{
	assert_int_equal(fs_digest_parse_deadline("2016-04-17T01:44+00:00"), 1460857440);
	assert_int_equal(fs_digest_parse_deadline("2016-04-17T03:44:30+02:00"), 1460857470);
	assert_int_equal(fs_digest_parse_deadline("Sun, 17 Apr 2016 01:44:51 +0000"), 1460857491);
	assert_int_equal(fs_digest_parse_deadline(NULL), 0);
	assert_int_equal(fs_digest_parse_deadline("soon"), 0);
}

/* Highest score first; among equals the sooner deadline, a known one
 * before none; then the series order, then the patch number.  Patches
 * that score 0 are not risky; a series not reviewed is listed. */
static void test_rank(void **state)
{
	static const enum fs_finding_kind k1[] = {
		FS_FIND_OBJECTION, FS_FIND_FIX_PRESENT, FS_FIND_NO_UPSTREAM, FS_FIND_OBJECTION,
	};
	static const enum fs_finding_kind k2[] = { FS_FIND_REGRESSION_REPORT, FS_FIND_FIX_MISSING };
	static const enum fs_finding_kind k3[] = { FS_FIND_OBJECTION };
	struct fake a, b, c, u;
	struct fs_digest d = FS_DIGEST_INIT;

	fake_init(&a, "a@x", NULL, k1, 4);                           /* no deadline */
	fake_init(&b, "b@x", "2016-04-20T00:00+00:00", k2, 2);
	fake_init(&c, "c@x", "2016-04-18T00:00+00:00", k3, 1);
	fake_init(&u, "u@x", NULL, k3, 1);
	fs_digest_add(&d, &a.s, &a.r, NULL);
	fs_digest_add(&d, &b.s, &b.r, NULL);
	fs_digest_add(&d, &u.s, NULL, "unknown branch");
	fs_digest_add(&d, &c.s, &c.r, NULL);
	fs_digest_rank(&d);

	assert_int_equal(d.nseries, 4);
	/* a/3 (no-upstream: asks for nothing) is not risky */
	assert_int_equal(d.series[0].risky, 2);
	assert_int_equal(d.series[1].risky, 2);
	assert_int_equal(d.series[2].risky, 0);
	assert_string_equal(d.series[2].error, "unknown branch");
	assert_null(d.series[2].r);
	assert_int_equal(d.series[1].deadline, 1461110400);
	assert_int_equal(d.nrisky, 5);
	/* 16: b/2 */
	assert_int_equal(d.risky[0].score, 16);
	assert_int_equal(d.risky[0].series, 1);
	/* 8s: c (deadline 18th), b/1 (20th), then a/1, a/4 (none) */
	assert_int_equal(d.risky[1].series, 3);
	assert_int_equal(d.risky[2].series, 1);
	assert_int_equal(d.risky[2].rp->index, 1);
	assert_int_equal(d.risky[3].series, 0);
	assert_int_equal(d.risky[3].rp->index, 1);
	assert_int_equal(d.risky[4].series, 0);
	assert_int_equal(d.risky[4].rp->index, 4);
	digest_clear(&d);
	fake_free(&a);
	fake_free(&b);
	fake_free(&c);
	fake_free(&u);
}

static void test_key(void **state)
{
	static const enum fs_finding_kind k[] = { FS_FIND_OBJECTION };
	struct fake a, b;
	struct fs_digest d1 = FS_DIGEST_INIT, d2 = FS_DIGEST_INIT, d3 = FS_DIGEST_INIT;
	char *k1, *k2, *k3, *k4;
	GRegex *re = g_regex_new("^[0-9]{8}-[0-9a-f]{16}$", 0, 0, NULL);

	fake_init(&a, "a@x", NULL, k, 1);
	fake_init(&b, "b@x", NULL, k, 1);
	fs_digest_add(&d1, &a.s, &a.r, NULL);
	fs_digest_add(&d1, &b.s, &b.r, NULL);
	fs_digest_add(&d2, &b.s, &b.r, NULL);
	fs_digest_add(&d2, &a.s, &a.r, NULL);
	fs_digest_add(&d3, &a.s, &a.r, NULL);
	k1 = fs_digest_key(&d1, NOW);
	k2 = fs_digest_key(&d2, NOW);
	k3 = fs_digest_key(&d3, NOW);
	k4 = fs_digest_key(&d1, NOW + 2 * 86400);
	assert_true(g_regex_match(re, k1, 0, NULL));
	assert_string_equal(k1, k2);     /* the order does not matter */
	assert_string_not_equal(k1, k3); /* the set does */
	assert_string_not_equal(k1, k4); /* and so does the day */
	assert_string_equal(k1 + 9, k4 + 9);
	g_free(k1);
	g_free(k2);
	g_free(k3);
	g_free(k4);
	g_regex_unref(re);
	digest_clear(&d1);
	digest_clear(&d2);
	digest_clear(&d3);
	fake_free(&a);
	fake_free(&b);
}

static void test_compose(void **state)
{
	char *text = fs_digest_compose("line one\r\nbell\a here\n\tcaf\xc3\xa9\n", "dg@example.org",
				       "Rita Reviewer", "rita@example.org", "fixscan digest x", NOW);
	char *ascii = fs_digest_compose("plain\n", "dg@example.org", "R", "r@example.org", "s", NOW);

	assert_non_null(strstr(text, "From: Rita Reviewer <rita@example.org>\n"));
	assert_non_null(strstr(text, "To: Rita Reviewer <rita@example.org>\n"));
	assert_non_null(strstr(text, "Subject: fixscan digest x\n"));
	assert_non_null(strstr(text, "Message-Id: <dg@example.org>\n"));
	assert_non_null(strstr(text, "X-Fixscan-Digest: dg@example.org\n"));
	assert_non_null(strstr(text, "Content-Transfer-Encoding: 8bit\n"));
	assert_non_null(strstr(text, "\n\nline one\nbell here\n\tcaf\xc3\xa9"));
	assert_null(strchr(text, '\r'));
	assert_null(strchr(text, '\a'));
	assert_non_null(strstr(ascii, "Content-Transfer-Encoding: 7bit\n"));
	g_free(text);
	g_free(ascii);
}

/* ---- saving ------------------------------------------------------------ */

static int count_files(const char *dir, const char *sub)
{
	char *p = g_build_filename(dir, sub, NULL);
	GDir *d = g_dir_open(p, 0, NULL);
	int n = 0;

	while (d && g_dir_read_name(d))
		n++;
	if (d)
		g_dir_close(d);
	g_free(p);
	return n;
}

static struct fs_store *open_ro(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;

	if (fs_store_open(&st, false, 1.0, &err) < 0)
		fail_msg("fs_store_open: %s", err.message);
	return st;
}

static size_t count_query(const char *q)
{
	struct fs_store *st = open_ro();
	struct fs_store_messages m = { NULL, 0 };
	struct fs_error err = FS_ERROR_INIT;
	size_t n;

	assert_int_equal(fs_store_search(st, q, &m, &err), 0);
	n = m.n;
	fs_store_messages_free(&m);
	fs_store_free(st);
	return n;
}

/* The only file of DIR/new. */
static char *only_file(const char *dir)
{
	char *p = g_build_filename(dir, "new", NULL);
	GDir *d = g_dir_open(p, 0, NULL);
	char *ret;

	assert_non_null(d);
	ret = g_build_filename(p, g_dir_read_name(d), NULL);
	g_dir_close(d);
	g_free(p);
	return ret;
}

/* Once per day and set of series; a digest on disk that the database
 * lost is indexed, not written again; fixscan.digestFolder is honoured. */
static void test_save(void **state)
{
	static const enum fs_finding_kind k[] = { FS_FIND_FIX_MISSING };
	struct fake a;
	struct fs_digest d = FS_DIGEST_INIT;
	struct fs_digest_mail m = FS_DIGEST_MAIL_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	char *inbox = g_build_filename(mailroot, "INBOX", NULL);
	char *other = g_build_filename(mailroot, "Digests", NULL), *f, *text, *cmd;

	fake_init(&a, "a@x", NULL, k, 1);
	fs_digest_add(&d, &a.s, &a.r, NULL);
	m.name = "Rita Reviewer";
	m.email = "rita@example.org";
	assert_int_equal(fs_digest_save(&d, "the digest\n", &st, &m, NOW, &err), 0);
	assert_null(st);
	assert_int_equal(count_files(inbox, "new"), 1);
	assert_int_equal(count_files(inbox, "tmp"), 0);
	assert_int_equal(count_query("tag:fixscan-digest and tag:unread and tag:inbox"), 1);
	f = only_file(inbox);
	assert_true(g_file_get_contents(f, &text, NULL, NULL));
	assert_non_null(strstr(text, "Subject: fixscan digest "));
	assert_non_null(strstr(text, ": 1 risky patch in 1 series\n"));
	assert_non_null(strstr(text, "@example.org>\n"));
	assert_non_null(strstr(text, "the digest\n"));
	g_free(text);

	/* the same day again: nothing new, the store left open */
	st = open_ro();
	assert_int_equal(fs_digest_save(&d, "the digest\n", &st, &m, NOW, &err), 0);
	assert_non_null(st);
	fs_store_free(st);
	assert_int_equal(count_files(inbox, "new"), 1);

	/* the database lost it: indexed again, not written again */
	cmd = g_strdup_printf("mv '%s' '%s/saved' && notmuch new --quiet >/dev/null 2>&1 && mv '%s/saved' '%s'",
			      f, tmpdir, tmpdir, f);
	assert_int_equal(system(cmd), 0);
	g_free(cmd);
	assert_int_equal(count_query("tag:fixscan-digest"), 0);
	st = open_ro();
	assert_int_equal(fs_digest_save(&d, "the digest\n", &st, &m, NOW, &err), 0);
	fs_store_free(st);
	assert_int_equal(count_files(inbox, "new"), 1);
	assert_int_equal(count_query("tag:fixscan-digest"), 1);

	/* another folder, another day */
	m.folder = "Digests";
	st = open_ro();
	assert_int_equal(fs_digest_save(&d, "the digest\n", &st, &m, NOW + 2 * 86400, &err), 0);
	fs_store_free(st);
	assert_int_equal(count_files(other, "new"), 1);
	assert_int_equal(count_query("tag:fixscan-digest"), 2);

	digest_clear(&d);
	fake_free(&a);
	g_free(f);
	g_free(other);
	g_free(inbox);
}

/* The day of the last digest mail is remembered; another day is not
 * the same day; a missing or broken state file says "not yet". */
static void test_mailed_today(void **state)
{
	static const enum fs_finding_kind k[] = { FS_FIND_FIX_MISSING };
	struct fake a;
	struct fs_digest d = FS_DIGEST_INIT;
	struct fs_digest_mail m = FS_DIGEST_MAIL_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st;
	char *path = g_build_filename(tmpdir, "state", "fixscan", "digest", NULL), *id = NULL;
	char *text = NULL;

	assert_false(fs_digest_mailed_today(path, NOW, &id));
	assert_null(id);
	assert_int_equal(fs_digest_note_mailed(path, NOW, "fixscan-digest-x@example.org", &err), 0);
	assert_true(fs_digest_mailed_today(path, NOW, &id));
	assert_string_equal(id, "fixscan-digest-x@example.org");
	g_free(id);
	assert_true(fs_digest_mailed_today(path, NOW, NULL));
	assert_false(fs_digest_mailed_today(path, NOW + 86400, &id));
	assert_null(id);
	assert_false(fs_digest_mailed_today(path, NOW - 86400, NULL));
	assert_true(g_file_set_contents(path, "garbage", -1, NULL));
	assert_false(fs_digest_mailed_today(path, NOW, NULL));

	/* fs_digest_save() remembers the digest it wrote (or found) */
	fake_init(&a, "b@x", NULL, k, 1);
	fs_digest_add(&d, &a.s, &a.r, NULL);
	m.email = "rita@example.org";
	m.state_file = path;
	m.folder = "StateDigests";
	st = open_ro();
	assert_int_equal(fs_digest_save(&d, "the digest\n", &st, &m, NOW + 5 * 86400, &err), 0);
	fs_store_free(st);
	assert_true(fs_digest_mailed_today(path, NOW + 5 * 86400, &id));
	assert_true(g_str_has_prefix(id, "fixscan-digest-"));
	assert_true(g_str_has_suffix(id, "@example.org"));
	assert_true(g_file_get_contents(path, &text, NULL, NULL));
	assert_int_equal(strlen(text) - 1, strcspn(text, "\n"));
	g_free(text);
	g_free(id);
	digest_clear(&d);
	fake_free(&a);
	g_free(path);
}

static void test_save_error(void **state)
{
	static const enum fs_finding_kind k[] = { FS_FIND_FIX_MISSING };
	struct fake a;
	struct fs_digest d = FS_DIGEST_INIT;
	struct fs_digest_mail m = FS_DIGEST_MAIL_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	char *file = g_build_filename(tmpdir, "plainfile", NULL);

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	fake_init(&a, "e@x", NULL, k, 1);
	fs_digest_add(&d, &a.s, &a.r, NULL);
	m.folder = file;
	assert_int_equal(fs_digest_save(&d, "x\n", &st, &m, NOW, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the maildir"));
	assert_non_null(strstr(err.message, file));
	fs_store_free(st);
	digest_clear(&d);
	fake_free(&a);
	g_free(file);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	char path[600], text[1024];

	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-digest.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(mailroot, sizeof(mailroot), "%s/mail", tmpdir);
	snprintf(path, sizeof(path), "%s/inbox/cur", mailroot);
	if (g_mkdir_with_parents(path, 0700) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/inbox/cur/1.x:2,S", mailroot);
	if (!g_file_set_contents(path, "From: a@x\nMessage-Id: <one@x>\n\nx\n", -1, NULL))
		return -1;
	snprintf(path, sizeof(path), "%s/notmuch-config", tmpdir);
	snprintf(text, sizeof(text), "[database]\npath=%s\n\n[new]\ntags=inbox;\n", mailroot);
	if (!g_file_set_contents(path, text, -1, NULL))
		return -1;
	setenv("NOTMUCH_CONFIG", path, 1);
	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	setenv("XDG_DATA_HOME", tmpdir, 1);
	setenv("TZ", "UTC", 1);
	unsetenv("NOTMUCH_DATABASE");
	unsetenv("NOTMUCH_PROFILE");
	if (system("notmuch new --quiet >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test-digest: 'notmuch new' failed; is notmuch installed?\n");
		return -1;
	}
	g_mime_init();
	return 0;
}

static int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	g_mime_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_asks_nothing),
		cmocka_unit_test(test_patch_score),
		cmocka_unit_test(test_deadline),
		cmocka_unit_test(test_rank),
		cmocka_unit_test(test_key),
		cmocka_unit_test(test_compose),
		cmocka_unit_test(test_save),
		cmocka_unit_test(test_save_error),
		cmocka_unit_test(test_mailed_today),
	};

	return cmocka_run_group_tests_name("digest", tests, setup, teardown);
}
