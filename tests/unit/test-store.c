/* Unit tests for src/store.c, against a real notmuch database.
 *
 * The group setup writes a small maildir and a notmuch config file into a
 * temporary directory, points NOTMUCH_CONFIG (and HOME, XDG_CONFIG_HOME,
 * so no hook or config of the developer's can interfere) at it, and runs
 * the real "notmuch new".  The messages are invented for these tests.
 * Tests that change the database (indexing, locking) run last.
 */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <signal.h>
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
#include <notmuch.h>

#include "fixscan/store.h"

static char tmpdir[256];
static char mailroot[320];
static char config[320];

/* The sample messages, oldest first.  M2 replies to M1; M4 has quotes in
 * its subject and in its Message-Id; M3 has an encoded-word subject and
 * sits in new/. */
#define M1 "cover.1700000001@example.org"
#define M2 "reply.1700000002@example.org"
#define M3 "other.1700000003@example.net"
#define M4 "\"odd.id\"@example.org"
#define DRAFT "draft.1700000009@example.org"

static const struct sample {
	const char *file; /* under the mail root */
	const char *text;
} samples[] = {
	{ "inbox/cur/1700000001.1.host:2,S",
	  "From: Ada Quill <ada.quill@example.org>\n"
	  "To: stable@example.org\n"
	  "Subject: [PATCH 4.4 00/02] 4.4.175-stable review\n"
	  "Date: Tue, 14 Nov 2023 22:13:21 +0000\n"
	  "Message-Id: <" M1 ">\n"
	  "\n"
	  "This is the start of the stable review cycle.\n" },
	{ "inbox/cur/1700000002.2.host:2,S",
	  "From: Bo Reviewer <bo@example.org>\n"
	  "To: Ada Quill <ada.quill@example.org>\n"
	  "Subject: Re: [PATCH 4.4 00/02] 4.4.175-stable review\n"
	  "Date: Wed, 15 Nov 2023 08:00:00 +0000\n"
	  "Message-Id: <" M2 ">\n"
	  "In-Reply-To: <" M1 ">\n"
	  "References: <" M1 ">\n"
	  "\n"
	  "Builds and boots here.\n" },
	{ "lists/new/1700000003.3.host",
	  "From: =?UTF-8?Q?Z=C3=B6e?= Example <zoe@example.net>\n"
	  "To: list@example.net\n"
	  "Subject: =?UTF-8?Q?caf=C3=A9_regression?=\n"
	  "Date: Thu, 16 Nov 2023 09:30:00 +0000\n"
	  "Message-Id: <" M3 ">\n"
	  "\n"
	  "Something broke.\n" },
	{ "lists/cur/1700000004.4.host:2,S",
	  "From: Cy <cy@example.org>\n"
	  "To: list@example.org\n"
	  "Subject: a \"quoted\" word\n"
	  "Date: Fri, 17 Nov 2023 10:00:00 +0000\n"
	  "Message-Id: <" M4 ">\n"
	  "\n"
	  "Quotes everywhere.\n" },
};

#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

static void make_dirs(const char *base, const char *sub)
{
	char path[512];
	const char *parts[] = { "", "/cur", "/new", "/tmp" };
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", base, sub, parts[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
	}
}

static int rm_one(const char *path, const struct stat *sb, int flag,
		  struct FTW *ftw)
{
	return remove(path);
}

/* Point NOTMUCH_CONFIG at CFG (a file name under tmpdir). */
static void use_config(const char *cfg)
{
	assert_int_equal(setenv("NOTMUCH_CONFIG", cfg, 1), 0);
}

