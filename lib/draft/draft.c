/* fixscan: which drafts a review gets (the policy) and the body of the
 * reply to one patch: a paragraph per finding, worded by the table of
 * kinds (fixscan/kinds.h), in its order of action.  The summary is in
 * draft-summary.c, composing in draft-compose.c, the words in
 * draft-text.c. */
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "fixscan/draft.h"
#include "fixscan/kinds.h"
#include "draft-private.h"

int fs_draft_mode_from_name(const char *name)
{
	if (!name || !strcmp(name, "all"))
		return FS_DRAFTS_ALL;
	if (!strcmp(name, "summary"))
		return FS_DRAFTS_SUMMARY;
	if (!strcmp(name, "patches"))
		return FS_DRAFTS_PATCHES;
	return -1;
}

/* The opening of the reply to patch RP: the attribution and the lines
 * of its mail the reply speaks of (the upstream line, the lines naming
 * the commits of its findings).  New string, ending in "\n". */
static char *patch_quote(const struct fs_review_patch *rp)
{
	GString *s = g_string_new(NULL);
	GPtrArray *ids = g_ptr_array_new();
	size_t i, nup = 0;
	const char *const *up = fs_patch_trailers(rp->patch) ?
				fs_trailers_upstream(fs_patch_trailers(rp->patch), &nup) : NULL;
	bool unreadable = false;

	for (i = 0; i < rp->findings.n; i++)
		unreadable |= rp->findings.v[i].kind == FS_FIND_DIFF_ABSENT &&
			      rp->findings.v[i].cause == FS_CAUSE_UNREADABLE;
	for (i = 0; up && i < nup; i++)
		g_ptr_array_add(ids, (gpointer)up[i]);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (!fsd_is_shown(f))
			continue;
		g_ptr_array_add(ids, (gpointer)f->commit);
		if (f->stable_commit)
			g_ptr_array_add(ids, (gpointer)f->stable_commit);
	}
	/* a mail that could not be read has no line worth quoting */
	if (!unreadable) {
		fsd_add_attribution(s, rp->patch);
		fsd_add_quoted_lines(s, rp->patch, (const char *const *)ids->pdata, ids->len);
	}
	g_ptr_array_free(ids, TRUE);
	return g_string_free(s, FALSE);
}

/* Whether the reply to RP asks for commits to be queued with it. */
static bool asks_to_queue(const struct fs_review_patch *rp)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (fsd_is_shown(f) && (f->kind == FS_FIND_FIX_MISSING || f->kind == FS_FIND_DEP_MISSING ||
					f->kind == FS_FIND_SYMBOL_MISSING || f->kind == FS_FIND_MISSING_IN_NEWER))
			return true;
	}
	return false;
}

/* Whether F is the user's own reply in an earlier round's thread: said
 * before by them, pointed to (add_said_before()), never quoted as
 * someone's. */
static bool said_before(const struct fs_finding *f)
{
	return f->mail.own && fsd_is_shown(f);
}

/* "I wrote about this patch on 4.4.7-rc1 too (<link>)." for each of
 * the user's own replies of an earlier round: what follows is asked
 * again, not for the first time. */
static void add_said_before(GString *s, const struct fs_review_patch *rp)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];
		char *round, *id;

		if (!said_before(f))
			continue;
		round = fs_text_clean_line(f->mail.round);
		id = fs_finding_mail_link(f);
		if (id)
			fsd_add_paraf(s, "I wrote about this patch on %s too (%s).", *round ? round : "an earlier round", id);
		else
			fsd_add_paraf(s, "I wrote about this patch on %s too.", *round ? round : "an earlier round");
		g_free(id);
		g_free(round);
	}
}

/* What the reply to RP says: a paragraph per finding, in the order of
 * action.  NULL when nothing is shown.  New string, ending in one "\n". */
