/* fixscan: draft replies, composed with GMime (no I/O here).
 *
 * Text that comes from mail (subjects, names, addresses, ids, dates) is
 * passed through fs_draft_clean_line() or fs_draft_clean_id() before it
 * goes anywhere near a header, so a CR or LF in it can never start a
 * header of its own.  Nothing here reads or writes a file or runs a
 * program: saving is fixscan/drafts.h's business.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gmime/gmime.h>

#include "fixscan/draft.h"
#include "fixscan/findings.h"
#include "fixscan/report.h"

#define WRAP 72
/* Quoted reasons longer than this are cut at a sentence end. */
#define QUOTE_MAX 400

static pthread_once_t gmime_once = PTHREAD_ONCE_INIT;

static void gmime_init_once(void)
{
	/* g_mime_init counts its callers, so sharing it with mail.c is
	 * harmless. */
	g_mime_init();
}

/* ---- text helpers --------------------------------------------------------- */

char *fs_draft_clean_line(const char *s)
{
	GString *o = g_string_new(NULL);
	bool space = false;

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f || c == ' ') {
			space = o->len > 0;
			continue;
		}
		if (space)
			g_string_append_c(o, ' ');
		space = false;
		g_string_append_c(o, (char)c);
	}
	return g_string_free(o, FALSE);
}

char *fs_draft_clean_id(const char *s)
{
	GString *o = g_string_new(NULL);

	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c > 0x20 && c < 0x7f && c != '<' && c != '>')
			g_string_append_c(o, (char)c);
	}
	if (!o->len) {
		g_string_free(o, TRUE);
		return NULL;
	}
	return g_string_free(o, FALSE);
}

/* Split "Name <addr>" (as fs_patch_from gives it) into its parts; a bare
 * address has an empty name.  Both new strings, cleaned. */
static void split_mailbox(const char *from, char **name, char **addr)
{
	const char *lt = from ? strrchr(from, '<') : NULL;
	const char *gt = lt ? strchr(lt, '>') : NULL;
	char *n, *a;

	if (lt && gt) {
		n = g_strndup(from, lt - from);
		a = g_strndup(lt + 1, gt - lt - 1);
	} else {
		n = g_strdup("");
		a = g_strdup(from ? from : "");
	}
	g_strstrip(n);
	/* An RFC 5322 quoted name keeps its quotes in the decoded text. */
	if (strlen(n) >= 2 && n[0] == '"' && n[strlen(n) - 1] == '"') {
		memmove(n, n + 1, strlen(n) - 2);
		n[strlen(n) - 2] = '\0';
	}
	*name = fs_draft_clean_line(n);
	*addr = fs_draft_clean_line(a);
	g_free(n);
	g_free(a);
}

/* The name to address a person by: the display name, else the address. */
static char *display_name(const char *from)
{
	char *name, *addr;

	split_mailbox(from, &name, &addr);
	if (*name) {
		g_free(addr);
		return name;
	}
	g_free(name);
	return *addr ? addr : (g_free(addr), g_strdup("you"));
}

/* Whether WORD is a commit id as a reference starts with it: 12 to 40
 * lower-case hex digits. */
static bool is_hex_id(const char *word)
{
	size_t n = strspn(word, "0123456789abcdef");

	return n >= 12 && n <= 40 && !word[n];
}

/* Whether TEXT starts with a commit reference: a hex id and " (\"". */
static bool is_hex_id_prefix(const char *text)
{
	size_t n = strspn(text, "0123456789abcdef");

	return n >= 12 && n <= 40 && !strncmp(text + n, " (\"", 3);
}

/* The words of TEXT, with each commit reference '0123456789ab ("its
 * subject")' glued into one word: a reference is never broken across
 * lines, as git and the kernel's own tools write them.  NULL-terminated
 * (g_strfreev()); empty words dropped. */
static char **wrap_words(const char *text)
{
	char **raw = g_strsplit(text, " ", -1);
	GPtrArray *out = g_ptr_array_new();
	size_t i;

	for (i = 0; raw[i]; i++) {
		GString *w;

		if (!*raw[i])
			continue;
		if (!is_hex_id(raw[i]) || !raw[i + 1] || strncmp(raw[i + 1], "(\"", 2)) {
			g_ptr_array_add(out, g_strdup(raw[i]));
			continue;
		}
		w = g_string_new(raw[i]);
		/* Up to the word that closes the quoted subject. */
		while (raw[i + 1]) {
			i++;
			g_string_append_printf(w, " %s", raw[i]);
			if (strstr(raw[i], "\")"))
				break;
		}
		g_ptr_array_add(out, g_string_free(w, FALSE));
	}
	g_ptr_array_add(out, NULL);
	g_strfreev(raw);
	return (char **)g_ptr_array_free(out, FALSE);
}

/* Append TEXT wrapped at WRAP columns (UTF-8 characters): the first line
 * starts with FIRST, the others with NEXT; a line ends with "\n".  A
 * word longer than a line (a link, a commit reference) gets a line of
 * its own and is not broken. */
static void add_wrapped(GString *s, const char *first, const char *next, const char *text)
{
	char **words = wrap_words(text);
	size_t col, i;
	bool empty = true;

	g_string_append(s, first);
	col = g_utf8_strlen(first, -1);
	for (i = 0; words[i]; i++) {
		size_t n = g_utf8_strlen(words[i], -1);

		if (!empty && col + 1 + n > WRAP) {
			g_string_append_c(s, '\n');
			g_string_append(s, next);
			col = g_utf8_strlen(next, -1);
			empty = true;
		} else if (!empty) {
			g_string_append_c(s, ' ');
			col++;
		}
		g_string_append(s, words[i]);
		col += n;
		empty = false;
	}
	g_string_append_c(s, '\n');
	g_strfreev(words);
}

/* TEXT (one line) cut after the last sentence that ends within MAX
 * bytes, when it is longer than that: a quote ends where a sentence
 * ends, never half way.  A first sentence longer than MAX is quoted
 * whole.  A sentence ends at '.', '?' or '!' (and a closing quote or
 * bracket) followed by a space and a capital letter or digit.  New
 * string (g_free()). */
static char *sentences_upto(const char *text, size_t max)
{
	size_t len = strlen(text), i, cut = 0;

	if (len <= max)
		return g_strdup(text);
	for (i = 0; i + 2 < len; i++) {
		size_t e = i + 1;

		if (!strchr(".?!", text[i]))
			continue;
		while (e < len && strchr("\")'", text[e]))
			e++;
		if (e + 1 < len && text[e] == ' ' &&
		    (g_ascii_isupper(text[e + 1]) || g_ascii_isdigit(text[e + 1]))) {
			if (e > max && cut)
				break;
			cut = e;
			if (e > max)
				break;
		}
	}
	return cut ? g_strndup(text, cut) : g_strdup(text);
}

/* Append TEXT as a paragraph wrapped at WRAP columns, then a blank line. */
static void add_para(GString *s, const char *text)
{
	add_wrapped(s, "", "", text);
	g_string_append_c(s, '\n');
}

/* Append TEXT as quoted text ("> "), wrapped. */
static void add_quote(GString *s, const char *text)
{
	add_wrapped(s, "> ", "> ", text);
}

static void add_paraf(GString *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_paraf(GString *s, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	add_para(s, text);
	g_free(text);
}

/* '0123456789ab ("subject")', the way a Fixes: tag names a commit. */
static char *commit_ref(const char *hex, const char *subject)
{
	char *subj = fs_draft_clean_line(subject), *ret;

	if (*subj)
		ret = g_strdup_printf("%.12s (\"%s\")", hex, subj);
	else
		ret = g_strdup_printf("%.12s", hex);
	g_free(subj);
	return ret;
}

/* Patch NN of R's series as the subjects write it ("03/24"), so that a
 * draft names a patch the way the thread does.  The result lives in one
 * of a few static buffers: enough for the few a sentence names. */
static const char *patch_number(const struct fs_review *r, int nn)
{
	static char buf[4][32];
	static unsigned next;
	char *b = buf[next++ % 4];

	return fs_report_patch_number(r->series, nn, b, sizeof(buf[0]));
}

/* The index of the patch (in R) whose upstream commit is HEX, or -1. */
static const struct fs_finding *queued_finding(const struct fs_review_patch *rp,
					       const char *hex)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind == FS_FIND_FIX_QUEUED && !f->ignored && !strcmp(f->commit, hex))
			return f;
	}
	return NULL;
}

