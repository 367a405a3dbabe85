/* Unit tests for lib/draft.c: reply composition and the bodies written
 * for each finding kind.  Identity, writing and saving are tested in
 * test-identity.c, test-maildir.c and test-drafts-*.c.
 *
 * Reviews are built by hand: the patches are parsed from invented mails
 * written to a temporary directory, the findings filled in directly.  The
 * composed messages are parsed back with GMime to check their headers as
 * a mail client would see them.
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
#include <unistd.h>

#include <cmocka.h>
#include <git2.h>
#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/config.h"
#include "fixscan/draft.h"
#include "fixscan/review.h"

static char tmpdir[256];
static int nfiles;

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

static struct fs_identity rita = { (char *)"Rita Reviewer", (char *)"rita@example.org",
				   "notmuch config" };

/* ---- parsing a composed draft back ----------------------------------------- */

static GMimeMessage *parse_back(const struct fs_draft *d)
{
	GMimeStream *s = g_mime_stream_mem_new_with_buffer(d->text, d->len);
	GMimeParser *p = g_mime_parser_new_with_stream(s);
	GMimeMessage *m = g_mime_parser_construct_message(p, NULL);

	g_object_unref(p);
	g_object_unref(s);
	assert_non_null(m);
	return m;
}

static const char *header(GMimeMessage *m, const char *name)
{
	return g_mime_object_get_header(GMIME_OBJECT(m), name);
}

/* A header of the body part (Content-Type and friends live there). */
static const char *part_header(GMimeMessage *m, const char *name)
{
	const char *v = g_mime_object_get_header(g_mime_message_get_mime_part(m), name);

	return v ? v : "";
}

/* The addresses of one header, "a, b, c" (addresses only). */
static char *addrs(GMimeMessage *m, GMimeAddressType type)
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
static char *header_block(const struct fs_draft *d)
{
	const char *e = strstr(d->text, "\n\n");

	assert_non_null(e);
	return g_strndup(d->text, e - d->text + 1);
}

static void compose(struct fs_draft *d, struct fs_patch *p, const struct fs_identity *me,
		    const char *body)
{
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_draft_compose(d, p, me, "patch <patch3@stable.example.org>",
					  "003/024 x", body, NOW, &err), 0);
}

/* ---- subjects ------------------------------------------------------------ */

static void test_reply_subject(void **state)
{
	static const struct { const char *in, *out; } cases[] = {
		{ "[PATCH 4.4 03/24] foo", "Re: [PATCH 4.4 03/24] foo" },
		{ "Re: [PATCH] foo", "Re: [PATCH] foo" },
		{ "Re: Re: foo", "Re: foo" },
		{ "RE: foo", "Re: foo" },
		{ "re:foo", "Re: foo" },
		{ "Re[2]: foo", "Re: foo" },
		{ "Re :  RE: foo", "Re: foo" },
		{ "Reply to foo", "Re: Reply to foo" },
		{ "Red: foo", "Re: Red: foo" },
		{ "foo\r\nBcc: evil@example.com", "Re: foo Bcc: evil@example.com" },
		{ "  foo\tbar  ", "Re: foo bar" },
		{ "", "Re: " },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *s = fs_draft_reply_subject(cases[i].in);
		assert_string_equal(s, cases[i].out);
		g_free(s);
	}
}

static void test_digest(void **state)
{
	char *a = fs_draft_digest("one\ntwo\n", 8);
	char *b = fs_draft_digest("one\r\ntwo\r\n\r\n", 12);
	char *c = fs_draft_digest("one\ntwo", 7);
	char *d = fs_draft_digest("one\ntwo!\n", 9);

	assert_int_equal(strlen(a), 64);
	assert_string_equal(a, b);
	assert_string_equal(a, c);
	assert_string_not_equal(a, d);
	g_free(a);
	g_free(b);
	g_free(c);
	g_free(d);
}

/* ---- composing ----------------------------------------------------------- */

static void test_compose_headers(void **state)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_draft d;
	GMimeMessage *m;
	char *s, *body;
	const char *ct;

	compose(&d, p, &rita, "On a date, someone wrote:\n> x\n\nPlain text.\n");
	m = parse_back(&d);
	s = addrs(m, GMIME_ADDRESS_TYPE_FROM);
	assert_string_equal(s, "rita@example.org");
	g_free(s);
	s = addrs(m, GMIME_ADDRESS_TYPE_TO);
	assert_string_equal(s, "greta@stable.example.org");
	g_free(s);
	/* reply-all minus the reviewer (any case) and the sender */
	s = addrs(m, GMIME_ADDRESS_TYPE_CC);
	assert_string_equal(s, "linux-kernel@vger.kernel.org, stable@vger.kernel.org, dorlov@example.com");
	g_free(s);
	assert_string_equal(g_mime_message_get_subject(m),
			    "Re: [PATCH 4.4 03/24] netfilter: x_tables: check the offset");
	assert_string_equal(header(m, "In-Reply-To"), "<patch3@stable.example.org>");
	body = g_strdup(header(m, "References"));
	g_strdelimit(body, "\t\n", ' ');
	assert_non_null(strstr(body, "<cover@stable.example.org>"));
	assert_true(strstr(body, "<cover@stable.example.org>") < strstr(body, "<patch3@stable.example.org>"));
	g_free(body);
	assert_string_equal(g_mime_message_get_message_id(m), d.message_id);
	assert_true(g_str_has_suffix(d.message_id, "@example.org"));
	/* nothing fixscan-internal goes to the list, not even in the id:
	 * "<14 digits of time>.<16 hex>@domain", as mail clients make them */
	assert_null(header(m, "X-Fixscan-Key"));
	assert_null(header(m, "X-Fixscan-Digest"));
	assert_null(strstr(d.text, "X-Fixscan"));
	assert_null(strcasestr(d.text, "fixscan"));
	assert_int_equal(strspn(d.message_id, "0123456789"), 14);
	assert_int_equal(d.message_id[14], '.');
	assert_int_equal(strspn(d.message_id + 15, "0123456789abcdef"), 16);
	assert_int_equal(d.message_id[31], '@');
	body = fs_draft_id_prefix("patch <patch3@stable.example.org>");
	assert_false(g_str_has_prefix(d.message_id, body));
	g_free(body);
	assert_non_null(header(m, "Date"));
	assert_non_null(strstr(header(m, "Date"), "2023"));
	ct = part_header(m, "Content-Type");
	assert_non_null(strstr(ct, "charset=utf-8"));
	assert_string_equal(part_header(m, "Content-Transfer-Encoding"), "7bit");
	assert_string_equal(d.key, "patch <patch3@stable.example.org>");
	assert_string_equal(d.label, "003/024 x");
	g_object_unref(m);
	fs_draft_clear(&d);
	fs_patch_free(p);
}

/* Message-Ids are unique even for one key at one second. */
static void test_compose_unique_ids(void **state)
{
	struct fs_patch *p = mail(PATCH_MAIL);
	struct fs_draft a, b;

	compose(&a, p, &rita, "x\n");
	compose(&b, p, &rita, "x\n");
	assert_string_not_equal(a.message_id, b.message_id);
	fs_draft_clear(&a);
	fs_draft_clear(&b);
	fs_patch_free(p);
}