static char *patch_findings(const struct fs_review *r, const struct fs_review_patch *rp)
{
	size_t i, k, shown = 0, present = 0;
	bool objected;
	GString *s;

	for (i = 0; i < rp->findings.n; i++) {
		if (!fsd_is_shown(&rp->findings.v[i]))
			continue;
		shown++;
		present += fsd_para_kind(rp->findings.v[i].kind)->scope == FS_PARA_ALONE;
	}
	if (!shown)
		return NULL;

	s = g_string_new(NULL);
	add_said_before(s, rp);
	/* Someone asks to drop it and we ask to queue more with it: their
	 * words first, ours after them, for the case that it stays. */
	objected = fsd_objected(r, rp) && asks_to_queue(rp);
	for (i = 0; objected && i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind == FS_FIND_OBJECTION && fsd_is_shown(f) &&
		    !fsd_same_reply_earlier(&rp->findings, i))
			fsd_para_kind(FS_FIND_OBJECTION)->para(s, r, rp, f);
	}
	for (k = 0; k < FS_FIND_KIND_COUNT; k++) {
		int kind = fsd_kind_by_para_order((int)k);
		const struct fsd_para_kind *row;

		if (kind < 0 || (objected && kind == FS_FIND_OBJECTION))
			continue;
		row = fsd_para_kind(kind);
		if (row->scope == FS_PARA_PATCH) {
			row->para(s, r, rp, NULL);
			continue;
		}
		/* A fix that is there already is worth a line only when
		 * there is nothing else to say. */
		if (row->scope == FS_PARA_ALONE && present != shown)
			continue;
		for (i = 0; i < rp->findings.n; i++) {
			const struct fs_finding *f = &rp->findings.v[i];

			if ((int)f->kind == kind && fsd_is_shown(f) && !said_before(f) &&
			    !fsd_same_reply_earlier(&rp->findings, i))
				row->para(s, r, rp, f);
		}
	}
	/* One newline at the end, no blank line. */
	while (s->len >= 2 && s->str[s->len - 1] == '\n' && s->str[s->len - 2] == '\n')
		g_string_truncate(s, s->len - 1);
	return g_string_free(s, FALSE);
}

char *fs_draft_patch_body(const struct fs_review *r, const struct fs_review_patch *rp)
{
	char *findings = patch_findings(r, rp), *quote, *ret;

	if (!findings)
		return NULL;
	quote = patch_quote(rp);
	ret = g_strconcat(quote, "\n", findings, NULL);
	g_free(quote);
	g_free(findings);
	return ret;
}

/* Append to S the From of each finding of V the draft cites: every
 * shown one for a patch's reply, those the summary lists for the
 * summary (SUMMARY). */
static void add_cited(GString *s, const struct fs_findings *v, bool summary)
{
	size_t i;

	for (i = 0; v && i < v->n; i++) {
		const struct fs_finding *f = &v->v[i];

		if (!fsd_is_shown(f) || !f->mail.from || !*f->mail.from || f->mail.own)
			continue;
		if (summary && !fs_draft_finding_asks(f))
			continue;
		g_string_append_printf(s, "%s%s", s->len ? ", " : "", f->mail.from);
	}
}

/* The people whose mail the reply to RP cites, as an address list for
 * its Cc: the reporter of a regression, the author of a reply (every
 * finding from a mail has its From); for the summary (RP NULL), the
 * authors of the replies to the series it quotes and of every mail a
 * finding it lists comes from.  New string, "" for none. */
static char *cited_people(const struct fs_review *r, const struct fs_review_patch *rp)
{
	GString *s = g_string_new(NULL);
	size_t i;

	if (rp) {
		add_cited(s, &rp->findings, false);
		return g_string_free(s, FALSE);
	}
	if (!r)
		return g_string_free(s, FALSE);
	add_cited(s, &r->series_findings, true);
	for (i = 0; i < r->npatches; i++)
		add_cited(s, &r->patches[i].findings, true);
	return g_string_free(s, FALSE);
}

char *fsd_reply_key(const char *kind, const struct fs_patch *orig)
{
	const char *id = fs_patch_message_id(orig);

	return g_strdup_printf("%s <%s>", kind, id ? id : "");
}

static int append_draft(struct fs_drafts *out, const struct fs_review *r,
			const struct fs_patch *orig, const struct fs_review_patch *rp,
			const struct fs_identity *me, const char *kind,
			const char *label, const char *body, time_t now,
			struct fs_error *err)
{
	char *cc = cited_people(r, rp);
	struct fs_draft d;
	char *key = fsd_reply_key(kind, orig);
	int rc;

	rc = fsd_compose(&d, orig, me, key, label, body, cc, now, err);
	g_free(key);
	g_free(cc);
	if (rc < 0)
		return rc;
	out->v = g_renew(struct fs_draft, out->v, out->n + 1);
	out->v[out->n++] = d;
	return 1;
}

/* Whether patch RP gets a reply of its own: some finding asks the
 * maintainer to act, or EVERY_FINDING. */
static bool patch_asks(const struct fs_review_patch *rp, bool every_finding)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++)
		if (every_finding ? fsd_is_shown(&rp->findings.v[i]) && !said_before(&rp->findings.v[i]) :
		    fs_draft_finding_asks(&rp->findings.v[i]))
			return true;
	return false;
}

/* R as the other replies see it when the reviewer withdrew some (O's
 * WITHHELD): those patches ask for no fix, so that no reply leaves a fix
 * to them or points to what they asked.  A shallow copy (free with
 * view_free()) sharing R's findings, or R itself when none is withheld. */
