/* Unit tests for lib/draft/drafts.c: the drafts folder and tags, writing
 * drafts into a maildir, and fs_drafts_save(), the save policy review and
 * check share, against a real notmuch database.
 *
 * The group setup writes a notmuch config and a mail root into a
 * temporary directory, points NOTMUCH_CONFIG at it and runs the real
 * "notmuch new".  The drafts are composed from an invented mail.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <gmime/gmime.h>
#include <notmuch.h>

#include "fixscan/draft.h"
#include "fixscan/drafts.h"
#include "fixscan/identity.h"
#include "fixscan/maildir.h"
#include "fixscan/mentions.h"

static char tmpdir[256], mailroot[300];
static int nfiles;

/* What fixscan remembers of its drafts: a fresh state file per test
 * (state_setup()), in memory as ST8 and on disk as STATE_FILE. */
static struct fs_drafts_state *st8;
static char state_file[400];
static int nstates;
static const char *const own[] = { "rita@example.org", NULL };

#define NOW ((time_t)1700000000)

/* A mail in a file of its own, parsed. */
static struct fs_patch *mail(const char *text)
{
	char path[512];
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mail%d.eml", tmpdir, nfiles++);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	return p;
}

#define PATCH_MAIL \
	"From: Greta Kroll <greta@stable.example.org>\n" \
	"To: linux-kernel@vger.kernel.org\n" \
	"Cc: stable@vger.kernel.org, Rita Reviewer <RITA@example.org>,\n" \
	" Dmitri Orlov <dorlov@example.com>, greta@stable.example.org\n" \
	"Subject: [PATCH 4.4 03/24] netfilter: x_tables: check the offset\n" \
	"Date: Fri, 15 Apr 2016 03:44:54 +0200\n" \
	"Message-Id: <patch3@stable.example.org>\n" \
	"In-Reply-To: <cover@stable.example.org>\n" \
	"References: <cover@stable.example.org>\n" \
	"\n" \
	"4.4-stable review patch.  If anyone has any objections, please let me know.\n" \
	"\n" \
	"------------------\n" \
	"\n" \
	"commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n" \
	"\n" \
	"Check the offset.\n" \
	"\n" \
	"Signed-off-by: Someone <someone@example.org>\n"


static struct fs_identity rita = { (char *)"Rita Reviewer", (char *)"rita@example.org",
				   "notmuch config" };

/* ---- writing ------------------------------------------------------------- */

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

static void one_draft(struct fs_drafts *dl, const char *body)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_error err = FS_ERROR_INIT;

	dl->v = g_renew(struct fs_draft, dl->v, dl->n + 1);
	assert_int_equal(fs_draft_compose(&dl->v[dl->n], p, &rita, "patch <patch3@stable.example.org>",
					  "003/024 x", body, NOW, &err), 0);
	dl->n++;
	fs_patch_free(p);
}

