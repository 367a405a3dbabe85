/* fixscan: changelog tags.
 *
 * The parser walks the changelog one line at a time.  A cheap prefilter
 * looks at the first non-blank characters of each line and only a line
 * that starts like one of the tag forms is handed to its PCRE2 pattern;
 * the kernel index calls this on every commit message of a kernel tree,
 * so a message without tags must cost little more than a scan for
 * newlines.  Subjects, versions and prerequisites are then cut out of the
 * matched line by hand, which is simpler than expressing the wrapping and
 * nested-quote rules as patterns.
 *
 * Thread safety: the compiled patterns and the match context are created
 * once under pthread_once and only read afterwards; every call has its own
 * match data.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "fixscan/trailers.h"

/* A commit id: 7..40 hex digits not followed by anything that would make
 * it part of a longer word (so 41 hex digits, or "deadbeef-ish", are not
 * ids). */
#define ID "([0-9a-f]{7,40})(?![0-9a-z_-])"

enum pat {
	PAT_COMMIT_UPSTREAM,
	PAT_BRACKET_UPSTREAM,
	PAT_PLAIN_UPSTREAM,
	PAT_CHERRY,
	PAT_FIXES,
	PAT_REVERT,
	PAT_STABLE_DEP,
	PAT_CC_STABLE,
	PAT_FROM_UPSTREAM,
	PAT_COUNT,
	PAT_NONE = PAT_COUNT,
};

/* Every pattern is compiled caseless and anchored at the first non-blank
 * character of a line.  Group 1 is always the id (or absent for Cc). */
static const char *const pattern_src[PAT_COUNT] = {
	/* "commit <id> upstream." */
	[PAT_COMMIT_UPSTREAM] = "commit(?:\\s|\\xc2\\xa0)+" ID "(?:\\s|\\xc2\\xa0)+upstream\\b",
	/* "[ Upstream commit <id> ]", "[ backport of <id> ]", "[ <40 hex> ]" */
	[PAT_BRACKET_UPSTREAM] = "\\[\\s*(?:upstream\\s+commit:?\\s+|backport\\s+of\\s+(?:commit\\s+)?"
				 "|(?=[0-9a-f]{40}\\s*\\]\\s*$))" ID,
	/* "Upstream commit <id>" on a line of its own (an optional
	 * parenthesised subject allowed), so that prose starting with
	 * "Upstream commit ..." is not taken. */
	[PAT_PLAIN_UPSTREAM] = "upstream\\s+commit:?\\s+" ID
			       "[\\s.]*(?:\\(.*\\)[\\s.]*)?$",
	/* "(cherry picked from commit <id>)" */
	[PAT_CHERRY] = "\\(\\s*cherry[\\s-]+picked\\s+from\\s+commit\\s+" ID,
	/* "Fixes: [commit] <id> ..."; the subject is cut out by hand. */
	[PAT_FIXES] = "fixes:\\s*(?:commit\\s+)?" ID,
	/* "This reverts commit X[.,] [which was commit Y upstream]"; the
	 * subject string given spans two lines, because git's own line is
	 * often wrapped before "commit Y upstream". */
	[PAT_REVERT] = "this\\s+reverts\\s+commit\\s+" ID
		       "(?:[\\s.,;]*which\\s+(?:was|is)\\s+"
		       "(?:commit\\s+" ID "\\s+upstream\\b"
		       "|upstream\\s+commit\\s+" ID "))?",
	/* "Stable-dep-of: <id> ("subject")" */
	[PAT_STABLE_DEP] = "stable-dep-of:\\s*(?:commit\\s+)?" ID,
	/* "Cc: stable@vger.kernel.org", "Cc: <stable@kernel.org>",
	 * "Cc: stable <stable@vger.kernel.org>"; what follows is looked at
	 * by hand. */
	[PAT_CC_STABLE] = "cc:\\s*(?:\"?stable\"?\\s*)?<?\\s*"
			  "stable@(?:vger\\.)?kernel\\.org(?![\\w.@-])\\s*>?",
	/* "From <40 hex> Mon Sep 17 00:00:00 2001": git's patch header,
	 * which "FAILED: patch ... failed to apply" notices give as the
	 * original commit in Linus's tree. */
	[PAT_FROM_UPSTREAM] = "from\\s+([0-9a-f]{40})\\s+mon\\s+sep\\s+17\\s+00:00:00\\s+2001\\s*$",
};

