/* fixscan: the paragraphs a reply to a patch says for each finding kind,
 * and their order (draft.c puts them together).
 *
 * One row per kind, by name, beside the functions that write its words.
 * Text from mail goes through fs_text_clean_line() or fs_text_clean_id()
 * before a draft quotes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "fixscan/text.h"
#include "draft-private.h"

/* ---- the paragraphs of a reply to a patch ------------------------------- */

/* review --all-open: the newer stable branches that lack the patch. */
static void para_missing_in_newer(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *none)
{
	GString *list = g_string_new(NULL);
	size_t i, n = 0, total = 0;
	char *here = fsd_short_branch_name(r->branch);

	for (i = 0; i < rp->findings.n; i++)
		total += rp->findings.v[i].kind == FS_FIND_MISSING_IN_NEWER && fsd_is_shown(&rp->findings.v[i]);
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];
		char *b;

		if (f->kind != FS_FIND_MISSING_IN_NEWER || !fsd_is_shown(f))
			continue;
		b = fsd_short_branch_name(f->cross.newer_branch);
		if (n)
			g_string_append(list, n + 1 == total ? " or " : ", ");
		g_string_append_printf(list, "%s.y", b);
		g_free(b);
		n++;
	}
	if (n)
		fsd_add_paraf(s, "This is not in %s yet, %s: a user upgrading from %s.y would lose the fix. Please queue it there too, or drop it here until it is.",
			  list->str, n == 1 ? "a newer stable branch" : "newer stable branches", here);
	g_string_free(list, TRUE);
	g_free(here);
}

/* "21/27", "21/27 and 22/27": the patches of ASKERS, for a sentence. */
static char *patch_list(const struct fs_review *r, GPtrArray *askers)
{
	GString *s = g_string_new(NULL);
	size_t i;

	for (i = 0; i < askers->len; i++) {
		const struct fs_review_patch *a = g_ptr_array_index(askers, i);

		if (i)
			g_string_append(s, i + 1 == askers->len ? " and " : ", ");
		g_string_append(s, fs_report_nn(r, a->index));
	}
	return g_string_free(s, FALSE);
}

/* The fix-queued finding of RP that fix-missing F fixes in turn, when
 * F is asked for in the reply to the patch that queues that fix: 20/27's
 * follow-up fix is queued as 21/27, and 21/27's reply asks for F.  NULL
 * otherwise. */
static const struct fs_finding *chain_queued(const struct fs_review *r,
					     const struct fs_review_patch *rp,
					     const struct fs_finding *f)
{
	const struct fs_review_patch *a;
	const struct fs_finding *q;

	if (f->kind != FS_FIND_FIX_MISSING || !fsd_is_shown(f) || f->nchain < 3)
		return NULL;
	a = fsd_fix_asker(r, f->commit);
	if (!a || a == rp)
		return NULL;
	q = fsd_queued_finding(rp, f->chain[f->nchain - 2]);
	return q && q->series_index == a->index ? q : NULL;
}

/* "Its follow-up fix 8028d6694e09 (...) is queued as 21/27; that one
 * needs c5fef009a731 (...) in turn, which I asked for in my reply to
 * 21/27.": the fix-queued Q and the fix-missing F of it, in one
 * sentence, in their order. */
static void add_chain_sentence(GString *s, const struct fs_review *r, const struct fs_finding *q,
			       const struct fs_finding *f)
{
	char *qref = fsd_commit_ref(q->commit, q->subject), *fref = fsd_commit_ref(f->commit, f->subject);
	const char *num = fs_report_nn(r, q->series_index);

	fsd_add_paraf(s, "Its follow-up fix %s is queued as %s; that one needs %s in turn, which I asked for in my reply to %s.",
		      qref, num, fref, num);
	g_free(fref);
	g_free(qref);
}

/* Whether F is a fix-missing the reply to RP asks for; else a fix asked
 * for in the reply to another patch, added to ASKERS (once each), unless
 * the sentence of a queued fix says it (chain_queued()). */
static bool fix_asked_here(const struct fs_review *r, const struct fs_review_patch *rp,
			   const struct fs_finding *f, GPtrArray *askers)
{
	const struct fs_review_patch *a;

	if (f->kind != FS_FIND_FIX_MISSING || !fsd_is_shown(f) || chain_queued(r, rp, f))
		return false;
	a = fsd_fix_asker(r, f->commit);
	if (!a || a == rp)
		return true;
	if (!g_ptr_array_find(askers, a, NULL))
		g_ptr_array_add(askers, (gpointer)a);
	return false;
}

