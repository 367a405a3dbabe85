/* What the unit tests of the review module share (test-review.c,
 * test-review-pending.c): a notmuch store in a temporary directory with a
 * sample review thread, made once per group, and helpers to add mails,
 * build repositories and list findings.  Each test file uses only some
 * of it. */
#ifndef FIXSCAN_TEST_REVIEW_STORE_H
#define FIXSCAN_TEST_REVIEW_STORE_H

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
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/config.h"
#include "fixscan/findings.h"
#include "fixscan/index.h"
#include "fixscan/ignore.h"
#include "fixscan/mentions.h"
#include "fixscan/review.h"
#include "fixscan/store.h"
#include "fixscan/thread.h"
#include "review/mentions-private.h"

static char tmpdir[256];
static char mailroot[320];

#define COVER "<cover.1@example.org>"
#define P1 "<p1.2@example.org>"
#define P2 "<p2.3@example.org>"

static const struct sample {
	const char *file;
	const char *text;
} samples[] = {
	{ "stable/cur/1.host:2,S",
	  "From: Greg <greg@example.org>\nTo: stable@example.org\n"
	  "Subject: [PATCH 4.4 00/02] 4.4.11-stable review\n"
	  "Date: Tue, 14 Nov 2023 22:00:00 +0000\nMessage-Id: " COVER "\n\n"
	  "This is the start of the stable review cycle for the 4.4.11 release.\n" },
	{ "stable/cur/2.host:2,S",
	  "From: Greg <greg@example.org>\nTo: stable@example.org\n"
	  "Subject: [PATCH 4.4 01/02] net: fix one\n"
	  "Date: Tue, 14 Nov 2023 22:00:01 +0000\nMessage-Id: " P1 "\n"
	  "In-Reply-To: " COVER "\nReferences: " COVER "\n\n"
	  "commit 1111111111111111111111111111111111111111 upstream.\n" },
	{ "stable/cur/3.host:2,S",
	  "From: Greg <greg@example.org>\nTo: stable@example.org\n"
	  "Subject: [PATCH 4.4 02/02] net: fix two\n"
	  "Date: Tue, 14 Nov 2023 22:00:02 +0000\nMessage-Id: " P2 "\n"
	  "In-Reply-To: " COVER "\nReferences: " COVER "\n\n"
	  "commit 2222222222222222222222222222222222222222 upstream.\n" },
	/* The reviewer's unsent reply: no part of the discussion. */
	{ "Drafts/cur/4.host:2,D",
	  "From: Rita <rita@example.org>\nTo: greg@example.org\n"
	  "Subject: Re: [PATCH 4.4 01/02] net: fix one\n"
	  "Date: Tue, 14 Nov 2023 23:00:00 +0000\nMessage-Id: <draft.4@example.org>\n"
	  "In-Reply-To: " P1 "\nReferences: " COVER " " P1 "\n\n"
	  "Please drop this one.\n" },
	/* A reply that objects. */
	{ "stable/cur/5.host:2,S",
	  "From: Bo <bo@example.org>\nTo: greg@example.org\n"
	  "Subject: Re: [PATCH 4.4 02/02] net: fix two\n"
	  "Date: Wed, 15 Nov 2023 08:00:00 +0000\nMessage-Id: <reply.5@example.org>\n"
	  "In-Reply-To: " P2 "\nReferences: " COVER " " P2 "\n\n"
	  "> commit 2222 upstream.\n\nThis breaks the build on arm.\n" },
};
#define NSAMPLES (sizeof(samples) / sizeof(samples[0]))

__attribute__((unused)) static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

__attribute__((unused)) static void make_maildir(const char *sub)
{
	static const char *const parts[] = { "", "/cur", "/new", "/tmp" };
	char path[512];
	size_t i;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", mailroot, sub, parts[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
	}
}

__attribute__((unused)) static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

__attribute__((unused)) static int group_setup(void **state)
{
	char path[512], text[1024];
	size_t i;

	strcpy(tmpdir, "/tmp/fixscan-test-review.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(mailroot, sizeof(mailroot), "%s/mail", tmpdir);
	if (mkdir(mailroot, 0755))
		return -1;
	make_maildir("stable");
	make_maildir("Drafts");
	for (i = 0; i < NSAMPLES; i++) {
		snprintf(path, sizeof(path), "%s/%s", mailroot, samples[i].file);
		write_file(path, samples[i].text);
	}
	snprintf(path, sizeof(path), "%s/notmuch-config", tmpdir);
	snprintf(text, sizeof(text), "[database]\npath=%s\n\n[new]\ntags=inbox;\n", mailroot);
	write_file(path, text);
	setenv("NOTMUCH_CONFIG", path, 1);
	setenv("HOME", tmpdir, 1);
	setenv("XDG_CONFIG_HOME", tmpdir, 1);
	unsetenv("NOTMUCH_DATABASE");
	unsetenv("NOTMUCH_PROFILE");
	unsetenv("GIT_CONFIG_GLOBAL");
	unsetenv("GIT_CONFIG_SYSTEM");
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	if (system("notmuch new --quiet >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test-review: 'notmuch new' failed; is notmuch installed?\n");
		return -1;
	}
	return 0;
}

__attribute__((unused)) static int group_teardown(void **state)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}

__attribute__((unused)) static struct fs_store *open_store(void)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_store *st = NULL;

	if (fs_store_open(&st, false, 1.0, &err))
		fail_msg("fs_store_open: %s", err.message);
	return st;
}

/* ---- the user's own mail and reports once per patch ------------------- */

__attribute__((unused)) static void sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
__attribute__((unused)) static void sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	if (system(cmd) != 0)
		fail_msg("command failed: %s", cmd);
}

__attribute__((unused)) static void write_mail(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
__attribute__((unused)) static void write_mail(const char *file, const char *fmt, ...)
{
	char path[512], *text = NULL;
	va_list ap;

	va_start(ap, fmt);
	assert_true(vasprintf(&text, fmt, ap) >= 0);
	va_end(ap);
	snprintf(path, sizeof(path), "%s/%s", mailroot, file);
	write_file(path, text);
	free(text);
}

/* The message ids of R's findings of KIND on patch K, sorted, joined. */
__attribute__((unused)) static char *finding_ids(const struct fs_review *r, size_t k, enum fs_finding_kind kind)
{
	static char buf[512];
	const struct fs_findings *f = &r->patches[k].findings;
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < f->n; i++) {
		if (f->v[i].kind != kind)
			continue;
		if (buf[0])
			strcat(buf, " ");
		strcat(buf, f->v[i].mail.message_id ? f->v[i].mail.message_id : "(none)");
	}
	return buf;
}

#endif
