/* fixscan: is a backport the change its upstream commit made?  The
 * comparison of two diffs, line by line, without line numbers, context or
 * white space (see diffcmp.h), and the reading of a changelog that says
 * why they differ. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "diffcmp-private.h"

/* ---- results ------------------------------------------------------------ */

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		g_free(v[i]);
	g_free(v);
}

void fs_diffcmp_result_clear(struct fs_diffcmp_result *res)
{
	free_strv(res->files_dropped, res->nfiles_dropped);
	free_strv(res->files_added, res->nfiles_added);
	free_strv(res->lines, res->nlines);
	memset(res, 0, sizeof(*res));
}

bool fs_diffcmp_differs(const struct fs_diffcmp_result *res)
{
	return res->nfiles_dropped || res->nfiles_added || res->lines_differ;
}

/* Append a copy of S to *V; false when out of memory. */
static bool push(char ***v, size_t *n, const char *s)
{
	char **g = g_try_renew(char *, *v, *n + 1);

	if (!g)
		return false;
	*v = g;
	if (!(g[*n] = g_strdup(s)))
		return false;
	(*n)++;
	return true;
}

void fsdc_dfile_free(gpointer p)
{
	struct dfile *f = p;

	g_free(f->path);
	g_free(f->renamed_from);
	g_ptr_array_free(f->keys, TRUE);
	g_ptr_array_free(f->raw, TRUE);
	g_free(f);
}

struct dfile *fsdc_dfile_new(GPtrArray *files)
{
	struct dfile *f = g_new0(struct dfile, 1);

	f->keys = g_ptr_array_new_with_free_func(g_free);
	f->raw = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(files, f);
	return f;
}

/* The path of a "--- a/x" or "+++ b/x" line's rest: one leading
 * component off, up to a tab; NULL for /dev/null. */
static char *header_path(const char *s, size_t n)
{
	const char *tab = memchr(s, '\t', n);
	const char *slash;

	if (tab)
		n = (size_t)(tab - s);
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	slash = memchr(s, '/', n);
	if (slash && slash + 1 < s + n)
		return g_strndup(slash + 1, n - (size_t)(slash + 1 - s));
	return g_strndup(s, n);
}

/* "diff --git a/x b/y": y (the last " b/"). */
static char *git_header_path(const char *s, size_t n)
{
	const char *p = NULL, *q;

	for (q = s; q + 3 <= s + n; q++)
		if (!memcmp(q, " b/", 3))
			p = q;
	if (!p)
		return g_strndup(s, n);
	return g_strndup(p + 3, n - (size_t)(p + 3 - s));
}

/* The line's text with every white space character taken out, after its
 * sign; NULL when nothing is left. */
char *fsdc_line_key(char sign, const char *s, size_t n)
{
	GString *k = g_string_sized_new(n + 1);
	size_t i;

	g_string_append_c(k, sign);
	for (i = 0; i < n; i++)
		if (!isspace((unsigned char)s[i]))
			g_string_append_c(k, s[i]);
	if (k->len == 1) {
		g_string_free(k, TRUE);
		return NULL;
	}
	return g_string_free(k, FALSE);
}

struct parse {
	GPtrArray *files;
	struct dfile *cur;
	char *minus;      /* the "--- " path of the file header being read */
	long old_left, new_left;
};

static void parse_hunk_header(struct parse *p, const char *s)
{
	long a = 0, b = 1, c = 0, d = 1;

	if (sscanf(s, "@@ -%ld,%ld +%ld,%ld", &a, &b, &c, &d) == 4 ||
	    (b = 1, sscanf(s, "@@ -%ld +%ld,%ld", &a, &c, &d) == 3) ||
	    (d = 1, sscanf(s, "@@ -%ld,%ld +%ld", &a, &b, &c) == 3) ||
	    (b = 1, d = 1, sscanf(s, "@@ -%ld +%ld", &a, &c) == 2)) {
		p->old_left = b;
		p->new_left = d;
		if (p->cur)
			p->cur->hunks = true;
	}
}

/* One line of a hunk; false when the hunk ended before it. */
static bool hunk_line(struct parse *p, const char *s, size_t n)
{
	char c = n ? s[0] : ' ';
	char *key;

	if (c == '\\')
		return true;
	if (c != ' ' && c != '-' && c != '+')
		return false;
	if (c != '+')
		p->old_left--;
	if (c != '-')
		p->new_left--;
	if (c == ' ' || !p->cur)
		return true;
	key = fsdc_line_key(c, s + 1, n - 1);
	if (key) {
		g_ptr_array_add(p->cur->keys, key);
		g_ptr_array_add(p->cur->raw, g_strndup(s, n));
	}
	return true;
}