static int group_setup(void **state)
{
	char path[512], text[1024];
	size_t i;

	strcpy(tmpdir, "/tmp/fixscan-test-store.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(mailroot, sizeof(mailroot), "%s/mail", tmpdir);
	snprintf(config, sizeof(config), "%s/notmuch-config", tmpdir);
	if (mkdir(mailroot, 0755))
		return -1;
	make_dirs(mailroot, "inbox");
	make_dirs(mailroot, "lists");
	for (i = 0; i < NSAMPLES; i++) {
		snprintf(path, sizeof(path), "%s/%s", mailroot, samples[i].file);
		write_file(path, samples[i].text);
	}
	snprintf(text, sizeof(text),
		 "[database]\npath=%s\n\n"
		 "[user]\nname=Test User\nprimary_email=test@example.org\n\n"
		 "[new]\ntags=unread;inbox;\n\n"
		 "[fixscan]\ndrafts=%s/Drafts\n",
		 mailroot, mailroot);
	write_file(config, text);

	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	setenv("XDG_DATA_HOME", tmpdir, 1);
	unsetenv("NOTMUCH_DATABASE");
	unsetenv("NOTMUCH_PROFILE");
	use_config(config);
	if (system("notmuch new --quiet >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test-store: 'notmuch new' failed; is notmuch installed?\n");
		return -1;
	}
	return 0;
}

static int group_teardown(void **state)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

static struct fs_store *open_ro(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;
	int rc = fs_store_open(&st, false, 1.0, &err);

	if (rc)
		fail_msg("fs_store_open: %d %s", rc, err.message);
	assert_non_null(st);
	return st;
}

static void test_store__open_read_only(void **state)
{
	struct fs_store *st = open_ro();

	assert_string_equal(fs_store_path(st), mailroot);
	fs_store_free(st);
	fs_store_free(NULL);
}

static void test_store__config(void **state)
{
	struct fs_store *st = open_ro();
	char drafts[512];
	const char *v;

	snprintf(drafts, sizeof(drafts), "%s/Drafts", mailroot);
	assert_string_equal(fs_store_config(st, "user.name"), "Test User");
	assert_string_equal(fs_store_config(st, "user.primary_email"),
			    "test@example.org");
	v = fs_store_config(st, "fixscan.drafts");
	assert_non_null(v);
	assert_string_equal(v, drafts);
	/* Borrowed and cached: the same pointer the second time. */
	assert_ptr_equal(fs_store_config(st, "fixscan.drafts"), v);
	assert_string_equal(fs_store_config(st, "database.path"), mailroot);
	assert_null(fs_store_config(st, "fixscan.no-such-key"));
	assert_null(fs_store_config(st, "fixscan.no-such-key"));
	assert_null(fs_store_config(st, "nosection.nokey"));
	fs_store_free(st);
}

/* Without a [user] section notmuch guesses a name and an address; fixscan
 * must report them unset rather than send mail as root@localhost. */
static void test_store__config_user_unset(void **state)
{
	char cfg[512], text[600];
	struct fs_store *st;

	snprintf(cfg, sizeof(cfg), "%s/config-no-user", tmpdir);
	snprintf(text, sizeof(text), "[database]\npath=%s\n", mailroot);
	write_file(cfg, text);
	use_config(cfg);
	st = open_ro();
	assert_null(fs_store_config(st, "user.name"));
	assert_null(fs_store_config(st, "user.primary_email"));
	assert_null(fs_store_config(st, "fixscan.drafts"));
	assert_string_equal(fs_store_config(st, "database.path"), mailroot);
	fs_store_free(st);
	use_config(config);
}

static void test_store__search(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store *st = open_ro();
	size_t i, count = 0;

	assert_int_equal(fs_store_search(st, "tag:inbox", &m, &err), 0);
	assert_int_equal(m.n, NSAMPLES);
	assert_string_equal(m.v[0].message_id, M1);
	assert_string_equal(m.v[1].message_id, M2);
	assert_string_equal(m.v[2].message_id, M3);
	assert_string_equal(m.v[3].message_id, M4);
	for (i = 0; i < m.n; i++) {
		assert_int_equal(access(m.v[i].filename, R_OK), 0);
		assert_int_equal(strlen(m.v[i].thread_id), 16);
		if (i)
			assert_true(m.v[i - 1].date < m.v[i].date);
	}
	/* Tue, 14 Nov 2023 22:13:21 +0000 */
	assert_int_equal(m.v[0].date, 1700000001);
	assert_string_equal(m.v[0].subject,
			    "[PATCH 4.4 00/02] 4.4.175-stable review");
	assert_string_equal(m.v[0].from, "Ada Quill <ada.quill@example.org>");
	/* Encoded words come back decoded. */
	assert_string_equal(m.v[2].subject, "caf\xc3\xa9 regression");
	assert_string_equal(m.v[2].from, "Z\xc3\xb6" "e Example <zoe@example.net>");
	assert_string_equal(m.v[3].subject, "a \"quoted\" word");
	fs_store_messages_free(&m);
	assert_null(m.v);
	assert_int_equal(m.n, 0);

	assert_int_equal(fs_store_search(st, "from:ada.quill@example.org", &m,
					 &err), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].message_id, M1);
	fs_store_messages_free(&m);

	assert_int_equal(fs_store_search(st, "from:nobody@nowhere.invalid",
					 &m, &err), 0);
	assert_int_equal(m.n, 0);
	fs_store_messages_free(&m);
	fs_store_messages_free(NULL);

	/* A count is what the search finds, without reading a message. */
	assert_int_equal(fs_store_count(st, "tag:inbox", &count, &err), 0);
	assert_int_equal(count, NSAMPLES);
	assert_int_equal(fs_store_count(st, "from:ada.quill@example.org", &count, &err), 0);
	assert_int_equal(count, 1);
	assert_int_equal(fs_store_count(st, "from:nobody@nowhere.invalid", &count, &err), 0);
	assert_int_equal(count, 0);
	fs_store_free(st);
}

