/* Unit tests for src/mail.c.
 *
 * fs_series_parse() and fs_mail_inbody_from() are table driven.  The
 * reader is tested on small mails written to a temporary directory, one per
 * encoding the stable lists carry.  All mails and ids are invented.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "fixscan/mail.h"

/* ---- fs_series_parse ------------------------------------------------------ */

struct series_case {
	const char *subject;
	bool match;
	const char *prefix;
	bool autosel;
	const char *version;
	int revision, index, total;
	const char *title;
};

static const struct series_case series_cases[] = {
	{ "[PATCH 4.4 000/143] 4.4.175-stable review", true,
	  "PATCH", false, "4.4", 0, 0, 143, "4.4.175-stable review" },
	{ "[PATCH 5.14 00/14] 5.14.2-rc1 review", true,
	  "PATCH", false, "5.14", 0, 0, 14, "5.14.2-rc1 review" },
	{ "[PATCH 4.4 105/143] MIPS: VDSO: Include $(ccflags-vdso) in o32,n32 .lds builds",
	  true, "PATCH", false, "4.4", 0, 105, 143,
	  "MIPS: VDSO: Include $(ccflags-vdso) in o32,n32 .lds builds" },
	{ "[PATCH AUTOSEL 4.19 12/40] net: foo: bar", true,
	  "PATCH AUTOSEL", true, "4.19", 0, 12, 40, "net: foo: bar" },
	{ "[PATCH 5.10 v2] usb: fix it", true,
	  "PATCH", false, "5.10", 2, -1, -1, "usb: fix it" },
	{ "[PATCH stable 4.9] ext4: fix it", true,
	  "PATCH stable", false, "4.9", 0, -1, -1, "ext4: fix it" },
	{ "[PATCH 4.4.y] ALSA: fix it", true,
	  "PATCH", false, "4.4", 0, -1, -1, "ALSA: fix it" },
	{ "[PATCH v2 4.14 3/7] mm: fix it", true,
	  "PATCH", false, "4.14", 2, 3, 7, "mm: fix it" },
	{ "[PATCH 5.4 01/10] x86: fix it", true,
	  "PATCH", false, "5.4", 0, 1, 10, "x86: fix it" },
	{ "Re: [PATCH 4.4 105/143] MIPS: VDSO: fix it", true,
	  "PATCH", false, "4.4", 0, 105, 143, "MIPS: VDSO: fix it" },
	{ "RE: Fwd: [PATCH 4.4 1/2] a", true,
	  "PATCH", false, "4.4", 0, 1, 2, "a" },
	{ "[PATCH] foo: bar", true,
	  "PATCH", false, NULL, 0, -1, -1, "foo: bar" },
	{ "[PATCH 1/3] foo: bar", true,
	  "PATCH", false, NULL, 0, 1, 3, "foo: bar" },
	{ "[RFC PATCH 4.4] foo", true,
	  "RFC PATCH", false, "4.4", 0, -1, -1, "foo" },
	{ "[PATCH 2.6.32 12/40] old: fix", true,
	  "PATCH", false, "2.6.32", 0, 12, 40, "old: fix" },
	{ "[PATCHv10 6.1] drm: fix", true,
	  "PATCH", false, "6.1", 10, -1, -1, "drm: fix" },
	{ "[PATCHv3 6.1] drm: fix", true,
	  "PATCH", false, "6.1", 3, -1, -1, "drm: fix" },
	{ "[PATCH 5.15.y v2 1/1]   spaces:  kept", true,
	  "PATCH", false, "5.15", 2, 1, 1, "spaces:  kept" },
	{ "[PATCH]", true, "PATCH", false, NULL, 0, -1, -1, "" },
	{ "[BACKPORT 4.14.y 0/8] Candidates from a product kernel", true,
	  "BACKPORT", false, "4.14", 0, 0, 8, "Candidates from a product kernel" },
	{ "[BACKPORT 4.19.y v2 3/6] mm: fix it", true,
	  "BACKPORT", false, "4.19", 2, 3, 6, "mm: fix it" },
	{ "[stable-4.4 1/5] padata: fix it", true,
	  "", false, "4.4", 0, 1, 5, "padata: fix it" },
	/* PATCH joined to another word by a dash or a slash */
	{ "[STABLE-PATCH] xfs: fix it", true,
	  "STABLE-PATCH", false, NULL, 0, -1, -1, "xfs: fix it" },
	{ "[PATCH/FIXUP FOR STABLE] kvm: fix it", true,
	  "PATCH FOR STABLE", false, NULL, 0, -1, -1, "kvm: fix it" },
	{ "[RFC-PATCH 5.10] mm: fix it", true,
	  "RFC-PATCH", false, "5.10", 0, -1, -1, "mm: fix it" },
	{ .subject = "[PATCHES] several words", .match = false },
	{ .subject = "[dispatch] not a patch", .match = false },
	{ .subject = "[5.12.y] kfence: a request, no patch", .match = false },
	{ .subject = "[Backport request for 5.4.y] clk: fix it", .match = false },
	{ .subject = "[backport] only a word", .match = false },
	{ .subject = "[linux-stable-rc:linux-4.19.y 1181/1498] ERROR: x", .match = false },
	{ .subject = "[stable-rc] 5.12 arm.c: error", .match = false },
	{ .subject = "net: no prefix at all", .match = false },
	{ .subject = "Re: net: no prefix", .match = false },
	{ .subject = "[GIT PULL] stable fixes", .match = false },
	{ .subject = "[PATCH 4.4 unterminated", .match = false },
	{ .subject = "", .match = false },
};

