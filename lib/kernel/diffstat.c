/* fixscan: a patch mail's diffstat against its diff (fixscan/diffstat.h).
 *
 * The diffstat is the run of " path | N +-" lines that a " N file(s)
 * changed" line ends, before the first file of the diff; the diff's
 * files are the paths of its "diff --git" headers, or of its "--- " and
 * "+++ " pairs when it has none (a diff not made by git).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/diffstat.h"

/* The line at *P (up to END) without its end of line: [*LINE, *E); *P
 * moves past it.  False at END. */
static bool next_line(const char **p, const char *end, const char **line, const char **e)
{
	const char *nl;

	if (*p >= end)
		return false;
	*line = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*e = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	while (*e > *line && (*e)[-1] == '\r')
		(*e)--;
	return true;
}

static bool starts(const char *line, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - line) >= n && !memcmp(line, word, n);
}

/* The path of a diffstat line " path | 12 +-" or " path | Bin ...":
 * a new string, or NULL when LINE is no such line. */
static char *stat_path(const char *line, const char *e)
{
	const char *bar, *p, *q;

	if (e - line < 5 || line[0] != ' ' || line[1] == ' ')
		return NULL;
	bar = memchr(line, '|', (size_t)(e - line));
	if (!bar || bar[-1] != ' ')
		return NULL;
	for (p = bar + 1; p < e && *p == ' '; p++)
		;
	if (p == e || !(g_ascii_isdigit(*p) || starts(p, e, "Bin")))
		return NULL;
	for (q = bar; q > line + 1 && q[-1] == ' '; q--)
		;
	return g_strndup(line + 1, (size_t)(q - line - 1));
}

/* " 3 files changed, ..." or " 1 file changed, ...". */
static bool stat_summary(const char *line, const char *e)
{
	const char *p = line;

	if (p == e || *p++ != ' ' || p == e || !g_ascii_isdigit(*p))
		return false;
	while (p < e && g_ascii_isdigit(*p))
		p++;
	return starts(p, e, " file changed") || starts(p, e, " files changed");
}

/* Add the path of a diff header side ("a/x/y.c", "b/x/y.c") to PATHS
 * without its "a/" or "b/"; "/dev/null" is no file. */
static void add_side(GPtrArray *paths, const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);

	/* a diff not made by git may date each side after a tab */
	if (tab)
		n = (size_t)(tab - s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n >= 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/') {
		s += 2;
		n -= 2;
	}
	if (n && !(n == 9 && !memcmp(s, "/dev/null", 9)))
		g_ptr_array_add(paths, g_strndup(s, n));
}

/* "diff --git a/X b/Y": both sides (unquoted names; a quoted header adds
 * its whole text, which then matches nothing but counts as a file). */
static void add_git_header(GPtrArray *paths, const char *line, const char *e)
{
	const char *rest = line + strlen("diff --git "), *b;

	b = g_strstr_len(rest, e - rest, " b/");
	if (!b) {
		add_side(paths, rest, (size_t)(e - rest));
		return;
	}
	add_side(paths, rest, (size_t)(b - rest));
	add_side(paths, b + 1, (size_t)(e - b - 1));
}

/* Whether a diffstat path WANT is the diff's path HAVE: the same path,
 * or for a path the diffstat shortened (".../dir/name") one that ends
 * with it.  A rename ("a => b") or a quoted name counts as the same: it
 * is not worth a false "cut short". */
static bool same_path(const char *have, const char *want)
{
	size_t hn = strlen(have), wn;

	if (strstr(want, "=>") || want[0] == '"')
		return true;
	if (g_str_has_prefix(want, "..."))
		want += 3;
	wn = strlen(want);
	return hn >= wn && !strcmp(have + hn - wn, want) &&
	       (hn == wn || want[0] == '/' || have[hn - wn - 1] == '/');
}

/* Whether WANT is one of the diff's PATHS (same_path()). */
static bool found(const GPtrArray *paths, const char *want)
{
	size_t i;

	for (i = 0; i < paths->len; i++)
		if (same_path(paths->pdata[i], want))
			return true;
	return false;
}

/* "@@ -A[,B] +C[,D] @@": B and D (1 when left out) into *OLD and *NEW. */
static bool hunk_header(const char *line, const char *e, long *old, long *new)
{
	const char *p = line + 4;
	char *end;

	if (!starts(line, e, "@@ -"))
		return false;
	strtol(p, &end, 10);
	*old = *end == ',' ? strtol(end + 1, &end, 10) : 1;
	if (end >= e || strncmp(end, " +", 2))
		return false;
	strtol(end + 2, &end, 10);
	*new = *end == ',' ? strtol(end + 1, &end, 10) : 1;
	return end < e && *end == ' ' && *old >= 0 && *new >= 0;
}

/* A line of a hunk counted off *OLD and *NEW; false when LINE is none
 * (the hunk stops short).  A context line whose one space a mailer took
 * away is an empty line. */
