/* fixscan: the table of finding kinds.
 *
 * Everything a finding kind is, apart from its judgement (findings.c),
 * is one row of the table in lib/kinds.c: its name, whether it asks for
 * action, its rank in the report, its colour, its group in the summary
 * draft, its weight in the digest, and the words of its report line, of
 * its paragraph in a patch's reply and of its item in the summary.
 * report.c, the draft files, digest.c and the commands read the table;
 * no other file switches on a kind.  A new kind is a value in enum
 * fs_finding_kind (findings.h), its judgement in findings.c and its row
 * here.
 *
 * Ownership: the rows are static and borrowed; the wording functions
 * append to a GString the caller owns, or return a new string (g_free()).
 */
#ifndef FIXSCAN_KINDS_H
#define FIXSCAN_KINDS_H

#include <stdbool.h>

#include <glib.h>

#include "fixscan/findings.h"

struct fs_review;
struct fs_review_patch;

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

/* How a reply to a patch words its findings of one kind. */
enum fs_kind_para_scope {
	FS_PARA_EACH,      /* one paragraph per finding */
	FS_PARA_PATCH,     /* one paragraph for all the patch's findings of
			    * the kind (called once, F NULL) */
	FS_PARA_ALONE,     /* one per finding, only when the patch has no
			    * other finding to show */
};

struct fs_kind {
	const char *name;          /* "fix-missing", as text and JSON say it */
	bool problem;              /* asks the reviewer to act at all */
	bool asks;                 /* earns the patch a reply of its own
				    * (fs_kind_asks() refines it) */
	bool noun;                 /* "2 objections": takes an s */
	enum fs_kind_class cls;
	int rank;                  /* order in the report, 0 first */
	int para_order;            /* order of the paragraphs in a reply */
	const char *color;         /* the report's escape sequence */
	enum fs_kind_group group;  /* fs_kind_group_of() refines it */
	int digest_weight;         /* fixscan-digest(1)'s score table */
	/* The report line after the kind's name.  With REPORT_WHOLE the
	 * words are the whole rest of the line; else they follow the
	 * commit and its CVEs, and the cross-branch notes and evidence
	 * follow them. */
	bool report_whole;
	void (*report_words)(GString *s, const struct fs_review *r, const struct fs_finding *f);
	/* The paragraph of a reply to patch RP (see fs_kind_para_scope). */
	enum fs_kind_para_scope para_scope;
	void (*para)(GString *s, const struct fs_review *r, const struct fs_review_patch *rp,
		     const struct fs_finding *f);
	/* The summary item's words after the patch's line; NULL: none.
	 * New string (g_free()). */
	char *(*summary_item)(const struct fs_review *r, const struct fs_finding *f);
};

/* The row of KIND; a row named "unknown" (no problem, no words of its
 * own, ranked last) for a value out of range.  Borrowed, static. */
const struct fs_kind *fs_kind(enum fs_finding_kind kind);

/* The kind whose reply paragraph comes at position ORDER, or -1. */
int fs_kind_by_para_order(int order);

/* The title of summary group G ("Fixes to add:"), or NULL. */
const char *fs_kind_group_title(enum fs_kind_group g);

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