static void test_series__table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(series_cases) / sizeof(series_cases[0]); i++) {
		const struct series_case *c = &series_cases[i];
		struct fs_series s = { (char *)"untouched", false, NULL, 99, 99, 99, NULL, false };
		const char *title = "untouched";
		bool got = fs_series_parse(c->subject, &s, &title);

		if (got != c->match)
			fail_msg("'%s': match %d, want %d", c->subject, got, c->match);
		if (!got) {
			/* a miss touches nothing */
			assert_string_equal(s.prefix, "untouched");
			assert_int_equal(s.revision, 99);
			assert_string_equal(title, "untouched");
			continue;
		}
		assert_string_equal(s.prefix, c->prefix);
		assert_int_equal(s.autosel, c->autosel);
		if (c->version)
			assert_string_equal(s.version, c->version);
		else
			assert_null(s.version);
		assert_int_equal(s.revision, c->revision);
		assert_int_equal(s.index, c->index);
		assert_int_equal(s.total, c->total);
		assert_string_equal(title, c->title);
		fs_series_clear(&s);
		assert_null(s.prefix);
		assert_null(s.version);
	}
}

/* Prefixes that name several series, a range, or stable without PATCH. */
/* Mail about stable that is no patch: a robot's report on stable-rc, a
 * request to backport, a branch alone; and what stays out. */
static void test_subject_names_stable(void **state)
{
	static const struct {
		const char *subject;
		bool names;
		const char *version; /* NULL: none */
	} cases[] = {
		{ "[linux-stable-rc:linux-7.1.y 1181/1498] x.c:12:5: error: y", true, "7.1" },
		{ "Re: [linux-stable-rc:queue/7.2 109/220] a.s: error", true, NULL },
		{ "[linux-stable-rc:linux-7.1.y] [widget]  0a1b2c3d4e:", true, "7.1" },
		{ "[stable-rc] 7.2 arch/x/y.c:7:8: error: use of undeclared", true, "7.2" },
		{ "[Backport request for 7.1.y] clk: fix it", true, "7.1" },
		{ "Re: [stable request] please take widget: fix", true, NULL },
		{ "[7.2.y] widget: use the idle wait", true, "7.2" },
		{ "[7.2-stable] widget: request", true, "7.2" },
		/* patches are fs_series_parse()'s; the rest names no stable */
		{ "[PATCH 7.1] widget: fix", false, NULL },
		{ "[STABLE-PATCH] widget: fix", false, NULL },
		{ "[7.2] widget: a bare number could be anything", false, NULL },
		{ "[GIT PULL] stable fixes", false, NULL },
		{ "[REGRESSION] 7.1.y: widget hangs", false, NULL },
		{ "widget: stable-rc no bracket", false, NULL },
		{ "[unterminated stable", false, NULL },
		{ "", false, NULL },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *v = (char *)"untouched";
		bool got = fs_subject_names_stable(cases[i].subject, &v);

		if (got != cases[i].names)
			fail_msg("'%s': %d, want %d", cases[i].subject, got, cases[i].names);
		if (g_strcmp0(v, cases[i].version))
			fail_msg("'%s': version '%s', want '%s'", cases[i].subject, v ? v : "(none)",
				 cases[i].version ? cases[i].version : "(none)");
		g_free(v);
	}
	assert_false(fs_subject_names_stable(NULL, NULL));
	assert_true(fs_subject_names_stable("[7.2.y] x", NULL));
}

