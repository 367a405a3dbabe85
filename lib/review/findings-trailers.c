/* fixscan: the checks of what a patch's own trailers name: the commits
 * its Fixes: tags name and the branch lacks, prerequisites, reverts of
 * commits, and upstream ids that name no commit. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "findings-private.h"

/* Is the commit C (a Fixes target, a prerequisite) available to the
 * patch: in the branch, in this series, or brought by the patch itself? */
static bool available(struct judge *j, fs_cid c)
{
	if (fsj_in_branch(j, c, NULL))
		return true;
	c = fsj_mainline_of(j->idx, c);
	return fsj_is_own(j, c) || fsj_in_series(j, c) >= 0;
}

static void target_absent(struct judge *j, fs_cid t, enum fs_finding_cause cause,
			  enum fs_finding_evidence ev)
{
	struct fs_finding *f = fsj_add(j, FS_FIND_TARGET_ABSENT, cause, t, NULL, ev);

	fsj_set_note(j, f, fsj_fmt("the commit it %s is neither in %s%s%s nor in this series",
			   cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes",
			   j->ctx->branch, j->ctx->base ? " as of " : "",
			   j->ctx->base ? j->ctx->base : ""));
}

static void check_mismatch(struct judge *j, const struct fs_trailer_ref *fx, fs_cid t)
{
	fs_cid by_id[2];
	struct fs_finding *f;

	f = fsj_add(j, FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_SUBJECT_MISMATCH, t, NULL, FS_FEV_SUBJECT);
	if (fs_index_resolve_all(j->idx, fx->id, by_id, 2) == 1)
		fsj_set_note(j, f, fsj_fmt("Fixes: %s is the id of \"%s\"; the quoted subject is that of this commit",
				   fx->id, fs_index_commit_subject(j->idx, by_id[0])));
	else
		fsj_set_note(j, f, fsj_fmt("Fixes: %s is not a known id; the quoted subject is that of this commit",
				   fx->id));
}

void fsj_check_targets(struct judge *j, const struct fs_trailers *tags)
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
			f = fsj_add(j, FS_FIND_FIXES_TAG_MISMATCH, FS_CAUSE_STABLE_ID,
				m != FS_CID_NONE ? m : t, NULL, FS_FEV_STABLE);
			fsj_set_note(j, f, fsj_fmt("Fixes: %s names the %s commit %.12s%s%s, not a mainline id",
					   fx[i].id, fs_index_commit_branch(j->idx, t), hex,
					   fs_index_commit_release(j->idx, t) ? " in " : "",
					   fs_index_commit_release(j->idx, t) ?
					   fs_index_commit_release(j->idx, t) : ""));
			if (fsj_in_branch(j, t, NULL))
				continue;
			if (m != FS_CID_NONE)
				t = m;
		}
		if (available(j, t))
			continue;
		target_absent(j, t, FS_CAUSE_TARGET, mismatch ? FS_FEV_SUBJECT : fsj_fev(ev));
	}
}

