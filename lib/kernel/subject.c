/* fixscan: the "[PATCH ...]" prefix of a patch subject, read as the
 * kernel's mail conventions write it (git format-patch, git send-email,
 * b4, the stable scripts).  Pure: text in, a struct fs_series out.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/subject.h"
#include "fixscan/version.h"

/* Skip "Re:", "RE:", "Fwd:", "Fw:" and the spaces after them, repeatedly. */
static const char *skip_reply_marks(const char *s)
{
	static const char *const marks[] = { "re:", "fwd:", "fw:", "aw:" };
	bool again = true;

	while (again) {
		again = false;
		while (*s == ' ' || *s == '\t')
			s++;
		for (size_t i = 0; i < G_N_ELEMENTS(marks); i++) {
			size_t n = strlen(marks[i]);

			if (!g_ascii_strncasecmp(s, marks[i], n)) {
				s += n;
				again = true;
				break;
			}
		}
	}
	return s;
}

/* A small non-negative decimal number, all of TOK[0..N). */
static bool parse_number(const char *tok, size_t n, int *out)
{
	int v = 0;

	if (n == 0 || n > 6)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!g_ascii_isdigit(tok[i]))
			return false;
		v = v * 10 + (tok[i] - '0');
	}
	*out = v;
	return true;
}

/* "v2", "V3": a patch revision. */
static bool parse_revision(const char *tok, size_t n, int *out)
{
	if (n < 2 || (tok[0] != 'v' && tok[0] != 'V'))
		return false;
	return parse_number(tok + 1, n - 1, out);
}

/* "105/143", "000/143". */
static bool parse_numbering(const char *tok, size_t n, int *index, int *total)
{
	const char *slash = memchr(tok, '/', n);

	if (!slash)
		return false;
	return parse_number(tok, slash - tok, index) &&
	       parse_number(slash + 1, n - (slash - tok) - 1, total);
}

/* A kernel series: "4.4", "5.14", "2.6.32", "4.4.y" (".y"/".x" dropped),
 * optionally written "v4.4" or "linux-4.4.y"; a release names its series
 * ("5.4.33" is of 5.4).  Returns a new string. */
static char *parse_version(const char *tok, size_t n)
{
	size_t i = 0, pre = strlen(FS_VERSION_BRANCH_PREFIX);
	struct fs_version v, series;
	char name[FS_VERSION_NAME_MAX];

	if (n > pre && !g_ascii_strncasecmp(tok, FS_VERSION_BRANCH_PREFIX, pre))
		i = pre;
	if (i < n && (tok[i] == 'v' || tok[i] == 'V'))
		i++;
	if (n - i > 2 && tok[n - 2] == '.' && (tok[n - 1] == 'y' || tok[n - 1] == 'x'))
		n -= 2;
	/* the numbers alone, at most one more than the series has */
	if (i >= n || fs_version_scan(tok + i, n - i, &v) != n - i || v.v || v.rc ||
	    v.nparts > fs_version_series_parts(&v) + 1 || !fs_version_series(&v, &series) ||
	    !fs_version_format(&series, name, sizeof(name)))
		return NULL;
	return g_strdup(name);
}

/* "PATCH", "patch", the glued "PATCHv2" (revision in *REV), and
 * "PATCH-stable" (a tree named after a dash); "BACKPORT", the word some
 * vendors post their stable backports under, in capitals only (a
 * "[Backport request ...]" asks for a patch, it is none). */
static bool is_patch_word(const char *tok, size_t n, int *rev)
{
	size_t k;

	if (n == 8 && !strncmp(tok, "BACKPORT", 8))
		return true;
	/* "STABLE-PATCH", "PATCH/FIXUP": PATCH joined to another word */
	for (k = 0; k + 5 <= n; k++)
		if ((k == 0 || tok[k - 1] == '-' || tok[k - 1] == '/') &&
		    !g_ascii_strncasecmp(tok + k, "patch", 5) &&
		    (k + 5 == n || tok[k + 5] == '-' || tok[k + 5] == '/') && (k || k + 5 < n))
			return true;
	if (n < 5 || g_ascii_strncasecmp(tok, "patch", 5))
		return false;
	if (n == 5)
		return true;
	return parse_revision(tok + 5, n - 5, rev);
}

