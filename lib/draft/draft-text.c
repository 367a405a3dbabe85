/* fixscan: the words of drafts: quoting, wrapping at 72 columns, and
 * the references a sentence makes (commits, patch numbers, people).
 * Shared by the draft files and the table of kinds (draft-private.h).
 *
 * Text that comes from mail (subjects, names, addresses, ids, dates) is
 * passed through fs_text_clean_line() or fs_text_clean_id() before it
 * goes anywhere near a header, so a CR or LF in it can never start a
 * header of its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/report.h"
#include "fixscan/version.h"
#include "draft-private.h"

/* ---- text helpers --------------------------------------------------------- */

/* The name to address a person by: the display name, else the address. */
char *fsd_display_name(const char *from)
{
	return fs_text_display_name(from, "you");
}

/* Whether WORD is a commit id as a reference starts with it: 12 to 40
 * lower-case hex digits. */
static bool fsd_is_hex_id(const char *word)
{
	size_t n = strspn(word, "0123456789abcdef");

	return n >= 12 && n <= 40 && !word[n];
}

/* The words of TEXT, with each commit reference '0123456789ab ("its
 * subject")' glued into one word: a reference is never broken across
 * lines, as git and the kernel's own tools write them.  NULL-terminated
 * (g_strfreev()); empty words dropped. */
