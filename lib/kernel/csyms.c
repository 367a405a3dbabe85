/* fixscan: the identifiers a patch's added lines use and declare (see
 * fixscan/csyms.h).
 *
 * Each hunk of a .c or .h file is read as the piece of the new file it
 * shows: its context and added lines in order, removed lines left out,
 * lexed and read together (a declaration may begin on a context line and
 * end on an added one), and only what the added lines hold is kept.  A
 * hunk whose text closes a comment it did not open begins inside one:
 * it is read again from inside that comment. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/csyms.h"
#include "csyms-lex.h"

static const char *const role_names[FS_CSYM_ROLE_COUNT] = {
	"call", "member", "type", "constant", "other",
};

const char *fs_csym_role_name(enum fs_csym_role role)
{
	return (unsigned)role < FS_CSYM_ROLE_COUNT ? role_names[role] : "?";
}

/* ---- growing arrays ------------------------------------------------------- */

static int grow(void **v, size_t *cap, size_t n, size_t elem)
{
	size_t c;
	void *nv;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 16;
	nv = realloc(*v, c * elem);
	if (!nv)
		return -1;
	*v = nv;
	*cap = c;
	return 0;
}

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *s, const char *p, size_t len)
{
	char *copy;

	if (grow((void **)&s->v, &s->cap, s->n, sizeof(*s->v)) < 0 || !(copy = strndup(p, len)))
		return -1;
	s->v[s->n++] = copy;
	return 0;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort S and drop repeats. */
static void names_unique(struct names *s)
{
	size_t i, k = 0;

	if (!s->n)
		return;
	qsort(s->v, s->n, sizeof(*s->v), str_cmp);
	for (i = 1; i < s->n; i++) {
		if (!strcmp(s->v[i], s->v[k]))
			free(s->v[i]);
		else
			s->v[++k] = s->v[i];
	}
	s->n = k + 1;
}

static bool sorted_has(char *const *v, size_t n, const char *name)
{
	return n && bsearch(&name, v, n, sizeof(*v), str_cmp) != NULL;
}

/* ---- the reading of one patch ---------------------------------------------- */

struct patch {
	struct names defined, tokens;
	struct fs_csym_use *uses;
	size_t nuses, capuses;
	struct fs_csym_file *files;
	size_t nfiles, capfiles;
	/* the hunk being read */
	const char *path;
	const uint8_t *added;   /* per line of the hunk's new side */
	size_t nlines;
	unsigned first_line;    /* the new file's line of the hunk's first */
	const struct cs_token *tokens_base;
	int failed;
};

static bool on_added(const struct patch *p, const struct cs_token *t)
{
	return t->line < p->nlines && p->added[t->line];
}

static void hunk_declared(void *ctx, const struct cs_token *t, enum cs_scope scope, bool macro)
{
	struct patch *p = ctx;

	(void)scope;
	(void)macro;
	if (!on_added(p, t))
		return;
	if (names_add(&p->defined, t->s, t->len) < 0 || names_add(&p->tokens, t->s, t->len) < 0)
		p->failed = 1;
}

static void hunk_used(void *ctx, const struct cs_token *t, enum fs_csym_role role)
{
	struct patch *p = ctx;
	struct fs_csym_use *u;
	const char *tag = NULL;

	if (!on_added(p, t))
		return;
	if (names_add(&p->tokens, t->s, t->len) < 0) {
		p->failed = 1;
		return;
	}
	if (role == FS_CSYM_OTHER || (t->len > 7 && !memcmp(t->s, "CONFIG_", 7)))
		return;
	if (role == FS_CSYM_TYPE && t > p->tokens_base && (t[-1].kw & CS_KW_TAG))
		tag = t[-1].s[0] == 's' ? "struct" : t[-1].s[0] == 'u' ? "union" : "enum";
	if (grow((void **)&p->uses, &p->capuses, p->nuses, sizeof(*p->uses)) < 0) {
		p->failed = 1;
		return;
	}
	u = &p->uses[p->nuses];
	memset(u, 0, sizeof(*u));
	u->role = role;
	u->line = p->first_line + t->line;
	u->name = strndup(t->s, t->len);
	u->tag = tag ? strdup(tag) : NULL;
	u->file = strdup(p->path);
	if (!u->name || (tag && !u->tag) || !u->file) {
		free(u->name);
		free(u->tag);
		free(u->file);
		p->failed = 1;
		return;
	}
	p->nuses++;
}

/* Whether the first line of TEXT that is not blank is a block comment's
 * middle line, " * words" or " *": a hunk that begins inside a comment
 * whose end it does not show either.  Code does not begin a line with a
 * lone '*' ("*p = x" has none after it). */
static bool comment_line(const char *text, size_t len)
{
	const char *p = text, *end = text + len;

	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p < end && *p == '*' &&
	       (p + 1 == end || p[1] == ' ' || p[1] == '\t' || p[1] == '\n' || p[1] == '\r');
}

/* Read the hunk whose new side is TEXT (LEN bytes), ADDED per line. */
static int read_hunk(struct patch *p, const char *text, size_t len)
{
	struct cs_tokens toks = { NULL, 0, 0 };
	struct cs_reader r = { hunk_declared, hunk_used, p, true };
	bool stray = false;
	int rc;

	rc = cs_lex(text, len, false, &toks, &stray);
	if (rc == 0 && (stray || comment_line(text, len)))
		rc = cs_lex(text, len, true, &toks, NULL);
	p->tokens_base = toks.v;
	if (rc == 0)
		rc = cs_read(toks.v, toks.n, &r);
	cs_tokens_free(&toks);
	return rc < 0 || p->failed ? -1 : 0;
}

/* ---- the diff's lines ------------------------------------------------------ */

struct line {
	const char *s;
	size_t len; /* without the newline */
};

static bool next_line(const char **at, const char *end, struct line *l)
{
	const char *p = *at, *nl;

	if (p >= end)
		return false;
	nl = memchr(p, '\n', (size_t)(end - p));
	l->s = p;
	l->len = (size_t)((nl ? nl : end) - p);
	if (l->len && p[l->len - 1] == '\r')
		l->len--;
	*at = nl ? nl + 1 : end;
	return true;
}

static bool line_starts(const struct line *l, const char *prefix)
{
	size_t n = strlen(prefix);

	return l->len >= n && !memcmp(l->s, prefix, n);
}

/* The path of a "--- a/x" or "+++ b/x" line (after its 4 characters):
 * the prefix a/ or b/ and a quoted name's quotes taken off, a tab and
 * what follows (a date) cut.  NULL for /dev/null. */
static char *header_path(const char *s, size_t len)
{
	const char *tab = memchr(s, '\t', len);

	if (tab)
		len = (size_t)(tab - s);
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"') {
		s++;
		len -= 2;
	}
	if (len == 9 && !memcmp(s, "/dev/null", 9))
		return NULL;
	if (len > 2 && (s[0] == 'a' || s[0] == 'b') && s[1] == '/') {
		s += 2;
		len -= 2;
	}
	return strndup(s, len);
}

