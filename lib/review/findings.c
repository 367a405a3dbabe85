/* fixscan: judging one stable patch against the fixes index. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/findings.h"
#include "fixscan/posting.h"

static const char *const cause_names[FS_CAUSE_COUNT] = {
	[FS_CAUSE_NONE] = "none",
	[FS_CAUSE_FIX] = "fix",
	[FS_CAUSE_REVERT] = "revert",
	[FS_CAUSE_REVERT_OF_REVERT] = "revert-of-revert",
	[FS_CAUSE_STABLE_FIX] = "stable-only-fix",
	[FS_CAUSE_STABLE_REVERT] = "stable-only-revert",
	[FS_CAUSE_PREREQUISITE] = "prerequisite",
	[FS_CAUSE_STABLE_DEP_OF] = "stable-dep-of",
	[FS_CAUSE_DUPLICATE] = "duplicate",
	[FS_CAUSE_AMBIGUOUS] = "ambiguous",
	[FS_CAUSE_NOT_FOUND] = "not-found",
	[FS_CAUSE_NOT_IN_CLONE] = "not-in-clone",
	[FS_CAUSE_TARGET] = "target",
	[FS_CAUSE_REVERT_TARGET] = "revert-target",
	[FS_CAUSE_SUBJECT_MISMATCH] = "subject-mismatch",
	[FS_CAUSE_STABLE_ID] = "stable-id",
	[FS_CAUSE_FIX_REVERTED] = "fix-reverted",
	[FS_CAUSE_SUBJECT_AUTHOR] = "subject-author",
};

static const char *const evidence_names[FS_FEV_COUNT] = {
	[FS_FEV_EXACT] = "exact",
	[FS_FEV_PREFIX] = "prefix",
	[FS_FEV_SUBJECT] = "subject",
	[FS_FEV_STABLE] = "stable",
	[FS_FEV_REVERT] = "revert",
	[FS_FEV_MAIL] = "mail",
	[FS_FEV_CVE] = "cve",
};

const char *fs_finding_cause_name(enum fs_finding_cause cause)
{
	return (unsigned)cause < FS_CAUSE_COUNT ? cause_names[cause] : "unknown";
}

const char *fs_finding_evidence_name(enum fs_finding_evidence ev)
{
	return (unsigned)ev < FS_FEV_COUNT ? evidence_names[ev] : "unknown";
}

/* The finding evidence of an index match. */
static enum fs_finding_evidence fev(enum fs_evidence ev)
{
	switch (ev) {
	case FS_EVIDENCE_PREFIX: return FS_FEV_PREFIX;
	case FS_EVIDENCE_SUBJECT: return FS_FEV_SUBJECT;
	case FS_EVIDENCE_STABLE: return FS_FEV_STABLE;
	default: return FS_FEV_EXACT;
	}
}