/* A user's search.exclude_tags must not hide anything from fixscan. */
static void test_store__search_ignores_excludes(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	char cfg[512], text[600];
	struct fs_store *st;

	snprintf(cfg, sizeof(cfg), "%s/config-exclude", tmpdir);
	snprintf(text, sizeof(text),
		 "[database]\npath=%s\n[search]\nexclude_tags=inbox;\n",
		 mailroot);
	write_file(cfg, text);
	use_config(cfg);
	st = open_ro();
	assert_int_equal(fs_store_search(st, "*", &m, &err), 0);
	assert_true(m.n >= NSAMPLES);
	fs_store_messages_free(&m);
	fs_store_free(st);
	use_config(config);
}

static void free_ids(char **ids)
{
	g_strfreev(ids);
}

static void test_store__threads(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store *st = open_ro();
	char **ids = NULL;
	size_t n;

	assert_int_equal(fs_store_search(st, "tag:inbox", &m, &err), 0);
	assert_int_equal(m.n, NSAMPLES);
	/* The reply threads with its parent, the others stand alone. */
	assert_string_equal(m.v[0].thread_id, m.v[1].thread_id);
	assert_string_not_equal(m.v[0].thread_id, m.v[2].thread_id);
	assert_string_not_equal(m.v[2].thread_id, m.v[3].thread_id);

	assert_int_equal(fs_store_threads(st, "tag:inbox", &ids, &err), 0);
	for (n = 0; ids[n]; n++)
		;
	assert_int_equal(n, 3);
	/* Oldest first. */
	assert_string_equal(ids[0], m.v[0].thread_id);
	assert_string_equal(ids[1], m.v[2].thread_id);
	assert_string_equal(ids[2], m.v[3].thread_id);
	free_ids(ids);

	assert_int_equal(fs_store_threads(st, "id:" M2, &ids, &err), 0);
	assert_non_null(ids[0]);
	assert_string_equal(ids[0], m.v[0].thread_id);
	assert_null(ids[1]);
	free_ids(ids);

	assert_int_equal(fs_store_threads(st, "from:nobody@nowhere.invalid",
					  &ids, &err), 0);
	assert_non_null(ids);
	assert_null(ids[0]);
	free_ids(ids);
	fs_store_messages_free(&m);
	fs_store_free(st);
}