static void test_compose_references_growth(void **state)
{
	struct fs_patch *p = mail(
		"From: a@example.org\n"
		"To: b@example.org\n"
		"Subject: Re: Re: RE: foo\n"
		"Message-Id: <three@example.org>\n"
		"In-Reply-To: <two@example.org>\n"
		"References: <one@example.org> <two@example.org>\n"
		"\n"
		"text\n");
	struct fs_patch *q = mail(
		"From: a@example.org\n"
		"Subject: lone\n"
		"Message-Id: <lone@example.org>\n"
		"\n"
		"text\n");
	struct fs_draft d;
	GMimeMessage *m;
	GMimeReferences *refs;

	compose(&d, p, &rita, "x\n");
	m = parse_back(&d);
	assert_string_equal(g_mime_message_get_subject(m), "Re: foo");
	refs = g_mime_references_parse(NULL, header(m, "References"));
	assert_int_equal(g_mime_references_length(refs), 3);
	assert_string_equal(g_mime_references_get_message_id(refs, 0), "one@example.org");
	assert_string_equal(g_mime_references_get_message_id(refs, 1), "two@example.org");
	assert_string_equal(g_mime_references_get_message_id(refs, 2), "three@example.org");
	g_mime_references_free(refs);
	assert_string_equal(header(m, "In-Reply-To"), "<three@example.org>");
	{
		char *to = addrs(m, GMIME_ADDRESS_TYPE_TO), *cc = addrs(m, GMIME_ADDRESS_TYPE_CC);

		assert_string_equal(to, "a@example.org");
		assert_string_equal(cc, "b@example.org");
		g_free(to);
		g_free(cc);
	}
	g_object_unref(m);
	fs_draft_clear(&d);

	compose(&d, q, &rita, "x\n");
	m = parse_back(&d);
	assert_string_equal(header(m, "References"), "<lone@example.org>");
	assert_string_equal(g_mime_message_get_subject(m), "Re: lone");
	g_object_unref(m);
	fs_draft_clear(&d);
	fs_patch_free(p);
	fs_patch_free(q);
}

static void test_compose_encodings(void **state)
{
	struct fs_patch *p = mail(
		"From: =?UTF-8?Q?J=C3=B6rg_M=C3=BCller?= <joerg@example.de>\n"
		"To: =?UTF-8?B?S2FpIFPDuHJlbnNlbg==?= <kai@example.dk>\n"
		"Subject: =?UTF-8?Q?[PATCH_4.4_10/24]_iio:_report_the_temperature_in_m=C2=B0C?=\n"
		"Message-Id: <temp@example.org>\n"
		"\n"
		"text\n");
	struct fs_identity me = { (char *)"Zoë Reviewer", (char *)"zoe@example.org", "notmuch config" };
	struct fs_draft d;
	GMimeMessage *m;
	InternetAddressList *l;
	char *hdrs, *longline, *body;
	const char *c;

	compose(&d, p, &me, "Über alles: 25 m°C\n");
	hdrs = header_block(&d);
	/* nothing but ASCII in the header block: RFC 2047 words */
	for (c = hdrs; *c; c++)
		assert_true((unsigned char)*c < 0x80);
	assert_non_null(strstr(hdrs, "=?"));
	m = parse_back(&d);
	assert_string_equal(g_mime_message_get_subject(m),
			    "Re: [PATCH 4.4 10/24] iio: report the temperature in m°C");
	l = g_mime_message_get_from(m);
	assert_string_equal(internet_address_get_name(internet_address_list_get_address(l, 0)),
			    "Zoë Reviewer");
	l = g_mime_message_get_addresses(m, GMIME_ADDRESS_TYPE_TO);
	assert_string_equal(internet_address_get_name(internet_address_list_get_address(l, 0)),
			    "Jörg Müller");
	l = g_mime_message_get_addresses(m, GMIME_ADDRESS_TYPE_CC);
	assert_string_equal(internet_address_get_name(internet_address_list_get_address(l, 0)),
			    "Kai Sørensen");
	assert_non_null(strstr(part_header(m, "Content-Type"), "charset=utf-8"));
	assert_string_equal(part_header(m, "Content-Transfer-Encoding"), "8bit");
	assert_non_null(strstr(d.text, "\n\nÜber alles: 25 m°C\n"));
	g_object_unref(m);
	g_free(hdrs);
	fs_draft_clear(&d);

	/* a line too long for SMTP: quoted-printable, decoding to the same */
	longline = g_strnfill(1200, 'a');
	body = g_strdup_printf("%s\nend\n", longline);
	compose(&d, p, &me, body);
	m = parse_back(&d);
	assert_string_equal(part_header(m, "Content-Transfer-Encoding"), "quoted-printable");
	{
		GMimeTextPart *tp = GMIME_TEXT_PART(g_mime_message_get_body(m));
		char *text = g_mime_text_part_get_text(tp);
		char *dg = fs_draft_digest(text, strlen(text));

		assert_string_equal(dg, d.digest);
		g_free(dg);
		g_free(text);
	}
	g_object_unref(m);
	fs_draft_clear(&d);
	g_free(body);
	g_free(longline);
	fs_patch_free(p);
}

static void test_compose_injection(void **state)
{
	/* Folded header lines unfold to one line with the CRLF inside the
	 * decoded text; encoded words can carry a raw CR LF too. */
	struct fs_patch *p = mail(
		"From: =?UTF-8?Q?Mallory=0D=0ABcc:_evil@example.com?= <mallory@example.org>\n"
		"To: b@example.org\n"
		"Subject: =?UTF-8?Q?hello=0D=0ABcc:_evil@example.com=0D=0A?=\n"
		"Message-Id: <inject@example.org>\n"
		"References: <ok@example.org>\n"
		"\n"
		"text\n");
	struct fs_identity me = { (char *)"Rita\r\nBcc: x@example.com", (char *)"rita@example.org",
				  "notmuch config" };
	struct fs_draft d;
	GMimeMessage *m;
	char *hdrs;

	compose(&d, p, &me, "x\n");
	hdrs = header_block(&d);
	assert_null(strstr(hdrs, "\nBcc:"));
	assert_null(strchr(hdrs, '\r'));
	m = parse_back(&d);
	assert_null(header(m, "Bcc"));
	assert_non_null(strstr(g_mime_message_get_subject(m), "hello"));
	assert_null(strchr(g_mime_message_get_subject(m), '\n'));
	g_object_unref(m);
	g_free(hdrs);
	fs_draft_clear(&d);
	fs_patch_free(p);
}

/* Whether every address of the header NAME of the draft's header block
 * is a sane address, and the header has no control character. */
static void assert_sane_header(const struct fs_draft *d, const char *name)
{
	GMimeMessage *m = parse_back(d);
	const char *raw = header(m, name);
	InternetAddressList *l = g_mime_message_get_addresses(m, !strcmp(name, "To") ? GMIME_ADDRESS_TYPE_TO :
							     GMIME_ADDRESS_TYPE_CC);
	int i;

	for (i = 0; raw && raw[i]; i++)
		if ((unsigned char)raw[i] < 0x20 && raw[i] != '\t' && raw[i] != '\n')
			fail_msg("%s has a control character: '%s'", name, raw);
	for (i = 0; l && i < internet_address_list_length(l); i++) {
		InternetAddress *ia = internet_address_list_get_address(l, i);
		const char *a;

		assert_true(INTERNET_ADDRESS_IS_MAILBOX(ia));
		a = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
		if (!a || !strchr(a, '@') || strpbrk(a, " \"<>,;") || strchr(a, '@') == a)
			fail_msg("%s has junk: '%s' (%s)", name, a ? a : "(null)", raw);
	}
	g_object_unref(m);
}

/* Recipients GMime cannot parse: the junk is left out, the draft still
 * goes to someone sane; with nobody to answer, no draft. */