/* The closing request of the fix-missing paragraph, for N fixes; when
 * someone asked above to drop the patch (OBJECTED), the request is for
 * the case that it stays. */
static void add_fix_request(GString *s, size_t n, bool subject_only, bool failed,
			    const char *elsewhere, bool objected)
{
	const char *it = n == 1 ? "it" : "them";

	if (objected && !failed) {
		if (subject_only)
			fsd_add_para(s, "(One of these names its target only by subject in its Fixes: tag, so it is worth a second look.)");
		if (elsewhere)
			fsd_add_paraf(s, "If this patch stays, please queue %s as well, as %s does.", it, elsewhere);
		else
			fsd_add_paraf(s, "If this patch stays, please queue %s as well.", it);
		return;
	}
	if (subject_only)
		fsd_add_para(s, "(One of these names its target only by subject in its Fixes: tag, so it is worth a second look.)");
	if (failed)
		fsd_add_para(s, n == 1 ?
			 "It did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one." :
			 "At least one of them did not apply to this branch when it was tagged for stable (the FAILED notice above), so it needs a manual backport: please queue one, or drop this patch until there is one.");
	if (elsewhere && !failed)
		fsd_add_paraf(s, "%s, as %s does.", n == 1 ? "Please queue it as well" : "Please queue them as well",
			  elsewhere);
	else if (!failed)
		fsd_add_para(s, n == 1 ? "Please queue it as well." : "Please queue them as well.");
}

/* The reply F, attributed, in its author's own words: "As X wrote
 * (<link>):" before a request of ours (AS), else "X wrote (<link>):"; not
 * "in reply to this patch": a reply is also placed by what it names. */
static void add_reply_quote(GString *s, const struct fs_finding *f, bool as)
{
	char *who = fsd_display_name(f->mail.from), *line = fs_text_clean_line(f->note);
	char *id = fs_finding_mail_link(f), *round = fs_text_clean_line(f->mail.round);
	const char *pre = as ? "As " : "", *on = *round ? " on " : "";

	if (id)
		fsd_add_paraf(s, "%s%s wrote%s%s (%s):", pre, who, on, round, id);
	else
		fsd_add_paraf(s, "%s%s wrote%s%s:", pre, who, on, round);
	g_free(round);
	fsd_add_quote(s, line);
	g_string_append_c(s, '\n');
	g_free(id);
	g_free(line);
	g_free(who);
}

/* Whether needs-also F of RP asks for a fix that the fix-missing
 * paragraph of RP asks for: its reply is quoted there, before the
 * request, and not again. */
static bool needs_also_folded(const struct fs_review *r, const struct fs_review_patch *rp,
			      const struct fs_finding *f)
{
	size_t i;

	if (f->kind != FS_FIND_NEEDS_ALSO || !fsd_is_shown(f) || !f->commit[0])
		return false;
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *g = &rp->findings.v[i];

		if (g->kind == FS_FIND_FIX_MISSING && fsd_is_shown(g) && !strcmp(g->commit, f->commit) &&
		    fsd_fix_asker(r, g->commit) == rp)
			return true;
	}
	return false;
}


/* Whether the objection O on RP asks to drop it for the revert that RP's
 * reverted-upstream paragraph names (the revert's id, or "reverted
 * upstream", in its words): that paragraph quotes it first ("As X
 * wrote"), and it is not quoted again. */
static bool objection_names_revert(const struct fs_review_patch *rp, const struct fs_finding *o)
{
	size_t i;

	if (o->kind != FS_FIND_OBJECTION || !fsd_is_shown(o) || !o->note)
		return false;
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *g = &rp->findings.v[i];

		if (g->kind != FS_FIND_REVERTED_UPSTREAM || !fsd_is_shown(g) ||
		    g->cause == FS_CAUSE_FIX_REVERTED || g->cause == FS_CAUSE_REVERT_OF_REVERT)
			continue;
		if (g->commit[0]) {
			char hex12[13];

			g_strlcpy(hex12, g->commit, sizeof(hex12));
			if (strcasestr(o->note, hex12))
				return true;
		}
		if (strcasestr(o->note, "reverted upstream") || strcasestr(o->note, "reverted in mainline"))
			return true;
	}
	return false;
}

/* Whether the reply F (of RP) is quoted by the fix-missing paragraph:
 * one of its needs-also findings is folded there. */
