/* fixscan: the commits a mail blames for its problem.
 *
 * A pure module: a mail's decoded text goes in, the commit ids it names
 * as the cause of a regression come out, with how it names them.  Mail
 * from the archives is anyone's: only the poster's own words count.
 */
#ifndef FIXSCAN_CULPRIT_H
#define FIXSCAN_CULPRIT_H

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
size_t fs_culprits_find(const char *body, size_t len, struct fs_culprit **out);
void fs_culprits_free(struct fs_culprit *v, size_t n);

/* "regzbot", "bisected", "caused" */
const char *fs_culprit_how_name(enum fs_culprit_how how);

#endif