static void test_compose_odd_recipients(void **state)
{
	static const struct {
		const char *from, *to, *cc, *want_to, *want_cc;
	} cases[] = {
		/* an unterminated quote in From: the sender still parses */
		{ "\"Greta Kroll <greta@stable.example.org>", "linux-kernel@vger.kernel.org", "",
		  "greta@stable.example.org", "linux-kernel@vger.kernel.org" },
		/* junk in To and Cc is skipped */
		{ "Greta Kroll <greta@stable.example.org>",
		  "\"broken <, <>, linux-kernel@vger.kernel.org, not an address",
		  "stable@vger.kernel.org, =?UTF-8?Q?x=01y?= <a b@c>, <@nowhere>, Someone <x@@y>",
		  "greta@stable.example.org", "linux-kernel@vger.kernel.org, stable@vger.kernel.org" },
		/* empty To and Cc */
		{ "greta@stable.example.org", "", "", "greta@stable.example.org", "" },
		/* no sender that parses: the reply goes to the list */
		{ "Greta Kroll <>", "linux-kernel@vger.kernel.org",
		  "stable@vger.kernel.org", "linux-kernel@vger.kernel.org", "stable@vger.kernel.org" },
		{ "undisclosed-recipients:;", "", "stable@vger.kernel.org", "stable@vger.kernel.org", "" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *text = g_strdup_printf("From: %s\nTo: %s\nCc: %s\nSubject: [PATCH 4.4 03/24] x\n"
					     "Message-Id: <odd%zu@example.org>\n\nbody\n",
					     cases[i].from, cases[i].to, cases[i].cc, i);
		struct fs_patch *p = mail(text);
		struct fs_draft d;
		GMimeMessage *m;
		char *to, *cc;

		compose(&d, p, &rita, "x\n");
		assert_sane_header(&d, "To");
		assert_sane_header(&d, "Cc");
		m = parse_back(&d);
		to = addrs(m, GMIME_ADDRESS_TYPE_TO);
		cc = addrs(m, GMIME_ADDRESS_TYPE_CC);
		if (strcmp(to, cases[i].want_to) || strcmp(cc, cases[i].want_cc))
			fail_msg("case %zu: To '%s' Cc '%s', want '%s' and '%s'", i, to, cc,
				 cases[i].want_to, cases[i].want_cc);
		g_free(to);
		g_free(cc);
		g_object_unref(m);
		fs_draft_clear(&d);
		fs_patch_free(p);
		g_free(text);
	}
}

static void test_compose_no_message_id(void **state)
{
	struct fs_patch *p = mail("From: a@example.org\nSubject: x\n\ntext\n");
	struct fs_draft d;
	struct fs_error err = FS_ERROR_INIT;

	assert_int_equal(fs_draft_compose(&d, p, &rita, "k", "l", "b\n", NOW, &err), FS_EPARSE);
	assert_null(d.text);
	fs_patch_free(p);
}

/* ---- bodies -------------------------------------------------------------- */

struct fixture {
	struct fs_patch *cover, *patch;
	const struct fs_patch *patches[1];
	struct fs_thread_series series;
	struct fs_review_patch rp;
	struct fs_review review;
	struct fs_finding f[16];
};

static char chain3[3][41] = {
	"404cd27d8378ed8ee4484af6268453059eb27a44",
	"8028d6694e09aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"c5fef009a731bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
};

static struct fs_finding finding(enum fs_finding_kind kind, const char *commit,
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

static struct fixture *fixture(void)
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

static void fixture_free(struct fixture *x)
{
	fs_patch_free(x->cover);
	fs_patch_free(x->patch);
	free(x);
}

static void add(struct fixture *x, struct fs_finding f)
{
	x->f[x->rp.findings.n++] = f;
}

static char *patch_body(struct fixture *x)
{
	char *b = fs_draft_patch_body(&x->review, &x->rp);

	assert_non_null(b);
	return b;
}

/* S with every run of white space (newlines too) made one space. */
static char *squash(const char *s)
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
static void assert_has(const char *hay, const char *needle)
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
static void assert_quotes_mail(const char *body, const struct fs_patch *p)
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

static void test_body_quotes(void **state)
{
	struct fixture *x = fixture();
	char *b;

	add(x, finding(FS_FIND_NO_UPSTREAM, NULL, NULL, NULL));
	b = patch_body(x);
	/* the upstream line, a line of the mail; never the subject as the
	 * author's words */
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n"
				       "> commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
				       "\n"));
	assert_null(strstr(b, "> netfilter"));
	/* not the whole mail */
	assert_null(strstr(b, "Signed-off-by"));
	assert_null(strstr(b, "Check the offset"));
	/* one newline at the end */
	assert_true(g_str_has_suffix(b, ".\n"));
	assert_false(g_str_has_suffix(b, "\n\n"));
	g_free(b);
	fixture_free(x);
}

static void test_body_fix_missing(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc",
				      "netfilter: x_tables: fix the check", "v4.7-rc3");
	char *b;

	add(x, f);
	b = patch_body(x);
	assert_has(b, "This commit has a known follow-up fix upstream that is not in this\nseries:\n\n"
		      "  80e046b0715b (\"netfilter: x_tables: fix the check\") in v4.7-rc3\n\n"
		      "Please queue it as well.");
	g_free(b);

	/* a fix of a queued fix: the chain says which */
	f = finding(FS_FIND_FIX_QUEUED, chain3[1], "sched: first fix", "v4.6-rc1");
	f.series_index = 21;
	add(x, f);
	f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched: second fix", "v4.7-rc1");
	f.chain = chain3;
	f.nchain = 3;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "known follow-up fixes upstream that are not in this series:");
	assert_has(b, "  c5fef009a731 (\"sched: second fix\") in v4.7-rc1\n"
		      "    which fixes 8028d6694e09, queued here as 21/24\n");
	assert_has(b, "Please queue them as well.");
	assert_has(b, "Its follow-up fix 8028d6694e09 (\"sched: first fix\") is queued as\n21/24");
	g_free(b);
	fixture_free(x);
}

static void test_body_each_kind(void **state)
{
	/* Each case's words come from its kind, cause and fields: the notes
	 * are the findings module's prose and the drafts never read them. */
	static const struct {
		enum fs_finding_kind kind;
		enum fs_finding_cause cause, unresolved;
		const char *commit, *note;
		enum fs_finding_evidence evidence;
		const char *want;
	} cases[] = {
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, 0, "08fed77bca31dddddddddddddddddddddddddddd", NULL, FS_FEV_REVERT,
		  "This commit was reverted upstream:\n\n  08fed77bca31 (\"subj\") in v4.6-rc2\n\nPlease drop it" },
		{ FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, 0, "2a6edf04f148eeeeeeeeeeeeeeeeeeeeeeeeeeee", NULL, FS_FEV_EXACT,
		  "already in linux-4.4.y: it went into mainline in v4.6-rc2, before the\nbranch was forked" },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_TARGET, 0, "c0697f5044f7ffffffffffffffffffffffffffff", NULL, FS_FEV_EXACT,
		  "is neither in linux-4.4.y as of v4.4.6 nor in this series, so this fix\nmay not be needed here." },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_REVERT_TARGET, 0, "c0697f5044f7ffffffffffffffffffffffffffff", NULL, FS_FEV_EXACT,
		  "The commit this one reverts,\n\n  c0697f5044f7 (\"subj\") in v4.6-rc2\n\nis neither in linux-4.4.y as of v4.4.6 nor in this series, so this\nrevert may not be needed here." },
		{ FS_FIND_NO_UPSTREAM, 0, 0, NULL, NULL, FS_FEV_EXACT,
		  "The changelog does not say which upstream commit this is." },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_FOUND, FS_CAUSE_NOT_FOUND, "cdf4294f5a34", "x", FS_FEV_PREFIX,
		  "I cannot find the upstream commit the changelog names, cdf4294f5a34,\nin mainline." },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_AMBIGUOUS, FS_CAUSE_AMBIGUOUS, "abc1234", "x", FS_FEV_PREFIX,
		  "abc1234, is ambiguous" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, 0, "6e7333a713b1aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "x", FS_FEV_PREFIX,
		  "The changelog names a prerequisite that is neither in this series nor\nin the branch:\n\n  6e7333a713b1 (\"subj\")\n\nPlease queue it too" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, FS_CAUSE_NOT_FOUND, "6e7333a713b1", "x", FS_FEV_PREFIX,
		  "but I cannot find that commit. Could you check the id?" },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_STABLE_DEP_OF, 0, "6e7333a713b1aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "x",
		  FS_FEV_EXACT, "prerequisite (Stable-dep-of) of" },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_SUBJECT_MISMATCH, 0, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb", "x",
		  FS_FEV_SUBJECT, "does not match itself: the subject it\nquotes is that of\n\n  12c09ccaa0f5 (\"subj\")" },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_STABLE_ID, 0, "ee2a5e1b690ecccccccccccccccccccccccccccc",
		  "Fixes: 3a993044c725 names the linux-4.4.y commit 3a993044c725 in v4.4.2, not a mainline id",
		  FS_FEV_STABLE, "names a stable commit, not a mainline" },
		{ FS_FIND_FIX_PRESENT, FS_CAUSE_FIX, 0, "60e7c3ca5b7bdddddddddddddddddddddddddddd", NULL, FS_FEV_EXACT,
		  "Its known follow-up fix 60e7c3ca5b7b (\"subj\") is already in\nlinux-4.4.y" },
		{ FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_DUPLICATE, 0, "60e7c3ca5b7bdddddddddddddddddddddddddddd", NULL, FS_FEV_EXACT,
		  "This is the same upstream commit as 03/24 of this series:\n\n  60e7c3ca5b7b (\"subj\")\n\nso one of the two looks like a duplicate. Please drop this one." },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(cases[i].kind, cases[i].commit, "subj", "v4.6-rc2");
		char *b;

		f.cause = cases[i].cause;
		f.unresolved = cases[i].unresolved;
		f.note = (char *)cases[i].note;
		f.evidence = cases[i].evidence;
		f.series_index = 3;
		add(x, f);
		b = patch_body(x);
		assert_has(b, cases[i].want);
		assert_quotes_mail(b, x->patch);
		/* no machine words in what people read */
		assert_null(strstr(b, fs_finding_kind_name(cases[i].kind)));
		assert_null(strstr(b, "(null)"));
		/* the note is not what the draft says */
		if (cases[i].note && !strcmp(cases[i].note, "x"))
			assert_null(strstr(b, "\nx"));
		g_free(b);
		fixture_free(x);
	}
}