int fs_draft_mode_from_name(const char *name)
{
	if (!name || !strcmp(name, "all"))
		return FS_DRAFTS_ALL;
	if (!strcmp(name, "summary"))
		return FS_DRAFTS_SUMMARY;
	if (!strcmp(name, "patches"))
		return FS_DRAFTS_PATCHES;
	return -1;
}

/* ---- subjects and digests --------------------------------------------------- */

char *fs_draft_reply_subject(const char *subject)
{
	char *clean = fs_draft_clean_line(subject), *p = clean, *ret;

	for (;;) {
		char *q = p;

		if (g_ascii_strncasecmp(q, "re", 2))
			break;
		q += 2;
		/* "Re[2]:", as some clients count replies */
		if (*q == '[') {
			char *e = q + 1;

			while (g_ascii_isdigit(*e))
				e++;
			if (*e != ']')
				break;
			q = e + 1;
		}
		while (*q == ' ')
			q++;
		if (*q != ':')
			break;
		q++;
		while (*q == ' ')
			q++;
		p = q;
	}
	ret = g_strdup_printf("Re: %s", p);
	g_free(clean);
	return ret;
}

char *fs_draft_digest(const char *body, size_t len)
{
	GChecksum *sum = g_checksum_new(G_CHECKSUM_SHA256);
	size_t end = len, i, start = 0;
	char *ret;

	while (end > 0 && g_ascii_isspace(body[end - 1]))
		end--;
	for (i = 0; i < end; i++) {
		if (body[i] != '\r')
			continue;
		g_checksum_update(sum, (const guchar *)body + start, i - start);
		start = i + 1;
	}
	g_checksum_update(sum, (const guchar *)body + start, end - start);
	ret = g_strdup(g_checksum_get_string(sum));
	g_checksum_free(sum);
	return ret;
}

/* ---- bodies --------------------------------------------------------------- */

/* "On <date>, <name> wrote:" for message P. */
static void add_attribution(GString *s, const struct fs_patch *p)
{
	char *date = fs_draft_clean_line(fs_patch_date(p));
	char *who = display_name(fs_patch_from(p));

	if (*date)
		g_string_append_printf(s, "On %s, %s wrote:\n", date, who);
	else
		g_string_append_printf(s, "%s wrote:\n", who);
	g_free(date);
	g_free(who);
}

/* The line of P's body that names its upstream commit ("commit X
 * upstream.", "[ Upstream commit X ]", "(cherry picked from commit X)"),
 * as a new string, or NULL. */
static char *upstream_line(const struct fs_patch *p)
{
	const char *const *ids;
	const char *body, *hit = NULL, *bol, *eol, *hay;
	size_t n, len;
	char *lower, *needle;

	ids = fs_patch_tags(p) ? fs_tags_upstream(fs_patch_tags(p), &n) : NULL;
	body = fs_patch_body(p, &len);
	if (!ids || !n || !body)
		return NULL;
	lower = g_ascii_strdown(body, len);
	needle = g_ascii_strdown(ids[0], -1);
	hay = lower;
	hit = strstr(hay, needle);
	g_free(needle);
	if (!hit) {
		g_free(lower);
		return NULL;
	}
	bol = hit;
	while (bol > lower && bol[-1] != '\n')
		bol--;
	eol = strchr(hit, '\n');
	if (!eol)
		eol = lower + strlen(lower);
	/* Take the bytes from the original body: same offsets. */
	hay = g_strndup(body + (bol - lower), eol - bol);
	g_free(lower);
	lower = fs_draft_clean_line(hay);
	g_free((char *)hay);
	return lower;
}

/* The first line of text of P's body (the cover's opening sentence). */
static char *first_body_line(const struct fs_patch *p)
{
	size_t len;
	const char *body = fs_patch_body(p, &len), *e, *end;

	if (!body)
		return NULL;
	end = body + len;
	while (body < end) {
		e = memchr(body, '\n', end - body);
		if (!e)
			e = end;
		if (e > body && strspn(body, " \t\r") < (size_t)(e - body)) {
			char *raw = g_strndup(body, e - body), *ret = fs_draft_clean_line(raw);
			g_free(raw);
			return ret;
		}
		body = e + 1;
	}
	return NULL;
}

/* Whether F belongs in a reply: not ignored, and not about an id that a
 * clone older than the thread may just not have yet (asking the
 * maintainer to check it would be the reviewer's mistake). */
static bool is_shown(const struct fs_finding *f)
{
	return !f->ignored && f->unresolved != FS_CAUSE_NOT_IN_CLONE;
}

/* The "(a fix of ...)" note of a fix-of-a-fix: which commit of the chain
 * this one fixes, and where that one is. */
static void add_chain_note(GString *s, const struct fs_review_patch *rp,
			   const struct fs_finding *f, const struct fs_review *r)
{
	const char *prev;
	const struct fs_finding *q;
	size_t i;
	bool listed = false;

	if (f->nchain < 3)
		return;
	prev = f->chain[f->nchain - 2];
	q = queued_finding(rp, prev);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *o = &rp->findings.v[i];

		if (o != f && o->kind == FS_FIND_FIX_MISSING && is_shown(o) &&
		    !strcmp(o->commit, prev))
			listed = true;
	}
	g_string_append_printf(s, "    which %s %.12s", f->evidence != FS_FEV_REVERT ? "fixes" : "reverts",
			       prev);
	if (q && q->series_index < 0)
		g_string_append(s, ", queued for this branch already");
	else if (q)
		g_string_append_printf(s, ", queued here as %s", patch_number(r, q->series_index));
	else if (listed)
		g_string_append(s, " above");
	g_string_append_c(s, '\n');
}

/* " (CVE-2024-26921)", " (CVE-2024-1, CVE-2024-2)": the CVEs F's commit
 * fixes, when any. */
static void add_cve_phrase(GString *s, const struct fs_finding *f)
{
	size_t i;

	for (i = 0; i < f->ncves; i++) {
		char *id = fs_draft_clean_line(f->cves[i]);
		g_string_append_printf(s, "%s%s", i ? ", " : " (", id);
		g_free(id);
	}
	if (f->ncves)
		g_string_append_c(s, ')');
}

/* The indented line of a commit in a list: id, subject, release. */
static void add_commit_item(GString *s, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *rel = fs_draft_clean_line(f->release);

	g_string_append_printf(s, "  %s%s%s", ref, *rel ? " in " : "", rel);
	add_cve_phrase(s, f);
	g_string_append_c(s, '\n');
	g_free(ref);
	g_free(rel);
}

/* "4.5" of "linux-4.5.y", for people. */
static char *short_branch_name(const char *b)
{
	size_t n = b ? strlen(b) : 0;

	if (n > 8 && !strncmp(b, "linux-", 6) && !strcmp(b + n - 2, ".y"))
		return g_strndup(b + 6, n - 8);
	return fs_draft_clean_line(b);
}

/* review --all-open on a fix-missing: where else it is queued, and a
 * FAILED notice.  *ELSEWHERE gets the first other branch ("6.1"). */
static void add_cross_note(GString *s, const struct fs_finding *f, char **elsewhere, bool *failed)
{
	size_t i;

	for (i = 0; i < f->nqueued_elsewhere; i++) {
		const struct fs_finding_queued *q = &f->queued_elsewhere[i];
		char *b = short_branch_name(q->branch);

		if (q->index >= 0)
			g_string_append_printf(s, "    (queued for %s as %02d/%02d)\n", b, q->index, q->total);
		else
			g_string_append_printf(s, "    (queued for %s)\n", b);
		if (!*elsewhere)
			*elsewhere = g_strdup(b);
		g_free(b);
	}
	if (f->failed_to_apply) {
		char *date = fs_draft_clean_line(f->failed_date);
		g_string_append_printf(s, "    (FAILED to apply to this branch%s%s)\n", *date ? ", notice of " : "",
				       date);
		g_free(date);
		*failed = true;
	}
}

/* review --all-open: the newer stable branches that lack the patch. */
static void para_missing_in_newer(GString *s, const struct fs_review *r,
				  const struct fs_review_patch *rp)
{
	GString *list = g_string_new(NULL);
	size_t i, n = 0, total = 0;
	char *here = short_branch_name(r->branch);

	for (i = 0; i < rp->findings.n; i++)
		total += rp->findings.v[i].kind == FS_FIND_MISSING_IN_NEWER && is_shown(&rp->findings.v[i]);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];
		char *b;

		if (f->kind != FS_FIND_MISSING_IN_NEWER || !is_shown(f))
			continue;
		b = short_branch_name(f->newer_branch);
		if (n)
			g_string_append(list, n + 1 == total ? " and " : ", ");
		g_string_append_printf(list, "%s.y", b);
		g_free(b);
		n++;
	}
	if (n)
		add_paraf(s, "This is not in %s yet, %s: a user upgrading from %s.y would lose the fix. Please queue it there too, or drop it here until it is.",
			  list->str, n == 1 ? "a newer stable branch" : "newer stable branches", here);
	g_string_free(list, TRUE);
	g_free(here);
}