/* Exact or prefix, by how much of the id is written. */
static enum fs_finding_evidence fev_len(const char *hex)
{
	return strlen(hex) == 40 ? FS_FEV_EXACT : FS_FEV_PREFIX;
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

static void finding_clear(struct fs_finding *f)
{
	free_strv(f->cves, f->ncves);
	free(f->subject);
	free(f->release);
	free(f->branch);
	free(f->reapplied_commit);
	free(f->reapplied_release);
	free(f->reverted_commit);
	free(f->reverted_release);
	free(f->written);
	free(f->reason);
	free(f->stable_commit);
	free(f->stable_release);
	free(f->chain);
	free(f->message_id);
	free(f->ref);
	free(f->from);
	free(f->date);
	free(f->note);
	free(f->ignored);
	free(f->newer_branch);
	free(f->newer_release);
	free(f->newer_last_release);
	for (size_t i = 0; i < f->nqueued_elsewhere; i++) {
		free(f->queued_elsewhere[i].branch);
		free(f->queued_elsewhere[i].release);
		free(f->queued_elsewhere[i].message_id);
	}
	free(f->queued_elsewhere);
	free(f->failed_message_id);
	free(f->failed_date);
	free_strv(f->files_dropped, f->nfiles_dropped);
	free_strv(f->files_added, f->nfiles_added);
	free_strv(f->diff_lines, f->ndiff_lines);
	for (size_t i = 0; i < f->nparts; i++) {
		free(f->parts[i].subject);
		free(f->parts[i].release);
	}
	free(f->parts);
}

void fs_findings_clear(struct fs_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		finding_clear(&f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = 0;
	free_strv(f->upstream_cves, f->nupstream_cves);
	f->upstream_cves = NULL;
	f->nupstream_cves = 0;
	f->upstream[0] = '\0';
	f->upstream_subject[0] = '\0';
}

size_t fs_findings_count(const struct fs_findings *f, enum fs_finding_kind kind)
{
	size_t i, n = 0;

	for (i = 0; i < f->n; i++)
		if (f->v[i].kind == kind && !f->v[i].ignored)
			n++;
	return n;
}

/* ---- building findings -------------------------------------------------- */

struct judge {
	const struct fs_findings_ctx *ctx;
	const struct fs_index *idx;
	struct fs_findings *out;
	size_t cap;
	int oom;
	int self_index;
	const fs_cid *own;  /* the patch's own upstream commits */
	size_t nown;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Append the CVE ids whose fix is HEX to *V (*N of them), each once.
 * Returns 0 or -1 when out of memory. */
static int add_cves(char ***v, size_t *n, const struct fs_vulns *vulns, const char *hex)
{
	const char *ids[32];
	size_t k, i, m = fs_vulns_cves(vulns, hex, ids, 32);
	char **g;

	for (k = 0; k < m && k < 32; k++) {
		for (i = 0; i < *n && strcmp((*v)[i], ids[k]); i++)
			;
		if (i < *n)
			continue;
		g = realloc(*v, (*n + 1) * sizeof(*g));
		if (!g)
			return -1;
		*v = g;
		if (!(g[*n] = strdup(ids[k])))
			return -1;
		(*n)++;
	}
	return 0;
}

/* Add a finding about commit C (or, when C is FS_CID_NONE, about the id
 * HEX as written).  Returns it, or NULL when out of memory or when the
 * same kind already names the same commit. */
static struct fs_finding *add(struct judge *j, enum fs_finding_kind kind,
			      enum fs_finding_cause cause, fs_cid c, const char *hex,
			      enum fs_finding_evidence evidence)
{
	struct fs_finding *f;
	char full[41] = "";
	size_t i;

	if (c != FS_CID_NONE)
		fs_index_commit_hex(j->idx, c, full);
	else if (hex)
		snprintf(full, sizeof(full), "%s", hex);
	for (i = 0; i < j->out->n; i++)
		if (j->out->v[i].kind == kind && !strcmp(j->out->v[i].commit, full) &&
		    kind != FS_FIND_REGRESSION_REPORT && kind != FS_FIND_OBJECTION &&
		    kind != FS_FIND_FIX_PENDING && kind != FS_FIND_REPLY &&
		    kind != FS_FIND_REPLACEMENT_POSTED && kind != FS_FIND_NEEDS_ALSO)
			return NULL;
	if (j->out->n == j->cap) {
		size_t nc = j->cap ? j->cap * 2 : 8;
		struct fs_finding *g = realloc(j->out->v, nc * sizeof(*g));
		if (!g) {
			j->oom = 1;
			return NULL;
		}
		j->out->v = g;
		j->cap = nc;
	}
	f = &j->out->v[j->out->n++];
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->cause = cause;
	memcpy(f->commit, full, sizeof(full));
	f->series_index = -1;
	f->evidence = evidence;
	if (c != FS_CID_NONE) {
		f->subject = dup_or_null(fs_index_commit_subject(j->idx, c));
		f->release = dup_or_null(fs_index_commit_release(j->idx, c));
		f->branch = dup_or_null(fs_index_commit_branch(j->idx, c));
		if (!f->subject || !f->branch)
			j->oom = 1;
		if (j->ctx->vulns && add_cves(&f->cves, &f->ncves, j->ctx->vulns, full) < 0)
			j->oom = 1;
	}
	return f;
}

static void set_stable(struct judge *j, struct fs_finding *f, fs_cid s)
{
	char hex[41];

	if (!f)
		return;
	fs_index_commit_hex(j->idx, s, hex);
	f->stable_commit = strdup(hex);
	f->stable_release = dup_or_null(fs_index_commit_release(j->idx, s));
	if (!f->stable_commit)
		j->oom = 1;
}

static void set_note(struct judge *j, struct fs_finding *f, char *note)
{
	if (!f) {
		free(note);
		return;
	}
	free(f->note);
	f->note = note;
	if (!note)
		j->oom = 1;
}

/* ---- questions about the branch and the series --------------------------- */

/* Is C in the branch as of the base, net of the branch's reverts?  The
 * one question fs_index_present() answers for every caller; *P says what
 * brought C and what undid it. */
static bool in_branch(struct judge *j, fs_cid c, struct fs_index_presence *p)
{
	return fs_index_present(j->idx, c, j->ctx->branch, j->ctx->base, p);
}

/* "was in v4.4.5 as <id>, reverted in v4.4.8 by <id>": where C was and
 * what undid it, for a note; into F's fields too. */
static char *was_reverted(struct judge *j, struct fs_finding *f,
			  const struct fs_index_presence *p)
{
	const char *rel = fs_index_commit_release(j->idx, p->brought);
	const char *rrel = fs_index_commit_release(j->idx, p->reverted_by);
	char hex[41], rhex[41];

	fs_index_commit_hex(j->idx, p->brought, hex);
	fs_index_commit_hex(j->idx, p->reverted_by, rhex);
	if (f) {
		f->reverted_commit = strdup(rhex);
		f->reverted_release = dup_or_null(rrel);
		if (!f->reverted_commit)
			j->oom = 1;
	}
	return fmt("was in %s as %.12s, reverted%s%s by %.12s", rel ? rel : j->ctx->branch, hex,
		   rrel ? " in " : "", rrel ? rrel : "", rhex);
}

/* The NN of another patch of the series that carries C, or -1. */
static int in_series(struct judge *j, fs_cid c)
{
	size_t i, k;

	for (i = 0; i < j->ctx->nseries; i++) {
		const struct fs_series_entry *e = &j->ctx->series[i];
		if (e->index == j->self_index)
			continue;
		for (k = 0; k < e->nupstream; k++)
			if (e->upstream[k] == c)
				return e->index;
	}
	return -1;
}

/* Whether the patch itself carries C: a squashed backport names every
 * upstream commit it brings, and its own fixes need no other patch. */
static bool is_own(struct judge *j, fs_cid c)
{
	size_t i;

	for (i = 0; i < j->nown; i++)
		if (j->own[i] == c)
			return true;
	return false;
}

static fs_cid mainline_of(const struct fs_index *idx, fs_cid c)
{
	fs_cid u;

	if (c == FS_CID_NONE || fs_index_commit_is_mainline(idx, c))
		return c;
	u = fs_index_upstream_of(idx, c);
	return u != FS_CID_NONE ? u : c;
}

/* ---- upstream resolution ------------------------------------------------- */

static fs_cid resolve_id(const struct fs_index *idx, const char *hex, const char *title,
			 size_t *nmatch)
{
	fs_cid cand[16], bys[16];
	size_t n, ns, i, k;

	n = fs_index_resolve_all(idx, hex, cand, 16);
	*nmatch = n;
	if (n == 1)
		return cand[0];
	if (n == 0 || !title)
		return FS_CID_NONE;
	/* Ambiguous: the patch title picks among the candidates. */
	ns = fs_index_find_subject(idx, title, bys, 16);
	for (i = 0; i < ns && i < 16; i++)
		for (k = 0; k < n && k < 16; k++)
			if (bys[i] == cand[k])
				return cand[k];
	return FS_CID_NONE;
}

/* The one mainline commit whose subject is TITLE and whose author is
 * AUTHOR, or FS_CID_NONE when none or several. */
static fs_cid by_subject_author(const struct fs_index *idx, const char *title,
				const char *author)
{
	fs_cid c[2];

	if (!title || !author)
		return FS_CID_NONE;
	return fs_index_find_subject_author(idx, title, author, c, 2) == 1 ? c[0] : FS_CID_NONE;
}

size_t fs_findings_resolve_upstream(const struct fs_index *idx,
				    const struct fs_trailers *tags, const char *title,
				    fs_cid *out, size_t max, char unknown[41])
{
	return fs_findings_resolve_patch(idx, tags, title, NULL, NULL, 0, out, max, unknown);
}

size_t fs_findings_resolve_patch(const struct fs_index *idx, const struct fs_trailers *tags,
				 const char *title, const char *author, const char *body,
				 size_t body_len, fs_cid *out, size_t max, char unknown[41])
{
	const char *const *ups;
	size_t nups, i, k, n = 0, nmatch, nrv;
	fs_cid c;

	if (unknown)
		unknown[0] = '\0';
	ups = fs_trailers_upstream(tags, &nups);
	for (i = 0; i < nups; i++) {
		c = mainline_of(idx, resolve_id(idx, ups[i], title, &nmatch));
		/* An id that names nothing: the rest of the evidence. */
		if (c == FS_CID_NONE && nmatch == 0)
			c = by_subject_author(idx, title, author);
		if (c == FS_CID_NONE) {
			if (unknown && !unknown[0])
				snprintf(unknown, 41, "%s", ups[i]);
			continue;
		}
		for (k = 0; k < n && k < max; k++)
			if (out[k] == c)
				break;
		if (k < n && k < max)
			continue;
		if (n < max)
			out[n] = c;
		n++;
	}
	/* No upstream id at all: the subject, the author and the diff. */
	fs_trailers_reverts(tags, &nrv);
	if (nups == 0 && nrv == 0 && max > 0 && body &&
	    (c = by_subject_author(idx, title, author)) != FS_CID_NONE &&
	    fs_index_diff_matches(idx, c, body, body_len) == 1)
		out[n++] = c;
	return n;
}

/* ---- the checks ----------------------------------------------------------- */

static char *stated_reason(const char *msg);

/* The branch had U and reverted it: the patch applies it again.  Not a
 * duplicate; a warning sign, with the revert's reason. */
static void reapplies(struct judge *j, const struct fs_index_presence *p)
{
	struct fs_finding *f = add(j, FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_STABLE_REVERT,
				   p->reverted_by, NULL, FS_FEV_REVERT);
	char hex[41], *msg = NULL, *was;

	if (!f)
		return;
	set_stable(j, f, p->reverted_by);
	was = was_reverted(j, f, p);
	set_note(j, f, was ? fmt("%s: this patch applies it again", was) : NULL);
	free(was);
	if (!j->ctx->message)
		return;
	fs_index_commit_hex(j->idx, p->reverted_by, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) == 0 && msg)
		f->reason = stated_reason(msg);
	free(msg);
}

static void check_applied(struct judge *j, fs_cid u)
{
	struct fs_index_presence p;
	const char *rel;
	char hex[41];
	struct fs_finding *f;

	if (!in_branch(j, u, &p)) {
		if (p.reverted_by != FS_CID_NONE)
			reapplies(j, &p);
		return;
	}
	rel = fs_index_commit_release(j->idx, p.brought);
	fs_index_commit_hex(j->idx, p.brought, hex);
	if (p.brought == u) {
		f = add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, u, NULL, FS_FEV_EXACT);
		set_note(j, f, fmt("already in %s by ancestry: %s released it before %s forked",
				   j->ctx->branch, rel, j->ctx->branch));
	} else if (fs_index_commit_is_mainline(j->idx, p.brought)) {
		f = add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, p.brought, NULL, FS_FEV_EXACT);
		set_note(j, f, fmt("already in %s by ancestry as %.12s, the same change: %s released it before %s forked",
				   j->ctx->branch, hex, rel, j->ctx->branch));
	} else {
		/* The duplicate is what the reviewer looks up: name the
		 * branch's commit, and its upstream in the note. */
		f = add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, p.brought, NULL, FS_FEV_EXACT);
		set_stable(j, f, p.brought);
		set_note(j, f, fmt("already backported to %s as %.12s%s%s", j->ctx->branch, hex,
				   rel ? " in " : "", rel ? rel : ""));
	}
}