/* Generous for these simple anchored patterns; they only guard against
 * pathological input. */
#define MATCH_LIMIT 100000
#define DEPTH_LIMIT 1000
#define OVEC_PAIRS 8

static pthread_once_t patterns_once = PTHREAD_ONCE_INIT;
static pcre2_code *patterns[PAT_COUNT];
static pcre2_match_context *match_ctx;
static int patterns_status; /* 0, or FS_ENOMEM / FS_EPARSE */
static char patterns_error[256];

static void compile_patterns(void)
{
	int errcode;
	PCRE2_SIZE erroff;
	int i;

	match_ctx = pcre2_match_context_create(NULL);
	if (!match_ctx) {
		patterns_status = FS_ENOMEM;
		return;
	}
	pcre2_set_match_limit(match_ctx, MATCH_LIMIT);
	pcre2_set_depth_limit(match_ctx, DEPTH_LIMIT);

	for (i = 0; i < PAT_COUNT; i++) {
		patterns[i] = pcre2_compile((PCRE2_SPTR)pattern_src[i],
					    PCRE2_ZERO_TERMINATED,
					    PCRE2_CASELESS | PCRE2_ANCHORED,
					    &errcode, &erroff, NULL);
		if (!patterns[i]) {
			PCRE2_UCHAR msg[200];

			pcre2_get_error_message(errcode, msg, sizeof(msg));
			snprintf(patterns_error, sizeof(patterns_error),
				 "cannot compile tag pattern %d at offset %zu: %s",
				 i, (size_t)erroff, (const char *)msg);
			patterns_status = FS_EPARSE;
			return;
		}
		/* JIT is an optimisation only: without it (no JIT support
		 * on this platform, or no executable memory) the
		 * interpreter gives the same results. */
		(void)pcre2_jit_compile(patterns[i], PCRE2_JIT_COMPLETE);
	}
}

/* Growable arrays: N used, A allocated. */
struct fs_trailers {
	char **upstream;
	size_t n_upstream, a_upstream;
	struct fs_trailer_ref *fixes;
	size_t n_fixes, a_fixes;
	struct fs_trailer_revert *reverts;
	size_t n_reverts, a_reverts;
	struct fs_trailer_ref *deps;
	size_t n_deps, a_deps;
	struct fs_trailer_cc_stable *ccs;
	size_t n_ccs, a_ccs;
	bool has_diff;
};

/* State of one fs_trailers_parse() call. */
struct parser {
	struct fs_trailers *t;
	pcre2_match_data *md; /* created on the first candidate line */
	const char *end;      /* end of the changelog */
};

static int grow(void **arr, size_t *alloc, size_t n, size_t size)
{
	size_t na;
	void *p;

	if (n < *alloc)
		return 0;
	na = *alloc ? *alloc * 2 : 4;
	if (na > SIZE_MAX / size)
		return FS_ENOMEM;
	p = realloc(*arr, na * size);
	if (!p)
		return FS_ENOMEM;
	*arr = p;
	*alloc = na;
	return 0;
}

