/* fixscan: judging one stable patch against the fixes index. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixscan/findings.h"

static const char *const kind_names[FS_FIND_KIND_COUNT] = {
	[FS_FIND_FIX_MISSING] = "fix-missing",
	[FS_FIND_FIX_QUEUED] = "fix-queued",
	[FS_FIND_FIX_PRESENT] = "fix-present",
	[FS_FIND_REVERTED_UPSTREAM] = "reverted-upstream",
	[FS_FIND_ALREADY_APPLIED] = "already-applied",
	[FS_FIND_TARGET_ABSENT] = "target-absent",
	[FS_FIND_NO_UPSTREAM] = "no-upstream",
	[FS_FIND_UNKNOWN_UPSTREAM] = "unknown-upstream",
	[FS_FIND_REGRESSION_REPORT] = "regression-report",
	[FS_FIND_DEP_MISSING] = "dep-missing",
	[FS_FIND_FIXES_TAG_MISMATCH] = "fixes-tag-mismatch",
	[FS_FIND_REVERTS_STABLE] = "reverts-stable",
	[FS_FIND_OBJECTION] = "objection",
};

const char *fs_finding_kind_name(enum fs_finding_kind kind)
{
	return (unsigned)kind < FS_FIND_KIND_COUNT ? kind_names[kind] : "unknown";
}

int fs_finding_kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < FS_FIND_KIND_COUNT; i++)
		if (!strcmp(kind_names[i], name))
			return i;
	return -1;
}

bool fs_finding_kind_is_problem(enum fs_finding_kind kind)
{
	return kind != FS_FIND_FIX_PRESENT;
}

static void finding_clear(struct fs_finding *f)
{
	free(f->subject);
	free(f->release);
	free(f->stable_commit);
	free(f->stable_release);
	free(f->chain);
	free(f->message_id);
	free(f->from);
	free(f->date);
	free(f->note);
	free(f->ignored);
}

void fs_findings_clear(struct fs_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		finding_clear(&f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = 0;
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

/* Add a finding about commit C (or, when C is FS_CID_NONE, about the id
 * HEX as written).  Returns it, or NULL when out of memory or when the
 * same kind already names the same commit. */
