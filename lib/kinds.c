/* fixscan: the table of finding kinds (fixscan/kinds.h): per kind its
 * name, whether it asks for action, its rank, colour, summary group and
 * digest weight, and the words of its report line, of its paragraph in
 * a patch's reply and of its item in the summary draft.
 *
 * The words are here, next to the row that uses them, so that a new kind
 * is written in one place.  Text from mail goes through
 * fs_draft_clean_line() or fs_draft_clean_id() before a draft quotes it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "draft-private.h"

/* ---- a finding's patch --------------------------------------------------- */

/* The patch of R that F is a finding of, or NULL (a series finding). */
static const struct fs_review_patch *finding_patch(const struct fs_review *r,
						   const struct fs_finding *f)
{
	size_t i;

	for (i = 0; r && i < r->npatches; i++)
		if (f >= r->patches[i].findings.v && f < r->patches[i].findings.v + r->patches[i].findings.n)
			return &r->patches[i];
	return NULL;
}

/* "second" when fix-missing F of RP directly fixes the second of the
 * several upstream commits RP picks; NULL for a patch of one upstream
 * commit, a fix of a fix, or a commit not among them. */
static const char *fixed_upstream_ordinal(const struct fs_review_patch *rp, const struct fs_finding *f)
{
	static const char *const ordinals[] = { "first", "second", "third", "fourth", "fifth",
						"sixth", "seventh", "eighth", "ninth", "tenth" };
	size_t i, nup = 0;
	const char *const *up;

	if (!rp || !rp->patch || f->nchain != 2 || !fs_patch_tags(rp->patch))
		return NULL;
	up = fs_tags_upstream(fs_patch_tags(rp->patch), &nup);
	for (i = 0; nup > 1 && i < nup && i < G_N_ELEMENTS(ordinals); i++)
		if (*up[i] && (g_str_has_prefix(f->chain[0], up[i]) || g_str_has_prefix(up[i], f->chain[0])))
			return ordinals[i];
	return NULL;
}

/* ---- the words of report lines ------------------------------------------ */

static void rw_fix_missing(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *rel = f->release;
	const char *nth = fixed_upstream_ordinal(finding_patch(r, f), f);

	if (f->note)
		g_string_append_printf(s, ", %s", f->note);
	else
		g_string_append_printf(s, " %s%s, neither in %s nor in this series",
				       rel ? "in " : "", rel ? rel : "(unreleased)", r->branch);
	if (nth)
		g_string_append_printf(s, "; it fixes %.12s, the %s upstream commit", f->chain[0], nth);
}

static void rw_fix_queued(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->series_index < 0 && f->note) {
		g_string_append_printf(s, " is %s", f->note);
		return;
	}
	g_string_append_printf(s, " is queued as %s", fsd_patch_number(r, f->series_index));
}

static void rw_missing_in_newer(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->release)
		g_string_append_printf(s, " in %s", f->release);
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
}

static void rw_fix_present(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->stable_commit)
		g_string_append_printf(s, " is in %s as %.12s%s%s", r->branch, f->stable_commit,
				       f->stable_release ? " in " : "",
				       f->stable_release ? f->stable_release : "");
	else
		g_string_append_printf(s, " is in %s", r->branch);
}

static void rw_reverted_upstream(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	const char *rel = f->release;

	g_string_append_printf(s, " %s%s", rel ? "in " : "", rel ? rel : "(unreleased)");
	if ((f->cause == FS_CAUSE_REVERT_OF_REVERT || f->cause == FS_CAUSE_FIX_REVERTED) && f->note)
		g_string_append_printf(s, ", %s", f->note);
}

static void rw_reverted_in_stable(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
	if (f->reason)
		g_string_append_printf(s, "; its reason: \"%s\"", f->reason);
}

static void rw_duplicate_in_series(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append_printf(s, " is also %s of this series", fsd_patch_number(r, f->series_index));
}

/* The kinds whose note says it all. */
static void rw_note(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->note)
		g_string_append_printf(s, ": %s", f->note);
}

static void rw_target_absent(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->release)
		g_string_append_printf(s, " in %s", f->release);
	rw_note(s, r, f);
}

static void rw_no_upstream(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append(s, ": the changelog names no upstream commit");
	if (f->cause == FS_CAUSE_SUBJECT_AUTHOR)
		g_string_append_printf(s, "; the subject and author are those of %.12s (\"%s\")",
				       f->commit, f->subject ? f->subject : "");
}

static void rw_objection(GString *s, const struct fs_review *r, const struct fs_finding *f);

static void rw_regression_report(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (!f->commit[0]) { /* a reply in the thread: its own words */
		rw_objection(s, r, f);
		return;
	}
	g_string_append_printf(s, " %.12s: %s from %s", f->commit, f->note ? f->note : "",
			       f->from ? f->from : "?");
	if (f->date)
		g_string_append_printf(s, ", %s", f->date);
	if (f->message_id)
		g_string_append_printf(s, " <%s>", f->message_id);
}

