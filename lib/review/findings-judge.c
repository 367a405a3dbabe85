/* fixscan: the judge's tools (findings-private.h): new findings, their
 * notes and stable commits, and the questions every check asks of the
 * branch, the series and the index. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "findings-private.h"

/* The finding evidence of an index match. */
enum fs_finding_evidence fsj_fev(enum fs_evidence ev)
{
	switch (ev) {
	case FS_EVIDENCE_PREFIX: return FS_FEV_PREFIX;
	case FS_EVIDENCE_SUBJECT: return FS_FEV_SUBJECT;
	case FS_EVIDENCE_STABLE: return FS_FEV_STABLE;
	default: return FS_FEV_EXACT;
	}
}

/* Exact or prefix, by how much of the id is written. */
enum fs_finding_evidence fsj_fev_len(const char *hex)
{
	return strlen(hex) == 40 ? FS_FEV_EXACT : FS_FEV_PREFIX;
}

char *fsj_dup_or_null(const char *s)
{
	return s ? g_strdup(s) : NULL;
}

char *fsj_fmt(const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	s = g_strdup_vprintf(f, ap);
	va_end(ap);
	return s;
}

/* Append the CVE ids whose fix is HEX to *V (*N of them), each once.
 * Returns 0 or -1 when out of memory. */
int fsj_add_cves(char ***v, size_t *n, const struct fs_vulns *vulns, const char *hex)
{
	const char *ids[32];
	size_t k, i, m = fs_vulns_cves(vulns, hex, ids, 32);
	char **g;

	for (k = 0; k < m && k < 32; k++) {
		for (i = 0; i < *n && strcmp((*v)[i], ids[k]); i++)
			;
		if (i < *n)
			continue;
		g = g_try_realloc(*v, (*n + 1) * sizeof(*g));
		if (!g)
			return -1;
		*v = g;
		if (!(g[*n] = g_strdup(ids[k])))
			return -1;
		(*n)++;
	}
	return 0;
}

/* Add a finding about commit C (or, when C is FS_CID_NONE, about the id
 * HEX as written).  Returns it, or NULL when out of memory or when the
 * same kind already names the same commit. */
struct fs_finding *fsj_add(struct judge *j, enum fs_finding_kind kind,
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
		struct fs_finding *g = g_try_realloc(j->out->v, nc * sizeof(*g));
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
		f->subject = fsj_dup_or_null(fs_index_commit_subject(j->idx, c));
		f->release = fsj_dup_or_null(fs_index_commit_release(j->idx, c));
		f->branch = fsj_dup_or_null(fs_index_commit_branch(j->idx, c));
		if (!f->subject || !f->branch)
			j->oom = 1;
		if (j->ctx->vulns && fsj_add_cves(&f->cves, &f->ncves, j->ctx->vulns, full) < 0)
			j->oom = 1;
	}
	return f;
}

void fsj_set_stable(struct judge *j, struct fs_finding *f, fs_cid s)
{
	char hex[41];

	if (!f)
		return;
	fs_index_commit_hex(j->idx, s, hex);
	f->stable_commit = g_strdup(hex);
	f->stable_release = fsj_dup_or_null(fs_index_commit_release(j->idx, s));
	if (!f->stable_commit)
		j->oom = 1;
}

void fsj_set_note(struct judge *j, struct fs_finding *f, char *note)
{
	if (!f) {
		g_free(note);
		return;
	}
	g_free(f->note);
	f->note = note;
	if (!note)
		j->oom = 1;
}

/* ---- questions about the branch and the series --------------------------- */

/* Is C in the branch as of the base, net of the branch's reverts?  The
 * one question fs_index_present() answers for every caller; *P says what
 * brought C and what undid it. */
bool fsj_in_branch(struct judge *j, fs_cid c, struct fs_index_presence *p)
{
	return fs_index_present(j->idx, c, j->ctx->branch, j->ctx->base, p);
}

/* "was in v4.4.5 as <id>, reverted in v4.4.8 by <id>": where C was and
 * what undid it, for a note; into F's fields too. */
char *fsj_was_reverted(struct judge *j, struct fs_finding *f,
			  const struct fs_index_presence *p)
{
	const char *rel = fs_index_commit_release(j->idx, p->brought);
	const char *rrel = fs_index_commit_release(j->idx, p->reverted_by);
	char hex[41], rhex[41];

	fs_index_commit_hex(j->idx, p->brought, hex);
	fs_index_commit_hex(j->idx, p->reverted_by, rhex);
	if (f) {
		f->revert.commit = g_strdup(rhex);
		f->revert.release = fsj_dup_or_null(rrel);
		if (!f->revert.commit)
			j->oom = 1;
	}
	return fsj_fmt("was in %s as %.12s, reverted%s%s by %.12s", rel ? rel : j->ctx->branch, hex,
		   rrel ? " in " : "", rrel ? rrel : "", rhex);
}

/* The NN of another patch of the series that carries C, or -1. */
int fsj_in_series(struct judge *j, fs_cid c)
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
bool fsj_is_own(struct judge *j, fs_cid c)
{
	size_t i;

	for (i = 0; i < j->nown; i++)
		if (j->own[i] == c)
			return true;
	return false;
}

fs_cid fsj_mainline_of(const struct fs_index *idx, fs_cid c)
{
	fs_cid u;

	if (c == FS_CID_NONE || fs_index_commit_is_mainline(idx, c))
		return c;
	u = fs_index_upstream_of(idx, c);
	return u != FS_CID_NONE ? u : c;
}

/* ---- upstream resolution ------------------------------------------------- */

fs_cid fsj_resolve_id(const struct fs_index *idx, const char *hex, const char *title,
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
fs_cid fsj_by_subject_author(const struct fs_index *idx, const char *title,
				const char *author)
{
	fs_cid c[2];

	if (!title || !author)
		return FS_CID_NONE;
	return fs_index_find_subject_author(idx, title, author, c, 2) == 1 ? c[0] : FS_CID_NONE;
}