static void test_store__thread(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_message one = { 0 };
	struct fs_store_messages m = { 0 };
	struct fs_store *st = open_ro();
	char prefixed[64];

	assert_int_equal(fs_store_find_message(st, M2, &one, &err), 0);
	assert_int_equal(fs_store_thread(st, one.thread_id, &m, &err), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(m.v[0].message_id, M1);
	assert_string_equal(m.v[1].message_id, M2);
	fs_store_messages_free(&m);

	snprintf(prefixed, sizeof(prefixed), "thread:%s", one.thread_id);
	assert_int_equal(fs_store_thread(st, prefixed, &m, &err), 0);
	assert_int_equal(m.n, 2);
	fs_store_messages_free(&m);

	assert_int_equal(fs_store_thread(st, "ffffffffffffffff", &m, &err), 0);
	assert_int_equal(m.n, 0);
	fs_store_messages_free(&m);
	fs_store_message_clear(&one);
	fs_store_free(st);
}

static void test_store__find_message(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_message m = { 0 };
	struct fs_store *st = open_ro();

	assert_int_equal(fs_store_find_message(st, M3, &m, &err), 0);
	assert_string_equal(m.message_id, M3);
	assert_string_equal(m.subject, "caf\xc3\xa9 regression");
	assert_non_null(strstr(m.filename, "/lists/new/"));
	fs_store_message_clear(&m);
	assert_null(m.message_id);

	/* Callers may leave "id:" or <> on. */
	assert_int_equal(fs_store_find_message(st, "<" M1 ">", &m, &err), 0);
	assert_string_equal(m.message_id, M1);
	fs_store_message_clear(&m);
	assert_int_equal(fs_store_find_message(st, "id:" M4, &m, &err), 0);
	assert_string_equal(m.message_id, M4);
	fs_store_message_clear(&m);

	assert_int_equal(fs_store_find_message(st, "missing@example.org", &m,
					       &err), FS_ENOTFOUND);
	assert_int_equal(err.code, FS_ENOTFOUND);
	assert_non_null(strstr(err.message, "'missing@example.org'"));
	assert_null(m.message_id);
	fs_store_message_clear(&m);
	fs_store_free(st);
}

static void test_store__quote(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store *st;
	char *q, *query;

	q = fs_store_quote("plain");
	assert_string_equal(q, "\"plain\"");
	g_free(q);
	q = fs_store_quote("");
	assert_string_equal(q, "\"\"");
	g_free(q);
	q = fs_store_quote("a \"b\" c");
	assert_string_equal(q, "\"a \"\"b\"\" c\"");
	g_free(q);
	q = fs_store_quote("\"");
	assert_string_equal(q, "\"\"\"\"");
	g_free(q);

	/* A quoted id with quotes inside finds exactly its message. */
	st = open_ro();
	q = fs_store_quote(M4);
	assert_int_equal(asprintf(&query, "id:%s", q) > 0, 1);
	assert_int_equal(fs_store_search(st, query, &m, &err), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].message_id, M4);
	fs_store_messages_free(&m);
	free(query);
	g_free(q);

	/* And a quoted subject phrase. */
	q = fs_store_quote("a \"quoted\" word");
	assert_int_equal(asprintf(&query, "subject:%s", q) > 0, 1);
	assert_int_equal(fs_store_search(st, query, &m, &err), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].message_id, M4);
	fs_store_messages_free(&m);
	free(query);
	g_free(q);
	fs_store_free(st);
}

static void test_store__bad_query(void **state)
{
	static const char *const bad[] = {
		"review AND", "date:garbage..", "NOT",
	};
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store *st = open_ro();
	char **ids = (char **)&err; /* must be reset to NULL */
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fs_error_clear(&err);
		assert_int_equal(fs_store_search(st, bad[i], &m, &err),
				 FS_EUSAGE);
		assert_int_equal(err.code, FS_EUSAGE);
		assert_non_null(strstr(err.message, bad[i]));
		assert_null(strchr(err.message, '\n'));
		assert_int_equal(m.n, 0);
		fs_store_messages_free(&m);

		fs_error_clear(&err);
		assert_int_equal(fs_store_threads(st, bad[i], &ids, &err),
				 FS_EUSAGE);
		assert_null(ids);
		assert_non_null(strstr(err.message, bad[i]));
	}
	/* The store still works afterwards. */
	assert_int_equal(fs_store_search(st, "tag:inbox", &m, &err), 0);
	assert_int_equal(m.n, NSAMPLES);
	fs_store_messages_free(&m);
	fs_store_free(st);
}

static void test_store__missing_database(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = (struct fs_store *)&err;
	char cfg[512], text[700], dir[512];
	int rc;

	/* database.path does not exist. */
	snprintf(cfg, sizeof(cfg), "%s/config-missing", tmpdir);
	snprintf(dir, sizeof(dir), "%s/no-such-dir", tmpdir);
	snprintf(text, sizeof(text), "[database]\npath=%s\n", dir);
	write_file(cfg, text);
	use_config(cfg);
	rc = fs_store_open(&st, false, 0.5, &err);
	assert_int_equal(rc, FS_ENOTFOUND);
	assert_null(st);
	assert_non_null(strstr(err.message, dir));
	assert_null(strchr(err.message, '\n'));

	/* It exists but holds no database. */
	snprintf(dir, sizeof(dir), "%s/inbox", mailroot);
	snprintf(text, sizeof(text), "[database]\npath=%s\n", dir);
	write_file(cfg, text);
	fs_error_clear(&err);
	rc = fs_store_open(&st, true, 0.5, &err);
	assert_int_equal(rc, FS_ENOTFOUND);
	assert_null(st);
	assert_non_null(strstr(err.message, dir));
	assert_non_null(strstr(err.message, "notmuch new"));

	/* No config file at all. */
	snprintf(cfg, sizeof(cfg), "%s/no-such-config", tmpdir);
	use_config(cfg);
	fs_error_clear(&err);
	rc = fs_store_open(&st, false, 0.5, &err);
	assert_int_equal(rc, FS_ENOTFOUND);
	assert_null(st);
	assert_non_null(strstr(err.message, cfg));
	use_config(config);
}

