/* Unit tests for lib/mail/thread.c: sorting the mails of a thread into series
 * and reading the branch, release and base from what they say.  The mails
 * are written to a temporary directory and parsed by the real reader. */
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

#include "fixscan/mail.h"
#include "fixscan/thread.h"

static char tmpdir[256];
static int nfiles;

static struct fs_patch *mail(const char *text)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p = NULL;
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/m%d.eml", tmpdir, nfiles++);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	if (fs_patch_parse_file(&p, path, &err) < 0)
		fail_msg("parse: %s", err.message);
	return p;
}

/* A thread of N mails given as texts. */
static struct fs_thread *thread_of(const char *const *texts, size_t n)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch **v = calloc(n + 1, sizeof(*v));
	struct fs_thread *t = NULL;
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = mail(texts[i]);
	assert_int_equal(fs_thread_build(&t, v, n, &err), 0);
	free(v);
	return t;
}

#define COVER(subject, body) \
	"From: A <a@example.org>\nSubject: " subject "\nMessage-Id: <cover@x>\n\n" body "\n"
#define PATCH(subject, id) \
	"From: A <a@example.org>\nSubject: " subject "\nMessage-Id: <" id "@x>\n" \
	"In-Reply-To: <cover@x>\nReferences: <cover@x>\n\ncommit 1234567 upstream.\n"

/* A cover that names no release: no release, no base, the branch from
 * the subject; and it must come back (this once looped for ever). */
static void test_cover_without_release(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/1] backport of the netfilter fix", "Please apply."),
		PATCH("[PATCH 4.4 1/1] netfilter: fix it", "p1"),
	};
	struct fs_thread *t = thread_of(texts, 2);
	const struct fs_thread_series *s;

	assert_int_equal(fs_thread_count(t), 1);
	s = fs_thread_get(t, 0);
	assert_null(s->release);
	assert_null(s->base);
	assert_string_equal(s->branch, "linux-4.4.y");
	assert_string_equal(s->branch_source, "subject");
	assert_int_equal(s->npatches, 1);
	fs_thread_free(t);
}

/* The release from the cover's subject when its text does not say. */
static void test_release_from_subject(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 00/02] 4.4.11-stable review", "Hello."),
		PATCH("[PATCH 4.4 01/02] a: one", "p1"),
		PATCH("[PATCH 4.4 02/02] b: two", "p2"),
	};
	struct fs_thread *t = thread_of(texts, 3);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_string_equal(s->release, "4.4.11");
	assert_string_equal(s->base, "v4.4.10");
	assert_string_equal(s->base_source, "cover letter");
	assert_int_equal(s->npatches, 2);
	assert_int_equal(s->nmissing, 0);
	fs_thread_free(t);
}

/* A release in the middle of a longer number is not taken. */
static void test_release_word_start(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 3.14 00/01] build 13.14.11.2 notes", "Hello."),
		PATCH("[PATCH 3.14 01/01] a: one", "p1"),
	};
	struct fs_thread *t = thread_of(texts, 2);

	assert_null(fs_thread_get(t, 0)->release);
	fs_thread_free(t);
}

/* Any mail: SUBJECT, Message-Id ID, In-Reply-To IRT and References REFS
 * ("" for none, else "<a@x> <b@x>"). */
#define MAIL(subject, id, irt, refs, body) \
	"From: A <a@example.org>\nSubject: " subject "\nMessage-Id: <" id "@x>\n" \
	irt refs "\n" body "\n"
#define IRT(id) "In-Reply-To: <" id "@x>\n"
#define REFS(r) "References: " r "\n"

/* The Message-Ids of S's patches, space separated, for exact asserts. */
static char *patch_ids(const struct fs_thread_series *s)
{
	static char buf[1024];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < s->npatches; i++) {
		if (i)
			strcat(buf, " ");
		strcat(buf, fs_patch_message_id(s->patches[i]));
	}
	return buf;
}