static void test_series__versions(void **state)
{
	static const struct {
		const char *subject;
		const char *versions; /* joined with ',' */
		bool range;
		int index, total;
	} cases[] = {
		{ "[PATCH AUTOSEL 7.1-6.2] a: b", "7.1,6.2", true, -1, -1 },
		{ "[PATCH 4.20/5.16 2/3] a: b", "4.20,5.16", false, 2, 3 },
		{ "[PATCH][for stable [3.18, 4.20] 2/2] a: b", "3.18,4.20", false, 2, 2 },
		{ "[PATCH v3][for-stable 4.20, 4.9] a: b", "4.20,4.9", false, -1, -1 },
		{ "[PATCH 4.20-stable] a: b", "4.20", false, -1, -1 },
		{ "[-stable,6.2 04/19] a: b", "6.2", false, 4, 19 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct fs_series s;
		const char *title = NULL;
		char *joined;

		if (!fs_series_parse(cases[i].subject, &s, &title))
			fail_msg("no prefix in '%s'", cases[i].subject);
		assert_non_null(s.versions);
		joined = g_strjoinv(",", s.versions);
		assert_string_equal(joined, cases[i].versions);
		assert_int_equal(s.version_range, cases[i].range);
		if (cases[i].range)
			assert_null(s.version);
		else
			assert_string_equal(s.version, s.versions[0]);
		assert_int_equal(s.index, cases[i].index);
		assert_int_equal(s.total, cases[i].total);
		assert_string_equal(title, "a: b");
		g_free(joined);
		fs_series_clear(&s);
	}
	/* a stable word alone, with no series, is no patch */
	{
		struct fs_series s;
		assert_false(fs_series_parse("[stable] a: b", &s, NULL));
	}
}

static void test_series__null_title_and_clear_twice(void **state)
{
	struct fs_series s;

	(void)state;
	assert_true(fs_series_parse("[PATCH 4.4 1/2] x", &s, NULL));
	assert_string_equal(s.version, "4.4");
	fs_series_clear(&s);
	fs_series_clear(&s);
	fs_series_clear(NULL);
	assert_false(fs_series_parse(NULL, &s, NULL));
}

/* ---- fs_mail_inbody_from ---------------------------------------------------- */

struct from_case {
	const char *name;
	const char *body;
	const char *want; /* NULL: none */
};

static const struct from_case from_cases[] = {
	{ "stable preamble",
	  "4.4-stable review patch.  If anyone has any objections, please let me know.\n"
	  "\n------------------\n\n"
	  "From: Real Author <author@example.org>\n\n"
	  "commit 0123456789012345678901234567890123456789 upstream.\n",
	  "Real Author <author@example.org>" },
	{ "rc preamble of another maintainer",
	  "3.16.57-rc1 review patch.  If anyone has any objections, please let me know.\n"
	  "\n------------------\n\n"
	  "From: Other Author <other@example.org>\n",
	  "Other Author <other@example.org>" },
	{ "preamble without From",
	  "4.4-stable review patch.  If anyone has any objections, please let me know.\n"
	  "\n------------------\n\n"
	  "commit 0123456789012345678901234567890123456789 upstream.\n",
	  NULL },
	{ "format-patch first line",
	  "\n\nFrom: Patch Writer <writer@example.com>\n\n[ Upstream commit 0123456 ]\n",
	  "Patch Writer <writer@example.com>" },
	{ "bare address",
	  "From: writer@example.com\n\nbody\n",
	  "writer@example.com" },
	{ "none",
	  "A changelog that names nobody.\n\nSigned-off-by: X <x@example.com>\n",
	  NULL },
	{ "From deep in the changelog",
	  "Fix the frobnicator.\n\n"
	  "From: this line is part of the text, not a header\n"
	  "From: Not Author <no@example.com>\n",
	  NULL },
	{ "From after the preamble text, not first",
	  "4.4-stable review patch.  If anyone has any objections, please let me know.\n"
	  "\n------------------\n\n"
	  "commit 0123456789012345678901234567890123456789 upstream.\n\n"
	  "From: Not Author <no@example.com>\n",
	  NULL },
	{ "encoded",
	  "4.9-stable review patch.  If anyone has any objections, please let me know.\n"
	  "\n------------------\n\n"
	  "From: =?UTF-8?q?J=C3=B6rg=20Lindqvist?= <jorg@example.com>\n",
	  "J\xc3\xb6rg Lindqvist <jorg@example.com>" },
	{ "encoded base64 word, CRLF",
	  "From: =?UTF-8?B?QW5kcsOpIEZhdXJl?= <andre@example.org>\r\n\r\nx\r\n",
	  "Andr\xc3\xa9 Faure <andre@example.org>" },
	{ "quoted name",
	  "From: \"Doe, Jane\" <jane@example.org>\n",
	  "Doe, Jane <jane@example.org>" },
	{ "empty value", "From:   \n", NULL },
	{ "empty body", "", NULL },
	{ "only blank lines", "\n\n  \n", NULL },
	{ "preamble cut short",
	  "4.4-stable review patch.  If anyone has any objections, please let me know.\n",
	  NULL },
};

static void test_inbody_from__table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(from_cases) / sizeof(from_cases[0]); i++) {
		const struct from_case *c = &from_cases[i];
		char *got = fs_mail_inbody_from(c->body, strlen(c->body));

		if (!c->want && got)
			fail_msg("%s: got '%s', want none", c->name, got);
		if (c->want && !got)
			fail_msg("%s: got none, want '%s'", c->name, c->want);
		if (c->want && strcmp(got, c->want))
			fail_msg("%s: got '%s', want '%s'", c->name, got, c->want);
		g_free(got);
	}
	assert_null(fs_mail_inbody_from(NULL, 0));
}