static void write_draft(char *path, size_t size)
{
	char dir[512];

	snprintf(dir, sizeof(dir), "%s", mailroot);
	make_dirs(dir, "Drafts");
	snprintf(path, size, "%s/Drafts/cur/1700000009.9.host:2,D", mailroot);
	write_file(path,
		   "From: Test User <test@example.org>\n"
		   "To: Ada Quill <ada.quill@example.org>\n"
		   "Subject: Re: [PATCH 4.4 00/02] 4.4.175-stable review\n"
		   "Date: Sat, 18 Nov 2023 12:00:00 +0000\n"
		   "Message-Id: <" DRAFT ">\n"
		   "In-Reply-To: <" M1 ">\n"
		   "References: <" M1 ">\n"
		   "\n"
		   "A draft reply.\n");
}

static void test_store__index_file(void **state)
{
	static const char *const tags[] = { "draft", "fixscan", NULL };
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store_message cover = { 0 };
	struct fs_store *st = NULL;
	char path[512], junk[512];
	int rc;

	write_draft(path, sizeof(path));

	/* A read-only store refuses. */
	st = open_ro();
	assert_int_equal(fs_store_index_file(st, path, tags, &err), FS_ESTORE);
	assert_non_null(strstr(err.message, "read-only"));
	fs_store_free(st);

	rc = fs_store_open(&st, true, 1.0, &err);
	if (rc)
		fail_msg("writable open: %s", err.message);
	assert_int_equal(fs_store_index_file(st, path, tags, &err), 0);
	/* Again: idempotent, no second message, no error. */
	assert_int_equal(fs_store_index_file(st, path, tags, &err), 0);
	/* With no tags at all. */
	assert_int_equal(fs_store_index_file(st, path, NULL, &err), 0);

	/* Not a mail. */
	snprintf(junk, sizeof(junk), "%s/Drafts/cur/junk:2,", mailroot);
	write_file(junk, "\x01\x02 not a mail at all\n");
	fs_error_clear(&err);
	rc = fs_store_index_file(st, junk, tags, &err);
	assert_int_equal(rc, FS_ESTORE);
	assert_non_null(strstr(err.message, junk));
	unlink(junk);

	/* Outside the mail root. */
	snprintf(junk, sizeof(junk), "%s/outside.eml", tmpdir);
	write_file(junk, "From: a@b\nSubject: x\nMessage-Id: <x@y>\n\nx\n");
	fs_error_clear(&err);
	assert_int_equal(fs_store_index_file(st, junk, tags, &err), FS_ESTORE);
	assert_non_null(strstr(err.message, junk));
	assert_non_null(strstr(err.message, "not inside the mail root"));
	unlink(junk);

	/* Missing. */
	snprintf(junk, sizeof(junk), "%s/Drafts/cur/gone:2,D", mailroot);
	fs_error_clear(&err);
	assert_int_equal(fs_store_index_file(st, junk, tags, &err), FS_ESTORE);
	assert_non_null(strstr(err.message, "No such file or directory"));
	fs_store_free(st);

	/* Committed on free: a fresh read-only store sees it, tagged, once,
	 * and threaded under the message it replies to. */
	st = open_ro();
	assert_int_equal(fs_store_search(st, "tag:fixscan and tag:draft", &m,
					 &err), 0);
	assert_int_equal(m.n, 1);
	assert_string_equal(m.v[0].message_id, DRAFT);
	assert_string_equal(m.v[0].filename, path);
	assert_int_equal(fs_store_find_message(st, M1, &cover, &err), 0);
	assert_string_equal(m.v[0].thread_id, cover.thread_id);
	fs_store_message_clear(&cover);
	fs_store_messages_free(&m);
	assert_int_equal(fs_store_search(st, "id:" DRAFT, &m, &err), 0);
	assert_int_equal(m.n, 1);
	fs_store_messages_free(&m);
	fs_store_free(st);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Fork a child that opens the database read-write, says so on a pipe,
 * and holds it until the parent closes *RELEASE (or HOLD seconds pass). */
static pid_t hold_lock(int *release, double hold)
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
		struct timespec ts;

		close(ready[0]);
		close(rel[1]);
		if (notmuch_database_open_with_config(NULL,
				NOTMUCH_DATABASE_MODE_READ_WRITE, NULL, NULL,
				&db, &msg) != NOTMUCH_STATUS_SUCCESS)
			_exit(3);
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		if (hold > 0) {
			ts.tv_sec = (time_t)hold;
			ts.tv_nsec = (long)((hold - ts.tv_sec) * 1e9);
			nanosleep(&ts, NULL);
		} else {
			/* Until the parent closes its end. */
			while (read(rel[0], &c, 1) > 0)
				;
		}
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

static void reap(pid_t pid)
{
	int status = 0;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

/* What fs_store_open_waiting() told. */
struct waited {
	int calls;
	char lock[512];
	double wait;
};

static void on_wait(void *data, const char *lock, double wait)
{
	struct waited *w = data;

	w->calls++;
	snprintf(w->lock, sizeof(w->lock), "%s", lock);
	w->wait = wait;
}

static void test_store__locked(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store_messages m = { 0 };
	struct fs_store *st = NULL;
	int release;
	pid_t pid;
	double t0, dt;
	int rc;

	pid = hold_lock(&release, 0);

	t0 = now();
	rc = fs_store_open(&st, true, 0.5, &err);
	dt = now() - t0;
	assert_int_equal(rc, FS_ELOCKED);
	assert_null(st);
	assert_true(dt >= 0.45);
	assert_true(dt < 1.5);
	assert_non_null(strstr(err.message, "is locked by another process"));
	assert_non_null(strstr(err.message, mailroot));
	assert_non_null(strstr(err.message, "/.notmuch/xapian/flintlock')"));

	/* Whoever waits is told once, with the lock's file, before the wait. */
	{
		struct waited w = { 0, "", 0 };
		struct fs_store_waiting waiting = { on_wait, &w };

		rc = fs_store_open_waiting(&st, true, 0.3, &waiting, &err);
		assert_int_equal(rc, FS_ELOCKED);
		assert_int_equal(w.calls, 1);
		assert_non_null(strstr(w.lock, mailroot));
		assert_non_null(strstr(w.lock, "/.notmuch/xapian/flintlock"));
		assert_true(w.wait > 0.29 && w.wait < 0.31);
	}

	/* No wait at all: one look, then the error. */
	t0 = now();
	assert_int_equal(fs_store_open(&st, true, 0, &err), FS_ELOCKED);
	assert_true(now() - t0 < 0.5);

	/* Readers are not blocked by a writer. */
	st = open_ro();
	assert_int_equal(fs_store_search(st, "tag:inbox", &m, &err), 0);
	assert_int_equal(m.n, NSAMPLES);
	fs_store_messages_free(&m);
	fs_store_free(st);
	st = NULL;

	close(release);
	reap(pid);

	rc = fs_store_open(&st, true, 0.5, &err);
	if (rc)
		fail_msg("writable open after release: %s", err.message);
	fs_store_free(st);
}

/* A lock released while fixscan waits: the open succeeds. */
static void test_store__lock_released_while_waiting(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;
	int release, rc;
	pid_t pid;
	double t0, dt;

	pid = hold_lock(&release, 0.4);
	t0 = now();
	rc = fs_store_open(&st, true, 5.0, &err);
	dt = now() - t0;
	if (rc)
		fail_msg("writable open: %s", err.message);
	assert_true(dt < 3.0);
	fs_store_free(st);
	close(release);
	reap(pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store__open_read_only),
		cmocka_unit_test(test_store__config),
		cmocka_unit_test(test_store__config_user_unset),
		cmocka_unit_test(test_store__search),
		cmocka_unit_test(test_store__search_ignores_excludes),
		cmocka_unit_test(test_store__threads),
		cmocka_unit_test(test_store__thread),
		cmocka_unit_test(test_store__find_message),
		cmocka_unit_test(test_store__quote),
		cmocka_unit_test(test_store__bad_query),
		cmocka_unit_test(test_store__missing_database),
		/* These change the database: last. */
		cmocka_unit_test(test_store__index_file),
		cmocka_unit_test(test_store__locked),
		cmocka_unit_test(test_store__lock_released_while_waiting),
	};

	/* A child holding the lock must not outlive a failed test's parent
	 * by writing to a closed pipe. */
	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