/* Two patches of one upstream commit where this one's diff is not
 * upstream's: the draft asks which one is meant, never "drop this one". */
static void test_body_duplicate_differs(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_DUPLICATE_IN_SERIES, "60e7c3ca5b7bdddddddddddddddddddddddddddd",
				      "subj", "v4.6-rc2");
	char *b;

	f.series_index = 2;
	add(x, f);
	add(x, finding(FS_FIND_BACKPORT_DIFFERS, "60e7c3ca5b7bdddddddddddddddddddddddddddd", "subj", "v4.6-rc2"));
	b = patch_body(x);
	assert_has(b, "but the two are not the same diff: this one differs from the upstream commit, 02/24 does not. Which of the two is meant?");
	assert_null(strstr(b, "Please drop this one"));
	g_free(b);
	fixture_free(x);
}

/* A fix-pending names the pending tree as the list knows it, never the
 * clone's ref, and marks its id as one of that tree. */
static void test_body_pending_names(void **state)
{
	static const struct {
		const char *ref, *in, *id;
	} cases[] = {
		{ "refs/remotes/next/master", "is in linux-next,", "(\"fix\") (linux-next id)" },
		{ "refs/remotes/linux-next/pending-fixes", "is in linux-next,", "(linux-next id)" },
		{ "refs/heads/next-20160420", "is in linux-next,", "(linux-next id)" },
		{ "refs/remotes/net/main", "is in net's main,", "(\"fix\") (id in net's main)" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(FS_FIND_FIX_PENDING, "f000f6827628aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "fix", NULL);
		char *b, *sum;

		f.ref = (char *)cases[i].ref;
		add(x, f);
		b = patch_body(x);
		sum = fs_draft_summary_body(&x->review, true);
		assert_has(b, cases[i].in);
		assert_has(b, cases[i].id);
		assert_has(sum, cases[i].id);
		assert_null(strstr(b, "refs/"));
		assert_null(strstr(b, "next/master"));
		assert_null(strstr(sum, "next/master"));
		g_free(sum);
		g_free(b);
		fixture_free(x);
	}
}

/* The parts of an upstream posting not queued: one part is "another
 * patch", and the commit is "this patch's" (after a quote, "its" would
 * read as the quoted person's). */
static void test_body_series_partial_number(void **state)
{
	struct fs_finding_part parts[2] = {
		{ "1e909a04863eaaaaaaaaaaaaaaaaaaaaaaaaaaaa", (char *)"part two", (char *)"v4.6", 2, 3 },
		{ "2e909a04863ebbbbbbbbbbbbbbbbbbbbbbbbbbbb", (char *)"part three", (char *)"v4.6", 3, 3 },
	};
	size_t n;

	for (n = 1; n <= 2; n++) {
		struct fixture *x = fixture();
		struct fs_finding f = finding(FS_FIND_SERIES_PARTIAL, "404cd27d8378cccccccccccccccccccccccccccc", "subj", NULL);
		char *b;

		f.parts = parts;
		f.nparts = n;
		f.series_part = 1;
		add(x, f);
		b = patch_body(x);
		assert_has(b, "This patch's upstream commit 404cd27d8378 (\"subj\") was posted with");
		if (n == 1) {
			assert_has(b, "with another patch that is in mainline too");
			assert_has(b, "If it was left out on purpose, fine; otherwise is it needed here as well?");
		} else {
			assert_has(b, "with other patches that are in mainline too");
			assert_has(b, "If they were left out on purpose, fine; otherwise are they needed here as well?");
		}
		g_free(b);
		fixture_free(x);
	}
}

/* A stable-only revert of another branch is a question, never a queue
 * request; a revert undone by a revert of it asks for nothing; an id the
 * clone may just not have yet is not asked about. */
static void test_body_new_causes(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b, *sum;

	f = finding(FS_FIND_REVERTED_IN_STABLE, "5e5e5e5e5e5eaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    "Revert \"net: frob\"", "v4.5.3");
	f.cause = FS_CAUSE_STABLE_REVERT;
	f.branch = (char *)"linux-4.5.y";
	f.reason = (char *)"It breaks suspend on older boards.";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "Note that linux-4.5.y reverted its backport of this commit in v4.5.3:\n\n"
		      "  5e5e5e5e5e5e (\"Revert \"net: frob\"\")\n\n"
		      "The reason it gives:\n\n  \"It breaks suspend on older boards.\"\n\n"
		      "Does that reason apply to linux-4.4.y as well?");
	assert_null(strstr(b, "queue"));
	sum = fs_draft_summary_body(&x->review, true);
	assert_non_null(sum);
	assert_has(sum, "Reverted in another stable branch (worth asking why):");
	assert_has(sum, "linux-4.5.y reverted its backport: 5e5e5e5e5e5e in v4.5.3");
	assert_null(strstr(sum, "Fixes to add"));
	g_free(sum);
	g_free(b);
	fixture_free(x);

	x = fixture();
	f = finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "Revert \"a\"", "v4.6-rc2");
	f.cause = FS_CAUSE_REVERT_OF_REVERT;
	f.reapplied_commit = (char *)"0a0a0a0a0a0abbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	f.reapplied_release = (char *)"v4.6-rc4";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "This commit was reverted upstream by\n\n  08fed77bca31 (\"Revert \"a\"\") in v4.6-rc2\n\n"
		      "and then applied again by 0a0a0a0a0a0a in v4.6-rc4, a revert of that\nrevert, so mainline has it.");
	assert_null(strstr(b, "drop"));
	assert_null(strstr(b, "queue"));
	sum = fs_draft_summary_body(&x->review, true);
	assert_null(sum);
	g_free(b);
	fixture_free(x);

	x = fixture();
	f = finding(FS_FIND_UNKNOWN_UPSTREAM, "cdf4294f5a34", NULL, NULL);
	f.cause = FS_CAUSE_NOT_IN_CLONE;
	f.unresolved = FS_CAUSE_NOT_IN_CLONE;
	f.evidence = FS_FEV_PREFIX;
	add(x, f);
	assert_null(fs_draft_patch_body(&x->review, &x->rp));
	assert_null(fs_draft_summary_body(&x->review, true));
	fixture_free(x);
}

static void test_body_mail_kinds(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;

	f = finding(FS_FIND_REGRESSION_REPORT, chain3[0], NULL, NULL);
	f.message_id = (char *)"report1@example.com";
	f.from = (char *)"Ravi Menon <ravi@example.com>";
	f.date = (char *)"Sat, 09 Apr 2016 01:44:51 +0000";
	f.note = (char *)"\"[REGRESSION] drain never returns\"";
	f.evidence = FS_FEV_MAIL;
	add(x, f);
	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.message_id = (char *)"obj1@example.net";
	f.from = (char *)"Chen Weilin <weilin@example.net>";
	f.note = (char *)"Please drop this, it breaks the build";
	f.evidence = FS_FEV_MAIL;
	add(x, f);
	f = finding(FS_FIND_REVERTS_STABLE, "f8ca9f47ac0caaaaaaaaaaaaaaaaaaaaaaaaaaaa", "regulator: core: x", NULL);
	f.stable_commit = (char *)"3c8bba439ed6bbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	f.evidence = FS_FEV_REVERT;
	add(x, f);
	b = patch_body(x);
	assert_has(b, "There is a regression report for the upstream commit:\n\n"
		      "  From: Ravi Menon <ravi@example.com>\n"
		      "  Date: Sat, 09 Apr 2016 01:44:51 +0000\n"
		      "  Subject: [REGRESSION] drain never returns\n"
		      "  https://lore.kernel.org/r/report1@example.com\n");
	/* attributed, in the replier's own words, not called an objection */
	assert_has(b, "Chen Weilin wrote in reply to this patch\n"
		      "(https://lore.kernel.org/r/obj1@example.net):\n\n"
		      "  \"Please drop this, it breaks the build\"\n");
	assert_null(strstr(b, "objected"));
	assert_null(strstr(b, "> Please drop"));
	assert_has(b, "This reverts 3c8bba439ed6, the linux-4.4.y backport of\n\n"
		      "  f8ca9f47ac0c (\"regulator: core: x\")");
	/* the report comes before the reply: order of action */
	assert_true(strstr(b, "regression report") < strstr(b, "wrote in reply"));
	g_free(b);
	fixture_free(x);
}

