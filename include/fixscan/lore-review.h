/* fixscan: what the mail archives (lore, public-inbox) know about the
 * patches of a series.
 *
 * The mail store holds what the reviewer subscribes to; lore holds every
 * list.  For the upstream commits of a series this module asks the
 * configured public-inbox bases (fs_lore_search(), a few requests for the
 * whole series) for the mails that name one of them by id in their own
 * text, and reads each as hostile mail into three kinds of record:
 * - a fix: a patch mail of no stable series whose Fixes: tag (or revert
 *   line) names the commit: for fix-pending, as a mail of the store;
 * - a regression report: a mail (no patch) whose own words say the
 *   commit is the culprit: a "#regzbot introduced:" line, a bisection
 *   result, or a sentence saying it caused or introduced the problem;
 * - a backport posted for the series' branch ("[PATCH 6.1.y]", "[PATCH
 *   stable]") of the same commit, after the patch was: for
 *   replacement-posted.
 * The judgement of the text is pure (fs_lore_culprits()), the rest reads
 * the answers of the lore-search module.
 */
#ifndef FIXSCAN_LORE_REVIEW_H
#define FIXSCAN_LORE_REVIEW_H

#include <stdbool.h>
#include <stddef.h>

/* How a mail names the commit that caused its problem. */
enum fs_culprit_how {
	FS_CULPRIT_REGZBOT,  /* "#regzbot introduced: <id>" (or ^introduced) */
	FS_CULPRIT_BISECTED, /* a bisection's result: "<id> is the first bad
			      * commit", "# first bad commit: [<id>]", a
			      * sentence of bisecting that ends at the id,
			      * KernelCI's "Breaking commit found:" */
	FS_CULPRIT_CAUSED,   /* a sentence saying the commit caused,
			      * introduced or broke something ("after
			      * commit <id> the board hangs", "reverting
			      * <id> fixes it") */
};

struct fs_culprit {
	char id[41];              /* as written, lower case, 12 to 40 hex digits */
	enum fs_culprit_how how;
	char *line;               /* the line or sentence that says it */
};

/* The commits the mail BODY (LEN bytes, decoded) names as the cause of a
 * problem, in the mail's own words only: quoted lines, a carried patch
 * and pasted commits say nothing; ids of fewer than 12 hex digits are
 * not read (a query cannot find them, and too many commits share them);
 * a negated sentence ("not caused by") names none; a "git bisect good"
 * or "bad" line of a bisection log is no result.  Each id once, in the
 * order of the mail, with the first way it is named.  *OUT is a new
 * array (fs_culprits_free()); returns its length. */
size_t fs_lore_culprits(const char *body, size_t len, struct fs_culprit **out);
void fs_culprits_free(struct fs_culprit *v, size_t n);

/* "regzbot", "bisected", "caused" */
const char *fs_culprit_how_name(enum fs_culprit_how how);

#endif