static const struct fs_review *view_without_withheld(const struct fs_review *r,
						     const struct fs_draft_opts *o)
{
	struct fs_review *v = NULL;
	size_t i, k;

	for (i = 0; o->withheld && i < r->npatches; i++) {
		const struct fs_review_patch *rp = &r->patches[i];
		struct fs_findings *fs;

		if (!o->withheld(o->withheld_data, rp->patch))
			continue;
		if (!v) {
			v = g_new(struct fs_review, 1);
			*v = *r;
			v->patches = g_memdup2(r->patches, (r->npatches + 1) * sizeof(*r->patches));
		}
		fs = &v->patches[i].findings;
		fs->v = g_new(struct fs_finding, rp->findings.n + 1);
		fs->n = 0;
		for (k = 0; k < rp->findings.n; k++)
			if (rp->findings.v[k].kind != FS_FIND_FIX_MISSING)
				fs->v[fs->n++] = rp->findings.v[k];
	}
	return v ? v : r;
}

static void view_free(const struct fs_review *view, const struct fs_review *r)
{
	size_t i;

	if (view == r)
		return;
	for (i = 0; i < view->npatches; i++)
		if (view->patches[i].findings.v != r->patches[i].findings.v)
			g_free(view->patches[i].findings.v);
	g_free(view->patches);
	g_free((struct fs_review *)view);
}

int fs_drafts_build_opts(struct fs_drafts *out, const struct fs_review *r,
			 const struct fs_identity *me, const struct fs_draft_opts *o,
			 struct fs_error *err)
{
	int added = 0, rc, unanswerable = 0;
	const struct fs_patch *cover = r->series ? r->series->cover : NULL;
	const struct fs_review *view;
	char number[32];
	size_t i;

	if (o->template_text && (rc = fs_draft_template_check(o->template_text, err)) < 0)
		return fs_error_prefix(err, "draft template");
	/* One of several branches' reviews: its drafts would answer the
	 * same mails as the others'. */
	if (r->one_of_branches)
		return 0;
	if (o->mode != FS_DRAFTS_PATCHES && cover) {
		char *findings = fsd_summary_findings(r, o->mode == FS_DRAFTS_ALL, o);

		if (findings) {
			char *quote = fsd_summary_quote(cover), *body, *label;

			snprintf(number, sizeof(number), "%s", fs_report_nn(r, 0));
			body = fsd_fill_body(r, cover, me, o, number, quote, findings, err);
			g_free(quote);
			g_free(findings);
			if (!body)
				return err->code;
			label = g_strdup_printf("%s %s", number, fs_patch_title(cover));
			rc = append_draft(out, r, cover, NULL, me, "summary", label, body, o->now, err);
			g_free(label);
			g_free(body);
			if (rc < 0 && rc != FS_EPARSE)
				return rc;
			if (rc == FS_EPARSE)
				unanswerable = rc;
			else
				added += rc;
		}
	}
	if (o->mode == FS_DRAFTS_SUMMARY)
		return added;
	view = view_without_withheld(r, o);
	for (i = 0; i < r->npatches; i++) {
		/* a withheld reply is made as before (the same draft, still
		 * deleted); the others see the review without what it asked */
		const struct fs_review *rv = view->patches[i].findings.v == r->patches[i].findings.v
						     ? view : r;
		const struct fs_review_patch *rp = &rv->patches[i];
		char *findings, *quote, *body, *label;

		if (!patch_asks(rp, o->every_finding))
			continue;
		if (!(findings = patch_findings(rv, rp)))
			continue;
		snprintf(number, sizeof(number), "%s", fs_report_nn(r, rp->index));
		quote = patch_quote(rp);
		body = fsd_fill_body(r, rp->patch, me, o, number, quote, findings, err);
		g_free(quote);
		g_free(findings);
		if (!body) {
			view_free(view, r);
			return err->code;
		}
		label = g_strdup_printf("%s %s", number, fs_patch_title(rp->patch));
		rc = append_draft(out, r, rp->patch, rp, me, FSD_KIND_PATCH, label, body, o->now, err);
		g_free(label);
		g_free(body);
		/* A mail that cannot be answered costs its own draft only. */
		if (rc == FS_EPARSE) {
			unanswerable = rc;
			continue;
		}
		if (rc < 0) {
			view_free(view, r);
			return rc;
		}
		added += rc;
	}
	view_free(view, r);
	return unanswerable ? unanswerable : added;
}

int fs_drafts_build(struct fs_drafts *out, const struct fs_review *r,
		    const struct fs_identity *me, enum fs_draft_mode mode,
		    bool every_finding, time_t now, struct fs_error *err)
{
	struct fs_draft_opts o = FS_DRAFT_OPTS_INIT;

	o.mode = mode;
	o.every_finding = every_finding;
	o.now = now;
	return fs_drafts_build_opts(out, r, me, &o, err);
}