static bool is_c(const char *path)
{
	size_t n = strlen(path);

	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

/* The file of "diff --git" line L, or of the "---" line L and the "+++"
 * line after it; a new entry.  0, or -1 out of memory. */
static int file_start(struct patch *p, char *path, bool created, bool deleted)
{
	struct fs_csym_file *f;

	if (!path)
		return 0;
	if (grow((void **)&p->files, &p->capfiles, p->nfiles, sizeof(*p->files)) < 0) {
		free(path);
		return -1;
	}
	f = &p->files[p->nfiles++];
	f->path = path;
	f->created = created;
	f->deleted = deleted;
	f->c_source = is_c(path);
	return 0;
}

/* The b/ path of a "diff --git a/X b/Y" line (Y), or NULL. */
static char *git_header_path(const struct line *l)
{
	const char *s = l->s + 11, *end = l->s + l->len, *b;

	/* the last " b/" (paths with spaces are rare, and quoted when odd) */
	for (b = end - 3; b > s; b--)
		if (!memcmp(b, " b/", 3) || !memcmp(b, " \"b/", 4))
			return header_path(b + 1, (size_t)(end - b - 1));
	return NULL;
}

static bool hunk_counts(const struct line *l, unsigned long *old, unsigned long *new,
			unsigned long *new_start)
{
	const char *s = l->s + 3, *end = l->s + l->len;
	char *e;

	if (s >= end || *s != '-')
		return false;
	strtoul(s + 1, &e, 10);
	*old = 1;
	if (*e == ',')
		*old = strtoul(e + 1, &e, 10);
	if (*e != ' ' || e[1] != '+')
		return false;
	*new_start = strtoul(e + 2, &e, 10);
	*new = 1;
	if (*e == ',')
		*new = strtoul(e + 1, &e, 10);
	return *e == ' ' && *old < (1ul << 24) && *new < (1ul << 24);
}

struct buf {
	char *s;
	size_t len, cap;
	uint8_t *added;
	size_t nlines, capl;
};

static int buf_line(struct buf *b, const char *s, size_t len, bool added)
{
	if (b->len + len + 1 > b->cap) {
		size_t cap = (b->len + len + 1) * 2;
		char *ns = realloc(b->s, cap);

		if (!ns)
			return -1;
		b->s = ns;
		b->cap = cap;
	}
	if (grow((void **)&b->added, &b->capl, b->nlines, 1) < 0)
		return -1;
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len++] = '\n';
	b->added[b->nlines++] = added;
	return 0;
}

/* The hunk after header line L at *AT: its lines consumed; its new side
 * read when the file is C. */
static int hunk(struct patch *p, const struct line *h, const char **at, const char *end,
		struct buf *b)
{
	unsigned long old, new, start;
	struct fs_csym_file *f = p->nfiles ? &p->files[p->nfiles - 1] : NULL;
	struct line l;
	const char *save;