/* An earlier patch of the series that carries U already. */
/* The digits of the series' largest number: the judge sees no subject,
 * so "03" for a series of 27 as the report writes it (at least two). */
static int entry_width(const struct fs_findings_ctx *ctx)
{
	int top = 0;
	size_t i;

	for (i = 0; i < ctx->nseries; i++)
		if (ctx->series[i].index > top)
			top = ctx->series[i].index;
	return top >= 100 ? snprintf(NULL, 0, "%d", top) : 2;
}

static void check_series_duplicate(struct judge *j, fs_cid u)
{
	size_t i, k;
	int first = -1;
	struct fs_finding *f;

	if (j->self_index < 0)
		return;
	for (i = 0; i < j->ctx->nseries; i++) {
		const struct fs_series_entry *e = &j->ctx->series[i];
		if (e->index < 0 || e->index >= j->self_index)
			continue;
		for (k = 0; k < e->nupstream; k++)
			if (e->upstream[k] == u && (first < 0 || e->index < first))
				first = e->index;
	}
	if (first < 0)
		return;
	f = add(j, FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_DUPLICATE, u, NULL, FS_FEV_EXACT);
	if (!f)
		return;
	f->series_index = first;
	set_note(j, f, fmt("patch %0*d of this series carries the same upstream commit",
			   entry_width(j->ctx), first));
}

static void set_chain(struct judge *j, struct fs_finding *f, fs_cid root,
		      const struct fs_index_fix *fixes, size_t nfixes, size_t at)
{
	fs_cid path[64];
	size_t n = 0, i, k;
	fs_cid cur = fixes[at].fixer;

	if (!f)
		return;
	/* Walk back from this fix to the root through "fixed" links. */
	while (n < 63) {
		path[n++] = cur;
		if (cur == root)
			break;
		for (k = 0; k < nfixes; k++)
			if (fixes[k].fixer == cur)
				break;
		if (k == nfixes)
			break;
		cur = fixes[k].fixed;
	}
	if (path[n - 1] != root && n < 64)
		path[n++] = root;
	f->chain = calloc(n, sizeof(*f->chain));
	if (!f->chain) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < n; i++)
		fs_index_commit_hex(j->idx, path[n - 1 - i], f->chain[i]);
	f->nchain = n;
}

/* How many mainline reverts lead from the root to FIXES[AT] when every
 * step is one (R1 reverts U: 1; R2 reverts R1: 2), else 0.  An even
 * number cancels out: the root is applied again. */
static unsigned revert_depth(const struct fs_index *idx, fs_cid root,
			     const struct fs_index_fix *fixes, size_t nfixes, size_t at)
{
	unsigned d = 0;
	size_t k;

	while (d < 64) {
		if (!fixes[at].revert || !fs_index_commit_is_mainline(idx, fixes[at].fixer))
			return 0;
		d++;
		if (fixes[at].fixed == root)
			return d;
		for (k = 0; k < nfixes; k++)
			if (fixes[k].fixer == fixes[at].fixed)
				break;
		if (k == nfixes)
			return 0;
		at = k;
	}
	return 0;
}

/* The first paragraph of a changelog that states something: not the
 * subject, not the "This reverts commit" line, not a block of tags.
 * Returns a new one-line string, or NULL. */
static char *stated_reason(const char *msg)
{
	const char *p = strstr(msg, "\n\n");
	while (p && *p) {
		const char *end, *q;
		bool tags = true, revert_line;
		char *out, *o;

		while (*p == '\n')
			p++;
		if (!*p)
			break;
		end = strstr(p, "\n\n");
		if (!end)
			end = p + strlen(p);
		revert_line = !strncmp(p, "This reverts commit", 19);
		/* A paragraph of "Word-word: value" lines is a tag block. */
		for (q = p; q < end; q = strchr(q, '\n') ? strchr(q, '\n') + 1 : end) {
			const char *c = q;
			while (c < end && (isalnum((unsigned char)*c) || *c == '-'))
				c++;
			if (c == q || c >= end || *c != ':')
				tags = false;
			if (!strchr(q, '\n'))
				break;
		}
		if (!revert_line && !tags) {
			out = malloc((size_t)(end - p) + 1);
			if (!out)
				return NULL;
			for (o = out, q = p; q < end; q++)
				*o++ = *q == '\n' ? ' ' : *q;
			while (o > out && o[-1] == ' ')
				o--;
			*o = '\0';
			return out;
		}
		p = end;
	}
	return NULL;
}

/* A stable-only revert of another branch: a warning sign, not a fix. */
static void stable_revert_elsewhere(struct judge *j, fs_cid fx, struct fs_finding **out)
{
	struct fs_finding *f = add(j, FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_STABLE_REVERT, fx,
				   NULL, FS_FEV_REVERT);
	const char *rel = fs_index_commit_release(j->idx, fx);
	char hex[41], *msg = NULL;

	*out = f;
	if (!f)
		return;
	set_stable(j, f, fx);
	set_note(j, f, fmt("reverted in %s%s%s, a stable-only revert",
			   fs_index_commit_branch(j->idx, fx), rel ? " " : "", rel ? rel : ""));
	if (!j->ctx->message)
		return;
	fs_index_commit_hex(j->idx, fx, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) == 0 && msg)
		f->reason = stated_reason(msg);
	free(msg);
}

/* A fix or revert of U that no mainline fix tag or revert chain covers:
 * a stable-only commit. */
static struct fs_finding *stable_only_fix(struct judge *j, const struct fs_index_fix *fx)
{
	struct fs_finding *f = NULL;
	const char *rel = fs_index_commit_release(j->idx, fx->fixer);
	enum fs_finding_evidence ev = fx->revert ? FS_FEV_REVERT : fev(fx->evidence);

	if (in_branch(j, fx->fixer, NULL)) {
		f = add(j, FS_FIND_FIX_PRESENT, FS_CAUSE_STABLE_FIX, fx->fixer, NULL, ev);
		set_stable(j, f, fx->fixer);
	} else if (fx->revert) {
		stable_revert_elsewhere(j, fx->fixer, &f);
	} else {
		f = add(j, FS_FIND_FIX_MISSING, FS_CAUSE_STABLE_FIX, fx->fixer, NULL, ev);
		set_note(j, f, fmt("fixed in %s%s%s, a stable-only fix",
				   fs_index_commit_branch(j->idx, fx->fixer), rel ? " " : "",
				   rel ? rel : ""));
	}
	return f;
}

/* A mainline fix or revert FX of U: queued, present or missing. */
static struct fs_finding *mainline_fix(struct judge *j, const struct fs_index_fix *fx,
				       bool reverts_root)
{
	enum fs_finding_cause cause = fx->revert ? FS_CAUSE_REVERT : FS_CAUSE_FIX;
	enum fs_finding_evidence ev = fx->revert ? FS_FEV_REVERT : fev(fx->evidence);
	struct fs_finding *f;
	struct fs_index_presence p;
	fs_cid via;
	char hex[41], *was;
	int nn;

	if ((nn = in_series(j, fx->fixer)) >= 0) {
		f = add(j, FS_FIND_FIX_QUEUED, cause, fx->fixer, NULL, ev);
		if (f)
			f->series_index = nn;
	} else if (in_branch(j, fx->fixer, &p)) {
		f = add(j, FS_FIND_FIX_PRESENT, cause, fx->fixer, NULL, ev);
		via = p.brought;
		if (via != fx->fixer && via != FS_CID_NONE) {
			set_stable(j, f, via);
			fs_index_commit_hex(j->idx, via, hex);
			set_note(j, f, fmt("in %s as %.12s%s%s", j->ctx->branch, hex,
					   fs_index_commit_release(j->idx, via) ? " in " : "",
					   fs_index_commit_release(j->idx, via) ?
					   fs_index_commit_release(j->idx, via) : ""));
		}
	} else if (reverts_root) {
		f = add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, fx->fixer, NULL, FS_FEV_REVERT);
	} else {
		f = add(j, FS_FIND_FIX_MISSING, cause, fx->fixer, NULL, ev);
		if (f && p.reverted_by != FS_CID_NONE) {
			/* The branch had it and reverted it: missing, and
			 * said so. */
			if (p.brought != fx->fixer)
				set_stable(j, f, p.brought);
			was = was_reverted(j, f, &p);
			set_note(j, f, was ? fmt("%s: missing", was) : NULL);
			free(was);
		}
	}
	return f;
}