static void test_body_ignored_and_present(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;

	/* only ignored findings: nothing to say */
	f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "ignored fix", NULL);
	f.ignored = (char *)"not a real fix";
	add(x, f);
	assert_null(fs_draft_patch_body(&x->review, &x->rp));
	assert_null(fs_draft_summary_body(&x->review, true));

	/* a fix already present is not mentioned next to a real problem */
	f = finding(FS_FIND_FIX_PRESENT, "60e7c3ca5b7bdddddddddddddddddddddddddddd", "present fix", NULL);
	add(x, f);
	f = finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "the revert", NULL);
	add(x, f);
	b = patch_body(x);
	assert_null(strstr(b, "present fix"));
	assert_null(strstr(b, "ignored fix"));
	assert_has(b, "reverted upstream");
	g_free(b);
	fixture_free(x);
}

static void test_summary(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f;
	char *b;
	const char *fixes, *dups, *rev, *reports, *other;

	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.note = (char *)"This needs another commit";
	add(x, f);
	add(x, finding(FS_FIND_NO_UPSTREAM, NULL, NULL, NULL));
	add(x, finding(FS_FIND_REVERTED_UPSTREAM, "08fed77bca31dddddddddddddddddddddddddddd", "Revert it", "v4.6-rc2"));
	f = finding(FS_FIND_ALREADY_APPLIED, "cc3f5ac80b2deeeeeeeeeeeeeeeeeeeeeeeeeeee", "dup", NULL);
	f.stable_commit = (char *)"cc3f5ac80b2deeeeeeeeeeeeeeeeeeeeeeeeeeee";
	f.stable_release = (char *)"v4.4.2";
	add(x, f);
	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	f = finding(FS_FIND_FIX_QUEUED, chain3[1], "queued fix", NULL);
	f.series_index = 21;
	add(x, f);

	b = fs_draft_summary_body(&x->review, true);
	assert_non_null(b);
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:51 +0200, Greta Kroll wrote:\n"
				       "> This is the start of the stable review cycle for the 4.4.7 release.\n\n"));
	fixes = strstr(b, "Fixes to add:\n\n"
			  "  80e046b0715b (\"the fix\") in v4.7-rc1, fixes 03/24\n");
	dups = strstr(b, "Likely duplicates:\n\n"
			 "  03/24 netfilter: x_tables: check the offset\n"
			 "    already backported as cc3f5ac80b2d in v4.4.2\n");
	rev = strstr(b, "Reverted upstream:\n\n"
			"  03/24 netfilter: x_tables: check the offset\n"
			"    08fed77bca31 (\"Revert it\") in v4.6-rc2\n");
	/* a reply is pointed to, neither quoted again nor classed */
	reports = strstr(b, "Reports:\n\n  03/24 netfilter: x_tables: check the offset\n"
			    "    a reply from Dmitri Orlov");
	/* a missing upstream line asks nothing of the maintainer */
	other = strstr(b, "Other notes:");
	if (!fixes || !dups || !rev || !reports || other)
		fail_msg("summary groups missing:\n%s", b);
	assert_true(fixes < dups && dups < rev && rev < reports);
	assert_null(strstr(b, "objected"));
	assert_null(strstr(b, "another commit"));
	assert_null(strstr(b, "no upstream commit"));
	/* the queued fix needs nothing from the maintainer */
	assert_null(strstr(b, "queued fix"));
	assert_true(g_str_has_suffix(b, "Details are in my replies to the patches.\n"));
	g_free(b);

	b = fs_draft_summary_body(&x->review, false);
	assert_null(strstr(b, "Details are in my replies"));
	g_free(b);

	/* no cover, no summary */
	x->series.cover = NULL;
	assert_null(fs_draft_summary_body(&x->review, true));
	fixture_free(x);
}

/* A per-patch reply only where the maintainer must act; every finding
 * with --drafts-for=every-finding.  The summary is written either way. */
static void test_build_only_what_asks(void **state)
{
	static const struct {
		enum fs_finding_kind kind;
		enum fs_finding_cause cause;
		bool asks;
	} cases[] = {
		{ FS_FIND_FIX_MISSING, FS_CAUSE_FIX, true },
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, true },
		{ FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT_OF_REVERT, false },
		{ FS_FIND_ALREADY_APPLIED, FS_CAUSE_NONE, true },
		{ FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_NONE, true },
		{ FS_FIND_DEP_MISSING, FS_CAUSE_NONE, true },
		{ FS_FIND_TARGET_ABSENT, FS_CAUSE_NONE, true },
		{ FS_FIND_REGRESSION_REPORT, FS_CAUSE_NONE, true },
		{ FS_FIND_OBJECTION, FS_CAUSE_NONE, true },
		{ FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_NONE, true },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_FOUND, true },
		{ FS_FIND_UNKNOWN_UPSTREAM, FS_CAUSE_NOT_IN_CLONE, false },
		{ FS_FIND_FIX_QUEUED, FS_CAUSE_FIX, false },
		{ FS_FIND_FIX_PRESENT, FS_CAUSE_FIX, false },
		{ FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_NONE, false },
		{ FS_FIND_REVERTS_STABLE, FS_CAUSE_NONE, false },
		{ FS_FIND_NO_UPSTREAM, FS_CAUSE_NONE, false },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fixture *x = fixture();
		struct fs_drafts dl = FS_DRAFTS_INIT;
		struct fs_error err = FS_ERROR_INIT;
		struct fs_finding f = finding(cases[i].kind, "80e046b0715bcccccccccccccccccccccccccccc",
					      "the fix", "v4.7-rc1");
		int n;

		f.cause = cases[i].cause;
		add(x, f);
		if (fs_draft_finding_asks(&x->review.patches[0].findings.v[0]) != cases[i].asks)
			fail_msg("case %zu (%s): asks is %d", i, fs_finding_kind_name(cases[i].kind),
				 !cases[i].asks);
		n = fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err);
		assert_int_equal(n, cases[i].asks ? 1 : 0);
		n = fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, true, NOW, &err);
		assert_int_equal(n, 1);
		fs_drafts_clear(&dl);
		fixture_free(x);
	}
}

static void test_build_modes(void **state)
{
	struct fixture *x = fixture();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;

	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_ALL, false, NOW, &err), 2);
	assert_string_equal(dl.v[0].key, "summary <cover@stable.example.org>");
	assert_string_equal(dl.v[1].key, "patch <patch3@stable.example.org>");
	assert_string_equal(dl.v[1].label, "03/24 netfilter: x_tables: check the offset");
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_SUMMARY, false, NOW, &err), 1);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 1);
	assert_int_equal(dl.n, 4);
	assert_string_equal(dl.v[2].key, "summary <cover@stable.example.org>");
	assert_string_equal(dl.v[3].key, "patch <patch3@stable.example.org>");
	fs_drafts_clear(&dl);
	assert_int_equal(dl.n, 0);

	assert_int_equal(fs_draft_mode_from_name(NULL), FS_DRAFTS_ALL);
	assert_int_equal(fs_draft_mode_from_name("summary"), FS_DRAFTS_SUMMARY);
	assert_int_equal(fs_draft_mode_from_name("patches"), FS_DRAFTS_PATCHES);
	assert_int_equal(fs_draft_mode_from_name("some"), -1);
	fixture_free(x);
}

