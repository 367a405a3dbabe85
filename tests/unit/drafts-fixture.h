/* What the drafts unit tests share (test-drafts-write.c,
 * test-drafts-save.c, test-drafts-state.c): a real notmuch database over
 * a mail root in a temporary directory (setup(): NOTMUCH_CONFIG pointed
 * at it, the real "notmuch new"), a fresh state file per test
 * (state_setup()), an invented mail to compose drafts from, and the
 * helpers that write, save and deliver drafts.  Each test file uses some
 * of the helpers: they are marked unused for the others.
 */
#ifndef FIXSCAN_TEST_DRAFTS_FIXTURE_H
#define FIXSCAN_TEST_DRAFTS_FIXTURE_H

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
static __attribute__((unused)) int nfiles;

/* What fixscan remembers of its drafts: a fresh state file per test
 * (state_setup()), in memory as ST8 and on disk as STATE_FILE. */
static __attribute__((unused)) struct fs_drafts_state *st8;

static __attribute__((unused)) char state_file[400];

static __attribute__((unused)) int nstates;

static const char *const own[] = { "rita@example.org", NULL };

#define NOW ((time_t)1700000000)

/* A mail in a file of its own, parsed. */
static __attribute__((unused)) struct fs_patch *mail(const char *text)
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

static __attribute__((unused)) struct fs_identity rita = { (char *)"Rita Reviewer", (char *)"rita@example.org",
				   "notmuch config" };

static __attribute__((unused)) int count_files(const char *dir, const char *sub)
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

static __attribute__((unused)) void one_draft(struct fs_drafts *dl, const char *body)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_error err = FS_ERROR_INIT;

	dl->v = g_renew(struct fs_draft, dl->v, dl->n + 1);
	assert_int_equal(fs_draft_compose(&dl->v[dl->n], p, &rita, "patch <patch3@stable.example.org>",
					  "003/024 x", body, NOW, &err), 0);
	dl->n++;
	fs_patch_free(p);
}

static __attribute__((unused)) void keyed_draft(struct fs_drafts *dl, const char *key, const char *body)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_error err = FS_ERROR_INIT;

	dl->v = g_renew(struct fs_draft, dl->v, dl->n + 1);
	assert_int_equal(fs_draft_compose(&dl->v[dl->n], p, &rita, key, "003/024 x", body, NOW,
					  &err), 0);
	dl->n++;
	fs_patch_free(p);
}

static __attribute__((unused)) struct fs_store *open_ro(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;

	if (fs_store_open(&st, false, 1.0, &err) < 0)
		fail_msg("fs_store_open: %s", err.message);
	return st;
}

/* How many messages match "id:ID" plus EXTRA (may be NULL). */
static __attribute__((unused)) size_t count_id(const char *id, const char *extra)
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

static __attribute__((unused)) char *in_root(const char *shown)
{
	return g_build_filename(mailroot, shown, NULL);
}

static __attribute__((unused)) int save(struct fs_drafts_saved *s, const struct fs_drafts *dl, const char *dir,
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

/* Put TEXT into the mail root as FOLDER/cur/NAME and run "notmuch new".
 * Returns the path (g_free()). */
static __attribute__((unused)) char *deliver(const char *folder, const char *name, const char *text)
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
static __attribute__((unused)) void send_draft(const char *shown, const char *name)
{
	char *draft = in_root(shown), *text = NULL;

	assert_true(g_file_get_contents(draft, &text, NULL, NULL));
	assert_int_equal(unlink(draft), 0);
	g_free(deliver("Sent", name, text));
	g_free(text);
	g_free(draft);
}

/* The folder of the mail root save_one() writes into: one per test. */
static __attribute__((unused)) const char *life_folder = "Life";

/* Save one draft with KEY saying BODY into LIFE_FOLDER, with FORCE; the
 * action taken. */
static __attribute__((unused)) enum fs_draft_action save_one(const char *key, const char *body, bool force,
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

static __attribute__((unused)) int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static __attribute__((unused)) int setup(void **state)
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

static __attribute__((unused)) int state_setup(void **state)
{
	struct fs_error err = FS_ERROR_INIT;

	snprintf(state_file, sizeof(state_file), "%s/state%d/fixscan/drafts", tmpdir, nstates++);
	return fs_drafts_state_load(&st8, state_file, &err);
}

static __attribute__((unused)) int state_teardown(void **state)
{
	fs_drafts_state_free(st8);
	st8 = NULL;
	return 0;
}

static __attribute__((unused)) int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	g_mime_shutdown();
	return 0;
}

#endif