/* FX fixes the patch, but mainline reverted it (by REVERT, the last of
 * an odd chain): nothing to queue, and said so. */
static struct fs_finding *fix_reverted(struct judge *j, const struct fs_index_fix *fx,
				       fs_cid revert)
{
	struct fs_finding *f = add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_FIX_REVERTED, fx->fixer,
				   NULL, fev(fx->evidence));
	const char *rel = fs_index_commit_release(j->idx, revert);
	char hex[41], rhex[41];

	if (!f)
		return NULL;
	fs_index_commit_hex(j->idx, fx->fixer, hex);
	fs_index_commit_hex(j->idx, revert, rhex);
	f->reverted_commit = strdup(rhex);
	f->reverted_release = dup_or_null(rel);
	if (!f->reverted_commit)
		j->oom = 1;
	set_note(j, f, fmt("fixed by %.12s, which %.12s%s%s reverted: nothing to queue", hex, rhex,
			   rel ? " in " : "", rel ? rel : ""));
	return f;
}

/* U was reverted by FIRST and applied again by LAST, a revert of a revert
 * (of ...): say so, and ask for nothing. */
static struct fs_finding *reapplied(struct judge *j, fs_cid first, fs_cid last)
{
	struct fs_finding *f = add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT_OF_REVERT,
				   first, NULL, FS_FEV_REVERT);
	const char *rel = fs_index_commit_release(j->idx, last);
	char hex[41];

	if (!f)
		return NULL;
	fs_index_commit_hex(j->idx, last, hex);
	f->reapplied_commit = strdup(hex);
	f->reapplied_release = dup_or_null(rel);
	if (!f->reapplied_commit)
		j->oom = 1;
	set_note(j, f, fmt("applied again by %.12s%s%s, a revert of the revert: nothing to queue",
			   hex, rel ? " in " : "", rel ? rel : ""));
	return f;
}

/* Whether FIXES[I] is no fix of U to judge (GONE[I] gets the answer):
 * under an entry that is not (the fixes of a fix mainline reverted, of a
 * revert of a fix); a mainline revert of anything but U's own chain (the
 * revert of a fix is not a fix of the patch: it is reported through the
 * fix it reverts); this branch's own revert of a backport (of U:
 * check_applied() says it; of a fix: the fix's presence does).  Another
 * branch's revert stays a warning sign (reverted-in-stable). */
static bool not_a_fix(struct judge *j, fs_cid u, const struct fs_index_fix *fixes, int nf,
		      int i, const unsigned *rd, bool *gone)
{
	const struct fs_index_fix *fx = &fixes[i];
	int k;

	for (k = 0; k < nf && fixes[k].fixer != fx->fixed; k++)
		;
	if (k < nf && gone[k])
		return gone[i] = true;
	if (!fx->revert || rd[i])
		return false;
	if (fs_index_commit_is_mainline(j->idx, fx->fixer))
		return gone[i] = fx->fixed != u;
	return gone[i] = fs_index_in_branch(j->idx, fx->fixer, j->ctx->branch, NULL);
}

/* A mainline fix FX of U that mainline reverted (an odd chain): said so,
 * and its own fixes go with it.  Returns the finding, or NULL when FX is
 * in mainline (net). */
static struct fs_finding *reverted_fix(struct judge *j, const struct fs_index_fix *fx,
				       bool *gone)
{
	struct fs_index_presence p;

	if (fx->revert || !fs_index_commit_is_mainline(j->idx, fx->fixer) ||
	    fs_index_present(j->idx, fx->fixer, NULL, NULL, &p) || p.reverted_by == FS_CID_NONE)
		return NULL;
	*gone = true;
	return fix_reverted(j, fx, p.reverted_by);
}

/* The fixes and reverts of U.  Mainline reverts that revert one another
 * from U count as one step each: only the last of the chain is reported,
 * as a revert when the chain is odd, as "applied again" when even. */
static void check_fixes(struct judge *j, fs_cid u)
{
	struct fs_index_fix *fixes = NULL;
	int nf = fs_index_fixes_of(j->idx, u, &fixes), i, last = -1, first = -1;
	unsigned *rd, maxd = 0;
	bool *gone;

	if (nf < 0 || !(rd = calloc((size_t)nf + 1, sizeof(*rd)))) {
		free(fixes);
		j->oom = 1;
		return;
	}
	if (!(gone = calloc((size_t)nf + 1, sizeof(*gone)))) {
		free(rd);
		free(fixes);
		j->oom = 1;
		return;
	}
	for (i = 0; i < nf; i++) {
		rd[i] = revert_depth(j->idx, u, fixes, (size_t)nf, (size_t)i);
		if (rd[i] > maxd) {
			maxd = rd[i];
			last = i;
		}
	}
	/* The first revert of the chain that leads to LAST. */
	for (first = last; first >= 0 && rd[first] > 1;) {
		int k;
		for (k = 0; k < nf && fixes[k].fixer != fixes[first].fixed; k++)
			;
		first = k < nf ? k : -1;
	}
	for (i = 0; i < nf; i++) {
		const struct fs_index_fix *fx = &fixes[i];
		struct fs_finding *f;

		if (not_a_fix(j, u, fixes, nf, i, rd, gone) || is_own(j, fx->fixer))
			continue;
		if ((f = reverted_fix(j, fx, &gone[i])) || gone[i]) {
			set_chain(j, f, u, fixes, (size_t)nf, (size_t)i);
			continue;
		}
		/* Of a chain, only its last revert speaks for it; two
		 * separate reverts of U itself are both reported. */
		if (rd[i] && i != last && maxd > 1)
			continue;
		if (rd[i] && maxd % 2 == 0 && first >= 0) {
			/* The finding names the first revert, and its chain
			 * ends there like every chain; the revert that
			 * applied U again is in reapplied_commit. */
			f = reapplied(j, fixes[first].fixer, fx->fixer);
			set_chain(j, f, u, fixes, (size_t)nf, (size_t)first);
			continue;
		}
		if (!fs_index_commit_is_mainline(j->idx, fx->fixer))
			f = stable_only_fix(j, fx);
		else
			f = mainline_fix(j, fx, rd[i] > 0 || (fx->revert && fx->depth == 1));
		set_chain(j, f, u, fixes, (size_t)nf, (size_t)i);
	}
	free(gone);
	free(rd);
	free(fixes);
}

/* Whether C is one of the N fixers of FIXES. */
static bool among_fixes(const struct fs_index_fix *fixes, int n, fs_cid c)
{
	int i;

	for (i = 0; i < n; i++)
		if (fixes[i].fixer == c)
			return true;
	return false;
}

/* Put U in front of F's chain: F was found from U through a CVE. */
static void chain_from(struct judge *j, struct fs_finding *f, fs_cid u)
{
	char (*g)[41];

	if (!f)
		return;
	g = realloc(f->chain, (f->nchain + 1) * sizeof(*g));
	if (!g) {
		j->oom = 1;
		return;
	}
	memmove(g + 1, g, f->nchain * sizeof(*g));
	fs_index_commit_hex(j->idx, u, g[0]);
	f->chain = g;
	f->nchain++;
}

/* A fix F of U that no Fixes: tag names, but a CVE record does (U is its
 * vulnerable commit): judged as a fix of U found by its tag would be,
 * with evidence "cve", and so are F's own fixes. */
