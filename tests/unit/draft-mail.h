/* What the unit tests of the drafts share (test-draft.c,
 * test-draft-compose.c): invented mails parsed from a temporary directory,
 * the reviewer, drafts parsed back with GMime, and the fixture that makes
 * and removes the directory.  Each test file uses only some of it. */
#ifndef FIXSCAN_TEST_DRAFT_MAIL_H
#define FIXSCAN_TEST_DRAFT_MAIL_H

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
#include <git2.h>
#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/review.h"
#include "patch-mail.h"


#define COVER_MAIL \
	"From: Greta Kroll <greta@stable.example.org>\n" \
	"To: linux-kernel@vger.kernel.org\n" \
	"Cc: stable@vger.kernel.org\n" \
	"Subject: [PATCH 4.4 00/24] 4.4.7-stable review\n" \
	"Date: Fri, 15 Apr 2016 03:44:51 +0200\n" \
	"Message-Id: <cover@stable.example.org>\n" \
	"\n" \
	"This is the start of the stable review cycle for the 4.4.7 release.\n" \
	"There are 24 patches in this series.\n"


/* ---- parsing a composed draft back ----------------------------------------- */

__attribute__((unused)) static GMimeMessage *parse_back(const struct fs_draft *d)
{
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(d->text, d->len);
	GMimeParser *p = g_mime_parser_new_with_stream(s);
	GMimeMessage *m = g_mime_parser_construct_message(p, NULL);

	g_object_unref(p);
	g_object_unref(s);
	assert_non_null(m);
	return m;
}

__attribute__((unused)) static const char *header(GMimeMessage *m, const char *name)
{
	return g_mime_object_get_header(GMIME_OBJECT(m), name);
}

/* A header of the body part (Content-Type and friends live there). */
__attribute__((unused)) static const char *part_header(GMimeMessage *m, const char *name)
{
	const char *v = g_mime_object_get_header(g_mime_message_get_mime_part(m), name);

	return v ? v : "";
}

/* The addresses of one header, "a, b, c" (addresses only). */
__attribute__((unused)) static char *addrs(GMimeMessage *m, GMimeAddressType type)
{
	InternetAddressList *l = g_mime_message_get_addresses(m, type);
	GString *s = g_string_new(NULL);
	int i;

	for (i = 0; l && i < internet_address_list_length(l); i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		g_string_append_printf(s, "%s%s", i ? ", " : "",
				       internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia)));
	}
	return g_string_free(s, FALSE);
}

/* The header block of a composed draft (up to the blank line). */
__attribute__((unused)) static char *header_block(const struct fs_draft *d)
{
	const char *e = strstr(d->text, "\n\n");

	assert_non_null(e);
	return g_strndup(d->text, e - d->text + 1);
}

__attribute__((unused)) static void compose(struct fs_draft *d, struct fs_patch *p, const struct fs_identity *me,
		    const char *body)
{
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_draft_compose(d, p, me, "patch <patch3@stable.example.org>",
					  "003/024 x", body, NOW, &err), 0);
}

/* ---- subjects ------------------------------------------------------------ */


__attribute__((unused)) static int setup(void **state)
{
	char home[300];

	snprintf(tmpdir, sizeof(tmpdir), "%s/fixscan-test-draft.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if (!mkdtemp(tmpdir))
		return -1;
	/* git config: only the test repositories' own files count */
	snprintf(home, sizeof(home), "%s/home", tmpdir);
	mkdir(home, 0700);
	setenv("HOME", home, 1);
	setenv("XDG_CONFIG_HOME", home, 1);
	git_libgit2_init();
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_GLOBAL, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_XDG, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_SYSTEM, home);
	git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH, GIT_CONFIG_LEVEL_PROGRAMDATA, home);
	g_mime_init();
	return 0;
}

__attribute__((unused)) static int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	g_mime_shutdown();
	git_libgit2_shutdown();
	return 0;
}


/* ---- a review of one patch, its findings filled in by hand ---------------- */