static void header_line(struct parse *p, const char *s, size_t n)
{
	if (n > 11 && !memcmp(s, "diff --git ", 11)) {
		p->cur = fsdc_dfile_new(p->files);
		p->cur->git = true;
		p->cur->path = git_header_path(s + 11, n - 11);
		g_clear_pointer(&p->minus, g_free);
	} else if (n > 4 && !memcmp(s, "--- ", 4)) {
		g_free(p->minus);
		p->minus = header_path(s + 4, n - 4);
		if (!p->cur || p->cur->hunks)
			p->cur = fsdc_dfile_new(p->files);
	} else if (n > 4 && !memcmp(s, "+++ ", 4) && p->cur) {
		char *plus = header_path(s + 4, n - 4);

		if (plus || p->minus) {
			g_free(p->cur->path);
			p->cur->path = plus ? plus : g_strdup(p->minus);
		}
	} else if (n > 3 && !memcmp(s, "@@ ", 3) && p->cur) {
		parse_hunk_header(p, s);
	} else if (n > 12 && !memcmp(s, "rename from ", 12) && p->cur && p->cur->git) {
		g_free(p->cur->renamed_from);
		p->cur->renamed_from = g_strndup(s + 12, n - 12);
	}
}

/* The files of the unified diff in TEXT, in order. */
GPtrArray *fsdc_parse_diff(const char *text, size_t len)
{
	struct parse p = { g_ptr_array_new_with_free_func(fsdc_dfile_free), NULL, NULL, 0, 0 };
	const char *s = text, *end = text + len;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);

		if (n && s[n - 1] == '\r')
			n--;
		if ((p.old_left > 0 || p.new_left > 0) && hunk_line(&p, s, n)) {
			s = nl ? nl + 1 : end;
			continue;
		}
		p.old_left = p.new_left = 0;
		header_line(&p, s, n);
		s = nl ? nl + 1 : end;
	}
	g_free(p.minus);
	/* A "--- " line of prose is no file: a file without a "diff --git"
	 * line counts once it has a hunk. */
	for (guint i = p.files->len; i-- > 0;) {
		struct dfile *f = g_ptr_array_index(p.files, i);
		if (!f->git && !f->hunks)
			g_ptr_array_remove_index(p.files, i);
		else if (!f->path)
			f->path = g_strdup("?");
	}
	return p.files;
}

/* ---- comparing ---------------------------------------------------------- */

static struct dfile *find_file(GPtrArray *files, const char *path)
{
	for (guint i = 0; i < files->len; i++) {
		struct dfile *f = g_ptr_array_index(files, i);
		if (!strcmp(f->path, path))
			return f;
	}
	return NULL;
}

/* The text of raw line S for the reader: control characters but tabs replaced,
 * at most 160 characters. */
static char *shown(const char *side, const char *path, const char *s)
{
	char *valid = g_utf8_make_valid(s, -1), *p, *out;

	for (p = valid; *p; p++)
		if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
			*p = '?';
	if (g_utf8_strlen(valid, -1) > 160)
		*g_utf8_offset_to_pointer(valid, 160) = '\0';
	out = g_strdup_printf("%s only: %s: %s", side, path, valid);
	g_free(valid);
	return out;
}

/* How many times each line key of F (NULL: none) is there. */
static GHashTable *key_counts(const struct dfile *f)
{
	GHashTable *have = g_hash_table_new(g_str_hash, g_str_equal);
	guint i;

	for (i = 0; f && i < f->keys->len; i++) {
		gpointer k = g_ptr_array_index(f->keys, i);
		g_hash_table_insert(have, k,
				    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(have, k)) + 1));
	}
	return have;
}

/* The lines of A that B does not have, as a multiset, in A's order. */
static bool one_side(const struct dfile *a, const struct dfile *b, const char *side,
		     struct fs_diffcmp_result *out)
{
	GHashTable *have = key_counts(b);
	bool ok = true;
	guint i;

	for (i = 0; ok && i < a->keys->len; i++) {
		gpointer k = g_ptr_array_index(a->keys, i);
		guint left = GPOINTER_TO_UINT(g_hash_table_lookup(have, k));
		char *line;

		if (left) {
			g_hash_table_insert(have, k, GUINT_TO_POINTER(left - 1));
			continue;
		}
		out->lines_differ++;
		if (out->nlines >= FS_DIFFCMP_MAX_LINES)
			continue;
		line = shown(side, a->path, g_ptr_array_index(a->raw, i));
		ok = push(&out->lines, &out->nlines, line);
		g_free(line);
	}
	g_hash_table_destroy(have);
	return ok;
}

/* Upstream's FROM and TO (files of U) as the one file a rename makes:
 * the lines FROM loses and TO gains alike are the file moving, not a
 * change; what is left is in TO, and FROM is taken out of U.  (The
 * upstream diff is read without rename detection; the mail has it.) */