static void para_fix_missing(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp)
{
	size_t i, n = 0;
	bool subject_only = false, failed = false;
	char *elsewhere = NULL;

	for (i = 0; i < rp->findings.n; i++)
		n += rp->findings.v[i].kind == FS_FIND_FIX_MISSING && is_shown(&rp->findings.v[i]);
	if (!n)
		return;
	add_para(s, n == 1 ?
		 "This commit has a known follow-up fix upstream that is not in this series:" :
		 "This commit has known follow-up fixes upstream that are not in this series:");
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind != FS_FIND_FIX_MISSING || !is_shown(f))
			continue;
		add_commit_item(s, f);
		if (f->cause == FS_CAUSE_STABLE_FIX && f->note) {
			/* a stable-only fix: the note says where it is */
			char *note = fs_draft_clean_line(f->note);
			char *par = g_strdup_printf("(%s)", note);

			add_wrapped(s, "    ", "     ", par);
			g_free(par);
			g_free(note);
		}
		add_chain_note(s, rp, f, r);
		if (f->evidence == FS_FEV_CVE)
			g_string_append(s, "    (no Fixes: tag: its CVE record names this commit as the cause)\n");
		add_cross_note(s, f, &elsewhere, &failed);
		if (f->evidence == FS_FEV_SUBJECT)
			subject_only = true;
	}
	g_string_append_c(s, '\n');
	if (subject_only)
		add_para(s, "(One of these names its target only by subject in its Fixes: tag, so it is worth a second look.)");
	if (failed)
		add_para(s, n == 1 ?
			 "It did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one." :
			 "At least one of them did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one.");
	if (elsewhere && !failed)
		add_paraf(s, "%s, as %s does.", n == 1 ? "Please queue it as well" : "Please queue them as well",
			  elsewhere);
	else if (!failed)
		add_para(s, n == 1 ? "Please queue it as well." : "Please queue them as well.");
	g_free(elsewhere);
}

static void para_fix_queued(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	if (f->series_index < 0)
		add_paraf(s, "Its follow-up fix %s is queued for this branch already, so that one is covered.",
			  ref);
	else
		add_paraf(s, "Its follow-up fix %s is queued as %s, so that one is covered.",
			  ref, patch_number(r, f->series_index));
	g_free(ref);
}

static void para_fix_present(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *branch = fs_draft_clean_line(r->branch);

	if (f->stable_commit)
		add_paraf(s, "Its known follow-up fix %s is already in %s as %.12s%s%s, so nothing more is needed for this one.",
			  ref, branch, f->stable_commit, f->stable_release ? " in " : "",
			  f->stable_release ? f->stable_release : "");
	else
		add_paraf(s, "Its known follow-up fix %s is already in %s, so nothing more is needed for this one.",
			  ref, branch);
	g_free(branch);
	g_free(ref);
}

static void para_reverted(GString *s, const struct fs_finding *f)
{
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT) {
		char *rel = fs_draft_clean_line(f->reapplied_release);

		add_para(s, "This commit was reverted upstream by");
		add_commit_item(s, f);
		g_string_append_c(s, '\n');
		add_paraf(s, "and then applied again by %.12s%s%s, a revert of that revert, so mainline has it. Nothing more is needed for that.",
			  f->reapplied_commit ? f->reapplied_commit : "", *rel ? " in " : "", rel);
		g_free(rel);
		return;
	}
	add_para(s, "This commit was reverted upstream:");
	add_commit_item(s, f);
	g_string_append_c(s, '\n');
	add_para(s, "Please drop it from this series, unless there is a reason the revert does not apply here.");
}

static void para_applied(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);

	if (f->stable_commit) {
		char *ref = commit_ref(f->stable_commit, f->subject);
		char *rel = fs_draft_clean_line(f->stable_release);

		add_paraf(s, "This commit is already in %s: it was backported before as", branch);
		g_string_append_printf(s, "  %s%s%s\n\n", ref, *rel ? " in " : "", rel);
		add_para(s, "so this looks like a duplicate. Please drop it.");
		g_free(rel);
		g_free(ref);
	} else {
		char *rel = fs_draft_clean_line(f->release);

		add_paraf(s, "This commit is already in %s: it went into mainline in %s, before the branch was forked, so this backport is a duplicate. Please drop it.",
			  branch, *rel ? rel : "a release the branch contains");
		g_free(rel);
	}
	g_free(branch);
}

static void para_target_absent(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *base = fs_draft_clean_line(r->base);

	bool revert = f->cause == FS_CAUSE_REVERT_TARGET;

	add_para(s, revert ? "The commit this one reverts," : "The commit this one fixes,");
	add_commit_item(s, f);
	g_string_append_c(s, '\n');
	add_paraf(s, "is neither in %s%s%s nor in this series, so this %s may not be needed here. Is it?",
		  branch, *base ? " as of " : "", base, revert ? "revert" : "fix");
	g_free(base);
	g_free(branch);
}

static void para_unknown(GString *s, const struct fs_finding *f)
{
	char *id = fs_draft_clean_line(f->commit);

	if (f->unresolved == FS_CAUSE_AMBIGUOUS)
		add_paraf(s, "The upstream id in the changelog, %s, is ambiguous: it matches more than one commit. Could you give the full id?",
			  id);
	else
		add_paraf(s, "I cannot find the upstream commit the changelog names, %s, in mainline. Could you check the id?",
			  id);
	g_free(id);
}

static void para_report(GString *s, const struct fs_finding *f)
{
	char *from = fs_draft_clean_line(f->from), *date = fs_draft_clean_line(f->date);
	char *subj = fs_draft_clean_line(f->note), *id = fs_draft_clean_id(f->message_id);
	size_t n = strlen(subj);

	/* The findings module quotes the subject in the note. */
	if (n >= 2 && subj[0] == '"' && subj[n - 1] == '"') {
		memmove(subj, subj + 1, n - 2);
		subj[n - 2] = '\0';
	}
	add_para(s, "There is a regression report for the upstream commit:");
	if (*from)
		add_wrapped(s, "  From: ", "    ", from);
	if (*date)
		add_wrapped(s, "  Date: ", "    ", date);
	if (*subj)
		add_wrapped(s, "  Subject: ", "    ", subj);
	if (id)
		g_string_append_printf(s, "  https://lore.kernel.org/r/%s\n", id);
	g_string_append_c(s, '\n');
	add_para(s, "Has it been resolved upstream? If not, this one may be better left out for now.");
	g_free(from);
	g_free(date);
	g_free(subj);
	g_free(id);
}

static void para_dep(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *ref = commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_DEP_OF) {
		add_para(s, "This patch is here as a prerequisite (Stable-dep-of) of");
		g_string_append_printf(s, "  %s\n\n", ref);
		add_paraf(s, "but that commit is neither in %s nor in this series, so on its own this one may not be needed.",
			  branch);
	} else if (f->unresolved) {
		add_paraf(s, "The changelog names %s as a prerequisite, but I cannot find that commit. Could you check the id?",
			  ref);
	} else {
		add_para(s, "The changelog names a prerequisite that is neither in this series nor in the branch:");
		g_string_append_printf(s, "  %s\n\n", ref);
		add_para(s, "Please queue it too, or drop this one.");
	}
	g_free(ref);
	g_free(branch);
}

static void para_mismatch(GString *s, const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_ID) {
		char *note = fs_draft_clean_line(f->note);

		add_paraf(s, "The Fixes: tag in the changelog names a stable commit, not a mainline one%s%s%s. The mainline commit it means is",
			  *note ? " (" : "", note, *note ? ")" : "");
		g_free(note);
	} else {
		add_para(s, "The Fixes: tag in the changelog does not match itself: the subject it quotes is that of");
	}
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause != FS_CAUSE_STABLE_ID)
		add_para(s, "but the id is another commit's. Going by the subject, the commit above is the one it fixes.");
	g_free(ref);
}