static char **fsd_wrap_words(const char *text)
{
	char **raw = g_strsplit(text, " ", -1);
	GPtrArray *out = g_ptr_array_new();
	size_t i;

	for (i = 0; raw[i]; i++) {
		GString *w;

		if (!*raw[i])
			continue;
		if (!fsd_is_hex_id(raw[i]) || !raw[i + 1] || strncmp(raw[i + 1], "(\"", 2)) {
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
void fsd_add_wrapped(GString *s, const char *first, const char *next, const char *text)
{
	char **words = fsd_wrap_words(text);
	size_t col, i;
	bool empty = true;

	g_string_append(s, first);
	col = g_utf8_strlen(first, -1);
	for (i = 0; words[i]; i++) {
		size_t n = g_utf8_strlen(words[i], -1);

		if (!empty && col + 1 + n > FSD_WRAP) {
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
char *fsd_sentences_upto(const char *text, size_t max)
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
void fsd_add_para(GString *s, const char *text)
{
	fsd_add_wrapped(s, "", "", text);
	g_string_append_c(s, '\n');
}

/* Append the words of another mail or commit, TEXT, in quotation
 * marks, wrapped and indented two columns: a "> " quote is only ever a
 * line of the mail a draft answers. */
void fsd_add_quote(GString *s, const char *text)
{
	char *q = g_strdup_printf("\"%s\"", text);

	fsd_add_wrapped(s, "  ", "  ", q);
	g_free(q);
}

void fsd_add_paraf(GString *s, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	fsd_add_para(s, text);
	g_free(text);
}

/* '0123456789ab ("subject")', the way a Fixes: tag names a commit. */
char *fsd_commit_ref(const char *hex, const char *subject)
{
	char *subj = fs_text_clean_line(subject), *ret;

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
const struct fs_finding *fsd_queued_finding(const struct fs_review_patch *rp,
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

/* "On <date>, <name> wrote:" for message P. */
void fsd_add_attribution(GString *s, const struct fs_patch *p)
{
	char *date = fs_text_clean_line(fs_patch_date(p));
	char *who = fsd_display_name(fs_patch_from(p));

	char *line = *date ? g_strdup_printf("On %s, %s wrote:", date, who) :
		     g_strdup_printf("%s wrote:", who);

	fsd_add_wrapped(s, "", "", line);
	g_free(line);
	g_free(date);
	g_free(who);
}

/* Whether LINE names commit HEX (lower-case hex): it has a word of 8
 * or more hex digits that HEX starts with. */
static bool line_names_commit(const char *line, const char *hex)
{
	const char *p = line;

	while (*p) {
		size_t n = strspn(p, "0123456789abcdefABCDEF");

		if (n >= 8 && n <= strlen(hex) && !g_ascii_strncasecmp(p, hex, n) &&
		    (p == line || !g_ascii_isalnum(p[-1])) && !g_ascii_isalnum(p[n]))
			return true;
		p += n ? n : 1;
	}
	return false;
}

/* Whether LINE is what every stable patch mail says before its
 * changelog, not the changelog: the review notice, a rule. */
static bool is_preamble(const char *line)
{
	return !*line || strstr(line, "stable review patch") || strspn(line, "-") == strlen(line) ||
	       g_str_has_prefix(line, "From: ");
}

/* The most lines of a mail a draft quotes. */
#define QUOTE_LINES_MAX 6

void fsd_add_quoted_lines(GString *s, const struct fs_patch *p, const char *const *ids, size_t n)
{
	size_t len, i, k, taken = 0;
	const char *body = fs_patch_body(p, &len);
	char *text = body ? g_strndup(body, len) : g_strdup("");
	char **lines = g_strsplit(text, "\n", -1);
	long last = -1;

	for (i = 0; lines[i] && taken < QUOTE_LINES_MAX; i++) {
		char *line = fs_text_clean_line(lines[i]);
		bool want = false;

		/* the changelog ends where the diff starts */
		if (!strcmp(line, "---") || g_str_has_prefix(line, "diff --git ")) {
			g_free(line);
			break;
		}
		for (k = 0; k < n && !want; k++)
			want = ids[k] && *ids[k] && line_names_commit(line, ids[k]);
		if (want) {
			if (last >= 0 && (long)i != last + 1)
				g_string_append(s, ">\n");
			g_string_append_printf(s, "> %s\n", line);
			last = (long)i;
			taken++;
		}
		g_free(line);
	}
	/* nothing named: the changelog's first line */
	for (i = 0; !taken && lines[i]; i++) {
		char *line = fs_text_clean_line(lines[i]);

		if (!is_preamble(line)) {
			g_string_append_printf(s, "> %s\n", line);
			taken++;
		}
		g_free(line);
	}
	g_strfreev(lines);
	g_free(text);
}

/* The first line of text of P's body (the cover's opening sentence). */
char *fsd_first_body_line(const struct fs_patch *p)
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
			char *raw = g_strndup(body, e - body), *ret = fs_text_clean_line(raw);
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
bool fsd_is_shown(const struct fs_finding *f)
{
	return !f->ignored && !f->settled && f->unresolved != FS_CAUSE_NOT_IN_CLONE;
}

/* Whether F of RP is a fix-missing that asks for HEX. */
static bool asks_for_fix(const struct fs_finding *f, const char *hex)
{
	return f->kind == FS_FIND_FIX_MISSING && fsd_is_shown(f) && !strcmp(f->commit, hex);
}

const struct fs_review_patch *fsd_fix_asker(const struct fs_review *r, const char *hex)
{
	const struct fs_review_patch *first = NULL;
	size_t i, k;

	for (i = 0; i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];

		for (k = 0; k < rp->findings.n; k++) {
			const struct fs_finding *f = &rp->findings.v[k];

			if (!asks_for_fix(f, hex))
				continue;
			/* a chain of three or more: it fixes a fix of this one */
			if (f->nchain < 3)
				return rp;
			if (!first)
				first = rp;
		}
	}
	return first;
}

/* The "(a fix of ...)" note of a fix-of-a-fix: which commit of the chain
 * this one fixes, and where that one is. */
void fsd_add_chain_note(GString *s, const struct fs_review_patch *rp,
			   const struct fs_finding *f, const struct fs_review *r)
{
	const char *prev;
	const struct fs_finding *q;
	size_t i;
	bool listed = false;

	if (f->nchain < 3)
		return;
	prev = f->chain[f->nchain - 2];
	q = fsd_queued_finding(rp, prev);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *o = &rp->findings.v[i];

		if (o != f && o->kind == FS_FIND_FIX_MISSING && fsd_is_shown(o) &&
		    !strcmp(o->commit, prev))
			listed = true;
	}
	g_string_append_printf(s, "    which %s %.12s", f->evidence != FS_FEV_REVERT ? "fixes" : "reverts",
			       prev);
	if (q && q->series_index < 0)
		g_string_append(s, ", queued for this branch already");
	else if (q)
		g_string_append_printf(s, ", queued here as %s", fs_report_nn(r, q->series_index));
	else if (listed)
		g_string_append(s, " above");
	g_string_append_c(s, '\n');
}

/* " (CVE-2024-26921)", " (CVE-2024-1, CVE-2024-2)": the CVEs F's commit
 * fixes, when any. */
void fsd_add_cve_phrase(GString *s, const struct fs_finding *f)
{
	size_t i;

	for (i = 0; i < f->ncves; i++) {
		char *id = fs_text_clean_line(f->cves[i]);
		g_string_append_printf(s, "%s%s", i ? ", " : " (", id);
		g_free(id);
	}
	if (f->ncves)
		g_string_append_c(s, ')');
}

/* The indented line of a commit in a list: id, subject, release. */
void fsd_add_commit_item(GString *s, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *rel = fs_text_clean_line(f->release);
	GString *line = g_string_new(NULL);

	g_string_append_printf(line, "%s%s%s", ref, *rel ? " in " : "", rel);
	fsd_add_cve_phrase(line, f);
	fsd_add_wrapped(s, "  ", "    ", line->str);
	g_string_free(line, TRUE);
	g_free(ref);
	g_free(rel);
}

/* "4.5" of "linux-4.5.y", for people. */
char *fsd_short_branch_name(const char *b)
{
	char series[FS_VERSION_NAME_MAX];

	if (fs_version_branch_series(b, series, sizeof(series)))
		return g_strdup(series);
	return fs_text_clean_line(b);
}

/* review --all-open on a fix-missing: where else it is queued, and a
 * FAILED notice.  *ELSEWHERE gets the first other branch ("6.1"). */
void fsd_add_cross_note(GString *s, const struct fs_finding *f, char **elsewhere, bool *failed)
{
	size_t i;

	for (i = 0; i < f->cross.nqueued; i++) {
		const struct fs_finding_queued *q = &f->cross.queued[i];
		char *b = fsd_short_branch_name(q->branch);

		if (q->index >= 0)
			g_string_append_printf(s, "    (queued for %s as %02d/%02d)\n", b, q->index, q->total);
		else
			g_string_append_printf(s, "    (queued for %s)\n", b);
		if (!*elsewhere)
			*elsewhere = g_strdup(b);
		g_free(b);
	}
	if (f->cross.failed_to_apply) {
		char *date = fs_text_clean_line(f->cross.failed_date);
		char *note = g_strdup_printf("(FAILED to apply to this branch%s%s)",
					     *date ? ", notice of " : "", date);

		fsd_add_wrapped(s, "    ", "     ", note);
		g_free(note);
		g_free(date);
		*failed = true;
	}
}

bool fsd_same_reply_before(const struct fs_findings *fs, size_t i,
			   bool (*counts)(const struct fs_finding *f))
{
	const struct fs_finding *f = &fs->v[i];
	size_t k;

	for (k = 0; f->mail.message_id && k < i; k++)
		if (fs->v[k].kind == f->kind && fs->v[k].mail.message_id &&
		    !strcmp(fs->v[k].mail.message_id, f->mail.message_id) && counts(&fs->v[k]))
			return true;
	return false;
}

bool fsd_same_reply_earlier(const struct fs_findings *fs, size_t i)
{
	return fsd_same_reply_before(fs, i, fsd_is_shown);
}

/* A mail named in a paragraph, its lines; its link.  (draft-private.h) */
void fsd_add_mail_lines(GString *s, const char *from, const char *date, const char *subj)
{
	if (*from)
		fsd_add_wrapped(s, "  From: ", "    ", from);
	if (*date)
		fsd_add_wrapped(s, "  Date: ", "    ", date);
	if (*subj)
		fsd_add_wrapped(s, "  Subject: ", "    ", subj);
}

void fsd_add_lore_line(GString *s, const struct fs_finding *f)
{
	char *link = fs_finding_mail_link(f);

	if (link)
		g_string_append_printf(s, "  %s\n", link);
	g_string_append_c(s, '\n');
	g_free(link);
}

const struct fs_finding *fsd_needs_also_for(const struct fs_review_patch *rp, const char *hex,
					    bool (*counts)(const struct fs_finding *))
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *g = &rp->findings.v[i];

		if (g->kind == FS_FIND_NEEDS_ALSO && counts(g) && !strcmp(g->commit, hex))
			return g;
	}
	return NULL;
}