static void cve_fix(struct judge *j, fs_cid u, fs_cid fix, const struct fs_index_fix *known,
		    int nknown)
{
	struct fs_index_fix fx = { fix, u, 1, false, FS_EVIDENCE_EXACT }, *more = NULL;
	struct fs_finding *f = mainline_fix(j, &fx, false);
	int nm, i;

	if (f) {
		f->evidence = FS_FEV_CVE;
		set_chain(j, f, u, &fx, 1, 0);
	}
	nm = fs_index_fixes_of(j->idx, fix, &more);
	if (nm < 0) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < nm; i++) {
		if (is_own(j, more[i].fixer) || more[i].fixer == u ||
		    among_fixes(known, nknown, more[i].fixer))
			continue;
		if (!fs_index_commit_is_mainline(j->idx, more[i].fixer))
			f = stable_only_fix(j, &more[i]);
		else
			f = mainline_fix(j, &more[i], false);
		set_chain(j, f, fix, more, (size_t)nm, (size_t)i);
		chain_from(j, f, u);
	}
	free(more);
}

/* The fixes of U that the kernel CNA records (a CVE whose .vulnerable
 * names U) and the index does not already know as fixes of U. */
static void check_cve_fixes(struct judge *j, fs_cid u)
{
	struct fs_vulns_fix vf[32];
	struct fs_index_fix *known = NULL;
	char hex[41];
	size_t n, i;
	int nk;

	if (!j->ctx->vulns)
		return;
	fs_index_commit_hex(j->idx, u, hex);
	n = fs_vulns_fixes_of(j->ctx->vulns, hex, vf, 32);
	if (!n)
		return;
	nk = fs_index_fixes_of(j->idx, u, &known);
	if (nk < 0) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < n && i < 32; i++) {
		fs_cid fix;

		/* A fix the kernel repository does not have (yet) is no
		 * commit to judge; one the tags name is judged already. */
		if (fs_index_resolve(j->idx, vf[i].fix, &fix, NULL) < 0 || fix == u ||
		    is_own(j, fix) || !fs_index_commit_is_mainline(j->idx, fix) ||
		    among_fixes(known, nk, fix))
			continue;
		cve_fix(j, u, fix, known, nk);
	}
	free(known);
}

/* Is the commit C (a Fixes target, a prerequisite) available to the
 * patch: in the branch, in this series, or brought by the patch itself? */
static bool available(struct judge *j, fs_cid c)
{
	if (in_branch(j, c, NULL))
		return true;
	c = mainline_of(j->idx, c);
	return is_own(j, c) || in_series(j, c) >= 0;
}

static void target_absent(struct judge *j, fs_cid t, enum fs_finding_cause cause,
			  enum fs_finding_evidence ev)
{
	struct fs_finding *f = add(j, FS_FIND_TARGET_ABSENT, cause, t, NULL, ev);

	set_note(j, f, fmt("the commit it %s is neither in %s%s%s nor in this series",
			   cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes",
			   j->ctx->branch, j->ctx->base ? " as of " : "",
			   j->ctx->base ? j->ctx->base : ""));
}

static void check_mismatch(struct judge *j, const struct fs_trailer_ref *fx, fs_cid t)
{
	fs_cid by_id[2];
	struct fs_finding *f;

	f = add(j, FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_SUBJECT_MISMATCH, t, NULL, FS_FEV_SUBJECT);
	if (fs_index_resolve_all(j->idx, fx->id, by_id, 2) == 1)
		set_note(j, f, fmt("Fixes: %s is the id of \"%s\"; the quoted subject is that of this commit",
				   fx->id, fs_index_commit_subject(j->idx, by_id[0])));
	else
		set_note(j, f, fmt("Fixes: %s is not a known id; the quoted subject is that of this commit",
				   fx->id));
}

static void check_targets(struct judge *j, const struct fs_trailers *tags)
{
	const struct fs_trailer_ref *fx;
	size_t n, i;
	char hex[41];

	fx = fs_trailers_fixes(tags, &n);
	for (i = 0; i < n; i++) {
		struct fs_index_ref ref;
		enum fs_evidence ev;
		bool mismatch;
		fs_cid t;
		struct fs_finding *f;

		memset(&ref, 0, sizeof(ref));
		ref.kind = FS_REF_FIXES;
		snprintf(ref.hex, sizeof(ref.hex), "%s", fx[i].id);
		ref.subject = fx[i].subject;
		ref.source = FS_CID_NONE;
		t = fs_index_ref_target(j->idx, &ref, &ev, &mismatch);
		if (t == FS_CID_NONE)
			continue;
		if (mismatch)
			check_mismatch(j, &fx[i], t);
		if (!fs_index_commit_is_mainline(j->idx, t)) {
			fs_cid m = fs_index_upstream_of(j->idx, t);
			fs_index_commit_hex(j->idx, t, hex);
			f = add(j, FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_STABLE_ID,
				m != FS_CID_NONE ? m : t, NULL, FS_FEV_STABLE);
			set_note(j, f, fmt("Fixes: %s names the %s commit %.12s%s%s, not a mainline id",
					   fx[i].id, fs_index_commit_branch(j->idx, t), hex,
					   fs_index_commit_release(j->idx, t) ? " in " : "",
					   fs_index_commit_release(j->idx, t) ?
					   fs_index_commit_release(j->idx, t) : ""));
			if (in_branch(j, t, NULL))
				continue;
			if (m != FS_CID_NONE)
				t = m;
		}
		if (available(j, t))
			continue;
		target_absent(j, t, FS_CAUSE_TARGET, mismatch ? FS_FEV_SUBJECT : fev(ev));
	}
}

static void check_deps(struct judge *j, const struct fs_trailers *tags)
{
	const struct fs_trailer_cc_stable *cc;
	const struct fs_trailer_ref *sd;
	size_t n, i, nmatch;
	struct fs_finding *f;

	cc = fs_trailers_cc_stable(tags, &n);
	for (i = 0; i < n; i++) {
		fs_cid p;
		if (!cc[i].prerequisite)
			continue;
		p = resolve_id(j->idx, cc[i].prerequisite, NULL, &nmatch);
		if (p != FS_CID_NONE && fs_index_commit_is_merge(j->idx, p))
			continue; /* a merge is never a prerequisite */
		if (p == FS_CID_NONE) {
			f = add(j, FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, FS_CID_NONE,
				cc[i].prerequisite, FS_FEV_PREFIX);
			if (f)
				f->unresolved = j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE :
						FS_CAUSE_NOT_FOUND;
			set_note(j, f, fmt(j->ctx->stale_clone ?
					   "named as a prerequisite, but not in your clone, which is older than this thread" :
					   "named as a prerequisite, but not in the kernel repository"));
			continue;
		}
		if (available(j, p))
			continue;
		f = add(j, FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, mainline_of(j->idx, p), NULL,
			fev_len(cc[i].prerequisite));
		set_note(j, f, fmt("named as a prerequisite; neither in %s nor in this series",
				   j->ctx->branch));
	}
	sd = fs_trailers_stable_dep_of(tags, &n);
	for (i = 0; i < n; i++) {
		struct fs_index_ref ref;
		enum fs_evidence ev;
		fs_cid t;

		memset(&ref, 0, sizeof(ref));
		ref.kind = FS_REF_STABLE_DEP_OF;
		snprintf(ref.hex, sizeof(ref.hex), "%s", sd[i].id);
		ref.subject = sd[i].subject;
		t = fs_index_ref_target(j->idx, &ref, &ev, NULL);
		if (t != FS_CID_NONE && (available(j, t) || fs_index_commit_is_merge(j->idx, t)))
			continue;
		f = add(j, FS_FIND_DEP_MISSING, FS_CAUSE_STABLE_DEP_OF, t,
			t == FS_CID_NONE ? sd[i].id : NULL,
			t == FS_CID_NONE ? FS_FEV_PREFIX : fev(ev));
		if (f && t == FS_CID_NONE)
			f->unresolved = j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE : FS_CAUSE_NOT_FOUND;
		set_note(j, f, fmt("this patch is a prerequisite (Stable-dep-of) of a commit that is neither in %s nor in this series",
				   j->ctx->branch));
	}
}

