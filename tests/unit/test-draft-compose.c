/* Unit tests for the composition of a draft (lib/draft/draft-compose.c,
 * draft-id.c): subjects, headers, Message-Ids and References, encodings,
 * and mail text that tries to inject headers.  The composed messages are
 * parsed back with GMime to check them as a mail client would see them.
 */
#include "draft-mail.h"

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
		cmocka_unit_test(test_compose_odd_recipients),
	};

	return cmocka_run_group_tests_name("draft", tests, setup, teardown);
}