static void para_reverts_stable(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *ref = commit_ref(f->commit, f->subject);

	if (f->stable_commit && strcmp(f->stable_commit, f->commit))
		add_paraf(s, "This reverts %.12s, the %s backport of", f->stable_commit, branch);
	else
		add_paraf(s, "This reverts a commit of %s:", branch);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause == FS_CAUSE_DUPLICATE)
		add_paraf(s, "%s already has that commit from mainline, so the backport was a duplicate and the revert makes sense.",
			  branch);
	else
		add_para(s, "Should the revert go upstream as well, or is only the backport broken?");
	g_free(ref);
	g_free(branch);
}

/* Another branch dropped its backport of this commit: a warning sign to
 * ask about, never a commit to queue. */
static void para_reverted_in_stable(GString *s, const struct fs_review *r,
				    const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);
	char *other = fs_draft_clean_line(f->branch);
	char *rel = fs_draft_clean_line(f->release);
	char *branch = fs_draft_clean_line(r->branch);

	add_paraf(s, "Note that %s reverted its backport of this commit%s%s:", other,
		  *rel ? " in " : "", rel);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->reason) {
		char *why = fs_draft_clean_line(f->reason);
		char *said = sentences_upto(why, QUOTE_MAX);

		add_para(s, "The reason it gives:");
		add_quote(s, said);
		g_string_append_c(s, '\n');
		g_free(said);
		g_free(why);
	}
	add_paraf(s, "Does that reason apply to %s as well?", branch);
	g_free(branch);
	g_free(rel);
	g_free(other);
	g_free(ref);
}

static void para_duplicate_in_series(GString *s, const struct fs_review *r,
				     const struct fs_finding *f)
{
	char *ref = commit_ref(f->commit, f->subject);

	add_paraf(s, "This is the same upstream commit as %s of this series:",
		  patch_number(r, f->series_index));
	g_string_append_printf(s, "  %s\n\n", ref);
	add_para(s, "so one of the two looks like a duplicate. Please drop this one.");
	g_free(ref);
}

static void para_objection(GString *s, const struct fs_finding *f)
{
	char *who = display_name(f->from), *line = fs_draft_clean_line(f->note);
	char *id = fs_draft_clean_id(f->message_id);

	/* The reply's own words, attributed; only an objection is called one. */
	if (f->kind == FS_FIND_OBJECTION)
		add_paraf(s, "%s objected to this patch in the thread:", who);
	else if (f->kind == FS_FIND_NEEDS_ALSO)
		add_paraf(s, "%s asked in the thread for more commits with this patch:", who);
	else
		add_paraf(s, "%s reported in the thread:", who);
	add_quote(s, line);
	if (id)
		g_string_append_printf(s, "(https://lore.kernel.org/r/%s)\n", id);
	g_string_append_c(s, '\n');
	g_free(id);
	g_free(line);
	g_free(who);
}

/* Whether finding I of FS repeats the reply of an earlier one of its
 * kind: a needs-also reply gives a finding per commit it names, and is
 * quoted once. */
static bool same_reply_earlier(const struct fs_findings *fs, size_t i)
{
	const struct fs_finding *f = &fs->v[i];
	size_t k;

	for (k = 0; f->message_id && k < i; k++)
		if (fs->v[k].kind == f->kind && fs->v[k].message_id &&
		    !strcmp(fs->v[k].message_id, f->message_id) && is_shown(&fs->v[k]))
			return true;
	return false;
}

/* The order of the paragraphs: what to act on first. */
static const enum fs_finding_kind patch_order[] = {
	FS_FIND_FIX_MISSING, FS_FIND_MISSING_IN_NEWER, FS_FIND_DEP_MISSING,
	FS_FIND_REVERTED_UPSTREAM, FS_FIND_ALREADY_APPLIED, FS_FIND_DUPLICATE_IN_SERIES, FS_FIND_REGRESSION_REPORT,
	FS_FIND_REVERTED_IN_STABLE, FS_FIND_OBJECTION, FS_FIND_NEEDS_ALSO,
	FS_FIND_FIXES_TAG_MISMATCH, FS_FIND_TARGET_ABSENT, FS_FIND_REVERTS_STABLE,
	FS_FIND_UNKNOWN_UPSTREAM, FS_FIND_NO_UPSTREAM, FS_FIND_FIX_QUEUED,
	FS_FIND_FIX_PRESENT,
};

/* The opening of the reply to patch P: the attribution and the quoted
 * subject and upstream lines.  New string, ending in "\n". */
static char *patch_quote(const struct fs_patch *p)
{
	GString *s = g_string_new(NULL);
	char *title, *up;

	add_attribution(s, p);
	title = fs_draft_clean_line(fs_patch_title(p));
	g_string_append_printf(s, "> %s\n", title);
	up = upstream_line(p);
	if (up)
		g_string_append_printf(s, ">\n> %s\n", up);
	g_free(up);
	g_free(title);
	return g_string_free(s, FALSE);
}

/* What the reply to RP says: a paragraph per finding, in the order of
 * action.  NULL when nothing is shown.  New string, ending in one "\n". */
static char *patch_findings(const struct fs_review *r, const struct fs_review_patch *rp)
{
	size_t i, k, shown = 0, present = 0;
	GString *s;

	for (i = 0; i < rp->findings.n; i++) {
		if (!is_shown(&rp->findings.v[i]))
			continue;
		shown++;
		present += rp->findings.v[i].kind == FS_FIND_FIX_PRESENT;
	}
	if (!shown)
		return NULL;

	s = g_string_new(NULL);
	for (k = 0; k < G_N_ELEMENTS(patch_order); k++) {
		enum fs_finding_kind kind = patch_order[k];

		if (kind == FS_FIND_FIX_MISSING) {
			para_fix_missing(s, r, rp);
			continue;
		}
		if (kind == FS_FIND_MISSING_IN_NEWER) {
			para_missing_in_newer(s, r, rp);
			continue;
		}
		/* A fix that is there already is worth a line only when
		 * there is nothing else to say. */
		if (kind == FS_FIND_FIX_PRESENT && present != shown)
			continue;
		for (i = 0; i < rp->findings.n; i++) {
			const struct fs_finding *f = &rp->findings.v[i];

			if (f->kind != kind || !is_shown(f) || same_reply_earlier(&rp->findings, i))
				continue;
			switch (kind) {
			case FS_FIND_FIX_QUEUED: para_fix_queued(s, r, f); break;
			case FS_FIND_FIX_PRESENT: para_fix_present(s, r, f); break;
			case FS_FIND_REVERTED_UPSTREAM: para_reverted(s, f); break;
			case FS_FIND_ALREADY_APPLIED: para_applied(s, r, f); break;
			case FS_FIND_TARGET_ABSENT: para_target_absent(s, r, f); break;
			case FS_FIND_NO_UPSTREAM:
				add_para(s, "The changelog does not say which upstream commit this is. If it is a stable-only change, please say why in the changelog; otherwise please add the upstream commit id.");
				break;
			case FS_FIND_UNKNOWN_UPSTREAM: para_unknown(s, f); break;
			case FS_FIND_REGRESSION_REPORT:
				if (f->commit[0])
					para_report(s, f);
				else
					para_objection(s, f);
				break;
			case FS_FIND_NEEDS_ALSO: para_objection(s, f); break;
			case FS_FIND_DEP_MISSING: para_dep(s, r, f); break;
			case FS_FIND_FIXES_TAG_MISMATCH: para_mismatch(s, f); break;
			case FS_FIND_REVERTS_STABLE: para_reverts_stable(s, r, f); break;
			case FS_FIND_OBJECTION: para_objection(s, f); break;
			case FS_FIND_REVERTED_IN_STABLE: para_reverted_in_stable(s, r, f); break;
			case FS_FIND_DUPLICATE_IN_SERIES: para_duplicate_in_series(s, r, f); break;
			default: break;
			}
		}
	}
	/* One newline at the end, no blank line. */
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

char *fs_draft_patch_body(const struct fs_review *r, const struct fs_review_patch *rp)
{
	char *findings = patch_findings(r, rp), *quote, *ret;

	if (!findings)
		return NULL;
	quote = patch_quote(rp->patch);
	ret = g_strconcat(quote, "\n", findings, NULL);
	g_free(quote);
	g_free(findings);
	return ret;
}

/* ---- the summary ---------------------------------------------------------- */

enum group { G_FIXES, G_NEWER, G_DUPLICATES, G_REVERTED, G_STABLE_REVERTED, G_REPORTS, G_OTHER, G_NONE };

static const char *const group_title[] = {
	"Fixes to add:",
	"Not in a newer stable branch yet (lost on upgrade):",
	"Likely duplicates:",
	"Reverted upstream:",
	"Reverted in another stable branch (worth asking why):",
	"Reports:",
	"Other notes:",
};

static enum group group_of(const struct fs_finding *f)
{
	/* Reverted and applied again: nothing for the maintainer to do. */
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT)
		return G_NONE;
	switch (f->kind) {
	case FS_FIND_FIX_MISSING:
		return G_FIXES;
	case FS_FIND_DEP_MISSING:
		/* Only a prerequisite to queue is a request; a patch that
		 * is only here for a commit not queued, or that names an id
		 * nobody can find, is a note on that patch. */
		return f->cause == FS_CAUSE_STABLE_DEP_OF || f->unresolved ? G_OTHER : G_FIXES;
	case FS_FIND_MISSING_IN_NEWER:
		return G_NEWER;
	case FS_FIND_ALREADY_APPLIED:
	case FS_FIND_DUPLICATE_IN_SERIES:
		return G_DUPLICATES;
	case FS_FIND_REVERTED_UPSTREAM:
		return G_REVERTED;
	case FS_FIND_REVERTED_IN_STABLE:
		return G_STABLE_REVERTED;
	case FS_FIND_REGRESSION_REPORT:
	case FS_FIND_OBJECTION:
	case FS_FIND_NEEDS_ALSO:
		return G_REPORTS;
	case FS_FIND_TARGET_ABSENT:
	case FS_FIND_NO_UPSTREAM:
	case FS_FIND_UNKNOWN_UPSTREAM:
	case FS_FIND_FIXES_TAG_MISMATCH:
	case FS_FIND_REVERTS_STABLE:
		return G_OTHER;
	default:
		/* fix-queued, fix-present: nothing for the maintainer to do */
		return G_NONE;
	}
}

