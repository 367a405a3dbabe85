/* fixscan: the table of finding kinds (fixscan/kinds.h): what each kind
 * is -- its name, whether it is a problem and asks for a reply, its class,
 * its rank, its group in the summary draft and its weight in the digest.
 *
 * The words of a kind are beside their readers: its report line in
 * lib/report/report-words.c, its paragraph in a reply in
 * lib/draft/draft-para.c, its summary item in lib/draft/draft-items.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "fixscan/kinds.h"

static const struct fs_kind kinds[FS_FIND_KIND_COUNT] = {
	[FS_FIND_FIX_MISSING] = {
		.name = "fix-missing",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_FIXES,
		.digest_weight = 16,
	},
	[FS_FIND_MISSING_IN_NEWER] = {
		.name = "missing-in-newer",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_NEWER,
		.digest_weight = 16,
	},
	[FS_FIND_REVERTED_UPSTREAM] = {
		.name = "reverted-upstream",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_REVERTED,
		.digest_weight = 16,
	},
	[FS_FIND_ALREADY_APPLIED] = {
		.name = "already-applied",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_DUPLICATES,
		.digest_weight = 4,
	},
	[FS_FIND_DUPLICATE_IN_SERIES] = {
		.name = "duplicate-in-series",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_DUPLICATES,
		.digest_weight = 4,
	},
	[FS_FIND_DEP_MISSING] = {
		.name = "dep-missing",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_FIXES,
		.digest_weight = 2,
	},
	[FS_FIND_REVERTED_IN_STABLE] = {
		.name = "reverted-in-stable",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_STABLE_REVERTED,
		.digest_weight = 8,
	},
	/* Dropped files ask for action; other differences are advisory
	 * (fs_finding_is_problem(), fs_kind_asks()). */
	[FS_FIND_BACKPORT_DIFFERS] = {
		.name = "backport-differs",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_OTHER,
		.digest_weight = 4,
	},
	[FS_FIND_REGRESSION_REPORT] = {
		.name = "regression-report",
		.problem = true,
		.asks = true,
		.noun = true,
		.cls = FS_KIND_REPORT,
		.group = FS_GROUP_REPORTS,
		.digest_weight = 8,
	},
	[FS_FIND_OBJECTION] = {
		.name = "objection",
		.problem = true,
		.asks = true,
		.noun = true,
		.cls = FS_KIND_REPORT,
		.group = FS_GROUP_REPORTS,
		.digest_weight = 8,
	},
	/* A reply asking for more commits: one finding per commit it
	 * names; one the branch has or the series queues asks nothing
	 * (fs_finding_is_problem()). */
	[FS_FIND_NEEDS_ALSO] = {
		.name = "needs-also",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_REPORT,
		.group = FS_GROUP_REPORTS,
		.digest_weight = 8,
	},
	/* A fix on its way to mainline: hold the patch, or queue both. */
	[FS_FIND_FIX_PENDING] = {
		.name = "fix-pending",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_REPORT,
		.group = FS_GROUP_PENDING,
		.digest_weight = 8,
	},
	/* A backport that cannot build: the commit that brings what it
	 * uses is a request, as a prerequisite is (FS_GROUP_FIXES), or the
	 * backport is to be reworked (fs_kind_group_of()). */
	[FS_FIND_SYMBOL_MISSING] = {
		.name = "symbol-missing",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_ACT,
		.group = FS_GROUP_FIXES,
		.digest_weight = 16,
	},
	[FS_FIND_TARGET_ABSENT] = {
		.name = "target-absent",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_OTHER,
		.digest_weight = 2,
	},
	/* The maintainer's own revert: a note, never a request. */
	[FS_FIND_REVERTS_STABLE] = {
		.name = "reverts-stable",
		.problem = true,
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_OTHER,
	},
	/* The upstream commit's own tag: stable cannot change it.  It asks
	 * for nothing, so it weighs nothing in the digest either. */
	[FS_FIND_FIXES_TAG_MISMATCH] = {
		.name = "fixes-tag-mismatch",
		.problem = true,
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_OTHER,
	},
	[FS_FIND_UNKNOWN_UPSTREAM] = {
		.name = "unknown-upstream",
		.problem = true,
		.asks = true,
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_OTHER,
		.digest_weight = 1,
	},
	/* A stable-only patch may have none: a note, never a request. */
	[FS_FIND_NO_UPSTREAM] = {
		.name = "no-upstream",
		.problem = true,
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_OTHER,
	},
	/* Advisory: the rest of the upstream posting is in mainline, not
	 * here.  No request and no exit status; the summary draft names
	 * the parts (draft-summary.c). */
	[FS_FIND_SERIES_PARTIAL] = {
		.name = "series-partial",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
	/* A fix of files the branch does not have: said, never asked for. */
	[FS_FIND_FIX_NOT_APPLICABLE] = {
		.name = "fix-not-applicable",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
		.digest_weight = 0,
	},
	/* A patch mail without its diff: what was not looked at, said so
	 * that "no findings" is not read as "checked". */
	[FS_FIND_DIFF_ABSENT] = {
		.name = "diff-absent",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
	/* A fix in this series or in the branch is covered. */
	[FS_FIND_FIX_QUEUED] = {
		.name = "fix-queued",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
	[FS_FIND_FIX_PRESENT] = {
		.name = "fix-present",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
	/* What someone said that asks nothing by itself: shown, attributed,
	 * so that no answer vanishes. */
	[FS_FIND_REPLACEMENT_POSTED] = {
		.name = "replacement-posted",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
	[FS_FIND_REPLY] = {
		.name = "reply",
		.cls = FS_KIND_NOTE,
		.group = FS_GROUP_NONE,
	},
};

/* The kinds by rank, the order of the report: what to act on, reports
 * from people, then notes (each class in a block, tests/unit/test-kinds.c
 * checks it).  A new kind takes its place here; nobody renumbers. */
static const enum fs_finding_kind by_rank[] = {
	FS_FIND_FIX_MISSING,
	FS_FIND_SYMBOL_MISSING,
	FS_FIND_MISSING_IN_NEWER,
	FS_FIND_REVERTED_UPSTREAM,
	FS_FIND_ALREADY_APPLIED,
	FS_FIND_DUPLICATE_IN_SERIES,
	FS_FIND_DEP_MISSING,
	FS_FIND_REVERTED_IN_STABLE,
	FS_FIND_BACKPORT_DIFFERS,
	FS_FIND_REGRESSION_REPORT,
	FS_FIND_OBJECTION,
	FS_FIND_NEEDS_ALSO,
	FS_FIND_FIX_PENDING,
	FS_FIND_TARGET_ABSENT,
	FS_FIND_REVERTS_STABLE,
	FS_FIND_FIXES_TAG_MISMATCH,
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

_Static_assert(G_N_ELEMENTS(by_rank) == FS_FIND_KIND_COUNT, "every kind has a rank");

/* A kind out of range: ranked after every kind (fs_kind_rank()). */
static const struct fs_kind unknown_kind = {
	.name = "unknown", .problem = true, .asks = true, .cls = FS_KIND_NOTE,
	.group = FS_GROUP_NONE,
};

const struct fs_kind *fs_kind(enum fs_finding_kind kind)
{
	return (unsigned)kind < FS_FIND_KIND_COUNT ? &kinds[kind] : &unknown_kind;
}

int fs_kind_rank(enum fs_finding_kind kind)
{
	int i;

	for (i = 0; i < FS_FIND_KIND_COUNT; i++)
		if (by_rank[i] == kind)
			return i;
	return FS_FIND_KIND_COUNT;
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
	/* A name whose commit was not found: no commit to add, the backport
	 * to rework. */
	if (f->kind == FS_FIND_SYMBOL_MISSING && !f->commit[0])
		return FS_GROUP_OTHER;
	return fs_kind(f->kind)->group;
}

/* A backport that differs asks only when it leaves files out. */
static bool backport_differs_asks(const struct fs_finding *f)
{
	return f->kind != FS_FIND_BACKPORT_DIFFERS || f->diff.nfiles_dropped;
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
	if (f->settled)
		return false;
	return fs_finding_kind_is_problem(f->kind) && f->cause != FS_CAUSE_REVERT_OF_REVERT &&
	       f->cause != FS_CAUSE_FIX_REVERTED && backport_differs_asks(f);
}