static void test_inbody_from__not_nul_terminated(void **state)
{
	/* LEN bounds the search: the From line lies beyond it */
	static const char body[] = "\n\nFrom: A <a@example.org>\n";
	char *got;

	(void)state;
	assert_null(fs_mail_inbody_from(body, 2));
	got = fs_mail_inbody_from(body, 12);
	/* "From: A <a@" is cut: whatever comes out must not read past LEN */
	g_free(got);
}

/* ---- reader ------------------------------------------------------------------ */

struct tmpdir {
	char path[64];
};

static int setup_tmp(void **state)
{
	struct tmpdir *t = calloc(1, sizeof(*t));

	if (!t)
		return -1;
	strcpy(t->path, "/tmp/fixscan-test-mail.XXXXXX");
	if (!mkdtemp(t->path)) {
		free(t);
		return -1;
	}
	*state = t;
	return 0;
}

static int teardown_tmp(void **state)
{
	struct tmpdir *t = *state;
	char *cmd = g_strdup_printf("rm -rf '%s'", t->path);
	int rc = system(cmd);

	g_free(cmd);
	free(t);
	return rc == 0 ? 0 : -1;
}

/* Write DATA (LEN bytes, or strlen) to NAME in the temp dir; returns the
 * path, which the caller g_free()s. */