static bool reply_folded(const struct fs_review *r, const struct fs_review_patch *rp,
			 const struct fs_finding *f)
{
	size_t i;

	for (i = 0; f->mail.message_id && i < rp->findings.n; i++) {
		const struct fs_finding *g = &rp->findings.v[i];

		if (g->mail.message_id && !strcmp(g->mail.message_id, f->mail.message_id) &&
		    (needs_also_folded(r, rp, g) || objection_names_revert(rp, g)))
			return true;
	}
	return false;
}

bool fsd_objected(const struct fs_review *r, const struct fs_review_patch *rp)
{
	size_t i;

	for (i = 0; i < rp->findings.n; i++)
		if (rp->findings.v[i].kind == FS_FIND_OBJECTION && fsd_is_shown(&rp->findings.v[i]) &&
		    !reply_folded(r, rp, &rp->findings.v[i]))
			return true;
	return false;
}

/* "As Dmitri Orlov wrote (<link>):" and the words of each reply that
 * asks for a fix RP's fix-missing paragraph asks for, once per reply. */
static void add_folded_quotes(GString *s, const struct fs_review *r, const struct fs_review_patch *rp)
{
	size_t i, k;

	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];
		bool earlier = false;

		if (!needs_also_folded(r, rp, f))
			continue;
		for (k = 0; k < i && !earlier; k++)
			earlier = needs_also_folded(r, rp, &rp->findings.v[k]) && rp->findings.v[k].mail.message_id &&
				  f->mail.message_id && !strcmp(rp->findings.v[k].mail.message_id, f->mail.message_id);
		if (!earlier)
			add_reply_quote(s, f, true);
	}
}

/* The missing fixes of RP, each asked for in one reply only
 * (fsd_fix_asker()): the others point to that reply. */
static void para_fix_missing(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *none)
{
	size_t i, n = 0;
	bool subject_only = false, failed = false, several = false;
	char *elsewhere = NULL;
	GPtrArray *askers = g_ptr_array_new();

	for (i = 0; i < rp->findings.n; i++)
		n += fix_asked_here(r, rp, &rp->findings.v[i], askers);
	for (i = 0; i < rp->findings.n; i++)
		several = several || (rp->findings.v[i].kind == FS_FIND_FIX_MISSING && fsd_is_shown(&rp->findings.v[i]) &&
				      fsd_fix_asker(r, rp->findings.v[i].commit) == rp &&
				      fs_report_fixed_ordinal(rp, &rp->findings.v[i]));
	if (n)
		add_folded_quotes(s, r, rp);
	if (n && several)
		fsd_add_para(s, n == 1 ?
			 "One of the upstream commits this patch picks has a known follow-up fix that is not in this series:" :
			 "The upstream commits this patch picks have known follow-up fixes that are not in this series:");
	else if (n)
		fsd_add_para(s, n == 1 ?
			 "This commit has a known follow-up fix upstream that is not in this series:" :
			 "This commit has known follow-up fixes upstream that are not in this series:");
	for (i = 0; n && i < rp->findings.n; i++) {
		const struct fs_finding *f = &rp->findings.v[i];

		if (f->kind != FS_FIND_FIX_MISSING || !fsd_is_shown(f) || fsd_fix_asker(r, f->commit) != rp)
			continue;
		fsd_add_commit_item(s, f);
		if (fs_report_fixed_ordinal(rp, f)) {
			char *which = g_strdup_printf("which fixes %.12s, the %s upstream commit this patch picks",
						      f->chain[0], fs_report_fixed_ordinal(rp, f));

			fsd_add_wrapped(s, "    ", "    ", which);
			g_free(which);
		}
		if ((f->cause == FS_CAUSE_STABLE_FIX || f->revert.commit) && f->note) {
			/* a stable-only fix, or one the branch had and
			 * reverted: the note says where it is or was */
			char *note = fs_text_clean_line(f->note);
			char *par = g_strdup_printf("(%s)", note);

			fsd_add_wrapped(s, "    ", "     ", par);
			g_free(par);
			g_free(note);
		}
		fsd_add_chain_note(s, rp, f, r);
		if (f->evidence == FS_FEV_CVE)
			g_string_append(s, "    (no Fixes: tag: its CVE record names this commit as the cause)\n");
		fsd_add_cross_note(s, f, &elsewhere, &failed);
		if (f->evidence == FS_FEV_SUBJECT)
			subject_only = true;
	}
	if (n) {
		g_string_append_c(s, '\n');
		add_fix_request(s, n, subject_only, failed, elsewhere, fsd_objected(r, rp));
	}
	for (i = 0; i < rp->findings.n; i++) {
		const struct fs_finding *q = chain_queued(r, rp, &rp->findings.v[i]);

		if (q) {
			add_chain_sentence(s, r, q, &rp->findings.v[i]);
			n++;
		}
	}
	if (askers->len) {
		char *list = patch_list(r, askers);

		fsd_add_paraf(s, "%s needs %s I asked for in my %s to %s.",
			      n ? "It also" : "This commit", askers->len > 1 ? "the follow-up fixes" : "the follow-up fix",
			      askers->len > 1 ? "replies" : "reply", list);
		g_free(list);
	}
	g_ptr_array_free(askers, TRUE);
	g_free(elsewhere);
}