	if (!hunk_counts(h, &old, &new, &start))
		return 0;
	b->len = b->nlines = 0;
	while ((old || new) && (save = *at, next_line(at, end, &l))) {
		char c = l.len ? l.s[0] : ' ';

		if (c == '\\')
			continue;
		if (c == '-' && old) {
			old--;
			continue;
		}
		if ((c == '+' && new) || ((c == ' ') && old && new)) {
			if (buf_line(b, l.s + (l.len ? 1 : 0), l.len ? l.len - 1 : 0, c == '+') < 0)
				return -1;
			new--;
			old -= c == ' ';
			continue;
		}
		*at = save; /* the hunk ended early */
		break;
	}
	if (!f || !f->c_source || f->deleted || !b->len)
		return 0;
	p->path = f->path;
	p->added = b->added;
	p->nlines = b->nlines;
	p->first_line = start ? (unsigned)start : 1;
	return read_hunk(p, b->s, b->len);
}

static int read_diff(struct patch *p, const char *text, size_t len)
{
	const char *at = text, *end = text + len, *save = NULL;
	struct buf b = { NULL, 0, 0, NULL, 0, 0 };
	struct line l, l2;
	bool git = false;
	int rc = 0;

	while (rc == 0 && next_line(&at, end, &l)) {
		if (line_starts(&l, "diff --git ")) {
			rc = file_start(p, git_header_path(&l), false, false);
			git = true;
		} else if (git && p->nfiles && line_starts(&l, "new file mode")) {
			p->files[p->nfiles - 1].created = true;
		} else if (git && p->nfiles && line_starts(&l, "deleted file mode")) {
			p->files[p->nfiles - 1].deleted = true;
		} else if (line_starts(&l, "--- ") && (save = at, next_line(&at, end, &l2)) &&
			   line_starts(&l2, "+++ ")) {
			char *from = header_path(l.s + 4, l.len - 4);
			char *to = header_path(l2.s + 4, l2.len - 4);

			if (git && p->nfiles) {
				struct fs_csym_file *f = &p->files[p->nfiles - 1];

				f->created |= !from;
				f->deleted |= !to;
				free(from);
				free(to);
			} else {
				rc = file_start(p, to ? to : from, !from, !to);
				free(to ? from : NULL);
			}
			git = false;
		} else if (line_starts(&l, "--- ")) {
			at = save;
		} else if (line_starts(&l, "@@ -")) {
			rc = hunk(p, &l, &at, end, &b);
		}
	}
	free(b.s);
	free(b.added);
	return rc;
}

/* ---- the result ------------------------------------------------------------ */

static void use_free(struct fs_csym_use *u)
{
	free(u->name);
	free(u->tag);
	free(u->file);
}

/* Keep the uses that the patch does not declare, each name once (its
 * first use; the role of its first use in a role). */
static void uses_final(struct patch *p)
{
	size_t i, j, k = 0;

	for (i = 0; i < p->nuses; i++) {
		struct fs_csym_use *u = &p->uses[i];
		bool dup = false;

		if (sorted_has(p->defined.v, p->defined.n, u->name)) {
			use_free(u);
			continue;
		}
		for (j = 0; j < k && !dup; j++)
			dup = !strcmp(p->uses[j].name, u->name);
		if (dup) {
			use_free(u);
			continue;
		}
		p->uses[k++] = *u;
	}
	p->nuses = k;
}

int fs_csyms_read_patch(struct fs_csyms *out, const char *text, size_t len,
			struct fs_error *err)
{
	struct patch p;
	int rc;

	memset(&p, 0, sizeof(p));
	rc = text ? read_diff(&p, text, len) : 0;
	names_unique(&p.defined);
	names_unique(&p.tokens);
	if (rc == 0)
		uses_final(&p);
	out->uses = p.uses;
	out->nuses = p.nuses;
	out->defined = p.defined.v;
	out->ndefined = p.defined.n;
	out->tokens = p.tokens.v;
	out->ntokens = p.tokens.n;
	out->files = p.files;
	out->nfiles = p.nfiles;
	if (rc < 0) {
		fs_csyms_clear(out);
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	}
	return 0;
}

void fs_csyms_clear(struct fs_csyms *s)
{
	size_t i;

	for (i = 0; i < s->nuses; i++)
		use_free(&s->uses[i]);
	free(s->uses);
	for (i = 0; i < s->ndefined; i++)
		free(s->defined[i]);
	free(s->defined);
	for (i = 0; i < s->ntokens; i++)
		free(s->tokens[i]);
	free(s->tokens);
	for (i = 0; i < s->nfiles; i++)
		free(s->files[i].path);
	free(s->files);
	memset(s, 0, sizeof(*s));
}

bool fs_csyms_defines(const struct fs_csyms *s, const char *name)
{
	return sorted_has(s->defined, s->ndefined, name);
}

bool fs_csyms_has_token(const struct fs_csyms *s, const char *name)
{
	return sorted_has(s->tokens, s->ntokens, name);
}