/* ---- the summary of a series, its width, its close --------------------- */

/* Three patches of one series, 20 to 22 of 24, with real mails. */
struct series3 {
	struct fs_patch *cover, *p[3];
	const struct fs_patch *patches[3];
	struct fs_thread_series series;
	struct fs_review_patch rp[3];
	struct fs_review review;
	struct fs_finding f[3][8];
};

static struct fs_patch *patch_mail(int nn, const char *title, const char *upstream)
{
	char *text = g_strdup_printf(
		"From: Greta Kroll <greta@stable.example.org>\n"
		"To: linux-kernel@vger.kernel.org\n"
		"Cc: stable@vger.kernel.org\n"
		"Subject: [PATCH 4.4 %02d/24] %s\n"
		"Date: Fri, 15 Apr 2016 03:45:%02d +0200\n"
		"Message-Id: <patch%d@stable.example.org>\n"
		"In-Reply-To: <cover@stable.example.org>\n"
		"References: <cover@stable.example.org>\n"
		"\n"
		"4.4-stable review patch.  If anyone has any objections, please let me know.\n"
		"\n"
		"------------------\n"
		"\n"
		"commit %s upstream.\n"
		"\n"
		"Text.\n", nn, title, nn, nn, upstream);
	struct fs_patch *p = mail(text);

	g_free(text);
	return p;
}

static struct series3 *series3(void)
{
	static const char *const titles[3] = {
		"sched/fair: update the blocked load of throttled groups",
		"sched/fair: do not update the blocked load of a group being destroyed",
		"mm/page_alloc: let movable allocations reuse high-order atomic reserves when the zone is short of free pages",
	};
	struct series3 *x = calloc(1, sizeof(*x));
	int i;

	x->cover = mail(COVER_MAIL);
	for (i = 0; i < 3; i++) {
		x->p[i] = patch_mail(20 + i, titles[i], chain3[i]);
		x->patches[i] = x->p[i];
		x->rp[i].patch = x->p[i];
		x->rp[i].index = 20 + i;
		x->rp[i].findings.v = x->f[i];
	}
	x->series.cover = x->cover;
	x->series.patches = x->patches;
	x->series.npatches = 3;
	x->series.total = 24;
	x->review.series = &x->series;
	x->review.branch = (char *)"linux-4.4.y";
	x->review.base = (char *)"v4.4.6";
	x->review.patches = x->rp;
	x->review.npatches = 3;
	return x;
}

static void series3_free(struct series3 *x)
{
	int i;

	fs_patch_free(x->cover);
	for (i = 0; i < 3; i++)
		fs_patch_free(x->p[i]);
	free(x);
}

static void add3(struct series3 *x, int i, struct fs_finding f)
{
	x->f[i][x->rp[i].findings.n++] = f;
}

/* The body of a composed draft, as a mail client shows it. */
static char *body_of(const struct fs_draft *d)
{
	GMimeMessage *m = parse_back(d);
	GMimeObject *part = g_mime_message_get_mime_part(m);
	char *text = g_mime_text_part_get_text(GMIME_TEXT_PART(part));

	g_object_unref(m);
	return text;
}

/* The number of times NEEDLE is in HAY. */
static int count_of(const char *hay, const char *needle)
{
	int n = 0;

	for (; (hay = strstr(hay, needle)); hay += strlen(needle))
		n++;
	return n;
}

/* Whether LINE may be longer than 72 columns: quoted text, a line that
 * starts with a commit reference, a link alone. */
static bool may_be_long(const char *line)
{
	size_t n;

	while (*line == ' ')
		line++;
	if (!strncmp(line, "> ", 2) || !strncmp(line, "(https://", 9) || !strncmp(line, "https://", 8))
		return true;
	n = strspn(line, "0123456789abcdef");
	return n >= 12 && !strncmp(line + n, " (\"", 3);
}

/* Every line of TEXT fits 72 columns, or may not (may_be_long()). */
static void assert_wrapped(const char *text)
{
	char **lines = g_strsplit(text, "\n", -1);
	size_t i;

	for (i = 0; lines[i]; i++)
		if (g_utf8_strlen(lines[i], -1) > 72 && !may_be_long(lines[i]))
			fail_msg("line %zu is %ld columns: '%s' in:\n%s", i + 1,
				 g_utf8_strlen(lines[i], -1), lines[i], text);
	g_strfreev(lines);
}

static bool answered_21(void *data, const struct fs_patch *p)
{
	(*(int *)data)++;
	return !strcmp(fs_patch_message_id(p), "patch21@stable.example.org");
}

/* Two patches that need one fix: one line in the summary naming the
 * commit once and both patches; each patch's own reply asks for it. */
static void test_summary_one_request_per_commit(void **state)
{
	struct series3 *x = series3();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f;
	char *sum, *b20, *b21;
	int calls = 0;

	f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the runqueue lock when skipping a destroyed group", "v4.7-rc1");
	add3(x, 0, f);
	add3(x, 1, f);
	f = finding(FS_FIND_DEP_MISSING, chain3[2], "sched/fair: hold the runqueue lock when skipping a destroyed group", "v4.7-rc1");
	f.cause = FS_CAUSE_PREREQUISITE;
	add3(x, 2, f);
	add3(x, 2, finding(FS_FIND_FIX_MISSING, "fc2cb07d51cc0000000000000000000000000000", "mm: other fix", "v4.5-rc2"));

	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 4);
	sum = body_of(&dl.v[0]);
	/* a prerequisite is no fix: "Commits to add:" */
	assert_has(sum, "Commits to add:\n\n"
		   "  c5fef009a731 (\"sched/fair: hold the runqueue lock when skipping a destroyed group\")\n"
		   "    in v4.7-rc1, fixes 20/24 and 21/24 and is a prerequisite of 22/24\n"
		   "  fc2cb07d51cc (\"mm: other fix\") in v4.5-rc2, fixes 22/24\n");
	assert_int_equal(count_of(sum, "c5fef009a731"), 1);
	assert_null(strstr(sum, "already answered"));
	/* 20 and 21 need the same commit: the reply to the first asks for
	 * it, the other points to that reply */
	b20 = body_of(&dl.v[1]);
	b21 = body_of(&dl.v[2]);
	assert_has(b20, "  c5fef009a731 (\"sched/fair: hold the runqueue lock when skipping a destroyed group\") in v4.7-rc1\n\nPlease queue it as well.");
	assert_null(strstr(b21, "c5fef009a731"));
	assert_has(b21, "This commit needs the follow-up fix I asked for in my reply to 20/24.");
	assert_null(strstr(b21, "Please queue"));
	assert_null(strstr(b20, "covered"));
	g_free(b20);
	g_free(b21);
	g_free(sum);
	fs_drafts_clear(&dl);

	/* a patch the reviewer answered is marked, not dropped */
	o.answered = answered_21;
	o.answered_data = &calls;
	o.mode = FS_DRAFTS_SUMMARY;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 1);
	assert_true(calls > 0);
	sum = body_of(&dl.v[0]);
	assert_has(sum, "fixes 20/24 and 21/24 (already answered) and is a prerequisite of 22/24");
	assert_int_equal(count_of(sum, "(already answered)"), 1);
	g_free(sum);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* Every body line fits 72 columns but for quotes, commit references
 * and links; a quoted reason ends where a sentence ends. */