/* The patch reverts the mainline commit T: the branch must have it. */
static void check_revert_target(struct judge *j, fs_cid t, enum fs_finding_evidence ev)
{
	if (t == FS_CID_NONE || !fs_index_commit_is_mainline(j->idx, t) || available(j, t))
		return;
	target_absent(j, t, FS_CAUSE_REVERT_TARGET, ev);
}

/* The commit a 'Revert "X"' TITLE reverts when its revert line's id
 * names nothing: X is the subject of a commit of this branch (a stable
 * revert), else of exactly one mainline commit; FS_CID_NONE. */
static fs_cid revert_by_title(struct judge *j, const char *title)
{
	char *x = title ? fs_trailers_revert_title(title) : NULL;
	fs_cid c[16], pick = FS_CID_NONE;
	size_t n, i, nmain = 0;

	if (!x)
		return FS_CID_NONE;
	n = fs_index_find_subject(j->idx, x, c, 16);
	free(x);
	for (i = 0; i < n && i < 16; i++) {
		if (fs_index_commit_is_merge(j->idx, c[i]))
			continue;
		if (!fs_index_commit_is_mainline(j->idx, c[i]) &&
		    fs_index_in_branch(j->idx, c[i], j->ctx->branch, j->ctx->base))
			return c[i];
		if (fs_index_commit_is_mainline(j->idx, c[i]) && nmain++ == 0)
			pick = c[i];
	}
	return nmain == 1 ? pick : FS_CID_NONE;
}