/* A cover that names its release in the text. */
static void test_cover_with_release(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 00/02] 4.4.11-stable review",
		      "This is the start of the stable review cycle for the 4.4.11 release.\n"
		      "Responses should be made by Sat, 21 May 2016 17:00:00 UTC."),
		PATCH("[PATCH 4.4 01/02] a: one", "p1"),
		PATCH("[PATCH 4.4 02/02] b: two", "p2"),
	};
	struct fs_thread *t = thread_of(texts, 3);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_int_equal(fs_thread_count(t), 1);
	assert_string_equal(s->release, "4.4.11");
	assert_string_equal(s->base, "v4.4.10");
	assert_string_equal(s->deadline, "Sat, 21 May 2016 17:00:00 UTC");
	assert_int_equal(s->total, 2);
	assert_string_equal(patch_ids(s), "p1@x p2@x");
	assert_int_equal(s->nmissing, 0);
	assert_int_equal(s->duplicates, 0);
	assert_int_equal(s->nreplies, 0);
	fs_thread_free(t);
}

/* git send-email --in-reply-to=<rc1 cover> gives the -rc2 patches both
 * covers in References, their own last: each series keeps its patches. */
static void test_rc2_under_rc1(void **state)
{
	const char *texts[] = {
		MAIL("[PATCH 4.4 00/02] 4.4.11-rc1 review", "c1", "", "", "rc1."),
		MAIL("[PATCH 4.4 01/02] a: one", "r1p1", IRT("c1"), REFS("<c1@x>"), "x"),
		MAIL("[PATCH 4.4 02/02] b: two", "r1p2", IRT("c1"), REFS("<c1@x>"), "x"),
		MAIL("[PATCH 4.4 00/02] 4.4.11-rc2 review", "c2", IRT("c1"), REFS("<c1@x>"), "rc2."),
		MAIL("[PATCH 4.4 01/02] a: one", "r2p1", IRT("c2"), REFS("<c1@x> <c2@x>"), "x"),
		/* References alone: the last one is the nearest. */
		MAIL("[PATCH 4.4 02/02] b: two", "r2p2", "", REFS("<c1@x> <c2@x>"), "x"),
		MAIL("Re: [PATCH 4.4 01/02] a: one", "re", IRT("r2p1"),
		     REFS("<c1@x> <c2@x> <r2p1@x>"), "Tested."),
	};
	struct fs_thread *t = thread_of(texts, 7);
	const struct fs_thread_series *a, *b;

	assert_int_equal(fs_thread_count(t), 2);
	a = fs_thread_get(t, 0);
	b = fs_thread_get(t, 1);
	assert_string_equal(fs_patch_message_id(a->cover), "c1@x");
	assert_string_equal(a->release, "4.4.11-rc1");
	assert_string_equal(patch_ids(a), "r1p1@x r1p2@x");
	assert_int_equal(a->duplicates, 0);
	assert_int_equal(a->nmissing, 0);
	assert_int_equal(a->nreplies, 0);
	assert_string_equal(fs_patch_message_id(b->cover), "c2@x");
	assert_string_equal(b->release, "4.4.11-rc2");
	assert_string_equal(patch_ids(b), "r2p1@x r2p2@x");
	assert_int_equal(b->duplicates, 0);
	assert_int_equal(b->nmissing, 0);
	assert_int_equal(b->nreplies, 1);
	assert_string_equal(fs_patch_message_id(b->replies[0]), "re@x");
	fs_thread_free(t);
}

/* A v2 without covers posted in reply to the v1: two series. */
static void test_two_versions(void **state)
{
	const char *texts[] = {
		MAIL("[PATCH 4.4 1/2] a: one", "v1p1", "", "", "x"),
		MAIL("[PATCH 4.4 2/2] b: two", "v1p2", IRT("v1p1"), REFS("<v1p1@x>"), "x"),
		MAIL("[PATCH v2 4.4 1/2] a: one", "v2p1", IRT("v1p1"), REFS("<v1p1@x>"), "x"),
		MAIL("[PATCH v2 4.4 2/2] b: two", "v2p2", IRT("v2p1"), REFS("<v1p1@x> <v2p1@x>"), "x"),
	};
	struct fs_thread *t = thread_of(texts, 4);

	assert_int_equal(fs_thread_count(t), 2);
	assert_null(fs_thread_get(t, 0)->cover);
	assert_string_equal(patch_ids(fs_thread_get(t, 0)), "v1p1@x v1p2@x");
	assert_int_equal(fs_thread_get(t, 0)->duplicates, 0);
	assert_null(fs_thread_get(t, 1)->cover);
	assert_string_equal(patch_ids(fs_thread_get(t, 1)), "v2p1@x v2p2@x");
	assert_int_equal(fs_thread_get(t, 1)->duplicates, 0);
	fs_thread_free(t);
}