void fsj_check_deps(struct judge *j, const struct fs_trailers *tags)
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
		p = fsj_resolve_id(j->idx, cc[i].prerequisite, NULL, &nmatch);
		if (p != FS_CID_NONE && fs_index_commit_is_merge(j->idx, p))
			continue; /* a merge is never a prerequisite */
		if (p == FS_CID_NONE) {
			f = fsj_add(j, FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, FS_CID_NONE,
				cc[i].prerequisite, FS_FEV_PREFIX);
			if (f)
				f->unresolved = j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE :
						FS_CAUSE_NOT_FOUND;
			fsj_set_note(j, f, fsj_fmt(j->ctx->stale_clone ?
					   "named as a prerequisite, but not in your clone, which is older than this thread" :
					   "named as a prerequisite, but not in the kernel repository"));
			continue;
		}
		if (available(j, p))
			continue;
		f = fsj_add(j, FS_FIND_DEP_MISSING, FS_CAUSE_PREREQUISITE, fsj_mainline_of(j->idx, p), NULL,
			fsj_fev_len(cc[i].prerequisite));
		fsj_set_note(j, f, fsj_fmt("named as a prerequisite; neither in %s nor in this series",
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
		f = fsj_add(j, FS_FIND_DEP_MISSING, FS_CAUSE_STABLE_DEP_OF, t,
			t == FS_CID_NONE ? sd[i].id : NULL,
			t == FS_CID_NONE ? FS_FEV_PREFIX : fsj_fev(ev));
		if (f && t == FS_CID_NONE)
			f->unresolved = j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE : FS_CAUSE_NOT_FOUND;
		fsj_set_note(j, f, fsj_fmt("this patch is a prerequisite (Stable-dep-of) of a commit that is neither in %s nor in this series",
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
	g_free(x);
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

void fsj_check_reverts(struct judge *j, const struct fs_trailers *tags, const char *title,
			  size_t *nlinked)
{
	const struct fs_trailer_revert *rv;
	struct fs_index_ref refs[16];
	size_t n, i, k, nmatch;
	char hex[41], uhex[41];

	rv = fs_trailers_reverts(tags, &n);
	for (i = 0; i < n; i++) {
		fs_cid r = fsj_resolve_id(j->idx, rv[i].id, NULL, &nmatch), u;
		enum fs_finding_evidence ev = fsj_fev_len(rv[i].id);
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
			u = fsj_resolve_id(j->idx, rv[i].upstream, NULL, &nmatch);
		f = fsj_add(j, FS_FIND_REVERTS_STABLE, FS_CAUSE_STABLE_REVERT,
			u != FS_CID_NONE ? u : r, NULL, FS_FEV_REVERT);
		fsj_set_stable(j, f, r);
		fs_index_commit_hex(j->idx, r, hex);
		if (u != FS_CID_NONE) {
			fs_index_commit_hex(j->idx, u, uhex);
			if (fs_index_in_branch(j->idx, u, j->ctx->branch, j->ctx->base)) {
				if (f)
					f->cause = FS_CAUSE_DUPLICATE;
				fsj_set_note(j, f, fsj_fmt("reverts %.12s of %s, the backport of %.12s, which the branch has by ancestry: the backport was a duplicate",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
			} else {
				fsj_set_note(j, f, fsj_fmt("reverts %.12s of %s, the backport of %.12s",
						   hex, fs_index_commit_branch(j->idx, r), uhex));
			}
		} else {
			fsj_set_note(j, f, fsj_fmt("reverts %.12s of %s", hex, fs_index_commit_branch(j->idx, r)));
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
					    fsj_fev(ev));
		}
	}
}

/* An upstream id WRITTEN (or none, "") that names no commit, where the
 * patch's subject and author are those of one mainline commit: say so.
 * With an id, the patch is reviewed as that commit
 * (fs_findings_resolve_patch()); without one, only named: no diff
 * compared, no verdict on a guess.  Returns whether it matched. */
bool fsj_by_subject(struct judge *j, const char *written, const char *title,
		       bool same_diff)
{
	fs_cid c = fsj_by_subject_author(j->idx, title, j->ctx->author);
	struct fs_finding *f;
	char hex[41];

	if (c == FS_CID_NONE)
		return false;
	f = fsj_add(j, *written ? FS_FIND_UNKNOWN_UPSTREAM : FS_FIND_NO_UPSTREAM,
		FS_CAUSE_SUBJECT_AUTHOR, c, NULL, FS_FEV_SUBJECT);
	if (!f)
		return true;
	if (!(f->written = g_strdup(written)))
		j->oom = 1;
	fs_index_commit_hex(j->idx, c, hex);
	if (*written)
		fsj_set_note(j, f, fsj_fmt("upstream id %s is no commit; the subject and author are those of %.12s (\"%s\")",
				   written, hex, fs_index_commit_subject(j->idx, c)));
	else
		fsj_set_note(j, f, fsj_fmt("no upstream id; the subject%s and author are those of %.12s (\"%s\")%s",
				   same_diff ? ", diff" : "", hex, fs_index_commit_subject(j->idx, c),
				   same_diff ? ": reviewed as its backport" : ""));
	return true;
}

void fsj_check_unknown(struct judge *j, const struct fs_trailers *tags, const char *title)
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

		if (nm == 1 || (nm > 1 && fsj_resolve_id(j->idx, written[i], title, &nmatch) != FS_CID_NONE))
			continue;
		if (nm == 0 && fsj_by_subject(j, written[i], title, false))
			continue;
		why = nm ? FS_CAUSE_AMBIGUOUS :
		      j->ctx->stale_clone ? FS_CAUSE_NOT_IN_CLONE : FS_CAUSE_NOT_FOUND;
		f = fsj_add(j, FS_FIND_UNKNOWN_UPSTREAM, why, FS_CID_NONE, written[i],
			fsj_fev_len(written[i]));
		if (f)
			f->unresolved = why;
		fsj_set_note(j, f, why == FS_CAUSE_AMBIGUOUS ?
				fsj_fmt("the id is ambiguous: it matches %zu commits", nm) :
			       why == FS_CAUSE_NOT_IN_CLONE ?
				fsj_fmt("the id is not in your clone, whose mainline is older than this thread") :
				fsj_fmt("the id is not in the kernel repository"));
	}
}