static void test_bodies_wrapped(void **state)
{
	struct series3 *x = series3();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f;
	size_t i;
	char *b;

	f = finding(FS_FIND_OBJECTION, NULL, NULL, NULL);
	f.from = (char *)"Dmitri Orlov <dorlov@example.com>";
	f.note = (char *)"This needs commit 80e046b0715b (\"netfilter: x_tables: fix the compat counters offset check\") as well, otherwise the check can still be bypassed by a crafted rule set loaded from a 32-bit process.";
	f.message_id = (char *)"20160425034451.100269246@example.com";
	add3(x, 0, f);
	f = finding(FS_FIND_REVERTED_IN_STABLE, "f0a61a40aca7aaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		    "Revert \"usb: hub: wait for the port power to settle after a resume\"", "v4.5.3");
	f.cause = FS_CAUSE_STABLE_REVERT;
	f.branch = (char *)"linux-4.5.y";
	f.reason = (char *)"It makes resume hang on boards whose hub lacks per-port power switching, and the code it relies on is not in 4.5. The hub driver there still powers all ports together, so the wait never ends when one port has no device behind it. Bisected on three boards by two people independently, and confirmed by reverting it on top of v4.5.2 where resume works again on all of them. The same hang shows up on the 4.4 based vendor kernels that carry it, as the reports linked from the bug say.";
	add3(x, 1, f);
	f = finding(FS_FIND_TARGET_ABSENT, "c0697f5044f7ffffffffffffffffffffffffffff",
		    "iio: adc: convert the temperature channel to the processed format", "v4.5-rc1");
	add3(x, 2, f);
	f = finding(FS_FIND_FIXES_TAG_MISMATCH, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
		    "ext4: release the journal handle when inode allocation fails", NULL);
	f.cause = FS_CAUSE_SUBJECT_MISMATCH;
	add3(x, 2, f);
	f = finding(FS_FIND_REGRESSION_REPORT, chain3[2], NULL, NULL);
	f.message_id = (char *)"20160418014451.100007919@example.com";
	f.from = (char *)"Ravi Menon <ravi.menon@example.com>";
	f.note = (char *)"\"[REGRESSION] ALSA: pcm: drain never returns on USB audio (bisected) since 4.4.6\"";
	add3(x, 2, f);
	add3(x, 2, finding(FS_FIND_UNKNOWN_UPSTREAM, "cdf4294f5a340cd493e0881f37e28886a5b954b0", NULL, NULL));
	x->f[2][3].unresolved = FS_CAUSE_NOT_FOUND;

	o.now = NOW;
	o.every_finding = true;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 4);
	for (i = 0; i < dl.n; i++) {
		b = body_of(&dl.v[i]);
		assert_wrapped(b);
		g_free(b);
	}
	/* the objection is quoted whole, the long reason up to a sentence */
	b = body_of(&dl.v[1]);
	assert_has(b, "  as well, otherwise the check can still be bypassed by a crafted rule\n  set loaded from a 32-bit process.\"\n");
	g_free(b);
	b = body_of(&dl.v[2]);
	assert_has(b, "resume works again on all of them.\"\n\nDoes that reason");
	assert_null(strstr(b, "vendor"));
	g_free(b);
	b = body_of(&dl.v[0]);
	/* the summary points to the reply; it does not quote it again */
	assert_has(b, "a reply from Dmitri Orlov");
	assert_null(strstr(b, "bypassed"));
	g_free(b);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* The lines a reply quotes are the lines of the mail that name what it
 * speaks of, in their order, a ">" between lines apart: the upstream
 * line and the Fixes: line, never the subject. */
static void test_quotes_named_lines(void **state)
{
	struct fixture *x = fixture();
	struct fs_finding f = finding(FS_FIND_FIXES_TAG_MISMATCH, "12c09ccaa0f5bbbbbbbbbbbbbbbbbbbbbbbbbbbb",
				      "ext4: release the handle", "v4.4-rc1");
	char *b;

	fs_patch_free(x->patch);
	x->patch = mail("From: Greta Kroll <greta@stable.example.org>\n"
			"To: linux-kernel@vger.kernel.org\n"
			"Subject: [PATCH 4.4 03/24] ext4: do not leak the handle\n"
			"Date: Fri, 15 Apr 2016 03:44:54 +0200\n"
			"Message-Id: <patch3@stable.example.org>\n"
			"\n"
			"4.4-stable review patch.  If anyone has any objections, please let me know.\n"
			"\n"
			"------------------\n"
			"\n"
			"commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
			"\n"
			"Do not leak the handle.\n"
			"\n"
			"Fixes: 12c09ccaa0f5 (\"ext4: release the handle\")\n"
			"Signed-off-by: Someone <someone@example.org>\n");
	x->patches[0] = x->patch;
	x->rp.patch = x->patch;
	add(x, f);
	b = patch_body(x);
	assert_true(g_str_has_prefix(b, "On Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n"
				       "> commit 404cd27d8378ed8ee4484af6268453059eb27a44 upstream.\n"
				       ">\n"
				       "> Fixes: 12c09ccaa0f5 (\"ext4: release the handle\")\n"
				       "\n"));
	assert_quotes_mail(b, x->patch);
	assert_null(strstr(b, "> ext4: do not leak"));
	assert_null(strstr(b, "> Do not leak"));
	g_free(b);
	fixture_free(x);
}

/* A fix of 21 that 20 needs through 21 (a chain of three) is asked for
 * in the reply to 21, the patch it fixes directly, though 20 comes
 * first; the reply to 20 points to it and names no commit to queue. */
static void test_ask_once_direct(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the lock", "v4.7-rc1");
	char *b20, *b21;

	f.chain = chain3;
	f.nchain = 3;
	add3(x, 0, f);
	f.chain = chain3 + 1;
	f.nchain = 2;
	add3(x, 1, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 2);
	b20 = body_of(&dl.v[0]);
	b21 = body_of(&dl.v[1]);
	assert_has(b21, "  c5fef009a731 (\"sched/fair: hold the lock\") in v4.7-rc1\n\nPlease queue it as well.");
	assert_null(strstr(b20, "c5fef009a731"));
	assert_null(strstr(b20, "Please queue"));
	assert_has(b20, "This commit needs the follow-up fix I asked for in my reply to 21/24.");
	g_free(b20);
	g_free(b21);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* The same, with 20's follow-up fix queued as 21: one sentence in the
 * order of the chain, and the summary says 21 is the fix of 20. */
static void test_ask_once_chain_queued(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, chain3[2], "sched/fair: hold the lock", "v4.7-rc1");
	struct fs_finding q = finding(FS_FIND_FIX_QUEUED, chain3[1], "sched/fair: first fix", NULL);
	char *sum, *b20;

	f.chain = chain3;
	f.nchain = 3;
	add3(x, 0, f);
	q.series_index = 21;
	add3(x, 0, q);
	f.chain = chain3 + 1;
	f.nchain = 2;
	add3(x, 1, f);
	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 3);
	sum = body_of(&dl.v[0]);
	b20 = body_of(&dl.v[1]);
	assert_has(b20, "Its follow-up fix 8028d6694e09 (\"sched/fair: first fix\") is queued as 21/24; that one needs c5fef009a731 (\"sched/fair: hold the lock\") in turn, which I asked for in my reply to 21/24.");
	assert_null(strstr(b20, "covered"));
	assert_null(strstr(b20, "This commit needs"));
	assert_has(sum, "in v4.7-rc1, fixes 21/24 (a fix of 20/24)\n");
	g_free(b20);
	g_free(sum);
	fs_drafts_clear(&dl);
	series3_free(x);
}

/* Patch NN of series3 X replaced by one of upstream UP whose diff adds
 * LINE. */
static void set_diff(struct series3 *x, int i, const char *up, const char *line)
{
	char *text = g_strdup_printf(
		"From: Greta Kroll <greta@stable.example.org>\n"
		"Subject: [PATCH 4.4 %02d/24] block: account discard bios\n"
		"Message-Id: <patch%d@stable.example.org>\n"
		"\n"
		"commit %s upstream.\n"
		"\n"
		"---\n"
		"diff --git a/block/bio.c b/block/bio.c\n"
		"--- a/block/bio.c\n"
		"+++ b/block/bio.c\n"
		"@@ -1,1 +1,2 @@\n"
		" a\n"
		"+%s\n"
		"-- \n"
		"2.8.%d\n", 20 + i, 20 + i, up, line, i);

	fs_patch_free(x->p[i]);
	x->p[i] = mail(text);
	x->patches[i] = x->p[i];
	x->rp[i].patch = x->p[i];
	g_free(text);
}

/* Two patches of one upstream commit, neither flagged as differing
 * from upstream: the same diff is a duplicate to drop, two diffs are
 * a question (the signatures differ; they are no part of the diff). */