static void test_write_idempotent(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT, dl2 = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *first, *edited, *text;
	gsize len;
	FILE *f;

	one_draft(&dl, "The first findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_suffix(res[0].path, ":2,D"));
	assert_non_null(strstr(res[0].path, "/Drafts/cur/"));
	assert_string_equal(res[0].message_id, dl.v[0].message_id);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_int_equal(count_files(dir, "tmp"), 0);
	assert_int_equal(count_files(dir, "new"), 0);
	assert_true(g_file_get_contents(res[0].path, &text, &len, NULL));
	assert_int_equal(len, dl.v[0].len);
	assert_memory_equal(text, dl.v[0].text, len);
	g_free(text);
	first = g_strdup(res[0].path);
	fs_draft_results_free(res, 1);

	/* the same findings again (a new Message-Id and Date): unchanged */
	one_draft(&dl2, "The first findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, first);
	assert_string_equal(res[0].message_id, dl.v[0].message_id);
	assert_null(res[0].stale);
	assert_int_equal(count_files(dir, "cur"), 1);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* other findings: the unedited draft is replaced */
	one_draft(&dl2, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(res[0].other, first);
	assert_non_null(res[0].stale);
	assert_string_equal(res[0].stale[0], first);
	assert_null(res[0].stale[1]);
	assert_int_equal(count_files(dir, "cur"), 2);
	/* without a store only the stale file goes */
	assert_int_equal(fs_drafts_index(res, 1, NULL, NULL, &err), 0);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_false(g_file_test(first, G_FILE_TEST_EXISTS));
	edited = g_strdup(res[0].path);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* the reviewer edits it */
	f = fopen(edited, "a");
	assert_non_null(f);
	fputs("My own words.\n", f);
	fclose(f);
	one_draft(&dl2, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED_EDITED);
	assert_string_equal(res[0].path, edited);
	assert_null(res[0].stale);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	/* ... and the findings change: the edited one stays, a new one comes */
	one_draft(&dl2, "Third findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl2, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	assert_string_equal(res[0].other, edited);
	assert_null(res[0].stale);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_true(g_file_test(edited, G_FILE_TEST_EXISTS));
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl2);

	fs_drafts_clear(&dl);
	g_free(edited);
	g_free(first);
	g_free(dir);
}

/* A draft a mail client moved to new/ still counts. */
static void test_write_finds_new(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-new", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *moved;

	one_draft(&dl, "Findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	moved = g_build_filename(dir, "new", "moved", NULL);
	assert_int_equal(rename(res[0].path, moved), 0);
	fs_draft_results_free(res, 1);
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, moved);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(moved);
	g_free(dir);
}

static void test_write_errors(void **state)
{
	char *file = g_build_filename(tmpdir, "a-file", NULL);
	char *dir = g_build_filename(file, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	one_draft(&dl, "Findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the drafts folder"));
	assert_non_null(strstr(err.message, "Not a directory"));
	assert_null(res[0].path);
	fs_draft_results_free(res, 1);
	g_free(dir);

	/* tmp/ that is not a directory: nothing reaches cur/ */
	dir = g_build_filename(tmpdir, "Drafts-badtmp", NULL);
	assert_int_equal(g_mkdir_with_parents(dir, 0700), 0);
	{
		char *tmp = g_build_filename(dir, "tmp", NULL);
		char *cur = g_build_filename(dir, "cur", NULL);
		assert_int_equal(mkdir(cur, 0700), 0);
		assert_true(g_file_set_contents(tmp, "x", 1, NULL));
		assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), FS_EIO);
		assert_int_equal(count_files(dir, "cur"), 0);
		fs_draft_results_free(res, 1);
		g_free(tmp);
		g_free(cur);
	}
	fs_drafts_clear(&dl);
	g_free(dir);
	g_free(file);
}

static void test_dir_and_tags(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	char *d = fs_drafts_dir("/some/where", NULL, NULL, &err);
	char **tags = fs_drafts_tags(NULL);

	assert_string_equal(d, "/some/where");
	g_free(d);
	assert_null(fs_drafts_dir(NULL, NULL, NULL, &err));
	assert_non_null(strstr(err.message, "--drafts-dir"));
	assert_string_equal(tags[0], "draft");
	assert_string_equal(tags[1], "fixscan");
	assert_null(tags[2]);
	g_strfreev(tags);
}

/* The config values, as the caller read them. */
static void test_dir_and_tags_config(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	char *d;
	char **tags;

	d = fs_drafts_dir(NULL, "Mine", "/mail", &err);
	assert_string_equal(d, "/mail/Mine");
	g_free(d);
	d = fs_drafts_dir(NULL, "/abs/Drafts", "/mail", &err);
	assert_string_equal(d, "/abs/Drafts");
	g_free(d);
	d = fs_drafts_dir(NULL, NULL, "/mail", &err);
	assert_string_equal(d, "/mail/Drafts");
	g_free(d);
	d = fs_drafts_dir("/flag", "Mine", "/mail", &err);
	assert_string_equal(d, "/flag");
	g_free(d);

	tags = fs_drafts_tags(" review ;;to-send\r\n; ");
	assert_string_equal(tags[0], "review");
	assert_string_equal(tags[1], "to-send");
	assert_null(tags[2]);
	g_strfreev(tags);
	tags = fs_drafts_tags(" ; ");
	assert_string_equal(tags[0], "draft");
	g_strfreev(tags);
}

/* ---- the save policy ------------------------------------------------------ */

static void keyed_draft(struct fs_drafts *dl, const char *key, const char *body)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_error err = FS_ERROR_INIT;

	dl->v = g_renew(struct fs_draft, dl->v, dl->n + 1);
	assert_int_equal(fs_draft_compose(&dl->v[dl->n], p, &rita, key, "003/024 x", body, NOW,
					  &err), 0);
	dl->n++;
	fs_patch_free(p);
}

static struct fs_store *open_ro(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;

	if (fs_store_open(&st, false, 1.0, &err) < 0)
		fail_msg("fs_store_open: %s", err.message);
	return st;
}

/* How many messages match "id:ID" plus EXTRA (may be NULL). */
static size_t count_id(const char *id, const char *extra)
{
	struct fs_store *st = open_ro();
	struct fs_store_messages m = { NULL, 0 };
	struct fs_error err = FS_ERROR_INIT;
	char *q = g_strdup_printf("id:\"%s\"%s%s", id, extra ? " and " : "", extra ? extra : "");
	size_t n;

	assert_int_equal(fs_store_search(st, q, &m, &err), 0);
	n = m.n;
	fs_store_messages_free(&m);
	fs_store_free(st);
	g_free(q);
	return n;
}