static struct fs_finding *add(struct judge *j, enum fs_finding_kind kind, fs_cid c,
			      const char *hex, const char *evidence)
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
		    kind != FS_FIND_REGRESSION_REPORT && kind != FS_FIND_OBJECTION)
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
	memcpy(f->commit, full, sizeof(full));
	f->series_index = -1;
	f->evidence = evidence;
	if (c != FS_CID_NONE) {
		f->subject = dup_or_null(fs_index_commit_subject(j->idx, c));
		f->release = dup_or_null(fs_index_commit_release(j->idx, c));
		if (!f->subject)
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

/* Is C (mainline) in the branch as of the base, directly or by a
 * backport?  Returns the backport in *VIA (FS_CID_NONE for ancestry). */
static bool in_branch(struct judge *j, fs_cid c, fs_cid *via)
{
	fs_cid bp[32];
	size_t n, i;

	*via = FS_CID_NONE;
	if (fs_index_in_branch(j->idx, c, j->ctx->branch, j->ctx->base))
		return true;
	n = fs_index_backports(j->idx, c, bp, 32);
	for (i = 0; i < n && i < 32; i++) {
		if (fs_index_in_branch(j->idx, bp[i], j->ctx->branch, j->ctx->base)) {
			*via = bp[i];
			return true;
		}
	}
	return false;
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

size_t fs_findings_resolve_upstream(const struct fs_index *idx,
				    const struct fs_tags *tags, const char *title,
				    fs_cid *out, size_t max, char unknown[41])
{
	const char *const *ups;
	size_t nups, i, k, n = 0, nmatch;

	if (unknown)
		unknown[0] = '\0';
	ups = fs_tags_upstream(tags, &nups);
	for (i = 0; i < nups; i++) {
		fs_cid c = mainline_of(idx, resolve_id(idx, ups[i], title, &nmatch));
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
	return n;
}

/* ---- the checks ----------------------------------------------------------- */

static void check_applied(struct judge *j, fs_cid u)
{
	fs_cid bp[32];
	size_t n, i;
	char hex[41];
	struct fs_finding *f;

	if (fs_index_in_branch(j->idx, u, j->ctx->branch, j->ctx->base)) {
		f = add(j, FS_FIND_ALREADY_APPLIED, u, NULL, "exact");
		set_note(j, f, fmt("already in %s by ancestry: %s released it before %s forked",
				   j->ctx->branch, fs_index_commit_release(j->idx, u),
				   j->ctx->branch));
		return;
	}
	n = fs_index_backports(j->idx, u, bp, 32);
	for (i = 0; i < n && i < 32; i++) {
		if (!fs_index_in_branch(j->idx, bp[i], j->ctx->branch, j->ctx->base))
			continue;
		/* The duplicate is what the reviewer looks up: name the
		 * branch's commit, and its upstream in the note. */
		f = add(j, FS_FIND_ALREADY_APPLIED, bp[i], NULL, "exact");
		set_stable(j, f, bp[i]);
		fs_index_commit_hex(j->idx, bp[i], hex);
		set_note(j, f, fmt("already backported to %s as %.12s%s%s", j->ctx->branch, hex,
				   fs_index_commit_release(j->idx, bp[i]) ? " in " : "",
				   fs_index_commit_release(j->idx, bp[i]) ?
				   fs_index_commit_release(j->idx, bp[i]) : ""));
		return;
	}
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

static void check_fixes(struct judge *j, fs_cid u)
{
	struct fs_index_fix *fixes = NULL;
	int nf = fs_index_fixes_of(j->idx, u, &fixes), i;
	char hex[41];

	if (nf < 0) {
		j->oom = 1;
		return;
	}
	for (i = 0; i < nf; i++) {
		fs_cid fx = fixes[i].fixer, via;
		const char *ev = fixes[i].revert ? "revert" : fs_evidence_name(fixes[i].evidence);
		struct fs_finding *f;
		int nn;

		if (!fs_index_commit_is_mainline(j->idx, fx)) {
			/* A stable-only fix or revert: present if it is on
			 * this branch, a warning sign if on another one. */
			if (fs_index_in_branch(j->idx, fx, j->ctx->branch, j->ctx->base)) {
				f = add(j, FS_FIND_FIX_PRESENT, fx, NULL, ev);
				set_stable(j, f, fx);
			} else {
				f = add(j, FS_FIND_FIX_MISSING, fx, NULL, ev);
				set_note(j, f, fmt("%s in %s%s%s, a stable-only %s",
						   fixes[i].revert ? "reverted" : "fixed",
						   fs_index_commit_branch(j->idx, fx),
						   fs_index_commit_release(j->idx, fx) ? " " : "",
						   fs_index_commit_release(j->idx, fx) ?
						   fs_index_commit_release(j->idx, fx) : "",
						   fixes[i].revert ? "revert" : "fix"));
			}
			set_chain(j, f, u, fixes, nf, i);
			continue;
		}
		if ((nn = in_series(j, fx)) >= 0) {
			f = add(j, FS_FIND_FIX_QUEUED, fx, NULL, ev);
			if (f)
				f->series_index = nn;
		} else if (in_branch(j, fx, &via)) {
			f = add(j, FS_FIND_FIX_PRESENT, fx, NULL, ev);
			if (via != FS_CID_NONE) {
				set_stable(j, f, via);
				fs_index_commit_hex(j->idx, via, hex);
				set_note(j, f, fmt("in %s as %.12s%s%s", j->ctx->branch, hex,
						   fs_index_commit_release(j->idx, via) ? " in " : "",
						   fs_index_commit_release(j->idx, via) ?
						   fs_index_commit_release(j->idx, via) : ""));
			}
		} else if (fixes[i].revert && fixes[i].depth == 1) {
			f = add(j, FS_FIND_REVERTED_UPSTREAM, fx, NULL, "revert");
		} else {
			f = add(j, FS_FIND_FIX_MISSING, fx, NULL, ev);
		}
		set_chain(j, f, u, fixes, nf, i);
	}
	free(fixes);
}

/* Is the commit C (a Fixes target, a prerequisite) available to the
 * patch: in the branch, or in this series? */
static bool available(struct judge *j, fs_cid c)
{
	fs_cid via;

	if (fs_index_in_branch(j->idx, c, j->ctx->branch, j->ctx->base))
		return true;
	c = mainline_of(j->idx, c);
	return in_branch(j, c, &via) || in_series(j, c) >= 0;
}

static void check_targets(struct judge *j, const struct fs_tags *tags)
{
	const struct fs_tag_ref *fx;
	size_t n, i;
	char hex[41];

	fx = fs_tags_fixes(tags, &n);
	for (i = 0; i < n; i++) {
		struct fs_index_ref ref;
		enum fs_evidence ev;
		bool mismatch;
		fs_cid t, by_id[2];
		struct fs_finding *f;

		memset(&ref, 0, sizeof(ref));
		ref.kind = FS_REF_FIXES;
		snprintf(ref.hex, sizeof(ref.hex), "%s", fx[i].id);
		ref.subject = fx[i].subject;
		ref.source = FS_CID_NONE;
		t = fs_index_ref_target(j->idx, &ref, &ev, &mismatch);
		if (t == FS_CID_NONE)
			continue;
		if (mismatch) {
			f = add(j, FS_FIND_FIXES_TAG_MISMATCH, t, NULL, "subject");
			if (fs_index_resolve_all(j->idx, fx[i].id, by_id, 2) == 1) {
				fs_index_commit_hex(j->idx, by_id[0], hex);
				set_note(j, f, fmt("Fixes: %s is the id of \"%s\"; the quoted subject is that of this commit",
						   fx[i].id, fs_index_commit_subject(j->idx, by_id[0])));
			} else {
				set_note(j, f, fmt("Fixes: %s is not a known id; the quoted subject is that of this commit",
						   fx[i].id));
			}
		}
		if (!fs_index_commit_is_mainline(j->idx, t)) {
			fs_cid m = fs_index_upstream_of(j->idx, t);
			fs_index_commit_hex(j->idx, t, hex);
			f = add(j, FS_FIND_FIXES_TAG_MISMATCH, m != FS_CID_NONE ? m : t, NULL, "stable");
			set_note(j, f, fmt("Fixes: %s names the %s commit %.12s%s%s, not a mainline id",
					   fx[i].id, fs_index_commit_branch(j->idx, t), hex,
					   fs_index_commit_release(j->idx, t) ? " in " : "",
					   fs_index_commit_release(j->idx, t) ?
					   fs_index_commit_release(j->idx, t) : ""));
			if (fs_index_in_branch(j->idx, t, j->ctx->branch, j->ctx->base))
				continue;
			if (m != FS_CID_NONE)
				t = m;
		}
		if (available(j, t))
			continue;
		f = add(j, FS_FIND_TARGET_ABSENT, t, NULL,
			mismatch ? "subject" : fs_evidence_name(ev));
		set_note(j, f, fmt("the commit it fixes is neither in %s%s%s nor in this series",
				   j->ctx->branch, j->ctx->base ? " as of " : "",
				   j->ctx->base ? j->ctx->base : ""));
	}
}

static void check_deps(struct judge *j, const struct fs_tags *tags, const char *title)
{
	const struct fs_tag_cc_stable *cc;
	const struct fs_tag_ref *sd;
	size_t n, i, nmatch;
	struct fs_finding *f;

	cc = fs_tags_cc_stable(tags, &n);
	for (i = 0; i < n; i++) {
		fs_cid p;
		if (!cc[i].prerequisite)
			continue;
		p = resolve_id(j->idx, cc[i].prerequisite, NULL, &nmatch);
		if (p == FS_CID_NONE) {
			f = add(j, FS_FIND_DEP_MISSING, FS_CID_NONE, cc[i].prerequisite, "prefix");
			set_note(j, f, fmt("named as a prerequisite, but not in the kernel repository"));
			continue;
		}
		if (available(j, p))
			continue;
		f = add(j, FS_FIND_DEP_MISSING, mainline_of(j->idx, p), NULL,
			strlen(cc[i].prerequisite) == 40 ? "exact" : "prefix");
		set_note(j, f, fmt("named as a prerequisite; neither in %s nor in this series",
				   j->ctx->branch));
	}
	sd = fs_tags_stable_dep_of(tags, &n);
	for (i = 0; i < n; i++) {
		struct fs_index_ref ref;
		enum fs_evidence ev;
		fs_cid t;

		memset(&ref, 0, sizeof(ref));
		ref.kind = FS_REF_STABLE_DEP_OF;
		snprintf(ref.hex, sizeof(ref.hex), "%s", sd[i].id);
		ref.subject = sd[i].subject;
		t = fs_index_ref_target(j->idx, &ref, &ev, NULL);
		if (t != FS_CID_NONE && available(j, t))
			continue;
		f = add(j, FS_FIND_DEP_MISSING, t, t == FS_CID_NONE ? sd[i].id : NULL,
			t == FS_CID_NONE ? "prefix" : fs_evidence_name(ev));
		set_note(j, f, fmt("this patch is a prerequisite (Stable-dep-of) of a commit that is neither in %s nor in this series",
				   j->ctx->branch));
	}
	(void)title;
}

static void check_reverts(struct judge *j, const struct fs_tags *tags, size_t *nlinked)
{
	const struct fs_tag_revert *rv;
	size_t n, i, nmatch;
	char hex[41], uhex[41];

	rv = fs_tags_reverts(tags, &n);
	for (i = 0; i < n; i++) {
		fs_cid r = resolve_id(j->idx, rv[i].id, NULL, &nmatch), u;
		struct fs_finding *f;
		if (r == FS_CID_NONE || fs_index_commit_is_mainline(j->idx, r))
			continue;
		u = fs_index_upstream_of(j->idx, r);
		if (u == FS_CID_NONE && rv[i].upstream)
			u = resolve_id(j->idx, rv[i].upstream, NULL, &nmatch);
		f = add(j, FS_FIND_REVERTS_STABLE, u != FS_CID_NONE ? u : r, NULL, "revert");
		set_stable(j, f, r);
		fs_index_commit_hex(j->idx, r, hex);
		if (u != FS_CID_NONE) {
			fs_index_commit_hex(j->idx, u, uhex);
			if (fs_index_in_branch(j->idx, u, j->ctx->branch, j->ctx->base))
				set_note(j, f, fmt("reverts %.12s of %s, the backport of %.12s, which the branch has by ancestry: the backport was a duplicate",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
			else
				set_note(j, f, fmt("reverts %.12s of %s, the backport of %.12s",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
		} else {
			set_note(j, f, fmt("reverts %.12s of %s", hex, fs_index_commit_branch(j->idx, r)));
		}
		(*nlinked)++;
	}
}

int fs_findings_judge(struct fs_findings *out, const struct fs_findings_ctx *ctx,
		      const struct fs_tags *tags, const char *title, int index,
		      struct fs_error *err)
{
	struct judge j;
	fs_cid ups[16];
	char unknown[41];
	size_t nups, nwritten, i, k, nlinked = 0;
	const char *const *written;

	memset(&j, 0, sizeof(j));
	j.ctx = ctx;
	j.idx = ctx->idx;
	j.out = out;
	j.self_index = index;
	nups = fs_findings_resolve_upstream(ctx->idx, tags, title, ups, 16, unknown);
	if (nups > 16)
		nups = 16;
	written = fs_tags_upstream(tags, &nwritten);
	if (nups) {
		fs_index_commit_hex(ctx->idx, ups[0], out->upstream);
		snprintf(out->upstream_subject, sizeof(out->upstream_subject), "%s",
			 fs_index_commit_subject(ctx->idx, ups[0]));
	}
	/* Every written id that did not resolve is worth a line. */
	for (i = 0; i < nwritten; i++) {
		fs_cid c[2];
		size_t nm = fs_index_resolve_all(ctx->idx, written[i], c, 2);
		size_t nmatch;
		struct fs_finding *f;
		if (nm == 1 || (nm > 1 && resolve_id(ctx->idx, written[i], title, &nmatch) != FS_CID_NONE))
			continue;
		f = add(&j, FS_FIND_UNKNOWN_UPSTREAM, FS_CID_NONE, written[i],
			strlen(written[i]) == 40 ? "exact" : "prefix");
		set_note(&j, f, nm ? fmt("the id is ambiguous: it matches %zu commits", nm)
				   : fmt("the id is not in the kernel repository"));
	}
	for (i = 0; i < nups; i++) {
		check_applied(&j, ups[i]);
		check_fixes(&j, ups[i]);
	}
	check_targets(&j, tags);
	check_deps(&j, tags, title);
	check_reverts(&j, tags, &nlinked);
	if (nwritten == 0 && nlinked == 0)
		add(&j, FS_FIND_NO_UPSTREAM, FS_CID_NONE, NULL, "exact");
	for (i = 0; i < ctx->nreports; i++) {
		const struct fs_report_mail *r = &ctx->reports[i];
		struct fs_finding *f;
		for (k = 0; k < nups; k++)
			if (ups[k] == r->upstream)
				break;
		if (k == nups)
			continue;
		f = add(&j, FS_FIND_REGRESSION_REPORT, r->upstream, NULL, "mail");
		if (!f)
			continue;
		f->message_id = dup_or_null(r->message_id);
		f->from = dup_or_null(r->from);
		f->date = dup_or_null(r->date);
		set_note(&j, f, fmt("\"%s\"", r->subject ? r->subject : ""));
	}
	for (i = 0; i < ctx->nobjections; i++) {
		const struct fs_objection *o = &ctx->objections[i];
		struct fs_finding *f;
		if (o->series_index != index || index < 0)
			continue;
		f = add(&j, FS_FIND_OBJECTION, FS_CID_NONE, NULL, "mail");
		if (!f)
			continue;
		f->message_id = dup_or_null(o->message_id);
		f->from = dup_or_null(o->from);
		f->date = dup_or_null(o->date);
		set_note(&j, f, dup_or_null(o->line));
	}
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