static void rw_objection(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append_printf(s, " from %s: \"%s\"", f->from ? f->from : "?",
			       f->note ? f->note : "");
}

/* " a67fd55f6a09 ("subject") in v6.2, neither in the branch nor in
 * this series; from X: "..."": a commit a reply asks for, where it is,
 * and the reply's own words. */
static void rw_needs_also(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	if (f->commit[0]) {
		g_string_append_printf(s, " %.12s", f->commit);
		if (f->subject)
			g_string_append_printf(s, " (\"%s\")", f->subject);
		if (f->release)
			g_string_append_printf(s, " in %s", f->release);
		if (f->unresolved)
			g_string_append(s, ", not in the kernel repository");
		else if (f->stable_commit)
			g_string_append_printf(s, ", in %s already", r->branch ? r->branch : "the branch");
		else if (f->series_index >= 0)
			g_string_append_printf(s, ", queued as %s", fsd_patch_number(r, f->series_index));
		else if (r->branch)
			g_string_append_printf(s, ", neither in %s nor in this series", r->branch);
		g_string_append_c(s, ';');
	}
	rw_objection(s, r, f);
}

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
		b = fsd_short_branch_name(f->newer_branch);
		if (n)
			g_string_append(list, n + 1 == total ? " and " : ", ");
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
		g_string_append(s, fsd_patch_number(r, a->index));
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
	const char *num = fsd_patch_number(r, q->series_index);

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

/* The closing request of the fix-missing paragraph, for N fixes. */
static void add_fix_request(GString *s, size_t n, bool subject_only, bool failed,
			    const char *elsewhere)
{
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
 * (<link>):" before a request of ours (AS), else "X wrote in reply to
 * this patch (<link>):". */
static void add_reply_quote(GString *s, const struct fs_finding *f, bool as)
{
	char *who = fsd_display_name(f->from), *line = fs_draft_clean_line(f->note);
	char *id = fs_draft_clean_id(f->message_id);
	const char *pre = as ? "As " : "", *post = as ? "" : " in reply to this patch";

	if (id)
		fsd_add_paraf(s, "%s%s wrote%s (https://lore.kernel.org/r/%s):", pre, who, post, id);
	else
		fsd_add_paraf(s, "%s%s wrote%s:", pre, who, post);
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

	for (i = 0; f->message_id && i < rp->findings.n; i++) {
		const struct fs_finding *g = &rp->findings.v[i];

		if (g->message_id && !strcmp(g->message_id, f->message_id) &&
		    (needs_also_folded(r, rp, g) || objection_names_revert(rp, g)))
			return true;
	}
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
			earlier = needs_also_folded(r, rp, &rp->findings.v[k]) && rp->findings.v[k].message_id &&
				  f->message_id && !strcmp(rp->findings.v[k].message_id, f->message_id);
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
				      fixed_upstream_ordinal(rp, &rp->findings.v[i]));
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
		if (fixed_upstream_ordinal(rp, f)) {
			char *which = g_strdup_printf("which fixes %.12s, the %s upstream commit this patch picks",
						      f->chain[0], fixed_upstream_ordinal(rp, f));

			fsd_add_wrapped(s, "    ", "    ", which);
			g_free(which);
		}
		if ((f->cause == FS_CAUSE_STABLE_FIX || f->reverted_commit) && f->note) {
			/* a stable-only fix, or one the branch had and
			 * reverted: the note says where it is or was */
			char *note = fs_draft_clean_line(f->note);
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
		add_fix_request(s, n, subject_only, failed, elsewhere);
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
			  ref, fsd_patch_number(r, f->series_index));
	g_free(ref);
}

static void para_fix_present(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *branch = fs_draft_clean_line(r->branch);

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
			  ref, f->reverted_commit ? f->reverted_commit : "");
		g_free(ref);
		return;
	}
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT) {
		char *rel = fs_draft_clean_line(f->reapplied_release);

		fsd_add_para(s, "This commit was reverted upstream by");
		fsd_add_commit_item(s, f);
		g_string_append_c(s, '\n');
		fsd_add_paraf(s, "and then applied again by %.12s%s%s, a revert of that revert, so mainline has it. Nothing more is needed for that.",
			  f->reapplied_commit ? f->reapplied_commit : "", *rel ? " in " : "", rel);
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
	char *branch = fs_draft_clean_line(r->branch);

	if (f->stable_commit) {
		char *ref = fsd_commit_ref(f->stable_commit, f->subject);
		char *rel = fs_draft_clean_line(f->stable_release);

		char *item = g_strdup_printf("%s%s%s", ref, *rel ? " in " : "", rel);

		fsd_add_paraf(s, "This commit is already in %s: it was backported before as", branch);
		fsd_add_wrapped(s, "  ", "    ", item);
		g_string_append_c(s, '\n');
		g_free(item);
		fsd_add_para(s, "so this looks like a duplicate. Please drop it.");
		g_free(rel);
		g_free(ref);
	} else {
		char *rel = fs_draft_clean_line(f->release);

		fsd_add_paraf(s, "This commit is already in %s: it went into mainline in %s, before the branch was forked, so this backport is a duplicate. Please drop it.",
			  branch, *rel ? rel : "a release the branch contains");
		g_free(rel);
	}
	g_free(branch);
}