/* Append an item line of the summary: TEXT indented four columns,
 * wrapped with six; a line that starts with a commit reference is left
 * whole, as a Fixes: line would be. */
static void add_item(GString *s, const char *text)
{
	if (is_hex_id_prefix(text))
		g_string_append_printf(s, "    %s\n", text);
	else
		add_wrapped(s, "    ", "      ", text);
}

/* The words of one summary item for F (after the patch's own line). */
static char *summary_item(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = f->commit[0] ? commit_ref(f->commit, f->subject) : g_strdup("");
	char *rel = fs_draft_clean_line(f->release);
	char *branch = fs_draft_clean_line(r->branch);
	char *t = NULL;

	switch (f->kind) {
	case FS_FIND_DEP_MISSING:
		if (f->cause == FS_CAUSE_STABLE_DEP_OF)
			t = g_strdup_printf("is only a prerequisite of a commit that is not queued: %s", ref);
		else
			t = g_strdup_printf("names a prerequisite I cannot find: %s", ref);
		break;
	case FS_FIND_ALREADY_APPLIED:
		if (f->stable_commit)
			t = g_strdup_printf("already backported as %.12s%s%s", f->stable_commit,
					    f->stable_release ? " in " : "",
					    f->stable_release ? f->stable_release : "");
		else
			t = g_strdup_printf("%.12s is in %s since %s", f->commit, branch,
					    *rel ? rel : "before it forked");
		break;
	case FS_FIND_REVERTED_UPSTREAM:
		t = g_strdup_printf("%s%s%s", ref, *rel ? " in " : "", rel);
		break;
	case FS_FIND_REGRESSION_REPORT: {
		char *who = display_name(f->from), *id = fs_draft_clean_id(f->message_id);

		t = g_strdup_printf("regression report from %s%s%s", who,
				    id ? ": https://lore.kernel.org/r/" : "", id ? id : "");
		g_free(id);
		g_free(who);
		break;
	}
	case FS_FIND_OBJECTION:
	case FS_FIND_NEEDS_ALSO: {
		char *who = display_name(f->from), *line = fs_draft_clean_line(f->note);

		t = g_strdup_printf(f->kind == FS_FIND_OBJECTION ? "%s objected: \"%s\"" :
				    "%s asked for more commits: \"%s\"", who, line);
		g_free(line);
		g_free(who);
		break;
	}
	case FS_FIND_TARGET_ABSENT:
		t = g_strdup_printf("%s a commit %s does not have: %s",
				    f->cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes", branch, ref);
		break;
	case FS_FIND_MISSING_IN_NEWER: {
		char *b = short_branch_name(f->newer_branch);

		t = g_strdup_printf("not in %s.y yet", b);
		g_free(b);
		break;
	}
	case FS_FIND_DUPLICATE_IN_SERIES:
		t = g_strdup_printf("%s again, as %s", ref, patch_number(r, f->series_index));
		break;
	case FS_FIND_REVERTED_IN_STABLE: {
		char *other = fs_draft_clean_line(f->branch);

		t = g_strdup_printf("%s reverted its backport: %.12s%s%s", other,
				    f->commit, *rel ? " in " : "", rel);
		g_free(other);
		break;
	}
	case FS_FIND_NO_UPSTREAM:
		t = g_strdup("the changelog names no upstream commit");
		break;
	case FS_FIND_UNKNOWN_UPSTREAM:
		t = g_strdup_printf("upstream id %.40s %s", f->commit,
				    f->unresolved == FS_CAUSE_AMBIGUOUS ? "is ambiguous" :
				    "not found in mainline");
		break;
	case FS_FIND_FIXES_TAG_MISMATCH:
		if (f->cause == FS_CAUSE_STABLE_ID)
			t = g_strdup_printf("its Fixes: tag names a stable commit instead of %s", ref);
		else
			t = g_strdup_printf("its Fixes: tag gives another id for %s",
					    ref);
		break;
	case FS_FIND_REVERTS_STABLE:
		if (f->stable_commit && strcmp(f->stable_commit, f->commit))
			t = g_strdup_printf("reverts %.12s, the backport of %s", f->stable_commit, ref);
		else
			t = g_strdup_printf("reverts %s", ref);
		break;
	default:
		break;
	}
	g_free(branch);
	g_free(rel);
	g_free(ref);
	return t;
}

/* Whether the reviewer has answered patch P already (O->answered). */
static bool was_answered(const struct fs_draft_opts *o, const struct fs_patch *p)
{
	return o && o->answered && o->answered(o->answered_data, p);
}

/* "03/27", with " (already answered)" when the reviewer answered it. */
static void add_patch_number(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_draft_opts *o)
{
	g_string_append(s, patch_number(r, rp->index));
	if (was_answered(o, rp->patch))
		g_string_append(s, " (already answered)");
}

/* The patches of R whose finding of G_FIXES names commit HEX, as "03/27",
 * "20/27 and 21/27", "01/27, 02/27 and 03/27", for findings of KIND. */
static char *patches_naming(const struct fs_review *r, const char *hex, enum fs_finding_kind kind,
			    const struct fs_draft_opts *o)
{
	GString *s = g_string_new(NULL);
	GPtrArray *hits = g_ptr_array_new();
	size_t i, k;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];

		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];

			if (f->kind == kind && is_shown(f) && group_of(f) == G_FIXES &&
			    !strcmp(f->commit, hex)) {
				g_ptr_array_add(hits, (gpointer)rp);
				break;
			}
		}
	}
	for (i = 0; i < hits->len; i++) {
		if (i)
			g_string_append(s, i + 1 == hits->len ? " and " : ", ");
		add_patch_number(s, r, g_ptr_array_index(hits, i), o);
	}
	g_ptr_array_free(hits, TRUE);
	return g_string_free(s, FALSE);
}

/* The requests of the summary, one line per commit to queue, naming
 * every patch that needs it: 'c5fef009a731 ("..."), in v4.7-rc1, fixes
 * 20/27 and 21/27'.  Returns the number of lines. */
static size_t add_fix_requests(GString *s, const struct fs_review *r, const struct fs_draft_opts *o)
{
	GHashTable *done = g_hash_table_new(g_str_hash, g_str_equal);
	size_t i, k, n = 0;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];

		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];
			char *ref, *fixes, *needs, *rel;

			if (!is_shown(f) || group_of(f) != G_FIXES ||
			    g_hash_table_contains(done, f->commit))
				continue;
			g_hash_table_add(done, (gpointer)f->commit);
			if (!n++)
				g_string_append_printf(s, "%s\n\n", group_title[G_FIXES]);
			ref = commit_ref(f->commit, f->subject);
			fixes = patches_naming(r, f->commit, FS_FIND_FIX_MISSING, o);
			needs = patches_naming(r, f->commit, FS_FIND_DEP_MISSING, o);
			rel = fs_draft_clean_line(f->release);
			g_string_append_printf(s, "  %s", ref);
			add_cve_phrase(s, f);
			if (*rel)
				g_string_append_printf(s, ", in %s,", rel);
			if (*fixes)
				g_string_append_printf(s, " fixes %s", fixes);
			if (*needs)
				g_string_append_printf(s, "%s is a prerequisite of %s",
						       *fixes ? " and" : "", needs);
			g_string_append_c(s, '\n');
			g_free(rel);
			g_free(needs);
			g_free(fixes);
			g_free(ref);
		}
	}
	if (n)
		g_string_append_c(s, '\n');
	g_hash_table_destroy(done);
	return n;
}