static void para_fix_queued(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref;
	size_t i;

	/* said with the fix it needs in turn (para_fix_missing()) */
	for (i = 0; i < rp->findings.n; i++)
		if (chain_queued(r, rp, &rp->findings.v[i]) == f)
			return;
	ref = fsd_commit_ref(f->commit, f->subject);
	if (f->series_index < 0)
		fsd_add_paraf(s, "Its follow-up fix %s is queued for this branch already, so that one is covered.",
			  ref);
	else
		fsd_add_paraf(s, "Its follow-up fix %s is queued as %s, so that one is covered.",
			  ref, fs_report_nn(r, f->series_index));
	g_free(ref);
}

static void para_fix_present(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *branch = fs_text_clean_line(r->branch);

	if (f->stable_commit)
		fsd_add_paraf(s, "Its known follow-up fix %s is already in %s as %.12s%s%s, so nothing more is needed for this one.",
			  ref, branch, f->stable_commit, f->stable_release ? " in " : "",
			  f->stable_release ? f->stable_release : "");
	else
		fsd_add_paraf(s, "Its known follow-up fix %s is already in %s, so nothing more is needed for this one.",
			  ref, branch);
	g_free(branch);
	g_free(ref);
}

static void para_reverted(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	if (f->cause == FS_CAUSE_FIX_REVERTED) {
		char *ref = fsd_commit_ref(f->commit, f->subject);

		fsd_add_paraf(s, "Its follow-up fix %s was reverted upstream by %.12s and not applied again, so there is nothing to queue for it.",
			  ref, f->revert.commit ? f->revert.commit : "");
		g_free(ref);
		return;
	}
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT) {
		char *rel = fs_text_clean_line(f->revert.reapplied_release);

		fsd_add_para(s, "This commit was reverted upstream by");
		fsd_add_commit_item(s, f);
		g_string_append_c(s, '\n');
		fsd_add_paraf(s, "and then applied again by %.12s%s%s, a revert of that revert, so mainline has it. Nothing more is needed for that.",
			  f->revert.reapplied_commit ? f->revert.reapplied_commit : "", *rel ? " in " : "", rel);
		g_free(rel);
		return;
	}
	for (size_t i = 0; rp && i < rp->findings.n; i++)
		if (objection_names_revert(rp, &rp->findings.v[i]))
			add_reply_quote(s, &rp->findings.v[i], true);
	fsd_add_para(s, "This commit was reverted upstream:");
	fsd_add_commit_item(s, f);
	g_string_append_c(s, '\n');
	fsd_add_para(s, "Please drop it from this series, unless there is a reason the revert does not apply here.");
}

static void para_applied(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch);

	if (f->stable_commit) {
		char *ref = fsd_commit_ref(f->stable_commit, f->subject);
		char *rel = fs_text_clean_line(f->stable_release);

		char *item = g_strdup_printf("%s%s%s", ref, *rel ? " in " : "", rel);

		fsd_add_paraf(s, "This commit is already in %s: it was backported before as", branch);
		fsd_add_wrapped(s, "  ", "    ", item);
		g_string_append_c(s, '\n');
		g_free(item);
		fsd_add_para(s, "so this looks like a duplicate. Please drop it.");
		g_free(rel);
		g_free(ref);
	} else {
		char *rel = fs_text_clean_line(f->release);

		fsd_add_paraf(s, "This commit is already in %s: it went into mainline in %s, before the branch was forked, so this backport is a duplicate. Please drop it.",
			  branch, *rel ? rel : "a release the branch contains");
		g_free(rel);
	}
	g_free(branch);
}

static void para_target_absent(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch);
	char *base = fs_text_clean_line(r->base);

	bool revert = f->cause == FS_CAUSE_REVERT_TARGET;

	fsd_add_para(s, revert ? "The commit this one reverts," : "The commit this one fixes,");
	fsd_add_commit_item(s, f);
	g_string_append_c(s, '\n');
	fsd_add_paraf(s, "is neither in %s%s%s nor in this series, so this %s may not be needed here. Is it?",
		  branch, *base ? " as of " : "", base, revert ? "revert" : "fix");
	g_free(base);
	g_free(branch);
}

