/* fixscan: what mail says of a patch: the replies in its thread and
 * the fixes posted (or in a pending tree) but not in mainline yet. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/text.h"
#include "findings-private.h"

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

/* The reply's own fields on F: who said it, where, its sentence. */
static void said_by(struct judge *j, struct fs_finding *f, const struct fs_objection *o)
{
	if (!f)
		return;
	f->mail.message_id = fsj_dup_or_null(o->message_id);
	f->mail.from = fsj_dup_or_null(o->from);
	f->mail.date = fsj_dup_or_null(o->date);
	f->mail.link = fsj_dup_or_null(o->link);
	f->mail.round = fsj_dup_or_null(o->round);
	f->mail.own = o->own;
	f->mail.unkept = o->unkept;
	fsj_set_note(j, f, fsj_dup_or_null(o->line));
	f->mail.absent_index = o->series_index < 0 ? o->absent_index : 0;
}

/* A needs-also finding for each commit the reply O names, resolved in
 * the index: the branch having it (STABLE_COMMIT, the backport or the
 * commit) or the series queuing it (SERIES_INDEX) asks for nothing.  The
 * patch's own upstream commit is no other commit to take: a reply naming
 * it speaks of this patch ("reverting it fixes the hang"), and when it
 * names no other, it reports trouble with the patch (regression-report). */
static void add_needs_also(struct judge *j, const struct fs_objection *o)
{
	size_t i, nmatch, asked = 0;

	for (i = 0; i < o->nnamed; i++) {
		fs_cid c = fsj_resolve_id(j->idx, o->named[i], NULL, &nmatch);
		struct fs_index_presence p;
		struct fs_finding *f;

		c = fsj_mainline_of(j->idx, c);
		if (c != FS_CID_NONE && fsj_is_own(j, c))
			continue;
		asked++;
		f = fsj_add(j, FS_FIND_NEEDS_ALSO, FS_CAUSE_NONE, c, c == FS_CID_NONE ? o->named[i] : NULL,
			c == FS_CID_NONE ? FS_FEV_PREFIX : fsj_fev_len(o->named[i]));
		if (!f)
			continue;
		if (c == FS_CID_NONE)
			f->unresolved = nmatch > 1 ? FS_CAUSE_AMBIGUOUS : FS_CAUSE_NOT_FOUND;
		else if (j->ctx->branch && fsj_in_branch(j, c, &p))
			fsj_set_stable(j, f, p.brought != FS_CID_NONE ? p.brought : c);
		else if (j->ctx->branch)
			f->series_index = fsj_in_series(j, c);
		said_by(j, f, o);
	}
	if (!asked)
		said_by(j, fsj_add(j, FS_FIND_REGRESSION_REPORT, FS_CAUSE_NONE, FS_CID_NONE, NULL,
				   FS_FEV_MAIL), o);
}

void fsj_check_mail(struct judge *j, const fs_cid *ups, size_t nups, int index)
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
		f = fsj_add(j, FS_FIND_REGRESSION_REPORT, FS_CAUSE_NONE, r->upstream, NULL, FS_FEV_MAIL);
		if (!f)
			continue;
		f->mail.message_id = fsj_dup_or_null(r->message_id);
		f->mail.from = fsj_dup_or_null(r->from);
		f->mail.date = fsj_dup_or_null(r->date);
		f->mail.link = fsj_dup_or_null(r->link);
		fsj_set_note(j, f, fsj_fmt("\"%s\"", r->subject ? r->subject : ""));
	}
	fsj_add_replies(j, index);
}

/* A finding for each reply of CTX placed at patch INDEX (-1: placed at
 * no patch, the series' own). */
void fsj_add_replies(struct judge *j, int index)
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
		f = fsj_add(j, reply_kind(o->cls), FS_CAUSE_NONE, FS_CID_NONE, NULL, FS_FEV_MAIL);
		said_by(j, f, o);
	}
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
		    (p->message_id && g->mail.message_id && !strcmp(g->mail.message_id, p->message_id)))
			return true;
	}
	return false;
}

/* fix-pending: each fix (or revert) of one of the patch's upstream
 * commits UPS that mainline does not have yet, once however many of UPS
 * it fixes.  A posted fix names its mail (subject, from, date, message
 * id), a pending ref's its commit and ref (both when the commit is the
 * mail's patch); the note names the commit it fixes. */
void fsj_check_pending(struct judge *j, const fs_cid *ups, size_t nups)
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
		f = fsj_add(j, FS_FIND_FIX_PENDING, p->revert ? FS_CAUSE_REVERT : FS_CAUSE_FIX,
			FS_CID_NONE, p->commit, p->message_id ? FS_FEV_MAIL : FS_FEV_EXACT);
		if (!f)
			continue;
		f->subject = fsj_dup_or_null(p->commit ? p->title : p->subject);
		f->mail.message_id = fsj_dup_or_null(p->message_id);
		f->mail.from = fsj_dup_or_null(p->from);
		f->mail.date = fsj_dup_or_null(p->date);
		f->mail.link = fsj_dup_or_null(p->link);
		f->ref = fsj_dup_or_null(p->ref);
		fs_index_commit_hex(j->idx, p->upstream, hex);
		fsj_set_note(j, f, fsj_fmt("%s %.12s", p->revert ? "reverts" : "fixes", hex));
	}
}

/* Whether F of J asks for a commit that one of the ids NAMED (N, as
 * written, 8 to 40 hex digits) abbreviates: a fix, a prerequisite, a
 * reply's request. */
static bool asks_named(const struct fs_finding *f, char *const *named, size_t n)
{
	size_t i;

	if ((f->kind != FS_FIND_NEEDS_ALSO && f->kind != FS_FIND_FIX_MISSING &&
	     f->kind != FS_FIND_DEP_MISSING) || !f->commit[0])
		return false;
	for (i = 0; i < n; i++)
		if (!g_ascii_strncasecmp(f->commit, named[i], strlen(named[i])))
			return true;
	return false;
}

/* Mark F of J settled by SAID (taken), unless it is already. */
static void settle(struct judge *j, struct fs_finding *f, const char *said)
{
	if (f->settled)
		return;
	if (!(f->settled = g_strdup(said)))
		j->oom = 1;
}

void fsj_apply_settled(struct judge *j, int index)
{
	const struct fs_findings_ctx *ctx = j->ctx;
	size_t i, k;

	for (i = 0; i < ctx->nobjections; i++) {
		const struct fs_objection *o = &ctx->objections[i];
		char *who, *said;

		/* a drop said to the cover is of some patch, not the series */
		if (o->series_index != index || o->settle == FS_SETTLE_NONE ||
		    (o->settle == FS_SETTLE_DROPPED && index < 0))
			continue;
		who = fs_text_display_name(o->settled_by, "a stable maintainer");
		said = o->settle == FS_SETTLE_DROPPED ?
			g_strdup_printf("the patch dropped by %s in the thread", who) :
			g_strdup_printf("taken by %s in the thread", who);
		/* dropped: nothing of the patch asks for more; taken: the
		 * reply's requests, and the same commits asked by fixscan */
		for (k = 0; k < j->out->n; k++) {
			struct fs_finding *f = &j->out->v[k];

			if (o->settle == FS_SETTLE_DROPPED ||
			    (f->mail.message_id && o->message_id && !strcmp(f->mail.message_id, o->message_id)) ||
			    asks_named(f, o->named, o->nnamed))
				settle(j, f, said);
		}
		g_free(said);
		g_free(who);
	}
}