struct fixture {
	struct fs_patch *cover, *patch;
	const struct fs_patch *patches[1];
	struct fs_thread_series series;
	struct fs_review_patch rp;
	struct fs_review review;
	struct fs_finding f[16];
};

__attribute__((unused)) static char chain3[3][41] = {
	"404cd27d8378ed8ee4484af6268453059eb27a44",
	"8028d6694e09aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"c5fef009a731bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
};

__attribute__((unused)) static struct fs_finding finding(enum fs_finding_kind kind, const char *commit,
				 const char *subject, const char *release)
{
	struct fs_finding f;

	memset(&f, 0, sizeof(f));
	f.kind = kind;
	snprintf(f.commit, sizeof(f.commit), "%s", commit ? commit : "");
	f.subject = (char *)subject;
	f.release = (char *)release;
	f.series_index = -1;
	f.evidence = FS_FEV_EXACT;
	return f;
}

__attribute__((unused)) static struct fixture *fixture(void)
{
	struct fixture *x = calloc(1, sizeof(*x));

	x->cover = mail(COVER_MAIL);
	x->patch = mail(PATCH_MAIL);
	x->patches[0] = x->patch;
	x->series.cover = x->cover;
	x->series.patches = x->patches;
	x->series.npatches = 1;
	x->series.total = 24;
	x->rp.patch = x->patch;
	x->rp.index = 3;
	x->rp.findings.v = x->f;
	snprintf(x->rp.findings.upstream, sizeof(x->rp.findings.upstream), "%s", chain3[0]);
	x->review.series = &x->series;
	x->review.branch = (char *)"linux-4.4.y";
	x->review.base = (char *)"v4.4.6";
	x->review.patches = &x->rp;
	x->review.npatches = 1;
	return x;
}

__attribute__((unused)) static void fixture_free(struct fixture *x)
{
	fs_patch_free(x->cover);
	fs_patch_free(x->patch);
	free(x);
}

__attribute__((unused)) static void add(struct fixture *x, struct fs_finding f)
{
	x->f[x->rp.findings.n++] = f;
}

__attribute__((unused)) static char *patch_body(struct fixture *x)
{
	char *b = fs_draft_patch_body(&x->review, &x->rp);

	assert_non_null(b);
	return b;
}

/* S with every run of white space (newlines too) made one space. */
__attribute__((unused)) static char *squash(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; *s; s++) {
		if (g_ascii_isspace(*s)) {
			if (o->len && o->str[o->len - 1] != ' ')
				g_string_append_c(o, ' ');
		} else {
			g_string_append_c(o, *s);
		}
	}
	return g_string_free(o, FALSE);
}

/* NEEDLE in HAY, up to where the paragraphs wrap: the wording is what
 * matters here, the line breaks are the wrapper's business. */
__attribute__((unused)) static void assert_has(const char *hay, const char *needle)
{
	char *h = squash(hay), *n = squash(needle);
	bool found = strstr(h, n) != NULL;

	g_free(h);
	g_free(n);
	if (!found)
		fail_msg("'%s' not in:\n%s", needle, hay);
}

/* Every quoted line of BODY ("> ..." or ">") is a line of the body of
 * P (white space runs counted as one): a draft never puts words in the
 * author's mouth. */
__attribute__((unused)) static void assert_quotes_mail(const char *body, const struct fs_patch *p)
{
	size_t len;
	const char *pb = fs_patch_body(p, &len);
	char *text = g_strndup(pb, len);
	char **mine = g_strsplit(body, "\n", -1), **theirs = g_strsplit(text, "\n", -1);
	size_t i, k;

	for (i = 0; mine[i]; i++) {
		char *q;
		bool found = false;

		if (mine[i][0] != '>')
			continue;
		q = squash(mine[i] + 1);
		for (k = 0; theirs[k] && !found && *q; k++) {
			char *t = squash(theirs[k]);

			found = !strcmp(q, t);
			g_free(t);
		}
		if (*q && !found)
			fail_msg("quoted line '%s' is not a line of the mail:\n%s", mine[i], body);
		g_free(q);
	}
	g_strfreev(mine);
	g_strfreev(theirs);
	g_free(text);
}

#endif