static void para_unknown(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *id = fs_text_clean_line(f->commit);

	if (f->cause == FS_CAUSE_SUBJECT_AUTHOR) {
		char *as = fs_text_clean_line(f->written), *ref = fsd_commit_ref(f->commit, f->subject);

		fsd_add_paraf(s, "The upstream id in the changelog, %s, is no commit; the subject and author are those of %s, so I reviewed it as that one. Could you correct the id?",
			  as, ref);
		g_free(ref);
		g_free(as);
	} else if (f->unresolved == FS_CAUSE_AMBIGUOUS)
		fsd_add_paraf(s, "The upstream id in the changelog, %s, is ambiguous: it matches more than one commit. Could you give the full id?",
			  id);
	else
		fsd_add_paraf(s, "I cannot find the upstream commit the changelog names, %s, in mainline. Could you check the id?",
			  id);
	g_free(id);
}

static void para_said(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f);

static void para_report(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	if (!f->commit[0]) { /* a reply in the thread */
		para_said(s, r, rp, f);
		return;
	}
	char *from = fs_text_clean_line(f->mail.from), *date = fs_text_clean_line(f->mail.date);
	char *subj = fs_text_clean_line(f->note);
	size_t n = strlen(subj);

	/* The findings module quotes the subject in the note. */
	if (n >= 2 && subj[0] == '"' && subj[n - 1] == '"') {
		memmove(subj, subj + 1, n - 2);
		subj[n - 2] = '\0';
	}
	fsd_add_para(s, "There is a regression report for the upstream commit:");
	fsd_add_mail_lines(s, from, date, subj);
	fsd_add_lore_line(s, f);
	fsd_add_para(s, "Has it been resolved upstream? If not, this one may be better left out for now.");
	g_free(from);
	g_free(date);
	g_free(subj);
}

static void para_dep(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch);
	char *ref = fsd_commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_DEP_OF) {
		fsd_add_para(s, "This patch is here as a prerequisite (Stable-dep-of) of");
		g_string_append_printf(s, "  %s\n\n", ref);
		fsd_add_paraf(s, "but that commit is neither in %s nor in this series, so on its own this one may not be needed.",
			  branch);
	} else if (f->unresolved) {
		fsd_add_paraf(s, "The changelog names %s as a prerequisite, but I cannot find that commit. Could you check the id?",
			  ref);
	} else {
		fsd_add_para(s, "The changelog names a prerequisite that is neither in this series nor in the branch:");
		g_string_append_printf(s, "  %s\n\n", ref);
		fsd_add_para(s, "Please queue it too, or drop this one.");
	}
	g_free(ref);
	g_free(branch);
}

static void para_mismatch(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);

	if (f->cause == FS_CAUSE_STABLE_ID) {
		char *note = fs_text_clean_line(f->note);

		fsd_add_paraf(s, "The Fixes: tag in the changelog names a stable commit, not a mainline one%s%s%s. The mainline commit it means is",
			  *note ? " (" : "", note, *note ? ")" : "");
		g_free(note);
	} else {
		fsd_add_para(s, "The Fixes: tag in the changelog does not match itself: the subject it quotes is that of");
	}
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause != FS_CAUSE_STABLE_ID)
		fsd_add_para(s, "but the id is another commit's. Going by the subject, the commit above is the one it fixes.");
	g_free(ref);
}

static void para_reverts_stable(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch);
	char *ref = fsd_commit_ref(f->commit, f->subject);

	if (f->stable_commit && strcmp(f->stable_commit, f->commit))
		fsd_add_paraf(s, "This reverts %.12s, the %s backport of", f->stable_commit, branch);
	else
		fsd_add_paraf(s, "This reverts a commit of %s:", branch);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->cause == FS_CAUSE_DUPLICATE)
		fsd_add_paraf(s, "%s already has that commit from mainline, so the backport was a duplicate and the revert makes sense.",
			  branch);
	else
		fsd_add_para(s, "Should the revert go upstream as well, or is only the backport broken?");
	g_free(ref);
	g_free(branch);
}

/* Another branch dropped its backport of this commit: a warning sign to
 * ask about, never a commit to queue. */
