/* fixscan: judging one stable patch against the fixes index: the
 * finding record (names, clearing, counting), the resolution of upstream
 * ids, and fs_findings_judge(), which runs the checks of findings-*.c in
 * order with the tools of findings-judge.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/text.h"
#include "findings-private.h"

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
	[FS_CAUSE_UNREADABLE] = "unreadable",
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

char *fs_finding_mail_link(const struct fs_finding *f)
{
	char *id, *link;

	if (f->mail.link)
		return fs_text_clean_id(f->mail.link);
	if (!(id = fs_text_clean_id(f->mail.message_id)))
		return NULL;
	link = g_strconcat("https://lore.kernel.org/r/", id, NULL);
	g_free(id);
	return link;
}

const char *fs_finding_cause_name(enum fs_finding_cause cause)
{
	return (unsigned)cause < FS_CAUSE_COUNT ? cause_names[cause] : "unknown";
}

const char *fs_finding_evidence_name(enum fs_finding_evidence ev)
{
	return (unsigned)ev < FS_FEV_COUNT ? evidence_names[ev] : "unknown";
}

static void free_strv(char **v, size_t n)
{
	size_t i;

	for (i = 0; v && i < n; i++)
		g_free(v[i]);
	g_free(v);
}

static void finding_clear(struct fs_finding *f)
{
	free_strv(f->cves, f->ncves);
	g_free(f->subject);
	g_free(f->release);
	g_free(f->branch);
	g_free(f->revert.reapplied_commit);
	g_free(f->revert.reapplied_release);
	g_free(f->revert.commit);
	g_free(f->revert.release);
	g_free(f->written);
	g_free(f->revert.reason);
	g_free(f->stable_commit);
	g_free(f->stable_release);
	g_free(f->chain);
	g_free(f->mail.message_id);
	g_free(f->ref);
	g_free(f->mail.from);
	g_free(f->mail.date);
	g_free(f->mail.link);
	g_free(f->mail.round);
	g_free(f->note);
	g_free(f->ignored);
	g_free(f->settled);
	g_free(f->cross.newer_branch);
	g_free(f->cross.newer_release);
	g_free(f->cross.newer_last_release);
	for (size_t i = 0; i < f->cross.nqueued; i++) {
		g_free(f->cross.queued[i].branch);
		g_free(f->cross.queued[i].release);
		g_free(f->cross.queued[i].message_id);
	}
	g_free(f->cross.queued);
	g_free(f->cross.failed_message_id);
	g_free(f->cross.failed_date);
	free_strv(f->diff.files_dropped, f->diff.nfiles_dropped);
	free_strv(f->diff.files_added, f->diff.nfiles_added);
	free_strv(f->diff.lines, f->diff.nlines);
	for (size_t i = 0; i < f->posting.nparts; i++) {
		g_free(f->posting.parts[i].subject);
		g_free(f->posting.parts[i].release);
	}
	g_free(f->posting.parts);
	for (size_t i = 0; i < f->tree.nsymbols; i++) {
		g_free(f->tree.symbols[i].name);
		g_free(f->tree.symbols[i].tag);
		g_free(f->tree.symbols[i].file);
	}
	g_free(f->tree.symbols);
	free_strv(f->tree.files, f->tree.nfiles);
}

void fs_findings_clear(struct fs_findings *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		finding_clear(&f->v[i]);
	g_free(f->v);
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
		c = fsj_mainline_of(idx, fsj_resolve_id(idx, ups[i], title, &nmatch));
		/* An id that names nothing: the rest of the evidence. */
		if (c == FS_CID_NONE && nmatch == 0)
			c = fsj_by_subject_author(idx, title, author);
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
	    (c = fsj_by_subject_author(idx, title, author)) != FS_CID_NONE &&
	    fs_index_diff_matches(idx, c, body, body_len) == 1)
		out[n++] = c;
	return n;
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
		if (fsj_add_cves(&out->upstream_cves, &out->nupstream_cves, ctx->vulns, hex) < 0)
			j.oom = 1;
	}
	fsj_check_unknown(&j, tags, title);
	for (i = 0; i < nups; i++) {
		fsj_check_series_duplicate(&j, ups[i]);
		fsj_check_applied(&j, ups[i]);
		fsj_check_fixes(&j, ups[i]);
		fsj_check_cve_fixes(&j, ups[i]);
	}
	fsj_check_targets(&j, tags);
	fsj_check_deps(&j, tags);
	fsj_check_reverts(&j, tags, title, &nlinked);
	/* a changelog that could not be read lacks nothing it can be
	 * told of */
	if (nwritten == 0 && nlinked == 0 && !ctx->unreadable && !fsj_by_subject(&j, "", title, nups > 0))
		fsj_add(&j, FS_FIND_NO_UPSTREAM, FS_CAUSE_NONE, FS_CID_NONE, NULL, FS_FEV_EXACT);
	if (index >= 0)
		fsj_check_mail(&j, ups, nups, index);
	/* after every check: what the thread settled may be any of them */
	fsj_check_diff(&j, ups, nups);
	fsj_check_diff_absent(&j);
	fsj_check_pending(&j, ups, nups);
	for (i = 0; i < nups; i++)
		fsj_check_series_partial(&j, ups[i]);
	if (index >= 0)
		fsj_apply_settled(&j, index);
	if (ctx->ignore) {
		for (i = 0; i < out->n; i++) {
			const char *why = fs_ignore_match(ctx->ignore, out->v[i].commit, out->upstream);
			if (why && !(out->v[i].ignored = g_strdup(why)))
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
	fsj_add_replies(&j, -1);
	fsj_apply_settled(&j, -1);
	if (j.oom)
		return fs_error_set(err, FS_ENOMEM, "out of memory");
	return 0;
}