static void merge_rename(GPtrArray *u, const char *from, const char *to)
{
	struct dfile *fa = find_file(u, from), *fb = find_file(u, to);
	GHashTable *lost, *moved;
	guint i;

	if (!fa || !fb || fa == fb)
		return;
	lost = g_hash_table_new(g_str_hash, g_str_equal);
	moved = g_hash_table_new(g_str_hash, g_str_equal);
	for (i = 0; i < fa->keys->len; i++) {
		const char *k = g_ptr_array_index(fa->keys, i);
		if (k[0] == '-')
			g_hash_table_insert(lost, (gpointer)(k + 1), GUINT_TO_POINTER(
				GPOINTER_TO_UINT(g_hash_table_lookup(lost, k + 1)) + 1));
	}
	/* TO's "+" lines that FROM lost moved along: out of TO */
	for (i = 0; i < fb->keys->len;) {
		const char *k = g_ptr_array_index(fb->keys, i);
		gpointer orig = NULL, val = NULL;
		guint left = 0;

		/* ORIG: FROM's copy of the text, which outlives TO's line */
		if (k[0] == '+' && g_hash_table_lookup_extended(lost, k + 1, &orig, &val))
			left = GPOINTER_TO_UINT(val);
		if (!left) {
			i++;
			continue;
		}
		g_hash_table_insert(lost, orig, GUINT_TO_POINTER(left - 1));
		g_hash_table_insert(moved, orig, GUINT_TO_POINTER(
			GPOINTER_TO_UINT(g_hash_table_lookup(moved, orig)) + 1));
		g_ptr_array_remove_index(fb->raw, i);
		g_ptr_array_remove_index(fb->keys, i);
	}
	/* FROM's lines that did not move: into TO */
	for (i = 0; i < fa->keys->len; i++) {
		const char *k = g_ptr_array_index(fa->keys, i);
		guint n = k[0] == '-' ? GPOINTER_TO_UINT(g_hash_table_lookup(moved, k + 1)) : 0;

		if (n) {
			g_hash_table_insert(moved, (gpointer)(k + 1), GUINT_TO_POINTER(n - 1));
			continue;
		}
		g_ptr_array_add(fb->keys, g_strdup(k));
		g_ptr_array_add(fb->raw, g_strdup(g_ptr_array_index(fa->raw, i)));
	}
	g_hash_table_destroy(moved);
	g_hash_table_destroy(lost);
	g_ptr_array_remove(u, fa);
}

/* Whether A and B have the same lines, as multisets, and some. */
static bool same_lines(const struct dfile *a, const struct dfile *b)
{
	GHashTable *have;
	bool same = a->keys->len > 0 && a->keys->len == b->keys->len;
	guint i;

	if (!same)
		return false;
	have = key_counts(b);
	for (i = 0; same && i < a->keys->len; i++) {
		gpointer k = g_ptr_array_index(a->keys, i);
		guint left = GPOINTER_TO_UINT(g_hash_table_lookup(have, k));

		same = left > 0;
		if (same)
			g_hash_table_insert(have, k, GUINT_TO_POINTER(left - 1));
	}
	g_hash_table_destroy(have);
	return same;
}

/* Whether paths A and B end in the same file name. */
static bool same_base_name(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');

	return !strcmp(sa ? sa + 1 : a, sb ? sb + 1 : b);
}

/* A file of upstream that the backport does not name and a file of the
 * backport that upstream does not name, of the same file name in another
 * directory, with the same lines, and whose path upstream's tree no
 * longer has (HAS; NULL: nothing is paired): one file under the path it
 * has in each branch (moved in mainline since), no difference.  The same
 * lines in a file of another name, or in one that mainline still has
 * (arch/x86/kernel/process.c for arch/powerpc/kernel/process.c), may be
 * the fix put in the wrong copy of the code: that stays a difference.
 * Twinned in pairs, first come first served. */
static void pair_renamed(GPtrArray *u, GPtrArray *b, upstream_has_fn has, void *ctx)
{
	guint i, j;

	for (i = 0; has && i < u->len; i++) {
		struct dfile *f = g_ptr_array_index(u, i);

		if (find_file(b, f->path))
			continue;
		for (j = 0; j < b->len && !f->twin; j++) {
			struct dfile *g = g_ptr_array_index(b, j);

			if (!g->twin && !find_file(u, g->path) && same_base_name(f->path, g->path) &&
			    same_lines(f, g) && !has(ctx, g->path)) {
				f->twin = g;
				g->twin = f;
			}
		}
	}
}

/* Compare the files U (upstream) and B (backport) into *OUT; false when
 * out of memory. */
