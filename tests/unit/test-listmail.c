/* Unit tests for lib/review/listmail.c, the lore stage of a review:
 * what a real public-inbox (made by
 * tests/e2e/lore-server.sh, a child of this process that dies with it)
 * answers about a series, on a repository made with git fast-import.
 * Run from the top of the source tree (make test-unit does). */
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include <glib.h>

#include "fixscan/archive.h"
#include "fixscan/index.h"
#include "fixscan/listmail.h"
#include "fixscan/mail.h"
#include "fixscan/thread.h"

#include "repo-builder.h"

#define SERVER_SCRIPT "tests/e2e/lore-server.sh"

/* The repository, the review's mails and the server of the stage tests. */
static struct {
	struct repo *r;
	int base, u1, u2, u3, other, fix2, s1;
	struct fs_index *idx;
	char *mails;            /* directory of the mail files */
	char *root;             /* "http://127.0.0.1:PORT/" */
	pid_t pid;
	struct fs_patch *p1, *p2, *reply;
	bool skip;
} T;

static void write_mail(const char *name, const char *from, const char *date, const char *id,
		       const char *subject, const char *body)
{
	char *path = g_build_filename(T.mails, name, NULL);
	char *text = g_strdup_printf("From: %s\nTo: list@lists.example.org\nSubject: %s\n"
				     "Date: %s\nMessage-Id: <%s>\n\n%s", from, subject, date, id, body);

	assert_true(g_file_set_contents(path, text, -1, NULL));
	g_free(text);
	g_free(path);
}

static struct fs_patch *parse(const char *name)
{
	char *path = g_build_filename(T.mails, name, NULL);
	struct fs_patch *p = NULL;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	g_free(path);
	return p;
}

#define POSTER "Poster <poster@example.org>"
#define RITA "Rita Reviewer <rita@example.org>"
#define REVIEW_DATE "Tue, 13 Feb 2024 10:00:00 +0000"
#define LATER "Thu, 15 Feb 2024 10:00:00 +0000"
#define EARLIER "Mon, 12 Feb 2024 10:00:00 +0000"

/* The mails: the review's two patches and a reply (in the archive too),
 * and what the archive has besides. */
static void make_mails(void)
{
	char *u1 = g_strdup(id(T.r, T.u1)), *u2 = g_strdup(id(T.r, T.u2));
	char *b;

	/* the series under review */
	b = g_strdup_printf("commit %s upstream.\n\nAdd the frob.\n", u1);
	write_mail("p1", "Greg <greg@example.org>", REVIEW_DATE, "p1@review", "[PATCH 6.1 1/2] usb: frob: add the frob", b);
	g_free(b);
	b = g_strdup_printf("commit %s upstream.\n\nAdd the widget.\n", u2);
	write_mail("p2", "Greg <greg@example.org>", REVIEW_DATE, "p2@review", "[PATCH 6.1 2/2] net: add the widget", b);
	g_free(b);
	b = g_strdup_printf("After %.12s the board hangs.\n", u1);
	write_mail("reply", POSTER, LATER, "reply@review", "Re: [PATCH 6.1 1/2] usb: frob: add the frob", b);
	g_free(b);
	/* a fix posted, and one mainline has: both patch mails to read */
	b = g_strdup_printf("The frob broke.\n\nFixes: %.12s (\"usb: frob: add the frob\")\n", u1);
	write_mail("fix1", POSTER, LATER, "fix1@lists", "[PATCH] usb: frob: fix the frob", b);
	g_free(b);
	b = g_strdup_printf("Fixes: %.12s (\"net: add the widget\")\n", u2);
	write_mail("fix2", POSTER, EARLIER, "fix2@lists", "[PATCH] net: fix the widget", b);
	g_free(b);
	/* the fix quoted: not the poster's words, and the server knows it */
	b = g_strdup_printf("> Fixes: %.12s (\"usb: frob: add the frob\")\n\nLooks good.\n", u1);
	write_mail("quoted", POSTER, LATER, "quoted@lists", "Re: [PATCH] usb: frob: fix the frob", b);
	g_free(b);
	/* reports: regzbot, a sentence; a mere mention; the user's own */
	b = g_strdup_printf("The frob fails on 6.6.5.\n\n#regzbot introduced: %.12s\n", u1);
	write_mail("reg1", POSTER, LATER, "reg1@lists", "[REGRESSION] 6.6.5: frob fails", b);
	g_free(b);
	b = g_strdup_printf("Hi,\n\nsince commit %s (\"net: add the widget\") the link fails\n"
			    "every minute.\n", u2);
	write_mail("reg2", POSTER, EARLIER, "reg2@lists", "link drops", b);
	g_free(b);
	b = g_strdup_printf("Please also pick %.12s for 6.1, it is a nice change.\n", u2);
	write_mail("mention", POSTER, LATER, "mention@lists", "widget for stable", b);
	g_free(b);
	b = g_strdup_printf("#regzbot introduced: %.12s\n", u2);
	write_mail("own", RITA, LATER, "own@lists", "widget regression", b);
	g_free(b);
	/* backports: for 6.1 after the review, for 6.1 before it, for 6.6 */
	b = g_strdup_printf("commit %s upstream.\n\nA corrected backport.\n", u1);
	write_mail("back1", POSTER, LATER, "back1@lists", "[PATCH 6.1.y] usb: frob: add the frob", b);
	write_mail("back0", POSTER, EARLIER, "back0@lists", "[PATCH 6.1.y] usb: frob: add the frob", b);
	write_mail("back66", POSTER, LATER, "back66@lists", "[PATCH 6.6.y] usb: frob: add the frob", b);
	g_free(b);
	/* what the stable maintainers' tools post: left out by the query */
	b = g_strdup_printf("6.6-stable review patch.  If anyone has any objections, please let me know.\n\n"
			    "------------------\n\ncommit %s upstream.\n", u1);
	write_mail("review66", "Greg <greg@example.org>", LATER, "review66@lists",
		   "[PATCH 6.6 03/10] usb: frob: add the frob", b);
	g_free(b);
	b = g_strdup_printf("[ Upstream commit %s ]\n\nThe board hangs without it, says the bot.\n", u1);
	write_mail("autosel", "Sasha <sasha@example.org>", LATER, "autosel@lists",
		   "[PATCH AUTOSEL 6.1 02/05] usb: frob: add the frob", b);
	g_free(b);
	g_free(u1);
	g_free(u2);
}

