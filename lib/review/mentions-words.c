/* fixscan: a reply's own words (mentions-private.h): what is left of its
 * body when quoted text, attributions, trailers, the signature, a patch
 * it carries and a commit pasted into it are taken out.  The phrase
 * rules (mentions-class.c) read only these. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include <glib.h>

#include "mentions-read.h"

/* Whether the line S..E is a trailer ("Tested-by: ...", "Cc: ...",
 * "Link: ..."): a tag, not the replier's words.  "Nacked-by:" is not. */
static bool is_trailer(const char *s, const char *e)
{
	const char *c = s;

	while (c < e && (isalnum((unsigned char)*c) || *c == '-'))
		c++;
	if (c == s || c >= e || *c != ':' || (c + 1 < e && c[1] != ' '))
		return false;
	if (c - s == 9 && !strncasecmp(s, "nacked-by", 9))
		return false;
	return (c - s > 3 && !strncasecmp(c - 3, "-by", 3)) ||
	       (c - s == 2 && !strncasecmp(s, "cc", 2)) ||
	       (c - s == 4 && !strncasecmp(s, "link", 4)) ||
	       (c - s == 5 && !strncasecmp(s, "fixes", 5));
}

bool fsmn_starts(const char *s, size_t l, const char *word)
{
	size_t n = strlen(word);

	return l >= n && !strncasecmp(s, word, n);
}

/* Whether the line S (L bytes, trimmed) starts a quote in the form
 * of Outlook and its kind: no '>' marks, a header block instead. */
static bool starts_outlook_quote(const char *s, size_t l, const char *next, size_t nl)
{
	return fsmn_starts(s, l, "-----Original Message-----") ||
	       (fsmn_starts(s, l, "From: ") && fsmn_starts(next, nl, "Sent: "));
}

/* Whether the line S (L bytes, trimmed) starts what a reply carries
 * rather than says: a patch in git's mbox form, a scissors line, a diff. */
static bool starts_carried(const char *s, size_t l)
{
	static const char *const marks[] = {
		"diff --git ", "Index: ", "--- a/",
	};
	size_t k, hex = 0;

	for (k = 0; k < G_N_ELEMENTS(marks); k++)
		if (fsmn_starts(s, l, marks[k]))
			return true;

	if (fsmn_starts(s, l, "From ")) {
		while (5 + hex < l && isxdigit((unsigned char)s[5 + hex]))
			hex++;
		if (hex == 40)
			return true;
	}
	return l >= 6 && (!strncmp(s, "--8<", 4) || !strncmp(s, "-->8", 4) ||
			  (!strncmp(s, "---", 3) && strstr(s, "8<") && (size_t)(strstr(s, "8<") - s) < l) ||
			  (!strncmp(s, ">8", 2)));
}

/* Whether the line S (L bytes, trimmed) opens a pasted commit:
 * "commit <40 hex>" alone on its line. */
static bool starts_pasted_commit(const char *s, size_t l)
{
	size_t hex = 0;

	if (!fsmn_starts(s, l, "commit "))
		return false;
	while (7 + hex < l && isxdigit((unsigned char)s[7 + hex]))
		hex++;
	return hex >= 12 && 7 + hex == l;
}

/* Whether the line is an attribution ("On Mon, X wrote:", "X a écrit :",
 * "Am 1.2.26 schrieb X:"). */
static bool is_attribution(const char *s, size_t l)
{
	return (l >= 6 && !strncmp(s + l - 6, "wrote:", 6)) ||
	       (l >= 7 && !strncmp(s + l - 7, "écrit :", 7)) ||
	       (fsmn_starts(s, l, "Am ") && l >= 8 && !strncmp(s + l - 1, ":", 1) && strstr(s, " schrieb ") &&
		(size_t)(strstr(s, " schrieb ") - s) < l) ||
	       (l >= 7 && !strncmp(s + l - 7, "writes:", 7)) ||
	       (fsmn_starts(s, l, "Quoting ") && l < 80);
}

char *fs_mentions_own_words(const char *body, size_t len, bool *carries_patch)
{
	const char *p = body, *end = body + len;
	GString *out = g_string_new(NULL);
	bool pasted = false, last_from = false, this_from = false;
	bool prev_indented = false, this_indented = false;
	size_t on_at = 0, on_lines = 0;

	if (carries_patch)
		*carries_patch = false;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *e = nl ? nl : end, *s = p;
		size_t l;
		bool indented = p < e && (*p == ' ' || *p == '\t');

		p = e + 1;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		l = e - s;
		while (l && isspace((unsigned char)s[l - 1]))
			l--;
		last_from = this_from;
		this_from = fsmn_starts(s, l, "From: ");
		prev_indented = this_indented;
		this_indented = indented && l;
		if ((e - s == 2 || e - s == 3) && !strncmp(s, "--", 2) && (e - s == 2 || s[2] == ' '))
			break;
		/* "From: X" then "Subject: [PATCH ...]": a patch as git writes it */
		if (*s != '>' && (starts_carried(s, l) || (last_from && fsmn_starts(s, l, "Subject: [PATCH")))) {
			if (carries_patch)
				*carries_patch = true;
			break;
		}
		if (*s != '>' && starts_outlook_quote(s, l, p < end ? p : "", p < end ? (size_t)(end - p) : 0))
			break;
		/* "From: X Sent: <date>" on one line: an attribution */
		if (fsmn_starts(s, l, "From: ") && strstr(s, " Sent: ") && (size_t)(strstr(s, " Sent: ") - s) < l) {
			g_string_append_c(out, '\n');
			continue;
		}
		/* A pasted commit: its id line is the replier's reference,
		 * its header and indented message are not their words. */
		if (*s != '>' && starts_pasted_commit(s, l)) {
			pasted = true;
			if (out->len && out->str[out->len - 1] != '\n')
				g_string_append_c(out, ' ');
			g_string_append_len(out, s, l);
			continue;
		} else if (pasted && l && !indented && !prev_indented && !fsmn_starts(s, l, "Author:") && !fsmn_starts(s, l, "Date:") &&
			 !fsmn_starts(s, l, "Commit:") && !fsmn_starts(s, l, "Merge:"))
			pasted = false;
		/* "On <date>, <name>" wrapped before "<address> wrote:": the
		 * lines since the "On" are the attribution too. */
		if (is_attribution(s, l) && on_lines && on_lines <= 3)
			g_string_truncate(out, on_at);
		if (pasted || !l || *s == '>' || is_attribution(s, l) || is_trailer(s, s + l)) {
			g_string_append_c(out, '\n');
			on_lines = 0;
			continue;
		}
		if (fsmn_starts(s, l, "On ")) {
			on_at = out->len;
			on_lines = 0;
		}
		if (out->len && out->str[out->len - 1] != '\n')
			g_string_append_c(out, ' ');
		g_string_append_len(out, s, l);
		/* the lines since an "On" one, 0 when none is open */
		if (on_lines || fsmn_starts(s, l, "On "))
			on_lines++;
	}
	return g_string_free(out, FALSE);
}