static char *in_root(const char *shown)
{
	return g_build_filename(mailroot, shown, NULL);
}

static int save(struct fs_drafts_saved *s, const struct fs_drafts *dl, const char *dir,
		struct fs_store **st, struct fs_error *err)
{
	static const char *const tags[] = { "draft", "mytag", NULL };
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;

	opts.tags = tags;
	opts.lock_wait = 0.3;
	opts.state_file = state_file;
	opts.own = own;
	return fs_drafts_save(s, dl, dir, st, &opts, err);
}

/* Inside the mail root: written, indexed with the tags, unchanged the
 * second time, replaced (the old one gone from disk and database) when the
 * findings change, kept when the reviewer edited it. */
static void test_save_inside(void **state)
{
	char *dir = g_build_filename(mailroot, "Drafts", NULL), *first, *edited, *p;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	char *old_id;
	FILE *f;

	one_draft(&dl, "Inside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_null(st); /* closed to open it writable */
	assert_false(s.outside);
	assert_true(s.complete);
	assert_string_equal(s.root, mailroot);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_prefix(s.v[0].path, "Drafts/cur/"));
	assert_string_equal(s.v[0].label, "003/024 x");
	assert_false(s.v[0].indexed_now);
	assert_null(s.v[0].removed);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag and tag:draft"), 1);
	first = g_strdup(s.v[0].path);
	old_id = g_strdup(dl.v[0].message_id);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* the same again: nothing to do, the store stays open read-only */
	st = open_ro();
	one_draft(&dl, "Inside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_non_null(st);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(s.v[0].path, first);
	assert_false(s.v[0].indexed_now);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* other findings: replaced */
	st = open_ro();
	one_draft(&dl, "Changed findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(s.v[0].other, first);
	assert_non_null(s.v[0].removed);
	assert_string_equal(s.v[0].removed[0], first);
	assert_null(s.v[0].removed[1]);
	p = in_root(first);
	assert_false(g_file_test(p, G_FILE_TEST_EXISTS));
	g_free(p);
	assert_int_equal(count_id(old_id, NULL), 0);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag"), 1);
	assert_int_equal(count_files(dir, "cur"), 1);
	edited = in_root(s.v[0].path);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* edited by the reviewer, then the findings change: kept */
	f = fopen(edited, "a");
	assert_non_null(f);
	fputs("My own words.\n", f);
	fclose(f);
	st = open_ro();
	one_draft(&dl, "Third findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_KEPT_EDITED);
	assert_true(g_str_has_suffix(edited, s.v[0].other));
	assert_null(s.v[0].removed);
	assert_true(g_file_test(edited, G_FILE_TEST_EXISTS));
	assert_int_equal(count_files(dir, "cur"), 2);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(old_id);
	g_free(edited);
	g_free(first);
	g_free(dir);
}

/* A draft on disk that the database does not have (an earlier run could
 * not index it) is indexed, not written again. */
static void test_save_indexed_now(void **state)
{
	char *dir = g_build_filename(mailroot, "Late", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st;

	one_draft(&dl, "Late findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	fs_draft_results_free(res, 1);
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);

	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_true(s.v[0].indexed_now);
	assert_int_equal(count_files(dir, "cur"), 1);
	assert_int_equal(count_id(dl.v[0].message_id, "tag:mytag"), 1);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
}

/* Outside the mail root: written, not indexed, the store left alone;
 * outdated drafts are still removed from the disk.  Without a store at
 * all every folder is outside. */
static void test_save_outside(void **state)
{
	char *dir = g_build_filename(tmpdir, "Outside", NULL), *first;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro(), *none = NULL;

	one_draft(&dl, "Outside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_true(s.outside);
	assert_non_null(st);
	assert_string_equal(s.dir, dir);
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_true(g_str_has_prefix(s.v[0].path, dir)); /* absolute */
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);
	first = g_strdup(s.v[0].path);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	one_draft(&dl, "Other outside findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(s.v[0].removed[0], first);
	assert_false(g_file_test(first, G_FILE_TEST_EXISTS));
	assert_non_null(st);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);

	assert_int_equal(save(&s, &dl, dir, &none, &err), 0);
	assert_true(s.outside);
	assert_null(s.root);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(first);
	g_free(dir);
}

/* Fork a child that holds the database open read-write until *RELEASE
 * is closed. */
static pid_t hold_lock(int *release)
{
	int ready[2], rel[2];
	pid_t pid;
	char c;

	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(rel), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		notmuch_database_t *db = NULL;
		char *msg = NULL;

		close(ready[0]);
		close(rel[1]);
		if (notmuch_database_open_with_config(NULL, NOTMUCH_DATABASE_MODE_READ_WRITE,
						      NULL, NULL, &db, &msg) != NOTMUCH_STATUS_SUCCESS)
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		while (read(rel[0], &c, 1) > 0)
			;
		notmuch_database_destroy(db);
		_exit(0);
	}
	close(ready[1]);
	close(rel[0]);
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	*release = rel[1];
	return pid;
}

/* A locked database: the drafts are written, the error says they are not
 * indexed yet, and the next run indexes them without writing them again. */
static void test_save_locked(void **state)
{
	char *dir = g_build_filename(mailroot, "Locked", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();
	int release, status = 0;
	pid_t pid;

	keyed_draft(&dl, "patch <a@example.org>", "Locked one.\n");
	keyed_draft(&dl, "patch <b@example.org>", "Locked two.\n");
	pid = hold_lock(&release);
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_ELOCKED);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_true(g_str_has_prefix(err.message,
				     "2 drafts written but not indexed (run again to index them): "));
	assert_non_null(strstr(err.message, "locked by another process"));
	assert_int_equal(s.v[0].action, FS_DRAFT_WROTE);
	assert_non_null(s.v[1].path);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_int_equal(count_files(dir, "tmp"), 0);
	assert_int_equal(count_id(dl.v[0].message_id, NULL), 0);
	fs_drafts_saved_clear(&s);

	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), 0);
	assert_int_equal(s.v[0].action, FS_DRAFT_UNCHANGED);
	assert_true(s.v[0].indexed_now);
	assert_true(s.v[1].indexed_now);
	assert_int_equal(count_files(dir, "cur"), 2);
	assert_int_equal(count_id(dl.v[1].message_id, "tag:mytag"), 1);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);

	/* one draft: singular */
	keyed_draft(&dl, "patch <c@example.org>", "Locked three.\n");
	pid = hold_lock(&release);
	st = open_ro();
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_ELOCKED);
	close(release);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(g_str_has_prefix(err.message,
				     "1 draft written but not indexed (run again to index it): "));
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
}