/* "[PATCH 4.4] subject", a backport sent on its own, is a series of one;
 * a reply to it is a reply, and so is a plain "[PATCH]" offered in the
 * discussion. */
static void test_unnumbered(void **state)
{
	const char *texts[] = {
		MAIL("[PATCH 4.4] net: fix it", "one", "", "", "commit 1234567 upstream."),
		MAIL("Re: [PATCH 4.4] net: fix it", "re", IRT("one"), REFS("<one@x>"), "Thanks."),
		MAIL("[PATCH] net: fix it better", "fixup", IRT("re"), REFS("<one@x> <re@x>"), "x"),
	};
	struct fs_thread *t = thread_of(texts, 3);
	const struct fs_thread_series *s;

	assert_int_equal(fs_thread_count(t), 1);
	s = fs_thread_get(t, 0);
	assert_null(s->cover);
	assert_string_equal(patch_ids(s), "one@x");
	assert_int_equal(fs_thread_patch_number(s->patches[0]), 1);
	assert_int_equal(s->total, 1);
	assert_int_equal(s->nmissing, 0);
	assert_string_equal(s->branch, "linux-4.4.y");
	assert_int_equal(s->nreplies, 2);
	assert_int_equal(fs_thread_patch_number(s->replies[0]), -1);
	assert_int_equal(fs_thread_patch_number(s->replies[1]), -1);
	fs_thread_free(t);
}

/* Two un-numbered backports in one thread are two series, never
 * duplicates of each other. */
static void test_unnumbered_two(void **state)
{
	const char *texts[] = {
		MAIL("[PATCH 4.4] net: fix it", "a", "", "", "x"),
		MAIL("[PATCH v2 4.4] net: fix it", "b", IRT("a"), REFS("<a@x>"), "x"),
	};
	struct fs_thread *t = thread_of(texts, 2);

	assert_int_equal(fs_thread_count(t), 2);
	assert_string_equal(patch_ids(fs_thread_get(t, 0)), "a@x");
	assert_string_equal(patch_ids(fs_thread_get(t, 1)), "b@x");
	assert_int_equal(fs_thread_get(t, 0)->duplicates, 0);
	assert_int_equal(fs_thread_get(t, 1)->duplicates, 0);
	fs_thread_free(t);
}

/* The same NN received twice (other Message-Id) counts once, the earlier
 * copy kept; the same Message-Id twice is one mail. */
static void test_duplicates(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/2] 4.4.11-stable review", "x"),
		"From: A <a@example.org>\nSubject: [PATCH 4.4 1/2] a: one\nMessage-Id: <late@x>\n"
		"Date: Tue, 17 May 2016 12:00:00 +0000\nIn-Reply-To: <cover@x>\n\nx\n",
		"From: A <a@example.org>\nSubject: [PATCH 4.4 1/2] a: one\nMessage-Id: <early@x>\n"
		"Date: Tue, 17 May 2016 11:00:00 +0000\nIn-Reply-To: <cover@x>\n\nx\n",
		PATCH("[PATCH 4.4 2/2] b: two", "p2"),
		PATCH("[PATCH 4.4 2/2] b: two", "p2"),
	};
	struct fs_thread *t = thread_of(texts, 5);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_int_equal(fs_thread_count(t), 1);
	assert_string_equal(patch_ids(s), "early@x p2@x");
	assert_int_equal(s->duplicates, 1);
	assert_int_equal(s->nmissing, 0);
	fs_thread_free(t);
}

/* A patch numbered beyond its total is kept; what is missing is counted
 * within the total. */