/* The groups after the requests: per patch, its line and an item per
 * finding.  Returns the number of patch lines. */
static size_t add_patch_groups(GString *s, const struct fs_review *r, const struct fs_draft_opts *o)
{
	size_t g, i, k, listed = 0;

	for (g = G_FIXES + 1; g < G_NONE; g++) {
		bool header = false;

		for (i = 0; i < r->npatches; i++) {
			const struct fs_review_patch *rp = &r->patches[i];
			bool patch_line = false;

			for (k = 0; k < rp->findings.n; k++) {
				const struct fs_finding *f = &rp->findings.v[k];
				char *item;

				if (!is_shown(f) || group_of(f) != (enum group)g ||
				    same_reply_earlier(&rp->findings, k))
					continue;
				if (!header) {
					g_string_append_printf(s, "%s\n\n", group_title[g]);
					header = true;
				}
				if (!patch_line) {
					char *title = fs_draft_clean_line(fs_patch_title(rp->patch));
					GString *line = g_string_new(NULL);
					char *hang = g_strnfill(2 + strlen(patch_number(r, rp->index)) + 1, ' ');

					add_patch_number(line, r, rp, o);
					g_string_append_printf(line, " %s", title);
					add_wrapped(s, "  ", hang, line->str);
					g_string_free(line, TRUE);
					g_free(hang);
					g_free(title);
					patch_line = true;
					listed++;
				}
				if ((item = summary_item(r, f)))
					add_item(s, item);
				g_free(item);
			}
		}
		if (header)
			g_string_append_c(s, '\n');
	}
	return listed;
}

/* The opening of the summary: the attribution and the cover's first
 * line, quoted.  New string ending in "\n". */
static char *summary_quote(const struct fs_patch *cover)
{
	GString *s = g_string_new(NULL);
	char *line = first_body_line(cover);

	add_attribution(s, cover);
	g_string_append_printf(s, "> %s\n", line ? line : "");
	g_free(line);
	return g_string_free(s, FALSE);
}

/* What the summary says, or NULL when there is nothing to list. */
static char *summary_findings(const struct fs_review *r, bool patch_replies,
			      const struct fs_draft_opts *o)
{
	size_t listed;
	GString *s = g_string_new(NULL);
	char *branch = fs_draft_clean_line(r->branch), *base = fs_draft_clean_line(r->base);

	add_paraf(s, "I went through this series against %s%s%s%s looking for known upstream follow-up fixes, reverts and duplicates. These patches need a look:",
		  branch, *base ? " (" : "", base, *base ? ")" : "");
	g_free(base);
	g_free(branch);
	listed = add_fix_requests(s, r, o);
	listed += add_patch_groups(s, r, o);
	if (!listed) {
		g_string_free(s, TRUE);
		return NULL;
	}
	if (patch_replies)
		add_para(s, "Details are in my replies to the patches.");
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

char *fs_draft_summary_body(const struct fs_review *r, bool patch_replies)
{
	const struct fs_patch *cover = r->series ? r->series->cover : NULL;
	char *findings, *quote, *ret;

	if (!cover || !(findings = summary_findings(r, patch_replies, NULL)))
		return NULL;
	quote = summary_quote(cover);
	ret = g_strconcat(quote, "\n", findings, NULL);
	g_free(quote);
	g_free(findings);
	return ret;
}

/* ---- the template --------------------------------------------------------- */

/* The variables of a draft template, in the order fixscan-config(5)
 * lists them. */
enum tvar { TV_QUOTE, TV_FINDINGS, TV_GREETING, TV_NAME, TV_EMAIL, TV_SIGNATURE,
	    TV_SUBJECT, TV_AUTHOR, TV_PATCH, TV_BRANCH, TV_COUNT };

static const char *const tvar_name[TV_COUNT] = {
	"quote", "findings", "greeting", "name", "email", "signature",
	"subject", "author", "patch", "branch",
};

static const char default_template[] =
	"${quote}\n"
	"\n"
	"${findings}\n"
	"\n"
	"Thanks,\n"
	"${signature}\n";

/* The variable named by NAME (LEN bytes), or -1. */
static int tvar_lookup(const char *name, size_t len)
{
	int i;

	for (i = 0; i < TV_COUNT; i++)
		if (strlen(tvar_name[i]) == len && !strncmp(tvar_name[i], name, len))
			return i;
	return -1;
}

/* Expand TMPL with VALS into OUT (may be NULL: only checked).  Returns 0,
 * or FS_EUSAGE with ERR naming the unknown variable and its line. */
static int expand_template(GString *out, const char *tmpl, const char *const *vals,
			   struct fs_error *err)
{
	const char *p;
	int line = 1;
	bool findings = false;

	for (p = tmpl; *p; p++) {
		const char *e;
		int v;

		if (*p == '\n')
			line++;
		if (*p != '$' || (p[1] != '{' && p[1] != '$')) {
			if (out)
				g_string_append_c(out, *p);
			continue;
		}
		if (p[1] == '$') { /* "$$" is a dollar sign */
			if (out)
				g_string_append_c(out, '$');
			p++;
			continue;
		}
		e = strchr(p + 2, '}');
		if (!e || memchr(p + 2, '\n', e - p - 2))
			return fs_error_set(err, FS_EUSAGE, "line %d: '${' without its '}'", line);
		if ((v = tvar_lookup(p + 2, e - p - 2)) < 0)
			return fs_error_set(err, FS_EUSAGE,
					    "line %d: unknown variable ${%.*s} (known: ${quote}, ${findings}, ${greeting}, ${name}, ${email}, ${signature}, ${subject}, ${author}, ${patch}, ${branch})",
					    line, (int)(e - p - 2 > 40 ? 40 : e - p - 2), p + 2);
		findings |= v == TV_FINDINGS;
		if (out && vals[v])
			g_string_append(out, vals[v]);
		p = e;
	}
	if (!findings)
		return fs_error_set(err, FS_EUSAGE, "it has no ${findings}: the drafts would say nothing");
	return 0;
}

int fs_draft_template_check(const char *tmpl, struct fs_error *err)
{
	return expand_template(NULL, tmpl, NULL, err);
}

/* S without the newlines at its end (in place). */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = '\0';
	return s;
}

/* "Hi Greta," for the author of P: the first word of the name. */
static char *greeting(const struct fs_patch *p)
{
	char *name, *addr, *sp, *ret;

	split_mailbox(fs_patch_from(p), &name, &addr);
	if ((sp = strchr(name, ' ')))
		*sp = '\0';
	ret = *name ? g_strdup_printf("Hi %s,", name) : g_strdup("Hi,");
	g_free(name);
	g_free(addr);
	return ret;
}

/* The whole body of a reply to ORIG: QUOTE and FINDINGS (no newline at
 * their ends) put into the template of O (or the default one), with
 * the close.  NUMBER is "03/27".  New string ending in one newline, or
 * NULL with ERR set for a bad template. */
static char *fill_body(const struct fs_review *r, const struct fs_patch *orig,
		       const struct fs_identity *me, const struct fs_draft_opts *o,
		       const char *number, char *quote, char *findings, struct fs_error *err)
{
	const char *vals[TV_COUNT];
	char *name = fs_draft_clean_line(me->name), *email = fs_draft_clean_id(me->email);
	char *sig = o && o->signature ? chomp(g_strdup(o->signature)) : NULL;
	char *subject = fs_draft_clean_line(fs_patch_subject(orig));
	char *author = display_name(fs_patch_from(orig)), *hi = greeting(orig);
	char *branch = fs_draft_clean_line(r->branch);
	GString *out = g_string_new(NULL);
	int rc;

	vals[TV_QUOTE] = chomp(quote);
	vals[TV_FINDINGS] = chomp(findings);
	vals[TV_GREETING] = hi;
	vals[TV_NAME] = *name ? name : (email ? email : "");
	vals[TV_EMAIL] = email ? email : "";
	vals[TV_SIGNATURE] = sig && *sig ? sig : vals[TV_NAME];
	vals[TV_SUBJECT] = subject;
	vals[TV_AUTHOR] = author;
	vals[TV_PATCH] = number;
	vals[TV_BRANCH] = branch;
	rc = expand_template(out, o && o->template_text ? o->template_text : default_template,
			     vals, err);
	chomp(out->str);
	out->len = strlen(out->str);
	g_string_append_c(out, '\n');
	g_free(name);
	g_free(email);
	g_free(sig);
	g_free(subject);
	g_free(author);
	g_free(hi);
	g_free(branch);
	if (rc < 0) {
		fs_error_prefix(err, "draft template");
		g_string_free(out, TRUE);
		return NULL;
	}
	return g_string_free(out, FALSE);
}

