/* fixscan: the item the summary draft lists for a finding of each kind,
 * and the titles of the summary's groups (draft-summary.c lists them).
 *
 * One row per kind, by name, beside the function that writes it; a kind
 * without a row has no item of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"
#include "fixscan/report.h"
#include "fixscan/text.h"
#include "draft-private.h"

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
	rel = fs_text_clean_line(f->release);
	branch = fs_text_clean_line(r->branch);
	/* as the patch's reply says it (para_applied()) */
	t = g_strdup_printf("%.12s is in %s, before %s forked", f->commit,
			    *rel ? rel : "mainline", branch);
	g_free(branch);
	g_free(rel);
	return t;
}

static char *item_reverted_upstream(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *rel = fs_text_clean_line(f->release);
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
	char *who = fsd_display_name(f->mail.from), *id = fs_finding_mail_link(f);
	char *t = g_strdup_printf("regression report from %s%s%s", who, id ? ": " : "", id ? id : "");

	g_free(id);
	g_free(who);
	return t;
}

static char *item_said(const struct fs_review *r, const struct fs_finding *f)
{
	char *who = fsd_display_name(f->mail.from), *id = fs_finding_mail_link(f);
	char *round = fs_text_clean_line(f->mail.round);
	char *t = g_strdup_printf("a reply from %s%s%s%s%s", who, *round ? " on " : "", round,
				  id ? ": " : "", id ? id : "");

	g_free(round);
	g_free(id);
	g_free(who);
	return t;
}

static char *item_target_absent(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f), *branch = fs_text_clean_line(r->branch);
	char *t = g_strdup_printf("%s a commit %s does not have: %s",
				  f->cause == FS_CAUSE_REVERT_TARGET ? "reverts" : "fixes", branch, ref);

	g_free(branch);
	g_free(ref);
	return t;
}

static char *item_missing_in_newer(const struct fs_review *r, const struct fs_finding *f)
{
	char *b = fsd_short_branch_name(f->cross.newer_branch);
	char *t = g_strdup_printf("not in %s.y yet", b);

	g_free(b);
	return t;
}

static char *item_duplicate_in_series(const struct fs_review *r, const struct fs_finding *f)
{
	char *ref = item_ref(f);
	const struct fs_review_patch *rp = fs_review_patch_of(r, f);
	char *t = g_strdup_printf("%s again, as %s%s", ref, fs_report_nn(r, f->series_index),
			    rp && fsd_duplicate_differs(r, rp, f) ?
			    ", but not the same diff: which one is meant?" : "");

	g_free(ref);
	return t;
}

static char *item_reverted_in_stable(const struct fs_review *r, const struct fs_finding *f)
{
	char *other = fs_text_clean_line(f->branch), *rel = fs_text_clean_line(f->release);
	char *t = g_strdup_printf("%s reverted its backport: %.12s%s%s", other,
				  f->commit, *rel ? " in " : "", rel);

	g_free(rel);
	g_free(other);
	return t;
}

static char *item_backport_differs(const struct fs_review *r, const struct fs_finding *f)
{
	char *note = fs_text_clean_line(f->note);
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
		char *as = fs_text_clean_line(f->written), *ref = item_ref(f);
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

static char *item_fix_pending(const struct fs_review *r, const struct fs_finding *f)
{
	char *id = fs_finding_mail_link(f), *t;
	const char *what = f->cause == FS_CAUSE_REVERT ? "a revert" : "a fix";

	if (f->commit[0]) {
		char *ref = fsd_public_ref_name(f->ref), *c = fsd_pending_commit_ref(f);
		t = g_strdup_printf("%s in %s, not in mainline yet: %s%s%s", what, ref, c,
				    id ? ", " : "", id ? id : "");
		g_free(ref);
		g_free(c);
	} else {
		t = g_strdup_printf("%s posted, not in mainline yet%s%s", what,
				    id ? ": " : "", id ? id : "");
	}
	g_free(id);
	return t;
}

/* A backport that cannot build and no commit to add for it (one with a
 * commit is a request among the commits to add). */
static char *item_symbol_missing(const struct fs_review *r, const struct fs_finding *f)
{
	char *branch = fs_text_clean_line(r->branch), *t;
	GString *names = g_string_new(NULL);

	fs_report_add_symbols(names, f);
	t = g_strdup_printf("uses %s, which %s has nowhere: it does not build there as it is", names->str,
			    branch);
	g_string_free(names, TRUE);
	g_free(branch);
	return t;
}

/* ---- the tables --------------------------------------------------------- */

static char *(*const summary_items[FS_FIND_KIND_COUNT])(const struct fs_review *r,
							const struct fs_finding *f) = {
	[FS_FIND_MISSING_IN_NEWER] = item_missing_in_newer,
	[FS_FIND_REVERTED_UPSTREAM] = item_reverted_upstream,
	[FS_FIND_ALREADY_APPLIED] = item_already_applied,
	[FS_FIND_DUPLICATE_IN_SERIES] = item_duplicate_in_series,
	[FS_FIND_DEP_MISSING] = item_dep_missing,
	[FS_FIND_REVERTED_IN_STABLE] = item_reverted_in_stable,
	[FS_FIND_BACKPORT_DIFFERS] = item_backport_differs,
	[FS_FIND_REGRESSION_REPORT] = item_regression_report,
	[FS_FIND_OBJECTION] = item_said,
	[FS_FIND_NEEDS_ALSO] = item_said,
	[FS_FIND_FIX_PENDING] = item_fix_pending,
	[FS_FIND_TARGET_ABSENT] = item_target_absent,
	[FS_FIND_REVERTS_STABLE] = item_reverts_stable,
	[FS_FIND_FIXES_TAG_MISMATCH] = item_fixes_tag_mismatch,
	[FS_FIND_UNKNOWN_UPSTREAM] = item_unknown_upstream,
	[FS_FIND_NO_UPSTREAM] = item_no_upstream,
	[FS_FIND_SYMBOL_MISSING] = item_symbol_missing,
};

char *fsd_summary_item(const struct fs_review *r, const struct fs_finding *f)
{
	if ((unsigned)f->kind >= FS_FIND_KIND_COUNT || !summary_items[f->kind])
		return NULL;
	return summary_items[f->kind](r, f);
}

bool fsd_has_summary_item(enum fs_finding_kind kind)
{
	return (unsigned)kind < FS_FIND_KIND_COUNT && summary_items[kind];
}

static const char *const group_titles[] = {
	[FS_GROUP_FIXES] = "Fixes to add:",
	[FS_GROUP_NEWER] = "Not in a newer stable branch yet (lost on upgrade):",
	[FS_GROUP_DUPLICATES] = "Likely duplicates:",
	[FS_GROUP_REVERTED] = "Reverted upstream:",
	[FS_GROUP_STABLE_REVERTED] = "Reverted in another stable branch (worth asking why):",
	[FS_GROUP_REPORTS] = "Reports and replies:",
	[FS_GROUP_PENDING] = "Fixes on their way to mainline:",
	[FS_GROUP_OTHER] = "Other notes:",
};

const char *fsd_group_title(enum fs_kind_group g)
{
	return (unsigned)g < G_N_ELEMENTS(group_titles) ? group_titles[g] : NULL;
}