/* The end of the run of bracketed groups starting at OPEN ('['): one
 * past the ']' that closes the last group ("[PATCH][for stable [4.14,
 * 5.10] 3/3]" is one run, brackets nest), or NULL when one is unclosed. */
static const char *bracket_run_end(const char *open)
{
	const char *p = open;

	while (*p == '[') {
		int depth = 0;
		for (; *p; p++) {
			depth += *p == '[';
			depth -= *p == ']';
			if (!depth)
				break;
		}
		if (!*p)
			return NULL;
		p++;
		while (*p == ' ' && p[1] == '[')
			p++;
	}
	return p;
}

static bool is_sep(char c)
{
	return c == ' ' || c == '\t' || c == ',' || c == '[' || c == ']';
}

/* Add the series named by TOK (N bytes) to V: "5.10", "5.10/5.15",
 * "6.18-6.1" (a range: *RANGE set), "5.10-stable".  False when TOK names
 * none. */
static bool add_versions(GPtrArray *v, const char *tok, size_t n, bool *range)
{
	const char *cut = NULL;
	char *one;
	size_t k;

	if (n > 7 && !g_ascii_strncasecmp(tok + n - 7, "-stable", 7))
		n -= 7;
	for (k = 0; k < n && !cut; k++)
		if (tok[k] == '/' || (tok[k] == '-' && k > 0 && g_ascii_isdigit(tok[k - 1])))
			cut = tok + k;
	if (cut) {
		char *a = parse_version(tok, cut - tok), *b = parse_version(cut + 1, n - (cut - tok) - 1);
		if (!a || !b) {
			g_free(a);
			g_free(b);
			return false;
		}
		*range |= *cut == '-';
		g_ptr_array_add(v, a);
		g_ptr_array_add(v, b);
		return true;
	}
	if (!(one = parse_version(tok, n)))
		return false;
	g_ptr_array_add(v, one);
	return true;
}

/* "stable", "-stable", "for-stable", "STABLE": a word that says stable. */
static bool names_stable(const char *tok, size_t n)
{
	size_t k;

	for (k = 0; k + 6 <= n; k++)
		if (!g_ascii_strncasecmp(tok + k, "stable", 6))
			return true;
	return false;
}

bool fs_series_parse(const char *subject, struct fs_series *out,
		     const char **title)
{
	struct fs_series s = { NULL, false, NULL, 0, -1, -1, NULL, false };
	const char *p, *open, *close, *tok;
	GString *prefix;
	GPtrArray *versions;
	bool patch = false, stable = false;

	if (!subject)
		return false;
	p = skip_reply_marks(subject);
	if (*p != '[')
		return false;
	open = p + 1;
	close = bracket_run_end(p);
	if (!close)
		return false;
	close--;

	prefix = g_string_new(NULL);
	versions = g_ptr_array_new_with_free_func(g_free);
	for (tok = open; tok < close;) {
		size_t n;
		int rev = 0;

		/* Words are separated by blanks; "[PATCH v2,4.4]" by commas;
		 * "[PATCH][for stable [4.14, 5.10] 3/3]" by brackets. */
		while (tok < close && is_sep(*tok))
			tok++;
		n = 0;
		while (tok + n < close && !is_sep(tok[n]))
			n++;
		if (!n)
			break;

		if (s.index < 0 && parse_numbering(tok, n, &s.index, &s.total)) {
			/* NN/MM */
		} else if (!s.revision && parse_revision(tok, n, &rev)) {
			s.revision = rev;
		} else if (add_versions(versions, tok, n, &s.version_range)) {
			/* a series, a pair or a range */
		} else if (n > 7 && !g_ascii_strncasecmp(tok, "stable-", 7) &&
			   add_versions(versions, tok + 7, n - 7, &s.version_range)) {
			stable = true;  /* "[stable-4.4 1/5]" */
		} else {
			if (is_patch_word(tok, n, &rev)) {
				patch = true;
				if (rev && !s.revision)
					s.revision = rev;
				/* "PATCHv2" is the word PATCH; BACKPORT stays */
				if (g_ascii_strncasecmp(tok, "patch", 5) == 0 &&
				    (n < 7 || tok[5] != '-'))
					n = 5;
			}
			if (n == 7 && !g_ascii_strncasecmp(tok, "autosel", 7))
				s.autosel = true;
			stable |= names_stable(tok, n);
			if (prefix->len)
				g_string_append_c(prefix, ' ');
			g_string_append_len(prefix, tok, n);
		}
		tok += n;
		/* a "PATCHv2" word: the revision part was already taken */
		while (tok < close && !is_sep(*tok))
			tok++;
	}

	/* "[-stable,6.1 03/17]": a stable backport without the word PATCH */
	if (!patch && !(stable && versions->len)) {
		g_string_free(prefix, TRUE);
		g_ptr_array_free(versions, TRUE);
		return false;
	}
	s.prefix = g_string_free(prefix, FALSE);
	if (s.index < 0)
		s.total = -1;
	if (versions->len) {
		if (!s.version_range)
			s.version = g_strdup(versions->pdata[0]);
		g_ptr_array_add(versions, NULL);
		s.versions = (char **)g_ptr_array_free(versions, FALSE);
	} else {
		g_ptr_array_free(versions, TRUE);
	}
	*out = s;
	if (title) {
		p = close + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		*title = p;
	}
	return true;
}