static void para_reverted_in_stable(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *other = fs_text_clean_line(f->branch);
	char *rel = fs_text_clean_line(f->release);
	char *branch = fs_text_clean_line(r->branch);

	fsd_add_paraf(s, "Note that %s reverted its backport of this commit%s%s:", other,
		  *rel ? " in " : "", rel);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->revert.reason) {
		char *why = fs_text_clean_line(f->revert.reason);
		char *said = fsd_sentences_upto(why, FSD_QUOTE_MAX);

		fsd_add_para(s, "The reason it gives:");
		fsd_add_quote(s, said);
		g_string_append_c(s, '\n');
		g_free(said);
		g_free(why);
	}
	if (!strcmp(other, branch))
		fsd_add_para(s, "Does that reason no longer hold?");
	else
		fsd_add_paraf(s, "Does that reason apply to %s as well?", branch);
	g_free(branch);
	g_free(rel);
	g_free(other);
	g_free(ref);
}

/* The patch numbered NN in R, or NULL when R (a view) does not have it. */
static const struct fs_review_patch *patch_numbered(const struct fs_review *r, int nn)
{
	size_t i;

	for (i = 0; i < r->npatches; i++)
		if (r->patches[i].index == nn)
			return &r->patches[i];
	return NULL;
}

static bool has_backport_differs(const struct fs_review_patch *rp)
{
	size_t i;

	for (i = 0; rp && i < rp->findings.n; i++)
		if (rp->findings.v[i].kind == FS_FIND_BACKPORT_DIFFERS)
			return true;
	return false;
}

/* P's diff: from its first "diff --git" to the signature, or NULL. */
static const char *diff_of(const struct fs_patch *p, size_t *len)
{
	size_t n = 0;
	const char *b = p ? fs_patch_body(p, &n) : NULL;
	const char *d = b ? g_strstr_len(b, n, "\ndiff --git ") : NULL;
	const char *end;

	if (!d)
		return NULL;
	end = g_strstr_len(d, n - (size_t)(d - b), "\n-- \n");
	*len = (size_t)((end ? end : b + n) - d);
	return d;
}

int fsd_duplicate_differs(const struct fs_review *r, const struct fs_review_patch *rp,
			  const struct fs_finding *f)
{
	const struct fs_review_patch *other = patch_numbered(r, f->series_index);
	int d = (has_backport_differs(rp) ? 1 : 0) | (has_backport_differs(other) ? 2 : 0);
	size_t n1 = 0, n2 = 0;
	const char *d1, *d2;

	if (d || !other)
		return d;
	d1 = diff_of(rp->patch, &n1);
	d2 = diff_of(other->patch, &n2);
	if (d1 && d2 && (n1 != n2 || memcmp(d1, d2, n1)))
		return 3;
	return 0;
}

static void para_duplicate_in_series(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	const char *other = fs_report_nn(r, f->series_index);
	int differs = fsd_duplicate_differs(r, rp, f);

	fsd_add_paraf(s, "This is the same upstream commit as %s of this series:", other);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (!differs)
		fsd_add_para(s, "so one of the two looks like a duplicate. Please drop this one.");
	else if (differs == 1)
		fsd_add_paraf(s, "but the two are not the same diff: this one differs from the upstream commit, %s does not. Which of the two is meant? Only one of them should stay.",
			      other);
	else if (differs == 2)
		fsd_add_paraf(s, "but the two are not the same diff: %s differs from the upstream commit, this one does not. Which of the two is meant? Only one of them should stay.",
			      other);
	else
		fsd_add_para(s, "but the two are not the same diff. Which of the two is meant? Only one of them should stay.");
	g_free(ref);
}

/* A reply in the thread: attributed, in its author's own words, with
 * no word of the reviewer's about what kind of reply it is (the
 * reader of replies may be wrong; the words are the replier's). */
/* A backport of the upstream commit for this branch, posted on a list
 * since this patch was (found on lore, fixscan.lore): no reply to this
 * patch, so nobody's words to quote; where it is, and the question. */
static void para_posted(GString *s, const struct fs_finding *f)
{
	char *from = fs_text_clean_line(f->mail.from), *date = fs_text_clean_line(f->mail.date);
	char *subj = fs_text_clean_line(f->note);

	fsd_add_para(s, "Another backport of the upstream commit for this branch was posted after this one:");
	fsd_add_mail_lines(s, from, date, subj);
	fsd_add_lore_line(s, f);
	fsd_add_para(s, "Should that one be taken instead?");
	g_free(from);
	g_free(date);
	g_free(subj);
}

/* A stable maintainer's word on an earlier round that the patch is
 * dropped, and this round still carries it: "On 4.4.7-rc1 Greta Kroll
 * said this patch would be dropped (<link>); it is still in 4.4.7-rc2." */