static void test_duplicate_diffs_compared(void **state)
{
	static const char *const second[2] = { "b();", "c();" };
	size_t k;

	for (k = 0; k < 2; k++) {
		struct series3 *x = series3();
		struct fs_finding f = finding(FS_FIND_DUPLICATE_IN_SERIES, chain3[0], "subj", "v4.6");
		char *b;

		set_diff(x, 0, chain3[0], "b();");
		set_diff(x, 1, chain3[0], second[k]);
		f.series_index = 20;
		add3(x, 1, f);
		b = fs_draft_patch_body(&x->review, &x->rp[1]);
		assert_non_null(b);
		if (k == 0)
			assert_has(b, "so one of the two looks like a duplicate. Please drop this one.");
		else
			assert_has(b, "but the two are not the same diff. Which of the two is meant?");
		g_free(b);
		series3_free(x);
	}
}

/* The reporter of a regression and the author of a reply the draft
 * cites are in its Cc, once, whatever the case of their address. */
static void test_cc_people_cited(void **state)
{
	struct fixture *x = fixture();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_REGRESSION_REPORT, chain3[0], "x", NULL);
	GMimeMessage *m;
	char *cc;

	f.from = (char *)"Ravi Menon <ravi@example.com>";
	f.message_id = (char *)"report1@example.com";
	f.note = (char *)"\"[REGRESSION] drain never returns\"";
	add(x, f);
	f = finding(FS_FIND_OBJECTION, "", NULL, NULL);
	f.from = (char *)"Dmitri Orlov <DOrlov@example.com>";
	f.message_id = (char *)"obj1@example.com";
	f.note = (char *)"Please drop this.";
	add(x, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err), 1);
	m = parse_back(&dl.v[0]);
	cc = addrs(m, GMIME_ADDRESS_TYPE_CC);
	/* Dmitri was in Cc of the patch already: not named twice */
	assert_string_equal(cc, "linux-kernel@vger.kernel.org, stable@vger.kernel.org, dorlov@example.com, "
			    "ravi@example.com");
	g_free(cc);
	g_object_unref(m);
	fs_drafts_clear(&dl);
	fixture_free(x);
}

/* Each draft ends like a person's mail: "Thanks," and the name, or the
 * signature; a template sets the opening and the close. */
static void test_close_and_template(void **state)
{
	static const char tmpl[] =
		"${greeting}\n\n${quote}\n\n${findings}\n\n"
		"Cost: $$0 (${patch} on ${branch}, re: ${subject}, from ${author})\n"
		"Thanks,\n${name} <${email}>\n-- \n${signature}\n";
	struct fixture *x = fixture();
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_identity noname = { (char *)"", (char *)"rita@example.org", "git config" };
	char *b;

	add(x, finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc", "the fix", "v4.7-rc1"));
	o.now = NOW;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[0]);
	assert_true(g_str_has_suffix(b, "Details are in my replies to the patches.\n\nThanks,\nRita Reviewer\n"));
	g_free(b);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\nThanks,\nRita Reviewer\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* no name: the address */
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &noname, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "\n\nThanks,\nrita@example.org\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* a signature file's text instead of the name, trailing lines cut */
	o.signature = "Rita\n\nExample Kernel Team\n\n\n";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\nThanks,\nRita\n\nExample Kernel Team\n"));
	g_free(b);
	fs_drafts_clear(&dl);

	/* a template: every variable */
	o.template_text = tmpl;
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), 2);
	b = body_of(&dl.v[1]);
	assert_true(g_str_has_prefix(b, "Hi Greta,\n\nOn Fri, 15 Apr 2016 03:44:54 +0200, Greta Kroll wrote:\n> commit 404cd27d"));
	assert_has(b, "upstream.\n\nThis commit has a known follow-up fix");
	assert_true(g_str_has_suffix(b, "Please queue it as well.\n\n"
				     "Cost: $0 (03/24 on linux-4.4.y, re: [PATCH 4.4 03/24] netfilter: x_tables: check the offset, from Greta Kroll)\n"
				     "Thanks,\nRita Reviewer <rita@example.org>\n-- \nRita\n\nExample Kernel Team\n"));
	g_free(b);
	b = body_of(&dl.v[0]);
	assert_has(b, "Cost: $0 (00/24 on linux-4.4.y, re: [PATCH 4.4 00/24] 4.4.7-stable review, from Greta Kroll)");
	g_free(b);
	fs_drafts_clear(&dl);

	/* a template that cannot be filled: a clear error, no draft */
	assert_int_equal(fs_draft_template_check("${quote}\n${findings}\nBye, ${nmae}\n", &err), FS_EUSAGE);
	assert_string_equal(err.message, "line 3: unknown variable ${nmae} (known: ${quote}, ${findings}, ${greeting}, ${name}, ${email}, ${signature}, ${subject}, ${author}, ${patch}, ${branch})");
	o.template_text = "Hi,\n${quote}\n${findings";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), FS_EUSAGE);
	assert_string_equal(err.message, "draft template: line 3: '${' without its '}'");
	o.template_text = "${quote}\nThanks\n";
	assert_int_equal(fs_drafts_build_opts(&dl, &x->review, &rita, &o, &err), FS_EUSAGE);
	assert_non_null(strstr(err.message, "no ${findings}"));
	assert_int_equal(dl.n, 0);
	assert_int_equal(fs_draft_template_check("$5 and $$ and ${findings}", &err), 0);
	fixture_free(x);
}

/* Nobody at all to answer: no draft, one line saying why, and the
 * other patches' drafts are still made. */
static void test_build_unanswerable(void **state)
{
	struct series3 *x = series3();
	struct fs_drafts dl = FS_DRAFTS_INIT;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_finding f = finding(FS_FIND_FIX_MISSING, "80e046b0715bcccccccccccccccccccccccccccc",
				      "the fix", "v4.7-rc1");

	fs_patch_free(x->p[1]);
	x->p[1] = mail("From: \"Greta <>\nTo: undisclosed-recipients:;\n"
		       "Subject: [PATCH 4.4 21/24] x\nMessage-Id: <patch21@stable.example.org>\n\nbody\n");
	x->patches[1] = x->p[1];
	x->rp[1].patch = x->p[1];
	add3(x, 0, f);
	add3(x, 1, f);
	add3(x, 2, f);
	assert_int_equal(fs_drafts_build(&dl, &x->review, &rita, FS_DRAFTS_PATCHES, false, NOW, &err),
			 FS_EPARSE);
	assert_string_equal(err.message,
			    "cannot reply to <patch21@stable.example.org>: no address in its From, To or Cc can be parsed");
	assert_int_equal(dl.n, 2);
	assert_string_equal(dl.v[0].key, "patch <patch20@stable.example.org>");
	assert_string_equal(dl.v[1].key, "patch <patch22@stable.example.org>");
	fs_drafts_clear(&dl);
	series3_free(x);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	return remove(path);
}

static int setup(void **state)
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

static int teardown(void **state)
{
	nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	g_mime_shutdown();
	git_libgit2_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reply_subject),
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_compose_headers),
		cmocka_unit_test(test_compose_unique_ids),
		cmocka_unit_test(test_compose_references_growth),
		cmocka_unit_test(test_compose_encodings),
		cmocka_unit_test(test_compose_injection),
		cmocka_unit_test(test_compose_no_message_id),
		cmocka_unit_test(test_body_quotes),
		cmocka_unit_test(test_body_fix_missing),
		cmocka_unit_test(test_body_each_kind),
		cmocka_unit_test(test_body_duplicate_differs),
		cmocka_unit_test(test_body_series_partial_number),
		cmocka_unit_test(test_body_pending_names),
		cmocka_unit_test(test_quotes_named_lines),
		cmocka_unit_test(test_ask_once_direct),
		cmocka_unit_test(test_ask_once_chain_queued),
		cmocka_unit_test(test_duplicate_diffs_compared),
		cmocka_unit_test(test_cc_people_cited),
		cmocka_unit_test(test_body_new_causes),
		cmocka_unit_test(test_body_mail_kinds),
		cmocka_unit_test(test_body_ignored_and_present),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_build_modes),
		cmocka_unit_test(test_build_only_what_asks),
		cmocka_unit_test(test_summary_one_request_per_commit),
		cmocka_unit_test(test_bodies_wrapped),
		cmocka_unit_test(test_close_and_template),
		cmocka_unit_test(test_compose_odd_recipients),
		cmocka_unit_test(test_build_unanswerable),
	};

	return cmocka_run_group_tests_name("draft", tests, setup, teardown);
}
