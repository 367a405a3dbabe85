/* fixscan: what is known to be wrong with one stable patch.
 *
 * A pure module: a patch's changelog tags, the fixes index, the rest of
 * its series and the mail store's answers go in; findings come out.  No
 * I/O, so every case can be tested on hand-built inputs.
 */
#ifndef FIXSCAN_FINDINGS_H
#define FIXSCAN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/index.h"
#include "fixscan/ignore.h"
#include "fixscan/mentions.h"
#include "fixscan/tags.h"

enum fs_finding_kind {
	FS_FIND_FIX_MISSING,       /* a fix or revert upstream, not in branch nor series */
	FS_FIND_FIX_QUEUED,        /* such a fix is another patch of this series */
	FS_FIND_FIX_PRESENT,       /* such a fix is in the branch already */
	FS_FIND_REVERTED_UPSTREAM, /* mainline reverted the upstream commit */
	FS_FIND_ALREADY_APPLIED,   /* the upstream commit is in the branch already */
	FS_FIND_TARGET_ABSENT,     /* the commit it fixes is not in the branch */
	FS_FIND_NO_UPSTREAM,       /* no upstream reference at all */
	FS_FIND_UNKNOWN_UPSTREAM,  /* an upstream id the index does not know */
	FS_FIND_REGRESSION_REPORT, /* a mail reports a regression with it */
	FS_FIND_DEP_MISSING,       /* a named prerequisite is missing, or the
				    * patch it is a dependency of is */
	FS_FIND_FIXES_TAG_MISMATCH,/* a Fixes: id that does not match its subject
				    * or names a stable commit */
	FS_FIND_REVERTS_STABLE,    /* the patch reverts a commit of the branch */
	FS_FIND_OBJECTION,         /* a reply in the thread objects to it */
	FS_FIND_KIND_COUNT
};

/* "fix-missing", "fix-queued", ... as used in text and JSON. */
const char *fs_finding_kind_name(enum fs_finding_kind kind);
/* The kind named NAME, or -1. */
int fs_finding_kind_from_name(const char *name);
/* Whether a finding of KIND asks the reviewer to act (everything but
 * fix-present, which only says a fix is there). */
bool fs_finding_kind_is_problem(enum fs_finding_kind kind);

struct fs_finding {
	enum fs_finding_kind kind;
	char commit[41];   /* full id when known, else as written; "" when none */
	char *subject;     /* of COMMIT, or NULL */
	char *release;     /* first release of COMMIT, or NULL */
	char *stable_commit; /* fix-present / already-applied / reverts-stable:
			      * the branch's commit, full id; else NULL */
	char *stable_release; /* its release, or NULL */
	int series_index;  /* fix-queued: the NN that carries it; else -1 */
	char (*chain)[41]; /* ids from the patch's upstream to COMMIT */
	size_t nchain;
	char *message_id;  /* regression-report / objection: the mail; else NULL */
	char *from;        /* its From, or NULL */
	char *date;        /* its Date, or NULL */
	const char *evidence; /* "exact", "prefix", "subject", "revert",
			       * "stable", "mail"; static */
	char *note;        /* one line of detail for the reader, or NULL */
	char *ignored;     /* the reason from the ignore file, or NULL */
};

/* The findings of one patch. */
struct fs_findings {
	struct fs_finding *v;
	size_t n;
	char upstream[41];  /* the patch's first resolved upstream id, or "" */
	char upstream_subject[512];
};
#define FS_FINDINGS_INIT { NULL, 0, "", "" }
void fs_findings_clear(struct fs_findings *f);
/* Findings of KIND that are not ignored. */
size_t fs_findings_count(const struct fs_findings *f, enum fs_finding_kind kind);

/* One other patch of the same series, as the findings see it. */
struct fs_series_entry {
	int index;            /* NN */
	const fs_cid *upstream; /* its resolved upstream commits */
	size_t nupstream;
};

/* Everything a patch is judged against. */
struct fs_findings_ctx {
	const struct fs_index *idx;
	const char *branch;  /* stable branch, e.g. "linux-4.4.y" */
	const char *base;    /* release the series applies on, e.g. "v4.4.10";
			      * NULL: the branch tip */
	const struct fs_series_entry *series;
	size_t nseries;
	const struct fs_report_mail *reports;
	size_t nreports;
	const struct fs_objection *objections;
	size_t nobjections;
	const struct fs_ignore *ignore; /* may be NULL */
};

/* The commits a patch's upstream references name, resolved through the
 * index: every upstream id (and the patch title where an id is ambiguous).
 * Stable ids are mapped to their mainline commit.  Stores up to MAX in
 * OUT and returns how many; *UNKNOWN (may be NULL) gets the first id that
 * did not resolve, as written, or "". */
size_t fs_findings_resolve_upstream(const struct fs_index *idx,
				    const struct fs_tags *tags, const char *title,
				    fs_cid *out, size_t max, char unknown[41]);

/* Judge one patch: its changelog TAGS, its TITLE (subject without the
 * [PATCH ...] prefix), its series INDEX (NN, or -1) and REVERT_TITLE (the
 * X of a 'Revert "X"' title, or NULL).  Fills *OUT (which must be
 * FS_FINDINGS_INIT or cleared); the caller frees it with
 * fs_findings_clear().  Returns 0 or FS_ENOMEM. */
int fs_findings_judge(struct fs_findings *out, const struct fs_findings_ctx *ctx,
		      const struct fs_tags *tags, const char *title, int index,
		      struct fs_error *err);

#endif