static void para_unkept(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	char *who = fsd_display_name(f->mail.from), *round = fs_text_clean_line(f->mail.round);
	char *now = fs_text_clean_line(r->series ? r->series->release : NULL), *id = fs_finding_mail_link(f);

	fsd_add_paraf(s, "On %s %s said this patch would be dropped%s%s%s; it is still in %s.",
		      *round ? round : "an earlier round", who, id ? " (" : "", id ? id : "", id ? ")" : "",
		      *now ? now : "this round");
	g_free(id);
	g_free(now);
	g_free(round);
	g_free(who);
}

static void para_said(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	if (rp && reply_folded(r, rp, f))
		return;
	if (f->kind == FS_FIND_REPLACEMENT_POSTED && f->mail.link)
		para_posted(s, f);
	else if (f->mail.unkept)
		para_unkept(s, r, f);
	else
		add_reply_quote(s, f, false);
}

static void para_no_upstream(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref;

	if (f->cause != FS_CAUSE_SUBJECT_AUTHOR) {
		fsd_add_para(s, "The changelog does not say which upstream commit this is. If it is a stable-only change, please say why in the changelog; otherwise please add the upstream commit id.");
		return;
	}
	ref = fsd_commit_ref(f->commit, f->subject);
	fsd_add_paraf(s, "The changelog does not say which upstream commit this is; its subject and author are those of %s. If it is a backport of that one, please add the upstream commit id; if it is a stable-only change, please say why in the changelog.",
		  ref);
	g_free(ref);
}

/* The reviewer's copy of the patch has no diff: said as what reached
 * the reviewer (the posting itself may be whole), so that nobody reads
 * the rest of the reply as a review of the code. */
static void para_diff_absent(GString *s, const struct fs_review *r,
			     const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *path;

	if (f->cause == FS_CAUSE_UNREADABLE) {
		fsd_add_para(s, "The copy of this patch that reached me could not be read (its encoding looks damaged), so I could not check it.");
		return;
	}
	if (!f->note) {
		fsd_add_para(s, "The copy of this patch that reached me carries no diff, so I could not compare its code with the upstream commit or check it against the branch.");
		return;
	}
	/* the note names the file as "the diff stops before X, which ..." */
	path = fs_text_clean_line(f->note);
	fsd_add_paraf(s, "The copy of this patch that reached me looks cut short or damaged: %s, so I could not compare it with the upstream commit.",
		      path);
	g_free(path);
}

/* The backport is not its upstream commit's change, and the changelog
 * does not say why.  The paths come from the mail: cleaned. */
static void para_backport_differs(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *branch = fs_text_clean_line(r->branch);
	size_t i;

	if (f->diff.nfiles_dropped) {
		fsd_add_paraf(s, "This backport leaves out part of its upstream commit %s: upstream also changes",
			  ref);
		for (i = 0; i < f->diff.nfiles_dropped; i++) {
			char *path = fs_text_clean_line(f->diff.files_dropped[i]);
			g_string_append_printf(s, "  %s\n", path);
			g_free(path);
		}
		g_string_append_c(s, '\n');
		fsd_add_paraf(s, "and the changelog does not say why. Is that part not needed in %s, or does it need a backport of its own?",
			  branch);
	} else {
		char *note = fs_text_clean_line(f->note);

		fsd_add_paraf(s, "The diff of this backport is not quite that of its upstream commit %s (%s), and the changelog does not say so. If the difference is on purpose, a short note in the changelog (\"[ ... ]\") would tell why.",
			  ref, note);
		g_free(note);
	}
	g_free(branch);
	g_free(ref);
}

/* ---- the table ---------------------------------------------------------- */