static char *dup_span(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

static char *dup_lower(const char *s, size_t n)
{
	char *p = dup_span(s, n);
	size_t i;

	if (p)
		for (i = 0; i < n; i++)
			p[i] = (char)tolower((unsigned char)p[i]);
	return p;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static void trim(const char **s, const char **e)
{
	while (*s < *e && is_blank(**s))
		(*s)++;
	while (*e > *s && is_blank((*e)[-1]))
		(*e)--;
}

static bool starts_ci(const char *s, const char *e, const char *word)
{
	size_t n = strlen(word);

	return (size_t)(e - s) >= n && strncasecmp(s, word, n) == 0;
}

static bool is_hex_span(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

/* Which pattern, if any, a line starting at S (first non-blank) may
 * match.  This is the hot path: one switch and at most two short
 * compares per line. */
static enum pat prefilter(const char *s, const char *e)
{
	if (e - s < 3)
		return PAT_NONE;
	switch (*s) {
	case 'c': case 'C':
		if (starts_ci(s, e, "commit"))
			return PAT_COMMIT_UPSTREAM;
		if (starts_ci(s, e, "cc:"))
			return PAT_CC_STABLE;
		return PAT_NONE;
	case '[':
		return PAT_BRACKET_UPSTREAM;
	case 'u': case 'U':
		return starts_ci(s, e, "upstream") ? PAT_PLAIN_UPSTREAM : PAT_NONE;
	case '(':
		return PAT_CHERRY;
	case 'f': case 'F':
		if (starts_ci(s, e, "from "))
			return PAT_FROM_UPSTREAM;
		return starts_ci(s, e, "fixes:") ? PAT_FIXES : PAT_NONE;
	case 't': case 'T':
		return starts_ci(s, e, "this") ? PAT_REVERT : PAT_NONE;
	case 's': case 'S':
		return starts_ci(s, e, "stable-dep-of:") ? PAT_STABLE_DEP : PAT_NONE;
	default:
		return PAT_NONE;
	}
}

/* 1 on a match, 0 on none, or a negative FS_E* code.  Hitting a match
 * limit counts as no match: such a line is not a tag, and one odd
 * message must not stop the indexing of a whole tree. */
static int run(struct parser *ps, enum pat p, const char *s, const char *e)
{
	int rc;

	if (!ps->md) {
		ps->md = pcre2_match_data_create(OVEC_PAIRS, NULL);
		if (!ps->md)
			return FS_ENOMEM;
	}
	rc = pcre2_match(patterns[p], (PCRE2_SPTR)s, (PCRE2_SIZE)(e - s), 0, 0,
			 ps->md, match_ctx);
	if (rc > 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH || rc == PCRE2_ERROR_MATCHLIMIT ||
	    rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT)
		return 0;
	return FS_EPARSE;
}

/* Group G of the last match as [*gs, *ge); false when unset. */
static bool group(struct parser *ps, const char *s, int g,
		  const char **gs, const char **ge)
{
	PCRE2_SIZE *ov = pcre2_get_ovector_pointer(ps->md);

	if (g >= (int)pcre2_get_ovector_count(ps->md) ||
	    ov[2 * g] == PCRE2_UNSET)
		return false;
	*gs = s + ov[2 * g];
	*ge = s + ov[2 * g + 1];
	return true;
}

/* The next line after the one ending at EOL (which points at its "\r\n",
 * "\n", or the end): its start in *LS and its end (before any "\r\n") in
 * *LE.  False at the end of the changelog. */
static bool next_line(const char *eol, const char *end,
		      const char **ls, const char **le)
{
	const char *p = eol, *nl;

	while (p < end && *p == '\r')
		p++;
	if (p >= end || *p != '\n')
		return false;
	*ls = p + 1;
	if (*ls >= end)
		return false;
	nl = memchr(*ls, '\n', (size_t)(end - *ls));
	*le = nl ? nl : end;
	while (*le > *ls && (*le)[-1] == '\r')
		(*le)--;
	return true;
}

/* Does the trimmed line look like another trailer ("Signed-off-by: ...")?
 * Used to stop a wrapped subject from swallowing the next tag. */
static bool looks_like_trailer(const char *s, const char *e)
{
	const char *p = s;

	if (p >= e || !isalpha((unsigned char)*p))
		return false;
	while (p < e && (isalnum((unsigned char)*p) || *p == '-'))
		p++;
	return p < e && *p == ':' && (p + 1 == e || is_blank(p[1]));
}

/* Find the last occurrence of CLOSE (1 or 2 chars) in [s, e). */
static const char *find_last(const char *s, const char *e, const char *close)
{
	size_t n = strlen(close), i;

	if ((size_t)(e - s) < n)
		return NULL;
	/* Counting down an index, not a pointer, so nothing points before S. */
	for (i = (size_t)(e - s) - n + 1; i-- > 0;)
		if (memcmp(s + i, close, n) == 0)
			return s + i;
	return NULL;
}

/* Cut the subject out of a Fixes:/Stable-dep-of: line.  REST..EOL is the
 * text after the id.  Forms: ("subject"), "subject", (subject), or the
 * bare rest of the line.  A quoted subject whose closing quote is on a
 * later line is joined with single spaces.  *SUBJECT is NULL when there
 * is none; *USED is set to the end of the last line consumed. */
static int tag_subject(struct parser *ps, const char *rest, const char *eol,
		       char **subject, const char **used)
{
	const char *s = rest, *e = eol, *close_at;
	const char *close;
	size_t open_len;
	GString *buf;
	const char *ls, *le, *cur_eol;
	int lines, rc;

	*subject = NULL;
	*used = eol;
	trim(&s, &e);
	if (s == e)
		return 0;

	if (*s == '(' && e - s >= 2 && s[1] == '"') {
		close = "\")";
		open_len = 2;
	} else if (*s == '"') {
		close = "\"";
		open_len = 1;
	} else if (*s == '(') {
		s++;
		if (e > s && e[-1] == ')')
			e--;
		trim(&s, &e);
		goto plain;
	} else {
		goto plain;
	}

	s += open_len;
	close_at = find_last(s, e, close);
	if (close_at) {
		e = close_at;
		trim(&s, &e);
		goto plain;
	}

	/* The closing quote may be on one of the next few lines. */
	buf = g_string_new_len(s, e - s);
	cur_eol = eol;
	for (lines = 0; lines < 3; lines++) {
		const char *ts, *te;

		if (!next_line(cur_eol, ps->end, &ls, &le))
			break;
		ts = ls;
		te = le;
		trim(&ts, &te);
		if (ts == te || *ts == '>')
			break;
		close_at = find_last(ts, te, close);
		if (!close_at && looks_like_trailer(ts, te))
			break;
		g_string_append_c(buf, ' ');
		if (close_at) {
			const char *ce = close_at;

			trim(&ts, &ce);
			g_string_append_len(buf, ts, ce - ts);
			*used = le;
			if (buf->len)
				*subject = dup_span(buf->str, buf->len);
			rc = buf->len && !*subject ? FS_ENOMEM : 0;
			g_string_free(buf, TRUE);
			return rc;
		}
		g_string_append_len(buf, ts, te - ts);
		cur_eol = le;
	}
	g_string_free(buf, TRUE);
	/* Never closed: keep what the tag's own line says. */
	trim(&s, &e);

plain:
	if (s == e)
		return 0;
	*subject = dup_span(s, (size_t)(e - s));
	return *subject ? 0 : FS_ENOMEM;
}

static int add_upstream(struct fs_trailers *t, const char *s, const char *e)
{
	size_t n = (size_t)(e - s), i;
	char *id;

	for (i = 0; i < t->n_upstream; i++)
		if (strlen(t->upstream[i]) == n &&
		    strncasecmp(t->upstream[i], s, n) == 0)
			return 0;
	if (grow((void **)&t->upstream, &t->a_upstream, t->n_upstream,
		 sizeof(*t->upstream)))
		return FS_ENOMEM;
	id = dup_lower(s, n);
	if (!id)
		return FS_ENOMEM;
	t->upstream[t->n_upstream++] = id;
	return 0;
}

/* Add a ref to ARR, taking ownership of SUBJECT (freed when the id is
 * already there, unless the first copy had no subject). */
static int add_ref(struct fs_trailer_ref **arr, size_t *n, size_t *a,
		   const char *s, const char *e, char *subject)
{
	size_t len = (size_t)(e - s), i;
	char *id;

	for (i = 0; i < *n; i++) {
		if (strlen((*arr)[i].id) == len &&
		    strncasecmp((*arr)[i].id, s, len) == 0) {
			if (!(*arr)[i].subject)
				(*arr)[i].subject = subject;
			else
				free(subject);
			return 0;
		}
	}
	if (grow((void **)arr, a, *n, sizeof(**arr)))
		goto oom;
	id = dup_lower(s, len);
	if (!id)
		goto oom;
	(*arr)[*n].id = id;
	(*arr)[*n].subject = subject;
	(*n)++;
	return 0;
oom:
	free(subject);
	return FS_ENOMEM;
}

static int add_revert(struct fs_trailers *t, const char *s, const char *e,
		      const char *us, const char *ue)
{
	size_t len = (size_t)(e - s), i;
	struct fs_trailer_revert *r;

	for (i = 0; i < t->n_reverts; i++) {
		r = &t->reverts[i];
		if (strlen(r->id) == len && strncasecmp(r->id, s, len) == 0) {
			if (!r->upstream && us) {
				r->upstream = dup_lower(us, (size_t)(ue - us));
				if (!r->upstream)
					return FS_ENOMEM;
			}
			return 0;
		}
	}
	if (grow((void **)&t->reverts, &t->a_reverts, t->n_reverts,
		 sizeof(*t->reverts)))
		return FS_ENOMEM;
	r = &t->reverts[t->n_reverts];
	r->id = dup_lower(s, len);
	r->upstream = us ? dup_lower(us, (size_t)(ue - us)) : NULL;
	if (!r->id || (us && !r->upstream)) {
		free(r->id);
		free(r->upstream);
		return FS_ENOMEM;
	}
	t->n_reverts++;
	return 0;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

/* REST..EOL follows the stable address.  "# <versions>[: <id>: ...]" */
static int add_cc(struct fs_trailers *t, const char *rest, const char *eol)
{
	const char *s = rest, *e = eol, *p, *tok_end;
	struct fs_trailer_cc_stable cc = { NULL, NULL, NULL };
	size_t i;

	trim(&s, &e);
	if (s < e && *s == '#') {
		s++;
		trim(&s, &e);
		if (s < e) {
			cc.comment = dup_span(s, (size_t)(e - s));
			if (!cc.comment)
				goto oom;
		}
	}
	if (cc.comment) {
		/* The first token: a version, or straight away an id. */
		p = s;
		while (p < e && !is_blank(*p) && *p != ':' && *p != ',' &&
		       *p != ';')
			p++;
		tok_end = p;
		if (tok_end - s >= 7 && tok_end - s <= 40 &&
		    is_hex_span(s, (size_t)(tok_end - s))) {
			/* "# 0123456789ab: subject": a prerequisite only */
			p = s;
		} else if (s < tok_end &&
			   (isdigit((unsigned char)*s) ||
			    ((*s == 'v' || *s == 'V') && tok_end - s > 1 &&
			     isdigit((unsigned char)s[1])))) {
			cc.versions = dup_span(s, (size_t)(tok_end - s));
			if (!cc.versions)
				goto oom;
			while (p < e && is_blank(*p))
				p++;
			if (p < e && *p == ':') {
				p++;
				while (p < e && is_blank(*p))
					p++;
			} else {
				p = NULL;
			}
		} else {
			p = NULL;
		}
		if (p) {
			const char *q = p;

			while (q < e && isxdigit((unsigned char)*q))
				q++;
			if (q - p >= 7 && q - p <= 40 &&
			    (q == e || is_blank(*q) || *q == ':' ||
			     *q == ',' || *q == ';')) {
				cc.prerequisite = dup_lower(p, (size_t)(q - p));
				if (!cc.prerequisite)
					goto oom;
			}
		}
	}

	for (i = 0; i < t->n_ccs; i++) {
		if (str_eq(t->ccs[i].comment, cc.comment)) {
			free(cc.comment);
			free(cc.versions);
			free(cc.prerequisite);
			return 0;
		}
	}
	if (grow((void **)&t->ccs, &t->a_ccs, t->n_ccs, sizeof(*t->ccs)))
		goto oom;
	t->ccs[t->n_ccs++] = cc;
	return 0;
oom:
	free(cc.comment);
	free(cc.versions);
	free(cc.prerequisite);
	return FS_ENOMEM;
}

/* Handle one candidate line S..EOL (S at its first non-blank character).
 * *SKIP is advanced past any following lines the tag consumed. */
static int handle_line(struct parser *ps, enum pat p, const char *s,
		       const char *eol, const char **skip)
{
	struct fs_trailers *t = ps->t;
	const char *gs = NULL, *ge = NULL, *us, *ue, *me = NULL, *ls, *le, *lim;
	char *subject;
	int rc;

	lim = eol;
	/* The revert sentence is often wrapped before "commit Y upstream":
	 * let its pattern see the next line too. */
	if (p == PAT_REVERT && next_line(eol, ps->end, &ls, &le))
		lim = le;
	rc = run(ps, p, s, lim);
	if (rc <= 0)
		return rc;
	group(ps, s, 0, &gs, &me);

	switch (p) {
	case PAT_COMMIT_UPSTREAM:
	case PAT_BRACKET_UPSTREAM:
	case PAT_PLAIN_UPSTREAM:
	case PAT_CHERRY:
	case PAT_FROM_UPSTREAM:
		group(ps, s, 1, &gs, &ge);
		return add_upstream(t, gs, ge);
	case PAT_FIXES:
	case PAT_STABLE_DEP:
		group(ps, s, 1, &gs, &ge);
		rc = tag_subject(ps, ge, eol, &subject, skip);
		if (rc)
			return rc;
		if (p == PAT_FIXES)
			return add_ref(&t->fixes, &t->n_fixes, &t->a_fixes,
				       gs, ge, subject);
		return add_ref(&t->deps, &t->n_deps, &t->a_deps, gs, ge,
			       subject);
	case PAT_REVERT:
		group(ps, s, 1, &gs, &ge);
		if (!group(ps, s, 2, &us, &ue) && !group(ps, s, 3, &us, &ue))
			us = ue = NULL;
		/* A "commit Y upstream" that belongs to the revert sentence
		 * is not this commit's own upstream line. */
		if (me > eol)
			*skip = lim;
		return add_revert(t, gs, ge, us, ue);
	case PAT_CC_STABLE:
		return add_cc(t, me, eol);
	default:
		return 0;
	}
}

int fs_trailers_parse(struct fs_trailers **out, const char *text, size_t len,
		  struct fs_error *err)
{
	struct parser ps = { 0 };
	const char *line, *eol, *s, *e, *skip;
	size_t cl_len;
	bool has_diff;
	int rc = 0;

	*out = NULL;
	pthread_once(&patterns_once, compile_patterns);
	if (patterns_status)
		return fs_error_set(err, patterns_status, "%s",
				    patterns_status == FS_ENOMEM ?
				    "out of memory" : patterns_error);

	ps.t = calloc(1, sizeof(*ps.t));
	if (!ps.t)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	if (!text)
		len = 0;
	cl_len = fs_trailers_changelog_len(text, len, &has_diff);
	ps.t->has_diff = has_diff;
	ps.end = text + cl_len;

	skip = text;
	for (line = text; line && line < ps.end; line = eol + 1) {
		enum pat p;

		eol = memchr(line, '\n', (size_t)(ps.end - line));
		if (!eol)
			eol = ps.end;
		if (line < skip)
			continue;
		s = line;
		e = eol;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		while (e > s && e[-1] == '\r')
			e--;
		p = prefilter(s, e);
		if (p == PAT_NONE)
			continue;
		rc = handle_line(&ps, p, s, e, &skip);
		if (rc)
			break;
	}

	if (ps.md)
		pcre2_match_data_free(ps.md);
	if (rc) {
		fs_trailers_free(ps.t);
		if (rc == FS_ENOMEM)
			return fs_error_set(err, rc, "out of memory");
		return fs_error_set(err, rc, "tag pattern matching failed");
	}
	*out = ps.t;
	return 0;
}

void fs_trailers_free(struct fs_trailers *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n_upstream; i++)
		free(t->upstream[i]);
	free(t->upstream);
	for (i = 0; i < t->n_fixes; i++) {
		free(t->fixes[i].id);
		free(t->fixes[i].subject);
	}
	free(t->fixes);
	for (i = 0; i < t->n_reverts; i++) {
		free(t->reverts[i].id);
		free(t->reverts[i].upstream);
	}
	free(t->reverts);
	for (i = 0; i < t->n_deps; i++) {
		free(t->deps[i].id);
		free(t->deps[i].subject);
	}
	free(t->deps);
	for (i = 0; i < t->n_ccs; i++) {
		free(t->ccs[i].versions);
		free(t->ccs[i].prerequisite);
		free(t->ccs[i].comment);
	}
	free(t->ccs);
	free(t);
}

const char *const *fs_trailers_upstream(const struct fs_trailers *t, size_t *n)
{
	*n = t->n_upstream;
	return (const char *const *)t->upstream;
}

const struct fs_trailer_ref *fs_trailers_fixes(const struct fs_trailers *t, size_t *n)
{
	*n = t->n_fixes;
	return t->fixes;
}

const struct fs_trailer_revert *fs_trailers_reverts(const struct fs_trailers *t, size_t *n)
{
	*n = t->n_reverts;
	return t->reverts;
}

const struct fs_trailer_ref *fs_trailers_stable_dep_of(const struct fs_trailers *t,
					       size_t *n)
{
	*n = t->n_deps;
	return t->deps;
}

const struct fs_trailer_cc_stable *fs_trailers_cc_stable(const struct fs_trailers *t,
						 size_t *n)
{
	*n = t->n_ccs;
	return t->ccs;
}

bool fs_trailers_has_diff(const struct fs_trailers *t)
{
	return t->has_diff;
}

/* A line of exactly "---", trailing blanks allowed. */
static bool is_separator(const char *s, const char *e)
{
	if (e - s < 3 || memcmp(s, "---", 3) != 0)
		return false;
	for (s += 3; s < e; s++)
		if (!is_blank(*s))
			return false;
	return true;
}

/* " path/to/file | 12 +-", " foo | Bin 0 -> 12 bytes",
 * " 3 files changed, 10 insertions(+)". */
static bool is_diffstat(const char *s, const char *e)
{
	const char *p, *bar;

	if (s >= e || *s != ' ')
		return false;
	p = s;
	while (p < e && *p == ' ')
		p++;
	if (p < e && isdigit((unsigned char)*p)) {
		const char *q = p;

		while (q < e && isdigit((unsigned char)*q))
			q++;
		if (starts_ci(q, e, " file changed") ||
		    starts_ci(q, e, " files changed"))
			return true;
	}
	bar = memchr(p, '|', (size_t)(e - p));
	if (!bar || bar == p)
		return false;
	p = bar + 1;
	while (p < e && *p == ' ')
		p++;
	if (starts_ci(p, e, "Bin"))
		return true;
	if (p >= e || !isdigit((unsigned char)*p))
		return false;
	while (p < e && isdigit((unsigned char)*p))
		p++;
	if (p < e && *p == ' ')
		p++;
	while (p < e && (*p == '+' || *p == '-'))
		p++;
	while (p < e && is_blank(*p))
		p++;
	return p == e;
}

size_t fs_trailers_changelog_len(const char *text, size_t len, bool *has_diff)
{
	const char *end = text + len, *line, *eol, *e;
	const char *sep = NULL; /* the last "---" line not yet ruled out */
	const char *ns, *ne;
	bool dummy;

	if (!has_diff)
		has_diff = &dummy;
	*has_diff = false;
	if (!text)
		return 0;

	/* One pass.  A "---" line becomes the candidate separator; it is
	 * confirmed by a diffstat or diff before the next "---" line, which
	 * otherwise takes its place, so a "---" used as a rule inside the
	 * changelog does not hide the tags below it. */
	for (line = text; line < end; line = eol + 1) {
		eol = memchr(line, '\n', (size_t)(end - line));
		if (!eol)
			eol = end;
		e = eol;
		while (e > line && e[-1] == '\r')
			e--;
		if (e - line < 3)
			continue;
		switch (*line) {
		case '-':
			if (is_separator(line, e)) {
				sep = line;
				continue;
			}
			/* "--- a/file" then "+++ b/file": a diff */
			if (line[1] == '-' && line[2] == '-' &&
			    e - line > 3 && line[3] == ' ' &&
			    next_line(eol, end, &ns, &ne) &&
			    ne - ns > 4 && memcmp(ns, "+++ ", 4) == 0)
				goto cut;
			continue;
		case 'd':
			if (e - line >= 10 && memcmp(line, "diff --git", 10) == 0 &&
			    (e - line == 10 || line[10] == ' '))
				goto cut;
			continue;
		case 'I':
			if (sep && e - line > 7 && memcmp(line, "Index: ", 7) == 0)
				goto cut;
			continue;
		case ' ':
			if (sep && is_diffstat(line, e))
				goto cut;
			continue;
		default:
			continue;
		}
	}
	return len;

cut:
	*has_diff = true;
	return (size_t)((sep ? sep : line) - text);
}

char *fs_trailers_revert_title(const char *subject)
{
	const char *s, *e, *q;

	if (!subject)
		return NULL;
	s = subject;
	e = s + strlen(s);
	trim(&s, &e);
	if (!starts_ci(s, e, "revert"))
		return NULL;
	s += 6;
	q = s;
	if (q < e && *q == ':')
		q++;
	while (q < e && is_blank(*q))
		q++;
	/* "Reverted ..." or 'Revert"X"' are not the form. */
	if (q == s)
		return NULL;
	s = q;
	if (e - s < 3 || *s != '"' || e[-1] != '"')
		return NULL;
	s++;
	e--;
	trim(&s, &e);
	if (s == e)
		return NULL;
	return g_strndup(s, (size_t)(e - s));
}

char *fs_trailers_normalize_subject(const char *subject)
{
	const char *s, *e;
	char *out, *o;
	size_t n, quotes, i;
	bool changed;

	if (!subject)
		subject = "";
	s = subject;
	e = s + strlen(s);
	trim(&s, &e);
	out = g_try_malloc((size_t)(e - s) + 1);
	if (!out)
		return NULL;
	o = out;
	for (; s < e; s++) {
		if (is_blank(*s) || *s == '\n') {
			if (o > out && o[-1] != ' ')
				*o++ = ' ';
			continue;
		}
		*o++ = (char)tolower((unsigned char)*s);
	}
	*o = '\0';
	n = (size_t)(o - out);

	/* Truncated subjects end in "..." and quoted ones cut short may keep
	 * a lone closing quote; either may hide the other. */
	do {
		changed = false;
		while (n && out[n - 1] == ' ')
			n--;
		if (n >= 3 && memcmp(out + n - 3, "...", 3) == 0) {
			n -= 3;
			changed = true;
			continue;
		}
		if (n && out[n - 1] == '"') {
			for (quotes = 0, i = 0; i < n; i++)
				quotes += out[i] == '"';
			if (quotes % 2) {
				n--;
				changed = true;
			}
		}
	} while (changed);
	out[n] = '\0';
	return out;
}