static void check_reverts(struct judge *j, const struct fs_trailers *tags, const char *title,
			  size_t *nlinked)
{
	const struct fs_trailer_revert *rv;
	struct fs_index_ref refs[16];
	size_t n, i, k, nmatch;
	char hex[41], uhex[41];

	rv = fs_trailers_reverts(tags, &n);
	for (i = 0; i < n; i++) {
		fs_cid r = resolve_id(j->idx, rv[i].id, NULL, &nmatch), u;
		enum fs_finding_evidence ev = fev_len(rv[i].id);
		struct fs_finding *f;
		/* An id that names nothing: the title says what it reverts. */
		if (r == FS_CID_NONE && nmatch == 0 && (r = revert_by_title(j, title)) != FS_CID_NONE)
			ev = FS_FEV_SUBJECT;
		/* A merge is never a commit to revert or to need. */
		if (r == FS_CID_NONE || fs_index_commit_is_merge(j->idx, r))
			continue;
		if (fs_index_commit_is_mainline(j->idx, r)) {
			check_revert_target(j, r, ev);
			continue;
		}
		u = fs_index_upstream_of(j->idx, r);
		if (u == FS_CID_NONE && rv[i].upstream)
			u = resolve_id(j->idx, rv[i].upstream, NULL, &nmatch);
		f = add(j, FS_FIND_REVERTS_STABLE, FS_CAUSE_STABLE_REVERT,
			u != FS_CID_NONE ? u : r, NULL, FS_FEV_REVERT);
		set_stable(j, f, r);
		fs_index_commit_hex(j->idx, r, hex);
		if (u != FS_CID_NONE) {
			fs_index_commit_hex(j->idx, u, uhex);
			if (fs_index_in_branch(j->idx, u, j->ctx->branch, j->ctx->base)) {
				if (f)
					f->cause = FS_CAUSE_DUPLICATE;
				set_note(j, f, fmt("reverts %.12s of %s, the backport of %.12s, which the branch has by ancestry: the backport was a duplicate",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
			} else {
				set_note(j, f, fmt("reverts %.12s of %s, the backport of %.12s",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
			}
		} else {
			set_note(j, f, fmt("reverts %.12s of %s", hex, fs_index_commit_branch(j->idx, r)));
		}
		(*nlinked)++;
	}
	/* A backported mainline revert whose changelog line was dropped: the
	 * index still knows what its upstream commit reverts. */
	for (i = 0; i < j->nown; i++) {
		size_t nr = fs_index_commit_refs(j->idx, j->own[i], refs, 16);
		for (k = 0; k < nr && k < 16; k++) {
			enum fs_evidence ev;
			if (refs[k].kind != FS_REF_REVERTS)
				continue;
			check_revert_target(j, fs_index_ref_target(j->idx, &refs[k], &ev, NULL),
					    fev(ev));
		}
	}
}

/* An upstream id WRITTEN (or none, "") that names no commit, where the
 * patch's subject and author are those of one mainline commit: say so.
 * With an id, the patch is reviewed as that commit
 * (fs_findings_resolve_patch()); without one, only named: no diff
 * compared, no verdict on a guess.  Returns whether it matched. */
static bool by_subject(struct judge *j, const char *written, const char *title,
		       bool same_diff)
{
	fs_cid c = by_subject_author(j->idx, title, j->ctx->author);
	struct fs_finding *f;
	char hex[41];

	if (c == FS_CID_NONE)
		return false;
	f = add(j, *written ? FS_FIND_UNKNOWN_UPSTREAM : FS_FIND_NO_UPSTREAM,
		FS_CAUSE_SUBJECT_AUTHOR, c, NULL, FS_FEV_SUBJECT);
	if (!f)
		return true;
	if (!(f->written = strdup(written)))
		j->oom = 1;
	fs_index_commit_hex(j->idx, c, hex);
	if (*written)
		set_note(j, f, fmt("upstream id %s is no commit; the subject and author are those of %.12s (\"%s\")",
				   written, hex, fs_index_commit_subject(j->idx, c)));
	else
		set_note(j, f, fmt("no upstream id; the subject%s and author are those of %.12s (\"%s\")%s",
				   same_diff ? ", diff" : "", hex, fs_index_commit_subject(j->idx, c),
				   same_diff ? ": reviewed as its backport" : ""));
	return true;
}

static void check_unknown(struct judge *j, const struct fs_trailers *tags, const char *title)
{
	const char *const *written;
	size_t nwritten, i, nmatch;

	written = fs_trailers_upstream(tags, &nwritten);
	/* Every written id that did not resolve is worth a line. */
	for (i = 0; i < nwritten; i++) {
		fs_cid c[2];
		size_t nm = fs_index_resolve_all(j->idx, written[i], c, 2);
		struct fs_finding *f;
		enum fs_finding_cause why;

		if (nm == 1 || (nm > 1 && resolve_id(j->idx, written[i], title, &nmatch) != FS_CID_NONE))
			continue;
		if (nm == 0 && by_subject(j, written[i], title, false))
			continue;
		why = nm ? FS_CAUSE_AMBIGUOUS :
		      j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE : FS_CAUSE_NOT_FOUND;
		f = add(j, FS_FIND_UNKNOWN_UPSTREAM, why, FS_CID_NONE, written[i],
			fev_len(written[i]));
		if (f)
			f->unresolved = why;
		set_note(j, f, why == FS_CAUSE_AMBIGUOUS ?
				fmt("the id is ambiguous: it matches %zu commits", nm) :
			       why == FS_CAUSE_NOT_IN_CLONE ?
				fmt("the id is not in your clone, whose mainline is older than this thread") :
				fmt("the id is not in the kernel repository"));
	}
}

/* The finding a reply of class CLS gives. */
static enum fs_finding_kind reply_kind(enum fs_reply_class cls)
{
	switch (cls) {
	case FS_REPLY_REPORT:      return FS_FIND_REGRESSION_REPORT;
	case FS_REPLY_NEEDS_ALSO:  return FS_FIND_NEEDS_ALSO;
	case FS_REPLY_REPLACEMENT: return FS_FIND_REPLACEMENT_POSTED;
	case FS_REPLY_OTHER:       return FS_FIND_REPLY;
	default:                   return FS_FIND_OBJECTION;
	}
}

static void add_replies(struct judge *j, int index);

/* The reply's own fields on F: who said it, where, its sentence. */
static void said_by(struct judge *j, struct fs_finding *f, const struct fs_objection *o)
{
	if (!f)
		return;
	f->message_id = dup_or_null(o->message_id);
	f->from = dup_or_null(o->from);
	f->date = dup_or_null(o->date);
	set_note(j, f, dup_or_null(o->line));
	f->absent_index = o->series_index < 0 ? o->absent_index : 0;
}

/* A needs-also finding for each commit the reply O names, resolved in
 * the index: the branch having it (STABLE_COMMIT, the backport or the
 * commit) or the series queuing it (SERIES_INDEX) asks for nothing. */
static void add_needs_also(struct judge *j, const struct fs_objection *o)
{
	size_t i, nmatch;

	for (i = 0; i < o->nnamed; i++) {
		fs_cid c = resolve_id(j->idx, o->named[i], NULL, &nmatch);
		struct fs_index_presence p;
		struct fs_finding *f;

		c = mainline_of(j->idx, c);
		f = add(j, FS_FIND_NEEDS_ALSO, FS_CAUSE_NONE, c, c == FS_CID_NONE ? o->named[i] : NULL,
			c == FS_CID_NONE ? FS_FEV_PREFIX : fev_len(o->named[i]));
		if (!f)
			continue;
		if (c == FS_CID_NONE)
			f->unresolved = nmatch > 1 ? FS_CAUSE_AMBIGUOUS : FS_CAUSE_NOT_FOUND;
		else if (j->ctx->branch && in_branch(j, c, &p))
			set_stable(j, f, p.brought != FS_CID_NONE ? p.brought : c);
		else if (j->ctx->branch)
			f->series_index = in_series(j, c);
		said_by(j, f, o);
	}
}

static void check_mail(struct judge *j, const fs_cid *ups, size_t nups, int index)
{
	const struct fs_findings_ctx *ctx = j->ctx;
	size_t i, k;

	for (i = 0; i < ctx->nreports; i++) {
		const struct fs_report_mail *r = &ctx->reports[i];
		struct fs_finding *f;
		for (k = 0; k < nups; k++)
			if (ups[k] == r->upstream)
				break;
		if (k == nups)
			continue;
		f = add(j, FS_FIND_REGRESSION_REPORT, FS_CAUSE_NONE, r->upstream, NULL, FS_FEV_MAIL);
		if (!f)
			continue;
		f->message_id = dup_or_null(r->message_id);
		f->from = dup_or_null(r->from);
		f->date = dup_or_null(r->date);
		set_note(j, f, fmt("\"%s\"", r->subject ? r->subject : ""));
	}
	add_replies(j, index);
}

/* A finding for each reply of CTX placed at patch INDEX (-1: placed at
 * no patch, the series' own). */
static void add_replies(struct judge *j, int index)
{
	const struct fs_findings_ctx *ctx = j->ctx;
	size_t i;

	for (i = 0; i < ctx->nobjections; i++) {
		const struct fs_objection *o = &ctx->objections[i];
		struct fs_finding *f;
		if (o->series_index != index)
			continue;
		if (o->cls == FS_REPLY_NEEDS_ALSO && o->nnamed) {
			add_needs_also(j, o);
			continue;
		}
		f = add(j, reply_kind(o->cls), FS_CAUSE_NONE, FS_CID_NONE, NULL, FS_FEV_MAIL);
		said_by(j, f, o);
	}
}

/* A copy of the N strings of V into *OUT; false when out of memory. */
static bool copy_strv(char ***out, size_t *nout, char *const *v, size_t n)
{
	size_t i;

	*out = NULL;
	*nout = 0;
	if (!n)
		return true;
	if (!(*out = calloc(n, sizeof(**out))))
		return false;
	for (i = 0; i < n; i++) {
		if (!((*out)[i] = strdup(v[i])))
			return false;
		(*nout)++;
	}
	return true;
}

/* "1 line only in the backport", "2 lines only upstream", "1 line only
 * in the backport and 2 only upstream" as D's listed lines say; when
 * they are not all listed, "N lines that only one side has". */
static void add_line_counts(FILE *s, const struct fs_diffcmp_result *d, const char *sep)
{
	size_t i, back = 0, up = 0;

	for (i = 0; i < d->nlines; i++) {
		back += g_str_has_prefix(d->lines[i], "backport only:");
		up += g_str_has_prefix(d->lines[i], "upstream only:");
	}
	if (back + up != d->lines_differ) {
		fprintf(s, "%s%zu line%s that only one side has", sep, d->lines_differ,
			d->lines_differ == 1 ? "" : "s");
		return;
	}
	if (back)
		fprintf(s, "%s%zu line%s only in the backport", sep, back, back == 1 ? "" : "s");
	if (back && up)
		fprintf(s, " and %zu only upstream", up);
	else if (up)
		fprintf(s, "%s%zu line%s only upstream", sep, up, up == 1 ? "" : "s");
}

/* "upstream also changes b.c; the backport also changes c.c; 2 lines
 * only upstream", or NULL when out of memory. */
static char *diff_note(const struct fs_diffcmp_result *d)
{
	char *buf = NULL;
	size_t len = 0, i;
	FILE *s = open_memstream(&buf, &len);

	if (!s)
		return NULL;
	for (i = 0; i < d->nfiles_dropped; i++)
		fprintf(s, "%s%s", i ? ", " : "upstream also changes ", d->files_dropped[i]);
	for (i = 0; i < d->nfiles_added; i++)
		fprintf(s, "%s%s", i ? ", " : d->nfiles_dropped ? "; the backport also changes " :
			"the backport also changes ", d->files_added[i]);
	if (d->lines_differ)
		add_line_counts(s, d, d->nfiles_dropped || d->nfiles_added ? "; " : "");
	if (fclose(s) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The backport's diff against its upstream commit's, when the caller
 * compared them (one upstream commit): a difference the changelog does
 * not document. */
static void check_diff(struct judge *j, const fs_cid *ups, size_t nups)
{
	const struct fs_diffcmp_result *d = j->ctx->diff;
	struct fs_finding *f;
	char *note;

	if (!d || nups != 1 || d->documented || !fs_diffcmp_differs(d))
		return;
	f = add(j, FS_FIND_BACKPORT_DIFFERS, FS_CAUSE_NONE, ups[0], NULL, FS_FEV_EXACT);
	if (!f)
		return;
	note = diff_note(d);
	set_note(j, f, note);
	f->lines_differ = d->lines_differ;
	if (!copy_strv(&f->files_dropped, &f->nfiles_dropped, d->files_dropped, d->nfiles_dropped) ||
	    !copy_strv(&f->files_added, &f->nfiles_added, d->files_added, d->nfiles_added) ||
	    !copy_strv(&f->diff_lines, &f->ndiff_lines, d->lines, d->nlines))
		j->oom = 1;
}

/* Whether J has a fix-pending finding of the mail or commit of P. */
static bool pending_seen(const struct judge *j, const struct fs_pending_fix *p)
{
	size_t i;

	for (i = 0; i < j->out->n; i++) {
		const struct fs_finding *g = &j->out->v[i];
		if (g->kind != FS_FIND_FIX_PENDING)
			continue;
		if ((p->commit && !strcmp(g->commit, p->commit)) ||
		    (p->message_id && g->message_id && !strcmp(g->message_id, p->message_id)))
			return true;
	}
	return false;
}

/* fix-pending: each fix (or revert) of one of the patch's upstream
 * commits UPS that mainline does not have yet, once however many of UPS
 * it fixes.  A posted fix names its mail (subject, from, date, message
 * id), a pending ref's its commit and ref (both when the commit is the
 * mail's patch); the note names the commit it fixes. */
static void check_pending(struct judge *j, const fs_cid *ups, size_t nups)
{
	const struct fs_findings_ctx *ctx = j->ctx;
	size_t i, k;

	for (i = 0; i < ctx->npending; i++) {
		const struct fs_pending_fix *p = &ctx->pending[i];
		struct fs_finding *f;
		char hex[41];

		for (k = 0; k < nups && ups[k] != p->upstream; k++)
			;
		if (k == nups || pending_seen(j, p))
			continue;
		f = add(j, FS_FIND_FIX_PENDING, p->revert ? FS_CAUSE_REVERT : FS_CAUSE_FIX,
			FS_CID_NONE, p->commit, p->message_id ? FS_FEV_MAIL : FS_FEV_EXACT);
		if (!f)
			continue;
		f->subject = dup_or_null(p->commit ? p->title : p->subject);
		f->message_id = dup_or_null(p->message_id);
		f->from = dup_or_null(p->from);
		f->date = dup_or_null(p->date);
		f->ref = dup_or_null(p->ref);
		fs_index_commit_hex(j->idx, p->upstream, hex);
		set_note(j, f, fmt("%s %.12s", p->revert ? "reverts" : "fixes", hex));
	}
}

/* The size of U's posting from the store (ctx->posting_size): *TOTAL
 * its M and *FIRST the mail number of its patch 1; false when unknown. */
static bool posting_size(struct judge *j, fs_cid u, unsigned *total, unsigned *first)
{
	char hex[41], key[512], *msg = NULL;
	unsigned part;
	int form;
	bool ok = false;

	if (!j->ctx->posting_size || !j->ctx->message)
		return false;
	fs_index_commit_hex(j->idx, u, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) < 0)
		return false;
	form = fs_posting_from_message(msg, strlen(msg), key, sizeof(key), &part);
	ok = form != FS_POSTING_NONE &&
	     j->ctx->posting_size(j->ctx->posting_data, key, form, total, first) == 0;
	free(msg);
	return ok;
}

/* Mail number N of a posting whose patch 1 is mail FIRST and which has
 * TOTAL patches, as its patch number (N unchanged when that is unknown or
 * N is none of them). */
static unsigned patch_number(unsigned n, unsigned total, unsigned first)
{
	return total && n >= first && n - first + 1 <= total ? n - first + 1 : n;
}

/* Whether a patch of the series carries a commit of C's subject (the
 * same patch, applied to mainline twice). */
static bool queued_by_subject(struct judge *j, fs_cid c)
{
	const char *subj = fs_index_commit_subject(j->idx, c);
	size_t i, k;

	for (i = 0; i < j->ctx->nseries; i++)
		for (k = 0; k < j->ctx->series[i].nupstream; k++)
			if (!strcmp(fs_index_commit_subject(j->idx, j->ctx->series[i].upstream[k]), subj))
				return true;
	return false;
}

/* series-partial: the other parts of the posting U was applied from
 * (the index's Link table) that mainline has and that neither the patch,
 * the branch (net of reverts, backports counted) nor another patch of
 * the series brings, and that mainline did not revert.  A part mainline
 * has twice is there when one of its commits is (but the commits that
 * link b4's cover, part 0, are each a part).  One finding per posting,
 * naming every such part. */
#define SERIES_MAX_PARTS 256
static void check_series_partial(struct judge *j, fs_cid u)
{
	struct fs_index_series_part parts[SERIES_MAX_PARTS];
	unsigned part, total = 0, first = 1;
	char pn[32];
	size_t n = fs_index_series_of(j->idx, u, &part, parts, SERIES_MAX_PARTS);
	size_t i, k, nmiss = 0;
	struct fs_finding *f;
	fs_cid miss[SERIES_MAX_PARTS];

	if (n > SERIES_MAX_PARTS)
		n = SERIES_MAX_PARTS;
	for (i = 0; i < n; i = k) {
		bool there = false;

		/* a part mainline reverted is none to ask for */
		for (k = i; k < n && (k == i || (parts[k].part == parts[i].part && parts[i].part)); k++)
			there = there || is_own(j, parts[k].commit) || in_series(j, parts[k].commit) >= 0 ||
				in_branch(j, parts[k].commit, NULL) || queued_by_subject(j, parts[k].commit) ||
				!fs_index_present(j->idx, parts[k].commit, NULL, NULL, NULL);
		if (!there)
			miss[nmiss++] = parts[i].commit;
	}
	if (!nmiss || !(f = add(j, FS_FIND_SERIES_PARTIAL, FS_CAUSE_NONE, u, NULL, FS_FEV_EXACT)))
		return;
	if (!posting_size(j, u, &total, &first))
		total = 0;
	f->series_part = part ? patch_number(part, total, first) : 0;
	if (!(f->parts = calloc(nmiss, sizeof(*f->parts)))) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < nmiss; i++) {
		struct fs_finding_part *p = &f->parts[f->nparts++];

		fs_index_commit_hex(j->idx, miss[i], p->commit);
		p->subject = dup_or_null(fs_index_commit_subject(j->idx, miss[i]));
		p->release = dup_or_null(fs_index_commit_release(j->idx, miss[i]));
		for (k = 0; k < n && parts[k].commit != miss[i]; k++)
			;
		p->part = parts[k].part ? patch_number(parts[k].part, total, first) : 0;
		p->total = total && parts[k].part && parts[k].part >= first && p->part <= total ? total : 0;
		if (!p->subject)
			j->oom = 1;
	}
	if (!part)
		snprintf(pn, sizeof(pn), "a part");
	else if (total)
		snprintf(pn, sizeof(pn), "part %u/%u", f->series_part, total);
	else
		snprintf(pn, sizeof(pn), "part %u", f->series_part);
	set_note(j, f, fmt("%s of its posting; %zu other part%s in mainline, neither in %s nor in this series",
			   pn, nmiss, nmiss == 1 ? "" : "s", j->ctx->branch));
}

int fs_findings_judge(struct fs_findings *out, const struct fs_findings_ctx *ctx,
		      const struct fs_trailers *tags, const char *title, int index,
		      struct fs_error *err)
{
	struct judge j;
	fs_cid ups[16];
	size_t nups, nwritten, i, nlinked = 0;

	memset(&j, 0, sizeof(j));
	j.ctx = ctx;
	j.idx = ctx->idx;
	j.out = out;
	j.self_index = index;
	nups = fs_findings_resolve_patch(ctx->idx, tags, title, ctx->author, ctx->body,
					 ctx->body_len, ups, 16, NULL);
	if (nups > 16)
		nups = 16;
	j.own = ups;
	j.nown = nups;
	fs_trailers_upstream(tags, &nwritten);
	if (nups) {
		fs_index_commit_hex(ctx->idx, ups[0], out->upstream);
		snprintf(out->upstream_subject, sizeof(out->upstream_subject), "%s",
			 fs_index_commit_subject(ctx->idx, ups[0]));
	}
	for (i = 0; ctx->vulns && i < nups; i++) {
		char hex[41];
		fs_index_commit_hex(ctx->idx, ups[i], hex);
		if (add_cves(&out->upstream_cves, &out->nupstream_cves, ctx->vulns, hex) < 0)
			j.oom = 1;
	}
	check_unknown(&j, tags, title);
	for (i = 0; i < nups; i++) {
		check_series_duplicate(&j, ups[i]);
		check_applied(&j, ups[i]);
		check_fixes(&j, ups[i]);
		check_cve_fixes(&j, ups[i]);
	}
	check_targets(&j, tags);
	check_deps(&j, tags);
	check_reverts(&j, tags, title, &nlinked);
	if (nwritten == 0 && nlinked == 0 && !by_subject(&j, "", title, nups > 0))
		add(&j, FS_FIND_NO_UPSTREAM, FS_CAUSE_NONE, FS_CID_NONE, NULL, FS_FEV_EXACT);
	if (index >= 0)
		check_mail(&j, ups, nups, index);
	check_diff(&j, ups, nups);
	check_pending(&j, ups, nups);
	for (i = 0; i < nups; i++)
		check_series_partial(&j, ups[i]);
	if (ctx->ignore) {
		for (i = 0; i < out->n; i++) {
			const char *why = fs_ignore_match(ctx->ignore, out->v[i].commit, out->upstream);
			if (why && !(out->v[i].ignored = strdup(why)))
				j.oom = 1;
		}
	}
	if (j.oom)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 0;
}

int fs_findings_series_replies(struct fs_findings *out, const struct fs_findings_ctx *ctx,
			       struct fs_error *err)
{
	struct judge j;

	memset(&j, 0, sizeof(j));
	j.ctx = ctx;
	j.idx = ctx->idx;
	j.out = out;
	j.self_index = -1;
	add_replies(&j, -1);
	if (j.oom)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 0;
}