/* A folder that cannot be created: the write error, nothing written. */
static void test_save_write_error(void **state)
{
	char *file = g_build_filename(mailroot, "plainfile", NULL);
	char *dir = g_build_filename(file, "Drafts", NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();

	assert_true(g_file_set_contents(file, "x", 1, NULL));
	one_draft(&dl, "Findings.\n");
	assert_int_equal(save(&s, &dl, dir, &st, &err), FS_EIO);
	assert_non_null(strstr(err.message, "cannot create the drafts folder"));
	assert_false(s.complete);
	assert_null(s.v[0].path);
	assert_int_equal(s.index_err.code, 0);
	fs_store_free(st);
	fs_drafts_saved_clear(&s);
	fs_drafts_clear(&dl);
	g_free(dir);
	g_free(file);
}

/* ---- the life of a draft after it is written ------------------------------- */

/* Put TEXT into the mail root as FOLDER/cur/NAME and run "notmuch new".
 * Returns the path (g_free()). */
static char *deliver(const char *folder, const char *name, const char *text)
{
	char *cur = g_build_filename(mailroot, folder, "cur", NULL);
	char *path = g_build_filename(cur, name, NULL);

	assert_int_equal(g_mkdir_with_parents(cur, 0700), 0);
	assert_true(g_file_set_contents(path, text, -1, NULL));
	assert_int_equal(system("notmuch new --quiet >/dev/null 2>&1"), 0);
	g_free(cur);
	return path;
}

/* What mutt does when the reviewer sends a draft: the draft file goes,
 * the sent copy (same Message-Id, no D flag) lands in Sent/. */
static void send_draft(const char *shown, const char *name)
{
	char *draft = in_root(shown), *text = NULL;

	assert_true(g_file_get_contents(draft, &text, NULL, NULL));
	assert_int_equal(unlink(draft), 0);
	g_free(deliver("Sent", name, text));
	g_free(text);
	g_free(draft);
}

/* The folder of the mail root save_one() writes into: one per test. */
static const char *life_folder = "Life";

/* Save one draft with KEY saying BODY into LIFE_FOLDER, with FORCE; the
 * action taken. */
static enum fs_draft_action save_one(const char *key, const char *body, bool force,
				     struct fs_drafts_saved *s)
{
	static const char *const tags[] = { "draft", "fixscan", NULL };
	struct fs_drafts_save_opts opts = FS_DRAFTS_SAVE_OPTS_INIT;
	char *dir = g_build_filename(mailroot, life_folder, NULL);
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = open_ro();

	opts.tags = tags;
	opts.state_file = state_file;
	opts.own = own;
	opts.force = force;
	keyed_draft(&dl, key, body);
	fs_drafts_saved_clear(s);
	if (fs_drafts_save(s, &dl, dir, &st, &opts, &err) < 0)
		fail_msg("fs_drafts_save: %s", err.message);
	fs_store_free(st);
	fs_drafts_clear(&dl);
	g_free(dir);
	return s->v[0].action;
}

/* Item A of issue 13: once the reviewer sent the draft (or any reply of
 * theirs to the patch), no draft for that patch is written again, not
 * even when the findings change.  Unsent drafts, other people's replies
 * and, for the summary, replies further down the thread do not count. */
static void test_save_answered(void **state)
{
	const char *key = "patch <patch3@stable.example.org>";
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *other, *mine;

	life_folder = "Life-answered";
	/* someone else's reply, and the reviewer's own unsent draft */
	other = deliver("inbox", "2.x:2,S", "From: Dmitri Orlov <dorlov@example.com>\n"
			"Subject: Re: x\nMessage-Id: <other.1@example.com>\n"
			"In-Reply-To: <patch3@stable.example.org>\n\nAck.\n");
	mine = deliver("Postponed", "3.x:2,D", "From: Rita Reviewer <rita@example.org>\n"
		       "Subject: Re: x\nMessage-Id: <unsent.1@example.org>\n"
		       "In-Reply-To: <patch3@stable.example.org>\n\nNot yet.\n");
	assert_int_equal(save_one(key, "Answer me.\n", false, &s), FS_DRAFT_WROTE);
	assert_int_equal(s.answered, 0);

	send_draft(s.v[0].path, "4.x:2,S");
	assert_int_equal(save_one(key, "Answer me.\n", false, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_null(s.v[0].path);
	assert_int_equal(s.answered, 1);
	assert_int_equal(count_files(s.dir, "cur"), 0);
	/* days later, other findings: still answered */
	assert_int_equal(save_one(key, "Answer me again.\n", false, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(save_one(key, "Answer me again.\n", true, &s), FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(count_files(s.dir, "cur"), 0);

	/* The reply names patch 3 as its parent: a summary answering
	 * patch 3 (as if it were a cover) counts as sent.  A reply to
	 * the reply names it only in References: not for a summary. */
	assert_int_equal(save_one("summary <patch3@stable.example.org>", "Sum.\n", false, &s),
			 FS_DRAFT_SKIPPED_ANSWERED);
	assert_int_equal(save_one("summary <other.1@example.com>", "Sum.\n", false, &s),
			 FS_DRAFT_WROTE);
	g_free(deliver("Sent", "5.x:2,S", "From: rita@example.org\nSubject: Re: x\n"
		       "Message-Id: <deeper.1@example.org>\nIn-Reply-To: <later@example.com>\n"
		       "References: <patch3@stable.example.org> <other.1@example.com> <later@example.com>\n"
		       "\nMore.\n"));
	assert_int_equal(save_one("summary <other.1@example.com>", "Sum.\n", false, &s),
			 FS_DRAFT_UNCHANGED);
	fs_drafts_saved_clear(&s);
	g_free(other);
	g_free(mine);
}

/* Item B: a draft the reviewer deleted stays deleted while its findings
 * are the same, whether or not notmuch new has run since, and also after
 * a run that said something else; new findings or --force write it
 * again. */
static void test_save_deleted(void **state)
{
	const char *key = "patch <patch5@stable.example.org>";  /* not answered */
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *path;

	life_folder = "Life-deleted";
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_WROTE);
	path = in_root(s.v[0].path);
	assert_int_equal(unlink(path), 0);
	g_free(path);
	/* before notmuch new: the database still has it, its file is gone */
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(s.deleted, 1);
	assert_null(s.v[0].path);
	assert_int_equal(count_files(s.dir, "cur"), 0);
	assert_int_equal(system("notmuch new --quiet >/dev/null 2>&1"), 0);
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(count_files(s.dir, "cur"), 0);

	assert_int_equal(save_one(key, "Delete me.\n", true, &s), FS_DRAFT_WROTE);
	assert_int_equal(s.deleted, 0);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	path = in_root(s.v[0].path);
	assert_int_equal(unlink(path), 0);
	g_free(path);
	/* other findings: a new draft */
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_WROTE);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	/* back to what was deleted (a plain review after review
	 * --all-open): still deleted, and the other draft is left alone */
	assert_int_equal(save_one(key, "Delete me.\n", false, &s), FS_DRAFT_SKIPPED_DELETED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_UNCHANGED);
	/* a draft fixscan replaced itself is no deleted draft: "Third"
	 * replaces "New findings", and "New findings" is written again */
	assert_int_equal(save_one(key, "Third.\n", false, &s), FS_DRAFT_REPLACED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	assert_int_equal(save_one(key, "New findings.\n", false, &s), FS_DRAFT_REPLACED);
	assert_int_equal(count_files(s.dir, "cur"), 1);
	fs_drafts_saved_clear(&s);
}

/* Item D: mutt renames a draft it shows (flag S); before notmuch new
 * catches up, the draft is still found, unchanged, without an error. */
static void test_save_renamed(void **state)
{
	const char *key = "patch <patch7@stable.example.org>";  /* not answered */
	struct fs_drafts_saved s = FS_DRAFTS_SAVED_INIT;
	char *path, *seen;

	life_folder = "Life-renamed";
	assert_int_equal(save_one(key, "Look at me.\n", false, &s), FS_DRAFT_WROTE);
	path = in_root(s.v[0].path);
	seen = g_strconcat(path, "S", NULL);
	assert_int_equal(rename(path, seen), 0);
	assert_int_equal(save_one(key, "Look at me.\n", false, &s), FS_DRAFT_UNCHANGED);
	assert_true(g_str_has_suffix(seen, s.v[0].path));
	assert_int_equal(count_files(s.dir, "cur"), 1);
	fs_drafts_saved_clear(&s);
	g_free(path);
	g_free(seen);
}

/* Item C: the draft carries nothing of fixscan's but its Message-Id;
 * a later run still knows it (through the state file), and tells edited
 * from unedited.  A draft of an older version, with the X-Fixscan-Key
 * and X-Fixscan-Digest headers and unknown to the state, is still
 * recognised. */
static void test_write_without_headers(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-old", NULL), *text, *old, *hdr;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_drafts_state *fresh = NULL;
	char *prefix = fs_draft_id_prefix("patch <patch3@stable.example.org>");
	const char *k, *dg;

	one_draft(&dl, "Old findings.\n");
	assert_null(strstr(dl.v[0].text, "X-Fixscan"));
	assert_false(g_str_has_prefix(dl.v[0].message_id, prefix));
	/* as an older version wrote it: with the two headers */
	hdr = g_strdup_printf("X-Fixscan-Key: %s\nX-Fixscan-Digest: %s\n", dl.v[0].key, dl.v[0].digest);
	text = g_strconcat(hdr, dl.v[0].text, NULL);
	assert_int_equal(fs_maildir_create(dir, "x", &err), 0);
	old = g_build_filename(dir, "cur", "old:2,D", NULL);
	assert_true(g_file_set_contents(old, text, -1, NULL));
	assert_false(fs_drafts_state_find(st8, dl.v[0].message_id, &k, &dg));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, old);
	fs_draft_results_free(res, 1);
	/* and now the state knows it, on disk too */
	assert_true(fs_drafts_state_find(st8, dl.v[0].message_id, &k, &dg));
	assert_string_equal(dg, dl.v[0].digest);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	assert_int_equal(fs_drafts_state_load(&fresh, state_file, &err), 0);
	assert_true(fs_drafts_state_find(fresh, dl.v[0].message_id, &k, &dg));
	assert_string_equal(k, "patch <patch3@stable.example.org>");
	fs_drafts_state_free(fresh);
	fs_drafts_clear(&dl);

	/* other findings: the old unedited one is replaced by one without
	 * headers, which a run with the state on disk knows as unchanged */
	one_draft(&dl, "New findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	fs_draft_results_free(res, 1);
	assert_int_equal(fs_drafts_state_save(st8, &err), 0);
	assert_int_equal(fs_drafts_state_load(&fresh, state_file, &err), 0);
	assert_int_equal(fs_drafts_write(&res, &dl, dir, fresh, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	fs_draft_results_free(res, 1);
	fs_drafts_state_free(fresh);

	/* the reviewer's copy of a draft of an earlier version, not flagged
	 * D any more, is still their own mail to fs_identity_is_own_mail(),
	 * From changed or not (today's ids say nothing of fixscan) */
	{
		struct fs_patch *p = NULL;
		char *mid = g_strdup_printf("From: someone@elsewhere.example\nMessage-Id: <%s%s>\n\nx\n",
					    prefix, dl.v[0].message_id);
		char *f = g_build_filename(tmpdir, "sent-copy", NULL);

		assert_true(g_file_set_contents(f, mid, -1, NULL));
		assert_int_equal(fs_patch_parse_file(&p, f, &err), 0);
		assert_true(fs_identity_is_own_mail(f, p, own));
		assert_false(fs_identity_is_own_mail(f, p, NULL));
		fs_patch_free(p);
		g_free(f);
		g_free(mid);
	}
	fs_drafts_clear(&dl);
	g_free(prefix);
	g_free(hdr);
	g_free(text);
	g_free(old);
	g_free(dir);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	char path[600], text[1024];

	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-drafts.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(mailroot, sizeof(mailroot), "%s/mail", tmpdir);
	snprintf(path, sizeof(path), "%s/inbox/cur", mailroot);
	if (g_mkdir_with_parents(path, 0700) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s/inbox/cur/1.x:2,S", mailroot);
	if (!g_file_set_contents(path, PATCH_MAIL, -1, NULL))
		return -1;
	snprintf(path, sizeof(path), "%s/notmuch-config", tmpdir);
	snprintf(text, sizeof(text), "[database]\npath=%s\n\n[user]\nname=Rita Reviewer\n"
		 "primary_email=rita@example.org\n\n[new]\ntags=inbox;\n", mailroot);
	if (!g_file_set_contents(path, text, -1, NULL))
		return -1;
	setenv("NOTMUCH_CONFIG", path, 1);
	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	setenv("XDG_DATA_HOME", tmpdir, 1);
	unsetenv("NOTMUCH_DATABASE");
	unsetenv("NOTMUCH_PROFILE");
	if (system("notmuch new --quiet >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test-drafts: 'notmuch new' failed; is notmuch installed?\n");
		return -1;
	}
	g_mime_init();
	return 0;
}

/* A state file that does not read as one is refused, naming the file
 * and the line, and gives no state; no link is followed, no FIFO waited
 * on. */
static void test_state_damaged(void **state)
{
	static const struct {
		const char *text;
		const char *says;
	} bad[] = {
		{ "", "is empty" },
		{ "# header\nfixscan.a@b\t0123", "ends in the middle of a line" },
		{ "# header\nx\0y\n", "holds a NUL byte" },
		{ "# header\n\xff\xfe\n", "is not UTF-8" },
		{ "# header\n\n", "line 2: is empty" },
		{ "# header\na\tb\tc\n", "line 2: not 4 fields" },
		{ "# header\na@b\tnotadigest\t1\tpatch <x>\n", "line 2: no digest" },
		{ "# header\na@b\t" "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
		  "\tnoon\tpatch <x>\n", "line 2: no time" },
	};
	char *dir = g_build_filename(tmpdir, "damaged", NULL), *path, *link;
	struct fs_drafts_state *s = NULL;
	struct fs_error err = FS_ERROR_INIT;
	size_t i;

	g_mkdir_with_parents(dir, 0700);
	path = g_build_filename(dir, "drafts", NULL);
	for (i = 0; i < G_N_ELEMENTS(bad); i++) {
		size_t len = strlen(bad[i].text);

		if (strstr(bad[i].says, "NUL"))
			len = strlen("# header\nx") + 3;
		assert_true(g_file_set_contents(path, bad[i].text, (gssize)len, NULL));
		assert_int_equal(fs_drafts_state_load(&s, path, &err), FS_EPARSE);
		assert_null(s);
		if (!strstr(err.message, bad[i].says) || !strstr(err.message, path))
			fail_msg("%zu: %s", i, err.message);
	}
	/* a symbolic link, even to a good state file; a FIFO; a directory */
	link = g_build_filename(dir, "link", NULL);
	assert_true(g_file_set_contents(path, "# header\n", -1, NULL));
	assert_int_equal(symlink(path, link), 0);
	assert_int_equal(fs_drafts_state_load(&s, link, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a symbolic link"));
	g_unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(fs_drafts_state_load(&s, path, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a FIFO"));
	assert_int_equal(fs_drafts_state_load(&s, dir, &err), FS_EIO);
	assert_non_null(strstr(err.message, "is a directory"));
	assert_null(s);
	g_free(link);
	g_free(path);
	g_free(dir);
}

/* A run stopped after noting its drafts as pending: the next one keeps
 * those whose file is in the folder as fixscan's (unchanged, not the
 * reviewer's) and forgets the others.  Without any state, a draft with
 * fixscan's Message-Id and the very text to write is fixscan's too. */
static void test_pending_and_adopted(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-pending", NULL), *text, *f;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_drafts_state *s = NULL;
	const char *k, *dg;

	one_draft(&dl, "Findings.\n");
	text = g_strdup_printf("# fixscan: the drafts it wrote\n"
			       "pending:%s\t%s\t%lld\t%s\n"
			       "pending:fixscan.never.written@example.org\t%s\t%lld\tpatch <other@x>\n",
			       dl.v[0].message_id, dl.v[0].digest, (long long)time(NULL), dl.v[0].key,
			       dl.v[0].digest, (long long)time(NULL));
	f = g_path_get_dirname(state_file);
	g_mkdir_with_parents(f, 0700);
	g_free(f);
	assert_true(g_file_set_contents(state_file, text, -1, NULL));
	g_free(text);
	assert_int_equal(fs_drafts_state_load(&s, state_file, &err), 0);
	assert_false(fs_drafts_state_find(s, dl.v[0].message_id, &k, &dg));
	/* the file the stopped run wrote */
	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	f = g_build_filename(dir, "cur", "1.M1P1Q1R00000001.host:2,D", NULL);
	assert_true(g_file_set_contents(f, dl.v[0].text, -1, NULL));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, s, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].path, f);
	fs_draft_results_free(res, 1);
	assert_true(fs_drafts_state_find(s, dl.v[0].message_id, &k, &dg));
	assert_int_equal(fs_drafts_state_save(s, &err), 0);
	fs_drafts_state_free(s);
	assert_true(g_file_get_contents(state_file, &text, NULL, NULL));
	assert_null(strstr(text, "pending:"));
	assert_null(strstr(text, "never.written"));
	g_free(text);

	/* no state at all: the same text is fixscan's, unchanged */
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	fs_draft_results_free(res, 1);
	/* ... other text for it is kept as possibly the reviewer's */
	fs_drafts_clear(&dl);
	one_draft(&dl, "Other findings.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(f);
	g_free(dir);
}

/* Drafts of an earlier version, whose Message-Id was "fixscan.", a hash
 * of the key and more, are still known without the state: the same text
 * is unchanged, an unedited one with other text is replaced.  A draft of
 * today's form the state does not know is fixscan's only with the very
 * text; with other text it is kept as the reviewer's. */
static void test_old_message_ids(void **state)
{
	char *dir = g_build_filename(tmpdir, "Drafts-oldids", NULL), *f, *text, *prefix, *id;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_result *res = NULL;
	struct fs_error err = FS_ERROR_INIT;
	const char *at;

	one_draft(&dl, "Findings of old.\n");
	prefix = fs_draft_id_prefix(dl.v[0].key);
	id = g_strdup_printf("%s20160101000000.0000abcd@example.org", prefix);
	at = strstr(dl.v[0].text, dl.v[0].message_id);
	assert_non_null(at);
	text = g_strdup_printf("%.*s%s%s", (int)(at - dl.v[0].text), dl.v[0].text, id,
			       at + strlen(dl.v[0].message_id));
	assert_int_equal(fs_maildir_create(dir, NULL, &err), 0);
	f = g_build_filename(dir, "cur", "old-id:2,D", NULL);
	assert_true(g_file_set_contents(f, text, -1, NULL));
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_UNCHANGED);
	assert_string_equal(res[0].message_id, id);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	one_draft(&dl, "Findings of today.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, st8, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_REPLACED);
	assert_string_equal(res[0].other, f);
	fs_draft_results_free(res, 1);
	unlink(f);
	/* today's form, unknown: another text for the mail is not ours */
	fs_drafts_clear(&dl);
	one_draft(&dl, "Findings of tomorrow.\n");
	assert_int_equal(fs_drafts_write(&res, &dl, dir, NULL, &err), 0);
	assert_int_equal(res[0].action, FS_DRAFT_KEPT_EDITED);
	assert_null(res[0].stale);
	fs_draft_results_free(res, 1);
	fs_drafts_clear(&dl);
	g_free(text);
	g_free(id);
	g_free(prefix);
	g_free(f);
	g_free(dir);
}

static int state_setup(void **state)
{
	struct fs_error err = FS_ERROR_INIT;

	snprintf(state_file, sizeof(state_file), "%s/state%d/fixscan/drafts", tmpdir, nstates++);
	return fs_drafts_state_load(&st8, state_file, &err);
}

static int state_teardown(void **state)
{
	fs_drafts_state_free(st8);
	st8 = NULL;
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
		cmocka_unit_test_setup_teardown(test_dir_and_tags, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_dir_and_tags_config, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_idempotent, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_finds_new, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_errors, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_inside, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_indexed_now, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_outside, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_locked, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_write_error, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_write_without_headers, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_answered, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_deleted, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_save_renamed, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_state_damaged, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_pending_and_adopted, state_setup, state_teardown),
		cmocka_unit_test_setup_teardown(test_old_message_ids, state_setup, state_teardown),
	};

	return cmocka_run_group_tests_name("drafts", tests, setup, teardown);
}