static char *write_file(void **state, const char *name, const char *data,
			size_t len)
{
	struct tmpdir *t = *state;
	char *path = g_build_filename(t->path, name, NULL);
	FILE *f = fopen(path, "wb");

	assert_non_null(f);
	if (len == (size_t)-1)
		len = strlen(data);
	assert_int_equal(fwrite(data, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* Parse the single message of DATA. */
static struct fs_patch *parse_one(void **state, const char *name,
				  const char *data, size_t len)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_patch *p = NULL;
	char *path = write_file(state, name, data, len);
	int rc = fs_patch_parse_file(&p, path, &err);

	if (rc)
		fail_msg("%s: %d %s", name, rc, err.message);
	g_free(path);
	return p;
}

#define HDR_STABLE \
	"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n" \
	"To: stable@vger.kernel.org\n" \
	"Cc: Greg Kroah-Hartman <gregkh@linuxfoundation.org>, patches@lists.linux.dev\n" \
	"Date: Mon, 18 Feb 2019 14:43:00 +0100\n" \
	"Message-Id: <20190218133532.870013216@linuxfoundation.org>\n" \
	"In-Reply-To: <20190218133529.099444112@linuxfoundation.org>\n" \
	"References: <20190218133529.099444112@linuxfoundation.org>\n" \
	"User-Agent: quilt/0.65\n" \
	"X-KernelTest-Branch: linux-4.4.y\n"

#define UP "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"

static void test_reader__plain_stable_patch(void **state)
{
	static const char mail[] =
		HDR_STABLE
		"Subject: [PATCH 4.4 105/143] net: foo: fix the bar\n"
		"\n"
		"4.4-stable review patch.  If anyone has any objections, please let me know.\n"
		"\n------------------\n\n"
		"From: Real Author <author@example.org>\n\n"
		"commit " UP " upstream.\n\n"
		"Fixes: 0123456789ab (\"net: foo: add bar\")\n"
		"Signed-off-by: Real Author <author@example.org>\n"
		"---\n"
		" net/foo.c | 1 +\n"
		"\n"
		"diff --git a/net/foo.c b/net/foo.c\n"
		"--- a/net/foo.c\n"
		"+++ b/net/foo.c\n"
		"@@ -1 +1,2 @@\n"
		" a\n"
		"+b\n";
	struct fs_patch *p = parse_one(state, "plain.eml", mail, -1);
	const struct fs_series *s = fs_patch_series(p);
	const char *const *refs, *const *up;
	const struct fs_trailer_ref *fixes;
	size_t n;

	assert_string_equal(fs_patch_message_id(p),
			    "20190218133532.870013216@linuxfoundation.org");
	assert_string_equal(fs_patch_subject(p),
			    "[PATCH 4.4 105/143] net: foo: fix the bar");
	assert_string_equal(fs_patch_title(p), "net: foo: fix the bar");
	assert_string_equal(fs_patch_from(p),
			    "Greg Kroah-Hartman <gregkh@linuxfoundation.org>");
	assert_string_equal(fs_patch_author(p), "Real Author <author@example.org>");
	assert_string_equal(fs_patch_date(p), "Mon, 18 Feb 2019 14:43:00 +0100");
	assert_int_equal(fs_patch_time(p), 1550497380);
	assert_string_equal(fs_patch_in_reply_to(p),
			    "20190218133529.099444112@linuxfoundation.org");
	refs = fs_patch_references(p, &n);
	assert_int_equal(n, 1);
	assert_string_equal(refs[0], "20190218133529.099444112@linuxfoundation.org");
	assert_string_equal(fs_patch_to(p), "stable@vger.kernel.org");
	assert_non_null(strstr(fs_patch_cc(p), "patches@lists.linux.dev"));
	assert_string_equal(fs_patch_header(p, "x-kerneltest-branch"), "linux-4.4.y");
	assert_string_equal(fs_patch_header(p, "User-Agent"), "quilt/0.65");
	assert_null(fs_patch_header(p, "X-No-Such-Header"));
	assert_null(fs_patch_header(p, NULL));
	assert_non_null(s);
	assert_string_equal(s->version, "4.4");
	assert_int_equal(s->index, 105);
	assert_int_equal(s->total, 143);
	up = fs_trailers_upstream(fs_patch_trailers(p), &n);
	assert_int_equal(n, 1);
	assert_string_equal(up[0], UP);
	fixes = fs_trailers_fixes(fs_patch_trailers(p), &n);
	assert_int_equal(n, 1);
	assert_string_equal(fixes[0].id, "0123456789ab");
	assert_string_equal(fixes[0].subject, "net: foo: add bar");
	assert_true(fs_patch_has_diff(p));
	assert_null(fs_patch_revert_title(p));
	assert_string_equal(fs_patch_file(p) + strlen(fs_patch_file(p)) - 9,
			    "plain.eml");
	fs_patch_free(p);
	fs_patch_free(NULL);
}

static void test_reader__quoted_printable(void **state)
{
	static const char mail[] =
		HDR_STABLE
		"Subject: [PATCH 4.4 1/2] hwmon: fix\n"
		"MIME-Version: 1.0\n"
		"Content-Type: text/plain; charset=UTF-8\n"
		"Content-Transfer-Encoding: quoted-printable\n"
		"\n"
		"From: J=C3=B6rg Lindqvist <jorg@example.com>\n"
		"\n"
		"commit " UP " upst=\n"
		"ream.\n"
		"\n"
		"Reads =E2=88=925=C2=B0C now.\n"
		"x =3D 1;\n";
	struct fs_patch *p = parse_one(state, "qp.eml", mail, -1);
	const char *body;
	size_t len, n;

	body = fs_patch_body(p, &len);
	assert_int_equal(len, strlen(body));
	assert_non_null(strstr(body, "commit " UP " upstream.\n"));
	assert_non_null(strstr(body, "Reads \xe2\x88\x92" "5\xc2\xb0" "C now.\n"));
	assert_non_null(strstr(body, "x = 1;\n"));
	assert_string_equal(fs_patch_author(p), "J\xc3\xb6rg Lindqvist <jorg@example.com>");
	fs_trailers_upstream(fs_patch_trailers(p), &n);
	assert_int_equal(n, 1);
	fs_patch_free(p);
}

static void test_reader__base64(void **state)
{
	/* base64 of "From: B64 Author <b64@example.org>\n\n[ Upstream commit
	 * 0a1b2c3d4e5f ]\n\nBody.\n" */
	static const char mail[] =
		HDR_STABLE
		"Subject: [PATCH AUTOSEL 4.19 12/40] b64: fix\n"
		"Content-Type: text/plain; charset=\"utf-8\"\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"RnJvbTogQjY0IEF1dGhvciA8YjY0QGV4YW1wbGUub3JnPgoKWyBVcHN0cmVhbSBjb21taXQg\n"
		"MGExYjJjM2Q0ZTVmIF0KCkJvZHkuCg==\n";
	struct fs_patch *p = parse_one(state, "b64.eml", mail, -1);
	const char *const *up;
	size_t len, n;

	assert_string_equal(fs_patch_body(p, &len),
			    "From: B64 Author <b64@example.org>\n\n"
			    "[ Upstream commit 0a1b2c3d4e5f ]\n\nBody.\n");
	assert_string_equal(fs_patch_author(p), "B64 Author <b64@example.org>");
	assert_true(fs_patch_series(p)->autosel);
	up = fs_trailers_upstream(fs_patch_trailers(p), &n);
	assert_int_equal(n, 1);
	assert_string_equal(up[0], "0a1b2c3d4e5f");
	fs_patch_free(p);
}

static void test_reader__truncated_base64(void **state)
{
	/* the second line is cut mid-quantum: what decodes is kept */
	static const char mail[] =
		HDR_STABLE
		"Subject: [PATCH 4.4 1/2] cut\n"
		"Content-Type: text/plain; charset=utf-8\n"
		"Content-Transfer-Encoding: base64\n"
		"\n"
		"RnJvbTogQjY0IEF1dGhvciA8YjY0QGV4YW1wbGUub3JnPgoKWyBVcHN0cmVhbSBjb21taXQg\n"
		"MGExYjJj";
	struct fs_patch *p = parse_one(state, "cut.eml", mail, -1);
	size_t len;
	const char *body = fs_patch_body(p, &len);

	assert_true(g_str_has_prefix(body, "From: B64 Author <b64@example.org>\n\n[ Upstream commit 0a1b2c"));
	assert_string_equal(fs_patch_author(p), "B64 Author <b64@example.org>");
	fs_patch_free(p);
}

static void test_reader__multipart(void **state)
{
	static const char mail[] =
		"From: Rosa Delgado <rosa@example.net>\n"
		"Subject: [PATCH 5.15 v2] usb: fix\n"
		"Message-ID: <mp-1@example.net>\n"
		"MIME-Version: 1.0\n"
		"Content-Type: multipart/mixed; boundary=\"BOUND\"\n"
		"\n"
		"preamble text\n"
		"--BOUND\n"
		"Content-Type: multipart/alternative; boundary=\"ALT\"\n"
		"\n"
		"--ALT\n"
		"Content-Type: text/html\n"
		"\n"
		"<p>not this</p>\n"
		"--ALT\n"
		"Content-Type: text/plain; charset=us-ascii\n"
		"\n"
		"commit " UP " upstream.\n"
		"--ALT--\n"
		"--BOUND\n"
		"Content-Type: text/plain; name=\"second.txt\"\n"
		"Content-Disposition: attachment\n"
		"\n"
		"not this either\n"
		"--BOUND--\n";
	struct fs_patch *p = parse_one(state, "mp.eml", mail, -1);
	size_t len;

	assert_string_equal(fs_patch_body(p, &len), "commit " UP " upstream.");
	assert_string_equal(fs_patch_message_id(p), "mp-1@example.net");
	assert_int_equal(fs_patch_series(p)->revision, 2);
	assert_null(fs_patch_in_reply_to(p));
	assert_null(fs_patch_date(p));
	assert_int_equal(fs_patch_time(p), 0);
	assert_null(fs_patch_to(p));
	fs_patch_free(p);
}

static void test_reader__no_text_part(void **state)
{
	static const char mail[] =
		"From: a@example.org\n"
		"Subject: html only\n"
		"Content-Type: text/html\n"
		"\n"
		"<p>hi</p>\n";
	struct fs_patch *p = parse_one(state, "html.eml", mail, -1);
	size_t len = 99;

	assert_string_equal(fs_patch_body(p, &len), "");
	assert_int_equal(len, 0);
	assert_null(fs_patch_series(p));
	assert_string_equal(fs_patch_title(p), "html only");
	fs_patch_free(p);
}

static void test_reader__crlf(void **state)
{
	static const char mail[] =
		"From: Tomasz Wilk <tomasz@example.pl>\r\n"
		"Subject: [PATCH stable 4.9] ext4: check\r\n"
		" the length\r\n"
		"Message-Id: <crlf-1@example.pl>\r\n"
		"\r\n"
		"Line one.\r\n"
		"\r\n"
		"(cherry picked from commit " UP ")\r\n";
	struct fs_patch *p = parse_one(state, "crlf.eml", mail, -1);
	size_t len, n;

	assert_string_equal(fs_patch_subject(p), "[PATCH stable 4.9] ext4: check the length");
	assert_string_equal(fs_patch_body(p, &len),
			    "Line one.\n\n(cherry picked from commit " UP ")\n");
	assert_null(strchr(fs_patch_body(p, &len), '\r'));
	fs_trailers_upstream(fs_patch_trailers(p), &n);
	assert_int_equal(n, 1);
	assert_string_equal(fs_patch_series(p)->prefix, "PATCH stable");
	fs_patch_free(p);
}

static void test_reader__latin1(void **state)
{
	static const char mail[] =
		"From: Greg Kroah-Hartman <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 4.4.y] ALSA: fix the =?ISO-8859-1?Q?Cr=E8me?= quirk\n"
		"Content-Type: text/plain; charset=ISO-8859-1\n"
		"Content-Transfer-Encoding: 8bit\n"
		"\n"
		"From: Fran\xe7ois Lema\xeetre <francois@example.fr>\n"
		"\n"
		"Cr\xe8me.\n";
	struct fs_patch *p = parse_one(state, "latin1.eml", mail, -1);
	size_t len;

	assert_string_equal(fs_patch_subject(p),
			    "[PATCH 4.4.y] ALSA: fix the Cr\xc3\xa8me quirk");
	assert_string_equal(fs_patch_author(p),
			    "Fran\xc3\xa7ois Lema\xc3\xaetre <francois@example.fr>");
	assert_non_null(strstr(fs_patch_body(p, &len), "Cr\xc3\xa8me.\n"));
	assert_string_equal(fs_patch_series(p)->version, "4.4");
	fs_patch_free(p);
}

static void test_reader__undeclared_8bit(void **state)
{
	/* no charset, Latin-1 bytes: still valid UTF-8 out */
	static const char mail[] =
		"From: a@example.org\n"
		"Subject: x\n"
		"\n"
		"Fran\xe7ois \xff\xfe\n";
	struct fs_patch *p = parse_one(state, "8bit.eml", mail, -1);
	size_t len;
	const char *body = fs_patch_body(p, &len);

	assert_true(g_utf8_validate(body, len, NULL));
	fs_patch_free(p);
}

static void test_reader__folded_encoded_subject(void **state)
{
	static const char mail[] =
		HDR_STABLE
		"Subject: =?UTF-8?q?=5BPATCH=204=2E4=20061/143=5D=20Revert=20=22drm/panel=3A=20?=\n"
		" =?UTF-8?q?l=C3=BCmen=3A=20power=20down=22?=\n"
		"\n"
		"This reverts commit " UP ".\n";
	struct fs_patch *p = parse_one(state, "folded.eml", mail, -1);
	const struct fs_series *s = fs_patch_series(p);

	assert_string_equal(fs_patch_subject(p),
			    "[PATCH 4.4 061/143] Revert \"drm/panel: l\xc3\xbcmen: power down\"");
	assert_non_null(s);
	assert_int_equal(s->index, 61);
	assert_int_equal(s->total, 143);
	assert_string_equal(fs_patch_title(p),
			    "Revert \"drm/panel: l\xc3\xbcmen: power down\"");
	assert_string_equal(fs_patch_revert_title(p), "drm/panel: l\xc3\xbcmen: power down");
	fs_patch_free(p);
}

static void test_reader__references_order(void **state)
{
	static const char mail[] =
		"From: a@example.org\n"
		"Subject: Re: x\n"
		"References: <first@example.org>\n"
		"\t<second@example.org> <third@example.org>\n"
		"In-Reply-To: <third@example.org>\n"
		"\n"
		"x\n";
	struct fs_patch *p = parse_one(state, "refs.eml", mail, -1);
	const char *const *refs;
	size_t n;

	refs = fs_patch_references(p, &n);
	assert_int_equal(n, 3);
	assert_string_equal(refs[0], "first@example.org");
	assert_string_equal(refs[1], "second@example.org");
	assert_string_equal(refs[2], "third@example.org");
	assert_string_equal(fs_patch_in_reply_to(p), "third@example.org");
	/* no series prefix: the title is the subject */
	assert_string_equal(fs_patch_title(p), "Re: x");
	fs_patch_free(p);
}

static void test_reader__mbox_three(void **state)
{
	static const char mbox[] =
		"From gregkh@linuxfoundation.org Mon Feb 18 13:35:29 2019\n"
		"From: Greg <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 4.4 000/002] 4.4.175-stable review\n"
		"Message-Id: <cover@example.org>\n"
		"\n"
		"cover\n"
		"\n"
		"From gregkh@linuxfoundation.org Mon Feb 18 13:35:30 2019\n"
		"From: Greg <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 4.4 001/002] one\n"
		"Message-Id: <one@example.org>\n"
		"In-Reply-To: <cover@example.org>\n"
		"\n"
		"commit " UP " upstream.\n"
		"\n"
		"From gregkh@linuxfoundation.org Mon Feb 18 13:35:31 2019\n"
		"From: Greg <gregkh@linuxfoundation.org>\n"
		"Subject: [PATCH 4.4 002/002] two\n"
		"Message-Id: <two@example.org>\n"
		"In-Reply-To: <cover@example.org>\n"
		"\n"
		"two\n";
	static const char *const ids[] = { "cover@example.org", "one@example.org",
					   "two@example.org" };
	struct fs_error err = FS_ERROR_INIT;
	struct fs_mail_reader *r;
	struct fs_patch *p;
	char *path = write_file(state, "three.mbox", mbox, -1);
	int i = 0, rc;

	assert_int_equal(fs_mail_reader_open(&r, path, &err), 0);
	while ((rc = fs_mail_reader_next(r, &p, &err)) == 1) {
		assert_true(i < 3);
		assert_string_equal(fs_patch_message_id(p), ids[i]);
		assert_int_equal(fs_patch_series(p)->index, i);
		fs_patch_free(p);
		i++;
	}
	assert_int_equal(rc, 0);
	assert_int_equal(i, 3);
	/* the end stays the end */
	assert_int_equal(fs_mail_reader_next(r, &p, &err), 0);
	assert_null(p);
	fs_mail_reader_free(r);
	fs_mail_reader_free(NULL);

	/* the shortcut takes the first message */
	assert_int_equal(fs_patch_parse_file(&p, path, &err), 0);
	assert_string_equal(fs_patch_message_id(p), "cover@example.org");
	fs_patch_free(p);
	g_free(path);
}

static void test_reader__single_message_gives_one(void **state)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_mail_reader *r;
	struct fs_patch *p;
	char *path = write_file(state, "one.eml",
				"From: a@example.org\nSubject: s\n\nbody\n", -1);

	assert_int_equal(fs_mail_reader_open(&r, path, &err), 0);
	assert_int_equal(fs_mail_reader_next(r, &p, &err), 1);
	fs_patch_free(p);
	assert_int_equal(fs_mail_reader_next(r, &p, &err), 0);
	fs_mail_reader_free(r);
	g_free(path);
}

/* ---- reader errors -------------------------------------------------------------- */

static void expect_next_error(void **state, const char *name, const char *data,
			      size_t len, const char *what)
{
	struct fs_error err = FS_ERROR_INIT;
	struct fs_mail_reader *r;
	struct fs_patch *p = (struct fs_patch *)1;
	char *path = write_file(state, name, data, len);
	char *msg;

	assert_int_equal(fs_mail_reader_open(&r, path, &err), 0);
	assert_int_equal(fs_mail_reader_next(r, &p, &err), FS_EPARSE);
	assert_null(p);
	assert_int_equal(err.code, FS_EPARSE);
	msg = g_strdup_printf("not a mail message: '%s' %s", path, what);
	assert_string_equal(err.message, msg);
	g_free(msg);
	/* after an error the reader is at its end */
	assert_int_equal(fs_mail_reader_next(r, &p, &err), 0);
	fs_mail_reader_free(r);

	fs_error_clear(&err);
	assert_int_equal(fs_patch_parse_file(&p, path, &err), FS_EPARSE);
	assert_null(p);
	g_free(path);
}

static void test_reader__empty(void **state)
{
	expect_next_error(state, "empty.eml", "", 0,
			  "is empty");
}

static void test_reader__no_headers(void **state)
{
	expect_next_error(state, "text.txt",
			  "Just some text.\nNo headers here at all.\n", -1,
			  "has no headers");
	expect_next_error(state, "blank.txt", "\n\n\n", -1,
			  "has no headers");
	/* a header-like line that no mail has */
	expect_next_error(state, "odd.txt", "Note: not a mail\n\ntext\n", -1,
			  "has no headers");
}

static void test_reader__binary(void **state)
{
	char buf[4096];
	unsigned int x = 12345;

	/* a fixed-seed LCG: the same bytes on every run */
	for (size_t i = 0; i < sizeof(buf); i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (char)(x >> 16);
	}
	expect_next_error(state, "random.bin", buf, sizeof(buf),
			  "has no headers");
}

static void test_reader__open_errors(void **state)
{
	struct tmpdir *t = *state;
	struct fs_error err = FS_ERROR_INIT;
	struct fs_mail_reader *r = NULL;
	char *missing = g_build_filename(t->path, "missing.eml", NULL);
	char *msg;

	assert_int_equal(fs_mail_reader_open(&r, missing, &err), FS_EIO);
	msg = g_strdup_printf("cannot open '%s': No such file or directory", missing);
	assert_string_equal(err.message, msg);
	g_free(msg);

	assert_int_equal(fs_mail_reader_open(&r, t->path, &err), FS_EIO);
	msg = g_strdup_printf("'%s' is a directory", t->path);
	assert_string_equal(err.message, msg);
	g_free(msg);
	g_free(missing);
}

static void test_reader__long_line(void **state)
{
	static const char hdr[] = "From: a@example.org\nSubject: [PATCH 4.4] long\n\n";
	size_t n = 2 * 1024 * 1024;
	char *mail = g_malloc(sizeof(hdr) + n + 1);
	struct fs_patch *p;
	size_t len;

	memcpy(mail, hdr, sizeof(hdr) - 1);
	memset(mail + sizeof(hdr) - 1, 'x', n);
	mail[sizeof(hdr) - 1 + n] = '\n';
	p = parse_one(state, "long.eml", mail, sizeof(hdr) - 1 + n + 1);
	fs_patch_body(p, &len);
	assert_int_equal(len, n + 1);
	fs_patch_free(p);
	g_free(mail);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_series__table),
		cmocka_unit_test(test_series__versions),
		cmocka_unit_test(test_subject_names_stable),
		cmocka_unit_test(test_series__null_title_and_clear_twice),
		cmocka_unit_test(test_inbody_from__table),
		cmocka_unit_test(test_inbody_from__not_nul_terminated),
		cmocka_unit_test(test_reader__plain_stable_patch),
		cmocka_unit_test(test_reader__quoted_printable),
		cmocka_unit_test(test_reader__base64),
		cmocka_unit_test(test_reader__truncated_base64),
		cmocka_unit_test(test_reader__multipart),
		cmocka_unit_test(test_reader__no_text_part),
		cmocka_unit_test(test_reader__crlf),
		cmocka_unit_test(test_reader__latin1),
		cmocka_unit_test(test_reader__undeclared_8bit),
		cmocka_unit_test(test_reader__folded_encoded_subject),
		cmocka_unit_test(test_reader__references_order),
		cmocka_unit_test(test_reader__mbox_three),
		cmocka_unit_test(test_reader__single_message_gives_one),
		cmocka_unit_test(test_reader__empty),
		cmocka_unit_test(test_reader__no_headers),
		cmocka_unit_test(test_reader__binary),
		cmocka_unit_test(test_reader__open_errors),
		cmocka_unit_test(test_reader__long_line),
	};

	return cmocka_run_group_tests_name("mail", tests, setup_tmp, teardown_tmp);
}