static int stage_setup(void **state)
{
	struct fs_index_opts o = FS_INDEX_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	char *cmd, *log, *cwd;
	int i;

	if (system("command -v public-inbox-httpd >/dev/null 2>&1") != 0) {
		T.skip = true;
		return 0;
	}
	if (access(SERVER_SCRIPT, R_OK) < 0 || repo_env_setup("listmail") < 0)
		return -1;
	T.r = repo_new("kernel");
	T.base = commit(T.r, "master", 0, "base");
	T.u1 = commit(T.r, "master", T.base, "usb: frob: add the frob");
	T.u2 = commit(T.r, "master", T.u1, "net: add the widget");
	T.fix2 = commit(T.r, "master", T.u2, "net: fix the widget\n\nFixes: %.12s (\"net: add the widget\")",
			id(T.r, T.u2));
	T.s1 = commit(T.r, "linux-6.1.y", T.base, "usb: frob: add the frob\n\ncommit %s upstream.",
		      id(T.r, T.u1));
	repo_flush(T.r);
	o.repo_path = T.r->dir;
	o.threads = 1;
	if (fs_index_open(&T.idx, &o, NULL, &err) < 0) {
		fprintf(stderr, "fs_index_open: %s\n", err.message);
		return -1;
	}
	T.mails = g_strdup_printf("%s/mails", tmp_root);
	g_mkdir_with_parents(T.mails, 0700);
	make_mails();
	cwd = g_get_current_dir();
	cmd = g_strdup_printf("cd '%s' && sh '%s/" SERVER_SCRIPT "' inbox '%s/lore' linux-usb fix1 fix2 quoted "
			      "back1 back0 back66 review66 autosel reply >/dev/null && "
			      "sh '%s/" SERVER_SCRIPT "' inbox '%s/lore' regressions reg1 reg2 mention own >/dev/null",
			      T.mails, cwd, tmp_root, cwd, tmp_root);
	i = system(cmd);
	g_free(cmd);
	g_free(cwd);
	if (i != 0)
		return -1;
	cmd = g_strdup_printf("%s/lore", tmp_root);
	{
		pid_t parent = getpid();
		T.pid = fork();
		if (T.pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGTERM);
			if (getppid() != parent)
				_exit(1);
			execlp("sh", "sh", SERVER_SCRIPT, "run", cmd, (char *)NULL);
			_exit(127);
		}
	}
	log = g_strdup_printf("%s/httpd.log", cmd);
	for (i = 0; i < 600 && !T.root; i++) {
		gchar *text = NULL, *at;
		if (g_file_get_contents(log, &text, NULL, NULL) &&
		    (at = strstr(text, "# bound http://127.0.0.1:")) && strchr(at, '\n')) {
			at += strlen("# bound ");
			*strchr(at, '\n') = '\0';
			T.root = g_strdup_printf("%s/", at);
		}
		g_free(text);
		if (!T.root)
			g_usleep(50000);
	}
	g_free(log);
	g_free(cmd);
	if (!T.root)
		return -1;
	T.p1 = parse("p1");
	T.p2 = parse("p2");
	T.reply = parse("reply");
	return 0;
}