static void para_target_absent(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
	char *base = fs_draft_clean_line(r->base);

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
	char *id = fs_draft_clean_line(f->commit);

	if (f->cause == FS_CAUSE_SUBJECT_AUTHOR) {
		char *as = fs_draft_clean_line(f->written), *ref = fsd_commit_ref(f->commit, f->subject);

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

/* A mail named in a reply: its From, Date and Subject lines, indented
 * (each left out when empty). */
static void add_mail_lines(GString *s, const char *from, const char *date, const char *subj)
{
	if (*from)
		fsd_add_wrapped(s, "  From: ", "    ", from);
	if (*date)
		fsd_add_wrapped(s, "  Date: ", "    ", date);
	if (*subj)
		fsd_add_wrapped(s, "  Subject: ", "    ", subj);
}

/* The mail's lore link (if it has a Message-Id), then the blank line
 * that ends the paragraph. */
static void add_lore_line(GString *s, const char *id)
{
	if (id)
		g_string_append_printf(s, "  https://lore.kernel.org/r/%s\n", id);
	g_string_append_c(s, '\n');
}

static void para_report(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	if (!f->commit[0]) { /* a reply in the thread */
		para_said(s, r, rp, f);
		return;
	}
	char *from = fs_draft_clean_line(f->from), *date = fs_draft_clean_line(f->date);
	char *subj = fs_draft_clean_line(f->note), *id = fs_draft_clean_id(f->message_id);
	size_t n = strlen(subj);

	/* The findings module quotes the subject in the note. */
	if (n >= 2 && subj[0] == '"' && subj[n - 1] == '"') {
		memmove(subj, subj + 1, n - 2);
		subj[n - 2] = '\0';
	}
	fsd_add_para(s, "There is a regression report for the upstream commit:");
	add_mail_lines(s, from, date, subj);
	add_lore_line(s, id);
	fsd_add_para(s, "Has it been resolved upstream? If not, this one may be better left out for now.");
	g_free(from);
	g_free(date);
	g_free(subj);
	g_free(id);
}

static void para_dep(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch);
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
		char *note = fs_draft_clean_line(f->note);

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
	char *branch = fs_draft_clean_line(r->branch);
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
	char *other = fs_draft_clean_line(f->branch);
	char *rel = fs_draft_clean_line(f->release);
	char *branch = fs_draft_clean_line(r->branch);

	fsd_add_paraf(s, "Note that %s reverted its backport of this commit%s%s:", other,
		  *rel ? " in " : "", rel);
	g_string_append_printf(s, "  %s\n\n", ref);
	if (f->reason) {
		char *why = fs_draft_clean_line(f->reason);
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

/* Which of two patches of the same upstream commit is not a faithful
 * copy: 1 for RP, 2 for the other, 3 for both or for two diffs that are
 * not the same; 0 when they are the same diff. */
static int duplicate_differs(const struct fs_review *r, const struct fs_review_patch *rp,
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
	const char *other = fsd_patch_number(r, f->series_index);
	int differs = duplicate_differs(r, rp, f);

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
static void para_said(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	if (rp && reply_folded(r, rp, f))
		return;
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

/* The backport is not its upstream commit's change, and the changelog
 * does not say why.  The paths come from the mail: cleaned. */
static void para_backport_differs(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *ref = fsd_commit_ref(f->commit, f->subject);
	char *branch = fs_draft_clean_line(r->branch);
	size_t i;

	if (f->nfiles_dropped) {
		fsd_add_paraf(s, "This backport leaves out part of its upstream commit %s: upstream also changes",
			  ref);
		for (i = 0; i < f->nfiles_dropped; i++) {
			char *path = fs_draft_clean_line(f->files_dropped[i]);
			g_string_append_printf(s, "  %s\n", path);
			g_free(path);
		}
		g_string_append_c(s, '\n');
		fsd_add_paraf(s, "and the changelog does not say why. Is that part not needed in %s, or does it need a backport of its own?",
			  branch);
	} else {
		char *note = fs_draft_clean_line(f->note);

		fsd_add_paraf(s, "The diff of this backport is not quite that of its upstream commit %s (%s), and the changelog does not say so. If the difference is on purpose, a short note in the changelog (\"[ ... ]\") would tell why.",
			  ref, note);
		g_free(note);
	}
	g_free(branch);
	g_free(ref);
}

/* ---- the items of the summary draft ------------------------------------- */

/* '0123456789ab ("subject")' of F's commit, or "" when it has none. */
static char *item_ref(const struct fs_finding *f)
{
	return f->commit[0] ? fsd_commit_ref(f->commit, f->subject) : g_strdup("");
}

static char *item_dep_missing(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *t;

	if (f->cause == FS_CAUSE_STABLE_DEP_OF)
		t = g_strdup_printf("is only a prerequisite of a commit that is not queued: %s", ref);
	else
		t = g_strdup_printf("names a prerequisite I cannot find: %s", ref);
	g_free(ref);
	return t;
}

static char *item_already_applied(const struct fs_review *r, const struct fs_finding *f)
{
	char *rel, *branch, *t;

	if (f->stable_commit)
		return g_strdup_printf("already backported as %.12s%s%s", f->stable_commit,
				       f->stable_release ? " in " : "",
				       f->stable_release ? f->stable_release : "");
	rel = fs_draft_clean_line(f->release);
	branch = fs_draft_clean_line(r->branch);
	/* as the patch's reply says it (para_applied()) */
	t = g_strdup_printf("%.12s is in %s, before %s forked", f->commit,
			    *rel ? rel : "mainline", branch);
	g_free(branch);
	g_free(rel);
	return t;
}

static char *item_reverted_upstream(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *rel = fs_draft_clean_line(f->release);
	char *t = g_strdup_printf("%s%s%s", ref, *rel ? " in " : "", rel);

	g_free(rel);
	g_free(ref);
	return t;
}

static char *item_said(const struct fs_review *r, const struct fs_finding *f);

static char *item_regression_report(const struct fs_review *r, const struct fs_finding *f)
{
	if (!f->commit[0])
		return item_said(r, f);
	char *who = fsd_display_name(f->from), *id = fs_draft_clean_id(f->message_id);
	char *t = g_strdup_printf("regression report from %s%s%s", who,
				  id ? ": https://lore.kernel.org/r/" : "", id ? id : "");

	g_free(id);
	g_free(who);
	return t;
}

static char *item_said(const struct fs_review *r, const struct fs_finding *f)
{
	char *who = fsd_display_name(f->from), *id = fs_draft_clean_id(f->message_id);
	char *t = g_strdup_printf("a reply from %s%s%s", who,
				  id ? ": https://lore.kernel.org/r/" : "", id ? id : "");

	g_free(id);
	g_free(who);
	return t;
}

static char *item_target_absent(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *branch = fs_draft_clean_line(r->branch);
	char *t = g_strdup_printf("%s a commit %s does not have: %s",
				  f->cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes", branch, ref);

	g_free(branch);
	g_free(ref);
	return t;
}

static char *item_missing_in_newer(const struct fs_review *r, const struct fs_finding *f)
{
	char *b = fsd_short_branch_name(f->newer_branch);
	char *t = g_strdup_printf("not in %s.y yet", b);

	g_free(b);
	return t;
}

static char *item_duplicate_in_series(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f);
	const struct fs_review_patch *rp = finding_patch(r, f);
	char *t = g_strdup_printf("%s again, as %s%s", ref, fsd_patch_number(r, f->series_index),
			    rp && duplicate_differs(r, rp, f) ?
			    ", but not the same diff: which one is meant?" : "");

	g_free(ref);
	return t;
}

static char *item_reverted_in_stable(const struct fs_review *r, const struct fs_finding *f)
{
	char *other = fs_draft_clean_line(f->branch), *rel = fs_draft_clean_line(f->release);
	char *t = g_strdup_printf("%s reverted its backport: %.12s%s%s", other,
				  f->commit, *rel ? " in " : "", rel);

	g_free(rel);
	g_free(other);
	return t;
}

static char *item_backport_differs(const struct fs_review *r, const struct fs_finding *f)
{
	char *note = fs_draft_clean_line(f->note);
	char *t = g_strdup_printf("differs from %.12s upstream: %s", f->commit, note);

	g_free(note);
	return t;
}

static char *item_no_upstream(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref, *t;

	if (f->cause != FS_CAUSE_SUBJECT_AUTHOR)
		return g_strdup("the changelog names no upstream commit");
	ref = item_ref(f);
	t = g_strdup_printf("the changelog names no upstream commit; the subject and author are those of %s",
			    ref);
	g_free(ref);
	return t;
}

static char *item_unknown_upstream(const struct fs_review *r, const struct fs_finding *f)
{
	if (f->cause == FS_CAUSE_SUBJECT_AUTHOR) {
		char *as = fs_draft_clean_line(f->written), *ref = item_ref(f);
		char *t = g_strdup_printf("upstream id %.40s is no commit; the subject and author are those of %s",
					  as, ref);

		g_free(ref);
		g_free(as);
		return t;
	}
	return g_strdup_printf("upstream id %.40s %s", f->commit,
			       f->unresolved == FS_CAUSE_AMBIGUOUS ? "is ambiguous" :
			       "not found in mainline");
}

static char *item_fixes_tag_mismatch(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *t;

	if (f->cause == FS_CAUSE_STABLE_ID)
		t = g_strdup_printf("its Fixes: tag names a stable commit instead of %s", ref);
	else
		t = g_strdup_printf("its Fixes: tag gives another id for %s", ref);
	g_free(ref);
	return t;
}

static char *item_reverts_stable(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *t;

	if (f->stable_commit && strcmp(f->stable_commit, f->commit))
		t = g_strdup_printf("reverts %.12s, the backport of %s", f->stable_commit, ref);
	else
		t = g_strdup_printf("reverts %s", ref);
	g_free(ref);
	return t;
}

/* ---- fix-pending --------------------------------------------------------- */

/* A pending ref as people name it: "next/master" for
 * refs/remotes/next/master, "fixes" for refs/heads/fixes.  New string. */
static char *short_ref(const char *ref)
{
	static const char *const prefixes[] = { "refs/remotes/", "refs/heads/", "refs/" };
	size_t i;

	for (i = 0; ref && i < G_N_ELEMENTS(prefixes); i++)
		if (g_str_has_prefix(ref, prefixes[i]))
			return fs_draft_clean_line(ref + strlen(prefixes[i]));
	return fs_draft_clean_line(ref);
}

static void rw_fix_pending(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	g_string_append_printf(s, " %s: \"%s\"", f->note ? f->note : "",
			       f->subject ? f->subject : "");
	if (f->commit[0]) {
		char *ref = short_ref(f->ref);
		g_string_append_printf(s, " in %s (%.12s)", ref, f->commit);
		g_free(ref);
	}
	if (f->from)
		g_string_append_printf(s, "%s %s", f->commit[0] ? ", posted by" : " from", f->from);
	if (f->from && f->date)
		g_string_append_printf(s, ", %s", f->date);
	if (f->message_id)
		g_string_append_printf(s, ": https://lore.kernel.org/r/%s", f->message_id);
}

/* Whether pending REF is linux-next: a ref of a remote named "next" or
 * "linux-next", or a local branch whose name starts with "next" or
 * "linux-next". */
static bool is_linux_next(const char *ref)
{
	return ref && (g_str_has_prefix(ref, "refs/remotes/next/") ||
		       g_str_has_prefix(ref, "refs/remotes/linux-next/") ||
		       g_str_has_prefix(ref, "refs/heads/next") ||
		       g_str_has_prefix(ref, "refs/heads/linux-next"));
}

/* Pending REF as the list knows it, for a draft: "linux-next";
 * "net's main" for refs/remotes/net/main; the branch name of a local
 * branch.  Never the clone's own ref name.  New string, cleaned. */
static char *public_ref_name(const char *ref)
{
	const char *rest, *slash;
	char *remote, *branch, *t;

	if (is_linux_next(ref))
		return g_strdup("linux-next");
	if (!ref || !g_str_has_prefix(ref, "refs/remotes/") ||
	    !(slash = strchr(rest = ref + strlen("refs/remotes/"), '/')))
		return short_ref(ref);
	remote = fs_draft_clean_line(t = g_strndup(rest, (size_t)(slash - rest)));
	g_free(t);
	branch = fs_draft_clean_line(slash + 1);
	t = g_strdup_printf("%s's %s", remote, branch);
	g_free(branch);
	g_free(remote);
	return t;
}

/* F's commit reference, marked as an id of the pending tree so that
 * nobody takes it for a mainline or stable id:
 * 'abc ("subject") (linux-next id)'.  New string. */
static char *pending_commit_ref(const struct fs_finding *f)
{
	char *c = fsd_commit_ref(f->commit, f->subject), *name, *t;

	if (is_linux_next(f->ref))
		t = g_strdup_printf("%s (linux-next id)", c);
	else {
		name = public_ref_name(f->ref);
		t = g_strdup_printf("%s (id in %s)", c, name);
		g_free(name);
	}
	g_free(c);
	return t;
}

/* The opening line of a fix-pending paragraph. */
static char *pending_opening(const struct fs_finding *f)
{
	const char *what = f->cause == FS_CAUSE_REVERT ? "A revert of" : "A fix for";
	char *ref, *t;

	if (!f->commit[0])
		return g_strdup_printf("%s the upstream commit has been posted, but is not in "
				       "mainline yet:", what);
	ref = public_ref_name(f->ref);
	t = g_strdup_printf("%s the upstream commit %sis in %s, but not in mainline yet:", what,
			    f->message_id ? "has been posted and " : "", ref);
	g_free(ref);
	return t;
}

static void para_fix_pending(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *from = fs_draft_clean_line(f->from), *date = fs_draft_clean_line(f->date);
	char *subj = fs_draft_clean_line(f->subject), *id = fs_draft_clean_id(f->message_id);
	char *open = pending_opening(f);

	fsd_add_para(s, open);
	if (f->commit[0]) {
		char *ref = pending_commit_ref(f);
		fsd_add_wrapped(s, "  ", "    ", ref);
		g_free(ref);
	} else {
		add_mail_lines(s, from, date, subj);
	}
	add_lore_line(s, id);
	fsd_add_para(s, "Could this one be held back for now, or the two queued together once the fix lands?");
	g_free(open);
	g_free(from);
	g_free(date);
	g_free(subj);
	g_free(id);
}

static char *item_fix_pending(const struct fs_review *r, const struct fs_finding *f)
{
	char *id = fs_draft_clean_id(f->message_id), *t;
	const char *what = f->cause == FS_CAUSE_REVERT ? "a revert" : "a fix";

	if (f->commit[0]) {
		char *ref = public_ref_name(f->ref), *c = pending_commit_ref(f);
		t = g_strdup_printf("%s in %s, not in mainline yet: %s%s%s", what, ref, c,
				    id ? ", https://lore.kernel.org/r/" : "", id ? id : "");
		g_free(ref);
		g_free(c);
	} else {
		t = g_strdup_printf("%s posted, not in mainline yet%s%s", what,
				    id ? ": https://lore.kernel.org/r/" : "", id ? id : "");
	}
	g_free(id);
	return t;
}

/* ---- series-partial ------------------------------------------------------ */

/* "part 3", or "part 3/5" when the posting's size is known; "a part"
 * for a commit that links the posting's cover (part 0). */
static void add_part(GString *s, unsigned part, unsigned total)
{
	if (!part) {
		g_string_append(s, "a part");
		return;
	}
	g_string_append_printf(s, "part %u", part);
	if (total)
		g_string_append_printf(s, "/%u", total);
}

static void rw_series_partial(GString *s, const struct fs_review *r, const struct fs_finding *f)
{
	size_t i;

	g_string_append_printf(s, " %.12s is ", f->commit);
	add_part(s, f->series_part, f->nparts ? f->parts[0].total : 0);
	g_string_append_printf(s, " of a posting; in mainline, neither in %s nor in this series:",
			       r->branch ? r->branch : "the branch");
	for (i = 0; i < f->nparts; i++) {
		const struct fs_finding_part *p = &f->parts[i];

		g_string_append(s, i ? ", " : " ");
		add_part(s, p->part, p->total);
		g_string_append_printf(s, " %.12s (\"%s\")", p->commit, p->subject ? p->subject : "");
		if (p->release)
			g_string_append_printf(s, " in %s", p->release);
	}
}

static void para_series_partial(GString *s, const struct fs_review *r,
		const struct fs_review_patch *rp, const struct fs_finding *f)
{
	char *branch = fs_draft_clean_line(r->branch), *ref = fsd_commit_ref(f->commit, f->subject);
	size_t i;

	bool one = f->nparts == 1;

	fsd_add_paraf(s, "This patch's upstream commit %s was posted with %s in mainline too, but neither in %s nor in this series:",
		      ref, one ? "another patch that is" : "other patches that are", branch);
	for (i = 0; i < f->nparts; i++) {
		char *pref = fsd_commit_ref(f->parts[i].commit, f->parts[i].subject);
		GString *line = g_string_new(pref);

		g_string_append(line, ", ");
		add_part(line, f->parts[i].part, f->parts[i].total);
		g_string_append(line, " of the posting");
		fsd_add_wrapped(s, "  ", "    ", line->str);
		g_string_free(line, TRUE);
		g_free(pref);
	}
	g_string_append_c(s, '\n');
	fsd_add_para(s, one ? "If it was left out on purpose, fine; otherwise is it needed here as well?" :
			 "If they were left out on purpose, fine; otherwise are they needed here as well?");
	g_free(ref);
	g_free(branch);
}

/* ---- the table ---------------------------------------------------------- */

#define RED "\033[1;31m"
#define YELLOW "\033[33m"
#define GREEN "\033[32m"
#define CYAN "\033[36m"

/* Columns: name, problem, asks, noun, class, rank, paragraph order,
 * colour, summary group, digest weight; the words: report (whole line or
 * after the commit), paragraph (scope, function), summary item. */
static const struct fs_kind kinds[FS_FIND_KIND_COUNT] = {
	[FS_FIND_FIX_MISSING] = {
		"fix-missing", true, true, false, FS_KIND_ACT, 0, 0,
		RED, FS_GROUP_FIXES, 16,
		false, rw_fix_missing, FS_PARA_PATCH, para_fix_missing, NULL },
	[FS_FIND_MISSING_IN_NEWER] = {
		"missing-in-newer", true, true, false, FS_KIND_ACT, 1, 1,
		RED, FS_GROUP_NEWER, 16,
		false, rw_missing_in_newer, FS_PARA_PATCH, para_missing_in_newer,
		item_missing_in_newer },
	[FS_FIND_REVERTED_UPSTREAM] = {
		"reverted-upstream", true, true, false, FS_KIND_ACT, 2, 3,
		RED, FS_GROUP_REVERTED, 16,
		false, rw_reverted_upstream, FS_PARA_EACH, para_reverted, item_reverted_upstream },
	[FS_FIND_ALREADY_APPLIED] = {
		"already-applied", true, true, false, FS_KIND_ACT, 3, 4,
		YELLOW, FS_GROUP_DUPLICATES, 4,
		false, rw_note, FS_PARA_EACH, para_applied, item_already_applied },
	[FS_FIND_DUPLICATE_IN_SERIES] = {
		"duplicate-in-series", true, true, false, FS_KIND_ACT, 4, 5,
		YELLOW, FS_GROUP_DUPLICATES, 4,
		false, rw_duplicate_in_series, FS_PARA_EACH, para_duplicate_in_series,
		item_duplicate_in_series },
	[FS_FIND_DEP_MISSING] = {
		"dep-missing", true, true, false, FS_KIND_ACT, 5, 2,
		YELLOW, FS_GROUP_FIXES, 2,
		false, rw_note, FS_PARA_EACH, para_dep, item_dep_missing },
	[FS_FIND_REVERTED_IN_STABLE] = {
		"reverted-in-stable", true, true, false, FS_KIND_ACT, 6, 8,
		RED, FS_GROUP_STABLE_REVERTED, 8,
		false, rw_reverted_in_stable, FS_PARA_EACH, para_reverted_in_stable,
		item_reverted_in_stable },
	/* Dropped files ask for action; other differences are advisory
	 * (fs_finding_is_problem(), fs_kind_asks()). */
	[FS_FIND_BACKPORT_DIFFERS] = {
		"backport-differs", true, true, false, FS_KIND_ACT, 7, 9,
		YELLOW, FS_GROUP_OTHER, 4,
		false, rw_note, FS_PARA_EACH, para_backport_differs, item_backport_differs },
	[FS_FIND_REGRESSION_REPORT] = {
		"regression-report", true, true, true, FS_KIND_REPORT, 8, 6,
		RED, FS_GROUP_REPORTS, 8,
		true, rw_regression_report, FS_PARA_EACH, para_report, item_regression_report },
	[FS_FIND_OBJECTION] = {
		"objection", true, true, true, FS_KIND_REPORT, 9, 10,
		YELLOW, FS_GROUP_REPORTS, 8,
		true, rw_objection, FS_PARA_EACH, para_said, item_said },
	/* A reply asking for more commits: one finding per commit it
	 * names; one the branch has or the series queues asks nothing
	 * (fs_finding_is_problem()). */
	[FS_FIND_NEEDS_ALSO] = {
		"needs-also", true, true, false, FS_KIND_REPORT, 10, 11,
		YELLOW, FS_GROUP_REPORTS, 8,
		true, rw_needs_also, FS_PARA_EACH, para_said, item_said },
	/* A fix on its way to mainline: hold the patch, or queue both. */
	[FS_FIND_FIX_PENDING] = {
		"fix-pending", true, true, false, FS_KIND_REPORT, 11, 7,
		RED, FS_GROUP_PENDING, 8,
		true, rw_fix_pending, FS_PARA_EACH, para_fix_pending, item_fix_pending },
	[FS_FIND_TARGET_ABSENT] = {
		"target-absent", true, true, false, FS_KIND_NOTE, 12, 13,
		YELLOW, FS_GROUP_OTHER, 2,
		false, rw_target_absent, FS_PARA_EACH, para_target_absent, item_target_absent },
	/* The maintainer's own revert: a note, never a request. */
	[FS_FIND_REVERTS_STABLE] = {
		"reverts-stable", true, false, false, FS_KIND_NOTE, 13, 14,
		YELLOW, FS_GROUP_OTHER, 0,
		false, rw_note, FS_PARA_EACH, para_reverts_stable, item_reverts_stable },
	/* The upstream commit's own tag: stable cannot change it.  It asks
	 * for nothing, so it weighs nothing in the digest either. */
	[FS_FIND_FIXES_TAG_MISMATCH] = {
		"fixes-tag-mismatch", true, false, false, FS_KIND_NOTE, 14, 12,
		CYAN, FS_GROUP_OTHER, 0,
		false, rw_note, FS_PARA_EACH, para_mismatch, item_fixes_tag_mismatch },
	[FS_FIND_UNKNOWN_UPSTREAM] = {
		"unknown-upstream", true, true, false, FS_KIND_NOTE, 15, 15,
		CYAN, FS_GROUP_OTHER, 1,
		false, rw_note, FS_PARA_EACH, para_unknown, item_unknown_upstream },
	/* A stable-only patch may have none: a note, never a request. */
	[FS_FIND_NO_UPSTREAM] = {
		"no-upstream", true, false, false, FS_KIND_NOTE, 16, 16,
		CYAN, FS_GROUP_OTHER, 0,
		true, rw_no_upstream, FS_PARA_EACH, para_no_upstream, item_no_upstream },
	/* Advisory: the rest of the upstream posting is in mainline, not
	 * here.  No request and no exit status; the summary draft names
	 * the parts (draft-summary.c). */
	[FS_FIND_SERIES_PARTIAL] = {
		"series-partial", false, false, false, FS_KIND_NOTE, 17, 17,
		CYAN, FS_GROUP_NONE, 0,
		true, rw_series_partial, FS_PARA_EACH, para_series_partial, NULL },
	/* A fix in this series or in the branch is covered. */
	[FS_FIND_FIX_QUEUED] = {
		"fix-queued", false, false, false, FS_KIND_NOTE, 18, 18,
		GREEN, FS_GROUP_NONE, 0,
		false, rw_fix_queued, FS_PARA_EACH, para_fix_queued, NULL },
	[FS_FIND_FIX_PRESENT] = {
		"fix-present", false, false, false, FS_KIND_NOTE, 19, 19,
		GREEN, FS_GROUP_NONE, 0,
		false, rw_fix_present, FS_PARA_ALONE, para_fix_present, NULL },
	/* What someone said that asks nothing by itself: shown, attributed,
	 * so that no answer vanishes. */
	[FS_FIND_REPLACEMENT_POSTED] = {
		"replacement-posted", false, false, false, FS_KIND_NOTE, 20, 20,
		CYAN, FS_GROUP_NONE, 0,
		true, rw_objection, FS_PARA_EACH, para_said, NULL },
	[FS_FIND_REPLY] = {
		"reply", false, false, false, FS_KIND_NOTE, 21, 21,
		CYAN, FS_GROUP_NONE, 0,
		true, rw_objection, FS_PARA_EACH, para_said, NULL },
};

/* A kind out of range: no words of its own, ranked after every kind. */
static const struct fs_kind unknown_kind = {
	"unknown", true, true, false, FS_KIND_NOTE, FS_FIND_KIND_COUNT, FS_FIND_KIND_COUNT,
	CYAN, FS_GROUP_NONE, 0,
	false, rw_note, FS_PARA_EACH, NULL, NULL,
};

static const char *const group_titles[] = {
	[FS_GROUP_FIXES] = "Fixes to add:",
	[FS_GROUP_NEWER] = "Not in a newer stable branch yet (lost on upgrade):",
	[FS_GROUP_DUPLICATES] = "Likely duplicates:",
	[FS_GROUP_REVERTED] = "Reverted upstream:",
	[FS_GROUP_STABLE_REVERTED] = "Reverted in another stable branch (worth asking why):",
	[FS_GROUP_REPORTS] = "Reports:",
	[FS_GROUP_PENDING] = "Fixes on their way to mainline:",
	[FS_GROUP_OTHER] = "Other notes:",
};

const struct fs_kind *fs_kind(enum fs_finding_kind kind)
{
	return (unsigned)kind < FS_FIND_KIND_COUNT ? &kinds[kind] : &unknown_kind;
}

int fs_kind_by_para_order(int order)
{
	int k;

	for (k = 0; k < FS_FIND_KIND_COUNT; k++)
		if (kinds[k].para_order == order)
			return k;
	return -1;
}

const char *fs_kind_group_title(enum fs_kind_group g)
{
	return (unsigned)g < G_N_ELEMENTS(group_titles) ? group_titles[g] : NULL;
}

enum fs_kind_group fs_kind_group_of(const struct fs_finding *f)
{
	/* Reverted and applied again, a fix mainline reverted: nothing for
	 * the maintainer to do. */
	if (f->cause == FS_CAUSE_REVERT_OF_REVERT || f->cause == FS_CAUSE_FIX_REVERTED)
		return FS_GROUP_NONE;
	/* Only a prerequisite to queue is a request; a patch that is only
	 * here for a commit not queued, or that names an id nobody can
	 * find, is a note on that patch. */
	if (f->kind == FS_FIND_DEP_MISSING && (f->cause == FS_CAUSE_STABLE_DEP_OF || f->unresolved))
		return FS_GROUP_OTHER;
	return fs_kind(f->kind)->group;
}

/* A backport that differs asks only when it leaves files out. */
static bool backport_differs_asks(const struct fs_finding *f)
{
	return f->kind != FS_FIND_BACKPORT_DIFFERS || f->nfiles_dropped;
}

bool fs_kind_asks(const struct fs_finding *f)
{
	/* An id a clone older than the thread lacks may be right. */
	if (f->kind == FS_FIND_UNKNOWN_UPSTREAM && f->cause == FS_CAUSE_NOT_IN_CLONE)
		return false;
	if (!backport_differs_asks(f))
		return false;
	return fs_kind(f->kind)->asks;
}

/* ---- names -------------------------------------------------------------- */

const char *fs_finding_kind_name(enum fs_finding_kind kind)
{
	return fs_kind(kind)->name;
}

int fs_finding_kind_from_name(const char *name)
{
	int i;

	for (i = 0; i < FS_FIND_KIND_COUNT; i++)
		if (!strcmp(kinds[i].name, name))
			return i;
	return -1;
}

bool fs_kind_says_covered(enum fs_finding_kind kind)
{
	return kind == FS_FIND_FIX_QUEUED || kind == FS_FIND_FIX_PRESENT;
}

bool fs_finding_kind_is_problem(enum fs_finding_kind kind)
{
	return fs_kind(kind)->problem;
}

bool fs_finding_is_problem(const struct fs_finding *f)
{
	/* a commit a reply asks for that the branch has or the series queues */
	if (f->kind == FS_FIND_NEEDS_ALSO && (f->series_index >= 0 || f->stable_commit))
		return false;
	return fs_finding_kind_is_problem(f->kind) && f->cause != FS_CAUSE_REVERT_OF_REVERT &&
	       f->cause != FS_CAUSE_FIX_REVERTED && backport_differs_asks(f);
}
