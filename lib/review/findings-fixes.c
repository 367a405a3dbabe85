/* fixscan: the checks of a patch's upstream commit against what came
 * after it in mainline and the branch: applied already, twice in the
 * series, fixed or reverted since (and what became of those fixes),
 * fixed according to a CVE record. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "findings-private.h"

/* ---- the checks ----------------------------------------------------------- */

static char *stated_reason(const char *msg);

/* The branch had U and reverted it: the patch applies it again.  Not a
 * duplicate; a warning sign, with the revert's reason. */
static void reapplies(struct judge *j, const struct fs_index_presence *p)
{
	struct fs_finding *f = fsj_add(j, FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_STABLE_REVERT,
				   p->reverted_by, NULL, FS_FEV_REVERT);
	char hex[41], *msg = NULL, *was;

	if (!f)
		return;
	fsj_set_stable(j, f, p->reverted_by);
	was = fsj_was_reverted(j, f, p);
	fsj_set_note(j, f, was ? fsj_fmt("%s: this patch applies it again", was) : NULL);
	g_free(was);
	if (!j->ctx->message)
		return;
	fs_index_commit_hex(j->idx, p->reverted_by, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) == 0 && msg)
		f->revert.reason = stated_reason(msg);
	g_free(msg);
}

void fsj_check_applied(struct judge *j, fs_cid u)
{
	struct fs_index_presence p;
	const char *rel;
	char hex[41];
	struct fs_finding *f;

	if (!fsj_in_branch(j, u, &p)) {
		if (p.reverted_by != FS_CID_NONE)
			reapplies(j, &p);
		return;
	}
	rel = fs_index_commit_release(j->idx, p.brought);
	fs_index_commit_hex(j->idx, p.brought, hex);
	if (p.brought == u) {
		f = fsj_add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, u, NULL, FS_FEV_EXACT);
		fsj_set_note(j, f, fsj_fmt("already in %s by ancestry: %s released it before %s forked",
				   j->ctx->branch, rel, j->ctx->branch));
	} else if (fs_index_commit_is_mainline(j->idx, p.brought)) {
		f = fsj_add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, p.brought, NULL, FS_FEV_EXACT);
		fsj_set_note(j, f, fsj_fmt("already in %s by ancestry as %.12s, the same change: %s released it before %s forked",
				   j->ctx->branch, hex, rel, j->ctx->branch));
	} else {
		/* The duplicate is what the reviewer looks up: name the
		 * branch's commit, and its upstream in the note. */
		f = fsj_add(j, FS_FIND_ALREADY_APPLIED, FS_CAUSE_DUPLICATE, p.brought, NULL, FS_FEV_EXACT);
		fsj_set_stable(j, f, p.brought);
		fsj_set_note(j, f, fsj_fmt("already backported to %s as %.12s%s%s", j->ctx->branch, hex,
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

void fsj_check_series_duplicate(struct judge *j, fs_cid u)
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
	f = fsj_add(j, FS_FIND_DUPLICATE_IN_SERIES, FS_CAUSE_DUPLICATE, u, NULL, FS_FEV_EXACT);
	if (!f)
		return;
	f->series_index = first;
	fsj_set_note(j, f, fsj_fmt("patch %0*d of this series carries the same upstream commit",
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
	f->chain = g_try_malloc0_n(n, sizeof(*f->chain));
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
			out = g_try_malloc((size_t)(end - p) + 1);
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
	struct fs_finding *f = fsj_add(j, FS_FIND_REVERTED_IN_STABLE, FS_CAUSE_STABLE_REVERT, fx,
				   NULL, FS_FEV_REVERT);
	const char *rel = fs_index_commit_release(j->idx, fx);
	char hex[41], *msg = NULL;

	*out = f;
	if (!f)
		return;
	fsj_set_stable(j, f, fx);
	fsj_set_note(j, f, fsj_fmt("reverted in %s%s%s, a stable-only revert",
			   fs_index_commit_branch(j->idx, fx), rel ? " " : "", rel ? rel : ""));
	if (!j->ctx->message)
		return;
	fs_index_commit_hex(j->idx, fx, hex);
	if (j->ctx->message(j->ctx->message_data, hex, &msg) == 0 && msg)
		f->revert.reason = stated_reason(msg);
	g_free(msg);
}

/* A fix or revert of U that no mainline fix tag or revert chain covers:
 * a stable-only commit. */
static struct fs_finding *stable_only_fix(struct judge *j, const struct fs_index_fix *fx)
{
	struct fs_finding *f = NULL;
	const char *rel = fs_index_commit_release(j->idx, fx->fixer);
	enum fs_finding_evidence ev = fx->revert ? FS_FEV_REVERT : fsj_fev(fx->evidence);

	if (fsj_in_branch(j, fx->fixer, NULL)) {
		f = fsj_add(j, FS_FIND_FIX_PRESENT, FS_CAUSE_STABLE_FIX, fx->fixer, NULL, ev);
		fsj_set_stable(j, f, fx->fixer);
	} else if (fx->revert) {
		stable_revert_elsewhere(j, fx->fixer, &f);
	} else {
		f = fsj_add(j, FS_FIND_FIX_MISSING, FS_CAUSE_STABLE_FIX, fx->fixer, NULL, ev);
		fsj_set_note(j, f, fsj_fmt("fixed in %s%s%s, a stable-only fix",
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
	enum fs_finding_evidence ev = fx->revert ? FS_FEV_REVERT : fsj_fev(fx->evidence);
	struct fs_finding *f;
	struct fs_index_presence p;
	fs_cid via;
	char hex[41], *was;
	int nn;

	if ((nn = fsj_in_series(j, fx->fixer)) >= 0) {
		f = fsj_add(j, FS_FIND_FIX_QUEUED, cause, fx->fixer, NULL, ev);
		if (f)
			f->series_index = nn;
	} else if (fsj_in_branch(j, fx->fixer, &p)) {
		f = fsj_add(j, FS_FIND_FIX_PRESENT, cause, fx->fixer, NULL, ev);
		via = p.brought;
		if (via != fx->fixer && via != FS_CID_NONE) {
			fsj_set_stable(j, f, via);
			fs_index_commit_hex(j->idx, via, hex);
			fsj_set_note(j, f, fsj_fmt("in %s as %.12s%s%s", j->ctx->branch, hex,
					   fs_index_commit_release(j->idx, via) ? " in " : "",
					   fs_index_commit_release(j->idx, via) ?
					   fs_index_commit_release(j->idx, via) : ""));
		}
	} else if (reverts_root) {
		f = fsj_add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT, fx->fixer, NULL, FS_FEV_REVERT);
	} else {
		f = fsj_add(j, FS_FIND_FIX_MISSING, cause, fx->fixer, NULL, ev);
		if (f && p.reverted_by != FS_CID_NONE) {
			/* The branch had it and reverted it: missing, and
			 * said so. */
			if (p.brought != fx->fixer)
				fsj_set_stable(j, f, p.brought);
			was = fsj_was_reverted(j, f, &p);
			fsj_set_note(j, f, was ? fsj_fmt("%s: missing", was) : NULL);
			g_free(was);
		}
	}
	return f;
}

/* FX fixes the patch, but mainline reverted it (by REVERT, the last of
 * an odd chain): nothing to queue, and said so. */
static struct fs_finding *fix_reverted(struct judge *j, const struct fs_index_fix *fx,
				       fs_cid revert)
{
	struct fs_finding *f = fsj_add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_FIX_REVERTED, fx->fixer,
				   NULL, fsj_fev(fx->evidence));
	const char *rel = fs_index_commit_release(j->idx, revert);
	char hex[41], rhex[41];

	if (!f)
		return NULL;
	fs_index_commit_hex(j->idx, fx->fixer, hex);
	fs_index_commit_hex(j->idx, revert, rhex);
	f->revert.commit = g_strdup(rhex);
	f->revert.release = fsj_dup_or_null(rel);
	if (!f->revert.commit)
		j->oom = 1;
	fsj_set_note(j, f, fsj_fmt("fixed by %.12s, which %.12s%s%s reverted: nothing to queue", hex, rhex,
			   rel ? " in " : "", rel ? rel : ""));
	return f;
}

/* U was reverted by FIRST and applied again by LAST, a revert of a revert
 * (of ...): say so, and ask for nothing. */
static struct fs_finding *reapplied(struct judge *j, fs_cid first, fs_cid last)
{
	struct fs_finding *f = fsj_add(j, FS_FIND_REVERTED_UPSTREAM, FS_CAUSE_REVERT_OF_REVERT,
				   first, NULL, FS_FEV_REVERT);
	const char *rel = fs_index_commit_release(j->idx, last);
	char hex[41];

	if (!f)
		return NULL;
	fs_index_commit_hex(j->idx, last, hex);
	f->revert.reapplied_commit = g_strdup(hex);
	f->revert.reapplied_release = fsj_dup_or_null(rel);
	if (!f->revert.reapplied_commit)
		j->oom = 1;
	fsj_set_note(j, f, fsj_fmt("applied again by %.12s%s%s, a revert of the revert: nothing to queue",
			   hex, rel ? " in " : "", rel ? rel : ""));
	return f;
}

/* Whether FIXES[I] is no fix of U to judge (GONE[I] gets the answer):
 * under an entry that is not (the fixes of a fix mainline reverted, of a
 * revert of a fix); a mainline revert of anything but U's own chain (the
 * revert of a fix is not a fix of the patch: it is reported through the
 * fix it reverts); this branch's own revert of a backport (of U:
 * fsj_check_applied() says it; of a fix: the fix's presence does).  Another
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
void fsj_check_fixes(struct judge *j, fs_cid u)
{
	struct fs_index_fix *fixes = NULL;
	int nf = fs_index_fixes_of(j->idx, u, &fixes), i, last = -1, first = -1;
	unsigned *rd, maxd = 0;
	bool *gone;

	if (nf < 0 || !(rd = g_try_malloc0_n((size_t)nf + 1, sizeof(*rd)))) {
		g_free(fixes);
		j->oom = 1;
		return;
	}
	if (!(gone = g_try_malloc0_n((size_t)nf + 1, sizeof(*gone)))) {
		g_free(rd);
		g_free(fixes);
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

		if (not_a_fix(j, u, fixes, nf, i, rd, gone) || fsj_is_own(j, fx->fixer))
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
	g_free(gone);
	g_free(rd);
	g_free(fixes);
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
	g = g_try_realloc(f->chain, (f->nchain + 1) * sizeof(*g));
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
	struct fs_index_fix fx = { .fixer = fix, .fixed = u, .depth = 1, .evidence = FS_EVIDENCE_EXACT };
	struct fs_index_fix *more = NULL;
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
		if (fsj_is_own(j, more[i].fixer) || more[i].fixer == u ||
		    among_fixes(known, nknown, more[i].fixer))
			continue;
		if (!fs_index_commit_is_mainline(j->idx, more[i].fixer))
			f = stable_only_fix(j, &more[i]);
		else
			f = mainline_fix(j, &more[i], false);
		set_chain(j, f, fix, more, (size_t)nm, (size_t)i);
		chain_from(j, f, u);
	}
	g_free(more);
}

/* The fixes of U that the kernel CNA records (a CVE whose .vulnerable
 * names U) and the index does not already know as fixes of U. */
void fsj_check_cve_fixes(struct judge *j, fs_cid u)
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
		    fsj_is_own(j, fix) || !fs_index_commit_is_mainline(j->idx, fix) ||
		    among_fixes(known, nk, fix))
			continue;
		cve_fix(j, u, fix, known, nk);
	}
	g_free(known);
}