static bool hunk_line(const char *line, const char *e, long *old, long *new)
{
	char c = line < e ? *line : ' ';

	if (c == '\\')
		return true; /* "\ No newline at end of file" */
	if ((c == ' ' && *old > 0 && *new > 0)) {
		(*old)--;
		(*new)--;
	} else if (c == '-' && *old > 0) {
		(*old)--;
	} else if (c == '+' && *new > 0) {
		(*new)--;
	} else {
		return false;
	}
	return true;
}

/* Whether a side of the diff's header (PATHS FROM..TO) is a file STAT
 * lists: found() the other way round.  The LAST header may have been cut
 * in its middle: a path that begins a listed one is that one. */
static bool header_listed(const GPtrArray *stat, const GPtrArray *paths, guint from, guint to,
			  bool last)
{
	guint k;
	size_t i;

	for (k = from; k < to; k++) {
		const char *have = paths->pdata[k];

		for (i = 0; i < stat->len; i++)
			if (same_path(have, stat->pdata[i]) ||
			    (last && g_str_has_prefix(stat->pdata[i], have)))
				return true;
	}
	return from == to; /* no path read: nothing to hold against it */
}

void fs_diffstat_gap_clear(struct fs_diffstat_gap *g)
{
	g_free(g->first_missing);
	g_free(g->cut_inside);
	memset(g, 0, sizeof(*g));
}

/* A hunk stopped short in the file the diff was at: the last path of
 * PATHS (its new side); the first such file is kept. */
static void cut_short(struct fs_diffstat_gap *out, const GPtrArray *paths)
{
	if (!out->cut_inside)
		out->cut_inside = g_strdup(paths->len ? paths->pdata[paths->len - 1] : "?");
}

void fs_diffstat_gap(const char *text, size_t len, struct fs_diffstat_gap *out)
{
	GPtrArray *stat = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *run = g_ptr_array_new_with_free_func(g_free);
	GPtrArray *paths = g_ptr_array_new_with_free_func(g_free);
	const char *p = text, *end = text ? text + len : NULL, *line, *e;
	GArray *heads = g_array_new(FALSE, FALSE, sizeof(guint));
	bool git = false, in_diff = false;
	size_t i, plain = 0, unlisted = 0;
	long old = 0, new = 0;
	char *path;

	memset(out, 0, sizeof(*out));
	while (text && next_line(&p, end, &line, &e)) {
		if (old > 0 || new > 0) {
			if (hunk_line(line, e, &old, &new))
				continue;
			cut_short(out, paths);
			old = new = 0;
		}
		if (in_diff && hunk_header(line, e, &old, &new)) {
			continue;
		} else if (starts(line, e, "diff --git ")) {
			g_array_append_val(heads, paths->len);
			add_git_header(paths, line, e);
			git = in_diff = true;
			out->in_diff++;
		} else if (!git && starts(line, e, "--- ") && p < end && starts(p, end, "+++ ")) {
			const char *l2, *e2;

			g_array_append_val(heads, paths->len);
			add_side(paths, line + 4, (size_t)(e - line - 4));
			next_line(&p, end, &l2, &e2);
			add_side(paths, l2 + 4, (size_t)(e2 - l2 - 4));
			in_diff = true;
			plain++;
		} else if (!in_diff && !stat->len && (path = stat_path(line, e))) {
			g_ptr_array_add(run, path);
		} else if (!in_diff && !stat->len && run->len && stat_summary(line, e)) {
			/* the run a summary ends is the diffstat */
			GPtrArray *t = stat;
			stat = run;
			run = t;
		} else if (run->len) {
			g_ptr_array_set_size(run, 0);
		}
	}
	if (old > 0 || new > 0)
		cut_short(out, paths);
	if (!git)
		out->in_diff = plain;
	out->listed = stat->len;
	for (i = 0; i < stat->len; i++) {
		if (found(paths, stat->pdata[i]))
			continue;
		if (!out->missing++)
			out->first_missing = g_strdup(stat->pdata[i]);
	}
	/* A diff cut short has only files its diffstat lists; one with
	 * files it does not list has a diffstat of another diff (edited
	 * by hand, or made up): nothing is said of what it lacks. */
	for (i = 0; stat->len && i < heads->len; i++) {
		guint from = g_array_index(heads, guint, i);
		guint to = i + 1 < heads->len ? g_array_index(heads, guint, i + 1) : paths->len;

		unlisted += !header_listed(stat, paths, from, to, i + 1 == heads->len);
	}
	if (out->missing && unlisted) {
		g_free(out->first_missing);
		out->first_missing = NULL;
		out->missing = 0;
	}
	g_array_free(heads, TRUE);
	g_ptr_array_free(stat, TRUE);
	g_ptr_array_free(run, TRUE);
	g_ptr_array_free(paths, TRUE);
}