static const struct fsd_para_kind para_kinds[FS_FIND_KIND_COUNT] = {
	[FS_FIND_FIX_MISSING] = { .scope = FS_PARA_PATCH, .para = para_fix_missing },
	[FS_FIND_MISSING_IN_NEWER] = { .scope = FS_PARA_PATCH, .para = para_missing_in_newer },
	[FS_FIND_REVERTED_UPSTREAM] = { .scope = FS_PARA_EACH, .para = para_reverted },
	[FS_FIND_ALREADY_APPLIED] = { .scope = FS_PARA_EACH, .para = para_applied },
	[FS_FIND_DUPLICATE_IN_SERIES] = { .scope = FS_PARA_EACH, .para = para_duplicate_in_series },
	[FS_FIND_DEP_MISSING] = { .scope = FS_PARA_EACH, .para = para_dep },
	[FS_FIND_REVERTED_IN_STABLE] = { .scope = FS_PARA_EACH, .para = para_reverted_in_stable },
	[FS_FIND_BACKPORT_DIFFERS] = { .scope = FS_PARA_EACH, .para = para_backport_differs },
	[FS_FIND_REGRESSION_REPORT] = { .scope = FS_PARA_EACH, .para = para_report },
	[FS_FIND_OBJECTION] = { .scope = FS_PARA_EACH, .para = para_said },
	[FS_FIND_NEEDS_ALSO] = { .scope = FS_PARA_EACH, .para = para_said },
	[FS_FIND_FIX_PENDING] = { .scope = FS_PARA_EACH, .para = fsd_para_fix_pending },
	[FS_FIND_TARGET_ABSENT] = { .scope = FS_PARA_EACH, .para = para_target_absent },
	[FS_FIND_REVERTS_STABLE] = { .scope = FS_PARA_EACH, .para = para_reverts_stable },
	[FS_FIND_FIXES_TAG_MISMATCH] = { .scope = FS_PARA_EACH, .para = para_mismatch },
	[FS_FIND_UNKNOWN_UPSTREAM] = { .scope = FS_PARA_EACH, .para = para_unknown },
	[FS_FIND_NO_UPSTREAM] = { .scope = FS_PARA_EACH, .para = para_no_upstream },
	[FS_FIND_SERIES_PARTIAL] = { .scope = FS_PARA_EACH, .para = fsd_para_series_partial },
	[FS_FIND_SYMBOL_MISSING] = { .scope = FS_PARA_EACH, .para = fsd_para_symbol_missing },
	[FS_FIND_FIX_NOT_APPLICABLE] = { .scope = FS_PARA_EACH, .para = fsd_para_fix_not_applicable },
	[FS_FIND_DIFF_ABSENT] = { .scope = FS_PARA_EACH, .para = para_diff_absent },
	[FS_FIND_FIX_QUEUED] = { .scope = FS_PARA_EACH, .para = para_fix_queued },
	[FS_FIND_FIX_PRESENT] = { .scope = FS_PARA_ALONE, .para = para_fix_present },
	[FS_FIND_REPLACEMENT_POSTED] = { .scope = FS_PARA_EACH, .para = para_said },
	[FS_FIND_REPLY] = { .scope = FS_PARA_EACH, .para = para_said },
};

/* The order of the paragraphs in a reply, first to last: what to act on
 * (the fixes to queue first), then reports, then notes. */
static const enum fs_finding_kind para_order[] = {
	FS_FIND_FIX_MISSING,
	FS_FIND_MISSING_IN_NEWER,
	FS_FIND_DEP_MISSING,
	FS_FIND_SYMBOL_MISSING,
	FS_FIND_REVERTED_UPSTREAM,
	FS_FIND_ALREADY_APPLIED,
	FS_FIND_DUPLICATE_IN_SERIES,
	FS_FIND_REGRESSION_REPORT,
	FS_FIND_FIX_PENDING,
	FS_FIND_REVERTED_IN_STABLE,
	FS_FIND_BACKPORT_DIFFERS,
	FS_FIND_OBJECTION,
	FS_FIND_NEEDS_ALSO,
	FS_FIND_FIXES_TAG_MISMATCH,
	FS_FIND_TARGET_ABSENT,
	FS_FIND_REVERTS_STABLE,
	FS_FIND_UNKNOWN_UPSTREAM,
	FS_FIND_NO_UPSTREAM,
	FS_FIND_SERIES_PARTIAL,
	FS_FIND_FIX_NOT_APPLICABLE,
	FS_FIND_DIFF_ABSENT,
	FS_FIND_FIX_QUEUED,
	FS_FIND_FIX_PRESENT,
	FS_FIND_REPLACEMENT_POSTED,
	FS_FIND_REPLY,
};

_Static_assert(G_N_ELEMENTS(para_order) == FS_FIND_KIND_COUNT,
	       "every kind has its place in a reply");

const struct fsd_para_kind *fsd_para_kind(enum fs_finding_kind kind)
{
	static const struct fsd_para_kind none = { .scope = FS_PARA_EACH };

	return (unsigned)kind < FS_FIND_KIND_COUNT ? &para_kinds[kind] : &none;
}

int fsd_kind_by_para_order(int order)
{
	return order >= 0 && order < (int)G_N_ELEMENTS(para_order) ? (int)para_order[order] : -1;
}
