/* fixscan: the table of finding kinds.
 *
 * What a finding kind is, apart from its judgement (lib/review/findings.c),
 * is one row of the table in lib/review/kinds.c: its name, whether it
 * asks for action, its class and rank in the report, its group in the
 * summary draft and its weight in the digest.  Its words are tables of
 * their own, by kind, beside the code that prints them: the report line
 * (lib/report/report-words.c), the paragraph of a reply
 * (lib/draft/draft-para.c) and the summary item (lib/draft/draft-items.c).
 * A new kind is a value in enum fs_finding_kind (findings.h), its
 * judgement, its row here and its place in the rank order, and a row in
 * each table of words (tests/unit/test-kinds.c checks they are complete).
 *
 * Ownership: the rows are static and borrowed.
 */
#ifndef FIXSCAN_KINDS_H
#define FIXSCAN_KINDS_H

#include <stdbool.h>

#include "fixscan/findings.h"

/* Where a kind stands in the report's order: what to act on, reports
 * from people, then notes.  A finding of an act or report kind that is
 * no problem (a revert a revert of the revert undid) ranks after every
 * note. */
enum fs_kind_class {
	FS_KIND_ACT,
	FS_KIND_REPORT,
	FS_KIND_NOTE,
};

/* The groups of the summary draft, in the order it lists them. */
enum fs_kind_group {
	FS_GROUP_FIXES,            /* "Fixes to add:" (one request per commit;
	                              "Commits to add:" with a prerequisite) */
	FS_GROUP_NEWER,
	FS_GROUP_DUPLICATES,
	FS_GROUP_REVERTED,
	FS_GROUP_STABLE_REVERTED,
	FS_GROUP_REPORTS,
	FS_GROUP_PENDING,          /* fixes on their way to mainline */
	FS_GROUP_OTHER,
	FS_GROUP_NONE,             /* not in the summary */
};

struct fs_kind {
	const char *name;          /* "fix-missing", as text and JSON say it */
	bool problem;              /* asks the reviewer to act at all */
	bool asks;                 /* earns the patch a reply of its own
				    * (fs_kind_asks() refines it) */
	bool noun;                 /* "2 objections": takes an s */
	enum fs_kind_class cls;
	enum fs_kind_group group;  /* fs_kind_group_of() refines it */
	int digest_weight;         /* fixscan-digest(1)'s score table */
};

/* The row of KIND; a row named "unknown" (no problem, no words of its
 * own, ranked last) for a value out of range.  Borrowed, static. */
const struct fs_kind *fs_kind(enum fs_finding_kind kind);

/* KIND's rank, its place in the report's order (0 first, the most
 * serious); FS_FIND_KIND_COUNT for a value out of range. */
int fs_kind_rank(enum fs_finding_kind kind);

/* Finding F's summary group: its kind's, except that a revert undone by
 * a revert of the revert is in none, and a dep-missing that is only a
 * Stable-dep-of, or names an id nobody can find, is a note. */
enum fs_kind_group fs_kind_group_of(const struct fs_finding *f);

/* Whether F asks the maintainer to act, by its kind's row, except that
 * an unknown upstream id a clone older than the thread lacks may be
 * right.  (No ignore and no shown check: fs_draft_finding_asks().) */
bool fs_kind_asks(const struct fs_finding *f);

/* Whether KIND only says that all is well (a fix the series queues or
 * the branch has): every other kind is worth a look, even one that asks
 * nothing (a reply, a partly picked series). */
bool fs_kind_says_covered(enum fs_finding_kind kind);

#endif
