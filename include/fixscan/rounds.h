/* fixscan: what changed since the previous round of a release.
 *
 * A release under review may be posted again (-rc2, -rc3 ...) with
 * patches added or dropped.  Reviewing round N >= 2 when the store has
 * the thread of an earlier round of the same release, the review says
 * what changed: the patches added and dropped (a patch is the same
 * patch in both rounds when it carries the same upstream commit, or,
 * without one, the same title; two of the same commit are two), the
 * upstream commits only one round has, and the findings that are new and
 * those that are gone (resolved).
 *
 * Ownership: a round owns its strings and arrays (GLib's: g_free(),
 * fs_round_free()); the reviews compared are borrowed.
 */
#ifndef FIXSCAN_ROUNDS_H
#define FIXSCAN_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "fixscan/error.h"
#include "fixscan/findings.h"

struct fs_review;

/* A finding of one round that the other has not. */
struct fs_round_finding {
	enum fs_finding_kind kind;
	char commit[41];   /* the finding's commit, or "" */
	char upstream[41]; /* the patch's upstream commit, or "" */
	int index;         /* the patch's NN in its round */
};

struct fs_round {
	char *cover;       /* the previous round's cover Message-Id, or NULL */
	char *release;     /* "4.4.21-rc1" */
	char (*added)[41]; /* upstream commits of this round only */
	size_t nadded;
	char (*dropped)[41]; /* upstream commits of the previous round only */
	size_t ndropped;
	int *patches_added;   /* NN of this round's patches the previous has
			       * no counterpart of, in order */
	size_t npatches_added;
	int *patches_dropped; /* NN of the previous round's patches this
			       * round has no counterpart of, in order */
	size_t npatches_dropped;
	struct fs_round_finding *findings_new;      /* this round only */
	size_t nfindings_new;
	struct fs_round_finding *findings_resolved; /* the previous only */
	size_t nfindings_resolved;
};
void fs_round_free(struct fs_round *rd);

/* RELEASE ("4.4.21-rc2") split into its release ("4.4.21", new string,
 * g_free()) and round (2).  Returns false, *BASE NULL, for a release that
 * is not a version with "-rcN" (fixscan/version.h; no 'v', N up to
 * 1000). */
bool fs_round_parse(const char *release, char **base, int *round);

/* What changed from review PREV (an earlier round) to CUR: *OUT
 * (fs_round_free()).  Findings are told apart by kind, commit and the
 * patch's upstream commit; ignored ones do not count, and what a reply
 * in PREV's thread said is never resolved (the reply stays there; a
 * reply in CUR's thread is new).  Returns 0 or FS_ENOMEM. */
int fs_round_compare(struct fs_round **out, const struct fs_review *prev,
		     const struct fs_review *cur, struct fs_error *err);

/* Whether patch NN of the previous round is one RD says was dropped. */
bool fs_round_dropped(const struct fs_round *rd, int nn);

/* "since 4.4.21-rc1: +1 patch, -1 patch, 2 findings resolved" (no
 * newline), or "since 4.4.21-rc1: no change".  New string (g_free()). */
char *fs_round_text(const struct fs_round *rd);

#endif