static int stage_teardown(void **state)
{
	if (T.skip)
		return 0;
	if (T.pid > 0) {
		kill(T.pid, SIGTERM);
		waitpid(T.pid, NULL, 0);
	}
	fs_patch_free(T.p1);
	fs_patch_free(T.p2);
	fs_patch_free(T.reply);
	fs_index_free(T.idx);
	repo_free(T.r);
	g_free(T.mails);
	g_free(T.root);
	return repo_env_teardown();
}

static fs_cid commit_of(int mark)
{
	fs_cid c;

	assert_int_equal(fs_index_resolve(T.idx, id(T.r, mark), &c, NULL), 0);
	return c;
}

/* "u1", "u2" or "?" for the commit C. */
static const char *commit_name(fs_cid c)
{
	return c == commit_of(T.u1) ? "u1" : c == commit_of(T.u2) ? "u2" : "?";
}

static int strcmp_ptr(gconstpointer a, gconstpointer b, gpointer data)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* What the archive says of the series, as "what:message-id:commit-mark"
 * lines, "patch:id" for the patch mails handed on for fixes. */
static char *found_text(const struct fs_listmail_found *f)
{
	GString *s = g_string_new("");
	size_t i;

	for (i = 0; i < f->npatches; i++)
		g_string_append_printf(s, "patch:%s %s\n", fs_patch_message_id(f->patches[i]),
				       f->patch_links[i]);
	for (i = 0; i < f->nreports; i++)
		g_string_append_printf(s, "report:%s:%s:%s %s\n", fs_patch_message_id(f->reports[i].mail),
				       commit_name(f->reports[i].upstream),
				       fs_culprit_how_name(f->reports[i].how), f->reports[i].link);
	for (i = 0; i < f->nbackports; i++)
		g_string_append_printf(s, "backport:%s:%s %s\n", fs_patch_message_id(f->backports[i].mail),
				       commit_name(f->backports[i].upstream), f->backports[i].link);
	return g_string_free(s, FALSE);
}

/* The Message-Ids an mbox file holds, sorted, space-separated. */
static char *ids_in(const char *mbox)
{
	struct fs_mail_reader *r = NULL;
	struct fs_patch *p;
	GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
	char *out;

	if (mbox && fs_mail_reader_open(&r, mbox, NULL) == 0) {
		while (fs_mail_reader_next(r, &p, NULL) == 1) {
			g_ptr_array_add(v, g_strdup(fs_patch_message_id(p)));
			fs_patch_free(p);
		}
		fs_mail_reader_free(r);
	}
	g_ptr_array_sort_with_data(v, (GCompareDataFunc)(void *)strcmp_ptr, NULL);
	g_ptr_array_add(v, NULL);
	out = g_strjoinv(" ", (char **)v->pdata);
	g_ptr_array_free(v, TRUE);
	return out;
}

static struct fs_archive *stage_client(void)
{
	struct fs_archive_opts o = FS_ARCHIVE_OPTS_INIT;
	struct fs_archive *c = NULL;
	struct fs_error err = FS_ERROR_INIT;
	char *dir = g_strdup_printf("%s/lore-cache", tmp_root);

	o.cache_dir = dir;
	assert_int_equal(fs_archive_open(&c, &o, &err), 0);
	g_free(dir);
	return c;
}