static void test_beyond_total(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/3] 4.4.11-stable review", "x"),
		PATCH("[PATCH 4.4 1/3] a", "p1"),
		PATCH("[PATCH 4.4 2/3] b", "p2"),
		PATCH("[PATCH 4.4 5/3] e", "p5"),
	};
	struct fs_thread *t = thread_of(texts, 4);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_int_equal(fs_thread_count(t), 1);
	assert_string_equal(patch_ids(s), "p1@x p2@x p5@x");
	assert_int_equal(s->total, 3);
	assert_int_equal(s->nmissing, 1);
	assert_int_equal(s->missing[0], 3);
	fs_thread_free(t);
}

/* A cover whose patches did not arrive: a series without patches, all
 * of them missing. */
static void test_cover_no_patches(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/3] 4.4.11-stable review", "x"),
		MAIL("Re: [PATCH 4.4 0/3] 4.4.11-stable review", "re", IRT("cover"),
		     REFS("<cover@x>"), "Tested-by: B <b@example.org>"),
	};
	struct fs_thread *t = thread_of(texts, 2);
	const struct fs_thread_series *s = fs_thread_get(t, 0);
	char *text;

	assert_int_equal(fs_thread_count(t), 1);
	assert_int_equal(s->npatches, 0);
	assert_int_equal(s->nreplies, 1);
	assert_int_equal(s->nmissing, 3);
	text = fs_thread_missing_text(s, 0);
	assert_string_equal(text, "001-003/003");
	g_free(text);
	fs_thread_free(t);
}

/* A total no series has is unknown: nothing allocated or listed for it. */
static void test_huge_total(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 0/999999] 4.4.11-stable review", "x"),
		PATCH("[PATCH 4.4 1/999999] a", "p1"),
		PATCH("[PATCH 4.4 7/999999] g", "p7"),
	};
	const char *coverless[] = {
		MAIL("[PATCH 4.4 1/2001] a", "q1", "", "", "x"),
		MAIL("[PATCH 4.4 2000/2000] b", "q2", IRT("q1"), REFS("<q1@x>"), "x"),
	};
	struct fs_thread *t = thread_of(texts, 3);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_int_equal(fs_thread_count(t), 1);
	assert_int_equal(s->total, -1);
	assert_int_equal(s->nmissing, 0);
	assert_null(s->missing);
	assert_string_equal(patch_ids(s), "p1@x p7@x");
	fs_thread_free(t);

	/* Different totals, so two series; the sane one is counted. */
	t = thread_of(coverless, 2);
	assert_int_equal(fs_thread_count(t), 2);
	assert_int_equal(fs_thread_get(t, 0)->total, -1);
	assert_int_equal(fs_thread_get(t, 0)->nmissing, 0);
	assert_int_equal(fs_thread_get(t, 1)->total, 2000);
	assert_int_equal(fs_thread_get(t, 1)->nmissing, 1999);
	fs_thread_free(t);
}

/* The missing list for people: ranges, and a cap. */
static void test_missing_text(void **state)
{
	int missing[] = { 2, 4, 5, 6, 9, 11 };
	struct fs_thread_series s;
	char *text;

	memset(&s, 0, sizeof(s));
	s.total = 12;
	s.missing = missing;
	s.nmissing = 6;
	text = fs_thread_missing_text(&s, 0);
	assert_string_equal(text, "002/012, 004-006/012, 009/012, 011/012");
	g_free(text);
	text = fs_thread_missing_text(&s, 2);
	assert_string_equal(text, "002/012, 004-006/012, ... (2 more)");
	g_free(text);
	s.nmissing = 0;
	text = fs_thread_missing_text(&s, 2);
	assert_string_equal(text, "");
	g_free(text);
}

/* A cover's shortlog as Greg writes it: newest first, headed by the
 * release's own commit, one author line and one indented title each. */
#define SHORTLOG3(t3, t2, t1) \
	"Pseudo-Shortlog of commits:\n\nGreg <g@x>\n    Linux 4.4.11-rc1\n\n" \
	"Ann <ann@x>\n    " t3 "\n\nBob <bob@x>\n    " t2 "\n\nCy <cy@x>\n    " t1 "\n\n" \
	"-------------\n\nDiffstat:\n\n Makefile | 2 +-\n"

/* The titles of the shortlog by patch number, the newest (first) the
 * last patch; a patch mail that is there agrees. */