/* Whether TOK (N bytes) writes a stable branch as a branch: "5.4.y",
 * "linux-5.4.y", "5.4-stable" (a bare "5.4" could be anything).  Its
 * kernel series into *VERSION (new string) when VERSION is not NULL. */
static bool branch_word(const char *tok, size_t n, char **version)
{
	size_t pre = strlen(FS_VERSION_BRANCH_PREFIX);
	bool form = (n > 2 && tok[n - 2] == '.' && (tok[n - 1] == 'y' || tok[n - 1] == 'Y')) ||
		    (n > pre && !g_ascii_strncasecmp(tok, FS_VERSION_BRANCH_PREFIX, pre));
	char *v;

	if (n > 7 && !g_ascii_strncasecmp(tok + n - 7, "-stable", 7)) {
		n -= 7;
		form = true;
	}
	if (!form || !(v = parse_version(tok, n)))
		return false;
	if (version && !*version)
		*version = v;
	else
		g_free(v);
	return true;
}

bool fs_subject_names_stable(const char *subject, char **version)
{
	const char *p, *close, *tok;
	char *found = NULL;
	bool stable = false, patch = false;
	int rev = 0;

	if (version)
		*version = NULL;
	if (!subject)
		return false;
	p = skip_reply_marks(subject);
	if (*p != '[' || !(close = bracket_run_end(p)))
		return false;
	for (tok = p + 1; tok < close - 1;) {
		size_t n = 0;

		while (tok < close - 1 && (is_sep(*tok) || *tok == ':'))
			tok++;
		while (tok + n < close - 1 && !is_sep(tok[n]) && tok[n] != ':')
			n++;
		if (!n)
			break;
		patch |= is_patch_word(tok, n, &rev);
		stable |= branch_word(tok, n, &found);
		stable |= names_stable(tok, n);
		tok += n;
	}
	/* "[stable-rc] 5.12 arm64: ...": the series right after the prefix */
	if (stable && !patch && !found) {
		size_t n = 0;

		for (tok = close; *tok == ' ' || *tok == '\t'; tok++)
			;
		while (tok[n] && !is_sep(tok[n]) && tok[n] != ':')
			n++;
		if (n)
			found = parse_version(tok, n);
	}
	if (patch || !stable) {
		g_free(found);
		return false;
	}
	if (version)
		*version = found;
	else
		g_free(found);
	return true;
}

void fs_series_clear(struct fs_series *s)
{
	if (!s)
		return;
	g_free(s->prefix);
	g_free(s->version);
	g_strfreev(s->versions);
	s->prefix = NULL;
	s->version = NULL;
	s->versions = NULL;
	s->version_range = false;
	s->autosel = false;
	s->revision = 0;
	s->index = -1;
	s->total = -1;
}