/* ---- composing ------------------------------------------------------------ */

static bool same_addr(const char *a, const char *b)
{
	return a && b && !g_ascii_strcasecmp(a, b);
}

/* Whether A is an address a reply can go to: printable ASCII without
 * spaces or the characters that delimit addresses, one '@' with text on
 * both sides. */
static bool valid_addr(const char *a)
{
	const char *at = a ? strchr(a, '@') : NULL;

	if (!at || at == a || !at[1] || strchr(at + 1, '@'))
		return false;
	for (; *a; a++) {
		unsigned char c = (unsigned char)*a;

		if (c <= 0x20 || c >= 0x7f || strchr("<>()[],;:\\\"", c))
			return false;
	}
	return true;
}

/* The first mailbox of the address list TEXT (groups flattened) with a
 * valid address: its cleaned name and address (new strings), or false. */
static bool first_mailbox(const char *text, char **name, char **addr)
{
	InternetAddressList *list = text && *text ? internet_address_list_parse(NULL, text) : NULL;
	int i, n = list ? internet_address_list_length(list) : 0;
	bool found = false;

	for (i = 0; i < n && !found; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);
		const char *a;

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			char *members = internet_address_list_to_string(
				internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)), NULL, FALSE);
			found = first_mailbox(members, name, addr);
			g_free(members);
			continue;
		}
		a = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
		if (!valid_addr(a))
			continue;
		*name = fs_draft_clean_line(internet_address_get_name(ia));
		*addr = g_strdup(a);
		found = true;
	}
	if (list)
		g_object_unref(list);
	return found;
}

/* Add the mailboxes of LIST (groups flattened) to DST, skipping any
 * address in SKIP (a hash set of lower-case addresses), which grows with
 * each one added so nobody is named twice. */
static void add_addresses(InternetAddressList *dst, InternetAddressList *list,
			  GHashTable *skip)
{
	int i, n = list ? internet_address_list_length(list) : 0;

	for (i = 0; i < n; i++) {
		InternetAddress *ia = internet_address_list_get_address(list, i);

		if (INTERNET_ADDRESS_IS_GROUP(ia)) {
			add_addresses(dst, internet_address_group_get_members(INTERNET_ADDRESS_GROUP(ia)),
				      skip);
		} else if (INTERNET_ADDRESS_IS_MAILBOX(ia)) {
			const char *addr = internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(ia));
			char *a, *name, *lower;
			InternetAddress *mb;

			/* Junk is left out, not cleaned into another address. */
			if (!valid_addr(addr))
				continue;
			a = g_strdup(addr);
			lower = g_ascii_strdown(a, -1);
			if (g_hash_table_contains(skip, lower)) {
				g_free(lower);
				g_free(a);
				continue;
			}
			g_hash_table_add(skip, lower);
			name = fs_draft_clean_line(internet_address_get_name(ia));
			mb = internet_address_mailbox_new(*name ? name : NULL, a);
			internet_address_set_charset(mb, "utf-8");
			internet_address_list_add(dst, mb);
			g_object_unref(mb);
			g_free(name);
			g_free(a);
		}
	}
}

static bool is_ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

/* Parse a decoded address list as fs_patch_to/cc give it. */
static InternetAddressList *parse_list(const char *s)
{
	return s && *s ? internet_address_list_parse(NULL, s) : NULL;
}

char *fs_draft_id_prefix(const char *key)
{
	char *hash = g_compute_checksum_for_string(G_CHECKSUM_SHA256, key, -1);
	char *ret = g_strdup_printf("fixscan.%.12s.", hash);

	g_free(hash);
	return ret;
}

/* A new Message-Id on ME's domain: a part derived from KEY, so ids of
 * drafts answering the same mail look alike (and a later run finds them
 * by it), then the time and random bits so every draft's id is unique. */
static char *new_message_id(const char *email, const char *key, time_t now)
{
	const char *at = strrchr(email, '@');
	char *prefix = fs_draft_id_prefix(key);
	GString *dom = g_string_new(NULL);
	struct tm tm;
	char stamp[32];
	char *id;

	for (at = at ? at + 1 : ""; *at; at++)
		if (g_ascii_isalnum(*at) || *at == '.' || *at == '-')
			g_string_append_c(dom, *at);
	if (!dom->len)
		g_string_append(dom, "localhost");
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	id = g_strdup_printf("%s%s.%08x@%s", prefix, stamp, g_random_int(), dom->str);
	g_string_free(dom, TRUE);
	g_free(prefix);
	return id;
}

int fs_draft_compose(struct fs_draft *out, const struct fs_patch *orig,
		     const struct fs_identity *me, const char *key,
		     const char *label, const char *body, time_t now,
		     struct fs_error *err)
{
	GMimeMessage *msg = NULL;
	GMimeTextPart *part = NULL;
	GMimeStream *stream = NULL;
	GMimeDataWrapper *wrapper = NULL;
	GMimeContentType *ctype;
	GMimeContentEncoding enc;
	GDateTime *date = NULL;
	GHashTable *skip = NULL;
	InternetAddressList *to_list = NULL, *cc_list = NULL;
	InternetAddress *mb;
	GString *refs = NULL;
	char *orig_id = NULL, *subject = NULL, *ckey = NULL, *sname = NULL, *saddr = NULL;
	char *myname = NULL, *myaddr = NULL;
	char *hdr;
	const char *const *r;
	size_t nr, i;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	pthread_once(&gmime_once, gmime_init_once);
	orig_id = fs_draft_clean_id(fs_patch_message_id(orig));
	if (!orig_id)
		return fs_error_set(err, FS_EPARSE, "cannot reply to '%s': it has no Message-Id",
				    fs_patch_subject(orig));
	ckey = fs_draft_clean_line(key);
	msg = g_mime_message_new(TRUE);
	skip = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	/* From: the reviewer.  Nobody gets their own reply. */
	/* The identity may not come from fs_identity_pick: clean it too. */
	myname = fs_draft_clean_line(me->name);
	myaddr = fs_draft_clean_id(me->email);
	if (!myaddr) {
		rc = fs_error_set(err, FS_EUSAGE, "no address to send the reply to '%s' from", orig_id);
		goto out;
	}
	mb = internet_address_mailbox_new(*myname ? myname : NULL, myaddr);
	internet_address_set_charset(mb, "utf-8");
	internet_address_list_add(g_mime_message_get_from(msg), mb);
	g_object_unref(mb);
	g_hash_table_add(skip, g_ascii_strdown(myaddr, -1));