/* The tail leaves out the stable maintainers' mails, and only those. */
static void test_stage_tail(void **state)
{
	struct fs_archive *c;
	char *base, *q, *mbox = NULL, *ids;

	if (T.skip)
		skip();
	c = stage_client();
	base = g_strdup_printf("%sall/", T.root);
	q = g_strdup_printf("(nq:%.12s*)", id(T.r, T.u1));
	assert_int_equal(fs_archive_search(c, base, q, &mbox, NULL, NULL), 0);
	ids = ids_in(mbox);
	assert_string_equal(ids, "autosel@lists back0@lists back1@lists back66@lists fix1@lists "
				 "reg1@lists reply@review review66@lists");
	g_free(ids);
	g_free(mbox);
	g_free(q);
	q = g_strdup_printf("(nq:%.12s*) %s", id(T.r, T.u1), fs_listmail_tail);
	assert_int_equal(fs_archive_search(c, base, q, &mbox, NULL, NULL), 0);
	ids = ids_in(mbox);
	assert_string_equal(ids, "back0@lists back1@lists back66@lists fix1@lists reg1@lists "
				 "reply@review");
	g_free(ids);
	g_free(mbox);
	g_free(q);
	g_free(base);
	fs_archive_free(c);
}

/* One series, two bases: every kind of mail the archive has, each
 * counted once, the rest left out; a second run asks nothing. */
static void test_stage(void **state)
{
	const struct fs_patch *patches[2], *replies[1];
	const char *own[] = { "rita@example.org", NULL };
	struct fs_thread_series series;
	struct fs_listmail_want want[3];
	struct fs_listmail_ask ask;
	char *bases[3], *want_text, *got;
	int run_no;

	if (T.skip)
		skip();
	memset(&series, 0, sizeof(series));
	patches[0] = T.p1;
	patches[1] = T.p2;
	replies[0] = T.reply;
	series.patches = patches;
	series.npatches = 2;
	series.replies = replies;
	series.nreplies = 1;
	want[0].upstream = commit_of(T.u1);
	want[0].posted = fs_patch_time(T.p1);
	want[1].upstream = commit_of(T.u2);
	want[1].posted = fs_patch_time(T.p2);
	want[2].upstream = FS_CID_NONE; /* a patch without one */
	want[2].posted = 0;
	bases[0] = g_strdup_printf("%slinux-usb/", T.root);
	bases[1] = g_strdup_printf("%sall/", T.root);
	bases[2] = NULL;
	want_text = g_strdup_printf("patch:fix2@lists %slinux-usb/fix2@lists/\n"
				    "patch:fix1@lists %slinux-usb/fix1@lists/\n"
				    "report:reg1@lists:u1:regzbot %sall/reg1@lists/\n"
				    "report:reg2@lists:u2:caused %sall/reg2@lists/\n"
				    "backport:back1@lists:u1 %slinux-usb/back1@lists/\n",
				    T.root, T.root, T.root, T.root, T.root);
	for (run_no = 0; run_no < 2; run_no++) {
		struct fs_listmail_found f = FS_LISTMAIL_FOUND_INIT;
		struct fs_error err = FS_ERROR_INIT;

		memset(&ask, 0, sizeof(ask));
		ask.client = stage_client();
		ask.bases = (const char *const *)bases;
		ask.idx = T.idx;
		ask.series = &series;
		ask.version = "6.1";
		ask.own = own;
		assert_int_equal(fs_listmail_review(&f, &ask, want, 3, &err), 0);
		got = found_text(&f);
		assert_string_equal(got, want_text);
		g_free(got);
		/* One query per base; the second run from the cache. */
		assert_int_equal(f.searches, 2);
		assert_int_equal(fs_archive_requests(ask.client), run_no ? 0 : 2);
		assert_null(fs_archive_failure(ask.client, NULL));
		fs_listmail_found_clear(&f);
		fs_archive_free(ask.client);
	}
	g_free(want_text);
	g_free(bases[0]);
	g_free(bases[1]);
}

static void test_link(void **state)
{
	char *l = fs_listmail_link("https://lore.kernel.org/all/", "a/b%c?d#e f\x1b@x.org");

	assert_string_equal(l, "https://lore.kernel.org/all/a%2Fb%25c%3Fd%23e%20f%1B@x.org/");
	g_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_link),
		cmocka_unit_test_setup_teardown(test_stage_tail, NULL, NULL),
		cmocka_unit_test(test_stage),
	};

	return cmocka_run_group_tests(tests, stage_setup, stage_teardown);
}