static void test_shortlog_titles(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review",
		      "stable review cycle for the 4.4.11 release.\n\n"
		      SHORTLOG3("net: frob the third widget", "mm: frob the second widget",
				"fs: frob the first widget")),
		PATCH("[PATCH 4.4 02/03] mm: frob the second widget", "p2"),
	};
	struct fs_thread *t = thread_of(texts, 2);
	const struct fs_thread_series *s = fs_thread_get(t, 0);

	assert_non_null(s->titles);
	assert_string_equal(s->titles[1], "fs: frob the first widget");
	assert_string_equal(s->titles[2], "mm: frob the second widget");
	assert_string_equal(s->titles[3], "net: frob the third widget");
	fs_thread_free(t);
}

/* No titles when the shortlog cannot be trusted to number the patches:
 * one entry too few, no release commit at its head, a patch mail whose
 * title is another's, or no shortlog at all. */
static void test_shortlog_refused(void **state)
{
	const char *few[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review",
		      "Pseudo-Shortlog of commits:\n\nGreg <g@x>\n    Linux 4.4.11-rc1\n\n"
		      "Ann <ann@x>\n    net: frob the third widget\n\nBob <bob@x>\n"
		      "    mm: frob the second widget\n\n-------------\n"),
	};
	const char *headless[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review",
		      "Pseudo-Shortlog of commits:\n\nAnn <ann@x>\n    net: frob the third widget\n\n"
		      "Bob <bob@x>\n    mm: frob the second widget\n\nCy <cy@x>\n"
		      "    fs: frob the first widget\n\nDee <d@x>\n    x: frob one more\n\n-------------\n"),
	};
	const char *disagree[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review",
		      SHORTLOG3("net: frob the third widget", "mm: frob the second widget",
				"fs: frob the first widget")),
		PATCH("[PATCH 4.4 01/03] mm: frob the second widget", "p1"),
	};
	const char *none[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review", "No shortlog here.\n"),
	};
	const char *const *cases[] = { few, headless, disagree, none };
	size_t sizes[] = { 1, 1, 2, 1 }, i;

	for (i = 0; i < 4; i++) {
		struct fs_thread *t = thread_of(cases[i], sizes[i]);
		assert_null(fs_thread_get(t, 0)->titles);
		fs_thread_free(t);
	}
}

/* A reply whose subject answers patch NN/MM of the series, when that
 * patch's mail is absent, is on NN; not when the mail is there, not for
 * another total, not for the cover's own number. */
static void test_replied_absent(void **state)
{
	const char *texts[] = {
		COVER("[PATCH 4.4 00/03] 4.4.11-stable review", "Text."),
		PATCH("[PATCH 4.4 01/03] fs: one", "p1"),
		"From: R <r@x>\nSubject: Re: [PATCH 4.4 02/03] mm: two\nMessage-Id: <r2@x>\n"
		"In-Reply-To: <p2@x>\nReferences: <cover@x> <p2@x>\n\nThis breaks arm.\n",
		"From: R <r@x>\nSubject: Re: [PATCH 4.4 01/03] fs: one\nMessage-Id: <r1@x>\n"
		"In-Reply-To: <p1@x>\nReferences: <cover@x> <p1@x>\n\nFine.\n",
		"From: R <r@x>\nSubject: Re: [PATCH 4.4 02/05] mm: two\nMessage-Id: <r5@x>\n"
		"In-Reply-To: <q2@x>\nReferences: <cover@x> <q2@x>\n\nOther total.\n",
		"From: R <r@x>\nSubject: Re: [PATCH 4.4 00/03] 4.4.11-stable review\n"
		"Message-Id: <r0@x>\nIn-Reply-To: <cover@x>\nReferences: <cover@x>\n\nAll fine.\n",
	};
	struct fs_thread *t = thread_of(texts, 6);
	const struct fs_thread_series *s = fs_thread_get(t, 0);
	size_t i;

	assert_int_equal(s->nreplies, 4);
	for (i = 0; i < s->nreplies; i++) {
		const char *mid = fs_patch_message_id(s->replies[i]);
		int want = !strcmp(mid, "r2@x") ? 2 : 0;
		assert_int_equal(fs_thread_replied_absent(s, s->replies[i]), want);
	}
	fs_thread_free(t);
}