	/* To: the sender; Cc: everyone else the mail went to.  An address
	 * that cannot be parsed is left out: never a header of junk. */
	if (!first_mailbox(fs_patch_from(orig), &sname, &saddr)) {
		sname = g_strdup("");
		saddr = g_strdup("");
	}
	if (*saddr && !same_addr(saddr, myaddr)) {
		mb = internet_address_mailbox_new(*sname ? sname : NULL, saddr);
		internet_address_set_charset(mb, "utf-8");
		internet_address_list_add(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), mb);
		g_object_unref(mb);
	}
	if (*saddr)
		g_hash_table_add(skip, g_ascii_strdown(saddr, -1));
	to_list = parse_list(fs_patch_to(orig));
	cc_list = parse_list(fs_patch_cc(orig));
	add_addresses(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC), to_list, skip);
	add_addresses(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC), cc_list, skip);
	if (!*saddr) {
		/* No sender to answer: the reply goes to the first of the
		 * others, or nowhere at all. */
		InternetAddressList *cc = g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_CC);

		if (!internet_address_list_length(cc)) {
			rc = fs_error_set(err, FS_EPARSE,
					  "cannot reply to <%s>: no address in its From, To or Cc can be parsed",
					  orig_id);
			goto out;
		}
		mb = internet_address_list_get_address(cc, 0);
		g_object_ref(mb);
		internet_address_list_remove_at(cc, 0);
		internet_address_list_add(g_mime_message_get_addresses(msg, GMIME_ADDRESS_TYPE_TO), mb);
		g_object_unref(mb);
	}

	subject = fs_draft_reply_subject(fs_patch_subject(orig));
	g_mime_message_set_subject(msg, subject, "utf-8");
	out->message_id = new_message_id(myaddr, ckey, now);
	g_mime_message_set_message_id(msg, out->message_id);
	date = g_date_time_new_from_unix_local(now);
	g_mime_message_set_date(msg, date);

	hdr = g_strdup_printf("<%s>", orig_id);
	g_mime_object_set_header(GMIME_OBJECT(msg), "In-Reply-To", hdr, NULL);
	g_free(hdr);
	refs = g_string_new(NULL);
	r = fs_patch_references(orig, &nr);
	for (i = 0; i < nr; i++) {
		char *id = fs_draft_clean_id(r[i]);

		if (id && strcmp(id, orig_id))
			g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", id);
		g_free(id);
	}
	g_string_append_printf(refs, "%s<%s>", refs->len ? " " : "", orig_id);
	g_mime_object_set_header(GMIME_OBJECT(msg), "References", refs->str, NULL);

	/* The key and digest stay out of the mail: it goes to a public list
	 * under the reviewer's name.  fixscan/drafts.h remembers them. */
	out->digest = fs_draft_digest(body, strlen(body));

	/* The body as UTF-8 whatever it holds: g_mime_text_part_set_text
	 * would pick ISO-8859-1 for text that fits it, and recode. */
	part = g_mime_text_part_new_with_subtype("plain");
	stream = g_mime_stream_mem_new_with_buffer(body, strlen(body));
	wrapper = g_mime_data_wrapper_new_with_stream(stream, GMIME_CONTENT_ENCODING_DEFAULT);
	g_mime_part_set_content(GMIME_PART(part), wrapper);
	ctype = g_mime_object_get_content_type(GMIME_OBJECT(part));
	g_mime_content_type_set_parameter(ctype, "charset", "utf-8");
	/* For an 8-bit channel GMime only says when an encoding is needed
	 * (quoted-printable for lines over 998 bytes, base64 for NULs);
	 * otherwise it answers "default", and the header must still say
	 * 8bit when the text is not ASCII. */
	enc = g_mime_part_get_best_content_encoding(GMIME_PART(part),
						    GMIME_ENCODING_CONSTRAINT_8BIT);
	if (enc == GMIME_CONTENT_ENCODING_DEFAULT)
		enc = is_ascii(body) ? GMIME_CONTENT_ENCODING_7BIT : GMIME_CONTENT_ENCODING_8BIT;
	g_mime_part_set_content_encoding(GMIME_PART(part), enc);
	g_mime_message_set_mime_part(msg, GMIME_OBJECT(part));

	out->text = g_mime_object_to_string(GMIME_OBJECT(msg), NULL);
	out->len = out->text ? strlen(out->text) : 0;
	out->key = g_strdup(ckey);
	out->label = fs_draft_clean_line(label);
	if (!out->text)
		rc = fs_error_set(err, FS_ENOMEM, "cannot compose the reply to '%s'", orig_id);
out:
	if (rc < 0)
		fs_draft_clear(out);

	if (refs)
		g_string_free(refs, TRUE);
	if (to_list)
		g_object_unref(to_list);
	if (cc_list)
		g_object_unref(cc_list);
	if (date)
		g_date_time_unref(date);
	if (wrapper)
		g_object_unref(wrapper);
	if (stream)
		g_object_unref(stream);
	if (part)
		g_object_unref(part);
	g_object_unref(msg);
	g_hash_table_destroy(skip);
	g_free(subject);
	g_free(sname);
	g_free(saddr);
	g_free(myname);
	g_free(myaddr);
	g_free(ckey);
	g_free(orig_id);
	return rc;
}

void fs_draft_clear(struct fs_draft *d)
{
	if (!d)
		return;
	g_free(d->key);
	g_free(d->label);
	g_free(d->message_id);
	g_free(d->digest);
	g_free(d->text);
	memset(d, 0, sizeof(*d));
}

void fs_drafts_clear(struct fs_drafts *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->n; i++)
		fs_draft_clear(&d->v[i]);
	g_free(d->v);
	d->v = NULL;
	d->n = 0;
}

static int append_draft(struct fs_drafts *out, const struct fs_patch *orig,
			const struct fs_identity *me, const char *kind,
			const char *label, const char *body, time_t now,
			struct fs_error *err)
{
	struct fs_draft d;
	char *key = g_strdup_printf("%s <%s>", kind, fs_patch_message_id(orig) ?
				    fs_patch_message_id(orig) : "");
	int rc;

	rc = fs_draft_compose(&d, orig, me, key, label, body, now, err);
	g_free(key);
	if (rc < 0)
		return rc;
	out->v = g_renew(struct fs_draft, out->v, out->n + 1);
	out->v[out->n++] = d;
	return 1;
}

bool fs_draft_finding_asks(const struct fs_finding *f)
{
	if (!is_shown(f) || !fs_finding_is_problem(f))
		return false;
	switch (f->kind) {
	case FS_FIND_FIXES_TAG_MISMATCH: /* the upstream commit's own tag: stable cannot change it */
	case FS_FIND_REVERTS_STABLE:     /* the maintainer's own revert */
	case FS_FIND_NO_UPSTREAM:        /* a stable-only patch may have none */
		return false;
	case FS_FIND_UNKNOWN_UPSTREAM:
		/* An id a clone older than the thread lacks may be right. */
		return f->cause != FS_CAUSE_NOT_IN_CLONE;
	default:
		return true;
	}
}

/* Whether patch RP gets a reply of its own: some finding asks the
 * maintainer to act, or EVERY_FINDING. */
static bool patch_asks(const struct fs_review_patch *rp, bool every_finding)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++)
		if (every_finding ? is_shown(&rp->findings.v[i]) :
		    fs_draft_finding_asks(&rp->findings.v[i]))
			return true;
	return false;
}

int fs_drafts_build_opts(struct fs_drafts *out, const struct fs_review *r,
			 const struct fs_identity *me, const struct fs_draft_opts *o,
			 struct fs_error *err)
{
	int added = 0, rc, unanswerable = 0;
	const struct fs_patch *cover = r->series ? r->series->cover : NULL;
	char number[32];
	size_t i;

	if (o->template_text && (rc = fs_draft_template_check(o->template_text, err)) < 0)
		return fs_error_prefix(err, "draft template");
	if (o->mode != FS_DRAFTS_PATCHES && cover) {
		char *findings = summary_findings(r, o->mode == FS_DRAFTS_ALL, o);

		if (findings) {
			char *quote = summary_quote(cover), *body, *label;

			snprintf(number, sizeof(number), "%s", patch_number(r, 0));
			body = fill_body(r, cover, me, o, number, quote, findings, err);
			g_free(quote);
			g_free(findings);
			if (!body)
				return err->code;
			label = g_strdup_printf("%s %s", number, fs_patch_subject(cover));
			rc = append_draft(out, cover, me, "summary", label, body, o->now, err);
			g_free(label);
			g_free(body);
			if (rc < 0 && rc != FS_EPARSE)
				return rc;
			if (rc == FS_EPARSE)
				unanswerable = rc;
			else
				added += rc;
		}
	}
	if (o->mode == FS_DRAFTS_SUMMARY)
		return added;
	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		char *findings, *quote, *body, *label;

		if (!patch_asks(rp, o->every_finding))
			continue;
		if (!(findings = patch_findings(r, rp)))
			continue;
		snprintf(number, sizeof(number), "%s", patch_number(r, rp->index));
		quote = patch_quote(rp->patch);
		body = fill_body(r, rp->patch, me, o, number, quote, findings, err);
		g_free(quote);
		g_free(findings);
		if (!body)
			return err->code;
		label = g_strdup_printf("%s %s", number, fs_patch_title(rp->patch));
		rc = append_draft(out, rp->patch, me, "patch", label, body, o->now, err);
		g_free(label);
		g_free(body);
		/* A mail that cannot be answered costs its own draft only. */
		if (rc == FS_EPARSE) {
			unanswerable = rc;
			continue;
		}
		if (rc < 0)
			return rc;
		added += rc;
	}
	return unanswerable ? unanswerable : added;
}

int fs_drafts_build(struct fs_drafts *out, const struct fs_review *r,
		    const struct fs_identity *me, enum fs_draft_mode mode,
		    bool every_finding, time_t now, struct fs_error *err)
{
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;

	o.mode = mode;
	o.every_finding = every_finding;
	o.now = now;
	return fs_drafts_build_opts(out, r, me, &o, err);
}