static bool compare_files(GPtrArray *u, GPtrArray *b, struct fs_diffcmp_result *out,
			  upstream_has_fn has, void *ctx)
{
	bool ok = true;
	guint i;

	for (i = 0; i < b->len; i++) {
		struct dfile *g = g_ptr_array_index(b, i);
		if (g->renamed_from)
			merge_rename(u, g->renamed_from, g->path);
	}
	pair_renamed(u, b, has, ctx);

	for (i = 0; ok && i < u->len; i++) {
		struct dfile *f = g_ptr_array_index(u, i), *g = find_file(b, f->path);
		if (!g && f->twin)
			continue;
		if (!g)
			ok = push(&out->files_dropped, &out->nfiles_dropped, f->path);
		else
			ok = one_side(f, g, "upstream", out);
	}
	for (i = 0; ok && i < b->len; i++) {
		struct dfile *f = g_ptr_array_index(b, i), *g = find_file(u, f->path);
		if (!g && f->twin)
			continue;
		if (!g)
			ok = push(&out->files_added, &out->nfiles_added, f->path);
		else
			ok = one_side(f, g, "backport", out);
	}
	return ok;
}

/* Compare upstream's files U with the backport's B; takes both. */
int fsdc_compare_with(GPtrArray *u, GPtrArray *b, struct fs_diffcmp_result *out,
			upstream_has_fn has, void *ctx, struct fs_error *err)
{
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (b->len == 0 && u->len > 0) {
		/* a diffstat alone, or a diff this reader cannot tell apart */
		rc = fs_error_set(err, FS_EPARSE, "the backport has no diff to compare");
	} else if (!compare_files(u, b, out, has, ctx)) {
		fs_diffcmp_result_clear(out);
		rc = fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	g_ptr_array_free(u, TRUE);
	g_ptr_array_free(b, TRUE);
	return rc;
}

int fs_diffcmp_texts(const char *upstream, size_t ulen, const char *backport, size_t blen,
		     struct fs_diffcmp_result *out, struct fs_error *err)
{
	/* no tree to look a moved file up in */
	return fsdc_compare_with(fsdc_parse_diff(upstream, ulen), fsdc_parse_diff(backport, blen), out, NULL,
			    NULL, err);
}

/* ---- the changelog ------------------------------------------------------ */

/* Lowercase, white space runs made one space, trimmed. */
static char *norm_line(const char *s, size_t n)
{
	GString *g = g_string_sized_new(n);
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (isspace(c)) {
			if (g->len && g->str[g->len - 1] != ' ')
				g_string_append_c(g, ' ');
		} else {
			g_string_append_c(g, (char)tolower(c));
		}
	}
	if (g->len && g->str[g->len - 1] == ' ')
		g_string_truncate(g, g->len - 1);
	return g_string_free(g, FALSE);
}

/* Whether normalized line L is a trailer that names or links something
 * ("Fixes: <id> (\"<subject>\")", "Link: <url>", "Stable-dep-of: ...",
 * "Reviewed-by: ..."): the words of a subject or an address it quotes are
 * no note on this backport. */
static bool names_something(const char *l)
{
	static const char *const tokens[] = {
		"fixes", "link", "closes", "cc", "stable-dep-of", "message-id", "buglink",
		"references",
	};
	const char *colon = strchr(l, ':');
	size_t i, n;

	if (!colon || colon == l || colon[1] != ' ')
		return false;
	n = (size_t)(colon - l);
	if (memchr(l, ' ', n))
		return false;
	if (n > 3 && !memcmp(colon - 3, "-by", 3))
		return true;
	for (i = 0; i < G_N_ELEMENTS(tokens); i++)
		if (strlen(tokens[i]) == n && !memcmp(l, tokens[i], n))
			return true;
	return false;
}

/* Whether normalized line L is a backporter's word on the change. */
static bool says_differs(const char *l)
{
	static const char *const words[] = {
		"adjust", "context", "backport", "conflict", "rebase", "differ",
	};
	size_t i;

	if (names_something(l))
		return false;

	if (l[0] == '[') {
		const char *t = l + 1;
		while (*t == ' ')
			t++;
		/* "[ Upstream commit X ]" only names the commit */
		if (strncmp(t, "upstream commit", 15) != 0)
			return true;
	}
	for (i = 0; i < G_N_ELEMENTS(words); i++)
		if (strstr(l, words[i]))
			return true;
	return false;
}

bool fs_diffcmp_documented(const char *body, size_t len, const char *upstream_msg)
{
	GHashTable *theirs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	const char *s = upstream_msg, *end;
	bool found = false;

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);
		g_hash_table_add(theirs, norm_line(s, n));
		s = nl ? nl + 1 : s + n;
	}
	for (s = body, end = body + len; !found && s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		char *l = norm_line(s, n);

		if (!strcmp(l, "---") || !strncmp(l, "diff --git ", 11)) {
			g_free(l);
			break;
		}
		found = *l && !g_hash_table_contains(theirs, l) && says_differs(l);
		g_free(l);
		s = nl ? nl + 1 : end;
	}
	g_hash_table_destroy(theirs);
	return found;
}