/* Mail about stable that carries no patch (a robot's report on the
 * stable-rc tree, a request to backport): its replies are one series of
 * replies on the branch it names; the mail itself is none of them.  A
 * mainline report's replies make no series. */
static void test_stable_mail_without_patch(void **state)
{
	const char *robot[] = {
		"From: robot <lkp@example.org>\nSubject: [linux-stable-rc:linux-7.1.y 12/34] x.c:1:2: error: y\n"
		"Message-Id: <rep@x>\n\ntree: linux-7.1.y\ncommit: 0a1b2c3d [12/34] widget: fix\n",
		"From: D <d@x>\nSubject: Re: [linux-stable-rc:linux-7.1.y 12/34] x.c:1:2: error: y\n"
		"Message-Id: <d1@x>\nIn-Reply-To: <rep@x>\nReferences: <rep@x>\n\n"
		"This needs 0123456789ab as well.\n",
	};
	const char *request[] = {
		"From: U <u@x>\nSubject: [Backport request for 7.2.y] widget: fix\nMessage-Id: <req@x>\n\n"
		"Please take 0123456789ab.\n",
		"From: G <g@x>\nSubject: Re: [Backport request for 7.2.y] widget: fix\nMessage-Id: <g1@x>\n"
		"In-Reply-To: <req@x>\nReferences: <req@x>\n\nNow queued, thanks.\n",
	};
	const char *mainline[] = {
		"From: robot <lkp@example.org>\nSubject: [widget:for-next 12/34] x.c:1:2: error: y\n"
		"Message-Id: <rep@x>\n\ntree: widget\n",
		"From: D <d@x>\nSubject: Re: [widget:for-next 12/34] x.c:1:2: error: y\n"
		"Message-Id: <d1@x>\nIn-Reply-To: <rep@x>\nReferences: <rep@x>\n\nFixed, thanks.\n",
	};
	struct fs_thread *t = thread_of(robot, 2);
	const struct fs_thread_series *s;

	assert_int_equal(fs_thread_count(t), 1);
	s = fs_thread_get(t, 0);
	assert_int_equal(s->npatches, 0);
	assert_null(s->cover);
	assert_int_equal(s->nreplies, 1);
	assert_string_equal(fs_patch_message_id(s->replies[0]), "d1@x");
	assert_string_equal(s->version, "7.1");
	assert_string_equal(s->branch, "linux-7.1.y");
	assert_string_equal(s->branch_source, "subject");
	fs_thread_free(t);

	t = thread_of(request, 2);
	assert_int_equal(fs_thread_count(t), 1);
	s = fs_thread_get(t, 0);
	assert_int_equal(s->nreplies, 1);
	assert_string_equal(fs_patch_message_id(s->replies[0]), "g1@x");
	assert_string_equal(s->branch, "linux-7.2.y");
	fs_thread_free(t);

	t = thread_of(mainline, 2);
	assert_int_equal(fs_thread_count(t), 0);
	fs_thread_free(t);
}

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
{
	strcpy(tmpdir, "/tmp/fixscan-test-thread.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	if (tmpdir[0])
		nftw(tmpdir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cover_without_release),
		cmocka_unit_test(test_release_from_subject),
		cmocka_unit_test(test_release_word_start),
		cmocka_unit_test(test_cover_with_release),
		cmocka_unit_test(test_rc2_under_rc1),
		cmocka_unit_test(test_two_versions),
		cmocka_unit_test(test_unnumbered),
		cmocka_unit_test(test_unnumbered_two),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_beyond_total),
		cmocka_unit_test(test_cover_no_patches),
		cmocka_unit_test(test_huge_total),
		cmocka_unit_test(test_missing_text),
		cmocka_unit_test(test_shortlog_titles),
		cmocka_unit_test(test_shortlog_refused),
		cmocka_unit_test(test_replied_absent),
		cmocka_unit_test(test_stable_mail_without_patch),
	};

	/* A parser that loops for ever fails here instead of hanging. */
	alarm(30);
	return cmocka_run_group_tests(tests, setup, teardown);
}
